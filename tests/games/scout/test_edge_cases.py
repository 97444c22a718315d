"""One test per numbered edge case of shared/rules/scout.md ("Edge cases every engine test suite
covers"), named after its number."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour.core import IllegalAction
from parlour.games.scout import (
    FLIP,
    KEEP,
    Scout,
    ScoutOptions,
    ScoutShow,
    Show,
    apply,
    check_invariants,
    group_key,
    legal_actions,
    new_state,
    outcome,
    to_act,
)
from parlour.games.scout.cards import canonical
from tests.games.scout.helpers import position, ups


def play_round(state, rng):  # type: ignore[no-untyped-def]
    start_round = state.round
    while outcome(state) is None and state.round == start_round:
        seat = to_act(state)[0]
        state = apply(state, seat, rng.choice(legal_actions(state, seat)))
    return state


def test_edge01_cards_per_player_count() -> None:
    for players, in_hands, each in ((2, 22, 11), (3, 36, 12), (4, 44, 11), (5, 45, 9)):
        state = new_state(ScoutOptions(players), 3)
        assert sum(len(h) for h in state.hands) == in_hands
        assert {len(h) for h in state.hands} == {each}
    two = new_state(ScoutOptions(2), 3)
    aside = {canonical(c) for c in two.set_aside}
    assert len(aside) == 22
    two = play_round(two, random.Random(0))
    assert {canonical(c) for h in two.hands for c in h} == aside


def test_edge02_orientation_is_random() -> None:
    seen: Counter[int] = Counter()
    for seed in range(200):
        for hand in new_state(ScoutOptions(4), seed).hands:
            seen.update(1 if c[0] < c[1] else 0 for c in hand)
    assert 0.45 < seen[1] / (seen[0] + seen[1]) < 0.55


def test_edge03_flip_decided_once_per_seat_per_round_before_the_first_action() -> None:
    rng = random.Random(1)
    state = new_state(ScoutOptions(3), 5)
    for _ in range(3):  # three rounds
        assert to_act(state) == (0, 1, 2) and state.phase == 0
        state = apply(state, 0, FLIP)
        with pytest.raises(IllegalAction):
            apply(state, 0, KEEP)
        state = apply(apply(state, 1, KEEP), 2, KEEP)
        assert state.phase == 1
        state = play_round(state, rng)
    assert outcome(state) is not None


@pytest.mark.parametrize(
    ("values", "valid"),
    [([7], True), ([5, 4, 3], True), ([3, 4], True), ([6, 6, 6], True), ([3, 5, 4], False),
     ([10, 1], False), ([4, 4, 5], False)],
)  # fmt: skip
def test_edge04_groups(values: list[int], valid: bool) -> None:
    assert (group_key(values) > 0) is valid


def test_edge04_non_adjacent_cards_are_not_a_group() -> None:
    state = position([[6, 2, 6], [1, 9]], turn=0)
    assert Show(0, 3) not in legal_actions(state, 0)  # 6 _ 6 is not a pair


def test_edge05_first_action_of_a_round_must_be_a_show() -> None:
    for players in (2, 3, 4, 5):
        state = new_state(ScoutOptions(players), 8)
        for seat in to_act(state):
            state = apply(state, seat, KEEP)
        assert all(isinstance(a, Show) for a in legal_actions(state, to_act(state)[0]))


@pytest.mark.parametrize(
    ("group", "show", "beats"),
    [([1, 1], [9, 10], True), ([1, 2, 3], [10, 10], True), ([6, 7], [5, 6], True),
     ([6, 5], [5, 6], False), ([8, 8], [8, 8], False), ([9], [7], True), ([7], [7], False)],
)  # fmt: skip
def test_edge06_comparisons(group: list[int], show: list[int], beats: bool) -> None:
    assert (group_key(group) > group_key(show)) is beats


def test_edge07_comparison_is_against_the_reduced_show() -> None:
    state = position([[6, 7, 1], [4, 5, 2], [9, 9]], turn=2, active=[4, 5, 6], owner=0)
    state = apply(state, 2, Scout("left", False, 0))
    assert ups(state.active) == [5, 6]
    state = apply(state, 0, Show(0, 2))  # [6, 7] beats [5, 6]
    other = position([[4, 5, 1], [6, 7, 2], [9, 9]], turn=2, active=[4, 5, 6], owner=1)
    other = apply(other, 2, Scout("left", False, 0))
    with pytest.raises(IllegalAction, match="does not beat"):
        apply(other, 0, Show(0, 2))  # [4, 5] does not beat the reduced [5, 6]


def test_edge08_scouting_a_one_card_show_leaves_no_active_show() -> None:
    state = position([[1, 2], [9, 3], [5, 7]], turn=1, active=[4], owner=0)
    state = apply(state, 1, Scout("right", True, 2))
    assert state.active == ()
    state = apply(state, 2, Show(1, 1))
    assert state.piles == ((), (), ())


def test_edge09_every_scout_pays_the_owner_a_chip() -> None:
    state = position([[6, 8, 1], [2, 3, 4], [9, 9]], turn=0, active=[5, 6, 7], owner=1)
    state = apply(state, 0, ScoutShow("right", False, 1))
    assert state.chips == (0, 1, 0)
    state = apply(state, 0, Show(0, 3))
    state = apply(state, 1, Scout("left", False, 0))
    assert state.chips == (1, 1, 0)


def test_edge10_scout_and_show() -> None:
    state = position([[6, 8, 1], [2, 3, 4], [9, 9]], turn=0, active=[5, 6, 7], owner=1)
    state = apply(state, 0, ScoutShow("right", False, 1))
    with pytest.raises(IllegalAction):  # the Show must beat the reduced show [5, 6]
        apply(state, 0, Show(3, 1))
    state = apply(state, 0, Show(0, 3))  # 6 7 8
    assert state.owner == 0 and state.scouts == 0 and not state.scout_show[0]
    two = position([[6, 8], [2, 3]], turn=0, active=[7], owner=1, options=ScoutOptions(2))
    assert not any(isinstance(a, ScoutShow) for a in legal_actions(two, 0))
    done = position([[6, 8], [2, 3, 4], [9, 9]], turn=0, active=[7], owner=1)
    done = apply(apply(done, 0, ScoutShow("left", False, 1)), 0, Show(0, 3))
    assert done.results[-1].reason == "hand_empty"


def test_edge11_four_players_round_ends_after_three_scouts() -> None:
    state = position([[5, 9, 1], [2, 7, 7], [8, 8, 8, 3], [10, 4, 6]], turn=0)
    for seat, action in [(0, Show(0, 1)), (1, Scout("left", False, 0)), (2, Show(0, 3)),
                         (3, Scout("left", False, 0)), (0, Scout("left", False, 0)),
                         (1, Scout("left", False, 0))]:  # fmt: skip
        assert not state.results
        state = apply(state, seat, action)
    assert state.results[-1].reason == "scouted_out"
    assert [s.exempt for s in state.results[-1].seats] == [False, False, True, False]


def test_edge12_three_players_show_scouted_empty() -> None:
    state = position([[5, 6, 1], [2, 9], [8, 3]], turn=0)
    state = apply(state, 0, Show(0, 2))
    state = apply(state, 1, Scout("left", False, 0))
    state = apply(state, 2, Scout("right", False, 0))
    assert state.results[-1].seat == 0 and state.results[-1].seats[0].exempt


def test_edge13_three_to_five_players_always_have_a_legal_action() -> None:
    rng = random.Random(13)
    for players in (3, 4, 5):
        for seed in range(15):
            state = new_state(ScoutOptions(players), seed)
            while outcome(state) is None:
                seats = to_act(state)
                assert seats and all(legal_actions(state, s) for s in seats)
                state = apply(state, seats[0], rng.choice(legal_actions(state, seats[0])))


def test_edge14_two_player_scouting() -> None:
    two = ScoutOptions(2)
    state = position([[1, 2, 9], [7, 3]], turn=0, active=[5, 6], owner=1, chips=[1, 3], options=two)
    assert not any(isinstance(a, ScoutShow) for a in legal_actions(state, 0))
    state = apply(state, 0, Scout("left", False, 3))
    assert to_act(state) == (0,) and state.chips == (0, 3)
    with pytest.raises(IllegalAction):
        apply(state, 0, Scout("left", False, 0))
    stuck = position([[8, 8, 1], [2, 5, 9]], turn=0, chips=[3, 0], options=two)
    stuck = apply(stuck, 0, Show(0, 2))
    assert stuck.results[-1].reason == "stuck"


def test_edge15_scoring_example() -> None:
    state = position([[9, 8, 1, 3, 5], [3, 6, 7], [8, 4]], turn=0, piles=[5, 2, 0], chips=[0, 1, 0])
    state = apply(state, 0, Show(0, 2))
    state = apply(state, 1, Scout("left", False, 0))
    state = apply(state, 2, Scout("left", False, 0))
    assert [s.points for s in state.results[-1].seats][:2] == [7, -1]


def test_edge16_starting_seat_rotates() -> None:
    rng = random.Random(16)
    state = new_state(ScoutOptions(5), 16)
    first = state.start_seat
    for r in range(5):
        assert state.start_seat == (first + r) % 5
        state = play_round(state, rng)


def test_edge17_cards_are_conserved_at_every_moment() -> None:
    rng = random.Random(17)
    for players in (2, 3, 4, 5):
        state = new_state(ScoutOptions(players), 17)
        while outcome(state) is None:
            check_invariants(state)
            seat = to_act(state)[0]
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
