"""Many SCOUT games stepped together, every seat played by the caller (self-play batches).

>>> import numpy as np
>>> from parlour.rl import VectorEnv
>>> venv = VectorEnv(num_envs=4, players=3, seed=0)
>>> obs, mask, seats = venv.reset()
>>> obs.shape, mask.shape, seats.shape
((4, 1219), (4, 820), (4,))
>>> rng = np.random.default_rng(0)
>>> actions = [rng.choice(np.flatnonzero(m)) for m in mask]
>>> obs, mask, seats, rewards, done = venv.step(actions)
>>> rewards.shape, done.shape
((4, 3), (4,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.games.scout import apply, new_state, outcome, to_act
from parlour.games.scout.state import State
from parlour.rl import scout_codec as codec
from parlour.rl.common import check_index, game_seed


class VectorEnv:
    """``num_envs`` SCOUT games of ``players`` seats; each step plays one action in every game
    for the seat to act there. A finished game is replaced by a new one at once (its last
    rewards and ``done`` are returned with the new game's first observation).

    ``reset()`` and ``step()`` return batches: observations ``float32[num_envs, 1219]``, masks
    ``int8[num_envs, 820]``, the seat to act in each game; ``step`` adds the points each seat
    scored in that step ``float32[num_envs, players]`` and ``done``. ``outcomes`` collects the
    results of finished games; ``finished`` maps the slots whose game ended in the latest step
    to their results. An illegal action raises ``ValueError`` (naming the game)
    before any game changes.
    """

    def __init__(self, num_envs: int = 8, players: int = 4, seed: int | None = None) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if not 2 <= players <= 5:
            raise ValueError(f"SCOUT is played by 2 to 5 players, not {players}")
        self.num_envs = num_envs
        self.players = players
        self._rng = np.random.default_rng(seed)
        self.states: list[State] = []
        self._legal = b""  # the masks of the latest batch, joined
        self.outcomes: list[dict[str, Any]] = []
        self.finished: dict[int, dict[str, Any]] = {}

    def _new(self) -> State:
        return new_state({"players": self.players}, game_seed(self._rng))

    def _batch(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        # Every game's observation and mask as bytes, joined: one array each for the batch.
        observations = []
        masks = []
        seats = []
        for state in self.states:
            seat = to_act(state)[0]
            seats.append(seat)
            observations.append(codec.observation_buffer(state, seat))
            masks.append(codec.legal_mask_bytes(state, seat))
        n = self.num_envs
        obs = np.frombuffer(bytearray(b"".join(observations)), dtype=np.float32)
        self._legal = b"".join(masks)
        mask = np.frombuffer(bytearray(self._legal), dtype=np.int8)
        return (
            obs.reshape(n, codec.OBS_SIZE),
            mask.reshape(n, codec.N_ACTIONS),
            np.array(seats, dtype=np.int64),
        )

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """New games in every slot; ``seed`` makes the whole sequence of games reproducible."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.states = [self._new() for _ in range(self.num_envs)]
        self.outcomes = []
        return self._batch()

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Play ``actions[i]`` in game ``i``; see the class docstring for what it returns."""
        if not self.states:
            raise RuntimeError("call reset() first")
        if len(actions) != self.num_envs:
            raise ValueError(f"{self.num_envs} actions needed, not {len(actions)}")
        if isinstance(actions, np.ndarray) and actions.dtype.kind in "iu":
            actions = actions.tolist()  # Python ints: checked at once below
        size = codec.N_ACTIONS
        legal = self._legal
        indices = []
        for i, a in enumerate(actions):
            # a plain legal index at once; anything else is checked in full (and raises)
            if not (a.__class__ is int and 0 <= a < size and legal[i * size + a]):
                a = check_index(
                    a, size, legal[i * size : (i + 1) * size], codec.describe, f"game {i}"
                )
            indices.append(a)
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        self.finished = {}
        for i, (state, index) in enumerate(zip(self.states, indices, strict=True)):
            new = apply(state, to_act(state)[0], codec.ACTIONS[index])
            if new.totals is not state.totals:
                rewards[i] = np.subtract(new.totals, state.totals)
            result = outcome(new)
            if result is not None:
                done[i] = True
                self.outcomes.append(result)
                self.finished[i] = result
                new = self._new()
            self.states[i] = new
        obs, mask, seats = self._batch()
        return obs, mask, seats, rewards, done
