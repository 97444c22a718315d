"""A base for immutable game states kept in ``__slots__`` with a linked-list history.

Engines copy states field by field on every action (fast), and append to their history as a
linked list ``(previous, event)`` (O(1)). This base gives such states what the protocol needs:
equality and hashing, copying and pickling — with the history compared and pickled flattened, so
long games neither recurse deeply nor compare slowly. A subclass declares its ``__slots__``
(including ``log``), and ``events()`` returning the whole history oldest first.
"""

from __future__ import annotations

from typing import Any


class LoggedState:
    """Equality, hashing, copying and pickling for slotted states with a ``log`` slot."""

    __slots__: tuple[str, ...] = ()

    def events(self) -> list[Any]:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def clone(self) -> Any:
        """A shallow copy, to be changed by the code that builds the next state."""
        new = object.__new__(type(self))
        for name in type(self).__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def _fields(self) -> tuple[Any, ...]:
        return tuple(
            tuple(self.events()) if name == "log" else getattr(self, name)
            for name in type(self).__slots__
        )

    def __copy__(self) -> Any:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._fields()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        for name in type(self).__slots__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is theirs:
                continue
            if name == "log":
                if self.events() != other.events():
                    return False
            elif mine != theirs:
                return False
        return True

    def __hash__(self) -> int:
        return hash(self._fields())


def _rebuild(cls: type[LoggedState], fields: tuple[Any, ...]) -> LoggedState:
    # Unpickle a state (see LoggedState.__reduce__): relink the flattened history.
    state = object.__new__(cls)
    for name, value in zip(cls.__slots__, fields, strict=True):
        setattr(state, name, value)
    log: Any = None
    for event in getattr(state, "log"):  # noqa: B009 (subclasses declare the slot)
        log = (log, event)
    object.__setattr__(state, "log", log)
    return state
