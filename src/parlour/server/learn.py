""" "Learn to play": a tutorial table on a fixed, named deal (issue 13).

A lesson is a real table of the real engine, dealt from a fixed seed, with predictable
computer opponents; the learner plays it on the game's normal page, where a coach
(``web/js/learn-*.js``) asks for each kind of move and explains what happened after it. Only
the normal views leave the table: the fixed deal changes nothing about what a seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.bots.levels import TUTOR
from parlour.server.protocol import ProtocolError
from parlour.table import SeatInfo


@dataclass(frozen=True)
class Lesson:
    """A tutorial table: the game, its fixed seed, its opponents' levels and its options."""

    game: str
    seed: int
    opponents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def seats(self) -> list[SeatInfo]:
        """The other seats (the learner is seat 0, as every table's host)."""
        return [SeatInfo("bot", "", level) for level in self.opponents]


LESSONS = {
    # Seed 9, three players: the learner starts, keeps a hand with a pair to show, can scout a
    # card that makes a run, and has a Scout & Show; the tutors then let the round end
    # (tests/server/test_learn.py plays it through).
    "scout": Lesson("scout", 9, (TUTOR, TUTOR)),
    # Seed 3, two players, SHAPE with Bluffo: the first two tan cards have a match, the third
    # none; a minute to search each card (the tutor waits 40 s before it touches the match).
    "scan": Lesson(
        "scan", 3, (TUTOR,), {"category": "shape", "bluffo": True, "round_timer_ms": 60_000}
    ),
    # Seed 3, three players: within ten flips the learner flips, can snap a match, watches the
    # tutors tie (the Snap Pot) and can win the Pot; a minute for each of the learner's flips.
    "snap": Lesson("snap", 3, (TUTOR, TUTOR), {"turn_timer_ms": 60_000}),
}
"""The lessons by game."""


def lesson_for(obj: dict[str, Any]) -> Lesson:
    """The lesson a ``POST /api/learn`` body asks for (``{"game": "scout"}``); raises
    :class:`ProtocolError` (``bad_message``) for a game without one."""
    game = obj.get("game")
    if not isinstance(game, str) or game not in LESSONS:
        raise ProtocolError("bad_message", f"lessons exist for {', '.join(LESSONS)}")
    return LESSONS[game]
