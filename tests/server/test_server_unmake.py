"""A table just made that must not be (a tournament round undone, a staked rematch that fell
through) is closed by Hub.unmake; when the database refuses that close, it is closed later."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config, free_port, postgres_database

from batak.rules import Rules
from batak.server.client import Client, ServerError
from batak.server.storage import EventRow, StorageError


def _refuse_next_close(storage: Any) -> None:
    """The database refuses the next close of a table (``set_status``) once; the one after
    is stored as usual."""
    real = storage.set_status

    async def refused(tid: str, status: str) -> None:
        storage.set_status = real
        raise StorageError("the database is away (a test)")

    storage.set_status = refused


def test_a_table_whose_close_fails_is_closed_by_the_reaper_later(tmp_path: Path) -> None:
    """The close of a table being unmade fails once (the database refused it): the table stays
    held, still waiting, and the reaper's next pass closes it (stored ``closed``, out of
    memory). Before, it left memory at once, stored as ``waiting`` for good: a round's table
    undone so stayed there, seated by nobody, and the reaper (which reads only the tables in
    memory) never saw it."""
    with ServerThread(fast_config(tmp_path)) as srv:
        hub = srv.hub

        async def make() -> str:
            host = Client(srv.url, name="Host")
            await host.connect()
            _, table = await host.create(bots=False)
            await host.close()
            return table.id

        table_id = asyncio.run(make())
        storage = hub.storage

        async def unmake() -> None:
            _refuse_next_close(storage)
            await hub.unmake(hub.tables[table_id])

        srv.call(unmake)

        assert _status(srv, table_id) == "waiting"
        srv.call(hub.reap_once)
        assert _status(srv, table_id) == "closed"
        assert table_id not in hub.tables


def test_a_table_whose_close_failed_is_offered_to_nobody_meanwhile(tmp_path: Path) -> None:
    """A table kept after its close failed (a staked rematch's, whose start found a person
    short: public, of a mode, its people seated, waiting) is one nobody should be sent to
    while the reaper has not closed it: the lobby does not list it, its people's own tables
    do not show it, quick play does not bring them back to it (a table that never starts,
    closed under them by the next pass), and a host's room so kept takes nothing from the
    host's room quota, its id opens it to nobody, and a bot account seated there is not sent
    back to it (a ``welcome``'s ``tables``; in a cluster the other processes' through
    ``bot_seats``). Before, it stayed listed and offered in all of these (lobby,
    ``mytables``, quick play, ``room_quota``, a join by its id, the bot account's tables)."""
    pytest.importorskip("argon2")
    config = fast_config(tmp_path, quick_fill_seconds=600.0, rooms_per_guest=1)
    with ServerThread(config) as srv:
        hub = srv.hub
        storage = hub.storage

        async def main() -> None:
            a = Client(srv.url, name="Ayla")
            host = Client(srv.url, name="Host")
            robot = Client(srv.url, name="robol")
            for c in (a, host, robot):
                await c.connect()
            try:
                await robot.register("robol", "uzun-bir-parola", bot=True)
                kept = (await a.quick("ihaleli")).id
                assert (await robot.quick("ihaleli")).id == kept
                assert robot.player["id"] in hub.bot_seats()
                _, room = await host.create(bots=False)

                async def unmake() -> None:
                    for tid in (kept, room.id):
                        _refuse_next_close(storage)
                        await hub.unmake(hub.tables[tid])

                assert srv.loop is not None  # (srv.call would block this loop's clients)
                await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(unmake(), srv.loop))
                assert {kept, room.id} <= hub.unclosed.keys()
                # kept aside, out of the tables in memory: nothing that reads them offers it
                assert kept not in hub.tables and room.id not in hub.tables
                listed = {t["id"] for t in (await a.lobby())["modes"]["ihaleli"]}
                assert kept not in listed
                mine = await a.request({"type": "mytables"})
                assert kept not in {t["id"] for t in mine["tables"]}
                assert (await a.quick("ihaleli")).id != kept
                with pytest.raises(ServerError) as refused_join:
                    await a.join(kept)
                assert refused_join.value.code == "no_table"
                await host.create(bots=False)  # (refused room_quota before)
                again = Client(srv.url, token=robot.token)  # the bot account's program again
                assert kept not in (await again.connect())["tables"]
                await again.close()
                assert robot.player["id"] not in hub.bot_seats()
            finally:
                for c in (a, host, robot):
                    await c.close()

        asyncio.run(main())


def test_a_table_whose_close_failed_is_closed_when_the_server_stops(tmp_path: Path) -> None:
    """The server stops before the reaper's next pass (a restart, a deploy) with a table kept
    after its close failed: the close is tried once more on the way out, so that the server
    started again does not load it back as a waiting table (offered in the lobby, its people
    seated at a table that was never to be). Before, it came back so."""
    config = fast_config(tmp_path, quick_fill_seconds=600.0)
    with ServerThread(config) as srv:
        hub = srv.hub
        storage = hub.storage

        async def made() -> str:
            a = Client(srv.url, name="Ayla")
            await a.connect()
            table = await a.quick("ihaleli")
            await a.close()
            return table.id

        kept = asyncio.run(made())

        async def unmake() -> None:
            _refuse_next_close(storage)
            await hub.unmake(hub.tables[kept])

        srv.call(unmake)
        assert kept in hub.unclosed
    with ServerThread(replace(config, port=free_port())) as again:
        assert kept not in again.hub.tables

        assert _status(again, kept) == "closed"


async def _new_room(hub: Any, close_unstarted: bool = False) -> Any:
    """A private room of one deal of ``standard``, without computer players or host;
    ``close_unstarted``: made as a rematch's table is (closed if found not started)."""
    return await hub.new_table(
        kind="private",
        mode=None,
        rules=Rules.preset("standard", deals=1, target_score=None),
        options={"bots": False},
        host=None,
        close_unstarted=close_unstarted,
    )


def _rematch_with_a_broken_log(srv: ServerThread) -> str:
    """A room made as a rematch's table is, whose stored log cannot be replayed: an event the
    engine refuses after its making (as a damaged log would have)."""

    async def made() -> str:
        table = await _new_room(srv.hub, close_unstarted=True)
        await srv.hub.storage.append_events(
            table.id, [EventRow(2, "move", {"seat": 0, "move": "no such move"}, 0.0)]
        )
        return str(table.id)

    return str(srv.call(made))


def _kept_on_a_node(srv: ServerThread, close_unstarted: bool = False) -> str:
    """A cluster node's room whose close was refused once (kept aside, in ``Hub.unclosed``);
    ``close_unstarted``: made as a rematch's table is."""
    hub = srv.hub
    storage = hub.storage

    async def make() -> str:
        table = await _new_room(hub, close_unstarted)
        _refuse_next_close(storage)
        await hub.unmake(table)
        return table.id

    kept: str = srv.call(make)
    assert kept in hub.unclosed and kept not in hub.tables
    return kept


def _status(srv: ServerThread, table_id: str) -> str:
    """The table's status as the server's storage reads it (either database)."""

    async def stored() -> str:
        row = await srv.hub.storage.table(table_id)
        assert row is not None
        return row[0].status

    return str(srv.call(stored))


