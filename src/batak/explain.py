"""The rules in words: a table's one-line summary and every option explained, in every language."""

from __future__ import annotations

import dataclasses
import functools
import re
import types
from collections.abc import Iterable
from typing import Any, Literal, Union, cast, get_args, get_origin, get_type_hints

from .i18n import LANGS, MESSAGES, suit_name, text
from .rules import PRESETS, Bidding, Rules, RulesError

__all__ = [
    "FORM_OPTIONS",
    "MATCH_FIELDS",
    "NUMBER",
    "empty_value",
    "form_catalog",
    "form_choices",
    "option_help",
    "option_label",
    "option_names",
    "preset_source",
    "preset_summary",
    "preset_title",
    "rules_catalog",
    "same_as",
    "value_help",
]


def t(code: str, lang: str, /, **params: Any) -> str:
    return text(f"rules.{code}", lang, **params)


def option_names() -> list[str]:
    """Every table option, in the order of :class:`~batak.rules.Rules` (not its ``name``)."""
    return [f.name for f in dataclasses.fields(Rules) if f.name != "name"]


#: options whose sentence speaks of an ihale (a bid, the bidder): at a Koz Maça table, where each
#: player says their own söz, they are said of the söz (``rules.kozmaca_min_bid``, ...)
_SAID_OF_THE_SOZ = frozenset(
    {"bidding", "min_bid", "max_bid", "overtricks_count", "down_scoring", "down_penalty"}
    | {"overtrick_points", "overtrick_limit"}
)
#: options whose short name speaks of a teklif or an ihale (``rules.kozmaca_label_min_bid``, ...)
_LABELS_OF_THE_SOZ = frozenset({"bidding", "min_bid", "max_bid"})
#: the same for the values of an option: Sultan's "others 1 a trick" (no others at Koz Maça)
_VALUES_OF_THE_SOZ = {
    ("scoring", "sultan"): "kozmaca_scoring_sultan",
    ("scoring", "simple"): "kozmaca_scoring_simple",
    ("scoring", "tens"): "kozmaca_scoring_tens",
    ("scoring", "primli"): "kozmaca_scoring_primli",
    ("down_scoring", "bid"): "kozmaca_down_scoring_bid",
    ("down_scoring", "shortfall"): "kozmaca_down_scoring_shortfall",
}


def option_help(option: str, lang: str, rules: Rules | None = None) -> str:
    """What the option decides, in a sentence; at a Koz Maça table (``rules``), of the söz.

    >>> option_help("min_bid", "tr", PRESETS["sultan-kozmaca"])
    'bundan düşük söz söylenemez (masa izin veriyorsa sıfır söz hariç)'
    """
    if rules is not None and rules.bidding == "kozmaca" and option in _SAID_OF_THE_SOZ:
        return t(f"kozmaca_{option}", lang)
    return text(f"option.{option}", lang)


def option_label(option: str, lang: str, rules: Rules | None = None) -> str:
    """The option's short name for a form or a table of rules ("Must overtake"); at a Koz Maça
    table (``rules``) the lowest and highest are of the söz, not of an auction's teklif, and
    the bidding is the söz's (there is no ihale).

    >>> option_label("bidding", "tr", PRESETS["sultan-kozmaca"]), option_label("bidding", "tr")
    ('Söz usulü', 'İhale usulü')
    """
    if rules is not None and rules.bidding == "kozmaca" and option in _LABELS_OF_THE_SOZ:
        return t(f"kozmaca_label_{option}", lang)
    return text(f"option_label.{option}", lang)


def value_help(option: str, value: object, lang: str, rules: Rules | None = None) -> str | None:
    """What one value of an option that takes a word means, or None for other options; at a
    Koz Maça table (``rules``), of the söz."""
    soz = _VALUES_OF_THE_SOZ.get((option, str(value)))
    if rules is not None and rules.bidding == "kozmaca" and soz is not None:
        return t(soz, lang)
    key = f"value.{option}.{value}"
    return text(key, lang) if key in MESSAGES else None


