"""One deal of Batak as a state machine: auction, kitty, trump, 13 tricks, score. No I/O.

>>> g = Game("standard", seed=7)
>>> g.phase, g.to_move
(<Phase.BIDDING: 'bidding'>, 1)
>>> [str(m) for m in g.legal_moves()][:3]
['pass', 'bid 4', 'bid 5']
>>> g.play("bid 5"); g.play("pass"); g.play("pass"); g.play("pass")
>>> g.phase, g.contract
(<Phase.TRUMP: 'trump'>, Contract(bidder=1, bid=5, trump=None))
>>> g.play("trump H")
>>> g.phase, g.to_move
(<Phase.PLAY: 'play'>, 1)

A move that breaks a rule raises :class:`IllegalMove` naming the rule, and changes nothing:

>>> g = Game("standard", hands=["AH 2S", "KH 3S", "QH 4S", "5H 6S"], dealer=3)
>>> for m in ["bid 4", "pass", "pass", "pass", "trump S", "AH"]: g.play(m)
>>> g.why_illegal("3S")
'you must follow suit: hearts were led and you hold K♥'
>>> g.play("3S")
Traceback (most recent call last):
...
batak.game.IllegalMove: you must follow suit: hearts were led and you hold K♥
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import (
    CARD_TEXTS,
    CARDS,
    SUIT_MASKS,
    Card,
    Suit,
    cards_of,
    mask_of,
    parse_cards,
    texts_of,
)
from .i18n import text
from .moves import (
    BIDS,
    BURIES,
    PASS,
    TRUMP_CHOICES,
    Bid,
    Bury,
    Move,
    MoveError,
    Pass,
    TrumpChoice,
    parse_move,
)
from .rules import Rules
from .scoring import deal_score

__all__ = ["Contract", "DealError", "Game", "IllegalMove", "Phase", "Trick"]


class Phase(StrEnum):
    """The phases of a deal, in order (some deals skip some)."""

    BIDDING = "bidding"
    BURY = "bury"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class IllegalMove(ValueError):
    """A move the rules do not allow now. ``str()`` is the English reason; ``text('tr')`` Turkish.

    ``code`` names the rule (``must_follow``, ``must_overtake``, ``must_trump``, ``must_overtrump``,
    ``trump_not_broken``, ``not_in_hand``, ``already_buried``, ``bid_too_low``, ``bid_too_high``,
    ``cannot_pass``, ``wrong_phase``, ``not_your_turn``, ``game_over``, ``bad_notation``);
    ``params`` fills the text; ``key`` names the text when it is not the code's own (Koz Maça's
    bids are said as söz, not ihale: ``bid_too_low_kozmaca``).
    """

    def __init__(
        self, code: str, move: object = None, *, key: str | None = None, **params: Any
    ) -> None:
        self.code = code
        self.move = move
        self.key = key or code
        self.params = params
        super().__init__(text(self.key, "en", **params))

    def text(self, lang: str = "en") -> str:
        """The reason in ``en`` or ``tr``."""
        return text(self.key, lang, **self.params)

    def __reduce__(
        self,
    ) -> tuple[
        Callable[[str, object, str, dict[str, Any]], IllegalMove],
        tuple[str, object, str, dict[str, Any]],
        dict[str, Any],
    ]:
        # Pickled whole (between processes): an exception's default rebuilds it from its
        # ``args``, the English text alone, which is no code.
        return (_illegal_move, (self.code, self.move, self.key, self.params), self.__dict__)


def _illegal_move(code: str, move: object, key: str, params: dict[str, Any]) -> IllegalMove:
    """An unpickled :class:`IllegalMove`."""
    return IllegalMove(code, move, key=key, **params)


class DealError(ValueError):
    """Hands or kitty that do not make a deal under these rules."""


@dataclass(frozen=True, slots=True)
class Contract:
    """Who holds the contract, for how many tricks, and the trump (None until named)."""

    bidder: int
    bid: int
    trump: Suit | None


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seats(self, players: int) -> list[int]:
        """The seat that played each card, in play order."""
        return [(self.leader + i) % players for i in range(len(self.cards))]

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [str(c) for c in self.cards], "winner": self.winner}


_PHASE_OF_KIND: dict[type, Phase] = {
    Pass: Phase.BIDDING,
    Bid: Phase.BIDDING,
    Bury: Phase.BURY,
    TrumpChoice: Phase.TRUMP,
    Card: Phase.PLAY,
}


def _above(index: int) -> int:
    """Mask of the card indices strictly above ``index`` (within any suit: caller masks)."""
    return ~((2 << index) - 1)


class Game:
    """One deal. ``rules`` is a :class:`Rules` or a preset name.

    Deal from ``hands`` (and ``kitty``) for tests and replays, from ``seed`` for reproducible
    play, or, by default, from a cryptographically secure shuffle. ``dealer`` is the dealer's seat;
    the seat after the dealer speaks first.
    """

    __slots__ = (
        "_bids",
        "_break_on_lead",
        "_broken",
        "_buried",
        "_contract_bid",
        "_contract_bidder",
        "_hands",
        "_hi_led",
        "_hi_trump",
        "_high_bid",
        "_high_bidder",
        "_history",
        "_initial_hands",
        "_initial_kitty",
        "_lead_restricted",
        "_lead_suit",
        "_legal_mask",
        "_must_trump",
        "_n",
        "_overtake",
        "_overtake_after_ruff",
        "_overtrump",
        "_passed",
        "_ruffed",
        "_scores",
        "_seat_bids",
        "_to_move",
        "_trick_cards",
        "_trick_leader",
        "_trick_log",
        "_tricks_won",
        "_trump",
        "_trump_if_cannot",
        "_win_card",
        "_win_seat",
        "dealer",
        "phase",
        "redeal",
        "rules",
        "tricks_per_deal",
    )

    def __init__(
        self,
        rules: Rules | str = "standard",
        *,
        hands: Sequence[Iterable[Card | str] | str] | None = None,
        kitty: Iterable[Card | str] | str | None = None,
        dealer: int = 0,
        seed: int | str | bytes | None = None,
    ) -> None:
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        r = self.rules
        n = self._n = r.players
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.dealer = dealer
        if hands is None:
            if kitty is not None:
                raise DealError("a kitty was given without hands")
            hand_masks, kitty_mask = _shuffled_deal(r, seed)
        else:
            if seed is not None:
                raise DealError("give either hands or a seed, not both")
            hand_masks, kitty_mask = _checked_deal(r, hands, kitty)
        self._initial_hands: tuple[int, ...] = tuple(hand_masks)
        self._initial_kitty = kitty_mask
        self._hands = list(hand_masks)
        self.tricks_per_deal = bin(hand_masks[0]).count("1")
        self.redeal = False
        self._history: list[Move] = []
        self._bids: list[tuple[int, Move]] = []
        self._passed = [False] * n
        self._high_bid = 0
        self._high_bidder = -1
        self._seat_bids: list[int | None] = [None] * n
        self._contract_bidder = -1
        self._contract_bid = 0
        self._buried: list[Card] = []
        self._trump = -1
        self._broken = False
        self._trick_log: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        # the table options the card play reads on every card, looked up once
        self._lead_restricted = r.trump_lead == "after_broken"
        self._overtake = r.overtake
        self._overtake_after_ruff = r.overtake_after_ruff
        self._overtrump = r.overtrump  # apart from overtake (docs/rules.md, Compulsory play)
        self._trump_if_cannot = r.trump_if_cannot_overtrump
        self._must_trump = r.must_trump  # False: a void player may play any card
        self._break_on_lead = r.broken_by == "any_trump"
        self._tricks_won = [0] * n
        self._trick_cards: list[int] = []
        self._trick_leader = 0
        self._lead_suit = -1
        self._hi_led = -1
        self._hi_trump = -1
        self._ruffed = False
        self._win_seat = -1
        self._win_card = -1
        self._legal_mask = -1
        self._scores: list[int] | None = None
        first = (dealer + 1) % n
        if r.bidding == "none":
            assert r.fixed_trump is not None
            self._trump = r.fixed_trump.ordinal
            self._start_play(first)
        else:
            self.phase = Phase.BIDDING
            self._to_move: int | None = first

    # ------------------------------------------------------------------ public state
    @property
    def to_move(self) -> int | None:
        """The seat whose bid, bury, trump choice or card is due; ``None`` once over."""
        return self._to_move

    @property
    def players(self) -> int:
        return self._n

    @property
    def contract(self) -> Contract | None:
        """The contract once the auction is over (None in Koz Maça and during the auction)."""
        if self._contract_bidder < 0:
            return None
        trump = CARDS[self._trump * 13].suit if self._trump >= 0 else None
        return Contract(self._contract_bidder, self._contract_bid, trump)

    @property
    def trump(self) -> Suit | None:
        return CARDS[self._trump * 13].suit if self._trump >= 0 else None

    @property
    def trumps_broken(self) -> bool:
        return self._broken

    @property
    def auction(self) -> list[tuple[int, Move]]:
        """Every bid and pass so far, as (seat, move)."""
        return list(self._bids)

    @property
    def contract_given(self) -> bool:
        """An auction's contract that nobody bid: everyone passed and the table's ``all_pass``
        rule gave the lowest bid to the dealer or the first to speak."""
        return (
            self.rules.bidding == "auction"
            and self._contract_bidder >= 0
            and not any(isinstance(m, Bid) for _, m in self._bids)
        )

    @property
    def bids(self) -> list[int | None]:
        """Koz Maça: each seat's bid (None until made). Empty meaning elsewhere: all None."""
        return list(self._seat_bids)

    @property
    def history(self) -> list[Move]:
        """Every move played in this deal, in order (enough, with the deal, to replay it)."""
        return list(self._history)

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order."""
        return [
            Trick(lead, tuple(CARDS[c] for c in cards), win) for lead, cards, win in self._trick_log
        ]

    def trick_dicts(self) -> list[dict[str, Any]]:
        """The finished tricks as :meth:`Trick.to_dict` gives them (made without Card objects:
        a view carries them all at every move)."""
        t = CARD_TEXTS
        return [
            {"leader": lead, "cards": [t[c] for c in cards], "winner": win}
            for lead, cards, win in self._trick_log
        ]

    @property
    def last_trick(self) -> Trick | None:
        if not self._trick_log:
            return None
        lead, cards, win = self._trick_log[-1]
        return Trick(lead, tuple(CARDS[c] for c in cards), win)

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards on the table in the trick being played: (seat, card) in play order."""
        n = self._n
        return [((self._trick_leader + i) % n, CARDS[c]) for i, c in enumerate(self._trick_cards)]

    @property
    def tricks_won(self) -> list[int]:
        """Tricks taken so far by each seat."""
        return list(self._tricks_won)

    @property
    def scores(self) -> list[int] | None:
        """This deal's score per seat once it is over (None before, and after a redeal)."""
        return list(self._scores) if self._scores is not None else None

    @property
    def buried(self) -> list[Card]:
        """Kitty batak: the cards the bidder buried (the bidder's secret)."""
        return list(self._buried)

    @property
    def exposed_seat(self) -> int | None:
        """Açık eşli: the seat that plays face up (the bidder's partner) once trump is named."""
        if not self.rules.exposed_partner or self._contract_bidder < 0 or self._trump < 0:
            return None
        return (self._contract_bidder + 2) % self._n

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now, in display order."""
        return cards_of(self._hands[seat])

    def hand_texts(self, seat: int) -> list[str]:
        """``[str(c) for c in hand(seat)]``, made faster."""
        return texts_of(self._hands[seat])

    @property
    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds now."""
        return [h.bit_count() for h in self._hands]

    @property
    def hands(self) -> list[list[Card]]:
        return [cards_of(h) for h in self._hands]

    @property
    def initial_hands(self) -> list[list[Card]]:
        """The hands as dealt (before the kitty was taken)."""
        return [cards_of(h) for h in self._initial_hands]

    @property
    def initial_kitty(self) -> list[Card]:
        return cards_of(self._initial_kitty)

    def team_of(self, seat: int) -> tuple[int, ...]:
        return self.rules.team_of(seat)

    # ------------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make now (cards in display order)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return cards_of(self._legal())  # type: ignore[return-value]
        if phase is Phase.BIDDING:
            r = self.rules
            if r.bidding == "kozmaca":
                zero = [BIDS[0]] if r.zero_bid is not None else []  # "el almam"
                return [*zero, *BIDS[r.min_bid : r.max_bid + 1]]
            low = max(r.min_bid, self._high_bid + 1)
            return [PASS, *BIDS[low : r.max_bid + 1]]
        if phase is Phase.BURY:
            assert self._to_move is not None
            return [BURIES[c.index] for c in cards_of(self._hands[self._to_move])]
        if phase is Phase.TRUMP:
            return list(TRUMP_CHOICES)
        return []

    def legal_cards_mask(self) -> int:
        """Play phase: the legal cards as a 52-bit mask (for fast tools); 0 otherwise."""
        return self._legal() if self.phase is Phase.PLAY else 0

    def _legal(self) -> int:
        mask = self._legal_mask
        if mask >= 0:
            return mask
        seat = self._to_move
        assert seat is not None
        h = self._hands[seat]
        trump = self._trump
        if not self._trick_cards:
            if trump >= 0 and not self._broken and self._lead_restricted:
                other = h & ~SUIT_MASKS[trump]
                mask = other if other else h
            else:
                mask = h
        else:
            lead = self._lead_suit
            hs = h & SUIT_MASKS[lead]
            if hs:
                mask = hs
                if self._overtake and (
                    lead == trump or not self._ruffed or self._overtake_after_ruff
                ):
                    higher = hs & _above(self._hi_led)
                    if higher:
                        mask = higher
            elif trump >= 0 and h & SUIT_MASKS[trump] and self._must_trump:
                ht = h & SUIT_MASKS[trump]
                mask = ht
                if self._ruffed and self._overtrump:
                    higher = ht & _above(self._hi_trump)
                    if higher:
                        mask = higher
                    elif not self._trump_if_cannot:
                        mask = h
            else:
                mask = h
        self._legal_mask = mask
        return mask

    def is_legal(self, move: Move | str) -> bool:
        return self.why_illegal(move) is None

    def why_illegal(
        self, move: Move | str, *, lang: str = "en", seat: int | None = None
    ) -> str | None:
        """None if ``move`` is legal now, else the reason in words (``lang`` ``en`` or ``tr``)."""
        err = self._check(move, seat)
        if isinstance(err, IllegalMove):
            return err.text(lang)
        return None

    def check(self, move: Move | str, seat: int | None = None) -> IllegalMove | None:
        """None if legal, else the :class:`IllegalMove` that :meth:`play` would raise."""
        err = self._check(move, seat)
        return err if isinstance(err, IllegalMove) else None

    def _check(self, move: Move | str, seat: int | None) -> IllegalMove | Move:
        """The parsed move if legal, else the error (not raised)."""
        try:
            m = parse_move(move)
        except MoveError:
            return IllegalMove("bad_notation", move, text=str(move))
        phase = self.phase
        if phase is Phase.OVER:
            return IllegalMove("game_over", m)
        if seat is not None and seat != self._to_move:
            return IllegalMove("not_your_turn", m, to_move=self._to_move)
        want = _PHASE_OF_KIND[type(m)]
        r = self.rules
        # Koz Maça's bidding is everyone's söz, not an ihale: its refusals say so
        kozmaca = r.bidding == "kozmaca"
        if want is not phase:
            if kozmaca and phase is Phase.BIDDING:
                return IllegalMove("wrong_phase", m, key="wrong_phase_kozmaca", what=str(m))
            if kozmaca and isinstance(m, Bid):  # a söz out of its phase: a söz, not an ihale
                soz = "wrong_phase_soz"
                return IllegalMove("wrong_phase", m, key=soz, n=m.amount, phase=phase.value)
            return IllegalMove("wrong_phase", m, what=str(m), phase=phase.value)
        to_move = self._to_move
        assert to_move is not None
        if phase is Phase.PLAY:
            assert isinstance(m, Card)
            if self._legal() >> m.index & 1:
                return m
            return self._explain_card(to_move, m)
        if phase is Phase.BIDDING:
            if isinstance(m, Pass):
                if r.bidding == "kozmaca":
                    return IllegalMove("cannot_pass", m)
                return m
            assert isinstance(m, Bid)
            low = r.min_bid if r.bidding == "kozmaca" else max(r.min_bid, self._high_bid + 1)
            if m.amount == 0 and r.zero_bid is not None and r.bidding == "kozmaca":
                return m  # "el almam": a bid to take no trick
            if m.amount < low:
                key = "bid_too_low_kozmaca" if kozmaca else None
                return IllegalMove("bid_too_low", m, key=key, low=low)
            if m.amount > r.max_bid:
                key = "bid_too_high_kozmaca" if kozmaca else None
                return IllegalMove("bid_too_high", m, key=key, high=r.max_bid)
            return m
        if phase is Phase.BURY:
            assert isinstance(m, Bury)
            if m.card in self._buried:  # (said as such: "you do not hold it" puzzled)
                return IllegalMove("already_buried", m, card=str(m.card))
            if not self._hands[to_move] >> m.card.index & 1:
                return IllegalMove("not_in_hand", m, card=str(m.card))
            return m
        return m  # trump: any suit

    def _explain_card(self, seat: int, card: Card) -> IllegalMove:
        h = self._hands[seat]
        if not h >> card.index & 1:
            return IllegalMove("not_in_hand", card, card=str(card))
        legal = cards_of(self._legal())
        legal_txt = [str(c) for c in legal]
        trump = self._trump
        if not self._trick_cards:
            return IllegalMove("trump_not_broken", card, suit=CARDS[trump * 13].suit.value)
        lead = self._lead_suit
        lead_suit = CARDS[lead * 13].suit.value
        if h & SUIT_MASKS[lead]:
            if card.index // 13 != lead:
                return IllegalMove("must_follow", card, suit=lead_suit, cards=legal_txt)
            top = CARDS[self._hi_led]
            return IllegalMove("must_overtake", card, top=str(top), cards=legal_txt)
        # void in the led suit: the trump rules
        if card.index // 13 != trump:
            return IllegalMove("must_trump", card, suit=lead_suit, cards=legal_txt)
        top = CARDS[self._hi_trump]
        return IllegalMove("must_overtrump", card, top=str(top), cards=legal_txt)

    # ------------------------------------------------------------------ making moves
    def play(self, move: Move | str, seat: int | None = None) -> None:
        """Make ``move`` (text or move object) for the seat to move.

        If ``seat`` is given it must be the seat to move. Raises :class:`IllegalMove` and leaves
        the state unchanged.
        """
        if type(move) is Card and self.phase is Phase.PLAY and seat is None:
            mask = self._legal_mask
            if mask < 0:
                mask = self._legal()
            if not mask >> move.index & 1:
                raise self._explain_card(self._to_move, move)  # type: ignore[arg-type]
            self._play_card(move.index)
            self._history.append(move)
            return
        checked = self._check(move, seat)
        if isinstance(checked, IllegalMove):
            raise checked
        m = checked
        if isinstance(m, Card):
            self._play_card(m.index)
        elif isinstance(m, Pass | Bid):
            self._bid(m)
        elif isinstance(m, Bury):
            self._bury(m.card)
        else:
            assert isinstance(m, TrumpChoice)
            self._choose_trump(m.suit)
        self._history.append(m)

    def _bid(self, m: Pass | Bid) -> None:
        seat = self._to_move
        assert seat is not None
        r = self.rules
        n = self._n
        self._bids.append((seat, m))
        if r.bidding == "kozmaca":
            assert isinstance(m, Bid)
            self._seat_bids[seat] = m.amount
            if len(self._bids) == n:
                self._after_contract((self.dealer + 1) % n)
            else:
                self._to_move = (seat + 1) % n
            return
        if isinstance(m, Pass):
            self._passed[seat] = True
        else:
            self._high_bid = m.amount
            self._high_bidder = seat
            if m.amount == r.max_bid:
                return self._win_auction(seat, m.amount)
        active = [s for s in range(n) if not self._passed[s]]
        if self._high_bidder >= 0:
            if active == [self._high_bidder]:
                return self._win_auction(self._high_bidder, self._high_bid)
        elif not active:
            if r.all_pass == "dealer_takes_min":
                return self._win_auction(self.dealer, r.min_bid)
            if r.all_pass == "first_speaker_takes_min":
                return self._win_auction((self.dealer + 1) % n, r.min_bid)
            self.redeal = True
            self.phase = Phase.OVER
            self._to_move = None
            return None
        nxt = (seat + 1) % n
        while self._passed[nxt]:
            nxt = (nxt + 1) % n
        self._to_move = nxt
        return None

    def _win_auction(self, bidder: int, bid: int) -> None:
        self._contract_bidder = bidder
        self._contract_bid = bid
        r = self.rules
        if r.kitty_size:
            # kitty batak (rules.kitty_order): take the kitty, bury, name koz (the guides); or
            # bury before seeing the kitty; or take it and name koz before burying
            if r.kitty_order != "bury_take_trump":
                self._hands[bidder] |= self._initial_kitty
            if r.kitty_order == "take_trump_bury":
                self._name_trump()
                return
            self.phase = Phase.BURY
            self._to_move = bidder
            return
        self._name_trump()

    def _first_leader(self) -> int:
        """Who leads the first trick after an auction: the bidder, or the seat after the dealer
        (``rules.first_lead``)."""
        if self.rules.first_lead == "after_dealer":
            return (self.dealer + 1) % self._n
        return self._contract_bidder

    def _name_trump(self) -> None:
        r = self.rules
        if r.fixed_trump is not None:
            self._trump = r.fixed_trump.ordinal
            self._after_trump()
        else:
            self.phase = Phase.TRUMP
            self._to_move = self._contract_bidder

    def _after_trump(self) -> None:
        if len(self._buried) < self.rules.kitty_size:  # koz named before burying
            self.phase = Phase.BURY
            self._to_move = self._contract_bidder
        else:
            self._start_play(self._first_leader())

    def _after_contract(self, leader: int) -> None:
        """Koz Maça bids are in: spades are trumps and the seat after the dealer leads."""
        fixed = self.rules.fixed_trump
        assert fixed is not None  # Rules refuses kozmaca bidding without a fixed trump
        self._trump = fixed.ordinal
        self._start_play(leader)

    def _bury(self, card: Card) -> None:
        seat = self._to_move
        assert seat is not None
        self._hands[seat] &= ~(1 << card.index)
        self._buried.append(card)
        r = self.rules
        if len(self._buried) == r.kitty_size:
            if r.kitty_order == "bury_take_trump":  # only now the bidder takes the kitty
                self._hands[seat] |= self._initial_kitty
            if self._trump >= 0:
                self._start_play(self._first_leader())
            else:
                self._name_trump()

    def _choose_trump(self, suit: Suit) -> None:
        self._trump = suit.ordinal
        self._after_trump()

    def _start_play(self, leader: int) -> None:
        self.phase = Phase.PLAY
        self._to_move = leader
        self._trick_leader = leader
        self._legal_mask = -1

    def _play_card(self, idx: int) -> None:
        seat = self._to_move
        assert seat is not None
        self._hands[seat] &= ~(1 << idx)
        self._legal_mask = -1
        suit = idx // 13
        trump = self._trump
        cards = self._trick_cards
        if not cards:
            self._trick_leader = seat
            self._lead_suit = suit
            self._hi_led = idx
            self._win_seat = seat
            self._win_card = idx
            self._ruffed = False
            self._hi_trump = idx if suit == trump else -1
            if suit == trump and self._break_on_lead:
                self._broken = True
        elif suit == self._lead_suit:
            if idx > self._hi_led:
                self._hi_led = idx
                if not self._ruffed:
                    self._win_seat = seat
                    self._win_card = idx
                if suit == trump:
                    self._hi_trump = idx
        elif suit == trump:
            self._ruffed = True
            self._broken = True
            if idx > self._hi_trump:
                self._hi_trump = idx
                self._win_seat = seat
                self._win_card = idx
        cards.append(idx)
        n = self._n
        if len(cards) < n:
            self._to_move = (seat + 1) % n
            return
        winner = self._win_seat
        self._trick_log.append((self._trick_leader, tuple(cards), winner))
        self._tricks_won[winner] += 1
        self._trick_cards = []
        self._trick_leader = winner
        if len(self._trick_log) == self.tricks_per_deal:
            self._finish()
        else:
            self._to_move = winner

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self._to_move = None
        r = self.rules
        if r.bidding == "kozmaca":
            self._scores = deal_score(
                r, self._tricks_won, None, None, [b or 0 for b in self._seat_bids]
            )
        elif self._contract_bidder >= 0:
            self._scores = deal_score(
                r, self._tricks_won, self._contract_bidder, self._contract_bid, None
            )
        else:
            self._scores = deal_score(r, self._tricks_won, None, None, None)

    # ------------------------------------------------------------------ copies and views
    def copy(self) -> Game:
        """An independent copy (for search and what-if analysis)."""
        g = object.__new__(Game)
        for name in Game.__slots__:
            setattr(g, name, getattr(self, name))
        g._hands = list(self._hands)
        g._history = list(self._history)
        g._bids = list(self._bids)
        g._passed = list(self._passed)
        g._seat_bids = list(self._seat_bids)
        g._buried = list(self._buried)
        g._trick_log = list(self._trick_log)
        g._tricks_won = list(self._tricks_won)
        g._trick_cards = list(self._trick_cards)
        g._scores = list(self._scores) if self._scores is not None else None
        return g

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-ready data (``None``: a spectator, no hidden cards)."""
        from .view import view_of

        return view_of(self, seat)

    def __repr__(self) -> str:
        return f"<Game {self.rules.name} phase={self.phase.value} to_move={self._to_move}>"


# ---------------------------------------------------------------------- dealing
def _shuffled_deal(rules: Rules, seed: int | str | bytes | None) -> tuple[list[int], int]:
    if seed is None:
        deck = _secure_permutation()
    else:
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
    hs = rules.hand_size
    hands = []
    for s in range(rules.players):
        m = 0
        for i in deck[s * hs : (s + 1) * hs]:
            m |= 1 << i
        hands.append(m)
    kitty = 0
    for i in deck[rules.players * hs :]:
        kitty |= 1 << i
    return hands, kitty


_FACTORIAL_52 = math.factorial(52)


def _secure_permutation() -> list[int]:
    """A uniformly random order of the 52 cards from one draw of the system's secure source.

    A number below 52! read as a factorial-base (Lehmer) code picks one permutation, each equally
    likely; one ``secrets.randbelow`` call replaces the dozens a card-by-card shuffle makes.
    """
    code = secrets.randbelow(_FACTORIAL_52)
    pool = list(range(52))
    out = []
    for base in range(52, 0, -1):
        code, k = divmod(code, base)
        out.append(pool.pop(k))
    return out


def _as_cards(cards: Iterable[Card | str] | str, what: str) -> list[Card]:
    if not isinstance(cards, str | Iterable):
        raise DealError(f"{what}: expected cards, got {cards!r}")
    try:
        return parse_cards(cards)
    except (ValueError, TypeError) as e:
        raise DealError(f"{what}: {e}") from None


def _checked_deal(
    rules: Rules,
    hands: Sequence[Iterable[Card | str] | str],
    kitty: Iterable[Card | str] | str | None,
) -> tuple[list[int], int]:
    n = rules.players
    if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != n:
        raise DealError(f"need {n} hands, one per seat")
    parsed = [_as_cards(h, f"hand of seat {s}") for s, h in enumerate(hands)]
    sizes = {len(h) for h in parsed}
    if len(sizes) != 1:
        raise DealError(f"all hands must be the same size, got sizes {[len(h) for h in parsed]}")
    size = sizes.pop()
    if not 1 <= size <= rules.hand_size:
        raise DealError(f"hands must hold 1..{rules.hand_size} cards, got {size}")
    kitty_cards = _as_cards(kitty, "kitty") if kitty is not None else []
    if len(kitty_cards) != rules.kitty_size:
        raise DealError(f"the kitty must hold {rules.kitty_size} cards, got {len(kitty_cards)}")
    seen: dict[Card, str] = {}
    for owner, cards in [*((f"seat {s}", h) for s, h in enumerate(parsed)), ("kitty", kitty_cards)]:
        for c in cards:
            if c in seen:
                raise DealError(f"{c} is dealt twice ({seen[c]} and {owner})")
            seen[c] = owner
    return [mask_of(h) for h in parsed], mask_of(kitty_cards)
