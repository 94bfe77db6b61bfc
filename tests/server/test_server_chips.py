"""Chips over real sockets (issue 12): buy-ins, every payout rule, the kasa growing and being won,
bots as a sink (and a house bot partner taking nothing), the cover check, leaving played for (no
refunds), the staked rematch, and the ledger exact after each.

A match's cards come from its table's seed; these tests fix the seed (and the lots for the first
dealer) and play a fixed choice (the first legal move) at every seat, so that the engine tells in
advance who wins, who ties and who takes 11 tricks, and the test checks the chips against it."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config, free_port

from batak.match import Match
from batak.rules import Rules
from batak.server import fair
from batak.server.chips import Plan, kasa_team, settlement
from batak.server.client import Client, ServerError

pytest.importorskip("argon2")

GRANT = 5000


def first_legal(view: dict[str, Any]) -> str:
    return str(view["legal_moves"][0])


def simulate(rules: Rules, seed: int, dealer: int = 0) -> Match:
    """The match the server will play with this seed when every seat plays ``first_legal``."""
    m = Match(rules, dealer=dealer, deal_seed=lambda k: DEAL_SEED(seed, "test", k))
    while not m.over:
        seat = m.to_move
        assert seat is not None
        m.play(first_legal(m.view(seat)), seat)
    return m


def find_seed(rules: Rules, want: Any) -> tuple[int, Match]:
    for seed in range(1, 5000):
        m = simulate(rules, seed)
        if want(m):
            return seed, m
    raise AssertionError("no seed found")  # pragma: no cover


DEAL_SEED = fair.deal_seed


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The next table's secret is the list's first number (and the lots give seat 0); its deals'
    seeds do not depend on the table's id (which the test cannot know in advance)."""
    queue: list[int] = []
    real = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda n: queue.pop(0) if queue else real(n))
    monkeypatch.setattr(secrets, "randbelow", lambda n: 0)
    monkeypatch.setattr(fair, "deal_seed", lambda secret, table, k: DEAL_SEED(secret, "test", k))
    yield queue


def config(tmp_path: Path, **changes: Any) -> Any:
    base = {
        "daily_grant": GRANT,
        "quick_deals": 1,
        "quick_fill_seconds": 60.0,
        "decision_seconds": 600.0,
    }
    return fast_config(tmp_path, **(base | changes))


async def accounts(srv: ServerThread, n: int, prefix: str) -> list[Client]:
    out = []
    for i in range(n):
        c = Client(srv.url, name=f"{prefix}{i}")
        await c.connect()
        await c.register(f"{prefix.lower()}{i}", "uzun-bir-parola")
        w = await c.wallet()
        assert w["balance"] == GRANT and w["granted"] == GRANT
        out.append(c)
    return out


async def balances(clients: list[Client]) -> list[int]:
    return [int((await c.wallet())["balance"]) for c in clients]


def ledger_exact(srv: ServerThread) -> None:
    assert srv.call(srv.hub.chips.check) == []


async def play_out(clients: list[Client], table: str) -> list[dict[str, Any]]:
    await asyncio.gather(*(c.play(table, first_legal, timeout=120) for c in clients))
    for c in clients:
        await c.until(lambda c=c: c.tables[table].payout is not None, 30)
    return [c.tables[table].payout for c in clients]  # type: ignore[misc]


async def room(clients: list[Client], **options: Any) -> str:
    _, st = await clients[0].create(bots=False, **options)
    for c in clients[1:]:
        await c.join(code=st.info["code"])
    await clients[0].start(st.id)
    return st.id


