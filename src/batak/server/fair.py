"""Deals anyone can verify (issue 12): a commitment before each deal, its seed after it.

Each table has a secret drawn from :mod:`secrets` when it is made (``TableRow.seed``, never sent).
Deal ``k``'s seed is ``HMAC-SHA256(secret, "TABLE:k")`` in hex: knowing one deal's seed says
nothing about another's, nor about the secret. Before deal ``k`` is played the server publishes
its commitment ``SHA-256("TABLE:SEED")``; when the deal ends it reveals the seed. Anyone can then
check the commitment and recompute the deal (``Game(rules, dealer=…, seed=SEED)``: the engine's
shuffle of the 52 cards with Python's ``random.Random(SEED)``), which ``batak verify RECORD``
does for a whole match. The cards are as unpredictable as the secret, and were fixed (committed)
before anyone could act on them.

>>> s = deal_seed(12345, "t0a1b2c3", 0)
>>> len(s), len(commitment("t0a1b2c3", s)), s == deal_seed(12345, "t0a1b2c3", 1)
(64, 64, False)
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["FAIR_VERSION", "commitment", "deal_seed"]

#: The scheme's number, in a table's ``start`` event (older tables dealt otherwise).
FAIR_VERSION = 1


def deal_seed(secret: int, table_id: str, deal: int) -> str:
    """Deal ``deal``'s seed (from 0) at table ``table_id`` with the table's secret."""
    key = f"batak-deal:{secret}".encode()
    return hmac.new(key, f"{table_id}:{deal}".encode(), hashlib.sha256).hexdigest()


def commitment(table_id: str, seed: str) -> str:
    """What is published before a deal: SHA-256 of ``TABLE:SEED`` in hex."""
    return hashlib.sha256(f"{table_id}:{seed}".encode()).hexdigest()