def _stored(srv: ServerThread, table_id: str) -> tuple[str, str | None, int]:
    """The table's stored status, and its owner and epoch in ``table_owners``."""
    import psycopg

    with psycopg.connect(srv.hub.storage.url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT t.status, o.owner, o.epoch FROM tables t"
            " JOIN table_owners o ON o.table_id = t.id WHERE t.id = %s",
            (table_id,),
        ).fetchone()
    assert row is not None
    return str(row[0]), row[1], int(row[2])


def test_a_cluster_node_neither_takes_back_nor_offers_a_table_it_could_not_close(
    tmp_path: Path,
) -> None:
    """On a cluster node, a table kept aside after its close failed is stored waiting and
    owned by that node: just what the takeover scan takes "back" (its own tables not in
    memory) and what a claim loads (a join by its id through the node). Neither may: that
    would be a second copy of it, in ``Hub.tables``, offered to players. The scan and a
    claim leave it alone (its epoch unchanged, so that its close passes the fencing check),
    a join by its id is answered ``no_table``, and the reaper's pass closes it and lets its
    ownership go."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url, ServerThread(fast_config(tmp_path, database=url, node="n0")) as srv:
        hub = srv.hub
        owner = hub.cluster
        assert owner is not None
        kept = _kept_on_a_node(srv)
        assert _stored(srv, kept) == ("waiting", "n0", 1)
        srv.call(owner.scan)
        assert srv.call(lambda: owner.claim(kept)) is False
        assert owner.takeovers == 0 and kept not in hub.tables
        assert owner.owned[kept] == 1

        async def join() -> str:
            c = Client(srv.url, name="Ayla")
            await c.connect()
            try:
                await c.join(kept)
            except ServerError as e:
                return e.code
            finally:
                await c.close()
            return "joined"

        assert asyncio.run(join()) == "no_table"
        assert kept not in hub.tables
        srv.call(hub.reap_once)
        assert kept not in hub.unclosed
        assert _stored(srv, kept)[0] == "closed"


def test_a_kept_table_claimed_by_another_node_meanwhile_is_let_go(tmp_path: Path) -> None:
    """The node's lease lapsed and another node claimed the table it kept aside to close
    (its epoch raised): once the lease is renewed, the recheck drops that table as it drops
    the others taken meanwhile (its close would be refused by the fencing check for good),
    rather than keep trying it at every reaper's pass."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    import psycopg

    with pg as url, ServerThread(fast_config(tmp_path, database=url, node="n0")) as srv:
        hub = srv.hub
        owner = hub.cluster
        assert owner is not None
        kept = _kept_on_a_node(srv)
        table = hub.unclosed[kept]
        with psycopg.connect(url, autocommit=True) as conn:  # as another node's claim
            conn.execute(
                "UPDATE table_owners SET owner = 'n1', epoch = epoch + 1 WHERE table_id = %s",
                (kept,),
            )

        async def recheck() -> None:
            await owner._recheck()
            await asyncio.sleep(0.1)  # (the drop is spawned)

        srv.call(recheck)
        assert kept not in hub.unclosed and kept not in owner.owned
        assert table.gone
        assert _stored(srv, kept) == ("waiting", "n1", 2)


def test_a_node_that_stops_with_a_kept_table_lets_it_go(tmp_path: Path) -> None:
    """A node stops while the database still refuses the close of a table it kept aside (the
    close is tried once more on the way out, and refused): the table's actor stops with the
    others and its ownership is released with theirs (a process that has gone holds
    nothing; the node that takes it finds it as stored)."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        with ServerThread(fast_config(tmp_path, database=url, node="n0")) as srv:
            kept = _kept_on_a_node(srv)
            table = srv.hub.unclosed[kept]

            async def refused(tid: str, status: str) -> None:
                raise StorageError("the database is away (a test)")

            srv.hub.storage.set_status = refused  # type: ignore[method-assign]
        assert table.gone
        assert _stored(srv, kept) == ("waiting", None, 1)


def test_a_rematch_kept_by_a_node_that_stopped_is_closed_by_the_next_one(tmp_path: Path) -> None:
    """A node stops while the database still refuses the close of a rematch's table it kept
    aside (its ownership released with the others'). The node that takes it next (here a
    node started after it) finds it stored waiting, made to close if not started
    (``close_unstarted``): it closes it (stored ``closed``, its ownership let go) instead of
    loading it as a room waiting to start. Before, it was taken over and offered again."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        config = fast_config(tmp_path, database=url, node="n0")
        with ServerThread(config) as srv:
            kept = _kept_on_a_node(srv, close_unstarted=True)

            async def refused(tid: str, status: str) -> None:
                raise StorageError("the database is away (a test)")

            srv.hub.storage.set_status = refused  # type: ignore[method-assign]
        assert _stored(srv, kept) == ("waiting", None, 1)
        with ServerThread(replace(config, port=free_port(), node="n1")) as other:
            owner = other.hub.cluster
            assert owner is not None
            other.call(owner.scan)
            assert not other.hub.holds(kept)
            assert _stored(other, kept)[0] == "closed"
            assert kept not in owner.owned


def test_a_kept_table_dropped_while_the_reaper_closes_another_is_not_kept_again(
    tmp_path: Path,
) -> None:
    """Two tables kept aside on a node; while the reaper's pass closes the first, the node's
    recheck after a lapsed lease drops the second (another node claimed it meanwhile). The
    pass then comes to that second table, let go already: it must not keep it again. Before,
    its close was refused (``gone``), it went back into ``Hub.unclosed`` for good, out of
    every table list, tried and refused at every pass (a warning each 30 s) and counted
    against ``max_tables`` until the process stopped. So did a round's table that the
    fencing check dropped before the round was undone (:meth:`Hub.unmake` of a table let go
    already)."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    import psycopg

    with pg as url, ServerThread(fast_config(tmp_path, database=url, node="n0")) as srv:
        hub = srv.hub
        owner = hub.cluster
        assert owner is not None
        first, second = _kept_on_a_node(srv), _kept_on_a_node(srv)
        storage = hub.storage
        real = storage.set_status

        async def closing(tid: str, status: str) -> None:
            if tid == first:  # meanwhile: the second is claimed elsewhere, and let go here
                storage.set_status = real  # type: ignore[method-assign]
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(
                        "UPDATE table_owners SET owner = 'n1', epoch = epoch + 1"
                        " WHERE table_id = %s",
                        (second,),
                    )
                await owner._recheck()
                await asyncio.sleep(0.1)  # (the drop is spawned)
                assert second not in hub.unclosed
            await real(tid, status)

        async def reap() -> None:
            storage.set_status = closing  # type: ignore[method-assign]
            await hub.reap_once()

        srv.call(reap)
        assert _stored(srv, first)[0] == "closed"
        assert first not in hub.unclosed
        assert second not in hub.unclosed
        assert _stored(srv, second) == ("waiting", "n1", 2)

        async def dropped_then_unmade() -> str:  # (a round undone after the fencing check)
            table = await _new_room(hub)
            owner.fenced(table)
            await asyncio.sleep(0.1)
            await hub.unmake(table)
            return table.id

        assert srv.call(dropped_then_unmade) not in hub.unclosed


def test_a_message_forwarded_for_a_kept_table_is_answered_not_closed(tmp_path: Path) -> None:
    """A client of another node asks (through the bus) for a table its owner keeps aside to
    close: the owner answers it there (``no_table``, as for any table nobody may join) rather
    than take the table for moved and close the client's socket with 1012, which would
    bring the client back through the same route to be closed again."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    from types import SimpleNamespace

    with pg as url, ServerThread(fast_config(tmp_path, database=url, node="n0")) as srv:
        owner = srv.hub.cluster
        assert owner is not None
        kept = _kept_on_a_node(srv)
        closed: list[int] = []

        async def close(code: int = 1000, reason: str = "") -> None:
            closed.append(code)

        remote = SimpleNamespace(remote=True, close=close)  # (a RemoteConn, as the bus makes)
        went = srv.call(lambda: owner.route(remote, {"type": "join", "table": kept}))
        assert went is False and closed == []


