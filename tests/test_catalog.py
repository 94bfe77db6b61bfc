"""The one translation catalog (``src/batak/i18n/locale``): complete in every language, the same
placeholders everywhere, no English left on a Turkish screen, every key the code asks for present
and every key present asked for, the compiled files current, and a new language one file away.
"""

from __future__ import annotations

import re
import shutil
import string
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")

from batak import i18n  # noqa: E402
from batak.explain import option_names, rules_catalog  # noqa: E402
from batak.game import Phase  # noqa: E402
from batak.i18n import build  # noqa: E402
from batak.rules import PRESETS  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src" / "batak"
LOCALE = SRC / "i18n" / "locale"
TEMPLATE = build.read_catalog(LOCALE / "batak.pot")
TRANSLATIONS = {
    lang: build.read_catalog(path, lang) for lang, path in build.po_files(LOCALE).items()
}
KEYS = {m.context: m.id for m in TEMPLATE if m.id}


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_the_catalog_has_english_and_turkish() -> None:
    assert "tr" in TRANSLATIONS
    assert ("en", *sorted(TRANSLATIONS)) == i18n.LANGS
    assert len(KEYS) > 500
    assert all(KEYS), "a key without English text"
    assert len(KEYS) == len([m for m in TEMPLATE if m.id]), "a key appears twice"


@pytest.mark.parametrize("lang", sorted(TRANSLATIONS))
def test_every_key_is_translated_and_none_is_left_over(lang: str) -> None:
    cat = TRANSLATIONS[lang]
    have = {m.context: m for m in cat if m.id}
    missing = sorted(set(KEYS) - set(have))
    extra = sorted(set(have) - set(KEYS))
    assert not missing, f"{lang}.po lacks {missing}"
    assert not extra, f"{lang}.po has keys the template does not: {extra}"
    untranslated = sorted(k for k, m in have.items() if not m.string)
    fuzzy = sorted(k for k, m in have.items() if m.fuzzy)
    stale = sorted(k for k, m in have.items() if m.id != KEYS[k])
    assert not untranslated, f"{lang}.po: not translated: {untranslated}"
    assert not fuzzy, f"{lang}.po: fuzzy (check and clear the flag): {fuzzy}"
    assert not stale, f"{lang}.po: the English changed since translating: {stale}"


@pytest.mark.parametrize("lang", sorted(TRANSLATIONS))
def test_placeholders_are_the_same_in_every_language(lang: str) -> None:
    wrong = {
        m.context: (sorted(fields(m.id)), sorted(fields(str(m.string))))
        for m in TRANSLATIONS[lang]
        if m.id and m.string and fields(m.id) != fields(str(m.string))
    }
    assert not wrong, wrong


#: English words that never belong in a Turkish sentence (the game's Turkish words, names and
#: commands are fine: they are the same in both languages).
ENGLISH = {
    "the", "and", "you", "your", "is", "are", "of", "to", "with", "not", "has", "have", "this",
    "that", "from", "for", "bid", "trick", "tricks", "play", "player", "score", "table", "deal",
    "wins", "won", "lost", "trump", "spades", "hearts", "diamonds", "clubs", "partner", "turn",
    "wait", "join", "leave", "start", "open", "close", "name", "seat", "room", "game", "match",
}  # fmt: skip


def test_no_english_word_in_a_turkish_text() -> None:
    found = {}
    for m in TRANSLATIONS["tr"]:
        if not m.id or not m.string:
            continue
        s = re.sub(r"\{[^}]*\}", " ", str(m.string))  # placeholders
        s = re.sub(r"'[^']*'|`[^`]*`|--[\w-]+|\"[^\"]*\"", " ", s)  # commands and quoted input
        s = re.sub(r"\w+=\S*|\b[a-z]+_[a-z_]+\b", " ", s)  # option names and their values
        words = {w.lower() for w in re.findall(r"[A-Za-zÇĞİÖŞÜçğıöşü]+", s)}
        if words & ENGLISH:
            found[m.context] = sorted(words & ENGLISH)
    assert not found, found


def test_the_compiled_catalog_is_current() -> None:
    """The installed ``.mo`` files are what the sources compile to (after editing a ``.po``:
    ``python -m batak.i18n.build``, or reinstall)."""
    for rel, data in build.compiled(LOCALE).items():
        path = LOCALE / rel
        assert path.exists(), f"{path} is missing: run python -m batak.i18n.build"
        assert path.read_bytes() == data, f"{path} is stale: run python -m batak.i18n.build"


# ---------------------------------------------------------------------- keys and the code
def sources(*globs: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for g in globs for p in sorted(SRC.glob(g)))


