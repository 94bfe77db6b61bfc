"""The hub: players and their sessions, the lobby, quick play, private rooms, and the tables.

It reads each checked message of a connection and hands table business to the table's actor.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from .. import i18n
from ..bots import LEVELS
from ..moves import parse_move
from ..rules import PRESETS, Rules, RulesError
from .clock import Clock
from .config import MODES, ServerConfig
from .conn import Conn, Player
from .protocol import PROTOCOL_VERSION, REACTIONS, ROOM_LIMITS, error
from .storage import EventRow, PlayerRow, Storage, StorageError, TableRow
from .table import Table, TableError

__all__ = ["Hub"]

log = logging.getLogger("batak.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Messages a connection may send before ``hello``.
OPEN_TYPES = frozenset({"hello", "ping", "lobby", "leaderboard"})


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name: str | None, limit: int) -> str | None:
    if name is None:
        return None
    text = "".join(
        ch for ch in unicodedata.normalize("NFC", name) if unicodedata.category(ch)[0] != "C"
    )
    text = " ".join(text.split())
    return text[:limit] or None


class Hub:
    """Everything one server process holds (see the module's text)."""

    def __init__(self, config: ServerConfig, storage: Storage, clock: Clock) -> None:
        self.config = config
        self.storage = storage
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.codes: dict[str, str] = {}
        self.forming: dict[str, str] = {}  # mode -> public table being filled
        self.players: dict[str, Player] = {}  # by token hash
        self.ready = False
        self.connections = 0
        self._load_lock = asyncio.Lock()
        self._reaper: asyncio.Task[None] | None = None
        self._handlers: dict[str, Callable[[Conn, dict[str, Any]], Awaitable[None]]] = {
            "hello": self.on_hello,
            "ping": self.on_ping,
            "lobby": self.on_lobby,
            "quick": self.on_quick,
            "create": self.on_create,
            "join": self.on_join,
            "sync": self.on_sync,
            "start": self.on_start,
            "move": self.on_move,
            "hint": self.on_hint,
            "chat": self.on_chat,
            "react": self.on_react,
            "leave": self.on_leave,
            "adjourn": self.on_adjourn,
            "mytables": self.on_mytables,
            "leaderboard": self.on_leaderboard,
            "stats": self.on_stats,
            "register": self.on_register,
            "login": self.on_login,
        }

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Open storage and resume every table that was not over."""
        await self.storage.open()
        for row, events in await self.storage.live_tables():
            age = time.time() - (events[-1].at if events else row.created)
            if row.status == "adjourned" and age > self.config.adjourned_unload_seconds:
                continue  # stays stored; loaded when someone asks for it
            self._load(row, events, age)
        self._reaper = asyncio.get_running_loop().create_task(self._reap())
        self.ready = True

    def _load(self, row: TableRow, events: list[EventRow], age: float) -> Table | None:
        """Rebuild a stored table from its events and start it (after a restart, or when an
        adjourned room that was put away is asked for)."""
        try:
            table = Table(self, row, config=self.config, clock=self.clock, storage=self.storage)
            table.resume(events)
        except Exception:
            log.exception("table %s could not be resumed; it is left as it was", row.id)
            return None
        table.last_activity = self.clock.now() - max(0.0, age)
        self._add(table)
        table.start_actor()
        table.after_resume()
        if table.match is not None and table.match.over and not table.finished:
            table.post(table._finish)
        return table

    async def stop(self) -> None:
        self.ready = False
        if self._reaper is not None:
            self._reaper.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        await self.storage.close()

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.codes[table.code] = table.id
        if table.kind == "public" and table.status == "waiting" and table.mode:
            self.forming.setdefault(table.mode, table.id)

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
                reason, limit = "abandoned", cfg.abandon_seconds
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

    async def _drop(self, table: Table) -> None:
        table.gone = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.codes.get(table.code) == table.id:
            del self.codes[table.code]
        if self.forming.get(table.mode or "") == table.id:
            del self.forming[table.mode or ""]
        await table.stop()

    def table_over(self, table: Table) -> None:
        if self.forming.get(table.mode or "") == table.id:
            del self.forming[table.mode or ""]

    # ------------------------------------------------------------------ messages
    async def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        ref = msg.get("ref")
        if conn.player is None and kind not in OPEN_TYPES:
            conn.send(error("hello_first", i18n.text("server.hello_first", conn.lang), ref))
            return
        try:
            await self._handlers[kind](conn, msg)
        except TableError as e:
            conn.send(error(e.code, e.text(conn.lang), ref, **e.extra))
        except StorageError as e:
            log.error("storage: %s", e)
            conn.send(error("storage", i18n.text("server.storage", conn.lang), ref))

    async def disconnect(self, conn: Conn) -> None:
        for table_id in list(conn.tables):
            table = self.tables.get(table_id)
            if table is not None:
                await table.call(functools.partial(table.unsubscribe, conn))

    def _reply(self, conn: Conn, msg: dict[str, Any], ref: Any) -> None:
        if ref is not None:
            msg["ref"] = ref
        conn.send(msg)

    # ------------------------------------------------------------------ players
    async def on_hello(self, conn: Conn, msg: dict[str, Any]) -> None:
        ref = msg.get("ref")
        if conn.tables:
            raise TableError("already_hello")
        lang = msg.get("lang") or conn.lang
        conn.lang = i18n.lang_of(lang)
        name = clean_name(msg.get("name"), self.config.name_max_chars)
        token: str | None = msg.get("token")
        player: Player | None = None
        new_token: str | None = None
        if token:
            player = await self._player_by_token(token)
        if player is None:
            new_token = secrets.token_urlsafe(32)
            player = Player(
                id="p" + secrets.token_hex(6),
                name=name or f"Misafir {secrets.randbelow(9000) + 1000}",
            )
            await self.storage.create_player(
                PlayerRow(player.id, player.name, token_hash(new_token), time.time())
            )
            self.players[token_hash(new_token)] = player
        elif name and name != player.name:
            player.name = name
            await self.storage.update_player(player.id, name=name)
        conn.player = player
        mine = [
            t.id
            for t in self.tables.values()
            if t.status != "over" and t.seat_of(player.id) is not None
        ]
        out: dict[str, Any] = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "player": {"id": player.id, "name": player.name, "account": player.account},
            "tables": mine,
            "modes": MODES,
            "presets": list(PRESETS),
            "reactions": list(REACTIONS),
            "limits": {
                "message_bytes": self.config.max_message_bytes,
                "messages_per_second": self.config.rate_per_second,
                "chat_chars": self.config.chat_max_chars,
            },
        }
        if new_token is not None:
            out["token"] = new_token
            if token:
                out["token_unknown"] = True
        self._reply(conn, out, ref)

    async def _player_by_token(self, token: str) -> Player | None:
        h = token_hash(token)
        player = self.players.get(h)
        if player is None:
            row = await self.storage.player_by("token_hash", h)
            if row is None:
                return None
            player = Player(row.id, row.name, row.username)
            self.players[h] = player
        return player

    async def on_register(self, conn: Conn, msg: dict[str, Any]) -> None:
        hasher = _argon2()
        assert conn.player is not None
        username = clean_name(msg["username"], 32)
        if not username or username != msg["username"] or " " in username:
            raise TableError("bad_username")
        if len(msg["password"]) < 8:
            raise TableError("weak_password")
        if conn.player.account:
            raise TableError("has_account")
        if await self.storage.player_by("username", username) is not None:
            raise TableError("username_taken", params={"username": username})
        digest = await asyncio.to_thread(hasher.hash, msg["password"])
        await self.storage.update_player(conn.player.id, username=username, password_hash=digest)
        conn.player.account = username
        self._reply(conn, {"type": "account", "username": username}, msg.get("ref"))

    async def on_login(self, conn: Conn, msg: dict[str, Any]) -> None:
        hasher = _argon2()
        if conn.tables:
            raise TableError("already_hello", "already_hello_login")
        row = await self.storage.player_by("username", msg["username"])
        ok = False
        if row is not None and row.password_hash:
            try:
                ok = await asyncio.to_thread(hasher.verify, row.password_hash, msg["password"])
            except Exception:
                ok = False
        if row is None or not ok:
            raise TableError("bad_login")
        token = secrets.token_urlsafe(32)
        await self.storage.update_player(row.id, token_hash=token_hash(token))
        for h, p in list(self.players.items()):
            if p.id == row.id:
                del self.players[h]
        player = Player(row.id, row.name, row.username)
        self.players[token_hash(token)] = player
        conn.player = player
        self._reply(
            conn,
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "player": {"id": player.id, "name": player.name, "account": player.account},
                "token": token,
                "tables": [
                    t.id
                    for t in self.tables.values()
                    if t.status != "over" and t.seat_of(player.id) is not None
                ],
            },
            msg.get("ref"),
        )

    async def on_ping(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._reply(conn, {"type": "pong", "t": msg.get("t")}, msg.get("ref"))

    # ------------------------------------------------------------------ lobby
    def lobby(self) -> dict[str, Any]:
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
        }

    async def on_lobby(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._reply(conn, self.lobby(), msg.get("ref"))

    async def on_mytables(self, conn: Conn, msg: dict[str, Any]) -> None:
        assert conn.player is not None
        pid = conn.player.id
        mine = [
            t.summary() | {"kind": t.kind, "seat": t.seat_of(pid)}
            for t in self.tables.values()
            if t.status != "over" and t.seat_of(pid) is not None
        ]
        self._reply(conn, {"type": "mytables", "tables": mine}, msg.get("ref"))

    async def on_leaderboard(self, conn: Conn, msg: dict[str, Any]) -> None:
        rows = await self.storage.leaderboard()
        self._reply(conn, {"type": "leaderboard", "players": rows}, msg.get("ref"))

    async def on_stats(self, conn: Conn, msg: dict[str, Any]) -> None:
        assert conn.player is not None
        pid = msg.get("player") or conn.player.id
        self._reply(conn, {"type": "stats", "stats": await self.storage.stats(pid)}, msg.get("ref"))

    # ------------------------------------------------------------------ tables
    async def new_table(
        self,
        *,
        kind: str,
        mode: str | None,
        rules: Rules,
        options: dict[str, Any],
        host: str | None,
    ) -> Table:
        if len(self.tables) >= self.config.max_tables:
            raise TableError("busy")
        # No lock and no look-up round trip: a new code is reserved in memory at once, and the
        # database's UNIQUE constraint catches a clash with a stored (finished) table, on which
        # another code is tried. (A lock held across two database round trips made table
        # creation one at a time: under load, setting up tables timed out.)
        for attempt in range(5):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code in self.codes:
                continue
            row = TableRow(
                id="t" + secrets.token_hex(6),
                code=code,
                kind=kind,
                mode=mode,
                rules=rules.to_dict(),
                seed=secrets.randbits(63),
                dealer=secrets.randbelow(rules.players),
                options=options,
                host=host,
                status="waiting",
                created=time.time(),
            )
            created = {"kind": kind, "mode": mode, "preset": rules.name, "host": host}
            self.codes[code] = row.id
            try:
                await self.storage.create_table(row, [EventRow(1, "create", created, time.time())])
            except StorageError:
                del self.codes[code]
                if attempt == 4:
                    raise
                continue
            table = Table(self, row, config=self.config, clock=self.clock, storage=self.storage)
            table.apply(1, "create", created)
            self._add(table)
            table.start_actor()
            return table
        raise TableError("busy")

    async def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            async with self._load_lock:
                table = self.tables.get(table_id)
                if table is not None:
                    return table
                stored = await self.storage.table(table_id) if len(table_id) <= 32 else None
                if stored is not None and stored[0].status == "over":
                    raise TableError(
                        "match_over",
                        "match_over_record",
                        {"url": f"{self.config.base_url}/api/tables/{table_id}/record"},
                    )
                if stored is not None and stored[0].status == "closed":
                    raise TableError("no_table", "closed", {"table": stored[0].code})
                if stored is not None and stored[0].status == "adjourned":
                    table = self._load(stored[0], stored[1], 0.0)  # put away earlier: back
                    if table is not None:
                        return table
                raise TableError("no_table", params={"table": table_id})
        return table

    async def on_quick(self, conn: Conn, msg: dict[str, Any]) -> None:
        assert conn.player is not None
        mode = msg["mode"]
        if mode not in MODES:
            raise TableError("bad_mode", params={"mode": mode, "modes": list(MODES)})
        pid = conn.player.id
        for t in self.tables.values():
            if (
                t.kind == "public"
                and t.mode == mode
                and t.status != "over"
                and t.seat_of(pid) is not None
            ):
                await self._join(conn, t, None, False, None, msg.get("ref"))
                return
        for _ in range(5):
            table_id = self.forming.get(mode)
            table = self.tables.get(table_id) if table_id else None
            if table is None or table.status != "waiting" or not table.free_seats():
                rules = Rules.preset(MODES[mode])
                if self.config.quick_deals:
                    rules = rules.replace(deals=self.config.quick_deals, target_score=None)
                table = await self.new_table(
                    kind="public",
                    mode=mode,
                    rules=rules,
                    options={"bots": True, "show_bots": not self.config.hide_bots},
                    host=None,
                )
                self.forming[mode] = table.id
            try:
                await self._join(conn, table, None, False, None, msg.get("ref"))
                return
            except TableError as e:
                if e.code not in ("full", "started"):
                    raise
                if self.forming.get(mode) == table.id:
                    del self.forming[mode]
        raise TableError("busy", "busy_seat")

    async def on_create(self, conn: Conn, msg: dict[str, Any]) -> None:
        assert conn.player is not None
        preset = msg.get("preset") or "standard"
        if preset not in PRESETS:
            raise TableError(
                "bad_rules", "bad_preset", {"preset": preset, "presets": list(PRESETS)}
            )
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
        }
        room_limits(rules.to_dict() | options)
        kind = "public" if msg.get("public") else "private"
        table = await self.new_table(
            kind=kind, mode=None, rules=rules, options=options, host=conn.player.id
        )
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

    async def on_join(self, conn: Conn, msg: dict[str, Any]) -> None:
        table_id = msg.get("table")
        code = msg.get("code")
        if code:
            code = code.strip().upper()
            table_id = self.codes.get(code)
            if table_id is None:
                stored = await self.storage.table_id_by_code(code)
                if stored is None:
                    raise TableError("no_table", "no_code", {"code": code})
                table_id = stored  # an adjourned room comes back; otherwise _table says why
        if not table_id:
            raise TableError("bad_message", "join_what")
        table = await self._table(table_id)
        await self._join(
            conn,
            table,
            msg.get("seat"),
            bool(msg.get("spectate")),
            msg.get("since"),
            msg.get("ref"),
        )

    async def _join(
        self,
        conn: Conn,
        table: Table,
        seat: int | None,
        spectate: bool,
        since: int | None,
        ref: Any,
    ) -> None:
        await table.call(lambda: table.join(conn, seat, spectate, since, ref))

    async def on_sync(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await self._join(conn, table, None, False, msg.get("since"), msg.get("ref"))

    async def on_start(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.start_by_host(conn))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))

    async def on_adjourn(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.adjourn(conn))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))

    async def on_move(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.move(conn, msg))

    async def on_hint(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        _seat, version, view = await table.call(lambda: table.hint_view(conn))
        seed = (table.row.seed ^ (version * 0x9E3779B1)) & 0x7FFFFFFF
        out = await asyncio.to_thread(_hint, view, conn.lang, seed)
        self._reply(conn, {"type": "hint", "table": table.id, "v": version, **out}, msg.get("ref"))

    async def on_chat(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.chat(conn, msg["text"]))

    async def on_react(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.react(conn, msg["reaction"]))

    async def on_leave(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = await self._table(msg["table"])
        await table.call(lambda: table.leave(conn))
        self._reply(conn, {"type": "ok", "table": table.id}, msg.get("ref"))


#: The bot levels a room may ask for.
BOT_LEVELS: tuple[str, ...] = LEVELS


def room_limits(options: dict[str, Any]) -> None:
    """Refuse a room whose options are out of :data:`ROOM_LIMITS`: one check for the options a
    room would get, whether they came from ``create``'s own fields or its ``rules`` object."""
    for name, (low, high) in ROOM_LIMITS.items():
        value = options.get(name)
        if value is not None and not low <= value <= high:
            raise TableError("bad_rules", "option_limit", {"name": name, "low": low, "high": high})


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


def _argon2() -> Any:
    try:
        from argon2 import PasswordHasher
    except ImportError:
        raise TableError("no_accounts") from None
    return PasswordHasher()
