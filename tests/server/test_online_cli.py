"""``batak online``: the terminal client plays a real server's table to the end, and the same
player (its token kept in ``BATAK_HOME``) comes back to an unfinished table after quitting."""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import re
import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import ServerThread, fast_config

from batak.cli import build_parser
from batak.cli.console import Console
from batak.cli.online import run_online


def _run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    args: argparse.Namespace = build_parser("en").parse_args(["online", *argv])
    out = io.StringIO()
    code = run_online(args, Console(out, io.StringIO("".join(x + "\n" for x in lines))), "en")
    return code, out.getvalue()


@pytest.mark.parametrize("everyone_passes", [False, True])
def test_a_terminal_player_creates_a_room_and_plays_it_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, everyone_passes: bool
) -> None:
    """The server deals at random, so now and then all four seats said pas (the bots and the
    hint's move) and the deal's line was "… had the contract of 4 (nobody bid) …", which the
    test did not expect: it failed. Whichever way the auction goes, its line is checked; and
    one run makes everyone pass (the bots pass in the auction, the player types pas), so the
    contract the standard rules give the dealer at 4 is checked every time."""
    from batak.server.bots import ServerBot

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    if everyone_passes:
        choose = ServerBot.choose

        def passes(self: ServerBot, view: Any) -> str:
            return "pass" if "pass" in view["legal_moves"] else choose(self, view)

        monkeypatch.setattr(ServerBot, "choose", passes)
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        # commands in Turkish capitals are commands: İPUCU is ipucu, YAZBOZ is yazboz
        script = ["", "?", "zz", "stats", "bid 1", "İPUCU", "last", "YAZBOZ"]
        script += ["pass"] * everyone_passes + ["!"] * 80
        code, out = _run(
            [srv.http, "--create", "standard", "--deals", "1", "--name", "Ayşe"], script
        )
        assert code == 0, out
        assert "Private room " in out and "/join/" in out
        assert "Players: You, Bot 2, Bot 3, Bot 4" in out
        assert "At your turn:" in out  # the help, at the start and after '?'
        # 'zz' and 'bid 1' are answered as batak play answers them
        assert "“zz” is not a move here. Your moves: " in out
        # a word that is no command is said to be one (it was "“stats” is not a move here")
        assert "Unknown command “stats”: '?' or 'help' lists the commands.\nYour moves: " in out
        assert "Not allowed — a bid must be at least " in out
        assert "Hint — " in out
        assert "No deal finished yet." in out  # YAZBOZ before the first deal's end
        # the deal's contract and how it went, not only the points: bid, or (everyone said
        # pas) given to the dealer at the lowest bid, 4
        given = re.search(
            r"\nEveryone said pas: the contract (goes to Bot \d at 4|is yours at 4)\.\n", out
        )
        assert given or not everyone_passes, out
        if given:
            result = (
                r"\n(You|Bot \d) had the contract of 4 \(nobody bid\) and took \d+: (made|down)"
            )
            assert "The ihale is won by" not in out and "You win the ihale" not in out, out
        else:
            result = r"\n(You|Bot \d) bid \d+ and took \d+: (made|down)"
            assert re.search(r"The ihale is won by Bot \d at \d+\.|You win the ihale at \d+\.", out)
        assert re.search(result, out), out
        assert "Deal 1 is over." in out and re.search(
            r"The match is over\. (Winners?:|You won!)", out
        )
        # as batak play follows a deal: its heading, the auction's end, who takes each trick
        # (the last one too, before the deal's end), the score sheet at the match's end
        assert "── Deal 1 of 1 ── dealer: " in out, out
        before_end = out.split("Deal 1 is over.", 1)[0]
        assert len(re.findall(r"^(You take|Bot \d takes) the trick\.$", before_end, re.M)) == 13
        assert re.search(r"(You take|Bot \d takes) the trick\.\n$", before_end), before_end
        assert "Yazboz (score sheet)" in out.split("Deal 1 is over.", 1)[1], out
        # verifiable deals (issue 12): the commitment before (in full, on a line of its own),
        # the seed checked after
        assert re.search(r"Deal 1 is committed \(.*\):\n  [0-9a-f]{64}\n", out), out
        assert "Deal 1's seed " in out and "matches the commitment given before it." in out
        assert "Check every deal:\n  batak verify http" in out  # (too long for one line of 80)
        url = out.rsplit("The game record:", 1)[1].split()[0]
        with urllib.request.urlopen(url) as r:
            record = json.load(r)
        assert record
        saved = json.loads((tmp_path / "home" / "online.json").read_text())
        assert list(saved) == [srv.url]


