"""TOY's computer opponents: ``make_bot(spec)`` is what ``parlour.bots.levels.make_bot`` calls
for a game plugged in from this package."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import RandomBot
from parlour.bots.levels import LEVELS


class ToyBot:
    """Plays its best card (the highest, or the lowest with ``low_wins``) from Medium up, its
    worst below."""

    def __init__(self, level: str) -> None:
        self.name = level
        self.best = LEVELS.index(level) >= LEVELS.index("medium")

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal``, by card value; raises ``ValueError`` if there is none."""
        if not legal:
            raise ValueError("no legal action to choose from")
        high = self.best != view["options"]["low_wins"]
        return (max if high else min)(legal, key=lambda a: a.card)


def make_bot(spec: str) -> Any:
    """The bot for ``spec``: a level, or ``random``; raises ``ValueError`` otherwise."""
    if spec == "random":
        return RandomBot()
    if spec not in LEVELS:
        raise ValueError(f"TOY bots are levels: {', '.join(LEVELS)}; not {spec!r}")
    return ToyBot(spec)
