"""Sessions and guests: several sessions per player (a second device's login leaves the first
one's token working), each revocable, "log out everywhere"; one guest per connection; guests
who never sat at a table are deleted; a database from before opens and keeps its players.
Over real sockets, on SQLite (and on PostgreSQL when BATAK_TEST_POSTGRES is set)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config, postgres_database
from websockets.asyncio.client import connect

from batak.server.client import Client, ServerError
from batak.server.storage import SCHEMA


def _databases() -> list[str]:
    return ["sqlite", "postgresql"]


@pytest.mark.parametrize("db", _databases())
def test_several_sessions_each_revocable_and_logout_everywhere(tmp_path: Path, db: str) -> None:
    pytest.importorskip("argon2")
    if db == "postgresql":
        pg = postgres_database()
        if pg is None:
            pytest.skip("BATAK_TEST_POSTGRES is not set")
        with pg as url:
            _sessions(fast_config(tmp_path, database=url))
    else:
        _sessions(fast_config(tmp_path))


def _sessions(config: Any) -> None:
    with ServerThread(config) as srv:

        async def main() -> None:
            phone = Client(srv.url, name="Ayşe")
            await phone.connect()
            await phone.request({"type": "register", "username": "ayse", "password": "uzun-parola"})
            _, table = await phone.create(bots=False)
            first_token = phone.token
            ayse = phone.player["id"]
            # a second device logs in: a session of its own
            laptop = Client(srv.url, name="Misafir")
            await laptop.connect()
            await laptop.login("ayse", "uzun-parola")
            assert laptop.player["id"] == phone.player["id"] and laptop.token != first_token
            # the first device reconnects: still Ayşe, with her table (not a new guest)
            await phone.reconnect()
            assert phone.player["id"] == laptop.player["id"]
            assert "token_unknown" not in phone.welcome and phone.token == first_token
            assert table.id in phone.welcome["tables"]
            # the laptop logs out: its token opens nothing more; the phone's still does
            laptop_token = laptop.token
            reply = await laptop.logout()
            assert reply["type"] == "logged_out" and reply["sessions"] == 1
            with pytest.raises(ServerError) as e:
                await laptop.request({"type": "mytables"})
            assert e.value.code == "hello_first"
            await laptop.close()
            again = Client(srv.url, token=laptop_token)
            await again.connect()
            assert again.welcome.get("token_unknown") and again.player["id"] != phone.player["id"]
            await phone.reconnect()
            assert phone.player["id"] == ayse
            # log out everywhere: from a third session; the phone is told and closed
            tablet = Client(srv.url)
            await tablet.connect()
            await tablet.login("ayse", "uzun-parola")
            reply = await tablet.logout(everywhere=True)
            assert reply["sessions"] == 2 and reply["everywhere"] is True
            told = await phone.wait_for(lambda m: m.get("type") == "logged_out", 5)
            assert told["everywhere"] is True
            await phone.until(lambda: phone.closed, 5)
            after = Client(srv.url, token=first_token)
            await after.connect()
            assert after.welcome.get("token_unknown")
            # the password still opens a new session
            await after.login("ayse", "uzun-parola")
            assert after.player["id"] == ayse
            for c in (again, tablet, after):
                await c.close()

        asyncio.run(main())


def test_one_guest_per_connection(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                ids, tokens = set(), set()
                for i in range(5):
                    hello: dict[str, Any] = {"type": "hello", "name": f"G{i}"}
                    if i == 4:
                        hello["token"] = "not-a-token-anyone-has"
                    await ws.send(json.dumps(hello))
                    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    ids.add(welcome["player"]["id"])
                    tokens.add(welcome["token"])
                assert len(ids) == 1 and len(tokens) == 1

        asyncio.run(main())
        count = sqlite3.connect(tmp_path / "batak.sqlite3").execute("SELECT COUNT(*) FROM players")
        assert count.fetchone()[0] == 1


def test_guests_who_never_played_are_deleted(tmp_path: Path) -> None:
    config = fast_config(tmp_path, guest_unused_seconds=0.5, reap_every=0.1)
    with ServerThread(config) as srv:

        async def main() -> None:
            idle = Client(srv.url, name="Idle")
            player = Client(srv.url, name="Player")
            watcher = Client(srv.url, name="Watcher")
            connected = Client(srv.url, name="Here")
            for c in (idle, player, watcher, connected):
                await c.connect()
            await player.create(bots=False)
            await watcher.lobby()
            for c in (idle, player, watcher):
                await c.close()
            ids = {c.player["id"] for c in (idle, player, watcher, connected)}
            deadline = time.monotonic() + 20
            while True:
                rows = _player_ids(tmp_path)
                if idle.player["id"] not in rows and watcher.player["id"] not in rows:
                    break
                assert time.monotonic() < deadline, rows
                await asyncio.sleep(0.1)
            assert rows & ids == {player.player["id"], connected.player["id"]}
            back = Client(srv.url, token=idle.token)
            await back.connect()
            assert back.welcome.get("token_unknown")
            kept = Client(srv.url, token=player.token)
            await kept.connect()
            assert kept.player["id"] == player.player["id"]
            for c in (back, kept, connected):
                await c.close()

        asyncio.run(main())


def _player_ids(data: Path) -> set[str]:
    with sqlite3.connect(data / "batak.sqlite3") as db:
        return {r[0] for r in db.execute("SELECT id FROM players")}


def test_a_database_from_before_opens_and_keeps_its_players(tmp_path: Path) -> None:
    """A SQLite file made by the server before sessions (one token per player, no ``meta``
    table): its players come back with their tokens, and are kept as having played."""
    token = "an-old-token-from-before"
    with sqlite3.connect(tmp_path / "batak.sqlite3") as db:
        for stmt in SCHEMA:
            if "meta" not in stmt:
                db.execute(stmt)
        db.execute(
            "INSERT INTO players (id, name, token_hash, created) VALUES (?, ?, ?, ?)",
            ("pold", "Eski", hashlib.sha256(token.encode()).hexdigest(), 1.0),
        )
    config = fast_config(tmp_path, guest_unused_seconds=0.0, reap_every=0.1)
    with ServerThread(config) as srv:

        async def main() -> None:
            c = Client(srv.url, token=token)
            await c.connect()
            assert c.player["id"] == "pold" and "token_unknown" not in c.welcome
            await c.close()
            await asyncio.sleep(0.5)  # several cleanups: an old player is not deleted
            again = Client(srv.url, token=token)
            await again.connect()
            assert again.player["id"] == "pold"
            await again.close()

        asyncio.run(main())
    # and a second start does not run the migration again
    with ServerThread(fast_config(tmp_path)) as srv:
        assert _player_ids(tmp_path) >= {"pold"}
