"""Browser tests of a tournament's standings and the story map, in English and Turkish, on a
desktop and a 390 px phone (issue 13 items 4 and 5)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import PHONE_CTX as PHONE
from conftest import watch
from harness import ServerProcess, ServerThread, fast_config
from playwright.sync_api import Browser, Page, expect
from test_web import no_js_errors, open_page, register

from batak.server.client import Client


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
    # the rank stands over its number as the other numbers do; a name keeps to one line, whole
    # in its title, as in the other tables of players
    aligned = "t => [...t.querySelectorAll('thead th')].map((th) => getComputedStyle(th).textAlign)"
    assert standings.evaluate(aligned) == ["right", "left", "right", "right", "right"]
    expect(standings.locator("tbody .who-name")).to_have_attribute("title", "Ayşe")
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
    # the standings stay inside their card (the Turkish column names are long)
    table = phone.get_by_test_id("tourney-standings").bounding_box()
    card = phone.locator("section.card-box", has=phone.get_by_test_id("tourney-standings"))
    box = card.bounding_box()
    assert table and box, (table, box)
    assert table["x"] + table["width"] <= box["x"] + box["width"] - 8, (table, box)
    phone.screenshot(path=str(artifacts / "tournament-phone-tr.png"), full_page=True)
    # a table of the tournament, over: the way back to the tournament, and no rematch
    played = phone.evaluate(
        "async (tid) => (await (await fetch(`/api/tournaments/${tid}`)).json()).tables[0].id", tid
    )
    phone.goto(server.http + f"/table/{played}")
    expect(phone.get_by_test_id("match-over")).to_be_visible()
    expect(phone.get_by_test_id("rematch")).to_have_count(0)
    # the window speaks of the tournament (matchpoints count), not of a winner at this table;
    # the table names its tournament, round and table number
    expect(phone.get_by_test_id("match-over")).to_have_text("1. tur: bu masanın sonucu")
    expect(phone.get_by_test_id("tourney-over-help")).to_contain_text("maç puanı")
    expect(phone.locator("#dialog .winners")).to_have_count(0)
    expect(phone.locator("#dialog .ranking .cup")).to_have_count(0)  # nobody wins the table
    phone.screenshot(path=str(artifacts / "tournament-table-over-phone-tr.png"))
    expect(phone.get_by_test_id("table-tourney")).to_have_text("🏆 Kış kupası")
    expect(phone.locator("#topbar .room")).to_contain_text("Tur 1 / 1 · Masa 1")
    expect(phone.locator("#topbar .room")).not_to_contain_text("Oda")
    phone.get_by_test_id("tourney-back").click()
    expect(phone).to_have_url(re.compile(f"/tournaments/{tid}$"))
    expect(phone.get_by_test_id("tourney-name")).to_have_text("Kış kupası")
    no_js_errors(errors)


def _finished_tournament_with_a_bot_account(server: ServerProcess) -> str:
    """A one-round tournament Ayşe and the bot account ``robotur`` (``batak bot
    --tournament``'s registration) entered, played out by the house's bots; its id once over."""

    async def main() -> str:
        a = Client(server.url, name="Ayşe")
        bot = Client(server.url, name="robotur")
        for c in (a, bot):
            await c.connect()
        await a.request({"type": "register", "username": "ayse", "password": "uzun-parola-1"})
        await bot.register("robotur", "uzun-bir-parola", bot=True)
        t = await a.tourney_create(
            name="Kış kupası", rounds=1, deals=1, start=int(time.time()) + 3600
        )
        await bot.tourney_join(t["id"])
        await a.tourney_start(t["id"])
        for c in (a, bot):
            note = await c.wait_for(lambda m: m.get("type") == "tourney_table", 30)
            await c.join(note["table"])
            await c.leave(note["table"], here=True)  # a computer plays the seat
        for _ in range(600):
            if (await a.tourney(t["id"]))["status"] == "over":
                break
            await asyncio.sleep(0.1)
        for c in (a, bot):
            await c.close()
        return str(t["id"])

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


def test_a_bot_account_is_tagged_in_a_tournaments_standings_and_tables(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """A bot account entered with ``batak bot --tournament`` is tagged "bot" in the standings
    and in its round's table, as in the lobby and at a table; the person beside it is not."""
    pytest.importorskip("argon2")
    tid = _finished_tournament_with_a_bot_account(server)
    desktop = {"width": 1280, "height": 860}
    for lang, size in (
        ("en", desktop),
        ("tr", desktop),
        ("en", PHONE["viewport"]),
        ("tr", PHONE["viewport"]),
    ):
        locale = "tr-TR" if lang == "tr" else "en-GB"
        extra = {k: v for k, v in PHONE.items() if k != "viewport"} if size["width"] < 500 else {}
        page = open_page(browser, server, errors, locale=locale, viewport=size, **extra)
        page.goto(server.http + f"/tournaments/{tid}")
        standings = page.get_by_test_id("tourney-standings")
        expect(standings).to_contain_text("Maç puanı" if lang == "tr" else "Matchpoints")
        rows = standings.locator("tbody tr")
        expect(rows).to_have_count(2)
        robot = rows.filter(has_text="robotur")
        expect(robot.get_by_test_id("bot-account-tag")).to_have_text("bot")  # (both languages)
        expect(rows.filter(has_text="Ayşe").get_by_test_id("bot-account-tag")).to_have_count(0)
        # the tag stands apart from the name (it touched it, the space lost in the flex box)
        name = robot.locator(".who-name").bounding_box()
        tag = robot.get_by_test_id("bot-account-tag").bounding_box()
        assert name and tag and tag["x"] >= name["x"] + name["width"] + 4, (name, tag)
        # the whole name on a phone too: "Matchpoints" took its room ("robotur" was "rob…");
        # there the heading is short, the whole word its title
        cut = robot.locator(".who-name").evaluate("(e) => e.scrollWidth > e.clientWidth")
        assert not cut, f"robotur cut at {size['width']} px ({lang})"
        whole = "Maç puanı" if lang == "tr" else "Matchpoints"
        if size["width"] < 500:
            short = standings.locator("thead abbr").first
            expect(short).to_be_visible()
            expect(short).to_have_text("MP")
            expect(short).to_have_attribute("title", whole)
            expect(standings.get_by_text(whole, exact=True)).to_be_hidden()
        else:
            expect(standings.get_by_text(whole, exact=True)).to_be_visible()
            expect(standings.locator("thead abbr")).to_have_count(2)
            expect(standings.locator("thead abbr").first).to_be_hidden()
        tables = page.locator(".tourney-tables li")
        expect(tables.get_by_test_id("bot-account-tag")).to_have_count(1)
        expect(tables.filter(has_text="robotur").get_by_test_id("bot-account-tag")).to_have_count(1)
        _no_overflow(page)
        device = "phone" if size["width"] < 500 else "desktop"
        page.screenshot(path=str(artifacts / f"tournament-bot-{device}-{lang}.png"), full_page=True)
        page.close()
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
    # each title inside its card ("The neighbourhood club" ran past its edge)
    past = page.evaluate(
        """() => [...document.querySelectorAll(".stage-head")].filter((h) =>
            h.scrollWidth > h.clientWidth).map((h) => h.textContent.trim())"""
    )
    assert past == []
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


def test_scheduling_a_tournament_in_the_browser_and_finding_your_table(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The form reads like the private-room one (each label above its field); the table list
    offers each set of rules once; a tournament without a name is named by its table, not by
    the preset's program name; started early, it says so; your own table is to be played."""
    pytest.importorskip("argon2")
    page = open_page(
        browser, server, errors, locale="tr-TR", timezone_id="Europe/Istanbul", **PHONE
    )
    register(page, "ayse", "uzun-parola-1")
    page.get_by_test_id("link-tournaments").click()
    form = page.locator("#tourney-form")
    expect(form).to_be_visible()
    expect(
        page.get_by_test_id("tourney-list").or_(page.get_by_text("Henüz turnuva yok."))
    ).to_be_visible()
    # (measured in one go: the page may be drawn again meanwhile)
    places = form.evaluate(
        """(f) => [...f.querySelectorAll("label")].map((l) => {
            const a = l.getBoundingClientRect(), b = l.querySelector("input, select")
                .getBoundingClientRect();
            return {name: l.querySelector("input, select").name, label: [a.y, a.width],
                    field: [b.y, b.width]};
        })"""
    )
    assert len(places) == 6, places
    for p in places:
        # under its label's words, as wide as the label
        assert p["field"][0] >= p["label"][0] + 10, p
        assert abs(p["field"][1] - p["label"][1]) <= 1, p
    expect(form.locator("option[value=cetinsgame-ihaleli]")).to_have_count(0)
    expect(form.locator("option[value=standard]")).to_have_text(
        "Standart (yaygın kurallar · ihaleli)"
    )
    page.screenshot(path=str(artifacts / "tournament-form-phone-tr.png"), full_page=True)
    # the start is read in the browser's time zone, and the form says which
    expect(page.get_by_test_id("tourney-zone")).to_have_text("(Europe/Istanbul)")
    # the suggested start is a full hour at least half an hour away (at 05:59 it was 06:00)
    ahead = form.evaluate(
        "(f) => new Date(`${f.start_day.value}T${f.start_time.value}`) - Date.now()"
    )
    assert 1800e3 <= ahead <= 5400e3, ahead
    # the day and the time are written in the page's language (Chromium's own date field wrote
    # "12/08/2026, 07:00 AM" on a Turkish page): a day's name, a 24-hour time
    day = form.locator("[name=start_day] option:checked").inner_text()
    assert re.fullmatch(r"\d{1,2} \w+ \d{4} \w+", day), day  # "8 Aralık 2026 Salı"
    assert any(
        m in day
        for m in (
            "Ocak",
            "Şubat",
            "Mart",
            "Nisan",
            "Mayıs",
            "Haziran",
            "Temmuz",
            "Ağustos",
            "Eylül",
            "Ekim",
            "Kasım",
            "Aralık",
        )
    ), day
    expect(form.locator("[name=start_time] option[value='19:00']")).to_have_text("19:00")
    expect(form.locator("input[type=datetime-local]")).to_have_count(0)
    # what is typed survives the page's redraws (here the language switch's)
    form.locator("[name=rounds]").fill("1")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("tourney-create")).to_have_text("Schedule")
    expect(form.locator("[name=rounds]")).to_have_value("1")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("tourney-create")).to_have_text("Planla")
    form.locator("[name=rounds]").fill("1")
    form.locator("[name=deals]").fill("1")
    expect(form.locator("[name=rounds]")).to_have_value("1")
    page.get_by_test_id("tourney-create").click()
    expect(page.get_by_test_id("tourney-name")).to_have_text("Standart (yaygın kurallar · ihaleli)")
    page.get_by_test_id("tourney-start").click()
    expect(page).to_have_url(re.compile(r"/table/\w+$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"/tournaments/\w+$"))
    # started now, not at the planned hour
    planned = page.evaluate(
        """() => { const d = new Date(Date.now() + 5400e3); d.setMinutes(0, 0, 0);
                   return d.toLocaleString('tr-TR', {timeStyle: 'short'}); }"""
    )
    expect(page.get_by_text(re.compile("^Başladı: "))).not_to_contain_text(planned)
    go = page.get_by_test_id("tourney-go-table")
    expect(go).to_have_text("Masana git")
    expect(page.locator(".tourney-tables li", has=go)).not_to_contain_text("İzle")
    page.screenshot(path=str(artifacts / "tournament-running-phone-tr.png"), full_page=True)
    go.click()
    expect(page).to_have_url(re.compile(r"/table/\w+$"))
    # (a computer player took the seat while the tournament's page was open: some of the
    # hand may have been played)
    expect(page.locator("#hand .card").first).to_be_visible()
    no_js_errors(errors)


def _winning_deal() -> tuple[list[str], None]:
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    rest = [f"{r}{s}" for s in "HDC" for r in ranks]
    return [" ".join(f"{r}S" for r in ranks)] + [" ".join(rest[i::3]) for i in range(3)], None


def _take_all(view: dict[str, Any]) -> str:
    legal = [str(m) for m in view["legal_moves"]]
    if view["phase"] == "bidding":
        return "bid 13"
    return "trump S" if "trump S" in legal else legal[0]


def test_a_won_story_table_offers_the_next_one_and_the_map_crowns_the_champion(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """A server in this process, so that its test hook can deal the player all the spades: the
    browser watches its own seat while the same account plays it through a client."""
    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path)) as srv:
        srv.hub.story.deal_hook = lambda stage: [_winning_deal()] * 4
        desktop = {"width": 1280, "height": 860}
        page = open_page(browser, srv, errors, viewport=desktop)  # type: ignore[arg-type]
        register(page, "deniz", "uzun-parola-2")

        async def play(stage: int) -> str:
            c = Client(srv.url, name="Deniz")
            await c.connect()
            await c.login("deniz", "uzun-parola-2")
            st = await c.story_play(stage)
            await c.play(st.id, _take_all, timeout=120)
            await c.close()
            return st.id

        # the same account plays the first table; then the browser opens its seat there
        with ThreadPoolExecutor(1) as pool:
            tid = pool.submit(lambda: asyncio.run(play(0))).result()
        page.goto(srv.http + f"/table/{tid}")
        expect(page.get_by_test_id("match-over")).to_be_visible()
        expect(page.get_by_test_id("story-map-link")).to_have_text("Story map")
        expect(page.get_by_test_id("story-next")).to_have_text(
            "Next table: The tea garden in the park"
        )
        # one green button: the next table; the rematch beside it is a plain one
        expect(page.locator(".dialog button.primary")).to_have_count(1)
        expect(page.get_by_test_id("story-next")).to_have_class("primary")
        expect(page.get_by_test_id("rematch")).not_to_have_class("primary")
        page.screenshot(path=str(artifacts / "story-won-en.png"))
        page.get_by_test_id("story-next").click()
        expect(page.locator(".seat .name", has_text="Emekli Nuri")).to_have_count(1)
        # every table won: the map says so
        pid = page.evaluate("() => window.batak.state.player.id")

        async def champion() -> None:
            progress = await srv.hub.story.progress(pid)
            progress["cleared"] = 5
            await srv.hub.storage.save_story_progress(pid, progress)

        srv.call(champion)
        page.goto(srv.http + "/story")
        expect(page.get_by_test_id("story-champion")).to_contain_text("city champion")
        no_js_errors(errors)


def test_a_tournament_link_that_leads_nowhere_says_so(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """An unknown tournament's address said "Connecting…" for ever under the error."""
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE)
    page.goto(server.http + "/tournaments/Tnope")
    missing = page.get_by_test_id("tourney-missing")
    expect(missing).to_contain_text("'Tnope' diye bir turnuva yok.")
    expect(page.get_by_text("Bağlanılıyor")).to_have_count(0)
    missing.get_by_role("link", name="Turnuvalar").click()
    expect(page).to_have_url(re.compile(r"/tournaments$"))
    no_js_errors(errors)


def test_the_operator_starts_anyones_tournament_and_a_round_waits_for_a_match_in_play(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """An operator sees Start on a tournament another account scheduled (only its creator
    did); a start time already past is asked about, not started at once; a round that seats
    a player in the middle of another match says so with a button, instead of taking them
    away from that match."""
    pytest.importorskip("argon2")
    from conftest import SERVE_ARGS
    from harness import free_port

    server = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, "--operator", "opa")
    server.start()
    try:

        async def schedule() -> tuple[Client, str]:
            v = Client(server.url, name="Veli")
            await v.connect()
            await v.request({"type": "register", "username": "veli", "password": "uzun-parola-1"})
            made = await v.tourney_create(
                name="Bahar kupası", rounds=1, deals=1, start=int(time.time()) + 3600
            )
            return v, str(made["id"])

        loop = asyncio.new_event_loop()
        with ThreadPoolExecutor(1) as pool:
            veli, tid = pool.submit(lambda: loop.run_until_complete(schedule())).result()
            page = open_page(browser, server, errors)
            register(page, "opa", "uzun-parola-1")
            # a start time already past: asked first; refused, nothing is scheduled
            page.get_by_test_id("link-tournaments").click()
            form = page.locator("#tourney-form")
            # (today at midnight: the first day and the first time)
            form.locator("[name=start_day]").select_option(index=0)
            form.locator("[name=start_time]").select_option("00:00")
            asked: list[str] = []
            page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
            page.get_by_test_id("tourney-create").click()
            expect(page.get_by_test_id("tourney-list")).to_be_visible()
            assert asked and "already passed" in asked[0], asked
            expect(page).to_have_url(re.compile(r"/tournaments$"))
            expect(page.get_by_test_id("tourney-list").locator("li")).to_have_count(1)
            # Veli's tournament: the operator may start it, and registers
            page.goto(f"{server.http}/tournaments/{tid}")
            expect(page.get_by_test_id("tourney-start")).to_be_visible()
            page.get_by_test_id("tourney-join").click()
            expect(page.get_by_test_id("tourney-leave")).to_be_visible()
            # a match in play elsewhere when the round seats the player
            page.goto(server.http + "/")
            page.select_option("#preset-select", "standard")
            page.get_by_test_id("create-room").click()
            code = page.get_by_test_id("room-code").inner_text()
            page.get_by_test_id("start").click()
            expect(page.locator("#hand .card")).to_have_count(13)
            here = page.url
            pool.submit(lambda: loop.run_until_complete(veli.tourney_start(tid))).result()
            call = page.get_by_test_id("tourney-call")
            expect(call).to_contain_text("your table is ready")
            assert page.url == here
            page.screenshot(path=str(artifacts / "tournament-call-desktop-en.png"))
            # going leaves the match in play: the Leave button's question is asked first, and
            # no keeps the player at the table, the bar still there (it went at once)
            asked.clear()
            page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
            page.get_by_test_id("tourney-call-go").click()
            expect(call).to_be_visible()
            expect(page.locator("#hand .card")).to_have_count(13)
            assert len(asked) == 1, asked
            assert asked[0].startswith("Leave the table? A computer player takes your seat"), asked
            assert page.url == here
            page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
            page.get_by_test_id("tourney-call-go").click()
            expect(page).not_to_have_url(here)
            assert len(asked) == 2, asked
            expect(page).to_have_url(re.compile(r"/table/\w+$"))
            expect(call).to_have_count(0)

            # the seat left behind (a room alone with the house's bots: nobody else waits there,
            # so only the going itself says "leave") is played by a computer at once
            async def seat_away() -> bool:
                w = Client(server.url, name="Can")
                await w.connect()
                table = await w.join(code=code, spectate=True)

                def away() -> bool:
                    person = [x for x in table.info["seats"] if x["player"] and not x["bot"]]
                    return len(person) == 1 and bool(person[0]["away"])

                with contextlib.suppress(TimeoutError):
                    await w.until(away, 5)
                await w.close()
                return away()

            assert pool.submit(lambda: loop.run_until_complete(seat_away())).result()
            pool.submit(lambda: loop.run_until_complete(veli.close())).result()
        loop.close()
    finally:
        server.stop()
    no_js_errors(errors)


def _ayse_starts_a_cup(
    url: str, loop: asyncio.AbstractEventLoop, pool: ThreadPoolExecutor
) -> tuple[Client, str]:
    """Ayşe (an account the page registered) schedules "Kış kupası" (one round of one deal) an
    hour from now and starts it, through a client of her own on ``loop`` in ``pool``'s thread;
    the start is not waited for (its round is seated in the background). Her client and the
    tournament's id."""

    async def schedule() -> tuple[Client, str]:
        c = Client(url, name="Ayşe")
        await c.connect()
        await c.login("ayse", "uzun-parola-1")
        start = int(time.time()) + 3600
        doc = await c.tourney_create(name="Kış kupası", rounds=1, deals=1, start=start)
        return c, str(doc["id"])

    ayse, tid = pool.submit(lambda: loop.run_until_complete(schedule())).result()
    pool.submit(lambda: loop.run_until_complete(ayse.tourney_start(tid)))
    return ayse, tid


@pytest.mark.parametrize(
    ("locale", "ctx", "said"),
    [
        (
            "tr-TR",
            PHONE,
            "Masan hazırlanıyor: turun koltukları dağıtılıyor."
            " Birazdan seni koltuğuna götüreceğiz.",
        ),
        (
            "en-US",
            {"viewport": {"width": 1280, "height": 860}},
            "Your table is being prepared: the round's seats are being given out."
            " You will be taken to your seat in a moment.",
        ),
    ],
)
def test_a_table_still_being_seated_says_it_is_being_prepared_and_seats_the_player(
    browser: Browser,
    tmp_path: Path,
    artifacts: Path,
    errors: list[str],
    monkeypatch: Any,
    locale: str,
    ctx: dict[str, Any],
    said: str,
) -> None:
    """A registered player who opens their round's table before the tournament has seated it
    (a link, the tournament's page read a moment early) is refused by the server with
    ``tourney_seating`` once its wait is over. The page said "Error: players are still being
    seated…" in red and went back to the lobby; now it says the table is being prepared, stays
    there without an error, and the player is at their seat once the round is seated."""
    pytest.importorskip("argon2")
    from test_server_bot_tourney import _slow_seating

    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 0.2, raising=False)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:
        page = open_page(browser, srv, errors, locale=locale, **ctx)  # type: ignore[arg-type]
        register(page, "ayse", "uzun-parola-1")
        loop = asyncio.new_event_loop()
        with ThreadPoolExecutor(1) as pool:
            ayse, tid = _ayse_starts_a_cup(srv.url, loop, pool)
            try:
                deadline = time.monotonic() + 30
                while not srv.hub.tournaments.docs[tid]["tables"]:  # made, its save held
                    assert time.monotonic() < deadline, "the round's table was never made"
                    time.sleep(0.02)
                table = srv.hub.tournaments.docs[tid]["tables"][0]["id"]
                page.goto(f"{srv.http}/table/{table}")
                preparing = page.get_by_test_id("tourney-preparing")
                expect(preparing).to_have_text(said)
                expect(page.locator("#notice.error")).to_have_count(0)  # said once, calmly
                expect(page.locator("#notice")).to_be_hidden()
                shot = f"tournament-preparing-{'phone' if ctx is PHONE else 'desktop'}-{locale[:2]}"
                page.screenshot(path=str(artifacts / f"{shot}.png"))
            finally:
                release.set()
            page.wait_for_function(
                "() => window.batak.state.table && window.batak.state.table.you != null"
            )
            expect(page).to_have_url(f"{srv.http}/table/{table}")
            expect(preparing).to_have_count(0)
            pool.submit(lambda: loop.run_until_complete(ayse.close())).result()
        loop.close()
    no_js_errors(errors)


