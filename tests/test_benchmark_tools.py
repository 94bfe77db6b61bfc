"""benchmarks/compare_arena.py: the paired comparison of arena runs, one pair or several pooled
(benchmarks/README.md uses both); benchmarks/pool_arena.py: head-to-head runs on other boards
pooled; benchmarks/medium_signal.py: medium players with other signal weights;
benchmarks/decision_loss.py: two players' cards on the same positions, valued double dummy;
benchmarks/table_sharing.py: the solver's trace and the replay of its search against a table of
coarser keys."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from batak.bots.hard import HardPlayer
from batak.bots.solver import c_engine_available
from batak.game import Game, Phase
from batak.view import view_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bot_variants
import compare_arena
import decision_loss
import medium_signal
import pool_arena
import shared_next
import signal_anatomy
import solver_speed
import table_sharing


def _run(path: Path, seed: int, a: str, scores: list[tuple[float, float]]) -> str:
    """An arena result of ``a`` against medium: per board, one seating each way, with ``a``'s
    and medium's score in each."""
    boards: list[dict[str, Any]] = []
    for i, (mine, theirs) in enumerate(scores):
        boards.append(
            {
                "board": i,
                "rotations": [
                    {"seats": [a, "medium", a, "medium"], "scores": [mine, theirs, mine, theirs]},
                    {"seats": ["medium", a, "medium", a], "scores": [theirs, mine, theirs, mine]},
                ],
            }
        )
    result = {
        "config": {
            "bots": [a, "medium"],
            "preset": "standard",
            "rules": {},
            "seed": seed,
            "deals": len(scores),
        },
        "pairs": [{"a": a, "b": "medium"}],
        "boards": boards,
    }
    path.write_text(json.dumps(result), encoding="utf-8")
    return str(path)


def test_pairs_are_compared_board_by_board_and_pooled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old1 = _run(tmp_path / "o1.json", 1, "hard", [(10, 8), (4, 6), (7, 7)])  # +2, -2, 0
    new1 = _run(tmp_path / "n1.json", 1, "new", [(11, 8), (4, 5), (8, 7)])  # +3, -1, +1
    old2 = _run(tmp_path / "o2.json", 2, "hard", [(5, 5), (9, 3)])  # 0, +6
    new2 = _run(tmp_path / "n2.json", 2, "new", [(5, 5), (9, 4)])  # 0, +5
    assert compare_arena.main([old1, new1]) == 0
    one = capsys.readouterr().out
    assert "second - first: +1.00 per deal" in one and "over 3 boards" in one
    assert compare_arena.main([old1, new1, old2, new2]) == 0
    out = capsys.readouterr().out
    assert "seed 2, standard:" in out and "second - first: -0.50 per deal" in out
    # pooled: (1 + 1 + 1 + 0 - 1) / 5
    assert "all 2 pairs: second - first: +0.40 per deal" in out and "over 5 boards" in out
    # an odd number of files, or two runs on other boards, are refused
    assert compare_arena.main([old1]) == 2
    with pytest.raises(SystemExit, match="same boards"):
        compare_arena.main([old1, new2])
    # the same boards twice would count them twice
    with pytest.raises(SystemExit, match="already in an earlier pair"):
        compare_arena.main([old1, new1, old2, new2, new1, old1])


def test_head_to_head_runs_are_pooled_over_their_boards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _run(tmp_path / "a.json", 1, "hard", [(10, 8), (4, 6), (7, 7)])  # +2, -2, 0
    two = _run(tmp_path / "b.json", 2, "hard", [(5, 5), (9, 3)])  # 0, +6
    assert pool_arena.main([one, two]) == 0
    out = capsys.readouterr().out
    assert "seed 1: hard - medium: +0.00 per deal" in out and "over 3 boards" in out
    assert "seed 2: hard - medium: +3.00 per deal" in out
    assert "all 2 runs: +1.20 per deal" in out and "over 5 boards" in out  # (2 - 2 + 0 + 0 + 6) / 5
    assert pool_arena.main([]) == 2
    with pytest.raises(SystemExit, match="already in an earlier run"):
        pool_arena.main([one, two, one])
    other = _run(tmp_path / "c.json", 3, "new", [(5, 5)])  # another match
    with pytest.raises(SystemExit, match="bots differs"):
        pool_arena.main([one, other])


