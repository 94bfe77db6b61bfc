"""The ``batak`` command, run in-process with scripted input (and once as ``python -m batak``)."""

from __future__ import annotations

import argparse
import io
import itertools
import json
import random
import re
import subprocess
import sys
import textwrap
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from batak import Game, Match, Rules
from batak.cli import build_parser, main
from batak.cli.console import Style
from batak.cli.parser import rules_with_options
from batak.explain import option_label
from batak.record import RecordError, dumps, loads

ALL_PRESETS = Rules.preset_names()
#: answers that take the first move offered wherever there is a list ("1"), and pass in the
#: auction, where a number is a bid ("1" would be refused there)
FIRST = "pas\n1\n"


@pytest.fixture(autouse=True)
def _in_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in a folder of its own: a match saved under a typed answer ("1" to
    "Save the match first?") must not land in the checkout."""
    monkeypatch.chdir(tmp_path)


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    """``main(args)`` with ``stdin`` as input; returns (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    width: int,
    stdin: str = "",
    *,
    colour: bool = False,
) -> tuple[int, str]:
    """``main(args)`` writing to a terminal of ``width`` columns (no colour unless ``colour``),
    with ``stdin`` as input; returns (exit code, what it wrote)."""
    if colour:
        monkeypatch.delenv("NO_COLOR", raising=False)  # (in colour: its codes take no column)
    else:
        monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", str(width))
    out = _Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main(args), out.getvalue()


def help_of(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """What ``main(args)`` with ``--help`` among ``args`` writes (argparse exits after it)."""
    with pytest.raises(SystemExit):
        main(args)
    return capsys.readouterr().out


# ---------------------------------------------------------------------- play
@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("preset", ["standard", "zipi-kitty", "esli-acik", "sultan-kozmaca"])
def test_a_whole_match_answering_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], preset: str, lang: str
) -> None:
    args = ["play", "--preset", preset, "--seed", "1", "--deals", "1", "--lang", lang]
    code, out, err = run(monkeypatch, capsys, args, FIRST * 3000)
    assert code == 0, err
    assert err == ""
    done = {"en": "The match is over.", "tr": "Oyun bitti."}[lang]
    sheet = {"en": "Yazboz (score sheet)", "tr": "Yazboz"}[lang]
    you = {"en": "You", "tr": "Sen"}[lang]
    assert done in out
    assert sheet in out
    assert you in out
    # "deal 1 of 1" as people say it: not "── 1. el / 1 ──" in Turkish
    assert {"en": "── Deal 1 of 1 ── dealer: ", "tr": "── El 1/1 ── dağıtan: "}[lang] in out
    assert ("Winner" if lang == "en" else "Kazanan") in out
    assert {"en": "Input ended", "tr": "Girdi bitti"}[lang] not in out
    assert "\033[" not in out  # no colour when stdout is not a terminal
    players = Rules.preset(preset).players
    computer = {"en": "Computer", "tr": "Bilgisayar"}[lang]
    assert f"{computer} {players - 1}" in out
    assert f"{computer} {players}" not in out  # 2 computers in kitty batak, 3 elsewhere


def test_the_table_shows_hand_moves_contract_and_tricks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        monkeypatch, capsys, ["play", "--seed", "1", "--deals", "1", "--lang", "en"], FIRST * 40
    )
    assert code == 0
    assert "Your hand: ♠" in out and "♥" in out and "♦" in out and "♣" in out
    assert "İhale (auction):" in out
    assert "Contract:" in out and "koz" in out
    assert "Tricks taken:" in out and "of the" in out
    assert "On the table:" in out and "Last trick:" in out
    assert "1) " in out and "Your moves:" in out


def test_partner_hand_is_shown_face_up_in_esli_acik(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["play", "--preset", "esli-acik", "--seed", "1", "--deals", "1", "--lang", "en"]
    code, out, _ = run(monkeypatch, capsys, args, FIRST * 3000)
    assert code == 0
    assert "Face up, " in out or "Your hand is face up" in out
    assert "Açık eşli" in out


def _overtake_record(tmp_path: Path) -> tuple[Path, Game]:
    """A saved match where seat 1 (the human) must overtake QH with KH."""
    hands = ["QH 2S 3D", "KH 9H 4S", "5H 6S 7D", "8H 9S TD"]
    match = Match("standard", dealer=3, deals=[(hands, None)])
    for move in ["bid 4", "pass", "pass", "pass", "trump S", "QH"]:
        match.play(move)
    path = tmp_path / "overtake.json"
    path.write_text(dumps(match, meta={"seat": 1}), encoding="utf-8")
    return path, match.game


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_refused_card_shows_the_engines_reason_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    path, game = _overtake_record(tmp_path)
    args = ["play", "--load", str(path), "--lang", lang]
    code, out, _ = run(monkeypatch, capsys, args, "9H\n4S\nAS\nKH\n")
    assert code == 0
    for card in ("9H", "4S", "AS"):
        reason = game.why_illegal(card, lang=lang)
        assert reason is not None
        assert reason in out
    if lang == "tr":
        assert "yükseltmelisin" in out and "renge uymalısın" in out
    else:
        assert "you must overtake" in out and "you must follow suit" in out
    # after the refusals, KH was accepted and the trick was played out
    assert {"en": "Trick 1:", "tr": "1. löve:"}[lang] in out


#: Seed 1's deal with the player dealing (the first to sit: the table's lots would draw a dealer
#: from the seed), so that three computers speak before the player, as these tests expect.
SEED_1 = ("--seed", "1", "--option", "first_dealer=first_seated")


def test_numbers_commands_and_aliases(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "?\nlast\nsheet\nbid 20\nihale 3\nxy\n\npas\n"
    code, out, _ = run(monkeypatch, capsys, ["play", *SEED_1, "--lang", "en"], script)
    assert code == 0
    assert "Commands:" in out
    assert "No trick yet in this deal." in out
    assert "No deal has been scored yet." in out
    assert "Not allowed — the highest possible bid is 13" in out
    assert "Not allowed — a bid must be at least 5" in out
    # said as batak online says it, with this table's moves (no kitty here: no 'bury AS')
    assert "“xy” is not a move here. Your moves: pas · bid 5–13" in out
    assert "You: pas" in out  # the Turkish alias was accepted
    assert "Input ended" in out
    # the auction's moves are shown as ranges, not numbered
    assert "  pas · bid 5–13" in out
    assert "Type a bid as its number ('5' bids 5), or 'pas'." in out
    # past the auction, a number picks from the list
    script = "pas\n99\n1\n"
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "2", "--lang", "en"], script)
    # in words, not a programmer's range ("choose 1..9")
    assert re.search(r"there is no move 99; choose a number from 1 to \d+\n", out)
    script = "pas\n0\nson\n1\n1\nson\n"
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "2", "--lang", "tr"], script)
    assert re.search(r"0 numaralı hamle yok; 1 ile \d+ arasında bir sayı seç\n", out)
    # the last trick names who took it as each trick's own line does ("→ alan: Sen")
    found = re.search(r"\nSon löve: .*(\n  .*)*", out)  # (its lines, if it wraps)
    assert found and "→ alan: " in found[0], out


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("en", "stats", "Unknown command “stats”: '?' or 'help' lists the commands. Your moves:"),
        ("en", "menu", "Unknown command “menu”: '?' or 'help' lists the commands. Your moves:"),
        ("tr", "skor", "“skor” diye bir komut yok: komutları '?' ya da 'yardım' listeler."),
        ("tr", "İstatistik", "“İstatistik” diye bir komut yok: komutları '?' ya da 'yardım'"),
        ("en", "KX", "“KX” is not a move here. Your moves:"),
        ("en", "ihale", "“ihale” is not a move here. Your moves:"),  # a move begun
        ("tr", "kupa", "“kupa” burada geçerli bir hamle değil. Hamlelerin:"),
        ("tr", "bid ²", "“bid ²” burada geçerli bir hamle değil. Hamlelerin:"),
        # a move word misspelled is a move mistyped, not a command (it was "Unknown command")
        ("en", "heart", "“heart” is not a move here. Your moves:"),
        ("en", "hartz", "“hartz” is not a move here. Your moves:"),
        ("tr", "kupaa", "“kupaa” burada geçerli bir hamle değil. Hamlelerin:"),
        ("tr", "ihle", "“ihle” burada geçerli bir hamle değil. Hamlelerin:"),
    ],
)
def test_an_unknown_command_is_said_to_be_one_and_points_to_the_help(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    typed: str,
    said: str,
) -> None:
    """A word that is no command ("stats", "skor") was answered as a move the table refused
    ("“stats” is not a move here"), and the player was not told that the commands are listed by
    '?'. It is said to be an unknown command, with the help's words and this table's moves; a
    mistyped or unfinished move ("KX", "bid ²", "ihale", "kupa") is still said to be no move."""
    code, out, _ = run(monkeypatch, capsys, ["play", *SEED_1, "--lang", lang], f"{typed}\n")
    assert code == 0
    assert said in " ".join(out.split()), out
    if said.startswith("Unknown"):
        assert "is not a move" not in out
        assert "Your moves: pas · bid 5–13" in " ".join(out.split())


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_moves_are_headed_alike_at_the_table_and_after_a_mistake(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """In Turkish the table headed its moves "Hamlelerin:", and the same moves after an
    unknown command or a line that is no move "Yapabileceklerin:": two words for one list.
    They are headed alike, as in English ("Your moves:")."""
    args = ["play", *SEED_1, "--lang", lang]
    code, out = on_a_terminal(monkeypatch, args, 100, "stats\nxyz1\n")
    assert code == 0
    head = {"en": "Your moves:", "tr": "Hamlelerin:"}[lang]
    assert head in out.splitlines(), out  # the table's list, under its head
    after_command = out.split("“stats”", 1)[1].split("> ", 1)[0]
    after_no_move = out.split("“xyz1”", 1)[1].split("> ", 1)[0]
    assert f"\n{head} pas · " in after_command, after_command
    assert f". {head} pas · " in after_no_move, after_no_move


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("width", [60, 80])
def test_the_moves_after_an_unknown_command_are_joined_as_the_table_s_lists(
    monkeypatch: pytest.MonkeyPatch, lang: str, width: int
) -> None:
    """After an unknown command ("stats") and after a line that is no move ("xyz1"), the moves
    were joined by commas ("Your moves: pas, bid 5–13"), where the table lists its moves, its
    auction and its players with " · " ("  pas · bid 5–13" under "Your moves:"). They are
    joined alike, and a card's move list too (no comma between two cards)."""
    args = ["play", *SEED_1, "--lang", lang]
    code, out = on_a_terminal(monkeypatch, args, width, "stats\nxyz1\npas\nstats\n")
    assert code == 0
    head = {"en": "Your moves: ", "tr": "Hamlelerin: "}[lang]
    bid = {"en": "bid", "tr": "ihale"}[lang]
    folded = " ".join(out.split())  # (a list broken over lines, as one)
    said = [x.split(head, 1)[1] for x in folded.split("“stats”")[1:] + folded.split("“xyz1”")[1:]]
    assert len(said) == 3, out
    assert said[0].startswith(f"pas · {bid} 5–13 "), out  # after the command
    assert said[2].startswith(f"pas · {bid} 5–13 "), out  # after the line that is no move
    cards = said[1].split(">")[0]  # after the command, in the first trick: up to the prompt
    assert "," not in cards and " · " in cards, out  # the cards of the first trick
    assert all(columns(x) <= width for x in out.splitlines()), out


@pytest.mark.parametrize(
    ("preset", "options", "has", "lacks"),
    [
        ("standard", [], ["'pas'", "'ihale 7'", "'koz kupa'"], ["bury", "your bid"]),
        ("zipi-kitty", [], ["'pas'", "'ihale 7'", "'koz kupa'", "'bury 2C'"], ["your bid"]),
        ("sultan-kozmaca", [], ["your bid, the tricks you will take"], ["pas", "ihale", "koz ("]),
        ("zipi-kozmaca", [], ["a card ("], ["pas", "ihale", "bid", "koz (", "bury"]),
        ("standard", ["fixed_trump=S"], ["'pas'", "'ihale 7'"], ["koz (", "bury"]),
    ],
)
def test_the_help_names_only_the_moves_the_table_has(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    preset: str,
    options: list[str],
    has: list[str],
    lacks: list[str],
) -> None:
    """'?' says how to type the moves of this table only: no pas or ihale at a Koz Maça table,
    no bids where nobody bids, no koz to name where it is fixed, no burying without a kitty."""
    args = ["play", "--preset", preset, "--seed", "1"]
    for o in options:
        args += ["--option", o]
    args += ["--lang", "en"]
    code, out, _ = run(monkeypatch, capsys, args, "?\n")
    assert code == 0
    said = " ".join(out[out.index("Type a move's number") : out.index("Commands:")].split())
    assert all(h in said for h in has), said
    assert not [w for w in lacks if w in said], said
    code, out, _ = run(monkeypatch, capsys, [*args[:-1], "tr"], "yardım\n")
    said = " ".join(out[out.index("Listedeki") : out.index("Komutlar:")].split())
    if preset.endswith("kozmaca"):
        assert "pas" not in said and "ihale" not in said, said
    # a line that is no move is answered with this table's moves too (it offered 'göm AS')
    code, out, _ = run(monkeypatch, capsys, [*args[:-1], "tr"], "kx\n")
    said = " ".join(out[out.index("“kx”") :].split())
    assert "“kx” burada geçerli bir hamle değil. Hamlelerin: " in said, said
    assert "göm" not in said or preset == "zipi-kitty", said


@pytest.mark.parametrize(
    ("typed", "said"),
    [("7", "You: bid 7"), ("İHALE 7", "You: bid 7"), ("ihale7", "You: bid 7"), ("PAS", "You: pas")],
)
def test_in_the_auction_a_number_is_a_bid(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, said: str
) -> None:
    """A player who types 7 in the auction means ihale 7, not the seventh move of a list."""
    code, out, _ = run(monkeypatch, capsys, ["play", *SEED_1, "--lang", "en"], typed + "\n")
    assert code == 0
    assert said in out
    code, out, _ = run(monkeypatch, capsys, ["play", *SEED_1, "--lang", "tr"], "3\n")
    assert "ihale en az 5 olmalı" in out  # too low: refused with the reason, nothing played
    assert "Sen: ihale" not in out


def test_turkish_trump_alias(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    match = Match(
        "standard", dealer=3, deals=[(["QH 2S 3D", "KH 9H 4S", "5H 6S 7D", "8H 9S TD"], None)]
    )
    for move in ["bid 4", "pass", "pass", "pass"]:
        match.play(move)
    path = tmp_path / "trump.json"
    path.write_text(dumps(match, meta={"seat": 0}), encoding="utf-8")
    code, out, _ = run(
        monkeypatch, capsys, ["play", "--load", str(path), "--lang", "tr"], "koz kupa\n"
    )
    assert code == 0
    assert "Sen: koz ♥ kupa" in out
    # the suit alone names the koz while it is asked for ("maça" was "geçersiz hamle")
    code, out, _ = run(monkeypatch, capsys, ["play", "--load", str(path), "--lang", "tr"], "MAÇA\n")
    assert code == 0 and "Sen: koz ♠ maça" in out, out


def _saved_at_the_burial(tmp_path: Path) -> tuple[Path, Match]:
    """A zipi-kitty match saved (bury.json) where seat 0, the player, has won the auction and
    buries: seed 5, seat 0 bidding its highest bid and the others passing."""
    rules = Rules.preset("zipi-kitty")
    game = Game(rules, seed=5)
    while game.phase != "bury":
        game.play(game.legal_moves()[-1] if game.to_move == 0 else "pass")
    assert game.contract is not None and game.contract.bidder == 0, "seed 5: seat 0 bids"
    match = Match(rules, dealer=game.dealer, seed=5)
    for _, move in game.auction:
        match.play(move)
    path = tmp_path / "bury.json"
    path.write_text(dumps(match, meta={"seat": 0}), encoding="utf-8")
    return path, match


def test_while_burying_a_card_named_any_way_is_the_card_to_bury(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """'2C', 'sinek 2' and 'göm sinek 2' were refused while burying ("2♣ şu an oynanamaz:
    şimdi gömme sırası"), and only 'ten' of the number words was known."""
    path, match = _saved_at_the_burial(tmp_path)
    hand = sorted(match.game.hands[0], key=lambda c: c.index)[:3]
    digits = {"T": "10", "J": "vale", "Q": "kız", "K": "papaz", "A": "as"}
    words = {"2": "iki", "3": "üç", "4": "dört", "5": "beş", "6": "altı", "7": "yedi"}
    suit = {"S": "maça", "H": "kupa", "D": "karo", "C": "sinek"}
    (r1, s1), (r2, s2) = str(hand[1]), str(hand[2])
    typed = [
        str(hand[0]),  # "2C"
        f"{suit[s1]} {digits.get(r1, r1)}",  # "sinek 2"
        f"göm {suit[s2]} {words.get(r2, digits.get(r2, r2))}",  # "göm sinek iki"
    ]
    code, out, _ = run(
        monkeypatch, capsys, ["play", "--load", str(path), "--lang", "tr"], "\n".join(typed)
    )
    assert code == 0
    assert "şimdi gömme sırası" not in out and "geçersiz hamle" not in out, out
    assert out.count("Sen: göm ") == 3, out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_burying_a_card_buried_already_says_so(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lang: str,
) -> None:
    """A card buried a moment ago, named again (as 'bury 2C' or as '2C'), was refused with
    "you do not hold 2♣", which puzzled the bidder who had just buried it."""
    from batak.game import IllegalMove

    path, match = _saved_at_the_burial(tmp_path)
    card = sorted(match.game.hands[0], key=lambda c: c.index)[0]
    typed = [f"bury {card}", f"bury {card}", str(card)]
    args = ["play", "--load", str(path), "--lang", lang]
    code, out, _ = run(monkeypatch, capsys, args, "\n".join(typed))
    assert code == 0
    said = IllegalMove("already_buried", card=str(card)).text(lang)  # "2♠ is already buried"
    assert out.count(said) == 2, out
    assert IllegalMove("not_in_hand", card=str(card)).text(lang) not in out, out


def test_end_of_input_ends_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, ["play", "--seed", "4", "--lang", "tr"], "")
    assert code == 0
    assert "Girdi bitti" in out
    assert err == ""


def test_quit_offers_to_save(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "quit.json"
    code, out, _ = run(
        monkeypatch, capsys, ["play", "--seed", "2", "--lang", "en"], f"quit\n{path}\n"
    )
    assert code == 0
    assert "Save the match first?" in out
    assert loads(path.read_text(encoding="utf-8")).rules.name == "standard"


def test_quit_right_after_saving_asks_nothing_and_ctrl_c_offers_to_save(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "saved.json"
    args = ["play", "--seed", "2", "--lang", "en"]
    code, out, _ = run(monkeypatch, capsys, args, f"save {path}\nquit\n")
    assert code == 0 and f"Match saved to {path}." in out
    assert "Save the match first?" not in out  # it was saved a moment ago
    # saved, then a move: the match changed since, so quitting offers to save again
    code, out, _ = run(monkeypatch, capsys, args, f"save {path}\npas\nquit\n\n")
    assert "Save the match first?" in out

    later = tmp_path / "later.json"
    asked: list[str] = []
    from batak.cli.console import Console

    def ask(self: Console, prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            raise KeyboardInterrupt  # Ctrl-C at the move prompt
        return str(later)  # the answer to the offer

    monkeypatch.setattr(Console, "ask", ask)
    assert main(args) == 130
    assert asked[1].startswith("Save the match first?")
    assert loads(later.read_text(encoding="utf-8")).rules.name == "standard"


# ---------------------------------------------------------------------- save and replay
def test_replay_of_a_saved_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    script = FIRST * 8 + f"save {path}\nquit\n\n"
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "3", "--lang", "en"], script)
    assert code == 0
    assert f"Match saved to {path}." in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["meta"]["seat"] == 0
    for lang, trick, hands in (
        ("en", "Trick 1:", "Hands as dealt:"),
        ("tr", "1. löve:", "Dağıtılan"),
    ):
        code, out, err = run(monkeypatch, capsys, ["replay", str(path), "--lang", lang])
        assert code == 0, err
        assert hands in out
        assert trick in out
        assert {"en": "The match was not finished.", "tr": "Oyun bitmemişti."}[lang] in out


@pytest.mark.parametrize(("lang", "over"), [("en", "The match is over."), ("tr", "Oyun bitti.")])
def test_replay_s_ending_stands_apart_from_the_totals(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lang: str,
    over: str,
) -> None:
    """The replay's "Oyun bitti." / "The match is over." came on the line right after the
    totals, as if one more of them; a blank line parts them now, as batak play does, and the
    unfinished match's sentence too."""
    path = tmp_path / "full.json"
    args = ["play", "--preset", "zipi-kitty", "--seed", "5", "--deals", "1", "--save", str(path)]
    code, _, _ = run(monkeypatch, capsys, [*args, "--lang", lang], FIRST * 3000)
    assert code == 0
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", lang])
    lines = out.splitlines()
    assert code == 0 and over in lines
    assert lines[lines.index(over) - 1] == "", out
    unfinished = tmp_path / "half.json"
    code, _, _ = run(
        monkeypatch, capsys, ["play", "--seed", "3", "--lang", lang], f"save {unfinished}\nquit\n\n"
    )
    code, out, _ = run(monkeypatch, capsys, ["replay", str(unfinished), "--lang", lang])
    lines = out.splitlines()
    said = {"en": "The match was not finished.", "tr": "Oyun bitmemişti."}[lang]
    assert code == 0 and lines[lines.index(said) - 1] == "", out


def test_replay_of_a_finished_match_with_steps(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "full.json"
    args = ["play", "--preset", "zipi-kitty", "--seed", "5", "--deals", "1", "--save", str(path)]
    code, _, _ = run(monkeypatch, capsys, [*args, "--lang", "en"], FIRST * 3000)
    assert code == 0
    match = loads(path.read_text(encoding="utf-8"))
    assert match.over
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en", "--deal", "1"])
    assert code == 0
    assert "bury" in out and "The kitty:" in out  # a replay shows the buried cards
    assert "Trick 16:" in out and "The match is over." in out
    # each card is said once, in its trick's line: not also on a line of its own before it
    game = match.games[0]
    first = game.tricks[0]
    names = ["You", "Computer 1", "Computer 2"]
    card = Style(io.StringIO()).card  # as a pipe shows it: A♥
    said = [f"{names[(first.leader + k) % 3]}: {card(c)}" for k, c in enumerate(first.cards)]
    assert "Trick 1: " + " · ".join(said) in out
    assert not any(line.strip() in said for line in out.splitlines()), out
    # --step waits for Enter between moves, and there each card has its line; 'q' stops
    code, out, _ = run(
        monkeypatch, capsys, ["replay", str(path), "--step", "--lang", "en"], "\n\nq\n"
    )
    assert code == 0
    assert out.count("[Enter: next move, q: stop]") == 3
    assert "Replay stopped." in out
    answers = "\n" * (len(game.history) - 16 * 3 + 3) + "q\n"  # up to the first trick's end
    code, out, _ = run(
        monkeypatch, capsys, ["replay", str(path), "--step", "--lang", "en"], answers
    )
    assert code == 0
    assert [line.strip() for line in out.splitlines() if line.strip() in said] == said
    # an unknown deal number
    code, _, err = run(monkeypatch, capsys, ["replay", str(path), "--deal", "7", "--lang", "en"])
    assert code == 2 and "there is no deal 7" in err


def test_a_tampered_record_exits_2_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    run(monkeypatch, capsys, ["play", *SEED_1, "--lang", "en"], f"1\n1\nsave {path}\nquit\n\n")
    record = json.loads(path.read_text(encoding="utf-8"))
    record["deals"][0]["moves"][0] = "bid 2"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        loads(bad.read_text(encoding="utf-8"))
    code, _, err = run(monkeypatch, capsys, ["replay", str(bad), "--lang", "en"])
    assert code == 2
    assert str(caught.value) in err
    assert "a bid must be at least 4" in err
    # --load refuses it the same way, and so does a file that is not JSON
    code, _, err = run(monkeypatch, capsys, ["play", "--load", str(bad), "--lang", "en"])
    assert code == 2 and str(caught.value) in err
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run(monkeypatch, capsys, ["replay", str(bad), "--lang", "tr"])
    assert code == 2 and "kaydedilmiş bir oyun değil (JSON metni değil)" in err
    assert "not JSON" not in err  # the reason in the reader's language
    code, _, err = run(monkeypatch, capsys, ["replay", str(tmp_path / "missing.json")])
    assert code == 2


# ---------------------------------------------------------------------- rules
def test_rules_lists_all_14_presets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(ALL_PRESETS) == 14
    for lang in ("en", "tr"):
        code, out, _ = run(monkeypatch, capsys, ["rules", "--lang", lang])
        assert code == 0
        # a table's name at the third column; a wrapped description goes on further right
        listed = [m[1] for line in out.splitlines() if (m := re.match(r"  (\S+)", line))]
        assert listed == ALL_PRESETS


def test_rules_of_a_preset_in_turkish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["rules", "sultan-ihaleli", "--lang", "tr"])
    assert code == 0
    assert "sultan-ihaleli masası" in out
    assert "Kaynak: Batak Sultan" in out
    for word in ("evet", "hayır", "yükseltme", "en düşük teklif", "löve başına", "kozu ne kırar"):
        assert word in out
    # every option, by the name players read and the one --option takes; those that change
    # nothing at this table (its kitty's order without a kitty, ...) named once at the end
    rules = Rules.preset("sultan-ihaleli")
    tail = out.split("Bu masada kullanılmayan ayarlar: ", 1)[1].split(".", 1)[0]
    unused = " ".join(tail.split()).split(", ")
    # (defenders_minimum: a side's least tricks, at tables with partners only; redeal_dealer:
    # who deals after a throw-in, where everyone's pas gives the dealer the ihale instead)
    assert unused == [
        "kitty_order",
        "exposed_partner",
        "redeal_dealer",
        "zero_bid",
        "defenders_minimum",
    ]
    for option in (f for f in Rules().to_dict() if f != "name"):
        if option not in unused:
            assert f"  {option_label(option, 'tr')} ({option}): " in out, option
    assert "  Eşli (partners): hayır" in out and rules.partners is False
    code, en, _ = run(monkeypatch, capsys, ["rules", "sultan-ihaleli", "--lang", "en"])
    assert "Table sultan-ihaleli" in en and "yes" in en and "no bid may be lower than this" in en
    assert "  Eşli (partners): no" in en and "(partners) (partners)" not in en


def test_an_option_that_is_off_is_not_explained_as_a_rule(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "Overtake after a ruff: no" was explained "after someone has trumped the suit led, you must
    # still beat its highest card", which read as the table's rule; the explanation says what
    # each value means
    for lang, said in [
        ("en", "no: following suit is enough"),
        ("tr", "hayır: renge uymak yeter"),
    ]:
        code, out, _ = run(monkeypatch, capsys, ["rules", "standard", "--lang", lang])
        assert code == 0
        text = " ".join(out.split())
        assert said in text, lang
        assert Rules.preset("standard").overtake_after_ruff is False


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_rules_of_every_preset(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], preset: str
) -> None:
    for lang in ("en", "tr"):
        code, out, _ = run(monkeypatch, capsys, ["rules", preset, "--lang", lang])
        assert code == 0 and preset in out
        # the partners' signalling convention, where partners do not see each other's cards
        rules = Rules.preset(preset)
        heading = "Partner signals" if lang == "en" else "Eş işareti"
        assert (heading in out) == (rules.partners and not rules.exposed_partner), preset


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS if Rules.preset(p).deals is None])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_table_played_to_a_target_says_how_long_its_match_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], preset: str, lang: str
) -> None:
    """A table played to a target score (no fixed number of deals) listed "Deals: none": its
    rules page says the match goes on until someone reaches the target, and the score."""
    code, out, _ = run(monkeypatch, capsys, ["rules", preset, "--lang", lang])
    assert code == 0
    said = " ".join(out.replace("\u00a0", " ").split())
    target = Rules.preset(preset).target_score
    who = (
        {"en": "a side", "tr": "bir takım"}
        if Rules.preset(preset).partners
        else {"en": "a player", "tr": "bir oyuncu"}
    )
    line = {
        "en": f"Deals (deals): until {who['en']} reaches {target} points",
        "tr": f"El sayısı (deals): {who['tr']} {target} puana ulaşana kadar",
    }[lang]
    assert line in said, said
    none = {"en": "(deals): none", "tr": "(deals): yok"}[lang]
    assert none not in said, said


