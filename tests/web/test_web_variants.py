"""The less common tables at the web table, as a player found them (session 36's usage round):
Koz Maça's koz shown from the deal on, the clock said in a window opened during one's turn, the
hint dropped with the language it was said in, a side's result said of the side at a table with
partners, a face-up hand that is one's own said so, a face-up hand at a side seat of a phone in
suit lines, a contract nobody bid for explained.

A real Chromium against a real ``batak serve``. What depends on the deal (whose hand is face up,
whether everyone passes) is put into the page's own state, during the page's own turn (the table
waits for it), and drawn by the page.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from harness import ServerProcess
from playwright.sync_api import Browser, Page, expect
from test_web import act, my_turn, no_js_errors, open_page
from test_web_table import DESKTOP, PHONE_CTX, play_to_the_end, private_room

from batak.explain import form_catalog, preset_summary, rules_catalog
from batak.rules import PRESETS


def _start(page: Page, preset: str, deals: int = 1) -> None:
    page.fill("input[name=deals]", str(deals))
    private_room(page, preset)
    page.get_by_test_id("start").click()


def _until_my_turn(page: Page, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not my_turn(page):
        assert time.monotonic() < deadline, "no turn came"
        time.sleep(0.05)


def test_koz_maca_names_its_koz_from_the_deal_and_a_window_says_the_clock_runs(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, viewport=DESKTOP)
    _start(page, "sultan-kozmaca")
    _until_my_turn(page)
    assert page.evaluate("() => window.batak.state.table.view.phase") == "bidding"
    # spades are koz before anyone bids (it said "koz not named yet")
    expect(page.get_by_test_id("facts")).to_contain_text("Koz: ♠ spades")
    expect(page.get_by_test_id("felt-koz")).to_have_text("Koz ♠")
    # the söz said so far are headed as söz, not as an auction (there is none): drawn with one
    # söz said before the page's (the page's own turn: the table waits)
    page.evaluate("""() => {
        const T = window.batak.state.table;
        T.view.auction = [{ seat: (T.you + 3) % 4, move: "bid 2" }];
        window.batak.renderTable(true);
    }""")
    expect(page.locator("#felt .auction h2")).to_have_text("Bids (söz)")
    spades = page.locator('#hand .card[data-card$="S"]')
    assert spades.count() == page.locator("#hand .card.koz").count()
    # a window opened during one's turn says that the clock runs, and shows it
    page.get_by_role("button", name="Score sheet (yazboz)").click()
    turn = page.get_by_test_id("dialog-turn")
    expect(turn).to_contain_text("Your turn: your clock is running.")
    expect(turn.locator(".secs")).to_have_text(re.compile(r"\d+\ss"))  # (a no-break space)
    page.screenshot(path=str(artifacts / "dialog-turn-en.png"))
    page.get_by_test_id("dialog-to-table").click()
    expect(page.get_by_test_id("dialog-turn")).to_have_count(0)
    expect(page.locator(".dialog")).to_have_count(0)
    # a hint said in English goes with the language (it stayed, English in a Turkish page)
    page.get_by_test_id("teach").click()
    expect(page.get_by_test_id("hint")).to_be_visible()
    # the hint's bid is marked on its button, as the hint's card is in the hand
    hinted = page.locator(".bids button.hinted")
    expect(hinted).to_have_count(1)
    move = page.evaluate("() => window.batak.state.table.hint.move")
    assert hinted.get_attribute("data-move") == move
    page.locator("#lang-button").click()
    expect(page.get_by_test_id("your-turn")).to_contain_text("Sıra sende")
    expect(page.get_by_test_id("hint")).to_have_count(0)
    play_to_the_end(page)
    # the sheet's second column holds the koz alone: it is called so
    sheet = page.locator(".dialog").get_by_test_id("sheet")
    expect(sheet.locator("thead th").nth(1)).to_have_text("Koz")
    # its cells hold tricks/söz: the note under it says so (it said "löve/ihale")
    legend = page.locator(".dialog .sheet-legend")
    expect(legend).to_contain_text("löve/söz")
    expect(legend).not_to_contain_text("ihale")
    expect(page.get_by_test_id("rank-made")).to_have_count(4)  # each bid once: counted
    expect(page.get_by_test_id("ranking").locator("thead th").nth(3)).to_have_text("Tutan söz")
    no_js_errors(errors)


def test_koz_maca_without_bids_has_no_column_of_contracts(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    _start(page, "zipi-kozmaca")
    _until_my_turn(page)
    expect(page.get_by_test_id("felt-koz")).to_have_text("Koz ♠")
    play_to_the_end(page)
    expect(page.get_by_test_id("ranking")).to_be_visible()
    expect(page.get_by_test_id("rank-made")).to_have_count(0)
    heads = page.get_by_test_id("ranking").locator("thead th").all_inner_texts()
    assert heads == ["Sıra", "Oyuncu", "Toplam"], heads
    no_js_errors(errors)


#: What a deal's result says at a table with partners: of the side, never "you" alone.
TEAM_RESULT = re.compile(r"^(İhaleyi çıkardık|Battık|.+ ve eşi (ihaleyi çıkardı|battı))")


def test_at_a_partners_table_the_result_is_said_of_the_side(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    _start(page, "sultan-esli", deals=2)
    said = ""
    deadline = time.monotonic() + 150
    while not said:
        assert time.monotonic() < deadline, "no deal ended"
        result = page.locator('[data-testid="deal-result"] .result-said')
        if result.count():
            said = result.first.inner_text()
            if said == "Yeniden dağıtılıyor":  # (a redeal says nothing of a side)
                said = ""
            continue
        if not act(page, keyboard=True):
            time.sleep(0.05)
    assert TEAM_RESULT.match(said), said
    page.screenshot(path=str(artifacts / "team-result-phone-tr.png"))
    no_js_errors(errors)


#: Açık eşli's face-up hand put on seat ``seat`` (the page's own seat: ``mine``), with the
#: player's own cards standing in for it, and the table drawn anew.
EXPOSE = """([mine, pos]) => {
    const T = window.batak.state.table;
    const seat = mine ? T.you
        : [0, 1, 2, 3].find((s) => s !== T.you && window.batak.position(s) === pos);
    T.view.exposed = { seat, cards: [...T.view.hand] };
    window.batak.renderTable(true);
    return seat;
}"""

#: Everyone said pas and the contract fell to the page's own seat, as the koz is asked for.
FORCED = """() => {
    const T = window.batak.state.table;
    const v = T.view;
    v.auction = [0, 1, 2, 3].map((s) => ({ seat: s, move: "pass" }));
    v.contract = { bidder: T.you, bid: 7 };
    v.phase = "trump";
    v.legal_moves = ["trump S", "trump H", "trump D", "trump C"];
    window.batak.renderTable(true);
}"""


#: The deal's result after a contract nobody bid was made (9 tricks for the side): by the page's
#: own side (``ours``) or by the next seat's.
FORCED_MADE = """(ours) => {
    const T = window.batak.state.table;
    const bidder = ours ? T.you : (T.you + 1) % 4;
    const tricks = [0, 1, 2, 3].map((s) => (s % 2 === bidder % 2 ? (s === bidder ? 5 : 4) : 2));
    const row = { deal: 1, dealer: 0, bidder, bid: 7, bids: null, trump: "S", tricks,
        scores: [0, 0, 0, 0], totals: [0, 0, 0, 0], redeal: false, king: false, extra: false,
        forced: true };
    T.result = { deal: { deal: 1, row }, timer: 1 };
    window.batak.renderTable(true);
}"""
NEXT_NAME = "() => window.batak.state.table.info.seats[(window.batak.state.table.you + 1) % 4].name"


def test_acik_esli_face_up_hands_and_a_contract_nobody_bid_for(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    made_forced = {
        "tr-TR": {
            "ours": "Kimse teklif vermeyince bize verilen ihaleyi çıkardık: 7 gerekiyordu, "
            "birlikte 9 löve aldık",
            "theirs": "{name} ve eşi, kimse teklif vermeyince verilen ihaleyi çıkardı: "
            "7 gerekiyordu, birlikte 9 löve aldılar",
        },
        "en-US": {
            "ours": "We made the contract of 7 nobody bid: took 9 together",
            "theirs": "{name} and partner made the contract of 7 nobody bid: took 9 together",
        },
    }
    for locale, ctx, own, forced in (
        ("tr-TR", PHONE_CTX, "elin açık", "Herkes pas dedi: ihale 7 ile sende."),
        (
            "en-US",
            {"viewport": DESKTOP},
            "your hand is face up",
            "Everyone said pas: the contract is yours, at 7.",
        ),
    ):
        page = open_page(browser, server, errors, locale=locale, **ctx)
        _start(page, "esli-acik")
        _until_my_turn(page)  # (the table waits for this page: nothing redraws it meanwhile)
        page.evaluate(EXPOSE, [True, "bottom"])
        expect(page.get_by_test_id("seat-bottom").locator(".tag", has_text=own)).to_be_visible()
        page.evaluate(EXPOSE, [False, "left"])
        left = page.get_by_test_id("seat-left")
        suits = page.evaluate(
            "() => new Set(window.batak.state.table.view.hand.map((c) => c.slice(-1))).size"
        )
        rows = left.get_by_test_id("exposed-rows")
        if locale == "tr-TR":  # a phone's side seat: a line a suit, not a column of faces
            expect(rows).to_be_visible()
            expect(rows.locator(":scope > div")).to_have_count(suits)
            expect(left.locator(".exposed")).to_be_hidden()
            height = left.bounding_box()
            assert height is not None and height["height"] < 220, height
        else:  # a desktop shows the faces
            expect(rows).to_be_hidden()
            expect(left.locator(".exposed .mini")).to_have_count(13)
        page.screenshot(path=str(artifacts / f"acik-esli-exposed-{locale}.png"))
        page.evaluate(FORCED)
        expect(page.get_by_test_id("forced")).to_have_text(forced)
        # the deal's result says the contract was given, not bid: ours, then the other side's
        for whose, said in made_forced[locale].items():
            page.evaluate(FORCED_MADE, whose == "ours")
            expect(page.get_by_test_id("deal-result").locator(".result-said")).to_have_text(
                said.format(name=page.evaluate(NEXT_NAME))
            )
        page.screenshot(path=str(artifacts / f"acik-esli-forced-made-{locale}.png"))
        page.context.close()
    no_js_errors(errors)


#: Another player (the next seat) burying at a kitty table, one card down already.
BURYING = """() => {
    const T = window.batak.state.table;
    const v = T.view;
    const other = (T.you + 1) % 3;
    v.phase = "bury";
    v.to_move = other;
    v.contract = { bidder: other, bid: 5 };
    v.hand_sizes[other] = 16 + 4 - 1;
    window.batak.renderTable(true);
}"""


def test_another_players_burying_shows_how_far_it_has_come(
    browser: Browser, server: ServerProcess, errors: list[str]
) -> None:
    page = open_page(browser, server, errors, locale="tr-TR", **PHONE_CTX)
    _start(page, "zipi-kitty")
    _until_my_turn(page)
    page.evaluate(BURYING)
    expect(page.get_by_test_id("waiting-bury")).to_have_text(
        re.compile(r"^.+ kart gömüyor: 1 / 4…$")
    )
    no_js_errors(errors)


def _form_words(page: Page, names: list[str]) -> dict[str, Any]:
    """The private-room form's words of these options: label, help, and each choice's words."""
    return page.evaluate(
        """(names) => Object.fromEntries(names.map((n) => {
            const box = document.querySelector(`#create-form .option[data-option="${n}"]`);
            const select = box.querySelector("select");
            const choices = select
              ? Object.fromEntries([...select.options].filter((o) => o.value)
                  .map((o) => [o.value, o.textContent]))
              : {};
            return [n, {label: box.querySelector("label").textContent,
                        help: box.querySelector(".help").textContent, choices}];
        }))""",
        names,
    )


def _expected_words(words: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the form shows of each option, from the rules' catalog's words ``words``."""
    out = {}
    for name, w in words.items():
        choices = {k: v[lang] for k, v in w.get("values", {}).items()}
        out[name] = {"label": w["label"][lang], "help": w["help"][lang], "choices": choices}
    return out


