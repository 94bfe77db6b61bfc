"""A host's accounts: ``batak admin players`` lists them, ``ban`` closes one (it cannot log in,
and its open connections are closed by the running server), ``unban`` opens it again; a player
changes their own password (``change_password``), which ends their other sessions."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shlex
import subprocess
import sys
import unicodedata
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.cli import main
from batak.server.client import Client, ServerError


def _register(srv: ServerThread, people: list[tuple[str, str]]) -> None:
    """Accounts (username, name) registered on the running server, each from a client of its
    own (a guest first, as people do)."""

    async def register() -> None:
        for username, name in people:
            async with Client(srv.url, name=name) as c:
                await c.register(username, "uzun-parola-1")

    asyncio.run(register())


def test_a_host_lists_bans_and_unbans_accounts_while_the_server_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], database: str | None
) -> None:
    """On SQLite, then on PostgreSQL (the ``database`` fixture)."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    if database is not None:
        where += ["--database", database]
    # the sweep of ended sessions runs with the reaper: every 0.2 s here (30 s by default)
    config = fast_config(data, database=database, reap_every=0.2, session_recheck_seconds=0)
    with ServerThread(config) as srv:

        async def accounts() -> None:
            for username, name, bot in (
                ("ali", "Ali", False),
                ("robo", "Robo", True),
                ("zeynep", "Zeynep", False),
            ):
                async with Client(srv.url, name=name) as c:
                    await c.register(username, "uzun-parola-1", bot=bot)

        asyncio.run(accounts())
        assert main(["admin", "players", *where]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].split()[:4] == ["username", "name", "joined", "last"]
        assert [x.split()[0] for x in lines[1:]] == ["zeynep", "robo", "ali"]  # newest first
        robo = next(x for x in lines if x.startswith("robo"))
        assert robo.rstrip().endswith("bot") and robo.split()[-2] == "0"  # no match played
        assert main(["admin", "players", "--search", "AL", *where]) == 0
        assert [x.split()[0] for x in capsys.readouterr().out.splitlines()[1:]] == ["ali"]
        assert main(["admin", "players", "--limit", "1", *where]) == 0
        out = capsys.readouterr().out.splitlines()
        assert len(out) == 3 and out[2].startswith("Only the newest 1 are listed")
        assert main(["admin", "players", "--search", "50%", *where]) == 0
        assert "No account has '50%'" in capsys.readouterr().out
        assert main(["admin", "ban", "nobody", *where]) == 2
        assert "No account is called nobody." in capsys.readouterr().err

        async def banned() -> None:
            phone = Client(srv.url)
            await phone.connect()
            await phone.login("ali", "uzun-parola-1")
            # the host types the name with another case: the one account that fits is banned
            code = await asyncio.to_thread(
                main, ["admin", "ban", "Ali", "--reason", "insults  in the chat", *where]
            )
            assert code == 0
            said = capsys.readouterr().out
            assert said.startswith("ali is banned: the account cannot log in. Sessions ended: 2.")
            # the open connection is told and closed by the running server
            told = await phone.wait_for(lambda m: m.get("type") == "logged_out", 5)
            assert told["reason"] == "ended"
            await phone.until(lambda: phone.closed, 5)
            async with Client(srv.url) as c:
                with pytest.raises(ServerError) as e:  # a wrong password says nothing of a ban
                    await c.login("ali", "yanlis-parola")
                assert e.value.code == "bad_login"
                with pytest.raises(ServerError) as e:
                    await c.login("ali", "uzun-parola-1")
                assert e.value.code == "banned"
                assert str(e.value).endswith(
                    "this account was closed by the server's host: insults in the chat"
                )
                assert c.player.get("account") is None

        asyncio.run(banned())
        assert main(["admin", "players", "--search", "ali", *where]) == 0
        assert " banned 20" in capsys.readouterr().out
        assert main(["admin", "unban", "ali", *where]) == 0
        assert "ali is no longer banned" in capsys.readouterr().out
        assert main(["admin", "unban", "ali", *where]) == 0
        assert "ali is not banned; nothing was changed." in capsys.readouterr().out

        async def again() -> None:
            async with Client(srv.url) as c:
                await c.login("ali", "uzun-parola-1")
                assert c.player["account"] == "ali"

        asyncio.run(again())


