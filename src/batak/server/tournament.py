"""Duplicate tournaments: scheduled by a player with an account (or an operator), registered for,
played in Swiss rounds at tables filled with bots, scored board by board.

**Duplicate boards.** Every table of a round is made with the same seed and the same first
dealer, and its rules never throw a deal in (``all_pass`` is not ``redeal``), never end early
(no target score, no king, no extra deals): so deal *b* of the round deals the same 13 cards to
seat *s* at every table, with the same dealer. A board is (round, deal); its result for the
player at seat *s* is compared only with the players who sat at seat *s* of the other tables,
who held the same cards.

**Matchpoints.** On each board, a seat's score earns 1 point for every other table's player at
the same seat it beat, and ½ for each it tied (bridge's matchpoints). A player's tournament
score is the sum of their matchpoints; ties are broken by the sum of their deal scores. A round
has at least two tables, so that every board is compared: with fewer players than one table
needs, the second table is all bots (the par of the field), and bots fill the last table's
empty seats.

**Swiss pairing.** Round 1 seats players in an order drawn from the tournament's seed; every
later round groups them by the standings so far (the leaders at table 1, the next ones at table
2, …), each player at another seat number than in the round before.

A tournament is one JSON document in storage; its tables are ordinary public tables (not in the
lobby), so every game record is kept and can be fetched as any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import os
import random
import secrets
import signal
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from ..explain import preset_title
from ..i18n import LANGS, SOURCE_LANG, plain_lower
from ..record import loads as load_record
from ..rules import PRESETS, Rules, RulesError
from .conn import Conn
from .erase import scrub_tournament
from .storage import Fenced, OverLimit, StorageError
from .table import Table, TableError

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Tournaments", "standings"]

log = logging.getLogger("batak.server")

#: Limits of a tournament's settings.
ROUNDS = (1, 10)
DEALS = (1, 12)
MAX_PLAYERS = 64
#: How far ahead a tournament may be scheduled (seconds).
AHEAD = 60 * 86400.0
# how long a join waits for a round's table to be seated (storage slow): then it is told
SEATING_WAIT = 30.0
#: Seconds before a tournament whose start failed (a round's table could not be stored) tries
#: again.
START_RETRY = 5.0
#: The longest wait between two tries: each failed try doubles the wait from START_RETRY (a
#: failure that lasts, e.g. a table the database always refuses, is tried, logged and its first
#: tables stored and closed a dozen times an hour, not 720).
RETRY_MAX = 300.0
#: Tournaments not yet over that one account may have scheduled (operators: no limit).
PER_ACCOUNT = 3
#: Test hook: the environment variable naming a point (:func:`_test_stop`) where the process
#: stops itself, so that a test of a cluster can kill it exactly there.
TEST_STOP_AT = "BATAK_TEST_STOP_AT"


def _test_stop(point: str) -> None:
    """Test hook, for the real-process tests of a cluster only (tests/server): when the
    environment variable ``BATAK_TEST_STOP_AT`` names ``point``, the process stops itself
    (``SIGSTOP``) there, and the test, seeing it stopped, kills it (``kill -9``) or lets it go
    on (``SIGCONT``). Never set outside those tests. The points: ``tourney_quota_checked`` (a
    registration's limit checked, not saved yet), ``tourney_join_saved`` (a registration
    saved, not answered yet) and ``round_made`` (a round's tables made and the
    document saved, before they are seated)."""
    if os.environ.get(TEST_STOP_AT) == point:
        log.warning("test hook: stopped at %s", point)
        os.kill(os.getpid(), signal.SIGSTOP)


def duplicate_rules(preset: str, deals: int) -> Rules:
    """The preset's rules made fit for duplicate boards (see the module's text)."""
    rules = Rules.preset(preset)
    changes: dict[str, Any] = {"deals": deals, "target_score": None}
    if rules.all_pass == "redeal":
        changes["all_pass"] = "dealer_takes_min"
        changes["redeal_dealer"] = "same"
    if rules.tie == "extra_deal":
        changes["tie"] = "last_deal_tricks"
    if rules.king:
        changes["king"] = False
    return rules.replace(**changes)


def _scores(sheet: list[Any]) -> list[list[int]]:
    """Each scored deal's scores per seat (thrown-in deals skipped)."""
    out = []
    for row in sheet:
        d = row if isinstance(row, dict) else row.to_dict()
        if d.get("redeal") or d.get("scores") is None:
            continue
        out.append([int(x) for x in d["scores"]])
    return out


def standings(
    doc: dict[str, Any], live: dict[str, list[list[int]]] | None = None
) -> list[dict[str, Any]]:
    """The standings of a tournament document: per registered player whether it is a bot
    account (``bot``), their matchpoints (``mp``), deal scores summed (``score``), boards
    compared (``boards``) and ``rank``.
    ``live``: the scores so far of tables still playing (by table id)."""
    live = live or {}
    players = {
        p["id"]: {
            "player": p["id"],
            "name": p["name"],
            "bot": bool(p.get("bot")),
            "mp": 0.0,
            "score": 0,
            "boards": 0,
        }
        for p in doc["players"]
    }
    by_round: dict[int, list[dict[str, Any]]] = {}
    for t in doc["tables"]:
        by_round.setdefault(t["round"], []).append(t)
    for tables in by_round.values():
        results = [(t, t.get("scores") or live.get(t["id"]) or []) for t in tables]
        size = max((len(t["seats"]) for t in tables), default=0)
        boards = max((len(r) for _, r in results), default=0)
        for b in range(boards):
            for s in range(size):
                entries = [(t["seats"][s], r[b][s]) for t, r in results if len(r) > b]
                for i, (pid, mine) in enumerate(entries):
                    if pid not in players:
                        continue
                    p = players[pid]
                    p["score"] += mine
                    if len(entries) < 2:
                        continue
                    p["boards"] += 1
                    for j, (_, theirs) in enumerate(entries):
                        if j != i:
                            p["mp"] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    rows = sorted(players.values(), key=lambda p: (-p["mp"], -p["score"], p["name"]))
    rank = 0
    last: tuple[float, int] | None = None
    for i, p in enumerate(rows):
        key = (p["mp"], p["score"])
        if key != last:
            rank = i + 1
            last = key
        p["rank"] = rank
    return rows


