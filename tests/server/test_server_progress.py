"""XP and levels, OpenSkill ratings and the weekly league, over real sockets (issue 13, 1-3)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config, postgres_database

from batak.server import hub as hub_module
from batak.server.client import Client, TableState
from batak.server.progress import WEEK, level_of, week_of, week_start

pytest.importorskip("argon2")


@contextlib.contextmanager
def database(kind: str) -> Iterator[dict[str, Any]]:
    """Config changes for the database ``kind`` (PostgreSQL when BATAK_TEST_POSTGRES is set)."""
    if kind == "sqlite":
        yield {}
        return
    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        yield {"database": url}


class MovedWall:
    """The league's wall clock, moved by the test."""

    def __init__(self, start: float) -> None:
        self.t = start

    def now(self) -> float:
        return self.t


def by_hand(st: TableState, seat: int) -> int:
    """The XP of a seat's finished match, from its score sheet: 10, 2 a deal, 5 a made
    contract, 25 for a win."""
    view = st.view
    assert view is not None
    match = view["match"]
    deals = made = 0
    for row in match["sheet"]:
        if row.get("redeal") or row.get("scores") is None:
            continue
        deals += 1
        if row.get("bids") is not None:
            made += row["tricks"][seat] >= row["bids"][seat]
        elif row.get("bidder") == seat and row.get("bid") is not None:
            team = [s for s in range(4) if s % 2 == seat % 2] if match_is_pairs(st) else [seat]
            made += sum(row["tricks"][s] for s in team) >= row["bid"]
    return 10 + 2 * deals + 5 * made + (25 if seat in match["winners"] else 0)


def match_is_pairs(st: TableState) -> bool:
    return bool(st.info["rules"].get("partnership"))


async def account(url: str, username: str, name: str) -> Client:
    c = Client(url, name=name)
    await c.connect()
    await c.register(username, "uzun-bir-parola")
    c.player["account"] = username
    return c


async def quick_match(c: Client, mode: str = "ihaleli") -> tuple[TableState, dict[str, Any]]:
    st = await c.quick(mode)
    final = await c.play(st.id, timeout=90)
    assert final.over
    return final, await c.awarded(st.id)


async def room_match(players: list[Client], preset: str) -> list[tuple[TableState, Any]]:
    """The players sit at one private room (no bots), play it out; their states and awards."""
    host = players[0]
    created, _ = await host.create(preset=preset, deals=1, bots=False)
    for c in players[1:]:
        await c.join(code=created["code"])
    await host.start(created["table"])
    finals = await asyncio.gather(*(c.play(created["table"], timeout=90) for c in players))
    awards = [await c.awarded(created["table"]) for c in players]
    return list(zip(finals, awards, strict=True))


def test_xp_and_levels_after_matches(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path, quick_deals=1)) as srv:

        async def main() -> None:
            a = await account(srv.url, "ayse", "Ayşe")
            total = 0
            for n in range(1, 4):
                final, got = await quick_match(a)
                seat = final.seat
                assert seat is not None
                assert got["xp_gained"] == by_hand(final, seat)
                assert got["won"] == (seat in final.view["match"]["winners"])  # type: ignore[index]
                total += got["xp_gained"]
                assert got["xp"] == total and got["level"] == level_of(total)
                assert got["level_before"] == level_of(total - got["xp_gained"])
                assert got["rating"]["sigma"] < got["rating_before"]["sigma"]
                assert got["league"]["points"] == total  # all in this week
                mine = await a.progress()
                assert (mine["xp"], mine["level"]) == (total, got["level"])
                assert mine["rated_matches"] == n
            # 3 matches of 1 deal earn at least 36 XP; at most 126: level 1 or 2
            assert level_of(total) == (2 if total >= 100 else 1)
            # the level shows next to the name at the next table, and in the lobby
            st = await a.quick("kozmaca")
            seat = st.seat
            assert seat is not None
            assert st.info["seats"][seat]["level"] == level_of(total)
            lobby = await a.lobby()
            line = next(t for t in lobby["modes"]["kozmaca"] if t["id"] == st.id)
            assert line["levels"][seat] == level_of(total)

            # a guest earns XP too, but is not rated and has no league
            g = Client(srv.url, name="Misafir")
            await g.connect()
            final, got = await quick_match(g)
            assert final.seat is not None and got["xp_gained"] == by_hand(final, final.seat)
            assert "rating" not in got and "league" not in got
            prog = await g.progress()
            assert prog["xp"] == got["xp_gained"] and prog["rating"] is None
            league = await g.league()
            assert league["eligible"] is False
            # anyone may read anyone's progress
            other = await g.progress(a.player["id"])
            assert other["xp"] == total and other["tier"] == "bronze"
            await a.close()
            await g.close()

        asyncio.run(main())
        with urllib.request.urlopen(srv.http + "/api/ratings", timeout=5) as r:
            rows = json.loads(r.read())["players"]
        assert [p["username"] for p in rows] == ["ayse"]  # not the guest, not the bots


