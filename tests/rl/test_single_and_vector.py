"""The Gymnasium single-seat environment and the vectorised SCOUT games."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from parlour.rl import VectorEnv, single


@pytest.mark.parametrize("players", [2, 4])
def test_the_single_env_passes_gymnasiums_check_env_as_it_comes(players: int) -> None:
    # check_env samples actions from action_space without the mask, so a default environment
    # must accept every action of its space: an illegal one costs the penalty
    check_env(single("scout", players=players, opponents="random"))


def test_the_strict_single_env_fails_check_env_for_the_reason_documented() -> None:
    with pytest.raises(ValueError, match=r"action \d+ \(.*\) is not legal .* \d+ legal actions"):
        check_env(single("scout", players=3, opponents="random", illegal="raise"))


def test_an_illegal_action_costs_the_penalty_and_says_why_by_default() -> None:
    env = single("scout", players=4, opponents="medium")
    obs, info = env.reset(seed=1)
    assert np.array_equal(info["action_mask"], obs["action_mask"])
    assert info["action_mask"] is not obs["action_mask"]
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    legal_count = int(obs["action_mask"].sum())
    before = env.unwrapped.state
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, False, False)
    assert re.fullmatch(
        rf"action {illegal} \(.*\) is not legal for the seat now: {legal_count} legal actions.*",
        info2["illegal"],
    )
    assert env.unwrapped.state is before
    assert np.array_equal(obs2["observation"], obs["observation"])
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    _, _, _, _, info3 = env.step(legal)  # a legal action plays as usual
    assert "illegal" not in info3 and env.unwrapped.state is not before


@pytest.mark.parametrize("illegal", ["penalty", "raise"])
def test_an_action_outside_the_space_is_refused_in_every_mode(illegal: str) -> None:
    env = single("scout", players=3, opponents="random", illegal=illegal)
    env.reset(seed=2)
    before = env.unwrapped.state
    with pytest.raises(ValueError, match=r"outside the action space 0\.\.819: 2 legal actions"):
        env.step(820)
    with pytest.raises(ValueError, match="integer"):
        env.step("keep")  # type: ignore[arg-type]
    assert env.unwrapped.state is before


def test_the_strict_single_env_refuses_an_illegal_action() -> None:
    env = single("scout", players=4, opponents="medium", illegal="raise")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    legal_count = int(obs["action_mask"].sum())
    before = env.unwrapped.state
    with pytest.raises(ValueError, match=rf"action {illegal} .* not legal .* {legal_count} legal"):
        env.step(illegal)
    assert env.unwrapped.state is before


def play_out(env: gym.Env, seed: int) -> tuple[float, dict]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return total, info


@pytest.mark.parametrize("opponents", ["random", "medium", ["greedy", "easy"]])
def test_a_game_against_bots_ends_with_the_seats_score(opponents: object) -> None:
    env = single("scout", players=3, opponents=opponents)
    total, info = play_out(env, seed=4)
    assert total == info["outcome"]["scores"][info["seat"]]
    assert play_out(single("scout", players=3, opponents=opponents), seed=4)[0] == total


def test_the_single_env_rejects_bad_options() -> None:
    with pytest.raises(ValueError, match="SCOUT"):
        single("snap")
    with pytest.raises(ValueError, match="opponents needed"):
        single("scout", players=4, opponents=["random"])
    with pytest.raises(ValueError):
        single("scout", opponents="grandmaster")


def test_gymnasiums_own_vector_api_runs_the_single_env() -> None:
    envs = gym.vector.SyncVectorEnv([lambda: single("scout", players=2, opponents="random")] * 2)
    obs, _ = envs.reset(seed=0)
    for _ in range(10):
        actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
        obs, *_ = envs.step(np.array(actions))
    envs.close()


def test_the_vector_env_plays_games_to_the_end_reproducibly() -> None:
    def run(seed: int) -> list[list[int]]:
        venv = VectorEnv(num_envs=3, players=3, seed=seed)
        obs, mask, _ = venv.reset()
        rng = np.random.default_rng(seed)
        sums = np.zeros((3, 3))
        while len(venv.outcomes) < 4:
            actions = [int(rng.choice(np.flatnonzero(m))) for m in mask]
            obs, mask, _, rewards, done = venv.step(actions)
            assert obs.shape == (3, 1219) and (mask.sum(axis=1) > 0).all()
            sums += rewards
            finished = np.flatnonzero(done)  # the points of a game add up to its final scores
            for k, i in enumerate(finished):
                assert (
                    list(sums[i]) == venv.outcomes[len(venv.outcomes) - len(finished) + k]["scores"]
                )
                sums[i] = 0
        return [o["scores"] for o in venv.outcomes]

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_the_vector_env_names_the_game_of_an_illegal_action() -> None:
    venv = VectorEnv(num_envs=2, players=4, seed=0)
    _, mask, _ = venv.reset()
    good = int(np.flatnonzero(mask[0])[0])
    bad = int(np.flatnonzero(mask[1] == 0)[0])
    before = list(venv.states)
    with pytest.raises(ValueError, match="not legal for game 1"):
        venv.step([good, bad])
    assert venv.states == before
