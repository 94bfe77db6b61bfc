"""The server as several processes (issue 15): real ``batak serve --node`` processes over
loopback on a real PostgreSQL and a throwaway redis-server; kill -9, SIGSTOP/SIGCONT, SIGTERM
of real processes, Redis killed and started again."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from cluster_harness import (
    LEASE,
    Node,
    Player,
    check_log,
    cluster,
    need_services,
    owner,
    stored_log,
)
from harness import free_port, invite_when_online

from batak.bots import get
from batak.cli.bot import serve_as_bot
from batak.server.client import Client, ServerError, TableState


def _urls(nodes: list) -> list[str]:  # type: ignore[type-arg]
    return [n.url for n in nodes if n.alive]


async def _room(players: list[Player], **options: object) -> str:
    for p in players:
        await p.connect()
    _, table = await players[0].client.create(bots=False, **options)
    for p in players[1:]:
        await p.client.join(code=table.info["code"])
    if not options.get("public"):  # a public room starts by itself once full
        await players[0].client.start(table.id)
    for p in players:
        await p.client.until(lambda p=p: p.client.tables[table.id].view is not None)
    return table.id


async def _until_moves(db: str, table: str, n: int) -> None:
    """Until the table has ``n`` moves stored and is still in play (the match must be on when
    the test does something to a process; on a quiet machine a match of instant players
    could be over within the first second)."""
    for _ in range(600):
        events, status = stored_log(db, table)
        if sum(1 for e in events if e[1] == "move") >= n:
            assert status != "over", "the match ended before the test could act"
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the table got no moves")


def test_private_room_across_three_processes(tmp_path: Path) -> None:
    """Created on process 1, joined by code through processes 2 and 3, played to the end:
    every client sees the same versions with no gap; the lobby of every process lists a table
    of any process. Two of the players ask for acks in events (one on the owner, one whose
    moves are forwarded): they get no ``ack`` at all, the others one per move."""
    need_services()
    with cluster(tmp_path, 3) as (nodes, _redis, db):

        async def main() -> None:
            players = [
                Player(f"P{i}", lambda i=i: [nodes[i % 3].url], ack_in_event=i in (1, 3))
                for i in range(4)
            ]
            table = await _room(players, deals=1)
            # a quick-play table (made on the node that matches that mode) is in the lobby of
            # every process: the summaries go round through Redis
            waiting = Client(nodes[2].url, name="W")
            await waiting.connect()
            public = (await waiting.quick("kozmaca")).id
            for node in nodes:
                looker = Client(node.url)
                await looker.connect()
                for _ in range(100):
                    lobby = await looker.lobby()
                    if any(t["id"] == public for t in lobby["modes"]["kozmaca"]):
                        break
                    await asyncio.sleep(0.1)
                else:
                    raise AssertionError(f"the table is not in the lobby of {node.name}")
                await looker.close()
            await waiting.close()
            finals = await asyncio.gather(*(p.play(table) for p in players))
            assert all(f.over for f in finals)
            assert len({f.v for f in finals}) == 1
            events = check_log(db, table, players)
            for i, p in enumerate(players):
                seen = sorted(p.seen[table])
                assert seen == list(range(seen[0], events[-1][0] + 1)), "a gap in the events"
                assert p.reconnects == 0
                acks = p.kinds.get("ack", 0)
                assert acks == (0 if i in (1, 3) else len(p.acked)), (p.client.name, acks)
                assert p.acked, "the player made no move: the test proves nothing"
            sync = await players[2].client.sync(table)
            assert sync["node"] == owner(db, table)[0] == "n0"

        asyncio.run(main())


def test_quick_play_over_two_processes(tmp_path: Path) -> None:
    """Many quick plays arriving together through 2 processes: nobody sits at two tables, and
    the people who came together share tables (one table forms at a time per mode)."""
    need_services()
    with cluster(tmp_path, 2) as (nodes, _redis, _db):

        async def main() -> None:
            clients = [Client(nodes[i % 2].url, name=f"Q{i}") for i in range(8)]
            for c in clients:
                await c.connect()
            tables = await asyncio.gather(*(c.quick("ihaleli") for c in clients))
            where = [t.id for t in tables]
            assert len(set(where)) == 2, where  # 8 people, 4 seats: two full tables
            for c, t in zip(clients, tables, strict=True):
                seats = [s.get("player") for s in t.info["seats"]]
                assert seats.count(c.player["id"]) == 1
            again = await clients[0].quick("ihaleli")  # asking again: the same seat
            assert again.id == where[0]
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_fencing_refuses_a_write_after_another_owner_claimed(tmp_path: Path) -> None:
    """The check in the database itself: a process whose table was claimed by another (its
    epoch raised) has its next write refused, though its own lease is still good."""
    need_services()
    import psycopg

    with cluster(tmp_path, 2) as (nodes, _redis, db):

        async def main() -> None:
            players = [Player(f"F{i}", lambda: [nodes[0].url]) for i in range(4)]
            table = await _room(players, deals=1)
            name, _epoch = owner(db, table)
            assert name == "n0"
            with psycopg.connect(db, autocommit=True) as conn:  # as a new owner would
                conn.execute(
                    "UPDATE table_owners SET owner = 'n1', epoch = epoch + 1 WHERE table_id = %s",
                    (table,),
                )
            before = stored_log(db, table)[0]
            p = next(p for p in players if p.client.tables[table].my_turn)
            view = p.client.tables[table].view
            assert view is not None
            with pytest.raises(Exception) as refused:
                await p.client.move(table, view["legal_moves"][0])
            assert "storage" in str(refused.value) or isinstance(refused.value, ConnectionError)
            assert stored_log(db, table)[0] == before  # nothing was written
            for q in players:
                await q.client.close()

        asyncio.run(main())


def test_kill_9_of_the_owner_repeatedly(tmp_path: Path) -> None:
    """kill -9 of the table's owner at random moments, twice: every acknowledged move is in
    the final log, no move is there twice, the match finishes on another process, and the
    table is back (its next event) within the lease and a few seconds."""
    need_services()
    with cluster(tmp_path, 3) as (nodes, _redis, db):
        back_after: list[float] = []

        async def main() -> None:
            players = [Player(f"K{i}", lambda: _urls(nodes)) for i in range(4)]
            for i, p in enumerate(players):
                p.client.url = nodes[i % 3].url
            table = await _room(players, deals=4)
            for p in players:
                p.think = 0.03
            games = [asyncio.create_task(p.play(table, timeout=240)) for p in players]
            for _ in range(2):
                await asyncio.sleep(0.5 + players[0].rng.random() * 2)
                name, _epoch = owner(db, table)
                victim = next(n for n in nodes if n.name == name)
                victim.kill()
                killed = time.monotonic()
                while owner(db, table)[0] == name:  # a survivor claims it after the lease
                    assert time.monotonic() - killed < LEASE + 90  # a hang, not a speed check
                    await asyncio.sleep(0.05)
                claimed = stored_log(db, table)[0][-1][0]
                while stored_log(db, table)[0][-1][0] == claimed:  # and play goes on
                    assert time.monotonic() - killed < LEASE + 120  # a hang, not a speed check
                    await asyncio.sleep(0.05)
                back_after.append(time.monotonic() - killed)
                victim.start()  # the same name again: a new process under it
            finals = await asyncio.gather(*games)
            assert all(f.over for f in finals)
            for _ in range(300):  # the record is written just after the last event
                _events, status = stored_log(db, table)
                if status == "over":
                    break
                await asyncio.sleep(0.1)
            assert status == "over"
            check_log(db, table, players)
            assert sum(p.reconnects for p in players) > 0

        asyncio.run(main())
        print(f"kill -9 -> next event: {[round(s, 2) for s in back_after]} s (lease {LEASE} s)")
        for s in back_after:
            assert s < LEASE + 10


def test_a_process_learns_from_moved_that_it_lost_a_table(tmp_path: Path) -> None:
    """Ayla's room is held by n0, where she is connected. A ``moved`` of the table whose epoch
    is not newer than n0's own (sent before n0 claimed it again, come late) changes nothing:
    she is still answered there. Then another claim raises its epoch and says so on Redis, as
    n1's takeover does: n0 drops the table at once and closes her socket (1012: she comes
    back through the process that holds it now), as it does for a tournament. Before, n0
    kept the table in memory (its clocks and bots running, its people answered from it)
    until its next write was refused by the fencing check."""
    need_services()
    import psycopg
    import redis.asyncio as aredis

    with cluster(tmp_path, 2) as (nodes, redis, db):
        n0 = nodes[0]

        async def main() -> None:
            bus = aredis.Redis.from_url(redis.url)
            ayla = Client(n0.url, name="Ayla")
            await ayla.connect()
            _, room = await ayla.create(bots=False)
            table = room.id
            assert owner(db, table) == ("n0", 1)

            def moved(epoch: int) -> bytes:
                msg = {"op": "moved", "table": table, "node": "n1", "epoch": epoch}
                return json.dumps(msg).encode()

            await bus.publish("batak:cluster", moved(1))  # (late: n0's own epoch)
            # after it on the same connection, so handled after it: a note n0 hands to her
            note = {"type": "test_marker", "table": table}
            tell = {"op": "tell", "node": "n1", "player": ayla.player["id"], "note": note}
            await bus.publish("batak:cluster", json.dumps(tell).encode())
            await ayla.wait_for(lambda m: m.get("type") == "test_marker", 30)
            assert not ayla.closed
            with psycopg.connect(db, autocommit=True) as conn:  # as n1's claim would
                conn.execute(
                    "UPDATE table_owners SET owner = 'n1', epoch = epoch + 1 WHERE table_id = %s",
                    (table,),
                )
            await bus.publish("batak:cluster", moved(2))
            stop = time.monotonic() + 30
            while not ayla.closed and time.monotonic() < stop:  # (a hang, not a speed check)
                await asyncio.sleep(0.1)
            assert ayla.closed, "n0 kept the table after its moved"
            assert f"table {table} is no longer ours" in n0.stderr()
            await ayla.close()
            await bus.aclose()

        asyncio.run(main())


def test_sigstop_past_the_lease_then_sigcont_is_fenced(tmp_path: Path) -> None:
    """The owner is paused past its lease; another process takes the table and play goes on;
    when the old owner runs again it writes nothing more: no client ever sees two different
    events at one version, and every acknowledged move is stored once."""
    need_services()
    with cluster(tmp_path, 3) as (nodes, _redis, db):

        async def main() -> None:
            # the first player comes through n0, which owns the table; the others through
            # n1 and n2; when n0 stops answering, everyone comes back through n1 or n2
            players = [Player(f"S{i}", lambda: [n.url for n in nodes[1:]]) for i in range(4)]
            for i, p in enumerate(players):
                p.client.url = nodes[0].url if i == 0 else nodes[1 + i % 2].url
            table = await _room(players, deals=2)
            assert owner(db, table)[0] == "n0"
            for p in players:  # a pace at which the match is still on when the owner stops
                p.think = 0.05
            games = [asyncio.create_task(p.play(table, timeout=240)) for p in players]
            await _until_moves(db, table, 8)
            nodes[0].pause()
            paused = time.monotonic()
            while owner(db, table)[0] == "n0":
                await asyncio.sleep(0.1)
                assert time.monotonic() - paused < LEASE + 90  # a hang, not a speed check
            await asyncio.sleep(2.0)  # play goes on elsewhere
            nodes[0].resume()
            finals = await asyncio.gather(*games)
            assert all(f.over for f in finals)
            check_log(db, table, players)
            # the old owner, running again, finds the table is not its own any more (at its next
            # renewal of the lease, or at its next write, whichever comes first)
            resumed = time.monotonic()
            while "is no longer ours" not in nodes[0].stderr():
                assert time.monotonic() - resumed < 4 * LEASE + 20, nodes[0].stderr()[-3000:]
                await asyncio.sleep(0.2)
            check_log(db, table, players)

        asyncio.run(main())


def test_redis_killed_and_restarted_mid_play(tmp_path: Path) -> None:
    """Redis dies in the middle of a match and comes back: no acknowledged move is lost,
    forwarded clients are closed, come back and resync, and the match finishes."""
    need_services()
    with cluster(tmp_path, 2, own_redis=True) as (nodes, redis, db):

        async def main() -> None:
            players = [Player(f"R{i}", lambda: _urls(nodes)) for i in range(4)]
            for i, p in enumerate(players):
                p.client.url = nodes[i % 2].url
            table = await _room(players, deals=2)
            for p in players:  # a pace at which the match is still on when Redis dies
                p.think = 0.05
            games = [asyncio.create_task(p.play(table, timeout=240)) for p in players]
            await _until_moves(db, table, 8)
            redis.kill()
            await asyncio.sleep(2.0)
            redis.start()
            finals = await asyncio.gather(*games)
            assert all(f.over for f in finals)
            check_log(db, table, players)
            assert sum(p.reconnects for p in players) > 0

        asyncio.run(main())


def test_rolling_sigterm_of_every_process(tmp_path: Path) -> None:
    """Each process in turn gets SIGTERM and is started again while tables are in play: its
    tables go to the others, no acknowledged move is lost, every match finishes."""
    need_services()
    with cluster(tmp_path, 3) as (nodes, _redis, db):

        async def main() -> None:
            tables = []
            everyone: list[Player] = []
            for k in range(3):
                players = [Player(f"T{k}{i}", lambda: _urls(nodes)) for i in range(4)]
                for i, p in enumerate(players):
                    p.client.url = nodes[(k + i) % 3].url
                tables.append(await _room(players, deals=2))
                everyone.extend(players)
            games = [
                asyncio.create_task(p.play(tables[i // 4], timeout=300))
                for i, p in enumerate(everyone)
            ]
            for node in nodes:
                await asyncio.sleep(1.0)
                await asyncio.get_running_loop().run_in_executor(None, node.stop)
                await asyncio.get_running_loop().run_in_executor(None, node.start)
            finals = await asyncio.gather(*games)
            assert all(f.over for f in finals)
            for k, table in enumerate(tables):
                check_log(db, table, everyone[4 * k : 4 * k + 4])

        asyncio.run(main())


def test_healthz_names_the_node(tmp_path: Path) -> None:
    need_services()
    with cluster(tmp_path, 1) as (nodes, _redis, _db):
        with urllib.request.urlopen(nodes[0].http + "/healthz", timeout=5) as r:
            body = json.loads(r.read())
        assert body["node"] == "n0"


def test_through_haproxy_with_the_deploy_example(tmp_path: Path) -> None:
    """deploy/haproxy.cfg in front of three nodes: ?node=NAME reaches that node, and a room
    whose four players all come through HAProxy plays to the end."""
    need_services()
    if shutil.which("haproxy") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("haproxy is not installed (.ci/run installs Debian's package)")
        pytest.skip("haproxy is not installed")
    config = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"
    with cluster(tmp_path, 3, first=1) as (nodes, _redis, db):
        front = free_port()
        env = dict(os.environ, BATAK_FRONT=f"127.0.0.1:{front}")
        for node in nodes:
            env[f"BATAK_{node.name.upper()}"] = f"127.0.0.1:{node.port}"
        proxy = subprocess.Popen(
            ["haproxy", "-db", "-f", str(config)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            http = f"http://127.0.0.1:{front}"
            for name in ("n2", "n3", "n1"):
                for _ in range(200):  # until HAProxy's health checks found the node up
                    try:
                        with urllib.request.urlopen(f"{http}/healthz?node={name}", timeout=2) as r:
                            if json.loads(r.read())["node"] == name:
                                break
                    except OSError:
                        pass
                    time.sleep(0.1)
                else:
                    raise AssertionError(f"?node={name} did not reach {name}")

            async def main() -> None:
                players = [
                    Player(f"H{i}", lambda: [f"ws://127.0.0.1:{front}/ws"]) for i in range(4)
                ]
                table = await _room(players, deals=1)
                finals = await asyncio.gather(*(p.play(table) for p in players))
                assert all(f.over for f in finals)
                check_log(db, table, players)
                sync = await players[0].client.sync(table)
                assert sync["node"] == owner(db, table)[0]

            asyncio.run(main())
        finally:
            proxy.terminate()
            proxy.wait(10)


def test_a_node_without_postgresql_is_refused(tmp_path: Path) -> None:
    """--node on SQLite: a clear refusal at start (no service needed for this one)."""
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "batak", "serve", "--node", "n1", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "--node needs --database postgresql://" in run.stderr


def test_an_invitation_reaches_a_player_on_another_process(tmp_path: Path) -> None:
    """A room on process 1; a friend and a bot account connected to process 2 only: the host
    sees the bot among those to invite, and an invitation of the friend reaches them there."""
    need_services()
    pytest.importorskip("argon2")
    from batak.server.client import ServerError

    with cluster(tmp_path, 2) as (nodes, _redis, _db):

        async def main() -> None:
            host = Client(nodes[0].url, name="Host")
            friend = Client(nodes[1].url, name="Friend")
            robot = Client(nodes[1].url, name="Robo")
            for c in (host, friend, robot):
                await c.connect()
            await friend.register("friend", "12345678")
            await robot.register("robo", "12345678", bot=True)
            created, table = await host.create(preset="standard")
            for _ in range(100):  # until process 2's next beat says who is connected there
                try:
                    await host.invite(table.id, "friend")
                    break
                except ServerError as e:
                    assert e.code == "not_online"
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("the friend on the other process was never invitable")
            note = await friend.wait_for(lambda m: m.get("type") == "invited", 10)
            assert note["code"] == created["code"] and note["from"] == "Host"
            assert await host.invitable(table.id) == [{"username": "robo", "name": "Robo"}]
            with pytest.raises(ServerError) as e:
                await host.invite(table.id, "nobody")
            assert e.value.code == "not_online"
            await friend.join(code=note["code"])
            for c in (host, friend, robot):
                await c.close()

        asyncio.run(main())


def test_a_locked_out_guesser_cannot_tell_a_right_code_on_another_process(tmp_path: Path) -> None:
    """The code lockout counts on the process a guesser is connected to; the router used to
    look a code up and forward it to the room's process before that lockout was asked: once
    locked, a wrong code said 'locked' and a right one on another process opened the room."""
    need_services()
    from batak.server.client import ServerError

    with cluster(tmp_path, 2) as (nodes, _redis, _db):

        async def main() -> None:
            host = Client(nodes[0].url, name="Host")
            guesser = Client(nodes[1].url, name="Guess")
            for c in (host, guesser):
                await c.connect()
            created, _table = await host.create(preset="standard", bots=False)
            answers = []
            for n in range(60):  # wrong codes until the lockout holds
                with pytest.raises(ServerError) as e:
                    await guesser.room(f"ZZZZZ{n:03d}")
                answers.append(e.value.code)
                if e.value.code == "locked":
                    break
            assert answers[0] == "no_table" and answers[-1] == "locked", answers
            for ask in (guesser.room(created["code"]), guesser.join(code=created["code"])):
                with pytest.raises(ServerError) as e:
                    await ask
                assert e.value.code == "locked"
            for c in (host, guesser):
                await c.close()

        asyncio.run(main())


def _cut_database_connections(db: str) -> int:
    """End every other session on the database (as a PostgreSQL restart would): the nodes'
    connections are closed under them. How many were ended."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def test_a_node_serves_another_nodes_table_after_the_database_cut_its_connections(
    tmp_path: Path,
) -> None:
    """PostgreSQL ends every session of the nodes (a restart of the database does the same):
    the node a client is connected to still looks up the table's owner (on a new connection)
    and forwards the client's message to it, instead of failing on a closed connection."""
    need_services()
    with cluster(tmp_path, 2) as (nodes, _redis, db):

        async def main() -> None:
            players = [Player(f"D{i}", lambda: _urls(nodes)) for i in range(4)]
            for i, p in enumerate(players):
                p.client.url = nodes[i % 2].url
            table = await _room(players, deals=1)
            assert owner(db, table)[0] == "n0"
            for round_ in range(2):  # twice: the connections opened again recover too
                # the nodes' sessions: storage worker, lease, look-up, scan, lock (the first
                # time all of them; the second time those opened again since)
                assert _cut_database_connections(db) >= 4, "the nodes' sessions were not found"
                far = players[1].client  # connected to n1, the table is n0's
                sync = await far.sync(table)
                assert sync["node"] == "n0", (round_, sync)
                await asyncio.sleep(LEASE)  # the beats and scans open theirs again meanwhile
            # and play goes on to the end (a write refused once is sent again)
            finals = await asyncio.gather(*(p.play(table) for p in players))
            assert all(f.over for f in finals)
            check_log(db, table, players)
            for q in players:
                await q.client.close()

        asyncio.run(main())


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_second_process_under_a_live_nodes_name_is_refused(tmp_path: Path) -> None:
    """`batak serve --node n0` beside a live n0 refuses to start (one line, exit 2) and n0
    keeps its tables; the node's own registration refuses too (two started at one moment
    both pass the first check). Once n0 is killed and its lease has run out, a new process
    takes the name over and claims its table back."""
    need_services()
    import sys

    from harness import ServerThread, fast_config

    with cluster(tmp_path, 1) as (nodes, redis, db):

        async def make() -> str:
            players = [Player(f"N{i}", lambda: _urls(nodes)) for i in range(4)]
            table = await _room(players, deals=2)
            for p in players:
                await p.client.close()
            return table

        table = asyncio.run(make())
        epoch = owner(db, table)
        assert epoch[0] == "n0"
        cmd = [sys.executable, "-m", "batak", "serve", "--port", str(free_port()),
               "--data", str(tmp_path / "again"), "--database", db, "--node", "n0",
               "--redis", redis.url, "--lease-seconds", str(LEASE)]  # fmt: skip
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert run.returncode == 2, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("batak serve: "), run.stderr
        assert "a node named n0 is already running" in lines[0], lines[0]
        # past the command's check (as when both start at once): the registration refuses
        config = fast_config(tmp_path / "thread", database=db, node="n0", lease_seconds=LEASE)
        with pytest.raises(RuntimeError, match="did not start"), ServerThread(config):
            pass
        assert owner(db, table) == epoch  # nothing was taken from the live n0
        with urllib.request.urlopen(nodes[0].http + "/healthz", timeout=5) as r:
            assert json.loads(r.read())["tables"] >= 1
        nodes[0].kill()
        time.sleep(LEASE + 0.5)  # its lease runs out: the name is free again
        nodes[0].start()
        assert owner(db, table)[0] == "n0" and owner(db, table)[1] > epoch[1]


