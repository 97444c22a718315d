"""The learned correction of the SCOUT search's root values (``parlour.bots.scout.correction``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from parlour.bots.levels import make_bot
from parlour.bots.scout.correction import (
    BY_GAP,
    BY_KIND,
    CORRECTION_FEATURES,
    CORRECTION_FILE,
    INPUT_SETS,
    RootCorrection,
    correction_inputs,
)
from parlour.bots.scout.features import FEATURES
from parlour.bots.scout.human import HumanLike
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.games import scout
from tests.bots.test_scout_ismcts import eval_positions, searched_plays


def weights_file(tmp_path: Path, name: str, **weights: float) -> str:
    """A correction file with the given weights by input name, 0 for the rest."""
    path = tmp_path / f"{name}.json"
    row = [weights.get(f, 0.0) for f in CORRECTION_FEATURES]
    path.write_text(json.dumps({"features": list(CORRECTION_FEATURES), "weights": row}))
    return str(path)


def test_the_inputs_are_centred_over_the_candidates() -> None:
    """Only differences between a position's candidates count: every column sums to 0, the
    kinds are indicators, ``mean_gap`` is the mean's distance from the means' mean,
    ``log_visits`` the visits' logarithm and ``gap_x_rarity`` the gap × √(mean visits / n)."""
    rows = [[float(i + j) for j in range(len(FEATURES))] for i in range(3)]
    x = correction_inputs(
        rows, [0.0, -1.0, -2.5], ["Show", "Scout", "ScoutShow"], [1.0, 2.0, 6.0], [100, 25, 400]
    )
    assert x.shape == (3, len(CORRECTION_FEATURES))
    assert np.allclose(x.sum(axis=0), 0.0)

    def column(name: str) -> np.ndarray:
        return x[:, CORRECTION_FEATURES.index(name)]

    assert np.allclose(column("is_scout"), [-1 / 3, 2 / 3, -1 / 3])
    assert np.allclose(column("prior"), [7 / 6, 1 / 6, -8 / 6])
    assert np.allclose(column("mean_gap"), [-2.0, -1.0, 3.0])
    logs = np.log([100, 25, 400])
    assert np.allclose(column("log_visits"), logs - logs.mean())
    rarity = np.array([-2.0, -1.0, 3.0]) * np.sqrt(175 / np.array([100, 25, 400]))
    assert np.allclose(column("gap_x_rarity"), rarity - rarity.mean())
    assert np.allclose(x[:, 0], [-1.0, 0.0, 1.0])


def test_the_products_are_taken_before_the_centring() -> None:
    """``feature@kind`` is the feature of a candidate of that kind (0 for the others),
    ``feature*mean_gap`` the feature × the mean's distance from the means' mean and
    ``mean_gap*|mean_gap|`` that distance × its size, each centred over the candidates like the
    rest; the named sets cover every input once."""
    captured = FEATURES.index("captured")
    rows = [[0.0] * len(FEATURES) for _ in range(3)]
    for i, value in enumerate([2.0, 0.0, 3.0]):
        rows[i][captured] = value
    kinds = ["Show", "Scout", "ScoutShow"]
    x = correction_inputs(rows, [0.0, -1.0, -2.0], kinds, [1.0, 2.0, 6.0], [10, 10, 10])
    assert np.allclose(x.sum(axis=0), 0.0)

    def column(name: str) -> np.ndarray:
        return x[:, CORRECTION_FEATURES.index(name)]

    def centred(values: list[float]) -> np.ndarray:
        return np.array(values) - np.mean(values)

    assert np.allclose(column("captured@Show"), centred([2.0, 0.0, 0.0]))
    assert np.allclose(column("captured@ScoutShow"), centred([0.0, 0.0, 3.0]))
    assert np.allclose(column("mean_gap@Scout"), centred([0.0, -1.0, 0.0]))  # gaps -2, -1, 3
    assert np.allclose(column("captured*mean_gap"), centred([-4.0, 0.0, 9.0]))
    assert np.allclose(column("prior*mean_gap"), centred([0.0, 1.0, -6.0]))
    assert np.allclose(column("mean_gap*|mean_gap|"), centred([-4.0, -1.0, 9.0]))
    assert len(BY_KIND) == 3 * (len(FEATURES) + 1) and len(BY_GAP) == len(FEATURES) + 2
    named = [name for names in INPUT_SETS.values() for name in names]
    assert sorted(named) == sorted(CORRECTION_FEATURES)