@pytest.mark.parametrize("own_moves", [0, 1])
def test_a_seat_that_did_not_play_earns_no_xp_nor_league_points(
    tmp_path: Path, own_moves: int
) -> None:
    """A player who sat down and let the clock (then a computer player) make every move, or all
    but one, got the match's XP and league points: a way to climb the league asleep. A seat
    whose moves were fewer than half the person's own earns none; the match still counts for
    the rating."""
    config = fast_config(tmp_path, quick_deals=1, decision_seconds=0.3, bank_seconds=0.0)
    with ServerThread(config) as srv:

        async def main() -> None:
            a = await account(srv.url, "uyuyan", "Uyuyan")
            st = await a.quick("ihaleli")
            for _ in range(own_moves):  # a move at the first turn, then asleep
                await a.until(lambda: a.tables[st.id].my_turn, timeout=60)
                view = a.tables[st.id].view
                assert view is not None
                await a.move(st.id, view["legal_moves"][0])
            got = await a.awarded(st.id, timeout=120)
            assert got["idle"] is True and got["xp_gained"] == 0, got
            assert "league" not in got and got["rating"]["sigma"] < got["rating_before"]["sigma"]
            mine = await a.progress()
            assert mine["xp"] == 0 and mine["rated_matches"] == 1
            assert (await a.league())["joined"] is False  # not in this week's league
            # and so says the match's window after a reload, the table read back from storage
            srv.call(lambda: srv.hub._drop(srv.hub.tables[st.id]))
            again = await a.request({"type": "join", "table": st.id})
            assert again["awarded"] == fields(got)
            await a.close()

        asyncio.run(main())


def fields(awarded: dict[str, Any]) -> dict[str, Any]:
    """An ``awarded`` message's fields, as a ``sync`` of the finished table carries them."""
    return {k: v for k, v in awarded.items() if k not in ("type", "table")}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_sync_of_a_finished_table_carries_what_its_person_got(tmp_path: Path, kind: str) -> None:
    """The match-over window showed the XP, the rating's change and the league's points only
    from the ``awarded`` message at the match's end: a reload (a ``sync``) lost them. A seat's
    ``sync`` of the finished table now carries what its own person got: as it was told while
    the table is in memory, and the same, read back from storage, once it was opened again
    from the saved games; with matches before and after it, so the XP total is the one after
    that match and not today's. A spectator's sync carries nobody's (and a private room's
    finished match does not open again for him)."""
    with database(kind) as db, ServerThread(fast_config(tmp_path, quick_deals=1, **db)) as srv:

        async def main() -> None:
            ayse = await account(srv.url, "ayse", "Ayşe")
            ben = Client(srv.url, name="Ben")  # a guest: XP, no rating, no league
            cem = Client(srv.url, name="Cem")
            for c in (ben, cem):
                await c.connect()
            await quick_match(ayse)  # XP before the match looked at
            created, _ = await ayse.create(deals=1, bots=True, bot_level="easy")
            t = created["table"]
            await ben.join(code=created["code"])
            await cem.join(code=created["code"], spectate=True)  # (a finished room's opens none)
            await ayse.start(t)
            await asyncio.gather(ayse.play(t, timeout=90), ben.play(t, timeout=90))
            got = {"ayse": await ayse.awarded(t), "ben": await ben.awarded(t)}
            assert "rating" in got["ayse"] and "league" in got["ayse"]
            assert "rating" not in got["ben"] and "league" not in got["ben"]

            want = {"ayse": fields(got["ayse"]), "ben": fields(got["ben"])}
            seen = {
                "ayse": (await ayse.sync(t)).get("awarded"),
                "ben": (await ben.sync(t)).get("awarded"),
            }
            assert seen == want  # the table still in memory
            assert "awarded" not in await cem.sync(t)
            await quick_match(ayse)  # more XP after it
            for c in (ayse, ben, cem):
                await c.leave(t)
            srv.call(lambda: srv.hub._drop(srv.hub.tables[t]))  # as the reaper does
            # opened again from the saved games (its players only): read back from storage
            seen = {}
            for name, c in (("ayse", ayse), ("ben", ben)):
                again = await c.request({"type": "join", "table": t})
                assert again["table_info"]["archived"] is True
                seen[name] = again.get("awarded")
            assert seen == want
            for c in (ayse, ben, cem):
                await c.close()

        asyncio.run(main())


