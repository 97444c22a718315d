"""SCAN cards drawn as SVG (C1, C2): one quarter, a whole card, the Bluffo card, review sheets.

Pure string building from the design ids of :mod:`parlour.games.scan.designs`: no image files,
no randomness, the same text for the same arguments. Every function returns a standalone SVG
document (with the ``xmlns``) that a browser can inline as it is. Each quarter is drawn in its
own 100×100 box and wrapped in ``<g class="scan-quarter" data-category=... data-design=...>`` so
the web table can highlight it; the documents define no ``id`` attributes, so any number of
cards can share one page.

>>> text = card_svg((0, 1, 2, 3), back="blue")
>>> text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> text.count('class="scan-quarter"')
4
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from parlour.games.scan.designs import (
    CATEGORIES,
    DESIGNS_PER_CATEGORY,
    Category,
    ColourDesign,
    PatternDesign,
    PositionDesign,
    ShapeDesign,
    category_of,
    describe,
    design,
    features,
)

XMLNS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

BACKS: dict[str, tuple[str, str]] = {
    "tan": ("#D8BD8A", "#A88A58"),
    "blue": ("#2F64A6", "#1E4677"),
}
"""The two card backgrounds (C1: tan cards are revealed, blue cards are touched): fill, edge."""

PANEL = "#FFFCF4"
PANEL_EDGE = "#6F6656"
INK = "#161616"
MAGENTA = "#C8197E"
MAGENTA_EDGE = "#7A0C4B"
GRID = "#C4BBA8"
BLUFFO_INK = "#3B2552"

CARD = 200.0
MARGIN = 9.0
GAP = 6.0
QUARTER = (CARD - 2 * MARGIN - GAP) / 2
"""Card geometry in card units: a 200×200 card, quarters of 88 with a 9 margin and a 6 gap."""

SAMPLE_CARDS: dict[str, tuple[tuple[int, int, int, int], str]] = {
    "card-sample-tan.svg": ((13, 8, 6, 18), "tan"),
    "card-sample-blue.svg": ((13, 20, 16, 4), "blue"),
}
"""Two sample cards written by ``parlour cards scan``: a tan and a blue that match in SHAPE."""


def _n(x: float) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros, never ``-0``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _open(width: float, height: float, view: tuple[float, float], label: str) -> str:
    """The opening tag of a standalone SVG document, with its accessible name and title."""
    return (
        f'<svg xmlns="{XMLNS}" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(view[0])} {_n(view[1])}" role="img" aria-label={quoteattr(label)}>'
        f"<title>{escape(label)}</title>"
    )


def _check_size(size: object) -> float:
    if isinstance(size, bool) or not isinstance(size, int | float) or not size > 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    return float(size)


# --- the four categories, each drawn in a 100×100 box -------------------------------------------


def shape_path(d: ShapeDesign) -> str:
    """The SVG path data of a SHAPE silhouette in the 100×100 quarter box.

    The outline runs clockwise from the top-left corner: top edge (flat, a V notch, or a round
    bump), right side (straight, bowed in, or bowed out), the lobes along the bottom from right to
    left, then the left side mirroring the right.
    """
    left, right, top, base = 24.0, 76.0, 22.5, 60.0
    middle = (left + right) / 2
    parts = [f"M{_n(left)} {_n(top)}"]
    if d.top == "notched":
        notch = (middle - 10, top), (middle, top + 13), (middle + 10, top)
        parts.append(" ".join(f"L{_n(x)} {_n(y)}" for x, y in notch))
    elif d.top == "bumped":
        parts.append(f"L{_n(middle - 10)} {_n(top)} A10 11 0 0 1 {_n(middle + 10)} {_n(top)}")
    parts.append(f"L{_n(right)} {_n(top)}")
    bow = {"straight": 0.0, "concave": -12.5, "convex": 10.0}[d.sides]
    third = (base - top) / 3
    if bow:
        parts.append(
            f"C{_n(right + bow)} {_n(top + third)} {_n(right + bow)} {_n(base - third)} "
            f"{_n(right)} {_n(base)}"
        )
    else:
        parts.append(f"L{_n(right)} {_n(base)}")
    width = (right - left) / d.lobes
    depth = {1: 21.0, 2: 14.5, 3: 11.0}[d.lobes]
    for i in range(d.lobes):
        x = right - width * (i + 1)
        parts.append(f"A{_n(width / 2)} {_n(depth)} 0 0 1 {_n(x)} {_n(base)}")
    if bow:
        parts.append(
            f"C{_n(left - bow)} {_n(base - third)} {_n(left - bow)} {_n(top + third)} "
            f"{_n(left)} {_n(top)}"
        )
    parts.append("Z")
    return " ".join(parts)


def _shape(d: ShapeDesign) -> list[str]:
    return [
        f'<path d="{shape_path(d)}" fill="{MAGENTA}" stroke="{MAGENTA_EDGE}" '
        'stroke-width="1.6" stroke-linejoin="round"/>'
    ]


_DIRECTIONS: dict[str, tuple[float, float]] = {
    "horizontal": (1.0, 0.0),
    "vertical": (0.0, 1.0),
    "rising": (math.sqrt(0.5), -math.sqrt(0.5)),
    "falling": (math.sqrt(0.5), math.sqrt(0.5)),
}
_SPACING = {"fine": 6.5, "wide": 10.5}
_DISC = (50.0, 50.0, 36.0)


def _chords(direction: tuple[float, float], spacing: float, radius: float) -> list[str]:
    """Line segments parallel to ``direction``, ``spacing`` apart, clipped to the disc."""
    cx, cy, _ = _DISC
    ux, uy = direction
    nx, ny = -uy, ux
    segments = []
    steps = int(radius // spacing)
    for k in range(-steps, steps + 1):
        offset = k * spacing
        half = math.sqrt(max(radius * radius - offset * offset, 0.0))
        if half < 4.0:
            continue
        px, py = cx + nx * offset, cy + ny * offset
        x1, y1 = px - ux * half, py - uy * half
        x2, y2 = px + ux * half, py + uy * half
        segments.append(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}")
    return segments


def _pattern(d: PatternDesign) -> list[str]:
    cx, cy, radius = _DISC
    inner = radius - 0.8
    spacing = _SPACING[d.spacing]
    direction = _DIRECTIONS[d.orientation]
    out = [f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(radius)}" fill="#FFFFFF"/>']
    lines = "".join(_chords(direction, spacing, inner))
    out.append(f'<path d="{lines}" stroke="{INK}" stroke-width="2.3" fill="none"/>')
    ux, uy = direction
    if d.overlay == "cross":
        across = "".join(_chords((-uy, ux), spacing, inner))
        out.append(f'<path d="{across}" stroke="{INK}" stroke-width="0.9" fill="none"/>')
    elif d.overlay == "dots":
        nx, ny = -uy, ux
        dot = 1.5 if d.spacing == "fine" else 2.0
        steps = int(radius // spacing) + 1
        dots = []
        for k in range(-steps, steps):
            for j in range(-steps, steps + 1):
                x = cx + nx * (k + 0.5) * spacing + ux * j * spacing
                y = cy + ny * (k + 0.5) * spacing + uy * j * spacing
                if math.hypot(x - cx, y - cy) + dot < radius - 2.0:
                    dots.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(dot)}"/>')
        out.append(f'<g fill="{INK}">{"".join(dots)}</g>')
    out.append(
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(radius)}" fill="none" stroke="{INK}" '
        'stroke-width="1.8"/>'
    )
    return out


_GRID_START, _CELL = 15.0, 14.0


def _position(d: PositionDesign) -> list[str]:
    end = _GRID_START + 5 * _CELL
    rules = []
    for i in range(6):
        at = _GRID_START + i * _CELL
        rules.append(f"M{_n(at)} {_n(_GRID_START)}V{_n(end)}M{_n(_GRID_START)} {_n(at)}H{_n(end)}")
    x = _GRID_START + (d.column + 0.5) * _CELL
    y = _GRID_START + (d.row + 0.5) * _CELL
    return [
        f'<path d="{"".join(rules)}" stroke="{GRID}" stroke-width="0.8" fill="none" '
        'stroke-linecap="square"/>',
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="5.2" fill="{INK}"/>',
    ]


def _band(x: float, y: float, width: float, height: float, corner: str, radius: float) -> str:
    """Path data of a stripe whose ``corner`` ("top", "bottom" or "") corners are rounded."""
    right, bottom = x + width, y + height
    if corner == "top":
        return (
            f"M{_n(x)} {_n(bottom)}V{_n(y + radius)}A{_n(radius)} {_n(radius)} 0 0 1 "
            f"{_n(x + radius)} {_n(y)}H{_n(right - radius)}A{_n(radius)} {_n(radius)} 0 0 1 "
            f"{_n(right)} {_n(y + radius)}V{_n(bottom)}Z"
        )
    if corner == "bottom":
        return (
            f"M{_n(x)} {_n(y)}H{_n(right)}V{_n(bottom - radius)}A{_n(radius)} {_n(radius)} 0 0 1 "
            f"{_n(right - radius)} {_n(bottom)}H{_n(x + radius)}A{_n(radius)} {_n(radius)} 0 0 1 "
            f"{_n(x)} {_n(bottom - radius)}Z"
        )
    return f"M{_n(x)} {_n(y)}H{_n(right)}V{_n(bottom)}H{_n(x)}Z"


def _colour(d: ColourDesign, colour_blind: bool) -> list[str]:
    x, y, width, height, radius = 17.0, 20.0, 66.0, 60.0, 5.0
    band = height / 3
    out = []
    for i, (colour, corner) in enumerate(zip(d.stripes, ("top", "", "bottom"), strict=True)):
        out.append(
            f'<path d="{_band(x, y + i * band, width, band, corner, radius)}" fill="{colour.hex}"/>'
        )
    out.append(
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(height)}" '
        f'rx="{_n(radius)}" fill="none" stroke="{INK}" stroke-width="1.4"/>'
    )
    if colour_blind:
        for i, colour in enumerate(d.stripes):
            baseline = y + (i + 0.5) * band + 5.8
            out.append(
                f'<text x="50" y="{_n(baseline)}" text-anchor="middle" font-family="{FONT}" '
                f'font-size="16" font-weight="bold" fill="{colour.ink}">{colour.letter}</text>'
            )
    return out


def _quarter(category: Category, design_id: int, colour_blind: bool) -> str:
    """One quarter in its 100×100 box: the cream panel, then the design, as a ``<g>``."""
    d = design(category, design_id)
    if isinstance(d, ShapeDesign):
        body = _shape(d)
    elif isinstance(d, PatternDesign):
        body = _pattern(d)
    elif isinstance(d, PositionDesign):
        body = _position(d)
    else:
        body = _colour(d, colour_blind)
    panel = (
        f'<rect x="1" y="1" width="98" height="98" rx="9" fill="{PANEL}" '
        f'stroke="{PANEL_EDGE}" stroke-opacity="0.55" stroke-width="1.2"/>'
    )
    return (
        f'<g class="scan-quarter" data-category="{category.value}" data-design="{design_id}">'
        f"{panel}{''.join(body)}</g>"
    )


def _label(category: Category, design_id: int) -> str:
    return f"{category.value} {design_id}: {describe(category, design_id)}"


def quarter_svg(
    category: Category | str, design_id: int, colour_blind: bool = False, size: int = 100
) -> str:
    """One quarter of a SCAN card as a standalone SVG document, ``size`` pixels square.

    ``colour_blind`` adds a letter to each COLOUR stripe (B, R, Y, G). Raises ``ValueError`` for
    an unknown category, a design id not in 0..22, or a size that is not a positive number.

    >>> 'data-design="7"' in quarter_svg("shape", 7)
    True
    """
    cat = category_of(category)
    pixels = _check_size(size)
    return (
        f"{_open(pixels, pixels, (100, 100), 'SCAN ' + _label(cat, design_id))}"
        f"{_quarter(cat, design_id, colour_blind)}</svg>"
    )


def _card_ids(designs: Mapping[Category | str, int] | Sequence[int]) -> tuple[int, ...]:
    """The design ids of a card in category order; raises ``ValueError`` if not four valid ids."""
    if isinstance(designs, Mapping):
        by_category = {category_of(c): i for c, i in designs.items()}
        if len(by_category) != len(designs) or set(by_category) != set(CATEGORIES):
            raise ValueError(
                "a card needs exactly one design id per category "
                f"(shape, pattern, position, colour), not {dict(designs)!r}"
            )
        ids = tuple(by_category[c] for c in CATEGORIES)
    elif isinstance(designs, Sequence) and not isinstance(designs, str | bytes):
        if len(designs) != len(CATEGORIES):
            raise ValueError(f"a card needs 4 design ids, not {len(designs)}: {designs!r}")
        ids = tuple(designs)
    else:
        raise ValueError(f"a card is a dict of category to design id or 4 ids, not {designs!r}")
    for category, design_id in zip(CATEGORIES, ids, strict=True):
        design(category, design_id)
    return ids


def card_svg(
    designs: Mapping[Category | str, int] | Sequence[int],
    back: str = "tan",
    colour_blind: bool = False,
    size: int = 200,
) -> str:
    """A whole SCAN card as a standalone SVG document, ``size`` pixels square.

    ``designs`` is a dict from category to design id, or the four ids in card order (shape,
    pattern, position, colour). ``back`` is "tan" or "blue". Each quarter sits in its fixed
    place on the rounded card. Raises ``ValueError`` for missing, extra or invalid designs, an
    unknown back, or a size that is not a positive number.

    >>> card_svg({"shape": 1, "pattern": 2, "position": 3, "colour": 4}) == card_svg((1, 2, 3, 4))
    True
    """
    ids = _card_ids(designs)
    if back not in BACKS:
        raise ValueError(f"a SCAN card is tan or blue, not {back!r}")
    pixels = _check_size(size)
    fill, edge = BACKS[back]
    label = f"{back} SCAN card; " + "; ".join(
        _label(c, i) for c, i in zip(CATEGORIES, ids, strict=True)
    )
    parts = [
        _open(pixels, pixels, (CARD, CARD), label),
        f'<g class="scan-card" data-back="{back}">',
        f'<rect x="1" y="1" width="198" height="198" rx="15" fill="{fill}" stroke="{edge}" '
        'stroke-width="2"/>',
    ]
    for index, (category, design_id) in enumerate(zip(CATEGORIES, ids, strict=True)):
        x = MARGIN + (index % 2) * (QUARTER + GAP)
        y = MARGIN + (index // 2) * (QUARTER + GAP)
        parts.append(
            f'<svg x="{_n(x)}" y="{_n(y)}" width="{_n(QUARTER)}" height="{_n(QUARTER)}" '
            f'viewBox="0 0 100 100">{_quarter(category, design_id, colour_blind)}</svg>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def bluffo_svg(size: int = 200) -> str:
    """The Bluffo card (C10, worth 2 points) as a standalone SVG document, ``size`` pixels square.

    Raises ``ValueError`` for a size that is not a positive number.

    >>> "BLUFFO" in bluffo_svg()
    True
    """
    pixels = _check_size(size)
    text = f'font-family="{FONT}" font-weight="bold" text-anchor="middle"'
    corner = f'{text} font-size="20" fill="{BLUFFO_INK}"'
    return "".join(
        [
            _open(pixels, pixels, (CARD, CARD), "SCAN Bluffo card, 2 points"),
            '<g class="scan-bluffo">',
            f'<rect x="1" y="1" width="198" height="198" rx="15" fill="{BLUFFO_INK}" '
            'stroke="#22142F" stroke-width="2"/>',
            f'<rect x="{_n(MARGIN)}" y="{_n(MARGIN)}" width="{_n(CARD - 2 * MARGIN)}" '
            f'height="{_n(CARD - 2 * MARGIN)}" rx="10" fill="{PANEL}"/>',
            f'<rect x="15" y="15" width="170" height="170" rx="7" fill="none" '
            f'stroke="{BLUFFO_INK}" stroke-width="1.2" stroke-dasharray="4 3"/>',
            f'<circle cx="100" cy="84" r="40" fill="{BLUFFO_INK}"/>',
            f'<circle cx="100" cy="84" r="34" fill="none" stroke="{PANEL}" stroke-width="1.5"/>',
            f'<text x="100" y="105" {text} font-size="58" fill="{PANEL}">?</text>',
            f'<text x="101.5" y="153" {text} font-size="22" letter-spacing="3" '
            f'fill="{BLUFFO_INK}">BLUFFO</text>',
            f'<text x="31" y="41" {corner}>2</text>',
            f'<text x="169" y="173" {corner} transform="rotate(180 169 166)">2</text>',
            "</g></svg>",
        ]
    )


def _caption(category: Category, design_id: int) -> str:
    """A design's features in a few words, for the caption under it on a sheet."""
    d = design(category, design_id)
    if isinstance(d, ShapeDesign):
        return f"{d.top} · {d.sides} · {d.lobes} lobe{'s' if d.lobes > 1 else ''}"
    if isinstance(d, PositionDesign):
        return f"row {d.row + 1} · column {d.column + 1}"
    return describe(category, design_id).replace(" lines", "").replace(", ", " · ")


