"""Duplicate tournaments on a cluster: real ``batak serve --node`` processes on a real
PostgreSQL and a throwaway redis-server. One process runs each tournament (its registrations,
its start, its rounds); the others forward its messages there; its tables' ends reach it; when
it is killed, a survivor takes the tournament over and finishes it; an account's limits are
counted over every process."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from cluster_harness import LEASE, Player, cluster, need_services, owner, stored_log
from websockets.exceptions import ConnectionClosed

from batak.server.client import Client, ServerError
from batak.server.tournament import PER_ACCOUNT, standings

PASSWORD = "uzun-parola-1"
# No pause after a trick (1.5 s by default: 20 s a deal, most of these tests' time): none
# where nothing waits on the play's pace, a short one where the round must still be in play a
# second after it starts (the kill of its process)
NO_PAUSE = ("--trick-pause", "0")
SHORT_PAUSE = ("--trick-pause", "0.2")


def _db_doc(db: str, tid: str) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute("SELECT data FROM tournaments WHERE id = %s", (tid,)).fetchone()
    assert row is not None
    return dict(json.loads(row[0]))


def _made_tables(db: str, tid: str) -> list[tuple[int, int, str]]:
    """Every table stored for the tournament: (round, number, status)."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute("SELECT options, status FROM tables").fetchall()
    out = []
    for options, status in rows:
        o = json.loads(options)
        if o.get("tournament") == tid:
            out.append((int(o["round"]), int(o["number"]), str(status)))
    return sorted(out)


