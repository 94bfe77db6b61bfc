"""Deleting an account's personal data on request (``delete_account``, ``batak admin erase``):
the name, username, password, sessions, story progress and chat lines go from every table of
the database; the games stay under "Removed player"."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.cli import main
from batak.server import erase
from batak.server.client import Client, ServerError
from batak.server.erase import erase_job
from batak.server.storage import EventRow, PlayerRow, Storage, TableRow, open_storage

NAME = "Zeynep Özgürsoy"
WORDS = "benim-gizli-sohbetim"
TABLES = (
    "players",
    "tables",
    "events",
    "results",
    "sessions",
    "tournaments",
    "story_progress",
    "chip_accounts",
    "ledger",
    "progress",
    "awards",
    "league",
    "league_weeks",
    "meta",
)


async def _everything(url: str) -> str:
    """Every row of every table of the database, as text."""
    storage = open_storage(url)
    await storage.open()

    def job(cur: Any) -> str:
        out = []
        for table in TABLES:
            cur.execute(f"SELECT * FROM {table}")
            out.extend(repr(r) for r in cur.fetchall())
        return "\n".join(out)

    try:
        return await storage.run(job)
    finally:
        await storage.close()


def test_a_player_deletes_their_account_and_their_name_leaves_the_database(
    tmp_path: Path, database: str | None
) -> None:
    """On SQLite, then on PostgreSQL (the ``database`` fixture)."""
    pytest.importorskip("argon2")
    config = fast_config(
        tmp_path, database=database, quick_deals=1, reap_every=0.2, session_recheck_seconds=0
    )
    url = config.database_url
    with ServerThread(config) as srv:

        async def play_and_delete() -> tuple[str, str, int]:
            z = Client(srv.url, name=NAME)
            await z.connect()
            await z.register("zeynep", "uzun-parola-1")
            pid = z.player["id"]
            st = await z.quick("ihaleli")
            await z.chat(st.id, WORDS)
            final = await z.play(st.id, timeout=90)
            assert final.over and final.seat is not None
            seat = final.seat
            await z.awarded(st.id)
            phone = Client(srv.url)
            await phone.connect()
            await phone.login("zeynep", "uzun-parola-1")

            # first, what the server keeps about the player (my_data): their own, no secret
            mine = await z.my_data()
            assert mine["format"] == "batak-player-data/1"
            assert mine["player"]["username"] == "zeynep" and mine["player"]["name"] == NAME
            assert [m["table"] for m in mine["matches"]] == [st.id]
            assert mine["matches"][0]["seat"] == seat
            assert [c["text"] for c in mine["chat"]] == [WORDS]
            assert len(mine["sessions"]) == 2 and mine["progress"]["xp"] > 0
            assert mine["chips"]["balance"] == sum(x["amount"] for x in mine["chips"]["ledger"])
            text = json.dumps(mine)
            assert "argon2" not in text and z.token not in text
            assert "token" not in text and "hash" not in text
            with pytest.raises(ServerError) as e:  # once every 30 s
                await phone.my_data()
            assert e.value.code == "export_rate"

            # sitting in a room not started: refused, and nothing changes
            created, _ = await z.create(bots=False)
            with pytest.raises(ServerError) as e:
                await z.delete_account("uzun-parola-1")
            assert e.value.code == "account_busy"
            assert created["code"] in str(e.value)
            assert str(e.value).endswith("delete your account once the match is over")
            await z.leave(created["table"])
            with pytest.raises(ServerError) as e:
                await z.delete_account("yanlis-parola")
            assert e.value.code == "bad_password"
            assert str(e.value).endswith("the password is wrong; your account was not deleted")

            done = await z.delete_account("uzun-parola-1")
            assert done["type"] == "account_deleted"
            assert done["games"] >= 2 and done["chat"] == 1  # the match and the room left
            assert z.token is None and z.player == {}
            # the other device is told and closed
            told = await phone.wait_for(lambda m: m.get("type") == "logged_out", 5)
            assert told["reason"] == "deleted"
            await phone.until(lambda: phone.closed, 5)
            # the connection goes on as a new guest
            again = await z.hello()
            assert again["player"]["id"] != pid and again["player"]["account"] is None
            with pytest.raises(ServerError) as e:  # a guest has no data to download
                await z.my_data()
            assert e.value.code == "needs_account"
            await z.close()
            return pid, st.id, seat

        pid, table, seat = asyncio.run(play_and_delete())

        async def afterwards() -> None:
            async with Client(srv.url) as c:
                with pytest.raises(ServerError) as e:
                    await c.login("zeynep", "uzun-parola-1")
                assert e.value.code == "bad_login"
                # the finished match, still in the server's memory: no name, no words
                seen = await c.sync(table)
                s = seen["table_info"]["seats"][seat]
                assert s["name"] is None and s["removed"] is True
                assert all(
                    x["removed"] is False
                    for i, x in enumerate(seen["table_info"]["seats"])
                    if i != seat
                )
                assert WORDS not in json.dumps(seen, ensure_ascii=False)
                # nor in the events a reconnect is sent again
                again = await c.sync(table, since=0)
                assert again.get("full") is False and again["events"]
                text = json.dumps(again, ensure_ascii=False)
                assert WORDS not in text and NAME not in text
            async with Client(srv.url, lang="tr") as c:
                await c.sync(table)
                review = await c.review(table, 1)
                assert review["names"][seat] == "Silinmiş oyuncu"
                board = await c.request({"type": "leaderboard"})
                assert pid not in json.dumps(board)
                assert all(r["player"] != pid for r in await c.ratings())

        asyncio.run(afterwards())

    everything = asyncio.run(_everything(url))
    assert pid in everything  # the games, results and chips stay, under the id
    for gone in (NAME, "zeynep", WORDS):
        assert gone not in everything, gone

    # after a restart: the finished match's record has no name, and the username is free
    with ServerThread(config) as srv:
        with urllib.request.urlopen(f"{srv.http}/api/tables/{table}/record") as r:
            record = json.load(r)
        names = record["meta"]["players"]
        assert names[seat] == "" and all(n for i, n in enumerate(names) if i != seat)

        async def reload() -> None:
            async with Client(srv.url, lang="tr") as c:
                made = await c.register("zeynep", "baska-parola-2")
                assert made["username"] == "zeynep" and c.player["id"] != pid

        asyncio.run(reload())


def test_the_host_erases_an_account_with_batak_admin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    config = fast_config(data, quick_deals=1, reap_every=0.2, session_recheck_seconds=0)
    with ServerThread(config) as srv:

        async def play() -> str:
            """A match played and chatted at, then the player gone."""
            async with Client(srv.url, name=NAME) as z:
                await z.register("zeynep", "uzun-parola-1")
                st = await z.quick("ihaleli")
                await z.chat(st.id, WORDS)
                assert (await z.play(st.id, timeout=90)).over
            return st.id

        async def erase_beside_the_server() -> None:
            table = await play()
            # the host answers a request for the data first
            out = tmp_path / "zeynep.json"
            code = await asyncio.to_thread(
                main, ["admin", "export", "ZEYNEP", "--output", str(out), *where]
            )
            assert code == 0
            assert capsys.readouterr().err.strip() == f"The data of zeynep is written to {out}."
            exported = json.loads(out.read_text(encoding="utf-8"))
            assert exported["player"]["name"] == NAME and len(exported["matches"]) == 1
            # no terminal to type the name in: --yes is needed
            code = await asyncio.to_thread(main, ["admin", "erase", "Zeynep", *where])
            assert code == 2
            assert "add --yes" in capsys.readouterr().err
            # in a terminal, the username typed again (as it is written)
            monkeypatch.setattr("sys.stdin.isatty", lambda: True)
            monkeypatch.setattr("builtins.input", lambda prompt="": "zeynep")
            code = await asyncio.to_thread(main, ["admin", "erase", "zeynep", *where])
            said = capsys.readouterr().out
            assert code == 0, said
            assert said.startswith("This deletes the personal data of zeynep")
            gone = "its name is gone from the stored tables (1) and its chat lines (1)"
            assert f"zeynep is deleted: {gone}" in said
            code = await asyncio.to_thread(main, ["admin", "erase", "zeynep", *where])
            assert code == 2  # no such account any more
            assert "No account is called zeynep." in capsys.readouterr().err
            # the running server lets go of the finished table it still holds (at its next
            # round): the events a reconnect is sent again no longer name the player
            async with Client(srv.url) as watcher:
                for _ in range(50):
                    text = json.dumps(await watcher.sync(table, since=0), ensure_ascii=False)
                    if NAME not in text and WORDS not in text:
                        break
                    await asyncio.sleep(0.1)
                assert NAME not in text and WORDS not in text

        asyncio.run(erase_beside_the_server())

    assert NAME not in asyncio.run(_everything(config.database_url))


def test_admin_erase_asks_again_and_keeps_the_account_when_the_name_is_not_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "tr"]
    config = fast_config(data, reap_every=0.2, session_recheck_seconds=0)
    with ServerThread(config) as srv:

        async def connected() -> None:
            c = Client(srv.url, name=NAME)
            await c.connect()
            await c.register("zeynep", "uzun-parola-1")
            monkeypatch.setattr("sys.stdin.isatty", lambda: True)
            monkeypatch.setattr("builtins.input", lambda prompt="": "hayır")
            assert await asyncio.to_thread(main, ["admin", "erase", "zeynep", *where]) == 1
            out = capsys.readouterr().out
            assert "Silinmedi: zeynep olduğu gibi duruyor." in out
            assert not c.closed
            code = await asyncio.to_thread(main, ["admin", "erase", "zeynep", "--yes", *where])
            assert code == 0
            assert capsys.readouterr().out.splitlines()[-1].startswith("zeynep silindi:")
            # the running server closes the open connection, saying why
            told = await c.wait_for(lambda m: m.get("type") == "logged_out", 5)
            assert told["reason"] == "deleted"

        asyncio.run(connected())
    assert NAME not in asyncio.run(_everything(config.database_url))


def test_an_account_erased_beside_the_server_is_told_even_if_let_go_of_first(
    tmp_path: Path,
) -> None:
    """``batak admin erase`` beside a running server, whose passes find the erasure in the
    other order: the pass that lets go of the accounts erased lately (``scrub_erased``) comes
    before the one that closes the connections of ended sessions. The open connection is
    still told (``logged_out``, ``deleted``) and closed. Before, letting go took the
    account off the connection's player first, so that the pass over ended sessions, which
    looks only at accounts' connections, never saw it: the connection stayed open under
    the erased player's id, never told (test_admin_erase_asks_again_... waited in vain
    about one time in ten on a busy machine)."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    config = fast_config(data, reap_every=3600.0, session_recheck_seconds=0)  # (passes by hand)
    with ServerThread(config) as srv:
        hub = srv.hub

        async def connected() -> None:
            c = Client(srv.url, name=NAME)
            await c.connect()
            try:
                await c.register("zeynep", "uzun-parola-1")
                pid = c.player["id"]
                code = await asyncio.to_thread(main, ["admin", "erase", "zeynep", "--yes", *where])
                assert code == 0
                assert srv.loop is not None  # (srv.call would block this loop's client)
                for step in (hub.scrub_erased, hub.close_ended_sessions):
                    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(step(), srv.loop))
                assert pid not in hub.online  # (signed out: no connection speaks for it)
                told = await c.wait_for(lambda m: m.get("type") == "logged_out", 30)
                assert told["reason"] == "deleted"
            finally:
                await c.close()

        asyncio.run(connected())


