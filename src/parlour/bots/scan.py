"""SCAN computer opponents: a visual search, card by card, with human mistakes.

For each reveal the bot looks at the blue cards one by one in a random order; each look takes a
log-normal time whose median depends on the category (colour is quickest, pattern slowest) and
on the level. It may overlook the target, may touch a near-miss (a design that differs from the
target in one feature), and after a full sweep without a find it may slap Bluffo. The result is
one :class:`~parlour.bots.reaction.Plan` per reveal; the engine decides the race.

Medians at Medium (``shared/rules/snap.md``): colour 140 ms, position 170 ms, shape 220 ms,
pattern 240 ms per card, scaled ×2.0, ×1.5, ×1.0, ×0.75, ×0.55 from Beginner to Expert.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.reaction import Plan, lognormal_ms
from parlour.games.scan.actions import Bluffo, ChooseCategory, Touch
from parlour.games.scan.cards import CATEGORIES
from parlour.games.scan.designs import neighbours

MEDIAN_MS = {"colour": 140.0, "position": 170.0, "shape": 220.0, "pattern": 240.0}
"""Median time to look at one blue card, per category, at Medium."""


@dataclass(frozen=True)
class ScanLevel:
    """How a level plays: time scale, overlook chance per target seen, chance per reveal of
    being fooled by the first near-miss it looks at, and the chance of slapping Bluffo after a
    fruitless sweep."""

    scale: float
    overlook: float
    near_miss: float
    bluffo: float


SCAN_LEVELS = {
    "beginner": ScanLevel(2.0, 0.15, 0.06, 0.5),
    "easy": ScanLevel(1.5, 0.10, 0.04, 0.6),
    "medium": ScanLevel(1.0, 0.06, 0.02, 0.7),
    "hard": ScanLevel(0.75, 0.03, 0.01, 0.8),
    "expert": ScanLevel(0.55, 0.015, 0.004, 0.9),
}


class ScanBot:
    """A SCAN opponent at one of the five levels (see the module docstring)."""

    def __init__(self, level: str = "medium") -> None:
        if level not in SCAN_LEVELS:
            raise ValueError(f"unknown SCAN level {level!r}; use one of {', '.join(SCAN_LEVELS)}")
        self.name = level
        self.level = SCAN_LEVELS[level]
        self._planned: set[tuple[Any, ...]] = set()

    def plan(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> list[Plan]:
        """New inputs this seat will make in the situation of ``view`` (possibly none): a
        Dealer's Choice, or one touch or Bluffo slap per revealed card. Called after every
        change; each situation is planned once."""
        key = (view["game_number"], view["seq"], view["phase"])
        if key in self._planned:
            return []
        choices = [a for a in legal if isinstance(a, ChooseCategory)]
        if choices:  # name the category this bot is quickest at
            self._planned.add(key)
            best = min(choices, key=lambda a: MEDIAN_MS[a.category])
            return [Plan(int(view["time_ms"]) + round(lognormal_ms(rng, 900)), best)]
        if view["phase"] != "round" or view["tan"] is None:
            return []
        touches = {a.blue_index for a in legal if isinstance(a, Touch)}
        if not touches:
            return []
        self._planned.add(key)
        category = view["category"]
        column = CATEGORIES.index(category)
        target = view["tan"][column]
        near = set(neighbours(category, target))
        median = MEDIAN_MS[category] * self.level.scale
        layout = view["layout"]
        order = list(range(len(layout)))
        rng.shuffle(order)
        elapsed = 0.0
        slip = rng.random() < self.level.near_miss  # this reveal, a near-miss fools it
        for index in order:
            elapsed += lognormal_ms(rng, median)
            design = layout[index][column]
            if design == target:
                if rng.random() < self.level.overlook:
                    continue
            elif not (slip and design in near):
                continue
            if index not in touches:
                continue
            rt = round(elapsed)
            return [Plan(view["reveal_ms"] + rt, Touch(index, rt))]
        if any(isinstance(a, Bluffo) for a in legal) and rng.random() < self.level.bluffo:
            rt = round(elapsed)
            return [Plan(view["reveal_ms"] + rt, Bluffo(rt))]
        return []
