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


# ---------------------------------------------------------------- frames read by the server itself
def _masked(opcode: Opcode, data: bytes, fin: bool = True, mask: bool = True) -> bytes:
    """A client's frame (masked, as clients must; ``mask=False`` for one that breaks the rule)."""
    return Frame(opcode, data, fin).serialize(mask=mask)


def _text(msg: dict[str, Any]) -> bytes:
    return _masked(Opcode.TEXT, json.dumps(msg).encode())


class _Raw:
    """A raw socket speaking websockets through the library's sans-I/O client, so that a test
    sends exactly the bytes it wants, cut where it wants."""

    def __init__(self, srv: ServerThread) -> None:
        self.srv = srv
        self.frames: list[Frame] = []

    async def open(self) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        host, port = self.srv.url.split("//")[1].split("/")[0].rsplit(":", 1)
        self.reader, self.writer = await asyncio.open_connection(host, int(port))
        self.client = ClientProtocol(parse_uri(self.srv.url), max_size=None)
        self.client.send_request(self.client.connect())
        self.writer.write(b"".join(self.client.data_to_send()))
        while self.client.state.name == "CONNECTING":
            self.client.receive_data(await asyncio.wait_for(self.reader.read(65536), 10))
        assert self.client.handshake_exc is None
        self.client.events_received()

    async def send(self, stream: bytes, chunks: list[int]) -> None:
        """Write ``stream`` in pieces of the sizes in ``chunks`` (cycled), each on its own."""
        pos, k = 0, 0
        while pos < len(stream):
            n = chunks[k % len(chunks)]
            try:
                self.writer.write(stream[pos : pos + n])
                await self.writer.drain()
            except ConnectionError:
                return  # the server closed (what it said is still read by read_until)
            await asyncio.sleep(0.001 if n < 4 else 0)  # so that pieces arrive apart
            pos += n
            k += 1

    async def read_until(self, done: Any) -> None:
        """Read the server's frames until ``done(self)`` or the server closes."""
        while not done(self):
            try:
                data = await asyncio.wait_for(self.reader.read(65536), 10)
            except ConnectionError:
                return
            if not data:
                return
            self.client.receive_data(data)
            self.frames += [e for e in self.client.events_received() if isinstance(e, Frame)]

    def messages(self, kind: str) -> list[dict[str, Any]]:
        out = []
        for f in self.frames:
            if f.opcode is Opcode.TEXT:
                m = json.loads(f.data)
                if m["type"] == kind:
                    out.append(m)
        return out

    def close_code(self) -> int | None:
        for f in self.frames:
            if f.opcode is Opcode.CLOSE:
                return int.from_bytes(f.data[:2], "big")
        return None

    async def seated(self, reading: bool = True) -> BatakWebSockets:
        """Open, then hello and create; the server's protocol object of this connection, which
        reads the frames itself from now on (``reading``)."""
        await self.open()
        await self.send(_text({"type": "hello"}) + _text({"type": "create"}), [1 << 20])
        await self.read_until(lambda r: r.messages("sync"))
        table = self.srv.hub.tables[self.messages("sync")[0]["table"]]
        conn = next(iter(table.subs))
        protocol: BatakWebSockets = conn._direct.__self__  # type: ignore[union-attr]
        assert protocol.reading is reading
        return protocol


def _mixed_stream(count: int) -> bytes:
    """``count`` pings of the protocol (``t`` from 0), among them websocket pings (one between
    two fragments of a message), messages in three fragments, long ones (a two-byte length)
    and pongs."""
    parts = []
    for t in range(count):
        ping = _masked(Opcode.PING, b"are you there") if t % 7 == 3 else b""
        if t % 11 == 5:
            data = json.dumps({"type": "ping", "t": t}).encode()
            parts.append(_masked(Opcode.TEXT, data[:4], fin=False))
            parts.append(ping)  # a control frame may come between a message's fragments
            parts.append(_masked(Opcode.CONT, data[4:9], fin=False))
            parts.append(_masked(Opcode.CONT, data[9:]))
        elif t % 13 == 8:
            long = '{"type": "ping",' + " " * 300 + f'"t": {t}}}'  # a two-byte length
            parts += [ping, _masked(Opcode.TEXT, long.encode())]
        else:
            parts += [ping, _text({"type": "ping", "t": t})]
        if t % 17 == 9:
            parts.append(_masked(Opcode.PONG, b""))
    return b"".join(parts)