#: Each box of the tournament's page: its top, its height, and the empty space under its last
#: line (its padding alone when it keeps its own height).
TOURNEY_BOXES = """() => [...document.querySelectorAll('.lobby.tourney > section')].map((s) => {
    const r = s.getBoundingClientRect();
    return {y: Math.round(r.top), x: Math.round(r.left), h: Math.round(r.height),
            under: Math.round(r.bottom - s.lastElementChild.getBoundingClientRect().bottom),
            heading: s.querySelector('h2').textContent};
})"""


def test_a_tournaments_boxes_keep_their_own_height_side_by_side(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """On a desktop the tournament's page puts its information and its standings side by side:
    the shorter box stretched to the other's height (a tournament nobody has entered yet: the
    standings' one line, then an empty box as tall as the information beside it). Each keeps
    its own height now, both still on one row, as the lobby's boxes do."""
    pytest.importorskip("argon2")

    async def schedule() -> str:
        a = Client(server.url, name="Deniz")
        await a.connect()
        await a.request({"type": "register", "username": "deniz", "password": "uzun-parola-1"})
        t = await a.tourney_create(
            name="Bahar kupası", rounds=2, deals=1, start=int(time.time()) + 3600
        )
        await a.close()
        return str(t["id"])

    with ThreadPoolExecutor(1) as pool:
        tid = pool.submit(lambda: asyncio.run(schedule())).result()
    for locale in ("en-US", "tr-TR"):
        page = open_page(
            browser, server, errors, locale=locale, viewport={"width": 1280, "height": 860}
        )
        page.goto(server.http + f"/tournaments/{tid}")
        expect(page.get_by_test_id("tourney-name")).to_have_text("Bahar kupası")
        for width in (1280, 1024):
            page.set_viewport_size({"width": width, "height": 860})
            info, standings = page.evaluate(TOURNEY_BOXES)
            assert info["y"] == standings["y"] and info["x"] < standings["x"], (
                width,
                info,
                standings,
            )
            for box in (info, standings):
                assert box["under"] < 40, (width, locale, box)  # its padding only
            assert standings["h"] < info["h"] * 0.8, (width, locale, info, standings)
        page.set_viewport_size({"width": 1280, "height": 860})
        page.screenshot(path=str(artifacts / f"tournament-boxes-desktop-{locale[:2]}.png"))
        page.context.close()
    no_js_errors(errors)


def test_a_seating_refusal_that_comes_after_the_player_left_the_table_says_nothing(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str], monkeypatch: Any
) -> None:
    """The page at a tournament's table still being seated asks to join again every 2 s, and
    the server answers each ask only after its wait for the seating. A player who went back to
    the lobby while an ask was on its way was then shown, in the lobby, the red "Error: players
    are still being seated at this round's tables…" for a table they had left. A late refusal
    for a page no longer at a table is dropped: nothing went wrong there."""
    pytest.importorskip("argon2")
    from test_server_bot_tourney import _slow_seating

    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 1.5, raising=False)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:
        page = open_page(browser, srv, errors, viewport={"width": 1280, "height": 860})  # type: ignore[arg-type]
        register(page, "ayse", "uzun-parola-1")
        loop = asyncio.new_event_loop()
        with ThreadPoolExecutor(1) as pool:
            ayse, tid = _ayse_starts_a_cup(srv.url, loop, pool)
            sent: list[str] = []
            refused: list[str] = []

            def on_socket(ws: Any) -> None:
                ws.on("framesent", lambda f: sent.append(f) if '"ref":"join"' in f else None)
                ws.on(
                    "framereceived",
                    lambda f: refused.append(f) if '"code":"tourney_seating"' in f else None,
                )

            page.on("websocket", on_socket)
            try:
                deadline = time.monotonic() + 30
                while not srv.hub.tournaments.docs[tid]["tables"]:  # made, its save held
                    assert time.monotonic() < deadline, "the round's table was never made"
                    time.sleep(0.02)
                table = srv.hub.tournaments.docs[tid]["tables"][0]["id"]
                page.goto(f"{srv.http}/table/{table}")
                expect(page.get_by_test_id("tourney-preparing")).to_be_visible()
                deadline = time.monotonic() + 30
                while len(sent) < 2:  # the page asks again: the server holds the ask
                    assert time.monotonic() < deadline, "the page never asked again"
                    page.wait_for_timeout(20)
                page.get_by_role("link", name="♠ Batak").click()  # back to the lobby
                expect(page.get_by_test_id("create-room")).to_be_visible()
                while len(refused) < 2:  # the late refusal comes to the lobby
                    assert time.monotonic() < deadline, "no second refusal"
                    page.wait_for_timeout(20)
                page.wait_for_timeout(300)  # (its message handled)
                expect(page.locator("#notice.error")).to_have_count(0)
                expect(page).to_have_url(f"{srv.http}/")
                page.screenshot(path=str(artifacts / "tournament-left-while-seating-en.png"))
            finally:
                release.set()
            pool.submit(lambda: loop.run_until_complete(ayse.close())).result()
        loop.close()
    no_js_errors(errors)


