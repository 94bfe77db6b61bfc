"""Deals anyone can verify (issue 12): before each deal the server publishes a commitment to
the deal's seed, after the deal it reveals the seed, and ``batak verify`` recomputes the whole
match from the record; a changed card or seed is caught."""

from __future__ import annotations

import asyncio
import hashlib
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.cards import format_cards
from batak.cli import main as batak
from batak.game import Game
from batak.rules import Rules
from batak.server.client import Client


def test_commitments_before_each_deal_seeds_after_and_batak_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def main() -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
            c = Client(srv.url, name="Adil", keep_log=True)
            await c.connect()
            _, st = await c.create(preset="standard", deals=2)
            t = st.id
            first = st.info["fair"]
            assert first["deal"] == 1 and len(first["commitment"]) == 64  # before the start
            await c.start(t)
            await c.until(lambda: c.tables[t].view is not None)
            await c.play(t, timeout=120)
            await c.until(lambda: c.tables[t].info.get("status") == "over")
            msgs = [json.loads(x) for x in c.log]
            return t, first, msgs

        t, first, msgs = asyncio.run(main())
        events = [m["event"] for m in msgs if m.get("type") == "event"]
        start = next(e for e in events if e["kind"] == "start")
        assert start["commitment"] == first["commitment"]
        overs = [e["deal_over"] for e in events if e.get("deal_over")]
        assert len(overs) >= 2
        promised = [first["commitment"]] + [o["next_commitment"] for o in overs[:-1]]
        assert "next_commitment" not in overs[-1]
        for o, promise in zip(overs, promised, strict=True):
            assert o["commitment"] == promise
            assert hashlib.sha256(f"{t}:{o['seed']}".encode()).hexdigest() == promise
            # the seed was sent nowhere before its deal was over
            before = json.dumps(
                msgs[
                    : next(
                        i for i, m in enumerate(msgs) if m.get("event", {}).get("deal_over") is o
                    )
                ]
            )
            assert o["seed"] not in before
        # the record (a private room's, with its key: the seat got it in the start event)
        # checks with batak verify
        url = srv.http + start["record"]
        capsys.readouterr()
        assert batak(["verify", url, "--lang", "en"]) == 0
        out = capsys.readouterr().out
        assert f"All {len(overs)} deals check" in out
        assert first["commitment"] in out
        with urllib.request.urlopen(url) as r:
            rec = json.load(r)
        # the engine recomputes each deal from its revealed seed
        rules = Rules.from_dict(rec["rules"])
        seeds = {d["deal"]: d["seed"] for d in rec["meta"]["fair"]["revealed"]}
        for i, deal in enumerate(rec["deals"], start=1):
            game = Game(rules, dealer=deal["dealer"], seed=seeds[i])
            assert [format_cards(h) for h in game.initial_hands] == deal["hands"]
        # a record whose cards were changed, or whose seed was, does not check
        bad = json.loads(json.dumps(rec))
        h = bad["deals"][0]["hands"]
        h[0], h[1] = h[1], h[0]
        path = tmp_path / "changed.json"
        path.write_text(json.dumps(bad))
        assert batak(["verify", str(path), "--lang", "tr"]) == 1
        out = capsys.readouterr().out
        assert "tohum kayıttakinden başka kartlar dağıtıyor" in out and "HEPSİ tutmuyor" in out
        bad = json.loads(json.dumps(rec))
        bad["meta"]["fair"]["revealed"][0]["seed"] = "0" * 64
        path.write_text(json.dumps(bad))
        assert batak(["verify", str(path), "--lang", "en"]) == 1
        assert "the seed does not match the commitment" in capsys.readouterr().out
