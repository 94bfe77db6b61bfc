"""Bring your own bot: a program plays at a real server as a bot account (``batak bot``), is
invited to a room by its host, plays the match to the end, and is marked as a bot at every
table, also at one that hides its house bots. A player written outside the package plays too."""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, advance_async, fast_config, invite_when_online

from batak.bots import PlayerError
from batak.cli import main
from batak.cli.bot import load_player, serve_as_bot
from batak.cli.text import player_problem
from batak.server.client import Client, ServerError, TableState
from batak.server.clock import ManualClock


class LowestCard:
    """A bot author's first player: the last legal move (the lowest card, or pass)."""

    name = "lowest"

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> str:
        return str(view["legal_moves"][-1])


def test_the_lobby_marks_a_bot_account_and_not_the_hidden_house_bots(tmp_path: Path) -> None:
    """A public table's line in the lobby said nothing of a bot account sitting there (a seat
    at the table does): ``bot_accounts`` has one flag a seat, true for the bot account alone,
    also once the house's bots, hidden at the server's public tables, have taken the others."""
    pytest.importorskip("argon2")
    clock = ManualClock()
    config = fast_config(tmp_path, hide_bots=True, quick_fill_seconds=5)
    with ServerThread(config, clock=clock) as srv:

        async def main_() -> None:
            person = Client(srv.url, name="Ayşe")
            robot = Client(srv.url, name="robol")
            for c in (person, robot):
                await c.connect()
            await robot.register("robol", "uzun-bir-parola", bot=True)
            table = await person.quick("ihaleli")
            await robot.quick("ihaleli")  # the same table, the one waiting

            async def line() -> dict[str, Any]:
                lobby = await person.lobby()
                return next(x for x in lobby["modes"]["ihaleli"] if x["id"] == table.id)

            waiting = await line()
            flags = dict(zip(waiting["seats"], waiting["bot_accounts"], strict=True))
            assert flags == {"Ayşe": False, "robol": True, None: False}, waiting
            await advance_async(srv, clock, 6)  # the house's bots fill the seats left
            await person.until(lambda: person.tables[table.id].info.get("status") == "playing")
            playing = await line()
            assert all(playing["seats"]) and playing["status"] == "playing", playing
            marked = [
                n for n, b in zip(playing["seats"], playing["bot_accounts"], strict=True) if b
            ]
            assert marked == ["robol"], playing
            assert [s["bot"] for s in person.tables[table.id].info["seats"]] == [None] * 4
            for c in (person, robot):
                await c.close()

        asyncio.run(main_())


def test_an_invited_bot_account_plays_a_match_and_is_marked_as_a_bot(tmp_path: Path) -> None:
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(
                    srv.url, "robot", "uzun-bir-parola", LowestCard(), games=1, say=lines.append
                )
            )
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1, show_bots=False)
            await invite_when_online(host, table.id, "robot")

            def seated() -> int:
                return sum(bool(s["name"]) for s in host.tables[table.id].info["seats"])

            await host.until(lambda: seated() == 2)
            seats = host.tables[table.id].info["seats"]
            marked = [s for s in seats if s.get("bot_account")]
            assert [s["name"] for s in marked] == ["robot"]
            await host.start(table.id)
            final = await host.play(table.id, timeout=120)
            assert final.over
            assert await asyncio.wait_for(bot, 60) == 1
            assert lines[0] == "Bot account robot is online." and "Match 1 over" in lines[-1]
            assert f"Match 1 over (room {table.info['code']})." in lines[-1]  # not the table id
            # (the table id only in the record's address, which the server builds with it)
            assert table.id not in "\n".join(x for x in lines if "/api/tables/" not in x)
            bot_seat = next(i for i, x in enumerate(final.info["seats"]) if x.get("bot_account"))
            total = final.view["match"]["totals"][bot_seat]  # type: ignore[index]
            assert lines[-1].endswith((f"Its total: {total}.", f"Its total: {total}; it won."))
            sat_line = f"Seated in the room {table.info['code']} (standard), seat "
            assert sum(line.startswith(sat_line) for line in lines) == 1, lines
            # at a table that hides its house bots, the bot account is still marked as one
            assert [s["bot"] for s in final.info["seats"]] == [None] * 4
            assert sum(bool(s.get("bot_account")) for s in final.info["seats"]) == 1
            # a second run logs in to the same account (no second registration)
            again = Client(srv.url, name="x")
            await again.connect()
            welcome = await again.login("robot", "uzun-bir-parola")
            assert welcome["player"]["name"]
            await again.close()
            await host.close()

        asyncio.run(main_())