def test_the_connection_that_deletes_its_account_stays_when_a_pass_comes_between(
    tmp_path: Path,
) -> None:
    """The reaper's pass over the accounts erased lately (``scrub_erased``) comes right after
    the erasure asked on this process is stored, before the hub goes on with it (possible on
    PostgreSQL, whose jobs run side by side): it leaves that account to the erasure under way.
    The asking connection gets ``account_deleted`` and may say hello again as a guest; it is
    not told ``logged_out`` and closed as a connection of an account erased elsewhere is."""
    pytest.importorskip("argon2")
    config = fast_config(tmp_path, reap_every=3600.0, session_recheck_seconds=0)
    with ServerThread(config) as srv:
        hub = srv.hub
        storage = hub.storage
        real_run = storage.run

        async def run(job: Any) -> Any:
            out = await real_run(job)
            if getattr(out, "erased", False):  # the erasure is stored: a pass comes in between
                await hub.scrub_erased()
            return out

        storage.run = run  # type: ignore[method-assign]

        async def main() -> None:
            z = Client(srv.url, name=NAME)
            await z.connect()
            try:
                await z.register("zeynep", "uzun-parola-1")
                done = await z.delete_account("uzun-parola-1")
                assert done["type"] == "account_deleted"
                assert not [m for m in z.drain() if m.get("type") == "logged_out"]
                again = await z.hello()
                assert again["type"] == "welcome" and again["player"]["account"] is None
            finally:
                await z.close()

        asyncio.run(main())


