"""Browser tests: a real ``batak serve`` process and Debian's Chromium driven by Playwright.

The server runs as a subprocess on a free port with its own data folder (so a test can kill it
and start it again on the same data). Chromium is the system one (``/usr/bin/chromium``, from
``apt-get install chromium``), launched headless with ``--no-sandbox``; Playwright never downloads
a browser. Without Playwright or Chromium the tests are skipped, except under CI (``CI=true``),
where that is an error. Screenshots go to ``test-artifacts/`` (or ``$BATAK_ARTIFACTS``).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("BATAK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("BATAK_ARTIFACTS") or Path(__file__).parents[2] / "test-artifacts")
TIMEOUT = 20_000  # ms, for one thing to appear: every action and every ``expect``

try:
    from playwright.sync_api import Browser, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]
else:
    # Every ``expect`` waits as long as an action does, not Playwright's 5 s: CI shares two
    # cores between Chromium, the server and the suite, and one account registration once took
    # longer than 5 s there. A passing check waits no longer.
    expect.set_options(timeout=TIMEOUT)

_missing = None
if sync_playwright is None:
    _missing = "playwright is not installed (pip install playwright)"
elif not Path(CHROMIUM).exists():
    _missing = f"no Chromium at {CHROMIUM} (apt-get install chromium)"

if _missing is not None:
    if os.environ.get("CI"):
        raise RuntimeError(f"browser tests need a browser under CI: {_missing}")
    pytest.skip(_missing, allow_module_level=True)


# the same ``batak serve`` subprocess the server's restart tests use
sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from harness import ServerProcess, free_port  # noqa: E402

#: A 390 px phone, held upright (a browser context's options).
PHONE_CTX: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}

#: Fast bots, quick tables, quiet logs.
SERVE_ARGS = (
    *("--bot-delay", "0.05", "--trick-pause", "0", "--quick-fill-seconds", "1"),
    *("--log-level", "warning"),
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path, free_port(), *SERVE_ARGS)
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # Module scope, not session: Playwright's sync API keeps an event loop running in this
    # thread while it is open, and later tests (doctests, servers) call asyncio.run().
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def errors() -> list[str]:
    """JavaScript errors seen by any page of the test (pages add to it via :func:`watch`)."""
    return []


def watch(page: Any, errors: list[str]) -> Any:
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on(
        "console",
        lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None,
    )
    return page


#: The browser locale of each of the client's languages, for tests run in both.
LOCALES = {"tr": "tr-TR", "en": "en-US"}


@pytest.fixture
def short_phone_at_my_bid(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> Callable[[str], Any]:
    """The opening of the 390 × 700 phone tests at the player's bid with the chat's panel open
    (tests/web/test_web_small_screens.py, test_web_phone_panel_roles.py): called with a language
    (``"tr"`` or ``"en"``), it opens a 390 × 700 phone's page in it, creates a private room,
    opens the chat's panel with a line sent and one typed, starts the room and waits till the
    player's turn to bid; it returns the page."""
    # (the page's helpers live in the test modules, which import this one)
    from test_web import open_page
    from test_web_phone_table import SHORT_PHONE, _open_chat_with_a_line, _until_my_bid
    from test_web_table import private_room

    def opened(lang: str) -> Any:
        page = open_page(browser, server, errors, locale=LOCALES[lang], **SHORT_PHONE)
        private_room(page)
        _open_chat_with_a_line(page)
        _until_my_bid(page)
        return page

    return opened
