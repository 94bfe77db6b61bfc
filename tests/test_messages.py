"""The IllegalMove messages in English and Turkish, ``why_illegal``, and move and card notation.

Each test cites the RULES.md section whose rule the message names, and the guides that promise a
reason for a refused card: S2 = seeds/002_c3172fa8d91b8f20.txt (Zipi: 'tap a wrong card and the
game tells you why it is not allowed') and S3 = seeds/003_8aae50b1dad924c6.txt (CetinsGame:
'yanlış karta dokununca oyun nedenini yazar'). With ``dealer=3`` seat 0 bids and leads.
"""

from __future__ import annotations

import pickle

import pytest

import batak
from batak import Card, CardError, Game, IllegalMove, MoveError, parse_cards, parse_move
from helpers import play_all


def in_play(hands: list[str], moves: str = "", preset: str = "standard") -> Game:
    g = Game(preset, hands=hands, dealer=3)
    play_all(g, "bid 4 pass pass pass trump S " + moves)
    return g


def refused(g: Game, move: str | object, code: str) -> IllegalMove:
    """``move`` is refused with ``code``; the three ways of asking agree; the state is unchanged."""
    before = (g.phase, g.to_move, [str(m) for m in g.history], [list(h) for h in g.hands])
    err = g.check(move)  # type: ignore[arg-type]
    assert err is not None
    assert err.code == code
    assert g.why_illegal(move) == err.text("en") == str(err)  # type: ignore[arg-type]
    assert g.why_illegal(move, lang="tr") == err.text("tr")  # type: ignore[arg-type]
    with pytest.raises(IllegalMove) as info:
        g.play(move)  # type: ignore[arg-type]
    assert info.value.code == code
    assert str(info.value) == str(err)
    assert (g.phase, g.to_move, [str(m) for m in g.history], [list(h) for h in g.hands]) == before
    return err


# ============================================================== card-play messages
def test_must_follow_message():
    """RULES.md §Compulsory play 1. S2; S3 'Renge uyma'."""
    g = in_play(["AH 2C 3C", "9H 3H 2S", "4H 5D 6D", "7H 8D 9D"], "AH")
    err = refused(g, "2S", "must_follow")
    assert err.text("en") == "you must follow suit: hearts were led and you hold 9♥, 3♥"
    assert err.text("tr") == "renge uymalısın: kupa açıldı ve elinde 9♥, 3♥ var"


def test_must_overtake_message():
    """RULES.md §Compulsory play 2. S3 example 'yerde kupa kız duruyor; sende kupa 9 ile kupa papaz
    varsa papazı atmak zorundasın'."""
    g = in_play(["QH 2C 3C", "9H KH AS", "4H 5D 6D", "7H 8D 9D"], "QH")
    err = refused(g, "9H", "must_overtake")
    assert err.text("en") == "you must overtake: Q♥ is on the table and you hold K♥"
    assert err.text("tr") == "yükseltmelisin: yerde Q♥ var ve elinde K♥ var"


def test_must_overtake_message_after_ruff_names_led_suit_top():
    """RULES.md §Compulsory play 3 (overtake_after_ruff on): the card to beat is the highest of the
    suit led, not the trump. S1 (seeds/001_8d1ad90c5bd37df6.txt) 'Play higher if you can'."""
    g = in_play(["5H 2C 3C", "2S 4D 5D", "9H 3H 6D", "7H 8D 9D"], "5H 2S", "gamelake-ihaleli")
    err = refused(g, "3H", "must_overtake")
    assert str(err) == "you must overtake: 5♥ is on the table and you hold 9♥"


def test_must_trump_message():
    """RULES.md §Compulsory play 4 (must trump). S3 'Sende hiç kupa yoksa ve koz maçaysa maça
    atmalısın'."""
    g = in_play(["AH 2C 3C", "2S 3D 4D", "4H 5D 6D", "7H 8D 9D"], "AH")
    err = refused(g, "3D", "must_trump")
    assert err.text("en") == "you must trump: you have no hearts and you hold trumps 2♠"
    assert err.text("tr") == "koz atmalısın: elinde kupa yok ve kozların var: 2♠"


def test_must_overtrump_message():
    """RULES.md §Compulsory play 4 (overtrump). S3 'Büyük koz'."""
    g = in_play(["AH 2C 3C", "5S 4D 5D", "3S 9S 2D", "6H 7D 8D"], "AH 5S")
    err = refused(g, "3S", "must_overtrump")
    assert err.text("en") == "you must overtrump: 5♠ is on the table and you hold 9♠"
    assert err.text("tr") == "büyük koz atmalısın: yerde 5♠ var ve elinde 9♠ var"


