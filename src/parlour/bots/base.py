"""What every bot offers: choose one of the legal actions from a seat's view."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Bot(Protocol):
    """A computer opponent for one seat.

    ``choose`` receives the seat's ``view`` (exactly what a player at that seat may see), the
    seat's legal actions and a random generator owned by the bot (deterministic for a seed), and
    returns one of the legal actions.
    """

    name: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any: ...


class RandomBot:
    """Picks uniformly among the legal actions (any game)."""

    name = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """One legal action, uniformly at random; raises ``ValueError`` if there is none."""
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[rng.randrange(len(legal))]