def test_sultan_pot_less_the_fee_and_vip(
    tmp_path: Path, seeded: list[int], database: str | None
) -> None:
    rules = Rules.preset("sultan-ihaleli").replace(deals=1, target_score=None)
    seed, m = find_seed(rules, lambda m: len(m.winners) == 1)
    (winner,) = m.winners
    with ServerThread(config(tmp_path, database=database)) as srv:

        async def main() -> None:
            clients = await accounts(srv, 4, "S")
            ids = [c.player["id"] for c in clients]
            seeded.append(seed)
            t = await room(clients, preset="sultan-ihaleli", deals=1, stake=1000)
            st = clients[0].tables[t]
            assert st.info["chips"]["stake"] == 1000 and st.info["chips"]["pot"] == 4000
            assert await balances(clients) == [GRANT - 1000] * 4  # the buy-in at the start
            pay = (await play_out(clients, t))[0]
            assert pay["pot"] == 4000 and pay["fee"] == 200  # 5% of the pot
            assert pay["payouts"] == [3800 if s == winner else 0 for s in range(4)]
            assert await balances(clients) == [
                GRANT - 1000 + (3800 if s == winner else 0) for s in range(4)
            ]
            ledger_exact(srv)
            # the same cards again with the winner marked VIP by the operator: a 3% fee
            srv.call(lambda: srv.hub.chips.set_vip(ids[winner], True))
            seeded.append(seed)
            t2 = await room(clients, preset="sultan-ihaleli", deals=1, stake=1000)
            pay = (await play_out(clients, t2))[0]
            assert pay["fee"] == 120 and pay["payouts"][winner] == 3880
            ledger_exact(srv)

        asyncio.run(main())


def test_tie_shares_the_pot(tmp_path: Path, seeded: list[int]) -> None:
    rules = Rules.preset("sultan-ihaleli").replace(deals=1, target_score=None)
    assert rules.tie == "shared"
    seed, m = find_seed(rules, lambda m: len(m.winners) == 2)
    with ServerThread(config(tmp_path)) as srv:

        async def main() -> None:
            clients = await accounts(srv, 4, "T")
            seeded.append(seed)
            t = await room(clients, preset="sultan-ihaleli", deals=1, stake=100)
            pay = (await play_out(clients, t))[0]
            # 400 in; two winners: 200 each, less 5% (10) each
            assert pay["payouts"] == [190 if s in m.winners else 0 for s in range(4)]
            assert pay["fee"] == 20
            assert await balances(clients) == [
                GRANT - 100 + (190 if s in m.winners else 0) for s in range(4)
            ]
            ledger_exact(srv)

        asyncio.run(main())


def test_acik_three_quarters_and_the_kasa(
    tmp_path: Path, seeded: list[int], database: str | None
) -> None:
    rules = Rules.preset("esli-acik").replace(deals=1, target_score=None)
    dry, m1 = find_seed(rules, lambda m: kasa_team(m.sheet, rules.teams) is None)
    wet, m2 = find_seed(rules, lambda m: kasa_team(m.sheet, rules.teams) is not None)
    team = kasa_team(m2.sheet, rules.teams)
    assert team is not None
    with ServerThread(config(tmp_path, database=database)) as srv:

        async def main() -> None:
            clients = await accounts(srv, 4, "A")
            lobby = await clients[0].lobby()
            assert lobby["stakes"] == [100, 1000, 10000]
            assert lobby["kasa"]["acik:1000"] == 1000  # a new salon's kasa starts at 1,000

            async def quick(seed: int) -> str:
                seeded.append(seed)
                tables = []
                for c in clients:  # one after another: seat 0 sits first and deals first
                    tables.append((await c.quick("acik", stake=1000)).id)
                assert len(set(tables)) == 1
                t = tables[0]
                await clients[0].until(lambda: clients[0].tables[t].view is not None)
                return t

            t = await quick(dry)
            assert clients[0].tables[t].info["chips"]["kasa"] == 1000
            pay = (await play_out(clients, t))[0]
            # 4,000 in; the winning team gets 3/4, 1,500 each; the quarter goes to the kasa
            assert pay["payouts"] == [1500 if s in m1.winners else 0 for s in range(4)]
            assert pay["kasa_added"] == 1000 and pay["kasa_won"] == 0 and pay["fee"] == 0
            assert pay["kasa_after"] == 1000
            assert (await clients[0].lobby())["kasa"]["acik:1000"] == 2000  # grown by 1,000
            ledger_exact(srv)

            t = await quick(wet)
            assert clients[0].tables[t].info["chips"]["kasa"] == 2000
            pay = (await play_out(clients, t))[0]
            # the team that first took 11 tricks shares the kasa (1,000 kept + this match's)
            assert pay["kasa_team"] == team and pay["kasa_won"] == 2000
            assert pay["kasa_after"] == 0
            expect = [
                (1500 if s in m2.winners else 0) + (1000 if s in team else 0) for s in range(4)
            ]
            assert pay["payouts"] == expect
            assert (await clients[0].lobby())["kasa"]["acik:1000"] == 1000  # starts again
            assert await balances(clients) == [
                GRANT - 2000 + (1500 if s in m1.winners else 0) + expect[s] for s in range(4)
            ]
            ledger_exact(srv)

        asyncio.run(main())


