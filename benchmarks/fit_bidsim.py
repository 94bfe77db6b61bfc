"""Calibrate the hard player's simulated bidding (batak.bots.bidsim) against real play.

Plays seeded deals with the arena's seating (hard, medium, hard, medium; hard's own bidding) and,
when the card play starts, asks the simulation of every seat for its side's expected tricks with
the contract and trump as they are (the pool of worlds that seat would use, weighted by the
auction). At the end of the deal it compares them with the tricks the side really took, per role
(the bidder's side, the defenders), and prints the mean error: the ``bias_declare`` and
``bias_defend`` of :class:`batak.bots.bidsim.SimParams`.

    python benchmarks/fit_bidsim.py --preset standard --deals 150
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import batak
from batak.bots import get
from batak.bots.bidsim import BidSim
from batak.bots.hard import HardPlayer
from batak.bots.knowledge import Weight
from batak.bots.simple import Table, parse_view
from fit_inference import auction_parts, rank_group


class SimBidMedium(HardPlayer):
    """Bids, buries and names trumps by simulation, plays every card as the medium player: for
    measuring the bidding alone in the arena (``PYTHONPATH=benchmarks batak arena --bots
    fit_bidsim:SimBidMedium,medium``)."""

    name = "sim-bids-medium-play"

    def __init__(self, *, seed: int | None = None, **options: object) -> None:
        super().__init__(seed=seed, max_cards=0)


class HardWide(HardPlayer):
    """The hard player searching from 10 cards a hand (at most 12 worlds there, and no new world
    after 1.5 million solver nodes in the decision): ``PYTHONPATH=benchmarks batak arena --bots
    fit_bidsim:HardWide,medium``. Since it won in the arena this is the hard player's default
    without partners (``batak.bots.hard.WIDE_CARDS``); the class pins it, with partners too, for
    runs that compare."""

    name = "hard-wide"

    def __init__(self, *, seed: int | None = None, **options: object) -> None:
        super().__init__(seed=seed, wide_cards=10)


class Hard11(HardPlayer):
    """The hard player searching from 11 cards a hand (at most 8 worlds above 9 cards, no new
    world after 3 million nodes): ``PYTHONPATH=benchmarks batak arena --bots
    fit_bidsim:Hard11,medium``. It gained nothing over 10 cards in ``standard`` (benchmarks/
    README.md, "Searching from 11 cards") and won with partners, where it is now the default
    (``batak.bots.hard.PARTNER_WIDE``, "From 11 cards at a table with partners")."""

    name = "hard-11"

    def __init__(self, *, seed: int | None = None, **options: object) -> None:
        super().__init__(seed=seed, wide_cards=11, wide_worlds=8, node_budget=3_000_000)


class HardMore(HardPlayer):
    """The hard player with 48 worlds up to 9 cards (24 until 2026-12-02, now the default too)
    and 24 at 10 (twice the default 12; no new world after 3 million nodes)."""

    name = "hard-more"

    def __init__(self, *, seed: int | None = None, **options: object) -> None:
        super().__init__(seed=seed, worlds=48, wide_worlds=24, node_budget=3_000_000)


class HardInfer2(HardPlayer):
    """The hard player reading the others' choices twice as hard (each factor squared)."""

    name = "hard-infer2"

    def __init__(self, *, seed: int | None = None, **options: object) -> None:
        super().__init__(seed=seed, inference=2.0)


#: How likely each hidden card is in a hand, by the seat's part in the auction (``bidder``, ``bid``:
#: bid and was outbid, ``passed``) and the card (trump or side suit; A K Q, J 10 9 or lower),
#: against what the rules alone allow: measured with ``benchmarks/fit_inference.py`` over deals of
#: medium players in ``standard``, ``sultan-ihaleli`` and ``sultan-esli`` (200 each) and pooled.
#: The bidder holds the trumps and fewer side cards; a seat that was outbid holds few of the
#: bidder's trumps and more side honours; a seat that passed, few trump honours.
AUCTION_FACTORS: dict[tuple[str, bool, int], float] = {
    # (part, trump?, rank group: 2 = A K Q, 1 = J 10 9, 0 = lower)
    ("bidder", True, 2): 1.67,
    ("bidder", True, 1): 1.40,
    ("bidder", True, 0): 1.34,
    ("bidder", False, 2): 0.76,
    ("bidder", False, 1): 0.73,
    ("bidder", False, 0): 0.76,
    ("bid", True, 2): 0.59,
    ("bid", True, 1): 0.62,
    ("bid", True, 0): 0.67,
    ("bid", False, 2): 1.17,
    ("bid", False, 1): 1.06,
    ("bid", False, 0): 1.12,
    ("passed", True, 2): 0.70,
    ("passed", True, 1): 0.87,
    ("passed", True, 0): 0.91,
    ("passed", False, 2): 1.04,
    ("passed", False, 1): 1.08,
    ("passed", False, 0): 1.06,
}


