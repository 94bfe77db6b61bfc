"""``batak analyse RECORD``: where each deal of a saved match lost its tricks (the deal review of
:mod:`batak.bots.review`: every card judged double dummy, the bidding against what the hands were
worth), in the reader's language, with a progress bar and an optional JSON file."""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import os
from pathlib import Path
from typing import Any

from ..bots.review import review_deal, summary_lines
from ..game import Phase
from .console import (
    EXIT_OK,
    CommandError,
    Console,
    ProgressBar,
    Style,
    fail,
    no_such_deal,
    read_record,
    seat_labels,
    whole_names,
    wrap_text,
)
from .play import save_problem
from .rules import changed_rules
from .text import t
from .verify import fetch_record

__all__ = ["add_analyse_parser", "cmd_analyse"]


def add_analyse_parser(sub: Any, lang: str, lang_option: Any) -> None:
    p = sub.add_parser("analyse", help=t("help_analyse", lang), description=t("help_analyse", lang))
    p.add_argument("file", metavar="FILE|URL", help=t("help_file", lang))
    lang_option(p)
    p.add_argument("--deal", type=int, default=None, metavar="N", help=t("help_deal", lang))
    p.add_argument("--top", type=int, default=5, metavar="N", help=t("help_top", lang))
    p.add_argument("--seconds", type=float, default=None, metavar="S", help=t("help_seconds", lang))
    p.add_argument("--json", default=None, metavar="FILE", help=t("help_analyse_json", lang))


def unwritable(path: Path) -> OSError | None:
    """Why the file ``path`` could not be written (a folder of that name, no such folder, no
    permission), found without writing it; None when it looks writable.

    >>> unwritable(Path("/nonexistent/dir/x.json")).errno == errno.ENOENT
    True
    """
    folder = path.parent
    if path.is_dir():
        return IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not folder.is_dir():
        return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(folder))
    if not os.access(path if path.exists() else folder, os.W_OK):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    return None


def cmd_analyse(args: argparse.Namespace, con: Console, lang: str) -> int:
    style = Style(con.out)
    if args.top < 1:
        return fail(con, lang, t("bad_top", lang, n=args.top))
    if args.seconds is not None and not args.seconds > 0:
        return fail(con, lang, t("bad_seconds", lang, s=f"{args.seconds:g}"))
    try:
        # a file, or a record's address on a server (as batak bot says it)
        match, human, names = read_record(args.file, lang, fetch_record(args.file, lang))
    except CommandError as e:
        return fail(con, lang, str(e))
    if args.json:  # said now, not after a review of many seconds
        problem = unwritable(Path(args.json))
        if problem is not None:
            msg = save_problem(problem, lang)
            return fail(con, lang, t("save_failed", lang, path=args.json, message=msg))
    games = match.games
    if args.deal is not None and not 1 <= args.deal <= len(games):
        return fail(con, lang, no_such_deal(lang, len(games), args.deal))
    chosen = range(len(games)) if args.deal is None else [args.deal - 1]
    labels = seat_labels(match.rules.players, human, lang, names)
    bar = ProgressBar(lang)
    report: list[dict[str, Any]] = []
    title = t("analyse_title", lang, path=args.file, name=match.rules.name)
    con.lines([style.bold(x) for x in wrap_text(title, style.width)])  # a path is long: worded
    changed = changed_rules(match.rules, lang, style)  # the options the table changed
    if changed is not None:
        con.wrapped(changed, width=style.width)
    con.wrapped(t("analyse_note", lang), width=style.width)
    for i in chosen:
        game = games[i]
        con.say()
        heading = t("deal_header", lang, n=i + 1, of="", dealer=labels[game.dealer])
        con.wrapped(style.bold(heading), width=style.width)
        if game.phase is not Phase.OVER:
            con.say(t("unfinished", lang))  # what is reviewed stops where the record does
            if game.phase is not Phase.PLAY:
                continue  # no card played yet: nothing to review
        elif game.contract is None and game.rules.bidding == "auction":
            con.say(t("redeal_note", lang))
            continue

        progress = bar.on_deal(i + 1, len(games))  # deal 4 of 11, even with --deal 4
        review = review_deal(game, seconds=args.seconds, progress=progress)
        bar.end()
        lines = summary_lines(
            review, whole_names(labels), lang, you=human, limit=args.top, card=style.card
        )
        con.wrapped(*lines, width=style.width)
        report.append(
            {
                "deal": i + 1,
                "complete": review.complete,
                "bidding": [dataclasses.asdict(b) for b in review.bidding],
                "decisions": [
                    {**dataclasses.asdict(d), "cost": d.cost, "defence_cost": d.defence_cost}
                    for d in review.decisions
                ],
            }
        )
    if args.json:
        try:
            Path(args.json).write_text(
                json.dumps({"file": args.file, "deals": report}, ensure_ascii=False, indent=1)
                + "\n",
                encoding="utf-8",
            )
        except OSError as e:
            msg = save_problem(e, lang)
            return fail(con, lang, t("save_failed", lang, path=args.json, message=msg))
        con.say(t("review_written", lang, path=args.json))
    return EXIT_OK
