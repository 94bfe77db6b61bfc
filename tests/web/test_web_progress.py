"""Levels, the rated leaderboard and the weekly league in a real Chromium (issue 13, items 1-3):
a browser plays a match and sees what it earned and the level badges; the progress box shows the
level, the rating, the league's standings and the rated leaderboard, in English on a desktop and
in Turkish on a 390 px phone."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import time
import urllib.request
from pathlib import Path

from conftest import PHONE_CTX, SERVE_ARGS
from harness import ServerProcess, free_port
from playwright.sync_api import Browser, Page, expect
from test_web import STATIC, act, no_js_errors, open_page, register, set_name

from batak.server.client import Client


def rated_players(server: ServerProcess, names: dict[str, str]) -> None:
    """Accounts that each finish a one-deal match (so they are rated and in the league)."""

    async def main() -> None:
        for username, name in names.items():
            c = Client(server.url, name=name)
            await c.connect()
            await c.register(username, "uzun-bir-parola")
            _, st = await c.create(preset="standard", deals=1)
            await c.start(st.id)
            await c.play(st.id, timeout=120)
            await c.awarded(st.id)
            await c.close()

    # in a thread of its own: Playwright's sync API runs an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


def play_one_deal(page: Page) -> None:
    page.fill("input[name=deals]", "1")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    deadline = time.monotonic() + 150
    while not page.get_by_test_id("match-over").count():
        assert time.monotonic() < deadline, "the match did not finish"
        if not act(page):
            time.sleep(0.05)


def no_overflow(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


def test_league_and_rated_leaderboard_in_both_languages(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    rated_players(server, {"ayse": "Ayşe", "mehmet": "Mehmet"})

    # English, desktop: a guest sees a level, no rating, no league
    page = open_page(
        browser, server, errors, locale="en-US", viewport={"width": 1280, "height": 900}
    )
    box = page.get_by_test_id("progress-box")
    expect(box.get_by_test_id("my-level")).to_contain_text("Level 1")
    expect(box.get_by_test_id("my-rating")).to_contain_text("Guests are not rated")
    expect(box.get_by_test_id("league-guest")).to_be_visible()
    set_name(page, "Emre")
    register(page, "emre", "sinek-vale-9")
    expect(box.get_by_test_id("my-rating")).to_contain_text("Rating: 0.0 ± 25.0")
    expect(box.get_by_test_id("league-empty")).to_contain_text("Finish a match this week")

    # a match: what it earned, in the match-over dialog; the level next to the names
    play_one_deal(page)
    awarded = page.get_by_test_id("awarded")
    expect(awarded).to_contain_text(re.compile(r"\+\d+ XP · You have \d+ XP, level \d"))
    expect(awarded).to_contain_text(re.compile(r"Rating -?\d+\.\d ± \d+\.\d \([+-]\d+\.\d\)"))
    expect(awarded).to_contain_text(re.compile(r"Bronze league: \d+ points this week"))
    expect(page.locator(".dialog .sheet-levels .lvl")).to_have_count(1)  # the person; no bot
    expect(page.locator(".seat .lvl")).to_have_count(1)
    page.screenshot(path=str(artifacts / "progress-match-over-en.png"))
    gained = int(re.search(r"\+(\d+) XP", awarded.inner_text()).group(1))  # type: ignore[union-attr]

    page.locator('.dialog a[data-href="/"]').click()  # back to the lobby
    league = page.get_by_test_id("league")
    expect(league.locator("tbody tr")).to_have_count(3)
    expect(page.get_by_test_id("league-tier")).to_have_text("Bronze")
    expect(league.locator("tr.mine")).to_contain_text("Emre")
    expect(league.locator("tr.mine")).to_contain_text(str(gained))
    points = [int(x) for x in league.locator("tbody td:nth-child(3)").all_inner_texts()]
    assert points == sorted(points, reverse=True)
    expect(league.locator(".zone-up")).to_have_count(1)  # 3 players: one up, one down
    expect(league.locator(".zone-down")).to_have_count(0)  # bronze: nobody goes down
    expect(page.get_by_test_id("my-level")).to_contain_text(f"{gained} XP")
    # the week as people say it (the server names it 2026-W49), one match with no plural "s"
    expect(page.get_by_test_id("progress-box")).to_contain_text(re.compile(r"week \d+ of 20\d\d"))
    expect(page.get_by_test_id("my-rating")).to_contain_text("(rated matches: 1)")
    page.screenshot(path=str(artifacts / "progress-league-en.png"), full_page=True)

    page.get_by_test_id("tab-ratings").click()
    ratings = page.get_by_test_id("ratings")
    expect(ratings.locator("tbody tr")).to_have_count(3)
    expect(ratings).to_contain_text("Ayşe")
    expect(ratings.locator("tr.mine")).to_contain_text("Emre")
    with urllib.request.urlopen(server.http + "/api/ratings") as r:
        rows = json.load(r)["players"]
    shown = [c.split(" ")[0] for c in ratings.locator("tbody td:nth-child(3)").all_inner_texts()]
    assert len(shown) == len(rows)
    for text, row in zip(shown, rows, strict=True):  # one decimal of the server's ordinal
        assert abs(float(text) - row["rating"]["ordinal"]) <= 0.051, (text, row)
    page.screenshot(path=str(artifacts / "progress-ratings-en.png"), full_page=True)

    # Turkish: the same box, in Turkish, with the reader's decimal comma
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("tab-ratings")).to_have_text("Reytingli sıralama")
    expect(ratings).to_contain_text(re.compile(r"\d,\d ± \d+,\d"))
    page.get_by_test_id("tab-league").click()
    expect(page.get_by_test_id("league-tier")).to_have_text("Bronz")
    expect(page.get_by_test_id("league")).to_contain_text("Emre")
    expect(page.get_by_test_id("my-level")).to_contain_text("seviye")
    expect(page.get_by_test_id("progress-box")).to_contain_text(re.compile(r"20\d\d, \d+\. hafta"))
    expect(page.get_by_test_id("my-rating")).to_contain_text("(reytingli oyun: 1)")
    no_js_errors(errors)

    # Turkish, a 390 px phone, the same account signed in
    phone = open_page(
        browser,
        server,
        errors,
        locale="tr-TR",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    phone.fill("#account-form input[name=username]", "emre")
    phone.fill("#account-form input[name=password]", "sinek-vale-9")
    phone.get_by_test_id("login").click()
    expect(phone.get_by_test_id("signed-in")).to_contain_text("emre")
    pbox = phone.get_by_test_id("progress-box")
    expect(pbox.get_by_test_id("league")).to_contain_text("Emre")
    expect(pbox).to_contain_text("Haftalık lig")
    expect(pbox.get_by_test_id("my-rating")).to_contain_text("Reyting:")
    pbox.scroll_into_view_if_needed()
    no_overflow(phone)
    phone.screenshot(path=str(artifacts / "progress-league-phone-tr.png"), full_page=True)
    phone.get_by_test_id("tab-ratings").tap()
    expect(pbox.get_by_test_id("ratings").locator("tbody tr")).to_have_count(3)
    no_overflow(phone)
    pbox.screenshot(path=str(artifacts / "progress-ratings-phone-tr.png"))
    no_js_errors(errors)


#: The match-over window's lines of what the match earned, in each language.
AWARDED_LINES = {
    "en": (
        r"\+\d+ XP · You have \d+ XP, level \d",
        r"Rating -?\d+\.\d ± \d+\.\d \([+-]\d+\.\d\)",
        r"Bronze league: \d+ points this week",
    ),
    "tr": (
        r"\+\d+ XP · \d+ XP ile \d+\. seviyedesin",
        r"Reyting -?\d+,\d ± \d+,\d \([+-]\d+,\d\)",
        r"Bronz ligi: bu hafta \d+ puan",
    ),
}


# in one go in the page (the window is drawn again as the server's answers come)
SHOW_AWARDED = """() => document.querySelector('[data-testid="awarded"]')
    .scrollIntoView({ block: "center" })"""


def test_the_match_over_window_after_a_reload_still_says_what_the_match_earned(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The XP, the rating's change and the league's points came only with the message at the
    match's end: a reload of the finished table (or coming back to it) showed the same window
    without them. The table's sync now carries them for the player's own seat: after a reload
    the window says the same, in either language."""
    for i, (name, lang, other, ctx) in enumerate(
        (
            ("desktop-en", "en", "tr", {"viewport": {"width": 1280, "height": 900}}),
            ("phone-tr", "tr", "en", PHONE_CTX),
        )
    ):
        page = open_page(browser, server, errors, locale=f"{lang}-{lang.upper()}", **ctx)
        set_name(page, "Emre")
        register(page, f"emre{i}", "sinek-vale-9")
        play_one_deal(page)
        awarded = page.get_by_test_id("awarded")
        for line in AWARDED_LINES[lang]:
            expect(awarded).to_contain_text(re.compile(line))
        said = awarded.inner_text()
        page.reload()
        expect(page.get_by_test_id("match-over")).to_be_visible()
        expect(awarded).to_be_visible()
        assert awarded.inner_text() == said
        page.evaluate(SHOW_AWARDED)
        page.screenshot(path=str(artifacts / f"match-over-reloaded-{name}.png"))
        page.get_by_test_id("over-lang").click()  # the other language, and a reload in it
        page.reload()
        for line in AWARDED_LINES[other]:
            expect(awarded).to_contain_text(re.compile(line))
        page.evaluate(SHOW_AWARDED)
        page.screenshot(path=str(artifacts / f"match-over-reloaded-{name}-{other}.png"))
        no_overflow(page)
        page.context.close()
    no_js_errors(errors)


