"""``batak rules [NAME]``: list the tables or explain one, option by option."""

from __future__ import annotations

import argparse
import textwrap

from ..explain import (
    empty_value,
    option_applies,
    option_help,
    option_label,
    option_names,
    preset_source,
    preset_summary,
    value_help,
)
from ..rules import PRESETS, Rules
from .console import (
    EXIT_OK,
    Console,
    Style,
    unknown_preset,
    wrap_text,
)
from .text import t


def _value_text(rules: Rules, option: str, lang: str, style: Style) -> str:
    value = getattr(rules, option)
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    if value is None:  # (no fixed number of deals: until the target score)
        return empty_value(rules, option, lang) or t("none", lang)
    if option == "fixed_trump":
        return style.koz(value.value, lang)
    meaning = value_help(option, value, lang, rules)
    return str(value) if meaning is None else f"{value} — {meaning}"


def changed_rules(rules: Rules, lang: str, style: Style) -> str | None:
    """The line that names the options a table changed from its preset (``batak play --option``),
    with their values; None when it plays the preset as it is. The number of deals is said by
    the table's summary already.

    >>> r = PRESETS["standard"].replace(must_trump=False, deals=2)
    >>> changed_rules(r, "en", Style(None))
    'Changed from the standard table: Must trump when void: no'
    >>> changed_rules(PRESETS["standard"], "tr", Style(None)) is None
    True
    """
    preset = PRESETS.get(rules.name)
    if preset is None:
        return None
    items = []
    for option in option_names():
        value = getattr(rules, option)
        if option == "deals" or value == getattr(preset, option):
            continue
        # a word's meaning, not its code ("her an", not "any_time"); numbers and yes/no as such
        meaning = value_help(option, value, lang, rules) if isinstance(value, str) else None
        shown = meaning or _value_text(rules, option, lang, style)
        items.append(f"{option_label(option, lang, rules)}: {shown}")
    if not items:
        return None
    return t("changed_rules", lang, name=rules.name, items=", ".join(items))


def rules_lines(name: str | None, lang: str, style: Style) -> list[str]:
    """The list of tables, or the page of the table ``name``, in lines of at most
    ``style.width`` columns (at most 92 on a wide terminal), broken at spaces."""
    width = min(style.width, 92)
    if name is None:
        out = [*wrap_text(t("rules_title", lang), width), ""]
        column = max(len(n) for n in PRESETS)
        for preset, rules in PRESETS.items():
            line = (
                f"{preset:<{column}}  {preset_source(preset, lang)}: {preset_summary(rules, lang)}"
            )
            out += ["  " + x for x in wrap_text(line, width - 2, indent=" " * (column + 2))]
        return out
    rules = PRESETS[name]
    header = t("rules_header", lang, name=name, summary=preset_summary(rules, lang))
    out = [style.bold(line) for line in wrap_text(header, width)]
    out += [*wrap_text(t("rules_source", lang, source=preset_source(name, lang)), width), ""]
    indent = " " * 6
    unused = []  # options that change nothing at this table, named once at the end
    for option in option_names():
        if not option_applies(rules, option):
            unused.append(option)
            continue
        # the name people read, and the one --option takes
        named = option_label(option, lang, rules)  # ("Eşli (partners)" names its code already)
        label = named if f"({option})" in named else f"{named} ({option})"
        line = f"{label}: {_value_text(rules, option, lang, style)}"
        out += ["  " + x for x in wrap_text(line, width - 2)]
        out.extend(
            textwrap.wrap(
                option_help(option, lang, rules),
                width,
                initial_indent=indent,
                subsequent_indent=indent,
            )
        )
    if unused:
        line = t("rules_unused", lang, options=", ".join(unused))
        out += ["", *wrap_text(line, width)]
    if rules.partners and not rules.exposed_partner:  # the bots' convention (bots.signals)
        out += ["", style.bold(t("rules_signals_title", lang))]
        out += textwrap.wrap(
            t("rules_signals", lang), width, initial_indent="  ", subsequent_indent="  "
        )
    out += ["", style.bold(t("rules_habits_title", lang))]  # bots.knowledge.play_bias
    out += textwrap.wrap(
        t("rules_habits", lang), width, initial_indent="  ", subsequent_indent="  "
    )
    return out


# ---------------------------------------------------------------------- rules command
def cmd_rules(args: argparse.Namespace, con: Console, lang: str) -> int:
    if args.name is not None and args.name not in PRESETS:
        return unknown_preset(con, lang, args.name)
    con.lines(rules_lines(args.name, lang, Style(con.out)))
    return EXIT_OK
