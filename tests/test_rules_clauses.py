"""One or more tests per rule clause of RULES.md.

Every test cites the RULES.md section it pins and the guide(s) in ``shared/seeds/`` that are its
evidence. Guides: S0 = seeds/000_bd85d2e3a5bb6a72.txt (Batak Sultan), S1 =
seeds/001_8d1ad90c5bd37df6.txt (GameLake), S2 = seeds/002_c3172fa8d91b8f20.txt (Zipi), S3 =
seeds/003_8aae50b1dad924c6.txt (CetinsGame), S4 = seeds/004_17da1022ae2d3671.txt (açık eşli).

Deals are small and hand-built (every hand the same size; that many tricks in the deal). With
``dealer=3`` seat 0 speaks first, so seat 0 is the bidder and leads the first trick.
"""

from __future__ import annotations

import re

import pytest

import batak
from batak import Card, Game, IllegalMove, Rank, Rules, Suit
from batak.cards import CARDS
from helpers import legal, play_all

ALL_PRESETS = Rules.preset_names()
FOUR_SEAT = [p for p in ALL_PRESETS if Rules.preset(p).players == 4]
AUCTION_4 = [p for p in FOUR_SEAT if Rules.preset(p).bidding == "auction"]


# ---------------------------------------------------------------------------- helpers
def snapshot(g: Game) -> tuple[object, ...]:
    return (
        g.phase,
        g.to_move,
        [[str(c) for c in h] for h in g.hands],
        [(s, str(c)) for s, c in g.current_trick],
        g.tricks_won,
        g.trumps_broken,
        [str(m) for m in g.history],
        [(s, str(m)) for s, m in g.auction],
        g.contract,
        [str(c) for c in g.buried],
        g.scores,
        g.redeal,
        legal(g),
    )


def assert_illegal(g: Game, move: str, code: str) -> IllegalMove:
    """``move`` is refused with ``code`` by check/why_illegal/play, and play changes nothing."""
    before = snapshot(g)
    err = g.check(move)
    assert err is not None, f"{move!r} should be illegal ({code})"
    assert err.code == code
    assert g.why_illegal(move) == str(err)
    assert not g.is_legal(move)
    with pytest.raises(IllegalMove) as info:
        g.play(move)
    assert info.value.code == code
    assert snapshot(g) == before
    parsed = batak.parse_move(move)
    if isinstance(parsed, Card):  # the fast path for card objects must refuse it the same way
        with pytest.raises(IllegalMove) as info2:
            g.play(parsed)
        assert info2.value.code == code
        assert snapshot(g) == before
    return err


def to_play(rules: str | Rules, hands: list[str], *, trump: str = "S", dealer: int = 3,
            bid: int | None = None) -> Game:
    """Deal ``hands`` and get to the first card: seat 0 bids (others pass) and names ``trump``.

    Koz Maça with bids: everybody bids 1. Koz Maça without bids: play starts at once.
    """
    r = Rules.preset(rules) if isinstance(rules, str) else rules
    g = Game(r, hands=hands, dealer=dealer)
    if r.bidding == "kozmaca":
        for _ in range(r.players):
            g.play("bid 1")
    elif r.bidding == "auction":
        g.play(f"bid {bid if bid is not None else r.min_bid}")
        for _ in range(r.players - 1):
            g.play("pass")
        assert g.phase == "trump"
        g.play(f"trump {trump}")
    assert g.phase == "play"
    return g


# ============================================================================ the core
def test_deck_has_52_distinct_cards_13_per_suit():
    """RULES.md §The core: 52 cards, A K Q J 10 9 … 2 in every suit. S0 §1; S1; S2; S3."""
    assert len(CARDS) == 52
    assert len({str(c) for c in CARDS}) == 52
    for suit in Suit:
        ranks = sorted(c.rank for c in CARDS if c.suit is suit)
        assert ranks == list(Rank)
    assert [r.char for r in sorted(Rank, reverse=True)] == list("AKQJT98765432")


def test_ranks_order_ace_high_two_low():
    """RULES.md §The core: ranks A K Q J 10 9 … 2. S0 §1 ('Ace, King, Queen, Jack, 10 … 2'); S3."""
    order = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT,
             Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO]
    assert order == sorted(order, reverse=True)
    assert Card.parse("AH").rank > Card.parse("KH").rank > Card.parse("TH").rank > Card.parse(
        "2H").rank


@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_four_players_thirteen_cards_each(preset):
    """RULES.md §The core: 4 players, 13 cards each. S0 §1; S1 'The deal'; S2; S3."""
    g = Game(preset, seed=11)
    hands = g.hands
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    cards = [c for h in hands for c in h]
    assert len(set(cards)) == 52
    assert g.initial_kitty == []


def test_kitty_batak_deals_16_each_and_4_to_the_kitty():
    """RULES.md §The core: 3-player kitty batak, 16 each + 4 in the kitty. S2 (Kitty Batak row)."""
    g = Game("zipi-kitty", seed=5)
    assert [len(h) for h in g.hands] == [16, 16, 16]
    assert len(g.initial_kitty) == 4
    assert len({*(c for h in g.hands for c in h), *g.initial_kitty}) == 52


@pytest.mark.parametrize(("preset", "dealer"), [
    (p, d) for p in ALL_PRESETS for d in range(Rules.preset(p).players)])
def test_seat_after_dealer_speaks_first(preset, dealer):
    """RULES.md §The core: the seat after the dealer speaks first (in Koz Maça without bids: leads).

    S0 §1 'the player after the dealer speaks first'; S1 'Starting with the player to the dealer's
    right'; S2 'starts with the player next to the dealer'; S3 'dağıtanın sağındaki oyuncu açar'.
    """
    r = Rules.preset(preset)
    g = Game(r, seed=3, dealer=dealer)
    assert g.to_move == (dealer + 1) % r.players


# ================================================================= trick winner rules
def test_highest_card_of_suit_led_wins_when_no_trump():
    """RULES.md §The core, 'A trick': no trump played -> highest card of the suit led wins; no
    suit outranks another. S0 §5 'Winning the trick'; S1; S3 'açılan rengin en büyüğü alır'."""
    # trump D; 2H led; seat 1 discards AC (no hearts, no diamonds); seat 2 plays 5H; seat 3 AS.
    g = to_play("standard", ["2H 3C", "AC 4C", "5H 6C", "AS 7C"], trump="D")
    play_all(g, "2H AC 5H AS")
    assert g.tricks_won == [0, 0, 1, 0]
    assert g.last_trick is not None and g.last_trick.winner == 2
    assert g.to_move == 2  # the winner leads the next trick
    assert g.current_trick == []


def test_highest_trump_wins():
    """RULES.md §The core: the highest trump wins. S0 §5; S1 'The trick is won by the highest
    trump'; S2; S3 'koz atıldıysa en büyük koz'."""
    g = to_play("standard", ["AH 2C", "3S 3C", "5S 4C", "KH 5C"])
    play_all(g, "AH 3S 5S KH")
    assert g.last_trick is not None and g.last_trick.winner == 2
    assert g.tricks_won == [0, 0, 1, 0]
    assert g.to_move == 2
    assert legal(g) == ["4C"]


def test_winner_leads_next_and_deal_ends_after_last_trick():
    """RULES.md §The core: the winner leads; the deal has as many tricks as cards in a hand.
    S0 §5; S1 'The winner leads the next trick'."""
    g = to_play("standard", ["AH 2H", "KH 3H", "QH 4H", "JH 5H"], trump="C")
    play_all(g, "AH KH QH JH")
    assert g.to_move == 0
    play_all(g, "2H 3H 4H 5H")
    assert g.phase == "over"
    assert g.to_move is None
    assert g.tricks_won == [1, 0, 0, 1]
    assert g.scores is not None


# ============================================================ compulsory play, clause 1
FOLLOW_HANDS = ["AH 2C 3C", "9H 3H 2S", "4H 5D 6D", "7H 8D 9D"]


@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_must_follow_suit(preset):
    """RULES.md §Compulsory play 1 (follow suit). S0 §5; S1; S2; S3 'Renge uyma'; S4."""
    g = to_play(preset, FOLLOW_HANDS)
    g.play("AH")
    assert legal(g) == ["9H", "3H"]
    assert_illegal(g, "2S", "must_follow")
    g.play("3H")
    assert g.to_move == 2


def test_must_follow_suit_kitty():
    """RULES.md §Compulsory play 1, three-player kitty batak. S2 (Kitty Batak)."""
    g = Game("zipi-kitty", hands=["AH 2C", "9H 2S", "3H 4D"], kitty="5C 6C 7C 8C", dealer=2)
    play_all(g, "bid 5 pass pass")
    play_all(g, "bury 5C bury 6C bury 7C bury 8C trump S")
    g.play("AH")
    assert legal(g) == ["9H"]
    assert_illegal(g, "2S", "must_follow")


# ============================================================ compulsory play, clause 2
@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_must_overtake_highest_card_of_suit_led(preset):
    """RULES.md §Compulsory play 2 (overtake, yükseltme). S0 §5 'Overtake obligation'; S1 'Play
    higher if you can'; S2 'Overtake'; S3 'Büyütme'; S4 'yükseltmek zorundadır'."""
    g = to_play(preset, ["QH 2C 3C", "9H KH AS", "4H 5D 6D", "7H 8D 9D"])
    g.play("QH")
    assert legal(g) == ["KH"]
    assert_illegal(g, "9H", "must_overtake")
    assert_illegal(g, "AS", "must_follow")


def test_overtake_choice_of_which_higher_card():
    """RULES.md §Compulsory play 2: '... you must play one of those (your choice which)'.
    S0 §5 '(which one is up to you)'; S3 'hangisini atacağın senin seçimin'."""
    g = to_play("standard", ["QH 2C 3C", "KH AH 2H", "4H 5D 6D", "7H 8D 9D"])
    g.play("QH")
    assert legal(g) == ["AH", "KH"]
    assert_illegal(g, "2H", "must_overtake")
    g.play("KH")
    assert g.to_move == 2


def test_overtake_against_highest_card_in_trick_not_the_lead():
    """RULES.md §Compulsory play 2: higher than the highest card of that suit in the trick.
    S0 §5 'higher than the highest card of that suit on the table'; S3 'yerdeki o rengin en
    büyüğü'."""
    g = to_play("standard", ["5H 2C 3C", "QH 4C 5C", "9H KH 6C", "7H 8D 9D"])
    play_all(g, "5H QH")
    assert legal(g) == ["KH"]
    err = assert_illegal(g, "9H", "must_overtake")
    assert err.params["top"] == "QH"


def test_no_overtake_obligation_when_you_cannot_beat():
    """RULES.md §Compulsory play 2: only cards higher than the highest are forced; else any of the
    suit. S0 §5; S3."""
    g = to_play("standard", ["AH 2C 3C", "9H 3H 2S", "4H 5D 6D", "7H 8D 9D"])
    g.play("AH")
    assert legal(g) == ["9H", "3H"]


