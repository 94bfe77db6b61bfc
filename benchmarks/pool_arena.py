"""Pool head-to-head arena runs played on different boards (other seeds), board by board.

Each ``batak arena --bots A,B`` result gives per board the difference ``A - B`` (A's mean score
per deal-seat minus B's, :func:`compare_arena.board_diffs`); this prints each run's mean with its
95% interval and then the mean over all their boards pooled. The runs must pit the same two
players against each other in the same preset, with the same seeding of the players
(``--common-seeds`` or not), on boards no other run played:

    python benchmarks/pool_arena.py h2h_2026.json h2h_2027.json

To compare two players each against a common opponent on the same boards, use
``compare_arena.py`` instead.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from batak.arena import mean_ci
from compare_arena import SAME_BOARDS, board_diffs

#: what must be the same in every pooled run
SAME_MATCH = ("bots", "preset", "rules", "common_seeds")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    runs: list[dict[str, Any]] = []
    for path in argv:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    first = runs[0]["config"]
    seen: set[str] = set()
    pooled: list[float] = []
    for path, result in zip(argv, runs, strict=True):
        config = result["config"]
        for key in SAME_MATCH:
            if config.get(key) != first.get(key):
                raise SystemExit(f"{path}: {key} differs from {argv[0]}'s")
        boards = json.dumps([config[k] for k in SAME_BOARDS], sort_keys=True)
        if boards in seen:
            raise SystemExit(f"{path}: these boards are already in an earlier run")
        seen.add(boards)
        diffs = list(board_diffs(result).values())
        pooled += diffs
        pair = result["pairs"][0]
        m, lo, hi = mean_ci(diffs)
        print(
            f"seed {config['seed']}: {pair['a']} - {pair['b']}: {m:+.2f} per deal, "
            f"95% CI [{lo:+.2f}, {hi:+.2f}] over {len(diffs)} boards"
        )
    if len(runs) > 1:
        m, lo, hi = mean_ci(pooled)
        print(
            f"all {len(runs)} runs: {m:+.2f} per deal, 95% CI [{lo:+.2f}, {hi:+.2f}] "
            f"over {len(pooled)} boards"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
