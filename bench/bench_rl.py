"""Throughput of the research interfaces on one core, beside the SCOUT engine's own.

Every seat plays uniformly among its legal actions. Reports, for 4-player SCOUT: the engine's
moves per second through the protocol (``legal_actions`` + ``apply``, as ``bench_scout``), the
PettingZoo AEC environment's steps per second (``last()`` with the observation and mask, then
``step``), and ``VectorEnv``'s steps per second over 16 games; then SNAP's and SCAN's reveals
per second through their parallel environments. Each figure is the median of ``--runs`` timed
runs of about ``--seconds`` of CPU time each. It says which SCOUT encoder is in use (compiled
or pure Python, see ``parlour.bots.scout.codec``). The last lines are, for scripts::

    scout engine: <N> moves/s
    scout rl: <N> steps/s (AEC, one env)
    scout rl: <N> steps/s (VectorEnv, 16 games)

Run with ``make bench-rl`` (or ``python bench/bench_rl.py --runs 5``). ``--breakdown`` times
instead the AEC loop beside loops doing part of its work (a constant observation; no
PettingZoo) or the same work another way (the pure-Python encoder), to show where a step's
time goes; ``--parts GAMES`` times the parts of a step one by one over
the positions of GAMES recorded games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from parlour.games.scout import ScoutOptions, apply, legal_actions, new_state, outcome, to_act
from parlour.games.scout.state import State
from parlour.rl import VectorEnv, scan_v0, scout_codec, scout_v0, snap_v0

PLAYERS = 4
clock = time.process_time
"""Rates are per second of this process's CPU time (one core): another process on a shared
machine slows the wall clock, much less the CPU time a figure is measured in."""


def engine_run(seconds: float, seed: int) -> float:
    """Moves per second of random 4-player games through the engine's protocol."""
    rng = random.Random(seed)
    uniform = rng.random
    options = ScoutOptions(PLAYERS)
    moves = 0
    start = clock()
    g = 0
    while clock() - start < seconds:
        state = new_state(options, seed * 100_000 + g)
        g += 1
        while outcome(state) is None:
            seat = to_act(state)[0]
            actions = legal_actions(state, seat)
            state = apply(state, seat, actions[int(uniform() * len(actions))])
            moves += 1
    return moves / (clock() - start)


def aec_run(seconds: float, seed: int, env: scout_v0.raw_env | None = None) -> float:
    """Steps per second of the AEC environment (observation and mask at every step)."""
    env = env or scout_v0.env(players=PLAYERS)
    rng = random.Random(seed)
    uniform = rng.random
    steps = 0
    start = clock()
    episode = 0
    while clock() - start < seconds:
        env.reset(seed=seed * 100_000 + episode)
        episode += 1
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(uniform() * len(legal))]))
            steps += 1
    return steps / (clock() - start)


class _ConstantObservationEnv(scout_v0.raw_env):
    """The AEC environment with its real mask and a constant observation (``--breakdown``)."""

    _zeros = np.zeros(scout_codec.OBS_SIZE, dtype=np.float32)

    def observe(self, agent: str) -> dict[str, Any]:
        mask = self._legal
        if mask is None:
            mask = self._legal = scout_codec.legal_mask_bytes(self.game, self._seat[agent])
        return {"observation": self._zeros, "action_mask": np.frombuffer(mask.copy(), np.int8)}


class _PurePythonEnv(scout_v0.raw_env):
    """The AEC environment with the pure-Python encoder, as on a machine without a C compiler
    (``--breakdown``): the same observation and mask, tested byte for byte."""

    def observe(self, agent: str) -> dict[str, Any]:
        seat, state = self._seat[agent], self.game
        if agent == self.agent_selection:  # as the environment's own observe
            mask = self._legal
            if mask is None:
                mask = self._legal = scout_codec.legal_mask_bytes_py(state, seat)
            mask = mask.copy()
        else:
            mask = scout_codec.legal_mask_bytes_py(state, seat)
        return {
            "observation": np.frombuffer(
                scout_codec.observation_buffer_py(state, seat), np.float32
            ),
            "action_mask": np.frombuffer(mask, np.int8),
        }