def test_a_table_being_prepared_is_said_to_a_screen_reader_once(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str], monkeypatch: Any
) -> None:
    """While a tournament's table is being seated the page replaced its middle with a new
    paragraph ("Connecting…", then "Your table is being prepared…"), in no live region: a
    screen reader said nothing of it. The words are now in one status region, changed in place
    when the seating refusal comes, so that the change is read out, and left as they are (the
    same element, the same words) each time the page asks again."""
    pytest.importorskip("argon2")
    from test_server_bot_tourney import _slow_seating

    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 1.5, raising=False)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:
        page = open_page(browser, srv, errors, locale="tr-TR", **PHONE)  # type: ignore[arg-type]
        register(page, "ayse", "uzun-parola-1")
        loop = asyncio.new_event_loop()
        with ThreadPoolExecutor(1) as pool:
            ayse, tid = _ayse_starts_a_cup(srv.url, loop, pool)
            refused: list[str] = []

            def on_socket(ws: Any) -> None:
                ws.on(
                    "framereceived",
                    lambda f: refused.append(f) if '"code":"tourney_seating"' in f else None,
                )

            page.on("websocket", on_socket)
            try:
                deadline = time.monotonic() + 30
                while not srv.hub.tournaments.docs[tid]["tables"]:  # made, its save held
                    assert time.monotonic() < deadline, "the round's table was never made"
                    time.sleep(0.02)
                table = srv.hub.tournaments.docs[tid]["tables"][0]["id"]
                page.goto(f"{srv.http}/table/{table}")
                waiting = page.get_by_role("status").filter(has_text="Bağlanılıyor")
                expect(waiting).to_have_count(1)
                waiting.evaluate("(e) => { e.dataset.mark = 'first'; }")
                preparing = page.get_by_test_id("tourney-preparing")
                expect(preparing).to_contain_text("Masan hazırlanıyor")
                expect(preparing).to_have_attribute("role", "status")
                expect(preparing).to_have_attribute("data-mark", "first")  # the same region
                said = preparing.evaluate("(e) => e.textContent")
                preparing.evaluate(
                    """(e) => { window.changes = 0;
                        new MutationObserver((m) => { window.changes += m.length; })
                            .observe(e, {childList: true, characterData: true, subtree: true});
                    }"""
                )
                while len(refused) < 2:  # asked again, refused again
                    assert time.monotonic() < deadline, "no second refusal"
                    page.wait_for_timeout(20)
                page.wait_for_timeout(300)  # (its message handled)
                expect(preparing).to_have_attribute("data-mark", "first")
                expect(preparing).to_have_text(said)
                assert page.evaluate("window.changes") == 0  # nothing to read out again
                page.screenshot(path=str(artifacts / "tournament-preparing-status-phone-tr.png"))
            finally:
                release.set()
            page.wait_for_function(
                "() => window.batak.state.table && window.batak.state.table.you != null"
            )
            pool.submit(lambda: loop.run_until_complete(ayse.close())).result()
        loop.close()
    no_js_errors(errors)


