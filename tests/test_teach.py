"""Teach me (batak.bots.teach): a legal hint with a reason in English and Turkish, deterministic,
and a trick estimate per koz choice that follows the hand's length and strength."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from batak import Game, Rules
from batak.bots.teach import REASONS, Hint, estimate, hint
from batak.cards import CARDS, Card
from batak.i18n import card_text

PRESETS = Rules.preset_names()


def plain(view: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(view))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_hint_is_legal_explained_and_deterministic(preset: str) -> None:
    """Every phase of a deal in every preset: the hint is a legal move, the reason is a sentence
    in each language, the same view gives the same hint, and both languages agree on the move."""
    rng = random.Random(preset)
    game = Game(preset, seed=31)
    codes = set()
    while game.phase != "over":
        view = plain(game.view(game.to_move))
        en = hint(view, lang="en")
        tr = hint(view, lang="tr")
        assert isinstance(en, Hint)
        assert en.move in view["legal_moves"]
        assert en.move == tr.move and en.code == tr.code
        assert en.reason and tr.reason and en.reason != tr.reason
        assert en.reason[0].isupper() and en.reason.endswith(".")
        assert "{" not in en.reason and "{" not in tr.reason
        assert hint(view, lang="en") == en
        codes.add(en.code)
        game.play(en.move if rng.random() < 0.7 else rng.choice(view["legal_moves"]))
    assert len(codes) >= 4


def test_turkish_reasons_use_the_game_words() -> None:
    """koz, ihale, pas and löve, as Turkish players say them."""
    words = " ".join(t["tr"] for t in REASONS.values())
    for w in ("koz", "ihale", "Pas", "löve"):
        assert w in words
    for code, t in REASONS.items():
        assert set(t) == {"en", "tr"}, code


def test_hint_in_the_auction_and_the_trump_choice() -> None:
    strong = "AS KS QS JS TS 9S AH KH AD 2D 3C 4C 5C"
    others = [
        "8S 7S 6S QH JH TH 9H KD QD JD TD AC KC",
        "5S 4H 3H 2H 8H 4D 3D 9C 8C QC JC TC 6D",
        "2S 3S 4S 5H 6H 7H 8D 9D 2C 7D 5D 6C 7C",
    ]
    g = Game("standard", hands=[strong, *others], dealer=3)
    h = hint(plain(g.view(0)))
    assert h.move.startswith("bid") and h.code == "bid_estimate"
    assert "koz" in h.reason and "tricks" in h.reason
    # "4 de": the bid as the bid button says it ("{n} de"), then what the hand is worth
    assert hint(plain(g.view(0)), lang="tr").reason.startswith(h.move.split()[1] + " de: ")
    for m in ("bid 4", "pass", "pass", "pass"):
        g.play(m)
    h = hint(plain(g.view(0)))
    assert h.move == "trump S" and h.code == "trump_choice"
    assert "spades" in h.reason


def test_hint_names_the_only_legal_card() -> None:
    g = Game("standard", hands=["AH 2S 3S", "KH 4C 5C", "QH 6C 7C", "2H 8C 9C"], dealer=3)
    for m in ("bid 4", "pass", "pass", "pass", "trump S", "AH"):
        g.play(m)
    h = hint(plain(g.view(1)))
    assert h.move == "KH" and h.code == "only_legal"
    assert "only" in h.reason and "başka hamle yok" in hint(plain(g.view(1)), lang="tr").reason


def deal_with(fixed: dict[int, str], rules: str = "standard", dealer: int = 3) -> Game:
    """A full deal in which the seats of ``fixed`` hold those cards; the rest is dealt in order."""
    taken = {c for h in fixed.values() for c in h.split()}
    rest = [str(c) for c in CARDS if str(c) not in taken]
    hands = []
    for s in range(4):
        if s in fixed:
            hands.append(fixed[s])
        else:
            hands.append(" ".join(rest[:13]))
            rest = rest[13:]
    return Game(rules, hands=hands, dealer=dealer)


def test_hint_cashes_a_master_and_ruffs() -> None:
    # the bidder leads: AH is the highest heart out, and an opponent void in hearts (with a
    # koz) is unlikely at the first lead but possible: it almost surely takes the trick
    g = deal_with({0: "AH KH 2H AS KS QS JS TS 3D 4D 3C 4C 5C"})
    for m in ("bid 4", "pass", "pass", "pass", "trump S"):
        g.play(m)
    h = hint(plain(g.view(0)))
    assert h.move in ("AH", "KH") and h.code in ("cash_master_likely", "cash_touching_likely")
    assert "almost surely takes" in h.reason
    # a seat with no hearts and some trumps must ruff, and does so with a small one
    g = deal_with(
        {0: "9H 2H AS KS QS JS 3D 4D 5D 3C 4C 5C 6C", 1: "2S 3S 4S 5S AD KD QD JD TD AC KC QC JC"}
    )
    for m in ("bid 4", "pass", "pass", "pass", "trump S", "2H"):
        g.play(m)
    h = hint(plain(g.view(1)))
    assert h.code == "ruff" and h.move == "2S"
    assert "koz" in h.reason


def test_hint_lets_the_partner_win() -> None:
    """Eşli: the partner's ace is winning and the last player follows; keep the high card."""
    g = Game(
        "cetinsgame-esli",
        hands=["AH 2S 3S", "5H 6C 7C", "KH 9H 2C", "4H 8C 9C"],
        dealer=3,
    )
    for m in ("bid 7", "pass", "pass", "pass", "trump S", "AH", "5H"):
        g.play(m)
    h = hint(plain(g.view(2)))
    assert h.move == "9H" and h.code == "partner_winner"
    assert "partner" in h.reason and "eş" in hint(plain(g.view(2)), lang="tr").reason


