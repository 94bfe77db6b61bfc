"""What the private-room form offers (each preset's in ``GET /api/rules/form``, from
:func:`batak.explain.form_choices`) is what the server's ``create`` takes: every choice of every
option at every preset is tried through ``create``'s own check
(:func:`batak.server.hub.create_rules`), and so are the pairs and larger sets of changes the
form lets a player make together; and every table ``create`` takes one or two changes away
from a preset is one the form reaches by clicking, by the form's own rule (a value that needs
another option changed sets that one too)."""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import random
import threading
import time
import types
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from batak.explain import (
    FORM_OPTIONS,
    MATCH_FIELDS,
    NUMBER,
    form_catalog,
    option_applies,
    rules_catalog,
)
from batak.rules import Rules
from batak.server.hub import create_rules
from batak.server.table import TableError

CATALOG = rules_catalog()
PRESETS = {p["name"]: p for p in CATALOG["presets"]}
FORMS = form_catalog()


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


def companion(form: dict[str, Any], option: str, value: Any) -> tuple[str, Any] | None:
    """The other option and value the form sets with this value (one ``create`` refuses
    alone), if any."""
    for o, v, o2, v2 in form["companions"]:
        if o == option and v == value:
            return o2, v2
    return None


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
    form = FORMS[preset]
    assert set(form["choices"]) == set(FORM_OPTIONS + MATCH_FIELDS)
    for option in FORM_OPTIONS:
        for value in every_value(option):
            with_other = companion(form, option, value)
            alone = offered(form, option, value) and with_other is None
            assert takes_values(preset, (option, value)) == alone, (preset, option, value)
            if with_other is not None:  # offered with the other change, which create takes
                assert offered(form, *with_other)  # (alone, or itself with this change)
                o2, v2 = with_other  # (a number typed in a match field: its numbers tried)
                for n in samples(form, o2, v2):
                    assert takes_values(preset, (option, value), (o2, n)), (option, value, n)
        # the preset's own value is always offered
        assert offered(form, option, PRESETS[preset]["rules"][option]), (preset, option)
    # the match fields: a number typed in is offered if and only if create takes it
    for field in MATCH_FIELDS:
        taken = [takes_values(preset, (field, n)) for n in samples(form, field, NUMBER)]
        with_other = companion(form, field, NUMBER)
        alone = NUMBER in form["choices"][field] and with_other is None
        assert all(taken) == alone, (preset, field)
        assert any(taken) == all(taken), (preset, field)
        assert None in form["choices"][field]
        if with_other is not None:
            numbers = samples(form, field, NUMBER)
            assert all(takes_values(preset, (field, n), with_other) for n in numbers), field


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
        form = FORMS[name]
        others = set(form["choices"]["bidding"]) - {p["rules"]["bidding"]}
        alone = {b for b in others if companion(form, "bidding", b) is None}
        assert alone == {b for n, b in taken if n == name}
        # a summary for each switch the form offers, with another change or not
        assert set(form["bidding_summary"]) == others


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_clashes_are_the_pairs_create_refuses(preset: str) -> None:
    """Two options changed together: ``create`` refuses them if and only if the form lists
    them as a clash (a number field tried at its range's ends and middle)."""
    form = FORMS[preset]
    clashes = {(o1, repr(v1), o2, repr(v2)) for o1, v1, o2, v2 in form["clashes"]}
    open_options = [o for o in FORM_OPTIONS + MATCH_FIELDS if len(form["choices"][o]) > 1]
    for o1, o2 in itertools.combinations(open_options, 2):
        for v1 in form["choices"][o1]:
            for v2 in form["choices"][o2]:
                # each value with the other change it brings, unless that is the other's option
                extra = [
                    c
                    for c in (companion(form, o1, v1), companion(form, o2, v2))
                    if c is not None and c[0] not in (o1, o2)
                ]
                extras = list(
                    itertools.product(*[[(o, n) for n in samples(form, o, v)] for o, v in extra])
                )
                refused = not all(
                    takes_values(preset, *more, (o1, a), (o2, b))
                    for more in extras
                    for a in samples(form, o1, v1)
                    for b in samples(form, o2, v2)
                )
                assert refused == ((o1, repr(v1), o2, repr(v2)) in clashes), (o1, v1, o2, v2)


