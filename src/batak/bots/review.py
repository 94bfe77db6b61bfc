"""Deal review: where was a trick lost? Every decision of a finished deal, judged double dummy.

For each card played, :func:`review_deal` asks the solver what the mover's side could still take
in the whole deal after each legal card, with best play from everyone afterwards: the card played
against the best card, and the tricks it cost (0 when it was as good as the best). At a table
without partners a defender's side is the defender alone, so its cards are also judged for the
defence as a whole (every seat but the bidder's): a card that keeps the defender's own count but
lets the bidder take one more is named too. For the
auction it says what the bidder's hand was worth, double dummy, with each koz (or each player's
own hand in Koz Maça), against what was bid. Double dummy means every hand in view: a card can
"cost" a trick only a player who saw everything would have kept, so read it as "where the deal
could have gone better", not as a verdict.

>>> from batak.game import Game
>>> g = Game("standard", hands=["KD JH 2C", "TH 5H AC", "4D KC 5C", "6C 9S 2H"], dealer=3)
>>> for m in "bid 4,pass,pass,pass,trump S,KD,5H,4D,9S,6C,2C,AC,5C,TH,KC,2H,JH".split(","):
...     g.play(m)
>>> review = review_deal(g)
>>> d = review.costly()[0]
>>> d.trick, d.seat, d.card, d.value, d.best, d.best_cards
(1, 0, 'KD', 0, 1, ('JH', '2C'))
>>> for line in summary_lines(review, ["Misafir 7", "West", "North", "East"], "en", you=0):
...     print(line.replace("\u00a0", " "))  # doctest: +NORMALIZE_WHITESPACE
You bid 4; with every hand in view and the best defence, you would take, by koz:
    ♠ 1 (koz), ♥ 1, ♦ 1, ♣ 0; actually taken: 1
Trick 1: you played K♦, which cost a trick by the end of the deal; the best was
    J♥ or 2♣. The hint suggests this card too: from what you could see, it was a fair
    choice.
Trick 1: West played 5♥, which let the bidder take one more trick; the best for the
    defence was A♣.
Tricks lost in total — You: 1
Tricks given to the bidder in total — West: 1
>>> summary_lines(review, ["Sen", "Batı", "Kuzey", "Doğu"], "tr", you=0)[1].split(". İpucu")[0]
'1. löve: K♦ oynadın; elin sonunda bu bir löveye mal oldu. J♥ ya da 2♣ daha iyiydi'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import Card, Suit
from ..game import Game, Phase
from ..i18n import text
from ..moves import TrumpChoice
from .bidsim import first_guess
from .solver import Position, card_values, solve_position
from .teach import hint

__all__ = ["BidWorth", "CardDecision", "DealReview", "review_deal", "summary_lines"]


@dataclass(frozen=True, slots=True)
class CardDecision:
    """One card played: what the mover's side could take in the whole deal after it (``value``)
    and after the best card (``best``), both with best play from everyone afterwards."""

    trick: int  # 1-based
    seat: int
    card: str
    value: int
    best: int
    best_cards: tuple[str, ...]
    #: A defender's card at a table without partners is also judged for the defence as a
    #: whole (every seat but the bidder's): the defenders' tricks after it and after the best
    #: card for them, and those cards. None where there is no such defence.
    defence_value: int | None = None
    defence_best: int | None = None
    defence_best_cards: tuple[str, ...] = ()
    #: The hint (:func:`batak.bots.teach.hint`, from the mover's own view) suggests this card
    #: too: a card that "cost" a trick only to a player who saw every hand.
    hinted: bool = False

    @property
    def cost(self) -> int:
        """Tricks the card gave away against the best card (0: it was among the best)."""
        return self.best - self.value

    @property
    def defence_cost(self) -> int:
        """Tricks the card let the bidder take beyond the defence's best (0: none, or no
        defence to judge it for)."""
        if self.defence_value is None or self.defence_best is None:
            return 0
        return self.defence_best - self.defence_value


@dataclass(frozen=True, slots=True)
class BidWorth:
    """What a seat's side could take double dummy with each koz (one koz when it is fixed),
    against what the seat bid (None for a pass or no bid)."""

    seat: int
    bid: int | None
    worth: dict[str, int]
    trump: str | None = None  # the koz the deal was played with ("S", ...), when known
    taken: int | None = None  # the tricks the side took in the end (None: the deal did not end)
    given: bool = False  # nobody bid: the table's all-pass rule gave the contract at the lowest
    soz: bool = False  # Koz Maça: the seat's own söz (bid), the koz fixed; not an ihale


@dataclass(slots=True)
class DealReview:
    decisions: list[CardDecision] = field(default_factory=list)
    bidding: list[BidWorth] = field(default_factory=list)
    complete: bool = True  # False when the time limit stopped the review early

    def costly(self, limit: int | None = None, seat: int | None = None) -> list[CardDecision]:
        """The decisions that cost tricks (their own side's, or a defender's the defence's),
        most first (then in the order played)."""
        found = [
            d
            for d in self.decisions
            if (d.cost > 0 or d.defence_cost > 0) and (seat is None or d.seat == seat)
        ]
        found.sort(key=lambda d: -max(d.cost, d.defence_cost))
        return found if limit is None else found[:limit]

    def lost(self, seat: int) -> int:
        """Tricks the seat's own cards cost its side over the deal."""
        return sum(d.cost for d in self.decisions if d.seat == seat)

    def given(self, seat: int) -> int:
        """Tricks a defender's cards let the bidder take beyond the defence's best."""
        return sum(d.defence_cost for d in self.decisions if d.seat == seat)


def _replay(game: Game) -> Game:
    return Game(
        game.rules,
        hands=game.initial_hands,
        kitty=game.initial_kitty or None,
        dealer=game.dealer,
    )


def review_deal(
    game: Game,
    *,
    seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DealReview:
    """Review a deal that was played (``game`` holds its history: a finished or stopped deal).

    ``seconds`` bounds the time: the review stops after the decision in progress and says it is
    not complete. ``progress(done, total)`` is called after every card.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    out = DealReview()
    moves = game.history
    g = _replay(game)
    cards_total = sum(1 for m in moves if isinstance(m, Card))
    done = 0
    if progress is not None:  # at once: the bidding's worth comes first and takes a while
        progress(0, cards_total)
    worth_done = False
    for move in moves:
        if not worth_done and g.phase in (Phase.PLAY, Phase.TRUMP):
            out.bidding = _bid_worth(g)
            worth_done = True
        if g.phase is Phase.PLAY and isinstance(move, Card):
            if deadline is not None and time.monotonic() > deadline:
                out.complete = False
                break
            seat = g.to_move
            assert seat is not None
            values = card_values(g, g.rules.team_of(seat))
            best = max(values.values())
            defence = _defence(g, seat)
            d_value = d_best = None
            d_cards: tuple[str, ...] = ()
            if defence:
                d_values = card_values(g, defence)
                d_value, d_best = d_values[move], max(d_values.values())
                d_cards = _in_hand_order(c for c, v in d_values.items() if v == d_best)
            hinted = hint(g.view(seat)).move == str(move)
            out.decisions.append(
                CardDecision(
                    trick=len(g.tricks) + 1,
                    seat=seat,
                    card=str(move),
                    value=values[move],
                    best=best,
                    best_cards=_in_hand_order(c for c, v in values.items() if v == best),
                    defence_value=d_value,
                    defence_best=d_best,
                    defence_best_cards=d_cards,
                    hinted=hinted,
                )
            )
            done += 1
            if progress is not None:
                progress(done, cards_total)
        g.play(move)
    if out.bidding:
        out.bidding = [_with_outcome(b, game) for b in out.bidding]
    return out


def _in_hand_order(cards: Iterable[Card | str]) -> tuple[str, ...]:
    """Cards as a hand shows them (by suit, high cards first): ``J♥ or 2♣``, not ``2♣ or J♥``;
    ``Q♦, J♦ or 10♦``, not ``J♦, Q♦ or 10♦`` (the order of their codes).

    >>> _in_hand_order(["2C", "TD", "JD", "QD", "JH"])
    ('JH', 'QD', 'JD', 'TD', '2C')
    """
    return tuple(str(c) for c in sorted((Card.parse(c) for c in cards), key=Card.sort_key))


def _defence(g: Game, seat: int) -> tuple[int, ...]:
    """The defenders (every seat but the bidder's) when ``seat`` is one of them at a table
    without partners, where each defender's own tricks are not the whole of the defence; else
    nothing (partners already count together; Koz Maça has no bidder)."""
    rules = g.rules
    contract = g.contract
    if rules.partners or rules.bidding == "kozmaca" or contract is None:
        return ()
    if seat == contract.bidder:
        return ()
    return tuple(s for s in range(g.players) if s != contract.bidder)


def _with_outcome(b: BidWorth, game: Game) -> BidWorth:
    """``b`` with the koz the deal was played with and, once it ended, the side's tricks."""
    trump = game.trump.value if game.trump is not None else None
    taken = None
    if game.phase is Phase.OVER:
        side = (b.seat,) if game.rules.bidding == "kozmaca" else game.rules.team_of(b.seat)
        taken = sum(game.tricks_won[s] for s in side)
    return BidWorth(b.seat, b.bid, b.worth, trump, taken, b.given, b.soz)


def _deal_worth(g: Game, side: Iterable[int]) -> int:
    """The side's tricks in the whole deal from the first lead, double dummy, the solve started
    from a greedy play-out's estimate (:func:`.bidsim.first_guess`: fewer probes)."""
    pos = Position.from_game(g, side)
    return solve_position(pos, guess=first_guess(pos))


def _bid_worth(g: Game) -> list[BidWorth]:
    """At the trump choice or the first card: each bidder's side, double dummy, per koz."""
    rules = g.rules
    if rules.bidding == "kozmaca":
        bids = g.bids
        out = []
        for seat in range(g.players):
            tricks = _deal_worth(g, (seat,))
            trump = g.trump.value if g.trump is not None else "S"
            out.append(BidWorth(seat, bids[seat], {trump: tricks}, soz=True))
        return out
    contract = g.contract
    if contract is None:
        return []
    side = rules.team_of(contract.bidder)
    given = g.contract_given
    if g.phase is Phase.PLAY:
        trump = g.trump.value if g.trump is not None else ""
        return [BidWorth(contract.bidder, contract.bid, {trump: _deal_worth(g, side)}, given=given)]
    worth = {}
    for suit in Suit:
        trial = g.copy()
        trial.play(TrumpChoice(suit))
        worth[suit.value] = _deal_worth(trial, side)
    return [BidWorth(contract.bidder, contract.bid, worth, given=given)]


def card_label(card: str) -> str:
    """``TH`` -> ``10♥``: a card as a person reads it."""
    c = Card.parse(card)
    rank = "10" if c.rank.char == "T" else c.rank.char
    return rank + c.suit.symbol


#: sentence -> (its key about another player, its key speaking to the reader)
_KEYS: dict[str, tuple[str, str]] = {
    "worth": ("review.worth", "review.worth_you"),
    "worth_nobid": ("review.worth_nobid", "review.worth_nobid_you"),
    "worth_given": ("review.worth_given", "review.worth_given_you"),
    "worth_soz": ("review.worth_soz", "review.worth_soz_you"),
    "cost_one": ("review.cost_one", "review.cost_one_you"),
    "cost_many": ("review.cost_many", "review.cost_many_you"),
    "gave_one": ("review.gave_one", "review.gave_one_you"),
    "gave_many": ("review.gave_many", "review.gave_many_you"),
    "lost_item": ("review.lost_item", "review.lost_item_you"),
    "both": ("review.both", "review.both_you"),
}


def summary_lines(
    review: DealReview,
    names: Sequence[str],
    lang: str,
    *,
    you: int | None = None,
    limit: int = 5,
    card: Callable[[str], str] = card_label,
) -> list[str]:
    """The review in a few sentences: the bidding's worth, the decisions that cost the most, and
    what each seat's cards cost in all (``names`` by seat; ``you``, the reader's seat, is spoken
    to in the second person)."""

    def key(base: str, seat: int) -> str:
        return _KEYS[base][seat == you]

    out: list[str] = []
    for b in review.bidding:
        # a suit, its figure and the koz mark never part at a line's end (no-break spaces)
        items = ", ".join(
            f"{Suit.parse(s).symbol}\u00a0{n}"
            + (
                "\u00a0" + text("review.koz_mark", lang)
                if s == b.trump and len(b.worth) > 1
                else ""
            )
            for s, n in b.worth.items()
        )
        # a contract nobody bid is not told as the holder's bid ("Burak bid 4" of a pas)
        base = "worth_nobid" if b.bid is None else "worth_given" if b.given else "worth"
        if b.soz and b.bid is not None:  # Koz Maça: a söz, not an ihale, and its one koz
            base, items = "worth_soz", str(sum(b.worth.values()))
        line = text(key(base, b.seat), lang, who=names[b.seat], bid=b.bid, items=items)
        if b.taken is not None:
            line += text("review.taken", lang, n=b.taken)
        out.append(line)
    everything = review.costly()
    # the costliest few, told in the order they were played
    order = {id(d): i for i, d in enumerate(review.decisions)}
    costly = sorted(everything[:limit], key=lambda d: order[id(d)])
    if not costly:
        out.append(text("review.no_loss" if review.complete else "review.no_loss_partial", lang))

    def tricks(n: int) -> str:  # "one trick", "3 tricks"
        return text("review.n_one" if n == 1 else "review.n_many", lang, n=n)

    def more_tricks(n: int) -> str:  # "one more trick", "3 more tricks"
        return text("review.n_more_one" if n == 1 else "review.n_more_many", lang, n=n)

    for d in costly:
        # the card is told by what it cost most: its side's own tricks, or (a defender's) the
        # tricks it let the bidder take; when it cost both, the sentence says both
        both = d.cost > 0 and d.defence_cost > 0  # then the best is named for the defence
        own = d.cost >= d.defence_cost and not both
        # in a hand's order even for a review stored before the cards were ordered so
        shown = [card(c) for c in _in_hand_order(d.best_cards if own else d.defence_best_cards)]
        best = (
            shown[-1]
            if len(shown) == 1
            else (", ".join(shown[:-1]) + text("review.or", lang) + shown[-1])
        )
        said = dict(trick=d.trick, who=names[d.seat], card=card(d.card), best=best)
        if both:
            said.update(lost=tricks(d.cost), gave=more_tricks(d.defence_cost))
            line = text(key("both", d.seat), lang, **said)
        else:
            n = d.cost if own else d.defence_cost
            kind = ("cost" if own else "gave") + ("_one" if n == 1 else "_many")
            line = text(key(kind, d.seat), lang, n=n, **said)
        # the reader's own card that the hint suggests too: the review and the hint the player
        # may have followed do not contradict each other (a computer seat plays the hint's card
        # nearly always, so its lines say nothing of it)
        if d.hinted and d.seat == you:
            line += " " + text("review.hinted", lang)
        out.append(line)
    if len(everything) > len(costly):
        rest = len(everything) - len(costly)
        out.append(text("review.more_one" if rest == 1 else "review.more_many", lang, n=rest))
    # the totals: tricks each seat's cards cost its side, then those defenders gave the bidder
    for total, count in (("review.lost_total", review.lost), ("review.gave_total", review.given)):
        # each count kept with its name ("Oyuncu 3:" / "1" was a line's end and the next)
        parts = [
            "\u00a0".join(text(key("lost_item", s), lang, who=names[s], n=count(s)).rsplit(" ", 1))
            for s in range(len(names))
            if count(s)
        ]
        if parts:
            out.append(text(total, lang, items=", ".join(parts)))
    # the reader's own play, when others' cards cost tricks and none of the reader's did: said,
    # so that "no mistake of yours" is not left to be read from a name missing in the totals
    mine = [d for d in review.decisions if d.seat == you]
    if costly and review.complete and mine and not any(d in everything for d in mine):
        out.append(text("review.you_no_loss", lang))
    if not review.complete:
        out.append(text("review.incomplete", lang))
    return out