def test_a_match_the_clock_played_says_no_xp_and_the_total_on_a_line_of_their_own(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """The "No XP" line after a match the player idled through (every decision of theirs made
    by the clock) was checked only as text. Looked at: on a phone in Turkish "1." and "seviye"
    were split over two lines, the total read "0 XP" right after "No XP" as if it were what the
    match earned, and the same words peeked out, cut, from behind the end window as a notice.
    Now the reason and the total ("You have 0 XP, level 1") each have a line, the total never
    breaks, and at the table the window alone says it."""
    args = ("--quick-deals", "1", "--decision-seconds", "1", "--bank-seconds", "0")
    server = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, *args)
    server.start()
    try:
        for name, locale, ctx, reason, total in (
            (
                "desktop-en",
                "en-US",
                {"viewport": {"width": 1280, "height": 800}},
                "No XP: the clock and computer players made most of your moves",
                "You have 0 XP, level 1",
            ),
            (
                "phone-tr",
                "tr-TR",
                PHONE_CTX,
                "XP yok: hamlelerinin çoğunu sen yapmadın; süren doldu ya da yerine bilgisayar"
                " oynadı",
                "0 XP ile 1. seviyedesin",
            ),
        ):
            page = open_page(browser, server, errors, locale=locale, **ctx)
            page.get_by_test_id("quick-ihaleli").click()  # and then not a single move
            expect(page.get_by_test_id("awarded-xp")).to_have_text(reason, timeout=120_000)
            expect(page.get_by_test_id("awarded-total")).to_have_text(total)
            lines = (
                page.get_by_test_id("awarded-total")
                .locator("span")
                .evaluate("(e) => e.getClientRects().length")
            )
            assert lines == 1, f"the total is on {lines} lines"
            expect(page.locator("#notice")).not_to_contain_text("XP")
            no_overflow(page)
            page.get_by_test_id("awarded").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"no-xp-{name}.png"))
            page.context.close()
    finally:
        server.stop()
    no_js_errors(errors)