def owner_epoch(conn: Any, table: str, key: str, value: str) -> tuple[str, int]:
    row = conn.execute(f"SELECT owner, epoch FROM {table} WHERE {key} = %s", (value,)).fetchone()
    return str(row[0]), int(row[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


async def _until_over(db: str, tid: str, timeout: float = 240.0) -> dict[str, Any]:
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:  # (a hang, not a speed check)
        doc = _db_doc(db, tid)
        if doc["status"] == "over":
            return doc
        await asyncio.sleep(0.2)
    raise AssertionError(f"the tournament is not over: {_db_doc(db, tid)}")


def _check_result(db: str, doc: dict[str, Any], rounds: int, http: str) -> None:
    """Exactly one set of tables a round (two: the second all bots), each stored once and
    over, and the standings those tables' records give."""
    made = _made_tables(db, doc["id"])
    want = [(r, n, "over") for r in range(1, rounds + 1) for n in (1, 2)]
    assert made == want, made
    assert sorted((t["round"], t["number"]) for t in doc["tables"]) == [m[:2] for m in want]
    # the standings again, from each table's game record as any client fetches it
    again = {**doc, "tables": []}
    for t in doc["tables"]:
        record = _get(http + f"/api/tables/{t['id']}/record")
        scores = [d["result"]["scores"] for d in record["deals"]]
        again["tables"].append({**t, "scores": scores})
    assert standings(again) == doc["standings"]
    assert all(row["boards"] > 0 for row in doc["standings"])


def test_a_tournament_made_on_one_process_is_joined_and_started_through_another(
    tmp_path: Path,
) -> None:
    """Scheduled on n0, registered for through n0 and n1, started by its creator through n1,
    played to the end by players connected to either: every registration counts, the round's
    tables are made once, and the standings are those of the tables' records. Before, n1 kept
    registrations in a document of its own (lost on n0) and its start did nothing (n1 did not
    hold the tournament)."""
    pytest.importorskip("argon2")
    need_services()
    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, _redis, db):
        n0, n1 = nodes

        async def main() -> dict[str, Any]:
            a = Client(n0.url, name="Ayşe")
            b = Client(n1.url, name="Berk")
            c = Client(n0.url, name="Cem")
            d = Client(n1.url, name="Deniz")
            for x in (a, b, c, d):
                await x.connect()
            await a.register("ayse", PASSWORD)
            t = await a.tourney_create(rounds=2, deals=1, start=int(time.time()) + 3600)
            tid = t["id"]
            await b.tourney_join(tid)  # through n1
            await c.tourney_join(tid)
            await d.tourney_join(tid)  # through n1
            await d.tourney_leave(tid)  # through n1 too
            shown = await c.tourney(tid)
            assert sorted(p["name"] for p in shown["registered"]) == ["Ayşe", "Berk", "Cem"]
            # its creator, logged in through the other process, starts it there
            a1 = Client(n1.url, name="Ayşe")
            await a1.connect()
            await a1.login("ayse", PASSWORD)
            await a1.tourney_start(tid)

            async def play_rounds(x: Client) -> None:
                for r in (1, 2):
                    note = await x.wait_for(
                        lambda m, r=r: m.get("type") == "tourney_table" and m["round"] == r, 90
                    )
                    st = await x.join(note["table"])
                    assert st.seat == note["seat"]
                    await x.play(note["table"], lambda v: str(v["legal_moves"][0]), timeout=120)

            await asyncio.gather(play_rounds(a), play_rounds(b), play_rounds(c))
            doc = await _until_over(db, tid)
            assert sorted(p["name"] for p in doc["players"]) == ["Ayşe", "Berk", "Cem"]
            for x in (a, a1, b, c, d):
                await x.close()
            return doc

        doc = asyncio.run(main())
        _check_result(db, doc, 2, n1.http)


async def _my_table(p: Player, tid: str, r: int, timeout: float = 120.0) -> str:
    """The table of round ``r`` the tournament lists for ``p`` (asked again through another
    process while the tournament's own is away)."""
    me = p.client.player["id"]
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:
        try:
            doc = await p.client.tourney(tid)
            for t in doc["tables"]:
                if t["round"] == r and me in t["players"]:
                    return str(t["id"])
            await asyncio.sleep(0.2)
        except ServerError as e:
            if e.code not in ("elsewhere", "storage"):
                raise
            await asyncio.sleep(0.2)
        except (ConnectionError, ConnectionClosed, OSError, TimeoutError):
            await p.reconnect()
    raise AssertionError(f"no table of round {r} for {me}")


def test_the_tournaments_process_killed_mid_round_the_survivor_finishes_it(
    tmp_path: Path,
) -> None:
    """kill -9 of the process that runs a tournament while its first round is played: the
    survivor takes the tournament over (and the round's tables), hears those tables end,
    makes the second round once and finishes it with the right standings. Before, the
    survivor did not run the tournament (it held only the tournaments stored at its own
    start), so the second round never came."""
    pytest.importorskip("argon2")
    need_services()
    with cluster(tmp_path, 2, extra=SHORT_PAUSE) as (nodes, _redis, db):
        n0, n1 = nodes

        def urls() -> list[str]:
            return [n.url for n in nodes if n.alive]

        async def main() -> dict[str, Any]:
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            t = await org.tourney_create(
                rounds=2, deals=2, start=int(time.time()) + 3600, join=False
            )
            tid = t["id"]
            players = [Player(f"P{i}", urls) for i in range(2)]
            for p in players:
                p.client.url = n0.url
                await p.connect()
                await p.client.tourney_join(tid)
                p.think = 0.05
                # then connected through the survivor-to-be (the same player: its token)
                await p.client.drop()
                p.client.url = n1.url
                await p.client.connect()
            await org.tourney_start(tid)
            tables = [await _my_table(p, tid, 1) for p in players]
            for p, table in zip(players, tables, strict=True):
                await p.client.join(table)
            games = [
                asyncio.create_task(p.play(table, timeout=240))
                for p, table in zip(players, tables, strict=True)
            ]
            await asyncio.sleep(1.0)
            assert not any(g.done() for g in games), "round 1 ended before the kill"
            n0.kill()
            await asyncio.gather(*games)
            # (the second round made by the survivor: a hang, not a speed check)
            second = [await _my_table(p, tid, 2, LEASE + 90) for p in players]
            for p, table in zip(players, second, strict=True):
                if table not in p.client.tables:
                    await p.client.join(table)
            await asyncio.gather(
                *(p.play(table, timeout=240) for p, table in zip(players, second, strict=True))
            )
            doc = await _until_over(db, tid)
            for p in players:
                await p.client.close()
            return doc

        doc = asyncio.run(main())
        _check_result(db, doc, 2, n1.http)


def test_an_accounts_limits_are_counted_over_every_process(tmp_path: Path) -> None:
    """A bot account registered through n1 for three tournaments run by n0 is refused a
    fourth run by n1 (``tourney_bot_quota``), and an account with three tournaments scheduled
    on n0 is refused a fourth on n1 (``tourney_quota``). Before, each process counted only
    the tournaments it held: n1 took both. Then, Redis gone, a registration through n1 for a
    tournament of n0 is refused with ``elsewhere`` in words that name the tournament (in
    English and Turkish); before, they said "this table is held by server n0"."""
    pytest.importorskip("argon2")
    need_services()
    with cluster(tmp_path, 2, own_redis=True) as (nodes, redis, _db):
        n0, n1 = nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            other = Client(n1.url, name="Berk")
            bot = Client(n1.url, name="robo")
            for x in (org, other, bot):
                await x.connect()
            await org.register("ayse", PASSWORD)
            await other.register("berk", PASSWORD)
            await bot.register("robosayi", PASSWORD, bot=True)
            start = int(time.time()) + 3600
            ids = [
                (await org.tourney_create(rounds=1, deals=1, start=start, join=False))["id"]
                for _ in range(PER_ACCOUNT)
            ]
            last = (await other.tourney_create(rounds=1, deals=1, start=start, join=False))["id"]
            for tid in ids:
                await bot.tourney_join(tid)  # forwarded to n0
            with pytest.raises(ServerError) as e:
                await bot.tourney_join(last)  # run by n1
            assert e.value.code == "tourney_bot_quota"
            shown = await other.tourney(last)
            assert shown["registered"] == []
            # withdrawn from one (through n1, run by n0), it may enter the one of n1
            await bot.tourney_leave(ids[0])
            await bot.tourney_join(last)
            # the organiser, with three scheduled on n0, schedules none more through n1
            org1 = Client(n1.url, name="Ayşe")
            await org1.connect()
            await org1.login("ayse", PASSWORD)
            with pytest.raises(ServerError) as e:
                await org1.tourney_create(rounds=1, deals=1, start=start, join=False)
            assert e.value.code == "tourney_quota"
            # Redis lost: a registration through n1 for a tournament n0 runs is refused with
            # ``elsewhere``, in words about the tournament, not about a table
            redis.kill()
            for lang, want, wrong in (("en", "tournament", "table"), ("tr", "turnuva", "masa")):
                x = Client(n1.url, name="Cem", lang=lang)
                await x.connect()
                stop = time.monotonic() + 30
                refused: ServerError | None = None
                while refused is None or refused.code != "elsewhere":
                    # (until n1 sees that Redis is gone: a hang, not a speed check)
                    assert time.monotonic() < stop, refused
                    try:
                        await x.tourney_join(ids[1])
                        raise AssertionError("registered through n1 without Redis")
                    except ServerError as e:
                        refused = e
                    except (ConnectionError, ConnectionClosed, TimeoutError):
                        await x.reconnect()  # (forwarded as Redis went: closed, or unanswered)
                    await asyncio.sleep(0.2)
                text = refused.message
                assert want in text and wrong not in text and "n0" in text, text
                await x.close()
            for x in (org, org1, other, bot):
                await x.close()

        asyncio.run(main())


def test_a_process_whose_tournament_was_claimed_can_neither_save_it_nor_start_it(
    tmp_path: Path,
) -> None:
    """The check in the database itself: n0 runs a tournament; another claim raises its
    epoch (as n1 taking it over would). n0's next write of it (a registration) is refused and
    n0 lets it go, and closes the socket of the organiser, who watched it there (1012: she
    comes back and asks again; before, n0 dropped her from its watchers without a word, and
    her page heard nothing more); the start sent through n0 then goes to n1, which runs it:
    one round, made once, by n1. Before, nothing recorded who runs a tournament: n0 saved the
    registration and started the round itself."""
    pytest.importorskip("argon2")
    need_services()
    import psycopg

    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, _redis, db):
        n0, _n1 = nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            late = Client(n0.url, name="Berk")
            for x in (org, late):
                await x.connect()
            await org.register("ayse", PASSWORD)
            t = await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600)
            tid = t["id"]
            with psycopg.connect(db, autocommit=True) as conn:  # as a new owner would
                conn.execute(
                    "UPDATE tourney_owners SET owner = 'n1', epoch = epoch + 1"
                    " WHERE tournament_id = %s",
                    (tid,),
                )
            with pytest.raises(ServerError) as refused:
                await late.tourney_join(tid)
            assert refused.value.code == "storage"
            assert [p["name"] for p in _db_doc(db, tid)["players"]] == ["Ayşe"]
            # her page there (she watches what she scheduled) would hear nothing more from
            # n0: her socket is closed (1012), and she comes back and asks again
            stop = time.monotonic() + 20
            while not org.closed and time.monotonic() < stop:  # (a hang, not a speed check)
                await asyncio.sleep(0.1)
            assert org.closed, "n0 let the tournament go and kept its watcher"
            await org.reconnect()
            await org.tourney_start(tid)  # through n0, run by n1
            # her seat, told on n0 by n1, played through n0
            note = await org.wait_for(lambda m: m.get("type") == "tourney_table", 60)
            await org.join(note["table"])
            await org.play(note["table"], lambda v: str(v["legal_moves"][0]), timeout=120)
            doc = await _until_over(db, tid)
            assert [(r, n) for r, n, _ in _made_tables(db, tid)] == [(1, 1), (1, 2)]
            assert [p["name"] for p in doc["players"]] == ["Ayşe"]
            with psycopg.connect(db, autocommit=True) as conn:
                row = conn.execute(
                    "SELECT owner FROM tourney_owners WHERE tournament_id = %s", (tid,)
                ).fetchone()
            assert row is not None and row[0] == "n1"
            for x in (org, late):
                await x.close()

        asyncio.run(main())


