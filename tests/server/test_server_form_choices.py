"""What the private-room form offers (each preset's ``form`` in ``GET /api/rules``, from
:func:`batak.explain.form_choices`) is what the server's ``create`` takes: every choice of every
option at every preset is tried through ``create``'s own check
(:func:`batak.server.hub.create_rules`), and so are the pairs and larger sets of changes the
form lets a player make together."""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import random
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from batak.explain import FORM_OPTIONS, MATCH_FIELDS, NUMBER, rules_catalog
from batak.server.hub import create_rules
from batak.server.table import TableError

CATALOG = rules_catalog()
PRESETS = {p["name"]: p for p in CATALOG["presets"]}


def takes(preset: str, changes: dict[str, Any], **fields: Any) -> bool:
    """Whether ``create`` takes this preset with these ``rules`` and these other fields."""
    try:
        create_rules({"type": "create", "preset": preset, "rules": changes, **fields})
    except TableError as e:
        assert e.code == "bad_rules"
        return False
    return True


def message(preset: str, state: dict[str, Any]) -> dict[str, Any]:
    """The create message of a form with these values, as the web client sends it (a target
    score typed in: that target and no fixed deals, winning over a number of deals)."""
    base = PRESETS[preset]["rules"]
    rules = {o: v for o, v in state.items() if o in FORM_OPTIONS and v != base[o]}
    msg: dict[str, Any] = {"rules": rules}
    if state.get("target_score") is not None:
        msg |= {"target_score": state["target_score"], "deals": None}
    elif state.get("deals") is not None:
        msg["deals"] = state["deals"]
    return msg


def every_value(option: str) -> list[Any]:
    """Every value a player could send for ``option``: both of a switch, every choice, none,
    and every whole number from -1 to 1001."""
    o = CATALOG["options"][option]
    if o["kind"] == "bool":
        return [False, True]
    values: list[Any] = [None] if o["nullable"] else []
    if o["kind"] == "int":
        return values + list(range(-1, 1002))
    return values + list(o["choices"])


def offered(form: dict[str, Any], option: str, value: Any) -> bool:
    """Whether the form offers ``value`` for ``option`` (a number field: any number in range)."""
    choices = form["choices"][option]
    if option in form["numbers"] and isinstance(value, int) and not isinstance(value, bool):
        low, high = form["numbers"][option]
        return low <= value <= high
    return value in choices


def takes_values(preset: str, *pairs: tuple[str, Any]) -> bool:
    """Whether ``create`` takes the form's table with these values (numbers, not ``#``)."""
    msg = message(preset, dict(pairs))
    return takes(preset, msg.pop("rules"), **msg)


