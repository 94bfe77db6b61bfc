"""Messages that used to silence a connection or raise inside the server (issue 11, items 3, 4
and 11): lone surrogates, numbers JSON cannot carry back, unknown bot levels, and room options
set through ``rules`` beyond ``create``'s limits. Each is refused with ``bad_message`` or
``bad_rules``, with nothing logged as an error, and the connection keeps working; a send that
fails anyway closes the connection so that the client reconnects."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config
from websockets.asyncio.client import ClientConnection, connect


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def errors(self) -> list[str]:
        return [
            r.getMessage()
            for r in self.records
            if r.levelno >= logging.ERROR or r.exc_info is not None
        ]


@pytest.fixture
def server_log() -> Iterator[Records]:
    handler = Records()
    logger = logging.getLogger("batak.server")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


async def ask(
    ws: ClientConnection, raw: str, skip: tuple[str, ...] = ("event", "presence", "sync")
) -> dict[str, Any]:
    """Send raw text, return the first reply that is not of a type in ``skip``."""
    await ws.send(raw)
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if m["type"] not in skip:
            return m


async def pong(ws: ClientConnection) -> None:
    m = await ask(ws, '{"type": "ping", "t": 7}')
    assert m == {"type": "pong", "t": 7}


SURROGATE = json.dumps("\ud800")  # '"\\ud800"': how a script sends one, as JSON escapes allow


def test_surrogates_and_unsendable_numbers_are_bad_message(
    tmp_path: Path, server_log: Records
) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                before_hello = [
                    '{"type": "ping", "t": [1e999, 18446744073709551616]}',
                    '{"type": "ping", "t": 1e999}',
                    '{"type": "ping", "t": {"a": [-1e400]}}',
                    '{"type": "ping", "t": 18446744073709551616}',
                    '{"type": "ping", "t": ' + SURROGATE + "}",
                    '{"type": "ping", "t": {' + SURROGATE + ": 1}}",
                    '{"type": "hello", "token": ' + SURROGATE + "}",
                    '{"type": "hello", "name": "a\\udc00b"}',
                    '{"type": ' + SURROGATE + "}",
                    '{"type": "ping", "ref": ' + SURROGATE + "}",
                ]
                for raw in before_hello:
                    m = await ask(ws, raw)
                    assert m["type"] == "error" and m["code"] == "bad_message", (raw, m)
                    await pong(ws)
                m = await ask(ws, '{"type": "hello", "name": "Ayşe"}')
                assert m["type"] == "welcome"
                after_hello = [
                    '{"type": "register", "username": "ayse", "password": "xxxxxxxx' + '\\ud800"}',
                    '{"type": "register", "username": ' + SURROGATE + ', "password": "x" }',
                    '{"type": "login", "username": "a\\ud800", "password": "xxxxxxxxx"}',
                    '{"type": "join", "table": ' + SURROGATE + "}",
                    '{"type": "join", "code": ' + SURROGATE + "}",
                    '{"type": "sync", "table": "t\\udfff"}',
                    '{"type": "move", "table": "t1", "id": ' + SURROGATE + ', "v": 1,'
                    ' "move": "AS"}',
                    '{"type": "stats", "player": ' + SURROGATE + "}",
                    '{"type": "chat", "table": "t1", "text": "hi \\ud83d"}',
                    '{"type": "create", "rules": {"tie": ' + SURROGATE + "}}",
                    '{"type": "create", "rules": {' + SURROGATE + ": 1}}",
                ]
                for raw in after_hello:
                    m = await ask(ws, raw)
                    assert m["type"] == "error" and m["code"] == "bad_message", (raw, m)
                    await pong(ws)
            assert server_log.errors() == []

        asyncio.run(main())


def test_a_room_never_stores_options_it_could_not_send(tmp_path: Path) -> None:
    """``bot_level`` is one of the levels: a lone surrogate stored there once made every
    message about the room unsendable to everyone who joined or watched it."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                await ask(ws, '{"type": "hello"}')
                m = await ask(ws, '{"type": "create", "bot_level": ' + SURROGATE + "}")
                assert m["code"] == "bad_message"
                m = await ask(ws, '{"type": "create", "bot_level": "grandmaster"}')
                assert m["code"] == "bad_rules" and "easy, medium, hard" in m["message"]
                assert srv.hub.tables == {}
                m = await ask(ws, '{"type": "create", "bot_level": "hard", "bots": true}')
                assert m["type"] == "created"
                table, code = m["table"], m["code"]
                assert srv.hub.tables[table].options["bot_level"] == "hard"
            async with connect(srv.url) as other:
                await ask(other, '{"type": "hello"}')
                m = await ask(other, json.dumps({"type": "join", "code": code}), ("presence",))
                assert m["type"] == "sync" and m["table"] == table

        asyncio.run(main())


ROOM_LIMIT_CASES: list[dict[str, Any]] = [
    {"rules": {"deals": 51}},
    {"rules": {"deals": None, "tie": "shared", "target_score": 10**15}},
    {"rules": {"target_score": 10001}},
    {"deals": 51},
    {"target_score": 10001},
    {"deals": 10**6},
    {"decision_seconds": 4},
    {"decision_seconds": 601},
    {"decision_seconds": 10**9},
]


def test_rules_cannot_bypass_the_room_limits(tmp_path: Path) -> None:
    """One set of limits for a room's options, whether set by ``create``'s own fields or by its
    ``rules`` object."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                await ask(ws, '{"type": "hello"}')
                for fields in ROOM_LIMIT_CASES:
                    m = await ask(ws, json.dumps({"type": "create", **fields}))
                    assert m["type"] == "error" and m["code"] == "bad_rules", (fields, m)
                    assert "must be from" in m["message"], m
                # a number JSON readers cannot hold exactly is refused before anything else
                m = await ask(ws, json.dumps({"type": "create", "rules": {"deals": 10**300}}))
                assert m["code"] == "bad_message"
                assert srv.hub.tables == {}
                for fields in (
                    {"rules": {"deals": 50}},
                    {"rules": {"deals": None, "tie": "shared", "target_score": 10000}},
                    {"deals": 1, "decision_seconds": 600},
                ):
                    m = await ask(ws, json.dumps({"type": "create", **fields}))
                    assert m["type"] == "created", (fields, m)
                    await ask(ws, json.dumps({"type": "leave", "table": m["table"]}))

        asyncio.run(main())


def test_a_send_that_fails_closes_the_connection(tmp_path: Path) -> None:
    """Should a message ever be unsendable, the connection is closed (the client reconnects
    and resyncs) rather than left open and silent."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                await ask(ws, '{"type": "hello"}')
                m = await ask(ws, '{"type": "create"}', ("created", "presence", "event"))
                assert m["type"] == "sync"  # seated: the table's notices reach this connection
                table = srv.hub.tables[m["table"]]

                async def notice() -> None:
                    table.notice({"type": "presence", "table": table.id, "note": "\ud800"})

                srv.call(notice)
                with pytest.raises(Exception) as e:  # the socket ends
                    for _ in range(50):
                        await asyncio.wait_for(ws.recv(), 10)
                assert "1011" in str(e.value) or ws.close_code == 1011, e.value

        asyncio.run(main())