def test_estimate_per_trump_choice() -> None:
    long_hearts = "AH KH QH JH TH 9H 2S 3S 4D 5D 6C 7C 8C"
    others = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 8H 7H",
        "AD KD QD JD TD 9D 8D 7D 6D 5H 4H 3H 2H",
        "AC KC QC JC TC 9C 6H 5C 4C 3C 2C 3D 2D",
    ]
    g = Game("standard", hands=[long_hearts, *others], dealer=3)
    est = estimate(plain(g.view(0)))
    assert set(est) == {"S", "H", "D", "C"}
    assert est["H"] == max(est.values()) and est["H"] > est["S"] + 2
    assert estimate(plain(g.view(0))) == est
    est1 = estimate(plain(g.view(1)))
    assert est1["S"] == max(est1.values())
    g = Game("cetinsgame-kozmaca", seed=3)
    assert list(estimate(plain(g.view(0)))) == ["S"]


def test_a_master_card_an_opponent_may_ruff_is_not_called_a_sure_trick() -> None:
    """Leading the top card of a suit in which an opponent has shown a void (and may still hold
    koz), the reason says it wins unless someone ruffs it (at the first lead, where a void is
    unlikely, it almost surely wins: test_hint_cashes_a_master_and_ruffs)."""
    from batak.bots.medium import Params, _Ctx, _explain
    from batak.bots.simple import CARD_INDEX, parse_view, trick_state

    g = Game(
        "standard",
        hands=[
            "AH KH QH 2H AD KD QD AS KS QS JS TS 9S",
            "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
            "3H 4H 5H 6H 7H 8D 9D 2S 3S 4S 9C TC JC",
            "8H 9H TH JH TD JD 5S 6S 7S 8S QC KC AC",
        ],
        dealer=3,
    )
    # seat 1 ruffs the first heart (it has none), the bidder wins the diamond and leads again
    for m in ("bid 4", "pass", "pass", "pass", "trump C", "2H", "2C", "3H", "8H"):
        g.play(m)
    for m in ("2D", "8D", "TD", "AD"):
        g.play(m)
    assert g.to_move == 0
    t = parse_view(plain(g.view(0)))
    ctx = _Ctx(t, Params())
    st = trick_state([], 0, t.trump, 4)
    legal = [CARD_INDEX[m] for m in t.legal]
    code, params = _explain(ctx, st, CARD_INDEX["AH"], 0.6, legal, True)
    assert code == "cash_master_risk"
    assert (
        REASONS[code]["en"]
        .format(**{**params, "suit": "heart"})
        .endswith("unless someone ruffs it.")
    )


