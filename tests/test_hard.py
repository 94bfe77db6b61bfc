"""The hard player (issue 3): legal, deterministic, within a time budget, and really searching.

It samples hidden hands consistent with the view and solves each world double-dummy; it is given
only JSON copies of views, so it cannot reach the game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import batak
import batak.bots
from batak.bots import solver
from batak.bots.hard import (
    DECLARER_WIDE,
    PARTNER_WIDE,
    WIDE_CARDS,
    HardPlayer,
    HardPlayerNarrowDeclarer,
)
from batak.bots.simple import parse_view


def _view(game: batak.Game) -> dict[str, Any]:
    seat = game.to_move
    assert seat is not None
    copied: dict[str, Any] = json.loads(json.dumps(game.view(seat)))
    return copied


@pytest.mark.parametrize(
    "preset", ["standard", "zipi-kitty", "esli-acik", "sultan-kozmaca", "cetinsgame-kozmaca"]
)
def test_hard_plays_a_whole_deal_with_legal_moves(preset: str) -> None:
    game = batak.Game(preset, seed=5)
    bot = batak.bots.get("hard", seed=3, worlds=6)
    searched = 0
    while game.phase != "over":
        view = _view(game)
        move = bot.choose(view)
        assert move in view["legal_moves"]
        searched += isinstance(bot, HardPlayer) and bot.last.searched
        game.play(move)
    assert sum(game.tricks_won) == game.tricks_per_deal
    assert searched > 0, "the hard player never searched a position"


def _late_position(seed: int) -> batak.Game:
    """A standard deal played by medium players until the hands hold five cards."""
    game = batak.Game("standard", seed=seed)
    medium = batak.bots.get("medium", seed=1)
    while game.phase != "play" or len(game.hand(game.to_move or 0)) > 5:
        game.play(medium.choose(_view(game)))
    return game


def test_same_seed_same_view_same_move() -> None:
    game = _late_position(21)
    view = _view(game)
    moves = {batak.bots.get("hard", seed=9).choose(view) for _ in range(3)}
    assert len(moves) == 1


def test_choose_within_a_tiny_budget_still_returns_a_legal_move() -> None:
    game = _late_position(22)
    view = _view(game)
    bot = HardPlayer(seed=1, worlds=500)
    move = bot.choose_within(view, 0.0)
    assert move in view["legal_moves"]
    assert bot.last.worlds < 500  # the deadline stopped the sampling


def test_hard_searches_only_up_to_its_hand_size_limit() -> None:
    game = batak.Game("standard", seed=4)
    bot = HardPlayer(seed=1, worlds=4, max_cards=3)
    while game.phase != "over":
        view = _view(game)
        move = bot.choose(view)
        cards = len(view["hand"])
        if view["phase"] == "play" and len(view["legal_moves"]) > 1:
            assert bot.last.searched == (cards <= 3), (cards, bot.last)
        game.play(move)


# ---------------------------------------------------------------------- bidding by simulation
ALL_PRESETS = [
    "standard",
    "sultan-ihaleli",
    "sultan-esli",
    "sultan-kozmaca",
    "zipi-kitty",
    "esli-acik",
    "cetinsgame-ihaleli",
    "gamelake-esli",
]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_hard_bids_buries_and_names_trumps_by_simulation(preset: str) -> None:
    """Every decision before the card play is legal and made by the simulation (worlds > 0)."""
    for seed in (1, 2):
        game = batak.Game(preset, seed=seed)
        bot = HardPlayer(seed=7, worlds=4, max_cards=0, bid_worlds=6)
        phases: set[str] = set()
        while game.phase.value != "over":
            view = _view(game)
            move = bot.choose(view)
            assert move in view["legal_moves"]
            if view["phase"] != "play" and len(view["legal_moves"]) > 1:
                assert bot.last.searched and bot.last.worlds == 6, (view["phase"], bot.last)
                phases.add(view["phase"])
            game.play(move)
        if game.rules.bidding == "auction":
            assert "bidding" in phases
        if preset == "zipi-kitty":
            assert "bury" in phases or game.contract is None


def _bidding_view(preset: str, seed: int) -> dict[str, Any]:
    return _view(batak.Game(preset, seed=seed))


@pytest.mark.parametrize("preset", ["standard", "sultan-kozmaca", "zipi-kitty"])
def test_simulated_bid_is_deterministic(preset: str) -> None:
    view = _bidding_view(preset, 31)
    moves = set()
    for _ in range(2):
        bot = HardPlayer(seed=5, bid_worlds=12)
        moves.add(bot.choose(view))
        moves.add(bot.choose(view))  # the memoised pool gives the same answer
    assert len(moves) == 1


def test_simulated_bid_under_a_tiny_budget_uses_fewer_worlds() -> None:
    view = _bidding_view("standard", 12)
    bot = HardPlayer(seed=1, bid_worlds=40)
    move = bot.choose_within(view, 0.0)
    assert move in view["legal_moves"]
    assert 1 <= bot.last.worlds < 40
    assert bot.choose(view) in view["legal_moves"]  # and the full pool afterwards
    assert bot.last.worlds == 40


def test_the_simulation_sees_only_the_view() -> None:
    """Two deals that agree on what seat 1 sees (its hand and the auction) but not on the other
    hands get the same bid: the simulation deals the hidden cards itself."""
    game = batak.Game("standard", seed=8)
    view = _view(game)
    seat = view["seat"]
    hands = [list(map(str, h)) for h in game.hands]
    others = [c for s, h in enumerate(hands) if s != seat for c in h]
    others.reverse()
    new_hands = []
    i = 0
    for s in range(4):
        if s == seat:
            new_hands.append(hands[s])
        else:
            new_hands.append(others[i : i + 13])
            i += 13
    other = batak.Game("standard", hands=[" ".join(h) for h in new_hands], dealer=game.dealer)
    view2 = _view(other)
    assert view2["hand"] == view["hand"] and view2["seat"] == seat
    a = HardPlayer(seed=3, bid_worlds=10).choose(view)
    b = HardPlayer(seed=3, bid_worlds=10).choose(view2)
    assert a == b


def test_a_huge_hand_bids_and_a_poor_one_passes() -> None:
    strong = "AS KS QS JS TS 9S 8S AH KH QH AD KD AC"
    weak = "2S 3S 4H 5H 6H 2D 3D 4D 7C 8C 3C 4C 5C"
    for hand, expect_bid in ((strong, True), (weak, False)):
        rest = [c for c in _all_cards() if c not in hand.split()]
        hands = [" ".join(rest[0:13]), hand, " ".join(rest[13:26]), " ".join(rest[26:39])]
        game = batak.Game("sultan-ihaleli", hands=hands, dealer=0)
        view = _view(game)
        assert view["seat"] == 1
        move = HardPlayer(seed=1, bid_worlds=16).choose(view)
        assert move.startswith("bid") == expect_bid, move
        if expect_bid:
            assert int(move.split()[1]) >= 9  # sultan pays for the level: bid it


def _all_cards() -> list[str]:
    return [r + s for s in "SHDC" for r in "AKQJT98765432"]


def _position_with(cards: int, seed: int) -> batak.Game:
    game = batak.Game("standard", seed=seed)
    medium = batak.bots.get("medium", seed=1)
    while game.phase != "play" or len(game.hand(game.to_move or 0)) > cards:
        game.play(medium.choose(_view(game)))
    return game


@pytest.mark.skipif(not solver.c_engine_available(), reason="wide search needs the C solver")
def test_wide_search_uses_fewer_worlds_and_a_node_budget() -> None:
    game = _position_with(8, 3)
    view = _view(game)
    bot = HardPlayer(seed=2, worlds=30, max_cards=3, wide_cards=8, wide_worlds=5)
    assert bot.choose(view) in view["legal_moves"]
    assert bot.last.searched and bot.last.worlds == 5
    cut = HardPlayer(seed=2, worlds=30, max_cards=3, wide_cards=8, wide_worlds=50, node_budget=0)
    assert cut.choose(view) in view["legal_moves"]
    assert cut.last.worlds == 4  # the node budget (a count: deterministic) stops new worlds
    above = HardPlayer(seed=2, max_cards=3, wide_cards=7)
    above.choose(view)
    assert not above.last.searched


@pytest.mark.skipif(not solver.c_engine_available(), reason="searching 8 cards needs the C solver")
def test_the_worlds_follow_the_clues_of_the_play_unless_told_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """By default the worlds are drawn with knowledge.play_bias (at its strength); with
    ``inference=0`` they are not."""
    import batak.bots.hard as hard_module

    real = hard_module.play_bias
    seen: list[float] = []

    def spy(view: Any, strength: float = 1.0) -> Any:
        seen.append(strength)
        return real(view, strength)

    monkeypatch.setattr(hard_module, "play_bias", spy)
    view = _view(_position_with(8, 3))
    HardPlayer(seed=2, worlds=2, max_cards=8).choose(view)
    assert seen == [1.0]
    HardPlayer(seed=2, worlds=2, max_cards=8, inference=2.5).choose(view)
    assert seen == [1.0, 2.5]
    HardPlayer(seed=2, worlds=2, max_cards=8, inference=0).choose(view)
    assert seen == [1.0, 2.5]


@pytest.mark.skipif(not solver.c_engine_available(), reason="wide search needs the C solver")
def test_a_decision_stops_at_its_node_cap() -> None:
    """Some rare positions take the solver seconds; a decision never searches past ``node_cap``
    nodes: the world in progress is dropped, the finished ones decide, and with none finished
    the medium player does."""
    game = _position_with(8, 3)
    view = _view(game)
    free = HardPlayer(seed=2, worlds=6, max_cards=8)
    assert free.choose(view) in view["legal_moves"]
    assert free.last.worlds == 6 and not free.last.fallback
    one = HardPlayer(seed=2, worlds=6, max_cards=8, node_cap=1)
    assert one.choose(view) == one.medium.choose(view)
    assert one.last.fallback == "node cap" and one.last.capped and one.last.worlds == 0
    # a cap a little above what the first world takes: that world counts, the search then stops
    table = solver.thread_table(8)
    assert table is not None
    start = table.nodes
    HardPlayer(seed=2, worlds=1, max_cards=8).choose(view)  # the same first world
    cap = table.nodes - start + 10
    some = HardPlayer(seed=2, worlds=6, max_cards=8, node_cap=cap)
    assert some.choose(view) in view["legal_moves"]
    assert some.last.capped and not some.last.fallback and 1 <= some.last.worlds < 6
    assert some.last.searched
    unbounded = HardPlayer(seed=2, worlds=6, max_cards=8, node_cap=0)  # 0: no cap
    assert unbounded.choose(view) == free.choose(view)
    assert unbounded.last.worlds == 6 and not unbounded.last.capped


@pytest.mark.skipif(not solver.c_engine_available(), reason="wide search needs the C solver")
def test_by_default_hard_searches_from_ten_cards_with_fewer_worlds() -> None:
    """The default (benchmarks/README.md, "Searching from 10 cards a hand"): 24 worlds from 9
    cards a hand, at most 12 at 10 cards, the medium player's judgement above (but for the
    declarer, test_the_declarer_searches_from_twelve_cards)."""
    assert WIDE_CARDS == 10
    bot = HardPlayer(seed=3)
    assert (bot.max_cards, bot.wide_cards, bot.wide_worlds) == (9, 10, 12)
    roles = set()
    for cards, seed in [(10, 5)] + [(11, seed) for seed in range(5, 30)]:
        game = _position_with(cards, seed)
        view = _view(game)
        if len(view["legal_moves"]) < 2:  # a real choice (the only legal card is no search)
            assert cards == 11  # the 10-card position is one
            continue
        declarer = view["seat"] == view["contract"]["bidder"]
        searched = cards == 10 or declarer
        assert bot.choose(view) in view["legal_moves"]
        assert bot.last.searched == searched, (cards, declarer, bot.last)
        if searched:
            assert 0 < bot.last.worlds <= 12
        if cards == 11:
            roles.add(declarer)
            if len(roles) == 2:
                break
    assert roles == {True, False}  # an 11-card decision of each
    # a player given its own max_cards searches up to that only, as before
    assert HardPlayer(seed=3, max_cards=6).wide_cards == 6


@pytest.mark.skipif(not solver.c_engine_available(), reason="wide search needs the C solver")
def test_with_partners_hard_searches_from_eleven_cards() -> None:
    """With partners (benchmarks/README.md, "From 11 cards at a table with partners"): from 11
    cards a hand, at most 8 worlds above 9 cards; a player with a reach of its own keeps it."""
    assert PARTNER_WIDE == (11, 8, 3_000_000)
    bot = HardPlayer(seed=3)
    game = batak.Game("sultan-esli", seed=4)
    medium = batak.bots.get("medium", seed=1)
    while game.phase != "play" or len(game.hand(game.to_move or 0)) > 11:
        game.play(medium.choose(_view(game)))
    while len(_view(game)["legal_moves"]) < 2:
        game.play(medium.choose(_view(game)))
    view = _view(game)
    assert len(view["hand"]) == 11
    assert bot.choose(view) in view["legal_moves"]
    assert bot.last.searched and 0 < bot.last.worlds <= 8
    pinned = HardPlayer(seed=3, wide_cards=10)
    pinned.choose(view)
    assert not pinned.last.searched  # 11 cards > its own 10
    assert HardPlayer(seed=3, wide_worlds=5).partner_wide == (11, 5, 3_000_000)


@pytest.mark.skipif(not solver.c_engine_available(), reason="wide search needs the C solver")
def test_the_declarer_searches_from_twelve_cards() -> None:
    """Without partners the declarer searches from 12 cards a hand, with at most 8 worlds
    (benchmarks/README.md, "The declarer searches from 12 cards"); a defender holding 12 cards
    plays by the medium player's rules, as do a player with a reach of its own and the arena's
    narrow-declarer variant."""
    assert DECLARER_WIDE == (12, 8, 3_000_000)
    medium = batak.bots.get("medium", seed=1)
    seen = {"declarer": 0, "defender": 0}
    for seed in range(1, 40):
        game = batak.Game("standard", seed=seed)
        while game.phase != "over" and (
            game.phase != "play" or len(game.hand(game.to_move or 0)) > 12
        ):
            game.play(medium.choose(_view(game)))
        while game.phase == "play" and len(game.hand(game.to_move or 0)) == 12:
            view = _view(game)
            if len(view["legal_moves"]) > 1:
                role = "declarer" if view["seat"] == view["contract"]["bidder"] else "defender"
                bot = HardPlayer(seed=3)
                assert bot.choose(view) in view["legal_moves"]
                if role == "declarer":
                    assert bot.last.searched and 0 < bot.last.worlds <= 8, bot.last
                    pinned = HardPlayer(seed=3, wide_cards=10)
                    pinned.choose(view)
                    assert not pinned.last.searched  # 12 cards > its own 10
                    narrow = HardPlayerNarrowDeclarer(seed=3)  # the arena's "before"
                    narrow.choose(view)
                    assert not narrow.last.searched
                else:
                    assert not bot.last.searched, bot.last
                seen[role] += 1
            game.play(medium.choose(view))
        if all(seen.values()):
            break
    assert all(seen.values()), seen
    assert HardPlayer(seed=3, node_budget=9).declarer_wide == (12, 8, 9)


@pytest.mark.skipif(not solver.c_engine_available(), reason="needs the compiled solver")
@pytest.mark.parametrize("preset", ["standard", "sultan-esli", "zipi-kitty"])
def test_the_early_player_judges_its_first_cards_by_play_outs(preset: str) -> None:
    """With ``early``, the first cards (above ``wide_cards``) are judged over sampled worlds by
    quick play-outs, not handed to the medium player; the moves are legal and the same view gives
    the same move."""
    from batak.bots.hard import HardPlayerEarly

    game = batak.Game(preset, seed=8)
    bot = HardPlayerEarly(seed=4, early_worlds=6, worlds=6)
    twin = HardPlayerEarly(seed=4, early_worlds=6, worlds=6)
    early_searches = 0
    while game.phase != "over":
        view = _view(game)
        move = bot.choose(view)
        assert move in view["legal_moves"]
        if game.phase == "play":
            assert twin.choose(view) == move
            big = len(view["hand"]) > bot.reach(parse_view(view))[0]
            if big and len(view["legal_moves"]) > 1 and bot.last.fallback != "avoiding tricks":
                assert bot.last.searched and bot.last.worlds == 6, bot.last
                early_searches += 1
        game.play(move)
    assert early_searches > 0


def _defender_without_a_trick(preset: str, seed: int, cards: int = 9) -> batak.Game:
    """A deal played by medium players until a defender whose side has taken no trick yet has
    a choice of cards with ``cards`` cards in hand (or fewer)."""
    game = batak.Game(preset, seed=seed)
    medium = batak.bots.get("medium", seed=1)
    while game.phase != "over":
        view = _view(game)
        t = parse_view(view)
        seat = t.seat
        if (
            game.phase == "play"
            and len(view["hand"]) <= cards
            and t.bidder is not None
            and seat is not None
            and seat not in game.rules.team_of(t.bidder)
            and not any(t.tricks_won[s] for s in game.rules.team_of(seat))
            and len(view["legal_moves"]) > 1
        ):
            return game
        game.play(medium.choose(view))
    raise AssertionError("no such position")


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        # Sultan (RULES.md, Scoring; Batak Sultan's guide): a defender's trick is 1 point, no
        # trick loses ten times the bid, so a first trick is worth the bid's figure more
        ("sultan-ihaleli", {}, lambda bid: 10 * bid),
        # CetinsGame: 10 a trick; no trick "taban ihale kadar eksi yazar" (minus the minimum
        # bid's figure, 40): worth 4 tricks more than a trick
        ("standard", {}, lambda bid: 4),
        ("standard", {"zero_trick_penalty": "none"}, lambda bid: 0),
    ],
)
def test_a_defender_without_a_trick_counts_what_none_would_cost(
    preset: str, options: dict[str, Any], expected: Any
) -> None:
    game = batak.Game(batak.Rules.preset(preset, **options), seed=3)
    medium = batak.bots.get("medium", seed=1)
    on = HardPlayer(seed=1)  # the default
    off = HardPlayer(seed=1, zero_trick=False)
    seen = 0
    while game.phase != "over":
        view = _view(game)
        t = parse_view(view)
        seat = t.seat
        if game.phase == "play" and seat is not None and t.bidder is not None:
            side = on._side(t, seat)
            cost = on._zero_cost(t, seat, side)
            assert off._zero_cost(t, seat, side) == 0
            if seat == t.bidder or t.tricks_won[seat] > 0:
                assert cost == 0  # the declarer, or a defender that has its trick
            else:
                assert cost == expected(t.bid)
                seen += 1
        game.play(medium.choose(view))
    assert seen > 0


def test_with_partners_the_side_without_a_trick_counts_the_cost() -> None:
    game = _defender_without_a_trick("sultan-esli", 4)
    t = parse_view(_view(game))
    assert t.seat is not None and t.bid is not None
    player = HardPlayer(seed=1)
    side = player._side(t, t.seat)
    assert len(side) == 2
    assert player._zero_cost(t, t.seat, side) == 10 * t.bid


def test_a_defender_without_a_trick_keeps_one_for_itself() -> None:
    """Sultan: the defender that takes no trick loses ten times the bid. In these positions
    (seeded medium play) the player that counts it keeps a trick of its own on the real
    cards; the one that counts only its side's tricks gives its last chance away."""
    lost_by_plain = 0
    for seed, cards in ((154, 4), (181, 5), (198, 7)):
        game = _defender_without_a_trick("sultan-ihaleli", seed, cards)
        view = _view(game)
        seat = game.to_move
        own = solver.card_values(game, side=[seat])
        values = {str(card): tricks for card, tricks in own.items()}
        careful = HardPlayer(seed=2, worlds=16).choose(view)  # the default
        plain = HardPlayer(seed=2, worlds=16, zero_trick=False).choose(view)
        assert values[careful] >= 1, (seed, careful, values)
        lost_by_plain += values[plain] == 0
    assert lost_by_plain > 0
