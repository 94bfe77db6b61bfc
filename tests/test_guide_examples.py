"""Every worked example in the five guides, via ``batak.score`` and by playing deals with ``Game``.

Each test cites the guide (S0 = seeds/000_bd85d2e3a5bb6a72.txt Batak Sultan, S1 =
seeds/001_8d1ad90c5bd37df6.txt GameLake, S2 = seeds/002_c3172fa8d91b8f20.txt Zipi, S3 =
seeds/003_8aae50b1dad924c6.txt CetinsGame, S4 = seeds/004_17da1022ae2d3671.txt açık eşli) and the
row of the RULES.md §Scoring table (or the RULES.md section) it exercises.

The full deals below were dealt once and played with legal cards; they are fixed here as text so
that the test replays them card by card (every card must still be legal) and checks ``g.scores``.
With ``dealer=3`` seat 0 speaks first and is the bidder.
"""

from __future__ import annotations

import pytest

import batak
from batak import Game, Rules
from batak.scoring import is_king
from helpers import legal, play_all


def play_deal(preset: str | Rules, hands: list[str], auction: str, cards: str) -> Game:
    g = Game(preset, hands=hands, dealer=3)
    play_all(g, auction)
    assert g.phase == "play"
    play_all(g, cards)
    assert g.phase == "over"
    return g


def one_suit_each(n: int, bidder_suit: str = "S") -> list[str]:
    """Seat 0 holds the top ``n`` cards of ``bidder_suit``; the others the top ``n`` of the other
    suits. Seat 0 names ``bidder_suit`` trump, holds only trumps (so may lead them) and takes every
    trick: the others can neither follow nor trump."""
    ranks = "AKQJT98765432"[:n]
    suits = [bidder_suit, *(s for s in "SHDC" if s != bidder_suit)]
    return [" ".join(r + s for r in ranks) for s in suits]


def play_out_first_legal(g: Game) -> None:
    while g.phase == "play":
        g.play(g.legal_moves()[0])