class _Terminal(io.StringIO):
    """The output of a terminal (its width is ``COLUMNS``)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("width", [60, 80])
def test_every_line_of_a_match_fits_a_narrow_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """The room's line with its invitation link (73 columns), the start help (165), the seat
    and its players (90), each commitment and seed (with 64 hex digits each: 119), the hint,
    the record's address and the command that verifies it passed 60 columns. In both
    languages every line fits now, but for an address or a command to copy (never broken: on
    a line of its own) and the line typed at a prompt (the terminal's). A bot account plays
    at the table: every line that names it says it is a program ("robo (bot)"), and still
    fits."""
    import asyncio

    from batak.i18n import text
    from batak.server.client import Client, random_move

    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("NO_COLOR", "1")
    script = ["robo", "", "?", "zz", "bid 1", "hint", "last", "sheet", "review", *["!"] * 80]
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        online = threading.Event()

        async def greet(c: Client, table: str, greeted: list[bool], view: dict[str, Any]) -> str:
            if not greeted:  # a word at its first turn (the match has begun)
                greeted.append(True)
                await c.chat(table, "iyi oyunlar")
            return random_move(view)

        async def robot() -> None:  # a bot account, invited to each match by its username
            async with Client(srv.url, name="robo") as c:
                await c.register("robo", "uzun-bir-parola", bot=True)
                online.set()
                while True:
                    note = await c.wait_for(lambda m: m.get("type") == "invited", None)
                    state = await c.join(code=note["code"])
                    await c.play(state.id, functools.partial(greet, c, state.id, []))

        threading.Thread(target=lambda: asyncio.run(robot()), daemon=True).start()
        assert online.wait(30)
        for lang in ("en", "tr"):
            argv = ["online", srv.http, "--create", "sultan-esli", "--deals", "1"]
            args = build_parser(lang).parse_args([*argv, "--name", "Ayşe Yılmaz", "--lang", lang])
            out = _Terminal()
            typed = io.StringIO("".join(x + "\n" for x in script))
            assert run_online(args, Console(out, typed), lang) == 0, out.getvalue()
            prompts = tuple(
                text(key, lang)
                for key in ("cli.prompt", "online.start_prompt", "online.rematch_prompt")
            )
            lines = [x for x in out.getvalue().splitlines() if not x.startswith(prompts)]
            wide = [x for x in lines if len(x) > width]
            assert all(re.match(r"^  (batak verify )?http://\S+$", x) for x in wide), wide
            said = "\n".join(lines)
            if width == 60:  # a commitment, on lines of four groups; (at 80: of eight)
                assert re.search(r"\n  [0-9a-f]{8}( [0-9a-f]{8}){3}\n", said), said
                assert len(wide) == 2, wide  # the record's address and the command
            # from the seat on, robo is a program wherever it is named: its moves, the tricks
            # it takes, the deal's points and totals, the table drawn at each turn (but in the
            # score sheet's narrow columns, cut to 8 characters: "|" parts them)
            seated = text("online.seated_players", lang, names="").strip()
            after = said.split(seated, 1)[1].splitlines()
            at_table = " ".join(" ".join(x for x in after if "|" not in x).split())
            assert "robo (bot): " in at_table, at_table  # a move, a score
            assert text("online.chat", lang, who="robo (bot)", text="iyi oyunlar") in at_table
            assert not re.search(r"robo(?! \(bot\))", at_table), at_table


def test_the_same_player_comes_back_to_an_unfinished_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        code, out = _run([srv.http, "--create", "standard", "--deals", "1"], ["", "!", "quit"])
        assert code == 0
        assert "You left the table" in out
        table = out.split("You sit at table ", 1)[1].split()[0]
        # no table given: the player's unfinished table is where it goes
        code, out = _run([srv.http], ["!"] * 80)
        assert code == 0, out
        assert f"You sit at table {table} " in out
        assert "The match is over." in out


def test_an_unreachable_server_is_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    code, out = _run(["http://127.0.0.1:9"], [])
    assert code == 1
    assert "Could not reach the server at ws://127.0.0.1:9/ws" in out


def test_a_terminal_player_logs_in_and_plays_a_staked_quick_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chips (issue 12): ``--username``/``--password`` and ``--stake``: the grant, the stake,
    what the match paid and the balance after it, in both languages."""
    import asyncio

    pytest.importorskip("argon2")
    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    cfg = fast_config(tmp_path / "data", quick_deals=1, daily_grant=2000)
    with ServerThread(cfg) as srv:

        async def register() -> None:
            async with Client(srv.url) as c:
                await c.register("terminal", "uzun-bir-parola")

        asyncio.run(register())
        argv = [srv.http, "--username", "terminal", "--password", "uzun-bir-parola"]
        code, out = _run([*argv, "--quick", "ihaleli", "--stake", "1000"], ["!"] * 80)
        assert code == 0, out
        assert "Today's gift: +2,000 chips. Your chips: 2,000." in out
        assert "Stake: 1,000 chips each, taken when the match starts." in out
        # alone with house bots the pot is the person's stake: a win brings it back less the fee
        said = " ".join(out.split())  # (sentences are worded into the terminal's width)
        won = "you get back 950 of your 1,000 chips (\u221250; table fee 50)." in said
        assert won or "Your stake of 1,000 chips is lost." in said, out
        assert "The house bots put nothing in, so the pot held only" in said or not won
        balance = out.rsplit("Your chips: ", 1)[1].split(".")[0]
        assert int(balance.replace(",", "")) == 1000 + (950 if won else 0)
        args = build_parser("tr").parse_args(["online", *argv, "--quick", "acik", "--stake", "100"])
        out_tr = io.StringIO()
        lines = io.StringIO("".join("!\n" for _ in range(200)))
        assert run_online(args, Console(out_tr, lines), "tr") == 0
        text = out_tr.getvalue()
        assert "Bahis: kişi başı 100 çip" in text and "Kasa: " in text
        assert "Çipin: " in text


def test_quick_play_names_each_seat_the_same_in_the_list_and_in_the_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10, item 18: a quick table's seats are empty when the player sits; the bots that
    fill them later were "Player 2" in the list and "Bot 4" in the moves. Now an empty seat is
    said to be empty and the list is said again, as the moves name the players."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        code, out = _run([srv.http, "--quick", "ihaleli"], ["!"] * 6 + ["quit"])
    assert code == 0, out
    assert "Player 2" not in out and "Player 3" not in out, out
    lists = [line.split(": ", 1)[1] for line in out.splitlines() if "Players" in line]
    assert lists, out
    names = set(lists[-1].split(", "))
    assert len(names) == 4 and "You" in names, lists
    # the seats named in the moves ("Bot 3: 7♠") are the ones the last list names
    movers = set(re.findall(r"^(Bot \d|Player \d): ", out, re.M))
    assert movers, out
    assert movers <= names, (movers, names)
    # said once while the seats fill, not again at each one that does
    assert out.count("Waiting for the match to start") == 1, out


class _Answers(io.StringIO):
    """Input that answers the rematch prompt (yes, then no) and asks for the hint's move at
    every other prompt, looking at what the program last wrote."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out, self.rematches, self.lines = out, 0, 0

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        if self.lines > 400:
            return ""
        if self.out.getvalue().endswith("Username, or Enter to start: "):
            return "\n"  # start the room without inviting anyone
        if self.out.getvalue().rstrip().endswith("(y/n)"):
            self.rematches += 1
            return "y\n" if self.rematches == 1 else "n\n"
        return "!\n"


def _one_deal_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: Callable[[io.StringIO], io.StringIO]
) -> tuple[int, str]:
    """A private room of one deal on a real server, the input from ``answers(out)``: the exit
    code and everything written."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    # (a review's content is checked, not its speed: on a loaded CI machine the default 20 s
    # ran out once and the review said only that it stopped early)
    config = fast_config(tmp_path / "data", review_seconds=100.0)  # (client waits 120 s)
    with ServerThread(config) as srv:
        args = build_parser("en").parse_args(
            ["online", srv.http, "--create", "standard", "--deals", "1", "--name", "Ayşe"]
        )
        out = io.StringIO()
        code = run_online(args, Console(out, answers(out)), "en")
        return code, out.getvalue()


def test_a_terminal_player_asks_for_a_rematch_and_plays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, text = _one_deal_match(tmp_path, monkeypatch, _Answers)
    assert code == 0, text
    assert text.count("Another match with the same players and rules? (y/n)") == 2, text
    assert "Everyone agreed: the new match starts." in text
    assert text.count("The match is over") == 2
    assert text.count("At your turn:") == 1, text  # the help once, not again at the rematch
    # the second match is a table of its own, with its own record
    records = re.findall(r"The game record:\s+(\S+)", text)
    assert len(records) == 2 and records[0] != records[1]


class _ReviewAnswers(io.StringIO):
    """Input that asks for a review at its first turn (no deal has finished yet), then plays the
    hint's move, and at the rematch question asks for the review of the last deal, then says no."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out, self.lines, self.asked, self.turns = out, 0, False, 0

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        if self.lines > 400:
            return ""
        if self.out.getvalue().endswith("Username, or Enter to start: "):
            return "\n"
        said = self.out.getvalue().rstrip()
        if said.endswith("Your move>"):
            self.turns += 1
            if self.turns == 1:
                return "review\n"
        if said.endswith("(y/n)"):
            if not self.asked:
                self.asked = True
                return "review\n"
            return "n\n"
        return "!\n"


def test_a_terminal_player_reviews_the_last_deal_at_the_rematch_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, text = _one_deal_match(tmp_path, monkeypatch, _ReviewAnswers)
    assert code == 0, text
    assert "No deal has finished yet: there is nothing to review." in text
    after = text.split("The match is over", 1)[1]
    review = after.split("Reviewing deal 1 (every card with all hands in view)…", 1)[1]
    # (the bidder's line; after four passes the contract was given: "held the contract at 4")
    bidding = r"(bid|held the contract at) \d+; with every hand in view and the best defence"
    assert re.search(bidding, " ".join(review.split())), review  # (as one line: it wraps)
    # asked again after the review, then answered
    assert after.count("Another match with the same players and rules? (y/n)") == 2


def test_the_host_of_a_new_room_invites_a_bot_account_by_its_username(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``batak online --create``: a username typed at the start prompt invites that account
    (refused with the server's reason for someone not online); the seats are said once the
    invited bot account sits down, and it plays the match with the host to the end."""
    import asyncio
    import threading

    pytest.importorskip("argon2")
    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        online = threading.Event()
        played: list[bool] = []

        async def robot() -> None:
            async with Client(srv.url, name="robo") as c:
                await c.register("robo", "uzun-bir-parola", bot=True)
                online.set()
                note = await c.wait_for(lambda m: m.get("type") == "invited", 60)
                state = await c.join(code=note["code"])
                await c.play(state.id, timeout=120)
                played.append(True)

        thread = threading.Thread(target=lambda: asyncio.run(robot()), daemon=True)
        thread.start()
        assert online.wait(30)
        script = ["nobody", "robo", "", *["!"] * 80]
        code, out = _run([srv.http, "--create", "standard", "--deals", "1"], script)
        thread.join(60)
        assert code == 0, out
        assert "type their username" in " ".join(out.split())  # (worded into 80 columns)
        assert "Bot accounts online now: robo" in out
        assert "Could not invite nobody: 'nobody' is not online now" in out
        assert "Invited robo: they take an empty seat when they accept." in out
        # marked as a program in every list of players (it used to read as a person)
        assert "At the table: You, robo (bot), empty seat 3, empty seat 4" in out
        assert "Players: You, robo (bot), Bot 3, Bot 4" in out
        assert "The match is over." in out
        assert played == [True]


def test_a_terminal_player_waits_to_be_invited_and_plays_the_hosts_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``batak online --invited``: an account waits; each invitation asks whether to join (the
    first is declined, the second taken); the player sits at the host's room and plays the match
    to the end. A guest is told that only an account can be invited."""
    import asyncio
    import threading

    pytest.importorskip("argon2")
    from harness import invite_when_online

    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BATAK_PASSWORD", "uzun-bir-parola")
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        code, out = _run([srv.http, "--invited"], [])
        assert code == 1 and "Only players with an account can be invited" in out, out
        assert _run([srv.http, "--invited", "--join", "ABCD"], [])[0] == 2

        async def account() -> None:
            async with Client(srv.url, name="Ali") as c:
                await c.register("ali", "uzun-bir-parola")

        asyncio.run(account())
        played: list[bool] = []

        async def host() -> None:
            async with Client(srv.url, name="Ayşe") as c:
                _, state = await c.create(preset="sultan-esli", deals=1)
                await invite_when_online(c, state.id, "ali")  # declined
                await asyncio.sleep(0.5)
                await c.invite(state.id, "ali")
                await c.until(lambda: "Ali" in [s["name"] for s in state.info["seats"]], 60)
                await c.start(state.id)
                await c.play(state.id, timeout=120)
                played.append(True)

        thread = threading.Thread(target=lambda: asyncio.run(host()), daemon=True)
        thread.start()
        script = ["n", "", *["!"] * 80]
        code, out = _run([srv.http, "--username", "ali", "--invited"], script)
        thread.join(60)
        assert code == 0, out
        assert "Waiting for someone to invite ali." in out
        assert out.count("Ayşe invites you to a table: Batak Sultan · eşli. Join? (Y/n)") == 2
        assert "The match is over." in out
        assert played == [True]


def test_a_terminal_player_hosts_the_room_when_its_host_leaves_before_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``batak online --join CODE``: the host leaves before the start; the terminal player is
    told they host the room now, gets the start prompt, and starts and plays the match."""
    import asyncio
    import threading

    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        made: list[str] = []
        ready = threading.Event()

        async def host() -> None:
            async with Client(srv.url, name="Ayşe") as c:
                created, state = await c.create(preset="standard", deals=1)
                made.append(created["code"])
                ready.set()
                await c.until(lambda: "Ben" in [s["name"] for s in state.info["seats"]], 60)
                await c.leave(state.id)

        thread = threading.Thread(target=lambda: asyncio.run(host()), daemon=True)
        thread.start()
        assert ready.wait(30)
        code, out = _run([srv.http, "--join", made[0], "--name", "Ben"], ["", *["!"] * 80])
        thread.join(60)
        assert code == 0, out
        assert "The host left: you host this room now." in out
        assert "Username, or Enter to start: " in out
        assert "The match is over." in out


class Typist(Console):
    """A person at a terminal: lines come when the test types them, not all at once, and a
    line may be typed while it is another player's turn."""

    def __init__(self) -> None:
        import queue

        super().__init__(io.StringIO(), io.StringIO())
        self.typed: queue.Queue[str | None] = queue.Queue()
        self.prompts = 0

    @property
    def interactive(self) -> bool:
        return True

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.prompts += 1
        line = self.typed.get(timeout=120)
        if line is None:
            raise EOFError
        self.out.write(line + "\n")
        return line

    def wait_for(self, text: str, timeout: float = 60) -> str:
        import time

        deadline = time.monotonic() + timeout
        while text not in self.out.getvalue():
            assert time.monotonic() < deadline, f"{text!r} never came:\n{self.out.getvalue()}"
            time.sleep(0.02)
        return self.out.getvalue()

    def play_hints_until(self, text: str, timeout: float = 120) -> None:
        """Type '!' (play the hint) at each of the player's prompts until ``text`` shows."""
        import time

        deadline = time.monotonic() + timeout
        answered = 0
        while text not in self.out.getvalue():
            assert time.monotonic() < deadline, f"{text!r} never came:\n{self.out.getvalue()}"
            out = self.out.getvalue()
            if out.endswith("Your move> ") and out.count("Your move> ") > answered:
                answered = out.count("Your move> ")
                self.typed.put("!")
            time.sleep(0.02)


def test_quick_play_with_a_match_unfinished_says_why_it_goes_back_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--quick ihaleli`` with a Koz Maça match unfinished sat the player at the Koz Maça table
    without a word; ``--quick foo`` was not refused. Both are said."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        code, out = _run([srv.http, "--quick", "foo"], [])
        assert code == 1 and "unknown mode 'foo'; modes: ihaleli, kozmaca" in out, out
        code, out = _run([srv.http, "--quick", "kozmaca"], ["quit"])
        assert code == 0, out
        table = out.split("You sit at table ", 1)[1].split()[0]
        code, out = _run([srv.http, "--quick", "ihaleli"], ["quit"])
        assert code == 0, out
        said = " ".join(out.split())  # (worded into 80 columns)
        assert f"Your match at table {table} — " in said and "is not finished: back to it" in said
        assert f"You sit at table {table} " in out, out


def _run_typist(argv: list[str], con: Typist) -> tuple[threading.Thread, list[int]]:
    args: argparse.Namespace = build_parser("en").parse_args(["online", *argv])
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(run_online(args, con, "en")))
    thread.start()
    return thread, codes


