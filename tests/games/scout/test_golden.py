"""The golden playthrough: one seeded 4-player game, every action and every view."""

from __future__ import annotations

import difflib

from tests.games.scout.make_golden import GOLDEN, playthrough


def test_golden_playthrough_is_unchanged() -> None:
    expected = GOLDEN.read_text()
    actual = playthrough()
    if actual != expected:
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
            "the SCOUT rules changed the golden playthrough; if that is deliberate, run "
            f"'make golden' and review the diff:\n{diff}"
        )
