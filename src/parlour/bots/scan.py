"""SCAN computer opponents: a visual search, card by card, with human mistakes.

For each reveal the bot first *sees* the tan card and, once it has decided, *reaches* the blue
card: together an ex-Gaussian time with a floor, as for a person who must find the active
quarter on the tan card, hold its design in mind and move a hand (or a pointer) to the card.
In between it looks at the blue cards one by one in a random order; each look takes a
log-normal time whose median depends on the category (colour is quickest, pattern slowest) and
on the level. It may overlook the target, may touch a near-miss (a design that differs from the
target in one feature), and after a full sweep without a find it may slap Bluffo. The result is
one :class:`~parlour.bots.reaction.Plan` per reveal; the engine decides the race.

Medians at Medium (``shared/rules/snap.md``): colour 140 ms, position 170 ms, shape 220 ms,
pattern 240 ms per card, scaled ×2.0, ×1.5, ×1.0, ×0.75, ×0.55 from Beginner to Expert.

The see-and-reach time is fitted (``python bench/bench_rt.py fit-scan``) so that no correct
touch is faster than a person could make it: the 1st percentile of a correct touch is at
least :data:`P1_TARGET_MS` of the level in every category (600 ms from Beginner to Medium,
500 ms at Hard, 450 ms at Expert), and none is faster than the level's ``floor_ms`` plus one
look.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from parlour.bots.reaction import Plan, ex_gaussian, lognormal_ms
from parlour.core import Timeout
from parlour.games import scan
from parlour.games.scan.actions import Bluffo, ChooseCategory, Touch
from parlour.games.scan.cards import CATEGORIES
from parlour.games.scan.designs import neighbours
from parlour.games.scan.views import ScanView

MEDIAN_MS = {"colour": 140.0, "position": 170.0, "shape": 220.0, "pattern": 240.0}
"""Median time to look at one blue card, per category, at Medium."""


P1_TARGET_MS = {"beginner": 600, "easy": 600, "medium": 600, "hard": 500, "expert": 450}
"""The fastest 1 % of a level's correct touches take at least this long, in every category:
a person needs about this long to see the tan card, find the match and touch it."""


@dataclass(frozen=True)
class ScanLevel:
    """How a level plays: time scale of a look at one blue card, overlook chance per target
    seen, chance per reveal of being fooled by the first near-miss it looks at, the chance of
    slapping Bluffo after a fruitless sweep, and the see-and-reach time (ex-Gaussian
    ``see_mu``/``see_sigma``/``see_tau`` ms, never below ``floor_ms``) added to every search."""

    scale: float
    overlook: float
    near_miss: float
    bluffo: float
    see_mu: float = 0.0
    see_sigma: float = 0.0
    see_tau: float = 1.0
    floor_ms: float = 0.0

    def see_ms(self, rng: random.Random) -> float:
        """One see-and-reach time: ex-Gaussian, never below ``floor_ms``."""
        return max(self.floor_ms, ex_gaussian(rng, self.see_mu, self.see_sigma, self.see_tau))


SCAN_LEVELS = {
    # see_mu fitted by `python bench/bench_rt.py fit-scan` (the 0.3th percentile of a correct
    # touch reaches P1_TARGET_MS in the quickest category, so that at a table of three or four
    # bots the fastest touch of each round still keeps the 1st percentile), then made no
    # quicker at a weaker level: fitted 364, 447, 508, 436, 409 ms from Beginner to Expert.
    "beginner": ScanLevel(2.0, 0.15, 0.06, 0.5, 510, 60, 120, 400),
    "easy": ScanLevel(1.5, 0.10, 0.04, 0.6, 510, 55, 100, 400),
    "medium": ScanLevel(1.0, 0.06, 0.02, 0.7, 510, 50, 80, 400),
    "hard": ScanLevel(0.75, 0.03, 0.01, 0.8, 440, 45, 70, 350),
    "expert": ScanLevel(0.55, 0.015, 0.004, 0.9, 410, 40, 60, 320),
}


class ScanBot:
    """A SCAN opponent at one of the five levels (see the module docstring)."""

    def __init__(self, level: str = "medium", params: ScanLevel | None = None) -> None:
        """A bot at ``level``; ``params`` replaces the level's model (for fitting it).
        Raises ``ValueError`` for an unknown level."""
        if level not in SCAN_LEVELS:
            raise ValueError(f"unknown SCAN level {level!r}; use one of {', '.join(SCAN_LEVELS)}")
        self.name = level
        self.level = params or SCAN_LEVELS[level]
        self._planned: set[tuple[Any, ...]] = set()

    def plan(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> list[Plan]:
        """New inputs this seat will make in the situation of ``view`` (possibly none): a
        Dealer's Choice, or one touch or Bluffo slap per revealed card. Called after every
        change; each situation is planned once."""
        seen = cast(ScanView, view)  # what mypy checks each read against
        key = (seen["game_number"], seen["seq"], seen["phase"])
        if key in self._planned:
            return []
        choices = [a for a in legal if isinstance(a, ChooseCategory)]
        if choices:  # name the category this bot is quickest at
            self._planned.add(key)
            best = min(choices, key=lambda a: MEDIAN_MS[a.category])
            return [Plan(int(seen["time_ms"]) + round(lognormal_ms(rng, 900)), best)]
        tan, reveal = seen["tan"], seen["reveal_ms"]  # set together, at the first reveal
        if seen["phase"] != "round" or tan is None or reveal is None:
            return []
        touches = {a.blue_index for a in legal if isinstance(a, Touch)}
        if not touches:
            return []
        self._planned.add(key)
        category = seen["category"]
        column = CATEGORIES.index(category)
        target = tan[column]
        near = set(neighbours(category, target))
        median = MEDIAN_MS[category] * self.level.scale
        layout = seen["layout"]
        order = list(range(len(layout)))
        rng.shuffle(order)
        elapsed = self.level.see_ms(rng)
        slip = rng.random() < self.level.near_miss  # this reveal, a near-miss fools it
        for index in order:
            elapsed += lognormal_ms(rng, median)
            design = layout[index][column]
            if design == target:
                if rng.random() < self.level.overlook:
                    continue
            elif not (slip and design in near):
                continue
            if index not in touches:
                continue
            rt = round(elapsed)
            return [Plan(reveal + rt, Touch(index, rt))]
        if any(isinstance(a, Bluffo) for a in legal) and rng.random() < self.level.bluffo:
            rt = round(elapsed)
            return [Plan(reveal + rt, Bluffo(rt))]
        return []


def touch_times(
    level: str, category: str, reveals: int, seed: int = 0, params: ScanLevel | None = None
) -> list[tuple[int, bool]]:
    """``(reaction ms, correct)`` of the touches one bot at ``level`` (or with ``params``)
    plans on ``reveals`` first reveals of seeded games in ``category`` (a reveal it plans no
    touch for, an overlook or a Bluffo slap, gives nothing). Deals repeat every 64 reveals; the
    bot's own draws never do. Raises ``ValueError`` for an unknown level or category."""
    if category not in MEDIAN_MS:
        raise ValueError(f"unknown SCAN category {category!r}")
    column = CATEGORIES.index(category)
    deals = []
    for deal in range(min(64, reveals)):
        state = scan.new_state({"players": 2, "category": category}, seed * 1000 + deal)
        state = scan.apply(state, None, Timeout(), scan.deadline(state) or 0)
        deals.append((scan.view(state, 0), scan.legal_actions(state, 0)))
    out: list[tuple[int, bool]] = []
    for i in range(reveals):
        view, legal = deals[i % len(deals)]
        bot = ScanBot(level, params)
        for plan in bot.plan(view, legal, random.Random(f"{seed}:{category}:{i}")):
            tan = view["tan"]
            if isinstance(plan.action, Touch) and tan is not None:  # revealed: it is
                design = view["layout"][plan.action.blue_index][column]
                out.append((plan.action.rt_ms or 0, design == tan[column]))
    return out


