"""Small helpers the engine's tests share (``from helpers import legal, play_all``)."""

from __future__ import annotations

from pathlib import Path

from batak import Game

#: the source tree: the package is ``SRC / "batak"``
SRC = Path(__file__).resolve().parents[1] / "src"


def package_modules() -> dict[str, Path]:
    """Every module of the ``batak`` package by its dotted name (a package's ``__init__`` by
    the package's name), with its file."""
    modules = {}
    for path in (SRC / "batak").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


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