PY_ALL = sources("**/*.py")
JS_ALL = sources("web/static/*.js")
#: key prefix -> the files where its keys are asked for, and how a call names one (the key
#: without the prefix is the call's first argument).
AREAS: dict[str, tuple[tuple[str, ...], str]] = {
    "": (("*.py",), r"\btext\(\s*\"(\w+)\"\s*,"),
    "rules_error": (("rules.py", "cli/parser.py"), r"\bRulesError\(\s*\"(\w+)\""),
    "server": (("server/*.py", "server/cluster/*.py"), r"\bi18n\.text\(\s*\"server\.(\w+)\""),
    "cli": (("cli/*.py",), r"\bt\(\s*\"(\w+)\"(?!\s*\+)"),
    "online": (("cli/online.py",), r"\bo\(\s*\"(\w+)\""),
    "arena": (("arena/*.py", "cli/arena.py"), r"\b(?:h\(\s*\"|text\(\s*\"arena\.)(\w+)\""),
    "serve": (("cli/serve.py",), r"\b(?:h\(\s*\"|text\(\s*\"serve\.)(\w+)\""),
    "rules": (("explain.py",), r"\bt\(\s*\"(\w+)\""),
    "teach": (("bots/*.py",), r"\btext\(\s*\"teach\.(\w+)\""),
    "review": (("bots/review.py",), r"\btext\(\s*\"review\.(\w+)\""),
    "story": (("bots/story.py",), r"\btext\(\s*\"story\.(\w+)\""),
    "web": (("web/static/*.js",), r"\bt\(\s*\"(\w+)\"(?!\s*\+)"),
}
#: Families whose keys are computed from the rules and the game, not written in the code.
FAMILIES: dict[str, set[str]] = {
    "suit": set("SHDC"),
    "phase": {p.value for p in Phase},
    "option": set(option_names()),
    "option_label": set(option_names()),
    "value": {
        f"{name}.{v}" for name, opt in rules_catalog()["options"].items() for v in opt["choices"]
    },
    "source": {n.split("-")[0] for n in PRESETS} | set(PRESETS),
    "title": set(PRESETS),
    "teach.suit_one": set("SHDC"),
    "teach.suit_many": set("SHDC"),
    "language": {"name"},
    "format": {"decimal_point"},
}


def split(key: str) -> tuple[str, str]:
    for family in sorted(FAMILIES, key=len, reverse=True):
        if key.startswith(family + "."):
            return family, key[len(family) + 1 :]
    area, dot, rest = key.partition(".")
    return (area, rest) if dot else ("", key)


def literal(word: str, text: str) -> bool:
    return re.search(r"[\"'`]" + re.escape(word) + r"[\"'`]", text) is not None


def dynamic_keys(text: str) -> set[tuple[str, str]]:
    """(prefix, suffix) of keys built at run time: ``f"phase_{…}"`` or ``f"server.field_{…}"``
    in Python, ``"mode_" + m`` or ``"mode_" + m + "_help"`` in JavaScript."""
    python = {(p, "") for p in re.findall(r"f[\"'](?:[\w.]*\.)?(\w+_)\{", text)}
    js = set(re.findall(r"\"(\w+_)\"\s*\+\s*\w+(?:\s*\+\s*\"(\w+)\")?", text))
    return python | js


@pytest.mark.parametrize("area", sorted(AREAS))
def test_every_key_the_code_asks_for_exists(area: str) -> None:
    globs, pattern = AREAS[area]
    asked = set(re.findall(pattern, sources(*globs)))
    prefix = f"{area}." if area else ""
    missing = sorted(k for k in asked if f"{prefix}{k}" not in KEYS)
    assert not missing, f"asked for but not in the catalog: {missing}"


def test_every_key_in_the_catalog_is_used() -> None:
    unused = []
    for key in KEYS:
        family, rest = split(key)
        if family in FAMILIES:
            if rest not in FAMILIES[family]:
                unused.append(key)
            continue
        globs, _ = AREAS[family]
        text = sources(*globs)
        if literal(rest, text) or literal(key, PY_ALL):
            continue
        built = [
            rest[len(p) : len(rest) - len(q)]
            for p, q in dynamic_keys(text)
            if rest.startswith(p) and rest.endswith(q) and len(rest) > len(p) + len(q)
        ]
        # (card ranks: cards.js asks for "rank_" + r with r one of the letters "AKQJ")
        if any(literal(part, PY_ALL + JS_ALL) or part in "AKQJ" for part in built):
            continue
        unused.append(key)
    assert not unused, f"in the catalog but never used: {unused}"