def test_cover_account_and_bot_sink(tmp_path: Path) -> None:
    with ServerThread(config(tmp_path, quick_fill_seconds=0.2)) as srv:

        async def main() -> None:
            guest = Client(srv.url, name="Misafir")
            await guest.connect()
            with pytest.raises(ServerError) as e:
                await guest.quick("ihaleli", stake=100)
            assert e.value.code == "stake_account"
            (a,) = await accounts(srv, 1, "C")
            with pytest.raises(ServerError) as e:
                await a.quick("ihaleli", stake=10000)
            assert e.value.code == "stake_cover"
            # the numbers as English writes them (Turkish: 10.000)
            assert e.value.message == f"the stake is 10,000 chips and you have {GRANT:,}"
            with pytest.raises(ServerError) as e:
                await a.quick("ihaleli", stake=555)
            assert e.value.code == "bad_stake"
            # one person and three house bots: the bots put nothing in, and what they win
            # leaves the game
            st = await a.quick("ihaleli", stake=100)
            await a.until(lambda: a.tables[st.id].view is not None, 30)
            await a.play(st.id, timeout=120)
            await a.until(lambda: a.tables[st.id].payout is not None, 30)
            pay = a.tables[st.id].payout
            assert pay is not None and pay["pot"] == 100
            seat = a.tables[st.id].seat
            assert seat is not None
            won = seat in a.tables[st.id].view["match"]["winners"]  # type: ignore[index]
            paid = pay["payouts"][seat]
            assert paid + pay["fee"] + pay["bots"] == 100
            if won:
                assert paid > 0
            else:
                assert paid == 0 and pay["bots"] > 0
            assert (await a.wallet())["balance"] == GRANT - 100 + paid
            ledger_exact(srv)

        asyncio.run(main())


def test_a_house_bot_puts_nothing_in_and_takes_nothing_out() -> None:
    """The winning side's people share the pot; a house bot partner takes no share (it put
    nothing in), and only a side of house bots alone wins for the bots."""
    # eşli, a person (seat 0) and a house bot partner (seat 2) against two house bots
    me = {0: "a"}
    won = settlement(Plan("t", "sultan", 1000, me, [0, 2]), 1000, {}, 0)
    assert won.summary["payouts"] == {0: 950} and won.summary["fees"] == {0: 50}
    assert won.summary["bots"] == 0 and won.summary["winners"] == [0]
    assert sorted(won.legs) == [("fee", 50), ("p:a", 950), ("pot:t", -1000)]
    lost = settlement(Plan("t", "sultan", 1000, me, [1, 3]), 1000, {}, 0)
    assert lost.summary["payouts"] == {} and lost.summary["bots"] == 1000
    # two people against two people with... a house bot partner each: the winner takes all
    two = {0: "a", 1: "b"}
    won = settlement(Plan("t", "sultan", 1000, two, [0, 2]), 2000, {}, 0)
    assert won.summary["payouts"] == {0: 1900} and won.summary["fees"] == {0: 100}
    # açık eşli: 3/4 of the people's stakes to the winning side's people, the quarter to the
    # kasa; the kasa goes to the people of the team that took 11 tricks
    kasa = "kasa:acik:100"
    p = Plan("t", "acik", 100, me, [0, 2], kasa=kasa, kasa_team=[0, 2])
    o = settlement(p, 100, {}, 1000)
    assert o.summary["payouts"] == {0: 75 + 1025} and o.summary["kasa_won"] == 1025
    assert o.summary["kasa_team"] == [0] and o.summary["bots"] == 0
    assert sum(a for _, a in o.legs) == 0
    # a team of house bots alone takes nothing out of the kasa: it stays in the salon
    p = Plan("t", "acik", 100, me, [1, 3], kasa=kasa, kasa_team=[1, 3])
    o = settlement(p, 100, {}, 1000)
    assert o.summary["kasa_won"] == 0 and o.summary["kasa_team"] is None
    assert o.summary["bots"] == 75 and dict(o.legs)[kasa] == 25


