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


#: The online server's texts (``batak.server``): its error messages, by the error's key.
#: ``{x!r}`` quotes what the player sent.
_SERVER: dict[str, tuple[str, str]] = {
    # key: (English, Turkish)
    "already_hello": (
        "this connection is at a table: reconnect to switch",
        "bu bağlantı bir masada: değiştirmek için yeniden bağlan",
    ),
    "already_hello_login": (
        "this connection is at a table: reconnect to log in",
        "bu bağlantı bir masada: giriş yapmak için yeniden bağlan",
    ),
    "bad_username": (
        "a username is 1 to 32 characters without spaces",
        "kullanıcı adı boşluksuz 1 ile 32 karakter arasında olmalı",
    ),
    "weak_password": (
        "a password needs at least 8 characters",
        "şifre en az 8 karakter olmalı",
    ),
    "has_account": ("you already have an account", "zaten bir hesabın var"),
    "username_taken": (
        "the username {username!r} is taken",
        "{username!r} kullanıcı adı alınmış",
    ),
    "bad_login": ("wrong username or password", "kullanıcı adı ya da şifre yanlış"),
    "no_accounts": (
        "accounts are not available on this server (argon2-cffi is missing)",
        "bu sunucuda hesap açılamıyor (argon2-cffi kurulu değil)",
    ),
    "busy": ("the server is full: try again later", "sunucu dolu: biraz sonra yeniden dene"),
    "busy_seat": ("could not find a seat: try again", "boş yer bulunamadı: yeniden dene"),
    "match_over_record": (
        "that match is over; its record is at {url}",
        "bu maç bitti; kaydı şurada: {url}",
    ),
    "no_table": ("there is no table {table!r}", "{table!r} diye bir masa yok"),
    "closed": (
        "the room {table!r} was closed: nobody came to it for a long time",
        "{table!r} odası kapatıldı: uzun süre kimse gelmedi",
    ),
    "gone": (
        "the table {table!r} was just put away: ask again",
        "{table!r} masası az önce kaldırıldı: yeniden iste",
    ),
    "no_code": ("no table has the code {code!r}", "{code!r} kodlu bir masa yok"),
    "join_what": ("join: give 'table' or 'code'", "join: 'table' ya da 'code' ver"),
    "bad_mode": (
        "unknown mode {mode!r}; modes: {modes}",
        "bilinmeyen oyun türü {mode!r}; türler: {modes}",
    ),
    "bad_preset": (
        "unknown preset {preset!r}; presets: {presets}",
        "bilinmeyen kural seti {preset!r}; kural setleri: {presets}",
    ),
    "bad_rules": ("these rules are not possible: {detail}", "bu kurallar olmaz: {detail}"),
    "bad_seat": ("seats are 0..{last}", "koltuklar 0..{last} arası"),
    "seat_taken": ("seat {seat} is taken", "{seat} numaralı koltuk dolu"),
    "full": ("the table is full", "masa dolu"),
    "started_watch": (
        "the match has started: you can watch it",
        "maç başladı: izleyebilirsin",
    ),
    "started": ("the match has already started", "maç zaten başladı"),
    "not_host_start": (
        "only the host can start this table",
        "bu masayı yalnızca masa sahibi başlatabilir",
    ),
    "not_host_adjourn": (
        "only the host can adjourn this table",
        "bu masayı yalnızca masa sahibi erteleyebilir",
    ),
    "seats_empty": (
        "bots may not sit at this table: wait for every seat to fill",
        "bu masaya bot oturamaz: bütün koltukların dolmasını bekle",
    ),
    "not_private": (
        "only private tables can be continued later",
        "yalnızca özel masalara sonra devam edilebilir",
    ),
    "not_playing": ("the match is not being played", "maç şu an oynanmıyor"),
    "not_seated": ("you do not sit at this table", "bu masada oturmuyorsun"),
    "adjourned": (
        "the match is adjourned until the host resumes it",
        "maç ertelendi: masa sahibi devam ettirene kadar bekliyor",
    ),
    "not_started": ("the match has not started", "maç başlamadı"),
    "match_over": ("the match is over", "maç bitti"),
    "bad_version": (
        "version {seen} is in the future (the table is at {now})",
        "{seen} sürümü ileride (masa {now} sürümünde)",
    ),
    "stale": (
        "the table moved on since version {seen} (now {now}): look again and resend",
        "{seen} sürümünden beri masada değişiklik oldu (şimdi {now}): yeniden bak ve "
        "yeniden gönder",
    ),
    "away": (
        "a bot is playing your seat: it is yours at your next turn",
        "yerine bir bot oynuyor: sıra sana geldiğinde yer yine senin",
    ),
    "hint_turn": (
        "it is not your decision: hints are for your turn",
        "karar sırası sende değil: ipucu yalnızca senin sıranda",
    ),
    "hint_rate": ("slow down: too many hints", "yavaş: çok fazla ipucu istedin"),
    "not_at_table_chat": ("join the table to chat there", "sohbet etmek için masaya katıl"),
    "not_at_table": ("join the table first", "önce masaya katıl"),
    "chat_empty": ("say something", "bir şey yaz"),
    "chat_too_long": (
        "a chat message may be at most {n} characters",
        "bir sohbet mesajı en fazla {n} karakter olabilir",
    ),
    "chat_rate": ("slow down: too many chat messages", "yavaş: çok fazla mesaj gönderdin"),
    "reaction_rate": ("slow down: too many reactions", "yavaş: çok fazla tepki gönderdin"),
    "bad_reaction": ("reactions: {reactions}", "tepkiler: {reactions}"),
    "hello_first": (
        "say hello first (a 'hello' message)",
        "önce merhaba de (bir 'hello' mesajı)",
    ),
    "storage": (
        "the server could not save that; nothing changed",
        "sunucu bunu kaydedemedi; hiçbir şey değişmedi",
    ),
    "internal": ("the server failed on that message", "sunucu bu mesajı işlerken hata verdi"),
    "rate_limited": (
        "too many messages: slow down; this one was dropped",
        "çok fazla mesaj: yavaşla; bu mesaj yok sayıldı",
    ),
    "rate_limited_bye": ("too many messages: goodbye", "çok fazla mesaj: hoşça kal"),
    "too_big": (
        "a message may be at most {limit} bytes, this is {size}",
        "bir mesaj en fazla {limit} bayt olabilir, bu {size} bayt",
    ),
    "binary": (
        "send text frames holding JSON, not binary frames",
        "ikili (binary) çerçeve değil, JSON içeren metin çerçevesi gönder",
    ),
    "json_deep": ("not JSON: nested too deeply", "JSON değil: çok derin iç içe"),
    "not_json": ("not JSON: {detail}", "JSON değil: {detail}"),
    "no_type": (
        'a message is a JSON object with a "type"',
        'bir mesaj "type" alanı olan bir JSON nesnesidir',
    ),
    "bad_ref": (
        "'ref' must be a short string or a whole number",
        "'ref' kısa bir metin ya da bir tam sayı olmalı",
    ),
    "unknown_type": (
        "unknown message type {kind}; known: {known}",
        "bilinmeyen mesaj türü {kind}; bilinenler: {known}",
    ),
    "unknown_fields": (
        "{kind}: unknown field(s) {fields}",
        "{kind}: bilinmeyen alan(lar) {fields}",
    ),
    "missing_field": ("{kind}: {name!r} is missing ({what})", "{kind}: {name!r} eksik ({what})"),
    "bad_field": (
        "{kind}: {name!r} must be {what}, got {got}",
        "{kind}: {name!r} {what} olmalı, gelen: {got}",
    ),
    "not_finite": ("numbers must be finite", "sayılar sonlu olmalı"),
    "field_str": (
        "a string of 1 to {max_len} characters",
        "1 ile {max_len} karakter arası bir metin",
    ),
    "field_int": ("a whole number from {low} to {high}", "{low} ile {high} arası bir tam sayı"),
    "field_bool": ("true or false", "true ya da false"),
    "field_obj": ("a JSON object", "bir JSON nesnesi"),
    "field_any": ("any value", "herhangi bir değer"),
}
MESSAGES.update({f"server.{k}": {"en": en, "tr": tr} for k, (en, tr) in _SERVER.items()})


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
