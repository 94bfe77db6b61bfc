"""The story mode ("Masa Yolculuğu"): a path of five tables, from the corner café to the city
final, each with its own characters, and the players behind those characters.

Pure data and a player wrapper; the server (``batak.server.story``) and ``batak play --story``
both read it. Every character is a bot of one of our levels with a bidding *style*:

- ``bold``: enters auctions on a fair hand and bids one more than its level would;
- ``careful``: bids only what its hand is clearly worth, and passes otherwise;
- ``steady``: plays its level as it is.

The path grows stronger: the café plays our easy bot, the district semi-final and the city
final our medium and hard ones (they bid from a hand evaluation, count cards and lead trumps).

>>> [t.key for t in TABLES]
['cafe', 'park', 'club', 'district', 'final']
>>> len(CHARACTERS), sum(len(t.own) for t in TABLES)
(10, 10)
>>> import batak
>>> g = batak.Game("standard", seed=3)
>>> p = StyledPlayer("easy", "bold", seed=1)
>>> p.choose(g.view(g.to_move)) in g.view(g.to_move)["legal_moves"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import i18n

__all__ = [
    "CHARACTERS",
    "DEALS",
    "PRESET",
    "STYLES",
    "TABLES",
    "Character",
    "StoryTable",
    "StyledPlayer",
    "character",
    "character_text",
    "table_text",
]

#: Every story table plays this preset, ``DEALS`` deals long (CetinsGame: "Masa Yolculuğu'nda
#: her masada 4 el oynanır").
PRESET = "standard"
DEALS = 4
STYLES = ("bold", "careful", "steady")


@dataclass(frozen=True)
class Character:
    key: str
    name: str  # a person's name: the same in every language
    portrait: str  # an emoji
    color: str  # the portrait's background (CSS colour)
    level: str  # easy | medium | hard
    style: str  # bold | careful | steady


@dataclass(frozen=True)
class StoryTable:
    key: str
    icon: str
    seats: tuple[str, str, str]  # the three characters at the table, by key
    own: tuple[str, ...]  # the characters this table introduces (the others come back)
    #: seconds for each decision at this table online (None: the server's own, 25 s); the tea
    #: garden's story says they play faster there, and so they do
    decision_seconds: int | None = None


CHARACTERS: tuple[Character, ...] = (
    Character("hasan", "Hasan Amca", "👴", "#d9b38c", "easy", "careful"),
    Character("sevim", "Sevim Abla", "👩‍🍳", "#f2c6a0", "easy", "bold"),
    Character("cemil", "Çırak Cemil", "🧑", "#c8d6a0", "easy", "steady"),
    Character("nuri", "Emekli Nuri", "🧓", "#b8c4d8", "medium", "careful"),
    Character("derya", "Derya", "👩", "#e8b4c8", "easy", "bold"),
    Character("kenan", "Kenan Usta", "👨‍🔧", "#a8c8c0", "medium", "steady"),
    Character("leyla", "Leyla Hanım", "👩‍💼", "#d0b8e0", "medium", "careful"),
    Character("baris", "Barış", "🧔", "#e0c080", "hard", "bold"),
    Character("zeynep", "Zeynep Hoca", "👩‍🏫", "#a0c0e0", "hard", "careful"),
    Character("riza", "Usta Rıza", "🎩", "#c0a0a0", "hard", "steady"),
)

TABLES: tuple[StoryTable, ...] = (
    StoryTable("cafe", "☕", ("hasan", "sevim", "cemil"), ("hasan", "sevim", "cemil")),
    StoryTable("park", "🌳", ("nuri", "derya", "sevim"), ("nuri", "derya"), decision_seconds=15),
    StoryTable("club", "🎱", ("kenan", "leyla", "nuri"), ("kenan", "leyla")),
    StoryTable("district", "🏅", ("baris", "zeynep", "kenan"), ("baris", "zeynep")),
    StoryTable("final", "🏆", ("riza", "zeynep", "baris"), ("riza",)),
)

_BY_KEY = {c.key: c for c in CHARACTERS}


def character(key: str) -> Character:
    """The character of ``key`` (KeyError for an unknown one)."""
    return _BY_KEY[key]


def table_text(table: StoryTable, lang: str) -> dict[str, str]:
    """A story table's name and its line of story, in ``lang``."""
    return {
        "name": i18n.text(f"story.table_{table.key}", lang),
        "story": i18n.text(f"story.about_{table.key}", lang),
    }


def character_text(c: Character, lang: str) -> dict[str, Any]:
    """A character as clients show it: name, portrait, level, style and a line about them."""
    return {
        "key": c.key,
        "name": c.name,
        "portrait": c.portrait,
        "color": c.color,
        "level": c.level,
        "style": c.style,
        "style_text": i18n.text(f"story.style_{c.style}", lang),
        "about": i18n.text(f"story.who_{c.key}", lang),
    }


class StyledPlayer:
    """A bot of ``level`` whose bids follow ``style`` (see the module's text). Its play of the
    cards is its level's own."""

    def __init__(self, level: str, style: str, *, seed: int | None = None) -> None:
        from . import get

        self.name = f"{level}-{style}"
        self.level = level
        self.style = style if style in STYLES else "steady"
        self._base: Any = get(level, seed=seed)

    def choose_within(self, view: Mapping[str, Any], budget: float) -> str:
        within = getattr(self._base, "choose_within", None)
        move = within(view, budget) if within is not None else self._base.choose(view)
        return self._styled(view, str(move))

    def choose(self, view: Mapping[str, Any]) -> str:
        return self._styled(view, str(self._base.choose(view)))

    def _styled(self, view: Mapping[str, Any], move: str) -> str:
        if self.style == "steady" or view.get("phase") != "bidding":
            return move
        legal = [str(m) for m in view["legal_moves"]]
        bids = sorted(int(m.split()[1]) for m in legal if m.startswith("bid "))
        if not bids:
            return move
        from .teach import estimate

        worth = max(estimate(view).values(), default=0.0)
        if self.style == "bold":
            if move == "pass" and worth >= bids[0] - 1.0:
                return f"bid {bids[0]}"  # a fair hand: bold enters the auction
            if move.startswith("bid "):
                more = f"bid {int(move.split()[1]) + 1}"
                if more in legal and worth >= int(move.split()[1]) - 0.5:
                    return more
            return move
        # careful: only what the hand is clearly worth, and never more than the lowest bid
        if move.startswith("bid "):
            if worth < bids[0] + 0.5 and "pass" in legal:
                return "pass"
            return f"bid {bids[0]}"
        return move
