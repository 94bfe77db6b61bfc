"""``batak online`` says what a match earned and shows the level, the rated leaderboard and the
weekly league (``--show``, and the ``level``/``ratings``/``league`` commands), in en and tr."""

from __future__ import annotations

import argparse
import asyncio
import datetime
import io
from pathlib import Path

import pytest
from harness import ServerThread, fast_config

from batak.cli import build_parser
from batak.cli.console import Console
from batak.cli.online import run_online, save_token
from batak.server.client import Client


def _run(argv: list[str], lines: list[str], lang: str = "en") -> tuple[int, str]:
    args: argparse.Namespace = build_parser(lang).parse_args(["online", *argv])
    out = io.StringIO()
    code = run_online(args, Console(out, io.StringIO("".join(x + "\n" for x in lines))), lang)
    return code, out.getvalue()


def test_online_shows_xp_rating_and_league(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:

        async def make_account() -> str:
            c = Client(srv.url, name="Ayşe")
            await c.connect()
            await c.register("ayse", "uzun-bir-parola")
            token = c.token
            await c.close()
            assert token
            return token

        save_token(srv.url, asyncio.run(make_account()))  # batak online is this account now
        script = ["", "level", "ratings", "league", *["!"] * 80]
        code, out = _run([srv.http, "--create", "standard", "--deals", "1"], script)
        assert code == 0, out
        assert "Level 1: 0 XP (the next level at 100 XP)." in out  # 'level' before any match
        assert "Nobody is rated yet." in out
        assert "Finish a match this week to join the league." in out
        gained = int(out.split("This match: +", 1)[1].split()[0])
        assert gained >= 12
        assert f"You have {gained} XP, level " in out
        assert "Rating " in out.split("This match:", 1)[1]
        assert f"Weekly league, Bronze: {gained} points this week." in out

        code, out = _run([srv.http, "--show", "ratings"], [])
        assert code == 0 and "Rated leaderboard" in out
        assert "1. Ayşe (level " in out and ", matches: 1" in out
        code, out = _run([srv.http, "--show", "league"], [], "tr")
        assert code == 0
        year, week = datetime.datetime.now(datetime.UTC).isocalendar()[:2]  # the server's
        # the week as people say it, not the ISO label "2026-W49"
        assert f"Haftalık lig ({year}, {week}. hafta), Bronz (" in out
        assert "-W" not in out
        assert f"1. Ayşe (1. seviye): {gained} puan" in out  # one deal: at most 42 XP
        code, out = _run([srv.http, "--show", "progress"], [], "tr")
        assert f": {gained} XP (sonraki seviye" in out and "Reyting " in out
        assert "Lig: Bronz." in out
