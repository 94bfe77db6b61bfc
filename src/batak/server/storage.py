"""Storage: players, tables, every table event, finished matches and statistics.

One worker thread owns the database connection. Jobs queue up for it and are run in batches, one
transaction per batch (group commit), so a burst of moves from many tables costs one commit; a
job's future resolves only after its transaction committed. Under load the worker also waits
until ``commit_gap`` seconds have passed since its last commit before it takes the next batch
(:class:`Storage`), so that the moves of many tables share one commit instead of each having
its own; when writes come further apart than that, none waits. The same SQL runs on SQLite (the
default, embedded: ``sqlite:///path``) and PostgreSQL (``postgresql://…``, with psycopg 3).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .config import MAX_COMMIT_GAP, SQLITE_SYNC

__all__ = [
    "EventRow",
    "Fenced",
    "OverLimit",
    "PlayerRow",
    "Storage",
    "StorageError",
    "StorageUnusable",
    "TableRow",
    "open_storage",
    "shown_url",
]

T = TypeVar("T")

#: The PostgreSQL advisory lock ("batak" and 2) that processes opening one database take in
#: turn while they create the schema and run the migrations (two at once would both try to
#: create the same tables: ``CREATE TABLE IF NOT EXISTS`` is not safe against that). Not the
#: lock of ``batak serve`` (cli/serve.py), which the nodes of a cluster hold for as long as
#: they run.
SCHEMA_LOCK = 0x626174616B0002

#: SQLite's result codes for a write that failed for the disk's or the file's sake (full, an
#: I/O error, made read-only, damaged, gone): not a job's own mistake (a unique name taken) nor
#: a passing wait (another process's lock). Such a failure makes ``/healthz`` answer 503 until
#: a write is committed again (:meth:`Storage.reachable`).
SQLITE_DISK_FAILURES = frozenset(
    {
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_CANTOPEN,
    }
)

#: The bytes :meth:`Storage.reachable` writes (and deletes in the same transaction) on SQLite
#: while the last write failed for the disk: room for them means room for moves again.
PROBE_BYTES = 16384


class StorageError(RuntimeError):
    """The database refused or failed a job."""


class StorageUnusable(StorageError):
    """The database cannot be used at all (:meth:`Storage.check`). ``kind`` says why:

    - ``"folder"``: the SQLite file's folder cannot be made or written (``errno`` is the
      operating system's error number);
    - ``"missing"``: there is no database there, and the check was told not to make one;
    - ``"not_database"``: the file is there but is not an SQLite database;
    - ``"unreachable"``: PostgreSQL refused the connection or did not answer.

    ``detail`` is the underlying error's own words (English, from the library or the system)."""

    def __init__(self, kind: str, detail: str, errno: int | None = None) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.errno = errno


def _write_nothing(conn: sqlite3.Connection) -> None:
    """Write to the SQLite database without changing it (a write taken back): raises
    :class:`StorageUnusable` ("folder", EACCES) when the file or its folder may only be read."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA user_version={version}")
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_READONLY:
            raise StorageUnusable("folder", str(e), errno.EACCES) from e
        raise StorageUnusable("unreachable", str(e)) from e


def shown_url(url: str, mask: str = "***") -> str:
    """``url`` as it may be printed or logged: a password in it, after the user name or in the
    query (``?password=…``, ``sslpassword=…``), is replaced by ``mask``; the rest as written.
    It never raises: what is before the last ``@`` of the host part is masked as written,
    without reading the port, which may be what made the address wrong.

    >>> shown_url("postgresql://ann:secret@db:5432/batak")
    'postgresql://ann:***@db:5432/batak'
    >>> shown_url("postgresql://db/batak?user=ann&password=secret&sslmode=require")
    'postgresql://db/batak?user=ann&password=***&sslmode=require'
    >>> shown_url("postgresql:///batak?host=/run/postgresql&password=x")
    'postgresql:///batak?host=/run/postgresql&password=***'
    >>> shown_url("sqlite:////srv/batak/batak.sqlite3")
    'sqlite:////srv/batak/batak.sqlite3'
    >>> shown_url("redis://:hush@cache:99999/0"), shown_url("postgresql://u:p@w@db:abc/x")
    ('redis://:***@cache:99999/0', 'postgresql://u:***@db:abc/x')
    >>> shown_url("redis://[::1:6379/0"), shown_url("redis://u:pw@[::1/0")
    ('redis://[::1:6379/0', 'redis://u:***@[::1/0')
    >>> shown_url("postgresql://ann:pa?ss@db/batak"), shown_url("redis://:s3cr#t@cache/0")
    ('postgresql://ann:***@db/batak', 'redis://:***@cache/0')

    >>> shown_url("postgresql://ann:pa/ss@db/batak")
    'postgresql://ann:***@db/batak'

    (A password may hold ``?``, ``#`` or ``/``: what comes before the last ``@`` is taken for
    the user's part, whatever the parsers make of it; masking more than a password, in an odd
    address, is the safe side.)
    """
    scheme, sep, rest = url.partition("://")
    if sep and not scheme.startswith("sqlite"):  # (a file's path may hold "@" and ":")
        user_info, at, tail = rest.rpartition("@")
        user, colon, _ = user_info.partition(":")
        if at and colon:
            url = f"{scheme}://{user}:{mask}@{tail}"
    head, mark, query = url.partition("?")
    if mark and "password" in query.lower():
        fields = query.split("&")
        for i, field in enumerate(fields):
            name, eq, _ = field.partition("=")
            if eq and "password" in name.lower():
                fields[i] = f"{name}={mask}"
        url = f"{head}?{'&'.join(fields)}"
    return url


class Fenced(StorageError):
    """A write refused because this process no longer owns the table (cluster: its lease
    lapsed, or another process took the table over with a higher owner epoch)."""

    fenced = True


class OverLimit(StorageError):
    """A tournament's write refused because it would put an account over one of its limits,
    counted in the same transaction (:meth:`Storage.save_tournament`'s ``limits``): ``what``
    is ``"entered"`` (the tournaments not over it is registered for) or ``"created"`` (those
    it scheduled), ``limit`` the number it may have. Not a failure of the database: the
    tournament turns it into the player's refusal."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"over the limit of {limit} tournaments ({what})")
        self.what = what
        self.limit = limit


@dataclass
class PlayerRow:
    id: str
    name: str
    token_hash: str
    created: float
    username: str | None = None
    password_hash: str | None = None
    is_bot: bool = False  # an account registered as a bot (a program, marked as one everywhere)
    banned: float | None = None  # when the server's host closed the account (batak admin ban)
    ban_reason: str | None = None  # the host's words to the player, if any


#: the columns of players that make a :class:`PlayerRow`, in its order
_PLAYER_COLUMNS = (
    "id, name, token_hash, created, username, password_hash, is_bot, banned, ban_reason"
)


def _in_parts(values: Sequence[str], size: int = 500) -> Iterator[tuple[list[str], str]]:
    """``values`` in parts for ``IN (…)`` (SQLite allows a few hundred parameters): each part
    with its placeholders, ``?, ?, …``."""
    for i in range(0, len(values), size):
        part = list(values[i : i + size])
        yield part, ", ".join("?" * len(part))


def _player_row(r: Sequence[Any]) -> PlayerRow:
    pid, name, token_h, created, username, password_hash, is_bot, banned, reason = r
    return PlayerRow(
        pid, name, token_h, created, username, password_hash, bool(is_bot), banned, reason
    )


@dataclass
class TableRow:
    id: str
    code: str
    kind: str  # public | private
    mode: str | None
    rules: dict[str, Any]
    seed: int
    dealer: int
    options: dict[str, Any]
    host: str | None
    status: str  # waiting | playing | adjourned | over | closed (an abandoned room)
    created: float
    finished: float | None = None
    record: dict[str, Any] | None = None
    #: closed, not resumed, if a server finds it still waiting (never started) in storage: a
    #: rematch's table, whose start may fall through (a person short of the stake), and whose
    #: close may then be refused and fail until its process stops or loses it
    close_unstarted: bool = False


@dataclass
class RecordText:
    """A table's stored record as :meth:`Storage.record_text` reads it."""

    kind: str  # public | private: a private table's record needs its key
    seed: int  # the record key comes from it
    status: str  # the record is there once the match is over
    record: str | None  # the stored JSON text
    preset: str  # the table's rules' name ("" for rules of its own)
    finished: float | None


@dataclass
class TableGlance:
    """What a look-up of a stored table needs before its events are read
    (:meth:`Storage.glance`)."""

    id: str
    code: str
    kind: str
    seed: int
    status: str
    options: dict[str, Any]
    sat: bool  # the player asked about played there (looked for at a finished table only)


@dataclass
class EventRow:
    version: int
    kind: str
    data: dict[str, Any]
    at: float


SCHEMA = [
    """CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL,
        username TEXT UNIQUE,
        password_hash TEXT)""",
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        mode TEXT,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        dealer INTEGER NOT NULL,
        options TEXT NOT NULL,
        host TEXT,
        status TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION,
        record TEXT)""",
    "CREATE INDEX IF NOT EXISTS tables_status ON tables (status)",
    """CREATE TABLE IF NOT EXISTS events (
        table_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, version))""",
    """CREATE TABLE IF NOT EXISTS results (
        table_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        won INTEGER NOT NULL,
        contracts INTEGER NOT NULL,
        made INTEGER NOT NULL,
        deals INTEGER NOT NULL,
        score INTEGER NOT NULL,
        finished DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, player_id, seat))""",
    "CREATE INDEX IF NOT EXISTS results_player ON results (player_id)",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
]


def _fold_usernames(cur: Any, q: Callable[[str], str]) -> None:
    """Fill migration 8's ``folded`` column for the accounts made before it. Where an older
    server let several usernames fold alike ("ALICE" beside "alice"), the oldest account gets
    the folded form and the others keep none: they are still found by their exact username,
    and :meth:`Storage.accounts_like` reads them all (they are the only accounts without one)."""
    from ..i18n import plain_lower

    cur.execute("SELECT id, username FROM players WHERE username IS NOT NULL ORDER BY created, id")
    taken: set[str] = set()
    rows: list[tuple[str, str]] = []
    for pid, username in cur.fetchall():
        form = plain_lower(str(username))
        if form not in taken:
            taken.add(form)
            rows.append((form, str(pid)))
    if rows:
        cur.executemany(q("UPDATE players SET folded = ? WHERE id = ?"), rows)


def _folded_username(username: str | None) -> str | None:
    """The form of ``username`` kept in the unique ``folded`` column (migration 8)."""
    from ..i18n import plain_lower

    return None if username is None else plain_lower(username)


#: Between the username and the name in ``search_key``: no search text has it (it is taken out
#: of one), so that a search never fits across the two.
_KEY_SEP = "\x1f"


def _search_key(username: str | None, name: str) -> str | None:
    """What :meth:`Storage.accounts` searches (migration 10): an account's username and name,
    both folded as :func:`batak.i18n.plain_lower` folds them (SQL has no Turkish lower case);
    None for a guest, who is never listed.

    >>> _search_key("IREM_k", "İrem Kaya")
    'irem_k\\x1firem kaya'
    """
    from ..i18n import plain_lower

    if username is None:
        return None
    return plain_lower(username) + _KEY_SEP + plain_lower(name)


def _key_accounts(cur: Any, q: Callable[[str], str]) -> None:
    """Fill migration 10's ``search_key`` for the accounts made before it."""
    cur.execute("SELECT id, username, name FROM players WHERE username IS NOT NULL")
    rows = [(_search_key(str(u), str(n)), str(pid)) for pid, u, n in cur.fetchall()]
    if rows:
        cur.executemany(q("UPDATE players SET search_key = ? WHERE id = ?"), rows)


