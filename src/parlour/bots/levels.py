"""Bots by name, and the five levels players choose from.

A bot spec is a name with an optional parameter: ``random``, ``greedy``, ``oneply`` (the
public one-ply reference of issue 11), ``heuristic``,
``heuristic:0.5`` (evaluation noise), ``eval[:noise]`` (the feature evaluation with tuned
weights, ``parlour.bots.scout.features``), ``net[:temperature]`` (the policy network alone,
``parlour.bots.scout.net``: its most likely move, or a draw at that temperature),
``ismcts:0.3`` (information-set search with
inference, ``parlour.bots.scout.ismcts``; seconds per move, or ``ismcts:it=400``: iterations
per move, reproducible; further settings of ``ISMCTSBot`` after slashes, e.g.
``ismcts:it=2200/particles=256/min_ess=0.5``: :data:`SEARCH_OPTIONS`), ``flat:0.25`` (the
flat Monte Carlo search of before issue 11's search part, ``parlour.bots.scout.search``;
``search:0.25`` is the same bot), or a level: ``beginner``,
``easy``, ``medium``, ``hard``, ``expert`` (``hard:it=650``, ``expert:it=2200``: the level's
search with an iteration budget instead of its time, for reproducible arena runs; settings may
follow as for ``ismcts``, each replacing the level's own of that name:
``expert:it=2200/inference=true``).
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from parlour.bots.base import Bot, RandomBot
from parlour.bots.scout import GreedyBot, HeuristicBot
from parlour.bots.scout.features import EvalBot
from parlour.bots.scout.human import HumanLike
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.bots.scout.oneply import OnePlyBot
from parlour.bots.scout.search import SearchBot

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
"""The levels shown to players, weakest first."""

TUTOR = "tutor"
"""The opponents of a "Learn to play" table: predictable moves that leave the learner room to
try each kind of move (:mod:`parlour.bots.scout.tutor`, :mod:`parlour.bots.tutors`; SCAN and
SNAP take ``tutor:<quick>:<patience>``, how soon they act after the learner and how long they
leave the learner first, in ms); never offered in the lobby."""

SCOUT_LEVELS = {
    # Misjudgement grows with the noise on the heuristic's evaluation: a Beginner often keeps a
    # poor hand, breaks up groups and scouts when a Show was better, like a new player.
    "beginner": "heuristic:1.2",
    "easy": "heuristic:0.5",
    # Medium plays the tuned feature evaluation (measured stronger than the heuristic at the
    # same cost: README, "SCOUT: the one-ply reference and the tuned evaluation").
    "medium": "eval:0.15",
    # Hard and Expert search the information sets (ISMCTS guided by the tuned evaluation):
    # README, "SCOUT: the search". Hard weights its 64 sampled deals by the opponents' past
    # moves (inference); Expert samples 256 deals and weights them alike, which measured
    # stronger against Hard than the weighted deals (README, "Looking for what makes Expert
    # better than Hard"), and corrects its root values by half the correction learnt from a
    # search that sees every hand (README, "A correction of the root's values learnt from the
    # oracle": ahead of the most-visited rule on every set of deals measured).
    "hard": "ismcts:0.3",
    "expert": "ismcts:1.0/particles=256/inference=false/correction=0.5",
}
"""What each level plays in SCOUT (Expert thinks at most 1 s per move on one core); every level
also keeps its Scout & Show on its first move of a round unless it gains clearly
(:mod:`parlour.bots.scout.human`)."""


SEARCH_OPTIONS = {
    "particles": int,
    "inference": bool,
    "min_ess": float,
    "temperature": float,
    "inference_temperature": float,
    "rejuvenate": int,
    "exploration": float,
    "widening": float,
    "bias": float,
    "plies": int,
    "root_top": int,
    "playout_policy": str,
    "prior": str,
    "net_temperature": float,
    "objective": str,
    "scout_show_cost": float,
    "opponent_model": str,
    "playout_temperature": float,
    "opponent_scout_show": float,
    "opponent_search": float,
    "opponent_shrink": float,
    "correction": float,
    "correction_file": str,
    "deal_trees": int,
    "root_halving": bool,
    "inference_means": bool,
}
"""The settings of :class:`~parlour.bots.scout.ismcts.ISMCTSBot` a spec may give after its
budget, ``name=value`` separated by slashes (``true``/``false`` for the yes-or-no ones), and
the type each takes."""


BOTS = {
    "scout": "parlour.bots.levels:scout_bot",
    "scan": "parlour.bots.scan:make_bot",
    "snap": "parlour.bots.snap:make_bot",
}
"""Where the bots of Parlour's own games are made: ``module:function``, the function taking a
bot spec. A game plugged in from package ``P`` (``parlour.games.registry``) has its bots in
``P.bots:make_bot``."""


def make_bot(game: str, spec: str) -> Bot:
    """The bot named by ``spec`` for ``game``; raises ``ValueError`` for an unknown game, name
    or parameter.

    >>> make_bot("scout", "search:0.25").budget_s
    0.25
    """
    if spec.partition(":")[0] == TUTOR and game in ("scout", "scan", "snap"):
        return _tutor(game, spec.partition(":")[2])
    module, function = _bots_module(game)
    maker: Any = getattr(importlib.import_module(module), function)
    bot: Bot = maker(spec)
    return bot


def _tutor(game: str, param: str) -> Bot:
    # A "Learn to play" opponent (see TUTOR).
    if game == "scout":
        from parlour.bots.scout.tutor import TutorBot

        return TutorBot()
    from parlour.bots import tutors

    quick, _, patience = param.partition(":")
    times = (int(quick) if quick.isdigit() else tutors.QUICK_MS,
             int(patience) if patience.isdigit() else tutors.PATIENCE_MS)  # fmt: skip
    return tutors.ScanTutor(*times) if game == "scan" else tutors.SnapTutor(*times)  # type: ignore[return-value]


def _bots_module(game: str) -> tuple[str, str]:
    # The module and function that make ``game``'s bots; raises ValueError for an unknown game.
    from parlour.games.registry import package_of

    try:
        target = BOTS.get(game) or f"{package_of(game)}.bots:make_bot"
    except KeyError:
        raise ValueError(f"no bots for {game!r}") from None
    module, _, function = target.partition(":")
    return module, function


COACHES = {"scout": "parlour.bots.scout.coach"}
"""Where a game's coach lives (hints for people, :func:`coach_of`); a game plugged in from
package ``P`` may offer one as ``P.bots.coach``."""


def coach_of(game: str) -> Any | None:
    """The coach of ``game``, if it has one: a module (or object) with ``suggest(view, legal,
    rng, level) -> (action, reason, params)``, ``regret(view, legal, played) -> (best, loss)``,
    ``explain(view, legal, action) -> (reason, params)`` and ``words(view, action) -> (key,
    params)``; ``None`` for a game without
    hints. Raises ``ValueError`` for an unknown game."""
    if game in COACHES:
        return importlib.import_module(COACHES[game])
    module, _ = _bots_module(game)
    return getattr(importlib.import_module(module), "coach", None)


def level_words(game: str) -> dict[str, Any] | None:
    """What each level means in ``game`` for a person choosing it, if its bots say
    (``LEVEL_WORDS`` in their module: a catalogue ``label`` and ``seconds`` per level, or per
    level and value of the option ``by``, with ``when`` giving the value used while a ``bool``
    option is on); ``None`` otherwise. Raises ``ValueError`` for an unknown game."""
    module, _ = _bots_module(game)
    words: dict[str, Any] | None = getattr(importlib.import_module(module), "LEVEL_WORDS", None)
    return words


def scout_bot(spec: str) -> Bot:
    """SCOUT's bot named by ``spec`` (see the module docstring); raises ``ValueError`` for an
    unknown name or parameter."""
    name, _, param = spec.partition(":")
    if name in ("hard", "expert") and param:  # the level with an iteration budget or settings
        budget, _, options = param.partition("/")
        if budget and not budget.startswith("it="):
            raise ValueError(f"level {name!r} takes it=N and settings, not {budget!r}: {spec!r}")
        return HumanLike(_ismcts(spec, _level_param(name, spec, budget, options)))
    if name in SCOUT_LEVELS:
        if param:
            raise ValueError(f"level {name!r} takes no parameter")
        return HumanLike(scout_bot(SCOUT_LEVELS[name]))
    if name == "ismcts":
        return _ismcts(spec, param)
    if name in ("search", "flat") and param.startswith("d="):
        return _flat(spec, param)
    try:
        value = float(param) if param else None
    except ValueError:
        raise ValueError(f"bad parameter {param!r} in bot spec {spec!r}") from None
    if value is not None and value < 0:
        raise ValueError(f"bot parameter must not be negative: {spec!r}")
    if name == "random" and value is None:
        return RandomBot()
    if name == "greedy" and value is None:
        return GreedyBot()
    if name == "oneply" and value is None:
        return OnePlyBot()
    if name == "heuristic":
        return HeuristicBot(noise=value or 0.0)
    if name == "eval":
        return EvalBot(noise=value or 0.0)
    if name in ("search", "flat"):
        return SearchBot(0.25 if value is None else value)
    if name == "net":
        from parlour.bots.scout.net import NetBot  # numpy: loaded only for this bot

        return NetBot(temperature=value or 0.0)
    raise ValueError(
        f"unknown bot {spec!r}; use random, greedy, oneply, heuristic[:noise], eval[:noise], "
        f"net[:temperature], ismcts[:seconds|:it=N][/setting=value…], flat[:seconds|:d=N] "
        f"(= search) or a level "
        f"({', '.join(LEVELS)})"
    )


def _level_param(name: str, spec: str, budget: str, options: str) -> str:
    # The search parameter of level ``name`` with the spec's budget (``it=N``; none: the
    # level's time) and the level's settings, each overridden by the spec's of the same name.
    level_budget, *level_options = SCOUT_LEVELS[name].partition(":")[2].split("/")
    given = options.split("/") if options else []
    _search_settings(spec, given)  # the spec's own settings are checked as given
    merged = {option.partition("=")[0]: option for option in level_options}
    merged.update((option.partition("=")[0], option) for option in given)
    return "/".join([budget or level_budget, *merged.values()])


def _flat(spec: str, param: str) -> Bot:
    # ``flat:d=N``: the flat search with N sampled deals per move instead of a time.
    count = param[2:]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"deals must be a whole number ≥ 1 in bot spec {spec!r}")
    return SearchBot(determinizations=int(count))


def _ismcts(spec: str, param: str) -> Bot:
    # ``ismcts``, ``ismcts:0.3`` (seconds per move) or ``ismcts:it=400`` (iterations per move),
    # either followed by ``/name=value`` settings (SEARCH_OPTIONS).
    budget, *options = param.split("/")
    settings = _search_settings(spec, options)
    if budget.startswith("it="):
        count = budget[3:]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"iterations must be a whole number ≥ 1 in bot spec {spec!r}")
        return _search_bot(spec, iterations=int(count), **settings)
    try:
        seconds = float(budget) if budget else 0.3
    except ValueError:
        raise ValueError(f"bad parameter {budget!r} in bot spec {spec!r}") from None
    if not 0 < seconds <= 60:
        raise ValueError(f"seconds per move must be above 0 and at most 60: {spec!r}")
    return _search_bot(spec, seconds, **settings)


def _search_settings(spec: str, options: list[str]) -> dict[str, Any]:
    # ``name=value`` settings of the search, typed by SEARCH_OPTIONS; ValueError for others.
    settings: dict[str, Any] = {}
    for option in options:
        key, eq, text = option.partition("=")
        kind = SEARCH_OPTIONS.get(key)
        if kind is None or not eq:
            raise ValueError(
                f"unknown search setting {option!r} in bot spec {spec!r}; use name=value with "
                f"name one of {', '.join(SEARCH_OPTIONS)}"
            )
        if key in settings:
            raise ValueError(f"search setting {key!r} given twice in bot spec {spec!r}")
        if kind is bool:
            if text not in ("true", "false"):
                raise ValueError(f"{key} is true or false, not {text!r}, in bot spec {spec!r}")
            settings[key] = text == "true"
            continue
        try:
            settings[key] = kind(text)
            if kind is float and not math.isfinite(settings[key]):
                raise ValueError
        except ValueError:
            raise ValueError(
                f"{key} takes {'a whole number' if kind is int else 'a number'}, not {text!r}, "
                f"in bot spec {spec!r}"
            ) from None
    return settings


def _search_bot(spec: str, *args: Any, **settings: Any) -> Bot:
    # ISMCTSBot with the spec's settings; its own ValueErrors name the spec.
    try:
        return ISMCTSBot(*args, **settings)
    except ValueError as error:
        raise ValueError(f"{error} in bot spec {spec!r}") from None
