"""The golden-file comparison every game's golden playthrough test uses."""

from __future__ import annotations

import difflib
from pathlib import Path


def assert_golden(path: Path, actual: str, game: str) -> None:
    """Raise ``AssertionError`` with a readable diff if ``actual`` differs from the file."""
    expected = path.read_text()
    if actual == expected:
        return
    diff = "".join(
        list(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                "golden",
                "now",
                n=1,
            )
        )[:60]
    )
    raise AssertionError(
        f"the {game.upper()} rules changed the golden playthrough; if that is deliberate, run "
        f"'python -m tests.games.{game}.make_golden' (or 'make golden') and review the diff:\n"
        f"{diff}"
    )
