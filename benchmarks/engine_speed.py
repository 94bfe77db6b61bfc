"""Random full deals per second of the ``batak`` engine, next to OpenSpiel's ``spades``.

Run from the repository root::

    pip install open-spiel          # the peer; optional, batak's own figures need nothing
    python benchmarks/engine_speed.py --rounds 5 --seconds 2

What is measured (see ``benchmarks/README.md`` for why this is a fair comparison):

* **deals/s** per preset: ``batak.Game(rules, seed=k)`` (a fresh seeded deal each time), then
  ``g.play(rng.choice(g.legal_moves()))`` with a seeded ``random.Random`` until
  ``g.to_move is None``, then ``g.scores``. The same loop with ``batak.Game(rules)`` (the default
  cryptographically secure shuffle) is reported separately as ``<preset> (secure shuffle)``.
* **legal_moves() µs** in the play phase, on states sampled between the 5th card and the last
  few cards of a deal: the *first* call on a state never asked before (every timed call gets
  its own ``g.copy()`` of the state, so the engine's per-state cache is cold) and the
  *repeated* call on the same state (cache warm), like OpenSpiel's ``legal_actions_us``.
* **peer**: ``peer_openspiel.spades_deals_per_second`` for the same wall time per round.

Noise control on a shared machine: ``--rounds`` rounds, each running every measurement once;
the peer runs right next to ``standard`` and the order flips every round (peer first, then
last). Figures are the median over rounds, with min and max; the ratio is median/median.

Progress goes to stderr, a table to stdout, and everything to ``--json`` (default
``benchmarks/results/engine_speed.json``, git-ignored). Exits 0 without OpenSpiel (no ratio).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import batak

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # so ``python benchmarks/engine_speed.py`` finds the peer module
    sys.path.insert(0, str(HERE))

import peer_openspiel  # noqa: E402

DEFAULT_JSON = HERE / "results" / "engine_speed.json"
SECURE = " (secure shuffle)"
PEER = "OpenSpiel spades"
REFERENCE_PRESET = "standard"


# ---------------------------------------------------------------------- progress (stderr)
class Progress:
    """A dependency-free text progress bar on stderr (plain lines when not a terminal)."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.width = width
        self.start = time.perf_counter()
        self.tty = sys.stderr.isatty()

    def show(self, label: str, *, final: bool = False) -> None:
        if not (self.tty or final):
            return  # in a log file, one line per finished step is enough
        frac = min(self.done / self.total, 1.0)
        fill = round(frac * self.width)
        bar = "#" * fill + "-" * (self.width - fill)
        elapsed = time.perf_counter() - self.start
        line = f"[{bar}] {self.done:3d}/{self.total} {elapsed:6.1f}s  {label}"
        if self.tty:
            sys.stderr.write("\r\x1b[2K" + line[:120])
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def step(self, label: str) -> None:
        self.done += 1
        self.show(label, final=True)

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()


# ---------------------------------------------------------------------- batak measurements
def batak_deals_per_second(
    rules: batak.Rules, seconds: float, seed: int, *, secure: bool = False
) -> dict[str, Any]:
    """Play random full deals for about ``seconds``; one public call per action."""
    rng = random.Random(seed)
    deal_seed = seed * 1_000_003  # a distinct seed for every deal, reproducible per round

    def one_deal() -> tuple[int, bool, int]:
        nonlocal deal_seed
        if secure:
            g = batak.Game(rules)
        else:
            deal_seed += 1
            g = batak.Game(rules, seed=deal_seed)
        legal = g.legal_moves
        play = g.play
        choice = rng.choice
        n = 0
        while g.to_move is not None:
            play(choice(legal()))
            n += 1
        scores = g.scores
        return n, g.redeal, scores[0] if scores else 0

    one_deal()  # warm-up
    deals = moves = redeals = checksum = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        n, redeal, s0 = one_deal()
        deals += 1
        moves += n
        redeals += redeal
        checksum += s0
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "deals": deals,
        "seconds": elapsed,
        "per_second": deals / elapsed,
        "moves_per_deal": moves / deals,
        "moves_per_second": moves / elapsed,
        "redeals": redeals,
        "mean_score_seat0": checksum / deals,
    }


def _play_phase_states(rules: batak.Rules, rng: random.Random, n_states: int) -> list[batak.Game]:
    """Random deals stopped in the play phase, after 4 .. (all but 5) cards have been played."""
    total_cards = rules.players * rules.hand_size
    states: list[batak.Game] = []
    while len(states) < n_states:
        g = batak.Game(rules, seed=rng.getrandbits(64))
        stop_after = rng.randrange(4, total_cards - 4)
        played = 0
        while g.to_move is not None:
            if g.phase is batak.Phase.PLAY:
                if played == stop_after:
                    states.append(g)
                    break
                played += 1
            g.play(rng.choice(g.legal_moves()))
    return states


