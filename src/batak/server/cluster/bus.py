"""Redis pub/sub between the processes of a cluster (see :mod:`batak.server.cluster`).

Each node listens on ``batak:node:NAME`` and on ``batak:cluster``. A client's message for a
table owned by another node goes to that node as ``req`` (with who the client is); the owner
handles it with a :class:`RemoteConn` standing for the client, whose every outgoing text comes
back as ``out`` and is sent on the client's socket; ``gone`` says the client left (with
``restart`` when a server closed its socket itself with 1012, which frees no seat: see
:meth:`Hub.disconnect <batak.server.hub.Hub.disconnect>`); ``close`` closes the client's
socket. On ``batak:cluster``: ``moved`` (a table has a new owner, with the epoch it claimed)
and ``released`` (a node stopped and let go of its tables): clients forwarded to the old owner
are closed with 1012 and come back (``sync`` with ``since``) through the new route, and the
process that held the table under an older epoch drops it (:meth:`Cluster.table_moved
<batak.server.cluster.owner.Cluster.table_moved>`); a tournament's new process says ``moved``
with ``tourney:ID`` as its table: the process that ran it under an older epoch lets it go
(:meth:`Cluster.tourney_moved <batak.server.cluster.owner.Cluster.tourney_moved>`);
``invited`` (an invitation for a player connected to another node: that node hands it to the
player's connections); ``tell`` (a note for a player's connections on every node: a
tournament's table for them);
``tourney_table`` (a tournament's table held here, its tournament run elsewhere: its scores
at a deal's end, or its result, for the node that runs the tournament).

Pub/sub may drop messages (around a reconnect, on overload), so nothing here must survive: a
move is acknowledged only once it is in PostgreSQL, and when the connection to Redis breaks, every
forwarded client is closed with 1012 and resyncs. The lobby's summaries are kept under
``batak:lobby:NAME`` with an expiry, renewed at each beat; so are who is connected to the node
(the set ``batak:online:NAME`` of player ids) and the bot accounts among them (the hash
``batak:bots:NAME``, username to id and name), which ``invite`` and ``invitable`` read on the
room's node; and where bot accounts sit (the hash ``batak:bot_seats:NAME``, a bot account's id to
the ``[table id, status]`` of each unfinished table of the node where it has a seat), which
``invite`` reads for ``bot_busy`` and a bot account's ``welcome`` for the tables to come back to.
That one is also written at once when such a table starts or ends, or a bot account sits or
stands there, or the node takes such a table over, not only at the beat; and a player who
connects to the node (their first connection there) or whose last connection to it closed is
put into or taken out of ``batak:online:NAME`` and ``batak:bots:NAME`` at once (a bot account's
program started again through another node would be refused ``bot_online`` until the next
beat; one back on the same node would be missing from both until then, so that a second
program of that bot account could log in elsewhere). The tables a node keeps aside to be
closed (their close was refused: ``Hub.unclosed``) are kept under the hash
``batak:kept:NAME`` (table id to the epoch the node holds it at), written at once when one is
kept aside and again at each beat: ``delete_account`` on any node reads them, so that a seat
there does not stand in the way (each checked against its owner row in the erasure's own
transaction: an entry gone stale refuses, as before, and lets nothing through).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import orjson

from ..conn import Conn
from ..storage import shown_url

if TYPE_CHECKING:
    from .owner import Cluster

__all__ = ["Bus", "RemoteConn", "kept_lists"]

log = logging.getLogger("batak.server.cluster")

CLUSTER = "batak:cluster"


def node_channel(node: str) -> str:
    return f"batak:node:{node}"


class RemoteConn(Conn):
    """A client connected to another node, as the owner's tables see it."""

    remote = True

    def __init__(self, bus: Bus, origin: str, conn_id: int, lang: str, address: str) -> None:
        super().__init__(self._no_send, self._no_close, lang=lang, address=address)
        self.bus = bus
        self.origin = origin
        self.conn_id = conn_id
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        #: gone because a server closed the client's socket itself (1012: its shutdown, a moved
        #: table, Redis lost), not because the client went: its seats are held, not freed
        self.restart = False

    async def _no_send(self, text: str) -> None:  # pragma: no cover - send_text is overridden
        raise RuntimeError("a remote connection sends through the bus")

    async def _no_close(self, code: int, reason: str) -> None:  # pragma: no cover
        raise RuntimeError("a remote connection closes through the bus")

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.bus.publish(
                node_channel(self.origin), {"op": "out", "conn": self.conn_id, "text": text}
            )

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.bus.publish(
                node_channel(self.origin),
                {"op": "close", "conn": self.conn_id, "code": code, "reason": reason},
            )

    async def flush_and_close(self, code: int, reason: str, timeout: float = 2.0) -> None:
        await self.close(code, reason)