def test_a_start_whose_table_could_not_be_stored_is_tried_again(tmp_path: Path) -> None:
    """At a tournament's start time the database refuses its round's tables (a trigger of
    the test's, as a failing disk or a lease run out would): the tournament stays scheduled,
    the table made before the refusal is closed, and once the database takes them again the
    start is tried again and makes its round once. Before, the failed start left it
    'playing' in the process's memory with no table, and it never started."""
    pytest.importorskip("argon2")
    need_services()
    import psycopg

    with cluster(tmp_path, 1, extra=NO_PAUSE) as (_nodes, _redis, db):
        (n0,) = _nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            start = int(time.time()) + 3
            tid = (await org.tourney_create(rounds=1, deals=1, start=start))["id"]
            with psycopg.connect(db, autocommit=True) as conn:
                # its second table is refused (the first is stored, then closed)
                conn.execute(
                    "CREATE FUNCTION h_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    " IF NEW.options LIKE '%\"number\": 2}%' THEN"
                    " RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$"
                )
                conn.execute(
                    "CREATE TRIGGER h_refuse BEFORE INSERT ON tables"
                    " FOR EACH ROW EXECUTE FUNCTION h_refuse()"
                )
                stop = time.monotonic() + 30
                while not _made_tables(db, tid):  # (its start came: a hang, not a speed check)
                    assert time.monotonic() < stop, "the start made no table"
                    await asyncio.sleep(0.2)
                while _db_doc(db, tid)["status"] != "scheduled" or any(
                    status != "closed" for _, _, status in _made_tables(db, tid)
                ):
                    assert time.monotonic() < stop, _made_tables(db, tid)
                    await asyncio.sleep(0.2)
                shown = await org.tourney(tid)
                assert shown["status"] == "scheduled" and shown["tables"] == []
                conn.execute("DROP TRIGGER h_refuse ON tables")
            stop = time.monotonic() + 60
            while _db_doc(db, tid)["status"] != "playing":
                assert time.monotonic() < stop, "the start was not tried again"
                await asyncio.sleep(0.2)
            made = [(r, n, s) for r, n, s in _made_tables(db, tid) if s != "closed"]
            assert [(r, n) for r, n, _ in made] == [(1, 1), (1, 2)], _made_tables(db, tid)
            doc = _db_doc(db, tid)
            assert sorted((t["round"], t["number"]) for t in doc["tables"]) == [(1, 1), (1, 2)]
            await org.close()

        asyncio.run(main())