def _sit(seat: int, player: str | None, name: str) -> dict[str, Any]:
    return {"seat": seat, "player": player, "name": name}


def test_the_erasure_reads_the_seats_and_the_tournaments(
    tmp_path: Path, database: str | None
) -> None:
    """The jobs themselves, on SQLite and on PostgreSQL: who sits at an unfinished table now
    (sits and stands replayed), the tournaments not over, the names taken out of the
    tournaments' documents, the events walked in parts, the second pass."""

    async def main_() -> None:
        url = database or f"sqlite:///{tmp_path / 'db.sqlite3'}"
        storage: Storage = open_storage(url)
        await storage.open()
        try:
            await _job_checks(storage)
        finally:
            await storage.close()

    asyncio.run(main_())


async def _job_checks(storage: Storage) -> None:
    said = {"seat": None, "player": "pa11ce000001", "name": NAME, "text": WORDS}
    await storage.create_player(PlayerRow("pa11ce000001", NAME, "tok-a", 0.0, "zeynep", "h1"))
    await storage.create_player(PlayerRow("pb0b00000002", "Bora", "tok-b", 0.0))

    def table(tid: str, code: str, status: str) -> TableRow:
        return TableRow(tid, code, "private", None, {}, 1, 0, {}, None, status, 0.0)

    # sat, stood up, another sat in that seat: not seated now
    await storage.create_table(
        table("t1", "AAAAAA", "waiting"),
        [
            EventRow(1, "sit", _sit(0, "pa11ce000001", NAME), 0.0),
            EventRow(2, "stand", {"seat": 0}, 0.0),
            EventRow(3, "sit", _sit(0, "pb0b00000002", "Bora"), 0.0),
            EventRow(4, "chat", said, 0.0),
        ],
    )
    # still sitting at a match in play; and at an adjourned one, which may wait for ever and
    # so does not stand in the way (its seat is kept nameless)
    await storage.create_table(
        table("t2", "BBBBBB", "playing"),
        [EventRow(1, "sit", _sit(2, "pa11ce000001", NAME), 0.0)],
    )
    await storage.create_table(
        table("t3", "CCCCCC", "adjourned"),
        [EventRow(1, "sit", _sit(1, "pa11ce000001", NAME), 0.0)],
    )
    doc = {
        "id": "u1",
        "name": "Pazar kupası",
        "creator": "pb0b00000002",
        "creator_name": "Bora",
        "players": [{"id": "pa11ce000001", "name": NAME}, {"id": "pb0b00000002", "name": "Bora"}],
        "tables": [
            {
                "seats": [None, "pa11ce000001", "pb0b00000002", None],
                "names": ["Bot 1.1", NAME, "Bora", "Bot 1.4"],
            }
        ],
        "standings": [
            {"player": "pb0b00000002", "name": "Bora"},
            {"player": "pa11ce000001", "name": NAME},
        ],
    }
    await storage.save_tournament("u1", "scheduled", 0.0, 0.0, doc)
    busy = await storage.run(erase_job(storage.q, "pa11ce000001"))
    assert not busy.erased and busy.tables == ["BBBBBB"] and busy.tournaments == ["Pazar kupası"]
    with_other = await storage.run(erase_job(storage.q, "pa11ce000001", checked="h0"))
    assert with_other.password_changed and not with_other.erased

    await storage.run(
        lambda cur: cur.execute(storage.q("UPDATE tables SET status = 'over' WHERE id = 't2'"))
    )
    await storage.save_tournament("u1", "over", 0.0, 0.0, doc)
    done = await storage.run(erase_job(storage.q, "pa11ce000001", checked="h1"))
    assert done.erased and done.sessions == ["tok-a"]
    # the events, in parts (of one row here, so that the walk along the key is tested)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(erase, "PART", 1)
        assert await erase.scrub_events(storage.run, storage.q, "pa11ce000001") == (3, 1)
    # a second pass is due once every server has let go of the account: a name written back
    # meanwhile (a stale session elsewhere) goes then
    now = time.time()
    assert await storage.run(erase.pending_job(storage.q, now)) == []
    later = now + erase.SETTLE + 1
    assert await storage.run(erase.pending_job(storage.q, later)) == ["pa11ce000001"]
    await storage.append_events("t1", [EventRow(5, "chat", {**said, "text": "yine ben"}, 0.0)])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(erase.time, "time", lambda: later)
        assert await erase.scrub_events(storage.run, storage.q, "pa11ce000001") == (1, 1)
    assert await storage.run(erase.pending_job(storage.q, later)) == []
    # a server finds a connection of the account still open: another pass is due, SETTLE on
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(erase.time, "time", lambda: later + 10)
        found = erase.dirty_job(storage.q, ["pa11ce000001", "pb0b00000002"])
        assert await storage.run(found) == ["pa11ce000001"]
    assert await storage.run(erase.pending_job(storage.q, later + 9 + erase.SETTLE)) == []
    due = await storage.run(erase.pending_job(storage.q, later + 11 + erase.SETTLE))
    assert due == ["pa11ce000001"]
    assert await storage.run(erase.recent_job(storage.q, now - 60)) == ["pa11ce000001"]
    stored = await storage.tournament("u1")
    assert stored is not None
    assert stored["players"][0]["name"] == "" and stored["players"][1]["name"] == "Bora"
    assert stored["tables"][0]["names"] == ["Bot 1.1", "", "Bora", "Bot 1.4"]
    assert stored["creator_name"] == "Bora"
    assert [p["name"] for p in stored["standings"]] == ["Bora", ""]
    assert (await storage.events("t3"))[0].data == _sit(1, "pa11ce000001", "")
    events = await storage.events("t1")
    assert events[2].data["name"] == "Bora"
    gone = {"seat": None, "player": "pa11ce000001", "name": "", "text": "", "removed": True}
    assert events[3].data == events[4].data == gone
    row = await storage.player_by("id", "pa11ce000001")
    assert row is not None and row.name == "" and row.username is None and row.password_hash is None
    assert row.banned is not None  # out of every leaderboard
    assert await storage.player_by("id", "pb0b00000002") is not None


