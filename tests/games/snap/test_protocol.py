"""SNAP through the protocol: refusals change nothing, time order, views, options, replay."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from parlour.core import GameOver, IllegalAction, InvalidAction, NotYourTurn, ParlourError
from parlour.games.snap import (
    FLIP,
    GAME,
    SNAP,
    TIMEOUT,
    Snap,
    SnapOptions,
    apply,
    deadline,
    history,
    legal_actions,
    new_state,
    options_from_json,
    outcome,
    to_act,
    view,
)
from tests.games.snap.helpers import call, flip, position, timeout


def test_game_spec() -> None:
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("snap", 2, 12)
    assert GAME.apply is apply and GAME.view is view and GAME.deadline is deadline


def racing() -> Any:
    # Seat 3 is out; seat 0 flipped 7C onto nothing at 1000 and 7C meets seat 2's 7H; seat 1
    # called at 1300: the race is decided at 1550.
    state = position(["7C 2C", "4D 5D", "6H 2D", ""], piles=["", "", "7H", ""], turn=0)
    return call(flip(state, now=1000), 1, 1300)


@pytest.mark.parametrize(
    ("seat", "action", "now", "error", "words"),
    [
        (3, SNAP, 1400, NotYourTurn, "seat 3 is out"),
        (7, SNAP, 1400, NotYourTurn, "no seat 7"),
        ("0", SNAP, 1400, NotYourTurn, "no seat '0'"),
        (True, SNAP, 1400, NotYourTurn, "no seat True"),
        (2, FLIP, 1400, NotYourTurn, "seat 1's turn to flip"),
        (1, FLIP, 1400, IllegalAction, "a call is being decided"),
        (1, TIMEOUT, 1600, IllegalAction, "applied by the referee"),
        (None, SNAP, 1400, NotYourTurn, "only the referee"),
        (None, TIMEOUT, 1549, IllegalAction, "nothing is due before 1550 ms"),
        (0, SNAP, 1299, IllegalAction, "before the latest input at 1300 ms"),
        (0, SNAP, 1551, IllegalAction, "the timeout due at 1550 ms comes before"),
        (0, "snap", 1400, InvalidAction, "not a SNAP action"),
        (0, Snap(-5), 1400, InvalidAction, "between 0 and"),
        (0, Snap("5"), 1400, InvalidAction, "whole number"),  # type: ignore[arg-type]
        (0, SNAP, "1400", InvalidAction, "now_ms must be a whole number"),
        (0, SNAP, 1400.0, InvalidAction, "now_ms must be a whole number"),
    ],
)
def test_refusals_are_precise_and_change_nothing(
    seat: Any, action: Any, now: Any, error: type[ParlourError], words: str
) -> None:
    state = racing()
    before = state.clone()
    with pytest.raises(error, match=words) as caught:
        apply(state, seat, action, now)
    assert caught.value.code == error.code and caught.value.to_json()["message"]
    assert state == before


def test_flips_open_only_by_an_input_at_or_after_the_opening_time() -> None:
    state = flip(position(["7C 2C", "4D 5D", "6H 2D"], turn=0), now=1000)
    # an input at exactly 1900 does not open flips by itself: the timeout comes first
    with pytest.raises(IllegalAction, match="flips open at 1900 ms"):
        apply(state, 1, FLIP, 1900)
    # any input at or after the opening time (a call here) opens them
    late = call(state, 2, 1900)
    assert legal_actions(late, 1) == [FLIP, SNAP]
    assert apply(late, 1, FLIP, 1900).flipping == (1900, 1900, False)  # revealed at once


def test_the_game_over_refuses_everything() -> None:
    state = position(["2C 3C", "2D 4D"], turn=0)
    state = call(flip(state, now=0), 1, 500)  # a dead position
    assert outcome(state) is not None and deadline(state) is None and to_act(state) == ()
    for seat, action in [(0, SNAP), (1, FLIP), (None, TIMEOUT)]:
        with pytest.raises(GameOver, match="dead position"):
            apply(state, seat, action, 600)
    assert GameOver.code == "game_over"


def test_views_are_public_and_the_same_for_every_seat() -> None:
    state = racing()
    spectator = view(state, None)
    assert spectator["legal_actions"] == [] and spectator["seat"] is None
    for seat in range(4):
        shown = view(state, seat)
        assert shown["seat"] == seat
        assert {k: v for k, v in shown.items() if k not in ("seat", "legal_actions")} == {
            k: v for k, v in spectator.items() if k not in ("seat", "legal_actions")
        }
    assert [view(state, s)["legal_actions"] for s in range(4)] == [["snap"]] * 3 + [[]]
    assert json.loads(json.dumps(spectator)) == spectator


def test_view_contents() -> None:
    state = racing()
    shown = view(state, 2)
    assert shown["seats"][0] == {"seat": 0, "stock": 1, "pile": 1, "top": "7C", "out": False}
    assert shown["seats"][3]["out"] is True
    assert shown["pot"] == {"size": 0, "top": None}
    # a pending call's reaction time stays hidden until the decision, and so does anything
    # that moved with its arrival (1300): the decision deadline and the clock
    assert shown["race"] == {"callers": [1]}
    assert (shown["seq"], shown["reveal_ms"], shown["clock_ms"]) == (1, 1000, 1000)
    assert (shown["flip_open_ms"], shown["deadline_ms"], shown["turn"]) == (1900, None, 1)
    assert shown["log"][-1] == {"type": "call", "seq": 1, "seat": 1, "verdict": "race"}
    decided = timeout(call(state, 0, 1400, rt=250))
    log = view(decided, None)["log"]
    assert log[-1]["calls"] == [{"seat": 0, "rt_ms": 250}, {"seat": 1, "rt_ms": 300}]
    assert log[-1]["type"] == "win" and log[-1]["seat"] == 0 and log[-1]["claim"] == [0, 2]
    # the log holds the events since the latest flip; history holds them all
    later = flip(decided)
    assert [e["type"] for e in view(later, None)["log"]] == ["flip"]
    assert [e["type"] for e in history(later)] == ["out", "flip", "call", "call", "win", "flip"]


def test_views_never_show_a_stock() -> None:
    state = new_state(SnapOptions(3), 10**12)
    text = json.dumps(view(state, 0))
    assert str(10**12) not in text
    assert all(f'"{c}"' not in text for c in ("AC", "2C", "KS", "10H"))  # nothing face up yet


def test_options() -> None:
    assert options_from_json(None) == SnapOptions()
    defaults = SnapOptions().to_json()
    assert defaults == {
        "players": 4,
        "match": "rank",
        "shuffle_on_recycle": False,
        "index_card": False,
        "tie_window_ms": 20,
        "min_flip_interval_ms": 900,
        "turn_timer_ms": 3000,
        "late_call_ms": 600,
        "decision_window_ms": 250,
        "reveal_delay_min_ms": 150,
        "reveal_delay_max_ms": 350,
    }
    assert options_from_json(defaults) == SnapOptions()
    assert options_from_json({"players": 12, "match": "rank_and_colour"}).players == 12
    assert SnapOptions(index_card=True, tie_window_ms=50).tie_window == 0
    for bad in (
        {"players": 1},
        {"players": 13},
        {"players": "4"},
        {"match": "suit"},
        {"index_card": 1},
        {"tie_window_ms": -1},
        {"turn_timer_ms": 2.5},
        {"reveal_delay_min_ms": 400},  # more than the maximum
        {"reveal_delay_max_ms": 60_001},
        {"colour": True},
        [],
    ):
        with pytest.raises(InvalidAction):
            options_from_json(bad)


def play(seed: int, players: int) -> tuple[SnapOptions, list[tuple[Any, Any, int]], Any]:
    # A random game with timeouts, recorded.
    rng = random.Random(seed)
    options = SnapOptions(players, shuffle_on_recycle=seed % 2 == 0)
    state = new_state(options, seed)
    moves: list[tuple[Any, Any, int]] = []
    now = 0
    while outcome(state) is None:
        due = deadline(state)
        assert due is not None
        if rng.random() < 0.3:
            seat, action, now = None, TIMEOUT, due
        else:
            now = rng.randint(now, due)
            seat = rng.choice(to_act(state))
            action = rng.choice(legal_actions(state, seat))
        moves.append((seat, action, now))
        state = apply(state, seat, action, now)
    return options, moves, state


def test_replay_and_pickle_rebuild_the_same_state() -> None:
    options, moves, final = play(4, 5)
    again = new_state(options, 4)
    for seat, action, now in moves:
        again = apply(again, seat, action, now)
    assert again == final and hash(again) == hash(final)
    copy = pickle.loads(pickle.dumps(final))
    assert copy == final and copy.events() == final.events()
    assert new_state(options, 5) != new_state(options, 4)