def test_a_round_whose_save_is_refused_leaves_no_table_behind(tmp_path: Path) -> None:
    """The tournament is claimed away between the making of its round's tables and the save
    of its document (a deferred trigger of the test's raises its epoch as the second table's
    transaction commits, as a takeover in that instant would): the save is refused, and the
    process that made the tables closes them (nobody else could while it is alive, and the
    document never lists them); the tournament, taken back, makes its round once. Before,
    those two tables stayed 'waiting' for good, held by that process and listed by nobody."""
    pytest.importorskip("argon2")
    need_services()
    import psycopg

    with cluster(tmp_path, 1, extra=NO_PAUSE) as (_nodes, _redis, db):
        (n0,) = _nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            tid = (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3))["id"]
            with psycopg.connect(db, autocommit=True) as conn:
                conn.execute("CREATE TABLE h_fired (x INT)")
                conn.execute(
                    "CREATE FUNCTION h_claim() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    " IF NEW.options LIKE '%\"number\": 2}%'"
                    " AND NOT EXISTS (SELECT 1 FROM h_fired) THEN"
                    " INSERT INTO h_fired VALUES (1);"
                    " UPDATE tourney_owners SET owner = 'gone', epoch = epoch + 1; END IF;"
                    " RETURN NULL; END $$"
                )
                conn.execute(
                    "CREATE CONSTRAINT TRIGGER h_claim AFTER INSERT ON tables"
                    " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION h_claim()"
                )
            stop = time.monotonic() + 60
            while True:  # (a hang, not a speed check)
                made = _made_tables(db, tid)
                live = [(r, n) for r, n, s in made if s != "closed"]
                closed = [(r, n) for r, n, s in made if s == "closed"]
                if live == closed == [(1, 1), (1, 2)] and _db_doc(db, tid)["status"] == "playing":
                    break
                assert time.monotonic() < stop, made
                await asyncio.sleep(0.2)
            doc = _db_doc(db, tid)
            assert sorted((t["round"], t["number"]) for t in doc["tables"]) == [(1, 1), (1, 2)]
            await org.close()

        asyncio.run(main())


def _bot(http: str, username: str, tid: str) -> Any:
    """``batak bot --tournament`` as a player runs it, through the process at ``http``."""
    import os
    import subprocess
    import sys

    import batak

    src = str(Path(batak.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src, "BATAK_BOT_PASSWORD": PASSWORD}
    cmd = [sys.executable, "-m", "batak", "bot", http, "--username", username,
           "--level", "easy", "--tournament", tid, "--lang", "en"]  # fmt: skip
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True
    )


def test_a_forwarded_registration_whose_process_dies_before_answering(tmp_path: Path) -> None:
    """``batak bot --tournament`` connected to n1 registers for a tournament n0 runs; n0 saves
    the registration and is killed (``kill -9``, at a test hook that stops it there) before
    its answer: n1 closes the bot's socket (1012), the bot comes back and sends its
    registration again (one registration, idempotent), n1 takes the tournament over and
    answers it; the bot says it is registered, plays the round and says its place, and a
    page that asks ``tourney`` again sees it registered once."""
    pytest.importorskip("argon2")
    need_services()
    env = {"n0": {"BATAK_TEST_STOP_AT": "tourney_join_saved"}}
    with cluster(tmp_path, 2, extra=NO_PAUSE, env=env) as (nodes, _redis, db):
        n0, n1 = nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            t = await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600)
            tid = t["id"]
            await org.close()
            proc = _bot(n1.http, "robokayip", tid)
            assert proc.stdout is not None
            try:
                await asyncio.to_thread(n0.wait_stopped)
                # saved, not answered: the bot is registered, and has not heard it
                assert [p["name"] for p in _db_doc(db, tid)["players"]] == ["Ayşe", "robokayip"]
                n0.kill()
                lines = []
                while True:  # (until it says it registered: a hang, not a speed check)
                    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 90)
                    assert line, "".join(lines)
                    lines.append(line)
                    if "Registered for the tournament" in line:
                        break
                # the page of the tournament, asked again through the survivor: the truth
                page = Client(n1.url, name="Cem")
                await page.connect()
                shown = await page.tourney(tid)
                names = [p["name"] for p in shown["registered"]]
                assert names == ["Ayşe", "robokayip"], names
                org1 = Client(n1.url, name="Ayşe")
                await org1.connect()
                await org1.login("ayse", PASSWORD)
                await org1.tourney_start(tid)
                note = await org1.wait_for(lambda m: m.get("type") == "tourney_table", 60)
                await org1.join(note["table"])
                await org1.play(note["table"], lambda v: str(v["legal_moves"][0]), timeout=120)
                out, _ = await asyncio.wait_for(asyncio.to_thread(proc.communicate), 120)
                assert proc.returncode == 0, "".join(lines) + out
                doc = await _until_over(db, tid)
                assert [p["name"] for p in doc["players"]] == ["Ayşe", "robokayip"]
                for x in (page, org1):
                    await x.close()
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)

        asyncio.run(main())


