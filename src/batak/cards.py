"""Cards, suits, ranks and their notation.

A card is written rank + suit: ``AS`` (ace of spades, maça ası), ``TH`` (ten of hearts),
``2C`` (two of clubs). Parsing is lenient (``10h``, lower case, ``A♠``); ``str()`` is canonical.

>>> c = Card.parse("10h")
>>> str(c), c.suit.name_en, c.rank.char
('TH', 'hearts', 'T')
>>> Card.parse("A♠") is Card.parse("as")
True
>>> sorted(parse_cards("2C KS AS TH"), key=Card.sort_key)
[Card('AS'), Card('KS'), Card('TH'), Card('2C')]

Every card is a singleton: there are exactly 52 ``Card`` objects, so ``is`` and ``==`` agree.
Internally a card is an index ``suit * 13 + rank`` (rank 0 is the two, 12 the ace), and a set of
cards is a 52-bit integer mask; :func:`mask_of` and :func:`cards_of` convert.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum, StrEnum
from typing import Final, TypeVar

__all__ = [
    "CARDS",
    "CARD_TEXTS",
    "DECK_MASK",
    "SUIT_MASKS",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "cards_of",
    "format_cards",
    "full_deck",
    "mask_of",
    "parse_cards",
    "texts_of",
]


class CardError(ValueError):
    """Raised for text that is not a card (the message names the text)."""


class Suit(StrEnum):
    """The four suits. Values are the canonical letters; order is S, H, D, C."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def ordinal(self) -> int:
        """0 for spades, 1 hearts, 2 diamonds, 3 clubs."""
        return _SUIT_INDEX[self.value]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self.value]

    @property
    def name_en(self) -> str:
        return _SUIT_EN[self.value]

    @property
    def name_tr(self) -> str:
        """The Turkish name: maça, kupa, karo, sinek."""
        return _SUIT_TR[self.value]

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str | Suit) -> Suit:
        """Parse ``S``/``h``/``♠``/``maça``/``spades`` into a suit.

        >>> Suit.parse("kupa"), Suit.parse("♦"), Suit.parse("c")
        (<Suit.HEARTS: 'H'>, <Suit.DIAMONDS: 'D'>, <Suit.CLUBS: 'C'>)
        """
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise CardError(f"not a suit: {text!r}")
        key = text.strip().casefold()
        suit = _SUIT_ALIASES.get(key)
        if suit is None:
            raise CardError(f"not a suit: {text!r} (expected S, H, D or C)")
        return suit


_SUIT_INDEX: Final = {"S": 0, "H": 1, "D": 2, "C": 3}
_SUIT_SYMBOL: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_EN: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_TR: Final = {"S": "maça", "H": "kupa", "D": "karo", "C": "sinek"}
SUITS: Final[tuple[Suit, ...]] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_ALIASES: Final[dict[str, Suit]] = {}
for _s in SUITS:
    for _alias in (_s.value, _SUIT_SYMBOL[_s.value], _SUIT_EN[_s.value], _SUIT_TR[_s.value]):
        _SUIT_ALIASES[_alias.casefold()] = _s
_SUIT_ALIASES.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_SUIT_ALIASES.update({"maca": Suit.SPADES})