def test_every_progress_text_exists_in_every_language(server: ServerProcess) -> None:
    with urllib.request.urlopen(server.http + "/api/texts") as r:
        texts = json.load(r)["texts"]
    script = (STATIC / "progress.js").read_text(encoding="utf-8")
    used = set(re.findall(r"\bt\(\s*\"(\w+)\"(?!\s*\+)", script))
    assert used and not used - set(texts), used - set(texts)
    for prefix, names in {
        "tier_": ["bronze", "silver", "gold", "platinum", "diamond"],
        "zone_": ["up", "down"],
        "outcome_": ["up", "down", "stay"],
    }.items():
        for n in names:
            assert set(texts[prefix + n]) == {"en", "tr"}, prefix + n


def one_line_rows_with_numbers_under_their_headings(
    page: Page, testid: str, name: str, rows: int = 3
) -> int:
    table = page.get_by_test_id(testid)
    expect(table.locator("tbody tr")).to_have_count(rows)
    # read in one go in the page: the box is drawn again as the server's answers come
    aligns, heights = page.evaluate(
        """(id) => {
            const t = document.querySelector(`[data-testid="${id}"]`);
            const align = (c) => getComputedStyle(c).textAlign;
            return [
                [...t.rows[1].cells].map((c, i) => [align(c), align(t.rows[0].cells[i])]),
                [...t.rows].map((r) => Math.round(r.getBoundingClientRect().height)),
            ];
        }""",
        testid,
    )
    # every number column's heading stands as its numbers do, at the right
    nums = [a for a in aligns if a[0] == "right"]
    assert nums and all(a == ["right", "right"] for a in nums), aligns
    # one line a row: each as high as the row of the shortest name, and not two lines high
    # (the headings' row is one line)
    head, *heights = heights
    assert max(heights) == min(heights) < 1.5 * head, (head, heights)
    expect(table.get_by_title(name)).to_have_count(1)  # the whole name, where it is cut
    return names_read_whole(page, testid)


