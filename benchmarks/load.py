"""Load generator: many bot clients play over real websockets against a running Batak server.

Each table is a private room of four clients (no server bots) that play random legal moves after
a think time. It reports the tables in play at once, moves per second, the time from a move
sent to the next state received (p50, p99, max), and checks that no acknowledged move was lost
(every table's stored record is fetched at the end and its moves counted).

    python benchmarks/load.py --spawn --tables 1000 --think 3 --deals 1
    python benchmarks/load.py --url ws://127.0.0.1:8000/ws --tables 200

By default the clients send only their moves (and the websockets library's protocol pings every
20 s). ``--heartbeat always`` or ``quiet`` adds the web client's own ``ping`` (see
:func:`heartbeat`), to see what browsers' heartbeats cost the server.

``--spawn`` starts ``batak serve`` in a subprocess on a free port with a fresh data folder
(``--server-arg`` passes it one more argument, repeated for each: ``--server-arg=--sqlite-sync
--server-arg=normal``); at the end it prints the storage's jobs a commit (from /healthz).
``--nodes K`` starts K processes of a cluster instead (``batak serve --node nI`` on PostgreSQL and
Redis: ``--database`` and ``--redis``, or throwaway servers started with .ci/postgres.sh and
.ci/redis.sh); the four clients of table i connect to nodes i, i+1, i+2, i+3 (mod K), so that
most messages are forwarded to the table's owner, or with ``--steer`` all to the node that made
the table (none forwarded). It reports each node's CPU and the share of messages forwarded.

    python benchmarks/load.py --nodes 2 --tables 200 --think 3 --deals 1
The clients run in several processes (``--procs``, by default one per 250 tables), so that the
load generator's own event loop does not add its delays to what is measured; the server is one
process. Traffic goes to this machine only; the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
from typing import Any

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
    spans: list[tuple[float, float]] = field(default_factory=list)  # each table's play, wall
    records: dict[str, str] = field(default_factory=dict)  # table -> its record's path (key)


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
        await c.next_change()


#: seconds between the web client's heartbeat pings (src/batak/web/static/app.js: PING_EVERY)
PING_EVERY = 3.0


async def heartbeat(c: Client, mode: str) -> None:
    """The web client's application-level ``ping``, for ``--heartbeat``: ``always`` every 3 s
    (the web client before 2026-12-01), ``quiet`` only after 3 s without a word from the server
    (checked every second, as the web client does now)."""
    last = 0.0
    while not c.closed:
        await asyncio.sleep(PING_EVERY if mode == "always" else 1.0)
        now = time.monotonic()
        if mode == "always" or (now - c.heard >= PING_EVERY and now - last >= PING_EVERY):
            last = now
            with contextlib.suppress(Exception):
                await c.send({"type": "ping", "t": int(time.time() * 1000)})


async def run_table(url: str, i: int, args: argparse.Namespace, stats: Stats) -> str | None:
    rng = random.Random(i)
    urls = url.split(",")  # the nodes of a cluster: seat s of table i goes to node i + s
    if args.steer:
        clients = [
            Client(urls[i % len(urls)], name=f"load{i}-{s}", ack_in_event=True) for s in range(4)
        ]
    else:
        clients = [
            Client(urls[(i + s) % len(urls)], name=f"load{i}-{s}", ack_in_event=True)
            for s in range(4)
        ]
    phase = "setup"
    try:
        for c in clients:
            await c.connect()
        _, table = await clients[0].create(
            preset=args.preset, deals=args.deals, bots=False, decision_seconds=600
        )
        for c in clients[1:]:
            await c.join(code=table.info["code"])
        await clients[0].start(table.id)
        stats.playing += 1
        stats.max_playing = max(stats.max_playing, stats.playing)
        began = time.time()
        phase = "play"
        beats = [
            asyncio.create_task(heartbeat(c, args.heartbeat))
            for c in clients
            if args.heartbeat != "none"
        ]
        try:
            await asyncio.gather(*(play_seat(c, table.id, stats, args.think, rng) for c in clients))
        finally:
            for b in beats:
                b.cancel()
            stats.playing -= 1
            stats.spans.append((began, time.time()))
        stats.finished += 1
        stats.records[table.id] = clients[0].tables[table.id].record or ""
        return table.id
    except Exception as e:
        key = f"{phase}: {type(e).__name__}"
        stats.errors[key] = stats.errors.get(key, 0) + 1
        return None
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()


def moves_in_record(http: str, table: str, path: str) -> int:
    """The moves in a table's stored record (``path``: the record's path with the key that
    opens a private table's record, from a seated player's sync)."""
    for _ in range(100):
        try:
            with urllib.request.urlopen(
                http + (path or f"/api/tables/{table}/record"), timeout=10
            ) as r:
                rec = json.loads(r.read())
                return sum(len(d["moves"]) for d in rec["deals"])
        except urllib.error.HTTPError as e:
            if e.code != 409:
                raise
        time.sleep(0.1)
    raise RuntimeError(f"no record for {table}")


async def run_tables(args: argparse.Namespace, url: str) -> dict[str, object]:
    """Play ``args.tables`` tables (numbered from ``args.first``) in this process; the raw
    results, as JSON-ready data."""
    stats = Stats()
    start = time.perf_counter()
    tasks = []
    lags: list[float] = []
    stalls: list[tuple[float, int]] = []  # (seconds from the start, ms) of lags over 100 ms

    async def report() -> None:
        while True:
            await asyncio.sleep(5)
            lat = sorted(stats.latencies[-5000:])
            p99 = lat[int(len(lat) * 0.99)] * 1000 if lat else 0
            print(
                f"  [{args.first}] t={time.perf_counter() - start:5.0f}s "
                f"playing={stats.playing:5d} done={stats.finished:5d} "
                f"moves={len(stats.latencies):7d} recent p99={p99:6.1f} ms",
                file=sys.stderr,
                flush=True,
            )

    async def lag_monitor() -> None:
        """How late this process's own event loop runs (its share of the latencies)."""
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - t - 0.01)
            if lags[-1] > 0.1:
                stalls.append((round(t - start, 1), round(lags[-1] * 1000)))

    reporter = asyncio.get_running_loop().create_task(report())
    monitor = asyncio.get_running_loop().create_task(lag_monitor())
    for i in range(args.first, args.first + args.tables):
        tasks.append(asyncio.create_task(run_table(url, i, args, stats)))
        await asyncio.sleep(1.0 / args.ramp)
    tables = await asyncio.gather(*tasks)
    reporter.cancel()
    monitor.cancel()
    offset = time.time() - time.perf_counter()  # moves' times on the wall clock, to merge
    return {
        "tables": [t for t in tables if t is not None],
        "latencies": stats.latencies,
        "acked": stats.acked,
        "records": stats.records,
        "errors": stats.errors,
        "max_playing": stats.max_playing,
        "finished": stats.finished,
        "first_move": stats.first_move + offset if stats.first_move else 0.0,
        "last_move": stats.last_move + offset,
        "lags": lags,
        "spans": stats.spans,
        "stalls": stalls,
        "cpu": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
    }


