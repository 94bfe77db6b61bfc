"""argparse in the reader's language: the help screen's own words (usage, section titles, the
help option) and its errors come from the catalog like every other text of ``batak``.

>>> import contextlib, io
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
...     Parser(prog="batak", lang="tr").parse_args(["--nope"])
>>> err.getvalue().splitlines()
['kullanım: batak [-h]', 'batak: hata: tanınmayan argümanlar: --nope']
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import textwrap
from collections.abc import Iterable
from typing import Any, NoReturn

from ..i18n import LANGS, folded, text
from ..rules import Rules, RulesError
from .text import error_message, t

__all__ = [
    "Parser",
    "add_lang_option",
    "near_name",
    "rules_problem",
    "rules_reason",
    "rules_with_options",
]


def add_lang_option(
    parser: argparse.ArgumentParser, lang: str, *, top: bool = False, help: str | None = None
) -> None:
    """``--lang`` on ``parser``: on the ``batak`` command itself (``top``) and on each of its
    commands, so that it is taken before the command's name or after it (``batak --lang tr
    play`` and ``batak play --lang tr``). A command's own ``--lang`` has no default: argparse
    copies every default of a command over what the words before its name gave, and a
    default there undid ``batak --lang tr play``.

    >>> top = Parser(prog="batak", lang="en")
    >>> add_lang_option(top, "en", top=True)
    >>> play = top.add_subparsers(dest="command").add_parser("play")
    >>> add_lang_option(play, "en")
    >>> [top.parse_args(a).lang for a in (["--lang", "tr", "play"], ["play", "--lang", "tr"])]
    ['tr', 'tr']
    >>> top.parse_args(["play"]).lang is None
    True
    """
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=None if top else argparse.SUPPRESS,
        help=t("help_lang", lang) if help is None else help,
    )


#: yes, no and none as the rules pages show them (``batak rules``, in English and Turkish)
_WORDS: dict[str, Any] = {
    "yes": True, "no": False, "evet": True, "hayır": False, "hayir": False,
    "none": None, "yok": None,
}  # fmt: skip


#: the options whose values are words (bidding=none, zero_trick_penalty=none): "none" there is
#: the option's own word, not "no value"
_WORD_OPTIONS = frozenset(
    f.name for f in dataclasses.fields(Rules) if isinstance(f.default, str) and f.name != "name"
)


def _option_value(raw: str, key: str = "") -> Any:
    if key in _WORD_OPTIONS:
        return raw.lower()  # the words are lower case: Auction, NONE
    for word in folded(raw.strip()) & _WORDS.keys():  # HAYIR, Evet, NONE
        return _WORDS[word]
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def rules_with_options(preset: str, options: Iterable[str]) -> Rules:
    """The preset with ``OPTION=VALUE`` changes (``batak play --option``, ``batak arena --rule``):
    a value is read as JSON when it is JSON (``true``, ``3``, ``null``), else as a word.

    >>> rules_with_options("standard", ["must_trump=false", "all_pass=redeal"]).must_trump
    False
    >>> rules_with_options("standard", ["must_trump=hayır"]).must_trump  # as the rules page says
    False
    >>> rules_with_options("esli-acik", ["must_trump=No", "deals=none"]).deals is None
    True
    >>> rules_with_options("standard", ["zero_trick_penalty=none"]).zero_trick_penalty
    'none'
    """
    rules = Rules.preset(preset)
    changes: dict[str, Any] = {}
    for opt in options:
        key, sep, raw = opt.partition("=")
        if not sep:
            raise RulesError("write_option", option=opt)
        changes[key.strip()] = _option_value(raw.strip(), key.strip())
    return rules.replace(**changes) if changes else rules


def rules_problem(error: RulesError, preset: str, lang: str) -> str:
    """Why ``--option`` changes were refused, in ``lang`` (``batak play``): the engine's reason
    as :func:`rules_reason` says it; for a value the rules refuse, that the rules "do not work".

    >>> e = RulesError("unknown_options", names=["musttrump"])
    >>> rules_problem(e, "standard", "en")
    "unknown rule option(s): musttrump; did you mean must_trump? 'batak rules standard' lists them"
    """
    if error.code != "unknown_options":
        return t("bad_rules", lang, message=error.text(lang))
    return rules_reason(error, preset, lang)


#: Names whose job cannot be undone: guessed only from a near-spelling of the name itself.
IRREVERSIBLE = frozenset({"erase"})


def near_name(typed: str, known: Iterable[str]) -> str | None:
    """The name in ``known`` that ``typed`` (a command, a job, an option or a rule option typed
    wrong) most likely meant, or None. First a name of which ``typed`` is, uniquely, a whole
    word or the start of one (at least 3 letters: ``ledger`` for ``ledger-check``, ``report``
    for ``chip-report``); else the closest spelling (difflib, 0.7). A job that cannot be undone
    (:data:`IRREVERSIBLE`) is only ever guessed from a near-spelling of its own name.

    >>> jobs = ["players", "ban", "export", "erase", "ledger-check", "chip-report", "vip"]
    >>> [near_name(x, jobs) for x in ("playres", "ledger", "report", "eras", "erse")]
    ['players', 'ledger-check', 'chip-report', 'erase', 'erase']
    >>> [near_name(x, jobs) for x in ("users", "reset", "release", "rate", "import", "era")]
    [None, None, None, None, None, None]
    >>> near_name("--prot", ["--port", "--host"]), near_name("musttrump", ["must_trump"])
    ('--port', 'must_trump')
    """
    import difflib

    names = list(dict.fromkeys(known))
    bare = typed.lstrip("-").lower()

    def careful(name: str) -> bool:  # an irreversible job, and typed is not its near-spelling
        near = difflib.SequenceMatcher(None, bare, name.lstrip("-").lower()).ratio()
        return name.lstrip("-") in IRREVERSIBLE and near < 0.8

    if len(bare) >= 3:
        starts = [
            name
            for name in names
            if any(word.startswith(bare) for word in re.split(r"[-_]", name.lstrip("-").lower()))
            or name.lstrip("-").lower().startswith(bare)
        ]
        if len(starts) == 1 and not careful(starts[0]):
            return starts[0]
    close = difflib.get_close_matches(typed, names, n=1, cutoff=0.7)
    return close[0] if close and not careful(close[0]) else None


def rules_reason(error: RulesError, preset: str, lang: str) -> str:
    """The engine's reason for refusing ``OPTION=VALUE`` changes (``batak play --option``,
    ``batak arena --rule``), in ``lang``; for an option name the rules do not have, the one it
    resembles (a typo: ``musttrump``) and where the names are listed.

    >>> rules_reason(RulesError("unknown_options", names=["overtak"]), "zipi-kitty", "en")
    "unknown rule option(s): overtak; did you mean overtake? 'batak rules zipi-kitty' lists them"
    >>> rules_reason(RulesError("not_bool", key="must_trump", value="maybe"), "standard", "en")
    'must_trump must be yes or no, got maybe'
    """
    if error.code != "unknown_options":
        return error.text(lang)
    known = [f.name for f in dataclasses.fields(Rules) if f.name != "name"]
    said = error.text(lang) + "; "
    for name in error.params.get("names", []):
        close = near_name(str(name), known)
        if close:  # (the question ends the clause: no semicolon after its mark)
            said += t("arg_did_you_mean", lang, option=close) + " "
            break
    return said + t("option_names_listed", lang, preset=preset)


#: A placeholder as the commands write it (``PLACEHOLDER@dest`` where one placeholder means
#: two things: ``S`` is seconds, but the seed for ``--seed``) -> the catalog's key for it.
_PLACEHOLDERS: dict[str, str] = {
    "FILE": "metavar_file", "DIR": "metavar_dir", "URL": "metavar_url", "TEXT": "metavar_text",
    "NAME": "metavar_name", "USERNAME": "admin_metavar_username", "PASSWORD": "metavar_password",
    "NEW_PASSWORD": "metavar_new_password", "OPTION=VALUE": "metavar_option_value",
    "LEVEL": "metavar_level", "S": "metavar_seconds", "S@seed": "metavar_seed",
    "MIN": "metavar_minutes", "DAYS": "metavar_days", "ID": "metavar_id", "CODE": "metavar_code",
    "PRESET": "metavar_preset", "MODE": "metavar_mode", "CHIPS": "metavar_chips",
    "MODULE:CLASS": "metavar_module_class", "RECORD": "metavar_record",
    "ORIGIN": "metavar_origin", "HOST": "metavar_host", "file": "metavar_file",
    "FILE|URL": "metavar_file_or_url",
}  # fmt: skip

#: A command's usage longer than this many lines is shown with an error as one line.
USAGE_LINES = 6


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose fixed words are in ``lang``; its subcommands'
    parsers (``add_subparsers().add_parser``) are made in the same language.

    Made with ``commands`` (:meth:`add_subparsers`'s arguments), its commands are
    ``parser.commands`` and its help lists them before the options, what a newcomer looks for
    first (``batak``'s commands, ``batak admin``'s jobs):

    >>> top = Parser(prog="batak", lang="en", commands={"dest": "command", "title": "commands"})
    >>> _ = top.commands.add_parser("play", help="play a match")
    >>> _ = top.add_argument("--version", action="store_true", help="the version")
    >>> print(top.format_help())  # doctest: +NORMALIZE_WHITESPACE
    usage: batak [-h] [--version] {play} ...
    <BLANKLINE>
    commands:
      play        play a match
    <BLANKLINE>
    options:
      -h, --help  show this help and exit
      --version   the version
    <BLANKLINE>
    """

    def __init__(
        self, *args: Any, lang: str = "en", commands: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        self.lang = lang
        self._suggest: str | None = None  # for an unknown option: the known one it resembles
        kwargs.setdefault("formatter_class", argparse.HelpFormatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = t("positionals", lang)
        self._optionals.title = t("options", lang)
        self._options: Any = None  # where its options go, when not argparse's own group
        if commands is not None:
            self.commands = self.add_subparsers(**commands)
            # argparse lists the groups in the order they were made: the options get a group
            # of their own, made after the commands', and every option goes into it
            self._options = self.add_argument_group(t("options", lang))
        self.add_argument(
            "-h", "--help", action="help", default=argparse.SUPPRESS, help=t("help_help", lang)
        )

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """As argparse's; on a parser made with ``commands``, an option goes into the options'
        group, listed after the commands (see :class:`Parser`)."""
        if self._options is not None and args and str(args[0]).startswith("-"):
            action: argparse.Action = self._options.add_argument(*args, **kwargs)
            return action
        return super().add_argument(*args, **kwargs)

    def localise_placeholders(self) -> None:
        """Its arguments' placeholders (``FILE``, ``DIR``, ``URL``...) in its language: every
        command writes them in English, and argparse shows them in the usage, the help and the
        errors ("şu argümanlar gerekli: FILE"). A placeholder the catalog does not name (``N``,
        ``A,B``) or one already in the language (admin's ``İŞ``) stays as it is.

        >>> p = Parser(prog="batak", lang="tr")
        >>> _ = p.add_argument("file", metavar="FILE"); _ = p.add_argument("--port")
        >>> _ = p.add_argument("--seed", metavar="S"); _ = p.add_argument("--deals", metavar="N")
        >>> p.format_usage().split("]", 1)[1].split()
        ['[--port', 'PORT]', '[--seed', 'TOHUM]', '[--deals', 'N]', 'DOSYA']
        """
        if self.lang == "en":
            return
        for action in self._actions:
            if not action.option_strings and action.choices is not None:
                continue  # the commands' list: {play,replay,...}
            shown = action.metavar
            if shown is None and action.option_strings and action.nargs != 0:
                shown = action.dest.upper()
            elif shown is None and not action.option_strings:
                shown = action.dest
            if not isinstance(shown, str):
                continue
            key = _PLACEHOLDERS.get(f"{shown}@{action.dest}") or _PLACEHOLDERS.get(shown)
            if key is not None:
                action.metavar = t(key, self.lang)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.localise_placeholders()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self.localise_placeholders()
        return super().format_usage()

    def format_help(self) -> str:
        self.localise_placeholders()
        return super().format_help()

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", _in_lang(self.lang))
        self._commands = super().add_subparsers(**kwargs)
        return self._commands

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """As argparse's, but an argument nobody knows is refused by the (sub)command it was
        given to, with that command's usage: argparse's own refusal came from the top parser,
        whose usage (``batak {play,serve,...}``) does not say where the mistake is.

        >>> import contextlib, io
        >>> top = Parser(prog="batak", lang="en")
        >>> serve = top.add_subparsers(dest="command").add_parser("serve")
        >>> _ = serve.add_argument("--port")
        >>> err = io.StringIO()
        >>> with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
        ...     top.parse_args(["serve", "--prot", "80"])
        >>> print(err.getvalue().strip())
        usage: batak serve [-h] [--port PORT]
        batak serve: error: unrecognized arguments: --prot 80; did you mean --port?
        """
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            here: Parser = self
            while (commands := getattr(here, "_commands", None)) is not None:
                chosen = getattr(parsed, commands.dest, None)
                if chosen not in commands.choices:
                    break
                here = commands.choices[chosen]
            here._suggest = here.closest_option(extra)
            here.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed

    def closest_option(self, words: list[str]) -> str | None:
        """This command's option closest to the first unknown option in ``words`` (a typo:
        ``--prot`` for ``--port``), or None.

        >>> p = Parser(prog="batak serve", lang="en")
        >>> _ = p.add_argument("--port"); _ = p.add_argument("--host")
        >>> p.closest_option(["--prot", "80"]), p.closest_option(["--colour"])
        ('--port', None)
        """
        known = [o for o in self._option_string_actions if o.startswith("--")]
        for word in words:
            if word.startswith("--"):
                return near_name(word.split("=", 1)[0], known)
        return None

    def _get_formatter(self) -> argparse.HelpFormatter:
        return _Formatter(prog=self.prog, lang=self.lang)

    def error(self, message: str) -> NoReturn:
        wrong = _BAD_LANG.match(message)
        if wrong is not None:  # one line: the usage would not say which languages there are
            names = ", ".join(f"{code} ({text('language.name', code)})" for code in LANGS)
            said = t("arg_bad_lang", self.lang, value=wrong["value"], langs=names)
            self.exit(2, error_message(self.lang, said, self.prog) + "\n")
        usage = self.format_usage()
        if usage.count("\n") > USAGE_LINES:  # the error would scroll past a usage that long
            usage = t("usage", self.lang) + t("usage_short", self.lang, prog=self.prog) + "\n"
        sys.stderr.write(usage)
        said = translate_error(message, self.lang)
        suggest = self._suggest or closest_choice(message)
        if suggest:
            said += "; " + t("arg_did_you_mean", self.lang, option=suggest)
        self.exit(2, error_message(self.lang, said, self.prog) + "\n")


def closest_choice(message: str) -> str | None:
    """For argparse's "invalid choice" (a command or a job typed wrong), the choice closest to
    what was typed, or None.

    >>> closest_choice("argument JOB: invalid choice: 'playres' (choose from 'players', 'ban')")
    'players'
    >>> closest_choice("argument JOB: invalid choice: 'xyz' (choose from 'players', 'ban')")
    """
    m = _ARGUMENT.match(message)
    found = _ERRORS[0][0].match(m["message"] if m else message)
    if found is None:
        return None
    typed = found["value"].strip("'")
    choices = [c.strip().strip("'") for c in found["choices"].split(",")]
    return near_name(typed, choices)


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, lang: str) -> None:
        super().__init__(prog)
        self.lang = lang

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(
            usage, actions, groups, t("usage", self.lang) if prefix is None else prefix
        )

    # A usage wider than the terminal is laid out here, not by argparse, with its parts whole
    # (a group such as ``batak online``'s "[--quick MODE | --join CODE | --create PRESET]"
    # never broken, where Python 3.13's argparse breaks it at a "|"): the parts after the
    # command's name as Python 3.11's argparse lays them, or, where a part does not fit after
    # the name (that group, 66 columns at a 60-column terminal), the name on a line of its
    # own and the parts under "usage:", as argparse lays out a usage whose name is long. This
    # leans on argparse's private parts (``_format_usage``, ``_format_actions_usage``,
    # ``_width``, ``_current_indent``, ``_prog``: the same from Python 3.11 to 3.13; no
    # public API gives a parser's actions or the usage's parts): a later Python that renames
    # or changes them gets argparse's own usage, whole, never an error.
    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any) -> str:
        said: str = super()._format_usage(usage, actions, groups, prefix)
        if usage is not None or said.count("\n") <= 2:  # given, or one line: argparse's own
            return said
        try:
            laid = self._parts_usage(actions, groups, prefix)
        except (AttributeError, TypeError, ValueError):  # (argparse's private parts changed)
            return said
        # the same words, only laid out otherwise; else (argparse's parts changed) its own
        return laid if sorted(laid.split()) == sorted(said.split()) else said

    def _parts_usage(self, actions: Any, groups: Any, prefix: Any) -> str:
        """The usage laid out as :meth:`_format_usage` says."""
        width = self._width - self._current_indent  # (argparse keeps 2 columns free)
        head = t("usage", self.lang) if prefix is None else prefix
        prog = str(self._prog)
        options, places = (
            self._usage_parts([a for a in actions if bool(a.option_strings) == kind], groups)
            for kind in (True, False)
        )
        if len(head) + len(prog) <= 0.75 * width:  # after the name, if every part fits there
            indent = " " * (len(head) + len(prog) + 1)
            if options:
                lines = _wrap([prog, *options], indent, width, head)
                lines += _wrap(places, indent, width)
            else:
                lines = _wrap([prog, *places], indent, width, head)
            if all(len(x) <= width + 2 for x in lines):
                return "\n".join(lines) + "\n\n"
        indent = " " * len(head)
        lines = _wrap([*options, *places], indent, width)
        if len(lines) > 1:
            lines = _wrap(options, indent, width) + _wrap(places, indent, width)
        return "\n".join([head + prog, *lines]) + "\n\n"

    def _usage_parts(self, actions: Any, groups: Any) -> list[str]:
        """The usage's parts of ``actions``: a group whole, a required option with its value."""
        shown = self._format_actions_usage(actions, groups)
        parts: list[str] = []
        for part in _USAGE_PART.findall(shown):
            if parts and parts[-1].startswith("-") and not part.startswith(("-", "[", "(")):
                parts[-1] += " " + part
            else:
                parts.append(part)
        return parts

    # A section's title wider than the terminal (serve's "cluster (several processes on
    # PostgreSQL and Redis; see docs/cluster.md):", 73 columns) goes on on a second line (its
    # width from argparse's private ``_width``: without it, the title as argparse shows it)
    def start_section(self, heading: str | None) -> None:
        width = getattr(self, "_width", None)
        if heading is not None and isinstance(width, int):
            width = max(width - getattr(self, "_current_indent", 0) - 1, 20)  # (the colon)
            heading = "\n".join(textwrap.wrap(heading, width, break_on_hyphens=False))
        super().start_section(heading)

    # The help's sentences are broken at spaces only, never at a hyphen nor inside a word: the
    # serve help's example ended a line with "--public-" and began the next with
    # "url https://YOUR-", an option and an address that no longer read (or copy) as one.
    def _split_lines(self, text: str, width: int) -> list[str]:
        text = re.sub(r"[ \t\n\r\f\v]+", " ", text).strip()  # (as argparse: a no-break space kept)
        return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))

    # A list of commands (batak's, admin's jobs) stands under its title, as the options under
    # theirs: argparse put a line with the usage's placeholder alone first ("KOMUT") and the
    # commands indented under it, as if the placeholder were one more thing to type.
    # (argparse's private ``_SubParsersAction`` and ``_get_subactions``: without them, the
    # list as argparse lays it out)
    def _format_action(self, action: argparse.Action) -> str:
        kind = getattr(argparse, "_SubParsersAction", None)
        listed = getattr(action, "_get_subactions", None)
        if isinstance(kind, type) and isinstance(action, kind) and callable(listed):
            return "".join(self._format_action(a) for a in listed())
        return super()._format_action(action)


