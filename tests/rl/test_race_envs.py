"""SNAP and SCAN as PettingZoo environments: one turn per reveal, races decided by the engine."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

from parlour.games import snap
from parlour.games.scan import match_index
from parlour.rl import scan_v0, snap_v0
from parlour.rl.race_codec import SCAN_RTS, SNAP_RTS

MODULES = [snap_v0, scan_v0]


@pytest.mark.parametrize("mod", MODULES, ids=["snap", "scan"])
def test_the_aec_env_passes_pettingzoos_api_test(mod) -> None:
    api_test(mod.env(players=3), num_cycles=60)


@pytest.mark.parametrize("mod", MODULES, ids=["snap", "scan"])
def test_the_parallel_env_passes_pettingzoos_parallel_api_test(mod) -> None:
    parallel_api_test(mod.parallel_env(players=4), num_cycles=60)


@pytest.mark.parametrize("mod", MODULES, ids=["snap", "scan"])
def test_the_envs_pass_pettingzoos_seed_tests(mod) -> None:
    seed_test(lambda: mod.env(players=3), num_cycles=40)
    parallel_seed_test(lambda: mod.parallel_env(players=3), num_cycles=40)


@pytest.mark.parametrize("mod", MODULES, ids=["snap", "scan"])
def test_the_envs_pass_pettingzoos_max_cycles_test(mod) -> None:
    max_cycles_test(mod)


@pytest.mark.parametrize(
    ("mod", "players"), [(snap_v0, 2), (snap_v0, 12), (scan_v0, 2), (scan_v0, 8)]
)
def test_every_player_count_plays(mod, players: int) -> None:
    env = mod.parallel_env(players=players, max_cycles=30)
    env.reset(seed=players)
    while env.agents:
        env.step({a: env.action_space(a).sample() for a in env.agents})


def test_a_snap_game_plays_to_its_end_and_the_score_rewards_add_up() -> None:
    env = snap_v0.parallel_env(players=3)
    env.reset(seed=7)
    start = [env.unwrapped.state().held(s) for s in range(3)]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    outcome = None
    while env.agents:
        actions = {a: int(rng.integers(0, len(SNAP_RTS) + 1)) for a in env.agents}
        _, rewards, _, _, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
        outcome = next((i["outcome"] for i in infos.values() if "outcome" in i), outcome)
    assert outcome is not None
    final = env.unwrapped.state()
    for s, a in enumerate(env.possible_agents):
        assert totals[a] == final.held(s) - start[s]


def test_the_faster_snap_call_takes_the_claim_set() -> None:
    env = snap_v0.parallel_env(players=2)
    env.reset(seed=3)
    state = env.unwrapped.state()
    while not snap.snap_valid(state):  # everybody waits until two tops match
        env.step(dict.fromkeys(env.agents, 0))
        state = env.unwrapped.state()
    claim, pot = snap.claim_set(state)
    gain = (len(state.piles[1]) if 1 in claim else 0) + (len(state.pot) if pot else 0)
    held = [state.held(s) for s in range(2)]
    # seat 1 calls at 300 ms, seat 0 at 250 ms: seat 0 wins
    env.step({"player_0": 1 + SNAP_RTS.index(250), "player_1": 1 + SNAP_RTS.index(300)})
    after = env.unwrapped.state()
    assert after.held(0) == held[0] + gain
    assert after.held(1) == held[1] - (len(state.piles[1]) if 1 in claim else 0)


def test_the_scan_seat_that_touches_the_match_first_wins_the_card() -> None:
    env = scan_v0.parallel_env(players=3)
    env.reset(seed=5)
    for _ in range(5):
        state = env.unwrapped.state()
        match = match_index(state.layout, state.tan, state.round_category)
        wrong = (match + 1) % len(state.layout)
        won = len(state.won[1])
        actions = {
            "player_0": 1 + SCAN_RTS.index(1000) * 23 + wrong,  # wrong, and first: disqualified
            "player_1": 1 + SCAN_RTS.index(1500) * 23 + match,
            "player_2": 1 + SCAN_RTS.index(2000) * 23 + match,  # too late
        }
        env.step(actions)
        after = env.unwrapped.state()
        assert len(after.won[1]) == won + 1 + (1 if state.won[0] else 0)


@pytest.mark.parametrize("mod", MODULES, ids=["snap", "scan"])
def test_an_observation_depends_only_on_public_information(mod) -> None:
    env = mod.parallel_env(players=4, max_cycles=40)
    env.reset(seed=2)
    rng = random.Random(0)
    races = env.unwrapped.races
    while env.agents:
        state = env.unwrapped.state()
        for seat in range(4):
            obs = races.observe(state, seat)
            for _ in range(2):
                assert np.array_equal(races.observe(races.scramble(state, seat, rng), seat), obs)
        env.step({a: env.action_space(a).sample() for a in env.agents})


@pytest.mark.parametrize("mod", MODULES, ids=["snap", "scan"])
def test_an_illegal_action_raises_a_value_error_and_plays_nothing(mod) -> None:
    env = mod.parallel_env(players=2)
    env.reset(seed=1)
    before = env.unwrapped.state()
    size = env.action_space("player_0").n
    with pytest.raises(ValueError, match=f"action {size} is outside .* {size} legal actions"):
        env.step({"player_0": size, "player_1": 0})  # every in-space action is legal
    with pytest.raises(ValueError, match="no action for player_1"):
        env.step({"player_0": 0})
    assert env.unwrapped.state() is before
    aec = mod.env(players=2)
    aec.reset(seed=1)
    with pytest.raises(ValueError, match="outside the action space"):
        aec.step(-1)


def test_scan_with_bluffo_offers_the_slap() -> None:
    env = scan_v0.parallel_env(players=2, bluffo=True)
    assert env.action_space("player_0").n == 1 + len(SCAN_RTS) * 21
    env.reset(seed=0)
    outcomes = set()
    for _ in range(23):
        state = env.unwrapped.state()
        if state.phase != 1:
            break
        no_match = match_index(state.layout, state.tan, state.round_category) is None
        bluffos = state.bluffos[0]
        env.step({"player_0": 1 + 20, "player_1": 0})  # slap Bluffo at 400 ms; seat 1 waits
        assert env.unwrapped.state().bluffos[0] == bluffos + no_match  # C10: right or not
        outcomes.add(no_match)
    assert outcomes == {True, False}


def test_scan_observations_stay_in_their_space_through_a_bluffo_series() -> None:
    env = scan_v0.parallel_env(players=3, bluffo=True, four_in_a_row=True)
    obs, _ = env.reset(seed=9)
    space = env.observation_space("player_0")
    rng = np.random.default_rng(9)
    reveals = 0
    while env.agents:
        assert all(space.contains(o) for o in obs.values())
        n = env.action_space("player_0").n
        obs, *_ = env.step({a: int(rng.integers(n)) for a in env.agents})
        reveals += 1
    assert reveals == 4 * 23 and env.unwrapped.state().results[-1].game == 3