def test_default_language_follows_the_locale(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for key in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    _, out, _ = run(monkeypatch, capsys, ["rules", "standard"])
    assert "standard masası" in out
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    _, out, _ = run(monkeypatch, capsys, ["rules", "standard"])
    assert "Table standard" in out


# ---------------------------------------------------------------------- errors, version, help
@pytest.mark.parametrize("command", [["play", "--preset"], ["rules"]])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_unknown_preset_is_a_friendly_error(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    lang: str,
) -> None:
    code, _, err = run(monkeypatch, capsys, [*command, "no-such-table", "--lang", lang])
    assert code == 2
    assert "no-such-table" in err and "sultan-kozmaca" in err
    assert {"en": "unknown table", "tr": "bilinmeyen masa"}[lang] in err
    assert "Traceback" not in err


def test_an_unknown_table_option_names_the_one_it_resembles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # it said "these rules do not work: unknown rule option(s): musttrump" and no more
    for lang, said in [
        (
            "en",
            "unknown rule option(s): musttrump; did you mean must_trump? "
            "'batak rules zipi-kitty' lists them",
        ),
        (
            "tr",
            "bilinmeyen kural seçenek(ler)i: musttrump; must_trump mi demek istedin? "
            "seçeneklerin hepsi 'batak rules zipi-kitty' ile listelenir",
        ),
    ]:
        args = ["play", "--preset", "zipi-kitty", "--option", "musttrump=no", "--lang", lang]
        code, _, err = run(monkeypatch, capsys, args)
        assert code == 2 and said in " ".join(err.split()), err
    # a value the option does not take is still the engine's reason
    args = ["play", "--option", "must_trump=maybe", "--lang", "en"]
    code, _, err = run(monkeypatch, capsys, args)
    assert code == 2 and "these rules do not work: must_trump must be yes or no" in err


def test_bad_seat_and_deals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(monkeypatch, capsys, ["play", "--preset", "zipi-kitty", "--seat", "3"])
    assert code == 2 and "0..2" in err
    code, _, err = run(monkeypatch, capsys, ["play", "--deals", "0"])
    assert code == 2 and "--deals" in err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["arena", "--deals", "x", "--lang", "tr"], "--deals için bir tam sayı gerekir: 'x'"),
        (["arena", "--deals", "x", "--lang", "en"], "--deals needs a whole number: 'x'"),
        (["play", "--seat", "1.5", "--lang", "tr"], "--seat için bir tam sayı gerekir: '1.5'"),
        (["arena", "--budget", "hızlı", "--lang", "tr"], "--budget için bir sayı gerekir: 'hızlı'"),
        (["analyse", "m.json", "--seconds", "x", "--lang", "en"], "--seconds needs a number: 'x'"),
    ],
)
def test_a_number_option_given_a_word_says_so_in_plain_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    """argparse's own words ("invalid int value", "geçersiz int değeri") named a Python type."""
    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert err.splitlines()[-1].endswith(said), err
    assert "int" not in err.splitlines()[-1] and "float" not in err


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_bot_names_the_room_by_its_code_and_counts_the_clocks_run_out(lang: str) -> None:
    """``batak bot`` said "room MW96P55J" and then "table te94f07b09740" for the same room; and
    "31.2 sn" in Turkish, which writes 31,2; and
    "clock ran out at 8 of its decisions" where it counts the server's timeouts at its seat (a
    computer player moved for it each time), not its slow decisions."""
    from types import SimpleNamespace

    from batak.cli.bot import match_over_lines

    def final(timeouts: int) -> SimpleNamespace:
        events = [{"kind": "move", "by": "timeout", "seat": 1}] * timeouts
        events += [{"kind": "move", "by": "timeout", "seat": 2}, {"kind": "move", "seat": 1}]
        view = {"match": {"totals": [10, 42, 0, 0], "winners": [1]}}
        return SimpleNamespace(id="te94f07b09740", seat=1, events=events, view=view)

    lines = match_over_lines(final(0), 1, "MW96P55J", 0.2, lang)
    assert lines == [
        {
            "en": "Match 1 over (room MW96P55J). Its total: 42; it won.",
            "tr": "1. oyun bitti (MW96P55J odası). Toplamı: 42; kazandı.",
        }[lang]
    ]
    late = match_over_lines(final(8), 1, "MW96P55J", 31.25, lang)[1]
    assert late.startswith(
        {
            "en": "The clock ran out 8 times for your player in that match, and each time a "
            "computer player moved for it (its slowest decision took 31.2\u00a0s)",
            "tr": "Bu oyunda oyuncunun süresi 8 kez doldu ve her seferinde onun yerine bir "
            "bilgisayar oyuncusu oynadı (en yavaş kararı 31,2\u00a0sn sürdü)",
        }[lang]
    )
    once = match_over_lines(final(1), 1, "MW96P55J", 30.0, lang)[1]
    assert ("once" if lang == "en" else "bir kez") in once and "1 times" not in once


def test_version_and_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert "batak 0.1.0" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "play" in out and "replay" in out and "rules" in out
    assert "bilgisayara karşı" in help_of(capsys, ["play", "--help", "--lang", "tr"])


#: what each command needs besides --lang to be parsed (its required arguments)
_REQUIRED: dict[tuple[str, ...], list[str]] = {
    ("replay",): ["m.json"],
    ("analyse",): ["m.json"],
    ("verify",): ["m.json"],
    ("bot",): ["--username", "b"],
    ("admin", "ban"): ["ali"],
    ("admin", "unban"): ["ali"],
    ("admin", "export"): ["ali"],
    ("admin", "erase"): ["ali"],
    ("admin", "vip"): ["ali", "on"],
    ("admin", "backup"): ["copy.sqlite3"],
    ("admin", "password"): ["ali"],
}


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_lang_before_the_command_s_name_works_for_every_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``batak --lang tr play --help`` said "geçersiz seçim: 'tr'": only the commands had
    ``--lang``, so the top parser took "tr" for a command's name. Given before the name it
    is now the same as after it, for every command at any depth, in the help and in what
    the command is given (a command's own ``--lang`` had a default that would have undone
    the one given before it)."""
    monkeypatch.setenv("COLUMNS", "100")
    other = "en" if lang == "tr" else "tr"  # the locale says the other language
    _locale(monkeypatch, other)
    for path in command_paths(build_parser(lang)):
        helps = []
        for argv in (["--lang", lang, *path, "--help"], [*path, "--help", "--lang", lang]):
            with pytest.raises(SystemExit) as done:
                main(argv)
            assert done.value.code == 0, argv
            helps.append(capsys.readouterr().out)
        assert helps[0] == helps[1], path
        assert helps[0].startswith({"en": "usage: ", "tr": "kullanım: "}[lang]), path
        if path == ("admin",) or not path:
            continue  # (admin needs a job, and nothing is a command)
        parser = build_parser(other)
        argv = [*path, *_REQUIRED.get(path, [])]
        assert parser.parse_args(["--lang", lang, *argv]).lang == lang, path
        assert parser.parse_args([*argv, "--lang", lang]).lang == lang, path
        assert parser.parse_args(["--lang", other, *argv, "--lang", lang]).lang == lang, path
        assert parser.parse_args(argv).lang is None, path  # the locale's, later
    code, out, _ = run(monkeypatch, capsys, ["--lang", lang, "rules"])
    assert code == 0 and {"en": "Tables (presets).", "tr": "Hazır masalar:"}[lang] in out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_help_speaks_the_language_the_command_is_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """The help was in the first ``--lang`` written out in full, while the command got the
    last one, or a shortened one (``--la tr``), as argparse reads them: ``batak --lang en play
    --lang tr --help`` answered in English and ``batak play --la tr --help`` in the locale's."""
    other = "en" if lang == "tr" else "tr"
    _locale(monkeypatch, other)
    usage = {"en": "usage: ", "tr": "kullanım: "}[lang]
    for argv in (
        ["--lang", other, "play", "--lang", lang, "--help"],
        ["play", "--lang", other, "--lang", lang, "--help"],
        ["--la", lang, "play", "--help"],
        ["play", "--la", lang, "--help"],
        ["play", f"--lan={lang}", "--help"],
        ["--l", lang, "admin", "players", "--help"],
    ):
        with pytest.raises(SystemExit) as done:
            main(argv)
        out = capsys.readouterr().out
        assert done.value.code == 0 and out.startswith(usage), argv
        assert build_parser(other).parse_args(argv[:-1]).lang == lang, argv


