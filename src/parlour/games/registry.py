"""Find a game's :class:`~parlour.core.GameSpec` by name, importing the game only when asked.

A game is one package whose ``GAME`` is its ``GameSpec``; this registry is the one place that
lists the packages. Parlour's own games are always there. More may be plugged in through the
environment — ``PARLOUR_EXTRA_GAMES="toy=tests.toy"`` (comma-separated ``name=package``) — which
is how the test suite plays its toy game through the server without showing it to anyone else
(see ``docs/adding-a-game.md``).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from parlour.core import GameSpec

BUILTIN = {
    "scout": "parlour.games.scout",
    "scan": "parlour.games.scan",
    "snap": "parlour.games.snap",
}
"""Parlour's own games: name → package."""

GAMES = tuple(BUILTIN)
"""Parlour's own games, by name (:func:`names` adds the games plugged in)."""

EXTRA_GAMES = "PARLOUR_EXTRA_GAMES"
"""The environment variable that plugs in more games: ``name=package,name=package``."""


def packages() -> dict[str, str]:
    """Every game that may be played here, name → package: Parlour's own, then those named in
    ``$PARLOUR_EXTRA_GAMES`` (read at each call). Raises ``ValueError`` for a malformed entry.

    >>> list(packages())[:3]
    ['scout', 'scan', 'snap']
    """
    found = dict(BUILTIN)
    for item in os.environ.get(EXTRA_GAMES, "").split(","):
        if not item.strip():
            continue
        name, sep, package = (part.strip() for part in item.partition("="))
        if not sep or not name.isidentifier() or not package:
            raise ValueError(f"{EXTRA_GAMES}: {item!r} is not name=package")
        found[name] = package
    return found


def names() -> tuple[str, ...]:
    """The names of every game that may be played here (:func:`packages`), Parlour's own first."""
    return tuple(packages())


def package_of(name: str) -> str:
    """The package of game ``name``; raises ``KeyError`` for an unknown game."""
    found = packages()
    if name not in found:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(found)}")
    return found[name]


def get_game(name: str) -> GameSpec[Any, Any, Any]:
    """The ``GameSpec`` of game ``name``; raises ``KeyError`` for an unknown game.

    >>> get_game("scout").name
    'scout'
    """
    module = importlib.import_module(package_of(name))
    spec: GameSpec[Any, Any, Any] = module.GAME
    return spec
