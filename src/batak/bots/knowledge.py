"""What a seat knows about the hidden cards, from its view only.

:meth:`Knowledge.from_view` starts from the cards this seat cannot see (not in its hand, not
played, not in the exposed hand of açık eşli, not among the cards it buried as the kitty bidder)
and replays every trick under the table's compulsory-play rules (RULES.md, Compulsory play and
Leading trumps). Each card tells something about the hand it came from, at that moment, and since
cards only ever leave a hand during the play, it stays true:

- did not follow suit: void in the led suit;
- followed but did not overtake while overtaking was compulsory (``overtake``; after a ruff only
  with ``overtake_after_ruff``; always when trumps were led): no card of the led suit higher than
  the highest one on the table at that moment;
- void and did not trump: no trumps at all; except after a ruff at a table where you may discard
  when you cannot overtrump (``trump_if_cannot_overtrump`` off), where it only shows no trump
  higher than the highest one on the table; and at a table with no compulsory trump
  (``must_trump`` off) a void player's card says nothing about its trumps;
- trumped under a trump already in the trick while overtrumping was compulsory (``overtrump``,
  a setting of its own, apart from ``overtake``): no higher trump;
- led a trump before trumps were broken while the lead rule forbids it (``trump_lead``
  ``after_broken``): nothing but trumps at that moment. What breaks trumps follows ``broken_by``.

The kitty (kitty batak) is one more holder, numbered ``players``: its cards are unknown except to
the bidder, who buried them, and any hidden card may lie there. :func:`sample_world` deals the
hidden cards to the holders consistently with every constraint and hand size.

>>> from batak.game import Game
>>> g = Game("standard", hands=["KH 2S 3S", "3H 4C 5C", "2C 6C 7C", "AH 8C 9C"], dealer=3)
>>> for m in ["bid 4", "pass", "pass", "pass", "trump S", "KH", "3H", "2C"]: g.play(m)
>>> k = Knowledge.from_view(g.view(0))  # 1 did not overtake; 2 neither followed nor trumped
>>> k.may_hold(1, "AH"), k.may_hold(3, "AH"), k.is_void(2, "H"), k.may_hold(2, "4S")
(False, True, True, False)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import DECK_MASK, SUIT_MASKS
from ..rules import Rules
from .simple import (
    CARD_INDEX,
    EMPTY_TRICK,
    SUIT_LETTERS,
    Table,
    above,
    after_card,
    bits,
    parse_view,
)

__all__ = [
    "FLOOR",
    "PLAY_FACTORS",
    "Knowledge",
    "Weight",
    "auction_bias",
    "draw_worlds",
    "play_bias",
    "play_clues",
    "product",
    "resample",
    "sample_world",
    "tempered",
    "unseen",
]

#: ``weight(holder, card) -> float``: a preference (not a rule) used by :func:`sample_world`.
Weight = Callable[[int, int], float]


def _card(card: int | str) -> int:
    return card if isinstance(card, int) else CARD_INDEX[card]


def _suit(suit: int | str) -> int:
    return suit if isinstance(suit, int) else SUIT_LETTERS.index(suit)


def unseen(t: Table) -> int:
    """The cards this seat cannot see: not in its hand, not played, not in the exposed hand of
    açık eşli, not among the cards it buried as the kitty bidder."""
    seen = t.hand | t.played | (t.buried or 0)
    if t.exposed_seat is not None and t.exposed_seat != t.seat:
        seen |= t.exposed
    return DECK_MASK & ~seen


@dataclass(slots=True)
class Knowledge:
    """For each holder (seats ``0..players-1`` and the kitty, ``players``): the cards it may hold
    now (``possible``, a 52-bit mask) and how many it holds (``counts``).

    ``hidden`` lists the holders whose cards are not all known to this seat (known holders: its
    own hand, the exposed hand, the bidder's buried cards); ``unknown`` is the set of cards this
    seat cannot see, and ``excluded`` what the play proved each seat does not hold.
    """

    seat: int | None
    players: int
    rules: Rules
    trump: int
    possible: list[int]
    counts: list[int]
    hidden: list[int]
    unknown: int
    excluded: list[int]
    played: int
    broken: bool

    @property
    def kitty(self) -> int:
        """The holder number of the kitty."""
        return self.players

    # -- building --------------------------------------------------------------------
    @staticmethod
    def from_view(view: Mapping[str, Any] | Table) -> Knowledge:
        """Everything this view proves about the hidden cards."""
        t = view if isinstance(view, Table) else parse_view(view)
        n = t.n
        rules = t.rules
        kitty = n
        exposed_seat = t.exposed_seat if t.exposed_seat != t.seat else None
        buried = t.buried or 0
        unknown = unseen(t)
        counts = [*t.hand_sizes, 0]
        counts[kitty] = max(0, 52 - sum(t.hand_sizes) - t.played.bit_count())
        excluded = [0] * (n + 1)
        broken = _infer(t, rules, excluded)
        possible = [0] * (n + 1)
        hidden: list[int] = []
        for s in range(n):
            if s == t.seat:
                possible[s] = t.hand
            elif s == exposed_seat:
                possible[s] = t.exposed
            else:
                possible[s] = unknown & ~excluded[s] if counts[s] else 0
                if counts[s]:
                    hidden.append(s)
        if t.buried is not None and buried.bit_count() == counts[kitty]:
            possible[kitty] = buried  # the bidder knows what it buried
        elif counts[kitty]:
            # unknown kitty cards (or, in a deal of short hands, cards nobody was dealt)
            possible[kitty] = unknown | buried
            hidden.append(kitty)
        k = Knowledge(
            seat=t.seat,
            players=n,
            rules=rules,
            trump=t.trump,
            possible=possible,
            counts=counts,
            hidden=hidden,
            unknown=unknown,
            excluded=excluded,
            played=t.played,
            broken=broken,
        )
        k._propagate()
        return k

    def _propagate(self) -> None:
        """Tighten the sets: a holder that can hold only as many cards as it has holds exactly
        those; a holder that must hold exactly as many cards as it has (cards nobody else may
        hold) holds nothing else. Repeated until nothing changes; never removes a possibility."""
        hidden = self.hidden
        if len(hidden) < 2:
            return
        poss = self.possible
        cnt = self.counts
        changed = True
        rounds = 0
        while changed and rounds < 8:
            changed = False
            rounds += 1
            for s in hidden:
                others = 0
                for o in hidden:
                    if o != s:
                        others |= poss[o]
                only = poss[s] & ~others
                if poss[s] != only and only.bit_count() == cnt[s]:
                    poss[s] = only
                    changed = True
                if poss[s].bit_count() == cnt[s]:
                    for o in hidden:
                        if o != s and poss[o] & poss[s]:
                            poss[o] &= ~poss[s]
                            changed = True

    # -- questions ---------------------------------------------------------------------
    def may_hold(self, holder: int, card: int | str) -> bool:
        return bool(self.possible[holder] >> _card(card) & 1)

    def is_void(self, holder: int, suit: int | str) -> bool:
        """Known to hold no card of ``suit``."""
        return not self.possible[holder] & SUIT_MASKS[_suit(suit)]

    def knows_all(self, holder: int) -> bool:
        """The holder's cards are all known (own hand, exposed hand, or deduced)."""
        return self.possible[holder].bit_count() == self.counts[holder]

    def outstanding(self, suit: int | None = None) -> int:
        """Cards not yet played and not in this seat's hand (the exposed hand included)."""
        own = self.possible[self.seat] if self.seat is not None else 0
        m = DECK_MASK & ~self.played & ~own
        return m & SUIT_MASKS[suit] if suit is not None else m

    def holders_of(self, card: int | str) -> list[int]:
        """The holders that may hold ``card``."""
        c = _card(card)
        return [h for h in range(self.players + 1) if self.possible[h] >> c & 1]

    def probabilities(self) -> list[dict[int, float]]:
        """For each holder, the probability of holding each hidden card it may hold (a smooth
        estimate: a matrix with the right row sums (hand sizes) and column sums (each card is
        somewhere), fitted by iterative scaling over groups of equivalent cards)."""
        hidden = self.hidden
        out: list[dict[int, float]] = [{} for _ in range(self.players + 1)]
        for h in range(self.players + 1):
            if h not in hidden:
                for c in bits(self.possible[h]):
                    out[h][c] = 1.0
        if not hidden:
            return out
        groups: dict[int, list[int]] = {}
        for c in bits(self.unknown):
            key = 0
            for j, h in enumerate(hidden):
                if self.possible[h] >> c & 1:
                    key |= 1 << j
            if key:
                groups.setdefault(key, []).append(c)
        keys = list(groups)
        sizes = [len(groups[g]) for g in keys]
        k = len(hidden)
        # m[j][g]: expected cards of group g held by hidden holder j
        m = [
            [
                (sizes[gi] / (key.bit_count())) if key >> j & 1 else 0.0
                for gi, key in enumerate(keys)
            ]
            for j in range(k)
        ]
        rows = [
            float(self.counts[h] - (self.possible[h] & ~self.unknown).bit_count()) for h in hidden
        ]
        for h in hidden:
            for c in bits(self.possible[h] & ~self.unknown):
                out[h][c] = 1.0
        for _ in range(12):
            for j in range(k):
                total = sum(m[j])
                if total > 0:
                    f = rows[j] / total
                    m[j] = [x * f for x in m[j]]
            for gi in range(len(keys)):
                total = sum(m[j][gi] for j in range(k))
                if total > 0:
                    f = sizes[gi] / total
                    for j in range(k):
                        m[j][gi] *= f
        for j, h in enumerate(hidden):
            for gi, key in enumerate(keys):
                if key >> j & 1:
                    p = min(1.0, m[j][gi] / sizes[gi])
                    for c in groups[keys[gi]]:
                        out[h][c] = p
        return out


def _infer(t: Table, rules: Rules, excluded: list[int]) -> bool:
    """Replay the tricks and the trick on the table, adding to ``excluded[seat]`` what each
    card proves. Returns whether trumps are broken at the end (as the engine says)."""
    n = t.n
    trump = t.trump
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    restricted = trump >= 0 and rules.trump_lead == "after_broken"
    lead_breaks = rules.broken_by == "any_trump"
    overtrump = rules.overtrump  # a setting of its own, apart from overtake
    broken = False
    tricks = [(leader, cards) for leader, cards, _ in t.tricks]
    if t.trick:
        tricks.append((t.leader, t.trick))
    for leader, cards in tricks:
        first = cards[0]
        lead = first // 13
        if lead == trump:
            if restricted and not broken:
                excluded[leader] |= DECK_MASK & ~tmask  # held nothing but trumps
            if lead_breaks:
                broken = True
        hi_led = first
        hi_trump = first if lead == trump else -1
        ruffed = False
        for i in range(1, len(cards)):
            c = cards[i]
            s = (leader + i) % n
            suit = c // 13
            if suit == lead:
                must_overtake = rules.overtake and (
                    lead == trump or not ruffed or rules.overtake_after_ruff
                )
                if must_overtake and c < hi_led:
                    excluded[s] |= above(hi_led)
                if c > hi_led:
                    hi_led = c
                    if suit == trump:
                        hi_trump = c
                continue
            excluded[s] |= SUIT_MASKS[lead]  # did not follow: void in the led suit
            if trump < 0 or not rules.must_trump:
                if suit == trump:  # (free to discard: a void player's trump proves nothing more)
                    ruffed = True
                    broken = True
                    if c > hi_trump:
                        hi_trump = c
                continue
            if suit == trump:
                if ruffed and overtrump and c < hi_trump:
                    excluded[s] |= above(hi_trump)  # did not overtrump: no higher trump
                ruffed = True
                broken = True
                if c > hi_trump:
                    hi_trump = c
            elif ruffed and overtrump and not rules.trump_if_cannot_overtrump:
                # free to discard only when unable to overtrump: no trump above the table's
                excluded[s] |= above(hi_trump)
            else:
                excluded[s] |= tmask  # void and did not trump: no trumps
    return broken


# ---------------------------------------------------------------------- sampling worlds
def sample_world(
    knowledge: Knowledge, rng: random.Random, *, weight: Weight | None = None
) -> list[int]:
    """One deal of the hidden cards consistent with everything known: a list of ``players + 1``
    masks (the seats' hands now, then the kitty), known holdings included.

    Cards are dealt most-constrained first; each goes to a holder chosen in proportion to its free
    places (times ``weight(holder, card)`` when given), among the holders for which the rest can
    still be dealt (Hall's condition over every set of holders, kept incrementally), so it never
    fails on a consistent position. Without constraints and weights it is exactly uniform.
    """
    return _deal(knowledge, rng, weight)[0]


def _deal(
    knowledge: Knowledge, rng: random.Random, weight: Weight | None, ratio: bool = False
) -> tuple[list[int], float]:
    """:func:`sample_world`'s deal and, with ``ratio`` and a ``weight``, the log of how much
    likelier it is under the weights' own law (the product of every card's ``weight`` where it
    lies, over every consistent deal alike) than under the dealing that drew it (see
    :func:`draw_worlds`); 0.0 otherwise."""
    ratio = ratio and weight is not None
    k = knowledge
    hidden = k.hidden
    # known holdings whole; hidden holders start with their known cards (a kitty's buried ones)
    hands = [
        k.possible[h] & ~k.unknown if h in hidden else k.possible[h] for h in range(k.players + 1)
    ]
    if not hidden:
        return hands, 0.0
    h_n = len(hidden)
    full = (1 << h_n) - 1
    caps = [k.counts[h] - hands[h].bit_count() for h in hidden]
    cards_by_type: dict[int, list[int]] = {}
    for c in bits(k.unknown):
        key = 0
        for j, h in enumerate(hidden):
            if k.possible[h] >> c & 1:
                key |= 1 << j
        if not key:
            raise ValueError(f"inconsistent knowledge: nobody may hold {c}")
        cards_by_type.setdefault(key, []).append(c)
    if sum(caps) != sum(len(v) for v in cards_by_type.values()):
        raise ValueError("inconsistent knowledge: hidden cards and hand sizes differ")
    if weight is None and list(cards_by_type) == [full]:
        deck = cards_by_type[full]
        rng.shuffle(deck)
        pos = 0
        for j, h in enumerate(hidden):
            for c in deck[pos : pos + caps[j]]:
                hands[h] |= 1 << c
            pos += caps[j]
        return hands, 0.0
    log_ratio = 0.0
    # slack[S] = free places of holders in S - cards that may go only to holders in S
    subsets = range(1, full + 1)
    slack = [0] * (full + 1)
    for sub in subsets:
        cap = sum(caps[j] for j in range(h_n) if sub >> j & 1)
        forced = sum(len(v) for key, v in cards_by_type.items() if key & ~sub == 0)
        slack[sub] = cap - forced
        if slack[sub] < 0:
            raise ValueError("inconsistent knowledge: no deal fits the constraints")
    # the subsets whose slack drops when a card of type key goes to holder j
    drops: dict[tuple[int, int], list[int]] = {}
    order = sorted(cards_by_type, key=lambda key: (key.bit_count(), key))
    for key in order:
        cards = cards_by_type[key]
        rng.shuffle(cards)
        holders = [j for j in range(h_n) if key >> j & 1]
        for j in holders:
            drops[(j, key)] = [sub for sub in subsets if sub >> j & 1 and key & ~sub]
        for c in cards:
            choices: list[int] = []
            weights: list[float] = []
            owns: list[float] = []
            for j in holders:
                if not caps[j]:
                    continue
                if any(slack[sub] < 1 for sub in drops[(j, key)]):
                    continue
                w = float(caps[j])
                if weight is not None:
                    own = max(1e-6, weight(hidden[j], c))
                    w *= own
                    if ratio:
                        owns.append(own)
                choices.append(j)
                weights.append(w)
            if not choices:  # pragma: no cover - impossible when the position is consistent
                raise ValueError("inconsistent knowledge: the deal cannot be completed")
            if len(choices) == 1:
                pick = 0
                if ratio:  # the card's own weight (the draw had no choice)
                    log_ratio += math.log(owns[0])
            else:
                pick = rng.choices(range(len(choices)), weights)[0]
                if ratio:  # the card's own weight over the chance this draw had
                    log_ratio += math.log(owns[pick] * sum(weights) / weights[pick])
            j = choices[pick]
            caps[j] -= 1
            for sub in drops[(j, key)]:
                slack[sub] -= 1
            hands[hidden[j]] |= 1 << c
    return hands, log_ratio


def draw_worlds(
    knowledge: Knowledge,
    rng: random.Random,
    weight: Weight,
    count: int,
    pool: int = 4,
) -> list[tuple[list[int], int]]:
    """``count`` worlds drawn from the weights' own law: each consistent deal as likely as the
    product of every card's ``weight`` where it lies. :func:`sample_world` deals card by card,
    so a card it is told is unlikely in a hand still lands there whenever the other hands are
    full when its turn comes; here ``pool`` times ``count`` deals are drawn that way and
    ``count`` of them kept, each in proportion to how much likelier it is under the weights'
    law than under the dealing (sampling-importance-resampling, kept by systematic
    resampling). Returns each kept world once, in the order drawn, with how many times it
    was kept."""
    drawn = [_deal(knowledge, rng, weight, ratio=True) for _ in range(max(1, pool) * count)]
    top = max(r for _, r in drawn)
    shares = [math.exp(r - top) for _, r in drawn]
    return [(drawn[i][0], times) for i, times in resample(shares, count, rng)]


def resample(shares: Sequence[float], count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Systematic resampling: ``count`` draws among the items, each in proportion to its share
    (not all zero), as ``(index, times)`` for each item drawn at least once, in order. One
    ``rng.random()`` places every draw."""
    step = sum(shares) / count
    first = rng.random()
    kept: list[tuple[int, int]] = []
    taken = 0
    edge = 0.0
    for i, share in enumerate(shares):
        edge += share
        times = 0
        while taken < count and (first + taken) * step < edge:
            times += 1
            taken += 1
        if times:
            kept.append((i, times))
    if taken < count:  # rounding left the last place short of the sum
        i, times = kept.pop() if kept else (len(shares) - 1, 0)
        kept.append((i, times + count - taken))
    return kept


def tempered(logs: Sequence[float], keep: float = 8.0) -> list[float]:
    """Weights from log-weights, the largest 1, flattened (square roots, at most three times)
    while too few of them carry the weight: until their effective number is at least ``keep``
    or a third of them, whichever is fewer. Evidence that singles out one or two worlds would
    leave a search nothing to average."""
    top = max(logs) if logs else 0.0
    ws = [math.exp(x - top) for x in logs]
    for _ in range(3):
        total = sum(ws)
        ess = total * total / sum(x * x for x in ws) if total else 0.0
        if ess >= min(keep, len(ws) / 3):
            break
        ws = [math.sqrt(x) for x in ws]
    return ws


def product(*weights: Weight) -> Weight:
    """One ``weight`` that is the product of several (each a preference of its own)."""
    if len(weights) == 1:
        return weights[0]

    def weight(holder: int, card: int) -> float:
        w = 1.0
        for f in weights:
            w *= f(holder, card)
        return w

    return weight


def auction_bias(view: Mapping[str, Any] | Table, strength: float = 2.0) -> Weight:
    """A ``weight`` for :func:`sample_world` from the auction: the bidder likely holds length and
    strength in the trump suit (a preference, never a rule), and a seat that bid holds more high
    cards than one that passed at once."""
    t = view if isinstance(view, Table) else parse_view(view)
    trump = t.eval_trump
    bidder = t.bidder
    bidders = {s for s, m in t.auction if m.startswith("bid")}
    n = t.n

    def weight(holder: int, card: int) -> float:
        if holder >= n:
            return 1.0
        w = 1.0
        if bidder is not None and holder == bidder and card // 13 == trump:
            w *= strength * (1.0 + 0.1 * (card % 13))
        if holder in bidders and card % 13 >= 10:
            w *= 1.3
        return w

    return weight


#: How much less likely a card is in a hand after a choice of card, by what the card was and how
#: the hidden card relates to it (:func:`play_clues`): how often hands held such cards against
#: how often the rules alone allow it, measured with ``benchmarks/fit_inference.py`` over seeded
#: deals of medium players (300 in ``standard``, 200 in ``sultan-esli``) and of hard players (60
#: in ``standard``), and rounded between them. A card that did not win leaves hardly any lower
#: card of its suit in the hand (0.01 to 0.04); a low lead, fewer lower cards (0.5-0.8) and far
#: fewer top cards of the other side suits (0.3-0.7: a player cashes its winners first).
PLAY_FACTORS: dict[tuple[str, str], float] = {
    ("not_winning", "lower"): 0.02,
    ("won_last", "cheaper_winner"): 0.3,
    ("ruff", "cheaper_winner"): 0.7,
    ("lead_low", "lower"): 0.6,
    ("lead_low", "other_top"): 0.4,
    ("lead_top", "other_top"): 0.55,
    ("lead_trump", "other_top"): 0.6,
}

#: No clue, alone or with others, takes a card's weight below this (a factor under it, such as
#: the 0.02 measured for a card that did not win, counts as this): people do not always play by
#: the book, and the bias must stay a preference, never a rule.
FLOOR = 0.05


def play_clues(t: Table) -> list[tuple[int, str, str, int]]:
    """What each card the others chose suggests, as ``(seat, choice, relation, cards)``: after
    that choice, ``cards`` (a mask of cards this seat has not seen) are less likely in ``seat``'s
    hand by the factor ``PLAY_FACTORS[(choice, relation)]`` (:func:`play_bias`). A choice is
    judged by what its player knew was out of play then (the cards played before it). Choices:
    ``lead_trump``, ``lead_top`` (no higher card of the suit was still in play), ``lead_low``,
    ``not_winning`` (followed, discarded or trumped under without taking the lead), ``won_last``
    and ``ruff`` (took the lead with a trump before the last card); relations: ``lower`` (lower
    cards of the suit), ``other_top`` (the top card out of each other side suit) and
    ``cheaper_winner`` (lower cards that would have won as well). The cards of a seat trying to
    take no more tricks (a zero bid, yan batar) are skipped: it plays the other way round."""
    n = t.n
    trump = t.trump
    rules = t.rules
    out: list[tuple[int, str, str, int]] = []
    won = [0] * n
    start = len(t.tricks) + max(t.hand_sizes)  # cards in a hand when the card play began
    gone = 0  # the cards played before the one looked at: what its player knew was out of play
    tricks = [(leader, cards) for leader, cards, _ in t.tricks]
    if t.trick:
        tricks.append((t.leader, t.trick))
    for k, (leader, cards) in enumerate(tricks):
        st = EMPTY_TRICK
        for i, c in enumerate(cards):
            s = (leader + i) % n
            suit = c // 13
            lower = SUIT_MASKS[suit] & ((1 << c) - 1) & ~gone
            nxt = after_card(st, c, s, trump)
            if s != t.seat and not t.avoiding_tricks(s, won, start - k):
                if i == 0:
                    if suit == trump:
                        kind = "lead_trump"
                    elif above(c) & ~gone:  # a higher card of the suit still out
                        kind = "lead_low"
                        out.append((s, kind, "lower", lower))
                    else:
                        kind = "lead_top"
                    tops = 0
                    for other in range(4):
                        rest = SUIT_MASKS[other] & ~gone
                        if other != suit and other != trump and rest:
                            tops |= 1 << (rest.bit_length() - 1)
                    out.append((s, kind, "other_top", tops))
                elif nxt.winner != s:  # followed, discarded or trumped under
                    # after a ruff, where the led suit must still be overtaken when it can be,
                    # a card that overtook it had only the cards above its highest to choose from
                    overtook = suit == st.lead and st.ruffed and c > st.hi_led
                    if overtook and rules.overtake and rules.overtake_after_ruff:
                        lower &= above(st.hi_led)
                    out.append((s, "not_winning", "lower", lower))
                elif i == n - 1 or (suit == trump and suit != st.lead):
                    cheaper = 0
                    for x in bits(lower):
                        if after_card(st, x, s, trump).winner == s:
                            cheaper |= 1 << x
                    kind = "won_last" if i == n - 1 else "ruff"
                    out.append((s, kind, "cheaper_winner", cheaper))
            gone |= 1 << c
            st = nxt
        if k < len(t.tricks):
            won[t.tricks[k][2]] += 1
    hidden = unseen(t)  # only what this seat has not seen can be anywhere else
    out = [(s, kind, relation, cards & hidden) for s, kind, relation, cards in out]
    return [clue for clue in out if clue[3]]


def play_bias(view: Mapping[str, Any] | Table, strength: float = 1.0) -> Weight:
    """A ``weight`` for :func:`sample_world` from how the others chose among their legal cards
    (a preference, never a rule: :class:`Knowledge` keeps what the rules prove).

    Players play low when their card will not win the trick, win as cheaply as they can, lead
    the low card of a suit and their winners before leading low: so each card someone chose
    makes some hidden cards less likely in that hand (:func:`play_clues`, by the factors of
    :data:`PLAY_FACTORS` raised to ``strength``, never below :data:`FLOOR`)."""
    t = view if isinstance(view, Table) else parse_view(view)
    n = t.n
    factor: list[dict[int, float]] = [{} for _ in range(n)]
    for s, kind, relation, cards in play_clues(t):
        f = PLAY_FACTORS[(kind, relation)] ** strength
        mine = factor[s]
        for y in bits(cards):
            mine[y] = max(FLOOR, mine.get(y, 1.0) * f)

    def weight(holder: int, card: int) -> float:
        if holder < n:
            return factor[holder].get(card, 1.0)
        return 1.0

    return weight
