"""The account box in the browser: change the password (the other devices are logged out, and
told why), log out here or on every device, a login refused to an account the host closed, and
deleting the account (its seat at a finished table shows "Removed player")."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PHONE_CTX as PHONE
from conftest import SERVE_ARGS
from harness import ServerProcess, free_port
from playwright.sync_api import Browser, expect
from test_web import no_js_errors, open_page, register

try:
    from axe_playwright_python import sync_playwright as axe
except ImportError:  # pragma: no cover - depends on the install
    axe = None


def login(page: Any, username: str, password: str) -> None:
    page.fill("#account-form input[name=username]", username)
    page.fill("#account-form input[name=password]", password)
    page.get_by_test_id("login").click()


def test_changing_the_password_logs_out_the_other_devices_and_says_why(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    pytest.importorskip("argon2")
    laptop = open_page(browser, server, errors)
    register(laptop, "emre", "sinek-vale-9")
    phone = open_page(browser, server, errors, locale="tr-TR", bypass_csp=True, **PHONE)
    login(phone, "emre", "sinek-vale-9")
    expect(phone.get_by_test_id("signed-in")).to_contain_text("emre")
    # a wrong current password is said under the form, which keeps what was typed
    laptop.get_by_text("Change password", exact=True).first.click()
    form = laptop.locator("#password-form")
    # three fields to type in; the username beside them is for password managers, not shown
    expect(form.locator("input:visible")).to_have_count(3)
    expect(form.locator("[name=username]")).to_have_value("emre")
    form.locator("[name=password]").fill("not-the-password")
    form.locator("[name=new]").fill("maca-kizi-12")
    form.locator("[name=again]").fill("maca-kizi-13")  # a typo: said before asking the server
    laptop.get_by_test_id("change-password").click()
    expect(laptop.locator("#password-note")).to_have_text(
        "The two new passwords are not the same; your password was not changed."
    )
    form.locator("[name=again]").fill("maca-kizi-12")
    laptop.get_by_test_id("change-password").click()
    expect(laptop.locator("#password-note")).to_have_text(
        "the current password is wrong; your password was not changed"
    )
    expect(laptop.locator("#password-note")).to_have_class("form-note refused")
    expect(form.locator("[name=new]")).to_have_value("maca-kizi-12")
    laptop.screenshot(path=str(artifacts / "account-password-refused-en.png"), full_page=True)
    # in Turkish the English reason is not left under the form; the typed fields stay
    laptop.get_by_test_id("lang").click()
    expect(laptop.get_by_test_id("change-password")).to_have_text("Şifreyi değiştir")
    expect(laptop.locator("#password-note")).to_have_text("")
    expect(form.locator("[name=new]")).to_have_value("maca-kizi-12")
    laptop.get_by_test_id("lang").click()
    expect(laptop.get_by_test_id("change-password")).to_have_text("Change password")
    form.locator("[name=password]").fill("sinek-vale-9")
    laptop.get_by_test_id("change-password").click()
    expect(laptop.locator("#notice")).to_have_text(
        "Your password is changed. Sessions ended on your other devices: 1."
    )
    expect(laptop.locator("#password-form [name=new]")).to_have_value("")
    expect(laptop.get_by_test_id("signed-in")).to_contain_text("emre")
    # the phone is told why, and is a guest now (also after a reload)
    expect(phone.locator("#notice")).to_contain_text(
        "Şifren başka bir cihazda değiştirildi; bu cihazın oturumu kapandı."
    )
    expect(phone.locator("#account-form")).to_be_visible()
    phone.screenshot(path=str(artifacts / "account-logged-out-phone-tr.png"), full_page=True)
    phone.reload()
    expect(phone.locator("#account-form")).to_be_visible()
    login(phone, "emre", "sinek-vale-9")
    expect(phone.get_by_test_id("account-note")).to_have_text("kullanıcı adı ya da şifre yanlış")
    login(phone, "emre", "maca-kizi-12")
    expect(phone.get_by_test_id("signed-in")).to_contain_text("emre")
    phone.get_by_text("Şifreyi değiştir", exact=True).first.click()
    phone.screenshot(path=str(artifacts / "account-box-phone-tr.png"), full_page=True)
    if axe is not None:  # the signed-in box with its password form open
        found = axe.Axe().run(phone).response["violations"]
        assert [v["id"] for v in found if v["impact"] in ("serious", "critical")] == []
    # log out on every device, from the phone (asked first): the laptop is told; the phone is a
    # guest
    asked: list[str] = []
    phone.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    phone.get_by_test_id("logout-everywhere").click()
    expect(phone.locator("#notice")).to_have_text("Bütün cihazlardan çıkış yaptın (2 oturum).")
    assert asked and asked[0].startswith("Giriş yaptığın bütün cihazlarda")
    expect(laptop.locator("#notice")).to_contain_text(
        "You were logged out on every device, from another device or tab."
    )
    expect(laptop.locator("#account-form")).to_be_visible()
    laptop.screenshot(path=str(artifacts / "account-logged-out-en.png"), full_page=True)
    no_js_errors(errors)


def test_logging_out_here_and_a_closed_account(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    pytest.importorskip("argon2")
    page = open_page(browser, server, errors, locale="tr-TR")
    register(page, "derya", "kupa-asi-77")
    tab = page.context.new_page()  # a second tab of the same browser: the same session
    tab.goto(server.http + "/")
    expect(tab.get_by_test_id("signed-in")).to_contain_text("derya")
    page.get_by_test_id("logout").click()  # no unfinished table: not asked
    expect(tab.locator("#notice")).to_have_text(
        "Bu tarayıcının başka bir sekmesinde ya da penceresinde çıkış yaptın."
    )
    expect(page.locator("#notice")).to_have_text(
        "Çıkış yaptın. Yeniden giriş yapana kadar bu cihazda misafir olarak oynarsın."
    )
    expect(page.locator("#account-form")).to_be_visible()
    assert page.evaluate("localStorage.getItem('batak.token')") is not None  # the guest's own
    page.reload()
    expect(page.locator("#account-form")).to_be_visible()
    # the host closes the account: the right password is refused, with the host's words
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "batak",
            "admin",
            "ban",
            "derya",
            "--reason",
            "hakaret",
            "--data",
            str(server.data),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    login(page, "derya", "kupa-asi-77")
    expect(page.get_by_test_id("account-note")).to_contain_text(
        "bu hesap sunucu yöneticisi tarafından kapatıldı: hakaret"
    )
    expect(page.locator("#account-form")).to_be_visible()
    page.screenshot(path=str(artifacts / "account-banned-tr.png"), full_page=True)
    no_js_errors(errors)


def _finished_match(
    server: ServerProcess, username: str, name: str, password: str
) -> tuple[str, int]:
    """An account plays a quick (public) table with three bots to its end, through the protocol
    in a thread of its own (Playwright's loop runs in this one); its table and seat."""
    from batak.server.client import Client

    async def play() -> tuple[str, int]:
        async with Client(server.url, name=name) as c:
            await c.register(username, password)
            st = await c.quick("ihaleli")
            await c.chat(st.id, "sözlerim bende kalsın")
            final = await c.play(st.id, timeout=120)
            assert final.over and final.seat is not None
            return st.id, final.seat

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, play()).result(timeout=180)


