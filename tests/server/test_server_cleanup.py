"""Abandoned rooms: a private room that never started, with nobody there for half an hour, is
closed for good; an adjourned room nobody visits for 30 days is put away (kept in storage) and
comes back when someone asks for it by its code or id. With a hand-moved clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import ServerThread, advance_async, fast_config

from batak.server.client import Client, ServerError
from batak.server.clock import ManualClock


async def _until(cond: object, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not cond():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


async def _pass_time(srv: ServerThread, clock: ManualClock, seconds: float) -> None:
    """Move the clock on in reaper-sized steps, letting the server run between them."""
    step = srv.config.reap_every
    left = seconds
    while left > 0:
        await advance_async(srv, clock, min(step, left))
        await asyncio.sleep(0.01)
        left -= step


def test_an_abandoned_private_room_is_closed(tmp_path: Path) -> None:
    clock = ManualClock()
    # (lonely_seconds as long: the shorter limit for rooms nobody came to is tested elsewhere)
    config = fast_config(
        tmp_path, hold_seconds=45, abandon_seconds=1800, lonely_seconds=1800, reap_every=60
    )
    with ServerThread(config, clock=clock) as srv:

        async def main() -> str:
            host = Client(srv.url, name="Host", lang="tr")
            await host.connect()
            created, table = await host.create(preset="standard", bots=False)
            t, code = table.id, created["code"]
            kept = Client(srv.url, name="Keeper")
            await kept.connect()
            _, other = await kept.create(preset="standard", bots=False)
            await host.drop()
            # the clock moves on once the server has seen the drop (the hold starts then: on a
            # loaded machine it was seen after the first steps, and the room closed later)
            await _until(lambda: any(s.hold_until is not None for s in srv.hub.tables[t].seats))
            await _pass_time(srv, clock, 45 + 1800 - 120)
            assert t in srv.hub.tables  # not yet: 30 minutes after the seat was freed
            await _pass_time(srv, clock, 300)
            await _until(lambda: t not in srv.hub.tables)
            assert other.id in srv.hub.tables  # someone is in that one
            stored = await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(srv.hub.storage.table(t), srv.loop)  # type: ignore[arg-type]
            )
            assert stored is not None and stored[0].status == "closed"
            back = Client(srv.url, token=host.token, lang="tr")
            await back.connect()
            assert t not in back.welcome["tables"]
            for how in ({"code": code}, {"table": t}):
                with pytest.raises(ServerError) as e:
                    await back.join(**how)
                assert e.value.code == "no_table" and "kapatıldı" in e.value.message
            for c in (back, kept):
                await c.close()
            return t

        t = asyncio.run(main())
    # a restart does not bring it back
    with ServerThread(fast_config(tmp_path)) as srv2:
        assert t not in srv2.hub.tables


def test_an_adjourned_room_is_put_away_and_comes_back(tmp_path: Path) -> None:
    clock = ManualClock()
    config = fast_config(tmp_path, adjourned_unload_seconds=30 * 86400, reap_every=43200)
    with ServerThread(config, clock=clock) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=2, bots=True)
            t, code = table.id, created["code"]
            await host.start(t)
            await host.until(lambda: host.tables[t].my_turn)
            await host.move(t, host.tables[t].view["legal_moves"][0])  # type: ignore[index]
            await host.until(lambda: host.tables[t].my_turn)
            await host.adjourn(t)
            await host.until(lambda: host.tables[t].info["status"] == "adjourned")
            v = host.tables[t].v
            view = host.tables[t].view
            await host.close()
            await _pass_time(srv, clock, 29 * 86400)
            assert t in srv.hub.tables
            await _pass_time(srv, clock, 2 * 86400)
            await _until(lambda: t not in srv.hub.tables)
            back = Client(srv.url, token=host.token)
            await back.connect()
            st = await back.join(code=code)
            assert t in srv.hub.tables and st.v == v and st.info["status"] == "adjourned"
            assert st.view is not None and view is not None
            assert st.view["hand"] == view["hand"]
            await back.start(t)
            await back.until(lambda: back.tables[t].info["status"] == "playing")
            final = await back.play(t, timeout=60)
            assert final.over
            await back.close()

        asyncio.run(main())


def test_serve_flags_for_rooms_nobody_uses() -> None:
    import argparse

    from batak.cli.serve import add_serve_parser, config_from_args

    parser = argparse.ArgumentParser(prog="batak")
    add_serve_parser(parser.add_subparsers(dest="command"))
    defaults = config_from_args(parser.parse_args(["serve"]))
    assert defaults.abandon_seconds == 1800 and defaults.adjourned_unload_seconds == 30 * 86400
    cfg = config_from_args(
        parser.parse_args(["serve", "--abandon-minutes", "5", "--adjourned-days", "2"])
    )
    assert cfg.abandon_seconds == 300 and cfg.adjourned_unload_seconds == 2 * 86400


def test_a_connection_at_a_finished_table_that_leaves_memory_can_log_in(tmp_path: Path) -> None:
    """A finished table leaves memory ``linger_seconds`` after its end even with someone still
    looking at it; that connection is then at no table, so it may say hello or log in again
    (it was refused ``already_hello`` for ever, the table's id still in its list)."""
    clock = ManualClock()
    config = fast_config(tmp_path, linger_seconds=600, reap_every=60)
    with ServerThread(config, clock=clock) as srv:

        async def main() -> None:
            c = Client(srv.url, name="Stays")
            await c.connect()
            _, table = await c.create(preset="standard", deals=1)
            await c.start(table.id)
            final = await c.play(table.id, timeout=90)
            assert final.over
            with pytest.raises(ServerError) as e:
                await c.request({"type": "hello", "name": "Again"})
            assert e.value.code == "already_hello"  # at the table still: as before
            for _ in range(40):  # (the match's last events may come a little after its end)
                if table.id not in srv.hub.tables:
                    break
                await _pass_time(srv, clock, 60)
            assert table.id not in srv.hub.tables
            welcome = await c.request({"type": "hello", "name": "Again"})
            assert welcome["type"] == "welcome" and welcome["player"]["name"] == "Again"
            await c.close()

        asyncio.run(main())