def summarize(args: argparse.Namespace, http: str, parts: list[dict[str, Any]]) -> int:
    """Merge the processes' results, count lost moves from the stored records, and report."""
    tables = [t for p in parts for t in p["tables"]]
    acked: dict[str, int] = {}
    records: dict[str, str] = {}
    errors: dict[str, int] = {}
    for p in parts:
        acked.update(p["acked"])
        records.update(p["records"])
        for k, n in p["errors"].items():
            errors[k] = errors.get(k, 0) + n
    lost = checked = 0
    for t in tables:
        stored = moves_in_record(http, t, records.get(t, ""))
        checked += 1
        lost += max(0, acked.get(t, 0) - stored)
    lat = sorted(x for p in parts for x in p["latencies"])
    lags = sorted(x for p in parts for x in p["lags"])
    firsts = [p["first_move"] for p in parts if p["first_move"]]
    span = max(max(p["last_move"] for p in parts) - min(firsts), 1e-9) if firsts else 1e-9
    finished = sum(p["finished"] for p in parts)
    print()
    print(f"tables: {args.tables} started, {finished} finished, {checked} records checked")
    edges = sorted(
        [(a, 1) for p in parts for a, _ in p["spans"]]
        + [(b, -1) for p in parts for _, b in p["spans"]]
    )
    playing = most = 0
    for _, step in edges:
        playing += step
        most = max(most, playing)
    print(f"concurrent tables (max in play at once): {most}")
    print(f"moves: {len(lat)} acknowledged, {len(lat) / span:.0f} per second")
    if lat:
        print(
            f"move sent -> next state received: p50 {statistics.median(lat) * 1000:.1f} ms, "
            f"p99 {lat[int(len(lat) * 0.99)] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
        )
    if lags:
        print(
            f"load generator's own loop lag: p50 {statistics.median(lags) * 1000:.1f} ms, "
            f"p99 {lags[int(len(lags) * 0.99)] * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms"
        )
    print(f"load processes: {sum(p['cpu'] for p in parts):.1f} s of CPU in all")
    stored = storage_stats(http)
    if stored is not None and stored.get("jobs"):
        print(
            f"storage: {stored['jobs']} jobs in {stored['commits']} commits "
            f"({stored['jobs'] / max(stored['commits'], 1):.2f} jobs a commit)"
        )
    for p in parts:
        if p["stalls"]:
            print(f"  load process stalls over 100 ms (s from its start, ms): {p['stalls'][:12]}")
    print(f"acknowledged moves lost: {lost}")
    print(f"errors: {errors or 'none'}")
    return 0 if lost == 0 and finished == args.tables else 1


