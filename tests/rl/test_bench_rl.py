"""``make bench-rl`` runs and ends with the lines scripts read (speed is not tested here)."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from bench import bench_rl

from parlour.rl import scout_v0


def test_bench_rl_prints_the_machine_readable_lines(capsys: pytest.CaptureFixture[str]) -> None:
    bench_rl.main(["--runs", "1", "--seconds", "0.05"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"scout engine: \d+ moves/s", lines[-3])
    assert re.fullmatch(r"scout rl: \d+ steps/s \(AEC, one env\)", lines[-2])
    assert re.fullmatch(r"scout rl: \d+ steps/s \(VectorEnv, 16 games\)", lines[-1])


def test_bench_rl_breakdown_prints_a_line_per_loop(capsys: pytest.CaptureFixture[str]) -> None:
    bench_rl.main(["--breakdown", "--runs", "1", "--seconds", "0.05"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 6
    assert all(re.search(r"us/step +\d+% of the engine$", line) for line in lines)


def test_bench_rl_parts_prints_a_line_per_part(capsys: pytest.CaptureFixture[str]) -> None:
    bench_rl.main(["--parts", "1", "--runs", "1"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"\d+ positions of 1 random 4-player games; SCOUT encoder: .+", lines[0])
    assert len(lines) == 8
    assert all(re.search(r" \d+\.\d\d us$", line) for line in lines[1:])


def test_the_pure_python_row_plays_the_same_game_as_the_environment() -> None:
    # The breakdown's "pure-Python encoder" row must time the same observations and masks.
    env, pure = scout_v0.env(players=4), bench_rl._PurePythonEnv(players=4)
    env.reset(seed=5)
    pure.reset(seed=5)
    rng = random.Random(5)
    for agent, other in zip(env.agent_iter(), pure.agent_iter(), strict=True):
        assert agent == other
        obs, _, done, _, _ = env.last()
        seen, _, _, _, _ = pure.last()
        assert np.array_equal(obs["observation"], seen["observation"])
        assert np.array_equal(obs["action_mask"], seen["action_mask"])
        action = None if done else int(rng.choice(obs["action_mask"].nonzero()[0]))
        env.step(action)
        pure.step(action)
    assert env.final_scores == pure.final_scores
