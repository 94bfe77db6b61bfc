"""A player's own data, as one JSON document: what the web's "Download my data", the protocol's
``my_data`` and ``batak admin export USERNAME`` give (a player's right to see what a server
keeps about them; :mod:`batak.server.erase` is the right to have it deleted).

Everything stored under the player's id, and nothing of anyone else's: the account (never its
password hash or session tokens: when each session began and was last used), each finished
match's own result, the chips ledger's rows of the player's wallet, XP, rating and league rows,
the story progress, and the chat lines the player wrote. The games' records themselves are
public to their players and are linked by table id (``/api/tables/ID/record``), not copied.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from .chips import player_account
from .erase import Row, Run, walk_events

__all__ = ["FORMAT", "export"]

#: the document's ``format``: a program reading an export checks it
FORMAT = "batak-player-data/1"


def _when(t: Any) -> str | None:
    """A stored time (seconds since 1970) as UTC ISO 8601, or None."""
    if t is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(float(t)))


async def export(run: Run, q: Callable[[str], str], player_id: str) -> dict[str, Any] | None:
    """``player_id``'s data (``run``: ``Storage.run``, ``q``: ``Storage.q``); None if there is
    no such player. The chat lines are read from the events a part at a time
    (:func:`~batak.server.erase.walk_events`), the rest in one transaction."""
    doc: dict[str, Any] | None = await run(_export_job(q, player_id))
    if doc is None:
        return None

    def visit(cur: Any, rows: list[Row]) -> list[tuple[float, str, str]]:
        lines = []
        for table_id, _, kind, data, at in rows:
            if kind == "chat" and player_id in data:
                line = json.loads(data)
                if line.get("player") == player_id and not line.get("removed"):
                    lines.append((float(at), str(table_id), str(line.get("text"))))
        return lines

    said = sorted(line for part in await walk_events(run, q, visit) for line in part)
    doc["chat"] = [{"table": t, "at": _when(at), "text": text} for at, t, text in said]
    return doc


def _export_job(q: Callable[[str], str], player_id: str) -> Callable[[Any], dict[str, Any] | None]:
    """The storage job of :func:`export`: all but the chat lines."""

    def rows(cur: Any, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        cur.execute(q(sql), args)
        return [tuple(r) for r in cur.fetchall()]

    def named(cur: Any, keys: tuple[str, ...], sql: str) -> list[dict[str, Any]]:
        """The player's rows of ``sql`` (its one ``?`` is the player), each by ``keys``."""
        return [dict(zip(keys, r, strict=True)) for r in rows(cur, sql, player_id)]

    def job(cur: Any) -> dict[str, Any] | None:
        found = rows(
            cur,
            "SELECT name, username, created, is_bot, banned, ban_reason, seen"
            " FROM players WHERE id = ?",
            player_id,
        )
        if not found:
            return None
        name, username, created, is_bot, banned, ban_reason, seen = found[0]
        doc: dict[str, Any] = {
            "format": FORMAT,
            "made": _when(time.time()),
            "player": {
                "id": player_id,
                "name": name,
                "username": username,
                "joined": _when(created),
                "bot_account": bool(is_bot),
                "banned": _when(banned),
                "ban_reason": ban_reason,
                "ended_sessions_last_used": _when(seen),
            },
        }
        doc["sessions"] = [
            {"began": _when(c), "last_used": _when(u)}
            for c, u in rows(
                cur,
                "SELECT created, used FROM sessions WHERE player_id = ? ORDER BY created",
                player_id,
            )
        ]
        doc["matches"] = [
            {
                "table": t,
                "finished": _when(f),
                "seat": seat,
                "won": bool(won),
                "score": score,
                "deals": deals,
                "contracts": contracts,
                "made": made,
            }
            for t, seat, won, contracts, made, deals, score, f in rows(
                cur,
                "SELECT table_id, seat, won, contracts, made, deals, score, finished FROM results"
                " WHERE player_id = ? ORDER BY finished",
                player_id,
            )
        ]
        wallet = player_account(player_id)
        balance = rows(cur, "SELECT balance, vip FROM chip_accounts WHERE account = ?", wallet)
        doc["chips"] = {
            "balance": int(balance[0][0]) if balance else 0,
            "vip": bool(balance[0][1]) if balance else False,
            "ledger": [
                {"at": _when(at), "amount": int(amount), "kind": kind, "table": table}
                for amount, kind, table, at in rows(
                    cur,
                    "SELECT amount, kind, table_id, at FROM ledger WHERE account = ?"
                    " ORDER BY at, txn, leg",
                    wallet,
                )
            ],
        }
        progress = named(
            cur,
            ("xp", "mu", "sigma", "rated_matches", "tier"),
            "SELECT xp, mu, sigma, rated, tier FROM progress WHERE player_id = ?",
        )
        doc["progress"] = progress[0] if progress else None
        doc["awards"] = named(
            cur,
            ("table", "xp", "mu", "sigma", "week", "league_points"),
            "SELECT table_id, xp, mu, sigma, week, points FROM awards WHERE player_id = ?"
            " ORDER BY at",
        )
        doc["league"] = named(
            cur,
            ("week", "tier", "group", "points", "matches", "place"),
            "SELECT week, tier, grp, points, matches, place FROM league WHERE player_id = ?"
            " ORDER BY week",
        )
        story = rows(cur, "SELECT data FROM story_progress WHERE player_id = ?", player_id)
        doc["story"] = json.loads(story[0][0]) if story else None
        return doc

    return job
