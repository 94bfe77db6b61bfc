"""The bot arena: computer players against each other in duplicate form, with honest statistics.

Every *board* is one seeded deal (``Game(rules, seed=deal_seed, dealer=dealer)``). It is played
once for every distinct rotation of the players around the table, so each player holds each hand
in each position; luck of the cards cancels out in the per-board comparison. Two players in a
four-seat game sit alternately (A B A B: in eşli they are the two partnerships), one player can
face a field (``--field``), and the boards run in parallel on all cores with results that do not
depend on the number of processes.

The report gives, per player, the mean score per deal-seat with its 95% confidence interval
(computed over boards, the independent unit), the mean per-board difference between players with
its CI (the paired design is the point), contracts won, mean bid and fraction made, and the time
per decision (p50/p95, per phase). It writes everything as JSON and a plot.

The *all-seeing* reference player (:class:`AllSeeingPlayer`) sees every hand and plays the
double-dummy best card: it **cheats**, exists only here as a ceiling for strength, is never in
:func:`batak.bots.get` and can never sit at a table.

>>> from batak.arena import mean_ci
>>> m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
>>> m, round(lo, 3), round(hi, 3)
(3.0, 1.037, 4.963)
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import math
import multiprocessing
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

from .. import __version__
from ..bots import Player, PlayerError, error_text, name_hint, shown, where
from ..bots import get as get_bot
from ..bots import load as load_player
from ..bots.workers import end_with_parent
from ..cards import Card
from ..game import Game, IllegalMove, Phase
from ..i18n import LANGS, phase_name, text
from ..moves import Move
from ..rules import Rules
from ..scoring import contract_made

# The public names are those :mod:`batak.arena` re-exports.

#: The arena-only name of the cheating reference player.
ALL_SEEING = "all-seeing"
ALL_SEEING_LABEL = "all-seeing (cheats)"
#: The same cheat bidding, naming trumps and burying by simulation (the hard player's auction):
#: the ceiling issue 14 measures the hard player against.
ALL_SEEING_SIM = "all-seeing-sim"
ALL_SEEING_SIM_LABEL = "all-seeing-sim (cheats)"
CHEATS = {ALL_SEEING: ALL_SEEING_LABEL, ALL_SEEING_SIM: ALL_SEEING_SIM_LABEL}
#: the players named without a module: the levels and the cheats
_KNOWN = ("random", "easy", "medium", "hard", ALL_SEEING, ALL_SEEING_SIM)
PHASES = ("bidding", "bury", "trump", "play")


class ArenaError(RuntimeError):
    """A player broke the protocol (an illegal move, an exception) or the setup is impossible.

    ``code`` (an ``arena.`` catalog key) and ``params`` let the command say it in the reader's
    language; ``str()`` is the English text. Both survive the way back from a worker process."""

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


# ---------------------------------------------------------------------- statistics
def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with an integer ``df`` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(2, df, 2):
            term *= c2 * (k - 1) / k
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2 * theta / math.pi
    term = math.cos(theta)
    total = term
    for k in range(3, df, 2):
        term *= c2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * total)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (no SciPy needed).

    Inverts the exact distribution function for integer ``df`` by bisection.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if not 0.0 < p < 1.0:
        raise ValueError("p must be between 0 and 1")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if df > 5000:
        return NormalDist().inv_cdf(p)
    want = 2 * p - 1
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < want:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < want:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """Mean and the two-sided ``level`` confidence interval (Student's t) of ``values``.

    With fewer than two values the interval is ``(nan, nan)``.
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = math.fsum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + level / 2, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation between order statistics.

    >>> percentile([1, 2, 3, 4], 50), percentile([5], 95)
    (2.5, 5.0)
    """
    if not values:
        return math.nan
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return float(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo))


# ---------------------------------------------------------------------- the all-seeing player
def fast_solver_available() -> bool:
    """Is the compiled double-dummy solver built (fast enough for whole 13-card deals)?"""
    from ..bots import solver

    probe = getattr(solver, "c_engine_available", None)
    return bool(probe()) if callable(probe) else False


def _card_key(card: Card, trump: int) -> tuple[int, int]:
    """Cheapest first: non-trumps before trumps, then low before high."""
    return (int(card.index // 13 == trump), card.index % 13)


class AllSeeingPlayer:
    """A reference player that **cheats**: it is given the :class:`~batak.game.Game` itself.

    In the card play it plays the card with the best double-dummy value for its side
    (:func:`batak.bots.solver.card_values`) whenever the solver is fast enough: once at most
    ``c_limit`` cards are left in all hands together with the compiled solver (44: eleven per
    hand; a whole 13-card deal can take the C solver minutes), or ``python_limit`` with the
    pure-Python one (28: seven per hand). Before that, and for the auction, the kitty and the
    trump, it plays like ``helper`` (by default the medium bot).
    It is the ceiling of the arena and nothing else: it is not in :func:`batak.bots.get` and no
    table ever seats it.
    """

    name = ALL_SEEING_LABEL
    cheats = True
    c_limit = 44
    python_limit = 28

    def __init__(
        self,
        game: Game,
        *,
        seed: int | None = None,
        helper: Player | None = None,
        fast: bool | None = None,
    ) -> None:
        if not isinstance(game, Game):
            raise TypeError("the all-seeing player must be given the Game it plays")
        self._game = game
        if helper is None:
            helper = get_bot("medium", seed=seed)
        self._helper = helper
        self._fast = fast_solver_available() if fast is None else fast
        self.solved = 0  # decisions taken by the solver (for reports and tests)

    def _solvable(self) -> bool:
        g = self._game
        left = sum(len(h) for h in g.hands)
        return left <= (self.c_limit if self._fast else self.python_limit)

    def choose(self, view: Mapping[str, Any]) -> str:
        g = self._game
        if view.get("seat") != g.to_move or view.get("phase") != g.phase.value:
            raise ArenaError("the all-seeing player was shown a view of another game or seat")
        legal: list[str] = list(view["legal_moves"])
        if g.phase is not Phase.PLAY or len(legal) == 1 or not self._solvable():
            return self._helper.choose(view)
        from ..bots.solver import card_values

        values = card_values(g)
        best = max(values.values())
        trump = g.trump.ordinal if g.trump is not None else -1
        pick = min((c for c, v in values.items() if v == best), key=lambda c: _card_key(c, trump))
        self.solved += 1
        return str(pick)


# ---------------------------------------------------------------------- configuration
@dataclass(frozen=True)
class ArenaConfig:
    """What to play. ``bots`` are player specs (a level of :func:`batak.bots.get`,
    ``all-seeing``, or ``module:Class``); ``field`` fills the remaining seats if given.

    ``common_seeds``: each seat's player gets the same seed in every seating of a board (by
    default the seed also depends on the seating). Two players that choose alike then play the
    same game in both seatings, so a head-to-head run of close variants measures where they
    differ and not the luck of the seats' seeds: an A/A run gives exactly zero on every board."""

    bots: tuple[str, ...]
    rules: Rules = field(default_factory=lambda: Rules.preset("standard"))
    deals: int = 1500
    seed: int | str = 1
    field: str | None = None
    budget: float | None = None
    common_seeds: bool = False

    @property
    def specs(self) -> tuple[str, ...]:
        """The participants: the bots, then the field (if any)."""
        return (*self.bots, self.field) if self.field is not None else self.bots

    @property
    def labels(self) -> list[str]:
        """A unique display name per participant."""
        out: list[str] = []
        for spec in self.specs:
            base = _label_of(spec)
            label, k = base, 2
            while label in out:
                label = f"{base} #{k}"
                k += 1
            out.append(label)
        return out

    def pattern(self) -> list[int]:
        """Participant index per seat in the first seating: A B A B, or A F F F with a field."""
        n = self.rules.players
        if len(self.bots) > n or (self.field is not None and len(self.bots) >= n):
            raise ArenaError(text("arena.too_many", "en", count=len(self.specs), seats=n))
        if self.field is not None:
            return [*range(len(self.bots)), *[len(self.bots)] * (n - len(self.bots))]
        if len(self.bots) < 2:
            raise ArenaError(text("arena.need_bots", "en"))
        return [s % len(self.bots) for s in range(n)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "field": self.field,
            "labels": self.labels,
            "preset": self.rules.name,
            "rules": self.rules.to_dict(),
            "deals": self.deals,
            "seed": self.seed,
            "budget": self.budget,
            "common_seeds": self.common_seeds,
        }


