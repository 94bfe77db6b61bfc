"""Chips in the browser (issue 12): the balance and the chip leaderboard in the lobby, the stake
salons with the açık eşli kasa, a staked quick play showing its stake, pot and kasa at the table
and what it paid at the end; desktop in English, a phone in Turkish."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import SERVE_ARGS
from harness import ServerProcess, free_port
from playwright.sync_api import Browser, Page, expect
from test_web import act, no_js_errors, open_page, register


@pytest.fixture
def chips_server(tmp_path: Path) -> Iterator[ServerProcess]:
    extra = ("--quick-deals", "1", "--daily-grant", "5000")
    s = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, *extra)
    s.start()
    try:
        yield s
    finally:
        s.stop()


# the rematch's note in view
SHOW_NOTE = "document.querySelector('[data-testid=rematch-declined]').scrollIntoView()"


def play_to_the_end(page: Page) -> None:
    deadline = time.monotonic() + 120
    while not page.get_by_test_id("match-over").count():
        assert time.monotonic() < deadline, "the match did not finish"
        if not act(page):
            time.sleep(0.05)


def test_a_staked_quick_play_shows_the_buy_in_and_the_payout(
    browser: Browser, chips_server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, chips_server, errors, locale="en-US")
    expect(page.get_by_test_id("chips-guest")).to_contain_text("register or log in")
    expect(page.locator(".kasa-heading")).to_have_count(0)  # a guest cannot stake
    register(page, "kasaci", "kupa-papaz-7")
    expect(page.get_by_test_id("chips-balance")).to_have_text("Your chips: 5,000")
    expect(page.get_by_test_id("chips-granted")).to_have_text("Today's chips: +5,000")
    board = page.get_by_test_id("chip-leaderboard")
    expect(board).to_contain_text(page.evaluate("window.batak.state.player.name"))
    expect(board).to_contain_text("5,000")
    expect(page.get_by_test_id("lobby-kasa-1000")).to_have_text("1,000 salon: 1,000 chips")
    expect(page.locator(".kasa-heading")).to_have_text("The açık eşli kasa in each salon:")
    page.select_option("#stake-select", "1000")
    page.screenshot(path=str(artifacts / "chips-lobby-en.png"), full_page=True)
    page.get_by_test_id("quick-ihaleli").click()
    expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)
    # one person and three house bots: the pot is the person's stake
    expect(page.get_by_test_id("table-chips")).to_have_text("Stake 1,000 · Pot 1,000")
    # verifiable deals: the deal's commitment is listed with the score sheet before it is played
    commitment = page.evaluate("window.batak.state.table.info.fair.commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    page.locator("button[data-dialog=sheet]").click()
    expect(page.get_by_test_id("fair-deal-1")).to_have_text(
        "Deal 1: sealed; it is checked when the deal is over"
    )
    page.get_by_test_id("fair-how").locator("summary").click()
    expect(page.get_by_test_id("fair-commitment")).to_have_text(f"Deal 1, seal: {commitment}")
    page.get_by_test_id("close-dialog").click()
    play_to_the_end(page)
    # ... and its seed, revealed at its end, was checked in the page against that commitment
    page.wait_for_function(
        "() => { const f = window.batak.state.table.info.fair;"
        " return f.revealed.length === 1 && f.revealed[0].checked === true; }"
    )
    payout = page.get_by_test_id("payout")
    expect(payout).to_be_visible()
    text = payout.inner_text()
    # alone with house bots the pot is the person's own stake: a win brings it back less the
    # fee, and the words say so (not "you won 950 chips")
    won = "you get back 950 of your 1,000 chips (\u221250; table fee 50)." in text
    assert won or "Your stake of 1,000 chips is lost." in text, text
    if won:
        assert text.startswith("The house bots put nothing in, so the pot held only"), text
    page.screenshot(path=str(artifacts / "chips-payout-en.png"))
    gained = 950 if won else 0
    # "Play again" plays at the same stake (it sent none: the lobby's, or no stake)
    page.get_by_test_id("play-again").click()
    expect(page).to_have_url(re.compile(r"/table/\w+$"))
    expect(page.get_by_test_id("table-chips")).to_have_text("Stake 1,000 · Pot 1,000")
    expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)  # begun: staked
    page.goto(chips_server.http + "/")
    expect(page.get_by_test_id("chips-balance")).to_have_text(f"Your chips: {3000 + gained:,}")
    # today's gift was given: the next one, and when
    expect(page.get_by_test_id("chips-next")).to_have_text(
        re.compile(
            r"^Tomorrow's chips: \+5,000, in \d+\sh \d+\smin \(a new day starts at 00:00 UTC\)\.$"
        )
    )
    expect(page.get_by_test_id("chips-short")).to_have_count(0)
    no_js_errors(errors)


def test_a_player_short_of_the_smallest_stake_is_told_what_to_do(
    browser: Browser, tmp_path: Path, errors: list[str]
) -> None:
    """After losing the last chips the box said only "Your chips: 0": nothing said that chips
    come back the next day, nor that play without a stake goes on."""
    s = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, "--daily-grant", "50")
    s.start()
    try:
        page = open_page(browser, s, errors, locale="tr-TR")
        register(page, "azcip", "kupa-papaz-7")
        expect(page.get_by_test_id("chips-balance")).to_have_text("Çipin: 50")
        expect(page.get_by_test_id("chips-short")).to_have_text(
            "En küçük bahis 100 çip: o kadar çipin olana dek bahissiz oyna."
        )
    finally:
        s.stop()
    no_js_errors(errors)


def test_the_kasa_on_an_acik_esli_table_and_the_chips_in_turkish_on_a_phone(
    browser: Browser, chips_server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(
        browser,
        chips_server,
        errors,
        locale="tr-TR",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    register(page, "acikci", "karo-kiz-12")
    expect(page.get_by_test_id("chips-balance")).to_have_text("Çipin: 5.000")
    expect(page.get_by_test_id("chip-leaderboard")).to_contain_text("5.000")
    expect(page.locator("#h-chips")).to_have_text("Çipler")
    expect(page.get_by_test_id("lobby-kasa-10000")).to_have_text("10.000 salonu: 10.000 çip")
    expect(page.locator(".kasa-heading")).to_have_text("Her salonun açık eşli kasası:")
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(artifacts / "chips-lobby-phone-tr.png"), full_page=True)
    page.select_option("#stake-select", "100")
    page.get_by_test_id("quick-acik").tap()
    expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)
    # the kasa this match plays for: the quarter of the one person's stake (bots put nothing in)
    expect(page.get_by_test_id("table-kasa")).to_have_text("Kasa 25")
    expect(page.get_by_test_id("table-chips")).to_contain_text("Bahis 100 · Pot 100")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(artifacts / "chips-table-phone-tr.png"))
    no_js_errors(errors)


def test_the_chosen_stake_stays_across_redraws_and_a_short_one_is_said(
    browser: Browser, chips_server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The Stake box went back to the last stake played whenever the lobby was drawn again (a
    language switch, Refresh, the wallet arriving after login), and a mode then seated the player
    at an unstaked table without a word."""
    page = open_page(browser, chips_server, errors, locale="en-US")
    register(page, "secici", "kupa-papaz-7")
    expect(page.get_by_test_id("chips-balance")).to_have_text("Your chips: 5,000")
    box = page.get_by_test_id("stake-select")
    page.select_option("#stake-select", "1000")
    page.get_by_test_id("lang").click()  # the lobby is drawn again, in Turkish
    expect(page.locator("#h-chips")).to_have_text("Çipler")
    expect(box).to_have_value("1000")
    page.locator("[data-action=refreshLobby]").click()
    page.get_by_test_id("lang").click()
    expect(page.locator("#h-chips")).to_have_text("Chips")
    expect(box).to_have_value("1000")
    # a salon the chips do not cover says so, in the list and under it
    expect(box.locator("option[value='10000']")).to_have_text("10,000 chips (you have 5,000)")
    expect(box.locator("option[value='1000']")).to_have_text("1,000 chips")
    page.select_option("#stake-select", "10000")
    short = (
        "You have 5,000 chips: not enough for the 10,000 salon."
        " Choose a smaller stake or play without one."
    )
    expect(page.get_by_test_id("stake-short")).to_have_text(short)
    # the figures of the kasas are for a full table, and that is said
    expect(page.get_by_test_id("kasa-note")).to_contain_text("for a table of four people")
    page.screenshot(path=str(artifacts / "chips-stake-short-en.png"), full_page=True)
    # choosing a mode does not seat the player at an unstaked table instead: it says why not
    page.get_by_test_id("quick-ihaleli").click()
    expect(page.locator("#notice")).to_contain_text(short)
    assert page.evaluate("location.pathname") == "/"
    # the choice outlives a reload too
    page.select_option("#stake-select", "100")
    expect(page.get_by_test_id("stake-short")).to_have_count(0)
    page.reload()
    expect(page.get_by_test_id("chips-balance")).to_have_text("Your chips: 5,000")
    expect(page.get_by_test_id("stake-select")).to_have_value("100")
    no_js_errors(errors)