@pytest.mark.parametrize(
    ("hand", "move", "en", "tr"),
    [
        (
            "AH KH 2H AS KS QS JS TS 3D 4D 3C 4C 5C",
            "KH",
            "Lead K♥: K♥ and A♥ are both winners; the lower one almost surely takes this trick "
            "and A♥ is kept for a later one.",
            "K♥ aç: K♥ ile A♥ ikisi de löve alır; küçüğü bu löveyi neredeyse kesin alır, büyüğü "
            "(A♥) sonraki lövelere kalır.",
        ),
        (
            "AD KD QD AS KS QS JS TS 3D 4H 3C 4C 5C",
            "QD",
            "Lead Q♦: Q♦ and K♦ are both winners unless someone ruffs; lead the lower one and "
            "keep K♦ for a later trick.",
            "Q♦ aç: koz çakan olmazsa Q♦ ile K♦ ikisi de löve alır; önce küçüğünü oyna, büyüğü "
            "(K♦) sonraki lövelere kalsın.",
        ),
    ],
)
def test_a_winner_led_below_the_player_s_own_higher_card_is_not_called_the_highest_out(
    hand: str, move: str, en: str, tr: str
) -> None:
    """The hint said "Lead K♦: it is the highest diamond still out" to a player who held A♦:
    untrue from where they sit. With a higher card of the suit in the hand, the reason says
    that both are winners and the lower one is led to keep the other."""
    g = deal_with({0: hand})
    for m in ("bid 4", "pass", "pass", "pass", "trump S"):
        g.play(m)
    view = plain(g.view(0))
    said = {lang: hint(view, lang=lang) for lang in ("en", "tr")}
    assert said["en"].move == move and (said["en"].reason, said["tr"].reason) == (en, tr)
    assert "highest" not in said["en"].reason and "en büyük" not in said["tr"].reason


@pytest.mark.parametrize(
    ("risk", "code", "en", "tr"),
    [
        (0.0, "cash_master", "so it takes the trick.", "löveyi alır."),
        (0.03, "cash_master_likely", "so it almost surely takes the trick.", "neredeyse kesin"),
        (0.2, "cash_master_risk", "unless someone ruffs it.", "koz çakan olmazsa"),
    ],
)
def test_a_master_card_is_called_a_sure_trick_only_when_nobody_can_ruff_it(
    monkeypatch: pytest.MonkeyPatch, risk: float, code: str, en: str, tr: str
) -> None:
    """The hint said "the highest heart still out, so it takes the trick" also when the bot
    only judged the ruff risk under 5%: that is "almost surely" now, and "so it takes the trick"
    is kept for no risk at all. Only the words change: the move is chosen before them."""
    from batak.bots.medium import Params, _Ctx, _explain
    from batak.bots.simple import CARD_INDEX, parse_view, trick_state

    g = deal_with({0: "AH KH 2H AS KS QS JS TS 3D 4D 3C 4C 5C"})
    for m in ("bid 4", "pass", "pass", "pass", "trump S"):
        g.play(m)
    view = plain(g.view(0))
    move = hint(view).move
    t = parse_view(view)
    ctx = _Ctx(t, Params())
    monkeypatch.setattr(_Ctx, "ruff_risk", lambda self, suit: risk)
    st = trick_state([], 0, t.trump, 4)
    legal = [CARD_INDEX[m] for m in t.legal]
    said, params = _explain(ctx, st, CARD_INDEX["AH"], 0.9, legal, True)
    assert said == code
    assert REASONS[code]["en"].format(**{**params, "suit": "heart"}).endswith(en)
    assert tr in REASONS[code]["tr"]
    assert hint(view).move == move  # the same card, whatever the words


def test_a_ruff_is_called_small_only_when_it_is_the_lowest_koz() -> None:
    """A hint says "your lowest koz is enough" only for the lowest koz. A higher koz ruffing
    first is kept from a later player's overtrump, and the hint says so (a web review saw
    "Ruff with K♦: ... a small koz is enough")."""
    seen = {"ruff": 0, "ruff_high": 0}
    for seed in range(40):
        game = Game("standard", seed=seed)
        while game.phase != "over":
            view = plain(game.view(game.to_move))
            h = hint(view)
            if h.code in seen:
                seen[h.code] += 1
                trump = view["trump"]
                koz = [m for m in view["legal_moves"] if m[-1] == trump]
                lowest = min(koz, key=[str(c) for c in CARDS].index)
                assert h.move[-1] == trump
                assert (h.move == lowest) == (h.code == "ruff"), (h, koz)
                tr = hint(view, lang="tr").reason
                assert ("en küçük kozun" in tr) == (h.code == "ruff")
            game.play(h.move)
    assert seen["ruff"] and seen["ruff_high"], seen


