"""Bidding, trump choice and burying by simulation, for the hard player.

Before the card play a seat knows only its own hand (and the auction so far). :func:`simulate`
deals the cards it cannot see many times over (:func:`~batak.bots.knowledge.sample_world`; in kitty
batak the kitty too), and in every world plays the deal out for every trump choice with a cheap
all-seeing evaluator, :func:`playout`: a greedy double-dummy-ish play of the first tricks (cash sure
winners, draw trumps as the bidder's side, win a trick as cheaply as is safe, otherwise play low)
finished by the exact double-dummy solver (:mod:`batak.bots.solver`) once the hands are small
enough to solve in about a millisecond. The result is a distribution of the tricks the hand takes
with each trump, which the hard player turns into the expected score of every bid, of passing and
of every trump, under the table's own scoring (:mod:`batak.scoring`).

The worlds are weighted by how well they explain the auction (a seat that bid ``b`` is likely to
hold a hand worth about ``b`` tricks, a seat that passed one worth less than the level it let go),
judged with the hand evaluation of :func:`batak.bots.simple.estimate_tricks`. The pool of worlds is
drawn from a generator seeded by the player's seed and the seat's hand only, so the evaluations are
shared by every decision of one auction (and the trump choice after it) and stay deterministic: the
same seed and the same view give the same move.

>>> from batak.rules import Rules
>>> from batak.bots.simple import mask_from
>>> rules = Rules.preset("standard")
>>> hands = [mask_from(h) for h in ("AS KS QS JS TS", "2S 3S 4S 5S 6S", "AH KH QH JH TH",
...                                  "2H 3H 4H 5H 6H")]
>>> playout(hands, 0, 0, 1, rules)   # the spades win five tricks for seat 0
5
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..cards import SUIT_MASKS
from ..rules import Rules
from ..scoring import deal_score
from . import solver as _solver
from .knowledge import Knowledge, sample_world, tempered
from .simple import CARD_TEXT, SUIT_LETTERS, Table, bits, estimate_tricks, trick_state

__all__ = [
    "BidSim",
    "SimDecision",
    "SimParams",
    "auction_events",
    "auction_loglik",
    "bury_candidates",
    "decide_bid",
    "decide_bury",
    "decide_trump",
    "hand_strength",
    "playout",
    "pool_key",
    "quick_bury",
]


def _higher(card: int) -> int:
    """The cards of ``card``'s suit above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def _lowest(mask: int) -> int:
    """The card of lowest rank in ``mask`` (ties: the lower suit index)."""
    best = -1
    best_rank = 99
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        r = c % 13
        if r < best_rank:
            best, best_rank = c, r
    return best


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


