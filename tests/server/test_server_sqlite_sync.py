"""``batak serve --sqlite-sync``: SQLite's flush at each commit (full by default, or normal), and
the storage's counts of jobs and commits in /healthz."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config
from websockets.sync.client import connect

from batak.cli import build_parser
from batak.cli.serve import config_from_args
from batak.server.config import SQLITE_SYNC, ServerConfig
from batak.server.storage import Storage, StorageError, open_storage


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


def _healthz(srv: ServerThread) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(srv.http + "/healthz", timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _until(srv: ServerThread, status: int) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while True:
        got, body = _healthz(srv)
        if got == status:
            return body
        assert time.monotonic() < deadline, (got, body)
        time.sleep(0.2)


def _no_room(cur: Any) -> None:
    """A storage job: the database may not grow past its size now (SQLite's
    ``max_page_count``, on the storage's connection: a disk with no room left)."""
    size = cur.execute("PRAGMA page_count").fetchone()[0]
    cur.execute(f"PRAGMA max_page_count = {size}")


_KEYS = itertools.count()


def _write(length: int) -> Any:
    """A storage job that stores ``length`` bytes more."""
    key = f"filler-{next(_KEYS)}"

    def write(cur: Any) -> None:
        cur.execute("INSERT INTO meta (key, value) VALUES (?, zeroblob(?))", (key, length))

    return write


def _room_again(cur: Any) -> None:
    cur.execute("PRAGMA max_page_count = 1073741823")


def test_healthz_says_when_sqlite_cannot_store_moves(tmp_path: Path) -> None:
    """SQLite's /healthz is a real check: 200 with "database": "up" while the storage can
    write; a write that failed for want of room (a full disk) makes it 503 with
    "database": "down" and "ok": false, as on PostgreSQL, also while nothing else is written
    (its check writes some bytes then, and they do not fit); 200 again once there is room,
    without anyone playing meanwhile. Before, SQLite's answer was 200 whatever the database."""
    with ServerThread(fast_config(tmp_path)) as srv:
        assert _until(srv, 200)["database"] == "up"
        storage = srv.hub.storage

        async def job(fn: Any) -> Any:
            return await storage._call(fn)

        srv.call(lambda: job(_no_room))
        # writes until even a small one does not fit: the last write failed, "database or
        # disk is full" (SQLite ends the transaction), as on a full disk
        for length in (65536, 4096, 512, 64):
            while True:
                try:
                    srv.call(lambda length=length: job(_write(length)))
                except StorageError as e:
                    assert "full" in str(e)
                    break
        body = _until(srv, 503)
        assert body["database"] == "down" and body["ok"] is False
        time.sleep(1.1)  # the next check (an answer is kept for a second) finds no room either
        assert _healthz(srv)[0] == 503
        srv.call(lambda: job(_room_again))
        assert _until(srv, 200)["database"] == "up"


def test_healthz_says_when_sqlite_is_held_by_another_process(tmp_path: Path) -> None:
    """Another program holding SQLite's write lock (a long ``batak admin`` job, a backup
    tool) keeps the server from storing moves: /healthz answers 503 while its check waits
    behind the lock longer than 2 s, and 200 once the lock is let go."""
    with ServerThread(fast_config(tmp_path)) as srv:
        assert _until(srv, 200)["database"] == "up"
        other = sqlite3.connect(tmp_path / "batak.sqlite3", isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            body = _until(srv, 503)
            assert body["database"] == "down" and body["ok"] is False
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert _until(srv, 200)["database"] == "up"


def _three_pages(cur: Any) -> None:
    """A storage job: room for three pages more (a few small rows, not PROBE_BYTES)."""
    size = cur.execute("PRAGMA page_count").fetchone()[0]
    cur.execute(f"PRAGMA max_page_count = {size + 3}")


async def _fill(storage: Storage) -> None:
    """Make ``storage``'s database full, as a disk with no room left (its last write failed),
    then give it room for a few small rows again, not for the check's PROBE_BYTES."""
    await storage._call(_no_room)
    for length in (65536, 4096, 512, 64):
        while True:
            try:
                await storage._call(_write(length))
            except StorageError as e:
                assert "full" in str(e)
                break
    assert storage.write_failure is not None
    await storage._call(_three_pages)


async def _together(storage: Storage, *jobs: Any) -> list[Any]:
    """Run ``jobs`` (coroutines that each queue one storage job) so that the worker takes
    them in one batch: it is held by a job of its own until all of them are in its queue."""
    taken, go = threading.Event(), threading.Event()

    def hold(cur: Any) -> None:
        taken.set()
        assert go.wait(30)

    held = asyncio.ensure_future(storage._call(hold))
    while not taken.is_set():
        await asyncio.sleep(0.001)
    tasks = [asyncio.ensure_future(job) for job in jobs]
    while storage._jobs.qsize() < len(jobs):
        await asyncio.sleep(0.001)
    go.set()
    await held
    return list(await asyncio.gather(*tasks, return_exceptions=True))


def test_the_check_s_bytes_do_not_sink_the_moves_queued_with_it(tmp_path: Path) -> None:
    """After a full disk, /healthz's check writes PROBE_BYTES, and when they do not fit SQLite
    ends the whole transaction. The check runs in a transaction of its own, after the moves
    that queued with it: a small write that fits is stored (and, a write committed, the check
    has nothing more to prove: "up"). Before, the two shared a transaction and the write failed
    with "database or disk is full", though it is stored alone, and the check said "down"."""
    storage = open_storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")

    async def main() -> list[Any]:
        await storage.open()
        try:
            await _fill(storage)
            return await _together(storage, storage.reachable(), storage._call(_write(64)))
        finally:
            await storage.close()

    assert asyncio.run(main()) == [True, None]
    assert storage.write_failure is None


def test_a_rolled_back_change_does_not_clear_a_disk_failure(tmp_path: Path) -> None:
    """A disk failure is forgotten only when a job that succeeded changed rows and was
    committed. A job that changes a row and then refuses (its own reason) is rolled back to
    its savepoint, and the read beside it commits: the failure stays, and /healthz says
    "down". Before, SQLite's total_changes (which counts the rolled-back row) had grown over
    the batch, so the plain commit cleared the failure while the disk was still full."""
    storage = open_storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")

    def update_then_refuse(cur: Any) -> None:
        cur.execute("UPDATE meta SET value = value WHERE key = 'schema'")
        raise ValueError("refused by the job itself")

    def read(cur: Any) -> Any:
        return cur.execute("SELECT 1").fetchone()[0]

    async def main() -> tuple[list[Any], str | None, bool]:
        await storage.open()
        try:
            await _fill(storage)
            await storage._call(_no_room)  # no room for any row again
            done = await _together(storage, storage._call(update_then_refuse), storage._call(read))
            return done, storage.write_failure, await storage.reachable()
        finally:
            await storage.close()

    done, failure, reachable = asyncio.run(main())
    assert isinstance(done[0], StorageError) and "refused by the job itself" in str(done[0])
    assert done[1] == 1
    assert failure is not None and "full" in failure
    assert reachable is False