def _label_of(spec: str) -> str:
    if spec in CHEATS:
        return CHEATS[spec]
    if ":" in spec:
        return spec.rsplit(":", 1)[1]
    return spec


def seat_maps(pattern: Sequence[int]) -> list[list[int]]:
    """Every distinct rotation of ``pattern`` around the table (participant index per seat).

    >>> seat_maps([0, 1, 0, 1])
    [[0, 1, 0, 1], [1, 0, 1, 0]]
    >>> seat_maps([0, 1, 0])
    [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    """
    n = len(pattern)
    out: list[list[int]] = []
    for r in range(n):
        m = [pattern[(s - r) % n] for s in range(n)]
        if m not in out:
            out.append(m)
    return out


def _derived_seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _player_seed(config: ArenaConfig, board: int, seating: int, seat: int) -> int:
    """The seed of the player at ``seat`` in ``seating`` of ``board``: from the seating too,
    unless the run asks for common seeds (:class:`ArenaConfig`)."""
    if config.common_seeds:
        return _derived_seed(config.seed, board, "common", seat)
    return _derived_seed(config.seed, board, seating, seat)


def _deal_id(game: Game) -> str:
    hands = "/".join(" ".join(str(c) for c in h) for h in game.initial_hands)
    kitty = " ".join(str(c) for c in game.initial_kitty)
    return hashlib.sha1(f"{hands}|{kitty}".encode()).hexdigest()[:12]