def _locale(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The locale says ``lang``: what batak speaks without ``--lang``."""
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", {"en": "en_GB.UTF-8", "tr": "tr_TR.UTF-8"}[lang])


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(
    "argv", [["--lang", "xx", "play"], ["play", "--lang", "xx"], ["--lang", "xx"]]
)
def test_a_language_batak_does_not_speak_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, argv: list[str]
) -> None:
    """``batak --lang xx play`` said "invalid choice: 'xx'" for the command's name, under the
    usage of the whole command; after the command, the usage of ``play`` and argparse's
    words. It is one line, in the locale's language, that names the languages there are."""
    _locale(monkeypatch, lang)
    with pytest.raises(SystemExit) as done:
        main(argv)
    err = capsys.readouterr().err
    assert done.value.code == 2
    said = {
        "en": "error: there is no language 'xx' here: --lang takes en (English), tr (Türkçe)",
        "tr": "hata: 'xx' diye bir dil yok: --lang şunlardan birini alır: "
        "en (English), tr (Türkçe)",
    }[lang]
    assert err.count("\n") == 1 and err.rstrip().endswith(said), err


def columns(line: str) -> int:
    """The columns ``line`` takes on a terminal: colour codes none, wide characters two."""
    plain = re.sub(r"\033\[[0-9;]*m", "", line)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in plain
    )


def command_paths(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    """``parser``'s own path and those of all its subcommands, at any depth."""
    paths = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                paths += command_paths(sub, (*path, name))
    return paths


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_help_rules_and_errors_fit_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for key in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", {"en": "en_GB.UTF-8", "tr": "tr_TR.UTF-8"}[lang])
    said: dict[str, str] = {}
    paths = command_paths(build_parser(lang))
    assert ("play",) in paths and ("admin", "vip") in paths  # subcommands at any depth
    for path in paths:
        said[" ".join(("batak", *path, "--help"))] = help_of(
            capsys, [*path, "--help"] if not path else [*path, "--help", "--lang", lang]
        )
    for preset in ["", *ALL_PRESETS]:
        args = ["rules", preset, "--lang", lang] if preset else ["rules", "--lang", lang]
        said[" ".join(args)] = run(monkeypatch, capsys, args)[1]
    # the error that was wider than 80 columns in Turkish only (85; 78 in English)
    args = ["play", "--option", "must_trump=3", "--lang", lang]
    said[" ".join(args)] = run(monkeypatch, capsys, args)[2]
    wide = [
        (columns(line), command, line)
        for command, out in said.items()
        for line in out.splitlines()
        if columns(line) > 80
    ]
    assert wide == []


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_commands_come_before_options_through_argparse_s_public_api(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``batak --help`` and ``batak admin --help`` list the commands (jobs) before the options.
    build_parser and admin moved the commands' group in argparse's private
    ``parser._action_groups``; the groups are now made in that order (Parser's ``commands``),
    and the help is the same: the commands' title, the commands, then the options' title and
    every option."""
    import batak.cli

    monkeypatch.setenv("COLUMNS", "80")
    for module in Path(batak.cli.__file__).parent.glob("*.py"):
        assert "_action_groups" not in module.read_text(encoding="utf-8"), module.name
    title, options = {"en": ("commands:", "options:"), "tr": ("komutlar:", "seçenekler:")}[lang]
    for path, first, wanted in (
        ([], "play", ["-h,", "--version", "--lang"]),
        (["admin"], "players", ["-h,", "--data", "--database", "--lang", "--redis"]),
    ):
        sections = help_of(capsys, [*path, "--help", "--lang", lang]).split("\n\n")
        at = next(i for i, x in enumerate(sections) if x.startswith(title))
        assert sections[at].splitlines()[1].split()[0] == first, sections[at]
        assert sections[at + 1].startswith(options + "\n"), sections
        said = [x.split()[0] for x in sections[at + 1].splitlines()[1:] if x.startswith("  -")]
        assert said == wanted, sections[at + 1]
        assert len(sections) == at + 2 or not sections[at + 2].strip(), sections


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("width", [60, 80])
def test_every_command_s_help_fits_60_and_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, width: int
) -> None:
    """``batak online --help`` at 60 columns had a usage line of 66 ("[--quick MODE | --join
    CODE | --create PRESET]" after the name's indent: argparse never breaks a part), and so
    had ``batak bot`` (69) and, in Turkish, ``batak serve`` (62); serve's section titles were
    one line of up to 75. Every command's help fits: its usage wraps like the others (the
    name alone on its first line where a part does not fit after it), a title goes on on a
    second line. Only an address wider than the help's column (a word with no space to break
    at) may stand out of a 60-column terminal."""
    monkeypatch.setenv("COLUMNS", str(width))
    paths = command_paths(build_parser(lang))
    assert {("online",), ("bot",), ("serve",), ("admin", "vip")} <= set(paths)
    wide = []
    for path in paths:
        out = help_of(capsys, [*path, "--help", "--lang", lang])
        usage, rest = out.split("\n\n", 1)
        assert usage.startswith(("usage: batak", "kullanım: batak")), out
        wide += [(path, x) for x in usage.splitlines() if columns(x) > width]
        wide += [(path, x) for x in rest.splitlines() if columns(x) > width and " " in x.strip()]
    assert wide == []


def test_a_level_is_shown_alike_in_both_languages_and_every_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak bot --help`` showed ``--level {easy,medium,hard}`` in English and ``--level
    SEVİYE`` in Turkish (argparse's LEVEL, put in Turkish where English shows the choices),
    where ``batak play`` and ``batak serve`` say LEVEL / SEVİYE (their help texts name the
    levels). Every command shows the same choices in both languages, and its level alike."""
    monkeypatch.setenv("COLUMNS", "200")
    choices = re.compile(r"--[a-z-]+ \{[^}]*\}")
    for path in command_paths(build_parser("en")):
        en, tr = (
            set(choices.findall(help_of(capsys, [*path, "--help", "--lang", lang])))
            for lang in ("en", "tr")
        )
        assert en == tr, path
    for lang, level in (("en", "LEVEL"), ("tr", "SEVİYE")):
        for path, option in (("play", "--level"), ("bot", "--level"), ("serve", "--bot-level")):
            usage = help_of(capsys, [path, "--help", "--lang", lang]).split("\n\n", 1)[0]
            assert f"{option} {level}" in " ".join(usage.split()), (path, usage)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_every_command_names_its_languages_in_the_same_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """--lang's help said "tr or en" in every command but ``batak arena`` ("en or tr"): the
    same two words in the same order everywhere."""
    monkeypatch.setenv("COLUMNS", "200")
    said = {"en": "tr or en", "tr": "tr ya da en"}[lang]
    for path in command_paths(build_parser(lang)):
        out = help_of(capsys, [*path, "--help", "--lang", lang])
        line = next(x for x in out.splitlines() if x.strip().startswith("--lang {en,tr} "))
        assert said in line, (path, line)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_usage_too_wide_after_the_name_has_the_name_on_a_line_of_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``batak online --help`` at 60 columns: the name alone on the usage's first line, the
    options under "usage:" (the exclusive three on one line, whole), the address last; at 80
    columns, where its parts fit after the name, the usage is as argparse lays it out."""
    monkeypatch.setenv("COLUMNS", "60")
    usage = help_of(capsys, ["online", "--help", "--lang", lang]).split("\n\n", 1)[0].splitlines()
    head = {"en": "usage: ", "tr": "kullanım: "}[lang]
    assert usage[0] == head + "batak online", usage
    assert all(x.startswith(" " * len(head) + "[") for x in usage[1:]), usage
    assert usage[-1].strip() == {"en": "[URL]", "tr": "[ADRES]"}[lang], usage
    exclusive = {"en": "[--quick MODE | --join CODE | --create PRESET]"}
    assert exclusive.get(lang, "[--quick TÜR | --join KOD | --create MASA]") in (
        x.strip() for x in usage
    )
    monkeypatch.setenv("COLUMNS", "80")
    usage = help_of(capsys, ["online", "--help", "--lang", lang]).split("\n\n", 1)[0].splitlines()
    assert usage[0].startswith(head + "batak online [-h] [--name "), usage
    assert usage[1].startswith(" " * len(head + "batak online ") + "[--quick"), usage


@pytest.mark.parametrize("width", [60, 80])
def test_a_usage_laid_out_here_is_argparse_s_own_where_that_fits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], width: int
) -> None:
    """A usage of several lines is laid out by the help itself (its parts whole: Python
    3.13's argparse breaks a group at a "|"), as Python 3.11's argparse lays it out wherever
    that fits the terminal: every command's help, in both languages, is the same as with
    argparse's own usage (the layout's private parts taken away) but for the usages that
    did not fit (at 60 columns ``batak online``, and in Turkish ``batak serve``: the name
    then alone on its first line) and, on a Python whose argparse breaks a group (3.13:
    ``batak online`` and ``batak bot``), those where it did."""
    from batak.cli.parser import _Formatter

    monkeypatch.setenv("COLUMNS", str(width))
    ours: dict[tuple[str, ...], str] = {}
    for lang in ("en", "tr"):
        for path in command_paths(build_parser(lang)):
            ours[(lang, *path)] = help_of(capsys, [*path, "--help", "--lang", lang])

    def gone(self: Any, *args: Any) -> str:
        raise AttributeError("_format_actions_usage")

    monkeypatch.setattr(_Formatter, "_parts_usage", gone)
    wide = []
    for (lang, *path), out in ours.items():
        own = help_of(capsys, [*path, "--help", "--lang", lang])
        if own != out:
            usage = own.split("\n\n", 1)[0].splitlines()
            if any(len(x) > width for x in usage):
                wide.append((lang, *path))
            else:  # (a group broken across lines by argparse itself: Python 3.13's)
                assert any(x.count("[") != x.count("]") for x in usage), (own, out)
    assert ("tr", "serve") in wide if width == 60 else wide == [], wide


def _argparse_renamed(monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    """argparse as a later Python might have it: the method ``old`` of its HelpFormatter is
    named ``new``, and argparse's own code calls it so (its source with the name changed)."""
    import inspect

    formatter = argparse.HelpFormatter
    monkeypatch.setattr(formatter, new, vars(formatter)[old], raising=False)
    monkeypatch.delattr(formatter, old)
    for name, member in list(vars(formatter).items()):
        if name != new and inspect.isfunction(member) and old in inspect.getsource(member):
            space: dict[str, Any] = {}
            code = textwrap.dedent(inspect.getsource(member)).replace(old, new)
            exec(code, vars(argparse), space)
            monkeypatch.setattr(formatter, name, space[name])


@pytest.mark.parametrize("how", ["parts renamed", "parts a list", "other words"])
def test_the_help_falls_back_to_argparse_s_own_usage_if_its_private_parts_change(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    """The help's own layout of a usage too wide after the command's name (the name alone on
    its first line) leans on argparse's private ``_format_usage`` and
    ``_format_actions_usage``, the same from Python 3.11 to 3.13. If a later Python renames
    or changes them, ``batak online --help`` at 60 columns still shows the whole help, with
    argparse's own usage (every word of it, as this Python's argparse lays it out: on 3.11
    wider than 60 columns, on 3.13 with a group broken at a "|"),
    never a traceback. Before, with ``_format_actions_usage`` renamed it failed with
    AttributeError, and with it giving parts as a list, with TypeError."""
    monkeypatch.setenv("COLUMNS", "60")
    words = help_of(capsys, ["online", "--help", "--lang", "en"]).split("\n\n", 1)[0].split()
    online = next(
        sub
        for action in build_parser("en")._actions
        if isinstance(action, argparse._SubParsersAction)
        for name, sub in action.choices.items()
        if name == "online"
    )
    # (a renamed _format_usage needs no case: argparse then never calls the layout's method)
    _argparse_renamed(monkeypatch, "_format_actions_usage", "_usage_text_of")
    if how == "parts a list":
        monkeypatch.setattr(
            argparse.HelpFormatter, "_format_actions_usage", lambda self, a, g: ["[-h]"], False
        )
    elif how == "other words":
        monkeypatch.setattr(
            argparse.HelpFormatter, "_format_actions_usage", lambda self, a, g: "[-x]", False
        )
    out = help_of(capsys, ["online", "--help", "--lang", "en"])
    usage = out.split("\n\n", 1)[0]
    # (argparse's own layout, whichever this Python's is: its formatter on the same parser)
    plain = argparse.HelpFormatter(online.prog)
    plain.add_usage(None, online._actions, online._mutually_exclusive_groups, "usage: ")
    assert plain.format_help() == usage + "\n", out
    assert usage.startswith("usage: batak online [-h] [--name NAME]"), out
    assert sorted(usage.split()) == sorted(words), out
    assert "--join CODE" in out and "options:" in out


@pytest.mark.parametrize(
    ("lang", "commands", "options", "positionals"),
    [
        ("en", "commands:", "options:", "positional arguments"),
        ("tr", "komutlar:", "seçenekler:", "konumsal argümanlar"),
    ],
)
def test_batak_help_lists_its_commands_first_in_60_columns(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    commands: str,
    options: str,
    positionals: str,
) -> None:
    """``batak --help``, what a newcomer types first: its usage and its list of commands wrote
    the ten commands' names in braces (79 columns at a 60-column terminal), headed "positional
    arguments" and after the options. The usage says COMMAND / KOMUT, and the commands come
    first under their own title."""
    monkeypatch.setenv("COLUMNS", "60")
    out = help_of(capsys, ["--help", "--lang", lang])
    lines = out.splitlines()
    assert all(columns(x) <= 60 for x in lines), out
    assert positionals not in out and "{play," not in out, out
    assert lines.index(commands) < lines.index(options), out
    usage = " ".join(out.split("\n\n")[0].split())
    assert usage.endswith(("COMMAND ...", "KOMUT ...")), out
    said = [x.split()[0] for x in lines[lines.index(commands) + 1 :] if re.match(r"  \S", x)]
    assert {"play", "replay", "analyse", "rules", "online"} <= set(said), out


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_an_error_on_a_terminal_is_broken_at_spaces_and_whole_in_a_pipe() -> None:
    """An unknown table's error names all 14 tables (258 columns): on an 80-column terminal it
    is broken between words, not cut mid-word by the terminal; a pipe gets it on one line."""
    import os
    import pty

    argv = [sys.executable, "-m", "batak", "play", "--preset", "nosuch", "--lang", "en"]
    env = {**os.environ, "COLUMNS": "80"}
    main_fd, side = pty.openpty()
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=side, stderr=side, env=env)
        os.close(side)
        said = b""
        while True:
            try:
                chunk = os.read(main_fd, 4096)
            except OSError:  # the other side is closed: all is read
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(main_fd)
    assert done.returncode == 2
    lines = said.decode("utf-8").replace("\r\n", "\n").strip().splitlines()
    assert len(lines) > 1 and max(columns(line) for line in lines) <= 80, lines
    assert all(line.startswith("  ") for line in lines[1:])
    assert " ".join(" ".join(lines).split()).endswith(
        "cetinsgame-esli, cetinsgame-kozmaca, esli-acik"
    )
    piped = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    assert piped.stderr.count("\n") == 1 and "zipi-kitty, cetinsgame-ihaleli" in piped.stderr


def test_python_dash_m_batak() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "batak", "rules", "--lang", "en"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 0
    assert "esli-acik" in done.stdout


# ---------------------------------------------------------------------- levels and hints
@pytest.mark.parametrize("levels", ["easy", "hard", "hard,medium,easy"])
def test_play_against_each_level(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], levels: str
) -> None:
    args = ["play", "--seed", "5", "--deals", "1", "--lang", "en", "--level", levels]
    code, out, err = run(monkeypatch, capsys, args, FIRST * 400)
    assert code == 0, err
    assert "The match is over." in out
    names = levels.split(",") * (3 if "," not in levels else 1)
    expected = " · ".join(f"Computer {i + 1} ({lv})" for i, lv in enumerate(names))
    assert f"Computer players: {expected}" in out


