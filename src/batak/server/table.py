"""A table: one asyncio task (the actor) owns the match and applies everything in order.

Every change is an event with the next version number. An event is written to storage before it
is applied, acknowledged or sent, so what a client saw acknowledged survives a crash; on start the
server rebuilds each table by applying its stored events again through the same code. Each
subscriber gets the event filtered for its seat and, when the game changed, its seat's view
(``Match.view(seat)``; spectators get ``view(None)``), which is the only game data that leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .. import i18n
from ..game import IllegalMove
from ..match import DealCards, Match, first_dealer
from ..moves import parse_move
from ..record import dump_match
from ..rules import Rules
from ..view import kitty_of
from . import chips, fair
from .bots import ServerBot, make_bot
from .clock import Clock
from .config import ServerConfig
from .conn import Bucket, Conn, Inbox, Player
from .erase import scrub_line
from .progress import Sitter
from .protocol import REACTIONS, dumps
from .storage import EventRow, Storage, StorageError, TableRow

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Seat", "Table", "TableError", "record_key", "record_path"]

log = logging.getLogger("batak.server")
T = TypeVar("T")

#: Events that change the game or the seating: a move made before one of them is stale.
STATE_EVENTS = frozenset({"sit", "stand", "start", "move", "away", "back", "adjourn", "resume"})
MOVE_IDS_KEPT = 256
#: Chat lines a table keeps and sends with every sync, so that a reload or a spectator sees the
#: conversation (the lines are events in the table's log, so they survive a restart too).
CHAT_KEPT = 50


class TableError(Exception):
    """A request the table refuses: ``code`` for programs, :meth:`text` for people.

    The words are ``batak.i18n`` message ``server.KEY`` (``key`` defaults to the code) filled in
    with ``params``, in the language of the connection that reads them; ``message`` gives words
    already chosen (the engine's own reasons). ``extra`` goes into the error message as fields.
    """

    def __init__(
        self,
        code: str,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
        *,
        message: str | None = None,
        **extra: Any,
    ) -> None:
        self.code = code
        self.key = key or code
        self.params = dict(params or {})
        self.message = message
        self.extra = extra
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The reason in ``lang``; a parameter that can say itself in a language (an engine
        error such as :class:`~batak.rules.RulesError`) is said in ``lang`` too."""
        if self.message is not None:
            return self.message
        params = {
            k: v.text(lang) if callable(getattr(v, "text", None)) else v
            for k, v in self.params.items()
        }
        return i18n.text(f"server.{self.key}", lang, **params)


def player_of(conn: Conn) -> Player:
    """The player ``conn`` speaks for. A request that waited (in a table's queue, for a lock or
    the database) while its connection closed or logged out is refused with ``hello_first`` and
    changes nothing; one that goes on after an ``await`` keeps acting for the player who asked."""
    if conn.player is None:
        raise TableError("hello_first")
    return conn.player


#: Names for bots at tables that do not label them (people's names, Turkish).
BOT_NAMES = (
    "Ahmet", "Elif", "Mehmet", "Zeynep", "Mustafa", "Ayşe", "Emre", "Fatma", "Can", "Selin",
    "Murat", "Deniz", "Hakan", "Merve", "Kemal", "Ece", "Burak", "Derya", "Serkan", "Gül",
)  # fmt: skip


@dataclass
class Seat:
    player: str | None = None  # player id of the person sitting here
    name: str = ""
    bot: str | None = None  # a bot sits here for the whole match (its level)
    away: bool = False  # the person is gone and a bot plays for them
    bot_account: bool = False  # the player here is a bot account (someone's program)
    level: int | None = None  # the person's level (XP) when they sat down
    conns: set[Conn] = field(default_factory=set)
    hold_task: asyncio.Task[None] | None = None
    hold_until: float | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None

    @property
    def botted(self) -> bool:
        return self.bot is not None or self.away

    @property
    def removed(self) -> bool:
        """The player here erased their account (server/erase.py): no name is kept."""
        return self.player is not None and not self.name


class Table:
    """The actor of one table (see the module's text)."""

    def __init__(
        self, hub: Hub, row: TableRow, *, config: ServerConfig, clock: Clock, storage: Storage
    ) -> None:
        self.hub = hub
        self.row = row
        self.id = row.id
        self.code = row.code
        self.kind = row.kind
        self.mode = row.mode
        self.rules = Rules.from_dict(row.rules)
        self.options = row.options
        self.host = row.host
        self.config = config
        self.clock = clock
        self.storage = storage
        self.status = "waiting"
        self.version = 0
        self.state_version = 0
        n = self.rules.players
        self.seats = [Seat() for _ in range(n)]
        self.match: Match | None = None
        self.sit_order: list[int] = []  # seats in the order they were taken (first_dealer)
        self.buffer: deque[tuple[int, str, dict[str, Any]]] = deque(maxlen=config.event_buffer)
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.move_ids: list[OrderedDict[str, int]] = [OrderedDict() for _ in range(n)]
        self.subs: dict[Conn, int | None] = {}
        self.decision_seconds = float(options_get(row.options, "decision_seconds", config))
        #: the pacing of the table (options ``trick_pause_ms`` and ``deal_pause_ms``, else the
        #: server's): a finished trick, and a finished deal's result, stay in view this long
        #: before the next decision starts (its clock starts as much later, so no second of a
        #: person's time is lost while they look)
        self.trick_pause = _pause(row.options, "trick_pause", config)
        self.deal_pause = _pause(row.options, "deal_pause", config)
        self._think = random.Random()
        self.bank: list[float] = [config.bank_seconds] * n
        self.deadline: float | None = None
        self.decision_seat: int | None = None
        self._epoch = 0
        #: the decision's clock (the table's _Alarm, or a task with a clock that has no call_at) or
        #: a bot's turn (a task)
        self._timer: asyncio.Task[None] | _Alarm | None = None
        self._alarm: _Alarm | None = None  # the decision clock's timer, kept (see _Alarm)
        self._fill_task: asyncio.Task[None] | None = None
        #: (job, the caller's future (or its _Failed: Table.request) or None for timers, how
        #: many times a timer job failed)
        self._inbox: Inbox[
            tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | _Failed | None, int]
        ] = Inbox()
        self._retries: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, ServerBot] = {}
        self._chat_buckets: dict[str, Bucket] = {}
        self._hint_buckets: dict[str, Bucket] = {}
        self._watchers_told = 0  # the number of watchers the table was last told
        self.last_activity = clock.now()  # the last event, or the last (un)subscription
        self.finished = False
        # a finished match opened again from storage, to look at (Hub._open_finished): nothing
        # in it changes any more (no chat, no rematch)
        self.archived = False
        self.gone = False  # closed or put away: the hub no longer holds it
        self.address = ""  # the network address its host made it from (room quotas)
        self.others_came = False  # anyone but the host ever sat or watched here
        self.admitted: set[str] = set()  # players who came with the code (or were seated)
        # players who stood up before the start (and did not come back with the code since):
        # a private room's finished match is not theirs to open
        self.stood_up: set[str] = set()
        self.scripted_deals: list[DealCards] = []  # the story mode's test hook (not stored)
        self.bot_moves = [0] * n  # moves a bot made for a person who was away, by seat
        self.own_moves = [0] * n  # moves a person made themselves (not the clock, not a bot)
        self.seat_moves = [0] * n  # every move made at a seat, by whoever made it
        self.stake = int(row.options.get("stake") or 0)  # chips each person puts in (issue 12)
        self.payout: dict[str, Any] | None = None  # the staked match's settlement, once paid
        #: what each person got from the finished match (XP, rating, league points: the
        #: ``awarded`` message's fields), by player id: kept when it was awarded, or read back
        #: from storage (Hub.stored_award) for a ``sync`` after a reload; a seat's ``sync``
        #: carries its own person's only
        self.awards: dict[str, dict[str, Any]] = {}
        #: a rematch asked for after the match (memory only): the seats that said yes, and
        #: the new table once everyone did
        self.rematch_yes: set[int] = set()
        # the seat whose person said no to a rematch (or left), until they say yes: told to
        # whoever asks for one afterwards, at once (the asker waited for them in vain)
        self.rematch_no: set[int] = set()
        # seats whose no was their chips falling short of the stake (said so at each telling)
        self.rematch_short: set[int] = set()
        self.rematch_table: str | None = None

    # ------------------------------------------------------------------ the actor
    def start_actor(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def _run(self) -> None:
        inbox = self._inbox
        fn: Callable[[], Awaitable[Any]] | None
        fut: asyncio.Future[Any] | _Failed | None
        result: Any = None
        while True:
            if inbox.empty():
                # the last request (its closures, its connection, its answer) is not kept for
                # the seconds the table waits: freed now, not walked by the garbage collector
                fn = fut = result = None
                await inbox.wait()  # a bare future: no coroutine kept while the table waits
                continue
            fn, fut, failed = inbox.get_nowait()
            if self.gone:  # put away: nothing more happens here
                if fut is not None and not fut.done():
                    fut.set_exception(TableError("no_table", "gone", {"table": self.id}))
                continue
            try:
                result = await fn()
            except Exception as e:
                if getattr(e, "fenced", False) and self.hub.cluster is not None:
                    self.hub.cluster.fenced(self)  # another process owns the table now
                if fut is not None and not fut.done():
                    fut.set_exception(e)  # a request: its sender hears of it
                elif isinstance(e, StorageError):
                    self._retry_later(fn, failed + 1, e)  # a bot, a clock: must not stall
                elif not isinstance(e, TableError):
                    log.exception("table %s: error in a timer", self.id)
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` inside the actor, after everything queued before it."""
        if self.gone:
            raise TableError("no_table", "gone", {"table": self.id})
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait((fn, fut, 0))
        return await fut

    def post(self, fn: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``fn`` for the actor without waiting (timers use this)."""
        self._inbox.put_nowait((fn, None, 0))

    def request(
        self, fn: Callable[[], Awaitable[Any]], failed: Callable[[Exception], None]
    ) -> None:
        """Queue ``fn`` for the actor like :meth:`call`, without waiting for it: its caller goes
        on at once, and ``failed`` is called with the exception if ``fn`` raises (a move: the
        sender's connection reads its next message while the move is stored, and hears of a
        refusal through ``failed``). Saves the caller's wake-up after every move."""
        if self.gone:
            raise TableError("no_table", "gone", {"table": self.id})
        self._inbox.put_nowait((fn, _Failed(failed), 0))

    def _retry_later(self, fn: Callable[[], Awaitable[Any]], failed: int, err: Exception) -> None:
        """A timer's job (a bot's or a timeout's move, a bank step, a seat given to a bot, the
        start) could not be stored: nothing changed, so run it again after a pause that doubles
        each time (``retry_base`` up to ``retry_max`` seconds), for as long as it takes. The job
        checks again that it is still due when it runs."""
        delay = min(self.config.retry_max, self.config.retry_base * 2 ** (failed - 1))
        log.warning(
            "table %s: could not store (%s); trying again in %.2f s (failure %d)",
            self.id,
            err,
            delay,
            failed,
        )

        async def later() -> None:
            await asyncio.sleep(delay)
            self._inbox.put_nowait((fn, None, failed))

        task = asyncio.get_running_loop().create_task(later())
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def stop(self) -> None:
        if self._alarm is not None:
            self._alarm.close()
        tasks = [self._task, self._timer, self._fill_task, *(s.hold_task for s in self.seats)]
        for task in [*tasks, *self._retries]:
            if task is not None:
                task.cancel()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        while not self._inbox.empty():  # requests that came too late
            _, fut, _ = self._inbox.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(TableError("no_table", "gone", {"table": self.id}))

    def idle_for(self, now: float) -> float | None:
        """Seconds since anything happened here with nobody connected; None while anyone is."""
        if self.subs:
            return None
        return now - self.last_activity

    async def put_away(self, reason: str, idle: float) -> bool:
        """Inside the actor: close an abandoned waiting room (``reason`` ``abandoned``: stored
        as ``closed``) or unload an adjourned one (``unload``: it stays stored and comes back on
        request), if it is still so and idle for ``idle`` seconds. True if done."""
        quiet = self.idle_for(self.clock.now())
        if self.gone or quiet is None or quiet < idle:
            return False
        if reason == "abandoned":
            if self.status != "waiting" or self.kind != "private":
                return False
            await self.storage.set_status(self.id, "closed")
            self.status = "closed"
        elif self.status != "adjourned":
            return False
        self.gone = True
        log.info("table %s: %s after %.0f s with nobody there", self.id, reason, quiet)
        return True

    # ------------------------------------------------------------------ events
    def apply(self, version: int, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Apply one event (live or from storage). Returns the event as kept for resending."""
        ev = dict(data)
        ev["kind"] = kind
        n = self.rules.players
        if kind == "sit":
            seat = self.seats[data["seat"]]
            seat.player = data.get("player")
            if seat.player is not None:
                self.admitted.add(seat.player)
                if seat.player != self.host:
                    self.others_came = True
            seat.name = data["name"]
            seat.bot = data.get("bot")
            seat.bot_account = bool(data.get("bot_account"))
            seat.level = data.get("level")
            seat.away = False
            if data["seat"] in self.sit_order:
                self.sit_order.remove(data["seat"])
            self.sit_order.append(data["seat"])
        elif kind == "stand":
            if (leaving := self.seats[data["seat"]].player) is not None:
                self.stood_up.add(leaving)
            self.seats[data["seat"]] = Seat()
            if data["seat"] in self.sit_order:
                self.sit_order.remove(data["seat"])
            if data.get("host"):  # the host stood up: another person at the room hosts it
                self.host = data["host"]
        elif kind == "start":
            # the start event names the first dealer (older stored events do not: the lots)
            dealer = data.get("dealer", self.row.dealer)
            # a table started since issue 12 deals each deal from its own committed seed
            self.fair_deals = bool(data.get("fair"))
            self.match = Match(
                self.rules,
                seed=self.row.seed,
                dealer=dealer,
                deal_seed=self.deal_seed if self.fair_deals else None,
                deals=self.scripted_deals,
            )
            self.status = "playing"
            self.bank = [self.config.bank_seconds] * n
        elif kind == "move":
            match = self.match
            assert match is not None
            seat_no = data["seat"]
            games = len(match.games)
            match.play(data["move"], seat_no)
            self.seat_moves[seat_no] += 1
            if data.get("by") == "bot" and self.seats[seat_no].player is not None:
                self.bot_moves[seat_no] += 1
            elif data.get("by") == "player":
                self.own_moves[seat_no] += 1
            if data.get("id"):
                ids = self.move_ids[seat_no]
                ids[data["id"]] = version
                while len(ids) > MOVE_IDS_KEPT:
                    ids.popitem(last=False)
            if len(match.games) > games or match.over:
                finished = match.games[games - 1]
                row = match.sheet[-1]
                ev["deal_over"] = {
                    "deal": games,
                    "tricks": [t.to_dict() for t in finished.tricks],
                    "row": row.to_dict(),
                }
                if self.fair_deals:  # the deal's seed revealed, the next deal's committed
                    ev["deal_over"]["seed"] = self.deal_seed(games - 1)
                    ev["deal_over"]["commitment"] = self.commitment(games - 1)
                    if not match.over:
                        ev["deal_over"]["next_commitment"] = self.commitment(games)
            if match.over:
                self.status = "over"
                ev["over"] = {"totals": list(match.totals), "winners": list(match.winners)}
        elif kind == "bank":
            self.bank[data["seat"]] = float(data["left"])
        elif kind == "away":
            self.seats[data["seat"]].away = True
        elif kind == "back":
            self.seats[data["seat"]].away = False
        elif kind == "chat" and not data.get("removed"):  # (an erased account's: no words)
            self.chat_log.append(
                {
                    "v": version,
                    "seat": data.get("seat"),
                    "player": data.get("player"),
                    "name": data["name"],
                    "text": data["text"],
                }
            )
        elif kind == "adjourn":
            self.status = "adjourned"
        elif kind == "resume":
            self.status = "playing"
        self.version = version
        if kind in STATE_EVENTS:
            self.state_version = version
        self.buffer.append((version, kind, ev))
        return ev

    @property
    def hide_bots(self) -> bool:
        """The table's setting: bots are not labelled (Batak Sultan: "to keep the atmosphere
        of the table, bots are not individually labelled")."""
        return self.options.get("show_bots", True) is False

    def public_event(self, version: int, ev: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (a buried card is the bidder's secret; at a table
        that hides its bots, nothing tells a bot from a person)."""
        out = ev.copy()
        out.pop("id", None)
        out["v"] = version
        if self.hide_bots:
            if ev["kind"] == "sit":
                out.pop("bot", None)
                out.pop("player", None)
                out.pop("level", None)  # bots have none: a level would tell a person
            elif ev["kind"] in ("away", "back"):
                out = {"kind": "seat", "seat": ev["seat"], "v": version}
            elif ev["kind"] == "move" and ev.get("by") != "timeout":
                out.pop("by", None)
        if ev["kind"] == "start" and seat is not None:
            # the record's address (a private one's with its key) goes to the players once the
            # match begins, not to whoever sits in the room before and stands up again
            out["record"] = record_path(self.id, self.kind, self.row.seed)
        if ev["kind"] == "move":
            if ev["move"].startswith("bury") and seat != ev["seat"]:
                out["move"] = "bury"
            if seat == ev["seat"] and ev.get("id"):
                out["id"] = ev["id"]
        return out

    async def emit(
        self,
        kind: str,
        data: dict[str, Any],
        *,
        before: Callable[[int], None] | None = None,
        status: str | None = None,
        also: Callable[[Any], Any] | None = None,
        mover: tuple[Conn, Any] | None = None,
    ) -> int:
        """Store, apply, and send one event. Nothing changes if storing fails (nor what
        ``also`` wrote in the same transaction: a staked table's buy-in). ``mover``: the
        connection that sent the move (with its ``ref``) when its event is its acknowledgement
        (:meth:`_broadcast`)."""
        version = self.version + 1
        # a bot account sits or stands (the seat as it was before a stand): the other processes
        # of a cluster read where it sits (its welcome's tables, bot_busy), told at once below
        bot_seat = kind in ("sit", "stand") and (
            bool(data.get("bot_account")) or self.seats[data["seat"]].bot_account
        )
        rows = [EventRow(version, kind, data, time.time())]
        if also is None:
            await self.storage.append_events(self.id, rows, status)
        else:
            await self.storage.append_events(self.id, rows, status, also)
        ev = self.apply(version, kind, data)
        self.last_activity = self.clock.now()
        if (status is not None or bot_seat) and self.hub.cluster is not None:
            # a bot account's match started here, or its seat in a room came or went
            self.hub.cluster.bot_seats_changed(self, bot_account=bot_seat)
        if before is not None:
            before(version)
        if kind in STATE_EVENTS:
            self._after_change()  # first, so that the clock sent with the event is the new one
        self._broadcast(version, kind, ev, mover)
        return version

    def _broadcast(
        self,
        version: int,
        kind: str,
        ev: dict[str, Any],
        mover: tuple[Conn, Any] | None = None,
    ) -> None:
        """Send the event to every subscriber, each seat's text made once (see
        :meth:`event_texts`). The mover's connection (when it said ``ack_in_event``) gets its
        seat's text with the move's ``ref`` added, as the move's acknowledgement."""
        if not self.subs:
            return
        subs = list(self.subs.items())
        texts = self.event_texts(version, kind, ev, {seat for _, seat in subs})
        keyed: str | None = None  # a start as the room's host sees it from outside the seats
        for conn, seat in subs:
            text = texts[seat]
            if kind == "start" and seat is None and self.hosts(conn):
                # the host of a private room may always open it, seated or not (a host who
                # stood up, watched and started it): the record's address and key with it too
                if keyed is None:
                    record = {"record": record_path(self.id, self.kind, self.row.seed)}
                    keyed = self.event_texts(version, kind, ev | record, {None})[None]
                text = keyed
            if mover is not None and conn is mover[0] and mover[1] is not None:
                text = f'{text[:-1]},"ref":{dumps(mover[1])}}}'
            conn.send_text(text)

    def event_texts(
        self, version: int, kind: str, ev: dict[str, Any], seats: set[int | None]
    ) -> dict[int | None, str]:
        """The ``event`` message's JSON text for each of ``seats`` (None: spectators).

        What every seat gets alike (the clock, the status, the seats, the public view without
        the seat's own parts) is encoded once; each seat's text is that with its own parts
        (the event as it may see it, and its ``seat``, ``hand``, ``legal_moves``, ``buried``
        and ``kitty``: :func:`personal_view`) joined in. The text is the JSON of the same
        object as ``{"type": "event", ..., "view": slim_views(...)[seat]}`` (a test checks it
        in every preset)."""
        state = kind in STATE_EVENTS
        common: dict[str, Any] = {
            "type": "event",
            "table": self.id,
            "v": version,
            "clock": self.clock_info(),
        }
        if state:
            common["status"] = self.status
        if kind in ("sit", "stand", "away", "back", "start"):
            common["seats"] = self.seats_info()
        if self.stake and kind in ("start", "stand"):
            common["chips"] = self.chips_info()
        head = dumps(common)[:-1]  # the object left open
        match = self.match
        public: dict[str, Any] | None = None
        shared = ""
        if state and match is not None:
            public = public_view(match)
            common_view = public.copy()  # cheaper than a comprehension that leaves keys out
            for key in PERSONAL_KEYS:
                del common_view[key]
            shared = dumps(common_view)[:-1]
        texts: dict[int | None, str] = {}
        # the event is the same for every seat but the mover's (its move's id, a burial's
        # cards) and, at the start, the spectators' (no record's address): encoded once each
        event_texts: dict[tuple[bool, bool], str] = {}
        mover = ev.get("seat") if kind == "move" else None
        for seat in seats:
            which = (mover is not None and seat == mover, kind == "start" and seat is None)
            event_text = event_texts.get(which)
            if event_text is None:
                event_text = event_texts[which] = dumps(self.public_event(version, ev, seat))
            parts = [head, ',"event":', event_text]
            if public is not None:
                assert match is not None
                own = dumps(personal_view(match, public, seat))
                parts += [',"view":', shared, ",", own[1:]]
            parts.append("}")
            texts[seat] = "".join(parts)
        return texts

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The whole view (for ``sync``)."""
        return self.match.view(seat) if self.match is not None else None

    def event_views(self, seats: set[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views an ``event`` carries, for these seats (None: spectators), slim: without
        ``rules`` (they are in the sync's ``table_info``) and without ``match.sheet`` (each
        finished deal's row comes in its ``deal_over``); see docs/protocol.md.

        The engine's view is made once, for a spectator (it holds no hidden card), and each
        seat's is that plus the only parts that are its own: ``seat``, its ``hand``, its
        ``legal_moves`` and, for the bidder, the ``buried`` cards. A test checks that this is
        exactly ``Match.view(seat)`` in every preset."""
        return slim_views(self.match, seats) if self.match is not None else {}

    def notice(self, msg: dict[str, Any]) -> None:
        """An unversioned message for every subscriber (presence, reactions)."""
        text = dumps(msg)
        for conn in list(self.subs):
            conn.send_text(text)

    # ------------------------------------------------------------------ what clients see
    async def forget_player(self, pid: str) -> None:
        """An account erased (server/erase.py) while this table is still in memory (finished,
        or one it watched or left): its name and its chat lines go, as they went from the
        stored events."""
        for s in self.seats:
            if s.player == pid:
                s.name = ""
        kept = [c for c in self.chat_log if c.get("player") != pid]
        self.chat_log.clear()
        self.chat_log.extend(kept)
        for _, kind, ev in self.buffer:  # the events a reconnect is sent again
            scrub_line(kind, ev, pid)
        for conn, seat in list(self.subs.items()):  # who is here sees it now (a full sync)
            conn.send(self.sync_message(seat, None, self.hosts(conn)))

    def seats_info(self) -> list[dict[str, Any]]:
        if self.hide_bots:
            return [
                {
                    "seat": i,
                    "name": s.name or None,
                    "player": None,
                    "bot": None,
                    "away": False,
                    "connected": None if s.empty else (bool(s.conns) if s.player else True),
                    "host": s.player is not None and s.player == self.host,
                    "bot_account": s.bot_account,
                    "level": None,  # bots have none: a level would tell a person
                    "removed": s.removed,
                }
                for i, s in enumerate(self.seats)
            ]
        return [
            {
                "seat": i,
                "name": s.name or None,
                "player": s.player,
                "bot": s.bot,
                "away": s.away,
                "connected": bool(s.conns) if s.player else None,
                "host": s.player is not None and s.player == self.host,
                "bot_account": s.bot_account,
                "level": s.level,
                "removed": s.removed,
            }
            for i, s in enumerate(self.seats)
        ]

    def clock_info(self) -> dict[str, Any]:
        left = None
        if self.deadline is not None:
            left = round(max(0.0, self.deadline - self.clock.now()), 2)
        return {
            "seat": self.decision_seat,
            "left": left,
            "running": self.deadline is not None,
            "bank": [round(b, 2) for b in self.bank],
            "decision": self.decision_seconds,
        }

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "code": self.code,
            "kind": self.kind,
            "mode": self.mode,
            "preset": self.rules.name,
            "rules": self.rules.to_dict(),
            "status": self.status,
            "host": self.host,
            "options": self.options,
            # the pauses in force (the options' or the server's), for the client's motion
            "pace": {"trick_pause": self.trick_pause, "deal_pause": self.deal_pause},
            "seats": self.seats_info(),
            "invite": f"{self.config.base_url}/join/{self.code}",
            **({"chips": self.chips_info()} if self.stake else {}),
            **({"fair": f} if (f := self.fair_info()) is not None else {}),
            **({"archived": True} if self.archived else {}),
        }

    def preview(self) -> dict[str, Any]:
        """What one who has the room's code sees before sitting down (the ``room`` message):
        the table and its rules, the match's length and clock, the stake, who sits where (as
        the table shows them, bots hidden where it hides them), whether it has begun."""
        host = next((s.name for s in self.seats if s.player and s.player == self.host), None)
        return {
            "kind": self.kind,
            "mode": self.mode,
            "preset": self.rules.name,
            "rules": self.rules.to_dict(),
            "status": self.status,
            "host": host,
            "seats": [s.name or None for s in self.seats],
            "free": sum(1 for s in self.seats if s.empty),
            "decision": self.decision_seconds,
            "stake": self.stake,
        }

    def summary(self) -> dict[str, Any]:
        """One line of the lobby."""
        return {
            "id": self.id,
            "code": self.code if self.kind == "public" else None,
            "mode": self.mode,
            "preset": self.rules.name,
            "status": self.status,
            "seats": [s.name or None for s in self.seats],
            "levels": [None if self.hide_bots else s.level for s in self.seats],
            # a bot account is said also where the house's bots are hidden (as in seats_info)
            "bot_accounts": [s.bot_account for s in self.seats],
            "free": sum(1 for s in self.seats if s.empty),
            "deal": len(self.match.games) if self.match else 0,
            "stake": self.stake,
            **({"kasa": self.kasa_shown()} if self.salon_kasa else {}),
        }

    def hosts(self, conn: Conn) -> bool:
        """Whether ``conn`` is the person who hosts this private room (who may always open it,
        seated or not, and so gets its record's address and key as its players do)."""
        return self.kind == "private" and conn.player is not None and conn.player.id == self.host

    def sync_message(
        self, seat: int | None, since: int | None, host: bool = False
    ) -> dict[str, Any]:
        msg: dict[str, Any] = {
            "type": "sync",
            "table": self.id,
            "v": self.version,
            "state_v": self.state_version,
            "you": seat,
            "table_info": self.info(),
            "view": self.view(seat),
            "clock": self.clock_info(),
            "chat": list(self.chat_log),  # the recent conversation, oldest first
            "watchers": self.watchers(),
        }
        if self.hub.cluster is not None:  # the process that holds the table (for steering)
            msg["node"] = self.hub.cluster.node
        if self.rematch_yes or self.rematch_table:
            msg["rematch"] = self.rematch_state()
        elif short := self._rematch_fell_short():
            # an offer that fell through for chips is still said (a reload, a language changed):
            # otherwise the page forgets why no rematch came and offers the button again
            msg["rematch"] = self.rematch_state(declined=short[0])
        if (seat is not None or host) and self.status != "waiting":
            # the record's address (a private one's is kept to its players and its host, who
            # may always open the room, seated or not): once the match has begun, when its
            # seats are its players' (given to them in its ``start`` event); before, one who
            # sat in the room and stood up again was given it too
            msg["record"] = record_path(self.id, self.kind, self.row.seed)
        if seat is not None and self.status != "waiting":
            # what the seat's person got from the finished match: the window at its end shows
            # it after a reload as it did when the match ended (no one else's)
            pid = self.seats[seat].player
            if pid is not None and pid in self.awards:
                msg["awarded"] = self.awards[pid]
        first = self.buffer[0][0] if self.buffer else self.version + 1
        if since is not None and since <= self.version and since >= first - 1:
            msg["full"] = False
            msg["events"] = [
                self.public_event(v, ev, seat) for v, _, ev in self.buffer if v > since
            ]
        else:
            msg["full"] = True
        return msg

    # ------------------------------------------------------------------ seats and people
    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player == player_id:
                return i
        return None

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.empty]

    async def join(
        self,
        conn: Conn,
        seat: int | None,
        spectate: bool,
        since: int | None,
        ref: Any,
        by_code: bool = True,
    ) -> int | None:
        """Sit (or come back to one's seat, or watch), subscribe, and send the sync. A private
        room is opened by its id (``by_code`` false) only to its host, the players who sat
        there and those who came with its code: to anyone else it is not there. Once its match
        is over, not to someone who sat and stood up before the start and did not come back
        before its end (to watch it, by the code or by the id): they never played there nor
        saw it. The host always may. From storage (:meth:`Storage.glance`), a finished room
        opens only to its players and its host."""
        player = player_of(conn)
        pid = player.id
        mine = self.seat_of(pid)
        if self.kind == "private" and pid != self.host:
            if by_code:
                self.admitted.add(pid)
            elif pid not in self.admitted:
                raise TableError("no_table", params={"table": self.id})
        if self.kind == "private" and pid != self.host:  # (the host may always open it)
            if self.status != "over":
                # back before its end, to watch (by the code or by the id) or to sit again: a
                # watcher, or a player, like any other
                self.stood_up.discard(pid)
            elif mine is None and pid in self.stood_up:
                raise TableError("no_table", params={"table": self.id})
        if (
            mine is None
            and not spectate
            and self.status == "waiting"
            and self.options.get("tournament")
        ):
            # a tournament's table is seated by its tournament alone (Tournaments._seat): one
            # still waiting is not seated yet, and the seat someone would take here is not theirs.
            # ``seat``: whether the tournament seats this person here (else they will watch);
            # ``table``: which table (an answer that comes late, once a page has moved on to
            # another table, is not about that one)
            coming = self.hub.tournaments.seat_coming(str(self.options["tournament"]), self.id, pid)
            raise TableError(
                "tourney_seating",
                None if coming else "tourney_seating_watch",
                seat=coming,
                table=self.id,
            )
        if mine is None and not spectate and self.status == "waiting":
            free = self.free_seats()
            if seat is not None:
                if not 0 <= seat < len(self.seats):
                    raise TableError("bad_seat", params={"last": len(self.seats) - 1})
                if seat not in free:
                    raise TableError("seat_taken", params={"seat": seat})
                target = seat
            elif free:
                target = free[0]
            else:
                raise TableError("full")
            if self.stake:
                await self.hub.chips_can_sit(player, self.stake, room=self.kind == "private")
            name = self._distinct_name(player.name)
            sit: dict[str, Any] = {"seat": target, "player": pid, "name": name}
            if player.bot_account:
                sit["bot_account"] = True
            if player.level is not None:
                sit["level"] = player.level
            await self.emit("sit", sit)
            mine = target
        elif mine is None and not spectate and seat is not None:
            raise TableError("started", "started_watch")
        self._subscribe(conn, mine)
        msg = self.sync_message(mine, since, self.hosts(conn))
        if ref is not None:
            msg["ref"] = ref
        conn.send(msg)
        if self.status == "waiting":
            self._maybe_start_public()
        return mine

    def _subscribe(self, conn: Conn, seat: int | None) -> None:
        self.subs[conn] = seat
        self.last_activity = self.clock.now()
        if conn.player is not None and conn.player.id != self.host:
            self.others_came = True
        conn.tables.add(self.id)
        if seat is None:
            self._tell_watchers()
            return
        s = self.seats[seat]
        was_connected = bool(s.conns)
        s.conns.add(conn)
        if s.hold_task is not None:
            s.hold_task.cancel()
            s.hold_task = None
            s.hold_until = None
        if not was_connected:
            self.notice({"type": "presence", "table": self.id, "seat": seat, "connected": True})
        if s.away and self.status in ("playing", "adjourned"):
            self.post(lambda: self._come_back(seat))

    def watchers(self) -> int:
        """How many people watch the table (each once, however many tabs they watch in)."""
        return len({c.player.id for c, seat in self.subs.items() if seat is None and c.player})

    def _tell_watchers(self) -> None:
        """Everyone at the table hears how many watch it, when that number changes."""
        n = self.watchers()
        if n != self._watchers_told:
            self._watchers_told = n
            self.notice({"type": "watchers", "table": self.id, "count": n})

    async def _come_back(self, seat: int) -> None:
        s = self.seats[seat]
        if s.away and s.conns:
            await self.emit("back", {"seat": seat})

    async def unsubscribe(self, conn: Conn, *, dropped: bool = False) -> None:
        """``conn`` stops following the table; a seat it was the last connection of is held
        for its person. ``dropped``: its socket is gone (the hub's
        :meth:`~batak.server.hub.Hub.disconnect`, not a restart): a bot account's seat in a room
        that has not started is then freed at once, as its own ``leave`` would have done, not
        held: a program that went away is not a person reloading a page, and the room's host
        should not wait the hold out for it (or see it seated while it invites another). Its
        program, if it comes back, waits for a new invitation."""
        if conn in self.subs:
            self.last_activity = self.clock.now()
        watched = conn in self.subs and self.subs[conn] is None
        seat = self.subs.pop(conn, None)
        conn.tables.discard(self.id)
        if seat is None:
            if watched:
                self._tell_watchers()
            return
        s = self.seats[seat]
        s.conns.discard(conn)
        if s.conns or s.player is None:
            return
        if dropped and self.status == "waiting" and s.bot_account:
            await self._stand(seat)
        else:
            self._hold(seat)

    def _hold(self, seat: int) -> None:
        """The seat's person is gone: keep the seat for a while, then let a bot play it."""
        s = self.seats[seat]
        if self.status not in ("waiting", "playing") or s.away:
            return
        until = self.clock.now() + self.config.hold_seconds
        s.hold_until = until
        self.notice(
            {
                "type": "presence",
                "table": self.id,
                "seat": seat,
                "connected": False,
                "hold": self.config.hold_seconds,
            }
        )
        player = s.player

        async def wait() -> None:
            await self.clock.sleep_until(until)
            self.post(lambda: self._hold_over(seat, player))

        if s.hold_task is not None:
            s.hold_task.cancel()
        s.hold_task = asyncio.get_running_loop().create_task(wait())

    async def _hold_over(self, seat: int, player: str | None) -> None:
        s = self.seats[seat]
        if s.player != player or s.conns or s.away:
            return
        s.hold_task = None
        s.hold_until = None
        if self.status == "waiting":
            await self._stand(seat)
        elif self.status == "playing":
            await self.emit("away", {"seat": seat, "reason": "disconnected"})

    async def leave(self, conn: Conn, here_only: bool = False) -> None:
        """The player leaves the table: before the start the seat is free again, during the
        match a computer player takes it (the player may come back). ``here_only`` (a page that
        went elsewhere during the match): only this connection goes; the seat is handed over
        only if no other connection of the player is at the table (a second device plays on)."""
        player = player_of(conn)
        seat = self.seat_of(player.id)
        await self.unsubscribe(conn)
        if seat is None:
            return
        if here_only and (self.seats[seat].conns or self.status != "playing"):
            return
        if self.status == "over" and self.rematch_table is None:
            self.rematch_no.add(seat)  # a person who leaves says no to the rematch
        if self.status == "over" and self.rematch_yes and self.rematch_table is None:
            self.rematch_yes.clear()
            self.notice(self.rematch_state(declined=seat))
        s = self.seats[seat]
        for other in list(s.conns):
            self.subs.pop(other, None)
            other.tables.discard(self.id)
        s.conns.clear()
        if s.hold_task is not None:
            s.hold_task.cancel()
            s.hold_task = None
        if self.status == "waiting":
            await self._stand(seat)
        elif self.status == "playing" and not s.away:
            await self.emit("away", {"seat": seat, "reason": "left"})

    async def _stand(self, seat: int, **data: Any) -> None:
        """``seat`` stands up from a room that waits for players. When it was the host's, the
        room passes to the person seated longest after them (a bot account hosts nothing): only
        the host may start a private room, and the others would wait for ever. The event says
        who hosts now (``host``); with nobody left, the host stays the same."""
        leaving = self.seats[seat].player
        if self.kind == "private" and leaving is not None and leaving == self.host:
            heir = next(
                (
                    s.player
                    for i in self.sit_order
                    if i != seat
                    and (s := self.seats[i]).player is not None
                    and s.bot is None
                    and not s.bot_account
                ),
                None,
            )
            if heir is not None:
                data["host"] = heir
        await self.emit("stand", {"seat": seat, **data})

    # ------------------------------------------------------------------ starting
    def _maybe_start_public(self) -> None:
        if self.kind != "public" or self.status != "waiting":
            return
        if not self.free_seats():
            self.post(self._start_if_waiting)
            return
        people = [s for s in self.seats if s.player is not None]
        if people and self._fill_task is None:
            until = self.clock.now() + self.config.quick_fill_seconds

            async def wait() -> None:
                await self.clock.sleep_until(until)
                self.post(self._fill_and_start)

            self._fill_task = asyncio.get_running_loop().create_task(wait())

    async def _start_if_waiting(self) -> None:
        if self.status == "waiting" and not self.free_seats():
            await self._start()

    async def _fill_and_start(self) -> None:
        self._fill_task = None
        if self.status != "waiting":
            return
        if not any(s.player is not None for s in self.seats):
            return
        await self._fill_bots()
        await self._start()

    async def _fill_bots(self) -> None:
        level = str(self.options.get("bot_level") or self.config.bot_level)
        for i in self.free_seats():
            name = self._bot_name(i) if self.hide_bots else f"Bot {i + 1}"
            await self.emit("sit", {"seat": i, "player": None, "name": name, "bot": level})

    def _distinct_name(self, name: str) -> str:
        """``name``, or ``name (2)``, ``name (3)``, ... when someone at the table already has it:
        two guests called the same would be one column twice on the score sheet."""
        taken = {s.name for s in self.seats if s.name}
        if name not in taken:
            return name
        k = 2
        while f"{name} ({k})" in taken:
            k += 1
        return f"{name} ({k})"

    def _bot_name(self, seat: int) -> str:
        """A person's name for a bot at a table that does not label its bots."""
        taken = {s.name for s in self.seats}
        start = int(hashlib.sha256(f"{self.id}:{seat}".encode()).hexdigest(), 16)
        for k in range(len(BOT_NAMES)):
            name = BOT_NAMES[(start + k) % len(BOT_NAMES)]
            if name not in taken:
                return name
        return f"Oyuncu {seat + 1}"

    async def _start(self) -> None:
        short = await self._begin()
        if short:
            await self._stand_short(short)

    async def _begin(self) -> list[int]:
        """Start the match; at a staked table whose start finds people short of the stake,
        start nothing and return their seats (:meth:`_staked_start`), else []."""
        if self._fill_task is not None:
            self._fill_task.cancel()
            self._fill_task = None
        if self.stake:
            return await self._staked_start()
        await self.emit("start", self._start_data(), status="playing")
        return []

    # ------------------------------------------------------------------ chips (issue 12)
    def payers(self) -> dict[int, str]:
        """The seats whose person puts the stake in (house bots put nothing in)."""
        return {i: s.player for i, s in enumerate(self.seats) if s.player is not None}

    async def _staked_start(self) -> list[int]:
        """Start a staked match, each person's stake going into the pot in the start's own
        transaction; or, when a person's balance no longer covers the stake (spent at another
        table meanwhile), start nothing, take nothing, and return the seats short. The balances
        are read first (to name every seat short at once); a buy-in elsewhere that lands between
        that reading and the start's transaction is caught by the transaction itself
        (:class:`~batak.server.chips.NotCovered`: nothing is written), and its seat returned."""
        payers = self.payers()
        short = [s for s, pid in payers.items() if await self.hub.chips.balance(pid) < self.stake]
        if short:
            return short
        data = self._start_data() | {"stake": self.stake, "payers": payers}
        buyin = self.hub.chips.buyin(self.id, self.stake, payers)
        try:
            await self.emit("start", data, status="playing", also=buyin)
        except chips.NotCovered as e:
            seats = [s for s, pid in payers.items() if chips.player_account(pid) == e.account]
            if not seats:  # (a leg of no wallet here: not a chips shortfall of a person)
                raise
            return seats
        return []

    async def _stand_short(self, short: list[int]) -> None:
        """After a staked start refused for ``short`` seats: those people are stood up and the
        table waits for the seats to fill (a private room's host is told ``stake_short``)."""
        for seat in short:
            await self._stand(seat, reason="stake")
        if self.kind == "private":
            raise TableError("stake_short", params={"stake": self.stake})
        self._maybe_start_public()

    @property
    def salon(self) -> str:
        return f"{self.mode}:{self.stake}"

    @property
    def salon_kasa(self) -> str | None:
        """The kasa account this table feeds and may win (public açık eşli staked tables)."""
        if self.stake and self.kind == "public" and self.rules.scoring == "acik":
            return chips.kasa_account(self.salon)
        return None

    def kasa_shown(self) -> int:
        """What the kasa is worth to this match: the salon's banked kasa plus the quarter of
        this table's stakes (a full table's, before the start)."""
        banked = self.hub.chips.kasa.get(self.salon, 0)
        if self.payout is not None:
            return int(self.payout.get("kasa_after", banked))
        people = len(self.payers()) if self.status != "waiting" else self.rules.players
        pot = self.stake * people
        return banked + pot - pot * 3 // 4

    def chips_info(self) -> dict[str, Any]:
        started = self.status != "waiting"
        out: dict[str, Any] = {
            "stake": self.stake,
            "scoring": "acik" if self.rules.scoring == "acik" else "sultan",
            "pot": self.stake * len(self.payers()) if started else 0,
            "fee_percent": self.config.fee_percent,
            "payout": self.payout,
        }
        if self.salon_kasa:
            out["kasa"] = self.kasa_shown()
        return out

    def _plan(self, match: Match) -> chips.Plan:
        payers = self.payers()
        kasa = self.salon_kasa
        return chips.Plan(
            table=self.id,
            scoring="acik" if self.rules.scoring == "acik" else "sultan",
            stake=self.stake,
            payers=payers,
            winners=list(match.winners),
            kasa=kasa,
            kasa_team=chips.kasa_team(match.sheet, self.rules.teams) if kasa else None,
            fee_percent=self.config.fee_percent,
            vip_fee_percent=self.config.vip_fee_percent,
        )

    def _start_data(self) -> dict[str, Any]:
        """Who deals first, as the table's rules say (``Rules.first_dealer``): the lots drawn
        when the table was made (CetinsGame: "İlk elde dağıtan kurayla belirlenir"), or the first
        person to sit (açık eşli: "Masaya ilk oturan kişi ilk dağıtıcı olur")."""
        people = [s for s in self.sit_order if self.seats[s].player is not None]
        dealer = first_dealer(self.rules, seated=people or self.sit_order, lots=self.row.dealer)
        return {
            "dealer": dealer,
            "first_dealer": self.rules.first_dealer,
            "fair": fair.FAIR_VERSION,
            "commitment": self.commitment(0),
        }

    # ------------------------------------------------------------------ verifiable deals
    fair_deals = False  # set by the start event: deals come from committed seeds

    def deal_seed(self, deal: int) -> str:
        """Deal ``deal``'s seed (from 0): secret until that deal is over. The tables of a
        tournament's round derive it from the round, not the table, with the round's shared
        secret: duplicate boards, the same cards at the same seat of every table."""
        key = self.id
        if (tid := self.row.options.get("tournament")) is not None:
            key = f"{tid}:{self.row.options.get('round')}"
        return fair.deal_seed(self.row.seed, key, deal)

    def commitment(self, deal: int) -> str:
        return fair.commitment(self.id, self.deal_seed(deal))

    def fair_info(self) -> dict[str, Any] | None:
        """The commitment of the deal being played (deal 1's while the table waits) and the
        seeds of the deals that are over."""
        match = self.match
        if match is None:
            if self.status != "waiting":
                return None
            return {"version": fair.FAIR_VERSION, "deal": 1, "commitment": self.commitment(0)}
        if not self.fair_deals:
            return None
        games = len(match.games)
        done = games if match.over else games - 1
        out: dict[str, Any] = {
            "version": fair.FAIR_VERSION,
            "revealed": [
                {"deal": k + 1, "seed": self.deal_seed(k), "commitment": self.commitment(k)}
                for k in range(done)
            ],
        }
        if not match.over:
            out["deal"] = games
            out["commitment"] = self.commitment(games - 1)
        return out

    async def start_by_host(self, conn: Conn) -> None:
        player = player_of(conn)
        if player.id != self.host:
            raise TableError("not_host", "not_host_start")
        if self.status == "adjourned":
            await self.emit("resume", {}, status="playing")
            # a person not here is played by a bot after hold_seconds, as after a disconnection
            # (one who deleted their account never comes back)
            for i, s in enumerate(self.seats):
                if s.player is not None and not s.conns:
                    self._hold(i)
            return
        if self.status != "waiting":
            raise TableError("started")
        if self.free_seats():
            if not self.options.get("bots", True):
                raise TableError("seats_empty")
            await self._fill_bots()
        await self._start()

    async def adjourn(self, conn: Conn) -> None:
        player = player_of(conn)
        if self.kind != "private":
            raise TableError("not_private")
        if player.id != self.host:
            raise TableError("not_host", "not_host_adjourn")
        if self.status != "playing":
            raise TableError("not_playing")
        if self.stake:
            raise TableError("stake_adjourn")
        await self.emit("adjourn", {}, status="adjourned")

    # ------------------------------------------------------------------ moves
    async def move(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = player_of(conn)
        seat = self.seat_of(player.id)
        if seat is None or self.subs.get(conn, -1) != seat:
            raise TableError("not_seated")
        move_id: str = msg["id"]
        ref = msg.get("ref")
        done = self.move_ids[seat].get(move_id)
        if done is not None:
            dup = {"type": "ack", "table": self.id, "id": move_id, "v": done, "duplicate": True}
            if ref is not None:
                dup["ref"] = ref
            conn.send(dup)
            return
        match = self._match_in_play()
        seen = msg["v"]
        if seen > self.version:
            raise TableError("bad_version", params={"seen": seen, "now": self.version})
        if seen < self.state_version:
            raise TableError(
                "stale", params={"seen": seen, "now": self.state_version}, v=self.version
            )
        if self.seats[seat].away:
            raise TableError("away")
        err = match.game.check(msg["move"], seat)
        if err is not None and err.code == "not_your_turn":
            # who is to move by the name the table shows, not the engine's seat counted from 0
            to_move = match.game.to_move
            assert to_move is not None  # (a deal that is over refuses with game_over)
            name = self._seat_name(to_move, conn.lang)
            raise TableError("not_your_turn", params={"name": name}, rule=err.code)
        if err is not None:
            raise TableError("illegal", message=err.text(conn.lang), rule=err.code)
        text = _canonical(msg["move"])

        def ack(version: int) -> None:
            if conn.ack_in_event and conn in self.subs:
                return  # the event it gets next is the acknowledgement (see _broadcast)
            out: dict[str, Any] = {"type": "ack", "table": self.id, "id": move_id, "v": version}
            if ref is not None:
                out["ref"] = ref
            conn.send(out)

        mover = (conn, ref) if conn.ack_in_event else None
        await self._play(seat, text, "player", move_id, before=ack, mover=mover)

    def _match_in_play(self) -> Match:
        """The match, if a seat may make a decision in it now (else why not: adjourned, not
        started, over)."""
        match = self.match
        if self.status == "adjourned":
            raise TableError("adjourned")
        if match is None or self.status == "waiting":
            raise TableError("not_started")
        if match.over:
            raise TableError("match_over")
        return match

    async def review_game(self, conn: Conn, deal: int) -> tuple[Any, list[str], int | None]:
        """For a ``review``: a copy of finished deal ``deal`` (1-based) of this table's match,
        the seats' names and the asker's seat (None for a spectator). Anyone at the table may
        ask: a finished deal's cards are no secret any more (the record shows them too)."""
        from ..game import Phase

        if conn not in self.subs:
            raise TableError("not_at_table")
        match = self.match
        if match is None or self.status == "waiting":
            raise TableError("not_started")
        games = match.games
        if not 1 <= deal <= len(games) or games[deal - 1].phase is not Phase.OVER:
            raise TableError("no_deal", params={"deal": deal})
        names = [self._seat_name(i, conn.lang) for i in range(len(self.seats))]
        return games[deal - 1].copy(), names, self.subs.get(conn)

    def _seat_name(self, i: int, lang: str) -> str:
        """Seat ``i``'s player as a sentence names them: the name, or words for an erased
        account's seat ("Removed player") or a nameless one ("Seat 3"), in ``lang``."""
        s = self.seats[i]
        return s.name or i18n.text(
            "server.removed_player" if s.removed else "server.review_seat", lang, n=i + 1
        )

    async def hint_view(self, conn: Conn) -> tuple[int, int, dict[str, Any]]:
        """For a ``hint``: the asking seat, the version and that seat's own view, after checking
        that the decision is the asker's (the hint itself is computed outside the actor)."""
        player = player_of(conn)
        seat = self.seat_of(player.id)
        if seat is None or self.subs.get(conn, -1) != seat:
            raise TableError("not_seated")
        match = self._match_in_play()
        if self.seats[seat].away:
            raise TableError("away")
        if match.to_move != seat:
            raise TableError("not_your_turn", "hint_turn")
        pid = player.id
        bucket = self._hint_buckets.get(pid)
        if bucket is None:
            bucket = self._hint_buckets[pid] = Bucket(
                self.config.hint_per_second, self.config.hint_burst, time.monotonic()
            )
        if not bucket.take(time.monotonic()):
            raise TableError("hint_rate")
        view = match.view(seat)
        return seat, self.version, view

    async def _play(
        self,
        seat: int,
        move: str,
        by: str,
        move_id: str | None = None,
        before: Callable[[int], None] | None = None,
        mover: tuple[Conn, Any] | None = None,
    ) -> None:
        match = self.match
        assert match is not None
        data: dict[str, Any] = {"seat": seat, "move": move, "by": by, "deal": len(match.games)}
        if move_id is not None:
            data["id"] = move_id
        await self.emit("move", data, before=before, mover=mover)
        if "tournament" in self.options and (len(match.games) > data["deal"] or match.over):
            self.hub.tournaments.deal_over(self)  # live standings
        if match.over and not self.finished:
            try:
                await self._finish()
            except StorageError as e:  # the move is stored: only the record waits
                self._retry_later(self._finish, 1, e)

    async def _finish(self) -> None:
        match = self.match
        assert match is not None
        if self.finished:
            return
        self._cancel_timer()
        self.deadline = None
        self.decision_seat = None
        results = []
        sitters = []
        for seat, s in enumerate(self.seats):
            result = _result(match, seat, s.player) if s.player is not None else None
            bot = s.bot if s.player is None else None
            # the person played the match: at least half of their seat's moves their own
            own = self.own_moves[seat]
            played = own > 0 and 2 * own >= self.seat_moves[seat]
            sitters.append(Sitter(seat, s.player, bot, result, moved=played))
            if result is not None:
                results.append(result)
        meta: dict[str, Any] = {
            "table": self.id,
            "players": [s.name for s in self.seats],
            "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        if self.fair_deals:  # every deal's seed, to check against the commitments: batak verify
            meta["fair"] = {"table": self.id, **(self.fair_info() or {})}
        record = dump_match(match, meta=meta)
        pay = self.hub.chips.payout(self._plan(match)) if self.stake else None
        award = self.hub.progress.award_job(self.id, match, sitters)

        def job(cur: Any) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
            # the payout and the awards in the transaction that stores the finished match
            return (pay(cur) if pay is not None else None), award(cur)

        done = await self.storage.finish_table(self.id, record, results, job)
        paid, awards = done if done is not None else (None, {})
        self.finished = True
        self.awards.update(awards or {})
        if paid is not None:
            for key in ("payouts", "kasa_payouts", "fees"):  # by seat, as lists
                if key in paid:
                    paid[key] = [int(paid[key].get(i, 0)) for i in range(len(self.seats))]
            self.payout = paid
            if "kasa_after" in paid:
                self.hub.chips.kasa[self.salon] = int(paid["kasa_after"])
            self.notice({"type": "payout", "table": self.id, "payout": paid})
        self.hub.awarded(self, awards or {})
        for s in self.seats:
            if s.hold_task is not None:
                s.hold_task.cancel()
                s.hold_task = None
        self.hub.table_over(self)

    # ------------------------------------------------------------------ decisions and clocks
    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _after_change(self) -> None:
        """Whose decision is it now, and who makes it: start the clock or a bot."""
        match = self.match
        if self.status != "playing" or match is None or match.over:
            self._cancel_timer()
            self.deadline = None
            self.decision_seat = None
            return
        seat = match.to_move
        assert seat is not None
        # A new deal has begun: its first decision waits a little longer (bots hold back, the
        # clock starts later), so that people can see how the last deal ended.
        # A finished trick, likewise, stays in view a moment before the next lead.
        pause = 0.0
        deals = len(match.games)
        tricks = sum(match.game.tricks_won)
        if self._deals_seen is not None and deals > self._deals_seen:
            pause = self.deal_pause
        elif self._deals_seen == deals and tricks > (self._tricks_seen or 0):
            pause = self.trick_pause
        self._deals_seen = deals
        self._tricks_seen = tricks
        key = (seat, self.state_version)
        if self._decision_key == key and self._timer is not None:
            return  # the same decision is already being timed (e.g. a bank step)
        self._decision_key = key
        self._epoch += 1
        epoch = self._epoch
        self._cancel_timer()
        self.decision_seat = seat
        if self.seats[seat].botted:
            # At a table that hides its bots, a bot's clock runs as a person's would (shown
            # only: the bot moves after its own delay), so that a stopped clock does not say
            # "a bot's turn".
            self.deadline = (
                self.clock.now() + self.decision_seconds + pause if self.hide_bots else None
            )
            view = match.view(seat)
            self._timer = asyncio.get_running_loop().create_task(
                self._bot_turn(epoch, seat, view, pause)
            )
        else:
            self.deadline = self.clock.now() + self.decision_seconds + pause
            self._timer = self._clock_timer(epoch)

    _decision_key: tuple[int, int] | None = None
    _deals_seen: int | None = None  # deals begun when the last decision started (None: none yet)
    _tricks_seen: int | None = None  # the deal's finished tricks then

    def _clock_timer(self, epoch: int) -> asyncio.Task[None] | _Alarm:
        """Post :meth:`_on_deadline` at the deadline: the table's :class:`_Alarm` when the
        clock offers timers of the event loop (the real clock), else a task that sleeps on the
        clock (a test's hand-moved clock)."""
        call_at = getattr(self.clock, "call_at", None)
        if call_at is None:
            return asyncio.get_running_loop().create_task(self._clock_wait(epoch))
        deadline = self.deadline
        assert deadline is not None
        alarm = self._alarm
        if alarm is None:
            alarm = self._alarm = _Alarm(self, call_at)
        alarm.set(deadline, epoch)
        return alarm

    async def _clock_wait(self, epoch: int) -> None:
        deadline = self.deadline
        assert deadline is not None
        await self.clock.sleep_until(deadline)
        self.post(lambda: self._on_deadline(epoch))

    async def _on_deadline(self, epoch: int) -> None:
        if epoch != self._epoch or self.match is None or self.status != "playing":
            return
        seat = self.decision_seat
        assert seat is not None
        left = self.bank[seat]
        if left > 0:
            step = min(self.config.bank_step, left)
            deadline = self.deadline
            assert deadline is not None

            def extend(version: int) -> None:  # only once stored (a failed write changes nothing)
                self.deadline = deadline + step

            await self.emit(
                "bank", {"seat": seat, "left": round(left - step, 3), "step": step}, before=extend
            )
            self._timer = self._clock_timer(epoch)
            return
        view = self.match.view(seat)
        legal = view["legal_moves"]
        if view["phase"] == "bidding" and "pass" in legal:
            move = "pass"
        else:
            move = await asyncio.to_thread(self._bot(seat).choose, view)
        if epoch == self._epoch:
            self._timer = None
            await self._play(seat, move, "timeout")

    async def _bot_turn(
        self, epoch: int, seat: int, view: dict[str, Any], pause: float = 0.0
    ) -> None:
        wait = self.bot_think() + pause
        if wait > 0:
            await asyncio.sleep(wait)
        move = await asyncio.to_thread(self._bot(seat).choose, view)

        async def play() -> None:
            if epoch == self._epoch and self.status == "playing":
                self._timer = None
                await self._play(seat, move, "bot")

        self.post(play)

    def bot_think(self) -> float:
        """How long a bot thinks before a move: ``bot_delay`` times a factor drawn between
        ``bot_spread``'s bounds (a person's pace varies; a bot's clock-like one is spotted)."""
        low, high = self.config.bot_spread
        return self.config.bot_delay * self._think.uniform(low, high)

    def _bot(self, seat: int) -> ServerBot:
        bot = self._bots.get(seat)
        if bot is None:
            level = self.seats[seat].bot or str(
                self.options.get("bot_level") or self.config.bot_level
            )
            bot = self._bots[seat] = make_bot(level, seed=None)
        return bot

    # ------------------------------------------------------------------ chat
    async def chat(self, conn: Conn, text: str) -> None:
        player = player_of(conn)
        if conn not in self.subs:
            raise TableError("not_at_table", "not_at_table_chat")
        clean = "".join(
            ch for ch in unicodedata.normalize("NFC", text) if unicodedata.category(ch)[0] != "C"
        ).strip()
        if self.archived:  # the match ended long ago: nobody else is here to read it
            raise TableError("archived")
        if not clean:
            raise TableError("chat_empty")
        if len(clean) > self.config.chat_max_chars:
            raise TableError("chat_too_long", params={"n": self.config.chat_max_chars})
        pid = player.id
        self._rate_limit(pid, "chat_rate")
        await self.emit(
            "chat",
            {"seat": self.subs.get(conn), "player": pid, "name": player.name, "text": clean},
        )

    def _rate_limit(self, pid: str, key: str) -> None:
        """Chat and reactions share one token bucket per player."""
        bucket = self._chat_buckets.get(pid)
        if bucket is None:
            bucket = self._chat_buckets[pid] = Bucket(
                self.config.chat_per_second, self.config.chat_burst, time.monotonic()
            )
        if not bucket.take(time.monotonic()):
            raise TableError("chat_rate", key)

    async def react(self, conn: Conn, reaction: str) -> None:
        player = player_of(conn)
        if conn not in self.subs:
            raise TableError("not_at_table")
        if reaction not in REACTIONS:
            raise TableError("bad_reaction", params={"reactions": " ".join(REACTIONS)})
        pid = player.id
        self._rate_limit(pid, "reaction_rate")
        self.notice(
            {
                "type": "reaction",
                "table": self.id,
                "seat": self.subs.get(conn),
                "name": player.name,
                "reaction": reaction,
            }
        )

    # ------------------------------------------------------------------ rematch
    def rematch_people(self) -> list[int]:
        """The seats whose person must say yes to a rematch: every person still at the table
        (a seat a bot took over for a person who went away gets a bot in the new match)."""
        return [i for i, s in enumerate(self.seats) if s.player is not None and not s.away]

    def rematch_state(self, declined: int | None = None) -> dict[str, Any]:
        """The ``rematch`` message: who said yes, who is still asked, the new table if made."""
        people = self.rematch_people()
        msg: dict[str, Any] = {
            "type": "rematch",
            "table": self.id,
            "accepted": sorted(self.rematch_yes),
            "waiting": [i for i in people if i not in self.rematch_yes],
            "table_new": self.rematch_table,
        }
        if declined is not None:
            msg["declined"] = declined
            if declined in self.rematch_short:  # not a no: chips spent elsewhere meanwhile
                msg["short"] = declined
        return msg

    async def rematch(self, conn: Conn, accept: bool) -> None:
        """Inside the actor: a seated person asks for (or agrees to) a rematch after the match,
        or says no (``accept`` false: the offer is withdrawn and everyone is told). When every
        person at the table has said yes, a new table is made with the same rules, options and
        seats (bots keep their seats), started at once, and everyone here is told its id."""
        player = player_of(conn)
        seat = self.seat_of(player.id)
        if seat is None or self.seats[seat].away:
            raise TableError("not_seated")
        if self.status != "over":
            raise TableError("not_over")
        if "tournament" in self.options:  # the tournament draws its next round's tables
            raise TableError("tourney_rematch")
        if self.archived:  # the others left long ago
            raise TableError("archived")
        if self.rematch_table is not None:  # already made: say where it is
            conn.send(self.rematch_state())
            return
        if not accept:
            self.rematch_no.add(seat)
            if self.rematch_yes:
                self.rematch_yes.clear()
                self.notice(self.rematch_state(declined=seat))
            return
        if self.stake:  # a staked rematch: refused to whoever cannot cover the stake now
            await self.hub.chips_can_sit(player, self.stake)
        self.rematch_no.discard(seat)  # changed their mind (or has the chips again)
        self.rematch_short.discard(seat)
        declined = sorted(self.rematch_no & set(self.rematch_people()))
        if declined:
            # someone said no before anyone asked: the asker is told now, not after waiting
            conn.send(self.rematch_state(declined=declined[0]))
            return
        self.rematch_yes.add(seat)
        if all(i in self.rematch_yes for i in self.rematch_people()):
            short = await self._rematch_short()
            if short is not None:  # spent at another table since saying yes: no new table
                self._rematch_refused_short(short)
                return
            new = await self.hub.new_table(
                kind=self.kind,
                mode=self.mode,
                rules=self.rules,
                options=dict(self.options),
                host=self.host,
                # (stored so: if its start falls through and its close is refused until this
                # process stops or loses it, the next one closes it instead of offering it)
                close_unstarted=True,
            )
            new.address = self.address
            seats = [
                {"seat": i, "player": s.player, "name": s.name, "bot_account": s.bot_account}
                if s.player is not None and not s.away
                else {"seat": i, "player": None, "name": s.name, "bot": self._rematch_bot(i)}
                for i, s in enumerate(self.seats)
            ]
            short = await new.call(lambda: new.seat_rematch(seats))
            if short is not None:  # a stake spent elsewhere since the check above
                await self.hub.unmake(new)
                self._rematch_refused_short(short)
                return
            self.rematch_table = new.id
            log.info("table %s: rematch at %s", self.id, new.id)
        self.notice(self.rematch_state())

    def _rematch_refused_short(self, short: int) -> None:
        """No rematch: ``short``'s person can no longer cover the stake. Everyone is told that
        seat declined, and why (``short``); its yes is needed again."""
        self.rematch_yes.clear()
        self.rematch_no.add(short)
        self.rematch_short.add(short)
        self.notice(self.rematch_state(declined=short))

    def _rematch_fell_short(self) -> list[int]:
        """The seats at whose chips the last offer fell through, still short (not asked again)."""
        return sorted(self.rematch_short & self.rematch_no & set(self.rematch_people()))

    async def _rematch_short(self) -> int | None:
        """At a staked table, the first seat whose person can no longer cover the stake."""
        if not self.stake:
            return None
        for seat in self.rematch_people():
            pid = self.seats[seat].player
            if pid is not None and await self.hub.chips.balance(pid) < self.stake:
                return seat
        return None

    def _rematch_bot(self, seat: int) -> str:
        s = self.seats[seat]
        return s.bot or str(self.options.get("bot_level") or self.config.bot_level)

    async def seat_rematch(self, seats: list[dict[str, Any]]) -> int | None:
        """Inside the new table's actor: seat everyone where they sat, and start. A person who
        does not come within ``hold_seconds`` is played by a bot, as after a disconnection.
        At a staked table whose start finds a person short of the stake (their chips went into
        another pot since the rematch's check: :meth:`_staked_start`), nothing is started or
        taken and that seat is returned: the old table unmakes this one (nobody was told of
        it yet) and says the rematch is short. None once started."""
        for sit in seats:
            data = {k: v for k, v in sit.items() if k in ("seat", "player") or v}
            await self.emit("sit", data)
        short = await self._begin()
        if short:
            return short[0]
        for i, s in enumerate(self.seats):
            if s.player is not None and not s.conns:
                self._hold(i)
        return None

    async def close_unmade(self) -> None:
        """Inside the actor: a rematch's table that did not start (:meth:`seat_rematch`) is
        closed, stored as ``closed`` as an abandoned room is (it never comes back)."""
        await self.storage.set_status(self.id, "closed")
        self.status = "closed"

    # ------------------------------------------------------------------ restart
    def resume(self, events: list[EventRow]) -> None:
        """Rebuild from the stored log (before the actor starts); everyone starts disconnected."""
        for e in events:
            try:
                self.apply(e.version, e.kind, e.data)
            except (IllegalMove, KeyError, TypeError, ValueError) as err:  # pragma: no cover
                log.error("table %s: cannot apply stored event %s: %s", self.id, e.version, err)
                raise

    def after_resume(self) -> None:
        """Inside the running loop: restart holds, clocks and bots."""
        for i, s in enumerate(self.seats):
            if s.player is not None and not s.away and self.status in ("waiting", "playing"):
                self._hold(i)
        if self.status == "waiting":
            self._maybe_start_public()
        self._after_change()


#: The parts of a seat's view that are its own (a spectator's are empty or None).
PERSONAL_KEYS = ("seat", "hand", "legal_moves", "buried", "kitty")


class _Alarm:
    """The timer that posts a table's :meth:`Table._on_deadline` when a person's decision runs
    out, kept from one decision to the next: every move starts a new decision with a later
    deadline, and a timer of the event loop made and cancelled at every move was a good part of
    a move's cost (and, living for seconds, of the garbage collector's work). A timer due no
    later than the new deadline stays as it is: when it rings it looks at the decision then
    (:meth:`_ring`) and sets itself again for the deadline if that is still ahead. Only a
    deadline earlier than the timer's (a shorter pause than the last decision's) makes a new
    one. :meth:`cancel` just disarms it (what rings then does nothing); :meth:`close` (the
    table stops) cancels the timer itself."""

    __slots__ = ("_call_at", "_handle", "_table", "at", "epoch")

    #: how early a ring may come and still count (uvloop's clock counts whole milliseconds)
    SLACK = 0.001

    def __init__(self, table: Table, call_at: Callable[[float, Callable[[], object]], Any]) -> None:
        self._table = table
        self._call_at = call_at
        self._handle: asyncio.TimerHandle | None = None
        self.at = 0.0  # when the event loop's timer rings
        self.epoch: int | None = None  # the decision it times; None: disarmed

    def set(self, deadline: float, epoch: int) -> None:
        self.epoch = epoch
        if self._handle is not None:
            if self.at <= deadline:
                return  # rings first, then sets itself for this deadline
            self._handle.cancel()
        self._arm(deadline)

    def _arm(self, moment: float) -> None:
        self.at = moment
        self._handle = self._call_at(moment, self._ring)

    def _ring(self) -> None:
        self._handle = None
        epoch = self.epoch
        table = self._table
        deadline = table.deadline
        if epoch is None or epoch != table._epoch or deadline is None:
            self.epoch = None
            return
        if table.clock.now() < deadline - self.SLACK:
            self._arm(deadline)  # the decision it rang for is over: this one is due later
            return
        self.epoch = None
        table.post(lambda: table._on_deadline(epoch))

    def cancel(self) -> None:
        self.epoch = None

    def close(self) -> None:
        self.epoch = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


class _Failed:
    """What :meth:`Table.request` queues in place of a caller's future: the actor settles it
    as it settles a future, and only an exception is passed on (to ``failed``)."""

    __slots__ = ("_failed",)

    def __init__(self, failed: Callable[[Exception], None]) -> None:
        self._failed = failed

    def done(self) -> bool:
        return False

    def set_result(self, result: Any) -> None:
        pass

    def set_exception(self, e: BaseException) -> None:
        if isinstance(e, Exception):
            self._failed(e)


def public_view(match: Match) -> dict[str, Any]:
    """A spectator's view (it holds no hidden card) without ``rules`` and ``match.sheet``: what
    every seat's slim view shares (see :meth:`Table.event_views`)."""
    return match.view(None, slim=True)


def personal_view(match: Match, public: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The :data:`PERSONAL_KEYS` of ``seat``'s view: its hand, its legal moves when it is to
    move, the buried cards and the kitty when it is the bidder; the rest of its view is
    ``public``'s."""
    out = {k: public[k] for k in PERSONAL_KEYS}
    if seat is None:
        return out
    game = match.game
    contract = public["contract"]  # the same game's, as a dict (cheaper than game.contract)
    out["seat"] = seat
    out["hand"] = game.hand_texts(seat)
    if seat == game.to_move:
        out["legal_moves"] = [str(m) for m in game.legal_moves()]
    if contract is not None and seat == contract["bidder"]:
        out["buried"] = [str(c) for c in game.buried]
        out["kitty"] = kitty_of(game, seat)
    return out


def slim_views(match: Match, seats: set[int | None]) -> dict[int | None, dict[str, Any]]:
    """``Match.view(seat)`` for each of ``seats`` without ``rules`` and ``match.sheet``, made
    from one spectator's view (see :meth:`Table.event_views`)."""
    public = public_view(match)
    return {seat: public | personal_view(match, public, seat) for seat in seats}


def record_key(table_id: str, seed: int) -> str:
    """The key that opens a private table's record: known to the server (made from the
    table's secret seed) and given only to the players seated there."""
    return hashlib.sha256(f"batak-record:{table_id}:{seed}".encode()).hexdigest()[:32]


def record_path(table_id: str, kind: str, seed: int) -> str:
    """The HTTP path of a table's record (with its key for a private table)."""
    path = f"/api/tables/{table_id}/record"
    return path + (f"?key={record_key(table_id, seed)}" if kind == "private" else "")


def options_get(options: dict[str, Any], key: str, config: ServerConfig) -> Any:
    value = options.get(key)
    return value if value is not None else getattr(config, key)


def _pause(options: dict[str, Any], name: str, config: ServerConfig) -> float:
    """A table's pause in seconds: its option ``NAME_ms`` if set, else the server's ``NAME``."""
    ms = options.get(f"{name}_ms")
    return ms / 1000 if ms is not None else float(getattr(config, name))


def _canonical(move: str) -> str:
    return str(parse_move(move))


def _result(match: Match, seat: int, player: str) -> dict[str, Any]:
    rules = match.rules
    team = rules.team_of(seat)
    contracts = made = deals = score = 0
    for row in match.sheet:
        if row.redeal or row.scores is None:
            continue
        deals += 1
        score += row.scores[seat]
        if row.bids is not None:
            contracts += 1
            if row.tricks[seat] >= row.bids[seat]:
                made += 1
        elif row.bidder == seat and row.bid is not None:
            contracts += 1
            if sum(row.tricks[s] for s in team) >= row.bid:
                made += 1
    return {
        "player": player,
        "seat": seat,
        "won": seat in match.winners,
        "contracts": contracts,
        "made": made,
        "deals": deals,
        "score": score,
    }
