"""SCAN as PettingZoo environments (``parlour.rl.scan_v0``): one turn per reveal.

At each reveal every seat still in chooses at once an action with a reaction time, or to wait
(``parlour.rl.race_codec``); the engine decides the race exactly as at the table.
``parallel_env(players=4, max_cycles=None, reward="score", **options)`` and ``env(...)``
(the AEC form) take 2-8 players and the game's own options.

>>> from parlour.rl import scan_v0
>>> env = scan_v0.parallel_env(players=3, max_cycles=5)
>>> obs, infos = env.reset(seed=0)
>>> while env.agents:
...     actions = {a: env.action_space(a).sample() for a in env.agents}
...     obs, rewards, terminations, truncations, infos = env.step(actions)
"""

from __future__ import annotations

from typing import Any

from parlour.rl.race_env import RaceAECEnv, RaceParallelEnv


def parallel_env(players: int = 4, **kwargs: Any) -> RaceParallelEnv:
    """SCAN as a PettingZoo parallel environment (one step per reveal)."""
    return RaceParallelEnv("scan", players=players, **kwargs)


def raw_env(players: int = 4, **kwargs: Any) -> RaceAECEnv:
    """SCAN as a PettingZoo AEC environment."""
    return RaceAECEnv(parallel_env(players=players, **kwargs))


env = raw_env
