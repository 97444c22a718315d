"""Reaction-time models for the real-time games, and the plan a real-time bot returns.

Real-time bots do not search: their strength is how fast and how reliably they react. For each
reveal a bot draws, from its own seeded generator, when it would act and what it would do, and
returns that as :class:`Plan` entries; the table (or the arena) applies a plan at its time with
the reaction time it carries, and the engine decides the race (``parlour.core.race``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

FLOOR_MS = 180
"""No reaction is faster than this."""


@dataclass(frozen=True)
class Plan:
    """An input a bot means to make: ``action`` (carrying its reaction time) at ``at_ms`` on the
    table's clock."""

    at_ms: int
    action: Any


def ex_gaussian(rng: random.Random, mu: float, sigma: float, tau: float) -> float:
    """One ex-Gaussian draw: normal(``mu``, ``sigma``) plus exponential(mean ``tau``), the usual
    shape of human reaction times (a long tail of slow reactions).

    >>> r = random.Random(1)
    >>> 300 < sum(ex_gaussian(r, 410, 60, 120) for _ in range(2000)) / 2000 < 600
    True
    """
    return rng.gauss(mu, sigma) + rng.expovariate(1.0 / tau)


def reaction_ms(rng: random.Random, mu: float, sigma: float, tau: float) -> int:
    """An ex-Gaussian reaction time in whole milliseconds, never below :data:`FLOOR_MS`."""
    return max(FLOOR_MS, round(ex_gaussian(rng, mu, sigma, tau)))


def lognormal_ms(rng: random.Random, median: float, sigma: float = 0.35) -> float:
    """A log-normal duration with the given median (``sigma`` is the spread of its log)."""
    return median * math.exp(rng.gauss(0.0, sigma))


LEVEL_ORDER = ("beginner", "easy", "medium", "hard", "expert")


def pace_setter_levels(level: str, bots: int) -> list[str]:
    """Levels for ``bots`` computer opponents of a real-time game (SNAP, SCAN) at a table set
    to ``level``: one pace-setter at that level and slower companions one level below. A person
    calls first about 63 % of the time against one Medium bot but only 39 % against three, so
    several equal bots would feel far stronger than the level says.

    >>> pace_setter_levels("medium", 3)
    ['medium', 'easy', 'easy']

    Raises ``ValueError`` for an unknown level.
    """
    if level not in LEVEL_ORDER:
        raise ValueError(f"unknown level {level!r}; use one of {', '.join(LEVEL_ORDER)}")
    slower = LEVEL_ORDER[max(0, LEVEL_ORDER.index(level) - 1)]
    return [level] + [slower] * (bots - 1)