def pure_python_run(seconds: float, seed: int) -> float:
    """``aec_run`` with the pure-Python encoder (``_PurePythonEnv``)."""
    return aec_run(seconds, seed, _PurePythonEnv(players=PLAYERS))


def constant_observation_run(seconds: float, seed: int) -> float:
    """``aec_run`` with a constant observation: what PettingZoo's loop and the mask cost."""
    return aec_run(seconds, seed, _ConstantObservationEnv(players=PLAYERS))


def bare_run(seconds: float, seed: int, observe: bool = False) -> float:
    """The engine's loop with the AEC agent's work: the mask (as the environment makes it),
    its ``nonzero``, the action by index; with ``observe``, the observation too."""
    rng = random.Random(seed)
    uniform = rng.random
    options = ScoutOptions(PLAYERS)
    mask_bytes, observation = scout_codec.legal_mask_bytes, scout_codec.observation_buffer
    actions = scout_codec.ACTIONS
    moves = 0
    start = clock()
    g = 0
    while clock() - start < seconds:
        state = new_state(options, seed * 100_000 + g)
        g += 1
        while outcome(state) is None:
            seat = to_act(state)[0]
            if observe:
                np.frombuffer(observation(state, seat), np.float32)
            legal = np.frombuffer(mask_bytes(state, seat).copy(), np.int8).nonzero()[0]
            state = apply(state, seat, actions[int(legal[int(uniform() * len(legal))])])
            moves += 1
    return moves / (clock() - start)


def vector_run(seconds: float, seed: int, num_envs: int = 16) -> float:
    """Steps per second (summed over the games) of ``VectorEnv``."""
    venv = VectorEnv(num_envs=num_envs, players=PLAYERS, seed=seed)
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(seed)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        # one random legal action per game: argmax of random noise on the legal entries
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)
        _, mask, _, _, _ = venv.step(actions)
        steps += num_envs
    return steps / (clock() - start)


def race_run(module: object, seconds: float, seed: int) -> float:
    """Reveals per second of a real-time game's parallel environment (every seat random)."""
    env = module.parallel_env(players=PLAYERS)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    reveals = 0
    start = clock()
    episode = 0
    while clock() - start < seconds:
        env.reset(seed=seed * 1000 + episode)
        episode += 1
        while env.agents:
            n = env.action_space(env.agents[0]).n
            env.step({a: int(rng.integers(n)) for a in env.agents})
            reveals += 1
    return reveals / (clock() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure")
    parser.add_argument("--seconds", type=float, default=1.5, help="length of one timed run")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="instead: the AEC loop without parts of its work, each as a share of the engine",
    )
    parser.add_argument(
        "--parts",
        type=int,
        metavar="GAMES",
        help="instead: the parts of a step, each timed alone over GAMES recorded random games",
    )
    args = parser.parse_args(argv)
    if args.breakdown:
        breakdown(args.runs, args.seconds)
        return
    if args.parts:
        parts(args.runs, args.parts)
        return
    runs: dict[str, Callable[[float, int], float]] = {
        "engine": engine_run,
        "aec": aec_run,
        "vector": vector_run,
        "snap": lambda s, r: race_run(snap_v0, s, r),
        "scan": lambda s, r: race_run(scan_v0, s, r),
    }
    for run in runs.values():
        run(args.seconds / 4, 999)  # warm-up
    # Interleaved, so that a change in the machine's load affects every figure alike.
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for r in range(args.runs):
        for name, run in runs.items():
            rates[name].append(run(args.seconds, r + 1))
    med = {name: statistics.median(values) for name, values in rates.items()}
    aec_ratio = statistics.median(a / e for a, e in zip(rates["aec"], rates["engine"], strict=True))
    vec_ratio = statistics.median(
        v / e for v, e in zip(rates["vector"], rates["engine"], strict=True)
    )
    print(
        f"4-player games on one core, median of {args.runs} interleaved runs of {args.seconds:g} s"
    )
    print(_encoder())
    print(f"snap rl: {med['snap']:.0f} reveals/s (parallel env, 4 seats)")
    print(f"scan rl: {med['scan']:.0f} reveals/s (parallel env, 4 seats)")
    print(
        f"AEC / engine: {aec_ratio:.0%}; VectorEnv / engine: {vec_ratio:.0%} (median of run pairs)"
    )
    print(f"scout engine: {med['engine']:.0f} moves/s")
    print(f"scout rl: {med['aec']:.0f} steps/s (AEC, one env)")
    print(f"scout rl: {med['vector']:.0f} steps/s (VectorEnv, 16 games)")


