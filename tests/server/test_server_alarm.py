"""The decision clock's timer, kept from one decision to the next (table._Alarm): it rings for
the decision in progress when that decision's time is up, never for one that is over, and a
table whose moves come quickly still times out a person who stops playing. Bounds only from
below (a busy machine makes things later, never sooner)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from harness import ServerThread, fast_config, room

from batak.server.clock import SystemClock
from batak.server.table import _Alarm


class StubTable:
    """What an alarm reads of its table: the decision's epoch and deadline, the clock, post."""

    def __init__(self) -> None:
        self.clock = SystemClock()
        self._epoch = 0
        self.deadline: float | None = None
        self.posted: list[tuple[int, float]] = []  # (epoch, when its deadline was reached)

    def start(self, seconds: float) -> int:
        self._epoch += 1
        self.deadline = self.clock.now() + seconds
        return self._epoch

    def post(self, fn: Any) -> None:
        asyncio.get_running_loop().create_task(fn())

    async def _on_deadline(self, epoch: int) -> None:
        self.posted.append((epoch, self.clock.now()))


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_an_alarm_rings_once_for_the_decision_in_progress_when_its_time_is_up() -> None:
    async def main() -> None:
        t = StubTable()
        alarm = _Alarm(t, t.clock.call_at)  # type: ignore[arg-type]
        e1 = t.start(0.05)
        alarm.set(t.deadline, e1)  # type: ignore[arg-type]
        handle = alarm._handle
        await asyncio.sleep(0.02)
        # a move: a new decision, due later; the same timer is kept
        e2 = t.start(0.15)
        second = t.deadline
        alarm.set(second, e2)  # type: ignore[arg-type]
        assert alarm._handle is handle
        await asyncio.sleep(0.35)
        assert [e for e, _ in t.posted] == [e2]  # never for the decision that was over
        assert t.posted[0][1] >= second - _Alarm.SLACK  # not before its time
        assert alarm.epoch is None and alarm._handle is None

    run(main())


def test_an_earlier_deadline_makes_a_new_timer_and_a_disarmed_alarm_posts_nothing() -> None:
    async def main() -> None:
        t = StubTable()
        alarm = _Alarm(t, t.clock.call_at)  # type: ignore[arg-type]
        alarm.set(t.clock.now() + 5.0, t.start(5.0))
        far = alarm._handle
        e = t.start(0.05)
        alarm.set(t.deadline, e)  # type: ignore[arg-type]
        assert alarm._handle is not far and far is not None and far.cancelled()
        await asyncio.sleep(0.2)
        assert [x for x, _ in t.posted] == [e]

        # disarmed (the decision went to a bot, the match ended): its ring does nothing
        alarm.set(t.clock.now() + 0.05, t.start(0.05))
        alarm.cancel()
        await asyncio.sleep(0.2)
        assert len(t.posted) == 1

        # closed (the table stops): the event loop's timer itself is cancelled
        alarm.set(t.clock.now() + 5.0, t.start(5.0))
        handle = alarm._handle
        alarm.close()
        assert handle is not None and handle.cancelled() and alarm._handle is None

    run(main())


def test_a_person_who_stops_playing_after_quick_moves_is_timed_out_on_the_real_clock(
    tmp_path: Path,
) -> None:
    """Moves in quick succession keep one timer (each decision's deadline is later than the
    last); when the seat to move then says nothing, its decision still runs out on time and the
    server plays for it."""
    decision = 2.0
    config = fast_config(tmp_path, decision_seconds=decision, bank_seconds=0.0)
    with ServerThread(config) as srv:

        async def main() -> None:
            clients, tid = await room(srv, deals=1)
            for _ in range(6):  # six quick decisions
                seat = clients[0].tables[tid].view["to_move"]
                c = clients[seat]
                st = c.tables[tid]
                v = st.v
                await c.move(tid, st.view["legal_moves"][0])
                await c.until(lambda c=c, v=v: c.tables[tid].state_v > v)
                now = c.tables[tid].v
                for other in clients:
                    await other.until(lambda o=other, now=now: o.tables[tid].v >= now)
            waiting = clients[0].tables[tid].view["to_move"]
            since = time.monotonic()
            v = clients[0].tables[tid].v
            await clients[0].until(lambda: clients[0].tables[tid].state_v > v, 10)
            waited = time.monotonic() - since
            moves = [e for e in clients[0].tables[tid].events if e.get("kind") == "move"]
            last = moves[-1]
            assert last["by"] == "timeout" and last["seat"] == waiting
            assert waited >= decision - 0.1  # not before the decision's time was up
            for c in clients:
                await c.close()

        asyncio.run(main())
