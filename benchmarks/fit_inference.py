"""Measure what the others' choices of card say about their hands: the factors of
``batak.bots.knowledge.PLAY_FACTORS``.

Plays seeded deals with the given players. At every decision in the card play, from the view of
the seat to move, it takes each clue of :func:`batak.bots.knowledge.play_clues` (a card someone
chose, and hidden cards it makes less likely in that hand) and compares, over the cards the clue
names, how often the hand really holds them with how often the rules alone say it may
(:meth:`Knowledge.probabilities`). The ratio is the factor: 1 means the choice says nothing, 0.5
that such a card is half as likely there as the rules alone suggest. Each clue is counted at
every later decision, as the players use it. It also reports how often sampled worlds put the
hidden cards where they are, with and without the clues (``--check``).

    python benchmarks/fit_inference.py --preset standard --deals 300
    python benchmarks/fit_inference.py --preset standard --deals 40 --check
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

import batak.bots
from batak.bots.knowledge import (
    PLAY_FACTORS,
    Knowledge,
    auction_bias,
    play_bias,
    play_clues,
    product,
    sample_world,
)
from batak.bots.simple import bits, parse_view
from batak.game import Game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--bots", default="medium", help="the player in every seat (default medium)")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--check", action="store_true", help="also sample worlds (slower)")
    ap.add_argument("--worlds", type=int, default=40)
    args = ap.parse_args()

    # (choice, relation) -> [cards held, cards the rules expected there, cards counted]
    acc: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    auction: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    placed = {"rules and auction": [0.0, 0.0], "with the clues": [0.0, 0.0]}
    for d in range(args.deals):
        g = Game(args.preset, seed=args.seed + d)
        players = [batak.bots.get(args.bots, seed=args.seed + d * 10 + i) for i in range(g.players)]
        while g.phase != "over":
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            if g.phase == "play":
                t = parse_view(view)
                k = Knowledge.from_view(t)
                clues = play_clues(t)
                truth = {s: parse_view(g.view(s)).hand for s in k.hidden if s < t.n}
                probs = k.probabilities()
                bidders = {s for s, m in t.auction if m.startswith("bid")}
                for s, hand in truth.items():
                    role = "bidder" if s == t.bidder else "bid" if s in bidders else "passed"
                    for y in bits(k.possible[s] & k.unknown):
                        suit = "trump" if y // 13 == t.eval_trump else "side"
                        rank = "AKQ" if y % 13 >= 10 else "JT9" if y % 13 >= 7 else "low"
                        a = auction[(role, f"{suit} {rank}")]
                        a[0] += hand >> y & 1
                        a[1] += probs[s].get(y, 0.0)
                        a[2] += 1
                if clues:
                    for s, kind, relation, cards in clues:
                        if s not in truth:
                            continue
                        a = acc[(kind, relation)]
                        for y in bits(cards & k.possible[s]):
                            a[0] += truth[s] >> y & 1
                            a[1] += probs[s].get(y, 0.0)
                            a[2] += 1
                if args.check and truth and 4 <= t.hand_sizes[seat] <= 10:
                    _check(k, t, truth, placed, d, args.worlds)
            g.play(players[seat].choose(view))
        if (d + 1) % 20 == 0 or d + 1 == args.deals:
            print(f"\r{d + 1}/{args.deals} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.preset}, {args.deals} deals of {args.bots}:")
    head = ("choice", "relation", "cards", "held", "rules", "factor", "used")
    print("{:12} {:15} {:>8} {:>6} {:>6} {:>7} {:>6}".format(*head))
    for key in sorted(acc):
        held, expected, count = acc[key]
        used = PLAY_FACTORS.get(key)
        print(
            f"{key[0]:12} {key[1]:15} {int(count):8d} {held / count:6.3f} {expected / count:6.3f}"
            f" {held / max(expected, 1e-9):7.2f} {used if used is not None else '':>6}"
        )
    print("\nthe auction (every hidden card, by the seat's part in the auction):")
    for key in sorted(auction):
        held, expected, count = auction[key]
        print(
            f"{key[0]:12} {key[1]:15} {int(count):8d} {held / count:6.3f} {expected / count:6.3f}"
            f" {held / max(expected, 1e-9):7.2f}"
        )
    if args.check:
        for name, (right, total) in placed.items():
            print(f"hidden cards placed right, {name}: {right / max(total, 1):.3f}")
    return 0


def _check(k, t, truth, placed, d, worlds) -> None:  # type: ignore[no-untyped-def]
    by_auction = auction_bias(t)
    by_play = play_bias(t)
    for name, weight in (
        ("rules and auction", by_auction),
        ("with the clues", product(by_auction, by_play)),
    ):
        rng = random.Random(d * 1000 + t.hand_sizes[t.seat])
        right = 0
        for _ in range(worlds):
            world = sample_world(k, rng, weight=weight)
            right += sum((world[s] & hand & k.unknown).bit_count() for s, hand in truth.items())
        placed[name][0] += right / worlds
        placed[name][1] += sum((hand & k.unknown).bit_count() for hand in truth.values())


if __name__ == "__main__":
    raise SystemExit(main())
