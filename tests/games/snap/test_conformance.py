"""The conformance check (parlour.core.conformance) on hundreds of seeded SNAP games.

Random players call "Snap!" at random times (mostly false calls), flip when they may, and let
the deadlines pass (race decisions, flips opening, turn timers); every player count and every
option is covered, including zero-length timings. 272 games are checked in all, 22 of them
with every seat's and a spectator's view (the loop ending is covered by the rule tests).
"""

from __future__ import annotations

from typing import Any

import pytest

from parlour.core.conformance import check_game
from parlour.games.snap import GAME, SnapOptions

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"match": "rank_and_colour"}),
    (3, {}),
    (3, {"shuffle_on_recycle": True}),
    (4, {}),
    (4, {"index_card": True}),
    (5, {"match": "rank_and_colour", "shuffle_on_recycle": True}),
    (6, {"tie_window_ms": 150, "late_call_ms": 2000, "reveal_delay_max_ms": 2000}),
    (
        7,
        {
            "min_flip_interval_ms": 0,
            "turn_timer_ms": 0,
            "decision_window_ms": 0,
            "late_call_ms": 0,
            "reveal_delay_min_ms": 0,
            "reveal_delay_max_ms": 0,
        },
    ),
    (9, {"index_card": True, "match": "rank_and_colour"}),
    (12, {}),
]
GAMES = 20
"""Random games per configuration: legality, invariants, refusals, round trips, replay."""
VIEW_GAMES = 2
"""Games per configuration in which the views are checked too."""
SEED_BASE = 10**12
"""Large seeds, so that the seed cannot turn up in a view by coincidence."""


def _id(config: tuple[int, dict[str, Any]]) -> str:
    players, options = config
    return f"{players}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "defaults")


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_games_conform(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    for i in range(GAMES):
        check_game(
            GAME, SnapOptions(players, **options), SEED_BASE + i, views=False, seats=range(players)
        )


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_views_never_leak(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    for i in range(VIEW_GAMES):
        check_game(
            GAME, SnapOptions(players, **options), SEED_BASE + 5_000 + i, seats=range(players)
        )


def test_random_games_end_in_several_ways() -> None:
    reasons = set()
    for i in range(30):
        players = 2 + i % 3
        options = SnapOptions(players, match="rank_and_colour" if i % 2 else "rank")
        record = check_game(GAME, options, SEED_BASE + 9_000 + i, views=False, seats=range(players))
        reasons.add(record.final.over)
    assert reasons >= {"last_seat", "dead_position"}
