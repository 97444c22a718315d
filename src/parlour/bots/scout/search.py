"""The SCOUT search bot: determinized Monte Carlo over the heuristic's best candidates.

For each move it samples hidden hands consistent with everything public
(:mod:`parlour.bots.scout.determinize`), plays each candidate action out to the end of the
round with a fast heuristic-guided policy for every seat, and scores a playout by its own round
points minus the opponents' mean. Candidates are the heuristic's top few actions; every
determinization is played out for every candidate (common random numbers), so candidates are
compared on the same deals. It is anytime: it stops at its time budget (or a fixed number of
determinizations, for reproducible tests) and plays the candidate with the best mean.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.bots.scout import heuristic
from parlour.bots.scout.determinize import determinize, scout_view
from parlour.bots.scout.features import dot, hand_features
from parlour.bots.scout.heuristic import HeuristicBot
from parlour.games.scout import Scout, Show, State, apply, legal_actions
from parlour.games.scout.actions import SCOUTS
from parlour.games.scout.rules import legal_shows
from parlour.games.scout.state import PLAY_PHASE


def playout_policy(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """A fast, sensible move for playouts: usually the longest Show (a random one among equals);
    otherwise a Scout that puts the card next to a number within one of it when possible."""
    shows = []
    for action in legal:
        if type(action) is not Show:
            break
        shows.append(action)
    if shows and (len(shows) == len(legal) or rng.random() < 0.85):
        longest = max(a.length for a in shows)
        best = [a for a in shows if a.length == longest]
        return best[rng.randrange(len(best))]
    scouts = [a for a in legal[len(shows) :] if type(a) is Scout] or legal
    action = scouts[rng.randrange(len(scouts))]
    if type(action) is not Scout:
        return action
    return fitting_scout(state, seat, action, rng)


def fitting_scout(state: State, seat: int, action: Scout, rng: random.Random) -> Scout:
    """``action``'s card put next to a number within one of it (a random such place), if there
    is one; else ``action``."""
    hand = state.hands[seat]
    card = state.active[0] if action.end == "left" else state.active[-1]
    value = card[1] if action.rotate else card[0]
    fits = [
        i
        for i in range(len(hand) + 1)
        if (i > 0 and -1 <= hand[i - 1][0] - value <= 1)
        or (i < len(hand) and -1 <= hand[i][0] - value <= 1)
    ]
    if fits:
        return Scout(action.end, action.rotate, fits[rng.randrange(len(fits))])
    return action


def playout_move(state: State, seat: int, rng: random.Random) -> Any:
    """``playout_policy(state, seat, legal_actions(state, seat), rng)``: the same move from the
    same draws of ``rng``, without building the list of every legal action. (The policy never
    picks a Scout & Show: with 3+ players a plain Scout is always there beside it. So the
    search's playouts, which leave Scout & Show out, get the same move too.)"""
    hands = state.hands
    hand = hands[seat]
    shows = legal_shows(hand, state.active_key)
    active = state.active
    if len(hands) == 2 or state.pending or not active:  # 2 players: it depends on the chips
        return playout_policy(state, seat, legal_actions(state, seat) if len(hands) == 2
                              else shows, rng)  # fmt: skip
    if shows and rng.random() < 0.85:  # the policy over the Shows alone: the longest one
        return playout_policy(state, seat, shows, rng)
    scouts = SCOUTS[len(hand)]
    return fitting_scout(state, seat, scouts[rng.randrange(len(scouts))], rng)


def end_value(
    points: Sequence[float], seat: int, totals: Sequence[int] | None = None, lead: bool = False
) -> float:
    """``seat``'s value of a round that ends with ``points`` per seat: its points minus the
    other seats' mean; or, given the game's ``totals`` before the round, its share of the game's
    win (S6: the highest total wins, equal totals share the win), or with ``lead`` its total
    minus the highest of the other seats' totals."""
    if totals is None:
        others = [p for i, p in enumerate(points) if i != seat]
        return points[seat] - sum(others) / len(others)
    final = [t + p for t, p in zip(totals, points, strict=True)]
    if lead:
        return float(final[seat] - max(f for i, f in enumerate(final) if i != seat))
    best = max(final)
    return 1 / final.count(best) if final[seat] == best else 0.0


def result_value(
    state: State, seat: int, totals: Sequence[int] | None = None, lead: bool = False
) -> float:
    """``seat``'s points in the round just ended minus the other seats' mean (or, given the
    game's ``totals`` before the round, its share of the win, or its lead with ``lead``:
    :func:`end_value`)."""
    return end_value([s.points for s in state.results[-1].seats], seat, totals, lead)


def play_round_out_py(
    state: State,
    seat: int,
    rng: random.Random,
    totals: Sequence[int] | None = None,
    lead: bool = False,
) -> float:
    """Every seat plays :func:`playout_policy` (by :func:`playout_move`) from ``state`` to the
    round's end; ``seat``'s round points minus the other seats' mean (or its share of the win,
    given ``totals``, or its lead with ``lead``: :func:`end_value`). :func:`play_round_out` is
    this function, compiled when it is built (the same moves from the same draws)."""
    while not state.results and state.phase == PLAY_PHASE:
        mover = state.turn
        state = apply(state, mover, playout_move(state, mover, rng))
    return result_value(state, seat, totals, lead)


_ROLLOUT = None if heuristic.COMPILED_MODULE is None else heuristic.COMPILED_MODULE.rollout


def compiled_round(state: State, seat: int) -> tuple[Any, ...] | None:
    """The position as the compiled playouts take it (hands, active, owner or -1, turn, scouts,
    pending, cards captured per seat, chips, ``seat``); ``None`` where they do not play (2
    players, or the round over)."""
    if len(state.hands) < 3 or state.results or state.phase != PLAY_PHASE:
        return None
    return (state.hands, state.active, -1 if state.owner is None else state.owner, state.turn,
            state.scouts, state.pending, tuple(len(p) for p in state.piles), state.chips,
            seat)  # fmt: skip


def play_round_out(
    state: State,
    seat: int,
    rng: random.Random,
    totals: Sequence[int] | None = None,
    lead: bool = False,
) -> float:
    """:func:`play_round_out_py`, played by the compiled playout (3+ players) when it is built:
    the searches spend most of their time here."""
    if _ROLLOUT is not None and (args := compiled_round(state, seat)) is not None:
        value: float | None = (
            _ROLLOUT(*args, rng.random, rng.randrange)
            if totals is None
            else _ROLLOUT(*args, rng.random, rng.randrange, tuple(totals), lead)
        )
        if value is not None:
            return value
    return play_round_out_py(state, seat, rng, totals, lead)


def round_points(state: State, rng: random.Random) -> list[float]:
    """Every seat plays :func:`playout_policy` (by :func:`playout_move`) from ``state`` to the
    round's end, as in :func:`play_round_out` (the same moves from the same draws, compiled with
    3+ players when it is built); every seat's round points."""
    if _ROLLOUT is not None and (args := compiled_round(state, -1)) is not None:
        points = _ROLLOUT(*args, rng.random, rng.randrange)
        if points is not None:
            return [float(p) for p in points]
    while not state.results and state.phase == PLAY_PHASE:
        mover = state.turn
        state = apply(state, mover, playout_move(state, mover, rng))
    return [float(s.points) for s in state.results[-1].seats]


def playout(state: State, seat: int, action: Any, rng: random.Random) -> float:
    """Play ``action`` for ``seat`` then every seat by :func:`playout_policy` (by
    :func:`playout_move`) to the round's end (:func:`play_round_out`); returns ``seat``'s round
    points minus the other seats' mean."""
    return play_round_out(apply(state, seat, action), seat, rng)


def rollout(
    state: State,
    seat: int,
    rng: random.Random,
    plies: int | None = None,
    hand_weights: Sequence[float] = (),
    totals: Sequence[int] | None = None,
    lead: bool = False,
    cut: Callable[[State, int], float] | None = None,
) -> float:
    """Every seat plays :func:`playout_policy` (by :func:`playout_move`) to the round's end
    (or for ``plies`` moves, then :func:`static_value` with ``hand_weights``, or ``cut`` of the
    position and ``seat`` when given); the value for ``seat`` (its share of the win, given the
    game's ``totals`` before the round, or its lead with ``lead``)."""
    if plies is None:
        return play_round_out(state, seat, rng, totals, lead)
    left = plies
    while not state.results and state.phase == PLAY_PHASE:
        if left == 0:
            if cut is not None:
                return cut(state, seat)
            return static_value(state, seat, hand_weights, totals, lead)
        left -= 1
        mover = state.turn
        state = apply(state, mover, playout_move(state, mover, rng))
    return result_value(state, seat, totals, lead)


def static_value(
    state: State,
    seat: int,
    hand_weights: Sequence[float],
    totals: Sequence[int] | None = None,
    lead: bool = False,
) -> float:
    """A cut-off's value for ``seat``: per seat, cards captured + chips + what its hand is worth
    by the evaluation's hand features (about minus a point per card, less for cards that go
    together); ``seat``'s minus the other seats' mean (or, given the game's ``totals`` before
    the round, its share of the win if the round ended so, or its lead with ``lead``:
    :func:`end_value`)."""
    values = [
        len(state.piles[s]) + state.chips[s]
        + dot(hand_weights, hand_features([c[0] for c in state.hands[s]]))
        for s in range(len(state.hands))
    ]  # fmt: skip
    return end_value(values, seat, totals, lead)


class SearchBot:
    """Determinized Monte Carlo search (see the module docstring).

    ``budget_s``: thinking time per move; ``determinizations``: a fixed number of sampled deals
    instead (reproducible); ``candidates``: how many of the heuristic's best actions to compare.
    """

    name = "search"

    def __init__(
        self,
        budget_s: float = 0.25,
        *,
        determinizations: int | None = None,
        candidates: int = 5,
        heuristic: HeuristicBot | None = None,
    ) -> None:
        self.budget_s = budget_s
        self.determinizations = determinizations
        self.candidates = candidates
        self.heuristic = heuristic or HeuristicBot()
        self.last_playouts = 0

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """The candidate with the best mean playout value; the heuristic's choice during the
        flip decision or when only one action is legal."""
        if not legal:
            raise ValueError("no legal action to choose from")
        if view["phase"] != "play" or len(legal) == 1:
            return self.heuristic.choose(view, legal, rng)
        ranked = sorted(legal, key=lambda a: -self.heuristic.score(view, a))
        candidates = ranked[: self.candidates]
        if any(isinstance(a, Show) and a.length == len(view["hand"]) for a in candidates):
            return next(a for a in candidates if isinstance(a, Show))  # empties the hand: win
        seat = view["seat"]
        totals = [0.0] * len(candidates)
        rounds = 0
        stop = time.perf_counter() + self.budget_s
        while True:
            deal = determinize(scout_view(view), rng)
            for i, action in enumerate(candidates):
                totals[i] += playout(deal, seat, action, rng)
            rounds += 1
            if self.determinizations is not None:
                if rounds >= self.determinizations:
                    break
            elif time.perf_counter() >= stop:
                break
        self.last_playouts = rounds * len(candidates)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]


__all__ = [
    "SearchBot",
    "fitting_scout",
    "play_round_out",
    "play_round_out_py",
    "playout",
    "playout_move",
    "playout_policy",
    "rollout",
    "round_points",
    "static_value",
]