SULTAN6_HANDS = [
    "KS QS TS 9S 5S 3S KH 2H AC KC QC JC TC",
    "JS 6S AH QH 8H 4H 3H AD TD 9D 7C 3C 2C",
    "AS 7S 2S TH 7H 6H 5H QD JD 7D 2D 8C 4C",
    "8S 4S JH 9H KD 8D 6D 5D 4D 3D 9C 6C 5C",
]
SULTAN6_PLAY = """
    KC 2C 4C 6C
    KH AH 6H JH
    TD QD KD TS
    QC 3C 8C 5C
    AC 7C 7S 9C
    7H 9H 2H QH
    8H TH 8S QS
    KS 6S AS 4S
    2S 5D 5S JS
    4H 5H 3D 9S
    JC AD 2D 4D
    3S 9D 7D 6D
    TC 3H JD 8D
"""
CETINS6_HANDS = [
    "AS TS 9S 5S 4S 3S KH QH KD JC TC 7C 4C",
    "JS 8S 9H 6H 4H 8D 2D AC KC QC 9C 3C 2C",
    "KS QS 7S 6S AH 8H 2H AD QD 7D 5D 3D 6C",
    "2S JH TH 7H 5H 3H JD TD 9D 6D 4D 8C 5C",
]
CETINS6_PLAY = """
    7C 9C 6C 5C
    AC 7S 8C TC
    8H TH KH 9H
    JC KC KS 2S
    7D TD KD 8D
    4S 8S QS 5H
    2H 7H QH 6H
    5S JS 6S 9D
    QC AD JD 4C
    2C 5D 3H TS
    AS 4H AH 4D
    3S 3C 3D 6D
    9S 2D QD JH
"""
CETINS6FAIL_HANDS = [
    "QS JS TS 6S QH 6H JD 7D 4D AC KC 9C 5C",
    "7S 3S AH TH 7H 3H AD TD 9D 5D JC 4C 2C",
    "AS KS 9S 8S 5S JH 9H 4H KD 8D 2D 8C 6C",
    "4S 2S KH 8H 5H 2H QD 6D 3D QC TC 7C 3C",
]
CETINS6FAIL_PLAY = """
    KC JC 8C 7C
    5C 4C 6C QC
    QD 4D AD KD
    TH JH KH QH
    3D 7D 9D 8D
    2C AS 3C 9C
    8S 4S TS 7S
    JD 5D 2D 6D
    6H AH 9H 2H
    3S 5S 2S QS
    AC 7H 9S TC
    4H 5H 6S 3H
    JS TD KS 8H
"""
SULTANESLI8_HANDS = [
    "KS JS AH 7H AD QD 3D AC KC QC JC 6C 3C",
    "AS 6S 4S TH 9H 8H 6H 3H TD 8D 7D 4D 2D",
    "TS 9S 8S 7S 2S KH QH 2H KD JD 6D 8C 5C",
    "QS 5S 3S JH 5H 4H 9D 5D TC 9C 7C 4C 2C",
]
SULTANESLI8_PLAY = """
    6C 6S 5C 2C
    AS 7S QS KS
    9H KH 5H AH
    QD 4D KD 9D
    TS 5S JS 4S
    3D 8D JD 5D
    8S 3S AD 8H
    9S JH AC 6H
    QH 4H 7H 3H
    2H 9C QC TH
    7D 6D TC JC
    2D 2S 7C 3C
    8C 4C KC TD
"""
ACIK9_HANDS = [
    "AS 9S 7S 6S 3S 2S AD QD 9D 4D QC 8C 4C",
    "KS QS 9H 6H 4H 3H JD TD 5D AC 7C 5C 2C",
    "JS TS 8S 5S QH TH 7H 3D KC TC 9C 6C 3C",
    "4S AH KH JH 8H 5H 2H KD 8D 7D 6D 2D JC",
]
ACIK9_PLAY = """
    AD TD 3D 7D
    4D 5D 5S 8D
    TC JC QC AC
    4H QH AH 3S
    2S KS TS 4S
    9H TH JH AS
    6S QS 8S KD
    2C 9C 6D 4C
    6C 2D 8C 7C
    9S 6H JS KH
    3C 5H 7S 5C
    9D JD 7H 8H
    3H KC 2H QD
"""
KOZMACA_HANDS = [
    "KS 9S 8S 5S 9H KD TD 7D 4D AC TC 5C 2C",
    "AS 4S KH QH 6H 4H JD 9D 6D KC JC 9C 3C",
    "QS 3S 2S AH 7H 3H QD 8D 5D 3D 7C 6C 4C",
    "JS TS 7S 6S JH TH 8H 5H 2H AD 2D QC 8C",
]
KOZMACA_PLAY = """
    KD 6D 5D AD
    2D TD JD QD
    7C QC AC 9C
    9H KH AH 2H
    7H JH 9S 4H
    2C KC 4C 8C
    AS 3S 6S KS
    9D 3D 7S 4D
    TS 8S 4S QS
    3H 5H 5S QH
    TC JC 6C JS
    8H 7D 6H 2S
    8D TH 5C 3C
"""


# ============================================================================ Sultan
def test_sultan_ihaleli_bid_5_made_and_down():
    """S0 §6 example 'İhaleli, bid 5: if the contract winner takes 7 tricks, +52 (50 + 2
    overtricks); with 4 tricks, −50'. RULES.md §Scoring row `sultan`: 10b + (t − b) / −10b."""
    r = Rules.preset("sultan-ihaleli")
    assert batak.score(r, [7, 2, 2, 2], bidder=0, bid=5) == [52, 2, 2, 2]
    assert batak.score(r, [4, 3, 3, 3], bidder=0, bid=5) == [-50, 3, 3, 3]
    assert batak.score(r, [2, 7, 2, 2], bidder=1, bid=5) == [2, 52, 2, 2]


def test_sultan_ihaleli_bid_5_played_small_deals():
    """S0 §6 'bid 5 ... 7 tricks, +52; with 4 tricks, −50', played: 7-card and 4-card deals where
    the bidder takes every trick; the others, with no tricks, are 'batak': −10b. RULES.md §Scoring
    row `sultan`, columns 'bidder made', 'bidder down' and 'a non-bidder with no tricks'."""
    g = Game("sultan-ihaleli", hands=one_suit_each(7), dealer=3)
    play_all(g, "bid 5 pass pass pass trump S")
    play_out_first_legal(g)
    assert g.tricks_won == [7, 0, 0, 0]
    assert g.scores == [52, -50, -50, -50]
    g = Game("sultan-ihaleli", hands=one_suit_each(4), dealer=3)
    play_all(g, "bid 5 pass pass pass trump S")
    play_out_first_legal(g)
    assert g.tricks_won == [4, 0, 0, 0]
    assert g.scores == [-50, -50, -50, -50]