def test_head_to_head_runs_count_the_contracts_made_in_one_seating_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def rot(seats: list[str], bidder: int | None, bid: int, made: bool, score: float) -> Any:
        scores = [score if s == "a" else 0.0 for s in seats]
        return {"seats": seats, "scores": scores, "bidder": bidder, "bid": bid, "made": made}

    ab, ba = ["a", "b", "a", "b"], ["b", "a", "b", "a"]
    boards = [
        [rot(ab, 0, 8, True, 80), rot(ba, 0, 8, False, 0)],  # a declared and made it: for a
        [rot(ab, 1, 7, True, 0), rot(ba, 1, 7, False, 10)],  # b made it, a did not: for b
        [rot(ab, 1, 7, True, 0), rot(ba, 2, 9, False, 10)],  # another auction
        [rot(ab, 0, 8, True, 0), rot(ba, 0, 8, True, 0)],  # made both times: the same
        [rot(ab, None, 0, False, 0), rot(ba, None, 0, False, 0)],  # passed out
    ]
    result = {
        "config": {"bots": ["a", "b"], "preset": "standard", "rules": {}, "seed": 1, "deals": 5},
        "pairs": [{"a": "a", "b": "b"}],
        "boards": [{"board": i, "rotations": r} for i, r in enumerate(boards)],
    }
    assert pool_arena.contract_swings(result) == (1, 1, 1)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(result), encoding="utf-8")
    assert pool_arena.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "3 boards differ; contracts made in one seating only: 1 for a, 1 for b" in out
    assert "(1 more after another auction)" in out


def test_the_medium_signal_grid_names_its_weights_and_holds_session_26s_medium() -> None:
    from dataclasses import replace

    from batak.bots.medium import DEFAULT, MediumPlayer, Params

    player = medium_signal.MediumSignal_L10_D8(seed=3)
    assert isinstance(player, MediumPlayer) and player.seed == 3
    assert player.params == Params(signal_lead=1.0, signal_discard=0.8, signal_read_free=False)
    # session 26's medium: today's, reading every lead of the suit asked for with a bonus
    assert medium_signal.MediumSignal_L4_D3().params == replace(DEFAULT, signal_read_free=False)
    names = [n for n in dir(medium_signal) if n.startswith("MediumSignal_")]
    assert len(names) == len(medium_signal.LEADS) * len(medium_signal.DISCARDS)


# ---------------------------------------------------------------------- signal_anatomy.py


def test_the_signal_anatomy_finds_nothing_to_put_down_to_a_convention_not_used() -> None:
    """A/A: with the convention off in the player that should use it, no card differs; with it
    on, the cards that differ are valued by the solver on the true hands."""
    off = signal_anatomy.run("sultan-esli", 12, 6000, signal_anatomy.parse_params("signals=0"))
    assert sum(off.decisions.values()) > 20
    assert all(not t.values for t in off.diffs.values()) and not off.split
    on = signal_anatomy.run("sultan-esli", 12, 6000, signal_anatomy.parse_params(""))
    changed = [v for t in on.diffs.values() for v in t.values]
    assert changed and all(-13 <= v <= 13 for v in changed)
    reads = sum(len(on.diffs[k].values) for k in signal_anatomy.KINDS[1:])
    assert reads == sum(len(t.values) for t in on.split.values())
    held, not_held = on.discards[True], on.discards[False]
    assert held[0] + not_held[0] > 10 and 0 < held[1] <= held[0]
    assert not_held[2] == 0  # a card the discarder did not hold is never certain to be there
    lines = signal_anatomy.report(on, "t:")
    assert lines[0] == "t:" and any(line.startswith("  send ") for line in lines)


def test_the_signal_anatomy_reads_medium_parameters_by_name() -> None:
    from batak.bots.medium import Params

    got = signal_anatomy.parse_params("signal_read_free=0,signal_lead=1.5")
    assert got == Params(signal_read_free=False, signal_lead=1.5)
    with pytest.raises(SystemExit, match="no such medium parameter"):
        signal_anatomy.parse_params("nonsense=1")


def test_a_tally_of_changes_sums_and_bounds_its_mean() -> None:
    tally = signal_anatomy.Tally([1, 0, 0, -1, 2])
    assert tally.summary().startswith("a trick a change +0.400 [")
    assert "in all +2 (2 gained, 1 lost, 2 even)" in tally.summary()
    assert signal_anatomy.Tally().summary() == "no change"


# ---------------------------------------------------------------------- decision_loss.py


def _in_play(seed: int) -> Game:
    """A standard deal at its first card, after the same auction as decision_loss's."""
    g, _ = decision_loss.deal_in_play("standard", seed)
    assert g.phase is Phase.PLAY
    return g


def test_a_cards_worth_counts_the_contract_as_the_hard_player_does() -> None:
    g = _in_play(3)
    assert g.contract is not None
    bidder, bid = g.contract.bidder, g.contract.bid
    declarers = frozenset(g.team_of(bidder))
    defenders = frozenset(range(4)) - declarers
    assert decision_loss.worth(g, declarers, bid) == bid + 2 * bid  # made
    assert decision_loss.worth(g, declarers, bid - 1) == bid - 1  # down
    assert decision_loss.worth(g, defenders, 13 - bid) == 13 - bid  # the contract made
    assert decision_loss.worth(g, defenders, 14 - bid) == 14 - bid + 2 * bid  # defeated


