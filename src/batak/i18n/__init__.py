"""Texts a person reads, in every language of the catalog (Turkish and English today).

Every text of the project (the engine's refusals, the terminal programs, the server's messages
and the web client) is one entry of one gettext catalog: ``locale/batak.pot`` holds each key
(``msgctxt``) with its English text (``msgid``), and ``locale/LANG/LC_MESSAGES/batak.po`` its
translation. The build compiles them to ``.mo`` files (:mod:`batak.i18n.build`), which this module
reads with the standard library's :mod:`gettext`. A language is one ``.po`` file: add
``locale/de/LC_MESSAGES/batak.po`` and German is everywhere (``docs/translating.md``).

The engine raises errors with a message code and parameters; :func:`text` turns them into words.

>>> text("must_follow", "tr", suit="H", cards=["KH", "9H"])
'renge uymalısın: kupa açıldı ve elinde K♥, 9♥ var'
>>> text("must_follow", "en", suit="H", cards=["KH", "9H"])
'you must follow suit: hearts were led and you hold K♥, 9♥'
>>> LANGS
('en', 'tr')
"""

from __future__ import annotations

import gettext
import locale
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "CARD_PARAMS",
    "LANGS",
    "LOCALE_DIR",
    "MESSAGES",
    "SOURCE_LANG",
    "Catalog",
    "CatalogError",
    "Lang",
    "capitalize",
    "card_text",
    "client_catalog",
    "default_lang",
    "folded",
    "lang_of",
    "phase_name",
    "plain_lower",
    "suit_name",
    "text",
    "turkish_lower",
]

#: A language code of the catalog (``en``, ``tr``, …).
Lang = str

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "batak"
#: The language of the ``msgid`` texts, compiled from ``batak.pot`` itself.
SOURCE_LANG = "en"


class CatalogError(RuntimeError):
    """The compiled catalog is missing or broken (the package was not built)."""