def test_trump_not_broken_message():
    """RULES.md §Leading trumps. S3 'koz kırılmadan koz açılmaz'."""
    g = in_play(["AS KH 2H", "3H 4C 5C", "4H 6C 7C", "5H 8C 9C"])
    err = refused(g, "AS", "trump_not_broken")
    assert err.text("en") == (
        "you may not lead a trump (spades) before trumps are broken while you hold other suits"
    )
    assert err.text("tr") == "koz kırılmadan koz (maça) açılmaz: elinde başka renkler var"


def test_not_in_hand_message_card_and_card_object():
    """RULES.md §The core (you play a card you hold). S2; S3."""
    g = in_play(["AS KH 2H", "3H 4C 5C", "4H 6C 7C", "5H 8C 9C"])
    err = refused(g, "2C", "not_in_hand")
    assert err.text("en") == "you do not hold 2♣"
    assert err.text("tr") == "2♣ elinde yok"
    err2 = refused(g, Card.parse("3H"), "not_in_hand")  # a Card object takes the fast path
    assert str(err2) == "you do not hold 3♥"


def test_a_card_buried_twice_is_said_to_be_buried_already():
    """Kitty batak: burying a card buried a moment ago said "you do not hold 2♣", which
    puzzled the bidder who had just buried it; it says that the card is buried already."""
    g = Game(
        "zipi-kitty", hands=["AS 2H 3H", "KS 4H 5H", "QS 6H 7H"], kitty="2C 3C 4C 5C", dealer=2
    )
    play_all(g, "bid 5 pass pass bury 2C")
    err = refused(g, "bury 2C", "already_buried")
    assert err.text("en") == "2♣ is already buried"
    assert err.text("tr") == "2♣ zaten gömüldü"


# =================================================================== auction messages
def test_bid_too_low_message():
    """RULES.md §Auction (bids must rise). seeds/000_bd85d2e3a5bb6a72.txt §3; S3."""
    g = Game("standard", seed=1, dealer=3)
    g.play("bid 5")
    err = refused(g, "bid 5", "bid_too_low")
    assert err.text("en") == "a bid must be at least 6"
    assert err.text("tr") == "ihale en az 6 olmalı"


def test_bid_too_high_message():
    """RULES.md §Auction (maximum 13). seeds/000_bd85d2e3a5bb6a72.txt §3; S3 'En çok 13'."""
    g = Game("standard", seed=1, dealer=3)
    err = refused(g, "bid 14", "bid_too_high")
    assert err.text("en") == "the highest possible bid is 13"
    assert err.text("tr") == "en yüksek teklif 13 olabilir"


def test_cannot_pass_message():
    """RULES.md §Koz Maça (Sultan: no pass). seeds/000_bd85d2e3a5bb6a72.txt §4 'no passing'."""
    g = Game("sultan-kozmaca", seed=1, dealer=3)
    err = refused(g, "pass", "cannot_pass")
    assert err.text("en") == "in Koz Maça every player bids once; passing is not allowed"
    assert err.text("tr") == "Koz Maça'da herkes bir kez söz söyler; pas geçilemez"


def test_koz_maca_refusals_say_soz_not_ihale():
    """Koz Maça has no ihale: everyone says their söz. A söz of 14 or 0, or a card while the
    söz are said, were refused in Turkish as "en yüksek teklif 13 olabilir", "ihale en az 1
    olmalı" and "şimdi ihale sırası"; they say söz now, with the same codes (and the same
    English)."""
    g = Game("sultan-kozmaca", seed=1, dealer=3)
    err = refused(g, "bid 14", "bid_too_high")
    assert err.text("en") == "the highest possible bid is 13"
    assert err.text("tr") == "söz en fazla 13 olabilir"
    err = refused(g, "bid 0", "bid_too_low")
    assert err.text("en") == "a bid must be at least 1"
    assert err.text("tr") == "söz en az 1 olmalı"
    err = refused(g, "AS", "wrong_phase")
    assert err.text("en") == "A♠ is not a move now: this is the bidding"
    assert err.text("tr") == "A♠ şu an geçerli bir hamle değil: şimdi söz sırası"


def test_wrong_phase_messages():
    """RULES.md §Auction / §The core: each move in its phase. S3."""
    g = Game("standard", hands=["AS KH", "3H 4C", "4H 6C", "5H 8C"], dealer=3)
    err = refused(g, "AS", "wrong_phase")
    assert err.text("en") == "A♠ is not a move now: this is the bidding"
    assert err.text("tr") == "A♠ şu an geçerli bir hamle değil: şimdi ihale sırası"
    play_all(g, "bid 4 pass pass pass")
    err = refused(g, "bid 5", "wrong_phase")
    assert err.text("en") == "bid 5 is not a move now: this is the trump choice"
    assert err.text("tr") == "ihale 5 şu an geçerli bir hamle değil: şimdi koz seçimi sırası"
    g.play("trump S")
    err = refused(g, "pass", "wrong_phase")
    assert err.text("en") == "pas is not a move now: this is the card play"
    assert err.text("tr") == "pas şu an geçerli bir hamle değil: şimdi kart atma sırası"