def clashing(form: dict[str, Any], state: dict[str, Any], option: str, value: Any) -> set[str]:
    """The options whose value in ``state`` the form says clashes with this one's value."""
    out = set()
    for o1, v1, o2, v2 in form["clashes"]:
        if o1 == option and v1 == value and state[o2] == v2:
            out.add(o2)
        elif o2 == option and v2 == value and state[o1] == v1:
            out.add(o1)
    return out


def shown(form: dict[str, Any], state: dict[str, Any], option: str) -> bool:
    """Whether the form shows an option with the others as chosen (app.js: formApplies)."""
    needs = form["applies"].get(option, {})
    return needs is not None and all(state[o] in vs for o, vs in needs.items())


def click(form: dict[str, Any], state: dict[str, Any], option: str, value: Any) -> dict | None:
    """The form after a player chooses ``value`` for ``option``, by the web client's rule
    (app.js: formCompanion, applyCompanion), or None where the form withholds it: a value
    whose companion option as chosen now does not go with it sets that option too, if
    nothing else is then in the way; otherwise it is offered only if it clashes with nothing
    (one that needs a number typed in a match field: once one is). An option the form does
    not show with the others as chosen (:func:`shown`) cannot be clicked."""
    if state[option] == value or not shown(form, state, option):
        return None
    with_other = companion(form, option, value)
    if with_other is not None and with_other[1] == NUMBER:
        with_other = None  # a number to type in a match field: the player types it first
    if with_other is not None and with_other[0] in clashing(form, state, option, value):
        o2, v2 = with_other
        others = clashing(form, state | {o2: v2}, option, value) | (
            clashing(form, state | {option: value}, o2, v2) - {option}
        )
        return None if others else state | {option: value, o2: v2}
    return None if clashing(form, state, option, value) else state | {option: value}


def one_click_more(
    form: dict[str, Any],
    states: list[dict[str, Any]],
    moves: list[tuple[str, Any]],
    seen: set[Any],
    key: Callable[[dict[str, Any]], Any],
) -> list[dict[str, Any]]:
    """The forms one click (:func:`click`, of one of ``moves``) from one of ``states`` whose
    ``key`` is not in ``seen`` yet; their keys are added to it."""
    after = []
    for state in states:
        for o, v in moves:
            new = click(form, state, o, v)
            if new is not None and key(new) not in seen:
                seen.add(key(new))
                after.append(new)
    return after


def start_state(preset: str) -> dict[str, Any]:
    """The form as drawn for a preset: its values ("#" in a number field with a number)."""
    form, base = FORMS[preset], PRESETS[preset]["rules"]
    return {
        o: (NUMBER if o in form["numbers"] and base[o] is not None else base[o])
        for o in FORM_OPTIONS
    } | {o: None for o in MATCH_FIELDS}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_table_the_form_allows_is_taken(preset: str) -> None:
    """Three options changed together, and many at once: every table the form allows (no two
    values clashing) is one ``create`` takes. Sampled: 4000 sets of three, 1000 of many."""
    form = FORMS[preset]
    base = PRESETS[preset]["rules"]
    rng = random.Random(preset)
    open_options = [o for o in FORM_OPTIONS + MATCH_FIELDS if len(form["choices"][o]) > 1]
    start = start_state(preset)
    assert base  # (the preset's values are the form's start)
    tried = 0
    for size, count in ((3, 4000), (len(open_options), 1000)):
        for _ in range(count):
            state = dict(start)
            for o in rng.sample(open_options, min(size, len(open_options))):
                state = click(form, state, o, rng.choice(form["choices"][o])) or state
            numbers = {o: rng.choice(samples(form, o, v)) for o, v in state.items()}
            assert takes_values(preset, *numbers.items()), numbers
            tried += 1
    assert tried == 5000


