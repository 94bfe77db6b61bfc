"""Moves and their canonical text: ``pass``, ``bid 7``, ``trump H``, ``bury AS`` and a card ``AS``.

>>> parse_move("bid 7"), parse_move("Trump h"), parse_move("10s")
(Bid(7), TrumpChoice('H'), Card('TS'))
>>> str(parse_move("  BURY  as "))
'bury AS'
>>> parse_move("bid seven")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
batak.moves.MoveError: not a move: 'bid seven' (moves look like 'pass', 'bid 7', ...)

Every move is a small immutable value; equal moves are the same object.
"""

from __future__ import annotations

import re
from typing import Final

from .cards import CARDS, Card, CardError, Suit
from .i18n import plain_lower, text

__all__ = [
    "PASS",
    "Bid",
    "Bury",
    "Move",
    "MoveError",
    "Pass",
    "TrumpChoice",
    "is_move_word",
    "parse_in_phase",
    "parse_move",
]


class MoveError(ValueError):
    """Text that is not a move; the message names it."""


class Pass:
    """``pass``: out of the auction for this deal."""

    __slots__ = ()
    _instance: Pass | None = None

    def __new__(cls) -> Pass:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> tuple[type[Pass], tuple[()]]:
        return (Pass, ())


class Bid:
    """``bid N``: a bid of N tricks (also a Koz Maça bid)."""

    __slots__ = ("amount",)
    amount: int

    def __new__(cls, amount: int) -> Bid:
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= 999:
            raise MoveError(f"not a bid amount: {amount!r}")
        cached = _BIDS.get(amount)
        if cached is not None:
            return cached
        self = object.__new__(cls)
        object.__setattr__(self, "amount", amount)
        _BIDS[amount] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __str__(self) -> str:
        return f"bid {self.amount}"

    def __repr__(self) -> str:
        return f"Bid({self.amount})"

    def __reduce__(self) -> tuple[type[Bid], tuple[int]]:
        return (Bid, (self.amount,))


class TrumpChoice:
    """``trump S``: the bidder names the trump suit."""

    __slots__ = ("suit",)
    suit: Suit

    def __new__(cls, suit: Suit | str) -> TrumpChoice:
        s = Suit.parse(suit)
        cached = _TRUMPS.get(s)
        if cached is not None:
            return cached
        self = object.__new__(cls)
        object.__setattr__(self, "suit", s)
        _TRUMPS[s] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __str__(self) -> str:
        return f"trump {self.suit.value}"

    def __repr__(self) -> str:
        return f"TrumpChoice({self.suit.value!r})"

    def __reduce__(self) -> tuple[type[TrumpChoice], tuple[str]]:
        return (TrumpChoice, (self.suit.value,))


class Bury:
    """``bury AS``: in kitty batak the bidder puts one card face down (four times)."""

    __slots__ = ("card",)
    card: Card

    def __new__(cls, card: Card | str) -> Bury:
        c = Card.parse(card)
        cached = _BURIES.get(c.index)
        if cached is not None:
            return cached
        self = object.__new__(cls)
        object.__setattr__(self, "card", c)
        _BURIES[c.index] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __str__(self) -> str:
        return f"bury {self.card}"

    def __repr__(self) -> str:
        return f"Bury({str(self.card)!r})"

    def __reduce__(self) -> tuple[type[Bury], tuple[str]]:
        return (Bury, (str(self.card),))


_BIDS: dict[int, Bid] = {}
_TRUMPS: dict[Suit, TrumpChoice] = {}
_BURIES: dict[int, Bury] = {}

#: A move is a card (played to a trick) or one of the other four kinds.
Move = Card | Pass | Bid | TrumpChoice | Bury

PASS: Final = Pass()
BIDS: Final[tuple[Bid, ...]] = tuple(Bid(n) for n in range(0, 17))
BURIES: Final[tuple[Bury, ...]] = tuple(Bury(c) for c in CARDS)
TRUMP_CHOICES: Final[tuple[TrumpChoice, ...]] = tuple(TrumpChoice(s) for s in Suit)

_CANONICAL: dict[str, Move] = {"pass": PASS}
_CANONICAL.update({str(m): m for m in BIDS})
_CANONICAL.update({str(m): m for m in BURIES})
_CANONICAL.update({str(m): m for m in TRUMP_CHOICES})
_CANONICAL.update({str(c): c for c in CARDS})


