"""``batak online`` speaks to its player in the second person (issue 10 item 8): "You take the
trick." / "Löveyi sen aldın.", never "You takes the trick." / "Löveyi Sen aldı."; others by name."""

from __future__ import annotations

import argparse
import asyncio
import io
from types import SimpleNamespace

import pytest

from batak import Rules
from batak.cli.console import Console
from batak.cli.online import OnlineSession
from batak.i18n import text
from batak.server.client import TableState

EXPECTED = {
    "en": ("You take the trick.", "A computer plays for you now.", "You are back."),
    "tr": ("Löveyi sen aldın.", "Artık senin yerine bilgisayar oynuyor.", "Geri döndün."),
}
WRONG = ("You takes", "for You", "You is back", "Löveyi Sen aldı", "Sen için", "Sen geri döndü")


def session(lang: str) -> tuple[OnlineSession, io.StringIO]:
    out = io.StringIO()
    s = OnlineSession(argparse.Namespace(url="127.0.0.1:1"), Console(out, io.StringIO()), lang)
    seats = [{"name": "Ayşe"}, {"name": "Bot 2"}, {"name": "Bot 3"}, {"name": "Bot 4"}]
    st = TableState(id="t1", seat=0, info={"seats": seats})
    s.client = SimpleNamespace(tables={"t1": st})  # type: ignore[attr-defined]
    s.table = "t1"
    return s, out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_player_is_you_and_others_are_named(lang: str) -> None:
    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.events = [
        {"kind": "away", "seat": 0},
        {"kind": "back", "seat": 0},
        {"kind": "away", "seat": 2},
    ]
    s._narrate()
    mine = {
        "kind": "play",
        "players": 4,
        "tricks": [{"leader": 1, "cards": ["2H", "KH", "3H", "4H"], "winner": 0}],
    }
    theirs = {
        "kind": "play",
        "players": 4,
        "tricks": [{"leader": 0, "cards": ["2H", "KH", "3H", "4H"], "winner": 1}],
    }
    text = "\n".join([out.getvalue(), *s._last_trick(mine), *s._last_trick(theirs)])
    take, away, back = EXPECTED[lang]
    assert take in text and away in text and back in text, text
    assert "Bot 2" in text.splitlines()[-1] and "K♥" in text, text
    assert not [w for w in WRONG if w in text], text


def test_moves_typed_in_turkish_capitals_are_read() -> None:
    """A Turkish player's capitals: ``SİNEK`` lowered the usual way is ``si̇nek`` (with a combining
    dot) and was no suit; ``PAS``, ``İHALE 7`` and ``GÖM 2C`` are moves too."""
    s, _ = session("tr")
    trump = {"phase": "trump", "legal_moves": ["trump S", "trump H", "trump D", "trump C"]}
    assert s._normalise("SİNEK", trump) == "trump C"
    assert s._normalise("Maça", trump) == "trump S"
    bidding = {"phase": "bidding", "legal_moves": ["pass", "bid 7", "bid 8"]}
    assert s._normalise("PAS", bidding) == "pass"
    assert s._normalise("İHALE 7", bidding) == "bid 7"
    assert s._normalise("7", bidding) == "bid 7"
    bury = {"phase": "bury", "legal_moves": ["bury 2C", "bury AS"]}
    assert s._normalise("GÖM 2C", bury) == "bury 2C"
    assert s._normalise("2C", bury) == "bury 2C"
    assert s._normalise("zz", bidding) is None


@pytest.mark.parametrize(
    ("lang", "gloss", "committed"),
    [
        ("en", "A deal's commitment is a fingerprint of its cards", "Deal 1 is committed ("),
        ("tr", "Bir elin taahhüdü, sunucunun eli dağıtmadan önce", "1. elin taahhüdü ("),
    ],
)
def test_commitment_and_seed_are_explained_once_before_their_first_line(
    lang: str, gloss: str, committed: str
) -> None:
    """'taahhüt' and 'tohum' (commitment, seed) are words few players know: the first line of a
    match that uses them comes after one short gloss; the later ones do not repeat it."""
    s, out = session(lang)
    s._commit(1, "c1")
    s._commit(2, "c2")
    said = " ".join(out.getvalue().split())
    assert said.count(gloss) == 1, said
    assert said.index(gloss) < said.index(committed), said
    # a session that meets a seed first (it came after the deal's commitment) glosses it too
    s, out = session(lang)
    row = {"deal": 1, "scores": [0, 0, 0, 0], "totals": [0, 0, 0, 0], "tricks": []}
    s._deal_over({"deal": 1, "row": row, "seed": "s1"}, ["Sen", "B2", "B3", "B4"])
    s._commit(2, "c2")
    said = " ".join(out.getvalue().split())
    assert said.count(gloss) == 1 and said.index(gloss) < said.index("s1"), said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_another_players_burying_is_said_once(lang: str) -> None:
    """Another's kitty burial came as one 'buries a card' line per card (four lines for one
    act); it is said once, when the whole kitty is buried, the cards still hidden."""
    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.view = {"rules": {"kitty_size": 4, "bidding": "auction"}}
    st.events = [{"kind": "move", "seat": 1, "move": "bury"} for _ in range(4)]
    s._narrate()
    lines = [x for x in out.getvalue().splitlines() if x.strip()]
    # as `batak play` says it ("Computer 1 buried 4 cards face down.")
    said = {"en": "Bot 2 buried 4 cards face down.", "tr": "Bot 2: 4 kartı kapalı gömdü."}[lang]
    assert lines == [said], lines


