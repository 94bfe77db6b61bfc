"""The table's pace (issue 10 item 2): a finished trick stays in view and the next decision's
clock starts that much later; bots think a varying, human-like time; the pauses are table
options. Measured on the server's own stored timestamps and clocks, with lower bounds only (a
busy machine makes gaps longer, never shorter)."""

from __future__ import annotations

import asyncio
import itertools
import statistics
from pathlib import Path

import pytest
from harness import ServerThread, fast_config, room

from batak.server.client import Client, ServerError
from batak.server.clock import ManualClock
from batak.server.storage import EventRow


def test_after_a_trick_the_next_decision_gets_the_trick_pause_on_top_of_its_time(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    config = fast_config(tmp_path, decision_seconds=25.0)
    with ServerThread(config, clock=clock) as srv:

        async def main() -> None:
            # the room's own pause (an option of the table, in milliseconds)
            clients, table = await room(srv, deals=1, trick_pause_ms=1500)
            assert clients[0].tables[table].info["pace"]["trick_pause"] == 1.5
            by_seat = {c.tables[table].seat: c for c in clients}
            watcher = clients[0]
            lefts: list[tuple[int, int, float]] = []  # (tricks done, cards in trick, clock left)
            while True:
                st = watcher.tables[table]
                view = st.view
                assert view is not None and st.clock is not None
                done = len(view["tricks"])
                if view["phase"] == "play":
                    cur = view["current_trick"]
                    lefts.append((done, len(cur["cards"]) if cur else 0, st.clock["left"]))
                if done == 2:
                    break
                mover = by_seat[view["to_move"]]
                seen = st.v
                await mover.until(lambda m=mover, seen=seen: m.tables[table].v >= seen)
                await mover.move(table, mover.tables[table].view["legal_moves"][0])  # type: ignore[index]
                await watcher.until(lambda seen=seen: watcher.tables[table].v > seen)
            # time stood still: a card within a trick gives the next seat 25 s, and the lead
            # after a finished trick 25 s + 1.5 s (the first lead of the deal: no trick seen)
            within = [left for done, cards, left in lefts if cards > 0]
            after = [left for done, cards, left in lefts if cards == 0 and done > 0]
            assert within and set(within) == {25.0}, lefts
            assert after and set(after) == {26.5}, lefts
            for c in clients:
                await c.close()

        asyncio.run(main())


def test_a_trick_pause_out_of_range_is_refused(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> None:
            async with Client(srv.url, name="P") as c:
                with pytest.raises(ServerError) as refused:
                    await c.create(trick_pause_ms=60000)
                assert refused.value.code == "bad_rules"
                assert "trick_pause_ms" in str(refused.value)

        asyncio.run(main())


def test_bots_think_a_varying_time_and_wait_for_a_finished_trick(tmp_path: Path) -> None:
    """One person and three bots, pacing on: every bot move comes at least the shortest
    thinking time after the event before it, and a bot's lead after a finished trick at least
    the trick pause more; the stored timestamps are the server's own."""
    delay, low, high, trick = 0.1, 0.6, 1.5, 0.3
    config = fast_config(
        tmp_path, bot_delay=delay, bot_spread=(low, high), trick_pause=trick, deal_pause=0.0
    )
    with ServerThread(config) as srv:

        async def main() -> None:
            async with Client(srv.url, name="P") as me:
                _, st = await me.create(deals=1, bots=True)
                await me.start(st.id)
                await me.until(lambda: me.tables[st.id].view is not None)
                while me.tables[st.id].info["status"] != "over":
                    view = me.tables[st.id].view
                    assert view is not None
                    if view["to_move"] == st.seat and view["legal_moves"]:
                        await me.move(st.id, view["legal_moves"][0])
                    await me.next_change(timeout=30)
                table_id = st.id

            events: list[EventRow] = await asyncio.to_thread(
                srv.call, lambda: srv.hub.storage.events(table_id)
            )
            moves = [e for e in events if e.kind in ("start", "move")]
            gaps_bot, gaps_lead = [], []
            cards = 0  # cards played so far: every fourth finishes a trick
            for before, e in itertools.pairwise(moves):
                lead_after_trick = False
                card = before.kind == "move" and " " not in before.data["move"]
                if card and before.data["move"] != "pass":
                    cards += 1
                    lead_after_trick = cards % 4 == 0
                if e.kind != "move" or e.data["by"] != "bot":
                    continue
                gap = e.at - before.at
                (gaps_lead if lead_after_trick else gaps_bot).append(gap)
            assert len(gaps_bot) > 20 and gaps_lead, (gaps_bot, gaps_lead)
            slack = 0.01  # the stored time is taken a little after the wait ends
            assert min(gaps_bot) >= delay * low - slack, sorted(gaps_bot)[:5]
            assert min(gaps_lead) >= delay * low + trick - slack, sorted(gaps_lead)[:5]
            # not a metronome: the thinking times spread over the range
            assert statistics.pstdev(gaps_bot) > 0.01, gaps_bot

        asyncio.run(main())


def test_a_bots_thinking_time_is_drawn_from_its_range(tmp_path: Path) -> None:
    config = fast_config(tmp_path, bot_delay=1.0, bot_spread=(0.6, 1.5))
    with ServerThread(config) as srv:

        async def main() -> None:
            async with Client(srv.url, name="P") as me:
                _, st = await me.create(deals=1)
                table = srv.hub.tables[st.id]
                draws = [table.bot_think() for _ in range(500)]
                assert 0.6 <= min(draws) < 0.7 and 1.4 < max(draws) <= 1.5, (min(draws), max(draws))

        asyncio.run(main())
