"""The SCOUT policy/value network: shipped weights, its input, its arithmetic, its bot."""

from __future__ import annotations

import math
import random
import time
from importlib import resources
from typing import Any

import numpy as np
import pytest

from parlour.bots.levels import make_bot
from parlour.bots.scout import codec
from parlour.bots.scout.features import EvalBot
from parlour.bots.scout.net import (
    INPUT_SIZE,
    PARAMS,
    WEIGHTS_FILE,
    Net,
    NetBot,
    encode,
    from_file,
    load_net,
    scout_fits,
)
from parlour.games import scout


def test_the_shipped_weights_load_in_under_a_second_and_play_a_whole_game_legally() -> None:
    source = resources.files("parlour.bots.scout").joinpath(WEIGHTS_FILE)
    assert len(source.read_bytes()) < 2_000_000
    start = time.perf_counter()
    with source.open("rb") as f:
        net = from_file(f)
    assert time.perf_counter() - start < 1.0
    bots = [NetBot(net=net), NetBot(0.7, net=net), make_bot("scout", "heuristic"), NetBot(net=net)]
    rngs = [random.Random(i) for i in range(4)]
    state = scout.new_state({"players": 4}, seed=2026)
    moves = 0
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        view = scout.view(state, seat)
        priors, value = net.policy_value(view, legal)
        assert list(priors) == legal and math.isclose(sum(priors.values()), 1.0, rel_tol=1e-4)
        assert 0.0 <= value <= 1.0
        action = bots[seat].choose(view, legal, rngs[seat])
        assert action in legal
        state = scout.apply(state, seat, action)  # raises on an illegal action
        moves += 1
    assert moves > 40 and scout.outcome(state) is not None


def test_the_net_bot_plays_its_most_likely_legal_move_and_is_reproducible() -> None:
    state = scout.new_state({"players": 3}, seed=7)
    state = scout.apply(state, 0, scout.Flip(False))
    state = scout.apply(state, 1, scout.Flip(False))
    state = scout.apply(state, 2, scout.Flip(False))
    seat = scout.to_act(state)[0]
    legal, view = scout.legal_actions(state, seat), scout.view(state, seat)
    priors, _ = load_net().policy_value(view, legal)
    assert NetBot().choose(view, legal, random.Random(1)) == max(priors, key=priors.__getitem__)
    draws = [NetBot(1.5).choose(view, legal, random.Random(s)) for s in range(5)]
    assert draws == [NetBot(1.5).choose(view, legal, random.Random(s)) for s in range(5)]


def test_the_net_is_offered_by_name_with_an_optional_temperature() -> None:
    assert make_bot("scout", "net").temperature == 0.0  # type: ignore[attr-defined]
    assert make_bot("scout", "net:0.5").temperature == 0.5  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="net\\[:temperature\\]"):
        make_bot("scout", "nett")
    with pytest.raises(ValueError, match="negative"):
        make_bot("scout", "net:-1")


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_net_input_and_output_stay_the_same_when_hidden_cards_are_redrawn(
    players: int,
) -> None:
    """Every hidden card (other hands, set-aside cards, the seed) redrawn: the input the net
    reads (the research encoding of the view, the legal mask, the Scout fits) is identical, and
    so are its priors and value."""
    rng = random.Random(players)
    net = load_net()
    state = scout.new_state({"players": players}, seed=300 + players)
    checked = 0
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        if rng.random() < 0.15:
            indices = np.array([codec.action_index(a) for a in legal])
            x = encode(scout.view(state, seat), indices)
            assert np.array_equal(x[: codec.OBS_SIZE], codec.observe(state, seat))
            priors = net.policy_value(scout.view(state, seat), legal)
            for _ in range(2):
                other = scout.scramble_hidden(state, seat, rng)
                moves = scout.legal_actions(other, seat)
                other_legal = np.array([codec.action_index(a) for a in moves])
                assert np.array_equal(encode(scout.view(other, seat), other_legal), x)
                assert net.policy_value(scout.view(other, seat), legal) == priors
            checked += 1
        state = scout.apply(state, seat, rng.choice(legal))
    assert checked >= 5


def _tiny_net(seed: int) -> Net:
    rng = np.random.default_rng(seed)
    shapes = {
        "W1": (INPUT_SIZE, 5),
        "b1": (5,),
        "W2": (5, 3),
        "b2": (3,),
        "Wp": (3, codec.N_ACTIONS),
        "bp": (codec.N_ACTIONS,),
        "Wv": (3, 1),
        "bv": (1,),
    }
    return Net({k: rng.standard_normal(s).astype(np.float32) for k, s in shapes.items()})


def _reference(net: Net, obs: list[float], legal: list[int]) -> tuple[list[float], float]:
    # The network's definition in plain Python: two ReLU layers, softmax over the legal
    # actions' logits, sigmoid value.
    p = {k: v.tolist() for k, v in net.params.items()}
    h1 = [
        max(0.0, sum(x * p["W1"][i][j] for i, x in enumerate(obs)) + p["b1"][j]) for j in range(5)
    ]
    h2 = [max(0.0, sum(h * p["W2"][i][j] for i, h in enumerate(h1)) + p["b2"][j]) for j in range(3)]
    logits = [sum(h * p["Wp"][i][a] for i, h in enumerate(h2)) + p["bp"][a] for a in legal]
    top = max(logits)
    exps = [math.exp(z - top) for z in logits]
    value = 1 / (1 + math.exp(-(sum(h * p["Wv"][i][0] for i, h in enumerate(h2)) + p["bv"][0])))
    return [e / sum(exps) for e in exps], value


