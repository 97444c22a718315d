"""SCAN's cards (C1–C3): categories, the deck generated from the seed, and matching.

A card is a tuple of four design ids ``(shape, pattern, position, colour)``, each 0..22: the
categories in card order (top-left, top-right, bottom-left, bottom-right). What a design looks
like is the business of ``designs.py`` and ``svg.py``; the rules only compare ids.

The deck (C3): for each category the blue cards carry the 23 designs in a random order, and a
random 4×23 Latin rectangle says which blue card each tan card matches in each category (row =
category, column = tan card, entry = blue card). Because the columns of a Latin rectangle hold
four different entries, a tan card's four matches are four different blue cards; because each
row is a permutation, each tan card has exactly one matching blue card per category.

>>> tan, blue = deal_deck(7)
>>> len(tan), len(blue)
(23, 23)
>>> [sum(1 for b in blue if b[c] == tan[0][c]) for c in range(4)]
[1, 1, 1, 1]
>>> len({match_index(blue, tan[0], c) for c in range(4)})
4
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core import Rng, derive_rng

Card = tuple[int, int, int, int]
"""Four design ids, one per category, in the order of :data:`CATEGORIES`."""

CATEGORIES: tuple[str, ...] = ("shape", "pattern", "position", "colour")
"""C1: the categories in card order (top-left, top-right, bottom-left, bottom-right)."""
SHAPE, PATTERN, POSITION, COLOUR = range(4)
"""Category indices into a card."""

DESIGNS = 23
"""C2: designs per category, ids 0..22."""
CARDS = 23
"""C1: tan cards, and blue cards, in the deck."""
BLUFFO_CARDS = 3
"""C1: the Bluffo cards (and so the blue cards removed when Bluffo is played)."""
BLUFFO_POINTS = 2
"""C12: what each Bluffo card held is worth."""


def category_index(name: object) -> int:
    """The index of category ``name`` ("shape", "pattern", "position" or "colour").

    Raises ``ValueError`` for anything else.

    >>> category_index("colour")
    3
    """
    if isinstance(name, str) and name in CATEGORIES:
        return CATEGORIES.index(name)
    raise ValueError(f"unknown category {name!r}; expected one of {', '.join(CATEGORIES)}")


def latin_rectangle(rng: Rng, rows: int = 4, size: int = CARDS) -> list[list[int]]:
    """C3: ``rows`` random permutations of ``range(size)`` that never agree in any column.

    Each new row is drawn as a random permutation and rejected if it agrees with an earlier row
    anywhere (about 30 draws in all for 4×23).
    """
    out: list[list[int]] = []
    while len(out) < rows:
        row = rng.sample(range(size), size)
        if all(all(row[i] != earlier[i] for i in range(size)) for earlier in out):
            out.append(row)
    return out


def deal_deck(seed: int | str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """C1–C3: the 23 tan and 23 blue cards of a game, drawn from ``seed``.

    Each category's 23 designs appear once on the tan cards and once on the blue cards; a tan
    card's four matches are four different blue cards. The cards are returned in deck order
    (shuffling and laying out are C5's business).
    """
    rng = derive_rng(seed, "scan", "deck")
    on_blue = [rng.sample(range(DESIGNS), DESIGNS) for _ in CATEGORIES]
    s, p, q, c = on_blue
    blue = tuple((s[j], p[j], q[j], c[j]) for j in range(CARDS))
    m = latin_rectangle(rng)
    tan = tuple(
        (blue[m[0][i]][0], blue[m[1][i]][1], blue[m[2][i]][2], blue[m[3][i]][3])
        for i in range(CARDS)
    )
    return tan, blue


def match_index(layout: Sequence[Card], tan: Card, category: int) -> int | None:
    """The position in ``layout`` of the blue card matching ``tan`` in ``category``, or
    ``None`` when it has no match there (its blue card was removed for Bluffo).

    >>> match_index([(0, 1, 2, 3), (4, 5, 6, 7)], (9, 5, 9, 9), 1)
    1
    >>> match_index([(0, 1, 2, 3)], (9, 5, 9, 9), 1) is None
    True
    """
    design = tan[category]
    for i, blue in enumerate(layout):
        if blue[category] == design:
            return i
    return None


def is_card(obj: object) -> bool:
    """Whether ``obj`` is a card: a tuple of four design ids 0..22."""
    return (
        isinstance(obj, tuple)
        and len(obj) == 4
        and all(type(x) is int and 0 <= x < DESIGNS for x in obj)
    )