def empty_value(rules: Rules, option: str, lang: str) -> str | None:
    """What an option left empty means at this table, where it means more than "none": a match
    with no fixed number of deals goes on until the target score. None for any other option,
    and for an option that has a value. Every rules page says it so (``batak rules``, the web
    rules page through :func:`rules_catalog`).

    >>> empty_value(PRESETS["esli-acik"], "deals", "en")  # (played in pairs)
    'until a side reaches 51\xa0points'
    >>> empty_value(PRESETS["esli-acik"], "deals", "tr")
    'bir takım 51\xa0puana ulaşana kadar'
    >>> solo = dataclasses.replace(PRESETS["standard"], deals=None, target_score=101, tie="shared")
    >>> empty_value(solo, "deals", "en")
    'until a player reaches 101\xa0points'
    >>> empty_value(PRESETS["standard"], "deals", "en") is None  # 8 deals
    True
    """
    if getattr(rules, option) is not None:
        return None
    if option == "deals" and rules.target_score is not None:
        return t(
            "deals_to_target_sides" if rules.partners else "deals_to_target",
            lang,
            n=rules.target_score,
        )
    return None


#: options that matter only at some tables: the test that says whether they do
_APPLIES: dict[str, Any] = {
    "kitty_order": lambda r: r.kitty_size > 0,
    # a kitty goes to an auction's winner: without an auction there is none (Koz Maça)
    "kitty_size": lambda r: r.bidding == "auction",
    "exposed_partner": lambda r: r.partners,
    "min_bid": lambda r: r.bidding != "none",
    "max_bid": lambda r: r.bidding != "none",
    "all_pass": lambda r: r.bidding == "auction",
    # who deals again after a throw-in: only where everyone's pas throws the cards in
    "redeal_dealer": lambda r: r.bidding == "auction" and r.all_pass == "redeal",
    # still overtaking after a ruff: only where overtaking is the rule at all
    "overtake_after_ruff": lambda r: r.overtake,
    "zero_bid": lambda r: r.bidding == "kozmaca",
    # as the rules' own checks refuse them elsewhere (batak rules listed them as if in force)
    "first_lead": lambda r: r.bidding == "auction",
    "defenders_minimum": lambda r: r.partners,
    "down_scoring": lambda r: r.bidding != "none",
    "down_penalty": lambda r: r.bidding != "none",
    "overtrick_points": lambda r: r.bidding != "none",
    "overtrick_limit": lambda r: r.bidding != "none",
    "king": lambda r: r.players == 4 and r.bidding == "auction",
    "zero_trick_penalty": lambda r: r.bidding != "kozmaca" and r.scoring != "acik",
}


def option_applies(rules: Rules, option: str) -> bool:
    """Whether ``option`` changes anything at this table: a kitty's order needs a kitty, an
    auction's options an auction, Koz Maça's zero bid Koz Maça.

    >>> standard = PRESETS["standard"]
    >>> option_applies(standard, "kitty_order"), option_applies(standard, "overtake")
    (False, True)
    >>> option_applies(PRESETS["zipi-kitty"], "kitty_order")
    True
    >>> option_applies(standard, "redeal_dealer")  # everyone's pas gives the dealer the ihale
    False
    >>> option_applies(standard.replace(all_pass="redeal"), "redeal_dealer")
    True
    """
    test = _APPLIES.get(option)
    return True if test is None else bool(test(rules))


def preset_source(name: str, lang: str) -> str:
    """Where a preset comes from: the guide it follows (``sultan-esli`` -> Batak Sultan)."""
    for key in (f"source.{name}", f"source.{name.split('-')[0]}"):
        if key in MESSAGES:
            return text(key, lang)
    return name


