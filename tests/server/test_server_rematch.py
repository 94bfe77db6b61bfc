"""A rematch after the match (issue 10 item 10), over real sockets: every person at the table
is asked and must agree; the new match has the same rules, options and seats, bots included."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.server.client import Client, ServerError


async def _play_to_the_end(clients: list[Client], table: str) -> None:
    """Each person plays its first legal move whenever it is theirs, until the match is over."""

    async def autoplay(c: Client) -> None:
        while c.tables[table].info["status"] != "over":
            st = c.tables[table]
            view = st.view
            if view is not None and view["to_move"] == st.seat and view["legal_moves"]:
                try:
                    await c.move(table, view["legal_moves"][0])
                except ServerError as e:  # the view was already old: look again
                    assert e.code in ("stale", "not_your_turn", "match_over"), e
                    await asyncio.sleep(0.01)
                continue
            with contextlib.suppress(TimeoutError):
                await c.next_change(timeout=0.5)  # (a message just before it: look again)

    await asyncio.wait_for(asyncio.gather(*(autoplay(c) for c in clients)), 120)


async def _two_at_a_finished_match(url: str, names: tuple[str, str]) -> tuple[Client, Client, str]:
    """Two people connected, at a one-deal private room with bots, played to its end."""
    a, b = Client(url, name=names[0]), Client(url, name=names[1])
    for c in (a, b):
        await c.connect()
    _, st = await a.create(deals=1, bots=True, bot_level="easy")
    await b.join(code=st.info["code"])
    await a.start(st.id)
    await a.until(lambda: a.tables[st.id].view is not None)
    await _play_to_the_end([a, b], st.id)
    return a, b, st.id


async def _rematch_msg(c: Client, table: str, pred: Any) -> dict[str, Any]:
    return await c.wait_for(
        lambda m: m.get("type") == "rematch" and m["table"] == table and pred(m), 15
    )


def test_everyone_agrees_and_the_new_match_has_the_same_seats_and_options(
    tmp_path: Path,
) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            a = Client(srv.url, name="Ayşe")
            b = Client(srv.url, name="Bora")
            watcher = Client(srv.url, name="Watcher")
            for c in (a, b, watcher):
                await c.connect()
            _, st = await a.create(deals=1, bots=True, decision_seconds=40, bot_level="easy")
            old = st.id
            await b.join(code=st.info["code"])
            # before the end there is nothing to rematch
            await a.start(old)
            await a.until(lambda: a.tables[old].view is not None)
            with pytest.raises(ServerError) as early:
                await a.rematch(old)
            assert early.value.code == "not_over"
            await watcher.join(code=st.info["code"], spectate=True)
            await _play_to_the_end([a, b], old)
            seats_before = a.tables[old].info["seats"]
            with pytest.raises(ServerError) as watching:
                await watcher.rematch(old)
            assert watching.value.code == "not_seated"

            for c in (a, b, watcher):
                c.drain()
            await a.rematch(old)
            for c in (a, b, watcher):  # everyone at the table hears who agreed, who is asked
                m = await _rematch_msg(c, old, lambda m: m["accepted"] == [0])
                assert m["waiting"] == [1] and m["table_new"] is None, m
            # a reload sees the open offer
            synced = await b.sync(old)
            assert synced["rematch"]["accepted"] == [0], synced

            await b.rematch(old, accept=False)  # no: the offer is withdrawn
            m = await _rematch_msg(a, old, lambda m: m.get("declined") == 1)
            assert m["accepted"] == [] and m["table_new"] is None, m

            await b.rematch(old)
            await _rematch_msg(a, old, lambda m: m["accepted"] == [1])
            await a.rematch(old)
            done = await _rematch_msg(b, old, lambda m: m["table_new"] is not None)
            new = done["table_new"]
            assert new != old and done["waiting"] == [] and done["accepted"] == [0, 1]
            m = await _rematch_msg(watcher, old, lambda m: m["table_new"] is not None)
            assert m["table_new"] == new

            await a.join(table=new)
            await b.join(table=new)
            for c in (a, b):
                await c.until(lambda c=c: c.tables[new].view is not None)
            info = a.tables[new].info
            assert info["status"] == "playing"
            assert a.tables[new].seat == 0 and b.tables[new].seat == 1
            old_info = a.tables[old].info
            assert info["rules"] == old_info["rules"] and info["options"] == old_info["options"]
            assert info["kind"] == old_info["kind"] and info["host"] == old_info["host"]
            same = ("seat", "name", "player", "bot")
            assert [{k: s[k] for k in same} for s in info["seats"]] == [
                {k: s[k] for k in same} for s in seats_before
            ]
            assert a.tables[new].clock is not None
            assert a.tables[new].clock["decision"] == 40
            # the new match is a new record: it is played from its first deal
            assert a.tables[new].view["match"]["deal"] == 1  # type: ignore[index]
            # asking again at the old table only says where the new one is
            a.drain()
            await a.rematch(old)
            again = await _rematch_msg(a, old, lambda m: True)
            assert again["table_new"] == new
            for c in (a, b, watcher):
                await c.close()

        asyncio.run(main())


def test_leaving_says_no_to_the_rematch(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            a, b, table = await _two_at_a_finished_match(srv.url, ("A", "B"))
            await a.rematch(table)
            await _rematch_msg(a, table, lambda m: m["accepted"] == [0])
            await b.leave(table)
            m = await _rematch_msg(a, table, lambda m: m.get("declined") == 1)
            assert m["accepted"] == [] and m["table_new"] is None
            for c in (a, b):
                await c.close()

        asyncio.run(main())


def test_a_no_said_before_anyone_asks_is_told_to_whoever_asks_next(tmp_path: Path) -> None:
    """Bora said no (and his terminal left) before Ayşe asked: Ayşe then waited two minutes
    for his answer. She is told at once that he declined; if he changes his mind, it goes on."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            a, b, old = await _two_at_a_finished_match(srv.url, ("Ayşe", "Bora"))
            b_seat = b.tables[old].seat
            await b.rematch(old, accept=False)  # nobody had asked yet
            a.drain()
            await a.rematch(old)
            m = await _rematch_msg(a, old, lambda m: m.get("declined") is not None)
            assert m["declined"] == b_seat and m["accepted"] == [] and m["table_new"] is None
            await a.rematch(old, accept=False)  # she says no as well, then changes her mind:
            await a.rematch(old)  # Bora's no still stands, and she is told so again
            m = await _rematch_msg(a, old, lambda m: m.get("declined") == b_seat)
            await b.rematch(old)  # he changes his mind: his yes stands, hers is asked again
            m = await _rematch_msg(a, old, lambda m: m["accepted"] == [b_seat])
            await a.rematch(old)
            done = await _rematch_msg(b, old, lambda m: m["table_new"] is not None)
            assert done["table_new"] != old
            for c in (a, b):
                await c.close()

        asyncio.run(main())