def test_an_adjourned_room_does_not_stand_in_the_way_and_plays_on_with_a_removed_seat(
    tmp_path: Path,
) -> None:
    """An adjourned room may wait for ever: a player sitting there may still delete their
    account. Resumed, the seat is "Removed player" and a computer plays it to the end."""
    pytest.importorskip("argon2")
    config = fast_config(tmp_path, hold_seconds=0.2, reap_every=0.2, session_recheck_seconds=0)
    with ServerThread(config) as srv:

        async def main_() -> None:
            host, c, d = (Client(srv.url, name=n) for n in ("Ev", "Cem", "Dilek"))
            z = Client(srv.url, name=NAME)
            for p in (host, z, c, d):
                await p.connect()
            await z.register("zeynep", "uzun-parola-1")
            created, _ = await host.create(bots=False, deals=1)
            table = created["table"]
            for p in (z, c, d):
                await p.join(code=created["code"])
            await host.start(table)
            await z.until(lambda: z.tables[table].view is not None)
            seat = z.tables[table].seat
            assert seat is not None
            await z.chat(table, WORDS)
            await host.adjourn(table)
            await host.until(lambda: host.tables[table].info["status"] == "adjourned")
            done = await z.delete_account("uzun-parola-1")
            assert done["games"] == 1 and done["chat"] == 1
            await host.start(table)  # resumed: the seat is nameless, a computer plays it
            await host.until(lambda: host.tables[table].info["status"] == "playing")
            s = host.tables[table].info["seats"][seat]
            assert s["name"] is None and s["removed"] is True
            # a sentence that names the seat (a move out of turn: "… is to move", a review)
            # says "Removed player" in the reader's language, never a bare seat number
            names = {lang: srv.hub.tables[table]._seat_name(seat, lang) for lang in ("en", "tr")}
            assert names == {"en": "Removed player", "tr": "Silinmiş oyuncu"}, names
            finals = await asyncio.gather(*(p.play(table, timeout=90) for p in (host, c, d)))
            assert all(f.over for f in finals)
            text = json.dumps(await host.sync(table, since=0), ensure_ascii=False)
            assert NAME not in text and WORDS not in text
            for p in (host, c, d):
                await p.close()

        asyncio.run(main_())
    everything = asyncio.run(_everything(config.database_url))
    assert NAME not in everything and WORDS not in everything


