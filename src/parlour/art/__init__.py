"""Presentation: the games' card art, drawn from the rules layer's design ids (stdlib only).

The rules engines never import this package (``tests/test_layers.py``): they compare ids. A
game's art is a module offering ``designs(colour_blind) -> str`` (the page's card drawings as
one SVG sprite, served at ``/<game>/designs.svg``) and ``drawings(colour_blind) -> dict`` (every
drawing as an SVG file by name, written by ``parlour cards``). It is found by the game's name,
as its bots are (``parlour.bots.levels``): Parlour's own in :data:`ART`, a game plugged in from
package ``P`` in ``P.art`` if it has one. A game without art has none of either.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType

ART = {"scan": "parlour.art.scan"}
"""The art of Parlour's own games: name → module (SCOUT and SNAP are drawn by their pages)."""


def art_of(game: str) -> ModuleType | None:
    """The art module of ``game``, or ``None`` (an unknown game, or one without art)."""
    from parlour.games.registry import BUILTIN, package_of

    if game in ART:
        target = ART[game]
    elif game in BUILTIN:
        return None
    else:
        try:
            target = f"{package_of(game)}.art"
        except KeyError:
            return None
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name is not None and target.startswith(exc.name):
            return None  # the game has no art module (not: its art failed to import)
        raise


def designs(game: str, colour_blind: bool = False) -> str | None:
    """``game``'s card drawings as one SVG sprite, or ``None`` if it has none.

    >>> designs("scan").startswith("<svg"), designs("scout"), designs("no such game")
    (True, None, None)
    """
    module = art_of(game)
    if module is None or not hasattr(module, "designs"):
        return None
    text: str = module.designs(colour_blind)
    return text


def drawings(game: str, colour_blind: bool = False) -> Mapping[str, str] | None:
    """Every card drawing of ``game`` as SVG text by file name, or ``None`` if it has none."""
    module = art_of(game)
    if module is None or not hasattr(module, "drawings"):
        return None
    files: Mapping[str, str] = module.drawings(colour_blind)
    return files


def has_drawings(game: str) -> bool:
    """Whether ``game`` has card drawings to write (``parlour cards``)."""
    module = art_of(game)
    return module is not None and hasattr(module, "drawings")