def test_sultan_ihaleli_bid_6_with_a_batak_player():
    """S0 §6 example 'İhaleli, bid 6: the contract winner takes 8 tricks (+62); ... the other three
    take 3, 2 and 0 tricks they score +3, +2 and ... −60'. RULES.md §Scoring row `sultan`."""
    assert batak.score(Rules.preset("sultan-ihaleli"), [8, 3, 2, 0], bidder=0, bid=6) == [
        62, 3, 2, -60]


def test_sultan_ihaleli_bid_6_played_full_deal():
    """S0 §6 'bid 6 ... 8 tricks (+62) ... 3, 2 and 0 ... +3, +2 and −60', as a full 13-trick deal.
    RULES.md §Scoring row `sultan`; §Auction; §Compulsory play (every card replayed is legal)."""
    g = play_deal("sultan-ihaleli", SULTAN6_HANDS, "bid 6 pass pass pass trump S", SULTAN6_PLAY)
    assert g.contract == batak.Contract(bidder=0, bid=6, trump=batak.Suit.SPADES)
    assert g.tricks_won == [8, 3, 2, 0]
    assert g.scores == [62, 3, 2, -60]


def test_sultan_esli_bid_8():
    """S0 §6 example 'Eşli, bid 8: if the contracting team takes 9 tricks in total, both partners
    score +81; if the defending team took 4 tricks, both of them score +4'. RULES.md §Scoring
    'Partners: ... both partners score the team's figure'; row `sultan`."""
    r = Rules.preset("sultan-esli")
    assert batak.score(r, [5, 2, 4, 2], bidder=0, bid=8) == [81, 4, 81, 4]
    assert batak.score(r, [4, 0, 5, 4], bidder=2, bid=8) == [81, 4, 81, 4]
    assert batak.score(r, [3, 2, 4, 4], bidder=0, bid=8) == [-80, 6, -80, 6]


def test_sultan_esli_defenders_with_no_tricks():
    """RULES.md §Scoring 'Sultan: defenders with no tricks between them score −10b'. S0 §6 Eşli row
    'if the two of them take no tricks at all, −(10 × bid)'."""
    assert batak.score(Rules.preset("sultan-esli"), [7, 0, 6, 0], bidder=0, bid=8) == [
        85, -80, 85, -80]


def test_sultan_esli_bid_8_played_full_deal():
    """S0 §6 'Eşli, bid 8: ... 9 tricks ... +81; ... defending team took 4 tricks ... +4', played.
    Seat 3 took no trick itself but its team took 4: the count is the team's, no batak penalty.
    RULES.md §Partners ('every count is the partnership's')."""
    g = play_deal("sultan-esli", SULTANESLI8_HANDS, "bid 8 pass pass pass trump S",
                  SULTANESLI8_PLAY)
    assert g.tricks_won == [3, 4, 6, 0]
    assert g.scores == [81, 4, 81, 4]


def test_sultan_kozmaca_examples():
    """S0 §6 example 'Koz Maça: bid 3 and take 3 → +30; bid 4 and take 2 → −40; bid 2 and take 5 →
    +23'. RULES.md §Scoring 'Koz Maça: Sultan: each player against their own bid'."""
    r = Rules.preset("sultan-kozmaca")
    assert batak.score(r, [3, 2, 5, 3], bids=[3, 4, 2, 1]) == [30, -40, 23, 12]


def test_sultan_kozmaca_played_full_deal():
    """S0 §4 and §6 (Koz Maça 3/3 → +30, 4/2 → −40, 2/5 → +23), played: one bid each from the
    seat after the dealer, then that seat leads with spades trump. RULES.md §Koz Maça; §Scoring."""
    g = Game("sultan-kozmaca", hands=KOZMACA_HANDS, dealer=3)
    play_all(g, "bid 3 bid 4 bid 2 bid 1")
    assert g.phase == "play"
    assert g.to_move == 0
    play_all(g, KOZMACA_PLAY)
    assert g.phase == "over"
    assert g.tricks_won == [3, 2, 5, 3]
    assert g.scores == [30, -40, 23, 12]