def test_a_correction_file_names_the_inputs_it_weighs(tmp_path: Path) -> None:
    """A file weighs all the inputs or a subset, each named once (the rest weigh 0); an unknown
    name, a name given twice or a weight too many is an error that names the file."""
    good = weights_file(tmp_path, "good", prior=2.0)
    assert RootCorrection.from_file(good).weights[CORRECTION_FEATURES.index("prior")] == 2.0
    subset = tmp_path / "subset.json"
    subset.write_text(json.dumps({"features": ["log_visits", "mean_gap"], "weights": [1.5, -0.5]}))
    loaded = RootCorrection.from_file(subset)
    assert loaded.inputs == ("log_visits", "mean_gap")
    expected = np.zeros(len(CORRECTION_FEATURES))
    expected[CORRECTION_FEATURES.index("log_visits")] = 1.5
    expected[CORRECTION_FEATURES.index("mean_gap")] = -0.5
    assert np.array_equal(loaded.weights, expected)
    for name, body, match in [
        ("unknown", {"features": ["groups", "luck"], "weights": [1.0, 2.0]}, "unknown"),
        ("twice", {"features": ["prior", "prior"], "weights": [1.0, 2.0]}, "once"),
        ("count", {"features": ["prior"], "weights": [1.0, 2.0]}, "weights"),
    ]:
        bad = tmp_path / f"{name}.json"
        bad.write_text(json.dumps(body))
        with pytest.raises(ValueError, match=match) as error:
            RootCorrection.from_file(bad)
        assert str(bad) in str(error.value)
    with pytest.raises(ValueError, match="weights"):
        RootCorrection([1.0, 2.0])


def test_the_search_plays_the_best_corrected_mean(tmp_path: Path) -> None:
    """With a correction the move is the root candidate with the best mean plus its
    correction × the strength (a zero correction: the best mean, not the most visited); a
    large weight on scouting makes it scout wherever a Scout was searched, and one on the
    visits' logarithm plays the most visited; the corrections sum to 0 and scale with the
    strength."""
    none = weights_file(tmp_path, "none")
    scouting = weights_file(tmp_path, "scouting", is_scout=100.0)
    by_visits = weights_file(tmp_path, "visits", log_visits=100.0)
    checked = scouted = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::3]):
        view = scout.view(state, seat)
        plain = ISMCTSBot(iterations=80, particles=8, correction=1.0, correction_file=none)
        action = plain.choose(view, legal, random.Random(4))
        means = plain.last_means
        assert means[action] == max(means.values())
        assert all(c == pytest.approx(0.0) for c in plain.last_corrections.values())
        lean = ISMCTSBot(iterations=80, particles=8, correction=1.0, correction_file=scouting)
        chosen = lean.choose(view, legal, random.Random(4))
        assert lean.last_means == means  # the search itself is the same
        assert sum(lean.last_corrections.values()) == pytest.approx(0.0, abs=1e-9)
        half = ISMCTSBot(iterations=80, particles=8, correction=0.5, correction_file=scouting)
        half.choose(view, legal, random.Random(4))
        assert half.last_corrections == pytest.approx(
            {a: c / 2 for a, c in lean.last_corrections.items()}
        )
        if any(isinstance(a, scout.Scout) for a in means):
            assert isinstance(chosen, scout.Scout)
            scouted += 1
        visited = ISMCTSBot(iterations=80, particles=8, correction=1.0, correction_file=by_visits)
        most = max(plain.last_visits.values())
        assert visited.choose(view, legal, random.Random(4)) in {
            a for a, n in plain.last_visits.items() if n == most
        }
        checked += 1
    assert checked >= 5 and scouted >= 2


