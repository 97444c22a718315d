"""SNAP actions: text and JSON forms round-trip; anything else is refused clearly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core import InvalidAction, Timeout
from parlour.games.snap import FLIP, SNAP, TIMEOUT, Flip, Snap, action_from_json, parse_action
from parlour.games.snap.actions import MAX_RT_MS

actions = st.one_of(
    st.just(FLIP),
    st.just(TIMEOUT),
    st.builds(Snap, st.none() | st.integers(0, MAX_RT_MS)),
)


@given(actions)
def test_text_and_json_forms_round_trip(action: Any) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_text_and_json_forms() -> None:
    assert [str(a) for a in (Flip(), Snap(), Snap(412), Timeout())] == [
        "flip",
        "snap",
        "snap 412",
        "timeout",
    ]
    assert Snap(412).to_json() == {"type": "snap", "rt_ms": 412}
    assert SNAP.to_json() == {"type": "snap"} and FLIP.to_json() == {"type": "flip"}
    assert parse_action("  SNAP   0 ") == Snap(0)
    assert parse_action("Flip") == FLIP and parse_action("TIMEOUT") == TIMEOUT
    assert action_from_json({"type": "snap", "rt_ms": None}) == SNAP


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "cannot read"),
        ("pass", "cannot read"),
        ("flip 3", "cannot read"),
        ("snap 1 2", "cannot read"),
        ("snap snap", "whole number"),
        ("snap -1", "whole number"),
        ("snap 1.5", "whole number"),
        ("snap +5", "whole number"),
        ("snap ²", "whole number"),
        ("snap 10000001", "between 0 and 10000000"),
        ("timeout now", "cannot read"),
        ("snappy", "cannot read"),
    ],
)
def test_malformed_text_is_refused(text: str, words: str) -> None:
    with pytest.raises(InvalidAction, match=words):
        parse_action(text)


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        (None, "JSON object"),
        ([], "JSON object"),
        ("snap", "JSON object"),
        ({}, "unknown action type None"),
        ({"type": "Snap"}, "unknown action type 'Snap'"),
        ({"type": 3}, "unknown action type 3"),
        ({"type": "snap", "rt_ms": "400"}, "whole number"),
        ({"type": "snap", "rt_ms": True}, "whole number"),
        ({"type": "snap", "rt_ms": 1.0}, "whole number"),
        ({"type": "snap", "rt_ms": -1}, "between 0"),
        ({"type": "snap", "rt": 300}, "no field rt"),
        ({"type": "flip", "seat": 1}, "no field seat"),
        ({"type": "timeout", "at": 5}, "no field at"),
    ],
)
def test_malformed_json_is_refused(obj: object, words: str) -> None:
    with pytest.raises(InvalidAction, match=words):
        action_from_json(obj)


def test_non_text_is_refused() -> None:
    with pytest.raises(InvalidAction, match="text, not int"):
        parse_action(5)  # type: ignore[arg-type]


@given(st.text(max_size=30))
def test_arbitrary_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidAction:
        return
    assert parse_action(str(action)) == action


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


@given(
    st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"type": st.sampled_from(["snap", "flip", "timeout"])},
            optional={"rt_ms": json_values},
        ),
    )
)
def test_arbitrary_json_is_an_action_or_refused_cleanly(obj: Any) -> None:
    try:
        action = action_from_json(obj)
    except InvalidAction:
        return
    assert action_from_json(action.to_json()) == action
