"""The SCOUT tutorial's opponents ("Learn to play"): simple, predictable moves that leave room
for the learner to try every kind of move, then end the round.

A tutor keeps its hand, and shows the weakest group that beats the table while the learner
(seat 0) is still learning; once the learner has used Scout & Show (or made
:data:`ENOUGH` moves in the round) it scouts, so that the learner's show goes unbeaten and the
round ends (S13.2). It sees only its own seat's view, like every bot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.games.scout.actions import Flip, Scout, Show
from parlour.games.scout.rules import group_key

LEARNER = 0
"""The learner's seat at a tutorial table."""

ENOUGH = 4
"""After this many moves of the learner in a round, the tutors let the round end."""


def _learner_done(view: Mapping[str, Any]) -> bool:
    # Whether the learner has tried enough: Scout & Show used, or ENOUGH moves this round.
    seats = view["seats"]
    if not seats[LEARNER]["scout_show_available"]:
        return True
    moves = [e for e in view["log"] if e.get("seat") == LEARNER and e["type"] != "flip_decided"]
    return len(moves) >= ENOUGH


class TutorBot:
    """The tutorial's opponent (see the module docstring)."""

    name = "tutor"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """Keep the hand; then the weakest beating Show, or a Scout once the learner is done
        (or when no Show is legal). Raises ``ValueError`` if there is no legal action."""
        if not legal:
            raise ValueError("no legal action to choose from")
        flips = [a for a in legal if isinstance(a, Flip)]
        if flips:
            return next((a for a in flips if not a.flip), flips[0])
        shows = [a for a in legal if isinstance(a, Show)]
        scouts = [a for a in legal if isinstance(a, Scout)]
        if scouts and (_learner_done(view) or not shows):
            return scouts[0]
        if shows:
            hand = view["hand"]

            def strength(a: Show) -> tuple[int, int]:
                return group_key([c[0] for c in hand[a.start : a.start + a.length]]), a.start

            return min(shows, key=strength)
        return legal[0]