def test_a_story_table_on_another_process_is_closed_only_where_it_is_held(tmp_path: Path) -> None:
    """Story mode on a cluster: "start over" (``again``) for a stage whose table another live
    process holds took the player back to that table, silently. It is refused there, in words;
    once that process is gone, the table is taken here and closed, and a new one is dealt."""
    need_services()
    with cluster(tmp_path, 2) as (nodes, _redis, db):

        async def main() -> None:
            a = Client(nodes[0].url, name="Selin")
            await a.connect()
            first = await a.story_play(0)
            await a.adjourn(first.id)  # kept unfinished while the player is away
            token = a.token
            await a.close()
            b = Client(nodes[1].url, token=token)
            await b.connect()
            with pytest.raises(ServerError) as e:
                await b.story_play(0, again=True)
            assert e.value.code == "story_elsewhere", e.value
            assert (await b.story())["stages"][0]["table"] == first.id
            await b.close()
            nodes[0].kill()
            deadline = time.monotonic() + LEASE + 60
            while True:  # the new table is dealt on n1 once n0's lease has run out
                b = Client(nodes[1].url, token=token)
                await b.connect()
                try:
                    again = await b.story_play(0, again=True)
                    break
                except ServerError as err:
                    assert err.code == "story_elsewhere", err
                    assert time.monotonic() < deadline  # a hang, not a speed check
                finally:
                    await b.close()
                await asyncio.sleep(0.5)
            assert again.id != first.id
            assert stored_log(db, first.id)[1] == "closed"

        asyncio.run(main())


