"""A double-dummy solver for Batak: every hand visible, both sides play perfectly.

Given a position in the card play, :func:`solve` returns the most tricks a side (by default the
bidder's team) can take in the whole deal against best defence, and :func:`card_values` the value
of each legal card for the side to move. It follows every table option that shapes the play
(compulsory overtake, overtake after a ruff, must trump or not, overtrump, trump if you cannot
overtrump, the trump-lead restriction and what breaks trumps).

The search is what bridge double-dummy solvers taught: a boolean search "can the side take at least
``k`` more tricks?" with alpha-beta (a zero window), driven by a binary search on ``k`` (or,
given a first guess, by steps of one from it, as MTD(f) does); a transposition table at trick
boundaries that stores lower and upper bounds on the side's tricks; cards that are equivalent (no
other player's card lies between them) searched once; and moves ordered so that likely cut-offs
come first. This pure-Python version is the readable reference;
``batak.bots._csolver`` is a compiled twin used when it is available, and the tests check that both
agree.

>>> from batak.game import Game
>>> g = Game("standard", hands=["AS KS 2H", "QS 3H 4H", "JS 5H 6H", "TS 7H 8H"], dealer=3)
>>> for m in ["bid 4", "pass", "pass", "pass", "trump S"]: g.play(m)
>>> solve(g)          # the bidder (seat 0) leads the hearts and takes its two spades
2
>>> sorted((str(c), v) for c, v in card_values(g).items())
[('2H', 2)]
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import SUIT_MASKS, Card, mask_of, parse_cards
from ..game import Game, Phase
from ..rules import Rules
from .simple import trick_state

try:
    from . import _csolver
except ImportError:  # built without a C compiler: the pure-Python search below does the work
    _csolver = None  # type: ignore[assignment]

__all__ = ["ENGINES", "Position", "c_engine_available", "card_values", "solve", "solve_position"]

ENGINES = ("auto", "c", "python")
"""``engine=`` values: ``auto`` (the compiled solver when built, else Python), ``c``, ``python``."""


@dataclass(frozen=True, slots=True)
class Position:
    """A card-play position: everything the solver needs, all hands visible.

    ``trick`` holds the cards already in the current trick in play order, starting with
    ``leader``'s. ``side`` is the set of seats whose tricks are counted (a partnership, the bidder,
    or one Koz Maça player).
    """

    rules: Rules
    hands: tuple[int, ...]
    trump: int  # suit ordinal, -1 for none
    leader: int
    trick: tuple[int, ...]
    broken: bool
    side: frozenset[int]
    side_tricks: int  # tricks the side has already taken

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.players

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the current one included."""
        return bin(self.hands[self.leader]).count("1") + (1 if self.trick else 0)

    @staticmethod
    def from_game(game: Game, side: Iterable[int] | None = None) -> Position:
        """The position of ``game`` (which must be in the card play)."""
        if game.phase is not Phase.PLAY:
            raise ValueError(f"the solver needs a deal in the card play, not {game.phase.value}")
        rules = game.rules
        side_set = frozenset(side) if side is not None else _default_side(game)
        trick = game.current_trick
        leader = trick[0][0] if trick else game.to_move
        assert leader is not None
        trump = game.trump
        won = game.tricks_won
        return Position(
            rules=rules,
            hands=tuple(mask_of(h) for h in game.hands),
            trump=trump.ordinal if trump is not None else -1,
            leader=leader,
            trick=tuple(c.index for _, c in trick),
            broken=game.trumps_broken,
            side=side_set,
            side_tricks=sum(won[s] for s in side_set),
        )

    @staticmethod
    def start(
        rules: Rules,
        hands: Sequence[Iterable[Card | str] | str],
        *,
        trump: str | None,
        leader: int,
        side: Iterable[int],
    ) -> Position:
        """The first lead of a deal with these hands (kitty already buried), for bidding by
        simulation: ``trump`` is a suit letter or None."""
        masks = tuple(mask_of(parse_cards(h)) for h in hands)
        t = "SHDC".index(trump) if trump is not None else -1
        return Position(rules, masks, t, leader, (), False, frozenset(side), 0)


def _default_side(game: Game) -> frozenset[int]:
    c = game.contract
    if c is not None:
        return frozenset(game.rules.team_of(c.bidder))
    seat = game.to_move
    assert seat is not None
    return frozenset(game.rules.team_of(seat))


def _above(index: int) -> int:
    return ~((2 << index) - 1)