def test_a_staked_rematch_the_chips_no_longer_cover_is_refused_in_the_dialog(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """The Rematch button threw the player out of the result dialog to the lobby with "Hata:
    bahis 1.000 çip, sende 475 çip var", and the server made the rematch's table anyway."""
    s = ServerProcess(
        tmp_path, free_port(), *SERVE_ARGS, "--quick-deals", "1", "--daily-grant", "1000"
    )
    s.start()
    try:
        page = open_page(browser, s, errors, locale="en-US")
        register(page, "rovansci", "kupa-papaz-7")
        expect(page.get_by_test_id("chips-balance")).to_have_text("Your chips: 1,000")
        page.select_option("#stake-select", "1000")
        page.get_by_test_id("quick-ihaleli").click()
        expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)
        play_to_the_end(page)
        payout = page.get_by_test_id("payout")
        expect(payout).to_be_visible()
        won = "you get back 950" in payout.inner_text()
        left = "950" if won else "0"
        page.get_by_test_id("rematch").click()
        note = page.get_by_test_id("rematch-short")
        expect(note).to_have_text(
            f"You have {left} chips: not enough for another match at a stake of 1,000."
            " From the lobby you can play at a smaller stake or without one."
        )
        expect(page.get_by_test_id("rematch")).to_be_disabled()
        expect(page.get_by_test_id("play-again")).to_be_disabled()  # the same stake: also short
        expect(page.get_by_test_id("match-over")).to_be_visible()  # still in the dialog
        assert "/table/" in page.evaluate("location.pathname")
        page.screenshot(path=str(artifacts / "chips-rematch-short-en.png"))
        # asked by another seat with chips short (the refused yes): said there too, yes is off
        # (the other seat's offer is set in the page's state: at this table the others are bots)
        page.evaluate(
            "() => { const T = window.batak.state.table; const other = (T.you + 1) % 4;"
            " T.rematch = { accepted: [other], waiting: [T.you], declined: null };"
            " window.batak.renderDialog(); }"
        )
        expect(page.get_by_test_id("rematch-asked")).to_be_visible()
        expect(note).to_be_visible()
        expect(page.get_by_test_id("rematch-accept")).to_be_disabled()
        # short at the last yes after saying yes (chips spent elsewhere): said, not "you said no"
        page.evaluate(
            "() => { const T = window.batak.state.table; T.rematchShort = null;"
            " T.rematch = { accepted: [], waiting: [], declined: T.you, short: T.you };"
            " window.batak.renderDialog(); }"
        )
        expect(page.get_by_test_id("rematch-declined")).to_have_text(
            "Your chips no longer cover this table's stake of 1,000 chips, so no rematch was made."
        )
        expect(page.get_by_test_id("rematch")).to_be_disabled()
        page.evaluate(
            "(left) => { const T = window.batak.state.table; T.rematch = null;"
            " T.rematchShort = { stake: 1000, balance: left }; window.batak.renderDialog(); }",
            int(left),
        )
        # an invitation that comes meanwhile is answerable over the window (it lay under it)
        on_top = page.evaluate(
            "() => { const bar = document.getElementById('invitations');"
            ' bar.innerHTML = \'<div class="invitation"><button id="probe">OK</button></div>\';'
            " bar.hidden = false;"
            " const b = document.getElementById('probe').getBoundingClientRect();"
            " const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);"
            " bar.hidden = true; bar.innerHTML = ''; return hit && hit.id; }"
        )
        assert on_top == "probe"
        page.get_by_test_id("over-lang").click()
        expect(note).to_have_text(
            f"Sende {left} çip var: 1.000 çiplik bahisle bir maç daha için yetmez."
            " Lobiden daha küçük bir bahisle ya da bahissiz oynayabilirsin."
        )
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(artifacts / "chips-rematch-short-phone-tr.png"))
    finally:
        s.stop()
    no_js_errors(errors)


