"""Reasons to come back: XP and levels, a skill rating, and a weekly league.

Every finished match is *awarded* once, in the same database transaction that stores the match
(:meth:`Progress.award_job` runs inside :meth:`Storage.finish_table`), so a match counts exactly
once even if its finishing is retried after a failed write.

**XP and levels.** Each person at the table (a guest too: a guest who later registers keeps it)
earns ``XP_FINISH`` for the finished match, ``XP_DEAL`` per deal played, ``XP_MADE`` per made
contract (their own bid in solo, their team's when they were the bidder in eşli) and ``XP_WIN``
for a won match; a person who made fewer than half of their seat's moves themselves (the
clock and computer players made the rest: ``Sitter.moved``) earns none, nor league points.
Level ``n`` starts at ``50·n·(n−1)`` XP (level 2 at 100, 3 at 300, 4 at 600…).

>>> [level_of(x) for x in (0, 99, 100, 299, 300, 600)]
[1, 1, 2, 2, 3, 4]
>>> match_xp({"won": True, "made": 2, "deals": 3})
51

**Skill rating** (OpenSkill, Plackett–Luce): every unit of the match — a seat in solo, a pair
in eşli — is ranked (the winners first, then by their total score) and the ratings move
together. Rated: players with an account (bot accounts too; they are kept off the rated
leaderboard and the league). The server's own bots are rated per level (``bot:easy`` …), so a
win against easy bots is worth less than one against hard ones. Guests play with a fresh
rating that is not kept. A rating is shown as its *ordinal* (``μ − 3σ``, a conservative
estimate; 0 for a new player) with its uncertainty (``± 3σ``).

**Weekly league.** Weeks run Monday 00:00 to Monday 00:00 UTC by the server's wall clock
(:class:`WallClock`, injectable). A player with an account (not a bot account) joins the week's
league with their first finished match: into their tier (the one they reached, or at the first
time the tier of their level: :func:`tier_for_level`) and a group of at most
``GROUP_SIZE`` of that tier. League points are the XP earned that week. When the week closes,
in each group of two or more, the best ``k = max(1, n // 5)`` go up a tier (not from the top
one) and, in a group of three or more, the last ``k`` go down (not from the bottom one).

>>> week_label(week_of(1_796_256_000.0))  # 2026-12-02, a Wednesday
'2026-W49'
"""

from __future__ import annotations

import datetime
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from openskill.models import PlackettLuce

from .storage import Storage

if TYPE_CHECKING:
    from ..match import Match

__all__ = [
    "TIERS",
    "Progress",
    "SystemWallClock",
    "WallClock",
    "level_of",
    "match_xp",
    "tier_for_level",
    "week_of",
]

log = logging.getLogger("batak.server")

XP_FINISH = 10
XP_DEAL = 2
XP_MADE = 5
XP_WIN = 25
#: League tiers, lowest first (their names are in the catalog: ``web.tier_<name>``).
TIERS = ("bronze", "silver", "gold", "platinum", "diamond")
#: Levels per tier when a player first joins a league (levels 1–5 bronze, 6–10 silver…).
LEVELS_PER_TIER = 5
GROUP_SIZE = 20
WEEK = 7 * 24 * 3600
#: Monday 1970-01-05 00:00 UTC: weeks are counted from it.
EPOCH_MONDAY = 4 * 24 * 3600
#: Prefix of the ids under which the server's bots are rated, one per level.
BOT_PREFIX = "bot:"
_MODEL = PlackettLuce()


class WallClock(Protocol):
    """The date and time (seconds since 1970, UTC) the league's weeks are read from."""

    def now(self) -> float: ...


class SystemWallClock:
    def now(self) -> float:
        return time.time()


def level_of(xp: int) -> int:
    """The level reached with ``xp`` (level n from 50·n·(n−1) XP)."""
    n = int((1 + math.sqrt(1 + max(0, xp) / 12.5)) / 2)
    while 50 * (n + 1) * n <= xp:
        n += 1
    while n > 1 and 50 * n * (n - 1) > xp:
        n -= 1
    return max(1, n)


def level_floor(level: int) -> int:
    return 50 * level * (level - 1)


def match_xp(result: dict[str, Any]) -> int:
    return (
        XP_FINISH
        + XP_DEAL * int(result["deals"])
        + XP_MADE * int(result["made"])
        + (XP_WIN if result["won"] else 0)
    )


