"""Variants of the hard player measured in benchmarks/README.md (and the defaults they were
measured against, where the default has changed since), for rerunning the measurements
(``python benchmarks/decision_loss.py bot_variants:HardWorlds24 hard ...``; in the arena:
``PYTHONPATH=benchmarks batak arena --bots bot_variants:HardWorlds24,medium ...``).

Each changes one thing about :class:`batak.bots.hard.HardPlayer` and nothing else, so that with
the same seed it draws the same worlds as the default wherever the change does not reach.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from batak.bots.bidsim import SimParams, auction_events, auction_loglik, hand_strength
from batak.bots.hard import HardPlayer, Owned, defender_points
from batak.bots.knowledge import (
    Knowledge,
    Weight,
    draw_worlds,
    resample,
    sample_world,
    tempered,
)
from batak.bots.simple import Table
from batak.rules import Rules
from batak.scoring import score


def trick_points(rules: Rules, bidder: int, bid: int, seat: int) -> int:
    """What one more trick is worth to ``seat``, outside the contract, by the table's own
    scoring (its second trick over its first); 1 where a trick scores nothing."""
    two, one = (defender_points(rules, bidder, bid, seat, k) for k in (2, 1))
    return two - one if two > one else 1


class HardWorlds24(HardPlayer):
    """24 worlds for the decisions of 9 cards and fewer, the default until 2026-12-02 (now 48,
    :data:`batak.bots.hard.WORLDS`)."""

    name = "hard-worlds-24"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["worlds"] = 24
        super().__init__(seed=seed, **options)


class HardDeclarerWorlds16(HardPlayer):
    """The declarer's 10- to 12-card decisions at a table without partners over at most 16
    worlds with 6 million nodes (the default: 8 and 3 million, :data:`DECLARER_WIDE`)."""

    name = "hard-declarer-worlds-16"

    def reach(self, t: Table) -> tuple[int, int, int]:
        r = super().reach(t)
        if self.declarer_wide is not None and r == self.declarer_wide:
            return r[0], 16, 6_000_000
        return r


class HardEveryoneFrom12(HardPlayer):
    """Every seat, the defenders too, searches from 12 cards at a table without partners (the
    default: the declarer only; defenders from 10)."""

    name = "hard-everyone-from-12"

    def reach(self, t: Table) -> tuple[int, int, int]:
        if not t.rules.partners and self.declarer_wide is not None:
            return self.declarer_wide
        return super().reach(t)


class HardDeclarerFrom13(HardPlayer):
    """The declarer at a table without partners searches from 13 cards (its opening lead when
    it leads the first trick), at most 8 worlds with 6 million nodes; the rest as the default."""

    name = "hard-declarer-from-13"

    def reach(self, t: Table) -> tuple[int, int, int]:
        r = super().reach(t)
        if self.declarer_wide is not None and r == self.declarer_wide:
            return 13, r[1], 6_000_000
        return r


class HardOpeningLead24(HardPlayer):
    """The declarer at a table without partners also searches its 13-card decisions (its
    opening lead when it leads the first trick) over at most 24 worlds with 6 million nodes,
    three times :class:`HardDeclarerFrom13`'s 8 worlds, which the faster solver now affords;
    its 12- to 10-card decisions as the default (:data:`batak.bots.hard.DECLARER_WIDE`)."""

    name = "hard-opening-lead-24"
    lead_worlds = 24
    lead_budget = 6_000_000

    def reach(self, t: Table) -> tuple[int, int, int]:
        r = super().reach(t)
        if self.declarer_wide is not None and r == self.declarer_wide:
            assert t.seat is not None
            if t.hand_sizes[t.seat] == 13:
                return 13, self.lead_worlds, self.lead_budget
            return 13, r[1], r[2]
        return r


class HardDeclaringSideFrom12(HardPlayer):
    """At a table with partners, both partners of the declaring side search from 12 cards (at
    most 8 worlds, 3 million nodes), as the declarer does without partners; defenders as the
    default (from 11 cards, :data:`PARTNER_WIDE`)."""

    name = "hard-declaring-side-from-12"

    def reach(self, t: Table) -> tuple[int, int, int]:
        if (
            t.rules.partners
            and self.declarer_wide is not None
            and t.bidder is not None
            and t.seat in t.rules.team_of(t.bidder)
        ):
            return self.declarer_wide
        return super().reach(t)


class HardNoZeroTrick(HardPlayer):
    """A defender counts only its side's tricks and the contract, not what ending the deal
    without a trick of its own costs it (the default until 2026-12-02; now ``zero_trick``,
    :meth:`batak.bots.hard.HardPlayer._zero_cost`). The arena runs of benchmarks/README.md
    measured the default as ``bot_variants:HardZeroTrick``, which it now is."""

    name = "hard-no-zero-trick"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["zero_trick"] = False
        super().__init__(seed=seed, **options)


class HardPressZero(HardPlayer):
    """As the default, and the declarer at a table without partners also counts a defender
    that it can keep without a trick: a third of what that defender loses (its penalty over
    its trick's worth, :meth:`HardPlayer._zero_cost`) for each, a third because a rival's loss
    is shared among the declarer's rivals in a standing (searched for each such defender
    alone against the other three, double dummy: an optimistic count)."""

    name = "hard-press-zero"

    def _zero_watch(self, t: Table, seat: int, side: frozenset[int]) -> list[tuple[int, float]]:
        watch = super()._zero_watch(t, seat, side)
        if t.rules.partners or t.bidder != seat:
            return watch
        for other in range(t.n):
            if other != seat:
                cost = self._zero_cost(t, other, self._side(t, other))
                if cost:
                    watch.append((other, cost / (t.n - 1)))
        return watch


class HardStanding(HardPlayer):
    """The declarer at a table without partners values the end of the deal by its standing, in
    the table's own points: its score as the score sheet counts it (made or down), less the
    mean of the others' (what their tricks are worth; the zero-trick penalty left out), over
    what a defender's trick is worth. The default counts its tricks plus twice the bid for
    making the contract, which at a Sultan table (made 10 x the bid, down minus as much, a
    point an overtrick) weighs an overtrick ten times more against the contract than the
    score sheet does."""

    name = "hard-standing"

    def _utility(self, t: Table, side: frozenset[int], seat: int, side_tricks: int) -> float:
        rules, bidder, bid = t.rules, t.bidder, t.bid
        if rules.partners or bidder is None or bid is None or bidder not in side:
            return super()._utility(t, side, seat, side_tricks)
        deal_tricks = len(t.tricks) + t.hand_sizes[seat]
        key = (rules, bid, side_tricks, deal_tricks)
        cache: dict[Any, float] = self.__dict__.setdefault("_standing", {})
        if key not in cache:
            counts = [0] * t.n
            counts[bidder] = side_tricks
            own = score(rules, counts, bidder=bidder, bid=bid)[bidder]
            other = (bidder + 1) % t.n
            trick = trick_points(rules, bidder, bid, other)
            others = trick * (deal_tricks - side_tricks) / (t.n - 1)
            cache[key] = (own - others) / trick
        return cache[key]


class HardDefenderStanding(HardPlayer):
    """A defender at a table without partners values the end of the deal by its standing, in
    the table's own points: its own score less the mean of the other three's, over what a
    defender's trick is worth. Its own tricks come from a search of its own (alone against
    the other three, double dummy), the declarer's from the defenders' joint search, and the
    other two defenders share the rest evenly. The default counts the defenders' tricks
    together plus twice the bid for defeating the contract: in a standing a fellow
    defender's trick is a rival's, and the contract's weight against a trick of one's own
    follows the scoring (at a ``standard`` table about half the bid, at a Sultan one about
    five times the bid)."""

    name = "hard-defender-standing"

    def _alone(self, t: Table, seat: int) -> bool:
        rules, bidder = t.rules, t.bidder
        return not rules.partners and bidder is not None and t.bid is not None and seat != bidder

    def _zero_watch(self, t: Table, seat: int, side: frozenset[int]) -> list[tuple[int, float]]:
        if self._alone(t, seat):
            return [(seat, 0.0)]  # its own tricks are searched for in every world
        return super()._zero_watch(t, seat, side)

    def _card_worth(
        self, t: Table, side: frozenset[int], seat: int, side_tricks: int, owns: Owned
    ) -> float:
        if not self._alone(t, seat) or not owns or owns[0][2] is None:
            return super()._card_worth(t, side, seat, side_tricks, owns)
        rules, bidder, bid = t.rules, t.bidder, t.bid
        assert bidder is not None and bid is not None
        mine = t.tricks_won[seat] + owns[0][2]
        deal_tricks = len(t.tricks) + t.hand_sizes[seat]
        declarer = deal_tricks - side_tricks
        others = [s for s in range(t.n) if s not in (seat, bidder)]
        key = (rules, bid, declarer, mine, tuple(t.tricks_won[s] for s in others))
        cache: dict[Any, float] = self.__dict__.setdefault("_standing", {})
        if key not in cache:
            counts = list(t.tricks_won)
            counts[bidder], counts[seat] = declarer, mine
            rest = deal_tricks - declarer - mine - sum(t.tricks_won[s] for s in others)
            for i, s in enumerate(others):  # the rest shared evenly, the odd one to the first
                counts[s] += rest // len(others) + (1 if i < rest % len(others) else 0)
            points = score(rules, counts, bidder=bidder, bid=bid)
            trick = trick_points(rules, bidder, bid, seat)
            rivals = sum(points[s] for s in range(t.n) if s != seat) / (t.n - 1)
            cache[key] = (points[seat] - rivals) / trick
        return cache[key]


class HardTeamStanding(HardPlayer):
    """At a table with partners, both sides value the end of the deal by the difference it
    makes between the two teams' scores, in the table's own points (the team's zero-trick
    penalty included), over twice what a trick is worth (a trick is one more for the team and,
    as often as not, one fewer for the other). The default counts the side's tricks plus twice
    the bid for making or defeating the contract; at a Sultan table (made 10 x the bid, down
    minus as much, a point a trick) the sheet weighs the contract about ten times the bid."""

    name = "hard-team-standing"

    def _zero_watch(self, t: Table, seat: int, side: frozenset[int]) -> list[tuple[int, float]]:
        if t.rules.partners and t.bidder is not None:
            return []  # the team's penalty is in its score already
        return super()._zero_watch(t, seat, side)

    def _utility(self, t: Table, side: frozenset[int], seat: int, side_tricks: int) -> float:
        rules, bidder, bid = t.rules, t.bidder, t.bid
        if not rules.partners or bidder is None or bid is None:
            return super()._utility(t, side, seat, side_tricks)
        deal_tricks = len(t.tricks) + t.hand_sizes[seat]
        key = (rules, bid, bidder in side, side_tricks, deal_tricks)
        cache: dict[Any, float] = self.__dict__.setdefault("_standing", {})
        if key not in cache:
            other = next(s for s in range(t.n) if s not in rules.team_of(bidder))
            counts = [0] * t.n
            declarers = side_tricks if bidder in side else deal_tricks - side_tricks
            counts[bidder], counts[other] = declarers, deal_tricks - declarers
            points = score(rules, counts, bidder=bidder, bid=bid)
            trick = trick_points(rules, bidder, bid, other)
            mine, theirs = (bidder, other) if bidder in side else (other, bidder)
            cache[key] = (points[mine] - points[theirs]) / (2 * trick)
        return cache[key]


class HardDefenderWorlds24(HardPlayer):
    """A defender's 10-card decisions at a table without partners over at most 24 worlds with
    3 million nodes (the default: 12 and 1.5 million)."""

    name = "hard-defender-worlds-24"

    def reach(self, t: Table) -> tuple[int, int, int]:
        r = super().reach(t)
        if r == (self.wide_cards, self.wide_worlds, self.node_budget):
            return r[0], 24, 3_000_000
        return r


class HardContractOnce(HardPlayer):
    """Making or defeating the contract is worth the bid in tricks, not twice the bid
    (:attr:`batak.bots.hard.HardPlayer.contract_weight`): an extra trick weighs more against the
    contract."""

    name = "hard-contract-once"
    contract_weight = 1.0


class HardContractThrice(HardPlayer):
    """Making or defeating the contract is worth three times the bid in tricks, not twice
    (:attr:`batak.bots.hard.HardPlayer.contract_weight`): the contract weighs more against an
    extra trick."""

    name = "hard-contract-thrice"
    contract_weight = 3.0


class HardInfer15(HardPlayer):
    """Reads the others' choices of card half as hard again (``inference=1.5``; the default 1)."""

    name = "hard-infer-1.5"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["inference"] = 1.5
        super().__init__(seed=seed, **options)


