"""The medium computer player: counts cards, reads the compulsory-play inferences, bids from a hand
evaluation, draws trumps as the bidder, and plays with its partner.

It is given only a seat's view. Each decision is made by :func:`decide`, which also says *why* in
a reason code and parameters (:mod:`batak.bots.teach` turns them into a sentence):

- the auction: the expected score of each bid against the expected score of defending, from the
  hand's trick estimate (:func:`batak.bots.simple.evaluate_hand`) and the table's scoring;
- the trump: the suit with the best estimate; the kitty: bury the cards whose loss costs least;
- the play: for every legal card, the chance that our side wins this trick (from
  :class:`~batak.bots.knowledge.Knowledge`: voids and missing high cards inferred from the
  compulsory rules, and the hand sizes), plus the lead it brings, minus what the card is worth
  later (masters, honours guarded by our losers, trumps, with side suits discounted by the risk of
  a ruff), plus a plan: the bidder's side draws trumps once it may, the more winners they threaten;
  defenders make the bidder ruff; partners let a partner's winner stand and lead to the partner's
  strength. Masters are known by counting: a card is master when every higher card of its suit
  has been played.

Strength, measured with ``python -m batak arena --bots medium,easy --deals 1000`` (duplicate,
every board in both seatings, ``standard``): medium − easy about +9 points a deal; easy − random
about +75; per decision about 0.5 ms. The weights of :class:`Params` were tuned against a
perfect-information Monte Carlo oracle (sampled worlds solved double dummy) on positions from
self-play, and checked in head-to-head play.

>>> from batak.game import Game
>>> g = Game("standard", seed=2)
>>> p = MediumPlayer(seed=1)
>>> while g.phase != "over":
...     g.play(p.choose(g.view(g.to_move)))
>>> sum(g.tricks_won)
13
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import DECK_MASK, SUIT_MASKS
from ..rules import Rules
from ..scoring import score
from .knowledge import Knowledge
from .signals import Signal, is_first_discard, live_signal, wanted_suit
from .simple import (
    CARD_TEXT,
    SIGMA,
    SUIT_LETTERS,
    Table,
    TrickState,
    above,
    after_card,
    best_trump,
    bits,
    decision_rng,
    defence_tricks,
    estimate_tricks,
    evaluate_hand,
    parse_view,
    table_kind,
    trick_state,
    zero_trick_chance,
)

__all__ = ["Decision", "MediumPlayer", "MediumPlayerNoSignals", "Params", "decide"]


@dataclass(frozen=True, slots=True)
class Decision:
    """A move, and why: a reason code (see :mod:`batak.bots.teach`) and its parameters."""

    move: str
    reason: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Params:
    """The medium player's tunable weights (defaults tuned as the module docstring says)."""

    bid_sigma: float = 1.0  # scales the spread of the tricks around the estimate (simple.SIGMA)
    bid_edge: float = 0.0  # tricks' worth a contract must bring over defending
    draw_bonus: float = 0.2  # drawing trumps: per opponent with trumps, per winner at risk
    draw_base: float = 0.3
    defender_draw: bool = True  # a defender long in trumps draws them too, to save its winners
    force_bidder: float = 0.15  # defender: lead a suit the bidder must ruff
    partner_lead: float = 0.25  # lead to the partner's strength
    short_lead: float = 0.08  # lead a singleton (to ruff later) when holding spare trumps
    future_weight: float = 1.0  # a trick later is worth less than a trick now
    lead_value: float = 0.3  # winning the trick also wins the next lead
    signals: bool = True  # eşli: send and read the first-discard signal (batak.bots.signals)
    signal_discard: float = 0.3  # first discard: a low card of the suit we want led
    #: lead the suit the partner asked for only where the lead is free: when the lead chosen
    #: without the signal would neither take a trick nor draw trumps (:func:`_read_signal`).
    #: False: weigh every lead of that suit by ``signal_lead`` instead (the reading of sessions
    #: up to 26, which lost tricks; kept to measure against)
    signal_read_free: bool = True
    signal_lead: float = 0.4  # the weighed reading's bonus for a lead of the suit asked for


