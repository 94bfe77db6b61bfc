"""Accounts (argon2 passwords) keep a player's statistics; the leaderboard lists them."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest
from harness import ServerThread, fast_config

from batak.server.client import Client, ServerError


def test_register_login_stats_and_leaderboard(tmp_path: Path) -> None:
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, quick_deals=1)) as srv:

        async def main() -> None:
            a = Client(srv.url, name="Ayşe")
            await a.connect()
            with pytest.raises(ServerError) as e:
                await a.request({"type": "register", "username": "ayse", "password": "short"})
            assert e.value.code == "weak_password"
            reply = await a.request(
                {"type": "register", "username": "ayse", "password": "uzun-bir-parola"}
            )
            assert reply == {
                "type": "account",
                "username": "ayse",
                "name": "Ayşe",
                "ref": reply["ref"],
            }
            st = await a.quick("ihaleli")
            final = await a.play(st.id, timeout=60)
            assert final.over
            seat = final.seat
            assert seat is not None
            row = final.view["match"]["sheet"][0]  # type: ignore[index]
            stats = (await a.request({"type": "stats"}))["stats"]
            assert stats["matches"] == 1 and stats["deals"] == 1
            assert stats["wins"] == int(seat in final.view["match"]["winners"])  # type: ignore[index]
            assert stats["contracts"] == int(row["bidder"] == seat)
            assert stats["average"] == row["scores"][seat]

            b = Client(srv.url, name="Başka")
            await b.connect()
            with pytest.raises(ServerError) as e:
                await b.request({"type": "register", "username": "ayse", "password": "12345678x"})
            assert e.value.code == "username_unavailable"
            with pytest.raises(ServerError) as e:
                await b.request({"type": "login", "username": "ayse", "password": "wrong-pass"})
            assert e.value.code == "bad_login"
            welcome = await b.request(
                {"type": "login", "username": "ayse", "password": "uzun-bir-parola"}
            )
            assert welcome["player"]["id"] == a.player["id"] and welcome["token"]
            board = (await b.request({"type": "leaderboard"}))["players"]
            assert [p["player"] for p in board] == [a.player["id"]]
            await a.close()
            await b.close()

        asyncio.run(main())
        with urllib.request.urlopen(srv.http + "/api/leaderboard", timeout=5) as r:
            assert json.loads(r.read())["players"][0]["name"] == "Ayşe"


def test_a_username_typed_with_a_capital_logs_in(tmp_path: Path) -> None:
    """A phone's keyboard writes the first letter in capitals: 'Oyuncu_tr' for 'oyuncu_tr' was
    'wrong username or password'. The lower-case forms of what was typed are tried when no
    account has the very name (Turkish capitals too); an account that has it comes first."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            ids = {}
            for username in ("oyuncu_tr", "ilker", "Ali"):
                async with Client(srv.url, name=username) as c:
                    password = f"uzun-parola-{username}"
                    await c.request(
                        {"type": "register", "username": username, "password": password}
                    )
                    ids[username] = c.player["id"]
            for typed, account in [
                ("Oyuncu_tr", "oyuncu_tr"),
                ("OYUNCU_TR", "oyuncu_tr"),
                ("İLKER", "ilker"),
                ("Ilker", "ilker"),
                ("Ali", "Ali"),
            ]:
                async with Client(srv.url, name="x") as c:
                    password = f"uzun-parola-{account}"
                    welcome = await c.request(
                        {"type": "login", "username": typed, "password": password}
                    )
                    assert welcome["player"]["id"] == ids[account], typed
            async with Client(srv.url, name="x") as c:
                with pytest.raises(ServerError) as e:
                    await c.request(
                        {"type": "login", "username": "OYUNCU_TR", "password": "yanlış-parola"}
                    )
                assert e.value.code == "bad_login"
                with pytest.raises(ServerError) as e:  # one account to a name, in any case
                    await c.request(
                        {"type": "register", "username": "ali", "password": "uzun-parola-ali"}
                    )
                assert e.value.code == "username_unavailable"

        asyncio.run(main())
