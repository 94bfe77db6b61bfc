"""Measure what the others' choices of card say about their hands: the factors of
``batak.bots.knowledge.PLAY_FACTORS``.

Plays seeded deals with the given players. At every decision in the card play, from the view of
the seat to move, it takes each clue of :func:`batak.bots.knowledge.play_clues` (a card someone
chose, and hidden cards it makes less likely in that hand) and compares, over the cards the clue
names, how often the hand really holds them with how often the rules alone say it may
(:meth:`Knowledge.probabilities`); at a table with partners also the card a partner's first
discard promised (:mod:`batak.bots.signals`), against the strength the hard player reads it
with. The ratio is the factor: 1 means the choice says nothing, 0.5
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
from batak.bots.hard import HardPlayer
from batak.bots.knowledge import (
    PLAY_FACTORS,
    Knowledge,
    auction_bias,
    play_bias,
    play_clues,
    product,
    sample_world,
)
from batak.bots.signals import promised_card
from batak.bots.simple import Table, bits, parse_view
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
    # (part in the auction, trump?, rank group) -> the same
    auction: dict[tuple[str, bool, int], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
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
                part = auction_parts(t)
                for s, hand in truth.items():
                    for y in bits(k.possible[s] & k.unknown):
                        key = (part[s], y // 13 == t.eval_trump, rank_group(y))
                        _count(auction[key], hand >> y & 1, probs[s].get(y, 0.0))
                for s, kind, relation, cards in clues:
                    if s in truth:
                        for y in bits(cards & k.possible[s]):
                            _count(acc[(kind, relation)], truth[s] >> y & 1, probs[s].get(y, 0.0))
                promise = promised_card(t)
                if promise is not None and promise[0] in truth:
                    s, y = promise
                    _count(acc[SIGNAL_CLUE], truth[s] >> y & 1, probs[s].get(y, 0.0))
                if args.check and truth and 4 <= t.hand_sizes[seat] <= 10:
                    _check(k, t, truth, placed, d, args.worlds)
            g.play(players[seat].choose(view))
        if (d + 1) % 20 == 0 or d + 1 == args.deals:
            print(f"\r{d + 1}/{args.deals} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.preset}, {args.deals} deals of {args.bots}:")
    head = ("choice", "relation", "cards", "held", "rules", "factor", "used")
    print("{:12} {:15} {:>8} {:>6} {:>6} {:>7} {:>6}".format(*head))
    for (kind, relation), row in sorted(acc.items()):
        used: float | None = PLAY_FACTORS.get((kind, relation))
        if (kind, relation) == SIGNAL_CLUE:
            used = HardPlayer.signal_strength
        print(_row(kind, relation, row), f"{used if used is not None else '':>6}")
    print("\nthe auction (every hidden card, by the seat's part in the auction):")
    rows = {
        (role, f"{'trump' if trump else 'side'} {GROUP_NAMES[group]}"): row
        for (role, trump, group), row in auction.items()
    }
    for (role, holding), row in sorted(rows.items()):
        print(_row(role, holding, row))
    if args.check:
        for name, (right, total) in placed.items():
            print(f"hidden cards placed right, {name}: {right / max(total, 1):.3f}")
    return 0


#: The partner's first discard (eşli) and the card it promised (:mod:`batak.bots.signals`)
SIGNAL_CLUE = ("signal", "promised card")


#: The rank groups of :func:`rank_group`, by number.
GROUP_NAMES = ("low", "JT9", "AKQ")


def rank_group(card: int) -> int:
    """2 for an ace, king or queen, 1 for a jack, ten or nine, 0 for a lower card."""
    rank = card % 13
    return 2 if rank >= 10 else 1 if rank >= 7 else 0


def auction_parts(t: Table) -> list[str]:
    """Each seat's part in the auction: ``bidder``, ``bid`` (bid and was outbid) or ``passed``."""
    bidders = {s for s, m in t.auction if m.startswith("bid")}
    return ["bidder" if s == t.bidder else "bid" if s in bidders else "passed" for s in range(t.n)]


def _count(row: list[float], held: int, expected: float) -> None:
    row[0] += held
    row[1] += expected
    row[2] += 1


def _row(first: str, second: str, row: list[float]) -> str:
    held, expected, count = row
    return (
        f"{first:12} {second:15} {int(count):8d} {held / count:6.3f} {expected / count:6.3f}"
        f" {held / max(expected, 1e-9):7.2f}"
    )


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
