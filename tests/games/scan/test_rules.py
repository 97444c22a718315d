"""One test per rule of shared/rules/scan.md (C1–C14), named after its id.

Times are plain numbers: the explicit positions reveal their first card at ``T`` ms; an input
at ``T + x`` without a reaction time is credited ``x`` ms; a race is decided by the table's
timeout ``decision_window_ms`` (250) after the first undecided input arrived.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from parlour.core import Decide, GameOver, IllegalAction, InvalidAction, NotYourTurn, Timeout
from parlour.games.scan import (
    GAME,
    Bluffo,
    ChooseCategory,
    ScanOptions,
    State,
    Touch,
    apply,
    check_invariants,
    deadline,
    deadline_kind,
    deal_deck,
    latin_rectangle,
    legal_actions,
    match_index,
    new_state,
    outcome,
    race,
    state_from_cards,
    to_act,
    view,
)
from parlour.games.scan.actions import BLUFFO, CHOICES, TOUCHES
from parlour.games.scan.cards import BLUFFO_CARDS, CARDS, CATEGORIES, DESIGNS, is_card
from parlour.games.scan.state import OVER, PAUSE, ROUND
from tests.games.scan.helpers import (
    REVEAL,
    act,
    decide,
    match_of,
    play_round_to_end,
    position,
    revealed,
    small_deck,
    timeout,
)

T = REVEAL
TAN, BLUE = small_deck(6)


def events(state: State, kind: str) -> list[tuple[object, ...]]:
    return [e for e in state.round_log() if e[0] == kind]


# --------------------------------------------------------------------------------------------
# Cards


def test_C1_components_23_tan_23_blue_and_3_bluffo_cards() -> None:
    tan, blue = deal_deck(5)
    assert len(tan) == len(blue) == CARDS == 23
    assert all(is_card(c) for c in (*tan, *blue))
    assert not set(tan) & set(blue)
    state = new_state(ScanOptions(3, bluffo=True), 5)
    assert state.stack == BLUFFO_CARDS == 3
    assert len(state.covered) == 23 and len(state.layout) + len(state.removed) == 23


def test_C1_categories_in_card_order_and_matching_reads_one_quarter() -> None:
    assert CATEGORIES == ("shape", "pattern", "position", "colour")
    for c, name in enumerate(CATEGORIES):
        # tan card 0 (0, 0, 0, 0) matches blue card -c mod 6 in category c, and no other there
        assert match_of(position(category=name)) == (-c) % 6


def test_C2_each_category_has_23_designs_once_on_each_colour() -> None:
    assert DESIGNS == 23
    for seed in range(50):
        tan, blue = deal_deck(seed)
        for c in range(4):
            assert sorted(t[c] for t in tan) == list(range(23))
            assert sorted(b[c] for b in blue) == list(range(23))


def test_C3_latin_rectangle_over_many_seeds() -> None:
    for seed in range(300):
        rows = latin_rectangle(random.Random(seed))
        assert len(rows) == 4
        assert all(sorted(r) == list(range(23)) for r in rows)
        assert all(len({r[i] for r in rows}) == 4 for i in range(23))


def test_C3_a_drawn_row_that_agrees_anywhere_is_rejected() -> None:
    draws = iter([[0, 1, 2, 3], [1, 0, 2, 3], [2, 3, 1, 0], [1, 0, 3, 2]])

    class Scripted(random.Random):
        def sample(self, population: object, k: int, **kwargs: object) -> list[int]:
            return next(draws)

    # [1, 0, 2, 3] agrees with the first row at columns 2 and 3; [2, 3, 1, 0] agrees nowhere
    assert latin_rectangle(Scripted(), rows=2, size=4) == [[0, 1, 2, 3], [2, 3, 1, 0]]


def test_C3_each_tan_card_has_exactly_one_match_per_category_four_different_ones() -> None:
    for seed in range(200):
        tan, blue = deal_deck(seed)
        for t in tan:
            hits = [[j for j, b in enumerate(blue) if b[c] == t[c]] for c in range(4)]
            assert [len(h) for h in hits] == [1, 1, 1, 1]
            assert len({h[0] for h in hits}) == 4


def test_C3_the_deck_is_drawn_from_the_seed_with_fresh_pairings() -> None:
    assert deal_deck(7) == deal_deck(7)
    assert deal_deck(7) != deal_deck(8)
    partners = {next(t for t in deal_deck(s)[0] if t[0] == 0) for s in range(50)}
    assert len(partners) > 40  # shape design 0 comes with different other designs
    assert new_state(None, 9) == new_state(None, 9)


# --------------------------------------------------------------------------------------------
# Play


@pytest.mark.parametrize("players", [2, 5, 8])
def test_C4_two_to_eight_seats_all_race(players: int) -> None:
    state = revealed(players)
    assert to_act(state) == tuple(range(players))
    assert all(legal_actions(state, s) == list(TOUCHES) for s in range(players))
    assert (GAME.min_players, GAME.max_players) == (2, 8)


@pytest.mark.parametrize("players", [0, 1, 9])
def test_C4_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(InvalidAction, match="2 to 8"):
        ScanOptions(players)


def test_C5_tan_order_and_layout_are_shuffled_from_the_seed() -> None:
    tops, places = set(), set()
    for seed in range(60):
        state = new_state(None, seed)
        assert sorted(state.covered) == sorted(state.tan_deck)
        assert sorted(state.layout) == sorted(state.blue_deck)
        tops.add(state.tan_deck.index(state.covered[0]))
        places.add(state.layout.index(state.blue_deck[0]))
    assert len(tops) > 15 and len(places) > 15


def test_C5_the_layout_stays_fixed_for_the_game() -> None:
    rng = random.Random(3)
    state = new_state(ScanOptions(3, bluffo=True), 3)
    layout, now = state.layout, 0
    while outcome(state) is None:
        seats, due = to_act(state), deadline(state)
        assert due is not None
        if seats and rng.random() < 0.7:
            now = rng.randint(now, due)
            seat = rng.choice(seats)
            state = apply(state, seat, rng.choice(legal_actions(state, seat)), now)
        else:
            now = due
            state = apply(state, None, Timeout(), now)
        assert state.layout == layout
    assert state.round == 23


def test_C5_category_agreed_or_random() -> None:
    for c, name in enumerate(CATEGORIES):
        state = revealed(2, category=name)
        assert state.round_category == c and view(state, None)["category"] == name
    drawn = Counter(new_state(ScanOptions(category="random"), s).category for s in range(80))
    assert set(drawn) == {0, 1, 2, 3}


def test_C5_bluffo_removes_three_random_blue_cards_unseen_until_the_end() -> None:
    removals = set()
    for seed in range(30):
        state = new_state(ScanOptions(3, bluffo=True), seed)
        assert len(state.layout) == 20 and len(state.removed) == 3 and state.stack == 3
        assert not set(state.removed) & set(state.layout)
        unmatched = [t for t in state.tan_deck if match_index(state.layout, t, 0) is None]
        assert len(unmatched) == 3
        for seat in (0, 1, 2, None):
            assert view(state, seat)["removed"] is None
            assert view(state, seat)["removed_count"] == 3
        removals.add(frozenset(state.removed))
    assert len(removals) == 30
    plain = new_state(ScanOptions(3), 1)
    assert plain.removed == () and plain.stack == 0 and len(plain.layout) == 23


def test_C6_the_reveal_shows_the_top_card_to_every_seat_with_a_sequence_number() -> None:
    state = new_state(ScanOptions(3), 4)
    assert state.phase == PAUSE and view(state, None)["tan"] is None
    assert deadline(state) == 1500 and deadline_kind(state) == "reveal"
    assert to_act(state) == ()
    with pytest.raises(IllegalAction, match="nothing is due yet"):
        apply(state, None, Timeout(), 1499)
    top = state.covered[0]
    state = apply(state, None, Timeout(), 1507)  # applied late: revealed when applied
    assert state.phase == ROUND and state.tan == top and state.covered[0] != top
    assert state.reveal_ms == 1507 and state.seq == 1
    assert state.disqualified == frozenset() and state.claimant is None
    for seat in (0, 1, 2, None):
        shown = view(state, seat)
        assert shown["tan"] == list(top) and shown["seq"] == 1 and shown["reveal_ms"] == 1507


def test_C6_each_reveal_starts_a_fresh_round() -> None:
    state = position(3, bluffo=True)
    state = decide(act(state, 0, Touch(3), T + 400))
    state = decide(act(state, 1, BLUFFO, T + 900))
    assert state.disqualified == {0} and state.claimant == 1
    state = play_round_to_end(state)
    assert state.phase == ROUND and state.seq == 2 and state.tan == TAN[1]
    assert state.disqualified == frozenset() and state.claimant is None
    assert to_act(state) == (0, 1, 2)


def test_C7_a_wrong_touch_disqualifies_until_the_next_reveal() -> None:
    state = position(3)
    state = decide(act(state, 0, Touch(3), T + 800))
    assert state.phase == ROUND and state.disqualified == {0}
    assert to_act(state) == (1, 2) and legal_actions(state, 0) == []
    assert view(state, None)["seats"][0]["disqualified"] is True
    with pytest.raises(NotYourTurn, match="out until the next reveal"):
        apply(state, 0, Touch(0), T + 1200)
    state = play_round_to_end(state)
    assert to_act(state) == (0, 1, 2)


def test_C7_only_the_agreed_quarter_counts() -> None:
    state = position(3, category="colour")
    assert match_of(state) == 3
    state = decide(act(state, 0, Touch(0), T + 500))  # blue 0 matches in shape, not colour
    assert state.disqualified == {0}
    state = decide(act(state, 1, Touch(3), T + 900))
    assert state.phase == PAUSE and state.won[1] == (TAN[0],)


def test_C7_the_bluffo_claimant_may_not_touch() -> None:
    state = decide(act(position(3, bluffo=True), 0, BLUFFO, T + 500))
    assert state.claimant == 0 and to_act(state) == (1, 2)
    with pytest.raises(NotYourTurn, match="slapped Bluffo"):
        apply(state, 0, Touch(0), T + 900)


def test_C7_a_seat_has_one_input_waiting_at_a_time() -> None:
    state = act(position(3), 0, Touch(3), T + 500)
    assert to_act(state) == (1, 2) and legal_actions(state, 0) == []
    with pytest.raises(NotYourTurn, match="already acted"):
        apply(state, 0, Touch(0), T + 600)


def test_C8_a_correct_touch_takes_t_and_the_last_card_of_each_disqualified_seat() -> None:
    state = position(4, won=[[], [1], [2, 3], []])
    state = decide(act(state, 1, Touch(2), T + 300))
    state = decide(act(state, 2, Touch(4), T + 600))
    state = decide(act(state, 0, Touch(0), T + 900))
    assert state.phase == PAUSE and state.set_aside == ()
    assert state.won == ((TAN[0], TAN[1], TAN[3]), (), (TAN[2],), ())
    assert events(state, "win") == [("win", 0, "touch", ((1, TAN[1]), (2, TAN[3])))]
    assert [state.score(s) for s in range(4)] == [3, 0, 1, 0]


def test_C8_a_seat_with_nothing_gives_nothing_and_bluffo_cards_are_never_given() -> None:
    state = position(3, bluffo=True, bluffos=[0, 1, 0])
    state = decide(act(state, 1, Touch(5), T + 300))
    state = decide(act(state, 0, Touch(0), T + 700))
    assert state.won[0] == (TAN[0],) and state.bluffos == (0, 1, 0) and state.stack == 2
    assert events(state, "win") == [("win", 0, "touch", ())]


def test_C8_a_wrong_bluffo_claimant_gives_a_card_too() -> None:
    state = position(3, bluffo=True, won=[[], [1], [2]])
    state = decide(act(state, 1, BLUFFO, T + 300))
    state = decide(act(state, 0, Touch(0), T + 800))
    assert state.won == ((TAN[0], TAN[1]), (), (TAN[2],))


def test_C9_no_winner_when_every_eligible_seat_is_disqualified() -> None:
    state = position(2, won=[[1], [2]])
    state = act(state, 0, Touch(1), T + 300)
    state = decide(act(state, 1, Touch(2), T + 400))
    assert state.phase == PAUSE and state.set_aside == (TAN[0],)
    assert state.won == ((TAN[1],), (TAN[2],))
    assert events(state, "no_winner") == [("no_winner", "all_disqualified", 0)]
    assert view(state, None)["match"] == 0  # the match is highlighted


def test_C9_no_winner_when_the_round_timer_runs_out() -> None:
    assert deadline(position(3)) == T + 20_000
    state = position(3, round_timer_ms=5_000)
    state = decide(act(state, 0, Touch(1), T + 400))
    assert deadline(state) == T + 5_000 and deadline_kind(state) == "round_timer"
    assert view(state, None)["match"] is None  # not during the round
    state = timeout(state)
    assert state.phase == PAUSE and state.set_aside == (TAN[0],)
    assert events(state, "no_winner") == [("no_winner", "timer", 0)]
    assert view(state, 2)["match"] == 0 and state.won == ((), (), ())


def test_C10_the_first_slap_counts_and_later_ones_are_ignored() -> None:
    state = position(3, bluffo=True)
    state = act(state, 0, Bluffo(400), T + 500)
    state = decide(act(state, 1, Bluffo(900), T + 700))
    assert state.claimant == 0
    assert ("bluffo", 1, 900, "ignored") in state.round_log()
    assert to_act(state) == (1, 2)  # the ignored slapper searches on
    assert BLUFFO not in legal_actions(state, 2)
    with pytest.raises(IllegalAction, match="already slapped"):
        apply(state, 2, BLUFFO, T + 800)


def test_C10_wrong_slap_and_nobody_finds_the_match_is_no_winner() -> None:
    state = decide(act(position(3, bluffo=True, won=[[1], [], []]), 0, BLUFFO, T + 500))
    assert deadline(state) == T + 3750 and deadline_kind(state) == "checking"  # as if right
    state = timeout(state)  # the verdict: the claim was wrong, the others search on
    assert state.phase == ROUND and ("claim_wrong", 0) in state.round_log()
    assert deadline(state) == T + 20_000 and deadline_kind(state) == "round_timer"
    state = timeout(state)
    assert events(state, "no_winner") == [("no_winner", "timer", 0)]
    assert state.won[0] == (TAN[1],) and state.stack == 3


def test_C10_a_wrong_claim_is_checked_for_the_full_window_even_past_the_round_timer() -> None:
    state = position(3, bluffo=True, round_timer_ms=2_000)
    state = decide(act(state, 0, BLUFFO, T + 1_500))  # decided at T + 1750
    assert deadline(state) == T + 4_750 and deadline_kind(state) == "checking"
    state = timeout(state)  # the verdict, and the round timer has run out too
    assert state.phase == PAUSE and ("claim_wrong", 0) in state.round_log()
    assert events(state, "no_winner") == [("no_winner", "timer", 0)]


def test_C10_right_slap_confirmation_window_then_the_claimant_scores() -> None:
    state = position(3, bluffo=True, missing=[0], won=[[], [1], []])
    assert match_of(state) is None
    state = decide(act(state, 1, Touch(0), T + 300))  # blue 1: wrong
    state = act(state, 0, BLUFFO, T + 1000)
    assert deadline(state) == T + 1250
    state = timeout(state)
    assert state.claimant == 0 and state.checking_until == T + 1250 + 3000
    assert deadline(state) == T + 4250 and deadline_kind(state) == "checking"
    assert ("checking", 0, T + 4250) in state.round_log()
    state = timeout(state)
    assert state.phase == PAUSE and state.set_aside == (TAN[0],)
    assert state.bluffos == (1, 0, 0) and state.stack == 2
    assert state.won == ((TAN[1],), (), ())
    assert state.score(0) == 3


def _claim_round(right: bool) -> State:
    # The same layout (blue 0 removed for Bluffo) and the same holdings; the revealed card is
    # tan 0 (its shape match was removed: a claim is right) or tan 1 (matched by blue 1).
    tan, blue = small_deck(6)
    first, second = (tan[0], tan[1]) if right else (tan[1], tan[0])
    state = state_from_cards(
        [first, second, tan[2], tan[3]],
        blue[1:],
        removed=blue[:1],
        won=[[], [tan[4]], [tan[5]]],
        options=ScanOptions(3, bluffo=True),
        reveal_ms=T,
    )
    check_invariants(state)
    return state


def _neutral(view_: dict[str, object]) -> str:
    # A view as text with the revealed card masked (it is public, and the only difference).
    shown = dict(view_)
    shown["tan"] = None
    shown["log"] = [{**e, "tan": None} if e["type"] == "reveal" else e for e in view_["log"]]  # type: ignore[attr-defined]
    return json.dumps(shown, sort_keys=True)


def test_C10_nobody_can_tell_a_right_claim_from_a_wrong_one_until_the_verdict() -> None:
    right, wrong = _claim_round(True), _claim_round(False)
    assert match_of(right) is None and match_of(wrong) == 0
    steps = [
        (0, BLUFFO, T + 500),  # seat 0 claims "no match"
        (None, Timeout(), T + 750),  # the claim is decided: checking until T + 3750
        (1, Touch(2), T + 1_500),  # a wrong touch either way
        (None, Timeout(), T + 1_750),
    ]
    seen = []
    for seat, action, at in steps:
        right, wrong = apply(right, seat, action, at), apply(wrong, seat, action, at)  # type: ignore[arg-type]
        for viewer in (None, 0, 1, 2):
            assert _neutral(view(right, viewer)) == _neutral(view(wrong, viewer))
        assert deadline(right) == deadline(wrong) and race(right) == race(wrong)
        seen.append(view(right, None)["deadline_kind"])
    assert seen == [
        "round_timer",
        "checking",
        "checking",
        "checking",
    ]  # no "decision": it would tell an input waits
    assert view(right, 2)["checking_until_ms"] == T + 3_750
    right, wrong = timeout(right), timeout(wrong)  # the verdict
    assert right.phase == PAUSE and right.bluffos == (1, 0, 0)
    assert wrong.phase == ROUND and ("claim_wrong", 0) in wrong.round_log()
    assert _neutral(view(right, None)) != _neutral(view(wrong, None))


def test_C10_every_touch_in_the_confirmation_window_is_wrong() -> None:
    state = position(3, bluffo=True, missing=[0], won=[[], [1], [2]])
    state = decide(act(state, 0, BLUFFO, T + 500))
    state = decide(act(state, 1, Touch(3), T + 1500))
    assert state.phase == ROUND and state.disqualified == {1}
    state = decide(act(state, 2, Touch(4), T + 2500))  # nobody left to search: ends at once
    assert state.phase == PAUSE and state.time_ms == T + 2750
    assert state.won == ((TAN[1], TAN[2]), (), ()) and state.bluffos == (1, 0, 0)


def test_C10_empty_stack_a_right_no_match_call_sets_the_card_aside() -> None:
    state = position(3, bluffo=True, missing=[0], bluffos=[1, 1, 1], dealers_choice=True)
    assert state.stack == 0 and BLUFFO in legal_actions(state, 0)
    state = decide(act(state, 2, BLUFFO, T + 700))
    assert state.phase == PAUSE and state.set_aside == (TAN[0],)
    assert events(state, "no_winner") == [("no_winner", "no_match_call", None)]
    assert state.bluffos == (1, 1, 1) and state.chooser is None  # no points, no winner


def test_C10_empty_stack_a_wrong_no_match_call_disqualifies() -> None:
    state = position(3, bluffo=True, bluffos=[1, 1, 1], won=[[1], [], []])
    state = decide(act(state, 0, BLUFFO, T + 400))
    assert state.disqualified == {0} and state.claimant is None
    assert BLUFFO in legal_actions(state, 1)  # a call is not a slap: others may still call
    state = decide(act(state, 1, Touch(0), T + 900))
    assert state.won == ((), (TAN[0], TAN[1]), ())


def test_C10_no_bluffo_without_the_option() -> None:
    state = position(3)
    assert BLUFFO not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="not played"):
        apply(state, 0, BLUFFO, T + 500)


def test_C11_dealers_choice_the_winner_names_the_next_category() -> None:
    state = decide(act(position(3, dealers_choice=True), 1, Touch(0), T + 500))
    end = T + 750
    assert state.phase == PAUSE and state.chooser == 1 and to_act(state) == (1,)
    assert legal_actions(state, 1) == list(CHOICES) and legal_actions(state, 0) == []
    assert deadline(state) == end + 5_000 and deadline_kind(state) == "choice"
    with pytest.raises(NotYourTurn, match="seat 1 names"):
        apply(state, 0, ChooseCategory("colour"), end + 100)
    with pytest.raises(IllegalAction, match="name the next card's category"):
        apply(state, 1, Touch(0), end + 100)
    state = act(state, 1, ChooseCategory("colour"), end + 100)
    assert state.category == 3 and deadline(state) == end + 1_500  # the pause still runs
    state = timeout(state)
    assert state.round_category == 3 and view(state, None)["category"] == "colour"
    assert match_of(state) == (1 - 3) % 6  # tan card 1 matches blue 4 in colour


def test_C11_a_late_choice_reveals_at_once() -> None:
    state = decide(act(position(3, dealers_choice=True), 1, Touch(0), T + 500))
    state = act(state, 1, ChooseCategory("pattern"), T + 750 + 4_000)
    assert deadline(state) == T + 4_750
    assert timeout(state).round_category == 1


def test_C11_an_unused_choice_lapses_after_five_seconds_category_unchanged() -> None:
    state = decide(act(position(3, dealers_choice=True), 1, Touch(0), T + 500))
    with pytest.raises(IllegalAction, match="too late"):
        apply(state, 1, ChooseCategory("colour"), T + 750 + 5_001)
    state = timeout(state)
    assert state.phase == ROUND and state.round_category == 0 and state.reveal_ms == T + 5_750
    assert state.round_log()[0] == ("choice_lapsed", 1, 0)


def test_C11_a_choice_timer_shorter_than_the_pause_lapses_first() -> None:
    state = position(3, dealers_choice=True, choice_timer_ms=500, reveal_pause_ms=2_000)
    state = timeout(decide(act(state, 1, Touch(0), T + 500)))
    assert state.phase == PAUSE and state.chooser is None and state.time_ms == T + 1_250
    assert deadline(state) == T + 2_750 and to_act(state) == ()
    state = timeout(state)
    assert state.round_category == 0 and state.round_log()[0] == ("choice_lapsed", 1, 0)


def test_C11_no_choice_after_a_round_with_no_winner() -> None:
    state = timeout(position(3, dealers_choice=True))
    assert state.phase == PAUSE and state.chooser is None and to_act(state) == ()


def test_C11_the_successful_bluffo_claimant_chooses() -> None:
    state = position(3, bluffo=True, dealers_choice=True, missing=[0], confirm_window_ms=0)
    state = decide(act(state, 2, BLUFFO, T + 500))
    assert state.phase == PAUSE and state.bluffos == (0, 0, 1) and state.chooser == 2


def test_C11_the_game_ends_when_no_tan_cards_remain() -> None:
    state = revealed(2, seed=5, round_timer_ms=1_000)
    rounds = 1
    while state.phase != OVER:
        state = timeout(state)
        rounds += state.phase == ROUND
    assert rounds == 23 and state.covered == () and len(state.set_aside) == 23
    assert deadline(state) is None and to_act(state) == ()
    with pytest.raises(GameOver):
        apply(state, None, Timeout(), 10**9)


def _win_every_round(state: State, seats: list[int]) -> State:
    # Seat seats[k % len] touches the match of the k-th card (rounds without a match time out).
    k = 0
    while state.phase != OVER:
        if state.phase == ROUND and match_of(state) is not None:
            seat = seats[k % len(seats)]
            k += 1
            state = decide(act(state, seat, Touch(match_of(state)), state.reveal_ms + 500))  # type: ignore[arg-type]
        else:
            state = timeout(state)
    return state


def test_C12_score_is_tan_cards_plus_two_per_bluffo_card_ties_share() -> None:
    state = position(2, size=4, bluffo=True, bluffos=[1, 0], missing=[3])
    state = _win_every_round(state, [1, 1, 0])
    # 4 tan cards: 3 with a match (seat 1, 1, 0 win them), 1 without (timed out, set aside)
    assert [len(p) for p in state.won] == [1, 2] and len(state.set_aside) == 1
    result = outcome(state)
    assert result is not None
    assert result["scores"] == [3, 2] and result["winners"] == [0] and result["ranks"] == [1, 2]
    tied = _win_every_round(position(2, size=4), [0, 1])
    assert outcome(tied) == {
        "scores": [2, 2],
        "ranks": [1, 1],
        "winners": [0, 1],
        "games": [
            {"game": 1, "category": "shape", "tan": [2, 2], "bluffo": [0, 0], "scores": [2, 2]}
        ],
    }


def test_C12_the_removed_blue_cards_are_shown_at_the_end() -> None:
    state = position(2, size=4, bluffo=True, missing=[3])
    assert view(state, 0)["removed"] is None
    state = _win_every_round(state, [0])
    blue = small_deck(4)[1]
    for seat in (0, 1, None):
        assert view(state, seat)["removed"] == [list(blue[3])]


def test_C13_four_games_each_category_once_each_set_up_afresh() -> None:
    state = new_state(ScanOptions(2, four_in_a_row=True, bluffo=True, category="pattern"), 21)
    assert state.series == (1, 0, 2, 3)
    setups = [state]
    k = 0
    while state.phase != OVER:
        before = state.game
        if state.phase == ROUND and match_of(state) is not None:
            seat = k % 2
            k += 1
            state = decide(act(state, seat, Touch(match_of(state)), state.reveal_ms + 400))  # type: ignore[arg-type]
        else:
            state = timeout(state)
        if state.game != before:
            setups.append(state)
    assert [s.round_category for s in setups] == [1, 0, 2, 3]
    assert len({s.layout for s in setups}) == 4 and len({s.covered for s in setups}) == 4
    assert len({frozenset(s.removed) for s in setups}) == 4
    assert all(s.stack == 3 and s.won == ((), ()) and s.round == 0 for s in setups)
    assert all(sorted(s.layout + s.removed) == sorted(state.blue_deck) for s in setups)
    assert [r.category for r in state.results] == [1, 0, 2, 3]
    assert all(sum(r.tan) == 20 for r in state.results)  # 3 cards per game have no match
    result = outcome(state)
    assert result is not None
    assert result["scores"] == [sum(r.scores[s] for r in state.results) for s in (0, 1)]
    assert sum(result["scores"]) == 80


def test_C13_the_series_order_and_no_dealers_choice() -> None:
    assert new_state(ScanOptions(2, four_in_a_row=True), 1).series == (0, 1, 2, 3)
    orders = {
        new_state(ScanOptions(2, four_in_a_row=True, category="random"), s).series
        for s in range(30)
    }
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders) and len(orders) > 10
    with pytest.raises(InvalidAction, match="Dealer's Choice"):
        ScanOptions(2, four_in_a_row=True, dealers_choice=True)


def test_C13_a_pause_shows_the_finished_game_before_the_next_is_set_up() -> None:
    state = revealed(2, seed=4, four_in_a_row=True, round_timer_ms=1_000, bluffo=True)
    while not state.game_finished:
        state = timeout(state)
    assert state.phase == PAUSE and deadline_kind(state) == "next_game"
    assert view(state, 0)["removed"] == [list(c) for c in state.removed]
    state = timeout(state)
    assert state.game == 1 and state.phase == PAUSE and deadline_kind(state) == "reveal"
    assert view(state, 0)["removed"] is None and view(state, 0)["tan"] is None


# --------------------------------------------------------------------------------------------
# Who was first


def test_C14_the_faster_correct_touch_wins_even_if_it_arrives_later() -> None:
    state = act(position(3), 1, Touch(0, rt_ms=500), T + 600)
    state = act(state, 2, Touch(0, rt_ms=450), T + 800)  # slow link, faster reaction
    assert deadline(state) == T + 850 and deadline_kind(state) == "decision"
    state = timeout(state)
    assert state.won[2] == (TAN[0],)
    assert ("touch", 1, 0, 500, "beaten") not in state.round_log()  # 50 ms apart: not simultaneous
    assert ("touch", 1, 0, 500, "late") in state.round_log()


def _tie(seed: int, first: int, second: int) -> int:
    state = position(3, seed=seed)
    state = act(state, first, Touch(0, rt_ms=500), T + 500)
    state = act(state, second, Touch(0, rt_ms=515), T + 515)
    state = decide(state)
    winners = [s for s in range(3) if state.won[s]]
    assert len(winners) == 1
    return winners[0]


def test_C14_correct_touches_within_the_tie_window_are_drawn_from_the_seed() -> None:
    draws = [_tie(seed, 0, 2) for seed in range(60)]
    assert set(draws) == {0, 2} and 15 < draws.count(0) < 45
    assert draws == [_tie(seed, 0, 2) for seed in range(60)]  # reproducible
    assert draws == [_tie(seed, 2, 0) for seed in range(60)]  # 15 ms faster: no advantage
    state = decide(act(act(position(3), 0, Touch(0, 500), T + 500), 1, Touch(0, 520), T + 520))
    assert state.round_log()[1][0] == "draw"  # 20 ms apart is still simultaneous...
    state = decide(act(act(position(3), 0, Touch(0, 500), T + 500), 1, Touch(0, 521), T + 521))
    assert state.won[0] and not any(e[0] == "draw" for e in state.round_log())  # ...21 ms is not


def test_C14_a_correct_touch_beats_a_bluffo_slap_within_the_window() -> None:
    state = position(3, bluffo=True, won=[[1], [], []])
    state = act(state, 0, Bluffo(rt_ms=500), T + 500)
    state = decide(act(state, 1, Touch(0, rt_ms=515), T + 515))
    assert state.claimant is None and ("bluffo", 0, 500, "beaten") in state.round_log()
    assert state.won == ((TAN[1],), (TAN[0],), ())  # the slapper gives nothing


def test_C14_a_slap_before_the_window_counts_against_the_claimant() -> None:
    state = position(3, bluffo=True, won=[[1], [], []])
    state = act(state, 0, Bluffo(rt_ms=500), T + 500)
    state = decide(act(state, 1, Touch(0, rt_ms=530), T + 530))
    assert state.claimant == 0
    assert state.won == ((), (TAN[0], TAN[1]), ())


@pytest.mark.parametrize("bluffo", [False, True])
def test_C7_a_wrong_touch_within_the_tie_window_before_the_winner_still_disqualifies(
    bluffo: bool,
) -> None:
    state = position(3, won=[[], [1], [2]], bluffo=bluffo)
    state = act(state, 1, Touch(4, rt_ms=490), T + 490)  # wrong, 10 ms before the winner
    state = act(state, 2, Touch(3, rt_ms=470), T + 495)  # wrong, 30 ms before
    state = decide(act(state, 0, Touch(0, rt_ms=500), T + 500))
    assert state.disqualified == {1, 2}
    assert ("touch", 1, 4, 490, "wrong") in state.round_log()
    assert ("touch", 2, 3, 470, "wrong") in state.round_log()
    assert state.won == ((TAN[0], TAN[1], TAN[2]), (), ())  # both pay a card (C8)


def test_C7_a_wrong_touch_at_the_same_time_as_the_winner_disqualifies() -> None:
    state = position(3, won=[[], [1], []])
    state = act(state, 1, Touch(4, rt_ms=500), T + 500)
    state = decide(act(state, 0, Touch(0, rt_ms=500), T + 501))
    assert state.disqualified == {1} and state.won == ((TAN[0], TAN[1]), (), ())


def test_C7_a_wrong_touch_after_the_winning_touch_is_too_late() -> None:
    state = position(3, won=[[], [1], []])
    state = act(state, 0, Touch(0, rt_ms=500), T + 500)
    state = decide(act(state, 1, Touch(4, rt_ms=510), T + 510))  # the round was already won
    assert state.disqualified == frozenset() and ("touch", 1, 4, 510, "late") in state.round_log()
    assert state.won == ((TAN[0],), (TAN[1],), ())


def test_C10_a_wrong_no_match_call_within_the_tie_window_before_the_winner_disqualifies() -> None:
    state = position(3, bluffo=True, bluffos=[1, 1, 1], won=[[], [1], []])
    state = act(state, 1, Bluffo(rt_ms=490), T + 490)  # empty stack: a "no match" call
    state = decide(act(state, 0, Touch(0, rt_ms=500), T + 500))
    assert state.disqualified == {1} and ("bluffo", 1, 490, "wrong") in state.round_log()
    assert state.won == ((TAN[0], TAN[1]), (), ())


def test_C14_the_reaction_time_defaults_to_the_time_since_the_reveal() -> None:
    state = act(position(3), 0, Touch(0), T + 640)
    assert state.pending[0].rt_ms == 640 and state.pending[0].arrival_ms == T + 640
    state = act(state, 1, Touch(0, rt_ms=600), T + 700)
    assert decide(state).won[1] == (TAN[0],)


def test_C14_the_race_is_decided_a_decision_window_after_the_first_input() -> None:
    state = act(position(3, decision_window_ms=400), 0, Touch(3), T + 1000)
    assert deadline(state) == T + 1400
    with pytest.raises(IllegalAction, match="nothing is due yet"):
        apply(state, None, Timeout(), T + 1399)
    state = act(state, 1, Touch(0, rt_ms=900), T + 1400)  # at the deadline: still in time
    with pytest.raises(IllegalAction, match="too late"):
        apply(state, 2, Touch(0, rt_ms=100), T + 1401)
    state = timeout(state)  # the later-arriving but faster correct touch wins
    assert state.won[1] == (TAN[0],) and state.disqualified == frozenset()
    assert ("touch", 0, 3, 1000, "late") in state.round_log()


def test_C14_the_decision_never_waits_past_the_round_timer() -> None:
    state = act(position(3), 0, Touch(3), T + 19_900)
    assert deadline(state) == T + 20_000
    state = timeout(state)  # the touch is decided, then the timer ends the round
    assert state.phase == PAUSE and state.disqualified == {0}
    assert events(state, "no_winner") == [("no_winner", "timer", 0)]


def test_C14_anticipation_is_ignored_without_penalty() -> None:
    state = act(position(3), 0, Touch(3), T + 60)
    assert state.pending == () and to_act(state) == (0, 1, 2)
    assert state.round_log()[-1] == ("anticipation", 0, "touch", 60)
    state = act(state, 0, Touch(0, rt_ms=99), T + 300)
    assert state.pending == ()
    state = act(state, 0, Touch(0, rt_ms=100), T + 300)
    assert state.pending[0].rt_ms == 100


def test_C14_time_never_runs_backwards() -> None:
    state = act(position(3), 0, Touch(3), T + 500)
    with pytest.raises(IllegalAction, match="time runs forward"):
        apply(state, 1, Touch(0), T + 499)


def test_C14_the_table_may_decide_waiting_inputs_before_the_deadline() -> None:
    state = act(position(3), 1, Touch(0, rt_ms=500), T + 600)
    pending = race(state)
    assert pending is not None and pending.reveal_ms == T
    assert [(e.seat, e.rt_ms) for e in pending.entries] == [(1, 500)]
    assert pending.open_seats == (0, 2) and pending.horizon_ms == 520  # latest rt + tie window
    early = act_referee(state, Decide(), T + 601)
    assert early.won[1] == (TAN[0],) and race(early) is None
    assert early.won == timeout(state).won
    with pytest.raises(IllegalAction, match="no input waiting"):
        apply(early, None, Decide(), T + 601)
    with pytest.raises(IllegalAction, match="due to be decided at"):
        apply(state, None, Decide(), T + 851)
    with pytest.raises(IllegalAction, match="made by the table"):
        apply(state, 0, Decide(), T + 601)


def test_C14_an_early_decision_of_a_wrong_touch_disqualifies_and_the_round_goes_on() -> None:
    state = act(position(3), 2, Touch(1, rt_ms=300), T + 300)
    state = act_referee(state, Decide(), T + 301)
    assert state.disqualified == frozenset({2}) and state.phase == ROUND
    assert race(state) is None and to_act(state) == (0, 1)


def act_referee(state: State, action: object, at: int) -> State:
    """The table's own input (seat ``None``) at ``at`` ms, with the invariants checked."""
    after = apply(state, None, action, at)  # type: ignore[arg-type]
    check_invariants(after)
    return after
