"""Four real websocket clients play whole matches through a real server (uvicorn, SQLite)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest
from harness import ServerThread, fast_config

from batak.record import loads
from batak.server.client import Client, ServerError


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_four_clients_play_a_private_match_to_the_end(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:
        assert _get(srv.http + "/healthz")[0] == 200

        async def main() -> None:
            names = ["Ayşe", "Ben", "Cem", "Deniz"]
            clients = [Client(srv.url, name=n) for n in names]
            for c in clients:
                await c.connect()
            created, table = await clients[0].create(preset="standard", deals=2, bots=False)
            assert created["invite"].endswith("/join/" + created["code"])
            for c in clients[1:]:
                st = await c.join(code=created["code"].lower())
                assert st.id == table.id
            with_bots_refused = None
            try:
                await clients[1].start(table.id)
            except ServerError as e:
                with_bots_refused = e.code
            assert with_bots_refused == "not_host"
            await clients[0].start(table.id)
            seats = sorted(c.tables[table.id].seat for c in clients)
            assert seats == [0, 1, 2, 3]
            await clients[2].chat(table.id, "iyi oyunlar")
            finals = await asyncio.gather(*(c.play(table.id, timeout=60) for c in clients))
            totals = {json.dumps(f.view["match"]["totals"]) for f in finals}
            assert len(totals) == 1
            assert all(f.over for f in finals)
            assert all(f.view["match"]["over"] for f in finals)
            # every client saw every versioned event once, in order, with no gap
            for c in clients:
                vs = [e["v"] for e in c.tables[table.id].events]
                assert vs == sorted(set(vs))
            chat = [e for e in finals[0].events if e["kind"] == "chat"]
            assert chat and chat[0]["text"] == "iyi oyunlar" and chat[0]["name"] == "Cem"
            # a late move is refused: the match is over
            try:
                await clients[0].move(table.id, "pass")
            except ServerError as e:
                assert e.code == "match_over"
            # the record is kept and loads with the engine; a private table's is kept to its
            # players: the path in their sync has the key that opens it
            assert _get(f"{srv.http}/api/tables/{table.id}/record")[0] == 403
            path = finals[0].record
            assert path is not None and "key=" in path
            for _ in range(50):
                status, body = _get(srv.http + path)
                if status == 200:
                    break
                await asyncio.sleep(0.05)
            assert status == 200
            match = loads(body)
            assert match.over and match.totals == finals[0].view["match"]["totals"]
            stats = await clients[1].request({"type": "stats"})
            assert stats["stats"]["matches"] == 1 and stats["stats"]["deals"] >= 2
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_quick_play_fills_with_bots_and_plays_to_the_end(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path, quick_deals=1)) as srv:

        async def main() -> None:
            async with Client(srv.url, name="Solo") as c:
                lobby = await c.lobby()
                assert set(lobby["modes"]) == {"ihaleli", "kozmaca", "esli", "kitty", "acik"}
                for mode in ("ihaleli", "kitty"):
                    st = await c.quick(mode)
                    assert st.seat is not None
                    final = await c.play(st.id, timeout=60)
                    assert final.over
                    bots = [s for s in final.info["seats"] if s["bot"]]
                    assert len(bots) == len(final.info["seats"]) - 1
                    again = await c.quick(mode)  # the old table is over: a new one
                    assert again.id != st.id
                    await c.leave(again.id)

        asyncio.run(main())


def test_spectator_and_second_player_share_a_quick_table(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path, quick_fill_seconds=0.5, quick_deals=1)) as srv:

        async def main() -> None:
            a, b, w = Client(srv.url, name="A"), Client(srv.url, name="B"), Client(srv.url)
            for c in (a, b, w):
                await c.connect()
            ta = await a.quick("esli")
            tb = await b.quick("esli")
            assert ta.id == tb.id and ta.seat != tb.seat
            tw = await w.join(ta.id, spectate=True)
            assert tw.seat is None
            await asyncio.gather(a.play(ta.id, timeout=60), b.play(ta.id, timeout=60))
            await w.until(lambda: w.tables[ta.id].over, 20)
            assert w.tables[ta.id].view is not None
            assert w.tables[ta.id].view["hand"] == []
            for c in (a, b, w):
                await c.close()

        asyncio.run(main())


def test_continue_later_adjourns_and_resumes_a_private_match(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            clients = [Client(srv.url, name=f"A{i}") for i in range(4)]
            for c in clients:
                await c.connect()
            _, table = await clients[0].create(preset="sultan-kozmaca", deals=1, bots=False)
            t = table.id
            for c in clients[1:]:
                await c.join(code=table.info["code"])
            await clients[0].start(t)
            await asyncio.gather(*(c.play(t, stop=lambda s: s.v >= 12) for c in clients))
            try:
                await clients[1].adjourn(t)
            except ServerError as e:
                assert e.code == "not_host"
            await clients[0].adjourn(t)
            for c in clients:
                await c.until(lambda c=c: c.tables[t].info["status"] == "adjourned")
            mover = next(c for c in clients if c.tables[t].my_turn)
            try:
                await mover.move(t, mover.tables[t].view["legal_moves"][0])  # type: ignore[index]
            except ServerError as e:
                assert e.code == "adjourned"
            assert srv.hub.tables[t].clock_info()["running"] is False
            await clients[0].start(t)
            finals = await asyncio.gather(*(c.play(t, timeout=60) for c in clients))
            assert all(f.over for f in finals)
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_when_the_host_leaves_a_waiting_room_the_next_person_hosts_it(tmp_path: Path) -> None:
    """Only the host starts a private room: when the host left before the start, the others
    waited for ever. The person seated longest after the host hosts it now, the event says so,
    and the one who left is just a player if they come back."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            ayse, ben, cem = (Client(srv.url, name=n) for n in ("Ayşe", "Ben", "Cem"))
            for c in (ayse, ben, cem):
                await c.connect()
            created, table = await ayse.create(preset="standard", deals=1)
            t = table.id
            await ben.join(code=created["code"])
            await cem.join(code=created["code"])
            ben_id = ben.player["id"]
            await ayse.leave(t)
            for c in (ben, cem):
                await c.until(lambda c=c: c.tables[t].info.get("host") == ben_id)
            seats = ben.tables[t].info["seats"]
            assert [s["host"] for s in seats if s.get("player")] == [True, False]
            stand = next(e for e in cem.tables[t].events if e["kind"] == "stand")
            assert stand["host"] == ben_id  # what a restart replays, as every stored event
            assert srv.hub.tables[t].host == ben_id
            with pytest.raises(ServerError) as refused:
                await cem.start(t)
            assert refused.value.code == "not_host"
            # the one who left comes back with the code: a player, no longer the host
            await ayse.join(code=created["code"])
            with pytest.raises(ServerError) as refused:
                await ayse.start(t)
            assert refused.value.code == "not_host"
            await ben.start(t)
            finals = await asyncio.gather(*(c.play(t, timeout=60) for c in (ayse, ben, cem)))
            assert all(f.over for f in finals)
            for c in (ayse, ben, cem):
                await c.close()

        asyncio.run(main())


