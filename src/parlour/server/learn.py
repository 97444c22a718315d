""" "Learn to play": a tutorial table on a fixed, named deal (issue 13).

A lesson is a real table of the real engine, dealt from the fixed seed its game declares
(``GameSpec.lesson``), with predictable computer opponents (the ``tutor`` bots); the learner
plays it on the game's normal page, where a coach (``web/js/learn-*.js``) asks for each kind of
move and explains what happened after it. Only the normal views leave the table: the fixed deal
changes nothing about what a seat may see.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from parlour.bots.levels import TUTOR
from parlour.games.registry import get_game, names
from parlour.server.protocol import ProtocolError
from parlour.server.rooms import clean_name
from parlour.server.schema import NewTable
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


def lesson_of(game: str) -> Lesson | None:
    """The lesson of ``game`` as its ``GameSpec`` declares it, or ``None``; raises ``KeyError``
    for an unknown game."""
    found = get_game(game).lesson
    if found is None:
        return None
    opponents = (TUTOR,) * (int(found["players"]) - 1)
    return Lesson(game, int(found["seed"]), opponents, dict(found.get("options", {})))


def lesson_for(obj: dict[str, Any]) -> Lesson:
    """The lesson a ``POST /api/learn`` body asks for (``{"game": <name>}``); raises
    :class:`ProtocolError` (``bad_message``) for a game without one."""
    game = obj.get("game")
    lesson = lesson_of(game) if isinstance(game, str) and game in names() else None
    if lesson is None:
        have = [g for g in names() if get_game(g).lesson is not None]
        raise ProtocolError("bad_message", f"lessons exist for {', '.join(have)}")
    return lesson


def lesson_setup(obj: dict[str, Any]) -> NewTable:
    """The table a ``POST /api/learn`` body asks for (:func:`lesson_for`): the lesson's game,
    options, opponents and fixed seed, the learner's name."""
    lesson = lesson_for(obj)
    return lesson.game, lesson.options, clean_name(obj.get("name")), lesson.seats(), lesson.seed


def learn_route(
    new_table: Callable[[Request, Callable[[dict[str, Any]], NewTable]], Awaitable[Response]],
) -> Route:
    """``POST /api/learn`` ``{"game": <name>, "name": <learner>}``: a lesson's table, made by
    ``new_table`` (as ``POST /api/tables`` makes one) and answered alike."""

    async def learn_table(request: Request) -> Response:
        return await new_table(request, lesson_setup)

    return Route("/api/learn", learn_table, methods=["POST"])
