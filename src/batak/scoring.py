"""Scoring of one deal, as a pure function of the rules and the tricks taken (docs/rules.md,
Scoring).

Batak Sultan, İhaleli, bid 6: the bidder takes 8, the others 3, 2 and 0 (that one is *batak*):

>>> from batak.rules import Rules
>>> score(Rules.preset("sultan-ihaleli"), [8, 3, 2, 0], bidder=0, bid=6)
[62, 3, 2, -60]

CetinsGame (10 a trick): bid 6, the bidder takes 7, the others 3, 3 and 0:

>>> score(Rules.preset("cetinsgame-ihaleli"), [7, 3, 3, 0], bidder=0, bid=6)
[70, 30, 30, -40]

Koz Maça on Sultan, one bid per player:

>>> score(Rules.preset("sultan-kozmaca"), [3, 2, 5, 3], bids=[3, 4, 2, 1])
[30, -40, 23, 12]
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import Rules

__all__ = [
    "ScoringError",
    "contract_made",
    "deal_score",
    "defenders_minimum",
    "is_king",
    "score",
    "zero_trick_penalty",
]


class ScoringError(ValueError):
    """Arguments that do not describe a deal under these rules."""


def contract_made(rules: Rules, bid: int, tricks: int) -> bool:
    """Is a contract of ``bid`` (a side's, or a Koz Maça player's own) made with ``tricks``? At
    least the bid, and no more than bid + ``overtrick_limit`` (yan batar); a zero bid
    (``zero_bid``, "el almam") only with no trick.

    >>> from batak.rules import Rules
    >>> r = Rules.preset("standard", overtrick_limit=1)
    >>> contract_made(r, 6, 7), contract_made(r, 6, 8), contract_made(r, 6, 5)
    (True, False, False)
    """
    if bid == 0 and rules.zero_bid is not None:
        return tricks == 0
    return bid <= tricks and (
        rules.overtrick_limit is None or tricks <= bid + rules.overtrick_limit
    )


def _made_score(rules: Rules, bid: int, tricks: int) -> int:
    """What a bidder (or a Koz Maça player against their own bid) scores.

    Made: the scheme's figure (or ``overtrick_points``). Down (fewer tricks than the bid, or with
    ``overtrick_limit``, yan batar, more than bid + limit): ``down_penalty`` if set, else the
    missing (or excess) tricks with ``down_scoring='shortfall'``, else the whole bid's figure.
    """
    scheme = rules.scoring
    limit = rules.overtrick_limit
    over = limit is not None and tricks > bid + limit  # yan batar: too many tricks
    if tricks < bid or over:
        if rules.down_penalty is not None:  # a fixed penalty for going down
            return -rules.down_penalty
        if rules.down_scoring == "shortfall":  # only the tricks missing (or too many)
            missing = tricks - bid - limit if over and limit is not None else bid - tricks
            return -_contract_down(rules, missing)
        return -_contract_down(rules, bid)
    counted = tricks if rules.overtricks_count else bid
    if rules.overtrick_points is not None:  # the bid's figure plus N a trick over it
        return _scheme_made(scheme, bid, bid) + rules.overtrick_points * (counted - bid)
    return _scheme_made(scheme, bid, counted)


def _bid_score(rules: Rules, bid: int, tricks: int) -> int:
    """A Koz Maça player's score against its own bid; a zero bid ("el almam", ``zero_bid``)
    scores a fixed amount, plus with no trick taken, minus otherwise."""
    if bid == 0 and rules.zero_bid is not None:
        return rules.zero_bid if tricks == 0 else -rules.zero_bid
    return _made_score(rules, bid, tricks)


def _scheme_made(scheme: str, bid: int, counted: int) -> int:
    """A made contract's score under the scheme, ``counted`` tricks counted."""
    if scheme == "sultan":
        return 10 * bid + (counted - bid)
    if scheme in ("simple", "acik"):
        return counted
    if scheme == "tens":
        return 10 * counted
    if scheme == "primli":
        return 15 * bid + 10 * (counted - bid)
    raise AssertionError(scheme)  # pragma: no cover - Rules validates the scheme


def zero_trick_penalty(rules: Rules, bid: int | None) -> int:
    """What a defender (or defending team) with no tricks loses under ``rules`` (0: no penalty).

    ``rules.zero_trick_penalty`` chooses the amount apart from the scheme: ``"none"``;
    ``"scheme"``, the scheme's own figure (Sultan 10 × bid, simple the bid, tens 10 × the
    minimum bid, primli 50); ``"min_bid"``, what a contract of the minimum bid loses when it goes
    down under this scheme (CetinsGame: "taban ihale kadar eksi yazar"); ``"bid"``, what this
    deal's contract loses when it goes down (the minimum bid when there is no contract).

    >>> from batak.rules import Rules
    >>> zero_trick_penalty(Rules.preset("cetinsgame-ihaleli"), 6)
    40
    >>> zero_trick_penalty(Rules.preset("cetinsgame-ihaleli", scoring="simple"), 6)
    4
    >>> zero_trick_penalty(Rules.preset("sultan-ihaleli"), 6)
    60
    """
    mode = rules.zero_trick_penalty
    scheme = rules.scoring
    if mode == "none":
        return 0
    if mode == "scheme":
        if scheme == "sultan":
            assert bid is not None
            return 10 * bid
        if scheme == "simple":
            return bid if bid is not None else rules.min_bid
        if scheme == "tens":
            return 10 * rules.min_bid
        if scheme == "primli":
            return 50
        return 0  # pragma: no cover - Rules refuses a zero-trick penalty with scoring='acik'
    # a failed contract loses its bid in the scheme's points: 1 each (simple), 10 each (the rest)
    return _contract_down(rules, bid if mode == "bid" else None)


