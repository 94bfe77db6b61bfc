"""Does a learned hand evaluator bid better than the hand-written one? (issue 14's experiment)

The medium player bids from :func:`batak.bots.simple.estimate_tricks`: a linear model of fifteen
hand-valuation terms (aces, kings with length, long koz, ...) whose weights were fitted on
self-play. This script asks whether a small neural network that sees every card does better:

1. ``gen``: self-play data. Seeded deals of a preset; in each one seat is given the contract at
   the lowest bid (the others pass) and played once with each trump, all four seats played by the
   medium player. Each play-out is one example: the bidder's hand, the trump, and the tricks its
   side took (what ``estimate_tricks`` predicts).
2. ``fit``: fits, on the same training examples, (a) the fifteen terms by least squares (the
   hand-written model refitted) and (b) a network with one hidden layer (numpy, Adam, early
   stopping on a validation share) on the cards themselves (koz first, the side suits by length)
   plus the fifteen terms, and reports the root-mean-square error of each, and of the weights
   shipped in the package, on held-out deals. It writes the network's weights (JSON).
3. The arena: ``LearnedMedium`` is the medium player with the network's estimate (and its own
   error as the spread of the tricks) in the auction and the trump choice; everything else is
   medium's::

       pip install numpy
       python benchmarks/learned_eval.py gen --preset standard --deals 8000 --out solo.npz
       python benchmarks/learned_eval.py fit solo.npz --out solo.json
       LEARNED_WEIGHTS=solo.json PYTHONPATH=benchmarks \\
           batak arena --bots learned_eval:LearnedMedium,medium --preset standard --deals 750

The network is kept only if the arena says it is stronger (benchmarks/README.md has the result).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import sys
import time
import zlib
from collections.abc import Iterator, Mapping
from typing import Any

import batak
from batak.bots import simple
from batak.bots.medium import Decision, MediumPlayer, Params
from batak.bots.simple import (
    SIGMA,
    SUIT_LETTERS,
    SUIT_MASKS,
    WEIGHTS,
    hand_features,
    rules_of,
    table_kind,
)
from batak.rules import Rules

# ---------------------------------------------------------------------- self-play


def play_out(preset: str, seed: str, bidder: int, trump: int) -> int:
    """The tricks the bidder's side takes when ``bidder`` holds the contract at the lowest bid
    with ``trump``, every seat played by the medium player."""
    game = batak.Game(preset, seed=seed, dealer=bidder)
    players = [
        MediumPlayer(seed=zlib.crc32(f"{seed}:{s}".encode())) for s in range(game.rules.players)
    ]
    while game.phase.value != "over":
        seat = game.to_move
        assert seat is not None
        legal = [str(m) for m in game.legal_moves()]
        if game.phase.value == "bidding":
            bids = [m for m in legal if m.startswith("bid ")]
            move = bids[0] if seat == bidder and bids else "pass"
            if move not in legal:  # a seat that may not pass: the lowest bid
                move = bids[0]
        elif game.phase.value == "trump" and seat == bidder:
            move = f"trump {SUIT_LETTERS[trump]}"
        else:
            move = players[seat].choose(game.view(seat))
        game.play(move)
    contract = game.contract
    assert contract is not None and contract.bidder == bidder, "the forced auction failed"
    return sum(game.tricks_won[s] for s in game.rules.team_of(bidder))


def _gen_deal(job: tuple[str, str, int]) -> list[tuple[int, int, int]]:
    preset, seed, bidder = job
    hand = batak.Game(preset, seed=seed, dealer=bidder).initial_hands[bidder]
    mask = 0
    for card in hand:
        mask |= 1 << card.index
    return [(mask, t, play_out(preset, seed, bidder, t)) for t in range(4)]


def generate(preset: str, deals: int, seed: str, jobs: int) -> list[tuple[int, int, int]]:
    work = [(preset, f"{seed}:{d}", d % 4) for d in range(deals)]
    rows: list[tuple[int, int, int]] = []
    start = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        for i, part in enumerate(pool.imap(_gen_deal, work, chunksize=8), 1):
            rows.extend(part)
            if i % 50 == 0 or i == deals:
                done = i / deals
                bar = "#" * int(30 * done)
                left = (time.perf_counter() - start) / done * (1 - done)
                print(
                    f"\r[{bar:<30}] {i}/{deals} deals, about {left:.0f} s left",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
    print(file=sys.stderr)
    return rows


# ---------------------------------------------------------------------- the network's inputs


def encode(hand: int, trump: int) -> list[float]:
    """The network's inputs: the koz suit's thirteen cards, the side suits' (longest first, ties
    by their high cards), the four lengths over 13, then the fifteen terms of ``hand_features``."""
    suits = [(hand & SUIT_MASKS[s]) >> (13 * s) for s in range(4)]
    side = sorted(
        (s for s in range(4) if s != trump), key=lambda s: (-suits[s].bit_count(), -suits[s])
    )
    x: list[float] = []
    for s in [trump, *side]:
        p = suits[s]
        x.extend(float(p >> r & 1) for r in range(13))
    x.extend(suits[s].bit_count() / 13 for s in [trump, *side])
    x.extend(hand_features(hand, trump)[1:])  # without the constant: the network has biases
    return x


class Network:
    """One hidden layer of rectified units with a linear path from the inputs beside it."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        import numpy as np

        self.mean = np.asarray(data["mean"])
        self.scale = np.asarray(data["scale"])
        self.w1 = np.asarray(data["w1"])
        self.b1 = np.asarray(data["b1"])
        self.w2 = np.asarray(data["w2"])
        self.skip = np.asarray(data["skip"])
        self.b2 = float(data["b2"])
        self.rmse = float(data["rmse"])
        self.kind = str(data["kind"])

    def predict(self, hand: int, trump: int) -> float:
        import numpy as np

        x = (np.asarray(encode(hand, trump)) - self.mean) / self.scale
        h = np.maximum(0.0, x @ self.w1 + self.b1)
        return float(h @ self.w2 + x @ self.skip + self.b2)


