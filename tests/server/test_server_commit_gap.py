"""``batak serve --commit-gap``: the least time between two commits of the storage (group commit
under load). Writes that come sooner after a commit than the gap wait and share the next one; a
write after a quiet spell does not wait; every job still resolves only once it is committed."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config, room

from batak.cli import build_parser
from batak.cli.serve import config_from_args
from batak.server.config import MAX_COMMIT_GAP, ServerConfig
from batak.server.storage import Storage


def _mark(n: int) -> Any:
    """A storage job that writes a row (in the ``meta`` table) and reads it back."""

    def job(cur: Any) -> Any:
        cur.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"t{n}", str(n)))
        return cur.execute("SELECT key FROM meta WHERE key = ?", (f"t{n}",)).fetchone()[0]

    return job


def _spaced(tmp_path: Path, gap: float, n: int = 10, spacing: float = 0.005) -> dict[str, Any]:
    """``n`` writes ``spacing`` seconds apart after a quiet spell, then one more after another;
    what the storage counted."""
    storage = Storage(f"sqlite:///{tmp_path / 'gap.sqlite3'}", commit_gap=gap)

    async def main() -> dict[str, Any]:
        await storage.open()
        try:
            await asyncio.sleep(gap * 1.5)  # quiet: the first write needs not wait
            start = storage.commits
            tasks = []
            for i in range(n):
                tasks.append(asyncio.ensure_future(storage.run(_mark(i))))
                await asyncio.sleep(spacing)
            got = await asyncio.gather(*tasks)
            burst = storage.commits - start
            waits = storage.gap_waits
            await asyncio.sleep(gap * 1.5)
            lone = await storage.run(_mark(n))
            waits_after_lone = storage.gap_waits
            rows = await storage.run(
                lambda cur: cur.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 't%'").fetchone()
            )
            return {
                "got": got,
                "burst_commits": burst,
                "waits": waits,
                "waits_after_lone": waits_after_lone,
                "lone": lone,
                "rows": rows[0],
            }
        finally:
            await storage.close()

    return asyncio.run(main())


def test_writes_closer_than_the_gap_share_a_commit(tmp_path: Path) -> None:
    """Ten writes 5 ms apart against the largest gap (100 ms): the first is committed at once,
    the other nine wait for the gap and go in one commit (two at most, had the worker been slow
    to take the first); each write's result comes back."""
    out = _spaced(tmp_path, gap=MAX_COMMIT_GAP)
    assert out["got"] == [f"t{i}" for i in range(10)]
    assert 1 <= out["burst_commits"] <= 3
    assert out["waits"] >= 1


def test_a_write_after_a_quiet_spell_does_not_wait(tmp_path: Path) -> None:
    out = _spaced(tmp_path, gap=MAX_COMMIT_GAP)
    assert out["lone"] == "t10"
    assert out["waits_after_lone"] == out["waits"]
    assert out["rows"] == 11


def test_no_gap_never_waits(tmp_path: Path) -> None:
    """With 0 the worker commits whatever queued while the last batch ran, and never waits."""
    out = _spaced(tmp_path, gap=0.0)
    assert out["got"] == [f"t{i}" for i in range(10)]
    assert out["waits"] == 0 and out["rows"] == 11


def test_the_gap_is_bounded(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="commit_gap"):
        Storage(f"sqlite:///{tmp_path / 'x.sqlite3'}", commit_gap=-0.001)
    with pytest.raises(ValueError, match="commit_gap"):
        Storage(f"sqlite:///{tmp_path / 'x.sqlite3'}", commit_gap=MAX_COMMIT_GAP * 2)


