"""Load generator: many bot clients play over real websockets against a running Batak server.

Each table is a private room of four clients (no server bots) that play random legal moves after
a think time. It reports the tables in play at once, moves per second, the time from a move
sent to the next state received (p50, p99, max), and checks that no acknowledged move was lost
(every table's stored record is fetched at the end and its moves counted).

    python benchmarks/load.py --spawn --tables 1000 --think 2.0 --deals 1
    python benchmarks/load.py --url ws://127.0.0.1:8000/ws --tables 200

``--spawn`` starts ``batak serve`` in a subprocess on a free port with a fresh data folder.
Traffic goes to this machine only; the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field

from batak.server.client import Client, ServerError


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)  # table -> acknowledged moves
    errors: dict[str, int] = field(default_factory=dict)
    playing: int = 0
    max_playing: int = 0
    finished: int = 0
    first_move: float = 0.0
    last_move: float = 0.0


async def play_seat(c: Client, table: str, stats: Stats, think: float, rng: random.Random) -> None:
    tried = -1
    while True:
        st = c.tables[table]
        if st.over:
            return
        if st.my_turn and st.state_v != tried:
            tried = st.state_v
            assert st.view is not None
            if think > 0:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            move = rng.choice(st.view["legal_moves"])
            t0 = time.perf_counter()
            try:
                ack = await c.move(table, move)
            except ServerError as e:
                stats.errors[e.code] = stats.errors.get(e.code, 0) + 1
                continue
            await c.until(lambda a=ack: c.tables[table].v >= a["v"], 60)
            now = time.perf_counter()
            stats.latencies.append(now - t0)
            stats.acked[table] = stats.acked.get(table, 0) + 1
            stats.first_move = stats.first_move or now
            stats.last_move = now
            continue
        c._changed.clear()
        if c.closed:
            raise ConnectionError("connection closed")
        await c._changed.wait()


async def run_table(url: str, i: int, args: argparse.Namespace, stats: Stats) -> str | None:
    rng = random.Random(i)
    clients = [Client(url, name=f"load{i}-{s}") for s in range(4)]
    try:
        for c in clients:
            await c.connect()
        _, table = await clients[0].create(
            preset=args.preset, deals=args.deals, bots=False, decision_seconds=600
        )
        for c in clients[1:]:
            await c.join(table.id)
        await clients[0].start(table.id)
        stats.playing += 1
        stats.max_playing = max(stats.max_playing, stats.playing)
        try:
            await asyncio.gather(*(play_seat(c, table.id, stats, args.think, rng) for c in clients))
        finally:
            stats.playing -= 1
        stats.finished += 1
        return table.id
    except Exception as e:
        key = type(e).__name__
        stats.errors[key] = stats.errors.get(key, 0) + 1
        return None
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()


def moves_in_record(http: str, table: str) -> int:
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"{http}/api/tables/{table}/record", timeout=10) as r:
                rec = json.loads(r.read())
                return sum(len(d["moves"]) for d in rec["deals"])
        except urllib.error.HTTPError as e:
            if e.code != 409:
                raise
        time.sleep(0.1)
    raise RuntimeError(f"no record for {table}")


async def main_async(args: argparse.Namespace, url: str, http: str) -> int:
    stats = Stats()
    start = time.perf_counter()
    tasks = []

    async def report() -> None:
        while True:
            await asyncio.sleep(5)
            lat = sorted(stats.latencies[-5000:])
            p99 = lat[int(len(lat) * 0.99)] * 1000 if lat else 0
            print(
                f"  t={time.perf_counter() - start:5.0f}s playing={stats.playing:5d} "
                f"done={stats.finished:5d} moves={len(stats.latencies):7d} "
                f"recent p99={p99:6.1f} ms",
                flush=True,
            )

    reporter = asyncio.get_running_loop().create_task(report())
    for i in range(args.tables):
        tasks.append(asyncio.create_task(run_table(url, i, args, stats)))
        await asyncio.sleep(1.0 / args.ramp)
    tables = await asyncio.gather(*tasks)
    reporter.cancel()
    lost = 0
    checked = 0
    for t in tables:
        if t is None:
            continue
        stored = await asyncio.to_thread(moves_in_record, http, t)
        checked += 1
        if stored < stats.acked.get(t, 0):
            lost += stats.acked.get(t, 0) - stored
    lat = sorted(stats.latencies)
    span = max(stats.last_move - stats.first_move, 1e-9)
    print()
    print(f"tables: {args.tables} started, {stats.finished} finished, {checked} records checked")
    print(f"concurrent tables (max in play at once): {stats.max_playing}")
    print(f"moves: {len(lat)} acknowledged, {len(lat) / span:.0f} per second")
    if lat:
        print(
            f"move sent -> next state received: p50 {statistics.median(lat) * 1000:.1f} ms, "
            f"p99 {lat[int(len(lat) * 0.99)] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
        )
    print(f"acknowledged moves lost: {lost}")
    print(f"errors: {stats.errors or 'none'}")
    return 0 if lost == 0 and stats.finished == args.tables else 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--url", default=None, help="ws://HOST:PORT/ws of a running server")
    p.add_argument("--spawn", action="store_true", help="start a server for this run")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--deals", type=int, default=1)
    p.add_argument("--preset", default="standard")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    p.add_argument("--ramp", type=float, default=50.0, help="tables started per second")
    args = p.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    proc = None
    tmp = None
    if args.spawn or not args.url:
        port = free_port()
        tmp = tempfile.TemporaryDirectory()
        proc = subprocess.Popen(
            [sys.executable, "-m", "batak", "serve", "--port", str(port), "--data", tmp.name],
            stdout=subprocess.DEVNULL,
            env=dict(os.environ),
        )
        url = f"ws://127.0.0.1:{port}/ws"
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
    else:
        url = args.url
    http = url.replace("ws://", "http://").replace("wss://", "https://").removesuffix("/ws")
    print(f"load: {args.tables} tables x 4 clients, think {args.think}s, against {url}")
    try:
        return asyncio.run(main_async(args, url, http))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    raise SystemExit(main())