def preset_title(name: str, lang: str) -> str:
    """A preset's name as players read it; the preset's own name is what the programs take.

    >>> preset_title("sultan-esli", "en"), preset_title("zipi-kitty", "tr")
    ('Batak Sultan · eşli', 'Zipi · üç kişilik (dipli)')
    """
    key = f"title.{name}"
    return text(key, lang) if key in MESSAGES else name


def same_as(name: str) -> str | None:
    """The earlier preset whose table is this one's under another name, if any: a list of
    tables shows it once (``cetinsgame-ihaleli`` is ``standard``), while both names stay valid
    wherever a preset's name is taken.

    >>> same_as("cetinsgame-ihaleli"), same_as("standard"), same_as("cetinsgame-esli")
    ('standard', None, None)
    """
    rules = PRESETS[name]
    for other, earlier in PRESETS.items():
        if other == name:
            return None
        if earlier.replace(name=name) == rules:
            return other
    return None


def preset_summary(rules: Rules, lang: str, bidding: Bidding | None = None) -> str:
    """A one-line description of a table, built from its options; with ``bidding``, of the
    same table with that bidding instead of its own (the private-room form's summary once the
    player switches the bidding there: a table the server may refuse is described all the same).

    >>> preset_summary(PRESETS["sultan-kozmaca"], "en")
    'Koz Maça, each player bids once, bids\xa01–13, Sultan scoring (10 × bid), 11\xa0deals'
    >>> preset_summary(PRESETS["sultan-kozmaca"], "en", bidding="auction")
    'ihaleli, ihale\xa01–13, koz always spades, Sultan scoring (10\xa0×\xa0bid), 11\xa0deals'
    >>> preset_summary(PRESETS["sultan-kozmaca"], "tr", bidding="auction")
    'ihaleli, ihale\xa01–13, koz hep maça, Sultan puanı (10\xa0×\xa0ihale), 11\xa0el'
    """
    if bidding is None:
        bidding = rules.bidding
    parts: list[str] = []
    if rules.kitty_size:
        parts.append(
            t(
                "sum_kitty",
                lang,
                players=rules.players,
                hand=rules.hand_size,
                kitty=rules.kitty_size,
            )
        )
    elif rules.exposed_partner:
        parts.append(t("sum_acik", lang))
    elif rules.partners:
        parts.append(t("sum_esli", lang))
    elif bidding == "kozmaca":
        parts.append(t("sum_kozmaca_bids", lang))
    elif bidding == "none":
        parts.append(t("sum_kozmaca_none", lang))
    else:
        parts.append(t("sum_ihaleli", lang))
    if bidding == "auction":
        parts.append(t("sum_auction", lang, low=rules.min_bid, high=rules.max_bid))
        if rules.fixed_trump is not None:  # the winner names no koz (a Koz Maça's, switched)
            parts.append(t("sum_fixed_koz", lang, suit=suit_name(str(rules.fixed_trump), lang)))
    elif bidding == "kozmaca":
        parts.append(t("sum_bids", lang, low=rules.min_bid, high=rules.max_bid))
    scoring_code = "sum_acik_scoring" if rules.scoring == "acik" else f"sum_{rules.scoring}"
    if scoring_code == "sum_sultan" and bidding != "auction":
        scoring_code = "sum_sultan_kozmaca"  # each player's own bid: a söz, not an ihale
    parts.append(t(scoring_code, lang))
    if rules.zero_trick_penalty != "none":
        parts.append(t("sum_batak", lang))
    if rules.deals is not None:
        code = "sum_deal" if rules.deals == 1 else "sum_deals"
        parts.append(t(code, lang, n=rules.deals))
    if rules.target_score is not None:
        parts.append(t("sum_target", lang, n=rules.target_score))
    return ", ".join(parts)


# ---------------------------------------------------------------------- for clients


def _kind(tp: Any) -> tuple[str, list[Any], bool]:
    """An option's kind (``bool``, ``int``, ``choice``, ``suit``), its choices, and nullable."""
    nullable = False
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        nullable = len(args) < len(get_args(tp))
        tp = args[0]
        origin = get_origin(tp)
    if tp is bool:
        return "bool", [], nullable
    if tp is int:
        return "int", [], nullable
    if origin is Literal:
        return "choice", list(get_args(tp)), nullable
    return "suit", ["S", "H", "D", "C"], nullable


