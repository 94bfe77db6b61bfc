"""Clocks on the server with a hand-moved clock: the bank, auto-pass, bot moves on timeout;
a dropped player's seat is held, then a bot plays it, and the player takes it back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from harness import ServerThread, advance_async, fast_config, room

from batak.server.client import Client
from batak.server.clock import ManualClock


def _by_seat(clients: list[Client], table: str) -> dict[int, Client]:
    return {c.tables[table].seat: c for c in clients}  # type: ignore[misc]


async def _event(c: Client, table: str, pred: Any, timeout: float = 10) -> dict[str, Any]:
    msg = await c.wait_for(
        lambda m: m.get("type") == "event" and m["table"] == table and pred(m["event"]), timeout
    )
    return msg


def test_bank_steps_then_auto_pass_then_bot_moves(tmp_path: Path) -> None:
    clock = ManualClock()
    with ServerThread(fast_config(tmp_path), clock=clock) as srv:

        async def main() -> None:
            clients, t = await room(srv, preset="standard", deals=1)
            seats = _by_seat(clients, t)
            watcher = clients[0]
            watcher.drain()
            st = watcher.tables[t]
            first = st.view["to_move"]  # type: ignore[index]
            assert st.clock is not None and st.clock["seat"] == first
            assert st.clock["left"] == 25 and st.clock["bank"][first] == 60
            v0 = st.v
            await advance_async(srv, clock, 24.5)
            await asyncio.sleep(0.1)
            assert watcher.tables[t].v == v0  # nothing happens before the 25 s are up
            lefts = []
            for _ in range(4):
                await advance_async(srv, clock, 15.0 if lefts else 0.6)
                msg = await _event(watcher, t, lambda e: e["kind"] == "bank")
                assert msg["event"]["seat"] == first
                lefts.append(msg["event"]["left"])
                assert msg["clock"]["bank"][first] == msg["event"]["left"]
            assert lefts == [45, 30, 15, 0]
            await advance_async(srv, clock, 15.0)
            msg = await _event(watcher, t, lambda e: e["kind"] == "move")
            assert msg["event"] == {
                "kind": "move",
                "seat": first,
                "move": "pass",
                "by": "timeout",
                "deal": 1,
                "v": msg["v"],
            }
            # the next seat bids, the others pass: the bidder must name trumps
            bidder = msg["view"]["to_move"]
            await seats[bidder].until(lambda m=msg: seats[bidder].tables[t].v >= m["v"])
            ack = await seats[bidder].move(t, "bid 4")
            for _ in range(2):
                await watcher.until(lambda a=ack: watcher.tables[t].v >= a["v"])
                nxt = watcher.tables[t].view["to_move"]  # type: ignore[index]
                await seats[nxt].until(lambda a=ack, n=nxt: seats[n].tables[t].v >= a["v"])
                ack = await seats[nxt].move(t, "pass")
            await watcher.until(lambda: watcher.tables[t].view["phase"] == "trump")  # type: ignore[index]
            # the bidder lets the whole clock and bank run out: a bot names trumps
            await advance_async(srv, clock, 25.1)
            for _ in range(4):
                await advance_async(srv, clock, 15.0)
            msg = await _event(
                watcher, t, lambda e: e["kind"] == "move" and e["move"].startswith("trump")
            )
            assert msg["event"]["by"] == "timeout" and msg["event"]["seat"] == bidder
            # the bidder's bank is empty: its next decision times out after 25 s, by a bot's card
            assert msg["view"]["phase"] == "play" and msg["view"]["to_move"] == bidder
            assert msg["clock"]["bank"][bidder] == 0
            await advance_async(srv, clock, 25.1)
            msg = await _event(watcher, t, lambda e: e["kind"] == "move" and e["seat"] == bidder)
            assert msg["event"]["by"] == "timeout"
            assert msg["view"]["current_trick"]["cards"] == [msg["event"]["move"]]
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_disconnect_hold_bot_takeover_and_return(tmp_path: Path) -> None:
    clock = ManualClock()
    with ServerThread(fast_config(tmp_path, hold_seconds=45), clock=clock) as srv:

        async def main() -> None:
            clients, t = await room(srv, preset="standard", deals=2)
            seats = _by_seat(clients, t)
            gone_seat = 2
            gone = seats[gone_seat]
            others = [c for s, c in seats.items() if s != gone_seat]
            watcher = others[0]
            players = [asyncio.create_task(c.play(t, timeout=60)) for c in others]
            await gone.drop()
            await watcher.wait_for(
                lambda m: (
                    m.get("type") == "presence" and m["seat"] == gone_seat and not m["connected"]
                )
            )
            await asyncio.sleep(0.1)
            await advance_async(srv, clock, 44.0)
            await asyncio.sleep(0.1)
            assert not any(e["kind"] == "away" for e in watcher.tables[t].events)
            await advance_async(srv, clock, 1.5)
            await _event(watcher, t, lambda e: e["kind"] == "away" and e["seat"] == gone_seat)
            # a bot now plays the seat: moves by seat 2 come from the bot
            await _event(
                watcher,
                t,
                lambda e: e["kind"] == "move" and e["seat"] == gone_seat and e["by"] == "bot",
            )
            # the player comes back with the same session token and takes the seat over
            back = Client(srv.url, token=gone.token)
            await back.connect()
            assert back.player["id"] == gone.player["id"]
            assert t in back.welcome["tables"]
            await back.join(t)
            assert back.tables[t].seat == gone_seat
            await _event(watcher, t, lambda e: e["kind"] == "back" and e["seat"] == gone_seat)
            await back.until(
                lambda: (
                    back.tables[t].my_turn
                    and any(e["kind"] == "back" for e in back.tables[t].events)
                ),
                20,
            )
            v = back.tables[t].v
            await asyncio.sleep(0.2)
            assert back.tables[t].v == v  # no bot moves for the player now
            view = back.tables[t].view
            assert view is not None
            await back.move(t, view["legal_moves"][0])
            final = await back.play(t, timeout=60)
            await asyncio.gather(*players)
            assert final.over
            moves = [e for e in final.events if e["kind"] == "move" and e["seat"] == gone_seat]
            assert moves[-1]["by"] == "player"
            for c in [*others, back]:
                await c.close()

        asyncio.run(main())


def test_the_first_decision_of_a_new_deal_waits_for_people_to_see_the_last_one(
    tmp_path: Path,
) -> None:
    """After a deal ends, the next deal's first decision gets ``deal_pause`` more seconds (and a
    bot waits as long), so that the players can look at the result before the auction runs."""
    clock = ManualClock()
    config = fast_config(tmp_path, decision_seconds=25.0, deal_pause=4.0)
    with ServerThread(config, clock=clock) as srv:

        async def main() -> None:
            clients, table = await room(srv, deals=2)
            first = clients[0].tables[table].clock
            assert first is not None and first["left"] == 25.0  # the first deal: no pause
            by_seat = _by_seat(clients, table)
            watcher = clients[0]
            while True:  # play the first deal with random legal moves, time standing still
                st = watcher.tables[table]
                view = st.view
                assert view is not None
                if view["match"]["deal"] == 2:
                    break
                mover = by_seat[view["to_move"]]
                seen = st.v
                await mover.until(lambda m=mover, seen=seen: m.tables[table].v >= seen)
                await mover.move(table, mover.tables[table].view["legal_moves"][0])  # type: ignore[index]
                await watcher.until(lambda seen=seen: watcher.tables[table].v > seen)
            new_deal = watcher.tables[table].clock
            assert new_deal is not None
            assert new_deal["left"] == 29.0  # 25 s for the decision + the 4 s pause
            for c in clients:
                await c.close()

        asyncio.run(main())
