"""Property: no message the server sends to a seat ever holds a card hidden from that seat.

Whole matches in every preset, played over real websockets by random clients and watched by a
spectator, with drops, reconnects, catch-ups and full resyncs along the way. Afterwards the
stored event log is replayed through the engine, and every message each client received is
checked against what its seat could know at that version: the other seats' hands (the exposed
partner's excepted), the kitty before it is taken, and the buried cards (the bidder's secret).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from harness import ServerThread, fast_config

from batak.game import Phase
from batak.match import Match
from batak.rules import PRESETS, Rules
from batak.server import fair
from batak.server.client import Client

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC])(?![A-Za-z0-9])")
Hidden = dict[int, dict[int | None, frozenset[str]]]  # deal -> seat -> cards


def _hidden(match: Match, index: int) -> dict[int | None, frozenset[str]]:
    game = match.games[index]
    n = game.players
    exposed = game.exposed_seat
    contract = game.contract
    out: dict[int | None, frozenset[str]] = {}
    for seat in [*range(n), None]:
        cards: set[str] = set()
        for other in range(n):
            if other != seat and other != exposed:
                cards |= {str(c) for c in game.hand(other)}
        if game.rules.kitty_size and (contract is None or game.phase is Phase.BIDDING):
            cards |= {str(c) for c in game.initial_kitty}
        if contract is not None and seat != contract.bidder:
            cards |= {str(c) for c in game.buried}
        out[seat] = frozenset(cards)
    return out


def _replay(db: Path, table: str) -> tuple[dict[int, Hidden], int]:
    con = sqlite3.connect(db)
    rules, seed, dealer = con.execute(
        "SELECT rules, seed, dealer FROM tables WHERE id = ?", (table,)
    ).fetchone()
    events = con.execute(
        "SELECT version, kind, data FROM events WHERE table_id = ? ORDER BY version", (table,)
    ).fetchall()
    con.close()
    match: Match | None = None
    states: dict[int, Hidden] = {}
    for version, kind, data in events:
        d = json.loads(data)
        if kind == "start":
            # the start event names the first dealer (Rules.first_dealer); else the table's lots
            first = d.get("dealer", dealer)
            # a table started with verifiable deals deals each from its own seed (server/fair.py)
            deal_seed = None
            if d.get("fair"):
                secret = int(seed)
                deal_seed = lambda k, secret=secret: fair.deal_seed(secret, table, k)  # noqa: E731
            match = Match(
                Rules.from_dict(json.loads(rules)),
                seed=int(seed),
                dealer=first,
                deal_seed=deal_seed,
            )
        elif kind == "move":
            assert match is not None
            match.play(d["move"], d["seat"])
        if match is not None:
            last = len(match.games) - 1
            states[version] = {i + 1: _hidden(match, i) for i in range(max(0, last - 1), last + 1)}
        else:
            states[version] = {}
    return states, len(events)


def _cards(part: Any) -> set[str]:
    return set(CARD.findall(json.dumps(part, ensure_ascii=False)))


def _check_log(client: Client, seat: int | None, table: str, states: dict[int, Hidden]) -> int:
    """Check every message this client received; returns how many card-bearing parts it saw."""
    checked = 0
    current = 0
    for text in client.log:
        msg = json.loads(text)
        if msg.get("table") not in (None, table):
            continue
        msg.pop("token", None)
        if msg.get("type") in ("sync", "event"):
            current = msg["v"]
        state = states.get(current, {})

        def check(part: Any, hidden: frozenset[str], what: str, msg: dict[str, Any] = msg) -> None:
            leaked = _cards(part) & hidden
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} in {what}: {msg}"

        newest = max(state) if state else None
        view = msg.pop("view", None)
        if view is not None:
            deal = view["match"]["deal"]
            check(view, state[deal][seat], f"the view (v{current})")
            checked += 1
        events = msg.pop("events", None) or []
        if "event" in msg:
            events.append(msg.pop("event"))
        for ev in events:
            ev_state = states[ev["v"]]
            deal = (
                ev.get("deal") or (ev.get("deal_over") or {}).get("deal") or max(ev_state or {0: 0})
            )
            if deal in ev_state:
                check(ev, ev_state[deal][seat], f"event v{ev['v']}")
                checked += 1
        if newest is not None:
            check(msg, state[newest][seat], "the message")
    return checked


async def _play_one(srv: ServerThread, preset: str, rng: random.Random) -> tuple[str, list[Any]]:
    rules = PRESETS[preset]
    n = rules.players
    clients = [Client(srv.url, name=f"{preset[:6]}{i}", keep_log=True) for i in range(n)]
    for c in clients:
        await c.connect()
    _, table = await clients[0].create(preset=preset, deals=1, bots=False)
    t = table.id
    for c in clients[1:]:
        await c.join(code=table.info["code"])
    watcher = Client(srv.url, name="watch", keep_log=True)
    await watcher.connect()
    await watcher.join(code=table.info["code"], spectate=True)
    await clients[0].start(t)

    async def player(c: Client) -> None:
        drops = sorted(rng.sample(range(5, 60), 2))
        while True:
            st = c.tables[t]
            stop_at = drops[0] if drops else None
            st = await c.play(
                t,
                lambda view: rng.choice(view["legal_moves"]),
                timeout=90,
                stop=(lambda s, a=stop_at: a is not None and s.v >= a),  # type: ignore[misc]
            )
            if st.over:
                return
            drops.pop(0)
            mode = rng.choice(["since", "full", "zero"])
            await c.drop()
            await c.connect()
            await c.sync(t, since={"since": st.v, "full": None, "zero": 0}[mode])

    async def spectator() -> None:
        for _ in range(3):
            await asyncio.sleep(rng.random() * 0.05)
            v = watcher.tables[t].v
            await watcher.drop()
            await watcher.connect()
            await watcher.join(t, spectate=True, since=rng.choice([v, 0, None]))
        await watcher.until(lambda: watcher.tables[t].over, 90)

    await asyncio.gather(*(player(c) for c in clients), spectator())
    for c in [*clients, watcher]:
        await c.close()
    return t, [(c, c.tables[t].seat) for c in clients] + [(watcher, None)]


def test_no_message_to_a_seat_holds_a_card_hidden_from_it(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> list[tuple[str, str, list[Any]]]:
            rng = random.Random(20240607)
            presets = list(PRESETS)
            results = await asyncio.gather(
                *(_play_one(srv, p, random.Random(rng.random())) for p in presets)
            )
            return [(p, t, who) for p, (t, who) in zip(presets, results, strict=True)]

        played = asyncio.run(main())
        db = tmp_path / "batak.sqlite3"
        for preset, table, who in played:
            states, count = _replay(db, table)
            assert count > 50, preset
            for client, seat in who:
                assert client.tables[table].over, preset
                checked = _check_log(client, seat, table, states)
                assert checked > 40, (preset, seat, checked)


def test_the_checker_catches_a_leak() -> None:
    """The check above is not vacuous: a hand of another seat in a message is caught."""
    match = Match("standard", seed=1)
    hidden = {1: _hidden(match, 0)}
    other = [str(c) for c in match.games[0].hand(1)]
    client = Client("ws://unused", keep_log=True)
    client.log.append(json.dumps({"type": "sync", "table": "t", "v": 1, "view": match.view(0)}))
    assert _check_log(client, 0, "t", {1: hidden}) == 1
    leaky = match.view(0)
    leaky["hand"] = leaky["hand"] + other[:1]
    client.log.append(
        json.dumps(
            {"type": "event", "table": "t", "v": 1, "view": leaky, "event": {"kind": "x", "v": 1}}
        )
    )
    try:
        _check_log(client, 0, "t", {1: hidden})
    except AssertionError as e:
        assert other[0] in str(e)
    else:
        raise AssertionError("a leak was not caught")
