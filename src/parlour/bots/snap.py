"""SNAP computer opponents: reaction time and error rate, not search.

For each reveal the bot draws, from its own seeded generator, an ex-Gaussian reaction time
(floor 180 ms), whether it misses a valid snap, and whether it calls a false one. On its own
turn it flips after a short human pause once flips are open.

A false call is likelier on a *near miss* (``shared/rules/snap.md``, "Computer opponents"): the
card just revealed looks like a match without being one — it is adjacent in rank to another
visible top (or the Pot's top) of the same colour, or (when cards match by rank and colour) it
has the rank of another top in the other colour, or it matches a card that was a top at one of
the two previous reveals and is covered now. Only the new card counts: tops that were already
showing before the flip are no near miss (they fooled nobody on the flip before).

The level's ``false_call`` is the rate of the rules: false calls per bot per flip. Before each
reveal's draw the bot works out, from what it sees, how many of the cards the flip could have
turned up would have been a snap, a near miss or neither, and scales its chances so that its
expected false calls per flip equal that rate, with a near miss :data:`NEAR_MISS_FACTOR` times
as likely as a plain flip (:func:`false_call_chance`).

Levels (μ/σ/τ ms, miss, false call per flip), from ``shared/rules/snap.md``:
Beginner 620/110/250, 15 %, 1 %; Easy 500/90/180, 8 %, 0.6 %; Medium 410/60/120, 4 %, 0.4 %;
Hard 340/45/80, 2 %, 0.2 %; Expert 280/35/50, 1 %, 0.1 %.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from parlour.bots.reaction import Plan, lognormal_ms, pace_setter_levels, reaction_ms
from parlour.games.snap.actions import Flip, Snap
from parlour.games.snap.cards import DECK, MATCH_RANK_AND_COLOUR, RED_SUITS, card, match_keys
from parlour.games.snap.view import SnapView

NEAR_MISS_FACTOR = 6.0
"""How much likelier a false call is on a near miss than on a plain flip."""

DEAL_BIAS = 1.08
"""Real flips turn up near misses more often than a uniform draw from the unseen cards would
(cards won together come back together, so a card often meets the one it just covered) and
snaps less often: measured on the positions of seeded 4-player games, the chances computed
from a uniform draw add up to 1.11–1.16 times the rate (0.96 in 2-player, 1.17 in 8-player
games). The chances are divided by this, the middle of that range."""


@dataclass(frozen=True)
class SnapLevel:
    """Reaction-time distribution (ex-Gaussian μ, σ, τ in ms), miss chance and false calls per
    flip."""

    mu: float
    sigma: float
    tau: float
    miss: float
    false_call: float


SNAP_LEVELS = {
    "beginner": SnapLevel(620, 110, 250, 0.15, 0.010),
    "easy": SnapLevel(500, 90, 180, 0.08, 0.006),
    "medium": SnapLevel(410, 60, 120, 0.04, 0.004),
    "hard": SnapLevel(340, 45, 80, 0.02, 0.002),
    "expert": SnapLevel(280, 35, 50, 0.01, 0.001),
}

ORDER = ("beginner", "easy", "medium", "hard", "expert")


def _valid_snap(tops: Sequence[str | None], pot_top: str | None, keys: Sequence[int]) -> bool:
    classes = [keys[card(t)] for t in tops if t is not None]
    if len(classes) != len(set(classes)):
        return True
    return pot_top is not None and keys[card(pot_top)] in classes


def _red(c: int) -> bool:
    return (c & 3) in RED_SUITS


def _looks_like(
    others: Iterable[int], covered: Iterable[int], match: str
) -> tuple[set[tuple[int, bool]], set[int], set[int]]:
    # What a near miss looks like beside ``others`` and ``covered``: (rank, red) pairs adjacent
    # to a top of the same colour, ranks of a top (by rank and colour only), covered match keys.
    keys = match_keys(match)
    adjacent: set[tuple[int, bool]] = set()
    ranks: set[int] = set()
    for other in others:
        rank, red = other >> 2, _red(other)
        adjacent.update(((rank - 1, red), (rank + 1, red)))
        if match == MATCH_RANK_AND_COLOUR:
            ranks.add(rank)
    return adjacent, ranks, {keys[c] for c in covered}


def near_miss(new: int, others: Iterable[int], covered: Iterable[int], match: str) -> bool:
    """Whether the newly revealed card ``new`` (no snap) looks like a match: adjacent in rank
    (A–2 … Q–K) to one of ``others`` (the other visible tops and the Pot's top) of the same
    colour; with ``match`` "rank_and_colour", the rank of one of ``others`` in the other colour;
    or matching one of ``covered`` (cards that were tops at the two previous reveals and are no
    longer showing).

    >>> near_miss(card("7H"), [card("8D")], [], "rank")  # 8 of diamonds: red too
    True
    >>> near_miss(card("7H"), [card("8S")], [], "rank")
    False
    >>> near_miss(card("7H"), [card("7S")], [], "rank_and_colour")
    True
    """
    adjacent, ranks, covered_keys = _looks_like(others, covered, match)
    return (
        (new >> 2, _red(new)) in adjacent
        or new >> 2 in ranks
        or match_keys(match)[new] in covered_keys
    )


def false_call_chance(
    rate: float,
    new: int,
    others: Sequence[int],
    pot_top: int | None,
    covered: Sequence[int],
    match: str,
) -> float:
    """The chance that a bot whose false-call rate is ``rate`` per flip calls on the reveal of
    ``new`` (0 when the reveal makes a valid snap). ``others`` are the other seats' visible
    tops, ``pot_top`` the Pot's top and ``covered`` the recently covered tops (see
    :func:`near_miss`).

    The cards the flip could have turned up (every card not in sight) split into snaps, near
    misses and plain cards; a near miss gets :data:`NEAR_MISS_FACTOR` times the chance of a
    plain card, scaled so that the expected false calls of this flip are ``rate`` (divided by
    :data:`DEAL_BIAS`).

    Beside the K of spades, 51 cards are unseen: 3 kings would snap, the 2 black queens are
    near misses and 46 are plain, so a plain card gets 0.004 × 51 / (46 + 6 × 2) / 1.08:

    >>> round(false_call_chance(0.004, card("7H"), [card("KS")], None, [], "rank"), 5)
    0.00326
    >>> false_call_chance(0.004, card("KH"), [card("KS")], None, [], "rank")
    0.0
    """
    keys = match_keys(match)
    shown = set(others)
    matched = {keys[c] for c in others}
    if pot_top is not None:
        shown.add(pot_top)
        matched.add(keys[pot_top])
    if len({keys[c] for c in others}) < len(others):
        return 0.0  # the other tops already make a snap: any call is valid
    if keys[new] in matched:
        return 0.0
    near_others = list(others) + ([pot_top] if pot_top is not None else [])
    adjacent, ranks, covered_keys = _looks_like(near_others, covered, match)

    def looks_like(c: int) -> bool:
        return (c >> 2, _red(c)) in adjacent or c >> 2 in ranks or keys[c] in covered_keys

    plain = near = 0
    for candidate in DECK:
        if candidate in shown or keys[candidate] in matched:
            continue
        if looks_like(candidate):
            near += 1
        else:
            plain += 1
    unseen = 52 - len(shown)
    base = rate * unseen / (plain + NEAR_MISS_FACTOR * near) / DEAL_BIAS
    factor = NEAR_MISS_FACTOR if looks_like(new) else 1.0
    return min(1.0, base * factor)


class SnapBot:
    """A SNAP opponent at one of the five levels (see the module docstring)."""

    def __init__(self, level: str = "medium") -> None:
        if level not in SNAP_LEVELS:
            raise ValueError(f"unknown SNAP level {level!r}; use one of {', '.join(ORDER)}")
        self.name = level
        self.level = SNAP_LEVELS[level]
        self._called: int | None = None
        self._flipped: tuple[Any, ...] | None = None
        self._history: deque[tuple[int, set[int]]] = deque(maxlen=2)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> list[Plan]:
        """New inputs for the situation of ``view``: at most one call per reveal, and a flip on
        this seat's turn. Called after every change; each situation is planned once."""
        seen = cast(SnapView, view)  # what mypy checks each read against
        plans: list[Plan] = []
        seq = seen["seq"]
        me = seen["seat"]
        if me is None or seen["seats"][me]["out"] or seen["outcome"] is not None:
            return plans
        match = seen["options"].get("match", "rank")
        keys = match_keys(match)
        tops = [s["top"] for s in seen["seats"] if not s["out"]]
        if seq > 0 and self._called != seq and any(isinstance(a, Snap) for a in legal):
            self._called = seq
            visible = {card(t) for t in tops if t is not None}
            covered = set().union(*(shown for s, shown in self._history if s >= seq - 2))
            covered -= visible
            self._history.append((seq, visible))
            level = self.level
            rt = reaction_ms(rng, level.mu, level.sigma, level.tau)
            pot = seen["pot"]["top"]
            if _valid_snap(tops, pot, keys):
                call = rng.random() >= level.miss
            else:
                flipper = seen["last_flipper"]
                new_top = seen["seats"][flipper]["top"] if flipper is not None else None
                chance = 0.0
                if new_top is not None:
                    others = [
                        card(s["top"])
                        for i, s in enumerate(seen["seats"])
                        if i != flipper and not s["out"] and s["top"] is not None
                    ]
                    pot_top = card(pot) if pot is not None else None
                    chance = false_call_chance(
                        level.false_call, card(new_top), others, pot_top, sorted(covered), match
                    )
                call = rng.random() < chance
            if call:
                plans.append(Plan(seen["reveal_ms"] + rt, Snap(rt)))
        situation = (seq, seen["turn"])
        if seen["turn"] == me and self._flipped != situation:
            self._flipped = situation
            opens = max(seen["flip_open_ms"] or 0, seen["clock_ms"])
            plans.append(Plan(opens + round(lognormal_ms(rng, 350, 0.3)), Flip()))
        return plans


__all__ = ["SNAP_LEVELS", "SnapBot", "false_call_chance", "near_miss", "pace_setter_levels"]


def make_bot(spec: str) -> SnapBot:
    """The SNAP bot of level ``spec`` (``parlour.bots.levels.make_bot``); raises ``ValueError``
    for anything but a level."""
    from parlour.bots.levels import LEVELS

    name, _, param = spec.partition(":")
    if name not in LEVELS or param:
        raise ValueError(f"SNAP bots are levels: {', '.join(LEVELS)}; not {spec!r}")
    return SnapBot(name)


LEVEL_WORDS: dict[str, Any] = {
    "label": "level.snap_means",
    "seconds": {"beginner": 0.8, "easy": 0.6, "medium": 0.5, "hard": 0.4, "expert": 0.3},
}
"""What each level means to a person choosing it (the lobby's words, through ``GET /api/games``):
the median reaction time in seconds (``tests/bots/test_level_words.py`` keeps it equal to the
models)."""
