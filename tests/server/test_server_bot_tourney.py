"""A bot account in a duplicate tournament (``batak bot --tournament ID``): it registers as a
person would, plays its table of each round with the clock, is marked as a bot in the standings
and at its tables, and says its place at the end; the tournaments it cannot enter are said in
the reader's language."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest
from harness import ServerThread, fast_config

import batak
from batak.cli import main
from batak.cli.bot import TourneyProblem, serve_as_bot
from batak.server.client import Client, ServerError
from batak.server.tournament import PER_ACCOUNT

PASSWORD = "uzun-bir-parola"


class FirstLegal:
    """A bot author's player: the first legal move."""

    def choose(self, view: dict[str, Any]) -> str:
        return str(view["legal_moves"][0])


def _first_legal(view: dict[str, Any]) -> str:
    return str(view["legal_moves"][0])


async def _organiser(srv: ServerThread, **options: Any) -> tuple[Client, str]:
    """A person with an account who schedules a tournament an hour ahead (not registered in it
    unless ``join``)."""
    c = Client(srv.url, name="Ayşe")
    await c.connect()
    await c.register("ayse", "uzun-parola-1")
    options = {"rounds": 2, "deals": 1, "start": int(time.time()) + 3600, "join": False} | options
    doc = await c.tourney_create(name="Kış kupası", **options)
    return c, doc["id"]


async def _registered(c: Client, tid: str, n: int) -> dict[str, Any]:
    for _ in range(300):
        doc = await c.tourney(tid)
        if doc["players"] == n:
            return doc
        await asyncio.sleep(0.05)
    raise AssertionError(f"never {n} registered: {doc}")


async def _over(c: Client, tid: str) -> dict[str, Any]:
    for _ in range(600):
        doc = await c.tourney(tid)
        if doc["status"] == "over":
            return doc
        await asyncio.sleep(0.1)
    raise AssertionError(f"not over: {doc}")


def _bot_process(srv: ServerThread, username: str, tid: str, lang: str = "en") -> Any:
    src = str(Path(batak.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src, "BATAK_BOT_PASSWORD": PASSWORD}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "batak",
            "bot",
            srv.http,
            "--username",
            username,
            "--level",
            "easy",
            "--tournament",
            tid,
            "--lang",
            lang,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )


