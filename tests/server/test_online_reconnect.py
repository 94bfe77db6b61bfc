"""``batak online`` and ``batak bot`` outlive a server restart: the connection is lost, they say
so, try again with growing pauses, say when it is back and carry on at the table (or waiting
for invitations); when the server does not come back in time they say so and stop with an error,
never with a traceback. A bot account's wrong password is said as such."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, ServerThread, fast_config, free_port, invite_when_online

from batak.cli import build_parser, main
from batak.cli import online as online_cli
from batak.cli.bot import serve_as_bot
from batak.cli.console import Console
from batak.cli.online import run_online
from batak.server.client import Client

#: the server's own bots play at once; a seat whose player is away is held for long
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--trick-pause", "0", "--commit-gap", "0.005",
         "--hold-seconds", "600", "--decision-seconds", "600")  # fmt: skip
LOST = "The connection dropped; reconnecting…"
BACK = "Connected to the server again."


def _server(tmp_path: Path) -> ServerProcess:
    server = ServerProcess(tmp_path / "data", free_port(), *SERVE)
    server.start()
    return server


def _restart_later(server: ServerProcess, delay: float) -> threading.Thread:
    """Start the killed server again (same port, same data) after ``delay`` seconds."""

    def run() -> None:
        threading.Event().wait(delay)
        server.start()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


class _Input(io.StringIO):
    """The player's typing: ``answer(n, said)`` gives the line for the n-th prompt (1-based),
    seeing everything the program wrote so far; None ends the input."""

    def __init__(self, out: io.StringIO, answer: Any) -> None:
        super().__init__()
        self.out, self.answer, self.n = out, answer, 0

    def readline(self, size: int | None = -1) -> str:
        self.n += 1
        line = self.answer(self.n, self.out.getvalue()) if self.n < 100 else None
        return "" if line is None else line + "\n"


def _online(argv: list[str], answer: Any, lang: str = "en") -> tuple[int, str]:
    args: argparse.Namespace = build_parser(lang).parse_args(["online", *argv])
    out = io.StringIO()
    code = run_online(args, Console(out, _Input(out, answer)), lang)
    return code, out.getvalue()


def _seat_moves(server: ServerProcess, token: str, code: str) -> list[dict[str, Any]]:
    """The moves made at the room ``code`` by the player of ``token`` (seen as that player)."""

    async def look() -> list[dict[str, Any]]:
        async with Client(server.url, token=token) as c:
            st = await c.join(code=code, since=0)
            return [e for e in st.events if e.get("kind") == "move" and e["seat"] == st.seat]

    return asyncio.run(look())


def test_a_move_typed_while_the_server_is_down_is_played_when_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the move prompt the server is killed; the move typed meanwhile is sent once the
    server is back (it was the reviewer's ConnectionClosedError traceback)."""
    home = tmp_path / "home"
    monkeypatch.setenv("BATAK_HOME", str(home))
    server = _server(tmp_path)
    restarted: list[threading.Thread] = []
    try:

        def answer(n: int, said: str) -> str | None:
            if n == 1:  # "press Enter to start"
                return ""
            if n == 2:  # the first decision: the server goes away while the player thinks
                server.kill()
                restarted.append(_restart_later(server, 1.0))
                return "pas"  # the first decision is a bid
            return "quit"

        code, out = _online([server.http, "--create", "standard", "--deals", "1"], answer)
        assert code == 0, out
        assert "Traceback" not in out
        assert out.count(LOST) == 1 and out.count(BACK) == 1, out
        assert out.index(LOST) < out.index(BACK) < out.index("You left the table")
        restarted[0].join(30)

        token = json.loads((home / "online.json").read_text())[server.url]
        table = out.split("You sit at table ", 1)[1].split()[0]
        assert len(_seat_moves(server, token, table)) == 1  # the move typed, played once
    finally:
        for thread in restarted:  # a failed test leaves no server started behind it
            thread.join(30)
        server.stop()


