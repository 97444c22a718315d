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

from parlour.bots.scout import native
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


def hand_shape_py(values: Sequence[int], set_bonus: float = 1.25) -> tuple[int, int, int, float]:
    """In one pass over a hand of these numbers: how many maximal groups it splits into (as
    :func:`partition`), how many of them are lone cards, the strongest group's strength (as
    :func:`best_group_key`) and the one-ply reference's group measure
    (``parlour.bots.scout.oneply.group_measure``: sets count ``set_bonus`` times).

    >>> hand_shape_py([3, 4, 5, 9, 9, 1])
    (3, 1, 99, 14.0)

    :func:`hand_shape` is this function, compiled when it is built (the same results).
    """
    n = len(values)
    groups = lone = 0
    measure = 0.0
    i = 0
    while i < n:
        j = i + 1
        step = 0
        if j < n and -1 <= values[j] - values[i] <= 1:
            step = values[j] - values[i]
            while j < n and values[j] - values[j - 1] == step:
                j += 1
        k = j - i
        groups += 1
        if k == 1:
            lone += 1
        else:
            measure += k * k * (set_bonus if step == 0 else 1.0)
        i = j
    # the strongest group: the engine's scan (rules._best_group), over the numbers themselves
    # (best_group_key builds (number, 0) cards for it: that doubled this function's time; the
    # property test in tests/bots/test_scout_bots.py holds the two to the same answers)
    best = length = 0
    step, prev = 99, -99
    for v in values:
        d = v - prev
        prev = v
        if d == step:
            length += 1
        elif -1 <= d <= 1:
            length, step = 2, d
        else:
            length, step = 1, 99
        if step == 1:
            key = (length << 5) + v - length + 1
        else:
            key = (length << 5) + (v if step == -1 else 16 + v)
        if key > best:
            best = key
    return groups, lone, best, measure


def groups_from(hand: Sequence[int], start: int) -> list[tuple[int, int]]:
    """``(end, strength)`` of every valid group ``hand[start:end]`` (the ``group_key`` of it),
    shortest first: they stop at the first slice that is no group.

    >>> groups_from([4, 5, 6, 6], 0) == [(e, group_key([4, 5, 6, 6][:e])) for e in (1, 2, 3)]
    True
    """
    first = hand[start]
    out = [(start + 1, 48 + first)]
    step = 0
    for end in range(start + 2, len(hand) + 1):
        d = hand[end - 1] - hand[end - 2]
        if end == start + 2:
            if d < -1 or d > 1:
                break
            step = d
        elif d != step:
            break
        length = end - start
        if step == 0:
            out.append((end, (length << 5) + 16 + first))
        else:
            out.append((end, (length << 5) + (first if step == 1 else hand[end - 1])))
    return out


def following_shows(
    held: tuple[int, ...], target: int
) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """``(start, end, strength, left)`` of every Show ``held[start:end]`` stronger than
    ``target`` (a ``group_key``), with the hand ``left`` after it: the Shows that may follow the
    Scout of a Scout & Show.

    >>> [(i, j, left) for i, j, _, left in following_shows((4, 5, 9), group_key([7]))]
    [(0, 2, (9,)), (2, 3, (4, 5))]
    """
    return [
        (i, j, key, held[:i] + held[j:])
        for i in range(len(held))
        for j, key in groups_from(held, i)
        if key > target
    ]


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
    return _qualities(w)(tuple(values))


QUALITIES_MAX = 1 << 16
"""Hand qualities remembered per set of weights (then forgotten all at once)."""

_QUALITIES: dict[Weights, Callable[[tuple[int, ...]], float]] = {}


def _qualities(w: Weights) -> Callable[[tuple[int, ...]], float]:
    # hand_quality for these weights, remembered: one decision meets the same hands again and
    # again (every Scout & Show's following Shows), and so do the bots of a server. One table
    # per set of weights, so that a look-up hashes only the hand.
    found = _QUALITIES.get(w)
    if found is not None:
        return found
    known: dict[tuple[int, ...], float] = {}

    def quality(values: tuple[int, ...]) -> float:
        q = known.get(values)
        if q is None:
            if len(known) >= QUALITIES_MAX:
                known.clear()
            q = known[values] = _hand_quality(values, w)
        return q

    _QUALITIES[w] = quality
    return quality


def _hand_quality(values: tuple[int, ...], w: Weights) -> float:
    if not values:
        return 2.0
    groups, lone, best, _ = hand_shape(values)
    return (
        -w.per_group * groups
        - w.lone_card * lone
        + w.strength * (best >> 3)
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
        best = _best_following_show(tuple(new_hand), target, len(rest_show), w)
        return best - chip_cost - 0.4  # spending Scout & Show has a cost too
    return 0.0


@lru_cache(maxsize=1 << 14)
def _best_following_show(held: tuple[int, ...], target: int, captured: int, w: Weights) -> float:
    # The value of the best Show beating strength ``target`` from the hand ``held`` (the
    # Scout of a Scout & Show made), capturing ``captured`` cards; -1e9 if none. Remembered: a
    # third of a decision's Scout & Shows make a hand another one made (a card put either side
    # of its twin), and the first-move restraint judges the same ones as Easy does.
    return best_following_show(held, target, captured, w.per_group, w.lone_card, w.strength,
                               w.captured, w.tempo, w.hand_card)  # fmt: skip


def best_following_show_py(
    held: tuple[int, ...],
    target: int,
    captured: int,
    per_group: float,
    lone_card: float,
    strength: float,
    captured_w: float,
    tempo: float,
    hand_card: float,
) -> float:
    """The heuristic's value of the best Show beating strength ``target`` from the hand
    ``held`` capturing ``captured`` cards, by the weights given (those of :class:`Weights`);
    -1e9 if there is none. :func:`best_following_show` is this function, compiled when it is
    built (the same doubles)."""
    w = Weights(per_group, lone_card, strength, captured_w, tempo, hand_card)
    quality = _qualities(w)
    points = w.captured * captured
    best = -1e9
    for _, _, key, left in following_shows(held, target):
        value = points + quality(left) + w.tempo * key
        best = max(best, value + (100.0 if not left else 0.0))
    return best


# The compiled versions (parlour.bots.scout._cheur, built from _cheur.c when the package is
# installed on a machine with a C compiler) give the same results; for anything unusual they
# call the pure-Python functions. ``PARLOUR_PURE_PYTHON=1`` in the environment keeps these.
COMPILED_ABI = 6
"""The interface version the compiled functions must have (a stale build is not used)."""


def _load_compiled() -> Any:
    compiled = native.load("_cheur", COMPILED_ABI)
    if compiled is not None:
        compiled.configure("hand_shape", hand_shape_py)
        compiled.configure("best_following_show", best_following_show_py)
    return compiled


_compiled = _load_compiled()
COMPILED_MODULE: Any = _compiled
"""The compiled module (``parlour.bots.scout._cheur``) when it is in use, else None."""
COMPILED = _compiled is not None
"""Whether the compiled hand arithmetic is in use (else the pure-Python one: the same results,
slower)."""

hand_shape: Callable[..., tuple[int, int, int, float]] = (
    hand_shape_py if _compiled is None else _compiled.hand_shape
)
"""``hand_shape(values, set_bonus=1.25)``: :func:`hand_shape_py`, compiled when available."""
best_following_show: Callable[..., float] = (
    best_following_show_py if _compiled is None else _compiled.best_following_show
)
"""``best_following_show(held, target, captured, *weights)``: :func:`best_following_show_py`,
compiled when available."""


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