def test_a_bot_entered_with_batak_bot_tournament_plays_it_to_the_end_and_says_its_place(
    tmp_path: Path,
) -> None:
    """``batak bot --tournament ID`` registers the bot account, plays both rounds at the tables
    the server draws, and exits with 0 saying its place; the standings and its tables mark it
    as a bot (its seat was seated as a person's, unmarked, before)."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> tuple[dict[str, Any], list[bool], Any, str]:
            org, tid = await _organiser(srv, join=True)
            proc = _bot_process(srv, "robotur", tid)
            assert proc.stdout is not None
            try:
                assert proc.stdout.readline().strip() == "Bot account robotur is online."
                said = await asyncio.to_thread(proc.stdout.readline)
                assert said.strip() == (
                    "Registered for the tournament Kış kupası (2 registered so far); waiting "
                    "for its start."
                ), said
                doc = await _registered(org, tid, 2)
                assert {p["name"]: p["bot"] for p in doc["registered"]} == {
                    "Ayşe": False,
                    "robotur": True,
                }
                await org.tourney_start(tid)
                marks: list[bool] = []

                async def play() -> None:
                    for _ in range(2):
                        note = await org.wait_for(lambda m: m.get("type") == "tourney_table", 60)
                        await org.join(note["table"])
                        await org.play(note["table"], _first_legal, timeout=120)

                async def look() -> None:
                    # the bot's seat at each of its tables is marked as a bot account's
                    seen: set[str] = set()
                    while len(seen) < 2:
                        now = await org.tourney(tid)
                        for x in now["tables"]:
                            bot = srv.hub.tables.get(x["id"])
                            if x["id"] in seen or bot is None or "robotur" not in x["names"]:
                                continue
                            seat = x["names"].index("robotur")
                            if bot.seats[seat].player is None:  # (not seated yet)
                                continue
                            marks.append(bot.seats[seat].bot_account)
                            seen.add(x["id"])
                        await asyncio.sleep(0.05)

                await asyncio.wait_for(asyncio.gather(play(), look()), 180)
                final = await _over(org, tid)
                out, _ = await asyncio.to_thread(proc.communicate, timeout=60)
                await org.close()
                return final, marks, proc.returncode, said + out
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()

        final, marks, code, out = asyncio.run(main_())
    assert code == 0, out
    assert marks == [True, True]
    row = next(s for s in final["standings"] if s["name"] == "robotur")
    assert row["bot"] and not next(s for s in final["standings"] if s["name"] == "Ayşe")["bot"]
    lines = out.strip().splitlines()
    mp = f"{row['mp']:g}"
    assert lines[-1] == (
        f"The tournament Kış kupası is over: the bot is placed {row['rank']} of 2, with {mp} "
        f"matchpoints (deal scores {row['score']})."
    ), out
    assert sum(line.startswith("Round 1 of 2: seated at table ") for line in lines) == 1, out
    assert sum(line.startswith("Round 2 of 2 over at table ") for line in lines) == 1, out


def test_a_tournament_the_bot_cannot_enter_is_said_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No such tournament, one over, one started without the bot: a sentence each (exit 1),
    not a traceback nor the bot waiting for ever."""
    pytest.importorskip("argon2")
    monkeypatch.setattr(sys, "argv", ["batak"])
    with ServerThread(fast_config(tmp_path)) as srv:

        async def setup() -> tuple[str, str]:
            org, started = await _organiser(srv, join=True)
            await org.tourney_start(started)  # Ayşe plays it; the bot is not in it
            # starting now with nobody registered: over at once
            empty = (await org.tourney_create(rounds=1, deals=1, join=False))["id"]
            await _over(org, empty)
            await org.close()
            return started, empty

        started, over = asyncio.run(setup())
        args = ["bot", srv.http, "--username", "robohata", "--password", PASSWORD]
        assert main([*args, "--tournament", "Tyok", "--lang", "tr"]) == 1
        err = capsys.readouterr().err
        assert "bu sunucuda Tyok diye bir turnuva yok" in err and "Traceback" not in err
        assert main([*args, "--tournament", "Tyok", "--lang", "en"]) == 1
        assert "there is no tournament Tyok on this server" in capsys.readouterr().err
        assert main([*args, "--tournament", over, "--lang", "en"]) == 1
        assert "is over already: there is nothing left to play" in capsys.readouterr().err
        assert main([*args, "--tournament", started, "--lang", "tr"]) == 1
        err = capsys.readouterr().err
        assert "Kış kupası turnuvası bu bot olmadan başladı" in err, err


def test_a_bot_account_enters_three_tournaments_not_over_at_most(tmp_path: Path) -> None:
    """A program plays one match at a time: a bot account may be registered for as many
    tournaments not over as an account may schedule (3); the next is refused, said by the
    bot. A person registers for any number, as before."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, operators=("ayse",))) as srv:

        async def main_() -> None:
            org, first = await _organiser(srv)
            ids = [first] + [
                (await org.tourney_create(rounds=1, deals=1, start=int(time.time()) + 3600))["id"]
                for _ in range(PER_ACCOUNT)
            ]
            bot = Client(srv.url, name="robo")
            person = Client(srv.url, name="Cem")
            for c in (bot, person):
                await c.connect()
            await bot.register("robosayi", PASSWORD, bot=True)
            for tid in ids[:PER_ACCOUNT]:
                await bot.tourney_join(tid)
            with pytest.raises(ServerError) as e:
                await bot.tourney_join(ids[-1])
            assert e.value.code == "tourney_bot_quota"
            assert "at most 3 tournaments that are not over" in e.value.message
            for tid in ids:  # (the organiser, an operator, is in them too)
                await person.tourney_join(tid)
            # withdrawn from one, the bot may enter another
            await bot.tourney_leave(ids[0])
            await bot.tourney_join(ids[-1])
            await bot.close()  # (one program on a bot account at a time)
            lines: list[str] = []
            with pytest.raises(TourneyProblem) as p:
                await serve_as_bot(
                    srv.url,
                    "robosayi",
                    PASSWORD,
                    FirstLegal(),
                    tournament=ids[0],
                    say=lines.append,
                )
            assert p.value.key == "bot_tourney_refused"
            assert "at most 3 tournaments" in p.value.params["reason"]
            for c in (org, person):
                await c.close()

        asyncio.run(main_())


def test_a_bot_account_scheduling_a_tournament_enters_it_within_its_limit(tmp_path: Path) -> None:
    """``tourney_create`` registers its creator (``join``, by default) as ``tourney_join``
    does, with a bot account's limit: a bot in 3 tournaments may schedule one it does not enter,
    not one it enters (before, it was registered all the same: it could be in 6)."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            org = Client(srv.url, name="Ayşe")
            await org.connect()
            await org.register("ayse", "uzun-parola-1")
            start = int(time.time()) + 3600
            bot = Client(srv.url, name="robo")
            await bot.connect()
            await bot.register("robokur", PASSWORD, bot=True)
            for _ in range(PER_ACCOUNT):
                tid = (await org.tourney_create(rounds=1, deals=1, start=start, join=False))["id"]
                await bot.tourney_join(tid)
            with pytest.raises(ServerError) as e:
                await bot.tourney_create(rounds=1, deals=1, start=start)
            assert e.value.code == "tourney_bot_quota"
            mine = await bot.tourney_create(rounds=1, deals=1, start=start, join=False)
            assert mine["registered"] == []
            entered = [x for x in await bot.tourneys() if x["registered"]]
            assert len(entered) == PER_ACCOUNT
            for c in (org, bot):
                await c.close()

        asyncio.run(main_())