def _switched_then_english(browser: Browser, server: ServerProcess, errors: list[str]) -> Page:
    """The private-room form in Turkish, at Sultan's Koz Maça switched to an ihale, then the
    page switched to English: the bidding chosen is kept."""
    page = open_page(browser, server, errors, locale="tr-TR", viewport=DESKTOP)
    page.select_option("#preset-select", "sultan-kozmaca")
    page.locator("#create-form details summary").click()
    page.select_option("#opt-bidding", "auction")
    page.get_by_test_id("lang").click()
    expect(page.locator("#opt-bidding")).to_have_value("auction")
    return page


def test_the_private_room_form_speaks_of_the_bidding_chosen_in_it(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """A Koz Maça preset chosen in the private-room form spoke of the söz ("En düşük söz"), and
    went on doing so when the bidding was switched to an ihale in the form: the words of the
    options that Koz Maça words differently (their labels, helps and choices) follow the bidding
    chosen, in both languages, there and back, and through a language switch."""
    catalog = rules_catalog()
    names = list(catalog["kozmaca"])
    general = {n: catalog["options"][n] for n in names}
    soz = {
        n: {
            **catalog["options"][n],
            **catalog["kozmaca"][n],
            "values": {
                **catalog["options"][n].get("values", {}),
                **catalog["kozmaca"][n].get("values", {}),
            },
        }
        for n in names
    }

    # the choices the form offers at Sultan's Koz Maça (the server takes no others there)
    form = form_catalog()["sultan-kozmaca"]
    offered = {n: {str(v) for v in form["choices"][n]} for n in names}

    def expected(words: dict[str, Any], lang: str) -> dict[str, Any]:
        return {
            n: {**w, "choices": {k: v for k, v in w["choices"].items() if k in offered[n]}}
            for n, w in _expected_words(words, lang).items()
        }

    def shown(got: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
        """The form's words, of the choices only those the catalog words (a choice it does not
        word is said by its value), without what a choice says it sets with it (no bidding:
        a koz fixed too, said in test_web_form_choices)."""
        also = re.compile(r" \((also sets “.*”|ayrıca “.*” seçilir)\)$")
        return {
            n: {
                **w,
                "choices": {
                    k: also.sub("", v) for k, v in w["choices"].items() if k in want[n]["choices"]
                },
            }
            for n, w in got.items()
        }

    for lang, locale, ctx, name in (
        ("tr", "tr-TR", PHONE_CTX, "phone"),
        ("en", "en-US", {"viewport": DESKTOP}, "desktop"),
    ):
        page = open_page(browser, server, errors, locale=locale, **ctx)
        page.select_option("#preset-select", "sultan-kozmaca")
        page.locator("#create-form details summary").click()
        expect(page.locator("#opt-bidding")).to_have_value("kozmaca")
        want = expected(soz, lang)
        assert shown(_form_words(page, names), want) == want, lang
        page.select_option("#opt-bidding", "auction")
        want = expected(general, lang)
        got = _form_words(page, names)
        assert shown(got, want) == want, (lang, got)
        expect(page.locator('#create-form [data-option="min_bid"] label')).to_have_text(
            {"tr": "En düşük teklif", "en": "Lowest bid"}[lang]
        )
        page.locator('#create-form [data-option="min_bid"]').scroll_into_view_if_needed()
        page.locator("#create-form").screenshot(
            path=str(artifacts / f"form-ihale-{name}-{lang}.png")
        )
        # and back: the söz again
        page.select_option("#opt-bidding", "kozmaca")
        want = expected(soz, lang)
        assert shown(_form_words(page, names), want) == want, lang
        page.context.close()
    # a language switch keeps the bidding chosen, and its words
    page = _switched_then_english(browser, server, errors)
    want = expected(general, "en")
    assert shown(_form_words(page, names), want) == want
    page.context.close()
    no_js_errors(errors)


def test_the_private_room_forms_summary_follows_the_bidding_chosen_in_it(
    browser: Browser, server: ServerProcess, artifacts: Path, errors: list[str]
) -> None:
    """The preset's one-line summary above the private-room form went on describing the
    preset after the player switched the bidding in the form (a Koz Maça preset switched to an
    ihale still said "Koz Maça, each player bids once, bids 1–13"), while the options' words
    under it followed the switch. It describes the table with the bidding chosen, in both
    languages, there and back, for each preset whose bidding the form lets a player switch
    (the server takes no other bidding at an ihale's preset: see test_web_form_choices), and
    through a language switch."""
    summary = "[data-testid=preset-summary]"
    for lang, locale, ctx, name, preset, other in (
        ("tr", "tr-TR", PHONE_CTX, "phone", "sultan-kozmaca", "auction"),
        ("en", "en-US", {"viewport": DESKTOP}, "desktop", "sultan-kozmaca", "auction"),
        ("en", "en-US", PHONE_CTX, "phone", "zipi-kozmaca", "kozmaca"),
        ("tr", "tr-TR", {"viewport": DESKTOP}, "desktop", "cetinsgame-kozmaca", "auction"),
    ):
        rules = PRESETS[preset]
        page = open_page(browser, server, errors, locale=locale, **ctx)
        page.select_option("#preset-select", preset)
        page.locator("#create-form details summary").click()
        expect(page.locator(summary)).to_have_text(preset_summary(rules, lang))
        # (the screen with the form's top: the preset, its summary, the first fields)
        page.locator("#preset-select").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"form-summary-{preset}-{name}-{lang}.png"))
        page.select_option("#opt-bidding", other)
        switched = preset_summary(rules, lang, bidding=other)
        assert switched != preset_summary(rules, lang)
        expect(page.locator(summary)).to_have_text(switched)
        page.screenshot(path=str(artifacts / f"form-summary-{preset}-{other}-{name}-{lang}.png"))
        # and back: the preset's own
        page.select_option("#opt-bidding", rules.bidding)
        expect(page.locator(summary)).to_have_text(preset_summary(rules, lang))
        page.context.close()
    # a language switch keeps the bidding chosen, and the summary of the table chosen
    page = _switched_then_english(browser, server, errors)
    expect(page.locator(summary)).to_have_text(
        preset_summary(PRESETS["sultan-kozmaca"], "en", bidding="auction")
    )
    page.context.close()
    no_js_errors(errors)