class Tournaments:
    """The tournaments one hub runs."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.docs: dict[str, dict[str, Any]] = {}  # tournaments not yet over
        self.by_table: dict[str, str] = {}  # table id -> tournament id
        self.watchers: dict[str, set[Conn]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._stopped = False  # the server stops: nothing is scheduled any more
        self._failures: dict[str, int] = {}  # tries in a row that failed, by tournament id
        # in a cluster: when poll() may try a round whose making failed again (time.monotonic)
        self._next_try: dict[str, float] = {}
        # a round's tables made but not yet seated (_next_round): set once seated (or failed)
        self._seating: dict[str, asyncio.Event] = {}
        # in a cluster: the scores so far of this process's tournaments' tables held by other
        # processes (as they reported them at each deal's end), by table id
        self._remote_live: dict[str, list[list[int]]] = {}

    def handlers(self) -> dict[str, Callable[[Conn, dict[str, Any]], Awaitable[None]]]:
        return {
            "tourney_create": self.on_create,
            "tourney_list": self.on_list,
            "tourney": self.on_show,
            "tourney_join": self.on_join,
            "tourney_leave": self.on_leave,
            "tourney_start": self.on_start,
        }

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        if self.hub.cluster is not None:
            # a cluster's process runs only the tournaments it claims (Cluster.claim_tourney:
            # those it scheduled, those nobody alive runs), each from its stored document
            return
        for doc in await self.hub.storage.live_tournaments():
            self.adopt(doc)

    def adopt(self, doc: dict[str, Any]) -> None:
        """Run a tournament not over from its stored document: at its start, its start's
        timer; in play, its round's tables as storage has them (:meth:`_catch_up`)."""
        self.docs[doc["id"]] = doc
        for t in doc["tables"]:
            self.by_table[t["id"]] = doc["id"]
        if doc["status"] == "scheduled":
            self._schedule(doc)
        else:
            self._spawn(self._catch_up(doc["id"]))

    def drop(self, tid: str) -> None:
        """In a cluster: the tournament is run by another process now (a write refused by the
        fencing check, or claimed while this one's lease had lapsed): out of memory here,
        its timer stopped. Its watchers here hear nothing more from here: their sockets are
        closed (1012, as a table's clients are when it moves) so that they come back and ask
        the process that runs it now (the web client asks for the page it shows again)."""
        timer = self._timers.pop(tid, None)
        if timer is not None:
            timer.cancel()
        self._failures.pop(tid, None)
        self._next_try.pop(tid, None)
        doc = self.docs.pop(tid, None)
        for t in doc["tables"] if doc is not None else ():
            self.by_table.pop(t["id"], None)
            self._remote_live.pop(t["id"], None)
        for conn in self.watchers.pop(tid, set()):
            self._spawn(conn.flush_and_close(1012, "tournament moved"))

    def stop(self) -> None:
        self._stopped = True
        for task in list(self._tasks) + list(self._timers.values()):
            task.cancel()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lock(self, tid: str) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    def _schedule(self, doc: dict[str, Any], delay: float | None = None) -> None:
        """Start the tournament at its time (or in ``delay`` seconds). A start that fails for
        the database's sake leaves it scheduled and tries again :data:`START_RETRY` seconds
        later (the wait doubled after each failure in a row, up to :data:`RETRY_MAX`); one
        refused because another process of the cluster runs it now ends here (the tournament
        was let go). Nothing once the server stops (a start under way then fails
        as storage closes: it is not tried again)."""
        tid = doc["id"]
        if self._stopped:
            return

        async def wait() -> None:
            await asyncio.sleep(max(0.0, doc["start_at"] - time.time()) if delay is None else delay)
            self._timers.pop(tid, None)
            try:
                await self._begin(tid)
            except Fenced:
                return
            except StorageError as e:
                if self.docs.get(tid) is doc and doc["status"] == "scheduled":
                    wait = self._retry_delay(tid)
                    log.warning(
                        "tournament %s did not start (%s); trying again in %g s", tid, e, wait
                    )
                    self._schedule(doc, wait)
                return
            self._failures.pop(tid, None)

        self._timer(tid, wait())

    def _timer(self, tid: str, coro: Coroutine[Any, Any, None]) -> None:
        """The tournament's one timer (its start, or a retry): ``coro`` in place of the last."""
        old = self._timers.pop(tid, None)
        if old is not None:
            old.cancel()
        self._timers[tid] = asyncio.get_running_loop().create_task(coro)

    def _retry_delay(self, tid: str) -> float:
        """The wait before the next try of tournament ``tid``'s start or round, one more having
        failed: START_RETRY, then twice the last, up to RETRY_MAX."""
        n = self._failures.get(tid, 0)
        self._failures[tid] = n + 1
        return float(min(RETRY_MAX, START_RETRY * 2 ** min(n, 30)))

    async def forget_player(self, pid: str) -> None:
        """An erased account (server/erase.py) that joined a tournament held here since: its
        name leaves the documents, which are written again without it."""
        for doc in list(self.docs.values()):  # (saving awaits: the dict may change)
            async with self._lock(doc["id"]):
                if scrub_tournament(doc, pid):
                    await self._save(doc)

    async def _save(self, doc: dict[str, Any]) -> None:
        await self._write(doc)

    async def _write(
        self,
        doc: dict[str, Any],
        *,
        new: bool = False,
        limits: tuple[str, int | None, int | None] | None = None,
    ) -> None:
        """Store the document (``new``: its first write, which in a cluster makes this process
        the one that runs it). ``limits``: an account's limits, counted again in the write's
        transaction (``Storage.save_tournament``): over one, the player is refused as by
        the check before (:meth:`_bot_quota`)."""
        try:
            await self.hub.storage.save_tournament(
                doc["id"],
                doc["status"],
                doc["start_at"],
                doc["created"],
                doc,
                new=new,
                limits=limits,
            )
        except Fenced:
            self._lost(doc["id"])
            raise
        except OverLimit as e:
            code = "tourney_bot_quota" if e.what == "entered" else "tourney_quota"
            raise TableError(code, params={"limit": e.limit}) from None

    def _lost(self, tid: str) -> None:
        """A write refused: another process of the cluster runs the tournament now."""
        if self.hub.cluster is not None:
            self.hub.cluster.tourney_lost(tid)
        else:  # pragma: no cover - no fencing without a cluster
            self.drop(tid)

    async def _doc(self, tid: str) -> dict[str, Any]:
        doc = self.docs.get(tid)
        if doc is None and len(tid) <= 32:
            doc = await self.hub.storage.tournament(tid)
        if doc is None:
            raise TableError("no_tourney", params={"tournament": tid})
        return doc

    # ------------------------------------------------------------------ what clients see
    def _live_scores(self, doc: dict[str, Any]) -> dict[str, list[list[int]]]:
        out = {}
        for t in doc["tables"]:
            table = self.hub.tables.get(t["id"])
            if t.get("scores") is None and table is not None and table.match is not None:
                out[t["id"]] = _scores(table.match.sheet)
            elif t.get("scores") is None and t["id"] in self._remote_live:
                out[t["id"]] = self._remote_live[t["id"]]
        return out

    def public(self, doc: dict[str, Any], lang: str, *, full: bool = True) -> dict[str, Any]:
        """The tournament as players see it, in ``lang``: one scheduled without a name is named
        by its table's title in the reader's language."""
        out = {
            k: doc[k] for k in ("id", "preset", "rounds", "deals", "start_at", "status", "round")
        }
        out["name"] = doc["name"] or preset_title(doc["preset"], lang)
        out["creator"] = doc["creator_name"]
        out["creator_id"] = doc["creator"]  # (names may be alike: who may start it is by id)
        out["players"] = len(doc["players"])
        if full:
            out["rules"] = doc["rules"]
            out["registered"] = [
                {"id": p["id"], "name": p["name"], "bot": bool(p.get("bot"))}
                for p in doc["players"]
            ]
            live = self._live_scores(doc)
            tables = []
            for t in doc["tables"]:
                if t["id"] in self._seating:  # not seated yet: nobody is to go there now
                    continue
                table = self.hub.tables.get(t["id"])
                scores = t.get("scores") or live.get(t["id"]) or []
                tables.append(
                    {
                        "id": t["id"],
                        "round": t["round"],
                        "number": t["number"],
                        "names": t["names"],
                        "players": t["seats"],
                        "deals_played": len(scores),
                        "totals": [sum(r[s] for r in scores) for s in range(len(t["names"]))],
                        "over": t.get("scores") is not None,
                        "record": f"/api/tables/{t['id']}/record",
                        # one held by another process of a cluster (taken over): in play
                        # until its end is heard (it was said "over", and batak bot, taking
                        # its own table for over, let a computer play its seat)
                        "status": (
                            table.status
                            if table is not None
                            else "over"
                            if t.get("scores") is not None
                            else "playing"
                        ),
                    }
                )
            out["tables"] = tables
            out["standings"] = standings(doc, live)
        return out

    def forget(self, conn: Conn) -> None:
        """A connection closed: it watches nothing any more."""
        for conns in self.watchers.values():
            conns.discard(conn)

    def _push(self, doc: dict[str, Any]) -> None:
        """The tournament as it is now, to those who asked for it (wherever they are
        connected: a client's request forwarded here watches through its process) and to its
        players connected here; in a cluster, also to its players connected to the other
        processes (:meth:`pushed` there), but for the connections that watch it through
        here already (named, so that they are sent it once). What those are sent is made
        only once the cluster found some of its players connected elsewhere (:meth:`Cluster.
        tourney_push <batak.server.cluster.Cluster.tourney_push>`): most changes need none."""
        conns = set(self.watchers.get(doc["id"], ()))
        for p in doc["players"]:
            conns |= self.hub.online.get(p["id"], set())
        cluster = self.hub.cluster
        bus = cluster.bus if cluster is not None else None
        elsewhere = bus is not None and bus.up and bool(doc["players"])
        if not conns and not elsewhere:
            return
        msgs: dict[str, dict[str, Any]] = {}  # one for each language read

        def said(lang: str) -> dict[str, Any]:
            if lang not in msgs:
                msgs[lang] = {"type": "tourney", "tournament": self.public(doc, lang)}
            return msgs[lang]

        for c in conns:
            c.send(said(c.lang))
        if elsewhere and cluster is not None:
            # (a request forwarded here: its connection's process and id there)
            watching = [
                [getattr(c, "origin", None), getattr(c, "conn_id", None)]
                for c in conns
                if getattr(c, "remote", False)
            ]
            cluster.tourney_push(
                doc["id"],
                [p["id"] for p in doc["players"]],
                functools.partial(self._shown, doc),
                watching,
            )

    def _shown(self, doc: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
        """The tournament ``doc`` as it is now, in each language; None if it is no longer run
        here (another process took it over). One over has left :attr:`docs`, and is shown."""
        if self.docs.get(doc["id"]) is not doc and doc["status"] != "over":
            return None
        return {lang: self.public(doc, lang) for lang in LANGS}

    def pushed(
        self,
        players: list[str],
        shown: dict[str, dict[str, Any]],
        watching: list[list[Any]],
        here: str,
    ) -> None:
        """In a cluster: another process's tournament changed (:meth:`_push` there): each of
        its ``players`` connected here (process ``here``) gets it (``shown``: the tournament
        in each language), but for the connections that watch it through that process
        already (``watching``: pairs of process and connection id)."""
        skip = {(str(n), int(i)) for n, i in watching}
        for pid in players:
            for conn in list(self.hub.online.get(str(pid), ())):
                if (here, conn.id) in skip:
                    continue
                tour = shown.get(conn.lang) or shown.get(SOURCE_LANG)
                if tour is not None:
                    conn.send({"type": "tourney", "tournament": tour})

    def operator(self, account: str | None) -> bool:
        """Whether the account is one of ``--operator``'s, named in any case as usernames are
        (unique in any case: storage migration 8)."""
        named = {plain_lower(o) for o in self.hub.config.operators}
        return bool(account) and plain_lower(str(account)) in named

    # ------------------------------------------------------------------ messages
    async def on_create(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = conn.player
        assert player is not None
        operator = self.operator(player.account)
        if not player.account:
            raise TableError("tourney_account")
        mine = sum(1 for d in (await self._live()).values() if d["creator"] == player.id)
        if not operator and mine >= PER_ACCOUNT:
            raise TableError("tourney_quota", params={"limit": PER_ACCOUNT})
        preset = msg.get("preset") or "standard"
        if preset not in PRESETS:
            raise TableError(
                "bad_rules", "bad_preset", {"preset": preset, "presets": list(PRESETS)}
            )
        rounds = msg.get("rounds") or 3
        deals = msg.get("deals") or 4
        if not ROUNDS[0] <= rounds <= ROUNDS[1]:
            raise TableError(
                "bad_rules", "option_limit", {"name": "rounds", "low": ROUNDS[0], "high": ROUNDS[1]}
            )
        if not DEALS[0] <= deals <= DEALS[1]:
            raise TableError(
                "bad_rules", "option_limit", {"name": "deals", "low": DEALS[0], "high": DEALS[1]}
            )
        now = time.time()
        start = msg.get("start")
        start_at = now if start is None else float(start)
        if start_at < now - 60 or start_at > now + AHEAD:
            raise TableError("tourney_start_time", params={"days": int(AHEAD // 86400)})
        try:
            rules = duplicate_rules(preset, deals)
        except (RulesError, TypeError, ValueError) as e:
            raise TableError("bad_rules", params={"detail": str(e)}) from None
        # without a name, none is stored: each reader sees the table's title in their own
        # language (not the preset's own name, "standard", which is for the programs)
        name = " ".join((msg.get("name") or "").split())[:40]
        tid = "T" + secrets.token_hex(6)
        doc: dict[str, Any] = {
            "id": tid,
            "name": name,
            "preset": preset,
            "rules": rules.to_dict(),
            "rounds": rounds,
            "deals": deals,
            "start_at": max(start_at, now),
            "created": now,
            "creator": player.id,
            "creator_name": player.name,
            "status": "scheduled",
            "round": 0,
            "bot_level": self.hub.config.bot_level,
            "seed": secrets.randbits(63),
            "players": [],
            "tables": [],
            "finished": None,
        }
        entered = None
        if msg.get("join") is not False:
            # registered as by tourney_join: a bot account within its limit there too
            await self._bot_quota(player)
            doc["players"].append(_entry(player))
            entered = PER_ACCOUNT if player.bot_account else None
        # both limits counted again as it is stored (another process, or another connection,
        # may have scheduled or registered meanwhile)
        made = None if operator else PER_ACCOUNT
        limits = (player.id, entered, made) if entered is not None or made is not None else None
        await self._write(doc, new=True, limits=limits)
        self.docs[tid] = doc
        self._schedule(doc)
        self.watchers.setdefault(tid, set()).add(conn)
        self._reply(conn, {"type": "tourney", "tournament": self.public(doc, conn.lang)}, msg)

    def _reply(self, conn: Conn, out: dict[str, Any], msg: dict[str, Any]) -> None:
        if msg.get("ref") is not None:
            out["ref"] = msg["ref"]
        conn.send(out)

    async def on_list(self, conn: Conn, msg: dict[str, Any]) -> None:
        docs = await self.hub.storage.tournaments()
        docs = [self.docs.get(d["id"], d) for d in docs]
        order = {"playing": 0, "scheduled": 1, "over": 2}
        docs.sort(
            key=lambda d: (
                order.get(d["status"], 3),
                d["start_at"] * (1 if d["status"] == "scheduled" else -1),
            )
        )
        pid = conn.player.id if conn.player is not None else None
        items = []
        for d in docs[:100]:
            item = self.public(d, conn.lang, full=False)
            item["registered"] = any(p["id"] == pid for p in d["players"])
            items.append(item)
        self._reply(conn, {"type": "tourneys", "tournaments": items}, msg)

    async def on_show(self, conn: Conn, msg: dict[str, Any]) -> None:
        doc = await self._doc(msg["tournament"])
        if doc["status"] != "over":
            self.watchers.setdefault(doc["id"], set()).add(conn)
        self._reply(conn, {"type": "tourney", "tournament": self.public(doc, conn.lang)}, msg)

    async def on_join(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = conn.player
        assert player is not None
        doc = await self._doc(msg["tournament"])
        async with self._lock(doc["id"]):
            if doc["status"] != "scheduled":
                raise TableError("tourney_started")
            if not any(p["id"] == player.id for p in doc["players"]):
                if len(doc["players"]) >= MAX_PLAYERS:
                    raise TableError("tourney_full", params={"limit": MAX_PLAYERS})
                await self._bot_quota(player)
                _test_stop("tourney_quota_checked")
                doc["players"].append(_entry(player))
                # a bot account's limit counted again as it is stored, under a lock on its
                # row: a registration for another tournament at the same moment (run by
                # another process, which read this one's document as last stored) is
                # counted before or after this one, not beside it
                limits = (player.id, PER_ACCOUNT, None) if player.bot_account else None
                try:
                    await self._write(doc, limits=limits)
                except (StorageError, TableError):
                    # not stored: not registered (the next save would have stored it)
                    doc["players"] = [p for p in doc["players"] if p["id"] != player.id]
                    raise
                _test_stop("tourney_join_saved")
        self.watchers.setdefault(doc["id"], set()).add(conn)
        self._reply(conn, {"type": "tourney", "tournament": self.public(doc, conn.lang)}, msg)
        self._push(doc)

    async def _bot_quota(self, player: Any) -> None:
        """A bot account registered for ``PER_ACCOUNT`` tournaments not over may not register
        for another (by ``tourney_join``, or by scheduling one it enters): a program plays one
        match at a time (docs/bots.md); registered for more, its seats there would mostly be
        played by the house."""
        if player.bot_account and await self._entered(player.id) >= PER_ACCOUNT:
            raise TableError("tourney_bot_quota", params={"limit": PER_ACCOUNT})

    async def _entered(self, pid: str) -> int:
        """The tournaments not yet over that ``pid`` is registered for (:meth:`_live`)."""
        docs = (await self._live()).values()
        return sum(1 for d in docs if any(p["id"] == pid for p in d["players"]))

    async def _live(self) -> dict[str, dict[str, Any]]:
        """The tournaments not yet over, by id, for an account's limits: one process holds
        them all (``docs``); in a cluster each process runs some, so they are read from the
        database (this process's own as it holds them, the others' as last saved)."""
        if self.hub.cluster is None:
            return self.docs
        stored = {d["id"]: d for d in await self.hub.storage.live_tournaments()}
        return stored | self.docs

    async def on_leave(self, conn: Conn, msg: dict[str, Any]) -> None:
        player = conn.player
        assert player is not None
        doc = await self._doc(msg["tournament"])
        async with self._lock(doc["id"]):
            if doc["status"] != "scheduled":
                raise TableError("tourney_started")
            doc["players"] = [p for p in doc["players"] if p["id"] != player.id]
            await self._save(doc)
        self._reply(conn, {"type": "tourney", "tournament": self.public(doc, conn.lang)}, msg)
        self._push(doc)

    async def on_start(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Its creator (or an operator) starts a scheduled tournament now."""
        player = conn.player
        assert player is not None
        doc = await self._doc(msg["tournament"])
        operator = self.operator(player.account)
        if doc["creator"] != player.id and not operator:
            raise TableError("tourney_not_creator")
        if doc["status"] != "scheduled":
            raise TableError("tourney_started")
        timer = self._timers.pop(doc["id"], None)
        if timer is not None:
            timer.cancel()
        try:
            await self._begin(doc["id"])
        except StorageError:
            # not started (the player is told): it starts at its time still, or is tried again
            if self.docs.get(doc["id"]) is doc and doc["status"] == "scheduled":
                self._schedule(doc, None if doc["start_at"] > time.time() else START_RETRY)
            raise
        self._reply(conn, {"type": "ok", "tournament": doc["id"]}, msg)

    # ------------------------------------------------------------------ rounds
    async def _begin(self, tid: str) -> None:
        doc = self.docs.get(tid)
        if doc is None:
            return
        async with self._lock(tid):
            if doc["status"] != "scheduled":
                return
            if not doc["players"]:  # nobody came: over, with no results
                doc["status"] = "over"
                doc["finished"] = time.time()
                await self._save(doc)
                self.docs.pop(tid, None)
                return
            start_at = doc["start_at"]
            doc["status"] = "playing"
            # started early by its scheduler: "Started …" says when it did start
            doc["start_at"] = min(doc["start_at"], time.time())
            try:
                await self._next_round(doc)
            except StorageError:  # no table of its first round stored: not started
                doc["status"] = "scheduled"
                doc["start_at"] = start_at
                raise
        self._push(doc)

    def _pairing(self, doc: dict[str, Any], size: int) -> list[list[str | None]]:
        """The round's tables, each a list of player ids by seat (None: a bot)."""
        r = doc["round"]  # the round about to be played (1-based)
        ids = [p["id"] for p in doc["players"]]
        if r == 1:
            random.Random(doc["seed"]).shuffle(ids)
        else:
            ids = [p["player"] for p in standings(doc)]
        count = max(2, math.ceil(len(ids) / size))
        groups: list[list[str | None]] = []
        for k in range(count):
            group: list[str | None] = list(ids[k * size : (k + 1) * size])
            group += [None] * (size - len(group))
            # another seat number each round: rotate the group by the round
            shift = (r - 1) % size
            groups.append(group[shift:] + group[:shift])
        return groups

    async def _next_round(self, doc: dict[str, Any]) -> None:
        doc["round"] += 1
        r = doc["round"]
        rules = Rules.from_dict(doc["rules"])
        size = rules.players
        rng = random.Random(f"{doc['seed']}:{r}")
        seed = rng.getrandbits(63)
        dealer = rng.randrange(size)
        names = {p["id"]: p["name"] for p in doc["players"]}
        made: list[tuple[Table, list[str | None]]] = []
        for number, group in enumerate(self._pairing(doc, size), start=1):
            try:
                table = await self._new_round_table(doc, rules, number, seed, dealer)
            except StorageError as e:
                # a table could not be stored (the database; in a cluster, a lease run out, or
                # the tournament run by another process now, which makes the round's tables):
                # the round is not begun, and the tables made for it are closed
                if isinstance(e, Fenced):
                    self._lost(doc["id"])
                await self._undo_round(doc, [t for t, _ in made])
                raise
            seat_names = [
                names[pid] if pid is not None else f"Bot {number}.{i + 1}"
                for i, pid in enumerate(group)
            ]
            doc["tables"].append(
                {
                    "id": table.id,
                    "round": r,
                    "number": number,
                    "seats": group,
                    "names": seat_names,
                    "scores": None,
                }
            )
            self.by_table[table.id] = doc["id"]
            self._seating[table.id] = asyncio.Event()
            made.append((table, group))
        try:
            await self._save(doc)
        except Fenced:
            # run by another process now, whose document does not list these tables (it
            # makes the round again): closed here, where they are held (that process could
            # close only those nobody alive holds)
            await self._undo_round(doc, [t for t, _ in made])
            raise
        except StorageError as e:
            if self.hub.cluster is not None:
                # in a cluster, not seated: until the document listing them is stored, a
                # process that claims the tournament (this one's lease lapsed, or it died)
                # reads it without this round and makes the round again, and two sets of
                # tables would be played. The round is not begun (as when a table cannot be
                # stored): its tables are closed and it is tried again
                log.warning("could not save tournament %s at round %d: %s", doc["id"], r, e)
                await self._undo_round(doc, [t for t, _ in made])
                raise
            # one process: nobody else makes its rounds. The tables are made (and stored,
            # waiting): they are seated all the same, or nobody could ever sit there (a join
            # gives no seat at a tournament's table still waiting); the document is saved
            # again with the next change (a table's end)
            log.warning("could not save tournament %s at round %d: %s", doc["id"], r, e)
        _test_stop("round_made")
        try:
            for table, group in made:
                await table.call(functools.partial(self._seat, table, group, dealer))
                self._seated(table.id)
                self._tell_seated(doc, table.id, group)
        finally:  # (seating failed: those who wait for a seat are not kept waiting)
            for table, _ in made:
                self._seated(table.id)

    async def _undo_round(self, doc: dict[str, Any], made: list[Table]) -> None:
        """A round whose making failed (:meth:`_next_round`): not begun. Its tables (``made``)
        leave the document and are closed (those waiting for their seat are let go)."""
        doc["round"] -= 1
        made_ids = {t.id for t in made}
        doc["tables"] = [t for t in doc["tables"] if t["id"] not in made_ids]
        for t in made:
            self.by_table.pop(t.id, None)
            self._seated(t.id)
        for t in made:
            await self.hub.unmake(t)

    async def _new_round_table(
        self, doc: dict[str, Any], rules: Rules, number: int, seed: int, dealer: int
    ) -> Table:
        """Table ``number`` of the round ``doc`` is at, stored waiting (in a cluster, only by
        the process that runs the tournament: the fencing check is in its transaction)."""
        return await self.hub.new_table(
            kind="public",
            mode=None,
            rules=rules,
            options={
                "bots": True,
                "show_bots": True,
                "bot_level": doc["bot_level"],
                "tournament": doc["id"],
                # the table names its tournament and round (an unnamed one is named by
                # its rules' title in each reader's language: no name here)
                **({"tournament_name": doc["name"]} if doc["name"] else {}),
                "round": doc["round"],
                "rounds": doc["rounds"],
                "number": number,
            },
            host=None,
            seed=seed,
            dealer=dealer,
        )

    def _tell_seated(self, doc: dict[str, Any], table_id: str, group: list[str | None]) -> None:
        """Each registered player of a table just seated, online here: which table and seat."""
        for seat, pid in enumerate(group):
            if pid is None:
                continue
            note = {
                "type": "tourney_table",
                "tournament": doc["id"],
                "round": doc["round"],
                "table": table_id,
                "seat": seat,
            }
            for c in list(self.hub.online.get(pid, ())):
                c.send(note)
            if self.hub.cluster is not None:  # connected to another process
                self.hub.cluster.tourney_note(pid, note)

    async def _seat_waiting(self, doc: dict[str, Any]) -> None:
        """Under the tournament's lock: the round's tables still waiting to be seated and not
        being seated (made, then a restart before their seating) are seated now, each with
        the group the document says and the round's seed and first dealer (the table's own,
        stored when it was made): the same deals as the round's other tables."""
        for t in doc["tables"]:
            table = self.hub.tables.get(t["id"])
            if (
                t["round"] != doc["round"]
                or t.get("scores") is not None
                or table is None
                or table.status != "waiting"
                or t["id"] in self._seating
            ):
                continue
            self._seating[t["id"]] = asyncio.Event()
            try:
                group = list(t["seats"])
                dealer = table.row.dealer
                await table.call(functools.partial(self._seat, table, group, dealer))
            finally:
                self._seated(t["id"])
            self._tell_seated(doc, t["id"], group)

    def seat_coming(self, tid: str, table_id: str, pid: str) -> bool:
        """Whether the round's draw puts player ``pid`` at table ``table_id`` of tournament
        ``tid``: they wait for that seat, anyone else may only watch there. A tournament this
        process does not hold (another process of a cluster): said to be theirs, as before."""
        doc = self.docs.get(tid)
        if doc is None:
            return True
        return any(t["id"] == table_id and pid in t["seats"] for t in doc["tables"])

    def _seated(self, table_id: str) -> None:
        event = self._seating.pop(table_id, None)
        if event is not None:
            event.set()

    async def seated(self, table_id: str) -> None:
        """Until a round's table is seated (:meth:`_next_round`): a player who came there by
        its id before (a list read in the meantime, a page's link) waits for the seat that
        the tournament gives, rather than taking one of their own (``Table.join`` gives
        none at a tournament's table). A round's table still waiting that nobody seats (made,
        then the server stopped before seating it) is seated here first. At once for any
        other table."""
        event = self._seating.get(table_id)
        if event is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), SEATING_WAIT)
            return
        table = self.hub.tables.get(table_id)
        tid = self.by_table.get(table_id)
        doc = self.docs.get(tid or "")
        if table is not None and doc is None and self.hub.cluster is not None:
            await self.seat_taken(table)  # (its tournament run by another process)
            return
        if table is None or doc is None or table.status != "waiting":
            return
        # a round's table still waiting that nobody seats (a restart between its making and
        # its seating): seated now, as its tournament says, so the join finds its seat there
        async with self._lock(doc["id"]):
            if table_id not in self._seating and table.status == "waiting":
                await self._seat_waiting(doc)

    async def seat_taken(self, table: Table) -> None:
        """In a cluster: a round's table still waiting that this process took over (its
        process died between making and seating it): seated here, as the stored document
        says when another process runs its tournament (a table it does not list is left to
        the tournament's process, which closes it), or as the tournament says when this
        process runs it."""
        tid = str(table.options.get("tournament") or "")
        if not tid or table.id in self._seating or table.status != "waiting":
            return
        run = self.docs.get(tid)
        if run is not None:
            # its tournament is run here (claimed before this table, whose process was still
            # taken for alive then, or whose claim failed): seated as after a restart. Before,
            # nothing seated it: an all-bots table, which nobody joins, kept its round waiting
            # for good
            async with self._lock(tid):
                if self.docs.get(tid) is run:
                    await self._seat_waiting(run)
            return
        doc = await self.hub.storage.tournament(tid)
        listed = [t for t in (doc or {}).get("tables", ()) if t["id"] == table.id]
        if doc is None or not listed or doc["status"] != "playing":
            return
        group = list(listed[0]["seats"])
        entries = {p["id"]: p for p in doc["players"]}
        self._seating[table.id] = asyncio.Event()
        try:
            seat = functools.partial(self._seat, table, group, table.row.dealer, entries)
            await table.call(seat)
        finally:
            self._seated(table.id)
        self._tell_seated(doc, table.id, group)

    async def _seat(
        self,
        table: Table,
        group: list[str | None],
        dealer: int,
        entries: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        """Inside the table's actor: sit everyone, start; people not there are held for a
        while, then a bot plays for them until they come. ``entries``: the registered
        players by id (by default those of the tournament run here)."""
        if table.status != "waiting":  # seated already (a cluster: by another path)
            return
        opts = table.options
        if entries is None:
            entries = {p["id"]: p for p in self.docs[opts["tournament"]]["players"]}
        for seat, pid in enumerate(group):
            if pid is None:
                name = f"Bot {opts['number']}.{seat + 1}"
                await table.emit(
                    "sit", {"seat": seat, "player": None, "name": name, "bot": opts["bot_level"]}
                )
            else:
                entry = entries[pid]
                sit: dict[str, Any] = {"seat": seat, "player": pid, "name": entry["name"]}
                if entry.get("bot"):  # a bot account, marked at its table as at any other
                    sit["bot_account"] = True
                await table.emit("sit", sit)
        await table.emit(
            "start", {"dealer": dealer, "first_dealer": table.rules.first_dealer}, status="playing"
        )
        for seat, pid in enumerate(group):
            if pid is not None and not table.seats[seat].conns:
                table._hold(seat)

    # ------------------------------------------------------------------ results
    def deal_over(self, table: Table) -> None:
        """A deal ended at a tournament table: the live standings changed."""
        tid = self.by_table.get(table.id)
        doc = self.docs.get(tid or "")
        if doc is not None:
            self._push(doc)
        elif self.hub.cluster is not None and table.match is not None:
            # run by another process (this one took the table over): it hears the scores
            tid = str(table.options["tournament"])
            self.hub.cluster.tourney_table(tid, table.id, _scores(table.match.sheet), False)

    def table_over(self, table: Table) -> None:
        if table.id in self.by_table:
            scores = _scores(table.match.sheet) if table.match is not None else None
            self._spawn(self._table_done(table.id, scores))
        elif (
            self.hub.cluster is not None
            and table.options.get("tournament")
            and table.match is not None
        ):
            # a round's table taken over by this process, whose tournament is run by another
            # (or by none just now: the one that claims it reads the stored result)
            tid = str(table.options["tournament"])
            self.hub.cluster.tourney_table(tid, table.id, _scores(table.match.sheet), True)

    def reported(self, tid: str, table_id: str, scores: list[list[int]], over: bool) -> None:
        """In a cluster: another process that holds a table of a tournament run here says
        its scores so far, or (``over``) its result."""
        doc = self.docs.get(tid)
        if doc is None or not any(t["id"] == table_id for t in doc["tables"]):
            return
        if over:
            self._remote_live.pop(table_id, None)
            self._spawn(self._table_done(table_id, [list(map(int, r)) for r in scores]))
        else:
            self._remote_live[table_id] = [list(map(int, r)) for r in scores]
            self._push(doc)

    async def poll(self) -> None:
        """In a cluster, at each beat: the round's tables of the tournaments run here that
        other processes hold, and whose end was not heard (Redis away, a message lost, a
        process gone as the table ended), are read from storage; the tournament goes on
        when its round is over."""
        for tid, doc in list(self.docs.items()):
            if doc["status"] != "playing":
                continue
            current = [t for t in doc["tables"] if t["round"] == doc["round"]]
            away = [
                t for t in current if t.get("scores") is None and t["id"] not in self.hub.tables
            ]
            # every table of the round over, and no next round: its making failed (a table
            # could not be stored), tried again here
            stalled = bool(current) and all(t.get("scores") is not None for t in current)
            if stalled and time.monotonic() < self._next_try.get(tid, 0.0):
                continue  # (it failed a moment ago: tried again later, as a start is)
            if not away and not stalled:
                continue
            try:
                async with self._lock(tid):
                    found = False
                    for t in away:
                        if t.get("scores") is None and t["id"] not in self.hub.tables:
                            t["scores"] = await self._stored(t["id"])
                            found = found or t["scores"] is not None
                    if (found or stalled) and self.docs.get(tid) is doc:
                        await self._advance(doc)
            except StorageError as e:  # (the next beat tries again)
                log.warning("tournament %s: %s", tid, e)
                if stalled:  # the round's making failed: the wait doubles with each failure
                    self._next_try[tid] = time.monotonic() + self._retry_delay(tid)
                continue
            if stalled:
                self._failures.pop(tid, None)
                self._next_try.pop(tid, None)
            if found:
                self._push(doc)

    async def _table_done(self, table_id: str, scores: list[list[int]] | None) -> None:
        tid = self.by_table.get(table_id)
        doc = self.docs.get(tid or "")
        if doc is None:
            return
        async with self._lock(doc["id"]):
            if self.docs.get(doc["id"]) is not doc:  # over, or run elsewhere now
                return
            try:
                for t in doc["tables"]:
                    if t["id"] == table_id and t.get("scores") is None:
                        scores = scores if scores is not None else await self._stored(table_id)
                        t["scores"] = scores
                await self._advance(doc)
            except Fenced:  # (let go: run by another process now)
                return
            except StorageError as e:
                log.warning("tournament %s: %s", doc["id"], e)
                if self.hub.cluster is None:  # (in a cluster, poll() tries again at a beat)
                    self._retry_round(doc)
        self._push(doc)

    def _retry_round(
        self,
        doc: dict[str, Any],
        step: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    ) -> None:
        """On a single process: the tournament goes on :data:`START_RETRY` seconds after its
        round's end could not be stored or its next round made (a table could not be stored,
        the round undone), or its catch-up after a restart failed: :meth:`_advance` (or
        ``step``, the catch-up's) is tried again under its lock until it goes through, the wait
        doubled after each failure up to :data:`RETRY_MAX` (:meth:`_retry_delay`). Nothing once
        the server stops, nor for a tournament over or gone from memory by then."""
        tid = doc["id"]
        if self._stopped:
            return

        delay = self._retry_delay(tid)

        async def wait() -> None:
            await asyncio.sleep(delay)
            self._timers.pop(tid, None)
            async with self._lock(tid):
                if self.docs.get(tid) is not doc or doc["status"] != "playing":
                    return
                try:
                    await (step or self._advance)(doc)
                except Fenced:
                    return
                except StorageError as e:
                    log.warning("tournament %s: %s; trying again", tid, e)
                    self._retry_round(doc, step)
                    return
            self._failures.pop(tid, None)
            self._push(doc)

        self._timer(tid, wait())

    async def _stored(self, table_id: str) -> list[list[int]] | None:
        stored = await self.hub.storage.table(table_id)
        if stored is None or stored[0].record is None:
            return None
        return _scores(load_record_sheet(stored[0].record))

    async def _catch_up(self, tid: str) -> None:
        """After a restart: tables that finished while the tournament did not hear of it. A
        database error on the way: tried again (:meth:`_retry_round`) on a single process (in
        a cluster, poll() reads the round's tables at each beat)."""
        doc = self.docs.get(tid)
        if doc is None:
            return
        async with self._lock(tid):
            try:
                await self._caught_up(doc)
            except Fenced:  # (let go: run by another process now)
                return
            except StorageError as e:
                log.warning("tournament %s: %s", tid, e)
                if self.hub.cluster is None:
                    self._retry_round(doc, self._caught_up)

    async def _caught_up(self, doc: dict[str, Any]) -> None:
        """:meth:`_catch_up`'s steps, under the tournament's lock."""
        await self._close_unlisted(doc)
        cluster = self.hub.cluster
        for t in doc["tables"]:
            if t.get("scores") is None and t["id"] not in self.hub.tables:
                if cluster is not None and t["round"] == doc["round"]:
                    # held by nobody alive (its process went with the tournament's):
                    # taken here, where it can be seated if it was not yet
                    with contextlib.suppress(StorageError):
                        await cluster.claim(t["id"])
                if t["id"] not in self.hub.tables:
                    t["scores"] = await self._stored(t["id"])
        # made but not seated before the restart: seated now (nothing else would)
        await self._seat_waiting(doc)
        await self._advance(doc)

    async def _close_unlisted(self, doc: dict[str, Any]) -> None:
        """Tables of the tournament not over that its stored document does not list (a
        round's tables made, then its save failed or a process stopped or lost the
        tournament before it): nobody could ever be seated there, and the round they were
        made for is made again. Closed, as an abandoned room is."""
        listed = {t["id"] for t in doc["tables"]}
        for table_id in await self.hub.storage.tourney_tables(doc["id"]):
            if table_id in listed or table_id in self.hub.unclosed:  # (closed by the reaper)
                continue
            table = self.hub.tables.get(table_id)
            if table is None and self.hub.cluster is not None:
                with contextlib.suppress(StorageError):
                    await self.hub.cluster.claim(table_id)
                table = self.hub.tables.get(table_id)
            if table is None:
                if self.hub.cluster is not None:  # held by another live process: left there
                    log.warning(
                        "tournament %s: table %s is not listed in it and is held elsewhere",
                        doc["id"],
                        table_id,
                    )
                continue
            log.warning("tournament %s: table %s is not listed in it; closed", doc["id"], table_id)
            await self.hub.unmake(table)

    async def _advance(self, doc: dict[str, Any]) -> None:
        """If every table of the round is over: the next round, or the end."""
        current = [t for t in doc["tables"] if t["round"] == doc["round"]]
        if not current or any(t.get("scores") is None for t in current):
            await self._save(doc)
            return
        if doc["round"] < doc["rounds"]:
            await self._next_round(doc)
            return
        doc["status"] = "over"
        doc["finished"] = time.time()
        doc["standings"] = standings(doc)
        try:
            await self._save(doc)
        except StorageError:
            doc["status"] = "playing"
            raise
        self.docs.pop(doc["id"], None)
        if self.hub.cluster is not None:  # (over: nobody claims it again)
            self.hub.cluster.tourneys.pop(doc["id"], None)
        self._push(doc)
        self.watchers.pop(doc["id"], None)


def _entry(player: Any) -> dict[str, Any]:
    """A registered player in the tournament's document (``bot``: a bot account, shown as one
    in the standings)."""
    entry: dict[str, Any] = {"id": player.id, "name": player.name}
    if player.bot_account:
        entry["bot"] = True
    return entry


def load_record_sheet(record: dict[str, Any]) -> list[Any]:
    """The score sheet of a stored record."""
    import json

    return list(load_record(json.dumps(record)).sheet)
