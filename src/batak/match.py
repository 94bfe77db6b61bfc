"""A match: deals in turn with the dealer moving on, running totals, the score sheet (yazboz),
the end (a number of deals or a target score), the tie rule, and KING.

>>> m = Match("zipi-ihaleli", seed=3)
>>> m.rules.deals
11
>>> while not m.over:
...     moves = m.legal_moves()
...     m.play(moves[1] if m.game.phase == "bidding" and m.game.auction == [] else moves[0])
>>> len([row for row in m.sheet if not row.redeal])
11
>>> m.totals == [sum(r.scores[s] for r in m.sheet if r.scores) for s in range(4)]
True

A finished deal stays in ``m.games``; the match starts the next deal by itself.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .cards import Card
from .game import Game, IllegalMove, Phase, Trick
from .moves import Move
from .rules import Rules
from .scoring import is_king
from .view import view_of

__all__ = ["Match", "ScoreRow", "first_dealer"]


DealCards = tuple[Sequence[Iterable[Card | str] | str], Iterable[Card | str] | str | None]


def first_dealer(
    rules: Rules,
    *,
    seated: Sequence[int] = (),
    lots: int | None = None,
    seed: int | str | bytes | None = None,
) -> int:
    """The seat that deals the first deal, as ``rules.first_dealer`` says.

    ``"first_seated"`` (the chip-table site's açık eşli: "Masaya ilk oturan kişi ilk dağıtıcı
    olur"): the first seat of ``seated`` (seats in the order people sat down), seat 0 if unknown.
    ``"random"`` (CetinsGame: "İlk elde dağıtan kurayla belirlenir"): ``lots`` if the lots were
    already drawn, else a draw: reproducible from ``seed``, secure without one.

    >>> first_dealer(Rules.preset("esli-acik"), seated=[2, 0, 1, 3])
    2
    >>> first_dealer(Rules.preset("standard"), lots=3)
    3
    >>> r = Rules.preset("standard")
    >>> first_dealer(r, seed=1) == first_dealer(r, seed=1)
    True
    """
    n = rules.players
    if rules.first_dealer == "first_seated":
        return seated[0] if seated else 0
    if lots is not None:
        return lots
    if seed is None:
        return secrets.randbelow(n)
    return random.Random(f"first dealer {seed!r}").randrange(n)


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One line of the score sheet: a deal's bidder, bid, trump, tricks and scores per seat."""

    deal: int  # 1-based position among all deals, redeals included
    dealer: int
    bidder: int | None
    bid: int | None
    bids: list[int] | None  # Koz Maça: each seat's own bid
    trump: str | None
    tricks: list[int]
    scores: list[int] | None  # None for a thrown-in deal (redeal)
    totals: list[int]
    redeal: bool = False
    king: bool = False
    extra: bool = False  # a deal played to break a tie
    forced: bool = False  # nobody bid: the table's all_pass rule gave the contract

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> ScoreRow:
        """The row :meth:`to_dict` gave (a server's score sheet), flags left out are false."""
        names = {f.name for f in fields(cls)}
        return cls(**{"bids": None, **{k: v for k, v in row.items() if k in names}})

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "bidder": self.bidder,
            "bid": self.bid,
            "bids": self.bids,
            "trump": self.trump,
            "tricks": self.tricks,
            "scores": self.scores,
            "totals": self.totals,
            "redeal": self.redeal,
            "king": self.king,
            "extra": self.extra,
            "forced": self.forced,
        }


@dataclass
class _Deals:
    """Where the next deal's cards come from: scripted deals, then a seeded or secure shuffle."""

    rng: random.Random | None
    scripted: list[DealCards] = field(default_factory=list)
    #: each deal's own seed, by the deal's index (from 0): deals that can be proven afterwards
    seed_of: Callable[[int], int | str | bytes] | None = None
    dealt: int = 0

    def next_game(self, rules: Rules, dealer: int) -> Game:
        # A seeded match draws one number per deal, scripted or not, so that a match loaded from
        # its record goes on with exactly the deals the original would have had.
        seed: int | str | bytes
        seed = self.rng.getrandbits(64) if self.rng is not None else secrets.randbits(64)
        if self.seed_of is not None:
            seed = self.seed_of(self.dealt)
        self.dealt += 1
        if self.scripted:
            hands, kitty = self.scripted.pop(0)
            return Game(rules, hands=hands, kitty=kitty, dealer=dealer)
        return Game(rules, dealer=dealer, seed=seed)


