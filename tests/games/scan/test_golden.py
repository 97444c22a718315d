"""The golden playthrough: one seeded 4-player game, every input and every view."""

from __future__ import annotations

import difflib

from tests.games.scan.make_golden import GOLDEN, playthrough


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
            "the SCAN rules changed the golden playthrough; if that is deliberate, run "
            f"'python -m tests.games.scan.make_golden' and review the diff:\n{diff}"
        )


def test_golden_playthrough_covers_the_races() -> None:
    text = GOLDEN.read_text()
    for needle in ('"type":"draw"', '"verdict":"beaten"', '"verdict":"claim"', '"type":"choose"'):
        assert needle in text, needle
    assert len(text) < 600_000