DEFAULT = Params()


# ---------------------------------------------------------------------- bidding
def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def trick_distribution(mean: float, sigma: float, top: int) -> list[float]:
    """P(t) for t = 0..top: a normal around ``mean``, discretised and truncated."""
    ps = []
    for t in range(top + 1):
        lo = -math.inf if t == 0 else (t - 0.5 - mean) / sigma
        hi = math.inf if t == top else (t + 0.5 - mean) / sigma
        ps.append(_normal_cdf(hi) - _normal_cdf(lo))
    total = sum(ps)
    return [p / total for p in ps]


def _bidder_score(rules: Rules, bid: int, tricks: int) -> int:
    n = rules.players
    won = [0] * n
    rest = rules.hand_size - tricks
    won[0] = tricks
    won[1] = rest  # an opponent of seat 0 in every layout
    return score(rules, won, bidder=0, bid=bid)[0]


def _defender_score(rules: Rules, bid: int, tricks: int) -> int:
    n = rules.players
    won = [0] * n
    won[1] = tricks
    won[0] = rules.hand_size - tricks
    return score(rules, won, bidder=0, bid=bid)[1]


def contract_value(rules: Rules, bid: int, mean: float, sigma: float) -> float:
    """Expected score of holding the contract at ``bid`` with ``mean`` expected tricks."""
    dist = trick_distribution(mean, sigma, rules.hand_size)
    return sum(p * _bidder_score(rules, bid, t) for t, p in enumerate(dist) if p > 1e-9)


def defence_value(rules: Rules, bid: int, mean: float, sigma: float) -> float:
    dist = trick_distribution(mean, sigma, rules.hand_size)
    return sum(p * _defender_score(rules, bid, t) for t, p in enumerate(dist) if p > 1e-9)


def _choose_bid(t: Table, p: Params) -> Decision:
    rules = t.rules
    legal = t.legal
    amounts = sorted(int(m.split()[1]) for m in legal if m.startswith("bid "))
    est = evaluate_hand(t.hand, rules)
    trump_letter = max(est, key=lambda s: (est[s], -SUIT_LETTERS.index(s)))
    mean = est[trump_letter]
    if rules.bidding == "kozmaca":
        return _kozmaca_bid(t, amounts, p)
    if not amounts:
        return Decision("pass", "pass_estimate", {"est": mean, "need": rules.max_bid + 1})
    low = amounts[0]
    partner = t.partner()
    high_bidder, high_bid = None, 0
    for seat, move in t.auction:
        if move.startswith("bid "):
            high_bidder, high_bid = seat, int(move.split()[1])
    partner_bid = partner is not None and any(
        s == partner and m.startswith("bid ") for s, m in t.auction
    )
    if partner_bid:
        mean += 1.0  # a partner who bid is strong
    # do not outbid the partner unless our side gains a good deal more with our trump
    if partner is not None and high_bidder == partner and mean < high_bid + 2.0:
        return Decision("pass", "pass_partner", {"bid": high_bid})
    kind = table_kind(rules)
    sigma = SIGMA[kind] * p.bid_sigma
    bid = low
    if rules.overtrick_limit is not None:
        # yan batar: a contract far below the tricks the hand takes goes down too, so weigh
        # every amount and bid at once the one worth the most, rather than creeping up
        bid = max(amounts, key=lambda b: (contract_value(rules, b, mean, sigma), -b))
    value = contract_value(rules, bid, mean, sigma)
    defend = defence_value(
        rules, max(low, high_bid), defence_tricks(t.hand, rules), SIGMA["defence_" + kind]
    )
    all_passed = all(m == "pass" for _, m in t.auction) and len(t.auction) == t.n - 1
    forced = "pass" not in legal
    trick_points = max(1, _defender_score(rules, low, 4) - _defender_score(rules, low, 3))
    # whose tricks the estimate counts: the hand's, the side's (with the partner's share), or
    # the hand's with the kitty's help (said so in a hint: "your hand" misled a learner)
    whose = "side" if rules.partners else "kitty" if rules.kitty_size else "hand"
    said = {"est": mean, "trump": trump_letter, "whose": whose}
    if forced or value > defend + p.bid_edge * trick_points:
        return Decision(f"bid {bid}", "bid_estimate", {"n": bid, **said})
    if all_passed and rules.all_pass == "dealer_takes_min" and t.seat == t.dealer:
        if bid != low:  # yan batar: the contract is ours anyway, so at the amount worth most
            return Decision(f"bid {bid}", "bid_estimate", {"n": bid, **said})
        return Decision("pass", "pass_dealer", {"est": mean, "n": rules.min_bid})
    # enough tricks, as estimated, and still pas: defending is worth more on average (it said
    # "8.3 tricks, not enough for 7")
    reason = "pass_defend" if round(mean, 1) >= low else "pass_estimate"  # (as it is shown)
    return Decision("pass", reason, {"need": low, **said})