def _wrap(parts: list[str], indent: str, width: int, head: str | None = None) -> list[str]:
    """``parts`` on lines of ``width`` columns at most (one wider only if it is), each line
    after ``indent``; with ``head``, the first line begins with it instead (argparse's own
    wrapping of a usage's parts, Python 3.11).

    >>> _wrap(["batak", "[-h]", "[--name NAME]"], "       ", 20, "usage: ")
    ['usage: batak [-h]', '       [--name NAME]']
    """
    lines: list[str] = []
    line: list[str] = []
    size = len(head if head is not None else indent) - 1
    for part in parts:
        if line and size + 1 + len(part) > width:
            lines.append(indent + " ".join(line))
            line, size = [], len(indent) - 1
        line.append(part)
        size += len(part) + 1
    if line:
        lines.append(indent + " ".join(line))
    if head is not None and lines:
        lines[0] = head + lines[0][len(indent) :]
    return lines


#: a part of a usage as argparse wraps them: a group in brackets or parentheses, else a word
_USAGE_PART = re.compile(r"\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+")

#: argparse's error sentences (CPython 3.11-3.13) -> the catalog's key for the same sentence.
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.*)\)$"),
        "arg_invalid_choice",
    ),
    (re.compile(r"invalid (?P<kind>\w+) value: (?P<value>.+)$"), "arg_invalid_value"),
    (re.compile(r"the following arguments are required: (?P<names>.+)$"), "arg_required"),
    (re.compile(r"unrecognized arguments: (?P<names>.+)$"), "arg_unrecognized"),
    (re.compile(r"expected one argument$"), "arg_expected_one"),
    (re.compile(r"not allowed with argument (?P<other>.+)$"), "arg_not_allowed_with"),
)
#: an int or float option given what is not one (argparse says the Python type's name)
_NOT_A_NUMBER = re.compile(r"invalid (?P<kind>int|float) value: (?P<value>.+)$")
_ARGUMENT = re.compile(r"argument (?P<argument>\S+?): (?P<message>.+)$", re.S)
#: ``--lang`` given a language there is no catalog for
_BAD_LANG = re.compile(r"argument --lang: invalid choice: (?P<value>.+?) \(choose from .*\)$")