class CardRules:
    """The compulsory rules of one deal (the table's options and its koz) as bitmask operations
    on a hand: which cards may be led, which may follow. The solver and the bidding simulation's
    play-out (``bidsim``) both stand on it."""

    __slots__ = (
        "break_on_lead",
        "lead_restricted",
        "must_trump",
        "overtake",
        "overtake_after_ruff",
        "overtrump",
        "trump",
        "trump_if_cannot",
        "trump_mask",
    )

    def __init__(self, rules: Rules, trump: int) -> None:
        self.trump = trump
        self.trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
        self.overtake = rules.overtake
        self.overtake_after_ruff = rules.overtake_after_ruff
        self.overtrump = rules.overtrump  # apart from overtake, as in the engine
        self.trump_if_cannot = rules.trump_if_cannot_overtrump
        self.must_trump = rules.must_trump
        self.lead_restricted = trump >= 0 and rules.trump_lead == "after_broken"
        self.break_on_lead = rules.broken_by == "any_trump"

    def lead_mask(self, h: int, broken: bool) -> int:
        if self.lead_restricted and not broken:
            other = h & ~self.trump_mask
            if other:
                return other
        return h

    def follow_mask(self, h: int, lead: int, hi_led: int, hi_trump: int, ruffed: bool) -> int:
        hs = h & SUIT_MASKS[lead]
        if hs:
            if self.overtake and (lead == self.trump or not ruffed or self.overtake_after_ruff):
                higher = hs & _above(hi_led)
                if higher:
                    return higher
            return hs
        ht = h & self.trump_mask
        if ht and self.must_trump:
            if ruffed and self.overtrump:
                higher = ht & _above(hi_trump)
                if higher:
                    return higher
                if not self.trump_if_cannot:
                    return h
            return ht
        return h


class _Solver(CardRules):
    """One search over positions that share rules and side (the table persists between calls)."""

    def __init__(self, rules: Rules, side: frozenset[int], trump: int) -> None:
        super().__init__(rules, trump)
        self.n = rules.players
        self.on_side = [s in side for s in range(self.n)]
        # (hands..., leader, broken) -> (lower, upper) bounds on the side's remaining tricks
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    # -- move generation -----------------------------------------------------------------
    @staticmethod
    def distinct(legal: int, others: int) -> list[int]:
        """One card of each run of equivalent legal cards, high to low.

        Two cards are equivalent when no card held by another player (or lying in the current
        trick) sits between them in the same suit.
        """
        out: list[int] = []
        prev = -1
        m = legal
        while m:
            c = m.bit_length() - 1
            m &= ~(1 << c)
            if prev >= 0 and prev // 13 == c // 13:
                between = ((1 << prev) - 1) & ~((2 << c) - 1)
                if not others & between:
                    prev = c
                    continue
            out.append(c)
            prev = c
        return out

    # -- search --------------------------------------------------------------------------
    def at_least(self, hands: list[int], leader: int, broken: bool, need: int) -> bool:
        """Can the side take at least ``need`` of the remaining tricks (we are at a trick start)?"""
        if need <= 0:
            return True
        left = hands[leader].bit_count()
        if need > left:
            return False
        key = (*hands, leader, broken)
        bounds = self.table.get(key)
        if bounds is not None:
            lo, hi = bounds
            if lo >= need:
                return True
            if hi < need:
                return False
        else:
            lo, hi = 0, left
        self.nodes += 1
        result = self._lead(hands, leader, broken, need)
        if result:
            lo = max(lo, need)
        else:
            hi = min(hi, need - 1)
        self.table[key] = (lo, hi)
        return result

    def _lead(self, hands: list[int], leader: int, broken: bool, need: int) -> bool:
        h = hands[leader]
        legal = self.lead_mask(h, broken)
        others = 0
        for s in range(self.n):
            if s != leader:
                others |= hands[s]
        maximize = self.on_side[leader]
        trump = self.trump
        for c in self.distinct(legal, others):
            suit = c // 13
            hands[leader] = h & ~(1 << c)
            br = broken or (suit == trump and self.break_on_lead)
            ok = self._follow(
                hands, leader, 1, [c], suit, c, c if suit == trump else -1, False, leader, br, need
            )
            hands[leader] = h
            if ok == maximize:
                return ok
        return not maximize

    def _follow(
        self,
        hands: list[int],
        leader: int,
        i: int,
        trick: list[int],
        lead: int,
        hi_led: int,
        hi_trump: int,
        ruffed: bool,
        winner: int,
        broken: bool,
        need: int,
    ) -> bool:
        n = self.n
        if i == n:
            won = self.on_side[winner]
            return self.at_least(hands, winner, broken, need - 1 if won else need)
        seat = (leader + i) % n
        h = hands[seat]
        legal = self.follow_mask(h, lead, hi_led, hi_trump, ruffed)
        others = 0
        for s in range(n):
            if s != seat:
                others |= hands[s]
        for c in trick:
            others |= 1 << c
        maximize = self.on_side[seat]
        trump = self.trump
        order = self.distinct(legal, others)
        if self.on_side[winner] == maximize:
            order.reverse()  # our side is winning: cheapest cards first
        for c in order:
            suit = c // 13
            n_hi_led, n_hi_trump, n_ruffed, n_winner, n_broken = (
                hi_led,
                hi_trump,
                ruffed,
                winner,
                broken,
            )
            if suit == lead:
                if c > hi_led:
                    n_hi_led = c
                    if not ruffed:
                        n_winner = seat
                    if suit == trump:
                        n_hi_trump = c
            elif suit == trump:
                n_ruffed = True
                n_broken = True
                if c > hi_trump:
                    n_hi_trump = c
                    n_winner = seat
            hands[seat] = h & ~(1 << c)
            trick.append(c)
            ok = self._follow(
                hands,
                leader,
                i + 1,
                trick,
                lead,
                n_hi_led,
                n_hi_trump,
                n_ruffed,
                n_winner,
                n_broken,
                need,
            )
            trick.pop()
            hands[seat] = h
            if ok == maximize:
                return ok
        return not maximize

    def resume(self, pos: Position, need: int) -> bool:
        """``at_least`` from a position that may be in the middle of a trick."""
        hands = list(pos.hands)
        if not pos.trick:
            return self.at_least(hands, pos.leader, pos.broken, need)
        st = trick_state(pos.trick, pos.leader, self.trump, self.n)
        return self._follow(
            hands,
            pos.leader,
            len(pos.trick),
            list(pos.trick),
            st.lead,
            st.hi_led,
            st.hi_trump,
            st.ruffed,
            st.winner,
            pos.broken,
            need,
        )