def _total_awards(cur: Any, q: Callable[[str], str]) -> None:
    """Fill migration 11's ``xp_total`` for the awards made before it: each person's running
    sum, by time (then table), in one pass over the awards in that order. (A correlated
    subquery in SQL read each person's awards again for each of them: a person with thousands
    held a server's start, and a cluster's every process, for minutes.)"""
    cur.execute("SELECT player_id, table_id, xp FROM awards ORDER BY player_id, at, table_id")
    rows: list[tuple[int, str, str]] = []
    person, total = None, 0
    for pid, tid, xp in cur.fetchall():
        if pid != person:
            person, total = pid, 0
        total += int(xp)
        rows.append((total, str(tid), str(pid)))
    if rows:
        cur.executemany(
            q("UPDATE awards SET xp_total = ? WHERE table_id = ? AND player_id = ?"), rows
        )


#: Changes to a database made by an earlier version, in order; each runs once (the number done
#: is kept in ``meta``), so a database from before opens and is brought up to date. A new
#: database runs them all too.
MIGRATIONS: list[list[str | Callable[[Any, Callable[[str], str]], None]]] = [
    [  # 1: several sessions (tokens) per player; guests who never sat at a table
        """CREATE TABLE IF NOT EXISTS sessions (
            token_hash TEXT PRIMARY KEY,
            player_id TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            used DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS sessions_player ON sessions (player_id)",
        "INSERT INTO sessions (token_hash, player_id, created, used)"
        " SELECT token_hash, id, created, created FROM players",
        "ALTER TABLE players ADD COLUMN played INTEGER NOT NULL DEFAULT 0",
        "UPDATE players SET played = 1",  # everyone from before is kept
    ],
    [  # 2: bot accounts (people's own programs playing through the protocol)
        "ALTER TABLE players ADD COLUMN is_bot INTEGER NOT NULL DEFAULT 0",
    ],
    [  # 3: tournaments and the story mode (issue 13 items 4 and 5): one JSON document each
        """CREATE TABLE IF NOT EXISTS tournaments (
            id TEXT PRIMARY KEY,
            status TEXT NOT NULL,
            start_at DOUBLE PRECISION NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            data TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments (status)",
        """CREATE TABLE IF NOT EXISTS story_progress (
            player_id TEXT PRIMARY KEY,
            data TEXT NOT NULL,
            updated DOUBLE PRECISION NOT NULL)""",
    ],
    [  # 4: chips (issue 12): wallets and the append-only double-entry ledger (server/chips.py)
        """CREATE TABLE IF NOT EXISTS chip_accounts (
            account TEXT PRIMARY KEY,
            balance BIGINT NOT NULL DEFAULT 0,
            vip INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE IF NOT EXISTS ledger (
            txn TEXT NOT NULL,
            leg INTEGER NOT NULL,
            account TEXT NOT NULL,
            amount BIGINT NOT NULL,
            kind TEXT NOT NULL,
            table_id TEXT,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (txn, leg))""",
        "CREATE INDEX IF NOT EXISTS ledger_account ON ledger (account)",
        "CREATE INDEX IF NOT EXISTS ledger_table ON ledger (table_id)",
    ],
    [  # 5: progress (issue 13, items 1-3): XP and levels, ratings, the weekly league
        #    (see server/progress.py)
        """CREATE TABLE IF NOT EXISTS progress (
            player_id TEXT PRIMARY KEY,
            xp INTEGER NOT NULL DEFAULT 0,
            mu DOUBLE PRECISION,
            sigma DOUBLE PRECISION,
            rated INTEGER NOT NULL DEFAULT 0,
            tier INTEGER)""",
        """CREATE TABLE IF NOT EXISTS awards (
            table_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            xp INTEGER NOT NULL,
            mu_before DOUBLE PRECISION,
            sigma_before DOUBLE PRECISION,
            mu DOUBLE PRECISION,
            sigma DOUBLE PRECISION,
            week INTEGER NOT NULL,
            points INTEGER,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, player_id))""",
        "CREATE INDEX IF NOT EXISTS awards_player ON awards (player_id)",
        """CREATE TABLE IF NOT EXISTS league (
            week INTEGER NOT NULL,
            player_id TEXT NOT NULL,
            tier INTEGER NOT NULL,
            grp INTEGER NOT NULL,
            points INTEGER NOT NULL,
            matches INTEGER NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            place INTEGER,
            outcome TEXT,
            PRIMARY KEY (week, player_id))""",
        "CREATE INDEX IF NOT EXISTS league_group ON league (week, tier, grp)",
        "CREATE INDEX IF NOT EXISTS league_player ON league (player_id)",
        """CREATE TABLE IF NOT EXISTS league_weeks (
            week INTEGER PRIMARY KEY,
            closed DOUBLE PRECISION NOT NULL)""",
    ],
    [  # 6: accounts closed by the server's host (batak admin ban), with the words they are told
        "ALTER TABLE players ADD COLUMN banned DOUBLE PRECISION",
        "ALTER TABLE players ADD COLUMN ban_reason TEXT",
    ],
    [  # 7: accounts whose personal data was erased on request (server/erase.py): when, when
        #    their name may last have been written again, and when the last pass over the
        #    events that counts began
        "ALTER TABLE players ADD COLUMN removed DOUBLE PRECISION",
        "ALTER TABLE players ADD COLUMN dirty DOUBLE PRECISION",
        "ALTER TABLE players ADD COLUMN scrubbed DOUBLE PRECISION",
        "CREATE INDEX IF NOT EXISTS players_removed ON players (removed)",
    ],
    [  # 8: each username also in one folded form (i18n.plain_lower: "ALICE", "Alice" and
        #    "alice" are one; so are "İsmail", "ISMAIL" and "ismail"), unique: registration
        #    refuses a name taken in another case, even two registrations at one instant, and
        #    logins and the operator's commands find an account typed in any case by the index.
        #    SQL has no Turkish lower case, so the column is filled here (_fold_usernames).
        "ALTER TABLE players ADD COLUMN folded TEXT",
        "CREATE UNIQUE INDEX IF NOT EXISTS players_folded ON players (folded)",
        _fold_usernames,
    ],
    [  # 9: when an account last used a session that has since been ended (a logout, a new
        #    password, a ban): the operator's "last seen" (Storage.accounts) read only the
        #    sessions left, so it went back, or to nothing, when they were ended
        "ALTER TABLE players ADD COLUMN seen DOUBLE PRECISION",
    ],
    [  # 10: the operator's list of accounts (batak admin players) read every player and
        #     searched them here. Now the database does it: the accounts newest first by a
        #     partial index (guests are most players and never listed), stopped at the limit;
        #     a search by a folded copy of username and name (_search_key, filled here: SQL has
        #     no Turkish lower case). A search "contains" TEXT, as the command says: no index
        #     of a B-tree can find a text inside another, so a text no account has still reads
        #     the key of every account, in the database.
        "ALTER TABLE players ADD COLUMN search_key TEXT",
        "CREATE INDEX IF NOT EXISTS players_accounts ON players (created)"
        " WHERE username IS NOT NULL",
        _key_accounts,
    ],
    [  # 11: each award keeps the person's XP total right after it, as the ``awarded`` message
        #     said it: a finished match's ``sync`` (Progress.award_of) summed the person's awards
        #     up to it by their times, which is not the order they were stored in when two share
        #     a time (or a clock went back), so its XP and level could differ from the message's.
        #     The awards from before get that sum, the best there is for them.
        "ALTER TABLE awards ADD COLUMN xp_total INTEGER",
        _total_awards,
    ],
    [  # 12: a table that is closed, not resumed, if it is found still waiting (never started):
        #     a rematch's, whose start may fall through and whose close may then be refused
        #     until its process stops or loses it (Hub.unmake); written with the table's row,
        #     so that a restart or another process closes it instead of offering it again
        "ALTER TABLE tables ADD COLUMN close_unstarted INTEGER NOT NULL DEFAULT 0",
    ],
]


class Storage:
    """The database behind one server process (see the module's text)."""

    def __init__(
        self,
        url: str,
        *,
        sqlite_sync: str = "full",
        commit_gap: float = 0.0,
        immediate: bool = True,
    ) -> None:
        if sqlite_sync not in SQLITE_SYNC:
            raise ValueError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}")
        if not 0.0 <= commit_gap <= MAX_COMMIT_GAP:
            raise ValueError(f"commit_gap must be between 0 and {MAX_COMMIT_GAP} seconds")
        self.url = url
        #: SQLite's ``synchronous`` setting in WAL mode (:data:`SQLITE_SYNC`)
        self.sqlite_sync = sqlite_sync
        #: the least time between two commits, in seconds. A job that comes sooner after the
        #: last commit waits for the rest of it, and every job that comes meanwhile joins its
        #: batch: under load a commit (a disk flush in SQLite's ``full``, a round trip and a WAL
        #: flush in PostgreSQL) and a wake-up of the worker and of the event loop serve the moves
        #: of many tables. A job that comes later than that after the last commit does not wait.
        #: 0: a batch is whatever queued while the last one ran.
        self.commit_gap = commit_gap
        self._last_commit = float("-inf")  # time.monotonic() when the last batch was done
        self.gap_waits = 0  # batches that waited for the gap (/healthz)
        self.kind = "postgresql" if url.startswith(("postgresql://", "postgres://")) else "sqlite"
        self._jobs: queue.SimpleQueue[
            tuple[Callable[[Any], Any], asyncio.Future[Any], asyncio.AbstractEventLoop] | None
        ] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._ph = "%s" if self.kind == "postgresql" else "?"
        #: SQLite: each job takes the write lock as it begins (``BEGIN IMMEDIATE``), waiting
        #: for another process's (``busy_timeout``: ``batak admin`` beside the server). A job
        #: that read first and wrote later would otherwise fail outright, with nothing to wait
        #: for (SQLITE_BUSY_SNAPSHOT), if that process wrote in between. Off for a process
        #: that only reads (``batak admin players`` on a folder it may not write).
        self._begin = "BEGIN IMMEDIATE" if immediate and self.kind == "sqlite" else "BEGIN"
        # the statements every move writes, in this database's placeholders, made once
        self._insert_events_sql = self._sql(
            "INSERT INTO events (table_id, version, kind, data, at) VALUES (?, ?, ?, ?, ?)"
        )
        self._status_sql = self._sql("UPDATE tables SET status = ? WHERE id = ?")
        self.commits = 0
        self.jobs = 0  # jobs run, reads included (/healthz: the jobs a commit)
        #: In a cluster (:mod:`batak.server.cluster`): called in the worker thread inside every
        #: job that writes a table (``fence(cursor, table_id, created)``), in the same
        #: transaction; it raises :class:`Fenced` when this process no longer owns the table.
        #: None (one process): nothing is checked.
        self.fence: Callable[[Any, str, bool], None] | None = None
        #: In a cluster: called likewise inside every job that writes a tournament's document
        #: (``tourney_fence(cursor, tournament_id, created)``) or makes one of its tables
        #: (``created`` False): it raises :class:`Fenced` when this process does not run that
        #: tournament (any more). None (one process): nothing is checked.
        self.tourney_fence: Callable[[Any, str, bool], None] | None = None
        #: statements run on each new PostgreSQL connection (a cluster sets time limits)
        self.session: list[str] = []
        # reachable(): a connection of its own, and the last answer with when it was had
        self._ping_conn: Any = None
        self._ping_lock = asyncio.Lock()
        self._ping: tuple[float, bool] | None = None
        #: SQLite: the last write that failed for the disk's or the file's sake (full, an I/O
        #: error: :data:`SQLITE_DISK_FAILURES`), until a later one is committed; None when the
        #: last write was stored. Set and cleared by the worker thread.
        self.write_failure: str | None = None
        self._probe: asyncio.Future[None] | None = None  # reachable()'s job on SQLite

    # ------------------------------------------------------------------ the worker
    def check(self, *, create: bool = True, write: bool = False) -> None:
        """Connect once, read, and close, before anything else is started: raises
        :class:`StorageUnusable` when the database cannot be used. ``create=False``: a missing
        SQLite file is an error instead of a new, empty database (``batak admin``).
        ``write``: an SQLite file that may only be read is an error too (``kind`` "folder",
        ``errno`` EACCES): a server on it would start, then fail to store every move."""
        path = Path(self.url.removeprefix("sqlite:///"))
        if self.kind == "sqlite" and not create and str(path) != ":memory:" and not path.is_file():
            raise StorageUnusable("missing", f"no database at {path}")
        try:
            conn = self._connect()
        except OSError as e:  # the SQLite file's folder
            raise StorageUnusable("folder", e.strerror or str(e), e.errno) from e
        except sqlite3.OperationalError as e:  # the file cannot be opened (a folder, no rights)
            folder = path.parent
            denied = folder.is_dir() and not os.access(folder, os.W_OK)
            raise StorageUnusable("folder", str(e), errno.EACCES if denied else None) from e
        except sqlite3.DatabaseError as e:
            raise StorageUnusable("not_database", str(e)) from e
        except StorageError:
            raise
        except Exception as e:  # psycopg's OperationalError and the like
            raise StorageUnusable("unreachable", _first_line(e)) from e
        try:
            if self.kind == "sqlite":
                tables = {
                    str(r[0])
                    for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                if write:
                    _write_nothing(conn)
            else:
                tables = {
                    str(r[0])
                    for r in conn.execute(
                        "SELECT table_name FROM information_schema.tables"
                        " WHERE table_schema = current_schema()"
                    )
                }
            # batak admin reads an existing database: another program's would have been given
            # the whole schema, and its ledger said to be "exact" (an empty one is a new one)
            if not create and tables and "players" not in tables:
                raise StorageUnusable("not_database", "no Batak data in it")
        except StorageError:
            raise
        except sqlite3.DatabaseError as e:
            raise StorageUnusable("not_database", str(e)) from e
        except Exception as e:
            raise StorageUnusable("unreachable", _first_line(e)) from e
        finally:
            conn.close()

    def _connect(self) -> Any:
        if self.kind == "postgresql":
            try:
                import psycopg
            except ImportError as e:  # pragma: no cover - depends on the install
                raise StorageError(
                    "PostgreSQL needs psycopg 3: pip install 'psycopg[binary]'"
                ) from e
            conn: Any = psycopg.connect(self.url, autocommit=True)
            for stmt in self.session:
                conn.execute(stmt)
            return conn
        path = self.url.removeprefix("sqlite:///")
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.sqlite_sync.upper()}")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        return conn

    def _run(self, conn: Any) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                break
            if self.commit_gap:
                wait = self._last_commit + self.commit_gap - time.monotonic()
                if wait > 0:
                    self.gap_waits += 1
                    time.sleep(wait)  # the jobs that come meanwhile share this batch's commit
            batch = [job]
            stop = False
            while len(batch) < 1000:
                try:
                    nxt = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self.jobs += len(batch)
            # /healthz's check job runs last, in a transaction of its own: after a disk failure
            # it writes PROBE_BYTES, and when they do not fit SQLite ends the whole transaction,
            # which would sink the moves beside it, though each fits alone
            checks = [j for j in batch if j[0] == self._check_job]
            moves = [j for j in batch if j[0] != self._check_job]
            for part in _parts(moves) + [[check] for check in checks]:
                conn = self._run_batch(conn, part)
            self._last_commit = time.monotonic()
            if stop:
                break
        conn.close()

    def _run_batch(
        self,
        conn: Any,
        batch: list[tuple[Callable[[Any], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]],
    ) -> Any:
        """Run ``batch`` in one transaction and settle its futures; the connection to go on
        with (a new one when PostgreSQL ended the session)."""
        results: list[tuple[bool, Any]] = []
        sqlite = self.kind == "sqlite"
        # SQLite: whether a job that succeeded changed rows. Measured around each job, since
        # ``total_changes`` also counts the rows of a job whose savepoint was rolled back.
        wrote = False
        committed = False
        try:
            conn, cur = self._begin_on(conn)
            if len(batch) == 1:  # alone: a failure rolls back the transaction, no savepoint
                before = conn.total_changes if sqlite else 0
                try:
                    results.append((True, batch[0][0](cur)))
                except Exception as e:
                    cur.execute("ROLLBACK")
                    results.append((False, e))
                else:
                    wrote = sqlite and conn.total_changes > before
                    cur.execute("COMMIT")
                    self.commits += 1
                    committed = True
            else:
                for fn, _, _ in batch:
                    cur.execute("SAVEPOINT job")
                    before = conn.total_changes if sqlite else 0
                    try:
                        value = fn(cur)
                        cur.execute("RELEASE SAVEPOINT job")
                    except Exception as e:  # one bad job must not sink the batch
                        cur.execute("ROLLBACK TO SAVEPOINT job")
                        cur.execute("RELEASE SAVEPOINT job")
                        results.append((False, e))
                    else:  # (one result a job: a release that failed is the job's failure)
                        results.append((True, value))
                        wrote = wrote or (sqlite and conn.total_changes > before)
                cur.execute("COMMIT")
                self.commits += 1
                committed = True
        except Exception as e:
            with contextlib.suppress(Exception):
                conn.execute("ROLLBACK")
            # SQLite ends the transaction itself on a full disk or an I/O error, so the
            # ROLLBACK (TO SAVEPOINT) after the job's failure fails in turn: the jobs are
            # told the first failure, not "no transaction is active"
            results = [(False, _disk_failure(e) or e)] * len(batch)
            committed = False
            if getattr(conn, "closed", False) or getattr(conn, "broken", False):
                # PostgreSQL ended the session (or the link broke): a new one
                with contextlib.suppress(Exception):
                    conn = self._connect()
        if sqlite:
            self._note_writes(results, committed and wrote)
        # one wake-up of each event loop for the whole batch, not one per job
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Any, bool, Any]]] = {}
        for (_, fut, loop), (ok, value) in zip(batch, results, strict=True):
            by_loop.setdefault(loop, []).append((fut, ok, value))
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a loop that closed meanwhile
                loop.call_soon_threadsafe(_settle_all, settled)
        return conn

    def _note_writes(self, results: list[tuple[bool, Any]], wrote: bool) -> None:
        """SQLite, after a batch: :attr:`write_failure` set when a job or the commit failed for
        the disk's or the file's sake, cleared when it was committed and a job of it that
        succeeded changed rows (``wrote``; not one whose changes were rolled back)."""
        for ok, value in results:
            failure = None if ok else _disk_failure(value)
            if failure is not None:
                self.write_failure = str(failure) or type(failure).__name__
                return
        if wrote:
            self.write_failure = None

    def _begin_on(self, conn: Any) -> tuple[Any, Any]:
        """A batch's ``BEGIN`` on ``conn``, and the connection and cursor to run it with. A
        PostgreSQL connection found ended at this point (the database restarted, or ended the
        session, while the worker waited) is opened again once: nothing of the batch was run
        yet, so nothing can run twice. A batch whose connection breaks later fails."""
        try:
            cur = conn.cursor()
            cur.execute(self._begin)
            return conn, cur
        except Exception:
            if self.kind != "postgresql" or not (conn.closed or conn.broken):
                raise
        with contextlib.suppress(Exception):
            conn.close()
        conn = self._connect()
        cur = conn.cursor()
        cur.execute(self._begin)
        return conn, cur

    async def _call(self, fn: Callable[[Any], T]) -> T:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        if self._thread is None or not self._thread.is_alive():
            raise StorageError("the database is closed")
        self._jobs.put((fn, fut, loop))
        return await fut

    def _sql(self, text: str) -> str:
        return text.replace("?", self._ph) if self._ph != "?" else text

    # ------------------------------------------------------------------ open and close
    async def open(self) -> None:
        """Connect, create the schema, start the worker."""
        loop = asyncio.get_running_loop()
        conn = await loop.run_in_executor(None, self._connect)
        try:
            await loop.run_in_executor(None, self._make_schema, conn)
        except BaseException:
            with contextlib.suppress(Exception):
                conn.close()
            raise
        self._thread = threading.Thread(
            target=self._run, args=(conn,), name="batak-storage", daemon=True
        )
        self._thread.start()

    def _make_schema(self, conn: Any) -> None:
        """The tables, then the migrations; on PostgreSQL under :data:`SCHEMA_LOCK`, so that
        processes opening the database at the same moment (the nodes of a cluster) take
        turns. The later ones find the tables there and the migrations done."""
        postgres = self.kind == "postgresql"
        if postgres:
            conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            for stmt in SCHEMA:
                conn.execute(stmt)
            self._migrate(conn)
        finally:
            if postgres:
                conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))

    def _migrate(self, conn: Any) -> None:
        """Run the :data:`MIGRATIONS` this database has not had yet, each in a transaction."""
        cur = conn.cursor()
        cur.execute(self._sql("SELECT value FROM meta WHERE key = ?"), ("schema",))
        r = cur.fetchone()
        done = int(r[0]) if r else 0
        for number, stmts in enumerate(MIGRATIONS[done:], start=done + 1):
            cur.execute("BEGIN")
            try:
                for stmt in stmts:
                    if callable(stmt):  # a step SQL cannot say
                        stmt(cur, self._sql)
                    else:
                        cur.execute(stmt)
                cur.execute(self._sql("DELETE FROM meta WHERE key = ?"), ("schema",))
                cur.execute(
                    self._sql("INSERT INTO meta (key, value) VALUES (?, ?)"),
                    ("schema", str(number)),
                )
                cur.execute("COMMIT")
            except Exception:
                cur.execute("ROLLBACK")
                raise

    async def reachable(self, timeout: float = 2.0) -> bool:
        """Whether the database can store moves now (``/healthz``). An answer is reused for a
        second, so that any number of checks costs at most one query a second.

        PostgreSQL: whether it answers ``SELECT 1`` within ``timeout`` seconds, on a connection
        of its own, opened again after a failure (one that breaks or does not answer in time is
        dropped).

        SQLite: whether the storage's own worker reads the database within ``timeout`` seconds
        (a job in its queue, on its connection: it waits behind the moves, and behind another
        process's lock, as a move would), and its last write did not fail for the disk's or the
        file's sake (:attr:`write_failure`: a full disk shows only when something is written).
        After such a failure the same job also writes (and deletes) :data:`PROBE_BYTES`, so the
        answer is 200 again once there is room, even if nobody plays meanwhile; it runs in a
        transaction of its own, after the moves that queued with it (bytes that do not fit end
        SQLite's whole transaction, and would sink moves that fit)."""
        async with self._ping_lock:
            if self._ping is not None and time.monotonic() - self._ping[0] < 1.0:
                return self._ping[1]
            if self.kind != "postgresql":
                ok = await self._sqlite_answers(timeout)
                self._ping = (time.monotonic(), ok)
                return ok
            try:
                await asyncio.wait_for(self._select_1(), timeout)
                ok = True
            except Exception:  # refused, ended, or no answer in time (TimeoutError)
                ok = False
                conn, self._ping_conn = self._ping_conn, None
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            self._ping = (time.monotonic(), ok)
            return ok

    async def _sqlite_answers(self, timeout: float) -> bool:
        """:meth:`reachable` on SQLite. One check job at most waits in the queue: while it has
        not run, a later check waits for the same one."""
        if self._thread is None or not self._thread.is_alive():
            return False
        probe = self._probe
        if probe is None or probe.done():
            loop = asyncio.get_running_loop()
            probe = loop.create_future()
            # its failure is read here, or never (when no check waits for it any more)
            probe.add_done_callback(lambda f: f.cancelled() or f.exception())
            self._probe = probe
            self._jobs.put((self._check_job, probe, loop))
        try:
            await asyncio.wait_for(asyncio.shield(probe), timeout)
        except Exception:  # failed, or no answer in time (TimeoutError)
            return False
        return self.write_failure is None

    def _check_job(self, cur: Any) -> None:
        """:meth:`reachable`'s job on SQLite (in the worker thread): read the schema's row;
        after a write failed for the disk, write and delete some bytes."""
        cur.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if self.write_failure is not None:
            cur.execute(
                "INSERT INTO meta (key, value) VALUES ('healthz', zeroblob(?))", (PROBE_BYTES,)
            )
            cur.execute("DELETE FROM meta WHERE key = 'healthz'")

    async def _select_1(self) -> None:
        import psycopg

        conn = self._ping_conn
        if conn is not None and not (conn.closed or conn.broken):
            try:
                await conn.execute("SELECT 1")
                return
            except Exception:
                if not (conn.closed or conn.broken):
                    raise
            # ended since the last check (PostgreSQL restarted): a new connection says
            # whether it is back
            with contextlib.suppress(Exception):
                await conn.close()
        self._ping_conn = None
        self._ping_conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=2
        )
        await self._ping_conn.execute("SELECT 1")

    async def close(self) -> None:
        if self._ping_conn is not None:
            with contextlib.suppress(Exception):
                await self._ping_conn.close()
            self._ping_conn = None
        if self._thread is None:
            return
        self._jobs.put(None)
        thread = self._thread
        await asyncio.get_running_loop().run_in_executor(None, thread.join, 10)
        self._thread = None

    # ------------------------------------------------------------------ players
    async def create_player(self, row: PlayerRow) -> None:
        sql = self._sql(
            "INSERT INTO players (id, name, token_hash, created, username, password_hash, folded,"
            " search_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        )
        folded = _folded_username(row.username)
        args = (
            row.id,
            row.name,
            row.token_hash,
            row.created,
            row.username,
            row.password_hash,
            folded,
            _search_key(row.username, row.name),
        )
        ses = self._sql(
            "INSERT INTO sessions (token_hash, player_id, created, used) VALUES (?, ?, ?, ?)"
        )

        def job(cur: Any) -> None:
            cur.execute(sql, args)
            cur.execute(ses, (row.token_hash, row.id, row.created, row.created))

        await self._call(job)

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        """The player of a session (and the session is marked used now)."""
        touch = self._sql("UPDATE sessions SET used = ? WHERE token_hash = ?")
        sql = self._sql(
            "SELECT p.id, p.name, s.token_hash, p.created, p.username, p.password_hash, p.is_bot,"
            " p.banned, p.ban_reason"
            " FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?"
        )

        def job(cur: Any) -> PlayerRow | None:
            cur.execute(touch, (time.time(), token_hash))
            cur.execute(sql, (token_hash,))
            r = cur.fetchone()
            return _player_row(r) if r else None

        return await self._call(job)

    async def add_session(
        self, player_id: str, token_hash: str, *, password_hash: str | None = None
    ) -> bool:
        """Start a session of a player that is not banned and, with ``password_hash``, whose
        password is still the one checked: a ban or a new password that came while the
        password was being checked wins. Returns whether the session was started."""
        sql = (
            "INSERT INTO sessions (token_hash, player_id, created, used)"
            " SELECT ?, id, ?, ? FROM players WHERE id = ? AND banned IS NULL"
        )
        now = time.time()
        args: tuple[Any, ...] = (token_hash, now, now, player_id)
        if password_hash is not None:
            sql, args = sql + " AND password_hash = ?", (*args, password_hash)
        query = self._sql(sql)

        def job(cur: Any) -> bool:
            cur.execute(query, args)
            return bool(cur.rowcount == 1)

        return await self._call(job)

    async def replace_password(self, player_id: str, checked: str, new: str) -> bool:
        """Give a player the password hash ``new`` if theirs is still ``checked`` (the one the
        old password was checked against): a reset by the host meanwhile wins. Returns whether
        it was replaced."""
        sql = self._sql("UPDATE players SET password_hash = ? WHERE id = ? AND password_hash = ?")

        def job(cur: Any) -> bool:
            cur.execute(sql, (new, player_id, checked))
            return bool(cur.rowcount == 1)

        return await self._call(job)

    async def end_sessions(
        self, player_id: str, token_hash: str | None = None, *, keep: str | None = None
    ) -> list[str]:
        """Revoke one session of a player (``token_hash``) or all of them, but for ``keep``;
        returns the token hashes revoked."""
        where = "player_id = ?"
        args: tuple[str, ...] = (player_id,)
        if token_hash:
            where, args = where + " AND token_hash = ?", (*args, token_hash)
        if keep:
            where, args = where + " AND token_hash <> ?", (*args, keep)
        sel = self._sql(f"SELECT token_hash, used FROM sessions WHERE {where}")
        dele = self._sql(f"DELETE FROM sessions WHERE {where}")
        # the last use of the ended sessions is kept on the account (migration 9)
        seen = self._sql("UPDATE players SET seen = ? WHERE id = ? AND (seen IS NULL OR seen < ?)")

        def job(cur: Any) -> list[str]:
            cur.execute(sel, args)
            rows = cur.fetchall()
            hashes = [str(r[0]) for r in rows]
            if rows:
                used = max(float(r[1]) for r in rows)
                cur.execute(seen, (used, player_id, used))
            cur.execute(dele, args)
            return hashes

        return await self._call(job)

    async def live_sessions(self, token_hashes: Sequence[str]) -> set[str]:
        """Which of ``token_hashes`` are still sessions of a player who is not banned (the
        others were ended: a logout, a new password, a ban)."""
        hashes = list(dict.fromkeys(token_hashes))
        if not hashes:
            return set()

        def job(cur: Any) -> set[str]:
            live: set[str] = set()
            for part, marks in _in_parts(hashes):
                cur.execute(
                    self._sql(
                        "SELECT s.token_hash FROM sessions s JOIN players p ON p.id = s.player_id"
                        f" WHERE p.banned IS NULL AND s.token_hash IN ({marks})"
                    ),
                    part,
                )
                live.update(str(r[0]) for r in cur.fetchall())
            return live

        return await self._call(job)

    async def sessions_of(self, player_id: str) -> int:
        sql = self._sql("SELECT COUNT(*) FROM sessions WHERE player_id = ?")

        def job(cur: Any) -> int:
            cur.execute(sql, (player_id,))
            return int(cur.fetchone()[0])

        return await self._call(job)

    async def mark_played(self, player_id: str) -> None:
        """The player sat at a table: a guest who did is kept (see :meth:`delete_unused_guests`)."""
        sql = self._sql("UPDATE players SET played = 1 WHERE id = ? AND played = 0")
        await self._call(lambda cur: cur.execute(sql, (player_id,)))

    async def delete_unused_guests(
        self, before: float, keep: frozenset[str] = frozenset(), limit: int = 1000
    ) -> list[str]:
        """Delete guests (no account) made before ``before`` who never sat at a table and whose
        sessions were not used since ``before``, except the players in ``keep``; returns the ids
        deleted (at most ``limit`` at a time)."""
        sel = self._sql(
            "SELECT p.id FROM players p WHERE p.username IS NULL AND p.played = 0"
            " AND p.created < ? AND NOT EXISTS (SELECT 1 FROM sessions s"
            " WHERE s.player_id = p.id AND s.used >= ?) LIMIT ?"
        )
        del_s = self._sql("DELETE FROM sessions WHERE player_id = ?")
        del_p = self._sql("DELETE FROM players WHERE id = ? AND played = 0")

        def job(cur: Any) -> list[str]:
            cur.execute(sel, (before, before, limit))
            ids = [str(r[0]) for r in cur.fetchall() if str(r[0]) not in keep]
            if ids:
                cur.executemany(del_s, [(i,) for i in ids])
                cur.executemany(del_p, [(i,) for i in ids])
            return ids

        return await self._call(job)

    async def player_by(self, column: str, value: str) -> PlayerRow | None:
        if column not in ("id", "token_hash", "username"):
            raise ValueError(column)
        sql = self._sql(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE {column} = ?")

        def job(cur: Any) -> PlayerRow | None:
            cur.execute(sql, (value,))
            r = cur.fetchone()
            return _player_row(r) if r else None

        return await self._call(job)

    async def account_named(self, username: str) -> PlayerRow | None:
        """The account called ``username``; failing that, the one account whose name is the same
        but for case (an operator types "Ayse" for "ayse", "şule" for "Şule", "ISMAIL" or
        "ismail" for "İsmail"), if only one is. (Folded by :func:`batak.i18n.plain_lower` and
        kept so: SQLite's LOWER folds ASCII letters only.) :meth:`accounts_like` says which fit
        when several do."""
        row = await self.player_by("username", username)
        if row is not None:
            return row
        rows = await self.accounts_like(username)
        return rows[0] if len(rows) == 1 else None

    async def accounts_like(self, username: str) -> list[PlayerRow]:
        """The accounts whose username is ``username`` but for case, Turkish capitals and the dot
        of ``i`` (:func:`batak.i18n.plain_lower`): by the unique ``folded`` column, so at most
        one, but for the accounts an older server let fold alike (see :func:`_fold_usernames`)."""
        from ..i18n import plain_lower

        sql = self._sql(
            f"SELECT {_PLAYER_COLUMNS}, folded FROM players WHERE folded = ?"
            " OR (folded IS NULL AND username IS NOT NULL)"
        )
        wanted = plain_lower(username)

        def job(cur: Any) -> list[PlayerRow]:
            cur.execute(sql, (wanted,))
            return [
                _player_row(r[:-1])
                for r in cur.fetchall()
                if r[-1] == wanted or plain_lower(str(r[4])) == wanted
            ]

        return await self._call(job)

    async def accounts(self, search: str = "", limit: int = 50) -> list[dict[str, Any]]:
        """Accounts (players with a username), newest first, at most ``limit``, whose username
        or name contains ``search`` in any case (Turkish capitals too: folded as in
        :meth:`accounts_like`): each with when it was made, when it was last seen (a session of
        it used, ended since or not, or a match of it finished; None if neither),
        its finished matches and whether it is a bot or banned.

        The database does the search (migration 10): it goes through the accounts newest first
        by the partial index ``players_accounts`` and stops at ``limit``, matching each one's
        ``search_key`` with ``LIKE '%TEXT%'``; without ``search`` it reads ``limit`` rows."""
        listed, params = self.accounts_query(
            search, limit, "id, username, name, is_bot, created, banned, ban_reason, seen"
        )

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(listed, params)
            rows = cur.fetchall()
            ids = [str(r[0]) for r in rows]
            # the last use of a session ended since (migration 9), of one still open, or the
            # end of a match, whichever is latest
            seen: dict[str, float] = {str(r[0]): float(r[7]) for r in rows if r[7] is not None}
            matches: dict[str, int] = {}
            for part, marks in _in_parts(ids):
                cur.execute(
                    self._sql(
                        "SELECT player_id, MAX(used) FROM sessions"
                        f" WHERE player_id IN ({marks}) GROUP BY player_id"
                    ),
                    part,
                )
                for a, used in cur.fetchall():
                    seen[str(a)] = max(seen.get(str(a), 0.0), float(used))
                cur.execute(
                    self._sql(
                        "SELECT player_id, COUNT(DISTINCT table_id), MAX(finished) FROM results"
                        f" WHERE player_id IN ({marks}) GROUP BY player_id"
                    ),
                    part,
                )
                for a, n, finished in cur.fetchall():
                    matches[str(a)] = int(n)
                    seen[str(a)] = max(seen.get(str(a), 0.0), float(finished))
            return [
                {
                    "id": str(r[0]),
                    "username": r[1],
                    "name": r[2],
                    "bot": bool(r[3]),
                    "created": r[4],
                    "banned": r[5],
                    "ban_reason": r[6],
                    "last_seen": seen.get(str(r[0])),
                    "matches": matches.get(str(r[0]), 0),
                }
                for r in rows
            ]

        return await self._call(job)

    def accounts_query(
        self, search: str, limit: int, columns: str = "id"
    ) -> tuple[str, tuple[Any, ...]]:
        """The statement of :meth:`accounts` and its parameters (a test asks the database how
        it runs it)."""
        from ..i18n import plain_lower

        wanted = plain_lower(search).replace(_KEY_SEP, "")
        where = "username IS NOT NULL"
        params: tuple[Any, ...] = (limit,)
        if wanted:  # LIKE's own signs in the text are only themselves
            where += " AND search_key LIKE ? ESCAPE '\\'"
            escaped = wanted.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            params = (f"%{escaped}%", limit)
        sql = f"SELECT {columns} FROM players WHERE {where} ORDER BY created DESC LIMIT ?"
        return self._sql(sql), params

    async def update_player(self, player_id: str, **fields: Any) -> None:
        allowed = {
            "name",
            "token_hash",
            "username",
            "password_hash",
            "is_bot",
            "banned",
            "ban_reason",
        }
        if not fields or set(fields) - allowed:
            raise ValueError(f"bad fields {fields}")
        if "username" in fields:  # kept with its folded form (migration 8)
            fields["folded"] = _folded_username(fields["username"])
        cols = ", ".join(f"{k} = ?" for k in fields)
        sql = self._sql(f"UPDATE players SET {cols} WHERE id = ?")
        args = (*fields.values(), player_id)
        keyed = "username" in fields or "name" in fields
        read = self._sql("SELECT username, name FROM players WHERE id = ?")
        key = self._sql("UPDATE players SET search_key = ? WHERE id = ?")

        def job(cur: Any) -> None:
            cur.execute(sql, args)
            if keyed:  # the search key of both, as they are now (migration 10)
                cur.execute(read, (player_id,))
                r = cur.fetchone()
                if r is not None:
                    username = None if r[0] is None else str(r[0])
                    cur.execute(key, (_search_key(username, str(r[1])), player_id))

        await self._call(job)

    # ------------------------------------------------------------------ tables and events
    async def create_table(self, row: TableRow, events: Sequence[EventRow]) -> None:
        sql = self._sql(
            "INSERT INTO tables (id, code, kind, mode, rules, seed, dealer, options, host, status,"
            " created, close_unstarted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        args = (
            row.id,
            row.code,
            row.kind,
            row.mode,
            json.dumps(row.rules),
            str(row.seed),
            row.dealer,
            json.dumps(row.options),
            row.host,
            row.status,
            row.created,
            int(row.close_unstarted),
        )
        ev_sql, ev_args = self._events_sql(row.id, events)

        fence = self.fence
        tourney_fence = self.tourney_fence
        tourney = row.options.get("tournament")

        def job(cur: Any) -> None:
            cur.execute(sql, args)
            if fence is not None:
                fence(cur, row.id, True)
            if tourney_fence is not None and tourney:
                # a round's table is made only by the process that runs its tournament
                tourney_fence(cur, str(tourney), False)
            if ev_args:
                cur.executemany(ev_sql, ev_args)

        await self._call(job)

    def _events_sql(
        self, table_id: str, events: Sequence[EventRow]
    ) -> tuple[str, list[tuple[Any, ...]]]:
        sql = self._insert_events_sql
        args = [(table_id, e.version, e.kind, _event_json(e.data), e.at) for e in events]
        return sql, args

    async def append_events(
        self,
        table_id: str,
        events: Sequence[EventRow],
        status: str | None = None,
        also: Callable[[Any], Any] | None = None,
    ) -> None:
        """Write events (and optionally the table's new status); returns once committed.
        ``also`` runs in the same transaction (a staked table's buy-in): if it fails, nothing
        is written."""
        sql, args = self._events_sql(table_id, events)
        st_sql = self._status_sql

        fence = self.fence

        def job(cur: Any) -> None:
            if fence is not None:
                fence(cur, table_id, False)
            if also is not None:
                also(cur)
            cur.executemany(sql, args)
            if status is not None:
                cur.execute(st_sql, (status, table_id))

        await self._call(job)

    async def set_status(self, table_id: str, status: str) -> None:
        sql = self._status_sql
        fence = self.fence

        def job(cur: Any) -> None:
            if fence is not None:
                fence(cur, table_id, False)
            cur.execute(sql, (status, table_id))

        await self._call(job)

    def _table_rows(self, cur: Any, where: str, args: tuple[Any, ...]) -> list[TableRow]:
        cur.execute(
            self._sql(
                "SELECT id, code, kind, mode, rules, seed, dealer, options, host, status, created,"
                f" finished, record, close_unstarted FROM tables WHERE {where}"
            ),
            args,
        )
        out = []
        for r in cur.fetchall():
            out.append(
                TableRow(
                    id=r[0],
                    code=r[1],
                    kind=r[2],
                    mode=r[3],
                    rules=json.loads(r[4]),
                    seed=int(r[5]),
                    dealer=r[6],
                    options=json.loads(r[7]),
                    host=r[8],
                    status=r[9],
                    created=r[10],
                    finished=r[11],
                    record=json.loads(r[12]) if r[12] else None,
                    close_unstarted=bool(r[13]),
                )
            )
        return out

    def _events(self, cur: Any, table_id: str) -> list[EventRow]:
        cur.execute(
            self._sql(
                "SELECT version, kind, data, at FROM events WHERE table_id = ? ORDER BY version"
            ),
            (table_id,),
        )
        return [EventRow(r[0], r[1], json.loads(r[2]), r[3]) for r in cur.fetchall()]

    async def live_tables(self) -> list[tuple[TableRow, list[EventRow]]]:
        """Every table not yet over (nor closed), with its whole event log (to resume after a
        restart)."""

        def job(cur: Any) -> list[tuple[TableRow, list[EventRow]]]:
            rows = self._table_rows(cur, "status NOT IN (?, ?)", ("over", "closed"))
            return [(row, self._events(cur, row.id)) for row in rows]

        return await self._call(job)

    async def record_text(self, table_id: str) -> RecordText | None:
        """What serving a table's record needs (:class:`RecordText`): the record's stored JSON
        text as it is (not decoded), and what its file is called after."""
        sql = self._sql(
            "SELECT kind, seed, status, record, rules, finished FROM tables WHERE id = ?"
        )

        def job(cur: Any) -> RecordText | None:
            cur.execute(sql, (table_id,))
            r = cur.fetchone()
            if not r:
                return None
            preset = json.loads(r[4]).get("name")
            return RecordText(
                str(r[0]), int(r[1]), str(r[2]), r[3], str(preset or ""), r[5] and float(r[5])
            )

        return await self._call(job)

    async def table(self, table_id: str) -> tuple[TableRow, list[EventRow]] | None:
        def job(cur: Any) -> tuple[TableRow, list[EventRow]] | None:
            rows = self._table_rows(cur, "id = ?", (table_id,))
            return (rows[0], self._events(cur, table_id)) if rows else None

        return await self._call(job)

    async def glance(self, table_id: str, player: str | None) -> TableGlance | None:
        """A stored table's row without its rules, record and events, and, when it is over,
        whether ``player`` played there or hosts it (read from its ``sit`` and ``stand`` events
        alone: a seat is given up only before the start, so who sits when they end played the
        match; someone who sat and stood up before it began did not, unless they are the room's
        host, who may always open their room; a ``stand`` names a new host when the host stood
        up and someone else took the room): a finished match's table answers someone who never
        played there without its log being read."""
        sql = self._sql(
            "SELECT id, code, kind, seed, status, options, host FROM tables WHERE id = ?"
        )
        sits = self._sql(
            "SELECT kind, data FROM events WHERE table_id = ? AND kind IN ('sit', 'stand')"
            " ORDER BY version"
        )

        def job(cur: Any) -> TableGlance | None:
            cur.execute(sql, (table_id,))
            r = cur.fetchone()
            if r is None:
                return None
            sat = False
            if r[4] == "over" and player is not None:
                cur.execute(sits, (table_id,))
                seats: dict[int, str | None] = {}
                host = r[6]
                for kind, data in cur.fetchall():
                    ev = json.loads(data)
                    seats[ev["seat"]] = ev.get("player") if kind == "sit" else None
                    host = ev.get("host") or host
                sat = player in seats.values() or player == host
            return TableGlance(r[0], r[1], r[2], int(r[3]), r[4], json.loads(r[5]), sat)

        return await self._call(job)

    async def table_status(self, table_id: str) -> str | None:
        """A stored table's status (``waiting``, ``playing``, ``adjourned``, ``over`` or
        ``closed``), or None if there is no such table: without its events."""
        sql = self._sql("SELECT status FROM tables WHERE id = ?")

        def job(cur: Any) -> str | None:
            cur.execute(sql, (table_id,))
            r = cur.fetchone()
            return str(r[0]) if r else None

        return await self._call(job)

    async def table_by_code(self, code: str) -> tuple[str, bool] | None:
        """The table that has (or had) a code, and whether its match is over; None for a code
        no table had (a code is never given to a second table: one look answers both)."""
        sql = self._sql("SELECT id, status FROM tables WHERE code = ?")

        def job(cur: Any) -> tuple[str, bool] | None:
            cur.execute(sql, (code,))
            r = cur.fetchone()
            return (str(r[0]), r[1] == "over") if r else None

        return await self._call(job)

    async def events(self, table_id: str) -> list[EventRow]:
        return await self._call(lambda cur: self._events(cur, table_id))

    async def finish_table(
        self,
        table_id: str,
        record: dict[str, Any],
        results: Sequence[dict[str, Any]],
        also: Callable[[Any], T] | None = None,
    ) -> T | None:
        """Mark a table over with its record, and store each player's result, in one go;
        ``also`` (a job: a staked table's payout, XP and ratings) runs in the same transaction
        and its value is returned."""
        now = time.time()
        up = self._sql("UPDATE tables SET status = ?, finished = ?, record = ? WHERE id = ?")
        ins = self._sql(
            "INSERT INTO results (table_id, player_id, seat, won, contracts, made, deals, score,"
            " finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
        rec = json.dumps(record, ensure_ascii=False)
        args = [
            (
                table_id,
                r["player"],
                r["seat"],
                int(r["won"]),
                r["contracts"],
                r["made"],
                r["deals"],
                r["score"],
                now,
            )
            for r in results
        ]

        fence = self.fence

        def job(cur: Any) -> T | None:
            if fence is not None:
                fence(cur, table_id, False)
            cur.execute(up, ("over", now, rec, table_id))
            if args:
                cur.executemany(ins, args)
            return also(cur) if also is not None else None

        return await self._call(job)

    # ------------------------------------------------------------------ statistics
    _STATS = (
        "SELECT r.player_id, p.name, p.username, COUNT(*), SUM(r.won), SUM(r.contracts),"
        " SUM(r.made), SUM(r.deals), SUM(r.score) FROM results r JOIN players p"
        " ON p.id = r.player_id"
    )

    @staticmethod
    def _stat(r: Sequence[Any]) -> dict[str, Any]:
        deals = int(r[7] or 0)
        return {
            "player": r[0],
            "name": r[1],
            "account": r[2] is not None,
            "matches": int(r[3]),
            "wins": int(r[4] or 0),
            "contracts": int(r[5] or 0),
            "made": int(r[6] or 0),
            "deals": deals,
            "average": round(int(r[8] or 0) / deals, 2) if deals else 0.0,
        }

    async def stats(self, player_id: str) -> dict[str, Any]:
        sql = self._sql(
            self._STATS + " WHERE r.player_id = ? GROUP BY r.player_id, p.name, p.username"
        )

        def job(cur: Any) -> dict[str, Any]:
            cur.execute(sql, (player_id,))
            r = cur.fetchone()
            if r is None:
                return {
                    "player": player_id,
                    "matches": 0,
                    "wins": 0,
                    "contracts": 0,
                    "made": 0,
                    "deals": 0,
                    "average": 0.0,
                }
            return self._stat(r)

        return await self._call(job)

    async def recent_matches(self, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The player's latest finished matches, newest first: the table, its kind, preset and
        secret seed (for the record's key), when it finished, the seat, whether it won, the
        score and the deals played."""
        sql = self._sql(
            "SELECT r.table_id, t.kind, t.rules, t.seed, r.finished, r.seat, r.won, r.score,"
            " r.deals FROM results r JOIN tables t ON t.id = r.table_id WHERE r.player_id = ?"
            " ORDER BY r.finished DESC LIMIT ?"
        )

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(sql, (player_id, limit))
            return [
                {
                    "table": r[0],
                    "kind": r[1],
                    "preset": json.loads(r[2]).get("name"),
                    "seed": int(r[3]),
                    "finished": float(r[4]),
                    "seat": int(r[5]),
                    "won": bool(r[6]),
                    "score": int(r[7]),
                    "deals": int(r[8]),
                }
                for r in cur.fetchall()
            ]

        return await self._call(job)

    async def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        """Players with an account (not a banned one), most wins first (then the best average
        per deal)."""
        sql = self._sql(
            self._STATS + " WHERE p.username IS NOT NULL AND p.banned IS NULL"
            " GROUP BY r.player_id, p.name, p.username"
            " ORDER BY SUM(r.won) DESC, SUM(r.score) * 1.0 / MAX(SUM(r.deals), 1) DESC LIMIT ?"
        )
        if self.kind == "postgresql":
            sql = sql.replace("MAX(SUM(r.deals), 1)", "GREATEST(SUM(r.deals), 1)")

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(sql, (limit,))
            return [self._stat(r) for r in cur.fetchall()]

        return await self._call(job)

    # ------------------------------------------------------------------ tournaments, story
    # (issue 13 items 4 and 5: a tournament is one JSON document, written by the one hub that
    # runs it; its tables and their records are ordinary tables)
    async def save_tournament(
        self,
        tid: str,
        status: str,
        start_at: float,
        created: float,
        data: dict[str, Any],
        *,
        new: bool = False,
        limits: tuple[str, int | None, int | None] | None = None,
    ) -> None:
        """Write a tournament's document (``new``: its first write, at its scheduling).

        ``limits``: ``(player id, entered, created)``, for a write that registers that player
        (``entered``: how many other tournaments not over it may be registered for already)
        or that it schedules (``created``: how many others not over it may have scheduled);
        None for a limit not checked. They are counted in the write's own transaction, after
        a lock on the player's row (``FOR UPDATE`` on PostgreSQL; SQLite has one writer at a
        time, ``BEGIN IMMEDIATE``), from the stored documents of every process: two such
        writes at the same moment (through two processes of a cluster, or two connections of
        one) are counted one after the other, and the second is refused with
        :class:`OverLimit`."""
        sql = self._sql(
            "INSERT INTO tournaments (id, status, start_at, created, data) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET status = excluded.status,"
            " start_at = excluded.start_at, data = excluded.data"
        )
        args = (tid, status, start_at, created, json.dumps(data, ensure_ascii=False))
        tourney_fence = self.tourney_fence
        lock = self._sql("SELECT id FROM players WHERE id = ?") + (
            " FOR UPDATE" if self.kind == "postgresql" else ""
        )
        others = self._sql(
            "SELECT data FROM tournaments WHERE status <> ? AND id <> ? AND data LIKE ?"
        )

        def job(cur: Any) -> None:
            if tourney_fence is not None:  # (before the write: its row lock orders a claim)
                tourney_fence(cur, tid, new)
            if limits is not None:
                pid, entered, made = limits
                cur.execute(lock, (pid,))
                # (the LIKE only narrows the rows read; each is counted from its document)
                cur.execute(others, ("over", tid, "%" + pid + "%"))
                docs = [json.loads(r[0]) for r in cur.fetchall()]
                mine = sum(1 for d in docs if any(p["id"] == pid for p in d["players"]))
                if entered is not None and mine >= entered:
                    raise OverLimit("entered", entered)
                if made is not None and sum(1 for d in docs if d["creator"] == pid) >= made:
                    raise OverLimit("created", made)
            cur.execute(sql, args)

        # with limits: in a transaction of its own. Its lock on the account's row is held to
        # the commit: in a batch beside another account's (two processes batching two
        # registrations in opposite orders) each would wait for the other's, and PostgreSQL
        # would refuse one of them (a deadlock)
        await self._call(job if limits is None else _Alone(job))

    async def tournaments(self, limit: int = 200) -> list[dict[str, Any]]:
        """Tournaments, newest start first (each its stored document)."""
        sql = self._sql("SELECT data FROM tournaments ORDER BY start_at DESC LIMIT ?")

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(sql, (limit,))
            return [json.loads(r[0]) for r in cur.fetchall()]

        return await self._call(job)

    async def live_tournaments(self) -> list[dict[str, Any]]:
        """Tournaments not yet over (to go on with after a restart)."""
        sql = self._sql("SELECT data FROM tournaments WHERE status <> ?")

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(sql, ("over",))
            return [json.loads(r[0]) for r in cur.fetchall()]

        return await self._call(job)

    async def tournament(self, tid: str) -> dict[str, Any] | None:
        sql = self._sql("SELECT data FROM tournaments WHERE id = ?")

        def job(cur: Any) -> dict[str, Any] | None:
            cur.execute(sql, (tid,))
            r = cur.fetchone()
            return json.loads(r[0]) if r else None

        return await self._call(job)

    async def tourney_tables(self, tid: str) -> list[str]:
        """The ids of the tables not over made for the tournament ``tid`` (by its options)."""
        sql = self._sql(
            "SELECT id FROM tables WHERE status IN ('waiting', 'playing', 'adjourned')"
            " AND options LIKE ?"
        )
        pattern = "%" + json.dumps({"tournament": tid})[1:-1] + "%"

        def job(cur: Any) -> list[str]:
            cur.execute(sql, (pattern,))
            return [str(r[0]) for r in cur.fetchall()]

        return await self._call(job)

    async def story_progress(self, player_id: str) -> dict[str, Any] | None:
        sql = self._sql("SELECT data FROM story_progress WHERE player_id = ?")

        def job(cur: Any) -> dict[str, Any] | None:
            cur.execute(sql, (player_id,))
            r = cur.fetchone()
            return json.loads(r[0]) if r else None

        return await self._call(job)

    async def save_story_progress(self, player_id: str, data: dict[str, Any]) -> None:
        sql = self._sql(
            "INSERT INTO story_progress (player_id, data, updated) VALUES (?, ?, ?)"
            " ON CONFLICT (player_id) DO UPDATE SET data = excluded.data,"
            " updated = excluded.updated"
        )
        args = (player_id, json.dumps(data), time.time())
        await self._call(lambda cur: cur.execute(sql, args))

    # ------------------------------------------------------------------ chips (issue 12)
    async def run(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn(cursor)`` as one job (one transaction) of the worker; ``fn`` writes its SQL
        with ``?`` placeholders through :meth:`q`."""
        return await self._call(fn)

    def q(self, text: str) -> str:
        """SQL with ``?`` placeholders, in this database's own."""
        return self._sql(text)


#: an event's data as stored: ``json.dumps(data, ensure_ascii=False)``, without making an
#: encoder for every event (as ``json.dumps`` does when given an option)
_event_json = json.JSONEncoder(ensure_ascii=False).encode


def _disk_failure(e: BaseException | None) -> BaseException | None:
    """The SQLite error of :data:`SQLITE_DISK_FAILURES` that ``e`` is, or that it came while
    handling (a ROLLBACK refused after SQLite ended the transaction itself), if any."""
    seen = 0
    while e is not None and seen < 10:
        code = getattr(e, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in SQLITE_DISK_FAILURES:
            return e
        e = e.__context__
        seen += 1
    return None


class _Alone:
    """A job run in a transaction of its own, not in a batch beside others (:func:`_parts`):
    one that takes a row lock that another process's batch may take in the other order."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __call__(self, cur: Any) -> Any:
        return self.fn(cur)


def _parts(
    jobs: list[tuple[Callable[[Any], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]],
) -> list[list[tuple[Callable[[Any], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]]]:
    """A batch's jobs as the transactions to run them in, in their order: each :class:`_Alone`
    job in one of its own, the others together between them."""
    parts: list[list[Any]] = []
    for job in jobs:
        if isinstance(job[0], _Alone) or not parts or isinstance(parts[-1][0][0], _Alone):
            parts.append([job])
        else:
            parts[-1].append(job)
    return parts


def _settle_all(settled: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for fut, ok, value in settled:
        _settle(fut, ok, value)


def _settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if fut.done():
        return
    if ok:
        fut.set_result(value)
    elif isinstance(value, StorageError):  # already says what went wrong (e.g. Fenced)
        fut.set_exception(value)
    elif isinstance(value, Exception):
        fut.set_exception(StorageError(f"{type(value).__name__}: {value}"))
    else:  # pragma: no cover
        fut.set_exception(StorageError(str(value)))


def _first_line(e: BaseException) -> str:
    """The first line of an error's message (psycopg's run over several)."""
    words = str(e).strip()
    return words.splitlines()[0] if words else type(e).__name__


def open_storage(
    url: str, *, sqlite_sync: str = "full", commit_gap: float = 0.0, immediate: bool = True
) -> Storage:
    """A :class:`Storage` for ``sqlite:///path`` or ``postgresql://…`` (not yet opened);
    ``sqlite_sync``: see :data:`SQLITE_SYNC` (PostgreSQL has its own ``synchronous_commit``);
    ``commit_gap``: see :attr:`Storage.commit_gap`; ``immediate``: see :attr:`Storage._begin`
    (False for a process that only reads)."""
    if not url.startswith(("sqlite:///", "postgresql://", "postgres://")):
        raise ValueError(f"unsupported database {url!r}: use sqlite:///PATH or postgresql://…")
    return Storage(url, sqlite_sync=sqlite_sync, commit_gap=commit_gap, immediate=immediate)
