"""Compare two arena runs of the same boards, board by board.

Two ``batak arena`` results with the same preset, seed and number of boards, each pitting a
player against the same opponent (for example ``hard,medium`` before and after a change), give
per board the difference ``A - B`` (A's mean score per deal-seat minus B's); this prints the mean
of (second run's difference − first run's) with its 95% interval over boards. Pairing the boards
removes the luck of the cards that both runs share.

    python benchmarks/compare_arena.py results/old.json results/new.json

Several pairs (``old1 new1 old2 new2 ...``, each pair on its own boards, e.g. another seed) print
each pair's line and then the mean over all their boards pooled, with its interval (a pooled mean
means something only over presets whose scores are of a size; no boards may come twice):

    python benchmarks/compare_arena.py old_2026.json new_2026.json old_2027.json new_2027.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

from batak.arena import mean_ci

#: what makes two runs' boards the same
SAME_BOARDS = ("preset", "rules", "seed", "deals")


def board_diffs(result: dict[str, Any]) -> dict[int, float]:
    """Per board: the first player's mean score per deal-seat minus the second's."""
    pair = result["pairs"][0]
    first, second = pair["a"], pair["b"]
    out: dict[int, float] = {}
    for board in result["boards"]:
        sums = {first: 0.0, second: 0.0}
        counts = {first: 0, second: 0}
        for rot in board["rotations"]:
            for seat, label in enumerate(rot["seats"]):
                if label in sums:
                    sums[label] += rot["scores"][seat]
                    counts[label] += 1
        if counts[first] and counts[second]:
            out[int(board["board"])] = sums[first] / counts[first] - sums[second] / counts[second]
    return out


def load_pair(paths: list[str]) -> list[dict[str, Any]]:
    """The two arena results at ``paths``, read; exits with a message unless they were played on
    the same boards (preset, rules, seed and number of boards)."""
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    if any(runs[0]["config"][k] != runs[1]["config"][k] for k in SAME_BOARDS):
        raise SystemExit("the two runs were not played on the same boards (preset, rules, seed)")
    return runs


def paired_diffs(paths: list[str]) -> tuple[list[dict[str, Any]], list[float], list[float]]:
    """The two runs at ``paths`` and their per-board differences (:func:`board_diffs`) on the
    boards both played, in the same order."""
    runs = load_pair(paths)
    d0, d1 = (board_diffs(r) for r in runs)
    common = sorted(set(d0) & set(d1))
    return runs, [d0[b] for b in common], [d1[b] for b in common]


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    pooled: list[float] = []
    boards_seen: set[str] = set()
    for i in range(0, len(argv), 2):
        runs, first, second = paired_diffs(argv[i : i + 2])
        boards = json.dumps([runs[0]["config"][k] for k in SAME_BOARDS], sort_keys=True)
        if boards in boards_seen:
            raise SystemExit(f"{argv[i]}: these boards are already in an earlier pair")
        boards_seen.add(boards)
        deltas = [b - a for a, b in zip(first, second, strict=True)]
        pooled += deltas
        m, lo, hi = mean_ci(deltas)
        if len(argv) > 2:
            print(f"seed {runs[0]['config']['seed']}, {runs[0]['config']['preset']}:")
        print(f"first run:  {runs[0]['pairs'][0]['a']} - {runs[0]['pairs'][0]['b']}")
        print(f"second run: {runs[1]['pairs'][0]['a']} - {runs[1]['pairs'][0]['b']}")
        print(f"second - first: {m:+.2f} per deal, 95% CI [{lo:+.2f}, {hi:+.2f}]", end=" ")
        print(f"over {len(deltas)} boards")
    if len(argv) > 2:
        m, lo, hi = mean_ci(pooled)
        print(
            f"all {len(argv) // 2} pairs: second - first: {m:+.2f} per deal, "
            f"95% CI [{lo:+.2f}, {hi:+.2f}] over {len(pooled)} boards"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