def test_the_same_player_twice_never_differs() -> None:
    # the hard player samples worlds: the two get the same seed, so they draw the same ones
    deal = decision_loss.one_deal(("hard", "hard", "standard", 5, "declarer", False))
    assert deal["decisions"], deal
    assert all(d["a"] == d["b"] and "tricks" not in d for d in deal["decisions"])
    lines = decision_loss.summarize([deal], absolute=False)
    assert "chosen differently 0 (0.0%)" in lines[0]


def test_each_decision_is_valued_on_the_true_hands() -> None:
    deal = decision_loss.one_deal(("medium", "easy", "standard", 5, "declarer", True))
    g = _in_play(5)
    assert g.contract is not None
    declarers = frozenset(g.team_of(g.contract.bidder))
    first = deal["decisions"][0]  # the declarer's first card: the opening lead (bidder leads)
    assert first["cards"] == 13 and g.to_move in declarers
    values = {str(c): v for c, v in decision_loss.card_values(g, declarers).items()}
    assert first["tricks"] == [values[first["a"]], values[first["b"]], max(values.values())]
    for d in deal["decisions"]:
        a, b, best = d["tricks"]
        assert a <= best and b <= best
        assert (d["a"] == d["b"]) <= (a == b)
        assert d["worth"][2] >= max(d["worth"][0], d["worth"][1])
    assert any(d["a"] != d["b"] for d in deal["decisions"])  # easy and medium differ somewhere


def test_the_variants_change_only_what_they_say() -> None:
    from batak.bots.hard import DECLARER_WIDE, HardPlayer
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g = _in_play(3)
    assert g.contract is not None
    bidder = g.contract.bidder
    declarer = parse_view(view_of(g, bidder))
    defender = parse_view(view_of(g, (bidder + 1) % 4))
    hard = HardPlayer(seed=1)
    decl16 = bot_variants.HardDeclarerWorlds16(seed=1)
    everyone = bot_variants.HardEveryoneFrom12(seed=1)
    assert hard.reach(declarer) == DECLARER_WIDE
    assert decl16.reach(declarer) == (DECLARER_WIDE[0], 16, 6_000_000)
    assert decl16.reach(defender) == hard.reach(defender) != DECLARER_WIDE
    assert everyone.reach(defender) == everyone.reach(declarer) == DECLARER_WIDE
    assert bot_variants.HardWorlds24(seed=1).worlds == 24 and hard.worlds == 48
    from13 = bot_variants.HardDeclarerFrom13(seed=1)
    assert from13.reach(declarer) == (13, DECLARER_WIDE[1], 6_000_000)
    assert from13.reach(defender) == hard.reach(defender)


def test_the_declaring_side_from_12_at_a_table_with_partners() -> None:
    from batak.bots.hard import DECLARER_WIDE, PARTNER_WIDE
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g, _ = decision_loss.deal_in_play("sultan-esli", 4)
    assert g.contract is not None
    bidder = g.contract.bidder
    variant = bot_variants.HardDeclaringSideFrom12(seed=1)
    for seat in range(4):
        reach = variant.reach(parse_view(view_of(g, seat)))
        assert reach == (DECLARER_WIDE if seat in (bidder, (bidder + 2) % 4) else PARTNER_WIDE)


def test_the_zero_trick_variants() -> None:
    """The old player counts no zero-trick penalty; the pressing declarer also watches the
    defenders without a trick; the standing declarer values the contract as the sheet does."""
    from batak.bots.hard import HardPlayer
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g = _in_play(3)
    assert g.contract is not None
    bidder, bid = g.contract.bidder, g.contract.bid
    declarer = parse_view(view_of(g, bidder))
    defender = parse_view(view_of(g, (bidder + 1) % 4))
    hard = HardPlayer(seed=1)
    old = bot_variants.HardNoZeroTrick(seed=1)
    d_seat = (bidder + 1) % 4
    d_side = hard._side(defender, d_seat)
    assert hard._zero_watch(defender, d_seat, d_side) == [(d_seat, -4.0)]  # standard: 40 / 10
    assert old._zero_watch(defender, d_seat, d_side) == []
    press = bot_variants.HardPressZero(seed=1)
    side = hard._side(declarer, bidder)
    assert hard._zero_watch(declarer, bidder, side) == []
    watched = press._zero_watch(declarer, bidder, side)
    assert sorted(s for s, _ in watched) == [s for s in range(4) if s != bidder]
    assert all(change == pytest.approx(4 / 3) for _, change in watched)
    standing = bot_variants.HardStanding(seed=1)
    # standard (10 a trick): made 10t, down -10b, less a third of the others' 10 a trick
    made = standing._utility(declarer, side, bidder, bid)
    down = standing._utility(declarer, side, bidder, bid - 1)
    assert made == pytest.approx(bid - (13 - bid) / 3)
    assert down == pytest.approx(-bid - (13 - bid + 1) / 3)
    as_defender = standing._utility(defender, d_side, d_seat, 5)
    assert as_defender == hard._utility(defender, d_side, d_seat, 5)  # defenders as before


