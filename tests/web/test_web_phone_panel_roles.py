"""Follow-ups to the phone's chat panel and the small screens (session 48): what the open panel
covers is out of the keyboard's reach, and back when it closes, with a table's window opened and
closed meanwhile; a 390 × 700 phone's hand strength on the screen at the auction under the deal's
notice; the top bar's rules link broken only between words that read well apart; the named groups
of a table (a face-up hand, the teams' tricks) have a role."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LOCALES
from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import PHONE_CTX, no_js_errors, open_page
from test_web_axe import AXE
from test_web_layout import FIRST_BIDDER, NOTICE_AGAIN, TURN_BOXES
from test_web_phone_table import SHORT_PHONE, TAP_FIRST
from test_web_table import private_room
from test_web_variants import EXPOSE, FORCED, _start, _until_my_turn

#: Which parts of the page are inert: the header, the skip link, the table's parts (the top bar,
#: the side column with the chat, ...), and whether the chat panel is open.
INERT = """() => { const root = document.querySelector("#table-root");
  return {header: document.querySelector("header.header").inert,
    skip: document.querySelector("#skip-link").inert,
    table: [...root.children].filter((c) => c.id !== "dialog" && c.inert).map((c) => c.className),
    open: root.classList.contains("chat-open")}; }"""

#: Where Tab takes the focus, 40 times from where it is: each stop's place (the header, the
#: chat panel, the table).
TAB_WALK = """() => { const a = document.activeElement;
  return a.closest("header") ? "header" : a.closest("#chat-box") ? "chat" : a.closest("#dialog")
    ? "dialog" : a === document.body ? "body" : "table"; }"""


def _tabs(page: Page, n: int = 40) -> set[str]:
    seen = set()
    for _ in range(n):
        page.keyboard.press("Tab")
        seen.add(page.evaluate(TAB_WALK))
    return seen


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_header_under_a_phones_open_chat_panel_is_out_of_the_keyboards_reach(
    short_phone_at_my_bid: Callable[[str], Page], errors: list[str], lang: str
) -> None:
    """Tab reached the header's Batak link and language button, hidden under a phone's open
    chat panel. They are inert while it is open, and usable again once it closes (Escape, its
    Close button); a table's window opened and closed while the panel is open leaves the page as
    it was: the header inert under the panel, the table usable."""
    page = short_phone_at_my_bid(lang)
    assert page.evaluate(INERT) == {"header": True, "skip": False, "table": [], "open": True}
    assert "header" not in _tabs(page)
    # Escape in the panel closes it: the header is back
    page.focus("[data-testid=chat-close]")
    page.keyboard.press("Escape")
    assert page.evaluate(INERT) == {"header": False, "skip": False, "table": [], "open": False}
    page.evaluate("() => document.querySelector('header.header a').focus()")
    assert page.evaluate(TAB_WALK) == "header"
    # open again; a window (the score sheet) over the open panel, then closed
    page.get_by_test_id("chat-open").tap()
    assert page.evaluate(INERT)["header"]
    page.evaluate(
        "() => { window.batak.state.table.dialog = 'sheet'; window.batak.renderDialog(); }"
    )
    expect(page.get_by_test_id("close-dialog")).to_be_visible()
    during = page.evaluate(INERT)
    assert during["header"] and during["table"] and during["open"], during
    page.get_by_test_id("close-dialog").tap()
    expect(page.get_by_test_id("close-dialog")).to_have_count(0)
    assert page.evaluate(INERT) == {"header": True, "skip": False, "table": [], "open": True}
    assert "header" not in _tabs(page)
    # the panel's Close button: the header usable again
    page.get_by_test_id("chat-close").tap()
    assert page.evaluate(INERT) == {"header": False, "skip": False, "table": [], "open": False}
    # and the other order: the panel closed under a window leaves the page inert for it
    page.get_by_test_id("chat-open").tap()
    page.evaluate(
        "() => { window.batak.state.table.dialog = 'sheet'; window.batak.renderDialog(); }"
    )
    expect(page.get_by_test_id("close-dialog")).to_be_visible()
    page.evaluate("() => { window.batak.state.table.chatOpen = true; }")
    page.evaluate(
        """() => { const b = document.querySelector("[data-testid=chat-close]");
          b.dispatchEvent(new MouseEvent("click", {bubbles: true})); }"""
    )
    under = page.evaluate(INERT)
    assert under["header"] and under["table"] and not under["open"], under
    page.get_by_test_id("close-dialog").tap()
    assert page.evaluate(INERT) == {"header": False, "skip": False, "table": [], "open": False}
    page.context.close()
    no_js_errors(errors)


def test_a_desktops_chat_never_makes_the_header_inert(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The chat beside a desktop's table covers nothing: the header stays usable."""
    page = open_page(browser, server, errors, viewport={"width": 1280, "height": 800})
    private_room(page)
    page.evaluate(
        "() => { window.batak.state.table.chatOpen = true; window.batak.renderTable(true); }"
    )
    assert page.evaluate(INERT)["header"] is False
    page.context.close()
    no_js_errors(errors)


