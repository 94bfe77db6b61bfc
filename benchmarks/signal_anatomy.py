"""Where the partners' signal gains and where it costs, double dummy, decision by decision.

Plays seeded deals of an eşli preset with a medium player in every seat that uses the convention
(the first discard names the suit it wants led: :mod:`batak.bots.signals`). At every card where
the convention may matter it also asks the same player without the convention (same seed, same
view) what it would play. Where the two differ, the solver values both cards for the mover's
side (the deal's tricks with best play afterwards, every hand in view), and the difference is
put down to the convention:

* **send**: a first discard was due (no card of the suit led), and the convention chose a low
  card of the suit it wants led;
* **read**: a lead while the card the partner's first discard promised is still out, split by
  whether the partner really holds it, and by the reader's side and whether an opponent may
  still hold a trump.

It also counts, for every first discard, what the partner could tell before it (the chance,
from the rules and the cards played alone, :meth:`Knowledge.probabilities`, that the discarder
holds the card its discard promises), and for every lead of the suit asked for how often the
discarder's side won that trick, and with the promised card.

Double dummy values every later card as if every hand were in view, so it shows what a choice
gives up or gains as a choice, not what the information is worth to the partner later. A few
seconds per 200 deals::

    python benchmarks/signal_anatomy.py --preset sultan-esli --deals 2000 --seed 6000
    python benchmarks/signal_anatomy.py --params signal_read_free=0   # the reading before
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace

from batak.arena import mean_ci
from batak.bots.knowledge import Knowledge
from batak.bots.medium import Params, decide
from batak.bots.signals import Signal, is_first_discard, live_signal, partner_signal
from batak.bots.simple import Table, decision_rng, parse_view
from batak.bots.solver import card_values
from batak.cards import SUIT_MASKS, Card, mask_of
from batak.game import Game

WITHOUT = Params(signals=False)
KINDS = ("send", "read: held", "read: not held")


@dataclass
class Tally:
    """Differences in double-dummy tricks (the convention's card minus the other card)."""

    values: list[int] = field(default_factory=list)

    def summary(self) -> str:
        """``a trick a change MEAN [LOW, HIGH], in all SUM (G gained, L lost, E even)``."""
        n = len(self.values)
        if not n:
            return "no change"
        mean, low, high = mean_ci(self.values)
        gained = sum(v > 0 for v in self.values)
        lost = sum(v < 0 for v in self.values)
        return (
            f"a trick a change {mean:+.3f} [{low:+.3f}, {high:+.3f}],"
            f" in all {sum(self.values):+d} ({gained} gained, {lost} lost,"
            f" {n - gained - lost} even)"
        )


@dataclass
class Anatomy:
    """What :func:`run` counted."""

    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    diffs: dict[str, Tally] = field(default_factory=lambda: {k: Tally() for k in KINDS})
    #: (read kind, the reader's side and the trumps) -> the read changes there
    split: dict[tuple[str, str], Tally] = field(default_factory=dict)
    #: first discards, by whether the discarder held the card it promised:
    #: [count, the rules' chance summed, times the rules already made it certain]
    discards: dict[bool, list[float]] = field(
        default_factory=lambda: {True: [0, 0.0, 0], False: [0, 0.0, 0]}
    )
    #: leads of the suit asked for while the promised card was out, by whether the discarder
    #: held it: [count, won by the discarder's side, won with the promised card]
    answered: dict[bool, list[int]] = field(
        default_factory=lambda: {True: [0, 0, 0], False: [0, 0, 0]}
    )


def run(preset: str, deals: int, seed: int, params: Params, progress: bool = False) -> Anatomy:
    """Play ``deals`` deals from ``seed`` with ``params`` in every seat and count."""
    out = Anatomy()
    for d in range(deals):
        g = Game(preset, seed=seed + d)
        seeds = [seed + d * 10 + i for i in range(g.players)]
        while g.phase != "over":
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            move = decide(view, decision_rng(seeds[seat], view, "medium"), params).move
            if g.phase == "play":
                t = parse_view(view)
                kind, sig = _kind(g, t)
                if sig is not None and Card.parse(move).index // 13 == sig.suit:
                    _follow_lead(g, move, sig, params, out.answered[kind == "read: held"])
                if kind is not None:
                    out.decisions[kind] += 1
                    other = decide(view, decision_rng(seeds[seat], view, "medium"), WITHOUT).move
                    if other != move:
                        values = {str(c): v for c, v in card_values(g).items()}
                        change = values[move] - values[other]
                        out.diffs[kind].values.append(change)
                        if kind != "send":
                            out.split.setdefault((kind, _context(t)), Tally()).values.append(change)
            g.play(move)
            if g.phase == "play" and g.rules.partners:
                _after_discard(g, seat, out)
        if progress and ((d + 1) % 50 == 0 or d + 1 == deals):
            print(f"\r{d + 1}/{deals} deals", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr, flush=True)
    return out


def _kind(g: Game, t: Table) -> tuple[str | None, Signal | None]:
    """Which use of the convention this decision may be (None: neither), and for a read the
    live signal it answers."""
    if not t.rules.partners:
        return None, None
    if is_first_discard(t):
        return "send", None
    sig = None if t.trick else live_signal(t)
    if sig is None:
        return None, None
    held = _hand(g, sig.seat) >> sig.promised & 1
    return ("read: held" if held else "read: not held"), sig


def report(a: Anatomy, title: str) -> list[str]:
    lines = [
        title,
        "where the convention changed the card (send: a first discard was due; read: a lead",
        "while the promised card was out, split by whether the partner really held it):",
    ]
    for kind in KINDS:
        tally = a.diffs[kind]
        lines.append(
            f"  {kind:15} {len(tally.values):6d} of {a.decisions[kind]:6d} decisions differ;"
            f" {tally.summary()}"
        )
    for (kind, where), tally in sorted(a.split.items()):
        lines.append(f"    {kind}, {where}: {len(tally.values)}; {tally.summary()}")
    lines.append("first discards, as the partner saw them just after:")
    for held in (True, False):
        count, chance, certain = a.discards[held]
        what = "held the card it promised" if held else "did not hold it"
        lines.append(
            f"  {what:26} {int(count):6d}; the rules' chance it did {chance / max(count, 1):.3f};"
            f" already certain {certain / max(count, 1):.3f}"
        )
    lines.append("leads of the suit asked for while the promised card was out:")
    for held in (True, False):
        count, won, with_it = a.answered[held]
        what = "the discarder held it" if held else "the discarder did not"
        lines.append(
            f"  {what:26} {count:6d}; its side won the trick {won / max(count, 1):.3f},"
            f" with the promised card {with_it / max(count, 1):.3f}"
        )
    return lines


def parse_params(text: str) -> Params:
    """``Params`` with the fields named in ``name=value,...`` changed (0/1 for a yes/no)."""
    kinds = {f.name: type(getattr(Params(), f.name)) for f in fields(Params)}
    changes: dict[str, float | bool] = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in kinds:
            raise SystemExit(f"no such medium parameter: {name!r} (see batak.bots.medium.Params)")
        changes[name] = bool(int(value)) if kinds[name] is bool else float(value)
    return replace(Params(), **changes)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="sultan-esli")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=6000)
    ap.add_argument(
        "--params",
        default="",
        help="the medium that signals, as name=value,... (e.g. signal_read_free=0)",
    )
    args = ap.parse_args(argv)
    a = run(args.preset, args.deals, args.seed, parse_params(args.params), progress=True)
    title = f"{args.preset}, {args.deals} deals (seeds from {args.seed}), medium in every seat"
    if args.params:
        title += f" ({args.params})"
    print("\n".join(report(a, title + ":")))
    return 0


