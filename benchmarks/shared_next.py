"""The declarer's next card chosen once for all the worlds it cannot tell apart: an experiment on
strategy fusion in the hard player's card play (benchmarks/README.md, "The declarer's next card
shared across worlds").

The hard player values each card by solving every sampled world double dummy. In each world the
solver lets the declarer play on as if it saw every hand, so a line that leaves the declarer a
guess later is valued as if it always guessed right ("strategy fusion"). :class:`HardSharedNext`
is the hard player with one change: as declarer at a table without partners, from
``shared_cards`` cards in hand down, it follows each of its cards through the rest of the trick and
the others' cards up to its own next turn, world by world, and there picks one card for all the
worlds that reached the same cards played, the card best on their weighted average (the
declarer's choice made as it must be made, without seeing the hands). Only after that second card
does it solve each world double dummy. The defenders still choose world by world, as the solver
does. This is the αμ search of Cazenave and Ventos at depth two, without its Pareto fronts (one
vector per node, the declarer's best on average).

With ``depth=0`` it reduces to the hard player's own search (the same worlds, the same values),
which the tests check. In the arena::

    PYTHONPATH=benchmarks batak arena --bots shared_next:HardSharedNext,hard --preset standard \\
        --deals 750 --seed 2026 --jobs 2 --common-seeds
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from batak.bots import solver as _solver
from batak.bots.hard import HardPlayer
from batak.bots.knowledge import Knowledge
from batak.bots.simple import (
    CARD_INDEX,
    EMPTY_TRICK,
    Table,
    TrickState,
    after_card,
    card_text,
    trick_state,
)

Values = dict[int, int]  # world -> the side's tricks from the decision on (this trick included)


@dataclass(frozen=True, slots=True)
class _Node:
    """A position on one path of the walk, the same in every world that reached it: the cards
    played since the decision (``removed``), the trick on the table, its leader and state,
    whether trumps are broken, and the side's tricks taken since the decision."""

    removed: int
    trick: tuple[int, ...]
    leader: int
    st: TrickState
    broken: bool
    gained: int


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Walk:
    """One decision's walk: the worlds' hands, the rules and the solver's table."""

    def __init__(
        self,
        player: HardSharedNext,
        t: Table,
        hands: list[tuple[int, ...]],
        shares: list[float],
        table: Any,
    ) -> None:
        seat = t.seat
        assert seat is not None
        self.player = player
        self.t = t
        self.seat = seat
        self.n = t.n
        self.trump = t.trump
        self.rules = t.rules
        self.cards = _solver.CardRules(t.rules, t.trump)
        self.side = player._side(t, seat)
        self.side_mask = sum(1 << s for s in self.side)
        self.flags = _solver._c_flags(t.rules, t.trump)
        self.already = sum(t.tricks_won[s] for s in self.side)
        self.hands = hands
        self.shares = shares
        self.table = table
        self.solves = 0

    def worth(self, values: Values) -> float:
        """The weighted sum of what ``values`` are worth to the declarer (:meth:`_utility`)."""
        p, t = self.player, self.t
        return sum(
            self.shares[w] * p._utility(t, self.side, self.seat, self.already + v)
            for w, v in values.items()
        )

    def mover(self, node: _Node) -> int:
        return (node.leader + len(node.trick)) % self.n

    def legal(self, h: int, node: _Node) -> int:
        if not node.trick:
            return self.cards.lead_mask(h, node.broken)
        st = node.st
        return self.cards.follow_mask(h, st.lead, st.hi_led, st.hi_trump, st.ruffed)

    def after(self, ws: list[int], node: _Node, card: int, depth: int) -> Values:
        """The side's tricks in each world of ``ws`` once ``card`` is played at ``node``: double
        dummy when ``depth`` is 0, else by walking on to the declarer's next card."""
        trick, broken = node.trick, node.broken
        if card // 13 == self.trump and (
            (trick and trick[0] // 13 != self.trump)
            or (not trick and self.rules.broken_by == "any_trump")
        ):
            broken = True
        st = after_card(node.st, card, self.mover(node), self.trump)
        nxt = replace(
            node, removed=node.removed | 1 << card, trick=(*trick, card), st=st, broken=broken
        )
        if len(nxt.trick) == self.n:
            won = 1 if st.winner in self.side else 0
            nxt = replace(nxt, trick=(), leader=st.winner, st=EMPTY_TRICK, gained=nxt.gained + won)
            if not self.hands[ws[0]][st.winner] & ~nxt.removed:  # the last trick is over
                return dict.fromkeys(ws, nxt.gained)
        if depth == 0:
            out: Values = {}
            for w in ws:
                hands = tuple(h & ~nxt.removed for h in self.hands[w])
                v = self.table.solve(
                    hands, self.trump, nxt.leader, nxt.trick, nxt.broken, self.side_mask, self.flags
                )
                self.solves += 1
                out[w] = nxt.gained + v
            return out
        return self.turn(ws, nxt, depth)

    def turn(self, ws: list[int], node: _Node, depth: int) -> Values:
        """The next player to move: the declarer picks one card for all of ``ws`` (they look
        alike to it), a defender the worst card for the declarer in each world."""
        mover = self.mover(node)
        if mover in self.side:
            h = self.hands[ws[0]][mover] & ~node.removed
            best: Values | None = None
            best_worth = 0.0
            for card in sorted(_bits(self.legal(h, node))):  # ties: the lower card
                got = self.after(ws, node, card, depth - 1)
                worth = self.worth(got)
                if best is None or worth > best_worth + 1e-9:
                    best, best_worth = got, worth
            assert best is not None
            return best
        groups: dict[int, list[int]] = {}
        for w in ws:
            for card in _bits(self.legal(self.hands[w][mover] & ~node.removed, node)):
                groups.setdefault(card, []).append(w)
        out: Values = {}
        for card, sub in groups.items():
            for w, v in self.after(sub, node, card, depth).items():
                if w not in out or v < out[w]:
                    out[w] = v
        return out