# ---------------------------------------------------------------------- a third language
def test_a_new_language_is_one_file(tmp_path: Path) -> None:
    """Copy the catalog, add ``de.po`` translating two texts, compile: German is a language of
    the catalog, its texts are used, and every other text falls back to English."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale, ignore=shutil.ignore_patterns("*.mo"))
    template = (locale / "batak.pot").read_text(encoding="utf-8")
    german = template.replace('"Language-Team: none', '"Language: de\\n"\n"Language-Team: German')
    german = re.sub(
        r'(msgctxt "must_follow"\nmsgid "[^"]*"\nmsgstr )""',
        r'\1"du musst Farbe bedienen: {suit} wurde ausgespielt und du hast {cards}"',
        german,
    )
    german = re.sub(
        r'(msgctxt "language\.name"\nmsgid "English"\nmsgstr )""', r'\1"Deutsch"', german
    )
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "de" / "LC_MESSAGES" / "batak.po").write_text(german, encoding="utf-8")
    build.build(locale)
    cat = i18n.Catalog(locale)
    assert cat.langs == ("en", "de", "tr")
    assert cat.get_text("language.name", "de") == "Deutsch"
    assert cat.get_text("must_follow", "de").startswith("du musst Farbe bedienen")
    assert cat.get_text("game_over", "de") == "the deal is over"  # not translated yet: English
    assert cat.get_text("game_over", "tr") == "el bitti"


def test_an_unbuilt_catalog_says_how_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(i18n.CatalogError, match=r"python -m batak\.i18n\.build"):
        i18n.Catalog(tmp_path)


def test_a_language_the_catalog_lacks_falls_back_to_english() -> None:
    assert i18n.text("game_over", "de") == i18n.text("game_over", "en") == "the deal is over"
    assert i18n.lang_of("de") == "en" and i18n.default_lang({"LANG": "de_DE.UTF-8"}) == "en"


def test_every_preset_has_a_name_players_read() -> None:
    from batak.explain import preset_title

    for name in PRESETS:
        for lang in ("en", "tr"):
            assert preset_title(name, lang) != name, (name, lang)


@pytest.mark.parametrize("lang", ["en", *sorted(TRANSLATIONS)])
def test_a_turn_prompt_has_no_colon_of_its_own(lang: str) -> None:
    """The table writes "Your turn: <the phase's prompt>": a prompt with a colon of its own read
    "Your turn: İhale: bid or say pas"."""
    texts = (
        {k: str(v) for k, v in KEYS.items()}
        if lang == "en"
        else {m.context: str(m.string) for m in TRANSLATIONS[lang] if m.id}
    )
    said = {k: v for k, v in texts.items() if k.startswith("web.phase_") and ":" in v}
    assert not said, said


@pytest.mark.parametrize("lang", ["en", *sorted(TRANSLATIONS)])
def test_a_duration_keeps_its_number_and_unit_on_one_line(lang: str) -> None:
    """ "ends in 11 h" wrapped with "h" alone on a phone: a number and its unit are joined by a
    no-break space, in every language."""
    texts = (
        {k: str(v) for k, v in KEYS.items()}
        if lang == "en"
        else {m.context: str(m.string) for m in TRANSLATIONS[lang] if m.id}
    )
    units = r"(s|sn|h|sa|saat|min|dk|dakika|d|gün|saniye|seconds?|minutes?|hours?|days?)"
    apart = re.compile(r"\{[a-z_]+\} " + units + r"(?![\wçğıöşü])")
    said = {k: v for k, v in texts.items() if apart.search(v)}
    assert not said, said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_an_options_explanation_says_more_than_its_name(lang: str) -> None:
    """Under "Lowest bid" the rules pages said "the lowest bid", under "Tie at the top" "a tie at
    the top" (in Turkish "Herkes pas derse" / "herkes pas derse"): the explanation of a table
    option says what it decides, not its name again."""
    from batak.explain import option_help, option_label

    def bare(said: str) -> str:
        return re.sub(r"^(the|a|an) ", "", said.casefold().strip())

    same = [o for o in option_names() if bare(option_help(o, lang)) == bare(option_label(o, lang))]
    assert not same


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_tables_summary_keeps_each_number_with_its_word(lang: str) -> None:
    """The one-line summary of a table ('ihaleli, ihale 4–13, 10 points a trick, batak penalty,
    2 deals') wrapped at 60 columns as "…, 2" / "deals": a number and the word it counts are
    joined by a no-break space."""
    texts = (
        {k: str(v) for k, v in KEYS.items()}
        if lang == "en"
        else {m.context: str(m.string) for m in TRANSLATIONS[lang] if m.id}
    )
    words = r"(deals?|el|points?|puan|puana|cards?|kart|players|oyuncu)"
    apart = re.compile(r"(\{[a-z_]+\}|\b\d+) " + words + r"(?![\wçğıöşü])")
    said = {k: v for k, v in texts.items() if k.startswith("rules.sum_") and apart.search(v)}
    assert not said, said
