"""Write (or check) the golden playthrough of one seeded 4-player SCAN game.

The game is played with Bluffo and Dealer's Choice by simple simulated players: at each reveal
every seat plans one input (usually a touch of the match after a reaction time of a second or
more, sometimes a wrong touch or a Bluffo slap) that reaches the table after a network delay,
carrying its reaction time as ``rt``; the table applies inputs in arrival order and its timeout
at each deadline. The file lists every input with its time and, after it, the round's new log
events and the views: ``public`` is the spectator's view and each ``seat N`` line holds the
fields of that seat's view that differ from it (its legal actions, its waiting input...), so every
view can be read off while the file stays small. Fields that never change within a game
(``options``, ``layout``) are printed when a game is set up; ``log`` is printed as new events.
Any change to the rules shows up as a readable diff. Check with ``make golden``; overwrite after
a deliberate rules change with ``make golden GOLDEN_ARGS="--write"``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from parlour.core import Timeout
from parlour.games import scan
from parlour.games.scan.rules import bluffo_allowed
from tests.games.golden import write_or_check

GOLDEN = Path(__file__).with_name("golden_4p_seed_2026.txt")
SEED = 2026
OPTIONS = scan.ScanOptions(4, bluffo=True, dealers_choice=True)
STATIC = ("options", "layout", "log")


def _dump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _views(state: scan.State, seen_log: list[Any]) -> list[str]:
    public = scan.view(state, None)
    lines = []
    log = public["log"]
    fresh = log[len(seen_log) :] if log[: len(seen_log)] == seen_log else log
    if fresh:
        lines.append(f"  events: {_dump(fresh)}")
    seen_log[:] = log
    if public["log"] and public["log"][0]["type"] == "setup" and len(public["log"]) == 1:
        lines.append(f"  layout: {_dump(public['layout'])}")
    for key in STATIC:
        del public[key]
    lines.append(f"  public: {_dump(public)}")
    for seat in range(state.players):
        shown = scan.view(state, seat)
        own = {k: v for k, v in shown.items() if k not in STATIC and public[k] != v}
        lines.append(f"  seat {seat}: {_dump(own)}")
    return lines


def _plan(state: scan.State, rng: random.Random) -> dict[int, tuple[int, scan.Action]]:
    # Each seat's one input for this round: (arrival time, action with its reaction time).
    match = scan.match_index(state.layout, state.tan, state.round_category)  # type: ignore[arg-type]
    plans: dict[int, tuple[int, scan.Action]] = {}
    for seat in range(state.players):
        rt = rng.randint(900, 2_500)
        arrival = state.reveal_ms + rt + rng.randint(20, 150)
        roll = rng.random()
        wrong = [i for i in range(len(state.layout)) if i != match]
        action: scan.Action
        if match is not None and roll < 0.6:
            action = scan.Touch(match, rt)
        elif roll < 0.85 or not bluffo_allowed(state):
            action = scan.Touch(rng.choice(wrong), rt)
        else:
            action = scan.Bluffo(rt)
        if roll < 0.95:
            plans[seat] = (arrival, action)
    return plans


def playthrough() -> str:
    """The golden text (see the module docstring)."""
    rng = random.Random(SEED)
    state = scan.new_state(OPTIONS, SEED)
    lines = [f"SCAN golden playthrough: seed {SEED}, options {_dump(OPTIONS.to_json())}", "start"]
    seen: list[Any] = []
    lines += _views(state, seen)
    plans: dict[int, tuple[int, scan.Action]] = {}
    seq, step = 0, 0
    while scan.outcome(state) is None:
        if state.seq != seq:
            seq = state.seq
            plans = _plan(state, rng)
        due = scan.deadline(state)
        assert due is not None
        acting = scan.to_act(state)
        ready = sorted((t, s) for s, (t, _) in plans.items() if s in acting and t <= due)
        seat: int | None
        if state.chooser is not None and rng.random() < 0.7:
            seat, now = state.chooser, state.time_ms + rng.randint(400, 3_000)
            action: Any = scan.ChooseCategory(rng.choice(scan.CATEGORIES))
            if now > due:
                seat, now, action = None, due, Timeout()
        elif ready:
            now, seat = ready[0]
            action = plans.pop(seat)[1]
        else:
            seat, now, action = None, due, Timeout()
        state = scan.apply(state, seat, action, now)
        step += 1
        who = "table" if seat is None else f"seat {seat}"
        lines.append(f"step {step}: {who} plays '{action}' at {now} ms")
        lines += _views(state, seen)
    lines.append(f"outcome: {_dump(scan.outcome(state))}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(write_or_check(GOLDEN, playthrough(), sys.argv[1:]))
