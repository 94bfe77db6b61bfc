"""Property tests over random deals in every preset (RULES.md, /work/shared/RULES.md).

Every test walks whole deals with moves drawn by hypothesis (``data.draw``), so a failure shrinks
to a short, readable sequence of moves. The checks are written from the spec, not from the engine:
card conservation, refusal of every illegal move with the state untouched, trick counts and trick
winners, hidden information in the seat views, record round trips, the score table, and an
independent oracle for the compulsory-play and trump-lead rules ("Compulsory play", "Leading
trumps").
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import Phase as Phase_
from hypothesis import strategies as st

import batak
from batak import PASS, Bid, Bury, Card, Game, IllegalMove, Match, Phase, Rules, TrumpChoice
from batak.cards import CARDS, Suit
from batak.record import dumps, loads, replay

PRESETS = Rules.preset_names()
ALL = frozenset(CARDS)

# Each example is a whole deal (about 55 moves, each drawn by hypothesis), so the counts are
# modest to keep the file near a minute on two cores; the checks that look at every seat's view
# or try ~80 illegal moves at every step run fewer deals. BATAK_EXAMPLES_SCALE=10 for a soak run.
SCALE = max(1, int(os.environ.get("BATAK_EXAMPLES_SCALE", "1")))


def examples(n: int) -> settings:
    return settings(
        max_examples=n * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


CARD_RE = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][SHDC](?![0-9A-Za-z])")


# ---------------------------------------------------------------------- helpers
def test_preset_list_is_the_fourteen_tables() -> None:
    """RULES.md §Presets: thirteen guide presets and the project's own ``standard``."""
    assert sorted(PRESETS) == sorted(
        [
            "standard",
            "sultan-ihaleli",
            "sultan-esli",
            "sultan-kozmaca",
            "gamelake-ihaleli",
            "gamelake-esli",
            "zipi-ihaleli",
            "zipi-esli",
            "zipi-kozmaca",
            "zipi-kitty",
            "cetinsgame-ihaleli",
            "cetinsgame-esli",
            "cetinsgame-kozmaca",
            "esli-acik",
        ]
    )


_CHOICES: dict[tuple[Any, ...], st.SearchStrategy[Any]] = {}


def draw_move(data: st.DataObject, game: Game) -> Any:
    """A legal move, drawn with ``st.sampled_from`` so that hypothesis shrinks the choice. In an
    auction half the draws are a pass, so all-pass auctions actually happen. (The strategies are
    cached: building a new one for every draw costs more than the deal.)"""
    moves = tuple(game.legal_moves())
    strategy = _CHOICES.get(moves)
    if strategy is None:
        if PASS in moves:
            strategy = st.one_of(st.just(PASS), st.sampled_from(moves))
        else:
            strategy = st.sampled_from(moves)
        if len(_CHOICES) < 50_000:
            _CHOICES[moves] = strategy
    return data.draw(strategy)


def new_game(name_or_rules: str | Rules, seed: int, data: st.DataObject) -> Game:
    rules = Rules.preset(name_or_rules) if isinstance(name_or_rules, str) else name_or_rules
    dealer = data.draw(st.integers(0, rules.players - 1), label="dealer")
    return Game(rules, seed=seed, dealer=dealer)


def walk(game: Game, data: st.DataObject, check: Any) -> None:
    """Play the deal to the end with drawn moves, calling ``check(game)`` before every move and
    once at the end."""
    for _ in range(200):
        check(game)
        if game.phase is Phase.OVER:
            return
        game.play(draw_move(data, game))
    raise AssertionError("a deal did not end within 200 moves")


def played_cards(game: Game) -> list[str]:
    out = [str(c) for t in game.tricks for c in t.cards]
    out += [str(c) for _, c in game.current_trick]
    return out


