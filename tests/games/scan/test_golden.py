"""The golden playthrough: one seeded 4-player game, every input and every view."""

from __future__ import annotations

from tests.games.golden import assert_golden
from tests.games.scan.make_golden import GOLDEN, playthrough


def test_golden_playthrough_is_unchanged() -> None:
    assert_golden(GOLDEN, playthrough(), "scan")


def test_golden_playthrough_covers_the_races() -> None:
    text = GOLDEN.read_text()
    for needle in ('"type":"draw"', '"verdict":"late"', '"verdict":"claim"', '"type":"choose"'):
        assert needle in text, needle
    assert len(text) < 600_000
