"""Research interfaces: SCOUT, SCAN and SNAP as arrays, PettingZoo and Gymnasium environments
and an OpenSpiel game (``pip install parlour[rl]``).

- ``parlour.rl.encode``: fixed-size observations and action spaces per game;
- ``parlour.rl.scout_v0``, ``scan_v0``, ``snap_v0``: PettingZoo environments;
- ``parlour.rl.single(game, players, opponents)``: a Gymnasium environment against Parlour bots;
- ``parlour.rl.VectorEnv``: many SCOUT games stepped together;
- ``parlour.rl.openspiel``: SCOUT registered as an OpenSpiel game (``python_scout``);
- ``parlour.rl.net_train``: training the SCOUT policy/value network (``parlour.bots.scout.net``)
  in numpy (``make train-scout-net``).

This package may import ``core``, ``games`` and ``bots``, never ``table``, ``store``,
``server`` or ``web`` (DESIGN.md, "Layers").
"""

from __future__ import annotations

from typing import Any

__all__ = ["VectorEnv", "single"]


def __getattr__(name: str) -> Any:
    # Import the heavier parts only when asked.
    if name == "single":
        from parlour.rl.gym_env import single

        return single
    if name == "VectorEnv":
        from parlour.rl.vector import VectorEnv

        return VectorEnv
    raise AttributeError(name)
