"""The server's computer players: the chosen level when installed, always a legal move, and a
player that can stop early (hard) is held to the server's thinking budget."""

from __future__ import annotations

import batak
from batak.server.bots import make_bot


def test_hard_bot_at_a_table_plays_legal_moves_within_its_budget() -> None:
    bot = make_bot("hard", seed=1)
    bot.budget = 0.0  # stop after the first world
    assert bot.level == "hard"
    game = batak.Game("standard", seed=12)
    while game.phase != "over":
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        move = bot.choose(view)
        assert move in view["legal_moves"]
        game.play(move)


def test_unknown_level_falls_back_to_an_installed_player() -> None:
    bot = make_bot("grandmaster", seed=1)
    assert bot.level == "medium"