def test_a_bot_stopped_before_the_start_withdraws_and_one_stopped_in_play_comes_back(
    tmp_path: Path,
) -> None:
    """Ctrl-C before the start withdraws the bot (tourney_leave: the organiser's list no longer
    has it). Stopped while it plays, it leaves its seat to a computer and stays registered;
    started again, it says it is back, plays on and ends with its place."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> list[str]:
            org, tid = await _organiser(srv, join=False, rounds=2, deals=2)
            lines: list[str] = []

            def bot() -> asyncio.Task[int]:
                return asyncio.create_task(
                    serve_as_bot(
                        srv.url,
                        "robodur",
                        PASSWORD,
                        FirstLegal(),
                        tournament=tid,
                        say=lines.append,
                    )
                )

            first = bot()
            await _registered(org, tid, 1)
            first.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await first
            assert lines[-1] == (
                "The bot stops and withdraws from the tournament Kış kupası before its start."
            )
            assert (await org.tourney(tid))["registered"] == []
            lines.clear()
            second = bot()
            await _registered(org, tid, 1)
            await org.tourney_start(tid)
            for _ in range(600):  # seated at its table of round 1
                if any("Round 1 of 2: seated" in x for x in lines):
                    break
                await asyncio.sleep(0.01)
            second.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await second
            assert lines[-1].startswith("The bot stops: a computer plays its seats"), lines
            doc = await org.tourney(tid)
            assert [p["name"] for p in doc["registered"]] == ["robodur"]
            lines.clear()
            third = bot()
            assert await asyncio.wait_for(third, 180) >= 0
            await org.close()
            return lines

        lines = asyncio.run(main_())
    assert lines[0] == "Bot account robodur is online."
    assert lines[1].startswith("Back in the tournament Kış kupası, which is in round "), lines
    assert lines[-1].startswith("The tournament Kış kupası is over: the bot is placed 1 of 1,")


def test_a_bot_whose_connection_drops_between_rounds_comes_back_to_its_next_table(
    tmp_path: Path,
) -> None:
    """The connection lost as a round ends (the next round's ``tourney_table`` may come while
    it is away): the bot connects again, finds its table of the next round in the tournament
    and plays it, then says its place."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def drop(pid: str) -> None:  # (in the server's loop)
            for conn in list(srv.hub.online.get(pid, ())):
                await conn.close(1012, "restart")

        async def main_() -> list[str]:
            org, tid = await _organiser(srv, join=False, rounds=2, deals=1)
            lines: list[str] = []
            me: list[str] = []

            def say(line: str) -> None:
                lines.append(line)
                if line.startswith("Round 1 of 2 over"):
                    assert srv.loop is not None
                    asyncio.run_coroutine_threadsafe(drop(me[0]), srv.loop)

            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robokop", PASSWORD, FirstLegal(), tournament=tid, say=say)
            )
            doc = await _registered(org, tid, 1)
            me.append(doc["registered"][0]["id"])
            await org.tourney_start(tid)
            assert await asyncio.wait_for(bot, 180) == 2
            await org.close()
            return lines

        lines = asyncio.run(main_())
    text = "\n".join(lines)
    over = next(i for i, x in enumerate(lines) if x.startswith("Round 1 of 2 over"))
    assert lines[over + 1 : over + 3] == [
        "The connection dropped; reconnecting…",
        "Connected to the server again.",
    ], text
    assert sum(x.startswith("Round 2 of 2: seated at table ") for x in lines) == 1, text
    assert lines[-1].startswith("The tournament Kış kupası is over: the bot is placed 1 of 1,")