def test_the_catalog_is_worked_out_once_and_again_after_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GET /api/rules/form`` works the form's data out in a thread on its first request: two
    first requests at once wait for the one build, and a build that fails is a 500 (the
    server's log has it) that the next request builds again, not a failure kept for the
    server's life. ``GET /api/rules`` is worked out when the server starts, and is not."""
    from harness import ServerThread, fast_config

    import batak.server.app as app_module

    calls: list[int] = []
    gate = threading.Event()

    def build(names: list[str] | None = None) -> dict[str, Any]:
        calls.append(1)
        gate.wait(20)  # both first requests are in before the build ends
        if len(calls) == 1:
            raise RuntimeError("the first build fails")
        return {"standard": {}}

    monkeypatch.setattr(app_module, "form_catalog", build)

    def get(url: str) -> int:
        try:
            with urllib.request.urlopen(url, timeout=20) as res:
                json.load(res)
                return int(res.status)
        except urllib.error.HTTPError as e:
            return int(e.code)

    with ServerThread(fast_config(tmp_path / "data")) as srv:
        assert get(srv.http + "/api/rules") == 200 and not calls  # (no form asked for)
        url = srv.http + "/api/rules/form"
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            first = [pool.submit(get, url) for _ in range(2)]
            time.sleep(0.5)
            gate.set()
            assert [f.result() for f in first] == [500, 500]
        assert len(calls) == 1  # the two first requests waited for one build
        assert get(url) == 200  # built again, and kept
        assert get(url) == 200
        assert len(calls) == 2
        # one preset's: built once and kept, apart; an unknown name builds nothing (a client
        # cannot make the server work out more than one build per preset)
        assert get(url + "?preset=standard") == 200
        assert get(url + "?preset=standard") == 200
        assert len(calls) == 3
        for name in ("nothing", "", "standard%20", "STANDARD"):
            assert get(url + "?preset=" + name) == 404
        assert len(calls) == 3


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_table_create_takes_near_a_preset_is_reached_by_clicking(preset: str) -> None:
    """Every table ``create`` takes that differs from the preset in one or two options (each
    value of every option with a few values and the match fields' numbers; a number option's
    range is checked above) is one the form reaches from the preset's values by clicks, by the
    form's rule (:func:`click`): a target score at ``standard``, whose tie-break "last deal's
    tricks" needs a fixed number of deals, "no bidding" once a koz is fixed, ... Searched
    exhaustively: every state two clicks away, then for each table still unreached, every
    sequence of up to four clicks on its options and the options their values bring."""
    form = FORMS[preset]
    start = start_state(preset)
    domain = {
        o: [v for v in ([*every_value(o)] if o in FORM_OPTIONS else [None, NUMBER])]
        for o in FORM_OPTIONS + MATCH_FIELDS
        if o not in form["numbers"]
    }
    for o in FORM_OPTIONS:
        if o in domain and CATALOG["options"][o]["kind"] == "int":
            domain[o] = [v for v in domain[o] if v is None or 0 <= v <= 20]

    def key(state: dict[str, Any]) -> frozenset[tuple[str, Any]]:
        return frozenset((o, repr(v)) for o, v in state.items() if v != start[o])

    def accepted(changes: dict[str, Any]) -> bool:
        # (a change of an option that changes nothing at that table is the same game as the
        # table without it, and the form does not show that option there)
        values = PRESETS[preset]["rules"] | {o: v for o, v in changes.items() if o in FORM_OPTIONS}
        table = cast(Rules, types.SimpleNamespace(**values))
        if not all(option_applies(table, o) for o in changes if o in FORM_OPTIONS):
            return False
        numbers = [samples(form, o, v) for o, v in changes.items()]
        return all(
            takes_values(preset, *zip(changes, combo, strict=True))
            for combo in itertools.product(*numbers)
        )

    targets = []
    for o, values in domain.items():
        targets += [{o: v} for v in values if v != start[o] and accepted({o: v})]
    for o1, o2 in itertools.combinations(domain, 2):
        for v1 in domain[o1]:
            for v2 in domain[o2]:
                if v1 != start[o1] and v2 != start[o2] and accepted({o1: v1, o2: v2}):
                    targets.append({o1: v1, o2: v2})
    moves = [
        (o, v) for o in form["choices"] for v in form["choices"][o] if o not in form["numbers"]
    ]
    reached = {key(start)}
    level = [start]
    for _ in range(2):
        level = one_click_more(form, level, moves, reached, key)
    unreached = []
    for target in targets:
        if key(start | target) in reached:
            continue
        # the options of this table and those its values bring with them
        options = set(target) | {
            c[0] for o, v in target.items() if (c := companion(form, o, v)) is not None
        }
        near = [(o, v) for o, v in moves if o in options]
        seen, found, frontier = {key(start)}, False, [start]
        for _ in range(4):
            frontier = one_click_more(form, frontier, near, seen, key)
            found = key(start | target) in seen
            if found:
                break
        if not found:
            unreached.append(target)
    assert targets
    assert not unreached, (len(unreached), len(targets), unreached[:10])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_an_option_is_shown_exactly_where_it_changes_something(preset: str) -> None:
    """At every table the form reaches in two clicks on the options it shows, an option is
    shown iff it changes something there (:func:`batak.explain.option_applies`): no "if
    everyone passes" at Koz Maça, and at a Koz Maça preset switched to an ihale whose "if
    everyone passes" is a redeal, who deals again (two changes from the preset)."""
    form, base = FORMS[preset], PRESETS[preset]["rules"]
    start = start_state(preset)
    # (click refuses an option the form does not show)
    moves = [(o, v) for o in form["choices"] for v in form["choices"][o]]
    level, seen, wrong = [start], {repr(start)}, []
    for _ in range(2):
        level = one_click_more(form, level, moves, seen, repr)
        for state in level:
            values = {o: base[o] if state[o] == NUMBER else state[o] for o in FORM_OPTIONS}
            table = cast(Rules, types.SimpleNamespace(**(base | values)))
            wrong += [
                (o, {k: v for k, v in state.items() if v != start[k]})
                for o in form["applies"]
                if shown(form, state, o) != option_applies(table, o)
            ]
    assert len(seen) > 100
    assert not wrong, (len(wrong), wrong[:5])


def test_the_rules_catalog_is_made_at_start_and_the_form_apart(tmp_path: Path) -> None:
    """The rules catalog comes ready from a server just started (no form's data in it: a first
    visit's lighter) with an ETag that a second visit revalidates; the form's data, asked for
    apart, has each preset's choices, companions, clashes and bidding summaries."""
    from harness import ServerThread, fast_config

    with ServerThread(fast_config(tmp_path / "data")) as srv:
        with urllib.request.urlopen(srv.http + "/api/rules", timeout=20) as res:
            body = res.read()
            etag = res.headers["ETag"]
        catalog = json.loads(body)
        assert catalog == json.loads(json.dumps(CATALOG))
        assert all("form" not in p and "bidding_summary" not in p for p in catalog["presets"])
        again = urllib.request.Request(srv.http + "/api/rules", headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(again, timeout=20)
        assert e.value.code == 304
        with urllib.request.urlopen(srv.http + "/api/rules/form", timeout=60) as res:
            forms = json.load(res)
        assert forms == json.loads(json.dumps(FORMS))
        assert set(forms) == set(PRESETS)
        assert ["target_score", "#", "tie", "shared"] in forms["standard"]["companions"]
        # one preset's, as the web client asks for it when that preset is chosen in the form
        url = srv.http + "/api/rules/form?preset=zipi-kitty"
        with urllib.request.urlopen(url, timeout=60) as res:
            assert json.load(res) == {"zipi-kitty": forms["zipi-kitty"]}
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(srv.http + "/api/rules/form?preset=nothing", timeout=20)
        assert e.value.code == 404
