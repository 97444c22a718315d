"""SNAP and SCAN as PettingZoo environments: a parallel env with one step per reveal, and its
AEC form (PettingZoo's own ``parallel_to_aec``, which checks each action as it is given)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec_wrapper

from parlour.rl.common import REWARDS, check_index, game_seed, win_shares
from parlour.rl.race_codec import ScanRaces, SnapRaces

RACES: dict[str, type[SnapRaces] | type[ScanRaces]] = {"snap": SnapRaces, "scan": ScanRaces}


class RaceParallelEnv(ParallelEnv):
    """One step per reveal: every seat still in gives one action index (see
    ``parlour.rl.race_codec``); the engine plays them at their times and the next observations
    are those of the next reveal. Every action of the space is legal for a seat still in (the
    mask is all ones; it is given for the same interface as SCOUT). A seat that is out (SNAP)
    terminates; the end of the game terminates every seat; ``max_cycles`` reveals truncate.
    Rewards: ``"score"``, the change of the seat's score (SNAP: cards held outside the Pot;
    SCAN: tan cards + 2 per Bluffo card), or ``"win"``: the win share at the end.
    """

    metadata = {"render_modes": ["ansi"], "name": "race"}  # noqa: RUF012 (PettingZoo's way)

    def __init__(
        self,
        game: str,
        players: int = 4,
        max_cycles: int | None = None,
        reward: str = "score",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.races: SnapRaces | ScanRaces = RACES[game]({"players": players, **options})
        self.metadata = {"render_modes": ["ansi"], "name": f"{game}_v0"}
        self.game_name = game
        self.players = players
        self.max_cycles = max_cycles
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.races.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.races.n_actions,), np.int8),
            }
        )
        self._act_space = {a: spaces.Discrete(self.races.n_actions) for a in self.possible_agents}
        self._mask = np.ones(self.races.n_actions, dtype=np.int8)
        self._seed_rng = np.random.default_rng()
        self.state_: Any = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space  # the same object every time, as PettingZoo requires

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space[agent]

    def _observations(self, agents: list[str]) -> dict[str, Any]:
        return {
            a: {
                "observation": self.races.observe(self.state_, self._seat[a]),
                "action_mask": self._mask.copy(),
            }
            for a in agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.state_ = self.races.new(game_seed(self._seed_rng))
        self.agents = [self.possible_agents[s] for s in self.races.deciders(self.state_)]
        self._cycles = 0
        return self._observations(self.agents), {a: {} for a in self.agents}

    def check(self, agent: str, action: Any) -> int:
        """``action`` of ``agent`` as a checked index; raises ``ValueError`` if it is not legal."""
        if agent not in self.agents:
            raise ValueError(f"{agent} is not in the game")
        return check_index(action, self.races.n_actions, None, self.races.describe, agent)

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"no action for {', '.join(missing)} (0 is 'wait')")
        choices = {self._seat[a]: self.check(a, actions[a]) for a in self.agents}
        before = [self.races.score(self.state_, s) for s in range(self.players)]
        self.state_ = self.races.play(self.state_, choices)
        self._cycles += 1
        live = self.agents
        result = self.races.outcome(self.state_)
        deciders = set(self.races.deciders(self.state_))
        rewards: dict[str, float] = {}
        if self.reward_mode == "score":
            for a in live:
                s = self._seat[a]
                rewards[a] = float(self.races.score(self.state_, s) - before[s])
        else:
            shares = win_shares(result) if result is not None else [0.0] * self.players
            rewards = {a: shares[self._seat[a]] for a in live}
        terminations = {a: result is not None or self._seat[a] not in deciders for a in live}
        truncated = self.max_cycles is not None and self._cycles >= self.max_cycles
        truncations = {a: truncated and not terminations[a] for a in live}
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        if result is not None:
            for a in live:
                infos[a]["outcome"] = result
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return self._observations(live), rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.state_ is None:
            return None
        return repr(self.state_)

    def close(self) -> None:
        pass

    def state(self) -> Any:
        """The engine state (the full state, hidden cards included: for analysis only)."""
        return self.state_


class RaceAECEnv(parallel_to_aec_wrapper):
    """The AEC form of :class:`RaceParallelEnv`: the seats give their actions for a reveal one
    after the other (none sees another's choice), and the reveal is played when the last one
    has. An illegal action raises ``ValueError`` at once, naming the action."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if action is not None and not (self.terminations[agent] or self.truncations[agent]):
            self.env.check(agent, action)
        super().step(action)
