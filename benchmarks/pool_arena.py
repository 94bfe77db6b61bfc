"""Pool head-to-head arena runs played on different boards (other seeds), board by board.

Each ``batak arena --bots A,B`` result gives per board the difference ``A - B`` (A's mean score
per deal-seat minus B's, :func:`compare_arena.board_diffs`); this prints each run's mean with its
95% interval and then the mean over all their boards pooled. The runs must pit the same two
players against each other in the same preset, with the same seeding of the players
(``--common-seeds`` or not), on boards no other run played:

    python benchmarks/pool_arena.py h2h_2026.json h2h_2027.json

Under each run it also counts the boards whose seatings differ at all, and the contracts made
in one seating and not in the other (a swing of the size of a contract, which decides most
head-to-head runs of close variants), for each player.

To compare two players each against a common opponent on the same boards, use
``compare_arena.py`` instead.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from batak.arena import mean_ci
from compare_arena import SAME_BOARDS, board_diffs

#: what must be the same in every pooled run
SAME_MATCH = ("bots", "preset", "rules", "common_seeds")


def contract_swings(result: dict[str, Any]) -> tuple[int, int, int]:
    """The boards whose contract was made in one seating and not in the other: how many went to
    the first player (its side declared where the contract was made), how many to the second,
    and how many had another auction in the other seating (another bidder or bid)."""
    pair = result["pairs"][0]
    first, second = pair["a"], pair["b"]
    swings = {first: 0, second: 0}
    other_auction = 0
    for board in result["boards"]:
        rots = [
            r for r in board["rotations"] if r.get("bidder") is not None and not r.get("redeal")
        ]
        if len(rots) != 2 or rots[0]["made"] == rots[1]["made"]:
            continue
        if (rots[0]["bidder"], rots[0]["bid"]) != (rots[1]["bidder"], rots[1]["bid"]):
            other_auction += 1
            continue
        made = rots[0] if rots[0]["made"] else rots[1]
        label = made["seats"][made["bidder"]]
        if label in swings:
            swings[label] += 1
    return swings[first], swings[second], other_auction


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
    totals = [0, 0, 0, 0]  # boards that differ, swings for a, for b, other auctions
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
        counts = (sum(1 for d in diffs if d), *contract_swings(result))
        totals = [t + c for t, c in zip(totals, counts, strict=True)]
        print(_swings_line(pair, counts))
    if len(runs) > 1:
        m, lo, hi = mean_ci(pooled)
        print(
            f"all {len(runs)} runs: {m:+.2f} per deal, 95% CI [{lo:+.2f}, {hi:+.2f}] "
            f"over {len(pooled)} boards"
        )
        print(_swings_line(runs[0]["pairs"][0], totals))
    return 0


def _swings_line(pair: dict[str, Any], counts: Sequence[int]) -> str:
    differ, for_a, for_b, other = counts
    line = (
        f"  {differ} boards differ; contracts made in one seating only: "
        f"{for_a} for {pair['a']}, {for_b} for {pair['b']}"
    )
    if other:
        line += f" ({other} more after another auction)"
    return line


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
