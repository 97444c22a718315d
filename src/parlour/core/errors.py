"""Errors raised by the engines, each with a machine-readable ``code`` and a human sentence.

Every error an engine raises leaves the state it was given unchanged: states are immutable and
``apply`` builds a new one only after all validation has passed.
"""

from __future__ import annotations


class ParlourError(Exception):
    """Base class of every error Parlour raises on purpose.

    ``code`` is stable and machine-readable; ``str(error)`` is a sentence for a person.
    """

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str]:
        """The error as it goes on the wire: ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}


class InvalidAction(ParlourError, ValueError):
    """The input is not an action of this game at all (malformed text or JSON, wrong types)."""

    code = "invalid_action"


class IllegalAction(ParlourError, ValueError):
    """A well-formed action that the rules do not allow in this state."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat is not among the seats that may act now."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """The game has ended; no further action is accepted."""

    code = "game_over"
