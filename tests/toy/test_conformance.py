"""TOY passes the conformance check every game passes (``parlour.core.conformance``)."""

from __future__ import annotations

import pytest

from parlour.core.conformance import check_game
from tests.toy import GAME, ToyOptions

SEED_BASE = 10**12


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("deck", ["short", "long"])
def test_random_games_conform(players: int, deck: str) -> None:
    for i in range(60):
        options = ToyOptions(players, deck, low_wins=i % 2 == 1)
        check_game(GAME, options, SEED_BASE + i, seats=range(players), all_actions=True)