def test_a_bot_account_at_a_kept_table_is_free_for_the_other_nodes_at_once(
    tmp_path: Path,
) -> None:
    """A bot account (its program still connected) sits at a table whose close is then
    refused (kept aside), then at one closed at once (as a staked rematch that fell
    through): the other nodes read where bot accounts sit from Redis
    (``batak:bot_seats:NAME``: ``invite``'s ``bot_busy``, a bot account's ``welcome``), and
    that list no longer has either table once the hub has let it go, as it is rewritten when
    a bot account sits or stands. Before, it kept the table set aside until the node's next
    beat (a third of the lease)."""
    pytest.importorskip("argon2")
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    redis_py = pytest.importorskip("redis")
    import shutil

    from cluster_harness import Redis

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (.ci/run installs Debian's package)")
    cache = Redis(tmp_path)
    cache.start()
    try:
        # (a long lease: no beat rewrites the list during the test)
        config = fast_config(
            tmp_path, node="n0", redis=cache.url, lease_seconds=120.0, quick_fill_seconds=600.0
        )
        with pg as url, ServerThread(replace(config, database=url)) as srv:
            hub = srv.hub
            owner = hub.cluster
            assert owner is not None and owner.bus is not None and srv.loop is not None
            bus = owner.bus
            storage = hub.storage
            seats = redis_py.Redis(port=cache.port)

            async def there(coro: Any) -> Any:  # (on the server's loop; srv.call would block
                assert srv.loop is not None  # this loop's client)
                return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, srv.loop))

            async def unmade(table_id: str, refuse: bool) -> None:
                if refuse:
                    _refuse_next_close(storage)
                await hub.unmake(hub.tables[table_id])
                await bus.written()

            def listed(pid: str) -> bool:
                return pid.encode() in seats.hgetall("batak:bot_seats:n0")

            async def main() -> None:
                robot = Client(srv.url, name="robol")
                await robot.connect()
                try:
                    await robot.register("robol", "uzun-bir-parola", bot=True)
                    pid = robot.player["id"]
                    kept = (await robot.quick("ihaleli")).id
                    await there(bus.written())
                    assert listed(pid)
                    await there(unmade(kept, refuse=True))
                    assert kept in hub.unclosed and pid not in hub.bot_seats()
                    assert not listed(pid)
                    other = (await robot.quick("ihaleli")).id
                    assert other != kept
                    await there(bus.written())
                    assert listed(pid)
                    await there(unmade(other, refuse=False))
                    assert other not in hub.tables and other not in hub.unclosed
                    assert not listed(pid)
                finally:
                    await robot.close()

            asyncio.run(main())
    finally:
        cache.kill()


def test_healthz_counts_the_tables_kept_aside_to_close(tmp_path: Path) -> None:
    """A table whose close was refused (kept aside, ``Hub.unclosed``) still counts against
    ``max_tables``: /healthz says so as ``closing``, beside ``tables`` (those in play), so
    that an operator sees why new tables are refused (``busy``) and that closes are
    waiting for the database. Before, /healthz had no ``closing``: the kept table showed
    nowhere (``tables`` 0 while ``max_tables`` 1 refused the next table)."""
    import json
    import urllib.request

    def healthz(srv: ServerThread) -> dict[str, Any]:
        with urllib.request.urlopen(srv.http + "/healthz", timeout=5) as r:
            body: dict[str, Any] = json.loads(r.read())
        return body

    with ServerThread(fast_config(tmp_path, max_tables=1)) as srv:
        hub = srv.hub

        async def make() -> str:
            host = Client(srv.url, name="Host")
            await host.connect()
            _, table = await host.create(bots=False)
            await host.close()
            return table.id

        table_id = asyncio.run(make())
        body = healthz(srv)
        assert (body["tables"], body.get("closing")) == (1, 0)

        async def unmake() -> None:
            _refuse_next_close(hub.storage)
            await hub.unmake(hub.tables[table_id])

        srv.call(unmake)
        body = healthz(srv)
        assert (body["tables"], body.get("closing")) == (0, 1)

        async def refused() -> str:
            host = Client(srv.url, name="Host")
            await host.connect()
            try:
                await host.create(bots=False)
            except ServerError as e:
                return e.code
            finally:
                await host.close()
            return "made"

        assert asyncio.run(refused()) == "busy"  # (max_tables counts the kept table)
        srv.call(hub.reap_once)
        body = healthz(srv)
        assert (body["tables"], body.get("closing")) == (0, 0)


def test_an_account_seated_at_a_kept_table_can_be_deleted(tmp_path: Path) -> None:
    """A player sits at a table whose close the database then refused (kept aside until the
    reaper closes it: it never starts, nobody can join or leave it, no chip is in it) and
    asks to delete their account: it is deleted, as if that table were closed already, and
    the connection may say hello again as a guest. The reaper then closes the table, whose
    stored ``sit`` no longer has the name. Before, the erasure was refused (``account_busy``,
    naming a table the player could neither see nor leave) until the reaper's pass."""
    pytest.importorskip("argon2")
    config = fast_config(tmp_path, quick_fill_seconds=600.0)
    with ServerThread(config) as srv:
        hub = srv.hub
        storage = hub.storage

        async def main() -> str:
            z = Client(srv.url, name="Zeynep Kaya")
            await z.connect()
            try:
                await z.register("zeynep", "uzun-parola-1")
                kept = (await z.quick("ihaleli")).id

                async def unmake() -> None:
                    _refuse_next_close(storage)
                    await hub.unmake(hub.tables[kept])

                assert srv.loop is not None  # (srv.call would block this loop's client)
                await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(unmake(), srv.loop))
                assert kept in hub.unclosed
                done = await z.delete_account("uzun-parola-1")
                assert done["type"] == "account_deleted"
                again = await z.hello()  # (a connection at a table may not say hello)
                assert again["type"] == "welcome"
            finally:
                await z.close()
            return kept

        kept = asyncio.run(main())
        srv.call(hub.reap_once)
        assert kept not in hub.unclosed

        async def stored() -> tuple[str, list[Any]]:
            row = await storage.table(kept)
            assert row is not None
            return row[0].status, [e.data for e in row[1] if e.kind == "sit"]

        status, sits = srv.call(stored)
        assert status == "closed"
        assert sits and "Zeynep" not in json.dumps(sits)


def _first_legal(view: dict[str, Any]) -> str:
    return str(view["legal_moves"][0])


