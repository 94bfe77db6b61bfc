"""How long an account's erasure holds the database, next to the plain way of doing it.

Run from the repository root::

    python benchmarks/erase_scrub.py --tables 2000

It makes a SQLite database in a temporary folder with ``--tables`` finished tables of
``--events`` events each (a match of 8 deals is about 450 moves), one player sitting at every
50th, erases that player (:func:`batak.server.erase.erase_job`) and times the events' scrub
(:func:`batak.server.erase.scrub_events`): in all, and the longest of its parts, which is how
long the server's one storage worker (every table's moves) waits behind it at worst. The peer,
measured on the same database in the same run, is the plain way: one ``LIKE`` query over the
whole events table in one transaction, which holds the worker for the whole of its time. The
ratios are ours/peer. Progress goes to stderr, the table to stdout.

With ``--database postgresql://…`` (a database of its own: its tables are made, and the rows
it writes are left there) it measures instead the first step on PostgreSQL, which takes the
name out of the finished matches' records and the tournaments' documents in the erasure's one
transaction (:func:`batak.server.erase.erase_job`): ``--matches`` finished matches of that
player (each record 8 deals of hands and moves) and one tournament for every 10 of them. It
says how many rows the step locks and how long it holds them: from the first lock on a record
or tournament row to the commit (another erasure of someone who played one of those matches,
or a write of one of those rows, waits at most that long for it).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from batak.server import erase
from batak.server.storage import EventRow, PlayerRow, TableRow, open_storage

PID = "p0123456789ab"


async def measure(folder: Path, tables: int, events: int) -> dict[str, float]:
    storage = open_storage(f"sqlite:///{folder / 'batak.sqlite3'}", sqlite_sync="normal")
    await storage.open()
    try:
        await storage.create_player(PlayerRow(PID, "Zeynep", "tok", 0.0, "zeynep", "h"))
        for i in range(tables):
            sitter = PID if i % 50 == 0 else "p000000000000"
            rows = [EventRow(1, "sit", {"seat": 0, "player": sitter, "name": "Zeynep"}, 0.0)]
            rows += [
                EventRow(v, "move", {"seat": v % 4, "move": "AS", "by": None}, 0.0)
                for v in range(2, events + 1)
            ]
            row = TableRow(f"t{i:07d}", f"C{i:07d}", "public", None, {}, 1, 0, {}, None, "over", 0)
            await storage.create_table(row, rows)
            if i % 100 == 99:
                print(f"\rtables made: {i + 1:,}/{tables:,}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        await storage.run(erase.erase_job(storage.q, PID))
        longest = 0.0

        async def timed(fn: Callable[[Any], Any]) -> Any:
            nonlocal longest
            start = time.perf_counter()
            out = await storage.run(fn)
            longest = max(longest, time.perf_counter() - start)
            return out

        start = time.perf_counter()
        await erase.scrub_events(timed, storage.q, PID)
        total = time.perf_counter() - start
        like = storage.q(
            "SELECT table_id, version, kind, data FROM events"
            " WHERE kind IN ('sit', 'chat') AND data LIKE ?"
        )

        def plain(cur: Any) -> int:
            cur.execute(like, (f"%{PID}%",))
            return len(cur.fetchall())

        start = time.perf_counter()
        await storage.run(plain)
        peer = time.perf_counter() - start
        return {"total": total, "longest": longest, "peer": peer}
    finally:
        await storage.close()


def _record(i: int) -> dict[str, Any]:
    """A finished match's record of 8 deals (hands and moves), Zeynep at seat ``i % 4``."""
    cards = [r + s for s in "SHDC" for r in "AKQJT98765432"]
    names = ["Bot 1", "Bot 2", "Bot 3"]
    names.insert(i % 4, "Zeynep")
    deals = [
        {"dealer": d % 4, "hands": [cards[k::4] for k in range(4)], "moves": ["pas"] * 4 + cards}
        for d in range(8)
    ]
    return {"meta": {"table": f"m{i:07d}", "players": names}, "deals": deals}