def test_wrong_phase_message_while_burying_reads_well():
    """RULES.md §Auction (kitty: bury four, then name trump). seeds/002_c3172fa8d91b8f20.txt Kitty.
    The English names the phase in a sentence that reads: not 'this is the burying the kitty'."""
    g = Game("zipi-kitty", hands=["AS", "KS", "QS"], kitty="2C 3C 4C 5C", dealer=2)
    play_all(g, "bid 5 pass pass")
    err = refused(g, "trump S", "wrong_phase")
    assert err.text("tr") == "koz ♠ maça şu an geçerli bir hamle değil: şimdi gömme sırası"
    assert "kitty" in err.text("en")
    assert "the burying the" not in err.text("en")


def test_not_your_turn_message():
    """RULES.md §The core (seats speak and play in turn). S3."""
    g = Game("standard", seed=1, dealer=3)
    err = g.check("pass", seat=2)
    assert err is not None and err.code == "not_your_turn"
    assert err.text("en") == "it is not your turn: seat 0 is to move"
    assert err.text("tr") == "sıra sende değil: sıra 0 numaralı oyuncuda"
    assert g.why_illegal("pass", seat=2) == err.text("en")
    with pytest.raises(IllegalMove) as info:
        g.play("pass", seat=2)
    assert info.value.code == "not_your_turn"
    assert g.to_move == 0 and g.auction == []
    assert g.check("pass", seat=0) is None


def test_game_over_message():
    """RULES.md §The core (a deal has as many tricks as cards in hand). S3."""
    g = in_play(["AS", "KS", "QS", "JS"], "AS KS QS JS")
    assert g.phase == "over"
    err = refused(g, "AS", "game_over")
    assert err.text("en") == "the deal is over"
    assert err.text("tr") == "el bitti"


# ============================================================ why_illegal for legal moves
def test_why_illegal_is_none_for_every_legal_move():
    """RULES.md §Compulsory play: a legal move has no reason against it (en and tr). S2 'playable
    cards glow'; S3 'Geçerli kartlar parlar'."""
    g = Game("zipi-kitty", hands=["AS 2H", "KS 3H", "QS 4H"], kitty="2C 3C 4C 5C", dealer=2)
    while g.phase != "over":
        moves = g.legal_moves()
        assert moves
        for m in moves:
            assert g.why_illegal(m) is None
            assert g.why_illegal(str(m), lang="tr") is None
            assert g.check(m) is None
            assert g.is_legal(m)
        g.play(moves[-1] if g.phase == "bidding" and g.to_move == 0 else moves[0])
    assert g.legal_moves() == []


def test_why_illegal_accepts_lenient_text():
    """Notation: lenient card text names the same card ('10h' is TH). S3."""
    g = in_play(["TH 2C", "9H 3H", "4H 5D", "7H 8D"])
    assert g.why_illegal("10h") is None
    assert g.why_illegal("th") is None
    g.play("10h")
    assert [str(c) for _, c in g.current_trick] == ["TH"]


# ================================================================ bad notation
@pytest.mark.parametrize(
    "text", ["zz", "bid x", "bid", "trump X", "bury 1S", "", "pass 3", "bid -1"]
)
def test_bad_notation_is_an_illegal_move_and_a_value_error(text):
    """Notation (moves 'pass', 'bid 7', 'trump H', 'bury AS', a card): bad text is refused with
    code bad_notation, as a ValueError, naming the text."""
    g = Game("standard", seed=1, dealer=3)
    err = g.check(text)
    assert err is not None and err.code == "bad_notation"
    assert isinstance(err, ValueError)
    assert repr(text) in err.text("en")
    assert repr(text) in err.text("tr")
    with pytest.raises(ValueError) as info:
        g.play(text)
    assert isinstance(info.value, IllegalMove)
    assert info.value.code == "bad_notation"
    assert g.auction == []