def test_a_ban_is_said_in_turkish_without_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("ali", "Ali")])
        assert main(["admin", "ban", "ali", "--data", str(data), "--lang", "tr"]) == 0
        assert capsys.readouterr().out.startswith("ali yasaklandı: hesap giriş yapamaz.")

        async def refused() -> None:
            async with Client(srv.url, lang="tr") as c:
                with pytest.raises(ServerError) as e:
                    await c.login("ali", "uzun-parola-1")
                assert e.value.code == "banned"
                assert str(e.value).endswith("bu hesap sunucu yöneticisi tarafından kapatıldı")

        asyncio.run(refused())


def test_a_player_changes_their_password_and_their_other_devices_are_signed_out(
    tmp_path: Path,
) -> None:
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            laptop = Client(srv.url, name="Ayşe")
            await laptop.connect()
            await laptop.register("ayse", "eski-parola-1")
            pid = laptop.player["id"]
            phone = Client(srv.url)
            await phone.connect()
            await phone.login("ayse", "eski-parola-1")
            for password, new, code in (
                ("yanlis-parola", "yeni-parola-2", "bad_password"),
                ("eski-parola-1", "kisa", "weak_password"),
            ):
                with pytest.raises(ServerError) as e:
                    await laptop.change_password(password, new)
                assert e.value.code == code
            assert not phone.closed  # nothing changed
            assert await laptop.change_password("eski-parola-1", "yeni-parola-2") == 1
            told = await phone.wait_for(lambda m: m.get("type") == "logged_out", 5)
            assert told["reason"] == "password"
            await phone.until(lambda: phone.closed, 5)
            # this device goes on, also after a reconnect with its token
            assert (await laptop.request({"type": "stats"}))["type"] == "stats"
            await laptop.reconnect()
            assert laptop.player["id"] == pid and "token_unknown" not in laptop.welcome
            async with Client(srv.url) as c:
                with pytest.raises(ServerError) as e:
                    await c.login("ayse", "eski-parola-1")
                assert e.value.code == "bad_login"
                await c.login("ayse", "yeni-parola-2")
                assert c.player["id"] == pid
            async with Client(srv.url) as guest:
                with pytest.raises(ServerError) as e:
                    await guest.change_password("x" * 8, "y" * 8)
                assert e.value.code == "needs_account"
            await laptop.close()

        asyncio.run(main_())