def test_a_rematch_that_fell_through_is_closed_after_a_restart_not_offered(
    tmp_path: Path,
) -> None:
    """A staked rematch whose start finds a person short (their chips gone since the yes) is
    unmade; the database refuses its close at once, at the reaper's passes and on the way out
    (the server stops meanwhile). Started again, the server closes it (stored ``closed``)
    rather than load it as a room waiting to start with its two people seated. It knows to
    because the rematch's table is stored from its making as one to close if it is found
    not started (``tables.close_unstarted``, written with the table's row). Before, it came
    back as a waiting room, listed in its people's tables, for good."""
    pytest.importorskip("argon2")
    config = fast_config(
        tmp_path, daily_grant=2500, quick_fill_seconds=60.0, decision_seconds=600.0
    )
    with ServerThread(config) as srv:
        hub = srv.hub
        storage = hub.storage

        async def refused(tid: str, status: str) -> None:
            raise StorageError("the database is away (a test)")

        async def main() -> str:
            a, b = Client(srv.url, name="A"), Client(srv.url, name="B")
            for c, name in ((a, "ra1"), (b, "rb1")):
                await c.connect()
                await c.register(name, "uzun-bir-parola")
                assert (await c.wallet())["balance"] == 2500  # (the day's gift)
            try:
                _, st = await a.create(preset="standard", deals=1, stake=1000)
                await b.join(code=st.info["code"])
                await a.start(st.id)
                t = st.id
                await asyncio.gather(
                    a.play(t, _first_legal, timeout=120), b.play(t, _first_legal, timeout=120)
                )
                await a.until(lambda: a.tables[t].payout is not None, 30)
                # the rematch's table is made; its start then finds everyone short (as if the
                # stakes went into other pots meanwhile), and its close is refused
                real_new_table, real_balance = hub.new_table, hub.chips.balance
                made: list[str] = []

                async def new_table(**kw: Any) -> Any:
                    table = await real_new_table(**kw)
                    made.append(table.id)
                    storage.set_status = refused
                    return table

                async def balance(pid: str) -> int:
                    return 0 if made else int(await real_balance(pid))

                hub.new_table = new_table  # type: ignore[method-assign]
                hub.chips.balance = balance  # type: ignore[method-assign]
                await a.rematch(t)
                await b.rematch(t)
                await a.until(lambda: (a.tables[t].rematch or {}).get("short") is not None, 10)
                assert made and made[0] in hub.unclosed
                return made[0]
            finally:
                for c in (a, b):
                    await c.close()

        kept = asyncio.run(main())
    with ServerThread(replace(config, port=free_port())) as again:
        assert not again.hub.holds(kept)
        assert _status(again, kept) == "closed"


def test_a_rematch_found_not_started_is_closed_even_if_its_log_cannot_be_replayed(
    tmp_path: Path,
) -> None:
    """A rematch's table (made to close if not started) is found waiting at a restart, but its
    stored log cannot be replayed (an event the engine refuses, as a damaged log would have):
    it is closed all the same, by its status alone (it never started: no move, no chip in it).
    Before this, such a table was neither loaded nor closed: it stayed stored as waiting, its
    people seated, for good (and their accounts could not be deleted)."""
    config = fast_config(tmp_path, quick_fill_seconds=600.0)
    with ServerThread(config) as srv:
        kept = _rematch_with_a_broken_log(srv)
    with ServerThread(replace(config, port=free_port())) as again:
        assert not again.hub.holds(kept)
        assert _status(again, kept) == "closed"


def test_a_node_closes_a_rematch_found_not_started_whose_log_cannot_be_replayed(
    tmp_path: Path,
) -> None:
    """As above, in a cluster: n0 stops with such a table stored waiting (its log broken);
    n1's takeover scan closes it by its status, and keeps no claim on it (``owned``: it
    holds no such table). Before, the claim kept it as owned though nothing held it."""
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        config = fast_config(tmp_path, database=url, node="n0")
        with ServerThread(config) as srv:
            kept = _rematch_with_a_broken_log(srv)
        with ServerThread(replace(config, port=free_port(), node="n1")) as other:
            owner = other.hub.cluster
            assert owner is not None
            other.call(owner.scan)
            assert not other.hub.holds(kept)
            assert _stored(other, kept)[0] == "closed"
            assert kept not in owner.owned


@contextlib.contextmanager
def _two_nodes(tmp_path: Path) -> Iterator[tuple[ServerThread, ServerThread, str]]:
    """Two cluster nodes, n0 and n1, each a whole server in a thread of this process, on one
    fresh PostgreSQL database and a redis-server of the test's own (a long lease: no beat
    rewrites what the nodes keep in Redis, and no takeover scan runs, during the test)."""
    pytest.importorskip("argon2")
    pytest.importorskip("redis")
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    import shutil

    from cluster_harness import Redis

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (.ci/run installs Debian's package)")
    cache = Redis(tmp_path)
    cache.start()
    try:
        config = fast_config(tmp_path, redis=cache.url, lease_seconds=120.0)
        with pg as url:
            config = replace(config, database=url, quick_fill_seconds=600.0)
            second = replace(config, port=free_port(), node="n1")
            with ServerThread(replace(config, node="n0")) as a, ServerThread(second) as b:
                for srv in (a, b):  # (each knows the other is alive)
                    owner = srv.hub.cluster
                    assert owner is not None
                    srv.call(owner._look_alive)
                    assert owner.alive == ["n0", "n1"]
                yield a, b, url
    finally:
        cache.kill()


def _room_on_n0(a: ServerThread) -> tuple[str, str]:
    """A room of n0, made to close if not started (as a rematch's table): its id and code."""

    async def made() -> tuple[str, str]:
        table = await _new_room(a.hub, close_unstarted=True)
        return str(table.id), str(table.code)

    return tuple(a.call(made))  # type: ignore[return-value]


async def _seated_through_n1(b: ServerThread, code: str) -> Client:
    """An account connected to n1 only, seated at the room ``code`` of n0 (its join
    forwarded to n0 over Redis)."""
    z = Client(b.url, name="Zeynep Kaya")
    await z.connect()
    await z.register("zeynep", "uzun-parola-1")
    await z.join(code=code)
    return z


async def _on(srv: ServerThread, coro: Any) -> Any:
    """``coro`` run on ``srv``'s loop, awaited from the test's (``srv.call`` would block the
    test's loop, and its clients with it)."""
    assert srv.loop is not None
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, srv.loop))


async def _keep_aside(a: ServerThread, table_id: str) -> None:
    """On ``a`` (its loop): the close of ``table_id`` refused, so kept aside, and the list of
    tables kept aside written to Redis."""
    _refuse_next_close(a.hub.storage)
    await a.hub.unmake(a.hub.tables[table_id])
    assert a.hub.cluster is not None and a.hub.cluster.bus is not None
    await a.hub.cluster.bus.written()


def _waits_for_a_lock(watch: Any, conn: Any) -> bool:
    """Is ``conn``'s session waiting for a lock now (read through ``watch``, autocommit)?"""
    row = watch.execute(
        "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s",
        (conn.info.backend_pid,),
    ).fetchone()
    return row is not None and row[0] == "Lock"


def _seated_at_a_table_kept_aside(a: ServerThread, b: ServerThread) -> tuple[str, str]:
    """Zeynep seated through n1 at a room on n0, which n0 then keeps aside (its close
    refused); her connection closed. Returns the table's id and the room's code."""
    kept, code = _room_on_n0(a)

    async def seated() -> None:
        z = await _seated_through_n1(b, code)
        try:
            await _on(a, _keep_aside(a, kept))
        finally:
            await z.close()

    asyncio.run(seated())
    return kept, code


async def _delete(z: Client) -> str:
    """``delete_account`` through ``z``: ``account_deleted`` or the refusal's code."""
    try:
        return str((await z.delete_account("uzun-parola-1"))["type"])
    except ServerError as e:
        return e.code