def test_the_defender_standing_variant() -> None:
    """The standing defender weighs its own tricks, a fellow defender's and the contract as the
    table's scoring does in a standing (own score less the mean of the others')."""
    from batak.bots.hard import HardPlayer
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g = _in_play(3)
    assert g.contract is not None and not any(g.tricks_won)
    bidder, bid = g.contract.bidder, g.contract.bid
    d_seat = (bidder + 1) % 4
    defender = parse_view(view_of(g, d_seat))
    hard = HardPlayer(seed=1)
    variant = bot_variants.HardDefenderStanding(seed=1)
    side = hard._side(defender, d_seat)
    assert variant._zero_watch(defender, d_seat, side) == [(d_seat, 0.0)]

    def worth(side_tricks: int, mine: int) -> float:
        return variant._card_worth(defender, side, d_seat, side_tricks, [(d_seat, 0.0, mine)])

    # standard, 10 a trick: with the contract made, a trick of its own is worth 1 + 1/3 (a
    # rival's 10 less), a fellow defender's nothing: the side's total does not move it
    made = 13 - bid
    assert worth(made, 3) - worth(made, 2) == pytest.approx(4 / 3)
    assert worth(made - 1, 2) == pytest.approx(worth(made, 2))
    # defeating the contract: the declarer's -10b instead of +10b shared among three, and
    # its trick gone to a defender: (2b - 1) / 3 more with the same tricks of its own
    assert worth(made + 1, 2) - worth(made, 2) == pytest.approx((2 * bid - 1) / 3)
    # no trick: the penalty (-40 instead of 10) is counted too
    assert worth(made, 1) - worth(made, 0) == pytest.approx(5 + 1 / 3)
    # the declarer keeps the default's count
    declarer = parse_view(view_of(g, bidder))
    d_side = hard._side(declarer, bidder)
    assert variant._zero_watch(declarer, bidder, d_side) == []
    assert variant._card_worth(declarer, d_side, bidder, bid, []) == hard._utility(
        declarer, d_side, bidder, bid
    )


def test_the_team_standing_variant() -> None:
    """At a Sultan table with partners the team standing weighs the contract as the sheet does
    (10 x the bid each way), an overtrick as a point for one team and one fewer for the other,
    and the defenders' zero-trick penalty once, in the score (not again as a watched seat)."""
    from batak.bots.hard import HardPlayer
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g, _ = decision_loss.deal_in_play("sultan-esli", 4)
    assert g.contract is not None
    bidder, bid = g.contract.bidder, g.contract.bid
    variant = bot_variants.HardTeamStanding(seed=1)
    hard = HardPlayer(seed=1)
    declarer = parse_view(view_of(g, bidder))
    side = hard._side(declarer, bidder)

    def worth(k: int) -> float:
        return variant._utility(declarer, side, bidder, k)

    assert worth(bid + 1) - worth(bid) == pytest.approx(1.0)  # (1 + 1) / 2
    assert worth(bid - 1) - worth(bid - 2) == pytest.approx(0.5)  # down: the others' point
    # made, 10b + 0, against down, -10b, the defenders one trick fewer: (20b + 1) / 2
    assert worth(bid) - worth(bid - 1) == pytest.approx((20 * bid + 1) / 2)
    d_seat = (bidder + 1) % 4
    defender = parse_view(view_of(g, d_seat))
    d_side = hard._side(defender, d_seat)
    assert variant._zero_watch(defender, d_seat, d_side) == []
    assert hard._zero_watch(defender, d_seat, d_side) != []
    # the defenders' first trick also saves them the penalty: 10b + 1 more, over 2
    d_worth = [variant._utility(defender, d_side, d_seat, k) for k in (0, 1, 2)]
    assert d_worth[1] - d_worth[0] == pytest.approx((10 * bid + 1 + 1) / 2)
    assert d_worth[2] - d_worth[1] == pytest.approx(1.0)


def test_the_contract_once_variant() -> None:
    """The contract is worth once or three times the bid in tricks, not twice, on either side."""
    from batak.bots.hard import HardPlayer
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g = _in_play(3)
    assert g.contract is not None
    bidder, bid = g.contract.bidder, g.contract.bid
    players = [
        (HardPlayer(seed=1), 2),
        (bot_variants.HardContractOnce(seed=1), 1),
        (bot_variants.HardContractThrice(seed=1), 3),
    ]
    for seat in (bidder, (bidder + 1) % 4):
        t = parse_view(view_of(g, seat))
        side = players[0][0]._side(t, seat)
        k = bid if seat == bidder else 14 - bid  # just made, or just defeated
        for p, weight in players:
            assert (
                p._utility(t, side, seat, k) - p._utility(t, side, seat, k - 1) == weight * bid + 1
            )


