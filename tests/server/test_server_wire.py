"""The slim wire: an ``event``'s view leaves out the rules and the score sheet (the sync has
them, each ``deal_over`` brings its row); the Python client puts them back, so its views are
the engine's whole views."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from harness import ServerThread, fast_config

from batak.match import Match
from batak.rules import PRESETS
from batak.server.client import Client
from batak.server.table import slim_views


def test_event_views_are_slim_and_the_client_completes_them(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            clients = [Client(srv.url, name=f"W{i}", keep_log=True) for i in range(4)]
            for c in clients:
                await c.connect()
            _, table = await clients[0].create(preset="standard", deals=3, bots=False)
            t = table.id
            for c in clients[1:]:
                await c.join(code=table.info["code"])
            await clients[0].start(t)
            rng = random.Random(5)
            checked = 0

            def pick(c: Client) -> object:
                def choose(view: dict[str, object]) -> str:
                    nonlocal checked
                    seat = c.tables[t].seat
                    server_view = srv.hub.tables[t].view(seat)
                    if server_view is not None and server_view["version"] == view["version"]:
                        assert view == server_view  # the completed view is the whole view
                        checked += 1
                    return str(rng.choice(view["legal_moves"]))  # type: ignore[call-overload]

                return choose

            finals = await asyncio.gather(*(c.play(t, pick(c), timeout=90) for c in clients))  # type: ignore[arg-type]
            assert all(f.over for f in finals) and checked > 20
            table_obj = srv.hub.tables[t]
            for c, f in zip(clients, finals, strict=True):
                assert f.view == table_obj.view(f.seat)
                assert len(f.sheet) >= 3 and f.sheet == f.view["match"]["sheet"]  # type: ignore[index]
                slim = whole = 0
                for text in c.log:
                    msg = json.loads(text)
                    if msg.get("type") == "event" and "view" in msg:
                        assert "rules" not in msg["view"] and "sheet" not in msg["view"]["match"]
                        slim += 1
                    elif msg.get("type") == "sync" and msg.get("view"):
                        assert "rules" in msg["view"] and "sheet" in msg["view"]["match"]
                        whole += 1
                assert slim > 100
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_slim_views_are_the_engine_views_without_rules_and_sheet() -> None:
    """The server builds each seat's event view from one spectator's view plus the seat's own
    parts; in every preset, at every step of whole matches, that is exactly the engine's."""
    rng = random.Random(11)
    for preset in PRESETS:
        match = Match(preset, seed=rng.randrange(1000))
        n = match.rules.players
        steps = 0
        while not match.over and steps < 400:
            seats: set[int | None] = {None, *range(n)}
            slim = slim_views(match, seats)
            for seat in seats:
                whole = match.view(seat)
                del whole["rules"]
                del whole["match"]["sheet"]
                assert slim[seat] == whole, (preset, seat, steps)
            seat = match.to_move
            assert seat is not None
            match.play(rng.choice(match.view(seat)["legal_moves"]), seat)
            steps += 1


def test_event_texts_are_the_event_messages_each_seat_would_get() -> None:
    """An event's text for each seat, made from one encoding of what the seats share plus the
    seat's own parts, is the JSON of the whole message: the event as that seat may see it
    (a buried card hidden, the mover's own move id), the clock, the status and its slim view,
    in every preset, at every step (spectators too)."""
    from batak.server.clock import SystemClock
    from batak.server.config import ServerConfig
    from batak.server.storage import TableRow
    from batak.server.table import Table

    rng = random.Random(5)
    for preset in PRESETS:
        rules = PRESETS[preset]
        row = TableRow("t1", "CODE2345", "private", None, rules.to_dict(), 7, 0, {}, "p0",
                       "playing", 0.0)  # fmt: skip
        table = Table(None, row, config=ServerConfig(), clock=SystemClock(), storage=None)  # type: ignore[arg-type]
        match = table.match = Match(preset, seed=rng.randrange(1000))
        table.status = "playing"
        n = match.rules.players
        version = steps = 0
        while not match.over and steps < 400:
            seat = match.to_move
            assert seat is not None
            move = rng.choice(match.view(seat)["legal_moves"])
            match.play(move, seat)
            steps += 1
            version += 1
            ev = {"kind": "move", "seat": seat, "move": move, "by": "player", "id": f"m{steps}"}
            seats: set[int | None] = {None, *range(n)}
            texts = table.event_texts(version, "move", ev, seats)
            views = slim_views(match, seats)
            for s in seats:
                want = {
                    "type": "event",
                    "table": "t1",
                    "v": version,
                    "event": table.public_event(version, ev, s),
                    "clock": table.clock_info(),
                    "view": views[s],
                    "status": "playing",
                }
                assert json.loads(texts[s]) == want, (preset, s, steps)
            chat = table.event_texts(version, "chat", {"kind": "chat", "text": "x"}, {0})
            assert "view" not in json.loads(chat[0])
