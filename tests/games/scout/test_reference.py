"""The fast legal-move code against a plain reading of the rules, on many random positions."""

from __future__ import annotations

import itertools
import random

import pytest

from parlour.games.scout import (
    FLIP,
    KEEP,
    Scout,
    ScoutOptions,
    ScoutShow,
    Show,
    State,
    apply,
    legal_actions,
    new_state,
    outcome,
    to_act,
)


def plain_key(values: list[int]) -> tuple[int, int, int] | None:
    """S8/S9 as written: (count, set beats run, smallest number), or None if not a group."""
    if len(values) == 1:
        return (1, 1, values[0])
    steps = {b - a for a, b in itertools.pairwise(values)}
    if steps == {0}:
        return (len(values), 1, min(values))
    if steps in ({1}, {-1}):
        return (len(values), 0, min(values))
    return None


def plain_shows(values: list[int], active: list[int]) -> set[tuple[int, int]]:
    target = plain_key(active) if active else None
    out = set()
    for start in range(len(values)):
        for length in range(1, len(values) - start + 1):
            key = plain_key(values[start : start + length])
            if key is not None and (target is None or key > target):
                out.add((start, length))
    return out


def plain_legal(state: State, seat: int) -> set[object]:
    if state.phase == 0:
        return {FLIP, KEEP} if state.flips[seat] is None else set()
    if state.phase != 1 or seat != state.turn:
        return set()
    values = [c[0] for c in state.hands[seat]]
    active = [c[0] for c in state.active]
    legal: set[object] = {Show(s, n) for s, n in plain_shows(values, active)}
    if state.pending or not active:
        return legal
    players = len(state.hands)
    for end in ("left", "right"):
        card = state.active[0] if end == "left" else state.active[-1]
        rest = active[1:] if end == "left" else active[:-1]
        for rotate in (False, True):
            number = card[1] if rotate else card[0]
            for insert in range(len(values) + 1):
                if players > 2 or state.chips[seat] > 0:
                    legal.add(Scout(end, rotate, insert))
                if players > 2 and state.scout_show[seat]:
                    new_hand = [*values[:insert], number, *values[insert:]]
                    if plain_shows(new_hand, rest):
                        legal.add(ScoutShow(end, rotate, insert))
    return legal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_actions_match_the_plain_rules(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(60):
        state = new_state(ScoutOptions(players), seed)
        while outcome(state) is None:
            for seat in range(players):
                fast = legal_actions(state, seat)
                assert len(fast) == len(set(fast)), "an action is listed twice"
                assert set(fast) == plain_legal(state, seat)
                checked += 1
            seat = to_act(state)[0]
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
    assert checked > 1000