def test_a_rounds_table_taken_over_before_its_seating_is_seated_where_it_went(
    tmp_path: Path,
) -> None:
    """n0 makes a round's two tables and saves the tournament, then stops (a test hook)
    before seating them, and is killed. The survivors take the tables over as the stable hash
    picks table 1, and the tournament is given to the one that does not take table 1 (as the
    hash does for about half of all tournaments), then table 2 (all bots) too: table 1 is
    seated by a process that does not run its tournament, from the stored document
    (``seat_taken``), listed as in play (before, as "over"), and its player plays it there;
    table 2, taken by the tournament's process after the tournament, is seated there (before,
    it stayed waiting for good: nobody seated it); the tournament, hearing both ends,
    finishes with one set of tables and the right standings."""
    pytest.importorskip("argon2")
    need_services()
    import psycopg

    from batak.server.cluster.owner import rendezvous

    env = {"n0": {"BATAK_TEST_STOP_AT": "round_made"}}
    with cluster(tmp_path, 3, extra=NO_PAUSE, env=env) as (nodes, _redis, db):
        n0, n1, n2 = nodes

        async def main() -> dict[str, Any]:
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            tid = (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600))["id"]
            start = asyncio.create_task(org.tourney_start(tid))
            await asyncio.to_thread(n0.wait_stopped)
            start.cancel()
            doc = _db_doc(db, tid)
            tables = {t["number"]: t for t in doc["tables"]}
            assert sorted(tables) == [1, 2] and doc["status"] == "playing", doc
            first = tables[1]["id"]
            second = tables[2]["id"]
            seats = rendezvous(first, ["n1", "n2"])  # the survivor that takes table 1
            runs = "n2" if seats == "n1" else "n1"
            with psycopg.connect(db, autocommit=True) as conn:
                # the tournament given to the other survivor (as the hash picks for about
                # half of all tournaments): its own, it takes it at once
                conn.execute(
                    "UPDATE tourney_owners SET owner = %s, epoch = epoch + 1"
                    " WHERE tournament_id = %s RETURNING epoch",
                    (runs, tid),
                )
                stop = time.monotonic() + LEASE + 30
                while owner_epoch(conn, "tourney_owners", "tournament_id", tid) == (runs, 2):
                    # (until it took it: a hang, not a speed check)
                    assert time.monotonic() < stop, "the tournament was not taken"
                    await asyncio.sleep(0.1)
                # its look at the round's tables done (they were n0's, taken for alive):
                # a registration there waits behind it (the tournament's lock), refused
                probe = Client({"n1": n1, "n2": n2}[runs].url, name="Cem")
                await probe.connect()
                with pytest.raises(ServerError) as refused:
                    await probe.tourney_join(tid)
                assert refused.value.code == "tourney_started"
                await probe.close()
                # then the all-bots table 2 to the same process (as a claim of it after the
                # tournament's, or after one that failed): seated there, where nobody joins it
                conn.execute(
                    "UPDATE table_owners SET owner = %s, epoch = epoch + 1 WHERE table_id = %s",
                    (runs, second),
                )
            n0.kill()
            other = {"n1": n1, "n2": n2}
            org.url = other[seats].url
            await org.drop()
            await org.connect()
            await org.login("ayse", PASSWORD)
            stop = time.monotonic() + LEASE + 60
            while stored_log(db, first)[1] != "playing":  # (a hang, not a speed check)
                assert time.monotonic() < stop, _made_tables(db, tid)
                await asyncio.sleep(0.2)
            # seated by the survivor that took it, which does not run the tournament
            assert owner(db, first)[0] == seats
            assert owner(db, second)[0] == runs
            # and the tournament, asked through it, lists it as in play (before, as "over":
            # any table its process did not hold; batak bot skipped its own such table)
            shown = next(t for t in (await org.tourney(tid))["tables"] if t["id"] == first)
            assert shown["status"] == "playing" and not shown["over"], shown
            st = await org.join(first)
            assert st.seat == tables[1]["seats"].index(org.player["id"])
            await org.play(first, lambda v: str(v["legal_moves"][0]), timeout=120)
            done = await _until_over(db, tid)
            await org.close()
            return done

        doc = asyncio.run(main())
        _check_result(db, doc, 1, n1.http)


