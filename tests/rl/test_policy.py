"""Policy files: encoding from a view, the policy bot, the arena's ``policy:PATH`` and the
self-play example."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from parlour.cli.arena import arena_bot, play_game, run_arena
from parlour.games import scout
from parlour.rl import scout_codec as codec
from parlour.rl.policy import LinearPolicy, PolicyBot

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay_scout.py"


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_observation_from_a_view_equals_the_one_from_the_state(players: int) -> None:
    rng = random.Random(players)
    state = scout.new_state({"players": players}, seed=players)
    for _ in range(150):
        if scout.outcome(state) is not None:
            break
        for seat in range(players):
            seen = scout.view(state, seat)
            assert np.array_equal(codec.observe_view(seen), codec.observe(state, seat))
        seat = scout.to_act(state)[0]
        state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))


def show_loving_policy(path: Path) -> Path:
    policy = LinearPolicy.zeros()
    policy.b[codec.SHOW_BASE : codec.SCOUT_BASE] = 5.0
    policy.save(path)
    return path


def test_a_policy_file_plays_in_the_arena(tmp_path: Path) -> None:
    path = show_loving_policy(tmp_path / "p.npz")
    bot = arena_bot("scout", f"policy:{path}")
    assert isinstance(bot, PolicyBot)
    first = play_game("scout", 3, [f"policy:{path}", "random", "random"], deal=1, rotation=0)
    again = play_game("scout", 3, [f"policy:{path}", "random", "random"], deal=1, rotation=0)
    assert first.scores == again.scores
    stats = run_arena("scout", [f"policy:{path}", "random"], 4, seed=5)
    assert stats[0].games == 4


def test_a_bad_policy_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, kind="something else", W=np.zeros(1), b=np.zeros(1))
    with pytest.raises(ValueError, match="not a linear-softmax SCOUT policy"):
        arena_bot("scout", f"policy:{bad}")
    with pytest.raises(OSError):
        arena_bot("scout", f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(ValueError, match="SCOUT"):
        arena_bot("snap", f"policy:{bad}")


def test_the_self_play_example_trains_a_policy_the_arena_loads(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("selfplay_scout", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["selfplay_scout"] = module
    spec.loader.exec_module(module)
    policy = module.train(games=4, players=2, envs=2, lr=0.05, seed=0)
    assert np.abs(policy.W).sum() > 0  # it learned something from the games
    policy.save(tmp_path / "trained.npz")
    result = play_game("scout", 2, [f"policy:{tmp_path / 'trained.npz'}", "random"], 3, 0)
    assert len(result.scores) == 2
