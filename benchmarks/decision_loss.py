"""Two players' card decisions on the same positions, judged double dummy: a quick, paired screen
for a change to a bot, before the arena.

    python benchmarks/decision_loss.py hard batak.bots.hard:HardPlayerNarrowDeclarer \\
        --preset standard --deals 300 --seed 1 --role declarer --jobs 2

Positions: seeded deals of ``--preset`` in which the medium player bids and plays every seat, so
both players meet exactly the same positions (neither one's cards steer the deal). At each card
decision with more than one legal card of a seat in ``--role`` (``declarer``: the contract's
side; ``defender``: the others; ``all``), both players choose a card from that seat's view (what
it may see, nothing more). Where they choose differently, the solver values both cards on the
true hands: the tricks the mover's side takes in the whole deal after the card, with best play
from everyone afterwards (:func:`batak.bots.solver.card_values`), and that plus the contract's
bonus as the hard player counts it (twice the bid for making the contract, or for defeating
it). Both players get the same seed at a seat (common random numbers): a variant that draws its
worlds as the player it varies draws the same worlds, so the two differ only where the change
does, not by the luck of their draws. With ``--absolute`` every decision is valued, so each
player's own loss against the best card is printed too (slower: 12- and 13-card positions take
the solver up to a second or more).

Printed: the decisions and how many differ; per deal, the second player's value minus the
first's (tricks, and tricks with the bonus), mean and 95% interval over deals (Student's t),
overall and by cards in hand; each player's decision time (p50, p95). Per-deal figures go to
``--json`` for pooling runs.

Only tables with a contract are judged (not Koz Maça, where every player bids for itself: its deals
give no decisions). Read it as a screen, not a verdict: "double dummy" values a card as if everyone
saw every hand from then on, and the positions come from the medium player's deals (its auction, its
play), not from the player's own. A change that shows here is then measured in the arena (``batak
arena``, :mod:`compare_arena`), which plays whole matches. Paired on the same decisions, most
differences are zero, so a few hundred deals separate changes the arena needs thousands of boards
for. """

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from batak.arena import check_spec, mean_ci, percentile
from batak.arena.runner import _derived_seed as seed_of
from batak.arena.runner import _make_player as make_player
from batak.bots.medium import MediumPlayer
from batak.bots.solver import card_values
from batak.game import Game, Phase
from batak.view import view_of

ROLES = ("declarer", "defender", "all")


def worth(game: Game, side: frozenset[int], side_tricks: int) -> float:
    """``side_tricks`` (the side's tricks in the whole deal) plus the contract's bonus, as the
    hard player counts it: twice the bid for making the contract or for defeating it."""
    contract = game.contract
    if contract is None:
        return float(side_tricks)
    bid = contract.bid
    if contract.bidder in side:
        return side_tricks + (2.0 * bid if side_tricks >= bid else 0.0)
    made = game.tricks_per_deal - side_tricks >= bid
    return side_tricks + (0.0 if made else 2.0 * bid)


def deal_in_play(preset: str, seed: int) -> tuple[Game, list[MediumPlayer]]:
    """Deal ``seed`` of ``preset`` after the medium players' auction (at its first card, or
    over if it was passed out), and those players."""
    players = Game(preset, seed=seed).players
    game = Game(preset, seed=seed, dealer=seed % players)
    medium = [MediumPlayer(seed=seed_of("medium", seed, s)) for s in range(players)]
    while game.phase not in (Phase.PLAY, Phase.OVER):
        seat = game.to_move
        assert seat is not None
        game.play(medium[seat].choose(view_of(game, seat)))
    return game, medium


def timed_choice(player: Any, view: Any) -> tuple[str, float]:
    t = time.perf_counter()
    move = player.choose(view)
    return move, time.perf_counter() - t


