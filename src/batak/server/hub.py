"""The hub: players and their sessions, the lobby, quick play, private rooms, and the tables.

It reads each checked message of a connection and hands table business to the table's actor.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import itertools
import logging
import math
import multiprocessing
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NoReturn

from .. import i18n
from ..bots import LEVELS
from ..bots.workers import end_with_parent
from ..moves import parse_move
from ..rules import PRESETS, Rules, RulesError
from .chips import Desk
from .clock import Clock
from .config import MODES, ServerConfig
from .conn import Conn, Player
from .erase import SETTLE, dirty_job, erase_job, pending_job, recent_job, scrub_events
from .export import export
from .guard import KeyedBuckets, Lockout
from .progress import Progress, WallClock, level_of
from .protocol import PROTOCOL_VERSION, REACTIONS, ROOM_LIMITS, error
from .storage import EventRow, PlayerRow, Storage, StorageError, TableRow
from .story import Story
from .table import Table, TableError, player_of, record_path
from .tournament import Tournaments

__all__ = ["Hub"]

log = logging.getLogger("batak.server")

#: Room codes: 8 characters of 32 that cannot be mistaken for one another (no I, O, 0, 1):
#: 2^40 codes, and guessing is slowed by a lockout (``code_failures_free``).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
#: the least time between two ``my_data`` of one player (seconds)
EXPORT_SECONDS = 30.0
#: ``my_data`` from one address: so many an hour, 3 at once
EXPORTS_PER_HOUR_ADDRESS = 20
#: Messages a connection may send before ``hello``.
OPEN_TYPES = frozenset({"hello", "ping", "lobby", "leaderboard", "ratings"})


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _banned(row: PlayerRow) -> TableError:
    """The refusal of a login to an account the server's host closed, with their words."""
    if row.ban_reason:
        return TableError("banned", "banned_reason", {"reason": row.ban_reason})
    return TableError("banned")


def guest_named(name: str) -> bool:
    """Whether ``name`` is a guest name the server gave ("Misafir 6982", "Guest 6982"), in any
    of its languages: a name nobody chose."""
    import re

    for lang in i18n.LANGS:
        said = re.escape(i18n.text("server.guest_name", lang, n="\0")).replace("\0", r"\d+")
        if re.fullmatch(said, name):
            return True
    return False


def name_in(name: str, lang: str) -> str:
    """``name`` as a reader of ``lang`` says it: a guest name the server gave in another
    language is said in theirs, with its number ("Guest 1744" is "Misafir 1744" in Turkish);
    any other name as it is.

    >>> name_in("Guest 1744", "tr"), name_in("Misafir 1744", "en"), name_in("Ayşe", "en")
    ('Misafir 1744', 'Guest 1744', 'Ayşe')
    """
    import re

    for other in i18n.LANGS:
        said = re.escape(i18n.text("server.guest_name", other, n="\0")).replace("\0", r"(\d+)")
        found = re.fullmatch(said, name)
        if found:
            return i18n.text("server.guest_name", lang, n=found.group(1))
    return name


def invitation_for(note: dict[str, Any], lang: str) -> dict[str, Any]:
    """An ``invited`` note for a reader of ``lang``: a guest host named in their language (the
    invitee of another language read "Guest 1744 seni bir masaya davet ediyor")."""
    return {**note, "from": name_in(str(note.get("from") or ""), lang)}


def clean_name(name: str | None, limit: int) -> str | None:
    if name is None:
        return None
    text = "".join(
        ch for ch in unicodedata.normalize("NFC", name) if unicodedata.category(ch)[0] != "C"
    )
    text = " ".join(text.split())
    return text[:limit] or None


def _welcome_player(player: Player) -> dict[str, Any]:
    """A ``welcome``'s ``player``: who this connection plays as (hello and login alike)."""
    return {
        "id": player.id,
        "name": player.name,
        "account": player.account,
        "bot": player.bot_account,
    }


