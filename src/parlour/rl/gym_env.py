"""A Gymnasium environment for one seat of SCOUT, the other seats played by Parlour's bots.

>>> from parlour.rl import single
>>> env = single("scout", players=3, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((1219,), (820,))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from parlour.bots import Bot
from parlour.bots.levels import make_bot
from parlour.games.scout import apply, legal_actions, new_state, outcome, to_act, view
from parlour.games.scout.state import State
from parlour.rl import scout_codec as codec
from parlour.rl.common import (
    REWARDS,
    check_index,
    game_seed,
    in_space,
    render_scout,
    win_shares,
)

ILLEGAL = ("penalty", "raise")
"""What a legal-looking but illegal action (an index of the action space the mask excludes)
does: cost ``penalty`` and leave the game as it was, saying why in ``info`` (default: the
Gymnasium convention, where every action of ``action_space`` is accepted by ``step``, as
``env.step(env.action_space.sample())``, ``check_env`` and unmasked learners assume), or raise
``ValueError`` (the PettingZoo convention, for code that always masks). An action outside the
action space, or not an integer, raises ``ValueError`` either way."""


class ScoutSingleEnv(gym.Env[dict[str, Any], Any]):
    """One seat of a SCOUT game against bots (see :func:`single`)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        players: int = 4,
        opponents: str | Sequence[str] = "medium",
        seat: int | None = 0,
        reward: str = "score",
        illegal: str = "penalty",
        penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"SCOUT is played by 2 to 5 players, not {players}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, not {len(specs)}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a {players}-player table")
        self.players = players
        self.opponent_specs = specs
        self.bots: list[Bot] = [make_bot("scout", spec) for spec in specs]
        self.fixed_seat = seat
        self.reward_mode = reward
        self.illegal = illegal
        self.penalty = penalty
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    codec.OBS_LOW, codec.OBS_HIGH, (codec.OBS_SIZE,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (codec.N_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(codec.N_ACTIONS)
        self.state: State | None = None
        self.seat = 0 if seat is None else seat
        self._legal = bytes(codec.N_ACTIONS)  # the seat's mask now
        self._rngs: list[random.Random] = []

    def _mask(self) -> npt.NDArray[np.int8]:
        return np.frombuffer(bytearray(self._legal), dtype=np.int8)

    def _obs(self) -> dict[str, Any]:
        assert self.state is not None
        return {"observation": codec.observe(self.state, self.seat), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        # the mask again (a copy of its own), where Gymnasium's masked environments put it
        return {"seat": self.seat, "action_mask": self._mask()}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions now as booleans (the convention of maskable PPO implementations)."""
        return np.frombuffer(self._legal, dtype=np.int8).astype(bool)

    def _advance(self) -> None:
        # Let the bots play until it is this seat's turn or the game is over.
        state = self.state
        assert state is not None
        while True:
            seats = to_act(state)
            if not seats:
                break
            if self.seat in seats:
                break
            seat = seats[0]
            entry = (seat - self.seat - 1) % self.players
            legal = legal_actions(state, seat)
            action = self.bots[entry].choose(view(state, seat), legal, self._rngs[entry])
            state = apply(state, seat, action)
        self.state = state
        self._legal = bytes(codec.legal_mask_bytes(state, self.seat))  # none once it is over

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        engine_seed = game_seed(self.np_random)
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.players))
        self._rngs = [random.Random(f"{engine_seed}:{i}") for i in range(len(self.bots))]
        self.state = new_state({"players": self.players}, engine_seed)
        self._advance()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() first")
        if outcome(self.state) is not None:
            raise RuntimeError("the game is over: call reset()")
        try:
            index = check_index(action, codec.N_ACTIONS, self._legal, codec.describe, "the seat")
        except ValueError as refusal:
            # not an index of the action space at all: bad input, refused in every mode
            if self.illegal == "raise" or not in_space(action, codec.N_ACTIONS):
                raise
            info = self._info()
            info["illegal"] = str(refusal)
            return self._obs(), self.penalty, False, False, info
        before = self.state.totals[self.seat]
        self.state = apply(self.state, self.seat, codec.ACTIONS[index])
        self._advance()
        result = outcome(self.state)
        reward: float
        if self.reward_mode == "score":
            reward = float(self.state.totals[self.seat] - before)
        else:
            reward = win_shares(result)[self.seat] if result is not None else 0.0
        info = self._info()
        if result is not None:
            info["outcome"] = result
        return self._obs(), reward, result is not None, False, info

    def render(self) -> str | None:
        return render_scout(self.state) if self.state is not None else None


def single(
    game: str = "scout",
    players: int = 4,
    opponents: str | Sequence[str] = "medium",
    **kwargs: Any,
) -> ScoutSingleEnv:
    """A Gymnasium environment: one seat of ``game`` against Parlour bots.

    ``opponents`` is a bot spec or level for every other seat (``"random"``, ``"greedy"``,
    ``"heuristic:0.5"``, ``"beginner"`` ... ``"expert"``) or a list of one spec per other seat,
    listed from the seat on the learner's left. Options: ``seat`` (the learner's seat, ``None``:
    drawn at each reset), ``reward`` (``"score"``: round points as they are scored; ``"win"``:
    the win share at the end), ``illegal`` (``"penalty"``, the default: an action of the space
    that is not legal now earns ``penalty`` (-1), changes nothing and ``info["illegal"]`` says
    why; ``"raise"``: ``ValueError``; see :data:`ILLEGAL`). The mask of legal actions is in
    ``obs["action_mask"]``, ``info["action_mask"]`` and ``env.action_masks()``. Raises
    ``ValueError`` for an unknown game or bad options.
    """
    if game != "scout":
        raise ValueError(
            f"the single-agent environment plays SCOUT, not {game!r}: SCAN and SNAP are "
            "races, studied through scan_v0 and snap_v0"
        )
    return ScoutSingleEnv(players=players, opponents=opponents, **kwargs)
