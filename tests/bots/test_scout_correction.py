"""The learned correction of the SCOUT search's root values (``parlour.bots.scout.correction``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from parlour.bots.levels import make_bot
from parlour.bots.scout.correction import (
    CORRECTION_FEATURES,
    CORRECTION_FILE,
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
    kinds are indicators and the last column is the mean's distance from the means' mean."""
    rows = [[float(i + j) for j in range(len(FEATURES))] for i in range(3)]
    x = correction_inputs(rows, [0.0, -1.0, -2.5], ["Show", "Scout", "ScoutShow"], [1.0, 2.0, 6.0])
    assert x.shape == (3, len(CORRECTION_FEATURES))
    assert np.allclose(x.sum(axis=0), 0.0)
    assert np.allclose(x[:, CORRECTION_FEATURES.index("is_scout")], [-1 / 3, 2 / 3, -1 / 3])
    assert np.allclose(x[:, CORRECTION_FEATURES.index("prior")], [7 / 6, 1 / 6, -8 / 6])
    assert np.allclose(x[:, -1], [-2.0, -1.0, 3.0])
    assert np.allclose(x[:, 0], [-1.0, 0.0, 1.0])


def test_a_correction_file_must_name_its_inputs_and_weights(tmp_path: Path) -> None:
    good = weights_file(tmp_path, "good", prior=2.0)
    assert RootCorrection.from_file(good).weights[CORRECTION_FEATURES.index("prior")] == 2.0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"features": ["groups"], "weights": [1.0]}))
    with pytest.raises(ValueError, match="features"):
        RootCorrection.from_file(bad)
    with pytest.raises(ValueError, match="weights"):
        RootCorrection([1.0, 2.0])


def test_the_search_plays_the_best_corrected_mean(tmp_path: Path) -> None:
    """With a correction the move is the root candidate with the best mean plus its
    correction × the strength (a zero correction: the best mean, not the most visited); a
    large weight on scouting makes it scout wherever a Scout was searched; the corrections sum
    to 0 and scale with the strength."""
    none = weights_file(tmp_path, "none")
    scouting = weights_file(tmp_path, "scouting", is_scout=100.0)
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
    bot = ISMCTSBot(iterations=60, particles=8, correction=1.0, correction_file=str(weights))
    played = 0
    for state, seat, legal in searched_plays(eval_positions(4, 4)[2:40:6]):
        assert bot.choose(scout.view(state, seat), legal, random.Random(1)) in legal
        assert bot.last_corrections
        played += 1
    assert played >= 3


def test_the_shipped_correction_loads_and_a_spec_can_ask_for_it() -> None:
    """The package ships fitted weights (``CORRECTION_FILE``); ``correction=k`` in a level's
    spec uses them at strength k; a negative strength is an error."""
    shipped = RootCorrection.from_file(CORRECTION_FILE)
    assert shipped.weights.shape == (len(CORRECTION_FEATURES),)
    assert np.abs(shipped.weights).max() > 0
    level = make_bot("scout", "expert:it=50/correction=0.5")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert level.bot.correction_strength == 0.5 and level.bot.correction is not None
    assert np.array_equal(level.bot.correction.weights, shipped.weights)
    assert ISMCTSBot().correction is None
    with pytest.raises(ValueError, match="correction"):
        ISMCTSBot(correction=-1.0)
