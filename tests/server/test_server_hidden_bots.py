"""A table may hide its bots (RULES.md has no rule on it; Batak Sultan's guide, seeds/000: "to keep
the atmosphere of the table, bots are not individually labelled"): nothing a client receives
tells a bot from a person, while a table that shows them labels them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from harness import ServerThread, fast_config

from batak.server.client import Client
from batak.server.table import BOT_NAMES


def _play(tmp_path: Path, show_bots: bool) -> tuple[list[str], dict[str, object]]:
    with ServerThread(fast_config(tmp_path, hold_seconds=0.3)) as srv:
        texts: list[str] = []

        async def main() -> dict[str, object]:
            async with Client(srv.url, name="Ayşe", keep_log=True) as c:
                created, table = await c.create(preset="standard", deals=1, show_bots=show_bots)
                # a person who leaves is played by a bot: that must not show either
                gizem = Client(srv.url, name="Gizem")
                await gizem.connect()
                await gizem.join(code=created["code"])
                await c.start(table.id)
                await gizem.close()
                async with Client(srv.url, name="Can", keep_log=True) as watcher:
                    await watcher.join(code=created["code"], spectate=True)
                    final = await c.play(table.id, timeout=120)
                    texts.extend(watcher.log)
                texts.extend(c.log)
                return final.info

        info = asyncio.run(main())
        return texts, info


def test_a_table_that_hides_its_bots_sends_nothing_that_tells_them_apart(
    tmp_path: Path,
) -> None:
    texts, info = _play(tmp_path, show_bots=False)
    seats = info["seats"]
    assert isinstance(seats, list)
    names = [s["name"] for s in seats]
    assert names[:2] == ["Ayşe", "Gizem"]
    assert all(n in BOT_NAMES for n in names[2:]), names
    for text in texts:
        msg = json.loads(text)
        for s in msg.get("seats") or (msg.get("table_info") or {}).get("seats") or []:
            assert s["bot"] is None and s["away"] is False and s["player"] is None, s
            assert s["level"] is None, s  # people have levels, bots none: not shown here
        events = [msg["event"]] if msg.get("type") == "event" else msg.get("events") or []
        for ev in events:
            assert ev["kind"] not in ("away", "back"), ev
            assert "bot" not in ev and ev.get("by") in (None, "timeout"), ev
            assert "level" not in ev, ev
            assert "Bot " not in json.dumps(ev, ensure_ascii=False)


def test_a_table_that_shows_its_bots_labels_them(tmp_path: Path) -> None:
    _, info = _play(tmp_path, show_bots=True)
    seats = info["seats"]
    assert isinstance(seats, list)
    assert [bool(s["bot"]) for s in seats] == [False, False, True, True]
    assert [s["name"] for s in seats] == ["Ayşe", "Gizem", "Bot 3", "Bot 4"]
    assert seats[1]["away"] is True  # Gizem left: a bot plays her seat, and it says so
    assert seats[0]["host"] is True
    assert [s["level"] for s in seats] == [1, 1, None, None]  # people's levels, no bot's


def test_a_bots_clock_runs_like_a_persons_at_a_table_that_hides_its_bots(
    tmp_path: Path,
) -> None:
    """Whose decision it is, a person's or a bot's, the clock says the same: running, with time
    left (a stopped clock was how to tell a bot's turn from a person's); and a move event has
    the same fields whoever made it."""
    texts, _ = _play(tmp_path, show_bots=False)
    clocks = 0
    fields: dict[int, set[tuple[str, ...]]] = {}
    for text in texts:
        msg = json.loads(text)
        clock = msg.get("clock")
        if clock is None or clock.get("seat") is None:
            continue
        clocks += 1
        assert clock["running"] is True and clock["left"] is not None, clock
        assert set(clock) == {"seat", "left", "running", "bank", "decision"}
        ev = msg.get("event") or {}
        if ev.get("kind") == "move" and ev.get("by") != "timeout":
            keys = tuple(sorted(set(ev) - {"deal_over", "over", "id"}))
            fields.setdefault(ev["seat"], set()).add(keys)
    assert clocks > 20
    # Ayşe (seat 0) is a person, seats 2 and 3 bots: their moves look alike
    assert fields[0] == fields[2] == fields[3], fields