#: The options the private-room form draws one control each for (its match length, deals and
#: target score, are its two fields of their own: :data:`MATCH_FIELDS`)
FORM_OPTIONS: tuple[str, ...] = tuple(
    o for o in option_names() if o not in ("deals", "target_score")
)
#: The form's two match fields, as ``create`` reads them: a number of deals (the match then has
#: no target score) or a target score (the match then has no fixed number of deals); left
#: empty, the preset's
MATCH_FIELDS: tuple[str, ...] = ("deals", "target_score")
#: a number option's field: any whole number within a range, not one of a few choices
NUMBER = "#"
#: the whole numbers tried for a number option (its field when all of them up to
#: ``_NUMBER_TOP`` pass: then every number up to the engine's 1000 is taken to pass too, which
#: ``tests/server/test_server_form_choices.py`` checks number by number)
_NUMBER_TRIED = 21
_NUMBER_TOP = 1000


def _accepts(base: Rules, changes: dict[str, Any]) -> bool:
    """Whether ``create`` would take this preset with these changes: the same validation
    (:meth:`Rules.replace`, which :meth:`Rules.preset` runs)."""
    try:
        base.replace(**changes)
    except (RulesError, TypeError, ValueError, KeyError, AttributeError):
        return False
    return True


def _domain(option: str) -> list[Any]:
    kind, choices, nullable = _kind(get_type_hints(Rules)[option])
    values: list[Any] = [None] if nullable else []
    if kind == "bool":
        return [False, True]
    if kind == "int":
        return values + list(range(_NUMBER_TRIED)) + [_NUMBER_TOP]
    return values + list(choices)