class HardSharedNext(HardPlayer):
    """The hard player whose declarer, at a table without partners and from ``shared_cards``
    cards down, picks its next card once for the worlds it cannot tell apart (see the module).
    ``depth``: how many of its own cards, after the one it decides, are so chosen (0: none, the
    hard player's search)."""

    name = "hard-shared-next"

    def __init__(
        self,
        *,
        seed: int | None = None,
        shared_cards: int = 5,
        depth: int = 1,
        **options: Any,
    ) -> None:
        super().__init__(seed=seed, **options)
        self.shared_cards = shared_cards
        self.depth = depth
        self.solves = 0  # solver calls of the last shared decision
        self.values: dict[str, float] = {}  # the last shared decision's worth of each card

    def _search(
        self,
        t: Table,
        rng: random.Random,
        deadline: float | None,
        *,
        wide: bool = False,
        early: bool = False,
    ) -> str | None:
        seat = t.seat
        if (
            early
            or wide
            or seat is None
            or t.rules.partners
            or t.bidder != seat
            or t.hand_sizes[seat] > self.shared_cards
            or not _solver.c_engine_available()
        ):
            return super()._search(t, rng, deadline, wide=wide, early=early)
        drawn = list(self._worlds(Knowledge.from_view(t), rng, self._card_weight(t), self.worlds))
        hands = [tuple(world[: t.n]) for world, _ in drawn]
        shares = [share for _, share in drawn]
        table = _solver.thread_table(t.hand_sizes[seat])
        walk = _Walk(self, t, hands, shares, table)
        ws = list(range(len(hands)))
        leader = t.leader if t.trick else seat
        # removed: none yet (the worlds' hands are the cards still held)
        node = _Node(
            0, tuple(t.trick), leader, trick_state(t.trick, leader, t.trump, t.n), t.broken, 0
        )
        legal = [CARD_INDEX[m] for m in t.legal]
        totals = {card: walk.worth(walk.after(ws, node, card, self.depth)) for card in legal}
        self.solves = walk.solves
        self.values = {card_text(c): v for c, v in totals.items()}
        self.last.worlds = len(hands)
        self.last.searched = True
        best = max(legal, key=lambda c: (totals[c], -(c % 13), -c))  # ties: the lower card
        return card_text(best)