def _make_player(spec: str, game: Game, seed: int, budget: float | None) -> Player:
    if spec == ALL_SEEING:
        return AllSeeingPlayer(game, seed=seed)
    if spec == ALL_SEEING_SIM:  # the auction, trump and kitty as the hard player decides them
        return AllSeeingPlayer(game, seed=seed, helper=get_bot("hard", seed=seed))
    if ":" in spec:
        return load_player(spec, seed=seed)
    if spec not in _KNOWN:
        raise PlayerError("not_a_name", spec=spec, hint=name_hint(spec), levels=", ".join(_KNOWN))
    options: dict[str, Any] = {}
    if budget is not None and spec == "hard":
        options["budget"] = budget
    return get_bot(spec, seed=seed, **options)


def check_spec(spec: str) -> None:
    """Raise :class:`ArenaError` if ``spec`` names no player that can be built; its cause is the
    :class:`~batak.bots.PlayerError` that says what to fix."""
    try:
        _make_player(spec, Game("standard", seed=0), 0, None)
    except PlayerError as e:
        raise ArenaError(text("arena.unknown_bot", "en", spec=spec, message=str(e))) from e


# ---------------------------------------------------------------------- playing
Times = dict[str, list[float]]  # "participant|phase" -> seconds per decision


def play_board(config: ArenaConfig, board: int) -> tuple[dict[str, Any], Times]:
    """Play board ``board`` in every seating; returns its record and the decision times."""
    rules = config.rules
    n = rules.players
    labels = config.labels
    specs = config.specs
    deal_seed = f"arena:{config.seed}:{board}"
    dealer = board % n
    times: Times = {}
    rotations: list[dict[str, Any]] = []
    for r, seats in enumerate(seat_maps(config.pattern())):
        game = Game(rules, seed=deal_seed, dealer=dealer)
        players = [
            _make_player(specs[p], game, _player_seed(config, board, r, s), config.budget)
            for s, p in enumerate(seats)
        ]
        while game.phase is not Phase.OVER:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            who = labels[seats[seat]]
            player = players[seat]
            within = getattr(player, "choose_within", None) if config.budget is not None else None
            t0 = time.perf_counter()
            place = {"who": who, "seat": seat, "board": board, "seating": r}
            try:
                if within is not None and config.budget is not None:
                    move = str(within(view, config.budget))
                else:
                    move = player.choose(view)
            # (SystemExit too: a worker process ended by it left the pool waiting for ever, and
            # one process ended silently with its code; a real Ctrl-C still stops the run)
            except (Exception, SystemExit) as e:
                error = error_text(e)
                raise ArenaError(
                    text("arena.player_raised", "en", error=error, **place),
                    code="arena.player_raised",
                    error=error,
                    where=where(e),
                    **place,
                ) from e
            dt = time.perf_counter() - t0
            times.setdefault(f"{who}|{view['phase']}", []).append(dt)
            if not isinstance(move, str | Move):  # None, a number: no move at all
                got = shown(move)
                raise ArenaError(
                    text("arena.player_not_text", "en", got=got, **place),
                    code="arena.player_not_text",
                    got=got,
                    **place,
                )
            try:
                game.play(move)
            except IllegalMove as e:
                found = {
                    "got": str(move),
                    "legal": ", ".join(view["legal_moves"]),
                    "reasons": {lg: e.text(lg) for lg in LANGS},
                }
                raise ArenaError(
                    text("arena.player_illegal", "en", reason=str(e), **place, **found),
                    code="arena.player_illegal",
                    **place,
                    **found,
                ) from e
        rotations.append(_rotation_record(game, [labels[p] for p in seats], r))
    record = {"board": board, "deal_seed": deal_seed, "dealer": dealer, "rotations": rotations}
    return record, times