def test_a_lead_called_low_is_a_low_card() -> None:
    """ "Lead A♦: a low card that gives nothing away" misled a learner: a lead the hint calls low
    is the lowest card of its suit in the hand and below the ten; the top card still out is
    called that (a ruff may take it), and any other lead is not called low."""
    seen: dict[str, int] = {}
    for seed in range(40):
        game = Game("standard", seed=seed)
        rng = random.Random(seed)
        while game.phase != "over":
            view = plain(game.view(game.to_move))
            if view["phase"] == "play" and not view["current_trick"]["cards"]:
                h = hint(view)
                seen[h.code] = seen.get(h.code, 0) + 1
                card = Card.parse(h.move)
                suit = [Card.parse(c) for c in view["hand"] if Card.parse(c).suit is card.suit]
                if h.code == "lead_low":
                    assert card.rank.char not in "TJQKA", (h.move, view["hand"])
                    assert min(suit, key=lambda c: c.index) == card, (h.move, view["hand"])
                if h.code == "lead_spare":
                    tr = hint(view, lang="tr").reason
                    assert h.reason == f"Lead {card_text(h.move)}: on balance the safest lead " + (
                        "from your hand."
                    )
                    assert tr == f"{card_text(h.move)} aç: her şey tartıldığında elindeki en " + (
                        "güvenli açış bu."
                    )
            game.play(rng.choice(game.legal_moves()))
    assert seen.get("lead_low") and seen.get("lead_spare")


def _auction_hints(preset: str, deals: int) -> list[tuple[str, str, str]]:
    """(code, English reason, Turkish reason) of the hint at every auction turn of ``deals``
    deals of ``preset``, each seat playing its hint."""
    import re

    out = []
    for seed in range(deals):
        g = Game(preset, seed=seed)
        while g.phase == "bidding":
            view = plain(g.view(g.to_move))
            en, tr = hint(view, lang="en"), hint(view, lang="tr")
            out.append((en.code, en.reason, tr.reason))
            g.play(en.move)
    assert all(not re.search(r"\{\w+\}", r) for _, e, t in out for r in (e, t))
    return out


@pytest.mark.parametrize("preset", ["standard", "esli-acik", "zipi-kitty"])
def test_a_pass_hint_never_says_enough_tricks_are_not_enough(preset: str) -> None:
    """ "Say pas: your hand is worth about 8.3 tricks, not enough for a bid of 7" contradicted
    itself: the reason was that defending scores more. Each pass hint's numbers now agree with
    its words; a table with partners counts the side's tricks and says so, kitty batak the
    hand's with the kitty."""
    import re

    hints = _auction_hints(preset, 40)
    seen = set()
    for code, en, tr in hints:
        if code not in ("pass_estimate", "pass_defend"):
            continue
        seen.add(code)
        est = float(re.search(r"about ([\d.]+) tricks", en)[1])  # type: ignore[index]
        need = int(re.search(r"(?:bid of|ihale) (\d+)", en)[1])  # type: ignore[index]
        if code == "pass_estimate":
            assert est < need and "not enough" in en, en
        else:
            assert est >= need and "on average you score more defending" in en, en
            assert "savunmada daha çok puan alırsın" in tr, tr
    assert seen == {"pass_estimate", "pass_defend"}, (preset, seen)
    whose = {
        "esli-acik": "your side (judging by your hand and the bidding)",
        "zipi-kitty": "with the kitty",
    }
    if preset in whose:
        said = [en for code, en, _ in hints if code in ("bid_estimate", "pass_estimate")]
        assert said and all(whose[preset] in en for en in said), said[:3]
    if preset == "esli-acik":  # an estimate from the hand and the bidding: the hint never saw
        # the partner's cards, and "your side (your hand and your partner's)" read as if it had
        said = [(en, tr) for code, en, tr in hints if code in ("bid_estimate", "pass_estimate")]
        assert all("partner's)" not in en and "ikinizin elleri" not in tr for en, tr in said)
        assert all("tarafın (elin ve ihaleye bakılırsa)" in tr for _, tr in said), said[:3]