# ---------------------------------------------------------------------- the compiled twin
def c_engine_available() -> bool:
    """True when the compiled solver ``batak.bots._csolver`` was built and imports."""
    return _csolver is not None


def new_table(tt_bits: int = 20) -> Any:
    """A compiled solver with its own transposition table (``_csolver.Solver``), for many
    related solves; None when the compiled solver is not built."""
    return _csolver.Solver(tt_bits) if _csolver is not None else None


def _use_c(engine: str) -> bool:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "c" and _csolver is None:
        raise RuntimeError(
            "the compiled solver batak.bots._csolver is not built (no C compiler at install time?)"
        )
    return engine != "python" and _csolver is not None


def _c_flags(rules: Rules, trump: int) -> int:
    """The table options as the compiled solver's ``flags`` bits."""
    return (
        (1 if rules.overtake else 0)
        | (2 if rules.overtake_after_ruff else 0)
        | (4 if rules.overtrump else 0)
        | (8 if rules.trump_if_cannot_overtrump else 0)
        | (16 if trump >= 0 and rules.trump_lead == "after_broken" else 0)
        | (32 if rules.broken_by == "any_trump" else 0)
        | (0 if rules.must_trump else 64)
    )


def _c_tt_bits(pos: Position) -> int:
    """A table big enough for the position (2**20 entries, 16 MiB, for a full deal)."""
    return table_bits(pos.tricks_left)


def table_bits(tricks_left: int) -> int:
    """The size (``2**bits`` entries) of a table for positions of ``tricks_left`` tricks. Too
    small a table costs far more than its memory: one 11-card position took 1.2 s in 2**19
    entries, 36 s in 2**17 and minutes in 2**16 (benchmarks/README.md)."""
    return min(20, max(12, 2 * tricks_left))


def thread_table(tricks_left: int, slot: int = 0) -> Any:
    """This thread's compiled table for positions of ``tricks_left`` tricks, emptied (see
    :func:`table_bits`), for a run of related solves such as one decision's worlds; None when
    the compiled solver is not built. Its ``nodes`` count goes on from call to call. A caller
    that needs a second table alongside (solves for another side) asks for another ``slot``."""
    return _fresh_table(table_bits(tricks_left), slot) if _csolver is not None else None


#: each thread's compiled tables, one per size (``_c_tt_bits``) and slot, reused from call to call:
#: allocating and zeroing a fresh table took a quarter of the time of an 8-card solve
_THREAD_TABLES = threading.local()


def _fresh_table(tt_bits: int, slot: int = 0) -> _csolver.Solver:
    """This thread's table of ``2**tt_bits`` entries, emptied (``clear`` only starts a new
    generation of its entries: no memory is touched). At most about 21 MiB per thread and slot,
    freed with the thread."""
    assert _csolver is not None
    tables: dict[tuple[int, int], _csolver.Solver] | None = getattr(_THREAD_TABLES, "tables", None)
    if tables is None:
        tables = _THREAD_TABLES.tables = {}
    table = tables.get((tt_bits, slot))
    if table is None:
        table = tables[tt_bits, slot] = _csolver.Solver(tt_bits)
    table.clear()
    return table


