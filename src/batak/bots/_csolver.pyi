"""Type stub of the compiled solver (``_csolver.c``); see ``batak.bots.solver``."""

from typing import final

def solve(
    hands: tuple[int, ...],
    trump: int,
    leader: int,
    trick: tuple[int, ...],
    broken: bool,
    side_mask: int,
    flags: int,
    tt_bits: int = 20,
    guess: int = -1,
) -> int:
    """Most tricks the side (seats with their bit set in ``side_mask``) takes from this position
    on, the current trick included, against best play.

    ``flags``: 1 overtake, 2 overtake_after_ruff, 4 overtrump (independent of 1, as in the
    engine), 8 trump_if_cannot_overtrump,
    16 trump leads restricted until broken (and a trump exists), 32 any trump breaks trumps,
    64 no compulsory trump when void (``must_trump`` off).
    The table holds at most ``2**tt_bits`` entries (small positions use fewer).

    ``guess`` (-1 or any negative: none) orders the zero-window probes, never the value: without it
    they bisect 0..tricks left, except from 6 to 12 tricks left where one player plays alone against
    the rest: there the lone player's every trick is the guess (the lone side's first probe asks for
    all the tricks, the other side's for at least one; benchmarks/README.md, session 48), and from
    13 tricks left between two teams of two, where half the tricks (7 of 13) is the guess (session
    49). With it the first asks "at least ``guess`` tricks?" (``guess`` moved within 1..tricks left)
    and each next one steps by one from the bound the last one learnt (MTD(f)). A C ``int``: beyond
    it, OverflowError. One above a good estimate of the value is the guess that pays
    (benchmarks/README.md, session 47)."""

@final
class Solver:
    """One transposition table kept between :meth:`solve` calls (for many related positions).

    Entries stay valid while trump, side_mask, flags and the number of players stay the same;
    a call with other values drops them. One thread at a time (another gets RuntimeError)."""

    def __init__(self, tt_bits: int = 20) -> None: ...
    def solve(
        self,
        hands: tuple[int, ...],
        trump: int,
        leader: int,
        trick: tuple[int, ...],
        broken: bool,
        side_mask: int,
        flags: int,
        max_nodes: int = 0,
        guess: int = -1,
    ) -> int | None:
        """As :func:`solve` (``guess`` too), with this table. ``max_nodes`` (0: no limit): give up
        past that many trick-boundary nodes and return None (what the table learnt so far stays
        true)."""
    def clear(self) -> None:
        """Forget every entry."""
    @property
    def nodes(self) -> int:
        """Trick-boundary nodes searched so far."""
    @property
    def cards(self) -> int:
        """Cards the searches have played so far (every card tried in every trick but the
        last, whose cards are forced): their work, the positions that the bounds settle
        included, where ``nodes`` counts only the trick boundaries searched. A search that
        gave up is not counted."""
