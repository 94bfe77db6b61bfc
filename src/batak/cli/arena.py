"""``batak arena``: the command that runs the bot arena (:mod:`batak.arena`) with a progress bar."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from ..arena.runner import ArenaConfig, ArenaError, check_spec, report_lines, run, write_plot
from ..bots import PlayerError, level_word
from ..i18n import default_lang, text
from ..rules import PRESETS, Rules, RulesError
from .analyse import unwritable
from .console import Style
from .parser import add_lang_option, rules_reason, rules_with_options
from .play import save_problem
from .rules import changed_rules
from .text import error_at, player_problem


class Progress:
    """A text progress bar on a stream: boards done/total, rate and ETA; silent if disabled."""

    def __init__(self, total: int, stream: TextIO, *, enabled: bool, label: str = "boards") -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled
        self.label = label
        self.start = time.monotonic()
        self.done = 0
        self._last = 0.0
        self._width = 0

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else math.nan
        width = 30
        filled = int(width * done / self.total) if self.total else width
        bar = "#" * filled + "." * (width - filled)
        eta_txt = _clock(eta) if not math.isnan(eta) else "--:--"
        line = f"[{bar}] {done}/{self.total} {self.label}  {rate:.1f}/s  ETA {eta_txt}"
        if done >= self.total:
            line = f"[{bar}] {done}/{self.total} {self.label}  {rate:.1f}/s  {_clock(elapsed)}"
        self.stream.write("\r" + line.ljust(self._width) + ("\n" if done >= self.total else ""))
        self._width = max(self._width, len(line))
        self.stream.flush()


def _clock(seconds: float) -> str:
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def add_arena_parser(subparsers: Any, lang: str | None = None) -> argparse.ArgumentParser:
    """Register ``batak arena`` on an argparse ``subparsers`` object."""
    lg = lang or default_lang()

    def h(code: str) -> str:
        return text(f"arena.{code}", lg)

    p: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help=h("help"), description=h("help"), epilog=h("help_more")
    )
    p.add_argument("--bots", default="medium,easy", metavar="A,B", help=h("help_bots"))
    p.add_argument("--field", default=None, metavar="BOT", help=h("help_field"))
    p.add_argument(
        "--preset", type=str.lower, default="standard", metavar="NAME", help=h("help_preset")
    )
    p.add_argument(
        "--rule", action="append", default=[], metavar="OPTION=VALUE", help=h("help_rule")
    )
    p.add_argument("--deals", type=int, default=1500, metavar="N", help=h("help_deals"))
    p.add_argument("--seed", default="1", metavar="S", help=h("help_seed"))
    p.add_argument("--common-seeds", action="store_true", help=h("help_common_seeds"))
    p.add_argument("--jobs", type=int, default=None, metavar="N", help=h("help_jobs"))
    p.add_argument("--out", default=None, metavar="FILE", help=h("help_out"))
    p.add_argument("--plot", default=None, metavar="FILE", help=h("help_plot"))
    p.add_argument("--no-plot", action="store_true", help=h("help_no_plot"))
    p.add_argument("--budget", type=float, default=None, metavar="S", help=h("help_budget"))
    p.add_argument("--quiet", action="store_true", help=h("help_quiet"))
    add_lang_option(p, lg, help=h("help_lang"))
    return p


def config_from_args(args: argparse.Namespace) -> ArenaConfig:
    """The :class:`ArenaConfig` of parsed ``batak arena`` arguments (raises ArenaError)."""
    lang = getattr(args, "lang", None) or default_lang()
    if args.preset not in PRESETS:
        raise ArenaError(
            text("arena.unknown_preset", lang, name=args.preset, names=", ".join(PRESETS))
        )
    try:
        rules = rules_with_options(args.preset, args.rule)
    except RulesError as e:  # (a misspelt option's near name, as batak play --option says it)
        message = rules_reason(e, args.preset, lang)
        raise ArenaError(
            text("arena.bad_rule", lang, option=", ".join(args.rule), message=message)
        ) from e
    if args.deals < 1:
        raise ArenaError(text("arena.bad_deals", lang))
    # a level in either language (zor, kolay: as batak play --level takes them)
    bots = tuple(level_word(b.strip()) for b in args.bots.split(",") if b.strip())
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    field_spec = level_word(args.field.strip()) if args.field else None
    config = ArenaConfig(
        bots=bots,
        rules=rules,
        deals=args.deals,
        seed=seed,
        field=field_spec,
        budget=args.budget,
        common_seeds=args.common_seeds,
    )
    try:
        config.pattern()
    except ArenaError:
        if field_spec is None and len(bots) < 2:
            raise ArenaError(text("arena.need_bots", lang)) from None
        raise ArenaError(
            text("arena.too_many", lang, count=len(config.specs), seats=rules.players)
        ) from None
    for spec in config.specs:
        try:
            check_spec(spec)
        except ArenaError as e:
            cause = e.__cause__
            why = player_problem(cause, lang) if isinstance(cause, PlayerError) else str(e)
            raise ArenaError(text("arena.unknown_bot", lang, spec=spec, message=why)) from e
    return config


#: where ``--out`` writes when it is not given; its folder is made if missing (only this one)
DEFAULT_OUT = Path("results") / "arena.json"


def output_problem(args: argparse.Namespace, lang: str) -> str | None:
    """Why the files of the run could not be written, said before the run (a folder that does
    not exist is refused, not made); None when they can be. Only the default ``results/``
    folder is made."""
    if args.out is None:
        try:
            DEFAULT_OUT.parent.mkdir(exist_ok=True)
        except OSError as e:
            return text(
                "arena.cannot_write", lang, path=str(DEFAULT_OUT), message=save_problem(e, lang)
            )
    targets = [Path(args.out) if args.out is not None else DEFAULT_OUT]
    if args.plot and not args.no_plot:
        targets.append(Path(args.plot))
    for path in targets:
        problem = unwritable(path)
        if problem is not None:
            return text(
                "arena.cannot_write", lang, path=str(path), message=save_problem(problem, lang)
            )
    return None


def failure_text(error: ArenaError, lang: str) -> str:
    """What a player did wrong during a run, in ``lang`` (the worker wrote it in English)."""
    p = dict(error.params)
    if error.code == "arena.player_raised":
        p["error"] = error_at(p["error"], p.pop("where", None), lang)
        return text("arena.player_raised", lang, **p)
    if error.code == "arena.player_not_text":
        return text("arena.player_not_text", lang, **p)
    if error.code == "arena.player_illegal":
        reasons = p.pop("reasons")
        return text("arena.player_illegal", lang, reason=reasons.get(lang, reasons["en"]), **p)
    return str(error)


def run_arena(
    args: argparse.Namespace, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run ``batak arena`` with parsed arguments; returns the exit code (0, 1 a player failed,
    2 bad input, 130 interrupted)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    lang = getattr(args, "lang", None) or default_lang()
    try:
        config = config_from_args(args)
    except ArenaError as e:
        err.write(text("arena.error", lang, message=str(e)) + "\n")
        return 2
    cannot = output_problem(args, lang)
    if cannot is not None:  # said now, not after a run of minutes
        err.write(text("arena.error", lang, message=cannot) + "\n")
        return 2
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    isatty = getattr(err, "isatty", None)
    bar = Progress(
        config.deals,
        err,
        enabled=not args.quiet and isatty is not None and bool(isatty()),
        label=text("arena.boards", lang),
    )
    try:
        result = run(config, jobs=max(1, jobs), progress=bar.update)
    except ArenaError as e:
        failed = text("arena.bot_failed", lang, message=failure_text(e, lang))
        err.write(text("arena.error", lang, message=failed) + "\n")
        return 1
    except KeyboardInterrupt:
        err.write("\n" + text("arena.interrupted", lang) + "\n")
        return 130
    # the files first, then the report: a reader that leaves early (``| head``) closes the pipe
    # (main stops quietly), and the results are kept all the same
    json_path = Path(args.out) if args.out is not None else DEFAULT_OUT
    written: list[Path] = []
    fallback = False
    problem: str | None = None  # a file that could not be written
    try:
        json_path.write_text(
            json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        written.append(json_path)
        if not args.no_plot:
            have = importlib.util.find_spec("matplotlib") is not None
            plot_path = (
                Path(args.plot) if args.plot else json_path.with_suffix(".png" if have else ".svg")
            )
            written.append(write_plot(result, plot_path, lang=lang))
            fallback = written[-1] != plot_path
    except OSError as e:
        problem = text(
            "arena.cannot_write",
            lang,
            path=str(e.filename or json_path),
            message=save_problem(e, lang),
        )
    lines = report_lines(result, lang)
    changed = changed_rules(Rules.from_dict(result["config"]["rules"]), lang, Style(out))
    if changed is not None:  # under the title, as batak play says it: the options --rule changed
        lines.insert(1, changed)
    for line in lines:
        out.write(line + "\n")
    out.write("\n")
    for i, path in enumerate(written):
        if i == 1 and fallback:
            out.write(text("arena.plot_fallback", lang) + "\n")
        out.write(text("arena.written", lang, path=str(path)) + "\n")
    if problem is not None:
        err.write(text("arena.error", lang, message=problem) + "\n")
        return 2
    return 0