def _slow_seating(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Storage slow as a round is set up: the save of a round whose tables are made but not yet
    seated waits until the returned event is set (once), as a loaded database may."""
    from batak.server import tournament

    release = threading.Event()
    held: list[bool] = []
    orig = tournament.Tournaments._save

    async def slow_save(self: Any, doc: dict[str, Any]) -> None:
        await orig(self, doc)
        waiting = [
            t
            for t in doc["tables"]
            if t["round"] == doc["round"]
            and t["id"] in self.hub.tables
            and self.hub.tables[t["id"]].status == "waiting"
        ]
        if doc["status"] == "playing" and waiting and not held:
            held.append(True)
            while not release.is_set():
                await asyncio.sleep(0.01)

    monkeypatch.setattr(tournament.Tournaments, "_save", slow_save)
    return release


def test_a_round_table_not_yet_seated_gives_no_seat_and_is_not_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round's tables are made, then saved, then seated by the tournament: while the save is
    slow, the tournament does not list them (a bot or a page would go there), and a registered
    player who comes to their table by its id all the same (asking for another seat) waits and
    gets the seat the tournament gives, once: before, they sat at the seat asked for, the
    tournament sat them again elsewhere and their connection stayed on the wrong seat."""
    pytest.importorskip("argon2")
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> tuple[dict[str, Any], Any, int, list[Any]]:
            org, tid = await _organiser(srv, join=True, rounds=1, deals=1)
            me = org.player["id"]
            starting = asyncio.create_task(org.tourney_start(tid))
            for _ in range(500):  # the round's table is made, its save held
                doc = srv.hub.tournaments.docs[tid]
                if doc["tables"]:
                    break
                await asyncio.sleep(0.01)
            table = doc["tables"][0]
            seat = table["seats"].index(me)
            other = Client(srv.url, name="Ayşe")  # the same person on another device
            await other.connect()
            await other.login("ayse", "uzun-parola-1")
            shown = await other.tourney(tid)
            joining = asyncio.create_task(other.join(table["id"], seat=(seat + 2) % 4))
            await asyncio.sleep(0.3)  # (the join is in; it must not sit before the seating)
            release.set()
            state = await asyncio.wait_for(joining, 30)
            await asyncio.wait_for(starting, 30)
            await other.close()
            await org.close()
            row = await srv.hub.storage.table(table["id"])
            assert row is not None
            events = [(e.kind, e.data.get("seat")) for e in row[1] if e.data.get("player") == me]
            return shown, state, seat, events

        shown, state, seat, events = asyncio.run(main_())
    assert shown["tables"] == [], shown["tables"]
    assert state.seat == seat
    assert events == [("sit", seat)], events


def test_a_round_table_seated_too_late_says_so_and_gives_no_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seating that does not come within the join's wait: the join is refused, saying why
    (``tourney_seating``), and no seat is taken."""
    pytest.importorskip("argon2")
    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 0.1, raising=False)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> tuple[str, list[Any]]:
            org, tid = await _organiser(srv, join=True, rounds=1, deals=1)
            starting = asyncio.create_task(org.tourney_start(tid))
            for _ in range(500):
                doc = srv.hub.tournaments.docs[tid]
                if doc["tables"]:
                    break
                await asyncio.sleep(0.01)
            other = Client(srv.url, name="Ayşe")
            await other.connect()
            await other.login("ayse", "uzun-parola-1")
            try:
                with pytest.raises(ServerError) as e:
                    await other.join(doc["tables"][0]["id"])
                table = srv.hub.tables[doc["tables"][0]["id"]]
                seats = [s.player for s in table.seats]
            finally:
                release.set()
            await asyncio.wait_for(starting, 30)
            await other.close()
            await org.close()
            return e.value.code, seats

        code, seats = asyncio.run(main_())
    assert code == "tourney_seating"
    assert seats == [None, None, None, None]


def test_the_bot_does_not_go_to_a_table_still_waiting_to_be_seated() -> None:
    """A server that lists a round's table before seating it (status ``waiting``, as this one
    did): the bot does not join it then (it would take a free seat that is not its own), but
    waits for its ``tourney_table`` and joins it once seated. Before, it joined at once."""
    from batak.cli.bot import _in_tournament

    def table(status: str) -> dict[str, Any]:
        players = ["me", None, None, None]
        return {"id": "t1", "round": 1, "number": 1, "players": players, "status": status}

    base = {"id": "T1", "name": "Kupa", "rounds": 1, "round": 1, "registered": [{"id": "me"}]}
    docs = [
        base | {"status": "playing", "tables": [table("waiting")]},
        base | {"status": "playing", "tables": [table("playing")]},
        base | {"status": "over", "tables": [table("over")], "standings": []},
    ]
    shown: list[dict[str, Any]] = []
    joined: list[str] = []

    class Fake:
        player: ClassVar[dict[str, str]] = {"id": "me"}
        closed = False

        async def tourney(self, tid: str) -> dict[str, Any]:
            shown.append(docs.pop(0))
            return shown[-1]

        def drain(self) -> list[dict[str, Any]]:
            return [{"type": "tourney_table", "tournament": "T1", "table": "t1", "seat": 0}]

        async def next_change(self) -> None:
            return None

        async def join(self, table_id: str) -> Any:
            joined.append(shown[-1]["tables"][0]["status"])
            raise ServerError({"code": "match_over", "message": "over"})  # (played out)

    async def choose(*_: Any, **__: Any) -> str:
        raise AssertionError("no move to make")

    async def retrying(step: Any) -> Any:
        return await step()

    async def again() -> None:
        return None

    lines: list[str] = []
    played = asyncio.run(
        _in_tournament(
            Fake(), "T1", choose, retrying, again, lambda e: e, lines.append, "en", [0.0]
        )
    )
    assert joined == ["playing"], joined
    assert played == 0 and lines[-1].startswith("The tournament Kupa is over"), lines


def test_a_round_whose_save_fails_once_is_seated_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save of the round that makes the tables fails once (storage down for a moment): the
    tables are made and stored, waiting, so they are seated all the same, the registered
    player is told their table and sits at the seat the tournament gives, and the tournament
    goes on to its end. Before, ``tourney_start`` answered "could not save that", the tables
    stayed waiting for ever and every join was refused with ``tourney_seating``."""
    pytest.importorskip("argon2")
    from batak.server import tournament
    from batak.server.storage import StorageError

    orig = tournament.Tournaments._save
    failed: list[str] = []

    async def flaky_save(self: Any, doc: dict[str, Any]) -> None:
        waiting = [
            t
            for t in doc["tables"]
            if t["round"] == doc["round"]
            and t["id"] in self.hub.tables
            and self.hub.tables[t["id"]].status == "waiting"
        ]
        if doc["status"] == "playing" and waiting and not failed:
            failed.append(doc["id"])
            raise StorageError("database is locked")
        await orig(self, doc)

    monkeypatch.setattr(tournament.Tournaments, "_save", flaky_save)
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> tuple[dict[str, Any], Any, dict[str, Any]]:
            org, tid = await _organiser(srv, join=True, rounds=1, deals=1)
            await org.tourney_start(tid)
            note = await org.wait_for(lambda m: m.get("type") == "tourney_table", 30)
            listed = await org.tourney(tid)
            state = await org.join(note["table"])
            await org.leave(note["table"])  # a bot plays the seat
            final = await _over(org, tid)
            await org.close()
            return note, state, listed | {"final": final}

        note, state, listed = asyncio.run(main_())
    assert failed, "the save never failed"
    assert state.seat == note["seat"]
    assert [x["status"] for x in listed["tables"]] == ["playing", "playing"], listed["tables"]
    assert listed["final"]["status"] == "over"
    assert all(x["over"] for x in listed["final"]["tables"])


