"""What a seat knows about hidden cards (batak.bots.knowledge): sound, and sharp where it must be.

Soundness: over random legal deals in every preset, at every move and for every seat's view, each
seat's TRUE hand (and the kitty's true cards) lies inside what the knowledge says it may hold, with
the right counts. Sharpness: in hand-built positions each compulsory-play inference of RULES.md
(Compulsory play 1-5, Leading trumps) fires. Sampled worlds are consistent deals and reach the
true one.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
from collections import Counter
from typing import Any

import pytest

from batak import Game, Rules
from batak.bots.knowledge import (
    FLOOR,
    PLAY_FACTORS,
    Knowledge,
    auction_bias,
    draw_worlds,
    play_bias,
    play_clues,
    product,
    sample_world,
)
from batak.bots.simple import CARD_INDEX as CARD
from batak.bots.simple import mask_from, parse_view
from batak.cards import DECK_MASK, SUIT_MASKS, mask_of

PRESETS = Rules.preset_names()


def true_kitty(game: Game) -> int:
    if game.contract is None and game.rules.kitty_size:
        return mask_of(game.initial_kitty)
    return mask_of(game.buried)


def check_world(k: Knowledge, world: list[int]) -> None:
    """A sampled world: right sizes, inside the possible sets, disjoint, covering the unknown."""
    assert len(world) == k.players + 1
    seen = 0
    for h, cards in enumerate(world):
        assert cards.bit_count() == k.counts[h], (h, k.counts)
        assert cards & ~k.possible[h] == 0, h
        assert seen & cards == 0
        seen |= cards
    assert seen & k.unknown == k.unknown
    assert seen & k.played == 0


def play_random_deal(preset: str, seed: int, check: Any) -> None:
    rng = random.Random(seed)
    rules = VARIANTS.get(preset) or Rules.preset(preset)
    game = Game(rules, seed=seed, dealer=seed % rules.players)
    while game.phase != "over":
        check(game)
        game.play(rng.choice(game.legal_moves()))


#: table variants beyond the presets: every switch of the compulsory-play rules
VARIANTS = {
    "no-overtake": Rules.preset("standard", overtake=False),
    "zipi-overtake-switch-off": Rules.preset("zipi-ihaleli", overtake=False, overtrump=False),
    "after-ruff-free-discard": Rules.preset(
        "standard", overtake_after_ruff=True, trump_if_cannot_overtrump=False
    ),
    "any-time-free-discard": Rules.preset(
        "gamelake-ihaleli", trump_lead="any_time", trump_if_cannot_overtrump=False
    ),
    "kitty-after-ruff": Rules.preset("zipi-kitty", overtake_after_ruff=True),
    "no-overtrump": Rules.preset("sultan-esli", overtrump=False),
}


@pytest.mark.parametrize("preset", [*PRESETS, *VARIANTS])
def test_knowledge_never_excludes_a_card_a_seat_holds(preset: str) -> None:
    """RULES.md Compulsory play: every inference is a consequence of the rules, so the truth always
    fits. Checked at every move, from every seat's view (JSON round trip: bots get plain data)."""
    steps = 0

    def check(game: Game) -> None:
        nonlocal steps
        n = game.players
        for viewer in range(n):
            view = json.loads(json.dumps(game.view(viewer)))
            k = Knowledge.from_view(view)
            for s in range(n):
                true = mask_of(game.hand(s))
                assert true & ~k.possible[s] == 0, (preset, viewer, s, game.history)
                assert k.counts[s] == true.bit_count()
            kitty = true_kitty(game)
            assert kitty & ~k.possible[n] == 0
            if game.phase == "play":
                assert k.broken == game.trumps_broken
            steps += 1

    for seed in range(6):
        play_random_deal(preset, seed, check)
    assert steps > 100


@pytest.mark.parametrize("preset", ["standard", "zipi-kitty", "esli-acik", "gamelake-esli"])
def test_sampled_worlds_are_consistent_deals(preset: str) -> None:
    rng = random.Random(1)

    def check(game: Game) -> None:
        viewer = game.to_move
        assert viewer is not None
        k = Knowledge.from_view(game.view(viewer))
        for weight in (None, auction_bias(game.view(viewer)), play_bias(game.view(viewer))):
            check_world(k, sample_world(k, rng, weight=weight))

    for seed in range(3):
        play_random_deal(preset, seed, check)


