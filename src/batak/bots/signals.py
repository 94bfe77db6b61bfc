"""The partners' signal in eşli: a player's first discard names the suit it wants led.

The convention (docs/rules.md, "Partner signals", and ``batak rules`` for every eşli table):

* A **discard** is a card that neither follows the suit led nor is a trump: the player had no card
  of the suit led, and played another side suit.
* A player's **first discard** of the deal names the suit it asks its partner to lead: it holds
  the highest card still out in that suit (and keeps it: it discards a low card of the suit, so
  it needs two cards there at least). With no such suit its first discard promises nothing, and
  partners read a first discard as a hint, not as a fact (medium partners held the promised
  card 68% of the time where the rules alone allow 57%: ``benchmarks/fit_inference.py``).
* A trump is never a signal; a player who has already discarded signals nothing more.

The bots only see their own player's view: the signal is read from the finished tricks and the
current trick like any player at the table would (:func:`partner_signal`). The medium player
(and the hard one, which plays like medium early in the deal) sends the signal when it costs
little (:func:`wanted_suit`) and leads the suit its partner asked for where the lead is free (no
likely trick of its own to take, no trumps to draw first); the hard player also deals the partner
the top card of that suit more often in its sampled worlds (:func:`signal_weight`).

>>> from batak.cards import mask_of, parse_cards
>>> wanted_suit(mask_of(parse_cards("AH 4H 9S")), played=0, trump=3)  # hearts (suit 1)
1
>>> wanted_suit(mask_of(parse_cards("KH 4H 9S")), played=0, trump=3) is None  # AH is out
True
>>> wanted_suit(mask_of(parse_cards("KH 4H 9S")), played=mask_of(parse_cards("AH")), trump=3)
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS, SUIT_MASKS, SUITS
from .simple import Table, parse_view

__all__ = [
    "Signal",
    "asked_suit",
    "first_discard",
    "is_first_discard",
    "live_signal",
    "partner_signal",
    "promised_card",
    "signal_in_view",
    "signal_weight",
    "wanted_suit",
]

DECK = (1 << 52) - 1


@dataclass(frozen=True, slots=True)
class Signal:
    """A partner's first discard: the suit it asked for, and the card of that suit it then
    promised (the highest still out when it discarded), or -1 if that card was its own."""

    seat: int
    suit: int
    card: int  # the discard itself
    promised: int  # the highest card of ``suit`` out of sight of everyone at that moment


def _discards(t: Table, seat: int) -> list[tuple[int, int]]:
    """``(card, cards played before it)`` for each discard of ``seat``, in order (the finished
    tricks, then the current one)."""
    out: list[tuple[int, int]] = []
    played = 0
    tricks = [*t.tricks, (t.leader, list(t.trick), -1)]
    for leader, cards, _winner in tricks:
        if not cards:
            continue
        lead = cards[0] // 13
        for i, c in enumerate(cards):
            who = (leader + i) % t.n
            if i and who == seat and c // 13 != lead and c // 13 != t.trump:
                out.append((c, played))
            played |= 1 << c
    return out


def first_discard(t: Table, seat: int) -> int | None:
    """The first card ``seat`` discarded in this deal, if any."""
    found = _discards(t, seat)
    return found[0][0] if found else None


def partner_signal(t: Table) -> Signal | None:
    """The suit the mover's partner asked for with its first discard (eşli only; nothing when
    the partner's hand is face up, with ``exposed_partner``)."""
    if not t.rules.partners or t.seat is None or t.rules.exposed_partner:
        return None
    partner = t.partner()
    if partner is None:
        return None
    found = _discards(t, partner)
    if not found:
        return None
    card, before = found[0]
    suit = card // 13
    out = DECK & ~before & ~(1 << card) & SUIT_MASKS[suit]
    promised = out.bit_length() - 1 if out else -1
    return Signal(partner, suit, card, promised)


