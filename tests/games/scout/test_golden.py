"""The golden playthrough: one seeded 4-player game, every action and every view."""

from __future__ import annotations

from tests.games.golden import assert_golden
from tests.games.scout.make_golden import GOLDEN, playthrough


def test_golden_playthrough_is_unchanged() -> None:
    assert_golden(GOLDEN, playthrough(), "scout")