def test_the_inference_variants() -> None:
    """The inference variants read the others' cards at 1.5 and 0.7 and change nothing else."""
    from batak.bots.hard import HardPlayer

    hard = HardPlayer(seed=1)
    for cls, strength in ((bot_variants.HardInfer15, 1.5), (bot_variants.HardInfer07, 0.7)):
        p = cls(seed=1)
        assert p.inference == strength and hard.inference == 1.0
        assert (p.worlds, p.max_cards, p.wide_cards) == (
            hard.worlds,
            hard.max_cards,
            hard.wide_cards,
        )


def test_the_resampled_variant_counts_a_world_as_often_as_it_was_kept() -> None:
    """HardResampled's worlds come with how often each was kept, adding up to the count asked
    for; and a world counted twice weighs in the hard player's average as two draws of it do."""
    import random

    from batak.bots.hard import HardPlayer
    from batak.bots.knowledge import Knowledge, auction_bias, play_bias, product
    from batak.bots.simple import parse_view
    from batak.view import view_of

    g = _in_play(3)
    for _ in range(14):  # into the third trick, so that the play tells something
        g.play(g.legal_moves()[0])
    seat = g.to_move
    assert seat is not None
    t = parse_view(view_of(g, seat))
    weight = product(auction_bias(t), play_bias(t))
    variant = bot_variants.HardResampled(seed=1)
    worlds = list(variant._worlds(Knowledge.from_view(t), random.Random(2), weight, 48))
    assert sum(times for _, times in worlds) == 48
    assert len(worlds) < 48  # some kept more than once

    class Repeated(HardPlayer):
        """Each world drawn once, twice or three times over, one draw at a time."""

        def _worlds(self, knowledge, rng, weight, count):  # type: ignore[no-untyped-def]
            for i, (world, _) in enumerate(super()._worlds(knowledge, rng, weight, count // 2)):
                for _ in range(1 + i % 3):
                    yield world, 1.0

    class Counted(HardPlayer):
        """The same worlds, each drawn once and counted as often."""

        def _worlds(self, knowledge, rng, weight, count):  # type: ignore[no-untyped-def]
            for i, (world, _) in enumerate(super()._worlds(knowledge, rng, weight, count // 2)):
                yield world, float(1 + i % 3)

    repeated, counted = Repeated(seed=4, worlds=12), Counted(seed=4, worlds=12)
    for seed in (3, 5):
        g = _in_play(seed)
        while g.phase is Phase.PLAY:
            seat = g.to_move
            assert seat is not None
            view = view_of(g, seat)
            move = repeated.choose(view)
            assert counted.choose(view) == move
            g.play(move)


def test_world_law_prints_the_effective_share_by_cards_in_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import world_law

    assert world_law.effective_share([0.0, 0.0, 0.0, 0.0]) == pytest.approx(1.0)
    assert world_law.effective_share([0.0, -50.0, -50.0, -50.0]) == pytest.approx(0.25)
    assert world_law.main(["--deals", "2", "--draws", "20", "--max-cards", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "standard, seeds 1+, 20 draws a decision"
    rows = [line.split() for line in out[2:]]
    assert [r[0] for r in rows[:-1]] == sorted((r[0] for r in rows[:-1]), key=int, reverse=True)
    assert rows[-1][0] == "all" and all(0 < float(r[2]) <= 1 for r in rows)


def test_fit_inference_reads_the_card_a_partners_first_discard_promised() -> None:
    """promised_card names the partner and the card its first discard promised, while that card
    is out of sight of the mover; nothing before any discard, nor at a table without partners."""
    import fit_inference
    from batak.bots.medium import MediumPlayer
    from batak.bots.signals import partner_signal
    from batak.bots.simple import parse_view

    read = 0
    for seed in range(6):
        g = Game("sultan-esli", seed=seed)
        bots = [MediumPlayer(seed=seed * 10 + s) for s in range(4)]
        while g.phase is not Phase.OVER:
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            if g.phase is Phase.PLAY:
                t = parse_view(view)
                got = fit_inference.promised_card(t)
                sig = partner_signal(t)
                if sig is None or sig.promised < 0 or (t.played | t.hand) >> sig.promised & 1:
                    assert got is None
                else:
                    assert got == (seat ^ 2, sig.promised)
                    read += 1
            g.play(bots[seat].choose(view))
    assert read >= 5
    plain = _in_play(3)
    assert plain.to_move is not None
    assert fit_inference.promised_card(parse_view(plain.view(plain.to_move))) is None


def test_the_signal_variant_reads_the_partner_at_its_own_strength(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HardSignal15 reads a partner's first discard at 1.5 where the hard player reads it at 8:
    the strength each search hands to signal_weight."""
    import batak.bots.hard as hard_module
    from batak.bots.signals import signal_weight
    from batak.view import view_of

    asked: list[float] = []

    def spy(t: Any, strength: float = 8.0) -> Any:
        asked.append(strength)
        return signal_weight(t, strength)

    monkeypatch.setattr(hard_module, "signal_weight", spy)
    g, _ = decision_loss.deal_in_play("sultan-esli", 2)
    for _ in range(8):
        g.play(g.legal_moves()[0])
    seat = g.to_move
    assert seat is not None
    for player, strength in (
        (bot_variants.HardSignal15(seed=1, max_cards=13, worlds=4), 1.5),
        (hard_module.HardPlayer(seed=1, max_cards=13, worlds=4), 8.0),
    ):
        asked.clear()
        player.choose(view_of(g, seat))
        assert asked == [strength]


def test_the_signal_slack_is_the_players_own() -> None:
    """What a first discard may give up to send the signal is each player's signal_slack: with
    no limit the hard player always discards the low card of the suit it wants, where the
    default (and HardSignalFree, which gives up nothing) may keep it."""
    from batak.bots.hard import SIGNAL_SLACK, HardPlayer
    from batak.bots.medium import MediumPlayer
    from batak.bots.signals import is_first_discard, wanted_suit
    from batak.bots.simple import CARD_INDEX, card_text, parse_view

    class Always(HardPlayer):
        signal_slack = 1e9

    assert HardPlayer.signal_slack == SIGNAL_SLACK and bot_variants.HardSignalFree.signal_slack == 0
    differs = 0
    for seed in range(12):
        g = Game("sultan-esli", seed=seed)
        bots = [MediumPlayer(seed=seed * 10 + s) for s in range(4)]
        while g.phase is not Phase.OVER and differs < 2:
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            t = parse_view(view)
            if g.phase is Phase.PLAY and t.hand_sizes[seat] <= 9 and is_first_discard(t):
                want = wanted_suit(t.hand, t.played, t.trump)
                low = [
                    CARD_INDEX[m]
                    for m in t.legal
                    if want is not None and CARD_INDEX[m] // 13 == want
                ]
                if low:
                    signal = card_text(min(low))
                    assert Always(seed=1, worlds=8).choose(view) == signal
                    free = bot_variants.HardSignalFree(seed=1, worlds=8).choose(view)
                    differs += free != signal
            g.play(bots[seat].choose(view))
    assert differs >= 1


def _hand(*cards: str) -> int:
    from batak.cards import Card

    return sum(Card.parse(c).mask for c in cards)


def test_a_coarse_key_keeps_lengths_and_the_top_cards_only() -> None:
    # the same lengths everywhere; the twos and threes of spades swapped between seats 2 and 3
    a = (_hand("AS", "KH"), _hand("KS", "AH"), _hand("2S", "QH"), _hand("3S", "JH"))
    b = (_hand("AS", "KH"), _hand("KS", "AH"), _hand("3S", "QH"), _hand("2S", "JH"))
    key = table_sharing.coarse_key
    assert key(a, 2, 0, 0) == key(b, 2, 0, 0)
    assert key(a, 3, 0, 0) != key(b, 3, 0, 0)  # the third spade's holder differs
    assert key(a, 2, 0, 0) != key(a, 2, 1, 0)  # another leader
    longer = (_hand("AS", "KS"), _hand("AH", "KH"), _hand("2S", "QH"), _hand("3S", "JH"))
    assert key(a, 0, 0, 0) != key(longer, 0, 0, 0)  # other lengths


def test_the_replay_counts_hits_what_they_save_and_wrong_answers() -> None:
    a = (_hand("AS", "KH"), _hand("KS", "AH"), _hand("2S", "QH"), _hand("3S", "JH"))
    b = (_hand("AS", "KH"), _hand("KS", "AH"), _hand("3S", "QH"), _hand("2S", "JH"))
    records = [
        (a, 0, 5, 0, 0, 1, 2),  # searched first: the side takes at least 2
        (b, 6, 10, 0, 0, 1, 2),  # the same coarse key, settled by that bound: a hit
        (a, 7, 8, 0, 0, 3, 2),  # below the hit: never reached
    ]
    assert table_sharing.replay(records, 2) == (1, 5, 0, 11)
    assert table_sharing.replay(records, 13) == (0, 0, 0, 11)  # exact keys: b is another position
    liar = [(a, 0, 5, 0, 0, 1, 2), (b, 6, 10, 0, 0, 2, 1)]  # b fails where a's bound said 2
    assert table_sharing.replay(liar, 2) == (1, 5, 1, 11)


def test_the_traced_solver_solves_as_the_package_does_and_writes_its_nodes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from batak.bots import solver as S

    if not S.c_engine_available():
        pytest.skip("the compiled solver is not built")
    traced = table_sharing.build_traced(tmp_path)
    g = Game("standard", seed=4)
    while g.phase is not Phase.PLAY:
        g.play(g.legal_moves()[0])
    for _ in range(4 * 6):  # down to 7 cards a hand
        g.play(g.legal_moves()[-1])
    pos = S.Position.from_game(g)
    path = tmp_path / "trace.bin"
    monkeypatch.setenv("BATAK_SOLVER_TRACE", str(path))
    value = traced.Solver(S._c_tt_bits(pos)).solve(*S._c_args(pos))
    assert value == S._solve_c(pos)
    (records,) = table_sharing.read_trace(path)
    assert records and all(r[1] <= r[2] for r in records)
    assert all(sum(h.bit_count() for h in r[0]) <= 28 for r in records)


# ---------------------------------------------------------------------- shared_next.py


def _declarer_endings(seeds: range, cards: int) -> list[tuple[int, dict[str, Any]]]:
    """The declarer's views with ``cards`` cards or fewer and a choice, in medium's deals."""
    out = []
    for seed in seeds:
        game, medium = decision_loss.deal_in_play("standard", seed)
        contract = game.contract
        while game.phase is Phase.PLAY and contract is not None:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            choice = len(view["legal_moves"]) > 1
            if seat == contract.bidder and choice and game.hand_sizes[seat] <= cards:
                out.append((seed, view))
            game.play(medium[seat].choose(view))
    return out


@pytest.mark.skipif(not c_engine_available(), reason="the compiled solver is not built")
def test_the_shared_next_card_walk_is_the_hard_players_search_at_depth_zero() -> None:
    """At depth 0 the walk values each card over the same worlds as the hard player, so it
    picks the same card; with one world there is nothing to share, so every depth gives the
    double-dummy values of depth 0 (the walk's per-world minimum and shared maximum are then
    plain minimax)."""
    views = _declarer_endings(range(1, 6), 5)
    assert len(views) >= 10
    for seed, view in views:
        assert shared_next.HardSharedNext(seed=seed, depth=0).choose(view) == HardPlayer(
            seed=seed
        ).choose(view)
        one = [shared_next.HardSharedNext(seed=seed, worlds=1, depth=d) for d in (0, 1, 2)]
        for p in one:
            p.choose(view)
        assert one[0].values == one[1].values == one[2].values
        assert set(one[0].values) == set(view["legal_moves"])


def test_solver_speed_partnership_deal_asks_dds_question() -> None:
    """The eşli rows of ``solver_speed.py`` solve the same 52 cards, leader and trump as the
    ``standard`` rows, under the same card-play rules, for the bidder's partnership: the tricks
    of the side on lead, which is what DDS answers."""
    from dataclasses import fields

    from batak.bots.solver import Position
    from batak.rules import Rules

    plain, pair = Rules.preset("standard"), Rules.preset(solver_speed.PARTNER_PRESET)
    differ = {f.name for f in fields(plain) if getattr(plain, f.name) != getattr(pair, f.name)}
    assert differ <= {"name", "partners", "min_bid"}, differ
    for seed in (1, 2, 3):
        g = solver_speed.auctioned_deal(seed)
        e = solver_speed.partnership_deal(g)
        solo, duo = Position.from_game(g), Position.from_game(e)
        assert duo.hands == solo.hands and duo.trump == solo.trump and duo.leader == solo.leader
        assert solo.side == {solo.leader}
        assert duo.side == {duo.leader, (duo.leader + 2) % 4}


@pytest.mark.skipif(not c_engine_available(), reason="the compiled solver is not built")
def test_solver_speed_counts_nodes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``solver_speed.py --nodes`` (benchmarks/README.md's node tables): per row, the nodes a
    fresh table of the solver searches on each deal and the cards it plays there, and their
    totals, medians and p90s, printed and written to the JSON; no timing. The full deal of seed
    5 for the bidder alone is the position of tests/test_solver.py's node-count test."""
    from batak.bots import _csolver
    from batak.bots import solver as S

    out = tmp_path / "nodes.json"
    assert solver_speed.main(["--nodes", "--seed", "4", "--deals", "3", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["first_seed"] == 4 and report["deals"] == 3
    per_deal = report["per_deal"]
    per_deal_cards = report["per_deal_cards"]
    assert set(per_deal) == set(per_deal_cards) == {"c_13", "c_8", "c_pair_13", "c_pair_8"}
    for i, seed in enumerate((4, 5, 6)):
        for key, pos in solver_speed.our_positions(seed).items():
            table = _csolver.Solver(S.table_bits(pos.tricks_left))
            table.solve(*S._c_args(pos))
            assert per_deal[key][i] == table.nodes > 0, (seed, key)
            assert per_deal_cards[key][i] == table.cards > table.nodes, (seed, key)
    five = solver_speed.our_positions(5)["c_13"]
    assert S._c_args(five) == (
        (4232364020730368, 23961686036, 39755316208097, 231456328745994), 3, 0, (), False, 1, 29
    )  # fmt: skip
    printed = capsys.readouterr().out
    for key, counts in per_deal.items():
        ordered = sorted(counts)
        row = report["results"][key]
        assert row == {"total": sum(counts), "median": ordered[1], "p90": ordered[2]}
        played = sorted(per_deal_cards[key])
        assert report["cards"][key] == {"total": sum(played), "median": played[1], "p90": played[2]}
        assert (
            f"{solver_speed.LABELS[key]:34} {sum(counts):13,} {ordered[1]:10,} {ordered[2]:10,}"
            f" {sum(played):14,} {played[1]:11,} {played[2]:11,}"
        ) in printed


def _auctioned_by_medium_and_two_tricks_in() -> Game:
    """``standard``, seed 4: four medium players' auction (seat 1 bids 4, the others pass),
    then two tricks of each seat's first legal card."""
    from batak.bots import get

    g = Game("standard", seed=4, dealer=0)
    bots = [get("medium", seed=s) for s in range(4)]
    while g.phase is not Phase.PLAY:
        seat = g.to_move
        assert seat is not None
        g.play(bots[seat].choose(view_of(g, seat)))
    for _ in range(8):
        g.play(g.legal_moves()[0])
    return g


def test_hard_auction_worlds_keep_the_worlds_that_fit_the_auction() -> None:
    """``bot_variants.HardAuctionWorlds`` keeps, out of four times the draws, the worlds whose
    hands explain the bids: the seat that bid is dealt a stronger hand (its played cards put
    back), the seats that passed weaker ones; the kept worlds count as many as asked for."""
    import random

    from batak.bots.bidsim import hand_strength
    from batak.bots.knowledge import Knowledge, sample_world
    from batak.bots.simple import parse_view

    g = _auctioned_by_medium_and_two_tricks_in()
    t = parse_view(view_of(g, 0))
    assert t.auction == [(1, "bid 4"), (2, "pass"), (3, "pass"), (0, "pass")]
    played = t.played_by
    knowledge = Knowledge.from_view(t)

    def mean_strength(worlds: list[tuple[list[int], float]], s: int) -> float:
        total = sum(times for _, times in worlds)
        held = (times * hand_strength(w[s] | played[s], t.rules) for w, times in worlds)
        return sum(held) / total

    variant = bot_variants.HardAuctionWorlds(seed=1)
    variant._table = t
    kept = list(variant._worlds(knowledge, random.Random(7), lambda h, c: 1.0, 24))
    rng = random.Random(7)  # the same 96 draws, unread
    drawn = [(sample_world(knowledge, rng, weight=lambda h, c: 1.0), 1.0) for _ in range(96)]
    assert sum(times for _, times in kept) == 24
    assert all(any(w == d for d, _ in drawn) for w, _ in kept)
    assert all(w[0] == t.hand and not any(w[s] & played[s] for s in range(4)) for w, _ in kept)
    assert mean_strength(kept, 1) > mean_strength(drawn, 1) + 0.2  # the bid
    assert sum(mean_strength(kept, s) - mean_strength(drawn, s) for s in (2, 3)) < -0.1


def test_hard_declarer_auction_worlds_reads_the_auction_as_declarer_only() -> None:
    """``bot_variants.HardDeclarerAuctionWorlds`` keeps the worlds that fit the auction, as
    ``HardAuctionWorlds`` does, for the seat that won it, and draws every other seat's worlds
    as the default does."""
    import random

    from batak.bots.knowledge import Knowledge
    from batak.bots.simple import parse_view

    g = _auctioned_by_medium_and_two_tricks_in()
    assert g.contract is not None and g.contract.bidder == 1

    def worlds(player: Any, seat: int) -> list[tuple[list[int], float]]:
        t = parse_view(view_of(g, seat))
        player._table = t
        knowledge = Knowledge.from_view(t)
        return list(player._worlds(knowledge, random.Random(7), lambda h, c: 1.0, 24))

    variant = bot_variants.HardDeclarerAuctionWorlds(seed=1)
    declarer = worlds(variant, 1)
    assert declarer == worlds(bot_variants.HardAuctionWorlds(seed=1), 1)
    assert declarer != worlds(HardPlayer(seed=1), 1)
    for defender in (0, 2, 3):
        assert worlds(variant, defender) == worlds(HardPlayer(seed=1), defender)


def test_hard_opening_lead_24_reaches_the_declarers_13_cards() -> None:
    """``bot_variants.HardOpeningLead24`` searches the declarer's 13-card decisions over 24
    worlds and 6 million nodes, its smaller hands as the default, and defenders as the
    default."""
    from batak.bots.hard import DECLARER_WIDE
    from batak.bots.simple import parse_view

    g = _in_play(3)
    assert g.contract is not None
    bidder = g.contract.bidder
    variant = bot_variants.HardOpeningLead24(seed=1)
    hard = HardPlayer(seed=1)
    defender = parse_view(view_of(g, (bidder + 1) % 4))
    assert variant.reach(defender) == hard.reach(defender)
    declarer = parse_view(view_of(g, bidder))
    assert declarer.hand_sizes[bidder] == 13
    assert variant.reach(declarer) == (13, 24, 6_000_000)
    while not (g.to_move == bidder and g.hand_sizes[bidder] == 12):
        g.play(g.legal_moves()[0])
    later = parse_view(view_of(g, bidder))
    assert later.hand_sizes[bidder] == 12
    assert variant.reach(later) == (13, *DECLARER_WIDE[1:])