def legal_moves_us(
    rules: batak.Rules, seed: int, n_states: int = 100, copies: int = 100, reps: int = 1000
) -> dict[str, float]:
    """Mean µs of ``legal_moves()`` on play-phase states: first call (cold) and repeated (warm)."""
    states = _play_phase_states(rules, random.Random(seed), n_states)
    cold = 0.0
    warm = 0.0
    for s in states:
        # Sanity: a sampled state really is mid play and nobody asked it for its moves yet.
        assert s.phase is batak.Phase.PLAY and getattr(s, "_legal_mask", -1) == -1
        calls: list[Callable[[], list[batak.Move]]] = [s.copy().legal_moves for _ in range(copies)]
        t0 = time.perf_counter()
        for call in calls:
            call()
        cold += time.perf_counter() - t0
        legal = calls[0]  # now cached
        t0 = time.perf_counter()
        for _ in range(reps):
            legal()
        warm += time.perf_counter() - t0
    return {
        "first_call_us": cold / (n_states * copies) * 1e6,
        "cached_call_us": warm / (n_states * reps) * 1e6,
    }


def new_game_us(rules: batak.Rules, n: int = 3000) -> dict[str, float]:
    """Mean µs of constructing a game: ``Game(rules, seed=k)`` and ``Game(rules)``."""
    t0 = time.perf_counter()
    for k in range(n):
        batak.Game(rules, seed=k)
    seeded = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(n):
        batak.Game(rules)
    secure = time.perf_counter() - t0
    return {"seeded_us": seeded / n * 1e6, "secure_us": secure / n * 1e6}


# ---------------------------------------------------------------------- helpers
def _summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def _machine() -> dict[str, Any]:
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "cpu_count": os.cpu_count(),
    }
    if hasattr(os, "sched_getaffinity"):
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    if hasattr(os, "getloadavg"):
        info["loadavg_at_start"] = list(os.getloadavg())
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return info


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=HERE,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


def _versions(peer_ok: bool) -> dict[str, Any]:
    v: dict[str, Any] = {"batak": batak.__version__, "batak_git": _git_commit()}
    if peer_ok:
        v["open_spiel"] = peer_openspiel._openspiel_version()
    else:
        v["open_spiel"] = None
    return v


def _fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "-"
    return f"{x:,.{digits}f}"


