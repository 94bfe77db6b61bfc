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

from .medium import Decision, decide
from .simple import SUIT_LETTERS, decision_rng, evaluate_hand, parse_view

__all__ = ["REASONS", "Hint", "estimate", "hint", "reason_text"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (canonical text), the reason in words, and the reason's code."""

    move: str
    reason: str
    code: str = ""


_SUIT_ONE = {
    "en": {"S": "spade", "H": "heart", "D": "diamond", "C": "club"},
    "tr": {"S": "maça", "H": "kupa", "D": "karo", "C": "sinek"},
}
_SUIT_MANY = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "tr": {"S": "maça", "H": "kupa", "D": "karo", "C": "sinek"},
}

#: reason code -> language -> template. ``{card}`` a card, ``{suit}`` a suit (one card's name),
#: ``{suits}`` the suit's plural, ``{n}`` a bid, ``{est}`` an estimate, ``{move}`` any move.
REASONS: dict[str, dict[str, str]] = {
    "only_legal": {
        "en": "Play {move}: it is the only legal move.",
        "tr": "{move} oyna: oynanabilecek tek hamle bu.",
    },
    "bid_estimate": {
        "en": "Bid {n}: with {suits} as koz your hand should take about {est} tricks.",
        "tr": "İhale {n} de: {suit} koz olursa elin yaklaşık {est} löve alır.",
    },
    "pass_estimate": {
        "en": "Pass: your hand is worth about {est} tricks, not enough for a bid of {need}.",
        "tr": "Pas de: elin yaklaşık {est} löve eder, {need} ihalesi için yetmez.",
    },
    "pass_partner": {
        "en": "Pass: your partner holds the ihale at {bid}; do not outbid your own side.",
        "tr": "Pas de: ihale {bid} ile eşinde; kendi takımını geçme.",
    },
    "pass_dealer": {
        "en": "Pass: everyone passed, so you keep the ihale at {n} anyway.",
        "tr": "Pas de: herkes pas dedi, ihale zaten {n} ile sende kalır.",
    },
    "kozmaca_bid": {
        "en": "Bid {n}: with spades as koz your hand should take about {est} tricks.",
        "tr": "{n} söyle: maça koz ile elin yaklaşık {est} löve alır.",
    },
    "trump_choice": {
        "en": "Name {suits} as koz: your {length} {suits} give the best estimate, "
        "about {est} tricks.",
        "tr": "{suit} koz yap: bu renkteki {length} kartınla tahmin en iyi, yaklaşık {est} löve.",
    },
    "bury": {
        "en": "Bury {card}: a card you can spare from your short {suits}; keep your koz and aces.",
        "tr": "{card} göm: kısa {suit} renginden vazgeçebileceğin bir kart; kozlarını ve "
        "aslarını tut.",
    },
    "bury_low": {
        "en": "Bury {card}: a low card you will not miss; keep your koz and aces.",
        "tr": "{card} göm: eksikliğini duymayacağın küçük bir kart; kozlarını ve aslarını tut.",
    },
    "draw_trumps": {
        "en": "Play {card}: draw the opponents' koz so that your winners in the other suits "
        "cannot be ruffed.",
        "tr": "{card} oyna: rakiplerin kozlarını topla ki öteki renklerdeki büyük kartların "
        "kesilmesin.",
    },
    "cash_master": {
        "en": "Play {card}: it is the highest {suit} still out, so it takes the trick.",
        "tr": "{card} oyna: dışarıda kalan en büyük {suit} bu, löveyi alır.",
    },
    "lead_partner": {
        "en": "Lead {card}: your partner is strong in {suits} and can take this trick.",
        "tr": "{card} aç: eşin {suit} renginde güçlü, bu löveyi alabilir.",
    },
    "force_bidder": {
        "en": "Lead {card}: the bidder has no {suits} left and must spend a koz on it.",
        "tr": "{card} aç: ihalecide {suit} kalmadı, bir koz harcamak zorunda.",
    },
    "lead_short": {
        "en": "Lead {card}: empty your short {suits} so that you can ruff them later.",
        "tr": "{card} aç: kısa {suit} rengini bitir ki sonra kozla kesebilesin.",
    },
    "lead_low": {
        "en": "Lead {card}: a low card that gives nothing away.",
        "tr": "{card} aç: hiçbir şey kaybettirmeyen küçük bir kart.",
    },
    "win_only": {
        "en": "Play {card}: it is the only {suit} that can still win this trick.",
        "tr": "{card} oyna: bu löveyi alabilecek tek {suit} kartın bu.",
    },
    "win_cheap": {
        "en": "Play {card}: the cheapest card that wins this trick.",
        "tr": "{card} oyna: bu löveyi alan en ucuz kart.",
    },
    "win_chance": {
        "en": "Play {card}: it gives the best chance to take this trick.",
        "tr": "{card} oyna: bu löveyi alma şansı en yüksek kart bu.",
    },
    "ruff": {
        "en": "Ruff with {card}: you have no {led} and a small koz is enough to win.",
        "tr": "{card} ile kes: elinde {led} yok, küçük bir koz löveyi almaya yeter.",
    },
    "overruff": {
        "en": "Overtrump with {card}: it beats the koz on the table.",
        "tr": "{card} ile üstten kes: yerdeki kozu geçer.",
    },
    "partner_winner": {
        "en": "Play {card}: your partner's card is winning; let it stand and keep your high cards.",
        "tr": "{card} oyna: löveyi eşinin kartı alıyor; bırak alsın, büyük kartlarını sakla.",
    },
    "duck": {
        "en": "Play {card}: keep {high} for later; this trick is not worth it.",
        "tr": "{card} oyna: {high} kartını sonraya sakla; bu löve ona değmez.",
    },
    "discard_short": {
        "en": "Throw {card}: you cannot win this trick, so discard from your short {suits}.",
        "tr": "{card} at: bu löveyi alamazsın, kısa {suit} renginden at.",
    },
    "discard": {
        "en": "Throw {card}: you cannot win this trick, so give the card you need least.",
        "tr": "{card} at: bu löveyi alamazsın, en az işine yarayacak kartı ver.",
    },
    "play_low": {
        "en": "Play {card}: you cannot win this trick, so give a card you can spare.",
        "tr": "{card} oyna: bu löveyi alamazsın, vazgeçebileceğin bir kart ver.",
    },
}