class Catalog(Mapping[str, Mapping[str, str]]):
    """Every text by key and language, read from the compiled ``.mo`` files of ``locale_dir``.

    As a mapping it gives ``key -> {lang: text}``; a language that lacks a key falls back to
    English when the text is asked for.
    """

    def __init__(self, locale_dir: Path = LOCALE_DIR) -> None:
        self.locale_dir = locale_dir
        self.texts: dict[str, dict[str, str]] = {}
        found = sorted(p.parent.parent.name for p in locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
        if SOURCE_LANG not in found:
            raise CatalogError(
                f"the compiled texts are missing in {locale_dir}: install the package "
                "(pip install -e .) or run: python -m batak.i18n.build"
            )
        self.langs: tuple[str, ...] = (SOURCE_LANG, *[x for x in found if x != SOURCE_LANG])
        self.by_lang: dict[str, dict[str, str]] = {}
        for lang in self.langs:
            path = locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
            with path.open("rb") as fp:
                translations = gettext.GNUTranslations(fp)
            entries: dict[str, str] = {}
            raw: dict[Any, Any] = getattr(translations, "_catalog", {})
            for k, v in raw.items():
                if isinstance(k, str) and "\x04" in k and isinstance(v, str) and v:
                    key = k.split("\x04", 1)[0]
                    entries[key] = v
            self.by_lang[lang] = entries
        for key, english in self.by_lang[SOURCE_LANG].items():
            self.texts[key] = {lang: self.by_lang[lang].get(key, english) for lang in self.langs}

    def __getitem__(self, key: str) -> Mapping[str, str]:
        return self.texts[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def get_text(self, key: str, lang: str) -> str:
        return self.texts[key].get(lang) or self.texts[key][SOURCE_LANG]

    def for_prefix(self, prefix: str) -> dict[str, dict[str, str]]:
        """``{key without prefix: {lang: text}}`` for the keys that start with ``prefix``."""
        return {k[len(prefix) :]: dict(v) for k, v in self.texts.items() if k.startswith(prefix)}


#: The installed catalog: ``MESSAGES[code][lang]`` is a text.
MESSAGES = Catalog()
#: The languages of the catalog, English first.
LANGS: tuple[str, ...] = MESSAGES.langs


def client_catalog(prefix: str = "web.") -> dict[str, Any]:
    """The texts a client needs, as JSON-ready data: the catalog's languages, each language's own
    name, and ``{key: {lang: text}}`` for the keys under ``prefix`` (without it).

    >>> data = client_catalog()
    >>> data["langs"], data["names"]["tr"], data["texts"]["quick_play"]["tr"]
    (['en', 'tr'], 'Türkçe', 'Hızlı oyun')
    """
    return {
        "langs": list(LANGS),
        "names": {lang: text("language.name", lang) for lang in LANGS},
        "texts": MESSAGES.for_prefix(prefix),
    }


def lang_of(lang: str | None) -> str:
    """``lang`` if the catalog has it, else English: ``lang_of('tr') == 'tr'``."""
    return lang if lang in LANGS else SOURCE_LANG


def default_lang(environ: Mapping[str, str] | None = None) -> str:
    """The catalog language of the locale, as gettext chooses it: the first language of
    ``LANGUAGE`` (a list such as ``tr:en``) that the catalog has, unless the locale is C; else
    the locale (LC_ALL, LC_MESSAGES, LANG); else ``en``.

    >>> default_lang({"LANG": "tr_TR.UTF-8"}), default_lang({"LANG": "C"})
    ('tr', 'en')
    >>> default_lang({"LANG": "en_US.UTF-8", "LANGUAGE": "de:tr"})  # no German: Turkish
    'tr'
    >>> default_lang({"LANG": "C", "LANGUAGE": "tr"})  # the C locale speaks English
    'en'
    """
    env = os.environ if environ is None else environ
    found = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    wanted = env.get("LANGUAGE", "")
    if wanted and found.split(".")[0] not in ("C", "POSIX"):
        for item in wanted.split(":"):
            code = _code(item)
            if code in LANGS:
                return code
    if found:
        return _match(found)
    if environ is None:
        try:
            loc = locale.getlocale()[0] or ""
        except ValueError:  # pragma: no cover - odd platform locales
            loc = ""
        return _match(loc)
    return SOURCE_LANG


def _code(value: str) -> str:
    """The language part of a locale name: ``tr_TR.UTF-8`` -> ``tr``."""
    return value.lower().replace("-", "_").split(".")[0].split("_")[0]


def _match(value: str) -> str:
    code = _code(value)
    return code if code in LANGS else SOURCE_LANG


def suit_name(suit: str, lang: str = "en") -> str:
    """The suit's name: ``suit_name('S', 'tr') == 'maça'``."""
    return text(f"suit.{suit}", lang)


def phase_name(phase: str, lang: str = "en") -> str:
    return text(f"phase.{phase}", lang)


def capitalize(sentence: str, lang: str) -> str:
    """The first letter in upper case, the language's way.

    >>> capitalize("ihale", "tr"), capitalize("ihale", "en")
    ('İhale', 'Ihale')
    """
    first = sentence[:1]
    if first == "i" and lang in ("tr", "az"):
        first = "İ"
    return first.upper() + sentence[1:]


def turkish_lower(text: str) -> str:
    """``text`` in lower case the Turkish way: ``I`` is ``ı`` and ``İ`` is ``i``.

    >>> turkish_lower("İHALE"), turkish_lower("ÇIK"), turkish_lower("HAYIR")
    ('ihale', 'çık', 'hayır')
    """
    return text.replace("İ", "i").replace("I", "ı").lower()


def plain_lower(text: str) -> str:
    """``text`` in lower case with the dotless ``ı`` read as ``i``: one form for a word typed with
    Turkish capitals, without them or without the dots (``İHALE``, ``IHALE`` and ``ihale``), for
    matching words that have no ``ı`` of their own (moves, usernames).

    >>> plain_lower("İHALE 7"), plain_lower("IHALE 7"), plain_lower("Ilker")
    ('ihale 7', 'ihale 7', 'ilker')
    """
    return turkish_lower(text).replace("ı", "i").casefold()


def folded(text: str) -> frozenset[str]:
    """``text`` in lower case both ways, the Turkish (``ÇIK`` is ``çık``, ``İPUCU`` is ``ipucu``)
    and the usual (``QUIT`` is ``quit``), for comparing a typed word with known words of either
    language: ``folded(word) & WORDS``. The one place where typed words are lowered.

    >>> sorted(folded("ÇIK")), sorted(folded("İPUCU")), sorted(folded("QUIT"))
    (['çik', 'çık'], ['ipucu', 'i̇pucu'], ['quit', 'quıt'])
    """
    return frozenset({turkish_lower(text), text.casefold()})


_CARD_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_CARD_RANKS = frozenset("23456789TJQKA")
#: The parameters that name cards (or a move, which may be a card): their engine codes ("TH")
#: are shown as a person reads them.
CARD_PARAMS = frozenset({"card", "cards", "top", "high", "best", "best_cards", "move", "signal"})


def card_text(value: object) -> object:
    """An engine card code as a person reads it: ``TH`` → ``10♥``, ``QS`` → ``Q♠``; anything
    else (a number, text already written for people) is returned unchanged.

    >>> card_text("TH"), card_text("QS"), card_text("10♥"), card_text(3)
    ('10♥', 'Q♠', '10♥', 3)
    """
    if isinstance(value, str) and len(value) == 2:
        rank, suit = value[0], value[1]
        if rank in _CARD_RANKS and suit in _CARD_SYMBOL:
            return ("10" if rank == "T" else rank) + _CARD_SYMBOL[suit]
    return value


#: The parameters that hold a move in the engine's notation ("pass", "bid 7", "trump H"): they
#: are shown in the reader's words.
MOVE_PARAMS = frozenset({"what"})


def move_words(value: object, lang: str = "en") -> object:
    """A move in the engine's notation as a person reads it in ``lang``: ``pass`` → ``pas``,
    ``bid 7`` → ``ihale 7`` in Turkish, ``trump H`` → ``koz ♥ kupa``, ``bury 2C`` → ``göm 2♣``,
    a card as :func:`card_text` shows it; anything else unchanged.

    >>> [move_words(m, "tr") for m in ("pass", "bid 7", "trump H", "bury 2C", "TH")]
    ['pas', 'ihale 7', 'koz ♥ kupa', 'göm 2♣', '10♥']
    """
    if not isinstance(value, str):
        return value
    lg = lang_of(lang)
    verb, _, arg = value.partition(" ")
    if value == "pass":
        return text("move_pass", lg)
    if verb == "bid" and arg.isdigit():
        return text("move_bid", lg, n=int(arg))
    if verb == "trump" and arg in _CARD_SYMBOL:
        return text("move_trump", lg, koz=f"{_CARD_SYMBOL[arg]} {suit_name(arg, lg)}")
    if verb == "bury":
        return text("move_bury", lg, card=card_text(arg))
    return card_text(value)


def chips_text(n: int, lang: str) -> str:
    """A number of chips as people of ``lang`` write it: 1,500 in English, 1.500 in Turkish.

    >>> chips_text(10000, "tr"), chips_text(10000, "en"), chips_text(500, "tr")
    ('10.000', '10,000', '500')
    """
    out = f"{int(n):,}"
    return out.replace(",", ".") if lang == "tr" else out


#: The parameters that are numbers of chips, written as :func:`chips_text` writes them.
CHIP_PARAMS = frozenset({"stake", "balance", "grant"})


def _render_value(key: str, value: Any, lang: str) -> Any:
    if key in CHIP_PARAMS and isinstance(value, int) and not isinstance(value, bool):
        return chips_text(value, lang)
    if key in MOVE_PARAMS:
        return move_words(value, lang)
    if key == "suit" and isinstance(value, str) and f"suit.{value}" in MESSAGES:
        return suit_name(value, lang)
    if key == "phase" and isinstance(value, str) and f"phase.{value}" in MESSAGES:
        return phase_name(value, lang)
    if key in CARD_PARAMS:
        if isinstance(value, list | tuple):
            return ", ".join(str(card_text(v)) for v in value)
        return card_text(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value


def text(code: str, lang: str = "en", /, **params: Any) -> str:
    """The text ``code`` in ``lang`` (English if the catalog lacks that language), filled in with
    ``params``: a ``suit`` letter becomes the suit's name, a card code in a card parameter
    (:data:`CARD_PARAMS`) the card as people write it (``10♥``), a list is joined with commas."""
    lg = lang_of(lang)
    template = MESSAGES.get_text(code, lg)
    return template.format(**{k: _render_value(k, v, lg) for k, v in params.items()})
