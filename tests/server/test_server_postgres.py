"""The PostgreSQL path against a real PostgreSQL server (BATAK_TEST_POSTGRES, started by .ci/run):
a whole match, its record and statistics, and a table resumed by a second server process."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest
from harness import ServerThread, fast_config, postgres_database

from batak.record import loads
from batak.server.client import Client


def test_match_record_stats_and_resume_on_postgresql(tmp_path: Path) -> None:
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        config = fast_config(tmp_path, database=url)
        clients: list[Client] = []
        with ServerThread(config) as srv:
            assert srv.hub.storage.kind == "postgresql"

            async def first() -> tuple[str, str, list[str | None]]:
                for i in range(4):
                    c = Client(srv.url, name=f"PG{i}")
                    await c.connect()
                    clients.append(c)
                _, done = await clients[0].create(preset="esli-acik", deals=1, bots=False)
                for c in clients[1:]:
                    await c.join(code=done.info["code"])
                await clients[0].start(done.id)
                await asyncio.gather(*(c.play(done.id, timeout=60) for c in clients))
                _, live = await clients[0].create(preset="zipi-kitty", deals=1, bots=False)
                for c in clients[1:3]:
                    await c.join(code=live.info["code"])
                await clients[0].start(live.id)
                await asyncio.gather(
                    *(c.play(live.id, timeout=60, stop=lambda s: s.v >= 20) for c in clients[:3])
                )
                tokens = [c.token for c in clients]
                path = clients[0].tables[done.id].record  # a private record: with its key
                for c in clients:
                    await c.close()
                assert path is not None
                return done.id, live.id, tokens, path

            done, live, tokens, path = asyncio.run(first())
            for _ in range(50):
                try:
                    with urllib.request.urlopen(srv.http + path, timeout=5) as r:
                        record = loads(r.read())
                        break
                except urllib.error.HTTPError:
                    pass
            assert record.over
        # a second server on the same database resumes the unfinished table
        config2 = fast_config(tmp_path, database=url)
        with ServerThread(config2) as srv2:
            assert live in srv2.hub.tables and done not in srv2.hub.tables

            async def second() -> str | None:
                again = [Client(srv2.url, token=tok) for tok in tokens[:3]]
                for c in again:
                    await c.connect()
                    assert live in c.welcome["tables"]
                    st = await c.join(live)  # seated there: its id opens it
                    assert st.v >= 20 and st.view is not None
                finals = await asyncio.gather(*(c.play(live, timeout=60) for c in again))
                assert all(f.over for f in finals)
                stats = (await again[0].request({"type": "stats"}))["stats"]
                assert stats["matches"] == 2
                for c in again:
                    await c.close()
                return again[0].tables[live].record

            live_path = asyncio.run(second())
            assert live_path is not None
            with urllib.request.urlopen(srv2.http + live_path, timeout=5) as r:
                assert json.loads(r.read())["over"] is True


def test_two_servers_open_a_new_postgresql_database_at_once() -> None:
    """Two processes starting together on a new database both create the schema and run the
    migrations: PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe against another session
    doing the same (a unique violation in pg_type), so the two must take turns. Many times,
    each on a fresh database, two storages opened at the same moment: both open."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    from batak.server.storage import MIGRATIONS, Storage

    for _ in range(12):
        with postgres_database() as url:

            async def both(url: str = url) -> list[BaseException | None]:
                stores = [Storage(url), Storage(url)]
                got = await asyncio.gather(*(s.open() for s in stores), return_exceptions=True)
                for s in stores:
                    await s.close()
                return got

            assert asyncio.run(both()) == [None, None]
            import psycopg

            with psycopg.connect(url, autocommit=True) as db:
                row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            assert row is not None and int(row[0]) == len(MIGRATIONS)


def test_healthz_says_when_postgresql_cannot_be_reached(tmp_path: Path) -> None:
    """/healthz asks PostgreSQL: 200 with "database": "up" while it answers; 503 with
    "database": "down" while the server cannot connect to it (here: the database refuses new
    connections and every session on it is ended), so that a load balancer stops sending
    players there; 200 again once it is back."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    import os
    import time

    import psycopg

    def healthz(srv: ServerThread) -> tuple[int, dict[str, object]]:
        try:
            with urllib.request.urlopen(srv.http + "/healthz", timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def until(srv: ServerThread, status: int) -> dict[str, object]:
        deadline = time.monotonic() + 15
        while True:
            got, body = healthz(srv)
            if got == status:
                return body
            assert time.monotonic() < deadline, (got, body)
            time.sleep(0.2)

    base = os.environ["BATAK_TEST_POSTGRES"]
    with pg as url, ServerThread(fast_config(tmp_path, database=url)) as srv:
        name = url.rsplit("/", 1)[1]
        assert until(srv, 200)["database"] == "up"
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
            try:
                body = until(srv, 503)
                assert body["database"] == "down" and body["ok"] is False
            finally:
                admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        assert until(srv, 200)["database"] == "up"
