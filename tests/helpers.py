"""Small helpers the engine's tests share (``from helpers import legal, play_all``)."""

from __future__ import annotations

from batak import Game


def legal(g: Game) -> list[str]:
    """The legal moves as canonical strings."""
    return [str(m) for m in g.legal_moves()]


def play_all(g: Game, moves: str) -> None:
    """Play moves written one after another: 'bid 5 pass pass trump S AH KH'."""
    words = moves.split()
    while words:
        w = words.pop(0)
        if w in ("bid", "trump", "bury"):
            w = f"{w} {words.pop(0)}"
        g.play(w)