def test_auction_bias_tilts_the_bidder_towards_trumps() -> None:
    """The bias is a preference, not a rule: the bidder gets more trumps on average, and the
    worlds stay consistent."""
    g = Game("standard", seed=8, dealer=3)
    for m in ("bid 5", "pass", "pass", "pass", "trump H"):
        g.play(m)
    view = g.view(2)
    k = Knowledge.from_view(view)
    weight = auction_bias(view)
    hearts = SUIT_MASKS[1]
    plain_mean = sum(
        (sample_world(k, random.Random(i))[0] & hearts).bit_count() for i in range(400)
    )
    tilted_mean = 0
    for i in range(400):
        w = sample_world(k, random.Random(i), weight=weight)
        check_world(k, w)
        tilted_mean += (w[0] & hearts).bit_count()
    assert tilted_mean > plain_mean * 1.15


def test_play_clues_read_a_low_lead_and_a_card_that_could_not_win() -> None:
    """Seat 0 leads the 5 of hearts while higher hearts are out (a low lead: fewer lower hearts,
    fewer top cards of the other side suits); seat 1 cannot beat it and plays the 4 (so it is
    unlikely to hold the 2 or the 3); seat 2 must overtake, which says nothing. Seen from seat 3,
    whose own cards and the played ones are never named."""
    g = Game("standard", hands=["5H AS 2C", "3H 4H 6C", "KH 9C 3C", "AH 8C 7D"], dealer=3)
    for m in ["bid 4", "pass", "pass", "pass", "trump S", "5H", "4H", "KH"]:
        g.play(m)
    view = g.view(3)
    clues = {(s, kind, rel): cards for s, kind, rel, cards in play_clues(parse_view(view))}
    assert clues == {
        (0, "lead_low", "lower"): mask_from("2H 3H"),
        (0, "lead_low", "other_top"): mask_from("AC AD"),
        (1, "not_winning", "lower"): mask_from("2H 3H"),
    }
    weight = play_bias(view)
    assert weight(0, CARD["3H"]) == pytest.approx(PLAY_FACTORS[("lead_low", "lower")])
    assert weight(1, CARD["3H"]) == FLOOR  # 0.02, kept at the floor: a preference only
    assert weight(2, CARD["3H"]) == 1.0
    assert weight(0, CARD["AC"]) == pytest.approx(PLAY_FACTORS[("lead_low", "other_top")])
    assert weight(0, CARD["KC"]) == 1.0


def test_play_clues_read_winners_ruffs_and_leads() -> None:
    """Trick 1: 5H, 3H (could not win), 7H (won, not last: says nothing), KH (won last: no
    cheaper winner). Trick 2: 7D (a low lead), 5S (a ruff before the last card: no cheaper
    trump), 4C (a discard: no lower club), 3D (could not win). Seen from seat 1."""
    g = Game("standard", hands=["5H 5S 3C", "3H 4C 5C", "7H 9C 3D", "KH 8C 7D"], dealer=3)
    for m in ["bid 4", "pass", "pass", "pass", "trump S", "5H", "3H", "7H", "KH"]:
        g.play(m)
    for m in ["7D", "5S", "4C", "3D"]:
        g.play(m)
    clues = play_clues(parse_view(g.view(1)))
    assert clues == [
        (0, "lead_low", "lower", mask_from("2H 4H")),
        (0, "lead_low", "other_top", mask_from("AC AD")),
        (3, "won_last", "cheaper_winner", mask_from("8H 9H TH JH QH")),
        (3, "lead_low", "lower", mask_from("2D 4D 5D 6D")),
        (3, "lead_low", "other_top", mask_from("AH AC")),
        (0, "ruff", "cheaper_winner", mask_from("2S 3S 4S")),
        (2, "not_winning", "lower", mask_from("2D")),
    ]


def test_a_card_the_rules_forced_up_after_a_ruff_says_nothing_of_lower_ones() -> None:
    """GameLake: the led suit must still be overtaken after a ruff. Seat 2 holds QH and 3H and
    has to play QH over the 5H: only the hearts between them were its choice."""
    rules = Rules.preset("gamelake-ihaleli", min_bid=1)
    assert rules.overtake_after_ruff
    g = Game(rules, hands=["5H 2C 3C", "2S 4C 5C", "QH 3H 6C", "AH 7C 8C"], dealer=3)
    for m in ["bid 1", "pass", "pass", "pass", "trump S", "5H", "2S", "QH"]:
        g.play(m)
    view = g.view(3)
    assert (2, "not_winning", "lower", mask_from("6H 7H 8H 9H TH JH")) in play_clues(
        parse_view(view)
    )
    weight = play_bias(view)
    assert weight(2, CARD["3H"]) == 1.0  # it holds it: the rules, not a choice, kept it
    assert weight(2, CARD["7H"]) == FLOOR


