"""SCAN's card designs (C1, C2): 23 distinct designs per category, their features, neighbours."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from parlour.games.scan.designs import (
    CATEGORIES,
    COLOUR,
    DESIGNS_PER_CATEGORY,
    DROPPED,
    FEATURES,
    PALETTE,
    PATTERN,
    POSITION,
    SHAPE,
    Category,
    ColourDesign,
    PatternDesign,
    PositionDesign,
    ShapeDesign,
    category_of,
    describe,
    design,
    design_id,
    designs,
    features,
    neighbours,
)

EXPECTED_COUNTS: dict[Category, dict[str, dict[object, int]]] = {
    SHAPE: {
        "top": {"flat": 8, "notched": 8, "bumped": 7},
        "sides": {"straight": 9, "concave": 9, "convex": 5},
        "lobes": {1: 6, 2: 8, 3: 9},
    },
    PATTERN: {
        "orientation": {"horizontal": 6, "vertical": 6, "rising": 6, "falling": 5},
        "spacing": {"fine": 11, "wide": 12},
        "overlay": {"none": 8, "dots": 8, "cross": 7},
    },
    POSITION: {
        "row": {0: 4, 1: 5, 2: 5, 3: 5, 4: 4},
        "column": {0: 4, 1: 5, 2: 5, 3: 5, 4: 4},
    },
    COLOUR: {
        "top": {"blue": 6, "red": 6, "yellow": 5, "green": 6},
        "middle": {"blue": 6, "red": 5, "yellow": 6, "green": 6},
        "bottom": {"blue": 6, "red": 6, "yellow": 6, "green": 5},
    },
}
"""How many of the 23 designs show each value of each feature, once the dropped ones are gone."""


def test_C1_four_categories_in_card_order() -> None:
    assert [c.name for c in CATEGORIES] == ["SHAPE", "PATTERN", "POSITION", "COLOUR"]
    assert [c.value for c in CATEGORIES] == ["shape", "pattern", "position", "colour"]
    assert DESIGNS_PER_CATEGORY == 23


@pytest.mark.parametrize("category", CATEGORIES)
def test_C2_each_category_has_23_distinct_designs(category: Category) -> None:
    all_designs = designs(category)
    assert len(all_designs) == DESIGNS_PER_CATEGORY
    assert len(set(all_designs)) == DESIGNS_PER_CATEGORY
    assert len({features(d) for d in all_designs}) == DESIGNS_PER_CATEGORY
    assert [design(category, i) for i in range(DESIGNS_PER_CATEGORY)] == list(all_designs)
    assert [design_id(category, d) for d in all_designs] == list(range(DESIGNS_PER_CATEGORY))


@pytest.mark.parametrize("category", CATEGORIES)
def test_C2_each_feature_value_appears_the_expected_number_of_times(category: Category) -> None:
    names = [name for name, _ in FEATURES[category]]
    assert names == list(EXPECTED_COUNTS[category])
    for index, (name, values) in enumerate(FEATURES[category]):
        counts = Counter(features(d)[index] for d in designs(category))
        assert set(counts) <= set(values)
        assert dict(counts) == EXPECTED_COUNTS[category][name]


def test_C2_the_design_types_match_their_category() -> None:
    types = {SHAPE: ShapeDesign, PATTERN: PatternDesign, POSITION: PositionDesign}
    types[COLOUR] = ColourDesign
    for category in CATEGORIES:
        assert all(type(d) is types[category] for d in designs(category))


def _every_combination(category: Category) -> list[tuple[object, ...]]:
    values = [v for _, v in FEATURES[category]]
    combos = list(itertools.product(*values))
    if category == COLOUR:
        combos = [c for c in combos if len(set(c)) == 3]
    return combos


@pytest.mark.parametrize("category", CATEGORIES)
def test_C2_designs_are_all_combinations_but_the_dropped_ones(category: Category) -> None:
    kept = {features(d) for d in designs(category)}
    dropped = {features(d) for d in DROPPED[category]}
    assert not kept & dropped
    assert kept | dropped == set(_every_combination(category))
    expected_drops = {SHAPE: 4, PATTERN: 1, POSITION: 2, COLOUR: 1}
    assert len(dropped) == expected_drops[category]


def test_C2_colour_stripes_are_three_different_colours() -> None:
    for d in designs(COLOUR):
        assert isinstance(d, ColourDesign)
        assert len({c.name for c in d.stripes}) == 3
        assert [c.name for c in d.stripes] == [d.top, d.middle, d.bottom]


def _simulated_lab(hex_colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    """CIELAB of an sRGB colour as seen through a Machado et al. (2009) dichromacy matrix."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    r, g, b = (
        min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb, strict=True)))) for row in matrix
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


