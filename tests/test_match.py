"""Match behaviour: dealer rotation, match length, totals and the score sheet, the tie rules,
redeals, KING, and the end of the match.

The spec is /work/shared/RULES.md §The match (length and tie rule per guide) and §The core ("Dealer
moves one seat each deal; the seat after the dealer speaks first"); the project's decisions are in
docs/rules.md. Guides (in /work/shared/seeds/): 000_… Batak Sultan ("On public tables a match lasts
11 deals"; "in a tie the winnings are shared"), 001_… GameLake ("on GameLake 3, 5 or 10 ... a tie
at the top plays one more hand"), 002_… Zipi ("A standard match is 11 hands"), 003_… CetinsGame
("oyunumuzda 4, 8 ya da 12 el oynanır"; "eşitlikte son elde daha çok löve alan öne geçer"), 004_…
açık eşli ("KİNG: Eğer bir takım ihale belirleme sırasında 13 der ve 13 alırsa oyunu o anda
kazanır"; "2 takımda bitiş puanına ulaşıp aynı puanı alırsa ... ilave bir tur daha oynanır").
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from batak import PASS, Bid, Card, IllegalMove, Match, Phase, Rules, ScoreRow, TrumpChoice
from batak.game import Game
from batak.record import dumps, loads

PRESETS = Rules.preset_names()


# ---------------------------------------------------------------------- helpers
def choose(rng: random.Random, game: Game) -> object:
    """A random legal move; in an auction mostly passes, so that deals reach the card play."""
    moves = game.legal_moves()
    if PASS in moves and rng.random() < 0.6:
        return PASS
    return rng.choice(moves)


def check_row(m: Match, row: ScoreRow, game: Game, before: list[int]) -> None:
    """A score-sheet line shows the deal's dealer, bidder, bid, trump, tricks and scores, and the
    running totals (RULES.md §The match: "The score sheet (yazboz) shows every deal's bidder, bid,
    trump, tricks and score")."""
    n = m.rules.players
    assert row.deal == len(m.sheet)
    assert row.dealer == game.dealer
    if game.redeal:
        assert row.redeal and row.scores is None
        assert row.totals == before
        return
    assert not row.redeal
    assert row.scores == game.scores
    assert row.tricks == game.tricks_won
    assert row.totals == [before[s] + game.scores[s] for s in range(n)]  # type: ignore[index]
    c = game.contract
    assert row.bidder == (c.bidder if c else None)
    assert row.bid == (c.bid if c else None)
    assert row.trump == (game.trump.value if game.trump else None)
    if m.rules.bidding == "kozmaca":
        assert row.bids == game.bids


def lopsided(rng: random.Random, game: Game) -> object:
    """Nobody bids; team 0+2 plays its highest legal card and team 1+3 its lowest, so team 0+2
    pulls ahead and a match to a target score ends."""
    moves = game.legal_moves()
    if PASS in moves:
        return PASS
    if game.phase is not Phase.PLAY:
        return rng.choice(moves)
    cards = sorted(moves, key=lambda c: c.rank)  # type: ignore[union-attr]
    return cards[-1] if game.to_move in (0, 2) else cards[0]


def play_match(m: Match, rng: random.Random, max_deals: int = 400, policy: Any = None) -> None:
    """Play ``m`` to its end with random moves, checking every deal as it ends: the next deal's
    dealer is one seat on (the same dealer after a redeal), the seat after the dealer speaks
    first, and the sheet and totals add up. Matches to a target score are played lopsided by
    default (random play can drift below zero for ever)."""
    if policy is None:
        policy = lopsided if m.rules.deals is None else choose
    n = m.rules.players
    start = m.game
    assert start.to_move == (start.dealer + 1) % n
    while not m.over:
        game = m.game
        before = list(m.totals)
        while m.game is game and not m.over:
            m.play(policy(rng, game))
        row = m.sheet[-1]
        check_row(m, row, game, before)
        assert m.totals == [sum(r.scores[s] for r in m.sheet if r.scores) for s in range(n)]
        if m.over:
            assert m.game is game
            break
        nxt = m.game
        assert nxt.dealer == (game.dealer if game.redeal else (game.dealer + 1) % n)
        assert nxt.history == []
        assert nxt.to_move == (nxt.dealer + 1) % n, "the seat after the dealer speaks first"
        assert len(m.sheet) < max_deals, "the match does not end"


def top_units(rules: Rules, totals: list[int]) -> list[tuple[int, ...]]:
    best = max(totals[u[0]] for u in rules.teams)
    return [u for u in rules.teams if totals[u[0]] == best]


# ---------------------------------------------------------------------- rotation
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("dealer", [0, 2])
def test_dealer_moves_one_seat_and_the_next_seat_speaks_first(preset: str, dealer: int) -> None:
    """RULES.md §The core: "Dealer moves one seat each deal; the seat after the dealer speaks
    first" (Sultan 000_…: "The dealer moves on one seat every deal; the player after the dealer
    speaks first"). In Koz Maça without bids the seat after the dealer leads."""
    rules = Rules.preset(preset)
    n = rules.players
    m = Match(rules, dealer=dealer, seed=11)
    rng = random.Random(5)
    for k in range(3):
        game = m.game
        assert len(m.games) == k + 1
        assert game.dealer == (dealer + k) % n
        first = (game.dealer + 1) % n
        assert game.to_move == first
        if rules.bidding == "none":
            assert game.phase is Phase.PLAY
        else:
            assert game.phase is Phase.BIDDING
        m.play(game.legal_moves()[-1])  # the highest bid, or a card
        if rules.bidding == "none":
            assert game.current_trick[0][0] == first
        else:
            assert game.auction[0][0] == first
        while m.game is game and not m.over:
            m.play(choose(rng, game))
        if m.over:  # a KING in açık eşli ends the match at once
            break


# ---------------------------------------------------------------------- length
LENGTHS = {
    "sultan-ihaleli": 11,  # 000_…: "On public tables a match lasts 11 deals"
    "sultan-esli": 11,
    "sultan-kozmaca": 11,
    "gamelake-ihaleli": 5,  # 001_…: "3, 5 or 10"; docs/rules.md: the preset uses 5
    "gamelake-esli": 5,
    "zipi-ihaleli": 11,  # 002_…: "A standard match is 11 hands"
    "zipi-esli": 11,
    "zipi-kozmaca": 11,
    "zipi-kitty": 11,
    "cetinsgame-ihaleli": 8,  # 003_…: "4, 8 ya da 12 el"; docs/rules.md: 8
    "cetinsgame-esli": 8,
    "cetinsgame-kozmaca": 8,
    "standard": 8,  # RULES.md: the project's default is the CetinsGame table
}
TIES = {
    "sultan": "shared",
    "gamelake": "extra_deal",
    "zipi": "shared",
    "cetinsgame": "last_deal_tricks",
    "standard": "last_deal_tricks",
}


def test_every_fixed_length_preset_is_listed() -> None:
    assert sorted([*LENGTHS, "esli-acik"]) == sorted(PRESETS)


@pytest.mark.parametrize("preset", sorted(LENGTHS))
@pytest.mark.parametrize("seed", [1, 2])
def test_match_length_and_tie_rule_per_preset(preset: str, seed: int) -> None:
    """RULES.md §The match: Sultan 11 deals (tie shared), GameLake 5 (one more deal on a tie),
    Zipi 11 (shared), CetinsGame 8 (more tricks in the last deal wins)."""
    rules = Rules.preset(preset)
    assert rules.deals == LENGTHS[preset]
    assert rules.target_score is None
    assert rules.tie == TIES[preset.split("-")[0]]
    m = Match(rules, seed=seed)
    play_match(m, random.Random(seed))
    scored = [r for r in m.sheet if not r.redeal]
    deals = LENGTHS[preset]
    assert len(scored) >= deals
    # after the regular deals the match goes on only while the top is tied under extra_deal
    for k in range(deals, len(scored) + 1):
        tied = len(top_units(rules, scored[k - 1].totals)) > 1
        if k < len(scored):
            assert tied and rules.tie == "extra_deal", f"deal {k + 1} should not be played"
            assert scored[k].extra
        else:
            assert not (tied and rules.tie == "extra_deal")
    assert not any(r.extra for r in scored[:deals])
    assert m.over and m.legal_moves() == [] and m.to_move is None
    leaders = [s for u in top_units(rules, m.totals) for s in u]
    assert set(m.winners) <= set(leaders)
    if rules.tie == "shared" or len(top_units(rules, m.totals)) == 1:
        assert m.winners == sorted(leaders)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_esli_acik_plays_to_51(seed: int) -> None:
    """RULES.md §The match: açık eşli plays "to a target score (the guide does not say which:
    choose and document)"; docs/rules.md chose 51, with one more deal on a tie (004_…)."""
    rules = Rules.preset("esli-acik")
    assert rules.deals is None and rules.target_score == 51 and rules.tie == "extra_deal"
    m = Match(rules, seed=seed)
    play_match(m, random.Random(seed), policy=lopsided)
    rows = m.sheet
    for row in rows[:-1]:  # before the last deal the match had not been decided
        assert not row.king
        reached = max(row.totals) >= 51
        assert not reached or len(top_units(rules, row.totals)) > 1
    last = rows[-1]
    assert last.king or (max(last.totals) >= 51 and len(top_units(rules, last.totals)) == 1)
    team = top_units(rules, last.totals)[0]
    if not last.king:
        assert m.winners == list(team)


# ---------------------------------------------------------------------- totals
@pytest.mark.parametrize("preset", PRESETS)
def test_totals_are_the_sum_of_the_sheet(preset: str) -> None:
    """The totals are the running sum of the sheet's rows, and each row's totals are the totals
    after that deal (yazboz)."""
    m = Match(preset, seed=99)
    play_match(m, random.Random(99))  # checks every row against its deal as it goes
    n = m.rules.players
    running = [0] * n
    for row in m.sheet:
        if row.scores is not None:
            running = [running[s] + row.scores[s] for s in range(n)]
        assert row.totals == running
        if m.rules.partners and row.scores is not None:
            assert row.scores[0] == row.scores[2] and row.scores[1] == row.scores[3]
    assert m.totals == running
    assert [row.deal for row in m.sheet] == list(range(1, len(m.sheet) + 1))


# ---------------------------------------------------------------------- scripted deals
def play(m: Match, moves: str) -> None:
    """Play space-separated moves where 'bid N' and 'trump X' are written 'bidN' and 'trumpX'."""
    for word in moves.split():
        if word.startswith("bid"):
            m.play(Bid(int(word[3:])))
        elif word.startswith("trump"):
            m.play(TrumpChoice(word[5:]))
        elif word == "pass":
            m.play(PASS)
        else:
            m.play(Card.parse(word))


# Three-card deals (Game accepts equal hands smaller than a full deal, docs/rules.md "Small
# hands"). Clubs are named trump and nobody holds one, so every trick goes to the highest card of
# the suit led, and with one card of each suit per hand every card is forced.
DEAL_1 = (["2S 2H 2D", "AS AH 3D", "3S 3H AD", "4S 4H 4D"], None)
# dealer 0; all pass, the dealer holds 4 and goes down. Seat 1 takes 2 tricks, seat 2 one.
MOVES_1 = "pass pass pass pass trumpC 2S AS 3S 4S AH 3H 4H 2H 3D AD 4D 2D"
DEAL_2 = (["4S 4H 4D", "3S 3H AD", "AS AH 3D", "2S 2H 2D"], None)
# dealer 1; seat 3 bids 4 and goes down. Seat 2 takes 2 tricks, seat 1 one (the last).
MOVES_2 = "pass bid4 pass pass trumpC 2S 4S 3S AS AH 2H 4H 3H 3D 2D 4D AD"
DEAL_3 = (["4S 4H 4D", "AS AH AD", "2S 2H 2D", "3S 3H 3D"], None)
# dealer 2; all pass, the dealer holds 4 and goes down; seat 1 takes every trick.
MOVES_3 = "pass pass pass pass trumpC 2S 3S 4S AS AH 2H 3H 4H AD 2D 3D 4D"


def tie_rules(tie: str) -> Rules:
    return Rules.preset("standard").replace(deals=2, tie=tie)


def test_scripted_deals_tie_seats_1_and_2() -> None:
    """The scripted deals score as RULES.md's CetinsGame table says (`tens`: +10 a trick, the
    bidder down −10 × bid, a non-bidder with no tricks −40), ending level at the top."""
    m = Match(tie_rules("shared"), deals=[DEAL_1, DEAL_2])
    play(m, MOVES_1)
    assert m.sheet[0].tricks == [0, 2, 1, 0]
    assert m.sheet[0].scores == [-40, 20, 10, -40]
    assert m.sheet[0].bidder == 0 and m.sheet[0].bid == 4 and m.sheet[0].trump == "C"
    assert not m.over and m.game.dealer == 1 and m.game.to_move == 2
    play(m, MOVES_2)
    assert m.sheet[1].tricks == [0, 1, 2, 0]
    assert m.sheet[1].bidder == 3
    assert m.sheet[1].scores == [-40, 10, 20, -40]
    assert m.totals == [-80, 30, 30, -80]


def test_tie_shared() -> None:
    """`shared` (Sultan 000_…: "in a tie the winnings are shared"; Zipi): both tied seats win."""
    m = Match(tie_rules("shared"), deals=[DEAL_1, DEAL_2])
    play(m, MOVES_1 + " " + MOVES_2)
    assert m.over
    assert m.winners == [1, 2]
    assert len(m.games) == 2


def test_tie_last_deal_tricks() -> None:
    """`last_deal_tricks` (CetinsGame 003_…: "eşitlikte son elde daha çok löve alan öne
    geçer"): seat 2 took 2 tricks in the last deal, seat 1 took 1, so seat 2 wins alone."""
    m = Match(tie_rules("last_deal_tricks"), deals=[DEAL_1, DEAL_2])
    play(m, MOVES_1 + " " + MOVES_2)
    assert m.over
    assert m.winners == [2]


def test_tie_last_deal_tricks_also_level_is_shared() -> None:
    """docs/rules.md: "if the tied players also took the same number of tricks in the last deal,
    the win is shared". One two-card deal: seats 1 and 2 take a trick each (+10 each)."""
    rules = Rules.preset("standard").replace(deals=1, tie="last_deal_tricks")
    deal = (["2S 2H", "AS 3H", "3S AH", "4S 4H"], None)
    m = Match(rules, deals=[deal])
    play(m, "pass pass pass pass trumpC 2S AS 3S 4S 3H AH 4H 2H")
    assert m.sheet[0].scores == [-40, 10, 10, -40]
    assert m.over and m.winners == [1, 2]


def test_tie_extra_deal() -> None:
    """`extra_deal` (GameLake 001_…: "a tie at the top plays one more hand"): after the two
    deals the tie sends the match into a third deal, which seat 1 wins."""
    m = Match(tie_rules("extra_deal"), deals=[DEAL_1, DEAL_2, DEAL_3])
    play(m, MOVES_1 + " " + MOVES_2)
    assert not m.over, "a tie at the top must be played off"
    assert m.winners == []
    assert len(m.games) == 3
    assert m.game.dealer == 2 and m.game.to_move == 3
    assert [r.extra for r in m.sheet] == [False, False]
    play(m, MOVES_3)
    assert m.sheet[2].scores == [-40, 30, -40, -40]
    assert m.sheet[2].extra
    assert m.totals == [-120, 60, -10, -120]
    assert m.over and m.winners == [1]
    with pytest.raises(IllegalMove):
        m.play(PASS)


def test_tie_extra_deal_repeats_while_tied() -> None:
    """One more deal is played after every deal that leaves the top level."""
    rules = Rules.preset("standard").replace(deals=1, tie="extra_deal")
    deal_a = (["2S 2H", "AS 3H", "3S AH", "4S 4H"], None)  # dealer 0 holds 4 and goes down
    moves_a = "pass pass pass pass trumpC 2S AS 3S 4S 3H AH 4H 2H"  # +10 to seats 1 and 2
    deal_b = (["4S 4H", "AS 3H", "3S AH", "2S 2H"], None)  # dealer 1; seat 3 bids and goes down
    moves_b = "pass bid4 pass pass trumpC 2S 4S AS 3S 3H AH 2H 4H"  # +10 to seats 1 and 2 again
    deal_c = (["2S 2H", "AS AH", "3S 3H", "4S 4H"], None)  # dealer 2; seat 1 takes both
    moves_c = "pass pass pass pass trumpC 3S 4S 2S AS AH 3H 4H 2H"
    m = Match(rules, deals=[deal_a, deal_b, deal_c])
    play(m, moves_a)
    assert m.totals == [-40, 10, 10, -40] and not m.over
    play(m, moves_b)
    assert m.sheet[1].scores == [-40, 10, 10, -40]
    assert m.totals == [-80, 20, 20, -80] and not m.over
    play(m, moves_c)
    assert m.sheet[2].scores == [-40, 20, -40, -40]
    assert m.totals == [-120, 40, -20, -120]
    assert m.over and m.winners == [1]
    assert [r.extra for r in m.sheet] == [False, True, True]


# ---------------------------------------------------------------------- target score ties
ACIK_TIE = Rules.preset("esli-acik").replace(min_bid=2, target_score=2)
# Four-card hands with one card of each suit: every card is forced. Clubs are trump.
ACIK_1 = (["2S 2H AD 2C", "AS 3H 2D 3C", "3S 4H 3D AC", "4S AH 4D 4C"], None)
# dealer 0: seat 1 bids 2; each seat takes one trick, so both teams take 2: +2 and +2.
ACIK_MOVES_1 = "bid2 pass pass pass trumpC AS 3S 4S 2S 3H 4H AH 2H 4D AD 2D 3D 2C 3C AC 4C"
ACIK_2 = (["3S 3H 3D AC", "4S 4H 4D 4C", "AS AH 2D 2C", "2S 2H AD 3C"], None)
# dealer 1: seat 2 bids 2; team 0+2 takes 3 (+3), team 1+3 takes 1 (< 2: −2).
ACIK_MOVES_2 = "bid2 pass pass pass trumpC AS 2S 3S 4S AH 2H 3H 4H 2D AD 3D 4D 3C AC 4C 2C"


def test_target_score_tie_plays_one_more_deal() -> None:
    """Açık eşli (004_…): "2 takımda bitiş puanına ulaşıp aynı puanı alırsa, kazananı belirlemek
    için ilave bir tur daha oynanır" — both teams reach the target level: one more deal."""
    m = Match(ACIK_TIE, deals=[ACIK_1, ACIK_2])
    play(m, ACIK_MOVES_1)
    assert m.sheet[0].tricks == [1, 1, 1, 1]
    assert m.sheet[0].scores == [2, 2, 2, 2]
    assert not m.over
    play(m, ACIK_MOVES_2)
    assert m.sheet[1].scores == [3, -2, 3, -2]
    assert m.totals == [5, 0, 5, 0]
    assert m.over and m.winners == [0, 2]


def test_target_score_tie_break_deal_is_marked_extra() -> None:
    """The sheet marks a deal played to break a tie (ScoreRow.extra: "a deal played to break a
    tie") in a target-score match just as in a fixed-length one."""
    m = Match(ACIK_TIE, deals=[ACIK_1, ACIK_2])
    play(m, ACIK_MOVES_1 + " " + ACIK_MOVES_2)
    assert [r.extra for r in m.sheet] == [False, True]


# ---------------------------------------------------------------------- redeal
def test_redeal_keeps_the_dealer_and_does_not_count() -> None:
    """RULES.md §Auction, all_pass=`redeal` (a CetinsGame table variant, 003_…: "Bazı masalarda
    ise kartlar toplanıp yeniden dağıtılır"): the deal is thrown in, no score, the same dealer
    deals again; docs/rules.md: it is on the sheet and does not count towards the length."""
    rules = Rules.preset("standard").replace(all_pass="redeal", deals=2)
    deal = (["2S 2H", "AS 3H", "3S AH", "4S 4H"], None)
    m = Match(rules, dealer=3, deals=[deal, deal], seed=4)
    first = m.game
    play(m, "pass pass pass pass")
    assert first.phase is Phase.OVER and first.redeal and first.scores is None
    assert len(m.sheet) == 1
    row = m.sheet[0]
    assert row.redeal and row.scores is None and row.dealer == 3 and row.bidder is None
    assert row.totals == [0, 0, 0, 0] and m.totals == [0, 0, 0, 0]
    assert m.deals_scored == 0 and not m.over
    assert m.game is not first and m.game.dealer == 3 and m.game.to_move == 0
    # the dealer takes it this time: dealer 3 bids, the others pass
    play(m, "pass pass pass bid4 trumpC 4S 2S AS 3S 3H AH 4H 2H")
    assert m.deals_scored == 1 and not m.over
    assert m.game.dealer == 0  # now the dealer moves on
    play_match(m, random.Random(3))
    scored = [r for r in m.sheet if not r.redeal]
    assert len(scored) == 2  # last_deal_tricks: no deal is added
    assert m.sheet[0].redeal and not m.sheet[1].redeal
    assert m.totals == [sum(r.scores[s] for r in scored) for s in range(4)]  # type: ignore[index]


def test_a_contract_nobody_bid_is_marked_on_the_sheet() -> None:
    """RULES.md §Auction, all_pass=`dealer_takes_min` (Batak Sultan, S0 §3: the dealer is forced
    to take the lowest bid when everyone passes): the sheet's row says the contract was given
    (``forced``), so the clients do not say the dealer bid it; a contract that was bid is not."""
    rules = Rules.preset("standard").replace(all_pass="dealer_takes_min", deals=2)
    deal = (["2S 2H", "AS 3H", "3S AH", "4S 4H"], None)
    m = Match(rules, dealer=3, deals=[deal, deal], seed=4)
    play(m, "pass pass pass pass")
    assert m.game.contract is not None and m.game.contract.bidder == 3
    assert m.game.contract.bid == rules.min_bid and m.game.contract_given
    play(m, "trumpC 4S 2S AS 3S 3H AH 4H 2H")
    assert m.sheet[0].forced and m.sheet[0].to_dict()["forced"] is True
    play(m, "bid4 pass pass pass")  # deal 2: seat 0 bids, so the contract is its own
    assert not m.game.contract_given
    play_match(m, random.Random(3))
    assert not m.sheet[1].forced and m.sheet[1].to_dict()["forced"] is False


def test_redeal_on_the_last_deal_does_not_end_the_match() -> None:
    """A thrown-in deal is not one of the match's deals, so a one-deal match goes on after it."""
    rules = Rules.preset("standard").replace(all_pass="redeal", deals=1, tie="shared")
    deal = (["2S 2H", "AS 3H", "3S AH", "4S 4H"], None)
    m = Match(rules, deals=[deal, deal, deal])
    play(m, "pass pass pass pass")
    assert not m.over
    play(m, "pass pass pass pass")
    assert not m.over and [r.redeal for r in m.sheet] == [True, True]
    assert [g.dealer for g in m.games] == [0, 0, 0]
    play(m, "bid4 pass pass pass trumpC 3H AH 4H 2H 3S 4S 2S AS")  # seat 1 bids, takes one
    assert m.over and len(m.sheet) == 3


# ---------------------------------------------------------------------- KING
SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
KING_DEAL = (
    [
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        SPADES,
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    ],
    None,
)


def _run_spades(m: Match) -> None:
    """Seat 1 leads its thirteen spades; everybody else is void and has no trump, so discards."""
    hands = {s: m.game.hand(s) for s in range(4)}
    for i, card in enumerate(hands[1]):
        m.play(card)
        for s in (2, 3, 0):
            m.play(hands[s][i])


def test_king_ends_the_match_at_once() -> None:
    """Açık eşli KING (004_…: "Eğer bir takım ihale belirleme sırasında 13 der ve 13 alırsa oyunu
    o anda kazanır"; RULES.md §Scoring: "a team that bids 13 and takes 13 (KING) wins the match at
    once"), far below the target of 51."""
    m = Match("esli-acik", deals=[KING_DEAL])
    m.play(Bid(13))  # a bid of the maximum ends the auction at once
    assert m.game.phase is Phase.TRUMP and m.game.contract is not None
    assert m.game.contract.bidder == 1 and m.game.contract.bid == 13
    m.play(TrumpChoice("S"))
    _run_spades(m)
    row = m.sheet[-1]
    assert row.tricks == [0, 13, 0, 0]
    assert row.king
    assert row.scores == [-13, 13, -13, 13]  # 13 up, 13 down
    assert m.over and m.winners == [1, 3]
    assert len(m.games) == 1 and max(m.totals) < 51
    assert m.legal_moves() == [] and m.to_move is None
    again = loads(dumps(m))
    assert again.over and again.winners == [1, 3] and again.sheet == m.sheet


def test_thirteen_unbid_scores_13_up_13_down_and_goes_on() -> None:
    """RULES.md §Scoring: "a team that takes all 13 tricks without having bid 13 scores +13 and
    the other −13" (004_…: "13 Aşağı 13 Yukarı Kuralı"); the match is not over."""
    m = Match("esli-acik", deals=[KING_DEAL])
    play(m, "bid7 pass pass pass trumpS")
    _run_spades(m)
    row = m.sheet[-1]
    assert row.scores == [-13, 13, -13, 13]
    assert not row.king
    assert not m.over and len(m.games) == 2


def test_king_needs_the_bid_of_13_by_the_team_that_takes_13() -> None:
    """Partner 3 bids 13 for the team and seat 1 takes every trick: still KING for team 1+3."""
    m = Match("esli-acik", deals=[KING_DEAL])
    play(m, "bid7 pass bid13 trumpS")
    assert m.game.contract is not None and m.game.contract.bidder == 3
    # seat 3 (bidder) leads; it holds only clubs, trumps are spades: seat 1 ruffs every trick
    hands = {s: m.game.hand(s) for s in range(4)}
    for i in range(13):
        if i == 0:
            m.play(hands[3][0])
            m.play(hands[0][0])
            m.play(hands[1][-1])
            m.play(hands[2][0])
        else:
            m.play(hands[1][-1 - i])
            m.play(hands[2][i])
            m.play(hands[3][i])
            m.play(hands[0][i])
    assert m.sheet[-1].tricks == [0, 13, 0, 0]
    assert m.sheet[-1].king
    assert m.over and m.winners == [1, 3]


# ---------------------------------------------------------------------- after the end
@pytest.mark.parametrize("preset", ["sultan-ihaleli", "zipi-kitty", "esli-acik"])
def test_no_move_after_the_match_is_over(preset: str) -> None:
    """Once the match is over every move is refused with IllegalMove and nothing changes."""
    m = Match(preset, seed=8)
    play_match(m, random.Random(8))
    assert m.over
    sheet, totals, winners = list(m.sheet), list(m.totals), list(m.winners)
    history = [list(g.history) for g in m.games]
    for move in [PASS, Bid(7), TrumpChoice("S"), Card.parse("AS"), "2C", "pass", "bid 5"]:
        with pytest.raises(IllegalMove):
            m.play(move)
        with pytest.raises(IllegalMove):
            m.play(move, seat=0)
    assert m.legal_moves() == []
    assert (m.sheet, m.totals, m.winners) == (sheet, totals, winners)
    assert [g.history for g in m.games] == history
    assert len(m.games) == len(history)


@pytest.mark.parametrize("preset", ["standard", "sultan-ihaleli", "gamelake-ihaleli"])
def test_king_at_a_four_player_solo_table(preset: str) -> None:
    """docs/rules.md §10, king at a solo table (other programs' "13 deyip 13 alan oyunu
    kazanır"): a player who bids 13 and takes all 13 wins the match at once; the deal itself
    scores as any other (13 up, 13 down is açık eşli's own rule); taking 13 without that bid
    does not end the match."""
    rules = Rules.preset(preset, king=True)
    m = Match(rules, deals=[KING_DEAL])
    m.play(Bid(13))
    m.play(TrumpChoice("S"))
    _run_spades(m)
    row = m.sheet[-1]
    assert row.king and m.over and m.winners == [1]
    plain = Match(Rules.preset(preset), deals=[KING_DEAL])
    plain.play(Bid(13))
    plain.play(TrumpChoice("S"))
    _run_spades(plain)
    assert row.scores == plain.sheet[-1].scores and not plain.over
    again = loads(dumps(m))
    assert again.over and again.winners == [1]
    m = Match(rules, deals=[KING_DEAL])
    m.play(Bid(12))
    for _ in range(3):
        m.play(PASS)
    m.play(TrumpChoice("S"))
    _run_spades(m)
    assert m.sheet[-1].tricks == [0, 13, 0, 0] and not m.sheet[-1].king and not m.over


def test_king_needs_four_players_and_an_auction() -> None:
    from batak import RulesError

    for preset in ("zipi-kitty", "sultan-kozmaca"):
        with pytest.raises(RulesError) as info:
            Rules.preset(preset, king=True)
        assert info.value.code == "king"
