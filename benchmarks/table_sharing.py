"""How much of the solver's search a table of coarser keys could save: an upper bound.

The solver's table (``_csolver.c``) is keyed on exact positions in relative ranks. DDS's "winning
ranks" entries each serve many positions: those that agree on the suits' lengths in every hand
and on who holds the few cards whose ranks mattered. This script asks how much such sharing
could save at best, without building it::

    python benchmarks/table_sharing.py --deals 20 --top 6 4 2 0

1. It compiles the solver a second time, with its trace switched on (``-DBATAK_SOLVER_TRACE``;
   the package's own build never has it), into a temporary folder, and solves the full deals of
   ``benchmarks/solver_speed.py`` with it. Every table node the search had to search (its entry
   missing or too loose) is written down: the hands, the search's node counter before and after
   it, the trick count asked for and the answer.
2. It then replays each deal's search against an imagined second table whose key is coarse:
   the leader, the trump-break flag, every hand's length in every suit, and the holders of only
   the top ``k`` cards still out in each suit. A node whose coarse key already holds a bound
   that settles it counts as a hit: the nodes below it are saved, and nothing below it is
   written to the imagined table. A hit whose bound gives the wrong answer is counted as wrong.

Read it as a ceiling. A sound entry must keep every card that decided a trick or, in Batak,
which cards a follower was obliged to play; entries built that way share less than the coarse
key does, and a single wrong answer is one too many for an exact solver. Progress goes to
stderr, the table to stdout. Needs a C compiler and the Python headers (as the package's build).
"""

from __future__ import annotations

import argparse
import array
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from batak.bots import solver as S
from batak.bots.solver import Position
from batak.cards import SUIT_MASKS

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "src" / "batak" / "bots" / "_csolver.c"
sys.path.insert(0, str(HERE))
from solver_speed import auctioned_deal  # noqa: E402

#: The last word of the record that starts each solve (see ``_csolver.c``).
SOLVE_START = (1 << 64) - 1

Record = tuple[tuple[int, int, int, int], int, int, int, int, int, int]


def build_traced(folder: Path) -> ModuleType:
    """The solver compiled with its trace, loaded from ``folder`` (not the installed one)."""
    out = folder / ("_csolver" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    cmd = [
        *cc,
        "-O2",
        "-shared",
        "-fPIC",
        "-DBATAK_SOLVER_TRACE",
        f"-I{sysconfig.get_paths()['include']}",
        str(SOURCE),
        "-o",
        str(out),
    ]
    subprocess.run(cmd, check=True)
    loader = importlib.machinery.ExtensionFileLoader("_csolver", str(out))
    spec = importlib.util.spec_from_file_location("_csolver", out, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def read_trace(path: Path) -> list[list[Record]]:
    """The trace's records, one list per solve."""
    flat = array.array("Q")
    flat.frombytes(path.read_bytes())
    solves: list[list[Record]] = []
    for at in range(0, len(flat), 7):
        w = flat[at : at + 7]
        if w[6] == SOLVE_START:
            solves.append([])
            continue
        info = w[6]
        hands = (w[0], w[1], w[2], w[3])
        leader, broken = info & 15, info >> 4 & 15
        need, value = info >> 8 & 255, info >> 16 & 255
        solves[-1].append((hands, w[4], w[5], leader, broken, need, value))
    return solves


def coarse_key(
    hands: tuple[int, int, int, int], top: int, leader: int, broken: int
) -> tuple[int, ...]:
    """Leader, break flag, every hand's suit lengths, and the holders of each suit's top cards."""
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    key: list[int] = [leader, broken]
    for mask in SUIT_MASKS:
        key.extend((h & mask).bit_count() for h in hands)
        rest = everyone & mask
        for _ in range(top):
            if not rest:
                break
            card = rest.bit_length() - 1
            key.append(next(i for i, h in enumerate(hands) if h >> card & 1))
            rest &= ~(1 << card)
    return tuple(key)


def replay(records: list[Record], top: int) -> tuple[int, int, int, int]:
    """One solve's search against the coarse table: (hits, nodes saved, wrong, nodes searched).

    Nodes are visited in the order the search met them; a node's entry is written when its
    search ends, as the real table's is."""
    events: list[tuple[int, int, int]] = []
    for i, r in enumerate(records):
        events.append((r[1], 1, i))  # starts
        events.append((r[2], 0, i))  # ends: at the same count, an end comes before a start
    events.sort()
    table: dict[tuple[int, ...], tuple[int, int]] = {}
    skip_until = -1
    skipped: set[int] = set()
    hits = saved = wrong = 0
    for _, starts, i in events:
        hands, before, after, leader, broken, need, value = records[i]
        if starts:
            if before < skip_until:  # inside a subtree a hit above already saved
                skipped.add(i)
                continue
            bound = table.get(coarse_key(hands, top, leader, broken))
            if bound is not None and (need <= bound[0] or need > bound[1]):
                hits += 1
                saved += after - before + 1
                wrong += (need <= bound[0]) != (value >= need)
                skip_until = after
                skipped.add(i)
            continue
        if i in skipped:
            continue
        key = coarse_key(hands, top, leader, broken)
        lo, hi = table.get(key, (0, 13))
        table[key] = (max(lo, value), hi) if value >= need else (lo, min(hi, value))
    searched = max(r[2] for r in records) - min(r[1] for r in records) + 1 if records else 0
    return hits, saved, wrong, searched


def progress(done: int, total: int, start: float, what: str) -> None:
    sys.stderr.write(f"\r\x1b[2K[{done}/{total}] {time.perf_counter() - start:6.1f}s  {what}")
    if not sys.stderr.isatty():
        sys.stderr.write("\n")
    sys.stderr.flush()


def positions(deals: int, first: int) -> Iterator[Position]:
    for seed in range(first, first + deals):
        yield Position.from_game(auctioned_deal(seed))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20, help="full deals (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    ap.add_argument(
        "--top",
        type=int,
        nargs="+",
        default=[6, 4, 2, 0],
        help="how many top cards of each suit the coarse key keeps, one replay each",
    )
    args = ap.parse_args(argv)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        traced = build_traced(folder)
        path = folder / "trace.bin"
        os.environ["BATAK_SOLVER_TRACE"] = str(path)
        for i, pos in enumerate(positions(args.deals, args.seed)):
            table = traced.Solver(S._c_tt_bits(pos))
            value = table.solve(*S._c_args(pos))
            assert value == S._solve_c(pos), "the traced build must solve as the package does"
            progress(i + 1, args.deals, start, f"solved, {table.nodes:,} nodes")
        solves = read_trace(path)
    sys.stderr.write("\n")
    rows = []
    for top in args.top:
        totals = [0, 0, 0, 0]
        for j, records in enumerate(solves):
            for t, x in enumerate(replay(records, top)):
                totals[t] += x
            progress(j + 1, len(solves), start, f"replayed with the top {top} cards kept")
        rows.append((top, *totals))
    sys.stderr.write("\n")
    nodes = rows[0][4] if rows else 0
    print(f"{args.deals} full deals from seed {args.seed}: {nodes:,} table nodes searched")
    print("| top cards kept per suit | hits | nodes saved | share saved | wrong answers |")
    print("|---:|---:|---:|---:|---:|")
    for top, hits, saved, wrong, searched in rows:
        print(f"| {top} | {hits:,} | {saved:,} | {saved / max(1, searched):.1%} | {wrong:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
