"""Write (or check) the golden playthrough of one seeded 4-player SNAP game.

The game is driven like a real table: after every reveal each seat draws, from a seeded
generator, whether it calls and its reaction time (seat 0 is quickest); seats sometimes miss a
snap and now and then call falsely; the seat to act flips some time after flips open, or lets
its turn timer flip for it; the referee applies ``timeout`` at every deadline that comes first.

Each step lists the input (``@`` time, seat or ``referee``) and then what changed, so that every
view can be read off while the file stays small:

- ``public`` holds the top-level fields of the spectator's view that changed since the step
  before (``seats`` as ``seat N`` entries, only the seats that changed); ``log`` is left out;
- ``events`` lists the log entries this step added;
- ``legal`` gives each seat's ``legal_actions``. A seat's view is the spectator's view with
  ``seat`` and ``legal_actions`` filled in (SNAP has no private information for a seat).

Any change to the rules shows up as a readable diff. Check with ``make golden``; overwrite after
a deliberate rules change with ``make golden GOLDEN_ARGS="--write"``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from parlour.games import snap
from parlour.games.snap.view import event_json
from tests.games.golden import write_or_check

GOLDEN = Path(__file__).with_name("golden_4p_seed_2026.txt")
SEED = 2026
PLAYERS = 4
SPEED = (330, 400, 440, 480)
"""Each seat's median reaction time (ms): seat 0 sets the pace."""


def _dump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _plan(state: snap.State, rng: random.Random) -> list[tuple[int, int | None, Any]]:
    # Every seat's call (if any) for the latest reveal, and when the seat to act will flip
    # (``None``: the turn timer flips for it); sorted by time.
    plan: list[tuple[int, int | None, Any]] = []
    valid = snap.snap_valid(state)
    for seat in snap.to_act(state):
        if valid and rng.random() < 0.9:
            rt = int(SPEED[seat] * rng.lognormvariate(0, 0.18))
            plan.append((state.reveal_ms + rt, seat, snap.SNAP))
        elif not valid and rng.random() < 0.02:
            plan.append((state.reveal_ms + rng.randint(200, 800), seat, snap.SNAP))
    if rng.random() < 0.92:
        plan.append((state.flip_open_ms + rng.randint(40, 700), None, snap.FLIP))
    plan.sort(key=lambda item: (item[0], -1 if item[1] is None else item[1]))
    return plan


def _changes(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    # The fields of ``after`` that differ from ``before`` (per seat for "seats").
    out: dict[str, Any] = {}
    for key, value in after.items():
        if key in ("log", "seat", "legal_actions"):
            continue
        if key == "seats":
            for seat, shown in enumerate(value):
                if before is None or before["seats"][seat] != shown:
                    out[f"seat {seat}"] = shown
        elif before is None or before[key] != value:
            out[key] = value
    return out


def playthrough() -> str:
    """The golden text (see the module docstring)."""
    rng = random.Random(SEED)
    state = snap.new_state(snap.SnapOptions(PLAYERS), SEED)
    lines = [f"SNAP golden playthrough: {PLAYERS} players, seed {SEED}"]
    public = snap.view(state, None)
    lines.append(f"start: {_dump(_changes(None, public))}")
    plan = _plan(state, rng)
    step = 0
    while snap.outcome(state) is None:
        due = snap.deadline(state)
        assert due is not None
        if plan and plan[0][0] <= due:
            now, seat, action = plan.pop(0)
            if seat is None:  # the flip: by whoever is to act then, once it may
                seat = state.turn
                if snap.legal_actions(state, seat)[0] != snap.FLIP:
                    plan.append((due + rng.randint(40, 300), None, snap.FLIP))
                    plan.sort(key=lambda item: (item[0], -1 if item[1] is None else item[1]))
                    continue
            elif not state.is_in(seat):
                continue
        else:
            now, seat, action = due, None, snap.TIMEOUT
        seq, log = state.seq, state.log
        state = snap.apply(state, seat, action, now)
        step += 1
        who = "referee" if seat is None else f"seat {seat}"
        lines.append(f"step {step} @{now}: {who} '{action}'")
        shown = snap.view(state, None)
        lines.append(f"  public: {_dump(_changes(public, shown))}")
        added = []
        node = state.log
        while node is not log:
            node, event = node
            added.append(event_json(event))
        lines.append(f"  events: {_dump(added[::-1])}")
        legal = [" ".join(map(str, snap.legal_actions(state, s))) for s in range(PLAYERS)]
        lines.append(f"  legal: {_dump(legal)}")
        public = shown
        if state.seq > seq:
            plan = _plan(state, rng)
    lines.append(f"outcome: {_dump(snap.outcome(state))}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(write_or_check(GOLDEN, playthrough(), sys.argv[1:]))