def translate_error(message: str, lang: str) -> str:
    """argparse's error sentence in ``lang`` (unchanged when it is not one we know).

    >>> translate_error("argument --seat: invalid int value: 'x'", "tr")
    "--seat için bir tam sayı gerekir: 'x'"
    >>> translate_error("argument --budget: invalid float value: 'x'", "en")
    "--budget needs a number: 'x'"
    >>> translate_error("argument --deal: expected one argument", "tr")
    '--deal seçeneği: bir değer bekleniyor'
    >>> translate_error("argument --tournament: not allowed with argument --join", "tr")
    '--tournament seçeneği: --join ile birlikte verilemez'
    """
    m = _ARGUMENT.match(message)
    if m is not None:
        number = _NOT_A_NUMBER.match(m["message"])
        if number is not None:  # argparse names the Python type: "invalid int value: 'x'"
            key = "arg_not_whole" if number["kind"] == "int" else "arg_not_number"
            return t(key, lang, argument=m["argument"], value=number["value"])
        inner = translate_error(m["message"], lang)
        return t("arg_error", lang, argument=m["argument"], message=inner)
    for pattern, code in _ERRORS:
        found = pattern.match(message)
        if found is not None:
            return t(code, lang, **found.groupdict())
    return message


def _in_lang(lang: str) -> Any:
    def make(**kwargs: Any) -> Parser:
        return Parser(lang=lang, **kwargs)

    return make
