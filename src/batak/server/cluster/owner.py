"""Table ownership, leases, fencing and takeover (see :mod:`batak.server.cluster`).

PostgreSQL holds the truth:

* ``cluster_nodes`` — one row per process name: its lease (``lease_until``, on PostgreSQL's
  clock), its state (``alive``, or ``gone`` after a graceful stop), the address clients may be
  steered to.
* ``table_owners`` — one row per table: the owning node (NULL: released) and ``epoch``, a number
  that grows by one at every change of owner. The owner writes with the epoch it claimed; the
  check (``SELECT … FOR SHARE`` of the owner row, in the same transaction as the events) refuses
  a write once another process has claimed the table, whatever the old owner believes (a process
  paused past its lease, cut off, or slow). Claiming takes the row lock, so a claim and a write
  are ordered: a write that passed its check commits before the claim, and the new owner reads
  the log after its claim committed, so it sees every acknowledged move.

A process renews its lease every third of the lease time. It acknowledges nothing once its
local view of the lease (measured from before the last successful renewal, on the monotonic
clock) has run out (its writes are refused, its tables kept), and when a renewal finds that the
lease had lapsed, it drops the tables another process claimed meanwhile and carries on with the
others (nobody may claim them while its lease holds). If it cannot renew for a whole lease past
the end of its own, it drops every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..storage import Fenced, StorageError, _Alone

if TYPE_CHECKING:
    from ..conn import Conn, Player
    from ..hub import Hub
    from ..table import Table
    from .bus import Bus

__all__ = ["ALIVE", "Cluster", "release_job", "rendezvous"]

log = logging.getLogger("batak.server.cluster")

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS cluster_nodes (
        id TEXT PRIMARY KEY,
        url TEXT,
        state TEXT NOT NULL,
        lease_until TIMESTAMPTZ NOT NULL,
        started TIMESTAMPTZ NOT NULL DEFAULT now())""",
    """CREATE TABLE IF NOT EXISTS table_owners (
        table_id TEXT PRIMARY KEY,
        owner TEXT,
        epoch BIGINT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS table_owners_owner ON table_owners (owner)",
    # the process that runs each tournament (its schedule, its rounds), fenced as tables are
    """CREATE TABLE IF NOT EXISTS tourney_owners (
        tournament_id TEXT PRIMARY KEY,
        owner TEXT,
        epoch BIGINT NOT NULL)""",
]

#: The condition under which a node may claim a table: nobody owns it, it is its own, or its
#: owner's lease ran out (or the owner stopped).
CLAIMABLE = (
    "(o.owner IS NULL OR o.owner = %(me)s OR NOT EXISTS (SELECT 1 FROM cluster_nodes n"
    " WHERE n.id = o.owner AND n.state = 'alive' AND n.lease_until > now()))"
)

#: The live nodes (their lease not run out, not stopped), by name.
ALIVE = "SELECT id FROM cluster_nodes WHERE state = 'alive' AND lease_until > now() ORDER BY id"

#: Messages about one table: forwarded to the table's owner when it is another process.
TABLE_TYPES = frozenset(
    {
        *("join", "room", "sync", "start", "move", "hint", "chat", "react", "leave", "adjourn"),
        *("invite", "invitable"),
    }
)

#: Messages about one tournament: forwarded to the process that runs it.
TOURNEY_TYPES = frozenset({"tourney", "tourney_join", "tourney_leave", "tourney_start"})


def counted(n: int, word: str) -> str:
    """``n`` and ``word`` for the log (in English): plural but for one.

    >>> counted(1, "table"), counted(0, "table"), counted(12, "event")
    ('1 table', '0 tables', '12 events')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rendezvous(key: str, nodes: Iterable[str]) -> str | None:
    """The node that ``key`` belongs to among ``nodes`` (highest random weight hashing: a
    stable choice that moves only the keys of a node that leaves).

    >>> rendezvous("t1", ["a", "b", "c"]) == rendezvous("t1", ["c", "a", "b"])
    True
    >>> rendezvous("t1", []) is None
    True
    """
    best: tuple[bytes, str] | None = None
    for node in nodes:
        weight = hashlib.sha256(f"{key}\0{node}".encode()).digest()
        if best is None or weight > best[0]:
            best = (weight, node)
    return best[1] if best else None


def release_job(node: str, tables: Mapping[str, int | None]) -> Callable[[Any], list[str]]:
    """A storage job that lets go of ``tables`` (id to the epoch ``node`` holds each at; None:
    whichever) in ``table_owners``: those rows that still name ``node`` (and that epoch) are
    left without an owner. Returns the ids let go of.

    Its rows are locked first, all of them, in the order of ``table_id`` (``SELECT … ORDER
    BY table_id FOR NO KEY UPDATE``, the lock the update takes), and the update then waits
    for nothing. An account's erasure reads the owner rows of tables kept aside ``FOR SHARE``
    in that same order, before it locks anything else (:func:`batak.server.erase._still_kept`).
    Run alone (:class:`~batak.server.storage._Alone`: a transaction that holds no other lock),
    the two cannot wait for each other. Before, the rows were locked in the order of the
    update's scan (the rows' places on disk) or of the batch's jobs, one table at a time: an
    erasure holding table A's row and waiting for B's, a release holding B's and waiting for
    A's, and PostgreSQL ended one of them (a deadlock) after ``deadlock_timeout``."""
    ids = sorted(tables)

    def job(cur: Any) -> list[str]:
        if not ids:
            return []
        cur.execute(
            "SELECT table_id, epoch FROM table_owners WHERE table_id = ANY(%s) AND owner = %s"
            " ORDER BY table_id FOR NO KEY UPDATE",
            (ids, node),
        )
        mine = [str(t) for t, e in cur.fetchall() if tables[str(t)] in (None, int(e))]
        if mine:
            cur.execute(
                "UPDATE table_owners SET owner = NULL WHERE table_id = ANY(%s) AND owner = %s",
                (mine, node),
            )
        return mine

    return job