def form_choices(rules: Rules) -> dict[str, Any]:
    """What the private-room form may offer at a preset, found by the engine's own validation
    (what ``create`` runs), never listed by hand.

    ``choices``: each option's values that ``create`` takes with the preset's other options;
    an option with one value is fixed at this table. A number option whose field takes
    any number has ``"#"`` for "a number", within ``numbers[option]`` (lowest, highest). The
    match fields (:data:`MATCH_FIELDS`) have ``None`` (left empty: the preset's) and ``"#"``
    (a number typed in).
    ``companions``: the values ``create`` refuses alone but takes with one other option
    changed too, ``[option, value, other option, its value]`` (the first such change found,
    tried through the engine like the rest: "no bidding" once a koz is fixed, a target score
    once the tie-break is another than the last deal's tricks); each is among its option's
    ``choices``, and the form, when it is chosen, sets the other option too and says so.
    ``clashes``: the pairs of those values that ``create`` refuses together (a value with a
    companion tried with its companion, unless the pair is the companion's option),
    ``[option, value, option, value]``. A table the form allows (every value among its
    option's choices, no two of them clashing) is one ``create`` takes; the form offers only
    those, so each control offers only the values that clash with none of the others'.
    ``applies``: for each option that changes nothing at some tables, the values of the other
    options it needs to change anything (``{option: {other: [values]}}``; ``None``: it changes
    nothing at any table the form makes here): the form shows it only while every other
    option named has one of those values (no "if everyone passes" where no one bids).

    >>> form = form_choices(PRESETS["standard"])
    >>> form["choices"]["bidding"], form["choices"]["players"], form["numbers"]["down_penalty"]
    (['auction', 'none'], [3, 4], [0, 1000])
    >>> ["overtake", False, "overtake_after_ruff", True] in form["clashes"]
    True
    >>> form_choices(PRESETS["zipi-kozmaca"])["choices"]["bidding"]
    ['auction', 'kozmaca', 'none']
    >>> form["choices"]["target_score"]  # a target needs another tie-break than the last deal's
    [None, '#']
    >>> [c for c in form["companions"] if c[0] == "target_score"]
    [['target_score', '#', 'tie', 'shared']]
    >>> ["players", 3, "kitty_size", 13] in form["companions"]  # three players: 13 cards left
    True
    >>> ["bidding", "none", "fixed_trump", "S"] in form_choices(PRESETS["cetinsgame-ihaleli"])[
    ...     "companions"
    ... ]
    True
    >>> form["applies"]["all_pass"], form["applies"]["redeal_dealer"]
    ({'bidding': ['auction']}, {'bidding': ['auction'], 'all_pass': ['redeal']})
    >>> ["tie", "last_deal_tricks", "target_score", "#"] in form_choices(PRESETS["zipi-esli"])[
    ...     "clashes"
    ... ]
    True
    """
    base = rules.to_dict()
    domains = {o: _domain(o) for o in FORM_OPTIONS}

    seen: dict[frozenset[tuple[str, str]], bool] = {}  # each table tried once

    def takes(*changes: dict[str, Any]) -> bool:
        merged = {o: v for c in changes for o, v in c.items()}
        diff = {o: v for o, v in merged.items() if v != base[o]}
        key = frozenset((o, repr(v)) for o, v in diff.items())
        if key not in seen:
            seen[key] = _accepts(rules, diff)
        return seen[key]

    choices = {o: [v for v in domains[o] if takes({o: v})] for o in FORM_OPTIONS}
    numbers: dict[str, list[int]] = {}
    # each value shown and the changes to the preset it stands for (each one tried)
    tried: dict[str, dict[Any, list[dict[str, Any]]]] = {}
    for o in FORM_OPTIONS:
        ints = [v for v in choices[o] if isinstance(v, int) and not isinstance(v, bool)]
        if (
            _NUMBER_TOP in ints
            and ints[0] < _NUMBER_TRIED
            and set(range(ints[0], _NUMBER_TRIED)) <= set(ints)
        ):
            # a number field: any number from the lowest taken up to the top
            numbers[o] = [ints[0], _NUMBER_TOP]
            rest = [v for v in choices[o] if v not in ints]
            choices[o] = [*rest, NUMBER]
            tried[o] = {v: [{o: v}] for v in rest} | {NUMBER: [{o: ints[0]}, {o: _NUMBER_TOP}]}
        else:
            choices[o] = [v for v in choices[o] if v != _NUMBER_TOP or v == base[o]]
            tried[o] = {v: [{o: v}] for v in choices[o]}
    # the match fields: left empty (the preset's), or a number typed in, which ``create``
    # reads as that many deals and no target score, or that target and no fixed deals
    other = {"deals": "target_score", "target_score": "deals"}
    for o in MATCH_FIELDS:
        tried[o] = {None: [{}], NUMBER: [{o: n, other[o]: None} for n in (1, _NUMBER_TOP)]}
        choices[o] = [v for v in tried[o] if all(takes(c) for c in tried[o][v])]
    # the values refused alone that one other change makes taken: offered with that change,
    # tried with it. The other value is one taken alone if one will do, else one that is itself
    # offered with a change (a pair that only goes together: three players and a 13-card kitty
    # at a four-player preset), so that the form can show it
    refused: dict[str, dict[Any, list[dict[str, Any]]]] = {}
    for o in FORM_OPTIONS + MATCH_FIELDS:
        if o in numbers:
            continue  # a number field's range is what it takes alone
        values = (
            {NUMBER: tried[o][NUMBER]}
            if o in MATCH_FIELDS
            else {v: [{o: v}] for v in domains[o] if v != _NUMBER_TOP or v == base[o]}
        )
        refused[o] = {v: alone for v, alone in values.items() if v not in choices[o]}

    named: dict[tuple[str, str], set[str]] = {}  # the options each refusal names

    def names(o: str, v: Any) -> set[str]:
        if (o, repr(v)) not in named:
            found: set[str] = set()
            for c in refused[o][v]:
                try:
                    rules.replace(**{x: y for x, y in c.items() if y != base[x]})
                except RulesError as e:
                    said = set(re.findall(r"\b([a-z_]+)=", str(e)))
                    found |= said & set(FORM_OPTIONS + MATCH_FIELDS)
            named[(o, repr(v))] = found
        return named[(o, repr(v))]

    def companion(o: str, v: Any, also: dict[str, set[Any]]) -> tuple[str, Any] | None:
        # only the options the engine names in its refusal: the others cannot change it. A
        # match field's companion is a number typed in it ("#": the last deal's tricks as the
        # tie-break at a table played to a target needs a number of deals), which the form
        # cannot type for the player: it says the value needs it
        for pool in (choices, also):
            for o2 in FORM_OPTIONS + MATCH_FIELDS:
                if o2 == o or o2 in numbers or o2 not in names(o, v):
                    continue
                for v2 in pool.get(o2, ()):
                    if o2 in MATCH_FIELDS and v2 == NUMBER and o not in MATCH_FIELDS:
                        if all(takes(c, t) for c in refused[o][v] for t in tried[o2][NUMBER]):
                            return o2, v2
                    elif (
                        o2 not in MATCH_FIELDS
                        and v2 != base[o2]
                        and (o2, v2) != (o, v)
                        and all(takes(c, {o2: v2}) for c in refused[o][v])
                    ):
                        return o2, v2
        return None

    # the other values first tried: every refused one; then only those found a companion,
    # until each companion's value is one the form shows (a few rounds at most)
    also = {o: set(vs) for o, vs in refused.items() if o in FORM_OPTIONS}
    found: dict[tuple[str, Any], tuple[str, Any]] = {}
    for _ in range(5):
        found = {}
        for o, vs in refused.items():
            for v in vs:
                c = companion(o, v, also)
                if c is not None:
                    found[(o, v)] = c
        shown = {o: {v for (o1, v) in found if o1 == o} for o in also}
        if all(c[1] in choices[c[0]] or c[1] in shown[c[0]] for c in found.values()):
            break
        also = shown
    found = {k: c for k, c in found.items() if c[1] in choices[c[0]] or c in found}
    companions: list[list[Any]] = []
    for (o, v), (o2, v2) in found.items():
        companions.append([o, v, o2, v2])
        if o2 in MATCH_FIELDS:
            tried[o][v] = [c | t for c in refused[o][v] for t in tried[o2][NUMBER]]
        else:
            tried[o][v] = [c | {o2: v2} for c in refused[o][v]]
    for o in refused:
        order = [None, NUMBER] if o in MATCH_FIELDS else domains[o]
        choices[o] = [x for x in order if x in choices[o] or (o, x) in found]

    def own(o: str, v: Any, change: dict[str, Any], o2: str, v2: Any) -> dict[str, Any]:
        """The part of a value's change that is its own, not its companion's; a match field
        left empty where the other value's companion is a number typed in it: the preset's."""
        if o in MATCH_FIELDS and v is None and found.get((o2, v2), ("",))[0] == o:
            return {o: base[o], other[o]: base[other[o]]}
        brought = found.get((o, v), ("",))[0]
        brought_keys = set(MATCH_FIELDS) if brought in MATCH_FIELDS else {brought}
        return {k: x for k, x in change.items() if k not in brought_keys}

    clashes: list[list[Any]] = []
    open_options = [o for o in FORM_OPTIONS + MATCH_FIELDS if len(choices[o]) > 1]
    for i, o1 in enumerate(open_options):
        for o2 in open_options[i + 1 :]:
            for v1 in choices[o1]:
                for v2 in choices[o2]:
                    # the pair's own values win over the changes their companions bring
                    if not all(
                        takes(a, b, own(o1, v1, a, o2, v2), own(o2, v2, b, o1, v1))
                        for a in tried[o1][v1]
                        for b in tried[o2][v2]
                    ):
                        clashes.append([o1, v1, o2, v2])
    return {
        "choices": choices,
        "numbers": numbers,
        "companions": companions,
        "clashes": clashes,
        "applies": _applies(rules, choices),
    }