def _encoder() -> str:
    if scout_codec.COMPILED:
        return "SCOUT encoder: compiled (parlour.bots.scout._ccodec)"
    return "SCOUT encoder: pure Python (no compiled encoder)"


def positions(games: int, seed: int) -> list[tuple[State, int]]:
    """Every position (state, seat to act) of ``games`` random 4-player games."""
    rng = random.Random(seed)
    options = ScoutOptions(PLAYERS)
    out = []
    for g in range(games):
        state = new_state(options, seed * 100_000 + g)
        while outcome(state) is None:
            seat = to_act(state)[0]
            out.append((state, seat))
            actions = legal_actions(state, seat)
            state = apply(state, seat, actions[int(rng.random() * len(actions))])
    return out


_EMPTY = bytes(scout_codec.OBS_SIZE * 4)


def parts(runs: int, games: int) -> None:
    """The parts of an AEC step beside the engine's, each timed alone over every position of
    ``games`` recorded random games, in CPU microseconds per position (median of ``runs``)."""
    mask_bytes, array = scout_codec.legal_mask_bytes, np.frombuffer
    timed: dict[str, Callable[[State, int], object]] = {
        "engine: legal_actions": legal_actions,
        "mask: legal_mask_bytes": mask_bytes,
        "mask, pure Python: legal_mask_bytes_py": scout_codec.legal_mask_bytes_py,
        "mask as the agent gets it, and its nonzero": lambda s, seat: array(
            mask_bytes(s, seat).copy(), np.int8
        ).nonzero(),
        "observation: observation_buffer": scout_codec.observation_buffer,
        "observation, pure Python: observation_buffer_py": scout_codec.observation_buffer_py,
        "for scale: a new float32[1219] from bytes": lambda s, _: array(
            bytearray(_EMPTY), np.float32
        ),
    }
    recorded = positions(games, 1)
    times: dict[str, list[float]] = {name: [] for name in timed}
    for _ in range(runs):
        for name, part in timed.items():
            start = clock()
            for state, seat in recorded:
                part(state, seat)
            times[name].append((clock() - start) / len(recorded) * 1e6)
    print(f"{len(recorded)} positions of {games} random 4-player games; {_encoder()}")
    for name, values in times.items():
        print(f"{name:50s} {statistics.median(values):5.2f} us")


def breakdown(runs: int, seconds: float) -> None:
    """Where an AEC step's time goes: the AEC loop and loops doing part of its work,
    interleaved with the engine, as CPU microseconds per step and shares of the engine."""
    loops: dict[str, Callable[[float, int], float]] = {
        "engine (legal_actions + apply)": engine_run,
        "AEC env (as make bench-rl)": aec_run,
        "AEC env, pure-Python encoder": pure_python_run,
        "AEC env, constant observation": constant_observation_run,
        "no PettingZoo: mask + apply": bare_run,
        "no PettingZoo: observation + mask + apply": lambda s, r: bare_run(s, r, observe=True),
    }
    for run in loops.values():
        run(seconds / 4, 999)
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for r in range(runs):
        for name, run in loops.items():
            rates[name].append(run(seconds, r + 1))
    engine = rates["engine (legal_actions + apply)"]
    for name, values in rates.items():
        med = statistics.median(values)
        share = statistics.median(v / e for v, e in zip(values, engine, strict=True))
        print(f"{name:42s} {1e6 / med:6.2f} us/step  {share:4.0%} of the engine")


if __name__ == "__main__":
    main()
