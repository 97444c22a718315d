"""Find a game's :class:`~parlour.core.GameSpec` by name, importing the game only when asked."""

from __future__ import annotations

import importlib

from parlour.core import GameSpec

GAMES = ("scout", "scan", "snap")
"""The games with an engine, by name."""


def get_game(name: str) -> GameSpec:
    """The ``GameSpec`` of game ``name``; raises ``KeyError`` for an unknown game.

    >>> get_game("scout").name
    'scout'
    """
    if name not in GAMES:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    module = importlib.import_module(f"parlour.games.{name}")
    spec: GameSpec = module.GAME
    return spec