def test_a_bot_says_where_its_match_is_recorded_and_analyse_reads_that_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot author had no way from docs/bots.md to the record of the bot's match: the bot
    account has no web lobby to download it from, and `batak analyse` took only a file. The
    bot now says the record's address (with the key of a private room) at the match's end,
    and `batak analyse` (and `replay`) read a record at its address as `batak verify` does."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> list[str]:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(
                    srv.url, "robot7", "uzun-bir-parola", LowestCard(), games=1, say=lines.append
                )
            )
            host, table = await _started_with_bot(srv, "robot7")
            assert (await host.play(table.id, timeout=120)).over
            assert await asyncio.wait_for(bot, 60) == 1
            await host.close()
            return lines

        lines = asyncio.run(main_())
        said = [line for line in lines if "/record?key=" in line]
        assert len(said) == 1, lines
        address = next(word for word in said[0].split() if word.startswith("http"))
        assert address.startswith(srv.url.replace("ws://", "http://").removesuffix("/ws"))
        capsys.readouterr()
        assert main(["analyse", address, "--lang", "en", "--top", "1"]) == 0
        assert "── Deal 1 ──" in capsys.readouterr().out
        assert main(["replay", address, "--lang", "en"]) == 0
        assert main(["analyse", address.split("?")[0], "--lang", "en"]) == 2
        assert "gives this match's record only to its players" in capsys.readouterr().err


def test_a_bot_refused_at_a_full_room_waits_for_the_next_invitation(tmp_path: Path) -> None:
    """An invitation the bot cannot take up (the room filled meanwhile) is said, with the
    server's reason, and the bot waits on: it used to stop with that refusal."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo2", "uzun-bir-parola", LowestCard(), games=1,
                             say=lines.append)
            )  # fmt: skip
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, full = await host.create(preset="standard", deals=1, bots=False)
            others = [Client(srv.url, name=f"O{i}") for i in range(3)]
            for o in others:
                await o.connect()
                await o.join(code=full.info["code"])
            await invite_when_online(host, full.id, "robo2")
            for _ in range(200):
                if any("Could not sit" in line for line in lines):
                    break
                await asyncio.sleep(0.05)
            refused = [line for line in lines if "Could not sit" in line]
            assert len(refused) == 1, lines
            assert refused[0].startswith(f"Could not sit in the room {full.info['code']}: ")
            assert refused[0].endswith(". Waiting for the next invitation.")
            assert "full" in refused[0], refused  # the server's reason, as it said it
            assert not bot.done()
            # the next invitation is taken up and played to the end
            _, room = await host.create(preset="standard", deals=1)
            await host.invite(room.id, "robo2")
            await host.until(
                lambda: any(s.get("bot_account") for s in host.tables[room.id].info["seats"])
            )
            await host.start(room.id)
            await host.play(room.id, timeout=120)
            assert await asyncio.wait_for(bot, 60) == 1
            for c in (host, *others):
                await c.close()

        asyncio.run(main_())


def test_only_the_host_invites_and_only_someone_online(tmp_path: Path) -> None:
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            host = Client(srv.url, name="H", lang="tr")
            other = Client(srv.url, name="O")
            for c in (host, other):
                await c.connect()
            created, table = await host.create(preset="standard")
            with pytest.raises(ServerError) as e:
                await host.invite(table.id, "nobody")
            assert e.value.code == "not_online" and "çevrim içi değil" in e.value.message
            await other.join(code=created["code"])
            await other.request({"type": "register", "username": "ozan", "password": "12345678"})
            with pytest.raises(ServerError) as e:
                await other.invite(table.id, "ozan")
            assert e.value.code == "not_host_invite"
            with pytest.raises(ServerError) as e:  # he sits here already
                await host.invite(table.id, "ozan")
            assert e.value.code == "already_seated" and "zaten bu masada" in e.value.message
            await other.leave(table.id)
            await host.invite(table.id, "ozan")  # a person can be invited too
            note = await other.wait_for(lambda m: m.get("type") == "invited", 5)
            assert note["code"] == created["code"] and note["from"] == "H"
            for c in (host, other):
                await c.close()

        asyncio.run(main_())


def test_a_guest_host_is_named_in_the_invitees_language(tmp_path: Path) -> None:
    """An English guest host invites a Turkish player: the invitation named the host "Guest
    1744" in a Turkish sentence; the guest is named in the reader's language, "Misafir 1744"."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            host = Client(srv.url, lang="en")  # no name: the server names a guest
            other = Client(srv.url, name="Ozan", lang="tr")
            for c in (host, other):
                await c.connect()
            await other.request({"type": "register", "username": "ozan", "password": "12345678"})
            guest = str(host.player["name"])
            assert guest.startswith("Guest "), guest
            _, table = await host.create(preset="standard")
            await host.invite(table.id, "ozan")
            note = await other.wait_for(lambda m: m.get("type") == "invited", 5)
            assert note["from"] == "Misafir " + guest.split()[1], note
            for c in (host, other):
                await c.close()

        asyncio.run(main_())


def test_batak_bot_takes_a_level_in_turkish_as_batak_play_does() -> None:
    from batak.cli import build_parser

    for word, level in (("zor", "hard"), ("Kolay", "easy"), ("ORTA", "medium")):
        args = build_parser("tr").parse_args(["bot", "--username", "r", "--level", word])
        assert args.level == level


def test_a_player_from_outside_the_package_is_loaded_by_name() -> None:
    player = load_player(f"{__name__}:LowestCard")
    assert player.choose({"legal_moves": ["pass", "bid 4"]}) == "bid 4"
    with pytest.raises((ValueError, ImportError, AttributeError)):
        load_player("no_such_module_here:Bot")