# ---------------------------------------------------------------------- main
def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="wall time per measurement")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    p.add_argument(
        "--presets",
        default=None,
        help="comma-separated preset names (default: all of batak.Rules.preset_names())",
    )
    p.add_argument("--seed", type=int, default=0, help="base seed (round r uses seed + r)")
    p.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the JSON")
    args = p.parse_args(argv)
    names = batak.Rules.preset_names()
    if args.presets:
        wanted = [x.strip() for x in args.presets.split(",") if x.strip()]
        unknown = [x for x in wanted if x not in names]
        if unknown:
            p.error(f"unknown preset(s) {', '.join(unknown)}; choose from: {', '.join(names)}")
        args.preset_list = wanted
    else:
        args.preset_list = names
    if args.rounds < 1 or args.seconds <= 0:
        p.error("--rounds must be >= 1 and --seconds > 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    presets: list[str] = args.preset_list
    rules = {name: batak.Rules.preset(name) for name in presets}
    # The secure-shuffle variant and the peer sit next to this preset in every round.
    ref = REFERENCE_PRESET if REFERENCE_PRESET in presets else presets[0]
    machine = _machine()  # before the run: the load average then is other work only
    peer_ok = peer_openspiel.pyspiel is not None
    if not peer_ok:
        print(
            "note: OpenSpiel is not installed, so there is no peer to compare with; "
            "run `pip install open-spiel` for the batak/OpenSpiel ratio. "
            "Reporting batak's own figures only.",
            file=sys.stderr,
        )

    # One round: [peer, ref, ref secure, others..., legal_moves per preset], reversed every
    # other round so the peer alternates between going first and going last.
    round_plan: list[tuple[str, str]] = []
    if peer_ok:
        round_plan.append(("peer", PEER))
    round_plan.append(("deals", ref))
    round_plan.append(("secure", ref))
    round_plan += [("deals", name) for name in presets if name != ref]
    round_plan += [("legal", name) for name in presets]

    per_second: dict[str, list[float]] = {}
    runs: dict[str, list[dict[str, Any]]] = {}
    legal_cold: dict[str, list[float]] = {name: [] for name in presets}
    legal_warm: dict[str, list[float]] = {name: [] for name in presets}
    peer_legal: list[float] = []

    progress = Progress(total=args.rounds * len(round_plan) + 1)
    progress.show("starting")
    for r in range(args.rounds):
        seed = args.seed + r
        plan = round_plan if r % 2 == 0 else list(reversed(round_plan))
        for kind, name in plan:
            label = f"round {r + 1}/{args.rounds}: "
            if kind == "peer":
                progress.show(label + f"{PEER} ({args.seconds:g}s)")
                res = peer_openspiel.spades_deals_per_second(args.seconds, seed=seed)
                key = PEER
                peer_legal.append(res["legal_actions_us"])
            elif kind == "legal":
                progress.show(label + f"legal_moves() on {name}")
                lm = legal_moves_us(rules[name], seed=seed)
                legal_cold[name].append(lm["first_call_us"])
                legal_warm[name].append(lm["cached_call_us"])
                progress.step(label + f"legal_moves() on {name}")
                continue
            else:
                key = name + (SECURE if kind == "secure" else "")
                progress.show(label + f"batak {key} ({args.seconds:g}s)")
                res = batak_deals_per_second(
                    rules[name], args.seconds, seed, secure=(kind == "secure")
                )
            per_second.setdefault(key, []).append(res["per_second"])
            runs.setdefault(key, []).append(res)
            progress.step(label + f"{key}: {res['per_second']:,.0f} deals/s")
    progress.show("construction cost of Game(...)")
    construct = new_game_us(rules[ref])
    progress.step("done")
    progress.close()

    # ------------------------------------------------------------------ figures
    peer_med = statistics.median(per_second[PEER]) if peer_ok else None
    rows: list[dict[str, Any]] = []
    order = [ref, ref + SECURE] + [n for n in presets if n != ref]
    for key in order:
        vals = per_second[key]
        preset = key.removesuffix(SECURE)
        row: dict[str, Any] = {
            "preset": preset,
            "variant": (
                "secure shuffle: Game(rules)" if key.endswith(SECURE) else "Game(rules, seed=k)"
            ),
            "deals_per_second": _summary(vals),
            "per_round": vals,
            "moves_per_deal": statistics.mean(x["moves_per_deal"] for x in runs[key]),
            "moves_per_second_median": statistics.median(x["moves_per_second"] for x in runs[key]),
            "redeals": sum(x["redeals"] for x in runs[key]),
            "deals": sum(x["deals"] for x in runs[key]),
        }
        if not key.endswith(SECURE):
            row["legal_moves_first_call_us"] = _summary(legal_cold[preset])
            row["legal_moves_cached_call_us"] = _summary(legal_warm[preset])
        if peer_med is not None:
            row["ratio_vs_openspiel"] = statistics.median(vals) / peer_med
        rows.append(row)

    peer: dict[str, Any] | None = None
    if peer_ok:
        pvals = per_second[PEER]
        last = runs[PEER][-1]
        peer = {
            "name": last["peer"],
            "deals_per_second": _summary(pvals),
            "per_round": pvals,
            "actions_per_deal": last["actions_per_deal"],
            "player_actions_per_deal": last["player_actions_per_deal"],
            "legal_actions_us": _summary(peer_legal),
            "game_params": last["game_params"],
            "game_over_deals": sum(x["game_over_deals"] for x in runs[PEER]),
            "deals": sum(x["deals"] for x in runs[PEER]),
        }

    headline: dict[str, Any] = {"preset": ref}
    ref_row = rows[0]
    headline["batak_deals_per_second_median"] = ref_row["deals_per_second"]["median"]
    headline["batak_secure_deals_per_second_median"] = rows[1]["deals_per_second"]["median"]
    headline["batak_legal_moves_first_call_us"] = ref_row["legal_moves_first_call_us"]["median"]
    headline["batak_legal_moves_cached_call_us"] = ref_row["legal_moves_cached_call_us"]["median"]
    if peer is not None:
        paired = [b / p for b, p in zip(per_second[ref], per_second[PEER], strict=True)]
        headline["openspiel_deals_per_second_median"] = peer["deals_per_second"]["median"]
        headline["openspiel_legal_actions_us"] = peer["legal_actions_us"]["median"]
        headline["ratio_of_medians"] = ref_row["ratio_vs_openspiel"]
        headline["paired_round_ratios"] = _summary(paired)
        headline["legal_first_call_ratio_openspiel_over_batak"] = (
            peer["legal_actions_us"]["median"] / ref_row["legal_moves_first_call_us"]["median"]
        )

    result = {
        "benchmark": "batak engine_speed",
        "timestamp": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "machine": machine,
        "versions": _versions(peer_ok),
        "settings": {
            "seconds": args.seconds,
            "rounds": args.rounds,
            "seed": args.seed,
            "presets": presets,
            "reference_preset": ref,
            "order": "peer next to the reference preset; plan reversed every other round",
        },
        "headline": headline,
        "batak": rows,
        "game_construction_us": {"preset": ref, **construct},
        "openspiel": peer,
        "peer_missing": None if peer_ok else "pip install open-spiel",
    }

    if hasattr(os, "getloadavg"):
        result["machine"]["loadavg_at_end"] = list(os.getloadavg())
    print_report(result)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"\nJSON written to {args.json}")
    return 0