@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_trumps_led_overtake_with_trumps(preset):
    """RULES.md §Compulsory play 2: 'Trumps led: overtake with trumps.' S0 §5 'If trumps were led,
    you must overtake with trumps too'; S1 FAQ 'The same goes for trumps'; S4 'KOZ için de
    geçerlidir'.
    Seat 0 holds only trumps so it may lead one (RULES.md §Leading trumps)."""
    g = to_play(preset, ["5S 6S 7S", "9S 3S 2H", "4H 5D 6D", "7H 8D 9D"])
    g.play("5S")
    assert legal(g) == ["9S"]
    assert_illegal(g, "3S", "must_overtake")
    assert_illegal(g, "2H", "must_follow")


# ============================================================ compulsory play, clause 3
RUFF_HANDS = ["5H 2C 3C", "2S 4D 5D", "9H 3H 6D", "7H 8D 9D"]


@pytest.mark.parametrize(
    "preset", ["sultan-ihaleli", "sultan-esli", "zipi-ihaleli", "zipi-esli", "cetinsgame-ihaleli",
               "cetinsgame-esli", "standard"])
def test_overtake_after_ruff_off_only_follow_suit(preset):
    """RULES.md §Compulsory play 3, overtake_after_ruff off: after a ruff you only follow suit.
    S0 §5 'this obligation falls away'; S3 'Löve kozla kesilmişse ... büyütmek zorunda değilsin';
    S2 'if you can beat the highest card on the table'."""
    assert Rules.preset(preset).overtake_after_ruff is False
    g = to_play(preset, RUFF_HANDS)
    play_all(g, "5H 2S")
    assert legal(g) == ["9H", "3H"]
    g.play("3H")
    g.play("7H")
    assert g.last_trick is not None and g.last_trick.winner == 1


@pytest.mark.parametrize("rules", [
    Rules.preset("gamelake-ihaleli"),
    Rules.preset("gamelake-esli"),
    Rules.preset("cetinsgame-ihaleli", overtake_after_ruff=True),
])
def test_overtake_after_ruff_on_must_still_beat_led_suit(rules):
    """RULES.md §Compulsory play 3, overtake_after_ruff on: still beat the highest card of the led
    suit. S1 'If you can beat the highest card of that suit already in the trick, you must' (no
    exception); S3 'kozla kesilmiş lövede de büyütme' (a table variant)."""
    assert rules.overtake_after_ruff is True
    g = to_play(rules, RUFF_HANDS)
    play_all(g, "5H 2S")
    assert legal(g) == ["9H"]
    err = assert_illegal(g, "3H", "must_overtake")
    assert err.params["top"] == "5H"
    g.play("9H")
    g.play("7H")
    assert g.last_trick is not None and g.last_trick.winner == 1  # the ruff still wins


# ============================================================ compulsory play, clause 4
@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_void_must_trump(preset):
    """RULES.md §Compulsory play 4 (must trump). S0 §5 'Must trump'; S1 'No card of the suit?
    Trump'; S2 'Compulsory trump'; S3 'Koz atma'; S4 'koz oynamak zorundadır'."""
    g = to_play(preset, ["AH 2C 3C", "2S 3D 4D", "4H 5D 6D", "7H 8D 9D"])
    g.play("AH")
    assert legal(g) == ["2S"]
    assert_illegal(g, "3D", "must_trump")
    g.play("2S")
    play_all(g, "4H 7H")
    assert g.last_trick is not None and g.last_trick.winner == 1


OVERTRUMP_HANDS = ["AH 2C 3C", "5S 4D 5D", "3S 9S 2D", "6H 7D 8D"]


@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_must_overtrump(preset):
    """RULES.md §Compulsory play 4 (overtrump, on everywhere). S0 §5 'Overtrump'; S1 'a higher trump
    than any already in the trick if you can'; S2; S3 'Büyük koz'."""
    assert Rules.preset(preset).overtrump is True
    g = to_play(preset, OVERTRUMP_HANDS)
    play_all(g, "AH 5S")
    assert legal(g) == ["9S"]
    assert_illegal(g, "3S", "must_overtrump")
    assert_illegal(g, "2D", "must_trump")


@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_trump_if_cannot_overtrump_on(preset):
    """RULES.md §Compulsory play 4, trump_if_cannot_overtrump on (Sultan, GameLake, Zipi, CetinsGame
    default, açık eşli): cannot beat the trump, still play a trump. S0 §5 'if you have no higher
    trump you still play a trump'; S2 'Only with no trumps may you discard'; S3 'Geçemiyorsan yine
    de koz atarsın'; S4."""
    assert Rules.preset(preset).trump_if_cannot_overtrump is True
    g = to_play(preset, ["AH 2C 3C", "9S 4D 5D", "3S 2D 4C", "6H 7D 8D"])
    play_all(g, "AH 9S")
    assert legal(g) == ["3S"]
    assert_illegal(g, "2D", "must_trump")


def test_trump_if_cannot_overtrump_off_any_card():
    """RULES.md §Compulsory play 4, trump_if_cannot_overtrump off (a CetinsGame table variant): may
    play any card. S3 'kozu geçemeyenin yine de koz atıp atmayacağı'."""
    r = Rules.preset("cetinsgame-ihaleli", trump_if_cannot_overtrump=False)
    g = to_play(r, ["AH 2C 3C", "9S 4D 5D", "3S 2D 4C", "6H 7D 8D"])
    play_all(g, "AH 9S")
    assert legal(g) == ["3S", "2D", "4C"]
    g.play("2D")
    assert g.to_move == 3


def test_trump_if_cannot_overtrump_off_still_overtrumps_when_able():
    """RULES.md §Compulsory play 4: with the option off, a higher trump is still compulsory
    (overtrump is on everywhere). S3."""
    r = Rules.preset("cetinsgame-ihaleli", trump_if_cannot_overtrump=False)
    g = to_play(r, OVERTRUMP_HANDS)
    play_all(g, "AH 5S")
    assert legal(g) == ["9S"]
    assert_illegal(g, "3S", "must_overtrump")
    assert_illegal(g, "2D", "must_trump")


def test_first_trump_on_a_trick_may_be_any_trump():
    """RULES.md §Compulsory play 4: void with no trump in the trick yet: any trump (overtrump
    applies only to a trump already in the trick). S0 §5; S3 'Koz atma'."""
    g = to_play("standard", ["AH 2C 3C", "9S 2S 4D", "4H 5D 6D", "7H 8D 9D"])
    g.play("AH")
    assert legal(g) == ["9S", "2S"]


# ============================================================ compulsory play, clause 5
@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_free_discard_without_suit_or_trump(preset):
    """RULES.md §Compulsory play 5 (free discard). S0 §5 'Free discard'; S1 'No suit and no
    trumps?'; S2; S3 'Serbest kart'; S4 'herhangi bir kart oynanır ama yerdeki eli alma şansı
    yoktur'."""
    g = to_play(preset, ["AH 2C 3C", "2D 4C 5C", "4H 5D 6D", "7H 8D 9D"])
    g.play("AH")
    assert legal(g) == ["2D", "5C", "4C"]
    g.play("5C")
    play_all(g, "4H 7H")
    assert g.last_trick is not None and g.last_trick.winner == 0


# ============================================================ overtake switched off (Zipi)
def test_overtake_off_follow_with_any_card_of_suit():
    """RULES.md §Compulsory play 2: option overtake (Zipi lets it be switched off). S2 'The overtake
    and trump-breaking rules can be switched off in Zipi's menu'."""
    r = Rules.preset("zipi-ihaleli", overtake=False)
    g = to_play(r, ["QH 2C 3C", "9H KH AS", "4H 5D 6D", "7H 8D 9D"])
    g.play("QH")
    assert legal(g) == ["KH", "9H"]
    assert_illegal(g, "AS", "must_follow")  # following suit stays compulsory


def test_zipi_overtake_switch_off_is_overtake_and_overtrump_off():
    """RULES.md §Compulsory play 2: "Zipi's single switch sets both off" (overtrump); must trump
    stays. Zipi: 'Overtake: ... when trumping, beat any trump already down' is the one rule that
    'can be switched off in Zipi's menu'; 'Compulsory trump' is a separate rule. The Zipi table
    with that switch off is overtake=False, overtrump=False."""
    r = Rules.preset("zipi-ihaleli", overtake=False, overtrump=False)
    g = to_play(r, OVERTRUMP_HANDS)
    play_all(g, "AH 5S")
    assert legal(g) == ["9S", "3S"]
    assert_illegal(g, "2D", "must_trump")


# ===================================================================== leading trumps
TRUMP_LEAD_HANDS = ["AS KH 2H", "3H 4C 5C", "4H 6C 7C", "5H 8C 9C"]


@pytest.mark.parametrize("preset", [p for p in FOUR_SEAT if p != "esli-acik"])
def test_trumps_may_not_be_led_before_broken(preset):
    """RULES.md §Leading trumps: trump_lead after_broken (all but açık eşli); for the bidder this is
    'may not open with a trump' (CetinsGame explicitly). S0 §5 'Leading trumps'; S1 'Breaking
    trumps'; S2 'nobody, including the bidder, may lead a trump'; S3 'ihaleci de ilk karta koz
    açamaz' and (koz maça) 'koz kırılmadan maça açılamaz'."""
    assert Rules.preset(preset).trump_lead == "after_broken"
    g = to_play(preset, TRUMP_LEAD_HANDS)
    assert g.trumps_broken is False
    assert legal(g) == ["KH", "2H"]
    assert_illegal(g, "AS", "trump_not_broken")


def test_bidder_may_not_open_with_a_trump_kitty():
    """RULES.md §Leading trumps, the bidder's opening lead, in kitty batak. S2 'including the
    bidder'."""
    g = Game("zipi-kitty", hands=["AS KH", "3H 4C", "4H 6C"], kitty="5C 6S 7S 8C", dealer=2)
    play_all(g, "bid 5 pass pass bury 5C bury 6S bury 7S bury 8C trump S")
    assert g.to_move == 0
    assert legal(g) == ["KH"]
    assert_illegal(g, "AS", "trump_not_broken")


def test_trump_lead_any_time_acik_esli():
    """RULES.md §Leading trumps: trump_lead any_time (açık eşli). S4 'Koz dahil tüm kart tipleri ilk
    kart olarak oynanabilir' - the bidder may open with a trump."""
    assert Rules.preset("esli-acik").trump_lead == "any_time"
    g = to_play("esli-acik", TRUMP_LEAD_HANDS)
    assert g.trumps_broken is False
    assert legal(g) == ["AS", "KH", "2H"]
    g.play("AS")
    assert g.to_move == 1


