"""The double-dummy solver: the Python reference against a brute-force minimax written from the
Game API alone, the compiled twin against the reference, and the solver's own consistency.

Every random position is reached through ``Game`` (seeded deals, seeded random legal play), so
the trump-broken flag, the trick on the table and the hands are ones the engine can produce.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterable
from typing import Any

import pytest

from batak import Rules
from batak.bots import solver as S
from batak.bots.solver import Position, card_values, solve, solve_position
from batak.cards import Card, cards_of
from batak.game import Game, Phase

HAVE_C = S.c_engine_available()
needs_c = pytest.mark.skipif(not HAVE_C, reason="the compiled solver _csolver is not built")

PRESETS = Rules.preset_names()
FLIPS = ("overtake", "overtake_after_ruff", "overtrump", "trump_if_cannot_overtrump", "must_trump")


def honourable(r: Rules, changes: dict[str, object]) -> Rules:
    """``r`` with ``changes``, less the qualifying options Rules refuses once the option they
    qualify is off (overtake_after_ruff needs overtake; a free discard needs overtrump and a
    compulsory trump).
    Overtake off with overtrump on stays: the two are independent."""
    want = {o: changes.get(o, getattr(r, o)) for o in FLIPS}
    fixed = dict(changes)
    if want["overtake_after_ruff"] and not want["overtake"]:
        fixed["overtake_after_ruff"] = False
    if not want["trump_if_cannot_overtrump"] and not (want["overtrump"] and want["must_trump"]):
        fixed["trump_if_cannot_overtrump"] = True
    return r.replace(**fixed) if fixed else r


# ---------------------------------------------------------------------- random positions
def random_rules(rng: random.Random) -> Rules:
    """A preset with some play options flipped at random."""
    r = Rules.preset(rng.choice(PRESETS))
    changes: dict[str, object] = {o: not getattr(r, o) for o in FLIPS if rng.random() < 0.3}
    if rng.random() < 0.3:
        changes["trump_lead"] = rng.choice(["after_broken", "any_time"])
    if rng.random() < 0.3:
        changes["broken_by"] = rng.choice(["any_trump", "ruff"])
    return honourable(r, changes)


def _to_play_phase(g: Game, rng: random.Random) -> bool:
    """Drive the auction / bury / trump choice with random legal moves; False on a redeal."""
    while g.phase is not Phase.PLAY:
        if g.phase is Phase.OVER:
            return False
        moves = g.legal_moves()
        if g.phase is Phase.BIDDING and str(moves[0]) == "pass" and len(moves) > 1:
            g.play(moves[0] if rng.random() < 0.6 else moves[1])
        else:
            g.play(rng.choice(moves))
    return True


def random_game(
    rng: random.Random, rules: Rules, cards: int, *, extra_tricks: int = 0, mid_trick: bool = True
) -> Game:
    """A game in the card play with ``cards`` cards per hand at a trick start (after
    ``extra_tricks`` random tricks), then maybe some cards of the next trick."""
    n = rules.players
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        size = cards + extra_tricks
        hands = [cards_of(sum(1 << c for c in deck[s * size : (s + 1) * size])) for s in range(n)]
        kitty = cards_of(sum(1 << c for c in deck[n * size : n * size + rules.kitty_size]))
        g = Game(
            rules, hands=hands, kitty=kitty if rules.kitty_size else None, dealer=rng.randrange(n)
        )
        if not _to_play_phase(g, rng):
            continue
        for _ in range(extra_tricks * n):
            g.play(rng.choice(g.legal_moves()))
        if mid_trick:
            for _ in range(rng.randrange(n)):
                g.play(rng.choice(g.legal_moves()))
        return g


def random_side(rng: random.Random, g: Game) -> frozenset[int]:
    if rng.random() < 0.5 and g.contract is not None:
        return frozenset(g.rules.team_of(g.contract.bidder))
    return frozenset(g.rules.team_of(rng.randrange(g.players)))


# ---------------------------------------------------------------------- brute force
def brute_force(game: Game, side: Iterable[int]) -> int:
    """Minimax over every legal card from the Game API alone: the side's total tricks."""
    side = frozenset(side)
    memo: dict[tuple[object, ...], int] = {}

    def value(g: Game) -> int:
        if g.phase is Phase.OVER:
            return sum(g.tricks_won[s] for s in side)
        # the state that decides the rest of the deal (a cache only: every line is still played)
        key = (
            tuple(tuple(h) for h in g.hands),
            tuple(g.current_trick),
            g.to_move,
            g.trumps_broken,
            tuple(g.tricks_won),
        )
        if key in memo:
            return memo[key]
        results = []
        for move in g.legal_moves():
            child = g.copy()
            child.play(move)
            results.append(value(child))
        best = max(results) if g.to_move in side else min(results)
        memo[key] = best
        return best

    return value(game)