def samples(form: dict[str, Any], option: str, value: Any) -> list[Any]:
    """The numbers a number field's ``#`` stands for, tried: its range's ends and middle."""
    if value == NUMBER and option in MATCH_FIELDS:
        return [1, 50, 1000, 10000]  # the web form's fields take up to 50 deals, a 10000 target
    if value == NUMBER:
        low, high = form["numbers"][option]
        return [low, (low + high) // 2, high]
    return [value]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_option_offers_exactly_what_create_takes(preset: str) -> None:
    """Every value of every option, changed alone: ``create`` takes it if and only if the form
    offers it (the 24 of 28 preset and bidding pairs that ``create`` refuses are not offered)."""
    form = PRESETS[preset]["form"]
    assert set(form["choices"]) == set(FORM_OPTIONS + MATCH_FIELDS)
    for option in FORM_OPTIONS:
        for value in every_value(option):
            assert takes_values(preset, (option, value)) == offered(form, option, value), (
                preset,
                option,
                value,
            )
        # the preset's own value is always offered
        assert offered(form, option, PRESETS[preset]["rules"][option]), (preset, option)
    # the match fields: a number typed in is offered if and only if create takes it
    for field in MATCH_FIELDS:
        taken = [takes_values(preset, (field, n)) for n in samples(form, field, NUMBER)]
        assert all(taken) == (NUMBER in form["choices"][field]), (preset, field)
        assert any(taken) == all(taken), (preset, field)
        assert None in form["choices"][field]


def test_the_bidding_switch_is_offered_only_where_create_takes_it() -> None:
    taken = {
        (name, b)
        for name in PRESETS
        for b in CATALOG["options"]["bidding"]["choices"]
        if b != PRESETS[name]["rules"]["bidding"] and takes(name, {"bidding": b})
    }
    pairs = len(PRESETS) * 2
    assert pairs == 28 and len(taken) == 4
    for name, p in PRESETS.items():
        others = set(p["form"]["choices"]["bidding"]) - {p["rules"]["bidding"]}
        assert others == {b for n, b in taken if n == name}
        # no summary for a switch the form does not offer
        assert set(p["bidding_summary"]) == others


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_clashes_are_the_pairs_create_refuses(preset: str) -> None:
    """Two options changed together: ``create`` refuses them if and only if the form lists
    them as a clash (a number field tried at its range's ends and middle)."""
    form = PRESETS[preset]["form"]
    clashes = {(o1, repr(v1), o2, repr(v2)) for o1, v1, o2, v2 in form["clashes"]}
    open_options = [o for o in FORM_OPTIONS + MATCH_FIELDS if len(form["choices"][o]) > 1]
    for o1, o2 in itertools.combinations(open_options, 2):
        for v1 in form["choices"][o1]:
            for v2 in form["choices"][o2]:
                refused = not all(
                    takes_values(preset, (o1, a), (o2, b))
                    for a in samples(form, o1, v1)
                    for b in samples(form, o2, v2)
                )
                assert refused == ((o1, repr(v1), o2, repr(v2)) in clashes), (o1, v1, o2, v2)


def allowed(form: dict[str, Any], state: dict[str, Any]) -> bool:
    """Whether the form lets a player reach ``state``: no two of its values clash."""
    return not any(state[o1] == v1 and state[o2] == v2 for o1, v1, o2, v2 in form["clashes"])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_table_the_form_allows_is_taken(preset: str) -> None:
    """Three options changed together, and many at once: every table the form allows (no two
    values clashing) is one ``create`` takes. Sampled: 4000 sets of three, 1000 of many."""
    form = PRESETS[preset]["form"]
    base = PRESETS[preset]["rules"]
    rng = random.Random(preset)
    open_options = [o for o in FORM_OPTIONS + MATCH_FIELDS if len(form["choices"][o]) > 1]
    start = {
        o: (NUMBER if o in form["numbers"] and base[o] is not None else base[o])
        for o in FORM_OPTIONS
    } | {o: None for o in MATCH_FIELDS}
    tried = 0
    for size, count in ((3, 4000), (len(open_options), 1000)):
        for _ in range(count):
            state = dict(start)
            for o in rng.sample(open_options, min(size, len(open_options))):
                value = rng.choice(form["choices"][o])
                if allowed(form, state | {o: value}):
                    state[o] = value
            numbers = {o: rng.choice(samples(form, o, v)) for o, v in state.items()}
            assert takes_values(preset, *numbers.items()), numbers
            tried += 1
    assert tried == 5000


def test_the_catalog_is_worked_out_once_and_again_after_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GET /api/rules`` works the catalog out in a thread on its first request: two first
    requests at once wait for the one build, and a build that fails is a 500 (the server's
    log has it) that the next request builds again, not a failure kept for the server's life."""
    from harness import ServerThread, fast_config

    import batak.server.app as app_module

    calls: list[int] = []
    gate = threading.Event()

    def build() -> dict[str, Any]:
        calls.append(1)
        gate.wait(20)  # both first requests are in before the build ends
        if len(calls) == 1:
            raise RuntimeError("the first build fails")
        return {"presets": [], "options": {}}

    monkeypatch.setattr(app_module, "rules_catalog", build)

    def get(url: str) -> int:
        try:
            with urllib.request.urlopen(url, timeout=20) as res:
                json.load(res)
                return int(res.status)
        except urllib.error.HTTPError as e:
            return int(e.code)

    with ServerThread(fast_config(tmp_path / "data")) as srv:
        url = srv.http + "/api/rules"
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            first = [pool.submit(get, url) for _ in range(2)]
            time.sleep(0.5)
            gate.set()
            assert [f.result() for f in first] == [500, 500]
        assert len(calls) == 1  # the two first requests waited for one build
        assert get(url) == 200  # built again, and kept
        assert get(url) == 200
        assert len(calls) == 2