def _context(t: Table) -> str:
    """The reader's side in the contract, and whether an opponent may still hold a trump (from
    the reader's view)."""
    k = Knowledge.from_view(t)
    side = "declarer" if t.seat in t.declarers() else "defender"
    trump = t.eval_trump
    opps = [s for s in range(t.n) if not t.friends(s, t.seat)]
    out = trump >= 0 and any(k.possible[s] & SUIT_MASKS[trump] for s in opps)
    return f"{side}, {'trumps out' if out else 'no trumps out'}"


def _hand(g: Game, seat: int) -> int:
    return mask_of(g.hand(seat))


def _after_discard(g: Game, seat: int, out: Anatomy) -> None:
    """If ``seat`` just made its first discard, count what its partner could tell about it."""
    team = [s for s in g.team_of(seat) if s != seat]
    if not team:
        return
    t = parse_view(g.view(team[0]))
    sig = partner_signal(t)
    if sig is None or sig.seat != seat or sig.promised < 0:
        return
    last = t.trick[-1] if t.trick else t.tricks[-1][1][-1] if t.tricks else None
    if last != sig.card:  # not just now
        return
    held = bool(_hand(g, seat) >> sig.promised & 1)
    chance = Knowledge.from_view(t).probabilities()[seat].get(sig.promised, 0.0)
    row = out.discards[held]
    row[0] += 1
    row[1] += chance
    row[2] += chance >= 0.99


def _follow_lead(g: Game, move: str, sig: Signal, params: Params, row: list[int]) -> None:
    """Play out the trick this lead starts on a copy (every seat as medium) and count who won."""
    row[0] += 1
    after = g.copy()
    done = len(after.tricks)
    after.play(move)
    while after.phase == "play" and len(after.tricks) == done:
        seat = after.to_move
        assert seat is not None
        v = after.view(seat)
        after.play(decide(v, decision_rng(0, v, "medium"), params).move)
    trick = after.tricks[done]
    if trick.winner in after.team_of(sig.seat):
        row[1] += 1
        seats = trick.seats(after.players)
        row[2] += any(
            s == sig.seat and c.index == sig.promised
            for s, c in zip(seats, trick.cards, strict=True)
        )


if __name__ == "__main__":
    raise SystemExit(main())