#: seconds between two warnings that Redis still cannot be reached
UNREACHABLE_WARN_EVERY = 60.0


class Bus:
    """This node's end of the Redis bus (see the module's text)."""

    def __init__(self, cluster: Cluster, url: str) -> None:
        self.cluster = cluster
        self.url = url
        self.node = cluster.node
        self.up = False
        self.forwarded = 0  # client messages sent to another node
        self.handled = 0  # messages handled here for clients of other nodes
        self._redis: Any = None
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()
        #: origin side: our clients with messages forwarded, and where each table went
        self.local: dict[int, Conn] = {}
        self.routes: dict[int, dict[str, str]] = {}
        #: owner side: clients of other nodes
        self.remotes: dict[tuple[str, int], RemoteConn] = {}
        self.others: list[dict[str, Any]] = []  # the other nodes' lobbies at the last beat
        #: loop time of the last warning that Redis cannot be reached (None: none yet)
        self._warned: float | None = None
        #: where bot accounts sit here and who is connected here, written by one task at a
        #: time (the beat, or a change: each writes what is true when it writes)
        self._seats_lock = asyncio.Lock()
        self._seats_dirty = False
        self._kept_dirty = False  # a table was kept aside here since the last write
        #: players who connected here or whose last connection here closed since the last
        #: write (id to username): each is written as they are when it is written
        self._changed_players: dict[str, str | None] = {}
        self._seats_writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=2)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publisher())]
        for _ in range(100):  # wait a little for the subscription (a node may start without)
            if self.up:
                break
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        for _ in range(100):  # let the last answers and announcements go
            if self._out.empty():
                break
            await asyncio.sleep(0.01)
        tasks = [*self._tasks, *([self._seats_writer] if self._seats_writer else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # ------------------------------------------------------------------ sending
    def publish(self, channel: str, msg: dict[str, Any]) -> None:
        if self.up:
            self._out.put_nowait((channel, orjson.dumps(msg)))

    async def announce(self, msg: dict[str, Any]) -> None:
        self.publish(CLUSTER, msg)

    def publish_cluster(self, msg: dict[str, Any]) -> None:
        """To every node (``from``: this one, which ignores it)."""
        self.publish(CLUSTER, {**msg, "node": self.node})

    async def _publisher(self) -> None:
        while True:
            channel, data = await self._out.get()
            batch = [(channel, data)]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                if len(batch) == 1:
                    await self._redis.publish(channel, data)
                else:
                    pipe = self._redis.pipeline(transaction=False)
                    for ch, d in batch:
                        pipe.publish(ch, d)
                    await pipe.execute()
            except Exception as e:
                log.warning("node %s: Redis publish failed: %s", self.node, e)
                self._down()

    # ------------------------------------------------------------------ receiving
    async def _listen(self) -> None:
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(node_channel(self.node), CLUSTER)
                if not self.up:
                    log.info("node %s: Redis bus up", self.node)
                self.up = True
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        await self._redis.ping()
                        continue
                    try:
                        self._on(orjson.loads(message["data"]))
                    except Exception:
                        log.exception("node %s: bad bus message", self.node)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                now = asyncio.get_running_loop().time()
                if self.up:
                    log.warning("node %s: Redis bus lost: %s", self.node, e)
                    self._warned = now
                elif self._warned is None or now - self._warned >= UNREACHABLE_WARN_EVERY:
                    # never up, or still down: said once, then every so often, not each retry
                    log.warning(
                        "node %s: cannot reach Redis at %s: %s (trying again; until then this "
                        "process plays only its own tables)",
                        self.node,
                        shown_url(self.url),
                        e,
                    )
                    self._warned = now
                self._down()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _down(self) -> None:
        """Redis is gone: forwarded clients are closed (1012) and come back, clients of other
        nodes leave our tables (their seats are held as for any lost connection; as for a
        server's own 1012 close, a bot account's seat in a room not started is not freed)."""
        self.up = False
        while not self._out.empty():
            self._out.get_nowait()
        for conn_id in list(self.routes):
            self._close_local(conn_id)
        for key in list(self.remotes):
            self._remote_gone(key, restart=True)

    def _on(self, msg: dict[str, Any]) -> None:
        op = msg.get("op")
        if op == "req":
            self._request(msg)
        elif op == "out":
            conn = self.local.get(msg["conn"])
            if conn is not None:
                conn.send_text(msg["text"])
        elif op == "close":
            conn = self.local.get(msg["conn"])
            if conn is not None:
                self._spawn(conn.close(int(msg.get("code", 1012)), str(msg.get("reason", ""))))
        elif op == "gone":
            self._remote_gone((msg["from"], msg["conn"]), restart=bool(msg.get("restart")))
        elif op == "moved":
            if msg.get("node") != self.node:
                table = msg["table"]
                for conn_id, routes in list(self.routes.items()):
                    if table in routes and routes[table] != msg.get("node"):
                        self._close_local(conn_id)
                if msg.get("epoch") is not None:
                    if table.startswith("tourney:"):
                        tid = table.removeprefix("tourney:")
                        self.cluster.tourney_moved(tid, int(msg["epoch"]))
                    else:
                        self.cluster.table_moved(table, int(msg["epoch"]))
        elif op == "invited" and msg.get("node") != self.node:
            self.cluster.hub.tell_invited(str(msg["player"]), msg["note"])
        elif op == "tell" and msg.get("node") != self.node:
            for conn in list(self.cluster.hub.online.get(str(msg["player"]), ())):
                conn.send(msg["note"])
        elif op == "tourney_push" and msg.get("node") != self.node:
            self.cluster.hub.tournaments.pushed(
                list(msg["players"]), dict(msg["shown"]), list(msg["watching"]), self.node
            )
        elif op == "tourney_table" and msg.get("node") != self.node:
            self.cluster.hub.tournaments.reported(
                str(msg["tournament"]), str(msg["table"]), msg["scores"], bool(msg["over"])
            )
        elif op == "joined" and msg.get("node") != self.node:
            self.cluster._scan_now.set()
        elif op == "released" and msg.get("node") != self.node:
            self.nodes_gone({msg["node"]})
            self.cluster._scan_now.set()

    # ------------------------------------------------------------------ origin side
    def forward(self, conn: Conn, node: str, table: str | None, msg: dict[str, Any]) -> bool:
        """Send a client's message to the node that owns its table (or, for quick play, the
        node that matches players of the mode)."""
        player = conn.player
        assert player is not None
        self.local[conn.id] = conn
        self.routes.setdefault(conn.id, {})[table or "quick"] = node
        self.publish(
            node_channel(node),
            {
                "op": "req",
                "from": self.node,
                "conn": conn.id,
                "p": [player.id, player.name, player.account, player.played, player.bot_account],
                "lang": conn.lang,
                "addr": conn.address,
                "aie": conn.ack_in_event,  # the client's hello asked for acks in events
                "msg": msg,
            },
        )
        self.forwarded += 1
        return True

    def disconnected(self, conn: Conn, restart: bool = False) -> None:
        """``conn`` is gone: the owners of its tables hear it (``restart``: this server closed
        it itself with 1012, see :meth:`Hub.disconnect <batak.server.hub.Hub.disconnect>`)."""
        routes = self.routes.pop(conn.id, None)
        self.local.pop(conn.id, None)
        self._gone(conn.id, routes, restart)

    def _gone(self, conn_id: int, routes: dict[str, str] | None, restart: bool) -> None:
        for node in set((routes or {}).values()):
            self.publish(
                node_channel(node),
                {"op": "gone", "from": self.node, "conn": conn_id, "restart": restart},
            )

    def _close_local(self, conn_id: int) -> None:
        """Close a forwarded client with 1012 (it comes back by its new route): for the owners
        of its tables, a server's own close (``restart``), which frees no seat."""
        conn = self.local.pop(conn_id, None)
        routes = self.routes.pop(conn_id, None)
        if conn is not None:
            self._gone(conn_id, routes, True)
            self._spawn(conn.close(1012, "table moved"))

    def nodes_gone(self, nodes: set[str]) -> None:
        """Clients forwarded to nodes that are gone: closed, to come back by the new route."""
        for conn_id, routes in list(self.routes.items()):
            if any(n in nodes for n in routes.values()):
                self._close_local(conn_id)

    # ------------------------------------------------------------------ owner side
    def _request(self, env: dict[str, Any]) -> None:
        key = (str(env["from"]), int(env["conn"]))
        rconn = self.remotes.get(key)
        if rconn is None:
            rconn = RemoteConn(self, key[0], key[1], env.get("lang") or "en", env.get("addr") or "")
            self.remotes[key] = rconn
            rconn.worker = asyncio.get_running_loop().create_task(self._work(rconn))
        pid, name, account, played, bot_account = env["p"]
        hub = self.cluster.hub
        player = rconn.player
        if player is None or player.id != pid:
            player = hub._known(pid, name, account)
        player.name, player.account = name, account
        player.played = player.played or bool(played)
        player.bot_account = bool(bot_account)
        rconn.player = player
        rconn.lang = env.get("lang") or rconn.lang
        rconn.ack_in_event = bool(env.get("aie"))
        rconn.inbox.put_nowait(env["msg"])

    async def _work(self, rconn: RemoteConn) -> None:
        hub = self.cluster.hub
        while True:
            msg = await rconn.inbox.get()
            if msg is None:
                break
            self.handled += 1
            try:
                await hub.handle(rconn, msg)
            except Exception:
                log.exception("node %s: forwarded %s", self.node, msg.get("type"))
        with contextlib.suppress(Exception):
            await hub.disconnect(rconn, restart=rconn.restart)

    def _remote_gone(self, key: tuple[str, int], restart: bool = False) -> None:
        """A client of another node is gone (``restart``: closed by a server itself, 1012)."""
        rconn = self.remotes.pop(key, None)
        if rconn is not None:
            rconn.closed = True
            rconn.restart = restart
            rconn.inbox.put_nowait(None)

    # ------------------------------------------------------------------ lobby
    async def beat(self) -> None:
        """Keep this node's lobby and who is connected here under their keys, and read the
        other nodes' lobbies."""
        if not self.up:
            self.others = []
            return
        hub = self.cluster.hub
        local = hub.local_lobby()
        ttl = self._ttl()
        online, bots = f"batak:online:{self.node}", f"batak:bots:{self.node}"
        try:
            # readers see old or new; where bot accounts sit is not written by a change meanwhile
            async with self._seats_lock, self._redis.pipeline(transaction=True) as pipe:
                pipe.set(f"batak:lobby:{self.node}", orjson.dumps(local), ex=ttl)
                pipe.delete(online, bots)
                if hub.online:
                    pipe.sadd(online, *hub.online)
                    pipe.expire(online, ttl)
                mine = {b["username"]: orjson.dumps(b) for b in hub.bot_accounts_online()}
                if mine:
                    pipe.hset(bots, mapping=mine)
                    pipe.expire(bots, ttl)
                self._put_bot_seats(pipe)
                self._put_kept(pipe)
                await pipe.execute()
            others = self._other_nodes()
            got = await self._redis.mget([f"batak:lobby:{n}" for n in others]) if others else []
            self.others = [orjson.loads(g) for g in got if g]
        except Exception as e:
            log.warning("node %s: lobby via Redis: %s", self.node, e)
            self.others = []

    def _ttl(self) -> int:
        """Seconds the keys a node renews at each beat outlive it (two leases)."""
        return max(2, int(self.cluster.lease * 2))

    def _put_bot_seats(self, pipe: Any) -> None:
        """Into ``pipe``: where bot accounts sit at this node's tables, in place of the last."""
        key = f"batak:bot_seats:{self.node}"
        pipe.delete(key)
        seats = {pid: orjson.dumps(at) for pid, at in self.cluster.hub.bot_seats().items()}
        if seats:
            pipe.hset(key, mapping=seats)
            pipe.expire(key, self._ttl())

    def _put_kept(self, pipe: Any) -> None:
        """Into ``pipe``: the tables kept aside here to be closed, with the epoch each is held
        at (:meth:`Cluster.kept <batak.server.cluster.owner.Cluster.kept>`), in place of the
        last."""
        key = f"batak:kept:{self.node}"
        pipe.delete(key)
        kept = self.cluster.kept()
        if kept:
            pipe.hset(key, mapping=kept)
            pipe.expire(key, self._ttl())

    def kept_changed(self) -> None:
        """A table was just kept aside here (its close refused): written now, not at the next
        beat, so that a player seated there can delete their account through any node at
        once (:meth:`kept_elsewhere`)."""
        if not self.up:
            return
        self._kept_dirty = True
        self._write_soon()

    async def kept_elsewhere(self) -> dict[str, tuple[str, int]]:
        """The tables the other live nodes keep aside to be closed, each with its node and
        the epoch it is held at (as each node last wrote them: maybe stale, so the reader
        checks each against its owner row)."""
        others = self._other_nodes()
        if not self.up or not others:
            return {}
        return await kept_lists(self._redis, others)

    def bot_seats_changed(self) -> None:
        """A table where a bot account sits started or ended, or a bot account sat or stood
        up here: the other nodes are told now, not at the next beat (a host there would invite
        a bot busy here, or be refused one free again; a bot freed from a room here that comes
        back there would find that room in its ``welcome``, and join it again)."""
        if not self.up:
            return
        self._seats_dirty = True
        self._write_soon()

    def online_changed(self, player: str, username: str | None) -> None:
        """``player`` connected here (their first connection) or their last connection here
        closed: into or out of ``batak:online:NAME`` (and ``username``, a bot account's, into
        or out of ``batak:bots:NAME``) now, not at the next beat. Out: a bot account whose
        program is started again through another node would be refused ``bot_online`` there,
        and a host there would still see it to invite. In: a bot account back on this node
        would be missing from both lists until the beat (a second program of it could log in
        through another node, and no host there could invite it)."""
        if not self.up:
            return
        self._changed_players[player] = username
        self._write_soon()

    def _write_soon(self) -> None:
        if self._seats_writer is None or self._seats_writer.done():
            self._seats_writer = asyncio.get_running_loop().create_task(self._write_changes())

    async def _write_changes(self) -> None:
        """Write what changed (see :meth:`bot_seats_changed`, :meth:`kept_changed` and
        :meth:`online_changed`) until nothing more did; a change from the start of a round on
        (while the round's pipeline is made or executed) is written by the next one."""
        while (self._seats_dirty or self._kept_dirty or self._changed_players) and self.up:
            try:
                async with self._seats_lock, self._redis.pipeline(transaction=True) as pipe:
                    # (under the lock: the beat's rewrite is before or after, never between)
                    seats, self._seats_dirty = self._seats_dirty, False
                    kept, self._kept_dirty = self._kept_dirty, False
                    players, self._changed_players = self._changed_players, {}
                    if seats:
                        self._put_bot_seats(pipe)
                    if kept:
                        self._put_kept(pipe)
                    self._put_players(pipe, players)
                    await pipe.execute()
            except Exception as e:
                log.warning("node %s: who is here, via Redis: %s", self.node, e)
                return  # the next beat writes it all

    async def written(self, timeout: float = 2.0) -> None:
        """Wait until what changed is written (at most ``timeout`` seconds; a write that
        fails is left to the next beat)."""
        task = self._seats_writer
        if task is not None and not task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(task), timeout)

    def _put_players(self, pipe: Any, players: dict[str, str | None]) -> None:
        """Into ``pipe``: each of ``players`` as they are now in the lists of who is connected
        here: in them while connected here (a bot account in ``batak:bots:NAME`` too), out of
        them once not (whatever the change was: one may have come and gone meanwhile)."""
        if not players:
            return
        hub = self.cluster.hub
        online, bots, ttl = f"batak:online:{self.node}", f"batak:bots:{self.node}", self._ttl()
        here = {b["id"]: b for b in hub.bot_accounts_online()}
        come = [pid for pid in players if pid in hub.online]
        gone = [pid for pid in players if pid not in hub.online]
        if come:
            pipe.sadd(online, *come)
            pipe.expire(online, ttl)
        if gone:
            pipe.srem(online, *gone)
        mine = {here[pid]["username"]: orjson.dumps(here[pid]) for pid in come if pid in here}
        if mine:
            pipe.hset(bots, mapping=mine)
            pipe.expire(bots, ttl)
        names = [name for pid, name in players.items() if name and pid not in here]
        if names:
            pipe.hdel(bots, *names)

    def _other_nodes(self) -> list[str]:
        """The other live nodes, as of the last look."""
        return [n for n in self.cluster.alive if n != self.node]

    async def online_elsewhere(self, player: str) -> bool:
        """Whether ``player`` is connected to another live node (its list is written when a
        player connects there or leaves, and again at each of its beats)."""
        others = self._other_nodes()
        if not self.up or not others:
            return False
        async with self._redis.pipeline(transaction=False) as pipe:
            for n in others:
                pipe.sismember(f"batak:online:{n}", player)
            return any(await pipe.execute())

    async def connected_elsewhere(self, players: list[str]) -> list[str]:
        """Those of ``players`` connected to another live node (as :meth:`online_elsewhere`
        says it of one), in their order."""
        others = self._other_nodes()
        if not self.up or not others or not players:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for n in others:
                pipe.smismember(f"batak:online:{n}", players)
            found = await pipe.execute()
        return [p for i, p in enumerate(players) if any(got[i] for got in found)]

    async def bots_elsewhere(self) -> list[dict[str, Any]]:
        """The bot accounts connected to the other live nodes (``id``, ``username``, ``name``)."""
        others = self._other_nodes()
        if not self.up or not others:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for n in others:
                pipe.hvals(f"batak:bots:{n}")
            found = await pipe.execute()
        return [orjson.loads(v) for values in found for v in values]

    async def bot_tables_elsewhere(self, player: str) -> list[tuple[str, str]]:
        """The unfinished tables of the other live nodes where the bot account ``player`` sits,
        each as ``(table id, status)``."""
        others = self._other_nodes()
        if not self.up or not others:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for n in others:
                pipe.hget(f"batak:bot_seats:{n}", player)
            found = await pipe.execute()
        return [(str(t), str(st)) for got in found if got for t, st in orjson.loads(got)]

    def invited(self, player: str, note: dict[str, Any]) -> None:
        """Hand an invitation to ``player``'s connections on the other nodes."""
        self.publish(CLUSTER, {"op": "invited", "node": self.node, "player": player, "note": note})

    def lobby(self, local: dict[str, Any]) -> dict[str, Any]:
        """The lobby of every node: this node's now, the others' as of their last beat."""
        out = {**local, "modes": {m: list(v) for m, v in local["modes"].items()}}
        for other in self.others:
            out["tables_playing"] += int(other.get("tables_playing", 0))
            for mode, lst in other.get("modes", {}).items():
                out["modes"].setdefault(mode, []).extend(lst)
        for lst in out["modes"].values():
            lst.sort(key=lambda s: (s["status"] != "waiting", s["id"]))
            del lst[50:]
        return out


async def kept_lists(redis: Any, nodes: list[str]) -> dict[str, tuple[str, int]]:
    """The tables ``nodes`` keep aside to be closed, as each last wrote them to Redis
    (``batak:kept:NAME``, through the client ``redis``), each with its node and the epoch it
    is held at: for a node's ``delete_account`` (:meth:`Bus.kept_elsewhere`) and for ``batak
    admin erase --redis``. Maybe stale: the erasure checks each against its owner row."""
    if not nodes:
        return {}
    async with redis.pipeline(transaction=False) as pipe:
        for n in nodes:
            pipe.hgetall(f"batak:kept:{n}")
        found = await pipe.execute()
    out: dict[str, tuple[str, int]] = {}
    for node, got in zip(nodes, found, strict=True):
        for t, epoch in got.items():
            # (listed by two: one list is stale, and the later epoch is the likelier)
            if out.get(t.decode(), ("", 0))[1] < int(epoch):
                out[t.decode()] = (node, int(epoch))
    return out
