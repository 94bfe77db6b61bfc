"""The story mode on the server: each player's progress along the five tables of
``batak.bots.story``, and a private table with that stage's characters.

A stage is open once the one before it was won (the first is always open); it is won when the
player finishes its four deals first (a shared first place counts). Progress is stored per
player (``story_progress``), so it follows an account to every device.

A stage has at most one table not yet over (its id is kept in the stage's ``table``): sitting
at the stage again takes the player back to it (an adjourned one is resumed), so a bad hand is
not dodged by sitting again. Starting over (``again``) closes that table for good, and it
stays counted as played and not won: the same as playing it out and losing. Whoever is still at
the closed table (the player's other tab or device) is told so at once (``closed``).
"""

from __future__ import annotations

import asyncio
import functools
import time
import weakref
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


#: The statuses of a table not yet over: a stage's table in one of them is taken up again.
UNFINISHED = ("waiting", "playing", "adjourned")


def story_view(progress: dict[str, Any], lang: str, decision: float = 25.0) -> dict[str, Any]:
    """The ``story`` message's body: every stage with its characters and the player's record
    (``decision``: the server's seconds per decision, for the stages that keep it)."""
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
                "decision_seconds": t.decision_seconds or decision,
                # the player's table there not yet over (to continue), or None
                "table": rec.get("table"),
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
        #: one request at a time per player (a double click deals one table; a result being
        #: recorded and a new table do not overwrite each other's progress)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def handlers(self) -> dict[str, Callable[[Conn, dict[str, Any]], Awaitable[None]]]:
        return {"story": self.on_story, "story_play": self.on_play}

    async def progress(self, player_id: str) -> dict[str, Any]:
        return await self.hub.storage.story_progress(player_id) or fresh_progress()

    def _lock(self, player_id: str) -> asyncio.Lock:
        lock = self._locks.get(player_id)
        if lock is None:
            lock = self._locks[player_id] = asyncio.Lock()
        return lock

    def view(self, progress: dict[str, Any], lang: str) -> dict[str, Any]:
        return story_view(progress, lang, self.hub.config.decision_seconds)

    async def on_story(self, conn: Conn, msg: dict[str, Any]) -> None:
        assert conn.player is not None
        pid = conn.player.id
        async with self._lock(pid):
            progress = await self.progress(pid)
            # a stage's table that ended without its result (closed, lost) is not offered
            stale = False
            for rec in progress["stages"]:
                if rec.get("table") and await self._status(rec["table"]) not in UNFINISHED:
                    rec["table"] = None
                    stale = True
            if stale:
                await self.hub.storage.save_story_progress(pid, progress)
        out = {"type": "story", **self.view(progress, conn.lang)}
        if msg.get("ref") is not None:
            out["ref"] = msg["ref"]
        conn.send(out)

    async def _status(self, table_id: str) -> str | None:
        table = self.hub.tables.get(table_id)
        if table is not None and not table.gone:
            return table.status
        return await self.hub.storage.table_status(table_id)

    async def on_play(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = conn.player
        assert player is not None
        stage = msg["stage"]
        if not 0 <= stage < len(TABLES):
            raise TableError("story_stage", params={"last": len(TABLES) - 1})
        async with self._lock(player.id):
            progress = await self.progress(player.id)
            if stage > progress["cleared"]:
                raise TableError("story_locked")
            rec = progress["stages"][stage]
            closed: Table | None = None
            if rec.get("table"):
                taken = await self._take_up(conn, rec["table"], stage, bool(msg.get("again")), msg)
                if taken is True:
                    return
                closed = taken if isinstance(taken, Table) else None
                rec["table"] = None  # over, or closed now: a new table is dealt
            dealt: str | None = None
            try:
                dealt = await self._deal(conn, stage, progress, msg)
            finally:
                if closed is not None:
                    self._tell_closed(closed, stage, dealt)

    async def _take_up(
        self, conn: Conn, table_id: str, stage: int, again: bool, msg: dict[str, Any]
    ) -> Table | bool:
        """The player's table at ``stage`` not yet over: True once the player is back at it
        (an adjourned one resumed), False if it is over or gone; the table itself if it was
        closed now (``again``), so that whoever is still at it can be told."""
        if await self._status(table_id) not in UNFINISHED:
            return False
        table = self.hub.tables.get(table_id)
        created = {"type": "created", "table": table_id, "story": stage, "resumed": True}
        if msg.get("ref") is not None:
            created["ref"] = msg["ref"]
        if table is None and self.hub.cluster is not None:
            # nobody alive holds it (an adjourned table put away, a process gone): it is taken
            # here, then resumed or closed as anywhere
            if await self.hub.cluster.claim(table_id):
                table = self.hub.tables.get(table_id)
            if table is None:  # another process of the cluster plays it just now
                if again:  # it cannot be closed from here: said, not silently continued
                    raise TableError("story_elsewhere")
                conn.send(created)  # the client's join goes there
                return True
        try:
            table = table or await self.hub._table(table_id, conn)
        except TableError:
            return False
        if again:
            if await table.call(functools.partial(self._close, table)):
                await self.hub._drop(table)
                return table
            return False
        created["code"] = table.code
        conn.send(created)
        await self.hub._join(conn, table, None, False, None, msg.get("ref"), by_code=False)
        if table.status in ("adjourned", "waiting"):
            await table.call(functools.partial(table.start_by_host, conn))
        return True

    async def _close(self, table: Table) -> bool:
        """Inside the table's actor: close a story table not over for good (its player starts
        the stage over). True if it was closed here."""
        if table.status not in UNFINISHED or table.gone:
            return False
        await self.hub.storage.set_status(table.id, "closed")
        table.status = "closed"
        return True

    @staticmethod
    def _tell_closed(table: Table, stage: int, new: str | None) -> None:
        """A story table its player started over (closed, and out of the hub already): every
        connection still at it (the player's other tab or device, a spectator) is told why and
        where the stage goes on (``table_new``: the table dealt in its place, or None if none
        could be). (Hub._drop took the table out of their lists already.)"""
        table.notice(
            {
                "type": "closed",
                "table": table.id,
                "reason": "story_again",
                "story": stage,
                "table_new": new,
            }
        )
        table.subs.clear()

    async def _deal(
        self, conn: Conn, stage: int, progress: dict[str, Any], msg: dict[str, Any]
    ) -> str:
        """Deal a new table at ``stage``, the player at seat 0, and start it; its id."""
        player = conn.player
        assert player is not None
        self.hub._room_allowed(conn)
        rules = Rules.preset(PRESET).replace(deals=DEALS, target_score=None)
        options: dict[str, Any] = {"bots": True, "show_bots": True, "story": stage}
        if TABLES[stage].decision_seconds is not None:
            options["decision_seconds"] = TABLES[stage].decision_seconds
        table = await self.hub.new_table(
            kind="private", mode=None, rules=rules, options=options, host=player.id
        )
        table.address = conn.address
        if self.deal_hook is not None:
            table.scripted_deals = list(self.deal_hook(stage) or [])
        # counted once, when dealt: coming back to it later is the same table
        progress["stages"][stage]["plays"] += 1
        progress["stages"][stage]["table"] = table.id
        await self.hub.storage.save_story_progress(player.id, progress)
        created = {"type": "created", "table": table.id, "code": table.code, "story": stage}
        if msg.get("ref") is not None:
            created["ref"] = msg["ref"]
        conn.send(created)
        await table.call(functools.partial(self._seat, table, stage))
        await self.hub._join(conn, table, 0, False, None, msg.get("ref"))
        await table.call(table._start)
        return table.id

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
        async with self._lock(pid):
            progress = await self.progress(pid)
            rec = progress["stages"][stage]
            self._update(progress, rec, stage, won, score, table)
            await self.hub.storage.save_story_progress(pid, progress)
        for c in list(self.hub.online.get(pid, ())):
            out = {
                "type": "story",
                **self.view(progress, c.lang),
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

    @staticmethod
    def _update(
        progress: dict[str, Any],
        rec: dict[str, Any],
        stage: int,
        won: bool,
        score: int,
        table: str | None,
    ) -> None:
        if table is not None and rec.get("table") == table:
            rec["table"] = None  # over: the stage's next sitting deals a new one
        if won:
            rec["wins"] += 1
            progress["cleared"] = max(progress["cleared"], min(stage + 1, len(TABLES)))
        if rec["best"] is None or score > rec["best"]:
            rec["best"] = score
        progress["updated"] = time.time()
