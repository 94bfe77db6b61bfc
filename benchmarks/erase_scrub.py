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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=2000)
    ap.add_argument("--events", type=int, default=500, help="events a table")
    args = ap.parse_args(argv)
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