def test_a_bot_accounts_registrations_at_the_same_moment_through_two_processes(
    tmp_path: Path,
) -> None:
    """A bot account registered for two tournaments not over registers, at the same moment,
    for one run by n0 and one run by n1: n0 has checked its limit (two) and is stopped there
    (a test hook) while n1 stores the other registration (three); n0, going on, counts again
    as it stores its own and refuses it (``tourney_bot_quota``): three registrations in the
    database. Before, n0 stored it on its first count: four, one over the limit."""
    pytest.importorskip("argon2")
    need_services()
    env = {"n0": {"BATAK_TEST_STOP_AT": "tourney_quota_checked"}}
    with cluster(tmp_path, 2, extra=NO_PAUSE, env=env) as (nodes, _redis, db):
        n0, n1 = nodes

        async def main() -> None:
            org0 = Client(n0.url, name="Ayşe")
            org1 = Client(n1.url, name="Berk")
            bot = Client(n1.url, name="robo")
            for x in (org0, org1, bot):
                await x.connect()
            await org0.register("ayse", PASSWORD)
            await org1.register("berk", PASSWORD)
            await bot.register("robosayi", PASSWORD, bot=True)
            start = int(time.time()) + 3600
            run1 = [
                (await org1.tourney_create(rounds=1, deals=1, start=start, join=False))["id"]
                for _ in range(PER_ACCOUNT)
            ]
            run0 = (await org0.tourney_create(rounds=1, deals=1, start=start, join=False))["id"]
            for tid in run1[:-1]:
                await bot.tourney_join(tid)  # run by n1
            first = asyncio.create_task(bot.tourney_join(run0))  # forwarded to n0
            await asyncio.to_thread(n0.wait_stopped)
            await bot.tourney_join(run1[-1])  # its third, stored by n1 meanwhile
            n0.resume()
            with pytest.raises(ServerError) as e:
                await first
            assert e.value.code == "tourney_bot_quota"
            entered = [
                tid
                for tid in [*run1, run0]
                if any(p["id"] == bot.player["id"] for p in _db_doc(db, tid)["players"])
            ]
            assert entered == run1
            # n0's document in memory does not list it either (a later save would store it)
            shown = await org0.tourney(run0)
            assert shown["registered"] == []
            for x in (org0, org1, bot):
                await x.close()

        asyncio.run(main())


def test_a_tournaments_changes_reach_its_players_connected_to_another_process(
    tmp_path: Path,
) -> None:
    """Berk registers through n1 for a tournament n0 runs (that connection watches it through
    n0), then opens a second connection to n1 and asks for nothing. A registration through n0
    reaches both: the second through n1 from n0's update on Redis (before, it heard nothing
    until it asked for the tournament), the first once (not again from that update)."""
    pytest.importorskip("argon2")
    need_services()
    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, _redis, _db):
        n0, n1 = nodes

        def listing(*names: str) -> Any:
            def pred(m: dict[str, Any]) -> bool:
                if m.get("type") != "tourney":
                    return False
                return sorted(p["name"] for p in m["tournament"]["registered"]) == sorted(names)

            return pred

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            berk = Client(n1.url, name="Berk")
            for x in (org, berk):
                await x.connect()
            await org.register("ayse", PASSWORD)
            await berk.register("berk", PASSWORD)
            start = int(time.time()) + 3600
            tid = (await org.tourney_create(rounds=1, deals=1, start=start))["id"]
            await berk.tourney_join(tid)  # forwarded to n0: it watches it there
            other = Client(n1.url, name="Berk", lang="tr")
            await other.connect()
            await other.login("berk", PASSWORD)
            for name in ("Cem", "Deniz"):
                x = Client(n0.url, name=name)
                await x.connect()
                await x.tourney_join(tid)
                await x.close()
            # (a hang, not a speed check: 30 s)
            seen = await other.wait_for(listing("Ayşe", "Berk", "Cem"), 30)
            assert seen["tournament"]["id"] == tid
            assert seen["tournament"]["name"].startswith("Standart (")  # in its own language
            await other.wait_for(listing("Ayşe", "Berk", "Cem", "Deniz"), 30)
            # the first connection: each update once (Redis delivers n0's messages to n1 in
            # the order sent: a second copy of Cem's would come before Deniz's)
            cem = 0
            while True:
                m = await berk.next_message(30)
                cem += listing("Ayşe", "Berk", "Cem")(m)
                if listing("Ayşe", "Berk", "Cem", "Deniz")(m):
                    break
            assert cem == 1
            for x in (org, berk, other):
                await x.close()

        asyncio.run(main())


