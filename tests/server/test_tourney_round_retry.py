"""A tournament round whose tables could not be stored, tried again (Tournaments, with a hub of
its own: no server, no database)."""

from __future__ import annotations

import asyncio
import itertools
from types import SimpleNamespace
from typing import Any

import pytest

from batak.rules import Rules
from batak.server import tournament
from batak.server.storage import StorageError
from batak.server.tournament import Tournaments


class _Table:
    """A round's table as Tournaments uses it: an id, and its actor's call."""

    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.seated = False

    async def call(self, fn: Any) -> None:
        self.seated = True


class _Storage:
    def __init__(self) -> None:
        self.saved: list[tuple[str, int]] = []

    async def save_tournament(
        self,
        tid: str,
        status: str,
        start_at: float,
        created: float,
        doc: Any,
        *,
        new: bool,
        limits: Any = None,
    ) -> None:
        self.saved.append((status, doc["round"]))


def _hub() -> Any:
    async def unmake(table: _Table) -> None:
        hub.unmade.append(table.id)

    hub = SimpleNamespace(
        cluster=None, storage=_Storage(), online={}, tables={}, unmake=unmake, unmade=[]
    )
    return hub


def _doc(status: str = "scheduled", rnd: int = 0, rounds: int = 2) -> dict[str, Any]:
    return {
        "id": "T1",
        "name": "Bahar",
        "preset": "classic",
        "rules": Rules().to_dict(),
        "rounds": rounds,
        "deals": 1,
        "start_at": 0.0,
        "created": 0.0,
        "creator": "p1",
        "creator_name": "Ayşe",
        "status": status,
        "round": rnd,
        "bot_level": "medium",
        "seed": 7,
        "players": [{"id": "p1", "name": "Ayşe"}, {"id": "p2", "name": "Veli"}],
        "tables": [],
        "finished": None,
    }


def _tables(monkeypatch: pytest.MonkeyPatch, fail: list[int]) -> list[_Table]:
    """Each round table made is listed; the makings whose count is in ``fail`` (1-based) raise
    StorageError, as a database refusing the table's row does."""
    made: list[_Table] = []
    count = itertools.count(1)

    async def new(self: Any, doc: Any, rules: Any, number: int, seed: int, dealer: int) -> Any:
        if next(count) in fail:
            raise StorageError("the disk is full (a test)")
        table = _Table(f"r{doc['round']}t{number}-{len(made)}")
        made.append(table)
        return table

    monkeypatch.setattr(Tournaments, "_new_round_table", new)
    monkeypatch.setattr(Tournaments, "_seat", lambda *a, **k: None)
    return made


async def _until(test: Any) -> None:
    for _ in range(500):
        if test():
            return
        await asyncio.sleep(0.01)


def test_a_later_round_whose_table_could_not_be_stored_is_tried_again_on_one_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 1 over, round 2's second table refused: on a single process (no cluster, so no
    poll() at a beat) the round is tried again START_RETRY seconds later, as a start is.
    Before, the round was undone and nothing ever made it again: the tournament stayed in
    play with round 1 over until the server restarted."""
    monkeypatch.setattr(tournament, "START_RETRY", 0.01)
    made = _tables(monkeypatch, fail=[2])

    async def go() -> tuple[dict[str, Any], list[str]]:
        hub = _hub()
        tours = Tournaments(hub)
        doc = _doc(status="playing", rnd=1)
        doc["tables"] = [
            {"id": "a", "round": 1, "number": 1, "seats": ["p1", None, None, None],
             "names": [], "scores": [[1, 0, 0, 0]]},
            {"id": "b", "round": 1, "number": 2, "seats": ["p2", None, None, None],
             "names": [], "scores": None},
        ]  # fmt: skip
        tours.docs["T1"] = doc
        tours.by_table.update({"a": "T1", "b": "T1"})
        await tours._table_done("b", [[0, 1, 0, 0]])  # round 1 over: round 2 refused
        assert doc["round"] == 1 and len(doc["tables"]) == 2
        await _until(lambda: doc["round"] == 2)
        tours.stop()
        return doc, hub.unmade

    doc, unmade = asyncio.run(go())
    assert doc["round"] == 2, "round 2 was never made again"
    assert [t["round"] for t in doc["tables"]] == [1, 1, 2, 2]
    assert unmade == [made[0].id]  # the table made the first time, closed
    assert all(t.seated for t in made[1:])


def test_a_start_failing_as_the_server_stops_is_not_tried_again_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tournament's start in progress when the server stops (Tournaments.stop) fails as
    storage closes: no new start is scheduled then. Before, the failed start scheduled another
    START_RETRY seconds later, after the stop, and so on every few seconds with storage gone."""
    monkeypatch.setattr(tournament, "START_RETRY", 0.01)
    gate: list[asyncio.Event] = []

    async def new(self: Any, doc: Any, rules: Any, number: int, seed: int, dealer: int) -> Any:
        await gate[0].wait()
        raise StorageError("storage is closed (a test)")

    monkeypatch.setattr(Tournaments, "_new_round_table", new)

    async def go() -> tuple[list[str], dict[str, Any]]:
        gate.append(asyncio.Event())
        tours = Tournaments(_hub())
        doc = _doc()
        tours.adopt(doc)  # (starts at once: its time is past)
        await asyncio.sleep(0.05)  # the start is making its first table
        tours.stop()
        gate[0].set()
        await asyncio.sleep(0.1)
        return list(tours._timers), doc

    timers, doc = asyncio.run(go())
    assert timers == [], "a start was scheduled again after the stop"
    assert doc["status"] == "scheduled" and doc["round"] == 0


