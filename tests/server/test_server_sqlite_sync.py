"""``batak serve --sqlite-sync``: SQLite's flush at each commit (full by default, or normal), and
the storage's counts of jobs and commits in /healthz."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config
from websockets.sync.client import connect

from batak.cli import build_parser
from batak.cli.serve import config_from_args
from batak.server.config import SQLITE_SYNC, ServerConfig
from batak.server.storage import Storage, open_storage


def _level(cur: Any) -> Any:
    """A storage job: SQLite's ``synchronous`` level on the storage's connection."""
    return cur.execute("PRAGMA synchronous").fetchone()[0]


def _synchronous(storage: Storage) -> Any:
    async def main() -> Any:
        await storage.open()
        try:
            return await storage._call(_level)
        finally:
            await storage.close()

    return asyncio.run(main())


@pytest.mark.parametrize(("choice", "level"), [("full", 2), ("normal", 1)])
def test_the_choice_is_the_connection_s_setting(tmp_path: Path, choice: str, level: int) -> None:
    """SQLite reports the setting in force on the storage's own connection (FULL is 2, NORMAL
    is 1)."""
    storage = open_storage(f"sqlite:///{tmp_path / 'db.sqlite3'}", sqlite_sync=choice)
    assert _synchronous(storage) == level


def test_the_default_is_full(tmp_path: Path) -> None:
    assert ServerConfig().sqlite_sync == "full"
    assert open_storage(f"sqlite:///{tmp_path / 'd2.sqlite3'}").sqlite_sync == "full"


def test_the_server_s_storage_uses_the_configured_setting(tmp_path: Path) -> None:
    """The running server's own connection has what its configuration says."""
    with ServerThread(fast_config(tmp_path, sqlite_sync="normal")) as srv:

        async def level() -> Any:
            return await srv.hub.storage._call(_level)

        assert srv.call(level) == 1


def test_the_command_line_sets_it_and_refuses_other_values(tmp_path: Path) -> None:
    parser = build_parser("en")
    args = parser.parse_args(["serve", "--data", str(tmp_path), "--sqlite-sync", "normal"])
    assert config_from_args(args).sqlite_sync == "normal"
    assert config_from_args(parser.parse_args(["serve"])).sqlite_sync == "full"
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--sqlite-sync", "off"])
    with pytest.raises(ValueError, match="sqlite_sync"):
        Storage(f"sqlite:///{tmp_path / 'x.sqlite3'}", sqlite_sync="off")
    assert "off" not in SQLITE_SYNC


def test_healthz_counts_the_storage_s_jobs_and_commits(tmp_path: Path) -> None:
    """Every job is in a commit: jobs ≥ commits ≥ 1 once a player was made."""
    with ServerThread(fast_config(tmp_path)) as srv:
        with connect(srv.url) as ws:
            ws.send('{"type": "hello"}')
            json.loads(ws.recv(10))
        with urllib.request.urlopen(srv.http + "/healthz", timeout=5) as r:
            body = json.loads(r.read())
    stored = body["storage"]
    assert stored["jobs"] >= stored["commits"] >= 1
