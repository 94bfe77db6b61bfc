"""The table as players know it (issue 10): what a player sees and hears at the web table.

Each test measures what it claims in a real Chromium against a real server: computed colours
and their contrast, bounding boxes, widths, the tab title, the texts shown.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import SERVE_ARGS, watch
from harness import ServerProcess, free_port
from playwright.sync_api import Browser, Page, expect
from test_web import act, my_turn, no_js_errors, open_page, settle

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
PHONE_CTX = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
#: (language, browser locale, context, screenshot name): a desktop in English, a phone in Turkish
DESKTOP_EN_PHONE_TR: tuple[tuple[str, str, dict[str, Any], str], ...] = (
    ("en", "en-US", {"viewport": DESKTOP}, "desktop"),
    ("tr", "tr-TR", PHONE_CTX, "phone"),
)


def _lum(rgb: list[float]) -> float:
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _rgb(css: str) -> list[float]:
    nums = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    return [x / 255 for x in nums]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_lum(_rgb(a)), _lum(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def private_room(page: Page, preset: str = "standard") -> None:
    page.select_option("#preset-select", preset)
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("start")).to_be_visible()


# ---------------------------------------------------------------------- item 9
def test_the_start_button_stands_out_from_the_felt(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        # found and measured in one run of the page's script: the waiting room is redrawn as
        # things change, and a button taken out of the page has no computed colours
        colours = page.evaluate(
            """() => {
                const b = document.querySelector('[data-testid="start"]');
                let el = b.parentElement;
                let behind = getComputedStyle(el).backgroundColor;
                while (el && /rgba\\(.*, 0\\)|transparent/.test(behind)) {
                    el = el.parentElement;
                    behind = getComputedStyle(el).backgroundColor;
                }
                const s = getComputedStyle(b);
                const height = b.getBoundingClientRect().height;
                return {button: s.backgroundColor, text: s.color, behind, height};
            }"""
        )
        # a large control: WCAG 1.4.11 asks 3:1 against what is next to it; its label 4.5:1
        assert contrast(colours["button"], colours["behind"]) >= 3, colours
        assert contrast(colours["text"], colours["button"]) >= 4.5, colours
        # measured in the same run (a box asked for afterwards can be the button's that a redraw
        # has just replaced: None)
        assert colours["height"] >= 40, colours
        # a short label, what it does said under it; the top bar says the match has not
        # started; an empty seat shows no time bank (the person's own seat does)
        start, help_text, not_started = {
            "en": ("Start", "Computer players take the seats still empty.", "Not started yet"),
            "tr": ("Başlat", "Boş kalan koltuklara bilgisayar oturur.", "Henüz başlamadı"),
        }[lang]
        expect(page.get_by_test_id("start")).to_have_text(start)
        expect(page.locator(".waiting .help")).to_have_text(help_text)
        expect(page.get_by_test_id("facts")).to_have_text(not_started)
        expect(page.locator(".seat .bank")).to_have_count(1)
        # the invite link breaks only after a slash, where it must
        lines = page.get_by_test_id("invite").evaluate(
            "(a) => new Set([...a.getClientRects()].map((r) => Math.round(r.top))).size"
        )
        link = page.get_by_test_id("invite").inner_text().replace("\n", "")
        assert link.startswith("http://") and lines <= 3, (link, lines)
        markup = page.get_by_test_id("invite").evaluate("(a) => a.innerHTML")
        assert re.fullmatch(r"http://[^</]+/<wbr>join/<wbr>[A-Z0-9]+", markup), markup
        # nothing to say yet: no empty white box (the panel collapses, and stays a live region)
        assert page.locator("#panel").evaluate("(p) => p.getBoundingClientRect().height") < 1
        page.screenshot(path=str(artifacts / f"start-button-{name}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


def until_my_card_turn(page: Page) -> None:
    """Start the room and bid/koz with the first choice until this page has cards to play."""
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card")).to_have_count(13)
    deadline = time.monotonic() + 90
    while not page.locator("#hand .card.legal").count():
        assert time.monotonic() < deadline, "never my turn to play a card"
        if page.locator(".bids button").count() and my_turn(page):
            act(page)
        else:
            time.sleep(0.05)


# ---------------------------------------------------------------------- item 4
def test_raised_cards_are_not_clipped_by_the_hand(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        until_my_card_turn(page)
        measure = """(hand) => {
            const h = hand.getBoundingClientRect();
            const cs = getComputedStyle(hand);
            // the part of the hand a person sees: inside its borders, as it clips its overflow
            const top = h.top + parseFloat(cs.borderTopWidth);
            return [...hand.querySelectorAll('.card.legal')].map((c) => {
                const r = c.getBoundingClientRect();
                return {card: c.dataset.card, top: r.top, visibleTop: top};
            });
        }"""
        hand = page.locator("#hand")
        lifted = hand.evaluate(measure)
        assert lifted
        for c in lifted:
            assert c["top"] >= c["visibleTop"] - 0.5, (name, c)
        # a focused (or hovered) card lifts higher still: its corner index stays in view too
        page.locator("#hand .card.legal").first.focus()
        page.wait_for_timeout(300)  # the lift's transition (0.1 s) has ended
        for c in hand.evaluate(measure):
            assert c["top"] >= c["visibleTop"] - 0.5, (name, "focused", c)
        page.screenshot(path=str(artifacts / f"hand-lifted-{name}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


# ---------------------------------------------------------------------- item 16
CARD_CODE = re.compile(r"(?<![\w])(?:[2-9TJQKA]|10)[SHDC](?![\w])")


def test_cards_in_texts_are_written_as_people_read_them(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The server's refusal reason and the hint, shown in the page, say 10♥, never TH."""
    for lang, locale in (("en", "en-US"), ("tr", "tr-TR")):
        page = open_page(browser, server, errors, locale=locale, viewport=DESKTOP)
        private_room(page)
        until_my_card_turn(page)
        deadline = time.monotonic() + 150
        # a turn where some card is forbidden and the refusal names the cards one must play.
        # Leading koz before it is broken is refused too, but that reason names the suit, not
        # cards; such a refusal is read (it, too, must not say TH) and the deal goes on.
        while True:
            while not (my_turn(page) and page.locator("#hand .card.dimmed").count()):
                assert time.monotonic() < deadline, "never a forbidden card"
                if not act(page):
                    time.sleep(0.05)
            page.locator("#hand .card.dimmed").first.click(force=True)  # (aria-disabled)
            settle(page)
            refused = page.get_by_test_id("refused").inner_text()
            assert refused.strip()
            assert not CARD_CODE.search(refused), refused
            if re.search(r"[♠♥♦♣]", refused):
                break
            assert time.monotonic() < deadline, f"no refusal named a card: {refused}"
            act(page)  # a card it may play, so the next forbidden turn is a fresh one
        assert not CARD_CODE.search(refused), refused
        page.get_by_test_id("teach").click()
        hint = page.get_by_test_id("hint")
        expect(hint).to_contain_text(re.compile("[♠♥♦♣]"))
        assert not CARD_CODE.search(hint.inner_text()), hint.inner_text()
        page.screenshot(path=str(artifacts / f"refusal-readable-cards-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


#: A hint naming cards of all four suits, drawn at once, and each suit sign's colour in it.
HINT_COLOURS = """(reason) => {
    const T = window.batak.state.table;
    T.hint = {move: 'KD', reason};
    window.batak.renderTable();
    const hint = document.querySelector('[data-testid=hint]');
    const walk = document.createTreeWalker(hint, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        for (const ch of n.data.match(/[♠♥♦♣]/g) || []) {
            out.push([ch, getComputedStyle(n.parentElement).color]);
        }
    }
    return {out, text: hint.textContent};
}"""


# ------------------------------------------------------- first-player review, item 5
def test_the_hints_red_suits_are_red(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        page.get_by_test_id("start").click()
        expect(page.locator("#hand .card")).to_have_count(13)
        got = page.evaluate(HINT_COLOURS, "K♦: the cheapest card above A♥, Q♠ and 10♣.")
        red = "rgb(179, 0, 27)"  # --red, as the hand's and the sheet's red suits
        signs = got["out"]
        assert [s for s, _ in signs] == ["♦", "♥", "♠", "♣"], got
        for sign, colour in signs:
            assert (colour == red) == (sign in "♥♦"), (lang, got)
        page.locator("#panel").screenshot(path=str(artifacts / f"hint-red-suits-{name}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


# ---------------------------------------------------------------------- item 14
def test_all_table_options_fit_the_screen_with_human_labels(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    raw = re.compile(r"\b[a-z]+_[a-z_]+\b")  # overtake_after_ruff, kitty_size, ...
    for lang, locale in (("en", "en-US"), ("tr", "tr-TR")):
        for ctx, name in (({"viewport": DESKTOP}, "desktop"), (PHONE_CTX, "phone")):
            page = open_page(browser, server, errors, locale=locale, **ctx)
            page.locator("#create-form details summary").click()
            options = page.locator("#create-options .option")
            expect(options.first).to_be_visible()
            assert options.count() >= 20
            labels = page.locator("#create-options .option label").all_inner_texts()
            assert all(label.strip() for label in labels)
            assert not [x for x in labels if raw.search(x)], labels
            expect(page.locator("[data-option=overtake_after_ruff] label")).to_have_text(
                "Overtake after a ruff" if lang == "en" else "Koz çakıldıktan sonra da yükseltme"
            )
            width = page.evaluate("() => window.innerWidth")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
            # no option, select or help text sticks out of the screen
            right = page.locator("#create-options").evaluate(
                """(box) => Math.max(...[...box.querySelectorAll('*')].map(
                    (e) => e.getBoundingClientRect().right))"""
            )
            assert right <= width, (name, right, width)
            page.locator("#create-options").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"lobby-options-{name}-{lang}.png"))
            page.context.close()
    no_js_errors(errors)


def play_to_the_end(page: Page, seconds: float = 150) -> None:
    deadline = time.monotonic() + seconds
    while not page.get_by_test_id("match-over").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        # the keyboard: on a phone the overlapping cards' middles belong to their neighbours
        if not act(page, keyboard=True):
            time.sleep(0.05)


# ---------------------------------------------------------------------- item 11
def test_the_score_sheet_shows_each_deals_tricks_and_result(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        page.fill("input[name=deals]", "1")
        private_room(page)
        page.get_by_test_id("start").click()
        play_to_the_end(page)
        row = page.evaluate("() => window.batak.state.table.sheet[0]")
        sheet = page.locator(".dialog").get_by_test_id("sheet")
        cells = sheet.locator("tbody tr").first.get_by_test_id("sheet-tricks").all_inner_texts()
        assert [int(x) for x in cells] == row["tricks"], (cells, row)
        assert sum(row["tricks"]) == 13
        won = row["tricks"][row["bidder"]]
        made = won >= row["bid"]
        mine = row["bidder"] == page.evaluate("() => window.batak.state.table.you")
        # Turkish speaks to you when the contract was yours ("battın"), of the bidder otherwise
        word = {
            ("en", True): "made",
            ("en", False): "down",
            ("tr", True): "çıkardın" if mine else "çıktı",
            ("tr", False): "battın" if mine else "battı",
        }[(lang, made)]
        expect(sheet.get_by_test_id("sheet-result")).to_have_text(f"{word} {won}/{row['bid']}")
        # the contract names the koz as a suit symbol, and the bid after a colon (a number
        # in the bidder's name, "Bot 3", never runs into it)
        expect(sheet.locator("tbody tr td").nth(1)).to_contain_text(re.compile("[♠♥♦♣]"))
        expect(sheet.locator("tbody tr td").nth(1)).to_contain_text(f": {row['bid']} ")
        # the sheet at the table's side fits its column: no sideways scrolling, no cut border
        side = page.evaluate(
            "() => { const p = document.getElementById('sheet-side');"
            " return [p.scrollWidth, p.clientWidth]; }"
        )
        assert side[0] <= side[1], (name, side)
        page.screenshot(path=str(artifacts / f"score-sheet-{name}-{lang}.png"), full_page=True)
        page.context.close()
    no_js_errors(errors)


#: Four deals' rows and long names put into a waiting room's score sheet (nothing of the match
#: is needed to draw it): figures of three digits, a bidder's name of two words and a longer one.
FOUR_DEALS = """(names) => {
    const T = window.batak.state.table;
    names.forEach((n, i) => {
        if (i === T.you) return;
        T.info.seats[i] = {...(T.info.seats[i] || {}), name: n, bot: 'normal', level: 3};
    });
    const tricks = [[7, 3, 1, 2], [4, 7, 1, 1], [1, 5, 4, 3], [2, 4, 1, 6]];
    const totals = [0, 0, 0, 0];
    T.sheet = tricks.map((tk, d) => {
        const scores = tk.map((x, i) => (i === d ? -80 : 10 * x));
        scores.forEach((x, i) => { totals[i] += 3 * x; });
        const trump = 'HSDC'[d];
        return {deal: d + 1, bidder: d, bid: 8, trump, tricks: tk, scores, totals: [...totals]};
    });
    window.batak.renderTable(true);
}"""

#: Every cell of a score sheet inside the box it is shown in, and the sheet not scrolled.
SHEET_FITS = """(box) => {
    const r = box.getBoundingClientRect();
    const out = [...box.querySelectorAll('table.sheet th, table.sheet td')]
        .map((c) => c.getBoundingClientRect())
        .filter((c) => c.right > r.right + 0.5 || c.left < r.left - 0.5).length;
    const heads = [...box.querySelectorAll('table.sheet thead tr:first-child th')];
    return {
        scroll: box.scrollWidth, client: box.clientWidth, outside: out,
        heads: heads.map((h) => h.textContent),
        titles: heads.map((h) => h.querySelector('[title]')?.title),
        widths: heads.map((h) => h.getBoundingClientRect().width),
    };
}"""


# ------------------------------------------------------- first-player review, items 1 and 2
def test_the_score_sheet_shows_all_four_columns_beside_the_table_and_in_its_window(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    long_names = ["Zeynep Kaya", "Ayşe Yılmaz", "Mehmet Öztürkoğlu"]
    cases = (
        ("en", "en-US", {"viewport": DESKTOP}, "desktop"),
        ("tr", "tr-TR", {"viewport": DESKTOP}, "desktop"),
        ("tr", "tr-TR", {"viewport": {"width": 900, "height": 800}}, "narrow"),
        ("en", "en-US", PHONE_CTX, "phone"),
        ("tr", "tr-TR", PHONE_CTX, "phone"),
    )
    for lang, locale, ctx, name in cases:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        # the room's own updates (the seats, the clock) come first: then the rows go in
        page.wait_for_timeout(1000)
        page.evaluate(FOUR_DEALS, ["", *long_names])
        expect(page.locator("#sheet-side tbody tr")).to_have_count(4)
        side = page.locator("#sheet-side").evaluate(SHEET_FITS)
        assert side["scroll"] <= side["client"] and not side["outside"], (name, lang, side)
        assert len(side["heads"]) == 6, side
        # a name cut short keeps the whole of it as its tooltip
        assert side["titles"][3:] == long_names, side
        # every player's column has room for a figure of four characters ("-220")
        assert min(side["widths"][2:]) >= 40, (name, lang, side)
        page.locator("#sheet-side").screenshot(
            path=str(artifacts / f"sheet-four-columns-{name}-{lang}.png")
        )
        page.evaluate(
            "() => { window.batak.state.table.dialog = 'sheet'; window.batak.renderDialog(); }"
        )
        dialog = page.locator(".dialog").evaluate(SHEET_FITS)
        assert dialog["scroll"] <= dialog["client"] and not dialog["outside"], (name, lang, dialog)
        page.screenshot(path=str(artifacts / f"sheet-four-columns-dialog-{name}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


#: Four deals' rows of an eşli match (seats 0 and 2 against 1 and 3, each seat's total its
#: team's) and four long names, the sheet drawn for this player ("Us" / "Them") or, with
#: ``spectator``, for someone watching (each team headed by its partners' names).
TEAM_DEALS = """([names, spectator]) => {
    const T = window.batak.state.table;
    names.forEach((n, i) => {
        if (i === T.you) return;
        T.info.seats[i] = {...(T.info.seats[i] || {}), name: n, bot: 'normal', level: 3};
    });
    const tricks = [[7, 3, 1, 2], [4, 7, 1, 1], [1, 5, 4, 3], [2, 4, 1, 6]];
    const totals = [0, 0, 0, 0];
    T.sheet = tricks.map((tk, d) => {
        const team = [tk[0] + tk[2], tk[1] + tk[3]];
        const scores = [0, 1, 2, 3].map((i) => (i % 2 === d % 2 ? -110 : 10 * team[i % 2]));
        scores.forEach((x, i) => { totals[i] += 3 * x; });
        return {deal: d + 1, bidder: d, bid: 11, trump: 'HSDC'[d], tricks: tk, scores,
                totals: [...totals]};
    });
    if (spectator) T.you = null;
    window.batak.renderTable(true);
    window.batak.state.table.dialog = 'sheet';
    window.batak.renderDialog();
}"""

#: A sheet's cells cut short (content wider than the cell) and the tooltips of its names.
SHEET_CUT = """(box) => ({
    cut: [...box.querySelectorAll('table.sheet th, table.sheet td')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => ({text: c.textContent, titles: [...c.querySelectorAll('[title]')]
            .map((e) => e.title)})),
    titles: [...box.querySelectorAll('table.sheet [title]')].map((e) => e.title),
    teams: [...box.querySelectorAll('[data-testid=team-column]')]
        .map((h) => h.getBoundingClientRect().width),
})"""


def test_the_esli_score_sheet_keeps_long_names_inside_its_boxes(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    long_names = [
        "Ayşegül Karamanoğlu",
        "Mehmet Ali Büyükşahin",
        "Zeynep Gülşen Öztürkoğlu",
        "Hüseyin Çağlayangil",
    ]
    cases = (
        ("en", "en-US", {"viewport": {"width": 1280, "height": 800}}, "desktop"),
        ("tr", "tr-TR", {"viewport": {"width": 1280, "height": 800}}, "desktop"),
        ("en", "en-US", {"viewport": {"width": 900, "height": 800}}, "narrow"),
        ("tr", "tr-TR", {"viewport": {"width": 900, "height": 800}}, "narrow"),
        ("en", "en-US", PHONE_CTX, "phone"),
        ("tr", "tr-TR", PHONE_CTX, "phone"),
    )
    for lang, locale, ctx, name in cases:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page, "sultan-esli")
        page.wait_for_timeout(1000)  # the room's own updates first, then the rows go in
        you = page.evaluate("() => window.batak.state.table.you")
        for spectator in (False, True):
            who = "spectator" if spectator else "player"
            page.evaluate(TEAM_DEALS, [long_names, spectator])
            expect(page.locator("#sheet-side tbody tr")).to_have_count(4)
            expect(page.locator(".dialog tbody tr")).to_have_count(4)
            for box in ("#sheet-side", ".dialog"):
                fits = page.locator(box).evaluate(SHEET_FITS)
                # no sideways scrolling, every cell inside the box
                assert fits["scroll"] <= fits["client"] and not fits["outside"], (
                    name,
                    lang,
                    who,
                    box,
                    fits,
                )
                assert len(fits["heads"]) == 4, fits
                cut = page.locator(box).evaluate(SHEET_CUT)
                # the two teams' columns are as wide as each other, with room for "10 -110"
                a, b = cut["teams"]
                assert abs(a - b) <= 1 and min(a, b) >= 55, (name, lang, who, box, cut)
                # a name cut short keeps the whole of it as its tooltip: a cell cut shows only
                # names, each with its tooltip
                for c in cut["cut"]:
                    assert c["titles"], (name, lang, who, box, c)
                if spectator:
                    # a team is headed by its partners' names, the whole of it as tooltip
                    seats = page.evaluate(
                        "() => window.batak.state.table.info.seats.map((s) => s.name)"
                    )
                    teams = [f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}"]
                    assert fits["heads"][2:] == teams, fits
                    assert fits["titles"][2:] == teams, fits
                else:
                    assert fits["heads"][2:] == (
                        ["Us", "Them"] if lang == "en" else ["Biz", "Onlar"]
                    ), fits
                    assert not cut["cut"], (name, lang, who, box, cut)
                # the bidders' names in the ihale column, each with its whole name as tooltip
                others = [n for i, n in enumerate(long_names) if i != you]
                assert set(others) <= set(cut["titles"]), (name, lang, who, box, cut)
            page.locator("#sheet-side").screenshot(
                path=str(artifacts / f"esli-sheet-long-names-{who}-{name}-{lang}.png")
            )
            page.screenshot(
                path=str(artifacts / f"esli-sheet-long-names-dialog-{who}-{name}-{lang}.png")
            )
        page.context.close()
    no_js_errors(errors)


# ---------------------------------------------------------------------- item 8
#: (key, key for this player, params): every sentence of the web table about a seat
SENTENCES = [
    ("made", "made_you", {"bid": 5, "won": 6}),
    ("made_forced", "made_forced_you", {"bid": 5, "won": 6}),
    ("down", "down_you", {"bid": 5, "won": 3}),
    ("contract", "contract_you", {"bid": 5}),
    ("won_by", "won_by_you", {}),
    ("sheet_made", "sheet_made_you", {"bid": 5, "won": 6}),
    ("sheet_down", "sheet_down_you", {"bid": 5, "won": 3}),
]
EXPECTED_YOU = {
    "en": {
        "made": "You made the ihale: bid 5, took 6",
        "made_forced": "You made the contract of 5 nobody bid: took 6",
        "down": "You went down: 3 of 5",
        "contract": "Your ihale: 5",
        "won_by": "you took it",
        "sheet_made": "made 6/5",
        "sheet_down": "down 3/5",
    },
    "tr": {
        "made": "İhaleyi çıkardın: 5 dedin, 6 löve aldın",
        "made_forced": "Kimse teklif vermeyince sana verilen ihaleyi çıkardın: 5 gerekiyordu, "
        "6 löve aldın",
        "down": "Battın: 3 / 5",
        "contract": "İhale sende: 5",
        "won_by": "löveyi sen aldın",
        "sheet_made": "çıkardın 6/5",
        "sheet_down": "battın 3/5",
    },
}

#: "made" about another seat (bid 5, took 6): the bid is never written next to the name
EXPECTED_OTHER_MADE = {
    "en": "{name} made the ihale: bid 5, took 6",
    "tr": "{name} ihaleyi çıkardı: 5 dedi, 6 löve aldı",
}


def test_sentences_about_the_player_are_in_the_second_person(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport=DESKTOP)
    page.select_option("#preset-select", "standard")  # (a new preset redraws the options)
    page.locator("#create-form details summary").click()
    page.select_option("#opt-first_dealer", "first_seated")
    page.fill("input[name=deals]", "1")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start").click()
    # the first to sit deals first: the notice speaks to this player
    expect(page.locator("#notice")).to_have_text("You deal first (first to sit)")
    expect(page.locator("#hand .card")).to_have_count(13)
    for lang in ("en", "tr"):
        if page.evaluate("() => window.batak.lang()") != lang:
            page.get_by_test_id("lang").click()
            expect(page.locator("#table-root")).to_have_attribute("data-lang", lang)
        said = page.evaluate(
            """(sentences) => {
                const b = window.batak, T = b.state.table, me = T.you, other = (me + 1) % 4;
                return sentences.map(([key, youKey, params]) => ({
                    key,
                    you: b.sentence(me, key, youKey, params),
                    other: b.sentence(other, key, youKey, params),
                    name: T.info.seats[other].name,
                    wrong: b.t(key, {...params, name: b.t("you")}),
                }));
            }""",
            SENTENCES,
        )
        for s in said:
            assert s["you"] == EXPECTED_YOU[lang][s["key"]], (lang, s)
            if lang == "tr" or not s["key"].startswith("sheet_"):  # (English: "made 6/5")
                assert s["you"] != s["wrong"], (lang, s)
            if not s["key"].startswith("sheet_"):  # (the sheet names the bidder in its column)
                assert s["name"] in s["other"], (lang, s)
            if s["key"] == "made":  # a number in a name ("Bot 2") never runs into the bid
                assert s["other"] == EXPECTED_OTHER_MADE[lang].format(name=s["name"]), (lang, s)
        labels = page.evaluate(
            "() => [window.batak.seatLabel(window.batak.state.table.you), window.batak.t('you')]"
        )
        assert labels == (["You", "you"] if lang == "en" else ["Sen", "sen"])
    play_to_the_end(page)
    # the score sheet's column for this player is headed "Sen" (capital), not "sen"
    heads = page.locator(".dialog table.sheet thead th").all_inner_texts()
    assert "Sen" in heads and "sen" not in heads, heads
    page.screenshot(path=str(artifacts / "second-person-match-over-tr.png"))
    no_js_errors(errors)


# ---------------------------------------------------------------------- item 12
SPY = """() => {
    window.__beeps = [];
    window.__vibrations = [];
    window.batak.beep = () => window.__beeps.push(Date.now());
    navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
}"""


def wait_turn_and_title(page: Page, title: str) -> None:
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=60_000)
    page.wait_for_function(f"() => document.title === {title!r}")


def test_the_turn_is_signalled_by_title_sound_and_vibration(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    private_room(page)
    page.evaluate(SPY)
    page.get_by_test_id("start").click()
    wait_turn_and_title(page, "● Sıra sende — Batak")
    assert len(page.evaluate("() => window.__beeps")) == 1
    assert page.evaluate("() => window.__vibrations") == [120]
    expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(artifacts / "turn-signal-phone-tr.png"))
    # one signal per decision, not one per redraw: the clock's ticks and others' events add none
    page.wait_for_timeout(600)
    assert len(page.evaluate("() => window.__beeps")) == 1
    act(page, keyboard=True)
    page.wait_for_function("() => document.title === 'Batak' || window.__beeps.length === 2")
    # the switch turns the sound off, and the page remembers it after a reload
    page.get_by_test_id("sound").click()
    expect(page.get_by_test_id("sound")).to_have_text("🔕 Ses kapalı")
    assert page.evaluate("() => localStorage.getItem('batak.sound')") == "off"
    page.reload()
    expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("sound")).to_have_text("🔕 Ses kapalı")
    page.evaluate(SPY)
    act(page, keyboard=True)  # the decision of the moment, if it is one; then the next one
    wait_turn_and_title(page, "● Sıra sende — Batak")
    assert page.evaluate("() => window.__beeps") == []
    assert page.evaluate("() => window.__vibrations") == []
    act(page, keyboard=True)
    no_js_errors(errors)


def test_the_title_says_your_turn_in_english_on_a_desktop(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport=DESKTOP)
    private_room(page)
    assert page.title() == "Batak"
    page.evaluate(SPY)
    page.get_by_test_id("start").click()
    wait_turn_and_title(page, "● Your turn — Batak")
    assert len(page.evaluate("() => window.__beeps")) == 1
    no_js_errors(errors)


# ---------------------------------------------------------------------- item 13
def test_chat_stays_after_a_reload_and_a_spectator_sees_it(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    host = open_page(browser, server, errors, viewport=DESKTOP)
    private_room(host)
    code = host.get_by_test_id("room-code").inner_text()
    for line in ("Merhaba!", "Kim geliyor?"):
        host.fill("#chat-input", line)
        host.press("#chat-input", "Enter")
        expect(host.locator("#chat-log")).to_contain_text(line)
    host.reload()
    expect(host.locator("#felt")).to_be_visible()
    expect(host.locator("#chat-log p")).to_have_count(2)
    expect(host.locator("#chat-log p").first).to_have_text(re.compile(r": Merhaba!$"))
    expect(host.locator("#chat-log p").last).to_have_text(re.compile(r": Kim geliyor\?$"))
    # someone who comes to watch reads the conversation so far
    watcher = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    watcher.fill("#code-input", code)
    watcher.check("#watch-input")
    watcher.press("#code-input", "Enter")
    expect(watcher.locator("#felt")).to_be_visible()
    expect(watcher.locator("#chat-log p")).to_have_count(2)
    expect(watcher.locator("#chat-log")).to_contain_text("Kim geliyor?")
    # (on a phone the chat is a panel opened from the top bar, which counts the lines that come
    # while it is closed: not the conversation found on arrival, which was counted as unread)
    expect(watcher.get_by_test_id("chat-open")).to_have_attribute("aria-label", "Sohbet")
    expect(watcher.get_by_test_id("chat-unread")).to_have_count(0)
    host.fill("#chat-input", "Hoş geldin")
    host.press("#chat-input", "Enter")
    expect(watcher.locator("#chat-log")).to_contain_text("Hoş geldin")
    expect(watcher.get_by_test_id("chat-unread")).to_have_text("1")
    expect(watcher.get_by_test_id("chat-open")).to_have_attribute("aria-label", "Sohbet (1)")
    watcher.get_by_test_id("chat-open").tap()
    expect(watcher.locator("#chat-log")).to_be_visible()
    expect(watcher.get_by_test_id("chat-unread")).to_have_count(0)
    watcher.screenshot(path=str(artifacts / "chat-spectator-phone-tr.png"))
    host.screenshot(path=str(artifacts / "chat-after-reload-desktop-en.png"))
    no_js_errors(errors)


def test_a_chat_line_being_typed_survives_the_table_drawn_anew(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A sync (here after the connection drops and comes back) draws the table anew; the line
    the player was typing stays in the box, with the focus, and goes when they press Enter."""
    page = open_page(browser, server, errors, viewport=DESKTOP)
    private_room(page)
    page.fill("#chat-input", "Kim gel")
    page.focus("#chat-input")
    page.evaluate("() => { document.querySelector('#felt').dataset.old = '1'; }")
    page.evaluate("() => { window.batak.state.table.info.old = true; }")  # a sync replaces it
    page.evaluate("() => window.batak.state.ws.close()")
    # the table was drawn anew: the felt is another element
    expect(page.locator("#felt")).to_be_visible()
    page.wait_for_function("() => !document.querySelector('#felt').dataset.old", timeout=15000)
    expect(page.locator("#chat-input")).to_have_value("Kim gel")
    expect(page.locator("#chat-input")).to_be_focused()
    # back online and at the table again (the table's own reply to the new connection's join),
    # before the line is sent: a line sent while the connection was down stays in the box (the
    # next test), and on a loaded machine the redraw can come before that
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.wait_for_function("() => !window.batak.state.table.info.old")
    page.keyboard.type("iyor?")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-log")).to_contain_text("Kim geliyor?")
    no_js_errors(errors)


def test_a_chat_line_sent_while_offline_stays_in_the_box(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """A line sent while the connection is down used to be cleared and lost (the socket was not
    open, so nothing was sent): it stays in the box with a notice and goes once back online."""
    for locale, said in (("en-US", "Not sent: the connection is down."), ("tr-TR", "Gönderilmedi")):
        page = open_page(browser, server, errors, viewport=DESKTOP, locale=locale)
        private_room(page)
        page.fill("#chat-input", "Geliyorum")
        page.evaluate(
            """() => {  // the socket closes, and the line is sent before it is back
              window.batak.state.table.info.old = true;  // a sync replaces it
              window.batak.state.ws.close();
              document.querySelector('#chat-input').form.requestSubmit();
            }"""
        )
        expect(page.locator("#chat-input")).to_have_value("Geliyorum")
        expect(page.locator("#chat-note")).to_contain_text(said)  # beside the box
        expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
        page.wait_for_function("() => !window.batak.state.table.info.old")
        page.press("#chat-input", "Enter")
        expect(page.locator("#chat-log")).to_contain_text("Geliyorum")
        expect(page.locator("#chat-input")).to_have_value("")
        expect(page.locator("#chat-note")).to_be_hidden()
        page.context.close()
    no_js_errors(errors)


def test_a_chat_line_the_server_refuses_goes_back_into_the_box(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """Too many lines at once: the server refuses the ones over its rate, with its reason, and
    the last refused line is back in the box to send again (it was cleared and lost)."""
    page = open_page(browser, server, errors, viewport=DESKTOP)
    private_room(page)
    # sent in one go, as fast typing would: one line at a time from here, each a round trip,
    # a loaded machine (CI) sent them slower than the server's rate and none was refused
    page.evaluate(
        """() => {
          for (let i = 0; i < 12; i++) {
            const input = document.querySelector("#chat-input");
            input.value = `satır ${i}`;
            input.form.requestSubmit();
          }
        }"""
    )
    expect(page.locator("#chat-note")).to_contain_text("too many chat messages")
    expect(page.locator("#chat-input")).to_have_value(re.compile(r"^satır \d+$"))
    back = page.locator("#chat-input").input_value()
    expect(page.locator("#chat-log")).to_contain_text("satır 0")  # the first ones went
    assert back not in page.locator("#chat-log").inner_text().splitlines()  # refused: not shown
    assert not any(
        line.endswith(back) for line in page.locator("#chat-log").inner_text().splitlines()
    )
    no_js_errors(errors)


# ---------------------------------------------------------------------- item 3
def test_the_heartbeat_pings_only_when_the_server_has_been_quiet(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """While the server keeps talking (here: an answer every second) the page sends no ping:
    any message shows the link is alive, and each ping is a message the server must read and
    answer. Once the server is quiet for 3 s it pings, and keeps the link."""
    page = open_page(browser, server, errors)
    private_room(page)
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    page.evaluate(
        """() => {
          const ws = window.batak.state.ws;
          window.__pings = [];
          const send = ws.send.bind(ws);
          ws.send = (text) => {
            if (JSON.parse(text).type === "ping") window.__pings.push(Date.now());
            send(text);
          };
          window.__ask = () => send(JSON.stringify({ type: "mytables" }));
        }"""
    )
    for _ in range(7):  # busy: the server answers something every second
        page.evaluate("window.__ask()")
        page.wait_for_timeout(1000)
    assert page.evaluate("window.__pings.length") == 0
    page.wait_for_timeout(7000)  # quiet: pinged within about 4 s, then every 3 s
    assert page.evaluate("window.__pings.length") >= 1
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    no_js_errors(errors)


def test_a_silently_dead_connection_shows_offline_within_ten_seconds_and_comes_back(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The network drops without closing the socket: nothing arrives and nothing leaves. The
    heartbeat notices within ~10 s, shows Offline at once, reconnects and resyncs the table."""
    page = open_page(browser, server, errors)
    private_room(page)
    page.get_by_test_id("start").click()
    expect(page.locator("#hand .card")).to_have_count(13)
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    # every state the status shows, as it shows it (Offline may last only until the reconnect)
    page.evaluate(
        """() => {
          window.__shown = [];
          const el = document.querySelector("[data-testid=status]");
          new MutationObserver(() => window.__shown.push(el.className)).observe(
            el, { attributes: true, attributeFilter: ["class"] });
        }"""
    )
    # the link goes silent: the open socket neither delivers nor sends anything any more
    page.evaluate(
        """() => {
          const ws = window.batak.state.ws;
          window.__deadSocket = ws;
          ws.send = () => {};
          ws.onmessage = null;
          ws.addEventListener = () => {};
        }"""
    )
    # the heartbeat gives up after 8 s of silence (pings after 3 s); the old client waited 25 s
    # and then for a close handshake that never came. The wait below is a bound, not a measure.
    page.wait_for_function(
        "() => window.__shown.some((c) => c.includes('offline'))", timeout=20_000
    )
    # a new connection, and the table as it is now
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"), timeout=20_000)
    assert page.evaluate("window.batak.state.ws !== window.__deadSocket")
    expect(page.locator("#hand .card").first).to_be_visible()
    assert page.evaluate("window.batak.state.table.view !== null")
    no_js_errors(errors)


def test_a_move_the_clock_made_is_said_to_its_player(
    browser: Browser, tmp_path: Path, artifacts: Path, errors: list[str]
) -> None:
    """When the clock and the bank ran out, the table chose for the player and the page said
    nothing: a player back at the screen could not tell why their pas or card was played."""
    server = ServerProcess(
        tmp_path, free_port(), *SERVE_ARGS, "--decision-seconds", "5", "--bank-seconds", "0"
    )
    server.start()
    try:
        for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
            page = open_page(browser, server, errors, locale=locale, **ctx)
            private_room(page)
            page.get_by_test_id("start").click()
            expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=60_000)
            said = (
                "Your time ran out, so the table chose for you: "
                if lang == "en"
                else ("Süren doldu; senin yerine masa seçti: ")
            )
            expect(page.locator("#notice")).to_contain_text(said, timeout=20_000)
            page.screenshot(path=str(artifacts / f"timed-out-{name}-{lang}.png"))
            page.context.close()
    finally:
        server.stop()
    no_js_errors(errors)


#: The match ended on a tie at the top (130 each) that the table's rule gave to the next seat:
#: the winner is first, alone, and the other 130 second; 110 and 110 share the third place.
TIE_OVER = """() => {
    const T = window.batak.state.table;
    const w = (T.you + 1) % 4, other = T.you;
    const totals = [0, 0, 0, 0];
    totals[w] = 130; totals[other] = 130; totals[(T.you + 2) % 4] = 110;
    totals[(T.you + 3) % 4] = 110;
    T.over = { totals, winners: [w] };
    T.dialog = "over";
    window.batak.renderDialog();
}"""


def test_a_tie_at_the_top_broken_by_the_rule_ranks_the_winner_alone_and_says_why(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The story's ranking read "Winner: Hasan Amca", then "1. 🏆 Hasan Amca 130" and
    "1. Çırak Cemil 130": the tie rule (most tricks in the last deal) had picked one, but the
    page ranked by the totals alone and gave no reason."""
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        page.wait_for_timeout(1000)  # the room's own updates first, then an end put in
        page.evaluate(TIE_OVER)
        rows = page.get_by_test_id("rank-row")
        expect(rows).to_have_count(4)
        places = [x.strip() for x in rows.locator("td:first-child").all_inner_texts()]
        assert places == ["1.", "2.", "3.", "3."], places
        expect(rows.first).to_have_class(re.compile("winner"))
        expect(rows.nth(1)).to_have_class(re.compile(r"\bme\b"))
        said = {
            "en": "A tie on 130 points goes to whoever took more tricks in the last deal.",
            "tr": "130 puanda eşitlikte son elde daha çok löve alan kazanır.",
        }[lang]
        expect(page.get_by_test_id("tie-note")).to_have_text(said)
        page.screenshot(path=str(artifacts / f"tie-ranking-{name}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


OVER = """(winners) => {
    const T = window.batak.state.table;
    const seats = winners.map((w) => (T.you + w) % 4);
    const totals = [0, 0, 0, 0].map((x, i) => (seats.includes(i) ? 130 : 40 + 10 * i));
    T.over = { totals, winners: seats };
    T.dialog = "over";
    window.batak.renderDialog();
}"""


def test_the_end_of_a_match_says_who_won_once(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """A player who won the match alone read "Winner: you", then "You won!" ("Kazanan: sen",
    "Kazandın!"): the same thing twice. Alone, "You won!" says it; a win shared with others
    (a partner at an eşli table, a shared first place) says it once too, naming the others
    ("You won together with …!", not "Winners: you, …" above "You won!"), and a lost match
    says who won and that it was not this time."""
    texts = {
        "en": ("You won!", "You won together with {}!", "Winner: ", "Better luck next time."),
        "tr": ("Kazandın!", "{} ile birlikte kazandın!", "Kazanan: ", "Bu sefer olmadı"),
    }
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        won, shared, other, lost = texts[lang]
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        page.wait_for_timeout(1000)  # the room's own updates first, then an end put in
        dialog = page.locator("#dialog")
        page.evaluate(OVER, [0])
        expect(dialog.get_by_text(won, exact=True)).to_have_count(1)
        expect(dialog.locator(".winners")).to_have_count(0)
        expect(dialog.get_by_test_id("you-won")).to_have_text(won)
        page.screenshot(path=str(artifacts / f"over-won-alone-{name}-{lang}.png"))
        page.evaluate(OVER, [0, 1])
        other_name = page.evaluate(
            "() => { const b = window.batak; return b.seatLabel((b.state.table.you + 1) % 4); }"
        )
        expect(dialog.locator(".winners")).to_have_count(0)
        expect(dialog.get_by_test_id("you-won")).to_have_text(shared.format(other_name))
        expect(dialog.get_by_text(won, exact=True)).to_have_count(0)
        page.screenshot(path=str(artifacts / f"over-won-shared-{name}-{lang}.png"))
        # a first place shared by three: the others in a sentence, "Ayşe and Veli" ("Ayşe ve
        # Veli"), not "Ayşe, Veli" (a list after a colon's way)
        page.evaluate(OVER, [0, 1, 2])
        two = page.evaluate(
            "() => { const b = window.batak, y = b.state.table.you;"
            " return [1, 2].map((k) => b.seatLabel((y + k) % 4)); }"
        )
        both = {"en": "{} and {}", "tr": "{} ve {}"}[lang].format(*two)
        expect(dialog.get_by_test_id("you-won")).to_have_text(shared.format(both))
        page.screenshot(path=str(artifacts / f"over-won-three-{name}-{lang}.png"))
        page.evaluate(OVER, [2])
        expect(dialog.locator(".winners")).to_contain_text(other)
        expect(dialog.get_by_test_id("you-won")).to_contain_text(lost)
        page.context.close()
    no_js_errors(errors)


def test_statistics_are_written_as_the_readers_language_writes_numbers(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The Turkish lobby wrote "32.5" (an average a deal) beside a rating written "2,1"; and a
    room of one deal read "1 deals". Looked at on a desktop and a phone: the leaderboard's
    averages had as many decimals as they came with (33,75 over 32,5 over 7: a ragged column),
    its counts were not grouped (1200 under a statistic of 1.200), and its numbers' headings
    stood left of their right-aligned columns."""
    page = open_page(browser, server, errors)
    page.fill("input[name=deals]", "1")
    private_room(page)
    expect(page.get_by_test_id("room-settings")).to_contain_text(" · 1 deal · ")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("room-settings")).to_contain_text(" · 1 el · ")
    page.context.close()
    for locale, ctx, name, average, matches, board in (
        ("tr-TR", {"viewport": DESKTOP}, "desktop-tr", "32,5", "1.200", ["33,8", "1.200", "7,0"]),
        ("en-US", {"viewport": DESKTOP}, "desktop-en", "32.5", "1,200", ["33.8", "1,200", "7.0"]),
        ("tr-TR", PHONE_CTX, "phone-tr", "32,5", "1.200", ["33,8", "1.200", "7,0"]),
        ("en-US", PHONE_CTX, "phone-en", "32.5", "1,200", ["33.8", "1,200", "7.0"]),
    ):
        page = open_page(browser, server, errors, locale=locale, **ctx)
        # the server's statistics and leaderboard first, then these in their place
        page.wait_for_function(
            "() => window.batak.state.stats !== null && window.batak.state.leaderboard !== null"
        )
        page.evaluate(
            """() => {
                const S = window.batak.state;
                S.stats = {matches: 1200, wins: 413, contracts: 2345, made: 1789, deals: 4812,
                    average: 32.5};
                S.leaderboard = [
                    {name: "Ayşe", wins: 41, matches: 97, average: 33.75},
                    {name: "Mehmet Ali Çelikkanat", wins: 38, matches: 1200, average: -4.25},
                    {name: "Gülşen Yıldırımoğlu", wins: 3, matches: 8, average: 7}];
                window.batak.render();
            }"""
        )
        stats = page.get_by_test_id("stats")
        expect(stats.locator("td").last).to_have_text(average)
        expect(stats.locator("td").first).to_have_text(matches)
        lb = page.get_by_test_id("leaderboard")
        expect(lb.locator("tbody tr:first-child td").last).to_have_text(board[0])
        expect(lb.locator("tbody tr:nth-child(2) td").nth(2)).to_have_text(board[1])
        expect(lb.locator("tbody tr:last-child td").last).to_have_text(board[2])
        aligned = lb.evaluate(
            """(t) => [...t.querySelectorAll("th")].map((th) => getComputedStyle(th).textAlign)"""
        )
        assert aligned == ["left", "right", "right", "right"], aligned  # as their columns
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.locator("#account-box").screenshot(path=str(artifacts / f"stats-{name}.png"))
        page.context.close()
    no_js_errors(errors)


def test_names_of_up_to_eight_letters_fit_the_side_score_sheet_on_a_desktop(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """At 1280 px the score sheet beside the table cut a five-letter name ("emma2") to
    "emm…", though its column was made wide for names of seven or eight letters. A name of up
    to eight ordinary letters is shown whole in its column's head there (with its tooltip, as a
    longer one that is still cut), and the sheet still fits its column."""
    names = ["emma2", "Gülşahan", "Zeynep12"]
    # (and at 1024 px, a tablet held sideways, where the names were still cut to "Gül…")
    for lang, locale, width in (
        ("en", "en-US", 1280),
        ("tr", "tr-TR", 1280),
        ("en", "en-US", 1024),
        ("tr", "tr-TR", 1024),
    ):
        page = open_page(
            browser, server, errors, locale=locale, viewport={"width": width, "height": 860}
        )
        private_room(page)
        page.wait_for_timeout(1000)  # the room's own updates first, then the rows go in
        page.evaluate(FOUR_DEALS, ["", *names])
        expect(page.locator("#sheet-side tbody tr")).to_have_count(4)
        side = page.locator("#sheet-side").evaluate(SHEET_FITS)
        assert side["scroll"] <= side["client"] and not side["outside"], (lang, side)
        assert side["titles"][3:] == names, side
        cut = page.locator("#sheet-side thead tr:first-child th").evaluate_all(
            "(els) => els.filter((e) => e.scrollWidth > e.clientWidth + 0.5)"
            ".map((e) => e.textContent)"
        )
        assert not cut, (lang, width, cut, side)
        # every player's column keeps room for a figure of four characters ("-220")
        assert min(side["widths"][2:]) >= 40, (lang, width, side)
        page.screenshot(path=str(artifacts / f"side-sheet-names-{width}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


#: Each card of the hand: its box, the hand's box, and how much of its width is the card itself
#: under the pointer, not a neighbour: along a line near its top, where its corner index is
#: ("top"), and at any height ("any": on a phone a playable card lies over the top of the card
#: under it in the next row, whose lower corner index shows).
HAND_CARDS = """(hand) => {
    const h = hand.getBoundingClientRect();
    return [...hand.querySelectorAll('.card')].map((c) => {
        const r = c.getBoundingClientRect();
        const ys = [r.top + 14, (r.top + r.bottom) / 2, r.bottom - 14];
        const hit = (x, y) => {
            const e = document.elementFromPoint(x, y);
            return e && c.contains(e);
        };
        let top = 0, any = 0, at = null;
        for (let x = Math.ceil(r.left) + 1; x < r.right - 1; x += 1) {
            if (hit(x, ys[0])) { top += 1; if (at === null) at = x; }
            if (ys.some((y) => hit(x, y))) any += 1;
        }
        return {card: c.dataset.card, legal: c.classList.contains('legal'), left: r.left,
                right: r.right, handLeft: h.left, handRight: h.right, top, any, at, y: ys[0],
                view: window.innerWidth};
    });
}"""


def test_every_card_of_a_full_hand_is_seen_whole_at_every_width(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """At 1024 px (a tablet held sideways) the 13 cards, 76 px each at a quarter's overlap, were
    about 730 px wide in a hand of 700: the hand scrolled, its first card cut at the left. At
    every width from a phone's to a large screen's, each card lies inside the window and the
    hand, unscrolled, and a strip of it at least 20 px wide (on a desktop, where its corner
    index is) is itself under the pointer, not a neighbour; a click on a playable card's strip
    plays it."""
    for lang, locale in (("en", "en-US"), ("tr", "tr-TR")):
        page = open_page(
            browser, server, errors, locale=locale, viewport={"width": 1024, "height": 768}
        )
        private_room(page)
        until_my_card_turn(page)
        page.mouse.move(0, 0)  # no card lifted by the pointer
        for width in (1024, 390, 700, 801, 900, 999, 1000, 1100, 1199, 1280, 1920):
            page.set_viewport_size({"width": width, "height": 860 if width > 800 else 844})
            page.wait_for_timeout(300)  # the layout and the rows broken by suit after a resize
            expect(page.locator("#hand .card")).to_have_count(13)
            hand = page.locator("#hand")
            scroll = hand.evaluate("(h) => [h.scrollWidth, h.clientWidth]")
            assert scroll[0] <= scroll[1] + 1, (lang, width, scroll)
            cards = hand.evaluate(HAND_CARDS)
            assert len(cards) == 13 and any(c["legal"] for c in cards), (lang, width)
            for c in cards:
                assert c["left"] >= max(c["handLeft"], 0) - 0.5, (lang, width, c)
                assert c["right"] <= min(c["handRight"], c["view"]) + 0.5, (lang, width, c)
                # in one row (a desktop) every corner index shows; in rows, some part of it
                assert c["top" if width > 800 else "any"] >= 20, str((lang, width, c))
            page.screenshot(path=str(artifacts / f"hand-13-{width}-{lang}.png"))
        # a playable card is played by a click on the strip of it that shows
        page.set_viewport_size({"width": 1024, "height": 768})
        page.wait_for_timeout(300)
        legal = [c for c in page.locator("#hand").evaluate(HAND_CARDS) if c["legal"]]
        page.mouse.click(legal[0]["at"] + 5, legal[0]["y"])
        expect(page.locator(f'#hand .card[data-card="{legal[0]["card"]}"]')).to_have_count(0)
        page.context.close()
    no_js_errors(errors)


@pytest.mark.parametrize(("lang", "locale", "ctx", "name"), DESKTOP_EN_PHONE_TR)
def test_a_late_refusal_of_a_table_left_meanwhile_leaves_the_page_at_the_new_one(
    browser: Browser,
    server: ServerProcess,
    artifacts: Path,
    errors: list[str],
    lang: str,
    locale: str,
    ctx: dict[str, Any],
    name: str,
) -> None:
    """The page asked to join table A (a link to a table put away since), the player went back
    to the lobby and opened a room, B, before the answer came; the server's late ``no_table``
    for A sent the page from B to the lobby with "Error: no such table". The refusal names the
    table it answers (``table``), and the page at B leaves it unsaid; B's own refusal still
    sends the page to the lobby, as before."""
    gone = "tgone0123456789"
    held: list[str] = []  # the page's join of A, kept from the server until B is open
    refused: list[str] = []
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        up = ws.connect_to_server()
        sockets.append((ws, up))

        def from_page(text: Any) -> None:
            if f'"table":"{gone}"' in str(text).replace(" ", ""):
                held.append(text)
                return
            up.send(text)

        def from_server(text: Any) -> None:
            if '"code":"no_table"' in str(text):
                refused.append(text)
            ws.send(text)

        ws.on_message(from_page)
        up.on_message(from_server)

    context = browser.new_context(locale=locale, **ctx)
    context.set_default_timeout(20_000)
    page = watch(context.new_page(), errors)
    page.route_web_socket(re.compile(r"/ws$"), route)
    page.goto(server.http + "/")
    expect(page.get_by_test_id("status")).to_have_class(re.compile("online"))
    # to table A inside the page (a link followed), then back to the lobby: A's join unanswered
    page.evaluate(
        f"""() => {{ history.pushState({{}}, "", "/table/{gone}");
            dispatchEvent(new PopStateEvent("popstate")); }}"""
    )
    page.wait_for_function(
        f"() => window.batak.state.table && window.batak.state.table.id === '{gone}'"
    )
    deadline = time.monotonic() + 20
    while not held:
        assert time.monotonic() < deadline, "the page never asked to join table A"
        page.wait_for_timeout(50)
    page.go_back()
    expect(page.locator("#preset-select")).to_be_visible()
    private_room(page)  # table B
    table_b = page.evaluate("() => window.batak.state.table.id")
    # A's answer comes now: a refusal naming A
    ws, up = sockets[0]
    up.send(held[0])
    deadline = time.monotonic() + 20
    while not refused:
        assert time.monotonic() < deadline, "the server never answered the join of A"
        page.wait_for_timeout(50)
    assert f'"table":"{gone}"' in refused[0].replace(" ", ""), refused[0]
    page.wait_for_timeout(300)  # (its message handled)
    expect(page).to_have_url(re.compile(f"/table/{table_b}$"))
    expect(page.get_by_test_id("start")).to_be_visible()
    expect(page.locator("#notice.error")).to_have_count(0)
    page.screenshot(path=str(artifacts / f"late-refusal-{name}-{lang}.png"))
    # a refusal about B itself still says so and goes back to the lobby
    message = {"tr": "Böyle bir masa yok", "en": "No such table"}[lang]
    ws.send(
        f'{{"type":"error","code":"no_table","ref":"join","table":"{table_b}","message":"{message}"}}'
    )
    expect(page.locator("#notice.error")).to_contain_text(message)
    expect(page.locator("#preset-select")).to_be_visible()
    context.close()
    no_js_errors(errors)
