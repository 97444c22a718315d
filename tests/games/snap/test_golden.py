"""The golden playthrough: one seeded 4-player game, every input and every view."""

from __future__ import annotations

import difflib

from tests.games.snap.make_golden import GOLDEN, playthrough


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
            "the SNAP rules changed the golden playthrough; if that is deliberate, run "
            f"'python -m tests.games.snap.make_golden' and review the diff:\n{diff}"
        )


def test_golden_game_is_a_real_game() -> None:
    text = GOLDEN.read_text()
    assert text.splitlines()[-1].startswith('outcome: {"cards_held"')
    for kind in ('"type":"win"', '"type":"tie"', '"verdict":"false"', '"verdict":"late"'):
        assert kind in text, f"the golden game has no {kind}"
