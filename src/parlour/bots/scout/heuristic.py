"""SCOUT bots that look one move ahead from their seat's view.

``HeuristicBot`` scores every legal action — the flip decision and Scout & Show included — by
what it is worth to this seat now and what it leaves in hand:

- points now: cards captured by a Show; a Scout gives the show's owner a chip (an opponent's
  point, worth ``-1 / (players - 1)`` against the opponents' mean);
- hand quality: how many Shows it will take to empty the hand (its cards split into maximal sets
  and runs), how many of them are lone cards, and the strongest group left for later;
- tempo: a strong Show is hard to beat, so it tends to collect chips and end the round unbeaten.

``GreedyBot`` shows the most cards it can and scouts only when it must.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from parlour.bots.scout.determinize import scout_view
from parlour.games.scout import Flip, Scout, ScoutShow, Show, group_key
from parlour.games.scout.rules import best_key


def partition(values: Sequence[int]) -> list[int]:
    """The sizes of the maximal groups (sets or runs) a hand splits into, left to right.

    >>> partition([3, 4, 5, 9, 9, 1])
    [3, 2, 1]
    """
    sizes = []
    i, n = 0, len(values)
    while i < n:
        j = i + 1
        if j < n and -1 <= values[j] - values[i] <= 1:
            step = values[j] - values[i]
            while j < n and values[j] - values[j - 1] == step:
                j += 1
        sizes.append(j - i)
        i = j
    return sizes


def best_group_key(values: Sequence[int]) -> int:
    """The strength (``group_key``) of the strongest group in a hand of these numbers (0 if
    empty); the engine's own search over the hand.

    >>> best_group_key([2, 7, 7, 1]) == group_key([7, 7])
    True
    """
    return best_key([(v, 0) for v in values])


def best_by(
    score: Callable[[Any], float], legal: Sequence[Any], rng: random.Random, noise: float = 0.0
) -> Any:
    """The action of ``legal`` with the best ``score``, each score misjudged by a normal
    ``noise`` (that standard deviation) and ties broken at random, both by ``rng``; raises
    ``ValueError`` if ``legal`` is empty. The one-move-lookahead bots all choose this way."""
    if not legal:
        raise ValueError("no legal action to choose from")
    best, best_score = legal[0], float("-inf")
    for action in legal:
        s = score(action) + (rng.gauss(0, noise) if noise else 0.0)
        s += rng.random() * 1e-6
        if s > best_score:
            best, best_score = action, s
    return best


@dataclass(frozen=True)
class Weights:
    """The heuristic's weights (tuned in the arena against random and greedy play)."""

    per_group: float = 1.0
    lone_card: float = 0.35
    strength: float = 0.04
    captured: float = 1.0
    tempo: float = 0.03
    hand_card: float = 0.3


def hand_quality(values: Sequence[int], w: Weights = Weights()) -> float:
    """Higher is better: fewer Shows needed to empty the hand, fewer lone cards, and a strong
    group in reserve."""
    return _hand_quality(tuple(values), w)


@lru_cache(maxsize=1 << 16)
def _hand_quality(values: tuple[int, ...], w: Weights) -> float:
    # hand_quality, remembered: one decision meets the same hands again and again (every
    # Scout & Show's following Shows), and so do the bots of a server.
    if not values:
        return 2.0
    sizes = partition(values)
    lone = sum(1 for s in sizes if s == 1)
    return (
        -w.per_group * len(sizes)
        - w.lone_card * lone
        + w.strength * (best_group_key(values) >> 3)
        - w.hand_card * len(values) * 0.1
    )


def evaluate(
    cards: Sequence[Sequence[int]],
    active_cards: Sequence[Sequence[int]],
    players: int,
    action: Any,
    w: Weights = Weights(),
) -> float:
    """The value of ``action`` for a seat holding ``cards`` (``(up, down)``, left to right)
    facing the active show ``active_cards``, at a table of ``players`` (higher is better)."""
    hand = [c[0] for c in cards]
    active = list(active_cards)
    opp = 1.0 / max(1, players - 1)
    if isinstance(action, Flip):
        values = [c[1] for c in reversed(cards)] if action.flip else hand
        return hand_quality(values, w)
    if isinstance(action, Show):
        rest = hand[: action.start] + hand[action.start + action.length :]
        shown = hand[action.start : action.start + action.length]
        if not rest:
            return 100.0 + len(active)  # emptying the hand ends the round: take it
        return w.captured * len(active) + hand_quality(rest, w) + w.tempo * group_key(shown)
    if isinstance(action, (Scout, ScoutShow)):
        card = active[0] if action.end == "left" else active[-1]
        number = card[1] if action.rotate else card[0]
        new_hand = hand[: action.insert] + [number] + hand[action.insert :]
        chip_cost = 0.6 if players == 2 else opp  # 2 players: a spent chip would have scored
        if isinstance(action, Scout):
            return hand_quality(new_hand, w) - chip_cost
        rest_show = active[1:] if action.end == "left" else active[:-1]
        target = group_key([c[0] for c in rest_show])
        best = -1e9
        for i in range(len(new_hand)):
            for j in range(i + 1, len(new_hand) + 1):
                key = group_key(new_hand[i:j])
                if key == 0:
                    break
                if key > target:
                    rest = new_hand[:i] + new_hand[j:]
                    value = w.captured * len(rest_show) + hand_quality(rest, w) + w.tempo * key
                    best = max(best, value + (100.0 if not rest else 0.0))
        return best - chip_cost - 0.4  # spending Scout & Show has a cost too
    return 0.0


class HeuristicBot:
    """One-move lookahead over every legal action with the evaluation described above."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None, noise: float = 0.0) -> None:
        self.weights = weights or Weights()
        self.noise = noise

    def score(self, view: Mapping[str, Any], action: Any) -> float:
        """The value of ``action`` for the viewing seat (higher is better)."""
        seen = scout_view(view)
        hand = seen["hand"]
        assert hand is not None, "a seat's view (a spectator has no hand to play)"
        return evaluate(hand, seen["active_show"], seen["players"], action, self.weights)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """The legal action with the best score (ties and ``noise`` broken by ``rng``); raises
        ``ValueError`` if there is none."""
        return best_by(lambda a: self.score(view, a), legal, rng, self.noise)


class GreedyBot:
    """Shows the most cards it can (highest strength among those); scouts only when it must,
    taking the card that best fits its hand."""

    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """A Show of the most cards if any, else the Scout that leaves the best hand."""
        if not legal:
            raise ValueError("no legal action to choose from")
        shows = [a for a in legal if isinstance(a, Show)]
        if shows:
            return max(shows, key=lambda a: (a.length, rng.random()))
        flips = [a for a in legal if isinstance(a, Flip)]
        if flips:
            return flips[0]
        heuristic = HeuristicBot()
        scouts = [a for a in legal if isinstance(a, Scout)] or list(legal)
        return max(scouts, key=lambda a: heuristic.score(view, a) + rng.random() * 1e-6)