class Hub:
    """Everything one server process holds (see the module's text)."""

    def __init__(
        self, config: ServerConfig, storage: Storage, clock: Clock, wall: WallClock | None = None
    ) -> None:
        self.config = config
        self.storage = storage
        self.clock = clock
        self.progress = Progress(storage, wall)  # XP, ratings, the weekly league
        self.tables: dict[str, Table] = {}
        self.chips = Desk(storage, config)  # wallets, stakes, the kasa (issue 12)
        self.codes: dict[str, str] = {}
        #: tables being stored by :meth:`new_table` and not yet in ``tables``: a cluster node's
        #: takeover scan must not "take back" such a table of its own from the database (that
        #: made a second actor for it, and both wrote its next version)
        self.creating: set[str] = set()
        self.forming: dict[str, str] = {}  # mode -> public table being filled
        #: token hash -> its player, and when the database last said the session is valid
        self.players: dict[str, tuple[Player, float]] = {}
        self._by_id: dict[str, Player] = {}
        self.online: dict[str, set[Conn]] = {}  # player id -> their connections
        # bot accounts a login is under way for (between its check and its connection)
        self._bot_logins: set[str] = set()
        self._closing: set[asyncio.Task[None]] = set()
        cfg = config
        locks = {"window": cfg.lockout_window, "base": cfg.lockout_base, "cap": cfg.lockout_cap}
        self.login_fails = Lockout(free=cfg.login_failures_free, **locks)
        self.login_fails_address = Lockout(free=cfg.login_failures_free_address, **locks)
        self.code_fails = Lockout(free=cfg.code_failures_free, **locks)
        self.code_fails_address = Lockout(free=cfg.code_failures_free_address, **locks)
        self.create_rate = KeyedBuckets(cfg.create_per_minute / 60, cfg.create_burst)
        self.create_rate_address = KeyedBuckets(
            cfg.create_per_minute_address / 60, cfg.create_burst_address
        )
        self.register_rate = KeyedBuckets(cfg.register_per_hour_address / 3600, 5.0)
        self._scrubbing: dict[str, asyncio.Future[tuple[int, int]]] = {}  # erased player ids
        self._let_go: dict[str, float] = {}  # erased accounts forgotten here, and when
        #: the accounts whose erasure a connection of this process asked for and is being
        #: stored (delete_account): scrub_erased leaves them to it (that connection stays)
        self._erasing: set[str] = set()
        self.export_rate = KeyedBuckets(EXPORTS_PER_HOUR_ADDRESS / 3600, 3.0)  # by address
        self.export_rate_player = KeyedBuckets(1 / EXPORT_SECONDS, 1.0)
        self._export_walk = asyncio.Semaphore(1)  # one walk over the events at a time
        self._argon: Any = None
        self._dummy: str | None = None
        self._dummy_lock = asyncio.Lock()
        self._password_slots = asyncio.Semaphore(max(1, cfg.password_checks))
        self._password_waiting = 0
        # deal reviews: worker processes started at the first review, so a review never waits
        # behind hints nor delays play; counted to refuse politely when all are busy
        self._review_pool: ProcessPoolExecutor | None = None
        self._reviews_running = 0
        self._reviews: dict[tuple[str, int], Any] = {}  # (table, deal) -> DealReview
        self._reviews_under_way: dict[tuple[str, int], asyncio.Future[Any]] = {}
        self.rooms = 0  # tables in memory made with ``create``
        self.ready = False
        #: the ``--operator`` names no account has (yet), found at the start
        self.unknown_operators: list[str] = []
        self.connections = 0
        self._load_lock = asyncio.Lock()
        self._quick_locks: dict[str, asyncio.Lock] = {}
        self._reaper: asyncio.Task[None] | None = None
        #: tables :meth:`unmake` could not close (the database refused it), by id: out of
        #: ``tables`` (offered to nobody, listed nowhere), held here only so that the reaper's
        #: next pass and :meth:`stop` close them (:meth:`_close_kept`); in a cluster, still
        #: this process's (``Cluster.owned``), so that their close passes the fencing check
        self.unclosed: dict[str, Table] = {}
        self.cluster: Any = None  # batak.server.cluster.Cluster with --node, else None
        if config.node:
            from .cluster import Cluster

            self.cluster = Cluster(self)
        self._handlers: dict[str, Callable[[Conn, dict[str, Any]], Awaitable[None]]] = {
            "hello": self.on_hello,
            "ping": self.on_ping,
            "lobby": self.on_lobby,
            "quick": self.on_quick,
            "create": self.on_create,
            "join": self.on_join,
            "room": self.on_room,
            "sync": self.on_sync,
            "start": self.on_start,
            "move": self.on_move,
            "hint": self.on_hint,
            "review": self.on_review,
            "chat": self.on_chat,
            "react": self.on_react,
            "leave": self.on_leave,
            "rematch": self.on_rematch,
            "adjourn": self.on_adjourn,
            "mytables": self.on_mytables,
            "my_matches": self.on_my_matches,
            "leaderboard": self.on_leaderboard,
            "stats": self.on_stats,
            "register": self.on_register,
            "login": self.on_login,
            "logout": self.on_logout,
            "change_password": self.on_change_password,
            "delete_account": self.on_delete_account,
            "my_data": self.on_my_data,
            "invite": self.on_invite,
            "invitable": self.on_invitable,
            "wallet": self.on_wallet,
            "chip_leaderboard": self.on_chip_leaderboard,
            "progress": self.on_progress,
            "ratings": self.on_ratings,
            "league": self.on_league,
        }
        # tournaments and the story mode (issue 13 items 4 and 5)
        self.tournaments = Tournaments(self)
        self.story = Story(self)
        self._handlers.update(self.tournaments.handlers())
        self._handlers.update(self.story.handlers())

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Open storage and resume every table that was not over."""
        await self.storage.open()
        # a typo would show only when its tournament is refused: ``batak serve`` says these
        # names at its start, in the reader's language
        self.unknown_operators = [
            name for name in self.config.operators if await self.storage.account_named(name) is None
        ]
        await self.chips.load()
        if self.cluster is not None:  # this node's tables, and those nobody alive holds
            await self.cluster.start()
        for row, events in [] if self.cluster else await self.storage.live_tables():
            if self.to_close(row):
                await self.close_found(row, events)
                continue
            age = time.time() - (events[-1].at if events else row.created)
            if row.status == "adjourned" and age > self.config.adjourned_unload_seconds:
                continue  # stays stored; loaded when someone asks for it
            if self._load(row, events, age) is None:
                await self.refund_unrebuilt(row)
        self._reaper = asyncio.get_running_loop().create_task(self._reap())
        await self.tournaments.start()
        self.ready = True

    def _rebuilt(self, row: TableRow, events: list[EventRow], failure: str) -> Table | None:
        """A stored table rebuilt from its events, not started; None (``failure`` logged with
        the table's id and the traceback) if its log cannot be replayed."""
        try:
            table = Table(self, row, config=self.config, clock=self.clock, storage=self.storage)
            table.resume(events)
        except Exception:
            log.exception(failure, row.id)
            return None
        return table

    @staticmethod
    def to_close(row: TableRow) -> bool:
        """Is the stored table ``row`` one to close rather than resume: made to close if it did
        not start (``close_unstarted``: a rematch's), and still waiting? Its start fell
        through, and its close was refused until the process that made it stopped or lost it."""
        return row.close_unstarted and row.status == "waiting"

    async def close_found(self, row: TableRow, events: list[EventRow]) -> None:
        """Close a stored table found so (:meth:`to_close`), after a restart or a takeover:
        rebuilt, never started nor offered, and closed as :meth:`unmake` closes (kept aside
        for the reaper's next pass if the database refuses it again)."""
        table = self._rebuilt(row, events, "table %s could not be rebuilt to be closed")
        if table is None:  # closed all the same: it never started, so nothing in it is lost
            try:
                await self.storage.set_status(row.id, "closed")
            except StorageError as e:  # (stays waiting, offered to nobody; tried at the next
                # start, or in a cluster at the next takeover scan)
                log.warning("table %s: could not close it: %s", row.id, e)
            return
        log.info("table %s: found not started; closed", row.id)
        table.start_actor()
        await self.unmake(table)

    def _load(self, row: TableRow, events: list[EventRow], age: float) -> Table | None:
        """Rebuild a stored table from its events and start it (after a restart, or when an
        adjourned room that was put away is asked for)."""
        table = self._rebuilt(row, events, "table %s could not be resumed; it is left as it was")
        if table is None:
            return None
        table.last_activity = self.clock.now() - max(0.0, age)
        self._add(table)
        table.start_actor()
        table.after_resume()
        if table.match is not None and table.match.over and not table.finished:
            table.post(table._finish)
        return table

    async def refund_unrebuilt(self, row: TableRow) -> None:
        """A stored table that :meth:`_load` could not rebuild stays as it was, for the operator
        to look at; if its match was staked and started, its pot is emptied back into its
        people's wallets (:meth:`batak.server.chips.Desk.refund_unrebuilt`, once: a later
        restart finds the pot empty), and the log says who got what back."""
        if not row.options.get("stake"):
            return
        try:
            back = await self.chips.refund_unrebuilt(row.id)
        except Exception:  # (the next restart tries again)
            log.exception("table %s could not be resumed, and its stakes not given back", row.id)
            return
        if back:
            log.warning(
                "table %s could not be resumed: its stakes were given back (%s)",
                row.id,
                ", ".join(f"{pid} {n}" for pid, n in sorted(back.items())),
            )

    def _open_finished(self, row: TableRow, events: list[EventRow]) -> Table | None:
        """A finished match back from storage for one of its players, as it was at its end: its
        score sheet, its deals' review, its record. Nothing in it changes any more (its record,
        payouts and awards were stored when it ended: it is marked finished, and chat and a
        rematch are refused); it leaves memory as any finished table does, ``linger_seconds``
        after the last look. At most ``archive_tables`` of them at once (``busy``)."""
        if sum(1 for t in self.tables.values() if t.archived) >= self.config.archive_tables:
            raise TableError("busy")
        table = self._rebuilt(row, events, "finished table %s could not be opened again")
        if table is None:
            return None
        if table.status != "over":  # its log does not end the match: not something to show
            log.error("finished table %s: its stored log does not end the match", row.id)
            return None
        table.finished = table.archived = True
        self._add(table)
        table.start_actor()
        return table

    async def stop(self) -> None:
        self.ready = False
        if self._reaper is not None:
            self._reaper.cancel()
        self.tournaments.stop()
        # the reaper's next pass will not come: stored waiting, they would be loaded again as
        # tables to sit at (in a cluster, before they are handed over)
        await self._close_kept()
        if self.cluster is not None:  # hand the tables over to the other nodes
            await self.cluster.stop()
        for table in self.held():
            await table.stop()
        if self._review_pool is not None:
            self._review_pool.shutdown(wait=False, cancel_futures=True)
        for task in list(self._scrubbing.values()):  # (the next start goes on with them)
            task.cancel()
        await asyncio.gather(*self._scrubbing.values(), return_exceptions=True)
        await self.storage.close()

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        if table.host is not None and not table.archived:  # (an old match opened: no room)
            self.rooms += 1
        if table.status != "over":
            self.codes[table.code] = table.id
        if table.kind == "public" and table.status == "waiting" and table.mode:
            self.forming.setdefault(forming_key(table.mode, table.stake), table.id)

    async def _reap(self) -> None:
        """Every ``reap_every`` seconds (on the server's clock), drop from memory: finished
        tables after ``linger_seconds`` (their records stay stored); private rooms that never
        started and had nobody there for ``abandon_seconds`` (closed for good); adjourned rooms
        nobody visited for ``adjourned_unload_seconds`` (still stored: loaded again when asked
        for)."""
        while True:
            await self.clock.sleep_until(self.clock.now() + self.config.reap_every)
            try:
                await self.reap_once()
            except Exception:  # pragma: no cover - keep reaping
                log.exception("reaper")

    async def reap_once(self) -> None:
        cfg = self.config
        now = self.clock.now()
        await self._close_kept()
        for table in list(self.tables.values()):
            idle = table.idle_for(now)
            if table.finished:
                if now - table.last_activity > cfg.linger_seconds:
                    await self._drop(table)
                continue
            if idle is None:
                continue
            reason, limit = "", 0.0
            if table.kind == "private" and table.status == "waiting":
                reason = "abandoned"
                limit = cfg.abandon_seconds if table.others_came else cfg.lonely_seconds
            elif table.status == "adjourned":
                reason, limit = "unload", cfg.adjourned_unload_seconds
            if reason and idle >= limit:
                try:
                    done = await table.call(functools.partial(table.put_away, reason, limit))
                except (TableError, StorageError) as e:
                    log.warning("table %s: could not put it away: %s", table.id, e)
                    continue
                if done:
                    await self._drop(table)
        try:
            await self.close_ended_sessions()
        except Exception:  # a database that does not answer now: the next round tries again
            log.exception("closing the connections of ended sessions")
        try:
            await self.scrub_erased()
        except Exception:
            log.exception("letting go of erased accounts")
        await self._forget(now)

    def held(self) -> list[Table]:
        """Every table in this process's memory: those of :attr:`tables` and those kept aside
        to be closed (:attr:`unclosed`)."""
        return [*self.tables.values(), *self.unclosed.values()]

    def holds(self, table_id: str | None) -> bool:
        """Is the table ``table_id`` in this process's memory (see :meth:`held`)?"""
        return table_id in self.tables or table_id in self.unclosed

    async def _close_kept(self) -> None:
        """Close again the tables :meth:`unmake` could not close (kept while refused)."""
        for table in list(self.unclosed.values()):
            await self.unmake(table)

    async def _forget(self, now: float) -> None:
        await self.progress.close_weeks()  # a week that is over is closed without waiting
        """Delete guests who never sat at a table (``guest_unused_seconds`` after they were
        made and last used), and forget limits and players nobody needs in memory now."""
        keep = frozenset(self.online)
        gone = set(
            await self.storage.delete_unused_guests(
                time.time() - self.config.guest_unused_seconds, keep
            )
        )
        for h, (p, _) in list(self.players.items()):
            if p.id in gone or p.id not in self.online:
                del self.players[h]
        for pid in [pid for pid in self._by_id if pid not in self.online]:
            del self._by_id[pid]
        for limit in (
            self.login_fails,
            self.login_fails_address,
            self.code_fails,
            self.code_fails_address,
            self.create_rate,
            self.create_rate_address,
            self.register_rate,
            self.export_rate,
            self.export_rate_player,
        ):
            limit.prune(now)

    async def _drop(self, table: Table) -> None:
        table.gone = True
        self.unclosed.pop(table.id, None)
        # a connection still at a finished table that leaves memory is at it no more: it could
        # not say hello or log in again on that connection while it kept the table's id (the
        # table keeps its list: a story table started over tells them after this, Story)
        for conn in table.subs:
            conn.tables.discard(table.id)
        self._unheld(table)
        self._unlist(table)
        if self.cluster is not None:
            self.cluster.released(table)
        await table.stop()

    def _unlist(self, table: Table) -> None:
        """``table``'s code opens it no more, and quick play fills it no more."""
        if self.codes.get(table.code) == table.id:
            del self.codes[table.code]
        key = forming_key(table.mode or "", table.stake)
        if self.forming.get(key) == table.id:
            del self.forming[key]

    def _unheld(self, table: Table) -> None:
        """``table`` is out of :attr:`tables` (and no longer counted as a room in memory)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            if table.host is not None and not table.archived:
                self.rooms -= 1

    async def unmake(self, table: Table) -> None:
        """Take away a table just made that must not be (a staked rematch whose start found a
        person short): closed in storage, out of memory. Nobody knows its id or code yet."""
        try:
            await table.call(table.close_unmade)
        except (TableError, StorageError) as e:
            if table.gone:  # let go meanwhile (another process has it now): not ours to close
                self.unclosed.pop(table.id, None)
                return
            # kept aside (:attr:`unclosed`, out of :attr:`tables`: nothing offers it, its
            # code opens nothing) and closed by the reaper's next pass (:meth:`reap_once`) or
            # at the stop: forgotten, it would stay stored as waiting, seated by nobody, for good
            log.warning("table %s: could not close it (tried again later): %s", table.id, e)
            new = table.id not in self.unclosed
            self.unclosed[table.id] = table
            self._unheld(table)
            self._unlist(table)
            if new and self.cluster is not None:  # the other nodes hear it now (delete_account)
                self.cluster.kept_changed()
        else:
            await self._drop(table)
        if self.cluster is not None:  # a bot account seated there is free for the others now
            self.cluster.bot_seats_changed(table)

    def table_over(self, table: Table) -> None:
        self.tournaments.table_over(table)
        self.story.table_over(table)
        if self.codes.get(table.code) == table.id:
            del self.codes[table.code]  # a finished room's code opens nothing any more
        key = forming_key(table.mode or "", table.stake)
        if self.forming.get(key) == table.id:
            del self.forming[key]
        if self.cluster is not None:
            self.cluster.bot_seats_changed(table)  # a bot account playing here is free again

    # ------------------------------------------------------------------ messages
    async def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        ref = msg.get("ref")
        if conn.player is None and kind not in OPEN_TYPES:
            conn.send(error("hello_first", i18n.text("server.hello_first", conn.lang), ref))
            return
        try:
            if self.cluster is not None and await self.cluster.route(conn, msg):
                return  # went to the process that owns the table
            await self._handlers[kind](conn, msg)
        except (TableError, StorageError) as e:
            self.refused(conn, e, ref, kind)

    async def disconnect(self, conn: Conn, *, restart: bool = False) -> None:
        """The connection is gone (``restart``: closed by a server itself with 1012, which
        stores nothing for it: the seats are held as they are and taken back after the
        restart, a bot account's in a room not started too, see :meth:`Table.unsubscribe`). On a
        cluster, the close of a forwarded client is told to the owners of its tables with the
        bus's ``gone``, ``restart`` with it; the owner's :class:`RemoteConn
        <batak.server.cluster.bus.RemoteConn>` comes here with it too, and so do those the
        cluster drops for its own 1012 closes (Redis lost, a table moved)."""
        if self.cluster is not None:
            self.cluster.disconnected(conn, restart)  # the owners of its tables hear how
        self._set_player(conn, None, None)
        self.tournaments.forget(conn)
        await self._leave_tables(conn, restart)

    async def _leave_tables(self, conn: Conn, restart: bool = False) -> None:
        for table_id in list(conn.tables):
            table = self.tables.get(table_id)
            if table is not None:
                await table.call(functools.partial(table.unsubscribe, conn, dropped=not restart))
            elif (kept := self.unclosed.get(table_id)) is not None:
                # kept aside to be closed: nothing is stored for it (no seat is held, it never
                # starts); the connection is only at it no more (it may say hello again)
                seat = kept.subs.pop(conn, None)
                if seat is not None:
                    kept.seats[seat].conns.discard(conn)
                conn.tables.discard(table_id)

    def _reply(self, conn: Conn, msg: dict[str, Any], ref: Any) -> None:
        if ref is not None:
            msg["ref"] = ref
        conn.send(msg)

    # ------------------------------------------------------------------ players
    def _set_player(self, conn: Conn, player: Player | None, token_h: str | None) -> None:
        """Say who ``conn`` speaks for (and with which session), keeping :attr:`online`."""
        if conn.player is not None:
            others = self.online.get(conn.player.id)
            if others is not None:
                others.discard(conn)
                if not others:
                    del self.online[conn.player.id]
                    if self.cluster is not None:  # the other processes hear it now
                        self.cluster.online_changed(conn.player)
        conn.player = player
        conn.token_hash = token_h
        if player is not None:
            first = player.id not in self.online
            self.online.setdefault(player.id, set()).add(conn)
            if first and self.cluster is not None:  # (and that they are back, too)
                self.cluster.online_changed(player)

    def _known(self, pid: str, name: str, account: str | None) -> Player:
        """The one :class:`Player` object of a player id (shared by their sessions)."""
        player = self._by_id.get(pid)
        if player is None:
            player = self._by_id[pid] = Player(pid, name, account)
        return player

    async def on_hello(self, conn: Conn, msg: dict[str, Any]) -> None:
        ref = msg.get("ref")
        if conn.tables:
            raise TableError("already_hello")
        lang = msg.get("lang") or conn.lang
        conn.lang = i18n.lang_of(lang)
        conn.ack_in_event = bool(msg.get("ack_in_event"))
        name = clean_name(msg.get("name"), self.config.name_max_chars)
        token: str | None = msg.get("token")
        player: Player | None = None
        token_h: str | None = None
        new_token: str | None = None
        fresh = False  # a guest made just now
        if token:
            player = await self._player_by_token(token)
            token_h = token_hash(token) if player is not None else None
        if player is None and not token and conn.player is not None:
            player, token_h = conn.player, conn.token_hash  # a second hello: the same player
            if conn.guest is not None and conn.guest[0] is player:
                new_token = conn.guest[1]
        elif player is None and conn.guest is not None:
            player, new_token = conn.guest  # one guest per connection
            token_h = token_hash(new_token)
        elif player is None:
            new_token = secrets.token_urlsafe(32)
            token_h = token_hash(new_token)
            player = self._known(
                "p" + secrets.token_hex(6),
                name or i18n.text("server.guest_name", conn.lang, n=secrets.randbelow(9000) + 1000),
                None,
            )
            await self.storage.create_player(
                PlayerRow(player.id, player.name, token_h, time.time())
            )
            self.players[token_h] = (player, time.monotonic())
            conn.guest = (player, new_token)
            fresh = True
            player.level = level_of(0)  # no XP yet: nothing to look up when they sit
        if name and name != player.name:
            player.name = name
            await self.storage.update_player(player.id, name=name)
        self._set_player(conn, player, token_h)
        # a guest made by this hello sits nowhere yet: no need to look through every table
        mine = [] if fresh else await self._seated_at(player)
        out: dict[str, Any] = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "player": _welcome_player(player),
            "tables": mine,
            "modes": MODES,
            "presets": list(PRESETS),
            "reactions": list(REACTIONS),
            "limits": {
                "message_bytes": self.config.max_message_bytes,
                "messages_per_second": self.config.rate_per_second,
                "chat_chars": self.config.chat_max_chars,
            },
            # the server's pace, which a room keeps unless it sets its own (docs: "Pace")
            "pace": {"trick_pause": self.config.trick_pause, "deal_pause": self.config.deal_pause},
        }
        if self.tournaments.operator(player.account):  # may start anyone's tournament
            out["operator"] = True
        if new_token is not None:
            out["token"] = new_token
            if token:
                out["token_unknown"] = True
        self._reply(conn, out, ref)

    async def _player_by_token(self, token: str) -> Player | None:
        h = token_hash(token)
        known = self.players.get(h)
        now = time.monotonic()
        if known is not None and now - known[1] < self.config.session_recheck_seconds:
            return known[0]
        row = await self.storage.player_by_token(h)
        if row is None or row.banned is not None:  # never a session, or one ended (a logout,
            # batak admin password or ban)
            self.players.pop(h, None)
            return None
        if known is not None:
            player = known[0]
        else:
            player = self._known(row.id, row.name, row.username)
            player.bot_account = row.is_bot
        self.players[h] = (player, now)
        return player

    # ------------------------------------------------------------------ passwords
    def _hasher(self) -> Any:
        if self._argon is None:
            # bounded memory: each check takes argon2_memory_kib, and at most password_checks
            # run at once (a hash made with other parameters is remade at the next login)
            try:
                self._argon = password_hasher(self.config)
            except ImportError:
                raise TableError("no_accounts") from None
        return self._argon

    async def _password_job(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run an argon2 job in a worker thread, at most ``password_checks`` at once; beyond
        ``password_queue`` waiting, refuse (``busy``)."""
        if self._password_waiting >= self.config.password_queue:
            raise TableError("busy", "busy_login")
        self._password_waiting += 1
        try:
            async with self._password_slots:
                return await asyncio.to_thread(fn, *args)
        finally:
            self._password_waiting -= 1

    async def _verify(self, digest: str, password: str) -> bool:
        hasher = self._hasher()

        def check() -> bool:
            try:
                return bool(hasher.verify(digest, password))
            except Exception:  # a wrong password, or a hash that cannot be read
                return False

        return bool(await self._password_job(check))

    async def _dummy_hash(self) -> str:
        """A hash of no one's password, checked for unknown names so that they take as long
        to refuse as a wrong password."""
        async with self._dummy_lock:  # made once, not by every unknown name waiting for it
            if self._dummy is None:
                self._dummy = await self._password_job(
                    self._hasher().hash, secrets.token_urlsafe(16)
                )
        assert self._dummy is not None
        return self._dummy

    def _locked(self, *checks: tuple[Lockout, str]) -> None:
        now = self.clock.now()
        wait = max(lock.wait(key, now) for lock, key in checks)
        if wait > 0:
            seconds = math.ceil(wait)
            raise TableError("locked", params={"seconds": seconds}, retry_after=seconds)

    def _password_guard(self, username: str, conn: Conn) -> str:
        """Before a password of ``username`` is checked (a login, a change of password): refuse
        (``locked``) while the name or the connection's address is locked out. Returns the
        name's key for :meth:`_password_failed`."""
        # one key for every case the login accepts for the name (İLKER, ILKER and ilker reach
        # the same account: their failures count together)
        key = "u:" + i18n.plain_lower(username)
        self._locked((self.login_fails, key), (self.login_fails_address, conn.address))
        return key

    def _password_failed(self, key: str, conn: Conn) -> None:
        """A wrong password for the name ``key``, from ``conn``'s address: one failure more."""
        now = self.clock.now()
        self.login_fails.fail(key, now)
        self.login_fails_address.fail(conn.address, now)

    async def on_register(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._hasher()
        player = player_of(conn)
        username = clean_name(msg["username"], 32)
        if not username or username != msg["username"] or " " in username:
            raise TableError("bad_username")
        if len(msg["password"]) < 8:
            raise TableError("weak_password")
        if player.account:
            raise TableError("has_account")
        # counted once the form is right: a short password retyped costs nothing and used up a
        # household's registrations for the hour (what is counted is the hashing, and accounts)
        if not self.register_rate.take(conn.address, self.clock.now()):
            seconds = math.ceil(self.register_rate.wait(conn.address, self.clock.now()))
            raise TableError("register_rate", params={"seconds": seconds}, retry_after=seconds)
        # the hash first: a name that is taken costs the same time as one that is free
        digest = await self._password_job(self._hasher().hash, msg["password"])
        # taken, also in another case ("ALICE" beside "alice", "İrem" beside "irem"): a login
        # typed in any case, and the operator's commands, find one account by it
        if await self.storage.accounts_like(username):
            raise TableError("username_unavailable")
        bot = bool(msg.get("bot"))
        # a guest who never chose a name is called by the account's name from now on (the
        # others read "Misafir 3769" at the tables, the boards and the invitations)
        renamed = None
        if guest_named(player.name):  # (a name is shorter than a username may be)
            renamed = clean_name(username, self.config.name_max_chars)
        try:
            await self.storage.update_player(
                player.id,
                username=username,
                password_hash=digest,
                is_bot=int(bot),
                **({"name": renamed} if renamed else {}),
            )
        except StorageError:
            if await self.storage.accounts_like(username):  # taken meanwhile, in any case
                raise TableError("username_unavailable") from None
            raise
        player.account = username
        player.bot_account = bot
        if renamed:
            player.name = renamed
        if bot and self.cluster is not None:  # a bot account here now, for the other processes
            self.cluster.online_changed(player)
        reply: dict[str, Any] = {"type": "account", "username": username, "name": player.name}
        if bot:
            reply["bot"] = True
        if self.tournaments.operator(username):  # (as a login's welcome says)
            reply["operator"] = True
        self._reply(conn, reply, msg.get("ref"))

    async def on_login(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._hasher()
        if conn.tables:
            raise TableError("already_hello", "already_hello_login")
        name_key = self._password_guard(msg["username"], conn)
        row = await self.storage.account_named(msg["username"])  # typed in any case
        known = row is not None and bool(row.password_hash)
        digest = row.password_hash if row is not None and row.password_hash else None
        ok = await self._verify(digest or await self._dummy_hash(), msg["password"])
        if row is None or not known or not ok:
            self._password_failed(name_key, conn)
            raise TableError("bad_login")
        assert digest is not None
        if row.banned is not None:  # said only to whoever knows the password
            raise _banned(row)
        # one program a bot account: a second `batak bot` would sit and choose beside the
        # first. A connection that died unnoticed is dropped by the keepalive ping within
        # BOT_ONLINE_WAIT seconds; the one that lost its connection comes back with its token
        # (hello), not a login, so it is never refused here. The account is claimed before the
        # first wait, so two logins at one moment cannot both pass the check
        bot = row.id if row.is_bot else None
        if bot is not None:
            if bot in self._bot_logins:
                raise TableError(
                    "bot_online", params={"username": row.username, "seconds": BOT_ONLINE_WAIT}
                )
            self._bot_logins.add(bot)
        try:
            if bot is not None and await self._bot_online(bot):
                raise TableError(
                    "bot_online", params={"username": row.username, "seconds": BOT_ONLINE_WAIT}
                )
            current = digest
            if self._hasher().check_needs_rehash(digest):  # made with costlier parameters
                new = await self._password_job(self._hasher().hash, msg["password"])
                if await self.storage.replace_password(row.id, digest, new):
                    current = new
            token = secrets.token_urlsafe(32)
            h = token_hash(token)
            # a new session (other devices keep theirs), unless a ban or a new password came while
            # the password was checked: then it is refused as it would be now
            if not await self.storage.add_session(row.id, h, password_hash=current):
                now_row = await self.storage.player_by("id", row.id)
                if now_row is not None and now_row.banned is not None:
                    raise _banned(now_row)
                raise TableError("bad_login")
            player = self._known(row.id, row.name, row.username)
            player.account = row.username
            player.bot_account = row.is_bot
            self.players[h] = (player, time.monotonic())
            self._set_player(conn, player, h)
            conn.guest = None
        finally:
            if bot is not None:
                self._bot_logins.discard(bot)
        welcome: dict[str, Any] = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "player": _welcome_player(player),
            "token": token,
            "tables": await self._seated_at(player),
        }
        if self.tournaments.operator(player.account):
            welcome["operator"] = True
        self._reply(conn, welcome, msg.get("ref"))

    async def _seated_at(self, player: Player) -> list[str]:
        """The unfinished tables where ``player`` sits (a ``welcome``'s ``tables``): those in
        memory here; for a bot account in a cluster, those of the other processes too (a bot
        keeps no table ids: it comes back to its seats with these, docs/bots.md)."""
        if player.bot_account:
            return list(await self._bot_tables(player.id))
        return list(self._tables_here(player.id))

    def _tables_here(self, pid: str) -> dict[str, str]:
        """The unfinished tables in memory where ``pid`` sits, table id to status."""
        return {
            t.id: t.status
            for t in self.tables.values()
            if t.status != "over" and t.seat_of(pid) is not None
        }

    async def _bot_tables(self, pid: str) -> dict[str, str]:
        """The unfinished tables where the bot account ``pid`` sits, table id to status: those
        in memory here and, in a cluster, those of the other processes (as of their last beat,
        or of the last start or end of a match there with a bot account)."""
        mine = self._tables_here(pid)
        if self.cluster is not None:
            for table_id, status in await self.cluster.bot_tables_elsewhere(pid):
                if table_id not in self.tables:  # (held here now: this process knows best)
                    mine.setdefault(table_id, status)
        return mine

    def bot_seats(self) -> dict[str, list[list[str]]]:
        """Where bot accounts sit at the unfinished tables in memory: each one's id to the
        ``[table id, status]`` of those tables (a cluster keeps it in Redis for the others)."""
        out: dict[str, list[list[str]]] = {}
        for t in self.tables.values():
            if t.status == "over":
                continue
            for s in t.seats:
                if s.bot_account and s.player is not None:
                    out.setdefault(s.player, []).append([t.id, t.status])
        return out

    async def _bot_online(self, pid: str) -> bool:
        """Whether the account ``pid`` has a connection (in a cluster: on any process)."""
        if self.online.get(pid):
            return True
        return self.cluster is not None and await self.cluster.online_elsewhere(pid)

    async def on_logout(self, conn: Conn, msg: dict[str, Any]) -> None:
        """End this connection's session, or every session of its player (``everywhere``):
        those tokens no longer open the player; the other connections of a revoked session
        are told (``logged_out``) and closed. This connection must say ``hello`` again."""
        player = conn.player
        assert player is not None
        everywhere = bool(msg.get("everywhere"))
        if everywhere:
            hashes = await self.storage.end_sessions(player.id)
        elif conn.token_hash is not None:
            hashes = await self.storage.end_sessions(player.id, conn.token_hash)
        else:
            hashes = []
        await self._leave_tables(conn)  # off every table (a seat is held, then a bot plays it)
        revoked = set(hashes)
        for h in revoked:
            self.players.pop(h, None)
        out = {"type": "logged_out", "sessions": len(revoked), "everywhere": everywhere}
        self._set_player(conn, None, None)
        conn.guest = None
        self._reply(conn, dict(out), msg.get("ref"))
        for other in list(self.online.get(player.id, ())):
            if everywhere or other.token_hash in revoked:  # (another tab, another device)
                self._sign_out(other, {**out, "reason": "logout"})

    def _sign_out(self, conn: Conn, out: dict[str, Any]) -> None:
        """Tell a connection whose session ended (``out``: a ``logged_out``) and close it."""
        self._set_player(conn, None, None)
        conn.send(dict(out))
        task = asyncio.get_running_loop().create_task(conn.flush_and_close(4001, "logged out"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def on_change_password(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A player's new password, given with the one they have: every other session of the
        account ends (its connections are told and closed); this one goes on."""
        self._hasher()
        player = player_of(conn)
        if not player.account:
            raise TableError("needs_account")
        key = self._password_guard(player.account, conn)
        if len(msg["new"]) < 8:
            raise TableError("weak_password")
        row = await self.storage.player_by("id", player.id)
        digest = row.password_hash if row is not None else None
        if row is None or not digest or not await self._verify(digest, msg["password"]):
            self._password_failed(key, conn)  # counts as a failed login
            raise TableError("bad_password")
        new = await self._password_job(self._hasher().hash, msg["new"])
        # only over the password checked: a new one given by the host meanwhile wins
        if not await self.storage.replace_password(player.id, digest, new):
            raise TableError("bad_password")
        # this device stays signed in
        ended = set(await self.storage.end_sessions(player.id, keep=conn.token_hash))
        for h in ended:
            self.players.pop(h, None)
        self._reply(conn, {"type": "password_changed", "sessions": len(ended)}, msg.get("ref"))
        out = {
            "type": "logged_out",
            "sessions": len(ended),
            "everywhere": False,
            "reason": "password",
        }
        for other in list(self.online.get(player.id, ())):
            if other is not conn and other.token_hash in ended:
                self._sign_out(other, out)

    async def on_delete_account(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Erase the account's personal data (:mod:`batak.server.erase`), given its password:
        every session ends (the other connections are told, ``reason: "deleted"``, and closed)
        and this connection must say ``hello`` again, as a guest. Refused, with nothing changed,
        while the account sits in a room not started or at a match in play, or takes part in a
        tournament not over (an adjourned room keeps its seat, nameless; a table kept aside to
        be closed, on this process or in a cluster on any, does not stand in the way)."""
        self._hasher()
        player = player_of(conn)
        if not player.account:
            raise TableError("needs_account")
        key = self._password_guard(player.account, conn)
        row = await self.storage.player_by("id", player.id)
        digest = row.password_hash if row is not None else None
        if row is None or not digest or not await self._verify(digest, msg["password"]):
            self._password_failed(key, conn)  # counts as a failed login
            raise TableError("bad_password", "bad_password_delete")
        # (a table kept aside to be closed never starts: a seat there does not stand in the way;
        # in a cluster, one kept by any node, checked against its owner row: Cluster.kept_aside)
        kept = frozenset(self.unclosed) if self.cluster is None else frozenset()
        kept_at = await self.cluster.kept_aside() if self.cluster is not None else None
        self._erasing.add(player.id)
        try:
            done = await self.storage.run(
                erase_job(self.storage.q, player.id, checked=digest, kept=kept, kept_at=kept_at)
            )
        finally:  # (_forget_erased below marks it let go of before its first await)
            self._erasing.discard(player.id)
        if done.password_changed:  # the host gave it a new password meanwhile
            raise TableError("bad_password", "bad_password_delete")
        if done.busy:
            raise TableError(
                "account_busy",
                "account_busy" if done.tables else "account_busy_tourney",
                {"tables": ", ".join(done.tables), "tournaments": ", ".join(done.tournaments)},
            )
        await self._forget_erased(player.id, player)
        await self._leave_tables(conn)
        self._set_player(conn, None, None)
        conn.guest = None
        out = {
            "type": "logged_out",
            "sessions": len(done.sessions),
            "everywhere": True,
            "reason": "deleted",
        }
        for other in list(self.online.get(player.id, ())):
            self._sign_out(other, out)
        # the stored events, a part at a time (also if this connection goes meanwhile)
        try:
            tables, chat = await asyncio.shield(self._scrub(player.id))
        except StorageError:  # erased all the same: the reaper scrubs the events later
            tables = chat = 0
        self._reply(
            conn,
            {"type": "account_deleted", "games": max(done.games, tables), "chat": chat},
            msg.get("ref"),
        )

    async def _forget_erased(self, pid: str, player: Player | None = None) -> None:
        """An erased account leaves this process's memory: its cached sessions, its name in
        its :class:`Player` object, the tables and tournaments held here."""
        for h, (p, _) in list(self.players.items()):
            if p.id == pid:
                player = player or p
                del self.players[h]
        player = player or self._by_id.get(pid)
        self._by_id.pop(pid, None)
        if player is not None:
            player.name, player.account = "", None
        self._let_go[pid] = time.time()
        for table in list(self.tables.values()):  # also finished, watched or left tables
            if any(s.player == pid for s in table.seats) or any(
                ev.get("player") == pid for _, _, ev in table.buffer
            ):
                with contextlib.suppress(TableError):  # (gone meanwhile)
                    await table.call(functools.partial(table.forget_player, pid))
        await self.tournaments.forget_player(pid)

    def _scrub(self, pid: str) -> asyncio.Future[tuple[int, int]]:
        """The erased account's name and words out of the stored events
        (:func:`~batak.server.erase.scrub_events`): one run at a time per account."""
        task = self._scrubbing.get(pid)
        if task is None:
            task = asyncio.ensure_future(
                scrub_events(self.storage.run, self.storage.q, pid, settle=self.settle)
            )
            self._scrubbing[pid] = task

            def done(t: asyncio.Future[tuple[int, int]]) -> None:
                self._scrubbing.pop(pid, None)
                if not t.cancelled() and t.exception() is not None:  # the reaper tries again
                    log.warning("erased player %s: events not scrubbed: %s", pid, t.exception())

            task.add_done_callback(done)
        return task

    async def on_my_data(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Everything the server keeps under this connection's account (:mod:`.export`), at
        most once every ``EXPORT_SECONDS`` per player and ``EXPORTS_PER_HOUR_ADDRESS`` per
        address, one at a time (it reads the player's chat lines from every table's events)."""
        player = player_of(conn)
        if not player.account:  # (a guest is new at every hello: its limit would be none)
            raise TableError("needs_account")
        now = self.clock.now()
        for limit, key in ((self.export_rate, conn.address), (self.export_rate_player, player.id)):
            if not limit.take(key, now):
                seconds = math.ceil(limit.wait(key, now))
                raise TableError("export_rate", params={"seconds": seconds}, retry_after=seconds)
        async with self._export_walk:
            doc = await export(self.storage.run, self.storage.q, player.id)
        self._reply(conn, {"type": "my_data", "data": doc or {}}, msg.get("ref"))

    async def close_ended_sessions(self) -> int:
        """Close the connections whose session ended elsewhere (``batak admin password``,
        ``ban`` or ``erase``, a logout, a new password or a deleted account on another process
        of a cluster): each is told (``logged_out`` with ``reason: "ended"``, or ``"deleted"``
        for an erased account). Returns how many were closed."""
        # each connection with the session it has now: one that logs in (or out) while the
        # database is asked has another session by then, which was not asked about
        looked = [
            (c, c.token_hash)
            for c in itertools.chain.from_iterable(self.online.values())
            if c.token_hash is not None and c.player is not None and c.player.account
        ]
        if not looked:
            return 0
        live = await self.storage.live_sessions([h for _, h in looked if h])
        ended = [(c, h) for c, h in looked if h not in live]
        if not ended:
            return 0
        # an account erased elsewhere (batak admin erase, another process): told so, let go of
        # here, and its events scrubbed again (it may have written its name meanwhile)
        pids = sorted({c.player.id for c, _ in ended if c.player is not None})
        erased = set(await self.storage.run(dirty_job(self.storage.q, pids)))
        closed = 0
        for c, h in ended:
            if c.token_hash == h and c.player is not None:
                reason = "deleted" if c.player.id in erased else "ended"
                self.players.pop(h or "", None)
                self._sign_out(
                    c,
                    {"type": "logged_out", "sessions": 0, "everywhere": False, "reason": reason},
                )
                closed += 1
        for pid in erased:
            self._scrub(pid)
            await self._let_go_of(pid)
        return closed

    async def _let_go_of(self, pid: str) -> None:
        """:meth:`_forget_erased`, once per erased account; one that fails is tried again at
        the next round (:meth:`scrub_erased`)."""
        try:
            await self._forget_erased(pid)
        except Exception:
            log.exception("letting go of erased player %s", pid)
            self._let_go.pop(pid, None)

    @property
    def settle(self) -> float:
        """Seconds after an erasure by which every server has let go of the account (see
        :data:`~batak.server.erase.SETTLE`): its cached sessions checked again, its
        connections closed, twice over."""
        cfg = self.config
        return max(SETTLE, 2 * (cfg.reap_every + cfg.session_recheck_seconds))

    async def scrub_erased(self) -> None:
        """Let go, in this process's memory, of the accounts erased lately (by another process
        of a cluster, or by ``batak admin erase``), and start the passes over the events that
        are due (:func:`~batak.server.erase.pending_job`), in the background."""
        now = time.time()
        for pid, at in list(self._let_go.items()):
            if now - at > 4 * self.settle:
                del self._let_go[pid]
        for pid in await self.storage.run(recent_job(self.storage.q, now - 2 * self.settle)):
            if pid not in self._let_go and pid not in self._erasing:
                # its connections still open here are told and closed first: let go of, their
                # player is no account any more, and close_ended_sessions would pass them by
                out = {
                    "type": "logged_out",
                    "sessions": 0,
                    "everywhere": False,
                    "reason": "deleted",
                }
                for c in list(self.online.get(pid, ())):
                    self._sign_out(c, out)
                await self._let_go_of(pid)
        for pid in await self.storage.run(pending_job(self.storage.q, now, self.settle)):
            self._scrub(pid)

    async def on_ping(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._reply(conn, {"type": "pong", "t": msg.get("t")}, msg.get("ref"))

    # ------------------------------------------------------------------ lobby
    def lobby(self) -> dict[str, Any]:
        """The lobby (in a cluster: every node's tables)."""
        local = self.local_lobby()
        return self.cluster.lobby(local) if self.cluster is not None else local

    def local_lobby(self) -> dict[str, Any]:
        modes: dict[str, list[dict[str, Any]]] = {m: [] for m in MODES}
        playing = 0
        for t in self.tables.values():
            if t.status == "playing":
                playing += 1
            if t.kind == "public" and t.mode in modes and t.status != "over":
                modes[t.mode].append(t.summary())
        for lst in modes.values():
            lst.sort(key=lambda s: (s["status"] != "waiting", s["id"]))
            del lst[50:]
        return {
            "type": "lobby",
            "modes": modes,
            "presets": {m: MODES[m] for m in MODES},
            "tables_playing": playing,
            "stakes": list(self.config.stakes),
            "kasa": self.kasa_salons(),
        }

    async def on_lobby(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._reply(conn, self.lobby(), msg.get("ref"))

    async def on_mytables(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        pid = player.id
        mine = [
            t.summary() | {"kind": t.kind, "seat": t.seat_of(pid)}
            for t in self.tables.values()
            if t.status != "over" and t.seat_of(pid) is not None
        ]
        self._reply(conn, {"type": "mytables", "tables": mine}, msg.get("ref"))

    async def on_my_matches(self, conn: Conn, msg: dict[str, Any]) -> None:
        """The player's own latest finished matches (20), newest first, each with the path of its
        game record (a private table's with its key: the player sat there); ``open``: joined, it
        opens at its table (:meth:`_open_finished`)."""
        player = player_of(conn)
        matches = []
        for m in await self.storage.recent_matches(player.id):
            seed = m.pop("seed")
            m["record"] = record_path(m["table"], m["kind"], seed)
            m["open"] = True  # joined, it opens at its table: its score sheet, the deals' review
            matches.append(m)
        self._reply(conn, {"type": "my_matches", "matches": matches}, msg.get("ref"))

    async def on_leaderboard(self, conn: Conn, msg: dict[str, Any]) -> None:
        rows = await self.storage.leaderboard()
        self._reply(conn, {"type": "leaderboard", "players": rows}, msg.get("ref"))

    async def on_stats(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        pid = msg.get("player") or player.id
        self._reply(conn, {"type": "stats", "stats": await self.storage.stats(pid)}, msg.get("ref"))

    # ------------------------------------------------------------------ chips (issue 12)
    def check_stake(self, stake: int) -> None:
        if stake and stake not in self.config.stakes:
            raise TableError(
                "bad_stake", params={"stakes": ", ".join(str(s) for s in self.config.stakes)}
            )

    async def chips_can_sit(self, player: Player, stake: int, *, room: bool = False) -> None:
        """A staked seat wants an account (not a bot account) whose balance covers the stake.
        ``room``: a private room's seat (come to by its code or an invitation), refused in
        words of a room, not of a salon: what it plays for, what the player has, and what they
        can do (ask the host for a room without a stake; the daily grant, if the server gives
        one)."""
        if not player.account:
            raise TableError("stake_account")
        if player.bot_account:
            raise TableError("stake_bot")
        have = await self.chips.balance(player.id)
        if have < stake:
            # (the numbers as fields too: a client says it in its own words)
            grant = int(self.config.daily_grant)
            key = ("stake_cover_room_grant" if grant > 0 else "stake_cover_room") if room else None
            params = {"stake": stake, "balance": have, "grant": grant}
            raise TableError("stake_cover", key, params, stake=stake, balance=have)

    def kasa_salons(self) -> dict[str, int]:
        """Each açık eşli salon's kasa as a new table there plays for (see Table.kasa_shown)."""
        out = {}
        for mode, preset in MODES.items():
            if Rules.preset(preset).scoring != "acik":
                continue
            for stake in self.config.stakes:
                salon = f"{mode}:{stake}"
                out[salon] = self.chips.kasa.get(salon, 0) + stake * 4 - stake * 4 * 3 // 4
        return out

    async def on_wallet(self, conn: Conn, msg: dict[str, Any]) -> None:
        """The player's chips (the day's grant is given here when it is due)."""
        player = player_of(conn)
        out: dict[str, Any] = {"type": "wallet", "account": bool(player.account)}
        if player.account and not player.bot_account:
            out |= await self.chips.wallet(player.id)
        else:
            out |= {"balance": 0, "vip": False, "granted": 0, "grant": 0}
        out["stakes"] = list(self.config.stakes)
        self._reply(conn, out, msg.get("ref"))

    async def on_chip_leaderboard(self, conn: Conn, msg: dict[str, Any]) -> None:
        rows = await self.chips.leaderboard()
        self._reply(conn, {"type": "chip_leaderboard", "players": rows}, msg.get("ref"))

    # ------------------------------------------------------------------ progress
    def awarded(self, table: Table, awards: dict[str, dict[str, Any]]) -> None:
        """A match was awarded (XP, rating, league points): each player's connections are told
        (``awarded``) and their level is kept for the next table they sit at."""
        for pid, info in awards.items():
            player = self._by_id.get(pid)
            if player is not None:
                player.level = info["level"]
            for conn in list(self.online.get(pid, ())):
                conn.send({"type": "awarded", "table": table.id, **info})

    async def on_progress(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        pid = msg.get("player") or player.id
        out = await self.progress.of(pid)
        self._reply(conn, {"type": "progress", "progress": out}, msg.get("ref"))

    async def on_ratings(self, conn: Conn, msg: dict[str, Any]) -> None:
        rows = await self.progress.ratings()
        self._reply(conn, {"type": "ratings", "players": rows}, msg.get("ref"))

    async def on_league(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        self._reply(conn, await self.progress.league(player.id), msg.get("ref"))

    # ------------------------------------------------------------------ tables
    async def new_table(
        self,
        *,
        kind: str,
        mode: str | None,
        rules: Rules,
        options: dict[str, Any],
        host: str | None,
        seed: int | None = None,
        dealer: int | None = None,
        close_unstarted: bool = False,
    ) -> Table:
        if len(self.tables) + len(self.unclosed) >= self.config.max_tables:  # (in memory)
            raise TableError("busy")
        if host is not None and self.rooms >= self.config.max_room_tables:
            raise TableError("busy")  # quick play keeps the rest of max_tables
        # No lock and no look-up round trip: a new code is reserved in memory at once, and the
        # database's UNIQUE constraint catches a clash with a stored (finished) table, on which
        # another code is tried. (A lock held across two database round trips made table
        # creation one at a time: under load, setting up tables timed out.)
        for attempt in range(5):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.codes:
                continue
            row = TableRow(
                id="t" + secrets.token_hex(6),
                code=code,
                kind=kind,
                mode=mode,
                rules=rules.to_dict(),
                # the table's secret: its deals' seeds (fair.py); a tournament's round shares one
                seed=secrets.randbits(128) if seed is None else seed,
                dealer=secrets.randbelow(rules.players) if dealer is None else dealer,
                options=options,
                host=host,
                status="waiting",
                created=time.time(),
                close_unstarted=close_unstarted,
            )
            created = {"kind": kind, "mode": mode, "preset": rules.name, "host": host}
            self.codes[code] = row.id
            self.creating.add(row.id)
            try:
                await self.storage.create_table(row, [EventRow(1, "create", created, time.time())])
            except StorageError:
                del self.codes[code]
                if attempt == 4:
                    raise
                continue
            finally:
                self.creating.discard(row.id)
            table = Table(self, row, config=self.config, clock=self.clock, storage=self.storage)
            table.apply(1, "create", created)
            self._add(table)
            table.start_actor()
            return table
        raise TableError("busy")

    async def _table(self, table_id: str, conn: Conn | None = None, by_code: bool = False) -> Table:
        """The table ``table_id`` (loaded when it is stored and may be), or why not.
        ``by_code``: found by a room's code (:meth:`_by_code`): once the match is over, it
        opens only to its players and its host; anyone else is told so (``match_over``,
        without the table's id or its record's address)."""
        table = await self._table_at(table_id, conn, by_code)
        if by_code and table.status == "over":  # (in memory: over just now, or looked at)
            pid = conn.player.id if conn is not None and conn.player else None
            if pid is None or (table.seat_of(pid) is None and pid != table.host):
                raise TableError("match_over", "match_over_code", {"code": table.code})
        return table

    async def _table_at(self, table_id: str, conn: Conn | None, by_code: bool) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        pid = conn.player.id if conn is not None and conn.player else None
        # the row, and for a finished match whether the asker sat there, before any event is
        # read: someone who never sat there is answered from them alone, without the lock
        glance = await self.storage.glance(table_id, pid) if len(table_id) <= 32 else None
        if glance is None:
            raise TableError("no_table", params={"table": table_id})
        if glance.status == "over" and not glance.sat:
            # (a bot's seat has no player: None sat at every table with a bot)
            self._not_theirs(glance.id, glance.code, glance.kind, glance.seed, by_code)
        if glance.status == "closed":
            # (a story table is closed only when its player starts it over)
            why = "story_closed" if "story" in glance.options else "closed"
            raise TableError("no_table", why, {"table": glance.code})
        if glance.status not in ("over", "adjourned"):  # in play elsewhere, or not yet here
            raise TableError("no_table", params={"table": table_id})
        async with self._load_lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            stored = await self.storage.table(table_id)
            if stored is not None and stored[0].status == "over":
                # one of its players (the glance said so): it opens again, to be looked at
                row, events = stored
                table = self._open_finished(row, events)
                if table is not None:
                    return table
                self._not_theirs(row.id, row.code, row.kind, row.seed, by_code)
            if stored is not None and stored[0].status == "adjourned":
                table = self._load(stored[0], stored[1], 0.0)  # put away earlier: back
                if table is not None:
                    return table
                await self.refund_unrebuilt(stored[0])
            raise TableError("no_table", params={"table": table_id})

    def _not_theirs(
        self, table_id: str, code: str, kind: str, seed: int, by_code: bool
    ) -> NoReturn:
        """Refuse a finished match's table that does not open (to someone who never sat there,
        or that could not be rebuilt): by its code, ``match_over`` and no more (see
        :meth:`_by_code`); a private one by its id, as if there were none (it is kept to its
        players); a public one by its id, ``match_over`` with its record's address."""
        if by_code:  # (the code is the asker's own: said back, it tells nothing new)
            raise TableError("match_over", "match_over_code", {"code": code})
        if kind == "private":
            raise TableError("no_table", params={"table": table_id})
        url = self.config.base_url + record_path(table_id, kind, seed)
        raise TableError("match_over", "match_over_record", {"url": url})

    async def on_quick(self, conn: Conn, msg: dict[str, Any]) -> None:
        player_of(conn)  # refused if closed or logged out since it asked
        mode = msg["mode"]
        if mode not in MODES:
            raise TableError("bad_mode", params={"mode": mode, "modes": list(MODES)})
        # one at a time per mode: people arriving together fill the same forming table
        # (without this, each made a table of its own while the first one was being stored),
        # and nobody gets two seats by asking twice at once
        lock = self._quick_locks.setdefault(mode, asyncio.Lock())
        async with lock:
            await self._quick_seat(conn, mode, msg)

    async def _quick_seat(self, conn: Conn, mode: str, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        stake = int(msg.get("stake") or 0)
        self.check_stake(stake)
        pid = player.id
        for t in self.tables.values():
            if (
                t.kind == "public"
                and t.mode == mode
                and t.stake == stake
                and t.status != "over"
                and t.seat_of(pid) is not None
            ):
                await self._join(conn, t, None, False, None, msg.get("ref"))
                return
        if stake:
            await self.chips_can_sit(player, stake)
        key = forming_key(mode, stake)
        for _ in range(5):
            table_id = self.forming.get(key)
            table = self.tables.get(table_id) if table_id else None
            if table is None or table.status != "waiting" or not table.free_seats():
                rules = Rules.preset(MODES[mode])
                if self.config.quick_deals:
                    rules = rules.replace(deals=self.config.quick_deals, target_score=None)
                options: dict[str, Any] = {"bots": True, "show_bots": not self.config.hide_bots}
                if stake:
                    options["stake"] = stake
                table = await self.new_table(
                    kind="public", mode=mode, rules=rules, options=options, host=None
                )
                self.forming[key] = table.id
            try:
                await self._join(conn, table, None, False, None, msg.get("ref"))
                return
            except TableError as e:
                if e.code not in ("full", "started"):
                    raise
                if self.forming.get(key) == table.id:
                    del self.forming[key]
        raise TableError("busy", "busy_seat")

    async def on_create(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        rules = create_rules(msg)
        seat = msg.get("seat")
        if seat is not None and seat >= rules.players:
            raise TableError("bad_seat", params={"last": rules.players - 1})
        level = msg.get("bot_level")
        if level is not None and level not in BOT_LEVELS:
            raise TableError("bad_rules", "bad_bot_level", {"levels": ", ".join(BOT_LEVELS)})
        options = {
            "bots": msg.get("bots", True),
            "show_bots": msg.get("show_bots", True),
            "decision_seconds": msg.get("decision_seconds"),
            "bot_level": level,
            "trick_pause_ms": msg.get("trick_pause_ms"),
            "deal_pause_ms": msg.get("deal_pause_ms"),
        }
        stake = int(msg.get("stake") or 0)
        if stake:
            self.check_stake(stake)
            await self.chips_can_sit(player, stake)
            options["stake"] = stake
        room_limits(rules.to_dict() | options)
        kind = "public" if msg.get("public") else "private"
        self._room_allowed(conn)
        table = await self.new_table(
            kind=kind, mode=None, rules=rules, options=options, host=player.id
        )
        table.address = conn.address
        conn.send(
            {
                "type": "created",
                "table": table.id,
                "code": table.code,
                "invite": f"{self.config.base_url}/join/{table.code}",
                **({"ref": msg["ref"]} if msg.get("ref") is not None else {}),
            }
        )
        await self._join(conn, table, seat, False, None, msg.get("ref"))

    def _room_allowed(self, conn: Conn) -> None:
        """Quotas on rooms not yet started (per player and per address) and the rate of
        ``create`` (per player and per address)."""
        player = player_of(conn)
        cfg = self.config
        pid, address = player.id, conn.address
        mine = theirs = 0
        for t in self.tables.values():  # rooms waiting with their host still there
            if t.host is not None and t.status == "waiting" and t.seat_of(t.host) is not None:
                mine += t.host == pid
                theirs += bool(address) and t.address == address
        limit = cfg.rooms_per_account if player.account else cfg.rooms_per_guest
        if mine >= limit:  # ("a room", not "1 rooms")
            key = "room_quota_one" if limit == 1 else "room_quota"
            raise TableError("room_quota", key, {"limit": limit})
        if theirs >= cfg.rooms_per_address:
            one = cfg.rooms_per_address == 1
            key = "room_quota_address_one" if one else "room_quota_address"
            raise TableError("room_quota", key, {"limit": cfg.rooms_per_address})
        now = self.clock.now()
        rates = ((self.create_rate, pid), (self.create_rate_address, address))
        wait = max(rate.wait(key, now) for rate, key in rates)
        if wait > 0:  # (a refused request takes nothing from either)
            seconds = math.ceil(wait)
            raise TableError("create_rate", params={"seconds": seconds}, retry_after=seconds)
        for rate, key in rates:
            rate.take(key, now)

    def code_checks(self, conn: Conn) -> tuple[tuple[Lockout, str], tuple[Lockout, str]]:
        """The lockouts a room code's look-up passes (the player's, the address's); refused
        (``locked``) while one of them holds. A cluster's router asks before it looks a code
        up: a right code must not be told from a wrong one while locked."""
        checks = ((self.code_fails, player_of(conn).id), (self.code_fails_address, conn.address))
        self._locked(*checks)
        return checks

    async def _by_code(self, conn: Conn, code: str) -> str:
        """The table a room's code opens, or ``no_table``; a code that opens nothing counts
        against the player and the address (codes are not to be guessed). The code of a room
        whose match is over is no wrong guess (a watcher back after the end asks with it): its
        table is returned, which :meth:`_table` (``by_code``) opens to its players only, and
        to anyone else answers ``match_over``. That tells a guesser that the code was a room's
        once, nothing more (no table id, name or record): a code is never given to another
        table, so it opens nothing now nor later, and guesses that land on finished rooms bring
        a guesser no nearer to a live one, while every miss still counts."""
        code = code.strip().upper()
        checks = self.code_checks(conn)
        table_id = self.codes.get(code)
        if table_id is None:
            found = await self.storage.table_by_code(code)
            if found is None:  # unknown
                now = self.clock.now()
                for lock, key in checks:
                    lock.fail(key, now)
                raise TableError("no_table", "no_code", {"code": code})
            table_id = found[0]
        return table_id

    async def on_room(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A room seen by its code before sitting down (an invitation's page): its table,
        rules, length, clock, stake and who sits there (:meth:`Table.preview`)."""
        table = await self._table(await self._by_code(conn, msg["code"]), conn, by_code=True)
        code = msg["code"].strip().upper()
        self._reply(conn, {"type": "room", "code": code, "room": table.preview()}, msg.get("ref"))

    async def on_join(self, conn: Conn, msg: dict[str, Any]) -> None:
        player_of(conn)
        table_id = msg.get("table")
        code = msg.get("code")
        by_code = False
        if code:
            table_id = await self._by_code(conn, code)
            by_code = True  # an adjourned room comes back; a closed one: _table says so
        if not table_id:
            raise TableError("bad_message", "join_what")
        try:
            table = await self._table(table_id, conn, by_code=by_code)
            await self._join(
                conn,
                table,
                msg.get("seat"),
                bool(msg.get("spectate")),
                msg.get("since"),
                msg.get("ref"),
                by_code=by_code,
            )
        except TableError as e:
            # the refusal of a join by the table's id names that table (``table``): an answer
            # that comes late, once a page has moved on to another table, is not about that
            # one. (A join by a room's code names nothing more than the code it was given.)
            if not by_code:
                e.extra.setdefault("table", table_id)
            raise

    async def _join(
        self,
        conn: Conn,
        table: Table,
        seat: int | None,
        spectate: bool,
        since: int | None,
        ref: Any,
        *,
        by_code: bool = True,
    ) -> None:
        """Sit or watch (``by_code``: the player came with the room's code or was let in by
        the server: a private room opens by its id only to those it knows)."""
        player = player_of(conn)
        if player.level is None and not spectate:
            try:
                player.level = (await self.progress.levels([player.id]))[player.id]
            except StorageError as e:  # the seat is taken all the same, without the level
                log.warning("could not read the level of %s: %s", player.id, e)
        await self.stored_award(table, player.id)
        await self.tournaments.seated(table.id)
        sat = await table.call(lambda: table.join(conn, seat, spectate, since, ref, by_code))
        if sat is not None and not player.played:
            try:
                await self.storage.mark_played(player.id)
            except StorageError as e:  # the seat is taken all the same; marked next time
                log.warning("could not mark %s as having played: %s", player.id, e)
            else:
                player.played = True

    async def stored_award(self, table: Table, pid: str) -> None:
        """What a person who sat at a finished table got from it, read back from storage for
        the ``sync`` they are about to get, when the table does not hold it: a match opened
        again from the saved games, or one whose award this process did not see (kept in
        ``table.awards``; nothing when none was stored yet)."""
        if table.status != "over" or table.match is None or pid in table.awards:
            return
        if table.seat_of(pid) is None:
            return
        try:
            info = await self.progress.award_of(table.id, table.match, pid)
        except StorageError as e:  # the sync goes all the same, without it
            log.warning("could not read what %s got at %s: %s", pid, table.id, e)
            return
        if info is not None:
            table.awards.setdefault(pid, info)

    async def on_sync(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"], conn)
        await self._join(conn, table, None, False, msg.get("since"), msg.get("ref"), by_code=False)

    async def on_start(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.start_by_host(conn))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))

    async def on_adjourn(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.adjourn(conn))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))

    async def on_move(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A move goes to its table's actor and this connection reads on: its ``ack`` or event
        comes from the table, and a refusal from :meth:`refused` (as :meth:`handle` would have
        sent it). The table's actor takes requests in order, so anything the client says next
        about the table is handled after the move."""
        table = await self._table(msg["table"])
        ref = msg.get("ref")
        table.request(
            lambda: table.move(conn, msg),
            lambda e: self.refused(conn, e, ref, msg.get("type")),
        )

    def refused(self, conn: Conn, e: Exception, ref: Any, kind: Any) -> None:
        """Tell ``conn`` that its request failed: a table's or the storage's refusal as such,
        anything else (a bug) logged and answered ``internal``. :meth:`handle`, the socket's
        reader for what escapes it, and a posted move's callback all answer through here."""
        if isinstance(e, TableError):
            conn.send(error(e.code, e.text(conn.lang), ref, **e.extra))
        elif isinstance(e, StorageError):
            log.error("storage: %s", e)
            conn.send(error("storage", i18n.text("server.storage", conn.lang), ref))
        else:
            log.error("error handling %s", kind, exc_info=e)
            conn.send(error("internal", i18n.text("server.internal", conn.lang), ref))

    async def on_hint(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        _seat, version, view = await table.call(lambda: table.hint_view(conn))
        seed = (table.row.seed ^ (version * 0x9E3779B1)) & 0x7FFFFFFF
        out = await asyncio.to_thread(_hint, view, conn.lang, seed)
        self._reply(conn, {"type": "hint", "table": table.id, "v": version, **out}, msg.get("ref"))

    async def on_review(self, conn: Conn, msg: dict[str, Any]) -> None:
        """The deal review (batak.bots.review) of a finished deal, solved in a worker process
        with a time limit, never in the server's process (a search takes a core and memory,
        and must not starve the event loop); a busy worker refuses with ``busy`` rather than
        queue without end, and a deal once reviewed is kept in a small cache (only the
        sentences differ between askers: their language and their seat)."""
        table = await self._table(msg["table"])
        deal = int(msg["deal"])
        game, names, you = await table.call(lambda: table.review_game(conn, deal))
        key = (table.id, deal)
        review = self._reviews.get(key)
        seconds = self.config.review_seconds
        if review is None:
            fut = self._reviews_under_way.get(key)  # asked again (a reconnect, another player)
            if fut is None:
                if self._reviews_running >= self.config.review_workers + self.config.review_queue:
                    raise TableError("busy", "review_busy")
                self._reviews_running += 1
                fut = asyncio.get_running_loop().run_in_executor(
                    self._review_workers(), functools.partial(_review, _deal_data(game), seconds)
                )
                self._reviews_under_way[key] = fut
                fut.add_done_callback(functools.partial(self._review_done, key))
            try:
                # the review stops itself after ``seconds``, but only between two cards: if one
                # card takes long (a hard 13-card position on a busy machine), the reply goes
                # out without the cards, and the worker finishes alone
                data = await asyncio.wait_for(asyncio.shield(fut), seconds + REVIEW_GRACE)
            except TimeoutError:
                data = {"decisions": [], "bidding": [], "complete": False}
            review = _review_from(data)
        out = _review_reply(review, names, conn.lang, you)
        self._reply(
            conn, {"type": "review", "table": table.id, "deal": deal, **out}, msg.get("ref")
        )

    def _review_workers(self) -> ProcessPoolExecutor:
        """The review worker processes (:func:`review_pool`), started at the first review."""
        if self._review_pool is None:
            self._review_pool = review_pool(self.config.review_workers)
        return self._review_pool

    def _review_done(self, key: tuple[str, int], fut: asyncio.Future[Any]) -> None:
        """A review worker finished: free its place, keep what it found."""
        self._reviews_running -= 1
        self._reviews_under_way.pop(key, None)
        if fut.cancelled() or fut.exception() is not None:
            return
        self._reviews[key] = _review_from(fut.result())
        while len(self._reviews) > REVIEW_CACHE:
            self._reviews.pop(next(iter(self._reviews)))

    async def on_chat(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.chat(conn, msg["text"]))

    async def on_react(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.react(conn, msg["reaction"]))

    async def _waiting_room_of_host(self, conn: Conn, msg: dict[str, Any]) -> tuple[Table, Player]:
        """The table of ``msg``, which must wait for players, and its host asking (else refused:
        ``not_host_invite``, ``started``), for ``invite`` and ``invitable``."""
        table = await self._table(msg["table"])
        player = player_of(conn)
        if player.id != table.host:
            raise TableError("not_host_invite")
        if table.status != "waiting":
            raise TableError("started")
        return table, player

    async def on_invite(self, conn: Conn, msg: dict[str, Any]) -> None:
        """The host of a room that waits for players invites an account by its username: each
        of that player's connections gets ``invited`` with the room's code (how bot accounts,
        and friends who are online, are asked to a table)."""
        table, player = await self._waiting_room_of_host(conn, msg)
        row = await self.storage.player_by("username", msg["username"])
        conns = self.online.get(row.id, set()) if row is not None else set()
        elsewhere = False  # in a cluster: connected to another process
        if row is not None and self.cluster is not None:
            elsewhere = await self.cluster.online_elsewhere(row.id)
        if row is None or not (conns or elsewhere):
            raise TableError("not_online", params={"username": msg["username"]})
        if table.seat_of(row.id) is not None:  # (inviting them said they would sit down)
            raise TableError("already_seated", params={"username": msg["username"]})
        if row.is_bot and "playing" in (await self._bot_tables(row.id)).values():
            # a bot plays one match at a time: asked while it plays, it would come only after
            # that match (the room perhaps started meanwhile), and the host would not know why;
            # in a cluster, at a table of any process
            raise TableError("bot_busy", params={"username": msg["username"]})
        note = {
            "type": "invited",
            "table": table.id,
            "code": table.code,
            "from": player.name,
            "preset": table.rules.name,
        }
        self.tell_invited(row.id, note)
        if elsewhere and self.cluster is not None:
            self.cluster.invited(row.id, note)
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))

    def tell_invited(self, player: str, note: dict[str, Any]) -> None:
        """An invitation to ``player``'s connections here, each in its reader's words (a guest
        host named in their language); also for an invitation from another process."""
        for conn in list(self.online.get(player, ())):
            conn.send(invitation_for(note, conn.lang))

    def bot_accounts_online(self) -> list[dict[str, Any]]:
        """The bot accounts connected to this process (``id``, ``username``, ``name``)."""
        out = []
        for pid, conns in self.online.items():
            player = next((c.player for c in conns if c.player is not None), None)
            if player is not None and player.bot_account and player.account:
                out.append({"id": pid, "username": player.account, "name": player.name})
        return out

    async def on_invitable(self, conn: Conn, msg: dict[str, Any]) -> None:
        """The host of a room that waits for players asks which bot accounts it could invite:
        those online (in a cluster, on any process), by name, at most :data:`INVITABLE_MAX`."""
        table, _ = await self._waiting_room_of_host(conn, msg)
        seated = {s.player for s in table.seats if s.player}
        found = self.bot_accounts_online()
        if self.cluster is not None:
            found += await self.cluster.bots_elsewhere()
        bots: dict[str, dict[str, Any]] = {}  # one each, if connected to several processes
        for b in found:
            if b["id"] not in seated:
                bots[b["username"]] = {"username": b["username"], "name": b["name"]}
        listed = sorted(bots.values(), key=lambda b: (b["name"].casefold(), b["username"]))
        self._reply(
            conn,
            {"type": "invitable", "table": table.id, "bots": listed[:INVITABLE_MAX]},
            msg.get("ref"),
        )

    async def on_leave(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        here = bool(msg.get("here"))
        await table.call(lambda: table.leave(conn, here))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))

    async def on_rematch(self, conn: Conn, msg: dict[str, Any]) -> None:
        """After the match: ask for (or agree to, or with ``accept`` false refuse) a rematch
        with the same seats and options; see :meth:`Table.rematch`."""
        table = await self._table(msg["table"])
        await table.call(lambda: table.rematch(conn, msg.get("accept", True)))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))


def password_hasher(config: ServerConfig) -> Any:
    """The argon2 hasher of accounts' passwords with the server's parameters (the server's and
    ``batak admin password``'s); ImportError without argon2-cffi."""
    from argon2 import PasswordHasher

    return PasswordHasher(
        time_cost=config.argon2_time_cost, memory_cost=config.argon2_memory_kib, parallelism=1
    )


#: The most bot accounts an ``invitable`` reply lists.
INVITABLE_MAX = 20
#: seconds within which the server drops a connection that died unnoticed (its keepalive ping
#: every 20 s and 20 s for the pong), said to a second program logging in to a bot account
BOT_ONLINE_WAIT = 45

#: The bot levels a room may ask for.
BOT_LEVELS: tuple[str, ...] = LEVELS


def forming_key(mode: str, stake: int) -> str:
    """The quick-play salon a forming table belongs to: its mode, and its stake if any."""
    return f"{mode}:{stake}" if stake else mode


def create_rules(msg: dict[str, Any]) -> Rules:
    """A ``create`` message's table: its preset with its ``rules``, ``deals`` and
    ``target_score``, validated by the engine (a ``bad_rules`` :class:`TableError` if refused).
    The private-room form offers only what this takes (``GET /api/rules/form``: each
    preset's, from :func:`batak.explain.form_choices`)."""
    preset = msg.get("preset") or "standard"
    if preset not in PRESETS:
        raise TableError("bad_rules", "bad_preset", {"preset": preset, "presets": list(PRESETS)})
    changes: dict[str, Any] = dict(msg.get("rules") or {})
    if "deals" in msg:
        changes["deals"] = msg["deals"]
        if msg["deals"] is not None and "tie" not in changes and "target_score" not in msg:
            changes["target_score"] = None
    if "target_score" in msg:
        changes["target_score"] = msg["target_score"]
    changes.pop("name", None)
    try:
        rules = Rules.preset(preset, **changes)
    except RulesError as e:
        raise TableError("bad_rules", params={"detail": e}) from None
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise TableError("bad_rules", params={"detail": str(e)}) from None
    return rules


def room_limits(options: dict[str, Any]) -> None:
    """Refuse a room whose options are out of :data:`ROOM_LIMITS`: one check for the options a
    room would get, whether they came from ``create``'s own fields or its ``rules`` object."""
    for name, (low, high) in ROOM_LIMITS.items():
        value = options.get(name)
        if value is not None and not low <= value <= high:
            raise TableError("bad_rules", "option_limit", {"name": name, "low": low, "high": high})


#: Deal reviews kept in memory (per table and deal).
REVIEW_CACHE = 64
#: Seconds past ``review_seconds`` after which a review is answered with what is done.
REVIEW_GRACE = 5.0


def _deal_data(game: Any) -> dict[str, Any]:
    """A finished deal as plain data for a worker process: the table, the cards, the moves."""
    return {
        "rules": game.rules.to_dict(),
        "hands": [[str(c) for c in h] for h in game.initial_hands],
        "kitty": [str(c) for c in game.initial_kitty],
        "dealer": game.dealer,
        "moves": [str(m) for m in game.history],
    }


def review_pool(workers: int) -> ProcessPoolExecutor:
    """The review worker processes: spawned (the server's threads and sockets are not copied
    into them), each ending with the server that started it, even one killed
    (:func:`batak.bots.workers.end_with_parent`)."""
    return ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=end_with_parent,
    )


def _review(data: dict[str, Any], seconds: float) -> dict[str, Any]:
    """A finished deal's review, in a worker process: plain data back."""
    from ..bots.review import review_deal
    from ..game import Game

    g = Game(
        Rules.from_dict(data["rules"]),
        hands=[" ".join(h) for h in data["hands"]],
        kitty=" ".join(data["kitty"]) or None,
        dealer=data["dealer"],
    )
    for move in data["moves"]:
        g.play(move)
    review = review_deal(g, seconds=seconds)
    return {
        "decisions": [dataclasses.asdict(d) for d in review.decisions],
        "bidding": [dataclasses.asdict(b) for b in review.bidding],
        "complete": review.complete,
    }


def _review_from(data: dict[str, Any]) -> Any:
    from ..bots.review import BidWorth, CardDecision, DealReview

    return DealReview(
        [
            CardDecision(
                **{
                    **d,
                    "best_cards": tuple(d["best_cards"]),
                    "defence_best_cards": tuple(d.get("defence_best_cards", ())),
                }
            )
            for d in data["decisions"]
        ],
        [BidWorth(**b) for b in data["bidding"]],
        data["complete"],
    )


def _review_reply(review: Any, names: list[str], lang: str, you: int | None) -> dict[str, Any]:
    """The ``review`` reply's fields for one asker (its language, its seat spoken to)."""
    from ..bots.review import card_label, summary_lines

    if review.complete or review.decisions or review.bidding:
        lines = summary_lines(review, names, lang, you=you, limit=5)
    else:  # the time limit passed before the first card: say only that
        lines = [i18n.text("review.incomplete", lang)]
    return {
        "complete": review.complete,
        "lines": lines,
        "names": names,
        "bidding": [
            {
                "seat": b.seat,
                "bid": b.bid,
                "worth": dict(b.worth),
                "trump": b.trump,
                "taken": b.taken,
                "given": b.given,
            }
            for b in review.bidding
        ],
        "decisions": [
            {
                "trick": d.trick,
                "seat": d.seat,
                "card": d.card,
                "label": card_label(d.card),
                "value": d.value,
                "best": d.best,
                "best_cards": list(d.best_cards),
                "cost": d.cost,
                "defence_value": d.defence_value,
                "defence_best": d.defence_best,
                "defence_best_cards": list(d.defence_best_cards),
                "defence_cost": d.defence_cost,
                "hinted": d.hinted,
            }
            for d in review.decisions
        ],
    }


#: View phases in which a hint carries the hand's trick estimate per koz choice.
ESTIMATE_PHASES = frozenset({"bidding", "trump"})


def _hint(view: dict[str, Any], lang: str, seed: int) -> dict[str, Any]:
    """The ``hint`` reply's fields for a seat's own view (runs in a worker thread)."""
    from ..bots.teach import estimate, hint

    h = hint(view, lang=lang, seed=seed)
    est: dict[str, float] | None = None
    if view.get("phase") in ESTIMATE_PHASES:
        est = {k: round(float(x), 1) for k, x in estimate(view).items()}
    return {"move": str(parse_move(h.move)), "reason": h.reason, "estimate": est}