# In one go in the page (a redraw comes when it will): the name column is at least 7em wide
# (less on a phone: 22% of its width); a name cut with "…" takes the focus (a tap, Tab) and shows
# whole while it has it; a name shown whole takes none. Returns how many names are cut.
NAMES_WHOLE = """(id) => {
    const t = document.querySelector(`[data-testid="${id}"]`);
    const names = t ? [...t.querySelectorAll(".who-name")] : [];
    const least = (td) =>
        Math.min(7 * parseFloat(getComputedStyle(td).fontSize), 0.22 * innerWidth);
    const narrow = (td) => td.offsetWidth < least(td) - 1;
    if (!names.length || names.some((e) => narrow(e.closest("td")))) return false;
    let cut = 0;
    for (const e of names) {
        if (e.scrollWidth <= e.clientWidth) {
            if (e.hasAttribute("tabindex")) return false;
            continue;
        }
        cut += 1;
        if (e.tabIndex !== 0) return false;
        e.focus();
        const text = e.innerText.replace(/\\s+/g, " ");
        const whole = e.scrollWidth <= e.clientWidth && text === e.title;
        e.blur();
        if (!whole) return false;
    }
    return { cut };
}"""


def names_read_whole(page: Page, testid: str) -> int:
    said = page.wait_for_function(NAMES_WHOLE, arg=testid).json_value()
    return int(said["cut"])