class _Falling:
    """The ``secrets`` module as the hub sees it, but with ids (``token_hex``) that fall: each
    table made is given an id smaller than those before it."""

    def __init__(self) -> None:
        self.n = 0

    def token_hex(self, nbytes: int) -> str:
        self.n += 1
        return f"{16 ** (2 * nbytes) - 1 - self.n:0{2 * nbytes}x}"

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_reopened_award_says_the_xp_total_of_its_message_whatever_the_clock(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two matches awarded at the same instant by the wall clock (a coarse clock, one stepped
    back, two processes whose clocks differ): the first match's finished table, opened again
    from the saved games, said an XP total (and level) that counted the second match too, when
    the second's table had the smaller id. ``award_of`` summed the person's awards up to that
    one by their times, then by table id, not in the order they were given; the total the
    ``awarded`` message said is now stored with the award."""
    monkeypatch.setattr(hub_module, "secrets", _Falling())
    wall = MovedWall(1_796_256_000.0 + 3600)  # a Wednesday; it stands still
    with (
        database(kind) as db,
        ServerThread(fast_config(tmp_path, quick_deals=1, **db), wall=wall) as srv,
    ):

        async def main() -> None:
            ayse = await account(srv.url, "ayse", "Ayşe")
            first, live = await quick_match(ayse)
            await ayse.leave(first.id)
            second, later = await quick_match(ayse)
            await ayse.leave(second.id)
            assert second.id < first.id and later["xp"] > live["xp"]
            srv.call(lambda: srv.hub._drop(srv.hub.tables[first.id]))  # as the reaper does
            again = await ayse.request({"type": "join", "table": first.id})
            assert again["table_info"]["archived"] is True
            assert again["awarded"] == fields(live)
            await ayse.close()

        asyncio.run(main())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_awards_stored_before_the_xp_total_was_get_one(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at migration 10 (awards without their XP total): migration 11 gives each award
    the sum of its person's awards up to it, by time and then table id, what the reopened match
    said before; a person's totals are their own."""
    from batak.server import storage as storage_module

    with database(kind) as db:
        url = db.get("database") or f"sqlite:///{tmp_path / 'awards.sqlite3'}"

        async def main() -> None:
            monkeypatch.setattr(storage_module, "MIGRATIONS", storage_module.MIGRATIONS[:10])
            st = storage_module.Storage(url)
            await st.open()
            add = st._sql(
                "INSERT INTO awards (table_id, player_id, seat, xp, week, at)"
                " VALUES (?, ?, 0, ?, 1, ?)"
            )
            rows = [("t9", "ann", 30, 1.0), ("t2", "ann", 20, 2.0), ("t1", "ann", 5, 2.0),
                    ("t5", "bob", 40, 1.5)]  # fmt: skip
            try:
                await st._call(lambda cur: cur.executemany(add, rows))
            finally:
                await st.close()
            monkeypatch.undo()
            st = storage_module.Storage(url)
            await st.open()
            try:
                got = await st._call(
                    lambda cur: (
                        cur.execute("SELECT table_id, player_id, xp_total FROM awards"),
                        cur.fetchall(),
                    )[1]
                )
            finally:
                await st.close()
            assert sorted(tuple(r) for r in got) == [
                ("t1", "ann", 35), ("t2", "ann", 55), ("t5", "bob", 40), ("t9", "ann", 30)
            ]  # fmt: skip

        asyncio.run(main())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_ratings_move_for_winner_and_loser_solo_and_pairs(tmp_path: Path, kind: str) -> None:
    with database(kind) as db, ServerThread(fast_config(tmp_path, **db)) as srv:

        async def main() -> None:
            names = ["ali", "banu", "cem", "dila"]
            ps = [await account(srv.url, u, u.title()) for u in names]
            for preset in ("standard", "cetinsgame-esli"):
                results = await room_match(ps, preset)
                places = [got["place"] for _, got in results]
                assert min(places) == 1
                for final, got in results:
                    before, after = got["rating_before"], got["rating"]
                    assert after["sigma"] < before["sigma"]  # more certain after a match
                    won = final.seat in final.view["match"]["winners"]
                    assert got["won"] == won
                    if got["place"] == 1:
                        assert after["mu"] > before["mu"], (preset, got)
                    if got["place"] == max(places):
                        assert after["mu"] < before["mu"], (preset, got)
                if preset == "cetinsgame-esli":  # partners move together
                    by_seat = {f.seat: got for f, got in results}
                    for s in (0, 1):
                        ups = [
                            by_seat[x]["rating"]["mu"] > by_seat[x]["rating_before"]["mu"]
                            for x in (s, s + 2)
                        ]
                        assert ups[0] == ups[1]
                    assert sorted(places) == [1, 1, 2, 2]
            board = await ps[0].ratings()
            assert sorted(r["username"] for r in board) == names
            ordinals = [r["rating"]["ordinal"] for r in board]
            assert ordinals == sorted(ordinals, reverse=True)
            for r in board:
                mine = await ps[names.index(r["username"])].progress()
                assert mine["rating"] == r["rating"] and r["matches"] == 2
                assert r["rating"]["ordinal"] == pytest.approx(
                    r["rating"]["mu"] - 3 * r["rating"]["sigma"], abs=0.02
                )
            for c in ps:
                await c.close()

        asyncio.run(main())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_week_closes_with_promotion_and_relegation(tmp_path: Path, kind: str) -> None:
    monday = week_start(week_of(1_796_256_000.0))  # 2026-11-30 00:00 UTC
    wall = MovedWall(monday + 3600)
    with database(kind) as db:
        run_weeks(ServerThread(fast_config(tmp_path, quick_deals=1, **db), wall=wall), wall, monday)


def run_weeks(srv: ServerThread, wall: MovedWall, monday: float) -> None:
    with srv:

        async def main() -> None:
            names = ["ali", "banu", "cem", "dila"]
            ps = {u: await account(srv.url, u, u.title()) for u in names}
            points = dict.fromkeys(names, 0)
            last = {}
            for i, u in enumerate(names):  # ali plays most, dila least
                for _ in range(len(names) - i):
                    wall.t += 60
                    _, got = await quick_match(ps[u])
                    points[u] = got["league"]["points"]
                    last[u] = wall.t  # when they reached their points (ties: first there)
            league = await ps["ali"].league()
            assert league["week"] == "2026-W49" and league["joined"]
            assert league["tier"] == "bronze"
            table = {r["name"].lower(): r for r in league["standings"]}
            assert {u: table[u]["points"] for u in names} == points
            order = sorted(names, key=lambda u: -points[u])
            assert [r["place"] for r in league["standings"]] == [1, 2, 3, 4]
            assert table[order[0]]["zone"] == "up"

            wall.t = monday + WEEK + 10  # the week is over: the next request closes it
            league = await ps["ali"].league()
            assert league["week"] == "2026-W50" and league["joined"] is False
            outcomes = {}
            for u in names:
                mine = await ps[u].league()
                outcomes[u] = mine["last"]["outcome"]
                assert mine["last"]["week"] == "2026-W49"
                assert mine["last"]["points"] == points[u]
            # the best goes up to silver; bronze is the lowest tier: nobody goes down from it
            best = max(names, key=lambda u: (points[u], -last[u]))
            assert outcomes == {u: "up" if u == best else "stay" for u in names}
            assert (await ps[best].progress())["tier"] == "silver"

            # week 2: three players in silver (two climbed there in earlier weeks)
            others = [u for u in names if u != best][:2]

            async def put_in_silver() -> None:
                def job(cur: Any) -> None:
                    for u in others:
                        cur.execute(
                            srv.hub.storage._sql(
                                "UPDATE progress SET tier = 1 WHERE player_id = ?"
                            ),
                            (ps[u].player["id"],),
                        )

                await srv.hub.storage._call(job)

            srv.call(put_in_silver)
            silver = [best, *others]
            pts2 = {}
            for i, u in enumerate(silver):
                for _ in range(3 - i):
                    wall.t += 60
                    _, got = await quick_match(ps[u])
                    assert got["league"]["tier"] == "silver"
                    pts2[u] = got["league"]["points"]
            standings = (await ps[best].league())["standings"]
            assert sorted(r["name"].lower() for r in standings) == sorted(silver)
            assert [r["zone"] for r in standings] == ["up", "stay", "down"]
            ranked = [r["name"].lower() for r in standings]
            assert [pts2[u] for u in ranked] == sorted(pts2.values(), reverse=True)

            wall.t = monday + 2 * WEEK + 10
            await asyncio.sleep(0)
            tiers = {u: (await ps[u].progress())["tier"] for u in silver}
            assert tiers == {ranked[0]: "gold", ranked[1]: "silver", ranked[2]: "bronze"}
            ended = {u: (await ps[u].league())["last"] for u in silver}
            assert [ended[u]["outcome"] for u in ranked] == ["up", "stay", "down"]
            for c in ps.values():
                await c.close()

        asyncio.run(main())
