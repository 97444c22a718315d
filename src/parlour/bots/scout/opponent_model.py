"""The model of SCOUT opponents that the search plays them by (inside its tree, and in playouts by
the model) and that the inference weighs their past moves with: a softmax over the tuned
evaluation's scores of their Shows and of their plain Scouts that put the card at an end of the
hand or beside a number within one (:func:`model_options`, :func:`model_move`); Scout & Show
only where asked (:func:`scout_show_options`: the search's ``opponent_scout_show``), never in
the playouts (:func:`plain_actions`). :func:`model_rollout` plays every seat by it to the
round's end, compiled (``_cheur_search.c``) when it is built.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from parlour.bots.scout import heuristic
from parlour.bots.scout.features import plain_scores, scout_show_scores
from parlour.bots.scout.inference import fits, fitting_inserts
from parlour.bots.scout.search import compiled_round, end_value, result_value
from parlour.games.scout import Scout, Show, State, apply, legal_actions
from parlour.games.scout.actions import SCOUTS
from parlour.games.scout.cards import Card
from parlour.games.scout.rules import feasible_scout_shows, legal_shows
from parlour.games.scout.state import PLAY_PHASE

MODEL_PLAYOUT_MOVES = 500
"""A playout by the opponent model stops after this many moves (see :func:`model_rollout_py`)."""


def plain_actions(state: State, seat: int) -> list[Any]:
    """The legal actions of the seat to move but Scout & Show (which playouts and the opponent
    model leave out: scoring them costs most)."""
    if len(state.hands) == 2:
        return legal_actions(state, seat)
    hand = state.hands[seat]
    shows: list[Any] = legal_shows(hand, state.active_key)
    if state.pending or not state.active:
        return shows
    return shows + list(SCOUTS[len(hand)])


_MODEL_ROLLOUT = (
    None if heuristic.COMPILED_MODULE is None else heuristic.COMPILED_MODULE.model_rollout
)


def model_rollout_py(
    state: State,
    seat: int,
    rng: random.Random,
    weights: Sequence[float],
    temperature: float,
    totals: Sequence[int] | None = None,
    lead: bool = False,
) -> float:
    """Every seat plays :func:`model_move` (the opponent model) to the round's end; the value
    for ``seat`` (its share of the win, given the game's ``totals`` before the round). A round
    still going after :data:`MODEL_PLAYOUT_MOVES` moves (the model can go round in circles: a
    one-card Show scouted, the next seat showing one card, …) is valued as it stands: per seat,
    cards captured + chips − cards in hand. :func:`model_rollout` is this function, compiled
    when it is built."""
    for _ in range(MODEL_PLAYOUT_MOVES):
        if state.results or state.phase != PLAY_PHASE:
            break
        mover = state.turn
        state = apply(state, mover, model_move(state, mover, weights, temperature, rng))
    if state.results or state.phase != PLAY_PHASE:
        return result_value(state, seat, totals, lead)
    points = [len(state.piles[s]) + state.chips[s] - len(h) for s, h in enumerate(state.hands)]
    return end_value(points, seat, totals, lead)


def model_rollout(
    state: State,
    seat: int,
    rng: random.Random,
    weights: Sequence[float],
    temperature: float,
    totals: Sequence[int] | None = None,
    lead: bool = False,
) -> float:
    """:func:`model_rollout_py`, played by the compiled playout (3+ players) when it is built:
    the same moves from the same draws."""
    if _MODEL_ROLLOUT is not None and (args := compiled_round(state, seat)) is not None:
        value: float | None = _MODEL_ROLLOUT(
            *args, state.scout_show, tuple(weights), float(temperature), rng.random,
            MODEL_PLAYOUT_MOVES, *(() if totals is None else (tuple(totals), lead)),
        )  # fmt: skip
        if value is not None:
            return value
    return model_rollout_py(state, seat, rng, weights, temperature, totals, lead)


def model_options(state: State, seat: int) -> list[Any]:
    """The moves the opponent model weighs for the seat to move: its Shows, and its plain
    Scouts that put the card at an end of the hand or beside a number within one of it
    (:func:`~parlour.bots.scout.inference.fits`), in the legal actions' order; every plain
    action if there is none of those."""
    hand = state.hands[seat]
    active = state.active
    if len(state.hands) == 2 or state.pending or not active:
        legal = plain_actions(state, seat)
        options = [
            a for a in legal
            if type(a) is Show
            or (type(a) is Scout and fits(hand, (active[0] if a.end == "left" else active[-1])
                                          [1 if a.rotate else 0], a.insert))
        ]  # fmt: skip
        return options or legal
    weighed: list[Any] = legal_shows(hand, state.active_key)
    n = len(hand)
    table = SCOUTS[n]
    values = [c[0] for c in hand]
    left, right = active[0], active[-1]
    # SCOUTS[n]: left end, then right; unrotated, then rotated; by insert position 0..n
    for k, value in enumerate((left[0], left[1], right[0], right[1])):
        base = k * (n + 1)
        weighed.extend(table[base + i] for i in fitting_inserts(values, value))
    return weighed


def model_scores(
    state: State, seat: int, options: Sequence[Any], weights: Sequence[float]
) -> list[float]:
    """The evaluation's scores by ``weights`` of ``options`` (:func:`model_options`) for the
    seat to move, as the opponent model weighs them (before its temperature)."""
    hands = state.hands
    players = len(hands)
    return plain_scores(
        [c[0] for c in hands[seat]],
        state.active,
        [len(h) for i, h in enumerate(hands) if i != seat],
        1.0 if state.scout_show[seat] else 0.0,
        players > 2 and state.scouts + 1 >= players - 1,
        options,
        weights,
    )


def scout_show_options(
    state: State, seat: int, weights: Sequence[float], price: float = 0.0
) -> list[tuple[Any, float]]:
    """The Scout & Shows the opponent model may weigh for the seat to move (:func:`model_move`
    with ``scout_show``), each as ``(action, score)``: with 3 or more players, a Scout & Show
    in hand and a show on the table, the feasible Scout halves (some Show beats the reduced
    show afterwards) that put the card at an end of the hand or beside a number within one
    (every feasible one if none does), scored by the evaluation's features of the best
    following Show by ``weights`` (:func:`~parlour.bots.scout.features.features`) less
    ``price``."""
    hands = state.hands
    if len(hands) == 2 or state.pending or not state.active or not state.scout_show[seat]:
        return []
    others = tuple(sorted(len(h) for i, h in enumerate(hands) if i != seat))  # order-free
    scored = _scout_show_options(hands[seat], state.active, others, tuple(weights))
    return [(a, score - price) for a, score in scored]


@lru_cache(maxsize=1 << 15)
def _scout_show_options(
    hand: tuple[Card, ...], active: tuple[Card, ...], others: tuple[int, ...], w: tuple[float, ...]
) -> tuple[tuple[Any, float], ...]:
    # scout_show_options for a hand, the show on the table and the other hands' sizes,
    # remembered: the tree meets the same opponent positions again and again.
    feasible = feasible_scout_shows(hand, active)
    fitting = [
        a for a in feasible
        if fits(hand, (active[0] if a.end == "left" else active[-1])[1 if a.rotate else 0],
                a.insert)
    ]  # fmt: skip
    options = fitting or feasible
    scores = scout_show_scores([c[0] for c in hand], active, others, options, w)
    return tuple(zip(options, scores, strict=True))


def model_move(
    state: State,
    seat: int,
    weights: Sequence[float],
    temperature: float,
    rng: random.Random,
    scout_show: float | None = None,
) -> Any:
    """An opponent's move under the model: a softmax over the evaluation's scores of its Shows
    and of its Scouts that put the card at an end of the hand or beside a number within one;
    with ``scout_show`` (a price in points) also of its Scout & Shows, each scored less that
    price (:func:`scout_show_options`; else never Scout & Show: :func:`plain_actions`)."""
    options = model_options(state, seat)
    extra = [] if scout_show is None else scout_show_options(state, seat, weights, scout_show)
    if len(options) == 1 and not extra:
        return options[0]
    scores = [s / temperature for s in model_scores(state, seat, options, weights)]
    if extra:
        options = options + [a for a, _ in extra]
        scores = scores + [s / temperature for _, s in extra]
    top = max(scores)
    cum = []
    total = 0.0
    for s in scores:
        total += math.exp(s - top)
        cum.append(total)
    return rng.choices(options, cum_weights=cum)[0]


def searched_move(
    state: State,
    seat: int,
    weights: Sequence[float],
    temperature: float,
    rng: random.Random,
    children: Mapping[Any, Any],
    base: float | None,
    strength: float,
    shrink: float,
) -> Any:
    """An opponent's move in a search tree that leans to the moves the search found good for
    it: the model's softmax (:func:`model_move`, without Scout & Show), each option's score
    raised by ``strength`` × what its public move is worth to ``seat`` in the tree (the mean of
    the child under it, ``children[(action, shown)]`` with ``n`` visits and the seats' value
    sums ``ws``, less ``base``, the node's own mean for ``seat``), shrunk by the child's visits
    as ``n / (n + shrink)``. A child the same action made with other cards (in another deal)
    does not count; with ``base`` None (nothing backed up yet) it is the model's own draw."""
    options = model_options(state, seat)
    if len(options) == 1:
        return options[0]
    logits = [s / temperature for s in model_scores(state, seat, options, weights)]
    if children and base is not None:
        index = {a: i for i, a in enumerate(options)}
        hand, active = state.hands[seat], state.active
        for (action, shown), child in children.items():
            i = index.get(action)
            if i is None or child.ws is None:
                continue
            if type(action) is Show:
                made = hand[action.start : action.start + action.length]
            else:
                made = active[1:] if action.end == "left" else active[:-1]
            if made != shown:
                continue  # the same action made another public move in another deal
            n = child.n
            gain = child.ws[seat] / n - base
            logits[i] += strength * gain * n / (n + shrink)
    top = max(logits)
    cum, total = [], 0.0
    for logit in logits:
        total += math.exp(logit - top)
        cum.append(total)
    return rng.choices(options, cum_weights=cum)[0]


__all__ = [
    "MODEL_PLAYOUT_MOVES",
    "model_move",
    "model_options",
    "model_rollout",
    "model_rollout_py",
    "model_scores",
    "plain_actions",
    "scout_show_options",
    "searched_move",
]