def test_trump_lead_restriction_off_on_cetinsgame_table():
    """RULES.md §Leading trumps / §Left open ('trump-lead restriction off'): any_time as an option.
    S3 'Bazı masalarda bu kısıt yoktur ve koz her an açılabilir'."""
    g = to_play(Rules.preset("cetinsgame-ihaleli", trump_lead="any_time"), TRUMP_LEAD_HANDS)
    assert legal(g) == ["AS", "KH", "2H"]


@pytest.mark.parametrize("preset", FOUR_SEAT)
def test_holding_only_trumps_may_lead_one(preset):
    """RULES.md §Leading trumps: 'A player holding only trumps may always lead one.' S0 §5 'If you
    hold only trumps you may lead one'; S1; S2 'unless they hold only trumps'; S3 'Tek istisna'."""
    g = to_play(preset, ["AS KS 2S", "3H 4C 5C", "4H 6C 7C", "5H 8C 9C"])
    assert legal(g) == ["AS", "KS", "2S"]
    g.play("2S")
    assert g.to_move == 1


@pytest.mark.parametrize("preset", ["cetinsgame-ihaleli", "gamelake-ihaleli", "sultan-ihaleli",
                                    "zipi-ihaleli"])
def test_ruff_breaks_trumps(preset):
    """RULES.md §Leading trumps: a ruff breaks trumps under both broken_by values. S1 'a trump has
    been played on another suit'; S3 'Biri açılan renge uyamayıp koz attığında koz kırılmış olur';
    S0 §5; S2."""
    g = to_play(preset, ["AH 2C 3C", "2S 3S 4D", "5H 5D 6D", "6H 7D 8D"])
    assert g.trumps_broken is False
    play_all(g, "AH 2S")
    assert g.trumps_broken is True
    play_all(g, "5H 6H")
    assert g.to_move == 1
    assert legal(g) == ["3S", "4D"]  # the ruffer may now lead a trump


BROKEN_BY_HANDS = ["2S 3S 4S", "AS KS 2H", "5S 4H 5H", "6S 6H 7H"]


@pytest.mark.parametrize("preset", ["sultan-ihaleli", "zipi-ihaleli", "sultan-esli", "zipi-esli"])
def test_broken_by_any_trump_a_trump_lead_breaks(preset):
    """RULES.md §Leading trumps, broken_by any_trump (Sultan, Zipi): a trump played in any way
    breaks trumps, including the lead of a player holding only trumps. S0 §5 'until a trump has been
    played in that deal'; S2 'until someone has played one'."""
    assert Rules.preset(preset).broken_by == "any_trump"
    g = to_play(preset, BROKEN_BY_HANDS)
    g.play("2S")
    assert g.trumps_broken is True
    assert legal(g) == ["AS", "KS"]
    play_all(g, "AS 5S 6S")
    assert g.to_move == 1
    assert legal(g) == ["KS", "2H"]
    g.play("KS")
    assert g.to_move == 2


@pytest.mark.parametrize("preset", ["cetinsgame-ihaleli", "gamelake-ihaleli", "cetinsgame-esli",
                                    "gamelake-esli", "standard"])
def test_broken_by_ruff_a_trump_lead_does_not_break(preset):
    """RULES.md §Leading trumps, broken_by ruff (GameLake, CetinsGame): when a player holding only
    trumps leads one, trumps are still unbroken afterwards. S1 'played on another suit'; S3 'açılan
    renge uyamayıp koz attığında'."""
    assert Rules.preset(preset).broken_by == "ruff"
    g = to_play(preset, BROKEN_BY_HANDS)
    play_all(g, "2S AS 5S 6S")
    assert g.trumps_broken is False
    assert g.to_move == 1
    assert legal(g) == ["2H"]
    assert_illegal(g, "KS", "trump_not_broken")


def test_broken_by_ruff_koz_maca_cetinsgame():
    """RULES.md §Leading trumps with §Koz Maça: spades may not be led before a ruff. S3 (koz maça)
    'koz kırılmadan maça açılamaz'."""
    g = to_play("cetinsgame-kozmaca", ["AH 2C 3C", "2S 3S 4D", "5H 5D 6D", "6H 7D 8D"])
    assert g.trump is Suit.SPADES
    play_all(g, "AH 2S 5H 6H")
    assert g.trumps_broken is True
    assert legal(g) == ["3S", "4D"]


# ===================================================================== the auction
def auction_game(preset: str | Rules = "standard", dealer: int = 3) -> Game:
    return Game(preset, seed=2024, dealer=dealer)


def test_bids_must_rise():
    """RULES.md §Auction: each player bids higher than the highest bid so far, or passes.
    S0 §3 'A bid must be higher'; S1 'Each bid must be higher than the last'; S2; S3; S4."""
    g = auction_game()
    assert legal(g) == ["pass", *(f"bid {n}" for n in range(4, 14))]
    g.play("bid 5")
    assert legal(g) == ["pass", *(f"bid {n}" for n in range(6, 14))]
    err = assert_illegal(g, "bid 5", "bid_too_low")
    assert err.params["low"] == 6
    assert_illegal(g, "bid 4", "bid_too_low")
    assert_illegal(g, "bid 14", "bid_too_high")
    g.play("bid 6")
    assert g.to_move == 2


def test_bid_below_minimum_refused():
    """RULES.md §Auction: bids run from the minimum. S0 §3 'The minimum bid is 4'; S1; S3."""
    g = auction_game()
    assert_illegal(g, "bid 3", "bid_too_low")
    assert_illegal(g, "bid 0", "bid_too_low")


def test_pass_is_final():
    """RULES.md §Auction: 'A pass is final for the deal.' S0 §3 'cannot speak again'; S1 'out of the
    auction'; S2; S3 'Pas diyen o elde bir daha ihaleye giremez'; S4."""
    g = auction_game()
    play_all(g, "bid 4 pass bid 5 pass")
    assert g.to_move == 0
    g.play("bid 6")
    assert g.to_move == 2  # seat 1 (and seat 3) passed and are skipped
    g.play("bid 7")
    assert g.to_move == 0
    g.play("pass")
    assert g.phase == "trump"
    assert g.contract == batak.Contract(bidder=2, bid=7, trump=None)
    assert [(s, str(m)) for s, m in g.auction] == [
        (0, "bid 4"), (1, "pass"), (2, "bid 5"), (3, "pass"), (0, "bid 6"), (2, "bid 7"),
        (0, "pass")]


def test_auction_ends_when_all_others_passed():
    """RULES.md §Auction: ends when a bid has been made and every other player has passed; the
    highest bidder names trump and leads. S0 §3; S1; S3 'Üç oyuncu pas deyince ihale biter'."""
    g = auction_game()
    play_all(g, "bid 4 pass pass")
    assert g.phase == "bidding"
    g.play("pass")
    assert g.phase == "trump"
    assert g.to_move == 0
    assert g.contract == batak.Contract(bidder=0, bid=4, trump=None)
    g.play("trump H")
    assert g.phase == "play"
    assert g.to_move == 0
    assert g.contract == batak.Contract(bidder=0, bid=4, trump=Suit.HEARTS)


def test_auction_ends_when_late_bid_is_passed_out():
    """RULES.md §Auction: earlier passers do not speak again; the last bid wins when the rest pass.
    S0 §3; S2 'When one player is left, they win the contract'."""
    g = auction_game()
    play_all(g, "pass pass bid 5")
    assert g.to_move == 3
    g.play("pass")
    assert g.phase == "trump"
    assert g.contract is not None and (g.contract.bidder, g.contract.bid) == (2, 5)
    assert g.to_move == 2


@pytest.mark.parametrize("preset", AUCTION_4)
def test_max_bid_ends_auction_at_once(preset):
    """RULES.md §Auction: 'or at once on a bid of the maximum' (13). S0 §3 'A bid of 13 ends the
    auction at once'; S1 '(or someone bids 13)'."""
    g = auction_game(preset)
    g.play("bid 13")
    assert g.phase == "trump"
    assert g.contract is not None and (g.contract.bidder, g.contract.bid) == (0, 13)


def test_max_bid_16_ends_kitty_auction_at_once():
    """RULES.md §Auction: maximum 16 in kitty. S2 'Kitty Batak ... 5-16'."""
    g = Game("zipi-kitty", seed=1, dealer=2)
    assert legal(g)[-1] == "bid 16"
    g.play("bid 16")
    assert g.phase == "bury"
    assert g.contract is not None and (g.contract.bidder, g.contract.bid) == (0, 16)
    assert_illegal(Game("zipi-kitty", seed=1, dealer=2), "bid 17", "bid_too_high")


@pytest.mark.parametrize("preset", ["sultan-ihaleli", "sultan-esli", "gamelake-ihaleli",
                                    "gamelake-esli", "zipi-ihaleli", "zipi-esli",
                                    "cetinsgame-ihaleli", "cetinsgame-esli", "standard"])
def test_all_pass_dealer_takes_min(preset):
    """RULES.md §Auction, all_pass dealer_takes_min (Sultan, GameLake, Zipi, CetinsGame default): if
    the dealer passes too, the dealer holds the contract at the minimum. S0 §3 'the dealer is forced
    to take the contract at the minimum bid'; S1; S2; S3 'ihale taban sayıyla dağıtana kalır'."""
    r = Rules.preset(preset)
    assert r.all_pass == "dealer_takes_min"
    g = auction_game(preset, dealer=1)
    play_all(g, "pass pass pass")
    assert g.to_move == 1
    g.play("pass")
    assert g.phase == "trump"
    assert g.to_move == 1
    assert g.contract == batak.Contract(bidder=1, bid=r.min_bid, trump=None)


@pytest.mark.parametrize("preset", ["sultan-ihaleli", "gamelake-ihaleli", "zipi-ihaleli",
                                    "cetinsgame-ihaleli"])
def test_all_pass_dealer_may_still_bid(preset):
    """RULES.md §Auction: 'the dealer, who speaks last, may still bid any amount'. S1 'the dealer
    must take it at the minimum or more'; S3 'dağıtan en son konuşur'."""
    g = auction_game(preset)
    play_all(g, "pass pass pass")
    assert g.to_move == 3
    assert legal(g) == ["pass", *(f"bid {n}" for n in range(4, 14))]
    g.play("bid 9")
    assert g.phase == "trump"
    assert g.contract == batak.Contract(bidder=3, bid=9, trump=None)


def test_all_pass_dealer_takes_min_kitty():
    """RULES.md §Auction, dealer_takes_min with the kitty: the dealer takes the kitty at 5. S2 'If
    everyone else passes without a bid, the last player must take the contract at the minimum'."""
    g = Game("zipi-kitty", hands=["AS", "KS", "QS"], kitty="2C 3C 4C 5C", dealer=2)
    play_all(g, "pass pass pass")
    assert g.phase == "bury"
    assert g.to_move == 2
    assert g.contract == batak.Contract(bidder=2, bid=5, trump=None)
    assert [str(c) for c in g.hand(2)] == ["QS", "5C", "4C", "3C", "2C"]


