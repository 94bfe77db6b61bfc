"""Run a real server (uvicorn, real sockets) in a thread or a subprocess for the tests."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import uvicorn

from batak.server.app import create_app
from batak.server.client import Client
from batak.server.clock import Clock
from batak.server.config import ServerConfig
from batak.server.hub import Hub
from batak.server.serve import websocket_protocol


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fast_config(data: Path, **changes: Any) -> ServerConfig:
    """Short times so that tests run quickly."""
    base = ServerConfig(
        port=free_port(),
        data=data,
        bot_delay=0.0,
        deal_pause=0.0,
        trick_pause=0.0,
        quick_fill_seconds=0.2,
        hold_seconds=30.0,
        linger_seconds=600.0,
        rate_per_second=1000.0,
        rate_burst=1000.0,
        # every test client comes from 127.0.0.1: the per-address limits would join them all
        # (the tests of those limits set them); the per-player ones stay as they are
        rooms_per_address=100_000,
        create_per_minute_address=1e9,
        create_burst_address=1e9,
        create_per_minute=1e9,
        create_burst=1e9,
        code_failures_free_address=100_000,
        login_failures_free_address=100_000,
        register_per_hour_address=1e12,
        # the server's 50 ms would make a test's bots, which play at once, wait for most
        # commits; the gap's own tests (test_server_commit_gap.py) set theirs
        commit_gap=0.005,
    )
    return replace(base, **changes)


class ServerThread:
    """uvicorn serving the app in a background thread with its own event loop."""

    def __init__(
        self,
        config: ServerConfig,
        clock: Clock | None = None,
        wall: Any = None,
        *,
        deflate: bool = False,
        ping_interval: float = 20.0,
        ping_timeout: float = 20.0,
    ) -> None:
        self.config = config
        self.app = create_app(config, clock=clock, wall=wall)
        self.hub: Hub = self.app.state.hub
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host=config.host,
                port=config.port,
                ws=websocket_protocol(),
                ws_max_size=config.transport_max_bytes,
                ws_per_message_deflate=deflate,  # off, as in batak serve, unless asked
                ws_ping_interval=ping_interval,  # uvicorn's defaults, as in batak serve
                ws_ping_timeout=ping_timeout,
                log_level="warning",
                lifespan="on",
            )
        )
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.config.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.config.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    def call(self, fn: Any) -> Any:
        """Run ``fn()`` (a coroutine function) inside the server's loop and return its result."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(fn(), self.loop).result(20)

    def give_chips(self, player_id: str, n: int) -> None:
        """``n`` more chips for a player, from the ledger's one source (as a daily grant is):
        a player richer than one day's grant, without playing for it."""
        import secrets

        from batak.server.chips import GRANT, player_account, post

        storage = self.hub.storage
        legs = [(GRANT, -n), (player_account(player_id), n)]
        txn = f"test:{secrets.token_hex(6)}"

        async def job() -> None:
            await storage.run(lambda cur: post(cur, storage.q, txn, "grant", None, legs))

        self.call(job)


class ServerProcess:
    """``batak serve`` in a subprocess (so that it can be killed)."""

    def __init__(self, data: Path, port: int, *extra: str) -> None:
        self.data = data
        self.port = port
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "batak",
            "serve",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            *self.extra,
        ]
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ)
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{self.port}/healthz", timeout=1
                ) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server did not start: {err}")
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def advance(srv: ServerThread, clock: Any, seconds: float) -> None:
    """Move a :class:`ManualClock` on, inside the server's loop."""

    async def step() -> None:
        clock.advance(seconds)
        await asyncio.sleep(0)

    srv.call(step)


async def advance_async(srv: ServerThread, clock: Any, seconds: float) -> None:
    await asyncio.get_running_loop().run_in_executor(None, advance, srv, clock, seconds)


def postgres_database() -> Any:
    """A fresh PostgreSQL database on the server named by BATAK_TEST_POSTGRES (a context
    manager yielding its URL), or None when that variable is not set."""
    import contextlib
    import secrets

    base = os.environ.get("BATAK_TEST_POSTGRES")
    if not base:
        return None
    import psycopg

    @contextlib.contextmanager
    def database() -> Any:
        name = "batak_" + secrets.token_hex(6)
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        root, _, _ = base.rpartition("/")
        try:
            yield f"{root}/{name}"
        finally:
            with psycopg.connect(base, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    return database()


async def room(
    srv: ServerThread,
    *,
    langs: Sequence[str] = ("en",) * 4,
    ack_in_event: bool = False,
    **options: Any,
) -> tuple[list[Client], str]:
    """A private room of four connected clients (no bots), started, every client with a view.
    ``options`` go to ``create`` (e.g. ``preset``, ``deals``); ``langs``: each client's language;
    ``ack_in_event``: the clients say so in ``hello``."""
    clients = [
        Client(srv.url, name=f"P{i}", lang=lang, ack_in_event=ack_in_event)
        for i, lang in enumerate(langs)
    ]
    for c in clients:
        await c.connect()
    _, table = await clients[0].create(bots=False, **options)
    for c in clients[1:]:
        await c.join(code=table.info["code"])
    await clients[0].start(table.id)
    for c in clients:
        await c.until(lambda c=c: c.tables[table.id].view is not None)
    return clients, table.id


async def invite_when_online(host: Any, table: str, username: str) -> None:
    """``host`` invites ``username`` to ``table`` once that account is online (a bot account
    logs in, or registers the first time, after its program starts)."""
    from batak.server.client import ServerError

    for _ in range(200):
        try:
            await host.invite(table, username)
            return
        except ServerError as e:
            assert e.code == "not_online"
            await asyncio.sleep(0.05)
    raise AssertionError(f"{username} never came online")