@pytest.mark.parametrize("by", ["catch_up", "join"])
def test_a_round_made_but_not_seated_before_a_restart_is_seated_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    """The server stops between making a round's tables (stored, waiting, in the saved
    tournament) and seating them: started again, the tournament seats them (same groups, same
    deals), by its catch-up at the start or (``join``: the catch-up left out) at the first join
    there; the registered player sits at their seat by the table's id, and the tournament
    ends. Before, the tables were resumed waiting, nothing seated them, and every join was
    refused with ``tourney_seating`` for ever."""
    pytest.importorskip("argon2")
    from batak.server import tournament

    config = fast_config(tmp_path)
    orig = tournament.Tournaments._seat
    reached = threading.Event()

    async def never(self: Any, table: Any, group: Any, dealer: int) -> None:
        reached.set()  # (the round is saved; its seating never comes: the server stops)
        raise RuntimeError("the server stops before the seating")

    monkeypatch.setattr(tournament.Tournaments, "_seat", never)
    with ServerThread(config) as srv:

        async def begin() -> tuple[str, str, dict[str, Any]]:
            org, tid = await _organiser(srv, join=True, rounds=1, deals=1)
            starting = asyncio.create_task(org.tourney_start(tid))
            assert await asyncio.to_thread(reached.wait, 30)
            doc = srv.hub.tournaments.docs[tid]
            table = next(t for t in doc["tables"] if org.player["id"] in t["seats"])
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError, ServerError):
                await starting
            token = org.token
            assert token is not None
            await org.drop()
            return tid, token, dict(table)

        tid, token, table = asyncio.run(begin())
    monkeypatch.setattr(tournament.Tournaments, "_seat", orig)
    if by == "join":

        async def nothing(self: Any, tid: str) -> None:
            return None

        monkeypatch.setattr(tournament.Tournaments, "_catch_up", nothing)
    with ServerThread(config) as srv:

        async def after() -> tuple[Any, dict[str, Any], dict[str, Any]]:
            a = Client(srv.url, token=token)
            await a.connect()
            if by == "catch_up":  # seated with nobody there yet
                for _ in range(300):
                    if srv.hub.tables[table["id"]].status != "waiting":
                        break
                    await asyncio.sleep(0.05)
            state = await a.join(table["id"])
            for _ in range(300):  # (a table is listed once seated)
                shown = await a.tourney(tid)
                if len(shown["tables"]) == 2:
                    break
                await asyncio.sleep(0.05)
            await a.leave(table["id"])
            final = await _over(a, tid)
            await a.close()
            return state, shown, final

        state, shown, final = asyncio.run(after())
    me = final["registered"][0]["id"]
    assert state.seat == table["seats"].index(me)
    assert state.info.get("status") == "playing", state.info
    assert [x["id"] for x in shown["tables"]] == [t["id"] for t in final["tables"]]
    assert all(x["status"] != "waiting" for x in shown["tables"]), shown["tables"]
    assert final["status"] == "over" and all(x["over"] for x in final["tables"])


