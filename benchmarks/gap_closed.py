"""How much of the gap to a ceiling a player closes, from two arena runs on the same boards.

Both runs pit a player against the same reference on the same boards (same preset, seed and
number of boards): the first the player under test (``hard,medium``), the second the ceiling
(``all-seeing-sim,medium``). Per board, each run gives the first player's mean score per
deal-seat minus medium's (:func:`compare_arena.paired_diffs`); the share of the gap closed is
mean(player's difference) / mean(ceiling's difference). Its 95% interval comes from a bootstrap
over boards (the boards are resampled together, so the pairing is kept), seeded, 2,000 draws.

    python benchmarks/gap_closed.py results/h_standard.json results/c_standard.json
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from batak.arena import mean_ci
from compare_arena import paired_diffs


def bootstrap_ratio(
    num: Sequence[float], den: Sequence[float], draws: int = 2000, seed: int = 1
) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of mean(num) / mean(den) over boards drawn with
    replacement (the same boards for both)."""
    rng = random.Random(seed)
    n = len(num)
    ratios = []
    for _ in range(draws):
        idx = [rng.randrange(n) for _ in range(n)]
        d = sum(den[i] for i in idx)
        if d:
            ratios.append(sum(num[i] for i in idx) / d)
    ratios.sort()
    if not ratios:
        return float("nan"), float("nan")
    return ratios[int(0.025 * (len(ratios) - 1))], ratios[int(0.975 * (len(ratios) - 1))]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs, p, c = paired_diffs(argv)
    for label, run, values in (("player", runs[0], p), ("ceiling", runs[1], c)):
        pair = run["pairs"][0]
        m, lo, hi = mean_ci(values)
        print(
            f"{label}: {pair['a']} - {pair['b']}: {m:+.2f} per deal, 95% CI [{lo:+.2f}, {hi:+.2f}]"
        )
    share = sum(p) / sum(c) if sum(c) else float("nan")
    lo, hi = bootstrap_ratio(p, c)
    print(f"gap closed: {share:.0%} (95% CI {lo:.0%} to {hi:.0%}) over {len(p)} boards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
