"""The hard player (issue 3): legal, deterministic, within a time budget, and really searching.

It samples hidden hands consistent with the view and solves each world double-dummy; it is given
only JSON copies of views, so it cannot reach the game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import batak
import batak.bots
from batak.bots.hard import HardPlayer


def _view(game: batak.Game) -> dict[str, Any]:
    seat = game.to_move
    assert seat is not None
    copied: dict[str, Any] = json.loads(json.dumps(game.view(seat)))
    return copied


@pytest.mark.parametrize(
    "preset", ["standard", "zipi-kitty", "esli-acik", "sultan-kozmaca", "cetinsgame-kozmaca"]
)
def test_hard_plays_a_whole_deal_with_legal_moves(preset: str) -> None:
    game = batak.Game(preset, seed=5)
    bot = batak.bots.get("hard", seed=3, worlds=6)
    searched = 0
    while game.phase != "over":
        view = _view(game)
        move = bot.choose(view)
        assert move in view["legal_moves"]
        searched += isinstance(bot, HardPlayer) and bot.last.searched
        game.play(move)
    assert sum(game.tricks_won) == game.tricks_per_deal
    assert searched > 0, "the hard player never searched a position"


def _late_position(seed: int) -> batak.Game:
    """A standard deal played by medium players until the hands hold five cards."""
    game = batak.Game("standard", seed=seed)
    medium = batak.bots.get("medium", seed=1)
    while game.phase != "play" or len(game.hand(game.to_move or 0)) > 5:
        game.play(medium.choose(_view(game)))
    return game


def test_same_seed_same_view_same_move() -> None:
    game = _late_position(21)
    view = _view(game)
    moves = {batak.bots.get("hard", seed=9).choose(view) for _ in range(3)}
    assert len(moves) == 1


def test_choose_within_a_tiny_budget_still_returns_a_legal_move() -> None:
    game = _late_position(22)
    view = _view(game)
    bot = HardPlayer(seed=1, worlds=500)
    move = bot.choose_within(view, 0.0)
    assert move in view["legal_moves"]
    assert bot.last.worlds < 500  # the deadline stopped the sampling


def test_hard_searches_only_up_to_its_hand_size_limit() -> None:
    game = batak.Game("standard", seed=4)
    bot = HardPlayer(seed=1, worlds=4, max_cards=3)
    while game.phase != "over":
        view = _view(game)
        move = bot.choose(view)
        cards = len(view["hand"])
        if view["phase"] == "play" and len(view["legal_moves"]) > 1:
            assert bot.last.searched == (cards <= 3), (cards, bot.last)
        game.play(move)
