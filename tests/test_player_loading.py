"""A bot author's player, named ``module:Class`` (``batak arena --bots``, ``batak bot
--player``): every way of getting it wrong is said in a sentence that says what to fix, in the
reader's language, with the place in the author's code where it broke, never as a traceback.
The same sentences come from the arena, in its worker processes too, and from ``batak bot``."""

from __future__ import annotations

import itertools
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from batak.arena import ArenaConfig, ArenaError, run
from batak.bots import PlayerError, load, shown
from batak.cli import main
from batak.cli.arena import failure_text
from batak.cli.text import player_problem

HERE = __name__
_names = itertools.count()


class Raiser:
    """Fails in its own code at its first card."""

    name = "raiser"

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any]) -> str:
        if view["phase"] == "play":
            return str(view["hand"][99])
        return str(view["legal_moves"][0])


class WrongCard(Raiser):
    """Plays a card it does not hold."""

    def choose(self, view: Mapping[str, Any]) -> str:
        if view["phase"] == "play":
            held = set(view["hand"])
            return next(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432" if f"{r}{s}" not in held)
        return str(view["legal_moves"][0])


class ReturnsTheList:
    def __init__(self, *, seed: int | None = None) -> None:
        pass

    def choose(self, view: dict[str, Any]) -> Any:
        return view["legal_moves"]


class ReturnsNone(Raiser):
    """Forgets to return its move."""

    def choose(self, view: Mapping[str, Any]) -> str:
        return None  # type: ignore[return-value]


class Exits(Raiser):
    """Calls sys.exit() at its first card."""

    def choose(self, view: Mapping[str, Any]) -> str:
        if view["phase"] == "play":
            sys.exit(3)
        return str(view["legal_moves"][0])


@pytest.fixture
def author(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Write a module of the bot author's (a new name each time) where Python finds it."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(source: str) -> str:
        name = f"author_bot_{next(_names)}"
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        monkeypatch.delitem(sys.modules, name, raising=False)
        return name

    return write


def problem(spec: str, lang: str = "en") -> tuple[str, str]:
    with pytest.raises(PlayerError) as e:
        load(spec)
    return e.value.code, player_problem(e.value, lang)


def test_a_class_without_choose(author: Any) -> None:
    mod = author("class Bot:\n    def __init__(self, *, seed=None):\n        pass\n")
    code, said = problem(f"{mod}:Bot")
    assert code == "no_choose"
    assert said == (
        f"{mod}:Bot has no choose(view) method: a player is given its seat's view there and "
        "returns its move (docs/bots.md)"
    )


def test_a_class_that_takes_no_seed(author: Any) -> None:
    mod = author("class Bot:\n    def choose(self, view):\n        return view['legal_moves'][0]\n")
    code, said = problem(f"{mod}:Bot")
    assert code == "no_seed" and "def __init__(self, *, seed=None)" in said
    code, said = problem(f"{mod}:Bot", "tr")
    assert "seed anahtar argümanı kabul etmeli" in said


def test_a_constructor_that_raises_is_named_with_its_line(author: Any, tmp_path: Path) -> None:
    mod = author(
        """\
        class Bot:
            def __init__(self, *, seed=None):
                raise RuntimeError("no model file")

            def choose(self, view):
                return view["legal_moves"][0]
        """
    )
    code, said = problem(f"{mod}:Bot")
    assert code == "init_failed"
    assert said == (
        f"building {mod}:Bot failed: RuntimeError: no model file "
        f"(in __init__, {tmp_path / mod}.py, line 3)"
    )


def test_a_module_that_fails_to_import(author: Any, tmp_path: Path) -> None:
    broken = author("x = 1\ndef choose(view:\n    pass\n")
    code, said = problem(f"{broken}:Bot")
    assert code == "import_failed" and "SyntaxError" in said
    assert f"({tmp_path / broken}.py, line 2)" in said
    needs = author("import numpy_that_is_not_installed_here\n")
    code, said = problem(f"{needs}:Bot")
    # a module the author's module imports is missing: not "Python cannot find your module"
    assert code == "import_failed"
    assert "No module named 'numpy_that_is_not_installed_here'" in said and "line 1" in said


def test_a_name_the_module_lacks_lists_the_players_it_has(author: Any) -> None:
    mod = author(
        """\
        class CheapWinner:
            def __init__(self, *, seed=None):
                pass

            def choose(self, view):
                return view["legal_moves"][0]

        class Helper:
            pass
        """
    )
    code, said = problem(f"{mod}:CheapWiner")
    assert code == "no_class"
    assert said.endswith("has no CheapWiner; the players in it: CheapWinner")


def test_a_module_python_cannot_find_says_how_to_put_it_on_the_path() -> None:
    code, said = problem("my_own_batak_bot:CheapWinner")
    assert code == "no_module"
    assert said == (
        "Python finds no module my_own_batak_bot from here: run the command in the folder that "
        "holds my_own_batak_bot.py with PYTHONPATH=. in front of it, or install the module"
    )


def test_a_dotted_name_or_a_file_instead_of_module_colon_class() -> None:
    code, said = problem("mybot.CheapWinner")
    assert code == "not_a_name" and said.endswith("did you mean mybot:CheapWinner?")
    code, said = problem("bots/mybot.py:CheapWinner")
    assert code == "a_file"
    assert "give its module instead, mybot:CheapWinner" in said and "PYTHONPATH=bots" in said


def test_the_arena_says_what_to_fix_without_a_traceback(
    author: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--deals", "1", "--jobs", "1", "--out", str(tmp_path / "a.json"), "--quiet"]
    bad = author("class Bot:\n    def __init__(self, *, seed=None):\n        1 / 0\n")
    assert main(["arena", "--bots", f"{bad}:Bot,easy", *common, "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "ZeroDivisionError: division by zero (in __init__," in err and "line 3)" in err
    assert main(["arena", "--bots", "medum,easy", *common, "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "is neither a level (random, easy, medium, hard, all-seeing, all-seeing-sim)" in err
    assert main(["arena", "--bots", "mybot.Bot,easy", *common, "--lang", "tr"]) == 2
    assert "mybot:Bot mi demek istedin?" in capsys.readouterr().err
    assert not (tmp_path / "a.json").exists()


def test_batak_bot_says_what_to_fix_before_it_connects(
    author: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["batak"])
    bad = author("class Bot:\n    def __init__(self, *, seed=None):\n        raise OSError('x')\n")
    args = ["bot", "--username", "r", "--password", "12345678", "--lang", "en", "--player"]
    assert main([*args, f"{bad}:Bot"]) == 2  # used to be a traceback
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"building {bad}:Bot failed: OSError: x (in __init__" in err
    assert main([*args, f"{bad}.Bot"]) == 2  # used to say only "cannot load ...: bad.Bot"
    assert f"did you mean {bad}:Bot?" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_player_that_raises_at_play_is_named_with_its_line(jobs: int) -> None:
    with pytest.raises(ArenaError) as e:
        run(ArenaConfig(bots=(f"{HERE}:Raiser", "easy"), deals=2), jobs=jobs)
    said = failure_text(e.value, "en")
    assert said.startswith("Raiser (seat ") and "raised IndexError: list index out of range" in said
    assert f"(in choose, {__file__}, line " in said
    assert "dosyasının" in failure_text(e.value, "tr")


@pytest.mark.parametrize("jobs", [1, 2])
def test_sys_exit_in_a_player_is_its_failure_said_in_one_line(jobs: int) -> None:
    """SystemExit used to end a worker process and leave the pool waiting for ever (with
    ``--jobs 1``: the command ended with code 3 and no word)."""
    with pytest.raises(ArenaError) as e:
        run(ArenaConfig(bots=(f"{HERE}:Exits", "easy"), deals=2), jobs=jobs)
    said = failure_text(e.value, "en")
    assert said.startswith("Exits (seat ") and "raised SystemExit: 3 (in choose, " in said


def test_sys_exit_while_importing_or_building_a_player_is_said(author: Any) -> None:
    mod = author("import sys\nsys.exit('no')\n")
    code, said = problem(f"{mod}:Bot")
    assert code == "import_failed" and "SystemExit: no" in said
    mod = author(
        """
        import sys
        class Bot:
            def __init__(self, *, seed=None):
                sys.exit(2)
            def choose(self, view):
                return view["legal_moves"][0]
        """
    )
    code, said = problem(f"{mod}:Bot")
    assert code == "init_failed" and "SystemExit: 2" in said


def test_an_illegal_card_is_shown_with_the_legal_moves() -> None:
    with pytest.raises(ArenaError) as e:
        run(ArenaConfig(bots=(f"{HERE}:WrongCard", "easy"), deals=1), jobs=1)
    said = failure_text(e.value, "en")
    assert "WrongCard (seat " in said and "you do not hold" in said
    legal = said.split("The legal moves were: ")[1].split(", ")
    assert legal and all(len(m) == 2 for m in legal)
    assert "Geçerli hamleler: " in failure_text(e.value, "tr")


def test_a_player_that_returns_no_move_is_told_what_choose_returns() -> None:
    """It used to read: chose “None”: not a move: 'None'."""
    with pytest.raises(ArenaError) as e:
        run(ArenaConfig(bots=(f"{HERE}:ReturnsNone", "easy"), deals=1), jobs=1)
    said = failure_text(e.value, "en")
    assert said.startswith("ReturnsNone (seat ")
    assert "returned None instead of a move: choose(view) returns one of the view's" in said
    assert "hamle yerine None döndürdü" in failure_text(e.value, "tr")


def test_a_long_value_returned_instead_of_a_move_is_cut_with_an_ellipsis() -> None:
    """A player returning its legal moves (the whole list) was shown as "returned ['pass',
    'bid 4', … 'bid 11 instead of a move": cut at 80 characters in the middle of a word, with
    no mark that anything was left out."""
    with pytest.raises(ArenaError) as e:
        run(ArenaConfig(bots=(f"{HERE}:ReturnsTheList", "easy"), deals=1), jobs=1)
    said = failure_text(e.value, "en")
    got = said.split(" returned ")[1].split(" instead of a move")[0]
    assert got.startswith("['pass', 'bid 4'") and got.endswith("…"), said
    assert len(got) <= 80
    assert shown("QH") == "'QH'" and shown(None) == "None"


def test_a_name_that_is_no_player_is_said_to_be_there_but_no_player(author: Any) -> None:
    """It used to say that the module had no such name."""
    mod = author("LEVEL = 3\n")
    code, said = problem(f"{mod}:LEVEL")
    assert code == "not_a_player"
    assert said.startswith(f"the module {mod} has LEVEL, but it is not a player (int): name a")


def test_a_module_named_without_its_class_is_told_the_player_it_holds(author: Any) -> None:
    """`--player mybot` (the module alone) was answered with the docs' made-up example, "for the
    class MyBot in mybot.py: mybot:MyBot", though mybot.py was there with its one player."""
    bot = (
        "class CheapWinner:\n    def __init__(self, *, seed=None):\n        pass\n\n"
        "    def choose(self, view):\n        return view['legal_moves'][0]\n\n"
    )
    mod = author(bot)
    code, said = problem(mod)
    assert code == "not_a_name"
    assert said.endswith(f"; did you mean {mod}:CheapWinner?"), said
    two = author(bot.replace("CheapWinner", "A") + bot.replace("CheapWinner", "B"))
    assert problem(two)[1].endswith("mybot:MyBot)")  # which of its two: not guessed


def test_a_module_named_alone_is_read_for_the_hint_not_run(tmp_path: Path) -> None:
    """The hint imported the module named alone, running its top-level code on a typo:
    ``batak arena --bots this,easy`` printed the Zen of Python (``antigravity`` would open a
    browser), and a script of the current folder named like the typo ran. Now the author's file
    is read, not run (the hint still given), and the standard library's is not even read."""
    import os
    import subprocess

    (tmp_path / "mytypo.py").write_text(
        "open('ran.txt', 'w').close()\n\n"
        "class Bot:\n    def choose(self, view):\n        return view['legal_moves'][0]\n",
        encoding="utf-8",
    )
    package = tmp_path / "teampkg"  # a package whose __init__ runs code: not imported either
    package.mkdir()
    (package / "__init__.py").write_text("open('ran.txt', 'w').close()\n", encoding="utf-8")
    (package / "smart.py").write_text(
        "import nowhere_to_be_found\n\nclass Smart:\n    def choose(self, view):\n        pass\n",
        encoding="utf-8",
    )
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, "."]), "BATAK_LANG": "en"}
    said = {}
    for spec in ["this", "mytypo", "teampkg.smart"]:
        run_ = subprocess.run(
            [sys.executable, "-m", "batak", "arena", "--bots", f"{spec},easy", "--lang", "en"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run_.returncode == 2, (spec, run_.stdout, run_.stderr)
        said[spec] = run_.stdout + run_.stderr
    assert "Zen of Python" not in said["this"] and "Beautiful" not in said["this"], said["this"]
    assert "did you mean" not in said["this"]
    assert said["mytypo"].rstrip().endswith("did you mean mytypo:Bot?"), said["mytypo"]
    assert said["teampkg.smart"].rstrip().endswith("did you mean teampkg.smart:Smart?")
    assert not (tmp_path / "ran.txt").exists()


@pytest.mark.parametrize(
    "source",
    [
        "x = " + "1+" * 300_000 + "1\n",  # deeper than the parser goes: RecursionError
        "x = " + "-" * 200_000 + "1\n",  # MemoryError
        "class Big:\n    def choose(self, view):\n        pass\n" + "#" * 1_000_001 + "\n",
    ],
    ids=["recursion", "memory", "huge"],
)
def test_a_file_the_parser_cannot_take_gives_no_hint_and_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    """The hint's read of a module named alone never raises: an expression the parser cannot
    take (RecursionError, MemoryError) ended ``batak arena`` in a traceback, and a huge
    generated file was read and parsed for minutes and gigabytes. They now give no hint (the
    example is shown); a bot's own file still gets its hint."""
    from batak.bots import name_hint

    (tmp_path / "odd.py").write_text(source)
    (tmp_path / "fine.py").write_text("class Fine:\n    def choose(self, view):\n        pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert name_hint("odd") == ""
    assert name_hint("fine") == "fine:Fine"