def _rotation_record(game: Game, seats: list[str], r: int) -> dict[str, Any]:
    rules = game.rules
    n = rules.players
    c = game.contract
    scores = game.scores
    rec: dict[str, Any] = {
        "rotation": r,
        "seats": seats,
        "deal_id": _deal_id(game),
        "redeal": game.redeal,
        "scores": scores if scores is not None else [0] * n,
        "tricks": game.tricks_won,
        "bidder": None,
        "bid": None,
        "trump": None,
        "made": None,
    }
    if rules.bidding == "kozmaca":
        bids = [b or 0 for b in game.bids]
        rec["bids"] = bids
        rec["made_bids"] = [contract_made(rules, bids[s], game.tricks_won[s]) for s in range(n)]
    elif c is not None and not game.redeal:
        team_tricks = sum(game.tricks_won[s] for s in rules.team_of(c.bidder))
        rec.update(
            bidder=c.bidder,
            bid=c.bid,
            trump=c.trump.value if c.trump is not None else None,
            made=contract_made(rules, c.bid, team_tricks),
        )
    return rec


def _run_chunk(job: tuple[ArenaConfig, list[int]]) -> list[tuple[dict[str, Any], Times]]:
    config, boards = job
    return [play_board(config, b) for b in boards]


def _merge_times(into: Times, more: Times) -> None:
    for key, values in more.items():
        into.setdefault(key, []).extend(values)