def test_the_prompt_ends_when_the_clock_plays_and_a_move_typed_early_is_not_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a terminal the prompt waited for a line while the clock played for the player, and
    showed nothing; a move typed during another's turn was played at the next turn unseen.
    Now the clock's move is said at once, a move typed early is refused ('not your turn'),
    the commands work between turns, and the player's own moves are said too."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(
        fast_config(tmp_path / "data", decision_seconds=1.0, bank_seconds=0.0)
    ) as srv:
        con = Typist()
        thread, codes = _run_typist([srv.http, "--quick", "ihaleli", "--name", "Ayşe"], con)
        con.wait_for("Your turn")
        con.wait_for("(time ran out)", timeout=30)  # nothing typed: the clock played
        assert "You: " in con.out.getvalue()  # the move the clock made for this seat
        # now something typed answers whatever is asked by then; typed at another's turn,
        # a move is refused and a command works
        con.typed.put("sheet")
        con.wait_for("No deal finished yet.")
        con.typed.put("quit")
        thread.join(30)
        assert codes == [0], con.out.getvalue()


def test_chat_is_said_while_the_prompt_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the player's own turn the prompt waited for a line without saying what came: the
    others' chat, and the player's own 'say', showed only after the next move. Now they are
    said as they come, above the prompt, which is shown again under them."""
    import asyncio

    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        con = Typist()
        thread, codes = _run_typist([srv.http, "--create", "standard", "--deals", "1"], con)
        out = con.wait_for("Username, or Enter to start: ")
        code = re.search(r"Private room (\w+)", out)
        assert code, out
        con.typed.put("")
        con.wait_for("Your move> ")
        con.typed.put("say merhaba")
        out = con.wait_for("You say: merhaba")  # nothing typed after it
        assert out.endswith("You say: merhaba\nYour move> "), out

        async def watcher() -> None:  # the table is full: Ben watches, and chats
            async with Client(srv.url, name="Ben") as c:
                state = await c.join(code=code[1])
                await c.chat(state.id, "pas")
                await asyncio.sleep(0.5)

        asyncio.run(watcher())
        out = con.wait_for("Ben says: pas")
        assert out.endswith("Ben says: pas\nYour move> "), out
        con.typed.put("quit")
        thread.join(30)
        assert codes == [0], con.out.getvalue()


class _LineEditor(Typist):
    """A terminal with line editing, ``pa`` typed and not entered yet: a line said above the
    prompt clears the prompt's line and shows it again, with ``pa``, under the line said."""

    def _line_editing(self) -> bool:
        return True

    def _typed_so_far(self) -> str:
        return "pa"