def _c_args(pos: Position) -> tuple[Any, ...]:
    """``pos`` as the compiled solver takes it (hands, koz, leader, trick, broken, side, flags)."""
    return (
        pos.hands,
        pos.trump,
        pos.leader,
        pos.trick,
        pos.broken,
        sum(1 << s for s in pos.side),
        _c_flags(pos.rules, pos.trump),
    )


def _solve_c(pos: Position, table: _csolver.Solver | None = None, guess: int = -1) -> int:
    """The side's tricks from ``pos`` on (not counting ``side_tricks``), by the compiled solver;
    ``guess``: its first probe (see :func:`solve_position`), -1 for none."""
    assert _csolver is not None
    hands, trump, leader, trick, broken, side_mask, flags = _c_args(pos)
    value = (table or _fresh_table(_c_tt_bits(pos))).solve(
        hands, trump, leader, trick, broken, side_mask, flags, guess=guess
    )
    assert value is not None  # no node limit given
    return value


# ---------------------------------------------------------------------- entry points
def solve_position(
    pos: Position,
    solver: _Solver | None = None,
    *,
    engine: str = "auto",
    guess: int | None = None,
) -> int:
    """The side's total tricks in the deal from ``pos`` with best play by everyone.

    ``engine``: ``auto`` uses the compiled solver when it is built, else this module's search; ``c``
    or ``python`` force one. ``solver`` (a :class:`_Solver`, to share its table between related
    positions) is used by the Python engine. ``guess`` (the side's tricks from ``pos`` on, not
    counting ``side_tricks``) changes only the order of the probes, never the value: without it they
    bisect 0..tricks left (the compiled engine, where one player plays alone with 6 to 12 tricks
    left, starts from the lone player's every trick instead, its search's cheapest order there:
    benchmarks/README.md, session 48; and a full deal of two teams of two from half the tricks,
    session 49); with it the first asks "at least ``guess`` tricks?" and each next one steps by one
    from what the last one learnt. A guess outside 1..tricks left is moved to the nearer end (0 or a
    negative one asks for at least 1 first; one above the tricks left, for all of them), in both
    engines. One above a good estimate is the guess that pays
    (:func:`batak.bots.bidsim.first_guess`).
    """
    first = None if guess is None else min(pos.tricks_left, max(1, guess))
    if _use_c(engine):
        return pos.side_tricks + _solve_c(pos, guess=-1 if first is None else first)
    s = solver or _Solver(pos.rules, pos.side, pos.trump)
    lo, hi = 0, pos.tricks_left
    mid = first
    while lo < hi:  # zero-window probes: a bisection, or steps of one from the guess
        if mid is None:
            mid = (lo + hi + 1) // 2
        reached = s.resume(pos, mid)
        if reached:
            lo = mid
        else:
            hi = mid - 1
        mid = None if guess is None else lo + 1 if reached else hi
    return pos.side_tricks + lo


def solve(
    game: Game,
    side: Iterable[int] | None = None,
    *,
    engine: str = "auto",
    guess: int | None = None,
) -> int:
    """Most tricks ``side`` (default: the bidder's team) takes in this deal, all cards visible;
    ``guess`` as in :func:`solve_position`."""
    return solve_position(Position.from_game(game, side), engine=engine, guess=guess)


def card_values(
    game: Game, side: Iterable[int] | None = None, *, engine: str = "auto"
) -> dict[Card, int]:
    """For each legal card of the seat to move: the deal's total tricks for ``side`` (default: the
    mover's team) after playing it, with best play afterwards."""
    mover = game.to_move
    if game.phase is not Phase.PLAY or mover is None:
        raise ValueError("card values need a deal in the card play")
    side_set = frozenset(side) if side is not None else frozenset(game.rules.team_of(mover))
    base = Position.from_game(game, side_set)
    use_c = _use_c(engine)
    solver = _Solver(base.rules, side_set, base.trump)
    # the compiled twin shares one table between the cards too (the positions are related)
    table = _fresh_table(_c_tt_bits(base)) if use_c else None
    values: dict[Card, int] = {}
    last = -1  # the last card's value: the next card's first guess (benchmarks/README.md)
    for card in game.legal_moves():
        assert isinstance(card, Card)
        after = game.copy()
        after.play(card)
        if after.phase is Phase.OVER:
            values[card] = sum(after.tricks_won[s] for s in side_set)
            continue
        pos = Position.from_game(after, side_set)
        if table is not None:
            guess = max(0, last - pos.side_tricks) if last >= 0 else -1
            values[card] = last = pos.side_tricks + _solve_c(pos, table, guess)
        else:
            values[card] = solve_position(pos, solver, engine="python")
    return values