async def _bot_room(host: Client, bot: str, **options: object) -> TableState:
    """``host``'s room with the bot account ``bot`` (connected to whichever process) invited,
    seated, and the match started."""
    _, table = await host.create(preset="standard", **options)
    await invite_when_online(host, table.id, bot)
    await host.until(
        lambda: any(s.get("bot_account") for s in host.tables[table.id].info["seats"]), 30
    )
    await host.start(table.id)
    await host.until(lambda: host.tables[table.id].view is not None)
    return table


async def _invite_until(host: Client, table: str, bot: str, until: str) -> None:
    """``host`` invites ``bot`` until the answer is ``until`` (an error code, or "ok"): the
    other processes hear of a bot account's match when it starts or ends, and at each beat."""
    for _ in range(int(LEASE * 10)):  # two leases: a beat of every process, and more
        try:
            await host.invite(table, bot)
            code = "ok"
        except ServerError as e:
            code = e.code
        if code == until:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"inviting {bot} never answered {until}: {code}")


def test_a_bot_playing_at_another_processs_table_is_busy_for_every_host(tmp_path: Path) -> None:
    """``batak bot`` connected to process 2 sits at a room of process 1 it is invited to, and
    plays its match. Meanwhile a host on process 2 who invites it is told ``bot_busy`` (each
    process used to look only at its own tables: the bot was invited, and came after its
    match); once the match is over, the bot is free to invite again and comes."""
    need_services()
    pytest.importorskip("argon2")
    with cluster(tmp_path, 2) as (nodes, _redis, _db):

        async def main() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(nodes[1].url, "robo", "12345678", get("easy"), say=lines.append)
            )
            host = Client(nodes[0].url, name="Host")
            other = Client(nodes[1].url, name="Other")
            for c in (host, other):
                await c.connect()
            table = await _bot_room(host, "robo", deals=1)
            _, room = await other.create(preset="standard")
            await _invite_until(other, room.id, "robo", "bot_busy")
            final = await host.play(table.id, timeout=180)
            assert final.over
            await _invite_until(other, room.id, "robo", "ok")
            await other.until(
                lambda: any(s.get("bot_account") for s in other.tables[room.id].info["seats"]),
                30,
            )
            assert f"Match 1 over (room {table.info['code']})." in "\n".join(lines), lines
            bot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bot
            for c in (host, other):
                await c.close()

        asyncio.run(main())


