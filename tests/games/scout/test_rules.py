"""One test per rule of shared/rules/scout.md (S1–S18), named after its id."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour.core import GameOver, IllegalAction, NotYourTurn
from parlour.games import scout
from parlour.games.scout import (
    FLIP,
    KEEP,
    Scout,
    ScoutOptions,
    ScoutShow,
    Show,
    apply,
    group_key,
    legal_actions,
    new_state,
    outcome,
    state_from_deal,
    to_act,
    view,
)
from parlour.games.scout.cards import DECK, canonical, deck_for
from tests.games.scout.helpers import CardPicker, position, ups


def decide_all(state: scout.State, choice: scout.Flip = KEEP) -> scout.State:
    for seat in to_act(state):
        state = apply(state, seat, choice)
    return state


def test_S1_deck_has_45_cards_one_per_pair() -> None:
    assert len(DECK) == 45
    assert set(DECK) == {(a, b) for a in range(1, 11) for b in range(1, 11) if a < b}
    assert all(a != b for a, b in DECK)


@pytest.mark.parametrize(
    ("players", "used", "hand", "missing"),
    [
        (2, 44, 11, {(9, 10)}),
        (3, 36, 12, {c for c in DECK if 10 in c}),
        (4, 44, 11, {(9, 10)}),
        (5, 45, 9, set()),
    ],
)
def test_S2_cards_by_player_count(players: int, used: int, hand: int, missing: set) -> None:
    assert len(deck_for(players)) == used
    assert set(DECK) - set(deck_for(players)) == missing
    for seed in range(20):
        state = new_state(ScoutOptions(players), seed)
        assert [len(h) for h in state.hands] == [hand] * players
        dealt = {canonical(c) for h in state.hands for c in h}
        aside = {canonical(c) for c in state.set_aside}
        assert not dealt & aside
        assert dealt | aside == set(deck_for(players))
        assert len(state.set_aside) == (22 if players == 2 else used - hand * players)


def test_S2_two_player_round_two_is_exactly_the_set_aside_cards() -> None:
    rng = random.Random(3)
    for seed in range(10):
        state = new_state(ScoutOptions(2), seed)
        aside = {canonical(c) for c in state.set_aside}
        assert len(aside) == 22
        while state.round == 0:
            seat = to_act(state)[0]
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
        assert {canonical(c) for h in state.hands for c in h} == aside
        assert state.set_aside == ()


def test_S3_shuffle_order_and_orientation_are_random() -> None:
    up_seen: Counter[tuple[int, int]] = Counter()
    orders = set()
    for seed in range(300):
        state = new_state(ScoutOptions(5), seed)
        orders.add(state.hands[0])
        for hand in state.hands:
            up_seen.update(hand)
    assert len(orders) == 300
    for a, b in DECK:  # both numbers of every card come up, about equally often
        assert up_seen[(a, b)] > 100 and up_seen[(b, a)] > 100


def test_S3_same_seed_same_deal_different_seed_different_deal() -> None:
    assert new_state(None, 5).hands == new_state(None, 5).hands
    assert new_state(None, 5).hands != new_state(None, 6).hands


def test_S4_hand_order_is_fixed_except_show_and_scout() -> None:
    state = position([[1, 5, 6, 9], [2, 8, 3]], turn=0, active=[], options=ScoutOptions(2))
    hand = state.hands[0]
    after = apply(state, 0, Show(1, 2))
    assert after.hands[0] == (hand[0], hand[3])
    after = apply(after, 1, Scout("left", True, 1))
    scouted = (hand[1][1], hand[1][0])
    assert after.hands[1] == (state.hands[1][0], scouted, *state.hands[1][1:])
    # no action ever rotates or moves a card already in hand
    kinds = {type(a) for a in legal_actions(after, 1)}
    assert kinds <= {Show, Scout}


def test_S5_whole_hand_flip_rotates_every_card_and_reverses_the_order() -> None:
    state = new_state(ScoutOptions(4), 9)
    assert to_act(state) == (0, 1, 2, 3)
    assert legal_actions(state, 2) == [KEEP, FLIP]
    hand = state.hands[2]
    state = apply(state, 2, FLIP)
    assert state.hands[2] == tuple((d, u) for u, d in reversed(hand))
    assert to_act(state) == (0, 1, 3)
    with pytest.raises(NotYourTurn):
        apply(state, 2, KEEP)  # decided once
    assert legal_actions(state, 2) == []


def test_S5_flip_choices_stay_private_and_play_waits_for_every_decision() -> None:
    state = new_state(ScoutOptions(3), 2)
    first = state.start_seat
    with pytest.raises(IllegalAction):
        apply(state, first, Show(0, 1))  # before every seat has decided
    state = apply(state, 1, FLIP)
    for seat in (0, 2, None):
        shown = view(state, seat)
        assert shown["seats"][1]["flip_decided"] is True
        assert "flip" not in shown["log"][-1]
        assert shown["flip"] is None
    assert view(state, 1)["flip"] is True and view(state, 1)["log"][-1]["flip"] is True
    state = decide_all(state)
    assert state.phase == 1 and to_act(state) == (first,)
    with pytest.raises(IllegalAction):
        apply(state, first, FLIP)  # no second decision once play has begun


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_S6_rounds_and_rotating_starting_seat(players: int) -> None:
    rng = random.Random(players)
    state = new_state(ScoutOptions(players), 77)
    starts = []
    while outcome(state) is None:
        if state.phase == 0 and len(to_act(state)) == players:
            starts.append(state.start_seat)
        seat = to_act(state)[0]
        state = apply(state, seat, rng.choice(legal_actions(state, seat)))
    expected_rounds = 2 if players == 2 else players
    assert len(state.results) == expected_rounds
    assert starts == [(starts[0] + r) % players for r in range(expected_rounds)]
    assert state.first_seat == starts[0]
    result = outcome(state)
    assert result is not None
    assert result["scores"] == [
        sum(r.seats[s].points for r in state.results) for s in range(players)
    ]
    top = max(result["scores"])
    assert result["winners"] == [s for s, t in enumerate(result["scores"]) if t == top]
    with pytest.raises(GameOver):
        apply(state, 0, KEEP)


def test_S6_first_starting_seat_is_drawn_from_the_seed() -> None:
    firsts = {new_state(ScoutOptions(4), seed).start_seat for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_S6_equal_totals_share_the_win() -> None:
    state = position([[5], [6], [7]], turn=0)
    state.totals = (4, 5, 3)
    state.round = 2  # the last round of a 3-player game
    state.results = (None,) * 2  # type: ignore[assignment]
    state = apply(state, 0, Show(0, 1))  # seat 0 empties its hand: the game ends
    result = outcome(state)
    assert result is not None
    assert result["scores"] == [4, 4, 2]
    assert result["winners"] == [0, 1] and result["ranks"] == [1, 1, 3]


def test_S7_one_action_and_no_pass() -> None:
    state = position([[3, 4], [9, 1], [2, 7]], turn=1, active=[5], owner=0)
    kinds = {type(a) for a in legal_actions(state, 1)}
    assert kinds == {Show, Scout, ScoutShow}
    after = apply(state, 1, Show(0, 1))
    assert to_act(after) == (2,)


@pytest.mark.parametrize(
    ("values", "valid"),
    [
        ([7], True),
        ([5, 4, 3], True),
        ([3, 4], True),
        ([6, 6, 6], True),
        ([3, 5, 4], False),
        ([10, 1], False),
        ([4, 4, 5], False),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], True),
        ([2, 4], False),
    ],
)
def test_S8_valid_group(values: list[int], valid: bool) -> None:
    assert (group_key(values) > 0) is valid


def test_S8_group_cards_must_be_adjacent_in_hand() -> None:
    state = position([[3, 9, 4, 5], [1, 1]], turn=0)
    state = position([[3, 9, 4, 5], [1, 2]], turn=0)
    shows = {(a.start, a.length) for a in legal_actions(state, 0) if isinstance(a, Show)}
    assert (2, 2) in shows  # 4,5
    assert (0, 3) not in shows  # 3,9,4 is not a group; 3 and 4 are not adjacent
    with pytest.raises(IllegalAction, match="neither a set"):
        apply(state, 0, Show(0, 3))


@pytest.mark.parametrize(
    ("group", "show", "beats"),
    [
        ([1, 1], [9, 10], True),
        ([1, 2, 3], [10, 10], True),
        ([6, 7], [5, 6], True),
        ([6, 5], [5, 6], False),
        ([8, 8], [8, 8], False),
        ([9], [7], True),
        ([7], [7], False),
        ([2, 3], [10], True),
        ([10], [1, 2], False),
        ([3, 3], [2, 2], True),
        ([4, 3, 2], [2, 3, 4], False),
    ],
)
def test_S9_beating_the_table(group: list[int], show: list[int], beats: bool) -> None:
    assert (group_key(group) > group_key(show)) is beats
    state = position([group, [1] if 1 not in group + show else [2]], turn=0, active=show, owner=1)
    move = Show(0, len(group))
    assert (move in legal_actions(state, 0)) is beats
    if beats:
        apply(state, 0, move)
    else:
        with pytest.raises(IllegalAction, match="does not beat"):
            apply(state, 0, move)


def test_S9_first_action_of_a_round_must_be_a_show() -> None:
    state = decide_all(new_state(ScoutOptions(4), 11))
    first = to_act(state)[0]
    assert state.active == ()
    assert all(isinstance(a, Show) for a in legal_actions(state, first))
    shows = legal_actions(state, first)
    assert len(shows) >= len(state.hands[first])  # any group may be shown, every single card
    with pytest.raises(IllegalAction, match="no active show"):
        apply(state, first, Scout("left", False, 0))


def test_S9_comparison_is_against_the_reduced_show() -> None:
    state = position([[6, 7, 1], [4, 5, 9], [8, 2]], turn=2, active=[4, 5, 6], owner=1)
    state = apply(state, 2, Scout("left", False, 0))  # leaves [5, 6]
    assert ups(state.active) == [5, 6]
    state = apply(state, 0, Show(0, 2))  # [6, 7] beats [5, 6]
    assert ups(state.active) == [6, 7]
    other = position([[4, 5, 1], [9, 9], [8, 2]], turn=2, active=[4, 5, 6], owner=1)
    other = apply(other, 2, Scout("left", False, 0))
    with pytest.raises(IllegalAction):
        apply(other, 0, Show(0, 2))  # [4, 5] does not beat [5, 6]


def test_S10_a_show_captures_the_active_show_and_takes_ownership() -> None:
    state = position([[7, 8, 2], [3, 4], [9, 1]], turn=0, active=[3, 4], owner=1, piles=[1, 0, 0])
    beaten = state.active
    state = apply(state, 0, Show(0, 2))
    assert state.piles[0][-2:] == beaten and len(state.piles[0]) == 3
    assert ups(state.active) == [7, 8] and state.owner == 0
    assert to_act(state) == (1,)


def test_S11_scout_takes_an_end_card_and_pays_the_owner() -> None:
    state = position([[1, 2], [9, 9], [5, 5]], turn=1, active=[3, 4, 5], owner=0)
    taken = state.active[-1]
    after = apply(state, 1, Scout("right", True, 1))
    assert after.hands[1] == (state.hands[1][0], (taken[1], taken[0]), state.hands[1][1])
    assert after.active == state.active[:-1] and after.owner == 0
    assert after.chips == (1, 0, 0)
    assert to_act(after) == (2,)
    # positions 0..len(hand), both ends, both orientations
    scouts = [a for a in legal_actions(state, 1) if isinstance(a, Scout)]
    assert len(scouts) == 2 * 2 * 3
    with pytest.raises(IllegalAction, match="position from 0 to 2"):
        apply(state, 1, Scout("left", False, 3))


def test_S11_scouting_a_one_card_show_leaves_no_active_show() -> None:
    state = position([[1, 2], [9, 3], [5, 7]], turn=1, active=[4], owner=0)
    state = apply(state, 1, Scout("left", False, 0))
    assert state.active == () and state.active_key == 0 and state.owner == 0
    # the next player may show anything and captures nothing
    assert len([a for a in legal_actions(state, 2) if isinstance(a, Show)]) == 2
    assert not any(isinstance(a, Scout) for a in legal_actions(state, 2))
    state = apply(state, 2, Show(0, 1))
    assert state.piles == ((), (), ()) and state.owner == 2


def test_S11_scout_is_allowed_even_when_a_show_is_possible() -> None:
    state = position([[9, 9], [1, 2], [5, 7]], turn=0, active=[3], owner=2)
    moves = legal_actions(state, 0)
    assert Show(0, 2) in moves and Scout("left", False, 0) in moves


def test_S12_scout_and_show() -> None:
    # seat 0 holds 6, 8: scouting the 7 between them makes the run 6, 7, 8
    state = position([[6, 8, 1], [2, 3, 4], [9, 9]], turn=0, active=[5, 6, 7], owner=1)
    assert Scout("right", False, 1) in legal_actions(state, 0)
    action = ScoutShow("right", False, 1)
    assert action in legal_actions(state, 0)
    state = apply(state, 0, action)
    assert state.chips[1] == 1 and state.pending and to_act(state) == (0,)
    assert ups(state.hands[0]) == [6, 7, 8, 1]
    assert ups(state.active) == [5, 6]
    moves = legal_actions(state, 0)
    assert moves and all(isinstance(m, Show) for m in moves)
    assert all(
        group_key(ups(state.hands[0][m.start : m.start + m.length])) > state.active_key
        for m in moves
    )  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="now show"):
        apply(state, 0, Scout("left", False, 0))
    state = apply(state, 0, Show(0, 3))
    assert state.owner == 0 and state.scouts == 0 and not state.pending
    assert ups(state.piles[0]) == [5, 6]
    assert state.scout_show == (False, True, True)
    assert to_act(state) == (1,)


def test_S12_scout_and_show_once_per_round_and_must_be_completable() -> None:
    state = position(
        [[6, 8, 1], [2, 3, 4], [9, 9]],
        turn=0,
        active=[5, 6, 7],
        owner=1,
        scout_show=[False, True, True],
    )
    assert not any(isinstance(a, ScoutShow) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="already used"):
        apply(state, 0, ScoutShow("right", False, 1))
    # only Scout & Show halves after which a beating Show exists are offered
    state = position([[1, 3], [9, 9], [8, 8]], turn=0, active=[5, 6, 7], owner=1)
    offered = [a for a in legal_actions(state, 0) if isinstance(a, ScoutShow)]
    assert offered == []  # nothing beats [5, 6] or [6, 7] whatever is inserted
    with pytest.raises(IllegalAction, match="would be impossible"):
        apply(state, 0, ScoutShow("left", False, 0))


def test_S12_scout_and_show_emptying_the_hand_ends_the_round() -> None:
    state = position([[6, 8], [2, 3, 4], [9, 9]], turn=0, active=[7], owner=1)
    state = apply(state, 0, ScoutShow("left", False, 1))  # hand 6, 7, 8; no active show
    assert state.active == ()
    state = apply(state, 0, Show(0, 3))
    assert state.results[-1].reason == "hand_empty" and state.results[-1].seat == 0
    assert state.results[-1].seats[1].chips == 1  # the Scout still paid the owner


def test_S12_scout_and_show_not_in_two_player_game() -> None:
    state = position([[6, 8], [2, 3, 4]], turn=0, active=[7], owner=1, options=ScoutOptions(2))
    assert not any(isinstance(a, ScoutShow) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="not used in the 2-player"):
        apply(state, 0, ScoutShow("left", False, 1))


def test_S13_round_ends_when_a_hand_is_emptied_by_a_show() -> None:
    state = position([[7, 8], [3, 4, 5], [9, 1]], turn=0, active=[2, 3], owner=1)
    state = apply(state, 0, Show(0, 2))
    result = state.results[-1]
    assert result.reason == "hand_empty" and result.seat == 0
    assert not any(s.exempt for s in result.seats)


def test_S13_four_players_every_other_player_scouts() -> None:
    # edge case 11: A shows, B scouts, C shows, D scouts, A scouts, B scouts -> C exempt
    a, b, c, d = 0, 1, 2, 3
    state = position([[5, 9, 1], [2, 7, 7], [8, 8, 8, 3], [10, 4, 6]], turn=a)
    state = apply(state, a, Show(0, 1))
    state = apply(state, b, Scout("left", False, 0))
    state = apply(state, c, Show(0, 3))
    state = apply(state, d, Scout("left", False, 0))
    state = apply(state, a, Scout("left", False, 0))
    assert state.results == ()
    state = apply(state, b, Scout("left", False, 0))  # the show is now empty too
    result = state.results[-1]
    assert result.reason == "scouted_out" and result.seat == c
    assert [s.exempt for s in result.seats] == [False, False, True, False]
    assert result.seats[c].hand_penalty == 0
    assert result.seats[a].hand_penalty == -3  # 9, 1 and the scouted card
    assert result.seats[b].chips == 0 and result.seats[a].chips == 1 and result.seats[c].chips == 3


def test_S13_three_players_show_scouted_to_nothing_still_ends_the_round() -> None:
    # edge case 12
    state = position([[5, 6, 1], [2, 9], [8, 3]], turn=0)
    state = apply(state, 0, Show(0, 2))
    state = apply(state, 1, Scout("left", False, 0))
    state = apply(state, 2, Scout("left", False, 0))
    result = state.results[-1]
    assert result.reason == "scouted_out" and result.seat == 0 and result.seats[0].exempt


def test_S13_a_scout_and_show_resets_the_count() -> None:
    state = position([[5, 1, 9], [6, 8, 2], [3, 3, 7]], turn=0)
    state = apply(state, 0, Show(0, 1))  # [5]
    state = apply(state, 1, ScoutShow("left", False, 0))  # 5 6 8 2 -> show [5, 6]
    state = apply(state, 1, Show(0, 2))
    state = apply(state, 2, Scout("left", False, 0))
    assert state.results == () and state.scouts == 1
    state = apply(state, 0, Scout("left", False, 0))
    assert state.results[-1].reason == "scouted_out" and state.results[-1].seat == 1


def test_S14_scoring_example() -> None:
    # edge case 15: 3 players, round ended by S13.2 on A's show.
    state = position([[9, 8, 1, 3, 5], [3, 6, 7], [8, 4]], turn=0, piles=[5, 2, 0], chips=[0, 1, 0])
    state = apply(state, 0, Show(0, 2))  # A shows [9, 8] and keeps 3 cards
    state = apply(state, 1, Scout("left", False, 0))  # B now holds 4; A gets a chip
    state = apply(state, 2, Scout("left", False, 0))  # A gets a second chip; round over
    a, b, c = state.results[-1].seats
    assert (a.captured, a.chips, a.hand_penalty, a.exempt, a.points) == (5, 2, 0, True, 7)
    assert (b.captured, b.chips, b.hand_penalty, b.exempt, b.points) == (2, 1, -4, False, -1)
    assert (c.captured, c.chips, c.hand_penalty, c.points) == (0, 0, -3, -3)
    assert state.totals == (7, -1, -3)


def test_S14_active_show_and_unused_scout_and_show_score_nothing() -> None:
    state = position([[7, 8], [3, 4, 5], [9, 1]], turn=0, active=[2, 3], owner=1)
    state = apply(state, 0, Show(0, 2))  # [7, 8] stays on the table unscored
    result = state.results[-1]
    assert [s.points for s in result.seats] == [2, -3, -2]


def test_S15_two_player_setup() -> None:
    state = new_state(ScoutOptions(2), 4)
    assert state.chips == (3, 3) and state.scout_show == (False, False)
    assert [len(h) for h in state.hands] == [11, 11] and len(state.set_aside) == 22


def test_S16_scouting_costs_a_chip_and_keeps_the_turn() -> None:
    two = ScoutOptions(2)
    state = position([[1, 2, 9], [7, 3]], turn=0, active=[5, 6], owner=1, chips=[3, 3], options=two)
    state = apply(state, 0, Scout("left", False, 0))
    assert state.chips == (2, 3) and to_act(state) == (0,)  # the opponent gains nothing
    state = apply(state, 0, Scout("left", False, 0))
    assert state.chips == (1, 3) and state.active == () and to_act(state) == (0,)
    state = apply(state, 0, Show(0, 2))  # 6, 5: captures nothing
    assert to_act(state) == (1,)
    broke = position([[1, 2, 9], [7, 3]], turn=0, active=[5, 6], owner=1, chips=[0, 3], options=two)
    assert not any(isinstance(a, Scout) for a in legal_actions(broke, 0))
    with pytest.raises(IllegalAction, match="no Scout chips"):
        apply(broke, 0, Scout("left", False, 0))


def test_S16_first_player_of_a_two_player_round_must_show() -> None:
    state = decide_all(new_state(ScoutOptions(2), 8))
    first = to_act(state)[0]
    assert all(isinstance(a, Show) for a in legal_actions(state, first))


def test_S17_round_ends_when_the_opponent_can_neither_show_nor_scout() -> None:
    two = ScoutOptions(2)
    state = position([[8, 8, 1], [2, 5, 9]], turn=0, chips=[3, 0], options=two)
    state = apply(state, 0, Show(0, 2))  # [8, 8]: seat 1 has no pair and no chips
    result = state.results[-1]
    assert result.reason == "stuck" and result.seat == 0 and result.seats[0].exempt
    assert result.seats[0].hand_penalty == 0 and result.seats[1].hand_penalty == -3


def test_S17_a_player_who_can_still_act_must_act() -> None:
    two = ScoutOptions(2)
    state = position([[8, 8, 1], [2, 5, 7]], turn=0, chips=[3, 1], options=two)
    state = apply(state, 0, Show(0, 2))
    assert state.results == () and legal_actions(state, 1) != []
    # spending the last chip without being able to beat the rest also ends the round
    state = apply(state, 1, Scout("left", False, 0))
    assert state.results[-1].reason == "stuck" and state.results[-1].seat == 0


def test_S18_two_player_scoring_counts_unspent_chips_by_option() -> None:
    for count, expected in ((True, 2 + 0 + 3), (False, 2 + 0)):
        opts = ScoutOptions(2, count_unspent_chips=count)
        state = position(
            [[7, 8], [3, 4, 5]], turn=0, active=[2, 3], owner=1, chips=[3, 1], options=opts
        )
        state = apply(state, 0, Show(0, 2))
        assert state.results[-1].seats[0].points == expected


def test_S18_two_player_game_has_two_rounds_and_the_other_player_starts_round_two() -> None:
    rng = random.Random(1)
    state = new_state(ScoutOptions(2), 21)
    first = state.start_seat
    while state.round == 0:
        seat = to_act(state)[0]
        state = apply(state, seat, rng.choice(legal_actions(state, seat)))
    assert state.start_seat == 1 - first and state.chips == (3, 3)


def test_state_from_explicit_deal() -> None:
    pick = CardPicker(4)
    hands = [pick.cards([1, 2, 3]), pick.cards([4, 4]), pick.cards([9]), pick.cards([5, 6])]
    state = state_from_deal(hands, 2)
    assert state.hands == tuple(hands) and to_act(state) == (0, 1, 2, 3)
    state = decide_all(state)
    assert to_act(state) == (2,)
    with pytest.raises(ValueError, match="twice"):
        state_from_deal([hands[0], hands[0], hands[2], hands[3]], 0)
    with pytest.raises(ValueError, match="not in this player count"):
        state_from_deal([[(9, 10)], hands[1], hands[2], hands[3]], 0)
