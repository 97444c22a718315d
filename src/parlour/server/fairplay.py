"""Implausible play at friends' tables: reaction times a person cannot have.

No server can stop a script that reads the layout and touches the match at 150 ms — its
reaction times are as honest as anybody's. What it can do is say so: at a table with two or more
people, a person whose timed inputs are persistently faster than the floor the rules give every
human-like opponent (``shared/rules/snap.md``: reaction times never below 180 ms) is flagged
"unusually fast" in the final results and in the server log.

"Persistently": at least :data:`MIN_INPUTS` timed inputs in the game, and their median below
the floor (half or more of them faster than any person reacts). Times are the credited reaction
times on the game clock, as shown in the results.

>>> events = [{"type": "touch", "seat": 0, "rt_ms": 150, "verdict": "correct"}] * 6
>>> events += [{"type": "touch", "seat": 1, "rt_ms": 900, "verdict": "correct"}] * 6
>>> unusually_fast(events, people=[0, 1])
[{'seat': 0, 'flag': 'unusually_fast', 'median_rt_ms': 150, 'inputs': 6, 'floor_ms': 180}]
>>> unusually_fast(events, people=[0])   # one person with bots: not a friends' table
[]
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from parlour.bots.reaction import FLOOR_MS

MIN_INPUTS = 5
"""Timed inputs a person must have made before their median can flag them."""


def reaction_times(events: Iterable[dict[str, Any]]) -> dict[int, list[int]]:
    """Every seat's credited reaction times in a game's public events: each event that names a
    seat and its ``rt_ms`` (a SCAN touch, Bluffo or anticipation, a judged SNAP call), and each
    call listed in a decision (``calls``: a SNAP race's entries, shown with its verdict).

    >>> race = {"type": "win", "seat": 0, "calls": [{"seat": 0, "rt_ms": 150},
    ...                                             {"seat": 1, "rt_ms": 400}]}
    >>> reaction_times([race, {"type": "call", "seat": 1, "rt_ms": 90, "verdict": "false"}])
    {0: [150], 1: [400, 90]}
    """
    found: dict[int, list[int]] = {}

    def note(item: Any) -> None:
        seat, rt = item.get("seat"), item.get("rt_ms")
        if isinstance(seat, int) and isinstance(rt, int):
            found.setdefault(seat, []).append(rt)

    for event in events:
        note(event)
        for call in event.get("calls", []):
            if isinstance(call, dict):
                note(call)
    return found


def unusually_fast(
    events: Iterable[dict[str, Any]], people: Sequence[int], floor_ms: int = FLOOR_MS
) -> list[dict[str, Any]]:
    """The people flagged for implausibly fast play (see the module docstring), by seat; empty
    unless two or more ``people`` sit at the table."""
    if len(people) < 2:
        return []
    flagged = []
    times = reaction_times(events)
    for seat in sorted(people):
        mine = times.get(seat, [])
        if len(mine) < MIN_INPUTS:
            continue
        median = statistics.median(mine)
        if median < floor_ms:
            flagged.append({"seat": seat, "flag": "unusually_fast", "median_rt_ms": round(median),
                            "inputs": len(mine), "floor_ms": floor_ms})  # fmt: skip
    return flagged
