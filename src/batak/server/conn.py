"""One client connection: who it is, its outgoing queue, its rate limits."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .protocol import dumps

__all__ = ["Bucket", "Conn", "Inbox", "Player"]

_ids = itertools.count(1)
log = logging.getLogger("batak.server")


T = TypeVar("T")


class Inbox(Generic[T]):
    """A first-in first-out queue with one reader, for the event loop's own thread: what
    :class:`asyncio.Queue` does for a table's actor and a connection's incoming messages, without
    its bookkeeping for many readers and writers (a deque, and one future while the reader
    waits). Unbounded: its writers bound what they put (a socket stops being read past a
    backlog; a table's callers each wait for their answer)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        w = self._waiter
        if w is not None:
            self._waiter = None
            if not w.done():
                w.set_result(None)

    async def get(self) -> T:
        items = self._items
        while not items:
            await self.wait()  # a reader cancelled here leaves a done waiter: the next replaces it
        return items.popleft()

    def wait(self) -> asyncio.Future[None]:
        """For a reader that finds the inbox empty: a future done when an item comes (awaited
        as it is, it costs no coroutine, as :meth:`get` does; :meth:`get_nowait` then takes the
        item)."""
        w = self._waiter
        if w is not None and not w.done():
            raise RuntimeError("Inbox has one reader")
        w = self._waiter = asyncio.get_running_loop().create_future()
        if self._items:  # came already: nothing to wait for
            self._waiter = None
            w.set_result(None)
        return w

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)


@dataclass
class Player:
    id: str
    name: str
    account: str | None = None  # username when logged in to an account
    played: bool = False  # known to have sat at a table (stored: such a guest is kept)
    bot_account: bool = False  # a program playing through the protocol, marked as a bot
    level: int | None = None  # from their XP (server/progress.py); None until looked up


class Bucket:
    """A token bucket: ``rate`` per second, up to ``burst`` at once."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= cost:
            self.level -= cost
            return True
        return False


class Conn:
    """A client's socket as the hub and the tables see it: ``send`` never blocks."""

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Coroutine[Any, Any, None]],
        *,
        queue_size: int = 2048,
        lang: str = "en",
        address: str = "",
        direct: Callable[[str], bool] | None = None,
    ) -> None:
        self.id = next(_ids)
        self.player: Player | None = None
        self.address = address  # the client's network address (for per-address limits)
        self.token_hash: str | None = None  # the session this connection speaks for
        self.guest: tuple[Player, str] | None = None  # the guest made here, with its token
        self.lang = lang
        self.tables: set[str] = set()
        #: said in ``hello``: the event of an applied move is its acknowledgement (no ``ack``)
        self.ack_in_event = False
        self._send_text = send_text
        # writes a message at once when the socket takes it (False: it must wait); see
        # batak.server.wsfast. Used only when nothing is queued, so the order is kept.
        self._direct = direct
        self._close = close
        # the outgoing messages (None: stop) and the sender's wake-up: a plain deque and one
        # future rather than an asyncio.Queue, whose bookkeeping cost more than the message
        self._queue: deque[str | None] = deque()
        self._queue_size = queue_size
        self._wake: asyncio.Future[None] | None = None
        self._sending = False  # a message taken from the queue is being written
        self._drained: asyncio.Future[None] | None = None  # flush_and_close waits on it
        self.closed = False
        self.sent = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        queue = self._queue
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not queue:
                    self._set_drained()
                    self._wake = loop.create_future()
                    try:
                        await self._wake
                    finally:
                        self._wake = None
                    continue
                text = queue.popleft()
                if text is None:
                    break
                self._sending = True
                try:
                    await self._send_text(text)
                finally:
                    self._sending = False
                self.sent += 1
        except Exception as e:
            if not self.closed:
                self._send_failed(e)
                self.closed = True
                with contextlib.suppress(Exception):
                    await self._close(1011, "send failed")

    def _send_failed(self, e: Exception) -> None:
        """A message that cannot be sent (one the socket cannot encode, or a socket that broke)
        must not leave a connection that looks alive but says nothing: it is closed (by the
        caller), so that the client notices, reconnects and resyncs."""
        # a text the socket cannot encode is the server's fault (and worth a warning); a socket
        # that went away is not
        level = logging.WARNING if isinstance(e, UnicodeError) else logging.DEBUG
        log.log(level, "connection %s: a send failed (%r); closing it", self.id, e)

    def send(self, msg: dict[str, Any]) -> None:
        try:
            text = dumps(msg)
        except (TypeError, ValueError) as e:  # a message JSON cannot carry: never half-sent
            log.warning(
                "connection %s: a %s message could not be encoded (%s); closing it",
                self.id,
                msg.get("type"),
                e,
            )
            self._fail()
            return
        self.send_text(text)

    def _fail(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to close
                asyncio.get_running_loop().create_task(self._close(1011, "send failed"))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self._direct is not None and not self._queue and not self._sending:
            try:
                if self._direct(text):
                    self.sent += 1
                    return
            except Exception as e:
                self._send_failed(e)
                self._fail()
                return
        if len(self._queue) >= self._queue_size:  # a client that cannot keep up is dropped
            self.closed = True
            asyncio.get_running_loop().create_task(self._close(1013, "too slow"))
            return
        self._queue.append(text)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def _set_drained(self) -> None:
        drained = self._drained
        if drained is not None and not drained.done():
            drained.set_result(None)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            await self._close(code, reason)

    async def flush_and_close(self, code: int, reason: str, timeout: float = 2.0) -> None:
        """Send what is queued, then close."""
        if self._queue or self._sending:
            if self._drained is None or self._drained.done():
                self._drained = asyncio.get_running_loop().create_future()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._drained), timeout)
        await self.close(code, reason)

    async def finish(self) -> None:
        """Stop the sender (after the socket closed)."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def __repr__(self) -> str:
        who = self.player.name if self.player else "?"
        return f"<Conn {self.id} {who}>"
