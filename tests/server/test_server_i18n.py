"""Error messages are in the connection's language (``hello``'s ``lang``; English before it):
the same refusal gives the same ``code`` and the words in Turkish or English."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from harness import ServerThread, fast_config
from websockets.asyncio.client import connect

from batak.i18n import MESSAGES
from batak.server.client import Client

SERVER_DIR = Path(__file__).resolve().parents[2] / "src" / "batak" / "server"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

#: Raw messages and requests that are refused, with the code they are refused with.
REFUSED: list[tuple[str | bytes | dict[str, Any], str]] = [
    ("not json", "bad_json"),
    (b"\x00binary", "bad_json"),
    ("[" * 1500 + "]" * 1500, "bad_json"),
    ("x" * 5000, "too_big"),
    ("[1]", "bad_message"),
    ('{"type": "move", "table": "x"}', "bad_message"),
    ('{"type": "move", "table": "x", "id": "a", "v": "3", "move": "AS"}', "bad_message"),
    ('{"type": "lobby", "extra": 1}', "bad_message"),
    ('{"type": "hello", "ref": {"a": 1}}', "bad_message"),
    ('{"type": "launch"}', "unknown_type"),
    ({"type": "join"}, "bad_message"),
    ({"type": "join", "table": "nope"}, "no_table"),
    ({"type": "join", "code": "ZZZZZZ"}, "no_table"),
    ({"type": "quick", "mode": "poker"}, "bad_mode"),
    ({"type": "create", "preset": "nope"}, "bad_rules"),
    ({"type": "create", "rules": {"deals": -3}}, "bad_rules"),
    ({"type": "create", "preset": "zipi-kitty", "seat": 3}, "bad_seat"),
    ({"type": "hint", "table": "TABLE"}, "not_started"),
    ({"type": "move", "table": "TABLE", "id": "m", "v": 0, "move": "AS"}, "not_started"),
    ({"type": "chat", "table": "TABLE", "text": "\u0000 "}, "chat_empty"),
    ({"type": "chat", "table": "TABLE", "text": "x" * 300}, "chat_too_long"),
    ({"type": "react", "table": "TABLE", "reaction": "💩"}, "bad_reaction"),
    ({"type": "register", "username": "a b", "password": "12345678"}, "bad_username"),
    ({"type": "register", "username": "ab", "password": "1"}, "weak_password"),
    ({"type": "login", "username": "nobody", "password": "12345678"}, "already_hello"),
]


async def _refusals(c: Client, table: str) -> list[dict[str, Any]]:
    out = []
    for raw, code in REFUSED:
        c.drain()
        if isinstance(raw, dict):
            msg = {k: (table if v == "TABLE" else v) for k, v in raw.items()}
            await c.send(msg)
        else:
            await c.send_raw(raw)
        err = await c.wait_for(lambda m: m.get("type") == "error", 5)
        if err["code"] == "no_accounts" and code in (
            "bad_username",
            "weak_password",
            "already_hello",
        ):
            err = {**err, "code": code, "skip": True}
        assert err["code"] == code, (raw, err)
        out.append(err)
    return out


def test_errors_in_the_connections_language(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            en = Client(srv.url, name="E", lang="en")
            tr = Client(srv.url, name="T", lang="tr")
            for c in (en, tr):
                await c.connect()
            _, table = await en.create(preset="standard", bots=False)
            await tr.join(code=table.info["code"])
            got_en = await _refusals(en, table.id)
            got_tr = await _refusals(tr, table.id)
            for (raw, _), e, t in zip(REFUSED, got_en, got_tr, strict=True):
                assert e["code"] == t["code"]
                assert e["message"] and t["message"]
                if not e.get("skip"):
                    assert e["message"] != t["message"], (raw, e["message"])
            by_code = {t["code"]: t["message"] for t in got_tr}
            assert by_code["no_table"].endswith("bir masa yok")
            # the engine's reason for refusing a table's options is in the reader's language too
            assert "deals pozitif bir tam sayı ya da none (yok) olmalı" in by_code["bad_rules"]
            assert (
                "'id' eksik" in got_tr[5]["message"] and "'id' is missing" in got_en[5]["message"]
            )
            # before hello: English
            async with connect(srv.url) as ws:
                await ws.send('{"type": "move", "table": "x", "id": "a", "v": 0, "move": "AS"}')
                m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert m["code"] == "hello_first" and m["message"].startswith("say hello first")
            for c in (en, tr):
                await c.close()

        asyncio.run(main())


def test_rate_limit_message_in_turkish(tmp_path: Path) -> None:
    config = fast_config(tmp_path, rate_per_second=2.0, rate_burst=3.0, rate_strikes=100)
    with ServerThread(config) as srv:

        async def main() -> None:
            async with connect(srv.url) as ws:
                await ws.send('{"type": "hello", "lang": "tr"}')
                for _ in range(10):
                    await ws.send('{"type": "ping"}')
                messages = []
                for _ in range(11):
                    messages.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
                limited = [m for m in messages if m.get("code") == "rate_limited"]
                assert limited and limited[0]["message"].startswith("çok fazla mesaj")

        asyncio.run(main())


def test_every_server_text_has_both_languages_and_every_used_key_exists() -> None:
    keys = {k[len("server.") :] for k in MESSAGES if k.startswith("server.")}
    for k in keys:
        assert set(MESSAGES[f"server.{k}"]) == {"en", "tr"}
    used: set[str] = set()
    for path in SERVER_DIR.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        for m in re.finditer(r'(?:TableError|ProtocolError)\(\s*"(\w+)"(?:,\s*"(\w+)")?', source):
            used.add(m.group(2) or m.group(1))
        used.update(re.findall(r'"server\.(\w+)"', source))
        used.update(re.findall(r'_rate_limit\(pid, "(\w+)"\)', source))
    assert used - keys == {"illegal"}  # the engine says why a move is illegal (message=)
    # every error code in the protocol's list says its words through one of these keys or is
    # an engine rule (illegal moves, whose reasons the engine gives in both languages)
    listed = re.search(r"## Error codes\n\n(.*?)(\n## |\Z)", DOCS.read_text(), re.S)
    assert listed is not None
    codes = set(re.findall(r"`(\w+)`", listed.group(1))) - {"hello", "login"}
    engine = {"illegal", "not_your_turn"}
    several = {"bad_json", "bad_message", "not_host"}  # said with several keys (see above)
    assert codes - keys - engine - several == set(), codes - keys - engine - several


def test_a_guests_name_is_in_the_language_of_its_hello(tmp_path: Path) -> None:
    """Issue 10 item 18: the English client's guest was called 'Misafir 1234'."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            for lang, word in (("en", "Guest"), ("tr", "Misafir")):
                async with connect(srv.url) as ws:
                    await ws.send(json.dumps({"type": "hello", "lang": lang}))
                    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    assert re.fullmatch(rf"{word} \d{{4}}", welcome["player"]["name"]), welcome
            async with connect(srv.url) as ws:  # a name given is kept as it is
                await ws.send(json.dumps({"type": "hello", "lang": "tr", "name": "Ayşe"}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert welcome["player"]["name"] == "Ayşe"

        asyncio.run(main())