# ---------------------------------------------------------------------- (1) reference = brute force
@pytest.mark.parametrize("preset", PRESETS)
def test_reference_matches_brute_force(preset: str) -> None:
    rng = random.Random(f"brute-{preset}")
    for i in range(24):
        rules = Rules.preset(preset) if i < 4 else random_rules_from(rng, preset)
        cards = rng.choice((2, 2, 3, 3, 3, 4))
        extra = rng.choice((0, 0, 1, 2))
        g = random_game(rng, rules, cards, extra_tricks=extra, mid_trick=i % 3 != 0)
        side = random_side(rng, g)
        expected = brute_force(g, side)
        assert solve(g, side, engine="python") == expected, (preset, i, g.hands, g.current_trick)


def random_rules_from(rng: random.Random, preset: str) -> Rules:
    r = Rules.preset(preset)
    changes: dict[str, object] = {o: rng.random() < 0.5 for o in FLIPS}
    changes["trump_lead"] = rng.choice(["after_broken", "any_time"])
    changes["broken_by"] = rng.choice(["any_trump", "ruff"])
    return honourable(r, changes)


def test_reference_matches_brute_force_three_players_and_no_trump() -> None:
    """Kitty batak (3 players) with every option flipped, and positions without a trump."""
    rng = random.Random("brute-3p")
    for i in range(40):
        rules = random_rules_from(rng, "zipi-kitty")
        g = random_game(rng, rules, rng.choice((2, 3, 4)), extra_tricks=rng.choice((0, 1)))
        side = random_side(rng, g)
        assert solve(g, side, engine="python") == brute_force(g, side), i
    for i in range(20):  # trump = -1 is not reachable through Game: compare Position solves
        rules = random_rules(rng)
        pos = _no_trump_position(rng, rules, rng.choice((2, 3)))
        assert solve_position(pos, engine="python") == _brute_position(pos), i


def _no_trump_position(rng: random.Random, rules: Rules, cards: int) -> Position:
    n = rules.players
    deck = rng.sample(range(52), n * cards)
    hands = tuple(sum(1 << c for c in deck[s * cards : (s + 1) * cards]) for s in range(n))
    side = frozenset(rules.team_of(rng.randrange(n)))
    return Position(rules, hands, -1, rng.randrange(n), (), False, side, 0)