def test_a_correction_fitted_to_an_oracles_means_drives_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench/scout_root_correction.py``: positions of two games, each candidate valued by
    the search from the view and by the oracle on the true deal; the fit judged on the held-out
    game; its weights read by ``ISMCTSBot(correction_file=...)``, which plays legal moves."""
    from bench import scout_root_correction

    data, weights = tmp_path / "rc.json", tmp_path / "correction.json"
    search = json.dumps({"iterations": 60, "particles": 8, "inference": False})
    scout_root_correction.main(["data", "--opponent", "medium", "--games", "2", "--every", "10",
                                "--oracle-iterations", "120", "--search", search,
                                "--workers", "1", "--out", str(data)])  # fmt: skip
    records = json.loads(data.read_text())
    assert {r["game"] for r in records} == {30000, 30001}
    for record in records:
        assert sum(c["chosen"] for c in record["candidates"]) == 1
        assert all(len(c["features"]) == len(FEATURES) for c in record["candidates"])
    scout_root_correction.main(["fit", str(data), "--out", str(weights)])
    out = capsys.readouterr().out
    assert "held-out regret a move: most visited" in out and "0.5 × correction" in out
    assert "fitted on the even seeds" in out
    for record in records:
        assert all(c["net"] <= 0.0 for c in record["candidates"])  # log-probabilities
    assert RootCorrection.from_file(weights).inputs == CORRECTION_FEATURES
    few = tmp_path / "few.json"
    scout_root_correction.main(["fit", str(data), "--inputs", "mean_gap,log_visits",
                                "--held-out", "0", "--out", str(few)])  # fmt: skip
    out = capsys.readouterr().out
    assert "fitted on the odd seeds" in out and "log_visits:" in out and "prior:" not in out
    assert RootCorrection.from_file(few).inputs == ("mean_gap", "log_visits")
    with pytest.raises(SystemExit, match="--inputs"):
        scout_root_correction.main(["fit", str(data), "--inputs", "mean_gap,luck"])
    sets = tmp_path / "sets.json"
    scout_root_correction.main(["fit", str(data), "--inputs", "view,by_kind", "--out", str(sets)])
    assert "captured@Scout:" in capsys.readouterr().out
    assert RootCorrection.from_file(sets).inputs == (*INPUT_SETS["view"], *BY_KIND)
    scout_root_correction.main(["fit", str(data), "--strengths", "0.5,1",
                                "--versus", "mean_gap,prior@0.5"])  # fmt: skip
    out = capsys.readouterr().out
    assert out.count("paired vs 0.5 × the correction of --versus's inputs") == 2
    with pytest.raises(SystemExit):
        scout_root_correction.main(["fit", str(data), "--versus", "mean_gap"])
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps([r for r in records if r["game"] == 30000]))
    second.write_text(json.dumps([r for r in records if r["game"] == 30001]))
    n1, n2 = len(json.loads(first.read_text())), len(json.loads(second.read_text()))
    scout_root_correction.main(["fit", str(first), "--judge", str(second)])
    out = capsys.readouterr().out
    assert f"({n1} fitting, {n2} held out)" in out and "fitted on every game's" in out
    scout_root_correction.main(["fit", str(first), str(second)])  # pooled, split by parity
    out = capsys.readouterr().out
    assert f"{n1 + n2} positions ({n1} fitting, {n2} held out)" in out
    scout_root_correction.main(["fit", str(data), "--weights", str(few)])  # judged, not fitted
    out = capsys.readouterr().out
    assert f"{n1 + n2} positions (0 fitting, {n1 + n2} held out)" in out
    assert f"weights ({few}, not fitted)" in out and "prior:" not in out
    given = RootCorrection.from_file(few).weights[CORRECTION_FEATURES.index("mean_gap")]
    assert f"mean_gap: {given:+.4f}" in out
    with pytest.raises(SystemExit):
        scout_root_correction.main(["fit", str(data), "--weights", str(few), "--out", "x.json"])
    bot = ISMCTSBot(iterations=60, particles=8, correction=1.0, correction_file=str(weights))
    played = 0
    for state, seat, legal in searched_plays(eval_positions(4, 4)[2:40:6]):
        assert bot.choose(scout.view(state, seat), legal, random.Random(1)) in legal
        assert bot.last_corrections
        played += 1
    assert played >= 3


def test_the_shipped_correction_loads_and_a_spec_can_ask_for_it() -> None:
    """The package ships fitted weights (``CORRECTION_FILE``); ``correction=k`` in a level's
    spec uses them at strength k (Hard has none of its own); a negative strength is an error."""
    shipped = RootCorrection.from_file(CORRECTION_FILE)
    assert shipped.weights.shape == (len(CORRECTION_FEATURES),)
    assert np.abs(shipped.weights).max() > 0
    level = make_bot("scout", "hard:it=50/correction=0.25")  # Expert's own is 0.5
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert level.bot.correction_strength == 0.25 and level.bot.correction is not None
    assert np.array_equal(level.bot.correction.weights, shipped.weights)
    assert ISMCTSBot().correction is None
    with pytest.raises(ValueError, match="correction"):
        ISMCTSBot(correction=-1.0)


def test_a_spec_can_name_a_correction_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``correction_file=name`` (a file name, read from the working directory: a spec's
    settings are separated by slashes) plays that correction; a missing or malformed file, or a
    file without a strength, is an error that names the spec."""
    monkeypatch.chdir(tmp_path)
    weights_file(tmp_path, "lean", is_scout=3.0)
    level = make_bot("scout", "expert:it=50/correction=0.75/correction_file=lean.json")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert level.bot.correction is not None and level.bot.correction_strength == 0.75
    assert level.bot.correction.weights[CORRECTION_FEATURES.index("is_scout")] == 3.0
    own = make_bot("scout", "expert:it=50/correction_file=lean.json")  # at Expert's strength
    assert isinstance(own, HumanLike) and isinstance(own.bot, ISMCTSBot)
    assert own.bot.correction is not None and own.bot.correction_strength == 0.5
    assert own.bot.correction.weights[CORRECTION_FEATURES.index("is_scout")] == 3.0
    (tmp_path / "broken.json").write_text("{")
    for spec, match in [
        ("expert:it=50/correction=0.5/correction_file=missing.json", "cannot read"),
        ("expert:it=50/correction=0.5/correction_file=broken.json", "not a correction file"),
        ("hard:it=50/correction_file=lean.json", "strength"),
    ]:
        with pytest.raises(ValueError, match=match) as error:
            make_bot("scout", spec)
        assert spec in str(error.value)


