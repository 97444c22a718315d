"""SNAP computer opponents: reaction time and error rate, not search.

For each reveal the bot draws, from its own seeded generator, an ex-Gaussian reaction time
(floor 180 ms), whether it misses a valid snap, and whether it calls a false one — more likely on
a near-miss: two tops of adjacent rank and the same colour, or a top that matches a card that was
a top two flips ago. On its own turn it flips after a short human pause once flips are open.

Levels (μ/σ/τ ms, miss, false call per flip), from ``shared/rules/snap.md``:
Beginner 620/110/250, 15 %, 1 %; Easy 500/90/180, 8 %, 0.6 %; Medium 410/60/120, 4 %, 0.4 %;
Hard 340/45/80, 2 %, 0.2 %; Expert 280/35/50, 1 %, 0.1 %.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.reaction import Plan, lognormal_ms, pace_setter_levels, reaction_ms
from parlour.games.snap.actions import Flip, Snap
from parlour.games.snap.cards import card, match_keys

NEAR_MISS_FACTOR = 6.0
"""How much likelier a false call is when the tops hold a near-miss."""


@dataclass(frozen=True)
class SnapLevel:
    """Reaction-time distribution (ex-Gaussian μ, σ, τ in ms), miss chance and false-call
    chance per flip."""

    mu: float
    sigma: float
    tau: float
    miss: float
    false_call: float


SNAP_LEVELS = {
    "beginner": SnapLevel(620, 110, 250, 0.15, 0.010),
    "easy": SnapLevel(500, 90, 180, 0.08, 0.006),
    "medium": SnapLevel(410, 60, 120, 0.04, 0.004),
    "hard": SnapLevel(340, 45, 80, 0.02, 0.002),
    "expert": SnapLevel(280, 35, 50, 0.01, 0.001),
}

ORDER = ("beginner", "easy", "medium", "hard", "expert")


def _valid_snap(tops: Sequence[str | None], pot_top: str | None, keys: Sequence[int]) -> bool:
    classes = [keys[card(t)] for t in tops if t is not None]
    if len(classes) != len(set(classes)):
        return True
    return pot_top is not None and keys[card(pot_top)] in classes


def _near_miss(tops: Sequence[str | None], earlier: set[int], keys: Sequence[int]) -> bool:
    cards = [card(t) for t in tops if t is not None]
    for i, a in enumerate(cards):
        if keys[a] in earlier:
            return True
        for b in cards[i + 1 :]:
            red_a, red_b = (a & 3) in (1, 2), (b & 3) in (1, 2)
            if abs((a >> 2) - (b >> 2)) == 1 and red_a == red_b:
                return True
    return False


class SnapBot:
    """A SNAP opponent at one of the five levels (see the module docstring)."""

    def __init__(self, level: str = "medium") -> None:
        if level not in SNAP_LEVELS:
            raise ValueError(f"unknown SNAP level {level!r}; use one of {', '.join(ORDER)}")
        self.name = level
        self.level = SNAP_LEVELS[level]
        self._called: int | None = None
        self._flipped: tuple[Any, ...] | None = None
        self._history: deque[tuple[int, set[int]]] = deque(maxlen=3)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> list[Plan]:
        """New inputs for the situation of ``view``: at most one call per reveal, and a flip on
        this seat's turn. Called after every change; each situation is planned once."""
        plans: list[Plan] = []
        seq = view["seq"]
        me = view["seat"]
        if me is None or view["seats"][me]["out"] or view["outcome"] is not None:
            return plans
        keys = match_keys(view["options"].get("match", "rank"))
        tops = [s["top"] for s in view["seats"] if not s["out"]]
        if seq > 0 and self._called != seq and any(isinstance(a, Snap) for a in legal):
            self._called = seq
            earlier = set().union(*(classes for s, classes in self._history if s <= seq - 2))
            self._history.append((seq, {keys[card(t)] for t in tops if t is not None}))
            level = self.level
            rt = reaction_ms(rng, level.mu, level.sigma, level.tau)
            if _valid_snap(tops, view["pot"]["top"], keys):
                call = rng.random() >= level.miss
            else:
                chance = level.false_call
                if _near_miss(tops, earlier, keys):
                    chance *= NEAR_MISS_FACTOR
                call = rng.random() < chance
            if call:
                plans.append(Plan(view["reveal_ms"] + rt, Snap(rt)))
        situation = (seq, view["turn"])
        if view["turn"] == me and self._flipped != situation:
            self._flipped = situation
            opens = max(view["flip_open_ms"] or 0, view["clock_ms"])
            plans.append(Plan(opens + round(lognormal_ms(rng, 350, 0.3)), Flip()))
        return plans


__all__ = ["SNAP_LEVELS", "SnapBot", "pace_setter_levels"]
