"""Shared foundations (stdlib only): seats, errors, the game protocol, seeded randomness."""

from parlour.core.errors import (
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    ParlourError,
)
from parlour.core.protocol import Action, AnyGame, Decide, GameSpec, Seat, Timeout
from parlour.core.rng import CHANCE_VERSION, Rng, derive_rng, derive_seed

__all__ = [
    "CHANCE_VERSION",
    "Action",
    "AnyGame",
    "Decide",
    "GameOver",
    "GameSpec",
    "IllegalAction",
    "InvalidAction",
    "NotYourTurn",
    "ParlourError",
    "Rng",
    "Seat",
    "Timeout",
    "derive_rng",
    "derive_seed",
]