class _FailsAtItsFirstCard:
    """An easy player with a bug that shows at its first card."""

    def __init__(self, *, seed: int | None = None) -> None:
        self.easy = get("easy", seed=seed)

    def choose(self, view: dict[str, Any]) -> str:
        if view["phase"] == "play":
            raise RuntimeError("a bug")
        return str(self.easy.choose(view))


def test_a_bot_started_again_takes_back_its_seat_at_another_processs_table(
    tmp_path: Path,
) -> None:
    """A bot whose player failed mid-match, started again, comes back to its seat by itself
    (docs/bots.md), also when its seat is at a table of another process than the one it
    connects to: its login's ``welcome`` lists that table too. It used to list only the tables
    of the bot's own process, and the bot waited for an invitation while a computer played."""
    need_services()
    pytest.importorskip("argon2")
    from batak.bots import PlayerError

    with cluster(tmp_path, 2) as (nodes, _redis, _db):

        async def main() -> None:
            bot = asyncio.create_task(
                serve_as_bot(
                    nodes[1].url, "robo", "12345678", _FailsAtItsFirstCard(), say=lambda _: None
                )
            )
            host = Client(nodes[0].url, name="Host")
            await host.connect()
            table = await _bot_room(host, "robo", deals=1)
            # the host plays until the bot's player fails (it leaves its seat to a computer)
            await host.play(table.id, timeout=120, stop=lambda st: bot.done())
            with pytest.raises(PlayerError):
                await asyncio.wait_for(bot, 60)
            lines: list[str] = []
            again = asyncio.create_task(
                serve_as_bot(nodes[1].url, "robo", "12345678", get("easy"), games=1,
                             say=lines.append)
            )  # fmt: skip
            back = f"Back in the room {table.info['code']} (standard), seat "
            for _ in range(300):
                if any(x.startswith(back) for x in lines) or again.done():
                    break
                await asyncio.sleep(0.1)
            assert any(x.startswith(back) for x in lines), lines
            final = await host.play(table.id, timeout=180)
            assert final.over
            assert await asyncio.wait_for(again, 60) == 1, lines
            # the seat was the bot account's again: its last moves were its own
            seat = next(i for i, x in enumerate(final.info["seats"]) if x.get("bot_account"))
            moves = [e for e in final.events if e.get("kind") == "move" and e["seat"] == seat]
            assert moves and moves[-1].get("by") == "player", moves[-1]
            await host.close()

        asyncio.run(main())


