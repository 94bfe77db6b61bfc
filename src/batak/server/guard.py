"""Abuse limits kept in memory: lockouts after repeated failures, and rates per key.

A :class:`Lockout` counts failures per key (an account name, a player, an address). The first
``free`` failures within ``window`` seconds cost nothing; each one after that locks the key for
``base`` seconds, doubling with every further failure, up to ``cap``. A success does not unlock a
key (an attacker who guesses right once must not reset the count of the next guesses), the
window does: ``window`` seconds with no failure forget the key.

>>> lock = Lockout(free=2, window=600, base=10, cap=60)
>>> [lock.fail("k", 0.0) for _ in range(5)]
[0.0, 0.0, 10.0, 20.0, 40.0]
>>> lock.wait("k", 5.0), lock.wait("k", 45.0), lock.fail("k", 50.0)
(35.0, 0.0, 60.0)
>>> lock.wait("k", 50.0 + 600 + 60)
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

from .conn import Bucket

__all__ = ["KeyedBuckets", "Lockout"]


@dataclass
class _Entry:
    failures: int
    last: float
    until: float


class Lockout:
    """Failures per key with growing lock windows (see the module's text)."""

    def __init__(self, *, free: int, window: float, base: float, cap: float) -> None:
        self.free = free
        self.window = window
        self.base = base
        self.cap = cap
        self._keys: dict[str, _Entry] = {}

    def _entry(self, key: str, now: float) -> _Entry | None:
        e = self._keys.get(key)
        if e is not None and now - e.last > self.window and now >= e.until:
            del self._keys[key]
            return None
        return e

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        e = self._entry(key, now)
        return max(0.0, e.until - now) if e is not None else 0.0

    def fail(self, key: str, now: float) -> float:
        """Count a failure; returns how long the key is now locked (0: not locked)."""
        e = self._entry(key, now)
        if e is None:
            e = self._keys[key] = _Entry(0, now, now)
        e.failures += 1
        e.last = now
        over = e.failures - self.free
        if over > 0:
            e.until = now + min(self.cap, self.base * 2 ** min(over - 1, 30))
        return max(0.0, e.until - now)

    def prune(self, now: float) -> None:
        """Forget keys whose window has passed (called now and then, to bound the memory)."""
        for key in [k for k, e in self._keys.items() if now - e.last > self.window]:
            if now >= self._keys[key].until:
                del self._keys[key]

    def __len__(self) -> int:
        return len(self._keys)


class KeyedBuckets:
    """A token bucket per key: ``rate`` per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, Bucket] = {}

    def take(self, key: str, now: float) -> bool:
        b = self._buckets.get(key)
        if b is None:
            b = self._buckets[key] = Bucket(self.rate, self.burst, now)
        return b.take(now)

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token again."""
        b = self._buckets.get(key)
        if b is None:
            return 0.0
        level = min(self.burst, b.level + (now - b.stamp) * self.rate)
        return 0.0 if level >= 1 else (1 - level) / self.rate

    def prune(self, now: float) -> None:
        """Forget full buckets (a new one starts full: nothing is lost)."""
        full = [
            k
            for k, b in self._buckets.items()
            if b.level + (now - b.stamp) * self.rate >= self.burst
        ]
        for k in full:
            del self._buckets[k]

    def __len__(self) -> int:
        return len(self._buckets)
