"""Human-like restraint for SCOUT's levels: no Scout & Show on the first move of a round unless
it gains clearly.

People keep their one Scout & Show of the round for later; a bot that spends it at once looks
odd and throws away an option. The rule, measurable: on a seat's first move of a round (it has
neither shown nor scouted yet this round), Scout & Show is off the list of actions the level
chooses from unless, by today's ``heuristic`` evaluation (no noise), its best Scout & Show is
worth at least :data:`CLEAR_GAIN` more than the best other action, or it empties the hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.bots.scout.heuristic import HeuristicBot
from parlour.games.scout import ScoutShow

CLEAR_GAIN = 7.0
"""How much more (in the heuristic's points) a first-move Scout & Show must be worth."""

_JUDGE = HeuristicBot()


def first_move(view: Mapping[str, Any]) -> bool:
    """Whether the viewing seat has neither shown nor scouted yet in this round."""
    me = view["seat"]
    return not any(
        e["seat"] == me and e["type"] in ("show", "scout", "scout_show") for e in view["log"]
    )


def restrained(view: Mapping[str, Any], legal: Sequence[Any]) -> list[Any]:
    """``legal`` without Scout & Show when it is the seat's first move of the round and Scout
    & Show gains nothing clear (see the module docstring); otherwise ``legal`` unchanged."""
    scout_shows = [a for a in legal if isinstance(a, ScoutShow)]
    if not scout_shows or not first_move(view):
        return list(legal)
    others = [a for a in legal if not isinstance(a, ScoutShow)]
    if not others:
        return list(legal)
    best_ss = max(_JUDGE.score(view, a) for a in scout_shows)
    best_other = max(_JUDGE.score(view, a) for a in others)
    empties = best_ss >= 50.0  # the heuristic scores emptying the hand at 100 and more
    if empties or best_ss - best_other >= CLEAR_GAIN:
        return list(legal)
    return others


class HumanLike:
    """A level's bot with the first-move Scout & Show restraint (see the module docstring)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """The wrapped bot's choice among the restrained legal actions."""
        return self.bot.choose(view, restrained(view, legal), rng)


__all__ = ["CLEAR_GAIN", "HumanLike", "first_move", "restrained"]
