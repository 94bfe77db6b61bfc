"""Batak, Turkey's trick-taking card game: a pure, typed rules engine for every common variant.

>>> import batak
>>> g = batak.Game(batak.Rules.preset("sultan-ihaleli"), seed=1)
>>> while g.phase != "over":
...     g.play(g.legal_moves()[-1 if g.phase == "bidding" and g.to_move == 1 else 0])
>>> sum(g.tricks_won)
13
"""

from .cards import Card, CardError, Rank, Suit, parse_cards
from .game import Contract, DealError, Game, IllegalMove, Phase, Trick
from .match import Match, ScoreRow
from .moves import PASS, Bid, Bury, Move, MoveError, Pass, TrumpChoice, parse_move
from .record import RecordError
from .rules import Rules, RulesError
from .scoring import ScoringError, score

__version__ = "0.1.0"

__all__ = [
    "PASS",
    "Bid",
    "Bury",
    "Card",
    "CardError",
    "Contract",
    "DealError",
    "Game",
    "IllegalMove",
    "Match",
    "Move",
    "MoveError",
    "Pass",
    "Phase",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "ScoreRow",
    "ScoringError",
    "Suit",
    "Trick",
    "TrumpChoice",
    "__version__",
    "parse_cards",
    "parse_move",
    "score",
]