def parse_move(move: str | Move) -> Move:
    """Parse a move's text (canonical or lenient); moves pass through unchanged."""
    if not isinstance(move, str):
        if isinstance(move, Card | Pass | Bid | TrumpChoice | Bury):
            return move
        raise MoveError(f"not a move: {move!r}")
    found = _CANONICAL.get(move)
    if found is not None:
        return found
    # Turkish capitals lower-case the Turkish way: "İHALE 7" is "ihale 7"
    words = plain_lower(move.strip()).split()
    if len(words) == 1 and (glued := _GLUED_BID.fullmatch(words[0])):  # "ihale7"
        words = [glued[1], glued[2]]
    try:
        if len(words) == 1:
            if words[0] in ("pass", "pas"):
                return PASS
            return Card.parse(words[0])
        if len(words) == 2:
            verb, arg = words
            if verb in ("bid", "ihale", "söz", "soz") and arg.isdecimal() and arg.isascii():
                return Bid(int(arg))
            if verb in ("trump", "koz"):
                return TrumpChoice(arg)
            if verb in ("bury", "göm", "gom"):
                return Bury(arg)
        if len(words) > 2 and words[0] in ("bury", "göm", "gom"):  # "göm sinek 2"
            card = _named_card(words[1:])
            if card is not None:
                return Bury(card)
        named = _named_card(words)
        if named is not None:
            return named
    except (CardError, MoveError):
        pass
    raise MoveError(text("bad_notation", "en", text=move))


_GLUED_BID: Final = re.compile(r"(bid|ihale|söz|soz)([0-9]+)")

#: ranks as players name them, in Turkish and in English ("kupa vale", "ace of spades",
#: "five of diamonds", "karo beş"), in the plain lower case the words are compared in
_RANK_WORDS: Final = {
    "as": "A", "ace": "A", "papaz": "K", "king": "K", "kız": "Q", "kiz": "Q", "queen": "Q",
    "vale": "J", "oğlan": "J", "oglan": "J", "jack": "J", "on": "T", "ten": "T", "10": "T",
    "two": "2", "iki": "2", "three": "3", "üç": "3", "uc": "3", "four": "4", "dört": "4",
    "dort": "4", "five": "5", "beş": "5", "bes": "5", "six": "6", "alti": "6", "seven": "7",
    "yedi": "7", "eight": "8", "sekiz": "8", "nine": "9", "dokuz": "9",
}  # fmt: skip


#: the words that begin a move: pas, a bid, the koz, a card to bury
_VERBS: Final = frozenset(
    {"pass", "pas", "bid", "ihale", "söz", "soz", "trump", "koz", "bury", "göm", "gom"}
)


def is_move_word(word: str) -> bool:
    """Is ``word`` one that moves are written with (a move's verb, a suit, a rank), or one spelled
    close to one ("heart", "kupaa", "hartz"; difflib, 0.7, as the commands' spelling is guessed),
    so that on its own it is a move begun or mistyped rather than some other request?

    >>> [is_move_word(w) for w in ("ihale", "Kupa", "papaz", "spades", "stats", "yazboz")]
    [True, True, True, True, False, False]
    >>> [is_move_word(w) for w in ("heart", "kupaa", "hartz", "ihle", "skor", "menu")]
    [True, True, True, True, False, False]
    """
    import difflib

    w = plain_lower(word.strip())
    if w in _VERBS or w in _RANK_WORDS:
        return True
    try:
        Suit.parse(w)
    except CardError:
        return bool(difflib.get_close_matches(w, _MOVE_WORDS, n=1, cutoff=0.7))
    return True


#: the words of moves whose misspellings are moves mistyped (not the one- and two-letter ones)
_MOVE_WORDS: Final = sorted(
    word
    for word in {*_VERBS, *_RANK_WORDS, *(s.name_en for s in Suit), *(s.name_tr for s in Suit)}
    if len(word) > 2 and word.isalpha()
)


def parse_in_phase(move: str | Move, phase: str) -> Move:
    """:func:`parse_move`, read as the phase asks: while burying, a card is the card to bury
    ("2C", "sinek 2" for "göm 2C"); while the koz is named, a suit is the koz ("maça" for
    "koz maça"). ``MoveError`` when it is no move at all.

    >>> str(parse_in_phase("sinek 2", "bury")), str(parse_in_phase("Maça", "trump"))
    ('bury 2C', 'trump S')
    """
    if phase == "trump" and isinstance(move, str):
        try:
            return TrumpChoice(plain_lower(move.strip()))
        except (CardError, MoveError, ValueError):
            pass
    parsed = parse_move(move)
    if phase == "bury" and isinstance(parsed, Card):
        return Bury(parsed)
    return parsed


def _named_card(words: list[str]) -> Card | None:
    """A card named in words, suit and rank in either order: ``kupa vale``, ``vale kupa``,
    ``maça 10``, ``ace of spades``; None when the words do not name one."""
    if len(words) == 3 and words[1] in ("of", "-"):
        words = [words[0], words[2]]
    if len(words) != 2:
        return None
    for rank_word, suit_word in (words, words[::-1]):
        rank = _RANK_WORDS.get(rank_word, rank_word.upper())
        if len(rank) == 1 and rank in "23456789TJQKA":
            try:
                return Card.parse(rank + Suit.parse(suit_word).value)
            except CardError:
                continue
    return None