def test_an_adjourned_match_resumes_after_the_server_restarted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host adjourned the match, the server restarted, the host pressed Enter to resume:
    the prompt came back for ever and the connection was never made again. The Enter pressed
    now connects again and resumes the match."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    server = _server(tmp_path)
    restarted: list[threading.Thread] = []
    try:
        adjourned: list[int] = []

        def answer(n: int, said: str) -> str | None:
            if n == 1:  # "press Enter to start"
                return ""
            if not restarted and "Press Enter to resume it" in said:
                server.kill()  # the server goes away while the match is adjourned
                restarted.append(_restart_later(server, 1.0))
                return ""  # Enter: resume
            if not adjourned:  # the first decision: the host adjourns
                adjourned.append(n)
                return "adjourn"
            if not restarted:  # (asked again before the adjournment arrived)
                return "sheet"
            return "quit"  # the match went on (or the prompt came back: the test fails)

        code, out = _online([server.http, "--create", "standard", "--deals", "1"], answer)
        assert code == 0, out
        assert "Traceback" not in out
        after = out.split(LOST, 1)[1]  # the Enter pressed while the server was down
        assert BACK in after and "The match goes on." in after.split(BACK, 1)[1], out
        assert "Press Enter to resume it" not in after, out
    finally:
        for thread in restarted:
            thread.join(30)
        server.stop()


def test_waiting_for_the_start_outlives_a_restart_and_the_match_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player waits in a room; the server stops (SIGTERM) and starts again; the player is
    back in the room, and plays the match when the host starts it (it was a
    ConnectionRefusedError traceback)."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(online_cli, "RETRY_FOR", 20.0, raising=False)  # a failed test ends
    server = _server(tmp_path)
    try:
        host = Client(server.url, name="Host")

        async def make_room() -> str:
            await host.connect()
            created, _ = await host.create(preset="standard", deals=1)
            return str(created["code"])

        loop = asyncio.new_event_loop()
        code_ = loop.run_until_complete(make_room())

        def conductor() -> None:
            """Waits for the player to sit, restarts the server, then starts the match and
            plays the host's seat to the end."""
            while "Oyunun başlaması bekleniyor" not in out_box[0].getvalue():
                threading.Event().wait(0.05)
            server.stop()  # SIGTERM: the server closes its sockets (1012) and exits
            threading.Event().wait(0.5)
            server.start()

            async def start() -> None:
                await host.reconnect()
                await host.until(lambda: sum(bool(s["name"]) for s in seats()) == 2, 30)
                table = next(iter(host.tables))
                await host.start(table)
                await host.play(table, timeout=60)

            try:
                loop.run_until_complete(start())
            except BaseException as e:  # the test fails: let the player's program end too
                failed.append(e)
                server.kill()

        def seats() -> list[dict[str, Any]]:
            return list(next(iter(host.tables.values())).info["seats"])

        failed: list[BaseException] = []
        out_box: list[io.StringIO] = []
        args = build_parser("tr").parse_args(["online", server.http, "--join", code_])
        out = io.StringIO()
        out_box.append(out)
        thread = threading.Thread(target=conductor, daemon=True)
        thread.start()
        first = _Input(out, lambda n, said: "pas" if n % 2 else "1")  # a bid is typed as a number
        code = run_online(args, Console(out, first), "tr")
        thread.join(30)
        loop.run_until_complete(host.close())
        loop.close()
        text = out.getvalue()
        assert not failed, (failed, text)
        assert code == 0, text
        assert "Traceback" not in text
        assert text.count("Bağlantı koptu; yeniden bağlanılıyor…") == 1, text
        assert text.count("Sunucuya yeniden bağlandın.") == 1, text
        after = text.split("Sunucuya yeniden bağlandın.", 1)[1]
        assert "Sıra sende" in after and "Oyun bitti." in after  # it played on to the end
    finally:
        server.stop()


def test_a_server_that_does_not_come_back_ends_the_session_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(online_cli, "RETRY_FOR", 2.5, raising=False)
    server = _server(tmp_path)
    try:

        def answer(n: int, said: str) -> str | None:
            if n == 1:
                return ""
            server.kill()  # and it stays down
            return "pas"

        code, out = _online([server.http, "--create", "standard", "--deals", "1"], answer)
        assert code == 1, out
        assert "Traceback" not in out
        assert LOST in out
        assert "The server did not come back within 1\u00a0min." in out
        said = " ".join(out.split())  # (worded into 80 columns)
        assert f"When the server is back, run batak online {server.http} again" in said
    finally:
        server.stop()


