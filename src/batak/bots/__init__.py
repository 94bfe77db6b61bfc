"""Computer players that see only a seat's view, and the double-dummy solver.

A player is given ``Game.view(seat)`` for the seat to move, a plain JSON-ready dict, and returns a
legal move as its canonical text. It never receives a :class:`~batak.game.Game` or another seat's
cards, so "the bots do not see your cards" is true by construction.

>>> import batak, batak.bots
>>> g = batak.Game("standard", seed=3)
>>> bot = batak.bots.get("easy", seed=1)
>>> move = bot.choose(g.view(g.to_move))
>>> move in g.view(g.to_move)["legal_moves"]
True

Levels: ``easy``, ``medium``, ``hard`` (and ``random``, a uniform legal move, for tests).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = ["LEVELS", "Player", "get"]

#: level -> "module:Class"; the class takes ``seed`` as a keyword argument.
_REGISTRY: dict[str, str] = {
    "random": "batak.bots.simple:RandomPlayer",
    "easy": "batak.bots.easy:EasyPlayer",
    "medium": "batak.bots.medium:MediumPlayer",
    "hard": "batak.bots.hard:HardPlayer",
}
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(view) -> move text``. ``name`` is shown in arena reports."""

    name: str

    def choose(self, view: Mapping[str, Any]) -> str:
        """A legal move (canonical text) for the seat whose view this is."""
        ...


def get(level: str, *, seed: int | None = None, **options: Any) -> Player:
    """A player of ``level`` (``easy``, ``medium``, ``hard`` or ``random``).

    Same seed and same view give the same move. Extra ``options`` go to the player (for example
    ``budget`` seconds for ``hard``).
    """
    target = _REGISTRY.get(level)
    if target is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of: {', '.join(_REGISTRY)}")
    module_name, class_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    player: Player = cls(seed=seed, **options)
    return player
