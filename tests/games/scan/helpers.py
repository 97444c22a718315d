"""Builders and drivers for SCAN test positions, with times as plain numbers."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core import Timeout
from parlour.games.scan import (
    Card,
    ScanOptions,
    State,
    apply,
    check_invariants,
    deadline,
    match_index,
    new_state,
    state_from_cards,
)
from parlour.games.scan.state import ROUND

REVEAL = 1_000
"""When the explicit positions below reveal their first card."""


def small_deck(size: int = 6) -> tuple[list[Card], list[Card]]:
    """A deck of ``size`` tan and ``size`` blue cards with the C3 structure, easy to read:
    tan card ``i`` is ``(i, i, i, i)``; blue card ``j`` is ``(j, j+1, j+2, j+3)`` mod ``size``,
    so tan card ``i`` matches blue card ``i - c`` (mod ``size``) in category ``c``."""
    tan = [(i, i, i, i) for i in range(size)]
    blue = [(j, (j + 1) % size, (j + 2) % size, (j + 3) % size) for j in range(size)]
    return tan, blue


def position(
    players: int = 3,
    *,
    size: int = 6,
    missing: Sequence[int] = (),
    won: Sequence[Sequence[int]] | None = None,
    bluffos: Sequence[int] | None = None,
    reveal_ms: int | None = REVEAL,
    seed: int = 1,
    **options: object,
) -> State:
    """A small explicit game in a round: tan card 0 ``(0, 0, 0, 0)`` revealed at ``reveal_ms``,
    then tan cards 1, 2, ... under the cover (minus those held); the layout is blue cards
    0..size-1 in order, except the ``missing`` ones (removed for Bluffo); ``won`` lists the tan
    card numbers each seat already holds (most recent last). The category defaults to shape, so
    the match of tan card 0 is blue card 0 at position 0."""
    tan, blue = small_deck(size)
    held = [list(p) for p in won] if won is not None else [[] for _ in range(players)]
    taken = {i for p in held for i in p}
    covered = [tan[i] for i in range(size) if i not in taken]
    layout = [blue[j] for j in range(size) if j not in missing]
    removed = [blue[j] for j in missing]
    opts = ScanOptions(players, **options)  # type: ignore[arg-type]
    state = state_from_cards(
        covered,
        layout,
        removed=removed,
        won=[[tan[i] for i in p] for p in held],
        bluffos=bluffos,
        options=opts,
        seed=seed,
        reveal_ms=reveal_ms,
    )
    check_invariants(state)
    return state


def revealed(players: int = 3, seed: int = 1, **options: object) -> State:
    """A seeded game (full deck) with its first card revealed at its first deadline."""
    state = new_state(ScanOptions(players, **options), seed)  # type: ignore[arg-type]
    return timeout(state)


def timeout(state: State) -> State:
    """Apply the table's timeout at the state's deadline."""
    due = deadline(state)
    assert due is not None
    after = apply(state, None, Timeout(), due)
    check_invariants(after)
    return after


def act(state: State, seat: int, action: object, at: int) -> State:
    """Apply ``action`` by ``seat`` at ``at`` ms and check the invariants."""
    after = apply(state, seat, action, at)  # type: ignore[arg-type]
    check_invariants(after)
    return after


def decide(state: State) -> State:
    """Apply timeouts until the current round is decided (or a pause begins)."""
    while state.phase == ROUND and state.pending:
        state = timeout(state)
    return state


def match_of(state: State) -> int | None:
    """The layout position of the revealed card's match in the round's category."""
    assert state.tan is not None
    return match_index(state.layout, state.tan, state.round_category)


def wrong_of(state: State, k: int = 0) -> int:
    """The ``k``-th layout position that does not match the revealed card."""
    good = match_of(state)
    return [i for i in range(len(state.layout)) if i != good][k]


def play_round_to_end(state: State) -> State:
    """Let the round run out and the pause pass: the next card is revealed (or the game ends)."""
    while state.phase == ROUND:
        state = timeout(state)
    while state.phase != ROUND and deadline(state) is not None:
        state = timeout(state)
    return state
