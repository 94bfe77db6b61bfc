"""Browser tests of a tournament's standings and the story map, in English and Turkish, on a
desktop and a 390 px phone (issue 13 items 4 and 5)."""

from __future__ import annotations

import asyncio
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import no_js_errors, open_page

from batak.server.client import Client

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def _finished_tournament(server: ServerProcess) -> str:
    """An account schedules a one-round tournament, starts it and lets a bot play its seat;
    returns its id once it is over."""

    async def main() -> str:
        a = Client(server.url, name="Ayşe")
        await a.connect()
        await a.request({"type": "register", "username": "ayse", "password": "uzun-parola-1"})
        t = await a.tourney_create(
            name="Kış kupası", rounds=1, deals=1, start=int(time.time()) + 3600
        )
        await a.tourney_start(t["id"])
        note = await a.wait_for(lambda m: m.get("type") == "tourney_table", 30)
        await a.join(note["table"])
        await a.leave(note["table"])  # a bot plays the seat
        for _ in range(600):
            if (await a.tourney(t["id"]))["status"] == "over":
                break
            await asyncio.sleep(0.1)
        await a.close()
        return str(t["id"])

    # (in a thread of its own: Playwright's event loop runs in this one)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


def _no_overflow(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


def test_a_tournaments_standings_in_both_languages_on_desktop_and_phone(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    pytest.importorskip("argon2")
    tid = _finished_tournament(server)
    page = open_page(browser, server, errors, viewport={"width": 1280, "height": 860})
    page.get_by_test_id("link-tournaments").click()
    expect(page.get_by_test_id("tourney-list")).to_contain_text("Kış kupası")
    expect(page.get_by_test_id("tourney-list")).to_contain_text("Over")
    page.get_by_role("button", name="Open").click()
    expect(page).to_have_url(re.compile(f"/tournaments/{tid}$"))
    standings = page.get_by_test_id("tourney-standings")
    expect(standings).to_contain_text("Matchpoints")
    expect(standings.locator("tbody tr")).to_have_count(1)
    expect(standings.locator("tbody tr").first).to_contain_text("Ayşe")
    expect(page.locator(".tourney-tables li")).to_have_count(2)  # the par table of bots too
    expect(page.get_by_text("Game record").first).to_be_visible()
    expect(page.get_by_text(re.compile("^Started .* · scheduled by"))).to_be_visible()  # over
    page.screenshot(path=str(artifacts / "tournament-en.png"), full_page=True)
    page.get_by_test_id("lang").click()
    expect(standings).to_contain_text("Maç puanı")
    expect(page.get_by_text("Sıralama", exact=True)).to_be_visible()
    expect(page.get_by_text("Oyun kaydı").first).to_be_visible()
    expect(page.get_by_text(re.compile("^Başladı: .* · düzenleyen"))).to_be_visible()
    summary = re.compile("Standart \\(yaygın kurallar · ihaleli\\) · tur: 1")
    expect(page.get_by_text(summary)).to_be_visible()

    phone = open_page(browser, server, errors, locale="tr-TR", **PHONE)
    phone.goto(server.http + f"/tournaments/{tid}")
    expect(phone.get_by_test_id("tourney-standings")).to_contain_text("Maç puanı")
    expect(phone.get_by_test_id("tourney-name")).to_have_text("Kış kupası")
    _no_overflow(phone)
    phone.screenshot(path=str(artifacts / "tournament-phone-tr.png"), full_page=True)
    no_js_errors(errors)


def test_the_story_map_and_its_first_table_in_both_languages(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport={"width": 1280, "height": 860})
    page.get_by_test_id("link-story").click()
    expect(page.get_by_test_id("story-title")).to_have_text("Story mode")
    stages = page.locator(".story-map > li")
    expect(stages).to_have_count(5)
    expect(page.locator(".stage.open")).to_have_count(1)
    expect(page.locator(".stage.locked")).to_have_count(4)
    expect(page.get_by_text("Win the previous table to sit at this one.").first).to_be_visible()
    expect(page.get_by_test_id("stage-0")).to_contain_text("The corner café")
    expect(page.get_by_test_id("stage-0")).to_contain_text("Hasan Amca")
    expect(page.get_by_test_id("stage-0")).to_contain_text("a careful bidder")
    expect(page.get_by_test_id("stage-4")).to_contain_text("The city final")
    expect(page.locator(".portrait")).to_have_count(15)
    expect(page.get_by_test_id("story-play-1")).to_have_count(0)  # locked
    page.screenshot(path=str(artifacts / "story-en.png"), full_page=True)
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("story-title")).to_have_text("Hikâye modu")
    expect(page.get_by_test_id("stage-0")).to_contain_text("Köşe kahvesi")
    expect(page.get_by_test_id("stage-0")).to_contain_text("temkinli ihaleci")
    # the first table: its three characters sit with their portraits, and the match starts
    page.get_by_test_id("story-play-0").click()
    expect(page).to_have_url(re.compile(r"/table/t\w+$"))
    expect(page.locator(".seat .portrait")).to_have_count(3)
    expect(page.locator(".seat .name", has_text="Sevim Abla")).to_have_count(1)
    expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)
    page.screenshot(path=str(artifacts / "story-table-tr.png"))

    phone = open_page(browser, server, errors, locale="tr-TR", **PHONE)
    phone.goto(server.http + "/story")
    expect(phone.get_by_test_id("story-title")).to_have_text("Hikâye modu")
    expect(phone.locator(".story-map > li")).to_have_count(5)
    _no_overflow(phone)
    phone.screenshot(path=str(artifacts / "story-phone-tr.png"), full_page=True)
    no_js_errors(errors)