def test_long_names_keep_the_players_tables_on_one_line_each_with_numbers_under_their_headings(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """In the league, the rated leaderboard and the lobby's leaderboards the headings of the
    number columns stood at the left while their numbers stood at the right, and on a 390 px
    phone a long name wrapped over two or three lines, the rows of uneven heights. Now the
    headings stand over their numbers and every row is one line high, a long name cut with "…"
    and whole in its title. On a 1280 px desktop the lobby's three boxes a row left each about
    346 px inside, and a name of 24 letters (the longest allowed) was cut there too: two boxes
    a row show it whole, and the phone's page is still no wider than the phone."""
    long_name = "Abdurrahman Kahramanoğlu"
    assert len(long_name) == 24  # the server's name_max_chars
    rated_players(server, {"uzunad": long_name, "orta": "Gülizar Yıldırımoğlu-Ak", "kisa": "Ali"})
    for name, locale, ctx in (
        ("phone-tr", "tr-TR", PHONE_CTX),
        ("phone-en", "en-US", PHONE_CTX),
        ("desktop-en", "en-US", {"viewport": {"width": 1280, "height": 800}}),
        ("desktop-tr", "tr-TR", {"viewport": {"width": 1280, "height": 800}}),
    ):
        page = open_page(browser, server, errors, locale=locale, **ctx)
        page.fill("#account-form input[name=username]", "uzunad")
        page.fill("#account-form input[name=password]", "uzun-bir-parola")
        page.get_by_test_id("login").click()
        expect(page.get_by_test_id("signed-in")).to_contain_text("uzunad")
        box = page.get_by_test_id("progress-box")
        cut = one_line_rows_with_numbers_under_their_headings(page, "league", long_name)
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"progress-long-names-league-{name}.png"))
        page.get_by_test_id("tab-ratings").click()
        cut += one_line_rows_with_numbers_under_their_headings(page, "ratings", long_name)
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"progress-long-names-ratings-{name}.png"))
        cut += one_line_rows_with_numbers_under_their_headings(page, "leaderboard", long_name)
        page.get_by_test_id("leaderboard").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"leaderboard-long-names-{name}.png"))
        # (only accounts that have had a wallet are on it: this one)
        cut += one_line_rows_with_numbers_under_their_headings(
            page, "chip-leaderboard", long_name, 1
        )
        page.get_by_test_id("chip-leaderboard").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"chip-leaderboard-long-names-{name}.png"))
        no_overflow(page)
        if name.startswith("desktop"):
            assert not cut, f"{cut} names cut at 1280 px"
        else:
            assert cut, "no name cut on a phone: nothing was tried"
        page.get_by_test_id("tab-league").click()  # (the tab is remembered)
        page.context.close()
    no_js_errors(errors)


def test_the_leaderboards_average_heading_is_short_on_a_phone_and_whole_on_a_desktop(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The lobby's leaderboard headed its last column "Average per deal" ("El başına
    ortalama"), which wrapped over three lines on a 390 px phone. There the heading is short
    ("Avg", "Ort."), the whole words its title and its name to a screen reader, as the
    tournament's standings do ("MP", "Deals"); the headings' row is one line. On a desktop the
    whole words show."""
    rated_players(server, {"ortalama": "Ayşe"})
    for lang, locale, ctx, name in (
        ("en", "en-US", PHONE_CTX, "phone"),
        ("tr", "tr-TR", PHONE_CTX, "phone"),
        ("en", "en-US", {"viewport": {"width": 1280, "height": 800}}, "desktop"),
        ("tr", "tr-TR", {"viewport": {"width": 1280, "height": 800}}, "desktop"),
    ):
        whole, short = {"en": ("Average per deal", "Avg"), "tr": ("El başına ortalama", "Ort.")}[
            lang
        ]
        page = open_page(browser, server, errors, locale=locale, **ctx)
        board = page.get_by_test_id("leaderboard")
        expect(board.locator("tbody tr")).to_have_count(1)
        board.scroll_into_view_if_needed()
        # read in one go (the box is drawn again as the server's answers come)
        head, row = page.evaluate(
            """() => {
                const t = document.querySelector('[data-testid="leaderboard"]');
                return [t.rows[0], t.rows[1]].map((r) => r.getBoundingClientRect().height);
            }"""
        )
        if name == "phone":
            abbr = board.locator("thead abbr")
            expect(abbr).to_be_visible()
            expect(abbr).to_have_text(short)
            expect(abbr).to_have_attribute("title", whole)
            expect(abbr).to_have_attribute("aria-label", whole)
            expect(board.get_by_text(whole, exact=True)).to_be_hidden()
        else:
            expect(board.get_by_text(whole, exact=True)).to_be_visible()
            expect(board.locator("thead abbr")).to_be_hidden()
        page.screenshot(path=str(artifacts / f"leaderboard-average-{name}-{lang}.png"))
        # the headings' row is one line, no higher than a player's row
        assert head <= row + 1, (lang, name, head, row)
        page.context.close()
    no_js_errors(errors)
