"""``batak verify RECORD``: check a server's record of a match against the commitments the
server published before each deal, and recompute every deal from its revealed seed.

RECORD is a file or the record's address (``/api/tables/ID/record``, with ``?key=…`` for a
private room). For each deal: SHA-256 of ``TABLE:SEED`` must be the commitment, and the engine's
shuffle with that seed must give exactly the hands (and kitty) in the record. Compare the
commitments printed here with the ones your client showed during the match (``batak online``
says each one; the web client's score sheet lists them). Exit code 0 if every deal checks.
"""

from __future__ import annotations

import argparse
import json
import urllib.request
from typing import Any

from ..cards import format_cards
from ..game import Game
from ..i18n import LANGS
from ..rules import Rules, RulesError
from .text import t

__all__ = ["add_verify_parser", "run_verify", "verify_record"]


def add_verify_parser(sub: Any, lang: str) -> None:
    p = sub.add_parser("verify", help=t("help_verify", lang), description=t("help_verify", lang))
    p.add_argument("record", metavar="RECORD", help=t("help_verify_record", lang))
    p.add_argument("--lang", choices=LANGS, default=None, help=t("help_lang", lang))


def verify_record(rec: dict[str, Any]) -> list[tuple[int, str, bool, bool]]:
    """For each deal: (deal number, its commitment, commitment checks, cards check)."""
    from ..server.fair import commitment  # the one definition of the hash

    fair = (rec.get("meta") or {}).get("fair")
    if not isinstance(fair, dict) or "table" not in fair:
        raise ValueError("no_fair")
    rules = Rules.from_dict(rec["rules"])
    table = str(fair["table"])
    revealed = {int(d["deal"]): d for d in fair.get("revealed", [])}
    out = []
    for i, deal in enumerate(rec["deals"], start=1):
        r = revealed.get(i)
        if r is None:
            out.append((i, "", False, False))
            continue
        seed = str(r["seed"])
        ok_commit = commitment(table, seed) == r["commitment"]
        game = Game(rules, dealer=deal["dealer"], seed=seed)
        hands = [format_cards(h) for h in game.initial_hands]
        ok_cards = hands == deal["hands"] and format_cards(game.initial_kitty) == (
            deal.get("kitty") or ""
        )
        out.append((i, str(r["commitment"]), ok_commit, ok_cards))
    return out


def run_verify(args: argparse.Namespace, lang: str) -> int:
    src = str(args.record)
    try:
        if src.startswith(("http://", "https://")):
            with urllib.request.urlopen(src, timeout=30) as r:
                rec = json.load(r)
        else:
            with open(src, encoding="utf-8") as f:
                rec = json.load(f)
        results = verify_record(rec)
    except ValueError as e:
        key = "verify_no_fair" if str(e) == "no_fair" else "verify_unreadable"
        print(t(key, lang, source=src, error=e))
        return 2
    except (OSError, KeyError, TypeError, RulesError) as e:
        print(t("verify_unreadable", lang, source=src, error=e))
        return 2
    good = True
    for deal, commit, ok_commit, ok_cards in results:
        if not commit:
            print(t("verify_unrevealed", lang, n=deal))
            good = False
            continue
        key = "verify_ok" if ok_commit and ok_cards else "verify_bad"
        what = []
        if not ok_commit:
            what.append(t("verify_bad_commitment", lang))
        if not ok_cards:
            what.append(t("verify_bad_cards", lang))
        print(t(key, lang, n=deal, commitment=commit, problems="; ".join(what)))
        good = good and ok_commit and ok_cards
    print(t("verify_all_ok" if good else "verify_not_ok", lang, n=len(results)))
    return 0 if good else 1
