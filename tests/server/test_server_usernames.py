"""Usernames are unique in any case (storage migration 8: a folded form in a unique column), on
SQLite and on PostgreSQL: two registrations of one name in two cases at the same instant cannot
both land, a database made before keeps its accounts findable, and a name is found by an index.
The operator's search of the accounts is the database's (migration 10)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.server import storage as storage_module
from batak.server.client import Client, ServerError
from batak.server.storage import PlayerRow, Storage, StorageError


def _url(database: str | None, tmp_path: Path) -> str:
    return database or f"sqlite:///{tmp_path / 'names.sqlite3'}"


def _guest(pid: str) -> PlayerRow:
    return PlayerRow(id=pid, name=pid, token_hash=f"hash-{pid}", created=0.0)


def test_two_names_in_two_cases_cannot_both_be_kept(database: str | None, tmp_path: Path) -> None:
    """The check before a registration reads the accounts, then the account is written: two
    registrations of 'Bob' and 'BOB' at one instant both passed the check before; the unique
    folded column refuses the second write (as it does 'İSMAİL' beside 'ismail')."""

    async def run() -> None:
        st = Storage(_url(database, tmp_path))
        await st.open()
        try:
            for pid in ("a", "b", "c", "d"):
                await st.create_player(_guest(pid))
            both = await asyncio.gather(
                st.update_player("a", username="Bob"),
                st.update_player("b", username="BOB"),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in both) == ["NoneType", "StorageError"]
            await st.update_player("c", username="ismail")
            with pytest.raises(StorageError):
                await st.update_player("d", username="İSMAİL")
            found = await st.accounts_like("bOb")
            assert len(found) == 1 and found[0].username in ("Bob", "BOB")
            row = await st.account_named("ISMAIL")
            assert row is not None and row.id == "c"
            # a renamed account's old name is free again, in every case
            await st.update_player("c", username="ismail_2")
            await st.update_player("d", username="İsmail")
            assert (await st.account_named("ismail")) is not None
        finally:
            await st.close()

    asyncio.run(run())


def test_a_database_from_before_is_folded_and_its_look_alikes_are_still_found(
    database: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at migration 7 whose server let 'ALICE' and then 'alice' be registered: the
    older one gets the folded form, the newer keeps none; both are found by their name, the
    operator is told both fit 'Alice', and nobody can take a third."""
    url = _url(database, tmp_path)

    async def before() -> None:
        monkeypatch.setattr(storage_module, "MIGRATIONS", storage_module.MIGRATIONS[:7])
        st = Storage(url)
        await st.open()
        add = st._sql(
            "INSERT INTO players (id, name, token_hash, created, username) VALUES (?, ?, ?, ?, ?)"
        )
        rows = [
            ("old", "Alice", "h-old", 1.0, "ALICE"),
            ("new", "alice", "h-new", 2.0, "alice"),
            ("irem", "İrem", "h-irem", 3.0, "İrem"),
            ("guest", "Misafir 12", "h-guest", 4.0, None),
        ]
        try:
            await st._call(lambda cur: cur.executemany(add, rows))
        finally:
            await st.close()
        monkeypatch.undo()

    async def after() -> None:
        st = Storage(url)
        await st.open()
        try:
            folded = await st._call(
                lambda cur: (
                    cur.execute("SELECT id, folded FROM players ORDER BY id"),
                    cur.fetchall(),
                )[1]
            )
            assert [tuple(r) for r in folded] == [
                ("guest", None),
                ("irem", "irem"),
                ("new", None),
                ("old", "alice"),
            ]
            assert sorted(r.id for r in await st.accounts_like("Alice")) == ["new", "old"]
            assert (await st.account_named("Alice")) is None  # two fit: the operator is told
            exact = await st.account_named("alice")
            assert exact is not None and exact.id == "new"
            irem = await st.account_named("IREM")
            assert irem is not None and irem.id == "irem"
            await st.create_player(_guest("third"))
            with pytest.raises(StorageError):
                await st.update_player("third", username="Alice")
        finally:
            await st.close()

    asyncio.run(before())
    asyncio.run(after())