def test_all_pass_redeal():
    """RULES.md §Auction, all_pass redeal (a CetinsGame table variant): thrown in, no score.
    S3 'Bazı masalarda ise kartlar toplanıp yeniden dağıtılır'."""
    g = auction_game(Rules.preset("cetinsgame-ihaleli", all_pass="redeal"))
    play_all(g, "pass pass pass")
    assert g.phase == "bidding"
    g.play("pass")
    assert g.phase == "over"
    assert g.redeal is True
    assert g.scores is None
    assert g.contract is None
    assert g.to_move is None
    assert g.legal_moves() == []
    assert_illegal(g, "bid 4", "game_over")


def test_no_redeal_flag_on_ordinary_deal():
    """RULES.md §Auction: redeal only when all pass under the redeal option. S3."""
    g = auction_game(Rules.preset("cetinsgame-ihaleli", all_pass="redeal"))
    play_all(g, "bid 4 pass pass pass")
    assert g.redeal is False
    assert g.phase == "trump"


def test_all_pass_first_speaker_takes_min_acik_esli():
    """RULES.md §Auction, all_pass first_speaker_takes_min (açık eşli): the seat after the dealer
    holds the contract at 7. S4 'Dört oyuncuda pas derse, ihale 7 ile dağıtıcının sağındaki
    oyuncuya kalır'."""
    assert Rules.preset("esli-acik").all_pass == "first_speaker_takes_min"
    g = auction_game("esli-acik", dealer=1)
    play_all(g, "pass pass pass pass")
    assert g.phase == "trump"
    assert g.to_move == 2
    assert g.contract == batak.Contract(bidder=2, bid=7, trump=None)


@pytest.mark.parametrize(("preset", "low", "high"), [
    ("sultan-ihaleli", 4, 13), ("gamelake-ihaleli", 4, 13), ("zipi-ihaleli", 4, 13),
    ("cetinsgame-ihaleli", 4, 13), ("standard", 4, 13),
    ("sultan-esli", 7, 13), ("gamelake-esli", 7, 13), ("cetinsgame-esli", 7, 13),
    ("esli-acik", 7, 13), ("zipi-esli", 6, 13), ("zipi-kitty", 5, 16),
])
def test_minimum_and_maximum_bid_per_preset(preset, low, high):
    """RULES.md §Auction: 'Minimum bid: 4 (ihaleli), 7 in eşli (Zipi 6), 5 in kitty'; maximum 13
    (16 in kitty). S0 §3 '4 in İhaleli and 7 in Eşli'; S1 'at least 4 ... 7 in partners'; S2 table
    '4-13', '6-13', '5-16'; S3 'en az 4', 'taban 7'; S4 ('ihale 7 ile')."""
    g = Game(preset, seed=9, dealer=Rules.preset(preset).players - 1)
    assert legal(g) == ["pass", *(f"bid {n}" for n in range(low, high + 1))]
    assert_illegal(g, f"bid {low - 1}", "bid_too_low")
    assert_illegal(g, f"bid {high + 1}", "bid_too_high")


def test_minimum_bid_5_table_variant():
    """RULES.md §Auction: 'CetinsGame tables may use 5'. S3 'en az 4 söylenir (bazı masalarda
    5)'."""
    g = Game(Rules.preset("cetinsgame-ihaleli", min_bid=5), seed=9, dealer=3)
    assert legal(g)[:2] == ["pass", "bid 5"]
    assert_illegal(g, "bid 4", "bid_too_low")


def test_moves_of_the_wrong_phase_are_refused_in_auction():
    """RULES.md §Auction: during the auction only bids and passes. S0 §3."""
    g = auction_game()
    hand0 = str(g.hand(0)[0])
    assert_illegal(g, hand0, "wrong_phase")
    assert_illegal(g, "trump S", "wrong_phase")
    assert_illegal(g, f"bury {hand0}", "wrong_phase")
    assert g.check("pass", seat=2) is not None
    assert g.check("pass", seat=2).code == "not_your_turn"  # type: ignore[union-attr]
    assert g.check("pass", seat=0) is None


def test_bidder_names_trump_then_leads():
    """RULES.md §Auction: the bidder names the trump suit and leads the first trick. S0 §3 'chooses
    one of the four suits as trumps and leads'; S1; S2; S3 'İhaleyi alan, dört renkten birini koz
    ilan eder ve ilk kartı o açar'."""
    g = auction_game(dealer=0)
    play_all(g, "pass bid 5 pass pass")
    assert g.phase == "trump"
    assert g.to_move == 2
    assert legal(g) == ["trump S", "trump H", "trump D", "trump C"]
    assert_illegal(g, "pass", "wrong_phase")
    g.play("trump D")
    assert g.trump is Suit.DIAMONDS
    assert g.phase == "play"
    assert g.to_move == 2


# ============================================================================ kitty
KITTY_HANDS = ["AS 2H 3H", "KS 4H 5H", "QS 6H 7H"]
KITTY = "2C 3C 4C 5C"


def test_kitty_bidder_takes_kitty_and_buries_four_one_at_a_time_then_names_trump():
    """RULES.md §Auction: in kitty batak the bidder takes the kitty, buries four cards one at a
    time (any cards), then names trump and leads. S2 'the bidder first adds the four-card kitty to
    their hand, buries any four cards and then names trump'."""
    g = Game("zipi-kitty", hands=KITTY_HANDS, kitty=KITTY, dealer=2)
    assert g.to_move == 0
    play_all(g, "bid 6 pass")
    assert g.phase == "bidding"
    g.play("pass")
    assert g.phase == "bury"
    assert g.to_move == 0
    assert sorted(str(c) for c in g.hand(0)) == sorted(["AS", "2H", "3H", *KITTY.split()])
    assert legal(g) == ["bury AS", "bury 3H", "bury 2H", "bury 5C", "bury 4C", "bury 3C",
                        "bury 2C"]
    assert_illegal(g, "bury KS", "not_in_hand")
    assert_illegal(g, "trump H", "wrong_phase")
    assert_illegal(g, "AS", "wrong_phase")
    # any cards: two of the dealt hand, two from the kitty, one at a time
    for i, card in enumerate(["2H", "5C", "3H", "4C"], start=1):
        g.play(f"bury {card}")
        assert [str(c) for c in g.buried][-1] == card
        assert len(g.buried) == i
        assert len(g.hand(0)) == 7 - i
        if i < 4:
            assert g.phase == "bury"
            assert g.to_move == 0
    assert g.phase == "trump"
    assert [str(c) for c in g.hand(0)] == ["AS", "3C", "2C"]
    g.play("trump C")
    assert g.phase == "play"
    assert g.to_move == 0
    assert legal(g) == ["AS"]  # clubs are trumps and unbroken


def test_kitty_same_card_cannot_be_buried_twice():
    """RULES.md §Auction (kitty): each buried card leaves the hand. S2. (The refusal says the
    card is buried already: "you do not hold it" puzzled the bidder who had just buried it.)"""
    g = Game("zipi-kitty", hands=KITTY_HANDS, kitty=KITTY, dealer=2)
    play_all(g, "bid 5 pass pass bury 2C")
    assert_illegal(g, "bury 2C", "already_buried")
    assert g.buried == [Card.parse("2C")] and "bury 2C" not in legal(g)
    assert_illegal(g, "bury KS", "not_in_hand")  # a card never held is still not held


def test_kitty_buried_cards_seen_by_bidder_only():
    """RULES.md §Auction (kitty): the buried cards are the bidder's own. S2."""
    g = Game("zipi-kitty", hands=KITTY_HANDS, kitty=KITTY, dealer=2)
    play_all(g, "bid 5 pass pass bury 2C bury 3C bury 4C bury 5C trump H")
    assert g.view(0)["buried"] == ["2C", "3C", "4C", "5C"]
    assert g.view(1)["buried"] is None
    assert g.view(2)["buried"] is None


# ========================================================================= Koz Maça
def test_sultan_kozmaca_one_bid_each_no_pass():
    """RULES.md §Koz Maça: Sultan: each player, starting after the dealer, bids once (1 to 13); no
    pass. S0 §4 'there is no auction and no passing ... at least 1, at most 13'."""
    g = Game("sultan-kozmaca", seed=4, dealer=3)
    assert g.phase == "bidding"
    assert g.to_move == 0
    assert legal(g) == [f"bid {n}" for n in range(1, 14)]
    assert_illegal(g, "pass", "cannot_pass")
    assert_illegal(g, "bid 0", "bid_too_low")
    assert_illegal(g, "bid 14", "bid_too_high")
    g.play("bid 5")
    assert g.to_move == 1
    assert legal(g) == [f"bid {n}" for n in range(1, 14)]  # bids need not rise
    g.play("bid 2")
    g.play("bid 6")
    assert g.phase == "bidding"
    g.play("bid 1")
    assert g.bids == [5, 2, 6, 1]
    assert g.contract is None


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_sultan_kozmaca_seat_after_dealer_leads_spades_trump(dealer):
    """RULES.md §Koz Maça: spades always trump; the seat after the dealer leads (not the highest
    bidder). S0 §4 'Spades are always trumps' and 'The player after the dealer leads'."""
    g = Game("sultan-kozmaca", seed=4, dealer=dealer)
    for amount in (1, 2, 13, 3):
        g.play(f"bid {amount}")
    assert g.phase == "play"
    assert g.to_move == (dealer + 1) % 4
    assert g.trump is Suit.SPADES


def test_sultan_kozmaca_spade_ruff_wins_the_trick():
    """RULES.md §Koz Maça (spades trump) with §Compulsory play 4. S0 §4 and §5 'Must trump'."""
    g = to_play("sultan-kozmaca", ["AH 2H", "2S 3D", "4H 5H", "6H 7H"])
    g.play("AH")
    assert legal(g) == ["2S"]
    play_all(g, "2S 4H 6H")
    assert g.tricks_won == [0, 1, 0, 0]


@pytest.mark.parametrize("preset", ["zipi-kozmaca", "cetinsgame-kozmaca"])
@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_kozmaca_without_bidding_play_starts_at_once(preset, dealer):
    """RULES.md §Koz Maça: Zipi, CetinsGame: no bidding at all; the seat after the dealer leads;
    spades trump. S2 'Spades Trump ... None, spades always trump'; S3 'ihale yapılmaz ve koz her
    elde maçadır. İlk kartı dağıtanın sağındaki oyuncu açar'."""
    g = Game(preset, seed=8, dealer=dealer)
    assert g.phase == "play"
    assert g.to_move == (dealer + 1) % 4
    assert g.trump is Suit.SPADES
    assert g.contract is None
    assert g.auction == []
    assert_illegal(g, "bid 4", "wrong_phase")
    assert_illegal(g, "pass", "wrong_phase")
    assert_illegal(g, "trump H", "wrong_phase")


