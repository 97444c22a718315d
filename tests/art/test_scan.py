"""SCAN cards drawn as SVG (C1, C2): valid standalone documents, deterministic, told apart."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from parlour.art.scan import (
    BACKS,
    bluffo_svg,
    card_svg,
    deck_files,
    quarter_svg,
    shape_path,
    sheet_svg,
)
from parlour.games.scan.designs import (
    CATEGORIES,
    COLOUR,
    DESIGNS_PER_CATEGORY,
    PATTERN,
    POSITION,
    SHAPE,
    Category,
    ColourDesign,
    ShapeDesign,
    design,
    designs,
)

NS = "http://www.w3.org/2000/svg"
SVG = f"{{{NS}}}"


def parse(text: str) -> ET.Element:
    """Parse a standalone SVG document and check it declares the SVG namespace."""
    assert text.startswith(f'<svg xmlns="{NS}"')
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    return root


def quarters(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "scan-quarter"]


def letters(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("category", CATEGORIES)
def test_C2_every_quarter_is_a_standalone_svg(category: Category) -> None:
    for design_id in range(DESIGNS_PER_CATEGORY):
        for colour_blind in (False, True):
            root = parse(quarter_svg(category, design_id, colour_blind))
            (group,) = quarters(root)
            assert group.get("data-category") == category.value
            assert group.get("data-design") == str(design_id)
            assert root.find(f"{SVG}title") is not None


@pytest.mark.parametrize("category", CATEGORIES)
def test_C2_the_23_drawings_of_a_category_are_all_different(category: Category) -> None:
    def drawing(design_id: int) -> str:
        group = quarters(parse(quarter_svg(category, design_id)))[0]
        return ET.tostring(group).decode().replace(f'data-design="{design_id}"', "")

    assert len({drawing(i) for i in range(DESIGNS_PER_CATEGORY)}) == DESIGNS_PER_CATEGORY


def test_C2_shape_silhouettes_are_distinct_closed_paths() -> None:
    paths = [shape_path(d) for d in designs(SHAPE) if isinstance(d, ShapeDesign)]
    assert len(set(paths)) == DESIGNS_PER_CATEGORY
    assert all(p.startswith("M") and p.endswith("Z") for p in paths)


DIGEST = """
import hashlib, json
from parlour.art.scan import bluffo_svg, card_svg, deck_files
text = json.dumps([card_svg((3, 4, 5, 6), "blue", True), deck_files(), bluffo_svg()])
print(hashlib.sha256(text.encode()).hexdigest())
"""


def test_drawings_are_the_same_in_every_process() -> None:
    # Another interpreter with another string-hash seed draws the same bytes (nothing depends
    # on set order, ids or the time).
    digests = [
        subprocess.run([sys.executable, "-c", DIGEST], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}, timeout=120).stdout.strip()
        for seed in ("1", "2")
    ]  # fmt: skip
    text = json.dumps([card_svg((3, 4, 5, 6), "blue", True), deck_files(), bluffo_svg()])
    assert digests == [hashlib.sha256(text.encode()).hexdigest()] * 2


def test_C2_colour_blind_mode_adds_one_letter_per_stripe() -> None:
    for design_id in range(DESIGNS_PER_CATEGORY):
        d = design(COLOUR, design_id)
        assert isinstance(d, ColourDesign)
        assert letters(parse(quarter_svg(COLOUR, design_id))) == []
        shown = letters(parse(quarter_svg(COLOUR, design_id, colour_blind=True)))
        assert shown == [c.letter for c in d.stripes]


@pytest.mark.parametrize("category", [SHAPE, PATTERN, POSITION])
def test_colour_blind_mode_changes_only_the_colour_quarter(category: Category) -> None:
    assert quarter_svg(category, 5, colour_blind=True) == quarter_svg(category, 5)


def test_C2_colour_quarter_uses_the_palette_colours_of_its_stripes() -> None:
    d = design(COLOUR, 7)
    assert isinstance(d, ColourDesign)
    text = quarter_svg(COLOUR, 7)
    positions = [text.index(f'fill="{c.hex}"') for c in d.stripes]
    assert positions == sorted(positions)


def test_C1_card_has_each_quarter_in_its_fixed_place() -> None:
    root = parse(card_svg({"colour": 4, "shape": 1, "position": 3, "pattern": 2}, "tan"))
    groups = quarters(root)
    assert [g.get("data-category") for g in groups] == ["shape", "pattern", "position", "colour"]
    assert [g.get("data-design") for g in groups] == ["1", "2", "3", "4"]
    places = [
        (float(s.get("x", "0")), float(s.get("y", "0")))
        for s in root.iter(f"{SVG}svg")
        if s is not root
    ]
    (left, top), (right, _), (_, bottom), last = places
    assert left < right and top < bottom
    assert last == (right, bottom)


def test_C1_card_accepts_a_dict_or_four_ids_and_both_backs() -> None:
    by_dict = card_svg({SHAPE: 0, PATTERN: 22, POSITION: 11, COLOUR: 9}, back="blue")
    assert by_dict == card_svg([0, 22, 11, 9], back="blue")
    tan, blue = card_svg((0, 0, 0, 0), "tan"), card_svg((0, 0, 0, 0), "blue")
    assert BACKS["tan"][0] in tan and BACKS["blue"][0] not in tan
    assert BACKS["blue"][0] in blue
    assert parse(tan).get("width") == "200"
    assert parse(card_svg((0, 0, 0, 0), size=120)).get("width") == "120"


def test_C2_card_in_colour_blind_mode_shows_the_colour_letters() -> None:
    d = design(COLOUR, 12)
    assert isinstance(d, ColourDesign)
    assert letters(parse(card_svg((0, 0, 0, 12)))) == []
    assert letters(parse(card_svg((0, 0, 0, 12), colour_blind=True))) == [
        c.letter for c in d.stripes
    ]


def test_no_ids_so_many_cards_can_share_a_page() -> None:
    for text in deck_files(colour_blind=True).values():
        assert all(e.get("id") is None for e in parse(text).iter())


@pytest.mark.parametrize(
    ("designs_arg", "match"),
    [
        ({"shape": 0, "pattern": 0, "position": 0}, "one design id per category"),
        ({"shape": 0, "pattern": 0, "position": 0, "colour": 0, "suit": 1}, "category"),
        ({"shape": 0, "pattern": 0, "position": 0, "color": 0}, "unknown SCAN category"),
        ((0, 0, 0), "4 design ids"),
        ((0, 0, 0, 0, 0), "4 design ids"),
        ((0, 0, 0, 23), "out of range"),
        ((0, -1, 0, 0), "out of range"),
        ((0, 0, "1", 0), "design id"),
        ("0123", "a card is"),
        (None, "a card is"),
    ],
)
def test_card_with_bad_designs_raises_value_error(designs_arg: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        card_svg(designs_arg)  # type: ignore[arg-type]


@pytest.mark.parametrize("back", ["red", "Tan", "", None])
def test_card_with_bad_back_raises_value_error(back: object) -> None:
    with pytest.raises(ValueError, match="tan or blue"):
        card_svg((0, 0, 0, 0), back=back)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0, -5, True, "200", None])
def test_bad_size_raises_value_error(size: object) -> None:
    with pytest.raises(ValueError, match="size"):
        card_svg((0, 0, 0, 0), size=size)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        quarter_svg(SHAPE, 0, size=size)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        bluffo_svg(size=size)  # type: ignore[arg-type]


def test_quarter_with_bad_input_raises_value_error() -> None:
    with pytest.raises(ValueError, match="unknown SCAN category"):
        quarter_svg("suit", 0)
    with pytest.raises(ValueError, match="out of range"):
        quarter_svg(PATTERN, 23)


def test_C10_bluffo_card_is_a_standalone_svg() -> None:
    root = parse(bluffo_svg(size=150))
    assert root.get("width") == "150"
    assert "BLUFFO" in letters(root)
    assert letters(root).count("2") == 2


@pytest.mark.parametrize("category", CATEGORIES)
def test_sheet_shows_all_23_designs_with_their_ids(category: Category) -> None:
    for colour_blind in (False, True):
        root = parse(sheet_svg(category, colour_blind))
        groups = quarters(root)
        assert [g.get("data-design") for g in groups] == [str(i) for i in range(23)]
        labels = letters(root)
        assert all(f"{i:02d}" in labels for i in range(DESIGNS_PER_CATEGORY))


@pytest.mark.parametrize("columns", [0, -1, 2.5, True])
def test_sheet_with_bad_columns_raises_value_error(columns: object) -> None:
    with pytest.raises(ValueError, match="columns"):
        sheet_svg(SHAPE, columns=columns)  # type: ignore[arg-type]


def test_deck_files_names_every_drawing() -> None:
    files = deck_files()
    expected = {f"{c.value}-{i:02d}.svg" for c in CATEGORIES for i in range(DESIGNS_PER_CATEGORY)}
    expected |= {f"sheet-{c.value}.svg" for c in CATEGORIES}
    expected |= {"bluffo.svg", "card-sample-tan.svg", "card-sample-blue.svg"}
    assert set(deck_files(seed=None)) == expected
    expected |= {f"{back}-{i:02d}.svg" for back in ("tan", "blue") for i in range(23)}
    assert set(files) == expected


def test_deck_files_draw_the_seeded_deck() -> None:
    from parlour.games.scan.cards import deal_deck

    tan, blue = deal_deck(7)
    files = deck_files(seed=7)
    for i, card in enumerate(tan):
        assert files[f"tan-{i:02d}.svg"] == card_svg(card, "tan")
    assert files["blue-03.svg"] == card_svg(blue[3], "blue")
    other = deck_files(seed=8)
    assert any(other[f"tan-{i:02d}.svg"] != files[f"tan-{i:02d}.svg"] for i in range(23))
