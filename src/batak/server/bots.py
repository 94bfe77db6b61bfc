"""The computer players the server seats: the best level installed, then simpler ones.

Bots are given a seat's view only, like every client.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

__all__ = ["ServerBot", "make_bot"]


class ServerBot:
    """A :mod:`batak.bots` player (or the built-in baseline) that never returns an illegal move."""

    def __init__(self, level: str, seed: int | None = None, budget: float = 1.0) -> None:
        self.level = level
        self.budget = budget  # seconds a player that can stop early (hard) may think
        self._rng = random.Random(seed)
        self._player: Any = None
        for name in dict.fromkeys((level, "medium", "easy", "random")):
            try:
                from batak import bots

                self._player = bots.get(name, seed=seed)
                self.level = name
                break
            except (ImportError, AttributeError, ValueError):
                continue
        if self._player is None:
            self.level = "baseline"

    def choose(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal_moves"])
        if not legal:
            raise ValueError("this seat has no move to make now")
        move: Any = None
        try:
            within = getattr(self._player, "choose_within", None)
            if within is not None:
                move = within(view, self.budget)
            elif self._player is not None:
                move = self._player.choose(view)
            else:
                from batak.bots.baseline import choose

                move = choose(view, self._rng)
        except Exception:
            move = None
        return move if isinstance(move, str) and move in legal else legal[0]


def make_bot(level: str, seed: int | None = None) -> ServerBot:
    return ServerBot(level, seed)
