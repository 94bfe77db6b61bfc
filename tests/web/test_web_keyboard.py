"""The keyboard at the table: a window (the score sheet) takes the focus, keeps it while it is
open and gives it back to the button that opened it; a deal played with the keyboard alone keeps
the focus on the hand or the bids after every move (it fell to the page's body)."""

from __future__ import annotations

import time
from pathlib import Path

from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import my_turn, no_js_errors, open_page, settle
from test_web_table import DESKTOP, private_room

FOCUS = """() => { const a = document.activeElement;
  return {body: !a || a === document.body, inDialog: !!(a && a.closest('#dialog')),
          inHand: !!(a && a.closest('#hand')), inBids: !!(a && a.closest('#panel .bids')),
          card: a && a.dataset ? a.dataset.card || null : null,
          legal: !!(a && a.classList.contains('legal')),
          html: a ? a.outerHTML.slice(0, 120) : ''}; }"""


def focus(page: Page) -> dict[str, object]:
    result: dict[str, object] = page.evaluate(FOCUS)
    return result


def test_the_score_sheet_window_takes_the_focus_keeps_it_and_gives_it_back(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport=DESKTOP)
    private_room(page)
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card")).to_have_count(13)
    opener = page.locator("#topbar [data-action=dialog][data-dialog=sheet]")
    opener.focus()
    # a move at the table draws the top bar anew (as a bot's bid does while the player tabs
    # there): the button keeps the focus (it fell to the page's body, and Enter did nothing)
    page.evaluate("() => window.batak.renderTable()")
    expect(opener).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("close-dialog")).to_be_visible()
    assert focus(page)["inDialog"], focus(page)
    # Tab walks the window's controls only, however often it is pressed
    for _ in range(8):
        page.keyboard.press("Tab")
        f = focus(page)
        assert f["inDialog"] or f["body"], f
    assert page.evaluate("() => document.querySelector('#topbar').inert")
    page.screenshot(path=str(artifacts / "keyboard-sheet-dialog-en.png"))
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("close-dialog")).to_have_count(0)
    expect(page.locator("#topbar [data-action=dialog][data-dialog=sheet]")).to_be_focused()
    assert not page.evaluate("() => document.querySelector('#topbar').inert")
    # the Close button does the same
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("close-dialog")).to_be_visible()
    page.get_by_test_id("close-dialog").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#topbar [data-action=dialog][data-dialog=sheet]")).to_be_focused()
    no_js_errors(errors)


def test_a_deal_played_with_the_keyboard_keeps_the_focus_after_every_move(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport=DESKTOP)
    private_room(page)
    page.get_by_test_id("start").focus()
    page.keyboard.press("Enter")  # the focus goes on to the bids (or the hand), not the body
    expect(page.locator("#hand .card")).to_have_count(13)
    moves, lost = 0, []
    deadline = time.monotonic() + 120
    while page.evaluate("() => (window.batak.state.table.view || {}).match.deal") == 1:
        assert time.monotonic() < deadline, (moves, lost)
        view = page.evaluate("() => window.batak.state.table.view")
        if view["phase"] == "play" and not view["hand"]:
            break
        if not my_turn(page) or page.get_by_test_id("bury-confirm").count():
            time.sleep(0.05)
            continue
        f = focus(page)
        if f["body"]:
            lost.append(("before", moves, f))
            break
        if view["phase"] == "play":
            if not page.locator("#hand .card.legal").count():
                time.sleep(0.05)
                continue
            page.keyboard.press("Home")  # to a card that may be played, by the arrows
            for _ in range(13):
                if focus(page)["legal"]:
                    break
                page.keyboard.press("ArrowRight")
            assert focus(page)["legal"], focus(page)
        else:  # the auction and the koz: the focused button (the first, or the same)
            assert f["inBids"], f["html"]
        page.keyboard.press("Enter")
        moves += 1
        settle(page)
        page.wait_for_timeout(150)
        f = focus(page)
        if f["body"]:
            lost.append((moves, f))
    assert moves >= 13, moves
    assert lost == [], lost
    no_js_errors(errors)