def test_an_account_seated_at_a_table_kept_aside_on_another_node_is_deleted_at_once(
    tmp_path: Path,
) -> None:
    """A person connected to n1 sits only at a room of n0. While that room may still start,
    deleting the account through n1 is refused (``account_busy``). Then n0 keeps the room
    aside (its close refused by the database: it never starts): deleting through n1 works at
    once, and the connection may say hello again as a guest. Before, n1 knew only the tables
    it kept aside itself and refused (``account_busy``) until n0's reaper closed the room
    (30 s later, or as long as the database refused n0's close)."""
    with _two_nodes(tmp_path) as (a, b, url):
        kept, code = _room_on_n0(a)

        async def main() -> None:
            z = await _seated_through_n1(b, code)
            try:
                assert await _delete(z) == "account_busy"  # a room that may start
                await _on(a, _keep_aside(a, kept))
                assert kept in a.hub.unclosed
                assert await _delete(z) == "account_deleted"
                assert (await z.hello())["type"] == "welcome"
            finally:
                await z.close()

        asyncio.run(main())
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT status FROM tables WHERE id = %s", (kept,)).fetchone()
            gone = conn.execute("SELECT count(*) FROM players WHERE username = 'zeynep'")
            assert row is not None and row[0] == "waiting"  # (n0's reaper closes it later)
            assert gone.fetchone() == (0,)


def test_a_table_kept_aside_that_its_node_no_longer_holds_so_still_refuses(
    tmp_path: Path,
) -> None:
    """n0 keeps aside a room where a person connected to n1 sits, and says so in Redis; then
    its owner row changes under it: let go (no owner, as when a node stops) or claimed by
    another node (a higher epoch), or under n0's name at a higher epoch (a process started
    again under that name), after which the room may be offered and start. Deleting the
    account through n1, which reads n0's list, and through n0 itself, is refused while the
    row does not name n0 at the epoch n0 kept the room at; once it does again, it works.
    Before, n0 took its own list on trust (and a stale one was never checked)."""
    import psycopg

    with _two_nodes(tmp_path) as (a, b, url):
        kept, code = _room_on_n0(a)

        def owner_row(sql: str) -> None:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(sql, (kept,))

        async def main() -> None:
            z = await _seated_through_n1(b, code)
            other = Client(a.url, name="Zeynep Kaya")  # (the same account, through n0)
            try:
                await _on(a, _keep_aside(a, kept))
                assert a.hub.cluster is not None and a.hub.cluster.owned[kept] == 1
                await other.connect()
                await other.login("zeynep", "uzun-parola-1")
                owner_row("UPDATE table_owners SET owner = NULL WHERE table_id = %s")
                assert await _delete(z) == "account_busy"
                owner_row("UPDATE table_owners SET owner = 'n9', epoch = 2 WHERE table_id = %s")
                assert await _delete(z) == "account_busy"
                assert await _delete(other) == "account_busy"  # (n0's own, too)
                # n0's name at a later epoch: a process started again under that name
                # claimed the room (and may offer it), not the one that kept it aside
                owner_row("UPDATE table_owners SET owner = 'n0', epoch = 2 WHERE table_id = %s")
                assert await _delete(z) == "account_busy"
                assert await _delete(other) == "account_busy"
                owner_row("UPDATE table_owners SET owner = 'n0', epoch = 1 WHERE table_id = %s")
                assert await _delete(z) == "account_deleted"
            finally:
                await z.close()
                await other.close()

        asyncio.run(main())


def test_the_erasure_holds_a_kept_table_s_owner_row_until_it_is_committed(
    tmp_path: Path,
) -> None:
    """A seat at a table another node keeps aside is left out only if the table cannot be
    claimed, and so started, before the erasure is committed: the erasure reads the owner
    row with a shared lock, which a claim (an update of that row) waits for. Here the
    erasure's transaction is left open after the job: a claim from another connection
    cannot take the row (``lock_timeout``: it is refused instead of waiting), and takes it
    once the erasure is rolled back. Without the lock the claim went through at once, and
    the room could have been offered while the erasure that left its seat out was not yet
    committed."""
    import psycopg

    from batak.server.erase import erase_job

    with _two_nodes(tmp_path) as (a, b, url):
        kept, _ = _seated_at_a_table_kept_aside(a, b)
        claim = "UPDATE table_owners SET owner = 'n1', epoch = epoch + 1 WHERE table_id = %s"
        with psycopg.connect(url) as erasing, psycopg.connect(url) as claiming:
            pid = erasing.execute("SELECT id FROM players WHERE username = 'zeynep'").fetchone()
            assert pid is not None
            job = erase_job(a.hub.storage.q, str(pid[0]), kept_at={kept: ("n0", 1)})
            done = job(erasing.cursor())
            assert done.erased and done.tables == []  # (its seat left out: kept aside)
            claiming.execute("SET lock_timeout = '200ms'")
            with pytest.raises(psycopg.errors.LockNotAvailable):
                claiming.execute(claim, (kept,))
            claiming.rollback()
            erasing.rollback()
            assert claiming.execute(claim, (kept,)).rowcount == 1
            claiming.rollback()


async def _seated_at_two_kept_tables(url: str) -> str:
    """A fresh cluster database (the server's tables and the cluster's) with one account
    seated at two waiting rooms, ``ta`` and ``tb``, both owned by n0 at epoch 1 (as two
    tables n0 keeps aside to close). ``tb``'s owner row is written first, so that it comes
    first on disk (a scan of the table meets it before ``ta``'s). Returns the account's id."""
    import psycopg

    from batak.server.cluster.owner import SCHEMA
    from batak.server.storage import PlayerRow, TableRow, open_storage

    storage = open_storage(url)
    await storage.open()
    pid = "pa11ce000001"
    try:
        await storage.create_player(PlayerRow(pid, "Zeynep", "tok-z", 0.0, "zeynep", "h1"))
        for tid, code in (("tb", "BBBBBB"), ("ta", "AAAAAA")):
            row = TableRow(tid, code, "private", None, {}, 1, 0, {}, None, "waiting", 0.0)
            sit = {"seat": 0, "player": pid, "name": "Zeynep"}
            await storage.create_table(row, [EventRow(1, "sit", sit, 0.0)])
    finally:
        await storage.close()
    with psycopg.connect(url, autocommit=True) as conn:
        for stmt in SCHEMA:
            conn.execute(stmt)
        for tid in ("tb", "ta"):
            conn.execute("INSERT INTO table_owners VALUES (%s, 'n0', 1)", (tid,))
    return pid


