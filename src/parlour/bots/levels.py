"""Bots by name, and the five levels players choose from.

A bot spec is a name with an optional parameter: ``random``, ``greedy``, ``heuristic``,
``heuristic:0.5`` (evaluation noise), ``search:0.25`` (seconds per move), or a level:
``beginner``, ``easy``, ``medium``, ``hard``, ``expert``.
"""

from __future__ import annotations

from parlour.bots.base import Bot, RandomBot
from parlour.bots.scout import GreedyBot, HeuristicBot
from parlour.bots.scout.search import SearchBot

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
"""The levels shown to players, weakest first."""

SCOUT_LEVELS = {
    # Misjudgement grows with the noise on the heuristic's evaluation: a Beginner often keeps a
    # poor hand, breaks up groups and scouts when a Show was better, like a new player.
    "beginner": "heuristic:1.2",
    "easy": "heuristic:0.5",
    "medium": "heuristic:0.15",
    "hard": "search:0.3",
    "expert": "search:1.0",
}
"""What each level plays in SCOUT (Expert thinks at most 1 s per move on one core)."""


def make_bot(game: str, spec: str) -> Bot:
    """The bot named by ``spec`` for ``game``; raises ``ValueError`` for an unknown game, name
    or parameter.

    >>> make_bot("scout", "search:0.25").budget_s
    0.25
    """
    name, _, param = spec.partition(":")
    if game == "scan":
        from parlour.bots.scan import ScanBot

        if name not in LEVELS or param:
            raise ValueError(f"SCAN bots are levels: {', '.join(LEVELS)}; not {spec!r}")
        return ScanBot(name)  # type: ignore[return-value]
    if game == "snap":
        from parlour.bots.snap import SnapBot

        if name not in LEVELS or param:
            raise ValueError(f"SNAP bots are levels: {', '.join(LEVELS)}; not {spec!r}")
        return SnapBot(name)  # type: ignore[return-value]
    if game != "scout":
        raise ValueError(f"no bots for {game!r}")
    if name in SCOUT_LEVELS:
        if param:
            raise ValueError(f"level {name!r} takes no parameter")
        return make_bot(game, SCOUT_LEVELS[name])
    try:
        value = float(param) if param else None
    except ValueError:
        raise ValueError(f"bad parameter {param!r} in bot spec {spec!r}") from None
    if value is not None and value < 0:
        raise ValueError(f"bot parameter must not be negative: {spec!r}")
    if name == "random" and value is None:
        return RandomBot()
    if name == "greedy" and value is None:
        return GreedyBot()
    if name == "heuristic":
        return HeuristicBot(noise=value or 0.0)
    if name == "search":
        return SearchBot(0.25 if value is None else value)
    raise ValueError(
        f"unknown bot {spec!r}; use random, greedy, heuristic[:noise], search[:seconds] or a "
        f"level ({', '.join(LEVELS)})"
    )
