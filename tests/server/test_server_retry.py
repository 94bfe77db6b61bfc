"""A bot's or a timeout's move that the storage fails to write is tried again (with a pause that
grows) instead of stalling the table; nothing is applied twice and no version is skipped."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, advance_async, fast_config

from batak.server.client import Client
from batak.server.clock import ManualClock
from batak.server.storage import StorageError


def _fail_once(srv: ServerThread, pred: Any) -> list[str]:
    """Make the storage refuse the first write of events matching ``pred`` (once per kind of
    failure asked for); returns the list of failures made."""
    storage = srv.hub.storage
    real = storage.append_events
    failed: list[str] = []

    async def append_events(table_id: str, events: Any, status: str | None = None) -> None:
        for e in events:
            what = pred(e)
            if what and what not in failed:
                failed.append(what)
                raise StorageError(f"disk on fire ({what})")
        await real(table_id, events, status)

    storage.append_events = append_events  # type: ignore[method-assign]
    return failed


def test_bot_and_timeout_moves_are_retried_when_storing_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    config = fast_config(tmp_path, bank_seconds=0.0, retry_base=0.05, decision_seconds=25)
    with ServerThread(config, clock=clock) as srv:

        def which(e: Any) -> str | None:
            if e.kind == "move" and e.data.get("by") in ("bot", "timeout"):
                return str(e.data["by"])
            return None

        failed = _fail_once(srv, which)
        storage = srv.hub.storage
        real_finish = storage.finish_table

        async def finish_table(*args: Any) -> None:
            if "finish" not in failed:
                failed.append("finish")
                raise StorageError("disk on fire (finish)")
            await real_finish(*args)

        storage.finish_table = finish_table  # type: ignore[method-assign]

        async def main() -> None:
            caplog.set_level(logging.WARNING, logger="batak.server")
            host = Client(srv.url, name="Host")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1, bots=True)
            t = table.id
            await host.start(t)
            # the bots play until it is the host's turn; the first bot move failed once
            await host.until(lambda: host.tables[t].my_turn, 20)
            # the host lets the clock run out: the timeout's move fails once, then is stored
            v = host.tables[t].v
            await advance_async(srv, clock, 25.5)
            await host.until(
                lambda: any(
                    e["kind"] == "move" and e.get("by") == "timeout" for e in host.tables[t].events
                ),
                20,
            )
            assert host.tables[t].v > v
            final = await host.play(t, timeout=60)
            assert final.over
            assert "timeout" in failed
            # the record could not be written at the first try: it is, a moment later
            for _ in range(100):
                if srv.hub.tables[t].finished:
                    break
                await asyncio.sleep(0.05)
            assert srv.hub.tables[t].finished
            # every version once, none skipped, each move applied once
            sync = await host.sync(t, since=0)
            versions = [e["v"] for e in sync["events"]]
            assert versions == list(range(versions[0], versions[0] + len(versions)))
            await host.close()

        asyncio.run(main())
        assert set(failed) == {"bot", "timeout", "finish"}
        retries = [r for r in caplog.records if "trying again" in r.getMessage()]
        assert len(retries) >= len(failed) >= 1


def test_a_change_waiter_cancelled_before_it_ran_leaves_no_coroutine_unawaited() -> None:
    """``Client.change_waiter`` made the event's wait as its task's argument: a waiter
    cancelled before its first step (a bot's choice finished first) left that coroutine never
    awaited, and Python warned at the end of a test run ("coroutine 'Event.wait' was never
    awaited"). The wait is now made when the task runs."""
    import gc
    import warnings

    async def main() -> None:
        c = Client("ws://127.0.0.1:9/ws", name="X")
        c.closed = False  # (as if connected: the waiter needs no socket)
        waiter = c.change_waiter(5)
        waiter.cancel()  # before the loop ran it
        with pytest.raises(asyncio.CancelledError):
            await waiter

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        asyncio.run(main())
        gc.collect()
    said = [str(w.message) for w in seen]
    assert not [w for w in said if "never awaited" in w], said