# ========================================================================= partners
def test_partners_are_opposite_seats():
    """RULES.md §Partners: seats 0 and 2 against 1 and 3. S0 §2 'Players sitting opposite each other
    are partners'; S1; S2; S3 'karşılıklı oturanlar eştir'."""
    for preset in ["sultan-esli", "gamelake-esli", "zipi-esli", "cetinsgame-esli", "esli-acik"]:
        r = Rules.preset(preset)
        assert r.partners is True
        assert r.teams == ((0, 2), (1, 3))
        assert Game(r, seed=1).team_of(3) == (1, 3)


def test_partners_auction_is_per_player():
    """RULES.md §Partners: the auction is per player (a partner may outbid their partner).
    S3 'İhaleyi bir oyuncu söyler, söz ise takımındır'; S0 §2."""
    g = auction_game("cetinsgame-esli")
    play_all(g, "bid 7 pass bid 8 pass pass")
    assert g.phase == "trump"
    assert g.contract == batak.Contract(bidder=2, bid=8, trump=None)
    assert g.to_move == 2


def test_partners_contract_counted_on_team_tricks():
    """RULES.md §Partners: the contract and every count is the partnership's. S0 §6 'partners'
    combined tricks'; S1 'their tricks count together, for the bid too'; S3 'iki eşin aldığı löveler
    toplanır'."""
    r = Rules.preset("cetinsgame-esli")
    # neither partner took 7 alone; together they took 8
    assert batak.score(r, [4, 2, 4, 3], bidder=0, bid=7) == [80, 50, 80, 50]
    assert batak.score(r, [3, 3, 3, 4], bidder=2, bid=7) == [-70, 70, -70, 70]


def test_partners_played_deal_scores_by_team():
    """RULES.md §Partners, played out: both partners score the team's figure; the partner's trick
    counts for the bidder's team. S1 'their tricks count together'; S0 §6 'each partner receives
    their team's score'."""
    g = to_play("gamelake-esli", ["AH AC", "3H 3C", "KS 4C", "4H 5C"], bid=7)
    play_all(g, "AH 3H")
    assert legal(g) == ["KS"]  # seat 2 is void in hearts: must trump, even its partner's ace
    play_all(g, "KS 4H")
    assert g.to_move == 2
    play_all(g, "4C 5C AC 3C")
    assert g.tricks_won == [1, 0, 1, 0]
    assert g.phase == "over"
    assert g.scores == [-7, 0, -7, 0]  # team 2 < 7: down; GameLake has no zero-trick penalty


# ====================================================================== açık eşli
ACIK_HANDS = ["AS KH 2H", "3H 4C 5C", "4H 6C 7C", "5H 8C 9C"]


def test_acik_esli_partner_hand_exposed_to_every_seat_once_trump_named():
    """RULES.md §Partners, açık eşli: once the trump is named, the bidder's partner's hand is face
    up for the whole table for the rest of the deal, and they still play it. S4 'İhaleyi alan
    kullanıcının takım arkadaşı elinde ki kartları masaya açar. Diğer oyuncularda dahil olmak üzere
    tüm oyuncular ... görerek oynarlar'."""
    g = Game("esli-acik", hands=ACIK_HANDS, dealer=3)
    play_all(g, "bid 7 pass pass pass")
    assert g.phase == "trump"
    for seat in (None, 0, 1, 3):
        v = g.view(seat)
        assert v["exposed"] is None
        assert "4H" not in v["hand"]
    g.play("trump C")
    assert g.exposed_seat == 2
    for seat in (None, 0, 1, 2, 3):
        assert g.view(seat)["exposed"] == {"seat": 2, "cards": ["4H", "7C", "6C"]}
    play_all(g, "KH 3H")
    assert g.to_move == 2
    assert legal(g) == ["4H"]  # the exposed partner still plays their own hand
    assert g.view(2)["legal_moves"] == ["4H"]
    assert g.view(0)["legal_moves"] == []
    g.play("4H")
    for seat in (None, 0, 1, 2, 3):
        assert g.view(seat)["exposed"] == {"seat": 2, "cards": ["7C", "6C"]}


def test_acik_esli_exposed_seat_follows_the_bidder():
    """RULES.md §Partners, açık eşli: it is the bidder's partner who plays face up. S4."""
    g = Game("esli-acik", seed=6, dealer=0)
    play_all(g, "bid 8 pass pass pass trump H")
    assert g.contract is not None and g.contract.bidder == 1
    assert g.exposed_seat == 3
    assert g.view(0)["exposed"]["cards"] == [str(c) for c in g.hand(3)]


def test_ordinary_partners_do_not_see_each_other():
    """RULES.md §Partners: 'Partners do not see each other's cards' (except açık eşli). S3 'Eşler
    birbirinin kartını görmez'; S0 §1 'each player sees only their own cards'."""
    g = Game("cetinsgame-esli", hands=ACIK_HANDS, dealer=3)
    play_all(g, "bid 7 pass pass pass trump C")
    assert g.exposed_seat is None
    v = g.view(0)
    assert v["exposed"] is None
    assert v["hand"] == ["AS", "KH", "2H"]
    assert v["hand_sizes"] == [3, 3, 3, 3]


# ========================================================================== presets
COMMON = dict(overtake=True, overtrump=True, overtricks_count=True)
FOUR = dict(players=4, hand_size=13, kitty_size=0, max_bid=13)
AUCTION = dict(bidding="auction", fixed_trump=None, all_pass="dealer_takes_min",
               trump_lead="after_broken", exposed_partner=False, king=False)
SULTAN = dict(trump_if_cannot_overtrump=True, overtake_after_ruff=False, broken_by="any_trump",
              scoring="sultan", deals=11, tie="shared", first_dealer="random", last_trick="deal")
GAMELAKE = dict(trump_if_cannot_overtrump=True, overtake_after_ruff=True, broken_by="ruff",
                scoring="simple", zero_trick_penalty="none", tie="extra_deal",
                first_dealer="random", last_trick="deal")
ZIPI = dict(trump_if_cannot_overtrump=True, overtake_after_ruff=False, broken_by="any_trump",
            scoring="simple", zero_trick_penalty="none", deals=11, tie="shared",
            first_dealer="random", last_trick="deal")
CETINS = dict(trump_if_cannot_overtrump=True, overtake_after_ruff=False, broken_by="ruff",
              scoring="tens", zero_trick_penalty="min_bid", tie="last_deal_tricks",
              first_dealer="random", last_trick="any_time")
KOZMACA = dict(fixed_trump=Suit.SPADES, trump_lead="after_broken", partners=False)

EXPECTED_PRESETS: dict[str, dict[str, object]] = {
    "sultan-ihaleli": {**FOUR, **AUCTION, **SULTAN, "partners": False, "min_bid": 4,
                       "zero_trick_penalty": "bid"},
    "sultan-esli": {**FOUR, **AUCTION, **SULTAN, "partners": True, "min_bid": 7,
                    "zero_trick_penalty": "bid"},
    "sultan-kozmaca": {**FOUR, **SULTAN, **KOZMACA, "bidding": "kozmaca", "min_bid": 1,
                       "zero_trick_penalty": "none"},
    "gamelake-ihaleli": {**FOUR, **AUCTION, **GAMELAKE, "partners": False, "min_bid": 4},
    "gamelake-esli": {**FOUR, **AUCTION, **GAMELAKE, "partners": True, "min_bid": 7},
    "zipi-ihaleli": {**FOUR, **AUCTION, **ZIPI, "partners": False, "min_bid": 4},
    "zipi-esli": {**FOUR, **AUCTION, **ZIPI, "partners": True, "min_bid": 6},
    "zipi-kozmaca": {**FOUR, **ZIPI, **KOZMACA, "bidding": "none"},
    "zipi-kitty": {**AUCTION, **ZIPI, "players": 3, "hand_size": 16, "kitty_size": 4,
                   "min_bid": 5, "max_bid": 16, "partners": False},
    "cetinsgame-ihaleli": {**FOUR, **AUCTION, **CETINS, "partners": False, "min_bid": 4},
    "cetinsgame-esli": {**FOUR, **AUCTION, **CETINS, "partners": True, "min_bid": 7},
    "cetinsgame-kozmaca": {**FOUR, **CETINS, **KOZMACA, "bidding": "none"},
    "esli-acik": {**FOUR, "bidding": "auction", "fixed_trump": None, "partners": True,
                  "exposed_partner": True, "min_bid": 7,
                  "all_pass": "first_speaker_takes_min", "trump_lead": "any_time",
                  "trump_if_cannot_overtrump": True, "scoring": "acik", "king": True,
                  "zero_trick_penalty": "none", "first_dealer": "first_seated",
                  "last_trick": "deal",
                  "deals": None, "tie": "extra_deal"},
}
EXPECTED_PRESETS["standard"] = EXPECTED_PRESETS["cetinsgame-ihaleli"]
MATCH_LENGTHS = {"gamelake": {3, 5, 10}, "cetinsgame": {4, 8, 12}, "standard": {4, 8, 12}}


def test_preset_names_are_the_thirteen_plus_standard():
    """RULES.md §Presets: the names are fixed; `standard` is the project's default."""
    assert sorted(Rules.preset_names()) == sorted(EXPECTED_PRESETS)
    assert len(Rules.preset_names()) == 14


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_preset_option_values(name):
    """RULES.md §Presets and each section's 'which value each guide uses'. Sultan S0, GameLake S1,
    Zipi S2, CetinsGame S3, açık eşli S4 (values quoted in the other tests of this file)."""
    r = Rules.preset(name)
    expected = {**COMMON, **EXPECTED_PRESETS[name]}
    actual = {k: getattr(r, k) for k in expected}
    assert actual == expected
    family = name.split("-")[0]
    if family in MATCH_LENGTHS:
        assert r.deals in MATCH_LENGTHS[family]  # GameLake 3/5/10, CetinsGame 4/8/12 deals
    if name == "esli-acik":
        assert r.target_score is not None and r.target_score > 0  # 'to a target score'


def test_standard_is_the_cetinsgame_table():
    """RULES.md §Presets: 'The project's own default (`standard`) is the CetinsGame table.' S3."""
    std = Rules.preset("standard").to_dict()
    cg = Rules.preset("cetinsgame-ihaleli").to_dict()
    std.pop("name")
    cg.pop("name")
    assert std == cg
    assert Game(seed=1).rules.to_dict() | {"name": "x"} == Rules.preset("standard").to_dict() | {
        "name": "x"}


# ================================================ overtaking and overtrumping, apart (CetinsGame)
CETINS_SETTINGS = (
    "renk büyütmenin zorunlu olup olmadığı, kozla kesilmiş lövede de büyütme, büyük koz "
    "zorunluluğu, kozu geçemeyenin yine koz atıp atmayacağı"
)