def test_a_seating_refusal_says_whether_the_person_has_a_seat_coming_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may watch a tournament's table, but one still being seated refused everybody
    alike: "your seat is ready in a moment", also to a person who is not in the tournament
    (a shared link), who gets no seat there but will watch. The refusal now says ``seat``: true
    to the player the tournament seats at that table, false to anyone else, each with words of
    their own, and ``table``: the table refused (before, it named none, and a web page that had
    moved on to another table took a late refusal for the one it showed)."""
    pytest.importorskip("argon2")
    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 0.1, raising=False)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> tuple[list[dict[str, Any]], str]:
            org, tid = await _organiser(srv, join=True, rounds=1, deals=1)
            starting = asyncio.create_task(org.tourney_start(tid))
            for _ in range(500):
                doc = srv.hub.tournaments.docs[tid]
                if doc["tables"]:
                    break
                await asyncio.sleep(0.01)
            table = doc["tables"][0]["id"]
            mine = Client(srv.url, name="Ayşe")  # the registered player, on another connection
            await mine.connect()
            await mine.login("ayse", "uzun-parola-1")
            other = Client(srv.url, name="Mehmet")  # a guest, in no tournament
            await other.connect()
            said = []
            try:
                for c in (mine, other):
                    with pytest.raises(ServerError) as e:
                        await c.join(table)
                    said.append(e.value.data)
            finally:
                release.set()
            await asyncio.wait_for(starting, 30)
            watching = await other.join(table)  # seated now: the guest watches
            assert watching.seat is None
            for c in (mine, other, org):
                await c.close()
            return said, table

        (player, guest), table = asyncio.run(main_())
    assert player["code"] == guest["code"] == "tourney_seating"
    # the table refused is named (a late answer is told from one about another table)
    assert player.get("table") == guest.get("table") == table, (player, guest)
    assert player.get("seat") is True and guest.get("seat") is False, (player, guest)
    assert "your seat" in player["message"], player
    assert "your seat" not in guest["message"] and "watch" in guest["message"], guest