def _applies(rules: Rules, choices: dict[str, list[Any]]) -> dict[str, dict[str, list[Any]] | None]:
    """For each option that changes nothing at some tables (:func:`option_applies`), the
    values of each other option it needs, among the form's ``choices``: an other option's value
    is needed if no table one more option away from the preset with that value has the option
    applying (two more, for an option that applies at no table one change away: who deals again
    after a throw-in at a Koz Maça preset needs an ihale and a throw-in; each test is a plain
    "and" of such conditions)."""
    base = rules.to_dict()
    singles: list[dict[str, Any]] = [{}] + [
        {o: v} for o in FORM_OPTIONS for v in choices[o] if v != NUMBER and v != base[o]
    ]

    def table(*changes: dict[str, Any]) -> Rules:
        # the table as described, not validated (Rules checks itself when made): whether an
        # option changes anything there reads only its options
        merged = base | {o: v for c in changes for o, v in c.items()}
        return cast(Rules, types.SimpleNamespace(**merged))

    # tables two changes away, for an option that needs two (who deals again after a throw-in
    # at a Koz Maça preset: an ihale, and a throw-in when everyone passes)
    @functools.cache
    def pairs() -> list[dict[str, Any]]:  # (made only where needed: most presets never do)
        return [
            a | b for i, a in enumerate(singles) for b in singles[i + 1 :] if a.keys().isdisjoint(b)
        ]

    out: dict[str, dict[str, list[Any]] | None] = {}
    for option in _APPLIES:
        if option not in FORM_OPTIONS:
            continue
        if any(option_applies(table(c), option) for c in singles):
            pool = singles
        elif any(option_applies(table(c), option) for c in pairs()):
            pool = pairs()
        else:
            out[option] = None  # it changes nothing at any table the form makes here
            continue
        needs: dict[str, list[Any]] = {}
        for o in FORM_OPTIONS:
            if o == option:
                continue
            values = [v for v in choices[o] if v != NUMBER]
            ok = [
                v
                for v in values
                if any(option_applies(table(c, {o: v}), option) for c in pool if o not in c)
            ]
            if len(ok) < len(values):
                needs[o] = ok
        out[option] = needs
    return out


