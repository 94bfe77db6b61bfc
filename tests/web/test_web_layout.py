"""A player's fingers and eyes: on a phone the tournaments are found near the top of the lobby,
every small link or fold is at least 24 px tall, and a tap leaves no hover highlight behind; on
a 1280 px desktop the tournament form shows a table's whole name, a first bidder's eleven bid
buttons are one row on an 800 px high screen, and the host's top bar is one row there, so that
the hand, the bids, the turn line and the hand's strength stay on the screen under the notice."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PHONE_CTX as PHONE
from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import no_js_errors, open_page, register
from test_web_phone_table import TAP_FIRST
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


BOXES = """() => [...document.querySelectorAll('.lobby > section')].filter((e) => !e.hidden)
  .map((e) => {
  const r = e.getBoundingClientRect();
  return {id: e.getAttribute('aria-labelledby'), x: r.x, y: r.y, h: r.height}; })"""


@pytest.mark.parametrize("locale", ["en-US", "tr-TR"])
def test_the_lobbys_name_box_is_not_stretched_beside_quick_play_on_a_desktop(
    browser: Browser, server: ServerProcess, errors: list[str], locale: str
) -> None:
    """At 1280 px (and 1024) the lobby's boxes go two a row. The name box, short, stretched to
    the height of quick play beside it: a box mostly empty. It keeps its own height now, and
    every other box stays where it was: the rows line up as before (both boxes of a row at the
    same top), and on a phone the boxes come one under the other in the same order."""
    page = open_page(browser, server, errors, locale=locale, viewport=DESKTOP)
    expect(page.locator("#account-box h2")).to_be_visible()
    for width in (1280, 1024):
        page.set_viewport_size({"width": width, "height": 860})
        boxes = {b["id"]: b for b in page.evaluate(BOXES)}
        name, quick = boxes["h-name"], boxes["h-quick"]
        assert name["y"] == quick["y"] and name["x"] < quick["x"], (name, quick)
        assert name["h"] < quick["h"] / 2, (width, name, quick)  # its own height, not quick's
        inner = page.evaluate(
            "() => { const s = document.querySelector('.lobby > section[aria-labelledby=h-name]');"
            " const last = s.lastElementChild.getBoundingClientRect();"
            " return s.getBoundingClientRect().bottom - last.bottom; }"
        )
        assert inner < 40, inner  # no empty space under its last line (its padding only)
        # (a guest has no last matches: that box is hidden, the chips box comes beside the
        # account box)
        assert "h-matches" not in boxes, boxes
        pairs = [("h-private", "h-progress"), ("h-account", "h-chips")]
        for left, right in pairs:
            a, b = boxes[left], boxes[right]
            assert a["y"] == b["y"] and a["x"] < b["x"], (width, left, a, right, b)
        assert boxes["h-private"]["y"] >= quick["y"] + quick["h"]  # under the first row
    page.set_viewport_size({"width": 390, "height": 844})
    order = [b["id"] for b in sorted(page.evaluate(BOXES), key=lambda b: b["y"])]
    assert order == [b["id"] for b in page.evaluate(BOXES)], order  # as written, one a row
    assert order[:2] == ["h-name", "h-quick"], order
    no_js_errors(errors)


@pytest.mark.parametrize(
    ("locale", "empty"),
    [
        (
            "en-US",
            "No finished match yet. Once you finish one, it waits here with its score sheet,"
            " its review and its game record.",
        ),
        (
            "tr-TR",
            "Henüz bitirdiğin bir oyun yok. İlk oyununu bitirince burada, yazbozu, incelemesi"
            " ve oyun kaydıyla seni bekleyecek.",
        ),
    ],
)
def test_a_new_players_last_matches_take_their_own_height_and_say_what_comes(
    browser: Browser,
    server: ServerProcess,
    artifacts: Path,
    errors: list[str],
    locale: str,
    empty: str,
) -> None:
    """A new account has no finished match: "Your last matches" stretched beside the account
    box to its height (a heading, one line, then an empty box as tall as the account's forms
    and statistics), and so did the level box beside the private room's form. Both keep their
    own height now, the rows still line up, and the empty list says what will be there."""
    page = open_page(browser, server, errors, locale=locale, viewport=DESKTOP)
    register(page, "yeni", "uzun-parola-1")
    matches = page.get_by_test_id("matches-box")
    expect(matches.locator("p.help")).to_have_text(empty)
    expect(page.get_by_test_id("progress-box").locator("h2")).to_be_visible()
    for width in (1280, 1024):
        page.set_viewport_size({"width": width, "height": 860})
        boxes = {b["id"]: b for b in page.evaluate(BOXES)}
        for left, right in (("h-account", "h-matches"), ("h-private", "h-progress")):
            a, b = boxes[left], boxes[right]
            assert a["y"] == b["y"] and a["x"] < b["x"], (width, left, a, right, b)
            assert b["h"] < a["h"] * 0.8, (width, right, b, left, a)  # its own height
        inner = matches.evaluate(
            "(s) => s.getBoundingClientRect().bottom"
            " - s.lastElementChild.getBoundingClientRect().bottom"
        )
        assert inner < 40, inner  # no empty space under its last line (its padding only)
    page.set_viewport_size({"width": 1280, "height": 860})
    lang = locale[:2]
    page.screenshot(path=str(artifacts / f"layout-last-matches-desktop-{lang}.png"), full_page=True)
    no_js_errors(errors)


#: The bidding as the first bidder of a deal has it (no bid said yet, every bid offered: pass and
#: the lowest to the highest), drawn anew in the page's own view of the table.
FIRST_BIDDER = """() => { const v = window.batak.state.table.view, r = v.rules;
  window.realFirstMove = v.legal_moves[0];  // (the server's own first move, for to_a_card_turn)
  v.auction = [];
  v.legal_moves = ["pass"].concat(
    Array.from({length: r.max_bid - r.min_bid + 1}, (_, i) => "bid " + (r.min_bid + i)));
  window.batak.renderTable(); }"""

#: A card of this player's to play, or a koz of theirs to name.
CARD_OR_KOZ = """() => { const v = window.batak.state.table.view;
  return !!v && ((v.phase === "play" && !!document.querySelector("#hand .card.legal"))
    || !!document.querySelector("#panel .bids button.suit-button")); }"""


def to_a_card_turn(page: Page) -> None:
    """From the player's bidding turn to their first card turn, within 60 s each step: the
    server's first legal move (FIRST_BIDDER's list is drawn, not the server's: a pas it shows
    may not be the dealer's to say), then the bots; where everyone passed and the player, the
    dealer, holds the ihale, the first koz offered, then the bots again."""
    move = page.evaluate("() => window.realFirstMove || null")
    bids = page.locator("#panel .bids button")
    (bids.and_(page.locator(f'[data-move="{move}"]')) if move else bids).first.click()
    page.wait_for_function(CARD_OR_KOZ, timeout=60_000)
    koz = page.locator("#panel .bids button.suit-button")
    if koz.count():
        koz.first.click()
    page.wait_for_function(
        """() => { const v = window.batak.state.table.view;
          return v && v.phase === "play" && document.querySelector("#hand .card.legal"); }""",
        timeout=60_000,
    )


#: The bid buttons' rows (their tops) and the lowest bottom edge.
BID_ROWS = """() => { const bs = [...document.querySelectorAll(".bids button")]
  .map((b) => b.getBoundingClientRect());
  return {n: bs.length, rows: [...new Set(bs.map((r) => Math.round(r.top)))].length,
    bottom: Math.max(...bs.map((r) => r.bottom))}; }"""


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-US"), ("tr", "tr-TR")])
def test_a_desktops_first_bidder_has_every_bid_on_the_screen_under_the_deals_notice(
    browser: Browser,
    server: ServerProcess,
    artifacts: Path,
    errors: list[str],
    lang: str,
    locale: str,
) -> None:
    """On a 1280 × 800 desktop in English, a player bidding first at a standard table (pass and
    bids 4 to 13, eleven buttons) while the deal's notice (who deals first) showed under the
    header had "Bid 13" alone on a second row, under the screen's bottom edge (821 px). The
    eleven buttons are one row, on the screen, in English and in Turkish."""
    screen = {"width": 1280, "height": 800}
    page = open_page(browser, server, errors, locale=locale, viewport=screen)
    private_room(page)
    assert page.evaluate(TAP_FIRST, "[data-testid=start]") == "start"
    expect(page.locator("#panel .bids button.bid").first).to_be_visible(timeout=60_000)
    if page.locator("#notice").is_hidden():  # (a slow machine: the deal's notice said again)
        page.evaluate(
            """() => { const b = window.batak, text = b.t("first_dealer_lots", {name: "Bot 3"});
              b.state.notice = {text, kind: "info", lang: b.lang(), at: Date.now()};
              b.render(); }"""
        )
    page.evaluate(FIRST_BIDDER)
    expect(page.locator("#notice")).to_be_visible()
    seen = page.evaluate(BID_ROWS)
    assert seen["n"] == 11 and seen["rows"] == 1 and seen["bottom"] <= 800, seen
    page.screenshot(path=str(artifacts / f"desktop-first-bidder-{lang}.png"))
    page.context.close()
    no_js_errors(errors)


#: The deal's notice said again (as at a deal's start), for the page's own measure: at a card
#: turn the first one has long gone (the page drawn anew, then its table).
NOTICE_AGAIN = """() => { const b = window.batak, text = b.t("first_dealer_lots", {name: "Bot 3"});
  b.state.notice = {text, kind: "info", lang: b.lang(), at: Date.now()};
  b.render(); b.renderTable(); }"""

#: The top bar's rows (its children's tops) and the lowest bottom edge of what a player on turn
#: needs: the hand, the bid buttons, the turn line ("Your turn" and "Teach me"), the hand's
#: strength and its Hide button.
TURN_BOXES = """() => { const bar = document.querySelector("#topbar");
  const buttons = [...bar.querySelectorAll("button, a.button")]
    .filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect())
    .sort((a, b) => a.top - b.top);
  let rows = 0, under = -Infinity;  // (a row: buttons whose heights overlap)
  for (const r of buttons) { if (r.top >= under) rows += 1; under = Math.max(under, r.bottom); }
  const sel = "#hand .card, .bids button, [data-testid=your-turn], [data-testid=teach],"
    + " [data-testid=estimate], [data-testid=estimate-hide], [data-testid=estimate-show]";
  const els = [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null);
  const low = els.map((e) => ({what: e.dataset.testid || e.className || e.tagName,
    bottom: e.getBoundingClientRect().bottom}))
    .sort((a, b) => b.bottom - a.bottom);
  return {rows, button: Math.max(...buttons.map((r) => r.height)),
    bar: bar.getBoundingClientRect().height, lowest: low[0],
    bids: document.querySelectorAll(".bids button").length,
    notice: !document.querySelector("#notice").hidden,
    turn: !!document.querySelector("[data-testid=your-turn]")}; }"""


@pytest.mark.parametrize("preset", ["standard", "sultan-kozmaca"])
@pytest.mark.parametrize(("lang", "locale"), [("en", "en-US"), ("tr", "tr-TR")])
def test_a_desktop_hosts_turn_fits_800_px_with_the_deals_notice(
    browser: Browser,
    server: ServerProcess,
    artifacts: Path,
    errors: list[str],
    lang: str,
    locale: str,
    preset: str,
) -> None:
    """On a 1280 × 800 desktop in English the host's top bar took three rows ("Continue later"
    pushed Sound onto a row of its own): with the deal's notice under it, the turn line, the
    hand's strength and its Hide button ended at 800 to 819 px, and Koz Maça's thirteen bid
    buttons at 803 px, under the screen's edge. The top bar is one row for the host, in English
    and in Turkish; at the auction and at a card turn the hand, every bid, the turn line and
    the hand's strength are on the screen with the notice showing."""
    screen = {"width": 1280, "height": 800}
    page = open_page(browser, server, errors, locale=locale, viewport=screen)
    private_room(page, preset)
    assert page.evaluate(TAP_FIRST, "[data-testid=start]") == "start"
    expect(page.locator("#panel .bids button").first).to_be_visible(timeout=60_000)
    if preset == "standard":  # (at Koz Maça every söz, 1 to 13, is offered to everyone)
        page.evaluate(FIRST_BIDDER)
    page.evaluate(NOTICE_AGAIN)
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator(".topbar .adjourn")).to_be_visible()  # the host's "Continue later"
    seen = page.evaluate(TURN_BOXES)
    page.screenshot(path=str(artifacts / f"desktop-800-auction-{preset}-{lang}.png"))
    assert seen["notice"] and seen["turn"] and seen["bids"] >= 11, seen
    # one row of buttons; the bar less high than two (the room's name over the deal's facts)
    assert seen["rows"] == 1 and seen["bar"] < 2 * seen["button"], seen
    assert seen["lowest"]["bottom"] <= 800, seen
    # a card turn: the lowest bid (or pas), then the bots, till a card is this player's to play
    to_a_card_turn(page)
    page.evaluate(NOTICE_AGAIN)
    expect(page.locator("#notice")).to_be_visible()
    # (a trick's cards still flying keep the felt till they land: its seats drawn again then)
    expect(page.locator("#felt .seat")).to_have_count(4)
    seen = page.evaluate(TURN_BOXES)
    page.screenshot(path=str(artifacts / f"desktop-800-card-turn-{preset}-{lang}.png"))
    assert seen["notice"] and seen["turn"], seen
    assert seen["rows"] == 1 and seen["bar"] < 2 * seen["button"], seen
    assert seen["lowest"]["bottom"] <= 800, seen
    page.context.close()
    no_js_errors(errors)
