"""Write (or check) the golden playthrough of one seeded 4-player SCOUT game.

The file lists every action and, after it, the views: ``public`` is the spectator's view and
each ``seat N`` line holds the fields of that seat's view that differ from it (its hand, its
legal actions...), so every view can be read off while the file stays small. The ``log`` field is
left out: it repeats the actions above it. Any change to the rules shows up as a readable diff.
Check with ``make golden``; overwrite after a deliberate rules change with
``make golden GOLDEN_ARGS="--write"``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from parlour.games import scout
from tests.games.golden import write_or_check

GOLDEN = Path(__file__).with_name("golden_4p_seed_2026.txt")
SEED = 2026


def _dump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _views(state: scout.State) -> list[str]:
    public = scout.view(state, None)
    del public["log"]
    lines = [f"  public: {_dump(public)}"]
    for seat in range(state.players):
        shown = scout.view(state, seat)
        del shown["log"]
        own = {k: v for k, v in shown.items() if public[k] != v}
        lines.append(f"  seat {seat}: {_dump(own)}")
    return lines


def playthrough() -> str:
    """The golden text: a game whose players show when they can 3 times in 4, else pick at
    random (so rounds are of a realistic length)."""
    rng = random.Random(SEED)
    state = scout.new_state(scout.ScoutOptions(4), SEED)
    lines = [f"SCOUT golden playthrough: 4 players, seed {SEED}", "start"]
    lines += _views(state)
    step = 0
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        shows = [a for a in legal if isinstance(a, scout.Show)]
        action = rng.choice(shows if shows and rng.random() < 0.75 else legal)
        state = scout.apply(state, seat, action)
        step += 1
        lines.append(f"step {step}: seat {seat} plays '{action}'")
        lines += _views(state)
    lines.append(f"outcome: {json.dumps(scout.outcome(state), sort_keys=True)}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(write_or_check(GOLDEN, playthrough(), sys.argv[1:]))
