"""The hard player: perfect-information Monte Carlo over worlds consistent with what it has seen.

In the card play it deals the cards it cannot see many times over (:func:`~batak.bots.knowledge.
sample_world`: every inference from the compulsory rules holds in every world; the auction and
the others' choices of card tilt the deal towards what they suggest, :func:`~batak.bots.
knowledge.play_bias`), solves each world double-dummy for every legal card (the compiled solver
in :mod:`batak.bots.solver`), turns the tricks into what they are worth at this table (making or
defeating the contract matters more than one trick; a defender without a trick yet also minds
the zero-trick penalty), and plays the card with the best average.
Positions too big to solve within the thinking budget are played with the medium player's
judgement. The auction, the kitty and the trump are decided by simulation
(:mod:`batak.bots.bidsim`): worlds dealt from the seat's view, weighted by the auction, played
out for every trump by a cheap evaluator (greedy, then the solver at 8 cards) and scored with the
table's scoring.

The number of worlds is fixed per decision, not timed, so the same seed and the same view give the
same move; :meth:`HardPlayer.choose_within` instead stops at a deadline (for the server's clocks).

>>> import batak, batak.bots
>>> g = batak.Game("standard", seed=11)
>>> bot = batak.bots.get("hard", seed=1)
>>> while g.phase != "over":
...     g.play(bot.choose(g.view(g.to_move)))
>>> sum(g.tricks_won)
13
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..rules import Rules
from ..scoring import score
from . import solver as _solver
from .bidsim import (
    BidSim,
    SimDecision,
    SimParams,
    decide_bid,
    decide_bury,
    decide_trump,
    playout,
    pool_key,
)
from .knowledge import Knowledge, Weight, auction_bias, play_bias, product, sample_world
from .medium import MediumPlayer
from .medium import Params as MediumParams
from .signals import is_first_discard, signal_weight, wanted_suit
from .simple import CARD_INDEX, Table, card_text, decision_rng, parse_view, trick_state

__all__ = [
    "HARD_SIM",
    "WORLDS",
    "HardPlayer",
    "HardPlayerEarly",
    "HardPlayerMediumBids",
    "HardPlayerNarrowDeclarer",
    "HardPlayerNoInference",
    "HardPlayerNoSignals",
    "HardStats",
    "Owned",
    "defender_points",
]

#: How much average worth (tricks, plus the contract's bonus) the first discard may give up to
#: send the partners' signal.
SIGNAL_SLACK = 0.15

#: Each seat :meth:`HardPlayer._zero_watch` names, with its change and its tricks from now on in
#: one world (double dummy; None when not searched)
Owned = list[tuple[int, float, int | None]]

#: The simulated auction, trump and kitty decisions' tuning (see :mod:`batak.bots.bidsim`).
HARD_SIM = SimParams()

#: Worlds drawn for each card decision up to ``max_cards`` (9 cards with the compiled solver):
#: 48 rather than 24 gave up 0.07 fewer tricks a deal double dummy over 450 deals of paired
#: decisions ([+0.01, +0.13]; benchmarks/README.md, "Decisions judged double dummy"), and
#: leaned the same way in the arena, for a p95 card decision still far inside its second.
WORLDS = 48

#: The largest hand the hard player searches by default (with the compiled solver), with at
#: most ``wide_worlds`` worlds above ``max_cards``: searching from 10 cards instead of 9 was
#: stronger in the arena (benchmarks/README.md, "Searching from 10 cards a hand").
WIDE_CARDS = 10

#: At a table with partners (eşli) the default search starts one card earlier again: from 11
#: cards a hand, with at most 8 worlds above 9 cards and no new world after 3 million solver
#: nodes (cards, worlds, node budget). It was stronger in ``sultan-esli`` over 1,500 boards and
#: gained nothing in ``standard`` (benchmarks/README.md, "From 11 cards at a table with
#: partners").
PARTNER_WIDE = (11, 8, 3_000_000)

#: At a table without partners the declarer (the seat that won the auction) searches from 12
#: cards a hand, with at most 8 worlds above 9 cards and no new world after 3 million nodes:
#: about three quarters of what the hard player left to an all-seeing one was its play as
#: declarer (benchmarks/README.md, "Where the rest of the gap lies"), and searching its 12- and
#: 11-card decisions (in ``standard`` its second and third tricks), which the medium player's
#: rules made before, was stronger over 4,500 boards of ``standard`` and ``sultan-ihaleli``
#: ("The declarer searches from 12 cards"). Defenders keep ``wide_cards``.
DECLARER_WIDE = (12, 8, 3_000_000)


@dataclass(slots=True)
class HardStats:
    """What the last decision did: worlds solved, cards compared, seconds, or why it fell back."""

    worlds: int = 0
    seconds: float = 0.0
    searched: bool = False
    fallback: str = ""
    capped: bool = False  # the search stopped at node_cap (a world was dropped)


class HardPlayer:
    """Samples hidden hands and searches them double-dummy. ``worlds``: worlds per card decision
    (:data:`WORLDS`); ``max_cards``: the largest hand size it searches with all its worlds;
    ``wide_cards``: the largest it searches at all, with at most ``wide_worlds`` worlds and no new
    world once the solver has searched ``node_budget`` nodes in the decision (a count, not a clock,
    so the move stays a function of the seed and the view); above it the medium player decides. At a
    table with partners a player given neither ``wide_cards`` nor ``max_cards`` goes one card
    further (:data:`PARTNER_WIDE`), and at a table without, as declarer, two cards further
    (:data:`DECLARER_WIDE`); each with its own ``wide_worlds`` and ``node_budget`` if given. A
    decision never searches more than ``node_cap`` nodes in the compiled solver (0: no cap; the
    play-outs of ``early`` have none): the world in progress then is dropped (some rare positions
    take the solver seconds), and with no world finished the medium player decides. ``inference``:
    how strongly the worlds follow what the others' choices of card suggest
    (:func:`.knowledge.play_bias`; 0: not at all). ``bidding``: ``"sim"`` (the auction, kitty and
    trump by simulation, :mod:`.bidsim`, with ``bid_worlds`` worlds) or ``"medium"`` (the medium
    player's). ``signals``: in eşli, send the partners' first-discard signal and read the partner's
    (:mod:`.signals`). ``early``: above ``wide_cards``, judge each card over ``early_worlds`` worlds
    by a quick play-out (the rest of the trick and the next ones greedy, every hand visible, then
    the solver from ``solve_at`` cards; :func:`.bidsim.playout`) instead of handing the decision to
    the medium player. ``zero_trick``: a defender that has taken no trick yet also counts what
    ending the deal without one costs it at this table (:meth:`_zero_cost`; on by default since
    2026-12-02: benchmarks/README.md)."""

    name = "hard"

    #: What making the contract (or, defending, defeating it) is worth in :meth:`_utility`, in
    #: tricks for each trick bid
    contract_weight = 2.0

    #: How much likelier the worlds make the card a partner's first discard promised in its
    #: hand (:func:`.signals.signal_weight`)
    signal_strength = 8.0

    #: How much average worth the first discard may give up to send the signal
    #: (:data:`SIGNAL_SLACK`)
    signal_slack = SIGNAL_SLACK

    def __init__(
        self,
        *,
        seed: int | None = None,
        worlds: int = WORLDS,
        max_cards: int | None = None,
        wide_cards: int | None = None,
        wide_worlds: int | None = None,
        node_budget: int | None = None,
        node_cap: int = 6_000_000,
        bidding: str = "sim",
        bid_worlds: int | None = None,
        sim: SimParams | None = None,
        signals: bool = True,
        early: bool = False,
        early_worlds: int = 24,
        solve_at: int = 8,
        inference: float = 1.0,
        zero_trick: bool = True,
        **_options: Any,
    ) -> None:
        if bidding not in ("sim", "medium"):
            raise ValueError(f"bidding must be 'sim' or 'medium', got {bidding!r}")
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.worlds = worlds
        # The compiled solver handles 9-card positions in milliseconds; the Python one only
        # small endgames. Above this size a world takes too long for the move clock.
        default_cards = 9 if _solver.c_engine_available() else 4
        self.max_cards = max_cards if max_cards is not None else default_cards
        default_reach = wide_cards is None and max_cards is None
        if wide_cards is None:
            # by default one card more with fewer worlds (WIDE_CARDS); with a max_cards of its
            # own, a player searches up to that and no further unless told
            wide_cards = WIDE_CARDS if max_cards is None else self.max_cards
        self.wide_cards = max(self.max_cards, wide_cards)
        if not _solver.c_engine_available():
            self.wide_cards = self.max_cards
        self.wide_worlds = wide_worlds if wide_worlds is not None else 12
        self.node_budget = node_budget if node_budget is not None else 1_500_000
        #: (wide_cards, wide_worlds, node_budget) at a table with partners, when not the same
        self.partner_wide: tuple[int, int, int] | None = None
        #: (wide_cards, wide_worlds, node_budget) for the declarer at a table without partners
        self.declarer_wide: tuple[int, int, int] | None = None
        if default_reach and self.wide_cards == WIDE_CARDS:

            def own(reach: tuple[int, int, int]) -> tuple[int, int, int]:
                """``reach`` with this player's own worlds and node budget, if given."""
                cards, worlds_there, budget = reach
                return (
                    cards,
                    wide_worlds if wide_worlds is not None else worlds_there,
                    node_budget if node_budget is not None else budget,
                )

            self.partner_wide = own(PARTNER_WIDE)
            self.declarer_wide = own(DECLARER_WIDE)
        self.node_cap = node_cap
        self.early = early and _solver.c_engine_available()
        self.early_worlds = early_worlds
        self.solve_at = solve_at
        self.inference = inference  # how hard it reads the others' choices (0: not at all)
        self.signals = signals  # eşli: send and read the first-discard signal (.signals)
        #: a defender without a trick yet counts what ending the deal without one costs
        #: (:meth:`_zero_cost`), searching its own tricks when it has no partner
        self.zero_trick = zero_trick
        self.medium = MediumPlayer(seed=self.seed, params=MediumParams(signals=signals))
        self.bidding = bidding
        self.sim_params = sim or HARD_SIM
        self.bid_worlds = bid_worlds if bid_worlds is not None else self.sim_params.worlds
        self._sim: BidSim | None = None  # the pool of worlds of the current deal's auction
        self.last = HardStats()

    # ------------------------------------------------------------------ public
    def choose(self, view: Mapping[str, Any]) -> str:
        return self._decide(view, deadline=None)

    def choose_within(self, view: Mapping[str, Any], seconds: float) -> str:
        """A legal move within about ``seconds`` (the worlds stop at the deadline)."""
        return self._decide(view, deadline=time.perf_counter() + max(0.0, seconds))

    # ------------------------------------------------------------------ decision
    def _decide(self, view: Mapping[str, Any], deadline: float | None) -> str:
        start = time.perf_counter()
        self.last = HardStats()
        t = parse_view(view)
        legal = t.legal
        if not legal:
            raise ValueError("this seat has no move to make now (legal_moves is empty)")
        if len(legal) == 1:
            self.last.fallback = "only move"
            return legal[0]
        if t.phase != "play" or t.seat is None:
            if "bid 0" in legal and t.rules.zero_bid is not None:
                # a zero bid: the playouts try to take tricks, so the duck plan's judgment rules
                zero = self.medium.choose(view)
                if zero == "bid 0":
                    self.last.fallback = "zero bid"
                    return zero
            if self.bidding == "sim" and t.seat is not None and self.bid_worlds > 0:
                decision = self._simulate(t, deadline)
                self.last.seconds = time.perf_counter() - start
                if decision is not None and decision.move in legal:
                    return decision.move
            self.last.fallback = "not card play"
            return self.medium.choose(view)
        if t.avoiding_tricks():  # the search counts tricks won; here the side wants none more
            self.last.fallback = "avoiding tricks"
            return self.medium.choose(view)
        cards_left = t.hand_sizes[t.seat]
        wide_cards = self.reach(t)[0]
        early = cards_left > wide_cards
        if early and not self.early:
            self.last.fallback = f"{cards_left} cards in hand > {wide_cards}"
            return self.medium.choose(view)
        wide = cards_left > self.max_cards
        rng = decision_rng(self.seed, view, "hard")
        move = self._search(t, rng, deadline, wide=wide and not early, early=early)
        self.last.seconds = time.perf_counter() - start
        if move is None:
            if self.last.capped:
                self.last.fallback = "node cap"
            else:
                self.last.fallback = "no world finished before the deadline"
            return self.medium.choose(view)
        return move

    def _simulate(self, t: Table, deadline: float | None) -> SimDecision | None:
        """The auction, kitty or trump decision by simulation (:mod:`batak.bots.bidsim`)."""
        key = pool_key(t, self.seed)
        sim = self._sim
        if sim is None or sim.key != key or len(sim.pool) != self.bid_worlds:
            sim = BidSim(t, self.seed, worlds=self.bid_worlds)
            self._sim = sim
        p = self.sim_params
        if t.phase == "bidding":
            d = decide_bid(t, sim, p, deadline)
        elif t.phase == "trump":
            d = decide_trump(t, sim, p, deadline)
        elif t.phase == "bury":
            d = decide_bury(t, sim, p, deadline)
        else:  # pragma: no cover - no other phase has moves
            return None
        self.last.worlds = d.worlds
        self.last.searched = True
        return d

    def _side(self, t: Table, seat: int) -> frozenset[int]:
        """The seats whose tricks count together for ``seat`` in the double-dummy search."""
        if t.bidder is None:  # Koz Maça: every player for themselves
            return frozenset(t.rules.team_of(seat))
        declarers = frozenset(t.rules.team_of(t.bidder))
        if seat in declarers:
            return declarers
        return frozenset(range(t.n)) - declarers  # the defenders act together against the bid

    def reach(self, t: Table) -> tuple[int, int, int]:
        """How far this table's search goes: the largest hand it searches, the worlds above
        ``max_cards`` and the node budget there (:data:`PARTNER_WIDE` with partners,
        :data:`DECLARER_WIDE` for the declarer without)."""
        if self.partner_wide is not None and t.rules.partners:
            return self.partner_wide
        if self.declarer_wide is not None and t.bidder is not None and t.seat == t.bidder:
            return self.declarer_wide
        return self.wide_cards, self.wide_worlds, self.node_budget

    def _auction_weight(self, t: Table) -> Weight:
        """How the auction tilts the worlds (:func:`.knowledge.auction_bias`; a variant in the
        arena may draw them otherwise)."""
        return auction_bias(t)

    def _card_weight(self, t: Table) -> Weight:
        """How a card decision tilts its worlds: the auction (:meth:`_auction_weight`), what the
        others' choices of card suggest (with ``inference``) and the partner's signal (with
        ``signals``)."""
        weights = [self._auction_weight(t)]
        if self.inference > 0:  # what the others' choices of card suggest
            weights.append(play_bias(t, self.inference))
        told = signal_weight(t, self.signal_strength) if self.signals else None
        if told is not None:  # the partner's first discard promised a card: deal it there more
            weights.append(told)
        return product(*weights)

    def _utility(self, t: Table, side: frozenset[int], seat: int, side_tricks: int) -> float:
        """What a deal ending with ``side_tricks`` for the side is worth to the side: its tricks,
        plus a bonus of :attr:`contract_weight` (2) times the bid for making the contract (or,
        defending, defeating it)."""
        if t.bidder is None:
            bid = (t.seat_bids or [None] * t.n)[seat]
            if bid is None:
                return float(side_tricks)
            return side_tricks + (self.contract_weight * bid if side_tricks >= bid else 0.0)
        bid = t.bid or 0
        if t.bidder in side:
            return side_tricks + (self.contract_weight * bid if side_tricks >= bid else 0.0)
        deal_tricks = len(t.tricks) + t.hand_sizes[seat]  # the mover still holds this trick's card
        declarer_tricks = deal_tricks - side_tricks
        return side_tricks + (self.contract_weight * bid if declarer_tricks < bid else 0.0)

    def _zero_cost(self, t: Table, seat: int, side: frozenset[int]) -> float:
        """What ending the deal without a trick costs ``seat``, a defender (with partners: its
        side) that has taken none yet, beyond the trick itself, in tricks of :meth:`_utility`
        (the table's zero-trick penalty, "batak", over what a defender's trick is worth); 0 when
        it cannot happen or costs nothing more. Read from the table's own scoring, so every
        scheme and option is counted as the score sheet counts it."""
        rules = t.rules
        bidder, bid = t.bidder, t.bid
        if not self.zero_trick or bidder is None or bid is None or bidder in side:
            return 0.0
        if any(t.tricks_won[s] for s in (side if rules.partners else (seat,))):
            return 0.0
        zero, one, two = (defender_points(rules, bidder, bid, seat, k) for k in (0, 1, 2))
        trick = two - one
        if trick <= 0:
            return 0.0
        extra = one - zero - trick
        return extra / trick if extra > 0 else 0.0

    def _zero_watch(self, t: Table, seat: int, side: frozenset[int]) -> list[tuple[int, float]]:
        """The seats whose ending the deal without a trick changes what a card is worth to
        ``seat``, each with the change (in tricks of :meth:`_utility`): a defender without a
        trick yet watches itself, at the cost of :meth:`_zero_cost`."""
        cost = self._zero_cost(t, seat, side)
        return [(seat, -cost)] if cost else []

    def _card_worth(
        self,
        t: Table,
        side: frozenset[int],
        seat: int,
        side_tricks: int,
        owns: Owned,
    ) -> float:
        """What a card is worth to ``seat`` in one world: :meth:`_utility` of the side's tricks,
        changed by each watched seat's ``change`` where that seat takes no trick from now on
        (``owns``: each of :meth:`_zero_watch`'s seats with its change and its tricks from now
        on, double dummy)."""
        worth = self._utility(t, side, seat, side_tricks)
        for _, change, own in owns:
            if own == 0:
                worth += change
        return worth

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
        assert seat is not None
        knowledge = Knowledge.from_view(t)
        weight = self._card_weight(t)

        side = self._side(t, seat)
        side_mask = sum(1 << s for s in side)
        already = sum(t.tricks_won[s] for s in side)
        rules = t.rules
        flags = _solver._c_flags(rules, t.trump)
        use_c = _solver.c_engine_available()
        legal = [CARD_INDEX[m] for m in t.legal]
        totals = dict.fromkeys(legal, 0.0)
        worlds = 0
        cards = t.hand_sizes[seat]
        bits = _solver.table_bits(cards)
        if not use_c:
            table = None
        elif early:  # play-outs solve from solve_at cards
            table = _solver.new_table(16)
        elif bits > 18:
            # big enough (too small a table made some 11-card worlds take minutes), and freed
            # after the decision: 16 MiB kept in every thread that ever ran a bot would add up
            table = _solver.new_table(bits)
        else:  # up to 4 MiB: this thread's, kept from decision to decision
            table = _solver.thread_table(cards)
        start_nodes = table.nodes if table is not None else 0
        _, wide_worlds, node_budget = self.reach(t)
        count = self.early_worlds if early else wide_worlds if wide else self.worlds
        declarers = side_mask
        if t.bidder is not None:
            declarers = sum(1 << s for s in rules.team_of(t.bidder))
        watch = [] if early else self._zero_watch(t, seat, side)
        # a seat's own tricks, when they are not its side's, by a search of their own in a
        # table of their own (another side changes what a table's entries mean)
        apart = any(not (rules.partners and other in side) for other, _ in watch)
        solo = _solver.thread_table(min(cards, 9), slot=1) if apart else None  # <= 4 MiB
        weighed = 0.0  # the worlds' weights added up (each world's is 1 here by default)
        for world, share in self._worlds(knowledge, rng, weight, count):
            if deadline is not None and worlds and time.perf_counter() > deadline:
                break
            used = table.nodes - start_nodes if table is not None else 0
            if wide and worlds >= 4 and used > node_budget:
                break
            hands = world[: t.n]
            values: list[float] = []
            for card in legal:
                if early:
                    value = self._rollout_after(t, rules, hands, card, side_mask, declarers, table)
                else:
                    limit = 0  # none
                    if table is not None and self.node_cap:
                        limit = max(1, self.node_cap - (table.nodes - start_nodes))
                    got = self._value_after(
                        t, rules, hands, card, side, side_mask, flags, table, limit
                    )
                    if got is None:  # past node_cap: this world is dropped, the search ends
                        break
                    value = got
                owns: Owned = []
                for other, change in watch:
                    own: int | None = value  # with partners: the side's tricks from now on
                    if not (rules.partners and other in side):
                        alone = frozenset((other,))
                        own = self._value_after(
                            t, rules, hands, card, alone, 1 << other, flags, solo
                        )
                    owns.append((other, change, own))
                values.append(self._card_worth(t, side, seat, already + value, owns))
            if len(values) < len(legal):
                self.last.capped = True
                break
            for card, v in zip(legal, values, strict=True):
                totals[card] += share * v
            worlds += 1
            weighed += share
        self.last.worlds = worlds
        self.last.searched = worlds > 0
        if not worlds:
            return None
        if weighed != worlds:  # the signal's slack below is in worlds of weight one
            totals = {c: v * worlds / weighed for c, v in totals.items()}
        best = max(legal, key=lambda c: (totals[c], -(c % 13), -c))  # ties: the lower card
        if self.signals and rules.partners and is_first_discard(t):
            want = wanted_suit(t.hand, t.played, t.trump)
            low = [c for c in legal if c // 13 == want]
            # the first discard asks the partner for a suit, when that costs (almost) nothing
            if low and totals[min(low)] >= totals[best] - self.signal_slack * worlds:
                best = min(low)
        return card_text(best)

    def _worlds(
        self, knowledge: Knowledge, rng: random.Random, weight: Weight, count: int
    ) -> Iterator[tuple[list[int], float]]:
        """The worlds of a card decision, each with its weight in the average: ``count``
        draws of :func:`.knowledge.sample_world`, each of weight one, drawn as they are asked
        for (a search that stops early draws no more)."""
        for _ in range(count):
            yield sample_world(knowledge, rng, weight=weight), 1.0

    def _rollout_after(
        self,
        t: Table,
        rules: Rules,
        hands: list[int],
        card: int,
        side_mask: int,
        declarers: int,
        table: Any,
    ) -> int:
        """The side's tricks from now on (this trick included) after ``card``, by a quick
        play-out: greedy, every hand visible, then double-dummy from ``solve_at`` cards."""
        seat = t.seat
        assert seat is not None
        new_hands = list(hands)
        new_hands[seat] &= ~(1 << card)
        return playout(
            new_hands,
            t.trump,
            t.leader if t.trick else seat,
            side_mask,
            rules,
            broken=_broken_after(t, rules, card),
            solve_at=self.solve_at,
            table=table,
            declarers=declarers,
            trick=[*t.trick, card],
        )

    def _value_after(
        self,
        t: Table,
        rules: Rules,
        hands: list[int],
        card: int,
        side: frozenset[int],
        side_mask: int,
        flags: int,
        table: Any,
        max_nodes: int = 0,
    ) -> int | None:
        """The side's tricks from now on (this trick included) after ``card``, double-dummy;
        None when the solver gave up past ``max_nodes`` nodes (0: no limit)."""
        n = t.n
        seat = t.seat
        assert seat is not None
        new_hands = list(hands)
        new_hands[seat] &= ~(1 << card)
        trick = [*t.trick, card]
        leader = t.leader if t.trick else seat
        broken = _broken_after(t, rules, card)
        gained = 0
        if len(trick) == n:
            winner = trick_state(trick, leader, t.trump, n).winner
            gained = 1 if winner in side else 0
            leader, trick = winner, []
            if not new_hands[winner]:
                return gained
        pos = _solver.Position(
            rules=rules,
            hands=tuple(new_hands),
            trump=t.trump,
            leader=leader,
            trick=tuple(trick),
            broken=broken,
            side=side,
            side_tricks=0,
        )
        if table is not None:
            value: int | None = table.solve(
                pos.hands, pos.trump, pos.leader, pos.trick, pos.broken, side_mask, flags, max_nodes
            )
            return None if value is None else gained + value
        return gained + _solver.solve_position(pos, engine="python")


def defender_points(rules: Rules, bidder: int, bid: int, seat: int, tricks: int) -> int:
    """What ``seat``, outside the contract (with partners: its team), scores in a deal where it
    takes ``tricks`` tricks, by the table's own scoring (the zero-trick penalty included)."""
    counts = [0] * rules.players
    counts[bidder] = rules.hand_size - tricks
    counts[seat] = tricks
    return score(rules, counts, bidder=bidder, bid=bid)[seat]


def _broken_after(t: Table, rules: Rules, card: int) -> bool:
    """Are trumps broken once the mover has played ``card`` to the current trick?"""
    if t.trump >= 0 and card // 13 == t.trump:
        ruff = bool(t.trick) and t.trick[0] // 13 != t.trump
        if ruff or (not t.trick and rules.broken_by == "any_trump"):
            return True
    return t.broken


class HardPlayerEarly(HardPlayer):
    """The hard player that also judges its first cards (above ``wide_cards``) by quick
    play-outs over sampled worlds instead of the medium player's rules (for the arena)."""

    name = "hard-early"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["early"] = True
        super().__init__(seed=seed, **options)


class HardPlayerMediumBids(HardPlayer):
    """The hard player as it was before it bid by simulation: its auction, kitty and trump choice
    are the medium player's (for measuring the simulation in the arena)."""

    name = "hard-medium-bids"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["bidding"] = "medium"
        super().__init__(seed=seed, **options)


class HardPlayerNoInference(HardPlayer):
    """The hard player that draws its worlds from the rules, the auction and the partner's signal
    only, not from how the others chose their cards (for measuring that in the arena)."""

    name = "hard-no-inference"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["inference"] = 0.0
        super().__init__(seed=seed, **options)


class HardPlayerNarrowDeclarer(HardPlayer):
    """The hard player whose declarer searches no earlier than the defenders (as before
    :data:`DECLARER_WIDE`; for measuring it in the arena)."""

    name = "hard-narrow-declarer"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.declarer_wide = None


class HardPlayerNoSignals(HardPlayer):
    """The hard player without the partners' signal (for measuring it in the arena)."""

    name = "hard-no-signals"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["signals"] = False
        super().__init__(seed=seed, **options)
