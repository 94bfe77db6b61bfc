"""The ``review`` request over real sockets: a finished deal's double-dummy review in each asker's
language, for players and watchers; refused before the deal is over and when the review workers
are all busy; served from the cache the second time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import ServerThread, fast_config, room

from batak.bots.review import review_deal
from batak.server.client import Client, ServerError


def test_review_of_a_finished_deal(tmp_path: Path) -> None:
    config = fast_config(tmp_path, review_seconds=100.0, review_workers=1, review_queue=0)
    with ServerThread(config) as srv:

        async def main() -> None:
            clients, t = await room(srv, preset="standard", deals=2, langs=["en", "tr", "en", "en"])
            by_seat = {c.tables[t].seat: c for c in clients}
            table = srv.hub.tables[t]
            match = table.match
            assert match is not None
            with pytest.raises(ServerError) as e:  # deal 1 is being played
                await clients[0].review(t, 1)
            assert e.value.code == "no_deal"
            # play deal 1 out: every seat its first legal move
            while len(match.games) < 2:
                seat = match.to_move
                assert seat is not None
                c = by_seat[seat]
                await c.until(lambda c=c: c.tables[t].v >= table.version)
                view = c.tables[t].view
                assert view is not None
                await c.move(t, view["legal_moves"][0])
            first = match.games[0]
            want = review_deal(first.copy())
            # the player at seat 0 (English) and at seat 1 (Turkish)
            en = await by_seat[0].review(t, 1)
            assert en["type"] == "review" and en["deal"] == 1
            # a very busy machine may stop the review at its time limit: then it says so, and
            # what it did is the start of the whole review
            assert en["complete"] is (len(en["decisions"]) == 52), en["complete"]
            got = [(d["seat"], d["card"], d["value"], d["best"]) for d in en["decisions"]]
            assert got == [(d.seat, d.card, d.value, d.best) for d in want.decisions][: len(got)]
            for d in en["decisions"]:
                assert d["cost"] == d["best"] - d["value"] >= 0
                assert d["card"] in d["best_cards"] or d["cost"] > 0
            # the koz played and the tricks taken: the deal is over, so both are known; and
            # whether nobody bid (the contract given at the lowest bid), as the lines say
            assert en["bidding"] == [
                {
                    "seat": b.seat,
                    "bid": b.bid,
                    "worth": b.worth,
                    "trump": b.trump,
                    "taken": b.taken,
                    "given": b.given,
                }
                for b in want.bidding
            ]
            assert all(b["trump"] in "SHDC" and b["taken"] is not None for b in en["bidding"])
            assert en["names"] == ["P0", "P1", "P2", "P3"]
            assert en["lines"] and all(isinstance(x, str) and x for x in en["lines"])
            tr = await by_seat[1].review(t, 1)
            assert tr["decisions"] == en["decisions"] and tr["lines"] != en["lines"]
            assert any("löve" in x or "koz" in x or "el" in x for x in tr["lines"])
            # a watcher may ask too; deal 2 is not over; a deal that does not exist
            watcher = Client(srv.url, name="W")
            await watcher.connect()
            await watcher.join(code=table.code, spectate=True)
            seen = await watcher.review(t, 1)
            assert seen["decisions"] == en["decisions"]
            for deal in (2, 7):
                with pytest.raises(ServerError) as e:
                    await watcher.review(t, deal)
                assert e.value.code == "no_deal"
            # a stranger is not at the table
            stranger = Client(srv.url, name="S")
            await stranger.connect()
            with pytest.raises(ServerError) as e:
                await stranger.review(t, 1)
            assert e.value.code in ("not_at_table", "no_table")
            # every worker busy: a deal not yet reviewed is refused politely; a cached one is not
            hub = srv.hub
            hub._reviews_running = config.review_workers + config.review_queue
            try:
                again = await by_seat[2].review(t, 1)
                assert again["decisions"] == en["decisions"]
                hub._reviews.clear()
                with pytest.raises(ServerError) as e:
                    await by_seat[2].review(t, 1)
                assert e.value.code == "busy"
                assert e.value.message
            finally:
                hub._reviews_running = 0
            for c in [*clients, watcher, stranger]:
                await c.close()

        asyncio.run(main())


#: a server in a process of its own, reduced to what matters here: it starts the review workers
#: as the hub does (the same function), has one do some work, says who the worker is, and waits
_PARENT = """
import os, time
from batak.server.hub import review_pool
pool = review_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def test_a_review_worker_ends_when_its_server_is_killed() -> None:
    """``kill -9`` of the server: its review worker does not wait for work forever (without
    the watch it does: it holds a copy of its work queue's writing end, so the queue never
    closes for it)."""
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    parent = subprocess.Popen([sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        ready, _, _ = select.select([parent.stdout], [], [], 60)
        assert ready, "the worker never answered"
        worker = int(parent.stdout.readline())
        os.kill(worker, 0)  # it runs
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while True:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break  # gone
        # (an orphan is adopted by init, or by a subreaper that may not reap it: a zombie counts)
        stat = Path(f"/proc/{worker}/stat")
        if stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"):
            break
        assert time.monotonic() < deadline, "the review worker outlived its server"
        time.sleep(0.05)
