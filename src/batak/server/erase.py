"""Deleting an account's personal data on request: the player's own ``delete_account``, or the
host's ``batak admin erase USERNAME``.

What goes:

* the account's name, username and password (the row stays, nameless, so that its games,
  chips and ratings still add up; it is marked ``removed`` and can never log in again, and the
  username is free for someone else);
* every session (a running server closes the connections of ended sessions, see
  :meth:`Hub.close_ended_sessions`) and the story-mode progress;
* the name wherever a table stored it: the finished matches' records (``meta.players``), the
  tournaments' documents (registered players, creator, seat names, standings), and the ``sit``
  events (what a table's seats are built from);
* the account's chat lines: their words and name (the line stays, marked ``removed``, so that
  the table's event numbers run on; a table leaves such lines out of its chat).

What stays: results, scores, chips, ratings and league points, under the player's id, which
names no one. Clients show such a seat as "Removed player".

It goes in two steps. :func:`erase_job` does the account, its sessions, records and tournaments
in one transaction. The events, every move of every table, are then read in parts of
:data:`PART` rows in key order (:func:`scrub_events`), each part a transaction of its own, so
that the tables' own writes go on between them. The account's ``dirty`` time is when its name
may last have been written (the erasure; a server that found one of its connections still
open); a pass over the events that began :data:`SETTLE` seconds or more after it, by when every
server has let go of the account, counts, and its start is kept as ``scrubbed``. Until one
has, a server's reaper starts a pass (:func:`pending_job`): the second pass, a name written
again meanwhile, or a server stopped midway are all caught that way.

An account that still sits at a table waiting for its start or being played, or is registered
for (or created) a tournament not over, is not erased: the player can leave the room, and the
match and the tournament end by themselves. The caller is told which ones (:class:`Erasure`),
and nothing is changed. An adjourned room ("continue later") may wait for ever, so it does not
stand in the way: its seat stays, nameless, and a computer player plays it if the room is
resumed. Nor does a table the server has kept aside to be closed (its close was refused by the
database, see :meth:`Hub.unmake <batak.server.hub.Hub.unmake>`): it never starts, nobody can
join or leave it, and no chip is in it; the caller names those (``kept``). In a cluster the
caller names them with the node that keeps each and the epoch it holds it at (``kept_at``: its
own and, from Redis, the other nodes'), and such a table is left out only if ``table_owners``
still says so, read with a shared row lock in the erasure's transaction: a node never starts a
table it kept aside, and nobody else can claim it before the erasure is committed, so it cannot
start meanwhile; a table another node has claimed since (a raised epoch), or that its node let
go of (stopped, no owner), counts as any other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = [
    "PART",
    "SETTLE",
    "Erasure",
    "dirty_job",
    "erase_job",
    "pending_job",
    "recent_job",
    "scrub_events",
    "scrub_line",
    "scrub_tournament",
    "walk_events",
]

#: the statuses of a table where a seated account is not erased (see the module's text)
UNFINISHED = ("waiting", "playing")
T = TypeVar("T")

#: events read in one transaction of :func:`walk_events`
PART = 2000
#: seconds after an erasure by which every server has let go of the account: its cached
#: sessions are checked again (``session_recheck_seconds``) and its connections closed
#: (``reap_every``), 30 s each by default. The events are scrubbed once at once, and again by
#: the first pass that starts this long after, which catches a name written in between.
SETTLE = 120.0


@dataclass
class Erasure:
    """What :func:`erase_job` did, or why it did nothing."""

    #: the account's data was erased
    erased: bool = False
    #: the password checked was no longer the account's (a reset by the host meanwhile)
    password_changed: bool = False
    #: the codes of the tables not finished where the account sits (nothing erased)
    tables: list[str] = field(default_factory=list)
    #: the names of the tournaments not over it takes part in or created (nothing erased)
    tournaments: list[str] = field(default_factory=list)
    #: the sessions ended (their token hashes)
    sessions: list[str] = field(default_factory=list)
    #: how many finished matches' records lost the name (the events: :func:`scrub_events`)
    games: int = 0

    @property
    def busy(self) -> bool:
        return bool(self.tables or self.tournaments)


def erase_job(
    q: Callable[[str], str],
    player_id: str,
    *,
    checked: str | None = None,
    kept: Collection[str] = (),
    kept_at: Mapping[str, tuple[str, int]] | None = None,
) -> Callable[[Any], Erasure]:
    """A storage job (``Storage.run``) that erases the personal data of ``player_id``. ``q``
    turns ``?`` placeholders into the database's (``Storage.q``). With ``checked``, it erases
    only if the account's password hash is still that one (the one the player's password was
    just checked against). ``kept``: the ids of tables kept aside to be closed (stored as
    waiting, never to start), where a seat does not stand in the way. ``kept_at`` (a cluster's):
    such tables by id, each with the node that keeps it and the epoch it holds it at, left out
    only while ``table_owners`` still names that node and epoch (see the module's text).

    The job runs in a transaction of its own (:class:`~batak.server.storage._Alone`), never
    in a batch beside other jobs: two erasures batched together would lock their kept
    tables' owner rows in the order of the jobs, not of the tables' ids, and a node's
    release of those tables (which locks them in id order, :func:`_still_kept`) could then
    wait for the batch while the batch waited for it (a deadlock)."""
    from .storage import _Alone

    # The account's row is locked first (PostgreSQL; SQLite runs one writer at a time), with
    # the lock its update takes later: a process ending the account's sessions meanwhile
    # (Storage.end_sessions) writes that row and then deletes the sessions, so an erasure
    # that deleted the sessions first and then waited for the row deadlocked with it.
    lock = " FOR UPDATE" if q("?") != "?" else ""

    def job(cur: Any) -> Erasure:
        out = Erasure()
        cur.execute(q("SELECT password_hash FROM players WHERE id = ?" + lock), (player_id,))
        row = cur.fetchone()
        if row is None or (checked is not None and row[0] != checked):
            out.password_changed = True
            return out
        out.tables = _seated_at(cur, q, player_id, kept, kept_at or {})
        out.tournaments = _live_tournaments(cur, q, player_id)
        if out.busy:
            return out
        now = time.time()
        cur.execute(q("SELECT token_hash FROM sessions WHERE player_id = ?"), (player_id,))
        out.sessions = [str(r[0]) for r in cur.fetchall()]
        cur.execute(q("DELETE FROM sessions WHERE player_id = ?"), (player_id,))
        cur.execute(q("DELETE FROM story_progress WHERE player_id = ?"), (player_id,))
        # nameless, no way in (the token hash must stay unique), left out of every leaderboard
        # and of the league as a banned account is
        cur.execute(
            q(
                "UPDATE players SET name = '', username = NULL, folded = NULL, search_key = NULL,"
                " password_hash = NULL, token_hash = ?, banned = COALESCE(banned, ?),"
                " ban_reason = NULL, seen = NULL, removed = ?, dirty = ?, scrubbed = NULL"
                " WHERE id = ?"
            ),
            (f"removed:{player_id}", now, now, now, player_id),
        )
        out.games = len(_scrub_records(cur, q, player_id))
        _scrub_tournaments(cur, q, player_id)
        out.erased = True
        return out

    return _Alone(job)


def _seated_at(
    cur: Any,
    q: Callable[[str], str],
    pid: str,
    kept: Collection[str] = (),
    kept_at: Mapping[str, tuple[str, int]] | None = None,
) -> list[str]:
    """The codes of the unfinished tables where ``pid`` sits now (but those of ``kept``, and
    those of ``kept_at`` still held so: :func:`_still_kept`): its seats replayed from the
    table's ``sit`` and ``stand`` events."""
    marks = ", ".join("?" * len(UNFINISHED))
    # (only the unfinished tables' events are read: found by status, then by the events' key)
    cur.execute(
        q(
            "SELECT t.id, t.code, e.kind, e.data FROM tables t JOIN events e ON e.table_id = t.id"
            f" WHERE t.status IN ({marks}) AND e.kind IN ('sit', 'stand')"
            " ORDER BY t.id, e.version"
        ),
        UNFINISHED,
    )
    seats: dict[tuple[str, str], dict[int, Any]] = {}
    for table_id, code, kind, data in cur.fetchall():
        if table_id in kept:
            continue
        d = json.loads(data)
        table = seats.setdefault((str(table_id), str(code)), {})
        table[int(d["seat"])] = d.get("player") if kind == "sit" else None
    mine = {tid: code for (tid, code), table in seats.items() if pid in table.values()}
    fenced = kept_at or {}
    for tid in _still_kept(cur, q, {t: fenced[t] for t in mine if t in fenced}):
        del mine[tid]
    return sorted(mine.values())


def _still_kept(
    cur: Any, q: Callable[[str], str], kept_at: Mapping[str, tuple[str, int]]
) -> set[str]:
    """Of ``kept_at`` (a cluster's tables kept aside, each with its node and epoch), those
    that ``table_owners`` still gives to that node at that epoch. The rows are read with a
    shared lock, held until the transaction ends: a claim (which raises the epoch) waits for
    it, so none of them can be taken over, and so started, before the erasure is committed.

    The lock order: these rows are the first the erasure locks after the account's own row
    (which no release locks; what it read between takes no lock), in the order of
    ``table_id``. A node lets go of its tables' rows (it stops, or
    puts them away) in a transaction that locks nothing else, in that same order
    (:func:`batak.server.cluster.owner.release_job`), so neither can hold a row the other
    waits for while it waits for one the other holds (a deadlock, which PostgreSQL ended
    after ``deadlock_timeout`` with the erasure's ``storage`` error). The erasure is never
    batched beside other jobs (:func:`erase_job`): another erasure before it in one
    transaction would hold other tables' rows, locked in the order of the jobs."""
    if not kept_at:
        return set()
    ids = sorted(kept_at)
    marks = ", ".join("?" * len(ids))
    cur.execute(
        q(
            "SELECT table_id, owner, epoch FROM table_owners"
            f" WHERE table_id IN ({marks}) ORDER BY table_id FOR SHARE"
        ),
        ids,
    )
    return {str(t) for t, o, e in cur.fetchall() if kept_at[str(t)] == (o, int(e))}


def _like(pid: str) -> str:
    """A ``LIKE`` pattern for the text that holds ``pid`` (ids are "p" and hex: no wildcard)."""
    return f"%{pid}%"


def _live_tournaments(cur: Any, q: Callable[[str], str], pid: str) -> list[str]:
    cur.execute(
        q("SELECT data FROM tournaments WHERE status <> 'over' AND data LIKE ?"), (_like(pid),)
    )
    names = []
    for (data,) in cur.fetchall():
        doc = json.loads(data)
        if doc.get("creator") == pid or any(p.get("id") == pid for p in doc.get("players", ())):
            names.append(str(doc.get("name") or doc.get("id")))
    return sorted(names)


def scrub_line(kind: str, data: dict[str, Any], pid: str) -> bool:
    """Take ``pid``'s name (a ``sit``) or name and words (a ``chat`` line) out of one event's
    data, in place; returns whether it changed (it was theirs, and not scrubbed before)."""
    if kind not in ("sit", "chat") or data.get("player") != pid:
        return False
    if data.get("name") == "" and (kind == "sit" or data.get("removed")):
        return False
    data["name"] = ""
    if kind == "chat":
        data["text"] = ""
        data["removed"] = True
    return True


Row = tuple[Any, ...]
Run = Callable[[Callable[[Any], Any]], Awaitable[Any]]


async def walk_events(
    run: Run,
    q: Callable[[str], str],
    visit: Callable[[Any, list[Row]], T],
) -> list[T]:
    """Read every stored event, :data:`PART` at a time in the order of their key (``table_id,
    version``), each part a storage job of its own (``run``: ``Storage.run``) so that the
    tables' own writes go on between them; ``visit(cursor, rows)`` sees each part's rows
    (``table_id, version, kind, data, at``) inside its transaction. Returns what it
    returned."""
    cols = "SELECT table_id, version, kind, data, at FROM events"
    start = q(f"{cols} ORDER BY table_id, version LIMIT ?")
    # a row value: both databases walk their primary key's index from there (an OR of the two
    # columns would make SQLite read from the start every time)
    then = q(f"{cols} WHERE (table_id, version) > (?, ?) ORDER BY table_id, version LIMIT ?")
    after: tuple[str, int] | None = None
    out: list[T] = []

    def part(cur: Any) -> tuple[tuple[str, int] | None, T]:
        if after is None:
            cur.execute(start, (PART,))
        else:
            cur.execute(then, (after[0], after[1], PART))
        rows = [tuple(r) for r in cur.fetchall()]
        last = (str(rows[-1][0]), int(rows[-1][1])) if len(rows) == PART else None
        return last, visit(cur, rows)

    while True:
        after, got = await run(part)
        out.append(got)
        if after is None:
            return out


async def scrub_events(
    run: Run, q: Callable[[str], str], pid: str, *, settle: float = SETTLE
) -> tuple[int, int]:
    """Take an erased account's name and chat words out of every stored event, a part at a
    time (:func:`walk_events`); a pass that began ``settle`` seconds or more after the
    account's ``dirty`` time counts (see the module's text). Returns how many tables and chat
    lines changed."""
    started = time.time()
    update = q("UPDATE events SET data = ? WHERE table_id = ? AND version = ?")

    def visit(cur: Any, rows: list[Row]) -> tuple[set[str], int]:
        changed: list[tuple[str, str, int]] = []
        tables: set[str] = set()
        chat = 0
        for table_id, version, kind, data, _ in rows:
            if kind not in ("sit", "chat") or pid not in data:
                continue
            d = json.loads(data)
            if scrub_line(kind, d, pid):
                chat += kind == "chat"
                tables.add(str(table_id))
                changed.append((json.dumps(d, ensure_ascii=False), str(table_id), int(version)))
        if changed:
            cur.executemany(update, changed)
        return tables, chat

    parts = await walk_events(run, q, visit)
    tables = set().union(*(t for t, _ in parts))
    chat = sum(n for _, n in parts)
    # it counts only if it began once every server had let go of the account
    done = q("UPDATE players SET scrubbed = ? WHERE id = ? AND removed IS NOT NULL AND dirty <= ?")

    def mark(cur: Any) -> None:
        cur.execute(done, (started, pid, started - settle))
        # a record or tournament that a server wrote after the first step: again, at once
        _scrub_records(cur, q, pid)
        _scrub_tournaments(cur, q, pid)

    from .storage import _Alone

    # alone, as erase_job: the jobs of a batch before it could hold some of the rows its
    # scrubs lock in id order (:func:`_scrubbed`), taken in the batch's order
    await run(_Alone(mark))
    return len(tables), chat


def pending_job(
    q: Callable[[str], str], now: float, settle: float = SETTLE
) -> Callable[[Any], list[str]]:
    """The erased accounts due a pass over the events: none that counts (see the module's
    text) has begun since ``settle`` seconds after their ``dirty`` time, which is at least
    that long before ``now``."""

    def job(cur: Any) -> list[str]:
        cur.execute(
            q(
                "SELECT id FROM players WHERE removed IS NOT NULL AND dirty <= ?"
                " AND (scrubbed IS NULL OR scrubbed < dirty + ?)"
            ),
            (now - settle, settle),
        )
        return [str(r[0]) for r in cur.fetchall()]

    return job


def recent_job(q: Callable[[str], str], since: float) -> Callable[[Any], list[str]]:
    """The accounts erased since ``since`` (for a server to let go of them in its memory)."""

    def job(cur: Any) -> list[str]:
        cur.execute(q("SELECT id FROM players WHERE removed >= ?"), (since,))
        return [str(r[0]) for r in cur.fetchall()]

    return job


def dirty_job(q: Callable[[str], str], pids: list[str]) -> Callable[[Any], list[str]]:
    """Of ``pids`` (players whose connections a server found still open), the erased ones,
    whose ``dirty`` time becomes now: they may have written their name meanwhile."""

    def job(cur: Any) -> list[str]:
        removed = []
        now = time.time()
        for pid in pids:
            cur.execute(
                q("UPDATE players SET dirty = ? WHERE id = ? AND removed IS NOT NULL"), (now, pid)
            )
            if cur.rowcount == 1:
                removed.append(pid)
        return removed

    return job


def _scrubbed(
    cur: Any,
    q: Callable[[str], str],
    select: str,
    column: str,
    order: str,
    again: str,
    args: tuple[Any, ...],
    fix: Callable[[str, list[Any]], str | None],
) -> list[tuple[str, str]]:
    """The rows a scrub changes, as ``(new text, id)`` in the order of their ids, each row
    locked (PostgreSQL) until the transaction ends. ``select``: the rows ``(id, text, what)``
    (``{text}`` where the text's ``column`` goes; a row may come more than once, one
    ``what`` each); ``order``: its ``ORDER BY`` of the ids, and the lock's ``OF`` if it
    joins; ``again``: the text of rows by id (``IN ({ids})``); ``fix(text, whats)``: the
    text without the name, or None if unchanged.

    Two erasures of people who played the same matches (or tournaments) share rows. Read
    without a lock and written in the order of the read (a join's, a scan's), the second to
    commit wrote back a copy from before the first's write (the first one's name put back),
    and two reads in other orders could each hold a row the other waited for (a deadlock,
    which PostgreSQL ended). So on PostgreSQL the rows are then locked in the order of their
    ids (``FOR NO KEY UPDATE``, the lock of the update that follows), and each is checked
    against the text read (its ``md5``): a row written in between, or new, is read again,
    locked, and fixed from that. The second erasure waits at its first shared row, then
    fixes what the first wrote. The texts are fixed before the lock (the longest part: the
    rows are held only for the check and the writes). SQLite has one writer at a time: the
    read is what is written over."""
    import hashlib

    def grouped(rows: list[Any]) -> dict[str, tuple[str, list[Any]]]:
        out: dict[str, tuple[str, list[Any]]] = {}
        for row_id, text, what in rows:
            out.setdefault(str(row_id), (str(text), []))[1].append(what)
        return out

    cur.execute(q(select.format(text=column)), args)
    read = grouped(cur.fetchall())
    fixed = {i: fix(text, whats) for i, (text, whats) in read.items()}
    locked = read
    if q("?") != "?":
        cur.execute(q(select.format(text=f"md5({column})") + f" ORDER BY {order}"), args)
        locked = grouped(cur.fetchall())
        stale = sorted(
            i
            for i, (digest, whats) in locked.items()
            if i not in read
            or sorted(read[i][1], key=repr) != sorted(whats, key=repr)
            or hashlib.md5(read[i][0].encode("utf-8"), usedforsecurity=False).hexdigest() != digest
        )
        for at in range(0, len(stale), 1000):  # (a bounded number of parameters)
            some = stale[at : at + 1000]
            cur.execute(q(again.format(ids=", ".join("?" * len(some)))), some)
            for row_id, text in cur.fetchall():
                fixed[str(row_id)] = fix(str(text), locked[str(row_id)][1])
    out = []
    for i in sorted(locked):
        text = fixed.get(i)
        if text is not None:
            out.append((text, i))
    return out


def _scrub_records(cur: Any, q: Callable[[str], str], pid: str) -> set[str]:
    """The name out of the finished matches' records (``meta.players``, by seat); returns the
    tables changed. Their rows are locked in the order of their ids (:func:`_scrubbed`)."""

    def fix(text: str, mine: list[Any]) -> str | None:
        record = json.loads(text)
        names = record.get("meta", {}).get("players")
        if not isinstance(names, list):
            return None
        for seat in mine:
            if 0 <= int(seat) < len(names):
                names[int(seat)] = ""
        return json.dumps(record, ensure_ascii=False)

    changed = _scrubbed(
        cur,
        q,
        "SELECT t.id, {text}, r.seat FROM tables t JOIN results r ON r.table_id = t.id"
        " WHERE r.player_id = ? AND t.record IS NOT NULL",
        "t.record",
        "t.id, r.seat FOR NO KEY UPDATE OF t",
        "SELECT id, record FROM tables WHERE id IN ({ids})",
        (pid,),
        fix,
    )
    if changed:
        cur.executemany(q("UPDATE tables SET record = ? WHERE id = ?"), changed)
    return {table_id for _, table_id in changed}


def scrub_tournament(doc: dict[str, Any], pid: str) -> bool:
    """Take ``pid``'s name out of a tournament's document, in place; returns whether a name
    was there to take out."""
    found = False
    if doc.get("creator") == pid and doc.get("creator_name"):
        doc["creator_name"] = ""
        found = True
    for p in [*doc.get("players", ()), *doc.get("standings", ())]:
        if pid in (p.get("id"), p.get("player")) and p.get("name"):
            p["name"] = ""
            found = True
    for t in doc.get("tables", ()):
        names = t.get("names") or []
        for i, seat_pid in enumerate(t.get("seats") or ()):
            if seat_pid == pid and i < len(names) and names[i]:
                names[i] = ""
                found = True
    return found


def _scrub_tournaments(cur: Any, q: Callable[[str], str], pid: str) -> None:
    """The name out of the tournaments' documents (all over: see :func:`_live_tournaments`),
    their rows locked in the order of their ids (:func:`_scrubbed`)."""

    def fix(text: str, _: list[Any]) -> str | None:
        doc = json.loads(text)
        return json.dumps(doc, ensure_ascii=False) if scrub_tournament(doc, pid) else None

    changed = _scrubbed(
        cur,
        q,
        "SELECT id, {text}, NULL FROM tournaments WHERE data LIKE ?",
        "data",
        "id FOR NO KEY UPDATE",
        "SELECT id, data FROM tournaments WHERE id IN ({ids})",
        (_like(pid),),
        fix,
    )
    if changed:
        cur.executemany(q("UPDATE tournaments SET data = ? WHERE id = ?"), changed)