def test_leaving_a_staked_match_says_the_stake_stays_in_the_pot(
    browser: Browser, chips_server: ServerProcess, errors: list[str]
) -> None:
    """Leaving a staked table of bots gave the whole stake back (so leaving whenever behind
    never lost): now a bot plays the seat to the end, and the prompt says so before leaving."""
    page = open_page(browser, chips_server, errors, locale="tr-TR")
    register(page, "kacak", "kupa-papaz-7")
    expect(page.get_by_test_id("chips-balance")).to_have_text("Çipin: 5.000")
    page.select_option("#stake-select", "100")
    page.get_by_test_id("quick-ihaleli").click()
    expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.get_by_test_id("leave").click()
    assert asked == [
        "Masadan kalkılsın mı? Geri dönene kadar (dönmezsen maç bitene kadar) yerine bilgisayar"
        " oynar. 100 çiplik bahsin geri verilmez: potta kalır, yerinin kazandığı ne olursa"
        " senindir."
    ]
    assert "/table/" in page.evaluate("location.pathname")  # stayed
    page.once("dialog", lambda d: answer(d, True))
    page.get_by_test_id("leave").click()
    expect(page.get_by_test_id("chips-balance")).to_have_text("Çipin: 4.900")  # not given back
    no_js_errors(errors)