class _Play(_solver.CardRules):
    """The greedy all-seeing play of one deal (see :func:`playout`); which cards are legal is
    the solver's :class:`~batak.bots.solver.CardRules`."""

    __slots__ = ("hands", "n", "on_side")

    def __init__(self, hands: list[int], trump: int, side_mask: int, rules: Rules) -> None:
        super().__init__(rules, trump)
        self.hands = hands
        self.n = len(hands)
        self.on_side = [bool(side_mask >> s & 1) for s in range(self.n)]

    def can_beat(self, seat: int, lead: int, win: int) -> bool:
        """Could ``seat`` (still to play) beat the winning card ``win`` of a trick led in
        ``lead``?"""
        h = self.hands[seat]
        trump = self.trump
        if win // 13 == trump and lead != trump:  # a ruff: only a higher trump, when void
            return not h & SUIT_MASKS[lead] and bool(h & _higher(win))
        if h & SUIT_MASKS[lead]:
            return bool(h & _higher(win))
        return bool(h & self.trump_mask)

    def sure(self, seats: Sequence[int], lead: int, win: int) -> bool:
        """No opponent among ``seats`` can beat ``win``."""
        return all(not self.can_beat(s, lead, win) for s in seats)

    # -- choices -----------------------------------------------------------------------
    def lead(self, seat: int, broken: bool) -> int:
        h = self.hands[seat]
        legal = self.lead_mask(h, broken)
        tmask = self.trump_mask
        n = self.n
        mine = self.on_side[seat]
        opps = [s for s in range(n) if self.on_side[s] != mine and self.hands[s]]
        friends = [s for s in range(n) if s != seat and self.on_side[s] == mine and self.hands[s]]
        opp_trumps = any(self.hands[s] & tmask for s in opps)
        # sure winners: the top card of a suit that no opponent can beat
        cash = -1
        for suit in range(4):
            cards = legal & SUIT_MASKS[suit]
            if not cards:
                continue
            top = _highest(cards)
            if all(not self.can_beat(s, suit, top) for s in opps):
                if suit == self.trump:
                    if opp_trumps and mine:
                        return top  # the bidder's side draws trumps with its master
                    if cash < 0:
                        cash = top
                elif cash < 0 or cash // 13 == self.trump:
                    cash = top
        if cash >= 0:
            return cash
        # lead low towards a friend's master
        for f in friends:
            fh = self.hands[f]
            for suit in range(4):
                if suit == self.trump or not legal & SUIT_MASKS[suit]:
                    continue
                ftop = fh & SUIT_MASKS[suit]
                if not ftop:
                    continue
                top = _highest(ftop)
                if all(not self.can_beat(s, suit, top) for s in opps):
                    return _lowest(legal & SUIT_MASKS[suit])
        # otherwise the lowest card of the longest side suit
        best_suit, best_len = -1, -1
        for suit in range(4):
            if suit == self.trump:
                continue
            length = (legal & SUIT_MASKS[suit]).bit_count()
            if length > best_len:
                best_suit, best_len = suit, length
        if best_len > 0:
            return _lowest(legal & SUIT_MASKS[best_suit])
        return _lowest(legal)

    def follow(
        self,
        seat: int,
        later: list[int],
        lead: int,
        hi_led: int,
        hi_trump: int,
        ruffed: bool,
        winner: int,
        win: int,
    ) -> int:
        h = self.hands[seat]
        legal = self.follow_mask(h, lead, hi_led, hi_trump, ruffed)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        mine = self.on_side[seat]
        opps_later = [s for s in later if self.on_side[s] != mine]
        trump = self.trump
        if self.on_side[winner] == mine and self.sure(opps_later, lead, win):
            return self.discard(h, legal, lead)
        # the cards that take the lead now, cheapest first
        winners: list[int] = []
        for c in bits(legal):
            suit = c // 13
            if (suit == lead and not ruffed and c > hi_led) or (
                suit == trump and lead != trump and c > hi_trump
            ):
                winners.append(c)
        if winners:
            winners.sort(key=lambda c: (c // 13 == trump and lead != trump, c % 13))
            for c in winners:
                if self.sure(opps_later, lead, c):
                    return c
            if self.on_side[winner] != mine:
                return winners[-1]
        return self.discard(h, legal, lead)

    def discard(self, h: int, legal: int, lead: int) -> int:
        """The cheapest card: the lowest of the led suit, else the lowest trump when forced,
        else a low card of a short side suit."""
        led = legal & SUIT_MASKS[lead]
        if led:
            return _lowest(led)
        side = legal & ~self.trump_mask
        if not side:
            return _lowest(legal)
        best, best_key = -1, (99, 99)
        for c in bits(side):
            length = (h & SUIT_MASKS[c // 13]).bit_count()
            key = (c % 13 + 2 * length, c)
            if key < best_key:
                best, best_key = c, key
        return best


def playout(
    hands: Sequence[int],
    trump: int,
    leader: int,
    side_mask: int,
    rules: Rules,
    *,
    broken: bool = False,
    solve_at: int = 0,
    table: Any = None,
    declarers: int | None = None,
    trick: Sequence[int] = (),
) -> int:
    """The tricks the seats in ``side_mask`` take from the first lead, every hand visible.

    The first tricks are played greedily: a leader cashes a suit's master that no opponent can
    beat (the bidder's side drawing trumps first), else leads low to a partner's master, else low
    from its longest side suit; a follower lets a partner's sure winner stand, else wins with the
    cheapest card that no later opponent can beat, else plays its best try when an opponent is
    winning, else its cheapest card. Once the hands hold ``solve_at`` cards or fewer at the start of
    a trick, the rest is solved exactly (double dummy) with the compiled solver's ``table`` (a
    :func:`batak.bots.solver.new_table`); with ``solve_at`` 0 or no table the greedy play goes on
    to the end. ``declarers`` (default ``side_mask``): the seats that play together in the greedy
    part (the contract's side, which draws trumps); the others play together against them.
    ``trick``: the cards already played to the current trick, led by ``leader`` (not in
    ``hands``); the others finish it greedily and it counts.
    """
    hs = list(hands)
    play = _Play(hs, trump, side_mask if declarers is None else declarers, rules)
    n = len(hs)
    won = 0
    flags = _solver._c_flags(rules, trump)
    break_on_lead = play.break_on_lead
    on_table = list(trick)
    while on_table or hs[leader]:
        if on_table:  # the current trick, already begun: the engine's own bookkeeping
            st = trick_state(on_table, leader, trump, n)
            lead, hi_led, hi_trump, ruffed = st.lead, st.hi_led, st.hi_trump, st.ruffed
            winner, win = st.winner, st.win_card
            if (lead == trump and break_on_lead) or ruffed:
                broken = True
            order = [(leader + i) % n for i in range(len(on_table), n)]
            on_table = []
        else:
            if table is not None and solve_at and hs[leader].bit_count() <= solve_at:
                value: int = table.solve(tuple(hs), trump, leader, (), broken, side_mask, flags)
                return won + value
            c = play.lead(leader, broken)
            hs[leader] &= ~(1 << c)
            lead = c // 13
            if lead == trump and break_on_lead:
                broken = True
            hi_led = c
            hi_trump = c if lead == trump else -1
            ruffed = False
            winner, win = leader, c
            order = [(leader + i) % n for i in range(1, n)]
        for i, seat in enumerate(order):
            c = play.follow(seat, order[i + 1 :], lead, hi_led, hi_trump, ruffed, winner, win)
            hs[seat] &= ~(1 << c)
            suit = c // 13
            if suit == lead:
                if c > hi_led:
                    hi_led = c
                    if not ruffed:
                        winner, win = seat, c
                    if suit == trump:
                        hi_trump = c
            elif suit == trump:
                ruffed = True
                broken = True
                if c > hi_trump:
                    hi_trump = c
                    winner, win = seat, c
        if side_mask >> winner & 1:
            won += 1
        leader = winner
    return won


#: :func:`first_guess` plays greedily down to this many cards a hand, then solves exactly
FIRST_GUESS_AT = 7


def first_guess_table() -> Any:
    """The table :func:`first_guess` solves in (this thread's, kept between calls; None without
    the compiled solver): its ``nodes`` and ``cards`` count the estimate's own work."""
    return _solver.thread_table(FIRST_GUESS_AT, slot=2)


def first_guess(pos: _solver.Position) -> int:
    """A first probe for the exact solve of a big position (``guess`` of
    :func:`batak.bots.solver.solve_position`): one more than the side's tricks from ``pos`` on
    in a :func:`playout` that is greedy down to 7 cards a hand and exact from there, in a small
    table of its own (this thread's). On the bidder's full deals the playout is right about 60%
    of the time and one too high about 20% (a partnership's: right about 40%, too low about
    45%); starting one above it, the solve's first probe mostly fails just above the value and
    the next one proves it (benchmarks/README.md, session 47: on seeds 161-1160 of
    ``solver_speed.py``, 20% fewer cards on the bidder's full deals and 16% on a partnership's,
    the playout's own included). Not for small positions: at 8 cards the playout costs more than
    it saves."""
    table = first_guess_table()
    side_mask = sum(1 << s for s in pos.side)
    return 1 + playout(
        pos.hands,
        pos.trump,
        pos.leader,
        side_mask,
        pos.rules,
        broken=pos.broken,
        solve_at=FIRST_GUESS_AT if table is not None else 0,
        table=table,
        trick=pos.trick,
    )


# ---------------------------------------------------------------------- burying
def quick_bury(hand: int, trump: int, count: int) -> int:
    """``count`` cards to bury from ``hand`` for ``trump`` by a quick rule: never a trump (unless
    there is nothing else), never an ace; low cards of short side suits first (to ruff them), a
    lone king or queen before a guarded one."""
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    cands: list[tuple[int, int]] = []
    for c in bits(hand & ~tmask):
        rank = c % 13
        length = (hand & SUIT_MASKS[c // 13]).bit_count()
        key = rank + 2 * length + (30 if rank == 12 else 0)
        cands.append((key, c))
    cands.sort()
    out = 0
    for _, c in cands[:count]:
        out |= 1 << c
    if out.bit_count() < count:  # only trumps left to bury: the lowest
        for c in bits(hand & tmask):
            if out.bit_count() >= count:
                break
            out |= 1 << c
    return out


def _bury_by_estimate(hand: int, trump: int, count: int, rules: Rules) -> int:
    """``count`` cards to bury chosen one at a time by the hand evaluation (medium's way)."""
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    h = hand
    out = 0
    for _ in range(count):
        best, best_v = -1, -math.inf
        pool = h & ~tmask if h & ~tmask else h
        for c in bits(pool):
            length = (h & SUIT_MASKS[c // 13]).bit_count()
            v = estimate_tricks(h & ~(1 << c), trump, rules) - 0.001 * (c % 13) - 0.02 * length
            if v > best_v:
                best, best_v = c, v
        h &= ~(1 << best)
        out |= 1 << best
    return out


def kitty_unknown(t: Table) -> bool:
    """Is the kitty still unseen by the seat? During the auction, and while burying at a table
    where the bidder buries before taking the kitty (``rules.kitty_order``)."""
    if not t.rules.kitty_size:
        return False
    return t.phase == "bidding" or (t.phase == "bury" and t.rules.kitty_order == "bury_take_trump")


# ---------------------------------------------------------------------- the simulation
def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def hand_strength(hand: int, rules: Rules) -> float:
    """What the hand evaluation says a hand is worth with its best trump."""
    fixed = rules.fixed_trump
    if rules.bidding == "kozmaca":
        return estimate_tricks(hand, 0, rules)
    if fixed is not None:
        return estimate_tricks(hand, fixed.ordinal, rules)
    return max(estimate_tricks(hand, t, rules) for t in range(4))


def _best_trump_of(hand: int, rules: Rules) -> int:
    if rules.bidding == "kozmaca":
        return 0
    fixed = rules.fixed_trump
    if fixed is not None:
        return fixed.ordinal
    return max(range(4), key=lambda t: (estimate_tricks(hand, t, rules), -t))


class BidSim:
    """A pool of worlds dealt from one seat's knowledge before the card play, and the playouts
    done in them (memoised: every result is a pure function of the pool, so sharing them between
    decisions never changes a decision).

    ``worlds``: the pool size; ``solve_at``: the hand size from which a playout is finished by
    the exact solver (0: greedy to the end).
    """

    def __init__(self, t: Table, seed: int | str, *, worlds: int = 40, solve_at: int = 8) -> None:
        assert t.seat is not None
        self.rules = t.rules
        self.n = t.n
        self.seat = t.seat
        self.hand = t.hand
        # what the seat holds, the cards it buried included (kitty batak, bury and trump phase)
        self.holding = t.hand | (t.buried or 0)
        self.kitty_unknown = kitty_unknown(t)
        self.solve_at = solve_at if _solver.c_engine_available() else 0
        self.key = pool_key(t, seed)
        knowledge = Knowledge.from_view(t)
        rng = random.Random(self.key)
        self.pool: list[list[int]] = [sample_world(knowledge, rng) for _ in range(worlds)]
        self.memo: dict[tuple[int, int, int, int], int] = {}
        self.table: Any = _solver.new_table(16) if self.solve_at else None
        self.strength: dict[tuple[int, int], float] = {}
        # who leads the first trick when the contract holder does not (rules.first_lead)
        self.first = (t.dealer + 1) % t.n if t.rules.first_lead == "after_dealer" else None

    def my_side(self) -> int:
        return sum(1 << s for s in self.rules.team_of(self.seat))

    # -- one world ---------------------------------------------------------------------
    def tricks(self, w: int, declarer: int, trump: int, bury: int = -1) -> int:
        """The seat's side's tricks in world ``w`` when ``declarer`` holds the contract with
        ``trump`` (in kitty batak it takes the kitty and buries ``bury``, a mask, or by
        :func:`quick_bury` when -1) and leads (or the seat after the dealer leads, as
        ``rules.first_lead`` says)."""
        key = (w, declarer, trump, bury)
        got = self.memo.get(key)
        if got is not None:
            return got
        rules = self.rules
        hands = list(self.pool[w][: self.n])
        kitty = self.pool[w][self.n] if len(self.pool[w]) > self.n else 0
        if rules.kitty_size:
            if declarer == self.seat and not self.kitty_unknown:
                full = self.holding
            else:
                full = hands[declarer] | kitty
            extra = full.bit_count() - rules.hand_size
            if extra > 0:
                out = bury if bury >= 0 else quick_bury(full, trump, extra)
                full &= ~out
            hands[declarer] = full
        if rules.bidding == "kozmaca":
            declarers = 1 << self.seat
        else:
            declarers = sum(1 << s for s in rules.team_of(declarer))
        value = playout(
            hands,
            trump,
            declarer if self.first is None else self.first,
            self.my_side(),
            rules,
            solve_at=self.solve_at,
            table=self.table,
            declarers=declarers,
        )
        self.memo[key] = value
        return value

    def seat_strength(self, w: int, seat: int) -> float:
        key = (w, seat)
        v = self.strength.get(key)
        if v is None:
            v = hand_strength(self.pool[w][seat], self.rules)
            self.strength[key] = v
        return v

    # -- the auction as evidence ---------------------------------------------------------
    def weights(self, t: Table, sigma: float = 1.5) -> list[float]:
        """How well each world explains the other seats' bids and passes (normalised)."""
        events = auction_events(t)
        skip = (self.seat, t.exposed_seat)
        out = [
            auction_loglik(self.rules, events, partial(self.seat_strength, w), skip, sigma)
            for w in range(len(self.pool))
        ]
        ws = tempered(out)  # keep at least a few worlds in play
        total = sum(ws) or 1.0
        return [x / total for x in ws]


def auction_events(t: Table) -> list[tuple[int, str, int]]:
    """The auction's moves as ``(seat, move, the lowest bid the seat could have made)``."""
    rules = t.rules
    level = rules.min_bid
    events: list[tuple[int, str, int]] = []
    for s, m in t.auction:
        events.append((s, m, level))
        if m.startswith("bid "):
            level = int(m.split()[1]) + (0 if rules.bidding == "kozmaca" else 1)
    return events


def auction_loglik(
    rules: Rules,
    events: Sequence[tuple[int, str, int]],
    strength: Callable[[int], float],
    skip: Sequence[int | None] = (),
    sigma: float = 1.5,
) -> float:
    """The log-likelihood of the bids and passes in ``events`` (:func:`auction_events`) of the
    seats not in ``skip``, for hands worth ``strength(seat)`` tricks with their best trump
    (:func:`hand_strength`): a bid of b is likely from a hand worth about b or more (a normal
    error of ``sigma`` tricks), a pass from one worth less than the lowest bid the seat could
    have made; in Koz Maça a bid is the hand's worth, give or take ``sigma``."""
    lw = 0.0
    for s, m, low in events:
        if s in skip:
            continue
        if m.startswith("bid "):
            est = strength(s)
            b = int(m.split()[1])
            if rules.bidding == "kozmaca":
                lw += -0.5 * ((b - est) / sigma) ** 2
            else:
                lw += math.log(max(0.02, _phi((est - (b - 0.5)) / sigma)))
        elif m == "pass":
            est = strength(s)
            lw += math.log(max(0.05, _phi(((low + 0.5) - est) / sigma)))
    return lw


def pool_key(t: Table, seed: int | str) -> str:
    """The seed of a seat's pool of worlds: the player's seed, the table and what the seat holds
    (its hand and the cards it buried), not the auction, so one deal's decisions share it (in
    kitty batak the kitty is unknown only during the auction)."""
    assert t.seat is not None
    holding = t.hand | (t.buried or 0)
    text = f"{seed}|bidsim|{t.rules.name}|{t.n}|{t.seat}|{t.dealer}|{holding}|{kitty_unknown(t)}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


# ---------------------------------------------------------------------- scores
def _my_score(rules: Rules, n: int, seat: int, declarer: int | None, bid: int, side: int) -> int:
    """The seat's score when its side takes ``side`` tricks, ``declarer`` holding ``bid`` (None:
    Koz Maça, the seat bid ``bid``)."""
    won = [0] * n
    won[seat] = side
    if declarer is None:
        return deal_score(rules, won, None, None, [bid] * n)[seat]
    mine = set(rules.team_of(seat))
    other = next(s for s in range(n) if s not in mine)
    won[other] = rules.hand_size - side
    return deal_score(rules, won, declarer, bid, None)[seat]


def _expected(
    rules: Rules,
    n: int,
    seat: int,
    declarer: int | None,
    bid: int,
    tricks: Sequence[int],
    weights: Sequence[float],
    bias: float,
    spread: float = 0.0,
) -> float:
    """The weighted mean score over worlds, each world's tricks shifted by ``bias`` (a fraction
    splits the world between the two neighbouring counts) and, with ``spread`` > 0, smeared: one
    trick fewer and one more with probability ``spread / 2`` each (the evaluator's own error)."""
    lo = math.floor(bias)
    frac = bias - lo
    top = rules.hand_size
    kernel = [(0, 1.0)] if spread <= 0 else [(-1, spread / 2), (0, 1.0 - spread), (1, spread / 2)]
    cache: dict[int, int] = {}

    def sc(x: int) -> int:
        x = min(top, max(0, x))
        v = cache.get(x)
        if v is None:
            v = _my_score(rules, n, seat, declarer, bid, x)
            cache[x] = v
        return v

    total = 0.0
    for x, p in zip(tricks, weights, strict=False):
        if p <= 0:
            continue
        for off, q in kernel:
            y = x + lo + off
            v = sc(y) if frac == 0 else (1 - frac) * sc(y) + frac * sc(y + 1)
            total += p * q * v
    return total


# ---------------------------------------------------------------------- decisions
@dataclass(frozen=True, slots=True)
class SimParams:
    """Tuning of the simulated decisions: tricks added to the evaluator's count for the seat's
    side when it holds the contract (``bias_declare``), when it defends (``bias_defend``, for a
    side of several seats; ``bias_alone`` for a seat on its own, whom the solver's search makes
    face every other seat together, which real defenders do not do to each other, and a Koz Maça
    player), the evaluator's own error as a chance ``spread`` of one trick more or fewer, the score
    margin a bid must bring over passing (``edge``), and the pool size.

    ``partner_raise``: at a table with partners, when the partner holds the highest bid (passing
    leaves the contract with the side), a bid over it must gain over passing by this many
    standard errors of its gain, world by world over the same worlds (0: any gain, as before
    2026-12-07). The best of several bids and trumps always seems to gain a little over passing,
    so partners raised each other on noise, up to contracts neither could make. Nor does it bid
    over a partner's bid that was itself made over its own: each has then said which contract it
    prefers, and the worlds read the partner's raise as a hand worth the whole bid on its own,
    so the two would only go on raising each other.

    Fitted with ``benchmarks/fit_bidsim.py`` (``standard``, 150 deals, hard and medium seated as
    in the arena): the bidder's side took 0.01 ± 0.16 tricks more than simulated, a lone defender
    0.43 ± 0.08 more."""

    bias_declare: float = 0.0
    bias_defend: float = 0.0
    bias_alone: float = 0.4
    spread: float = 0.0
    edge: float = 0.0
    worlds: int = 40
    partner_raise: float = 1.645


@dataclass(slots=True)
class SimDecision:
    """A simulated decision: the move, the expected score of each option, the worlds used."""

    move: str
    values: dict[str, float]
    worlds: int
    mean_tricks: dict[str, float] = field(default_factory=dict)


Deadline = float | None


def _trump_choices(rules: Rules) -> list[int]:
    if rules.bidding == "kozmaca":
        return [0]
    fixed = rules.fixed_trump
    return [fixed.ordinal] if fixed is not None else [0, 1, 2, 3]


def _run_worlds(
    sim: BidSim,
    keys_of: Callable[[int], list[tuple[int, int, int]]],
    deadline: Deadline,
    limit: int | None = None,
) -> int:
    """Evaluate ``keys_of(w)`` (a list of ``(declarer, trump, bury)``) in worlds 0, 1, ... until
    the pool, ``limit`` or the deadline ends (at least one world); returns how many were done."""
    total = len(sim.pool) if limit is None else min(limit, len(sim.pool))
    done = 0
    for w in range(total):
        if deadline is not None and done and time.perf_counter() > deadline:
            break
        for d, tr, bury in keys_of(w):
            sim.tricks(w, d, tr, bury)
        done += 1
    return done


def _norm(ws: Sequence[float]) -> list[float]:
    total = sum(ws)
    if total <= 0:
        return [1.0 / len(ws)] * len(ws) if ws else []
    return [x / total for x in ws]


def decide_bid(t: Table, sim: BidSim, p: SimParams, deadline: Deadline = None) -> SimDecision:
    """The auction move with the best expected score over the worlds (bids and, when allowed,
    passing: the contract then goes to the highest bidder so far, or to the strongest seat that
    may still bid, or follows the table's rule for all passing)."""
    rules = t.rules
    n = t.n
    me = sim.seat
    amounts = sorted(int(m.split()[1]) for m in t.legal if m.startswith("bid "))
    can_pass = "pass" in t.legal
    trumps = _trump_choices(rules)
    if rules.bidding == "kozmaca":
        leader = (t.dealer + 1) % n
        done = _run_worlds(sim, lambda w: [(leader, 0, -1)], deadline)
        ws = _norm(sim.weights(t)[:done])
        tricks = [sim.tricks(w, leader, 0, -1) for w in range(done)]
        kvalues = {
            f"bid {b}": _expected(rules, n, me, None, b, tricks, ws, p.bias_alone, p.spread)
            for b in amounts
        }
        kbest = max(kvalues, key=lambda m: (kvalues[m], -int(m.split()[1])))
        mean = sum(x * q for x, q in zip(tricks, ws, strict=False))
        return SimDecision(kbest, kvalues, done, {"S": mean})
    high_bidder: int | None = None
    high_bid = 0
    over_me = False  # the highest bid was made over this seat's own
    passed: set[int] = set()
    for s, m in t.auction:
        if m.startswith("bid "):
            over_me = high_bidder == me
            high_bidder, high_bid = s, int(m.split()[1])
        elif m == "pass":
            passed.add(s)
    live = [s for s in range(n) if s != me and s not in passed]
    team_of_me = rules.team_of(me)
    # who holds the contract if this seat passes, per world: (declarer, trump, level) or None
    pass_level = rules.min_bid

    def pass_outcome(w: int) -> tuple[int, int] | None:
        if high_bidder is not None:
            d = high_bidder
        elif live:
            d = max(live, key=lambda s: (sim.seat_strength(w, s), -s))
        elif rules.all_pass == "dealer_takes_min":
            d = t.dealer
        elif rules.all_pass == "first_speaker_takes_min":
            d = (t.dealer + 1) % n
        else:
            return None  # redeal: nobody scores
        if d == me:
            return None
        return d, _best_trump_of(sim.pool[w][d], rules)

    dealer_holds = (
        high_bidder is None
        and not live
        and (
            (rules.all_pass == "dealer_takes_min" and t.dealer == me)
            or (rules.all_pass == "first_speaker_takes_min" and (t.dealer + 1) % n == me)
        )
    )

    def keys(w: int) -> list[tuple[int, int, int]]:
        out = [(me, tr, -1) for tr in trumps]
        if can_pass:
            po = pass_outcome(w)
            if po is not None:
                out.append((po[0], po[1], -1))
        return out

    done = _run_worlds(sim, keys, deadline)
    ws = _norm(sim.weights(t)[:done])
    mine = {tr: [sim.tricks(w, me, tr, -1) for w in range(done)] for tr in trumps}
    values: dict[str, float] = {}
    trump_of: dict[str, int] = {}
    for b in amounts:
        scored = [
            (_expected(rules, n, me, me, b, mine[tr], ws, p.bias_declare, p.spread), -tr)
            for tr in trumps
        ]
        values[f"bid {b}"], minus = max(scored)
        trump_of[f"bid {b}"] = -minus
    passing: dict[int, float] = {}  # the seat's score in each world if it passes
    if can_pass:
        if dealer_holds:
            values["pass"] = max(
                _expected(rules, n, me, me, pass_level, mine[tr], ws, p.bias_declare, p.spread)
                for tr in trumps
            )
        else:
            level = max(pass_level, high_bid)
            for w in range(done):
                po = pass_outcome(w)
                if po is None:
                    continue
                x = sim.tricks(w, po[0], po[1], -1)
                team = rules.team_of(me)
                if po[0] in team:
                    bias = p.bias_declare
                else:
                    bias = p.bias_alone if len(team) == 1 else p.bias_defend
                passing[w] = _expected(rules, n, me, po[0], level, [x], [1.0], bias, p.spread)
            values["pass"] = sum(v * ws[w] for w, v in passing.items())
    means = {
        SUIT_LETTERS[tr]: sum(x * q for x, q in zip(mine[tr], ws, strict=False)) for tr in trumps
    }
    bids = [m for m in values if m != "pass"]
    if not bids:
        return SimDecision("pass", values, done, means)
    best = max(bids, key=lambda m: (values[m], -int(m.split()[1])))
    if can_pass and values[best] <= values["pass"] + p.edge:
        return SimDecision("pass", values, done, means)
    partner_holds = high_bidder is not None and high_bidder != me and high_bidder in team_of_me
    if partner_holds and p.partner_raise > 0 and over_me:
        return SimDecision("pass", values, done, means)
    if (
        partner_holds
        and p.partner_raise > 0
        and not _clear_gain(
            [
                _expected(
                    rules, n, me, me, int(best.split()[1]), [x], [1.0], p.bias_declare, p.spread
                )
                for x in mine[trump_of[best]]
            ],
            passing,
            ws,
            p.partner_raise,
        )
    ):
        return SimDecision("pass", values, done, means)
    return SimDecision(best, values, done, means)


def _clear_gain(
    bidding: Sequence[float], passing: dict[int, float], ws: Sequence[float], z: float
) -> bool:
    """Does bidding (its score in each world) gain over passing (the same, by world) by at least
    ``z`` standard errors of the weighted mean gain (with the weights' effective count of
    worlds)? Not when fewer than two worlds were done (the thinking time ran out): a gain seen
    in one world has no spread to measure it by."""
    if len(bidding) < 2:
        return False
    gains = [(ws[w], bidding[w] - passing.get(w, 0.0)) for w in range(len(bidding))]
    total = sum(q for q, _ in gains)
    if total <= 0:
        return False
    mean = sum(q * g for q, g in gains) / total
    if mean <= 0:
        return False
    var = sum(q * (g - mean) ** 2 for q, g in gains) / total
    worlds = total * total / sum(q * q for q, _ in gains)
    return mean >= z * math.sqrt(var / worlds)


def decide_trump(t: Table, sim: BidSim, p: SimParams, deadline: Deadline = None) -> SimDecision:
    """The trump with the best expected score for the contract, over the worlds."""
    rules = t.rules
    me = sim.seat
    bid = t.bid or rules.min_bid
    trumps = [tr for tr in range(4) if f"trump {SUIT_LETTERS[tr]}" in t.legal]
    bury = t.buried if t.buried else -1
    done = _run_worlds(sim, lambda w: [(me, tr, bury) for tr in trumps], deadline)
    ws = _norm(sim.weights(t)[:done])
    values: dict[str, float] = {}
    means: dict[str, float] = {}
    for tr in trumps:
        xs = [sim.tricks(w, me, tr, bury) for w in range(done)]
        values[f"trump {SUIT_LETTERS[tr]}"] = _expected(
            rules, t.n, me, me, bid, xs, ws, p.bias_declare, p.spread
        )
        means[SUIT_LETTERS[tr]] = sum(x * q for x, q in zip(xs, ws, strict=False))
    best = max(values, key=lambda m: (values[m], means[m[-1]], -SUIT_LETTERS.index(m[-1])))
    return SimDecision(best, values, done, means)


def bury_candidates(t: Table) -> list[tuple[int, int]]:
    """Plans ``(trump, cards to bury)`` for the kitty bidder: per trump, the quick rule and the
    hand evaluation's choice (each keeps the cards already buried)."""
    rules = t.rules
    buried = t.buried or 0
    left = rules.kitty_size - buried.bit_count()
    fixed = rules.fixed_trump
    trumps = [fixed.ordinal] if fixed is not None else [0, 1, 2, 3]
    out: list[tuple[int, int]] = []
    for tr in trumps:
        for plan in (quick_bury(t.hand, tr, left), _bury_by_estimate(t.hand, tr, left, rules)):
            cand = (tr, buried | plan)
            if cand not in out:
                out.append(cand)
    return out


def decide_bury(t: Table, sim: BidSim, p: SimParams, deadline: Deadline = None) -> SimDecision:
    """The next card to bury: from the plan (trump and cards) with the best expected score."""
    rules = t.rules
    me = sim.seat
    bid = t.bid or rules.min_bid
    cands = bury_candidates(t)
    done = _run_worlds(sim, lambda w: [(me, tr, m) for tr, m in cands], deadline)
    ws = _norm(sim.weights(t)[:done])
    values = {}
    scored: list[tuple[float, int, int, int]] = []
    for i, (tr, m) in enumerate(cands):
        xs = [sim.tricks(w, me, tr, m) for w in range(done)]
        v = _expected(rules, t.n, me, me, bid, xs, ws, p.bias_declare, p.spread)
        scored.append((v, -i, tr, m))
        values[f"{SUIT_LETTERS[tr]}:{' '.join(str(c) for c in bits(m))}"] = v
    _, _, _, plan = max(scored)
    todo = bits(plan & t.hand)
    move = f"bury {CARD_TEXT[todo[0]]}" if todo else t.legal[0]
    if move not in t.legal:
        move = t.legal[0]
    return SimDecision(move, values, done)