# ========================================================================== GameLake
def test_gamelake_bid_6():
    """S1 scoring table: 'Bidder (bid 6) 7 tricks +7; 5 tricks −6 (batar); Other players +1 per
    trick'. RULES.md §Scoring row `simple`."""
    r = Rules.preset("gamelake-ihaleli")
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [7, 3, 3, 0]
    assert batak.score(r, [5, 3, 3, 2], bidder=0, bid=6) == [-6, 3, 3, 2]


@pytest.mark.parametrize(("n", "expected"), [(7, [7, 0, 0, 0]), (5, [-6, 0, 0, 0])])
def test_gamelake_bid_6_played(n, expected):
    """S1 'Bidder (bid 6) 7 tricks +7 / 5 tricks −6', played in a 7-card and a 5-card deal; a player
    with no tricks is not penalised on GameLake. RULES.md §Scoring row `simple`."""
    g = Game("gamelake-ihaleli", hands=one_suit_each(n), dealer=3)
    play_all(g, "bid 6 pass pass pass trump S")
    play_out_first_legal(g)
    assert g.tricks_won == [n, 0, 0, 0]
    assert g.scores == expected


def test_gamelake_partners_team_count():
    """S1 'Partners Batak: ... their tricks count together, for the bid too. The minimum bid is 7.'
    RULES.md §Scoring row `simple` with 'Partners: ... the partnership's tricks'."""
    assert batak.score(Rules.preset("gamelake-esli"), [4, 2, 4, 3], bidder=2, bid=7) == [
        8, 5, 8, 5]


# ============================================================================== Zipi
def test_zipi_bid_7_take_8_and_6():
    """S2 'Example: bid 7 and take 8 tricks for +8; take 6 and you score −7.' RULES.md §Scoring
    row `simple`."""
    r = Rules.preset("zipi-ihaleli")
    assert batak.score(r, [8, 2, 2, 1], bidder=0, bid=7) == [8, 2, 2, 1]
    assert batak.score(r, [6, 3, 3, 1], bidder=0, bid=7) == [-7, 3, 3, 1]


def test_zipi_overbidding_examples():
    """S2 'bidding 9 and taking 7 is −9' and FAQ 'Bid 8 and take 6, and you score −8'. RULES.md
    §Scoring row `simple` ('bidder down −b')."""
    r = Rules.preset("zipi-ihaleli")
    assert batak.score(r, [7, 2, 2, 2], bidder=0, bid=9)[0] == -9
    assert batak.score(r, [6, 3, 2, 2], bidder=0, bid=8)[0] == -8


def test_zipi_no_zero_trick_penalty():
    """S2 'In Zipi every non-bidder simply scores each trick they win' (the bust is a table
    variant). RULES.md §Scoring row `simple`, 'no penalty (Zipi lists it as a table variant)'."""
    assert batak.score(Rules.preset("zipi-ihaleli"), [8, 5, 0, 0], bidder=0, bid=7) == [
        8, 5, 0, 0]


@pytest.mark.parametrize(("n", "bid", "expected"), [
    (8, 7, [8, 0, 0, 0]),
    (7, 9, [-9, 0, 0, 0]),
    (6, 8, [-8, 0, 0, 0]),
])
def test_zipi_examples_played(n, bid, expected):
    """S2 'bid 7 and take 8 tricks for +8', 'bidding 9 and taking 7 is −9', 'Bid 8 and take 6 ...
    −8', played in small deals where the bidder takes every trick.
    RULES.md §Scoring row `simple`."""
    g = Game("zipi-ihaleli", hands=one_suit_each(n), dealer=3)
    play_all(g, f"bid {bid} pass pass pass trump S")
    play_out_first_legal(g)
    assert g.tricks_won == [n, 0, 0, 0]
    assert g.scores == expected


def test_zipi_partners_team_scores():
    """S2 'In Partners Batak the two partners' tricks are combined; the bidding team scores its
    total if it makes the bid or minus the bid if not, and the other team scores its tricks.'
    RULES.md §Scoring row `simple`, Partners."""
    r = Rules.preset("zipi-esli")
    assert batak.score(r, [4, 2, 3, 4], bidder=0, bid=6) == [7, 6, 7, 6]
    assert batak.score(r, [2, 4, 3, 4], bidder=0, bid=6) == [-6, 8, -6, 8]