def test_the_weights_multiply_and_the_kitty_is_not_read() -> None:
    g = Game("zipi-kitty", seed=3)
    rng = random.Random(3)
    while not (g.phase == "play" and len(g.tricks) >= 3):
        g.play(rng.choice(g.legal_moves()))
    view = g.view(g.to_move)
    by_auction, by_play = auction_bias(view), play_bias(view)
    both = product(by_auction, by_play)
    n = g.players
    for holder in range(n + 1):
        for card in range(52):
            assert both(holder, card) == by_auction(holder, card) * by_play(holder, card)
            if holder == n:
                assert by_play(holder, card) == 1.0  # the kitty chose nothing


def test_a_seat_avoiding_tricks_gives_no_clue() -> None:
    """Under yan batar a side whose contract is made plays the other way round (high cards that
    lose), so its cards are not read."""
    rules = Rules.preset("standard", overtrick_limit=1, min_bid=1)
    g = Game(rules, hands=["AS KS QS", "2S 3H 6C", "3S 9C 3C", "4S 8C 7D"], dealer=3)
    for m in ["bid 1", "pass", "pass", "pass", "trump S", "AS", "2S", "3S", "4S"]:
        g.play(m)
    before = [c for c in play_clues(parse_view(g.view(3))) if c[0] == 0]
    assert [kind for _, kind, _, _ in before] == ["lead_trump"]  # read: the contract not made
    g.play("KS")  # the contract is made: seat 0 now ducks, and this lead is not read
    assert parse_view(g.view(3)).tricks_won[0] == 1
    assert [c for c in play_clues(parse_view(g.view(3))) if c[0] == 0] == before


def test_play_clues_put_hidden_cards_where_they_are_more_often() -> None:
    """Over deals of medium players, worlds drawn with the clues put the hidden cards in the
    right hands more often than the rules and the auction alone (about 0.44 against 0.39)."""
    from batak.bots import get

    right = [0, 0]
    total = 0
    for d in range(6):
        g = Game("standard", seed=500 + d)
        players = [get("medium", seed=d * 10 + i) for i in range(4)]
        while g.phase != "over":
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            if g.phase == "play" and 4 <= len(g.hand(seat)) <= 9:
                k = Knowledge.from_view(view)
                truth = [mask_of(g.hand(s)) for s in range(4)]
                by_auction, by_play = auction_bias(view), play_bias(view)
                weights = [by_auction, product(by_auction, by_play)]
                for i, weight in enumerate(weights):
                    rng = random.Random(d)
                    for _ in range(10):
                        w = sample_world(k, rng, weight=weight)
                        right[i] += sum((w[s] & truth[s] & k.unknown).bit_count() for s in range(4))
                total += 10 * k.unknown.bit_count()
            g.play(players[seat].choose(view))
    assert total > 1000
    assert right[1] / total > right[0] / total + 0.02, (right[0] / total, right[1] / total)


def test_sampler_reaches_the_true_world_late_in_a_deal() -> None:
    """Support: with a few cards left, every consistent deal (the true one included) is drawn."""
    found = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = Game("standard", seed=seed)
        while game.phase != "over" and not (game.phase == "play" and len(game.hand(0)) == 2):
            game.play(rng.choice(game.legal_moves()))
        if game.phase == "over" or game.to_move is None:
            continue
        viewer = game.to_move
        k = Knowledge.from_view(game.view(viewer))
        truth = tuple(mask_of(game.hand(s)) for s in range(4))
        draws = Counter(tuple(sample_world(k, rng)[:4]) for _ in range(1500))
        assert truth in draws, (seed, len(draws))
        found += 1
    assert found >= 8


