"""SCOUT actions: text and JSON forms round-trip; anything else is refused clearly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core import InvalidAction
from parlour.games.scout import (
    FLIP,
    KEEP,
    Scout,
    ScoutShow,
    Show,
    action_from_json,
    parse_action,
)

actions = st.one_of(
    st.sampled_from([FLIP, KEEP]),
    st.builds(Show, st.integers(0, 20), st.integers(1, 20)),
    st.builds(Scout, st.sampled_from(["left", "right"]), st.booleans(), st.integers(0, 20)),
    st.builds(ScoutShow, st.sampled_from(["left", "right"]), st.booleans(), st.integers(0, 20)),
)


@given(actions)
def test_text_and_json_forms_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action  # type: ignore[attr-defined]


def test_text_forms() -> None:
    assert str(Show(2, 3)) == "show 2 3"
    assert str(Scout("left", True, 4)) == "scout left rotated 4"
    assert str(ScoutShow("right", False, 0)) == "scout&show right 0"
    assert parse_action("  SCOUT  Right  0 ") == Scout("right", False, 0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "pass",
        "show",
        "show 1",
        "show a b",
        "show -1 2",
        "scout up 3",
        "scout left twisted 3",
        "scout left",
        "keep 1",
        "show 1 2 3",
        "scout left rotated 999",
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
        "show 1 2",
        {"type": "pass"},
        {"type": "show", "start": 1},
        {"type": "show", "start": "1", "length": 2},
        {"type": "show", "start": True, "length": 2},
        {"type": "flip", "flip": 1},
        {"type": "scout", "end": "middle", "rotate": False, "insert": 0},
        {"type": "scout", "end": "left", "rotate": False, "insert": 0, "extra": 1},
        {"type": "show", "start": 10**9, "length": 1},
    ],
)
def test_malformed_json_is_refused(obj: object) -> None:
    with pytest.raises(InvalidAction):
        action_from_json(obj)


@given(st.text(max_size=40))
def test_arbitrary_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidAction:
        return
    assert parse_action(str(action)) == action