class Match:
    """A whole match under ``rules`` (a :class:`Rules` or a preset name).

    ``dealer`` deals first (``None``: as ``rules.first_dealer`` says, see :func:`first_dealer`;
    a seeded match draws its lots from the seed); ``seed`` makes every deal reproducible
    (default: secure shuffles). ``deal_seed(k)``, if given, is deal ``k``'s own seed (from 0):
    the server derives each from a secret so that it can reveal one deal's seed after that deal
    and nothing about the others (see docs/protocol.md, "Deals anyone can verify").
    """

    def __init__(
        self,
        rules: Rules | str = "standard",
        *,
        dealer: int | None = 0,
        seed: int | str | bytes | None = None,
        deals: Sequence[DealCards] | None = None,
        deal_seed: Callable[[int], int | str | bytes] | None = None,
    ) -> None:
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        n = self.rules.players
        if dealer is None:
            dealer = first_dealer(self.rules, seed=seed)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.first_dealer = dealer
        self.seed = seed
        self._deals = _Deals(
            random.Random(seed) if seed is not None else None, list(deals or []), deal_seed
        )
        self.sheet: list[ScoreRow] = []
        self.totals = [0] * n
        self.over = False
        self.winners: list[int] = []
        self.extra_deals = 0  # deals added to break a tie
        self.games: list[Game] = [self._deals.next_game(self.rules, dealer)]

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        """The deal being played (the last one once the match is over)."""
        return self.games[-1]

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.game.to_move

    @property
    def deals_scored(self) -> int:
        return sum(1 for row in self.sheet if not row.redeal)

    def legal_moves(self) -> list[Move]:
        return [] if self.over else self.game.legal_moves()

    def view(self, seat: int | None, *, slim: bool = False) -> dict[str, Any]:
        """The current deal's view for ``seat`` plus the match's public state.

        ``last_trick`` carries the number of the deal it was played in (``deal``, 1-based). With
        ``rules.last_trick == "any_time"`` (CetinsGame: "Son löve her an görülebilir") a new
        deal shows the previous deal's last trick until its own first trick is complete.
        ``slim``: without ``rules`` and ``match.sheet``, which do not change during a deal (the
        server sends them once and at each deal's end, not with every move).
        """
        v = view_of(self.game, seat, with_rules=not slim)
        if v["last_trick"] is not None:  # this deal's, a fresh dict: it gets its deal's number
            v["last_trick"]["deal"] = len(self.games)
        else:
            last = self.last_trick()
            v["last_trick"] = None if last is None else {**last[1].to_dict(), "deal": last[0]}
        v["match"] = {
            "deal": len(self.games),
            "deals": self.rules.deals,
            "target_score": self.rules.target_score,
            "totals": list(self.totals),
            "over": self.over,
            "winners": list(self.winners),
            "first_dealer": self.first_dealer,
        }
        if not slim:
            v["match"]["sheet"] = [row.to_dict() for row in self.sheet]
        return v

    def last_trick(self) -> tuple[int, Trick] | None:
        """The last complete trick a player may look at now, with its deal's number (1-based).

        During a deal it is that deal's last trick. Before the first trick of a deal is complete
        it is the last trick of the latest deal that had one if ``rules.last_trick`` is
        ``"any_time"`` (a thrown-in deal has none), else None.
        """
        for k in range(len(self.games) - 1, -1, -1):
            trick = self.games[k].last_trick
            if trick is not None:
                return k + 1, trick
            if self.rules.last_trick != "any_time":
                return None
        return None

    # ------------------------------------------------------------------ moves
    def play(self, move: Move | str, seat: int | None = None) -> None:
        """Play a move in the current deal; when the deal ends, score it and deal the next."""
        if self.over:
            raise IllegalMove("match_over", move)
        game = self.game
        game.play(move, seat)
        if game.phase is Phase.OVER:
            self._deal_over(game)

    def _deal_over(self, game: Game) -> None:
        r = self.rules
        n = r.players
        contract = game.contract
        if game.redeal:
            self.sheet.append(
                ScoreRow(
                    deal=len(self.games),
                    dealer=game.dealer,
                    bidder=None,
                    bid=None,
                    bids=None,
                    trump=None,
                    tricks=[0] * n,
                    scores=None,
                    totals=list(self.totals),
                    redeal=True,
                )
            )
            # a thrown-in deal: the same dealer deals again, or the next one (rules.redeal_dealer)
            dealer = game.dealer if r.redeal_dealer == "same" else (game.dealer + 1) % n
            self.games.append(self._deals.next_game(r, dealer))
            return
        scores = game.scores
        assert scores is not None
        for s in range(n):
            self.totals[s] += scores[s]
        king = contract is not None and is_king(
            r, game.tricks_won, bidder=contract.bidder, bid=contract.bid
        )
        extra = self.extra_deals > 0  # a tie was found before this deal: it breaks the tie
        self.sheet.append(
            ScoreRow(
                deal=len(self.games),
                dealer=game.dealer,
                bidder=contract.bidder if contract else None,
                bid=contract.bid if contract else None,
                bids=[b or 0 for b in game.bids] if r.bidding == "kozmaca" else None,
                trump=game.trump.value if game.trump else None,
                tricks=game.tricks_won,
                scores=list(scores),
                totals=list(self.totals),
                king=king,
                extra=extra,
                forced=game.contract_given,
            )
        )
        if king:
            assert contract is not None
            self._finish(list(r.team_of(contract.bidder)))
            return
        if self._decide(game):
            return
        self.games.append(self._deals.next_game(r, (game.dealer + 1) % n))

    def _units(self) -> list[tuple[int, ...]]:
        return list(self.rules.teams)

    def _decide(self, last: Game) -> bool:
        """End the match if its length or target is reached and the tie rule settles it."""
        r = self.rules
        reached = (r.deals is not None and self.deals_scored >= r.deals) or (
            r.target_score is not None and max(self.totals) >= r.target_score
        )
        if not reached:
            return False
        units = self._units()
        best = max(self.totals[u[0]] for u in units)
        leaders = [u for u in units if self.totals[u[0]] == best]
        if len(leaders) > 1:
            if r.tie == "extra_deal":
                self.extra_deals += 1
                return False
            if r.tie == "last_deal_tricks":
                tricks = last.tricks_won
                most = max(sum(tricks[s] for s in u) for u in leaders)
                leaders = [u for u in leaders if sum(tricks[s] for s in u) == most]
        self._finish(sorted(s for u in leaders for s in u))
        return True

    def _finish(self, winners: list[int]) -> None:
        self.over = True
        self.winners = winners

    def __repr__(self) -> str:
        state = "over" if self.over else f"deal {len(self.games)}"
        return f"<Match {self.rules.name} {state} totals={self.totals}>"
