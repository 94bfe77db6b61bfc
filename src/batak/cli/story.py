"""``batak play --story``: the story mode in the terminal, with progress saved on this computer.

The progress is a small JSON file, ``story.json``, in the user's data directory:
``$BATAK_DATA_DIR`` if set, else ``%APPDATA%\\batak`` on Windows, else
``$XDG_DATA_HOME/batak`` (``~/.local/share/batak``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..bots.story import DEALS, PRESET, TABLES, StyledPlayer, character, table_text
from ..match import Match
from ..rules import Rules
from .console import EXIT_OK, Console, Style, fail
from .play import PlaySession, _seed, given_flags, hash_seed
from .text import t

__all__ = ["cmd_story", "data_dir", "load_progress"]


def data_dir() -> Path:
    """Where ``batak`` keeps this user's files (see the module's text)."""
    if os.environ.get("BATAK_DATA_DIR"):
        return Path(os.environ["BATAK_DATA_DIR"])
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "batak"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "batak"


def _fresh() -> dict[str, Any]:
    return {"cleared": 0, "stages": [{"plays": 0, "wins": 0, "best": None} for _ in TABLES]}


def load_progress(path: Path) -> dict[str, Any]:
    """The saved progress (a fresh one if there is none or it cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _fresh()
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("cleared"), int)
        or not isinstance(data.get("stages"), list)
        or len(data["stages"]) != len(TABLES)
    ):
        return _fresh()
    data["cleared"] = max(0, min(len(TABLES), data["cleared"]))
    return data


def _save(path: Path, progress: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(progress, indent=1), encoding="utf-8")
    tmp.replace(path)


def map_lines(progress: dict[str, Any], lang: str, style: Style) -> list[str]:
    """The path of tables: won, open (the next one) and locked."""
    lines = [style.bold(t("story_title", lang))]
    for i, table in enumerate(TABLES):
        rec = progress["stages"][i]
        if i < progress["cleared"]:
            mark = "✓"
        elif i == progress["cleared"]:
            mark = "▶"
        else:
            mark = "🔒"
        who = ", ".join(f"{character(k).portrait} {character(k).name}" for k in table.seats)
        best = "" if rec.get("best") is None else t("story_best", lang, score=rec["best"])
        lines.append(
            f" {mark} {i + 1}. {table.icon} {table_text(table, lang)['name']}: {who}{best}"
        )
    return lines


def cmd_story(args: argparse.Namespace, con: Console, lang: str) -> int:
    style = Style(con.out)
    # the story's tables, seats and rivals are its own: said, not silently dropped
    unused = given_flags(args, "preset", "deals", "option", "seat", "level", "load")
    if unused:
        sys.stderr.write(t("story_unused", lang, options=unused) + "\n")
    path = data_dir() / "story.json"
    progress = load_progress(path)
    con.lines(map_lines(progress, lang, style))
    stage = progress["cleared"] if args.story == 0 else args.story - 1
    if args.story == 0 and stage >= len(TABLES):  # every table won: the final again
        con.say(t("story_all_won", lang))
        stage = len(TABLES) - 1
    if not 0 <= stage < len(TABLES):
        return fail(con, lang, t("story_bad_stage", lang, last=len(TABLES)))
    if stage > progress["cleared"]:
        return fail(con, lang, t("story_locked", lang, stage=stage + 1))
    table = TABLES[stage]
    text = table_text(table, lang)
    con.say()
    con.say(style.bold(f"{table.icon} {text['name']}"))
    con.say(text["story"])
    seed = _seed(args.seed)
    rules = Rules.preset(PRESET).replace(deals=DEALS, target_score=None)
    match = Match(rules, seed=seed)
    players = {}
    for seat, key in zip((1, 2, 3), table.seats, strict=True):
        c = character(key)
        players[seat] = StyledPlayer(
            c.level, c.style, seed=None if seed is None else hash_seed(seed, seat)
        )
        kind = t(f"story_style_{c.style}", lang)
        con.say(f"  {c.portrait} {c.name}: {kind}")
    session = PlaySession(con, match, 0, lang, players, args.save)
    for seat, key in zip((1, 2, 3), table.seats, strict=True):
        session.labels[seat] = session.narrator.labels[seat] = character(key).name
        session.short[seat] = character(key).name.split()[-1]
    con.say(t("help_hint", lang))
    progress["stages"][stage]["plays"] += 1
    _save(path, progress)
    code = session.run(linger=False)  # the story's verdict first, then the last requests
    if not match.over:
        return code
    rec = progress["stages"][stage]
    score = match.totals[0]
    if rec.get("best") is None or score > rec["best"]:
        rec["best"] = score
    if 0 in match.winners:
        rec["wins"] += 1
        progress["cleared"] = max(progress["cleared"], stage + 1)
        con.say(style.bold(t("story_won", lang, name=text["name"])))
        if stage + 1 < len(TABLES):
            con.say(t("story_next", lang, name=table_text(TABLES[stage + 1], lang)["name"]))
    else:
        con.say(t("story_lost", lang, name=text["name"]))
    _save(path, progress)
    con.say(t("story_saved", lang, path=str(path)))
    session.after_match()
    return EXIT_OK
