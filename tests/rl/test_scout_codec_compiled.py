"""The compiled SCOUT encoder (``parlour.bots.scout._ccodec``) against the pure-Python one:
the same bytes for every seat at every step of seeded games, the same results and errors for
unusual input (which it hands to the pure-Python encoder), and in use whenever it is built.

CI sets ``PARLOUR_REQUIRE_COMPILED=1``: there a missing or stale build fails instead of
silently falling back to the (slower) pure-Python encoder.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from parlour.games import scout
from parlour.games.scout import Flip, ScoutShow
from parlour.rl import scout_codec as codec

compiled_only = pytest.mark.skipif(
    not codec.COMPILED, reason="the compiled encoder is not built (pure-Python fallback)"
)


def test_the_compiled_encoder_is_in_use_when_required_or_built() -> None:
    if os.environ.get("PARLOUR_REQUIRE_COMPILED") == "1":
        assert codec.COMPILED, (
            "PARLOUR_REQUIRE_COMPILED=1 but parlour.bots.scout._ccodec is missing or stale: "
            "reinstall with a C compiler and Python's headers (pip install -e .)"
        )
    if os.environ.get("PARLOUR_PURE_PYTHON") == "1":
        assert not codec.COMPILED
    elif importlib.util.find_spec("parlour.bots.scout._ccodec") is not None:
        assert codec.COMPILED, "a build of _ccodec exists but is stale (its ABI_VERSION differs)"
    if codec.COMPILED:
        assert codec.legal_mask_bytes is not codec.legal_mask_bytes_py
        assert codec.observation_buffer is not codec.observation_buffer_py


def test_pure_python_can_be_chosen_by_the_environment() -> None:
    code = "from parlour.bots.scout import codec; print(codec.COMPILED)"
    env = {**os.environ, "PARLOUR_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def _same(state: scout.State, seat: int) -> None:
    obs = codec.observation_buffer(state, seat)
    assert type(obs) is bytearray and len(obs) == codec.OBS_SIZE * 4
    assert obs == codec.observation_buffer_py(state, seat)
    mask = codec.legal_mask_bytes(state, seat)
    assert type(mask) is bytearray and len(mask) == codec.N_ACTIONS
    assert mask == codec.legal_mask_bytes_py(state, seat)


@compiled_only
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_compiled_and_pure_python_encoders_give_identical_bytes(players: int) -> None:
    # Every seat (the one to act and the others) at every step of seeded games: flips kept and
    # taken, Scout & Show (both halves, with 3-5 players), every round, the end of the game.
    flips = scout_shows = pending = 0
    rounds = set()
    for g in range(12):
        rng = random.Random(players * 100 + g)
        state = scout.new_state({"players": players}, seed=900 + g)
        while True:
            for seat in range(players):
                _same(state, seat)
            rounds.add(state.round)
            pending += state.pending
            if scout.outcome(state) is not None:
                break
            seat = scout.to_act(state)[0]
            action = rng.choice(scout.legal_actions(state, seat))
            flips += action == Flip(True)
            scout_shows += isinstance(action, ScoutShow)
            state = scout.apply(state, seat, action)
    assert rounds == set(range(2 if players == 2 else players))
    assert flips > 0
    assert (scout_shows > 0 and pending > 0) or players == 2


@compiled_only
def test_positions_built_by_hand_give_identical_bytes() -> None:
    # A long active show (a 9-card set, Scout & Show against it), a one-card hand, a hand of
    # 45 cards (the most the encoding holds), out-of-range seats.
    set_of_9 = [(5, b) for b in (1, 2, 3, 4, 6, 7, 8, 9, 10)]
    state = scout.state_from_deal(
        [[(1, 2), (1, 3)], [*set_of_9, (3, 7)], [(2, 4)], [(2, 6)]], start_seat=1, decide_flips=True
    )
    state = scout.apply(state, 1, scout.Show(0, 9))
    for seat in (-1, 0, 1, 2, 3):
        _same(state, seat)
    assert codec.legal_mask_bytes(state, 4) == bytes(codec.N_ACTIONS)
    with pytest.raises(IndexError):  # as the pure-Python encoder: there is no seat 4
        codec.observation_buffer(state, 4)
    many = state.clone()
    many.hands = (tuple(((n % 10) + 1, ((n + 3) % 10) + 1) for n in range(45)), *state.hands[1:])
    many.turn = 0
    for seat in range(4):
        _same(many, seat)
    two = scout.state_from_deal([[(3, 4), (4, 5)], [(6, 7)]], decide_flips=True)
    two = scout.apply(two, 0, scout.Show(1, 1))
    broke = two.clone()
    broke.chips = (3, 0)
    for s in (two, broke):
        _same(s, 1)


def test_unusual_input_gets_the_pure_python_result_or_error() -> None:
    state = scout.new_state({"players": 4}, seed=3)
    state = scout.apply(state, 0, Flip(False))
    # a seat that is not a plain int, a state that is not the engine's (a view's proxy)
    for seat in (np.int64(2), True):
        assert codec.observation_buffer(state, seat) == codec.observation_buffer_py(state, seat)
        assert codec.legal_mask_bytes(state, seat) == codec.legal_mask_bytes_py(state, seat)
    proxy = SimpleNamespace(**{name: getattr(state, name) for name in scout.State.__slots__})
    assert codec.observation_buffer(proxy, 1) == codec.observation_buffer_py(state, 1)
    assert codec.legal_mask_bytes(proxy, 1) == codec.legal_mask_bytes_py(state, 1)
    # too long a hand, a card outside the deck: the pure-Python encoder's errors
    long = state.clone()
    long.hands = (((1, 2),) * 46, *state.hands[1:])
    with pytest.raises(ValueError, match="too long"):
        codec.observation_buffer(long, 0)
    odd = state.clone()
    odd.hands = (((11, 2), *state.hands[0][1:]), *state.hands[1:])
    with pytest.raises(ValueError, match="not a SCOUT card"):
        codec.observation_buffer(odd, 0)
    with pytest.raises(TypeError):
        codec.observation_buffer(state)
