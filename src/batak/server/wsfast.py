"""uvicorn's websocket protocol with shortcuts for a server that sends many small messages.

The server sends about five messages for every move a player makes (the mover's ``ack`` and an
``event`` to each seat). Through ASGI each one is a coroutine chain: the connection's sender
task wakes, Starlette's ``send_text`` builds a message dict, uvicorn's ``send`` awaits that the
socket is writable and hands the text to the websockets library, which builds a frame object
and serialises it. :class:`BatakWebSockets` keeps that path and adds, as an ASGI extension in
the connection's scope (:data:`DIRECT_SEND`), a plain function that frames a text message and
writes it to the socket at once when it may: the handshake is done, no close was sent or
received, and the socket's buffer is under its high-water mark (else it answers False and the
caller takes the ASGI path, which waits). The frame is the same the websockets library writes
for a server's text message (unmasked, final, opcode 1); a connection that agreed on an
extension (compression: ``batak serve`` offers none) gets no direct writes.

The second shortcut is on the way in: uvicorn stops reading a socket after every message until
the app has taken it (two system calls a message); here a socket is stopped only when
:data:`BACKLOG` messages wait unread, which still bounds what a client can queue. The app may
also take the messages straight from that inbox (the scope entry's ``take`` and ``wait``:
:func:`direct_receiver`), without a coroutine of Starlette's and one of uvicorn's for every
message, which the event loop would keep (and the garbage collector walk) while the client
thinks.

Third, the keepalive ping (every ``ws_ping_interval``, 20 s by default, closed when no pong comes
within ``ws_ping_timeout``) goes only to a connection that has been quiet for the interval:
anything it sent, a message or its own ping, shows it is alive as well as a pong would. A client
that says something within every interval (a move, a chat, a ``ping``) is never pinged, so the
server writes no pings to it and reads no pongs; one that only listens is pinged once an interval
as before, and a dead one is dropped within the interval plus the timeout of the last thing it
sent.

Fourth, the frames a client sends are mostly one kind: whole, final, masked text frames of a
few dozen bytes (a move, a ping). Those are read here (:meth:`BatakWebSockets.data_received`):
the header is read, the payload unmasked with the websockets library's own C routine, and the
text handed to the app, with the library's checks made here (the mask, no reserved bits, not
inside a fragmented message, the size limit), for frames of up to :data:`READ_HERE_MAX` bytes.
A client's ping (the websockets library's clients send one every 20 s) is answered here too,
with the pong the library would write: its data, unmasked. Every other frame (pong, close,
fragments, binary, a longer one, a frame the library would refuse) is handed to the websockets
library whole and in order, from its first byte, so the library answers and refuses exactly as
before and is always at the start of a frame when one is read here. The library's parser is a
chain of generators with a frame object per frame; with :class:`batak.server.conn.Inbox` this
made a move about 6% cheaper (``benchmarks/README.md``).

``batak serve`` and the test harness use this protocol; an app under another ASGI server gets
no :data:`DIRECT_SEND` and uses ASGI alone (:class:`batak.server.conn.Conn` handles both).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from .conn import Inbox

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a websockets built without its C speedups
    from websockets.utils import apply_mask

__all__ = [
    "BACKLOG",
    "DIRECT_SEND",
    "READ_HERE_MAX",
    "BatakWebSockets",
    "direct_receiver",
    "direct_sender",
    "text_frame",
]

#: The scope extension's name; its value is ``{"send_text": function(str) -> bool}``.
DIRECT_SEND = "batak.direct_send"

#: Messages read from a socket and not yet taken by the app before the socket is paused.
BACKLOG = 16

#: The longest text frame read here (longer ones go to the websockets library): a frame that
#: comes in pieces is kept until it is whole, and copying at most this much a piece keeps a
#: client that sends a byte at a time from costing more than it does the library.
READ_HERE_MAX = 8192


def text_frame(data: bytes) -> bytes:
    """A server's final, unmasked text frame carrying ``data`` (RFC 6455, section 5.2)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


def direct_sender(scope: Any) -> Callable[[str], bool] | None:
    """The connection's direct send from an ASGI websocket scope, or None under another server."""
    ext = scope.get("extensions") or {}
    found = ext.get(DIRECT_SEND)
    return found.get("send_text") if isinstance(found, dict) else None