class HardInfer07(HardPlayer):
    """Reads the others' choices of card less hard (``inference=0.7``; the default 1)."""

    name = "hard-infer-0.7"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["inference"] = 0.7
        super().__init__(seed=seed, **options)


class HardResampled(HardPlayer):
    """The worlds of a card decision drawn from the weights' own law
    (:func:`batak.bots.knowledge.draw_worlds`: four deals drawn for each kept, kept by how much
    likelier the weights make them than the card-by-card dealing did), each counted as often
    as it was kept (the default: :func:`~batak.bots.knowledge.sample_world`'s deals as dealt)."""

    name = "hard-resampled"

    def _worlds(
        self, knowledge: Knowledge, rng: random.Random, weight: Weight, count: int
    ) -> Iterator[tuple[list[int], float]]:
        for world, times in draw_worlds(knowledge, rng, weight, count):
            yield world, float(times)


class HardSignal15(HardPlayer):
    """Reads a partner's first discard at 1.5 instead of 8: the card it promised one and a half
    times as likely in the partner's hand (the default: 8 times). Measured with
    ``fit_inference.py --preset sultan-esli``: medium partners hold the promised card 1.2 times
    as often as the rules alone say (odds 1.6 times)."""

    name = "hard-signal-15"
    signal_strength = 1.5


