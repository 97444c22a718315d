"""SCAN through the protocol: refusals change nothing, views, options, replay, pickling."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from parlour.core import (
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    ParlourError,
    Timeout,
)
from parlour.core.conformance import check_view, contains
from parlour.games.scan import (
    GAME,
    Bluffo,
    ChooseCategory,
    ScanOptions,
    Touch,
    apply,
    deadline,
    hidden_info,
    legal_actions,
    new_state,
    options_from_json,
    outcome,
    scramble_hidden,
    to_act,
    view,
)
from tests.games.scan.helpers import REVEAL, act, decide, position, revealed, timeout

T = REVEAL


def test_the_game_spec() -> None:
    assert GAME.name == "scan" and (GAME.min_players, GAME.max_players) == (2, 8)
    assert GAME.options_from_json({"players": 5}) == ScanOptions(5)


def test_refusals_are_precise_and_change_nothing() -> None:
    state = position(3, bluffo=True)
    state = decide(act(state, 0, Touch(3), T + 300))  # seat 0 is out
    state = decide(act(state, 1, Bluffo(), T + 600))  # seat 1 claims
    state = act(state, 2, Touch(4), T + 900)  # seat 2 is waiting for the decision
    before = state.clone()
    cases = [
        (0, Touch(0), T + 1000, NotYourTurn, "out until the next reveal"),
        (1, Touch(0), T + 1000, NotYourTurn, "slapped Bluffo"),
        (2, Touch(0), T + 1000, NotYourTurn, "already acted"),
        (5, Touch(0), T + 1000, NotYourTurn, "no seat 5"),
        ("2", Touch(0), T + 1000, NotYourTurn, "a seat is a number"),
        (None, Touch(0), T + 1000, NotYourTurn, "only the table's Timeout"),
        (2, Timeout(), T + 1200, IllegalAction, "applied by the table"),
        (None, Timeout(), T + 1149, IllegalAction, "nothing is due yet"),
        (2, "touch 0", T + 1000, InvalidAction, "not a SCAN action"),
        (2, Touch(40), T + 1000, InvalidAction, "between 0 and 22"),
        (2, Touch(0), T + 899, IllegalAction, "time runs forward"),
        (2, Touch(0), 1.5, InvalidAction, "whole number of milliseconds"),
    ]
    for seat, action, now, error, words in cases:
        with pytest.raises(error, match=words) as caught:
            apply(state, seat, action, now)  # type: ignore[arg-type]
        assert isinstance(caught.value, ParlourError) and caught.value.code
        assert state == before


def test_refusals_of_the_round_and_the_pause() -> None:
    state = position(3, size=6, missing=[5], bluffo=True, won=[[], [], []])
    with pytest.raises(IllegalAction, match="positions 0 to 4"):
        apply(state, 0, Touch(5), T + 500)
    with pytest.raises(IllegalAction, match="between rounds"):
        apply(state, 0, ChooseCategory("shape"), T + 500)
    pause = timeout(state)
    with pytest.raises(NotYourTurn, match="no card is revealed"):
        apply(pause, 0, Touch(0), pause.time_ms)
    over = new_state(ScanOptions(2, round_timer_ms=1), 3)
    while outcome(over) is None:
        over = timeout(over)
    with pytest.raises(GameOver):
        apply(over, 0, Touch(0), over.time_ms + 1)


def test_error_codes() -> None:
    state = position(2)
    for seat, action, code in [(7, Touch(0), "not_your_turn"), (0, Bluffo(), "illegal_action")]:
        with pytest.raises(ParlourError) as caught:
            apply(state, seat, action, T + 500)
        assert caught.value.to_json()["code"] == code and caught.value.to_json()["message"]


def test_views_show_the_round_and_only_the_seats_own_waiting_input() -> None:
    state = act(position(3, bluffo=True), 0, Touch(4, rt_ms=450), T + 500)
    mine, other, spectator = view(state, 0), view(state, 1), view(state, None)
    assert mine["my_input"] == {"input": "touch", "blue_index": 4, "rt_ms": 450, "at_ms": T + 500}
    assert other["my_input"] is None and spectator["my_input"] is None
    assert mine["waiting"] == other["waiting"] == [0]
    assert mine["legal_actions"] == [] and spectator["legal_actions"] == []
    assert other["legal_actions"] == [f"touch {i}" for i in range(6)] + ["bluffo"]
    assert other["tan"] == [0, 0, 0, 0] and other["layout"][1] == [1, 2, 3, 4]
    # nothing tells when the waiting input came (its reaction time): the round's end, the reveal
    assert other["deadline_ms"] == T + state.options.round_timer_ms
    assert other["deadline_kind"] == "round_timer" and other["time_ms"] == T
    assert other["match"] is None and other["removed"] is None
    assert "blue_index" not in json.dumps(other["log"])
    after = decide(state)
    assert view(after, 1)["log"][-1] == {
        "type": "touch",
        "seat": 0,
        "blue_index": 4,
        "rt_ms": 450,
        "verdict": "wrong",
    }
    assert view(after, 1)["disqualified"] == [0]


def test_views_never_show_the_covered_cards_or_the_removed_ones() -> None:
    state = revealed(4, seed=10**12 + 5, bluffo=True)
    state = act(state, 1, Touch(2), state.reveal_ms + 900)
    rng = random.Random(1)
    for seat in (0, 1, 2, 3, None):
        check_view(GAME, state, seat, rng)
        shown = view(state, seat)
        for card in state.covered:
            assert not contains(shown, list(card))
        for card in state.removed:
            assert not contains(shown, list(card))
    secrets = hidden_info(state, 0)
    assert [list(c) for c in state.covered] in secrets
    assert [list(c) for c in state.removed] in secrets


def test_scrambling_redraws_what_is_hidden() -> None:
    state = revealed(3, seed=4, bluffo=True)
    state = act(state, 1, Touch(2, rt_ms=700), state.reveal_ms + 900)
    other = scramble_hidden(state, 0, random.Random(2))
    assert other.covered != state.covered and sorted(other.covered) != sorted(state.covered)
    assert other.removed != state.removed and other.layout == state.layout
    assert other.pending[0].arrival_ms == state.pending[0].arrival_ms
    assert other.pending != state.pending and other.seed != state.seed
    assert view(other, 0) == view(state, 0)
    assert scramble_hidden(state, 1, random.Random(2)).pending == state.pending  # its own


def test_legal_actions_and_to_act() -> None:
    state = position(3, bluffo=True)
    assert to_act(state) == (0, 1, 2)
    assert [str(a) for a in legal_actions(state, 2)][-2:] == ["touch 5", "bluffo"]
    assert legal_actions(state, 9) == []
    pause = timeout(state)
    assert to_act(pause) == () and legal_actions(pause, 0) == []


def test_options() -> None:
    assert options_from_json(None) == ScanOptions()
    assert ScanOptions().to_json() == {
        "players": 4,
        "category": "shape",
        "dealers_choice": False,
        "bluffo": False,
        "four_in_a_row": False,
        "round_timer_ms": 20_000,
        "confirm_window_ms": 3_000,
        "choice_timer_ms": 5_000,
        "tie_window_ms": 20,
        "decision_window_ms": 250,
        "reveal_pause_ms": 1_500,
        "anticipation_ms": 100,
    }
    assert options_from_json(ScanOptions(3).to_json()) == ScanOptions(3)
    assert options_from_json({"players": 2, "category": "random"}).category == "random"
    for bad in (
        {"players": 9},
        {"players": "4"},
        {"category": "red"},
        {"bluffo": 1},
        {"round_timer_ms": 0},
        {"tie_window_ms": -1},
        {"decision_window_ms": 2.5},
        {"reveal_pause_ms": 10**9},
        {"colour_blind": True},
        [],
        {"four_in_a_row": True, "dealers_choice": True},
    ):
        with pytest.raises(InvalidAction):
            options_from_json(bad)


def _random_game(seed: int) -> tuple[list[tuple[int | None, object, int]], object]:
    rng = random.Random(seed)
    state = new_state({"players": 4, "bluffo": True, "dealers_choice": True}, seed)
    moves: list[tuple[int | None, object, int]] = []
    now = 0
    while outcome(state) is None:
        seats, due = to_act(state), deadline(state)
        assert due is not None
        if seats and rng.random() < 0.7:
            now = rng.randint(now, due)
            seat: int | None = rng.choice(seats)
            action: object = rng.choice(legal_actions(state, seat))  # type: ignore[arg-type]
        else:
            now, seat, action = due, None, Timeout()
        moves.append((seat, action, now))
        state = apply(state, seat, action, now)  # type: ignore[arg-type]
    return moves, state


def test_replay_and_pickle_rebuild_the_same_state() -> None:
    moves, final = _random_game(99)
    again = new_state({"players": 4, "bluffo": True, "dealers_choice": True}, 99)
    for seat, action, now in moves:
        again = apply(again, seat, action, now)  # type: ignore[arg-type]
    assert again == final
    assert pickle.loads(pickle.dumps(final)) == final
    assert json.loads(json.dumps(view(final, 0))) == view(final, 0)
    result = outcome(final)
    assert result is not None and len(result["scores"]) == 4


def test_states_are_immutable_and_share_one_append_only_history() -> None:
    # The same idiom as SCOUT and SNAP: slotted states, frozen once handed out, whose history
    # is a linked list shared with the states before (an event costs O(1), not a copy).
    state = new_state({"players": 3, "bluffo": True}, seed=5)
    with pytest.raises(AttributeError):
        state.extra = 1  # type: ignore[attr-defined]
    before = state.events()
    nxt = apply(state, None, Timeout(), deadline(state))
    assert state.events() == before and nxt.events()[: len(before)] == before
    assert nxt.log[0] is state.log  # the new state links to the old history, uncopied
    assert nxt.round_log() == [e for e in nxt.events() if e[0] == "reveal"]
    later = apply(nxt, 0, Touch(0, 400), nxt.reveal_ms + 400)
    assert later.log is nxt.log  # a waiting input is not an event yet
    assert hash(later) == hash(pickle.loads(pickle.dumps(later)))
    assert pickle.loads(pickle.dumps(later)) == later
