"""Time for the server's clocks, injectable so tests can move it by hand.

>>> import asyncio
>>> async def demo() -> list[float]:
...     clock = ManualClock()
...     seen: list[float] = []
...     async def waiter() -> None:
...         await clock.sleep_until(5.0)
...         seen.append(clock.now())
...     task = asyncio.create_task(waiter())
...     await asyncio.sleep(0)
...     clock.advance(3.0)
...     await asyncio.sleep(0)
...     clock.advance(3.0)
...     await task
...     return seen
>>> asyncio.run(demo())
[6.0]
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock"]


class Clock(Protocol):
    """A monotonic time source with a way to wait for a moment."""

    def now(self) -> float: ...

    async def sleep_until(self, moment: float) -> None: ...


class SystemClock:
    """The real clock (``time.monotonic``)."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep_until(self, moment: float) -> None:
        delay = moment - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)

    def call_at(self, moment: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
        """Call ``callback`` in the running event loop at ``moment`` (a cancellable timer:
        cheaper than a task sleeping until then)."""
        return asyncio.get_running_loop().call_later(max(0.0, moment - time.monotonic()), callback)


class ManualClock:
    """A clock that moves only when :meth:`advance` is called (from any thread)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._waiters: list[tuple[float, int, asyncio.Future[None]]] = []
        self._count = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, moment: float) -> None:
        if moment <= self._now:
            return
        loop = asyncio.get_running_loop()
        self._loop = loop
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            heapq.heappush(self._waiters, (moment, next(self._count), fut))
        await fut

    def advance(self, seconds: float) -> None:
        """Move time on and wake every sleeper whose moment has come."""
        loop = self._loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is not None and running is not loop:
            done = threading.Event()

            def step() -> None:
                self._advance(seconds)
                done.set()

            loop.call_soon_threadsafe(step)
            done.wait(5)
            return
        self._advance(seconds)

    def _advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
            due = []
            while self._waiters and self._waiters[0][0] <= self._now:
                due.append(heapq.heappop(self._waiters)[2])
        for fut in due:
            if not fut.done():
                fut.set_result(None)