def fit_network(
    x: Any, y: Any, xv: Any, yv: Any, hidden: int, seed: int, epochs: int
) -> tuple[dict[str, Any], float]:
    """Adam on the squared error, the epoch with the lowest validation error kept."""
    import numpy as np

    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    xs, xvs = (x - mean) / scale, (xv - mean) / scale
    d = x.shape[1]
    params = {
        "w1": rng.normal(0, math.sqrt(2 / d), (d, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, math.sqrt(1 / hidden), hidden),
        "skip": np.zeros(d),
        "b2": np.array(float(y.mean())),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    lr, b1, b2, eps, decay = 1e-3, 0.9, 0.999, 1e-8, 1e-4
    best, best_params, step, since = math.inf, dict(params), 0, 0
    for _epoch in range(epochs):
        order = rng.permutation(len(xs))
        for i in range(0, len(xs), 128):
            idx = order[i : i + 128]
            xb, yb = xs[idx], y[idx]
            z = xb @ params["w1"] + params["b1"]
            h = np.maximum(0.0, z)
            out = h @ params["w2"] + xb @ params["skip"] + params["b2"]
            g = 2 * (out - yb) / len(idx)
            gh = np.outer(g, params["w2"]) * (z > 0)
            grads = {
                "w1": xb.T @ gh + decay * params["w1"],
                "b1": gh.sum(axis=0),
                "w2": h.T @ g + decay * params["w2"],
                "skip": xb.T @ g,
                "b2": np.array(g.sum()),
            }
            step += 1
            for k in params:
                m[k] = b1 * m[k] + (1 - b1) * grads[k]
                v[k] = b2 * v[k] + (1 - b2) * grads[k] ** 2
                mh = m[k] / (1 - b1**step)
                vh = v[k] / (1 - b2**step)
                params[k] = params[k] - lr * mh / (np.sqrt(vh) + eps)
        hv = np.maximum(0.0, xvs @ params["w1"] + params["b1"])
        pred = hv @ params["w2"] + xvs @ params["skip"] + params["b2"]
        err = float(np.sqrt(np.mean((pred - yv) ** 2)))
        if err < best - 1e-4:
            best, best_params, since = err, {k: p.copy() for k, p in params.items()}, 0
        else:
            since += 1
            if since >= 15:
                break
    out = {k: p.tolist() for k, p in best_params.items()}
    out["b2"] = float(best_params["b2"])
    out["mean"] = mean.tolist()
    out["scale"] = scale.tolist()
    return out, best


def fit(path: str, out_path: str, hidden: int, seed: int, epochs: int) -> None:
    import numpy as np

    data = np.load(path)
    hands, trumps, tricks = data["hands"], data["trumps"], data["tricks"].astype(float)
    preset = str(data["preset"])
    rules = Rules.preset(preset)
    kind = table_kind(rules)
    n = len(hands)
    # held out by deal (four consecutive rows): the last fifth tests, the fifth before it
    # validates (early stopping); the linear refit uses training and validation rows
    deals = n // 4
    test0, val0 = deals * 4 // 5 * 4, deals * 3 // 5 * 4
    feats = np.array([hand_features(int(h), int(t)) for h, t in zip(hands, trumps, strict=True)])
    x = np.array([encode(int(h), int(t)) for h, t in zip(hands, trumps, strict=True)])

    def rmse(pred: Any, y: Any) -> float:
        return float(np.sqrt(np.mean((np.clip(pred, 0, rules.hand_size) - y) ** 2)))

    y_test = tricks[test0:]
    shipped = feats[test0:] @ np.array(WEIGHTS[kind])
    coef, *_ = np.linalg.lstsq(feats[:test0], tricks[:test0], rcond=None)
    refit = feats[test0:] @ coef
    net, val_err = fit_network(
        x[:val0], tricks[:val0], x[val0:test0], tricks[val0:test0], hidden, seed, epochs
    )
    net.update(kind=kind, preset=preset, rmse=val_err, hidden=hidden, examples=val0)
    model = Network(net)
    learned = np.array(
        [model.predict(int(h), int(t)) for h, t in zip(hands[test0:], trumps[test0:], strict=True)]
    )
    print(f"{preset} ({kind}): {n} play-outs, {deals} deals; test on the last {n - test0}")
    constant = np.full(len(y_test), tricks[:test0].mean())
    print(f"  constant (the mean)      RMSE {rmse(constant, y_test):.3f}")
    print(f"  shipped linear weights   RMSE {rmse(shipped, y_test):.3f} (SIGMA says {SIGMA[kind]})")
    print(f"  linear refit (15 terms)  RMSE {rmse(refit, y_test):.3f}")
    err = rmse(learned, y_test)
    print(f"  network ({hidden} hidden)      RMSE {err:.3f} (validation {val_err:.3f})")
    # the bidding decision rides on the best trump's estimate: how far is that one off (each
    # test deal's four rows, one per trump, are consecutive)
    best = learned.reshape(-1, 4).argmax(axis=1)
    br = test0 + 4 * np.arange(len(best)) + best
    learned_best = learned[br - test0]
    print(
        f"  the network's best trump: it predicts {learned_best.mean():.2f} tricks, the side took"
        f" {tricks[br].mean():.2f} (RMSE {rmse(learned_best, tricks[br]):.3f})"
    )
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(net, f)
    print(f"weights written to {out_path}")


# ---------------------------------------------------------------------- the player


_NETWORKS: dict[str, Network] = {}


def _network() -> Network:
    path = os.environ.get("LEARNED_WEIGHTS", "")
    if not path:
        raise SystemExit("LEARNED_WEIGHTS must name the weights file written by 'fit'")
    if path not in _NETWORKS:
        with open(path, encoding="utf-8") as f:
            _NETWORKS[path] = Network(json.load(f))
    return _NETWORKS[path]


@contextlib.contextmanager
def _learned_estimates(net: Network) -> Iterator[None]:
    """Medium's auction and trump choice with the network's estimates (this process only):
    ``simple.evaluate_hand`` and ``simple.best_trump``, which medium calls there, read their
    estimates from ``simple.estimate_tricks``."""

    def estimate(hand: int, trump: int, rules: Rules) -> float:
        return max(0.0, min(float(rules.hand_size), net.predict(hand, trump)))

    saved = simple.estimate_tricks
    simple.estimate_tricks = estimate
    try:
        yield
    finally:
        simple.estimate_tricks = saved


class LearnedMedium(MediumPlayer):
    """The medium player bidding and naming koz by the network's estimate, with the network's own
    error as the spread of the tricks; its card play is medium's."""

    name = "medium-learned"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        net = _network()
        super().__init__(seed=seed, params=Params(bid_sigma=net.rmse / SIGMA[net.kind]))
        self.net = net

    def decide(self, view: Mapping[str, Any]) -> Decision:
        if (
            view.get("phase") in ("bidding", "trump")
            and table_kind(rules_of(view)) == self.net.kind
        ):
            with _learned_estimates(self.net):
                return super().decide(view)
        return super().decide(view)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="play the self-play examples")
    g.add_argument("--preset", default="standard")
    g.add_argument("--deals", type=int, default=8000)
    g.add_argument("--seed", default="learn")
    g.add_argument("--jobs", type=int, default=1)
    g.add_argument("--out", required=True, help="examples file (.npz)")
    f = sub.add_parser("fit", help="fit the network and compare it with the linear model")
    f.add_argument("examples")
    f.add_argument("--out", required=True, help="weights file (.json)")
    f.add_argument("--hidden", type=int, default=32)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--epochs", type=int, default=300)
    args = ap.parse_args()
    import numpy as np

    if args.cmd == "gen":
        rows = generate(args.preset, args.deals, args.seed, args.jobs)
        np.savez(
            args.out,
            hands=np.array([r[0] for r in rows], dtype=np.int64),
            trumps=np.array([r[1] for r in rows]),
            tricks=np.array([r[2] for r in rows]),
            preset=args.preset,
        )
        print(f"{len(rows)} play-outs written to {args.out}")
    else:
        fit(args.examples, args.out, args.hidden, args.seed, args.epochs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
