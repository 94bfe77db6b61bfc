"""The deal review (batak.bots.review) and ``batak analyse``: its numbers equal a brute-force
search on small endings, it says where a trick was lost in both languages, and the command reads
a saved record."""

from __future__ import annotations

import io
import json
import random
import sys
from functools import cache
from pathlib import Path

import pytest

from batak import Game, Match, Rules
from batak.bots.review import BidWorth, CardDecision, DealReview, review_deal, summary_lines
from batak.cards import Card, full_deck
from batak.cli import main
from batak.game import Phase
from batak.i18n import text
from batak.record import dumps

PLAYED = ["bid 4", "pass", "pass", "pass", "trump S"]
PLAYED += ["KD", "5H", "4D", "9S", "6C", "2C", "AC", "5C", "TH", "KC", "2H", "JH"]


def brute_force(start: Game, side: tuple[int, ...]) -> int:
    """The most tricks ``side`` takes in the whole deal from ``start``, every move tried."""

    @cache
    def best(history: tuple[str, ...]) -> int:
        g = start.copy()
        for m in history:
            g.play(m)
        if g.phase == "over":
            return sum(g.tricks_won[s] for s in side)
        assert g.to_move is not None
        results = [best((*history, str(m))) for m in g.legal_moves()]
        return max(results) if g.to_move in side else min(results)

    return best(())


def card_worths(position: Game, side: tuple[int, ...]) -> dict[str, int]:
    """Each legal card of the mover: ``side``'s tricks in the whole deal after it, by brute
    force."""
    out = {}
    for card in position.legal_moves():
        trial = position.copy()
        trial.play(card)
        out[str(card)] = brute_force(trial, side)
    return out


def small_deal(rng: random.Random, preset: str, cards: int) -> Game:
    rules = Rules.preset(preset)
    deck = [str(c) for c in full_deck()]
    rng.shuffle(deck)
    n = rules.players
    hands = [" ".join(deck[i * cards : (i + 1) * cards]) for i in range(n)]
    kitty = " ".join(deck[n * cards : n * cards + rules.kitty_size]) or None
    return Game(rules, hands=hands, kitty=kitty, dealer=n - 1)


@pytest.mark.parametrize("preset", ["standard", "sultan-esli", "zipi-ihaleli", "gamelake-ihaleli"])
def test_every_decision_equals_brute_force(preset: str) -> None:
    rng = random.Random(preset)
    checked = defended = 0
    for _ in range(6):
        game = small_deal(rng, preset, 3)
        to_play(game)
        while game.phase != "over":
            game.play(rng.choice(game.legal_moves()))
        review = review_deal(game)
        replay = Game(game.rules, hands=game.initial_hands, dealer=game.dealer)
        decisions = iter(review.decisions)
        for move in game.history:
            if replay.phase == "play":
                d = next(decisions)
                side = game.rules.team_of(replay.to_move or 0)
                after = replay.copy()
                after.play(move)
                assert d.card == str(move)
                assert d.value == brute_force(after, side)
                values = card_worths(replay, side)
                assert d.best == max(values.values())
                assert set(d.best_cards) == {c for c, v in values.items() if v == d.best}
                # a defender at a table without partners: also for the defence as a whole
                bidder = replay.contract.bidder if replay.contract else None
                if game.rules.partners or bidder is None or replay.to_move == bidder:
                    assert d.defence_value is None and d.defence_cost == 0
                else:
                    defence = tuple(s for s in range(game.players) if s != bidder)
                    assert d.defence_value == brute_force(after, defence)
                    d_values = card_worths(replay, defence)
                    assert d.defence_best == max(d_values.values())
                    assert set(d.defence_best_cards) == {
                        c for c, v in d_values.items() if v == d.defence_best
                    }
                    defended += 1
                checked += 1
            replay.play(move)
        assert next(decisions, None) is None
    assert checked >= 60
    assert defended >= 20 or Rules.preset(preset).partners


def to_play(game: Game) -> None:
    """The first speaker bids the lowest, everyone else passes, the first koz is named."""
    while game.phase != "play":
        legal = [str(m) for m in game.legal_moves()]
        if game.phase == "bidding" and not game.auction:
            game.play(next(m for m in legal if m.startswith("bid")))
        else:
            game.play("pass" if "pass" in legal else legal[0])


