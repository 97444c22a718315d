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
>>> unusually_fast("scan", events, people=[0, 1])
[{'seat': 0, 'flag': 'unusually_fast', 'median_rt_ms': 150, 'inputs': 6, 'floor_ms': 180}]
>>> unusually_fast("scan", events, people=[0])   # one person with bots: not a friends' table
[]
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from parlour.bots.reaction import FLOOR_MS

MIN_INPUTS = 5
"""Timed inputs a person must have made before their median can flag them."""


def reaction_times(game: str, events: Iterable[dict[str, Any]]) -> dict[int, list[int]]:
    """Every seat's credited reaction times in a game's public events: SCAN touches, Bluffo
    slaps and anticipations; SNAP calls (from each decision, and judged calls that carry one)."""
    found: dict[int, list[int]] = {}

    def note(item: dict[str, Any]) -> None:
        seat, rt = item.get("seat"), item.get("rt_ms")
        if isinstance(seat, int) and isinstance(rt, int):
            found.setdefault(seat, []).append(rt)

    for event in events:
        kind = event.get("type")
        if game == "scan" and kind in ("touch", "bluffo", "anticipation"):
            note(event)
        elif game == "snap" and kind in ("win", "tie", "void"):
            for call in event.get("calls", []):
                note(call)
        elif game == "snap" and kind == "call":
            note(event)  # a race call carries no time here: it is in its decision
    return found


def unusually_fast(
    game: str, events: Iterable[dict[str, Any]], people: Sequence[int], floor_ms: int = FLOOR_MS
) -> list[dict[str, Any]]:
    """The people flagged for implausibly fast play (see the module docstring), by seat; empty
    unless two or more ``people`` sit at the table."""
    if len(people) < 2:
        return []
    flagged = []
    times = reaction_times(game, events)
    for seat in sorted(people):
        mine = times.get(seat, [])
        if len(mine) < MIN_INPUTS:
            continue
        median = statistics.median(mine)
        if median < floor_ms:
            flagged.append({"seat": seat, "flag": "unusually_fast", "median_rt_ms": round(median),
                            "inputs": len(mine), "floor_ms": floor_ms})  # fmt: skip
    return flagged