def direct_receiver(
    scope: Any,
) -> tuple[Callable[[], Any], Callable[[], asyncio.Future[None]]] | None:
    """The connection's direct receive from an ASGI websocket scope: ``take()``, the next
    message the client sent (the ASGI message, as ``receive()`` gives it) or None when none is
    waiting, and ``wait()``, a future done when one comes; None under another server."""
    ext = scope.get("extensions") or {}
    found = ext.get(DIRECT_SEND)
    if not isinstance(found, dict) or "take" not in found:
        return None
    return found["take"], found["wait"]


#: What the shortcuts use of uvicorn's protocol object besides its documented methods; under a
#: uvicorn whose protocol lacks any of them the class behaves exactly as uvicorn's own.
_NEEDED = (
    "conn",
    "transport",
    "scope",
    "queue",
    "writable",
    "frames",
    "curr_msg_data_type",
    "read_paused",
    "close_sent",
    "handshake_complete",
    "handshake_initiated",
    "ping_interval",
)

#: What the frame reader uses of the websockets library's protocol object (``conn``): under a
#: websockets without them (13 says ``cur_size``) the library reads every frame.
_LIBRARY_NEEDED = ("reader", "current_size", "max_message_size", "extensions", "state")


class BatakWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, with :data:`DIRECT_SEND` and reading paused only
    for a backlog (see the module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "scope" is set at the handshake: the others must be there from the start
        self.shortcuts = all(hasattr(self, name) for name in _NEEDED if name != "scope")
        if self.shortcuts and isinstance(self.queue, asyncio.Queue):
            # what the client sent, for the app (one reader: its receive); leaner than a Queue
            self.queue = Inbox()  # type: ignore[assignment]
        #: the loop's time when the client last sent anything (for the keepalive)
        self.heard = self.loop.time()
        #: reading frames ourselves (see :meth:`data_received`): None until the handshake is
        #: done, then True, or False for good once the library must read everything
        self.reading: bool | None = None
        self._head = b""  # the start of a frame not all here yet (its header, or a whole frame)
        self._library_left = 0  # bytes of the current frame still owed to the library
        self.read_here = 0  # messages read here (the rest went through the library)
        self.pings_here = 0  # pings answered here
        self._early = False  # bytes came after the request before the handshake was done

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        if self.reading:
            self._read_frames(data)
            return
        if self.reading is None and self.shortcuts:
            if self.handshake_complete:
                # the first data since the handshake: frames are read here from now on, unless
                # the library may be inside a frame (bytes came before the answer to the
                # request: a client that did not wait for it)
                conn = self.conn
                self.reading = (
                    all(hasattr(conn, name) for name in _LIBRARY_NEEDED)
                    and not conn.extensions
                    and not (self._early or conn.reader.buffer)
                )
                if self.reading:
                    self._read_frames(data)
                    return
            elif self.handshake_initiated:
                self._early = True  # frames before the handshake was done
            else:
                super().data_received(data)
                # the request is complete with this data: anything after it is early
                if self.handshake_initiated and not data.endswith(b"\r\n\r\n"):
                    self._early = True
                return
        super().data_received(data)

    def _read_frames(self, data: bytes) -> None:
        """Read what came: each whole, final, masked text frame of a message that is not
        fragmented goes to the app at once (the library's checks, made here: the mask, the
        size limit, no reserved bits), and a ping is answered with its pong; every other frame
        (pongs, closes, fragments, binary, anything the library refuses) is handed to the
        library whole, in order, so that it answers and refuses as it always does. The library
        is given frames from their first byte only, so it is at a frame's start whenever a
        frame is read here."""
        conn = self.conn
        if self._head:
            data = self._head + data
            self._head = b""
        pos, end = 0, len(data)
        while pos < end:
            if self._library_left:
                n = min(self._library_left, end - pos)
                self._library_left -= n
                super().data_received(data[pos : pos + n])
                pos += n
                if conn.state is not State.OPEN or self.close_sent:
                    self._library_reads_rest(data[pos:])
                    return
                continue
            if end - pos < 2:
                self._head = data[pos:]
                return
            b0, b1 = data[pos], data[pos + 1]
            length = b1 & 0x7F
            head = 2
            if length == 126:
                head = 4
            elif length == 127:
                head = 10
            if b1 & 0x80:
                head += 4
            if end - pos < head:
                self._head = data[pos:]
                return
            if length == 126:
                length = int.from_bytes(data[pos + 2 : pos + 4], "big")
            elif length == 127:
                length = int.from_bytes(data[pos + 2 : pos + 10], "big")
            total = head + length
            limit = conn.max_message_size
            if (
                b1 & 0x80  # masked, as a client's frames must be
                and (limit is None or length <= limit)
                and conn.state is State.OPEN
                and not self.close_sent
                and (
                    (  # final, no reserved bits, text, not inside a fragmented message
                        b0 == 0x81 and conn.current_size is None and length <= READ_HERE_MAX
                    )
                    # a ping: final, no reserved bits, at most the 125 bytes of a control frame
                    # (the library refuses more)
                    or (b0 == 0x89 and length < 126)
                )
            ):
                if end - pos < total:  # kept until the rest comes (at most READ_HERE_MAX)
                    self._head = data[pos:]
                    return
                payload = apply_mask(
                    data[pos + head : pos + total], data[pos + head - 4 : pos + head]
                )
                pos += total
                if b0 == 0x89:
                    # the pong the library would send (RFC 6455, 5.5.2: the ping's data)
                    self.transport.write(bytes((0x8A, length)) + payload)
                    self.pings_here += 1
                    continue
                self.read_here += 1
                self._to_app(payload, True)
                if conn.state is not State.OPEN:  # refused as not UTF-8: closing
                    self._library_reads_rest(data[pos:])
                    return
                continue
            self._library_left = total

    def _library_reads_rest(self, rest: bytes) -> None:
        """The connection is closing: the library reads everything from here on (this too)."""
        self.reading = False
        if rest:
            super().data_received(rest)

    def send_keepalive_ping(self) -> None:
        interval = self.ping_interval if self.shortcuts else None
        if interval:
            quiet = self.loop.time() - self.heard
            # heard from lately: ask again when it has been quiet so long (a millisecond's
            # slack: uvloop's clock counts whole milliseconds)
            if quiet < interval - 0.001:
                self.ping_timer = self.loop.call_later(interval - quiet, self.send_keepalive_ping)
                return
        super().send_keepalive_ping()

    async def run_asgi(self) -> None:
        # the entry is made before the app runs (it reads it at once), and only when no
        # extension such as compression was agreed, which would change the frames (batak serve
        # offers none)
        if self.shortcuts and not self.conn.extensions:
            direct: dict[object, object] = {"send_text": self.send_text_now}
            queue: Any = self.queue
            if isinstance(queue, Inbox):
                direct["take"] = self.take_message
                direct["wait"] = queue.wait
            self.scope["extensions"][DIRECT_SEND] = direct
        await super().run_asgi()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # the scope holds a bound method of this object: without the entry, the protocol, its
        # scope and its buffers are freed as soon as the connection is, not at the next full
        # garbage collection (batak serve runs those rarely: see serve.GcPacer)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(DIRECT_SEND, None)

    def take_message(self) -> Any:
        """The next message for the app if one is waiting, else None: what uvicorn's
        ``receive`` returns, reading resumed as it resumes it, without a coroutine (and, for
        the app, without Starlette's around it) for every message."""
        queue = self.queue
        if queue.empty():
            return None
        message = queue.get_nowait()
        if self.read_paused and queue.empty():
            self.read_paused = False
            self.transport.resume_reading()
        return message

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one frame now, if the socket takes it without waiting; False when
        it must go through ASGI (handshake not done, closing, or the buffer is full)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.conn.state is not State.OPEN
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(text_frame(text.encode()))
        return True

    def send_receive_event_to_app(self) -> None:
        if not self.shortcuts:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        self._to_app(data, self.curr_msg_data_type == "text")

    def _to_app(self, data: bytes, text: bool) -> None:
        """A whole message for the app (the frame reader's own go straight here, without the
        list of frames the library's path keeps)."""
        if self.close_sent:
            return  # past our close: the message is dropped, reading goes on to the close reply
        if text:
            try:
                message: Any = {"type": "websocket.receive", "text": data.decode()}
            except UnicodeDecodeError:
                # invalid UTF-8 in a text message: closed with 1007, as uvicorn does
                self.logger.info("a websocket client sent a text message that is not UTF-8")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        else:
            message = {"type": "websocket.receive", "bytes": data}
        self.queue.put_nowait(message)
        if not self.read_paused and self.queue.qsize() >= BACKLOG:
            self.read_paused = True
            self.transport.pause_reading()
