"""The web client as an installable app (issue 10, "beyond"): a web app manifest with icons drawn
by our own code, and a service worker that keeps the client's own files only (the game stays
online); the page opens from them without a network and says it is offline."""

from __future__ import annotations

import json
import re
import struct
import urllib.request
from email.message import Message
from pathlib import Path

from harness import ServerProcess
from playwright.sync_api import Browser, expect
from test_web import no_js_errors, open_page

from batak.web import icons


def get(url: str) -> tuple[bytes, Message]:
    with urllib.request.urlopen(url) as r:
        return r.read(), r.headers


def test_the_manifest_and_its_icons(server: ServerProcess) -> None:
    body, headers = get(server.http + "/static/manifest.webmanifest")
    assert headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone" and manifest["name"] == "Batak"
    sizes = set()
    for icon in manifest["icons"]:
        data, h = get(server.http + icon["src"])
        assert h["Content-Type"] == icon["type"], icon
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            w, hgt = struct.unpack(">II", data[16:24])
            assert f"{w}x{hgt}" == icon["sizes"], icon
            sizes.add(w)
        else:
            assert data.startswith(b"<svg")
    assert {192, 512} <= sizes  # what browsers ask of an installable app
    page, headers = get(server.http + "/")
    assert b'rel="manifest" href="/static/manifest.webmanifest"' in page
    script, headers = get(server.http + "/sw.js")
    assert headers["Service-Worker-Allowed"] == "/"
    assert headers["Content-Type"].startswith("text/javascript")
    assert headers["Cache-Control"] == "no-cache"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert b"/api/texts" in script
    # every script of the client is kept: one left out stops the page from opening offline
    static = Path(icons.__file__).parent / "static"
    for js in static.glob("*.js"):
        if js.name != "sw.js":
            assert f'"/static/{js.name}"'.encode() in script, js.name


def test_the_icons_in_the_package_are_what_the_code_draws() -> None:
    static = Path(icons.__file__).parent / "static"
    assert (static / "icon.svg").read_text(encoding="utf-8") == icons.svg()
    assert (static / "icon-192.png").read_bytes() == icons.png(192)
    big = (static / "icon-512.png").read_bytes()
    assert struct.unpack(">II", big[16:24]) == (512, 512)


def test_the_service_worker_keeps_the_client_and_the_page_opens_offline(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, locale="tr-TR")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == server.http + "/"
    page.wait_for_function(
        """async () => { const c = await caches.open('batak-client-v1');
            return !!(await c.match('/static/app.js')) && !!(await c.match('/api/texts')); }"""
    )
    cached = page.evaluate(
        """async () => (await (await caches.open('batak-client-v1')).keys())
            .map((r) => new URL(r.url).pathname)"""
    )
    # the client's own files, never the game's data
    assert "/static/app.js" in cached and "/" in cached
    assert not [p for p in cached if re.match(r"^/(ws|api/(lobby|tables|players|leaderboard))", p)]
    # no network: a table's address still opens the page, which says it cannot reach the server
    page.context.set_offline(True)
    page.goto(server.http + "/table/t123")
    expect(page.locator("header h1")).to_have_text("♠ Batak")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("offline"))
    assert page.evaluate("() => document.documentElement.lang") == "tr"
    # the game's data is not kept: the lobby list needs the network
    failed = page.evaluate(
        "async () => { try { await fetch('/api/lobby'); return false; } catch { return true; } }"
    )
    assert failed
    # the lobby's private-room form offline: the rules come from the stored copy, which has no
    # form data (an older server's never had; this one's sends it apart, never stored), and
    # the form says its options cannot be loaded instead of breaking
    page.goto(server.http + "/")
    page.select_option("#preset-select", "standard")
    expect(page.get_by_test_id("form-status")).to_have_text(
        "Masanın seçenekleri yüklenemedi: oda bu masanın kendi kurallarıyla açılır."
    )
    expect(page.locator("#create-options .option")).to_have_count(0)
    page.context.set_offline(False)
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"), timeout=30_000)
    no_js_errors(errors, allow=("ERR_INTERNET_DISCONNECTED", "Failed to load resource"))