def run(
    config: ArenaConfig,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play every board of ``config`` on ``jobs`` processes; returns the JSON-ready result.

    The boards (and so every statistic but the timings) are the same for any ``jobs``.
    """
    for spec in config.specs:
        check_spec(spec)
    config.pattern()  # fails early on an impossible seating
    boards_n = config.deals
    jobs = max(1, min(jobs, boards_n))
    records: list[dict[str, Any]] = []
    times: Times = {}
    started = time.perf_counter()
    if progress is not None:
        progress(0)
    if jobs == 1:
        for b in range(boards_n):
            rec, tm = play_board(config, b)
            records.append(rec)
            _merge_times(times, tm)
            if progress is not None:
                progress(b + 1)
    else:
        size = max(1, min(25, math.ceil(boards_n / (jobs * 8))))
        chunks = [list(range(i, min(i + size, boards_n))) for i in range(0, boards_n, size)]
        ctx = multiprocessing.get_context("spawn")
        # each worker ends with this process, even when it is killed
        with ctx.Pool(jobs, initializer=end_with_parent) as pool:
            for part in pool.imap_unordered(_run_chunk, [(config, c) for c in chunks]):
                for rec, tm in part:
                    records.append(rec)
                    _merge_times(times, tm)
                if progress is not None:
                    progress(len(records))
    records.sort(key=lambda r: int(r["board"]))
    elapsed = time.perf_counter() - started
    result: dict[str, Any] = {
        "format": "batak-arena/1",
        "config": config.to_dict(),
        "versions": _versions(),
        "run": {"jobs": jobs, "seconds": round(elapsed, 3)},
    }
    result.update(summarize(records, config.labels, config.rules, times))
    result["boards"] = records
    return result


def _versions() -> dict[str, Any]:
    return {
        "batak": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "solver": "c" if fast_solver_available() else "python",
    }


# ---------------------------------------------------------------------- summary
def _ci_dict(values: Sequence[float]) -> dict[str, Any]:
    mean, lo, hi = mean_ci(values)
    return {"mean": _num(mean), "ci95": None if math.isnan(lo) else [_num(lo), _num(hi)]}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def summarize(
    records: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    rules: Rules,
    times: Mapping[str, Sequence[float]] | None = None,
) -> dict[str, Any]:
    """Per-player and per-pair statistics from board records (see :func:`play_board`)."""
    n = rules.players
    per_board: dict[str, list[float]] = {p: [] for p in labels}
    seat_count = {p: 0 for p in labels}
    total = {p: 0.0 for p in labels}
    contracts = {p: 0 for p in labels}
    bids: dict[str, list[int]] = {p: [] for p in labels}
    made = {p: 0 for p in labels}
    redeals = 0
    deals = 0
    for rec in records:
        sums = {p: 0.0 for p in labels}
        counts = {p: 0 for p in labels}
        for rot in rec["rotations"]:
            deals += 1
            redeals += int(bool(rot["redeal"]))
            for s in range(n):
                who = rot["seats"][s]
                sums[who] += rot["scores"][s]
                counts[who] += 1
            if "bids" in rot:
                for s in range(n):
                    who = rot["seats"][s]
                    contracts[who] += 1
                    bids[who].append(int(rot["bids"][s]))
                    made[who] += int(bool(rot["made_bids"][s]))
            elif rot["bidder"] is not None:
                who = rot["seats"][rot["bidder"]]
                contracts[who] += 1
                bids[who].append(int(rot["bid"]))
                made[who] += int(bool(rot["made"]))
        for p in labels:
            if counts[p]:
                per_board[p].append(sums[p] / counts[p])
                seat_count[p] += counts[p]
                total[p] += sums[p]
    players: dict[str, Any] = {}
    for p in labels:
        stats = _ci_dict(per_board[p])
        stats["mean"] = _num(total[p] / seat_count[p]) if seat_count[p] else None
        k = contracts[p]
        players[p] = {
            "deal_seats": seat_count[p],
            "mean_score": stats["mean"],
            "ci95": stats["ci95"],
            "contracts": k,
            "contract_share": _num(k / seat_count[p]) if seat_count[p] else None,
            "mean_bid": _num(sum(bids[p]) / k) if k else None,
            "made": made[p],
            "made_share": _num(made[p] / k) if k else None,
            "time": _time_stats(p, times or {}),
        }
    pairs: list[dict[str, Any]] = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            diffs = [x - y for x, y in zip(per_board[a], per_board[b], strict=True)]
            d = _ci_dict(diffs)
            pairs.append({"a": a, "b": b, "boards": len(diffs), **d})
    kind = rules.bidding
    return {
        "summary": {
            "boards": len(records),
            "deals": deals,
            "redeals": redeals,
            "contracts": "auction" if kind == "auction" else kind,
        },
        "players": players,
        "pairs": pairs,
    }


def _time_stats(player: str, times: Mapping[str, Sequence[float]]) -> dict[str, Any]:
    every: list[float] = []
    phases: dict[str, Any] = {}
    for phase in PHASES:
        xs = times.get(f"{player}|{phase}", [])
        if xs:
            every.extend(xs)
            phases[phase] = _pcts(xs)
    return {**_pcts(every), "phases": phases}


def _pcts(xs: Sequence[float]) -> dict[str, Any]:
    if not xs:
        return {"decisions": 0, "p50_ms": None, "p95_ms": None, "mean_ms": None, "max_ms": None}
    return {
        "decisions": len(xs),
        "p50_ms": round(percentile(xs, 50) * 1000, 4),
        "p95_ms": round(percentile(xs, 95) * 1000, 4),
        "mean_ms": round(math.fsum(xs) / len(xs) * 1000, 4),
        "max_ms": round(max(xs) * 1000, 4),
    }


# ---------------------------------------------------------------------- report
def _f(x: float | None, fmt: str = "{:+.1f}", point: str = ".") -> str:
    """``x`` in ``fmt`` with the language's decimal ``point`` (``—`` for none)."""
    return "—" if x is None else fmt.format(x).replace(".", point)


def report_lines(result: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The readable report: a table per player, the paired differences, timings, notes."""
    cfg = result["config"]
    summ = result["summary"]
    labels: list[str] = cfg["labels"]
    players = result["players"]
    rotations = len(result["boards"][0]["rotations"]) if result["boards"] else 0
    point = text("format.decimal_point", lang)  # 1.5 in English, 1,5 in Turkish
    between = "; " if point == "," else ", "  # the two ends of an interval
    lines = [
        text(
            "arena.title_one" if summ["boards"] == 1 else "arena.title",
            lang,
            players=text("arena.vs", lang).join(labels),
            preset=cfg["preset"],
            boards=summ["boards"],
            rotations=rotations,
            deals=summ["deals"],
            seed=cfg["seed"],
        ),
        "",
    ]
    if cfg.get("common_seeds"):
        lines[1:1] = [text("arena.common_seeds", lang)]
    head = [
        text(f"arena.col_{c}", lang)
        for c in ("player", "seats", "mean", "ci", "won", "bid", "made", "p50", "p95")
    ]
    rows = [head]
    for p in labels:
        s = players[p]
        ci = s["ci95"]
        rows.append(
            [
                p,
                str(s["deal_seats"]),
                _f(s["mean_score"], point=point),
                f"[{_f(ci[0], point=point)}{between}{_f(ci[1], point=point)}]" if ci else "—",
                _f(
                    s["contract_share"] * 100 if s["contract_share"] is not None else None,
                    "{:.1f}%",
                    point,
                ),
                _f(s["mean_bid"], "{:.2f}", point),
                _f(
                    s["made_share"] * 100 if s["made_share"] is not None else None,
                    "{:.1f}%",
                    point,
                ),
                _f(s["time"]["p50_ms"], "{:.2f}", point),
                _f(s["time"]["p95_ms"], "{:.2f}", point),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    # what the columns mean, under the table (docs/bots.md says it at length), a line a term
    lines.append("")
    for key in ("arena.legend_columns", "arena.legend_figures"):
        lines += text(key, lang).split(" · ")
    lines.append("")
    for pair in result["pairs"]:
        ci = pair["ci95"]
        if ci and (ci[0] > 0 or ci[1] < 0):
            winner = pair["a"] if ci[0] > 0 else pair["b"]
            verdict = text("arena.significant", lang, a=winner)
        else:
            verdict = text("arena.not_significant", lang)
        lines.append(
            text(
                "arena.diff_one" if pair["boards"] == 1 else "arena.diff",
                lang,
                a=pair["a"],
                b=pair["b"],
                mean=_f(pair["mean"], point=point),
                lo=_f(ci[0], point=point) if ci else "—",
                hi=_f(ci[1], point=point) if ci else "—",
                boards=pair["boards"],
                verdict=verdict,
            )
        )
    lines.append("")
    lines.append(text("arena.times", lang))
    width = max(len(p) for p in labels)
    for p in labels:
        parts = []
        for phase, st in players[p]["time"]["phases"].items():
            times = f"{_f(st['p50_ms'], '{:.2f}', point)}/{_f(st['p95_ms'], '{:.2f}', point)}"
            parts.append(f"{phase_name(phase, lang)} {times}")
        lines.append(f"  {p.ljust(width)}  " + ("  ·  ".join(parts) if parts else "—"))
    notes: list[str] = []
    budget = cfg.get("budget")
    if budget is not None:  # a player slower than the budget it was given, or meant to keep
        for p in labels:
            slowest = players[p]["time"].get("max_ms")
            if slowest is not None and slowest > budget * 1000:
                notes.append(
                    text(
                        "arena.over_budget",
                        lang,
                        player=p,
                        slowest=_f(slowest, "{:.1f}", point),
                        budget=_f(budget * 1000, "{:g}", point),
                    )
                )
    if summ["redeals"]:
        notes.append(text("arena.redeals", lang, count=summ["redeals"], deals=summ["deals"]))
    if summ["contracts"] == "none":
        notes.append(text("arena.no_contracts", lang))
    elif summ["contracts"] == "kozmaca":
        notes.append(text("arena.kozmaca_note", lang))
    for spec, label in CHEATS.items():
        if spec in cfg["bots"] or cfg.get("field") == spec:
            notes.append("* " + text("arena.cheat_note", lang, name=label))
    if notes:
        lines.append("")
        lines.extend(notes)
    return lines


# ---------------------------------------------------------------------- plots
def _bars(result: Mapping[str, Any]) -> list[tuple[str, float, float, float]]:
    out = []
    for p in result["config"]["labels"]:
        s = result["players"][p]
        mean = s["mean_score"] if s["mean_score"] is not None else 0.0
        ci = s["ci95"] or [mean, mean]
        out.append((p, float(mean), float(ci[0]), float(ci[1])))
    return out


def write_plot(
    result: Mapping[str, Any],
    path: str | Path,
    *,
    lang: str = "en",
    use_matplotlib: bool | None = None,
) -> Path:
    """Draw the mean score per deal with its 95% CI per player; returns the file written.

    With matplotlib (``pip install 'batak[plot]'``) any format it knows; without it, or with
    ``use_matplotlib=False``, a self-made SVG (a ``.png`` path then becomes ``.svg``).
    """
    target = Path(path)
    have = importlib.util.find_spec("matplotlib") is not None
    use = have if use_matplotlib is None else (use_matplotlib and have)
    title = text(
        "arena.plot_title",
        lang,
        preset=result["config"]["preset"],
        boards=result["summary"]["boards"],
    )
    note = _pairs_note(result, lang)
    ylabel = text("arena.ylabel", lang)
    target.parent.mkdir(parents=True, exist_ok=True)
    if use:
        _matplotlib_plot(result, target, title, note, ylabel)
        return target
    if target.suffix.lower() != ".svg":
        target = target.with_suffix(".svg")
    target.write_text(svg_chart(_bars(result), title, note, ylabel), encoding="utf-8")
    return target


def _pairs_note(result: Mapping[str, Any], lang: str) -> str:
    """The paired differences in one line: ``A − B: +12.3 [+8.1, +16.5]``."""
    parts = []
    for pair in result["pairs"][:3]:
        ci = pair["ci95"]
        span = f" [{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else ""
        parts.append(f"{pair['a']} − {pair['b']}: {_f(pair['mean'])}{span}")
    return text("arena.plot_note", lang, pairs="; ".join(parts)) if parts else ""


def _matplotlib_plot(
    result: Mapping[str, Any], target: Path, title: str, note: str, ylabel: str
) -> None:
    mpl: Any = importlib.import_module("matplotlib")
    mpl.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    bars = _bars(result)
    names = [b[0] for b in bars]
    means = [b[1] for b in bars]
    err = [[b[1] - b[2] for b in bars], [b[3] - b[1] for b in bars]]
    colors = ["#b0413e" if n in CHEATS.values() else "#3b6ea5" for n in names]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(bars) + 2), 4.2))
    xs = list(range(len(bars)))
    ax.bar(xs, means, width=0.5, yerr=err, capsize=8, color=colors)
    ax.set_xticks(xs, names)
    ax.set_xlim(-0.6, len(bars) - 0.4)
    ax.axhline(0, color="#444444", linewidth=0.8)
    ax.set_title(f"{title}\n{note}" if note else title, fontsize=9)
    ax.set_ylabel(ylabel)
    for i, m in enumerate(means):
        ax.text(i + 0.28, m, f"{m:+.1f}", ha="left", va="center", fontsize=8)
    fig.tight_layout()
    fig.savefig(target)
    plt.close(fig)


def _nice_step(span: float) -> float:
    raw = span / 6 if span > 0 else 1.0
    mag = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def svg_chart(
    bars: Sequence[tuple[str, float, float, float]],
    title: str,
    note: str = "",
    ylabel: str = "",
) -> str:
    """A bar chart with error bars as SVG text: ``bars`` holds (name, mean, low, high)."""
    w, h = max(480, 150 * len(bars) + 120), 380
    left, right, top, bottom = 80, 20, 60, 50
    lo = min([0.0, *(b[2] for b in bars), *(b[1] for b in bars)])
    hi = max([0.0, *(b[3] for b in bars), *(b[1] for b in bars)])
    step = _nice_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    if hi == lo:
        hi = lo + step
    plot_h = h - top - bottom

    def y(v: float) -> float:
        return top + (hi - v) / (hi - lo) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2:.1f}" y="22" text-anchor="middle" font-size="13">{_esc(title)}</text>',
        f'<text x="{w / 2:.1f}" y="42" text-anchor="middle" font-size="11">{_esc(note)}</text>',
        f'<text transform="translate(18 {top + plot_h / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle">{_esc(ylabel)}</text>',
    ]
    v = lo
    while v <= hi + step / 1000:
        yy = y(v)
        out.append(
            f'<line x1="{left}" y1="{yy:.1f}" x2="{w - right}" y2="{yy:.1f}" stroke="#dddddd"/>'
        )
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += step
    zero = y(0.0)
    out.append(
        f'<line x1="{left}" y1="{zero:.1f}" x2="{w - right}" y2="{zero:.1f}" stroke="#444444"/>'
    )
    slot = (w - left - right) / max(1, len(bars))
    for i, (name, mean, low, high) in enumerate(bars):
        cx = left + slot * (i + 0.5)
        bw = slot * 0.5
        top_y, bot_y = sorted((y(mean), zero))
        color = "#b0413e" if name in CHEATS.values() else "#3b6ea5"
        out.append(
            f'<rect x="{cx - bw / 2:.1f}" y="{top_y:.1f}" width="{bw:.1f}" '
            f'height="{max(bot_y - top_y, 0.5):.1f}" fill="{color}"><title>{_esc(name)}: '
            f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]</title></rect>"
        )
        ylo, yhi = y(low), y(high)
        out.append(
            f'<line x1="{cx:.1f}" y1="{ylo:.1f}" x2="{cx:.1f}" y2="{yhi:.1f}" '
            f'stroke="black" stroke-width="1.5"/>'
        )
        for yy in (ylo, yhi):
            out.append(
                f'<line x1="{cx - 10:.1f}" y1="{yy:.1f}" x2="{cx + 10:.1f}" y2="{yy:.1f}" '
                f'stroke="black" stroke-width="1.5"/>'
            )
        out.append(
            f'<text x="{cx + bw / 2 + 4:.1f}" y="{y(mean) + 4:.1f}" '
            f'font-size="11">{mean:+.1f}</text>'
        )
        out.append(
            f'<text x="{cx:.1f}" y="{h - bottom + 18}" text-anchor="middle">{_esc(name)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- command line