def test_sampler_is_uniform_without_constraints() -> None:
    """No constraints: every way to deal the hidden cards is equally likely."""
    g = Game("standard", hands=["AS 2H", "KS 3H", "QS 4H", "JS 5H"], dealer=3)
    k = Knowledge.from_view(g.view(1))
    draws = Counter(tuple(sample_world(k, random.Random(i))) for i in range(3000))
    # the other seats' 6 cards, plus 40 undealt cards the knowledge keeps as "kitty", are many
    # worlds; look at where AS goes instead: seat 0, 2, 3 (2 places each) or the 40-card rest
    where = Counter(next(h for h in (0, 2, 3, 4) if w[h] >> 12 & 1) for w in draws.elements())
    for seat in (0, 2, 3):
        assert 0.02 < where[seat] / 3000 < 0.07  # 2 / 46 = 0.043
    del k


# ---------------------------------------------------------------------- hand-built inferences
def position(rules: Rules | str, hands: list[str], moves: str, dealer: int = 3) -> Game:
    g = Game(rules, hands=hands, dealer=dealer)
    for m in moves.split(","):
        g.play(m.strip())
    return g


def knows(g: Game, seat: int) -> Knowledge:
    return Knowledge.from_view(json.loads(json.dumps(g.view(seat))))


HANDS = ["9H 5H 2S 3S", "4H 4C 5C 6C", "2C 7C 8C 9C", "AH QH 3C TC"]


def test_did_not_follow_is_void() -> None:
    """Compulsory play 1: a seat that does not follow holds no card of the led suit."""
    g = position("standard", HANDS, "bid 4, pass, pass, pass, trump S, 9H, 4H, 2C")
    k = knows(g, 0)
    assert k.is_void(2, "H")
    assert not k.is_void(1, "H") and not k.is_void(3, "H")


def test_did_not_overtake_holds_nothing_higher() -> None:
    """Compulsory play 2: seat 1 played 4H under 9H (overtaking compulsory): no AH … TH."""
    g = position("standard", HANDS, "bid 4, pass, pass, pass, trump S, 9H, 4H")
    k = knows(g, 0)
    for c in ("AH", "KH", "QH", "JH", "TH"):
        assert not k.may_hold(1, c), c
    for c in ("8H", "7H", "3H"):
        assert k.may_hold(1, c), c
    assert k.may_hold(3, "AH") and k.may_hold(2, "AH")


def test_no_overtake_inference_when_overtake_is_off() -> None:
    r = Rules.preset("zipi-ihaleli", overtake=False)
    g = position(r, HANDS, "bid 4, pass, pass, pass, trump S, 9H, 4H")
    assert knows(g, 0).may_hold(1, "AH")


RUFF_HANDS = ["KH 5H 2S 3S", "9S 4C 5C 6C", "9H 7C 8C 9C", "AH QH 3C TC"]


@pytest.mark.parametrize("after_ruff", [False, True])
def test_overtake_after_ruff(after_ruff: bool) -> None:
    """Compulsory play 3: KH led, ruffed, seat 2 follows 9H: it shows no AH only when
    overtake_after_ruff is on."""
    r = Rules.preset("standard", overtake_after_ruff=after_ruff)
    g = position(r, RUFF_HANDS, "bid 4, pass, pass, pass, trump S, KH, 9S, 9H")
    k = knows(g, 0)
    assert k.may_hold(2, "AH") is (not after_ruff)
    assert k.may_hold(2, "TH") and k.may_hold(2, "QH")


def test_void_and_did_not_trump_holds_no_trump() -> None:
    """Compulsory play 4: void in the led suit and holding a trump, you must trump."""
    g = position("standard", HANDS, "bid 4, pass, pass, pass, trump S, 9H, 4H, 2C")
    k = knows(g, 0)
    assert not k.possible[2] & SUIT_MASKS[0]


OVERTRUMP_HANDS = ["KH 5H 2S 3S", "9S 4C 5C 6C", "4S 7C 8C 9C", "AH QH 3C TC"]


@pytest.mark.parametrize("if_cannot", [True, False])
def test_did_not_overtrump(if_cannot: bool) -> None:
    """Compulsory play 4: seat 2 trumped with 4S under 9S: no trump above 9S (overtrump is
    compulsory), whatever trump_if_cannot_overtrump says."""
    r = Rules.preset("standard", trump_if_cannot_overtrump=if_cannot)
    g = position(r, OVERTRUMP_HANDS, "bid 4, pass, pass, pass, trump S, 5H, 9S, 4S")
    k = knows(g, 0)
    for c in ("AS", "KS", "QS", "JS", "TS"):
        assert not k.may_hold(2, c)
    assert k.may_hold(2, "8S") and k.is_void(2, "H")