@pytest.mark.parametrize("preset", ["standard", "sultan-kozmaca"])
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_short_phones_hand_strength_is_on_the_screen_at_the_auction_under_the_notice(
    browser: Browser,
    server: ServerProcess,
    artifacts: Path,
    errors: list[str],
    lang: str,
    preset: str,
) -> None:
    """On a 390 × 700 phone, chat closed, the deal's notice under the header, the hand's
    strength line ended at 711 to 733 px at the auction: its Hide button is beside its words
    now, the bids nearer the turn line. The hand, the bids, the turn line and the strength are
    on the screen."""
    page = open_page(browser, server, errors, locale=LOCALES[lang], **SHORT_PHONE)
    private_room(page, preset)
    assert page.evaluate(TAP_FIRST, "[data-testid=start]") == "start"
    expect(page.locator("#panel .bids button").first).to_be_visible(timeout=60_000)
    if preset == "standard":
        page.evaluate(FIRST_BIDDER)
    page.evaluate(NOTICE_AGAIN)
    expect(page.locator("#notice")).to_be_visible()
    expect(page.get_by_test_id("estimate")).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    seen = page.evaluate(TURN_BOXES)
    page.screenshot(path=str(artifacts / f"short-phone-notice-auction-{preset}-{lang}.png"))
    assert seen["notice"] and seen["turn"] and seen["bids"] >= 11, seen
    assert seen["lowest"]["bottom"] <= 700, seen
    page.context.close()
    no_js_errors(errors)


#: The lines the rules link's letters lie on (a letter's top, rounded), and its text.
LINK_LINES = """() => { const a = document.querySelector("[data-testid=rules-link]");
  const walk = document.createTreeWalker(a, NodeFilter.SHOW_TEXT), out = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const box = r.getClientRects()[0];
      out.push([n.data[i], box ? Math.round(box.top) : null]); }
  return out; }"""


@pytest.mark.parametrize("width", [1024, 801, 390])
def test_the_rules_link_wraps_only_before_its_bracket(
    browser: Browser, server: ServerProcess, errors: list[str], width: int
) -> None:
    """At 1024 px, in Turkish, the top bar's rules link broke inside its brackets ("Standart
    (yaygın kurallar · / ihaleli)"). The words in brackets are on one line."""
    ctx: dict[str, Any] = (
        {**PHONE_CTX} if width == 390 else {"viewport": {"width": width, "height": 768}}
    )
    page = open_page(browser, server, errors, locale="tr-TR", **ctx)
    private_room(page)
    assert page.evaluate(TAP_FIRST, "[data-testid=start]") == "start"
    expect(page.locator("#panel .bids button").first).to_be_visible(timeout=60_000)
    letters = page.evaluate(LINK_LINES)
    text = "".join(c for c, _ in letters)
    assert text == "Standart (yaygın kurallar · ihaleli)", text
    inside = {top for c, top in letters[text.index("(") :]}
    assert len(inside) == 1, letters
    page.context.close()
    no_js_errors(errors)


