"""One script must not fill the server: quotas on rooms not yet started (per player, per
address), a rate on ``create``, quick play's own share of the tables, and rooms nobody but the
host came to closed within minutes. Over real sockets."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import ServerThread, advance_async, fast_config

from batak.server.client import Client, ServerError
from batak.server.clock import ManualClock


async def _refused(coro: object) -> ServerError:
    with pytest.raises(ServerError) as e:
        await coro  # type: ignore[misc]
    return e.value


def test_rooms_per_guest_per_account_and_per_address(tmp_path: Path) -> None:
    pytest.importorskip("argon2")
    config = fast_config(tmp_path, rooms_per_guest=2, rooms_per_account=3, rooms_per_address=5)
    with ServerThread(config) as srv:

        async def main() -> None:
            a = Client(srv.url, name="A")
            await a.connect()
            rooms = [(await a.create())[1].id for _ in range(2)]
            e = await _refused(a.create(bots=False))
            assert e.code == "room_quota" and "2" in e.message
            # a room that started no longer counts
            await a.start(rooms[0])
            await a.create(bots=False)
            # an account may have more
            await a.request({"type": "register", "username": "kota", "password": "uzun-parola"})
            await a.create(bots=False)
            e = await _refused(a.create(bots=False))
            assert e.code == "room_quota" and "3" in e.message
            # the address: 3 rooms of A's wait; B may open 2 more, then the address is full
            b = Client(srv.url, name="B", lang="tr")
            await b.connect()
            await b.create(bots=False)
            await b.create(bots=False)
            c = Client(srv.url, name="C")
            await c.connect()
            e = await _refused(c.create(bots=False))
            assert e.code == "room_quota" and "address" in e.message
            for x in (a, b, c):
                await x.close()

        asyncio.run(main())


def test_a_quota_of_one_room_is_said_in_the_singular(tmp_path: Path) -> None:
    """An operator's ``--rooms-per-guest 1`` (or an address limit of 1): the refusal says "a
    room", not "1 rooms", in both languages."""
    config = fast_config(tmp_path, rooms_per_guest=1, rooms_per_address=1)
    with ServerThread(config) as srv:

        async def main() -> None:
            a = Client(srv.url, name="A")
            await a.connect()
            await a.create(bots=False)
            e = await _refused(a.create(bots=False))
            assert e.code == "room_quota"
            assert e.message == (
                "you already have a room that has not started: start it or leave it first"
            )
            b = Client(srv.url, name="B", lang="tr")
            await b.connect()
            e = await _refused(b.create(bots=False))
            assert e.code == "room_quota"
            assert e.message == (
                "adresinden açılmış ve başlamamış bir oda zaten var: "
                "önce onu başlat ya da ondan çık"
            )
            for x in (a, b):
                await x.close()

        asyncio.run(main())


def test_create_is_rate_limited_per_player_and_per_address(tmp_path: Path) -> None:
    config = fast_config(
        tmp_path,
        rooms_per_guest=100,
        create_per_minute=0.01,
        create_burst=3,
        create_per_minute_address=0.01,
        create_burst_address=5,
    )
    with ServerThread(config) as srv:

        async def main() -> None:
            a = Client(srv.url, name="A")
            await a.connect()
            for _ in range(3):
                await a.create(bots=False)
            e = await _refused(a.create(bots=False))
            assert e.code == "create_rate" and e.data["retry_after"] > 0
            b = Client(srv.url, name="B")
            await b.connect()
            await b.create(bots=False)  # another player: its own rate, but the same address
            await b.create(bots=False)
            e = await _refused(b.create(bots=False))
            assert e.code == "create_rate"
            e = await _refused(b.create(bots=False))  # refused ones are not counted as made
            assert e.code == "create_rate"
            assert sum(1 for t in srv.hub.tables.values() if t.host) == 5
            for x in (a, b):
                await x.close()

        asyncio.run(main())


def test_private_rooms_never_starve_quick_play(tmp_path: Path) -> None:
    config = fast_config(tmp_path, max_tables=6, max_room_tables=3, quick_fill_seconds=60)
    with ServerThread(config) as srv:

        async def main() -> None:
            clients = []
            made = 0
            for i in range(8):  # each guest may have 3: make rooms until the server says busy
                c = Client(srv.url, name=f"R{i}")
                await c.connect()
                clients.append(c)
                try:
                    await c.create(bots=False)
                    made += 1
                except ServerError as e:
                    assert e.code == "busy"
                    break
            assert made == 3
            q = Client(srv.url, name="Q")
            await q.connect()
            table = await q.quick("ihaleli")  # quick play still finds a table
            assert table.seat is not None
            for c in [*clients, q]:
                await c.close()

        asyncio.run(main())


def test_a_room_nobody_came_to_is_closed_within_minutes(tmp_path: Path) -> None:
    clock = ManualClock()
    config = fast_config(
        tmp_path, hold_seconds=45, abandon_seconds=1800, lonely_seconds=180, reap_every=30
    )
    with ServerThread(config, clock=clock) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, lonely = await host.create(bots=False)
            friend_host = Client(srv.url, name="Host2")
            await friend_host.connect()
            invite, visited = await friend_host.create(bots=False)
            friend = Client(srv.url, name="Friend")
            await friend.connect()
            await friend.join(code=invite["code"])
            await friend.leave(visited.id)
            for c in (host, friend_host, friend):
                await c.drop()
            await asyncio.sleep(0.1)
            for _ in range(10):  # 45 s of hold, then 4 minutes and a half with nobody there
                await advance_async(srv, clock, 30)
                await asyncio.sleep(0.02)
            deadline = asyncio.get_running_loop().time() + 10
            while lonely.id in srv.hub.tables:
                assert asyncio.get_running_loop().time() < deadline
                await advance_async(srv, clock, 1)
                await asyncio.sleep(0.05)
            assert visited.id in srv.hub.tables  # someone came: the 30 minutes apply
            back = Client(srv.url, token=host.token)
            await back.connect()
            e = await _refused(back.join(code=created["code"]))
            assert e.code == "no_table"
            await back.close()

        asyncio.run(main())