def test_no_overtrump_inference_when_zipi_overtake_switch_is_off() -> None:
    """Zipi's overtake switch turns off overtaking and overtrumping (overtake=False,
    overtrump=False), so a low trump under a higher one proves nothing about higher trumps."""
    r = Rules.preset("zipi-ihaleli", overtake=False, overtrump=False)
    g = position(r, OVERTRUMP_HANDS, "bid 4, pass, pass, pass, trump S, 5H, 9S, 4S")
    k = knows(g, 0)
    assert k.may_hold(2, "AS") and k.is_void(2, "H")


def test_overtrump_inference_stays_when_only_overtake_is_off() -> None:
    """Overtrumping is a setting of its own (CetinsGame: "büyük koz zorunluluğu"): with overtake
    off and overtrump on, a low trump under a higher one still shows no higher trump."""
    r = Rules.preset("standard", overtake=False)
    g = position(r, OVERTRUMP_HANDS, "bid 4, pass, pass, pass, trump S, 5H, 9S, 4S")
    k = knows(g, 0)
    assert not k.may_hold(2, "AS") and k.is_void(2, "H")


DISCARD_HANDS = ["KH 5H 2S 3S", "9S 4C 5C 6C", "2C 7C 8C 9C", "AH QH 3C TC"]


@pytest.mark.parametrize("if_cannot", [True, False])
def test_discard_after_a_ruff(if_cannot: bool) -> None:
    """Compulsory play 4: void, a trump on the table, seat 2 discards. With
    trump_if_cannot_overtrump on it holds no trump at all; off, it may hold trumps below 9S."""
    r = Rules.preset("standard", trump_if_cannot_overtrump=if_cannot)
    g = position(r, DISCARD_HANDS, "bid 4, pass, pass, pass, trump S, 5H, 9S, 2C")
    k = knows(g, 0)
    assert not k.may_hold(2, "TS")
    assert k.may_hold(2, "8S") is (not if_cannot)


def test_no_compulsory_trump_a_discard_or_low_trump_proves_nothing_of_trumps() -> None:
    """docs/rules.md §10, must_trump off: a void player may play any card, so a discard shows
    only the void, and a trump under a higher one shows no missing higher trump."""
    r = Rules.preset("standard", must_trump=False)
    g = position(r, DISCARD_HANDS, "bid 4, pass, pass, pass, trump S, 5H, 9S, 2C")
    k = knows(g, 0)
    assert k.may_hold(2, "TS") and k.may_hold(2, "8S") and k.is_void(2, "H")
    g = position(r, OVERTRUMP_HANDS, "bid 4, pass, pass, pass, trump S, 5H, 9S, 4S")
    k = knows(g, 0)
    assert k.may_hold(2, "AS") and k.is_void(2, "H")


LEAD_HANDS = ["AS KS 2H 3H", "3S 4C 5C 6C", "2C 7C 8C 9C", "4H 5H 3C TC"]


def test_trump_lead_before_broken_shows_only_trumps() -> None:
    """Leading trumps: under after_broken a seat may lead a trump before trumps are broken only
    holding nothing else. Seat 1 wins a club trick and leads 3S: only trumps left."""
    g2 = position(
        "standard",
        ["2C 2H 3H 4H", "AC 3S 4S 5S", "3C 6H 7H 8H", "4C 9H TH JH"],
        "bid 4, pass, pass, pass, trump S, 2C, AC, 3C, 4C, 3S",
    )
    k = knows(g2, 0)
    assert not k.possible[1] & ~SUIT_MASKS[0]
    assert k.possible[1] & SUIT_MASKS[0]


def test_trump_lead_any_time_shows_nothing() -> None:
    r = Rules.preset("standard", trump_lead="any_time")
    g = position(
        r,
        ["2C 2H 3H 4H", "AC 3S 4S 5H", "3C 6H 7H 8H", "4C 9H TH JH"],
        "bid 4, pass, pass, pass, trump S, 2C, AC, 3C, 4C, 3S",
    )
    assert knows(g, 0).may_hold(1, "5H")


