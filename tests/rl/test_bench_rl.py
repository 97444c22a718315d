"""``make bench-rl`` runs and ends with the lines scripts read (speed is not tested here)."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from bench import bench_rl

from parlour.rl import scout_codec


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
    assert re.fullmatch(r"\d+ positions of 1 random 4-player games", lines[0])
    assert len(lines) == 7
    assert all(re.search(r" \d+\.\d\d us$", line) for line in lines[1:])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_incremental_observation_equals_the_full_encoding_at_every_step(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The breakdown's "hand kept between steps" row must time the same observation: every
    # seat at every step of seeded games (flips, Scout & Show, every round) against a fresh
    # full encoding. A hand is encoded in full only when dealt, flipped or seen at the end of
    # a game (at most 2 per seat and round, 1 per seat and game); every other change is edited.
    full = []
    encode = scout_codec.hand_bytes
    monkeypatch.setattr(scout_codec, "hand_bytes", lambda hand: full.append(1) or encode(hand))
    env = bench_rl._IncrementalHandEnv(players=players)
    steps = scout_shows = bound = 0
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        rounds = set()
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            state = env.game
            rounds.add(state.round)
            for seat, other in enumerate(env.possible_agents):
                seen = obs if other == agent else env.observe(other)
                assert np.array_equal(seen["observation"], scout_codec.observe(state, seat))
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            action = int(legal[int(rng.random() * len(legal))])
            scout_shows += action >= scout_codec.SCOUT_SHOW_BASE
            env.step(action)
            steps += 1
        assert rounds == set(range(2 if players == 2 else players))
        bound += players * (2 * len(rounds) + 1)
    assert len(full) <= bound < steps
    assert scout_shows > 0 or players == 2
