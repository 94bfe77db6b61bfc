"""The bot arena: a measuring tool that plays computer players against each other in duplicate.

It sits above :mod:`batak.bots` (it only uses their public interface, plus the all-seeing
reference player it owns) and below the ``batak arena`` command in :mod:`batak.cli.arena`.
See :mod:`batak.arena.runner` for the design.
"""

from __future__ import annotations

from .runner import (
    ALL_SEEING,
    AllSeeingPlayer,
    ArenaConfig,
    ArenaError,
    check_spec,
    fast_solver_available,
    mean_ci,
    percentile,
    play_board,
    report_lines,
    run,
    seat_maps,
    summarize,
    t_quantile,
    write_plot,
)

__all__ = [
    "ALL_SEEING",
    "AllSeeingPlayer",
    "ArenaConfig",
    "ArenaError",
    "check_spec",
    "fast_solver_available",
    "mean_ci",
    "percentile",
    "play_board",
    "report_lines",
    "run",
    "seat_maps",
    "summarize",
    "t_quantile",
    "write_plot",
]
