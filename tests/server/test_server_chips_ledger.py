"""The chip ledger stays exact (issue 12): random staked matches played at once by several
accounts (quick play in two salons, one of them açık eşli with its kasa, and private rooms with
house bots), the server killed with SIGKILL in the middle, started again, bots finishing what the
people left, more matches after the restart; then the whole ledger is summed from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, free_port, postgres_database

from batak.server.chips import ledger_check
from batak.server.client import Client, ServerError

pytest.importorskip("argon2")

GRANT = 100_000
PEOPLE = 5  # register_rate lets one address make 5 accounts at once


def _db(tmp_path: Path, database: str | None) -> Any:
    if database:
        import psycopg

        return psycopg.connect(database, autocommit=True)
    return sqlite3.connect(tmp_path / "batak.sqlite3")


def _rows(con: Any, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    cur = con.cursor()
    cur.execute(sql.replace("?", "%s") if not isinstance(con, sqlite3.Connection) else sql, args)
    return list(cur.fetchall())


async def _one_match(c: Client, rng: random.Random, round_no: int) -> None:
    """A staked match of some kind, played with random moves to its end (or until the server
    goes away)."""
    kind = rng.choice(["ihaleli", "acik", "room"])
    if kind == "room":
        preset = rng.choice(["sultan-ihaleli", "esli-acik"])
        _, st = await c.create(preset=preset, deals=1, stake=100)
        await c.start(st.id)
    else:
        st = await c.quick(kind, stake=100)
    t = st.id
    await c.until(lambda: c.tables[t].view is not None, 60)
    await c.play(t, timeout=300)
    await c.until(lambda: c.tables[t].payout is not None, 60)


async def _player(c: Client, seed: int, rounds: int, done: list[int]) -> None:
    rng = random.Random(seed)
    for r in range(rounds):
        with contextlib.suppress(ServerError):
            await _one_match(c, rng, r)
        done.append(1)


def _check(con: Any) -> None:
    cur = con.cursor()
    assert ledger_check(cur) == []
    total = _rows(con, "SELECT COALESCE(SUM(amount), 0) FROM ledger")[0][0]
    assert int(total) == 0
    # every staked match that ended has its pot emptied, by exactly one payout
    over = _rows(
        con,
        "SELECT t.id FROM tables t WHERE t.status = 'over' AND EXISTS"
        " (SELECT 1 FROM ledger l WHERE l.txn = 'buyin:' || t.id)",
    )
    assert over, "no staked match ended"
    for (tid,) in over:
        pot = _rows(con, "SELECT balance FROM chip_accounts WHERE account = ?", ("pot:" + tid,))
        assert pot and int(pot[0][0]) == 0, tid
        paid = _rows(
            con, "SELECT COUNT(DISTINCT txn) FROM ledger WHERE txn = ?", ("payout:" + tid,)
        )
        assert int(paid[0][0]) == 1
    # chips come only from the grant and go only to players, pots, kasas, fees and bots
    kinds = {r[0] for r in _rows(con, "SELECT DISTINCT kind FROM ledger")}
    assert kinds <= {"grant", "buyin", "payout"}
    accounts = [r[0] for r in _rows(con, "SELECT account FROM chip_accounts")]
    assert all(a.split(":")[0] in {"p", "pot", "kasa", "grant", "fee", "bots"} for a in accounts)
    assert any(a.startswith("kasa:acik:") for a in accounts)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_ledger_exact_after_concurrent_matches_kill_and_restart(
    tmp_path: Path, backend: str
) -> None:
    with contextlib.ExitStack() as stack:
        database = None
        if backend == "postgresql":
            pg = postgres_database()
            if pg is None:
                pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
            database = stack.enter_context(pg)
        _run(tmp_path, database)


def _run(tmp_path: Path, database: str | None) -> None:
    args = [
        "--bot-delay",
        "0",
        "--deal-pause",
        "0",
        "--hold-seconds",
        "1",
        "--quick-fill-seconds",
        "0.3",
        "--quick-deals",
        "1",
        "--daily-grant",
        str(GRANT),
        "--stakes",
        "100,1000",
    ]
    if database:
        args += ["--database", database]
    server = ServerProcess(tmp_path, free_port(), *args)
    server.start()
    try:

        async def main() -> None:
            clients = [Client(server.url, name=f"L{i}") for i in range(PEOPLE)]
            for i, c in enumerate(clients):
                await c.connect()
                await c.register(f"ledger{i}", "uzun-bir-parola")
                await c.wallet()
            done: list[int] = []
            tasks = [asyncio.create_task(_player(c, i, 50, done)) for i, c in enumerate(clients)]
            while len(done) < 8:  # some matches over, others under way
                await asyncio.sleep(0.05)
            server.kill()
            for task in tasks:
                with contextlib.suppress(Exception):
                    await task
            tokens = [c.token for c in clients]
            for c in clients:
                with contextlib.suppress(Exception):
                    await c.close()

            server.start()  # the same data: bots finish the matches the people left
            con = _db(tmp_path, database)
            try:
                for _ in range(1200):
                    live = _rows(
                        con,
                        "SELECT COUNT(*) FROM tables WHERE status = 'playing'",
                    )[0][0]
                    if int(live) == 0:
                        break
                    await asyncio.sleep(0.1)
                assert int(live) == 0
            finally:
                con.close()
            again = [Client(server.url, token=tok) for tok in tokens]
            for c in again:
                await c.connect()
            after: list[int] = []
            await asyncio.gather(*(_player(c, 100 + i, 1, after) for i, c in enumerate(again)))
            for c in again:
                await c.close()

        asyncio.run(main())
    finally:
        server.stop()
    con = _db(tmp_path, database)
    try:
        _check(con)
    finally:
        con.close()