def test_wrong_current_passwords_lock_the_account_as_wrong_logins_do(tmp_path: Path) -> None:
    """Changing the password is no way round the login guard: past the five free failures a
    wrong one locks the name, for logins too."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            async with Client(srv.url) as c:
                await c.register("ayse", "eski-parola-1")
                for _ in range(6):
                    with pytest.raises(ServerError) as e:
                        await c.change_password("yanlis-parola", "yeni-parola-2")
                    assert e.value.code == "bad_password"
                with pytest.raises(ServerError) as e:
                    await c.change_password("eski-parola-1", "yeni-parola-2")
                assert e.value.code == "locked"
            async with Client(srv.url) as other:
                with pytest.raises(ServerError) as e:
                    await other.login("ayse", "eski-parola-1")
                assert e.value.code == "locked"

        asyncio.run(main_())


def test_a_banned_player_leaves_the_leaderboards_and_comes_back_when_unbanned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A host bans a cheater: their name should not stay at the top of the wins and chips
    leaderboards. Their games and chips stay stored and count again after ``unban``."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    with ServerThread(fast_config(data, quick_deals=1)) as srv:

        async def play() -> None:
            for username in ("ali", "veli"):
                async with Client(srv.url, name=username.title()) as c:
                    await c.register(username, "uzun-parola-1")
                    await c.wallet()  # the day's chips: a chip account
                    st = await c.quick("ihaleli")
                    assert (await c.play(st.id, timeout=60)).over

        async def boards() -> tuple[list[str], list[str]]:
            async with Client(srv.url) as c:
                wins = (await c.request({"type": "leaderboard"}))["players"]
                chips = (await c.chip_leaderboard())["players"]
                return sorted(p["name"] for p in wins), sorted(p["name"] for p in chips)

        asyncio.run(play())
        assert asyncio.run(boards()) == (["Ali", "Veli"], ["Ali", "Veli"])
        assert main(["admin", "ban", "veli", *where]) == 0
        assert asyncio.run(boards()) == (["Ali"], ["Ali"])
        # no session is left to veli: the last seen is the match's end, not "-"
        capsys.readouterr()
        assert main(["admin", "players", "--search", "veli", *where]) == 0
        row = capsys.readouterr().out.splitlines()[1].split()
        assert row[0] == "veli" and row[3] != "-" and row[5] == "1", row  # joined: the day
        assert main(["admin", "unban", "veli", *where]) == 0
        assert asyncio.run(boards()) == (["Ali", "Veli"], ["Ali", "Veli"])
        capsys.readouterr()


def test_the_sweep_leaves_a_connection_that_logged_in_again_while_it_asked(
    tmp_path: Path,
) -> None:
    """The sweep asks the database about the sessions connections have; a connection that logs
    in meanwhile has a new session, which is not among the ended ones: it stays."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main_() -> None:
            async with Client(srv.url, name="Ali") as c:
                await c.register("ali", "uzun-parola-1")
                (conn,) = srv.hub.online[c.player["id"]]
                old = conn.token_hash
                asked = srv.hub.storage.live_sessions

                async def slow(hashes: list[str]) -> set[str]:
                    live = await asked(hashes)
                    conn.token_hash = "a-session-made-meanwhile"  # (a login on it)
                    return live - {old}  # the old one ended

                srv.hub.storage.live_sessions = slow
                try:
                    assert (
                        await asyncio.wrap_future(
                            asyncio.run_coroutine_threadsafe(
                                srv.hub.close_ended_sessions(), srv.loop
                            )
                        )
                        == 0
                    )
                finally:
                    srv.hub.storage.live_sessions = asked
                assert not c.closed

        asyncio.run(main_())


@contextlib.contextmanager
def _while_checking(hub: Any, then: Callable[[], Awaitable[Any]]) -> Iterator[None]:
    """Each password check of the server is followed by ``then()``: what the host does while a
    password is checked (argon2 takes a while)."""
    verify = hub._verify

    async def slow(digest: str, password: str) -> bool:
        ok = await verify(digest, password)
        await then()
        return bool(ok)

    hub._verify = slow
    try:
        yield
    finally:
        hub._verify = verify