@functools.cache
def _form(rules: Rules) -> dict[str, Any]:
    """:func:`form_choices`, worked out once per table (about a second for the 14 presets)."""
    return form_choices(rules.replace(name="custom"))


def form_catalog(names: Iterable[str] | None = None) -> dict[str, Any]:
    """What the private-room form offers at each preset, ready to be sent as JSON (``GET
    /api/rules/form``, asked for only when a player opens the form): :func:`form_choices`,
    and ``bidding_summary``, the table's summary with each other bidding offered there (the
    form's summary follows a switch of the bidding), in every language. The engine tries every
    option of every preset: seconds of work, where :func:`rules_catalog` is cheap; with
    ``names``, of those presets only (the web client asks for the one chosen in the form).

    >>> forms = form_catalog()
    >>> forms["standard"]["choices"]["bidding"], list(forms["standard"]["bidding_summary"])
    (['auction', 'none'], ['none'])
    """
    out: dict[str, Any] = {}
    for name in PRESETS if names is None else names:
        rules = PRESETS[name]
        form = _form(rules)
        out[name] = form | {
            "bidding_summary": {
                b: {lang: preset_summary(rules, lang, bidding=b) for lang in LANGS}
                for b in get_args(Bidding)
                if b != rules.bidding and b in form["choices"]["bidding"]
            }
        }
    return out


