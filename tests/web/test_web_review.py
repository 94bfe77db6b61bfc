"""The deal review screen (issue 14): from the score sheet after a match, the server's review of
the deal in the reader's language, with the cards that cost tricks; in Chromium, English on a
desktop and Turkish on a phone."""

from __future__ import annotations

import re
import time
from pathlib import Path

from harness import ServerProcess
from playwright.sync_api import Browser, expect
from test_web import act, no_js_errors, open_page
from test_web_table import DESKTOP_EN_PHONE_TR, FOUR_DEALS, play_to_the_end, private_room

TITLE = {"en": re.compile(r"Deal 1: where were tricks lost\?"), "tr": re.compile(r"1\. el: löve")}


def _label(card: str) -> str:
    """A card code as the page writes it: ``TH`` -> ``10♥``."""
    return ("10" if card[0] == "T" else card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def _best(cards: list[str]) -> list[str]:
    """A row's best cards as the page writes them: up to three as cards, more a suit at a time
    (in the order the suits come), its ranks high to low after its sign: ``♠ 9 7 3 2``."""
    if len(cards) <= 3:
        return [_label(c) for c in cards]
    order = "23456789TJQKA"
    out: list[str] = []
    for suit in dict.fromkeys(c[1] for c in cards):
        ranks = sorted((c[0] for c in cards if c[1] == suit), key=order.index, reverse=True)
        out += [_label("2" + suit)[-1]] + [_label(r + suit)[:-1] for r in ranks]
    return out


def test_the_review_of_a_deal_from_the_score_sheet(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        page.fill("input[name=deals]", "1")
        private_room(page)
        page.get_by_test_id("start").click()
        play_to_the_end(page)
        dialog = page.locator(".dialog")
        dialog.get_by_test_id("review-open").first.click()
        expect(dialog.get_by_test_id("review-title")).to_have_text(TITLE[lang])
        lines = dialog.get_by_test_id("review-lines")
        expect(lines).to_be_visible(timeout=120_000)
        data = page.evaluate("() => window.batak.state.table.review.data")
        assert data["deal"] == 1
        # (a machine too busy to solve even the first card in the time limit says so instead)
        assert data["decisions"] or data["complete"] is False, data
        shown = lines.locator("li").all_inner_texts()
        assert shown == data["lines"] and shown
        costly = [d for d in data["decisions"] if d["cost"] > 0 or d["defence_cost"] > 0]
        expect(dialog.get_by_test_id("review-row")).to_have_count(len(costly))
        # each row's best cards are those its sentence names: the defence's where the card
        # cost the defence too (the sentence and the table named different cards)
        bests = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=review-row]')]
                  .map((r) => r.querySelectorAll('td')[3].innerText.split(/\\s+/))"""
        )
        for d, best in zip(costly, bests, strict=True):
            own = d["cost"] > 0 and not d["defence_cost"] > 0
            want = d["best_cards"] if own else d["defence_best_cards"]
            assert best == _best(want), (d, best)
        if costly:  # the first costly card, as people write cards (10♥, not TH)
            first = dialog.get_by_test_id("review-row").first
            expect(first).to_contain_text(re.compile("[♠♥♦♣]"))
            assert "T" not in first.locator("td").nth(2).inner_text()
        # the reader's language: the server's sentences and the screen's own words
        if lang == "tr":
            assert any(w in " ".join(shown) for w in ("löve", "koz", "ihale", "el"))
            expect(dialog).to_contain_text("Açık elle çözüm")
        else:
            expect(dialog).to_contain_text("Worked out with every hand in view")
        page.screenshot(path=str(artifacts / f"review-{name}-{lang}.png"), full_page=True)
        # closing the review brings the match result back
        dialog.get_by_test_id("close-dialog").click()
        expect(page.get_by_test_id("match-over")).to_be_visible()
        page.context.close()
    no_js_errors(errors)


def test_closing_a_review_opened_from_the_score_sheet_goes_back_to_the_sheet(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        page.wait_for_timeout(1000)  # the room's own updates first, then a sheet put in
        page.evaluate(FOUR_DEALS, ["", "Zeynep", "Ayşe", "Mehmet"])
        page.evaluate(
            "() => { window.batak.state.table.dialog = 'sheet'; window.batak.renderDialog(); }"
        )
        dialog = page.locator(".dialog")
        dialog.get_by_test_id("review-open").nth(1).click()
        expect(dialog.get_by_test_id("review-title")).to_be_visible()
        dialog.get_by_test_id("close-dialog").click()
        expect(dialog.get_by_test_id("sheet")).to_be_visible()
        page.screenshot(path=str(artifacts / f"review-closed-to-sheet-{name}-{lang}.png"))
        # the Escape key, too; and closing the sheet then goes back to the table
        dialog.get_by_test_id("review-open").first.click()
        expect(dialog.get_by_test_id("review-title")).to_be_visible()
        page.keyboard.press("Escape")
        expect(dialog.get_by_test_id("sheet")).to_be_visible()
        dialog.get_by_test_id("close-dialog").click()
        expect(page.locator(".dialog")).to_have_count(0)
        page.context.close()
    no_js_errors(errors)


#: A review whose one costly card had nine cards as good as the best: the table's row writes
#: them a suit at a time, not as nine cards that wrapped over four lines on a phone.
LONG_BEST = """() => {
    const T = window.batak.state.table;
    const best = ["2S", "3S", "9S", "5S", "TS", "4D", "JD", "2D", "6D"];
    T.review = { deal: 1, data: { deal: 1, complete: true, lines: ["—"], decisions: [
        { trick: 3, seat: 1, card: "AH", cost: 1, defence_cost: 0, best_cards: best,
          defence_best_cards: [] },
        { trick: 5, seat: 2, card: "KC", cost: 1, defence_cost: 0, best_cards: ["QC", "2H"],
          defence_best_cards: [] }] } };
    T.dialog = "review";
    window.batak.renderDialog();
}"""


def test_a_long_list_of_best_cards_is_written_a_suit_at_a_time(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    for lang, locale, ctx, name in DESKTOP_EN_PHONE_TR:
        page = open_page(browser, server, errors, locale=locale, **ctx)
        private_room(page)
        page.wait_for_timeout(1000)  # the room's own updates first, then a review put in
        page.evaluate(LONG_BEST)
        rows = page.locator(".dialog").get_by_test_id("review-row")
        expect(rows).to_have_count(2)
        expect(rows.nth(0).locator("td").nth(3)).to_have_text("♠ 10 9 5 3 2 ♦ J 6 4 2")
        expect(rows.nth(1).locator("td").nth(3)).to_have_text("Q♣ 2♥")
        box = rows.nth(0).bounding_box()
        assert box is not None and box["height"] < 60, box  # one line a suit at most
        page.screenshot(path=str(artifacts / f"review-long-best-{name}-{lang}.png"))
        page.context.close()
    no_js_errors(errors)


def test_the_review_of_an_esli_deal_from_the_team_sheet(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The eşli score sheet has a column per team; each deal has its review too (the side is the
    bidder's team)."""
    page = open_page(browser, server, errors)
    page.fill("input[name=deals]", "1")
    private_room(page, "sultan-esli")
    page.get_by_test_id("start").click()
    play_to_the_end(page)
    dialog = page.locator(".dialog")
    expect(dialog.locator("table.sheet.teams")).to_be_visible()
    dialog.locator("table.sheet.teams").get_by_test_id("review-open").click()
    expect(dialog.get_by_test_id("review-title")).to_have_text(TITLE["en"])
    expect(dialog.get_by_test_id("review-lines")).to_be_visible(timeout=120_000)
    data = page.evaluate("() => window.batak.state.table.review.data")
    assert data["deal"] == 1 and (data["decisions"] or data["complete"] is False), data
    no_js_errors(errors)


def test_the_review_from_the_result_after_a_deal_and_the_language_at_the_match_end(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The panel shown after a deal has its own review button; the review colours the red suits
    and says which koz was played and what was taken; the match-over window, which covers the
    header, has its own language button."""
    page = open_page(browser, server, errors)
    page.fill("input[name=deals]", "3")
    private_room(page)
    page.get_by_test_id("start").click()
    deadline = time.monotonic() + 200
    # the result of a deal before the last (the panel closes by itself after a few seconds, so
    # the one caught may be the second deal's; the last deal's is under the match-over window)
    button = page.get_by_test_id("result-review")
    while not (button.count() and button.get_attribute("data-deal") in ("1", "2")):
        assert time.monotonic() < deadline, "no deal ended in time"
        if not act(page, keyboard=True, bid=True):
            time.sleep(0.05)
    deal = button.get_attribute("data-deal")
    # a player who took no trick is said to be batak, with the points it cost, and nobody else
    # (read at once with the panel's notes: the panel closes by itself after a few seconds)
    row, notes, shown = page.evaluate(
        f"""() => [window.batak.state.table.sheet.find((r) => r.deal === {deal}),
                  [...document.querySelectorAll('[data-testid=result-batak]')]
                    .map((e) => e.innerText),
                  !!document.querySelector('[data-testid=deal-result]')]"""
    )
    batak = [
        i
        for i, won in enumerate(row["tricks"])
        if won == 0 and i != row["bidder"] and row["scores"][i] < 0
    ]
    assert len(notes) == (len(batak) if shown else 0), (row, notes)
    assert all("took no trick: batak (-" in x for x in notes), notes
    button.click()
    dialog = page.locator(".dialog")
    expect(dialog.get_by_test_id("review-title")).to_have_text(
        re.compile(rf"Deal {deal}: where were tricks lost\?")
    )
    lines = dialog.get_by_test_id("review-lines")
    expect(lines).to_be_visible(timeout=120_000)
    data = page.evaluate("() => window.batak.state.table.review.data")
    (bid,) = data["bidding"]
    if data["complete"]:
        assert bid["trump"] in "SHDC" and bid["taken"] is not None
        assert lines.locator("li").first.inner_text().endswith(f"taken: {bid['taken']}")
    # every ♥ and ♦ on the screen is in red, as on the rest of the table
    red = page.evaluate(
        """() => [...document.querySelectorAll('.dialog .suit-H, .dialog .suit-D')]
            .map(e => getComputedStyle(e).color)"""
    )
    reds = sum(x.count("♥") + x.count("♦") for x in data["lines"])
    assert len(red) >= reds and set(red) <= {"rgb(179, 0, 27)"}, red
    page.screenshot(path=str(artifacts / "review-from-result-desktop-en.png"), full_page=True)
    dialog.get_by_test_id("close-dialog").click()
    play_to_the_end(page)
    expect(page.get_by_test_id("match-over")).to_have_text("The match is over")
    dialog.get_by_test_id("over-lang").click()
    expect(page.get_by_test_id("match-over")).to_have_text("Oyun bitti")
    expect(dialog.get_by_test_id("over-lang")).to_have_text("English")
    no_js_errors(errors)


def test_a_long_window_keeps_its_scroll_when_drawn_again(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    """The match-over window is taller than a laptop's screen; when it is drawn again (the
    rematch, the XP, a language switch's reconnect) it stays where its reader scrolled to."""
    page = open_page(browser, server, errors, viewport={"width": 1280, "height": 600})
    page.fill("input[name=deals]", "1")
    private_room(page)
    page.get_by_test_id("start").click()
    play_to_the_end(page)
    dialog = page.locator(".dialog")
    expect(page.get_by_test_id("match-over")).to_be_visible()
    height = dialog.evaluate("d => d.scrollHeight - d.clientHeight")
    assert height > 50, "the window should be taller than the screen here"
    dialog.evaluate("d => { d.scrollTop = d.scrollHeight; }")
    down = dialog.evaluate("d => d.scrollTop")
    page.evaluate("() => window.batak.renderDialog()")
    assert page.locator(".dialog").evaluate("d => d.scrollTop") == down
    no_js_errors(errors)