def test_a_player_deletes_their_account_and_their_seat_shows_a_removed_player(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    pytest.importorskip("argon2")
    server = ServerProcess(tmp_path, free_port(), *SERVE_ARGS, "--quick-deals", "1")
    server.start()
    try:
        _delete_in_the_browser(browser, server, artifacts, errors)
    finally:
        server.stop()


def _delete_in_the_browser(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    table, seat = _finished_match(server, "defne", "Defne Aydın", "karo-papaz-4")
    laptop = open_page(browser, server, errors)
    login(laptop, "defne", "karo-papaz-4")
    expect(laptop.get_by_test_id("signed-in")).to_contain_text("defne")
    phone = open_page(browser, server, errors, locale="tr-TR", **PHONE)
    login(phone, "defne", "karo-papaz-4")
    expect(phone.get_by_test_id("signed-in")).to_contain_text("defne")
    phone.get_by_text("Hesabımı sil", exact=True).first.click()
    expect(phone.get_by_test_id("delete-account")).to_be_visible()
    phone.screenshot(path=str(artifacts / "account-delete-phone-tr.png"), full_page=True)
    if axe is not None:  # the signed-in box with its delete form open
        found = axe.Axe().run(phone).response["violations"]
        assert [v["id"] for v in found if v["impact"] in ("serious", "critical")] == []

    # first the player downloads what the server keeps about them
    with laptop.expect_download() as got:
        laptop.get_by_test_id("my-data").click()
    download = got.value
    assert re.fullmatch(r"batak-defne-\d{4}-\d\d-\d\d\.json", download.suggested_filename)
    mine = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert mine["player"]["name"] == "Defne Aydın" and [m["table"] for m in mine["matches"]] == [
        table
    ]
    assert [c["text"] for c in mine["chat"]] == ["sözlerim bende kalsın"]
    expect(laptop.locator("#notice")).to_contain_text("Your data is downloaded (batak-defne-")

    # a wrong password: asked first, then refused under the form, and nothing is deleted
    asked: list[str] = []
    laptop.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    laptop.get_by_text("Delete my account", exact=True).first.click()
    form = laptop.locator("#delete-form")
    expect(form.locator("input:visible")).to_have_count(1)  # the username is for password managers
    form.locator("[name=password]").fill("not-the-password")
    laptop.get_by_test_id("delete-account").click()
    expect(laptop.locator("#delete-note")).to_have_text(
        "the password is wrong; your account was not deleted"
    )
    assert asked == ["Delete the account defne for good? This cannot be undone."]
    laptop.screenshot(path=str(artifacts / "account-delete-refused-en.png"), full_page=True)
    form.locator("[name=password]").fill("karo-papaz-4")
    laptop.get_by_test_id("delete-account").click()
    expect(laptop.locator("#notice")).to_have_text(
        "Your account is deleted. You are a guest on this device now."
    )
    expect(laptop.locator("#account-form")).to_be_visible()
    assert laptop.evaluate("localStorage.getItem('batak.name')") is None
    expect(laptop.locator("#name-input")).not_to_have_value("Defne Aydın")
    # the other device is told, and is a guest
    expect(phone.locator("#notice")).to_contain_text(
        "Bu hesap başka bir cihazda silindi; artık misafirsin."
    )
    expect(phone.locator("#account-form")).to_be_visible()
    login(phone, "defne", "karo-papaz-4")
    expect(phone.get_by_test_id("account-note")).to_have_text("kullanıcı adı ya da şifre yanlış")

    # the finished match keeps its seat, under "Removed player", without the words said there
    laptop.goto(f"{server.http}/table/{table}")
    name = laptop.locator(f"[data-seat='{seat}'] .name")
    expect(name).to_have_text("Removed player")
    expect(laptop.locator("body")).not_to_contain_text("Defne")
    expect(laptop.locator("body")).not_to_contain_text("sözlerim")
    laptop.screenshot(path=str(artifacts / "account-deleted-seat-en.png"), full_page=True)
    no_js_errors(errors)


def test_the_name_field_shows_the_accounts_name_after_registering_and_logging_in(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A guest who registers is called by the username from then on: the name field says so
    (it kept "Guest 3605", and a Save then sent that back and renamed the account)."""
    pytest.importorskip("argon2")
    page = open_page(browser, server, errors)
    expect(page.locator("#name-input")).to_have_value(re.compile(r"^Guest \d+$"))
    register(page, "upen", "sinek-vale-9")
    expect(page.locator("#name-input")).to_have_value("upen")
    page.locator("#name-input").press("Enter")  # Save: the account keeps its name
    expect(page.locator("#notice")).to_contain_text("saved")
    page.reload()
    expect(page.get_by_test_id("signed-in")).to_contain_text("upen")
    expect(page.locator("#name-input")).to_have_value("upen")
    # a guest on another browser logs in: the field shows the account's name, not the guest's
    other = open_page(browser, server, errors, locale="tr-TR")
    expect(other.locator("#name-input")).to_have_value(re.compile(r"^Misafir \d+$"))
    login(other, "upen", "sinek-vale-9")
    expect(other.get_by_test_id("signed-in")).to_contain_text("upen")
    expect(other.locator("#name-input")).to_have_value("upen")
    no_js_errors(errors)