def test_zipi_spades_trump_everyone_scores_tricks():
    """S2 scoring table 'Spades Trump (no bidding): Everyone + tricks taken'. RULES.md §Scoring
    'Koz Maça: ... Zipi: +t each'."""
    assert batak.score(Rules.preset("zipi-kozmaca"), [4, 3, 6, 0]) == [4, 3, 6, 0]


def test_zipi_kitty_scores_like_bidding_batak():
    """S2 FAQ 'scoring is the same as Bidding Batak' (kitty). RULES.md §Scoring row `simple`."""
    r = Rules.preset("zipi-kitty")
    assert batak.score(r, [9, 4, 3], bidder=0, bid=8) == [9, 4, 3]
    assert batak.score(r, [7, 5, 4], bidder=0, bid=8) == [-8, 5, 4]


def test_zipi_kitty_played_small_deal():
    """S2 Kitty Batak, played: bid, take the kitty, bury four, name trump, play; score as Bidding
    Batak. RULES.md §Auction (kitty), §Scoring row `simple`."""
    g = Game("zipi-kitty", hands=["AS KS", "2H 3H", "2D 3D"], kitty="QS JS 2C 3C", dealer=2)
    play_all(g, "bid 5 pass pass bury KS bury AS bury 2C bury 3C trump S")
    assert [str(c) for c in g.hand(0)] == ["QS", "JS"]
    play_out_first_legal(g)
    assert g.tricks_won == [2, 0, 0]
    assert g.scores == [-5, 0, 0]


# ======================================================================== CetinsGame
def test_cetinsgame_bid_6_example():
    """S3 'ihaleyi 6 ile alan oyuncu 7 löve aldı, ötekiler 3, 3 ve 0 löve aldı. İhaleci +70, iki
    oyuncu +30'ar, hiç löve alamayan -40 yazar. İhaleci 6 deyip 5 löve alsaydı -60 yazacaktı.'
    RULES.md §Scoring row `tens`."""
    r = Rules.preset("cetinsgame-ihaleli")
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [70, 30, 30, -40]
    assert batak.score(r, [5, 3, 3, 2], bidder=0, bid=6)[0] == -60
    assert batak.score(Rules.preset("standard"), [7, 3, 3, 0], bidder=0, bid=6) == [
        70, 30, 30, -40]


def test_cetinsgame_bid_6_played_full_deal():
    """S3 example (bid 6: 7, 3, 3, 0 → +70, +30, +30, −40), played as a full deal. RULES.md
    §Scoring row `tens`."""
    g = play_deal("cetinsgame-ihaleli", CETINS6_HANDS, "bid 6 pass pass pass trump S",
                  CETINS6_PLAY)
    assert g.tricks_won == [7, 3, 3, 0]
    assert g.scores == [70, 30, 30, -40]


def test_cetinsgame_bid_6_down_played_full_deal():
    """S3 'İhaleci 6 deyip 5 löve alsaydı -60 yazacaktı', played. RULES.md §Scoring row `tens`."""
    g = play_deal("standard", CETINS6FAIL_HANDS, "bid 6 pass pass pass trump S",
                  CETINS6FAIL_PLAY)
    assert g.tricks_won == [5, 3, 3, 2]
    assert g.scores == [-60, 30, 30, 20]


def test_cetinsgame_batmak_examples():
    """S3 '6 deyip 5 löve almak da, 6 deyip hiç almamak da batmaktır' and 'batak olan da -40
    yazar'. RULES.md §Scoring row `tens`."""
    r = Rules.preset("cetinsgame-ihaleli")
    assert batak.score(r, [0, 5, 4, 4], bidder=0, bid=6) == [-60, 50, 40, 40]
    assert batak.score(r, [13, 0, 0, 0], bidder=0, bid=6) == [130, -40, -40, -40]


def test_cetinsgame_primli():
    """S3 'Primli puanlamada ihaleci tutturursa söz verdiği her löve 15, fazlası 10 puan alır;
    batarsa yine ihale x 10 eksi yazar, hiç löve almayan -50 yazar.' RULES.md §Scoring row `primli`
    (15b + 10(t − b) / −10b / +10t / −50). The −50 is primli's own batak figure, apart from
    the table's usual "taban ihale kadar" (zero_trick_penalty='scheme', docs/rules.md)."""
    r = Rules.preset("cetinsgame-ihaleli", scoring="primli", zero_trick_penalty="scheme")
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [100, 30, 30, -50]
    assert batak.score(r, [6, 4, 3, 0], bidder=0, bid=6) == [90, 40, 30, -50]
    assert batak.score(r, [5, 4, 4, 0], bidder=0, bid=6) == [-60, 40, 40, -50]