def test_the_same_seed_gives_the_same_match_at_every_level(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["play", "--seed", "9", "--deals", "1", "--level", "medium,hard,easy"]
    first = run(monkeypatch, capsys, args, FIRST * 400)[1]
    assert run(monkeypatch, capsys, args, FIRST * 400)[1] == first


def test_a_loaded_match_keeps_its_computer_levels(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The saved match notes each computer seat's level; loading it without --level plays on
    against the same levels, and --level still chooses others."""
    path = tmp_path / "levels.json"
    args = ["play", "--seed", "3", "--level", "easy,hard,hard", "--lang", "en"]
    code, _, _ = run(monkeypatch, capsys, args, f"quit\n{path}\n")
    assert code == 0
    meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
    assert meta["levels"] == {"1": "easy", "2": "hard", "3": "hard"}
    code, out, _ = run(
        monkeypatch, capsys, ["play", "--load", str(path), "--lang", "en"], "quit\nno\n"
    )
    assert "Computer 1 (easy) · Computer 2 (hard) · Computer 3 (hard)" in " ".join(out.split())
    args = ["play", "--load", str(path), "--level", "medium", "--lang", "tr"]
    code, out, _ = run(monkeypatch, capsys, args, "quit\nno\n")
    assert "Bilgisayar 1 (orta) · Bilgisayar 2 (orta) · Bilgisayar 3 (orta)" in " ".join(
        out.split()
    )  # folded at 80


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_load_says_which_options_it_leaves_unused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    """``--load X --preset standard`` dropped --preset without a word (only --help said so);
    --deals and --option too. --level, --seat and --seed are used and not named."""
    path = tmp_path / "saved.json"
    code, _, _ = run(
        monkeypatch, capsys, ["play", "--seed", "3", "--lang", "en"], f"quit\n{path}\n"
    )
    assert code == 0
    load = ["play", "--load", str(path), "--lang", lang]
    code, _, err = run(monkeypatch, capsys, load, "quit\nno\n")
    assert (code, err) == (0, "")
    args = [*load, "--preset", "zipi-kitty", "--option", "must_trump=false", "--deals", "2"]
    args += ["--level", "easy", "--seed", "4"]
    code, out, err = run(monkeypatch, capsys, args, "quit\nno\n")
    assert code == 0
    said = {
        "en": "with --load the saved match keeps its own table and length: "
        "--preset, --deals, --option left unused",
        "tr": "--load ile kayıtlı oyun kendi masası ve uzunluğuyla sürer: "
        "--preset, --deals, --option kullanılmadı",
    }[lang]
    assert err == said + "\n"
    assert "--level" not in err and "standard" in out


def test_levels_and_yes_no_in_turkish_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game names its levels kolay, orta, zor and shows options as evet/hayır in Turkish:
    --level and --option take those words too."""
    args = ["play", "--seed", "3", "--level", "zor,orta,kolay", "--lang", "tr"]
    code, out, _ = run(monkeypatch, capsys, args, "quit\nno\n")
    assert code == 0
    assert "Bilgisayar 1 (zor) · Bilgisayar 2 (orta) · Bilgisayar 3 (kolay)" in " ".join(
        out.split()
    )
    assert rules_with_options("standard", ["must_trump=hayır"]).must_trump is False
    assert rules_with_options("standard", ["overtake=Evet"]).overtake is True


@pytest.mark.parametrize("level", ["grandmaster", "hard,easy", "easy,,hard"])
def test_an_unknown_level_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], level: str
) -> None:
    code, _out, err = run(monkeypatch, capsys, ["play", "--level", level, "--lang", "tr"])
    assert code == 2
    assert "--level kolay, orta ya da zor alır" in err and "bu masada 3" in err


def test_the_hint_says_a_move_and_why_and_bang_plays_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["play", "--seed", "3", "--deals", "1", "--lang", "tr"]
    code, out, err = run(monkeypatch, capsys, args, "ipucu\n!\nquit\n\n")
    assert code == 0, err
    lines = out.splitlines()
    hinted = [i for i, line in enumerate(lines) if line.startswith("İpucu — ")]
    assert len(hinted) == 1 and lines[hinted[0]].endswith(".")
    said = lines[hinted[0]].removeprefix("İpucu — ")
    assert said.split(":")[0] in ("Pas de", "Pas") or " de" in said or "oyna" in said
    # '!' played the suggestion: the next thing this seat says is its move
    assert any(line.startswith("Sen: ") for line in lines[hinted[0] :])


def test_computer_players_are_given_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every computer seat's player receives plain data (a seat's view), never the Game."""
    import batak.bots

    seen: list[object] = []
    real_get = batak.bots.get

    def spying_get(level: str, **kw: object) -> batak.bots.Player:
        player = real_get(level, **kw)  # type: ignore[arg-type]
        choose = player.choose

        def watched(view: object) -> str:
            seen.append(view)
            return choose(view)  # type: ignore[arg-type]

        player.choose = watched  # type: ignore[method-assign]
        return player

    monkeypatch.setattr(batak.bots, "get", spying_get)
    monkeypatch.setattr(sys, "stdin", io.StringIO(FIRST * 400))
    assert main(["play", "--seed", "2", "--deals", "1"]) == 0
    assert seen and all(isinstance(v, dict) and "legal_moves" in v for v in seen)
    assert all(json.loads(json.dumps(v)) == v for v in seen)  # plain JSON data


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from batak.cli.console import Style

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\033[31m" in Style(_Terminal()).card("TH")
    assert Style(io.StringIO()).card("TH") == "10♥"
    monkeypatch.setenv("NO_COLOR", "1")
    assert Style(_Terminal()).card("TH") == "10♥"


def test_no_colour_and_no_cursor_controls_on_a_dumb_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``TERM=dumb`` (an editor's shell, a log) shows escape codes as text: it is honoured as
    NO_COLOR is, and the prompt's line is not cleared with ``\\e[K`` (batak online)."""
    from batak.cli.console import Console, Style

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "dumb")
    assert Style(_Terminal()).card("TH") == "10♥"
    out = _Terminal()
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setitem(sys.modules, "readline", sys.modules.get("readline") or object())
    con = Console(out, sys.stdin)
    with con.above_prompt("> "):
        con.say("Ali: merhaba")
    assert "\033[" not in out.getvalue()
    monkeypatch.setenv("TERM", "xterm")
    assert "\033[31m" in Style(_Terminal()).card("TH")


def test_no_to_the_save_offer_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answering 'n' / 'hayır' to 'save the match first?' leaves without writing a file."""
    monkeypatch.chdir(tmp_path)
    for answer in ("n", "hayır"):
        code, _out, _err = run(
            monkeypatch, capsys, ["play", "--seed", "1", "--lang", "tr"], f"quit\n{answer}\n"
        )
        assert code == 0
    assert list(tmp_path.iterdir()) == []


# docs/rules.md §10: every table variant can be played from the terminal
PLAY_OPTIONS = [
    ("standard", ["must_trump=false"]),
    ("zipi-kitty", ["first_lead=after_dealer"]),
    ("standard", ["all_pass=redeal", "redeal_dealer=next"]),
    ("gamelake-esli", ["defenders_minimum=3"]),
    ("standard", ["overtrick_points=5", "down_scoring=shortfall"]),
    ("sultan-kozmaca", ["down_penalty=50"]),
    ("zipi-esli", ["overtrick_limit=2"]),
    ("sultan-kozmaca", ["zero_bid=50"]),
    ("standard", ["king=true"]),
    ("zipi-kitty", ["kitty_order=bury_take_trump"]),
    ("zipi-kitty", ["kitty_order=take_trump_bury"]),
]


@pytest.mark.parametrize(("preset", "options"), PLAY_OPTIONS)
def test_play_with_table_options(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    preset: str,
    options: list[str],
) -> None:
    """``batak play --option NAME=VALUE`` plays a whole match under the changed table, and the
    saved record keeps the option's value."""
    path = tmp_path / "m.json"
    args = ["play", "--preset", preset, "--seed", "3", "--deals", "1", "--save", str(path)]
    for o in options:
        args += ["--option", o]
    code, out, err = run(monkeypatch, capsys, [*args, "--lang", "en"], FIRST * 3000)
    assert code == 0, err
    assert "The match is over." in out
    rules = loads(path.read_text(encoding="utf-8")).rules
    assert rules == rules_with_options(preset, [*options, "deals=1"])
    for o in options:
        key, _, raw = o.partition("=")
        assert json.dumps(getattr(rules, key)) == raw or str(getattr(rules, key)) == raw


def test_play_refuses_a_clashing_option_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["play", "--option", "must_trump=false", "--option", "trump_if_cannot_overtrump=false"]
    code, _, err = run(monkeypatch, capsys, [*args, "--lang", "tr"])
    assert code == 2
    assert "must_trump=yes gerekir" in err
    code, _, err = run(monkeypatch, capsys, ["play", "--option", "must_trump", "--lang", "en"])
    assert code == 2 and "must_trump" in err


@pytest.mark.parametrize(
    ("lang", "preset", "option", "said"),
    [
        ("en", "zipi-kitty", "partners=yes", "partners=yes needs players=4 (got players=3)"),
        (
            "tr",
            "zipi-kitty",
            "partners=evet",
            "partners=yes için players=4 gerekir (şu an players=3)",
        ),
        (
            "en",
            "zipi-kitty",
            "bidding=none",
            "kitty_size=4 needs bidding=auction (got bidding=none)",
        ),
        ("en", "standard", "bidding=nope", "bidding=nope is not allowed; choose one of: auction,"),
        ("en", "standard", "must_trump=may be", 'must_trump must be yes or no, got "may be"'),
        (
            "en",
            "standard",
            "fixed_trump=X",
            "fixed_trump must be a suit (S, H, D or C) or none, got X",
        ),
        ("tr", "standard", "fixed_trump=X", "fixed_trump bir renk (S, H, D ya da C) ya da none"),
        (
            "en",
            "standard",
            "scoring=acik",
            "scoring=acik is the açık eşli scheme and needs partners=yes",
        ),
    ],
)
def test_a_refused_option_is_said_as_it_is_typed(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    preset: str,
    option: str,
    said: str,
) -> None:
    """The rules engine's refusal names options and values as one types them after --option
    (partners=yes, bidding=auction, fixed_trump=S), not as Python writes them (True, 'auction');
    a fixed_trump that is no suit is refused like any other value, not with a traceback."""
    args = ["play", "--preset", preset, "--option", option, "--lang", lang]
    code, _, err = run(monkeypatch, capsys, args)
    assert code == 2
    assert said in " ".join(err.split()), err
    assert not re.search(r"True|False|'\w+'|Traceback", err), err


def test_review_at_the_table_says_where_the_last_deal_lost_tricks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["play", "--seed", "3", "--deals", "2", "--lang", "tr"]
    code, out, err = run(monkeypatch, capsys, args, ("incele\n" + FIRST) * 200)
    assert code == 0, err
    assert "Henüz biten bir el yok: incelenecek bir şey yok." in out  # during the first deal
    assert "1. el inceleniyor" in out  # during the second
    review = out.split("1. el inceleniyor", 1)[1]
    assert "Bütün eller açık oynansa ve rakipler en iyi savunsa" in review
    assert "Bu elde lövelerin nerede kaybedildiğini görmek için" in out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_after_the_match_the_last_deal_can_still_be_reviewed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    # the match's last deal has no next turn to type 'review' at: the program waits after it
    words = {"en": ("review", "sheet", "quit"), "tr": ("incele", "yazboz", "çık")}[lang]
    args = ["play", "--seed", "3", "--deals", "1", "--lang", lang]
    stdin = FIRST * 60 + "\n".join(words) + "\n" + FIRST * 5
    code, out, err = run(monkeypatch, capsys, args, stdin)
    assert code == 0, err
    done = {"en": "The match is over.", "tr": "Oyun bitti."}[lang]
    after = out.split(done, 1)[1]
    offer = {"en": "Type 'review' to see where", "tr": "Son elde lövelerin nerede"}[lang]
    assert after.count(offer) == 1  # said once: a line it does not know gets one line
    unknown = {
        "en": "“1” is not one of the requests here (review, sheet, save\u00a0FILE; Enter or quit",
        "tr": "“1” burada yapılabileceklerden biri değil (incele, yazboz, kaydet\u00a0DOSYA;",
    }
    assert unknown[lang] in after  # it says that the line was not understood, and what is
    reviewing = {"en": "Reviewing deal 1", "tr": "1. el inceleniyor"}[lang]
    assert reviewing in after
    review = after.split(reviewing, 1)[1]
    assert {"en": "with every hand in view", "tr": "bütün eller açık"}[lang] in review
    assert review.count("Yazboz") == 1  # the sheet again, asked for
    # every line left over after the match was read there, and 'quit' stopped the reading
    moves = out.split(done, 1)[0].count({"en": "Your move> ", "tr": "Hamlen> "}[lang])
    prompt = {"en": "After the match> ", "tr": "Oyun sonu> "}[lang]
    assert after.count(prompt) == (2 * 60 - moves) + 3  # FIRST is two lines


def test_replay_with_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(Rules.preset("standard", deals=1), seed=4)
    while not match.over:
        match.play(match.legal_moves()[-1])
    path = tmp_path / "r.json"
    path.write_text(dumps(match), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path), "--review", "--lang", "en"])
    assert code == 0, err
    assert "Reviewing deal 1" in out and "with every hand in view" in out


# ---------------------------------------------------------------------- the story mode
def test_play_story_runs_a_table_and_saves_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("BATAK_DATA_DIR", str(tmp_path))
    args = ["play", "--story", "--seed", "1", "--lang", "tr"]
    code, out, err = run(monkeypatch, capsys, args, FIRST * 3000)
    assert code == 0, err
    assert "Hikâye modu: köşe kahvesinden şehir finaline" in out
    assert "Hasan Amca: temkinli ihaleci" in out and "Sevim Abla: gözü kara ihaleci" in out
    assert "Bilgisayar 1" not in out  # the characters' names, not "Computer 1"
    assert "Oyun bitti." in out
    # the story's verdict first, then the offer to review the last deal
    assert out.index("İlerleme kaydedildi:") < out.index("Son elde lövelerin nerede")
    saved = json.loads((tmp_path / "story.json").read_text(encoding="utf-8"))
    assert saved["stages"][0]["plays"] == 1
    assert saved["stages"][0]["best"] is not None
    won = "kazandın" in out
    assert saved["cleared"] == int(won)
    # a locked table is refused; after a win (saved progress), the next table is played
    code, out, err = run(monkeypatch, capsys, ["play", "--story", "3", "--lang", "en"], "")
    assert code == 2 and "table 3 is not open yet" in err + out
    saved["cleared"] = 1
    (tmp_path / "story.json").write_text(json.dumps(saved), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["play", "--story", "--lang", "en"], "quit\n\n")
    assert code == 0, err
    assert " ✓ 1. ☕ The corner café" in out
    assert "The tea garden in the park" in out and "Emekli Nuri: a careful bidder" in out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_story_says_which_options_it_leaves_unused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    """``--story --preset zipi-kitty`` dropped the table asked for without a word: the story's
    tables, seats and rivals are its own. --seed is used and not named."""
    monkeypatch.setenv("BATAK_DATA_DIR", str(tmp_path))
    args = ["play", "--story", "--preset", "zipi-kitty", "--seat", "2", "--seed", "1"]
    code, _, err = run(monkeypatch, capsys, [*args, "--lang", lang], "quit\n\n")
    assert code == 0
    said = {
        "en": "--story plays the story's own tables, seats and rivals: "
        "--preset, --seat left unused",
        "tr": "--story hikâyenin kendi masaları, koltukları ve rakipleriyle oynanır: "
        "--preset, --seat kullanılmadı",
    }[lang]
    assert err == said + "\n"


def _sheet_match(preset: str, deals: int) -> Match:
    """A match of ``deals`` deals where everyone passes (the dealer takes the lowest bid) and
    the bidder names hearts, a red koz."""
    match = Match(preset, seed=4)
    while len(match.sheet) < deals:
        moves = [str(m) for m in match.legal_moves()]
        match.play("trump H" if "trump H" in moves else moves[0])
    return match


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("preset", ["standard", "sultan-esli", "zipi-kitty"])
@pytest.mark.parametrize("width", [80, 60])
def test_the_score_sheet_stays_in_its_columns_in_colour_and_in_80_columns(
    monkeypatch: pytest.MonkeyPatch, preset: str, lang: str, width: int
) -> None:
    """A red koz is coloured on a terminal: its colour codes take no column, so the sheet's bars
    stay one under the other; and the sheet fits an 80-column terminal, and a 60-column one too
    (it was 68-71 wide there): the bidder, bid and koz in one column, the numbers no wider than
    they are."""
    from batak.cli.console import Style, seat_labels, sheet_lines, short_labels, visible_len

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("COLUMNS", str(width))
    match = _sheet_match(preset, 6)
    players = match.rules.players
    style = Style(_Terminal())
    assert style.color and style.width == width
    lines = sheet_lines(
        match, seat_labels(players, 0, lang), lang, style, short_labels(players, 0, lang)
    )
    table = [x for x in lines if "|" in x]
    assert any("\033[31m" in x for x in table), "some deal had a red koz"
    bars = {
        tuple(i for i, ch in enumerate(re.sub(r"\033\[[0-9;]*m", "", x)) if ch == "|")
        for x in table
    }
    assert len(bars) == 1, "\n".join(table)
    assert max(visible_len(x) for x in lines) <= width, "\n".join(lines)


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("preset", ["standard", "sultan-esli"])
def test_a_long_match_s_four_and_five_digit_totals_fit_60_columns(
    monkeypatch: pytest.MonkeyPatch, lang: str, preset: str
) -> None:
    """Totals of a long match (-12345, 9999) with long names: the narrowest sheet was 74-78
    columns at 60. Now its rows keep the tricks and the deal's score, the legend says the totals
    are below, and the totals line says each of them."""
    from batak.cli.console import Style, score_sheet_lines, short_labels, visible_len
    from batak.match import ScoreRow

    monkeypatch.setenv("COLUMNS", "60")
    rules = Rules.preset(preset)
    names = ["Ayşegül Yıldırım", "Mehmet Özdemir", "Zeynep Karaca", "Hüseyin Çelik"]
    rows = [
        ScoreRow(1, 0, 1, 7, None, "S", [3, 7, 2, 1], [-70, 70, 30, 10], [-12345, 9999, -1250, 10]),
        ScoreRow(
            12, 1, 2, 13, None, "H", [0, 0, 13, 0], [-1300, -10, 1300, -10], [-13645, 9989, 50, 0]
        ),
    ]
    totals = rows[-1].totals
    style = Style(_Terminal())
    lines = score_sheet_lines(
        rules, rows, totals, names, lang, style, short_labels(4, None, lang, names)
    )
    text = "\n".join(lines)
    assert max(visible_len(x) for x in lines) <= 60, text
    for u in rules.teams:  # the deal's score in the rows, the total in the totals line
        assert f"{rows[-1].scores[u[0]]:+}" in text and f": {totals[u[0]]}" in text, text


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("preset", ["sultan-kozmaca", "zipi-kozmaca"])
@pytest.mark.parametrize("width", [100, 60])
def test_a_koz_maca_sheet_has_no_ihale_columns(
    monkeypatch: pytest.MonkeyPatch, preset: str, lang: str, width: int
) -> None:
    """Koz Maça has no ihale: its sheet had a bidder's and a bid's column ("ihaleci", "ihale")
    of "-" only, and at 60 columns the koz column was headed "ihale" over the ♠. The koz alone
    stands before the players' columns now, headed "koz"."""
    from batak.cli.console import Style, seat_labels, sheet_lines, short_labels, visible_len
    from batak.cli.text import t

    monkeypatch.setenv("COLUMNS", str(width))
    match = _sheet_match(preset, 2)
    style = Style(_Terminal())
    lines = sheet_lines(match, seat_labels(4, 0, lang), lang, style, short_labels(4, 0, lang))
    head = re.sub(r"\033\[[0-9;]*m", "", lines[1]).split("|")[0].split()
    assert head[-1] == t("col_koz", lang), lines
    assert t("col_bidder", lang) not in head and t("col_bid", lang) not in head, lines
    assert max(visible_len(x) for x in lines) <= width, "\n".join(lines)