def signal_in_view(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The partner's signal as a bot author reads it from a player's view, in the view's own
    notation: ``{"partner": seat, "suit": "H", "card": "4H", "promised": "AH"}`` (the discard,
    and the top card of its suit still out then, which the partner says it holds; ``promised``
    is None when no other card of the suit was out), or None where there is none yet (no discard
    by the partner, no partner, or the partner's hand is face up).

    >>> from batak.game import Game
    >>> from batak.rules import Rules
    >>> two_cards = Rules.preset("cetinsgame-esli").replace(min_bid=1)  # a deal of 2 cards
    >>> g = Game(two_cards, hands=["2S 3S", "AH 4H", "KS 5D", "QH 6D"], dealer=3)
    >>> for m in ["bid 1", "pass", "pass", "pass", "trump D", "2S", "4H", "KS"]: g.play(m)
    >>> signal_in_view(g.view(3))   # seat 1 discarded 4H: it asks seat 3 for hearts
    {'partner': 1, 'suit': 'H', 'card': '4H', 'promised': 'AH'}
    >>> signal_in_view(g.view(0)) is None   # seat 0's partner, seat 2, has not discarded
    True
    """
    sig = partner_signal(parse_view(view))
    if sig is None:
        return None
    return {
        "partner": sig.seat,
        "suit": SUITS[sig.suit].value,
        "card": str(CARDS[sig.card]),
        "promised": str(CARDS[sig.promised]) if sig.promised >= 0 else None,
    }


def asked_suit(view: Mapping[str, Any]) -> str | None:
    """The suit this player would ask its partner for with a first discard now, from its view
    (:func:`wanted_suit`): a suit letter, or None where no suit qualifies, and at a table
    without the signal (no partners, or açık eşli, where the partner's hand is face up).

    >>> from batak.game import Game
    >>> from batak.rules import Rules
    >>> two_cards = Rules.preset("cetinsgame-esli").replace(min_bid=1)  # a deal of 2 cards
    >>> g = Game(two_cards, hands=["2S 3S", "AH 4H", "KS 5D", "QH 6D"], dealer=3)
    >>> for m in ["bid 1", "pass", "pass", "pass", "trump D", "2S"]: g.play(m)
    >>> asked_suit(g.view(1))   # it holds AH, the top heart, and 4H to discard
    'H'
    """
    t = parse_view(view)
    if not t.rules.partners or t.rules.exposed_partner:  # nobody to read the signal
        return None
    suit = wanted_suit(t.hand, t.played, t.trump)
    return None if suit is None else SUITS[suit].value


def wanted_suit(hand: int, played: int, trump: int) -> int | None:
    """The side suit this hand would ask its partner to lead: one where it holds the highest card
    still out and a low card to discard besides; the longest such suit, then the higher suit."""
    best: tuple[int, int] | None = None
    for s in range(4):
        if s == trump:
            continue
        mine = hand & SUIT_MASKS[s]
        if mine.bit_count() < 2:
            continue
        out = SUIT_MASKS[s] & ~played
        if mine.bit_length() != out.bit_length():  # the top card out is not ours
            continue
        key = (mine.bit_count(), s)
        if best is None or key > best:
            best = key
    return None if best is None else best[1]


def is_first_discard(t: Table) -> bool:
    """Is the mover about to make its first discard (no card of the suit led, none discarded)?"""
    if not t.trick or t.seat is None:
        return False
    lead = t.trick[0] // 13
    if t.hand & SUIT_MASKS[lead]:
        return False
    return first_discard(t, t.seat) is None


def live_signal(t: Table) -> Signal | None:
    """The partner's signal while it is live: the card its first discard promised is still out
    of sight of the mover (not played, not in its own hand)."""
    sig = partner_signal(t)
    if sig is None or sig.promised < 0 or (t.played | t.hand) >> sig.promised & 1:
        return None
    return sig


def promised_card(t: Table) -> tuple[int, int] | None:
    """``(partner, card)`` while the mover reads a live signal (:func:`live_signal`)."""
    sig = live_signal(t)
    return None if sig is None else (sig.seat, sig.promised)


def signal_weight(t: Table, strength: float = 8.0) -> Callable[[int, int], float] | None:
    """A ``weight(holder, card)`` factor for :func:`batak.bots.knowledge.sample_world`: the
    partner likely holds the card its first discard promised (``strength`` times as likely as
    without the signal), if that card is still out of sight."""
    live = promised_card(t)
    if live is None:
        return None
    partner, promised = live

    def weight(holder: int, card: int) -> float:
        return strength if card == promised and holder == partner else 1.0

    return weight