def test_an_erasure_and_a_release_of_the_same_kept_tables_never_deadlock(tmp_path: Path) -> None:
    """An account is erased (``delete_account`` through another node) while n0 lets go of the
    two tables it kept aside where the account sits (a batched release: n0 stopping, or
    closing them). Interleaved in the order that deadlocked, step by step on three real
    connections: a write of n0 at ``ta`` holds its owner row's shared lock (the fencing
    check); n0's release starts; then the erasure reads both rows ``FOR SHARE`` (``ta``'s
    lock is shared, so it does not wait for it). Before, the release locked ``tb``'s row
    first (its batch's order, or its update's scan) and waited for ``ta``'s, while the
    erasure held ``ta``'s and waited for ``tb``'s: PostgreSQL ended one of them after
    ``deadlock_timeout`` (``DeadlockDetected``; the erasure's person saw ``storage``).
    Now both lock the owner rows in the order of their ids, first: the erasure goes
    through (both rows still n0's: both seats left out), and the release after it."""
    import threading

    import psycopg

    from batak.server.cluster.owner import release_job
    from batak.server.erase import erase_job

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        pid = asyncio.run(_seated_at_two_kept_tables(url))
        with (
            psycopg.connect(url) as writing,
            psycopg.connect(url) as releasing,
            psycopg.connect(url) as erasing,
            psycopg.connect(url, autocommit=True) as watch,
        ):
            failed: dict[str, BaseException] = {}
            erased: list[Any] = []

            def run(name: str, conn: Any, job: Any) -> threading.Thread:
                def body() -> None:
                    try:
                        out = job(conn.cursor())
                        conn.commit()
                        if name == "erase":
                            erased.append(out)
                    except BaseException as e:
                        failed[name] = e
                        conn.rollback()

                thread = threading.Thread(target=body, daemon=True)
                thread.start()
                return thread

            def until(what: Any) -> None:
                for _ in range(1000):
                    if what():
                        return
                    threading.Event().wait(0.01)
                raise AssertionError("the step did not come")

            writing.execute("SELECT 1 FROM table_owners WHERE table_id = 'ta' FOR SHARE")
            # (the tables in the order n0 let go of them: tb first)
            release = run("release", releasing, release_job("n0", {"tb": 1, "ta": 1}))
            until(lambda: _waits_for_a_lock(watch, releasing))  # for ta's row, behind the write
            kept = {"tb": ("n0", 1), "ta": ("n0", 1)}
            q = lambda s: s.replace("?", "%s")  # noqa: E731
            erase = run("erase", erasing, erase_job(q, pid, kept_at=kept))
            until(lambda: _waits_for_a_lock(watch, erasing) or not erase.is_alive())
            writing.rollback()
            release.join(30)
            erase.join(30)
            assert not release.is_alive() and not erase.is_alive()
            assert failed == {}
            assert erased[0].erased and erased[0].tables == []
            rows = watch.execute("SELECT table_id, owner FROM table_owners ORDER BY table_id")
            assert rows.fetchall() == [("ta", None), ("tb", None)]


def test_batak_admin_erase_beside_a_cluster_reads_the_tables_kept_aside_from_redis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak admin erase`` run beside a cluster, for a person whose only seat is at a room
    n0 keeps aside to close. Without ``--redis`` it knows no node's list: refused, as
    before, and the operator is told that ``--redis`` would read them. With a Redis out of
    reach: said, and refused the same way. With the cluster's Redis: n0's list is read, and
    the seat is left out only while the room's owner row still names n0 at the epoch it
    kept the room at (read ``FOR SHARE`` in the erasure's transaction, as a node's
    ``delete_account`` does): at a later epoch (claimed since) refused, then erased. Before,
    there was no ``--redis``, and the account could be erased only once n0 closed the room."""
    import psycopg

    from batak.cli import main

    with _two_nodes(tmp_path) as (a, b, url):
        kept, code = _seated_at_a_table_kept_aside(a, b)

        def epoch(n: int) -> None:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("UPDATE table_owners SET epoch = %s WHERE table_id = %s", (n, kept))

        def erase(*more: str, lang: str = "en") -> tuple[int, str, str]:
            got = main(
                ["admin", "erase", "zeynep", "--yes", "--database", url, "--lang", lang, *more]
            )
            said = capsys.readouterr()
            return got, said.out, said.err

        got, out, err = erase()
        assert got == 1
        assert f"Not deleted: the account sits at tables that are not finished ({code})" in err
        assert "give the processes' Redis address with --redis URL." in err
        got, out, err = erase(lang="tr")
        assert got == 1 and "süreçlerin Redis adresini --redis URL ile ver." in err
        down = f"redis://127.0.0.1:{free_port()}/0"
        got, out, err = erase("--redis", down)
        assert got == 1
        assert f"Redis cannot be read at {down} (" in err and "Not deleted" in err
        redis = a.hub.config.redis
        assert redis is not None
        listed = "by the cluster's running processes (n0, n1), as Redis lists them: 1."
        epoch(2)  # (as if another process had claimed the room since n0 kept it aside)
        got, out, err = erase("--redis", redis)
        assert got == 1 and listed in out and "Not deleted" in err
        epoch(1)
        # (--redis before the job's name too, as a batak admin option)
        got = main(["admin", "--redis", redis, "erase", "zeynep", "--yes", "--database", url])
        out = capsys.readouterr().out
        assert got == 0
        assert listed in out and "zeynep is deleted" in out
        with psycopg.connect(url, autocommit=True) as conn:
            left = conn.execute("SELECT count(*) FROM players WHERE username = 'zeynep'")
            assert left.fetchone() == (0,)


def test_a_node_lets_go_of_tables_put_away_together_in_one_transaction_of_its_own(
    tmp_path: Path,
) -> None:
    """The tables a node puts away at one moment (:meth:`Cluster.released`: closed, finished
    and gone from memory) are let go of in ``table_owners`` by one job, run alone (a
    transaction that takes no other lock, :class:`~batak.server.storage._Alone`), that locks
    their owner rows in the order of their ids (:func:`release_job`, whose answer is the ids
    let go of, in that order). Before, each table was a job of its own, batched by the
    storage worker in the order the tables were put away and beside any other write queued:
    the order that deadlocked with an account's erasure (see the test above)."""
    from batak.server.storage import _Alone

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        config = fast_config(tmp_path, database=url, node="n0", quick_fill_seconds=600.0)
        with ServerThread(config) as srv:
            cluster = srv.hub.cluster
            assert cluster is not None

            async def made() -> list[str]:
                return [str((await _new_room(srv.hub)).id) for _ in range(3)]

            ids = srv.call(made)
            jobs: list[tuple[Any, Any]] = []
            real = srv.hub.storage._call

            async def spy(fn: Any) -> Any:
                out = await real(fn)
                jobs.append((fn, out))
                return out

            async def put_away() -> None:
                srv.hub.storage._call = spy
                for tid in reversed(ids):  # (put away in the other order)
                    cluster.released(srv.hub.tables[tid])

            import psycopg

            srv.call(put_away)
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    for _ in range(500):  # until the rows are let go of
                        rows = conn.execute(
                            "SELECT owner FROM table_owners WHERE table_id = ANY(%s)", (ids,)
                        ).fetchall()
                        if rows == [(None,)] * 3:
                            break
                        time.sleep(0.01)
                    assert rows == [(None,)] * 3
                for _ in range(500):  # (and the job's answer handed back)
                    if jobs:
                        break
                    time.sleep(0.01)
            finally:
                srv.hub.storage._call = real
            assert len(jobs) == 1
            job, out = jobs[0]
            assert isinstance(job, _Alone) and out == sorted(ids)