def test_a_session_that_ended_meanwhile_is_said_and_not_played_on_as_a_guest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host banned the account while the server was down: the connection comes back as a
    new guest, who sits at none of the player's tables. It used to say "Connected to the server
    again." and wait on as that guest; it now says the session ended and how to log in again."""
    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BATAK_PASSWORD", "uzun-parola-1")
    server = _server(tmp_path)
    try:

        async def register() -> None:
            async with Client(server.url, name="Ali") as c:
                await c.register("ali", "uzun-parola-1")

        asyncio.run(register())

        def answer(n: int, said: str) -> str | None:
            if n == 1:
                return ""
            if n == 2:
                server.kill()
                data = str(tmp_path / "data")
                assert main(["admin", "ban", "ali", "--data", data, "--lang", "en"]) == 0
                _restart_later(server, 0.5)
                return "pas"
            return None

        argv = [server.http, "--username", "ali", "--create", "standard", "--deals", "1"]
        code, out = _online(argv, answer)
        assert code == 1, out
        assert "Traceback" not in out and BACK not in out
        assert "Your session on this server has ended:" in out
        said = " ".join(out.split())  # (worded into 80 columns)
        assert f"run batak online {server.http} --username NAME and log in again" in said
    finally:
        server.stop()


# ---------------------------------------------------------------------- batak bot


async def _until(cond: Any, timeout: float = 20.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if cond():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("waited in vain")


def _seated(host: Client, table: str) -> int:
    return sum(bool(s["name"]) for s in host.tables[table].info["seats"])


def test_a_bot_waiting_for_invitations_outlives_a_restart(tmp_path: Path) -> None:
    """It was silent forever after the server stopped; now it connects again and is invited."""
    pytest.importorskip("argon2")
    server = _server(tmp_path)
    try:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(
                    server.url, "robo1", "uzun-bir-parola", _Last(), games=1, say=lines.append
                )
            )
            await _until(lambda: "Bot account robo1 is online." in lines)
            await asyncio.to_thread(server.stop)  # SIGTERM, while the bot waits
            await asyncio.to_thread(server.start)
            await _until(lambda: BACK in lines)
            host = Client(server.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1)
            await invite_when_online(host, table.id, "robo1")
            await host.until(lambda: _seated(host, table.id) == 2, 20)
            await host.start(table.id)
            assert (await host.play(table.id, timeout=60)).over
            assert await asyncio.wait_for(bot, 30) == 1
            assert lines.count(LOST) == 1 and lines.count(BACK) == 1, lines
            assert "Match 1 over" in lines[-1]
            await host.close()

        asyncio.run(main_())
    finally:
        server.stop()


class _Last:
    """A bot that plays the last legal move."""

    def choose(self, view: dict[str, Any]) -> str:
        return str(view["legal_moves"][-1])


def test_a_bot_playing_a_joined_room_plays_on_after_a_kill_and_restart(tmp_path: Path) -> None:
    """It used to stop with "Could not reach the server …: connection closed"."""
    pytest.importorskip("argon2")
    server = _server(tmp_path)
    try:

        async def main_() -> None:
            host = Client(server.url, name="Ayşe")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(
                    server.url,
                    "robo2",
                    "uzun-bir-parola",
                    _Last(),
                    join=created["code"],
                    say=lines.append,
                )
            )
            await host.until(lambda: _seated(host, table.id) == 2, 20)
            await host.start(table.id)
            st = host.tables[table.id]
            await host.until(lambda: st.my_turn, 20)  # the match is under way: kill it
            await asyncio.to_thread(server.kill)
            await asyncio.sleep(0.5)
            await asyncio.to_thread(server.start)
            await host.reconnect()
            assert (await host.play(table.id, timeout=60)).over
            assert await asyncio.wait_for(bot, 30) == 1
            assert lines.count(LOST) == 1 and lines.count(BACK) == 1, lines
            assert "Match 1 over" in lines[-1]
            await host.close()

        asyncio.run(main_())
    finally:
        server.stop()


