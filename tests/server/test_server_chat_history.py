"""A table keeps its recent chat (issue 10 item 13): the last 50 lines come with every sync, to
its players after a reconnect and to a spectator who just came, and they survive a restart of
the server (they are events of the table's stored log)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from harness import ServerThread, fast_config, free_port

from batak.server.client import Client
from batak.server.table import CHAT_KEPT


def test_recent_chat_comes_with_sync_to_players_and_spectators_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    config = fast_config(tmp_path / "data", chat_per_second=1000.0, chat_burst=1000.0)
    lines = [f"satır {i}" for i in range(CHAT_KEPT + 5)]
    state: dict[str, str] = {}

    with ServerThread(config) as srv:

        async def first() -> None:
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1)
            state["table"], state["code"] = table.id, table.info["code"]
            for line in lines:
                await host.chat(table.id, line)
            st = host.tables[table.id]
            await host.until(lambda: any(e.get("text") == lines[-1] for e in st.events))
            # a spectator who comes now sees the conversation so far: its last 50 lines
            watcher = Client(srv.url, name="İzleyici")
            await watcher.connect()
            await watcher.join(code=table.info["code"], spectate=True)
            sync = await watcher.sync(table.id)
            assert [c["text"] for c in sync["chat"]] == lines[-CHAT_KEPT:]
            assert {c["name"] for c in sync["chat"]} == {"Ayşe"}
            assert {c["seat"] for c in sync["chat"]} == {0}
            # the host, syncing again (a reload), gets the same lines
            again = await host.sync(table.id)
            assert again["chat"] == sync["chat"]
            state["token"] = host.token or ""
            await host.close()
            await watcher.close()

        asyncio.run(first())

    # the server is stopped and started again on the same data: the chat is still there
    with ServerThread(replace(config, port=free_port())) as srv:

        async def second() -> None:
            host = Client(srv.url, token=state["token"])
            await host.connect()
            await host.join(state["table"])
            sync = await host.sync(state["table"])
            assert [c["text"] for c in sync["chat"]] == lines[-CHAT_KEPT:]
            watcher = Client(srv.url, name="Başka")
            await watcher.connect()
            await watcher.join(code=state["code"], spectate=True)
            seen = await watcher.sync(state["table"])
            assert seen["chat"] == sync["chat"]
            await host.close()
            await watcher.close()

        asyncio.run(second())


def test_players_are_told_how_many_watch_and_a_spectators_line_has_no_seat(
    tmp_path: Path,
) -> None:
    """The table knows who watches it (its subscribers without a seat): a sync says how many,
    and a ``watchers`` message tells everyone when that changes; a spectator's chat line comes
    with ``seat`` null, so that clients can mark it."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1)
            assert (await host.sync(table.id))["watchers"] == 0
            watcher = Client(srv.url, name="İzleyici")
            await watcher.connect()
            await watcher.join(code=table.info["code"], spectate=True)
            told = await host.wait_for(lambda m: m.get("type") == "watchers", 10)
            assert told == {"type": "watchers", "table": table.id, "count": 1}
            assert (await host.sync(table.id))["watchers"] == 1
            await watcher.chat(table.id, "kolay gelsin")
            st = host.tables[table.id]
            await host.until(lambda: any(e.get("kind") == "chat" for e in st.events))
            line = next(e for e in st.events if e.get("kind") == "chat")
            assert line["seat"] is None and line["name"] == "İzleyici"
            await watcher.leave(table.id)
            told = await host.wait_for(
                lambda m: m.get("type") == "watchers" and m["count"] == 0, 10
            )
            assert (await host.sync(table.id))["watchers"] == 0
            await host.close()
            await watcher.close()

        asyncio.run(main())
