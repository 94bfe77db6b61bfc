"""Room codes cannot be guessed nor private rooms reached around them: 8-character codes,
a lockout on failed look-ups (per player and per address), a finished room's code opens
nothing, a private room does not open by its id without the code, and a finished private
record is kept to its players. Over real sockets."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.server.client import Client, ServerError
from batak.server.hub import CODE_ALPHABET


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


async def _code(c: Client, code: str) -> str:
    try:
        await c.join(code=code)
    except ServerError as e:
        return e.code
    return "ok"


def test_failed_code_lookups_lock_the_player_and_the_address(tmp_path: Path) -> None:
    config = fast_config(tmp_path, code_failures_free=3, code_failures_free_address=5)
    with ServerThread(config) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, _ = await host.create(bots=False)
            code = created["code"]
            assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
            guesser = Client(srv.url, name="G", lang="tr")
            await guesser.connect()
            answers = [await _code(guesser, f"ZZZZZZZ{d}") for d in "2345"]
            assert answers == ["no_table"] * 4
            # locked: even the right code is refused now, with the time to wait
            with pytest.raises(ServerError) as e:
                await guesser.join(code=code)
            assert e.value.code == "locked" and e.value.data["retry_after"] == 30
            # another player from the same address: the address has failed 4 times
            other = Client(srv.url, name="O")
            await other.connect()
            assert await _code(other, "ZZZZZZZ6") == "no_table"
            assert await _code(other, "ZZZZZZZ7") == "no_table"
            assert await _code(other, code) == "locked"
            for c in (host, guesser, other):
                await c.close()

        asyncio.run(main())


def test_a_room_seen_by_its_code_before_sitting_and_wrong_codes_count(tmp_path: Path) -> None:
    """``room``: an invitation's page shows what the room plays and who sits there before one
    sits down (nobody is seated by it); a code that opens nothing counts against the lockout as
    a wrong ``join`` does, so codes cannot be guessed through it either."""
    config = fast_config(tmp_path, code_failures_free=3, code_failures_free_address=50)
    with ServerThread(config) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            created, table = await host.create(preset="standard", deals=3, bots=False)
            code = created["code"]
            peek = Client(srv.url, name="Peek")
            await peek.connect()
            room = await peek.room(code.lower())
            assert room["preset"] == "standard" and room["rules"]["deals"] == 3
            assert room["host"] == "Ayşe" and room["status"] == "waiting"
            assert room["seats"] == ["Ayşe", None, None, None] and room["free"] == 3
            assert room["kind"] == "private" and room["stake"] == 0
            assert room["decision"] > 0
            assert "id" not in room and "code" not in room  # the code opens it, as before
            # nobody sat down
            info = await host.sync(table.id)
            assert [s["name"] for s in info["table_info"]["seats"]] == ["Ayşe", None, None, None]
            codes = []
            for wrong in ("ZZZZZZZ2", "ZZZZZZZ3", "ZZZZZZZ4", "ZZZZZZZ5"):
                with pytest.raises(ServerError) as e:
                    await peek.room(wrong)
                codes.append(e.value.code)
            assert codes == ["no_table"] * 4
            with pytest.raises(ServerError) as e:  # locked: the right code too
                await peek.room(code)
            assert e.value.code == "locked"
            for c in (host, peek):
                await c.close()

        asyncio.run(main())


def test_a_private_room_opens_by_id_only_to_its_people_and_its_record_to_its_players(
    tmp_path: Path,
) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            t, code = table.id, created["code"]
            outsider = Client(srv.url, name="Out")
            await outsider.connect()
            for how in ({"table": t}, {"table": t, "spectate": True}):
                with pytest.raises(ServerError) as e:
                    await outsider.join(**how)  # type: ignore[arg-type]
                assert e.value.code == "no_table"
            with pytest.raises(ServerError) as e:
                await outsider.sync(t)
            assert e.value.code == "no_table"
            # with the code: in, and after that the id opens it too (a reconnect's sync)
            watcher = Client(srv.url, name="Watch")
            await watcher.connect()
            await watcher.join(code=code, spectate=True)
            await host.start(t)
            await watcher.sync(t)
            assert watcher.tables[t].seat is None
            assert watcher.tables[t].record is None  # not seated: no record key
            final = await host.play(t, timeout=90)
            assert final.over and final.record is not None
            await watcher.until(lambda: watcher.tables[t].over, 20)
            # the code of a finished room opens nothing: the match is over, no more is said
            # (not where its record is, nor the table's id)
            with pytest.raises(ServerError) as e:
                await outsider.join(code=code)
            assert e.value.code == "match_over" and "record" not in e.value.message
            # (the room is named by the asker's own code, so that an old invitation's page
            # says which match is over)
            assert e.value.message == f"the match in room {code} is over", e.value.message
            assert t not in e.value.message and set(e.value.data) <= {
                "type",
                "code",
                "message",
                "ref",
            }
            # its record: to its players only
            for _ in range(100):
                if _status(srv.http + final.record) == 200:
                    break
                await asyncio.sleep(0.05)
            assert _status(srv.http + final.record) == 200
            assert _status(f"{srv.http}/api/tables/{t}/record") == 403
            assert _status(f"{srv.http}/api/tables/{t}/record?key=0123456789abcdef") == 403

        asyncio.run(main())


def test_a_finished_private_table_by_id_after_it_left_memory(tmp_path: Path) -> None:
    """After a restart (the table only in storage), its id opens it again, as it ended, to a
    player who sat there (with the record's address), and answers as if there were no table to
    anyone else."""
    config = fast_config(tmp_path)
    with ServerThread(config) as srv:

        async def first() -> tuple[str, str, str, str]:
            host = Client(srv.url, name="Host")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1)
            await host.start(table.id)
            final = await host.play(table.id, timeout=90)
            assert final.record is not None
            for _ in range(100):
                if _status(srv.http + final.record) == 200:
                    break
                await asyncio.sleep(0.05)
            other = Client(srv.url, name="Other")
            await other.connect()
            assert host.token and other.token
            await host.close()
            await other.close()
            return table.id, final.record, host.token, other.token

        t, path, host_token, other_token = asyncio.run(first())
    with ServerThread(fast_config(tmp_path)) as srv2:
        assert t not in srv2.hub.tables

        async def second() -> None:
            host = Client(srv2.url, token=host_token)
            other = Client(srv2.url, token=other_token)
            for c in (host, other):
                await c.connect()
            again = await host.join(t)
            assert again.info["archived"] and again.info["status"] == "over"
            assert again.record == path
            with pytest.raises(ServerError) as e:
                await other.join(t)
            assert e.value.code == "no_table" and "record" not in e.value.message
            for c in (host, other):
                await c.close()

        asyncio.run(second())


def test_the_code_of_a_room_whose_match_is_over_is_no_wrong_guess(tmp_path: Path) -> None:
    """A watcher of a private room, offline while its match ended, comes back with the room's
    code (``batak online`` does, the table's id being no use to a watcher after a restart):
    it is told the match is over, and spends no try of the code limit. That try used to count
    as a wrong code (``no_table``), so one fewer was left for a code mistyped later. The
    answer says no more than that the code was a room's: no table id, no record's address; a
    player of that room who comes with the code is let in to look at it, as by its id."""
    config = fast_config(tmp_path, code_failures_free=1, code_failures_free_address=50)
    with ServerThread(config) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            code = created["code"]
            await host.start(table.id)  # computer players take the other seats
            assert (await host.play(table.id, timeout=90)).over
            watcher = Client(srv.url, name="Watch")
            await watcher.connect()
            answers = [await _code(watcher, code), await _code(watcher, code.lower())]
            with pytest.raises(ServerError) as e:
                await watcher.room(code)
            answers.append(e.value.code)
            assert answers == ["match_over"] * 3, answers
            assert table.id not in e.value.message and "record" not in e.value.message
            # every try of the limit is left: two wrong codes before the lockout (one, before)
            answers = [await _code(watcher, f"ZZZZZZZ{d}") for d in "234"]
            assert answers == ["no_table", "no_table", "locked"], answers
            again = await host.join(code=code)  # its player: in, to look at it
            assert again.over or again.info.get("status") == "over"
            assert (await host.room(code))["status"] == "over"  # and shown the room
            for c in (host, watcher):
                await c.close()

        asyncio.run(main())


def test_a_finished_rooms_code_answers_an_outsider_without_reading_its_match(
    tmp_path: Path,
) -> None:
    """A finished room's code (its table gone from memory) asked by someone who never sat
    there, again and again: each answer (``match_over``, not counted against the code limit)
    read the table's whole event log from storage first, under the hub's one load lock, only to
    see that they never sat there. Now whether they sat there is read from the ``sit`` events
    alone, before any load: none of their tries loads the match, by code or by its id; its
    player coming back by the code still opens it (one load)."""
    config = fast_config(tmp_path, code_failures_free=3, code_failures_free_address=50)
    with ServerThread(config) as srv:
        loads: list[str] = []
        real = srv.hub.storage.table

        async def counted(table_id: str) -> Any:
            loads.append(table_id)
            return await real(table_id)

        srv.hub.storage.table = counted  # type: ignore[method-assign]

        async def main() -> None:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            await host.start(table.id)  # computer players take the other seats
            assert (await host.play(table.id, timeout=90)).over
            await host.leave(table.id)
            srv.call(lambda: srv.hub._drop(srv.hub.tables[table.id]))  # as the reaper does
            outsider = Client(srv.url, name="Guess")
            await outsider.connect()
            answers = [await _code(outsider, created["code"]) for _ in range(6)]
            with pytest.raises(ServerError) as e:
                await outsider.room(created["code"])
            answers.append(e.value.code)
            with pytest.raises(ServerError) as e:  # by its id: kept to its players
                await outsider.join(table.id, spectate=True)
            answers.append(e.value.code)
            assert answers == ["match_over"] * 7 + ["no_table"], answers
            assert loads == []  # the match was never read for them
            # its player: shown the room, and let in to look at it (one load)
            assert (await host.room(created["code"]))["status"] == "over"
            again = await host.join(code=created["code"])
            assert again.over or again.info.get("status") == "over"
            assert loads == [table.id]
            for c in (host, outsider):
                await c.close()

        asyncio.run(main())


def test_a_finished_private_table_is_not_opened_by_one_who_stood_up_before_its_start(
    tmp_path: Path,
) -> None:
    """Someone who sat in a private room and stood up before its match began never played
    there: once the match is over, its id opens nothing to them (as to anyone who never sat
    there), neither while the table is still in memory nor after a restart, when only storage
    knows it. Its players (a guest who came with the code and stayed, the host) still open it
    by its id, with its score sheet and its record's address; one who watched it with the code
    still does while it is in memory, as before."""
    config = fast_config(tmp_path)
    with ServerThread(config) as srv:

        async def first() -> tuple[str, dict[str, str]]:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            t, code = table.id, created["code"]
            gone = Client(srv.url, name="Gone")  # sits, then stands up before the start
            stay = Client(srv.url, name="Stay")  # sits and plays
            watch = Client(srv.url, name="Watch")  # sits, stands up, and watches with the code
            for c in (gone, stay, watch):
                await c.connect()
            for c in (gone, watch):
                seated = await c.join(code=code)
                # not even the record's address (a private one's key) while the room waits
                assert seated.seat is not None and seated.record is None
                await c.leave(t)
            assert (await stay.join(code=code)).seat is not None
            assert (await watch.join(code=code, spectate=True)).seat is None
            await host.start(t)  # computer players take the other seats
            ends = await asyncio.gather(host.play(t, timeout=90), stay.play(t, timeout=90))
            assert all(end.over for end in ends)
            # the players got it when the match began (in its start event: no sync since)
            path = ends[0].record
            assert path is not None and "?key=" in path and ends[1].record == path
            for _ in range(100):
                if _status(srv.http + path) == 200:
                    break
                await asyncio.sleep(0.05)
            assert _status(srv.http + path) == 200
            assert gone.tables[t].record is None and watch.tables[t].record is None
            # still in memory: by its id, to the one who stood up, as if there were no table
            for how in ({}, {"spectate": True}):
                with pytest.raises(ServerError) as e:
                    await gone.join(t, **how)
                assert e.value.code == "no_table", e.value.code
            with pytest.raises(ServerError) as e:
                await gone.sync(t)
            assert e.value.code == "no_table"
            # by its code: the match is over, no more
            with pytest.raises(ServerError) as e:
                await gone.join(code=code)
            assert e.value.code == "match_over" and "record" not in e.value.message
            # its players open it by its id
            for c in (host, stay):
                again = await c.join(t)
                assert again.seat is not None and again.record is not None
            assert "record" not in await watch.sync(t)  # (a watcher: no record's key)
            tokens = {}
            await watch.close()
            for name, c in (("host", host), ("gone", gone), ("stay", stay)):
                assert c.token
                tokens[name] = c.token
                await c.close()
            return t, tokens

        t, tokens = asyncio.run(first())
    with ServerThread(fast_config(tmp_path)) as srv2:
        assert t not in srv2.hub.tables

        async def second() -> None:
            clients = {n: Client(srv2.url, token=tok) for n, tok in tokens.items()}
            for c in clients.values():
                await c.connect()
            with pytest.raises(ServerError) as e:
                await clients["gone"].join(t)
            assert e.value.code == "no_table" and "record" not in e.value.message
            assert t not in srv2.hub.tables  # (nothing was loaded for them)
            for name in ("stay", "host"):
                again = await clients[name].join(t)
                assert again.info["status"] == "over" and again.seat is not None
                assert again.view is not None and again.view["match"]["sheet"]
            for c in clients.values():
                await c.close()

        asyncio.run(second())


def test_a_finished_private_room_opens_to_its_host_and_to_one_who_watched_it_by_its_id(
    tmp_path: Path,
) -> None:
    """The host always opens their room, seated at its end or not: a host who stood up (nobody
    took the room over), watched and started it opens the finished room by its id and by its
    code, in memory and after a restart (before, no_table: they had stood up). Someone who sat,
    stood up and came back by the id to watch the match is a watcher like one who came with the
    code: the finished room opens to them by its id while it is in memory (before, no_table);
    after a restart only to its players and its host."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def first() -> tuple[str, dict[str, str]]:
            host = Client(srv.url, name="Host")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            t, code = table.id, created["code"]
            await host.leave(t)  # nobody else there: the room stays the host's
            back = Client(srv.url, name="Back")  # sits, stands up, watches by the id
            await back.connect()
            assert (await back.join(code=code)).seat is not None
            await back.leave(t)
            assert (await host.join(t, spectate=True)).seat is None
            await host.start(t)  # computer players take every seat
            assert (await back.join(t, spectate=True)).seat is None
            await host.until(lambda: host.tables[t].over, timeout=90)
            for c in (host, back):
                c.tables.pop(t, None)
                again = await c.join(t)
                assert again.info["status"] == "over" and again.seat is None
                assert again.view is not None and again.view["match"]["sheet"]
            again = await host.join(code=code)
            assert again.info["status"] == "over"
            tokens = {}
            for name, c in (("host", host), ("back", back)):
                assert c.token
                tokens[name] = c.token
                await c.close()
            return t, tokens

        t, tokens = asyncio.run(first())
    with ServerThread(fast_config(tmp_path)) as srv2:

        async def second() -> None:
            host = Client(srv2.url, token=tokens["host"])
            back = Client(srv2.url, token=tokens["back"])
            for c in (host, back):
                await c.connect()
            with pytest.raises(ServerError) as e:
                await back.join(t)
            assert e.value.code == "no_table"
            again = await host.join(t)
            assert again.info["status"] == "over" and again.seat is None
            for c in (host, back):
                await c.close()

        asyncio.run(second())


def test_the_host_who_watched_their_room_gets_its_record_and_a_watcher_does_not(
    tmp_path: Path,
) -> None:
    """The host of a private room may always open it, seated or not: a host who stood up
    (nobody took the room over), watched and started it gets the record's address with its key
    in the match's start event and in every sync after (reopening the finished room by its id
    or its code), as its players do. Before, only seats were given it, and the host's page had
    no record to download. Another watcher's raw frames still carry no key, neither in the
    start event nor in a sync."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            host = Client(srv.url, name="Host", keep_log=True)
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            t, code = table.id, created["code"]
            await host.leave(t)  # nobody else there: the room stays the host's
            watch = Client(srv.url, name="Watch", keep_log=True)
            await watch.connect()
            assert (await watch.join(code=code, spectate=True)).seat is None
            seen = await host.join(t, spectate=True)
            assert seen.seat is None and seen.record is None  # (not while the room waits)
            await host.start(t)  # computer players take every seat
            await host.until(lambda: host.tables[t].over, timeout=90)
            path = host.tables[t].record  # from the start event: no sync since
            assert path is not None and "?key=" in path, path
            for _ in range(100):
                if _status(srv.http + path) == 200:
                    break
                await asyncio.sleep(0.05)
            assert _status(srv.http + path) == 200
            for how in ({"table": t}, {"code": code}):
                host.tables.pop(t, None)
                again = await host.join(**how)
                assert again.seat is None and again.record == path, (how, again.record)
            await watch.until(lambda: watch.tables[t].over, timeout=90)
            assert "record" not in await watch.sync(t)
            assert watch.tables[t].record is None
            frames = [json.loads(x) for x in watch.log]
            frames = [m for m in frames if m.get("type") in ("event", "sync")]
            assert any(m.get("event", {}).get("kind") == "start" for m in frames)
            assert not [x for x in watch.log if "?key=" in x or '"record"' in x]
            for c in (host, watch):
                await c.close()

        asyncio.run(main())