def test_a_wide_terminal_keeps_the_full_score_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    from batak.cli.console import Style, seat_labels, sheet_lines, short_labels

    monkeypatch.setenv("COLUMNS", "120")
    style = Style(_Terminal())
    assert style.width == 120
    match = _sheet_match("standard", 2)
    lines = sheet_lines(match, seat_labels(4, 0, "en"), "en", style, short_labels(4, 0, "en"))
    assert "|  Computer 1  |" in lines[1] and "dealer" in lines[1]


@pytest.mark.parametrize("n", ["6", "9"])
def test_a_story_table_past_the_last_is_refused_with_the_range(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, n: str
) -> None:
    """``--story 9`` with no table won: not "You have won every table" and "table 5 is not
    open yet", but the tables there are."""
    monkeypatch.setenv("BATAK_DATA_DIR", str(tmp_path))
    code, out, err = run(monkeypatch, capsys, ["play", "--story", n, "--lang", "en"], "")
    assert code == 2
    assert "the story has tables 1 to 5" in err + out
    assert "You have won every table" not in out
    assert "not open yet" not in err + out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_auction_and_the_tricks_are_folded_into_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """The auction line reached 115 columns and the trick lines 93 (in Turkish): an 80-column
    terminal broke them in the middle of a name. They are folded between two items instead,
    every item still there."""
    args = ["play", "--seed", "3", "--deals", "1", "--lang", lang]
    code, out, err = run(monkeypatch, capsys, args, FIRST * 3000)
    assert code == 0, err
    starts = {
        "en": ("İhale (auction):", "Trick ", "Last trick:", "On the table:"),
        "tr": ("İhale:", "Son löve:", "Yerde:"),
    }[lang]
    shown = [
        x
        for x in out.splitlines()
        if x.startswith(starts) or " löve: " in x[:12] or re.match(" +· ", x)
    ]
    assert any(re.match(" +· ", x) for x in shown), "some line was folded"
    assert all(len(x) <= 80 for x in shown), [x for x in shown if len(x) > 80]
    # the folded auction still names every call, in order
    auction = {"en": "İhale (auction): ", "tr": "İhale: "}[lang]
    last = max(i for i, x in enumerate(out.splitlines()) if x.startswith(auction))
    lines = out.splitlines()[last:]
    text = lines[0] + "".join(" " + x.strip() for x in lines[1:3] if re.match(" +· ", x))
    said = {"en": "bid", "tr": "ihale"}[lang]
    assert text.endswith(
        f"Computer 2: {said} 6 · Computer 3: pas".replace(
            "Computer", {"en": "Computer", "tr": "Bilgisayar"}[lang]
        )
    ), text


def test_the_deal_review_shows_its_progress_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A deal's review takes seconds: on a terminal a bar says how far it is, from the start, in
    'batak play' (which showed none) and in 'batak analyse --deal 2' (which said 'deal 1 of 1')."""
    saved = tmp_path / "m.json"
    args = ["play", "--seed", "3", "--deals", "2", "--lang", "en", "--save", str(saved)]
    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    code, out, _ = run(monkeypatch, capsys, args, ("review\n" + FIRST) * 200)
    assert code == 0
    assert "Reviewing deal 1" in out
    bar = stderr.getvalue()
    assert "deal 1: card 0 of 52" in bar  # at once; one deal, not "of 2" mid-match
    assert "deal 1: card 52 of 52" in bar and bar.endswith("\r\033[K")
    stderr.seek(0)
    stderr.truncate()
    code, out, _ = run(monkeypatch, capsys, ["analyse", str(saved), "--deal", "2", "--lang", "en"])
    assert code == 0 and "── Deal 2 ──" in out
    assert "deal 2 of 2: card 52 of 52" in stderr.getvalue()
    assert "deal 1 of" not in stderr.getvalue()


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_review_and_the_hint_are_worded_into_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """The review's sentences (up to 140 columns) and the hints ran past an 80-column terminal,
    which broke words in two: they are broken at spaces, and a suit stays with its figure and
    its '(koz)'."""
    words = {"en": ("hint", "review", "quit"), "tr": ("ipucu", "incele", "çık")}[lang]
    args = ["play", "--seed", "11", "--deals", "1", "--lang", lang]
    stdin = f"{words[0]}\n!\n" * 16 + f"{words[1]}\n{words[2]}\n"
    code, out, err = run(monkeypatch, capsys, args, stdin)
    assert code == 0, err
    reviewing = {"en": "Reviewing deal 1", "tr": "1. el inceleniyor"}[lang]
    review = out.split(reviewing, 1)[1].splitlines()[1:]
    hints = [x for x in out.splitlines() if x.startswith(("Hint — ", "İpucu — "))]
    assert len(review) > 2 and hints
    assert all(len(x) <= 80 for x in review + hints), [x for x in review + hints if len(x) > 80]
    assert any(x.startswith("  ") for x in review), "a long sentence was worded on"
    assert not any(x.lstrip().startswith("(koz)") for x in review)


def test_a_move_number_when_only_one_move_is_legal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At the last trick one card is legal: the refusal of a number says so, not '1..1'."""
    script = "99\n!\n" * 40
    args = ["play", "--seed", "1", "--lang", "tr", "--deals", "1"]
    code, out, _ = run(monkeypatch, capsys, args, script)
    assert code == 0
    assert "99 numaralı hamle yok: burada oynanabilecek tek hamle var, 1" in out
    assert "1..1 " not in out


def test_options_levels_and_tables_are_taken_as_people_write_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`batak rules` shows yes/no/none (evet/hayır/yok): --option takes those words too, in any
    case; a level or a table name in capitals is found; a changed rule is said at the table."""
    args = ["play", "--preset", "Standard", "--level", "HARD,Orta,ZOR", "--option", "deals=1"]
    args += ["--option", "must_trump=No", "--option", "min_bid=5", "--lang", "en"]
    code, out, err = run(monkeypatch, capsys, args)
    assert code == 0, err
    assert "Computer 1 (hard) · Computer 2 (medium) · Computer 3 (hard)" in out
    assert "Changed from the standard table: Lowest bid: 5, Must trump when void: no" in out
    code, out, err = run(monkeypatch, capsys, ["play", "--option", "must_trump=evet"])
    assert code == 0 and "Changed from" not in out  # the preset's own value: nothing changed
    wrong = ["play", "--option", "must_trump=maybe", "--lang", "tr"]
    code, _, err = run(monkeypatch, capsys, wrong)
    assert code == 2 and "evet ya da hayır" in err
    code, out, _ = run(monkeypatch, capsys, ["rules", "ZIPI-KITTY", "--lang", "en"])
    assert code == 0 and "zipi-kitty" in out


def test_an_option_whose_value_is_the_word_none_takes_that_word(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`batak rules` shows bidding: none and zero_trick_penalty: none; --option took "none" for
    "no value" everywhere, so these could not be typed ("zero_trick_penalty=None is not allowed;
    choose one of: none, ...")."""
    rules = rules_with_options("standard", ["zero_trick_penalty=NONE", "all_pass=Redeal"])
    assert (rules.zero_trick_penalty, rules.all_pass) == ("none", "redeal")
    no_bids = rules_with_options("sultan-kozmaca", ["scoring=simple", "bidding=none"])
    assert no_bids.bidding == "none"
    assert rules_with_options("standard", ["fixed_trump=S", "fixed_trump=none"]).fixed_trump is None
    args = ["play", "--option", "zero_trick_penalty=none", "--option", "deals=1", "--lang", "en"]
    code, out, err = run(monkeypatch, capsys, args, FIRST * 3000)
    assert code == 0, err
    assert "The match is over." in out


def test_commands_in_turkish_capitals_and_odd_digits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """İPUCU and ÇIK are the Turkish capitals of ipucu and çık (casefold made them 'i̇pucu' and
    'çik'); MEDIUM is medium (the Turkish lower case made it 'medıum'); a superscript two is a
    digit to Python but no number to int(): refused, not a crash."""
    args = ["play", "--seed", "1", "--lang", "tr", "--level", "MEDIUM,ZOR,Kolay"]
    code, out, err = run(monkeypatch, capsys, args, "İPUCU\n²\nbid ²\nÇIK\n\n")
    assert code == 0, err
    assert "(orta) · Bilgisayar 2 (zor) · Bilgisayar 3 (kolay)" in " ".join(out.split())
    assert "İpucu — " in out  # the hint was given
    assert "“²” burada geçerli bir hamle değil" in out and "“bid ²” burada" in out
    assert "Çıkmadan önce kaydedilsin mi?" in out and out.rstrip().endswith("Güle güle!")


def test_batak_online_reads_a_number_in_the_auction_as_the_bid() -> None:
    """As in batak play: '7' in the auction is ihale 7 (the server says why not when it is not
    allowed), elsewhere the 7th move of the list; a superscript digit is no number."""
    from batak.cli.console import Console
    from batak.cli.online import OnlineSession

    args = argparse.Namespace(url="http://127.0.0.1:8000")
    session = OnlineSession(args, Console(io.StringIO(), io.StringIO()), "en")
    auction = {"phase": "bidding", "legal_moves": ["pass", "bid 5", "bid 6", "bid 7"]}
    assert session._normalise("7", auction) == "bid 7"
    assert session._normalise("3", auction) == "bid 3"  # too low: sent, and refused with why
    assert session._normalise("İHALE 6", auction) == "bid 6"
    assert session._normalise("²", auction) is None
    play = {"phase": "play", "legal_moves": ["AS", "KS", "2H"]}
    assert session._normalise("2", play) == "KS"
    assert session._normalise("kupa 2", play) == "2H"


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_contract_nobody_bid_is_said_as_given_not_bid(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """Seed 2: everyone says pas and the dealer (you) takes the contract at the minimum
    (all_pass=dealer_takes_min). The table and the deal's result say the contract was given
    ('nobody bid'), not that you bid 4; a contract that was bid is still said as bid."""
    args = ["play", "--seed", "2", "--deals", "1", "--lang", lang]
    code, out, _ = run(monkeypatch, capsys, args, FIRST * 300)
    assert code == 0
    assert "Everyone said pas" in out or "Herkes pas" in out
    if lang == "en":
        assert "Contract: You with 4 (nobody bid), koz" in out
        # (it read "0 taken of the 4 needed", then "8 of the 4 tricks needed" once made)
        assert "You: needed\u00a04, taken\u00a00" in out  # (kept whole where it wraps)
        assert re.search(r"You had the contract of 4 \(nobody bid\) and took \d+: ", out)
        assert "You bid 4" not in out and "You: bid 4" not in out
        # a contract that was bid: "Computer 3: bid 5, taken 0", and as it goes past the bid
        # "bid 5, taken 6" (the words "6 of the 5 tricks bid" said nonsense there)
        _, bid, _ = run(
            monkeypatch, capsys, ["play", "--seed", "7", "--lang", "en"], "pas\nquit\n\n"
        )
        assert "Computer 3: bid\u00a05, taken\u00a00" in bid
    else:
        assert "İhaleci: Sen, ihale 4 (kimse teklif vermeyince verildi), koz" in out
        assert re.search(r"Sen: ihale 4 \(kimse teklif vermeyince verildi\), alınan \d+ — ", out)
    args = ["play", *SEED_1, "--deals", "1", "--lang", "en"]
    code, out, _ = run(monkeypatch, capsys, args, "5\n" + FIRST * 300)
    assert "nobody bid" not in out
    assert re.search(r"\w bid \d+ and took \d+: ", out)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Computer 1 buried 4 cards face down."),
        ("tr", "Bilgisayar 1: 4 kartı kapalı gömdü."),
    ],
)
def test_a_computer_burying_the_kitty_is_said_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, said: str
) -> None:
    """Seed 1 at zipi-kitty: Computer 1 takes the contract and buries four cards. That is one
    line once the burying is done, not one 'buries a card' line per card; the cards stay hidden."""
    args = ["play", "--preset", "zipi-kitty", "--seed", "1", "--deals", "1", "--lang", lang]
    code, out, _ = run(monkeypatch, capsys, args, FIRST * 300)
    assert code == 0
    assert out.count(said) == 1
    assert not re.search(r"(buried|buries) a card|bir kartı? kapalı", out)


def test_a_tie_on_points_says_how_the_table_settled_it() -> None:
    """A player level on points with the winner was not told why the other won: the table's
    tie rule is said (docs/rules.md: the last deal's tricks, or a shared win)."""
    from batak.cli.console import tie_note

    labels = ["You", "Bot 2", "Bot 3", "Bot 4"]
    last_deal = Rules.preset("cetinsgame-ihaleli")
    assert last_deal.tie == "last_deal_tricks"
    note = tie_note(last_deal, [50, 50, 10, 20], [1], labels, "en")
    assert note == (
        "You and Bot 2 were level on points: the tricks of the last deal decided, as this "
        "table's rule says."
    )
    assert tie_note(last_deal, [50, 50, 10, 20], [0, 1], labels, "en") is None  # still level
    assert tie_note(last_deal, [60, 50, 10, 20], [0], labels, "en") is None  # no tie
    shared = Rules.preset("sultan-ihaleli")
    assert shared.tie == "shared"
    turkish = ["Sen", "Bilgisayar 1", "Bilgisayar 2", "Bilgisayar 3"]
    assert tie_note(shared, [50, 50, 50, 20], [0, 1, 2], turkish, "tr", human=0) == (
        "Sen, Bilgisayar 1 ve Bilgisayar 2 puanda eşitsiniz: birinciliği paylaşıyorsunuz."
    )
    assert tie_note(shared, [10, 50, 50, 20], [1, 2], turkish, "tr", human=0) == (
        "Bilgisayar 1 ve Bilgisayar 2 puanda eşit: birinciliği paylaşıyorlar."
    )


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_bidder_burying_sees_which_cards_came_from_the_kitty(lang: str) -> None:
    """At a kitty table the bidder was shown a hand of 20 with nothing saying which four were
    the kitty's, nor how many were still to bury."""
    import io

    from batak.cli.console import Style, seat_labels, status_lines
    from batak.game import Phase

    g = Game(Rules.preset("zipi-kitty"), seed=4)
    while g.phase is not Phase.BURY:
        moves = g.legal_moves()
        g.play(next((m for m in moves if str(m) == "bid 5"), moves[0]))
    bidder = g.to_move
    assert bidder is not None
    g.play(g.legal_moves()[0])  # one card buried
    view = g.view(bidder)
    lines = status_lines(view, seat_labels(3, bidder, lang), lang, Style(io.StringIO()))
    style = Style(io.StringIO())
    cards = " ".join(style.card(c) for c in view["kitty"])
    said = {
        "en": f"From the kitty: {cards} (now in your hand). Cards still to bury:\u00a03.",
        "tr": f"Dipten gelenler: {cards} (artık elinde). Gömülecek kart:\u00a03.",
    }[lang]
    assert said in lines, lines
    others = status_lines(g.view((bidder + 1) % 3), seat_labels(3, 0, lang), lang, style)
    assert not any(x.startswith(("From the kitty", "Dipten")) for x in others)


def test_save_takes_a_home_path_and_says_why_it_failed_in_the_readers_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """'kaydet ~/mac.json' failed ("No such file or directory": the ~ was not read), and a
    folder or a missing folder got the system's English words in a Turkish game."""
    monkeypatch.setenv("HOME", str(tmp_path))
    script = f"kaydet ~/mac.json\nkaydet {tmp_path}\nkaydet {tmp_path}/yok/mac.json\nçık\n\n"
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "2", "--lang", "tr"], script)
    assert code == 0
    assert loads((tmp_path / "mac.json").read_text(encoding="utf-8")).rules.name == "standard"
    assert f"{tmp_path}/mac.json" in out
    assert "orası bir klasör: içinde bir dosya adı ver, örneğin mac.json" in out
    assert "böyle bir klasör yok" in out
    assert "No such file" not in out and "Is a directory" not in out


@pytest.mark.parametrize(("lang", "verb"), [("en", "bury"), ("tr", "göm")])
def test_the_moves_listed_after_a_typo_are_never_broken_inside_one(
    monkeypatch: pytest.MonkeyPatch, lang: str, verb: str
) -> None:
    """At 60 columns a typo while burying got the twenty moves worded at any space: "bury" at
    one line's end and "3♥" at the next one's start. The list is broken between two moves."""
    args = ["play", "--preset", "zipi-kitty", "--seed", "3", "--lang", lang]
    args += ["--option", "first_dealer=first_seated"]
    code, text = on_a_terminal(monkeypatch, args, 60, "16\nQX\n")
    assert code == 0
    said = text[text.index("“QX”") :].split("> ")[0].splitlines()[:-1]
    assert len(said) > 1 and all(len(x) <= 60 for x in said), said
    assert not any(x.endswith(verb) for x in said), "\n".join(said)
    # (a line goes on with a whole move, after the list's " · ")
    assert all(x.strip().removeprefix("· ").startswith(verb) for x in said[1:]), "\n".join(said)


