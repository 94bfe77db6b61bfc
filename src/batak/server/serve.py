"""Run the server under uvicorn (the ``batak serve`` command is :mod:`batak.cli.serve`)."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .config import ServerConfig, is_wildcard

if TYPE_CHECKING:
    from .hub import Hub

__all__ = [
    "GcPacer",
    "event_loop",
    "listen",
    "resident_bytes",
    "run",
    "tune_gc",
    "websocket_protocol",
]

log = logging.getLogger(__name__)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``, as uvicorn would bind it (an IPv6 wildcard, ``::``,
    takes IPv4 connections too); raises :class:`OSError`
    (``EADDRINUSE``: another program listens there) before anything else is started."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and is_wildcard(host):
            # every interface, IPv4 too, whatever the system's default (bindv6only): the
            # start line's address to open is http://127.0.0.1:PORT
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(
    config: ServerConfig,
    log_level: str = "warning",
    on_start: Callable[[Hub], None] | None = None,
    sock: socket.socket | None = None,
    on_stop: Callable[[], None] | None = None,
) -> int:
    """Serve until interrupted. ``sock``: already bound (:func:`listen`), else bound here.
    ``on_start`` is called with the started :class:`Hub` once the server listens (to tell
    where, and what it found at its start); it is not called when the start fails (the log
    says why), and the return value is then 3.
    ``on_stop`` is called once a started server has shut down cleanly (every table stored),
    before uvicorn raises again the signal that stopped it (the process then ends as that
    signal says: 130 after Ctrl+C, killed by SIGTERM for a service manager)."""
    import uvicorn

    from .app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("uvicorn.error").addFilter(_no_addresses)
    if sock is None:
        sock = listen(config.host, config.port)
    app = create_app(config)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await super().shutdown(sockets=sockets)
            if self.started and on_stop is not None:
                on_stop()

    server = Server(
        uvicorn.Config(
            app,
            host=config.host,
            port=config.port,
            loop=event_loop(),
            ws=websocket_protocol(),
            ws_max_size=config.transport_max_bytes,
            ws_per_message_deflate=False,
            log_level=log_level,
            access_log=False,
            lifespan="on",
        )
    )
    tune_gc()

    async def serve() -> None:
        pacer = GcPacer(asyncio.get_running_loop())
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            while not server.started and not task.done():
                await asyncio.wait({task}, timeout=0.05)
            if server.started and on_start is not None:
                on_start(app.state.hub)
            await task
        finally:
            pacer.stop()

    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(serve())
    return 0 if server.started else 3


def _no_addresses(record: logging.LogRecord) -> bool:
    """Leave out uvicorn's line for each websocket opened or refused (at ``info``): it names the
    client's address, and the server keeps no access log (docs/security.md)."""
    return '"WebSocket %s"' not in str(record.msg)


def websocket_protocol() -> type:
    """uvicorn's websocket protocol with the server's shortcuts (:mod:`batak.server.wsfast`)."""
    from .wsfast import BatakWebSockets

    return BatakWebSockets


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    if event_loop() == "uvloop":
        import uvloop

        return uvloop.new_event_loop
    return None


def event_loop() -> str:
    """uvloop when installed (a dependency of batak on Linux and macOS: its event loop, written
    in C over libuv, takes a sixth less of the server's CPU per move than asyncio's own; see
    benchmarks/README.md), else asyncio's."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


def resident_bytes() -> int | None:
    """This process's resident memory in bytes (Linux's /proc), or None where it cannot be
    read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def tune_gc() -> None:
    """What was made at start-up is frozen out of the collector's sight, and the collector's own
    triggers are switched off: :class:`GcPacer` runs the collections on the event loop's clock
    instead."""
    gc.collect()
    gc.freeze()
    gc.disable()


class GcPacer:
    """Garbage collection by the clock, in small steps, for a server holding thousands of
    connections.

    CPython starts a collection when the objects made since the last one outnumber those freed
    by a threshold. In a server at steady state old objects die as fast as new ones are made, so
    that count hardly moves while the youngest generation fills with every connection's waiting
    coroutines, futures and timers; when a collection finally comes it walks hundreds of
    thousands of them at once (measured at 2,000 tables: young collections of 135-170 ms every
    30 s, a middle one of 650-680 ms while the tables were being set up). Collected every
    ``young`` seconds instead, the youngest generation holds only what was made since, and each
    pause is a few milliseconds; every ``middle``-th time the middle generation is collected too
    (what survived the last ``young * middle`` seconds). A full collection, the only one that
    walks the whole heap, runs every ``full`` seconds, for the reference cycles that outlived
    both, and sooner when the process has grown: when its resident memory (read every
    ``check_every`` steps) is more than ``grow`` times what it was after the last full collection
    (or at the start), and ``full_gap`` seconds have passed since that one. At 2,000 tables a
    full collection pauses the loop for about a second, so it stays rare; growing by a quarter
    is CPython's own rule for its full collections, counted there in objects."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        *,
        young: float = 0.1,
        middle: int = 5,
        full: float = 6 * 3600.0,
        grow: float = 1.25,
        full_gap: float = 600.0,
        check_every: int = 100,
        memory: Callable[[], int | None] | None = None,
    ) -> None:
        self.loop = loop
        self.young = young
        self.middle = middle
        self.full = full
        self.grow = grow
        self.full_gap = full_gap
        self.check_every = check_every
        self._memory = memory if memory is not None else resident_bytes
        self.ticks = 0
        self.full_collections = 0
        self.longest = 0.0  # the longest pause so far, in seconds (for the log)
        self._last_full = loop.time()
        self._baseline = self._memory()  # resident bytes after the last full collection
        self._timer: asyncio.TimerHandle | None = loop.call_later(young, self.tick)

    def tick(self) -> None:
        """One step: a collection of the generation that is due (the loop's timer runs it)."""
        if self._timer is not None:
            self._timer.cancel()
        self.ticks += 1
        now = self.loop.time()
        if now - self._last_full >= self.full or self._grown(now):
            generation = 2
        elif self.middle and self.ticks % self.middle == 0:
            generation = 1
        else:
            generation = 0
        start = time.perf_counter()
        gc.collect(generation)
        pause = time.perf_counter() - start
        if generation == 2:
            self.full_collections += 1
            self._last_full = now
            self._baseline = self._memory()
        if pause > self.longest:
            self.longest = pause
            log.info("garbage collection of generation %d took %.1f ms", generation, pause * 1e3)
        self._timer = self.loop.call_later(self.young, self.tick)

    def _grown(self, now: float) -> bool:
        """Is a full collection due because the process grew (see the class's text)?"""
        if self.ticks % self.check_every or now - self._last_full < self.full_gap:
            return False
        if self._baseline is None:
            return False
        size = self._memory()
        if size is None or size <= self._baseline * self.grow:
            return False
        log.info(
            "a full garbage collection: the process grew from %d to %d MiB",
            self._baseline >> 20,
            size >> 20,
        )
        return True

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
