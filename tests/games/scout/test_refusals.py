"""Why a group cannot be shown (S8, S9): ``show_refusal`` and ``refusals`` give the same answer
as ``legal_actions`` and ``apply`` — the one rule the page's "why" comes from."""

from __future__ import annotations

import random

import pytest

from parlour.core import IllegalAction
from parlour.games import scout
from parlour.games.scout import Show, legal_actions, refusals, show_refusal, state_from_deal
from parlour.games.scout.state import PLAY_PHASE


def test_S8_S9_each_reason() -> None:
    # the table shows a run 5-6 (seat 1); seat 0 holds 3 4 6 6 9
    hands = [[(3, 1), (4, 2), (6, 1), (6, 2), (9, 1)], [(5, 1), (6, 3), (1, 2)]]
    state = state_from_deal(hands, start_seat=1, decide_flips=True)
    state = scout.apply(state, 1, Show(0, 2))
    assert show_refusal(state, 0, 0, 2) == "does_not_beat"  # 3-4: a run of two, smaller
    assert show_refusal(state, 0, 1, 2) == "not_a_group"  # 4-6
    assert show_refusal(state, 0, 2, 2) is None  # 6-6: a set beats a run
    assert show_refusal(state, 0, 4, 2) == "not_adjacent"  # past the end of the hand
    assert show_refusal(state, 0, 0, 0) == "not_adjacent"
    with pytest.raises(IllegalAction, match="neither a set"):
        scout.apply(state, 0, Show(1, 2))
    with pytest.raises(IllegalAction, match="does not beat"):
        scout.apply(state, 0, Show(0, 2))
    assert refusals(state, 1) == {}  # not seat 1's turn
    found = refusals(state, 0)
    assert found["1:2"] == "not_a_group" and "2:2" not in found and found["0:2"] == "does_not_beat"


def test_refusals_agree_with_legal_actions_and_apply() -> None:
    rng = random.Random(13)
    checked = 0
    for game in range(12):
        state = scout.new_state({"players": 2 + game % 4}, seed=game)
        while scout.outcome(state) is None:
            seat = scout.to_act(state)[0]
            actions = legal_actions(state, seat)
            if state.phase == PLAY_PHASE:
                shows = {(a.start, a.length) for a in actions if isinstance(a, Show)}
                why = refusals(state, seat)
                n = len(state.hands[seat])
                for start in range(n):
                    for length in range(1, n - start + 1):
                        legal = (start, length) in shows
                        assert (f"{start}:{length}" not in why) == legal
                        if not legal and rng.random() < 0.05:
                            with pytest.raises(IllegalAction):
                                scout.apply(state, seat, Show(start, length))
                        checked += 1
            state = scout.apply(state, seat, rng.choice(actions))
    assert checked > 10_000