def auction_odds(t: Table, power: float = 4.0) -> Weight:
    """A ``weight`` for :func:`sample_world` from the auction, by :data:`AUCTION_FACTORS` raised
    to ``power``: the factors are how much more or less often a hand holds such a card, and a
    sampler's weights are odds, which must be stronger to move the hands as far (drawn with the
    factors to the fourth power, the hidden cards land in the right hands about 2 points more
    often than with :func:`batak.bots.knowledge.auction_bias`). Not kept: in the arena it played
    no better (benchmarks/README.md, "Reading the play")."""
    trump = t.eval_trump
    n = t.n
    table = {key: float(f**power) for key, f in AUCTION_FACTORS.items()}
    part = auction_parts(t)

    def weight(holder: int, card: int) -> float:
        if holder >= n:
            return 1.0
        return table[(part[holder], card // 13 == trump, rank_group(card))]

    return weight


class HardAuction(HardPlayer):
    """The hard player drawing its worlds by the measured auction table (:func:`auction_odds`,
    factors to the fourth power) instead of :func:`batak.bots.knowledge.auction_bias`."""

    name = "hard-auction"

    def _auction_weight(self, t: Table) -> Weight:
        return auction_odds(t)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", default="fit")
    ap.add_argument("--worlds", type=int, default=40)
    args = ap.parse_args()
    errors: dict[str, list[float]] = {"declare": [], "defend": []}
    makes: list[tuple[float, bool]] = []  # the bidder's simulated chance to make, and if it did
    start = time.perf_counter()
    for d in range(args.deals):
        game = batak.Game(args.preset, seed=f"{args.seed}:{d}", dealer=d % 4)
        n = game.rules.players
        players = [
            HardPlayer(seed=d * 10 + s) if s % 2 == 0 else get("medium", seed=d * 10 + s)
            for s in range(n)
        ]
        predicted: dict[int, tuple[str, float, float, int]] = {}
        while game.phase.value != "over":
            if game.phase.value == "play" and not predicted and game.contract is not None:
                bidder = game.contract.bidder
                trump = game.trump
                assert trump is not None
                for s in range(n):
                    t = parse_view(json.loads(json.dumps(game.view(s))))
                    sim = BidSim(t, f"fit:{d}:{s}", worlds=args.worlds)
                    ws = sim.weights(t)
                    xs = [sim.tricks(i, bidder, trump.ordinal) for i in range(len(ws))]
                    mean = sum(w * x for w, x in zip(ws, xs, strict=True))
                    make = sum(w for w, x in zip(ws, xs, strict=True) if x >= game.contract.bid)
                    role = "declare" if s in game.rules.team_of(bidder) else "defend"
                    predicted[s] = (role, mean, make, game.contract.bid)
            seat = game.to_move
            assert seat is not None
            game.play(players[seat].choose(game.view(seat)))
        contract = game.contract
        for s, (role, mean, make, bid) in predicted.items():
            actual = sum(game.tricks_won[x] for x in game.rules.team_of(s))
            errors[role].append(actual - mean)
            if contract is not None and s == contract.bidder:
                makes.append((make, actual >= bid))
        if (d + 1) % 25 == 0:
            print(f"{d + 1} deals, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    for role, errs in errors.items():
        if errs:
            m = statistics.fmean(errs)
            se = statistics.stdev(errs) / len(errs) ** 0.5 if len(errs) > 1 else 0.0
            print(
                f"{args.preset} {role}: actual - simulated = {m:+.2f} ± {1.96 * se:.2f} "
                f"(n={len(errs)}, sd {statistics.stdev(errs):.2f})"
            )
    if makes:
        makes.sort()
        k = max(1, len(makes) // 4)
        for i in range(0, len(makes), k):
            part = makes[i : i + k]
            p = statistics.fmean(x for x, _ in part)
            real = statistics.fmean(1.0 if y else 0.0 for _, y in part)
            print(f"  simulated P(make) {p:.2f}: made {real:.2f} (n={len(part)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
