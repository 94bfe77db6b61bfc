"""The texts of the ``batak`` command: catalog entries whose keys start with ``cli.``.

:func:`t` is :func:`batak.i18n.text` with that prefix. Game words stay Turkish in every language
(koz, ihale, pas, batak, yazboz).

>>> t("you", "tr"), t("computer", "en", n=2)
('Sen', 'Computer 2')
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import Any

from ..bots import PlayerError
from ..i18n import text

__all__ = ["error_at", "player_problem", "t"]


def t(code: str, lang: str, /, **params: Any) -> str:
    """The command's text ``code`` in ``lang``."""
    return text(f"cli.{code}", lang, **params)


def error_message(lang: str, message: str, prog: str = "batak", width: int | None = None) -> str:
    """``batak: error: MESSAGE``. On a terminal (or with ``width``) each of its lines is broken
    at spaces to the terminal's width (at most 100 columns), the continuations indented, instead
    of being cut mid-word by the terminal; to a file or a pipe it stays one line per line.

    >>> said = "unknown table 'x'; choose one of: standard, zipi-esli, esli-acik"
    >>> print(error_message("en", said, width=40))
    batak: error: unknown table 'x'; choose
      one of: standard, zipi-esli, esli-acik
    """
    said = t("error", lang, message=message)
    if prog != "batak":
        said = said.replace("batak", prog, 1)
    if width is None and sys.stderr.isatty():
        width = max(40, min(shutil.get_terminal_size((80, 24)).columns, 100))
    if width is None:
        return said
    out: list[str] = []
    for line in said.split("\n"):
        wrap = textwrap.wrap(
            line, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
        )
        out += wrap or [line]
    return "\n".join(out)


def error_at(error: str, where: tuple[str, int, str] | None, lang: str) -> str:
    """``error`` (``IndexError: …``) with where it was raised in the player's code, if known."""
    if where is None:
        return error
    file, line, function = where
    if function:
        return t("player_error_in", lang, error=error, file=file, line=line, function=function)
    return t("player_error_at", lang, error=error, file=file, line=line)


#: the codes of :class:`batak.bots.PlayerError` said by the text ``cli.player_<code>`` filled
#: with the error's own details
_SAID_WITH_ITS_PARAMS = frozenset(
    {"a_file", "import_failed", "no_class", "not_a_player", "no_seed", "init_failed", "no_choose",
     "raised", "illegal", "not_text", "stuck"}
)  # fmt: skip


def player_problem(problem: PlayerError, lang: str) -> str:
    """What is wrong with a player named ``module:Class`` (:func:`batak.bots.load`), or with
    what it did at a table, and what to fix, in ``lang``."""
    p = dict(problem.params)
    if "error" in p:
        p["error"] = error_at(p["error"], p.pop("where", None), lang)
    code = problem.code
    if code == "not_a_name":
        if p.get("levels"):
            message = t("player_not_a_level", lang, spec=p["spec"], levels=p["levels"])
        else:
            message = t("player_not_a_name", lang, spec=p["spec"])
        if p.get("hint"):
            return t("player_did_you_mean", lang, message=message, hint=p["hint"])
        return message
    if code == "no_module":
        return t("player_no_module", lang, module=p["module"], file=_module_file(p["module"]))
    if code == "no_class" and not p["players"]:
        return t("player_no_class_none", lang, **p)
    if code in _SAID_WITH_ITS_PARAMS:
        return t(f"player_{code}", lang, **p)
    return str(problem)  # pragma: no cover - every code of batak.bots and batak.cli is above


def _module_file(module: str) -> str:
    return module.replace(".", "/") + ".py"
