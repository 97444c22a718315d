"""SCOUT as a PettingZoo AEC environment (``parlour.rl.scout_v0``).

>>> from parlour.rl import scout_v0
>>> env = scout_v0.env(players=3)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
>>> sorted(env.final_scores)
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from parlour.games.scout import apply, new_state, outcome, to_act
from parlour.games.scout.state import OVER, PLAY_PHASE, State
from parlour.rl import scout_codec as codec
from parlour.rl.common import REWARDS, check_index, game_seed, render_scout, win_shares
from parlour.rl.scout_codec import legal_mask_bytes, observation_buffer

frombuffer = np.frombuffer
float32, int8 = np.float32, np.int8


class _AgentIterable(AECIterable[str, Any, Any]):
    """``agent_iter``'s iterable: the same agents as PettingZoo's, from a generator."""

    def __iter__(self) -> Iterator[str]:
        env = self.env
        left = self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class raw_env(AECEnv):
    """SCOUT for ``players`` seats (2-5), agents ``player_0`` ... (seat numbers).

    Observations are dicts ``{"observation": float32[1219], "action_mask": int8[820]}``
    (``parlour.rl.scout_codec``); actions are indices into the fixed action space. The flip
    decisions at the start of a round are taken one seat after the other (S5: no seat sees
    another's choice). Rewards: ``reward="score"`` gives each seat its round points when a round
    is scored (they add up to the final score); ``"win"`` gives 1 to the winner at the end (a
    shared win is split) and 0 otherwise. ``max_cycles``: truncate after that many actions per
    seat. An illegal action raises ``ValueError`` and leaves the game as it was.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "scout_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        max_cycles: int | None = None,
        reward: str = "score",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not 2 <= players <= 5:
            raise ValueError(f"SCOUT is played by 2 to 5 players, not {players}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.players = players
        self.max_cycles = max_cycles
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    codec.OBS_LOW, codec.OBS_HIGH, (codec.OBS_SIZE,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (codec.N_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(codec.N_ACTIONS) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.state_: State | None = None
        self._legal: bytearray | None = None
        self.final_scores: dict[str, int] = {}
        self._rewards_zero = True
        self._steps = 0
        self._step_limit = 2**63

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> State:
        """The engine state of the game in progress (the full state: for analysis, not agents)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` makes the deal and everything after it reproducible."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.state_ = new_state({"players": self.players}, game_seed(self._seed_rng))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewards_zero = True
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.final_scores = {}
        self._steps = 0
        self._step_limit = self.max_cycles * self.players if self.max_cycles is not None else 2**63
        self._select()

    def _select(self) -> None:
        seats = to_act(self.game)
        if seats:
            self.agent_selection = self.possible_agents[seats[0]]
        self._legal = None  # the selected agent's mask, made when first needed

    def _selected_mask(self) -> bytearray:
        legal = self._legal
        if legal is None:
            legal = self._legal = codec.legal_mask_bytes(
                self.game, self._seat[self.agent_selection]
            )
        return legal

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation, computed now from the current state (nothing is encoded
        in ``step``): ``{"observation": float32[1219], "action_mask": int8[820]}``, both fresh
        writable arrays."""
        state = self.state_
        if state is None:
            raise RuntimeError("call reset() first")
        seat = self._seat[agent]
        if agent == self.agent_selection:
            mask = self._legal
            if mask is None:
                mask = self._legal = legal_mask_bytes(state, seat)
            mask = mask.copy()
        else:
            mask = legal_mask_bytes(state, seat)
        return {
            "observation": frombuffer(observation_buffer(state, seat), float32),
            "action_mask": frombuffer(mask, int8),
        }

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (if ``observe``), cumulative reward, termination,
        truncation and info (PettingZoo's ``last``, without its generic indirections)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Any, Any]:
        """Yields the selected agent until the game is over or after ``max_iter`` agents
        (PettingZoo's ``agent_iter``, as a generator)."""
        return _AgentIterable(self, max_iter)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal
        if legal is None:
            legal = self._selected_mask()
        if action.__class__ is int and 0 <= action < codec.N_ACTIONS and legal[action]:
            index = action
        else:  # anything else: checked in full (raises for an illegal action)
            index = check_index(action, codec.N_ACTIONS, legal, codec.describe, agent)
        state = self.state_
        assert state is not None  # a mask exists only for a game in progress
        seat = self._seat[agent]
        before = state.totals
        new = apply(state, seat, codec.ACTIONS[index])
        self.state_ = new
        self._legal = None  # the next agent's mask, made when first needed
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        if new.phase == PLAY_PHASE and new.totals is before:  # the common case: nobody scored
            if not self._rewards_zero:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewards_zero = True
            if self._steps >= self._step_limit:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[new.turn]
        else:
            self._step_rare(new, before)
        if self.render_mode == "human":
            self.render()

    def _step_rare(self, new: State, before: tuple[int, ...]) -> None:
        # After a flip decision, a scored round or the end of the game.
        result = outcome(new) if new.phase == OVER else None
        # Rewards: a new dict only when someone scores (a round ends) or the game ends.
        rewards: dict[str, float] | None = None
        if self.reward_mode == "score":
            totals = new.totals
            if totals is not before and totals != before:
                rewards = {a: float(totals[s] - before[s]) for a, s in self._seat.items()}
        elif result is not None:
            shares = win_shares(result)
            rewards = {a: shares[s] for a, s in self._seat.items()}
        if rewards is not None:
            self.rewards = rewards
            self._rewards_zero = False
            cumulative = self._cumulative_rewards
            for a, r in rewards.items():
                cumulative[a] += r
        elif not self._rewards_zero:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewards_zero = True
        if result is not None:
            self.final_scores = {a: result["scores"][s] for a, s in self._seat.items()}
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"outcome": result}
        else:
            if self._steps >= self._step_limit:
                self.truncations = dict.fromkeys(self.agents, True)
            seats = to_act(new)
            if seats:
                self.agent_selection = self.possible_agents[seats[0]]

    def render(self) -> str | None:
        text = render_scout(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> raw_env:
    """The SCOUT AEC environment (see :class:`raw_env` for the options)."""
    return raw_env(**kwargs)