def test_the_bidding_worth_is_the_solvers_per_koz() -> None:
    hands = ["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"]
    game = Game("standard", hands=hands, dealer=3)
    for m in PLAYED:
        game.play(m)
    worth = review_deal(game).bidding[0]
    assert (worth.seat, worth.bid) == (0, 4)
    for suit, tricks in worth.worth.items():
        trial = Game("standard", hands=hands, dealer=3)
        for m in ["bid 4", "pass", "pass", "pass", f"trump {suit}"]:
            trial.play(m)
        assert tricks == brute_force(trial, (0,))


def test_the_summary_names_the_costly_card_in_both_languages() -> None:
    game = Game("standard", hands=["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"], dealer=3)
    for m in PLAYED:
        game.play(m)
    review = review_deal(game)
    en = summary_lines(review, ["Ayşe", "Cem", "Deniz", "Burak"], "en")
    assert (
        "Trick 1: Ayşe played K♦, which cost a trick by the end of the deal; the best was J♥ or 2♣."
        in en
    )
    tr = summary_lines(review, ["Sen", "Cem", "Deniz", "Burak"], "tr", you=0)
    mine = "1. löve: K♦ oynadın; elin sonunda bu bir löveye mal oldu. J♥ ya da 2♣ daha iyiydi."
    assert any(x.startswith(mine) for x in tr)  # (and the hint's note, when it suggests K♦)
    assert tr[0].startswith("İhalen 4. Bütün eller açık oynansa ve rakipler en iyi savunsa")
    # another's card: the name in brackets after it, so a number in a name ("Bot 4") never
    # runs into the card
    tr = summary_lines(review, ["Ayşe", "Bot 2", "Bot 3", "Bot 4"], "tr", you=1)
    assert "1. löve: K♦ (Ayşe) elin sonunda bir löveye mal oldu. J♥ ya da 2♣ daha iyiydi." in tr


def test_the_best_cards_are_named_in_a_hands_order_not_their_codes() -> None:
    # "Q♦, J♦ or 10♦" as a hand shows them, not "J♦, Q♦ or 10♦" (the codes' order: J < Q < T)
    game = Game("standard", hands=["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"], dealer=3)
    for m in PLAYED:
        game.play(m)
    review = review_deal(game)
    for d in review.decisions:
        for cards in (d.best_cards, d.defence_best_cards):
            keys = [Card.parse(c).sort_key() for c in cards]
            assert keys == sorted(keys), cards
    # a review stored before (codes in text order) is still told in a hand's order
    stored = DealReview(
        decisions=[CardDecision(3, 1, "2H", 4, 5, ("6D", "JD", "QD", "TD"))], bidding=[]
    )
    line = summary_lines(stored, ["Ayşe", "Cem", "Deniz", "Burak"], "en")[0]
    assert line == (
        "Trick 3: Cem played 2♥, which cost a trick by the end of the deal; the best was Q♦, J♦, "
        "10♦ or 6♦."
    )


def test_the_bidding_line_marks_the_koz_played_and_the_tricks_taken() -> None:
    game = Game("standard", hands=["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"], dealer=3)
    for m in PLAYED:
        game.play(m)
    review = review_deal(game)
    (worth,) = review.bidding
    assert (worth.trump, worth.taken) == ("S", game.tricks_won[0])
    line = summary_lines(review, ["Ayşe", "Cem", "Deniz", "Burak"], "en")[0]
    # a suit and its figure are joined by a no-break space: they never part at a line's end
    assert f"♠\u00a0{worth.worth['S']}\u00a0(koz), ♥\u00a0{worth.worth['H']}," in line
    assert line.endswith(f"; actually taken: {game.tricks_won[0]}")
    tr = summary_lines(review, ["Ayşe", "Cem", "Deniz", "Burak"], "tr")[0]
    assert tr.endswith(f"; oyunda alınan: {game.tricks_won[0]}")
    # a deal that did not end has no tricks taken to tell
    unfinished = Game("standard", hands=["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"], dealer=3)
    for m in PLAYED[:7]:
        unfinished.play(m)
    (open_worth,) = review_deal(unfinished).bidding
    assert open_worth.trump == "S" and open_worth.taken is None
    assert "taken" not in summary_lines(review_deal(unfinished), list("ABCD"), "en")[0]