def test_overtake_off_overtrump_on_still_forces_the_higher_trump():
    """docs/rules.md §Compulsory play: overtake and overtrump are separate table settings.
    CetinsGame lists them apart among the table settings: "renk büyütmenin zorunlu olup olmadığı
    … büyük koz zorunluluğu". A table with overtaking off and overtrumping on: a void player
    must still beat the trump on the table; a follower need not beat the suit led."""
    assert "renk büyütmenin zorunlu olup olmadığı" in CETINS_SETTINGS
    r = Rules.preset("cetinsgame-ihaleli", overtake=False)
    assert r.overtrump is True
    g = to_play(r, OVERTRUMP_HANDS)
    play_all(g, "AH 5S")
    assert legal(g) == ["9S"]
    assert_illegal(g, "3S", "must_overtrump")
    g = to_play(r, ["QH 2C 3C", "9H KH AS", "4H 5D 6D", "7H 8D 9D"])
    g.play("QH")
    assert legal(g) == ["KH", "9H"]  # no overtaking in the suit led


def test_overtake_on_overtrump_off_ruffs_with_any_trump():
    """docs/rules.md §Compulsory play: CetinsGame's "büyük koz zorunluluğu" switched off alone:
    a void player must trump (CetinsGame "Koz atma: Açılan renk sende hiç yoksa koz atmak
    zorundasın") but any trump will do; overtaking in the suit led stays."""
    r = Rules.preset("cetinsgame-ihaleli", overtrump=False)
    g = to_play(r, OVERTRUMP_HANDS)
    play_all(g, "AH 5S")
    assert legal(g) == ["9S", "3S"]
    assert_illegal(g, "2D", "must_trump")
    g = to_play(r, ["QH 2C 3C", "9H KH AS", "4H 5D 6D", "7H 8D 9D"])
    g.play("QH")
    assert legal(g) == ["KH"]


def test_zipi_presets_spell_out_both_switches():
    """Zipi: "The overtake and trump-breaking rules can be switched off in Zipi's menu; both are
    on by default". Its overtake rule covers both ("when trumping, beat any trump already
    down"), so every Zipi preset sets overtake and overtrump on, explicitly."""
    for name in ("zipi-ihaleli", "zipi-esli", "zipi-kozmaca", "zipi-kitty"):
        r = Rules.preset(name)
        assert (r.overtake, r.overtrump) == (True, True)


@pytest.mark.parametrize(
    ("changes", "names"),
    [
        ({"overtake": False, "overtake_after_ruff": True}, ("overtake_after_ruff", "overtake")),
        (
            {"overtrump": False, "trump_if_cannot_overtrump": False},
            ("trump_if_cannot_overtrump", "overtrump"),
        ),
    ],
    ids=["after_ruff_without_overtake", "free_discard_without_overtrump"],
)
def test_an_option_that_qualifies_a_switched_off_one_is_refused(changes, names):
    """docs/rules.md §Compulsory play: CetinsGame's "kozla kesilmiş lövede de büyütme" is a kind
    of "renk büyütme", and "kozu geçemeyenin yine koz atıp atmayacağı" a kind of "büyük koz
    zorunluluğu": with the first switched off the second means nothing, so the table is refused
    with a RulesError naming both options, never quietly changed."""
    assert "kozla kesilmiş lövede de büyütme" in CETINS_SETTINGS
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("gamelake-ihaleli", **changes)
    assert all(n in str(info.value) for n in names)


def test_every_rules_refusal_writes_values_as_they_are_typed() -> None:
    """A rules_error text names an option's value as one types it (partners=yes, bidding=none,
    fixed_trump=S), in English and Turkish: no Python True/False/None, no repr quotes."""
    from batak.i18n import MESSAGES

    keys = [k for k in MESSAGES if k.startswith("rules_error.")]
    assert len(keys) > 30
    for key in keys:
        for lang in ("en", "tr"):
            template = MESSAGES.get_text(key, lang)
            assert not re.search(r"!r\}|\b(True|False|None|null)\b|='", template), (key, lang)
    err = batak.RulesError("kitty_auction", kitty_size=4, bidding="none")
    assert str(err) == "options clash: kitty_size=4 needs bidding=auction (got bidding=none)"
    assert err.text("tr") == (
        "seçenekler çelişiyor: kitty_size=4 için bidding=auction gerekir (şu an bidding=none)"
    )
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("standard", fixed_trump="X")
    assert info.value.code == "not_suit" and str(info.value).endswith("got X")


# ========================================================= the zero-trick penalty, its own setting
def test_cetinsgame_batak_costs_the_minimum_bid_in_tens():
    """docs/rules.md §Scoring: zero_trick_penalty='min_bid'. CetinsGame: "İhaleci olmayan bir
    oyuncu elde hiç löve alamazsa o da batmış sayılır ve yaygın kurala göre taban ihale kadar
    eksi yazar"; its example under 10 a trick: "hiç löve alamayan -40 yazar"."""
    r = Rules.preset("cetinsgame-ihaleli")
    assert r.zero_trick_penalty == "min_bid"
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [70, 30, 30, -40]
    assert batak.score(r, [13, 0, 0, 0], bidder=0, bid=13) == [130, -40, -40, -40]
    esli = Rules.preset("cetinsgame-esli")  # "Takımın sözü olduğu için taban ihale yaygın olarak 7"
    assert batak.score(esli, [7, 0, 6, 0], bidder=0, bid=8) == [130, -70, 130, -70]
    kozmaca = Rules.preset("cetinsgame-kozmaca")  # "hiç löve alamayan batar"
    assert batak.score(kozmaca, [7, 6, 0, 0]) == [70, 60, -40, -40]


def test_cetinsgame_batak_is_the_minimum_bid_whatever_the_scheme():
    """CetinsGame: "Sade puanlamada her löve 1 puandır ve batan ihaleci ihalesi kadar eksi yazar";
    with the same "taban ihale kadar eksi" the batak costs the minimum bid in that scheme's
    points: −4 under sade, −5 with "taban ihale … (bazı masalarda 5)"."""
    sade = Rules.preset("cetinsgame-ihaleli", scoring="simple")
    assert batak.score(sade, [7, 3, 3, 0], bidder=0, bid=6) == [7, 3, 3, -4]
    five = Rules.preset("cetinsgame-ihaleli", min_bid=5)
    assert batak.score(five, [7, 3, 3, 0], bidder=0, bid=6) == [70, 30, 30, -50]


def test_primli_keeps_its_own_figure_under_scheme():
    """CetinsGame: "Primli puanlamada … hiç löve almayan -50 yazar": zero_trick_penalty='scheme'
    gives each scheme's own figure (primli −50); 'min_bid' gives −10 × the minimum bid."""
    r = Rules.preset("cetinsgame-ihaleli", scoring="primli", zero_trick_penalty="scheme")
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [100, 30, 30, -50]
    r = r.replace(zero_trick_penalty="min_bid")
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [100, 30, 30, -40]


def test_sultan_batak_costs_the_contract_and_zipi_variant_too():
    """Batak Sultan: "a player who did not win the contract and took no tricks at all ('batak')
    | −(10 × bid)" (zero_trick_penalty='bid'). Zipi: "some tables also bust any non-bidder who
    takes no tricks", at "Going bust costs the full bid": 'bid' under simple is − the bid."""
    sultan = Rules.preset("sultan-ihaleli")
    assert batak.score(sultan, [8, 3, 2, 0], bidder=0, bid=6) == [62, 3, 2, -60]
    zipi = Rules.preset("zipi-ihaleli", zero_trick_penalty="bid")
    assert batak.score(zipi, [7, 3, 3, 0], bidder=0, bid=6) == [7, 3, 3, -6]
    assert batak.score(Rules.preset("zipi-ihaleli"), [7, 3, 3, 0], bidder=0, bid=6) == [7, 3, 3, 0]


def test_zero_trick_penalty_reads_the_old_switch():
    """Older records and tables stored zero_trick_penalty as true/false: true is each scheme's
    own figure ('scheme', what the switch meant), false is 'none'."""
    assert Rules.from_dict({"zero_trick_penalty": True}).zero_trick_penalty == "scheme"
    assert Rules.from_dict({"zero_trick_penalty": False}).zero_trick_penalty == "none"
    with pytest.raises(batak.RulesError, match="zero_trick_penalty"):
        Rules.from_dict({"zero_trick_penalty": "double"})


@pytest.mark.parametrize(
    "changes",
    [
        {"scoring": "acik", "partners": True, "zero_trick_penalty": "min_bid"},
        {"bidding": "kozmaca", "fixed_trump": "S", "min_bid": 1, "zero_trick_penalty": "bid"},
    ],
    ids=["acik", "kozmaca"],
)
def test_a_zero_trick_penalty_that_would_be_ignored_is_refused(changes):
    """Açık eşli: "İhaleye girmeyen kullanıcılar ise minimum 2 alamazlarsa ihale miktarına
    batarlar" is its own defenders' rule; Batak Sultan's Koz Maça measures every player against
    their own bid. A separate zero-trick penalty there would be ignored, so it is refused."""
    with pytest.raises(batak.RulesError, match="zero_trick_penalty"):
        Rules.preset("standard", **changes)


# ================================================================ the last trick (CetinsGame)
def _play_to_next_deal(m):
    """Play the match's current deal to its end with the first legal move (a bid if any)."""
    deals = len(m.games)
    while len(m.games) == deals and not m.over:
        moves = m.legal_moves()
        first_bid = m.game.phase == "bidding" and not m.game.auction and len(moves) > 1
        m.play(moves[1] if first_bid else moves[0])


def test_cetinsgame_last_trick_can_be_seen_at_the_start_of_the_next_deal():
    """docs/rules.md §Seeing the last trick: last_trick='any_time'. CetinsGame: "Son löve her an
    görülebilir". At the start of the next deal the previous deal's last trick is in every
    seat's view (with the number of its deal) until the new deal's first trick is complete."""
    m = batak.Match("cetinsgame-ihaleli", seed=5)
    assert m.rules.last_trick == "any_time"
    _play_to_next_deal(m)
    final = m.games[0].last_trick
    assert final is not None and len(m.games) == 2
    for seat in (0, 1, 2, 3, None):
        v = m.view(seat)
        assert v["tricks"] == []
        assert v["last_trick"] == {**final.to_dict(), "deal": 1}
    while not m.game.tricks:
        assert m.view(0)["last_trick"]["deal"] == 1
        m.play(m.legal_moves()[1 if m.game.phase == "bidding" and not m.game.auction else 0])
    assert m.view(0)["last_trick"] == {**m.game.tricks[0].to_dict(), "deal": 2}


@pytest.mark.parametrize("preset", ["sultan-ihaleli", "gamelake-ihaleli", "zipi-ihaleli",
                                    "esli-acik"])