def test_the_players_are_said_above_a_line_typed_between_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between turns the terminal reads what is typed (a command, or a move typed early); the
    others' moves and chat were said above that half-typed line, but "Players now: …" (someone
    sat down or stood up) was written over it. It is said above it now, as the chat is."""
    import asyncio
    import time

    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        made: list[str] = []
        ready, seated, done = threading.Event(), threading.Event(), threading.Event()

        async def host() -> None:  # Ayşe hosts the room; Cem comes once Ben waits
            async with Client(srv.url, name="Ayşe") as c:
                created, _ = await c.create(preset="standard", deals=1)
                made.append(created["code"])
                ready.set()
                await asyncio.to_thread(seated.wait, 60)
                async with Client(srv.url, name="Cem") as cem:
                    await cem.join(code=created["code"])
                    await asyncio.to_thread(done.wait, 60)

        thread = threading.Thread(target=lambda: asyncio.run(host()), daemon=True)
        thread.start()
        assert ready.wait(30)
        con = _LineEditor()
        ben, codes = _run_typist([srv.http, "--join", made[0], "--name", "Ben"], con)
        con.wait_for("Waiting for the match to start")
        deadline = time.monotonic() + 30
        while not con.prompts:  # the terminal is read between turns
            assert time.monotonic() < deadline, con.out.getvalue()
            time.sleep(0.02)
        seated.set()
        out = con.wait_for("Players now: ")
        players = "Players now: Ayşe, You, Cem, empty seat 4"
        assert f"\r\033[K{players}\npa" in con.wait_for(f"{players}\npa"), out
        done.set()
        con.typed.put(None)
        ben.join(30)
        assert codes == [0], con.out.getvalue()
        thread.join(10)


def test_the_table_is_drawn_again_only_when_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command at the prompt (hint, last, sheet, a typo) drew the whole table again,
    6 to 10 lines each time; now only the prompt comes back, as in ``batak play``, and an
    empty line draws the table again."""
    import time

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        con = Typist()
        thread, codes = _run_typist([srv.http, "--create", "standard", "--deals", "1"], con)
        con.wait_for("Username, or Enter to start: ")
        con.typed.put("")
        con.wait_for("Your move> ")

        def type_and_wait(line: str) -> str:
            asked = con.out.getvalue().count("Your move> ")
            con.typed.put(line)
            deadline = time.monotonic() + 30
            while True:
                out = con.out.getvalue()
                if out.count("Your move> ") > asked and out.endswith("Your move> "):
                    return out.split("Your move> " + line + "\n", 1)[1]
                assert time.monotonic() < deadline, out
                time.sleep(0.02)

        for line in ("last", "sheet", "zz", "hint", "?"):
            said = type_and_wait(line)
            assert "── Your turn" not in said, said
        assert "── Your turn" in type_and_wait("")
        con.typed.put("quit")
        thread.join(30)
        assert codes == [0], con.out.getvalue()