def test_esli_with_a_house_bot_partner_over_sockets(tmp_path: Path) -> None:
    """A person and a house bot partner against two house bots, staked: a win gives the person
    the pot (only their own stake) less the fee, never half of it to the bots; a loss gives the
    pot to the bots. The words of batak online say which."""
    from batak.cli.online import payout_words

    with ServerThread(config(tmp_path, quick_fill_seconds=0.2)) as srv:

        async def main() -> None:
            (a,) = await accounts(srv, 1, "E")
            st = await a.quick("esli", stake=1000)
            await a.until(lambda: a.tables[st.id].view is not None, 30)
            await a.play(st.id, timeout=120)
            await a.until(lambda: a.tables[st.id].payout is not None, 30)
            pay = a.tables[st.id].payout
            seat = a.tables[st.id].seat
            assert pay is not None and seat is not None and pay["pot"] == 1000
            won = seat in a.tables[st.id].view["match"]["winners"]  # type: ignore[index]
            if won:
                assert pay["payouts"][seat] == 950 and pay["fees"][seat] == 50
                assert pay["bots"] == 0 and pay["winners"] == [seat]
                assert payout_words(pay, seat, "en") == (
                    "The house bots put nothing in, so the pot held only what the winners put"
                    " in: you get back 950 of your 1,000 chips (\u221250; table fee 50)."
                )
            else:
                assert pay["payouts"][seat] == 0 and pay["bots"] == 1000
            assert (await a.wallet())["balance"] == GRANT - 1000 + (950 if won else 0)
            ledger_exact(srv)

        asyncio.run(main())


def test_leaving_a_staked_match_is_played_for_to_the_end(tmp_path: Path) -> None:
    """Leaving never beats losing: a bot plays the seat to the end and the seat is paid as
    played (there are no refunds), and a room that never starts takes nothing."""
    with ServerThread(config(tmp_path, quick_fill_seconds=0.2)) as srv:

        async def main() -> None:
            clients = await accounts(srv, 4, "R")
            # a room that never starts takes nothing
            _, waiting = await clients[0].create(bots=False, preset="standard", stake=1000)
            await clients[1].join(code=waiting.info["code"])
            await clients[1].leave(waiting.id)
            assert await balances(clients) == [GRANT] * 4
            t = await room(clients, preset="standard", deals=1, stake=1000)
            assert await balances(clients) == [GRANT - 1000] * 4
            with pytest.raises(ServerError) as e:
                await clients[0].adjourn(t)
            assert e.value.code == "stake_adjourn"
            for c in clients:  # everybody leaves; bots finish the match for them
                await c.leave(t)
            for _ in range(600):
                if srv.hub.tables.get(t) is None or srv.hub.tables[t].payout is not None:
                    break
                await asyncio.sleep(0.1)
            pay = srv.hub.tables[t].payout
            assert pay is not None and pay["refund"] is False
            # paid as played: the winner's seat gets the pot less the fee
            assert sum(pay["payouts"]) + pay["fee"] == 4000 and pay["fee"] > 0
            assert sum(await balances(clients)) == 4 * GRANT - pay["fee"]
            ledger_exact(srv)
            # alone with three house bots: leaving after a few moves gives nothing back
            a = clients[0]
            before = (await a.wallet())["balance"]
            st = await a.quick("ihaleli", stake=100)
            await a.until(lambda: a.tables[st.id].view is not None, 30)
            assert (await a.wallet())["balance"] == before - 100
            await a.leave(st.id)
            table = srv.hub.tables[st.id]
            for _ in range(1200):
                if table.payout is not None:
                    break
                await asyncio.sleep(0.1)
            pay = table.payout
            assert pay is not None and pay["refund"] is False and pay["pot"] == 100
            seat = next(i for i, p in table.payers().items() if p == a.player["id"])
            assert (await a.wallet())["balance"] == before - 100 + pay["payouts"][seat]
            assert pay["payouts"][seat] <= 95  # at best the stake less the fee: never a gain
            ledger_exact(srv)

        asyncio.run(main())