def snapshot(game: Game) -> Any:
    """Everything observable about a deal."""
    n = game.players
    return (
        game.phase,
        game.to_move,
        [[str(c) for c in game.hand(s)] for s in range(n)],
        [t.to_dict() for t in game.tricks],
        [(s, str(c)) for s, c in game.current_trick],
        [str(m) for m in game.history],
        [(s, str(m)) for s, m in game.auction],
        game.tricks_won,
        game.scores,
        game.contract,
        game.trump,
        game.trumps_broken,
        [str(c) for c in game.buried],
        game.redeal,
        [str(m) for m in game.legal_moves()],
        [game.view(s) for s in [*range(n), None]],
    )


def trick_winner(cards: list[Card] | tuple[Card, ...], trump: Suit | None) -> int:
    """Index of the winning card: the highest trump, else the highest card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if trump is not None and c.suit == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c.suit == cards[0].suit]
    return max(pool, key=lambda i: int(cards[i].rank))


def first_leader(game: Game) -> int:
    """RULES.md: the bidder leads the first trick; in Koz Maça the seat after the dealer; with
    first_lead='after_dealer' (docs/rules.md §10) the seat after the dealer in an auction too."""
    r = game.rules
    if r.bidding == "auction" and r.first_lead == "bidder":
        assert game.contract is not None
        return game.contract.bidder
    return (game.dealer + 1) % r.players


def expected_contract(game: Game) -> batak.Contract:
    """RULES.md §Auction: the highest bidder holds the contract; if all pass, ``all_pass``."""
    r = game.rules
    bids = [(s, m.amount) for s, m in game.auction if isinstance(m, Bid)]
    if bids:
        seat, amount = max(bids, key=lambda b: b[1])
    elif r.all_pass == "dealer_takes_min":
        seat, amount = game.dealer, r.min_bid
    else:
        assert r.all_pass == "first_speaker_takes_min"
        seat, amount = (game.dealer + 1) % r.players, r.min_bid
    return batak.Contract(seat, amount, game.trump)


# ---------------------------------------------------------------------- the oracle
def oracle_broken(rules: Rules, game: Game) -> bool:
    """RULES.md §Leading trumps, ``broken_by``: any trump played, or a trump played on another
    suit."""
    trump = game.trump
    if trump is None:
        return False
    tricks = [list(t.cards) for t in game.tricks]
    if game.current_trick:
        tricks.append([c for _, c in game.current_trick])
    for cards in tricks:
        led = cards[0].suit
        for c in cards:
            if c.suit != trump:
                continue
            if rules.broken_by == "any_trump" or led != trump:
                return True
    return False


def oracle_legal(rules: Rules, game: Game, seat: int) -> set[str]:
    """RULES.md §Compulsory play (checks 1-5) and §Leading trumps, written out plainly."""
    hand = game.hand(seat)
    trump = game.trump
    table = [c for _, c in game.current_trick]
    if not table:  # a lead
        if (
            trump is not None
            and rules.trump_lead == "after_broken"
            and not oracle_broken(rules, game)
        ):
            others = [c for c in hand if c.suit != trump]
            return {str(c) for c in (others or hand)}
        return {str(c) for c in hand}
    led = table[0].suit
    follow = [c for c in hand if c.suit == led]
    if follow:  # 1. follow suit
        ruffed = trump is not None and led != trump and any(c.suit == trump for c in table)
        # 2./3. overtake, and after a ruff only with overtake_after_ruff
        if rules.overtake and (not ruffed or rules.overtake_after_ruff):
            top = max(int(c.rank) for c in table if c.suit == led)
            higher = [c for c in follow if int(c.rank) > top]
            if higher:
                return {str(c) for c in higher}
        return {str(c) for c in follow}
    trumps = [c for c in hand if trump is not None and c.suit == trump]
    if trumps and rules.must_trump:  # 4. must trump (unless the table says a void is free)
        on_table = [int(c.rank) for c in table if c.suit == trump]
        # overtrump, a setting apart from overtake (CetinsGame: "büyük koz zorunluluğu")
        if on_table and rules.overtrump:
            higher = [c for c in trumps if int(c.rank) > max(on_table)]
            if higher:
                return {str(c) for c in higher}
            if not rules.trump_if_cannot_overtrump:
                return {str(c) for c in hand}
        return {str(c) for c in trumps}
    return {str(c) for c in hand}  # 5. anything


def contract_score(r: Rules, b: int, x: int) -> int:
    """RULES.md §Scoring and docs/rules.md §10: what a contract of ``b`` taking ``x`` scores
    (the bidder's side, or a Koz Maça player against its own bid)."""
    if b == 0 and r.zero_bid is not None:  # el almam
        return r.zero_bid if x == 0 else -r.zero_bid
    unit = 1 if r.scoring in ("simple", "acik") else 10
    over = r.overtrick_limit is not None and x > b + r.overtrick_limit  # yan batar
    if x < b or over:
        if r.down_penalty is not None:
            return -r.down_penalty
        if r.down_scoring == "shortfall":
            assert r.overtrick_limit is not None or not over
            return -unit * (x - b - (r.overtrick_limit or 0) if over else b - x)
        return -unit * b
    counted = x if r.overtricks_count else b
    base = {"sultan": 10 * b, "simple": b, "acik": b, "tens": 10 * b, "primli": 15 * b}
    per = {"sultan": 1, "simple": 1, "acik": 1, "tens": 10, "primli": 10}[r.scoring]
    if r.overtrick_points is not None:
        per = r.overtrick_points
    return base[r.scoring] + per * (counted - b)


def expected_scores(game: Game) -> list[int]:
    """RULES.md §Scoring, per deal, for the schemes the presets use, and the table variants of
    docs/rules.md §10."""
    r = game.rules
    t = game.tricks_won
    n = r.players
    if r.bidding == "kozmaca":  # each player against their own bid
        assert r.scoring == "sultan"
        return [contract_score(r, b, x) for b, x in zip(game.bids, t, strict=True)]  # type: ignore[arg-type]
    if r.bidding == "none":
        if r.scoring == "simple":
            return list(t)
        assert r.scoring == "tens" and r.zero_trick_penalty in ("min_bid", "none")
        if r.zero_trick_penalty == "none":
            return [10 * x for x in t]
        return [10 * x if x else -10 * r.min_bid for x in t]
    c = game.contract
    assert c is not None
    b = c.bid

    def unit(s: int) -> int:
        return t[s] + t[(s + 2) % 4] if r.partners else t[s]

    if r.king and r.partners:
        for s in range(n):
            if unit(s) == r.hand_size:
                return [13 if x % 2 == s % 2 else -13 for x in range(n)]
    minimum = 0
    if r.partners:
        minimum = r.defenders_minimum if r.defenders_minimum is not None else 0
        if r.defenders_minimum is None and r.scoring == "acik":
            minimum = 2
    out = []
    for s in range(n):
        x = unit(s)
        mine = s == c.bidder or (r.partners and s % 2 == c.bidder % 2)
        if mine:
            out.append(contract_score(r, b, x))
        elif x < minimum:
            out.append(-b if r.scoring in ("simple", "acik") else -10 * b)
        elif r.scoring == "acik":
            out.append(x)
        elif x == 0 and r.zero_trick_penalty != "none":  # batak: the presets' two amounts
            assert r.zero_trick_penalty in ("bid", "min_bid")
            amount = b if r.zero_trick_penalty == "bid" else r.min_bid
            out.append(-amount if r.scoring == "simple" else -10 * amount)
        else:
            out.append(x if r.scoring in ("sultan", "simple") else 10 * x)
    return out


# ---------------------------------------------------------------------- conservation, tricks
@pytest.mark.parametrize("preset", PRESETS)
@examples(20)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_cards_conserved_and_tricks_add_up(preset: str, seed: int, data: st.DataObject) -> None:
    """RULES.md §The core: 52 cards, every one somewhere exactly once; a trick goes to the
    highest trump, else the highest card of the suit led, and the winner leads."""
    _conserved(new_game(preset, seed, data), data)


def _conserved(game: Game, data: st.DataObject) -> None:
    r = game.rules
    n = r.players

    # the hands as dealt are a deal: every card once, hand_size each, the rest in the kitty
    dealt = [c for h in game.initial_hands for c in h] + game.initial_kitty
    assert sorted(dealt) == list(CARDS)
    assert [len(h) for h in game.initial_hands] == [r.hand_size] * n
    assert len(game.initial_kitty) == r.kitty_size
    checked = [0]  # tricks already verified

    def check(g: Game) -> None:
        everything = [c for s in range(n) for c in g.hand(s)]
        everything += [c for t in g.tricks for c in t.cards]
        everything += [c for _, c in g.current_trick]
        if r.kitty_size and g.contract is None:
            everything += g.initial_kitty  # the kitty is still face down on the table
        else:
            everything += g.buried  # (empty without a kitty)
            if r.kitty_order == "bury_take_trump" and len(g.buried) < r.kitty_size:
                everything += g.initial_kitty  # buried first: the kitty is still on the table
        if len(everything) != 52 or set(everything) != ALL:
            dup = [str(c) for c, k in Counter(everything).items() if k > 1]
            lost = [str(c) for c in ALL - set(everything)]
            raise AssertionError(f"cards in two places: {dup}; cards lost: {lost}")

        if r.bidding == "auction" and g.phase is not Phase.BIDDING and not g.redeal:
            assert g.contract == expected_contract(g), g.auction
        if g.phase is Phase.PLAY or (g.phase is Phase.OVER and not g.redeal):
            # Koz Maça: spades always; otherwise the suit the bidder named
            named = [m.suit for m in g.history if isinstance(m, TrumpChoice)]
            assert g.trump == (r.fixed_trump if r.fixed_trump is not None else named[0])

        tricks = g.tricks
        assert sum(g.tricks_won) == len(tricks)
        if len(tricks) > checked[0]:
            wins = Counter(t.winner for t in tricks)
            assert g.tricks_won == [wins.get(s, 0) for s in range(n)]
            for i in range(checked[0], len(tricks)):
                t = tricks[i]
                lead = tricks[i - 1].winner if i else first_leader(g)
                assert t.leader == lead, f"trick {i + 1} led by {t.leader}, not {lead}"
                assert len(t.cards) == n
                want = (t.leader + trick_winner(t.cards, g.trump)) % n
                assert t.winner == want, f"{t} with trump {g.trump}: seat {want} should win"
            checked[0] = len(tricks)
        if g.phase is Phase.PLAY:
            lead = tricks[-1].winner if tricks else first_leader(g)
            on_table = len(g.current_trick)
            assert g.to_move == (lead + on_table) % n
            assert [s for s, _ in g.current_trick] == [(lead + k) % n for k in range(on_table)]
            for s in range(n):
                played_now = (s - lead) % n < on_table
                assert len(g.hand(s)) == r.hand_size - len(tricks) - played_now
        if g.phase is Phase.OVER:
            assert g.to_move is None
            if g.redeal:
                assert g.scores is None and not tricks
            else:
                assert len(tricks) == r.hand_size
                assert sum(g.tricks_won) == r.hand_size
                assert all(not g.hand(s) for s in range(n))
                assert g.scores == expected_scores(g)

    walk(game, data, check)


@pytest.mark.parametrize("preset", PRESETS)
def test_unseeded_deals_are_deals(preset: str) -> None:
    """Without a seed the deal comes from the secure shuffle: still every card exactly once,
    hand_size each, kitty_size left over, and deals differ from one another."""
    r = Rules.preset(preset)
    seen = set()
    for _ in range(50):
        g = Game(r)
        hands = g.initial_hands
        assert [len(h) for h in hands] == [r.hand_size] * r.players
        assert len(g.initial_kitty) == r.kitty_size
        assert sorted([c for h in hands for c in h] + g.initial_kitty) == list(CARDS)
        seen.add(tuple(tuple(h) for h in hands))
    assert len(seen) == 50


# ---------------------------------------------------------------------- legal and illegal moves
def candidates(g: Game) -> list[Any]:
    """Moves to try now: every move of the current phase (all 52 cards in play, every bid from 0
    to beyond the maximum, every bury, every trump), some moves of each other kind (wrong phase),
    and text that is not a move."""
    r = g.rules
    own = g.hand(g.to_move) if g.to_move is not None else []
    some_cards = [*own[:2], *[c for c in CARDS if c not in own][:1]]
    all_bids = [PASS, *(Bid(k) for k in range(0, r.max_bid + 3)), Bid(64)]
    some_bids = [PASS, Bid(0), Bid(r.min_bid), Bid(r.max_bid + 1)]
    trumps = [TrumpChoice(s) for s in Suit]
    some_buries = [Bury(c) for c in some_cards]
    nonsense = ["bid seven", "ZZ", "", "trump X", "1S"]
    phase = g.phase
    if phase is Phase.PLAY:
        return [*CARDS, *some_bids, *trumps[:2], *some_buries, *nonsense]
    if phase is Phase.BURY:
        return [*(Bury(c) for c in CARDS), *some_cards, *some_bids, *trumps[:2], *nonsense]
    if phase is Phase.BIDDING:
        return [*all_bids, *some_cards, *trumps[:2], *some_buries, *nonsense]
    if phase is Phase.TRUMP:
        return [*trumps, *some_cards, *some_bids, *some_buries, *nonsense]
    return [*CARDS[::7], *all_bids, *trumps, *some_buries, *nonsense]  # over: nothing goes


@pytest.mark.parametrize("preset", PRESETS)
@examples(5)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_legal_moves_accepted_everything_else_refused(
    preset: str, seed: int, data: st.DataObject
) -> None:
    """Every listed move is accepted; every other move (cards in and out of hand, bids out of
    range, moves of another phase, nonsense text, the wrong seat) raises IllegalMove, check()
    says the same, and nothing changes (README: "A move the rules forbid is refused with the
    reason ... and nothing changes")."""
    _legal_accepted_rest_refused(new_game(preset, seed, data), data)


def _legal_accepted_rest_refused(game: Game, data: st.DataObject) -> None:
    def check(g: Game) -> None:
        before = snapshot(g)
        legal = g.legal_moves()
        assert len(set(legal)) == len(legal)
        if g.phase is Phase.OVER:
            assert legal == []
        else:
            assert legal, "a seat to move always has a move"
        for m in legal:
            assert g.check(m) is None, m
            assert g.check(str(m)) is None, m
            assert g.check(m, seat=g.to_move) is None, m
            g.copy().play(m)
        legal_set = set(legal)
        for m in candidates(g):
            if m in legal_set:
                continue
            err = g.check(m)
            assert isinstance(err, IllegalMove), f"{m!r} is not listed but check() accepts it"
            try:
                g.play(m)
            except IllegalMove as e:
                assert (e.code, str(e)) == (err.code, str(err))
            else:
                raise AssertionError(f"{m!r} is not listed but play() accepted it")
        if g.phase is not Phase.OVER:
            other = (g.to_move + 1) % g.players  # type: ignore[operator]
            try:
                g.play(legal[0], seat=other)
            except IllegalMove as e:
                assert e.code == "not_your_turn"
            else:
                raise AssertionError("a move for a seat that is not to move was accepted")
        assert snapshot(g) == before, "a refused move (or a move on a copy) changed the state"

    walk(game, data, check)


@pytest.mark.parametrize("preset", PRESETS)
@examples(20)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_legal_cards_agree_with_oracle(preset: str, seed: int, data: st.DataObject) -> None:
    """The engine's legal cards equal the plain reading of RULES.md §Compulsory play and
    §Leading trumps (the preset tables)."""
    game = new_game(preset, seed, data)
    _walk_with_oracle(game, data)


def _walk_with_oracle(game: Game, data: st.DataObject) -> None:
    r = game.rules

    def check(g: Game) -> None:
        if g.phase is not Phase.PLAY:
            return
        seat = g.to_move
        assert seat is not None
        got = {str(c) for c in g.legal_moves()}
        want = oracle_legal(r, g, seat)
        assert got == want, (
            f"seat {seat} holds {[str(c) for c in g.hand(seat)]}, table "
            f"{[str(c) for _, c in g.current_trick]}, trump {g.trump}: engine {sorted(got)}, "
            f"RULES.md {sorted(want)}; options "
            f"{ {k: getattr(r, k) for k in OPTION_NAMES} }"
        )
        if r.trump_lead == "after_broken":
            assert g.trumps_broken == oracle_broken(r, g)

    walk(game, data, check)


OPTION_NAMES = (
    "overtake",
    "overtake_after_ruff",
    "overtrump",
    "trump_if_cannot_overtrump",
    "must_trump",
    "trump_lead",
    "broken_by",
)
VARIANT_FLAGS = st.fixed_dictionaries(
    {
        "overtake_after_ruff": st.booleans(),
        "overtrump": st.booleans(),
        "trump_if_cannot_overtrump": st.booleans(),
        "must_trump": st.booleans(),
        "trump_lead": st.sampled_from(["after_broken", "any_time"]),
        "broken_by": st.sampled_from(["any_trump", "ruff"]),
    }
)


def honourable(overtake: bool, flags: dict[str, object]) -> dict[str, object]:
    """The flips as a table the rules accept: an option that only qualifies a switched-off one
    (overtake_after_ruff without overtake, a free discard without overtrump or without a
    compulsory trump) is refused, so it is left off here; every other combination, overtake off
    with overtrump on included, stays."""
    out = dict(flags)
    if not overtake:
        out["overtake_after_ruff"] = False
    if not out["overtrump"] or not out["must_trump"]:
        out["trump_if_cannot_overtrump"] = True
    return out


@pytest.mark.parametrize("overtake", [True, False], ids=["overtake_on", "overtake_off"])
@settings(
    examples(30),
    # a failing walk reports the whole position and the options (see _walk_with_oracle), so
    # skip the long shrink of a 50-move walk
    phases=[Phase_.explicit, Phase_.reuse, Phase_.generate],
)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_legal_cards_agree_with_oracle_in_rule_variants(
    overtake: bool, seed: int, data: st.DataObject
) -> None:
    """The same oracle with the compulsory-play options flipped at random, on every preset
    (RULES.md: overtake, overtake_after_ruff, overtrump, trump_if_cannot_overtrump, trump_lead,
    broken_by)."""
    preset = data.draw(st.sampled_from(PRESETS), label="preset")
    flags = honourable(overtake, data.draw(VARIANT_FLAGS, label="options"))
    rules = Rules.preset(preset).replace(overtake=overtake, **flags)
    game = new_game(rules, seed, data)
    _walk_with_oracle(game, data)


def test_zipi_overtake_switch_off_also_switches_off_overtrump() -> None:
    """Zipi: "Overtake: if you can beat the highest card on the table you must ... when trumping,
    beat any trump already down" and "The overtake ... rules can be switched off". Its switch is
    overtake=False, overtrump=False: a void player must trump but need not overtrump."""
    rules = Rules.preset("zipi-ihaleli").replace(overtake=False, overtrump=False)
    g = Game(rules, hands=["AH 2S 3S", "5C 4S 6S", "3C 7C 7S", "8S 9S TS"], dealer=3)
    for m in ["bid 4", "pass", "pass", "pass", "trump C", "AH", "5C"]:
        g.play(m)
    assert g.to_move == 2
    assert {str(c) for c in g.legal_moves()} == {"3C", "7C"}


def test_overtake_off_keeps_overtrump_on_its_own() -> None:
    """CetinsGame lists "renk büyütmenin zorunlu olup olmadığı" and "büyük koz zorunluluğu" as
    separate table settings: with overtake off and overtrump on, the void player must still
    play the higher trump."""
    rules = Rules.preset("cetinsgame-ihaleli").replace(overtake=False)
    g = Game(rules, hands=["AH 2S 3S", "5C 4S 6S", "3C 7C 7S", "8S 9S TS"], dealer=3)
    for m in ["bid 4", "pass", "pass", "pass", "trump C", "AH", "5C"]:
        g.play(m)
    assert g.to_move == 2
    assert {str(c) for c in g.legal_moves()} == {"7C"}


# ---------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("preset", PRESETS)
@examples(6)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_views_never_show_hidden_cards(preset: str, seed: int, data: st.DataObject) -> None:
    """A seat sees its own hand, the cards played, the exposed partner's hand in açık eşli once
    trump is named (RULES.md §Partners; seeds/004_…: "İhaleyi alan kullanıcının takım arkadaşı
    elinde ki kartları masaya açar"), and, as the bidder, its buried cards. Nothing else."""
    _views_sealed(new_game(preset, seed, data), data)


def _views_sealed(game: Game, data: st.DataObject) -> None:
    r = game.rules
    n = r.players

    rules_dict = r.to_dict()
    assert json.loads(json.dumps(rules_dict)) == rules_dict
    last_phase: list[Phase | None] = [None]

    def check(g: Game) -> None:
        played = set(played_cards(g))
        c = g.contract
        exposed: set[str] = set()
        partner = None
        if r.exposed_partner and c is not None and c.trump is not None:
            partner = (c.bidder + 2) % 4
            exposed = {str(x) for x in g.hand(partner)}
        new_phase = g.phase is not last_phase[0]
        last_phase[0] = g.phase
        for seat in [*range(n), None]:
            v = g.view(seat)
            assert v.pop("rules") == rules_dict
            text = json.dumps(v)  # the view is JSON-serialisable ...
            if new_phase:  # ... and plain JSON data (no tuples, enums or sets)
                assert json.loads(text) == v
            # every card anywhere in the view ('auction' holds only 'pass' and 'bid N')
            seen = set(CARD_RE.findall(text))
            own = {str(x) for x in g.hand(seat)} if seat is not None else set()
            assert v["hand"] == sorted(own, key=lambda x: Card.parse(x).sort_key())
            # the view's fast paths (card texts from tables) say what the Card objects say
            assert v["hand_sizes"] == [len(g.hand(s)) for s in range(n)]
            assert v["tricks"] == [t.to_dict() for t in g.tricks]
            allowed = own | played | exposed
            if c is not None and seat == c.bidder:
                allowed |= {str(x) for x in g.buried}
            leak = seen - allowed
            assert not leak, f"seat {seat} sees {sorted(leak)} in phase {g.phase}"
            if partner is not None and g.phase is not Phase.OVER:
                assert v["exposed"] == {"seat": partner, "cards": [str(x) for x in g.hand(partner)]}
            else:
                assert v["exposed"] is None
            if seat is None or seat != g.to_move:
                assert v["legal_moves"] == []
            else:
                assert v["legal_moves"] == [str(m) for m in g.legal_moves()]

    walk(game, data, check)


# ---------------------------------------------------------------------- records
@pytest.mark.parametrize("preset", PRESETS)
@examples(8)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_record_round_trip(preset: str, seed: int, data: st.DataObject) -> None:
    """A record loads back to the same match, replays each deal to the same scores, and
    ``replay(..., ply=k)`` is the deal after k moves."""
    _record_round_trip(Rules.preset(preset), seed, data)


def _record_round_trip(rules: Rules, seed: int, data: st.DataObject) -> None:
    dealer = data.draw(st.integers(0, rules.players - 1), label="dealer")
    match = Match(rules, dealer=dealer, seed=seed)
    steps = data.draw(st.integers(0, 170), label="moves")
    positions: dict[tuple[int, int], Game] = {}
    for _ in range(steps):
        if match.over:
            break
        g = match.game
        positions[(len(match.games) - 1, len(g.history))] = g.copy()
        match.play(draw_move(data, g))
    text = dumps(match)
    again = loads(text)
    assert again.totals == match.totals
    assert again.sheet == match.sheet
    assert again.over == match.over and again.winners == match.winners
    assert len(again.games) == len(match.games)
    for a, b in zip(again.games, match.games, strict=True):
        assert a.history == b.history
        assert a.initial_hands == b.initial_hands and a.initial_kitty == b.initial_kitty
        assert a.dealer == b.dealer
        assert snapshot(a) == snapshot(b)
    assert json.loads(dumps(again)) == json.loads(text)
    for i, g in enumerate(match.games):
        if g.phase is Phase.OVER:
            end = replay(text, deal=i, ply=len(g.history))
            assert end.scores == g.scores
            assert end.tricks_won == g.tricks_won
    if positions:
        (deal, ply) = data.draw(st.sampled_from(sorted(positions)), label="position")
        at = replay(text, deal=deal, ply=ply)
        want = positions[(deal, ply)]
        for seat in [*range(rules.players), None]:
            assert at.view(seat) == want.view(seat)
        assert at.history == want.history


def test_record_error_is_exported() -> None:
    assert issubclass(batak.RecordError, ValueError)


# ---------------------------------------------------------------------- table variants
NO_SHRINK = [Phase_.explicit, Phase_.reuse, Phase_.generate]  # a failure prints the options

#: docs/rules.md §10: each new option with the values it takes (its default among them)
NEW_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "must_trump": st.booleans(),
    "first_lead": st.sampled_from(["bidder", "after_dealer"]),
    "all_pass": st.just("redeal"),
    "redeal_dealer": st.sampled_from(["same", "next"]),
    "zero_trick_penalty": st.just("none"),
    "defenders_minimum": st.sampled_from([None, 0, 1, 2, 3]),
    "overtrick_points": st.sampled_from([None, 0, 2, 5]),
    "down_scoring": st.sampled_from(["bid", "shortfall"]),
    "down_penalty": st.sampled_from([None, 50]),
    "overtrick_limit": st.sampled_from([None, 1, 2, 3]),
    "zero_bid": st.sampled_from([None, 50]),
    "king": st.booleans(),
    "kitty_order": st.sampled_from(["take_bury_trump", "bury_take_trump", "take_trump_bury"]),
    "min_bid": st.just(1),  # short contracts: yan batar and zero bids actually happen
}


