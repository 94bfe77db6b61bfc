"""A player's fingers and eyes: on a phone the tournaments are found near the top of the lobby,
every small link or fold is at least 24 px tall, and a tap leaves no hover highlight behind; on
a 1280 px desktop the tournament form shows a table's whole name."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PHONE_CTX as PHONE
from harness import ServerProcess
from playwright.sync_api import Browser, expect
from test_web import no_js_errors, open_page, register
from test_web_table import DESKTOP, private_room

HEIGHTS = """(els) => els.filter((e) => e.offsetParent !== null)
  .map((e) => ({what: e.textContent.trim().slice(0, 30), h: e.getBoundingClientRect().height}))"""


@pytest.mark.parametrize("locale", ["en-US", "tr-TR"])
def test_phone_tap_targets_and_the_tournaments_entry(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str], locale: str
) -> None:
    page = open_page(browser, server, errors, locale=locale, **PHONE)
    entry = page.get_by_test_id("lobby-tournaments")
    expect(entry).to_be_visible()
    # near the top, beside quick play and the story mode (the footer link is ~7,000 px down)
    top = entry.evaluate("(e) => e.getBoundingClientRect().top + window.scrollY")
    assert top < 2000, top
    targets = "summary, .page-links a, .header h1 a"
    small = page.evaluate(f"(sel) => ({HEIGHTS})([...document.querySelectorAll(sel)])", targets)
    assert small and all(x["h"] >= 24 for x in small), small
    # every hover style is for a pointer that hovers (on a phone a tap left it highlighted)
    loose = page.evaluate(
        """() => { const out = [];
          const walk = (rules, hover) => { for (const r of rules) {
            if (r.media) walk(r.cssRules, hover || /hover:\\s*hover/.test(r.media.mediaText));
            else if (r.selectorText && r.selectorText.includes(':hover') && !hover)
              out.push(r.selectorText); } };
          for (const s of document.styleSheets) walk(s.cssRules, false);
          return out; }"""
    )
    assert loose == [], loose
    page.screenshot(path=str(artifacts / f"layout-lobby-phone-{locale[:2]}.png"))
    entry.click()
    expect(page).to_have_url(server.http + "/tournaments")
    # at a table: the rules link in the top bar
    page.goto(server.http + "/")
    private_room(page)
    rules = page.evaluate(f"() => ({HEIGHTS})([...document.querySelectorAll('#topbar a')])")
    assert rules and all(x["h"] >= 24 for x in rules), rules
    no_js_errors(errors)


def test_the_tournament_form_shows_a_tables_whole_name_on_a_desktop(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    pytest.importorskip("argon2")
    page = open_page(browser, server, errors, viewport=DESKTOP)
    register(page, "ayse", "uzun-parola-1")
    page.get_by_test_id("link-tournaments").click()
    select = page.locator("#tourney-form select[name=preset]")
    expect(select).to_be_visible()
    # the widest table name, measured in the select's own font, fits in the select
    fits = select.evaluate(
        """(s) => { const c = document.createElement('canvas').getContext('2d');
          c.font = getComputedStyle(s).font;
          const widest = Math.max(...[...s.options].map((o) => c.measureText(o.text).width));
          return {widest, box: s.clientWidth}; }"""
    )
    assert fits["widest"] + 30 <= fits["box"], fits  # (and the arrow beside it)
    page.screenshot(path=str(artifacts / "layout-tourney-form-desktop-en.png"), full_page=True)
    no_js_errors(errors)