class Cluster:
    """One process's part in the cluster (see the module's text)."""

    def __init__(self, hub: Hub) -> None:
        cfg = hub.config
        assert cfg.node is not None
        if hub.storage.kind != "postgresql":
            raise ValueError("a cluster node (--node) needs --database postgresql://…")
        self.hub = hub
        self.node: str = cfg.node
        self.lease = float(cfg.lease_seconds)
        self.margin = min(1.0, self.lease / 4)
        #: the tables this process owns, with the epoch it claimed (read by the storage thread)
        self.owned: dict[str, int] = {}
        #: the tournaments this process runs, with the epoch it claimed (as ``owned``)
        self.tourneys: dict[str, int] = {}
        self.valid_until = 0.0  # monotonic: acknowledge nothing after this
        self.alive: list[str] = []  # live nodes at the last look, sorted
        self.stopping = False
        self.takeovers = 0
        # three connections of its own, each opened again when PostgreSQL ended it (see _db)
        self._ctl: Any = None  # leases
        self._look: Any = None  # owner look-ups and claims for routing
        self._scan: Any = None  # the takeover scan and its claims
        self._reopening = {name: asyncio.Lock() for name in ("_ctl", "_look", "_scan")}
        self.reopened = 0  # statements run again on a connection opened again (_db)
        self._scan_task: asyncio.Task[None] | None = None
        # A process paused in the middle of a transaction (SIGSTOP, a stalled VM) holds its
        # row locks, which would stop every claim of its tables: PostgreSQL ends such a session
        # after half a lease (2 s at least), and a claim waits for a lock at most that long.
        self.wait_ms = int(max(2000.0, self.lease * 500))
        hub.storage.session = [f"SET idle_in_transaction_session_timeout = {self.wait_ms}"]
        self._beat_task: asyncio.Task[None] | None = None
        self._claim_lock = asyncio.Lock()
        self._scan_now = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: tables put away here (:meth:`released`) not yet let go of in ``table_owners``, with
        #: the epoch each was held at: let go of together by one job at a time
        self._releasing: dict[str, int] = {}
        self._release_running = False
        self.bus: Bus | None = None
        if cfg.redis:
            from .bus import Bus

            self.bus = Bus(self, cfg.redis)

    # ------------------------------------------------------------------ life
    async def _connect(self, lock_wait: bool = False) -> Any:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            self.hub.storage.url, autocommit=True, connect_timeout=max(2, int(self.lease))
        )
        if lock_wait:
            await conn.execute(f"SET lock_timeout = {self.wait_ms}")
        return conn

    async def _db(self, which: str, sql: str, params: Any = None) -> Any:
        """Run one statement on this node's connection ``which`` (``_ctl``, ``_look`` or
        ``_scan``) and return its cursor. A connection that PostgreSQL ended (the database
        restarted, a timeout or a proxy closed the session) is opened again and the statement
        run once more on the new one (counted in ``reopened``). So a statement may run twice,
        and every one run here allows it: a read, an ``INSERT … ON CONFLICT DO NOTHING``, a
        claim (one that did commit before the connection broke finds the table ours, and
        raises the epoch once more); a renewal run twice cannot tell whether the lease had
        lapsed, so :meth:`_renew` then takes it as lapsed."""
        conn = getattr(self, which)
        if conn is not None and not (conn.closed or conn.broken):
            try:
                return await conn.execute(sql, params)
            except Exception:
                if not (conn.closed or conn.broken):
                    raise  # an error of the statement itself, on a live connection
        async with self._reopening[which]:
            if getattr(self, which) is conn:  # nobody opened a new one meanwhile
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
                setattr(self, which, None)
                setattr(self, which, await self._connect(lock_wait=which != "_ctl"))
                log.info("node %s: database connection %s opened again", self.node, which)
        self.reopened += 1
        return await getattr(self, which).execute(sql, params)

    async def start(self) -> None:
        """Register the node, claim back what is still ours and orphans, start the beat."""
        from ..storage import SCHEMA_LOCK

        self._ctl = await self._connect()
        self._look = await self._connect(lock_wait=True)
        self._scan = await self._connect(lock_wait=True)
        # nodes starting at once on a new database: one creates the tables, the others wait
        await self._ctl.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            for stmt in SCHEMA:
                await self._ctl.execute(stmt)
        finally:
            await self._ctl.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
        self.hub.storage.fence = self._fence
        self.hub.storage.tourney_fence = self._tourney_fence
        t0 = time.monotonic()
        # the name is taken only from a node that is not alive (stopped, or its lease ran out:
        # a crashed one); `batak serve` refuses to start beside a live one of the same name
        # (cli/serve.py), and this catches two started at the same moment
        cur = await self._ctl.execute(
            "INSERT INTO cluster_nodes (id, url, state, lease_until) VALUES"
            " (%s, %s, 'alive', now() + make_interval(secs => %s)) ON CONFLICT (id) DO UPDATE"
            " SET state = 'alive', url = EXCLUDED.url, lease_until = EXCLUDED.lease_until,"
            " started = now()"
            " WHERE cluster_nodes.state <> 'alive' OR cluster_nodes.lease_until <= now()"
            " RETURNING id",
            (self.node, self.hub.config.base_url, self.lease),
        )
        if await cur.fetchone() is None:
            for conn in (self._ctl, self._look, self._scan):
                with contextlib.suppress(Exception):
                    await conn.close()
            raise RuntimeError(
                f"node {self.node}: another process runs under this name (its lease is fresh)"
            )
        self.valid_until = t0 + self.lease - self.margin
        if self.bus is not None:
            await self.bus.start()
        await self._look_alive()
        await self.scan()
        if self.bus is not None:  # the others look again at who is alive (quick play's home)
            await self.bus.announce({"op": "joined", "node": self.node})
        self._beat_task = asyncio.get_running_loop().create_task(self._beat())
        self._scan_task = asyncio.get_running_loop().create_task(self._scanner())

    async def stop(self) -> None:
        """A graceful stop: every table's actor stops (nothing more is written), then the
        tables are released in the storage queue after every write already queued, the node is
        marked gone and the others are told to take the tables at once."""
        self.stopping = True
        for task in (self._beat_task, self._scan_task):
            if task is not None:
                task.cancel()
        hub = self.hub
        ids = list(self.owned.copy())
        me = self.node
        # (a table whose close was refused once more, Hub._close_kept, is released too: a
        # process gone keeps nothing, and one that takes it has it as stored, waiting)
        for table in hub.held():
            await hub._drop(table)

        tables = release_job(me, dict.fromkeys(ids))

        def release(cur: Any) -> None:
            tables(cur)  # (the owner rows first, in order: see release_job)
            cur.execute("UPDATE tourney_owners SET owner = NULL WHERE owner = %s", (me,))
            cur.execute(
                "UPDATE cluster_nodes SET state = 'gone', lease_until = now() WHERE id = %s",
                (me,),
            )

        try:
            await hub.storage._call(_Alone(release))
            self.owned.clear()
            log.info("node %s: released %s", me, counted(len(ids), "table"))
            if self.bus is not None:
                await self.bus.announce({"op": "released", "node": me})
        except Exception as e:  # the lease runs out and the others take them all the same
            log.warning("node %s: could not release its tables: %s", me, e)
        if self.bus is not None:
            await self.bus.stop()
        for conn in (self._ctl, self._look, self._scan):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # ------------------------------------------------------------------ fencing
    def _fence(self, cur: Any, table_id: str, created: bool) -> None:
        """Inside every transaction that writes a table (the storage thread)."""
        self._fence_row(cur, "table", table_id, created)

    def _tourney_fence(self, cur: Any, tid: str, created: bool) -> None:
        """Inside every transaction that writes a tournament's document or makes one of its
        round's tables (the storage thread): this process runs it, with the epoch it claimed.
        ``created``: its first write, which makes it this process's."""
        self._fence_row(cur, "tournament", tid, created)

    def _fence_row(self, cur: Any, what: str, key: str, created: bool) -> None:
        """The fencing check of a table's or a tournament's write (``what``), in its
        transaction: this process still holds the lease, and the owner row still names it with
        the epoch it claimed (a shared row lock, so that a claim waits for the write). Its first
        write (``created``) makes the row, owned here at epoch 1."""
        if time.monotonic() > self.valid_until:
            # refused, not acknowledged, but the table is kept: once the lease is renewed, the
            # tables nobody claimed meanwhile carry on (see _recheck)
            raise StorageError(f"node {self.node}: lease not renewed; the write is refused")
        rows, column, epochs = (
            ("table_owners", "table_id", self.owned)
            if what == "table"
            else ("tourney_owners", "tournament_id", self.tourneys)
        )
        if created:
            cur.execute(
                f"INSERT INTO {rows} ({column}, owner, epoch) VALUES (%s, %s, 1)", (key, self.node)
            )
            epochs[key] = 1
            return
        epoch = epochs.get(key)
        if epoch is not None:
            cur.execute(
                f"SELECT 1 FROM {rows} WHERE {column} = %s AND owner = %s AND epoch = %s FOR SHARE",
                (key, self.node, epoch),
            )
            if cur.fetchone() is not None:
                return
        raise Fenced(f"node {self.node}: {what} {key} is held elsewhere now")

    def fenced(self, table: Table) -> None:
        """A write of ``table`` was refused: it is not ours any more. Drop it and close its
        clients' sockets (1012) so that they come back and find the new owner."""
        self.owned.pop(table.id, None)
        if table.gone:
            return
        log.warning("node %s: table %s is no longer ours; dropped", self.node, table.id)
        table.gone = True
        for conn in list(table.subs):
            self._spawn(conn.close(1012, "table moved"))
        self._spawn(self.hub._drop(table))

    def released(self, table: Table) -> None:
        """The hub put a table away (adjourned and unvisited, closed, finished and gone from
        memory): it is no longer held here; another process may load it when asked."""
        epoch = self.owned.pop(table.id, None)
        if epoch is None or self.stopping:
            return
        self._releasing[table.id] = epoch
        if not self._release_running:
            self._release_running = True
            self._spawn(self._release())

    async def _release(self) -> None:
        """Let go of the tables put away here (:meth:`released`) in ``table_owners``: those
        put away meanwhile together, in one transaction of their own (:func:`release_job`),
        while the last one is being committed."""
        try:
            while self._releasing:
                tables, self._releasing = self._releasing, {}
                with contextlib.suppress(Exception):
                    await self.hub.storage._call(_Alone(release_job(self.node, tables)))
        finally:
            self._release_running = False

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ the beat
    async def _beat(self) -> None:
        """Renew the lease every third of it (nothing else waits in this loop)."""
        while True:
            await asyncio.sleep(self.lease / 3)
            t0 = time.monotonic()
            try:
                lapsed = await asyncio.wait_for(self._renew(), self.lease / 2)
            except Exception as e:
                log.warning("node %s: lease not renewed: %s", self.node, e)
                if time.monotonic() > self.valid_until + self.lease:
                    # long enough for the others to have taken every table
                    self._lose_all("the lease ran out")
                continue  # the connection, if PostgreSQL ended it, is opened again (_db)
            self.valid_until = t0 + self.lease - self.margin
            if lapsed:
                try:
                    await self._recheck()
                except Exception as e:
                    log.warning("node %s: after a lapse: %s", self.node, e)
                    self._lose_all("the lease had lapsed")
            self._scan_now.set()

    async def _scanner(self) -> None:
        """After each renewal (or when a node says it released its tables): who is alive,
        take what nobody alive holds, keep the lobby in Redis."""
        while True:
            await self._scan_now.wait()
            self._scan_now.clear()
            try:
                await self._look_alive()
                await self.scan()
            except Exception as e:
                log.warning("node %s: takeover scan: %s", self.node, e)
            if self.bus is not None:
                await self.bus.beat()

    async def _renew(self) -> bool:
        """Renew the lease; True if it had lapsed (others may have taken our tables), or if it
        cannot be told (the renewal was run again on a new connection: the first run may have
        renewed it, and the second then finds it fresh)."""
        reopened = self.reopened
        cur = await self._db(
            "_ctl",
            "WITH old AS (SELECT lease_until < now() OR state <> 'alive' AS lapsed"
            " FROM cluster_nodes WHERE id = %(me)s FOR UPDATE)"
            " UPDATE cluster_nodes SET lease_until = now() + make_interval(secs => %(lease)s),"
            " state = 'alive' WHERE id = %(me)s RETURNING (SELECT lapsed FROM old)",
            {"me": self.node, "lease": self.lease},
        )
        row = await cur.fetchone()
        if row is None:  # the row was deleted: register again
            await self._db(
                "_ctl",
                "INSERT INTO cluster_nodes (id, url, state, lease_until) VALUES"
                " (%s, %s, 'alive', now() + make_interval(secs => %s)) ON CONFLICT DO NOTHING",
                (self.node, self.hub.config.base_url, self.lease),
            )
            return True
        return bool(row[0]) or self.reopened != reopened

    async def _recheck(self) -> None:
        """The lease had lapsed and is renewed: drop the tables another node claimed in the
        meantime; the others are still ours (nobody may claim them while the lease holds)."""
        cur = await self._db(
            "_ctl",
            "SELECT table_id, owner, epoch FROM table_owners WHERE table_id = ANY(%s)",
            (list(self.owned.copy()),),
        )
        now = {str(t): (o, int(e)) for t, o, e in await cur.fetchall()}
        lost = 0
        # (a table kept to be closed, Hub.unclosed, that another node claimed meanwhile: its
        # close would be refused by the fencing check for good; that node has it now)
        for table in self.hub.held():
            epoch = self.owned.get(table.id)
            if epoch is not None and now.get(table.id) != (self.node, epoch):
                self.fenced(table)
                lost += 1
        taken = f"{counted(lost, 'table')} {'was' if lost == 1 else 'were'} taken"
        log.warning("node %s: the lease had lapsed; %s", self.node, taken)
        cur = await self._db(
            "_ctl",
            "SELECT tournament_id, owner, epoch FROM tourney_owners WHERE tournament_id = ANY(%s)",
            (list(self.tourneys.copy()),),
        )
        runs = {str(t): (o, int(e)) for t, o, e in await cur.fetchall()}
        for tid, epoch in list(self.tourneys.items()):
            if runs.get(tid) != (self.node, epoch):
                self.tourney_lost(tid)

    def _lose_all(self, why: str) -> None:
        for tid in list(self.tourneys):
            self.tourney_lost(tid)
        held = self.hub.held()
        if not held:
            return
        log.warning("node %s: %s; every table is dropped", self.node, why)
        for table in held:
            self.fenced(table)

    async def _look_alive(self) -> None:
        cur = await self._db("_scan", ALIVE)
        alive = [str(r[0]) for r in await cur.fetchall()]
        gone = set(self.alive) - set(alive)
        self.alive = alive
        if gone and self.bus is not None:
            self.bus.nodes_gone(gone)

    async def scan(self) -> None:
        """Claim the tables in play that nobody alive owns: our own that are not in memory
        (after a lapse or a restart under the same name) at once, the others when the stable
        hash of their id picks this node among the live ones."""
        if self.stopping:
            return
        cur = await self._db(
            "_scan",
            "SELECT o.table_id, o.owner FROM table_owners o JOIN tables t ON t.id = o.table_id"
            " WHERE t.status IN ('waiting', 'playing') AND " + CLAIMABLE,
            {"me": self.node},
        )
        rows = await cur.fetchall()
        alive = self.alive or [self.node]
        hub = self.hub
        for table_id, owner in rows:
            if hub.holds(table_id) or table_id in hub.creating:
                # (one kept to be closed, Hub.unclosed, is stored waiting and ours: taken
                # "back", it would be loaded a second time, and offered)
                continue
            if owner != self.node and rendezvous(table_id, alive) != self.node:
                continue
            await self.claim(str(table_id), "_scan")
        # the tournaments not over that nobody alive runs (after their tables: a tournament
        # taken over finds its round's tables here when they were taken here too)
        cur = await self._db(
            "_scan",
            "SELECT t.id, o.owner FROM tournaments t"
            " LEFT JOIN tourney_owners o ON o.tournament_id = t.id"
            " WHERE t.status <> 'over' AND " + CLAIMABLE,
            {"me": self.node},
        )
        for tid, owner in await cur.fetchall():
            if tid in self.hub.tournaments.docs:
                continue
            if owner != self.node and rendezvous("tourney:" + tid, alive) != self.node:
                continue
            await self.claim_tourney(str(tid), "_scan")
        await self.hub.tournaments.poll()

    # ------------------------------------------------------------------ claiming
    async def claim(self, table_id: str, db: str = "_look", *, answers: bool = False) -> bool:
        """Take ``table_id`` if it is claimable, and load it from its log (seats held, the
        decision in progress on a fresh clock, bots playing on). True if it is here now.

        A takeover of a table where a bot account sits has where bot accounts sit written to
        Redis at once; ``answers`` (a client's message is answered from the table next) waits
        for that write (at most 2 s), after the claim lock is let go: another claim does not
        wait behind it. The takeover scan's claims do not wait (a beat follows them)."""
        took = await self._claim(table_id, db)
        if took is None:
            return False
        if answers and took and self.bus is not None:
            await self.bus.written()
        return True

    async def _claim(self, table_id: str, db: str) -> bool | None:
        """:meth:`claim` under the claim lock: None if the table is not here; else whether
        where bot accounts sit may be being written for it (taken over with a bot account
        seated, or found here: another claim may have just taken it so)."""
        async with self._claim_lock:
            if table_id in self.hub.unclosed:  # ours, kept to be closed: here for nobody
                return None
            if table_id in self.hub.tables or table_id in self.hub.creating:
                # here, or being made here (its create is stored, not yet added): taken over
                # by another claim just now, maybe, whose write may still be under way
                return True
            if time.monotonic() > self.valid_until or self.stopping:
                return None
            await self._db(
                db,
                "INSERT INTO table_owners (table_id, owner, epoch) SELECT id, NULL, 0"
                " FROM tables WHERE id = %s ON CONFLICT DO NOTHING",
                (table_id,),
            )
            cur = await self._db(
                db,
                "UPDATE table_owners o SET owner = %(me)s, epoch = o.epoch + 1"
                " WHERE o.table_id = %(t)s AND " + CLAIMABLE + " RETURNING o.epoch, o.owner",
                {"me": self.node, "t": table_id},
            )
            row = await cur.fetchone()
            if row is None:
                return None
            self.owned[table_id] = int(row[0])
            stored = await self.hub.storage.table(table_id)
            if stored is None or stored[0].status in ("over", "closed"):
                return None
            row_, events = stored
            if self.hub.to_close(row_):  # a rematch that fell through: closed, not offered
                await self.hub.close_found(row_, events)
                if not self.hub.holds(table_id):  # (closed without being rebuilt, or not)
                    self.owned.pop(table_id, None)
                return None
            age = time.time() - (events[-1].at if events else row_.created)
            t0 = time.monotonic()
            table = self.hub._load(row_, events, age)
            if table is None:
                await self.hub.refund_unrebuilt(row_)
                self.owned.pop(table_id, None)
                return None
            self.takeovers += 1
            log.info(
                "node %s: took table %s (epoch %s, %s, %.1f ms)",
                self.node,
                table_id,
                row[0],
                counted(len(events), "event"),
                (time.monotonic() - t0) * 1000,
            )
            if table.status == "waiting" and table.options.get("tournament"):
                # a round's table not seated yet: seated here if its tournament is run elsewhere
                self._spawn(self.hub.tournaments.seat_taken(table))
            if self.bus is not None:
                # (with the epoch: the process that held it under an older one lets it go,
                # table_moved, rather than at its next write)
                await self.bus.announce(
                    {"op": "moved", "table": table_id, "node": self.node, "epoch": row[0]}
                )
                if any(s.bot_account for s in table.seats):
                    # where its bot accounts sit, for the other processes (a bot account's
                    # welcome, invite's bot_busy), written before anyone is answered from it
                    self.bus.bot_seats_changed()
                    return True
            return False

    async def claim_tourney(self, tid: str, db: str = "_look") -> bool:
        """Run the tournament ``tid`` here if nobody alive runs it (and it is not over): claim
        it (its epoch raised), read its document and go on with it (its start's timer, or
        its round's tables as they are in storage: :meth:`Tournaments.adopt
        <batak.server.tournament.Tournaments.adopt>`). True if it is run here now."""
        tours = self.hub.tournaments
        async with self._claim_lock:
            if tid in tours.docs:
                return True
            if time.monotonic() > self.valid_until or self.stopping:
                return False
            await self._db(
                db,
                "INSERT INTO tourney_owners (tournament_id, owner, epoch) SELECT id, NULL, 0"
                " FROM tournaments WHERE id = %s AND status <> 'over' ON CONFLICT DO NOTHING",
                (tid,),
            )
            cur = await self._db(
                db,
                "UPDATE tourney_owners o SET owner = %(me)s, epoch = o.epoch + 1"
                " WHERE o.tournament_id = %(t)s AND " + CLAIMABLE + " AND EXISTS (SELECT 1"
                " FROM tournaments t WHERE t.id = o.tournament_id AND t.status <> 'over')"
                " RETURNING o.epoch",
                {"me": self.node, "t": tid},
            )
            row = await cur.fetchone()
            if row is None:
                return False
            self.tourneys[tid] = int(row[0])
            doc = await self.hub.storage.tournament(tid)
            if doc is None or doc["status"] == "over":
                self.tourneys.pop(tid, None)
                return False
            tours.adopt(doc)
        log.info("node %s: took tournament %s (epoch %s)", self.node, tid, row[0])
        if self.bus is not None:  # clients forwarded to its old process come back here, and
            # that process, if it still runs it, lets it go (its epoch is older: tourney_moved)
            await self.bus.announce(
                {"op": "moved", "table": "tourney:" + tid, "node": self.node, "epoch": row[0]}
            )
        return True

    def table_moved(self, table_id: str, epoch: int) -> None:
        """Another process claimed the table ``table_id`` at ``epoch`` (its ``moved`` on
        Redis). If this process holds it under an older epoch (in play, or kept aside to be
        closed), it has lost it: its next write would be refused (the fencing check), and it
        drops it now rather than then (:meth:`fenced`: its clients closed with 1012 come back
        through the new owner). A ``moved`` that comes late, after this process claimed it
        again (a newer epoch), changes nothing; one that is lost leaves it to the next write,
        or to the recheck after a lapsed lease."""
        mine = self.owned.get(table_id)
        if mine is None or mine >= epoch:
            return
        table = self.hub.tables.get(table_id) or self.hub.unclosed.get(table_id)
        if table is not None:  # (one being loaded here: left to its first write, as before)
            self.fenced(table)

    def tourney_moved(self, tid: str, epoch: int) -> None:
        """Another process claimed the tournament ``tid`` at ``epoch`` (its ``moved`` on
        Redis). If this process runs it under an older epoch, it has lost it: its next write
        would be refused (the fencing check), and it lets it go now rather than then (its
        start's timer stopped, its watchers here closed with 1012 to ask again). A ``moved``
        that comes late, after this process claimed it again (a newer epoch), changes
        nothing; one that is lost leaves it to the next write, or to the recheck after a
        lapsed lease, as before."""
        mine = self.tourneys.get(tid)
        if mine is not None and mine < epoch:
            self.tourney_lost(tid)

    def tourney_lost(self, tid: str) -> None:
        """A write of the tournament was refused, or another process claimed it meanwhile:
        it is no longer run here."""
        if self.tourneys.pop(tid, None) is not None or tid in self.hub.tournaments.docs:
            log.warning("node %s: tournament %s is no longer run here", self.node, tid)
        self.hub.tournaments.drop(tid)

    async def tourney_owner_of(self, tid: str) -> tuple[str | None, bool] | None:
        """The process that runs a tournament and whether it is alive (None: no owner row)."""
        cur = await self._db(
            "_look",
            "SELECT o.owner, COALESCE(n.state = 'alive' AND n.lease_until > now(), false)"
            " FROM tourney_owners o LEFT JOIN cluster_nodes n ON n.id = o.owner"
            " WHERE o.tournament_id = %s",
            (tid,),
        )
        row = await cur.fetchone()
        return (row[0], bool(row[1])) if row else None

    async def _route_tourney(self, conn: Conn, msg: dict[str, Any]) -> bool:
        """A tourney_* message: to the process that runs the tournament (claimed here when
        nobody alive runs it). Without Redis, one run elsewhere is shown here from storage
        (``tourney``) and the rest is refused with ``elsewhere``."""
        tid = str(msg.get("tournament") or "")
        if not tid or len(tid) > 32 or tid in self.hub.tournaments.docs:
            return False
        owner = await self.tourney_owner_of(tid)
        if owner is not None and owner[0] not in (None, self.node) and owner[1]:
            if getattr(conn, "remote", False):  # forwarded here, run elsewhere now: ask again
                await conn.close(1012, "tournament moved")
                return True
            if self.bus is None or not self.bus.up:
                if msg["type"] == "tourney":
                    return False  # (the stored document, without live scores)
                from ..table import TableError

                # (the code a client retries on, with words that name the tournament)
                raise TableError(
                    "elsewhere", "tourney_elsewhere", {"node": owner[0]}, node=owner[0]
                )
            return self.bus.forward(conn, owner[0], "tourney:" + tid, msg)
        await self.claim_tourney(tid)
        return False

    def tourney_note(self, player: str, note: dict[str, Any]) -> None:
        """A note of a tournament (its table for ``player``) to the player's connections on
        the other processes (without Redis: not told; the tournament's page lists it)."""
        if self.bus is not None:
            self.bus.publish_cluster({"op": "tell", "player": player, "note": note})

    def tourney_push(
        self,
        tid: str,
        players: list[str],
        shown: Callable[[], dict[str, dict[str, Any]] | None],
        watching: list[list[Any]],
    ) -> None:
        """A tournament run here changed: its ``players`` connected to the other processes
        hear it, but for the connections that watch it here through their process
        (``watching``: process and connection id), which have it already (without Redis: not
        told; they see it when they ask for it). Only when Redis says some of them are
        connected to another process is it made (``shown()``: as each language says it,
        at that moment) and sent, and only to those: a tournament's change is a large message
        (the whole tournament in each language), and most have nobody elsewhere to go to."""
        if self.bus is not None and self.bus.up and players:
            self._spawn(self._tourney_push(tid, players, shown, watching))

    async def _tourney_push(
        self,
        tid: str,
        players: list[str],
        shown: Callable[[], dict[str, dict[str, Any]] | None],
        watching: list[list[Any]],
    ) -> None:
        bus = self.bus
        assert bus is not None
        try:
            there = await bus.connected_elsewhere(players)
        except Exception as e:  # (they see it at the next change, or when they ask)
            log.warning("node %s: who is online, via Redis: %s", self.node, e)
            return
        # made now, not when it changed: of two changes close together, the one sent last
        # shows the latest, whichever look-up answered first
        tour = shown() if there else None
        if tour is not None:
            bus.publish_cluster(
                {"op": "tourney_push", "tournament": tid, "players": there,
                 "shown": tour, "watching": watching}
            )  # fmt: skip

    def tourney_table(self, tid: str, table_id: str, scores: list[list[int]], over: bool) -> None:
        """A tournament's table held here, whose tournament is run elsewhere, ended
        (``over``) or ended a deal: the process that runs it hears it (without Redis, or if
        the message is lost, that process reads the stored result at its next beat)."""
        if self.bus is not None:
            self.bus.publish_cluster(
                {"op": "tourney_table", "tournament": tid, "table": table_id,
                 "scores": scores, "over": over}
            )  # fmt: skip

    async def owner_of(self, table_id: str) -> tuple[str | None, bool] | None:
        """The owner of a table and whether it is alive (None: no owner row)."""
        cur = await self._db(
            "_look",
            "SELECT o.owner, COALESCE(n.state = 'alive' AND n.lease_until > now(), false)"
            " FROM table_owners o LEFT JOIN cluster_nodes n ON n.id = o.owner"
            " WHERE o.table_id = %s",
            (table_id,),
        )
        row = await cur.fetchone()
        return (row[0], bool(row[1])) if row else None

    # ------------------------------------------------------------------ routing
    async def route(self, conn: Conn, msg: dict[str, Any]) -> bool:
        """Before the hub handles ``msg``: True if it went to another process (the answers
        come back over the bus); False to handle it here (claiming the table first if nobody
        alive holds it)."""
        kind = msg["type"]
        if kind in TOURNEY_TYPES:
            return await self._route_tourney(conn, msg)
        if getattr(conn, "remote", False):
            # forwarded here because this process owned the table; if it no longer does, the
            # client's process closes the socket and the client asks again
            table_id = msg.get("table")
            held = self.hub.holds(table_id)
            moved = kind in TABLE_TYPES and table_id and not held
            if moved and not await self.claim(str(table_id), answers=True):
                await conn.close(1012, "table moved")
                return True
            return False
        if kind == "quick":
            home = rendezvous("quick:" + str(msg.get("mode")), self.alive)
            if home is None or home == self.node or self.bus is None or not self.bus.up:
                return False
            return self.bus.forward(conn, home, None, msg)
        if kind not in TABLE_TYPES:
            return False
        table_id = msg.get("table")
        finished = False  # a finished room's code
        if kind in ("join", "room") and msg.get("code"):
            self.hub.code_checks(conn)  # locked out: refused before the code is looked up
            code = str(msg["code"]).strip().upper()
            table_id = self.hub.codes.get(code)
            if not table_id and (found := await self.hub.storage.table_by_code(code)):
                # a finished room's goes to the process that still holds its table (rematch,
                # chat), as by its id; the hub there opens it to its players only
                table_id, finished = found
        if not table_id or table_id in self.hub.tables or len(table_id) > 32:
            return False
        if table_id in self.hub.unclosed:  # ours, kept to be closed: answered here (no_table)
            return False
        owner = await self.owner_of(table_id)
        if owner is not None and owner[0] not in (None, self.node) and owner[1]:
            if self.bus is None or not self.bus.up:
                if finished:  # (no way there: answered here from the saved games, as before)
                    return False
                from ..table import TableError

                # (a join by the table's id names it, as the hub's refusals of a join do: a
                # page gone on to another table meanwhile ignores it; docs/protocol.md, join)
                named = {"table": table_id} if kind == "join" and not msg.get("code") else {}
                raise TableError("elsewhere", params={"node": owner[0]}, node=owner[0], **named)
            return self.bus.forward(conn, owner[0], table_id, msg)
        if finished:  # held by nobody alive: answered here (a claim would load it for nothing)
            return False
        await self.claim(table_id, answers=True)
        return False

    def disconnected(self, conn: Conn, restart: bool = False) -> None:
        if self.bus is not None:
            self.bus.disconnected(conn, restart)

    def lobby(self, local: dict[str, Any]) -> dict[str, Any]:
        return self.bus.lobby(local) if self.bus is not None else local

    async def online_elsewhere(self, player: str) -> bool:
        """Whether ``player`` is connected to another node (without Redis: not known, False)."""
        if self.bus is None:
            return False
        try:
            return await self.bus.online_elsewhere(player)
        except Exception as e:
            log.warning("node %s: who is online, via Redis: %s", self.node, e)
            return False

    async def bots_elsewhere(self) -> list[dict[str, Any]]:
        """The bot accounts connected to the other nodes (without Redis: none known)."""
        if self.bus is None:
            return []
        try:
            return await self.bus.bots_elsewhere()
        except Exception as e:
            log.warning("node %s: bot accounts online, via Redis: %s", self.node, e)
            return []

    async def bot_tables_elsewhere(self, player: str) -> list[tuple[str, str]]:
        """The unfinished tables of the other nodes where the bot account ``player`` sits, as
        ``(table id, status)`` (without Redis: none known)."""
        if self.bus is None:
            return []
        try:
            return await self.bus.bot_tables_elsewhere(player)
        except Exception as e:
            log.warning("node %s: where a bot account sits, via Redis: %s", self.node, e)
            return []

    def kept(self) -> dict[str, int]:
        """The tables this process keeps aside to be closed (``Hub.unclosed``: their close was
        refused) and still owns, with the epoch it holds each at."""
        return {t: self.owned[t] for t in list(self.hub.unclosed) if t in self.owned}

    def kept_changed(self) -> None:
        """A table was just kept aside here: the other nodes hear it now
        (:meth:`Bus.kept_changed`), not at the next beat."""
        if self.bus is not None:
            self.bus.kept_changed()

    async def kept_aside(self) -> dict[str, tuple[str, int]]:
        """The tables kept aside to be closed by any live node (this one's, and the others' as
        Redis has them: without Redis, this one's only), each with its node and epoch: where a
        seat does not stand in the way of ``delete_account``, as long as the table's owner row
        still names that node and epoch (:func:`batak.server.erase.erase_job`'s ``kept_at``,
        checked in the erasure's own transaction: a list gone stale costs only a refusal)."""
        out: dict[str, tuple[str, int]] = {}
        if self.bus is not None:
            try:
                out = await self.bus.kept_elsewhere()
            except Exception as e:
                log.warning("node %s: tables kept aside, via Redis: %s", self.node, e)
        for t, epoch in self.kept().items():
            if out.get(t, ("", 0))[1] <= epoch:  # (a later epoch elsewhere: this one lost it)
                out[t] = (self.node, epoch)
        return out

    def bot_seats_changed(self, table: Table, *, bot_account: bool = False) -> None:
        """``table`` started or ended, or (``bot_account``) a bot account sat or stood there:
        if a bot account sits there, or did, the other nodes hear of it now
        (:meth:`Bus.bot_seats_changed`). A stand is told by ``bot_account``: the seat is
        empty by then, and once the last bot account stood none sits there any more."""
        if self.bus is not None and (bot_account or any(s.bot_account for s in table.seats)):
            self.bus.bot_seats_changed()

    def online_changed(self, player: Player) -> None:
        """``player`` connected to this process (their first connection here), or their last
        connection here closed: the lists of who is connected here (and of the bot accounts)
        that the other nodes read say so now (:meth:`Bus.online_changed`)."""
        if self.bus is not None:
            self.bus.online_changed(player.id, player.account)

    def invited(self, player: str, note: dict[str, Any]) -> None:
        if self.bus is not None:
            self.bus.invited(player, note)