def tier_for_level(level: int) -> int:
    return min(len(TIERS) - 1, (max(1, level) - 1) // LEVELS_PER_TIER)


def week_of(t: float) -> int:
    return int((t - EPOCH_MONDAY) // WEEK)


def week_start(week: int) -> float:
    return float(EPOCH_MONDAY + week * WEEK)


def week_label(week: int) -> str:
    """ISO 8601 name of a week (``2026-W49``)."""
    iso = datetime.datetime.fromtimestamp(week_start(week), datetime.UTC).isocalendar()
    return f"{iso[0]}-W{iso[1]:02d}"


def rating_info(mu: float, sigma: float) -> dict[str, float]:
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(mu - 3 * sigma, 2),
        "spread": round(3 * sigma, 2),
    }


#: A person's XP total after one of their awards, as the sum of their awards up to it (in the
#: order of their times, then of their tables' ids): for the awards stored before the total
#: was stored with each (storage migration 11 fills theirs with it)
XP_UP_TO = (
    "SELECT COALESCE(SUM(xp), 0) FROM awards WHERE player_id = ?"
    " AND (at < ? OR (at = ? AND table_id <= ?))"
)


def award_fields(
    gained: int,
    xp: int,
    place: int | None,
    won: bool,
    *,
    ratings: tuple[float, float, float, float] | None = None,
    league: tuple[int, int, int] | None = None,
) -> dict[str, Any]:
    """What a person got from a finished match: the ``awarded`` message's fields (without
    ``type`` and ``table``), made here both for the message and for a ``sync`` that reads them
    back from storage. ``xp``: their XP total after the match; ``ratings``: ``(mu, sigma)``
    before, then after; ``league``: the week, the tier's index and the week's points. No XP
    gained means an idle seat (a finished match earns at least ``XP_FINISH``).

    >>> award_fields(0, 120, 2, False)
    {'xp_gained': 0, 'xp': 120, 'level': 2, 'level_before': 2, 'place': 2, 'won': False, \
'idle': True}
    """
    info: dict[str, Any] = {
        "xp_gained": gained,
        "xp": xp,
        "level": level_of(xp),
        "level_before": level_of(xp - gained),
        "place": place,
        "won": won,
    }
    if gained == 0:
        info["idle"] = True  # most moves were the clock's or a computer player's
    if ratings is not None:
        mu_b, sg_b, mu_a, sg_a = ratings
        info["rating_before"] = rating_info(mu_b, sg_b)
        info["rating"] = rating_info(mu_a, sg_a)
    if league is not None:
        week, tier, points = league
        info["league"] = {
            "week": week_label(week),
            "tier": TIERS[tier],
            "points": points,
            "points_gained": gained,
        }
    return info


def ranks_of(match: Match) -> dict[int, int]:
    """Each seat's place (1 = won; ties share a place): the winners, then by total score."""
    units = list(match.rules.teams)
    won = [u for u in units if u[0] in match.winners]
    out: dict[int, int] = {}
    for u in units:
        if u in won:
            place = 1
        else:
            better = sum(
                1 for o in units if o not in won and match.totals[o[0]] > match.totals[u[0]]
            )
            place = 1 + len(won) + better
        for s in u:
            out[s] = place
    return out


@dataclass
class Sitter:
    """One seat of a finished match as the award sees it."""

    seat: int
    player: str | None  # a person's id, or None for one of the server's bots
    bot_level: str | None  # the level of the server's bot sitting there
    result: dict[str, Any] | None  # the person's result (table._result)
    #: the person made at least half of their seat's moves themselves (not the clock, not a
    #: computer player): one who did not earns no XP and no league points (an idle seat, or one
    #: move and then idling, is no way to climb)
    moved: bool = True


class Progress:
    """XP, ratings and the league of one server (see the module's text)."""

    def __init__(self, storage: Storage, wall: WallClock | None = None) -> None:
        self.storage = storage
        self.wall: WallClock = wall or SystemWallClock()

    def _sql(self, text: str) -> str:
        return self.storage._sql(text)

    # ------------------------------------------------------------------ awarding a match
    def award_job(
        self, table_id: str, match: Match, sitters: Sequence[Sitter]
    ) -> Callable[[Any], dict[str, dict[str, Any]]]:
        """The database job that awards a finished match (run in the transaction that stores
        it); returns, per person, what they got (the ``awarded`` message's fields)."""
        now = self.wall.now()
        ranks = ranks_of(match)
        units = list(match.rules.teams)

        def job(cur: Any) -> dict[str, dict[str, Any]]:
            people = [s for s in sitters if s.player is not None and s.result is not None]
            if not people:
                return {}
            cur.execute(self._sql("SELECT COUNT(*) FROM awards WHERE table_id = ?"), (table_id,))
            if int(cur.fetchone()[0]):
                return {}  # awarded already (a retried finish)
            self._close_weeks(cur, now)
            accounts = self._accounts(cur, [str(s.player) for s in people])
            before = {p: self._progress_row(cur, p) for p in (str(s.player) for s in people)}
            for pid, row in before.items():
                if row is None:
                    cur.execute(
                        self._sql("INSERT INTO progress (player_id, xp, rated) VALUES (?, 0, 0)"),
                        (pid,),
                    )
            # ratings: every unit with everyone in it; the rated ones are written back
            rated_ids: dict[int, str] = {}  # seat -> id whose rating is kept
            for s in sitters:
                if s.player is not None and s.player in accounts:
                    rated_ids[s.seat] = s.player
                elif s.player is None and s.bot_level:
                    rated_ids[s.seat] = BOT_PREFIX + s.bot_level
            rated = any(s.player in accounts for s in people)
            new_ratings: dict[int, tuple[float, float]] = {}
            old_ratings: dict[int, tuple[float, float]] = {}
            if rated:
                for s in sitters:
                    rid = rated_ids.get(s.seat)
                    mu, sigma = (_MODEL.mu, _MODEL.sigma)
                    if rid is not None:
                        row = before.get(rid) or self._progress_row(cur, rid)
                        if row is not None and row["mu"] is not None:
                            mu, sigma = row["mu"], row["sigma"]
                    old_ratings[s.seat] = (mu, sigma)
                by_seat = {s.seat: s for s in sitters}
                teams = [
                    [_MODEL.rating(mu=old_ratings[x][0], sigma=old_ratings[x][1]) for x in u]
                    for u in units
                    if all(x in by_seat for x in u)
                ]
                kept_units = [u for u in units if all(x in by_seat for x in u)]
                out = _MODEL.rate(teams, ranks=[ranks[u[0]] for u in kept_units])
                for u, team in zip(kept_units, out, strict=True):
                    for x, r in zip(u, team, strict=True):
                        new_ratings[x] = (float(r.mu), float(r.sigma))
                for seat, rid in rated_ids.items():
                    self._save_rating(cur, rid, *new_ratings[seat])
            week = week_of(now)
            awarded: dict[str, dict[str, Any]] = {}
            for s in people:
                pid = str(s.player)
                assert s.result is not None
                gained = match_xp(s.result) if s.moved else 0
                old = before[pid]
                xp_before = old["xp"] if old else 0
                xp = xp_before + gained
                cur.execute(self._sql("UPDATE progress SET xp = ? WHERE player_id = ?"), (xp, pid))
                mu_b = sg_b = mu_a = sg_a = None
                ratings = None
                if pid in accounts and s.seat in new_ratings:
                    mu_b, sg_b = old_ratings[s.seat]
                    mu_a, sg_a = new_ratings[s.seat]
                    ratings = (mu_b, sg_b, mu_a, sg_a)
                points = None
                league = None
                if pid in accounts and not accounts[pid] and s.moved:  # an account, not a bot
                    lg = self._join_week(cur, pid, week, level_of(xp_before))
                    points = lg["points"] + gained
                    cur.execute(
                        self._sql(
                            "UPDATE league SET points = ?, matches = matches + 1, updated = ?"
                            " WHERE week = ? AND player_id = ?"
                        ),
                        (points, now, week, pid),
                    )
                    league = (week, int(lg["tier"]), points)
                info = award_fields(
                    gained, xp, ranks[s.seat], bool(s.result["won"]), ratings=ratings, league=league
                )
                # with the XP total after it, as the message says it (award_of reads it back)
                cur.execute(
                    self._sql(
                        "INSERT INTO awards (table_id, player_id, seat, xp, mu_before,"
                        " sigma_before, mu, sigma, week, points, at, xp_total)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    ),
                    (table_id, pid, s.seat, gained, mu_b, sg_b, mu_a, sg_a, week, points, now, xp),
                )
                awarded[pid] = info
            return awarded

        return job

    def _accounts(self, cur: Any, ids: list[str]) -> dict[str, bool]:
        """Which of ``ids`` have an account (and whether it is a bot account)."""
        out: dict[str, bool] = {}
        sql = self._sql("SELECT username, is_bot FROM players WHERE id = ?")
        for pid in ids:
            cur.execute(sql, (pid,))
            r = cur.fetchone()
            if r is not None and r[0] is not None:
                out[pid] = bool(r[1])
        return out

    def _progress_row(self, cur: Any, pid: str) -> dict[str, Any] | None:
        cur.execute(
            self._sql("SELECT xp, mu, sigma, rated, tier FROM progress WHERE player_id = ?"),
            (pid,),
        )
        r = cur.fetchone()
        if r is None:
            return None
        return {"xp": int(r[0]), "mu": r[1], "sigma": r[2], "rated": int(r[3]), "tier": r[4]}

    def _save_rating(self, cur: Any, rid: str, mu: float, sigma: float) -> None:
        cur.execute(
            self._sql(
                "UPDATE progress SET mu = ?, sigma = ?, rated = rated + 1 WHERE player_id = ?"
            ),
            (mu, sigma, rid),
        )
        if cur.rowcount == 0:
            cur.execute(
                self._sql(
                    "INSERT INTO progress (player_id, xp, mu, sigma, rated) VALUES (?, 0, ?, ?, 1)"
                ),
                (rid, mu, sigma),
            )

    # ------------------------------------------------------------------ the league
    def _join_week(self, cur: Any, pid: str, week: int, level: int) -> dict[str, Any]:
        """The player's row in ``week``'s league, made (tier and group) if they had none."""
        cur.execute(
            self._sql("SELECT tier, grp, points FROM league WHERE week = ? AND player_id = ?"),
            (week, pid),
        )
        r = cur.fetchone()
        if r is not None:
            return {"tier": int(r[0]), "group": int(r[1]), "points": int(r[2])}
        row = self._progress_row(cur, pid)
        tier = row["tier"] if row is not None and row["tier"] is not None else None
        if tier is None:
            tier = tier_for_level(level)
            cur.execute(self._sql("UPDATE progress SET tier = ? WHERE player_id = ?"), (tier, pid))
        cur.execute(
            self._sql(
                "SELECT grp, COUNT(*) FROM league WHERE week = ? AND tier = ?"
                " GROUP BY grp ORDER BY grp"
            ),
            (week, tier),
        )
        groups = [(int(g), int(n)) for g, n in cur.fetchall()]
        free = [g for g, n in groups if n < GROUP_SIZE]
        grp = free[0] if free else (groups[-1][0] + 1 if groups else 1)
        cur.execute(
            self._sql(
                "INSERT INTO league (week, player_id, tier, grp, points, matches, updated)"
                " VALUES (?, ?, ?, ?, 0, 0, ?)"
            ),
            (week, pid, tier, grp, self.wall.now()),
        )
        return {"tier": tier, "group": grp, "points": 0}

    def _close_weeks(self, cur: Any, now: float) -> list[int]:
        """Close every week before ``now``'s that has a league and is not closed yet."""
        current = week_of(now)
        cur.execute(
            self._sql(
                "SELECT DISTINCT week FROM league WHERE week < ? AND week NOT IN"
                " (SELECT week FROM league_weeks) ORDER BY week"
            ),
            (current,),
        )
        weeks = [int(r[0]) for r in cur.fetchall()]
        for week in weeks:
            self._close_week(cur, week, now)
        return weeks

    def _close_week(self, cur: Any, week: int, now: float) -> None:
        cur.execute(
            # a banned player is left out: their place goes to the others (and stays theirs
            # in the league table, placed nowhere, if they are unbanned)
            self._sql(
                "SELECT l.player_id, l.tier, l.grp, l.points, l.updated FROM league l"
                " JOIN players p ON p.id = l.player_id WHERE l.week = ? AND p.banned IS NULL"
            ),
            (week,),
        )
        groups: dict[tuple[int, int], list[tuple[str, int, float]]] = {}
        for pid, tier, grp, points, updated in cur.fetchall():
            groups.setdefault((int(tier), int(grp)), []).append(
                (str(pid), int(points), float(updated))
            )
        top = len(TIERS) - 1
        for (tier, _grp), members in groups.items():
            # most points first; on a tie, who reached them first
            members.sort(key=lambda m: (-m[1], m[2], m[0]))
            n = len(members)
            k = max(1, n // 5)
            for place, (pid, _points, _) in enumerate(members, start=1):
                outcome = "stay"
                if n >= 2 and place <= k and tier < top:
                    outcome = "up"
                elif n >= 3 and place > n - k and tier > 0:
                    outcome = "down"
                new_tier = tier + (outcome == "up") - (outcome == "down")
                cur.execute(
                    self._sql(
                        "UPDATE league SET place = ?, outcome = ? WHERE week = ? AND player_id = ?"
                    ),
                    (place, outcome, week, pid),
                )
                cur.execute(
                    self._sql("UPDATE progress SET tier = ? WHERE player_id = ?"),
                    (new_tier, pid),
                )
        cur.execute(self._sql("INSERT INTO league_weeks (week, closed) VALUES (?, ?)"), (week, now))

    async def close_weeks(self) -> list[int]:
        """Close the weeks that are over (the server does it at matches, at league requests
        and on its reaper's rounds); returns the weeks closed."""
        now = self.wall.now()
        return await self.storage._call(lambda cur: self._close_weeks(cur, now))

    async def league(self, pid: str) -> dict[str, Any]:
        """The ``league`` reply for a player: the week, their tier and group's standings, and
        how their last closed week ended."""
        now = self.wall.now()
        week = week_of(now)

        def job(cur: Any) -> dict[str, Any]:
            self._close_weeks(cur, now)
            out: dict[str, Any] = {
                "type": "league",
                "week": week_label(week),
                "ends": week_start(week + 1),
                "seconds_left": round(week_start(week + 1) - now),
                "tiers": list(TIERS),
                "group_size": GROUP_SIZE,
            }
            accounts = self._accounts(cur, [pid])
            if pid not in accounts or accounts[pid]:
                out["eligible"] = False
                out["standings"] = []
                return out
            out["eligible"] = True
            row = self._progress_row(cur, pid)
            xp = row["xp"] if row else 0
            tier = row["tier"] if row and row["tier"] is not None else tier_for_level(level_of(xp))
            out["tier"] = TIERS[tier]
            cur.execute(
                self._sql("SELECT tier, grp FROM league WHERE week = ? AND player_id = ?"),
                (week, pid),
            )
            r = cur.fetchone()
            out["joined"] = r is not None
            out["standings"] = (
                self._standings(cur, week, int(r[0]), int(r[1]), now) if r is not None else []
            )
            cur.execute(
                self._sql(
                    "SELECT week, tier, place, outcome, points FROM league"
                    " WHERE player_id = ? AND outcome IS NOT NULL ORDER BY week DESC LIMIT 1"
                ),
                (pid,),
            )
            last = cur.fetchone()
            out["last"] = (
                {
                    "week": week_label(int(last[0])),
                    "tier": TIERS[int(last[1])],
                    "place": int(last[2]),
                    "outcome": last[3],
                    "points": int(last[4]),
                }
                if last is not None
                else None
            )
            return out

        return await self.storage._call(job)

    def _standings(
        self, cur: Any, week: int, tier: int, grp: int, now: float
    ) -> list[dict[str, Any]]:
        cur.execute(
            self._sql(
                "SELECT l.player_id, p.name, l.points, l.matches, l.updated, g.xp FROM league l"
                " JOIN players p ON p.id = l.player_id"
                " LEFT JOIN progress g ON g.player_id = l.player_id"
                " WHERE l.week = ? AND l.tier = ? AND l.grp = ? AND p.banned IS NULL"
            ),
            (week, tier, grp),
        )
        rows = sorted(cur.fetchall(), key=lambda r: (-int(r[2]), float(r[4]), str(r[0])))
        n = len(rows)
        k = max(1, n // 5)
        top = len(TIERS) - 1
        out = []
        for place, r in enumerate(rows, start=1):
            zone = "stay"
            if n >= 2 and place <= k and tier < top:
                zone = "up"
            elif n >= 3 and place > n - k and tier > 0:
                zone = "down"
            out.append(
                {
                    "place": place,
                    "player": r[0],
                    "name": r[1],
                    "points": int(r[2]),
                    "matches": int(r[3]),
                    "level": level_of(int(r[5] or 0)),
                    "zone": zone,
                }
            )
        return out

    # ------------------------------------------------------------------ reading
    async def award_of(self, table_id: str, match: Match, pid: str) -> dict[str, Any] | None:
        """What ``pid`` got from the finished match at ``table_id``, rebuilt from what was
        stored when it was awarded: the ``awarded`` message's fields (without ``type`` and
        ``table``), for a ``sync`` of the finished table after a reload; None when nothing was
        awarded (yet). The XP total after the match is the one stored with the award (storage
        migration 11; for an award stored without it, by a process of an older version, the
        sum of the person's awards up to it, in the order of their times, then of their
        tables' ids); the league's tier is the one of that week's row, which stays for the
        week."""

        def job(cur: Any) -> dict[str, Any] | None:
            cur.execute(
                self._sql(
                    "SELECT seat, xp, mu_before, sigma_before, mu, sigma, week, points, at,"
                    " xp_total FROM awards WHERE table_id = ? AND player_id = ?"
                ),
                (table_id, pid),
            )
            r = cur.fetchone()
            if r is None:
                return None
            seat, gained, mu_b, sg_b, mu_a, sg_a, week, points, at, xp = r
            gained = int(gained)
            if xp is None:
                cur.execute(self._sql(XP_UP_TO), (pid, at, at, table_id))
                xp = cur.fetchone()[0]
            seat = int(seat)
            ratings = None
            if mu_b is not None and mu_a is not None:
                ratings = (float(mu_b), float(sg_b), float(mu_a), float(sg_a))
            league = None
            if points is not None:
                cur.execute(
                    self._sql("SELECT tier FROM league WHERE week = ? AND player_id = ?"),
                    (int(week), pid),
                )
                t = cur.fetchone()
                if t is not None:
                    league = (int(week), int(t[0]), int(points))
            return award_fields(
                gained,
                int(xp),
                ranks_of(match).get(seat),
                seat in match.winners,
                ratings=ratings,
                league=league,
            )

        return await self.storage._call(job)

    async def of(self, pid: str) -> dict[str, Any]:
        """A player's XP, level and rating (the ``progress`` reply's ``progress``)."""

        now = self.wall.now()

        def job(cur: Any) -> dict[str, Any]:
            self._close_weeks(cur, now)
            row = self._progress_row(cur, pid)
            accounts = self._accounts(cur, [pid])
            return self._public(pid, row, pid in accounts, accounts.get(pid, False))

        return await self.storage._call(job)

    @staticmethod
    def _public(pid: str, row: dict[str, Any] | None, account: bool, bot: bool) -> dict[str, Any]:
        xp = row["xp"] if row else 0
        level = level_of(xp)
        out: dict[str, Any] = {
            "player": pid,
            "xp": xp,
            "level": level,
            "level_xp": level_floor(level),
            "next_level_xp": level_floor(level + 1),
            "rated": account,
            "bot_account": bot,
            "rating": None,
            "rated_matches": row["rated"] if row else 0,
            "tier": None,
        }
        if account and row is not None and row["mu"] is not None:
            out["rating"] = rating_info(row["mu"], row["sigma"])
        elif account:
            out["rating"] = rating_info(_MODEL.mu, _MODEL.sigma)
        if account and not bot:
            tier = row["tier"] if row and row["tier"] is not None else tier_for_level(level)
            out["tier"] = TIERS[tier]
        return out

    async def levels(self, ids: Sequence[str]) -> dict[str, int]:
        """Levels of some players (those with no XP yet are level 1)."""
        wanted = list(dict.fromkeys(ids))

        def job(cur: Any) -> dict[str, int]:
            out = {}
            sql = self._sql("SELECT xp FROM progress WHERE player_id = ?")
            for pid in wanted:
                cur.execute(sql, (pid,))
                r = cur.fetchone()
                out[pid] = level_of(int(r[0]) if r else 0)
            return out

        return await self.storage._call(job)

    async def ratings(self, limit: int = 50) -> list[dict[str, Any]]:
        """The rated leaderboard: players with an account (not bot or banned ones) who played a
        rated match, by ordinal (μ − 3σ), best first."""
        sql = self._sql(
            "SELECT g.player_id, p.name, p.username, g.mu, g.sigma, g.rated, g.xp"
            " FROM progress g JOIN players p ON p.id = g.player_id"
            " WHERE p.username IS NOT NULL AND p.is_bot = 0 AND p.banned IS NULL"
            " AND g.mu IS NOT NULL AND g.rated > 0"
            " ORDER BY g.mu - 3 * g.sigma DESC, g.rated DESC, g.player_id"
            " LIMIT ?"
        )

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(sql, (limit,))
            return [
                {
                    "rank": i,
                    "player": r[0],
                    "name": r[1],
                    "username": r[2],
                    "level": level_of(int(r[6])),
                    "rating": rating_info(float(r[3]), float(r[4])),
                    "matches": int(r[5]),
                }
                for i, r in enumerate(cur.fetchall(), start=1)
            ]

        return await self.storage._call(job)
