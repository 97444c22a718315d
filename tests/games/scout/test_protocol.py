"""SCOUT through the protocol: refusals change nothing, views, options, replay, pickling."""

from __future__ import annotations

import pickle
import random

import pytest

from parlour.core import IllegalAction, InvalidAction, NotYourTurn, ParlourError
from parlour.games.registry import get_game
from parlour.games.scout import (
    GAME,
    KEEP,
    Scout,
    ScoutOptions,
    Show,
    apply,
    legal_actions,
    new_state,
    options_from_json,
    to_act,
    view,
)
from parlour.games.scout.view import history
from tests.games.scout.helpers import position


def test_registry_finds_scout() -> None:
    assert get_game("scout") is GAME
    with pytest.raises(KeyError):
        get_game("chess")


def test_refusals_are_precise_and_change_nothing() -> None:
    state = position([[5, 6, 1], [2, 9], [8, 3]], turn=0, active=[4], owner=2)
    before = state.clone()
    cases = [
        (1, Show(0, 1), NotYourTurn, "seat 0's turn"),
        (7, Show(0, 1), NotYourTurn, "no seat 7"),
        ("0", Show(0, 1), NotYourTurn, "a seat is a number"),
        (0, Show(2, 2), IllegalAction, "positions 0 to 2"),
        (0, Show(0, 0), IllegalAction, "1 or more adjacent"),
        (0, Show(1, 2), IllegalAction, "is neither a set"),
        (0, Show(2, 1), IllegalAction, "does not beat"),
        (0, Scout("left", False, 9), IllegalAction, "position from 0 to 3"),
        (0, KEEP, IllegalAction, "only at the start of a round"),
        (0, "show 0 1", InvalidAction, "not a SCOUT action"),
    ]
    for seat, action, error, words in cases:
        with pytest.raises(error, match=words) as caught:
            apply(state, seat, action)  # type: ignore[arg-type]
        assert isinstance(caught.value, ParlourError) and caught.value.code
        assert state == before


def test_error_codes() -> None:
    state = position([[5, 6, 1], [2, 9], [8, 3]], turn=0, active=[4], owner=2)
    for seat, action, code in [(1, Show(0, 1), "not_your_turn"), (0, Show(1, 2), "illegal_action")]:
        try:
            apply(state, seat, action)
        except ParlourError as err:
            assert err.to_json()["code"] == code
            assert err.to_json()["message"]


def test_views_show_own_hand_only() -> None:
    state = new_state(ScoutOptions(3), 12)
    for seat in range(3):
        shown = view(state, seat)
        assert shown["hand"] == [list(c) for c in state.hands[seat]]
        assert shown["legal_actions"] == ["keep", "flip"]
        assert [s["hand_size"] for s in shown["seats"]] == [12, 12, 12]
    spectator = view(state, None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []


def test_view_log_and_history_describe_scouts_publicly() -> None:
    state = position([[1, 2], [9, 9], [5, 5]], turn=1, active=[3, 4, 5], owner=0)
    state = apply(state, 1, Scout("right", True, 1))
    entry = view(state, 2)["log"][-1]
    assert entry == {
        "type": "scout",
        "round": 1,
        "seat": 1,
        "end": "right",
        "rotate": True,
        "insert": 1,
        "card": list(position([[1, 2], [9, 9], [5, 5]], turn=1, active=[3, 4, 5]).active[-1]),
        "chip_to": 0,
    }
    assert history(state, 2) == view(state, 2)["log"]


def test_options() -> None:
    assert options_from_json(None) == ScoutOptions()
    assert options_from_json({"players": 2, "count_unspent_chips": False}) == ScoutOptions(2, False)
    for bad in ({"players": 6}, {"players": "4"}, {"colour": 1}, [], {"count_unspent_chips": 1}):
        with pytest.raises(InvalidAction):
            options_from_json(bad)


def test_replay_and_pickle_rebuild_the_same_state() -> None:
    rng = random.Random(4)
    state = new_state({"players": 5}, 99)
    moves = []
    while GAME.outcome(state) is None:
        seat = to_act(state)[0]
        action = rng.choice(legal_actions(state, seat))
        moves.append((seat, action))
        state = apply(state, seat, action)
    again = new_state({"players": 5}, 99)
    for seat, action in moves:
        again = apply(again, seat, action)
    assert again == state and hash(again) == hash(state)
    assert pickle.loads(pickle.dumps(state)) == state


def test_views_share_each_logged_event_read_only_and_build_the_same_log_in_any_order() -> None:
    # Views convert each logged event once and share it (a view carries the round's whole
    # log): the shared events refuse changes, every view's log is a list of its own, and the
    # log is the same whichever states were viewed before (it extends the previous state's).
    rng = random.Random(7)
    state = new_state({"players": 4}, 31)
    states = [state]
    while GAME.outcome(state) is None and len(states) < 120:
        seat = to_act(state)[0]
        state = apply(state, seat, rng.choice(legal_actions(state, seat)))
        states.append(state)
    fresh = {  # each state's log, built from its events alone
        (i, seat): [dict(e) for e in history(s, seat) if e["round"] == s.round + 1]
        for i, s in enumerate(states) for seat in (0, 1, None)
    }  # fmt: skip
    for order in (list(range(len(states))), list(reversed(range(len(states))))):
        for i in order:
            for seat in (0, 1, None):
                assert view(states[i], seat)["log"] == fresh[i, seat], (i, seat)
    shown = view(states[-1], 0)
    event = next(e for e in shown["log"] if e["type"] in ("show", "scout"))
    with pytest.raises(TypeError, match="change a copy"):
        event["seat"] = 3
    with pytest.raises(TypeError):
        event.update(seat=3)
    assert pickle.loads(pickle.dumps(event)) == event and dict(event) == event
    shown["log"].append({"type": "mine"})
    assert view(states[-1], 0)["log"] == fresh[len(states) - 1, 0]
