"""``oneply``: the public one-ply SCOUT bot of issue 11, as a named reference for the arena.

Written from its description only (our own code): every legal action is scored by what it
leaves in hand,

    score = c × groups(hand after) − cards(hand after) + cards captured − scout_cost × scouted

where ``groups`` is a weighted measure of the groups in hand (each maximal set or run of ``k ≥ 2``
cards counts ``k²``; sets count ``set_bonus`` times more), a Show scores the cards it captures,
and every Scout — the one inside Scout & Show too — pays a fixed cost. Scout & Show is scored by
its best following Show. The flip keeps the orientation whose hand has the larger measure.
Ties are broken by the bot's own random generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.scout.heuristic import hand_shape
from parlour.games.scout import Flip, Scout, ScoutShow, Show, group_key


def group_measure(values: Sequence[int], set_bonus: float = 1.25) -> float:
    """The weighted measure of the groups in a hand of these numbers (left to right): each
    maximal set or run of ``k ≥ 2`` cards counts ``k²`` (a set ``set_bonus`` times that).

    >>> group_measure([3, 4, 5, 9, 1])
    9.0
    >>> group_measure([7, 7, 2], set_bonus=1.0)
    4.0
    """
    return hand_shape(values, set_bonus)[3]


class OnePlyBot:
    """The one-ply reference bot (see the module docstring)."""

    name = "oneply"

    def __init__(self, c: float = 0.3, scout_cost: float = 1.0, set_bonus: float = 1.25) -> None:
        self.c = c
        self.scout_cost = scout_cost
        self.set_bonus = set_bonus

    def _hand_value(self, values: Sequence[int]) -> float:
        return self.c * group_measure(values, self.set_bonus) - len(values)

    def score(self, view: Mapping[str, Any], action: Any) -> float:
        """The one-ply score of ``action`` for the viewing seat (higher is better)."""
        cards = view["hand"]
        hand = [c[0] for c in cards]
        active = view["active_show"]
        if isinstance(action, Flip):
            values = [c[1] for c in reversed(cards)] if action.flip else hand
            return group_measure(values, self.set_bonus)
        if isinstance(action, Show):
            rest = hand[: action.start] + hand[action.start + action.length :]
            return self._hand_value(rest) + len(active)
        if isinstance(action, (Scout, ScoutShow)):
            card = active[0] if action.end == "left" else active[-1]
            number = card[1] if action.rotate else card[0]
            new_hand = hand[: action.insert] + [number] + hand[action.insert :]
            if isinstance(action, Scout):
                return self._hand_value(new_hand) - self.scout_cost
            rest_show = active[1:] if action.end == "left" else active[:-1]
            target = group_key([c[0] for c in rest_show])
            best = float("-inf")
            for i in range(len(new_hand)):
                for j in range(i + 1, len(new_hand) + 1):
                    key = group_key(new_hand[i:j])
                    if key == 0:
                        break
                    if key > target:
                        rest = new_hand[:i] + new_hand[j:]
                        best = max(best, self._hand_value(rest) + len(rest_show))
            return best - self.scout_cost
        return 0.0

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """The legal action with the best score (ties broken by ``rng``); raises
        ``ValueError`` if there is none."""
        if not legal:
            raise ValueError("no legal action to choose from")
        return max(legal, key=lambda a: (self.score(view, a), rng.random()))


__all__ = ["OnePlyBot", "group_measure"]