def test_registrations_of_one_name_in_two_cases_at_once(tmp_path: Path) -> None:
    """Through the server: 'Deniz' and 'DENİZ' registered at the same moment; one gets the
    account, the other 'username_unavailable' (never an internal error), and both cases log in
    to the one account."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    with ServerThread(fast_config(data)) as srv:

        async def run() -> None:
            async with Client(srv.url, name="A") as a, Client(srv.url, name="B") as b:

                async def register(c: Client, username: str) -> str:
                    try:
                        await c.register(username, "uzun-parola-1")
                    except ServerError as e:
                        return e.code
                    return "ok"

                got = await asyncio.gather(register(a, "Deniz"), register(b, "DENİZ"))
                assert sorted(got) == ["ok", "username_unavailable"]
            for typed in ("deniz", "DENİZ", "DENIZ"):
                async with Client(srv.url, name="C") as c:
                    await c.login(typed, "uzun-parola-1")

        asyncio.run(run())


def test_the_last_seen_stays_when_the_sessions_are_ended(
    database: str | None, tmp_path: Path
) -> None:
    """The operator's "last seen" (``batak admin players``) read only the sessions left, so a
    ban, a logout or a new password, which end sessions, took it back (to nothing for an
    account that never finished a match). Migration 9 keeps the ended sessions' last use; an
    erasure forgets it."""

    async def run() -> None:
        st = Storage(_url(database, tmp_path))
        await st.open()
        try:
            await st.create_player(_guest("a"))
            await st.update_player("a", username="ayse")
            await st.add_session("a", "s1")
            await st.add_session("a", "s2")
            await st.player_by_token("s2")  # used last
            used = (await st.accounts("ayse"))[0]["last_seen"]
            assert used is not None
            assert sorted(await st.end_sessions("a", "s2")) == ["s2"]  # a logout
            assert (await st.accounts("ayse"))[0]["last_seen"] == used
            assert sorted(await st.end_sessions("a")) == ["hash-a", "s1"]  # a ban ends the rest
            assert await st.sessions_of("a") == 0
            assert (await st.accounts("ayse"))[0]["last_seen"] == used
            # an older session ended later does not take it back
            await st.add_session("a", "s3")
            await st.run(lambda cur: cur.execute(st.q("UPDATE sessions SET used = 1.0")))
            await st.end_sessions("a")
            assert (await st.accounts("ayse"))[0]["last_seen"] == used
        finally:
            await st.close()

    asyncio.run(run())


def test_the_operators_search_is_done_by_the_database(database: str | None, tmp_path: Path) -> None:
    """``batak admin players [--search TEXT]`` read every player and searched them in Python.
    The database does it now (migration 10): the accounts newest first by a partial index,
    stopped at the limit, each matched by its folded username and name. It still finds a text
    anywhere in either, in any case (Turkish capitals too); LIKE's signs are only themselves; a
    text never fits across username and name; a rename or a new username is searched at once;
    guests are never listed."""

    async def run() -> None:
        st = Storage(_url(database, tmp_path))
        await st.open()
        try:
            accounts = [
                ("a", "ayse_k", "Ayşe Kaya"),
                ("b", "ISMAIL", "İsmail Er"),
                ("c", "bob", "Bob 50%"),
                ("d", "a_b", "Dana"),
                ("e", "axb", "Ece"),
                ("f", "zed", "Ulu"),
            ]
            for i, (pid, username, name) in enumerate(accounts):
                row = PlayerRow(id=pid, name=pid, token_hash=f"hash-{pid}", created=float(i))
                await st.create_player(row)
                await st.update_player(pid, username=username)  # registered under a guest's name
                await st.update_player(pid, name=name)  # and renamed since
            guest = PlayerRow(id="g", name="Ayşe", token_hash="hash-g", created=99.0)
            await st.create_player(guest)

            async def found(search: str = "", limit: int = 50) -> list[str]:
                return [r["username"] for r in await st.accounts(search, limit)]

            assert await found() == ["zed", "axb", "a_b", "bob", "ISMAIL", "ayse_k"]
            assert await found(limit=2) == ["zed", "axb"]
            assert await found("AYŞE") == ["ayse_k"]  # in the name; not the guest
            assert await found("SE_K") == ["ayse_k"]  # in the username
            for typed in ("ismail", "İSMAİL", "Ismail", "smail er"):
                assert await found(typed) == ["ISMAIL"], typed
            assert await found("a_b") == ["a_b"]  # "_" is no wildcard ("axb")
            assert await found("50%") == ["bob"]  # nor "%"
            assert await found("%") == ["bob"]
            assert await found("du") == []  # "zed" then "Ulu": not across the two
            assert await found("a", limit=3) == ["axb", "a_b", "ISMAIL"]  # the newest three
            await st.update_player("e", name="Eren")
            assert await found("eren") == ["axb"] and await found("ece") == []
            await st.update_player("f", username="zoe")
            assert await found("zoe") == ["zoe"] and await found("zed") == []

            # the database goes by the index (not a read of every player, nor a sort of them)
            def plan(cur: Any) -> str:
                sql, params = st.accounts_query("ismail", 51)
                if st.kind == "sqlite":
                    cur.execute("EXPLAIN QUERY PLAN " + sql, params)
                else:  # (seven rows: the planner would rather read them all and sort them;
                    # with that forbidden it shows that the index serves the search and order)
                    cur.execute("SET LOCAL enable_seqscan = off")
                    cur.execute("SET LOCAL enable_bitmapscan = off")
                    cur.execute("EXPLAIN " + sql, params)
                return "\n".join(str(r[-1]) for r in cur.fetchall())

            how = await st.run(plan)
            assert "players_accounts" in how, how
            assert "SORT" not in how.upper() and "TEMP B-TREE" not in how.upper(), how
        finally:
            await st.close()

    asyncio.run(run())


def test_a_database_from_before_gets_its_accounts_search_keys(
    database: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at migration 9: its accounts are searched by username and name as soon as it
    is opened by this version (migration 10 fills their keys); its guests get none."""
    url = _url(database, tmp_path)

    async def before() -> None:
        monkeypatch.setattr(storage_module, "MIGRATIONS", storage_module.MIGRATIONS[:9])
        st = Storage(url)
        await st.open()
        add = st._sql(
            "INSERT INTO players (id, name, token_hash, created, username, folded)"
            " VALUES (?, ?, ?, ?, ?, ?)"
        )
        rows = [
            ("guest", "Misafir 12", "h-guest", 1.0, None, None),
            ("irem", "İrem Öz", "h-irem", 2.0, "irem", "irem"),
            ("old", "Old Öz", "h-old", 3.0, "ALICE", "alice"),
        ]
        try:
            await st.run(lambda cur: cur.executemany(add, rows))
        finally:
            await st.close()
        monkeypatch.undo()

    async def after() -> None:
        st = Storage(url)
        await st.open()
        try:
            keys = await st.run(
                lambda cur: (
                    cur.execute("SELECT id, search_key FROM players ORDER BY id"),
                    cur.fetchall(),
                )[1]
            )
            assert [tuple(r) for r in keys] == [
                ("guest", None),
                ("irem", "irem\x1firem öz"),
                ("old", "alice\x1fold öz"),
            ]
            assert [r["username"] for r in await st.accounts("İREM ÖZ")] == ["irem"]
            assert [r["username"] for r in await st.accounts("alice")] == ["ALICE"]
        finally:
            await st.close()

    asyncio.run(before())
    asyncio.run(after())