def test_a_page_that_leaves_a_match_hands_the_seat_over_only_if_no_other_device_is_there(
    tmp_path: Path,
) -> None:
    """``leave`` with ``here`` (a web page that went elsewhere during the match): only that
    connection leaves. The same player's second device at the table keeps the seat and its
    events (a plain ``leave`` dropped every connection of the seat: the other device froze,
    seeing nothing more). When the last one leaves so, a computer player takes the seat."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            phone, ben = Client(srv.url, name="Ayşe"), Client(srv.url, name="Ben")
            for c in (phone, ben):
                await c.connect()
            created, table = await phone.create(preset="standard", deals=1)
            t = table.id
            laptop = Client(srv.url, token=phone.token)  # the same player, a second device
            await laptop.connect()
            await laptop.join(table=t)
            await ben.join(code=created["code"])
            await phone.start(t)
            await ben.until(lambda: ben.tables[t].info.get("status") == "playing")
            await phone.leave(t, here=True)
            seat = srv.hub.tables[t].seat_of(phone.player["id"])
            assert seat is not None and not srv.hub.tables[t].seats[seat].away
            # the laptop plays on: it still gets the table's events, and its moves count
            before = laptop.tables[t].v
            await asyncio.gather(
                *(c.play(t, timeout=30, stop=lambda st: st.v > before + 6) for c in (laptop, ben))
            )
            assert laptop.tables[t].v > before + 6
            assert not srv.hub.tables[t].seats[seat].away
            await laptop.leave(t, here=True)  # the last one: a computer player takes the seat
            await ben.until(lambda: ben.tables[t].info["seats"][seat]["away"])
            for c in (phone, laptop, ben):
                await c.close()

        asyncio.run(main())


def test_a_player_lists_their_finished_matches_with_records_that_open(tmp_path: Path) -> None:
    """``my_matches``: the player's own finished matches, newest first, each with the path of
    its record (a private table's with its key); another player's list has none of them."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            ayse, ben = Client(srv.url, name="Ayşe"), Client(srv.url, name="Ben")
            for c in (ayse, ben):
                await c.connect()
            assert await ayse.my_matches() == []
            _, private = await ayse.create(preset="sultan-kozmaca", deals=1)
            await ayse.start(private.id)
            first = await ayse.play(private.id, timeout=60)
            quick = await ayse.quick("ihaleli")
            second = await ayse.play(quick.id, timeout=60)
            mine = await ayse.my_matches()
            assert [m["table"] for m in mine] == [quick.id, private.id]  # newest first
            for m, final in zip(mine, (second, first), strict=True):
                seat = final.seat
                assert seat is not None and m["seat"] == seat
                totals = final.view["match"]["totals"]  # type: ignore[index]
                played = [r for r in final.sheet if not r.get("redeal")]
                assert m["score"] == totals[seat] and m["deals"] == len(played)
                assert m["won"] == (seat in final.view["match"]["winners"])  # type: ignore[index]
                status, body = 0, b""
                for _ in range(50):  # the record is written just after the match
                    status, body = _get(srv.http + m["record"])
                    if status == 200:
                        break
                    await asyncio.sleep(0.05)
                assert status == 200 and loads(body).totals == totals
            assert [m["preset"] for m in mine] == [quick.info["preset"], "sultan-kozmaca"]
            assert "key=" in mine[1]["record"] and "key=" not in mine[0]["record"]
            assert all(m["open"] for m in mine)  # joined, each opens at its table
            assert await ben.my_matches() == []
            for c in (ayse, ben):
                await c.close()

        asyncio.run(main())


def test_an_old_match_opens_again_as_it_ended_and_nothing_in_it_changes(tmp_path: Path) -> None:
    """A finished table leaves memory a while after its end; "Open" in the lobby's last matches
    (``join``) brings it back for its players: the same view, score sheet and review, marked
    ``archived``. Chat and a rematch are refused; it is not finished (stored, paid) a second
    time; someone who did not play a private one is told there is no such table."""
    # (the review's completeness is checked, not its speed: a loaded machine can pass 20 s)
    with ServerThread(fast_config(tmp_path, review_seconds=100.0)) as srv:

        async def main() -> None:
            ayse, ben, cem = (Client(srv.url, name=n) for n in ("Ayşe", "Ben", "Cem"))
            for c in (ayse, ben, cem):
                await c.connect()
            _, st = await ayse.create(deals=1, bots=True, bot_level="easy")
            t = st.id
            await ben.join(code=st.info["code"])
            await ayse.start(t)
            final, _ = await asyncio.gather(ayse.play(t, timeout=60), ben.play(t, timeout=60))
            seat, view, sheet = final.seat, final.view, final.sheet
            assert view is not None
            for _ in range(100):  # the record is stored just after the last move
                if [m["table"] for m in await ayse.my_matches()] == [t]:
                    break
                await asyncio.sleep(0.05)
            for c in (ayse, ben):
                await c.leave(t)

            async def drop() -> None:  # as the reaper does, ten minutes after the last look
                await srv.hub._drop(srv.hub.tables[t])

            for _ in range(2):  # it leaves memory, and comes back, as often as asked
                srv.call(drop)
                assert t not in srv.hub.tables
                [m] = await ayse.my_matches()
                assert m["table"] == t and m["open"]
                again = await ayse.join(t)
                assert again.info["archived"] is True and again.info["status"] == "over"
                assert again.seat == seat and again.view is not None
                assert again.view["match"] == view["match"] and again.view["hand"] == []
                assert again.sheet == sheet
                assert srv.hub.tables[t].archived
            review = await ayse.review(t, 1)  # the deals' review, as at the end
            assert review["complete"] and review["lines"]
            for msg in (
                {"type": "chat", "table": t, "text": "hâlâ burada mısınız?"},
                {"type": "rematch", "table": t, "accept": True},
            ):
                with pytest.raises(ServerError) as refused:
                    await ayse.request(msg)
                assert refused.value.code == "archived"
            with pytest.raises(ServerError) as refused:  # a private room's match: its players'
                await cem.join(t)
            assert refused.value.code == "no_table"
            # nor does anything else he sends about it bring it back (a bot's seat has no
            # player: everyone "sat" at a table with a bot), nor tell him its record's key
            srv.call(drop)
            for msg in (
                {"type": "review", "table": t, "deal": 1},
                {"type": "leave", "table": t},
                {"type": "sync", "table": t},
            ):
                try:
                    said = str(await cem.request(msg))
                except ServerError as e:
                    said = e.message
                assert "key=" not in said, said
                assert t not in srv.hub.tables, msg
            assert [m["table"] for m in await ben.my_matches()] == [t]  # stored once, not twice
            assert not srv.hub.rooms  # an old match opened is not a room (the room quota)
            for c in (ayse, ben, cem):
                await c.close()

        asyncio.run(main())