VISION = {
    "typical": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}


@pytest.mark.parametrize("vision", VISION)
def test_C2_palette_colours_stay_apart_for_red_green_colour_blindness(vision: str) -> None:
    for a, b in itertools.combinations(PALETTE.values(), 2):
        distance = math.dist(
            _simulated_lab(a.hex, VISION[vision]), _simulated_lab(b.hex, VISION[vision])
        )
        assert distance > 30, (vision, a.name, b.name, distance)


def test_C2_palette_letters_and_colours_are_distinct() -> None:
    assert len({c.hex for c in PALETTE.values()}) == 4
    assert sorted(c.letter for c in PALETTE.values()) == ["B", "G", "R", "Y"]


@pytest.mark.parametrize("category", CATEGORIES)
def test_C2_neighbours_differ_in_exactly_one_feature(category: Category) -> None:
    for i in range(DESIGNS_PER_CATEGORY):
        near = neighbours(category, i)
        assert near, f"{category} {i} has no near-miss"
        assert i not in near
        assert list(near) == sorted(near)
        mine = features(design(category, i))
        for j in range(DESIGNS_PER_CATEGORY):
            theirs = features(design(category, j))
            differing = sum(a != b for a, b in zip(mine, theirs, strict=True))
            assert (j in near) == (differing == 1)
            if j in near:
                assert i in neighbours(category, j)


def test_C2_neighbour_examples() -> None:
    # SHAPE 0 is flat, straight, 1 lobe: the same with a notch, a bump, bowed sides, more lobes.
    expected = {
        ShapeDesign("notched", "straight", 1),
        ShapeDesign("bumped", "straight", 1),
        ShapeDesign("flat", "concave", 1),
        ShapeDesign("flat", "straight", 2),
        ShapeDesign("flat", "straight", 3),
    }
    assert {design(SHAPE, j) for j in neighbours(SHAPE, 0)} == expected
    # A colour's neighbours swap one stripe for the fourth colour.
    assert [describe(COLOUR, j) for j in neighbours(COLOUR, 0)] == [
        "blue, red, green",
        "blue, green, yellow",
        "green, red, yellow",
    ]
    # POSITION 0 is row 1, column 2: the other three cells of row 1, the four below it.
    assert [describe(POSITION, j) for j in neighbours(POSITION, 0)] == [
        "row 1, column 3",
        "row 1, column 4",
        "row 1, column 5",
        "row 2, column 2",
        "row 3, column 2",
        "row 4, column 2",
        "row 5, column 2",
    ]


def test_category_of_accepts_members_and_names() -> None:
    assert category_of(SHAPE) is SHAPE
    assert category_of("colour") is COLOUR
    assert category_of("Pattern") is PATTERN


@pytest.mark.parametrize("bad", ["suit", "color", "", 3, None])
def test_unknown_category_raises_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown SCAN category"):
        design(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        neighbours(bad, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 23, 99, True, "3", 2.0, None])
def test_bad_design_id_raises_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="design id"):
        design(SHAPE, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="design id"):
        neighbours(COLOUR, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="design id"):
        describe(POSITION, bad)  # type: ignore[arg-type]


def test_design_id_refuses_dropped_and_foreign_designs() -> None:
    with pytest.raises(ValueError, match="not a shape design"):
        design_id(SHAPE, DROPPED[SHAPE][0])
    with pytest.raises(ValueError, match="not a pattern design"):
        design_id(PATTERN, design(SHAPE, 0))
    with pytest.raises(ValueError, match="not a position design"):
        design_id(POSITION, PositionDesign(4, 4))


def test_descriptions_are_distinct_within_a_category() -> None:
    for category in CATEGORIES:
        texts = {describe(category, i) for i in range(DESIGNS_PER_CATEGORY)}
        assert len(texts) == DESIGNS_PER_CATEGORY
