"""Game records (batak.record): JSON round trips at every stage of a match, continuing a loaded
match, and refusal of every kind of broken or tampered record.

A record is the whole match (rules, each deal's cards, every move, results, totals). Loading
replays every move through the engine, so a record that does not describe a legal match under its
rules is refused with a RecordError naming the deal, the move and the reason, and nothing is
returned (RULES.md §The match: the score sheet "shows every deal's bidder, bid, trump, tricks and
score" — the record must reproduce it exactly).
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from batak import PASS, Game, Match, Phase, RecordError, Rules
from batak.cards import CARDS
from batak.i18n import card_text
from batak.record import FORMAT, VERSION, dump_match, dumps, load_match, loads, replay


# ---------------------------------------------------------------------- helpers
def choose(rng: random.Random, game: Game) -> Any:
    """A random legal move. In a match to a target score (açık eşli) random play can drift below
    zero for ever, so there nobody bids and team 0+2 plays its highest card, team 1+3 its lowest."""
    moves = game.legal_moves()
    if game.rules.deals is None:
        if PASS in moves:
            return PASS
        if game.phase is Phase.PLAY:
            ranked = sorted(moves, key=lambda c: c.rank)
            return ranked[-1] if game.to_move in (0, 2) else ranked[0]
        return rng.choice(moves)
    if PASS in moves and rng.random() < 0.6:
        return PASS
    return rng.choice(moves)


def play_until(m: Match, rng: random.Random, stop: Any) -> None:
    for _ in range(10_000):
        if m.over or stop(m):
            return
        m.play(choose(rng, m.game))
    raise AssertionError("did not stop")


def same_match(a: Match, b: Match) -> None:
    assert a.rules == b.rules
    assert a.totals == b.totals
    assert a.sheet == b.sheet
    assert (a.over, a.winners) == (b.over, b.winners)
    assert len(a.games) == len(b.games)
    for x, y in zip(a.games, b.games, strict=True):
        assert x.dealer == y.dealer
        assert x.initial_hands == y.initial_hands and x.initial_kitty == y.initial_kitty
        assert x.history == y.history
        assert (x.phase, x.to_move, x.tricks_won, x.scores) == (
            y.phase,
            y.to_move,
            y.tricks_won,
            y.scores,
        )
        assert x.tricks == y.tricks
    for seat in [*range(a.rules.players), None]:
        assert a.view(seat) == b.view(seat)
    assert a.legal_moves() == b.legal_moves()


STOPS = {
    "start": lambda m: True,
    "mid-deal": lambda m: len(m.games) == 2 and len(m.game.history) == 17,
    "between-deals": lambda m: len(m.games) == 2 and not m.game.history,
    "end": lambda m: False,
}


def short(preset: str) -> Rules:
    """The preset's table with a shorter match (2 deals, or a target of 12 points)."""
    rules = Rules.preset(preset)
    if rules.deals is None:
        return rules.replace(target_score=12)
    return rules.replace(deals=2)


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A finished 3-deal match on the standard table, as record data."""
    m = Match(Rules.preset("standard").replace(deals=3), seed=21)
    play_until(m, random.Random(21), lambda m: False)
    assert m.over and len(m.games) == 3
    return dump_match(m)


@pytest.fixture(scope="module")
def partial() -> dict[str, Any]:
    """A 3-deal match stopped in the middle of deal 2."""
    m = Match(Rules.preset("standard").replace(deals=3), seed=22)
    play_until(m, random.Random(22), STOPS["mid-deal"])
    assert len(m.games) == 2 and not m.over
    return dump_match(m)


def refused(rec: Any, pattern: str) -> str:
    """``rec`` is refused with a RecordError whose message matches ``pattern`` (a regex, from
    the start), from data and text alike; the data is left untouched."""
    before = copy.deepcopy(rec)
    with pytest.raises(RecordError) as err:
        load_match(rec)
    message = str(err.value)
    assert re.match(pattern, message), message
    assert rec == before, "loading changed the record"
    if isinstance(rec, dict):
        with pytest.raises(RecordError) as err2:
            loads(json.dumps(rec))
        assert str(err2.value) == message
        with pytest.raises(RecordError):
            replay(rec, deal=0, ply=0)
    return message


def game_at(rec: dict[str, Any], deal: int, ply: int) -> Game:
    """The deal ``deal`` (0-based) of ``rec`` after ``ply`` moves, rebuilt by hand."""
    rules = Rules.from_dict(rec["rules"])
    d = rec["deals"][deal]
    g = Game(rules, hands=d["hands"], kitty=d["kitty"] or None, dealer=d["dealer"])
    for mv in d["moves"][:ply]:
        g.play(mv)
    return g


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize(
    "preset", ["standard", "sultan-kozmaca", "zipi-kozmaca", "zipi-kitty", "esli-acik"]
)
def test_round_trip(preset: str, stop: str) -> None:
    """dumps/loads gives back the same match at the start, in the middle of a deal, between two
    deals and at the end; dumping the loaded match gives the same text."""
    m = Match(short(preset), dealer=1, seed=5)
    play_until(m, random.Random(5), STOPS[stop])
    if stop == "end":
        assert m.over
    elif stop != "start":
        assert len(m.games) == 2 and not m.over, "the stage was not reached"
    text = dumps(m)
    again = loads(text)
    same_match(again, m)
    assert dumps(again) == text
    same_match(load_match(json.loads(text)), m)
    same_match(loads(text.encode()), m)
    same_match(load_match(text), m)
    assert json.loads(json.dumps(dump_match(m))) == json.loads(text)


def test_record_layout(finished: dict[str, Any]) -> None:
    """The record names its format and version, the rules and every deal's cards and moves."""
    assert finished["format"] == FORMAT and finished["version"] == VERSION
    assert Rules.from_dict(finished["rules"]) == Rules.preset("standard").replace(deals=3)
    assert [d["dealer"] for d in finished["deals"]] == [0, 1, 2]
    for d in finished["deals"]:
        assert len(d["hands"]) == 4
        cards = [c for h in d["hands"] for c in h.split()]
        assert sorted(cards) == sorted(str(c) for c in CARDS)
        assert "result" in d
    assert finished["over"] is True and finished["winners"]


