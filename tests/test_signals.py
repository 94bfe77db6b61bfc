"""The partners' first-discard signal (batak.bots.signals): read from a player's view only, sent
and followed by the medium player (and so by the hard one early in the deal)."""

from __future__ import annotations

from batak import Game
from batak.bots import get as get_bot
from batak.bots.medium import MediumPlayer, MediumPlayerNoSignals
from batak.bots.signals import first_discard, is_first_discard, partner_signal, wanted_suit
from batak.bots.simple import parse_view
from batak.cards import SUIT_MASKS


def _play(preset: str, seed: int, signals: bool) -> list[tuple[dict, str]]:
    """One deal by four medium players, with or without the signal: every (view, move)."""
    cls = MediumPlayer if signals else MediumPlayerNoSignals
    bots = [cls(seed=seed * 10 + s) for s in range(4)]
    g = Game(preset, seed=seed)
    out = []
    while g.to_move is not None and g.phase.value != "over":
        seat = g.to_move
        view = g.view(seat)
        move = bots[seat].choose(view)
        out.append((view, move))
        g.play(move)
        if g.phase.value == "over":
            break
    return out


def _rates(signals: bool, deals: int = 40) -> tuple[float, float]:
    """(first discards in the wanted suit / first discards with a wanted suit to show,
    leads in the partner's signalled suit / leads after a live signal)."""
    sent = could = followed = asked = 0
    for seed in range(deals):
        for view, move in _play("sultan-esli", seed, signals):
            t = parse_view(view)
            if t.phase != "play":
                continue
            card = next(c for c in range(52) if f"{move}" == _text(c))
            if is_first_discard(t):
                want = wanted_suit(t.hand, t.played, t.trump)
                legal_in_want = want is not None and t.legal_cards & SUIT_MASKS[want]
                if legal_in_want:
                    could += 1
                    sent += card // 13 == want
            if not t.trick:
                sig = partner_signal(t)
                if (
                    sig is not None
                    and sig.suit != t.trump
                    and t.hand & SUIT_MASKS[sig.suit]
                    and sig.promised >= 0
                    and not (t.played | t.hand) >> sig.promised & 1
                ):
                    asked += 1
                    followed += card // 13 == sig.suit
    assert could >= 10 and asked >= 10, (could, asked)
    return sent / could, followed / asked


def _text(card: int) -> str:
    from batak.bots.simple import CARD_TEXT

    return CARD_TEXT[card]


def test_signal_is_sent_and_followed_more_than_by_chance() -> None:
    sent, followed = _rates(True)
    sent_off, followed_off = _rates(False)
    # without the convention medium often discards low from a long suit it is master in anyway
    # (two thirds of the time here), and leads its partner's discard suit about half the time
    assert sent >= 0.8 and sent >= sent_off + 0.1, (sent, sent_off)
    # the partner's suit is led only where the lead is free (no trick of one's own to take, no
    # trumps to draw first): more often than without the convention, but not always
    assert 0.5 <= followed < 0.95 and followed >= followed_off + 0.1, (followed, followed_off)


def test_the_asked_suit_is_led_low_and_only_where_the_lead_is_free() -> None:
    """Where a live signal changes the lead, it is the lowest card of the suit asked for, with
    the reason saying so; a trump draw and a likely winner of one's own come first."""
    from batak.bots.medium import Params, decide
    from batak.bots.simple import decision_rng
    from batak.bots.teach import reason_text

    changed = kept_trump = kept_other = 0
    for seed in range(60):
        for view, move in _play("sultan-esli", seed, True):
            t = parse_view(view)
            sig = partner_signal(t)
            if t.phase != "play" or t.trick or sig is None:
                continue
            rng = decision_rng(seed, view, "medium")
            with_it = decide(view, rng, Params())
            without = decide(view, decision_rng(seed, view, "medium"), Params(signals=False))
            assert with_it.move == move  # the card play does not depend on the seed
            if with_it.reason == "lead_signal":
                asked = [c for c in range(52) if t.legal_cards >> c & 1 and c // 13 == sig.suit]
                assert with_it.move == _text(min(asked)), (with_it, sig)
                assert _text(sig.card) == with_it.params["signal"]
                assert "first discard" in reason_text(with_it, "en")
                assert "ilk ıskarta" in reason_text(with_it, "tr")
                changed += with_it.move != without.move
            else:
                assert with_it.move == without.move, (with_it, without)
                if without.reason == "draw_trumps":
                    kept_trump += 1
                elif sig.suit != t.trump and t.hand & SUIT_MASKS[sig.suit]:
                    kept_other += without.reason in _CASHED
    assert changed >= 4 and kept_trump >= 3 and kept_other >= 3, (changed, kept_trump, kept_other)


#: a master card led: said as the highest one out, or with a higher one of the player's own
_CASHED = ("cash_master", "cash_master_likely", "cash_touching", "cash_touching_likely")


def test_signal_read_from_the_view_only_in_esli() -> None:
    """The partner's first discard, as every seat's view shows it; none outside eşli."""
    found = 0
    for seed in range(10):
        g = Game("sultan-esli", seed=seed)
        bot = get_bot("medium", seed=seed)
        while g.phase.value != "over":
            g.play(bot.choose(g.view(g.to_move)))
            if g.phase.value != "play" or g.to_move is None:
                continue
            t = parse_view(g.view(g.to_move))
            partner = t.partner()
            assert partner is not None
            sig = partner_signal(t)
            first = first_discard(t, partner)
            if first is None:
                assert sig is None
                continue
            found += 1
            assert sig is not None and sig.card == first and sig.suit == first // 13
            assert sig.suit != t.trump
            # the same card is the partner's first discard from its partner's opponents' seats
            other = parse_view(g.view((g.to_move + 1) % 4))
            assert first_discard(other, partner) == first
    assert found > 20
    g = Game("standard", seed=3)
    bot = get_bot("medium", seed=3)
    while g.phase.value != "play":
        g.play(bot.choose(g.view(g.to_move)))
    for _ in range(40):
        assert partner_signal(parse_view(g.view(g.to_move))) is None
        g.play(bot.choose(g.view(g.to_move)))


def test_asked_suit_is_none_at_a_table_without_the_signal() -> None:
    """asked_suit named a suit to ask for at tables with nobody to ask (ihaleli, kitty, Koz
    Maça) and in açık eşli, where signal_in_view says there is no signal: a bot author
    following docs/bots.md discarded for a partner that does not exist."""
    from batak.bots.signals import asked_suit

    def asked(preset: str) -> set[str | None]:
        out: set[str | None] = set()
        for seed in range(6):
            g = Game(preset, seed=seed)
            players = [get_bot("easy", seed=s) for s in range(g.rules.players)]
            while g.legal_moves():
                view = g.view(g.to_move)
                if view["phase"] == "play":
                    out.add(asked_suit(view))
                g.play(players[g.to_move].choose(view))
        return out

    for preset in ("standard", "zipi-kitty", "sultan-kozmaca", "esli-acik"):
        assert asked(preset) == {None}, preset
    assert asked("sultan-esli") - {None}  # where partners signal, a suit now and then