#: The least chance of taking no trick for which the medium player bids zero in Koz Maça.
ZERO_BID_CHANCE = 0.6


def _kozmaca_bid(t: Table, amounts: list[int], p: Params) -> Decision:
    rules = t.rules
    trump = t.eval_trump
    mean = estimate_tricks(t.hand, trump, rules)
    best, best_v = amounts[0], -math.inf
    dist = trick_distribution(mean, SIGMA["kozmaca"] * p.bid_sigma, rules.hand_size)
    for b in amounts:
        if b == 0:
            continue  # the zero bid ("el almam") is weighed below, by how well the hand ducks
        v = 0.0
        for tricks, pr in enumerate(dist):
            if pr < 1e-9:
                continue
            bids = [1] * t.n
            won = [0] * t.n
            bids[0] = b
            won[0] = tricks
            v += pr * score(rules, won, bids=bids)[0]
        if v > best_v:
            best, best_v = b, v
    if 0 in amounts and rules.zero_bid is not None:
        chance = zero_trick_chance(t.hand, trump)
        # only a hand that can avoid every trick, and only when that is worth more than a bid
        if chance >= ZERO_BID_CHANCE and rules.zero_bid * (2 * chance - 1) > best_v:
            return Decision("bid 0", "zero_bid", {"est": chance * 100})
    return Decision(f"bid {best}", "kozmaca_bid", {"n": best, "est": mean})


def _choose_trump(t: Table) -> Decision:
    suit, est = best_trump(t.hand, t.rules)
    length = (t.hand & SUIT_MASKS[suit]).bit_count()
    return Decision(
        f"trump {SUIT_LETTERS[suit]}",
        "trump_choice",
        {"suit": SUIT_LETTERS[suit], "est": est, "length": length},
    )


