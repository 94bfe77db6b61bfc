"""The ``hint`` request: the seat whose decision it is gets a legal move, one sentence in its
language and, in the auction, the trick estimate per koz choice; others are refused; rate limit."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import ServerThread, fast_config, room

from batak.server.client import Client, ServerError


def test_hint_for_the_seat_to_move_in_its_language(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            clients, t = await room(srv, preset="standard", deals=1, langs=["en", "tr", "en", "tr"])
            by_seat = {c.tables[t].seat: c for c in clients}
            table = srv.hub.tables[t]
            first = clients[0].tables[t].view["to_move"]  # type: ignore[index]
            mover = by_seat[first]
            v_before = table.version
            h = await mover.hint(t)
            assert set(h) == {"type", "table", "v", "move", "reason", "estimate", "ref"}
            assert h["table"] == t and h["v"] == v_before
            view = mover.tables[t].view
            assert view is not None and view["phase"] == "bidding"
            assert h["move"] in view["legal_moves"]
            assert isinstance(h["reason"], str) and h["reason"].endswith(".")
            assert set(h["estimate"]) == {"S", "H", "D", "C"}
            assert all(isinstance(x, float) for x in h["estimate"].values())
            # the same decision asked again: the same answer (deterministic)
            again = await mover.hint(t)
            assert (again["move"], again["reason"]) == (h["move"], h["reason"])
            assert table.version == v_before  # a hint changes nothing
            # not your turn, not seated
            other = by_seat[(first + 1) % 4]
            with pytest.raises(ServerError) as e:
                await other.hint(t)
            assert e.value.code == "not_your_turn"
            watcher = Client(srv.url, name="W")
            await watcher.connect()
            await watcher.join(code=srv.hub.tables[t].code, spectate=True)
            with pytest.raises(ServerError) as e:
                await watcher.hint(t)
            assert e.value.code == "not_seated"
            # the third hint of the burst is fine, the fourth is refused
            await mover.hint(t)
            with pytest.raises(ServerError) as e:
                await mover.hint(t)
            assert e.value.code == "hint_rate"
            # play the auction out with hints until the card play; the text follows the language
            seen_tr = seen_play = False
            for _ in range(80):
                view = clients[0].tables[t].view
                assert view is not None
                if view["phase"] == "over" or table.match.over:  # type: ignore[union-attr]
                    break
                seat = table.match.to_move  # type: ignore[union-attr]
                c = by_seat[seat]
                await c.until(lambda c=c: c.tables[t].v >= table.version)
                c_view = c.tables[t].view
                assert c_view is not None
                for b in table._hint_buckets.values():
                    b.level = b.burst  # the test does not wait for the bucket
                h = await c.hint(t)
                assert h["move"] in c_view["legal_moves"]
                if c_view["phase"] in ("bidding", "trump"):
                    assert h["estimate"] is not None
                else:
                    assert h["estimate"] is None
                    seen_play = True
                if c.lang == "tr":
                    seen_tr = True
                    assert h["reason"] != (await _en_reason(srv, t, c))
                await c.move(t, h["move"])
                if seen_play and seen_tr and len(table.match.game.history) > 12:  # type: ignore[union-attr]
                    break
            assert seen_play and seen_tr
            for c in [*clients, watcher]:
                await c.close()

        asyncio.run(main())


async def _en_reason(srv: ServerThread, t: str, c: Client) -> str:
    from batak.bots.teach import hint

    view = c.tables[t].view
    assert view is not None
    return hint(view, lang="en").reason


def test_hint_in_koz_maca_bidding_has_the_spade_estimate(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            clients, t = await room(srv, preset="sultan-kozmaca", deals=1)
            first = clients[0].tables[t].view["to_move"]  # type: ignore[index]
            mover = {c.tables[t].seat: c for c in clients}[first]
            h = await mover.hint(t)
            assert list(h["estimate"]) == ["S"]
            assert h["move"] in mover.tables[t].view["legal_moves"]  # type: ignore[index]
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_hint_before_the_start_is_refused(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            c = Client(srv.url, name="A")
            await c.connect()
            _, table = await c.create(preset="standard", bots=False)
            with pytest.raises(ServerError) as e:
                await c.hint(table.id)
            assert e.value.code == "not_started"
            with pytest.raises(ServerError) as e:
                await c.hint("nope")
            assert e.value.code == "no_table"
            await c.close()

        asyncio.run(main())
