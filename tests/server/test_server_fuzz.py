"""A protocol fuzzer against the real server (issue 11, "keep it held").

Hypothesis makes sequences of client messages of every type, with fields of the right kind and
of every wrong one: wrong types, huge and non-finite numbers, odd Unicode (lone surrogates,
control and right-to-left characters, emoji), missing and extra fields, messages before
``hello`` and in any order, aimed at a started table, a waiting room and tables that do not
exist. Each goes over a real websocket to a :class:`ServerThread`. The server must answer every
message with a documented message type or a documented error code (``docs/protocol.md``), never
``internal``; log no error and no traceback (the ``batak.server`` logger is captured); and keep
the connection working (a ``ping`` after each message is answered).

The default run is a fixed number of examples (well under a minute); ``pytest -m slow`` runs
the long one (``BATAK_FUZZ_EXAMPLES`` sets its size).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect

from batak.server.client import Client
from batak.server.config import MODES
from batak.server.protocol import CLIENT_TYPES, REACTIONS, Field

DOCS = Path(__file__).parents[2] / "docs" / "protocol.md"


def documented_codes() -> set[str]:
    found = re.search(r"## Error codes\n\n(.*?)(\n## |\Z)", DOCS.read_text(), re.S)
    assert found is not None
    return set(re.findall(r"`(\w+)`", found.group(1)))


CODES = documented_codes() - {"internal"}
#: The server's message types (docs/protocol.md, "Server → client").
REPLIES = {
    "rematch",
    "welcome",
    "tourney",
    "tourneys",
    "tourney_table",
    "story",
    "logged_out",
    "password_changed",
    "invited",
    "invitable",
    "sync",
    "event",
    "ack",
    "hint",
    "review",
    "presence",
    "watchers",
    "reaction",
    "pong",
    "ok",
    "created",
    "lobby",
    "mytables",
    "my_matches",
    "stats",
    "leaderboard",
    "account",
    "awarded",
    "progress",
    "ratings",
    "league",
    "error",
    "wallet",  # chips (issue 12)
    "chip_leaderboard",
    "payout",
}


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info or "send failed" in record.msg:
            self.bad.append(self.format(record))


class Target:
    """The running server, a player seated at a started table and a room still waiting."""

    def __init__(self, srv: ServerThread, token: str, started: str, waiting: str) -> None:
        self.srv = srv
        self.token = token
        self.started = started
        self.waiting = waiting
        self.log = Records()
        self.pings = itertools.count()


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    config = fast_config(
        tmp_path_factory.mktemp("fuzz"),
        quick_fill_seconds=3600.0,  # quick tables never fill with bots: no matches in the way
        bot_delay=0.05,
        hold_seconds=3600.0,
    )
    with ServerThread(config) as srv:

        async def setup() -> tuple[Client, str, str]:
            owner = Client(srv.url, name="Fuzz")
            await owner.connect()
            _, started = await owner.create(deals=1, bots=True)
            await owner.start(started.id)
            await owner.until(lambda: owner.tables[started.id].view is not None)
            _, waiting = await owner.create(deals=1, bots=False)
            return owner, started.id, waiting.id

        loop = asyncio.new_event_loop()
        owner, started, waiting = loop.run_until_complete(setup())
        t = Target(srv, owner.token or "", started, waiting)
        logger = logging.getLogger("batak.server")
        logger.addHandler(t.log)
        try:
            yield t
        finally:
            logger.removeHandler(t.log)
            loop.run_until_complete(owner.close())
            loop.close()


# ---------------------------------------------------------------------- values
ODD_TEXT = st.sampled_from(
    [
        "\ud800",
        "a\udfffb",
        "\ud83d",
        "\x00",
        "\u202eevil",
        "\ufeff",
        "𝔹𝕒𝕥𝕒𝕜",
        "👍🏽",
        "ı̇İ",
        "' OR 1=1 --",
        "<script>alert(1)</script>",
        "../../etc/passwd",
        "%s%n",
        " ",
        "",
        "x" * 300,
    ]
)
HUGE = st.sampled_from([2**53, 2**53 + 1, -(2**53) - 1, 2**64, 10**30, -1, 0])
NONFINITE = st.sampled_from(["1e999", "-1e999", "1e400"])  # raw JSON: read as infinities
SCALAR: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    HUGE,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    ODD_TEXT,
)
ANY: st.SearchStrategy[Any] = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

MOVES = st.sampled_from(["pass", "bid 4", "bid 7", "bid 13", "trump H", "bury AS", "AS", "10h"])
RULE_KEYS = st.sampled_from(
    ["deals", "target_score", "tie", "players", "hand_size", "min_bid", "fixed_trump", "name"]
)


def good_value(name: str, f: Field, t: Target) -> st.SearchStrategy[Any]:
    """Values of the right kind, leaning to ones that reach deep into the server."""
    if name == "table":
        return st.sampled_from([t.started, t.waiting, "t000000000000", "nope"])
    if name == "token":
        return st.sampled_from([t.token, "forged-token"])
    if name == "mode":
        return st.sampled_from([*MODES, "poker"])
    if name == "move":
        return MOVES
    if name == "reaction":
        return st.sampled_from([*REACTIONS, "💣"])
    if name == "preset":
        return st.sampled_from(["standard", "zipi-kitty", "cetinsgame-esli", "chess"])
    if name == "bot_level":
        return st.sampled_from(["easy", "medium", "hard", "random", "grandmaster"])
    if name == "lang":
        return st.sampled_from(["en", "tr", "de", "tr-TR"])
    if name == "rules":
        return st.dictionaries(RULE_KEYS, SCALAR, max_size=3)
    if name == "t":
        return ANY
    if f.kind == "str":
        return st.text(min_size=1, max_size=f.max_len)
    if f.kind in ("int", "seat"):
        return st.integers(min_value=f.low, max_value=min(f.high, 10**6))
    if f.kind == "bool":
        return st.booleans()
    return ANY


def value(name: str, f: Field, t: Target) -> st.SearchStrategy[Any]:
    return st.one_of(good_value(name, f, t), good_value(name, f, t), SCALAR, ODD_TEXT, ANY)


@st.composite
def message(draw: st.DrawFn, t: Target) -> str:
    kind = draw(st.sampled_from([*CLIENT_TYPES, "launch", ""]))
    spec = CLIENT_TYPES.get(kind, {})
    msg: dict[str, Any] = {"type": kind}
    for name, f in spec.items():
        present = draw(
            st.sampled_from(["yes", "yes", "yes", "no"] if f.required else ["yes", "no"])
        )
        if present == "yes":
            msg[name] = draw(value(name, f, t))
    if draw(st.integers(0, 9)) == 0:
        msg[draw(st.text(min_size=1, max_size=8))] = draw(SCALAR)
    if draw(st.booleans()):
        msg["ref"] = draw(st.one_of(st.integers(-(2**60), 2**60), st.text(max_size=70), ANY))
    text = json.dumps(msg)  # non-ASCII and lone surrogates as \u escapes, as any client may
    if draw(st.integers(0, 9)) == 0:  # a number JSON reads as infinity, somewhere
        text = text.replace("0", draw(NONFINITE), 1) if "0" in text else text
    return text


async def exchange(ws: ClientConnection, raw: str, t: Target) -> list[dict[str, Any]]:
    """Send ``raw``, then a ping; return what came back before the pong. A message that goes
    through a table's queue (a move, a hint) may be answered after the ping, which the server
    answers at once: with nothing before the pong, the first message after it is the answer
    (none within 30 s: an empty list, which :func:`check` refuses)."""
    n = next(t.pings)
    await ws.send(raw)
    await ws.send(json.dumps({"type": "ping", "t": f"fuzz-{n}"}))
    got: list[dict[str, Any]] = []
    ponged = False
    while True:
        try:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
        except TimeoutError:
            if ponged:
                return got
            raise
        if m.get("type") == "pong" and m.get("t") == f"fuzz-{n}":
            if got:
                return got
            ponged = True
            continue
        got.append(m)
        if ponged:
            return got


def check(raw: str, replies: list[dict[str, Any]]) -> None:
    assert replies, f"no answer to {raw[:200]}"
    for m in replies:
        assert m.get("type") in REPLIES, (raw[:200], m)
        if m["type"] == "error":
            assert m.get("code") in CODES, (raw[:200], m)
            assert isinstance(m.get("message"), str) and m["message"], (raw[:200], m)


def run(t: Target, hello: str, messages: list[str]) -> None:
    t.log.bad.clear()  # what this example made the server log

    async def main() -> None:
        async with connect(t.srv.url, max_size=2**22) as ws:
            if hello != "none":
                token = {"guest": None, "owner": t.token, "forged": "forged"}[hello]
                replies = await exchange(ws, json.dumps({"type": "hello", "token": token}), t)
                assert replies and replies[0]["type"] == "welcome", replies
            for raw in messages:
                check(raw, await exchange(ws, raw, t))

    asyncio.run(main())
    assert t.log.bad == [], t.log.bad


def fuzz(t: Target, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        hello=st.sampled_from(["none", "guest", "owner", "owner", "forged"]),
        messages=st.lists(message(t), min_size=1, max_size=6),
    )
    def one(hello: str, messages: list[str]) -> None:
        run(t, hello, messages)

    one()


def test_fuzzed_messages_get_documented_answers_and_the_connection_lives(target: Target) -> None:
    fuzz(target, 120)


def test_a_move_answered_after_the_ping_still_counts_as_its_answer(target: Target) -> None:
    """An example the fuzzer once found: a guest's move at a table it does not sit at goes
    through the table's queue, and its refusal (``not_seated``) comes after the pong."""
    move = {"type": "move", "table": target.waiting, "id": "0", "v": 0, "move": "pass"}
    run(target, "guest", [json.dumps(move)])


@pytest.mark.slow
def test_fuzzed_messages_long_run(target: Target) -> None:
    fuzz(target, int(os.environ.get("BATAK_FUZZ_EXAMPLES", "3000")))


def test_the_fuzzer_knows_every_message_type_and_the_error_list() -> None:
    """If the protocol grows a message type or an error code, the fuzzer covers it: it takes
    both from the protocol module and the protocol's documentation."""
    assert {"hello", "move", "create", "register"} <= set(CLIENT_TYPES)
    assert {"bad_message", "bad_json", "stale", "bad_rules"} <= CODES
    assert "internal" not in CODES
