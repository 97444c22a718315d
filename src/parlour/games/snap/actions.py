"""SNAP's actions, with a text form that round-trips and a JSON form.

- ``Flip()``: ``flip``; JSON ``{"type": "flip"}`` — the seat whose turn it is turns its top card.
- ``Snap()`` / ``Snap(412)``: ``snap`` / ``snap 412``; JSON ``{"type": "snap"}`` /
  ``{"type": "snap", "rt_ms": 412}`` — a call ("Snap" and "Snap Pot" are one action). ``rt_ms``
  is the reaction time to credit (N9: the server's anti-forgery bound already applied); without
  it the engine credits the time since the latest reveal.
- ``Timeout()`` (from ``parlour.core``): ``timeout``; JSON ``{"type": "timeout"}`` — applied by
  the referee (seat ``None``) at ``deadline(state)``; accepted here so records replay from text.
- ``Decide()`` (from ``parlour.core``): ``decide``; JSON ``{"type": "decide"}`` — the referee
  decides a pending race before its deadline (N9: nobody can still call earlier).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import Decide, InvalidAction, Timeout

MAX_RT_MS = 10_000_000
"""Upper bound on a reported reaction time (about 2.8 hours)."""


@dataclass(frozen=True, slots=True)
class Flip:
    """N3: turn the top card of your stock onto your face-up pile."""

    def __str__(self) -> str:
        return "flip"

    def to_json(self) -> dict[str, Any]:
        return {"type": "flip"}


@dataclass(frozen=True, slots=True)
class Snap:
    """N6: call "Snap!" (or "Snap Pot!"); ``rt_ms`` is the credited reaction time, if reported."""

    rt_ms: int | None = None

    def __str__(self) -> str:
        return "snap" if self.rt_ms is None else f"snap {self.rt_ms}"

    def to_json(self) -> dict[str, Any]:
        if self.rt_ms is None:
            return {"type": "snap"}
        return {"type": "snap", "rt_ms": self.rt_ms}


Action = Flip | Snap | Timeout | Decide

FLIP = Flip()
SNAP = Snap()
TIMEOUT = Timeout()
DECIDE = Decide()


def check_rt(value: Any) -> int | None:
    """``value`` if it is a valid reported reaction time (``None`` or a whole number of
    milliseconds from 0 to ``MAX_RT_MS``); raises ``InvalidAction`` otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"rt_ms must be a whole number of milliseconds, not {value!r}")
    if not 0 <= value <= MAX_RT_MS:
        raise InvalidAction(f"rt_ms must be between 0 and {MAX_RT_MS}, not {value}")
    return value


def parse_action(text: str) -> Action:
    """The action written as ``text`` (the inverse of ``str(action)``; case and spacing are
    free). Raises ``InvalidAction`` for anything that is not a SNAP action.

    >>> parse_action(" Snap  412 ")
    Snap(rt_ms=412)
    >>> str(parse_action("flip")), str(parse_action("snap"))
    ('flip', 'snap')
    """
    if not isinstance(text, str):
        raise InvalidAction(f"an action is text, not {type(text).__name__}")
    words = text.lower().split()
    if words == ["flip"]:
        return FLIP
    if words == ["timeout"]:
        return TIMEOUT
    if words == ["decide"]:
        return DECIDE
    if words[:1] == ["snap"] and len(words) <= 2:
        if len(words) == 1:
            return SNAP
        if not words[1].isdigit() or not words[1].isascii():
            raise InvalidAction(f"in {text!r}, the reaction time must be a whole number of ms")
        return Snap(check_rt(int(words[1])))
    raise InvalidAction(
        f"cannot read {text!r} as a SNAP action; expected 'flip', 'snap' or 'snap RT_MS'"
    )


_FIELDS = {"flip": {"type"}, "timeout": {"type"}, "decide": {"type"}, "snap": {"type", "rt_ms"}}


def action_from_json(obj: Any) -> Action:
    """The action encoded as ``obj`` (the inverse of ``action.to_json()``; a snap's ``rt_ms``
    may be absent or null). Raises ``InvalidAction`` for anything that is not a SNAP action.

    >>> action_from_json({"type": "snap", "rt_ms": 300})
    Snap(rt_ms=300)
    """
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action is a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidAction(f"unknown action type {kind!r}; expected one of {sorted(_FIELDS)}")
    extra = set(obj) - _FIELDS[kind]
    if extra:
        raise InvalidAction(f"a {kind} action has no field {', '.join(sorted(map(str, extra)))}")
    if kind == "flip":
        return FLIP
    if kind == "timeout":
        return TIMEOUT
    if kind == "decide":
        return DECIDE
    rt = check_rt(obj.get("rt_ms"))
    return SNAP if rt is None else Snap(rt)
