"""Fitting the SCOUT search's opponent model to how given bots play
(``bench/fit_scout_model.py``): the conditional logit finds the weights that generated the
choices, and the script's data and fit run end to end into weights the search takes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from bench import fit_scout_model

from parlour.bots.levels import make_bot
from parlour.bots.scout.features import FEATURES, MODEL_FILE, load_weights
from parlour.bots.scout.human import HumanLike
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.games import scout
from tests.bots.test_scout_ismcts import eval_positions, searched_plays


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    """4,000 decisions among 2–9 options of random features, each chosen by a softmax over
    known weights: the fitted weights are those within sampling error, and they make the
    choices likelier than the true weights halved or doubled."""
    rng = np.random.default_rng(3)
    true = np.array([1.5, -2.0, 0.5, 0.0])
    rows, sizes, chosen = [], [], []
    for _ in range(4000):
        n = int(rng.integers(2, 10))
        x = rng.normal(size=(n, len(true)))
        p = np.exp(x @ true)
        p /= p.sum()
        rows.append(x)
        sizes.append(n)
        chosen.append(int(rng.choice(n, p=p)))
    d = fit_scout_model.Decisions(np.vstack(rows), np.array(sizes), np.array(chosen))
    w = fit_scout_model.newton(d, l2=0.0)
    assert np.abs(w - true).max() < 0.15
    best = d.log_likelihood(w)
    assert best > d.log_likelihood(true / 2)
    assert best > d.log_likelihood(true * 2)
    assert best >= d.log_likelihood(true)
    p, _ = d.probabilities(w)
    assert np.allclose(np.add.reduceat(p, d.starts), 1.0)


def test_weights_fitted_to_played_games_drive_the_opponent_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two games of ``medium`` (which plays a softmax over the evaluation's scores): the fit
    predicts its held-out choices better than a uniform guess, and ``ISMCTSBot`` plays legal
    moves with the fitted weights as its opponent model."""
    data, weights = tmp_path / "m.npz", tmp_path / "m.json"
    fit_scout_model.main(["data", "--bot", "medium", "--games", "2", "--workers", "1",
                          "--out", str(data)])  # fmt: skip
    fit_scout_model.main(["fit", str(data), "--out", str(weights)])
    out = capsys.readouterr().out
    uniform = float(out.split("uniform over the options: ")[1].split()[0])
    fitted = json.loads(weights.read_text())
    held_out = max(
        float(line.split("held-out ")[1].split()[0])
        for line in out.splitlines()
        if "fitted, l2=" in line
    )
    assert held_out > uniform + 0.3, out
    assert list(fitted["weights"]) == list(FEATURES)
    weights = [fitted["weights"][name] for name in FEATURES]
    bot = ISMCTSBot(iterations=60, particles=8, model_weights=weights)
    played = 0
    for state, seat, legal in searched_plays(eval_positions(4, 4)[2:40:6]):
        assert bot.choose(scout.view(state, seat), legal, random.Random(1)) in legal
        played += 1
    assert played >= 3


def test_the_shipped_fitted_model_is_a_setting_of_the_search() -> None:
    """``opponent_model="fitted"`` (spec ``…/opponent_model=fitted``) plays the opponents by
    the shipped ``scout_model.json``, which names exactly the evaluation's features; the
    evaluation still ranks the search's own moves."""
    fitted = load_weights(MODEL_FILE)
    assert len(fitted) == len(FEATURES) and fitted != load_weights()
    level = make_bot("scout", "expert:it=300/opponent_model=fitted")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    bot = level.bot
    assert bot.model_weights == fitted
    assert bot.weights == load_weights()
    assert ISMCTSBot(iterations=10).model_weights == load_weights()
    with pytest.raises(ValueError, match="opponent_model"):
        make_bot("scout", "expert:it=300/opponent_model=hard")