def defenders_minimum(rules: Rules) -> int:
    """The fewest tricks a defending side must take not to go down (0: no such rule).

    ``rules.defenders_minimum``, else the scheme's own: açık eşli's "defenders with fewer than 2
    tricks" (2 under ``acik``), no minimum otherwise.

    >>> from batak.rules import Rules
    >>> defenders_minimum(Rules.preset("esli-acik")), defenders_minimum(Rules.preset("sultan-esli"))
    (2, 0)
    >>> defenders_minimum(Rules.preset("gamelake-esli", defenders_minimum=3))
    3
    """
    if rules.defenders_minimum is not None:
        return rules.defenders_minimum
    return 2 if rules.scoring == "acik" else 0


def _contract_down(rules: Rules, bid: int | None) -> int:
    """What this deal's contract loses when down, in the scheme's points (the minimum bid's
    figure when there is no contract): 1 a trick under simple and acik, 10 elsewhere."""
    amount = bid if bid is not None else rules.min_bid
    return amount if rules.scoring in ("simple", "acik") else 10 * amount


def _defender_score(rules: Rules, tricks: int, bid: int | None) -> int:
    """What a player or team outside the contract scores."""
    scheme = rules.scoring
    minimum = defenders_minimum(rules) if rules.partners else 0
    if tricks < minimum:
        # açık eşli: "defenders with fewer than 2 tricks" lose what the contract loses when down
        return -_contract_down(rules, bid)
    if scheme == "acik":
        return tricks
    if tricks == 0 and rules.zero_trick_penalty != "none":
        return -zero_trick_penalty(rules, bid)
    if scheme in ("simple", "sultan"):
        return tricks
    return 10 * tricks


def _check_tricks(rules: Rules, tricks: Sequence[int]) -> list[int]:
    t = list(tricks)
    if len(t) != rules.players:
        raise ScoringError(f"need {rules.players} trick counts, got {len(t)}")
    for x in t:
        if not isinstance(x, int) or isinstance(x, bool) or x < 0:
            raise ScoringError(f"trick counts must be whole numbers >= 0, got {tricks!r}")
    if sum(t) > rules.hand_size:
        raise ScoringError(f"{sum(t)} tricks in all, but a deal has only {rules.hand_size}")
    return t


def score(
    rules: Rules,
    tricks: Sequence[int],
    *,
    bidder: int | None = None,
    bid: int | None = None,
    bids: Sequence[int] | None = None,
) -> list[int]:
    """The score of one deal for each seat.

    ``tricks`` is the tricks taken per seat. With an auction give the ``bidder``'s seat and the
    contract's ``bid``; with Koz Maça bids give ``bids`` (one per seat); with no bidding at all give
    neither. With partners, both partners score their team's figure.
    """
    t = _check_tricks(rules, tricks)
    n = rules.players
    if bids is not None:
        b = list(bids)
        low = 0 if rules.zero_bid is not None else 1
        if len(b) != n or any(not isinstance(x, int) or x < low for x in b):
            raise ScoringError(f"need {n} bids of at least {low}, got {bids!r}")
        if rules.partners:
            raise ScoringError("bids per seat are for players on their own, not partners")
        return deal_score(rules, t, None, None, b)
    if bidder is None:
        if bid is not None:
            raise ScoringError("a bid needs its bidder")
        if rules.bidding == "kozmaca":
            raise ScoringError("Koz Maça with bids needs bids=[...] (one per seat)")
        if rules.scoring in ("sultan", "acik"):
            raise ScoringError(f"scoring {rules.scoring!r} needs a bidder and a bid")
        return deal_score(rules, t, None, None, None)
    if bid is None:
        raise ScoringError("a bidder needs a bid")
    if not 0 <= bidder < n:
        raise ScoringError(f"bidder must be a seat 0..{n - 1}, got {bidder}")
    if not rules.min_bid <= bid <= rules.max_bid:
        raise ScoringError(f"bid must be {rules.min_bid}..{rules.max_bid}, got {bid}")
    return deal_score(rules, t, bidder, bid, None)


def deal_score(
    rules: Rules,
    t: Sequence[int],
    bidder: int | None,
    bid: int | None,
    bids: Sequence[int] | None,
) -> list[int]:
    """:func:`score` without the argument checks, for the engine's own well-formed deals."""
    n = rules.players
    if bids is not None:
        return [_bid_score(rules, bids[s], t[s]) for s in range(n)]
    if bidder is None or bid is None:
        return [_defender_score(rules, t[s], None) for s in range(n)]
    team_of = [rules.team_of(s) for s in range(n)]
    unit_tricks = [sum(t[x] for x in team_of[s]) for s in range(n)]
    bidder_team = team_of[bidder]
    if rules.king and rules.partners:
        # 13 up, 13 down (açık eşli): a team that takes every trick scores +13, the other -13.
        # (At a solo table KING only ends the match: the deal scores as any other.)
        for s in range(n):
            if unit_tricks[s] == rules.hand_size:
                return [
                    rules.hand_size if team_of[x] == team_of[s] else -rules.hand_size
                    for x in range(n)
                ]
    out = []
    for s in range(n):
        if team_of[s] == bidder_team:
            out.append(_made_score(rules, bid, unit_tricks[s]))
        else:
            out.append(_defender_score(rules, unit_tricks[s], bid))
    return out


def is_king(rules: Rules, tricks: Sequence[int], *, bidder: int, bid: int) -> bool:
    """True when the KING rule ends the match: the bidder's side bid the maximum and took it all."""
    if not rules.king or bid != rules.hand_size:
        return False
    return sum(tricks[x] for x in rules.team_of(bidder)) == rules.hand_size