def test_other_guides_show_the_last_trick_in_its_own_deal(preset):
    """Batak Sultan, GameLake, Zipi and açık eşli say nothing about looking back at a trick: the
    project keeps the last trick to its own deal (last_trick='deal', docs/rules.md decisions)."""
    m = batak.Match(preset, seed=5)
    assert m.rules.last_trick == "deal"
    assert m.view(0)["last_trick"] is None
    _play_to_next_deal(m)
    assert m.view(0)["last_trick"] is None
    while not m.game.tricks:
        m.play(m.legal_moves()[1 if m.game.phase == "bidding" and not m.game.auction else 0])
    assert m.view(0)["last_trick"] == {**m.game.tricks[0].to_dict(), "deal": 2}


def test_last_trick_skips_a_thrown_in_deal():
    """CetinsGame "Bazı masalarda ise kartlar toplanıp yeniden dağıtılır" (all_pass='redeal'): a
    thrown-in deal has no trick, so the last trick shown is still the one before it."""
    r = Rules.preset("cetinsgame-ihaleli", all_pass="redeal")
    m = batak.Match(r, seed=5)
    _play_to_next_deal(m)
    final = m.games[0].last_trick
    for _ in range(4):
        m.play("pass")
    assert len(m.games) == 3 and m.games[1].redeal
    assert m.view(1)["last_trick"] == {**final.to_dict(), "deal": 1}


# ======================================================================== the first dealer
def test_cetinsgame_first_dealer_is_drawn_by_lot():
    """docs/rules.md §The deal: first_dealer='random'. CetinsGame: "İlk elde dağıtan kurayla
    belirlenir; sonraki her elde dağıtma sırası bir sonraki oyuncuya geçer". A seeded match
    draws the same lots every time; the lots fall on every seat."""
    r = Rules.preset("cetinsgame-ihaleli")
    assert r.first_dealer == "random"
    assert batak.Match(r, seed=9, dealer=None).first_dealer == batak.Match(
        r, seed=9, dealer=None).first_dealer
    drawn = {batak.Match(r, seed=s, dealer=None).first_dealer for s in range(40)}
    assert drawn == {0, 1, 2, 3}
    m = batak.Match(r, seed=9, dealer=None)
    assert m.game.dealer == m.first_dealer == m.view(0)["match"]["first_dealer"]
    assert m.view(0)["dealer"] == m.first_dealer


def test_acik_esli_first_to_sit_deals():
    """docs/rules.md §The deal: first_dealer='first_seated'. The chip-table site's açık eşli:
    "Masaya ilk oturan kişi ilk dağıtıcı olur. Dağıtıcılık, her tur'da saat yönünün tersine
    doğru ilerler"."""
    from batak.match import first_dealer

    r = Rules.preset("esli-acik")
    assert r.first_dealer == "first_seated"
    assert first_dealer(r, seated=[3, 1, 0, 2], lots=1) == 3  # the lots do not matter here
    assert first_dealer(Rules.preset("standard"), seated=[3, 1, 0, 2], lots=1) == 1
    assert batak.Match(r, dealer=None, seed=2).first_dealer == 0  # nobody's order known: seat 0


def test_explicit_dealer_wins_and_stays_deterministic():
    """Match(dealer=k) deals from seat k whatever first_dealer says (tests, records, and the
    server, which passes the dealer it settled on)."""
    for name in ("standard", "esli-acik"):
        m = batak.Match(name, seed=4, dealer=2)
        assert m.first_dealer == 2 and m.game.dealer == 2
    assert batak.Match("standard", seed=4).first_dealer == 0  # the default stays seat 0


# ---------------------------------------------------------------------------- table variants
# docs/rules.md §10: variants beyond the five guides, from other Batak programs and Turkish home
# tables. Every preset keeps the reading of its guide: each new option's default is the guides'.


def test_variant_defaults_keep_every_preset():
    """docs/rules.md §10: the new options' defaults are the guides' rules, so no preset changes."""
    for name in ALL_PRESETS:
        r = Rules.preset(name)
        assert r.must_trump is True
        assert r.first_lead == "bidder"
        assert r.redeal_dealer == "same"
        assert r.defenders_minimum is None
        assert (r.overtrick_points, r.down_scoring, r.down_penalty) == (None, "bid", None)
        assert r.overtrick_limit is None
        assert r.zero_bid is None
        assert r.kitty_order == "take_bury_trump"


def test_no_compulsory_trump_lets_a_void_player_discard():
    """docs/rules.md §10, must_trump off (other programs' "koz zorunlu değil", home tables): void
    in the suit led, any card may be played, a trump or a discard; following suit and the lead
    rules are unchanged."""
    r = Rules.preset("standard", must_trump=False)
    g = to_play(r, ["AH 2C 3C", "2S 3D 4D", "4H 5D 6D", "7H 8D 9D"])
    g.play("AH")
    assert legal(g) == ["2S", "4D", "3D"]
    g.play("3D")
    assert legal(g) == ["4H"]  # seat 2 still follows suit
    play_all(g, "4H 7H")
    assert g.last_trick is not None and g.last_trick.winner == 0


def test_no_compulsory_trump_any_card_after_a_ruff_too():
    """docs/rules.md §10, must_trump off: with a trump already on the table a void player may
    still discard, or trump low (overtrumping binds only those who must trump)."""
    r = Rules.preset("standard", must_trump=False)
    g = to_play(r, OVERTRUMP_HANDS)
    play_all(g, "AH 5S")
    assert legal(g) == ["9S", "3S", "2D"]
    g.play("3S")
    assert g.current_trick[-1][1] == Card.parse("3S")


def test_no_compulsory_trump_refuses_a_free_discard_setting():
    """docs/rules.md §10: trump_if_cannot_overtrump only qualifies a compulsory trump; with
    must_trump off it is refused rather than quietly ignored."""
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("standard", must_trump=False, trump_if_cannot_overtrump=False)
    assert info.value.code == "discard_needs_must_trump"
    assert "must_trump" in info.value.text("tr")


@pytest.mark.parametrize("preset", ["standard", "sultan-esli", "zipi-kitty", "esli-acik"])
def test_first_lead_after_the_dealer(preset):
    """docs/rules.md §10, first_lead='after_dealer' (home tables and some programs: "ilk löveyi
    dağıtanın sağındaki açar"): after the auction the seat after the dealer leads the first
    trick, whoever holds the contract; later tricks are led by their winner as always."""
    r = Rules.preset(preset, first_lead="after_dealer")
    g = Game(r, seed=11, dealer=1)
    while g.phase is batak.Phase.BIDDING:
        g.play(g.legal_moves()[-1] if not g.auction else "pass")  # seat 2 bids the maximum
    assert g.contract is not None and g.contract.bidder == 2
    while g.phase is not batak.Phase.PLAY:
        g.play(g.legal_moves()[0])
    assert g.to_move == 2  # the seat after dealer 1 is the bidder here: try another dealer
    g = Game(r, seed=11, dealer=0)
    g.play(g.legal_moves()[-1])  # seat 1 bids the maximum and holds the contract
    while g.phase is not batak.Phase.PLAY:
        g.play(g.legal_moves()[0])
    assert g.contract is not None and g.contract.bidder == 1 and g.to_move == 1
    g = Game(r, seed=11, dealer=r.players - 1)
    g.play("pass")
    g.play(g.legal_moves()[-1])  # seat 1 bids the maximum; seat 0 leads
    while g.phase is not batak.Phase.PLAY:
        g.play(g.legal_moves()[0])
    assert g.contract is not None and g.contract.bidder == 1 and g.to_move == 0


def test_first_lead_after_dealer_is_for_auctions():
    """docs/rules.md §10: without an auction the seat after the dealer leads already."""
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("sultan-kozmaca", first_lead="after_dealer")
    assert info.value.code == "first_lead_auction"


@pytest.mark.parametrize(("who", "step"), [("same", 0), ("next", 1)])
def test_redeal_dealer(who, step):
    """docs/rules.md §10, redeal_dealer: after all pass and a throw-in (all_pass='redeal') the
    same dealer deals again (the project's reading of CetinsGame's "kartlar toplanıp yeniden
    dağıtılır") or, at many home tables and in some programs, the deal passes to the next
    dealer as after any deal. The thrown-in deal is still not scored."""
    r = Rules.preset("cetinsgame-ihaleli", all_pass="redeal", redeal_dealer=who)
    m = batak.Match(r, seed=5, dealer=2)
    for _ in range(4):
        m.play("pass")
    assert m.sheet[-1].redeal and m.sheet[-1].scores is None
    assert m.game.dealer == (2 + step) % 4
    assert m.game.to_move == (3 + step) % 4


def test_redeal_dealer_needs_a_redeal():
    """docs/rules.md §10: redeal_dealer qualifies all_pass='redeal' and is refused without it."""
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("standard", redeal_dealer="next")
    assert info.value.code == "redeal_dealer"


def test_defenders_minimum_default_is_acik_esli_two():
    """docs/rules.md §10, defenders_minimum: açık eşli's "defenders with fewer than 2 tricks"
    rule is the case 2, and its scores are unchanged (S4); other eşli presets have none."""
    acik = Rules.preset("esli-acik")
    assert batak.score(acik, [8, 1, 3, 0], bidder=0, bid=9) == [11, -9, 11, -9]
    assert batak.score(acik, [8, 2, 3, 0], bidder=0, bid=9) == [11, 2, 11, 2]
    same = acik.replace(defenders_minimum=2)
    assert batak.score(same, [8, 1, 3, 0], bidder=0, bid=9) == [11, -9, 11, -9]
    free = acik.replace(defenders_minimum=0)
    assert batak.score(free, [8, 1, 3, 0], bidder=0, bid=9) == [11, 1, 11, 1]


@pytest.mark.parametrize("minimum", [1, 2, 3])
def test_defenders_minimum_in_any_esli(minimum):
    """docs/rules.md §10, defenders_minimum N (home tables and programs that extend açık eşli's
    rule to every eşli table): a defending side with fewer than N tricks goes down and loses
    what the contract loses when down (10 a trick of the bid here); with N or more it scores
    its tricks as usual."""
    r = Rules.preset("gamelake-esli", defenders_minimum=minimum)  # 1 a trick, no batak penalty
    under = [14 - minimum, minimum - 1, 0, 0]  # seats 1 and 3 defend
    at = [13 - minimum, minimum, 0, 0]
    assert batak.score(r, under, bidder=0, bid=8)[1::2] == [-8, -8]
    assert batak.score(r, at, bidder=0, bid=8)[1::2] == [minimum, minimum]
    t = Rules.preset("cetinsgame-esli", zero_trick_penalty="none", defenders_minimum=minimum)
    assert batak.score(t, under, bidder=0, bid=7)[1] == -70
    assert batak.score(t, at, bidder=0, bid=7)[1] == 10 * minimum


