"""Deleting an account's personal data on request: the player's own ``delete_account``, or the
host's ``batak admin erase USERNAME``.

What goes, in one transaction:

* the account's name, username and password (the row stays, nameless, so that its games,
  chips and ratings still add up; it is marked ``removed`` and can never log in again, and the
  username is free for someone else);
* every session (a running server closes the connections of ended sessions, see
  :meth:`Hub.close_ended_sessions`) and the story-mode progress;
* the name wherever a table stored it: the ``sit`` events (what a table's seats are built
  from), the finished matches' records (``meta.players``) and the tournaments' documents
  (registered players, creator, seat names);
* the account's chat lines: their words and name (the line stays, marked ``removed``, so that
  the table's event numbers run on; a table leaves such lines out of its chat).

What stays: results, scores, chips, ratings and league points, under the player's id, which
names no one. Clients show such a seat as "a removed player".

An account that still sits at a table not finished (waiting, playing or adjourned), or is
registered for (or created) a tournament not over, is not erased: the table or tournament in
a server's memory would write the name again. The caller is told which ones (:class:`Erasure`),
and nothing is changed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Erasure", "erase_job"]

#: the statuses of a table not yet finished (see :class:`batak.server.storage.TableRow`)
UNFINISHED = ("waiting", "playing", "adjourned")


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
    #: how many stored tables' events or records lost the name, how many chat lines went
    games: int = 0
    chat: int = 0

    @property
    def busy(self) -> bool:
        return bool(self.tables or self.tournaments)


def erase_job(
    q: Callable[[str], str], player_id: str, *, checked: str | None = None
) -> Callable[[Any], Erasure]:
    """A storage job (``Storage.run``) that erases the personal data of ``player_id``. ``q``
    turns ``?`` placeholders into the database's (``Storage.q``). With ``checked``, it erases
    only if the account's password hash is still that one (the one the player's password was
    just checked against)."""
    like = f"%{player_id}%"  # ids are "p" and hex: no LIKE wildcard in them

    def job(cur: Any) -> Erasure:
        out = Erasure()
        cur.execute(q("SELECT password_hash FROM players WHERE id = ?"), (player_id,))
        row = cur.fetchone()
        if row is None or (checked is not None and row[0] != checked):
            out.password_changed = True
            return out
        out.tables = _seated_at(cur, q, player_id, like)
        out.tournaments = _live_tournaments(cur, q, player_id, like)
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
                "UPDATE players SET name = '', username = NULL, password_hash = NULL,"
                " token_hash = ?, banned = COALESCE(banned, ?), ban_reason = NULL, removed = ?"
                " WHERE id = ?"
            ),
            (f"removed:{player_id}", now, now, player_id),
        )
        tables, out.chat = _scrub_events(cur, q, player_id, like)
        out.games = len(tables | _scrub_records(cur, q, player_id))
        _scrub_tournaments(cur, q, player_id, like)
        out.erased = True
        return out

    return job


def _seated_at(cur: Any, q: Callable[[str], str], pid: str, like: str) -> list[str]:
    """The codes of the unfinished tables where ``pid`` sits now: its seats replayed from the
    table's ``sit`` and ``stand`` events."""
    marks = ", ".join("?" * len(UNFINISHED))
    cur.execute(
        q(
            "SELECT t.code, e.kind, e.data FROM tables t JOIN events e ON e.table_id = t.id"
            f" WHERE t.status IN ({marks}) AND e.kind IN ('sit', 'stand')"
            " AND t.id IN (SELECT table_id FROM events WHERE kind = 'sit' AND data LIKE ?)"
            " ORDER BY t.id, e.version"
        ),
        (*UNFINISHED, like),
    )
    seats: dict[str, dict[int, Any]] = {}
    for code, kind, data in cur.fetchall():
        d = json.loads(data)
        table = seats.setdefault(str(code), {})
        table[int(d["seat"])] = d.get("player") if kind == "sit" else None
    return sorted(code for code, table in seats.items() if pid in table.values())


def _live_tournaments(cur: Any, q: Callable[[str], str], pid: str, like: str) -> list[str]:
    cur.execute(q("SELECT data FROM tournaments WHERE status <> 'over' AND data LIKE ?"), (like,))
    names = []
    for (data,) in cur.fetchall():
        doc = json.loads(data)
        if doc.get("creator") == pid or any(p.get("id") == pid for p in doc.get("players", ())):
            names.append(str(doc.get("name") or doc.get("id")))
    return sorted(names)


def _scrub_events(cur: Any, q: Callable[[str], str], pid: str, like: str) -> tuple[set[str], int]:
    """The name out of ``pid``'s ``sit`` events, the words out of its chat lines; returns the
    tables changed and how many chat lines."""
    cur.execute(
        q(
            "SELECT table_id, version, kind, data FROM events"
            " WHERE kind IN ('sit', 'chat') AND data LIKE ?"
        ),
        (like,),
    )
    changed: list[tuple[str, str, int]] = []
    tables: set[str] = set()
    chat = 0
    for table_id, version, kind, data in cur.fetchall():
        d = json.loads(data)
        if d.get("player") != pid:
            continue
        d["name"] = ""
        if kind == "chat":
            d["text"] = ""
            d["removed"] = True
            chat += 1
        tables.add(str(table_id))
        changed.append((json.dumps(d, ensure_ascii=False), str(table_id), int(version)))
    if changed:
        cur.executemany(q("UPDATE events SET data = ? WHERE table_id = ? AND version = ?"), changed)
    return tables, chat


def _scrub_records(cur: Any, q: Callable[[str], str], pid: str) -> set[str]:
    """The name out of the finished matches' records (``meta.players``, by seat); returns the
    tables changed."""
    cur.execute(
        q(
            "SELECT t.id, t.record, r.seat FROM tables t JOIN results r ON r.table_id = t.id"
            " WHERE r.player_id = ? AND t.record IS NOT NULL"
        ),
        (pid,),
    )
    seats: dict[str, tuple[str, list[int]]] = {}
    for table_id, record, seat in cur.fetchall():
        seats.setdefault(str(table_id), (str(record), []))[1].append(int(seat))
    changed = []
    for table_id, (text, mine) in seats.items():
        record = json.loads(text)
        names = record.get("meta", {}).get("players")
        if not isinstance(names, list):
            continue
        for seat in mine:
            if 0 <= seat < len(names):
                names[seat] = ""
        changed.append((json.dumps(record, ensure_ascii=False), table_id))
    if changed:
        cur.executemany(q("UPDATE tables SET record = ? WHERE id = ?"), changed)
    return {table_id for _, table_id in changed}


def _scrub_tournaments(cur: Any, q: Callable[[str], str], pid: str, like: str) -> None:
    """The name out of the tournaments' documents (all over: see :func:`_live_tournaments`)."""
    cur.execute(q("SELECT id, data FROM tournaments WHERE data LIKE ?"), (like,))
    changed = []
    for tid, data in cur.fetchall():
        doc = json.loads(data)
        if doc.get("creator") == pid:
            doc["creator_name"] = ""
        for p in doc.get("players", ()):
            if p.get("id") == pid:
                p["name"] = ""
        for t in doc.get("tables", ()):
            names = t.get("names") or []
            for i, seat_pid in enumerate(t.get("seats") or ()):
                if seat_pid == pid and i < len(names):
                    names[i] = ""
        changed.append((json.dumps(doc, ensure_ascii=False), str(tid)))
    if changed:
        cur.executemany(q("UPDATE tournaments SET data = ? WHERE id = ?"), changed)