def test_batak_bot_stops_plainly_when_the_server_does_not_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("argon2")
    monkeypatch.setattr(online_cli, "RETRY_FOR", 2.0, raising=False)
    monkeypatch.setattr(sys, "argv", ["batak"])
    server = _server(tmp_path)
    try:

        async def main_() -> int:
            host = Client(server.url, name="Ayşe")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            argv = ["bot", server.http, "--username", "robo3", "--password", "uzun-bir-parola",
                    "--join", created["code"], "--lang", "tr"]  # fmt: skip
            run = asyncio.create_task(asyncio.to_thread(main, argv))
            await host.until(lambda: _seated(host, table.id) == 2, 20)
            await asyncio.to_thread(server.kill)
            await host.drop()
            return await asyncio.wait_for(run, 30)

        assert asyncio.run(main_()) == 1
        captured = capsys.readouterr()
        assert "Bağlantı koptu; yeniden bağlanılıyor…" in captured.out
        err = captured.err
        assert "Traceback" not in err
        gone = f"batak: hata: {server.http} adresindeki sunucu 1\u00a0dakika içinde geri gelmedi"
        assert gone in err
    finally:
        server.stop()


def test_a_wrong_bot_password_is_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It ended in a traceback (``username_unavailable``, from the registration tried after
    the failed login); any other refusal is one line too."""
    pytest.importorskip("argon2")
    monkeypatch.setattr(sys, "argv", ["batak"])
    with ServerThread(fast_config(tmp_path)) as srv:

        async def register() -> None:
            async with Client(srv.url) as c:
                await c.register("robo1", "uzun-bir-parola", bot=True)

        asyncio.run(register())
        args = [srv.http, "--username", "robo1", "--password", "wrongpassword1"]
        assert main(["bot", *args]) == 1
        err = capsys.readouterr().err
        assert err == "batak: error: wrong password for robo1 (that account already exists)\n"
        assert main(["bot", *args, "--lang", "tr"]) == 1
        assert "robo1 için şifre yanlış" in capsys.readouterr().err
        # a new name with a password the server finds too short: its reason, in one line
        assert main(["bot", srv.http, "--username", "robo9", "--password", "kısa"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("batak: error: the server said no: ") and err.count("\n") == 1, err
        # (after "batak: error:" in lower case, as every other error; it read "error: The server")
        assert main(["bot", srv.http, "--username", "robo9", "--password", "kısa", "--lang", "tr"])
        err = capsys.readouterr().err
        assert err.startswith("batak: hata: sunucu kabul etmedi: ") and err.count("\n") == 1, err


def test_a_watcher_of_a_private_room_watches_on_after_a_restart(tmp_path: Path) -> None:
    """Someone watching a private room, let in by its code, is remembered by the server only
    until it restarts: on coming back, the sync by the table's id was refused (``no_table``)
    and ``batak online`` told the watcher "This table is gone — there is no table 't…'" (its
    internal id) and stopped, while the host played on. The client joins again by the code,
    and the watcher follows the match to its end."""
    server = _server(tmp_path)
    try:

        async def main_() -> None:
            host = Client(server.url, name="Ayşe")
            await host.connect()
            created, table = await host.create(preset="standard", deals=1)
            await host.start(table.id)  # computer players take the other seats
            st = host.tables[table.id]
            await host.until(lambda: st.view is not None, 20)
            watcher = Client(server.url, name="Berk")
            await watcher.connect()
            seen = await watcher.join(code=created["code"])
            assert seen.seat is None and seen.view is not None  # watching, not seated
            await asyncio.to_thread(server.kill)
            await asyncio.sleep(0.5)
            await asyncio.to_thread(server.start)
            await host.reconnect()
            await watcher.reconnect()
            assert seen.lost is None, seen.lost
            assert (await host.play(table.id, timeout=60)).over
            await watcher.until(lambda: seen.over, 30)
            await host.close()
            await watcher.close()

        asyncio.run(main_())
    finally:
        server.stop()


def test_a_table_put_away_just_as_the_connection_came_back_is_asked_for_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``no_table`` also answers a request that reaches a table at the moment it is put away
    ("ask again": asking again loads it; docs/protocol.md). On coming back the client took
    that for a table gone for good (``lost``: ``batak online`` said so and stopped); it asks
    once more. A table still not there then is lost, with the server's words."""
    from batak.server.client import ServerError, TableState

    async def main_() -> tuple[list[str], TableState, TableState]:
        c = Client("ws://127.0.0.1:9/ws", name="Ayşe")
        for name in ("drop", "connect"):  # (no server: only the catching up is looked at)
            monkeypatch.setattr(c, name, lambda: asyncio.sleep(0))
        asked: list[str] = []
        words = {"t1": "the table 't1' was just put away: ask again", "t2": "there is no table"}

        async def sync(table: str, since: int | None = None) -> dict[str, Any]:
            asked.append(table)
            if table == "t2" or asked.count(table) == 1:
                raise ServerError({"code": "no_table", "message": words[table]})
            return {"type": "sync"}

        monkeypatch.setattr(c, "sync", sync)
        c.tables["t1"] = TableState(id="t1", seat=0)
        c.tables["t2"] = TableState(id="t2", seat=0)
        await c.reconnect()
        return asked, c.tables["t1"], c.tables["t2"]

    asked, again, gone = asyncio.run(main_())
    assert again.lost is None and asked.count("t1") == 2, asked
    assert gone.lost == "there is no table", gone.lost