@pytest.mark.parametrize(
    ("lang", "quit", "note"),
    [
        ("en", "  quit  leave (you may save first).", "An empty line shows the table again."),
        ("tr", "  çık  oyundan çık (önce kaydedebilirsin).", "Boş satır masayı yeniden gösterir."),
    ],
)
def test_the_help_s_note_on_an_empty_line_is_not_worded_on_after_quit(
    monkeypatch: pytest.MonkeyPatch, lang: str, quit: str, note: str
) -> None:
    """'?' at 60 columns: a command a line, and the last one, 'çık', went on with "Boş satır
    masayı yeniden gösterir." on its line and the next, indented, as if quitting did that.
    The note is a line of its own at the margin."""
    code, out = on_a_terminal(monkeypatch, ["play", "--seed", "2", "--lang", lang], 60, "?\n")
    assert code == 0
    lines = out.splitlines()
    assert quit in lines and note in lines, "\n".join(lines)
    assert lines.index(note) == lines.index(quit) + 1


@pytest.mark.parametrize(
    ("lang", "word", "said"),
    [
        ("en", "save", "Save to which file? Give its name too, e.g. save match.json"),
        ("tr", "kaydet", "Hangi dosyaya? Dosyanın adını da yaz, örneğin: kaydet mac.json"),
    ],
)
def test_save_with_no_file_says_how_to_name_one(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    word: str,
    said: str,
) -> None:
    """'kaydet' alone answered "kullanım: kaydet DOSYA", a usage line in a program's words; a
    player learning the game is asked which file, with an example to copy."""
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "2", "--lang", lang], f"{word}\n")
    assert code == 0
    assert said in " ".join(out.split()), out
    assert "usage" not in out and "kullanım" not in out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_failing_autosave_is_said_once_and_the_match_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    """``--save`` to a folder that is not there: the match is played to its end and exits 0 (a
    save after each deal must never stop the game), but the failure was said after every deal
    and again at the end (three times in two deals); it is said once."""
    from batak.cli.text import t

    bad = tmp_path / "missing" / "mac.json"
    args = ["play", "--seed", "2", "--deals", "2", "--save", str(bad), "--lang", lang]
    code, out, err = run(monkeypatch, capsys, args, FIRST * 3000)
    assert code == 0, err
    assert t("match_over", lang) in out
    problem = {"en": "there is no such folder", "tr": "böyle bir klasör yok"}[lang]
    said = t("save_failed", lang, path=str(bad), message=problem)
    assert " ".join(out.split()).count(said) == 1, out


@pytest.mark.parametrize(
    ("order", "said"),
    [
        ("bury_take_trump", "Dipteki kartları görmeden 4 kart gömersin, sonra dipteki 4"),
        ("take_trump_bury", "Dipteki 4 kartı alıp kozu söylersin, sonra 4 kart gömersin."),
    ],
)
def test_the_kitty_is_announced_in_its_order_and_shown_when_the_koz_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], order: str, said: str
) -> None:
    """With the other kitty orders the table said "takes the kitty and buries", and the
    kitty's cards were never named: after burying blind they were just in the hand, and with
    the koz named first they were named only after it."""
    args = ["play", "--preset", "zipi-kitty", "--seed", "5", "--lang", "tr"]
    args += ["--option", f"kitty_order={order}", "--option", "first_dealer=first_seated"]
    buries = "1\n" * (4 if order == "bury_take_trump" else 0)
    code, out, _ = run(monkeypatch, capsys, args, "16\n" + buries + "\n")
    assert code == 0
    assert said in out and "alıp 4 kart gömersin" not in out  # (the player bid 16 and won)
    koz = out.split("── Sıra sende (kozu söyle) ──", 1)[1].split("Hamlen>", 1)[0]
    assert "Dipten gelenler: " in koz and "(artık elinde)." in koz, koz


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(("preset", "width"), [("sultan-kozmaca", 80), ("standard", 60)])
def test_every_line_of_a_deal_fits_the_terminals_width(
    monkeypatch: pytest.MonkeyPatch, lang: str, preset: str, width: int
) -> None:
    """Lines the terminal broke anywhere: the move list was folded at a fixed 78 columns, the
    tricks taken ("Alınan löveler: Sen: 0/2 · Bilgisayar 1: 0/1 · …", 84) and the computer
    players (84) never, nor the contract, the totals or the notes around the table. Each is
    fitted to the terminal's columns, between two items or at a space."""
    args = ["play", "--preset", preset, "--seed", "3", "--deals", "1", "--lang", lang]
    code, out = on_a_terminal(monkeypatch, args, width, "?\nhint\n" + FIRST * 400)
    assert code == 0
    prompts = ("Your move> ", "Hamlen> ", "After the match> ", "Oyun sonu> ")
    lines = [x for x in out.splitlines() if not x.startswith(prompts)]
    wide = [x for x in lines if len(x) > width]  # the score sheet's table too
    assert not wide, "\n".join(wide)
    # nor is a seat's name broken ("Oyun sırası: … → Bilgisayar" and "3" on the next line)
    broken = [x for x in lines if re.search(r"(Computer|Bilgisayar)$", x)]
    assert not broken, "\n".join(broken)
    # what can be done after the match: a line a request, none broken ("'kaydet" / "DOSYA'")
    from batak.cli.text import t

    for line in t("after_match", lang).split("\n"):
        assert line in lines, (line, lines[-8:])
    tricks = {"en": "Tricks taken: ", "tr": "Alınan löveler: "}[lang]
    assert any(x.startswith(tricks) for x in lines)


@pytest.mark.parametrize(
    ("lang", "mine", "theirs"),
    [("en", "You say 3", "Computer 1 says "), ("tr", "Sen: söz 3", "Bilgisayar 1: söz ")],
)
def test_a_koz_maca_bid_is_said_as_a_soz(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    mine: str,
    theirs: str,
) -> None:
    """Koz Maça's bids read "Computer 1 will take 1", "You will take 3" and, in Turkish, "Sen: 3
    löve alacağım" (the first person after another's name): each is a söz, said as one."""
    args = ["play", "--preset", "sultan-kozmaca", "--seed", "2", "--deals", "1", "--lang", lang]
    code, out, _ = run(monkeypatch, capsys, args, "3\nquit\nn\n")
    assert code == 0
    assert mine in out.splitlines() and theirs in out
    assert "will take" not in out and "alacağım" not in out


@pytest.mark.parametrize(
    ("argv", "ending"),
    [
        (["admin", "playres"], "; did you mean players?"),
        (["admin", "--lang", "tr", "ledger"], "; ledger-check mi demek istedin?"),
        (["plya"], "; did you mean play?"),
        (["admin", "vip", "ali", "onn"], "; did you mean on?"),
        (["admin", "xyz"], "'backup', 'password')"),  # nothing like it: no guess
        (["admin", "report"], "; did you mean chip-report?"),  # a whole word of it
        (["admin", "eras"], "; did you mean erase?"),
        (["admin", "erse"], "; did you mean erase?"),
        (["serv"], "; did you mean serve?"),
    ],
)
def test_a_command_or_job_typed_wrong_is_answered_with_the_one_it_resembles(
    argv: list[str], ending: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak admin playres`` listed every job, but not the one meant (an option typed wrong
    already had its "did you mean")."""
    with pytest.raises(SystemExit) as e:
        main([*argv, "--lang", "en"] if "--lang" not in argv else argv)
    assert e.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(ending)


@pytest.mark.parametrize(
    ("argv", "en", "tr"),
    [
        (["admin"], "JOB", "İŞ"),
        (["admin", "ban"], "USERNAME", "KULLANICI_ADI"),
        (["admin", "vip"], "USERNAME", "KULLANICI_ADI"),
    ],
)
def test_admin_s_turkish_usage_has_turkish_placeholders(
    argv: list[str], en: str, tr: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its usage and error said ``JOB`` and ``username`` ("şu argümanlar gerekli: JOB"), where
    the other Turkish texts say ``DOSYA`` or ``AD``."""
    for lang, placeholder in (("tr", tr), ("en", en)):
        with pytest.raises(SystemExit) as e:
            main([*argv, "--lang", lang])
        assert e.value.code == 2
        err = capsys.readouterr().err
        usage, error = err.rstrip().rsplit("\n", 1)
        assert placeholder in usage.split() and placeholder in error, err
        if lang == "tr":
            assert "JOB" not in err and "username" not in err, err


#: the placeholders the commands write in English (the usage lines, help and errors)
ENGLISH_PLACEHOLDERS = {
    "FILE", "DIR", "URL", "HOST", "ORIGIN", "TEXT", "NAME", "USERNAME", "PASSWORD",
    "NEW_PASSWORD", "OPTION=VALUE", "LEVEL", "S", "MIN", "DAYS", "ID", "CODE", "PRESET", "MODE",
    "CHIPS", "MODULE:CLASS", "RECORD", "JOB",
}  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["play"], ["replay"], ["analyse"], ["rules"], ["arena"], ["serve"], ["online"], ["bot"],
        ["verify"], ["admin"], ["admin", "players"], ["admin", "ban"], ["admin", "export"],
        ["admin", "backup"], ["admin", "password"], ["admin", "vip"], ["admin", "erase"],
    ],
)  # fmt: skip
def test_every_command_s_turkish_help_has_turkish_placeholders(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Only admin's JOB and USERNAME were Turkish: ``batak play --lang tr --help`` said
    ``--save FILE``, serve ``--data DIR --database URL``, admin password ``NEW_PASSWORD``, and
    their errors "şu argümanlar gerekli: FILE". The English help keeps its placeholders.
    The words of an example address count too: replay, analyse and verify showed
    ``http://SUNUCU:PORT/api/tables/ID/record`` in Turkish; and online's and bot's address
    was ``[url]`` in both languages, where every other placeholder is in capitals (ADRES)."""
    words: dict[str, set[str]] = {}
    for lang in ("tr", "en"):
        with pytest.raises(SystemExit) as e:
            main([*argv, "--lang", lang, "--help"])
        assert e.value.code == 0
        said = capsys.readouterr().out
        words[lang] = set(re.split(r"[\s\[\]|,()]+", said))
        # (an address's parts: http://HOST:PORT/api/tables/ID/record…, USER:PASSWORD@HOST)
        words[lang] |= set(re.split(r"[\s\[\]|,();/:@.…]+", said))
        assert "url" not in words[lang], (lang, said)
    assert not words["tr"] & ENGLISH_PLACEHOLDERS, words["tr"] & ENGLISH_PLACEHOLDERS
    assert words["en"] & ENGLISH_PLACEHOLDERS


def test_an_example_address_in_an_error_has_turkish_placeholders(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal of an address that is none, and admin backup's pg_dump example, said
    ``…/api/tables/ID/record`` and ``--file=FILE URL`` in Turkish."""
    from batak.cli.text import t

    code, _, err = run(monkeypatch, capsys, ["verify", "http://127.0.0.1:port/x", "--lang", "tr"])
    assert code == 2 and "http://SUNUCU:PORT/api/tables/KİMLİK/record biçiminde yaz" in err, err
    assert t("admin_backup_postgres", "tr").endswith("pg_dump --format=custom --file=DOSYA ADRES")


@pytest.mark.parametrize(
    ("argv", "tr"),
    [(["admin", "backup"], "DOSYA"), (["verify"], "KAYIT"), (["admin", "vip", "ali"], "on|off")],
)
def test_a_missing_argument_is_named_by_its_turkish_placeholder(
    argv: list[str], tr: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main([*argv, "--lang", "tr"])
    assert e.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(f"şu argümanlar gerekli: {tr}")


@pytest.mark.parametrize(
    "argv",
    [
        ["admin", "users"],
        ["admin", "reset"],
        ["admin", "release"],
        ["admin", "rate"],
        ["admin", "ranks"],
        ["admin", "import"],
        ["version"],
    ],
)
def test_no_guess_at_a_name_only_a_few_letters_share(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak admin users`` was answered 'did you mean erase?' (the job that cannot be undone),
    as were reset, release, rate and ranks; import gave export, ``batak version`` verify."""
    with pytest.raises(SystemExit) as e:
        main([*argv, "--lang", "en"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and err.rstrip().endswith("')"), err


#: players' names as a server gives them: 12 East Asian wide characters (24 columns), letters
#: with their marks written as combining characters (``i̇``, as Python lowercases ``İ``: more
#: characters than columns), and one more wide name
WIDE_NAMES = [
    "山田太郎鈴木花子佐藤次郎",
    "Ays\u0327e Yi\u0307lmaz-Karaog\u0306lu",
    "東京麻雀倶楽部の山本一郎",
]


def _bars(line: str) -> list[int]:
    """The terminal columns at which ``line`` has a ``|`` (the score sheet's bars)."""
    plain = re.sub(r"\033\[[0-9;]*m", "", line)
    return [columns(plain[:i]) for i, ch in enumerate(plain) if ch == "|"]


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("preset", ["standard", "sultan-esli", "esli-acik"])
@pytest.mark.parametrize("width", [60, 80])
def test_batak_plays_table_fits_the_terminal_with_wide_and_combining_names(
    monkeypatch: pytest.MonkeyPatch, lang: str, preset: str, width: int
) -> None:
    """A name in Japanese takes two columns a character and an accent written as a combining
    mark none, but the widths were counted in characters: with such names (a server's record
    keeps them; the table is drawn by the same code) the lines of ``batak play``'s table ran
    past the terminal (a trick's line to 67 columns of 60, a given contract's to 88 of 80), the
    score sheet's bars did not stand one under the other, and its short names were cut to 8
    characters (16 columns). Every line fits now, counted in a terminal's columns."""
    from batak.cli import console, play

    def labels(players: int, human: int | None, lang: str, names: object = None) -> list[str]:
        assert human is not None
        out = [*WIDE_NAMES, "Bot 4"][: players - 1]
        return [
            console.t("you", lang) if s == human else out[s - human - 1] for s in range(players)
        ]

    def short(players: int, human: int | None, lang: str, names: object = None) -> list[str]:
        return console.short_labels(players, human, lang, labels(players, human, lang))

    monkeypatch.setattr(play, "seat_labels", labels)
    monkeypatch.setattr(play, "short_labels", short)
    answers = "?\nlast\nyazboz\nsheet\n" + FIRST * 400
    args = ["play", "--preset", preset, "--seed", "3", "--deals", "2", "--lang", lang]
    # in colour: its codes take no column
    code, out = on_a_terminal(monkeypatch, args, width, answers, colour=True)
    assert code == 0
    prompts = ("Your move> ", "Hamlen> ", "After the match> ", "Oyun sonu> ")
    lines = [x for x in out.splitlines() if not x.startswith(prompts)]
    wide = [(columns(x), x) for x in lines if columns(x) > width]
    assert not wide, "\n".join(x for _, x in wide)
    said = out
    assert all(name in said for name in WIDE_NAMES), "every name whole somewhere"
    # each sheet: its bars one under the other, in the terminal's columns
    heads = [i for i, x in enumerate(lines) if x.startswith("# ") and "|" in x]
    assert heads
    for i in heads:
        end = next(k for k, x in enumerate([*lines[i + 2 :], ""]) if "|" not in x)
        table = [lines[i], *lines[i + 2 : i + 2 + end]]
        assert len({tuple(_bars(x)) for x in table}) == 1, "\n".join(table)
        assert "山田太郎" in lines[i] and "山田太郎鈴" not in lines[i], lines[i]  # (8 columns)


@pytest.mark.parametrize("width", [12, 20, 31])
def test_a_word_wider_than_the_line_is_cut_but_never_an_address(width: int) -> None:
    """``wrap_text`` counted characters and never cut a word: a sentence in Japanese (written
    without spaces) ran on one line as long as it was, twice as wide as counted. It is cut
    between whole characters now (a wide one never halved, a letter never parted from its
    combining mark), filling the line begun; an address or a path stays whole, as it is
    copied."""
    from batak.cli.console import fit_address, visible_len, wrap_text

    said = "Sebep: " + "東京の卓で不正をした" * 3 + " ve " + "i\u0307" * 40 + " tamam."
    lines = wrap_text(f"\033[1m{said}\033[0m", width)
    assert len(lines) > 2 and all(columns(x) <= width for x in lines), lines
    assert all(visible_len(x) == columns(x) for x in lines)
    again = "".join(re.sub(r"\033\[[0-9;]*m", "", x) for x in lines)
    assert again.replace(" ", "") == said.replace(" ", ""), lines  # every character, in order
    assert not any(re.sub(r"\033\[[0-9;]*m", "", x).lstrip().startswith("\u0307") for x in lines)
    url = "http://127.0.0.1:18500/api/tables/t1/record?key=3b5c55dcd14e57f95ecc4afdeb9fe950"
    lines = wrap_text(f"Run batak online {url} again to find a table.", width)
    assert any(x.strip() == url for x in lines), lines
    assert fit_address(f"The game record: {url}", url, width)[-1] == "  " + url


def test_wrap_text_never_raises_keeps_every_character_and_no_break_spaces() -> None:
    """``wrap_text`` at a width narrower than its indent raised IndexError (a line of one
    column: the indent left no room, and it went on cutting an empty word); a cut stripped the
    no-break spaces at a line's end with the plain ones (``abc`` and blank lines); a word as
    wide as the line, on a line after the first, was cut because of the indent."""
    from batak.cli.console import wrap_text

    assert wrap_text("aaaaaaaaaaaa", 1) == ["a"] * 12
    assert wrap_text("aaaaaaaaaaaa", 0) == ["a"] * 12
    nbsp = "\u00a0" * 20
    lines = wrap_text("abc " + nbsp + " x", 8)
    assert "".join(lines).replace(" ", "") == "abc" + nbsp + "x", lines
    assert all(line.strip(" ") for line in lines), lines
    assert wrap_text("aaaaa bbbbb", 5) == ["aaaaa", "bbbbb"]
    assert wrap_text("aaaa bbbb cc", 6) == ["aaaa", "  bbbb", "  cc"]


def test_an_emoji_with_its_skin_tone_or_family_is_one_unit_two_columns_wide() -> None:
    """An emoji's skin tone (U+1F3FB–U+1F3FF) and the emoji a joiner joins to it (a family)
    are drawn as one emoji, two columns: they were counted as four or six, and a wrapped line
    parted the thumb from its tone (``👍`` / ``🏽``)."""
    from batak.cli.console import cut_to, visible_len, wrap_text

    thumb, family = "👍🏽", "👨\u200d👩\u200d👧\u200d👦"
    assert visible_len(thumb) == visible_len(family) == 2
    assert visible_len(f"ok {thumb}{family}!") == 8
    assert cut_to(thumb + family, 3) == thumb
    assert wrap_text(f"{thumb}{thumb}{thumb}", 4, indent="") == [thumb * 2, thumb]
    assert wrap_text(f"go {family} {family}", 4) == ["go", "  " + family, "  " + family]


def test_a_double_space_in_a_listed_item_does_not_push_a_line_over() -> None:
    """A name with two spaces in it, broken there by ``fit_list``: the line went on from the
    second space, one column past the width."""
    from batak.cli.console import fit_list, visible_len

    lines = fit_list("Son: {}  → Ayşe".format, ["Bot Yılmaz 2:", "Bot 2:  Yılmaz"], 10)
    assert all(visible_len(x) <= 10 for x in lines), lines
    assert [x.strip(" ") for x in lines][-3:] == ["· Bot 2:", "Yılmaz", "→ Ayşe"], lines


def test_wrap_text_on_random_sentences_at_every_width() -> None:
    """A seeded walk over random sentences (letters, wide characters, combining marks,
    emoji with tones and families, no-break spaces, runs of spaces, addresses, colour codes)
    at widths 1 to 60: it never raises, loses no character but the spaces it breaks at, and
    every line fits its width, but for an address kept whole by design (or with ``cut``
    False a word wider than the line), and one wide unit on a line of one column; no line of
    a broken sentence is blank."""
    from batak.cli.console import _kept_whole, _units, visible_len, wrap_text

    pieces = [
        "a", "ab", "Ayşe", "i\u0307", "東", "京都", "👍🏽", "👨\u200d👩\u200d👧", "\u00a0",
        " ", " ", " ", "  ", "♠\u00a07", "http://h/r?key=1", "\033[1m", "\033[0m", "ğ" * 9,
    ]  # fmt: skip
    rng = random.Random(20261206)
    for _ in range(400):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        indent = rng.choice(["", " ", "  ", "    "])
        for width in range(1, 61):
            cut = rng.random() < 0.8
            lines = wrap_text(line, width, indent, cut=cut)
            plain = [re.sub(r"\033\[[0-9;]*m", "", x) for x in lines]
            assert "".join(lines).replace(" ", "") == line.replace(" ", ""), (line, width)
            if len(lines) > 1:  # no blank line (a colour code alone, spaces)
                assert all(x.strip(" ") for x in plain), (line, width, indent, cut, lines)
            for x in plain:
                if visible_len(x) <= width:
                    continue
                words = x.strip(" ").split(" ")
                whole = len(words) == 1 and (_kept_whole(words[0]) or not cut)
                one = width == 1 and len(_units(x.strip(" "))) == 1
                assert whole or one, (line, width, indent, cut, lines)


def test_wrap_text_with_names_cuts_other_text_and_never_a_name() -> None:
    """``names=`` kept whole every word that held a name, so a short name inside a long run
    of text without spaces ("東" in a Japanese chat line, "*" or "a" in anything) left that
    run uncut, far past the line. A seeded walk (names with spaces, regex characters, empty,
    substrings of other words): no character lost, no line over its width but one holding a
    name wider than the line (or one wide unit at one column), and no name that fits a line
    is cut between two lines."""
    from batak.cli.console import _units, visible_len, wrap_text

    pieces = ["a", "b", " ", "東", "京", "ş", ".", "(", "*", "\u00a0", "  ", "[?]"]
    rng = random.Random(20261207)
    for _ in range(3000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        names = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))) for _ in "abc"]
        width = rng.randint(1, 24)
        lines = wrap_text(line, width, names=names)
        assert "".join(lines).replace(" ", "") == line.replace(" ", ""), (line, width, names)
        for x in lines:
            wide = any(n.strip() and visible_len(n) > width and n in x for n in names)
            one = len(_units(x.strip(" "))) == 1
            assert visible_len(x) <= width or wide or one, (line, width, names, lines)
        for n in names:  # each place a name that fits is found, on one line
            if n and " " not in n and visible_len(n) <= width - 2:
                found = [len(re.findall(f"(?={re.escape(n)})", x)) for x in [line, *lines]]
                assert sum(found[1:]) == found[0], (line, width, n, lines)
    name = "Ayşe"
    assert wrap_text("東京" * 6 + name + "京" * 6, 10, names=[name]) == [
        "東京東京東",
        "  京東京東",
        "  京東京",
        "  Ayşe京京",
        "  京京京京",
    ]


def test_wrap_text_ends_whatever_its_indent_is_made_of() -> None:
    """``wrap_text("東京", 2, "\\xa0")`` looped for ever, putting lines of a no-break space
    alone (memory growing): a line holding its indent alone was taken as full because only
    plain spaces were stripped before asking. A seeded walk over indents of spaces, no-break
    spaces, ``· `` and colour codes, at widths 1 to 12, each call in a thread given a few
    seconds: every call ends, every character of the sentence is kept, and a line beyond the
    first begins with the indent or, for want of room, its colour codes alone."""
    import threading

    from batak.cli.console import visible_len, wrap_text

    def ends(line: str, width: int, indent: str) -> list[str]:
        out: list[list[str]] = []
        worker = threading.Thread(target=lambda: out.append(wrap_text(line, width, indent)))
        worker.daemon = True  # (a call that hangs does not hold the test run)
        worker.start()
        worker.join(5)
        assert out, ("wrap_text did not end", line, width, indent)
        return out[0]

    assert ends("東京", 2, "\xa0") == ["東", "京"]
    assert ends("東京", 1, "· ") == ["東", "京"]
    assert ends("ab 東京京", 3, "· ") == ["ab", "東", "京", "京"]
    # (no no-break space in the sentences: a line beginning with one would read as indented)
    pieces = ["a", "ab", "東", "京都", "👍🏽", " ", "  ", "\033[1m", "\033[0m", "ğ" * 5]
    indents = [" ", "\xa0", "\xa0\xa0", "· ", "  · ", "\033[2m· \033[0m", "\033[2m\xa0"]
    rng = random.Random(20261207)
    for _ in range(300):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 20)))
        indent = rng.choice(indents)
        for width in range(1, 13):
            lines = ends(line, width, indent)
            bare = "".join(re.findall(r"\033\[[0-9;]*m", indent))  # an indent left out
            kept = [lines[0]]
            for x in lines[1:]:  # (an indent as wide as the line is not used at all)
                kept.append(x.removeprefix(indent) if visible_len(indent) < width else x)
                kept[-1] = kept[-1].removeprefix(bare)
            assert "".join(kept).replace(" ", "") == line.replace(" ", ""), (line, width, indent)
            assert len(lines) <= visible_len(line) + 1, (line, width, indent, lines)


