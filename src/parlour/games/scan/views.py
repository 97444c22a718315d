"""The shape of a SCAN view (:func:`parlour.games.scan.view.view`): every key, with its type,
so that mypy checks what bots and the rest read of a view against what it holds."""

from __future__ import annotations

from typing import Any, TypedDict


class ScanSeatView(TypedDict):
    """What everyone sees of one seat."""

    seat: int
    won: list[list[int]]
    bluffo: int
    score: int
    total: int
    disqualified: bool
    waiting: bool


class ScanInputView(TypedDict):
    """A seat's own input waiting for the decision."""

    input: str
    blue_index: int | None
    rt_ms: int
    at_ms: int


class ScanView(TypedDict):
    """What a seat (or a spectator) sees of a SCAN game."""

    game: str
    options: dict[str, Any]
    seat: int | None
    players: int
    phase: str
    game_number: int
    games: int
    series: list[str]
    category: str
    next_category: str
    round: int
    rounds: int
    seq: int
    reveal_ms: int | None
    tan: list[int] | None
    layout: list[list[int]]
    covered: int
    set_aside: list[list[int]]
    bluffo_stack: int
    removed: list[list[int]] | None
    removed_count: int
    disqualified: list[int]
    claimant: int | None
    checking_until_ms: int | None
    waiting: list[int]
    my_input: ScanInputView | None
    match: int | None
    chooser: int | None
    deadline_ms: int | None
    deadline_kind: str | None
    time_ms: int
    to_act: list[int]
    legal_actions: list[str]
    seats: list[ScanSeatView]
    results: list[dict[str, Any]]
    totals: list[int]
    outcome: dict[str, Any] | None
    log: list[dict[str, Any]]