def print_report(res: dict[str, Any]) -> None:
    m = res["machine"]
    s = res["settings"]
    print(
        f"batak {res['versions']['batak']} ({res['versions']['batak_git']}) | "
        f"Python {m['python']} | {m['platform']} | {m['cpu_count']} CPUs"
    )
    print(f"{s['rounds']} rounds x {s['seconds']:g}s each; median [min..max] over rounds")
    load = [m.get("loadavg_at_start"), m.get("loadavg_at_end")]
    if all(load):
        busy = max(load[0][0], load[1][0] - 1.0)  # at the end, minus this benchmark itself
        note = " (other work was running: figures are noisy)" if busy > 0.5 else ""
        print(f"1-min load average: {load[0][0]:.2f} at start, {load[1][0]:.2f} at end{note}")
    peer = res["openspiel"]
    header = (
        f"{'engine / preset':<38} {'deals/s':>8} {'[min..max]':>17} {'moves':>6} "
        f"{'lm 1st µs':>9} {'lm rep µs':>9} {'vs OS':>6}"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in res["batak"]:
        d = row["deals_per_second"]
        name = "batak " + row["preset"] + (SECURE if row["variant"].startswith("secure") else "")
        first = row.get("legal_moves_first_call_us", {}).get("median")
        rep = row.get("legal_moves_cached_call_us", {}).get("median")
        ratio = row.get("ratio_vs_openspiel")
        print(
            f"{name:<38} {_fmt(d['median']):>8} "
            f"{'[' + _fmt(d['min']) + '..' + _fmt(d['max']) + ']':>17} "
            f"{row['moves_per_deal']:>6.1f} {_fmt(first, 2):>9} {_fmt(rep, 2):>9} "
            f"{(f'{ratio:.2f}x' if ratio is not None else '-'):>6}"
        )
    if peer is not None:
        d = peer["deals_per_second"]
        print(
            f"{peer['name']:<38} {_fmt(d['median']):>8} "
            f"{'[' + _fmt(d['min']) + '..' + _fmt(d['max']) + ']':>17} "
            f"{peer['actions_per_deal']:>6.1f} {_fmt(peer['legal_actions_us']['median'], 2):>9} "
            f"{'':>9} {'1.00x':>6}"
        )
    print()
    h = res["headline"]
    c = res["game_construction_us"]
    print(
        f"Game({h['preset']!r}) construction: seeded {c['seeded_us']:.1f} µs, "
        f"secure shuffle {c['secure_us']:.1f} µs"
    )
    if peer is not None:
        pr = h["paired_round_ratios"]
        print(
            f"{h['preset']}: batak {h['batak_deals_per_second_median']:,.0f} deals/s vs "
            f"OpenSpiel {h['openspiel_deals_per_second_median']:,.0f} deals/s -> "
            f"ratio of medians {h['ratio_of_medians']:.2f}x "
            f"(per-round pairs {pr['min']:.2f}x..{pr['max']:.2f}x)"
        )
        print(
            f"legal_moves(): batak first call {h['batak_legal_moves_first_call_us']:.2f} µs, "
            f"cached {h['batak_legal_moves_cached_call_us']:.2f} µs; "
            f"OpenSpiel legal_actions() {h['openspiel_legal_actions_us']:.2f} µs"
        )
        print(
            "moves = batak public play() calls per deal; for OpenSpiel, apply_action calls "
            f"({peer['player_actions_per_deal']:.0f} player + "
            f"{peer['actions_per_deal'] - peer['player_actions_per_deal']:.0f} chance)"
        )
    else:
        print("OpenSpiel not installed (`pip install open-spiel`): no peer figures, no ratio.")


if __name__ == "__main__":
    sys.exit(main())
