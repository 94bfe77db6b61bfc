"""An account's tournament limits counted in the very transaction that stores a registration or
a scheduling (``Storage.save_tournament``'s ``limits``), on SQLite and PostgreSQL: a write for
another tournament at the same moment (another process of a cluster, which counted from the
documents as last stored) is counted before this one, never beside it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from batak.server.storage import OverLimit, PlayerRow, Storage
from batak.server.tournament import PER_ACCOUNT

PID = "pbot0000001"


def _doc(tid: str, *, players: list[str], creator: str = "porg") -> dict[str, Any]:
    return {
        "id": tid,
        "status": "scheduled",
        "start_at": 0.0,
        "created": 0.0,
        "creator": creator,
        "players": [{"id": p, "name": p, "bot": True} for p in players],
        "tables": [],
    }


async def _save(storage: Storage, doc: dict[str, Any], **kw: Any) -> None:
    await storage.save_tournament(doc["id"], doc["status"], 0.0, 0.0, doc, **kw)


def _url(tmp_path: Path, database: str | None) -> str:
    return database or f"sqlite:///{tmp_path / 'batak.db'}"


def test_the_limits_are_counted_from_the_stored_documents(
    tmp_path: Path, database: str | None
) -> None:
    """Registered for PER_ACCOUNT tournaments not over (one of them over does not count, nor
    the tournament written), a further registration is refused with OverLimit("entered"), and
    with PER_ACCOUNT scheduled a further one with OverLimit("created"); nothing is written.
    Before, save_tournament counted nothing (no ``limits``)."""

    async def main() -> None:
        storage = Storage(_url(tmp_path, database))
        await storage.open()
        try:
            await storage.create_player(PlayerRow(PID, "robo", "h1", time.time(), "robo"))
            for i in range(PER_ACCOUNT):
                await _save(storage, _doc(f"T{i}", players=[PID], creator=PID))
            over = _doc("Tover", players=[PID], creator=PID)
            over["status"] = "over"
            await _save(storage, over)
            # its own document, written again with the player in it: not counted twice
            await _save(storage, _doc("T0", players=[PID], creator=PID), limits=(PID, 3, 3))
            new = _doc("Tnew", players=[PID])
            with pytest.raises(OverLimit) as e:
                await _save(storage, new, limits=(PID, PER_ACCOUNT, None))
            assert (e.value.what, e.value.limit) == ("entered", PER_ACCOUNT)
            made = _doc("Tmade", players=[], creator=PID)
            with pytest.raises(OverLimit) as e:
                await _save(storage, made, limits=(PID, None, PER_ACCOUNT))
            assert e.value.what == "created"
            assert await storage.tournament("Tnew") is None
            assert await storage.tournament("Tmade") is None
            # within its limits (one more allowed): stored
            await _save(storage, new, limits=(PID, PER_ACCOUNT + 1, None))
            assert await storage.tournament("Tnew") is not None
        finally:
            await storage.close()

    asyncio.run(main())


def test_a_registration_written_meanwhile_by_another_process_is_counted(
    tmp_path: Path, database: str | None
) -> None:
    """Another process (a connection of the test's own) holds the account's row and writes
    the account's third registration, not committed yet; a fourth registration saved
    meanwhile waits for it, then counts it and is refused. Before (a count that took no lock
    on the account), the count read the two committed registrations and the fourth was
    stored beside the third: four, one over the limit."""

    async def main() -> None:
        url = _url(tmp_path, database)
        storage = Storage(url)
        await storage.open()
        try:
            await storage.create_player(PlayerRow(PID, "robo", "h1", time.time(), "robo"))
            for i in range(PER_ACCOUNT - 1):
                await _save(storage, _doc(f"T{i}", players=[PID]))
            third = json.dumps(_doc("Tthird", players=[PID]))
            insert = "INSERT INTO tournaments (id, status, start_at, created, data) VALUES "
            if storage.kind == "postgresql":
                import psycopg

                other: Any = psycopg.connect(url)
                other.execute("SELECT id FROM players WHERE id = %s FOR UPDATE", (PID,))
                other.execute(insert + "('Tthird', 'scheduled', 0, 0, %s)", (third,))
            else:
                other = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
                other.execute("BEGIN IMMEDIATE")
                other.execute(insert + "('Tthird', 'scheduled', 0, 0, ?)", (third,))
            saving = asyncio.create_task(
                _save(storage, _doc("Tfourth", players=[PID]), limits=(PID, PER_ACCOUNT, None))
            )
            if storage.kind == "postgresql":
                import psycopg

                with psycopg.connect(url, autocommit=True) as watch:
                    stop = time.monotonic() + 30
                    while not watch.execute(
                        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND datname = current_database()"
                    ).fetchone():  # (until the save waits for the lock: a hang, not a speed)
                        assert time.monotonic() < stop and not saving.done(), saving
                        await asyncio.sleep(0.05)
            else:
                await asyncio.sleep(0.2)  # (SQLite: one writer; the order changes nothing)
            other.execute("COMMIT")
            other.close()
            with pytest.raises(OverLimit):
                await saving
            assert await storage.tournament("Tfourth") is None
        finally:
            await storage.close()

    asyncio.run(main())


def test_two_processes_registering_two_accounts_in_opposite_orders_do_not_deadlock(
    tmp_path: Path, database: str | None
) -> None:
    """Two processes (two Storages on one database) each store, in one batch of writes, a
    registration of account P then one of account Q (checked against their limits), the
    other in the opposite order. Before, both were one transaction each: each took its first
    account's row lock, then waited for the other's, and PostgreSQL refused one write
    (``DeadlockDetected``: the player was told ``storage`` for a plain registration). Now a
    write that checks limits runs in a transaction of its own: all four are stored."""
    if database is None:
        pytest.skip("SQLite has one writer at a time: nothing to wait on in a cycle")

    async def main() -> None:
        a, b = Storage(database), Storage(database)
        await a.open()
        await b.open()
        try:
            for pid in ("pP", "pQ"):
                await a.create_player(PlayerRow(pid, pid, "h" + pid, time.time(), pid))
            import threading

            gate = threading.Event()
            both = threading.Barrier(2, timeout=30)

            def hold(cur: Any) -> None:  # the next jobs queue up meanwhile: one batch
                gate.wait(30)

            def meet(cur: Any) -> None:  # each holds its first row lock here
                both.wait()

            held = [asyncio.create_task(s._call(hold)) for s in (a, b)]
            await asyncio.sleep(0)
            saves = []
            for s, first, then in ((a, "pP", "pQ"), (b, "pQ", "pP")):
                for step in (first, None, then):
                    if step is None:
                        saves.append(asyncio.ensure_future(s._call(meet)))
                        continue
                    doc = _doc(f"T{s is a}{step}", players=[step])
                    saves.append(asyncio.ensure_future(_save(s, doc, limits=(step, 9, None))))
            await asyncio.sleep(0.1)  # (every job queued behind the held one)
            gate.set()
            await asyncio.gather(*held)
            await asyncio.gather(*saves)
            for s in (True, False):
                for pid in ("pP", "pQ"):
                    assert await a.tournament(f"T{s}{pid}") is not None
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())
