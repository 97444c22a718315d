"""Policies saved as files, and a bot that plays one (``policy:PATH`` in the arena).

A policy file is a NumPy ``.npz`` archive holding ``kind`` (``"linear-softmax"``), ``game``
(``"scout"``), ``W`` (float32[820, 1219]) and ``b`` (float32[820]): the logits of the legal
actions are ``W @ observation + b`` (``parlour.rl.scout_codec``), the others are masked out.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.rl import scout_codec as codec

KIND = "linear-softmax"


class LinearPolicy:
    """A masked linear softmax policy over SCOUT's action space."""

    def __init__(self, W: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> None:
        if W.shape != (codec.N_ACTIONS, codec.OBS_SIZE) or b.shape != (codec.N_ACTIONS,):
            raise ValueError(
                f"a SCOUT policy has W of shape {(codec.N_ACTIONS, codec.OBS_SIZE)} and b of "
                f"shape {(codec.N_ACTIONS,)}, not {W.shape} and {b.shape}"
            )
        self.W = W.astype(np.float32)
        self.b = b.astype(np.float32)

    @classmethod
    def zeros(cls) -> LinearPolicy:
        """The uniform policy (every legal action equally likely)."""
        return cls(
            np.zeros((codec.N_ACTIONS, codec.OBS_SIZE), np.float32),
            np.zeros(codec.N_ACTIONS, np.float32),
        )

    def probabilities(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[Any]
    ) -> npt.NDArray[np.float64]:
        """Action probabilities for a batch (or one) of observations and masks."""
        logits = (obs @ self.W.T + self.b).astype(np.float64)
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]

    def save(self, path: str | Path) -> None:
        """Write the policy as an ``.npz`` file."""
        np.savez_compressed(path, kind=KIND, game="scout", W=self.W, b=self.b)

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read a policy file; raises ``ValueError`` for a file that is not a SCOUT policy and
        ``OSError`` if it cannot be read."""
        with np.load(path, allow_pickle=False) as data:
            if str(data.get("kind", "")) != KIND or str(data.get("game", "")) != "scout":
                raise ValueError(f"{path} is not a {KIND} SCOUT policy file")
            return cls(data["W"], data["b"])


@functools.lru_cache(maxsize=8)
def _load(path: str) -> LinearPolicy:
    return LinearPolicy.load(path)


class PolicyBot:
    """Plays a policy file: samples from its probabilities (``greedy=True``: the most likely
    legal action). Like every bot it sees only its seat's view and legal actions."""

    def __init__(self, path: str | Path, greedy: bool = False) -> None:
        self.policy = _load(str(path))
        self.greedy = greedy
        self.name = f"policy:{path}"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        indices = [codec.action_index(a) for a in legal]
        mask = np.zeros(codec.N_ACTIONS, dtype=np.int8)
        mask[indices] = 1
        p = self.policy.probabilities(codec.observe_view(dict(view)), mask)
        if self.greedy:
            return legal[int(np.argmax(p[indices]))]
        x = rng.random()
        cumulative = 0.0
        for action, index in zip(legal, indices, strict=True):
            cumulative += p[index]
            if x < cumulative:
                return action
        return legal[-1]