@pytest.mark.parametrize("meanwhile", ["ban", "reset"])
def test_a_ban_or_a_reset_that_comes_while_a_password_is_checked_wins(
    tmp_path: Path, meanwhile: str
) -> None:
    """The password check takes a while (argon2, in a worker). A ban, or the host's new
    password, that lands meanwhile used to lose: the login went on to a session of its own
    (which the sweep, asking only whether sessions exist, never closed), and a player's change
    of password overwrote the host's reset."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:
        hub = srv.hub
        host_hash = "the-hash-of-the-password-the-host-gave"

        async def register() -> str:
            async with Client(srv.url, name="Ali") as c:
                await c.register("ali", "uzun-parola-1")
                return str(c.player["id"])

        pid = asyncio.run(register())

        async def host() -> None:
            if meanwhile == "ban":  # batak admin ban, while the password is checked
                await hub.storage.update_player(pid, banned=1.0)
            else:  # batak admin password
                await hub.storage.update_player(pid, password_hash=host_hash)

        async def attempts() -> None:
            async with Client(srv.url) as c:
                with pytest.raises(ServerError) as e:
                    await c.login("ali", "uzun-parola-1")
                assert e.value.code == ("banned" if meanwhile == "ban" else "bad_login")
                assert c.player.get("account") is None

        with _while_checking(hub, host):
            asyncio.run(attempts())
        row = srv.call(lambda: hub.storage.player_by("id", pid))
        assert (row.banned is not None) == (meanwhile == "ban")
        if meanwhile == "reset":
            assert row.password_hash == host_hash


def test_a_change_of_password_does_not_overwrite_the_hosts_reset_made_meanwhile(
    tmp_path: Path,
) -> None:
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:
        hub = srv.hub
        host_hash = "the-hash-of-the-password-the-host-gave"

        async def main_() -> str:
            async with Client(srv.url, name="Ali") as c:
                await c.register("ali", "uzun-parola-1")
                pid = str(c.player["id"])

                async def host() -> None:  # batak admin password
                    await hub.storage.update_player(pid, password_hash=host_hash)

                with _while_checking(hub, host), pytest.raises(ServerError) as e:
                    await c.change_password("uzun-parola-1", "yeni-parola-2")
                assert e.value.code == "bad_password"
            return pid

        pid = asyncio.run(main_())
        row = srv.call(lambda: hub.storage.player_by("id", pid))
        assert row.password_hash == host_hash


def test_a_username_in_another_alphabets_case_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite's LOWER folds ASCII letters only: 'şule' did not find 'Şule'."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("Şule", "Şule Öz")])
    assert main(["admin", "players", "--search", "şU", *where]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:3] == ["Şule", "Şule", "Öz"]
    assert main(["admin", "players", "--search", "ÖZ", *where]) == 0
    assert "Şule Öz" in capsys.readouterr().out
    assert main(["admin", "ban", "şule", *where]) == 0
    assert capsys.readouterr().out.startswith("Şule is banned")


def test_turkish_capitals_find_an_account_and_a_name_in_another_case_is_not_a_second_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'ismail', 'İSMAİL' and 'ISMAIL' did not find 'İsmail', nor 'irem' 'İrem'; 'ALICE' could
    be registered beside 'alice', and 'Alice' then found neither ('No account')."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    with ServerThread(fast_config(data)) as srv:

        async def register() -> None:
            for username in ("İsmail", "İrem", "alice"):
                async with Client(srv.url, name=username) as c:
                    await c.register(username, "uzun-parola-1")
            async with Client(srv.url, name="Ali") as c:
                for taken in ("ALICE", "ismail", "IREM"):
                    with pytest.raises(ServerError) as refused:
                        await c.register(taken, "uzun-parola-1")
                    assert refused.value.code == "username_unavailable", taken

        asyncio.run(register())
    for typed in ("ismail", "İSMAİL", "ISMAIL"):
        assert main(["admin", "vip", typed, "on", *where]) == 0, typed
        assert "İsmail" in capsys.readouterr().out
    assert main(["admin", "players", "--search", "irem", *where]) == 0
    listed = capsys.readouterr().out
    assert "İrem" in listed and "VIP" not in listed
    # the flag is in the list of accounts (it was seen only by setting it again)
    assert main(["admin", "players", "--search", "ismail", *where]) == 0
    (row,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("İsmail")]
    assert row.rstrip().endswith("VIP"), row


def test_a_username_that_fits_several_accounts_says_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Accounts made before names differing only in case were refused ('ALICE' beside
    'alice'): the operator is told which ones fit, not that there is none."""
    import sqlite3

    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("alice", "Alice")])
    with sqlite3.connect(data / "batak.sqlite3") as db:  # as an older server let it be made
        db.execute(
            "INSERT INTO players (id, name, token_hash, created, username)"
            " VALUES ('p-old', 'ALICE', 'old-token-hash', 0, 'ALICE')"
        )
    assert main(["admin", "vip", "Alice", "on", *where]) == 2
    assert "Alice fits several accounts: " in capsys.readouterr().err