def sheet_svg(category: Category | str, colour_blind: bool = False, columns: int = 6) -> str:
    """All 23 designs of ``category`` side by side, each with its id and a short description.

    A review sheet for people, not a game component. Raises ``ValueError`` for an unknown
    category or a column count that is not a positive int.

    >>> sheet_svg("position").count('class="scan-quarter"')
    23
    """
    cat = category_of(category)
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ValueError(f"columns must be a positive int, not {columns!r}")
    tile, cell_w, cell_h, pad, head = 112.0, 150.0, 152.0, 24.0, 58.0
    rows = -(-DESIGNS_PER_CATEGORY // columns)
    width = 2 * pad + columns * cell_w
    height = head + pad + rows * cell_h
    title = f"SCAN {cat.value} designs" + (" (colour-blind mode)" if colour_blind else "")
    parts = [
        _open(width, height, (width, height), title),
        f'<rect width="{_n(width)}" height="{_n(height)}" fill="#EFEBE2"/>',
        f'<text x="{_n(pad)}" y="38" font-family="{FONT}" font-size="22" font-weight="bold" '
        f'fill="{INK}">SCAN · {cat.value.upper()}</text>',
        f'<text x="{_n(width - pad)}" y="38" font-family="{FONT}" font-size="12" '
        f'text-anchor="end" fill="#5A5448">{DESIGNS_PER_CATEGORY} designs, ids 0–'
        f"{DESIGNS_PER_CATEGORY - 1}{' · colour-blind mode' if colour_blind else ''}</text>",
    ]
    for design_id in range(DESIGNS_PER_CATEGORY):
        x = pad + (design_id % columns) * cell_w
        y = head + (design_id // columns) * cell_h
        middle = x + cell_w / 2
        parts.append(
            f'<svg x="{_n(middle - tile / 2)}" y="{_n(y)}" width="{_n(tile)}" '
            f'height="{_n(tile)}" viewBox="0 0 100 100">'
            f"{_quarter(cat, design_id, colour_blind)}</svg>"
        )
        parts.append(
            f'<text x="{_n(middle)}" y="{_n(y + tile + 17)}" font-family="{FONT}" '
            f'font-size="14" font-weight="bold" text-anchor="middle" fill="{INK}">'
            f"{design_id:02d}</text>"
        )
        parts.append(
            f'<text x="{_n(middle)}" y="{_n(y + tile + 31)}" font-family="{FONT}" '
            f'font-size="9" text-anchor="middle" fill="#5A5448">'
            f"{escape(_caption(cat, design_id))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def deck_files(colour_blind: bool = False, seed: int | str | None = 0) -> dict[str, str]:
    """Every SCAN drawing a person may want to look at, as file name → SVG text.

    One file per design (``shape-00.svg`` … ``colour-22.svg``), one sheet per category
    (``sheet-shape.svg`` …), the Bluffo card (``bluffo.svg``), two sample cards and, unless
    ``seed`` is ``None``, the whole deck of the game with that seed (the pairing of designs
    into cards depends on the seed, C3): ``tan-00.svg`` … ``tan-22.svg`` and ``blue-00.svg`` …
    ``blue-22.svg``.

    >>> files = deck_files()
    >>> len(files), "colour-22.svg" in files, "tan-22.svg" in files, "blue-00.svg" in files
    (145, True, True, True)
    >>> len(deck_files(seed=None))
    99
    """
    files = {}
    for category in CATEGORIES:
        for design_id in range(DESIGNS_PER_CATEGORY):
            name = f"{category.value}-{design_id:02d}.svg"
            files[name] = quarter_svg(category, design_id, colour_blind, size=200)
    for category in CATEGORIES:
        files[f"sheet-{category.value}.svg"] = sheet_svg(category, colour_blind)
    files["bluffo.svg"] = bluffo_svg()
    for name, (ids, back) in SAMPLE_CARDS.items():
        files[name] = card_svg(ids, back, colour_blind)
    if seed is not None:
        from parlour.games.scan.cards import deal_deck

        tan, blue = deal_deck(seed)
        for i, card in enumerate(tan):
            files[f"tan-{i:02d}.svg"] = card_svg(card, "tan", colour_blind)
        for i, card in enumerate(blue):
            files[f"blue-{i:02d}.svg"] = card_svg(card, "blue", colour_blind)
    return files


def sprite_svg(colour_blind: bool = False) -> str:
    """Every quarter design as an SVG sprite for the browser: one ``<symbol>`` per design, with
    the id ``<category>-<design id>`` (e.g. ``shape-7``), a 100×100 view box and its words as
    the title, so that a page draws a card with four ``<use href="#shape-7">``.

    >>> sprite = sprite_svg()
    >>> sprite.count("<symbol"), 'id="colour-22"' in sprite
    (92, True)
    """
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" style="display:none">']
    for category in CATEGORIES:
        for design_id in range(DESIGNS_PER_CATEGORY):
            # data-f: the design's features, for a page that words them in its own language
            words = " ".join(str(f) for f in features(design(category, design_id)))
            parts.append(
                f'<symbol id="{category.value}-{design_id}" viewBox="0 0 100 100"'
                f' data-f="{escape(words)}">'
                f"<title>{escape(describe(category, design_id))}</title>"
                f"{_quarter(category, design_id, colour_blind)}</symbol>"
            )
    parts.append("</svg>")
    return "".join(parts)


def designs(colour_blind: bool = False) -> str:
    """The SCAN page's drawings (:func:`sprite_svg`), served at ``/scan/designs.svg``."""
    return sprite_svg(colour_blind)


def drawings(colour_blind: bool = False) -> dict[str, str]:
    """Every SCAN drawing as files (:func:`deck_files`), written by ``parlour cards scan``."""
    return deck_files(colour_blind=colour_blind)