def test_bad_notation_texts():
    """The bad_notation message in both languages."""
    err = Game("standard", seed=1).check("zz")
    assert err is not None
    assert err.text("en") == (
        "not a move: 'zz' (moves look like 'pass', 'bid 7', 'trump H', 'bury AS' or a card such "
        "as 'AS')"
    )
    assert err.text("tr") == (
        "geçersiz hamle: 'zz' ('pas', 'ihale 7', 'koz kupa', 'göm AS' ya da 'AS' gibi bir kart yaz)"
    )
    for example in ("pas", "ihale 7", "koz kupa", "göm AS"):  # the Turkish examples are moves
        parse_move(example)


def test_parse_move_errors_are_value_errors():
    """Notation: parse_move refuses bad text with MoveError, a ValueError naming the text."""
    for text in ["zz", "bid x"]:
        with pytest.raises(MoveError) as info:
            parse_move(text)
        assert isinstance(info.value, ValueError)
        assert repr(text) in str(info.value)


def test_parse_move_canonical_and_lenient():
    """Notation: canonical str() of every kind of move; lenient input."""
    assert str(parse_move("pass")) == "pass"
    assert str(parse_move("PAS")) == "pass"
    assert str(parse_move("bid 7")) == "bid 7"
    assert str(parse_move("ihale 7")) == "bid 7"
    assert str(parse_move("Trump h")) == "trump H"
    assert str(parse_move("koz maça")) == "trump S"
    assert str(parse_move("  BURY  as ")) == "bury AS"
    assert str(parse_move("10s")) == "TS"
    assert parse_move("bid 7") is batak.Bid(7)


# ================================================================== card parsing
@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("aS", "AS"),
        ("A♠", "AS"),
        ("a♠", "AS"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("th", "TH"),
        ("10♥", "TH"),
        (" qd ", "QD"),
        ("2c", "2C"),
        ("K♦", "KD"),
        ("J♣", "JC"),
    ],
)
def test_card_parsing_is_lenient(text, card):
    """Notation: cards as rank + suit, '10h', 'A♠', lower case; str() is canonical."""
    assert str(Card.parse(text)) == card
    assert Card.parse(text) is Card.parse(card)


@pytest.mark.parametrize("text", ["1S", "ZZ", "", "A", "10", "AX", "11H", "AHS", "S A", "KK"])
def test_card_parsing_refuses_bad_text_naming_it(text):
    """Notation: bad card text raises CardError, a ValueError subclass whose message names it."""
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


def test_parse_cards_and_bad_card_in_a_deal():
    """Notation: lists of cards; a bad card in a hand is refused naming it."""
    assert [str(c) for c in parse_cards("AS, 10h 2c")] == ["AS", "TH", "2C"]
    with pytest.raises(ValueError, match="'1S'"):
        parse_cards("AS 1S")
    with pytest.raises(batak.DealError, match="1S"):
        Game("standard", hands=["AS", "1S", "KS", "QS"])


def test_a_koz_maca_soz_out_of_its_phase_is_said_as_a_soz():
    """A söz typed once the cards are being played, at a Koz Maça table, was refused in Turkish
    as "ihale 3 şu an geçerli bir hamle değil" (the move said as an ihale the table does not
    have); it is "söz 3" there, the code still wrong_phase."""
    g = Game("sultan-kozmaca", seed=1, dealer=3)
    while g.phase.value == "bidding":
        g.play(g.legal_moves()[0])
    err = refused(g, "bid 3", "wrong_phase")
    assert err.text("en") == "bid 3 is not a move now: this is the card play"
    assert err.text("tr") == "söz 3 şu an geçerli bir hamle değil: şimdi kart atma sırası"
    auction = Game("standard", seed=1, dealer=3)  # an auction's bid is still an ihale
    while auction.phase.value != "play":
        auction.play(auction.legal_moves()[0])
    assert refused(auction, "bid 7", "wrong_phase").text("tr").startswith("ihale 7 ")


def test_an_illegal_move_survives_pickling_with_its_code_key_and_params():
    """An IllegalMove sent between processes (the arena's and the server's workers) came back
    broken: unpickling called ``IllegalMove(message)`` with the English text as the code, which
    raised ``KeyError`` (no such text) for any refusal with params. It comes back whole: code,
    key, params, move and both texts."""
    g = Game("sultan-kozmaca", seed=1, dealer=3)
    err = refused(g, "bid 0", "bid_too_low")
    assert err.key != err.code and err.params
    card = refused(in_play(["AS KH 2H", "3H 4C 5C", "4H 6C 7C", "5H 8C 9C"]), "2C", "not_in_hand")
    for original in (err, card, IllegalMove("game_over")):
        back = pickle.loads(pickle.dumps(original))
        assert type(back) is IllegalMove
        assert (back.code, back.key, back.params) == (original.code, original.key, original.params)
        assert back.move == original.move
        assert str(back) == str(original)
        assert back.text("tr") == original.text("tr")
        assert back.args == original.args