def test_exposed_hand_and_kitty() -> None:
    """Açık eşli: the exposed hand is known exactly; kitty batak: the bidder knows the buried
    cards, the others know only how many lie there."""
    g = Game("esli-acik", seed=4)
    while g.phase != "play":
        g.play(g.legal_moves()[0] if g.phase != "bidding" or g.auction else "bid 7")
    exp = g.exposed_seat
    assert exp is not None
    other = (exp + 1) % 4
    k = knows(g, other)
    assert k.possible[exp] == mask_of(g.hand(exp)) and k.knows_all(exp)
    g = Game("zipi-kitty", seed=2)
    for m in ("bid 5", "pass", "pass"):
        g.play(m)
    assert g.contract is not None
    b = g.contract.bidder
    while g.phase == "bury":
        g.play(g.legal_moves()[-1])
    kb = knows(g, b)
    assert kb.possible[3] == mask_of(g.buried) and kb.counts[3] == 4
    ko = knows(g, (b + 1) % 3)
    assert ko.counts[3] == 4 and mask_of(g.buried) & ~ko.possible[3] == 0
    assert ko.possible[3] == ko.unknown


def test_counting_deduces_a_full_hand() -> None:
    """Propagation: when a seat can hold only as many cards as it has, it holds exactly those and
    nobody else holds them."""
    g = position("standard", HANDS, "bid 4, pass, pass, pass, trump S, 9H, 4H, 2C")
    k = knows(g, 0)
    for s in (1, 2, 3):
        assert k.possible[s] & k.possible[0] == 0
    assert (DECK_MASK & ~k.played & ~mask_from(g.view(0)["hand"])) == k.unknown
    assert parse_view(g.view(0)).trick


def test_probabilities_sum_to_hand_sizes() -> None:
    g = position("standard", HANDS, "bid 4, pass, pass, pass, trump S, 9H, 4H, 2C")
    k = knows(g, 0)
    probs = k.probabilities()
    for h in k.hidden:
        assert abs(sum(probs[h].values()) - k.counts[h]) < 1e-6
    for c, p in probs[2].items():
        assert c // 13 not in (0, 1) and 0 < p <= 1


def test_draw_worlds_follows_the_weights_own_law() -> None:
    """draw_worlds keeps deals in proportion to the product of their cards' weights (over every
    consistent deal alike), checked against that law worked out over all 1,680 deals of nine
    hidden cards, one of them barred from a hand; card-by-card dealing alone puts a card of
    weight 0.05 in a hand several times as often as the law does."""
    base = Knowledge.from_view(Game("standard", seed=1).view(0))
    hidden_cards = [c for c in range(52) if base.unknown >> c & 1][:9]  # not seat 0's
    a, b, x, d = hidden_cards[:4]
    mask = sum(1 << c for c in hidden_cards)
    k = dataclasses.replace(
        base,
        possible=[base.possible[0], mask, mask & ~(1 << hidden_cards[8]), mask, 0],
        counts=[13, 3, 3, 3, 0],
        hidden=[1, 2, 3],
        unknown=mask,
    )
    weights = {(1, a): 0.05, (1, b): 0.05, (1, d): 0.05, (2, x): 0.2, (3, a): 3.0}

    def weight(holder: int, card: int) -> float:
        return weights.get((holder, card), 1.0)

    law: Counter[tuple[int, int]] = Counter()
    total = 0.0
    for deal in set(itertools.permutations([1, 1, 1, 2, 2, 2, 3, 3, 3])):
        if any(h == 2 and c == hidden_cards[8] for h, c in zip(deal, hidden_cards, strict=True)):
            continue
        p = math.prod(weight(h, c) for h, c in zip(deal, hidden_cards, strict=True))
        total += p
        for h, c in zip(deal, hidden_cards, strict=True):
            law[(h, c)] += p
    rng = random.Random(5)
    kept: Counter[tuple[int, int]] = Counter()
    dealt: Counter[tuple[int, int]] = Counter()
    runs = 2500
    for _ in range(runs):
        draws = draw_worlds(k, rng, weight, 4)
        assert sum(times for _, times in draws) == 4
        for world, times in draws:
            check_world(k, world)
            for h in (1, 2, 3):
                for c in hidden_cards:
                    if world[h] >> c & 1:
                        kept[(h, c)] += times
        world = sample_world(k, rng, weight=weight)
        for h in (1, 2, 3):
            for c in hidden_cards:
                if world[h] >> c & 1:
                    dealt[(h, c)] += 1
    for h in (1, 2, 3):
        for c in hidden_cards:
            assert abs(kept[(h, c)] / (4 * runs) - law[(h, c)] / total) < 0.03, (h, c)
    assert law[(1, a)] / total < 0.03
    assert dealt[(1, a)] / runs > 3 * law[(1, a)] / total