SEL = [".exposed", "[data-testid=exposed-rows]", "[data-testid=team-board]"]


def _unnamed_groups(page: Page, where: str) -> list[dict[str, Any]]:
    """axe's violations and "needs review" results, serious or critical, on the face-up hand
    and the teams' board (a name on a div with no role is one)."""
    found = []
    result = AXE.run(page).response
    for v in result["violations"] + result["incomplete"]:
        nodes = [
            n["target"]
            for n in v["nodes"]
            if any(k in str(n["target"]) for k in ("exposed", "team-board", "mini"))
        ]
        if v["impact"] in ("serious", "critical") and nodes:
            found.append({"where": where, "id": v["id"], "nodes": nodes[:5], "help": v["help"]})
    return found


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_face_up_hand_and_the_teams_board_are_named_groups_with_a_role(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str], lang: str
) -> None:
    """``div.exposed``, ``.exposed-rows`` (a phone's side seat) and ``.team-board`` carried an
    ``aria-label`` and no role: axe asked for a review of each (aria-prohibited-attr)."""
    found = []
    for name, ctx in (
        ("desktop", {"viewport": {"width": 1280, "height": 800}}),
        ("phone", PHONE_CTX),
    ):
        page = open_page(browser, server, errors, locale=LOCALES[lang], bypass_csp=True, **ctx)
        _start(page, "esli-acik")
        _until_my_turn(page)
        page.evaluate(FORCED)
        page.evaluate(EXPOSE, [False, "left"])
        expect(page.get_by_test_id("team-board")).to_be_visible()
        shown = ".exposed" if name == "desktop" else "[data-testid=exposed-rows]"
        expect(page.get_by_test_id("seat-left").locator(shown)).to_be_visible()
        page.screenshot(path=str(artifacts / f"face-up-hand-{name}-{lang}.png"))
        found += _unnamed_groups(page, name)
        roles = page.evaluate(
            "(sel) => sel.map((s) => document.querySelector(s).getAttribute('role'))", SEL
        )
        found += [{"where": name, "no role": s} for s, r in zip(SEL, roles, strict=True) if not r]
        page.context.close()
    assert not found, found
    no_js_errors(errors)


@pytest.mark.parametrize("window", [False, True])
def test_a_phones_open_chat_panel_widened_to_a_desktop_leaves_nothing_inert(
    short_phone_at_my_bid: Callable[[str], Page], errors: list[str], window: bool
) -> None:
    """A phone's open chat panel made the header inert; widened to a desktop (1280 × 800) the
    chat is beside the table and covers nothing: the header is usable again (with a table's
    window open meanwhile: once it closes), and inert again when the screen narrows back."""
    page = short_phone_at_my_bid("tr")
    assert page.evaluate(INERT) == {"header": True, "skip": False, "table": [], "open": True}
    if window:
        page.evaluate(
            "() => { window.batak.state.table.dialog = 'sheet'; window.batak.renderDialog(); }"
        )
        expect(page.get_by_test_id("close-dialog")).to_be_visible()
    page.set_viewport_size({"width": 1280, "height": 800})
    if window:
        during = page.evaluate(INERT)
        assert during["header"] and during["table"], during
        page.get_by_test_id("close-dialog").click()
        expect(page.get_by_test_id("close-dialog")).to_have_count(0)
    nothing = {"header": False, "skip": False, "table": [], "open": True}
    page.wait_for_function(f"() => ({INERT})().header === false")
    assert page.evaluate(INERT) == nothing
    page.set_viewport_size({"width": 390, "height": 700})
    page.wait_for_function(f"() => ({INERT})().header === true")
    assert page.evaluate(INERT) == {**nothing, "header": True}
    page.context.close()
    no_js_errors(errors)