def test_replay_positions(finished: dict[str, Any]) -> None:
    """replay(record, deal=i, ply=k) is deal i after its first k moves; at the last ply its
    scores are the recorded ones; out-of-range positions are refused."""
    text = json.dumps(finished)
    for i, d in enumerate(finished["deals"]):
        for k in sorted({0, 1, 4, 5, len(d["moves"]) // 2, len(d["moves"])}):
            g = replay(text, deal=i, ply=k)
            want = game_at(finished, i, k)
            for seat in [0, 1, 2, 3, None]:
                assert g.view(seat) == want.view(seat)
        end = replay(finished, deal=i, ply=len(d["moves"]))
        assert end.phase is Phase.OVER
        assert {"tricks": end.tricks_won, "scores": end.scores} == d["result"]
    with pytest.raises(RecordError, match="no deal 3"):
        replay(finished, deal=3, ply=0)
    with pytest.raises(RecordError, match="no deal -1"):
        replay(finished, deal=-1, ply=0)
    n = len(finished["deals"][0]["moves"])
    with pytest.raises(RecordError, match=f"deal 0 has {n} moves; cannot stop after {n + 1}"):
        replay(finished, deal=0, ply=n + 1)


# ---------------------------------------------------------------------- continuing
@pytest.mark.parametrize("preset", ["standard", "zipi-kitty", "esli-acik"])
def test_continue_loaded_match_like_the_original(preset: str) -> None:
    """A seeded match loaded from its record in the middle of a deal goes on exactly like the
    original: the same deals, the same legal moves, the same views, the same end."""
    rules = short(preset)
    m = Match(rules, seed=31)
    rng = random.Random(31)
    play_until(m, rng, STOPS["mid-deal"])
    again = loads(dumps(m))
    for _ in range(10_000):
        if m.over:
            break
        move = choose(rng, m.game)
        m.play(move)
        again.play(move)
        assert again.game.view(again.game.to_move) == m.game.view(m.game.to_move)
    same_match(again, m)
    assert dumps(again) == dumps(m)


def test_continue_unseeded_match_and_finish() -> None:
    """A match without a seed is loaded in the middle of a deal, that deal is finished with the
    original's moves, and the match is played to its end and saved again."""
    rules = Rules.preset("standard").replace(deals=3)
    m = Match(rules)
    rng = random.Random(41)
    play_until(m, rng, STOPS["mid-deal"])
    again = loads(dumps(m))
    deal = m.game
    while m.game is deal:
        move = choose(rng, deal)
        m.play(move)
        again.play(move)
    assert again.sheet == m.sheet and again.totals == m.totals
    play_until(again, rng, lambda x: False)
    assert again.over and again.deals_scored >= 3
    final = loads(dumps(again))
    same_match(final, again)


# ---------------------------------------------------------------------- tampering: moves
def first_card_move(rec: dict[str, Any], deal: int) -> int:
    moves = rec["deals"][deal]["moves"]
    return next(j for j, mv in enumerate(moves) if re.fullmatch(r"[2-9TJQKA][SHDC]", mv))


def test_illegal_card_not_in_hand(finished: dict[str, Any]) -> None:
    """A card the player does not hold: 'deal 2, move J ('XX'): you do not hold X♥' (the record's
    code, then the card as a person reads it)."""
    rec = copy.deepcopy(finished)
    j = first_card_move(rec, 1) + 2
    g = game_at(rec, 1, j)
    other = next(c for s in range(4) if s != g.to_move for c in g.hand(s))
    rec["deals"][1]["moves"][j] = str(other)
    readable = card_text(str(other))
    refused(rec, re.escape(f"deal 2, move {j + 1} ('{other}'): you do not hold {readable}") + "$")


def test_illegal_card_breaking_a_rule(finished: dict[str, Any]) -> None:
    """A held card the compulsory-play rules forbid: the message names the rule."""
    rec = copy.deepcopy(finished)
    d = rec["deals"][2]
    for j in range(first_card_move(rec, 2), len(d["moves"])):
        g = game_at(rec, 2, j)
        bad = [c for c in g.hand(g.to_move) if c not in g.legal_moves()]  # type: ignore[arg-type]
        if bad:
            break
    else:  # pragma: no cover - a 13-trick deal always has a forced move somewhere
        raise AssertionError("no forced move in the deal")
    reason = g.why_illegal(bad[0])
    assert reason is not None
    d["moves"][j] = str(bad[0])
    message = refused(rec, re.escape(f"deal 3, move {j + 1} ('{bad[0]}'): {reason}") + "$")
    assert re.search("must|may not", message)


def test_illegal_bid(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["deals"][0]["moves"][0] = "bid 3"
    refused(rec, re.escape("deal 1, move 1 ('bid 3'): a bid must be at least 4") + "$")
    rec["deals"][0]["moves"][0] = "bid 14"
    refused(rec, re.escape("deal 1, move 1 ('bid 14'): the highest possible bid is 13") + "$")


def test_move_that_is_not_a_move(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["deals"][1]["moves"][3] = "bid seven"
    refused(rec, re.escape("deal 2, move 4 ('bid seven'): not a move"))


def test_wrong_phase_move(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    j = first_card_move(rec, 0)
    rec["deals"][0]["moves"][j] = "pass"
    refused(rec, re.escape(f"deal 1, move {j + 1} ('pass'): pas is not a move now"))


def test_moves_after_the_deal_ended(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    n = len(rec["deals"][0]["moves"])
    rec["deals"][0]["moves"].append("AS")
    refused(rec, re.escape(f"deal 1, move {n + 1} ('AS'): the deal was already over"))


def test_moves_not_strings(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["deals"][1]["moves"][0] = 7
    refused(rec, "deal 2: moves must be strings")


# ---------------------------------------------------------------------- tampering: cards
def test_card_dealt_twice(finished: dict[str, Any]) -> None:
    for deal in (0, 2):
        rec = copy.deepcopy(finished)
        hands = rec["deals"][deal]["hands"]
        twice = hands[1].split()[0]
        hands[0] = " ".join([twice, *hands[0].split()[1:]])
        refused(rec, re.escape(f"deal {deal + 1}: {twice} is dealt twice"))


def test_card_twice_in_one_hand(partial: dict[str, Any]) -> None:
    rec = copy.deepcopy(partial)
    cards = rec["deals"][1]["hands"][3].split()
    cards[1] = cards[0]
    rec["deals"][1]["hands"][3] = " ".join(cards)
    refused(rec, re.escape(f"deal 2: {cards[0]} is dealt twice"))


def test_wrong_number_of_cards(finished: dict[str, Any]) -> None:
    """A hand short or long, a missing hand, a kitty of the wrong size: refused, naming the deal."""
    rec = copy.deepcopy(finished)
    h = rec["deals"][1]["hands"]
    moved = h[0].split()[-1]
    h[0] = " ".join(h[0].split()[:-1])
    h[1] = h[1] + " " + moved
    refused(rec, re.escape("deal 2: all hands must be the same size, got sizes [12, 14, 13, 13]"))

    rec = copy.deepcopy(finished)
    rec["deals"][0]["hands"] = rec["deals"][0]["hands"][:3]
    refused(rec, re.escape("deal 1: need 4 hands, one per seat"))

    rec = copy.deepcopy(finished)
    rec["deals"][2]["hands"] = [h + " AS" for h in rec["deals"][2]["hands"]]
    refused(rec, r"deal 3: ")

    rec = copy.deepcopy(finished)
    rec["deals"][0]["kitty"] = "AS"
    refused(rec, re.escape("deal 1: the kitty must hold 0 cards, got 1"))

    m = Match(Rules.preset("zipi-kitty").replace(deals=1), seed=3)
    play_until(m, random.Random(3), lambda m: len(m.game.history) == 10)
    rec = dump_match(m)
    rec["deals"][0]["kitty"] = " ".join(rec["deals"][0]["kitty"].split()[:3])
    refused(rec, re.escape("deal 1: the kitty must hold 4 cards, got 3"))


def test_not_a_card(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["deals"][0]["hands"][2] = rec["deals"][0]["hands"][2].replace(
        rec["deals"][0]["hands"][2].split()[0], "1X", 1
    )
    refused(rec, r"deal 1: hand of seat 2: not a card: '1X'")


@pytest.mark.parametrize(
    "field, value",
    [("hands", [1, 2, 3, 4]), ("hands", [None, None, None, None]), ("kitty", 5)],
    ids=["hands-of-numbers", "hands-of-nulls", "kitty-number"],
)
def test_badly_typed_cards(finished: dict[str, Any], field: str, value: Any) -> None:
    """Hands and kitty that are not card texts are a broken record, not a crash (TypeError)."""
    rec = copy.deepcopy(finished)
    rec["deals"][1][field] = value
    refused(rec, r"deal 2: ")


# ---------------------------------------------------------------------- tampering: results
def test_altered_result(finished: dict[str, Any]) -> None:
    for key in ("scores", "tricks"):
        rec = copy.deepcopy(finished)
        rec["deals"][1]["result"][key][0] += 1
        refused(rec, r"deal 2: the recorded result .* does not match the play")


def test_result_on_an_unfinished_deal(partial: dict[str, Any]) -> None:
    rec = copy.deepcopy(partial)
    rec["deals"][1]["result"] = {"tricks": [0, 0, 0, 0], "scores": [0, 0, 0, 0]}
    refused(rec, re.escape("deal 2: has a result but the deal is not finished"))


@pytest.mark.parametrize(
    "key, change",
    [
        ("totals", lambda t: [t[0] + 10, *t[1:]]),
        ("winners", lambda w: [0, 1, 2, 3] if w != [0, 1, 2, 3] else [0]),
        ("over", lambda o: not o),
    ],
)
def test_altered_totals_winners_over(finished: dict[str, Any], key: str, change: Any) -> None:
    rec = copy.deepcopy(finished)
    rec[key] = change(rec[key])
    refused(rec, re.escape(f"the recorded {key} "))


def test_altered_rules_change_the_result(finished: dict[str, Any]) -> None:
    """Rules changed after the fact (here the scoring scheme) no longer fit the results."""
    rec = copy.deepcopy(finished)
    rec["rules"]["scoring"] = "simple"
    refused(rec, r"deal 1: the recorded result")


def test_impossible_rules(finished: dict[str, Any]) -> None:
    for change in ({"deals": 0}, {"players": 5}, {"nonsense": 1}, {"min_bid": "4"}):
        rec = copy.deepcopy(finished)
        rec["rules"].update(change)
        refused(rec, r"rules: ")
    rec = copy.deepcopy(finished)
    rec["rules"] = "standard"
    refused(rec, r"rules: ")


def test_rules_with_a_bad_suit(finished: dict[str, Any]) -> None:
    """A trump suit that is not a suit is a broken record (RecordError), not a CardError."""
    rec = copy.deepcopy(finished)
    rec["rules"]["fixed_trump"] = "X"
    refused(rec, r"rules: ")


def test_wrong_dealer(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["deals"][1]["dealer"] = 3
    refused(rec, re.escape("deal 2: dealer should be seat 1, the record says 3"))
    rec = copy.deepcopy(finished)
    rec["dealer"] = 4
    refused(rec, re.escape("dealer must be a seat 0..3, got 4"))


# ---------------------------------------------------------------------- tampering: structure
def test_unknown_fields(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["cheat"] = True
    refused(rec, re.escape("unknown field(s): cheat"))
    rec = copy.deepcopy(finished)
    rec["deals"][1]["peek"] = "AS"
    refused(rec, re.escape("deal 2: unknown field(s): peek"))


def test_wrong_format_or_version(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["format"] = "chess-pgn"
    refused(rec, re.escape("not a batak record"))
    rec = copy.deepcopy(finished)
    del rec["format"]
    refused(rec, re.escape("not a batak record"))
    rec = copy.deepcopy(finished)
    rec["version"] = VERSION + 1
    refused(rec, re.escape(f"unsupported record version {VERSION + 1}"))
    rec = copy.deepcopy(finished)
    del rec["version"]
    refused(rec, re.escape("unsupported record version None"))


@pytest.mark.parametrize(
    "text", ["", "{", "not json", "[1, 2]", "null", b"\xff\xfe{", '"a string"', "{}"]
)
def test_not_a_record(text: str | bytes) -> None:
    refused(text, r"(not JSON|a record is a JSON object|not a batak record)")


def test_no_deals(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["deals"] = []
    refused(rec, re.escape("a record needs a non-empty list of deals"))
    rec["deals"] = {"1": {}}
    refused(rec, re.escape("a record needs a non-empty list of deals"))
    rec["deals"] = [[]]
    refused(rec, re.escape("deal 1: a deal is a JSON object"))
    rec["deals"] = [{"hands": "AS", "moves": []}]
    refused(rec, re.escape("deal 1: needs 'hands' and 'moves' lists"))


def test_deal_after_the_match_ended(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    extra = copy.deepcopy(rec["deals"][-1])
    extra["dealer"] = 3
    rec["deals"].append(extra)
    refused(rec, re.escape("deal 4: the match was already over"))


def test_unfinished_deal_followed_by_another(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    d = rec["deals"][1]
    del d["moves"][-3:]
    del d["result"]
    refused(rec, re.escape("deal 2: unfinished, but more deals follow"))
    rec = copy.deepcopy(finished)
    del rec["deals"][1]["moves"][-1]
    refused(rec, re.escape("deal 2: has a result but the deal is not finished"))


def test_bad_seed(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["seed"] = [1, 2]
    refused(rec, re.escape("seed must be a whole number or a string"))


def test_a_refused_record_leaves_nothing_behind(partial: dict[str, Any]) -> None:
    """Never half-loaded: a record broken in its last move raises, returns nothing, and a good
    record loads the same afterwards."""
    rec = copy.deepcopy(partial)
    rec["deals"][1]["moves"][-1] = "ZZ"
    result: list[Match] = []
    with pytest.raises(RecordError):
        result.append(load_match(rec))
    assert result == []
    good = load_match(partial)
    assert len(good.game.history) == len(partial["deals"][1]["moves"])
    assert dump_match(good) == partial


def test_version_1_record_replays_with_its_old_overtake_meaning() -> None:
    """Version 1 read overtake=false as 'no overtrumping either' (Zipi's single switch); such a
    record loads as overtake=false, overtrump=false and replays the same moves."""
    rules = Rules.preset("zipi-ihaleli", overtake=False, overtrump=False, deals=1)
    m = Match(rules, seed=8)
    while not m.over:
        m.play(m.legal_moves()[1 if m.game.phase == "bidding" and not m.game.auction else -1])
    rec = dump_match(m)
    rec["version"] = 1
    rec["rules"] = {**rec["rules"], "overtrump": True, "zero_trick_penalty": False}
    del rec["rules"]["last_trick"]
    again = load_match(rec)
    assert again.rules.overtrump is False and again.rules.last_trick == "deal"
    assert again.totals == m.totals


NEW_OPTION_NAMES = [
    "must_trump",
    "first_lead",
    "redeal_dealer",
    "zero_bid",
    "defenders_minimum",
    "overtrick_points",
    "down_scoring",
    "down_penalty",
    "overtrick_limit",
    "kitty_order",
]


@pytest.mark.parametrize("preset", ["standard", "zipi-kitty", "sultan-kozmaca", "esli-acik"])
def test_records_from_before_the_table_variants_load_as_played(preset: str) -> None:
    """A record saved before the options of docs/rules.md §10 existed has none of them: it
    loads with each at its default (the rule it was played under) and replays the same."""
    m = Match(Rules.preset(preset, deals=1), seed=12)
    while not m.over:
        m.play(m.legal_moves()[1 if m.game.phase == "bidding" and not m.game.auction else -1])
    rec = dump_match(m)
    for name in NEW_OPTION_NAMES:
        del rec["rules"][name]
    again = load_match(rec)
    assert again.rules == m.rules and again.totals == m.totals and again.sheet == m.sheet


def test_new_options_are_in_records_with_their_values() -> None:
    rules = Rules.preset("zipi-kitty", kitty_order="take_trump_bury", must_trump=False, deals=1)
    m = Match(rules, seed=3)
    while not m.over:
        m.play(m.legal_moves()[-1])
    rec = dump_match(m)
    assert rec["rules"]["kitty_order"] == "take_trump_bury" and rec["rules"]["must_trump"] is False
    assert load_match(rec).rules == rules