def variant_rules(data: st.DataObject, preset: str) -> Rules:
    """The preset with some of §10's options set at random; an option the table refuses in the
    combination drawn so far (it clashes, or qualifies something switched off) is left out."""
    rules = Rules.preset(preset)
    keys = data.draw(st.lists(st.sampled_from(sorted(NEW_OPTIONS)), unique=True), label="keys")
    for key in keys:
        value = data.draw(NEW_OPTIONS[key], label=key)
        try:
            rules = rules.replace(**{key: value})
        except batak.RulesError:
            continue
        event(f"{key}={value}")
    return rules


@pytest.mark.parametrize("preset", PRESETS)
@settings(examples(12), phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_table_variants_conserve_cards_and_score_as_written(
    preset: str, seed: int, data: st.DataObject
) -> None:
    """docs/rules.md §10 with random option flips: cards conserved, tricks, first leader and
    the deal's scores as written, legal cards as the oracle says."""
    rules = variant_rules(data, preset)
    _conserved(new_game(rules, seed, data), data)
    _walk_with_oracle(new_game(rules, seed, data), data)


@pytest.mark.parametrize("preset", PRESETS)
@settings(examples(4), phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_table_variants_accept_legal_refuse_the_rest_and_seal_views(
    preset: str, seed: int, data: st.DataObject
) -> None:
    """docs/rules.md §10 with random option flips: every legal move accepted, every other move
    refused with nothing changed, and no view shows a hidden card (the kitty included while a
    bidder buries before taking it)."""
    rules = variant_rules(data, preset)
    _legal_accepted_rest_refused(new_game(rules, seed, data), data)
    _views_sealed(new_game(rules, seed, data), data)


@pytest.mark.parametrize("preset", PRESETS)
@settings(examples(4), phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_table_variants_in_records(preset: str, seed: int, data: st.DataObject) -> None:
    """Records keep the new options with their values and replay matches under them (the
    redeal dealer and KING included)."""
    _record_round_trip(variant_rules(data, preset), seed, data)