def test_admin_erase_refuses_redis_beside_an_sqlite_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak admin erase --redis`` is for a cluster, whose database is PostgreSQL: beside
    an SQLite one it is refused before anything is asked or changed (exit 2), in the
    operator's language; a bad Redis address is refused as ``batak serve`` refuses it."""
    from batak.server.config import ServerConfig

    data = tmp_path / "data"

    async def made() -> None:
        storage = open_storage(ServerConfig(data=data).database_url)
        await storage.open()
        try:
            await storage.create_player(PlayerRow("pa11ce000001", NAME, "tok-a", 0.0, "zeynep"))
        finally:
            await storage.close()

    asyncio.run(made())
    where = ["--data", str(data), "--yes", "--redis", "redis://127.0.0.1:6379/0"]
    for lang, words in (("en", "this one is SQLite"), ("tr", "bu veritabanı SQLite")):
        assert main(["admin", "erase", "zeynep", *where, "--lang", lang]) == 2
        said = capsys.readouterr()
        assert words in said.err and said.out == ""
    with pytest.raises(SystemExit):
        main(["admin", "erase", "zeynep", "--data", str(data), "--redis", "http://x/0"])
    assert "not a Redis address" in capsys.readouterr().err
    assert NAME in asyncio.run(_everything(ServerConfig(data=data).database_url))  # (as it was)


