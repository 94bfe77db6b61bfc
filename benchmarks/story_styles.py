"""How the story characters' bidding styles differ: the same level (easy or medium) with each
style at every seat in turn, over seeded deals; per style: contracts taken, average bid, made.

    python benchmarks/story_styles.py 400 easy medium
"""

from __future__ import annotations

import sys
from collections import defaultdict

from batak import Game
from batak.bots.story import StyledPlayer
from batak.game import Phase


def run(level: str, deals: int) -> None:
    stats = defaultdict(lambda: [0, 0, 0, 0])  # deals seen, contracts, bid sum, made
    styles = ["bold", "careful", "steady", "steady"]
    for d in range(deals):
        rot = d % 4
        seat_style = [styles[(s + rot) % 4] for s in range(4)]
        players = [StyledPlayer(level, seat_style[s], seed=d * 4 + s) for s in range(4)]
        g = Game("standard", seed=d, dealer=d % 4)
        while g.phase is not Phase.OVER:
            s = g.to_move
            g.play(players[s].choose(g.view(s)), s)
        for s in range(4):
            stats[seat_style[s]][0] += 1
        c = g.contract
        if c is not None:
            st = stats[seat_style[c.bidder]]
            st[1] += 1
            st[2] += c.bid
            st[3] += g.tricks_won[c.bidder] >= c.bid
    for style in ("bold", "careful", "steady"):
        n, k, b, m = stats[style]
        print(
            f"{level:6} {style:8} seats {n:5}  contracts {k / n:6.1%}"
            f"  avg bid {b / max(k, 1):4.2f}  made {m / max(k, 1):6.1%}"
        )


if __name__ == "__main__":
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for level in sys.argv[2:] or ["easy", "medium"]:
        run(level, deals)