def make_bot(spec: str) -> ScanBot:
    """The SCAN bot of level ``spec`` (``parlour.bots.levels.make_bot``); raises ``ValueError``
    for anything but a level."""
    from parlour.bots.levels import LEVELS

    name, _, param = spec.partition(":")
    if name not in LEVELS or param:
        raise ValueError(f"SCAN bots are levels: {', '.join(LEVELS)}; not {spec!r}")
    return ScanBot(name)


LEVEL_WORDS: dict[str, Any] = {
    "label": "level.scan_means",
    "by": "category",
    "when": {"four_in_a_row": "random"},
    "seconds": {
        "beginner": {"shape": 6.2, "pattern": 6.6, "position": 4.9, "colour": 4.2, "random": 5.2},
        "easy": {"shape": 4.8, "pattern": 5.1, "position": 3.8, "colour": 3.3, "random": 4.1},
        "medium": {"shape": 3.4, "pattern": 3.6, "position": 2.8, "colour": 2.4, "random": 2.9},
        "hard": {"shape": 2.6, "pattern": 2.8, "position": 2.1, "colour": 1.9, "random": 2.3},
        "expert": {"shape": 2.0, "pattern": 2.1, "position": 1.7, "colour": 1.5, "random": 1.8},
    },
}
"""What each level means to a person choosing it (the lobby's words, through ``GET /api/games``):
the median time to touch the match in seconds, by the ``category`` option (``"random"``, the
median over all four, with ``four_in_a_row`` on); ``tests/bots/test_level_words.py`` keeps it
equal to the models."""
