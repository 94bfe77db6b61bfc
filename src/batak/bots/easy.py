"""The easy computer player: plays like a casual player.

It bids from a rough look at its hand (the same estimate the others use, give or take a trick),
names its best suit as koz (now and then simply its longest), buries the low cards of its short
suits, and in the play does what a casual player does: cashes its aces, wins a trick when it can
(often with a higher card than it needs), lets a partner's winning card stand, and otherwise plays
low. It does not count cards or read voids, and it makes human-looking mistakes at a controlled
rate (``mistakes``, default 0.15): a high card played too early, an ace held back, a partner
overtaken, a bid a trick too high. Every move is legal; same seed and same view, same move.

>>> from batak.game import Game
>>> g = Game("standard", seed=4)
>>> p = EasyPlayer(seed=2)
>>> while g.phase != "over":
...     g.play(p.choose(g.view(g.to_move)))
>>> sum(g.tricks_won)
13
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

from ..cards import SUIT_MASKS
from .simple import (
    CARD_TEXT,
    SUIT_LETTERS,
    Table,
    beats,
    bits,
    decision_rng,
    estimate_tricks,
    evaluate_hand,
    parse_view,
    trick_state,
)

__all__ = ["EasyPlayer"]


class EasyPlayer:
    """A casual player: sensible bids, obvious plays, no card counting, some mistakes."""

    name = "easy"

    def __init__(self, *, seed: int | None = None, mistakes: float = 0.15, **_options: Any) -> None:
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.mistakes = mistakes

    def choose(self, view: Mapping[str, Any]) -> str:
        t = parse_view(view)
        if not t.legal:
            raise ValueError("this seat has no move to make now (legal_moves is empty)")
        rng = decision_rng(self.seed, view, "easy")
        if len(t.legal) == 1:
            return t.legal[0]
        if t.phase == "bidding":
            move = self._bid(t, rng)
        elif t.phase == "bury":
            move = self._bury(t, rng)
        elif t.phase == "trump":
            move = self._trump(t, rng)
        else:
            move = self._card(t, rng)
        return move if move in t.legal else rng.choice(t.legal)

    # -- auction, kitty, koz -----------------------------------------------------------
    def _bid(self, t: Table, rng: random.Random) -> str:
        rules = t.rules
        amounts = sorted(int(m.split()[1]) for m in t.legal if m.startswith("bid "))
        est = max(evaluate_hand(t.hand, rules).values())
        noisy = est + rng.gauss(0.0, 0.8)
        if rng.random() < self.mistakes:
            noisy += 1.0  # optimism: "this hand looks good"
        if rules.bidding == "kozmaca":
            want = max(1, round(noisy))
            return f"bid {min(max(want, amounts[0]), amounts[-1])}"
        if not amounts:
            return "pass"
        partner = t.partner()
        if partner is not None:
            last_bid = [s for s, m in t.auction if m.startswith("bid ")]
            if last_bid and last_bid[-1] == partner and noisy < amounts[0] + 2:
                return "pass"
        low = amounts[0]
        if noisy >= low + 0.5 or "pass" not in t.legal:
            return f"bid {low}"
        return "pass"

    def _trump(self, t: Table, rng: random.Random) -> str:
        est = evaluate_hand(t.hand, t.rules)
        best = max(est, key=lambda s: (est[s], -SUIT_LETTERS.index(s)))
        if rng.random() < self.mistakes:
            lengths = {s: (t.hand & SUIT_MASKS[i]).bit_count() for i, s in enumerate(SUIT_LETTERS)}
            best = max(lengths, key=lambda s: (lengths[s], -SUIT_LETTERS.index(s)))
        return f"trump {best}"

    def _bury(self, t: Table, rng: random.Random) -> str:
        hand = t.hand
        trump = max(range(4), key=lambda s: estimate_tricks(hand, s, t.rules))
        lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]

        def keep(c: int) -> tuple[int, int, int, int]:
            s = c // 13
            return (int(s == trump), int(c % 13 == 12), lengths[s], c % 13)

        cards = sorted(bits(hand), key=keep)
        pick = cards[0] if rng.random() >= self.mistakes else rng.choice(cards[:4])
        return f"bury {CARD_TEXT[pick]}"

    # -- card play -----------------------------------------------------------------------
    def _card(self, t: Table, rng: random.Random) -> str:
        legal = bits(t.legal_cards)
        trump = t.trump
        hand = t.hand
        lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
        slip = rng.random() < self.mistakes

        def low_key(c: int) -> tuple[int, int, int]:
            return (int(c // 13 == trump), c % 13, lengths[c // 13])

        if not t.trick:
            aces = [c for c in legal if c % 13 == 12 and c // 13 != trump]
            if aces and not slip:
                return CARD_TEXT[rng.choice(aces)]
            if slip:  # leads an honour too early, or holds the aces back
                high = [c for c in legal if c % 13 >= 10 and c // 13 != trump] or legal
                return CARD_TEXT[rng.choice(high)]
            side = [c for c in legal if c // 13 != trump] or legal
            longest = max(lengths[c // 13] for c in side)
            pool = [c for c in side if lengths[c // 13] == longest]
            return CARD_TEXT[min(pool, key=low_key)]
        st = trick_state(t.trick, t.leader, trump, t.n)
        partner_winning = t.partner() is not None and st.winner == t.partner()
        winners = [c for c in legal if beats(c, st.win_card, trump)]
        last = len(t.trick) == t.n - 1
        if partner_winning and not slip:
            return CARD_TEXT[min(legal, key=low_key)]
        if winners:
            if last:
                return CARD_TEXT[min(winners, key=lambda c: (int(c // 13 == trump), c % 13))]
            if slip or rng.random() < 0.4:  # wins big: "make sure of it"
                return CARD_TEXT[max(winners, key=lambda c: c % 13)]
            return CARD_TEXT[min(winners, key=lambda c: (int(c // 13 == trump), c % 13))]
        if slip:
            return CARD_TEXT[rng.choice(legal)]
        return CARD_TEXT[min(legal, key=low_key)]