def test_a_tournaments_end_reaches_its_players_connected_to_another_process(
    tmp_path: Path,
) -> None:
    """n0 runs a one-round tournament of Ayşe (on n0) and Berk (registered through n1); Berk
    has a second connection to n1 that asks for nothing. When the tournament ends, that
    connection hears it over Redis (status "over", in its own language), as it heard its
    other changes. Before, the last change was not sent at all: the push is made only after
    Redis said who is connected elsewhere, by then the tournament had left n0's list of
    those it runs (it is over), and a tournament not in that list was not sent."""
    pytest.importorskip("argon2")
    need_services()
    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, _redis, db):
        n0, n1 = nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            berk = Client(n1.url, name="Berk")
            for x in (org, berk):
                await x.connect()
            await org.register("ayse", PASSWORD)
            await berk.register("berk", PASSWORD)
            tid = (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600))["id"]
            await berk.tourney_join(tid)  # forwarded to n0: it watches it there
            other = Client(n1.url, name="Berk", lang="tr")
            await other.connect()
            await other.login("berk", PASSWORD)
            await org.tourney_start(tid)

            async def play(x: Client) -> None:
                note = await x.wait_for(lambda m: m.get("type") == "tourney_table", 90)
                await x.join(note["table"])
                await x.play(note["table"], lambda v: str(v["legal_moves"][0]), timeout=120)

            await asyncio.gather(play(org), play(berk))
            await _until_over(db, tid)
            # (a hang, not a speed check: 30 s)
            end = await other.wait_for(
                lambda m: m.get("type") == "tourney" and m["tournament"]["status"] == "over", 30
            )
            assert end["tournament"]["id"] == tid
            assert end["tournament"]["name"].startswith("Standart (")  # in its own language
            for x in (org, berk, other):
                await x.close()

        asyncio.run(main())


def test_a_round_whose_save_fails_is_not_seated_and_a_claim_then_makes_one_set(
    tmp_path: Path,
) -> None:
    """The database refuses the save of the tournament's document as its first round begins
    (a trigger of the test's, until the claim below), after the round's tables were stored;
    then the tournament is claimed away (by n1, as when n0's lease lapses), and started again
    there. The tables of the
    failed save are closed, not seated: the tables of the tournament played or in play are
    exactly those its document lists. Before, they were seated all the same (and the start
    answered "ok"), the claimer read the document as last stored (still scheduled) and made
    the round again: two sets of tables in play, one counted by nobody."""
    pytest.importorskip("argon2")
    need_services()
    import psycopg

    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, _redis, db):
        n0, n1 = nodes

        async def main() -> None:
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            tid = (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600))["id"]
            with psycopg.connect(db, autocommit=True) as conn:
                conn.execute("CREATE TABLE h_refusing (x INT)")
                conn.execute("INSERT INTO h_refusing VALUES (1)")
                conn.execute(
                    "CREATE FUNCTION h_refuse_save() RETURNS trigger LANGUAGE plpgsql AS $$"
                    " BEGIN IF NEW.status = 'playing' AND EXISTS (SELECT 1 FROM h_refusing)"
                    " THEN RAISE EXCEPTION 'test: the save is refused'; END IF;"
                    " RETURN NEW; END $$"
                )
                conn.execute(
                    "CREATE TRIGGER h_refuse_save BEFORE UPDATE ON tournaments"
                    " FOR EACH ROW EXECUTE FUNCTION h_refuse_save()"
                )
                try:
                    await org.tourney_start(tid)
                except ServerError as e:
                    assert e.code == "storage", e
                assert len(_made_tables(db, tid)) == 2  # made (and stored) before the save
                # claimed by n1 (given its row, it takes it as its own at its next scan, as it
                # would take it if n0's lease had lapsed): it reads the stored document
                _, epoch = owner_epoch(conn, "tourney_owners", "tournament_id", tid)
                conn.execute(
                    "UPDATE tourney_owners SET owner = 'n1', epoch = epoch + 1"
                    " WHERE tournament_id = %s",
                    (tid,),
                )
                stop = time.monotonic() + LEASE + 30
                while owner_epoch(conn, "tourney_owners", "tournament_id", tid) != (
                    "n1",
                    epoch + 2,
                ):  # (until n1 took it: a hang, not a speed check)
                    assert time.monotonic() < stop, "the tournament was not claimed"
                    await asyncio.sleep(0.1)
                conn.execute("DELETE FROM h_refusing")  # (the database takes saves again)
            org1 = Client(n1.url, name="Ayşe")  # started again where it is run now
            await org1.connect()
            await org1.login("ayse", PASSWORD)
            await org1.tourney_start(tid)
            stop = time.monotonic() + 60
            while True:  # (a hang, not a speed check)
                doc = _db_doc(db, tid)
                listed = {t["id"] for t in doc["tables"]}
                if doc["status"] != "scheduled" and len(listed) == 2:
                    break
                assert time.monotonic() < stop, doc
                await asyncio.sleep(0.2)
            with psycopg.connect(db, autocommit=True) as conn:
                rows = conn.execute("SELECT id, options, status FROM tables").fetchall()
            ours = {str(i): str(s) for i, o, s in rows if json.loads(o).get("tournament") == tid}
            played = {i for i, s in ours.items() if s != "closed"}
            assert played == listed, ours
            assert len(ours) == 4  # (the first set made, then closed)
            for x in (org, org1):
                await x.close()

        asyncio.run(main())