def test_a_start_that_keeps_failing_is_tried_again_less_and_less_often(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each try of a start whose second table the database always refuses stores its first
    table, closes it and logs a warning: every START_RETRY (5) seconds for good, that was 720
    tables and warnings an hour. The wait doubles after each failure, up to RETRY_MAX."""
    monkeypatch.setattr(tournament, "START_RETRY", 0.001)
    monkeypatch.setattr(tournament, "RETRY_MAX", 0.008, raising=False)
    _tables(monkeypatch, fail=list(range(2, 200, 2)))  # every second table made is refused
    delays: list[float | None] = []
    schedule = Tournaments._schedule

    def recorded(self: Any, doc: Any, delay: float | None = None) -> None:
        delays.append(delay)
        schedule(self, doc, delay)

    monkeypatch.setattr(Tournaments, "_schedule", recorded)

    async def go() -> None:
        tours = Tournaments(_hub())
        tours.adopt(_doc())
        await _until(lambda: len(delays) >= 7)
        tours.stop()

    asyncio.run(go())
    assert delays[0] is None  # (its time)
    assert delays[1:7] == [0.001, 0.002, 0.004, 0.008, 0.008, 0.008], delays


def test_a_cluster_round_that_keeps_failing_is_not_tried_at_every_beat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a cluster, poll() tries a round whose making failed again at each beat (every 2 s):
    with a table the database always refuses, a table stored and closed and a warning every 2 s
    for good. It now waits as a start does: START_RETRY after the first failure, then twice
    the last wait (the tournament module's clock is a stand-in here)."""
    made = _tables(monkeypatch, fail=list(range(2, 200, 2)))  # every second table refused
    now = [1000.0]
    clock = SimpleNamespace(time=lambda: now[0], monotonic=lambda: now[0])
    monkeypatch.setattr(tournament, "time", clock)

    async def go() -> list[int]:
        hub = _hub()
        hub.cluster = SimpleNamespace(tourney_lost=lambda tid: None, tourney_note=lambda *a: None)
        tours = Tournaments(hub)
        doc = _doc(status="playing", rnd=1)
        doc["tables"] = [
            {"id": "a", "round": 1, "number": 1, "seats": ["p1", "p2", None, None],
             "names": [], "scores": [[1, 0, 0, 0]]},
        ]  # fmt: skip
        tours.docs["T1"] = doc
        tries = []
        for at in (0, 1, 4, 5.5, 10, 15, 16):  # seconds since the first beat
            now[0] = 1000.0 + at
            await tours.poll()
            tries.append(len(made))
        return tries

    # tried at 0 (fails: next at 5), 5.5 (next at 15.5), 16
    assert asyncio.run(go()) == [1, 1, 1, 2, 2, 2, 3]


def test_a_catch_up_after_a_restart_that_fails_is_tried_again_on_one_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tournament in play adopted at a start whose catch-up (its tables read from storage,
    then the next round) meets a database error: tried again, as a round is. Before, the
    catch-up's task died ("Task exception was never retrieved") and the tournament stayed
    where it was until the next restart: here, round 1 over and round 2 never made."""
    monkeypatch.setattr(tournament, "START_RETRY", 0.01)
    made = _tables(monkeypatch, fail=[])
    refused: list[bool] = []

    async def tourney_tables(tid: str) -> list[str]:
        if not refused:
            refused.append(True)
            raise StorageError("the database is away (a test)")
        return ["a"]

    async def go() -> dict[str, Any]:
        hub = _hub()
        hub.storage.tourney_tables = tourney_tables
        tours = Tournaments(hub)
        doc = _doc(status="playing", rnd=1)
        doc["tables"] = [
            {"id": "a", "round": 1, "number": 1, "seats": ["p1", "p2", None, None],
             "names": [], "scores": [[1, 0, 0, 0]]},
        ]  # fmt: skip
        tours.adopt(doc)
        await _until(lambda: doc["round"] == 2)
        tours.stop()
        return doc

    doc = asyncio.run(go())
    assert refused and doc["round"] == 2, "the catch-up was never tried again"
    assert len(made) == 2 and all(t.seated for t in made)
