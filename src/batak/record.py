"""Game records: a whole match (rules, every deal's cards, every move) as JSON.

Loading replays every move through the engine, so a record that is broken or has been tampered
with (an illegal move, a card dealt twice, a score that does not add up) is refused with the
position and the reason, and nothing is half-loaded.

>>> from batak.match import Match
>>> m = Match("gamelake-ihaleli", seed=5)
>>> for _ in range(30):
...     m.play(m.legal_moves()[-1 if m.game.phase == "bidding" else 0])
>>> text = dumps(m)
>>> again = loads(text)
>>> again.game.history == m.game.history and again.totals == m.totals
True
>>> replay(text, deal=0, ply=1).phase
<Phase.TRUMP: 'trump'>
>>> bad = text.replace('"bid 13"', '"bid 3"', 1)
>>> loads(bad)
Traceback (most recent call last):
...
batak.record.RecordError: deal 1, move 1 ('bid 3'): a bid must be at least 4
"""

from __future__ import annotations

import json
from typing import Any

from .cards import format_cards
from .game import DealError, Game, IllegalMove, Phase
from .match import Match
from .rules import Rules, RulesError

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "dump_match",
    "dumps",
    "load_match",
    "loads",
    "replay",
]

FORMAT = "batak-record"
VERSION = 2
#: Older versions this module still reads (their rules are read as they were meant then).
OLD_VERSIONS = (1,)
_TOP_KEYS = {
    "format",
    "version",
    "rules",
    "dealer",
    "seed",
    "deals",
    "totals",
    "over",
    "winners",
    "meta",
}
_DEAL_KEYS = {"dealer", "hands", "kitty", "moves", "result"}


class RecordError(ValueError):
    """A record that cannot be loaded; the message says where and why.

    When a recorded move is refused, ``refusal`` is the engine's :class:`IllegalMove`, ``seat``
    the seat that made the move (of ``players``), ``deal`` and ``ply`` where it stands (from 1)
    and ``move`` the move as the record writes it: a reader can then say whose move it was
    (the engine's reason speaks to the mover, "you do not hold K♠")."""

    def __init__(
        self,
        message: str,
        *,
        refusal: IllegalMove | None = None,
        seat: int | None = None,
        players: int | None = None,
        deal: int | None = None,
        ply: int | None = None,
        move: str | None = None,
    ) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.seat = seat
        self.players = players
        self.deal = deal
        self.ply = ply
        self.move = move


def dump_match(match: Match, *, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The match as JSON-ready data: rules, each deal's hands and moves, and the results."""
    deals = []
    for game in match.games:
        d: dict[str, Any] = {
            "dealer": game.dealer,
            "hands": [format_cards(h) for h in game.initial_hands],
            "kitty": format_cards(game.initial_kitty),
            "moves": [str(m) for m in game.history],
        }
        if game.phase is Phase.OVER:
            d["result"] = {"tricks": game.tricks_won, "scores": game.scores}
        deals.append(d)
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "dealer": match.first_dealer,
        "deals": deals,
        "totals": list(match.totals),
        "over": match.over,
        "winners": list(match.winners),
    }
    if match.seed is not None:
        out["seed"] = match.seed  # lets a loaded match go on with the same seeded deals
    if meta:
        out["meta"] = meta
    return out


def dumps(match: Match, *, meta: dict[str, Any] | None = None, indent: int | None = 1) -> str:
    """The record as JSON text."""
    return json.dumps(dump_match(match, meta=meta), ensure_ascii=False, indent=indent)


def _parse(data: dict[str, Any] | str | bytes) -> dict[str, Any]:
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RecordError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a batak record (format should be {FORMAT!r})")
    if data.get("version") != VERSION and data.get("version") not in OLD_VERSIONS:
        raise RecordError(f"unsupported record version {data.get('version')!r} (this is {VERSION})")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown field(s): {', '.join(sorted(unknown))}")
    if not isinstance(data.get("deals"), list) or not data["deals"]:
        raise RecordError("a record needs a non-empty list of deals")
    return data


def rules_of_version_1(data: Any) -> Any:
    """A version-1 record's rules, spelled as today's options so that it replays as it was played.

    In version 1, ``overtake=false`` switched off overtrumping too, and an option that qualifies
    a switched-off one (``overtake_after_ruff``, ``trump_if_cannot_overtrump``) had no effect; the
    zero-trick penalty was on or off (now ``"scheme"`` or ``"none"``, which ``Rules`` reads from
    true and false); the last trick was shown only during its own deal.

    >>> r = rules_of_version_1({"overtake": False, "overtake_after_ruff": True})
    >>> r["overtrump"], r["overtake_after_ruff"], r["last_trick"]
    (False, False, 'deal')
    """
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if out.get("overtake") is False:
        out["overtrump"] = False
        out["overtake_after_ruff"] = False
    if out.get("overtrump", True) is False:
        out["trump_if_cannot_overtrump"] = True
    out.setdefault("last_trick", "deal")
    return out