def _bot_account_seated(host: Client, table: str) -> bool:
    return any(s.get("bot_account") for s in host.tables[table].info.get("seats") or [])


async def _room_with_a_forwarded_bot(nodes: list[Node]) -> tuple[Client, Client, str]:
    """A room of n0 (its host connected there, keeping every message) with a bot account
    connected to n1 seated by the room's code (forwarded to n0), not started."""
    host = Client(nodes[0].url, name="Host", keep_log=True)
    bot = Client(nodes[1].url, name="Robo")
    for c in (host, bot):
        await c.connect()
    await bot.register("robo", "12345678", bot=True)
    _, table = await host.create(preset="standard", deals=1)
    await bot.join(code=table.info["code"])
    await host.until(lambda: _bot_account_seated(host, table.id), 10)
    return host, bot, table.id


def _told_away(host: Client, table: str) -> bool:
    """Whether ``host`` heard that a seat of ``table`` lost its connection (and is held)."""
    return any(
        m.get("type") == "presence" and m.get("table") == table and m.get("connected") is False
        for m in map(json.loads, host.log)
    )


@pytest.mark.parametrize("how", ["sigterm", "redis"])
def test_a_forwarded_bot_accounts_seat_stays_when_a_server_closes_its_socket(
    tmp_path: Path, how: str
) -> None:
    """A bot account connected to n1 sits in a room of n0 not started. Its socket is closed by
    a server itself with 1012: n1 stops (SIGTERM, a rolling restart), or Redis is restarted
    (every forwarded client is closed to come back). That is no program gone: n0 holds the
    seat (``presence``), as for a person, and stores no ``stand`` (docs/protocol.md). The
    owner used to hear only ``gone``, without how the socket closed, and freed the seat."""
    need_services()
    pytest.importorskip("argon2")
    with cluster(tmp_path, 2, own_redis=True) as (nodes, redis, db):

        async def main() -> None:
            host, bot, table = await _room_with_a_forwarded_bot(nodes)
            if how == "sigterm":
                await asyncio.to_thread(nodes[1].stop)
            else:
                await asyncio.to_thread(redis.kill)
                await asyncio.sleep(2)  # (n0 finds Redis gone within a second or so)
                await asyncio.to_thread(redis.start)
            # held, or (before) freed: either is told the host at once
            await host.until(
                lambda: _told_away(host, table) or not _bot_account_seated(host, table), 30
            )
            assert _bot_account_seated(host, table), host.tables[table].info["seats"]
            assert [e for e in stored_log(db, table)[0] if e[1] == "stand"] == []
            await host.close()
            await bot.close()

        asyncio.run(main())