def reason_text(decision: Decision, lang: str = "en") -> str:
    """The sentence for a :class:`~batak.bots.medium.Decision` in ``en`` or ``tr``."""
    lg = "tr" if lang == "tr" else "en"
    code = decision.reason if decision.reason in REASONS else "only_legal"
    params: dict[str, Any] = {"move": decision.move, **decision.params}
    suit = params.get("suit")
    if isinstance(suit, str) and suit in _SUIT_ONE[lg]:
        params["suit"] = _SUIT_ONE[lg][suit]
        params["suits"] = _SUIT_MANY[lg][suit]
    elif "trump" in params and params["trump"] in _SUIT_ONE[lg]:
        params["suit"] = _SUIT_ONE[lg][params["trump"]]
        params["suits"] = _SUIT_MANY[lg][params["trump"]]
    led = params.get("led")
    if isinstance(led, str) and led in _SUIT_MANY[lg]:
        params["led"] = _SUIT_MANY[lg][led]
    for key in ("est",):
        if isinstance(params.get(key), float):
            params[key] = (
                f"{params[key]:.1f}" if lg == "en" else f"{params[key]:.1f}".replace(".", ",")
            )
    try:
        sentence = REASONS[code][lg].format(**params)
    except (KeyError, IndexError):
        sentence = REASONS["only_legal"][lg].format(move=decision.move)
    first = sentence[:1]
    first = "İ" if (first == "i" and lg == "tr") else first.upper()
    return first + sentence[1:]


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
