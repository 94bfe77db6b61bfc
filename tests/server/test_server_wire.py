"""The slim wire: an ``event``'s view leaves out the rules and the score sheet (the sync has
them, each ``deal_over`` brings its row); the Python client puts them back, so its views are
the engine's whole views."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from harness import ServerThread, fast_config

from batak.server.client import Client


def test_event_views_are_slim_and_the_client_completes_them(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            clients = [Client(srv.url, name=f"W{i}", keep_log=True) for i in range(4)]
            for c in clients:
                await c.connect()
            _, table = await clients[0].create(preset="standard", deals=3, bots=False)
            t = table.id
            for c in clients[1:]:
                await c.join(t)
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