def test_someone_not_seated_at_a_table_being_prepared_is_told_they_will_watch(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str], monkeypatch: Any
) -> None:
    """A guest in no tournament who opens a tournament's table still being seated (a shared
    link) read "Your table is being prepared… You will be taken to your seat in a moment", and
    then only watched. The server's refusal says whether a seat is coming (``seat``); to anyone
    else the page says the match can be watched there in a moment, and then shows it."""
    pytest.importorskip("argon2")
    from test_server_bot_tourney import _slow_seating

    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 0.2, raising=False)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:
        loop = asyncio.new_event_loop()
        with ThreadPoolExecutor(1) as pool:

            async def schedule() -> tuple[Client, str]:
                c = Client(srv.url, name="Ayşe")
                await c.connect()
                await c.register("ayse", "uzun-parola-1")
                start = int(time.time()) + 3600
                doc = await c.tourney_create(name="Kış kupası", rounds=1, deals=1, start=start)
                return c, str(doc["id"])

            ayse, tid = pool.submit(lambda: loop.run_until_complete(schedule())).result()
            pool.submit(lambda: loop.run_until_complete(ayse.tourney_start(tid)))
            said = {
                "en": "This table is being prepared: the round's seats are being given out."
                " Its match can be watched here in a moment.",
                "tr": "Masa hazırlanıyor: turun koltukları dağıtılıyor."
                " Birazdan buradaki oyunu izleyebilirsin.",
            }
            try:
                deadline = time.monotonic() + 30
                while not srv.hub.tournaments.docs[tid]["tables"]:  # made, its save held
                    assert time.monotonic() < deadline, "the round's table was never made"
                    time.sleep(0.02)
                table = srv.hub.tournaments.docs[tid]["tables"][0]["id"]
                pages = []
                for lang, locale, ctx in (
                    ("tr", "tr-TR", PHONE),
                    ("en", "en-US", {"viewport": {"width": 1280, "height": 860}}),
                ):
                    page = open_page(browser, srv, errors, locale=locale, **ctx)  # type: ignore[arg-type]
                    page.goto(f"{srv.http}/table/{table}")
                    expect(page.get_by_test_id("tourney-preparing")).to_have_text(said[lang])
                    expect(page.locator("#notice.error")).to_have_count(0)
                    kind = "phone" if ctx is PHONE else "desktop"
                    page.screenshot(
                        path=str(artifacts / f"tournament-preparing-watch-{kind}-{lang}.png")
                    )
                    pages.append(page)
            finally:
                release.set()
            for page in pages:  # seated: the guest watches the match there
                page.wait_for_function(
                    "() => { const T = window.batak.state.table;"
                    " return T && T.info && T.info.status !== 'waiting' && T.you == null; }"
                )
                expect(page.get_by_test_id("tourney-preparing")).to_have_count(0)
                page.context.close()
            pool.submit(lambda: loop.run_until_complete(ayse.close())).result()
        loop.close()
    no_js_errors(errors)