def test_a_bot_freed_from_a_room_on_another_process_is_not_told_to_come_back_there(
    tmp_path: Path,
) -> None:
    """A bot account connected to n1 sits in a room of n0 not started; its program goes, and
    n0 frees the seat at once. Its program back at once on n1 (a service manager restarting
    it) must not find that room in its ``welcome``'s ``tables`` (``batak bot`` would join it
    again; docs/bots.md: it waits for a new invitation). Where bot accounts sit
    (``batak:bot_seats:n0``, which n1 reads) used to be written only at n0's beat or when a
    match started or ended, and the stand wrote nothing."""
    import redis as redis_py

    need_services()
    pytest.importorskip("argon2")
    with cluster(tmp_path, 2) as (nodes, redis, _db):

        async def main() -> None:
            host, bot, table = await _room_with_a_forwarded_bot(nodes)
            seats = redis_py.Redis.from_url(redis.url)
            pid = bot.player["id"]
            for _ in range(int(LEASE * 20)):  # (written at once now; at n0's beat before)
                got = seats.hget("batak:bot_seats:n0", pid)
                if got and table in got.decode():
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("n0 never said where the bot account sits")
            token = bot.token
            await bot.close()  # the program is gone: the seat is freed at once
            await host.until(lambda: not _bot_account_seated(host, table), 10)
            again = Client(nodes[1].url, token=token)
            welcome = await again.connect()
            assert table not in (welcome.get("tables") or []), welcome
            seats.close()
            for c in (host, again):
                await c.close()

        asyncio.run(main())


def test_a_bot_account_that_left_one_process_logs_in_at_once_through_another(
    tmp_path: Path,
) -> None:
    """A bot account's program connected to n1 stops, and is started again at once (a service
    manager), the load balancer sending it to n0: its login is taken. Who is connected to each
    process (``batak:online:NAME``, which a bot account's login asks on every process) was
    rewritten only at that process's beat, every third of a lease: a bot back within that time
    was refused ``bot_online`` (and told to wait 45 s). A process now takes a player whose last
    connection to it closed out of its lists at once (``batak:bots:NAME`` too: ``invitable``)."""
    import redis as redis_py

    need_services()
    pytest.importorskip("argon2")
    with cluster(tmp_path, 2) as (nodes, redis, _db):

        async def main() -> None:
            keys = redis_py.Redis.from_url(redis.url)
            bot = Client(nodes[1].url, name="Robo")
            await bot.connect()
            await bot.register("robo", "12345678", bot=True)
            pid = bot.player["id"]
            for _ in range(int(LEASE * 20)):  # until n1's beat lists it (as a bot account)
                if keys.sismember("batak:online:n1", pid) and keys.hexists("batak:bots:n1", "robo"):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("n1 never said the bot account is connected there")
            await bot.close()  # the program stops; the next beat of n1 is a second away
            again = Client(nodes[0].url)
            await again.connect()
            welcome = await again.login("robo", "12345678")  # refused with bot_online before
            assert welcome["player"]["id"] == pid
            assert not keys.sismember("batak:online:n1", pid)
            assert not keys.hexists("batak:bots:n1", "robo")
            keys.close()
            await again.close()

        asyncio.run(main())