def server_stats(pid: int | None) -> str:
    """The server process's CPU time (user+system seconds) and resident memory, from /proc."""
    if pid is None:
        return ""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        cpu = (int(fields[11]) + int(fields[12])) / ticks
        rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        return f"server: {cpu:.1f} s of CPU, {rss:.0f} MiB resident"
    except (OSError, IndexError, ValueError):
        return ""


def storage_stats(http: str) -> dict[str, Any] | None:
    """The server's storage jobs and commits so far (its /healthz), None if it does not say."""
    try:
        with urllib.request.urlopen(f"{http}/healthz", timeout=5) as r:
            got = json.loads(r.read()).get("storage")
    except (OSError, ValueError):
        return None
    return got if isinstance(got, dict) else None


def cluster_stats(http: list[str], pids: list[int]) -> None:
    """Each node's CPU and what it forwarded (from /proc and /healthz)."""
    forwarded = handled = 0
    for h, pid in zip(http, pids, strict=True):
        with urllib.request.urlopen(f"{h}/healthz", timeout=5) as r:
            health = json.loads(r.read())
        forwarded += int(health.get("forwarded", 0))
        handled += int(health.get("handled", 0))
        print(f"  node {health.get('node')}: {server_stats(pid)}")
    print(f"client messages forwarded to another node: {forwarded} (handled for others {handled})")


