"""The real-time games' tutorial opponents ("Learn to play" SCAN and SNAP): they leave the
learner (seat 0) time to make each move, then act so that the lesson goes on. Like every bot
they plan from their own seat's view only (public information: the layout, the tan card, the
tops); they never touch a wrong card, never call a false snap.

- :class:`ScanTutor` touches the match only after ``patience_ms`` (the learner finds it
  first), or ``quick_ms`` after the learner is out of the round (a wrong touch, a wrong Bluffo
  claim); it never slaps Bluffo.
- :class:`SnapTutor` flips ``quick_ms`` after it may, but waits ``patience_ms`` while a snap
  the learner could call is showing; it calls only on a snap between the tutors' own piles, and
  every tutor with the same reaction time (:data:`TIE_RT_MS`), so that they tie and their piles
  make the Snap Pot for the learner to win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.reaction import Plan
from parlour.games.scan.actions import Touch
from parlour.games.scan.cards import CATEGORIES
from parlour.games.snap.actions import Flip, Snap
from parlour.games.snap.cards import card, match_keys

LEARNER = 0
"""The learner's seat at a tutorial table."""

PATIENCE_MS = 40_000
"""How long a tutor leaves the learner to find a match or call a snap (``tutor:<quick>:<ms>``
sets it; the lessons' timers are longer)."""

TIE_RT_MS = 450
"""The SNAP tutors' reaction time on a snap between their own piles: all the same, a tie."""

QUICK_MS = 1500
"""How soon a tutor acts once the learner has had their go (``tutor:<ms>`` sets it)."""


class ScanTutor:
    """The SCAN lesson's opponent (see the module docstring)."""

    name = "tutor"

    def __init__(self, quick_ms: int = QUICK_MS, patience_ms: int = PATIENCE_MS) -> None:
        self.quick_ms = quick_ms
        self.patience_ms = patience_ms
        self._planned: set[tuple[Any, ...]] = set()

    def plan(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> list[Plan]:
        """A touch of the tan card's match: late while the learner may still find it, soon once
        the learner is out of the round; nothing when the card has no match."""
        if view["phase"] != "round" or view["tan"] is None:
            return []
        learner_out = LEARNER in view["disqualified"] or view["claimant"] == LEARNER
        key = (view["game_number"], view["seq"], learner_out)
        touches = {a.blue_index for a in legal if isinstance(a, Touch)}
        if key in self._planned or not touches:
            return []
        self._planned.add(key)
        column = CATEGORIES.index(view["category"])
        target = view["tan"][column]
        found = [i for i, b in enumerate(view["layout"]) if b[column] == target and i in touches]
        if not found:
            return []
        now = int(view["time_ms"])
        at = now + self.quick_ms if learner_out else int(view["reveal_ms"]) + self.patience_ms
        rt = max(at - int(view["reveal_ms"]), 1)
        return [Plan(at, Touch(found[0], rt))]


def snap_claim(view: Mapping[str, Any]) -> tuple[set[int], bool]:
    """The seats whose face-up piles a snap would claim now, and whether the Pot is claimed
    (N5), from a SNAP view."""
    keys = match_keys(view["options"].get("match", "rank"))
    tops = {s["seat"]: keys[card(s["top"])] for s in view["seats"] if s["top"] and not s["out"]}
    pot = view["pot"]["top"]
    pot_key = keys[card(pot)] if pot else None
    classes = list(tops.values())
    seats = {s for s, k in tops.items() if classes.count(k) > 1 or k == pot_key}
    return seats, pot_key is not None and pot_key in tops.values()


class SnapTutor:
    """The SNAP lesson's opponent (see the module docstring)."""

    name = "tutor"

    def __init__(self, quick_ms: int = QUICK_MS, patience_ms: int = PATIENCE_MS) -> None:
        self.quick_ms = quick_ms
        self.patience_ms = patience_ms
        self._called: int | None = None
        self._flipped: tuple[Any, ...] | None = None

    def plan(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> list[Plan]:
        """A call on a snap between tutors' piles (the same time for every tutor), and this
        seat's flips: soon, or late while the learner has a snap to call."""
        me = view["seat"]
        if me is None or view["seats"][me]["out"] or view["outcome"] is not None:
            return []
        plans: list[Plan] = []
        claimed, pot = snap_claim(view)
        seq = view["seq"]
        learners = LEARNER in claimed or pot
        if seq > 0 and self._called != seq and any(isinstance(a, Snap) for a in legal):
            self._called = seq
            if claimed and not learners:
                plans.append(Plan(view["reveal_ms"] + TIE_RT_MS, Snap(TIE_RT_MS)))
        situation = (seq, view["turn"], learners)
        if (
            view["turn"] == me
            and self._flipped != situation
            and any(isinstance(a, Flip) for a in legal)
        ):
            self._flipped = situation
            opens = max(view["flip_open_ms"] or 0, view["clock_ms"])
            plans.append(Plan(opens + (self.patience_ms if learners else self.quick_ms), Flip()))
        return plans