def test_a_watcher_whose_join_by_code_is_refused_on_coming_back_is_told_the_table_is_gone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A watcher let in by a room's code is joined again by the code when the table's id is
    not known after a restart. If that join is refused for another reason (``locked`` after
    wrong codes, ``busy``), the table was left without ``lost``: ``batak online`` waited at a
    table it heard nothing from. It is now lost, with the server's first words. And a match the
    watcher saw end is not asked for by its code at all (a finished table is not found by its
    code, and the server counts the try as a wrong code)."""
    from batak.server.client import ServerError, TableState

    async def main_() -> tuple[list[str], TableState, TableState]:
        c = Client("ws://127.0.0.1:9/ws", name="Berk")
        for name in ("drop", "connect"):  # (no server: only the catching up is looked at)
            monkeypatch.setattr(c, name, lambda: asyncio.sleep(0))
        joined: list[str] = []

        async def sync(table: str, since: int | None = None) -> dict[str, Any]:
            raise ServerError({"code": "no_table", "message": f"there is no table '{table}'"})

        async def join(code: str, **_: Any) -> None:
            joined.append(code)
            raise ServerError({"code": "locked", "message": "too many wrong tries"})

        monkeypatch.setattr(c, "sync", sync)
        monkeypatch.setattr(c, "join", join)
        c.tables["t1"] = TableState(id="t1", info={"code": "ABCD1234"})
        c.tables["t2"] = TableState(id="t2", info={"code": "EFGH5678"}, over=True)
        await c.reconnect()
        return joined, c.tables["t1"], c.tables["t2"]

    joined, refused, ended = asyncio.run(main_())
    assert refused.lost == "there is no table 't1'", refused.lost
    assert ended.lost == "there is no table 't2'", ended.lost
    assert joined == ["ABCD1234"], joined  # (the finished one not asked for by its code)


def test_a_watcher_back_after_the_match_ended_is_told_so_not_that_the_table_is_gone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A watcher let in by a room's code comes back after the match ended meanwhile: its join
    by the code is answered ``match_over`` (it used to be ``no_table``, counted as a wrong
    code). The table is left (``lost``: the server's words) marked ``ended_away``, so that
    ``batak online`` says the match ended, not that the table is gone."""
    from batak.server.client import ServerError, TableState

    async def main_() -> TableState:
        c = Client("ws://127.0.0.1:9/ws", name="Berk")
        for name in ("drop", "connect"):  # (no server: only the catching up is looked at)
            monkeypatch.setattr(c, name, lambda: asyncio.sleep(0))

        async def sync(table: str, since: int | None = None) -> dict[str, Any]:
            raise ServerError({"code": "no_table", "message": f"there is no table '{table}'"})

        async def join(code: str, **_: Any) -> None:
            raise ServerError({"code": "match_over", "message": "the match is over"})

        monkeypatch.setattr(c, "sync", sync)
        monkeypatch.setattr(c, "join", join)
        c.tables["t1"] = TableState(id="t1", info={"code": "ABCD1234"})
        await c.reconnect()
        return c.tables["t1"]

    ended = asyncio.run(main_())
    assert ended.lost == "the match is over" and ended.ended_away, ended