def _random_position(seed: int, draws: int, moves: int) -> tuple[list[Any], Any]:
    """The legal actions and the view of the seat to act after ``moves`` random moves of a
    seeded 4-player game."""
    state = scout.new_state({"players": 4}, seed=seed)
    rng = random.Random(draws)
    for _ in range(moves):
        seat = scout.to_act(state)[0]
        state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))
    seat = scout.to_act(state)[0]
    return scout.legal_actions(state, seat), scout.view(state, seat)


def test_the_numpy_forward_equals_the_reference_computation() -> None:
    net = _tiny_net(3)
    legal, view = _random_position(11, 0, 30)
    indices = [codec.action_index(a) for a in legal]
    x = encode(view, np.array(indices))
    expected, value = _reference(net, x.tolist(), indices)
    priors, got_value = net.policy_value(view, legal)
    assert np.allclose(list(priors.values()), expected, atol=1e-5)
    assert math.isclose(got_value, value, abs_tol=1e-5)
    probs, values = net.forward(x[None, :], codec.mask_of(np.array(indices))[None, :])
    assert np.allclose(probs[0, indices], expected, atol=1e-5)
    assert probs[0].sum() == pytest.approx(1.0, abs=1e-5) and math.isclose(
        float(values[0]), value, abs_tol=1e-5
    )


def test_the_evaluation_skip_adds_its_weight_times_the_evaluations_score_to_each_logit() -> None:
    legal, view = _random_position(12, 3, 25)
    evaluation = EvalBot()
    scores = [evaluation.score(view, a) for a in legal]
    indices = [codec.action_index(a) for a in legal]
    plain = _tiny_net(4)
    skipped = Net({**plain.params, "ws": np.array([0.7], np.float32)})
    assert plain.skip == 0.0 and skipped.skip == pytest.approx(0.7)
    x = encode(view, np.array(indices))
    logits, value = plain.logits_value(x, np.array(indices))
    expected = logits.astype(np.float64) + 0.7 * np.array(scores)
    expected = np.exp(expected - expected.max())
    priors, got_value = skipped.policy_value(view, legal)
    assert np.allclose(list(priors.values()), expected / expected.sum(), atol=1e-5)
    assert got_value == pytest.approx(value, abs=1e-6)  # the value does not read the skip
    dense = np.zeros((1, codec.N_ACTIONS), np.float32)
    dense[0, indices] = scores
    probs, _ = skipped.forward(x[None, :], codec.mask_of(np.array(indices))[None, :], dense)
    assert np.allclose(probs[0, indices], expected / expected.sum(), atol=1e-5)
    # layers that add nothing and the skip alone: the evaluation's own choice
    blank = Net({**{k: np.zeros_like(v) for k, v in plain.params.items()},
                 "ws": np.array([10.0], np.float32)})  # fmt: skip
    assert NetBot(net=blank).choose(view, legal, random.Random(0)) == legal[int(np.argmax(scores))]


def test_a_network_file_with_missing_or_misshapen_arrays_is_refused() -> None:
    good = dict(_tiny_net(1).params)
    with pytest.raises(ValueError, match="missing \\['bv'\\]"):
        Net({k: v for k, v in good.items() if k != "bv"})
    with pytest.raises(ValueError, match="wrong shapes: W2"):
        Net({**good, "W2": np.zeros((4, 3), np.float32)})
    assert set(PARAMS) == set(good)


def test_the_research_encoding_is_the_same_module_as_the_bots() -> None:
    from parlour.rl import scout_codec

    assert scout_codec.observe_view is codec.observe_view
    assert scout_codec.ACTIONS is codec.ACTIONS
    assert (scout_codec.OBS_SIZE, scout_codec.N_ACTIONS) == (1219, 820)


def test_the_scout_fits_mark_where_a_scouted_number_meets_an_equal_or_adjacent_one() -> None:
    fits = scout_fits([2, 5, 9], [(6, 1), (9, 3)]).reshape(4, codec.INSERTS, 2)
    # left end 6 fits beside the 5; rotated it is a 1, beside the 2; right end 9 beside the 9
    assert fits[0, :4].tolist() == [[0, 0], [0, 1], [1, 0], [0, 0]]
    assert fits[1, :4].tolist() == [[0, 1], [1, 0], [0, 0], [0, 0]]
    assert fits[2, :4].tolist() == [[0, 0], [0, 0], [0, 1], [1, 0]]
    assert fits[3, :4].tolist() == [[0, 1], [1, 0], [0, 0], [0, 0]]  # a 3 beside the 2
    assert not fits[:, 4:].any()
    assert not scout_fits([2, 5], []).any()