def test_defenders_minimum_clashes():
    """docs/rules.md §10: defenders_minimum is an eşli rule, overlaps the zero-trick penalty,
    and is 0 to 3."""
    for options, code in [
        (dict(defenders_minimum=2), "defenders_minimum_partners"),
    ]:
        with pytest.raises(batak.RulesError) as info:
            Rules.preset("standard", **options)
        assert info.value.code == code
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("cetinsgame-esli", defenders_minimum=1)
    assert info.value.code == "defenders_minimum_penalty"
    for bad in (4, -1, True, "2"):
        with pytest.raises(batak.RulesError) as info:
            Rules.preset("gamelake-esli", defenders_minimum=bad)
        assert info.value.code == "defenders_minimum_range"
    assert Rules.preset("cetinsgame-esli", defenders_minimum=0).defenders_minimum == 0


def test_overtrick_points():
    """docs/rules.md §10, overtrick_points N (programs that score "ihale + N puan her fazla löve
    için"): a made contract scores the bid's own figure plus N a trick over it; down as usual."""
    r = Rules.preset("cetinsgame-ihaleli", overtrick_points=1)
    assert batak.score(r, [8, 3, 2, 0], bidder=0, bid=6)[0] == 60 + 2
    assert batak.score(r, [6, 3, 2, 2], bidder=0, bid=6)[0] == 60
    assert batak.score(r, [5, 3, 3, 2], bidder=0, bid=6)[0] == -60
    s = Rules.preset("zipi-ihaleli", overtrick_points=5)  # 1 a trick: the bid is 6 points
    assert batak.score(s, [8, 3, 2, 0], bidder=0, bid=6)[0] == 6 + 10
    k = Rules.preset("sultan-kozmaca", overtrick_points=2)  # each Koz Maça bid too
    assert batak.score(k, [3, 2, 5, 3], bids=[3, 4, 2, 1])[2] == 20 + 6


def test_down_scoring_shortfall():
    """docs/rules.md §10, down_scoring='shortfall' (home tables: "eksik kaldığı kadar yazar"):
    a bidder down loses only the tricks missing from the bid, at the scheme's points."""
    r = Rules.preset("cetinsgame-ihaleli", down_scoring="shortfall")
    assert batak.score(r, [4, 3, 3, 3], bidder=0, bid=6)[0] == -20
    assert batak.score(r, [0, 5, 4, 4], bidder=0, bid=6)[0] == -60
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [70, 30, 30, -40]  # made: as before
    z = Rules.preset("zipi-esli", down_scoring="shortfall")
    assert batak.score(z, [3, 3, 2, 5], bidder=0, bid=6)[0::2] == [-1, -1]


def test_down_penalty_fixed():
    """docs/rules.md §10, down_penalty P (programs with "batan ihale sabit ceza"): a bidder down
    loses P whatever the bid; a made contract scores as before."""
    r = Rules.preset("sultan-ihaleli", down_penalty=50)
    assert batak.score(r, [4, 3, 3, 3], bidder=0, bid=9)[0] == -50
    assert batak.score(r, [10, 3, 0, 0], bidder=0, bid=9)[0] == 91
    k = Rules.preset("sultan-kozmaca", down_penalty=50)
    assert batak.score(k, [3, 2, 5, 3], bids=[3, 4, 2, 1])[1] == -50


def test_scoring_modes_clashes():
    """docs/rules.md §10: the new scoring modes are refused where they say nothing or clash."""
    cases = [
        ("zipi-ihaleli", dict(overtricks_count=False, overtrick_points=1),
         "overtrick_points_count"),
        ("standard", dict(down_scoring="shortfall", down_penalty=30), "down_penalty_shortfall"),
        ("zipi-kozmaca", dict(down_penalty=30), "contract_scoring_needs_bids"),
        ("standard", dict(down_penalty=-5), "points_range"),
        ("standard", dict(overtrick_points="2"), "points_range"),
    ]
    for preset, options, code in cases:
        with pytest.raises(batak.RulesError) as info:
            Rules.preset(preset, **options)
        assert info.value.code == code, options


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_yan_batar(limit):
    """docs/rules.md §10, overtrick_limit Y, "yan batar" (Turkish home tables and programs): a
    bidder who takes more than bid + Y tricks goes down, and loses what a contract down loses
    (the whole bid's figure, the most common reading); bid + Y is still made."""
    r = Rules.preset("cetinsgame-ihaleli", overtrick_limit=limit)
    ok = [6 + limit, 7 - limit, 0, 0]
    assert batak.score(r, ok, bidder=0, bid=6)[0] == 10 * (6 + limit)
    over = [7 + limit, 6 - limit, 0, 0]
    assert batak.score(r, over, bidder=0, bid=6)[0] == -60
    assert batak.score(r, [5, 3, 3, 2], bidder=0, bid=6)[0] == -60  # under the bid: as ever
    e = Rules.preset("zipi-esli", overtrick_limit=limit)  # a side's tricks count together
    assert batak.score(e, [4, 0, 4 + limit, 5 - limit], bidder=0, bid=8)[0::2] == [8 + limit] * 2
    assert batak.score(e, [5, 0, 4 + limit, 4 - limit], bidder=0, bid=8)[0::2] == [-8, -8]


def test_yan_batar_down_follows_the_down_options():
    """docs/rules.md §10: a yan batar down is scored as the table scores a down: a fixed
    down_penalty, or with down_scoring='shortfall' the tricks over the limit."""
    r = Rules.preset("cetinsgame-ihaleli", overtrick_limit=1, down_penalty=50)
    assert batak.score(r, [9, 4, 0, 0], bidder=0, bid=6)[0] == -50
    r = Rules.preset("cetinsgame-ihaleli", overtrick_limit=1, down_scoring="shortfall")
    assert batak.score(r, [9, 4, 0, 0], bidder=0, bid=6)[0] == -20  # 9 is 2 over 6 + 1
    k = Rules.preset("sultan-kozmaca", overtrick_limit=2)  # each Koz Maça bid too
    assert batak.score(k, [6, 2, 4, 1], bids=[3, 4, 2, 1])[::2] == [-30, 22]


def test_yan_batar_clashes():
    """docs/rules.md §10: 1 to 3 tricks, and only where there is a bid."""
    for preset, bad, code in [
        ("standard", 0, "overtrick_limit_range"),
        ("standard", 4, "overtrick_limit_range"),
        ("zipi-kozmaca", 2, "contract_scoring_needs_bids"),
    ]:
        with pytest.raises(batak.RulesError) as info:
            Rules.preset(preset, overtrick_limit=bad)
        assert info.value.code == code


def test_zero_bid_in_koz_maca():
    """docs/rules.md §10, zero_bid (three other programs and home tables: "el almam", ±50 the
    usual figure): in Koz Maça a player may bid 0; with no trick it scores +50, with any trick
    −50, whatever the scheme; the other bids are unchanged."""
    r = Rules.preset("sultan-kozmaca", zero_bid=50)
    g = Game(r, hands=["2S 3H", "AS 4H", "KS 5H", "QS 6H"], dealer=3)
    assert legal(g)[:3] == ["bid 0", "bid 1", "bid 2"]
    play_all(g, "bid 0 bid 1 bid 1 bid 0")
    assert g.bids == [0, 1, 1, 0]
    play_all(g, "3H 4H 5H 6H")  # seat 3 takes the heart trick
    play_all(g, "QS 2S AS KS")
    assert g.tricks_won == [0, 1, 0, 1]
    assert g.scores == [50, 10, -10, -50]
    assert batak.score(r, [0, 5, 4, 4], bids=[0, 4, 3, 3]) == [50, 41, 31, 31]
    plain = Rules.preset("sultan-kozmaca")
    g = Game(plain, hands=["2S 3H", "AS 4H", "KS 5H", "QS 6H"], dealer=3)
    assert "bid 0" not in legal(g)
    assert_illegal(g, "bid 0", "bid_too_low")


def test_zero_bid_only_in_koz_maca():
    """docs/rules.md §10: the zero bid is a Koz Maça bid; an auction has its own minimum."""
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("standard", zero_bid=50)
    assert info.value.code == "zero_bid_kozmaca"


KITTY_DEAL = (
    [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH",
        "JH TH 9H 8H 7H 6H 5H 4H 3H 2H AD KD QD JD TD 9D",
        "8D 7D 6D 5D 4D 3D 2D AC KC QC JC TC 9C 8C 7C 6C",
    ],
    "5C 4C 3C 2C",
)


def _kitty_game(order):
    r = Rules.preset("zipi-kitty", kitty_order=order)
    g = Game(r, hands=KITTY_DEAL[0], kitty=KITTY_DEAL[1], dealer=2)
    play_all(g, "bid 5 pass pass")
    return g


def test_kitty_order_take_bury_trump_is_the_guides():
    """docs/rules.md §10, kitty_order take_bury_trump (Zipi's kitty batak): the bidder takes the
    kitty, buries four cards, then names koz."""
    g = _kitty_game("take_bury_trump")
    assert g.phase is batak.Phase.BURY and "bury 2C" in legal(g)
    play_all(g, "bury 2C bury 3C bury 4C bury 5C")
    assert g.phase is batak.Phase.TRUMP
    g.play("trump S")
    assert g.phase is batak.Phase.PLAY and len(g.hand(0)) == 16


def test_kitty_order_bury_before_seeing_the_kitty():
    """docs/rules.md §10, kitty_order bury_take_trump (home tables: "dipteki kartları görmeden
    göm"): the bidder buries four of its own cards, the kitty unseen, then takes the kitty and
    names koz."""
    g = _kitty_game("bury_take_trump")
    assert g.phase is batak.Phase.BURY and len(g.hand(0)) == 16
    assert "bury 2C" not in legal(g)
    assert_illegal(g, "bury 2C", "not_in_hand")
    assert "2C" not in json_text(g.view(0))  # the kitty is not seen yet
    play_all(g, "bury 2S bury 3S bury 4S bury 5S")
    assert g.phase is batak.Phase.TRUMP
    assert Card.parse("2C") in g.hand(0) and len(g.hand(0)) == 16
    g.play("trump S")
    assert g.phase is batak.Phase.PLAY
    assert g.buried == [Card.parse(c) for c in ["2S", "3S", "4S", "5S"]]


def test_kitty_order_name_koz_before_burying():
    """docs/rules.md §10, kitty_order take_trump_bury (other programs: koz is named as soon as
    the kitty is taken): take the kitty, name koz, then bury."""
    g = _kitty_game("take_trump_bury")
    assert g.phase is batak.Phase.TRUMP and len(g.hand(0)) == 20
    g.play("trump H")
    assert g.phase is batak.Phase.BURY and g.trump is Suit.HEARTS
    play_all(g, "bury 2C bury 3C bury 4C bury 5C")
    assert g.phase is batak.Phase.PLAY and g.to_move == 0 and len(g.hand(0)) == 16


def test_kitty_order_needs_a_kitty():
    with pytest.raises(batak.RulesError) as info:
        Rules.preset("standard", kitty_order="bury_take_trump")
    assert info.value.code == "kitty_order"


def json_text(view):
    import json

    return json.dumps(view)
