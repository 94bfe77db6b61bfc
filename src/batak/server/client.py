"""A small asyncio client for the Batak server (used by tests, load tests and terminal clients).

::

    async with Client("ws://127.0.0.1:8000/ws", name="Ayşe") as c:
        table = await c.quick("ihaleli")          # a seat at a public table; bots fill in
        final = await c.play(table.id)            # plays with a simple bot until the match ends
        print(final.view["match"]["totals"])

Each table's latest state (version, view, seats, clock) is in ``client.tables``; every message
received is also queued for :meth:`Client.next_message` (and kept in ``client.log`` when asked).
Moves carry an id: after :meth:`Client.reconnect` the unacknowledged ones are sent again, and the
server acknowledges each id once.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

__all__ = ["Client", "ServerError", "TableState", "random_move"]

_loads: Callable[[str], Any] = json.loads
try:  # optional: faster parsing for load tests with thousands of clients
    import orjson

    _loads = orjson.loads
except ImportError:  # pragma: no cover - depends on the install
    pass

STATE_EVENTS = frozenset(
    {"sit", "stand", "start", "move", "away", "back", "seat", "adjourn", "resume"}
)  # "seat": an away/back at a table that hides its bots


class ServerError(Exception):
    """The server refused a request: ``code`` (e.g. ``illegal``, ``stale``) and its message."""

    def __init__(self, msg: Mapping[str, Any]) -> None:
        super().__init__(f"{msg.get('code')}: {msg.get('message')}")
        self.code: str = str(msg.get("code"))
        self.message: str = str(msg.get("message"))
        self.data = dict(msg)


@dataclass
class TableState:
    """What this client knows of one table."""

    id: str
    v: int = 0
    state_v: int = 0
    seat: int | None = None
    view: dict[str, Any] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    #: the score sheet so far: from the last sync's view, then each ``deal_over`` row
    sheet: list[dict[str, Any]] = field(default_factory=list)
    #: the HTTP path of the table's record, given to a seated player (with the key that opens
    #: a private table's record)
    record: str | None = None
    #: a staked table's settlement (the ``payout`` message, or ``table_info.chips.payout``)
    payout: dict[str, Any] | None = None
    #: after the match: the last ``rematch`` message (who agreed, who is asked, the new table)
    rematch: dict[str, Any] | None = None
    #: the ``closed`` message if the table was closed while this client was at it (a story
    #: table started over elsewhere: ``reason``, ``table_new``)
    closed: dict[str, Any] | None = None
    #: the server's words when it refused this table as the client came back (``reconnect``):
    #: gone meanwhile (a story table started over elsewhere while this client was offline:
    #: ``no_table``), so that a program at it does not wait there; None while it is there
    lost: str | None = None
    #: with ``lost``: the match ended while this client was away, and it was not there to see
    #: the end (a watcher back by the room's code, told ``match_over``)
    ended_away: bool = False

    @property
    def my_turn(self) -> bool:
        v = self.view
        return bool(v and v["legal_moves"] and self.seat is not None and v["to_move"] == self.seat)


def _complete(view: dict[str, Any] | None, st: TableState) -> dict[str, Any] | None:
    """An ``event``'s view with what the server leaves out put back: the rules (from the
    sync's ``table_info``) and the score sheet (the sync's, plus each ``deal_over`` row), so
    that ``TableState.view`` is always the engine's whole view."""
    if view is None:
        return None
    if "rules" not in view and "rules" in st.info:
        view["rules"] = st.info["rules"]
    match = view.get("match")
    if isinstance(match, dict) and "sheet" not in match:
        match["sheet"] = list(st.sheet)
    return view


def random_move(view: Mapping[str, Any], rng: random.Random | None = None) -> str:
    """A uniformly random legal move."""
    legal: list[str] = list(view["legal_moves"])
    return (rng or random.Random()).choice(legal)