def bury_plan(hand: int, rules: Rules, count: int) -> tuple[int, list[int]]:
    """The trump and the ``count`` cards to bury that leave the best hand (greedy per trump)."""
    best: tuple[float, int, list[int]] | None = None
    for trump in range(4):
        h = hand
        plan: list[int] = []
        for _ in range(count):
            top_card, top_v = -1, -math.inf
            for c in bits(h):
                if c // 13 == trump and (h & ~SUIT_MASKS[trump]):
                    continue  # keep the trumps
                # ties: a low card of the shortest side suit (void it to ruff it)
                length = (h & SUIT_MASKS[c // 13]).bit_count()
                v = estimate_tricks(h & ~(1 << c), trump, rules) - 0.001 * (c % 13) - 0.02 * length
                if v > top_v:
                    top_card, top_v = c, v
            plan.append(top_card)
            h &= ~(1 << top_card)
        value = estimate_tricks(h, trump, rules)
        if best is None or value > best[0]:
            best = (value, trump, plan)
    assert best is not None
    return best[1], best[2]


def _choose_bury(t: Table) -> Decision:
    left = t.rules.kitty_size - (t.buried.bit_count() if t.buried is not None else 0)
    fixed = t.rules.fixed_trump
    trump, plan = bury_plan(t.hand, t.rules, max(1, left))
    if fixed is not None:
        trump = fixed.ordinal
    card = plan[0]
    move = f"bury {CARD_TEXT[card]}"
    if move not in t.legal:  # pragma: no cover - the plan holds only cards of the hand
        move = t.legal[0]
    length = (t.hand & SUIT_MASKS[card // 13]).bit_count()
    side = [
        (t.hand & SUIT_MASKS[x]).bit_count()
        for x in range(4)
        if x != trump and t.hand & SUIT_MASKS[x]
    ]
    return Decision(
        move,
        "bury" if side and length == min(side) else "bury_low",
        {
            "card": CARD_TEXT[card],
            "suit": SUIT_LETTERS[card // 13],
            "trump": SUIT_LETTERS[trump],
            "length": length,
        },
    )


# ---------------------------------------------------------------------- the card play
class _Ctx:
    """Everything a card decision needs, computed once per decision."""

    __slots__ = (
        "declarers",
        "friends",
        "hand",
        "k",
        "later",
        "me",
        "n",
        "opps",
        "others",
        "p",
        "probs",
        "t",
        "tmask",
        "trump",
    )

    def __init__(self, t: Table, p: Params) -> None:
        assert t.seat is not None
        self.t = t
        self.p = p
        self.me = t.seat
        self.n = t.n
        self.hand = t.hand
        self.trump = t.trump
        self.tmask = SUIT_MASKS[t.trump] if t.trump >= 0 else 0
        k = Knowledge.from_view(t)
        self.k = k
        self.probs = k.probabilities()
        self.friends = [s for s in range(t.n) if s != t.seat and t.friends(s, t.seat)]
        self.opps = [s for s in range(t.n) if not t.friends(s, t.seat)]
        self.declarers = t.declarers()
        # cards that are neither played nor ours (nor buried by us): what may beat our cards
        self.others = DECK_MASK & ~t.played & ~t.hand & ~(t.buried or 0)
        # per side suit: the chance a master of it still wins when played later
        self.later = [1.0] * 4
        for s in range(4):
            if s != self.trump:
                n_out = (self.others & SUIT_MASKS[s]).bit_count()
                extra = 0.15 if n_out < 2 * len(self.opps) else 0.05
                self.later[s] = 1.0 - min(0.95, self.ruff_risk(s) + extra)

    # -- probabilities ------------------------------------------------------------------
    def p_any(self, seat: int, mask: int) -> float:
        """P(seat holds at least one card of ``mask``)."""
        m = mask & self.k.possible[seat]
        if not m:
            return 0.0
        pr = self.probs[seat]
        none = 1.0
        for c in bits(m):
            none *= 1.0 - pr.get(c, 0.0)
        return 1.0 - none

    def p_void(self, seat: int, suit: int) -> float:
        return 1.0 - self.p_any(seat, SUIT_MASKS[suit])

    def p_beats(self, seat: int, st: TrickState) -> float:
        """P(``seat``, still to play, beats the trick's winning card ``st.win_card``)."""
        return 1.0 - self.p_survives(st, [seat])

    def p_survives(self, st: TrickState, seats: list[int]) -> float:
        """P(none of ``seats`` (to play after) beats the winning card ``st.win_card``).

        The higher cards of a suit are treated one by one (each lies with one holder); voids and
        trumps seat by seat."""
        win = st.win_card
        lead = st.lead
        trump = self.trump
        if not seats:
            return 1.0
        if lead == trump or (win // 13 == lead and not st.ruffed):
            keep = 1.0
            higher = above(win) & self.others
            for c in bits(higher):
                inside = 0.0
                for s in seats:
                    inside += self.probs[s].get(c, 0.0)
                keep *= max(0.0, 1.0 - inside)
            if lead != trump and trump >= 0:
                for s in seats:
                    keep *= 1.0 - self.p_void(s, lead) * self.p_any(s, self.tmask)
            return keep
        # the winning card is a trump on a non-trump lead
        keep = 1.0
        higher = above(win) & self.others
        for s in seats:
            keep *= 1.0 - self.p_void(s, lead) * self.p_any(s, higher)
        return keep

    def p_side_wins(self, st: TrickState, later: list[int]) -> float:
        """P(our side wins the trick whose state is ``st`` with ``later`` seats still to play)."""
        friends = self.t.friends
        me = self.me
        opps = [s for s in later if not friends(s, me)]
        if friends(st.winner, me):
            return self.p_survives(st, opps)
        for i, s in enumerate(later):
            if friends(s, me):  # a partner still to play may take the trick over
                take = 1.0 - self.p_survives(st, [s])
                rest = [o for o in later[i + 1 :] if not friends(o, me)]
                return take * (0.4 + 0.6 * self.p_survives(st, rest))
        return 0.0

    # -- what cards are worth later ------------------------------------------------------
    def ruff_risk(self, suit: int) -> float:
        """P(an opponent ruffs this suit now): void in it and holding a trump."""
        if self.trump < 0 or suit == self.trump:
            return 0.0
        safe = 1.0
        for s in self.opps:
            if self.k.counts[s] == 0:
                continue
            safe *= 1.0 - self.p_void(s, suit) * self.p_any(s, self.tmask)
        return 1.0 - safe

    def hand_value(self, hand: int) -> float:
        """What the cards of ``hand`` are worth in the tricks after this one (about the chance
        that each wins one): per suit from the top, a card wins once the ``d`` higher cards out
        have fallen, each of our losers above it drawing one; side suits are discounted by the
        risk of a ruff, and small trumps count more with short side suits."""
        total = 0.0
        trump = self.trump
        others = self.others
        short = 0
        for s in range(4):
            cards = hand & SUIT_MASKS[s]
            length = cards.bit_count()
            if s != trump and length <= 1:
                short += 2 - length
            if not length:
                continue
            out = others & SUIT_MASKS[s]
            mine = bits(cards)
            mine.reverse()
            # top down: a card wins once every higher card out has fallen; each of our losers
            # above it draws one of those out (and is then worth little itself)
            absorbed = 0
            wins = 0.0
            part = 0.0
            rank = 0.0
            for c in mine:
                d = (above(c) & out).bit_count() - absorbed
                if d <= 0:
                    wins += 1.0
                    if absorbed:
                        part = 0.0  # the loser above was spent to make this card good
                    continue
                absorbed += 1
                rank += c % 13
                if s == trump:
                    part += 0.15 + 0.6 * 0.7**d
                elif d == 1 and absorbed == 1:
                    part += 0.4 if length >= 2 else 0.1
            if s == trump:
                total += wins + part + 0.002 * rank
            else:
                total += (wins + part + 0.008 * rank) * self.later[s]
        if trump >= 0:
            small = (hand & self.tmask).bit_count()
            total += 0.08 * min(small, short)
        return total


_after = after_card


Scored = list[tuple[float, int, float, float]]  # (value, card, win, cost), best first


def _choose_card(t: Table, p: Params, rng: random.Random) -> Decision:
    legal = bits(t.legal_cards)
    if len(legal) == 1:
        return Decision(CARD_TEXT[legal[0]], "only_legal", {"card": CARD_TEXT[legal[0]]})
    ctx = _Ctx(t, p)
    st = trick_state(t.trick, t.leader, t.trump, t.n)
    later = t.seats_after()
    if t.avoiding_tricks():
        return _duck(ctx, st, later, legal)
    base_value = ctx.hand_value(t.hand)
    leading = not t.trick
    plan = _lead_plan(ctx) if leading else None
    signal_card = -1
    if not leading and p.signals and t.rules.partners and is_first_discard(t):
        want = wanted_suit(t.hand, t.played, t.trump)
        low = [c for c in legal if c // 13 == want]
        if low:  # the first discard asks the partner to lead this suit (docs/rules.md)
            signal_card = min(low)
            plan = {signal_card: p.signal_discard}
    scored: Scored = []
    for c in legal:
        after = _after(st, c, ctx.me, t.trump)
        win = ctx.p_side_wins(after, later)
        cost = base_value - ctx.hand_value(t.hand & ~(1 << c))
        v = win * (1.0 + p.lead_value) - p.future_weight * cost
        if plan is not None:
            v += plan.get(c, 0.0)
        v -= 0.0005 * (c % 13)  # ties: the lower card
        scored.append((v, c, win, cost))
    scored.sort(key=lambda x: (-x[0], x[1]))
    read = None
    if leading and p.signals and p.signal_read_free:
        scored, read = _read_signal(ctx, scored)
    card, win = scored[0][1], scored[0][2]
    text = CARD_TEXT[card]
    if read is not None:
        suit = SUIT_LETTERS[read.suit]
        return Decision(
            text, "lead_signal", {"card": text, "suit": suit, "signal": CARD_TEXT[read.card]}
        )
    if card == signal_card and not t.rules.exposed_partner:
        return Decision(text, "signal_discard", {"card": text, "suit": SUIT_LETTERS[card // 13]})
    return Decision(text, *_explain(ctx, st, card, win, legal, leading))


def _read_signal(ctx: _Ctx, scored: Scored) -> tuple[Scored, Signal | None]:
    """Lead the lowest card of the suit the partner asked for (and the signal, when it moved the
    lead), unless the lead chosen without the signal takes a trick of our own (a likely winner)
    or draws trumps. The promised card wins whenever that suit is led, so there is no hurry: a
    double-dummy count (``benchmarks/signal_anatomy.py``) found that giving up a cash or a trump
    draw for it loses tricks, and that leading it where the lead is otherwise free gains."""
    t = ctx.t
    sig = _asked_suit(ctx)
    if sig is None:
        return scored, None
    _v, top, win, _cost = scored[0]
    if win >= 0.5 or top // 13 == t.trump:
        return scored, None
    asked = [row for row in scored if row[1] // 13 == sig.suit]
    if not asked:
        return scored, None
    low = min(asked, key=lambda row: row[1])
    return [low, *(row for row in scored if row is not low)], sig


def _asked_suit(ctx: _Ctx) -> Signal | None:
    """The partner's live signal (:func:`.signals.live_signal`), if it asks for a side suit the
    partner is not known to be void in."""
    sig = live_signal(ctx.t)
    if sig is None or sig.suit == ctx.trump or ctx.k.is_void(sig.seat, sig.suit):
        return None
    return sig


def _duck(ctx: _Ctx, st: TrickState, later: list[int], legal: list[int]) -> Decision:
    """Take no more tricks (a zero bid, or yan batar after the contract is made): the card least
    likely to win the trick for the side; among those, the highest, to shed the cards that would
    win a later trick."""
    t = ctx.t
    best, best_v, best_win = legal[0], -math.inf, 1.0
    for c in legal:
        win = ctx.p_side_wins(_after(st, c, ctx.me, t.trump), later)
        v = -win + 0.002 * (c % 13) - (0.001 if t.trump >= 0 and c // 13 == t.trump else 0.0)
        if v > best_v:
            best, best_v, best_win = c, v, win
    return Decision(CARD_TEXT[best], "avoid_tricks", {"card": CARD_TEXT[best], "win": best_win})


def _lead_plan(ctx: _Ctx) -> dict[int, float]:
    """Bonuses for leads that follow a plan: draw trumps, make the bidder ruff, lead to the
    partner, set up ruffs."""
    t, p, k = ctx.t, ctx.p, ctx.k
    trump = ctx.trump
    bonus: dict[int, float] = {}
    legal = bits(t.legal_cards)
    declarer_side = ctx.me in ctx.declarers
    opp_trumps = [s for s in ctx.opps if k.possible[s] & ctx.tmask and k.counts[s]]
    my_trumps = (t.hand & ctx.tmask).bit_count()
    if trump >= 0 and (declarer_side or p.defender_draw) and opp_trumps and my_trumps:
        expected_max = max(
            sum(ctx.probs[s].get(c, 0.0) for c in bits(k.possible[s] & ctx.tmask))
            for s in opp_trumps
        )
        if my_trumps >= expected_max:
            # what the opponents' trumps threaten: our side winners, as the risk of a ruff
            threat = 0.0
            for s in range(4):
                if s != trump and t.hand & SUIT_MASKS[s]:
                    masters = sum(
                        1 for c in bits(t.hand & SUIT_MASKS[s]) if not above(c) & ctx.others
                    )
                    threat += masters * (1.0 - ctx.later[s] + 0.1)
            for c in legal:
                if c // 13 == trump:
                    base = len(opp_trumps) * p.draw_base if declarer_side else 0.0
                    bonus[c] = bonus.get(c, 0.0) + p.draw_bonus * (base + threat)
    if trump >= 0 and not declarer_side and ctx.declarers:
        for d in ctx.declarers:
            if d == ctx.me or not k.counts[d]:
                continue
            for c in legal:
                s = c // 13
                if s != trump and k.is_void(d, s) and k.possible[d] & ctx.tmask:
                    bonus[c] = bonus.get(c, 0.0) + p.force_bidder
    partner = t.partner()
    if partner is not None and k.counts[partner]:
        for c in legal:
            s = c // 13
            if s == trump:
                continue
            top = ctx.others & SUIT_MASKS[s]
            if top:
                best = top.bit_length() - 1
                if k.knows_all(partner) and k.possible[partner] >> best & 1:
                    bonus[c] = bonus.get(c, 0.0) + p.partner_lead
            led_before = any(
                cards[0] // 13 == s and leader == partner for leader, cards, _ in t.tricks
            )
            if led_before:
                bonus[c] = bonus.get(c, 0.0) + p.partner_lead * 0.5
    sig = _asked_suit(ctx) if p.signals and not p.signal_read_free else None
    if sig is not None:
        for c in legal:
            if c // 13 == sig.suit:  # the partner asked for this suit with its first discard
                bonus[c] = bonus.get(c, 0.0) + p.signal_lead
    if trump >= 0 and my_trumps >= 2:
        for c in legal:
            s = c // 13
            if s != trump and (t.hand & SUIT_MASKS[s]).bit_count() == 1:
                bonus[c] = bonus.get(c, 0.0) + p.short_lead
    return bonus


#: a card's rank within its suit (``card % 13``) from which it is no low card: the ten
_TEN = 8


def _explain(
    ctx: _Ctx, st: TrickState, card: int, win: float, legal: list[int], leading: bool
) -> tuple[str, dict[str, Any]]:
    """The reason code for the chosen card (what the decision did, in words a player uses)."""
    t = ctx.t
    text = CARD_TEXT[card]
    suit = card // 13
    params: dict[str, Any] = {"card": text, "suit": SUIT_LETTERS[suit]}
    trump = ctx.trump
    is_master = not (above(card) & ctx.others)
    # a master with a higher card of its suit in the player's own hand (A♦ K♦, K♦ led): "the
    # highest diamond still out" would be false to them, who hold A♦; both are winners
    held = above(card) & t.hand & SUIT_MASKS[suit]
    sure, likely, risky = "cash_master", "cash_master_likely", "cash_master_risk"
    if is_master and held:
        params["high"] = CARD_TEXT[(held & -held).bit_length() - 1]  # the next one up
        sure, likely, risky = "cash_touching", "cash_touching_likely", "cash_touching_risk"
    if leading:
        opp_trumps = any(ctx.k.possible[s] & ctx.tmask for s in ctx.opps)
        if suit == trump and opp_trumps and len({c // 13 for c in legal}) > 1:
            return "draw_trumps", params
        if is_master and win > 0.5:  # an opponent void in the suit may still ruff it
            risk = ctx.ruff_risk(suit)
            if risk > 0.05:
                return risky, params
            # a sure trick only when no opponent can ruff it; a risk under 5% is "almost sure"
            return (likely if risk > 0 else sure), params
        partner = t.partner()
        if partner is not None and win > 0.4:
            return "lead_partner", params
        if (
            ctx.me not in ctx.declarers
            and ctx.declarers
            and any(ctx.k.is_void(d, suit) for d in ctx.declarers if d != ctx.me)
        ):
            return "force_bidder", params
        if (t.hand & SUIT_MASKS[suit]).bit_count() == 1 and suit != trump:
            return "lead_short", params
        if is_master:  # the top card, chosen though a ruff may well take it
            return risky, params
        lower = t.hand & SUIT_MASKS[suit] & ((1 << card) - 1)
        if lower or card % 13 >= _TEN:  # not a low card: never call it one
            return "lead_spare", params
        return "lead_low", params
    lead = st.lead
    winning_friend = t.friends(st.winner, ctx.me)
    beats_now = _after(st, card, ctx.me, trump).winner == ctx.me
    winners = [c for c in legal if _after(st, c, ctx.me, trump).winner == ctx.me]
    if beats_now:
        if suit == trump and lead != trump:
            params["led"] = SUIT_LETTERS[lead]
            if st.ruffed:
                return "overruff", params
            # the lowest koz that wins, or a higher one kept from a later player's overtrump
            low = min(c for c in winners if c // 13 == trump)
            return ("ruff" if card == low else "ruff_high"), params
        if len(winners) == 1 and win > 0.5:
            return "win_only", params
        if win > 0.85:
            return "win_cheap", params
        return "win_chance", params
    if winning_friend and win > 0.5:
        return "partner_winner", params
    if winners and not beats_now:
        params["high"] = CARD_TEXT[max(winners)]
        return "duck", params
    if suit != lead and suit != trump:
        lengths = [
            (t.hand & SUIT_MASKS[x]).bit_count()
            for x in range(4)
            if x != trump and t.hand & SUIT_MASKS[x]
        ]
        # "your short suit" only says something when there is another suit to keep
        if len(lengths) > 1 and (t.hand & SUIT_MASKS[suit]).bit_count() == min(lengths):
            return "discard_short", params
        return "discard", params
    return "play_low", params


# ---------------------------------------------------------------------- the player
def decide(
    view: Mapping[str, Any] | Table, rng: random.Random | None = None, params: Params = DEFAULT
) -> Decision:
    """The medium player's move for the seat whose view this is, with the reason."""
    t = view if isinstance(view, Table) else parse_view(view)
    if not t.legal:
        raise ValueError("this seat has no move to make now (legal_moves is empty)")
    rng = rng or random.Random(0)
    if len(t.legal) == 1:
        return Decision(t.legal[0], "only_legal", {"card": t.legal[0]})
    if t.phase == "bidding":
        d = _choose_bid(t, params)
    elif t.phase == "bury":
        d = _choose_bury(t)
    elif t.phase == "trump":
        d = _choose_trump(t)
    elif t.phase == "play":
        d = _choose_card(t, params, rng)
    else:  # pragma: no cover - no legal moves outside these phases
        d = Decision(t.legal[0], "only_legal", {})
    if d.move not in t.legal:  # never return anything else, whatever the view held
        return Decision(rng.choice(t.legal), "only_legal", {})
    return d


class MediumPlayer:
    """Counts cards, infers voids and missing high cards, bids from its estimate, draws trumps as
    the bidder, plays with its partner. Same seed and same view, same move."""

    name = "medium"

    def __init__(
        self, *, seed: int | None = None, params: Params | None = None, **_options: Any
    ) -> None:
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.params = params or DEFAULT

    def decide(self, view: Mapping[str, Any]) -> Decision:
        return decide(view, decision_rng(self.seed, view, "medium"), self.params)

    def choose(self, view: Mapping[str, Any]) -> str:
        return self.decide(view).move


class MediumPlayerNoSignals(MediumPlayer):
    """The medium player without the partners' signal (for measuring it in the arena)."""

    name = "medium-no-signals"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, params=Params(signals=False), **options)
