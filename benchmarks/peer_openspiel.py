"""Peer benchmark: random full deals of OpenSpiel's ``spades``, driven from Python.

This is the reference point for the ``batak`` engine's own deals-per-second
benchmark: a mature C++ trick-taking engine (OpenSpiel, ``pip install open-spiel``)
called through its pybind11 bindings, one Python call per action, exactly as a
Python bot or simulation loop would drive it.

Game setting (checked against open-spiel 2.0.2)
------------------------------------------------
``pyspiel.load_game("spades")`` with **default parameters**:

* ``use_mercy_rule=True``, ``mercy_threshold=-350``, ``win_threshold=500``,
  ``win_or_loss_bonus=200``: these only add a +/-200 bonus to ``returns()`` when a
  partnership's *cumulative* score (``state.set_current_scores``, 0 by default)
  crosses a threshold. From a fresh 0-0 state a single hand scores within roughly
  [-230, +330], so they never fire; ``is_game_over()`` stays False (the benchmark
  counts it to prove that, see ``"game_over_deals"``).
* ``num_tricks=2``: only the number of past tricks encoded in the observation
  tensor; it does not change the game length and is unused here.

One OpenSpiel spades "game" (``new_initial_state()`` to ``is_terminal()``) is always
exactly ONE deal: 52 chance actions deal the 52 cards (13 each), then 4 bids
(Nil or 1-13, partnership total <= 13), then 13 tricks = 52 card plays. So every
deal is 108 ``apply_action`` calls (56 of them player decisions); there is no
match-to-500 loop to switch off.

Measured
--------
* ``deals`` / ``per_second``: complete random deals in about ``seconds`` of wall
  time. Chance nodes sample ``state.chance_outcomes()`` with a seeded
  ``random.Random``; bids and cards are uniform over ``state.legal_actions()``.
  Each deal ends by reading ``state.returns()``.
* ``actions_per_deal``: mean ``apply_action`` calls per deal, chance deals included
  (``player_actions_per_deal`` counts bids + card plays only).
* ``legal_actions_us``: mean wall time of one ``state.legal_actions()`` call from
  Python (binding overhead and list conversion included) on card-play-phase
  states, averaged over many calls on many states.
"""

from __future__ import annotations

import json
import random
import time
from importlib import metadata
from typing import Any

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

_PLAY_PHASE = 2  # SpadesState.current_phase(): 0 deal, 1 auction, 2 play, 3 game over
_NUM_CARDS = 52


def _require_pyspiel() -> Any:
    if pyspiel is None:
        raise RuntimeError(
            "OpenSpiel is not installed: the spades peer benchmark needs "
            "`pip install open-spiel` (provides the `pyspiel` module)."
        )
    return pyspiel


def _openspiel_version() -> str:
    try:
        return metadata.version("open-spiel")
    except metadata.PackageNotFoundError:  # pragma: no cover - unusual installs
        return str(getattr(pyspiel, "__version__", "unknown"))


def _sample_chance(state: Any, rng: random.Random) -> int:
    """Sample one chance outcome by its probability (inverse CDF)."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, prob in outcomes:
        acc += prob
        if r < acc:
            return int(action)
    return int(outcomes[-1][0])


def _play_deal(game: Any, rng: random.Random) -> tuple[int, int, list[float], bool]:
    """Play one random deal; return (all actions, player actions, returns, game_over)."""
    state = game.new_initial_state()
    n_actions = 0
    n_player = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            n_player += 1
        n_actions += 1
    return n_actions, n_player, state.returns(), bool(state.is_game_over())


def _play_phase_states(game: Any, rng: random.Random, n_states: int) -> list[Any]:
    """Clones of random card-play states between the 2nd and the 12th trick."""
    states: list[Any] = []
    while len(states) < n_states:
        state = game.new_initial_state()
        stop_after = rng.randrange(4, 48)  # cards already played when sampled
        played = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(state, rng))
                continue
            if state.current_phase() == _PLAY_PHASE:
                if played == stop_after:
                    states.append(state.clone())
                    break
                played += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def _legal_actions_us(game: Any, rng: random.Random, n_states: int, reps: int) -> float:
    states = _play_phase_states(game, rng, n_states)
    for s in states:  # sanity: every sampled state really is mid card play
        assert s.current_phase() == _PLAY_PHASE and s.legal_actions()
    total = 0.0
    for s in states:
        legal = s.legal_actions
        t0 = time.perf_counter()
        for _ in range(reps):
            legal()
        total += time.perf_counter() - t0
    return total / (n_states * reps) * 1e6


def spades_deals_per_second(seconds: float = 3.0, seed: int = 0) -> dict[str, Any]:
    """Play random full OpenSpiel spades deals for about ``seconds`` of wall time.

    Returns ``deals``, ``seconds`` (elapsed), ``per_second``, ``peer``,
    ``actions_per_deal`` (chance deals included), ``player_actions_per_deal``,
    ``legal_actions_us`` (mean per call, card-play phase), ``game_params`` and
    ``game_over_deals`` (deals where a match threshold fired; expected 0).
    Raises RuntimeError if ``pyspiel`` is not installed.
    """
    spiel = _require_pyspiel()
    game = spiel.load_game("spades")
    rng = random.Random(seed)

    _play_deal(game, rng)  # warm-up (first-call binding/alloc costs)

    deals = 0
    actions = 0
    player_actions = 0
    game_over = 0
    checksum = 0.0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        n_all, n_player, returns, over = _play_deal(game, rng)
        deals += 1
        actions += n_all
        player_actions += n_player
        game_over += over
        checksum += returns[0]
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start

    legal_us = _legal_actions_us(game, random.Random(seed + 1), n_states=300, reps=1000)

    return {
        "deals": deals,
        "seconds": elapsed,
        "per_second": deals / elapsed,
        "peer": f"open_spiel spades {_openspiel_version()}",
        "actions_per_deal": actions / deals,
        "player_actions_per_deal": player_actions / deals,
        "legal_actions_us": legal_us,
        "game_params": {k: v for k, v in game.get_type().parameter_specification.items()},
        "game_over_deals": game_over,
        "mean_return_p0": checksum / deals,
    }


if __name__ == "__main__":
    print(json.dumps(spades_deals_per_second(), indent=2, default=str))