def test_a_registration_whose_connection_drops_before_its_answer_is_sent_again(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """In a cluster the process that runs a tournament may go away with a registration
    forwarded to it: the page's socket is closed (1012) before the answer, and the
    registration may or may not have been made. Here the page's socket is closed so (by the
    test, between the page and the server): once before the server hears the registration,
    once after it registered the player and before its answer comes, then once before it hears
    a withdrawal. Each time the page, connected again, sends it again (idempotent) and asks
    the tournament again, and shows the truth: registered once, then not. Before, the first
    drop left the person unregistered with the Register button back and nothing said: the
    page asked the tournament again, but never sent the registration they had clicked."""
    import json

    async def schedule() -> str:
        a = Client(server.url, name="Ayşe")
        await a.connect()
        await a.request({"type": "register", "username": "ayse", "password": "uzun-parola-1"})
        t = await a.tourney_create(
            name="Kış kupası", rounds=1, deals=1, start=int(time.time()) + 3600
        )
        await a.close()
        return str(t["id"])

    with ThreadPoolExecutor(1) as pool:
        tid = pool.submit(lambda: asyncio.run(schedule())).result()
    # (type of the message, where its socket is closed): "before" the server hears it, or
    # "after" (its answer, and what follows, never reach the page)
    plan = [("tourney_join", "before"), ("tourney_join", "after"), ("tourney_leave", "before")]
    dropped: list[str] = []

    def route(ws: Any) -> None:
        up = ws.connect_to_server()
        state = {"closed": False, "drop_answer": None}

        def close() -> None:
            state["closed"] = True
            ws.close(code=1012, reason="tournament moved")
            up.close()

        def from_page(text: Any) -> None:
            if state["closed"]:
                return
            msg = json.loads(text)
            if plan and msg.get("type") == plan[0][0]:
                kind, when = plan.pop(0)
                dropped.append(f"{kind} {when}")
                if when == "before":
                    return close()
                state["drop_answer"] = kind
            up.send(text)

        def from_server(text: Any) -> None:
            if state["closed"]:
                return
            if state["drop_answer"] and json.loads(text).get("ref") == state["drop_answer"]:
                return close()
            ws.send(text)

        ws.on_message(from_page)
        up.on_message(from_server)

    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 860})
    context.set_default_timeout(20_000)
    page = watch(context.new_page(), errors)
    page.route_web_socket(re.compile(r"/ws$"), route)
    page.goto(f"{server.http}/tournaments/{tid}")
    page.get_by_test_id("tourney-join").click()
    leave = page.get_by_test_id("tourney-leave")
    expect(leave).to_be_visible()
    assert dropped == ["tourney_join before", "tourney_join after"], dropped

    async def registered() -> list[str]:
        c = Client(server.url, name="Cem")
        await c.connect()
        doc = await c.tourney(tid)
        await c.close()
        return [p["name"] for p in doc["registered"]]

    with ThreadPoolExecutor(1) as pool:
        names = pool.submit(lambda: asyncio.run(registered())).result()
    me = page.evaluate("() => window.batak.state.player.name")
    assert sorted(names) == sorted(["Ayşe", me]), names
    expect(page.locator("#notice.error")).to_have_count(0)
    page.screenshot(path=str(artifacts / "tournament-registered-after-drop-en.png"))
    leave.click()
    expect(page.get_by_test_id("tourney-join")).to_be_visible()
    assert dropped[-1] == "tourney_leave before", dropped
    with ThreadPoolExecutor(1) as pool:
        names = pool.submit(lambda: asyncio.run(registered())).result()
    assert names == ["Ayşe"], names
    no_js_errors(errors)