class Rank(IntEnum):
    """Ranks from the two (2) to the ace (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """The canonical one-letter form: ``AKQJT98765432``."""
        return RANK_CHARS[self.value - 2]

    def __str__(self) -> str:
        return self.char


RANK_CHARS: Final = "23456789TJQKA"


class Card:
    """One of the 52 cards. Create with :meth:`parse` or take it from :data:`CARDS`."""

    __slots__ = ("_str", "index", "rank", "suit")

    index: int
    suit: Suit
    rank: Rank
    _str: str

    def __new__(cls, text: str) -> Card:  # Card("AS") is the same object as Card.parse("AS")
        return cls.parse(text)

    @classmethod
    def _make(cls, index: int) -> Card:
        self = object.__new__(cls)
        self.index = index
        self.suit = SUITS[index // 13]
        self.rank = Rank(index % 13 + 2)
        self._str = self.rank.char + self.suit.value
        return self

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with internal index ``index`` (0..51)."""
        return CARDS[index]

    @staticmethod
    def parse(text: str | Card) -> Card:
        """Parse a card: ``AS``, ``th``, ``10H``, ``A♠``. Raises :class:`CardError`.

        >>> Card.parse(" qd ")
        Card('QD')
        >>> Card.parse("1S")
        Traceback (most recent call last):
        ...
        batak.cards.CardError: not a card: '1S' (write rank then suit, like 'AS', 'TH' or '10h')
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r}")
        card = _BY_TEXT.get(text)
        if card is not None:
            return card
        key = text.strip().upper()
        card = _BY_TEXT.get(key)
        if card is not None:
            return card
        if key.startswith("10"):
            card = _BY_TEXT.get("T" + key[2:])
        if card is None and len(key) >= 2:
            suit = _SUIT_ALIASES.get(key[-1].casefold())
            rank = key[:-1]
            if rank == "10":
                rank = "T"
            if suit is not None and len(rank) == 1 and rank in RANK_CHARS:
                card = _BY_TEXT[rank + suit.value]
        if card is None:
            raise CardError(
                f"not a card: {text!r} (write rank then suit, like 'AS', 'TH' or '10h')"
            )
        return card

    @property
    def mask(self) -> int:
        return 1 << self.index

    def sort_key(self) -> tuple[int, int]:
        """Display order: by suit (S, H, D, C), high cards first."""
        return (self.index // 13, -self.index)

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card({self._str!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))
_BY_TEXT: Final[dict[str, Card]] = {str(c): c for c in CARDS}
SUIT_MASKS: Final[tuple[int, int, int, int]] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
DECK_MASK: Final = (1 << 52) - 1


def full_deck() -> list[Card]:
    """The 52 cards in index order."""
    return list(CARDS)


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse space- or comma-separated cards, or an iterable of card texts or cards.

    >>> parse_cards("AS, 10h 2c")
    [Card('AS'), Card('TH'), Card('2C')]
    """
    if isinstance(text, str):
        items: Iterable[str | Card] = text.replace(",", " ").split()
    else:
        items = text
    return [Card.parse(t) for t in items]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


_T = TypeVar("_T")

# For each suit, each 13-bit pattern -> the cards it holds, highest first.
_SUIT_TABLES: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(
        tuple(CARDS[s * 13 + r] for r in range(12, -1, -1) if pattern >> r & 1)
        for pattern in range(1 << 13)
    )
    for s in range(4)
)


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, in display order (suit S, H, D, C; high cards first).

    >>> cards_of(mask_of(parse_cards("2S AS KH")))
    [Card('AS'), Card('2S'), Card('KH')]
    """
    return _in_display_order(_SUIT_TABLES, mask)


def _in_display_order(tables: tuple[tuple[tuple[_T, ...], ...], ...], mask: int) -> list[_T]:
    """What ``tables`` (one per suit, indexed by the suit's 13-bit pattern) give for the cards of
    ``mask``, suit by suit."""
    t0, t1, t2, t3 = tables
    return [
        *t0[mask & 0x1FFF],
        *t1[(mask >> 13) & 0x1FFF],
        *t2[(mask >> 26) & 0x1FFF],
        *t3[(mask >> 39) & 0x1FFF],
    ]


#: Each card's text (``str(card)``), by card index.
CARD_TEXTS: Final[tuple[str, ...]] = tuple(str(c) for c in CARDS)

# _SUIT_TABLES with the cards' texts: a hand's texts without making or asking its Card objects
_SUIT_TEXTS: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(tuple(str(c) for c in cards) for cards in table) for table in _SUIT_TABLES
)


def texts_of(mask: int) -> list[str]:
    """The texts of the cards in a mask, in display order: ``[str(c) for c in cards_of(mask)]``,
    made faster (views carry every hand as texts at every move).

    >>> texts_of(mask_of(parse_cards("2S AS KH")))
    ['AS', '2S', 'KH']
    """
    return _in_display_order(_SUIT_TEXTS, mask)


def iter_cards(mask: int) -> Iterator[Card]:
    """Iterate the cards of a mask in display order."""
    return iter(cards_of(mask))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as canonical text separated by spaces.

    >>> format_cards(parse_cards("ah kh"))
    'AH KH'
    """
    return " ".join(str(c) for c in cards)
