"""The web client: static files served by ``batak serve`` and the rules data they show.

The client itself is plain JavaScript modules in ``static/`` (no build step, nothing to install).
:func:`rules_catalog` is the data behind its rules pages and the private-room form: every preset
with its options, each option's kind and choices, and a short explanation in Turkish and English.

>>> cat = rules_catalog()
>>> [p["name"] for p in cat["presets"]][:2]
['standard', 'sultan-ihaleli']
>>> opt = cat["options"]["overtake"]
>>> opt["kind"], opt["help"]["tr"].split(":")[0]
('bool', 'yükseltme')
"""

from __future__ import annotations

import dataclasses
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from ..cli_text import OPTION_HELP, PRESET_SOURCE, VALUE_TEXT
from ..rules import PRESETS, Rules

__all__ = ["STATIC_DIR", "rules_catalog"]

STATIC_DIR = Path(__file__).with_name("static")

LANGS = ("en", "tr")


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


def _source(name: str) -> dict[str, str]:
    key = name if name in PRESET_SOURCE else name.split("-")[0]
    return PRESET_SOURCE.get(key, {lang: name for lang in LANGS})


def rules_catalog() -> dict[str, Any]:
    """Every preset and option, ready to be sent as JSON (see the module's text)."""
    from ..cli import preset_summary  # the one-line summary the terminal shows too

    hints = get_type_hints(Rules)
    options: dict[str, Any] = {}
    for f in dataclasses.fields(Rules):
        if f.name == "name":
            continue
        kind, choices, nullable = _kind(hints[f.name])
        values = VALUE_TEXT.get(f.name, {})
        options[f.name] = {
            "kind": kind,
            "choices": choices,
            "nullable": nullable,
            "help": OPTION_HELP.get(f.name, {lang: f.name for lang in LANGS}),
            "values": {str(k): v for k, v in values.items()},
        }
    presets = [
        {
            "name": name,
            "source": _source(name),
            "summary": {lang: preset_summary(rules, lang) for lang in LANGS},
            "rules": rules.to_dict(),
        }
        for name, rules in PRESETS.items()
    ]
    return {"presets": presets, "options": options}
