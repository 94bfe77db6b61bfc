"""Run the server under uvicorn (the ``batak serve`` command is :mod:`batak.cli.serve`)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

from .config import ServerConfig

__all__ = ["GcPacer", "event_loop", "run", "tune_gc", "websocket_protocol"]

log = logging.getLogger(__name__)


def run(
    config: ServerConfig,
    log_level: str = "warning",
    on_start: Callable[[], None] | None = None,
) -> int:
    """Serve until interrupted; ``on_start`` is called once the app is made, to tell where."""
    import uvicorn

    from .app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    app = create_app(config)
    server = uvicorn.Server(
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
    if on_start is not None:
        on_start()

    async def serve() -> None:
        pacer = GcPacer(asyncio.get_running_loop())
        try:
            await server.serve()
        finally:
            pacer.stop()

    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(serve())
    return 0


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
    both."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        *,
        young: float = 0.1,
        middle: int = 5,
        full: float = 6 * 3600.0,
    ) -> None:
        self.loop = loop
        self.young = young
        self.middle = middle
        self.full = full
        self.ticks = 0
        self.longest = 0.0  # the longest pause so far, in seconds (for the log)
        self._last_full = loop.time()
        self._timer: asyncio.TimerHandle | None = loop.call_later(young, self.tick)

    def tick(self) -> None:
        """One step: a collection of the generation that is due (the loop's timer runs it)."""
        if self._timer is not None:
            self._timer.cancel()
        self.ticks += 1
        now = self.loop.time()
        if now - self._last_full >= self.full:
            generation = 2
            self._last_full = now
        elif self.middle and self.ticks % self.middle == 0:
            generation = 1
        else:
            generation = 0
        start = time.perf_counter()
        gc.collect(generation)
        pause = time.perf_counter() - start
        if pause > self.longest:
            self.longest = pause
            log.info("garbage collection of generation %d took %.1f ms", generation, pause * 1e3)
        self._timer = self.loop.call_later(self.young, self.tick)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
