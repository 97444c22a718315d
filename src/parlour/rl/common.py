"""What the research interfaces share: action checks, seeds, rewards and text rendering."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

import numpy as np

REWARDS = ("score", "win")
"""Reward modes: points as they are scored, or a win share at the end."""


def check_index(
    action: Any,
    size: int,
    legal: Collection[int] | np.ndarray[Any, np.dtype[np.int8]] | bytes | bytearray | None,
    describe: Callable[[int], str],
    agent: str,
) -> int:
    """``action`` as an index into an action space of ``size`` actions, checked against the
    ``legal`` indices, or a 0/1 mask over the space (an array, or bytes; ``None``: every index
    is legal).

    Raises ``ValueError`` naming the action and the number of legal actions.
    """
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = int(action)
        else:
            raise ValueError(f"an action is an integer index, not {action!r}")
    index = int(action)
    if isinstance(legal, (bytes, bytearray)):
        legal = np.frombuffer(legal, dtype=np.int8)
    if not 0 <= index < size:
        if legal is None:
            count = size
        elif isinstance(legal, np.ndarray):
            count = int(legal.sum())
        else:
            count = len(legal)
        raise ValueError(
            f"action {index} is outside the action space 0..{size - 1}: {count} legal actions"
        )
    if legal is None:
        return index
    if isinstance(legal, np.ndarray):
        if legal[index]:
            return index
        count = int(legal.sum())
    elif index in legal:
        return index
    else:
        count = len(legal)
    raise ValueError(
        f"action {index} ({describe(index)}) is not legal for {agent} now: "
        f"{count} legal actions (see the action mask)"
    )


def in_space(action: Any, size: int) -> bool:
    """Whether ``action`` is an index of an action space of ``size`` actions (legal or not)."""
    try:
        check_index(action, size, None, str, "")
    except ValueError:
        return False
    return True


def game_seed(rng: np.random.Generator) -> int:
    """The next game's engine seed, drawn from the environment's seeded generator."""
    return int(rng.integers(0, 2**62))


def win_shares(result: Mapping[str, Any]) -> list[float]:
    """Each seat's share of the win (1 for a sole winner, 1/k for k winners, else 0)."""
    winners = result["winners"]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(result["ranks"]))]


def render_scout(state: Any) -> str:
    """A SCOUT position in text, as a spectator sees it plus every hand (for debugging)."""
    lines = [f"round {state.round + 1}/{state.options.rounds}, turn: seat {state.turn}"]
    active = " ".join(f"{c[0]}/{c[1]}" for c in state.active) or "-"
    lines.append(f"active show: {active} (owner {state.owner})")
    for s, hand in enumerate(state.hands):
        cards = " ".join(f"{c[0]}/{c[1]}" for c in hand)
        lines.append(
            f"seat {s}: {cards} | captured {len(state.piles[s])} chips {state.chips[s]} "
            f"total {state.totals[s]}"
        )
    return "\n".join(lines)