def test_the_inference_input_is_the_weighted_mean_less_the_plain_one() -> None:
    """``inf_gap``: each candidate's mean with the playouts weighed by the inference minus its
    plain mean, centred like the rest; without weighted means it is 0 (older data)."""
    rows = [[0.0] * len(FEATURES) for _ in range(3)]
    args = (rows, [0.0, -1.0, -2.0], ["Show", "Scout", "Show"], [1.0, 2.0, 6.0], [10, 10, 10])
    column = CORRECTION_FEATURES.index("inf_gap")
    weighed = correction_inputs(*args, [2.0, 1.0, 6.0])
    assert np.allclose(weighed[:, column], [1.0 - 0.0, -1.0 - 0.0, 0.0 - 0.0] - np.mean([1, -1, 0]))
    assert np.allclose(correction_inputs(*args)[:, column], 0.0)
    assert np.array_equal(np.delete(weighed, column, axis=1),
                          np.delete(correction_inputs(*args), column, axis=1))  # fmt: skip
    assert INPUT_SETS["inference"] == ("inf_gap",)


def test_weighted_means_leave_the_search_alone_and_feed_the_correction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``inference_means``: the same search (moves, visits, means from the same draws), and
    per root candidate its mean with each playout weighed by its deal's inference weight; a
    correction that reads ``inf_gap`` turns it on by itself and adds its weight × the centred
    gap. Deals weighted alike give the plain means exactly."""
    gap = weights_file(tmp_path, "gap", inf_gap=2.0)
    checked = differs = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[6::4]):
        view = scout.view(state, seat)
        plain = ISMCTSBot(iterations=120, particles=16, inference=False)
        action = plain.choose(view, legal, random.Random(3))
        weighed = ISMCTSBot(iterations=120, particles=16, inference=False, inference_means=True)
        assert weighed.choose(view, legal, random.Random(3)) == action
        assert (weighed.last_visits, weighed.last_means) == (plain.last_visits, plain.last_means)
        assert set(weighed.last_inf_means) == set(plain.last_means)
        differs += weighed.last_inf_means != plain.last_means
        fed = ISMCTSBot(iterations=120, particles=16, inference=False, correction=0.5,
                        correction_file=gap)  # fmt: skip
        fed.choose(view, legal, random.Random(3))
        assert fed.inference_means and fed.last_inf_means == weighed.last_inf_means
        gaps = {a: fed.last_inf_means[a] - fed.last_means[a] for a in fed.last_means}
        centre = sum(gaps.values()) / len(gaps)
        assert fed.last_corrections == pytest.approx(
            {a: 0.5 * 2.0 * (g - centre) for a, g in gaps.items()}
        )
        checked += 1
    assert checked >= 5 and differs >= 3
    monkeypatch.setattr("parlour.bots.scout.ismcts.log_likelihood", lambda *args: 0.0)
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[6::8]):
        alike = ISMCTSBot(iterations=120, particles=16, inference=False, inference_means=True)
        alike.choose(scout.view(state, seat), legal, random.Random(3))
        assert alike.last_inf_means == alike.last_means
    assert make_bot("scout", "expert:it=20/inference_means=true").bot.inference_means
