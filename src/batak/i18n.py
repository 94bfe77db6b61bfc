"""Texts a person reads, in Turkish and English.

The engine raises errors with a message code and parameters; this module turns them into words.

>>> text("must_follow", "tr", suit="H", cards=["KH", "9H"])
'renge uymalısın: kupa açıldı ve elinde KH, 9H var'
>>> text("must_follow", "en", suit="H", cards=["KH", "9H"])
'you must follow suit: hearts were led and you hold KH, 9H'
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["LANGS", "MESSAGES", "Lang", "default_lang", "phase_name", "suit_name", "text"]

Lang = Literal["en", "tr"]
LANGS: tuple[Lang, ...] = ("en", "tr")

_SUITS: dict[str, dict[str, str]] = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "tr": {"S": "maça", "H": "kupa", "D": "karo", "C": "sinek"},
}
_PHASES: dict[str, dict[str, str]] = {
    "en": {
        "bidding": "bidding",
        "bury": "kitty burial",
        "trump": "trump choice",
        "play": "card play",
        "over": "end of the deal",
    },
    "tr": {
        "bidding": "ihale",
        "bury": "gömme",
        "trump": "koz seçimi",
        "play": "kart atma",
        "over": "el sonu",
    },
}

#: code -> {lang -> template}. Other modules add their own texts with ``MESSAGES.update``.
MESSAGES: dict[str, dict[str, str]] = {
    "bad_notation": {
        "en": "not a move: {text!r} (moves look like 'pass', 'bid 7', 'trump H', 'bury AS' "
        "or a card such as 'AS')",
        "tr": "geçersiz hamle: {text!r} ('pass', 'bid 7', 'trump H', 'bury AS' ya da 'AS' "
        "gibi bir kart yazın)",
    },
    "game_over": {"en": "the deal is over", "tr": "el bitti"},
    "not_your_turn": {
        "en": "it is not your turn: seat {to_move} is to move",
        "tr": "sıra sende değil: sıra {to_move} numaralı oyuncuda",
    },
    "wrong_phase": {
        "en": "{what} is not a move now: this is the {phase}",
        "tr": "{what} şu an oynanamaz: şimdi {phase} sırası",
    },
    "not_in_hand": {"en": "you do not hold {card}", "tr": "{card} elinde yok"},
    "must_follow": {
        "en": "you must follow suit: {suit} were led and you hold {cards}",
        "tr": "renge uymalısın: {suit} açıldı ve elinde {cards} var",
    },
    "must_overtake": {
        "en": "you must overtake: {top} is on the table and you hold {cards}",
        "tr": "büyütmelisin: yerde {top} var ve elinde {cards} var",
    },
    "must_trump": {
        "en": "you must trump: you have no {suit} and you hold trumps {cards}",
        "tr": "koz atmalısın: elinde {suit} yok ve kozların var: {cards}",
    },
    "must_overtrump": {
        "en": "you must overtrump: {top} is on the table and you hold {cards}",
        "tr": "büyük koz atmalısın: yerde {top} var ve elinde {cards} var",
    },
    "trump_not_broken": {
        "en": "you may not lead a trump ({suit}) before trumps are broken while you hold "
        "other suits",
        "tr": "koz kırılmadan koz ({suit}) açılmaz: elinde başka renkler var",
    },
    "bid_too_low": {
        "en": "a bid must be at least {low}",
        "tr": "teklif en az {low} olmalı",
    },
    "bid_too_high": {
        "en": "the highest possible bid is {high}",
        "tr": "en yüksek teklif {high} olabilir",
    },
    "cannot_pass": {
        "en": "in Koz Maça every player bids once; passing is not allowed",
        "tr": "koz maçada herkes bir kez söz söyler; pas denemez",
    },
    "redeal": {
        "en": "everyone passed: the cards are thrown in and dealt again, no score",
        "tr": "herkes pas dedi: kartlar toplanıp yeniden dağıtılır, puan yazılmaz",
    },
}


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """``tr`` when the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE) is Turkish, else ``en``.

    >>> default_lang({"LANG": "tr_TR.UTF-8"}), default_lang({"LANG": "C"})
    ('tr', 'en')
    """
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(key)
        if value:
            return "tr" if value.lower().startswith("tr") else "en"
    if environ is None:
        try:
            loc = locale.getlocale()[0] or ""
        except ValueError:  # pragma: no cover - odd platform locales
            loc = ""
        if loc.lower().startswith("tr"):
            return "tr"
    return "en"


def suit_name(suit: str, lang: str = "en") -> str:
    """The suit's name: ``suit_name('S', 'tr') == 'maça'``."""
    return _SUITS[_lang(lang)][str(suit)]


def phase_name(phase: str, lang: str = "en") -> str:
    return _PHASES[_lang(lang)][str(phase)]


def _lang(lang: str) -> Lang:
    return "tr" if lang == "tr" else "en"


def _render_value(key: str, value: Any, lang: Lang) -> Any:
    if key == "suit" and isinstance(value, str) and value in _SUITS[lang]:
        return _SUITS[lang][value]
    if key == "phase" and isinstance(value, str) and value in _PHASES[lang]:
        return _PHASES[lang][value]
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value


def text(code: str, lang: str = "en", /, **params: Any) -> str:
    """The message ``code`` in ``lang`` (``en`` or ``tr``), filled in with ``params``."""
    lg = _lang(lang)
    templates = MESSAGES[code]
    template = templates.get(lg) or templates["en"]
    return template.format(**{k: _render_value(k, v, lg) for k, v in params.items()})