def test_cetinsgame_primli_played():
    """S3 primli, played: bid 4, take 4 of a 4-card deal: 15 × 4 = 60; the others −50. RULES.md
    §Scoring row `primli` (its own batak figure: zero_trick_penalty='scheme')."""
    r = Rules.preset("cetinsgame-ihaleli", scoring="primli", zero_trick_penalty="scheme")
    g = Game(r, hands=one_suit_each(4, "H"), dealer=3)
    play_all(g, "bid 4 pass pass pass trump H")
    play_out_first_legal(g)
    assert g.scores == [60, -50, -50, -50]


def test_cetinsgame_sade():
    """S3 'Sade puanlamada her löve 1 puandır ve batan ihaleci ihalesi kadar eksi yazar.' RULES.md
    §Scoring row `simple` (CetinsGame 'sade'; no zero-trick penalty in that row)."""
    r = Rules.preset("cetinsgame-ihaleli", scoring="simple", zero_trick_penalty=False)
    assert batak.score(r, [7, 3, 3, 0], bidder=0, bid=6) == [7, 3, 3, 0]
    assert batak.score(r, [5, 4, 4, 0], bidder=0, bid=6) == [-6, 4, 4, 0]


def test_cetinsgame_esli_team_with_no_tricks():
    """RULES.md §Scoring 'CetinsGame eşli: a team with no tricks scores −10 × 7'. S3 'taban ihale
    yaygın olarak 7'dir' with 'hiç löve almayan ... taban ihale kadar eksi'."""
    r = Rules.preset("cetinsgame-esli")
    assert batak.score(r, [7, 0, 6, 0], bidder=0, bid=7) == [130, -70, 130, -70]
    assert batak.score(r, [4, 2, 4, 3], bidder=0, bid=7) == [80, 50, 80, 50]


def test_cetinsgame_kozmaca():
    """S3 'Koz maça ... Herkes aldığı her löve için puan yazar, hiç löve alamayan batar.' RULES.md
    §Scoring 'Koz Maça: ... CetinsGame: +10t each, a player with no tricks −40'."""
    assert batak.score(Rules.preset("cetinsgame-kozmaca"), [4, 3, 6, 0]) == [40, 30, 60, -40]


def test_cetinsgame_kozmaca_played():
    """S3 koz maça played: no auction, the seat after the dealer leads, spades trump; +10t, 0 → −40.
    RULES.md §Koz Maça; §Scoring. Seat 0 holds only spades: it may lead them and wins every
    trick."""
    g = Game("cetinsgame-kozmaca", hands=one_suit_each(3), dealer=3)
    assert g.phase == "play"
    play_out_first_legal(g)
    assert g.tricks_won == [3, 0, 0, 0]
    assert g.scores == [30, -40, -40, -40]


def test_cetinsgame_must_overtake_example():
    """S3 'Örnek: kupa açıldı ve yerde kupa kız duruyor; sende kupa 9 ile kupa papaz varsa papazı
    atmak zorundasın.' RULES.md §Compulsory play 2."""
    g = Game("standard", hands=["QH 2C", "9H KH", "4H 5D", "7H 8D"], dealer=3)
    play_all(g, "bid 4 pass pass pass trump S QH")
    assert legal(g) == ["KH"]
    err = g.check("9H")
    assert err is not None and err.code == "must_overtake"
    g.play("KH")


def test_cetinsgame_must_trump_example():
    """S3 'Sende hiç kupa yoksa ve koz maçaysa maça atmalısın.' RULES.md §Compulsory play 4."""
    g = Game("standard", hands=["QH 2C", "2S 5D", "4H 6D", "7H 8D"], dealer=3)
    play_all(g, "bid 4 pass pass pass trump S QH")
    assert legal(g) == ["2S"]
    err = g.check("5D")
    assert err is not None and err.code == "must_trump"
    g.play("2S")


