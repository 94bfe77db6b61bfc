"""Screenshots of the web client for people to look at (issue 10): the lobby, a table of each
kind (ihaleli, eşli, açık eşli, Koz Maça, kitty), a deal's result and the match's result, on a
desktop (1280 × 800) and a phone (390 × 844), in Turkish and English. They are saved under
``test-artifacts/screenshots/`` (README, "Screenshots", lists them); the checks here are only
that each screen is the one named and that nothing is wider than the screen. The client's page
weight, the bytes a first visit loads, is measured here too and written next to them."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import LOCALES
from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import act, bid_for_the_kitty, no_js_errors, open_page, turn_in_deal

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}
#: kind of table → the private room's preset
KINDS = {
    "ihaleli": "standard",
    "esli": "sultan-esli",
    "acik-esli": "esli-acik",
    "kozmaca": "sultan-kozmaca",
    "kitty": "zipi-kitty",
}


def fits(page: Page) -> None:
    width = page.evaluate("() => window.innerWidth")
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    if wide > width + 1:  # name what sticks out
        out = page.evaluate(
            """(w) => [...document.querySelectorAll('body *')]
                .filter((e) => e.getBoundingClientRect().right > w + 1)
                .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(
                    e.getBoundingClientRect().right)).slice(0, 12)""",
            width,
        )
        raise AssertionError(f"the page is {wide} px wide on a {width} px screen: {out}")


WHERE = """() => { const T = window.batak.state.table; const v = T && T.view;
  return "the table did not get there in time: " + JSON.stringify({
    deal: v && v.match && v.match.deal, phase: v && v.phase, to_move: v && v.to_move,
    seat: v && v.seat, status: T && T.info && T.info.status, result: !!(T && T.result),
    drawn: window.batakMotion.drawn.slice(-8) }); }"""


def play_until(
    page: Page, done: Any, seconds: float = 150, deal: int | None = None, bury: bool = True
) -> None:
    """Play the page's seat until ``done()``; with ``deal``, make no decision in a later deal
    (the deal's result stays in view until the next deal's play begins); without ``bury``, leave
    a burial to the test (the view may say "bury" before the page has drawn its buttons)."""
    deadline = time.monotonic() + seconds
    while not done():
        # (if not: where the table is, and what the felt drew last)
        assert time.monotonic() < deadline, page.evaluate(WHERE)
        view = page.evaluate("() => window.batak.state.table.view")
        # with ``deal``: only the page's own turns in it (a check of the deal alone once passed
        # in the next deal, whose play then began and took the result away)
        if deal is not None and not turn_in_deal(view, deal):
            time.sleep(0.05)
            continue
        if (view is None or view["rules"]["kitty_size"]) and bid_for_the_kitty(page, view):
            continue  # (no view yet: the match has not begun here, and may begin with our bid)
        if view and view["phase"] == "bury" and view["to_move"] == view["seat"]:
            if not bury:
                time.sleep(0.05)
                continue
            if page.locator("#hand .card.picked").count():
                page.get_by_test_id("bury-undo").click()
            legal = page.locator("#hand .card.legal")
            for i in range(view["rules"]["kitty_size"] - len(view["buried"] or [])):
                legal.nth(i).click()
            page.get_by_test_id("bury-confirm").click()
            page.wait_for_function("() => window.batak.state.table.view.phase !== 'bury'")
            continue
        if not act(page, keyboard=True):
            time.sleep(0.05)


def in_play(page: Page) -> bool:
    v = page.evaluate("() => window.batak.state.table.view")
    return bool(
        v
        and v["phase"] == "play"
        and len(v["tricks"]) >= 2
        and v["current_trick"]["cards"]
        and (v["to_move"] == v["seat"])
    )


@pytest.mark.parametrize("lang", ["tr", "en"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_every_screen(
    browser: Browser,
    server: ServerProcess,
    artifacts: Path,
    errors: list[str],
    size: str,
    lang: str,
) -> None:
    out = artifacts / "screenshots"
    out.mkdir(exist_ok=True)
    locale = LOCALES[lang]

    def shot(page: Page, name: str) -> None:
        fits(page)
        page.wait_for_timeout(300)  # transitions (0.1 s) have ended
        page.screenshot(path=str(out / f"{name}-{size}-{lang}.png"))

    page = open_page(browser, server, errors, locale=locale, **SIZES[size])
    expect(page.get_by_test_id("quick-ihaleli")).to_be_visible()
    shot(page, "lobby")
    page.context.close()
    for kind, preset in KINDS.items():
        page = open_page(browser, server, errors, locale=locale, **SIZES[size])
        page.select_option("#preset-select", preset)
        page.fill("input[name=deals]", "2" if kind == "ihaleli" else "1")
        # a long clock and deal pause: under load the seat's time must not run out (a bot would
        # take the kitty), and the deal's result must stay until it is photographed
        page.fill("input[name=seconds]", "300")
        page.fill("input[name=deal_pause]", "30")
        page.get_by_test_id("create-room").click()
        page.get_by_test_id("start").click()
        expect(page.locator(".seat")).to_have_count(3 if kind == "kitty" else 4)
        if kind == "kitty":
            play_until(
                page, lambda p=page: p.get_by_test_id("bury-confirm").count() > 0, bury=False
            )
            for i in range(3):
                page.locator("#hand .card.legal").nth(i).click()
            shot(page, "table-kitty-bury")
        play_until(page, lambda p=page: in_play(p))
        expect(page.locator("#notice")).to_be_hidden(timeout=15_000)
        shot(page, f"table-{kind}")
        if kind == "ihaleli":
            play_until(page, lambda p=page: p.get_by_test_id("deal-over").count() > 0, deal=1)
            shot(page, "deal-result")
            page.keyboard.press("Escape")  # (closes the result, if it has not gone by itself)
            play_until(page, lambda p=page: p.get_by_test_id("match-over").count() > 0)
            shot(page, "match-result")
        page.context.close()
    no_js_errors(errors)


def test_page_weight(browser: Browser, server: ServerProcess, artifacts: Path) -> None:
    """The bytes of the files a first visit to the lobby loads (the page, its scripts and style,
    the texts and rules, icons; and what the service worker stores), uncompressed."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    paths: set[str] = set()
    context.on("request", lambda r: paths.add(urlsplit(r.url).path))
    page = context.new_page()
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class("status online")
    page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    page.wait_for_function(
        "async () => (await (await caches.open('batak-client-v1')).keys()).length >= 10"
    )
    paths |= set(
        page.evaluate(
            """async () => (await (await caches.open('batak-client-v1')).keys())
                .map((r) => new URL(r.url).pathname)"""
        )
    )
    context.close()
    paths.discard("/ws")
    sizes = {}
    for path in sorted(paths):
        with urllib.request.urlopen(server.http + path) as r:
            sizes[path] = len(r.read())
    total = sum(sizes.values())
    scripts = sum(n for p, n in sizes.items() if p.endswith(".js"))
    (artifacts / "page-weight.json").write_text(
        json.dumps({"total": total, "scripts": scripts, "files": sizes}, indent=1) + "\n"
    )
    assert "/static/app.js" in sizes and "/api/texts" in sizes
    # the private-room form's data (a preset's, 5,843 bytes for standard) comes only when a
    # player uses the form
    assert "/api/rules/form" not in sizes
    # small: no framework, no build step; 410,687 bytes on a first visit on 2026-12-07 (it was
    # 437,428 with the form's data in /api/rules), with about 2% to spare
    assert total < 420_000, sizes
