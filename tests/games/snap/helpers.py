"""Builders and drivers for SNAP test positions: cards by name, inputs as plain numbers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.games.snap import (
    FLIP,
    TIMEOUT,
    Snap,
    State,
    apply,
    check_invariants,
    deadline,
    names,
    state_from_deal,
)

NO_DELAY = {"reveal_delay_min_ms": 0, "reveal_delay_max_ms": 0}
"""Options of a game whose flipped cards are revealed at once."""


def position(
    stocks: Sequence[str],
    piles: Sequence[str] | None = None,
    pot: str = "",
    **kwargs: Any,
) -> State:
    """A checked position from card names: ``stocks`` top first, ``piles`` and ``pot`` bottom
    first, each a space-separated string (see ``state_from_deal`` for the keywords). Without
    ``options``, flipped cards are revealed with no delay (N3's delay has tests of its own), so
    that a flip at ``t`` reveals at ``t``."""
    if "options" not in kwargs:
        kwargs["options"] = NO_DELAY | {"players": len(stocks)}
    state = state_from_deal(stocks, piles, pot, **kwargs)
    check_invariants(state)
    return state


def step(state: State, seat: int | None, action: Any, now: int) -> State:
    """``apply`` and check the invariants of the result."""
    after = apply(state, seat, action, now)
    check_invariants(after)
    return after


def timeout(state: State) -> State:
    """The referee's timeout applied exactly at the deadline."""
    due = deadline(state)
    assert due is not None
    return step(state, None, TIMEOUT, due)


def flip(state: State, now: int | None = None) -> State:
    """The seat to act flips at ``now`` (default: as soon as flips are open), opening flips with
    the timeout first if no input has come since they opened, and the card is revealed at the
    timeout after the reveal delay (N3)."""
    if state.clock_ms < state.flip_open_ms:
        state = timeout(state)
    state = step(state, state.turn, FLIP, state.clock_ms if now is None else now)
    return timeout(state) if state.over is None and state.flipping is not None else state


def call(state: State, seat: int, now: int, rt: int | None = None) -> State:
    """``seat`` calls at ``now`` (with a reported reaction time ``rt``, if given)."""
    return step(state, seat, Snap(rt), now)


def tops(state: State) -> list[str | None]:
    """Every face-up top by name (``None`` for an empty pile)."""
    return [names(p[-1:])[0] if p else None for p in state.piles]


def stock(state: State, seat: int) -> str:
    """A seat's stock by name, top first, as one string."""
    return " ".join(names(state.stocks[seat]))


def pile(state: State, seat: int) -> str:
    """A seat's face-up pile by name, bottom first, as one string."""
    return " ".join(names(state.piles[seat]))


def last_event(state: State) -> tuple[Any, ...]:
    """The newest event of the history."""
    return state.events()[-1]


def verdicts(state: State) -> list[tuple[int, str]]:
    """``(seat, verdict)`` of every call since the latest flip."""
    return [(e[2], e[5]) for e in state.events(since_flip=True) if e[0] == "call"]
