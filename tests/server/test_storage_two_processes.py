"""Two processes on one SQLite database (``batak admin`` beside a running server): a job that
reads and then writes must wait for the other's write, not fail."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from batak.server.storage import PlayerRow, Storage, open_storage


async def _read_then_write(one: Storage, other: Storage) -> None:
    """``one`` reads, ``other`` writes and commits meanwhile, then ``one`` writes."""
    read = threading.Event()
    written = threading.Event()

    def reader(cur: Any) -> None:
        cur.execute(one.q("SELECT name FROM players WHERE id = ?"), ("pa",))
        cur.fetchone()
        read.set()
        written.wait(2)  # the other's write waits for this job's lock (or commits at once)
        cur.execute(one.q("UPDATE players SET name = ? WHERE id = ?"), ("Ayşe", "pa"))

    def writer(cur: Any) -> None:
        cur.execute(other.q("UPDATE players SET name = ? WHERE id = ?"), ("Bora", "pb"))

    first = asyncio.ensure_future(one.run(reader))
    await asyncio.to_thread(read.wait, 5)
    second = asyncio.ensure_future(other.run(writer))
    await asyncio.sleep(0.3)  # the writer's commit (deferred) or its wait for the lock
    written.set()
    await asyncio.gather(first, second)


@pytest.mark.parametrize("immediate", [True, False])
def test_a_job_that_reads_then_writes_waits_for_another_process(
    tmp_path: Path, immediate: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'batak.sqlite3'}"

    async def main() -> None:
        one, other = open_storage(url, immediate=immediate), open_storage(url, immediate=immediate)
        await one.open()
        await other.open()
        try:
            await one.create_player(PlayerRow("pa", "A", "ta", 0.0))
            await one.create_player(PlayerRow("pb", "B", "tb", 0.0))
            await _read_then_write(one, other)
            assert (await one.player_by("id", "pa")).name == "Ayşe"  # type: ignore[union-attr]
            assert (await one.player_by("id", "pb")).name == "Bora"  # type: ignore[union-attr]
        finally:
            await one.close()
            await other.close()

    if immediate:
        asyncio.run(main())
    else:  # what it did before: SQLITE_BUSY_SNAPSHOT, "database is locked", at once
        with pytest.raises(Exception, match="locked"):
            asyncio.run(main())