def test_two_erasures_queued_together_and_a_release_never_deadlock(tmp_path: Path) -> None:
    """Two accounts are erased through one node at one moment (two ``delete_account``: the
    storage worker would batch them in one transaction), each seated only at a room n0 keeps
    aside, ``tb`` and ``ta``, while n0 lets go of both. Step by step on the real storage
    worker and real connections: another erasure holds ``tb``'s owner row ``FOR SHARE``; n0's
    release locks ``ta``'s row and waits for ``tb``'s; the worker then runs the erasure seated
    at ``tb`` (its shared lock is granted beside the other), then the one at ``ta``, which
    waits for the release. Each erasure locks its own rows in order, but two in one
    transaction lock ``tb`` then ``ta``: once the other erasure ends, the release waits for
    the batch and the batch for the release, and PostgreSQL ended one of them (a deadlock:
    a ``storage`` error for a person, or a release lost). An erasure now runs in a
    transaction of its own: no failure; the one at ``tb`` erased, the one at ``ta`` refused
    (the release went first: that room is nobody's now, so it counts)."""
    import threading

    import psycopg

    from batak.server.cluster.owner import SCHEMA, release_job
    from batak.server.erase import erase_job
    from batak.server.storage import PlayerRow, TableRow, open_storage

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    at_ta, at_tb = "pa11ce00000a", "pa11ce00000b"
    with pg as url:
        storage = open_storage(url)
        failed: dict[str, BaseException] = {}
        done: dict[str, Any] = {}
        go = threading.Event()
        with (
            psycopg.connect(url) as other,
            psycopg.connect(url) as releasing,
            psycopg.connect(url, autocommit=True) as watch,
        ):

            def waiting() -> int:
                """How many sessions wait for a lock now."""
                row = watch.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                ).fetchone()
                return int(row[0]) if row else 0

            def until(what: Any) -> None:
                for _ in range(1000):
                    if what():
                        return
                    threading.Event().wait(0.01)
                raise AssertionError("the step did not come")

            def release() -> None:
                try:
                    release_job("n0", {"ta": 1, "tb": 1})(releasing.cursor())
                    releasing.commit()
                except BaseException as e:
                    failed["release"] = e
                    releasing.rollback()

            async def main_() -> None:
                await storage.open()
                try:
                    for pid, tid, code in ((at_ta, "ta", "AAAAAA"), (at_tb, "tb", "BBBBBB")):
                        name = f"u{tid}"
                        await storage.create_player(PlayerRow(pid, name, f"tok-{tid}", 0.0, name))
                        row = TableRow(
                            tid, code, "private", None, {}, 1, 0, {}, None, "waiting", 0.0
                        )
                        sit = {"seat": 0, "player": pid, "name": name}
                        await storage.create_table(row, [EventRow(1, "sit", sit, 0.0)])
                    with psycopg.connect(url, autocommit=True) as conn:
                        for stmt in SCHEMA:
                            conn.execute(stmt)
                        for tid in ("ta", "tb"):
                            conn.execute("INSERT INTO table_owners VALUES (%s, 'n0', 1)", (tid,))
                    other.execute("SELECT 1 FROM table_owners WHERE table_id = 'tb' FOR SHARE")
                    thread = threading.Thread(target=release, daemon=True)
                    thread.start()
                    until(lambda: waiting() == 1)  # the release: ta's row held, waits for tb's
                    # the worker held up, so that the two erasures queue together behind it
                    held = asyncio.ensure_future(storage.run(lambda cur: go.wait(30)))
                    await asyncio.sleep(0.1)
                    erasures = {
                        pid: asyncio.ensure_future(
                            storage.run(erase_job(storage.q, pid, kept_at={tid: ("n0", 1)}))
                        )
                        for pid, tid in ((at_tb, "tb"), (at_ta, "ta"))
                    }
                    await asyncio.sleep(0.1)
                    go.set()
                    await held
                    await asyncio.to_thread(until, lambda: waiting() == 2)  # (the one at ta)
                    other.rollback()  # the other erasure ends
                    for pid, fut in erasures.items():
                        try:
                            done[pid] = await fut
                        except BaseException as e:
                            failed[pid] = e
                    await asyncio.to_thread(thread.join, 30)
                    assert not thread.is_alive()
                finally:
                    go.set()
                    await storage.close()

            asyncio.run(main_())
            assert failed == {}
            assert done[at_tb].erased and done[at_tb].tables == []
            assert not done[at_ta].erased and done[at_ta].tables == ["AAAAAA"]
            rows = watch.execute("SELECT table_id, owner FROM table_owners ORDER BY table_id")
            assert rows.fetchall() == [("ta", None), ("tb", None)]


def test_an_erasure_and_the_end_of_the_account_s_sessions_never_deadlock(tmp_path: Path) -> None:
    """An account is erased (through one process, or ``batak admin erase``) while another
    process ends its sessions (``Storage.end_sessions``: a sign-out everywhere, a new password,
    a ban), which writes the account's row (its last ``seen``) and then deletes the sessions.
    Step by step on real connections: the other process has written the account's row; the
    erasure starts; then the other deletes the sessions. Before, the erasure deleted the
    sessions first and then waited for the account's row, while the other held that row and
    waited for the sessions: PostgreSQL ended one of them (a deadlock, the person's
    ``storage``). Now the erasure locks the account's row first, as the other does: it
    waits, and goes through after the other's commit."""
    import threading

    import psycopg

    from batak.server.erase import erase_job
    from batak.server.storage import PlayerRow, open_storage

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    pid = "pa11ce000001"
    with pg as url:

        async def made() -> None:
            storage = open_storage(url)
            await storage.open()
            try:
                await storage.create_player(PlayerRow(pid, "Zeynep", "tok-z", 0.0, "zeynep", "h"))
            finally:
                await storage.close()

        asyncio.run(made())
        failed: dict[str, BaseException] = {}
        erased: list[Any] = []
        with (
            psycopg.connect(url) as ending,
            psycopg.connect(url) as erasing,
            psycopg.connect(url, autocommit=True) as watch,
        ):

            def erase() -> None:
                try:
                    out = erase_job(lambda s: s.replace("?", "%s"), pid)(erasing.cursor())
                    erasing.commit()
                    erased.append(out)
                except BaseException as e:
                    failed["erase"] = e
                    erasing.rollback()

            # (end_sessions' two writes, in its order)
            ending.execute("UPDATE players SET seen = 1.0 WHERE id = %s", (pid,))
            thread = threading.Thread(target=erase, daemon=True)
            thread.start()
            for _ in range(1000):
                if _waits_for_a_lock(watch, erasing):
                    break
                threading.Event().wait(0.01)
            assert _waits_for_a_lock(watch, erasing)
            try:
                ending.execute("DELETE FROM sessions WHERE player_id = %s", (pid,))
                ending.commit()
            except BaseException as e:
                failed["end_sessions"] = e
                ending.rollback()
            thread.join(30)
            assert not thread.is_alive()
            assert failed == {}
            assert erased[0].erased