def test_a_tournaments_change_goes_over_redis_only_to_players_connected_elsewhere(
    tmp_path: Path,
) -> None:
    """n0 runs a tournament whose players are all connected to n0: its changes (three
    registrations) are not published on Redis at all (the whole tournament in each language,
    some 55 kB on a full one, for nobody). Then Berk, connected to n1 only, registers
    through n1: the changes from then on are published, naming Berk alone (the players
    connected elsewhere). Before, each change was published with every player, whether or
    not one was connected to another process."""
    pytest.importorskip("argon2")
    need_services()
    import redis.asyncio as aredis

    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, redis, _db):
        n0, n1 = nodes

        async def main() -> None:
            bus = aredis.Redis.from_url(redis.url)
            sub = bus.pubsub()
            await sub.subscribe("batak:cluster")
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            tid = (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600))["id"]
            guests = []
            for name in ("Cem", "Deniz"):
                x = Client(n0.url, name=name)
                await x.connect()
                await x.tourney_join(tid)
                guests.append(x)
            berk = Client(n1.url, name="Berk")
            await berk.connect()
            await berk.register("berk", PASSWORD)
            await berk.tourney_join(tid)  # through n1, run by n0
            late = Client(n0.url, name="Ece")  # (a change after Berk's, in case n0 read
            await late.connect()  # who is online before n1 wrote Berk there)
            await late.tourney_join(tid)
            pushed: list[dict[str, Any]] = []
            stop = time.monotonic() + 30  # (a hang, not a speed check)
            while time.monotonic() < stop:
                m = await sub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if m is None:
                    continue
                msg = json.loads(m["data"])
                if msg.get("op") == "tourney_push" and msg.get("tournament") == tid:
                    pushed.append(msg)
                    names = sorted(p["name"] for p in msg["shown"]["en"]["registered"])
                    if "Ece" in names:
                        break
            assert pushed, "no change of the tournament reached n1"
            berk_id = berk.player["id"]
            assert all(msg["players"] == [berk_id] for msg in pushed), [
                msg["players"] for msg in pushed
            ]
            assert set(pushed[-1]["shown"]) == {"en", "tr"}
            for x in (org, berk, late, *guests):
                await x.close()
            await sub.aclose()
            await bus.aclose()

        asyncio.run(main())


def test_a_process_learns_from_moved_that_it_lost_its_tournament(tmp_path: Path) -> None:
    """n0 runs a tournament that Ayşe, who scheduled it, watches there. A ``moved`` whose
    epoch is not newer than n0's own (one sent before n0 claimed it again, come late)
    changes nothing: she is still answered there, and n0 did not claim it again. Then
    another claim raises its epoch and says so on Redis, as n1's claim does: n0 lets the
    tournament go at once and closes her socket (1012: she comes back and asks the process
    that runs it), without waiting for its next write. Before, n0 kept running it (its
    start's timer set, its watchers hearing nothing more) until it next tried to write it."""
    pytest.importorskip("argon2")
    need_services()
    import psycopg
    import redis.asyncio as aredis

    with cluster(tmp_path, 2, extra=NO_PAUSE) as (nodes, redis, db):
        n0, _n1 = nodes

        async def main() -> None:
            bus = aredis.Redis.from_url(redis.url)
            org = Client(n0.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", PASSWORD)
            tid = (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600))["id"]
            with psycopg.connect(db, autocommit=True) as conn:
                assert owner_epoch(conn, "tourney_owners", "tournament_id", tid) == ("n0", 1)

            def moved(epoch: int) -> bytes:
                msg = {"op": "moved", "table": "tourney:" + tid, "node": "n1", "epoch": epoch}
                return json.dumps(msg).encode()

            await bus.publish("batak:cluster", moved(1))  # (late: n0's own epoch)
            # after it on the same connection, so handled after it: a note n0 hands to her
            note = {"type": "test_marker", "tournament": tid}
            tell = {"op": "tell", "node": "n1", "player": org.player["id"], "note": note}
            await bus.publish("batak:cluster", json.dumps(tell).encode())
            await org.wait_for(lambda m: m.get("type") == "test_marker", 30)
            assert (await org.tourney(tid))["id"] == tid  # still answered on n0, not closed
            with psycopg.connect(db, autocommit=True) as conn:
                assert owner_epoch(conn, "tourney_owners", "tournament_id", tid) == ("n0", 1)
                conn.execute(  # as n1's claim would
                    "UPDATE tourney_owners SET owner = 'n1', epoch = epoch + 1"
                    " WHERE tournament_id = %s",
                    (tid,),
                )
            await bus.publish("batak:cluster", moved(2))
            stop = time.monotonic() + 30
            while not org.closed and time.monotonic() < stop:  # (a hang, not a speed check)
                await asyncio.sleep(0.1)
            assert org.closed, "n0 kept the tournament after its moved"
            assert "tournament " + tid + " is no longer run here" in n0.stderr()
            await org.close()
            await bus.aclose()

        asyncio.run(main())
