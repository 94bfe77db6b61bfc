"""Browser tests of what a tester found around the story mode and watching a table: an adjourned
story table is continued from the map (not dealt again), the host is told "you adjourned" and
the last hint goes; a spectator is told they watch, their chat lines are marked and the players
see how many watch; the story mode has a way in near the top of the lobby; the tea garden's
faster play is its shorter clock, shown on the map. Desktop (1280x800) and phone (390x844), in
English and Turkish."""

from __future__ import annotations

import re
import time
from pathlib import Path

from conftest import PHONE_CTX as PHONE
from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import no_js_errors, open_page

DESKTOP = {"width": 1280, "height": 800}


def _wait_my_turn(page: Page) -> None:
    deadline = time.monotonic() + 30
    while not page.get_by_test_id("your-turn").count():
        assert time.monotonic() < deadline, "never my turn"
        time.sleep(0.05)


def _table_id(page: Page) -> str:
    return str(page.evaluate("window.batak.state.table.id"))


def test_an_adjourned_story_table_is_continued_from_the_map_and_not_dealt_again(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport=DESKTOP)
    page.goto(server.http + "/story")
    page.get_by_test_id("story-play-0").click()
    expect(page).to_have_url(re.compile(r"/table/t\w+$"))
    expect(page.locator("#hand .card")).to_have_count(13)
    first = _table_id(page)
    _wait_my_turn(page)
    page.get_by_test_id("teach").click()
    expect(page.get_by_test_id("hint")).to_be_visible()
    hand = page.evaluate("window.batak.state.table.view.hand")
    page.get_by_role("button", name="Continue later").click()
    # the host is told in their own words, and the advice for the decision left goes
    expect(page.locator("#notice")).to_have_text(
        "You adjourned this match; you can resume it later."
    )
    expect(page.get_by_test_id("hint")).to_have_count(0)
    expect(page.locator("#panel")).to_contain_text("You adjourned this match")
    page.screenshot(path=str(artifacts / "story-adjourned-en.png"))

    # the map offers that table, not a new deal
    page.goto(server.http + "/story")
    expect(page.get_by_test_id("story-unfinished-0")).to_have_text(
        "Your table here is not finished: continue it where you left off."
    )
    expect(page.get_by_test_id("story-play-0")).to_have_count(0)
    expect(page.get_by_test_id("story-continue-0")).to_have_text("Continue your table")
    expect(page.get_by_test_id("story-restart-0")).to_have_text("Start over (counts as a loss)")
    page.screenshot(path=str(artifacts / "story-unfinished-en.png"), full_page=True)
    page.get_by_test_id("story-continue-0").click()
    expect(page).to_have_url(re.compile(f"/table/{first}$"))
    expect(page.locator("#hand .card")).to_have_count(13)
    assert page.evaluate("window.batak.state.table.view.hand") == hand
    page.wait_for_function("() => window.batak.state.table.info.status === 'playing'")

    # starting over: asked first; the old table is closed and a new one is dealt
    page.get_by_role("button", name="Continue later").click()
    page.wait_for_function("() => window.batak.state.table.info.status === 'adjourned'")
    page.goto(server.http + "/story")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("story-continue-0")).to_have_text("Masana devam et")
    expect(page.get_by_test_id("story-restart-0")).to_have_text(
        "Baştan başla (kaybetmiş sayılırsın)"
    )
    page.screenshot(path=str(artifacts / "story-unfinished-tr.png"), full_page=True)
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_test_id("story-restart-0").click()
    assert asked == [
        "Bu masaya baştan başlansın mı? Yarım kalan masan kapanır ve kaybedilmiş sayılır."
    ]
    expect(page).to_have_url(re.compile(r"/story$"))  # dismissed: nothing happened
    page.once("dialog", lambda d: d.accept())
    page.get_by_test_id("story-restart-0").click()
    expect(page).to_have_url(re.compile(r"/table/t\w+$"))
    page.wait_for_function("(old) => window.batak.state.table.id !== old", arg=first)
    expect(page.locator("#hand .card")).to_have_count(13)
    # two tables dealt: played twice, won neither
    story = page.evaluate(
        """() => new Promise((done) => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws");
            ws.onopen = () => ws.send(JSON.stringify({type: "hello",
                token: localStorage.getItem("batak.token")}));
            ws.onmessage = (e) => { const m = JSON.parse(e.data);
                if (m.type === "welcome") ws.send(JSON.stringify({type: "story"}));
                if (m.type === "story") { ws.close(); done(m.stages[0]); } };
        })"""
    )
    assert (story["plays"], story["wins"], story["table"]) == (2, 0, _table_id(page))

    # the adjourned table's words to the host, in Turkish on a phone
    phone = open_page(browser, server, errors, locale="tr-TR", **PHONE)
    phone.goto(server.http + "/story")
    phone.get_by_test_id("story-play-0").click()
    expect(phone.locator("#hand .card")).to_have_count(13)
    _wait_my_turn(phone)
    phone.get_by_test_id("teach").click()
    expect(phone.get_by_test_id("hint")).to_be_visible()
    phone.get_by_role("button", name="Sonra devam et").click()
    expect(phone.locator("#notice")).to_have_text("Oyunu erteledin; sonra devam edebilirsin.")
    expect(phone.get_by_test_id("hint")).to_have_count(0)
    phone.screenshot(path=str(artifacts / "story-adjourned-phone-tr.png"))
    phone.goto(server.http + "/story")
    expect(phone.get_by_test_id("story-continue-0")).to_be_visible()
    phone.get_by_test_id("story-continue-0").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "story-unfinished-phone-tr.png"))
    phone.get_by_test_id("lang").click()
    expect(phone.get_by_test_id("story-continue-0")).to_have_text("Continue your table")
    phone.get_by_test_id("story-continue-0").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "story-unfinished-phone-en.png"))
    no_js_errors(errors)


def test_the_tea_garden_says_and_keeps_its_faster_clock(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """ "They play faster" there: the map shows each table's clock, the tea garden's shorter."""
    page = open_page(browser, server, errors, viewport=DESKTOP)
    page.goto(server.http + "/story")
    expect(page.get_by_test_id("stage-1")).to_contain_text("they play faster")
    expect(page.get_by_test_id("story-clock-1")).to_have_text("⏱ 15 s a move")
    expect(page.get_by_test_id("story-clock-0")).to_have_text("⏱ 25 s a move")
    page.screenshot(path=str(artifacts / "story-clocks-en.png"), full_page=True)
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("story-clock-1")).to_have_text("⏱ Hamle başına 15 sn")
    page.screenshot(path=str(artifacts / "story-clocks-tr.png"), full_page=True)
    phone = open_page(browser, server, errors, locale="tr-TR", **PHONE)
    phone.goto(server.http + "/story")
    phone.get_by_test_id("story-clock-1").scroll_into_view_if_needed()
    expect(phone.get_by_test_id("story-clock-1")).to_have_text("⏱ Hamle başına 15 sn")
    phone.screenshot(path=str(artifacts / "story-clocks-phone-tr.png"))
    no_js_errors(errors)