def _played_together(url: str, tables: list[str], heap: list[tuple[str, str, int]]) -> None:
    """Ayşe (``PA``) and Zeynep (``PZ``), who played the finished matches ``tables`` (in the
    order written) and took part in the two tournaments ``ka`` and ``kb`` (Ayşe's), all over.
    ``heap``: their ``results`` rows (table, player, seat), in the order written; a seat with
    no result is a computer's."""
    import psycopg

    from batak.server.storage import PlayerRow, open_storage

    async def made() -> None:
        storage = open_storage(url)
        await storage.open()
        try:
            await storage.create_player(PlayerRow(PA, "Ayşe", "tok-a", 0.0, "ayse", "h"))
            await storage.create_player(PlayerRow(PZ, "Zeynep", "tok-z", 0.0, "zeynep", "h"))
        finally:
            await storage.close()

    asyncio.run(made())
    names = {PA: "Ayşe", PZ: "Zeynep"}
    with psycopg.connect(url) as conn:
        for tid in tables:
            seats = [f"Bot {i}" for i in range(4)]
            for t, pid, seat in heap:
                if t == tid:
                    seats[seat] = names[pid]
            conn.execute(
                "INSERT INTO tables (id, code, kind, rules, seed, dealer, options, status,"
                " created, finished, record) VALUES (%s, %s, 'room', '{}', 's', 0, '{}', 'over',"
                " 0, 1, %s)",
                (tid, tid.upper() * 3, json.dumps({"meta": {"players": seats}})),
            )
        for tid, pid, seat in heap:
            conn.execute(
                "INSERT INTO results (table_id, player_id, seat, won, contracts, made, deals,"
                " score, finished) VALUES (%s, %s, %s, 0, 0, 0, 1, 0, 1)",
                (tid, pid, seat),
            )
        for kid in ("ka", "kb"):
            doc = {
                "id": kid,
                "name": kid,
                "creator": PA,
                "creator_name": "Ayşe",
                "players": [{"id": PA, "name": "Ayşe"}, {"id": PZ, "name": "Zeynep"}],
            }
            conn.execute(
                "INSERT INTO tournaments (id, status, start_at, created, data)"
                " VALUES (%s, 'over', 0, 0, %s)",
                (kid, json.dumps(doc)),
            )


PA = "pa11ce00000a"
PZ = "pa11ce00000b"


def _no_names_left(url: str) -> None:
    import psycopg

    with psycopg.connect(url) as conn:
        for (text,) in conn.execute("SELECT record FROM tables ORDER BY id").fetchall():
            assert not {"Ayşe", "Zeynep"} & set(json.loads(text)["meta"]["players"])
        for (text,) in conn.execute("SELECT data FROM tournaments ORDER BY id").fetchall():
            doc = json.loads(text)
            assert doc["creator_name"] == ""
            assert [p["name"] for p in doc["players"]] == ["", ""]


@pytest.mark.parametrize("matches", [True, False], ids=["matches-and-tournaments", "tournaments"])
def test_two_erasures_of_people_who_played_together_never_put_a_name_back(
    tmp_path: Path, matches: bool
) -> None:
    """Ayşe and Zeynep played the same matches and tournaments; both erase their accounts at
    the same moment (two processes). Step by step on real connections: Ayşe's erasure has
    done its work, not yet committed; Zeynep's starts and waits; Ayşe's commits. Before, the
    scrubs read the records and documents without a lock: Zeynep's had read them with Ayşe's
    name still in, and wrote that back after Ayşe's commit (her name returned to every shared
    record and document). Now each scrub, having read and fixed its rows unlocked, locks them
    in id order and checks each against what it read (``erase._scrubbed``): Zeynep's waits
    at that lock, then finds the rows changed, reads again what Ayşe's wrote and fixes that.
    (Without shared matches, the tournaments' scrub is where Zeynep's waits.)"""
    import threading

    import psycopg

    from batak.server.erase import erase_job

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    q = lambda s: s.replace("?", "%s")  # noqa: E731
    with pg as url:
        shared = [("ta", PA, 0), ("ta", PZ, 1), ("tb", PA, 0), ("tb", PZ, 1)]
        _played_together(url, ["ta", "tb"] if matches else [], shared if matches else [])
        failed: dict[str, BaseException] = {}
        with (
            psycopg.connect(url) as first,
            psycopg.connect(url) as second,
            psycopg.connect(url, autocommit=True) as watch,
        ):
            assert erase_job(q, PA)(first.cursor()).erased

            def erase() -> None:
                try:
                    assert erase_job(q, PZ)(second.cursor()).erased
                    second.commit()
                except BaseException as e:
                    failed["second"] = e
                    second.rollback()

            thread = threading.Thread(target=erase, daemon=True)
            thread.start()
            for _ in range(1000):
                if _waits_for_a_lock(watch, second) or not thread.is_alive():
                    break
                threading.Event().wait(0.01)
            assert _waits_for_a_lock(watch, second)
            first.commit()
            thread.join(30)
            assert not thread.is_alive()
            assert failed == {}
        _no_names_left(url)


def test_two_erasures_scrubbing_the_same_records_in_other_orders_never_deadlock(
    tmp_path: Path,
) -> None:
    """Ayşe and Zeynep played the matches ``ta`` and ``tb``; Ayşe also ``t0`` and ``t1``
    (written ``t0, ta, t1, tb``). Both erase their accounts at the same moment. Step by step
    on real connections, with two other transactions that each hold one of Ayşe's own rows
    (``t0``, ``t1``, any write of them) and a third that writes ``ta`` and commits (which
    moves its row after ``tb`` in the table's file): Ayşe's erasure has read her matches
    (``t0, ta, t1, tb``) and waits for ``t0``; ``ta`` is written; ``t0`` is let go, and
    Ayşe's waits for ``t1``; Zeynep's starts. Before, each erasure updated the records in the
    order of its read (the file's): Zeynep's read ``tb, ta``, took ``tb`` and waited for
    ``ta``, which Ayşe's held; once ``t1`` was let go Ayşe's waited for ``tb`` (a deadlock:
    PostgreSQL ended one of them, that person's ``storage``). Now both lock their rows in id
    order before writing any (``erase._scrubbed``): they go through one after the other."""
    import threading

    import psycopg

    from batak.server.erase import erase_job

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    q = lambda s: s.replace("?", "%s")  # noqa: E731
    with pg as url:
        _played_together(
            url,
            ["t0", "ta", "t1", "tb"],
            [
                ("t0", PA, 0),
                ("ta", PA, 0),
                ("ta", PZ, 1),
                ("t1", PA, 0),
                ("tb", PA, 0),
                ("tb", PZ, 1),
            ],
        )
        failed: dict[str, BaseException] = {}
        with (
            psycopg.connect(url) as h0,
            psycopg.connect(url) as h1,
            psycopg.connect(url) as first,
            psycopg.connect(url) as second,
            psycopg.connect(url, autocommit=True) as watch,
        ):

            def erase(conn: Any, pid: str) -> None:
                try:
                    assert erase_job(q, pid)(conn.cursor()).erased
                    conn.commit()
                except BaseException as e:
                    failed[pid] = e
                    conn.rollback()

            def until(cond: Any) -> None:
                for _ in range(1000):
                    if cond():
                        return
                    threading.Event().wait(0.01)
                raise AssertionError("not reached")

            def waits_for(conn: Any, other: Any) -> bool:
                row = watch.execute(
                    "SELECT pg_blocking_pids(%s)", (conn.info.backend_pid,)
                ).fetchone()
                return row is not None and list(row[0]) == [other.info.backend_pid]

            h0.execute("UPDATE tables SET finished = 2 WHERE id = 't0'")
            h1.execute("UPDATE tables SET finished = 2 WHERE id = 't1'")
            ayse = threading.Thread(target=erase, args=(first, PA), daemon=True)
            ayse.start()
            until(lambda: waits_for(first, h0))
            with psycopg.connect(url) as moving:
                moving.execute("UPDATE tables SET finished = 3 WHERE id = 'ta'")
            h0.rollback()
            until(lambda: waits_for(first, h1))
            zeynep = threading.Thread(target=erase, args=(second, PZ), daemon=True)
            zeynep.start()
            until(lambda: _waits_for_a_lock(watch, second) or not zeynep.is_alive())
            h1.rollback()
            ayse.join(30)
            zeynep.join(30)
            assert not ayse.is_alive() and not zeynep.is_alive()
            assert failed == {}
        _no_names_left(url)