def one_deal(job: tuple[str, str, str, int, str, bool]) -> dict[str, Any]:
    """Play deal ``seed`` with the medium player everywhere; at each decision of the role, ask
    both players. Returns the deal's figures."""
    spec_a, spec_b, preset, seed, role, absolute = job
    game, medium = deal_in_play(preset, seed)
    n = game.players
    out: dict[str, Any] = {"seed": seed, "decisions": []}
    if game.phase is Phase.OVER:
        return out
    contract = game.contract
    declarers = frozenset(game.team_of(contract.bidder)) if contract is not None else frozenset()
    players: dict[int, tuple[Any, Any]] = {}
    while game.phase is Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        view = view_of(game, seat)
        ours = seat in declarers
        if (
            len(game.legal_moves()) > 1
            and contract is not None
            and (role == "all" or (role == "declarer") == ours)
        ):
            if seat not in players:
                # the arena's own players and seeds: a bot name, module:Class, all-seeing
                same = seed_of("player", seed, seat)
                players[seat] = (
                    make_player(spec_a, game, same, None),
                    make_player(spec_b, game, same, None),
                )
            pa, pb = players[seat]
            # who goes first alternates, so that neither pays the other's warm-up in its times
            if len(out["decisions"]) % 2 == 0:
                move_a, ta = timed_choice(pa, view)
                move_b, tb = timed_choice(pb, view)
            else:
                move_b, tb = timed_choice(pb, view)
                move_a, ta = timed_choice(pa, view)
            d: dict[str, Any] = {
                "cards": game.hand_sizes[seat],
                "a": move_a,
                "b": move_b,
                "ta": ta,
                "tb": tb,
            }
            if move_a != move_b or absolute:
                side = declarers if ours else frozenset(range(n)) - declarers
                values = {str(c): v for c, v in card_values(game, side).items()}
                best = max(values.values())
                best_worth = max(worth(game, side, v) for v in values.values())
                d["tricks"] = [values[move_a], values[move_b], best]
                d["worth"] = [
                    worth(game, side, values[move_a]),
                    worth(game, side, values[move_b]),
                    best_worth,
                ]
            out["decisions"].append(d)
        game.play(medium[seat].choose(view))
    return out


def summarize(deals: list[dict[str, Any]], absolute: bool) -> list[str]:
    decisions = [d for deal in deals for d in deal["decisions"]]
    differ = [d for d in decisions if d["a"] != d["b"]]
    lines = [
        f"deals {len(deals)}, decisions {len(decisions)}, "
        f"chosen differently {len(differ)} ({100 * len(differ) / max(1, len(decisions)):.1f}%)"
    ]

    def per_deal(key: str, cards: int | None = None) -> list[float]:
        return [
            sum(
                d[key][1] - d[key][0]
                for d in deal["decisions"]
                if key in d and (cards is None or d["cards"] == cards)
            )
            for deal in deals
        ]

    for key, label in (("tricks", "tricks"), ("worth", "tricks + contract bonus")):
        m, lo, hi = mean_ci(per_deal(key))
        lines.append(f"B - A a deal, {label}: {m:+.4f} [{lo:+.4f}, {hi:+.4f}]")
    lines.append("by cards in hand (B - A a deal, tricks + bonus; decisions, differing):")
    for cards in sorted({d["cards"] for d in decisions}, reverse=True):
        at = [d for d in decisions if d["cards"] == cards]
        n_diff = sum(1 for d in at if d["a"] != d["b"])
        m, lo, hi = mean_ci(per_deal("worth", cards))
        lines.append(f"  {cards:2d} cards: {m:+.4f} [{lo:+.4f}, {hi:+.4f}]  {len(at)}, {n_diff}")
    if absolute:
        for i, who in ((0, "A"), (1, "B")):
            loss = [
                sum(d["worth"][2] - d["worth"][i] for d in deal["decisions"] if "worth" in d)
                for deal in deals
            ]
            tricks = [
                sum(d["tricks"][2] - d["tricks"][i] for d in deal["decisions"] if "tricks" in d)
                for deal in deals
            ]
            lines.append(
                f"{who}'s loss against the best card a deal: {statistics.fmean(tricks):.3f} "
                f"tricks, {statistics.fmean(loss):.3f} with the bonus"
            )
    for key, who in (("ta", "A"), ("tb", "B")):
        times = [d[key] for d in decisions]
        if times:
            lines.append(
                f"{who}'s time a decision: p50 {1000 * percentile(times, 50):.1f} ms, "
                f"p95 {1000 * percentile(times, 95):.1f} ms"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="first player: a bot name (hard), module:Class, or all-seeing")
    ap.add_argument("b", help="second player, the same way")
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed")
    ap.add_argument("--role", choices=ROLES, default="declarer")
    ap.add_argument("--absolute", action="store_true", help="value every decision")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write every deal's figures here")
    args = ap.parse_args(argv)
    for spec in (args.a, args.b):
        check_spec(spec)  # a bad name fails now, not in a worker
    jobs = [
        (args.a, args.b, args.preset, seed, args.role, args.absolute)
        for seed in range(args.seed, args.seed + args.deals)
    ]
    deals: list[dict[str, Any]] = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for i, deal in enumerate(pool.imap_unordered(one_deal, jobs), 1):
            deals.append(deal)
            done = int(30 * i / len(jobs))
            print(
                f"\r[{'#' * done}{'.' * (30 - done)}] {i}/{len(jobs)} deals, "
                f"{time.perf_counter() - start:.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    deals.sort(key=lambda d: d["seed"])
    print(f"A = {args.a}, B = {args.b}; {args.preset}, role {args.role}, seeds {args.seed}+")
    for line in summarize(deals, args.absolute):
        print(line)
    if args.json:
        meta = {k: v for k, v in vars(args).items() if k != "json"}
        args.json.write_text(json.dumps({"args": meta, "deals": deals}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