async def measure_records(url: str, matches: int) -> dict[str, float]:
    """The first step's scrub of ``matches`` records and ``matches // 10`` tournaments on
    PostgreSQL: the rows it locks, how long it holds them (first lock to commit), in all."""
    import json

    storage = open_storage(url)
    await storage.open()
    try:
        await storage.create_player(PlayerRow(PID, "Zeynep", "tok", 0.0, "zeynep", "h"))
        size = len(json.dumps(_record(0)))

        def made(cur: Any) -> None:
            for i in range(matches):
                cur.execute(
                    storage.q(
                        "INSERT INTO tables (id, code, kind, rules, seed, dealer, options,"
                        " status, created, finished, record) VALUES (?, ?, 'public', '{}', 's',"
                        " 0, '{}', 'over', 0, 1, ?)"
                    ),
                    (f"m{i:07d}", f"M{i:07d}", json.dumps(_record(i))),
                )
                cur.execute(
                    storage.q(
                        "INSERT INTO results (table_id, player_id, seat, won, contracts, made,"
                        " deals, score, finished) VALUES (?, ?, ?, 0, 0, 0, 8, 0, 1)"
                    ),
                    (f"m{i:07d}", PID, i % 4),
                )
            for k in range(matches // 10):
                players = [{"id": PID, "name": "Zeynep"}]
                players += [{"id": f"p{k:06d}{j:06d}", "name": f"Oyuncu {j}"} for j in range(7)]
                doc = {"id": f"k{k:06d}", "name": f"Kupa {k}", "creator": PID}
                doc |= {"creator_name": "Zeynep", "players": players, "standings": players}
                cur.execute(
                    storage.q(
                        "INSERT INTO tournaments (id, status, start_at, created, data)"
                        " VALUES (?, 'over', 0, 0, ?)"
                    ),
                    (doc["id"], json.dumps(doc)),
                )

        await storage.run(made)
        first: float | None = None
        counted = {"tables": 0, "tournaments": 0}

        class Watched:
            """The job's cursor, noting when a record or tournament row is first locked:
            at a scrub's read (FOR … UPDATE) or else at its first update."""

            def __init__(self, cur: Any) -> None:
                self.cur = cur

            def _saw(self, sql: str, rows: int) -> None:
                nonlocal first
                reads = "FOR NO KEY UPDATE" in sql and ("record" in sql or "tournaments" in sql)
                writes = sql.startswith(("UPDATE tables SET record", "UPDATE tournaments"))
                if (reads or writes) and first is None:
                    first = time.perf_counter()
                if writes:
                    counted["tables" if "tables" in sql else "tournaments"] += rows

            def execute(self, sql: str, args: Any = ()) -> Any:
                self._saw(sql, 1)
                return self.cur.execute(sql, args)

            def executemany(self, sql: str, rows: Any) -> Any:
                rows = list(rows)
                self._saw(sql, len(rows))
                return self.cur.executemany(sql, rows)

            def __getattr__(self, name: str) -> Any:
                return getattr(self.cur, name)

        inner = erase.erase_job(storage.q, PID)
        start = time.perf_counter()
        done = await storage.run(type(inner)(lambda cur: inner(Watched(cur))))
        end = time.perf_counter()
        assert done.erased and done.games == matches
        held = end - (first if first is not None else end)
        return {"size": size, "total": end - start, "held": held, **counted}
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=2000)
    ap.add_argument("--events", type=int, default=500, help="events a table")
    ap.add_argument("--database", default=None, help="postgresql://…: the records' step")
    ap.add_argument("--matches", type=int, default=2000, help="with --database")
    args = ap.parse_args(argv)
    if args.database:
        got = asyncio.run(measure_records(args.database, args.matches))
        print(
            f"{args.matches:,} records of {got['size']:,} bytes, {args.matches // 10:,}"
            f" tournaments: {got['tables']:,} table rows and {got['tournaments']:,} tournament"
            f" rows written; the first step {got['total'] * 1000:.0f} ms, its record and"
            f" tournament rows held {got['held'] * 1000:.0f} ms (first lock to commit)"
        )
        return 0
    with tempfile.TemporaryDirectory() as folder:
        got = asyncio.run(measure(Path(folder), args.tables, args.events))
        size = (Path(folder) / "batak.sqlite3").stat().st_size
    n = args.tables * args.events
    print(f"{n:,} events, {size / 2**20:.0f} MiB; parts of {erase.PART:,}")
    print("| | ms | ours ÷ peer |")
    print("|---|---:|---:|")
    print(f"| scrub, in all | {got['total'] * 1000:.0f} | {got['total'] / got['peer']:.1f}× |")
    print(
        f"| scrub, longest part (the worker held) | {got['longest'] * 1000:.1f}"
        f" | {got['longest'] / got['peer']:.2f}× |"
    )
    print(f"| peer: one LIKE query (the worker held) | {got['peer'] * 1000:.0f} | 1.00× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
