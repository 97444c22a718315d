"""SCAN's card designs (C1, C2): what each of the 23 designs of each category looks like.

A SCAN card has four quarters, always in the same place: SHAPE top-left, PATTERN top-right,
POSITION bottom-left, COLOUR bottom-right. Each category has exactly 23 designs, numbered
0..22. A design is a small frozen dataclass whose fields are its *features*; two designs that
differ in exactly one feature are *neighbours*, the near-misses a hurried eye confuses.

- SHAPE: one magenta silhouette, ``top`` (flat/notched/bumped) × ``sides``
  (straight/concave/convex) × ``lobes`` (1/2/3 at the bottom): 23 of the 27 combinations.
- PATTERN: black lines, ``orientation`` (horizontal/vertical/rising/falling) × ``spacing``
  (fine/wide) × ``overlay`` (none/dots/cross): 23 of the 24 combinations.
- POSITION: one dot on a faint 5×5 grid, ``row`` × ``column``: 23 of the 25 cells.
- COLOUR: three stripes ``top``/``middle``/``bottom``, an ordered choice of 3 of 4 colours from
  the Okabe–Ito palette: 23 of the 24 orders.

Designs are numbered in the order of their features (first feature slowest), skipping the
dropped combinations listed in :data:`DROPPED`.

>>> design(SHAPE, 0)
ShapeDesign(top='flat', sides='straight', lobes=1)
>>> describe(COLOUR, 0)
'blue, red, yellow'
>>> neighbours(POSITION, 0)
(1, 2, 3, 5, 10, 15, 20)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Literal


class Category(StrEnum):
    """The four categories of a SCAN card; the value is the lower-case English name."""

    SHAPE = "shape"
    PATTERN = "pattern"
    POSITION = "position"
    COLOUR = "colour"


SHAPE = Category.SHAPE
PATTERN = Category.PATTERN
POSITION = Category.POSITION
COLOUR = Category.COLOUR

CATEGORIES: tuple[Category, ...] = (SHAPE, PATTERN, POSITION, COLOUR)
"""C1: the categories in card order: top-left, top-right, bottom-left, bottom-right."""

DESIGNS_PER_CATEGORY = 23
"""C2: every category has exactly this many designs, ids 0..22."""

Top = Literal["flat", "notched", "bumped"]
Sides = Literal["straight", "concave", "convex"]
Orientation = Literal["horizontal", "vertical", "rising", "falling"]
Spacing = Literal["fine", "wide"]
Overlay = Literal["none", "dots", "cross"]
ColourName = Literal["blue", "red", "yellow", "green"]


@dataclass(frozen=True)
class ShapeDesign:
    """A magenta silhouette: its top edge, its two (mirrored) sides and its bottom lobes."""

    top: Top
    sides: Sides
    lobes: int


@dataclass(frozen=True)
class PatternDesign:
    """Black parallel lines in a disc, how far apart they are, and what is laid over them.

    ``rising`` lines go up to the right (/), ``falling`` lines go down to the right (\\).
    ``dots`` puts a dot between the lines; ``cross`` crosses them with thin perpendicular lines.
    """

    orientation: Orientation
    spacing: Spacing
    overlay: Overlay


@dataclass(frozen=True)
class PositionDesign:
    """One dot in a cell of a 5×5 grid: ``row`` 0..4 from the top, ``column`` 0..4 from the left."""

    row: int
    column: int


@dataclass(frozen=True)
class Colour:
    """A stripe colour: name, sRGB hex, the letter of colour-blind mode and that letter's ink."""

    name: ColourName
    hex: str
    letter: str
    ink: str


PALETTE: dict[str, Colour] = {
    "blue": Colour("blue", "#0072B2", "B", "#FFFFFF"),
    "red": Colour("red", "#D55E00", "R", "#FFFFFF"),
    "yellow": Colour("yellow", "#F0E442", "Y", "#1A1A1A"),
    "green": Colour("green", "#009E73", "G", "#FFFFFF"),
}
"""The four stripe colours, from the Okabe–Ito palette (blue, vermillion, yellow, bluish green).

Of the Okabe–Ito colours these four keep every pair apart under simulated protanopia and
deuteranopia (the closest pair, red and yellow for deuteranopes, still differs clearly in
lightness); the letters of colour-blind mode settle any doubt.
"""


