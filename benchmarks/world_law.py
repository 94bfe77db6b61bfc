"""How far the hard player's card-by-card dealing is from the law its weights describe.

    python benchmarks/world_law.py --preset standard --deals 30 --draws 200

:func:`batak.bots.knowledge.sample_world` deals the hidden cards one at a time, each to a hand
in proportion to its free places times the card's weight there; the weights describe another
law, each consistent deal as likely as the product of its cards' weights
(:func:`batak.bots.knowledge.draw_worlds` draws from that one). At each card decision (with more
than one legal card and at most ``--max-cards`` in hand) of seeded deals played by the medium
player at every seat, this draws ``--draws`` deals the first way with the hard player's weights
(the auction's and the play's) and prints the effective share of them under the second law:
Kish's effective sample size over their importance weights, divided by the draws (1: the two
laws agree; near 0: a few deals carry it all), mean and least by cards in hand.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

from batak.bots.knowledge import Knowledge, _deal, auction_bias, play_bias, product
from batak.bots.simple import parse_view
from batak.game import Phase
from batak.view import view_of
from decision_loss import deal_in_play


def effective_share(log_ratios: list[float]) -> float:
    """Kish's effective sample size of the weights exp(log_ratios), over their number."""
    top = max(log_ratios)
    w = [math.exp(r - top) for r in log_ratios]
    return sum(w) ** 2 / sum(x * x for x in w) / len(w)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed")
    ap.add_argument("--draws", type=int, default=200)
    ap.add_argument("--max-cards", type=int, default=10)
    args = ap.parse_args(argv)
    shares: dict[int, list[float]] = {}
    for i, seed in enumerate(range(args.seed, args.seed + args.deals), 1):
        game, medium = deal_in_play(args.preset, seed)
        while game.phase is Phase.PLAY:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            t = parse_view(view)
            cards = t.hand_sizes[seat]
            if len(game.legal_moves()) > 1 and cards <= args.max_cards:
                k = Knowledge.from_view(t)
                weight = product(auction_bias(t), play_bias(t))
                rng = random.Random(seed * 100 + cards)
                ratios = [_deal(k, rng, weight, ratio=True)[1] for _ in range(args.draws)]
                shares.setdefault(cards, []).append(effective_share(ratios))
            game.play(medium[seat].choose(view))
        done = int(30 * i / args.deals)
        print(
            f"\r[{'#' * done}{'.' * (30 - done)}] {i}/{args.deals} deals", end="", file=sys.stderr
        )
    print(file=sys.stderr)
    print(f"{args.preset}, seeds {args.seed}+, {args.draws} draws a decision")
    print("cards  decisions  effective share: mean  least")
    for cards in sorted(shares, reverse=True):
        got = shares[cards]
        print(f"{cards:5}  {len(got):9}  {statistics.mean(got):21.3f}  {min(got):5.3f}")
    every = [x for got in shares.values() for x in got]
    if every:
        print(f"  all  {len(every):9}  {statistics.mean(every):21.3f}  {min(every):5.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
