"""What one seat may see of a deal (its information set), as JSON-ready data.

This is the only thing bots and clients are given. It holds the seat's own hand and everything
public: the auction, the contract, the cards played, and the exposed partner's hand in açık eşli.
It never holds a card another seat holds unless the rules expose it.

>>> from batak.game import Game
>>> g = Game("standard", seed=1)
>>> v = g.view(2)
>>> sorted(v)[:6]
['auction', 'bids', 'buried', 'contract', 'current_trick', 'dealer']
>>> len(v["hand"]), v["legal_moves"]   # seat 2 is not to move
(13, [])
>>> g.view(None)["hand"]               # a spectator sees no hand
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

__all__ = ["VIEW_VERSION", "kitty_of", "view_of"]

VIEW_VERSION = 1


def view_of(game: Game, seat: int | None, *, with_rules: bool = True) -> dict[str, Any]:
    """What ``seat`` may see of ``game`` (see the module's text); ``with_rules=False`` leaves
    ``rules`` out (for a caller that sends them once)."""
    n = game.players
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1} or None, got {seat!r}")
    contract = game.contract
    exposed = game.exposed_seat
    phase = game.phase.value
    over = phase == "over"
    hand = game.hand_texts(seat) if seat is not None else []
    trick = game.current_trick
    tricks = game.trick_dicts()
    last = tricks[-1] if tricks else None
    view: dict[str, Any] = {
        "version": VIEW_VERSION,
        "seat": seat,
        "rules": game.rules.to_dict() if with_rules else None,
        "players": n,
        "dealer": game.dealer,
        "phase": phase,
        "to_move": game.to_move,
        "hand": hand,
        "hand_sizes": game.hand_sizes,
        "auction": [{"seat": s, "move": str(m)} for s, m in game.auction],
        "bids": game.bids if game.rules.bidding == "kozmaca" else None,
        "contract": (
            {
                "bidder": contract.bidder,
                "bid": contract.bid,
                "trump": contract.trump.value if contract.trump else None,
            }
            if contract
            else None
        ),
        "trump": game.trump.value if game.trump else None,
        "trumps_broken": game.trumps_broken,
        "tricks": tricks,
        # the last complete trick (a match's view may show the previous deal's: Match.view),
        # as Trick.to_dict gives it: a copy of the last of ``tricks``, shares nothing with it
        "last_trick": (
            {"leader": last["leader"], "cards": list(last["cards"]), "winner": last["winner"]}
            if last is not None
            else None
        ),
        "current_trick": {
            "leader": trick[0][0] if trick else game.to_move,
            "cards": [str(c) for _, c in trick],
        },
        "tricks_won": game.tricks_won,
        "exposed": (
            {"seat": exposed, "cards": game.hand_texts(exposed)}
            if exposed is not None and not over
            else None
        ),
        "kitty_size": game.rules.kitty_size,
        "buried": (
            [str(c) for c in game.buried]
            if contract is not None and seat == contract.bidder
            else None
        ),
        # kitty batak: the kitty's cards, to the bidder only and once taken (the web client
        # shows them as they join the hand); None for everyone else and before
        "kitty": kitty_of(game, seat),
        "legal_moves": (
            [str(m) for m in game.legal_moves()]
            if seat is not None and seat == game.to_move
            else []
        ),
        "redeal": game.redeal,
        "scores": game.scores,
    }
    if not with_rules:
        del view["rules"]
    return view


def kitty_of(game: Game, seat: int | None) -> list[str] | None:
    """Kitty batak: the kitty's cards, for the bidder once taken; None for everyone else."""
    r = game.rules
    if not r.kitty_size or seat is None:
        return None
    contract = game.contract
    if contract is None or seat != contract.bidder:
        return None
    if r.kitty_order == "bury_take_trump" and len(game.buried) < r.kitty_size:
        return None  # this bidder buries first and sees the kitty only then
    return [str(c) for c in game.initial_kitty]