@pytest.mark.parametrize("chunks", [[1 << 20], [1], [2, 3, 5, 7], [13, 1, 64, 2], [300, 9]])
def test_frames_read_by_the_server_itself_are_answered_as_the_library_would(
    tmp_path: Path, chunks: list[int]
) -> None:
    """Whole, final, masked text frames are read by the server itself (not the websockets
    library); the rest (control frames, fragments) goes to the library. Cut anywhere, even a
    byte at a time and inside a frame's header, every message is answered once and in order
    and every websocket ping gets its pong; a frame that comes in pieces waits for the rest
    and is still read by the server."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            raw = _Raw(srv)
            protocol = await raw.seated()
            before = protocol.read_here
            count = 60
            stream = _mixed_stream(count)
            await raw.send(stream, chunks)
            await raw.read_until(lambda r: len(r.messages("pong")) >= count)
            assert [m["t"] for m in raw.messages("pong")] == list(range(count))
            pongs = [f for f in raw.frames if f.opcode is Opcode.PONG]
            pinged = len([t for t in range(count) if t % 7 == 3])
            assert len(pongs) == pinged
            assert all(f.data == b"are you there" for f in pongs)
            # the pings were answered by the server itself, one inside a fragmented message too
            assert protocol.pings_here == pinged
            # the three-fragment messages went through the library, the others not
            fragmented = len([t for t in range(count) if t % 11 == 5])
            assert protocol.read_here - before == count - fragmented
            assert protocol.reading is True

        asyncio.run(main())


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (_masked(Opcode.TEXT, b'{"type": "ping"}', mask=False), 1002),  # unmasked: refused
        (_masked(Opcode.TEXT, b'{"type": "\xff"}'), 1007),
        (bytes([0xC1]) + _masked(Opcode.TEXT, b"{}")[1:], 1002),  # a reserved bit set
        (_masked(Opcode.CONT, b"{}"), 1002),  # a continuation of nothing
        # a control frame over 125 bytes (a two-byte length, masked with zeros)
        (b"\x89\xfe\x00\x7e" + bytes(4) + b"x" * 126, 1002),
        (_masked(Opcode.PING, b"?", mask=False), 1002),  # an unmasked ping
        (bytes([0x09]) + _masked(Opcode.PING, b"?")[1:], 1002),  # a fragmented ping
    ],
    ids=[
        "unmasked",
        "not-utf8",
        "reserved-bit",
        "stray-continuation",
        "long-ping",
        "unmasked-ping",
        "fragmented-ping",
    ],
)
def test_a_frame_the_library_refuses_is_still_refused(
    tmp_path: Path, frame: bytes, code: int
) -> None:
    """What the library refuses (an unmasked frame, text that is not UTF-8, reserved bits, a
    continuation without a start) closes the connection with the library's code, whichever
    side reads it."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            raw = _Raw(srv)
            protocol = await raw.seated()
            await raw.send(_text({"type": "ping", "t": 1}), [5])
            await raw.read_until(lambda r: r.messages("pong"))
            assert protocol.read_here == 3  # hello, create and the ping
            await raw.send(frame, [len(frame)])  # in one piece: nothing unread at the close
            await raw.read_until(lambda r: r.close_code() is not None)
            assert raw.close_code() == code

        asyncio.run(main())


def test_a_long_message_goes_through_the_library(tmp_path: Path) -> None:
    """A text frame longer than READ_HERE_MAX (but within the transport's size limit) is read
    by the library, in pieces too, and answered (the app refuses a message that long)."""
    from batak.server.wsfast import READ_HERE_MAX

    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            raw = _Raw(srv)
            protocol = await raw.seated()
            before = protocol.read_here
            long = '{"type": "ping",' + " " * READ_HERE_MAX + '"t": 5}'
            await raw.send(_masked(Opcode.TEXT, long.encode()) + _text({"type": "ping", "t": 6}),
                           [1000, 3])  # fmt: skip
            await raw.read_until(lambda r: r.messages("pong"))
            assert [m["code"] for m in raw.messages("error")] == ["too_big"]
            assert [m["t"] for m in raw.messages("pong")] == [6]
            assert protocol.read_here - before == 1  # the short one only
            assert protocol.reading is True

        asyncio.run(main())


