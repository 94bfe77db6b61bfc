"""A simple, sensible computer player that sees only its seat's view.

:func:`choose` takes the dict of ``game.view(seat)`` (never the :class:`~batak.game.Game`) and
returns one of ``view["legal_moves"]``. It bids from a rough count of its hand (aces, guarded
kings and queens, a long koz suit, short side suits), names its longest and strongest suit as koz,
buries low cards of its short suits in kitty batak, and in the play wins a trick as cheaply as it
can or else plays low.

>>> import random
>>> from batak.game import Game
>>> g = Game("standard", seed=1)
>>> rng = random.Random(0)
>>> while g.phase != "over":
...     move = choose(g.view(g.to_move), rng)
...     assert move in g.view(g.to_move)["legal_moves"]
...     g.play(move)
>>> sum(g.tricks_won)
13
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = ["choose", "estimate_tricks"]

_RANKS = "23456789TJQKA"
_SUITS = "SHDC"


def _rank(card: str) -> int:
    """2 for a two … 14 for an ace."""
    return _RANKS.index(card[0]) + 2


def _suit(card: str) -> str:
    return card[1]


def _by_suit(cards: Iterable[str]) -> dict[str, list[int]]:
    """Ranks held in each suit, highest first."""
    out: dict[str, list[int]] = {s: [] for s in _SUITS}
    for c in cards:
        out[_suit(c)].append(_rank(c))
    for ranks in out.values():
        ranks.sort(reverse=True)
    return out


def _high_card_tricks(ranks: Sequence[int]) -> float:
    """Rough tricks from the top cards of one suit: an ace, a guarded king, a guarded queen."""
    n = len(ranks)
    t = 0.0
    if 14 in ranks:
        t += 1.0
    if 13 in ranks and n >= 2:
        t += 0.9 if 14 in ranks else 0.6
    if 12 in ranks and n >= 3:
        t += 0.5 if (14 in ranks or 13 in ranks) else 0.25
    return t


def estimate_tricks(hand: Iterable[str], trump: str | None, hand_size: int = 13) -> float:
    """A rough count of the tricks ``hand`` takes with ``trump`` as koz (None: no koz yet).

    >>> round(estimate_tricks("AS KS QS JS TS AH KH 2D 3D 4C 5C 6C 7C".split(), "S"))
    6
    """
    suits = _by_suit(hand)
    est = sum(_high_card_tricks(r) for s, r in suits.items() if s != trump)
    if trump is None:
        return est
    trumps = suits[trump]
    est += _high_card_tricks(trumps)
    average = hand_size / 4
    extra = max(0.0, len(trumps) - average)
    est += extra  # long koz: the small ones win once the others run out
    # Short side suits let small trumps ruff, as long as there are trumps to spare.
    spare = max(0, len(trumps) - 2)
    for s, ranks in suits.items():
        if s == trump or not spare:
            continue
        if len(ranks) == 0:
            gain = min(spare, 2) * 0.6
        elif len(ranks) == 1:
            gain = 0.5
        else:
            continue
        est += gain
        spare -= 1
    return est


def _best_trump(hand: Sequence[str], hand_size: int) -> tuple[str, float]:
    """The suit that makes the best koz for ``hand`` and the trick estimate with it."""
    best = max(
        _SUITS,
        key=lambda s: (
            estimate_tricks(hand, s, hand_size),
            sum(1 for c in hand if _suit(c) == s),
            -_SUITS.index(s),
        ),
    )
    return best, estimate_tricks(hand, best, hand_size)


def choose(view: Mapping[str, Any], rng: random.Random) -> str:
    """A legal move for the seat whose view this is (its ``legal_moves`` must not be empty)."""
    legal: list[str] = list(view["legal_moves"])
    if not legal:
        raise ValueError("this seat has no move to make now (legal_moves is empty)")
    phase = view["phase"]
    move: str | None = None
    if phase == "bidding":
        move = _choose_bid(view, legal)
    elif phase == "bury":
        move = _choose_bury(view, legal)
    elif phase == "trump":
        move = _choose_trump(view, legal)
    elif phase == "play":
        move = _choose_card(view, legal, rng)
    if move not in legal:  # never return anything else, whatever the view held
        move = rng.choice(legal)
    return move


# ---------------------------------------------------------------------- bidding and koz
def _choose_bid(view: Mapping[str, Any], legal: list[str]) -> str:
    rules = view["rules"]
    hand: list[str] = view["hand"]
    hand_size = int(rules["hand_size"])
    amounts = sorted(int(m.split()[1]) for m in legal if m.startswith("bid "))
    if not amounts:
        return "pass"
    fixed = rules.get("fixed_trump")
    if fixed:
        est = estimate_tricks(hand, fixed, hand_size)
    else:
        _, est = _best_trump(hand, hand_size)
    if rules["bidding"] == "kozmaca":  # one bid each, at least one trick, no pass
        want = max(1, round(est))
        return f"bid {min(max(want, amounts[0]), amounts[-1])}"
    if rules.get("kitty_size"):
        est += 1.0  # the kitty's cards and the burying help the bidder
    if rules.get("partners"):
        est += hand_size / 4 - 0.75  # the partner usually brings two or three tricks
    low = amounts[0]
    if int(est) >= low:
        return f"bid {low}"
    return "pass" if "pass" in legal else f"bid {low}"


def _choose_trump(view: Mapping[str, Any], legal: list[str]) -> str:
    suit, _ = _best_trump(view["hand"], int(view["rules"]["hand_size"]))
    return f"trump {suit}"


def _choose_bury(view: Mapping[str, Any], legal: list[str]) -> str:
    """Bury a low card of a short side suit; keep koz and aces."""
    hand: list[str] = view["hand"]
    rules = view["rules"]
    trump = rules.get("fixed_trump") or _best_trump(hand, int(rules["hand_size"]))[0]
    lengths = {s: sum(1 for c in hand if _suit(c) == s) for s in _SUITS}
    cards = [m.split()[1] for m in legal if m.startswith("bury ")]
    if not cards:
        return legal[0]

    def keep_value(c: str) -> tuple[int, int, int, int]:
        is_trump = _suit(c) == trump
        return (int(is_trump), int(_rank(c) == 14), lengths[_suit(c)], _rank(c))

    return f"bury {min(cards, key=keep_value)}"


# ---------------------------------------------------------------------- card play
def _beats(card: str, best: str, lead: str, trump: str | None) -> bool:
    """Does ``card`` beat ``best``, the card now winning a trick whose led suit is ``lead``?"""
    cs, bs = _suit(card), _suit(best)
    if cs == bs:
        return _rank(card) > _rank(best)
    return trump is not None and cs == trump


def _winning(cards: Sequence[str], trump: str | None) -> int:
    """The index of the card winning the (partial) trick."""
    lead = _suit(cards[0])
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        if _beats(c, cards[best], lead, trump):
            best = i
    return best


def _choose_card(view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    trump: str | None = view.get("trump")
    trick: list[str] = list(view["current_trick"]["cards"])
    n = int(view["players"])
    seat = view["seat"]
    hand: list[str] = view["hand"]
    lengths = {s: sum(1 for c in hand if _suit(c) == s) for s in _SUITS}

    def low_key(c: str) -> tuple[int, int, int]:
        return (int(_suit(c) == trump), _rank(c), lengths[_suit(c)])

    if not trick:
        return _lead(view, legal, trump, low_key)
    leader = int(view["current_trick"]["leader"])
    win_i = _winning(trick, trump)
    win_seat = (leader + win_i) % n
    lead = _suit(trick[0])
    partner_winning = bool(view["rules"].get("partners")) and win_seat == (seat + 2) % n
    if partner_winning:
        return min(legal, key=low_key)
    winners = [c for c in legal if _beats(c, trick[win_i], lead, trump)]
    if winners:
        return min(winners, key=lambda c: (int(_suit(c) == trump and lead != trump), _rank(c)))
    return min(legal, key=low_key)


def _played_cards(view: Mapping[str, Any]) -> set[str]:
    played: set[str] = set()
    for t in view["tricks"]:
        played.update(t["cards"])
    played.update(view["current_trick"]["cards"])
    return played


def _lead(
    view: Mapping[str, Any],
    legal: list[str],
    trump: str | None,
    low_key: Callable[[str], tuple[int, int, int]],
) -> str:
    """Lead a card that is sure to be the highest left in its suit, else a low card."""
    gone = _played_cards(view) | set(view["hand"])
    bosses = []
    for c in legal:
        higher = [r + _suit(c) for r in _RANKS[_rank(c) - 1 :]]
        if all(h in gone for h in higher):
            bosses.append(c)
    if bosses:
        side = [c for c in bosses if _suit(c) != trump]
        return max(side or bosses, key=_rank)
    return str(min(legal, key=low_key))