@dataclass(frozen=True)
class ColourDesign:
    """Three horizontal stripes, top to bottom, in three different palette colours."""

    top: ColourName
    middle: ColourName
    bottom: ColourName

    @property
    def stripes(self) -> tuple[Colour, Colour, Colour]:
        """The three stripe colours, top to bottom."""
        return (PALETTE[self.top], PALETTE[self.middle], PALETTE[self.bottom])


Design = ShapeDesign | PatternDesign | PositionDesign | ColourDesign
"""The drawing parameters of one design of any category."""

FEATURES: dict[Category, tuple[tuple[str, tuple[object, ...]], ...]] = {
    SHAPE: (
        ("top", ("flat", "notched", "bumped")),
        ("sides", ("straight", "concave", "convex")),
        ("lobes", (1, 2, 3)),
    ),
    PATTERN: (
        ("orientation", ("horizontal", "vertical", "rising", "falling")),
        ("spacing", ("fine", "wide")),
        ("overlay", ("none", "dots", "cross")),
    ),
    POSITION: (
        ("row", (0, 1, 2, 3, 4)),
        ("column", (0, 1, 2, 3, 4)),
    ),
    COLOUR: (
        ("top", tuple(PALETTE)),
        ("middle", tuple(PALETTE)),
        ("bottom", tuple(PALETTE)),
    ),
}
"""Each category's features (the design's fields, in order) and the values each may take."""

DROPPED: dict[Category, tuple[Design, ...]] = {
    # The bumped top and the single lobe both round the silhouette off: with bulging (convex)
    # sides they melt into an egg or a blob whose top and bottom a player can barely read.
    SHAPE: (
        ShapeDesign("bumped", "convex", 1),
        ShapeDesign("bumped", "convex", 2),
        ShapeDesign("flat", "convex", 1),
        ShapeDesign("notched", "convex", 1),
    ),
    # The two densest diagonal meshes are mirror images that read as the same grey; keep one.
    PATTERN: (PatternDesign("falling", "fine", "cross"),),
    # Corners are the cells found fastest; dropping two opposite ones keeps the set symmetric
    # under a half turn.
    POSITION: (PositionDesign(0, 0), PositionDesign(4, 4)),
    # Yellow-red-green puts red between the two colours red-green colour-blind players tell
    # from it least well; its mirror green-red-yellow stays.
    COLOUR: (ColourDesign("yellow", "red", "green"),),
}
"""The combinations of features left out of each category so that exactly 23 remain."""


def _all_shapes() -> list[ShapeDesign]:
    tops: tuple[Top, ...] = ("flat", "notched", "bumped")
    sides: tuple[Sides, ...] = ("straight", "concave", "convex")
    return [ShapeDesign(t, s, n) for t, s, n in itertools.product(tops, sides, (1, 2, 3))]


def _all_patterns() -> list[PatternDesign]:
    orientations: tuple[Orientation, ...] = ("horizontal", "vertical", "rising", "falling")
    spacings: tuple[Spacing, ...] = ("fine", "wide")
    overlays: tuple[Overlay, ...] = ("none", "dots", "cross")
    return [
        PatternDesign(o, s, v) for o, s, v in itertools.product(orientations, spacings, overlays)
    ]


def _all_positions() -> list[PositionDesign]:
    return [PositionDesign(r, c) for r, c in itertools.product(range(5), range(5))]


def _all_colours() -> list[ColourDesign]:
    names: tuple[ColourName, ...] = ("blue", "red", "yellow", "green")
    return [ColourDesign(a, b, c) for a, b, c in itertools.permutations(names, 3)]


def _catalogue() -> dict[Category, tuple[Design, ...]]:
    every: dict[Category, list[Design]] = {
        SHAPE: list(_all_shapes()),
        PATTERN: list(_all_patterns()),
        POSITION: list(_all_positions()),
        COLOUR: list(_all_colours()),
    }
    out = {}
    for category, candidates in every.items():
        kept = tuple(d for d in candidates if d not in DROPPED[category])
        assert len(kept) == DESIGNS_PER_CATEGORY, (category, len(kept))
        out[category] = kept
    return out


_DESIGNS = _catalogue()
_IDS: dict[Category, dict[Design, int]] = {
    category: {d: i for i, d in enumerate(designs)} for category, designs in _DESIGNS.items()
}