def test_the_command_line_takes_milliseconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser("en")
    assert config_from_args(parser.parse_args(["serve"])).commit_gap == ServerConfig().commit_gap
    assert ServerConfig().commit_gap == 0.050
    args = parser.parse_args(["serve", "--commit-gap", "2"])
    assert config_from_args(args).commit_gap == pytest.approx(0.002)
    assert config_from_args(parser.parse_args(["serve", "--commit-gap", "0"])).commit_gap == 0
    for bad in ("-1", "500", "soon"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--commit-gap", bad])
        assert f"not a number of milliseconds from 0 to 100: {bad}" in capsys.readouterr().err
    tr = build_parser("tr")
    with pytest.raises(SystemExit):
        tr.parse_args(["serve", "--commit-gap", "500"])
    assert "0 ile 100 arasında bir milisaniye değeri değil: 500" in capsys.readouterr().err


def test_a_server_with_a_long_gap_still_stores_every_move_before_it_answers(
    tmp_path: Path,
) -> None:
    """A deal played to the end by four clients on a server whose commits are at least 50 ms
    apart: every event a client saw is in the stored log, and /healthz counts the waits."""
    with ServerThread(fast_config(tmp_path, commit_gap=0.05)) as srv:

        async def main() -> tuple[list[int], list[int]]:
            clients, table_id = await room(srv, preset="standard", deals=1)
            finals = await asyncio.gather(*(c.play(table_id, timeout=60) for c in clients))
            assert all(f.over for f in finals)
            seen = [e["v"] for e in clients[0].tables[table_id].events]
            for c in clients:
                await c.close()
            return seen, [e.version for e in await srv.hub.storage.events(table_id)]

        seen, stored = srv.call(main)
        with urllib.request.urlopen(srv.http + "/healthz", timeout=5) as r:
            body = json.loads(r.read())
    assert seen and set(seen) <= set(stored)
    assert stored == list(range(1, len(stored) + 1))
    assert body["storage"]["gap_waits"] >= 1
    assert body["storage"]["jobs"] > body["storage"]["commits"]


def test_in_a_shared_commit_a_refused_move_fails_alone(tmp_path: Path) -> None:
    """Moves' events (one INSERT each) share a commit without a savepoint each on SQLite: one
    that the database refuses (a version already stored) fails alone, with a storage error,
    and every other event of the batch, before and after it, is stored; a job of several
    statements in the same batch still fails whole."""
    from batak.server.storage import EventRow, StorageError

    storage = Storage(f"sqlite:///{tmp_path / 'batch.sqlite3'}", commit_gap=MAX_COMMIT_GAP)

    def ev(v: int) -> list[EventRow]:
        return [EventRow(v, "move", {"seat": 0, "move": "AS", "n": v}, 0.0)]

    def two_then_bad(cur: Any) -> None:
        cur.execute("INSERT INTO meta (key, value) VALUES ('whole', 'x')")
        cur.execute("INSERT INTO meta (key, value) VALUES ('whole', 'y')")  # refused

    async def main() -> None:
        await storage.open()
        try:
            await storage.append_events("a", ev(1))
            await asyncio.sleep(MAX_COMMIT_GAP * 1.5)
            await storage.append_events("a", ev(2))  # commits at once: the next ones wait
            commits = storage.commits
            got = await asyncio.gather(
                storage.append_events("a", ev(3)),
                storage.append_events("b", ev(1)),
                storage.append_events("a", ev(3)),  # the same version again: refused
                storage.run(two_then_bad),
                storage.append_events("b", ev(2)),
                return_exceptions=True,
            )
            assert storage.commits == commits + 1  # one batch, one commit
            assert got[0] is None and got[1] is None and got[4] is None
            assert isinstance(got[2], StorageError) and isinstance(got[3], StorageError)
            a = await storage.events("a")
            b = await storage.events("b")
            assert [(e.version, e.data["n"]) for e in a] == [(1, 1), (2, 2), (3, 3)]
            assert [e.version for e in b] == [1, 2]
            whole = await storage.run(
                lambda cur: cur.execute("SELECT COUNT(*) FROM meta WHERE key = 'whole'").fetchone()
            )
            assert whole[0] == 0  # the failed job's first statement was undone too
        finally:
            await storage.close()

    asyncio.run(main())
