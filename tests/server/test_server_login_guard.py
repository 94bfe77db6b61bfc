"""Logins cannot be brute-forced nor names enumerated: lockouts per account name and per
address that grow, a bounded number of argon2 checks at once, unknown names checked against a
dummy hash, and a registration answer that says no more than needed. Over real sockets."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, advance, fast_config

from batak.server.client import Client, ServerError
from batak.server.clock import ManualClock

pytest.importorskip("argon2")


async def _login(c: Client, username: str, password: str) -> str:
    """The login's answer: ``ok`` or the error code."""
    try:
        await c.request({"type": "login", "username": username, "password": password})
    except ServerError as e:
        return e.code
    return "ok"


def test_wrong_passwords_lock_the_name_then_the_address(tmp_path: Path) -> None:
    clock = ManualClock()
    config = fast_config(
        tmp_path,
        login_failures_free=3,
        login_failures_free_address=8,
        lockout_base=30,
        lockout_cap=120,
    )
    with ServerThread(config, clock=clock) as srv:

        async def main() -> None:
            owner = Client(srv.url, name="Owner")
            await owner.connect()
            await owner.request(
                {"type": "register", "username": "sahip", "password": "dogru-sifre"}
            )
            robber = Client(srv.url, name="R", lang="tr")
            await robber.connect()
            answers = [await _login(robber, "sahip", f"yanlis-{i}") for i in range(4)]
            assert answers == ["bad_login"] * 4
            # locked now: even the right password is refused, with the time to wait
            with pytest.raises(ServerError) as e:
                await robber.request(
                    {"type": "login", "username": "sahip", "password": "dogru-sifre"}
                )
            assert e.value.code == "locked" and e.value.data["retry_after"] == 30
            assert "30" in e.value.message and "sn" in e.value.message
            # a name nobody has is refused and locked in exactly the same way
            answers = [await _login(robber, "kimse-yok", f"x-{i}") for i in range(5)]
            assert answers == ["bad_login"] * 4 + ["locked"]
            assert srv.hub._dummy is not None  # it was checked against a dummy hash
            # the address has failed 8 times: one more, and every name is locked for it
            assert await _login(robber, "baska", "x") == "bad_login"
            assert await _login(robber, "ucuncu", "x") == "locked"
            advance(srv, clock, 31)
            # the locks have passed; the next failure locks for longer (60 s)
            assert await _login(robber, "sahip", "yanlis-yine") == "bad_login"
            with pytest.raises(ServerError) as e:
                await robber.request(
                    {"type": "login", "username": "sahip", "password": "dogru-sifre"}
                )
            assert e.value.code == "locked" and e.value.data["retry_after"] == 60
            advance(srv, clock, 61)
            assert await _login(robber, "sahip", "dogru-sifre") == "ok"
            for c in (owner, robber):
                await c.close()

        asyncio.run(main())


class CountingHasher:
    """Wraps the server's argon2 hasher and records how many of its jobs ran at once."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.now = 0
        self.most = 0
        self.calls = 0
        self.lock = threading.Lock()

    def _count(self, fn: Any, *args: Any) -> Any:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        try:
            return fn(*args)
        finally:
            with self.lock:
                self.now -= 1

    def verify(self, *args: Any) -> Any:
        return self._count(self.inner.verify, *args)

    def hash(self, *args: Any) -> Any:
        return self._count(self.inner.hash, *args)

    def check_needs_rehash(self, digest: str) -> bool:
        return bool(self.inner.check_needs_rehash(digest))


def test_password_checks_are_bounded_and_unknown_names_cost_a_check(tmp_path: Path) -> None:
    config = fast_config(tmp_path, password_checks=2, login_failures_free=1000)
    with ServerThread(config) as srv:

        async def main() -> None:
            owner = Client(srv.url, name="Owner")
            await owner.connect()
            await owner.request(
                {"type": "register", "username": "sahip", "password": "dogru-sifre"}
            )
            counting = CountingHasher(srv.hub._hasher())
            srv.hub._argon = counting
            clients = [Client(srv.url, name=f"L{i}") for i in range(12)]
            for c in clients:
                await c.connect()
            names = ["sahip", "kimse"] * 6
            answers = await asyncio.gather(
                *(_login(c, n, "yanlis-sifre") for c, n in zip(clients, names, strict=True))
            )
            assert answers == ["bad_login"] * 12
            assert counting.most <= 2  # never more than password_checks at once
            # every attempt cost one check, a known name's and an unknown one's alike (the
            # dummy hash of no one's password is made once)
            assert counting.calls == 12 + 1
            for c in [owner, *clients]:
                await c.close()

        asyncio.run(main())


def test_register_says_no_more_than_needed_and_is_rate_limited(tmp_path: Path) -> None:
    config = fast_config(tmp_path, register_per_hour_address=0.001)
    with ServerThread(config) as srv:

        async def main() -> None:
            a = Client(srv.url, name="A")
            await a.connect()
            await a.request({"type": "register", "username": "ayse", "password": "uzun-parola"})
            b = Client(srv.url, name="B", lang="tr")
            await b.connect()
            with pytest.raises(ServerError) as e:
                await b.request({"type": "register", "username": "ayse", "password": "12345678x"})
            assert e.value.code == "username_unavailable"
            assert "ayse" not in e.value.message  # it does not say whose, nor "taken"
            codes = []
            for i in range(6):  # a short password retyped is not counted: nothing was made
                try:
                    await b.request({"type": "register", "username": f"ad{i}x", "password": "1"})
                except ServerError as err:
                    codes.append(err.code)
            assert codes == ["weak_password"] * 6
            for i in range(4):
                try:
                    await b.request(
                        {"type": "register", "username": "ayse", "password": f"uzun-parola-{i}"}
                    )
                except ServerError as err:
                    codes.append(err.code)
            # 5 hashed attempts an address in a burst (A's one counts too): then wait
            assert codes[6:] == ["username_unavailable"] * 3 + ["register_rate"]
            for c in (a, b):
                await c.close()

        asyncio.run(main())
