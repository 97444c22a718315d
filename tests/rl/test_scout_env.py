"""SCOUT as arrays and as a PettingZoo AEC environment."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from parlour.games import scout
from parlour.rl import scout_codec as codec
from parlour.rl import scout_v0


def random_positions(players: int, games: int, seed: int = 0) -> list[scout.State]:
    rng = random.Random(seed)
    found = []
    for g in range(games):
        state = scout.new_state({"players": players}, seed=seed * 1000 + g)
        while scout.outcome(state) is None:
            found.append(state)
            seat = scout.to_act(state)[0]
            state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_aec_env_passes_pettingzoos_api_test(players: int) -> None:
    api_test(scout_v0.env(players=players), num_cycles=200)


def test_the_aec_env_passes_pettingzoos_seed_test() -> None:
    seed_test(lambda: scout_v0.env(players=4), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_legal_action_has_an_index_and_back(players: int) -> None:
    for state in random_positions(players, 2, seed=players)[::5]:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        indices = codec.legal_indices(state, seat)
        assert [codec.ACTIONS[i] for i in indices] == legal
        assert indices == [codec.action_index(a) for a in legal]
        assert codec.action_mask(state, seat).sum() == len(set(indices))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_observation_depends_only_on_what_the_seat_sees(players: int) -> None:
    """Every hidden card (other hands, set-aside cards, flip choices, the seed) is redrawn: the
    observation stays identical, and so does the action mask."""
    rng = random.Random(players)
    states = random_positions(players, 2, seed=10 + players)
    for state in states[:: max(1, len(states) // 60)]:
        for seat in range(players):
            obs = codec.observe(state, seat)
            for _ in range(3):
                other = scout.scramble_hidden(state, seat, rng)
                assert np.array_equal(codec.observe(other, seat), obs)
                assert np.array_equal(
                    codec.action_mask(other, seat), codec.action_mask(state, seat)
                )


def test_an_observation_tells_the_own_hand_in_order() -> None:
    state = scout.state_from_deal(
        [[(3, 7), (4, 1)], [(5, 6)], [(8, 9)]], start_seat=0, decide_flips=True
    )
    obs = codec.observe(state, 0)
    hand = obs[: 3 * codec.CARD_WIDTH].reshape(3, codec.CARD_WIDTH)
    assert hand[0, 0] == 1 and hand[0, 3] == 1 and hand[0, 17] == 1
    assert hand[1, 0] == 1 and hand[1, 4] == 1 and hand[1, 11] == 1
    assert hand[2].sum() == 0
    seats = obs[codec.LAYOUT["seats"][0] :][: codec.MAX_SEATS * codec.SEAT_WIDTH]
    assert list(seats.reshape(codec.MAX_SEATS, codec.SEAT_WIDTH)[:, 0]) == [1, 1, 1, 0, 0]


def test_an_illegal_action_raises_a_clear_value_error_and_changes_nothing() -> None:
    env = scout_v0.env(players=4)
    env.reset(seed=3)
    before = env.unwrapped.game
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    legal_count = int(obs["action_mask"].sum())
    with pytest.raises(
        ValueError, match=rf"action {illegal} \(.*\) is not legal .* {legal_count} legal"
    ):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(codec.N_ACTIONS)
    with pytest.raises(ValueError, match="integer"):
        env.step("show 0 1")
    assert env.unwrapped.game is before
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def play(env: scout_v0.raw_env, seed: int) -> list[str]:
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    actions = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(f"{agent}:{codec.describe(action)}")
        env.step(action)
    return actions


def test_a_seed_reproduces_a_game_exactly() -> None:
    first = play(scout_v0.env(players=3), seed=11)
    assert play(scout_v0.env(players=3), seed=11) == first
    assert play(scout_v0.env(players=3), seed=12) != first


def test_score_rewards_add_up_to_the_final_scores() -> None:
    env = scout_v0.env(players=3)
    env.reset(seed=5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
    assert total == {a: float(s) for a, s in env.unwrapped.final_scores.items()}


def test_max_cycles_truncates_every_seat() -> None:
    env = scout_v0.env(players=4, max_cycles=5)
    env.reset(seed=2)
    counts = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        counts[agent] += 1
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.truncations == {} or all(env.unwrapped.truncations.values())
    assert sum(counts.values()) == 5 * 4 + 4