# ========================================================================= açık eşli
def test_acik_bid_9_down():
    """S4 'İhaleci 9 dediyse; minimum 9 el alamazsa -9'a batar.' RULES.md §Scoring row `acik`
    (bidder down −b; defenders +t with at least 2)."""
    r = Rules.preset("esli-acik")
    assert batak.score(r, [4, 3, 4, 2], bidder=0, bid=9) == [-9, 5, -9, 5]


def test_acik_defenders_with_fewer_than_2():
    """S4 'İhaleye girmeyen oyuncular minimum 2 el alamazlarsa -9'e batarlar.' RULES.md §Scoring row
    `acik` ('+t if the defenders took at least 2, else −b')."""
    r = Rules.preset("esli-acik")
    assert batak.score(r, [6, 1, 6, 0], bidder=0, bid=9) == [12, -9, 12, -9]
    assert batak.score(r, [6, 1, 5, 1], bidder=0, bid=9) == [11, 2, 11, 2]


def test_acik_no_penalty_for_overtricks():
    """S4 'Fazla alınan elden dolayı batma olayı yoktur.' RULES.md §Scoring row `acik` (+t)."""
    assert batak.score(Rules.preset("esli-acik"), [6, 1, 5, 1], bidder=0, bid=7)[0] == 11


def test_acik_bid_9_down_played_full_deal():
    """S4 bid 9 down (−9 for both partners), played; the defenders took 5 ≥ 2: +5. RULES.md
    §Scoring row `acik`; §Partners."""
    g = play_deal("esli-acik", ACIK9_HANDS, "bid 9 pass pass pass trump S", ACIK9_PLAY)
    assert g.tricks_won == [5, 5, 3, 0]
    assert g.scores == [-9, 5, -9, 5]


def test_acik_13_up_13_down():
    """S4 '13 Aşağı 13 Yukarı Kuralı: Eğer bir takım 13 demeden 13 alırsa yazboz'a puanları +13
    şeklinde yazılır diğeri ise 13'e batar.' RULES.md §Scoring 'Açık eşli: a team that takes all
    13 tricks without having bid 13 scores +13 and the other −13'."""
    r = Rules.preset("esli-acik")
    assert batak.score(r, [7, 0, 6, 0], bidder=0, bid=9) == [13, -13, 13, -13]
    assert batak.score(r, [0, 7, 0, 6], bidder=0, bid=9) == [-13, 13, -13, 13]


def test_acik_13_up_played_full_deal():
    """S4 '13 demeden 13 alırsa ... +13 ... diğeri ise 13'e batar', played: seat 0 holds all 13
    spades, names spades and takes every trick. RULES.md §Scoring (açık eşli 13 up/13 down)."""
    g = Game("esli-acik", hands=one_suit_each(13), dealer=3)
    play_all(g, "bid 9 pass pass pass trump S")
    play_out_first_legal(g)
    assert g.tricks_won == [13, 0, 0, 0]
    assert g.scores == [13, -13, 13, -13]


def test_acik_king():
    """S4 'KİNG: Eğer bir takım ihale belirleme sırasında 13 der ve 13 alırsa oyunu o anda
    kazanır.' RULES.md §Scoring 'a team that bids 13 and takes 13 (KING) wins the match at once'."""
    r = Rules.preset("esli-acik")
    assert is_king(r, [7, 0, 6, 0], bidder=0, bid=13) is True
    assert is_king(r, [7, 0, 6, 0], bidder=2, bid=13) is True
    assert is_king(r, [7, 0, 6, 0], bidder=0, bid=12) is False
    assert is_king(r, [7, 1, 5, 0], bidder=0, bid=13) is False
    assert is_king(Rules.preset("cetinsgame-esli"), [7, 0, 6, 0], bidder=0, bid=13) is False


def test_acik_all_pass_first_speaker_at_7_scores():
    """S4 'Dört oyuncuda pas derse, ihale 7 ile dağıtıcının sağındaki oyuncuya kalır', played to
    the end in a 3-card deal (the contract at 7 cannot be made: −7). RULES.md §Auction; §Scoring
    row `acik`."""
    g = Game("esli-acik", hands=one_suit_each(3), dealer=3)
    play_all(g, "pass pass pass pass")
    assert g.contract == batak.Contract(bidder=0, bid=7, trump=None)
    g.play("trump S")
    play_out_first_legal(g)
    assert g.tricks_won == [3, 0, 0, 0]
    assert g.scores == [-7, -7, -7, -7]  # bidder team down; defenders took < 2
