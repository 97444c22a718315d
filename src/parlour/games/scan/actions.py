"""SCAN's actions, with a text form that round-trips and a JSON form.

- ``Touch(blue_index, rt_ms=None)``: touch the blue card at that layout position (C7);
  ``touch 5`` or ``touch 5 rt 412``; JSON ``{"type": "touch", "blue_index": 5}`` plus
  ``"rt_ms": 412`` when a reaction time is given.
- ``Bluffo(rt_ms=None)``: slap the Bluffo stack, or make the "no match" call when the stack is
  empty (C10); ``bluffo`` or ``bluffo rt 950``; JSON ``{"type": "bluffo"}`` (plus ``rt_ms``).
- ``ChooseCategory(category)``: Dealer's Choice, name the next card's category (C11);
  ``choose colour``; JSON ``{"type": "choose", "category": "colour"}``.
- ``Timeout()`` (from ``parlour.core``): applied by the table with seat ``None`` at the
  deadline; ``timeout``; JSON ``{"type": "timeout"}``.
- ``Decide()`` (from ``parlour.core``): the table decides the waiting inputs before the
  deadline (N9: nobody can still come in earlier); ``decide``; JSON ``{"type": "decide"}``.

``rt_ms`` is the reaction time the table credits the input with, in milliseconds from the reveal
(C14, N9: the table computes it with ``parlour.core.race.effective_rt``); without it the engine
credits ``now_ms - reveal_ms``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import Decide, InvalidAction, Timeout
from parlour.games.scan.cards import CARDS, CATEGORIES

MAX_RT_MS = 86_400_000
"""Upper bound on a reaction time an action may carry (a day)."""


@dataclass(frozen=True, slots=True)
class Touch:
    """C7: touch the blue card at position ``blue_index`` of the layout."""

    blue_index: int
    rt_ms: int | None = None

    def __str__(self) -> str:
        rt = "" if self.rt_ms is None else f" rt {self.rt_ms}"
        return f"touch {self.blue_index}{rt}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "touch", "blue_index": self.blue_index}
        if self.rt_ms is not None:
            out["rt_ms"] = self.rt_ms
        return out


@dataclass(frozen=True, slots=True)
class Bluffo:
    """C10: slap the Bluffo stack (the revealed card has no match), or with an empty stack make
    the "no match" call."""

    rt_ms: int | None = None

    def __str__(self) -> str:
        return "bluffo" if self.rt_ms is None else f"bluffo rt {self.rt_ms}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "bluffo"}
        if self.rt_ms is not None:
            out["rt_ms"] = self.rt_ms
        return out


@dataclass(frozen=True, slots=True)
class ChooseCategory:
    """C11 (Dealer's Choice): the round's winner names the category of the next card."""

    category: str

    def __str__(self) -> str:
        return f"choose {self.category}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "choose", "category": self.category}


Action = Touch | Bluffo | ChooseCategory | Timeout | Decide

TOUCHES: tuple[Touch, ...] = tuple(Touch(i) for i in range(CARDS))
"""Interned ``Touch(i)`` without a reaction time, as ``legal_actions`` hands them out."""
BLUFFO = Bluffo()
CHOICES: tuple[ChooseCategory, ...] = tuple(ChooseCategory(c) for c in CATEGORIES)
"""The four Dealer's Choice actions, in card order."""
TIMEOUT = Timeout()
DECIDE = Decide()


def _int(value: Any, name: str, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{name} must be a whole number, not {value!r}")
    if not 0 <= value <= top:
        raise InvalidAction(f"{name} must be between 0 and {top}, not {value}")
    return value


def _rt(value: Any) -> int | None:
    return None if value is None else _int(value, "rt_ms", MAX_RT_MS)


def _category(value: Any) -> str:
    if not isinstance(value, str) or value not in CATEGORIES:
        raise InvalidAction(f"category must be one of {', '.join(CATEGORIES)}, not {value!r}")
    return value


def check_action(action: object) -> Action:
    """``action`` itself if it is a well-formed SCAN action (fields of the right types and in
    range); raises ``InvalidAction`` otherwise."""
    cls = type(action)
    if cls is Touch:
        assert isinstance(action, Touch)
        _int(action.blue_index, "blue_index", CARDS - 1)
        _rt(action.rt_ms)
        return action
    if cls is Bluffo:
        assert isinstance(action, Bluffo)
        _rt(action.rt_ms)
        return action
    if cls is ChooseCategory:
        assert isinstance(action, ChooseCategory)
        _category(action.category)
        return action
    if cls is Timeout or cls is Decide:
        return action  # type: ignore[return-value]
    raise InvalidAction(f"{action!r} is not a SCAN action")


def _parse_rt(words: list[str], text: str) -> int | None:
    if not words:
        return None
    if len(words) == 2 and words[0].lower() == "rt":
        try:
            return _rt(int(words[1]))
        except ValueError as exc:
            if isinstance(exc, InvalidAction):
                raise
            raise InvalidAction(f"cannot read the reaction time in {text!r}") from None
    raise InvalidAction(f"cannot read {text!r}: after the action only 'rt MILLISECONDS' may follow")


def parse_action(text: str) -> Action:
    """The action written as ``text`` (the inverse of ``str(action)``; case and spacing are
    free).

    Raises ``InvalidAction`` for anything that is not a SCAN action.

    >>> parse_action("touch 5 rt 412")
    Touch(blue_index=5, rt_ms=412)
    >>> str(parse_action("  Choose  COLOUR "))
    'choose colour'
    """
    if not isinstance(text, str):
        raise InvalidAction(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise InvalidAction("empty action")
    head, rest = words[0].lower(), words[1:]
    if head == "touch" and rest:
        try:
            index = int(rest[0])
        except ValueError:
            raise InvalidAction(f"cannot read the blue card's position in {text!r}") from None
        return Touch(_int(index, "blue_index", CARDS - 1), _parse_rt(rest[1:], text))
    if head == "bluffo":
        return Bluffo(_parse_rt(rest, text))
    if head == "choose" and len(rest) == 1:
        return ChooseCategory(_category(rest[0].lower()))
    if head == "timeout" and not rest:
        return TIMEOUT
    if head == "decide" and not rest:
        return DECIDE
    raise InvalidAction(
        f"cannot read {text!r} as a SCAN action; expected 'touch POSITION [rt MS]', "
        "'bluffo [rt MS]', 'choose shape|pattern|position|colour', 'timeout' or 'decide'"
    )


_FIELDS = {
    "touch": ({"type", "blue_index"}, {"rt_ms"}),
    "bluffo": ({"type"}, {"rt_ms"}),
    "choose": ({"type", "category"}, set()),
    "timeout": ({"type"}, set()),
    "decide": ({"type"}, set()),
}


def action_from_json(obj: Any) -> Action:
    """The action encoded as ``obj`` (the inverse of ``action.to_json()``; ``"rt_ms": null``
    is the same as leaving it out).

    Raises ``InvalidAction`` for anything that is not a SCAN action.

    >>> action_from_json({"type": "touch", "blue_index": 3, "rt_ms": None})
    Touch(blue_index=3, rt_ms=None)
    """
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action is a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidAction(f"unknown action type {kind!r}; expected one of {sorted(_FIELDS)}")
    required, optional = _FIELDS[kind]
    if not required <= set(obj) <= required | optional:
        raise InvalidAction(
            f"a {kind} action has the fields {sorted(required)}"
            + (f" and optionally {sorted(optional)}" if optional else "")
        )
    if kind == "touch":
        return Touch(_int(obj["blue_index"], "blue_index", CARDS - 1), _rt(obj.get("rt_ms")))
    if kind == "bluffo":
        return Bluffo(_rt(obj.get("rt_ms")))
    if kind == "choose":
        return ChooseCategory(_category(obj["category"]))
    return DECIDE if kind == "decide" else TIMEOUT
