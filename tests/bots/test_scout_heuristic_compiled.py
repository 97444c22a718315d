"""The SCOUT bots' compiled hand arithmetic (``parlour.bots.scout._cheur``) against the pure-Python
functions it replaces: the same integers and the same doubles, to the last bit, for any hand,
target and weights; unusual input handed to the Python functions; in use whenever it is built.
(Its playouts and the opponent model's scores: ``test_scout_search_fast_paths``.)

CI sets ``PARLOUR_REQUIRE_COMPILED=1``: there a missing or stale build fails instead of silently
falling back to the (slower) pure-Python functions.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots.scout import features as f
from parlour.bots.scout import heuristic as h
from parlour.bots.scout import search

compiled_only = pytest.mark.skipif(
    not h.COMPILED, reason="the compiled hand arithmetic is not built (pure-Python fallback)"
)

hands = st.lists(st.integers(1, 10), max_size=16).map(tuple)
weights = st.tuples(*[st.floats(-3, 3, allow_nan=False, width=64)] * 6)


def test_the_compiled_functions_are_in_use_when_required_or_built() -> None:
    if os.environ.get("PARLOUR_REQUIRE_COMPILED") == "1":
        assert h.COMPILED, (
            "PARLOUR_REQUIRE_COMPILED=1 but parlour.bots.scout._cheur is missing or stale: "
            "reinstall with a C compiler and Python's headers (pip install -e .)"
        )
    if os.environ.get("PARLOUR_PURE_PYTHON") == "1":
        assert not h.COMPILED
    elif importlib.util.find_spec("parlour.bots.scout._cheur") is not None:
        assert h.COMPILED, "a build of _cheur exists but is stale (its ABI_VERSION differs)"
    if h.COMPILED:
        assert h.hand_shape is not h.hand_shape_py
        assert h.best_following_show is not h.best_following_show_py
        assert f.eval_following_show is not f.eval_following_show_py
        assert f._PLAIN_SCORES is not None  # the opponent model's scores
        assert search._ROLLOUT is not None  # the searches' playouts


def test_pure_python_can_be_chosen_by_the_environment() -> None:
    code = "from parlour.bots.scout import heuristic; print(heuristic.COMPILED)"
    env = {**os.environ, "PARLOUR_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@compiled_only
@settings(max_examples=400, deadline=None)
@given(hands, st.sampled_from([1.25, 1.0, 2.0, 0.5]))
def test_hand_shape_is_the_python_one(hand: tuple[int, ...], bonus: float) -> None:
    assert h.hand_shape(hand) == h.hand_shape_py(hand)
    assert h.hand_shape(hand, bonus) == h.hand_shape_py(hand, bonus)


@compiled_only
@settings(max_examples=400, deadline=None)
@given(hands, st.integers(0, 600), st.integers(0, 12), weights)
def test_the_best_following_show_is_the_python_one_to_the_last_bit(
    hand: tuple[int, ...], target: int, captured: int, w: tuple[float, ...]
) -> None:
    compiled = h.best_following_show(hand, target, captured, *w)
    plain = h.best_following_show_py(hand, target, captured, *w)
    assert compiled.hex() == plain.hex()


@compiled_only
@settings(max_examples=400, deadline=None)
@given(
    hands,
    st.integers(0, 600),
    st.integers(0, 12),
    st.sampled_from([0.6, 1 / 3, 0.5, 1.0]),
    st.lists(st.integers(0, 12), min_size=1, max_size=4).map(tuple),
    st.one_of(st.just(f.load_weights()), st.tuples(*[st.floats(-3, 3, width=64)] * 14)),
)
def test_the_feature_evaluation_s_following_show_is_the_python_one(
    hand: tuple[int, ...],
    target: int,
    captured: int,
    chip: float,
    opponents: tuple[int, ...],
    w: tuple[float, ...],
) -> None:
    # the same Show of equals too: every value is the same to the last bit
    compiled = f.eval_following_show(hand, target, captured, chip, opponents, w)
    assert compiled == f.eval_following_show_py(hand, target, captured, chip, opponents, w)


@compiled_only
def test_the_shipped_weights_on_known_hands() -> None:
    w = h.Weights()
    args = (w.per_group, w.lone_card, w.strength, w.captured, w.tempo, w.hand_card)
    for hand, target in [((), 0), ((5,), 0), ((5,), 60), ((3, 4, 5, 9, 9, 1), 50),
                         ((7, 7, 7, 2, 3), 99), ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0)]:  # fmt: skip
        assert h.best_following_show(hand, target, 3, *args) == h.best_following_show_py(
            hand, target, 3, *args
        )
    assert h.best_following_show((), 0, 2, *args) == -1e9  # no Show at all


@compiled_only
def test_unusual_input_goes_to_the_python_functions() -> None:
    w = h.Weights()
    args = (w.per_group, w.lone_card, w.strength, w.captured, w.tempo, w.hand_card)
    assert h.hand_shape([3, 4, 5, 9]) == h.hand_shape_py([3, 4, 5, 9])  # a list
    assert h.hand_shape((3, 4, 10**30)) == h.hand_shape_py((3, 4, 10**30))  # a huge number
    assert h.hand_shape((3, 4), 2) == h.hand_shape_py((3, 4), 2)  # an int bonus
    ints = (1, 0, 0, 1, 0, 0)  # weights that are ints
    assert h.best_following_show((4, 5, 5), 0, 1, *ints) == h.best_following_show_py(
        (4, 5, 5), 0, 1, *ints
    )
    for function in (h.best_following_show, h.best_following_show_py):
        with pytest.raises(TypeError):  # the hand is a tuple (its left-overs are remembered)
            function([4, 5], 0, 1, *args)
    long_hand = tuple(range(1, 11)) * 7  # more cards than the compiled one reads
    assert h.hand_shape(long_hand) == h.hand_shape_py(long_hand)
    w14 = f.load_weights()
    for function in (f.eval_following_show, f.eval_following_show_py):
        with pytest.raises(ValueError):  # nobody to play against
            function((3, 4), 0, 1, 0.5, (), w14)
    assert f.eval_following_show((3, 4), 0, 1, 0.5, [5, 6], w14) == f.eval_following_show_py(
        (3, 4), 0, 1, 0.5, [5, 6], w14
    )  # a list of opponents
    with pytest.raises(TypeError):
        h.hand_shape(("a", 1))
    with pytest.raises(TypeError):
        h.best_following_show((1, 2), 0)
