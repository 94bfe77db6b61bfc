"""Teach me: the move a strong player would make, and one sentence why (English or Turkish), and
the trick estimate of a hand for each koz choice (the bidding panel).

:func:`hint` runs the medium player's judgement (:func:`batak.bots.medium.decide`) on the view and
turns what that judgement did into a sentence: only one legal card, the cheapest card that wins, a
master card, drawing koz, a ruff, letting the partner's winner stand, a bid from the estimate, and
so on. :func:`estimate` is the hand evaluation behind the bids. Both see only the view, and both
are deterministic.

>>> from batak.game import Game
>>> g = Game("standard", seed=7)
>>> h = hint(g.view(g.to_move))
>>> h.move in g.view(g.to_move)["legal_moves"], h.reason.endswith(".")
(True, True)
>>> hint(g.view(g.to_move), lang="tr").move == h.move
True
>>> sorted(estimate(g.view(1)))
['C', 'D', 'H', 'S']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..i18n import CARD_PARAMS, MESSAGES, capitalize, card_text, lang_of, text
from .medium import Decision, decide
from .simple import SUIT_LETTERS, decision_rng, evaluate_hand, parse_view

__all__ = ["REASONS", "Hint", "estimate", "hint", "reason_text"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (canonical text), the reason in words, and the reason's code."""

    move: str
    reason: str
    code: str = ""


#: reason code -> language -> template, from the catalog (keys ``teach.CODE``). ``{card}`` a
#: card, ``{suit}`` a suit (one card's name), ``{suits}`` the suit's plural, ``{led}`` the suit
#: led (plural), ``{koz}`` the koz's suit (plural: named, or the one a bidder will name),
#: ``{n}`` a bid, ``{est}`` an estimate, ``{hand}`` whose tricks it counts (``whose``: the
#: hand's, the side's, the hand's with the kitty), ``{move}`` any move.
REASONS: dict[str, dict[str, str]] = {
    key: dict(texts)
    for key, texts in MESSAGES.for_prefix("teach.").items()
    if not key.startswith(("suit_", "whose."))
}


def _suit(suit: str, many: bool, lang: str) -> str:
    return text(f"teach.suit_{'many' if many else 'one'}.{suit}", lang)


def reason_text(decision: Decision, lang: str = "en") -> str:
    """The sentence for a :class:`~batak.bots.medium.Decision` in ``lang``."""
    lg = lang_of(lang)
    code = decision.reason if decision.reason in REASONS else "only_legal"
    params: dict[str, Any] = {"move": decision.move, **decision.params}
    suit = params.get("suit")
    if not (isinstance(suit, str) and suit in SUIT_LETTERS):
        suit = params.get("trump")
    if isinstance(suit, str) and suit in SUIT_LETTERS:
        params["suit"] = _suit(suit, False, lg)
        params["suits"] = _suit(suit, True, lg)
    whose = {  # whose tricks an estimate counts: "your hand", "your side", "with the kitty"
        "hand": "teach.whose.hand",
        "side": "teach.whose.side",
        "kitty": "teach.whose.kitty",
    }.get(str(params.get("whose", "hand")))
    if whose is not None:
        params["hand"] = text(whose, lg)
    koz = params.get("trump")
    if isinstance(koz, str) and koz in SUIT_LETTERS:  # the koz (named, or to be named)
        params["koz"] = _suit(koz, True, lg)
    led = params.get("led")
    if isinstance(led, str) and led in SUIT_LETTERS:
        params["led"] = _suit(led, True, lg)
    for key in CARD_PARAMS & params.keys():  # "Play 10♥", not "Play TH"
        params[key] = card_text(params[key])
    for key in ("est",):
        if isinstance(params.get(key), float):
            params[key] = f"{params[key]:.1f}".replace(".", text("format.decimal_point", lg))
    try:
        sentence = REASONS[code][lg].format(**params)
    except (KeyError, IndexError):
        sentence = REASONS["only_legal"][lg].format(move=decision.move)
    return capitalize(sentence, lg)


def hint(view: Mapping[str, Any], *, lang: str = "en", seed: int = 0) -> Hint:
    """The move a strong player would make for the seat whose view this is, and one sentence why
    (``lang`` ``en`` or ``tr``). Deterministic: the same view and seed give the same hint."""
    rng: random.Random = decision_rng(seed, view, "hint")
    d = decide(view, rng)
    return Hint(d.move, reason_text(d, lang), d.reason)


def estimate(view: Mapping[str, Any]) -> dict[str, float]:
    """Expected tricks of the seat's hand (its side's, with a partner) for each koz choice: the
    four suit letters, or just the fixed koz (Koz Maça). Deterministic; from the view only."""
    t = parse_view(view)
    est = evaluate_hand(t.hand, t.rules)
    return {s: est[s] for s in SUIT_LETTERS if s in est}