def test_a_finished_rooms_code_goes_to_the_process_that_holds_its_table(tmp_path: Path) -> None:
    """A room's match ends on n0, which keeps the finished table (rematch, chat); its host comes
    back through n1 with the room's code. The router looked codes up among the tables not over
    only: n1 opened a copy of its own from the saved games (read-only: no rematch, no chat),
    where a join by the table's id went to n0. A finished room's code now goes to the process
    that holds its table, as its id does."""
    need_services()
    with cluster(tmp_path, 2) as (nodes, _redis, db):

        async def main() -> None:
            host = Client(nodes[0].url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            await host.start(table.id)  # computer players take the other seats
            assert (await host.play(table.id, timeout=90)).over
            assert owner(db, table.id)[0] == "n0"
            back = Client(nodes[1].url, token=host.token)
            await back.connect()
            again = await back.join(code=created["code"])
            assert again.info.get("status") == "over"
            assert not again.info.get("archived"), "n1 opened a copy of its own"
            assert owner(db, table.id)[0] == "n0"
            outsider = Client(nodes[1].url, name="Guess")  # never sat there: told no more
            await outsider.connect()
            with pytest.raises(ServerError) as e:
                await outsider.join(code=created["code"], spectate=True)
            assert e.value.code == "match_over" and table.id not in e.value.message
            for c in (host, back, outsider):
                await c.close()

        asyncio.run(main())


def test_a_bot_account_back_on_the_same_process_is_listed_again_at_once(tmp_path: Path) -> None:
    """A bot account's program connected to n1 loses its connection and comes back to n1 with
    its token at once. Its close took it out of ``batak:online:n1`` and ``batak:bots:n1`` at
    once, but a connection put it back only at n1's next beat (a third of a lease: here, with a
    60 s lease, none comes within the test): meanwhile a second program of the same bot account
    logged in through n0 (nobody said it was online), and no host on n0 could invite it. A
    process now writes a player who connects to it as at once as one who left."""
    import redis as redis_py

    need_services()
    pytest.importorskip("argon2")
    with cluster(tmp_path, 2, lease=60) as (nodes, redis, _db):

        async def listed(keys: Any, pid: str, want: bool) -> None:
            for _ in range(100):
                online = keys.sismember("batak:online:n1", pid)
                now = (bool(online), bool(keys.hexists("batak:bots:n1", "robo")))
                if now == (want, want):
                    return
                await asyncio.sleep(0.05)
            raise AssertionError(f"n1's lists say {now}, not {want}")

        async def main() -> None:
            keys = redis_py.Redis.from_url(redis.url)
            bot = Client(nodes[1].url, name="Robo")
            await bot.connect()
            await bot.register("robo", "12345678", bot=True)
            pid = bot.player["id"]
            await listed(keys, pid, True)  # a bot account there now (only at the beat, before)
            await bot.close()  # its connection drops ...
            await listed(keys, pid, False)
            back = Client(nodes[1].url, token=bot.token)  # ... and it comes back to n1 at once
            await back.connect()
            await listed(keys, pid, True)
            host = Client(nodes[0].url, name="Host")
            second = Client(nodes[0].url)
            for c in (host, second):
                await c.connect()
            _, table = await host.create(preset="standard", deals=1)
            assert [b["username"] for b in await host.invitable(table.id)] == ["robo"]
            with pytest.raises(ServerError) as refused:  # it logged in before
                await second.login("robo", "12345678")
            assert refused.value.code == "bot_online"
            keys.close()
            for c in (back, host, second):
                await c.close()

        asyncio.run(main())


class _StalledPipeline:
    """A Redis pipeline that takes the commands and answers once ``release`` is set (Redis
    paused, a stalled network)."""

    def __init__(self, entered: asyncio.Event, release: asyncio.Event) -> None:
        self.entered, self.release = entered, release

    async def __aenter__(self) -> _StalledPipeline:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None  # delete, hset, expire, sadd ...

    async def execute(self) -> list[Any]:
        self.entered.set()
        await self.release.wait()
        return []


def test_a_takeover_waits_for_its_redis_write_without_holding_up_other_claims() -> None:
    """A takeover of a table where a bot account sits writes where bot accounts sit before a
    client is answered from it (9c75505); it waited for that write holding the claim lock, so
    with Redis stalled every other claim (a client's sync of another table whose owner died)
    waited too, up to 2 s each, and the takeover scan's claims each waited their 2 s in turn.
    Now a client's route waits for the write after the lock is let go, and the scan's claims do
    not wait (a beat follows them). Real Cluster and Bus; the database, the hub and Redis (its
    pipeline stalled until the test lets it answer) are stand-ins."""
    from types import SimpleNamespace

    from batak.server.cluster.bus import Bus
    from batak.server.cluster.owner import Cluster

    class Cursor:
        def __init__(self, row: Any) -> None:
            self.row = row

        async def fetchone(self) -> Any:
            return self.row

    async def main() -> None:
        tables: dict[str, Any] = {}

        def load(row: Any, events: Any, age: float) -> Any:
            bot = row.id in ("tA", "tC")  # a bot account sits at tA and tC
            tables[row.id] = SimpleNamespace(  # (a table in play, of no tournament)
                id=row.id, status="playing", options={}, seats=[SimpleNamespace(bot_account=bot)]
            )
            return tables[row.id]

        async def stored(table_id: str) -> Any:
            return SimpleNamespace(id=table_id, status="playing", created=time.time()), []

        hub = SimpleNamespace(
            tables=tables,
            unclosed={},
            creating=set(),
            online={},
            storage=SimpleNamespace(table=stored),
            _load=load,
            to_close=lambda row: False,  # (none is a rematch's table to close)
            bot_seats=lambda: {"b1": [["tA", "playing"]]},
            bot_accounts_online=lambda: [],
        )
        cluster = Cluster.__new__(Cluster)
        cluster.hub = hub  # type: ignore[assignment]
        cluster.node, cluster.lease, cluster.alive = "n1", 60.0, ["n1"]
        cluster.owned, cluster.stopping, cluster.takeovers = {}, False, 0
        cluster.valid_until = time.monotonic() + 3600
        cluster._claim_lock = asyncio.Lock()

        async def db(name: str, sql: str, params: Any = None) -> Cursor:
            if sql.startswith("UPDATE table_owners"):  # the claim: taken, epoch 1
                return Cursor((1, "n1"))
            return Cursor(None)  # owner_of: nobody owns it

        cluster._db = db  # type: ignore[method-assign]
        entered, release = asyncio.Event(), asyncio.Event()
        bus = Bus(cluster, "redis://127.0.0.1:1/0")  # (never connected)
        bus.up = True
        bus._redis = SimpleNamespace(pipeline=lambda **kw: _StalledPipeline(entered, release))

        async def no_announce(msg: dict[str, Any]) -> None:
            return None

        bus.announce = no_announce  # type: ignore[method-assign]
        bus.written = functools.partial(Bus.written, bus, timeout=3600)  # type: ignore[method-assign]
        cluster.bus = bus
        try:
            conn = SimpleNamespace(remote=False)
            # a client's sync takes tA over: answered once where its bot sits is written
            a = asyncio.create_task(cluster.route(conn, {"type": "sync", "table": "tA"}))
            await asyncio.wait_for(entered.wait(), 10)
            # meanwhile another client's sync of tB (no bot account there) is not held up
            b = asyncio.create_task(cluster.route(conn, {"type": "sync", "table": "tB"}))
            done, _ = await asyncio.wait({b}, timeout=10)
            assert b in done, "tB's claim waited behind the claim lock for tA's Redis write"
            assert not a.done()  # tA's client is answered after the write, still
            # nor does the takeover scan's claim of tC wait for a write
            c = asyncio.create_task(cluster.claim("tC", "_scan"))
            done, _ = await asyncio.wait({c}, timeout=10)
            assert c in done and c.result(), "the scan's claim waited for the Redis write"
            assert set(tables) == {"tA", "tB", "tC"} and not a.done()
            release.set()
            assert await asyncio.wait_for(a, 10) is False  # handled here
        finally:
            release.set()
            await bus.stop()

    asyncio.run(main())


def test_a_process_that_takes_a_table_over_says_at_once_where_its_bot_account_sits(
    tmp_path: Path,
) -> None:
    """n0 holds a match where a bot account sits, and dies; its host comes back through n1,
    whose ``sync`` takes the table over. The other processes read where bot accounts sit from
    ``batak:bot_seats:n1`` (a bot account's ``welcome``, ``invite``'s ``bot_busy``): n1 used to
    write it only at its next beat, a third of a lease later. With a 60 s lease (n0's is made
    to have run out in the database), nothing but the takeover writes it within the test."""
    import psycopg
    import redis as redis_py

    need_services()
    pytest.importorskip("argon2")
    with cluster(tmp_path, 2, lease=60) as (nodes, redis, db):

        async def main() -> None:
            keys = redis_py.Redis.from_url(redis.url)
            host = Client(nodes[0].url, name="Host")
            bot = Client(nodes[0].url, name="Robo")
            for c in (host, bot):
                await c.connect()
            await bot.register("robo", "12345678", bot=True)
            _, table = await host.create(preset="standard", deals=1)
            await bot.join(code=table.info["code"])
            await host.until(lambda: _bot_account_seated(host, table.id), 10)
            await host.start(table.id)
            await host.until(lambda: host.tables[table.id].view is not None)
            await asyncio.to_thread(nodes[0].kill)
            with psycopg.connect(db, autocommit=True) as conn:
                conn.execute(
                    "UPDATE cluster_nodes SET lease_until = now() - interval '1 second'"
                    " WHERE id = 'n0'"
                )
            back = Client(nodes[1].url, token=host.token)
            await back.connect()
            await back.sync(table.id)  # n1 takes the table over to answer
            assert owner(db, table.id)[0] == "n1"
            seats = keys.hget("batak:bot_seats:n1", bot.player["id"])
            assert seats is not None and table.id in seats.decode(), seats
            keys.close()
            for c in (host, bot, back):
                await c.close()

        asyncio.run(main())


def _routing_on_n1(by_code: Callable[[str], Awaitable[tuple[str, bool]]]) -> tuple[Any, Any]:
    """The real Cluster.route of node n1, with stand-ins: a hub holding no table (none kept
    aside to close either), whose storage finds a room's code with ``by_code``, and an owner's
    row that puts every table on n0, another process alive (no Redis to forward through); and
    a connection of nobody in particular."""
    from types import SimpleNamespace

    from batak.server.cluster.owner import Cluster

    async def owner_of(table_id: str) -> tuple[str, bool]:
        return ("n0", True)

    hub = SimpleNamespace(
        tables={},
        unclosed={},
        codes={},
        code_checks=lambda conn: [],
        storage=SimpleNamespace(table_by_code=by_code),
    )
    cluster = Cluster.__new__(Cluster)
    cluster.hub, cluster.node, cluster.bus = hub, "n1", None  # type: ignore[assignment]
    cluster.owner_of = owner_of  # type: ignore[method-assign]
    return cluster, SimpleNamespace(remote=False, player=None)


def test_a_finished_rooms_code_is_answered_here_when_its_holder_cannot_be_reached() -> None:
    """A finished room's code goes to the process that still holds its table (533f376); with
    no Redis to forward through (a cluster without --redis, or Redis down), it was refused
    'elsewhere' where before it was answered from the saved games (the match is over, or its
    table to look at for its players). Real Cluster.route; the hub, its storage and the owner's
    row are stand-ins: the table's process is another, alive one."""

    async def by_code(code: str) -> tuple[str, bool]:
        return ("tOVER", True)  # a finished table has the code

    async def main() -> None:
        cluster, conn = _routing_on_n1(by_code)
        for kind in ("room", "join"):  # False: the hub here answers it
            assert await cluster.route(conn, {"type": kind, "code": "abcdefgh"}) is False  # type: ignore[arg-type]

    asyncio.run(main())


def test_a_join_refused_elsewhere_names_the_table_it_asked_for() -> None:
    """Every refusal of a ``join`` by a table's id names that table (``table``; 19224e0), so
    that a page gone on to table B meanwhile ignores a late answer about table A: but the
    refusal 'elsewhere' (A's process is another, alive one, and there is no Redis to forward
    through) was raised by the cluster's routing before the hub, without it, and sent a page now
    at B to the lobby. A join by code and another kind of message name no table. Real
    Cluster.route; the hub and the owner's row are stand-ins."""

    from batak.server.table import TableError

    async def by_code(code: str) -> tuple[str, bool]:
        return ("tA", False)

    async def main() -> None:
        cluster, conn = _routing_on_n1(by_code)
        for msg, named in (
            ({"type": "join", "table": "tA", "ref": "join"}, "tA"),
            ({"type": "join", "code": "abcdefgh", "ref": "invite"}, None),
            ({"type": "sync", "table": "tA"}, None),
        ):
            with pytest.raises(TableError) as refused:
                await cluster.route(conn, msg)  # type: ignore[arg-type]
            assert refused.value.code == "elsewhere"
            assert refused.value.extra.get("table") == named, (msg, refused.value.extra)

    asyncio.run(main())


def test_the_log_counts_tables_and_events_in_words_that_read_right(tmp_path: Path) -> None:
    """A node stopped with one table said "released 1 tables" (and "1 events" when it took
    a table with one event back, "1 tables were taken" after a lapsed lease)."""
    need_services()
    import re

    with cluster(tmp_path, 1) as (nodes, _redis, _db):

        async def room() -> None:
            async with Client(nodes[0].url, name="Host") as host:
                await host.create(preset="standard", bots=False)

        asyncio.run(room())
        nodes[0].stop()  # SIGTERM: its tables are released for the others
        said = nodes[0].stderr()
        assert "node n0: released 1 table\n" in said, said[-2000:]
        nodes[0].start()  # claims back the table still recorded as its own
        deadline = time.monotonic() + 15
        while "took table" not in (said := nodes[0].stderr()):
            assert time.monotonic() < deadline, said[-2000:]
            time.sleep(0.1)
        took = re.search(r"took table \S+ \(epoch \d+, (\d+) (events?), ", said)
        assert took is not None, said[-2000:]
        assert (took[1] == "1") == (took[2] == "event"), took[0]
        assert not re.search(r"\b1 (tables|events)\b", said), said[-2000:]