def test_no_staked_rematch_for_a_person_who_cannot_cover_the_stake(tmp_path: Path) -> None:
    """Alone with house bots at 1,000 with 1,000 chips: whatever happens, at most 950 are left,
    so the rematch is refused (with the numbers) and no table is made."""
    with ServerThread(config(tmp_path, daily_grant=1000)) as srv:

        async def main() -> None:
            c = Client(srv.url, name="Z0")
            await c.connect()
            await c.register("z0", "uzun-bir-parola")
            assert (await c.wallet())["balance"] == 1000
            _, st = await c.create(preset="standard", deals=1, stake=1000)
            await c.start(st.id)
            t = st.id
            await c.until(lambda: c.tables[t].view is not None, 30)
            await c.play(t, first_legal, timeout=120)
            await c.until(lambda: c.tables[t].payout is not None, 30)
            have = (await c.wallet())["balance"]
            assert have <= 950
            with pytest.raises(ServerError) as e:
                await c.rematch(t)
            assert e.value.code == "stake_cover"
            assert e.value.data["stake"] == 1000 and e.value.data["balance"] == have
            table = srv.hub.tables[t]
            assert table.rematch_table is None and not table.rematch_yes
            assert sum(1 for x in srv.hub.tables.values() if x.kind == "private") == 1
            ledger_exact(srv)

        asyncio.run(main())


def test_daily_grant_once_a_day_and_chip_leaderboard(tmp_path: Path) -> None:
    with ServerThread(config(tmp_path)) as srv:

        async def main() -> None:
            a, b = await accounts(srv, 2, "G")
            again = await a.wallet()
            assert again["granted"] == 0 and again["balance"] == GRANT
            board = (await b.chip_leaderboard())["players"]
            assert [r["account"] for r in board] == ["g0", "g1"]
            assert all(r["balance"] == GRANT for r in board)
            ledger_exact(srv)

        asyncio.run(main())


