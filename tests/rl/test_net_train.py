"""Training the SCOUT network in numpy: gradients, a few steps, the files it writes."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest
from bench import train_scout_net

from parlour.bots.scout import codec
from parlour.bots.scout.net import INPUT_SIZE, from_file
from parlour.rl import net_train as nt


def _batch(rng: np.random.Generator, size: int) -> nt.Batch:
    obs = (rng.random((size, codec.OBS_SIZE)) < 0.05).astype(np.float64)
    mask = np.zeros((size, codec.N_ACTIONS))
    for row in mask:
        row[rng.choice(codec.N_ACTIONS, 6, replace=False)] = 1
    target = mask * rng.random(mask.shape)
    target /= target.sum(axis=1, keepdims=True)
    scores = mask * rng.normal(0.0, 2.0, mask.shape)
    return nt.Batch(obs, mask, target, rng.random(size), scores)


def test_the_gradients_equal_finite_differences() -> None:
    rng = np.random.default_rng(0)
    params = {k: v.astype(np.float64) for k, v in nt.init_params(rng, (12, 6), 0.5).items()}
    batch = _batch(rng, 4)
    _, grads = nt.loss_and_grads(params, batch, value_weight=0.7)  # type: ignore[arg-type]
    checks = [("W1", (int(np.flatnonzero(batch.obs[0])[0]), 2)), ("b1", (1,)), ("W2", (3, 4)),
              ("b2", (0,)), ("Wv", (5, 0)), ("bv", (0,)), ("ws", (0,))]  # fmt: skip
    used = int(np.flatnonzero(batch.mask[0])[0])
    checks += [("Wp", (2, used)), ("bp", (used,))]
    for name, index in checks:
        eps = 1e-3
        params[name][index] += eps
        up = nt.loss_and_grads(params, batch, 0.7)[0]["total"]  # type: ignore[arg-type]
        params[name][index] -= 2 * eps
        down = nt.loss_and_grads(params, batch, 0.7)[0]["total"]  # type: ignore[arg-type]
        params[name][index] += eps
        assert grads[name][index] == pytest.approx((up - down) / (2 * eps), rel=2e-2, abs=1e-6)


def test_the_evaluation_skip_starts_the_policy_at_the_evaluations_softmax(tmp_path: Path) -> None:
    """With the skip at 1/0.1 and the layers' logits near zero, the untrained network's policy
    is the imitation target (the evaluation's scores ÷ 0.1) on self-play examples: its loss is
    about the targets' own entropy, far below the same network's without the skip; the skip is
    saved and read back."""
    data = train_scout_net.play_selfplay((None, [5], 0.0, 0.1, 0.2))
    assert data.scores is not None and not (data.scores.astype(np.float32) * (1 - data.mask)).any()
    t = data.target.astype(np.float32)
    entropy = float(-(t * np.log(np.where(t > 0, t, 1.0))).sum(axis=1).mean())
    rng = np.random.default_rng(2)
    with_skip = nt.init_params(rng, (16, 16), 10.0)
    without = {**with_skip, "ws": np.zeros(1, np.float32)}
    assert nt.evaluate_loss(with_skip, data)["policy"] == pytest.approx(entropy, abs=0.05)
    assert nt.evaluate_loss(without, data)["policy"] > entropy + 0.5
    nt.save(with_skip, tmp_path / "skip.npz")
    assert from_file(tmp_path / "skip.npz").skip == 10.0


def test_a_few_steps_on_self_play_examples_lower_the_loss(tmp_path: Path) -> None:
    data = train_scout_net.play_selfplay((None, [5, 6], 0.0, 0.1, 0.2))
    assert data.obs.shape[1] == INPUT_SIZE and data.obs.shape[0] == data.value.shape[0] > 50
    assert np.allclose(data.target.astype(np.float32).sum(axis=1), 1.0, atol=1e-2)
    assert not (data.target.astype(np.float32) * (1 - data.mask)).any()  # legal actions only
    rng = np.random.default_rng(1)
    params = nt.init_params(rng, (32, 32))  # no skip: the layers must learn it all
    before = nt.evaluate_loss(params, data)
    nt.train_steps(params, data, 40, nt.Adam(lr=3e-3), rng, batch_size=64)
    after = nt.evaluate_loss(params, data)
    assert after["policy"] < before["policy"] - 0.2
    assert after["total"] < before["total"]
    nt.save(params, tmp_path / "net.npz", command="test")
    net = from_file(tmp_path / "net.npz")
    assert net.hidden == (32, 32)
    assert np.allclose(net.params["W2"], params["W2"], atol=1e-2)  # stored as float16


def test_one_training_iteration_writes_weights_and_its_curve(tmp_path: Path) -> None:
    out, data = tmp_path / "w.npz", tmp_path / "curve.json"
    argv = ["--iterations", "1", "--imitation-games", "2", "--validation-games", "1",
            "--steps", "3", "--eval-deals", "1", "--hidden", "8", "8", "--search-iterations", "20",
            "--out", str(out), "--data", str(data)]  # fmt: skip
    assert train_scout_net.main(argv) == 0
    import json

    curve = json.loads(data.read_text())["curve"]
    assert [row["iteration"] for row in curve] == [0]
    assert curve[0]["eval_games"] == 4 and 0.0 <= curve[0]["win_vs_heuristic"] <= 1.0
    assert 0.0 <= curve[0]["validation_agreement"] <= 1.0
    net = from_file(out)
    assert net.hidden == (8, 8) and net.skip == pytest.approx(curve[0]["eval_skip"], rel=1e-2)
    assert net.skip > 1.9  # started at 2 (the default) and moved by 3 steps at most


def test_search_targets_are_the_searchs_visit_shares() -> None:
    data = train_scout_net.play_selfplay((None, [7], 0.0, 0.1, 0.2, 12))
    target = data.target.astype(np.float32)
    assert np.allclose(target.sum(axis=1), 1.0, atol=1e-2)
    assert not (target * (1 - data.mask)).any()  # legal actions only
    # the search looks at the evaluation's six best actions at most: where more were legal,
    # a search-labelled decision puts weight on six at most, in multiples of 1/12
    searched = (data.mask.sum(axis=1) > 6) & ((target > 0).sum(axis=1) <= 6)
    assert searched.sum() > 20
    shares = target[searched] * 12
    assert np.allclose(shares, np.round(shares), atol=0.05)
    again = train_scout_net.play_selfplay((None, [7], 0.0, 0.1, 0.2, 12))
    assert np.array_equal(again.target, data.target)  # reproducible
    # whatever games share a worker's task: the draws follow each game's seed alone
    both = train_scout_net.play_selfplay((None, [7, 8], 0.0, 0.1, 0.2, 12))
    alone = train_scout_net.play_selfplay((None, [8], 0.0, 0.1, 0.2, 12))
    assert np.array_equal(both.target, np.concatenate([data.target, alone.target]))


def test_a_power_sharpens_the_search_targets_towards_the_move_it_plays() -> None:
    plain = train_scout_net.play_selfplay((None, [7], 0.0, 0.1, 0.2, 12, 1.0))
    sharp = train_scout_net.play_selfplay((None, [7], 0.0, 0.1, 0.2, 12, 4.0))
    # the first decision with more than two actions valued (a flip's two keep eval's labels)
    searched = np.flatnonzero((plain.target.astype(np.float32) > 0).sum(axis=1) > 2)
    first = int(searched[0])  # the games are the same up to the first searched decision
    assert np.array_equal(plain.obs[: first + 1], sharp.obs[: first + 1])
    shares = plain.target[first].astype(np.float64) ** 4
    assert np.allclose(sharp.target[first].astype(np.float64), shares / shares.sum(), atol=2e-3)
    assert sharp.target[first].max() > plain.target[first].max()


def test_agreement_is_the_share_of_examples_where_the_likeliest_actions_match() -> None:
    data = train_scout_net.play_selfplay((None, [9], 0.0, 0.1, 0.2))  # labelled by eval
    rng = np.random.default_rng(3)
    skip_only = {k: np.zeros_like(v) for k, v in nt.init_params(rng, (8, 8), 10.0).items()}
    skip_only["ws"][:] = 10.0
    assert nt.agreement(skip_only, data) == 1.0  # the evaluation's own choices
    blind = {**skip_only, "ws": np.zeros(1, np.float32)}  # every legal action alike
    several = data.mask.sum(axis=1) > 1
    assert nt.agreement(blind, data) < 1.0 - 0.5 * float(several.mean())


def test_the_teachers_settings_reach_its_search() -> None:
    """``--teacher``: the search's other settings. With a root of one action (``root_top``) the
    search spends every visit on the evaluation's best move, so each searched target is that
    move alone; a setting the search does not take is refused."""
    task = (None, [7], 0.0, 0.1, 0.2, 12, 1.0)
    wide = train_scout_net.play_selfplay(task)
    narrow = train_scout_net.play_selfplay((*task, {"root_top": 1}))
    several = (wide.target.astype(np.float32) > 0).sum(axis=1) > 2  # searched, not flips
    first = int(np.flatnonzero(several)[0])
    assert np.array_equal(wide.obs[: first + 1], narrow.obs[: first + 1])
    target = narrow.target[first].astype(np.float32)
    assert target.max() == 1.0
    legal = narrow.mask[first] > 0
    scores = narrow.scores[first].astype(np.float32)
    assert scores[int(target.argmax())] == scores[legal].max()  # the evaluation's best
    assert train_scout_net._settings('{"particles": 256, "inference": false}') == {
        "particles": 256,
        "inference": False,
    }
    for bad in ('{"particle": 3}', "[1]", "{", '{"iterations": 5}'):
        with pytest.raises(argparse.ArgumentTypeError):
            train_scout_net._settings(bad)


def test_an_omniscient_teacher_searches_the_true_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--teacher '{"omniscient": true}'``: the oracle labels each searched decision from the
    game's true deal (every hand seen), not from deals drawn for the seat's view."""
    seen: list[bool] = []
    sample = train_scout_net.Omniscient.sample

    def spy(self, view, rng, start):  # type: ignore[no-untyped-def]
        deals, weights = sample(self, view, rng, start)
        truth = self.truth
        seen.append(len(deals) == 1 and truth is not None and deals[0].hands == truth.hands)
        return deals, weights

    monkeypatch.setattr(train_scout_net.Omniscient, "sample", spy)
    data = train_scout_net.play_selfplay((None, [7], 0.0, 0.1, 0.2, 12, 1.0, {"omniscient": True}))
    assert data.obs.shape[0] > 0
    assert seen and all(seen)
    assert train_scout_net._settings('{"omniscient": true, "root_top": 3}') == {
        "omniscient": True,
        "root_top": 3,
    }
