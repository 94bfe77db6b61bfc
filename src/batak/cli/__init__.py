"""The ``batak`` command: play in the terminal, replay a record, explain the tables.

``batak play`` puts you at a table with computer players (:mod:`batak.bots`, any level), for a whole
match under any preset. ``batak replay FILE`` shows a saved match trick by trick, and
``batak rules [NAME]`` lists the tables or explains one. Every text exists in Turkish and English
(``--lang``; the default follows the locale).

>>> import contextlib, io
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = main(["rules", "--lang", "en"])
>>> code, "sultan-kozmaca" in out.getvalue()
(0, True)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..i18n import LANGS, default_lang
from .analyse import add_analyse_parser, cmd_analyse
from .arena import add_arena_parser, run_arena
from .bot import add_bot_parser, run_bot
from .console import EXIT_OK, Console
from .parser import Parser, add_lang_option
from .play import cmd_play
from .replay import cmd_replay
from .rules import cmd_rules
from .serve import add_serve_parser, run_serve
from .story import cmd_story
from .text import t

__all__ = ["build_parser", "main"]


# ---------------------------------------------------------------------- main
def build_parser(lang: str) -> argparse.ArgumentParser:
    # "COMMAND ..." in the usage and the commands under their own title: the ten names in
    # braces took 79 columns of a 60-column terminal, headed "positional arguments"; listed
    # first, what a newcomer looks for, then the options
    commands = {
        "dest": "command",
        "title": t("commands_title", lang),
        "metavar": t("metavar_command", lang),
    }
    parser = Parser(
        prog="batak", description=t("prog_description", lang), lang=lang, commands=commands
    )
    sub = parser.commands
    parser.add_argument(
        "--version", action="version", version=f"batak {__version__}", help=t("help_version", lang)
    )
    add_lang_option(parser, lang, top=True)  # before the command's name, or after it

    def lang_option(p: argparse.ArgumentParser) -> None:
        add_lang_option(p, lang)

    play = sub.add_parser("play", help=t("help_play", lang), description=t("help_play", lang))
    play.add_argument(
        "--preset", type=str.lower, default=None, metavar="NAME", help=t("help_preset", lang)
    )  # None: not given (standard), so that --load can say it leaves it unused
    play.add_argument("--seat", type=int, default=None, metavar="N", help=t("help_seat", lang))
    play.add_argument("--seed", default=None, metavar="S", help=t("help_seed", lang))
    lang_option(play)
    play.add_argument("--deals", type=int, default=None, metavar="N", help=t("help_deals", lang))
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help=t("help_option", lang),
    )
    play.add_argument(  # (a file, or a record's address on a server)
        "--load", default=None, metavar="FILE|URL", help=t("help_load", lang)
    )
    play.add_argument("--save", default=None, metavar="FILE", help=t("help_save", lang))
    play.add_argument("--level", default=None, metavar="LEVEL", help=t("help_level", lang))
    play.add_argument(  # the story mode (issue 13 item 5)
        "--story",
        nargs="?",
        type=int,
        const=0,
        default=None,
        metavar="N",
        help=t("help_story", lang),
    )

    replay = sub.add_parser(
        "replay", help=t("help_replay", lang), description=t("help_replay", lang)
    )
    replay.add_argument("file", metavar="FILE|URL", help=t("help_file", lang))
    lang_option(replay)
    replay.add_argument("--deal", type=int, default=None, metavar="N", help=t("help_deal", lang))
    replay.add_argument("--step", action="store_true", help=t("help_step", lang))
    replay.add_argument("--review", action="store_true", help=t("help_review", lang))

    rules = sub.add_parser("rules", help=t("help_rules", lang), description=t("help_rules", lang))
    rules.add_argument(
        "name", nargs="?", type=str.lower, default=None, metavar="NAME", help=t("help_name", lang)
    )
    lang_option(rules)
    add_analyse_parser(sub, lang, lang_option)
    add_arena_parser(sub, lang)
    add_serve_parser(sub, lang)
    add_bot_parser(sub, lang)
    from .online import add_online_parser

    add_online_parser(sub, lang)
    from .admin import add_admin_parser  # chips (issue 12): the operator's commands

    add_admin_parser(sub, lang)
    from .verify import add_verify_parser  # issue 12: deals anyone can verify

    add_verify_parser(sub, lang)
    return parser


def _prepare_stdout() -> None:
    """Never crash on a terminal that cannot print a character: replace it instead."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")


def _lang_in(argv: Sequence[str]) -> str | None:
    """The ``--lang`` given on the command line, if any, so that ``--help`` speaks it too: the
    last one given, as argparse keeps (``batak --lang en play --lang tr`` plays in Turkish), and
    written as argparse takes it, whole or shortened (``--la tr``, ``--lan=tr``).

    >>> _lang_in(["--lang", "en", "play", "--la", "tr"]), _lang_in(["play", "--lan=tr"])
    ('tr', 'tr')
    >>> _lang_in(["play", "--", "--lang", "tr"]) is None  # (after "--" nothing is an option)
    True
    """
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if len(name) < 3 or not "--lang".startswith(name):
            continue
        if not equals:
            value = argv[i + 1] if i + 1 < len(argv) else ""
        if value in LANGS:
            found = value
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``batak`` command; returns the exit code (0 fine, 2 bad input or record)."""
    env_lang = _lang_in(argv if argv is not None else sys.argv[1:]) or default_lang()
    parser = build_parser(env_lang)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    _prepare_stdout()
    lang: str = getattr(args, "lang", None) or env_lang
    con = Console(sys.stdout, sys.stdin)
    try:
        if args.command == "play":
            if args.story is not None:
                return cmd_story(args, con, lang)
            return cmd_play(args, con, lang)
        if args.command == "replay":
            return cmd_replay(args, con, lang)
        if args.command == "analyse":
            return cmd_analyse(args, con, lang)
        if args.command == "arena":
            return run_arena(args)
        if args.command == "bot":
            return run_bot(args, lang)
        if args.command == "serve":
            return run_serve(args, lang)
        if args.command == "verify":
            from .verify import run_verify

            return run_verify(args, con, lang)
        if args.command == "admin":
            from .admin import run_admin

            return run_admin(args, lang)
        if args.command == "online":
            from .online import run_online

            return run_online(args, con, lang)
        return cmd_rules(args, con, lang)
    except KeyboardInterrupt:
        if args.command != "serve":  # a server has said that it stopped, and why nothing is lost
            con.say()
            con.say(t("bye", lang))
        return 130
    except BrokenPipeError:  # e.g. `batak rules | head`: the reader left, so stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
