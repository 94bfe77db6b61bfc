"""The story mode on the server: each player's progress along the five tables of
``batak.bots.story``, and a private table with that stage's characters.

A stage is open once the one before it was won (the first is always open); it is won when the
player finishes its four deals first (a shared first place counts). Progress is stored per
player (``story_progress``), so it follows an account to every device.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..bots.story import DEALS, PRESET, TABLES, character, character_text, table_text
from ..match import DealCards
from ..rules import Rules
from .conn import Conn
from .table import Table, TableError

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Story", "fresh_progress"]


def fresh_progress() -> dict[str, Any]:
    return {"cleared": 0, "stages": [{"plays": 0, "wins": 0, "best": None} for _ in TABLES]}


def story_view(progress: dict[str, Any], lang: str) -> dict[str, Any]:
    """The ``story`` message's body: every stage with its characters and the player's record."""
    cleared = int(progress["cleared"])
    stages = []
    for i, t in enumerate(TABLES):
        rec = progress["stages"][i]
        stages.append(
            {
                "stage": i,
                "key": t.key,
                "icon": t.icon,
                **table_text(t, lang),
                "characters": [character_text(character(k), lang) for k in t.seats],
                "open": i <= cleared,
                "won": i < cleared or rec["wins"] > 0,
                "plays": rec["plays"],
                "wins": rec["wins"],
                "best": rec["best"],
            }
        )
    return {"cleared": cleared, "deals": DEALS, "preset": PRESET, "stages": stages}


class Story:
    """Story tables and progress for one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()
        #: A test hook, not reachable by any client: called with the stage, it returns the cards
        #: to deal at a new story table (the engine's scripted deals), or None for a shuffle.
        self.deal_hook: Callable[[int], Sequence[DealCards] | None] | None = None

    def handlers(self) -> dict[str, Callable[[Conn, dict[str, Any]], Awaitable[None]]]:
        return {"story": self.on_story, "story_play": self.on_play}

    async def progress(self, player_id: str) -> dict[str, Any]:
        return await self.hub.storage.story_progress(player_id) or fresh_progress()

    async def on_story(self, conn: Conn, msg: dict[str, Any]) -> None:
        assert conn.player is not None
        out = {"type": "story", **story_view(await self.progress(conn.player.id), conn.lang)}
        if msg.get("ref") is not None:
            out["ref"] = msg["ref"]
        conn.send(out)

    async def on_play(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = conn.player
        assert player is not None
        stage = msg["stage"]
        progress = await self.progress(player.id)
        if not 0 <= stage < len(TABLES):
            raise TableError("story_stage", params={"last": len(TABLES) - 1})
        if stage > progress["cleared"]:
            raise TableError("story_locked")
        self.hub._room_allowed(conn)
        rules = Rules.preset(PRESET).replace(deals=DEALS, target_score=None)
        table = await self.hub.new_table(
            kind="private",
            mode=None,
            rules=rules,
            options={"bots": True, "show_bots": True, "story": stage},
            host=player.id,
        )
        table.address = conn.address
        if self.deal_hook is not None:
            table.scripted_deals = list(self.deal_hook(stage) or [])
        created = {"type": "created", "table": table.id, "code": table.code, "story": stage}
        if msg.get("ref") is not None:
            created["ref"] = msg["ref"]
        conn.send(created)
        await table.call(functools.partial(self._seat, table, stage))
        await self.hub._join(conn, table, 0, False, None, msg.get("ref"))
        await table.call(table._start)
        progress["stages"][stage]["plays"] += 1
        await self.hub.storage.save_story_progress(player.id, progress)

    async def _seat(self, table: Table, stage: int) -> None:
        """Inside the table's actor: the stage's characters sit at seats 1 to 3."""
        for seat, key in zip((1, 2, 3), TABLES[stage].seats, strict=True):
            c = character(key)
            await table.emit(
                "sit",
                {"seat": seat, "player": None, "name": c.name, "bot": f"story:{c.key}"},
            )

    def table_over(self, table: Table) -> None:
        stage = table.options.get("story")
        pid = table.host
        if not isinstance(stage, int) or pid is None or table.match is None:
            return
        seat = table.seat_of(pid)
        if seat is None:
            return
        # a win counts only if the player made their own decisions (a bot that played for
        # them while they were away does not win them the table; a late move that timed out
        # does not matter)
        bot_played = table.bot_moves[seat] > 0
        won = seat in table.match.winners and not bot_played
        score = table.match.totals[seat]
        task = asyncio.get_running_loop().create_task(
            self._record(pid, stage, won, score, bot_played, table.id)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record(
        self,
        pid: str,
        stage: int,
        won: bool,
        score: int,
        bot_played: bool = False,
        table: str | None = None,
    ) -> None:
        progress = await self.progress(pid)
        rec = progress["stages"][stage]
        if won:
            rec["wins"] += 1
            progress["cleared"] = max(progress["cleared"], min(stage + 1, len(TABLES)))
        if rec["best"] is None or score > rec["best"]:
            rec["best"] = score
        progress["updated"] = time.time()
        await self.hub.storage.save_story_progress(pid, progress)
        for c in list(self.hub.online.get(pid, ())):
            out = {
                "type": "story",
                **story_view(progress, c.lang),
                # bot_played: a bot made some of the player's moves (why a first place
                # may not count), so that the player can be told; table: which table it was
                "result": {
                    "stage": stage,
                    "won": won,
                    "score": score,
                    "bot_played": bot_played,
                    "table": table,
                },
            }
            c.send(out)