def test_the_list_of_accounts_fits_80_columns_and_shows_why_an_account_is_banned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a long username and name every row was wider than 80 columns (up to 127 with a
    ban), and the reason given to ``ban --reason`` was shown nowhere but in ``export``."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    with ServerThread(fast_config(data)) as srv:
        _register(
            srv, [("ali", "Ali"), ("abdurrahmanoglu_sukru_1987", "Şükrü Abdurrahmanoğlu Kırkpınar")]
        )
    reason = "chip dumping with ali at three staked rooms"
    for lang in ("en", "tr"):
        where = ["--data", str(data), "--lang", lang]
        assert main(["admin", "ban", "abdurrahmanoglu_sukru_1987", "--reason", reason, *where]) == 0
        capsys.readouterr()
        assert main(["admin", "players", *where]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert all(len(x) <= 80 for x in lines), "\n".join(lines)
        sukru = next(i for i, x in enumerate(lines) if x.startswith("abdurrahmanoglu_sukru_1987 "))
        assert "Şükrü Abd" in lines[sukru] and "…" in lines[sukru]  # the name cut
        banned = "banned" if lang == "en" else "yasaklı"
        assert lines[sukru + 1].startswith(
            f"    {banned} 20" if lang == "en" else f"    {banned} (20"
        )
        assert lines[sukru + 1].endswith(f": {reason}"), lines[sukru + 1]
        assert lines[-1].startswith("ali ")  # no notes: no line under it


def _columns(line: str) -> int:
    """The columns ``line`` takes at a terminal: East Asian wide characters 2, combining
    marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in line
    )


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_list_of_accounts_fits_80_columns_with_wide_names_and_a_long_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """A 32-letter username made the English rows 81 columns; a ban's reason was never cut (a
    200-letter one made its line 230 columns); widths were counted in characters, so a name in
    Japanese took twice its room, and a cut could part an ``i`` from its dot (``i̇``, as Python
    lowercases ``İ``)."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    people = [
        ("wide", "東京麻雀倶楽部の山田太郎と鈴木花子と佐藤次郎"),
        ("dots", "i\u0307" * 12 + " Ali"),
        ("u" * 32, "Ali Veli"),
        ("ali", "Ali"),
    ]
    with ServerThread(fast_config(data)) as srv:
        _register(srv, people)
    reason = " ".join(["chip dumping with veli at three staked rooms"] * 5)[:200]  # the most
    where = ["--data", str(data), "--lang", lang]
    assert main(["admin", "ban", "ali", "--reason", reason, *where]) == 0
    # a reason in Japanese (no spaces, each character two columns) ran to 156 columns
    assert main(["admin", "ban", "wide", "--reason", "東京の卓で不正をした" * 10, *where]) == 0
    capsys.readouterr()
    assert main(["admin", "players", *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(_columns(x) <= 80 for x in lines), "\n".join(lines)
    assert "".join(x.strip() for x in lines).count("東京の卓で不正をした") == 10  # all of it
    wide = next(x for x in lines if x.startswith("wide "))
    assert "東京" in wide and "…" in wide
    dots = next(x for x in lines if x.startswith("dots "))
    name = dots.split()[1]
    assert name.endswith("…") and name[:-1] == "i\u0307" * (len(name) // 2), dots
    ali = next(i for i, x in enumerate(lines) if x.startswith("ali "))
    notes = list(itertools.takewhile(lambda x: x.startswith("    "), lines[ali + 1 :]))
    assert len(notes) > 1 and lines[ali + len(notes) + 1].startswith("u" * 32), lines
    assert " ".join(x.strip() for x in notes).endswith(": " + reason)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_what_ban_says_fits_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """Its one line was 159 columns in English, 160 in Turkish (and a ban's reason, said
    again when it is changed, up to 200 more): now a line each for what was done, the running
    server and the command that undoes it, each wrapped at 80 columns into a file; a command
    too long for its line goes on one of its own, never broken (it is pasted)."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", lang]
    name = "u" * 32  # the longest username
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [(name, "U")])
    assert main(["admin", "ban", name, *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    command = f"batak admin --data {shlex.quote(str(data))} unban {name}"
    assert len(command) > 80  # (pytest's folder)
    assert lines[-2:] == [
        {"en": "To open it again:", "tr": "Yeniden açmak için:"}[lang],
        "  " + command,
    ]
    assert all(len(x) <= 80 for x in lines[:-1]), lines
    reason = " ".join(["spam"] * 39)  # 194 characters (200 are kept)
    assert main(["admin", "ban", name, "--reason", reason, *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 2 and all(len(x) <= 80 for x in lines), lines
    assert " ".join(lines).endswith(reason)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_command_ban_gives_to_undo_it_opens_the_same_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
) -> None:
    """``batak admin --data DIR ban ali`` ends with the command that opens the account again.
    It said ``batak admin unban ali``, which, pasted, acted on the default data folder (where
    there is no database, or another one). Now it names the same folder, as a full path, and
    pasted in another folder it opens the account that was banned."""
    pytest.importorskip("argon2")
    data = tmp_path / "my games"  # (a space: the path is quoted)
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("ali", "Ali")])
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["admin", "--data", "my games", "--lang", lang, "ban", "ali"]) == 0
    said = capsys.readouterr().out
    head = {"en": "To open it again: ", "tr": "Yeniden açmak için: "}[lang]
    command = said.splitlines()[-1].strip().removeprefix(head)  # (on a line of its own)
    assert command == f"batak admin --data {shlex.quote(str(data))} unban ali", said
    assert "'" in command
    monkeypatch.chdir(tmp_path / "elsewhere")
    args = shlex.split(command)
    assert args[0] == "batak" and main([*args[1:], "--lang", "en"]) == 0
    assert (
        capsys.readouterr().out.strip()
        == "ali is no longer banned and can log in with their password."
    )
    assert main(["admin", "--data", str(data), "--lang", "en", "players"]) == 0
    assert "banned" not in capsys.readouterr().out


def test_banning_a_banned_account_says_so_and_keeps_its_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second ``ban`` said "ali is banned … Sessions ended: 0", as if it had just been done."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("ali", "Ali")])
        assert main(["admin", "ban", "ali", "--reason", "insults", *where]) == 0
        assert capsys.readouterr().out.startswith("ali is banned: the account cannot log in.")
        assert main(["admin", "players", *where]) == 0
        listed = capsys.readouterr().out
        assert main(["admin", "ban", "ali", *where]) == 0
        said = capsys.readouterr().out
        assert said.startswith("ali is banned already (since 20"), said
        assert said.rstrip().endswith("); nothing was changed."), said
        assert main(["admin", "ban", "ALI", "--reason", "spam  in the chat", *where]) == 0
        said = " ".join(capsys.readouterr().out.splitlines())  # (in lines of 80 columns)
        assert said.rstrip().endswith("); the reason it is shown is now: spam in the chat"), said
        assert main(["admin", "players", *where]) == 0
        now = capsys.readouterr().out
        assert now == listed.replace(": insults", ": spam in the chat"), now  # the same date

        async def refused() -> str:
            async with Client(srv.url) as c:
                with pytest.raises(ServerError) as e:
                    await c.login("ali", "uzun-parola-1")
                return str(e.value)

        assert asyncio.run(refused()).endswith(": spam in the chat")
        assert main(["admin", "ban", "ali", "--lang", "tr", "--data", str(data)]) == 0
        said = capsys.readouterr().out
        assert said.startswith("ali zaten yasaklı (20") and "hiçbir şey değişmedi" in said


def test_an_export_never_writes_over_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``export NAME --output FILE`` wrote over FILE (another player's export, say) without a
    word, and a folder that is not there was said in the system's English in every language."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", "en"]
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("ali", "Ali"), ("veli", "Veli")])
    out = tmp_path / "export.json"
    assert main(["admin", "export", "ali", "--output", str(out), *where]) == 0
    capsys.readouterr()
    before = out.read_text(encoding="utf-8")
    assert main(["admin", "export", "veli", "--output", str(out), *where]) == 2
    assert capsys.readouterr().err == (
        f"batak admin: {out} is already there: an export never writes over a file; give a new"
        " name\n"
    )
    assert out.read_text(encoding="utf-8") == before  # still ali's
    # a person's data: for the file's owner only, whatever the umask (it was 0644 under 022)
    assert out.stat().st_mode & 0o777 == 0o600
    # a name as long as the folder allows (a temporary one made longer from it did not fit)
    long = tmp_path / ("veli-" + "x" * 240 + ".json")
    assert main(["admin", "export", "veli", "--output", str(long), *where]) == 0
    assert '"username": "veli"' in long.read_text(encoding="utf-8")
    capsys.readouterr()
    nowhere = tmp_path / "no" / "veli.json"
    assert main(["admin", "export", "veli", "-o", str(nowhere), "--data", str(data)]) == 2
    assert capsys.readouterr().err.endswith(
        f"there is no folder {nowhere.parent} to write the data in\n"
    )
    assert (
        main(["admin", "--lang", "tr", "export", "veli", "-o", str(nowhere), "--data", str(data)])
        == 2
    )
    assert f"verilerin yazılacağı {nowhere.parent} klasörü yok" in capsys.readouterr().err
    assert not nowhere.parent.exists()


#: A full disk: a tmpfs of 8 KiB filled up, in a mount namespace of its own (needs root and
#: unshare); then room again.
FULL_DISK = """
mount -t tmpfs -o size=8k tmpfs "$SMALL"
dd if=/dev/zero of="$SMALL/filler" bs=1k count=100 2>/dev/null
"$PYTHON" -m batak admin --data "$DATA" --lang tr export ali --output "$SMALL/ali.json"
echo "rc=$?"; ls -A "$SMALL"
rm "$SMALL/filler"
"$PYTHON" -m batak admin --data "$DATA" --lang tr export ali --output "$SMALL/ali.json"
echo "rc=$?"; ls -A "$SMALL"
"""


def test_an_export_onto_a_full_disk_leaves_nothing_behind(tmp_path: Path) -> None:
    """An export that could not be written (a full disk) left an empty file under its name,
    which refused the next try ('is already there'), and said the system's 'No space left on
    device' in English under --lang tr."""
    pytest.importorskip("argon2")
    tried = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if tried.returncode != 0 or os.geteuid() != 0:
        pytest.skip("needs root and unshare -m for a small disk of its own")
    data = tmp_path / "data"
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [("ali", "Ali")])
    small = tmp_path / "small"
    small.mkdir()
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHON": sys.executable}
    env.update(SMALL=str(small), DATA=str(data))
    done = subprocess.run(
        ["unshare", "-m", "bash", "-c", FULL_DISK], env=env, capture_output=True, text=True
    )
    said = done.stdout.split()
    assert said == ["rc=1", "filler", "rc=0", "ali.json"], (done.stdout, done.stderr)
    failed, written = done.stderr.splitlines()
    assert failed == f"batak admin: {small}/ali.json dosyasına kaydedilemedi: disk dolu"
    assert written.endswith("ali.json dosyasına yazıldı."), written


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_admin_never_cuts_a_wide_username_in_its_sentences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """batak admin's sentences were wrapped with no names, so a username wider than the line
    (32 wide characters are 64 columns) was cut between its characters, the rest indented on
    the next line: two words that read, and copy, as two. ban, unban and vip name it whole,
    on a line of its own where it does not fit, as batak online does."""
    pytest.importorskip("argon2")
    from batak.cli import admin

    data = tmp_path / "data"
    where = ["--data", str(data), "--lang", lang]
    name = "東京大阪" * 8  # 32 characters, 64 columns
    with ServerThread(fast_config(data)) as srv:
        _register(srv, [(name, "T")])
    monkeypatch.setattr(admin, "_width", lambda: 40)  # a line narrower than the name
    for job in (["ban", name], ["unban", name], ["vip", name, "on"]):
        assert main(["admin", *job, *where]) == 0, job
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert lines[0].split(" ")[0] == name, (job, out)  # the sentence begins with it, whole
        if job[0] == "ban":  # (the rest fits the line but for the command to paste)
            assert all(len(x) <= 40 for x in lines[1:-1]) and name in lines[-1], out