@pytest.mark.parametrize(
    ("lang", "start"),
    [("en", "batak: error: could not reach the server at "), ("tr", "batak: hata: http://")],
)
def test_a_bot_that_reaches_no_server_says_so_after_error_in_lower_case(
    lang: str, start: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It read "batak: error: Could not reach the server at …" (the capital of a sentence of
    batak online, where it stands alone)."""
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    argv = ["bot", url, "--username", "robo1", "--password", "uzun-bir-parola", "--lang", lang]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(start) and err.count("\n") == 1, err
    if lang == "tr":
        assert "adresindeki sunucuya ulaşılamadı" in err


@pytest.mark.parametrize("key", ["bot_tourney_back", "bot_tourney_seated", "bot_tourney_played"])
def test_batak_bot_s_turkish_round_lines_say_the_round_as_the_tournament_page(key: str) -> None:
    """They read "2 turun 1. turu: …" (stiff), where the tournament page says "Tur 1 / 2"."""
    from batak.i18n import text

    page = text("web.tourney_round_n", "tr", n=1, of=2)
    said = text(f"cli.{key}", "tr", name="Bahar", round=1, rounds=2, number=3, code="QK4M7TZA",
                seat=2, view_seat=1)  # fmt: skip
    assert page in said and "turun" not in said, said
    assert "ound 1 of 2" in text(f"cli.{key}", "en", name="Bahar", round=1, rounds=2, number=3,
                                  code="QK4M7TZA", seat=2, view_seat=1)  # fmt: skip


def test_the_serve_start_and_the_unban_command_name_the_database_through_one_helper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``batak serve``'s start lines and ``batak admin ban``'s undo command each built the
    admin command's database words (the password as PASSWORD) in code of their own; both now
    ask ``admin_database_words``, the start naming the default folder, the undo not."""
    from batak.cli import serve
    from batak.cli.admin import _unban_command
    from batak.server.config import ServerConfig

    asked: list[bool] = []

    def words(
        database: str | None, data: str, lang: str, *, default_folder: bool
    ) -> tuple[list[str], str | None]:
        asked.append(default_folder)
        return ["--data", f"/{lang}/{data}"], None

    monkeypatch.setattr(serve, "admin_database_words", words)
    line = serve.start_lines(ServerConfig(port=8000), "en", "here")[-1]
    assert line.endswith(": batak admin --data /en/here --help"), line
    ns = argparse.Namespace(database=None, data="batak-data", username="ali")
    assert _unban_command(ns, "tr") == ("batak admin --data /tr/batak-data unban ali", None)
    assert asked == [True, False]


@pytest.mark.parametrize(
    ("lang", "won", "given"),
    [
        ("en", "You win the ihale at 7.", "Everyone said pas: the contract is yours at 4."),
        ("tr", "İhaleyi sen aldın (7).", "Herkes pas dedi: ihaleci sensin, en düşük teklifle (4)."),
    ],
)
def test_the_player_who_wins_the_auction_is_spoken_to(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    won: str,
    given: str,
) -> None:
    """``batak play`` said "The ihale is won by You at 7." (and "the contract goes to You")
    to the player who won it, as it says it of a computer player."""
    from batak.cli.console import Style, auction_over_lines

    args = ["play", "--seed", "7", "--deals", "1", "--level", "easy", "--lang", lang]
    code, out, _ = run(monkeypatch, capsys, args, "7\nquit\nn\n")
    assert code == 0 and won in out.splitlines(), out
    assert "won by You" not in out and "İhaleci: Sen (" not in out
    you = "You" if lang == "en" else "Sen"
    labels = [you, "B1", "B2", "B3"]
    lines = auction_over_lines(
        Rules(), 0, 4, labels, lang, Style(None), dealer=3, given=True, reader=0
    )
    assert lines[0] == given
    other = auction_over_lines(Rules(), 1, 7, labels, lang, Style(None), dealer=3)
    assert other[0] == {"en": "The ihale is won by B1 at 7.", "tr": "İhaleci: B1 (7)."}[lang]


@pytest.mark.parametrize(("lang", "head"), [("en", "Commands: "), ("tr", "Komutlar: ")])
@pytest.mark.parametrize("width", [60, 80])
def test_the_commands_help_reads_as_a_list_on_a_narrow_terminal(
    monkeypatch: pytest.MonkeyPatch, lang: str, head: str, width: int
) -> None:
    """'?' at 60 columns worded each of the commands' four lines on its own: "… a suggested
    move and" / "  why;" / "!  play the suggestion; …", a word alone on a line and the next
    command at the margin. Where a line does not fit, it is a command a line now."""
    args = ["play", "--seed", "1", "--deals", "1", "--lang", lang]
    code, out = on_a_terminal(monkeypatch, args, width, "?\nquit\nn\n")
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(head))
    shown = lines[start : next(i for i in range(start, len(lines)) if "> " in lines[i])]
    assert all(columns(x) <= width for x in shown), shown
    if width == 80:  # the text's own four lines, as they fit
        assert len(shown) == 4, shown
        return
    # a command a line, indented; the note on an empty line last, at the margin
    assert all(x.startswith("  ") for x in shown[1:-1]) and shown[-1][0] != " ", shown
    assert not any(re.fullmatch(r" *\S+;?", x) for x in shown), shown  # no word left alone
    for command in {"en": ("hint", "!", "sheet", "quit"), "tr": ("ipucu", "!", "yazboz")}[lang]:
        assert any(x.startswith(f"  {command}  ") for x in shown), (command, shown)


@pytest.mark.parametrize(("lang", "shown"), [("en", "FILE|URL"), ("tr", "DOSYA|ADRES")])
def test_a_record_s_placeholder_says_it_may_be_an_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, shown: str
) -> None:
    """replay, analyse and play --load read a record from a file or from its address on a
    server, but their usage and help said FILE (DOSYA) alone: the placeholder names both."""
    monkeypatch.setenv("COLUMNS", "100")
    for path in (["replay"], ["analyse"], ["play"]):
        out = help_of(capsys, [*path, "--help", "--lang", lang])
        usage = out.split("\n\n", 1)[0]
        assert shown in usage.split() or f"{shown}]" in usage.split(), (path, usage)
    with pytest.raises(SystemExit):
        main(["replay", "--lang", lang])
    assert capsys.readouterr().err.rstrip().endswith(shown)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            {
                "take_bury_trump": "You take the 4 kitty cards and bury 4.",
                "bury_take_trump": "You bury 4 cards without seeing the kitty, then take the 4 "
                "kitty cards and name the koz.",
                "take_trump_bury": "You take the 4 kitty cards, name the koz, then bury 4.",
            },
        ),
        (
            "tr",
            {
                "take_bury_trump": "Dipteki 4 kartı alıp 4 kart gömersin.",
                "bury_take_trump": "Dipteki kartları görmeden 4 kart gömersin, sonra dipteki 4 "
                "kartı alıp kozu söylersin.",
                "take_trump_bury": "Dipteki 4 kartı alıp kozu söylersin, sonra 4 kart gömersin.",
            },
        ),
    ],
)
def test_the_player_who_wins_a_kitty_auction_is_told_what_they_do_with_it(
    lang: str, said: dict[str, str]
) -> None:
    """After "You win the ihale at 7." the kitty's line still spoke of the reader as of
    someone else: "The bidder takes the 4 kitty cards and buries 4." It speaks to them now, in
    each of the kitty's orders; another bidder is said as before."""
    import dataclasses

    from batak.cli.console import auction_over_lines
    from batak.cli.text import t

    base = Rules.preset("zipi-kitty")
    labels = [t("you", lang), "B1", "B2", "B3"][: base.players]
    for order, line in said.items():
        rules = dataclasses.replace(base, kitty_order=order)
        lines = auction_over_lines(rules, 0, 7, labels, lang, Style(None), dealer=2, reader=0)
        assert lines[1] == line, (order, lines)
        other = auction_over_lines(rules, 1, 7, labels, lang, Style(None), dealer=2, reader=0)
        assert other[1].startswith({"en": "The bidder ", "tr": "İhaleci "}[lang]), other


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_kitty_bidder_s_hand_and_kitty_lines_fit_a_narrow_terminal(lang: str) -> None:
    """At a kitty table the bidder holds 20 cards while burying: the hand's line (61 columns in
    English) and the kitty's line ("From the kitty: … Cards still to bury: 4.", 64 in Turkish)
    were printed whole and the terminal wrapped them at its margin, "♣ A 9 7" / " 6 5". They
    are worded into the width now, a hand broken between two suits only."""
    from batak.cli.console import seat_labels, status_lines, visible_len

    game = Game(Rules.preset("zipi-kitty"), seed=3)
    bidder = game.to_move
    game.play("bid 16")
    while game.phase == "bidding":
        game.play("pass")
    assert game.phase == "bury" and game.to_move == bidder
    view = json.loads(json.dumps(game.view(bidder)))
    style = Style(None)
    for width in (60, 40):
        style.width = width
        labels = seat_labels(game.rules.players, bidder, lang)
        lines = status_lines(view, labels, lang, style)
        assert all(visible_len(x) <= width for x in lines), lines
        at = next(i for i, x in enumerate(lines) if x.startswith(("Your hand:", "Elin:")))
        groups = lines[at].split(": ", 1)[1].split("   ")
        for x in lines[at + 1 :]:
            if not x.startswith(" ") or not x.lstrip().startswith(("♠", "♥", "♦", "♣")):
                break
            groups += x.strip().split("   ")
        assert groups == style.hand(view["hand"]).split("   "), lines  # no suit cut in two
        kitty = {"en": "From the kitty:", "tr": "Dipten gelenler:"}[lang]
        at = next(i for i, x in enumerate(lines) if x.startswith(kitty))
        said = " ".join(x.strip() for x in lines[at : at + 3])
        assert {"en": "to bury:\u00a04.", "tr": "kart:\u00a04."}[lang] in said, lines


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("code", ["hand_line", "exposed_line"])
def test_a_wrapped_hand_goes_on_under_its_first_suit(lang: str, code: str) -> None:
    """A hand too long for a narrow terminal went on at a 2-column indent, under "Your hand:"
    ("  ♣ A 9 7 6"), where it read as a line of its own; it goes on under its first suit."""
    from batak.cli.console import _hand_lines, visible_len

    suits = (("S", "AK92"), ("H", "AKQ9432"), ("D", "Q8752"), ("C", "A976"))
    hand = [rank + suit for suit, ranks in suits for rank in ranks]
    style = Style(None)
    for width in (40, 50):
        style.width = width
        lines = _hand_lines(code, lang, style, hand, who="Ayşe")
        assert len(lines) > 1 and max(visible_len(x) for x in lines) <= width, lines
        first = lines[0].index("♠")
        for line in lines[1:]:
            assert len(line) - len(line.lstrip()) == first, lines
        groups = [g for x in lines for g in x[first:].split("   ")]
        assert groups == style.hand(hand).split("   "), lines


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_batak_line_says_what_it_costs(lang: str) -> None:
    """A defender who took no trick was told "Computer 1 took no trick: batak!" and no more:
    what that costs (at Sultan, 10 × the bid) was only in the sheet. The line says it."""
    from batak.cli.console import Console, Narrator, seat_labels

    match = Match("sultan-ihaleli", seed=1)
    while not match.sheet:  # the first legal move each time: seats 1 and 2 take no trick
        match.play(match.legal_moves()[0])
    game, row = match.games[0], match.sheet[-1]
    assert game.contract is not None and game.contract.bid == 4, game.contract
    assert game.tricks_won[1] == game.tricks_won[2] == 0 and row.scores == [41, -40, -40, 8]
    out = io.StringIO()
    labels = seat_labels(4, 0, lang)
    Narrator(
        Console(out, io.StringIO()),
        labels,
        lang,
        Style(None),
        reveal=False,
        each_card=False,
        own_seat=0,
    ).deal_result(game, row)
    said = [x for x in out.getvalue().splitlines() if "batak!" in x]
    assert len(said) == 2, out.getvalue()
    points = {"en": "-40 points", "tr": "-40 puan"}[lang]
    assert all(points in x for x in said), said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_last_at_a_new_deal_s_start_shows_the_last_deal_s_trick_where_the_table_allows(
    lang: str,
) -> None:
    """'son' / 'last' before a new deal's first trick said "No trick has been played yet." /
    "Henüz löve oynanmadı.", after a whole deal of tricks. Where the table shows the last trick
    at any time (standard, CetinsGame) it shows the previous deal's, named by its deal; where it
    shows it during its own deal only (Sultan), it says that this deal has none yet."""
    from batak.cli.console import Console
    from batak.cli.play import PlaySession

    def at_deal_two(preset: str) -> tuple[str, Game]:
        match = Match(preset, seed=1)
        while len(match.games) < 2 or match.game.redeal:
            match.play(match.legal_moves()[0])
        first = match.games[-2]
        session = PlaySession(Console(io.StringIO(), io.StringIO()), match, 0, lang, {}, None)
        session.style.width = 60
        said = session.last_trick_text(match.game)
        assert all(columns(x) <= 60 for x in said.splitlines()), said
        return " ".join(x.strip() for x in said.splitlines()), first

    said, first = at_deal_two("standard")
    assert first.last_trick is not None
    assert said.startswith({"en": "Last trick of deal 1:", "tr": "1. elin son lövesi:"}[lang])
    assert Style(None).card(first.last_trick.cards[-1]) in said, said
    said, _ = at_deal_two("sultan-ihaleli")
    assert said.startswith({"en": "No trick yet in this deal", "tr": "Bu elde henüz"}[lang]), said