class Client:
    """One connection to the server, with its player identity (see the module's text)."""

    def __init__(
        self,
        url: str,
        *,
        name: str | None = None,
        token: str | None = None,
        lang: str = "en",
        origin: str | None = None,
        keep_log: bool = False,
        ack_in_event: bool = False,
    ) -> None:
        self.url = url
        #: say ``ack_in_event`` in hello: an applied move's event answers :meth:`move` (it
        #: carries the move's ``ref``) instead of a separate ``ack`` (one message less a move)
        self.ack_in_event = ack_in_event
        self.name = name
        self.token = token
        self.lang = lang
        self.origin = origin
        self.keep_log = keep_log
        self.log: list[str] = []  # every text received, when keep_log
        self.player: dict[str, Any] = {}
        self.tables: dict[str, TableState] = {}
        self.welcome: dict[str, Any] = {}
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._pending: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self._unacked: dict[str, dict[str, Any]] = {}
        self._refs = itertools.count(1)
        self._created: dict[Any, dict[str, Any]] = {}
        self._changed = asyncio.Event()
        self.closed = True
        self.heard = 0.0  # time.monotonic() when the last message came from the server

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ connection
    async def connect(self) -> dict[str, Any]:
        """Open the socket and say hello (keeping the session token for next time)."""
        kwargs: dict[str, Any] = {"max_size": 2**22, "open_timeout": 10}
        if self.origin is not None:
            kwargs["origin"] = self.origin
        self._ws = await connect(self.url, **kwargs)
        self.closed = False
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return await self.hello()

    async def close(self) -> None:
        """Close the socket politely."""
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        await self._stop_reader()

    async def drop(self) -> None:
        """Cut the connection abruptly, as a lost network would (for tests)."""
        if self._ws is not None:
            with contextlib.suppress(Exception):
                self._ws.transport.abort()
        await self._stop_reader()

    async def _stop_reader(self) -> None:
        self.closed = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionError("connection closed"))
        self._pending.clear()

    async def reconnect(self, *, since: bool = True) -> None:
        """Connect again with the same token, catch up on every table, resend unacked moves.

        A table the server refuses to sync (a finished one a restarted server no longer
        keeps, a closed room) is left as it was: the others are still caught up on. One it
        says is not there (``no_table``) is asked for once more, since that is also the answer
        to a request that came just as the table was put away ("ask again": asking again loads
        it); a private room watched without a seat is then joined again by its code (the server
        remembers who came with the code only until it restarts, and answers a sync by the
        table's id with ``no_table``). Only a table still not there keeps the server's words in
        ``lost`` (with ``ended_away`` when that join was told the match is over: it ended
        while the watcher was away)."""
        await self.drop()
        await self.connect()
        for st in list(self.tables.values()):
            try:
                await self._sync_again(st, since=st.v if since else None)
            except ServerError as e:
                if e.code in ("no_table", "match_over"):
                    st.lost = e.message
                    st.ended_away = e.code == "match_over"
        for msg in list(self._unacked.values()):
            with contextlib.suppress(ServerError):
                await self.request(dict(msg))

    async def _sync_again(self, st: TableState, since: int | None) -> None:
        """:meth:`reconnect`'s catching up on one table (``ServerError`` if the server has none)."""
        try:
            await self.sync(st.id, since=since)
            return
        except ServerError as e:
            if e.code != "no_table":
                raise
        try:  # asked for just as it was put away: asking again loads it
            await self.sync(st.id, since=since)
            return
        except ServerError as e:
            code = st.info.get("code")
            # (a match seen to its end is not asked for by its code: a finished table is not
            # found by code, and the server would count the try as a wrong code)
            if e.code != "no_table" or st.seat is not None or not code or st.over:
                raise
            gone = e
        try:  # a watcher let in by the code
            await self.join(code=str(code), spectate=True, since=since)
        except ServerError as e:
            if e.code == "match_over":  # it ended while this watcher was away
                raise
            # (locked, busy, ...: the table is still not there for this connection; said as
            # gone rather than left waiting at a table it hears nothing from)
            raise gone from None

    # ------------------------------------------------------------------ sending
    async def send(self, msg: Mapping[str, Any]) -> None:
        await self.send_raw(json.dumps(msg, ensure_ascii=False))

    async def send_raw(self, data: str | bytes) -> None:
        if self._ws is None:
            raise ConnectionError("not connected")
        try:
            await self._ws.send(data)
        except ConnectionClosed as e:  # one kind of error for a lost connection, as elsewhere
            raise ConnectionError("connection closed") from e

    async def request(
        self, msg: dict[str, Any], timeout: float = 15.0, ref: int | None = None
    ) -> dict[str, Any]:
        """Send ``msg`` with a fresh ``ref``; the reply with that ref, or :class:`ServerError`."""
        if ref is None:
            ref = next(self._refs)
        msg = dict(msg, ref=ref)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = fut
        try:
            await self.send(msg)
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._pending.pop(ref, None)

    # ------------------------------------------------------------------ receiving
    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for raw in self._ws:
                self.heard = time.monotonic()
                text = raw if isinstance(raw, str) else raw.decode()
                if self.keep_log:
                    self.log.append(text)
                msg = _loads(text)
                self._update(msg)
                ref = msg.get("ref")
                fut = self._pending.get(ref) if ref is not None else None
                if msg.get("type") == "created":
                    self._created[ref] = msg
                elif fut is not None and not fut.done():
                    if msg.get("type") == "error":
                        fut.set_exception(ServerError(msg))
                    else:
                        fut.set_result(msg)
                self._queue.put_nowait(msg)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._changed.set()
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))

    def _update(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "sync":
            st = self.tables.setdefault(msg["table"], TableState(msg["table"]))
            st.v = msg["v"]
            st.state_v = msg["state_v"]
            st.seat = msg["you"]
            st.view = msg["view"]
            st.info = msg["table_info"]
            st.clock = msg["clock"]
            if st.view is not None:
                st.sheet = list(st.view["match"]["sheet"])
            else:
                st.sheet = []
            st.record = msg.get("record", st.record)
            st.payout = (st.info.get("chips") or {}).get("payout") or st.payout
            st.events.extend(msg.get("events") or [])
            st.over = st.info.get("status") == "over"
            st.rematch = msg.get("rematch") or st.rematch
        elif kind == "event":
            st = self.tables.setdefault(msg["table"], TableState(msg["table"]))
            if msg["event"].get("id"):  # one of this seat's moves, applied
                self._unacked.pop(msg["event"]["id"], None)
            if msg["v"] <= st.v:
                return
            st.v = msg["v"]
            ev = msg["event"]
            st.events.append(ev)
            if ev["kind"] in STATE_EVENTS:
                st.state_v = msg["v"]
            if "deal_over" in ev:
                st.sheet.append(ev["deal_over"]["row"])
            if "view" in msg:
                st.view = _complete(msg["view"], st)
            if "seats" in msg:
                st.info["seats"] = msg["seats"]
            if ev["kind"] == "stand" and ev.get("host"):  # the host left: who hosts now
                st.info["host"] = ev["host"]
            st.record = ev.get("record", st.record)  # (a seat's, in the match's start)
            if "chips" in msg:
                st.info["chips"] = msg["chips"]
            if "status" in msg:
                st.info["status"] = msg["status"]
            st.clock = msg.get("clock", st.clock)
            if "over" in ev:
                st.over = True
                st.info["status"] = "over"
        elif kind == "ack":
            self._unacked.pop(msg["id"], None)
        elif kind == "rematch":
            self.tables.setdefault(msg["table"], TableState(msg["table"])).rematch = msg
        elif kind == "closed":
            st = self.tables.setdefault(msg["table"], TableState(msg["table"]))
            st.closed = msg
            st.info["status"] = "closed"
        elif kind == "payout":
            st = self.tables.setdefault(msg["table"], TableState(msg["table"]))
            st.payout = msg["payout"]
            if isinstance(st.info.get("chips"), dict):
                st.info["chips"]["payout"] = msg["payout"]

    async def next_message(self, timeout: float = 10.0) -> dict[str, Any]:
        return await asyncio.wait_for(self._queue.get(), timeout)

    def drain(self) -> list[dict[str, Any]]:
        """The messages queued so far (without waiting)."""
        out = []
        while not self._queue.empty():
            out.append(self._queue.get_nowait())
        return out

    async def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float | None = 10.0
    ) -> dict[str, Any]:
        """Read queued messages until one satisfies ``pred`` (``timeout`` None: wait on)."""

        async def loop() -> dict[str, Any]:
            while True:
                msg = await self._queue.get()
                if pred(msg):
                    return msg

        return await asyncio.wait_for(loop(), timeout)

    async def next_change(self, timeout: float | None = None) -> None:
        """Wait for the next message or the end of the connection (``TimeoutError`` after
        ``timeout``). Look at the state first, then call this: nothing arrives in between."""
        await self.change_waiter(timeout)

    def change_waiter(self, timeout: float | None = None) -> asyncio.Future[bool]:
        """:meth:`next_change` as a future to wait on beside others, armed now: a message that
        arrives between this call and the future's first step still wakes it (a task made from
        ``next_change`` would clear the flag only when it first runs, and miss that message)."""
        self._changed.clear()
        if self.closed:
            raise ConnectionError("connection closed")
        return asyncio.ensure_future(self._wait_changed(timeout))

    async def _wait_changed(self, timeout: float | None) -> bool:
        # (the event's wait is made here, when the task first runs: made as the task's argument,
        # a task cancelled before its first step left it never awaited, and Python warned)
        return await asyncio.wait_for(self._changed.wait(), timeout)

    async def until(self, cond: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until ``cond()`` holds (checked after each message)."""

        async def loop() -> None:
            while not cond():
                await self.next_change()

        await asyncio.wait_for(loop(), timeout)

    # ------------------------------------------------------------------ requests
    async def lobby(self) -> dict[str, Any]:
        return await self.request({"type": "lobby"})

    async def quick(self, mode: str, stake: int = 0) -> TableState:
        """Quick play: a seat at a public table of ``mode`` (in the salon of ``stake`` chips)."""
        msg: dict[str, Any] = {"type": "quick", "mode": mode}
        if stake:
            msg["stake"] = stake
        reply = await self.request(msg)
        return self.tables[reply["table"]]

    async def wallet(self) -> dict[str, Any]:
        """This player's chips (``balance``; the day's grant is given when due: ``granted``)."""
        return await self.request({"type": "wallet"})

    async def chip_leaderboard(self) -> dict[str, Any]:
        return await self.request({"type": "chip_leaderboard"})

    async def create(self, **options: Any) -> tuple[dict[str, Any], TableState]:
        """A private room (options as in the ``create`` message); you sit at it.

        Returns the ``created`` message (table id, code, invite link) and the table's state.
        """
        ref = next(self._refs)
        sync = await self.request({"type": "create", **options}, ref=ref)
        return self._created.pop(ref), self.tables[sync["table"]]

    async def join(
        self,
        table: str | None = None,
        *,
        code: str | None = None,
        seat: int | None = None,
        spectate: bool = False,
        since: int | None = None,
    ) -> TableState:
        msg: dict[str, Any] = {"type": "join"}
        if table:
            msg["table"] = table
        if code:
            msg["code"] = code
        if seat is not None:
            msg["seat"] = seat
        if spectate:
            msg["spectate"] = True
        if since is not None:
            msg["since"] = since
        reply = await self.request(msg)
        return self.tables[reply["table"]]

    async def sync(self, table: str, since: int | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "sync", "table": table}
        if since is not None:
            msg["since"] = since
        return await self.request(msg)

    async def start(self, table: str) -> None:
        await self.request({"type": "start", "table": table})

    async def leave(self, table: str, *, here: bool = False) -> None:
        """Leave the table (``here``: this connection only, see the protocol's ``leave``)."""
        await self.request({"type": "leave", "table": table, **({"here": True} if here else {})})

    async def rematch(self, table: str, *, accept: bool = True) -> None:
        """After the match: ask for a rematch (or agree to one; ``accept`` false: refuse it).
        Every ``rematch`` message that follows says who agreed; the one with ``table_new`` set
        names the new table (join it with :meth:`join`)."""
        await self.request({"type": "rematch", "table": table, "accept": accept})

    async def adjourn(self, table: str) -> None:
        await self.request({"type": "adjourn", "table": table})

    async def login(self, username: str, password: str) -> dict[str, Any]:
        """Become an account's player on this connection (a new session: the token is kept
        for the next :meth:`connect`); other devices keep their own sessions."""
        welcome = await self.request({"type": "login", "username": username, "password": password})
        self.token = welcome["token"]
        self.player = welcome["player"]
        return welcome

    async def register(self, username: str, password: str, *, bot: bool = False) -> dict[str, Any]:
        """Make this connection's guest an account (``bot``: a bot account, marked as a bot at
        every table). A guest who never chose a name is called by the username from then on."""
        reply = await self.request(
            {"type": "register", "username": username, "password": password, "bot": bot}
        )
        self.player = {**self.player, "account": reply["username"], "bot": bot}
        if reply.get("name"):
            self.player["name"] = reply["name"]
        return reply

    async def room(self, code: str) -> dict[str, Any]:
        """The room a code opens, as one sees it before sitting down (the table, its rules and
        length, the clock, the stake, who sits where); ``no_table`` if there is none."""
        reply = await self.request({"type": "room", "code": code})
        return dict(reply["room"])

    async def invite(self, table: str, username: str) -> None:
        """Ask an account that is online (a friend, or a bot account) to this waiting room: its
        connections receive ``invited`` with the room's code."""
        await self.request({"type": "invite", "table": table, "username": username})

    async def invitable(self, table: str) -> list[dict[str, Any]]:
        """The bot accounts online that the host of this waiting room could invite (each a
        ``username`` and a ``name``)."""
        reply = await self.request({"type": "invitable", "table": table})
        return list(reply["bots"])

    async def logout(self, *, everywhere: bool = False) -> dict[str, Any]:
        """End this session (``everywhere``: every session of the player, on every device);
        the token is forgotten and the connection must say hello again (:meth:`hello`)."""
        reply = await self.request({"type": "logout", "everywhere": everywhere})
        self.token = None
        self.player = {}
        return reply

    async def change_password(self, password: str, new: str) -> int:
        """Give the account the password ``new`` (``password`` is the one it has); every other
        session of it ends, this one goes on. Returns how many sessions ended."""
        reply = await self.request({"type": "change_password", "password": password, "new": new})
        return int(reply["sessions"])

    async def delete_account(self, password: str) -> dict[str, Any]:
        """Erase the account's personal data (``password`` is the one it has): its name,
        username, password, sessions and chat lines; its games stay under "a removed player".
        The token and the name are forgotten, and the connection must say hello again
        (:meth:`hello`), as a new guest. Returns the ``account_deleted`` reply."""
        reply = await self.request({"type": "delete_account", "password": password})
        self.token = None
        self.player = {}
        self.name = None
        return reply

    async def my_data(self) -> dict[str, Any]:
        """Everything the server keeps under this player (``my_data``: see
        :mod:`batak.server.export`), as one document."""
        reply = await self.request({"type": "my_data"})
        return dict(reply["data"])

    async def my_matches(self) -> list[dict[str, Any]]:
        """This player's latest finished matches, newest first (``my_matches``), each with its
        table, ``preset``, ``finished``, ``seat``, ``won``, ``score``, ``deals`` and ``record``."""
        return list((await self.request({"type": "my_matches"}))["matches"])

    async def hello(self) -> dict[str, Any]:
        """Say hello again on this connection (after :meth:`logout`): a new guest, or the
        player of :attr:`token`."""
        msg: dict[str, Any] = {"type": "hello", "lang": self.lang}
        if self.ack_in_event:
            msg["ack_in_event"] = True
        if self.name:
            msg["name"] = self.name
        if self.token:
            msg["token"] = self.token
        try:
            self.welcome = await self.request(msg)
        except ServerError as e:
            # a server from before ack_in_event refuses the unknown field: plain acks, then
            if not (
                msg.get("ack_in_event") and e.code == "bad_message" and "ack_in_event" in e.message
            ):
                raise
            self.ack_in_event = False
            del msg["ack_in_event"]
            self.welcome = await self.request(msg)
        self.token = self.welcome.get("token", self.token)
        self.player = self.welcome["player"]
        return self.welcome

    # ------------------------------------------------------------------ progress
    async def progress(self, player: str | None = None) -> dict[str, Any]:
        """XP, level, rating (``{"mu", "sigma", "ordinal", "spread"}`` or None) and league
        tier of this player or of ``player`` (an id)."""
        msg: dict[str, Any] = {"type": "progress"}
        if player:
            msg["player"] = player
        return dict((await self.request(msg))["progress"])

    async def ratings(self) -> list[dict[str, Any]]:
        """The rated leaderboard (accounts, best ordinal first)."""
        return list((await self.request({"type": "ratings"}))["players"])

    async def league(self) -> dict[str, Any]:
        """This player's weekly league: the week, tier, group standings, last week's outcome."""
        return await self.request({"type": "league"})

    async def awarded(self, table: str, timeout: float = 15.0) -> dict[str, Any]:
        """Wait for what this player got from the finished match at ``table`` (``awarded``)."""
        return await self.wait_for(
            lambda m: m.get("type") == "awarded" and m.get("table") == table, timeout
        )

    async def hint(self, table: str) -> dict[str, Any]:
        """Teach me: ``{"move", "reason", "estimate", "v"}`` for this seat's current decision
        (``estimate``: expected tricks per koz choice during the auction and trump choice, or
        None). Raises :class:`ServerError` (``not_your_turn``, ``hint_rate``, ...)."""
        return await self.request({"type": "hint", "table": table})

    async def review(self, table: str, deal: int) -> dict[str, Any]:
        """The deal review of finished deal ``deal`` (1-based): ``{"lines", "decisions",
        "bidding", "names", "complete", ...}`` (docs/protocol.md, "Deal review"). Raises
        :class:`ServerError` (``no_deal``, ``busy``, ``not_at_table``, ...). It may take
        seconds: the request waits up to two minutes (the server answers by its review time
        limit, ``review_seconds`` + 5 s)."""
        return await self.request({"type": "review", "table": table, "deal": deal}, timeout=120.0)

    async def chat(self, table: str, text: str) -> None:
        await self.send({"type": "chat", "table": table, "text": text})

    async def react(self, table: str, reaction: str) -> None:
        await self.send({"type": "react", "table": table, "reaction": reaction})

    async def move(
        self, table: str, move: str, *, move_id: str | None = None, v: int | None = None
    ) -> dict[str, Any]:
        """Send a move with the version this client saw; returns the server's ``ack``, or with
        :attr:`ack_in_event` the move's ``event`` (both have the move's version as ``v``; a
        move already applied is answered by an ``ack`` with ``duplicate: true`` either way)."""
        st = self.tables[table]
        msg: dict[str, Any] = {
            "type": "move",
            "table": table,
            "id": move_id or secrets.token_hex(8),
            "v": st.v if v is None else v,
            "move": move,
        }
        self._unacked[msg["id"]] = msg
        try:
            return await self.request(msg)
        except ServerError:
            self._unacked.pop(msg["id"], None)
            raise

    # ------------------------------------------------------------------ tournaments, story
    async def tourney_create(self, **options: Any) -> dict[str, Any]:
        """Schedule a tournament (``name``, ``preset``, ``rounds``, ``deals``, ``start``: unix
        seconds, ``join``); returns it as in the ``tourney`` message."""
        reply = await self.request({"type": "tourney_create", **options})
        return dict(reply["tournament"])

    async def tourneys(self) -> list[dict[str, Any]]:
        """Tournaments scheduled, playing and over (summaries)."""
        reply = await self.request({"type": "tourney_list"})
        return list(reply["tournaments"])

    async def tourney(self, tournament: str) -> dict[str, Any]:
        """A tournament with its tables and live standings (and its later changes are sent)."""
        reply = await self.request({"type": "tourney", "tournament": tournament})
        return dict(reply["tournament"])

    async def tourney_join(self, tournament: str) -> dict[str, Any]:
        reply = await self.request({"type": "tourney_join", "tournament": tournament})
        return dict(reply["tournament"])

    async def tourney_leave(self, tournament: str) -> dict[str, Any]:
        reply = await self.request({"type": "tourney_leave", "tournament": tournament})
        return dict(reply["tournament"])

    async def tourney_start(self, tournament: str) -> None:
        await self.request({"type": "tourney_start", "tournament": tournament})

    async def story(self) -> dict[str, Any]:
        """The story mode's stages and this player's progress (the ``story`` message)."""
        return await self.request({"type": "story"})

    async def story_play(self, stage: int, *, again: bool = False) -> TableState:
        """Sit at a story stage's table with its characters; the match starts at once. If the
        stage's table is not over yet, back to it (resumed if adjourned); ``again``: close that
        one (it stays counted as played and not won) and deal a new one."""
        ref = next(self._refs)
        msg: dict[str, Any] = {"type": "story_play", "stage": stage}
        if again:
            msg["again"] = True
        sync = await self.request(msg, ref=ref)
        self._created.pop(ref, None)
        return self.tables[sync["table"]]

    async def play(
        self,
        table: str,
        choose: Callable[[dict[str, Any]], str | Awaitable[str]] | None = None,
        *,
        timeout: float = 120.0,
        stop: Callable[[TableState], bool] | None = None,
    ) -> TableState:
        """Play this seat until the match ends (or ``stop(state)``); ``choose(view)`` picks (it
        may be a coroutine function: a player thinking in a thread keeps the connection alive)."""
        rng = random.Random()
        pick = choose or (lambda view: random_move(view, rng))
        tried = -1

        async def loop() -> TableState:
            nonlocal tried
            while True:
                st = self.tables[table]
                if st.over or (stop is not None and stop(st)):
                    return st
                if st.my_turn and st.state_v != tried:
                    tried = st.state_v
                    seen = st.v  # the version the move is chosen for, not the one it is sent at
                    assert st.view is not None
                    move = pick(st.view)
                    if inspect.isawaitable(move):
                        move = await move
                    try:
                        # a chooser that thinks while the table goes on (a coroutine) may
                        # answer a decision that has passed: sent with the version it was
                        # chosen for, it is refused as stale, never judged against a later
                        # state (where it could be illegal, or play a card chosen for another
                        # trick)
                        await self.move(table, move, v=seen)
                    except ServerError as e:
                        if e.code not in ("stale", "not_your_turn", "away", "match_over"):
                            raise
                    continue
                await self.next_change()

        return await asyncio.wait_for(loop(), timeout)