def test_the_bidding_line_says_its_count_is_against_the_best_defence() -> None:
    # "could take" read as the most the bidder might have taken; the count is what the side takes
    # with every hand in view when the others play their best, and "taken" is what it really took
    game = Game("standard", hands=["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"], dealer=3)
    for m in PLAYED:
        game.play(m)
    review = review_deal(game)
    names = ["Ayşe", "Cem", "Deniz", "Burak"]
    said = {
        (lang, you): summary_lines(review, names, lang, you=you)[0]
        for lang in ("en", "tr")
        for you in (0, None)
    }
    assert said["en", 0].startswith(
        "You bid 4; with every hand in view and the best defence, you would take, by koz: ♠"
    )
    assert said["en", None].startswith(
        "Ayşe bid 4; with every hand in view and the best defence, the bidding side would take"
    )
    assert said["tr", 0].startswith(
        "İhalen 4. Bütün eller açık oynansa ve rakipler en iyi savunsa, koza göre alacağın löve"
    )
    assert said["tr", None].startswith("Ayşe ihale 4 dedi. Bütün eller açık oynansa ve rakipler")
    for lang, you in said:
        taken = {"en": "; actually taken: ", "tr": "; oyunda alınan: "}[lang]
        assert said[lang, you].endswith(f"{taken}{game.tricks_won[0]}")
        assert "could take" not in said[lang, you] and "alınabilecek" not in said[lang, you]
    # with no bid (Koz Maça's own count) the others' best play is named the same way
    for code, start in [
        ("review.worth_nobid", "Ayşe: with every hand in view and the others' best play"),
        ("review.worth_nobid_you", "You: with every hand in view and the others' best play"),
    ]:
        assert text(code, "en", who="Ayşe", items="♠ 3").startswith(start)
        assert "diğerleri en iyisini oynasaydı" in text(code, "tr", who="Ayşe", items="♠ 3")


def test_a_contract_nobody_bid_is_not_called_a_bid() -> None:
    # everyone passed and the dealer held the contract at the lowest bid: the review said
    # "Burak bid 4" / "Burak ihale 4 dedi" of a player the deal had just shown saying pas
    hands = ["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"]
    game = Game("standard", hands=hands, dealer=3)
    for m in ["pass", "pass", "pass", "pass", "trump S"]:
        game.play(m)
    while game.phase != "over":
        game.play(game.legal_moves()[0])
    assert game.contract_given
    review = review_deal(game)
    (worth,) = review.bidding
    assert (worth.seat, worth.bid, worth.given) == (3, 4, True)
    names = ["Ayşe", "Cem", "Deniz", "Burak"]
    said = {
        (lang, you): summary_lines(review, names, lang, you=you)[0]
        for lang in ("en", "tr")
        for you in (3, None)
    }
    assert said["en", None].startswith(
        "Nobody bid: Burak held the contract at 4; with every hand in view and the best defence,"
    )
    assert said["en", 3].startswith(
        "Nobody bid: you held the contract at 4; with every hand in view and the best defence, you"
    )
    assert said["tr", None].startswith(
        "Herkes pas dedi: ihaleci Burak, en düşük teklifle (4). Bütün eller açık oynansa"
    )
    assert said["tr", 3].startswith(
        "Herkes pas dedi: ihale en düşük teklifle (4) sana kaldı. Bütün eller açık oynansa"
    )
    for line in said.values():
        assert " bid 4" not in line and "ihale 4 dedi" not in line and "İhalen" not in line
    # a review stored before the field was kept reads as a bid, as it did
    assert BidWorth(3, 4, {"S": 2}).given is False


def test_a_koz_maca_soz_is_told_as_a_soz_not_an_ihale() -> None:
    """Koz Maça has no ihale: each player says a söz, the koz is always ♠. The review said
    "İhalen 2" / "Cem ihale 2 dedi ... koza göre alınacak löve: ♠ 1"; it says the söz now, and
    the tricks that hand would take (one koz: no list by koz). A review stored before the
    field was kept reads as it did."""
    game = Game("sultan-kozmaca", seed=1, dealer=3)
    while game.phase != "over":
        game.play(game.legal_moves()[0])
    review = review_deal(game)
    assert len(review.bidding) == 4 and all(b.soz for b in review.bidding)
    names = ["Ayşe", "Cem", "Deniz", "Burak"]
    tr = summary_lines(review, names, "tr", you=0)
    en = summary_lines(review, names, "en", you=0)
    b0, b1 = review.bidding[0], review.bidding[1]
    w0, w1 = b0.worth["S"], b1.worth["S"]
    assert tr[0].startswith(f"Sözün {b0.bid}. Bütün eller açık"), tr
    assert tr[0].endswith(f"alacağın löve: {w0}; oyunda alınan: {b0.taken}"), tr
    assert tr[1].startswith(f"Cem söz {b1.bid} dedi."), tr
    assert en[0].startswith(f"You bid {b0.bid}; with every hand in view"), en
    assert en[1].endswith(f"that hand would take {w1}; actually taken: {b1.taken}"), en
    for line in tr[:4] + en[:4]:
        assert "ihale" not in line and "İhale" not in line and "by koz" not in line, line
    assert BidWorth(0, 2, {"S": 1}).soz is False