def test_a_staked_room_joined_by_its_code_without_the_chips_says_what_to_do(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """The code of a private room staked at 10,000, with 1,000 chips, was refused with "the
    stake is 10,000 chips and you have 1,000" (Turkish "bahis … sende … var"). The web shows
    the server's words (``Error: …``): they now speak of the room, say what the player has and
    what they can do: ask the host for a room without a stake, or come back with enough (the
    daily grant). By the code in the lobby and by the invitation's link alike, in English on
    a desktop and in Turkish on a phone."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from conftest import PHONE_CTX
    from harness import ServerThread, fast_config

    from batak.server.client import Client

    pytest.importorskip("argon2")
    with ServerThread(fast_config(tmp_path, daily_grant=1000)) as srv:

        async def host() -> str:  # Ayşe, richer than a day's grant, makes a room at 10,000
            async with Client(srv.url, name="Ayşe") as c:
                await c.register("ayse", "uzun-bir-parola")
                await c.wallet()
                srv.give_chips(c.player["id"], 9000)
                created, _ = await c.create(preset="standard", deals=1, stake=10000)
                return str(created["code"])

        with ThreadPoolExecutor(1) as pool:
            code = pool.submit(lambda: asyncio.run(host())).result()
        said = {
            "en": "Error: this room plays for 10,000 chips and you have 1,000; ask its host for"
            " a room without a stake, or come back when you have enough: each day brings 1,000"
            " free chips (a new day starts at 00:00 UTC)",
            "tr": "Hata: bu odanın bahsi 10.000 çip, sende 1.000 çip var; masa sahibinden"
            " bahissiz bir oda açmasını iste ya da yeterli çipin olunca yine gel: her gün"
            " 1.000 çip hediye edilir (yeni gün 00:00 UTC'de başlar)",
        }
        desktop = {"viewport": {"width": 1280, "height": 860}}
        shots = [  # by the code in the lobby on a desktop, by the link on a phone
            ("en", "en-US", desktop, "ben", "desktop"),
            ("tr", "tr-TR", PHONE_CTX, "cem", "phone"),
            ("tr", "tr-TR", desktop, "deniz", "desktop"),
            ("en", "en-US", PHONE_CTX, "emre", "phone"),
        ]
        for lang, locale, ctx, username, device in shots:
            page = open_page(browser, srv, errors, locale=locale, **ctx)  # type: ignore[arg-type]
            register(page, username, "uzun-bir-parola")
            expect(page.get_by_test_id("chips-granted")).to_be_visible()  # the day's 1,000
            if device == "desktop":
                page.fill("#code-input", code)
                page.press("#code-input", "Enter")
            else:  # the invitation's link
                page.goto(srv.http + f"/join/{code}")
            expect(page.locator("#notice")).to_have_text(said[lang])
            expect(page.locator("#notice")).to_be_in_viewport()  # (the code's box is far below)
            page.screenshot(path=str(artifacts / f"room-stake-short-{lang}-{device}.png"))
            page.context.close()
        no_js_errors(errors)


def test_a_staked_rematch_the_players_chips_stopped_covering_is_said_in_both_languages(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """The player says yes to a staked rematch, then spends chips at another table (another
    device of theirs) before the other person's yes: no rematch is made, and the player is told
    why (``rematch_short_you``), not that they said no. Produced for real, in Turkish from the
    start, then in English from the window's language button, desktop and phone."""
    pytest.importorskip("argon2")
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from batak.server.chips import GRANT, player_account, post
    from batak.server.client import Client

    s = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, "--daily-grant", "2000")
    s.start()
    loop = asyncio.new_event_loop()
    pool = ThreadPoolExecutor(1)

    def run(coro: Any) -> Any:
        return pool.submit(lambda: loop.run_until_complete(coro)).result()

    try:
        page = open_page(
            browser, s, errors, locale="tr-TR", viewport={"width": 1280, "height": 860}
        )
        register(page, "kisa", "kupa-papaz-7")
        expect(page.get_by_test_id("chips-balance")).to_have_text("Çipin: 2.000")

        async def room() -> tuple[Client, dict[str, Any], Any]:
            veli = Client(s.url, name="Veli")
            await veli.connect()
            await veli.register("veli", "kupa-papaz-8")
            await veli.wallet()  # the day's chips
            created, table = await veli.create(preset="standard", deals=1, stake=1000)
            return veli, created, table

        veli, created, table = run(room())
        page.goto(f"{s.http}/join/{created['code']}")
        expect(page.locator(".seat .tag", has_text="sen")).to_have_count(1)

        def people() -> int:
            return sum(bool(x.get("player")) for x in table.info["seats"])

        run(veli.until(lambda: people() == 2))
        run(veli.start(table.id))
        played = pool.submit(lambda: loop.run_until_complete(veli.play(table.id, timeout=120)))
        play_to_the_end(page)
        assert played.result().over
        page.get_by_test_id("rematch").click()  # yes; Veli is still asked
        expect(page.get_by_test_id("rematch-waiting")).to_be_visible()

        other = Client(s.url, name="kisa")

        async def spend() -> None:  # the player's other device: staked rooms, started
            await other.connect()
            await other.login("kisa", "kupa-papaz-7")
            while (await other.wallet())["balance"] >= 1000:
                _, r = await other.create(preset="standard", deals=1, stake=1000)
                await other.start(r.id)

        run(spend())
        run(veli.rematch(table.id))  # the last yes
        note = page.get_by_test_id("rematch-declined")
        expect(note).to_have_text(
            "Çipin artık bu masanın 1.000 çiplik bahsini karşılamıyor, bu yüzden rövanş yapılmadı."
        )
        expect(page.get_by_test_id("rematch")).to_be_disabled()
        expect(note).to_have_attribute("role", "status")  # a refusal, said as one (not help)
        page.screenshot(path=str(artifacts / "rematch-short-you-desktop-tr.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        # (in one step: the window is drawn again when the wallet asked for at the sync comes)
        page.evaluate(SHOW_NOTE)
        page.screenshot(path=str(artifacts / "rematch-short-you-phone-tr.png"))
        # the language changed (the page says hello again and the table is synced): still said
        page.get_by_test_id("over-lang").click()
        expect(note).to_have_text(
            "Your chips no longer cover this table's stake of 1,000 chips, so no rematch was made."
        )
        expect(page.get_by_test_id("rematch")).to_be_disabled()
        page.evaluate(SHOW_NOTE)
        page.screenshot(path=str(artifacts / "rematch-short-you-phone-en.png"))
        page.set_viewport_size({"width": 1280, "height": 860})
        page.screenshot(path=str(artifacts / "rematch-short-you-desktop-en.png"))
        # the chips come back (as when the other table pays out; here a grant in the ledger):
        # the next sync (a change of language, a reload) asks for the wallet again and frees
        # Rematch, which stayed off for good; the note stays said, and the server takes the yes
        db = next(tmp_path.rglob("*.sqlite3"))
        with closing(sqlite3.connect(db, timeout=30)) as con, con:
            pid = other.player["id"]
            post(con.cursor(), lambda q: q, "test:refill", "grant", None,
                 [(GRANT, -5000), (player_account(pid), 5000)])  # fmt: skip
        assert run(other.wallet())["balance"] >= 1000
        page.get_by_test_id("over-lang").click()
        expect(page.get_by_test_id("rematch")).to_be_enabled()
        expect(note).to_have_text(
            "Çipin artık bu masanın 1.000 çiplik bahsini karşılamıyor, bu yüzden rövanş yapılmadı."
        )
        page.reload()
        expect(note).to_be_visible()
        expect(page.get_by_test_id("rematch")).to_be_enabled()
        page.screenshot(path=str(artifacts / "rematch-short-you-chips-back-desktop-tr.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate(SHOW_NOTE)
        page.screenshot(path=str(artifacts / "rematch-short-you-chips-back-phone-tr.png"))
        page.get_by_test_id("rematch").click()
        expect(page.get_by_test_id("rematch-waiting")).to_be_visible()
        run(other.close())
        run(veli.close())
    finally:
        pool.shutdown()
        loop.close()
        s.stop()
    no_js_errors(errors)