def test_the_events_pass_takes_the_records_and_tournaments_again_in_a_transaction_of_its_own(
    tmp_path: Path,
) -> None:
    """The last step of a pass over the events (:func:`erase.scrub_events`: the pass marked
    done, and the records and tournaments scrubbed again) locks those rows in the order of
    their ids, as an erasure does (``erase._scrubbed``). So it is run alone
    (:class:`~batak.server.storage._Alone`), never batched beside other jobs: two such steps
    in one batch (two accounts' passes, queued at one moment) would lock their rows in the
    order of the jobs, and could hold one row that an erasure waits for while waiting for
    another that the erasure holds (a deadlock, which PostgreSQL ends with ``storage``)."""
    from batak.server.storage import _Alone

    async def main_() -> list[Any]:
        storage: Storage = open_storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.open()
        try:
            await storage.create_player(PlayerRow("pa11ce000001", NAME, "tok-a", 0.0, "zeynep"))
            assert (await storage.run(erase_job(storage.q, "pa11ce000001"))).erased
            jobs: list[Any] = []

            async def run(job: Any) -> Any:
                jobs.append(job)
                return await storage.run(job)

            await erase.scrub_events(run, storage.q, "pa11ce000001", settle=0.0)
            row = await storage.run(
                lambda cur: cur.execute(
                    storage.q("SELECT scrubbed FROM players WHERE id = ?"), ("pa11ce000001",)
                ).fetchone()
            )
            assert row is not None and row[0] is not None  # (the last job marked the pass)
            return jobs
        finally:
            await storage.close()

    jobs = asyncio.run(main_())
    assert len(jobs) >= 2 and isinstance(jobs[-1], _Alone)