def category_of(category: Category | str) -> Category:
    """The :class:`Category` named by ``category`` (an enum member or its value, e.g. "shape").

    Raises ``ValueError`` for anything else.

    >>> category_of("colour") is COLOUR
    True
    """
    if isinstance(category, Category):
        return category
    if isinstance(category, str):
        try:
            return Category(category.lower())
        except ValueError:
            pass
    names = ", ".join(c.value for c in CATEGORIES)
    raise ValueError(f"unknown SCAN category {category!r}; the categories are {names}")


def _check_id(design_id: object) -> int:
    if isinstance(design_id, bool) or not isinstance(design_id, int):
        raise ValueError(f"a design id is an int, not {design_id!r}")
    if not 0 <= design_id < DESIGNS_PER_CATEGORY:
        raise ValueError(
            f"design id {design_id} is out of range; ids are 0..{DESIGNS_PER_CATEGORY - 1}"
        )
    return design_id


def designs(category: Category | str) -> tuple[Design, ...]:
    """All 23 designs of ``category``, indexed by design id; raises ``ValueError`` if unknown.

    >>> len(designs("pattern"))
    23
    """
    return _DESIGNS[category_of(category)]


def design(category: Category | str, design_id: int) -> Design:
    """The drawing parameters of design ``design_id`` (0..22) of ``category``.

    Raises ``ValueError`` for an unknown category or a design id that is not an int in 0..22.

    >>> design(PATTERN, 22)
    PatternDesign(orientation='falling', spacing='wide', overlay='cross')
    >>> design(POSITION, 23)
    Traceback (most recent call last):
    ...
    ValueError: design id 23 is out of range; ids are 0..22
    """
    return _DESIGNS[category_of(category)][_check_id(design_id)]


def design_id(category: Category | str, design: Design) -> int:
    """The id of ``design`` within ``category``.

    Raises ``ValueError`` for an unknown category or a design that is not one of its 23 (a
    dropped combination, or a design of another category).

    >>> design_id(SHAPE, ShapeDesign("notched", "concave", 2))
    12
    """
    found = _IDS[category_of(category)].get(design)
    if found is None:
        raise ValueError(f"{design!r} is not a {category_of(category).value} design of SCAN")
    return found


def features(d: Design) -> tuple[object, ...]:
    """The feature values of a design, in the order of its fields.

    >>> features(ShapeDesign("bumped", "concave", 3))
    ('bumped', 'concave', 3)
    """
    return tuple(getattr(d, f.name) for f in fields(d))


def neighbours(category: Category | str, design_id: int) -> tuple[int, ...]:
    """The ids of the designs of ``category`` that differ from ``design_id`` in exactly one feature.

    These are the near-misses: same silhouette but another top edge, same lines but wider apart,
    a dot in the same row, a stripe swapped for the fourth colour. Ascending ids; raises
    ``ValueError`` like :func:`design`.

    >>> neighbours(COLOUR, 0)
    (1, 5, 20)
    """
    mine = features(design(category, design_id))
    found = []
    for other_id, other in enumerate(designs(category)):
        differing = sum(a != b for a, b in zip(mine, features(other), strict=True))
        if differing == 1:
            found.append(other_id)
    return tuple(found)


def describe(category: Category | str, design_id: int) -> str:
    """A short English description of a design, for titles, captions and screen readers.

    Raises ``ValueError`` like :func:`design`.

    >>> describe(SHAPE, 12)
    'notched top, concave sides, 2 lobes'
    >>> describe(PATTERN, 4)
    'horizontal lines, wide, dots'
    >>> describe(POSITION, 7)
    'row 2, column 4'
    """
    d = design(category, design_id)
    if isinstance(d, ShapeDesign):
        return f"{d.top} top, {d.sides} sides, {d.lobes} lobe{'s' if d.lobes > 1 else ''}"
    if isinstance(d, PatternDesign):
        overlay = {"none": "plain", "dots": "dots", "cross": "crossed"}[d.overlay]
        return f"{d.orientation} lines, {d.spacing}, {overlay}"
    if isinstance(d, PositionDesign):
        return f"row {d.row + 1}, column {d.column + 1}"
    return f"{d.top}, {d.middle}, {d.bottom}"
