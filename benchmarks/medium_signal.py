"""Medium players whose partners' signal weighs more or less (for tuning it in the arena).

``MediumSignal_L<lead>_D<discard>`` is the medium player that reads the signal as it did up to
session 26 (``signal_read_free=False``: every lead of the suit asked for gets a bonus) with
``Params(signal_lead=lead / 10, signal_discard=discard / 10)``: how much it prefers leading the
suit its partner asked for, and how much it prefers a low card of the suit it wants led for its
own first discard. Session 26's medium is ``MediumSignal_L4_D3``; today's medium reads the signal
only where the lead is free. Run each against ``batak.bots.medium:MediumPlayerNoSignals`` with
``--common-seeds`` and pool the seeds with ``pool_arena.py``::

    PYTHONPATH=benchmarks batak arena --bots medium_signal:MediumSignal_L10_D3,\\
        batak.bots.medium:MediumPlayerNoSignals --preset sultan-esli --seed 2060 --common-seeds
"""

from __future__ import annotations

from typing import Any

from batak.bots.medium import MediumPlayer, Params

LEADS = (2, 4, 10, 20)  # tenths
DISCARDS = (1, 3, 8)


def _variant(lead: int, discard: int) -> type[MediumPlayer]:
    params = Params(signal_lead=lead / 10, signal_discard=discard / 10, signal_read_free=False)

    def __init__(self: MediumPlayer, *, seed: int | None = None, **options: Any) -> None:
        MediumPlayer.__init__(self, seed=seed, params=params, **options)

    name = f"MediumSignal_L{lead}_D{discard}"
    return type(name, (MediumPlayer,), {"__init__": __init__, "name": name, "__module__": __name__})


for _lead in LEADS:
    for _discard in DISCARDS:
        _cls = _variant(_lead, _discard)
        globals()[_cls.__name__] = _cls
