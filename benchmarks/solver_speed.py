"""Time to solve Batak deals double-dummy, next to DDS (``endplay``) on the same deals as bridge.

Run from the repository root::

    pip install endplay             # the peer; optional, batak's own figures need nothing
    python benchmarks/solver_speed.py --deals 30

What is measured, over ``--deals`` seeded deals of the ``standard`` table (4 players, ihaleli):

* **full deal (13 cards)**: a simple auction (the seat with the most high-card points plus long-suit
  length bids the minimum, everyone else passes), trump = the bidder's longest suit, then the
  time of ``solve_position`` for the bidder (alone) from the first lead: the C engine only
  (the Python reference takes minutes on some deals).
* **8 cards per hand**: the same deal after 5 tricks of seeded random legal play; C and Python.
* **eşli** (C only): the same 52 cards, dealer, bidder and trump at a table with partners
  (``cetinsgame-esli``, whose card play is ``standard``'s), solved for the bidder's partnership,
  from the first lead and after 5 random tricks. This is DDS's own question (the tricks of the
  side on lead, two partners against two); the ``standard`` rows ask for one player against
  three, which searches more.
* **peer**: DDS (``endplay.dds.solve_board`` in ``SolveMode.OptimalOne``: the most tricks for the
  side on lead, one declarer/strain) on the same 52 cards dealt as a bridge deal, the same
  leader and the same trump suit; and its 8-card position after 5 tricks of random legal bridge
  play. DDS keeps its own tables between calls, as ours does inside one call only.
* **``--bridge``**: our C engine on DDS's own positions under bridge rules (follow suit, no
  compulsory overtaking or trumping: ``flags=64``, no trump-lead restriction), for the leader's
  partnership, so both solvers answer the same question; the script asserts equal trick counts.
  Much slower for ours than Batak rules (no forced overtaking to narrow the moves).

* **``--guess``**: our full deals (13 cards) start from a first guess,
  ``batak.bots.bidsim.first_guess`` (one more than a play-out that is greedy down to 7 cards and
  exact from there), whose own time and cards are counted in the row; the 8-card rows stay as
  they are (there the play-out costs more than it saves).

* **``--nodes``**: instead of timing anything, the trick-boundary nodes our C engine searches on
  each of its positions (a fresh table each, as ``solve_position`` sizes it), and the cards it
  plays there (every card tried; the positions that the bounds settle included, so this is the
  count that follows the time), with each row's total, median and p90 over the deals: counts
  that are the same on any machine at any load, for comparing two builds of the solver
  (written to ``results/solver_nodes.json``; no DDS).

Figures are the median and p90 over deals; the ratio is ours/DDS (median/median; for the eşli
rows also p90/p90). With
``--repeat N`` the sweep over the deals (ours and DDS, 13 and 8 cards) runs N times in the same
order and each position keeps its fastest time, which damps the load of a shared machine.
Progress goes to stderr, a table to stdout, everything to ``--json`` (default
``benchmarks/results/solver_speed.json``, git-ignored). Exits 0 without endplay (no ratio).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from batak import Game
from batak.bots import solver as S
from batak.bots.bidsim import first_guess, first_guess_table
from batak.bots.solver import Position, solve_position
from batak.cards import SUIT_MASKS

HERE = Path(__file__).resolve().parent
DEFAULT_JSON = HERE / "results" / "solver_speed.json"
DEFAULT_NODES_JSON = HERE / "results" / "solver_nodes.json"
HCP = {12: 4, 11: 3, 10: 2, 9: 1}  # ace, king, queen, jack
#: the table with partners for the eşli rows: ``standard`` with partners (the same card play)
PARTNER_PRESET = "cetinsgame-esli"


# ---------------------------------------------------------------------- deals
def strength(hand: int) -> tuple[int, int]:
    """High-card points plus length beyond four in each suit (the auction's yardstick)."""
    points = sum(HCP.get(c % 13, 0) for c in range(52) if hand >> c & 1)
    lengths = [(hand & m).bit_count() for m in SUIT_MASKS]
    return points + sum(max(0, n - 4) for n in lengths), max(lengths)


def longest_suit(hand: int) -> int:
    def key(s: int) -> tuple[int, int]:
        cards = hand & SUIT_MASKS[s]
        return cards.bit_count(), sum(HCP.get(c % 13, 0) for c in range(52) if cards >> c & 1)

    return max(range(4), key=key)


def auctioned_deal(seed: int) -> Game:
    """A ``standard`` deal after the simple auction and the trump choice: the bidder leads."""
    g = Game("standard", seed=seed, dealer=seed % 4)
    hands = hand_masks(g)
    bidder = max(range(4), key=lambda s: strength(hands[s]))
    while g.phase.value == "bidding":
        g.play(f"bid {g.rules.min_bid}" if g.to_move == bidder else "pass")
    g.play("trump " + "SHDC"[longest_suit(hands[bidder])])
    return g


def partnership_deal(g: Game, preset: str = PARTNER_PRESET) -> Game:
    """The same 52 cards, dealer, bidder and trump as ``g`` (an auctioned ``standard`` deal) at a
    table with partners: the same question as DDS's, the tricks of the leader's partnership."""
    e = Game(preset, hands=[" ".join(str(c) for c in h) for h in g.hands], dealer=g.dealer)
    contract = g.contract
    assert contract is not None and g.trump is not None
    while e.phase.value == "bidding":
        e.play(f"bid {e.rules.min_bid}" if e.to_move == contract.bidder else "pass")
    e.play("trump " + "SHDC"[g.trump.ordinal])
    return e


def hand_masks(g: Game) -> list[int]:
    return [sum(c.mask for c in h) for h in g.hands]


def after_tricks(g: Game, tricks: int, seed: int) -> Game:
    rng = random.Random(seed)
    g = g.copy()
    for _ in range(tricks * g.players):
        g.play(rng.choice(g.legal_moves()))
    return g


def our_positions(seed: int) -> dict[str, Position]:
    """The positions our engine solves for one deal: the bidder alone (``standard``) and the
    bidder's partnership (eşli), each from the first lead and after 5 random tricks."""
    g = auctioned_deal(seed)
    pair = partnership_deal(g)
    return {
        "c_13": Position.from_game(g),
        "c_8": Position.from_game(after_tricks(g, 5, seed)),
        "c_pair_13": Position.from_game(pair),
        "c_pair_8": Position.from_game(after_tricks(pair, 5, seed)),
    }


# ---------------------------------------------------------------------- bridge (the peer)
def pbn(hands: list[int]) -> str:
    """``N:`` deal string of four hand masks (seat 0 = north)."""

    def hand(mask: int) -> str:
        return ".".join(
            "".join("AKQJT98765432"[12 - r] for r in range(12, -1, -1) if mask >> (s * 13 + r) & 1)
            for s in range(4)
        )

    return "N:" + " ".join(hand(h) for h in hands)


def bridge_after_tricks(
    hands: list[int], leader: int, trump: int, tricks: int, seed: int
) -> tuple[list[int], int]:
    """Random legal bridge play (follow suit if you can; highest trump, else of the suit led,
    wins): the hands and the leader after ``tricks`` tricks."""
    rng = random.Random(seed)
    hands = list(hands)
    for _ in range(tricks):
        played: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            h = hands[seat]
            if played and h & SUIT_MASKS[played[0] // 13]:
                h &= SUIT_MASKS[played[0] // 13]
            card = rng.choice([c for c in range(52) if h >> c & 1])
            hands[seat] &= ~(1 << card)
            played.append(card)
        lead = played[0] // 13
        power = [100 + c if c // 13 == trump else (c if c // 13 == lead else -1) for c in played]
        leader = (leader + power.index(max(power))) % 4
    return hands, leader


def dds_timer() -> Callable[[list[int], int, int], tuple[float, int]] | None:
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None

    def run(hands: list[int], leader: int, trump: int) -> tuple[float, int]:
        deal = Deal(pbn(hands))
        deal.first = Player(leader)
        deal.trump = Denom(trump)
        t = time.perf_counter()
        result = list(solve_board(deal, SolveMode.OptimalOne))
        elapsed = time.perf_counter() - t
        return elapsed, result[0][1]

    return run


def bridge_solve(hands: list[int], leader: int, trump: int) -> int:
    """Our compiled engine under bridge rules: the tricks of the leader's partnership."""
    from batak.bots import _csolver

    side = 1 << leader | 1 << (leader + 2) % 4
    return _csolver.solve(tuple(hands), trump, leader, (), False, side, BRIDGE_FLAGS, 20)


#: the compiled solver's flags for bridge: no compulsory overtaking or trumping (64: a player
#: void in the suit led may discard anything); trump leads are never restricted (no 16)
BRIDGE_FLAGS = 64


#: the rows' names in the printed tables
LABELS = {
    "c_13": "batak C, full deal (13 cards)",
    "c_8": "batak C, 8 cards per hand",
    "c_pair_13": "batak C, eşli, full deal",
    "c_pair_8": "batak C, eşli, 8 cards per hand",
    "python_8": "batak Python, 8 cards per hand",
    "dds_13": "DDS (endplay), bridge full deal",
    "dds_8": "DDS (endplay), bridge 8 cards",
    "c_bridge_13": "batak C, bridge rules, full deal",
    "c_bridge_8": "batak C, bridge rules, 8 cards",
}


# ---------------------------------------------------------------------- measurements
#: ``--guess`` gives a first guess to positions of at least this many tricks (the full deals)
GUESS_FROM = 13


def solve_ours(pos: Position, guess: bool = False) -> int:
    """``solve_position`` by our C engine; with ``guess``, a full deal starts from
    :func:`first_guess` (worked out here, so its time counts)."""
    if guess and pos.tricks_left >= GUESS_FROM:
        return solve_position(pos, engine="c", guess=first_guess(pos))
    return solve_position(pos, engine="c")


def timed(fn: Callable[[], int]) -> tuple[float, int]:
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def p90_of(ordered: list[Any]) -> Any:
    """The 90th percentile of sorted values: the one at 90% of the way from first to last."""
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p90 = p90_of(ordered)
    return {
        "n": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p90_ms": p90 * 1000,
        "max_ms": ordered[-1] * 1000,
        "mean_ms": statistics.fmean(ordered) * 1000,
    }


def nodes_of(pos: Position, guess: bool = False) -> tuple[int, int]:
    """The trick-boundary nodes our compiled engine searches to solve ``pos`` in a fresh table
    of the size ``solve_position`` gives it (2**20 entries for a full deal), and the cards it
    plays doing so (``Solver.cards``: every card tried, so also the positions that the bounds
    settle, which the nodes leave out). With ``guess``, a full deal's first guess
    (:func:`first_guess`) and its play-out's nodes and cards are added."""
    from batak.bots import _csolver

    extra_nodes = extra_cards = 0
    first = -1
    if guess and pos.tricks_left >= GUESS_FROM:
        est = first_guess_table()
        nodes0, cards0 = est.nodes, est.cards
        first = first_guess(pos)
        extra_nodes, extra_cards = est.nodes - nodes0, est.cards - cards0
    table = _csolver.Solver(S.table_bits(pos.tricks_left))
    value = table.solve(*S._c_args(pos), guess=first)
    assert value is not None  # no node limit given
    return int(table.nodes) + extra_nodes, int(table.cards) + extra_cards


def count_nodes(
    first_seed: int, deals: int, guess: bool = False
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Per row of our engine (``c_13``, ``c_8``, ``c_pair_13``, ``c_pair_8``): the nodes searched
    on each deal, in seed order, and the cards played. Counts, not a clock: the same on any
    machine at any load."""
    counts: dict[str, list[int]] = {}
    cards: dict[str, list[int]] = {}
    for seed in range(first_seed, first_seed + deals):
        for key, pos in our_positions(seed).items():
            nodes, played = nodes_of(pos, guess)
            counts.setdefault(key, []).append(nodes)
            cards.setdefault(key, []).append(played)
    return counts, cards


def _totals(per_deal: list[int]) -> dict[str, int]:
    ordered = sorted(per_deal)
    return {
        "total": sum(ordered),
        "median": round(statistics.median(ordered)),
        "p90": p90_of(ordered),
    }


def nodes_report(
    first_seed: int, counts: dict[str, list[int]], cards: dict[str, list[int]]
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """Print each row's total, median and p90 of nodes and of cards played over the deals;
    return them (nodes, cards)."""
    out: dict[str, dict[str, int]] = {}
    out_cards: dict[str, dict[str, int]] = {}
    deals = len(next(iter(counts.values())))
    title = f"seeds {first_seed}-{first_seed + deals - 1}"
    print(
        f"{title:34} {'nodes total':>13} {'median':>10} {'p90':>10}"
        f" {'cards total':>14} {'median':>11} {'p90':>11}"
    )
    for key, per_deal in counts.items():
        row = out[key] = _totals(per_deal)
        played = out_cards[key] = _totals(cards[key])
        print(
            f"{LABELS[key]:34} {row['total']:13,} {row['median']:10,} {row['p90']:10,}"
            f" {played['total']:14,} {played['median']:11,} {played['p90']:11,}"
        )
    return out, out_cards


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=30, help="seeded deals (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed")
    ap.add_argument("--no-python", action="store_true", help="skip the Python engine")
    ap.add_argument(
        "--bridge",
        action="store_true",
        help="also solve DDS's bridge positions with our engine under bridge rules (slow)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time every position this many times (whole sweeps over the deals, so each "
        "solver sees the same sequence of positions as in one run) and keep each position's "
        "fastest time: on a busy machine the load spikes then weigh less (default 1; the "
        "Python engine and the bridge-rules rows are timed once)",
    )
    ap.add_argument(
        "--guess",
        action="store_true",
        help="our full deals start from a first guess (batak.bots.bidsim.first_guess: a greedy "
        "play-out, exact from 7 cards), its time and cards counted in the row",
    )
    ap.add_argument(
        "--nodes",
        action="store_true",
        help="instead of timing, count the nodes our compiled engine searches on each deal "
        "and the cards it plays (a fresh table per position) and print each row's total, "
        "median and p90: the figures do not depend on the machine or its load; no DDS",
    )
    ap.add_argument(
        "--json",
        type=Path,
        default=None,
        help=f"default {DEFAULT_JSON.name}, "
        f"or {DEFAULT_NODES_JSON.name} with --nodes (in {DEFAULT_JSON.parent})",
    )
    args = ap.parse_args(argv)
    if not S.c_engine_available():
        print("the compiled solver is not built (pip install . with a C compiler)", file=sys.stderr)
        return 1
    if args.nodes:
        counts, cards = count_nodes(args.seed, args.deals, args.guess)
        node_rows, card_rows = nodes_report(args.seed, counts, cards)
        node_report: dict[str, Any] = {
            "benchmark": "solver_speed --nodes",
            "deals": args.deals,
            "first_seed": args.seed,
            "guess": args.guess,
            "results": node_rows,
            "per_deal": counts,
            "cards": card_rows,
            "per_deal_cards": cards,
        }
        write_json(args.json or DEFAULT_NODES_JSON, node_report)
        return 0
    peer = dds_timer()
    if peer is None:
        print("endplay is not installed: reporting batak's figures alone", file=sys.stderr)
    else:
        peer(hand_masks(auctioned_deal(0)), 0, 0)  # warm-up: DDS allocates its tables

    keys = (
        "c_13",
        "c_8",
        "c_pair_13",
        "c_pair_8",
        "python_8",
        "dds_13",
        "dds_8",
        "c_bridge_13",
        "c_bridge_8",
    )
    series: dict[str, list[float]] = {k: [] for k in keys}
    values: list[dict[str, int]] = []
    positions: list[tuple[dict[str, Position], list[int], int]] = []
    start = time.perf_counter()
    for i in range(args.deals):
        seed = args.seed + i
        ours = our_positions(seed)
        pos13, pos8 = ours["c_13"], ours["c_8"]
        row: dict[str, int] = {"seed": seed}
        for key, pos in ours.items():
            t, row[key] = timed(lambda p=pos: solve_ours(p, args.guess))
            series[key].append(t)
        if not args.no_python:
            t, row["python_8"] = timed(lambda p=pos8: solve_position(p, engine="python"))
            series["python_8"].append(t)
            assert row["python_8"] == row["c_8"], (seed, row)
        if peer is not None:
            hands = list(pos13.hands)
            t, row["dds_13"] = peer(hands, pos13.leader, pos13.trump)
            series["dds_13"].append(t)
            h8, lead8 = bridge_after_tricks(hands, pos13.leader, pos13.trump, 5, seed)
            t, row["dds_8"] = peer(h8, lead8, pos13.trump)
            series["dds_8"].append(t)
            if args.bridge:
                for key, (h, first) in (("13", (hands, pos13.leader)), ("8", (h8, lead8))):
                    t, row[f"c_bridge_{key}"] = timed(
                        lambda h=h, first=first, tr=pos13.trump: bridge_solve(h, first, tr)
                    )
                    series[f"c_bridge_{key}"].append(t)
                    assert row[f"c_bridge_{key}"] == row[f"dds_{key}"], (seed, row)
        values.append(row)
        positions.append((ours, h8, lead8) if peer is not None else (ours, [], 0))
        elapsed = time.perf_counter() - start
        sys.stderr.write(
            f"\r\x1b[2K[{i + 1}/{args.deals}] {elapsed:6.1f}s  seed {seed}: "
            f"C 13 cards {series['c_13'][-1] * 1000:8.1f} ms"
            + ("" if sys.stderr.isatty() else "\n")
        )
        sys.stderr.flush()
    sys.stderr.write("\n")
    for sweep in range(1, args.repeat):
        for i, (ours, h8, lead8) in enumerate(positions):
            for key, pos in ours.items():
                t, _ = timed(lambda p=pos: solve_ours(p, args.guess))
                series[key][i] = min(series[key][i], t)
            if peer is not None:
                pos13 = ours["c_13"]
                t, _ = peer(list(pos13.hands), pos13.leader, pos13.trump)
                series["dds_13"][i] = min(series["dds_13"][i], t)
                t, _ = peer(h8, lead8, pos13.trump)
                series["dds_8"][i] = min(series["dds_8"][i], t)
        sys.stderr.write(f"sweep {sweep + 1}/{args.repeat} done\n")

    results = {k: summary(v) for k, v in series.items() if v}
    ratios: dict[str, float] = {}
    if peer is not None:
        ratios["c_13_vs_dds_13"] = results["c_13"]["median_ms"] / results["dds_13"]["median_ms"]
        ratios["c_8_vs_dds_8"] = results["c_8"]["median_ms"] / results["dds_8"]["median_ms"]
        for k in ("13", "8"):
            for stat in ("median_ms", "p90_ms"):
                ratios[f"c_pair_{k}_vs_dds_{k}_{stat[:-3]}"] = (
                    results[f"c_pair_{k}"][stat] / results[f"dds_{k}"][stat]
                )
    if "c_bridge_13" in results:
        for k in ("13", "8"):
            ratios[f"c_bridge_{k}_vs_dds_{k}"] = (
                results[f"c_bridge_{k}"]["median_ms"] / results[f"dds_{k}"]["median_ms"]
            )
    if "python_8" in results:
        ratios["python_8_vs_c_8"] = results["python_8"]["median_ms"] / results["c_8"]["median_ms"]
    print(f"{'':34} {'median ms':>10} {'p90 ms':>10} {'max ms':>10}")
    for k, r in results.items():
        print(f"{LABELS[k]:34} {r['median_ms']:10.2f} {r['p90_ms']:10.2f} {r['max_ms']:10.2f}")
    for k, v in ratios.items():
        print(f"ratio {k}: {v:.2f}")

    report: dict[str, Any] = {
        "benchmark": "solver_speed",
        "when": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "deals": args.deals,
        "first_seed": args.seed,
        "repeat": args.repeat,
        "guess": args.guess,
        "results": results,
        "ratios": ratios,
        "peer": "endplay.dds.solve_board (DDS), OptimalOne" if peer is not None else None,
        "values": values,
    }
    if peer is not None:
        import endplay

        report["peer_version"] = endplay.__version__
    write_json(args.json or DEFAULT_JSON, report)
    return 0


def write_json(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