def test_a_move_typed_before_the_turn_is_refused_not_played_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line typed while it is not the player's turn (here: before the match starts) is
    answered at once, and a move is not kept to be played at the turn; a word that is no
    command is said to be unknown, not told to wait for the turn."""
    import asyncio
    import threading

    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        made: list[str] = []
        ready, go = threading.Event(), threading.Event()

        async def host() -> None:  # Ayşe hosts, and starts when told
            async with Client(srv.url, name="Ayşe") as c:
                created, state = await c.create(preset="standard", deals=1)
                made.append(created["code"])
                ready.set()
                await c.until(lambda: "Ben" in [s["name"] for s in state.info["seats"]], 60)
                await asyncio.to_thread(go.wait, 60)
                await c.start(state.id)
                with contextlib.suppress(ConnectionError, TimeoutError):  # the test may end first
                    await c.play(state.id, timeout=120)

        thread = threading.Thread(target=lambda: asyncio.run(host()), daemon=True)
        thread.start()
        assert ready.wait(30)
        con = Typist()
        ben, codes = _run_typist([srv.http, "--join", made[0], "--name", "Ben"], con)
        con.wait_for("Waiting for the match to start")
        con.typed.put("stats")  # no command: said so, not "not your turn" (it was)
        con.wait_for("Unknown command “stats”: '?' or 'help' lists the commands.")
        con.typed.put("pas")
        con.wait_for("It is not your turn yet: type your move when 'Your turn' shows.")
        go.set()
        out = con.wait_for("Your turn")
        assert "You: pas" not in out, out
        con.typed.put(None)
        ben.join(30)
        assert codes == [0], con.out.getvalue()
        thread.join(1)


def test_the_host_adjourns_from_the_terminal_and_resumes_when_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'adjourn' (ertele) at the host's terminal adjourns the match, and the table says so;
    the host who comes back is asked whether to resume it (it sat silent for good before)."""
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        con = Typist()
        ayse, codes = _run_typist([srv.http, "--create", "standard", "--deals", "1"], con)
        con.wait_for("Username, or Enter to start: ")
        con.typed.put("")  # start: computer players take the other seats
        con.wait_for("Your turn")
        con.typed.put("adjourn")
        # said to the host as their own act, at once (the prompt came back first, then
        # "The host adjourned the match": the host in the third person)
        out = con.wait_for("You adjourned the match ('continue later')")
        assert "The host adjourned" not in out, out
        assert out.split("Your move> adjourn\n", 1)[1].startswith("You adjourned"), out
        con.typed.put(None)  # the host goes away
        ayse.join(30)
        assert codes == [0]
        # the host comes back: asked to resume, Enter resumes, and the match goes on
        again = Typist()
        back, codes = _run_typist([srv.http], again)
        again.wait_for("This match is adjourned.\nPress Enter to resume it")  # (two lines)
        again.typed.put("")
        again.wait_for("The match goes on.")
        again.play_hints_until("The match is over.")
        again.typed.put(None)
        back.join(30)
        assert codes == [0], again.out.getvalue()