KOZ_MACA_SAID_OF_AN_IHALE = ("bidding", "min_bid", "max_bid", "overtricks_count", "scoring")
KOZ_MACA_SAID_OF_AN_IHALE += ("down_scoring",)
KOZ_MACA_SAID_OF_AN_IHALE += ("down_penalty", "overtrick_points", "overtrick_limit")


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_batak_rules_says_a_koz_maca_table_s_options_of_the_soz(lang: str) -> None:
    """``batak rules sultan-kozmaca`` said its options as of an auction: "bundan düşük teklif
    verilemez", "ihalecinin fazla löveleri", "batan oyuncu ihale ne olursa olsun", Sultan's
    "diğerleri löve başına 1" (there are no others: each player scores their own söz). At a
    Koz Maça table those sentences speak of each player's söz; elsewhere they are as they were."""
    from batak.cli.rules import rules_lines
    from batak.explain import option_help

    style = Style(None)
    wrong = {"en": ("bidder", "auction", "contract", "others"), "tr": ("ihale", "teklif", "diğer")}
    for preset, soz in (("sultan-kozmaca", True), ("sultan-ihaleli", False)):
        lines = rules_lines(preset, lang, style)
        for option in KOZ_MACA_SAID_OF_AN_IHALE:
            at = next(i for i, x in enumerate(lines) if f"({option}):" in x)
            end = next(i for i in range(at + 1, len(lines)) if not lines[i].startswith("   "))
            block = lines[at:end]  # the option's name and value, then its sentence
            said = " ".join(x.strip() for x in block).split(":", 1)[1]
            found = [w for w in wrong[lang] if w in said.lower()]
            if soz:
                assert not found, (option, said)
                assert "(kitty_size):" not in "\n".join(lines)  # no kitty without an auction
            else:  # an auction's table: the option's own sentence
                sentence = " ".join(x.strip() for x in block if x.startswith(" " * 6))
                assert sentence == option_help(option, lang), (option, said)


@pytest.mark.parametrize(("lang", "title"), [("en", "commands:"), ("tr", "komutlar:")])
def test_batak_help_s_commands_stand_under_their_title_not_under_a_placeholder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, title: str
) -> None:
    """Under "komutlar:" the help had a line with "KOMUT" alone, the usage's placeholder, and
    the commands indented under it, as if KOMUT were one more thing to type. The commands
    stand under the title, as the options stand under theirs."""
    monkeypatch.setenv("COLUMNS", "60")
    lines = help_of(capsys, ["--help", "--lang", lang]).splitlines()
    at = lines.index(title)
    assert lines[at + 1].split()[0] == "play", lines[at : at + 3]
    assert lines[at + 1].startswith("  play "), lines[at : at + 3]


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("down_scoring", "shortfall"),
        ("scoring", "simple"),
        ("scoring", "tens"),
        ("scoring", "primli"),
    ],
)
def test_a_koz_maca_table_s_changed_options_are_said_of_the_soz(
    lang: str, option: str, value: str
) -> None:
    """``batak play sultan-kozmaca --down-scoring shortfall`` said "Batınca yazılan: yalnız
    ihaleden eksik kalan löveler", "--scoring simple" "batan ihaleci −ihale yazar": the line of
    changed options did not pass the table to the values' meanings, and only Sultan's scoring
    and the whole-bid down_scoring had a Koz Maça sentence. Every value is said of the söz."""
    from batak.cli.rules import changed_rules
    from batak.rules import PRESETS

    rules = PRESETS["sultan-kozmaca"].replace(**{option: value})
    said = changed_rules(rules, lang, Style(None))
    assert said is not None
    meaning = said.split(": ", 2)[2]
    wrong = {"en": ("bidder", "bid", "contract", "others"), "tr": ("ihale", "teklif", "diğer")}
    assert not [w for w in wrong[lang] if w in meaning], said
    assert "söz" in meaning, said


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_koz_maca_table_names_its_lowest_and_highest_soz_so(lang: str) -> None:
    """``batak rules sultan-kozmaca`` showed "En düşük teklif (min_bid): 1" over "bundan düşük
    söz söylenemez": the sentence was said of the söz, its name still of an auction's teklif
    (and so did the line of changed options, "En yüksek teklif: 7"). At a Koz Maça table the
    lowest and highest are named of the söz; at an auction's table as they were."""
    from batak.cli.rules import changed_rules, rules_lines
    from batak.rules import PRESETS

    style = Style(None)
    soz = {"en": ("Lowest söz", "Highest söz"), "tr": ("En düşük söz", "En yüksek söz")}[lang]
    bid = {"en": ("Lowest bid", "Highest bid"), "tr": ("En düşük teklif", "En yüksek teklif")}
    for preset, names in (("sultan-kozmaca", soz), ("sultan-ihaleli", bid[lang])):
        lines = rules_lines(preset, lang, style)
        for option, name in zip(("min_bid", "max_bid"), names, strict=True):
            line = next(x for x in lines if f"({option}):" in x)
            assert line.strip().startswith(f"{name} ({option}):"), line
    said = changed_rules(PRESETS["sultan-kozmaca"].replace(max_bid=7), lang, style)
    assert said is not None and f"{soz[1]}: 7" in said, said


@pytest.mark.parametrize(
    ("lang", "title", "options", "positionals"),
    [
        ("en", "commands:", "options:", "positional arguments"),
        ("tr", "komutlar:", "seçenekler:", "konumsal argümanlar"),
    ],
)
@pytest.mark.parametrize("width", [60, 100])
def test_batak_admin_help_s_jobs_stand_under_their_own_title(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    title: str,
    options: str,
    positionals: str,
    width: int,
) -> None:
    """``batak admin --help`` listed its jobs under argparse's "positional arguments" /
    "konumsal argümanlar", as ``batak --help`` did its commands before session 44. They stand
    under "commands" / "komutlar", as batak's own commands do, before the options."""
    monkeypatch.setenv("COLUMNS", str(width))
    out = help_of(capsys, ["admin", "--help", "--lang", lang])
    lines = out.splitlines()
    assert positionals not in out, out
    at = lines.index(title)
    assert lines[at + 1].startswith("  players "), lines[at : at + 3]
    jobs = [x.split()[0] for x in lines[at + 1 : lines.index(options)] if re.match(r"  \S", x)]
    assert jobs[-1] == "password" and {"ban", "backup", "export", "erase", "vip"} <= set(jobs)
    assert all(columns(x) <= width for x in lines), out


@pytest.mark.parametrize(
    ("lang", "word", "head"), [("en", "last", "Last trick: "), ("tr", "son", "Son löve: ")]
)
@pytest.mark.parametrize("width", [60, 100])
def test_the_last_trick_goes_on_under_its_first_card_as_the_hand_does(
    monkeypatch: pytest.MonkeyPatch, lang: str, word: str, head: str, width: int
) -> None:
    """'son' / 'last' at 60 columns went on at a 2-column indent after its first line
    ("  · You: A♥  → You"), which read as a line of its own under the table's other lines. It
    goes on under its first card, the separator in the margin, as the hand goes on under its
    first suit; at 100 columns it is one line."""
    args = ["play", "--seed", "2", "--level", "easy", "--lang", lang]
    code, text = on_a_terminal(monkeypatch, args, width, f"pas\n1\n1\n{word}\n")
    assert code == 0
    said = text[text.rindex(f"> {word}\n") + len(word) + 3 :].split("> ")[0].splitlines()[:-1]
    assert said[0].startswith(head) and all(columns(x) <= width for x in said), said
    if width == 100:
        assert len(said) == 1, said
        return
    assert len(said) > 1, said
    margin = " " * (len(head) - 2) + "· "
    for line in said[1:]:
        assert line.startswith(margin) or line.startswith(" " * len(head) + "→"), said


@pytest.mark.parametrize(
    ("lang", "heads"),
    [
        ("en", ("Computer players: ", "İhale (auction): ", "Tricks taken: ", "Last trick: ")),
        ("tr", ("Bilgisayar oyuncuları: ", "İhale: ", "Alınan löveler: ", "Son löve: ")),
    ],
)
def test_the_table_s_lists_all_go_on_under_their_first_item(
    monkeypatch: pytest.MonkeyPatch, lang: str, heads: tuple[str, ...]
) -> None:
    """At 60 columns the last trick went on under its first card ("Last trick: Computer 1: A♠ …"
    / "          · You: K♠"), but the lines about it, the auction, the tricks taken, the cards on
    the table and the trick just played, went on at two columns ("  · Computer 3: pas"): one
    block in two styles. Every list goes on under its first item, the separator in the margin (the
    computer players' names at the start too)."""
    args = ["play", "--seed", "2", "--level", "easy", "--lang", lang]
    code, out = on_a_terminal(monkeypatch, args, 60, "pas\n1\n")
    assert code == 0
    lines = out.splitlines()
    heads += ({"en": "On the table: ", "tr": "Yerde: "}[lang],)
    trick = {"en": r"Trick \d+: ", "tr": r"\d+\. löve: "}[lang]
    went_on = 0
    for above, line in itertools.pairwise(lines):
        if not re.match(r" +· ", line):
            continue
        head = next((h for h in heads if above.startswith(h)), None)
        found = re.match(trick, above)
        if head is None and found is not None:
            head = found[0]
        if head is None:  # a line gone on already: under the same margin
            assert re.match(r" +· ", above), (above, line)
            assert above.index("·") == line.index("·"), (above, line)
            continue
        went_on += 1
        assert line.startswith(" " * (len(head) - 2) + "· "), (above, line)
    assert went_on >= 5, "\n".join(lines)


# ---------------------------------------------------------------------- admin --redis
REDIS_URL = "redis://127.0.0.1:6379/0"


def _admin_database(url: str) -> None:
    """An account, Zeynep, in the database at ``url`` (made if new)."""
    import asyncio

    from batak.server.storage import PlayerRow, open_storage

    async def made() -> None:
        storage = open_storage(url)
        await storage.open()
        try:
            await storage.create_player(PlayerRow("pa11ce000001", "Zeynep", "tok-z", 0.0, "zeynep"))
        finally:
            await storage.close()

    asyncio.run(made())


def _usernames(url: str) -> list[str | None]:
    import asyncio

    from batak.server.storage import open_storage

    async def read() -> list[str | None]:
        storage = open_storage(url)
        await storage.open()
        try:

            def job(cur: Any) -> list[str | None]:
                cur.execute("SELECT username FROM players ORDER BY id")
                return [r[0] for r in cur.fetchall()]

            return await storage.run(job)
        finally:
            await storage.close()

    return asyncio.run(read())


@pytest.mark.parametrize("before", [True, False], ids=["before-erase", "after-erase"])
def test_admin_takes_redis_before_or_after_erase(before: bool) -> None:
    """``--redis`` was taken only after ``erase`` (``batak admin erase NAME --redis URL``);
    ``batak admin --redis URL erase NAME`` was an error (argparse read the address as the
    job). It is an option of ``batak admin``, as ``--data`` is: before or after the job's
    name, the one after it winning when both are given."""
    job = ["erase", "zeynep", "--yes"]
    given = ["--redis", REDIS_URL]
    args = build_parser("en").parse_args(
        ["admin", *given, *job] if before else ["admin", *job, *given]
    )
    assert args.job == "erase" and args.redis == REDIS_URL
    other = "redis://10.0.0.2:6379/0"
    both = build_parser("en").parse_args(["admin", *given, *job, "--redis", other])
    assert both.redis == other
    assert build_parser("en").parse_args(["admin", *job]).redis is None


@pytest.mark.parametrize("before", [True, False], ids=["before-erase", "after-erase"])
def test_admin_erase_refuses_redis_beside_sqlite_wherever_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], before: bool
) -> None:
    """``--redis`` before ``erase`` reaches the erasure as it does after it: beside an SQLite
    database (a cluster's is PostgreSQL) it is refused, exit 2, nothing asked or changed."""
    from batak.server.config import ServerConfig

    data = tmp_path / "data"
    url = ServerConfig(data=data).database_url
    _admin_database(url)
    job = ["erase", "zeynep", "--yes", "--data", str(data)]
    for lang, words in (("en", "this one is SQLite"), ("tr", "bu veritabanı SQLite")):
        given = ["--redis", REDIS_URL, "--lang", lang]
        argv = ["admin", *given, *job] if before else ["admin", *job, *given]
        assert main(argv) == 2
        said = capsys.readouterr()
        assert words in said.err and said.out == ""
    assert _usernames(url) == ["zeynep"]


@pytest.mark.parametrize(
    "job",
    [
        ["players"], ["ban", "zeynep"], ["unban", "zeynep"], ["export", "zeynep"],
        ["ledger-check"], ["chip-report"], ["vip", "zeynep", "on"], ["password", "zeynep"],
        ["backup", "copy.db"],
    ],
    ids=lambda job: job[0],
)  # fmt: skip
def test_admin_refuses_redis_with_any_job_but_erase_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], job: list[str]
) -> None:
    """``--redis`` means something to ``erase`` only (which tables a cluster's processes keep
    aside to close). With another job, before or after its name, it is refused in the
    operator's language, exit 2, before the database is opened (nothing done: the ban, VIP
    flag or copy not made), rather than taken and ignored or called an unknown argument."""
    from batak.server.config import ServerConfig

    data = tmp_path / "data"
    url = ServerConfig(data=data).database_url
    _admin_database(url)
    where = ["--data", str(data)]
    for lang, words in (
        ("en", f"--redis is for erase only (it reads which tables a cluster's processes keep aside to close); {job[0]} does not use it"),  # noqa: E501
        ("tr", f"--redis yalnızca erase içindir (kümenin süreçlerinin kapatmak için bir kenara ayırdığı masaları okur); {job[0]} işi onu kullanmaz"),  # noqa: E501
    ):  # fmt: skip
        given = ["--redis", REDIS_URL, "--lang", lang]
        for argv in (["admin", *where, *given, *job], ["admin", *where, *job, *given]):
            assert main(argv) == 2, argv
            said = capsys.readouterr()
            assert said.err == f"batak admin: {words}\n" and said.out == "", said
    assert not (tmp_path / "copy.db").exists()
    assert _usernames(url) == ["zeynep"]
    assert main(["admin", *where, "ban", "zeynep"]) == 0  # (the same without --redis: done)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_admin_help_lists_redis_for_the_admin_and_erase_only(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``--redis`` is listed by ``batak admin --help`` (for erase, it says) and ``batak
    admin erase --help``, not by the jobs that refuse it."""
    said = {"en": "for erase: the cluster's Redis", "tr": "erase için: kümenin Redis'i"}[lang]
    for argv in (["admin"], ["admin", "erase"]):
        out = help_of(capsys, [*argv, "--help", "--lang", lang])
        assert "--redis" in out and said in " ".join(out.split()), out
    for job in ("players", "ban", "export", "ledger-check", "password", "backup"):
        assert "--redis" not in help_of(capsys, ["admin", job, "--help", "--lang", lang])


@pytest.mark.parametrize("before", [True, False], ids=["before-erase", "after-erase"])
def test_admin_erase_reads_redis_given_before_or_after_it_on_postgresql(
    capsys: pytest.CaptureFixture[str], before: bool
) -> None:
    """On PostgreSQL ``--redis`` is read wherever it is given: here no process of a cluster
    has run on the database, which the operator is told (Redis is not even asked), and the
    account is erased. (With a cluster's Redis and a table kept aside:
    tests/server/test_server_unmake.py.)"""
    import contextlib
    import os
    import secrets

    base = os.environ.get("BATAK_TEST_POSTGRES")
    if not base:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    psycopg = pytest.importorskip("psycopg")
    name = "batak_" + secrets.token_hex(6)
    with contextlib.ExitStack() as stack:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")

        def dropped() -> None:
            with psycopg.connect(base, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

        stack.callback(dropped)
        url = f"{base.rpartition('/')[0]}/{name}"
        _admin_database(url)
        job = ["erase", "zeynep", "--yes", "--database", url]
        given = ["--redis", REDIS_URL, "--lang", "en"]
        assert main(["admin", *given, *job] if before else ["admin", *job, *given]) == 0
        said = capsys.readouterr()
        assert "No process of a cluster runs on this database" in said.out, said
        assert "zeynep is deleted" in said.out
        assert _usernames(url) == [None]
