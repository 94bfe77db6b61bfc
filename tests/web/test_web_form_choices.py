"""The private-room form offers only the tables the server takes (each preset's in ``GET
/api/rules/form``, from :func:`batak.explain.form_choices`, fetched when the form is first
used): the choices the server refuses are not offered, or disabled with a reason; a choice the
server takes only with another option changed sets that one too and says so; an option with one
value is said, not asked, and one that changes nothing with the others as chosen is not shown;
and a form filled in by clicking always makes a room."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from conftest import TIMEOUT, watch
from harness import ServerProcess
from playwright.sync_api import Browser, Page, Route, expect
from test_web import no_js_errors, open_page
from test_web_table import DESKTOP, PHONE_CTX

from batak.explain import form_catalog, preset_summary, rules_catalog
from batak.rules import PRESETS
from batak.server.hub import create_rules
from batak.server.table import TableError

#: Each option of the form as the page has it: its control and the values it offers, enabled
#: or not (as the catalog writes them: null, "#" for a number field), or its one fixed value.
FORM_JS = """() => {
  const f = document.querySelector("#create-form");
  const p = window.batak.state.catalog.presets.find((x) => x.name === f.preset.value);
  const out = {};
  for (const box of f.querySelectorAll(".option[data-option]")) {
    const name = box.dataset.option;
    const el = f.elements["opt-" + name];
    const kind = window.batak.state.catalog.options[name].kind;
    const why = box.querySelector(".why");
    const o = { why: !why || why.hidden ? "" : why.textContent, text: box.textContent,
      hidden: box.hidden };
    if (!el) { o.fixed = true; o.control = "fixed"; }
    else if (el.tagName === "SELECT") {
      o.control = "select";
      const value = (x) => x.value === "" ? null : kind === "int" ? Number(x.value) : x.value;
      o.values = [...el.options].map(value);
      o.enabled = [...el.options].filter((x) => !x.disabled).map(value);
      o.value = el.value;
    } else if (el.type === "checkbox") {
      o.control = "checkbox"; o.values = [false, true];
      o.disabled = el.disabled; o.value = el.checked;
    } else {
      o.control = "number"; o.values = [null, "#"];
      o.disabled = el.disabled; o.value = el.value;
      o.min = Number(el.min); o.max = Number(el.max); o.required = el.required;
    }
    out[name] = o;
  }
  // the match fields
  for (const [name, field] of [["deals", "deals"], ["target_score", "target"]]) {
    const el = f.elements[field];
    const why = f.querySelector(`.why[data-field="${name}"]`);
    out[name] = { control: "match", field, value: el.value, disabled: el.disabled,
      required: el.required, why: why.hidden ? "" : why.textContent };
  }
  return out;
}"""


def _form(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(FORM_JS))


FORMS = form_catalog()


def _open_form(page: Page, preset: str) -> None:
    """Choose a preset in the form and open its options (the form's data fetched on first use)."""
    page.select_option("#preset-select", preset)
    details = page.locator("#create-form details")
    if not details.evaluate("d => d.open"):
        page.locator("#create-form details summary").click()
    expect(page.locator("#create-options .option").first).to_be_attached()


def _companion(preset: str, option: str, value: Any) -> dict[str, Any]:
    """The other change the form makes with this value at this preset ({} if none)."""
    for o, v, o2, v2 in FORMS[preset]["companions"]:
        if o == option and v == value:
            return {o2: v2}
    return {}


def _takes(msg: dict[str, Any]) -> bool:
    """Whether the server's ``create`` takes this message's table (its own check)."""
    try:
        create_rules(msg)
    except TableError:
        return False
    return True


def test_the_private_room_form_offers_only_the_choices_the_server_takes(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """At every preset the form lists, each option offers exactly the values the server takes
    there (a select's choices, a checkbox, a number field with its range); an option the server
    takes one way only is said as fixed, with no control; and the bidding switch, where there
    is one, offers only the biddings the server takes (24 of the 28 preset and bidding pairs
    were offered and refused)."""
    catalog = rules_catalog()
    page = open_page(browser, server, errors, viewport=DESKTOP)
    listed = page.locator("#preset-select option").evaluate_all("os => os.map((o) => o.value)")
    assert listed, "no preset in the form"
    offered_biddings = 0
    for preset in listed:
        p = next(x for x in catalog["presets"] if x["name"] == preset)
        choices = FORMS[preset]["choices"]
        _open_form(page, preset)
        form = _form(page)
        for name, shown in form.items():
            values = choices[name]
            if shown["control"] == "match":
                # a number field above the options: disabled, and said fixed, where not offered
                assert shown["disabled"] == ("#" not in values), (preset, name)
                assert (shown["why"] == "Fixed at this table") == ("#" not in values)
                continue
            if shown.get("fixed"):
                assert len(values) == 1, (preset, name)
                assert shown["why"] in ("Fixed at this table",), (preset, name)
                continue
            assert len(values) > 1, (preset, name, "a control for a fixed option")
            assert shown["values"] == values, (preset, name)
            # with the preset as it is, every value offered is one the server takes (with
            # the other change it brings, said in the choice's words)
            for value in shown.get("enabled", []):
                changed = {} if value == p["rules"][name] else {name: value}
                also = _companion(preset, name, value) if changed else {}
                assert _takes({"preset": preset, "rules": changed | also}), (preset, name, value)
            if shown["control"] == "number":
                assert [shown["min"], shown["max"]] == FORMS[preset]["numbers"][name]
        # every option has its box: a control where it has more than one value, shown where
        # it changes anything at the preset's table
        for name, values in choices.items():
            assert name in form, (preset, name)
            if len(values) > 1:
                assert not form[name].get("fixed"), (preset, name)
            if name not in ("deals", "target_score"):
                assert form[name]["hidden"] == (name in p["unused"]), (preset, name)
        bidding = form.get("bidding", {})
        if bidding.get("control") == "select":
            offered_biddings += len(bidding["values"]) - 1
            for b in bidding["values"]:
                also = _companion(preset, "bidding", b)
                assert _takes({"preset": preset, "rules": {"bidding": b} | also}), (preset, b)
    # the switches: the Koz Maça presets' four that create takes alone, and those it takes
    # with a fixed koz (no bidding at an ihale's table: the koz is then fixed), ...
    assert offered_biddings == sum(len(FORMS[name]["choices"]["bidding"]) - 1 for name in listed)
    assert offered_biddings > 4
    no_js_errors(errors)


def _walk(page: Page, rng: random.Random, steps: int, seen: list[dict[str, Any]]) -> None:
    """Click ``steps`` times on the form's enabled choices at random (a select's choice, a
    checkbox, a number typed or cleared), checking after each that the form's create message
    is one the server takes, and that each disabled choice says why."""
    form = _form(page)
    for _ in range(steps):
        moves: list[tuple[str, Any]] = []
        for name, o in form.items():
            if o.get("fixed") or o.get("hidden"):
                continue
            if o["control"] == "select":
                moves += [
                    (name, v) for v in o["enabled"] if str(v if v is not None else "") != o["value"]
                ]
                disabled = [v for v in o["values"] if v not in o["enabled"]]
                if disabled:
                    assert re.search(r"\((not with|.* ile olmaz)", o["text"]), (name, o["text"])
            elif o["control"] == "match":
                if not o["disabled"] and not (o["value"] and o["required"]):
                    moves.append((name, "" if o["value"] else str(rng.randint(1, 50))))
            elif not o["disabled"]:
                moves.append((name, "toggle"))
            else:
                assert o["why"], name
        name, value = rng.choice(moves)
        o = form[name]
        if o["control"] == "match":
            page.fill(f"#create-form input[name={o['field']}]", value)
        elif o["control"] == "select":
            page.select_option(f"#opt-{name}", "" if value is None else str(value))
        elif o["control"] == "checkbox":
            page.locator(f"#opt-{name}").click()
        elif o["value"] == "":
            page.fill(f"#opt-{name}", str(rng.randint(o["min"], min(o["max"], 30))))
        elif not o["required"]:
            page.fill(f"#opt-{name}", "")
        # the create message and the form it leaves, in one round trip to the page
        msg, form = page.evaluate(f"() => [window.batak.createMessage(), ({FORM_JS})()]")
        assert _takes(msg), (msg, name, value)
        seen.append(msg)


def test_every_table_the_form_reaches_by_clicking_makes_a_room(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """Random walks through the form's choices at every preset with a choice to make: after
    each click the form's create message is one the server's ``create`` takes (its own
    check, :func:`batak.server.hub.create_rules`), and the table the walk ends on is made into
    a room by the Create button."""
    catalog = rules_catalog()
    rng = random.Random(20261207)
    presets = [p["name"] for p in catalog["presets"] if not p["same_as"]]
    seen: list[dict[str, Any]] = []
    for preset in presets:
        page = open_page(browser, server, errors, viewport=DESKTOP)
        _open_form(page, preset)
        _walk(page, rng, 25, seen)
        page.get_by_test_id("create-room").click()
        expect(page).to_have_url(re.compile(r"/table/"))
        page.context.close()
    assert len(seen) == 25 * len(presets)
    no_js_errors(errors)


def test_the_form_says_why_and_follows_the_bidding_in_both_languages(
    browser: Browser, server: ServerProcess, errors: list[str], artifacts: Path
) -> None:
    """A clash is said in the page's language (a choice disabled with the option standing in
    its way), a fixed option says so, and the summary above the form follows the bidding
    switch where the form offers one; screenshots of a preset with fixed options (the kitty
    table) and of one with the bidding switch, on a desktop and a phone, in both languages."""
    words = {
        "en": ("Fixed at this table", "Cannot be changed with “Overtake after a ruff: yes”"),
        "tr": ("Bu masada değişmez", "seçiliyken değiştirilemez"),
    }
    for lang, locale in (("en", "en-US"), ("tr", "tr-TR")):
        for device, ctx in (("desktop", {"viewport": DESKTOP}), ("phone", PHONE_CTX)):
            page = open_page(browser, server, errors, locale=locale, **ctx)
            _open_form(page, "zipi-kitty")
            fixed = page.locator('#create-form .option.fixed[data-option="bidding"]')
            expect(fixed).to_contain_text(words[lang][0])
            expect(page.locator("#opt-bidding")).to_have_count(0)
            fixed.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"form-fixed-zipi-kitty-{device}-{lang}.png"))
            # a clash: overtaking after a ruff needs overtaking
            page.locator("#opt-overtake_after_ruff").check()
            expect(page.locator("#opt-overtake")).to_be_disabled()
            why = page.locator('#create-form [data-option="overtake"] .why')
            expect(why).to_be_visible()
            expect(why).to_contain_text(words[lang][1])
            page.locator("#opt-overtake_after_ruff").uncheck()
            expect(page.locator("#opt-overtake")).to_be_enabled()
            expect(why).to_be_hidden()
            # a target score needs another tie-break than the last deal's tricks
            last = page.locator('#opt-tie option[value="last_deal_tricks"]')
            expect(last).to_be_enabled()
            page.fill("#create-form input[name=target]", "101")
            expect(last).to_be_disabled()
            page.fill("#create-form input[name=target]", "")
            expect(last).to_be_enabled()
            # the bidding switch of a Koz Maça preset, and its summary
            preset = "zipi-kozmaca"
            _open_form(page, preset)
            summary = page.get_by_test_id("preset-summary")
            expect(summary).to_have_text(preset_summary(PRESETS[preset], lang))
            values = page.locator("#opt-bidding option").evaluate_all(
                "os => os.map((o) => o.value)"
            )
            assert values == ["auction", "kozmaca", "none"]
            page.select_option("#opt-bidding", "kozmaca")
            expect(summary).to_have_text(preset_summary(PRESETS[preset], lang, bidding="kozmaca"))
            # Koz Maça's zero bid is offered only with Koz Maça, its partnership never
            expect(page.locator("#opt-partners")).to_be_disabled()
            page.locator("#preset-select").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"form-switch-{preset}-{device}-{lang}.png"))
            page.locator('#create-form [data-option="bidding"]').scroll_into_view_if_needed()
            shot = artifacts / f"form-switch-options-{preset}-{device}-{lang}.png"
            page.screenshot(path=str(shot))
            page.context.close()
    no_js_errors(errors)


