"""The benchmark runs and ends with the lines scripts read (its speed is not tested here)."""

from __future__ import annotations

import json
import random
import re

import pytest
from bench import bench_scout


def test_bench_prints_one_machine_readable_line_per_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench_scout.main(["--runs", "1", "--scale", "0.02"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert [re.fullmatch(r"scout (\d)p: \d+ games/s", line) is not None for line in lines[-4:]] == [
        True
    ] * 4
    assert [line.split()[1] for line in lines[-4:]] == ["2p:", "3p:", "4p:", "5p:"]


def test_bench_rt_measures_and_writes_its_json(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """bench/bench_rt.py on tiny samples: every subcommand the README quotes runs and writes
    what ``plots`` reads (the figures themselves need the plots extra)."""
    from bench import bench_rt

    data = ["--workers", "1", "--data", str(tmp_path)]
    bench_rt.main([*data, "scan", "--reveals", "40"])
    bench_rt.main([*data, "snap", "--games", "2", "--levels", "expert,beginner"])
    bench_rt.main([*data, "newcomer", "--races", "200"])
    scan = json.loads((tmp_path / "rt-scan.json").read_text())  # type: ignore[operator]
    assert scan["levels"]["medium"]["arena"]["reveals"] >= 40
    snap = json.loads((tmp_path / "rt-snap.json").read_text())  # type: ignore[operator]
    assert set(snap["levels"]) == {"expert", "beginner"}
    assert snap["levels"]["beginner"]["bot_flips"] > 0
    assert "first-visit level" in capsys.readouterr().out


def test_search_variants_screen_pairs_variants_on_the_same_rounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import scout_search_variants

    scout_search_variants.main(
        [
            "--round",
            "--deals",
            "1",
            "--workers",
            "1",
            'a={"iterations": 3}',
            'b={"iterations": 3, "root_top": 2}',
        ]
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("a: 4 games vs 3 × medium, wins ")
    assert lines[1].startswith("b: 4 games") and "paired vs a: " in lines[1]
    with pytest.raises(TypeError):
        scout_search_variants.main(["--deals", "1", 'bad={"no_such_option": 1}'])


def test_the_last_round_screen_starts_every_variant_from_the_same_standings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--last-round``: the rounds before the last are played once per deal, so two copies of
    one variant play the same last rounds (paired difference exactly 0)."""
    from bench import scout_search_variants

    variant = '{"iterations": 3, "objective": "win"}'
    scout_search_variants.main(
        ["--last-round", "--players", "3", "--deals", "1", "--workers", "1",
         f"a={variant}", f"b={variant}", 'c={"iterations": 3}']
    )  # fmt: skip
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("a: 3 games vs 2 × medium, wins ")
    assert "paired vs a: +0.00 ± 0.00" in lines[1]
    with pytest.raises(SystemExit):
        scout_search_variants.main(["--round", "--last-round", "a={}"])


def test_the_models_temperature_fits_how_sharply_the_opponents_follow_the_evaluation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Opponents that play the evaluation's best move are likeliest at the lowest temperature,
    opponents that play at random at one of the highest."""
    from bench import scout_inference_temperature as calibration

    likeliest = {}
    for bot in ("eval", "random"):
        calibration.main(["--bot", bot, "--players", "3", "--games", "1", "--workers", "1"])
        lines = capsys.readouterr().out.strip().splitlines()
        assert lines[0].startswith(f"1 games of 3 × {bot}: ")
        assert len(lines) == 1 + len(calibration.TEMPERATURES)
        (best,) = [line for line in lines if "most likely" in line]
        likeliest[bot] = float(best.split(":")[0].removeprefix("T="))
    assert likeliest["eval"] == min(calibration.TEMPERATURES)
    assert likeliest["random"] >= 3.0


def test_move_regret_is_measured_against_a_search_that_sees_every_hand() -> None:
    """Every regret is between 0 and the oracle's spread; a variant that sees the true deal with
    the oracle's budget loses less than the evaluation's first choice; a variant paired with
    itself differs by exactly 0; the report names each variant with its pairing."""
    from bench import scout_move_regret as regret

    variants = {"blind": {"iterations": 1}, "twin": {"iterations": 300, "omniscient": True},
                "blind2": {"iterations": 1}}  # fmt: skip
    rows = regret.regrets((5, "medium", 3, 2, {"iterations": 300}, variants, False))
    assert len(rows) >= 10
    for row in rows:
        assert all(row[n] is not None and 0 <= row[n] < 100 for n in variants)
        assert row["blind"] == row["blind2"]
        assert {row[f"kind:{n}"] for n in [*variants, "oracle"]} <= {"Show", "Scout", "ScoutShow"}
        if row["twin"] == 0:  # the oracle's own best: of the same kind
            assert row["kind:twin"] == row["kind:oracle"]
    mean = {n: sum(r[n] or 0.0 for r in rows) / len(rows) for n in variants}
    assert mean["twin"] < mean["blind"]
    lines = regret.summary(rows, list(variants))
    assert lines[0].startswith(f"blind: regret {mean['blind']:.3f} ± ")
    assert lines[1].endswith(f"paired vs blind: {mean['twin'] - mean['blind']:+.3f} ± "
                             + lines[1].rsplit("± ", 1)[1])  # fmt: skip
    assert "paired vs blind: +0.000 ± 0.000" in lines[2]
    # where the hand can be emptied the search plays it at once: no choice for the oracle
    from parlour.bots.levels import make_bot
    from parlour.games import scout
    from parlour.games.scout import Show

    state, rng, bot = (
        scout.new_state({"players": 3}, 5),
        random.Random(5),
        make_bot("scout", "medium"),
    )
    while True:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        view = scout.view(state, seat)
        if any(isinstance(a, Show) and a.length == len(view["hand"]) for a in legal):
            break
        state = scout.apply(state, seat, bot.choose(view, legal, rng))
    assert regret.position(state, view, legal, {"iterations": 50}, variants, "k") is None
    # where the regret falls: the cells add up to the variant's positions and whole regret
    lines = regret.by_kind(rows, "blind")
    assert sum(int(line.split(": ")[1].split(" ")[0]) for line in lines) == len(rows)
    assert sum(int(line.rsplit(", ", 1)[1].split("%")[0]) for line in lines) in range(97, 104)


def test_flip_regret_judges_both_orientations_on_the_true_deal() -> None:
    """``--flip``: one row per seat and round start; a search of the true deal with the
    oracle's budget (other draws) loses less than a blind two-iteration search, which
    sometimes chooses the worse orientation."""
    from bench import scout_move_regret as regret

    variants = {"blind": {"iterations": 2}, "twin": {"iterations": 400, "omniscient": True}}
    rows = regret.regrets((3, "medium", 3, 1, {"iterations": 400}, variants, True))
    assert len(rows) == 3 * 3  # 3 rounds × 3 seats
    assert {row["kind:oracle"] for row in rows} == {"Flip"}
    assert all(row[n] is not None and row[n] >= 0 for row in rows for n in variants)
    assert sum(row["twin"] for row in rows) < sum(row["blind"] for row in rows)
    assert any(row["blind"] > 0 for row in rows)


def test_the_scout_show_price_fits_how_often_a_bot_plays_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every recorded decision has a Scout & Show to play; a bot that always played it is
    likeliest at a lower price than one that never did; the report gives the fitted price and
    its held-out log-likelihood."""
    from bench import fit_scout_show_price as fit

    decisions = fit.play(("medium", 4, 31000))
    assert len(decisions) > 10
    assert all(shows for _, shows, _ in decisions)
    always = [(plain, shows, True) for plain, shows, _ in decisions]
    never = [(plain, shows, False) for plain, shows, _ in decisions]
    assert fit.log_likelihood(always, 0.0) > fit.log_likelihood(always, 5.0)
    assert fit.log_likelihood(never, 5.0) > fit.log_likelihood(never, 0.0)
    fit.main(["--bot", "medium", "--games", "2", "--workers", "1"])
    out = capsys.readouterr().out
    assert "decisions with a Scout & Show to play in 2 games of 4 × medium" in out
    assert out.splitlines()[1].startswith("price ")
    used = int(out.split("Scout & Show used in ")[1].split(" ")[0])
    assert 0 < used <= 2 * 4 * 4 and "of 32 seat-rounds" in out  # each seat once a round at most
