"""Two players with the same name at one table are told apart: the second sits as "NAME (2)"
(a web review saw two "Ayşe Yılmaz" columns on one score sheet)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness import ServerThread, fast_config

from batak.server.client import Client


def test_a_second_player_of_the_same_name_sits_as_name_2(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            clients = [Client(srv.url, name=n) for n in ("Ayşe", "Ayşe", "Ayşe", "Can")]
            for c in clients:
                await c.connect()
            _, table = await clients[0].create(bots=False, preset="standard", deals=1)
            for c in clients[1:]:
                await c.join(code=table.info["code"])
            await clients[0].start(table.id)
            for c in clients:
                await c.until(lambda c=c: c.tables[table.id].view is not None)
            seats = clients[3].tables[table.id].info["seats"]
            names = [s["name"] for s in sorted(seats, key=lambda s: s["seat"])]
            assert sorted(names) == ["Ayşe", "Ayşe (2)", "Ayşe (3)", "Can"]
            for c in clients:
                await c.close()

        asyncio.run(main())