def test_chip_dumping_report_ledger_check_and_vip_by_the_operator(
    tmp_path: Path, seeded: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    from batak.cli import main as batak

    rules = Rules.preset("sultan-ihaleli").replace(deals=1, target_score=None)
    seed, m = find_seed(rules, lambda m: len(m.winners) == 1)
    (w,) = m.winners
    with ServerThread(config(tmp_path)) as srv:

        async def main() -> None:
            clients = await accounts(srv, 4, "D")
            # the same four meet three times; 'd1' always sits where the cards win
            order = [c for c in clients if c.player["name"] != "D1"]
            order.insert(w, clients[1])
            for _ in range(3):
                seeded.append(seed)
                _, st = await order[0].create(
                    bots=False, preset="sultan-ihaleli", deals=1, stake=1000
                )
                for seat, c in enumerate(order[1:], start=1):
                    await c.join(code=st.info["code"], seat=seat)
                await order[0].start(st.id)
                await play_out(order, st.id)
            assert await balances(clients) == [2000, 5000 - 3000 + 3 * 3800, 2000, 2000]

        asyncio.run(main())
        data = ["admin", "--data", str(tmp_path), "--lang", "en"]
        capsys.readouterr()
        assert batak([*data, "chip-report"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 3 and all("→ d1: 3000 chips over 3 rooms" in x for x in lines)
        assert batak([*data, "ledger-check"]) == 0
        assert "The chip ledger is exact" in capsys.readouterr().out
        assert batak([*data, "--lang", "tr", "chip-report", "--min-matches", "4"]) == 0
        assert "Bahisli özel odalarda 4" in capsys.readouterr().out
        assert batak([*data, "vip", "d1", "on"]) == 0
        assert srv.call(lambda: srv.hub.chips.wallet(clients_id(srv, "d1"), grant=False))["vip"]
        # an erased account has no name left: it was an empty name (" → d1: …")
        assert batak([*data, "erase", "d0", "--yes"]) == 0
        capsys.readouterr()
        assert batak([*data, "chip-report"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 3 and sum(x.startswith("Removed player (") for x in lines) == 1
        assert all("→ d1: 3000 chips over 3 rooms together" in x for x in lines), lines


def clients_id(srv: ServerThread, username: str) -> str:
    row = srv.call(lambda: srv.hub.storage.player_by("username", username))
    return str(row.id)


def test_a_rematch_short_of_chips_is_said_as_short_at_every_telling(tmp_path: Path) -> None:
    """The poorer person says yes, then spends the stake at another table; the last yes finds
    them short: no table, and that seat is ``declined`` and ``short``. A later yes is answered
    with the same seat declined, still ``short`` (it read as a plain no to the others), and a
    ``sync`` of the table says so too."""
    with ServerThread(config(tmp_path, daily_grant=2500)) as srv:

        async def main() -> None:
            a, b = Client(srv.url, name="A"), Client(srv.url, name="B")
            for c, name in ((a, "ra1"), (b, "rb1")):
                await c.connect()
                await c.register(name, "uzun-bir-parola")
                assert (await c.wallet())["balance"] == 2500  # (the day's gift)
            _, st = await a.create(preset="standard", deals=1, stake=1000)
            await b.join(code=st.info["code"])
            await a.start(st.id)
            t = st.id
            await asyncio.gather(
                a.play(t, first_legal, timeout=120), b.play(t, first_legal, timeout=120)
            )
            await a.until(lambda: a.tables[t].payout is not None, 30)
            have = {c: (await c.wallet())["balance"] for c in (a, b)}
            rich, poor = (a, b) if have[a] >= have[b] else (b, a)
            assert 1000 <= have[poor] < 2000  # covers one stake, not two
            await poor.rematch(t)
            _, other = await poor.create(preset="standard", deals=1, stake=1000)
            await poor.start(other.id)  # the stake goes into that pot
            await poor.until(lambda: (poor.tables[other.id].info.get("status")) == "playing", 30)
            seat = poor.tables[t].seat
            await rich.rematch(t)
            await rich.until(lambda: (rich.tables[t].rematch or {}).get("declined") == seat, 10)
            assert rich.tables[t].rematch["short"] == seat  # type: ignore[index]
            assert srv.hub.tables[t].rematch_table is None
            rich.tables[t].rematch = None
            await rich.rematch(t)  # again: told at once that the short seat cannot
            await rich.until(lambda: rich.tables[t].rematch is not None, 10)
            told = rich.tables[t].rematch
            assert told["declined"] == seat and told["short"] == seat, told  # type: ignore[index]
            # a page that syncs the table again (a reload, the language changed) is told too:
            # it forgot why no rematch came and offered the button again
            poor.tables[t].rematch = None
            synced = await poor.join(t)
            said = synced.rematch
            assert said and said["declined"] == seat and said["short"] == seat, said
            ledger_exact(srv)

        asyncio.run(main())


def _break_log(srv: ServerThread, table: str) -> None:
    """Append to ``table``'s stored log an event the engine cannot replay (a move that is no
    move), as a log written by an older server or damaged on disk would be."""
    storage = srv.hub.storage
    q = storage.q

    def job(cur: Any) -> None:
        cur.execute(q("SELECT MAX(version) FROM events WHERE table_id = ?"), (table,))
        last = int(cur.fetchone()[0])
        cur.execute(
            q("INSERT INTO events (table_id, version, kind, data, at) VALUES (?, ?, ?, ?, ?)"),
            (table, last + 1, "move", '{"seat": 0, "move": "no such move"}', 0.0),
        )

    async def run() -> None:
        await storage.run(job)

    srv.call(run)


def _wallets(srv: ServerThread, ids: list[str]) -> list[int]:
    async def run() -> list[int]:
        return [await srv.hub.chips.balance(pid) for pid in ids]

    return list(srv.call(run))


def _ledger_rows(srv: ServerThread, txn: str) -> list[tuple[str, int, str]]:
    """The legs of the ledger's transaction ``txn``: account, amount, kind."""
    storage = srv.hub.storage
    sql = storage.q("SELECT account, amount, kind FROM ledger WHERE txn = ? ORDER BY leg")

    def job(cur: Any) -> list[tuple[str, int, str]]:
        cur.execute(sql, (txn,))
        return [(str(a), int(n), str(k)) for a, n, k in cur.fetchall()]

    async def run() -> list[tuple[str, int, str]]:
        return list(await storage.run(job))

    return list(srv.call(run))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_staked_table_that_cannot_be_rebuilt_gives_its_stakes_back_once(
    tmp_path: Path, backend: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A staked match whose stored log the engine cannot replay at a restart is left as it
    was, and its stakes stayed in its pot for ever. Each person now gets their stake back,
    in one ledger transaction that says why, said in the operator's log; a second restart
    gives nothing more, and the ledger stays exact."""
    import contextlib
    import logging

    from harness import postgres_database

    with contextlib.ExitStack() as stack:
        changes: dict[str, Any] = {}
        if backend == "postgresql":
            pg = postgres_database()
            if pg is None:
                pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
            changes["database"] = stack.enter_context(pg)
        cfg = config(tmp_path, **changes)
        with ServerThread(cfg) as srv:

            async def stake() -> tuple[str, list[str]]:
                people = await accounts(srv, 2, "Rf")
                _, st = await people[0].create(preset="standard", deals=1, stake=1000)
                await people[1].join(code=st.info["code"])
                await people[0].start(st.id)
                await people[0].until(lambda: people[0].tables[st.id].view is not None, 30)
                assert await balances(people) == [GRANT - 1000] * 2
                ids = [str(c.player["id"]) for c in people]
                for c in people:
                    await c.close()
                return st.id, ids

            table, ids = asyncio.run(stake())
            _break_log(srv, table)
        caplog.set_level(logging.WARNING, logger="batak.server")
        for restart in (1, 2):
            with ServerThread(replace(cfg, port=free_port())) as srv:
                assert table not in srv.hub.tables  # it could not be rebuilt

                assert _wallets(srv, ids) == [GRANT] * 2, restart
                ledger_exact(srv)
                rows = _ledger_rows(srv, f"refund:{table}")
                assert sorted(rows) == sorted(
                    [(f"pot:{table}", -2000, "refund_unrebuilt")]
                    + [(f"p:{pid}", 1000, "refund_unrebuilt") for pid in ids]
                ), rows
        said = [m for r in caplog.records if "stakes were given back" in (m := r.getMessage())]
        assert len(said) == 1 and table in said[0], said  # once: the second restart gave nothing
        assert all(f"{pid} 1000" in said[0] for pid in ids), said


@pytest.mark.parametrize("where", ["after_the_check", "in_the_start"])
def test_a_stake_spent_elsewhere_during_a_rematchs_making_leaves_no_table(
    tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The poorer person's stake goes into another room's pot at the moment the rematch is
    made: after the old table's check of the balances (``after_the_check``), or after the new
    table's own reading of them, before its start's transaction (``in_the_start``). The new
    table was left waiting with its seats, and the last yes was answered ``stake_short`` (or
    ``storage``); now no table is left and everyone is told the seat is short, as when the
    check itself finds it."""
    from batak.server.chips import Desk
    from batak.server.table import Table

    with ServerThread(config(tmp_path, daily_grant=2500)) as srv:

        async def main() -> None:
            a, b = Client(srv.url, name="A"), Client(srv.url, name="B")
            for c, name in ((a, "rc1"), (b, "rd1")):
                await c.connect()
                await c.register(name, "uzun-bir-parola")
                await c.wallet()
            _, st = await a.create(preset="standard", deals=1, stake=1000)
            await b.join(code=st.info["code"])
            await a.start(st.id)
            t = st.id
            await asyncio.gather(
                a.play(t, first_legal, timeout=120), b.play(t, first_legal, timeout=120)
            )
            await a.until(lambda: a.tables[t].payout is not None, 30)
            have = {c: (await c.wallet())["balance"] for c in (a, b)}
            rich, poor = (a, b) if have[a] >= have[b] else (b, a)
            assert 1000 <= have[poor] < 2000  # covers one stake, not two
            poor_id = str(poor.player["id"])
            await poor.rematch(t)
            _, other = await poor.create(preset="standard", deals=1, stake=1000)
            room = srv.hub.tables[other.id]

            async def spend() -> None:  # the other room starts: its stake goes into its pot
                await room.call(room._start)

            if where == "after_the_check":
                real_check = Table._rematch_short

                async def then_spent(self: Table) -> int | None:
                    short = await real_check(self)
                    if self.id == t and room.status == "waiting":
                        await spend()
                    return short

                monkeypatch.setattr(Table, "_rematch_short", then_spent)
            else:
                await poor.start(other.id)
                real_balance = Desk.balance

                async def as_read_before(self: Desk, pid: str) -> int:
                    if pid == poor_id:  # the balance as it was read, before that start
                        return int(have[poor])
                    return await real_balance(self, pid)

                monkeypatch.setattr(Desk, "balance", as_read_before)
            before = set(srv.hub.tables)
            seat = poor.tables[t].seat
            await rich.rematch(t)  # the last yes: no error for it
            await rich.until(lambda: (rich.tables[t].rematch or {}).get("declined") == seat, 10)
            assert rich.tables[t].rematch["short"] == seat  # type: ignore[index]
            await poor.until(lambda: (poor.tables[t].rematch or {}).get("short") == seat, 10)
            assert srv.hub.tables[t].rematch_table is None
            assert set(srv.hub.tables) <= before  # no new table left in memory
            monkeypatch.undo()
            assert room.status == "playing"
            assert (await poor.wallet())["balance"] == have[poor] - 1000  # that room's stake only
            assert (await rich.wallet())["balance"] == have[rich]
            storage = srv.hub.storage

            def waiting_ids(cur: Any) -> list[str]:
                cur.execute(storage.q("SELECT id FROM tables WHERE status = 'waiting'"))
                return [str(r[0]) for r in cur.fetchall()]

            async def waiting() -> list[str]:
                return list(await storage.run(waiting_ids))

            assert srv.call(waiting) == []  # nor in storage: it does not come back at a restart
            ledger_exact(srv)

        asyncio.run(main())


def test_a_stake_spent_between_the_reading_and_the_start_is_short_not_a_storage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host's start reads the balances, then takes the stakes in the start's transaction; a
    buy-in elsewhere landing in between made that transaction fail, answered ``storage`` (the
    server could not save) with the person still seated. It is the start's own ``stake_short``
    now: that person is stood up, nothing is taken."""
    from batak.server.chips import Desk

    with ServerThread(config(tmp_path, daily_grant=1000)) as srv:

        async def main() -> None:
            a, b = Client(srv.url, name="A"), Client(srv.url, name="B")
            for c, name in ((a, "sa1"), (b, "sb1")):
                await c.connect()
                await c.register(name, "uzun-bir-parola")
                await c.wallet()
            _, st = await a.create(preset="standard", deals=1, stake=1000)
            await b.join(code=st.info["code"])
            _, other = await b.create(preset="standard", deals=1, stake=1000)
            await b.start(other.id)  # all of b's chips go into that pot
            b_id = str(b.player["id"])
            real_balance = Desk.balance

            async def as_read_before(self: Desk, pid: str) -> int:
                return 1000 if pid == b_id else await real_balance(self, pid)

            monkeypatch.setattr(Desk, "balance", as_read_before)
            with pytest.raises(ServerError) as e:
                await a.start(st.id)
            assert e.value.code == "stake_short"
            await a.until(lambda: not a.tables[st.id].info["seats"][1]["name"], 10)
            monkeypatch.undo()
            assert a.tables[st.id].info["status"] == "waiting"
            assert await balances([a, b]) == [1000, 0]
            ledger_exact(srv)

        asyncio.run(main())