def test_the_form_is_not_sent_before_the_catalog_is_there(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A player may be online before ``GET /api/rules`` comes (the server has it ready from
    its start, but the network may be slow): until then the Create button is disabled (a click
    made a script error and no room), then it makes the room."""
    context = browser.new_context(locale="en-US", service_workers="block")
    context.set_default_timeout(TIMEOUT)
    page = watch(context.new_page(), errors)
    held: list[Route] = []
    page.route("**/api/rules", lambda route: held.append(route))
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    expect(page.get_by_test_id("create-room")).to_be_disabled()
    page.wait_for_function("() => !window.batak.state.catalog")
    assert len(held) == 1
    held[0].continue_()
    page.get_by_test_id("create-room").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    context.close()
    no_js_errors(errors)


def _message_rules(page: Page) -> dict[str, Any]:
    msg = page.evaluate("() => window.batak.createMessage()")
    assert _takes(msg), msg
    return dict(msg.get("rules", {})) | {
        k: msg[k] for k in ("deals", "target_score") if msg.get(k) is not None
    }


def test_a_choice_that_needs_another_change_makes_it_and_says_so(
    browser: Browser, server: ServerProcess, errors: list[str], artifacts: Path
) -> None:
    """Values the server takes only with another option changed are reached by clicking: at
    ``standard`` a target score (its tie-break, the last deal's tricks, needs a fixed number of
    deals) sets another tie-break, said under the field before and after, and "no bidding"
    fixes a koz; in both languages, with screenshots on a desktop and a phone."""
    options = rules_catalog()["options"]
    tie = {lang: options["tie"]["label"][lang] + ": " for lang in ("en", "tr")}
    koz = {lang: options["fixed_trump"]["label"][lang] + ": " for lang in ("en", "tr")}
    words = {
        "en": (
            f"Typing a number here also sets “{tie['en']}",
            f"(not with “{tie['en']}",
            f"This also set “{tie['en']}",
            f"(also sets “{koz['en']}",
            "This also set “",
        ),
        "tr": (
            f"Buraya sayı yazılınca ayrıca “{tie['tr']}",
            "ile olmaz)",
            f"Buna uysun diye ayrıca “{tie['tr']}",
            f"(ayrıca “{koz['tr']}",
            "Buna uysun diye ayrıca “",
        ),
    }
    form = FORMS["standard"]
    assert ["target_score", "#", "tie", "shared"] in form["companions"]
    for lang, locale in (("en", "en-US"), ("tr", "tr-TR")):
        for device, ctx in (("desktop", {"viewport": DESKTOP}), ("phone", PHONE_CTX)):
            page = open_page(browser, server, errors, locale=locale, **ctx)
            _open_form(page, "standard")
            target = page.locator("#create-form input[name=target]")
            why = page.locator('#create-form .why[data-field="target_score"]')
            # the field says why a number here changes the tie-break: not "fixed"
            expect(target).to_be_enabled()
            expect(why).to_contain_text(words[lang][0])
            expect(why).to_contain_text(words[lang][1])
            target.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"form-target-reason-{device}-{lang}.png"))
            target.fill("300")
            expect(page.locator("#opt-tie")).to_have_value("shared")
            expect(why).to_contain_text(words[lang][2])
            assert _message_rules(page) == {"tie": "shared", "target_score": 300}
            page.screenshot(path=str(artifacts / f"form-target-also-set-{device}-{lang}.png"))
            # the tie-break "last deal's tricks" is then withheld, with the target as reason
            last = page.locator('#opt-tie option[value="last_deal_tricks"]')
            expect(last).to_be_disabled()
            # no bidding: a koz fixed with it
            none = page.locator('#opt-bidding option[value="none"]')
            expect(none).to_contain_text(words[lang][3])
            page.select_option("#opt-bidding", "none")
            expect(page.locator("#opt-fixed_trump")).to_have_value("S")
            bidding_why = page.locator('#create-form [data-option="bidding"] .why')
            expect(bidding_why).to_contain_text(words[lang][4] + koz[lang])
            # what changes nothing without bidding is not shown
            expect(page.locator('#create-form [data-option="all_pass"]')).to_be_hidden()
            expect(page.locator('#create-form [data-option="min_bid"]')).to_be_hidden()
            page.locator('#create-form [data-option="bidding"]').scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"form-no-bidding-also-set-{device}-{lang}.png"))
            rules = _message_rules(page)
            assert rules["bidding"] == "none" and rules["fixed_trump"] == "S", rules
            page.get_by_test_id("create-room").click()
            expect(page).to_have_url(re.compile(r"/table/"))
            page.context.close()
    no_js_errors(errors)


def test_each_value_with_a_companion_is_one_click_away_in_the_browser(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """At a few presets, each value the server takes only with another change (a select's
    choice or a checkbox) is enabled on the form as drawn, and one click on it gives a create
    message with both changes, which the server takes (the Python side checks every table one
    or two changes away, tests/server/test_server_form_choices.py)."""
    tried = 0
    for preset in ("standard", "cetinsgame-esli", "zipi-kozmaca", "esli-acik"):
        page = open_page(browser, server, errors, viewport=DESKTOP)
        _open_form(page, preset)
        for option, value, other, other_value in FORMS[preset]["companions"]:
            if option in ("deals", "target_score"):
                continue
            page.reload()
            _open_form(page, preset)
            shown = _form(page)[option]
            if shown["hidden"]:
                continue  # (an option that changes nothing here until another is changed)
            if shown["control"] == "select":
                if value not in shown["enabled"]:
                    continue  # withheld: its companion clashes with the preset's others
                page.select_option(f"#opt-{option}", "" if value is None else str(value))
            else:
                if _form(page)[option]["disabled"]:
                    continue
                page.locator(f"#opt-{option}").click()
            rules = _message_rules(page)
            assert rules.get(option) == value and rules.get(other) == other_value, (
                preset,
                option,
                value,
                rules,
            )
            tried += 1
        page.context.close()
    assert tried >= 20, tried
    no_js_errors(errors)


def test_the_form_works_without_its_data(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """An older server (or a service worker's offline copy of its rules) has no form data:
    ``/api/rules`` without it and no ``/api/rules/form``. The form says its options could not
    be loaded and makes a room with the table's own rules; a later use asks again."""
    context = browser.new_context(locale="en-US", service_workers="block", viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT)
    page = watch(context.new_page(), errors)
    asked: list[str] = []

    def missing(route: Route) -> None:
        asked.append(route.request.url)
        route.fulfill(status=404, body="Not Found")

    page.route(re.compile(r"/api/rules/form(\?|$)"), missing)
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    assert not asked  # a first visit does not ask for it
    page.select_option("#preset-select", "standard")
    status = page.get_by_test_id("form-status")
    expect(status).to_have_text(
        "This table's options could not be loaded: the room will have the table's own rules."
    )
    assert len(asked) == 1
    page.fill("#create-form input[name=deals]", "3")
    assert len(asked) == 2  # used again: asked again
    expect(status).to_be_attached()
    msg = page.evaluate("() => window.batak.createMessage()")
    assert msg["preset"] == "standard" and "rules" not in msg and msg["deals"] == 3
    page.get_by_test_id("create-room").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    context.close()
    no_js_errors(errors, allow=("Failed to load resource",))  # (the 404s)


def test_a_number_typed_before_the_form_data_comes_brings_its_companion(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A target score typed at ``standard`` while ``/api/rules/form`` is still on its way (a
    slow network, a fresh server): when the data comes, the tie-break it needs is set as if
    typed afterwards, and the room is made, not refused."""
    context = browser.new_context(locale="en-US", service_workers="block", viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT)
    page = watch(context.new_page(), errors)
    held: list[Route] = []
    page.route(re.compile(r"/api/rules/form(\?|$)"), lambda route: held.append(route))
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.select_option("#preset-select", "standard")
    expect(page.get_by_test_id("form-status")).to_be_attached()
    page.fill("#create-form input[name=target]", "31")
    page.wait_for_function("() => window.batak.state.forms.standard === 'loading'")
    assert held
    for route in held:
        route.continue_()
    expect(page.locator("#create-options .option").first).to_be_attached()
    msg = page.evaluate("() => window.batak.createMessage()")
    assert _takes(msg), msg
    assert msg.get("rules", {}).get("tie") == "shared", msg
    page.get_by_test_id("create-room").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    context.close()
    no_js_errors(errors)