def test_ctrl_c_mid_deal_says_what_quit_says_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C at the table said only "Bye. Güle güle!" (in both languages at once); it says
    what 'quit' says: the seat is held, a computer plays it, how to come back; worded into the
    terminal's width, as every other line (it took 133 columns)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import batak

    src = str(Path(batak.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src, "BATAK_HOME": str(tmp_path / "home")}
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        for lang, said in (("en", "You left the table: your seat is held"),
                           ("tr", "Masadan ayrıldın: koltuğun bir süre tutulur")):  # fmt: skip
            argv = ["online", srv.http, "--quick", "ihaleli", "--lang", lang]
            proc = subprocess.Popen(
                [sys.executable, "-m", "batak", *argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=env,
            )
            assert proc.stdout is not None
            out = b""
            deadline = time.monotonic() + 60
            seated = "You sit at table" if lang == "en" else "koltuktasın"
            while seated.encode() not in out:  # sitting at the table, its match under way
                assert time.monotonic() < deadline and proc.poll() is None, out.decode()
                out += proc.stdout.read1(4096)
            time.sleep(1.0)
            proc.send_signal(signal.SIGINT)
            rest, _ = proc.communicate(timeout=30)
            text = (out + rest).decode()
            assert proc.returncode == 130, text
            assert said in " ".join(text.split()) and "`" not in text, text
            assert "Güle güle" not in text and "Bye" not in text, text
            # worded into the width (80 columns at a pipe): its line took 133 columns
            assert not [x for x in text.splitlines() if len(x) > 80], text


def test_an_account_is_created_from_the_terminal_and_a_refused_login_says_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """There was no way to sign up from the terminal: a new name was only 'wrong username or
    password'. --register creates the account; a refused login names --register."""
    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BATAK_PASSWORD", "uzun-bir-parola")
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        code, out = _run([srv.http, "--username", "deniz", "--quick", "ihaleli"], [])
        assert code == 1 and "wrong username or password" in out, out
        assert "No account of that name yet? Add --register to create it." in out
        code, out = _run(
            [srv.http, "--username", "deniz", "--register", "--quick", "ihaleli"], ["quit"]
        )
        assert code == 0 and "Account deniz created: you play with it now." in out, out
        assert _run([srv.http, "--register"], [])[0] == 2  # and which account?
        # the guest name nobody chose ("Guest 3769", shown to the others) gives way to the
        # username; a name chosen stays
        monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home2"))
        argv = [srv.http, "--username", "ece", "--register", "--name", "Ece Su", "--quick", "esli"]
        assert _run(argv, ["quit"])[0] == 0

        def name_of(username: str) -> str:
            row = srv.call(lambda: srv.hub.storage.player_by("username", username))
            return str(row.name)

        assert name_of("deniz") == "deniz" and name_of("ece") == "Ece Su"


def test_another_name_on_a_computer_logged_in_as_someone_else_starts_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session saved on this computer was alice's: ``--username bob --register`` was
    refused with "you already have an account". Another name starts from a new guest session
    (said), and alice's name still logs alice in."""
    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BATAK_PASSWORD", "uzun-bir-parola")
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        argv = [srv.http, "--quick", "ihaleli"]
        code, out = _run([*argv, "--username", "alice", "--register"], ["quit"])
        assert code == 0 and "Account alice created" in out, out
        code, out = _run([*argv, "--username", "bob", "--register"], ["quit"])
        assert code == 0, out
        assert "This computer was logged in as alice: logging in as bob instead" in out, out
        assert "Account bob created" in out and "already" not in out, out
        code, out = _run([*argv, "--username", "ALICE"], ["quit"])
        assert code == 0 and "This computer was logged in as bob" in out, out
        code, out = _run([*argv, "--username", "alice"], ["quit"])  # the same: nothing said
        assert code == 0 and "This computer was logged in" not in out, out


def test_the_host_at_the_start_prompt_sees_who_sits_down_and_cannot_invite_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host waiting at 'Username, or Enter to start' saw nobody come in by the code, and
    inviting someone already seated said 'invited: they will sit down if they accept'."""
    import asyncio

    from batak.server.client import Client

    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:
        con = Typist()
        ayse, codes = _run_typist([srv.http, "--create", "standard", "--deals", "1"], con)
        out = con.wait_for("Username, or Enter to start: ")
        code = re.search(r"Private room (\w+)", out)
        assert code, out
        seated, done = threading.Event(), threading.Event()

        async def ben() -> None:
            async with Client(srv.url, name="Ben") as c:
                await c.register("ben", "uzun-bir-parola")
                await c.join(code=code[1])
                seated.set()
                await asyncio.to_thread(done.wait, 60)

        other = threading.Thread(target=lambda: asyncio.run(ben()), daemon=True)
        other.start()
        assert seated.wait(30)
        con.wait_for("At the table: You, Ben")  # said at once, with nothing typed
        con.typed.put("ben")
        con.wait_for("Could not invite ben: 'ben' already sits at this table")
        con.typed.put(None)  # the host goes away at the prompt
        ayse.join(30)
        assert codes == [0], con.out.getvalue()
        done.set()
        other.join(10)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_story_table_started_over_elsewhere_is_said_and_its_player_goes_on_at_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """``closed`` (docs/protocol.md: a story table its player started over in another tab or
    on another device) was not read by batak online: the player and anyone watching with the
    code waited at the dead table for ever. Now both are told why, in their language; the
    player is asked whether to play the table dealt in its place here (and sits there), the
    watcher is told how to find a table and the run ends."""
    import asyncio

    from batak.cli.online import save_token
    from batak.i18n import text
    from batak.server.client import Client

    def start(argv: list[str], con: Typist) -> tuple[threading.Thread, list[int]]:
        args = build_parser(lang).parse_args(["online", *argv, "--lang", lang])
        codes: list[int] = []
        thread = threading.Thread(target=lambda: codes.append(run_online(args, con, lang)))
        thread.start()
        return thread, codes

    def seated(code: str) -> str:
        # the words up to the seat's number: "You sit at table X in seat", "X masasında"
        return text("online.seated", lang, table=code, preset="", seat=0).split(" 0", 1)[0]

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:

        async def deal() -> tuple[str, str]:  # Ayşe starts stage 0 in her browser
            async with Client(srv.url, name="Ayşe") as a:
                st = await a.story_play(0)
                await a.until(lambda: st.view is not None, 30)  # (started before she goes)
                return str(a.token), str(st.info["code"])

        token, code = asyncio.run(deal())
        save_token(srv.url, token)  # the same player in the terminal: back at her story table
        con = Typist()
        player, codes = start([srv.http], con)
        con.wait_for(seated(code))
        monkeypatch.setenv("BATAK_HOME", str(tmp_path / "berk"))  # another person watches
        watching = Typist()
        watcher, watcher_codes = start([srv.http, "--join", code, "--name", "Berk"], watching)
        # a watcher is told so, not given "seat 1" (it has no seat)
        watching.wait_for(text("online.watching", lang, table=code, preset="").split(" (", 1)[0])
        assert seated(code) not in watching.out.getvalue()

        async def again() -> str:  # she starts the stage over in the browser
            async with Client(srv.url, token=token) as b:
                return str((await b.story_play(0, again=True)).info["code"])

        fresh = asyncio.run(again())
        said = " ".join(watching.wait_for(text("online.closed_story_watcher", lang)).split())
        watcher.join(30)
        assert watcher_codes == [0], said
        assert text("online.closed_again", lang, url=srv.http) in said, said
        con.wait_for(text("online.closed_new_prompt", lang))
        out = " ".join(con.out.getvalue().split())
        assert " ".join(text("online.closed_story_you", lang).split()) in out, out
        con.typed.put("")  # Enter: play the new table here
        con.wait_for(seated(fresh))
        con.typed.put("quit")
        player.join(30)
        assert codes == [0], con.out.getvalue()


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_story_table_adjourned_here_and_started_over_elsewhere_is_said_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Its player adjourns a story table in the terminal ("This match is adjourned. Press Enter
    to resume it…"), then starts the stage over in the browser: the terminal said nothing until
    a key was pressed (the prompt waited for a line and never looked at ``closed``). It is
    said at once, on a line of its own, and the player is asked whether to play the new table
    here."""
    import asyncio

    from batak.cli.online import save_token
    from batak.i18n import text
    from batak.server.client import Client

    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    with ServerThread(fast_config(tmp_path / "data")) as srv:

        async def deal() -> tuple[str, str]:  # Ayşe starts stage 0 in her browser
            async with Client(srv.url, name="Ayşe") as a:
                st = await a.story_play(0)
                await a.until(lambda: st.view is not None, 30)
                return str(a.token), str(st.info["code"])

        token, code = asyncio.run(deal())
        save_token(srv.url, token)  # the same player in the terminal: back at her story table
        con = Typist()
        args = build_parser(lang).parse_args(["online", srv.http, "--lang", lang])
        codes: list[int] = []
        player = threading.Thread(target=lambda: codes.append(run_online(args, con, lang)))
        player.start()
        con.wait_for(text("online.seated", lang, table=code, preset="", seat=0).split(" 0")[0])
        con.typed.put("ertele" if lang == "tr" else "adjourn")
        resume = text("online.resume_prompt", lang)
        con.wait_for(resume)

        async def again() -> None:  # she starts the stage over in the browser
            async with Client(srv.url, token=token) as b:
                await b.story_play(0, again=True)

        asyncio.run(again())
        out = con.wait_for(text("online.closed_new_prompt", lang))  # nothing typed meanwhile
        after = out.split(resume, 1)[1]
        assert after.startswith("\n"), out  # the prompt's line ended first
        closed = " ".join(text("online.closed_story_you", lang).split())
        assert closed in " ".join(after.split()), out
        con.typed.put("h" if lang == "tr" else "n")  # not here: the session ends
        player.join(30)
        assert codes == [0], con.out.getvalue()
        said = " ".join(con.out.getvalue().split())
        assert " ".join(text("online.closed_later", lang, url=srv.http).split()) in said, said


@pytest.mark.parametrize("grant", [1000, 0])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_staked_room_joined_by_its_code_without_the_chips_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, grant: int
) -> None:
    """``--join CODE`` of a private room staked above the player's chips said only "the stake
    is 10,000 chips and you have 1,000" (Turkish: "bahis … sende … var"). Now the refusal
    speaks of the room: its stake, the player's chips, and what they can do: ask its host for
    a room without a stake, or come back with enough (the server's daily grant, when it gives
    one). A salon's quick play is still refused in a salon's words."""
    import asyncio

    from batak.i18n import text
    from batak.server.client import Client, ServerError

    pytest.importorskip("argon2")
    monkeypatch.setenv("BATAK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BATAK_PASSWORD", "uzun-bir-parola")
    with ServerThread(fast_config(tmp_path / "data", daily_grant=grant)) as srv:

        async def host() -> tuple[Client, str]:
            c = Client(srv.url, name="Ayşe")
            await c.connect()
            await c.register("ayse", "uzun-bir-parola")
            await c.wallet()  # the day's grant
            srv.give_chips(c.player["id"], 10000 - grant)
            created, _ = await c.create(preset="standard", deals=1, stake=10000)
            return c, str(created["code"])

        async def quick_too() -> str:  # (a salon's quick play: the words it had)
            async with Client(srv.url, name="Cem", lang=lang) as c:
                await c.register("cem", "uzun-bir-parola")
                try:
                    await c.quick("ihaleli", stake=10000)
                except ServerError as e:
                    return e.message
                return ""

        async def main() -> None:
            ayse, code = await host()
            argv = ["online", srv.http, "--join", code, "--username", "ben", "--register"]
            args = build_parser(lang).parse_args([*argv, "--lang", lang])
            out = io.StringIO()
            got = await asyncio.to_thread(run_online, args, Console(out, io.StringIO()), lang)
            said = " ".join(out.getvalue().split())
            assert got == 1, said
            if grant:  # the grant, given as the terminal logs in, is named as a way to go on
                key, n = "server.stake_cover_room_grant", {"grant": grant}
            else:  # (a server that gives none: not named)
                key, n = "server.stake_cover_room", {}
            want = text(key, lang, stake=10000, balance=grant, **n)
            assert text("online.refused_table", lang, reason=want) in said, said
            sep = "," if lang == "en" else "."  # chips as the language writes them
            assert f"10{sep}000" in want and (not grant or f"1{sep}000" in want.rsplit(";")[1])
            assert await quick_too() == text("server.stake_cover", lang, stake=10000, balance=0)
            await ayse.close()

        asyncio.run(main())
