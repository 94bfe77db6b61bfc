"""The server's websocket shortcuts (batak.server.wsfast): the frames it writes itself are the
websockets library's own, messages keep their order when a slow reader makes them wait and
then go direct again, and a client that sends many messages at once has them all answered."""

from __future__ import annotations

import asyncio
import gc
import json
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config
from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import Frame, Opcode

from batak.server.wsfast import BACKLOG, BatakWebSockets, text_frame


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 200_000])
def test_a_direct_frame_is_the_one_the_websockets_library_writes(size: int) -> None:
    data = ("é" * size).encode()[:size]  # any bytes: the frame does not look inside
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)


async def _seated(ws: ClientConnection) -> str:
    """hello and create on a raw connection; the new table's id."""
    await ws.send('{"type": "hello"}')
    await ws.send('{"type": "create"}')
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if m["type"] == "sync":
            return str(m["table"])


def test_messages_keep_their_order_when_a_slow_reader_makes_them_wait(tmp_path: Path) -> None:
    """A reader that stops reading fills the socket; the server then queues (the direct write
    says no) and sends the queue in order once the reader goes on; every message arrives once,
    in order, and the connection lives."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url, max_queue=4, max_size=None) as ws:
                table_id = await _seated(ws)
                table = srv.hub.tables[table_id]
                conn = next(iter(table.subs))
                assert conn._direct is not None, "the harness serves with BatakWebSockets"
                pad = "x" * 20_000

                async def flood() -> tuple[int, int]:
                    before = len(conn._queue)
                    most = 0
                    for i in range(400):  # 8 MB, more than the socket's buffers hold
                        table.notice({"type": "presence", "table": table_id, "i": i, "pad": pad})
                        most = max(most, len(conn._queue))
                    return before, most

                before, most = srv.call(flood)
                assert before == 0
                assert most > 0, "the socket never filled: the test proves nothing"
                seen = []
                while len(seen) < 400:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if m["type"] == "presence" and "i" in m:
                        seen.append(m["i"])
                assert seen == list(range(400))
                await ws.send('{"type": "ping", "t": 3}')
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "pong":
                        break

                async def queued() -> int:
                    return len(conn._queue)

                assert srv.call(queued) == 0  # drained, so the next ones go direct again

        asyncio.run(main())


def test_a_burst_of_messages_is_answered_in_full_and_in_order(tmp_path: Path) -> None:
    """More messages at once than the server reads ahead (BACKLOG) are all answered, in
    order: reading pauses and resumes without losing one."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                await ws.send('{"type": "hello"}')
                count = BACKLOG * 3
                for t in range(count):
                    await ws.send(json.dumps({"type": "ping", "t": t}))
                got = []
                while len(got) < count:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "pong":
                        got.append(m["t"])
                assert got == list(range(count))

        asyncio.run(main())


def test_a_connection_that_agreed_on_compression_gets_no_direct_writes(tmp_path: Path) -> None:
    """Under a server that offers compression (batak serve does not), a client that takes it
    gets compressed frames through the websockets library: the direct write stays off."""
    with ServerThread(fast_config(tmp_path), deflate=True) as srv:

        async def main() -> None:
            async with connect(srv.url, compression="deflate") as ws:
                table_id = await _seated(ws)
                conn = next(iter(srv.hub.tables[table_id].subs))
                assert conn._direct is None
                await ws.send('{"type": "ping", "t": 1}')
                while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                    pass

        asyncio.run(main())


def test_a_closed_connection_is_freed_without_waiting_for_the_collector(tmp_path: Path) -> None:
    """The direct write is a bound method kept in the connection's scope; when the connection
    ends that entry goes, so the protocol object is freed by reference counting alone (batak
    serve runs full garbage collections rarely)."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> list[weakref.ref[Any]]:
            refs = []
            for _ in range(3):
                async with connect(srv.url) as ws:
                    await ws.send('{"type": "ping", "t": 1}')
                    await asyncio.wait_for(ws.recv(), 10)
                    protocols = list(srv.server.server_state.connections)
                    refs += [weakref.ref(p) for p in protocols if isinstance(p, BatakWebSockets)]
            return refs

        gc.collect()
        gc.disable()
        try:
            refs = asyncio.run(main())
            assert refs, "no BatakWebSockets connection seen: the test proves nothing"
            deadline = time.monotonic() + 10
            while any(r() is not None for r in refs) and time.monotonic() < deadline:
                time.sleep(0.05)
            alive = sum(r() is not None for r in refs)
        finally:
            gc.enable()
        assert alive == 0, f"{alive} of {len(refs)} closed connections still held"


def test_keepalive_pings_go_only_to_quiet_connections(tmp_path: Path) -> None:
    """A client heard from within the ping interval is not pinged; a quiet one is, and answers;
    one that stops answering (its reading paused, so no pong) is closed within the interval plus
    the timeout."""
    interval, timeout = 0.4, 0.4
    with ServerThread(fast_config(tmp_path), ping_interval=interval, ping_timeout=timeout) as srv:

        async def main() -> None:
            # the client itself never pings: only what it says shows it is alive (and it reads
            # none of the pongs: no limit on what waits unread, so it never stops reading)
            async with connect(srv.url, ping_interval=None, max_queue=None) as ws:
                await ws.send('{"type": "hello"}')
                await asyncio.wait_for(ws.recv(), 10)
                (proto,) = [
                    p for p in srv.server.server_state.connections if isinstance(p, BatakWebSockets)
                ]
                assert proto.shortcuts
                end = time.monotonic() + 4 * interval
                while time.monotonic() < end:  # busy: a message every quarter interval
                    await ws.send('{"type": "ping", "t": 1}')
                    await asyncio.sleep(interval / 4)
                assert proto.ping_sent_at == 0.0, "a busy connection was pinged"
                pinged = time.monotonic()
                while proto.ping_sent_at == 0.0:  # quiet: pinged after an interval, it answers
                    assert time.monotonic() < pinged + 5 * interval, "a quiet one was never pinged"
                    await asyncio.sleep(interval / 8)
                await asyncio.sleep(timeout * 2)
                assert not proto.transport.is_closing(), "closed although it answered the ping"
                ws.transport.pause_reading()  # now deaf: the next ping gets no pong
                deaf = time.monotonic()
                while not proto.transport.is_closing():
                    assert time.monotonic() < deaf + 5 * (interval + timeout), "never dropped"
                    await asyncio.sleep(interval / 8)
                waited = time.monotonic() - deaf
                assert waited > timeout, waited  # it was given the timeout to answer

        asyncio.run(main())