def test_batak_bot_without_a_password_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("BATAK_BOT_PASSWORD", raising=False)
    monkeypatch.setattr(sys, "argv", ["batak"])
    assert main(["bot", "--username", "robot", "--lang", "tr"]) == 2
    assert "bot hesabı için şifre gerekir" in capsys.readouterr().err
    assert main(["bot", "--username", "r", "--password", "12345678", "--player", "nope"]) == 2
    assert "cannot load the player 'nope'" in capsys.readouterr().err


def test_batak_bot_refuses_games_of_less_than_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--games 0` said "Bot account … is online." and stopped at once, without a word why."""
    monkeypatch.setattr(sys, "argv", ["batak"])
    args = ["bot", "127.0.0.1:9", "--username", "r", "--password", "12345678"]
    assert main([*args, "--games", "0", "--lang", "en"]) == 2
    assert "--games takes a whole number of 1 or more, not 0" in capsys.readouterr().err
    assert main([*args, "--games", "-2", "--lang", "tr"]) == 2
    assert "--games 1 ya da daha büyük bir tam sayı alır, -2 olmaz" in capsys.readouterr().err


def test_batak_bot_refuses_a_persons_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program logged in to a person's account played unmarked, at staked rooms too (which
    refuse bots): docs/bots.md promises that people always know they face a program."""
    monkeypatch.setattr(sys, "argv", ["batak"])
    with ServerThread(fast_config(tmp_path)) as srv:

        async def person() -> None:
            c = Client(srv.url, name="Alice")
            await c.connect()
            await c.register("alice", "correct horse battery")
            await c.close()

        asyncio.run(person())
        http = srv.url.replace("ws://", "http://").removesuffix("/ws")
        args = ["bot", http, "--username", "alice", "--password", "correct horse battery"]
        assert main([*args, "--lang", "en"]) == 1
        err = capsys.readouterr().err
        assert "alice is a person's account: a program plays only as a bot account" in err
        assert main([*args, "--lang", "tr"]) == 1
        assert "alice bir kişinin hesabı" in capsys.readouterr().err


def test_batak_bot_says_why_it_cannot_reach_a_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An address that is no server address, a port where nothing listens and a host that does
    not exist each get a sentence in the reader's language, not a traceback or an OS error."""
    import socket

    monkeypatch.setattr(sys, "argv", ["batak"])
    args = ["--username", "r", "--password", "12345678"]
    assert main(["bot", "ftp://x", *args, "--lang", "en"]) == 2
    assert "“ftp://x” is not a server address" in capsys.readouterr().err
    with socket.socket() as s:  # a free port on loopback, closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["bot", f"http://127.0.0.1:{port}", *args, "--lang", "tr"]) == 1
    err = capsys.readouterr().err
    assert "sunucuya ulaşılamadı: orada yanıt veren yok" in err and "Errno" not in err
    assert main(["bot", "no-such-host.invalid", *args, "--lang", "en"]) == 1
    assert "there is no such host" in capsys.readouterr().err


def test_batak_online_refuses_an_address_that_is_not_a_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    for address in ("ftp://x", "http://[::1", "host:port"):
        assert main(["online", address, "--lang", "tr"]) == 1
        assert f"“{address}” bir sunucu adresi değil" in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", ["batak"])
    assert main(["bot", "http://[::1", "--username", "r", "--password", "12345678"]) == 2
    assert "is not a server address" in capsys.readouterr().err


# ---------------------------------------------------------------------- what an author gets wrong
class FailsAtItsFirstCard(LowestCard):
    """Plays the auction, then does something wrong at its first card (``how``)."""

    how = "raise"

    def choose(self, view: dict[str, Any]) -> str:
        if view["phase"] != "play":
            return super().choose(view)
        if self.how == "raise":
            return str(view["hand"][99])
        if self.how == "exit":  # sys.exit() in a player is its failure, said as any other
            raise SystemExit(3)
        if self.how == "illegal":
            held = set(view["hand"])
            return next(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432" if f"{r}{s}" not in held)
        return None  # type: ignore[return-value]


def _bot_seated(host: Client, table: str) -> bool:
    return any(s.get("bot_account") for s in host.tables[table].info.get("seats") or [])


async def _seated_with_bot(srv: ServerThread, bot: str) -> tuple[Client, TableState]:
    """A host's one-deal room with the bot account ``bot`` invited and seated, not started."""
    host = Client(srv.url, name="Ayşe")
    await host.connect()
    _, table = await host.create(preset="standard", deals=1)
    await invite_when_online(host, table.id, bot)
    await host.until(lambda: _bot_seated(host, table.id))
    return host, table


async def _started_with_bot(srv: ServerThread, bot: str) -> tuple[Client, TableState]:
    """A host's one-deal room with the bot account ``bot`` invited and seated, started."""
    host, table = await _seated_with_bot(srv, bot)
    await host.start(table.id)
    return host, table


@pytest.mark.parametrize("how", ["raise", "illegal", "none", "exit"])
def test_a_player_that_fails_at_play_stops_the_bot_saying_what_to_fix(
    tmp_path: Path, how: str
) -> None:
    """What the author's player raised (with the line in the author's code; SystemExit too),
    the move the server refused (with its reason and the legal moves) or a result that is no
    move at all is said in a sentence, not a traceback or a bare "the server said no". The bot
    leaves its seat on the way out, so a computer plays it at once: the table used to wait for
    the server's hold of a lost connection (30 s here) and the seat lost its time bank."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, hold_seconds=30.0)) as srv:

        async def main_() -> None:
            player = FailsAtItsFirstCard()
            player.how = how
            bot = asyncio.create_task(
                serve_as_bot(
                    srv.url, "robo3", "uzun-bir-parola", player, say=print, player_spec="m:B"
                )
            )
            host, table = await _started_with_bot(srv, "robo3")
            final = asyncio.create_task(host.play(table.id, timeout=120))
            with pytest.raises(PlayerError) as e:
                await asyncio.wait_for(bot, 60)
            said = player_problem(e.value, "en")
            assert said.startswith("your player m:B ")
            assert f"in the room {table.info['code']}, deal 1" in said  # its code, not the id
            assert said.endswith(
                "The bot stops and leaves its seat, where a computer plays from now on; start "
                "the bot again (the same command) and it takes the seat back."
            )
            if how == "raise":
                assert "raised IndexError: list index out of range (in choose, " in said
                assert f"{__file__}, line " in said
            elif how == "exit":
                assert "raised SystemExit: 3 (in choose, " in said
            elif how == "illegal":
                assert "and the server refused it: you do not hold" in said
                legal = said.split("The legal moves were: ")[1].split(". ")[0].split(", ")
                assert legal and all(len(card) == 2 for card in legal)
            else:
                assert "returned None in the room" in said and "instead of a move" in said
            # the server's computer took the seat at once: the match ended
            assert (await asyncio.wait_for(final, 15)).over
            await host.close()

        asyncio.run(main_())


def test_a_bot_started_again_takes_its_seat_back(tmp_path: Path) -> None:
    """The message of a failed player says "until you start the bot again": started again with
    the same command (no --join), the bot takes back the seat its account holds at the match in
    play, and plays it to the end. It used to wait for an invitation meanwhile."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, hold_seconds=0.2)) as srv:

        async def main_() -> None:
            failing = FailsAtItsFirstCard()
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo4", "uzun-bir-parola", failing, say=lambda _: None)
            )
            host, table = await _started_with_bot(srv, "robo4")
            # the host plays until the bot's player fails; then the match waits at its turns
            await host.play(table.id, timeout=120, stop=lambda st: bot.done())
            with pytest.raises(PlayerError):
                await asyncio.wait_for(bot, 60)
            lines: list[str] = []
            again = asyncio.create_task(
                serve_as_bot(
                    srv.url, "robo4", "uzun-bir-parola", LowestCard(), games=1, say=lines.append
                )
            )
            back = f"Back in the room {table.info['code']} (standard), seat "
            for _ in range(300):
                if any(x.startswith(back) for x in lines):
                    break
                await asyncio.sleep(0.1)
            else:
                pytest.fail(f"the bot did not take its seat back: {lines}")
            final = await host.play(table.id, timeout=120)
            assert final.over
            assert await asyncio.wait_for(again, 60) == 1
            assert "Match 1 over" in lines[-1]
            # the seat was the bot account's again: its last moves were its own, not the clock's
            seat = next(i for i, x in enumerate(final.info["seats"]) if x.get("bot_account"))
            moves = [e for e in final.events if e.get("kind") == "move" and e["seat"] == seat]
            assert moves and moves[-1].get("by") == "player", moves[-1]
            await host.close()

        asyncio.run(main_())


@pytest.mark.parametrize("why", ["host_left", "invited_elsewhere"])
def test_a_bot_in_a_room_that_never_starts_takes_up_the_next_invitation(
    tmp_path: Path, why: str
) -> None:
    """A bot waiting in a room whose host left before the start (or while another host invites
    it) leaves that room and plays the next: it used to wait there for ever, deaf to invites."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo4", "uzun-bir-parola", LowestCard(), games=1,
                             say=lines.append)
            )  # fmt: skip
            first = Client(srv.url, name="Gone")
            host = Client(srv.url, name="Ayşe")
            for c in (first, host):
                await c.connect()
            created, old = await first.create(preset="standard", deals=1)
            await invite_when_online(first, old.id, "robo4")
            await first.until(lambda: _bot_seated(first, old.id))
            if why == "host_left":
                await first.leave(old.id)
                await first.close()
                for _ in range(200):
                    if any("left before the match started" in line for line in lines):
                        break
                    await asyncio.sleep(0.05)
            _, room = await host.create(preset="standard", deals=1)
            await host.invite(room.id, "robo4")
            await host.until(lambda: _bot_seated(host, room.id))
            await host.start(room.id)
            assert (await host.play(room.id, timeout=120)).over
            assert await asyncio.wait_for(bot, 60) == 1
            code = created["code"]
            if why == "host_left":
                left = (
                    f"The host of the room {code} left before the match started: the bot leaves "
                    "it and waits for the next invitation."
                )
            else:
                left = (
                    f"Another host invites the bot while the room {code} has not started: it "
                    f"leaves {code}."
                )
                assert not _bot_seated(first, old.id)  # it stood up from the old room
                await first.close()
            assert left in lines and "Match 1 over" in lines[-1]
            await host.close()

        asyncio.run(main_())


def test_a_player_too_slow_for_the_clock_is_told_after_the_match(tmp_path: Path) -> None:
    """The player thinks in a thread, so the connection lives on while it does; when its clock
    runs out the server plays for it, and after the match the bot says how often."""
    pytest.importorskip("argon2")
    clock = ManualClock()
    thinking = threading.Event()
    release = threading.Event()

    class Slow(LowestCard):
        def choose(self, view: dict[str, Any]) -> str:
            if not thinking.is_set():  # the first decision outlasts the clock
                thinking.set()
                release.wait(10)
            return super().choose(view)

    with ServerThread(fast_config(tmp_path), clock=clock) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo5", "uzun-bir-parola", Slow(), games=1,
                             say=lines.append)
            )  # fmt: skip
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1)
            await invite_when_online(host, table.id, "robo5")
            await host.until(lambda: _bot_seated(host, table.id))
            seat = next(s["seat"] for s in host.tables[table.id].info["seats"] if s["bot_account"])
            await host.start(table.id)
            played = asyncio.create_task(host.play(table.id, timeout=120))
            assert await asyncio.to_thread(thinking.wait, 10)

            def timed_out() -> bool:
                return any(
                    e.get("by") == "timeout" and e.get("seat") == seat
                    for e in host.tables[table.id].events
                )

            for _ in range(20):  # the decision's 25 s, then the bank in steps of 15 s
                await advance_async(srv, clock, 15)
                with contextlib.suppress(TimeoutError):
                    await host.until(timed_out, timeout=0.5)
                if timed_out():
                    break
            release.set()
            assert (await played).over
            assert await asyncio.wait_for(bot, 60) == 1
            assert lines[-1].startswith(
                "The clock ran out once for your player in that match, and a computer player "
                "moved for it (its slowest decision took "
            ), lines
            await host.close()

        asyncio.run(main_())


def test_the_host_sees_which_bot_accounts_are_online_to_invite(tmp_path: Path) -> None:
    """``invitable``: the bot accounts online, by name, not people's accounts, not one already
    seated; only for the host of a room still waiting."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            host = Client(srv.url, name="H")
            zed = Client(srv.url, name="Zed bot")
            ada = Client(srv.url, name="ada bot")
            person = Client(srv.url, name="Pelin")
            for c in (host, zed, ada, person):
                await c.connect()
            await zed.register("zedbot", "12345678", bot=True)
            await ada.register("adabot", "12345678", bot=True)
            await person.register("pelin", "12345678")
            _, table = await host.create(preset="standard")
            assert await host.invitable(table.id) == [
                {"username": "adabot", "name": "ada bot"},
                {"username": "zedbot", "name": "Zed bot"},
            ]
            with pytest.raises(ServerError) as e:
                await person.invitable(table.id)
            assert e.value.code == "not_host_invite"
            await host.invite(table.id, "adabot")
            note = await ada.wait_for(lambda m: m.get("type") == "invited", 5)
            await ada.join(code=note["code"])
            await host.until(
                lambda: any(s.get("bot_account") for s in host.tables[table.id].info["seats"])
            )
            assert [b["username"] for b in await host.invitable(table.id)] == ["zedbot"]
            await zed.close()
            for _ in range(50):  # the server sees the connection close
                if not await host.invitable(table.id):
                    break
                await asyncio.sleep(0.05)
            assert await host.invitable(table.id) == []
            await host.start(table.id)
            with pytest.raises(ServerError) as e:
                await host.invitable(table.id)
            assert e.value.code == "started"
            for c in (host, ada, person):
                await c.close()

        asyncio.run(main_())


def test_a_host_trying_many_bot_accounts_raises_the_registration_limit() -> None:
    """10 registrations an hour per address stopped a bot author at the fifth bot account on
    their own machine, with no way around it: `batak serve --registrations-per-address N`."""
    import argparse

    from batak.cli.serve import add_serve_parser, config_from_args

    parser = argparse.ArgumentParser(prog="batak")
    add_serve_parser(parser.add_subparsers(dest="command"))
    assert config_from_args(parser.parse_args(["serve"])).register_per_hour_address == 10
    raised = parser.parse_args(["serve", "--registrations-per-address", "100"])
    assert config_from_args(raised).register_per_hour_address == 100


def test_a_second_program_on_a_bot_account_is_refused_and_a_busy_bot_is_said(
    tmp_path: Path,
) -> None:
    """A second ``batak bot`` on the account of one that runs logged in beside it (both online,
    both seated on one invitation, both choosing for one seat): it is refused, saying what to
    do. And a host who invites a bot that plays a match elsewhere is told so at once (it used to
    wait for the bot in silence)."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            first = asyncio.create_task(
                serve_as_bot(srv.url, "solo", "uzun-bir-parola", LowestCard(), say=print)
            )
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=3)
            await invite_when_online(host, table.id, "solo")
            with pytest.raises(ServerError) as e:
                await serve_as_bot(srv.url, "solo", "uzun-bir-parola", LowestCard(), say=print)
            assert e.value.code == "bot_online"
            assert "'solo' is online already" in e.value.message
            assert "Stop that one first" in e.value.message and " 45\u00a0s" in e.value.message
            await host.until(lambda: _bot_seated(host, table.id))
            await host.start(table.id)  # the host does not move: the match stays in play
            other = Client(srv.url, name="Mehmet", lang="tr")
            await other.connect()
            _, room = await other.create(preset="standard")
            with pytest.raises(ServerError) as e:
                await other.invite(room.id, "solo")
            assert e.value.code == "bot_busy"
            assert "şu an başka bir masada maç oynuyor" in e.value.message
            first.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await first
            for c in (host, other):
                await c.close()

        asyncio.run(main_())


def test_a_stopped_bot_leaves_its_seat_to_a_computer_at_once(tmp_path: Path) -> None:
    """Stopped mid-match (Ctrl-C cancels its task), the bot leaves its seat and says so: a
    computer plays it at once, not after the server's hold of a lost connection."""
    pytest.importorskip("argon2")
    release = threading.Event()

    class Waits(LowestCard):
        def choose(self, view: dict[str, Any]) -> str:
            if view["phase"] == "play":
                release.wait(30)
            return super().choose(view)

    with ServerThread(fast_config(tmp_path, hold_seconds=60.0)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo8", "uzun-bir-parola", Waits(), say=lines.append)
            )
            host, table = await _started_with_bot(srv, "robo8")
            final = asyncio.create_task(host.play(table.id, timeout=120))
            seat = next(s["seat"] for s in host.tables[table.id].info["seats"] if s["bot_account"])
            await host.until(
                lambda: (
                    (host.tables[table.id].view or {}).get("phase") == "play"
                    and host.tables[table.id].view["to_move"] == seat
                ),  # type: ignore[index]
                timeout=30,
            )
            bot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bot
            release.set()
            assert lines[-1] == (
                f"The bot stops and leaves its seat in the room {table.info['code']}: a computer "
                "plays it from now on. Start the bot again (the same command) and it takes the "
                "seat back."
            ), lines
            assert (await asyncio.wait_for(final, 15)).over
            await host.close()

        asyncio.run(main_())


def test_a_player_that_never_returns_is_said_and_stops_the_bot(tmp_path: Path) -> None:
    """A choose() that never returns looked alive: the server's clock played the match out,
    the bot said nothing, stayed online and took up invitations it never played. Now it says
    when the clock ran out with its player still thinking, and stops once the match is over."""
    pytest.importorskip("argon2")
    clock = ManualClock()
    forever = threading.Event()

    class Hangs(LowestCard):
        def choose(self, view: dict[str, Any]) -> str:
            if view["phase"] == "play":
                forever.wait()  # (a daemon thread: the test ends all the same)
            return super().choose(view)

    with ServerThread(fast_config(tmp_path), clock=clock) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(
                    srv.url, "robo9", "uzun-bir-parola", Hangs(), say=lines.append,
                    player_spec="m:Hangs",
                )
            )  # fmt: skip
            host, table = await _started_with_bot(srv, "robo9")
            played = asyncio.create_task(host.play(table.id, timeout=300))
            for _ in range(400):  # the bot's clock runs out at each of its decisions
                if played.done():
                    break
                await advance_async(srv, clock, 15)
                await asyncio.sleep(0.02)
            assert (await played).over
            with pytest.raises(PlayerError) as e:
                await asyncio.wait_for(bot, 30)
            assert e.value.code == "stuck"
            said = player_problem(e.value, "en")
            assert said.startswith("your player m:Hangs has not returned from choose(view) for ")
            assert "the match is over meanwhile" in said
            thinking = [line for line in lines if line.startswith("Your player has been thinking")]
            assert len(thinking) == 1, lines
            assert "the table's clock ran out and a computer moved for it" in thinking[0]
            assert not any(b["username"] == "robo9" for b in await _invitable(srv))
            await host.close()

        asyncio.run(main_())


def test_a_player_late_at_several_decisions_is_said_once_a_match(tmp_path: Path) -> None:
    """A player slower than the table's clock is late at each of its decisions (the next one
    starts when the clock has run on already): the bot said "Your player has been thinking
    ..." at every one, 23 lines in a two-deal match of a newcomer's slow bot, some of them
    "for 1 s". docs/bots.md promises it is said once; the match's end counts the rest."""
    pytest.importorskip("argon2")
    clock = ManualClock()

    slow: list[threading.Event] = []  # one for each slow decision, set when it began

    class SlowThrice(LowestCard):
        def choose(self, view: dict[str, Any]) -> str:
            if view["phase"] == "play" and len(slow) < 3:
                slow.append(threading.Event())
                slow[-1].set()
                time.sleep(1.6)  # longer than the bot's look at the table (STUCK_CHECK)
            return super().choose(view)

    with ServerThread(fast_config(tmp_path), clock=clock) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(
                    srv.url, "robo12", "uzun-bir-parola", SlowThrice(), games=1,
                    say=lines.append, player_spec="m:SlowThrice",
                )
            )  # fmt: skip
            host, table = await _started_with_bot(srv, "robo12")
            played = asyncio.create_task(host.play(table.id, timeout=300))
            ran_out = 0
            for _ in range(3000):  # the clock runs out at each slow decision, once
                if played.done():
                    break
                if len(slow) > ran_out and slow[ran_out].is_set():
                    ran_out += 1
                    for _ in range(8):  # past the decision's time and the whole bank
                        await advance_async(srv, clock, 15)
                await asyncio.sleep(0.02)
            assert ran_out == 3
            assert (await played).over
            assert await asyncio.wait_for(bot, 30) == 1
            thinking = [line for line in lines if line.startswith("Your player has been thinking")]
            assert len(thinking) == 1, lines
            assert any(line.startswith("The clock ran out ") for line in lines), lines
            await host.close()

        asyncio.run(main_())


async def _invitable(srv: ServerThread) -> list[dict[str, Any]]:
    """The bot accounts a new host could invite now."""
    host = Client(srv.url, name="Zeynep")
    await host.connect()
    _, room = await host.create(preset="standard")
    try:
        return await host.invitable(room.id)
    finally:
        await host.close()


def test_two_logins_to_a_bot_account_at_one_moment_let_one_in(tmp_path: Path) -> None:
    """The refusal of a second program on a bot account held for two logins sent together:
    both passed the check before either was connected (the password's check and the session's
    write come between), in 2 of 5 tries before the account was claimed at the check."""
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with Client(srv.url, name="x") as c:
                await c.register("robo", "uzun-bir-parola", bot=True)
            for _ in range(6):
                a, b = Client(srv.url, name="a"), Client(srv.url, name="b")
                await a.connect()
                await b.connect()
                both = await asyncio.gather(
                    a.login("robo", "uzun-bir-parola"),
                    b.login("robo", "uzun-bir-parola"),
                    return_exceptions=True,
                )
                codes = sorted(getattr(r, "code", "in") for r in both)
                assert codes == ["bot_online", "in"], both
                await a.close()
                await b.close()
                for _ in range(100):  # the one let in is gone before the next try
                    if not srv.hub.online:
                        break
                    await asyncio.sleep(0.02)

        asyncio.run(main())


def test_a_bot_stopped_before_the_start_frees_its_seat_and_says_so(tmp_path: Path) -> None:
    """Stopped in a room that has not started, the bot said it left its seat to a computer,
    but the server takes no ``here`` before the start: the seat stayed held for the host. It
    now leaves the room, its seat is free again, and it says that."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, hold_seconds=60.0)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo10", "uzun-bir-parola", LowestCard(), say=lines.append)
            )
            host, table = await _seated_with_bot(srv, "robo10")
            for _ in range(200):  # the bot has taken in its seat (not stopped mid-join)
                if any(line.startswith("Seated in the room") for line in lines):
                    break
                await asyncio.sleep(0.02)
            bot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bot
            code = table.info["code"]
            assert lines[-1] == (
                f"The bot stops and leaves the room {code} before its start: its seat there is "
                "free again."
            ), lines
            await host.until(lambda: not _bot_seated(host, table.id), timeout=5)
            await host.close()

        asyncio.run(main_())


def test_another_seat_leaving_is_no_clock_running_out_for_a_bot_thinking(
    tmp_path: Path,
) -> None:
    """A player thinking a few seconds at a table where a person left meanwhile was told "the
    table's clock ran out and a computer moved for it": any change of the table was taken for
    a move made for its seat. Only a move of its seat by the clock is."""
    pytest.importorskip("argon2")
    thinking = threading.Event()

    class Slow(LowestCard):
        def choose(self, view: dict[str, Any]) -> str:
            if view["phase"] == "play" and not thinking.is_set():
                thinking.set()
                time.sleep(3.5)
            return super().choose(view)

    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo11", "uzun-bir-parola", Slow(), say=lines.append)
            )
            host = Client(srv.url, name="Ayşe")
            await host.connect()
            _, table = await host.create(preset="standard", deals=1)
            other = Client(srv.url, name="Mehmet")
            await other.connect()
            await other.join(code=table.info["code"])
            await invite_when_online(host, table.id, "robo11")
            await host.until(lambda: _bot_seated(host, table.id))
            await host.start(table.id)
            played = asyncio.create_task(host.play(table.id, timeout=120))
            playing = asyncio.create_task(other.play(table.id, timeout=120))
            for _ in range(600):
                if thinking.is_set():
                    break
                await asyncio.sleep(0.05)
            assert thinking.is_set()
            await asyncio.sleep(1.2)
            playing.cancel()
            await other.leave(table.id)  # an 'away': no move of the bot's seat
            assert (await asyncio.wait_for(played, 120)).over
            assert not any(line.startswith("Your player has been thinking") for line in lines)
            bot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bot
            for c in (host, other):
                await c.close()

        asyncio.run(main_())


def test_a_bot_stopped_in_the_middle_of_its_join_leaves_the_seat_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped while its ``join`` was under way (the server had seated it, its answer not read
    yet), the bot went without a word and its seat stayed held for the host: the stop came
    before the bot knew where it sat. It now waits for that answer and leaves the room."""
    pytest.importorskip("argon2")
    seated_by_server = asyncio.Event()
    answer = asyncio.Event()
    real_join = Client.join

    async def slow_join(self: Client, *args: Any, **kwargs: Any) -> TableState:
        state = await real_join(self, *args, **kwargs)
        seated_by_server.set()
        await answer.wait()  # the answer still on its way when the bot is stopped
        return state

    monkeypatch.setattr(Client, "join", slow_join)
    with ServerThread(fast_config(tmp_path, hold_seconds=60.0)) as srv:

        async def main_() -> None:
            lines: list[str] = []
            bot = asyncio.create_task(
                serve_as_bot(srv.url, "robo12", "uzun-bir-parola", LowestCard(), say=lines.append)
            )
            host, table = await _seated_with_bot(srv, "robo12")
            await asyncio.wait_for(seated_by_server.wait(), 10)
            bot.cancel()
            await asyncio.sleep(0)  # the cancellation reaches the bot in its join
            answer.set()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(bot, 10)
            code = table.info["code"]
            assert lines[-1] == (
                f"The bot stops and leaves the room {code} before its start: its seat there is "
                "free again."
            ), lines
            await host.until(lambda: not _bot_seated(host, table.id), timeout=5)
            await host.close()

        asyncio.run(main_())


def _bot_process(srv: ServerThread, username: str) -> Any:
    """A real ``batak bot`` process on the account ``username``, its output read by lines."""
    import os
    import subprocess

    import batak

    src = str(Path(batak.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src, "BATAK_BOT_PASSWORD": "uzun-bir-parola"}
    return subprocess.Popen(
        [sys.executable, "-m", "batak", "bot", srv.http, "--username", username, "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_a_bot_process_ended_before_the_start_frees_its_seat_at_once(
    tmp_path: Path, how: str
) -> None:
    """A ``batak bot`` process ended by its service manager (SIGTERM) or killed (SIGKILL) in a
    room that has not started kept its seat there for the hold of a lost connection (60 s
    here), the host waiting for a program that had gone. SIGTERM now stops it as Ctrl-C
    (SIGINT) does (it leaves the room and says so); a killed one's seat is freed by the server
    as soon as its connection drops. Stopped by SIGTERM the bot exits with 0 (it used to exit
    with 130, which a service manager such as systemd counts as a failed stop); Ctrl-C keeps
    130, the shell's convention."""
    import signal

    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, hold_seconds=60.0)) as srv:
        proc = _bot_process(srv, "robo13")
        assert proc.stdout is not None
        try:
            assert proc.stdout.readline().strip() == "Bot account robo13 is online."

            async def main_() -> None:
                host, table = await _seated_with_bot(srv, "robo13")
                said = await asyncio.to_thread(proc.stdout.readline)  # type: ignore[union-attr]
                said += await asyncio.to_thread(proc.stdout.readline)  # type: ignore[union-attr]
                assert "Seated in the room" in said, said
                proc.send_signal(getattr(signal, how))
                rest = await asyncio.to_thread(proc.communicate, timeout=30)
                if how in ("SIGTERM", "SIGINT"):
                    assert proc.returncode == (0 if how == "SIGTERM" else 130), rest
                    code = table.info["code"]
                    last = rest[0].strip().splitlines()[-1]
                    assert last == (
                        f"The bot stops and leaves the room {code} before its start: its seat "
                        "there is free again."
                    ), rest
                await host.until(lambda: not _bot_seated(host, table.id), timeout=5)
                assert await host.invitable(table.id) == []  # gone, not just standing
                await host.close()

            asyncio.run(main_())
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_a_bot_accounts_seat_before_the_start_stays_through_a_server_restart(
    tmp_path: Path,
) -> None:
    """The server frees a bot account's seat in a room not started when its connection drops,
    but a server that shuts down closes every connection itself: that is no program gone, and
    the seat (stored as the others are) is there after the restart for the bot to take back."""
    from dataclasses import replace

    from harness import free_port

    pytest.importorskip("argon2")
    cfg = fast_config(tmp_path, hold_seconds=60.0)
    srv = ServerThread(cfg).__enter__()

    async def main_() -> str:
        host = Client(srv.url, name="Ayşe")
        bot = Client(srv.url, name="Robo")
        for c in (host, bot):
            await c.connect()
        await bot.register("robo14", "uzun-bir-parola", bot=True)
        _, table = await host.create(preset="standard", deals=1)
        await bot.join(code=table.info["code"])
        await asyncio.to_thread(srv.__exit__)  # the server stops with both still connected
        return table.id

    table = asyncio.run(main_())
    with ServerThread(replace(cfg, port=free_port())) as again:
        assert [s.bot_account for s in again.hub.tables[table].seats] == [False, True, False, False]