def test_a_player_whose_cards_cost_nothing_is_told_so() -> None:
    # the review named the others' costly cards and their totals, and of the reader nothing: a
    # player looking for their own mistakes could not tell "none" from "not checked"
    decisions = [
        CardDecision(1, 0, "AS", 3, 3, ("AS",)),  # the reader's card: as good as the best
        CardDecision(1, 1, "KH", 2, 3, ("2H",)),  # another's: a trick lost
    ]
    review = DealReview(decisions=decisions, bidding=[])
    names = ["Sen", "Cem", "Deniz", "Burak"]
    assert summary_lines(review, names, "en", you=0)[-1] == "None of your cards cost a trick."
    assert (
        summary_lines(review, names, "tr", you=0)[-1]
        == "Senin kartlarının hiçbiri löve kaybettirmedi."
    )
    # not said to a reader with a costly card, to a spectator, nor where the review stopped
    # early (the rest of the deal was not judged) or nobody lost anything (said for all already)
    costly = DealReview(decisions=[*decisions, CardDecision(2, 0, "QS", 1, 2, ("2S",))], bidding=[])
    stopped = DealReview(decisions=decisions, bidding=[], complete=False)
    perfect = DealReview(decisions=decisions[:1], bidding=[])
    for r, you in [(costly, 0), (review, None), (stopped, 0), (perfect, 0)]:
        said = " ".join(summary_lines(r, names, "en", you=you))
        assert "None of your cards" not in said
    assert summary_lines(perfect, names, "en", you=0) == [text("review.no_loss", "en")]


def test_the_costliest_cards_are_told_in_the_order_played_and_the_rest_counted() -> None:
    game = Game("standard", seed=5)
    rng = random.Random(3)
    while game.phase != "over":
        game.play(rng.choice(game.legal_moves()))
    review = review_deal(game)
    costly = review.costly()
    assert len(costly) > 2, "a random deal loses tricks in several places"
    names = ["Misafir 12", "Bot 2", "Bot 3", "Bot 4"]
    lines = summary_lines(review, names, "en", you=0, limit=2)
    told = [x for x in lines if x.startswith("Trick ")]
    assert len(told) == 2
    tricks = [int(x.split()[1].rstrip(":")) for x in told]
    assert tricks == sorted(tricks)  # in the order played...
    # ...the two that cost the most (their own side's tricks, or a defender's the defence's)
    worst = sorted(costly[:2], key=review.decisions.index)
    assert tricks == [d.trick for d in worst]
    assert min(max(d.cost, d.defence_cost) for d in worst) >= max(
        max(d.cost, d.defence_cost) for d in costly[2:]
    )
    rest = len(costly) - 2
    more = "…and one more card" if rest == 1 else f"…and {rest} more cards"
    assert any(x.startswith(more) for x in lines)
    (total,) = [x for x in lines if x.startswith("Tricks lost in total — ")]
    # the reader is "You" there too, never their guest name
    if review.lost(0):
        assert f"You:\u00a0{review.lost(0)}" in total  # (the count kept with its name)
    assert "Misafir" not in " ".join(lines)
    given = [x for x in lines if x.startswith("Tricks given to the bidder in total — ")]
    assert len(given) == (1 if any(review.given(s) for s in range(4)) else 0)
    tr = summary_lines(review, names, "tr", you=0, limit=2)
    assert any(x.startswith("…ve löve kaybettiren") for x in tr)
    assert any(x.startswith("Toplam kaybedilen löve — ") for x in tr)


def test_a_time_limit_stops_the_review_and_says_so() -> None:
    game = Game("standard", seed=5)
    while game.phase != "over":
        game.play(game.legal_moves()[0])
    review = review_deal(game, seconds=0.0)
    assert not review.complete and len(review.decisions) == 0
    assert summary_lines(review, ["A", "B", "C", "D"], "en")[-1].startswith("(the review stopped")


def _saved_match(tmp_path: Path) -> Path:
    match = Match(Rules.preset("standard", deals=1), seed=11)
    rng = random.Random(1)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    path = tmp_path / "match.json"
    path.write_text(dumps(match, meta={"seat": 0}), encoding="utf-8")
    return path