def late_refusal_for_another_table(
    browser: Browser,
    tmp_path: Path,
    errors: list[str],
    monkeypatch: Any,
    locale: str,
    ctx: dict[str, Any],
    shot: Path | None = None,
) -> None:
    """:func:`test_a_late_seating_refusal_for_another_table_leaves_this_one_as_it_is`'s steps
    (``shot``: a screenshot of the page once the refusals are handled)."""
    from test_server_bot_tourney import _slow_seating

    from batak.server import tournament

    monkeypatch.setattr(tournament, "SEATING_WAIT", 60.0, raising=False)  # (no answer of its own)
    release = _slow_seating(monkeypatch)
    with ServerThread(fast_config(tmp_path)) as srv:
        page = open_page(browser, srv, errors, locale=locale, **ctx)
        register(page, "ayse", "uzun-parola-1")
        loop = asyncio.new_event_loop()
        with ThreadPoolExecutor(1) as pool:
            ayse, tid = _ayse_starts_a_cup(srv.url, loop, pool)
            sockets: list[Any] = []

            def route(ws: Any) -> None:  # (the server's frames pass; the test may add its own)
                ws.connect_to_server()
                sockets.append(ws)

            page.route_web_socket(re.compile(r".*/ws.*"), route)
            try:
                deadline = time.monotonic() + 30
                while len(srv.hub.tournaments.docs[tid]["tables"]) < 2:  # made, the save held
                    assert time.monotonic() < deadline, "the round's tables were never made"
                    time.sleep(0.02)
                mine, bots = (t["id"] for t in srv.hub.tournaments.docs[tid]["tables"])
                page.goto(f"{srv.http}/table/{bots}")  # the all-bots table, to watch
                wait = page.locator("#table-wait")
                page.wait_for_function("() => window.batak !== undefined")
                connecting = page.evaluate("() => window.batak.t('connecting')")
                expect(wait).to_have_text(connecting)
                assert len(sockets) == 1, "the page's socket was not routed"

                def refusal(table: str, seat: bool) -> str:  # (as the server words it)
                    return json.dumps(
                        {
                            "type": "error",
                            "code": "tourney_seating",
                            "ref": "join",
                            "message": "Players are still being seated",
                            "seat": seat,
                            "table": table,
                        }
                    )

                # the answer to an ask for the player's own table, sent before the page went
                # to this one, comes late: it is not about this table
                sockets[0].send(refusal(mine, True))
                page.wait_for_timeout(300)  # (its message handled)
                expect(page.get_by_test_id("tourney-preparing")).to_have_count(0)
                expect(wait).to_have_text(connecting)
                # this table's own refusal: said, as before (a match to watch in a moment)
                sockets[0].send(refusal(bots, False))
                watch_words = page.evaluate("() => window.batak.t('tourney_preparing_watch')")
                expect(page.get_by_test_id("tourney-preparing")).to_have_text(watch_words)
                if shot is not None:
                    page.screenshot(path=str(shot))
            finally:
                release.set()
            pool.submit(lambda: loop.run_until_complete(ayse.close())).result()
        loop.close()
    no_js_errors(errors)


@pytest.mark.parametrize(
    ("locale", "ctx", "name"),
    [
        ("en-US", {"viewport": {"width": 1280, "height": 860}}, "desktop-en"),
        ("tr-TR", PHONE, "phone-tr"),
    ],
)
def test_a_late_seating_refusal_for_another_table_leaves_this_one_as_it_is(
    browser: Browser,
    tmp_path: Path,
    artifacts: Path,
    errors: list[str],
    monkeypatch: Any,
    locale: str,
    ctx: dict[str, Any],
    name: str,
) -> None:
    """The page asked for the player's own tournament table, then went to another table of the
    round (all bots, to watch) before the answer came; the late ``tourney_seating`` refusal for
    the first table (it names it: ``table``) leaves the page as it is, "Connecting…". Before,
    the page took it for the table it showed: "Your table is being prepared", at a table where
    the player has no seat. The table's own refusal is still said (the match to watch)."""
    pytest.importorskip("argon2")
    shot = artifacts / f"tournament-late-refusal-{name}.png"
    late_refusal_for_another_table(browser, tmp_path, errors, monkeypatch, locale, ctx, shot)