def _brute_position(pos: Position) -> int:
    """Brute force over a Position without a trump (follow suit and overtake only apply)."""
    n = pos.rules.players
    overtake = pos.rules.overtake

    def value(hands: tuple[int, ...], leader: int, trick: tuple[int, ...]) -> int:
        if not hands[leader] and not trick:
            return 0
        seat = (leader + len(trick)) % n
        h = hands[seat]
        legal = h
        if trick:
            lead = trick[0] // 13
            same = [c for c in cards_of(h) if c.index // 13 == lead]
            if same:
                legal = sum(c.mask for c in same)
                hi = max(c for c in trick if c // 13 == lead)
                higher = [c for c in same if c.index > hi]
                if overtake and higher:
                    legal = sum(c.mask for c in higher)
        results = []
        for c in cards_of(legal):
            nh = list(hands)
            nh[seat] &= ~c.mask
            t = (*trick, c.index)
            if len(t) == n:
                lead = t[0] // 13
                best = max(range(n), key=lambda i: t[i] if t[i] // 13 == lead else -1)
                winner = (leader + best) % n
                results.append((winner in pos.side) + value(tuple(nh), winner, ()))
            else:
                results.append(value(tuple(nh), leader, t))
        return max(results) if seat in pos.side else min(results)

    return value(pos.hands, pos.leader, pos.trick)


# ---------------------------------------------------------------------- relative ranks
def _relabel(rng: random.Random, pos: Position) -> Position:
    """The same position with each suit's remaining cards moved to other ranks, keeping their
    order: the game from a trick start cannot tell the difference."""
    remaining = 0
    for h in pos.hands:
        remaining |= h
    mapping: dict[int, int] = {}
    for suit in range(4):
        cards = [c for c in range(suit * 13, suit * 13 + 13) if remaining >> c & 1]
        targets = sorted(rng.sample(range(suit * 13, suit * 13 + 13), len(cards)))
        mapping.update(zip(cards, targets, strict=True))
    hands = tuple(sum(1 << mapping[c] for c in range(52) if h >> c & 1) for h in pos.hands)
    return Position(pos.rules, hands, pos.trump, pos.leader, (), pos.broken, pos.side, 0)


def test_value_depends_only_on_relative_ranks() -> None:
    """Why the compiled solver may key its table on relative ranks: the reference solver (whose
    table uses the real cards) gives the same value to order-preserving relabellings."""
    rng = random.Random("relative")
    for i in range(150):
        g = random_game(
            rng, random_rules(rng), rng.choice((3, 4, 5)), extra_tricks=2, mid_trick=False
        )
        pos = Position.from_game(g, random_side(rng, g))
        pos = Position(pos.rules, pos.hands, pos.trump, pos.leader, (), pos.broken, pos.side, 0)
        base = solve_position(pos, engine="python")
        for _ in range(2):
            assert solve_position(_relabel(rng, pos), engine="python") == base, i


# ---------------------------------------------------------------------- (2) C = reference
def _positions(seed: str, count: int, sizes: tuple[int, ...]) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rules = random_rules(rng)
        g = random_game(rng, rules, rng.choice(sizes), extra_tricks=rng.choice((0, 1, 2)))
        out.append(Position.from_game(g, random_side(rng, g)))
    return out


@needs_c
@pytest.mark.parametrize("chunk", range(4))
def test_c_matches_reference(chunk: int) -> None:
    for i, pos in enumerate(_positions(f"c-vs-py-{chunk}", 500, (4, 4, 5, 5, 5, 6, 6, 7))):
        want = solve_position(pos, engine="python")
        assert solve_position(pos, engine="c") == want, (chunk, i, pos)


@needs_c
def test_c_matches_reference_without_trump_and_relabelled() -> None:
    rng = random.Random("c-no-trump")
    for i in range(200):
        rules = random_rules(rng)
        pos = _no_trump_position(rng, rules, rng.choice((4, 5, 6)))
        assert solve_position(pos, engine="c") == solve_position(pos, engine="python"), i
        moved = _relabel(rng, pos)
        assert solve_position(moved, engine="c") == solve_position(pos, engine="c"), i


@needs_c
@pytest.mark.parametrize("chunk", range(2))
def test_c_matches_reference_on_bigger_hands(chunk: int) -> None:
    """8 and 9 cards per hand, where the compiled solver's bounds, table and move ordering cut
    most (the reference takes up to a few seconds on some of these: 24 positions per chunk)."""
    for i, pos in enumerate(_positions(f"c-vs-py-big-{chunk}", 24, (8, 8, 9))):
        want = solve_position(pos, engine="python")
        assert solve_position(pos, engine="c") == want, (chunk, i, pos)


def _one_trump_holder(rng: random.Random, rules: Rules, cards: int) -> Position:
    """A position where one player holds every trump left (the compiled solver counts that
    player's runs of top cards as sure tricks), sometimes with the lead elsewhere."""
    n = rules.players
    trump = rng.randrange(4)
    holder = rng.randrange(n)
    trumps = [c for c in range(trump * 13, trump * 13 + 13)]
    others = [c for c in range(52) if c // 13 != trump]
    rng.shuffle(others)
    mine = rng.sample(trumps, rng.randint(1, min(cards, 4)))
    deck = others[: n * cards - len(mine)]
    hands = []
    for s in range(n):
        take = cards - (len(mine) if s == holder else 0)
        hand, deck = deck[:take], deck[take:]
        hands.append(sum(1 << c for c in hand + (mine if s == holder else [])))
    side = frozenset(rules.team_of(rng.randrange(n)))
    leader = rng.randrange(n)
    broken = rng.random() < 0.5
    return Position(rules, tuple(hands), trump, leader, (), broken, side, 0)


@needs_c
def test_c_matches_reference_with_one_trump_holder() -> None:
    rng = random.Random("one-trump-holder")
    for i in range(150):
        pos = _one_trump_holder(rng, random_rules(rng), rng.choice((4, 5, 6, 7)))
        assert solve_position(pos, engine="c") == solve_position(pos, engine="python"), (i, pos)


def _lone_side_not_on_lead(rng: random.Random, rules: Rules, cards: int) -> Position:
    """A position where a player alone in its team holds high trumps and the top cards of
    other suits while the others, some holding lower trumps, have the lead (the compiled solver
    counts such a player's top cards that nobody can ruff as sure tricks once a trump of its has
    won)."""
    n = rules.players
    trump = rng.randrange(4)
    holder = rng.randrange(n)
    by_rank = sorted(range(52), key=lambda c: -(c % 13))
    tops = [c for c in by_rank[:16] if c // 13 != trump]
    trumps = list(range(trump * 13 + 12, trump * 13 - 1, -1))
    mine = trumps[: rng.randint(1, 3)] if rng.random() < 0.7 else trumps[1 : rng.randint(2, 4)]
    mine += rng.sample(tops, rng.randint(1, min(4, cards - len(mine))))
    rest = [c for c in range(52) if c not in mine]
    rng.shuffle(rest)
    mine += rest[: cards - len(mine)]
    deck = [c for c in rest if c not in mine][: (n - 1) * cards]
    hands = []
    for s in range(n):
        if s == holder:
            hands.append(sum(1 << c for c in mine))
        else:
            hand, deck = deck[:cards], deck[cards:]
            hands.append(sum(1 << c for c in hand))
    leader = rng.choice([s for s in range(n) if s != holder])
    side = frozenset({holder})
    return Position(rules, tuple(hands), trump, leader, (), rng.random() < 0.5, side, 0)


@needs_c
def test_c_matches_reference_with_a_lone_side_not_on_lead() -> None:
    rng = random.Random("lone-side")
    checked = 0
    for i in range(400):
        rules = random_rules(rng)
        if len(rules.team_of(0)) != 1:
            continue
        pos = _lone_side_not_on_lead(rng, rules, rng.choice((4, 5, 6, 7)))
        assert solve_position(pos, engine="c") == solve_position(pos, engine="python"), (i, pos)
        checked += 1
    assert checked > 100


def _dealt_around(
    rng: random.Random, n: int, mine: dict[int, list[int]], cards: int
) -> tuple[int, ...]:
    """``n`` hands of ``cards`` cards as bit masks: each seat's cards of ``mine`` (as many as fit)
    and then cards dealt at random from those nobody was given."""
    rest = [c for c in range(52) if all(c not in m for m in mine.values())]
    rng.shuffle(rest)
    hands = []
    for s in range(n):
        hand = mine.get(s, [])[:cards]
        take = cards - len(hand)
        hand, rest = hand + rest[:take], rest[take:]
        hands.append(sum(1 << c for c in hand))
    return tuple(hands)


def _lead_to_partner(rng: random.Random, rules: Rules, cards: int) -> Position:
    """A position where a team of two is on lead and the leader's partner holds the top cards of
    one or two side suits in which the leader holds low cards (the compiled solver counts a lead
    to the partner's top card that no opponent can ruff, and the partner's quick tricks from its
    lead, as sure tricks for the team), while the opponents are short of those suits or hold
    trumps now and then."""
    n = rules.players
    trump = rng.randrange(-1, 4)
    leader = rng.randrange(n)
    team = sorted(rules.team_of(leader))
    if len(team) == 2:
        partner = team[0] if team[1] == leader else team[1]
        side = frozenset(team)
    else:  # the other players of a table of three, or two seats chosen at a table of four
        partner = rng.choice([s for s in range(n) if s != leader])
        side = frozenset({leader, partner})
    suits = [s for s in range(4) if s != trump]
    entries = rng.sample(suits, rng.randint(1, 2))
    mine = {leader: [], partner: []}
    for su in entries:
        mine[partner] += [su * 13 + 12 - r for r in range(rng.randint(1, 2))]
        mine[leader] += rng.sample([su * 13 + r for r in range(6)], rng.randint(1, 2))
    if trump >= 0 and rng.random() < 0.7:  # the partner's top trumps: quick tricks after the entry
        mine[partner] += [trump * 13 + 12 - r for r in range(rng.randint(1, 2))]
    hands = _dealt_around(rng, n, mine, cards)
    return Position(rules, hands, trump, leader, (), rng.random() < 0.5, side, 0)


@needs_c
def test_c_matches_reference_with_a_lead_to_the_partner() -> None:
    rng = random.Random("lead-to-partner")
    for i in range(500):
        pos = _lead_to_partner(rng, random_rules(rng), rng.choice((4, 5, 6, 7)))
        assert solve_position(pos, engine="c") == solve_position(pos, engine="python"), (i, pos)


def _partner_trumps_after_the_leaders(rng: random.Random, rules: Rules, cards: int) -> Position:
    """A position where the leader holds the top trumps (or none of them) and top cards of side
    suits, and a teammate holds the trumps just below, some opponents holding lower ones (the
    compiled solver's leader's plan counts, after the leader's top trumps and runs, the
    teammate's remaining trumps that win against the other team's as well as the leader's own)."""
    n = rules.players
    trump = rng.randrange(4)
    leader = rng.randrange(n)
    team = frozenset(rules.team_of(leader))
    if len(team) == 1:  # no partners at this table: the leader and one other seat as a team
        team = frozenset({leader, rng.choice([s for s in range(n) if s != leader])})
    mate = rng.choice(sorted(team - {leader}))
    trumps = [trump * 13 + r for r in range(12, -1, -1)]
    tops = rng.randint(0, 2)
    mine = {leader: trumps[:tops], mate: []}
    below = trumps[tops + rng.randint(0, 1) :]  # an opponent may hold the trump in between
    mine[mate] = below[: rng.randint(1, min(4, cards))]
    side_tops = [s * 13 + 12 - r for s in range(4) if s != trump for r in range(2)]
    mine[leader] += rng.sample(side_tops, rng.randint(0, min(2, cards - len(mine[leader]))))
    hands = _dealt_around(rng, n, mine, cards)
    side = team if rng.random() < 0.5 else frozenset(range(n)) - team
    return Position(rules, hands, trump, leader, (), rng.random() < 0.5, side, 0)


@needs_c
def test_c_matches_reference_with_a_teammates_trumps_after_the_leaders() -> None:
    rng = random.Random("teammate-trumps")
    for i in range(400):
        pos = _partner_trumps_after_the_leaders(rng, random_rules(rng), rng.choice((4, 5, 6, 7)))
        assert solve_position(pos, engine="c") == solve_position(pos, engine="python"), (i, pos)


@needs_c
def test_c_consistent_on_big_hands() -> None:
    """Beyond the reference's reach (10 to 12 cards): the value is the mover's best card value
    (one shared table for the cards, a fresh one for the position), and a table kept across
    the positions answers like a fresh one."""
    from batak.bots import _csolver

    rng = random.Random("c-big")
    table = _csolver.Solver(18)
    for i in range(12):
        g = random_game(rng, random_rules(rng), rng.choice((10, 11, 12)), extra_tricks=0)
        side = random_side(rng, g)
        values = card_values(g, side, engine="c")
        pick = max if g.to_move in side else min
        value = solve(g, side, engine="c")
        assert value == pick(values.values()), i
        pos = Position.from_game(g, side)
        assert pos.side_tricks + S._solve_c(pos, table) == value, i


@needs_c
def test_c_table_reuse_across_positions_and_options() -> None:
    """One ``_csolver.Solver`` over many unrelated positions (other trumps, sides, options, player
    counts) answers like a fresh table each time."""
    from batak.bots import _csolver

    table = _csolver.Solver(14)  # small: entries are replaced often
    for i, pos in enumerate(_positions("reuse", 400, (4, 5, 6))):
        assert pos.side_tricks + S._solve_c(pos, table) == solve_position(pos, engine="c"), i
    assert table.nodes > 0


@needs_c
def test_c_gives_up_past_max_nodes_and_its_table_stays_sound() -> None:
    """``Solver.solve(..., max_nodes=N)`` returns None once it has searched N nodes without an
    answer (the hard player's bound on one decision); what the table learnt until then is true:
    the same table then answers every position as a fresh one does."""
    from batak.bots import _csolver

    table = _csolver.Solver(12)
    gave_up = 0
    for i, pos in enumerate(_positions("max-nodes", 80, (6, 7))):
        args = S._c_args(pos)
        fresh = _csolver.solve(*args, S._c_tt_bits(pos))
        before = table.nodes
        cut = table.solve(*args, max_nodes=40)
        used = table.nodes - before
        if cut is None:
            gave_up += 1
            assert used == 41, i  # stopped at the first node past the limit
        else:
            assert cut == fresh and used <= 40, i
        assert table.solve(*args) == fresh, i  # goes on from what the table holds
        assert table.solve(*args, max_nodes=0) == fresh, i  # 0: no limit
    assert gave_up > 10  # the limit was reached often enough to test something


#: Full deals of benchmarks/solver_speed.py as the compiled solver takes them (hands, koz,
#: leader, trick, broken, side, flags): seed 5 for the bidder alone (``standard``), seeds 8, 6, 9,
#: 20 and 3 for the bidder's partnership (eşli); their values, and the most nodes each may search.
_FULL_DEALS = (
    (
        (4232364020730368, 23961686036, 39755316208097, 231456328745994),
        3, 0, (), False, 1, 29, 9, 90_000,
    ),
    (
        (3395567122517072, 12138791371272, 779230010933379, 316663702548772),
        1, 3, (), False, 10, 29, 9, 100_000,
    ),
    (
        (573674910417040, 2304602678783240, 494814695657538, 1130507342512677),
        2, 3, (), False, 10, 29, 7, 40_000,
    ),
    (
        (510322680578048, 570715325936192, 1161136237970590, 2261425382885665),
        0, 3, (), False, 10, 29, 7, 440_000,
    ),
    (
        (316833321076768, 140742492205197, 2276840817295632, 1769182996792898),
        1, 0, (), False, 5, 29, 9, 110_000,
    ),
    (
        (2251873705274440, 448611500818470, 570131307647616, 1232983113629969),
        2, 0, (), False, 5, 29, 9, 345_000,
    ),
)  # fmt: skip


@needs_c
@pytest.mark.parametrize(
    "deal",
    _FULL_DEALS,
    ids=["standard-seed5", "esli-seed8", "esli-seed6", "esli-seed9", "esli-seed20", "esli-seed3"],
)
def test_c_full_deal_node_counts(deal: tuple[Any, ...]) -> None:
    """The leads' order keeps these full deals' searches small (nodes, not time: the count does
    not depend on the machine's load). Anyone's sure trumps come after the history of leads
    that cut (since session 46 but a lone leader's where it holds the most trumps, in searches
    from 11 tricks or fewer); every sure side-suit winner comes first.
    With every sure winner first (the order before), the first two took 129,622 and 190,062
    nodes; with that change alone 50,670 and 45,545. A team of two then leads low towards the
    partner's top card of a side suit no opponent can ruff: without that, the third took 56,258
    nodes (54,416 with the order before); with both, 50,670, 41,157 and 23,349. A team of two
    on lead also counts a lead to the partner's top card of a side suit no opponent can ruff
    and the partner's quick tricks from there (team_bounds' via_partner): without it, the two
    biggest pair deals of seeds 1-20 here, 9 and 20, took 514,189 and 190,513 nodes; with it
    429,102 and 104,954 (and the first three 50,670, 41,155 and 22,403). The leader's plan of a
    team of two then counts its partner's trumps left after the leader's top trumps and runs
    when they win more than the leader's own (session 45): without that, seed 3 of the pair
    took 362,707 nodes; with it 333,555 (and the others 50,670, 41,149, 22,015, 404,139 and
    102,484). Session 46 put a lone player's sure side-suit winners back before the history
    (test_c_lone_bidder_lead_order_work): the first deal now takes 46,703 nodes."""
    from batak.bots import _csolver

    *args, value, most = deal
    table = _csolver.Solver(20)
    assert table.solve(*args) == value
    assert table.nodes <= most


#: positions of benchmarks/solver_speed.py for the bidder alone against three: the full deal of
#: seed 15 and the 8-card endings of seeds 7 and 11 (the compiled solve's arguments), then the
#: value and the most cards the search may play
_LONE_BIDDER_WORK = (
    (
        (1416484861514032, 2910976363724800, 207943321664, 175930458809999),
        2, 0, (), False, 1, 29, 4, 1_500_000,
    ),
    (
        (1127549174483201, 2876331278729216, 356241968726178, 142940807635032),
        3, 3, (), False, 2, 29, 5, 20_000,
    ),
    (
        (2164687896, 4406844063747, 8796128166468, 2322894944210944),
        2, 3, (), True, 8, 29, 7, 6_000,
    ),
)  # fmt: skip


@needs_c
@pytest.mark.parametrize(
    "deal", _LONE_BIDDER_WORK, ids=["full-seed15", "ending-seed7", "ending-seed11"]
)
def test_c_lone_bidder_lead_order_work(deal: tuple[Any, ...]) -> None:
    """The cards the search plays (``Solver.cards``: its work, positions that the bounds settle
    included) for a bidder alone against three stay few with session 46's lead order: a lone
    player's sure winners in the side suits are tried before the history of leads that cut
    again, and, in a search from at most 11 tricks, its sure trump too where it holds more
    trumps than any other player. With session 44's order (the history before both) these
    took 2,394,885, 23,459 and 13,554 cards (now 1,042,946, 17,177 and 3,207); the
    trick-boundary nodes, which leave out what the bounds settle, had hidden that for the two
    endings (2,434 and 1,511 nodes then, 2,806 and 607 now)."""
    from batak.bots import _csolver

    *args, value, most = deal
    table = _csolver.Solver(20)
    assert table.solve(*args) == value
    assert table.nodes < table.cards <= most
    again = table.cards
    table.clear()
    assert table.solve(*args) == value
    assert table.cards == 2 * again  # counted from call to call, as the nodes are


def test_a_first_guess_changes_no_value() -> None:
    """``guess`` orders the zero-window probes (the first asks for at least ``guess`` tricks,
    the next ones step by one from what the last learnt) and never changes the value: every
    guess, from none to beyond the tricks left, in both engines, and in a kept table."""
    rng = random.Random("first-guess")
    for i in range(40):
        rules = Rules.preset(rng.choice(PRESETS)) if i % 2 else random_rules(rng)
        g = random_game(rng, rules, rng.choice((3, 4, 5)), mid_trick=i % 3 == 0)
        pos = Position.from_game(g, random_side(rng, g))
        want = solve_position(pos, engine="python")
        engines = ("python", "c") if HAVE_C else ("python",)
        for guess in range(-1, pos.tricks_left + 3):
            for engine in engines:
                got = solve_position(pos, engine=engine, guess=None if guess < 0 else guess)
                assert got == want, (i, guess, engine)
        if HAVE_C:
            from batak.bots import _csolver

            table = _csolver.Solver(16)
            args = S._c_args(pos)
            for guess in (pos.tricks_left, 0, -1, 99, 1):
                assert pos.side_tricks + table.solve(*args, guess=guess) == want, (i, guess)
                got = _csolver.solve(*args, 16, guess)
                assert pos.side_tricks + got == want, (i, guess)


def test_a_guess_out_of_range_is_clamped() -> None:
    """solve_position moves a guess within 1..tricks left in both engines: a negative one, or
    one beyond a C int (the compiled solver's ``guess`` is one, so it once raised OverflowError
    there while the Python engine answered)."""
    rng = random.Random("guess-out-of-range")
    engines = ("python", "c") if HAVE_C else ("python",)
    for i in range(6):
        g = random_game(rng, Rules.preset(PRESETS[i]), 4, mid_trick=i % 2 == 1)
        pos = Position.from_game(g, random_side(rng, g))
        want = solve_position(pos, engine="python")
        for guess in (-(2**40), -2, 2**31, 10**30):
            for engine in engines:
                assert solve_position(pos, engine=engine, guess=guess) == want, (i, guess, engine)


@needs_c
def test_c_first_guess_saves_probes() -> None:
    """The full deal of seed 3 of benchmarks/solver_speed.py (the bidder alone, 5 tricks): the
    bisection probes 7 (fails), 3, 5 (both reached) and 6 (fails), 5,536,352 cards. From the
    guess 6, one above the value, the first probe fails just above it and the next one proves
    it: 2,793,663 cards. bidsim.first_guess (a greedy play-out, exact from 7 cards, plus one)
    guesses 7 here."""
    from batak.bots import _csolver
    from batak.bots.bidsim import first_guess

    args = ((2251873705274440, 448611500818470, 570131307647616, 1232983113629969),
            2, 0, (), False, 1, 29)  # fmt: skip
    table = _csolver.Solver(20)
    assert table.solve(*args, guess=6) == 5
    assert table.cards <= 3_000_000
    table = _csolver.Solver(20)
    assert table.solve(*args) == 5
    assert table.cards > 5_000_000
    pos = Position(Rules.preset("standard"), args[0], 2, 0, (), False, frozenset({0}), 0)
    assert S._c_args(pos) == args
    assert first_guess(pos) == 7


#: 8-card endings of benchmarks/solver_speed.py, the bidder alone against three (seeds 3 and 7):
#: the compiled solve's arguments, the value, and the most cards its probes may play
_LONE_ENDINGS = (
    (
        (69525318720, 149535731351558, 565149112029312, 1196424343617808),
        2, 3, (), True, 1, 29, 3, 20_000,
    ),
    (
        (1127549174483201, 2876331278729216, 356241968726178, 142940807635032),
        3, 3, (), False, 2, 29, 5, 12_000,
    ),
)  # fmt: skip


@needs_c
@pytest.mark.parametrize("deal", _LONE_ENDINGS, ids=["ending-seed3", "ending-seed7"])
def test_c_lone_player_probes_step_down_from_its_every_trick(deal: tuple[Any, ...]) -> None:
    """Without a guess, a position of 6 to 12 tricks where one player plays alone against the
    rest starts its probes at the lone player's every trick and steps down from the bound each
    failed probe returns (session 48): the same probes as the guess "all of them" for the lone
    side, or "at least one" for the side against it. The bisection played 31,988 and 17,177
    cards here (and 20,432 and 10,534 asked for the three defenders); from the top, 17,985 and
    10,533 either way."""
    from batak.bots import _csolver

    *args, value, most = deal
    table = _csolver.Solver(20)
    assert table.solve(*args) == value
    assert table.cards <= most
    same = _csolver.Solver(20)
    assert same.solve(*args, guess=8) == value
    assert same.cards == table.cards
    args[5] ^= 15  # the three defenders' side
    others = _csolver.Solver(20)
    assert others.solve(*args) == 8 - value
    assert others.cards <= most
    same = _csolver.Solver(20)
    assert same.solve(*args, guess=1) == 8 - value
    assert same.cards == others.cards


@needs_c
def test_c_pair_full_deal_probes_step_from_half_the_tricks() -> None:
    """Without a guess, a full deal of two teams of two probes first at half the tricks (7 of 13)
    and then steps by one from the bound each probe returns (session 49): the same probes as the
    guess 7. The eşli full deal of seed 3 of benchmarks/solver_speed.py (the bidder's pair, 9
    tricks): the bisection probed 7, 10 (a refutation two above the value, 1,247,626 cards), 8
    and 9, 1,861,708 cards in all; stepping probes 7, 8, 9 and 10, 1,436,246. 13 tricks being
    odd, the other pair's probes ask the same questions, so it plays the same cards (the
    bisection, asked for the other pair, played 1,701,133)."""
    from batak.bots import _csolver

    args = [(2251873705274440, 448611500818470, 570131307647616, 1232983113629969),
            2, 0, (), False, 5, 29]  # fmt: skip
    table = _csolver.Solver(20)
    assert table.solve(*args) == 9
    assert table.cards <= 1_500_000
    same = _csolver.Solver(20)
    assert same.solve(*args, guess=7) == 9
    assert same.cards == table.cards
    args[5] ^= 15  # the other pair
    others = _csolver.Solver(20)
    assert others.solve(*args) == 4
    assert others.cards == table.cards


@needs_c
def test_thread_tables_are_reused_and_start_empty() -> None:
    """solve_position keeps one compiled table per size and thread, cleared at each call: the
    answers are those of a fresh table (the module-level solve), and the table is the same
    object from call to call in a thread, another one in another thread."""
    from batak.bots import _csolver

    for i, pos in enumerate(_positions("thread-tables", 120, (4, 5, 6, 7))):
        fresh = _csolver.solve(*S._c_args(pos), S._c_tt_bits(pos))
        assert solve_position(pos, engine="c") == pos.side_tricks + fresh, i
    mine = S._fresh_table(12)
    assert S._fresh_table(12) is mine
    theirs: list[object] = []
    t = threading.Thread(target=lambda: theirs.append(S._fresh_table(12)))
    t.start()
    t.join()
    assert theirs and theirs[0] is not mine


@needs_c
def test_c_from_threads() -> None:
    """The search releases the GIL and shares nothing: threads get the same answers."""
    positions = _positions("threads", 60, (6, 7))
    want = [solve_position(p, engine="c") for p in positions]
    got: dict[int, int] = {}

    def work(k: int) -> None:
        for i in range(k, len(positions), 4):
            got[i] = solve_position(positions[i], engine="c")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[i] for i in range(len(positions))] == want


@needs_c
def test_c_rejects_bad_input() -> None:
    from batak.bots import _csolver

    hands = (0b111, 0b111000, 0b111000000, 0b111000000000)
    assert _csolver.solve(hands, 0, 0, (), False, 1, 0) in range(4)
    bad: list[tuple[object, ...]] = [
        ((0b111, 0b111, 0b111000000, 0b111000000000), 0, 0, (), False, 1, 0),  # card twice
        ((0b111, 0b11, 0b111000000, 0b111000000000), 0, 0, (), False, 1, 0),  # sizes
        (hands, 4, 0, (), False, 1, 0),  # trump
        (hands, 0, 4, (), False, 1, 0),  # leader
        (hands, 0, 0, (1,), False, 1, 0),  # trick card also in a hand
        (hands[:2], 0, 0, (), False, 1, 0),  # players
        ((1 << 52, 0b111000, 0b111000000, 0b111000000000), 0, 0, (), False, 1, 0),
    ]
    for args in bad:
        with pytest.raises(ValueError):
            _csolver.solve(*args)  # type: ignore[arg-type]


def test_c_engine_is_built_when_required() -> None:
    """In CI (CI=true, where gcc exists) or with BATAK_REQUIRE_C=1 the optional build must not
    fail silently."""
    if os.environ.get("BATAK_REQUIRE_C") != "1" and os.environ.get("CI") != "true":
        pytest.skip("neither CI=true nor BATAK_REQUIRE_C=1 is set")
    assert HAVE_C, "batak.bots._csolver did not build or import"


def test_engine_argument() -> None:
    g = Game("standard", hands=["AS KS 2H", "QS 3H 4H", "JS 5H 6H", "TS 7H 8H"], dealer=3)
    for m in ["bid 4", "pass", "pass", "pass", "trump S"]:
        g.play(m)
    assert solve(g, engine="python") == 2
    with pytest.raises(ValueError):
        solve(g, engine="fortran")
    if HAVE_C:
        assert solve(g, engine="c") == solve(g) == 2
    else:
        with pytest.raises(RuntimeError):
            solve(g, engine="c")


# ---------------------------------------------------------------------- (3) card values agree
@needs_c
def test_card_values_agree_between_engines() -> None:
    rng = random.Random("card-values")
    for i in range(150):
        g = random_game(
            rng, random_rules(rng), rng.choice((3, 4, 5, 6)), extra_tricks=rng.choice((0, 1))
        )
        side = random_side(rng, g) if i % 2 else None
        assert card_values(g, side, engine="c") == card_values(g, side, engine="python"), i


# ---------------------------------------------------------------------- (4) consistency
@pytest.mark.parametrize("engine", ["python", pytest.param("c", marks=needs_c)])
def test_value_is_best_card_value(engine: str) -> None:
    """The position's value is the mover's best card: max for the side, min for the others."""
    rng = random.Random(f"consistent-{engine}")
    for i in range(120 if engine == "python" else 300):
        sizes = (3, 4, 5) if engine == "python" else (4, 5, 6, 7)
        g = random_game(rng, random_rules(rng), rng.choice(sizes), extra_tricks=rng.choice((0, 1)))
        side = random_side(rng, g)
        values = card_values(g, side, engine=engine)
        assert set(values) == set(g.legal_moves())
        pick = max if g.to_move in side else min
        assert solve(g, side, engine=engine) == pick(values.values()), i


def test_card_values_last_card_of_the_deal() -> None:
    g = Game("standard", hands=["AS", "KS", "QS", "JS"], dealer=3)
    for m in ["bid 4", "pass", "pass", "pass", "trump H", "AS", "KS", "QS"]:
        g.play(m)
    assert card_values(g, [0]) == {Card("JS"): 1}
    assert card_values(g) == {Card("JS"): 0}


# ---------------------------------------------------------------------- (3) C = DDS on bridge
def _pbn(hands: tuple[int, ...]) -> str:
    def hand(mask: int) -> str:
        return ".".join(
            "".join("AKQJT98765432"[12 - r] for r in range(12, -1, -1) if mask >> (s * 13 + r) & 1)
            for s in range(4)
        )

    return "N:" + " ".join(hand(h) for h in hands)


@needs_c
def test_c_matches_dds_under_bridge_rules() -> None:
    """An independent check of the compiled search at sizes the reference cannot reach: with
    no compulsory overtaking or trumping and free trump leads (flags=64) Batak's card play is
    bridge's, so the tricks of the leader's partnership must equal DDS's (through endplay,
    when installed) on random deals of 6 to 10 cards a hand, with and without a trump (full
    deals: ``benchmarks/solver_speed.py --bridge``, seconds each under bridge rules)."""
    pytest.importorskip("endplay")
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    from batak.bots import _csolver

    rng = random.Random("c-vs-dds")
    table = _csolver.Solver(20)
    for i in range(80):
        cards = rng.choice((6, 7, 8, 9, 10))
        deck = rng.sample(range(52), 4 * cards)
        hands = tuple(sum(1 << c for c in deck[s * cards : (s + 1) * cards]) for s in range(4))
        trump = rng.randrange(-1, 4)
        leader = rng.randrange(4)
        side = 1 << leader | 1 << (leader + 2) % 4
        deal = Deal(_pbn(hands))
        deal.first = Player(leader)
        deal.trump = Denom(trump if trump >= 0 else 4)
        want = max(t for _, t in solve_board(deal, SolveMode.OptimalOne))
        solver = table.solve if i % 2 else _csolver.solve
        assert solver(hands, trump, leader, (), False, side, 64) == want, (i, hands, trump)