def test_under_a_websockets_without_what_the_reader_needs_the_library_reads_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A websockets whose protocol object lacks what the frame reader uses (websockets 13 has
    ``cur_size``, not ``current_size``) gets every frame read by the library, as before."""
    import batak.server.wsfast as wsfast

    monkeypatch.setattr(wsfast, "_LIBRARY_NEEDED", (*wsfast._LIBRARY_NEEDED, "no_such_field"))
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            raw = _Raw(srv)
            protocol = await raw.seated(reading=False)
            count = 20
            stream = _mixed_stream(count)
            await raw.send(stream, [7])
            await raw.read_until(lambda r: len(r.messages("pong")) >= count)
            assert [m["t"] for m in raw.messages("pong")] == list(range(count))
            assert protocol.read_here == 0

        asyncio.run(main())


def test_a_message_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    """A whole text frame longer than the server takes is refused with 1009 (the library's
    rule), not read."""
    config = fast_config(tmp_path)
    with ServerThread(config) as srv:

        async def main() -> None:
            raw = _Raw(srv)
            await raw.seated()
            big = _masked(Opcode.TEXT, b" " * (config.transport_max_bytes + 1))
            await raw.send(big, [1 << 20])
            await raw.read_until(lambda r: r.close_code() is not None)
            assert raw.close_code() == 1009

        asyncio.run(main())


def test_an_inbox_gives_its_items_in_order_and_survives_a_cancelled_reader() -> None:
    """batak.server.conn.Inbox (a table's actor and a connection's incoming messages): first in,
    first out, a waiting reader wakes for the next item, and a reader cancelled while it waits
    loses nothing (the item put after goes to the next reader)."""
    from batak.server.conn import Inbox

    async def main() -> None:
        box: Inbox[int] = Inbox()
        for i in range(3):
            box.put_nowait(i)
        assert box.qsize() == 3 and not box.empty()
        assert [await box.get() for _ in range(3)] == [0, 1, 2]
        assert box.empty()
        with pytest.raises(asyncio.QueueEmpty):
            box.get_nowait()
        reader = asyncio.ensure_future(box.get())
        await asyncio.sleep(0)
        box.put_nowait(7)
        assert await asyncio.wait_for(reader, 1) == 7
        cancelled = asyncio.ensure_future(box.get())
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        box.put_nowait(8)
        box.put_nowait(9)
        assert await asyncio.wait_for(box.get(), 1) == 8
        assert box.get_nowait() == 9

    asyncio.run(main())


def test_an_inbox_waits_on_a_bare_future_and_a_second_reader_is_refused() -> None:
    """Inbox.wait (a table's actor, the socket reader's direct receive): done at once when an
    item is there, else when one is put; one reader at a time; a wait cancelled (its reader
    cancelled) leaves the inbox usable and loses nothing."""
    from batak.server.conn import Inbox

    async def main() -> None:
        box: Inbox[str] = Inbox()
        box.put_nowait("a")
        assert box.wait().done() and box.get_nowait() == "a"
        w = box.wait()
        assert not w.done()
        with pytest.raises(RuntimeError):
            box.wait()  # one reader
        box.put_nowait("b")
        await asyncio.wait_for(w, 1)
        assert box.get_nowait() == "b" and box.empty()

        async def reader() -> str:
            while box.empty():
                await box.wait()
            return box.get_nowait()

        cancelled = asyncio.ensure_future(reader())
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        box.put_nowait("c")
        assert await asyncio.wait_for(reader(), 1) == "c"

    asyncio.run(main())


def test_the_socket_reader_takes_messages_straight_from_the_inbox(tmp_path: Path) -> None:
    """Under batak serve's protocol the scope carries the direct receive (take, wait), and a
    client's messages, several sent at once and one after a pause, are all answered in order
    and a close is seen (the server counts the connection gone)."""
    from batak.server.client import Client

    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            c = Client(srv.url, name="Direct")
            await c.connect()
            refs = await asyncio.gather(*(c.request({"type": "ping"}) for _ in range(5)))
            assert [r["type"] for r in refs] == ["pong"] * 5
            await asyncio.sleep(0.2)
            assert (await c.request({"type": "ping"}))["type"] == "pong"
            before = srv.hub.connections
            await c.close()
            for _ in range(100):
                if srv.hub.connections < before:
                    break
                await asyncio.sleep(0.02)
            assert srv.hub.connections == before - 1

        asyncio.run(main())
