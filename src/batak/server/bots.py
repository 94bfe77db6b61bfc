"""The computer players the server seats: the level a table asks for (an unknown one: medium).

Bots are given a seat's view only, like every client.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ServerBot", "make_bot"]


class ServerBot:
    """A :mod:`batak.bots` player of the asked level (else medium, easy, random) that never
    returns an illegal move: if the player fails or errs, the first legal move is played."""

    def __init__(self, level: str, seed: int | None = None, budget: float = 1.0) -> None:
        from batak import bots

        self.budget = budget  # seconds a player that can stop early (hard) may think
        self._player: Any
        if level.startswith("story:"):  # a character of the story mode: its level and style
            from batak.bots.story import StyledPlayer, character

            try:
                c = character(level[len("story:") :])
            except KeyError:
                level = "medium"
            else:
                self.level = c.level
                self._player = StyledPlayer(c.level, c.style, seed=seed)
                return
        self.level = level if level in bots.LEVELS or level == "random" else "medium"
        self._player = bots.get(self.level, seed=seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal_moves"])
        if not legal:
            raise ValueError("this seat has no move to make now")
        move: Any = None
        try:
            within = getattr(self._player, "choose_within", None)
            move = within(view, self.budget) if within is not None else self._player.choose(view)
        except Exception:
            move = None
        return move if isinstance(move, str) and move in legal else legal[0]


def make_bot(level: str, seed: int | None = None) -> ServerBot:
    return ServerBot(level, seed)
