"""The conformance check (parlour.core.conformance) on hundreds of seeded SCAN games.

Random players touch a random blue card, so most rounds end with every seat disqualified or on
the round timer; the option variants below (a wide tie window, no decision window, long
anticipation...) make draws, beaten slaps, anticipations and confirmation windows common too.
Games with an empty Bluffo stack ("no match" calls) start from explicit positions.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from parlour.core import Timeout
from parlour.core.conformance import check_game, check_view
from parlour.games.scan import (
    GAME,
    ScanOptions,
    apply,
    check_invariants,
    deadline,
    legal_actions,
    outcome,
    to_act,
)
from tests.games.scan.helpers import position

SEED_BASE = 10**12
"""Large seeds, so that the seed cannot turn up in a view by coincidence."""

VARIANTS: list[dict[str, Any]] = [
    {},
    {"bluffo": True},
    {"dealers_choice": True, "category": "random"},
    {"bluffo": True, "dealers_choice": True, "category": "colour"},
    {"bluffo": True, "tie_window_ms": 2_000, "decision_window_ms": 3_000, "round_timer_ms": 6_000},
    {"bluffo": True, "decision_window_ms": 0, "confirm_window_ms": 0, "reveal_pause_ms": 0},
    {"dealers_choice": True, "choice_timer_ms": 0, "anticipation_ms": 3_000},
    {"bluffo": True, "category": "position", "tie_window_ms": 0, "round_timer_ms": 2_000},
]
"""Option sets the random games cycle through (every player count meets every one)."""

GAMES_PER_COUNT = 40
"""Random one-game matches per player count (2..8): 280 in all."""


def options(players: int, i: int, **extra: Any) -> ScanOptions:
    return ScanOptions(players, **{**VARIANTS[i % len(VARIANTS)], **extra})


@pytest.mark.parametrize("players", range(2, 9))
def test_random_games_conform(players: int) -> None:
    for i in range(GAMES_PER_COUNT):
        seed = SEED_BASE + 1_000 * players + i
        views = i % 8 == 0  # views on a subset: they are the costly part
        check_game(GAME, options(players, i), seed, views=views, seats=range(players))


@pytest.mark.parametrize("players", [2, 4, 7])
def test_four_in_a_row_series_conform(players: int) -> None:
    for i, bluffo in enumerate((False, True)):
        opts = ScanOptions(players, four_in_a_row=True, bluffo=bluffo, category="random")
        seed = SEED_BASE + 50_000 + 10 * players + i
        check_game(GAME, opts, seed, views=bluffo, view_stride=60, seats=range(players))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_legal_action_applies(players: int) -> None:
    for i in range(2):
        check_game(
            GAME,
            options(players, i + 1),
            SEED_BASE + 70_000 + 10 * players + i,
            views=False,
            all_actions=True,
            seats=range(players),
        )


def test_empty_bluffo_stack_games_conform() -> None:
    """From positions where the Bluffo stack is empty (the "no match" call) and the revealed
    card may have no match: random play keeps the invariants, every legal action applies,
    views leak nothing and replay rebuilds the state."""
    for trial, (players, missing) in enumerate(itertools.product([2, 3, 5], [(), (0,), (0, 3)])):
        rng = random.Random(trial)
        held = [1, 1, 1] + [0] * (players - 3) if players >= 3 else [2, 1]
        seed = SEED_BASE + trial
        start = position(players, size=8, missing=missing, bluffo=True, bluffos=held, seed=seed)
        assert start.stack == 0
        state, now, moves = start, start.time_ms, []
        while outcome(state) is None:
            check_invariants(state)
            seats, due = to_act(state), deadline(state)
            assert due is not None and due >= now
            if seats and rng.random() < 0.7:
                now = rng.randint(now, due)
                seat: int | None = rng.choice(seats)
                legal = legal_actions(state, seat)  # type: ignore[arg-type]
                for action in legal:
                    check_invariants(apply(state, seat, action, now))  # type: ignore[arg-type]
                action: Any = rng.choice(legal)
            else:
                now, seat, action = due, None, Timeout()
            for viewer in [*range(players), None]:
                check_view(GAME, state, viewer, rng)
            moves.append((seat, action, now))
            state = apply(state, seat, action, now)  # type: ignore[arg-type]
        again = start
        for seat, action, now in moves:
            again = apply(again, seat, action, now)  # type: ignore[arg-type]
        assert again == state
