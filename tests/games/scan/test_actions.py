"""SCAN actions: text and JSON forms round-trip; anything else is refused clearly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core import InvalidAction, Timeout
from parlour.games.scan import Bluffo, ChooseCategory, Touch, action_from_json, parse_action
from parlour.games.scan.actions import MAX_RT_MS, check_action
from parlour.games.scan.cards import CATEGORIES

reaction_times = st.none() | st.integers(0, MAX_RT_MS)
actions = st.one_of(
    st.builds(Touch, st.integers(0, 22), reaction_times),
    st.builds(Bluffo, reaction_times),
    st.builds(ChooseCategory, st.sampled_from(CATEGORIES)),
    st.just(Timeout()),
)


@given(actions)
def test_text_and_json_forms_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action  # type: ignore[attr-defined]
    assert check_action(action) == action


def test_text_and_json_forms() -> None:
    assert str(Touch(5)) == "touch 5" and str(Touch(5, 412)) == "touch 5 rt 412"
    assert str(Bluffo()) == "bluffo" and str(Bluffo(950)) == "bluffo rt 950"
    assert str(ChooseCategory("colour")) == "choose colour" and str(Timeout()) == "timeout"
    assert Touch(5).to_json() == {"type": "touch", "blue_index": 5}
    assert Touch(5, 412).to_json() == {"type": "touch", "blue_index": 5, "rt_ms": 412}
    assert Bluffo().to_json() == {"type": "bluffo"}
    assert ChooseCategory("shape").to_json() == {"type": "choose", "category": "shape"}
    assert parse_action("  TOUCH  7  RT  300 ") == Touch(7, 300)
    assert parse_action("Choose Position") == ChooseCategory("position")
    assert action_from_json({"type": "bluffo", "rt_ms": None}) == Bluffo()
    assert action_from_json({"type": "timeout"}) == Timeout()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "pass",
        "touch",
        "touch x",
        "touch -1",
        "touch 23",
        "touch 2.5",
        "touch 3 412",
        "touch 3 rt",
        "touch 3 rt -5",
        "touch 3 rt 1e3",
        "touch 3 rt 100000000000",
        "touch 3 rt 4 5",
        "bluffo 400",
        "bluffo rt",
        "choose",
        "choose red",
        "choose shape pattern",
        "timeout now",
    ],
)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        parse_action(text)


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "touch 3",
        {},
        {"type": "slap"},
        {"type": "touch"},
        {"type": "touch", "blue_index": "3"},
        {"type": "touch", "blue_index": True},
        {"type": "touch", "blue_index": 3.0},
        {"type": "touch", "blue_index": 23},
        {"type": "touch", "blue_index": 3, "rt_ms": -1},
        {"type": "touch", "blue_index": 3, "rt_ms": "400"},
        {"type": "touch", "blue_index": 3, "card": 4},
        {"type": "bluffo", "blue_index": 3},
        {"type": "choose", "category": "Shape"},
        {"type": "choose"},
        {"type": "timeout", "at": 5},
        {"type": ["touch"]},
    ],
)
def test_malformed_json_is_refused(obj: object) -> None:
    with pytest.raises(InvalidAction):
        action_from_json(obj)


@pytest.mark.parametrize(
    "action",
    [
        Touch(-1),
        Touch(23),
        Touch("3"),
        Touch(3, -2),
        Bluffo(True),
        ChooseCategory("red"),
        "touch 3",
    ],  # type: ignore[arg-type]
)
def test_malformed_action_objects_are_refused(action: object) -> None:
    with pytest.raises(InvalidAction):
        check_action(action)


def test_refusals_say_what_was_expected() -> None:
    with pytest.raises(InvalidAction, match="expected 'touch POSITION"):
        parse_action("slap")
    with pytest.raises(InvalidAction, match="between 0 and 22"):
        parse_action("touch 40")
    with pytest.raises(InvalidAction, match="one of shape, pattern, position, colour"):
        parse_action("choose red")
    with pytest.raises(InvalidAction, match="unknown action type"):
        action_from_json({"type": "slap"})


@given(st.text(max_size=40))
def test_arbitrary_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidAction:
        return
    assert parse_action(str(action)) == action


@given(
    st.dictionaries(
        st.sampled_from(["type", "blue_index", "rt_ms", "category"]),
        st.integers(-3, 30) | st.text(max_size=8) | st.none(),
    )
)
def test_arbitrary_json_is_read_or_refused_cleanly(obj: dict[str, object]) -> None:
    try:
        action = action_from_json(obj)
    except InvalidAction:
        return
    assert action_from_json(action.to_json()) == action
