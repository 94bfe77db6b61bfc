"""The server's garbage collection by the clock (:class:`batak.server.serve.GcPacer`).

`batak serve` switches CPython's own collection triggers off and collects on the event loop's
clock instead (benchmarks/README.md, "Garbage collection by the clock"): these tests check that
reference cycles are still freed, that the generations come in the stated order, and that the
pacer stops with the loop.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from batak.server.serve import GcPacer


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector_off() -> Iterator[None]:
    """As under `batak serve`: no collection happens unless the pacer runs one."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def make_cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_dropped_reference_cycle_is_freed_by_the_pacer(collector_off: None) -> None:
    async def main() -> tuple[bool, bool]:
        loop = asyncio.get_running_loop()
        ref = make_cycle()
        await asyncio.sleep(0.15)
        before = ref() is not None  # the collector's triggers are off: nothing freed it yet
        pacer = GcPacer(loop, young=0.02, middle=3)
        try:
            await asyncio.sleep(0.2)
        finally:
            pacer.stop()
        return before, ref() is None

    before, freed = asyncio.run(main())
    assert before, "the cycle was freed without the pacer: the test proves nothing"
    assert freed


def test_a_cycle_that_outlived_young_collections_is_freed_by_a_middle_one(
    collector_off: None,
) -> None:
    async def main() -> list[bool]:
        # the pacer's own timer never fires here: each step is run by hand
        pacer = GcPacer(asyncio.get_running_loop(), young=3600.0, middle=4)
        try:
            keep = Node()
            keep.other = keep
            ref = weakref.ref(keep)
            pacer.tick()  # young: it survives, into the middle generation
            del keep
            alive = []
            for _ in range(3):  # two more young ones leave it alone; the fourth step is middle
                pacer.tick()
                alive.append(ref() is not None)
            return alive
        finally:
            pacer.stop()

    assert asyncio.run(main()) == [True, True, False]


def collections_of(steps: Callable[[GcPacer], None], **options: Any) -> tuple[list[int], GcPacer]:
    """Make a pacer with ``options`` (its own timer never fires: every step is run by hand in
    ``steps``); the generation of every collection it started, in order, and the pacer."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    async def main() -> GcPacer:
        pacer = GcPacer(asyncio.get_running_loop(), young=3600.0, **options)
        gc.callbacks.append(note)
        try:
            steps(pacer)
        finally:
            gc.callbacks.remove(note)
            pacer.stop()
        return pacer

    return seen, asyncio.run(main())


def test_the_generations_come_young_middle_and_full_on_schedule(collector_off: None) -> None:
    def steps(pacer: GcPacer) -> None:
        for _ in range(9):
            pacer.tick()
        pacer.full = 0.0  # the next step is due a full collection
        pacer.tick()
        pacer.full = 3600.0
        pacer.tick()

    seen, pacer = collections_of(steps, middle=3, full=3600.0)
    assert seen == [0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 0]
    assert pacer.longest > 0


def test_the_pacer_stops(collector_off: None) -> None:
    async def main() -> int:
        pacer = GcPacer(asyncio.get_running_loop(), young=0.01)
        await asyncio.sleep(0.05)
        pacer.stop()
        ticks = pacer.ticks
        await asyncio.sleep(0.05)
        return pacer.ticks - ticks

    assert asyncio.run(main()) == 0


def _generations(pacer_steps: int, **options: Any) -> tuple[list[int], GcPacer]:
    """Run ``pacer_steps`` steps with a fake memory reading that grows by 40% at the third step
    (checked every second step); the generations collected and the pacer."""
    sizes = [100 << 20]

    def steps(pacer: GcPacer) -> None:
        for step in range(1, pacer_steps + 1):
            if step == 3:
                sizes[0] = 140 << 20  # grown by 40%
            pacer.tick()

    return collections_of(
        steps, middle=0, full=3600.0, check_every=2, memory=lambda: sizes[0], **options
    )


def test_a_process_that_grew_by_a_quarter_gets_a_full_collection(collector_off: None) -> None:
    seen, pacer = _generations(8, full_gap=0.0)
    # checked at every second step: at step 2 it had not grown, at step 4 it had; the full
    # collection resets the measure, so 140 MiB is the new base and no other one follows
    assert seen == [0, 0, 0, 2, 0, 0, 0, 0]
    assert pacer.full_collections == 1


def test_growth_waits_for_the_gap_since_the_last_full_collection(collector_off: None) -> None:
    seen, pacer = _generations(8, full_gap=3600.0)
    assert seen == [0] * 8
    assert pacer.full_collections == 0


def test_resident_memory_is_read() -> None:
    from batak.server.serve import resident_bytes

    size = resident_bytes()
    if size is None:
        pytest.skip("no /proc here")
    assert 10 << 20 < size < 10 << 30  # a Python process with the server imported