def rules_catalog() -> dict[str, Any]:
    """Every preset and option, ready to be sent as JSON: each option's kind and choices, and
    each text in every language of the catalog (the web client's rules pages and room form;
    what the form offers at each preset is :func:`form_catalog`'s, sent apart).

    >>> cat = rules_catalog()
    >>> [p["name"] for p in cat["presets"]][:2]
    ['standard', 'sultan-ihaleli']
    >>> opt = cat["options"]["overtake"]
    >>> opt["kind"], opt["help"]["tr"].split(":")[0], opt["label"]["en"]
    ('bool', 'yükseltme', 'Must overtake')
    >>> cat["presets"][0]["unused"]
    ['kitty_order', 'exposed_partner', 'redeal_dealer', 'zero_bid', 'defenders_minimum']
    >>> acik = next(p for p in cat["presets"] if p["name"] == "esli-acik")
    >>> acik["empty"]["deals"]["en"], cat["presets"][0]["empty"]
    ('until a side reaches 51\xa0points', {})
    """
    hints = get_type_hints(Rules)
    options: dict[str, Any] = {}
    for name in option_names():
        kind, choices, nullable = _kind(hints[name])
        values: dict[str, dict[str, str]] = {}
        for choice in choices:
            if value_help(name, choice, "en") is not None:
                values[str(choice)] = {lang: value_help(name, choice, lang) or "" for lang in LANGS}
        options[name] = {
            "kind": kind,
            "choices": choices,
            "nullable": nullable,
            "label": {lang: option_label(name, lang) for lang in LANGS},
            "help": {lang: option_help(name, lang) for lang in LANGS},
            "values": values,
        }
    presets = [
        {
            "name": name,
            "title": {lang: preset_title(name, lang) for lang in LANGS},
            "source": {lang: preset_source(name, lang) for lang in LANGS},
            "summary": {lang: preset_summary(rules, lang) for lang in LANGS},
            "rules": rules.to_dict(),
            # the options that change nothing at this table (a kitty's order without a kitty):
            # a rules page names them once rather than showing them with a value
            "unused": [o for o in option_names() if not option_applies(rules, o)],
            # a preset that is another's table under an older name: lists leave it out
            "same_as": same_as(name),
            # what an option left empty means here, where it means more than "none" (no
            # fixed number of deals: until the target score), in every language
            "empty": {
                o: {lang: empty_value(rules, o, lang) or "" for lang in LANGS}
                for o in option_names()
                if empty_value(rules, o, "en") is not None
            },
        }
        for name, rules in PRESETS.items()
    ]
    return {"presets": presets, "options": options, "kozmaca": _kozmaca_words(options)}


def _kozmaca_words(options: dict[str, Any]) -> dict[str, Any]:
    """The words of each option that are said otherwise at a Koz Maça table (each player says a
    söz; there is no ihale): its ``label``, ``help`` and ``values`` where they differ from the
    general ones in ``options``, in every language, as ``batak rules`` says them there.

    >>> words = rules_catalog()["kozmaca"]
    >>> words["min_bid"]["label"]["tr"], words["down_scoring"]["values"]["shortfall"]["en"]
    ('En düşük söz', 'only the tricks missing from the söz')
    >>> "label" in words["scoring"], "overtake" in words
    (False, False)
    """
    soz = next(r for r in PRESETS.values() if r.bidding == "kozmaca")
    out: dict[str, Any] = {}
    for name, general in options.items():
        said: dict[str, Any] = {}
        label = {lang: option_label(name, lang, soz) for lang in LANGS}
        if label != general["label"]:
            said["label"] = label
        sentence = {lang: option_help(name, lang, soz) for lang in LANGS}
        if sentence != general["help"]:
            said["help"] = sentence
        values = {}
        for choice in general["choices"]:
            if value_help(name, choice, "en", soz) is None:
                continue
            meaning = {lang: value_help(name, choice, lang, soz) or "" for lang in LANGS}
            if meaning != general["values"].get(str(choice)):
                values[str(choice)] = meaning
        if values:
            said["values"] = values
        if said:
            out[name] = said
    return out
