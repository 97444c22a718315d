"""The golden playthrough: one seeded 4-player game, every input and every view."""

from __future__ import annotations

from tests.games.golden import assert_golden
from tests.games.snap.make_golden import GOLDEN, playthrough


def test_golden_playthrough_is_unchanged() -> None:
    assert_golden(GOLDEN, playthrough(), "snap")


def test_golden_game_is_a_real_game() -> None:
    text = GOLDEN.read_text()
    assert text.splitlines()[-1].startswith('outcome: {"cards_held"')
    for kind in ('"type":"win"', '"type":"tie"', '"verdict":"false"', '"verdict":"late"'):
        assert kind in text, f"the golden game has no {kind}"