def load_match(data: dict[str, Any] | str | bytes) -> Match:
    """Verify a record by replaying it, and return the match where it stopped."""
    rec = _parse(data)
    rules_data = rec.get("rules")
    if rec.get("version") == 1:
        rules_data = rules_of_version_1(rules_data)
    try:
        rules = Rules.from_dict(rules_data)  # type: ignore[arg-type]
    except (RulesError, TypeError, ValueError) as e:
        raise RecordError(f"rules: {e}") from None
    dealer = rec.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise RecordError(f"dealer must be a seat 0..{rules.players - 1}, got {dealer!r}")
    deals = rec["deals"]
    scripted = []
    for i, d in enumerate(deals):
        where = f"deal {i + 1}"
        if not isinstance(d, dict):
            raise RecordError(f"{where}: a deal is a JSON object")
        unknown = set(d) - _DEAL_KEYS
        if unknown:
            raise RecordError(f"{where}: unknown field(s): {', '.join(sorted(unknown))}")
        hands, kitty, moves = d.get("hands"), d.get("kitty", ""), d.get("moves")
        if not isinstance(hands, list) or not isinstance(moves, list):
            raise RecordError(f"{where}: needs 'hands' and 'moves' lists")
        if not all(isinstance(m, str) for m in moves):
            raise RecordError(f"{where}: moves must be strings")
        scripted.append((hands, kitty or None))
    seed = rec.get("seed")
    if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
        raise RecordError(f"seed must be a whole number or a string, got {seed!r}")
    try:
        match = Match(rules, dealer=dealer, seed=seed, deals=scripted)
    except DealError as e:
        raise RecordError(f"deal 1: {e}") from None
    for i, d in enumerate(deals):
        where = f"deal {i + 1}"
        if match.over:
            raise RecordError(f"{where}: the match was already over")
        if len(match.games) != i + 1:  # pragma: no cover - Match deals one game per finished deal
            raise RecordError(f"{where}: deals out of step")
        game = match.game
        if d.get("dealer", game.dealer) != game.dealer:
            raise RecordError(
                f"{where}: dealer should be seat {game.dealer}, the record says {d['dealer']}"
            )
        moves = d["moves"]
        for j, mv in enumerate(moves):
            if game.phase is Phase.OVER:
                raise RecordError(f"{where}, move {j + 1} ({mv!r}): the deal was already over")
            seat = game.to_move
            try:
                game.play(mv)
            except IllegalMove as e:
                raise RecordError(
                    f"{where}, move {j + 1} ({mv!r}): {e}",
                    refusal=e,
                    seat=seat,
                    players=rules.players,
                    deal=i + 1,
                    ply=j + 1,
                    move=mv,
                ) from None
        finished = game.phase is Phase.OVER
        if "result" in d:
            if not finished:
                raise RecordError(f"{where}: has a result but the deal is not finished")
            expected = {"tricks": game.tricks_won, "scores": game.scores}
            if d["result"] != expected:
                raise RecordError(
                    f"{where}: the recorded result {d['result']} does not match the play {expected}"
                )
        if finished:
            try:
                match._deal_over(game)  # scores the deal and deals the next one
            except DealError as e:
                raise RecordError(f"deal {i + 2}: {e}") from None
        elif i != len(deals) - 1:
            raise RecordError(f"{where}: unfinished, but more deals follow")
    if match.over and len(deals) < len(match.games):  # pragma: no cover
        raise RecordError("the record ends early")
    for key in ("totals", "over", "winners"):
        if key in rec and rec[key] != getattr(match, key):
            raise RecordError(
                f"the recorded {key} {rec[key]!r} do not match the play {getattr(match, key)!r}"
            )
    return match


def loads(text: str | bytes) -> Match:
    """Load a record from JSON text (see :func:`load_match`)."""
    return load_match(text)


def replay(data: dict[str, Any] | str | bytes, *, deal: int, ply: int) -> Game:
    """The deal number ``deal`` (0-based) of a record after its first ``ply`` moves."""
    rec = _parse(data)
    match = load_match(rec)
    if not 0 <= deal < len(match.games):
        raise RecordError(f"no deal {deal}: the record has deals 0..{len(match.games) - 1}")
    original = match.games[deal]
    moves = original.history
    if not 0 <= ply <= len(moves):
        raise RecordError(f"deal {deal} has {len(moves)} moves; cannot stop after {ply}")
    game = Game(
        match.rules,
        hands=original.initial_hands,
        kitty=original.initial_kitty or None,
        dealer=original.dealer,
    )
    for m in moves[:ply]:
        game.play(m)
    return game
