"""Shared helpers for the computer players, and :class:`RandomPlayer`.

Everything here works from a seat's view (``Game.view(seat)``, a plain JSON-ready dict) and never
from a game: :func:`parse_view` turns the view into a :class:`Table` of bit masks, the trick
helpers say who is winning the trick on the table, and :func:`estimate_tricks` /
:func:`evaluate_hand` value a hand for each trump choice under the table's rules.

Cards are indices ``suit * 13 + rank`` (rank 0 is the two, 12 the ace), sets of cards are 52-bit
masks, exactly as in :mod:`batak.cards`; suits are ordinals 0..3 for ``S H D C``.

>>> from batak.game import Game
>>> g = Game("standard", seed=5)
>>> t = parse_view(g.view(g.to_move))
>>> t.phase, t.seat, bin(t.hand).count("1")
('bidding', 1, 13)
>>> p = RandomPlayer(seed=1)
>>> p.choose(g.view(g.to_move)) in g.view(g.to_move)["legal_moves"]
True
>>> hand = mask_from("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C")
>>> est = evaluate_hand(hand, Rules.preset("standard"))
>>> max(est, key=lambda s: est[s]), est["S"] > est["H"] + 3
('S', True)
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..cards import CARDS, SUIT_MASKS
from ..rules import Rules

__all__ = [
    "CARD_INDEX",
    "CARD_TEXT",
    "SUIT_LETTERS",
    "RandomPlayer",
    "Table",
    "TrickState",
    "above",
    "beats",
    "best_trump",
    "bits",
    "card_text",
    "decision_rng",
    "defence_tricks",
    "estimate_tricks",
    "evaluate_hand",
    "hand_features",
    "mask_from",
    "parse_view",
    "popcount",
    "rules_of",
    "trick_state",
    "zero_trick_chance",
]

SUIT_LETTERS: Final = "SHDC"
CARD_TEXT: Final[tuple[str, ...]] = tuple(str(c) for c in CARDS)
CARD_INDEX: Final[dict[str, int]] = {str(c): c.index for c in CARDS}
TRUMP_MOVE: Final[tuple[str, ...]] = tuple(f"trump {s}" for s in SUIT_LETTERS)


def popcount(mask: int) -> int:
    return mask.bit_count()


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def above(index: int) -> int:
    """The cards of ``index``'s suit strictly higher than it."""
    return SUIT_MASKS[index // 13] & ~((2 << index) - 1)


def mask_from(cards: Iterable[str] | str) -> int:
    """The mask of canonical card texts (``"AS"``, ``"TH"``; a string is split on spaces)."""
    if isinstance(cards, str):
        cards = cards.split()
    m = 0
    for c in cards:
        m |= 1 << CARD_INDEX[c]
    return m


def card_text(index: int) -> str:
    return CARD_TEXT[index]


# ---------------------------------------------------------------------- the view, parsed
_RULES_CACHE: dict[str, Rules] = {}


def rules_of(view: Mapping[str, Any]) -> Rules:
    """The table's :class:`Rules` from ``view["rules"]`` (cached: views repeat them)."""
    data = view["rules"]
    key = json.dumps(data, sort_keys=True)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = Rules.from_dict(dict(data))
        if len(_RULES_CACHE) > 64:
            _RULES_CACHE.clear()
        _RULES_CACHE[key] = rules
    return rules


@dataclass(slots=True)
class Table:
    """A seat's view as masks and small ints (see :func:`parse_view`)."""

    seat: int | None
    n: int
    rules: Rules
    phase: str
    dealer: int
    to_move: int | None
    hand: int
    legal: list[str]
    legal_cards: int  # the legal cards as a mask in the card play, else 0
    trump: int  # the trump the engine plays with (view["trump"]), -1 for none
    bidder: int | None
    bid: int | None
    tricks: list[tuple[int, list[int], int]]  # finished tricks: (leader, cards, winner)
    leader: int  # leader of the trick on the table
    trick: list[int]  # cards of the trick on the table, in play order
    played: int  # every card played so far (finished tricks and the table)
    hand_sizes: list[int]
    tricks_won: list[int]
    exposed_seat: int | None
    exposed: int
    buried: int | None
    auction: list[tuple[int, str]]
    seat_bids: list[int | None] | None
    broken: bool
    played_by: list[int] = field(default_factory=list)  # per seat: the cards it has played

    def avoiding_tricks(
        self, seat: int | None = None, won: Sequence[int] | None = None, left: int | None = None
    ) -> bool:
        """Should ``seat`` (by default this view's seat) try to take no more tricks? Yes when its
        own Koz Maça bid is zero ("el almam", ``rules.zero_bid``), and under yan batar
        (``rules.overtrick_limit``) once its side's contract is made and the tricks left could
        still take it over the limit. ``won`` (tricks won per seat) and ``left`` (the tricks still
        to finish, the current one included) ask it of an earlier moment of the card play; by
        default they are the present's.
        """
        if seat is None:
            seat = self.seat
        if seat is None or self.phase != "play":
            return False
        if won is None:
            won = self.tricks_won
        r = self.rules
        if self.bidder is None:  # Koz Maça: each player against its own bid
            bid = (self.seat_bids or [None] * self.n)[seat]
            mine = won[seat]
        elif seat in r.team_of(self.bidder):
            bid = self.bid
            mine = sum(won[s] for s in r.team_of(seat))
        else:
            return False
        if bid is None:
            return False
        if bid == 0:
            return True
        limit = r.overtrick_limit
        if limit is None or mine < bid:
            return False
        if left is None:
            left = self.hand_sizes[seat]
        return mine + left > bid + limit

    @property
    def eval_trump(self) -> int:
        """The trump for valuing hands: the named or fixed trump, else -1."""
        if self.trump >= 0:
            return self.trump
        fixed = self.rules.fixed_trump
        return fixed.ordinal if fixed is not None else -1

    def team(self, seat: int) -> tuple[int, ...]:
        return self.rules.team_of(seat)

    def partner(self, seat: int | None = None) -> int | None:
        s = self.seat if seat is None else seat
        if s is None or not self.rules.partners:
            return None
        return (s + 2) % self.n

    def friends(self, a: int, b: int) -> bool:
        """Same side: the same seat, or partners in eşli."""
        return a == b or (self.rules.partners and (a - b) % 2 == 0)

    def declarers(self) -> tuple[int, ...]:
        """The bidder's side (empty without a contract, as in Koz Maça)."""
        return self.rules.team_of(self.bidder) if self.bidder is not None else ()

    def seats_after(self) -> list[int]:
        """The seats still to play to the trick on the table after the seat to move."""
        done = len(self.trick) + 1
        return [(self.leader + i) % self.n for i in range(done, self.n)]


def parse_view(view: Mapping[str, Any]) -> Table:
    """Turn a view dict into a :class:`Table` (no game is consulted)."""
    rules = rules_of(view)
    n = int(view["players"])
    seat = view.get("seat")
    phase = str(view["phase"])
    legal = [str(m) for m in view.get("legal_moves") or []]
    legal_cards = 0
    if phase == "play":
        for m in legal:
            idx = CARD_INDEX.get(m)
            if idx is not None:
                legal_cards |= 1 << idx
    contract = view.get("contract")
    bidder = int(contract["bidder"]) if contract else None
    bid = int(contract["bid"]) if contract else None
    trump_letter = view.get("trump")
    trump = SUIT_LETTERS.index(trump_letter) if trump_letter else -1
    tricks: list[tuple[int, list[int], int]] = []
    played = 0
    played_by = [0] * n
    for t in view.get("tricks") or []:
        leader = int(t["leader"])
        cards = [CARD_INDEX[c] for c in t["cards"]]
        for i, c in enumerate(cards):
            played |= 1 << c
            played_by[(leader + i) % n] |= 1 << c
        tricks.append((leader, cards, int(t["winner"])))
    cur = view.get("current_trick") or {}
    trick = [CARD_INDEX[c] for c in cur.get("cards") or []]
    to_move = view.get("to_move")
    lead_seat = cur.get("leader")
    if lead_seat is None:
        lead_seat = to_move if to_move is not None else 0
    leader = int(lead_seat)
    for i, c in enumerate(trick):
        played |= 1 << c
        played_by[(leader + i) % n] |= 1 << c
    exposed = view.get("exposed")
    buried = view.get("buried")
    bids = view.get("bids")
    return Table(
        seat=int(seat) if seat is not None else None,
        n=n,
        rules=rules,
        phase=phase,
        dealer=int(view.get("dealer") or 0),
        to_move=int(to_move) if to_move is not None else None,
        hand=mask_from(view.get("hand") or []),
        legal=legal,
        legal_cards=legal_cards,
        trump=trump,
        bidder=bidder,
        bid=bid,
        tricks=tricks,
        leader=leader,
        trick=trick,
        played=played,
        hand_sizes=[int(x) for x in view.get("hand_sizes") or [0] * n],
        tricks_won=[int(x) for x in view.get("tricks_won") or [0] * n],
        exposed_seat=int(exposed["seat"]) if exposed else None,
        exposed=mask_from(exposed["cards"]) if exposed else 0,
        buried=mask_from(buried) if buried is not None else None,
        auction=[(int(a["seat"]), str(a["move"])) for a in view.get("auction") or []],
        seat_bids=list(bids) if bids is not None else None,
        broken=bool(view.get("trumps_broken")),
        played_by=played_by,
    )


def view_key(view: Mapping[str, Any]) -> str:
    """A canonical text of the parts of a view a decision depends on."""
    keys = (
        "seat",
        "phase",
        "hand",
        "auction",
        "bids",
        "contract",
        "tricks",
        "current_trick",
        "buried",
        "legal_moves",
    )
    return json.dumps([view.get(k) for k in keys], sort_keys=True, separators=(",", ":"))


def decision_rng(seed: int | str, view: Mapping[str, Any], salt: str = "") -> random.Random:
    """A generator that depends only on the player's seed and the view: same seed and same view
    give the same move, whatever was asked before."""
    digest = hashlib.blake2b(f"{seed}|{salt}|{view_key(view)}".encode(), digest_size=16).hexdigest()
    return random.Random(digest)


def _seed_or_fresh(seed: int | None) -> int:
    return seed if seed is not None else secrets.randbits(64)


# ---------------------------------------------------------------------- tricks
@dataclass(frozen=True, slots=True)
class TrickState:
    """The trick on the table: led suit, highest card of it, highest trump, who is winning."""

    lead: int  # suit ordinal, -1 when no card has been led
    hi_led: int  # the highest card of the led suit in the trick
    hi_trump: int  # the highest trump in the trick, -1 if none
    ruffed: bool  # a trump was played on a non-trump lead
    winner: int  # seat winning so far (-1 when empty)
    win_card: int  # the card winning so far (-1 when empty)


def after_card(st: TrickState, card: int, seat: int, trump: int) -> TrickState:
    """The trick state once ``seat`` plays ``card`` (the engine's own bookkeeping)."""
    if st.lead < 0:
        return TrickState(card // 13, card, card if card // 13 == trump else -1, False, seat, card)
    lead, hi_led, hi_trump, ruffed = st.lead, st.hi_led, st.hi_trump, st.ruffed
    winner, win_card = st.winner, st.win_card
    suit = card // 13
    if suit == lead:
        if card > hi_led:
            hi_led = card
            if not ruffed:
                winner, win_card = seat, card
            if suit == trump:
                hi_trump = card
    elif suit == trump:
        ruffed = True
        if card > hi_trump:
            hi_trump = card
            winner, win_card = seat, card
    return TrickState(lead, hi_led, hi_trump, ruffed, winner, win_card)


EMPTY_TRICK = TrickState(-1, -1, -1, False, -1, -1)


def trick_state(cards: Sequence[int], leader: int, trump: int, n: int) -> TrickState:
    """Replay the cards of a (partial) trick as the engine does."""
    st = EMPTY_TRICK
    for i, c in enumerate(cards):
        st = after_card(st, c, (leader + i) % n, trump)
    return st


def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the card winning a trick, (the led suit being ``best``'s suit
    unless ``best`` is a trump)?"""
    cs, bs = card // 13, best // 13
    if cs == bs:
        return card > best
    return cs == trump


# ---------------------------------------------------------------------- hand evaluation
FEATURES: Final[tuple[str, ...]] = (
    "const",  # 1
    "side_aces",  # aces outside the trump suit
    "side_king_with_ace",  # a king with its ace
    "side_king_guarded",  # a king without the ace, with at least one more card
    "side_queen_with_honour",  # a queen with the ace or the king, in three or more cards
    "side_queen_guarded",  # a queen without ace and king, in three or more cards
    "side_single_honour",  # a singleton king or queen (it falls under a higher card)
    "side_long",  # side-suit cards beyond the fourth
    "trump_length",
    "trump_ace",
    "trump_king",
    "trump_queen",
    "trump_jack",
    "trump_long2",  # (trump length - 4)² when longer: long koz takes the last tricks
    "ruffs",  # short side suits that the spare trumps can ruff
)


def hand_features(hand: int, trump: int) -> list[float]:
    """The features of :data:`FEATURES` for ``hand`` (a mask) with ``trump`` (-1: none)."""
    f = [0.0] * len(FEATURES)
    f[0] = 1.0
    short = 0
    for s in range(4):
        p = (hand >> (13 * s)) & 0x1FFF
        length = p.bit_count()
        a, k, q, j = p >> 12 & 1, p >> 11 & 1, p >> 10 & 1, p >> 9 & 1
        if s == trump:
            f[8] = length
            f[9], f[10], f[11], f[12] = a, k, q, j
            f[13] = max(0, length - 4) ** 2
            continue
        if length <= 1:
            short += 2 - length
        f[1] += a
        if k:
            if a:
                f[2] += 1
            elif length >= 2:
                f[3] += 1
            else:
                f[6] += 1
        if q:
            if length >= 3:
                if a or k:
                    f[4] += 1
                else:
                    f[5] += 1
            elif length == 1:
                f[6] += 1
        f[7] += max(0, length - 4)
    if trump >= 0:
        f[14] = min(short, max(0, int(f[8]) - 3))
    return f


#: Weights of :func:`estimate_tricks` per kind of table, fitted by least squares on the tricks
#: the medium player's side took in self-play with forced contracts (2,500 seeded deals per kind,
#: each played with every trump): ``solo`` ihaleli, ``partners`` eşli (the side's tricks),
#: ``kitty`` kitty batak (the bidder's hand before it takes the kitty), ``kozmaca`` one player's
#: own tricks with spades trump. ``defence_*``: a defender's (side's) tricks, trump unknown.
# fmt: off
WEIGHTS: Final[dict[str, tuple[float, ...]]] = {
    # const, then the side suits:  aces  K+A   Kx    Q+hon Qxx   K/Q1  long
    # then the trump suit:         len   A     K     Q     J     long² ruffs
    "solo": (-0.96,                0.87, 0.51, 0.56, 0.22, 0.25, 0.18, 0.15,
                                   0.65, 0.99, 0.74, 0.49, 0.32, 0.11, 0.33),
    "partners": (3.92,             0.58, 0.20, 0.35, 0.08, 0.13, -0.13, 0.06,
                                   0.39, 0.63, 0.42, 0.27, 0.18, 0.05, 0.26),
    "kitty": (0.99,                0.78, 0.65, 0.51, 0.34, 0.23, -0.33, -0.05,
                                   0.72, 0.91, 0.80, 0.64, 0.34, 0.06, 0.07),
    "kozmaca": (-0.80,             0.89, 0.45, 0.55, 0.17, 0.22, 0.30, 0.22,
                                   0.60, 0.96, 0.73, 0.49, 0.31, 0.05, 0.53),
    "defence_solo": (1.22,         0.94, 0.56, 0.59, 0.30, 0.32, 0.39, 0.27,
                                   0, 0, 0, 0, 0, 0, 0),
    "defence_partners": (5.43,     0.54, 0.36, 0.30, 0.21, 0.19, 0.07, 0.14,
                                   0, 0, 0, 0, 0, 0, 0),
    "defence_kitty": (1.76,        1.02, 0.52, 0.73, 0.36, 0.44, 0.43, 0.27,
                                   0, 0, 0, 0, 0, 0, 0),
}
# fmt: on

#: How far the tricks taken stray from the estimate (the fits' root-mean-square error).
SIGMA: Final[dict[str, float]] = {
    "solo": 1.0,
    "partners": 1.7,
    "kitty": 1.75,
    "kozmaca": 1.0,
    "defence_solo": 1.45,
    "defence_partners": 1.85,
    "defence_kitty": 1.8,
}


def table_kind(rules: Rules) -> str:
    """Which weights of :data:`WEIGHTS` value hands at this table."""
    if rules.bidding != "auction":
        return "kozmaca"
    if rules.partners:
        return "partners"
    if rules.kitty_size:
        return "kitty"
    return "solo"


def defence_tricks(hand: int, rules: Rules) -> float:
    """Expected tricks of the side holding ``hand`` when another side holds the contract (the
    trump not yet known)."""
    w = WEIGHTS["defence_" + table_kind(rules)] if rules.bidding == "auction" else WEIGHTS["solo"]
    f = hand_features(hand, -1)
    est = sum(a * b for a, b in zip(w, f, strict=True))
    return max(0.0, min(float(rules.hand_size), est))


def estimate_tricks(hand: int, trump: int, rules: Rules) -> float:
    """Expected tricks of the side holding ``hand`` (a mask) with ``trump`` (a suit ordinal, -1
    for none) at this table: the bidder's side in an auction (its partner's share in eşli and the
    kitty's help in kitty batak included), one player in Koz Maça.

    A linear model of the usual hand-valuation terms (:data:`FEATURES`: aces, kings with length,
    queens with honours, long and strong koz, short side suits that small koz can ruff) with
    weights fitted on self-play (:data:`WEIGHTS`).
    """
    w = WEIGHTS[table_kind(rules)]
    f = hand_features(hand, trump)
    est = sum(a * b for a, b in zip(w, f, strict=True))
    return max(0.0, min(float(rules.hand_size), est))


#: How likely a card of each rank (2 .. A) is to win a trick against its holder's will: a side
#: suit's card, and a trump's.
_ZERO_SIDE = (0.01, 0.01, 0.01, 0.01, 0.02, 0.03, 0.05, 0.09, 0.16, 0.26, 0.42, 0.62, 0.88)
_ZERO_TRUMP = (0.1, 0.12, 0.15, 0.19, 0.24, 0.3, 0.38, 0.5, 0.65, 0.8, 0.92, 0.98, 1.0)


def zero_trick_chance(hand: int, trump: int) -> float:
    """The chance that ``hand`` takes no trick when its holder tries to take none (a Koz Maça
    zero bid, "el almam"): each high card, and every trump (a void player must ruff), may be
    forced to win. The product of the cards' risks, calibrated (its fourth root) against the
    medium player's ducking play: over 600 Koz Maça deals a raw 0.01-0.05 made 33 in 100, 0.05-0.15
    made 58 and 0.15-0.3 made 71. An ace of koz makes it 0.

    >>> zero_trick_chance(mask_from("2S 3H 4H 5H 2D 3D 4D 6D 2C 3C 4C 5C 6C"), 0) > 0.5
    True
    >>> zero_trick_chance(mask_from("AS 3H 4H 5H 2D 3D 4D 6D 2C 3C 4C 5C 6C"), 0)
    0.0
    """
    p = 1.0
    for c in bits(hand):
        table = _ZERO_TRUMP if c // 13 == trump else _ZERO_SIDE
        p *= 1.0 - table[c % 13]
    return float(p**0.25)


def evaluate_hand(hand: int, rules: Rules) -> dict[str, float]:
    """Expected tricks of the side holding ``hand`` for each trump choice (``'S'`` … ``'C'``; with a
    fixed trump only that suit), as :func:`estimate_tricks` values them."""
    choices = [rules.fixed_trump.ordinal] if rules.fixed_trump is not None else [0, 1, 2, 3]
    return {SUIT_LETTERS[t]: round(estimate_tricks(hand, t, rules), 2) for t in choices}


def best_trump(hand: int, rules: Rules) -> tuple[int, float]:
    """The trump suit ordinal that values ``hand`` highest, and that value (ties: longer suit)."""
    est = evaluate_hand(hand, rules)
    letter = max(
        est,
        key=lambda s: (
            est[s],
            (hand & SUIT_MASKS[SUIT_LETTERS.index(s)]).bit_count(),
            -SUIT_LETTERS.index(s),
        ),
    )
    return SUIT_LETTERS.index(letter), est[letter]


# ---------------------------------------------------------------------- the random player
class RandomPlayer:
    """A uniformly random legal move (seeded: same seed and view, same move). For tests and as the
    floor of the strength ladder."""

    name = "random"

    def __init__(self, *, seed: int | None = None, **_options: Any) -> None:
        self.seed = _seed_or_fresh(seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        legal = list(view["legal_moves"])
        if not legal:
            raise ValueError("this seat has no move to make now (legal_moves is empty)")
        rng = decision_rng(self.seed, view, "random")
        return str(rng.choice(legal))