def server_cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


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
    p.add_argument(
        "--procs",
        type=int,
        default=0,
        help="load processes (default: one per 250 tables); the server is one process",
    )
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="with --spawn: one more argument for batak serve (repeat it: "
        "--server-arg=--sqlite-sync --server-arg=normal)",
    )
    p.add_argument("--nodes", type=int, default=0, help="start a cluster of this many processes")
    p.add_argument("--database", default=None, help="PostgreSQL URL for --nodes")
    p.add_argument("--redis", default=None, help="Redis URL for --nodes")
    p.add_argument(
        "--steer", action="store_true", help="--nodes: every client of a table on its node"
    )
    p.add_argument(
        "--heartbeat",
        choices=("none", "always", "quiet"),
        default="none",
        help="clients also send the web client's ping: 'always' every 3 s (its old heartbeat),\n"
        "'quiet' after 3 s without a message from the server (its heartbeat now)",
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.worker:  # one of the load processes: results as JSON on stdout
        # a measuring instrument must not pause: no garbage collection in this short-lived
        # process (it only grows by its cyclic garbage for the few minutes of a run)
        gc.collect()
        gc.freeze()
        gc.disable()
        result = asyncio.run(run_tables(args, args.url))
        sys.stdout.write(json.dumps(result))
        return 0
    proc = None
    tmp = None
    nodes: list[subprocess.Popen[bytes]] = []
    services: list[tuple[str, str]] = []  # (script, folder) to stop at the end
    spawn = not args.nodes and (args.spawn or not args.url)  # one server of its own
    if args.server_arg and not spawn:
        raise SystemExit("--server-arg goes to a server this script starts: use it with --spawn")
    if args.nodes:
        url, nodes, services, tmp = start_cluster(args)
    elif spawn:
        port = free_port()
        tmp = tempfile.TemporaryDirectory()
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "batak", "serve", "--port", str(port)),
                *("--data", tmp.name),
                # every load client comes from this one address
                *("--rooms-per-address", "1000000", "--creates-per-address", "1000000"),
                *args.server_arg,
            ],
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
    https = [
        u.replace("ws://", "http://").replace("wss://", "https://").removesuffix("/ws")
        for u in url.split(",")
    ]
    http = https[0]
    procs = args.procs or max(1, min(4, (args.tables + 249) // 250))
    print(
        f"load: {args.tables} tables x 4 clients in {procs} load process(es), "
        f"think {args.think}s, against {url}; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    try:
        per = [args.tables // procs + (1 if i < args.tables % procs else 0) for i in range(procs)]
        workers = []
        first = 0
        for n in per:
            cmd = [
                sys.executable,
                __file__,
                "--worker",
                "--url",
                url,
                "--tables",
                str(n),
                "--first",
                str(first),
                "--deals",
                str(args.deals),
                "--preset",
                args.preset,
                "--think",
                str(args.think),
                "--ramp",
                str(args.ramp / procs),
                "--heartbeat",
                args.heartbeat,
                *(["--steer"] if args.steer else []),
            ]
            workers.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, env=dict(os.environ)))
            first += n
        parts = []
        for w in workers:
            out, _ = w.communicate()
            parts.append(json.loads(out))
        code = summarize(args, http, parts)
        print(server_stats(proc.pid if proc is not None else None))
        if nodes:
            cluster_stats(https, [n.pid for n in nodes])
            cpu = sum(server_cpu(n.pid) for n in nodes)
            moves = sum(len(p["latencies"]) for p in parts)
            print(
                f"servers: {cpu:.1f} s of CPU in all, {cpu / max(moves, 1) * 1000:.2f} ms per move"
            )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        return code
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        for n in nodes:
            n.terminate()
        for n in nodes:
            n.wait(30)
        for script, folder in services:
            subprocess.run(["bash", script, "stop", folder], check=False)
        if tmp is not None:
            tmp.cleanup()


def start_cluster(
    args: argparse.Namespace,
) -> tuple[
    str, list[subprocess.Popen[bytes]], list[tuple[str, str]], tempfile.TemporaryDirectory[str]
]:
    """K nodes on PostgreSQL and Redis (started here when not given); their URLs, joined by
    commas."""
    ci = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".ci")
    services = []
    database, redis = args.database, args.redis
    if not database:
        out = subprocess.run(
            ["bash", os.path.join(ci, "postgres.sh")], capture_output=True, text=True, check=True
        ).stdout.split()
        database = out[0]
        services.append((os.path.join(ci, "postgres.sh"), out[1]))
    if not redis:
        out = subprocess.run(
            ["bash", os.path.join(ci, "redis.sh")], capture_output=True, text=True, check=True
        ).stdout.split()
        redis = out[0]
        services.append((os.path.join(ci, "redis.sh"), out[1]))
    tmp = tempfile.TemporaryDirectory()
    nodes, urls = [], []
    for k in range(args.nodes):
        port = free_port()
        nodes.append(
            subprocess.Popen(
                [
                    *(sys.executable, "-m", "batak", "serve", "--port", str(port)),
                    *("--data", os.path.join(tmp.name, f"n{k}")),
                    *("--database", database, "--node", f"n{k}", "--redis", redis),
                    *("--rooms-per-address", "1000000", "--creates-per-address", "1000000"),
                ],
                stdout=subprocess.DEVNULL,
                env=dict(os.environ),
            )
        )
        for _ in range(400):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        urls.append(f"ws://127.0.0.1:{port}/ws")
    time.sleep(2.5)  # every node sees the others
    return ",".join(urls), nodes, services, tmp


if __name__ == "__main__":
    raise SystemExit(main())
