"""``batak serve`` as one of several processes (``--node NAME``, PostgreSQL, optionally Redis).

* :mod:`.owner` — who owns each table: an owner and an owner epoch (the fencing token) in
  PostgreSQL, checked inside every transaction that writes a table's events; node leases renewed
  on PostgreSQL's clock; a survivor's takeover of a dead node's tables (a stable hash of the
  table id picks which survivor); the hand-over at a graceful stop.
* :mod:`.bus` — Redis pub/sub between the processes: a message for a table owned elsewhere is
  forwarded to its owner and the answers come back the same way; the lobby's summaries. Redis
  holds nothing that cannot be rebuilt: every move is in PostgreSQL before it is acknowledged.

Without ``--node`` none of this is imported: one process, as ever. See docs/cluster.md.
"""

from __future__ import annotations

from .owner import Cluster, rendezvous

__all__ = ["Cluster", "rendezvous"]