@pytest.mark.parametrize(
    ("lang", "forced_line", "bid_line"),
    [
        ("en", "You had the contract of 4 (nobody bid) and took 5: made.", "You bid 4 and took 5"),
        ("tr", "Sen: ihale 4 (kimse teklif vermeyince verildi), alınan 5", "Sen: ihale 4, alınan"),
    ],
)
def test_a_contract_nobody_bid_is_said_as_given(lang: str, forced_line: str, bid_line: str) -> None:
    """A deal's result after everyone passed (the rules gave the dealer the lowest bid) says the
    contract was given, as ``batak play`` does, not that the player bid it: the score sheet's
    row carries ``forced``."""
    for forced, line in ((True, forced_line), (False, bid_line)):
        s, out = session(lang)
        s.client.tables["t1"].info["rules"] = Rules.preset("standard").to_dict()
        row = {"deal": 1, "bidder": 0, "bid": 4, "forced": forced, "tricks": [5, 3, 3, 2]}
        row |= {"scores": [4, 3, 3, 2], "totals": [4, 3, 3, 2]}
        you = "You" if lang == "en" else "Sen"
        s._deal_over({"deal": 1, "row": row}, [you, "B2", "B3", "B4"])
        said = " ".join(out.getvalue().split())
        assert line in said, said
        if not forced:
            assert "nobody bid" not in said and "kimse" not in said, said


@pytest.mark.parametrize(
    ("lang", "theirs", "mine", "move"),
    [
        ("en", "Bot 2 says: pas", "You say: hi", "Bot 2: pas"),
        ("tr", "Bot 2 diyor ki: pas", "Sen diyorsun ki: hi", "Bot 2: pas"),
    ],
)
def test_a_chat_line_never_reads_as_a_move(lang: str, theirs: str, mine: str, move: str) -> None:
    """In Turkish a chat line was "{who}: {text}", so "Bot 2: pas" typed in the chat read as
    Bot 2's pass; the chat is said as words ("diyor ki"), and the player's own line as theirs
    ("You", "Sen"), as their moves are."""
    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.events = [
        {"kind": "chat", "seat": 1, "name": "Bot 2", "text": "pas"},
        {"kind": "chat", "seat": 0, "name": "Ayşe", "text": "hi"},
        {"kind": "move", "seat": 1, "move": "pass"},
    ]
    s._narrate()
    assert out.getvalue().splitlines() == [theirs, mine, move]


@pytest.mark.parametrize(
    ("lang", "took", "heading", "partner"),
    [
        ("en", "Bot 3 takes the trick.", "── Deal 2 of 2 ── dealer: Bot 2", "opposite you: Bot 3"),
        ("tr", "Löveyi Bot 3 aldı.", "── El 2/2 ── dağıtan: Bot 2", "karşında oturuyor: Bot 3"),
    ],
)
def test_the_deals_are_followed_as_batak_play_follows_them(
    lang: str, took: str, heading: str, partner: str
) -> None:
    """What ``batak play`` says and ``batak online`` did not: the partner at an eşli table,
    who takes each trick (the deal's last one too, before "Deal 1 is over", though the view is
    the next deal's by then), and each deal's heading with its dealer (and who speaks first,
    :func:`test_a_deals_first_speaker_is_said_as_batak_play_says_it`)."""
    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["rules"] = Rules.preset("sultan-esli").to_dict()
    s._partner(s._labels())
    row = {"deal": 1, "dealer": 0, "bidder": 2, "bid": 7, "trump": "C", "tricks": [6, 0, 7, 0]}
    row |= {"scores": [-70, 0, -70, 0], "totals": [-70, 0, -70, 0]}
    st.view = {
        "rules": st.info["rules"],
        "phase": "bidding",
        "dealer": 1,
        "match": {"deal": 2, "deals": 2, "sheet": [row]},
        "tricks": [],
    }
    s.trick_deal, s.tricks_done = 1, 12
    # the last trick's winner as the server's deal_over says it (the session saw no koz named:
    # it sat down after; judged from the cards alone, KH would have won over the 3C ruff)
    last = {"leader": 1, "cards": ["2H", "3C", "AH", "KH"], "winner": 2}
    over = {"deal": 1, "row": row, "tricks": [last]}
    st.events = [
        {"kind": "move", "seat": 1, "move": "2H", "deal": 1},
        {"kind": "move", "seat": 2, "move": "3C", "deal": 1},  # koz: clubs, named before
        {"kind": "move", "seat": 3, "move": "AH", "deal": 1},
        {"kind": "move", "seat": 0, "move": "KH", "deal": 1, "deal_over": over},
    ]
    s._narrate()
    said = out.getvalue()
    assert partner in said.splitlines()[0], said
    assert said.index(took) < said.index("Deal 1" if lang == "en" else "1. el bitti"), said
    assert said.split("\n\n")[-1].startswith(heading), said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_sheet_command_draws_the_score_sheet_as_batak_play_does(lang: str) -> None:
    """'sheet' said one line of points a deal; it draws the score sheet of ``batak play``: the
    bidder, the bid, the koz and each player's tricks, points and total."""
    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["rules"] = Rules.preset("standard").to_dict()
    row = {"deal": 1, "dealer": 0, "bidder": 1, "bid": 5, "trump": "H", "tricks": [3, 5, 3, 2]}
    row |= {"scores": [3, 50, 3, 2], "totals": [3, 50, 3, 2]}
    st.sheet = [row]
    s._sheet()
    lines = out.getvalue().splitlines()
    assert lines[0] == ("Yazboz (score sheet)" if lang == "en" else "Yazboz"), lines
    assert any(" Bot 2 " in x and " 5 " in x and "♥" in x and "+50" in x for x in lines), lines


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("width", [80, 60])
def test_the_help_and_a_review_are_worded_into_the_terminals_width(lang: str, width: int) -> None:
    """The help was one line of some 300 columns, and the server's review lines were printed as
    they came (up to 140 columns): both are broken at spaces into the terminal's width, as
    ``batak play`` words its review."""
    import asyncio

    s, out = session(lang)
    s.style.width = width
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.sheet = [{"deal": 1}]
    long = "Trick 7: you played A♥, which cost a trick; the best was K♥. " * 3

    async def review(table: str, deal: int) -> dict[str, list[str]]:
        return {"lines": [long.strip(), "Short."]}

    async def league() -> dict[str, bool]:
        return {"eligible": False}

    s.client.review = review  # type: ignore[attr-defined]
    s.client.league = league  # type: ignore[attr-defined]
    asyncio.run(s._command("?", None))
    asyncio.run(s._command("review", None))
    asyncio.run(s._command("league", None))  # a guest: why there is no league (104 columns)
    lines = out.getvalue().splitlines()
    assert len(lines) > 6, lines
    assert all(len(x) <= width for x in lines), [x for x in lines if len(x) > width]
    said = " ".join(x.strip() for x in lines)
    assert long.strip() in said and "Short." in lines
    assert ("At any time:" if lang == "en" else "Her zaman:") in said


