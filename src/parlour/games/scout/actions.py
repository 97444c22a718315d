"""SCOUT's actions, with a text form that round-trips and a JSON form.

- ``Flip(True)`` / ``Flip(False)``: ``flip`` / ``keep``; JSON ``{"type": "flip", "flip": true}``
- ``Show(start, length)``: ``show 2 3``; JSON ``{"type": "show", "start": 2, "length": 3}``
- ``Scout(end, rotate, insert)``: ``scout left rotated 4``;
  JSON ``{"type": "scout", "end": "left", "rotate": true, "insert": 4}``
- ``ScoutShow(end, rotate, insert)``: ``scout&show right 0``; JSON as Scout, type ``scout_show``

``ScoutShow`` is the Scout half of Scout & Show (S12): it spends the seat's Scout & Show chip and
performs the Scout; the same seat must then play a ``Show`` that beats the reduced show. The engine
offers a ``ScoutShow`` only when such a Show exists, so the turn can always be completed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import InvalidAction

LEFT = "left"
RIGHT = "right"
ENDS = (LEFT, RIGHT)
MAX_HAND = 64
"""Upper bound on hand positions an action may name (a SCOUT hand never comes close)."""


@dataclass(frozen=True, slots=True)
class Flip:
    """S5: at the start of a round, rotate the whole hand (``flip=True``) or keep it."""

    flip: bool

    def __str__(self) -> str:
        return "flip" if self.flip else "keep"

    def to_json(self) -> dict[str, Any]:
        return {"type": "flip", "flip": self.flip}


@dataclass(frozen=True, slots=True)
class Show:
    """S8–S10: play the ``length`` adjacent cards of the hand starting at index ``start``."""

    start: int
    length: int

    def __str__(self) -> str:
        return f"show {self.start} {self.length}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "show", "start": self.start, "length": self.length}


@dataclass(frozen=True, slots=True)
class Scout:
    """S11: take the ``end`` card of the active show, rotate it or not, insert it at ``insert``."""

    end: str
    rotate: bool
    insert: int

    def __str__(self) -> str:
        return f"scout {self.end}{' rotated' if self.rotate else ''} {self.insert}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "scout", "end": self.end, "rotate": self.rotate, "insert": self.insert}


@dataclass(frozen=True, slots=True)
class ScoutShow:
    """S12: the Scout half of Scout & Show; a ``Show`` by the same seat must follow."""

    end: str
    rotate: bool
    insert: int

    def __str__(self) -> str:
        return f"scout&show {self.end}{' rotated' if self.rotate else ''} {self.insert}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "scout_show", "end": self.end, "rotate": self.rotate, "insert": self.insert}


Action = Flip | Show | Scout | ScoutShow

FLIP = Flip(True)
KEEP = Flip(False)

# Interned actions: legal_actions hands out these shared instances instead of building new ones.
SHOWS: tuple[tuple[Show, ...], ...] = tuple(
    tuple(Show(start, length) for length in range(MAX_HAND + 1)) for start in range(MAX_HAND)
)
"""``SHOWS[start][length]``."""
ENDING: tuple[tuple[Show | None, ...], ...] = tuple(
    (None, *tuple(Show(end - length + 1, length) for length in range(1, end + 2)))
    for end in range(MAX_HAND)
)
"""``ENDING[end][length]``: the show of ``length`` cards whose last card is at ``end``."""


def _scout_table(cls: type[Scout] | type[ScoutShow]) -> tuple[tuple[Any, ...], ...]:
    # _SCOUTS[n] lists every (end, rotate, insert) for a hand of n cards, insert in 0..n,
    # ordered by end, then rotate, then insert.
    return tuple(
        tuple(cls(end, rot, ins) for end in ENDS for rot in (False, True) for ins in range(n + 1))
        for n in range(MAX_HAND)
    )


SCOUTS: tuple[tuple[Scout, ...], ...] = _scout_table(Scout)
SCOUT_SHOWS: tuple[tuple[ScoutShow, ...], ...] = _scout_table(ScoutShow)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{name} must be a whole number, not {value!r}")
    if not 0 <= value <= MAX_HAND:
        raise InvalidAction(f"{name} must be between 0 and {MAX_HAND}, not {value}")
    return value


def _end(value: Any) -> str:
    if value not in ENDS:
        raise InvalidAction(f"end must be 'left' or 'right', not {value!r}")
    return str(value)


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidAction(f"{name} must be true or false, not {value!r}")
    return value


def parse_action(text: str) -> Action:
    """The action written as ``text`` (the inverse of ``str(action)``).

    Raises ``InvalidAction`` for anything that is not a SCOUT action.

    >>> parse_action("scout left rotated 4")
    Scout(end='left', rotate=True, insert=4)
    >>> str(parse_action("show 2 3"))
    'show 2 3'
    """
    if not isinstance(text, str):
        raise InvalidAction(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise InvalidAction("empty action")
    head, rest = words[0].lower(), words[1:]
    try:
        if head in ("flip", "keep") and not rest:
            return FLIP if head == "flip" else KEEP
        if head == "show" and len(rest) == 2:
            return Show(_int(int(rest[0]), "start"), _int(int(rest[1]), "length"))
        if head in ("scout", "scout&show") and len(rest) in (2, 3):
            end = _end(rest[0].lower())
            rotated = len(rest) == 3
            if rotated and rest[1].lower() != "rotated":
                raise InvalidAction(f"expected 'rotated', not {rest[1]!r}")
            insert = _int(int(rest[-1]), "insert")
            cls = Scout if head == "scout" else ScoutShow
            return cls(end, rotated, insert)
    except ValueError as exc:
        if isinstance(exc, InvalidAction):
            raise
        raise InvalidAction(f"cannot read {text!r} as a SCOUT action: {exc}") from None
    raise InvalidAction(
        f"cannot read {text!r} as a SCOUT action; expected 'flip', 'keep', 'show START LENGTH', "
        "'scout left|right [rotated] POSITION' or 'scout&show left|right [rotated] POSITION'"
    )


def action_from_json(obj: Any) -> Action:
    """The action encoded as ``obj`` (the inverse of ``action.to_json()``).

    Raises ``InvalidAction`` for anything that is not a SCOUT action.
    """
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action is a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    fields = {
        "flip": {"type", "flip"},
        "show": {"type", "start", "length"},
        "scout": {"type", "end", "rotate", "insert"},
        "scout_show": {"type", "end", "rotate", "insert"},
    }
    if not isinstance(kind, str) or kind not in fields:
        raise InvalidAction(f"unknown action type {kind!r}; expected one of {sorted(fields)}")
    if set(obj) != fields[kind]:
        raise InvalidAction(f"a {kind} action has exactly the fields {sorted(fields[kind])}")
    if kind == "flip":
        return FLIP if _bool(obj["flip"], "flip") else KEEP
    if kind == "show":
        return Show(_int(obj["start"], "start"), _int(obj["length"], "length"))
    cls = Scout if kind == "scout" else ScoutShow
    return cls(_end(obj["end"]), _bool(obj["rotate"], "rotate"), _int(obj["insert"], "insert"))
