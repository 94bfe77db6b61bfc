"""The bot arena: duplicate seatings, reproducible parallel runs, statistics, files, the command.

The arena is tested with small players defined here (importable as ``module:Class`` specs, so the
worker processes can build them too), so these tests do not depend on the real bots.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import random
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import batak.bots
from batak import Game, Rules
from batak.arena import (
    ALL_SEEING,
    AllSeeingPlayer,
    ArenaConfig,
    ArenaError,
    mean_ci,
    percentile,
    play_board,
    report_lines,
    run,
    seat_maps,
    summarize,
    t_quantile,
    write_plot,
)
from batak.cli import build_parser, main
from batak.cli.arena import Progress, run_arena

HERE = __name__  # "test_arena": the specs below name classes of this module


class LocalRandom:
    """A uniformly random legal move."""

    name = "local-random"

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        return str(self.rng.choice(view["legal_moves"]))


class LocalBase:
    """A sensible simple player from outside the package: the easy bot behind a class here."""

    name = "local-base"

    def __init__(self, *, seed: int | None = None) -> None:
        self.player = batak.bots.get("easy", seed=seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        return self.player.choose(view)


class AlwaysPass(LocalRandom):
    """Passes whenever it may, else random."""

    def choose(self, view: Mapping[str, Any]) -> str:
        return "pass" if "pass" in view["legal_moves"] else super().choose(view)


class Cheater(LocalRandom):
    """Answers with a move that is never legal."""

    def choose(self, view: Mapping[str, Any]) -> str:
        return "bid 99"


RANDOM = f"{HERE}:LocalRandom"
BASE = f"{HERE}:LocalBase"


def _strip_times(result: Mapping[str, Any]) -> dict[str, Any]:
    players = {p: {k: v for k, v in s.items() if k != "time"} for p, s in result["players"].items()}
    return {
        "boards": result["boards"],
        "players": players,
        "pairs": result["pairs"],
        "summary": result["summary"],
    }


# ---------------------------------------------------------------------- reproducibility
def test_same_seed_same_results_for_any_number_of_jobs() -> None:
    config = ArenaConfig(bots=(BASE, RANDOM), deals=6, seed=11)
    one = run(config, jobs=1)
    again = run(config, jobs=1)
    two = run(config, jobs=2)
    assert _strip_times(one) == _strip_times(again) == _strip_times(two)
    assert two["run"]["jobs"] == 2
    other_seed = run(ArenaConfig(bots=(BASE, RANDOM), deals=6, seed=12), jobs=1)
    assert other_seed["boards"] != one["boards"]
    # the players' decision times are measured (and only they differ between runs)
    assert one["players"]["LocalBase"]["time"]["decisions"] > 0


def test_common_seeds_make_an_a_a_run_exactly_even(tmp_path: Path) -> None:
    """With common seeds each seat's player draws the same seed in both seatings, so a player
    against itself plays the same game twice: every board's difference is exactly zero. By
    default the seed also depends on the seating, and the same A/A run is not even."""
    by_seating = run(ArenaConfig(bots=(RANDOM, RANDOM), deals=6, seed=3), jobs=1)
    common = run(ArenaConfig(bots=(RANDOM, RANDOM), deals=6, seed=3, common_seeds=True), jobs=1)
    for rec in common["boards"]:
        first, second = rec["rotations"]
        assert first["seats"] != second["seats"]
        assert first["scores"] == second["scores"] and first["tricks"] == second["tricks"]
    (pair,) = common["pairs"]
    assert pair["mean"] == 0
    assert any(
        rec["rotations"][0]["scores"] != rec["rotations"][1]["scores"]
        for rec in by_seating["boards"]
    )
    assert by_seating["pairs"][0]["mean"] != 0
    # the deals are the same either way: only the players' seeds differ
    assert [r["deal_seed"] for r in common["boards"]] == [
        r["deal_seed"] for r in by_seating["boards"]
    ]
    # the command's flag, recorded with the run
    out = tmp_path / "a.json"
    args = ["arena", "--bots", f"{RANDOM},{RANDOM}", "--deals", "2", "--seed", "3", "--jobs", "1"]
    assert main([*args, "--common-seeds", "--out", str(out), "--no-plot", "--quiet"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["config"]["common_seeds"] is True
    assert "Each seat's player had the same seed in every seating" in report_lines(data)[1]
    assert "aynı tohumu" in report_lines(data, "tr")[1]
    assert "same seed" not in "\n".join(report_lines(by_seating))
    assert data["boards"] == common["boards"][:2]


# ---------------------------------------------------------------------- duplicate seatings
def test_seat_maps_are_the_distinct_rotations() -> None:
    assert seat_maps([0, 1, 0, 1]) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert seat_maps([0, 1, 1, 1]) == [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    assert seat_maps([0, 1, 0]) == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert seat_maps([0, 1, 2, 3]) == [[0, 1, 2, 3], [3, 0, 1, 2], [2, 3, 0, 1], [1, 2, 3, 0]]


@pytest.mark.parametrize(
    ("preset", "bots", "field", "seatings"),
    [
        ("standard", (BASE, RANDOM), None, 2),
        ("zipi-kitty", (BASE, RANDOM), None, 3),
        ("cetinsgame-esli", (BASE, RANDOM), None, 2),
        ("standard", (BASE,), RANDOM, 4),
    ],
)
def test_every_player_holds_every_hand_of_the_same_deal(
    preset: str, bots: tuple[str, ...], field: str | None, seatings: int
) -> None:
    rules = Rules.preset(preset)
    config = ArenaConfig(bots=bots, rules=rules, deals=3, seed=5, field=field)
    result = run(config, jobs=1)
    labels = config.labels
    deal_ids = set()
    for rec in result["boards"]:
        rots = rec["rotations"]
        assert len(rots) == seatings
        ids = {rot["deal_id"] for rot in rots}
        assert len(ids) == 1, "every seating plays the same deal"
        deal_ids |= ids
        game = Game(rules, seed=rec["deal_seed"], dealer=rec["dealer"])  # the board replays
        assert [str(c) for c in game.initial_hands[0]] and game.dealer == rec["dealer"]
        for who in labels:
            held = {s for rot in rots for s, p in enumerate(rot["seats"]) if p == who}
            assert held == set(range(rules.players)), f"{who} held only seats {held}"
        if rules.partners:  # eşli: the two players are the two partnerships
            for rot in rots:
                assert rot["seats"][0] == rot["seats"][2] != rot["seats"][1] == rot["seats"][3]
    assert len(deal_ids) == 3, "boards are different deals"


def test_a_board_replays_from_its_seed() -> None:
    config = ArenaConfig(bots=(BASE, RANDOM), deals=2, seed="x")
    rec, times = play_board(config, 1)
    assert rec["deal_seed"] == "arena:x:1" and rec["dealer"] == 1
    again, _ = play_board(config, 1)
    assert again == rec
    assert any(key.startswith("LocalBase|") for key in times)


# ---------------------------------------------------------------------- statistics
def test_t_quantiles_match_the_table() -> None:
    table = {1: 12.706, 2: 4.303, 3: 3.182, 5: 2.571, 10: 2.228, 30: 2.042, 100: 1.984}
    for df, want in table.items():
        assert t_quantile(0.975, df) == pytest.approx(want, abs=1e-3)
    assert t_quantile(0.995, 4) == pytest.approx(4.604, abs=1e-3)
    assert t_quantile(0.025, 7) == pytest.approx(-2.365, abs=1e-3)
    assert t_quantile(0.975, 100_000) == pytest.approx(1.960, abs=1e-3)


def test_mean_ci_and_percentiles_on_known_data() -> None:
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.776445 * math.sqrt(2.5 / 5)
    assert mean == 3.0
    assert (lo, hi) == pytest.approx((3 - half, 3 + half), abs=1e-3)
    m1, lo1, hi1 = mean_ci([4.0])
    assert m1 == 4.0 and math.isnan(lo1) and math.isnan(hi1)
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(list(range(101)), 95) == 95.0


def _rotation(seats: list[str], scores: list[int], bidder: int | None = None) -> dict[str, Any]:
    return {
        "seats": seats,
        "scores": scores,
        "redeal": bidder is None,
        "bidder": bidder,
        "bid": 5 if bidder is not None else None,
        "made": bidder is not None and scores[bidder] > 0,
    }


def test_summary_pairs_boards_and_counts_contracts() -> None:
    # two boards, each in two seatings: A's board means are 15 and 2.5, B's 5 and 2.5
    a, b = "A", "B"
    records = [
        {
            "rotations": [
                _rotation([a, b, a, b], [20, 0, 10, 10], bidder=0),
                _rotation([b, a, b, a], [0, 10, 10, 20], bidder=2),
            ]
        },
        {
            "rotations": [
                _rotation([a, b, a, b], [10, 0, 0, 10], bidder=1),
                _rotation([b, a, b, a], [0, 0, 0, 0]),  # thrown in
            ]
        },
    ]
    out = summarize(records, [a, b], Rules.preset("standard"))
    pa, pb = out["players"][a], out["players"][b]
    assert pa["deal_seats"] == pb["deal_seats"] == 8
    assert pa["mean_score"] == 8.75 and pb["mean_score"] == 3.75
    lo, hi = mean_ci([15.0, 2.5])[1:]
    assert pa["ci95"] == [pytest.approx(lo, abs=1e-3), pytest.approx(hi, abs=1e-3)]
    (pair,) = out["pairs"]
    assert (pair["a"], pair["b"], pair["boards"], pair["mean"]) == (a, b, 2, 5.0)
    assert pair["ci95"] is not None and pair["ci95"][0] < 5.0 < pair["ci95"][1]
    assert (pa["contracts"], pb["contracts"]) == (1, 2)
    assert pa["made_share"] == 1.0 and pb["made_share"] == 0.5 and pb["mean_bid"] == 5.0
    assert out["summary"] == {"boards": 2, "deals": 4, "redeals": 1, "contracts": "auction"}


def test_thrown_in_deals_count_as_zero_and_are_reported() -> None:
    rules = Rules.preset("standard", all_pass="redeal")
    pas = f"{HERE}:AlwaysPass"
    result = run(ArenaConfig(bots=(pas, RANDOM), rules=rules, deals=2, field=None), jobs=1)
    # everyone passes only when AlwaysPass holds all seats: never here, so check the field case
    assert result["summary"]["redeals"] == 0
    config = ArenaConfig(bots=(pas, f"{HERE}:AlwaysPass"), rules=rules, deals=2)
    result = run(config, jobs=1)
    assert result["summary"]["redeals"] == result["summary"]["deals"] == 4
    assert all(p["mean_score"] == 0 for p in result["players"].values())
    assert any("0" in line and "4" in line for line in report_lines(result, "en")[-2:])


def test_the_report_says_what_its_columns_mean_and_help_where_more_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """deal-seats, contracts, made, 95% CI (%95 GA, el-koltuk) were explained only in
    docs/bots.md, which --help did not name."""
    result = run(ArenaConfig(bots=(BASE, RANDOM), deals=1), jobs=1)
    for lang, words in {
        "en": ("deal-seats: ", "contracts: ", "made: ", "95% CI: ", "p50/p95"),
        "tr": ("el-koltuk: ", "ihale aldı: ", "tuttu: ", "%95 GA: güven aralığı", "p50/p95"),
    }.items():
        lines = report_lines(result, lang)
        rule = next(i for i, line in enumerate(lines) if line.startswith("------"))
        diff = next(i for i, line in enumerate(lines) if "LocalBase − LocalRandom" in line)
        legend = "\n".join(lines[rule + 3 : diff])  # under the two players' rows
        assert all(w in legend for w in words), legend
        with pytest.raises(SystemExit):
            main(["arena", "--help", "--lang", lang])
        assert "docs/bots.md" in capsys.readouterr().out


class Sleepy(LocalBase):
    """Takes 30 ms over its first decision of each deal."""

    def choose(self, view: Mapping[str, Any]) -> str:
        if not view["auction"]:
            import time

            time.sleep(0.03)
        return super().choose(view)


def test_one_board_a_players_time_over_the_budget_and_turkish_decimals() -> None:
    """It said "1 boards × 2 seatings"; a player slower than --budget was not said; the
    Turkish report wrote 0.25 where every other Turkish text writes 0,25."""
    result = run(ArenaConfig(bots=(f"{__name__}:Sleepy", RANDOM), deals=1, budget=0.01), jobs=1)
    lines = report_lines(result)
    assert ": 1 board × 2 seatings = 2 deals (seed 1)" in lines[0]
    assert any(line.endswith(" over 1 board: no clear difference") for line in lines), lines
    over = [line for line in lines if "budget" in line]
    assert len(over) == 1 and over[0].startswith("Sleepy: slowest decision "), lines
    assert over[0].endswith(" ms, over the 10 ms budget (--budget).")
    assert result["players"]["Sleepy"]["time"]["max_ms"] >= 30
    tr = "\n".join(report_lines(result, "tr"))
    assert "1 dağıtım × 2 oturma düzeni" in tr
    assert "ms sürdü, 10 ms sınırının (--budget) üstünde" in tr
    row = next(line for line in tr.splitlines() if line.startswith("Sleepy "))
    assert "." not in row and "," in row, row  # +12,5 and 25,0%, not +12.5
    assert "%95 GA [" in tr and "." not in tr.split("%95 GA [")[1].split("]")[0]


def test_an_illegal_move_stops_the_arena_naming_the_player() -> None:
    with pytest.raises(ArenaError, match="Cheater"):
        run(ArenaConfig(bots=(f"{HERE}:Cheater", RANDOM), deals=1), jobs=1)


def test_the_progress_bar() -> None:
    stream = io.StringIO()
    bar = Progress(4, stream, enabled=True, label="boards")
    for done in range(5):
        bar.update(done)
    shown = stream.getvalue()
    assert shown.startswith("\r[") and "0/4 boards" in shown and "ETA" in shown
    assert shown.endswith("\n") and "4/4 boards" in shown.rsplit("\r", 1)[1]
    quiet = io.StringIO()
    Progress(4, quiet, enabled=False).update(4)
    assert quiet.getvalue() == ""


# ---------------------------------------------------------------------- files and command
def test_json_and_plot_files(tmp_path: Path) -> None:
    result = run(ArenaConfig(bots=(BASE, RANDOM), deals=3), jobs=1)
    svg = write_plot(result, tmp_path / "chart.png", use_matplotlib=False)
    assert svg.suffix == ".svg" and svg.exists()
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    assert "LocalBase" in svg.read_text(encoding="utf-8")
    if importlib.util.find_spec("matplotlib") is not None:
        png = write_plot(result, tmp_path / "chart.png")
        assert png.suffix == ".png" and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("preset", "lang"),
    [("standard", "en"), ("zipi-kitty", "tr"), ("esli-acik", "en"), ("sultan-kozmaca", "tr")],
)
def test_the_command_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], preset: str, lang: str
) -> None:
    (tmp_path / "res").mkdir()
    out = tmp_path / "res" / "arena.json"
    plot = tmp_path / "res" / "arena.svg"
    args = ["arena", "--bots", f"{BASE},{RANDOM}", "--preset", preset, "--deals", "3"]
    args += ["--jobs", "1", "--out", str(out), "--plot", str(plot), "--lang", lang, "--quiet"]
    assert main(args) == 0
    stdout, stderr = capsys.readouterr()
    assert "LocalBase − LocalRandom" in stdout
    assert ("95% CI" if lang == "en" else "%95 GA") in stdout
    assert stderr == ""
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["config"]["preset"] == preset
    assert data["config"]["rules"] == Rules.preset(preset).to_dict()
    assert set(data["players"]) == {"LocalBase", "LocalRandom"}
    assert len(data["boards"]) == 3
    assert {"batak", "python", "solver"} <= set(data["versions"])
    assert plot.exists() or plot.with_suffix(".svg").exists()


def test_the_command_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--deals", "1", "--out", str(tmp_path / "a.json"), "--quiet", "--lang", "en"]
    assert main(["arena", "--bots", "no-such-bot,easy", *common]) == 2
    assert "cannot use the player 'no-such-bot': " in capsys.readouterr().err
    assert main(["arena", "--bots", RANDOM, *common]) == 2
    assert "--field" in capsys.readouterr().err
    five = ",".join([RANDOM] * 5)
    assert main(["arena", "--bots", five, *common]) == 2
    assert main(["arena", "--bots", f"{RANDOM},{BASE}", "--preset", "nope", *common]) == 2
    assert main(["arena", "--bots", f"{RANDOM},{BASE}", "--rule", "min_bid=99", *common]) == 2
    assert not (tmp_path / "a.json").exists()


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_misspelt_rule_option_names_the_one_it_resembles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``batak arena --rule musttrump=no`` said only "unknown rule option(s): musttrump";
    ``batak play --option`` names the option it resembles and where the names are listed, and
    so does the arena now (with the same words)."""
    out = tmp_path / "a.json"
    args = ["arena", "--preset", "zipi-kitty", "--rule", "musttrump=no", "--deals", "1"]
    assert main([*args, "--out", str(out), "--quiet", "--lang", lang]) == 2
    err = " ".join(capsys.readouterr().err.split())
    said = {
        "en": "unknown rule option(s): musttrump; did you mean must_trump? "
        "'batak rules zipi-kitty' lists them",
        "tr": "bilinmeyen kural seçenek(ler)i: musttrump; must_trump mi demek istedin? "
        "seçeneklerin hepsi 'batak rules zipi-kitty' ile listelenir",
    }[lang]
    assert said in err, err
    assert "musttrump=no" in err and "Traceback" not in err, err
    assert not out.exists()


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_an_output_in_a_missing_folder_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """``--out /nonexistent/dir/a.json`` made those folders wherever they were asked for; a
    folder that does not exist is now refused before any board is played, and nothing says
    "wrote" for a file not written."""
    import batak.cli.arena as cli_arena

    def no_run(*_: object, **__: object) -> None:
        raise AssertionError("the arena ran")

    monkeypatch.setattr(cli_arena, "run", no_run)
    common = ["arena", "--bots", f"{RANDOM},{BASE}", "--deals", "1", "--quiet", "--lang", lang]
    missing = tmp_path / "no" / "such" / "a.json"
    no_folder = {"en": "there is no such folder", "tr": "böyle bir klasör yok"}[lang]
    is_folder = {"en": "that is a folder", "tr": "orası bir klasör"}[lang]
    for extra, named, reason in (
        (["--out", str(missing)], missing, no_folder),
        (["--out", str(tmp_path / "a.json"), "--plot", str(missing.with_suffix(".svg"))],
         missing.with_suffix(".svg"), no_folder),
        (["--out", str(tmp_path)], tmp_path, is_folder),
    ):  # fmt: skip
        assert main([*common, *extra]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert str(named) in err
        assert reason in err, err
    assert not (tmp_path / "no").exists() and not (tmp_path / "a.json").exists()


def test_wrote_is_said_only_for_the_files_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plot that fails after the JSON is written: "wrote" for the JSON only, and the error."""
    import batak.cli.arena as cli_arena

    def broken_plot(*_: object, **__: object) -> Path:
        raise OSError(28, "No space left on device", str(tmp_path / "a.svg"))

    monkeypatch.setattr(cli_arena, "write_plot", broken_plot)
    args = ["arena", "--bots", f"{RANDOM},{BASE}", "--deals", "1", "--jobs", "1", "--quiet"]
    assert main([*args, "--out", str(tmp_path / "a.json"), "--lang", "en"]) == 2
    out, err = capsys.readouterr()
    assert [line for line in out.splitlines() if line.startswith("wrote")] == [
        f"wrote {tmp_path / 'a.json'}"
    ]
    assert f"cannot write {tmp_path / 'a.svg'}: the disk is full" in err


def test_the_default_output_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["arena", "--bots", f"{RANDOM},{BASE}", "--deals", "1", "--jobs", "1", "--quiet"]
    assert main([*args, "--no-plot", "--lang", "en"]) == 0
    assert "wrote results/arena.json" in capsys.readouterr().out
    assert (tmp_path / "results" / "arena.json").exists()


# ---------------------------------------------------------------------- the all-seeing player
def test_the_all_seeing_player_is_never_a_table_player() -> None:
    with pytest.raises(ValueError):
        batak.bots.get(ALL_SEEING)
    with pytest.raises(ValueError):
        batak.bots.get("all-seeing (cheats)")
    with pytest.raises(TypeError):
        AllSeeingPlayer(None)  # type: ignore[arg-type]
    assert AllSeeingPlayer.cheats and "cheats" in AllSeeingPlayer.name


def test_the_all_seeing_player_plays_the_double_dummy_card() -> None:
    game = Game("standard", seed=4, dealer=3)
    helper = LocalBase(seed=1)
    player = AllSeeingPlayer(game, helper=helper, fast=False)
    player.python_limit = 12  # three cards per hand: quick for the pure-Python solver
    others = [LocalBase(seed=s) for s in range(4)]
    while game.phase != "over":
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        move = player.choose(view) if seat == 0 else others[seat].choose(view)
        assert move in view["legal_moves"]
        game.play(move)
    assert player.solved >= 1
    with pytest.raises(ArenaError):
        player.choose(Game("standard", seed=5).view(1))  # a view of another game


def _gone(pid: int) -> bool:
    """Has process ``pid`` ended (a zombie counts: an orphan's reaper may not reap it)?"""
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().split(") ")[-1].startswith("Z")
    except (FileNotFoundError, ProcessLookupError):
        return True


def test_the_arena_workers_end_when_the_arena_is_killed() -> None:
    """``kill -9`` of ``batak arena --jobs 2`` alone (not its process group): its workers stop
    too, in the middle of their boards, instead of playing on for nobody (a worker without the
    watch plays its share of boards to the end, 25 boards of the hard player here, and only
    then finds no one to give them to)."""
    import signal
    import subprocess
    import sys
    import time

    arena = subprocess.Popen(
        [
            *(sys.executable, "-m", "batak", "arena", "--bots", "hard,medium"),
            *("--deals", "5000", "--jobs", "2", "--no-plot", "--quiet"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2:
            assert time.monotonic() < deadline, "the arena started no workers"
            assert arena.poll() is None, "the arena ended early"
            time.sleep(0.1)
            children = Path(f"/proc/{arena.pid}/task/{arena.pid}/children").read_text().split()
            workers = [
                int(c) for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()
            ]
        time.sleep(1.0)  # into their first boards
        assert not any(_gone(w) for w in workers)
    finally:
        arena.send_signal(signal.SIGKILL)
        arena.wait()
    deadline = time.monotonic() + 5
    while not all(_gone(w) for w in workers):
        assert time.monotonic() < deadline, "an arena worker outlived the arena"
        time.sleep(0.05)


class _ClosedPipe(io.StringIO):
    """stdout whose reader has left (``batak arena … | head``): every write fails."""

    def write(self, s: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_leaves_early_does_not_lose_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report used to be printed before the files were written: with the pipe closed the
    results were lost, or the closed pipe was blamed on the results file ("cannot write
    r.json: Broken pipe")."""
    out = tmp_path / "r.json"
    args = build_parser("en").parse_args(
        ["arena", "--bots", f"{RANDOM},{BASE}", "--deals", "2", "--jobs", "1", "--no-plot",
         "--out", str(out), "--lang", "en"]
    )  # fmt: skip
    with pytest.raises(BrokenPipeError):
        run_arena(args, stdout=_ClosedPipe())
    assert len(json.loads(out.read_text(encoding="utf-8"))["boards"]) == 2
    assert "cannot write" not in capsys.readouterr().err


def test_turkish_level_names_are_players_as_in_batak_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak play --level zor`` took them; ``arena --bots zor,kolay`` refused them."""
    out = tmp_path / "a.json"
    args = ["arena", "--bots", "Zor,kolay", "--deals", "1", "--jobs", "1", "--no-plot"]
    assert main([*args, "--out", str(out), "--quiet"]) == 0, capsys.readouterr()
    assert json.loads(out.read_text())["config"]["labels"] == ["hard", "easy"]
    assert main(["arena", "--field", "ORTA", "--bots", "easy", "--deals", "1", "--jobs", "1",
                 "--no-plot", "--out", str(out), "--quiet"]) == 0  # fmt: skip
