"""A table just made that must not be (a tournament round undone, a staked rematch that fell
through) is closed by Hub.unmake; when the database refuses that close, it is closed later."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from harness import ServerThread, fast_config

from batak.server.client import Client
from batak.server.storage import StorageError


def test_a_table_whose_close_fails_is_closed_by_the_reaper_later(tmp_path: Path) -> None:
    """The close of a table being unmade fails once (the database refused it): the table stays
    held, still waiting, and the reaper's next pass closes it (stored ``closed``, out of
    memory). Before, it left memory at once, stored as ``waiting`` for good: a round's table
    undone so stayed there, seated by nobody, and the reaper (which reads only the tables in
    memory) never saw it."""
    with ServerThread(fast_config(tmp_path)) as srv:
        hub = srv.hub

        async def make() -> str:
            host = Client(srv.url, name="Host")
            await host.connect()
            _, table = await host.create(bots=False)
            await host.close()
            return table.id

        table_id = asyncio.run(make())
        storage = hub.storage
        real = storage.set_status

        async def refused(tid: str, status: str) -> None:
            storage.set_status = real  # type: ignore[method-assign]
            raise StorageError("the database is away (a test)")

        async def unmake() -> None:
            storage.set_status = refused  # type: ignore[method-assign]
            await hub.unmake(hub.tables[table_id])

        srv.call(unmake)

        async def stored() -> Any:
            row = await storage.table(table_id)
            assert row is not None
            return row[0].status

        assert srv.call(stored) == "waiting"
        srv.call(hub.reap_once)
        assert srv.call(stored) == "closed"
        assert table_id not in hub.tables
