"""The conformance check (parlour.core.conformance) on thousands of seeded SCOUT games.

Random 4- and 5-player games are long (hundreds of moves: random players scout a lot), so they
get fewer games; 2200 games are checked in all.
"""

from __future__ import annotations

import pytest

from parlour.core.conformance import check_game
from parlour.games.scout import GAME, ScoutOptions

GAMES = {2: 800, 3: 800, 4: 400, 5: 200}
"""Random games per player count: legality, invariants, refusals, round trips, replay."""
VIEW_GAMES = {2: 40, 3: 40, 4: 15, 5: 8}
"""Games per player count in which every seat's and a spectator's view is checked too."""
CHUNKS = 4
SEED_BASE = 10**12
"""Large seeds, so that the seed cannot turn up in a view by coincidence."""


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_conform(players: int, chunk: int) -> None:
    per_chunk = GAMES[players] // CHUNKS
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        check_game(GAME, ScoutOptions(players), SEED_BASE + i, views=False, seats=range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_never_leak(players: int) -> None:
    for i in range(VIEW_GAMES[players]):
        check_game(GAME, ScoutOptions(players), SEED_BASE + 7_000 + i, seats=range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_legal_action_applies(players: int) -> None:
    for i in range(5):
        check_game(
            GAME,
            ScoutOptions(players),
            SEED_BASE + 9_000 + i,
            views=False,
            all_actions=True,
            seats=range(players),
        )


def test_two_player_games_without_unspent_chips_conform() -> None:
    for i in range(100):
        check_game(GAME, ScoutOptions(2, count_unspent_chips=False), SEED_BASE + i, seats=(0, 1))
