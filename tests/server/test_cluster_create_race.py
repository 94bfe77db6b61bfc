"""A cluster node's takeover scan running while the node itself is storing a new table
(``Hub.new_table``): the table's create is committed, with this node as its owner, but the
table is not in ``hub.tables`` yet. The scan used to "take back" such a table from the
database as one of its own: a second actor for the same table, and the two wrote the same next
version (CI: ``UniqueViolation ... (table_id, version)=(t…, 2)``, and quick play answered
``storage``). Real PostgreSQL (BATAK_TEST_POSTGRES, started by .ci/run); the interleaving is
made certain by running the scan inside the window rather than hoping for it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config, postgres_database

from batak.rules import Rules
from batak.server.client import Client


def test_the_scan_leaves_a_table_being_created_alone(tmp_path: Path) -> None:
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        config = fast_config(tmp_path, database=url, node="n0", lease_seconds=4.0)
        with ServerThread(config) as srv:
            hub = srv.hub
            owner = hub.cluster
            assert owner is not None
            real_create = hub.storage.create_table
            scanned: list[str] = []

            async def create_then_scan(row: Any, events: Any) -> None:
                await real_create(row, events)  # committed: owner n0, epoch 1
                scanned.append(row.id)
                await owner.scan()  # what the scanner may do before new_table goes on

            async def make() -> tuple[str, int, int]:
                hub.storage.create_table = create_then_scan  # type: ignore[method-assign]
                try:
                    table = await hub.new_table(
                        kind="private",
                        mode=None,
                        rules=Rules.preset("standard", deals=1, target_score=None),
                        options={"bots": True},
                        host=None,
                    )
                finally:
                    hub.storage.create_table = real_create  # type: ignore[method-assign]
                return table.id, owner.takeovers, owner.owned[table.id]

            table_id, takeovers, epoch = srv.call(make)
            assert scanned == [table_id]
            assert takeovers == 0, "the node took its own new table back from the database"
            assert epoch == 1
            assert not hub.creating

            # and the table is played on by one actor: four people sit, no storage error
            async def sit() -> list[str | None]:
                clients = [Client(srv.url, name=f"R{i}") for i in range(4)]
                for c in clients:
                    await c.connect()
                code = hub.tables[table_id].row.code
                for c in clients:
                    await c.join(code=code)
                seats = [s.get("name") for s in clients[0].tables[table_id].info["seats"]]
                for c in clients:
                    await c.close()
                return seats

            assert asyncio.run(sit()) == ["R0", "R1", "R2", "R3"]
