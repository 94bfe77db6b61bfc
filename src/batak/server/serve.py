"""Run the server under uvicorn (the ``batak serve`` command is :mod:`batak.cli.serve`)."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable

from .config import ServerConfig

__all__ = ["event_loop", "run", "tune_gc"]


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
            ws="websockets-sansio",
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
    server.run()
    return 0


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
    """Fewer, cheaper garbage collections for a long-running server with many tables: what was
    made at start-up is frozen out of the collector's sight, and the young generation is
    collected after 50,000 allocations instead of 700. A full collection of a heap holding
    thousands of connections otherwise stops every table for a few hundred milliseconds, often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
