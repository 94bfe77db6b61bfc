"""Where the gap between a player and a ceiling lies: as declarer or as defender.

Takes the same two arena runs as ``gap_closed.py`` (the player against medium, then the ceiling
against medium, on the same boards) and splits the difference between them by the role each seat
had in each deal: the bidder, a defender against the tested player's contract, or a defender
against medium's contract. Both the tested seats' own scores and the medium seats' are split,
because the arena's measure is the difference between the two (a ceiling that declares better
also leaves the medium defenders fewer tricks). The contracts must be the same in both runs (the
ceiling bids as the hard player does); the script says how many deal-seats differ.

    python benchmarks/gap_roles.py results/h_standard.json results/c_standard.json

Each figure is a share of the gap per deal, in the arena's points: the rows add up to the
ceiling's lead over the player in "player − medium".
"""

from __future__ import annotations

import sys
from collections import defaultdict
from typing import Any

from compare_arena import load_pair

Key = tuple[int, int, int]  # board, rotation, seat


def roles(run: dict[str, Any]) -> dict[Key, tuple[str, bool, int]]:
    """Per deal-seat: its role, whether the tested player sits there, and its score."""
    tested = run["config"]["labels"][0]
    out: dict[Key, tuple[str, bool, int]] = {}
    for board in run["boards"]:
        for rot in board["rotations"]:
            seats = rot["seats"]
            bidder = rot.get("bidder")
            for s, who in enumerate(seats):
                if bidder is None:
                    role = "no contract"
                elif bidder == s:
                    role = "bidder"
                elif seats[bidder] == tested:
                    role = "defending the tested player's contract"
                else:
                    role = "defending medium's contract"
                out[(board["board"], rot["rotation"], s)] = (role, who == tested, rot["scores"][s])
    return out


def split(player_run: dict[str, Any], ceiling_run: dict[str, Any]) -> tuple[dict[str, float], int]:
    """The ceiling's lead in "player − medium", a deal, split by role and side; and how many
    deal-seats had another role in the ceiling's run."""
    a, b = roles(player_run), roles(ceiling_run)
    tested_seats = sum(1 for _, t, _ in a.values() if t)
    other_seats = len(a) - tested_seats
    parts: dict[str, float] = defaultdict(float)
    differ = 0
    for key, (role, tested, score) in a.items():
        role_c, _, score_c = b[key]
        differ += role_c != role
        side = "tested seat" if tested else "medium seat"
        # the measure is mean(tested) − mean(medium): a medium seat's gain counts against
        weight = 1 / tested_seats if tested else -1 / other_seats
        parts[f"{side}, {role}"] += (score_c - score) * weight
    return dict(parts), differ


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    player_run, ceiling_run = load_pair(argv)  # refuses runs on other boards
    parts, differ = split(player_run, ceiling_run)
    total = sum(parts.values())
    print(f"the ceiling's lead in 'player − medium': {total:+.2f} a deal")
    for name, value in sorted(parts.items(), key=lambda kv: -abs(kv[1])):
        share = f"  ({value / total:.0%})" if total else ""
        print(f"  {name:55s} {value:+.2f}{share}")
    if differ:
        print(f"({differ} deal-seats had another role in the ceiling's run)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
