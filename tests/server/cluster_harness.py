"""Several ``batak serve --node`` processes on one PostgreSQL and one Redis, and clients that
survive a node going away (they reconnect to another node, resync with ``since`` and resend
their unacknowledged moves), for the cluster tests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, free_port, postgres_database
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from batak.server.client import Client, ServerError, TableState, random_move

LEASE = 4.0
FAST = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--quick-fill-seconds",
    "2",
    "--rooms-per-address",
    "100000",
    "--creates-per-address",
    "1000000",
    "--lease-seconds",
    str(LEASE),
    "--log-level",
    "info",
)


def need_services() -> None:
    """Skip when PostgreSQL or redis-server is missing here; under CI (``CI=true``, where
    ``.ci/run`` installs and starts both) a missing one fails the test instead."""
    missing = []
    if not os.environ.get("BATAK_TEST_POSTGRES"):
        missing.append("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    if shutil.which("redis-server") is None:
        missing.append("redis-server is not installed (.ci/run installs Debian's package)")
    if missing and os.environ.get("CI") == "true":
        pytest.fail("; ".join(missing))
    if missing:
        pytest.skip("; ".join(missing))


class Redis:
    """A throwaway redis-server (no persistence) that a test may kill and start again on the
    same port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import redis

        r = redis.Redis(port=self.port)
        for _ in range(100):
            with contextlib.suppress(Exception):
                if r.ping():
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Node(ServerProcess):
    def __init__(
        self,
        folder: Path,
        name: str,
        database: str,
        redis: str,
        lease: float = LEASE,
        extra: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(
            folder, free_port(), "--database", database, "--node", name, "--redis", redis, *FAST,
            "--lease-seconds", str(lease), *extra,
        )  # fmt: skip
        self.name = name
        self.log = folder / "stderr.log"
        self.env = dict(env or {})  # more environment (a test hook: BATAK_TEST_STOP_AT)

    def start(self) -> None:
        """Start and wait for /healthz; what the process writes goes to ``self.log`` (a pipe
        nobody reads would fill up and stop the process)."""
        cmd = [sys.executable, "-m", "batak", "serve", "--port", str(self.port),
               "--data", str(self.data), *self.extra]  # fmt: skip
        with self.log.open("ab") as err:
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, **self.env}
            )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.http}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the node did not start: {self.stderr()[-2000:]}")
            time.sleep(0.05)

    def stderr(self) -> str:
        """What the process wrote so far (every run under this name)."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stopped(self) -> bool:
        """Whether the process is stopped (``SIGSTOP``: by a test hook of the server)."""
        assert self.proc is not None
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] in ("T", "t")

    def wait_stopped(self, timeout: float = 60.0) -> None:
        """Until the process stops itself at its test hook (a hang, not a speed check)."""
        stop = time.monotonic() + timeout
        while not self.stopped():
            assert self.alive and time.monotonic() < stop, f"{self.name} did not stop"
            time.sleep(0.05)

    def pause(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)


@contextlib.contextmanager
def cluster(
    tmp: Path,
    n: int,
    *,
    own_redis: bool = False,
    first: int = 0,
    lease: float = LEASE,
    extra: tuple[str, ...] = (),
    env: dict[str, dict[str, str]] | None = None,
) -> Iterator[tuple[list[Node], Redis, str]]:
    """``n`` nodes named n0, n1, … on a fresh database, and Redis: the one .ci/run started
    (BATAK_TEST_REDIS, its database 0 emptied first), or (``own_redis``, or no such server) a
    redis-server of the test's own, which it may kill and start again. ``lease``: the nodes'
    ``--lease-seconds`` (a long one: a node's beat, and its takeover scan, come seldom);
    ``extra``: more options of ``batak serve`` for every node (such as ``--trick-pause``);
    ``env``: more environment for a node, by its name (a test hook: ``BATAK_TEST_STOP_AT``)."""
    pg = postgres_database()
    assert pg is not None
    with pg as url:
        redis = Redis(tmp)
        shared = os.environ.get("BATAK_TEST_REDIS")
        if shared and not own_redis:
            import redis as redis_py

            redis_py.Redis.from_url(shared).flushdb()
            redis.port = int(shared.rsplit(":", 1)[1].split("/")[0])
        else:
            redis.start()
        names = [f"n{i}" for i in range(first, first + n)]
        nodes = [
            Node(tmp / name, name, url, redis.url, lease, extra, (env or {}).get(name))
            for name in names
        ]
        try:
            for node in nodes:
                node.start()
            settle(nodes)
            yield nodes, redis, url
        except BaseException:
            # what the processes logged besides uvicorn's lines: the cause of a failure is
            # usually there (shown by pytest under "Captured stdout" of the failing test)
            for node in nodes:
                lines = node.stderr().splitlines()
                said = [ln for ln in lines if not ln.startswith("INFO:")]
                print(f"== {node.name}: {len(said)} lines logged", *said[-40:], sep="\n")
            raise
        finally:
            for node in nodes:
                if node.proc is not None and node.proc.poll() is None:
                    with contextlib.suppress(Exception):
                        node.resume()
                node.stop()
            redis.kill()


def settle(nodes: list[Node], timeout: float = 20.0) -> None:
    """Wait until every running node knows every other one is alive."""
    deadline = time.monotonic() + timeout
    running = [n for n in nodes if n.alive]
    for node in running:
        while True:
            with urllib.request.urlopen(f"{node.http}/healthz", timeout=2) as r:
                if json.loads(r.read()).get("nodes", 0) >= len(running):
                    break
            assert time.monotonic() < deadline, f"{node.name} does not see the others"
            time.sleep(0.05)


class Player:
    """A test client that plays its seat at one table through whatever happens to the nodes:
    each move it sees acknowledged is kept (``acked``: move id -> version), and so is every
    event it saw (``seen``: version -> what the event was)."""

    def __init__(
        self, name: str, urls: Callable[[], list[str]], *, ack_in_event: bool = False
    ) -> None:
        self.urls = urls
        self.client = Client(urls()[0], name=name, keep_log=False, ack_in_event=ack_in_event)
        self.kinds: dict[str, int] = {}  # how many messages of each type it got
        self.acked: dict[str, int] = {}
        self.seen: dict[str, dict[int, tuple[Any, ...]]] = {}
        self.reconnects = 0
        self.rng = random.Random()
        self.think = 0.0  # seconds before each move

    def _record(self, table: str, ev: dict[str, Any]) -> None:
        move = ev.get("move")
        if isinstance(move, str) and move.startswith("bury"):
            move = "bury"  # the bidder sees the cards, the others do not
        key = (ev.get("kind"), ev.get("seat"), move)
        got = self.seen.setdefault(table, {}).setdefault(ev["v"], key)
        assert got == key, f"version {ev['v']} seen as {got} and as {key}"

    def watch(self) -> None:
        """Keep every event this client receives (wraps the client's state update)."""
        update = self.client._update

        def wrapped(msg: dict[str, Any]) -> None:
            kind = str(msg.get("type"))
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            if msg.get("type") == "event":
                self._record(msg["table"], msg["event"])
            elif msg.get("type") == "sync":
                for ev in msg.get("events") or []:
                    self._record(msg["table"], ev)
            update(msg)

        self.client._update = wrapped  # type: ignore[method-assign]

    async def connect(self) -> None:
        self.watch()
        await self.client.connect()

    async def reconnect(self, deadline: float = 60.0) -> None:
        """Another node (the first that answers), the same token; catch up, resend."""
        c = self.client
        self.reconnects += 1
        stop = time.monotonic() + deadline
        while time.monotonic() < stop:
            urls = self.urls()
            c.url = urls[self.rng.randrange(len(urls))]
            try:
                await c.drop()
                await asyncio.wait_for(c.connect(), 3)
                for st in list(c.tables.values()):
                    await c.request({"type": "sync", "table": st.id, "since": st.v}, timeout=3)
                for msg in list(c._unacked.values()):
                    try:
                        ack = await c.request(dict(msg), timeout=3)  # ack, or the event
                        self.acked[msg["id"]] = ack["v"]
                    except ServerError:
                        c._unacked.pop(msg["id"], None)
                return
            except (ConnectionError, ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                await asyncio.sleep(0.2)
            except ServerError as e:
                if e.code not in ("storage", "elsewhere", "no_table"):
                    raise
                await asyncio.sleep(0.2)
        raise AssertionError("could not reconnect")

    async def move(self, table: str, move: str) -> None:
        c = self.client
        st = c.tables[table]
        msg: dict[str, Any] = {
            "type": "move",
            "table": table,
            "id": secrets.token_hex(8),
            "v": st.v,
            "move": move,
        }
        c._unacked[msg["id"]] = msg
        try:
            ack = await c.request(msg, timeout=4)  # the ack, or with ack_in_event the event
        except ServerError:
            c._unacked.pop(msg["id"], None)
            raise
        self.acked[msg["id"]] = ack["v"]

    async def play(self, table: str, timeout: float = 180.0) -> TableState:
        c = self.client
        tried = -1

        async def loop() -> TableState:
            nonlocal tried
            while True:
                try:
                    st = c.tables[table]
                    if st.over:
                        return st
                    if c.closed:
                        raise ConnectionError("closed")
                    if st.my_turn and st.state_v != tried:
                        tried = st.state_v
                        assert st.view is not None
                        if self.think:
                            await asyncio.sleep(self.think)
                            st = c.tables[table]
                            if not st.my_turn or st.view is None:
                                continue
                        await self.move(table, random_move(st.view, self.rng))
                        continue
                    await c.next_change(timeout=5)
                except ServerError as e:
                    if e.code not in (
                        "stale", "not_your_turn", "away", "match_over", "storage", "elsewhere",
                        "no_table", "bad_version",
                    ):  # fmt: skip
                        raise
                    if e.code in ("storage", "elsewhere", "no_table", "bad_version"):
                        await self.reconnect()
                        tried = -1
                except (ConnectionError, ConnectionClosed, OSError, TimeoutError):
                    await self.reconnect()
                    tried = -1

        return await asyncio.wait_for(loop(), timeout)


def stored_log(database: str, table: str) -> tuple[list[tuple[int, str, dict[str, Any]]], str]:
    """The table's events as stored (version, kind, data) and its status."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        rows = db.execute(
            "SELECT version, kind, data FROM events WHERE table_id = %s ORDER BY version",
            (table,),
        ).fetchall()
        status = db.execute("SELECT status FROM tables WHERE id = %s", (table,)).fetchone()
    return [(int(v), str(k), json.loads(d)) for v, k, d in rows], str(status[0])


def owner(database: str, table: str) -> tuple[str | None, int]:
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        row = db.execute(
            "SELECT owner, epoch FROM table_owners WHERE table_id = %s", (table,)
        ).fetchone()
    assert row is not None
    return row[0], int(row[1])


def check_log(database: str, table: str, players: list[Player]) -> list[tuple[int, str, Any]]:
    """Every acknowledged move is in the stored log at the version acknowledged, no move id is
    there twice, the versions have no gap, and no two clients saw different events at one
    version."""
    events, _status = stored_log(database, table)
    assert [v for v, _, _ in events] == list(range(1, len(events) + 1))
    ids = [d.get("id") for _, k, d in events if k == "move" and d.get("id")]
    assert len(ids) == len(set(ids)), "a move was applied twice"
    at = {d["id"]: v for v, k, d in events if k == "move" and d.get("id")}
    for p in players:
        for move_id, v in p.acked.items():
            assert at.get(move_id) == v, f"acknowledged move {move_id} (v{v}) is not stored"
    merged: dict[int, tuple[Any, ...]] = {}
    for p in players:
        for v, key in p.seen.get(table, {}).items():
            assert merged.setdefault(v, key) == key, f"two different events at version {v}"
    return events
