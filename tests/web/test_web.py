"""The web client in a real Chromium against a real server (issue 5).

Four browsers play a private room to the score sheet; a refused card shows the engine's reason;
the page reconnects by itself after the server is killed and started again; switching language
changes every visible text; the lobby and the table work on a phone-sized touch screen; the
client's own logic (cards, texts) is unit-tested inside the browser.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import PHONE_CTX, TIMEOUT, watch
from harness import ServerProcess
from playwright.sync_api import Browser, Page, Route, expect

from batak.explain import form_catalog
from batak.record import loads

STATIC = Path(__file__).parents[2] / "src" / "batak" / "web" / "static"


def open_page(
    browser: Browser, server: ServerProcess, errors: list[str], *, locale: str = "en-US", **ctx: Any
) -> Page:
    context = browser.new_context(locale=locale, **ctx)
    context.set_default_timeout(TIMEOUT)
    page = watch(context.new_page(), errors)
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    # the rules catalog too: the page is drawn again when it comes (a moment after the page:
    # the server has it ready from its start), which detached what a test was about to touch
    page.wait_for_function("() => !!window.batak.state.catalog")
    return page


def set_name(page: Page, name: str) -> None:
    page.fill("#name-input", name)
    page.press("#name-input", "Enter")
    expect(page.locator("#name-input")).to_have_value(name)
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.wait_for_function(
        f"() => window.batak.state.player && window.batak.state.player.name === {json.dumps(name)}"
    )


def settle(page: Page) -> None:
    """Wait until every move this page sent is acknowledged or refused."""
    # a function, not an expression: Playwright evaluates expressions with eval(), which the
    # page's Content-Security-Policy forbids
    page.wait_for_function("() => window.batak.state.pending.size === 0")


def my_turn(page: Page) -> bool:
    return page.get_by_test_id("your-turn").count() > 0


def turn_in_deal(view: dict[str, Any] | None, deal: int) -> bool:
    """Whether ``view`` (the page's table view) shows the page's own turn in deal ``deal``.
    Before an act() that must not land in a later deal: the next deal cannot begin while this
    decision is pending (unless the seat's clock runs out), so it cannot arrive between this check
    and act() (a check of the deal alone lets it: act() would then make the next deal's first
    decision)."""
    return bool(view and view["match"]["deal"] == deal and view["to_move"] == view["seat"])


def act(page: Page, *, keyboard: bool = False, bid: bool = False) -> str | None:
    """Make the page's decision if it is its turn: first bid button, first koz, first legal card.

    With ``bid`` the page bids the lowest number it may instead of passing, so that the deal has
    a contract (four passes would redeal it)."""
    if not my_turn(page):
        return None
    buttons = page.locator(".bids button")
    confirm = page.get_by_test_id("bury-confirm")
    if confirm.count():  # kitty batak: pick the cards to bury, then confirm them
        if page.locator("#hand .card.picked").count():
            page.get_by_test_id("bury-undo").click()
        need = page.evaluate(
            "() => { const v = window.batak.state.table.view;"
            " return v.rules.kitty_size - (v.buried || []).length; }"
        )
        cards = page.locator("#hand .card.legal")
        move = "bury " + (cards.first.get_attribute("data-card") or "")
        for i in range(need):
            cards.nth(i).click()
        confirm.click()
        page.wait_for_function("() => window.batak.state.table.view.phase !== 'bury'")
    elif buttons.count():
        button = buttons.first
        if bid and page.locator('.bids button[data-move^="bid "]').count():
            button = page.locator('.bids button[data-move^="bid "]').first
        move = button.get_attribute("data-move")
        button.click()
    else:
        cards = page.locator(".card.legal")
        if not cards.count():
            return None
        move = cards.first.get_attribute("data-card")
        if keyboard:
            cards.first.focus()
            page.keyboard.press("Enter")
        else:
            cards.first.click()
            if page.locator("#hand .card.lifted").count():  # a phone: a tap lifts, one more plays
                page.locator("#hand .card.lifted").click()
    settle(page)
    return move


def bid_for_the_kitty(page: Page, view: dict[str, Any] | None) -> bool:
    """In a kitty table's auction: bid the highest bid when it is this page's turn (the kitty is
    then ours), else wait. True while the auction is on. The button is named by its move and
    waited for (the page may not have drawn the turn the view already shows); act() is never
    used here, as it would pass when the turn came between reading the view and the page. No
    view yet (the match has not begun on this page) counts as the auction to come: a CI run saw
    act() pass the seat's first bid, drawn just after the view was read as empty."""
    if view is None:
        time.sleep(0.05)
        return True
    if view["phase"] != "bidding":
        return False
    if view["to_move"] == view["seat"] and view["legal_moves"]:
        page.locator(f'.bids button[data-move="{view["legal_moves"][-1]}"]').click()
        settle(page)
    else:
        time.sleep(0.05)
    return True


def no_js_errors(errors: list[str], allow: tuple[str, ...] = ()) -> None:
    bad = [e for e in errors if not any(a in e for a in allow)]
    assert not bad, bad


def measure_all(page: Page, selector: str, fn: str) -> Any:
    """``fn`` (a JS function of an element array) over the elements ``selector`` finds, in one
    evaluation. ``locator.evaluate_all`` finds them in one round trip and calls ``fn`` in the
    next: a table drawn anew in between (every update draws the top bar) leaves ``fn`` with
    elements out of the page, whose boxes are empty (a clean-clone CI run under load saw
    the top bar's facts with no line at all)."""
    return page.evaluate(f"(sel) => ({fn})([...document.querySelectorAll(sel)])", selector)


# ---------------------------------------------------------------------- four players
def test_four_browsers_play_a_private_room_to_the_score_sheet(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    host = open_page(browser, server, errors, viewport={"width": 1280, "height": 860})
    set_name(host, "Ayşe")
    register(host, "ayse", "kupa-papaz-7")
    host.screenshot(path=str(artifacts / "lobby-en.png"), full_page=True)
    host.select_option("#preset-select", "standard")
    host.fill("input[name=deals]", "1")
    host.get_by_test_id("create-room").click()
    code = host.get_by_test_id("room-code").inner_text()
    invite = host.get_by_test_id("invite").get_attribute("href")
    assert invite and invite.endswith("/join/" + code)

    guests: list[Page] = []
    for name, locale in (("Burak", "tr-TR"), ("Cem", "en-US"), ("Deniz", "en-US")):
        page = open_page(browser, server, errors, locale=locale)
        set_name(page, name)
        page.goto(invite)
        expect(page.locator("#felt")).to_be_visible()
        expect(page.locator(".seat.pos-bottom .name")).to_have_text(name)
        guests.append(page)
    pages = [host, *guests]
    expect(host.locator(".seat .name")).to_have_count(4)
    host.get_by_test_id("start").click()
    for page in pages:
        expect(page.locator("#hand .card")).to_have_count(13)
    # chat and quick reactions reach everyone at the table
    host.fill("#chat-input", "İyi oyunlar!")
    host.press("#chat-input", "Enter")
    guests[1].locator(".reactions button", has_text="GG").click()
    for page in pages:
        expect(page.locator("#chat-log")).to_contain_text("Ayşe: İyi oyunlar!")
    expect(host.locator(".seat .bubble")).to_have_text("GG")

    refused = {"en": False, "tr": False}
    used_keyboard = False
    shot = False
    deadline = time.monotonic() + 240
    while not all(p.get_by_test_id("match-over").count() for p in pages):
        assert time.monotonic() < deadline, "the deal did not finish in time"
        moved = False
        for page in pages:
            if not my_turn(page):
                continue
            lang = page.evaluate("window.batak.lang()")
            dimmed = page.locator(".card.dimmed")
            if not refused[lang] and dimmed.count():
                # a card the rules forbid: the server refuses it with the engine's reason
                before = page.evaluate("window.batak.state.table.view.hand.length")
                # (aria-disabled for screen readers; a click still asks the server, which says why)
                dimmed.first.click(force=True)
                settle(page)
                box = page.get_by_test_id("refused")
                expect(box).to_be_visible()
                text = box.inner_text()
                assert text.startswith("Olmaz — " if lang == "tr" else "Not allowed — "), text
                assert len(text) > 20
                assert page.evaluate("window.batak.state.table.view.hand.length") == before
                refused[lang] = True
            use_keys = not used_keyboard and page.locator(".card.legal").count() > 0
            if act(page, keyboard=use_keys):
                moved = True
                used_keyboard = used_keyboard or use_keys
            if not shot and page is host and host.locator(".played").count() >= 2:
                host.screenshot(path=str(artifacts / "table-en.png"))
                shot = True
        if not moved:
            time.sleep(0.05)
    assert refused == {"en": True, "tr": True}
    assert used_keyboard

    for page in pages:
        sheet = page.get_by_test_id("sheet").first
        expect(sheet.locator("tbody tr")).to_have_count(1)
        expect(page.get_by_test_id("match-over")).to_be_visible()
    host.screenshot(path=str(artifacts / "match-over-en.png"))
    guests[0].screenshot(path=str(artifacts / "match-over-tr.png"))
    # the score sheet shows the engine's totals, the same on every page
    totals = [p.evaluate("window.batak.state.table.view.match.totals") for p in pages]
    seat = host.evaluate("window.batak.state.table.you")
    assert all(x == totals[0] for x in totals)
    shown = [int(x) for x in sheet_totals(host)]
    assert shown == totals[0]
    # the record link downloads the game record, which the engine replays
    href = host.get_by_test_id("record").get_attribute("href")
    assert href
    response = host.request.get(server.http + href)
    assert response.status == 200
    match = loads(response.text())
    assert match.over and list(match.totals) == totals[0]
    # back in the lobby: the account's statistics count the match; the leaderboard lists it
    host.get_by_role("link", name="Back to the lobby").click()
    stats = host.get_by_test_id("stats")
    expect(stats.locator("tr", has_text="Matches").locator("td")).to_have_text("1")
    expect(stats.locator("tr", has_text="Deals")).to_contain_text("1")
    expect(host.get_by_test_id("leaderboard")).to_contain_text("Ayşe")
    # the lobby lists the finished match: it opens at its table, its record downloads
    mine = host.get_by_test_id("my-matches").locator("li")
    expect(mine).to_have_count(1)
    won = seat in match.winners
    expect(mine).to_contain_text(f"Standard (common rules · ihaleli) · {'won' if won else 'lost'}")
    expect(mine).to_contain_text(f"{totals[0][seat]} points")
    link = mine.get_by_role("link", name="Game record")
    href = link.get_attribute("href")
    assert href and loads(host.request.get(server.http + href).text()).totals == match.totals
    # saved under its day, its table and its id (was "batak-ID.json")
    with host.expect_download() as saved:
        link.click()
    table_id = href.split("/")[3]
    assert re.fullmatch(
        rf"batak-\d{{4}}-\d\d-\d\d-standard-{table_id}\.json", saved.value.suggested_filename
    )
    mine.get_by_role("button", name="Open").click()
    expect(host.get_by_test_id("match-over")).to_be_visible()
    expect(host.get_by_test_id("sheet").first.locator("tbody tr")).to_have_count(1)
    # a restart loads no finished table (nor does memory keep one for long): Open brings the
    # match back from storage, as it ended, to look at: no chat, no rematch
    server.stop()
    server.start()
    host.goto(server.http + "/")
    host.get_by_test_id("my-matches").get_by_role("button", name="Open").click()
    expect(host.get_by_test_id("archived-note")).to_contain_text("this match ended a while ago")
    expect(host.get_by_test_id("sheet").first.locator("tbody tr")).to_have_count(1)
    assert host.evaluate("window.batak.state.table.view.match.totals") == totals[0]
    expect(host.locator("#chat-input")).to_have_count(0)
    expect(host.get_by_test_id("rematch")).to_have_count(0)
    host.screenshot(path=str(artifacts / "archived-en.png"))
    host.get_by_role("link", name="Back to the lobby").click()
    expect(host.get_by_test_id("my-matches")).to_be_visible()
    # (the pages tried to reconnect while the server was down)
    no_js_errors(errors, allow=("WebSocket", "ERR_CONNECTION_REFUSED", "Failed to load resource"))


def test_when_the_host_leaves_the_waiting_room_the_next_player_hosts_it(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """Only the host starts a private room: a host who left before the start left the others
    waiting with no Start button. The next player is told they host it now, and starts it."""
    host = open_page(browser, server, errors)
    set_name(host, "Ayşe")
    host.fill("input[name=deals]", "1")
    host.get_by_test_id("create-room").click()
    invite = host.get_by_test_id("invite").get_attribute("href")
    assert invite
    guest = open_page(browser, server, errors, locale="tr-TR")
    set_name(guest, "Burak")
    guest.goto(invite)
    expect(guest.get_by_test_id("waiting-host")).to_have_text("Oyunu masa sahibi Ayşe başlatacak.")
    expect(guest.get_by_test_id("start")).to_have_count(0)
    host.get_by_test_id("leave").click()
    expect(guest.locator("#notice")).to_have_text(
        "Masa sahibi ayrıldı: artık masa sahibi sensin. Herkes gelince oyunu başlat."
    )
    expect(guest.get_by_test_id("waiting-host")).to_have_count(0)
    guest.screenshot(path=str(artifacts / "host-left-tr.png"))
    guest.get_by_test_id("start").click()
    expect(guest.locator("#hand .card")).to_have_count(13)
    no_js_errors(errors)


def test_a_double_click_on_create_room_makes_one_room(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A double click sent 'create' twice: two rooms, two of the guest's three allowed."""
    context = browser.new_context(locale="en-US")
    context.set_default_timeout(TIMEOUT)
    page = watch(context.new_page(), errors)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(str(data))))
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.get_by_test_id("create-room").dblclick()
    expect(page.get_by_test_id("room-code")).to_be_visible()
    page.wait_for_timeout(500)
    creates = [f for f in sent if '"type":"create"' in f.replace(" ", "")]
    assert len(creates) == 1, creates
    no_js_errors(errors)


def test_an_invite_link_asks_a_new_player_for_the_name_the_table_shows(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """Opened by someone who never chose a name, an invite link sat them down as 'Misafir
    6982', a name their friends do not know. They are asked once; the name is kept."""
    host = open_page(browser, server, errors)
    set_name(host, "Ayşe")
    host.fill("#create-form input[name=deals]", "3")
    host.locator("#create-form details summary").click()  # the table options
    host.locator("#opt-must_trump").uncheck()
    host.get_by_test_id("create-room").click()
    invite = host.get_by_test_id("invite").get_attribute("href")
    assert invite
    # the room's settings, for everyone in the waiting room (they were seen by the host only,
    # in the form)
    settings = host.get_by_test_id("room-settings")
    expect(settings).to_contain_text("Standard (common rules · ihaleli) · 3 deals · 25 s a move")
    expect(settings).to_contain_text("Changed by the host: Must trump when void: no.")
    friend = open_page(
        browser, server, errors, locale="tr-TR", viewport={"width": 390, "height": 800}
    )
    friend.goto(invite)
    expect(friend.get_by_text("Bir masaya davet edildin")).to_be_visible()
    # what the room plays and who is there, before sitting down
    room = friend.get_by_test_id("join-room")
    expect(room).to_contain_text("Standart (yaygın kurallar · ihaleli) · 3 el · hamle başına 25 sn")
    expect(room).to_contain_text("Masa sahibinin değiştirdikleri: Renk yoksa koz zorunlu: hayır.")
    expect(room).to_contain_text("Masa sahibi: Ayşe · Masada: Ayşe · boş koltuk: 3")
    friend.wait_for_timeout(300)
    seated = "window.batak.state.table.info.seats.filter((s) => s.name).length"
    assert host.evaluate(seated) == 1  # not seated before answering
    friend.screenshot(path=str(artifacts / "invite-name-tr.png"))
    friend.get_by_test_id("join-name").fill("Zeynep")
    friend.get_by_test_id("join-sit").click()
    expect(friend.locator(".seat.pos-bottom .name")).to_have_text("Zeynep")
    expect(friend.get_by_test_id("room-settings")).to_contain_text("3 el")
    expect(host.locator(".seat .name", has_text="Zeynep")).to_have_count(1)
    assert friend.evaluate("localStorage.getItem('batak.name')") == "Zeynep"
    # the next invite link does not ask again
    friend.goto(invite)
    expect(friend.locator(".seat.pos-bottom .name")).to_have_text("Zeynep")
    # a code that opens no room says so, without asking for a name first
    stranger = open_page(browser, server, errors, locale="tr-TR")
    stranger.goto(server.http + "/join/ZZZZZZZZ")
    expect(stranger.get_by_test_id("join-missing")).to_contain_text(
        "'ZZZZZZZZ' kodlu bir masa yok."
    )
    expect(stranger.get_by_test_id("join-name")).to_have_count(0)
    no_js_errors(errors)


def test_a_blank_name_is_refused_with_a_reason_and_the_name_kept(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """Saving a blank name did nothing and left the field empty, the name still 'Misafir …'."""
    page = open_page(browser, server, errors, locale="tr-TR")
    set_name(page, "Ayşe")
    page.fill("#name-input", "   ")
    page.press("#name-input", "Enter")
    expect(page.locator("#notice")).to_have_text("Ad boş olamaz: adın olduğu gibi kaldı.")
    expect(page.locator("#name-input")).to_have_value("Ayşe")
    assert page.evaluate("window.batak.state.player.name") == "Ayşe"
    no_js_errors(errors)


def register(page: Page, username: str, password: str) -> None:
    page.fill("#account-form input[name=username]", username)
    page.fill("#account-form input[name=password]", password)
    page.get_by_test_id("register").click()
    expect(page.get_by_test_id("signed-in")).to_contain_text(username)


def test_an_account_logs_in_from_another_browser(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    first = open_page(browser, server, errors)
    set_name(first, "Emre")
    register(first, "emre", "sinek-vale-9")
    second = open_page(browser, server, errors, locale="tr-TR")
    second.fill("#account-form input[name=username]", "emre")
    second.fill("#account-form input[name=password]", "wrong-password")
    second.get_by_test_id("login").click()
    # said under the form, where the person looks (the page's top is out of sight on a phone)
    expect(second.get_by_test_id("account-note")).to_have_text("kullanıcı adı ya da şifre yanlış")
    second.fill("#account-form input[name=password]", "sinek-vale-9")
    second.get_by_test_id("login").click()
    expect(second.get_by_test_id("signed-in")).to_contain_text("emre")
    assert second.evaluate("window.batak.state.player.name") == "Emre"
    # the new session is remembered: a reload is still the account's player
    second.reload()
    expect(second.get_by_test_id("signed-in")).to_contain_text("emre")
    no_js_errors(errors)


def _name_after_reconnect(page: Page) -> str:
    """The player's name as the server keeps it after the page connects again (the language
    switch reconnects: its hello is the one that renamed accounts)."""
    before = page.evaluate("window.batak.lang()")
    page.get_by_test_id("lang").click()
    page.wait_for_function(f"() => window.batak.lang() !== {json.dumps(before)}")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.reload()  # a welcome from the server's storage, not the page's memory
    page.wait_for_function("() => window.batak && window.batak.state.player !== null")
    return str(page.evaluate("window.batak.state.player.name"))


def test_a_registered_or_logged_in_account_keeps_its_name_when_the_page_reconnects(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The page kept the guest's name and sent it in every hello: after a registration the
    account was renamed back to "Guest NNNN" at the next reconnect (a language switch, a
    dropped network), and a login from a device where another name was typed renamed the
    account to it. The server's name is the page's from each welcome on."""
    page = open_page(browser, server, errors)
    guest = page.evaluate("window.batak.state.player.name")
    assert guest.startswith("Guest "), guest
    register(page, "selin_web", "kupa-kizi-7")
    page.wait_for_function("() => window.batak.state.player.name === 'selin_web'")
    assert _name_after_reconnect(page) == "selin_web"
    # a device where "Ali" was typed logs in to selin_web's account: it is selin_web there
    other = open_page(browser, server, errors)
    set_name(other, "Ali")
    other.fill("#account-form input[name=username]", "selin_web")
    other.fill("#account-form input[name=password]", "kupa-kizi-7")
    other.get_by_test_id("login").click()
    expect(other.get_by_test_id("signed-in")).to_contain_text("selin_web")
    assert _name_after_reconnect(other) == "selin_web"
    # a name typed on purpose still renames the account, and stays after a reconnect
    set_name(other, "Selin")
    assert _name_after_reconnect(other) == "Selin"
    page.reload()
    page.wait_for_function(
        "() => (window.batak && window.batak.state.player || {}).name === 'Selin'"
    )
    no_js_errors(errors)


def test_back_to_the_lobby_from_a_match_hands_the_seat_to_a_computer_player(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A host who went back to the lobby (the browser's Back) kept the seat: the others waited
    out their clock at every turn, with nothing on the seat to say why. Now a computer player
    takes it at once, and the others read that the player is away; a second device of the
    player still at the table keeps the seat (only the page that went elsewhere leaves)."""
    page = open_page(browser, server, errors)
    set_name(page, "Ayşe")
    page.get_by_test_id("create-room").click()
    invite = page.get_by_test_id("invite").get_attribute("href")
    assert invite
    friend = open_page(browser, server, errors, locale="tr-TR")
    set_name(friend, "Zeynep")
    friend.goto(invite)
    expect(friend.locator(".seat.pos-bottom .name")).to_have_text("Zeynep")
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    you = page.evaluate("window.batak.state.table.you")
    table = page.evaluate("window.batak.state.table.id")
    # the same player on a second device (the page's session in another tab)
    second = page.context.new_page()
    watch(second, errors)
    second.goto(f"{server.http}/table/{table}")
    expect(second.locator("#hand .card").first).to_be_visible()
    seat = friend.locator(f'#felt .seat[data-seat="{you}"]')
    expect(seat).to_be_visible()
    page.go_back()
    expect(page.get_by_test_id("my-tables")).to_be_visible()
    second.wait_for_timeout(500)
    expect(seat).not_to_contain_text("masada değil")  # the second device plays on
    second.close()
    # (the server has seen the second device go: the seat shows no connection of its player)
    expect(seat).to_contain_text("bağlantısı koptu")
    # back at the table from the lobby, then Back again, with no other device there
    page.get_by_test_id("my-tables").get_by_role("button", name="Return to the table").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    page.go_back()
    expect(seat).to_contain_text("masada değil: bilgisayar oynuyor")
    # the match goes on without them (the friend plays its own turns meanwhile)
    start = friend.evaluate("window.batak.state.table.v")
    deadline = time.monotonic() + 60
    while friend.evaluate("window.batak.state.table.v") < start + 4:
        assert time.monotonic() < deadline, "the match stood still"
        if not act(friend, bid=True):
            time.sleep(0.1)
    no_js_errors(errors)


def test_a_refused_registration_is_said_under_the_form_in_view_on_a_phone(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """On a phone the account form is far down the lobby: a refused registration was said only
    in the notice at the page's top, out of sight, and the rule for usernames only after a
    refusal. The rule is under the field; a name with a space is refused by the browser with
    it; a name taken is said under the form, in view."""
    first = open_page(browser, server, errors)
    register(first, "deniz", "uzun-parola-1")
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    form = page.locator("#account-form")
    expect(form).to_contain_text("Boşluksuz, en çok 32 karakter")
    username = form.locator("input[name=username]")
    username.fill("Deniz Can")
    form.locator("input[name=password]").fill("uzun-parola-2")
    page.get_by_test_id("register").click()
    assert username.evaluate("(i) => i.validity.patternMismatch")
    assert username.get_attribute("title") == "Boşluksuz, en çok 32 karakter (örneğin ayse_yilmaz)."
    username.fill("DENİZ")  # taken, in another case
    page.get_by_test_id("register").click()
    note = page.get_by_test_id("account-note")
    expect(note).to_have_text("bu kullanıcı adıyla kayıt olunamıyor: başka bir ad seç")
    expect(note).to_be_in_viewport()
    page.screenshot(path=str(artifacts / "register-refused-phone-tr.png"))
    username.fill("deniz_can")
    page.get_by_test_id("register").click()
    expect(page.get_by_test_id("signed-in")).to_contain_text("deniz_can")
    no_js_errors(errors)


def test_a_button_pressed_while_offline_says_it_was_not_sent(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """Quick play pressed while the connection was down was lost without a word (a login is
    kept for the new connection, a move is sent again): the player is told to try again."""
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    server.kill()
    expect(page.get_by_test_id("status")).to_have_class(re.compile("offline"))
    page.get_by_test_id("quick-ihaleli").tap()
    expect(page.locator("#notice")).to_have_text(
        "Bağlantı yok: bu istek gönderilemedi. Üstte “Bağlı” yazınca yeniden dene."
    )
    server.start()
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"), timeout=30_000)
    page.get_by_test_id("quick-ihaleli").tap()
    expect(page).to_have_url(re.compile(r"/table/\w+$"))
    no_js_errors(errors, allow=("WebSocket", "ERR_CONNECTION_REFUSED", "Failed to load resource"))


def test_a_link_that_names_its_language_opens_in_it(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A Turkish browser opening a link shared with ?lang=en got Turkish."""
    page = open_page(browser, server, errors, locale="tr-TR")
    assert page.evaluate("window.batak.lang()") == "tr"
    page.goto(server.http + "/?lang=en")
    expect(page.get_by_test_id("status")).to_have_text("Online")
    assert page.evaluate("window.batak.lang()") == "en"
    no_js_errors(errors)


def sheet_totals(page: Page) -> list[str]:
    cells = page.get_by_test_id("sheet").first.locator("tfoot th.num")
    return [c.strip() for c in cells.all_inner_texts()]


# ---------------------------------------------------------------------- reconnecting
def test_the_page_reconnects_by_itself_after_the_server_restarts(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors)
    page.locator("#create-form input[name=show_bots]").uncheck()  # bots look like people
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card")).to_have_count(13)
    expect(page.locator(".seat .tag", has_text="computer")).to_have_count(0)
    table = page.evaluate("window.batak.state.table.id")
    you = page.evaluate("window.batak.state.table.you")
    # the lobby lists the unfinished table, and going back to it is one click. Going to the
    # lobby from a match in play hands the seat to a computer player (asked first: the others
    # waited out this player's clock at every turn while they were in the lobby)
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_role("link", name="Lobby", exact=True).click()
    expect(page).to_have_url(re.compile(f"/table/{table}$"))  # "Cancel": still at the table
    assert asked and asked[0].startswith("Leave the table? A computer player takes your seat")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("link", name="Lobby", exact=True).click()
    page.get_by_test_id("my-tables").get_by_role("button", name="Return to the table").click()
    expect(page).to_have_url(re.compile(f"/table/{table}$"))
    expect(page.locator("#hand .card").first).to_be_visible()
    page.wait_for_function(  # the seat is this player's again
        "(you) => { const T = window.batak.state.table;"
        " return T.you === you && T.info && !T.info.seats[you].away; }",
        arg=you,
    )
    # someone watches by the room's code: the table, but no hand and no hidden card
    watcher = open_page(browser, server, errors, locale="tr-TR")
    watcher.fill("#code-input", page.evaluate("window.batak.state.table.info.code"))
    watcher.locator("#watch-input").check()
    watcher.locator("#code-input").press("Enter")
    expect(watcher.locator(".seat")).to_have_count(4)
    expect(watcher.locator("#hand .card")).to_have_count(0)
    assert watcher.evaluate("window.batak.state.table.you") is None
    assert watcher.evaluate("window.batak.state.table.view.hand") in (None, [])
    expect(watcher.locator("#notice")).not_to_contain_text("izleyici")  # they asked to watch
    # one who opens the invite link of a match under way is told they watch (it was silent)
    late = open_page(browser, server, errors, locale="tr-TR")
    late.goto(page.evaluate("window.batak.state.table.info.invite"))
    late.get_by_test_id("join-sit").click()  # no name chosen: asked first, the guest name kept
    expect(late.locator("#notice")).to_have_text("Bu masada oyun başlamış: oyunu izliyorsun.")
    assert late.evaluate("window.batak.state.table.you") is None
    hand = page.evaluate("window.batak.state.table.view.hand")

    server.kill()
    expect(page.get_by_test_id("status")).to_have_class(re.compile("offline"))
    expect(page.get_by_test_id("status")).to_have_text("Offline: reconnecting…")
    # the table says it too, over its middle: what it shows is not live (it looked live)
    over = page.evaluate("getComputedStyle(document.querySelector('#felt'), '::after').content")
    assert over == '"Offline: reconnecting…"', over
    page.screenshot(path=str(artifacts / "offline-table-en.png"))
    server.start()
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"), timeout=30_000)
    assert page.evaluate("window.batak.state.table.id") == table
    assert page.evaluate("window.batak.state.table.view.hand") == hand
    expect(page.locator("#hand .card")).to_have_count(len(hand))
    # and the game goes on: the seat is ours again at our decision
    deadline = time.monotonic() + 60
    played = 0
    while played < 2:
        assert time.monotonic() < deadline, "could not play after reconnecting"
        if act(page):
            played += 1
        else:
            time.sleep(0.1)
    # failed websocket connections while the server is down are expected console errors
    no_js_errors(errors, allow=("WebSocket", "ERR_CONNECTION_REFUSED", "Failed to load resource"))


# ---------------------------------------------------------------------- language
def english_only_texts(page: Page) -> list[str]:
    """Every English text of the client that differs from its Turkish one (no placeholders)."""
    texts: dict[str, dict[str, str]] = page.evaluate("window.batak.TEXT")
    return [
        v["en"]
        for v in texts.values()
        if v["en"] != v["tr"] and "{" not in v["en"] and len(v["en"]) >= 4
    ]


def visible_text(page: Page) -> str:
    """The page's text as shown, without option names (``<code>``: identifiers, not words)."""
    return str(
        page.evaluate(
            """() => {
            const codes = [...document.querySelectorAll('code')];
            codes.forEach(c => c.style.display = 'none');
            const text = document.body.innerText;
            codes.forEach(c => c.style.display = '');
            return text;
        }"""
        )
    )


def still_english(english: list[str], text: str) -> list[str]:
    return [e for e in english if re.search(r"(?<!\w)" + re.escape(e) + r"(?!\w)", text)]


def test_switching_language_changes_every_visible_text(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport={"width": 1280, "height": 860})
    english = english_only_texts(page)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "Quick play" in visible_text(page)

    page.get_by_test_id("lang").click()
    expect(page.locator("#h-quick")).to_have_text("Hızlı oyun")
    assert page.evaluate("document.documentElement.lang") == "tr"
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    for summary in page.locator("details summary").all():  # the table options and look too
        summary.click()
    text = visible_text(page)
    left = still_english(english, text)
    assert not left, left
    page.screenshot(path=str(artifacts / "lobby-tr.png"), full_page=True)

    # remembered: a reload stays in Turkish
    page.reload()
    expect(page.locator("#h-quick")).to_have_text("Hızlı oyun")

    # at a table: quick play, computer players fill the seats
    page.get_by_test_id("quick-kitty").click()
    expect(page.locator("#hand .card")).to_have_count(16, timeout=30_000)
    page.get_by_role("button", name="Yazboz").click()
    text = visible_text(page)
    left = still_english(english, text)
    assert not left, left
    page.keyboard.press("Escape")
    page.get_by_test_id("lang").click()
    expect(page.get_by_role("button", name="Score sheet (yazboz)")).to_be_visible()
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    # the server's own texts follow: a hint comes in English now
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=60_000)
    page.get_by_test_id("teach").click()
    expect(page.get_by_test_id("hint")).to_contain_text("Suggestion — ")
    no_js_errors(errors)


def test_what_is_typed_in_the_lobby_survives_its_redraws(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The lobby is drawn again when the rules catalog arrives, after a reconnect and in another
    language. A person typing then must not lose what they typed: a login typed before the
    catalog came was once emptied, and the click on "Log in" did nothing (a red CI)."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = watch(context.new_page(), errors)
    held: list[Route] = []
    page.route("**/api/rules", lambda route: held.append(route))  # comes when the test says
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.fill("#account-form input[name=username]", "kemal")
    page.fill("#account-form input[name=password]", "maca-kizi-7")
    page.fill("#code-input", "ABC")
    page.locator("#watch-input").check()
    page.locator("#code-input").focus()
    for _ in range(200):  # let the held request reach the route
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#preset-select option")).not_to_have_count(0)  # drawn with the catalog
    expect(page.locator("#account-form input[name=username]")).to_have_value("kemal")
    expect(page.locator("#account-form input[name=password]")).to_have_value("maca-kizi-7")
    expect(page.locator("#code-input")).to_have_value("ABC")
    expect(page.locator("#code-input")).to_be_focused()
    expect(page.locator("#watch-input")).to_be_checked()

    # another language: a new hello, a new welcome, the lobby drawn again in Turkish
    page.locator("#create-form details summary").click()
    page.get_by_test_id("lang").click()
    expect(page.locator("#h-quick")).to_have_text("Hızlı oyun")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    expect(page.locator("#account-form input[name=username]")).to_have_value("kemal")
    expect(page.locator("#code-input")).to_have_value("ABC")
    expect(page.locator("#create-form details")).to_have_attribute("open", "")
    page.get_by_test_id("register").click()
    expect(page.get_by_test_id("signed-in")).to_contain_text("kemal")
    no_js_errors(errors)


# ---------------------------------------------------------------------- phone
def test_a_phone_can_play(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(
        browser,
        server,
        errors,
        locale="tr-TR",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    assert page.evaluate("document.documentElement.lang") == "tr"  # the browser's language
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(artifacts / "lobby-phone-tr.png"), full_page=True)
    page.get_by_test_id("quick-ihaleli").tap()
    expect(page.locator("#hand .card")).to_have_count(13, timeout=30_000)
    expect(page.locator(".seat .tag", has_text="bilgisayar")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    # every card of the hand is on the screen
    for box in measure_all(
        page,
        "#hand .card",
        "cards => cards.map(c => c.getBoundingClientRect()).map(r => [r.left, r.right])",
    ):
        assert box[0] >= -1 and box[1] <= width + 1, box
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=60_000)
    page.screenshot(path=str(artifacts / "table-phone-tr.png"))
    # the table's buttons and the reactions are a finger's size (44 px); the reactions are in
    # the chat's panel, opened from the top bar (the buttons a phone does not show are left out)
    page.get_by_test_id("chat-open").tap()
    expect(page.locator(".reactions button").first).to_be_visible()
    small = measure_all(
        page,
        "#topbar button, #topbar .button, .reactions button, #chat-box button",
        "(els) => els.filter((e) => e.getClientRects().length).map((e) => [e.textContent.trim(),"
        " e.getBoundingClientRect().height, e.getBoundingClientRect().width])"
        ".filter(([, h, w]) => h < 44 || w < 44)",
    )
    assert not small, small
    assert measure_all(page, "#topbar button", "(els) => els.length") >= 4
    page.get_by_test_id("chat-close").tap()
    # the bidding panel shows the hand's estimated tricks for each koz, the Turkish way (4,3),
    # each suit's sign joined to its number by a no-break space
    expect(page.get_by_test_id("estimate")).to_contain_text(re.compile(r"♠\s\d+,\d"))
    first = page.locator(".bids button").first
    expect(first).to_have_attribute("data-move", "pass")
    first.tap()
    settle(page)
    # the tap made the seat's pass. Not "your-turn is gone": the table goes on at once with
    # bots, and the seat's turn can come back (the dealer taking the minimum after four
    # passes, or the first card after a bot's contract) before a check could see it gone
    page.wait_for_function(
        """() => {
            const v = window.batak.state.table.view;
            return v.auction.some((a) => a.seat === v.seat && a.move === "pass");
        }"""
    )
    no_js_errors(errors)


# ---------------------------------------------------------------------- açık eşli
def test_the_open_partner_hand_is_shown_in_acik_esli(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors)
    page.select_option("#preset-select", "esli-acik")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card")).to_have_count(13)
    deadline = time.monotonic() + 120
    while True:  # until a deal whose open hand is not this browser's own
        assert time.monotonic() < deadline, "no open partner hand was shown"
        view = page.evaluate("window.batak.state.table.view")
        exposed = view and view.get("exposed")
        if exposed and exposed["seat"] != view["seat"]:
            break
        if not act(page):
            time.sleep(0.05)
    # The hand and the page are read together: bots keep playing, so the open hand may shrink
    # between two separate reads; it is drawn within a moment of each change.
    snapshot = """(seat) => {
        const v = window.batak.state.table.view;
        const minis = [...document.querySelectorAll(`.seat[data-seat='${seat}'] .exposed .mini`)];
        return {cards: v && v.exposed ? v.exposed.cards : [], labels: minis.map((e) => e.title)};
    }"""
    deadline = time.monotonic() + 10
    while True:
        shown = page.evaluate(snapshot, exposed["seat"])
        if shown["cards"] and len(shown["labels"]) == len(shown["cards"]):
            break
        assert time.monotonic() < deadline, f"open hand not drawn: {shown}"
        time.sleep(0.05)
    assert all(shown["labels"])
    no_js_errors(errors)


# ---------------------------------------------------------------------- every kind of table
@pytest.mark.parametrize(
    "preset", ["zipi-kitty", "sultan-kozmaca", "zipi-kozmaca", "sultan-esli", "esli-acik"]
)
def test_a_deal_of_every_kind_of_table_plays_to_the_end_in_the_browser(
    browser: Browser, server: ServerProcess, errors: list[str], preset: str
) -> None:
    """Kitty burying, one-bid Koz Maça, no bidding, partners and açık eşli, through the page."""
    page = open_page(browser, server, errors)
    page.select_option("#preset-select", preset)
    page.fill("input[name=deals]", "1")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    players = 3 if preset == "zipi-kitty" else 4
    expect(page.locator(".seat")).to_have_count(players)
    phases: set[str] = set()
    seen_play: set[str] = set()
    deadline = time.monotonic() + 120
    while not page.get_by_test_id("match-over").count():
        assert time.monotonic() < deadline, f"{preset}: the deal did not finish"
        view = page.evaluate("window.batak.state.table.view")
        mine = bool(view and view["to_move"] == view["seat"] and view["legal_moves"])
        if mine:
            phases.add(view["phase"])
        if preset == "zipi-kitty" and bid_for_the_kitty(page, view):
            continue
        if mine and view["phase"] == "play" and "play" not in seen_play:
            seen_play.add("play")
            if preset == "zipi-kitty":  # the bidder sees what was buried
                assert len(view["buried"]) == 4
                expect(page.locator("#panel")).to_contain_text("Buried:")
        elif not act(page):
            time.sleep(0.05)
    if preset == "zipi-kitty":
        assert {"bidding", "bury", "trump", "play"} <= phases, phases
    expect(page.get_by_test_id("sheet").first.locator("tbody tr")).to_have_count(1)
    assert "play" in phases
    no_js_errors(errors)


# ---------------------------------------------------------------------- between deals
def test_a_finished_deal_shows_its_result_and_the_sheet(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors)
    page.fill("input[name=deals]", "2")
    page.fill("input[name=deal_pause]", "30")  # the result stays until closed (a slow machine)
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card")).to_have_count(13)
    deadline = time.monotonic() + 120
    while not page.get_by_test_id("deal-over").count():
        assert time.monotonic() < deadline, "the first deal did not finish"
        # the panel must come before anything of the next deal: say what was drawn if not
        assert not page.get_by_test_id("match-over").count(), page.evaluate(
            "() => JSON.stringify(window.batakMotion.drawn.filter(d => d.kind !== 'move'))"
        )
        # only deal 1's decisions: the next deal's play (which ends the panel) waits for ours, so
        # the panel is not gone before this loop looks (the felt may still be drawing the last
        # trick when the new deal's first decision is ours)
        view = page.evaluate("() => window.batak.state.table.view")
        if not turn_in_deal(view, 1) or not act(page, bid=True):  # a bid: a contract
            time.sleep(0.05)
    # the result: a panel on the felt (not a window over the table) with each seat's points
    result = page.get_by_test_id("deal-result")
    expect(result).to_contain_text(re.compile(r"made|went down|You made"))
    expect(result.locator(".result-points tbody tr")).to_have_count(4)
    # (its columns named: a bare "+10 40" puzzled a player)
    expect(result.locator(".result-points thead th")).to_have_text(["This deal", "Total"])
    overlay = page.locator(".overlay")
    assert overlay.count() == 0, overlay.first.inner_text()[:300]
    expect(page.locator("#sheet-side").get_by_test_id("sheet").locator("tbody tr")).to_have_count(1)
    page.get_by_test_id("close-result").click()
    expect(result).to_have_count(0)
    expect(page.get_by_test_id("facts")).to_contain_text("Deal 2 of 2")
    # the deal's last trick is still there to look at
    page.get_by_role("button", name="Last trick").click()
    expect(page.locator(".dialog .played")).to_have_count(4)
    expect(page.locator(".dialog .trick-label")).to_contain_text(re.compile(r"won by|you took it"))
    page.get_by_test_id("close-dialog").click()
    # the score sheet's window says in a player's words that the deal was dealt as sealed; the
    # codes, and the program that deals a match again from them, wait in a part opened on demand
    page.get_by_role("button", name="Score sheet (yazboz)").click()
    dialog = page.locator(".dialog")
    expect(dialog.get_by_test_id("fair-deal-1")).to_have_text("✓ Deal 1: dealt as sealed")
    expect(dialog.get_by_test_id("fair-deal-2")).to_have_text(
        "Deal 2: sealed; it is checked when the deal is over"
    )
    expect(dialog.get_by_test_id("fair-seed-1")).to_be_hidden()
    seen = dialog.inner_text()
    for word in ("batak verify", "SHA-256", "seed", "commitment", "hash"):
        assert word not in seen, (word, seen)
    dialog.get_by_text("How do I check this myself?").click()
    expect(dialog.get_by_test_id("fair-seed-1")).to_be_visible()
    expect(dialog.get_by_test_id("fair-seed-1")).to_contain_text("fits its seal")
    expect(dialog.get_by_test_id("fair-how")).to_contain_text("'batak verify'")
    no_js_errors(errors)


# ---------------------------------------------------------------------- colours
def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_colours_meet_the_contrast_guidelines() -> None:
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    var = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", css))
    cards = (STATIC / "cards.js").read_text(encoding="utf-8")
    card_red = re.search(r'isRed\(suit\) \? "(#[0-9a-f]{6})" : "(#[0-9a-f]{6})"', cards)
    assert card_red
    pairs = {
        "text on the page": (var["ink"], var["paper"]),
        "white on the felt": ("#ffffff", var["felt"]),
        "red suits on a card": (card_red.group(1), "#ffffff"),
        "black suits on a card": (card_red.group(2), "#ffffff"),
        "red suits in the panel": (var["red"], "#ffffff"),
        "white on the header": ("#ffffff", var["felt-dark"]),
    }
    for what, (fg, bg) in pairs.items():
        assert contrast(fg, bg) >= 4.5, (what, fg, bg, contrast(fg, bg))


# ---------------------------------------------------------------------- rules pages
def test_rules_pages_come_from_the_rules_data(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors)
    page.goto(server.http + "/rules")
    # each set of rules once: cetinsgame-ihaleli is standard's table under an older name
    expect(page.locator("ul.presets li")).to_have_count(13)
    expect(page.locator('ul.presets a[href="/rules/cetinsgame-ihaleli"]')).to_have_count(0)
    expect(page.locator("ul.presets li").first).to_contain_text("Standard (common rules · ihaleli)")
    # the list belongs to no table: its introduction does not speak of "this table's" options
    expect(page.get_by_test_id("rules-intro")).to_contain_text("Each table below has its own")
    expect(page.get_by_test_id("rules-intro")).not_to_contain_text("this table")
    # tables by the names players read; the preset's own name for the terminal programs
    page.get_by_role("link", name="Zipi · three players (kitty)").click()
    expect(page.locator("h2")).to_have_text("Rules: Zipi · three players (kitty)")
    # (the terminal program's name of the table: under the options, said what it is for)
    expect(page.get_by_test_id("preset-id")).to_have_text(
        "To play this table in the terminal program: 'batak play --preset zipi-kitty'"
    )

    def row(option: str) -> Any:
        return page.locator(f"table.rules tr[data-option={option}]")

    expect(row("kitty_size").locator("td").nth(1)).to_have_text("4")
    expect(row("overtake")).to_contain_text("yükseltme")
    expect(row("overtake_after_ruff").locator("b")).to_have_text("Overtake after a ruff")
    expect(page.locator(".page")).to_contain_text("The options below are this table's.")
    # the options that change nothing at this table are named once under the table, not shown
    # with a value (as 'batak rules' does): a kitty table has no partners, a four-player one
    # no kitty, whose order of taking and burying it once read as a rule of the standard table
    expect(row("kitty_order")).to_have_count(1)
    expect(row("exposed_partner")).to_have_count(0)
    expect(page.get_by_test_id("rules-unused")).to_contain_text("Açık eşli")
    page.get_by_role("link", name="All tables").click()
    page.get_by_role("link", name="Standard (common rules · ihaleli)").click()
    unused = ("kitty_order", "zero_bid", "exposed_partner", "defenders_minimum", "redeal_dealer")
    for option in unused:  # (no throw-in: everyone's pas gives the dealer the ihale)
        expect(row(option)).to_have_count(0)
    expect(row("overtake")).to_have_count(1)
    expect(page.get_by_test_id("rules-unused")).to_have_text(
        "Not used at this table: Kitty order, Açık eşli, Dealer after a throw-in, Zero söz (el"
        " almam), Defenders' minimum."
    )
    page.get_by_role("link", name="All tables").click()
    page.get_by_role("link", name="Zipi · three players (kitty)").click()
    page.get_by_test_id("lang").click()
    expect(page.locator("h2")).to_have_text("Kurallar: Zipi · üç kişilik (dipli)")
    # the common core in Turkish as it is said, not word for word ("Her masada Batak oynanır")
    expect(page.locator(".page")).to_contain_text(
        "Temel kurallar her masada aynı: renge uyabiliyorsan uy"
    )
    expect(page.get_by_test_id("preset-id")).to_have_text(
        "Bu masayı terminal programında oynamak için: 'batak play --preset zipi-kitty'"
    )
    # the lobby's list of tables and a table's own link say the same names
    page.goto(server.http + "/")
    expect(page.locator('#preset-select option[value="sultan-esli"]')).to_have_text(
        "Batak Sultan · eşli"
    )
    expect(page.locator('#preset-select option[value="standard"]')).to_have_text(
        "Standart (yaygın kurallar · ihaleli)"
    )
    expect(page.locator('#preset-select option[value="cetinsgame-ihaleli"]')).to_have_count(0)
    # the tables of quick play's Koz Maça and Eşli are named by what they are, not by the site
    # their rules were read from (a name players do not know)
    expect(page.locator('#preset-select option[value="cetinsgame-kozmaca"]')).to_have_text(
        "Yaygın kurallar · Koz Maça"
    )
    expect(page.locator("#preset-select option", has_text="CetinsGame")).to_have_count(0)
    page.select_option("#preset-select", "standard")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("rules-link")).to_have_text("Standart (yaygın kurallar · ihaleli)")
    # the older name still has its page (an old table's link), which says whose rules they are
    page.goto(server.http + "/rules/cetinsgame-ihaleli")
    expect(page.locator("h2")).to_have_text("Kurallar: Yaygın kurallar · ihaleli")
    page.get_by_test_id("same-as").get_by_role("link").click()
    expect(page).to_have_url(re.compile("/rules/standard$"))
    expect(page.locator("h2")).to_have_text("Kurallar: Standart (yaygın kurallar · ihaleli)")
    no_js_errors(errors)


# ---------------------------------------------------------------------- client logic
def test_client_logic_in_the_browser(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors)
    result = page.evaluate(
        """async () => {
        const c = await import('/static/cards.js');
        const i = await import('/static/i18n.js');
        i.setLang('tr');
        const tr = [c.cardName('KH'), c.cardName('TS'), i.t('bid', {n: 7}), i.t('nope')];
        i.setLang('en');
        return {
          sorted: c.sortHand(['2D', 'AS', 'TH', 'KS', '3C', 'AD']),
          sortedKoz: c.sortHand(['2D', 'AS', 'TH', 'KS', '3C', 'AD'], 'D'),
          label: c.cardLabel('TH'),
          en: [c.cardName('KH'), i.t('bid', {n: 7})],
          tr,
          svg: c.cardSVG('QS').startsWith('<svg'),
        };
    }"""
    )
    assert result["sorted"] == ["AS", "KS", "TH", "3C", "AD", "2D"]
    assert result["sortedKoz"] == ["AD", "2D", "AS", "KS", "TH", "3C"]
    assert result["label"] == "10♥"
    assert result["en"] == ["king of hearts", "Bid 7"]
    assert result["tr"] == ["kupa papaz", "maça 10", "7 de", "nope"]
    assert result["svg"]
    no_js_errors(errors)


def test_every_text_the_client_uses_exists_in_every_language(server: ServerProcess) -> None:
    """The client's texts come from the catalog through /api/texts (tests/test_catalog.py checks
    the catalog itself): every key the scripts ask for is there, in every language."""
    import urllib.request

    with urllib.request.urlopen(server.http + "/api/texts") as r:
        assert r.headers["Cache-Control"] == "no-cache"
        etag = r.headers["ETag"]
        data = json.load(r)
    assert data["langs"][0] == "en" and "tr" in data["langs"]
    assert data["names"]["en"] == "English" and data["names"]["tr"] == "Türkçe"
    texts = data["texts"]
    assert all(set(v) == set(data["langs"]) and all(v.values()) for v in texts.values())
    scripts = "".join(
        (STATIC / f).read_text(encoding="utf-8")
        for f in ("app.js", "cards.js", "tournament.js", "story.js", "chips.js", "fair.js")
    )
    used = set(re.findall(r"\bt\(\s*\"(\w+)\"(?!\s*\+)", scripts))
    missing = used - set(texts)
    assert not missing, missing
    # keys built at run time: t("mode_" + m), t("status_" + s), t("level_" + l), t("suit_" + s)
    for prefix, names in {
        "mode_": ["ihaleli", "kozmaca", "esli", "kitty", "acik"],
        "status_": ["waiting", "playing", "adjourned", "over", "closed"],
        "level_": ["easy", "medium", "hard"],
        "suit_": ["S", "H", "D", "C"],
        "rank_": ["A", "K", "Q", "J"],
    }.items():
        for n in names:
            assert prefix + n in texts, prefix + n
    request = urllib.request.Request(server.http + "/api/texts", headers={"If-None-Match": etag})
    with pytest.raises(urllib.error.HTTPError) as e:  # 304 Not Modified: nothing sent again
        urllib.request.urlopen(request)
    assert e.value.code == 304


def test_a_table_played_to_a_target_says_how_long_its_match_is(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The rules page of a table played to a target score (no fixed number of deals) said
    "Deals: none": it says the match goes on until someone reaches the target, in the page's
    language, from the rules data (as 'batak rules esli-acik' says it)."""
    page = open_page(browser, server, errors)
    page.goto(server.http + "/rules/esli-acik")
    deals = page.locator("table.rules tr[data-option=deals] td").nth(1)
    expect(deals).to_have_text("until a side reaches 51\u00a0points")
    expect(page.locator("table.rules tr[data-option=target_score] td").nth(1)).to_have_text("51")
    page.get_by_test_id("lang").click()
    expect(deals).to_have_text("bir takım 51\u00a0puana ulaşana kadar")
    # a table of a fixed number of deals says its number
    page.goto(server.http + "/rules/standard")
    expect(page.locator("table.rules tr[data-option=deals] td").nth(1)).to_have_text("8")


def test_the_koz_maca_rules_page_says_soz_where_koz_maca_says_soz(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The rules page of Koz Maça (each player says a söz; there is no ihale) said each option
    in its general words: "Lowest bid: no bid may be lower than this", "En düşük teklif:
    bundan düşük teklif verilemez", Sultan's scoring with "others 1 a trick". It says them as
    'batak rules sultan-kozmaca' does, in both languages; an auction's page is unchanged."""
    page = open_page(browser, server, errors)
    page.goto(server.http + "/rules/sultan-kozmaca")
    row = page.locator("table.rules tr[data-option=min_bid] td").first
    scoring = page.locator("table.rules tr[data-option=scoring] td").nth(1)
    words = {
        "en": ("Lowest söz", "no player may say fewer tricks", "a söz made scores"),
        "tr": ("En düşük söz", "bundan düşük söz söylenemez", "sözünü tutturan"),
    }
    for lang in ("en", "tr"):
        label, sentence, value = words[lang]
        expect(row.locator("b")).to_have_text(label)
        expect(row.locator(".help")).to_contain_text(sentence)
        expect(scoring).to_contain_text(value)
        expect(page.locator("table.rules tr[data-option=max_bid] b")).to_contain_text("söz")
        general = "teklif" if lang == "tr" else "bid may"  # (Lowest bid: no bid may be lower)
        expect(page.locator("table.rules")).not_to_contain_text(general)
        if lang == "en":
            page.get_by_test_id("lang").click()
    page.goto(server.http + "/rules/standard")  # (in Turkish now) an ihale's teklif
    expect(page.locator("table.rules tr[data-option=min_bid] b")).to_have_text("En düşük teklif")
    no_js_errors(errors)


def test_the_koz_maca_rules_page_names_neither_an_ihale_nor_a_bid(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """Koz Maça's rules page, in the söz's words since 7646ebb, still named the bidding option
    "İhale usulü" (there is no ihale) and, in English, the zero söz "Zero bid (el almam)": "a
    player may bid 0 ... empty: no zero bid", two rows under "Lowest söz: ... a zero söz". The
    bidding is the söz's ("Söz usulü") at a Koz Maça table, and the zero söz is a söz in
    English as in Turkish; an auction's page still says "İhale usulü"."""
    page = open_page(browser, server, errors)
    page.goto(server.http + "/rules/sultan-kozmaca")
    bidding = page.locator("table.rules tr[data-option=bidding] td").first.locator("b")
    zero = page.locator("table.rules tr[data-option=zero_bid] td").first
    expect(bidding).to_have_text("Bidding")
    expect(zero.locator("b")).to_have_text("Zero söz (el almam)")
    expect(zero.locator(".help")).to_contain_text("a player may say 0")
    expect(zero.locator(".help")).to_contain_text("empty: no zero söz")
    expect(page.locator("table.rules")).not_to_contain_text(re.compile(r"\bbid\b"))
    page.get_by_test_id("lang").click()
    expect(bidding).to_have_text("Söz usulü")
    expect(zero.locator("b")).to_have_text("Sıfır söz (el almam)")
    expect(page.locator("table.rules")).not_to_contain_text("hale")  # (ihale, İhale)
    page.goto(server.http + "/rules/standard")
    expect(page.locator("table.rules tr[data-option=bidding] b")).to_have_text("İhale usulü")
    no_js_errors(errors)


def test_the_server_serves_the_client_and_the_rules_data(server: ServerProcess) -> None:
    import urllib.request

    for path in ("/", "/join/ABCD", "/rules/standard", "/table/t123"):
        with urllib.request.urlopen(server.http + path) as r:
            assert r.status == 200
            assert b'src="/static/app.js"' in r.read()
    with urllib.request.urlopen(server.http + "/api/rules") as r:
        data = json.load(r)
    assert len(data["presets"]) == 14
    assert data["options"]["overtake"]["help"]["tr"].startswith("yükseltme")
    acik = next(p for p in data["presets"] if p["name"] == "esli-acik")  # played to 51
    assert acik["empty"]["deals"]["tr"] == "bir takım 51\u00a0puana ulaşana kadar"
    with urllib.request.urlopen(server.http + "/static/app.js") as r:
        assert r.headers["Cache-Control"] == "no-cache"  # checked again after an upgrade
        assert r.headers["ETag"]
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.http + "/static/nope.js")
    assert e.value.code == 404
    # a page the server does not have: still 404, but the client's page, which says so in the
    # reader's language with the way back to the lobby (it was a bare English "Not Found")
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.http + "/nothing/here")
    assert e.value.code == 404 and b'src="/static/app.js"' in e.value.read()
    assert e.value.headers["Content-Security-Policy"]
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.http + "/api/nothing")
    assert e.value.code == 404 and e.value.read() == b"Not Found"


def test_a_page_that_does_not_exist_says_so_with_the_way_back(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, locale="tr-TR")
    page.goto(server.http + "/nothing/here")
    expect(page.locator("#app")).to_contain_text("Lobi")
    page.get_by_role("link", name=re.compile("Lobi")).click()
    expect(page.locator("#create-form")).to_be_visible()


# ---------------------------------------------------------------------- table variants
NEW_OPTIONS = [
    "must_trump",
    "first_lead",
    "redeal_dealer",
    "zero_bid",
    "defenders_minimum",
    "overtrick_points",
    "down_scoring",
    "down_penalty",
    "overtrick_limit",
    "kitty_order",
]


def test_the_private_room_form_offers_every_table_variant_and_plays_one(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """docs/rules.md §10: each new option is in the private-room form with its explanation (from
    /api/rules), and a kitty table that names koz before burying plays a deal to the end."""
    page = open_page(browser, server, errors)
    page.select_option("#preset-select", "zipi-kitty")
    page.locator("#create-form details summary").click()  # the table options
    # each has its control where the server takes more than one value of it at this table
    form = form_catalog()["zipi-kitty"]
    for name in NEW_OPTIONS:
        offered = len(form["choices"][name]) > 1
        expect(page.locator(f"#opt-{name}")).to_have_count(1 if offered else 0)
    option = page.locator(".option", has=page.locator("#opt-kitty_order"))
    expect(option).to_contain_text("name koz")
    expect(page.locator("#opt-kitty_order option[value=take_trump_bury]")).to_have_text(
        re.compile("name koz, then bury")
    )
    page.select_option("#opt-kitty_order", "take_trump_bury")
    page.fill("input[name=deals]", "1")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    expect(page.locator(".seat")).to_have_count(3)
    order: list[str] = []
    deadline = time.monotonic() + 120
    while not page.get_by_test_id("match-over").count():
        assert time.monotonic() < deadline, "the deal did not finish"
        view = page.evaluate("window.batak.state.table.view")
        mine = bool(view and view["to_move"] == view["seat"] and view["legal_moves"])
        if mine and (not order or order[-1] != view["phase"]):
            order.append(view["phase"])
        if view and view["phase"] == "bidding":
            assert view["rules"]["kitty_order"] == "take_trump_bury"
        if not bid_for_the_kitty(page, view) and not act(page):
            time.sleep(0.05)
    assert order[:4] == ["bidding", "trump", "bury", "play"], order
    no_js_errors(errors)


def test_the_host_invites_a_friend_by_username_and_the_friend_joins_from_the_invitation(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """A private room's host types a username in the waiting room: someone not online is
    refused with the reason beside the field, and an account that is online gets an invitation
    on whatever page it is, which takes it to the room's empty seat."""
    friend = open_page(browser, server, errors, locale="tr-TR")
    set_name(friend, "Burak")
    register(friend, "burak", "maca-kizi-42")
    friend.goto(server.http + "/rules")  # an invitation reaches any page
    host = open_page(browser, server, errors, viewport={"width": 1280, "height": 860})
    set_name(host, "Ayşe")
    host.select_option("#preset-select", "standard")
    host.get_by_test_id("create-room").click()
    expect(host.get_by_test_id("room-code")).to_be_visible()
    note = host.get_by_test_id("invite-player-note")
    host.get_by_test_id("invite-player-input").fill("nobody")
    host.get_by_test_id("invite-player-input").press("Enter")
    expect(note).to_have_text("Not invited: 'nobody' is not online now")
    # the refused name stays to be mended; a seat filling meanwhile (the felt drawn anew) does
    # not wipe it
    guest = open_page(browser, server, errors)
    set_name(guest, "Cem")
    guest.goto(host.get_by_test_id("invite").get_attribute("href") or "")
    expect(host.locator(".seat .name", has_text="Cem")).to_have_count(1)
    expect(host.get_by_test_id("invite-player-input")).to_have_value("nobody")
    expect(note).to_have_text("Not invited: 'nobody' is not online now")
    host.get_by_test_id("invite-player-input").fill("burak")
    host.get_by_role("button", name="Invite", exact=True).click()
    expect(note).to_have_text("Invitation sent to burak. They take an empty seat when they accept.")
    expect(host.get_by_test_id("invite-player-input")).to_have_value("")
    invitation = friend.get_by_test_id("invitation")
    expect(invitation).to_have_text(re.compile("Ayşe seni bir masaya davet ediyor: Standart"))
    host.screenshot(path=str(artifacts / "invite-host-en.png"))
    friend.screenshot(path=str(artifacts / "invite-friend-tr.png"))
    friend.get_by_test_id("accept-invitation").click()
    expect(friend.locator(".seat.pos-bottom .name")).to_have_text("Burak")
    expect(invitation).to_have_count(0)
    expect(host.locator(".seat .name", has_text="Burak")).to_have_count(1)
    no_js_errors(errors)


def test_an_invitation_during_a_match_asks_before_leaving_it(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """Taking up an invitation in the middle of a match leaves that match to a computer player:
    the page asks first, and "no" keeps the player at the table with the invitation still there."""
    friend = open_page(browser, server, errors)
    set_name(friend, "Burak")
    register(friend, "burak", "maca-kizi-42")
    friend.get_by_test_id("quick-ihaleli").click()
    expect(friend.locator("#hand .card")).to_have_count(13)
    at = friend.url
    host = open_page(browser, server, errors)
    set_name(host, "Ayşe")
    host.get_by_test_id("create-room").click()
    host.get_by_test_id("invite-player-input").fill("burak")
    host.get_by_test_id("invite-player-input").press("Enter")
    join = friend.get_by_test_id("accept-invitation")
    asked: list[str] = []

    def answer(dialog: Any, yes: bool) -> None:
        asked.append(dialog.message)
        if yes:
            dialog.accept()
        else:
            dialog.dismiss()

    friend.once("dialog", lambda d: answer(d, False))
    join.click()
    expect(friend.get_by_test_id("invitation")).to_have_count(1)
    assert asked and "computer player takes your seat" in asked[0]
    assert friend.url == at
    friend.once("dialog", lambda d: answer(d, True))
    join.click()
    expect(friend.locator(".seat.pos-bottom .name")).to_have_text("Burak")
    expect(host.locator(".seat .name", has_text="Burak")).to_have_count(1)
    no_js_errors(errors)


def test_the_host_invites_a_bot_account_that_is_online_with_one_click(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str], tmp_path: Path
) -> None:
    """A ``batak bot`` process is online: the waiting room lists it under the invite field,
    a click invites it, it sits down and leaves the list, and the match starts with it."""
    bot = subprocess.Popen(
        [sys.executable, "-m", "batak", "bot", server.http, "--username", "robo", "--lang", "en"],
        env={**os.environ, "BATAK_BOT_PASSWORD": "uzun-bir-parola", "BATAK_HOME": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert bot.stdout is not None
        said = bot.stdout.readline()  # its first line, once it is online (or why it is not)
        assert "Bot account robo is online." in said, said + bot.stdout.read()
        host = open_page(
            browser, server, errors, locale="tr-TR", viewport={"width": 1280, "height": 860}
        )
        set_name(host, "Ayşe")
        host.select_option("#preset-select", "standard")
        host.fill("input[name=deals]", "1")
        host.get_by_test_id("create-room").click()
        online = host.get_by_test_id("bots-online")
        expect(online).to_contain_text("Çevrim içi bot hesapları")
        host.screenshot(path=str(artifacts / "invite-bot-tr.png"))
        online.get_by_role("button", name="robo").click()
        expect(host.locator(".seat .name", has_text="robo")).to_have_count(1)
        # its seat says it is a program (a bot account), in a word of its own: the house's
        # computer players are "bilgisayar"; it used to look like a person's seat
        robo = host.locator(".seat", has=host.locator(".name", has_text="robo"))
        expect(robo.locator(".tag").get_by_text("bot", exact=True)).to_have_count(1)
        expect(online).to_have_count(0)
        host.get_by_test_id("start").click()
        expect(host.locator("#hand .card")).to_have_count(13)
    finally:
        bot.terminate()
        out = bot.communicate(timeout=30)[0]
    assert "Seated in the room" in out, out
    no_js_errors(errors)


def test_a_bot_account_is_marked_in_the_lobby_and_the_ranking_and_hidden_house_bots_are_not(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """A bot account (a program a person runs) had its "bot" tag at its seat only: the lobby's
    list of tables and the ranking at the match's end named it like a person. Now both carry
    the seat's tag, at tables that hide the house's bots too, where those stay unmarked."""
    pytest.importorskip("argon2")
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from conftest import SERVE_ARGS
    from harness import free_port

    from batak.server.client import Client

    server = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, "--hide-bots", "--quick-deals", "1")
    server.start()
    loop = asyncio.new_event_loop()
    pool = ThreadPoolExecutor(1)
    bot = None
    try:
        # the lobby: a bot account at a public table the house's bots fill (with people's names)
        async def quick_bot() -> Client:
            c = Client(server.url, name="robi")
            await c.connect()
            await c.register("robi", "uzun-bir-parola", bot=True)
            table = await c.quick("ihaleli")
            await c.until(lambda: table.info.get("status") == "playing", timeout=30)
            return c

        robi = pool.submit(lambda: loop.run_until_complete(quick_bot())).result()
        for name, locale, ctx, tag in (
            ("desktop-tr", "tr-TR", {"viewport": {"width": 1280, "height": 860}}, "bot"),
            ("phone-en", "en-US", PHONE_CTX, "bot"),
        ):
            page = open_page(browser, server, errors, locale=locale, **ctx)
            line = page.locator("#lobby-tables li", has_text="robi")
            expect(line).to_have_count(1)
            expect(line.locator(".tag")).to_have_count(1)
            expect(line.locator(".tag")).to_have_text(tag)
            names = line.locator("span").first.inner_text()
            assert "robi bot" in names, names
            assert len(re.findall(r"\w+", names.split("·")[-1])) == 5, names  # 4 names, 1 tag
            line.evaluate("(e) => e.scrollIntoView({ block: 'center' })")
            page.screenshot(path=str(artifacts / f"lobby-bot-account-{name}.png"))
            page.context.close()
        pool.submit(lambda: loop.run_until_complete(robi.close())).result()

        # the ranking: a bot account invited to a room that hides its house bots
        bot = subprocess.Popen(
            [sys.executable, "-m", "batak", "bot", server.http, "--username", "robo"],
            env={
                **os.environ,
                "BATAK_BOT_PASSWORD": "uzun-bir-parola",
                "BATAK_HOME": str(tmp_path),
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert bot.stdout is not None
        said = bot.stdout.readline()
        assert "robo" in said, said + bot.stdout.read()
        host = open_page(browser, server, errors, viewport={"width": 1280, "height": 860})
        set_name(host, "Ayşe")
        host.select_option("#preset-select", "standard")
        host.fill("input[name=deals]", "1")
        host.uncheck("input[name=show_bots]")
        host.get_by_test_id("create-room").click()
        host.get_by_test_id("bots-online").get_by_role("button", name="robo").click()
        expect(host.locator(".seat .name", has_text="robo")).to_have_count(1)
        host.get_by_test_id("start").click()
        deadline = time.monotonic() + 150
        while not host.get_by_test_id("match-over").count():
            assert time.monotonic() < deadline, "the match did not finish"
            if not act(host):
                time.sleep(0.05)
        ranking = host.get_by_test_id("ranking")
        expect(ranking.locator("[data-testid=rank-row]")).to_have_count(4)
        expect(ranking.locator(".tag")).to_have_count(1)  # the house's bots: people's names
        expect(
            ranking.locator("[data-testid=rank-row]", has_text="robo").locator(".tag")
        ).to_have_text("bot")
        host.screenshot(path=str(artifacts / "ranking-bot-account-desktop-en.png"))
        host.set_viewport_size({"width": 390, "height": 844})
        host.screenshot(path=str(artifacts / "ranking-bot-account-phone-en.png"))
        # in Turkish (the window over the table leaves the language button out of reach): the
        # finished table's page opened again
        host.evaluate("localStorage.setItem('batak.lang', 'tr')")
        host.reload()
        expect(ranking.locator("[data-testid=rank-row]")).to_have_count(4)
        expect(ranking).to_contain_text("Çıkan ihale")
        expect(ranking.locator(".tag")).to_have_text("bot")
        host.screenshot(path=str(artifacts / "ranking-bot-account-phone-tr.png"))
        host.set_viewport_size({"width": 1280, "height": 860})
        host.screenshot(path=str(artifacts / "ranking-bot-account-desktop-tr.png"))
    finally:
        if bot is not None:
            bot.terminate()
            bot.communicate(timeout=30)
        pool.shutdown()
        loop.close()
        server.stop()
    no_js_errors(errors)