@pytest.mark.parametrize(
    ("lang", "left", "said"),
    [
        ("en", 14 * 3600 + 5, "Weekly league, week 49 of 2026, Bronze (ends in 14 h):"),
        ("tr", 14 * 3600 + 5, "Haftalık lig (2026, 49. hafta), Bronz (14 saat sonra biter):"),
        ("en", 600, "(ends within the hour):"),
        ("tr", 2 * 86400 + 3600, "(2 gün 1 saat sonra biter):"),
    ],
)
def test_the_league_says_when_it_ends_as_the_web_does(lang: str, left: int, said: str) -> None:
    """ "(ends in 0 d 14 h)" / "(0 gün 14 saat sonra biter)": no day count of 0, and "within the
    hour" in the last one, as the web client says it."""
    import asyncio

    s, out = session(lang)

    async def league() -> dict[str, object]:
        return {"eligible": True, "seconds_left": left, "tier": "bronze", "week": "2026-W49",
                "standings": [], "joined": True}  # fmt: skip

    s.client.league = league  # type: ignore[attr-defined]
    asyncio.run(s._show("league"))
    assert said in " ".join(out.getvalue().split()), out.getvalue()
    assert " 0 d " not in out.getvalue() and "0 gün" not in out.getvalue()


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", ["Bot 2 says 2", "You say 3"]), ("tr", ["Bot 2: söz 2", "Sen: söz 3"])],
)
def test_a_koz_maca_bid_is_said_as_batak_play_says_it(lang: str, said: list[str]) -> None:
    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.view = {"rules": {"kitty_size": 0, "bidding": "kozmaca"}}
    st.events = [
        {"kind": "move", "seat": 1, "move": "bid 2"},
        {"kind": "move", "seat": 0, "move": "bid 3"},
    ]
    s._narrate()
    assert out.getvalue().splitlines() == said