def test_batak_analyse_reads_a_saved_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _saved_match(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["analyse", str(path), "--lang", "tr", "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "── El 1 ──" in out and "ihale" in out
    assert "löveye mal oldu" in out  # random play loses tricks somewhere
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    deal = data["deals"][0]
    assert len(deal["decisions"]) == 52
    assert all(d["best"] >= d["value"] for d in deal["decisions"])


def test_batak_analyse_never_breaks_a_seats_name_at_a_lines_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # this deal's totals ran to 80 columns as "… — Sen: 2, Bilgisayar 1: 1, Bilgisayar" with
    # "3: 1" on the next line; the review at the table and the replay wrap the same way
    match = Match(Rules.preset("standard").replace(deals=1), seed=6, dealer=3)
    rng = random.Random(6)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    path = tmp_path / "six.json"
    path.write_text(dumps(match, meta={"seat": 0, "by": "batak play"}), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    for lang in ("tr", "en"):
        assert main(["analyse", str(path), "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert "Bilgisayar" in out or "Computer" in out
        broken = [x for x in out.splitlines() if x.endswith(("Bilgisayar", "Computer"))]
        assert not broken, out


def test_batak_analyse_refuses_a_broken_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "batak-record", "version": 2, "deals": []}', encoding="utf-8")
    assert main(["analyse", str(bad), "--lang", "en"]) == 2
    assert "is broken" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "en", "tr"),
    [
        (None, "there is no file", "diye bir dosya yok"),
        ("{bad", "is not a saved match (it is not JSON text)", "kaydedilmiş bir oyun değil"),
        ("[1]", "is not a saved Batak match", "kaydedilmiş bir Batak oyunu değil"),
        ("{}", "is not a saved Batak match", "kaydedilmiş bir Batak oyunu değil"),
        # the arena's report (it was "not a saved Batak match", as if no Batak file at all)
        (
            '{"format": "batak-arena/1", "boards": []}',
            "is a report of batak arena, not a match record: analyse, replay and play --load "
            "take a match saved by batak play, or a game record from a server",
            "bir `batak arena` raporu, oyun kaydı değil",
        ),
    ],
)
def test_batak_analyse_says_in_the_readers_language_why_a_file_is_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, en: str, tr: str
) -> None:
    path = tmp_path / "file.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for lang, words in (("en", en), ("tr", tr)):
        assert main(["analyse", str(path), "--lang", lang]) == 2
        err = capsys.readouterr().err
        assert words in err and "Errno" not in err and "Expecting" not in err


def test_batak_analyse_checks_its_options_and_names_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _saved_match(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["analyse", str(path), "--top", "0", "--lang", "en"]) == 2
    assert "--top takes a whole number of 1 or more, not 0" in capsys.readouterr().err
    assert main(["analyse", str(path), "--seconds", "-5", "--lang", "tr"]) == 2
    assert "0'dan büyük bir saniye değeri alır, -5 olmaz" in capsys.readouterr().err
    assert main(["analyse", str(path), "--deal", "2", "--lang", "en"]) == 2
    assert "the record has only one deal; there is no deal 2" in capsys.readouterr().err
    out_json = tmp_path / "review.json"
    assert main(["analyse", str(path), "--top", "1", "--json", str(out_json), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert f"The review was written to {out_json}." in out and "Match saved" not in out


def test_a_defenders_card_that_hands_the_bidder_a_trick_is_named() -> None:
    """At a table without partners a defender's own tricks are not the whole defence: a card
    that keeps the defender's own count but lets the bidder take one more is named too."""
    rng = random.Random(14)
    for _ in range(200):
        game = small_deal(rng, "standard", 4)
        to_play(game)
        while game.phase != "over":
            game.play(rng.choice(game.legal_moves()))
        review = review_deal(game)
        found = [d for d in review.decisions if d.cost == 0 and d.defence_cost > 0]
        if found:
            break
    else:
        pytest.fail("no such card in 200 random small deals")
    d = found[0]
    names = ["Ayşe", "Cem", "Deniz", "Burak"]
    en = summary_lines(review, names, "en", limit=20)
    assert any(
        x.startswith(f"Trick {d.trick}: {names[d.seat]} played ")
        and "let the bidder take" in x
        and "the best for the defence was" in x
        for x in en
    ), en
    assert any(x.startswith("Tricks given to the bidder in total — ") for x in en)
    tr = summary_lines(review, names, "tr", you=d.seat, limit=20)
    assert any(x.startswith(f"{d.trick}. löve: ") and "oynadın; bu ihaleciye" in x for x in tr), tr
    assert any(x.startswith("İhaleciye fazladan verilen löve (toplam) — ") for x in tr)


def test_batak_analyse_says_when_a_deal_stops_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match("standard", seed=5)
    rng = random.Random(2)
    for _ in range(15):  # the auction, the koz and ten cards
        match.play(rng.choice(match.legal_moves()))
    path = tmp_path / "half.json"
    path.write_text(dumps(match, meta={"seat": 0}), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["analyse", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "(the record stops here, in the middle of the deal)" in out
    assert "Trick 1:" in out or "No card cost a trick" in out  # the cards played are reviewed


def test_a_defenders_card_that_cost_both_counts_says_both() -> None:
    """A defender's card that cost its own tricks and also let the bidder take more is told with
    both figures: told with only the smaller one, the line did not add up to the totals."""
    d = CardDecision(6, 2, "9C", 2, 3, ("KC",), defence_value=5, defence_best=8,
                     defence_best_cards=("KC", "QC"))  # fmt: skip
    review = DealReview(decisions=[d], bidding=[])
    names = ["Ayşe", "Cem", "Deniz", "Burak"]
    en = summary_lines(review, names, "en")
    assert en[0] == (
        "Trick 6: Deniz played 9♣, which cost one trick by the end of the deal and let the bidder "
        "take 3\u00a0more tricks; the best for the defence was K♣ or Q♣."
    )
    assert en[1:] == [
        "Tricks lost in total — Deniz:\u00a01",  # (a count never begins a line)
        "Tricks given to the bidder in total — Deniz:\u00a03",
    ]
    tr = summary_lines(review, names, "tr", you=2)
    assert tr[0] == (
        "6. löve: 9♣ oynadın; elin sonunda bu sana bir löveye mal oldu ve ihaleciye 3 löve fazla "
        "aldırdı. Savunma için K♣ ya da Q♣ daha iyiydi."
    )


def test_a_review_stopped_by_its_time_limit_does_not_call_the_play_perfect() -> None:
    stopped = DealReview(decisions=[], bidding=[], complete=False)
    en = summary_lines(stopped, ["A", "B", "C", "D"], "en")
    assert en == [
        "No card in the part reviewed cost a trick.",
        "(the review stopped early: it ran out of time)",
    ]
    assert summary_lines(DealReview(), ["A", "B", "C", "D"], "tr") == [
        "Hiçbir kart löve kaybettirmedi: her biri en iyisi kadar iyiydi."
    ]


def test_a_costly_card_the_hint_suggested_says_so_to_its_player() -> None:
    """A player who follows the hint and then reads in the review that the card cost a trick
    stops trusting the hint: the review says the hint suggests that card too (seen from the
    player's own view), to that player only. Computer seats play the hint's card nearly always:
    their lines say nothing of it."""
    from batak.bots import get
    from batak.bots.teach import hint

    note = "The hint suggests this card too: from what you could see, it was a fair choice."
    for seed in range(40):
        g = Game("standard", seed=seed, dealer=3)
        bots = [get("medium", seed=s) for s in range(4)]
        while g.phase is not Phase.OVER:
            seat = g.to_move
            view = g.view(seat)
            g.play(hint(view).move if seat == 0 else bots[seat].choose(view))
        review = review_deal(g)
        mine = review.costly(seat=0)
        if mine:
            break
    else:
        pytest.fail("the hint's cards cost no trick in 40 deals")
    assert all(d.hinted for d in review.decisions if d.seat == 0)  # it played the hint's cards
    names = ["Ayşe", "Cem", "Deniz", "Burak"]
    lines = summary_lines(review, names, "en", you=0, limit=52)
    said = [x for x in lines if x.startswith("Trick ") and ": you played " in x]
    assert said and all(x.endswith(note) for x in said), said
    others = [x for x in lines if x.startswith("Trick ") and ": you played " not in x]
    assert not any(note in x for x in others)
    tr = summary_lines(review, names, "tr", you=0, limit=52)
    note_tr = "İpucu da bu kartı öneriyor: görebildiklerinle makul bir seçimdi."
    assert any(x.endswith(note_tr) for x in tr)
    # read as a spectator (no reader's seat), no line carries it
    assert not any(note in x for x in summary_lines(review, names, "en", limit=52))