class HardSignalFree(HardPlayer):
    """Sends the partners' signal only where it costs nothing: its first discard names a suit
    only when that card is worth as much as the best card over the worlds (the default gives up
    to 0.15 of average worth for it, :data:`batak.bots.hard.SIGNAL_SLACK`)."""

    name = "hard-signal-free"
    signal_slack = 0.0


class HardAuctionWorlds(HardPlayer):
    """Reads the auction hand by hand in the card play, as its bidding simulation does
    (:meth:`batak.bots.bidsim.BidSim.weights`): draws ``auction_pool`` times the worlds a
    decision needs (as the default draws them) and keeps as many as it needs, each in
    proportion to how well the hands it deals, with the cards each seat has played put back,
    explain the others' bids and passes (:func:`batak.bots.bidsim.auction_loglik`, tempered so
    that at least a third of them, or 8, stay in play). The default reads the auction card by
    card only (:func:`batak.bots.knowledge.auction_bias`). Tables without a kitty only (with one,
    a hand at the auction is not the hand at the first lead)."""

    name = "hard-auction-worlds"
    auction_pool = 4

    def _search(self, t: Table, rng: random.Random, deadline: float | None, **kw: Any) -> Any:
        self._table = t
        return super()._search(t, rng, deadline, **kw)

    def _worlds(
        self, knowledge: Knowledge, rng: random.Random, weight: Weight, count: int
    ) -> Iterator[tuple[list[int], float]]:
        t = self._table
        if t.rules.kitty_size or not t.auction:
            yield from super()._worlds(knowledge, rng, weight, count)
            return
        rules = t.rules
        played = t.played_by
        pool = self.auction_pool * count
        drawn = [sample_world(knowledge, rng, weight=weight) for _ in range(pool)]
        events = auction_events(t)
        skip = (t.seat, t.exposed_seat)
        logs = []
        for world in drawn:
            memo: dict[int, float] = {}

            def strength(s: int, world: list[int] = world, memo: dict[int, float] = memo) -> float:
                if s not in memo:
                    memo[s] = hand_strength(world[s] | played[s], rules)
                return memo[s]

            logs.append(auction_loglik(rules, events, strength, skip))
        for i, times in resample(tempered(logs), count, rng):
            yield drawn[i], float(times)


class HardDeclarerAuctionWorlds(HardAuctionWorlds):
    """:class:`HardAuctionWorlds` for the declarer only (the seat that won the auction): its
    worlds explain the defenders' bids and passes hand by hand; every other seat draws its
    worlds as the default does. Session 28's screen was clearest for the declarer in
    ``standard`` (+0.09 tricks a deal), and its arena runs were at partner tables only."""

    name = "hard-declarer-auction-worlds"

    def _worlds(
        self, knowledge: Knowledge, rng: random.Random, weight: Weight, count: int
    ) -> Iterator[tuple[list[int], float]]:
        t = self._table
        if t.bidder is None or t.seat != t.bidder:
            yield from HardPlayer._worlds(self, knowledge, rng, weight, count)
            return
        yield from super()._worlds(knowledge, rng, weight, count)


class HardPartnerRaises(HardPlayer):
    """Bids over its partner's bid whenever the simulation's best bid scores more than passing,
    by however little, and over a partner's bid made over its own, as before 2026-12-07 (the
    default asks a clear gain and raises a partner once: ``SimParams.partner_raise``)."""

    name = "hard-partner-raises"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        options["sim"] = SimParams(partner_raise=0.0)
        super().__init__(seed=seed, **options)