@pytest.mark.parametrize(
    "key",
    [
        *("stake_account", "stake_bot", "stake_cover", "stake_cover_room"),
        *("stake_cover_room_grant", "bad_stake", "stake_adjourn", "not_over"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_refusal_about_chips_reads_on_after_the_colon_as_the_others(key: str, lang: str) -> None:
    """ "The server said no: Staked tables need an account…": the server's other refusals go on
    in lower case after the colon ("The server said no: the table is full"); these do too."""
    from batak.i18n import text

    reason = text(f"server.{key}", lang, stake=10, balance=5, stakes="10, 100", grant=100)
    said = text("online.refused_table", lang, reason=reason)
    assert reason[0].islower() and not reason.endswith("."), said


#: names as long as people's are: a list of them broke the lines of a 60-column terminal
LONG_NAMES = ["Ayşe Yılmaz-Karaoğlu", "Mehmet Ali Öztürk", "Zeynep Çelikkanat", "Bot 4"]


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("width", [80, 60])
def test_the_table_and_the_fair_deals_lines_fit_the_terminals_width(lang: str, width: int) -> None:
    """The lines that passed 60 columns: the seat and its players, each deal's commitment and
    seed (64 hex digits each), the match's end with the record's address and the command that
    verifies it. Each fits ``width``; the commitment, which a player compares with what
    ``batak verify`` prints, is still said in full (on lines of its own), and so is a seed that
    does not match it; an address or a command to copy is never broken (on a line of its own
    when it does not fit, however long)."""
    import hashlib
    import re

    s, out = session(lang)
    s.style.width = width
    s.http = "http://127.0.0.1:18500"
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["seats"] = [{"name": n} for n in LONG_NAMES]
    st.info |= {"code": "4BWR864K", "preset": "sultan-esli"}
    st.info["rules"] = Rules.preset("sultan-esli").to_dict()
    st.record = "/api/tables/t1/record?key=" + "3b5c55dcd14e57f95ecc4afdeb9fe950"
    labels = s._labels()
    seed, other = "ab" * 32, "cd" * 32
    commitment = hashlib.sha256(f"t1:{seed}".encode()).hexdigest()
    row = {"deal": 1, "dealer": 0, "bidder": 2, "bid": 7, "trump": "C", "tricks": [7, 0, 6, 0]}
    row |= {"scores": [70, -7, 70, -7], "totals": [70, -7, 70, -7]}
    st.sheet = [row, {**row, "deal": 2}]
    st.view = {"match": {"winners": [0, 2], "totals": row["totals"]}}

    # as _play says them: the seat, the players, the commitment
    seat = "You sit at table 4BWR864K" if lang == "en" else "4BWR864K masasında"
    s._say(text("online.seated", lang, table="4BWR864K", preset="Batak Sultan · eşli", seat=1))
    s._names("seated_players", labels)
    s._names("players", labels)
    s._commit(1, commitment)
    s._deal_over({"deal": 1, "row": row, "seed": seed, "next_commitment": "ef" * 32}, labels)
    s._deal_over({"deal": 2, "row": {**row, "deal": 2}, "seed": other}, labels)  # no match
    s._finish()
    said = out.getvalue()
    lines = said.splitlines()
    address = re.compile(r"^  (batak verify )?http://\S+$")
    wide = [x for x in lines if len(x) > width and not address.match(x)]
    assert not wide, "\n".join(wide)
    assert said.startswith(seat), said
    # the commitments and the seed that does not match, in full: whole in 80 columns, in
    # groups of 8 digits in 60; the seed that matches, in short
    for full in (commitment, "ef" * 32, other):
        assert full in said.replace(" ", "").replace("\n", ""), said
        assert (f"  {full}\n" in said) == (width == 80), said
    assert seed not in said.replace(" ", "").replace("\n", "") and seed[:16] + "…" in said
    assert "  batak verify http://127.0.0.1:18500/api/tables/t1/record?key=" in said, said


#: names of 12 East Asian wide characters (24 columns), and letters with their marks written as
#: combining characters (more characters than columns)
WIDE_NAMES = [
    "山田太郎鈴木花子佐藤次郎",
    "Ays\u0327e Yi\u0307lmaz-Karaog\u0306lu",
    "東京麻雀倶楽部の山本一郎",
]


def columns(line: str) -> int:
    """The columns ``line`` takes at a terminal: colour codes none, an East Asian wide
    character 2, a combining mark none."""
    import re
    import unicodedata

    plain = re.sub(r"\033\[[0-9;]*m", "", line)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in plain
    )


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("width", [80, 60])
def test_the_seat_lines_fit_the_terminal_with_wide_and_combining_names(
    lang: str, width: int
) -> None:
    """The lines about the seats and their players, counted in a terminal's columns: a name in
    Japanese takes two a character, and widths counted in characters let such a list run past
    the terminal (the players' line, the totals, the winners, the score sheet; its bars not
    one under the other). Every line fits now, the record's address and the command that
    verifies it still whole on lines of their own, and the commitment in full."""
    import hashlib
    import re

    s, out = session(lang)
    s.style.width = width
    s.http = "http://127.0.0.1:18500"
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["seats"] = [{"name": n} for n in ["Ali", *WIDE_NAMES]]
    st.info["seats"][3]["bot_account"] = True  # (with its "(bot)")
    st.info |= {"code": "4BWR864K", "preset": "sultan-esli"}
    st.info["rules"] = Rules.preset("sultan-esli").to_dict()
    st.record = "/api/tables/t1/record?key=" + "3b5c55dcd14e57f95ecc4afdeb9fe950"
    labels = s._labels()
    seed = "ab" * 32
    commitment = hashlib.sha256(f"t1:{seed}".encode()).hexdigest()
    row = {"deal": 1, "dealer": 1, "bidder": 1, "bid": 7, "trump": "C", "tricks": [6, 7, 0, 0]}
    row |= {"scores": [-7, 70, -7, 70], "totals": [-7, 70, -7, 70], "forced": True}
    st.sheet = [row, {**row, "deal": 2, "totals": [-14, 140, -14, 140]}]
    st.view = {"match": {"winners": [1, 3], "totals": [-14, 140, -14, 140]}}

    s._say(text("online.seated", lang, table="4BWR864K", preset="Batak Sultan · eşli", seat=1))
    s._names("seated_players", labels)
    s._names("players", labels)
    s._names("room_seats", labels)
    s._commit(1, commitment)
    s._deal_over({"deal": 1, "row": row, "seed": seed, "next_commitment": "ef" * 32}, labels)
    s._finish()
    said = out.getvalue()
    lines = said.splitlines()
    address = re.compile(r"^  (batak verify )?http://\S+$")
    wide = [x for x in lines if columns(x) > width and not address.match(x)]
    assert not wide, "\n".join(wide)
    assert "  batak verify http://127.0.0.1:18500/api/tables/t1/record?key=" in said, said
    assert "ef" * 32 in said.replace(" ", "").replace("\n", ""), said
    for name in WIDE_NAMES:  # each name whole in the list of players
        assert name in said, (name, said)
    heads = [i for i, x in enumerate(lines) if x.startswith("# ") and "|" in x]
    assert heads, said
    table = [lines[heads[0]], *(x for x in lines[heads[0] + 2 :] if "|" in x)]

    def bars(line: str) -> list[int]:
        plain = re.sub(r"\033\[[0-9;]*m", "", line)
        return [columns(plain[:i]) for i, ch in enumerate(plain) if ch == "|"]

    assert len({tuple(bars(x)) for x in table}) == 1, "\n".join(table)


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("preset", ["standard", "sultan-kozmaca", "zipi-kozmaca"])
def test_a_deals_first_speaker_is_said_as_batak_play_says_it(lang: str, preset: str) -> None:
    """``batak play`` says who speaks first under each deal's heading ("First to speak: Bot 3."),
    or at a table without bidding the koz and who leads; ``batak online`` did not. Both say it
    now with the same words (:func:`batak.cli.console.opening_lines`), but not for the deal
    under way when the player sat down (its first moves were made already)."""
    from batak.cli.console import Narrator, Style
    from batak.game import Game

    rules = Rules.preset(preset)
    n = rules.players
    seats = [{"name": "Ayşe"}, *({"name": f"Bot {i + 1}"} for i in range(1, n))]
    for joined in (False, True):
        s, out = session(lang)
        st = s.client.tables["t1"]  # type: ignore[attr-defined]
        st.info |= {"rules": rules.to_dict(), "seats": seats}
        game = Game(rules, dealer=1, seed=1)
        phase = "play" if rules.bidding == "none" else "bidding"
        st.view = {"match": {"deal": 1, "deals": 2, "sheet": []}, "dealer": 1, "phase": phase}
        st.view |= {"auction": [], "tricks": [], "current_trick": {"leader": 2, "cards": []}}
        st.view |= {"players": n, "contract": None, "trump": game.trump and game.trump.value}
        st.view["rules"] = st.info["rules"]
        if joined:  # the player sat down after the first bid (or the first card)
            st.view["auction"] = [{"seat": 2, "move": "pass"}]
            st.view["current_trick"]["cards"] = ["2C"]
        s._catch_up()
        s._narrate()
        lines = out.getvalue().splitlines()
        played = io.StringIO()  # what batak play says under the same deal's heading
        narrator = Narrator(Console(played, io.StringIO()), s._labels(), lang, Style(None),
                            reveal=False, each_card=False)  # fmt: skip
        narrator.opening(game)
        opening = played.getvalue().splitlines()
        first = {"en": "First to speak: Bot 3.", "tr": "İlk söz: Bot 3."}[lang]
        assert (first in opening) == (rules.bidding != "none"), opening
        assert lines[2:] == ([] if joined else opening), lines


REFUSALS = {
    "en": [
        "No hint — it is not your decision: hints are for your turn",
        "Not adjourned — only the host can adjourn this table",
        "No review — the deal review is busy with other deals; please try again in a moment.",
        "No rematch — the match is not over yet",
        "Not shown — the server failed on that message",
        "Not played — the match is over",
        "Not allowed — a bid must be at least 5",
    ],
    "tr": [
        "İpucu yok — karar sırası sende değil: ipucu yalnızca senin sıranda",
        "Ertelenemedi — bu masayı yalnızca masa sahibi erteleyebilir",
        "İncelenemedi — el incelemesi şu an başka ellerle meşgul; lütfen biraz sonra yeniden dene.",
        "Rövanş yapılamadı — oyun henüz bitmedi",
        "Gösterilemedi — sunucu bu mesajı işlerken hata verdi",
        "Hamle yapılamadı — oyun bitti",
        "Olmaz — ihale en az 5 olmalı",
    ],
}


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_refusal_says_what_did_not_happen_as_a_refused_move_does(lang: str) -> None:
    """A refused move said "Not allowed — …" (as ``batak play`` says it), and everything else
    the server refused "Refused — …": a hint, an adjournment, a review, a rematch. Each is
    worded as a refused move is now, what did not happen and then the server's reason after
    the dash (from a small letter, the review's sentence too), without calling "not allowed"
    what no rule of the game refused: a hint, or a move the server could not take."""
    import asyncio

    from batak.server.client import ServerError

    s, out = session(lang)
    s.style.width = 200  # (a line each; the width is the test's above)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.sheet = [{"deal": 1}]

    def refusing(code: str, **params: object) -> object:
        async def refuse(*args: object, **kwargs: object) -> None:
            said = text(f"server.{code}", lang, **params)
            raise ServerError({"code": code, "message": said})

        return refuse

    client = s.client  # type: ignore[attr-defined]
    client.hint = refusing("hint_turn")
    client.adjourn = refusing("not_host_adjourn")
    client.review = refusing("review_busy")
    client.rematch = refusing("not_over")
    client.progress = refusing("internal")
    asyncio.run(s._hinted("hint"))
    asyncio.run(s._command("adjourn", None))
    asyncio.run(s._command("review", None))
    asyncio.run(s._rematch())  # (the input ends at the question: a no)
    asyncio.run(s._show("progress"))
    s._move_refused("match_over", text("server.match_over", lang))
    s._move_refused("illegal", text("bid_too_low", lang, low=5))
    said = [x for x in out.getvalue().splitlines() if " — " in x]
    assert said == REFUSALS[lang], said


class _LineEditing(Console):
    """A terminal with line editing, ``pa`` typed at the prompt and not entered yet."""

    def _line_editing(self) -> bool:
        return True

    def _typed_so_far(self) -> str:
        return "pa"


@pytest.mark.parametrize(
    ("lang", "players", "lost"),
    [
        ("en", "Players now: You, Bot 2, Cem, Bot 4", "The connection dropped; reconnecting…"),
        ("tr", "Şu an masada: Sen, Bot 2, Cem, Bot 4", "Bağlantı koptu; yeniden bağlanılıyor…"),
    ],
)
def test_who_sits_now_and_a_lost_connection_are_said_above_the_prompt(
    lang: str, players: str, lost: str
) -> None:
    """While the prompt waits for a line (the player's turn, or between turns), "Players now"
    and a lost connection were written over the half-typed line; they go above the prompt, as
    the chat does, and the prompt comes back under them with what was typed."""
    import asyncio

    s, out = session(lang)
    s.con = _LineEditing(out, io.StringIO())
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    s.players_said = s._labels()
    loop = asyncio.new_event_loop()
    try:
        s._reading = loop.create_future()  # a line asked for, not entered yet
        s._shown = text("cli.prompt", lang)
        st.info["seats"][2] = {"name": "Cem"}  # Bot 3 stood up, Cem sat down
        s._narrate()
        s._tell(text("online.lost", lang))
    finally:
        loop.close()
    again = s._shown + "pa"
    assert out.getvalue() == f"\r\033[K{players}\n{again}\r\033[K{lost}\n{again}"


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_table_found_gone_on_coming_back_is_said_and_left(lang: str) -> None:
    """The connection came back and the server said the table is not there any more (a story
    table started over elsewhere meanwhile: ``TableState.lost``): said with the server's words,
    and how to find a table; the session ends there (it waited at the dead table for ever)."""
    import asyncio

    from batak.i18n import text

    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.lost = text("server.story_closed", lang, table="K9EH")
    assert asyncio.run(s._table_closed(st)) is False
    said = " ".join(out.getvalue().split())
    assert text("online.table_gone", lang, reason=st.lost) in said, said
    assert text("online.closed_again", lang, url="127.0.0.1:1") in said, said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_watched_match_that_ended_while_away_is_said_to_have_ended(lang: str) -> None:
    """A watcher back after the match ended meanwhile (``TableState.ended_away``): told that
    the match it watched ended, not "This table is gone", and how to find a table."""
    import asyncio

    from batak.i18n import text

    s, out = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.lost, st.ended_away = text("server.match_over", lang), True
    assert asyncio.run(s._table_closed(st)) is False
    said = " ".join(out.getvalue().split())
    assert text("online.ended_away", lang) in said, said
    assert text("online.table_gone", lang, reason=st.lost) not in said, said
    assert text("online.closed_again", lang, url="127.0.0.1:1") in said, said


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("how", ["closed", "lost"])
def test_leaving_a_table_closed_for_good_does_not_say_the_seat_is_held(lang: str, how: str) -> None:
    """Ctrl-C at "Play it here? (Y/n)" after a story table was started over elsewhere (or at a
    table found gone on coming back) said "your seat is held for a while, then a computer plays
    it": untrue, the table is closed and no seat is held there. It says goodbye."""
    s, _ = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    if how == "closed":
        st.closed = {"type": "closed", "table": "t1", "reason": "story_again", "table_new": "t2"}
        st.info["status"] = "closed"
    else:
        st.lost = text("server.story_closed", lang, table="K9EH")
    assert s.leaving_words() == text("cli.bye", lang)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_bot_account_reading_its_own_table_is_you_and_the_others_bots_are_marked(
    lang: str,
) -> None:
    """A bot account running ``batak online`` called its own seat "You (bot)" in every line
    (the players, its moves, the tricks): its own seat is "You"; another bot account's seat
    still carries its mark."""
    s, _ = session(lang)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["seats"][0]["bot_account"] = True
    st.info["seats"][2] = {"name": "robo3", "bot_account": True}
    labels = s._labels()
    assert labels[0] == text("cli.you", lang), labels
    assert labels[2] == text("online.bot_account_name", lang, name="robo3"), labels


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_sides_line_under_the_contract_fits_a_narrow_terminal(lang: str) -> None:
    """The side's line "X & Y: bid B, taken N" was never worded into the terminal's
    width: with a bot account named at the 24-character limit and its "(bot)" it took 62 to 66
    columns of a 60-column terminal. It is broken between words, as the contract's line above
    it, and a number stays with its word."""
    from batak.cli.console import status_lines
    from batak.game import Game, Phase

    s, _ = session(lang)
    s.style.width = 60
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["seats"][1] = {"name": "Robotrobotrobotrobotrobo", "bot_account": True}
    st.info["seats"][3] = {"name": "Zeynep Çelikkanat"}
    g = Game(Rules.preset("sultan-esli"), seed=3)
    while g.phase is not Phase.PLAY:  # seat 1 bids, the others pass: its side is named
        moves = [str(m) for m in g.legal_moves()]
        bid = next((m for m in moves if m.startswith("bid ")), moves[0])
        g.play(bid if g.to_move == 1 else "pass" if "pass" in moves else moves[0])
    view = g.view(0)
    assert view["contract"]["bidder"] == 1 and view["rules"]["partners"], view["contract"]
    lines = status_lines(view, s._labels(), lang, s.style)
    wide = [x for x in lines if len(x) > 60]
    assert not wide, "\n".join(wide)
    # a number stays with its word ("ihale 7" was broken between the two)
    ends = ("ihale", "gereken", "löve", "bid", "needed", "taken")
    assert not [x for x in lines if x.endswith(ends)], "\n".join(lines)
    said = " ".join(" ".join(lines).split())
    who = text("online.bot_account_name", lang, name="Robotrobotrobotrobotrobo")
    assert who in said and "Zeynep Çelikkanat" in said, said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_end_of_the_input_at_play_it_here_ends_the_prompts_line(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Ctrl-D at "Play it here? (Y/n)" (a story table started over elsewhere) left the next
    words on the prompt's line; the line ends first, as it does at the other prompts."""
    import asyncio

    s, out = session(lang)
    s.con = terminal(monkeypatch, out)
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.closed = {"type": "closed", "table": "t1", "reason": "story_again", "table_new": "t2"}
    assert asyncio.run(s._table_closed(st)) is False
    said = out.getvalue()
    prompt = text("online.closed_new_prompt", lang)
    assert prompt + "\n" in said, said
    later = " ".join(text("online.closed_later", lang, url="127.0.0.1:1").split())
    assert later in " ".join(said.split(prompt, 1)[1].split()), said


def terminal(monkeypatch: pytest.MonkeyPatch, out: io.StringIO) -> Console:
    """The console of a person at a terminal who presses Ctrl-D at the first prompt: input()
    shows the prompt and raises EOFError with the prompt's line left open (no newline)."""
    import builtins
    import sys

    import batak.cli.console as console

    def ctrl_d(prompt: str = "") -> str:
        out.write(prompt)
        raise EOFError

    inp = io.StringIO()
    monkeypatch.setattr(sys, "stdin", inp)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(console, "_isatty", lambda stream: True)
    monkeypatch.setattr(builtins, "input", ctrl_d)
    return Console(out, inp)


def _no_change(timeout: float) -> asyncio.Future[None]:
    """The table's next message: none comes (the reading ends first)."""
    return asyncio.get_running_loop().create_future()


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("where", ["resume", "move", "between_turns"])
def test_the_end_of_the_input_ends_the_prompts_line(
    monkeypatch: pytest.MonkeyPatch, lang: str, where: str
) -> None:
    """Ctrl-D at the resume prompt, at the move prompt and between turns left the next words
    ("You left the table.") on the prompt's line at a terminal; the line ends first, as it
    does at "Play it here? (Y/n)", and with no empty line where no prompt is shown."""
    from batak import Game
    from batak.cli.text import t

    s, out = session(lang)
    s.con = terminal(monkeypatch, out)
    s.client.closed = False  # type: ignore[attr-defined]
    s.client.change_waiter = _no_change  # type: ignore[attr-defined]
    s.client.player = {"id": "me"}  # type: ignore[attr-defined]
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    g = Game(Rules.preset("standard"), seed=1, dealer=3)  # seat 0 speaks first
    st.view = g.view(0)
    st.info["status"] = "playing"
    if where == "resume":  # the host of an adjourned match is asked whether to resume it
        st.info.update(status="adjourned", host="me")
        prompt = text("online.resume_prompt", lang)
        left = asyncio.run(s._adjourned(st))
    elif where == "move":
        prompt = t("prompt", lang)
        left = asyncio.run(s._ask())
    else:  # between turns: the move prompt's reading goes on when the table moves on
        g.play("pass")
        st.view = g.view(0)
        prompt = ""
        left = asyncio.run(s._wait_turn())
    assert left is False  # the caller says that the player left, on a line of its own
    s._say(text("online.left", lang))
    said = out.getvalue()
    at = said.rindex(text("online.left", lang).split()[0])  # where the words start
    assert at == 0 or said[at - 1] == "\n", said  # on a line of their own
    assert said[:at].endswith(prompt + "\n") if prompt else True, said
    assert not said[:at].endswith("\n\n"), said  # and no empty line above them


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("width", [60, 80])
def test_the_resume_prompt_fits_the_terminal(
    monkeypatch: pytest.MonkeyPatch, lang: str, width: int
) -> None:
    """The host's prompt at an adjourned match took 73 columns (74 in Turkish), which a
    60-column terminal broke anywhere: "This match is adjourned." is a line of its own above
    the prompt, which fits."""
    s, out = session(lang)
    s.con = terminal(monkeypatch, out)
    s.style.width = width
    s.client.closed = False  # type: ignore[attr-defined]
    s.client.change_waiter = _no_change  # type: ignore[attr-defined]
    s.client.player = {"id": "me"}  # type: ignore[attr-defined]
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info.update(status="adjourned", host="me")
    assert asyncio.run(s._adjourned(st)) is False  # (Ctrl-D at the prompt)
    lines = out.getvalue().splitlines()
    assert lines == [text("online.resume_adjourned", lang), text("online.resume_prompt", lang)]
    assert max(len(x) for x in lines) <= width, lines


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_end_of_the_input_at_the_password_prompt_ends_its_line(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The password is read by getpass, not the console: Ctrl-D there left "Password: " open,
    and the shell's prompt came on its line."""
    import getpass

    s, out = session(lang)
    s.con = terminal(monkeypatch, out)
    s.args = argparse.Namespace(url="127.0.0.1:1", username="ayse", password=None)
    s.client.player = {}  # type: ignore[attr-defined]
    monkeypatch.delenv("BATAK_PASSWORD", raising=False)

    def ctrl_d(prompt: str = "Password: ", stream: object = None) -> str:
        out.write(prompt)
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", ctrl_d)
    with pytest.raises(EOFError):
        asyncio.run(s._account())
    assert out.getvalue() == text("online.password_prompt", lang) + "\n"


#: a username as wide as the server allows: 32 wide characters, 64 columns
WIDE = ("東京大阪札幌福岡神戸京都" * 3)[:32]


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_name_wider_than_the_line_is_never_cut_in_a_sentence(lang: str) -> None:
    """At 60 columns a username of 32 wide characters was cut inside a sentence: the line
    filled with its first 30, the next began with an indent and its last two ("Account 東京…岡"
    / "  山東京 created"), two words that read (and copy) as two. A name is kept whole on a
    line of its own, which the terminal wraps as one run; a sentence's other words still wrap
    at spaces, and a long text without spaces (a chat line in Japanese) is still cut."""
    from batak.cli.console import Narrator, Style, status_lines, wrap_text

    s, out = session(lang)
    s.style.width = 60
    st = s.client.tables["t1"]  # type: ignore[attr-defined]
    st.info["seats"][1] = {"name": WIDE}
    s._say(text("online.back", lang, who=WIDE))  # at the table: known without being told
    style = Style(None)
    style.width = 60
    labels = ["Sen" if lang == "tr" else "You", WIDE, "Bot 3", "Bot 4"]
    Narrator(s.con, labels, lang, style, reveal=False, each_card=False, own_seat=0)._say(
        text("cli.won_auction", lang, who=WIDE, bid=7)
    )
    lines = out.getvalue().splitlines()
    assert sum(WIDE in line for line in lines) == 2, lines
    assert not any(WIDE[:10] in line and WIDE not in line for line in lines), lines
    view = {
        "rules": {"bidding": "auction", "partners": False}, "players": 4, "phase": "play",
        "auction": [], "trump": "S", "trumps_broken": False, "tricks_won": [0, 0, 0, 0],
        "contract": {"bidder": 1, "bid": 7}, "tricks": [], "exposed": None, "hand": [],
        "current_trick": {"cards": [], "leader": 0}, "buried": None, "legal_moves": [],
    }  # fmt: skip
    shown = status_lines(view, labels, lang, style)
    assert sum(WIDE in line for line in shown) >= 2, shown  # the contract, the side's tricks
    assert not any(WIDE[:10] in line and WIDE not in line for line in shown), shown
    chat = wrap_text("Ayşe: " + "東京の卓で不正をした" * 5, 60)
    assert len(chat) > 1 and all(len(x) <= 60 for x in chat), chat
    # a username said before sitting down, or typed: the sentence is told it is a name
    s.table = ""
    s._say(text("online.registered", lang, username=WIDE), WIDE)
    s._say(text("online.invite_sent", lang, username=WIDE), WIDE)
    lines = out.getvalue().splitlines()[len(lines) :]
    assert sum(WIDE in line for line in lines) == 2, lines


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_table_s_title_is_not_put_in_brackets_inside_brackets(lang: str) -> None:
    """A table's title has brackets of its own ("Standart (yaygın kurallar · ihaleli)"): the
    first line at a table and the way back to an unfinished match put it in more, "9QGQ39HW
    masasında (Standart (yaygın kurallar · ihaleli)) 1. koltuktasın". It stands after a dash
    now. And the Turkish help's "ihalede sayı teklifindir: 7, ihale 7 demek" is a sentence."""
    title = text("title.standard", lang)
    assert "(" in title  # (the case in point)
    seated = text("online.seated", lang, table="9QGQ39HW", preset=title, seat=1)
    back = text("online.unfinished_first", lang, table="9QGQ39HW", preset=title)
    for said in (seated, back):
        assert "((" not in said and "))" not in said and f"— {title}" in said, said
    assert seated.startswith(
        {"en": "You sit at table 9QGQ39HW ", "tr": "9QGQ39HW masasında 1."}[lang]
    )
    if lang == "tr":
        assert "ihalede yazdığın sayı teklifindir: 7, ihale 7 demektir)" in text(
            "online.commands", lang
        )


@pytest.mark.parametrize(
    ("lang", "word"), [("en", "save"), ("tr", "kaydet"), ("tr", "kaydet mac.json")]
)
def test_save_at_a_server_s_table_says_the_server_keeps_the_match(lang: str, word: str) -> None:
    """'kaydet' is how batak play saves a match; typed at a server's table it was answered
    "not a move here", as a typo. It is a command there too now, and says that the server keeps
    the match and gives its record's address when it is over."""
    s, out = session(lang)
    assert asyncio.run(s._command(word, None)) is True
    said = " ".join(out.getvalue().split())
    assert said == text("online.save_online", lang), said
    assert "batak replay" in said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_last_at_a_new_deal_s_start_shows_the_previous_deal_s_trick(lang: str) -> None:
    """'son' / 'last' before a new deal's first trick said "No trick yet in this deal." though
    the table (standard, CetinsGame: the last trick at any time) sends the previous deal's in the
    view's last_trick. It is shown, named by its deal."""
    s, _ = session(lang)
    trick = {"leader": 0, "cards": ["2H", "KH", "3H", "4H"], "winner": 1, "deal": 1}
    view = {"kind": "play", "players": 4, "tricks": [], "last_trick": trick}
    said = "\n".join(s._last_trick(view))
    assert said.startswith({"en": "Last trick of deal 1:", "tr": "1. elin son lövesi:"}[lang])
    assert "K♥" in said and "Bot 2" in said, said
    view["last_trick"] = None  # a table that shows a deal's last trick during that deal only
    assert s._last_trick(view) == [
        {"en": "No trick yet in this deal.", "tr": "Bu elde henüz löve yok."}[lang]
    ]


@pytest.mark.parametrize(
    ("lang", "head", "tail"),
    [
        ("en", "Last trick: ", "— Bot 2 takes the trick."),
        ("tr", "Son löve: ", "— Löveyi Bot 2 aldı."),
    ],
)
def test_last_goes_on_under_its_first_card_as_batak_play_says_it(
    lang: str, head: str, tail: str
) -> None:
    """'son' / 'last' at 60 columns went on at a 2-column indent ("  — Bot 2 takes the
    trick."), which read as a line of its own. It goes on under its first card, as the hand
    goes on under its first suit and as ``batak play`` says it."""
    s, _ = session(lang)
    s.style.width = 60
    trick = {"leader": 0, "cards": ["2H", "KH", "3H", "4H"], "winner": 1}
    view = {"kind": "play", "players": 4, "tricks": [trick], "last_trick": trick}
    said = s._last_trick(view)
    assert said[0].startswith(head) and "4♥" in said[0], said
    assert said[1:] == [" " * len(head) + tail], said
