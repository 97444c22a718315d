"""Inference for the SCOUT search: how likely each sampled deal makes the opponents' past moves.

A determinization (:mod:`parlour.bots.scout.determinize`) draws the hidden cards uniformly; but a
player's moves say something about their hand — a Scout's card went where it fits, a seat that
scouted had no good Show, a seat that kept its hand kept the better orientation. Each sampled
deal is weighted by the probability of every opponent move of this round under a model of that
opponent: a softmax (temperature :data:`TEMPERATURE`) over the tuned evaluation's scores
(:mod:`parlour.bots.scout.features`) of the moves they could have made, from the hand the deal
gives them at that moment. The hands at past moments are rebuilt from the deal's current hands
by undoing the public events (a Show put back where it was taken from, a scouted card taken
out again). Everything here reads only the seat's view and the sampled deal.

The moves compared for a past decision (the same model plays the opponents inside the search,
:func:`parlour.bots.scout.opponent_model.model_move`): every Show that beat the table, and every
plain Scout of the taken end (both ways up; both ends when the move was a Show) that puts the
card at an end of the hand or beside a number within one of it (:func:`fits`); the move taken
is always among them. The flip decision: the orientation the deal gives the
seat at the round's start against its reverse, by the hand features.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.scout.determinize import determinize, public_slots, scout_view
from parlour.bots.scout.features import HAND_FEATURES, dot, hand_features, plain_scores
from parlour.games.scout import Scout, ScoutShow, ScoutView, Show, State, group_key
from parlour.games.scout.actions import SCOUTS
from parlour.games.scout.rules import legal_shows

TEMPERATURE = 1.0
"""The opponent model's softmax temperature, in the evaluation's points."""

Card = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Decision:
    """One past move of an opponent with its public context (what the table looked like)."""

    index: int  # position in the round's log
    seat: int
    action: Any
    active: tuple[Card, ...]
    sizes: tuple[int, ...]
    scouts: int
    scout_show: tuple[bool, ...]
    pending: bool


def decisions(view: Mapping[str, Any]) -> list[Decision]:
    """The opponents' Shows, Scouts and Scout & Shows of this round, each with the public
    context before it, in order (from the view's log alone)."""
    me = view["seat"]
    players = view["players"]
    log = view["log"]
    sizes = [s["hand_size"] for s in view["seats"]]
    for event in log:  # back to the sizes at the round's start
        if event["type"] == "show":
            sizes[event["seat"]] += event["length"]
        elif event["type"] in ("scout", "scout_show"):
            sizes[event["seat"]] -= 1
    active: tuple[Card, ...] = ()
    scouts = 0
    ss = [players > 2] * players
    pending = False
    out = []
    for i, event in enumerate(log):
        kind = event["type"]
        if kind not in ("show", "scout", "scout_show"):
            continue
        seat = event["seat"]
        if kind == "show":
            action: Any = Show(event["start"], event["length"])
        else:
            make = Scout if kind == "scout" else ScoutShow
            action = make(event["end"], event["rotate"], event["insert"])
        if seat != me:
            out.append(Decision(i, seat, action, active, tuple(sizes), scouts, tuple(ss), pending))
        if kind == "show":
            active = tuple((c[0], c[1]) for c in event["cards"])
            sizes[seat] -= event["length"]
            scouts = 0
            pending = False
        else:
            active = active[1:] if event["end"] == "left" else active[:-1]
            sizes[seat] += 1
            if kind == "scout":
                scouts += 1
            else:
                ss[seat] = False
                pending = True
    return out


def seat_view(
    hand: Sequence[Card],
    seat: int,
    active: Sequence[Card],
    sizes: Sequence[int],
    scouts: int,
    scout_show: Sequence[bool],
) -> dict[str, Any]:
    """The part of a seat's view the evaluation reads, for a hand and table given directly."""
    return {
        "hand": hand,
        "seat": seat,
        "players": len(sizes),
        "active_show": active,
        "scouts_since_show": scouts,
        "seats": [
            {"seat": s, "hand_size": n, "scout_show_available": scout_show[s]}
            for s, n in enumerate(sizes)
        ],
    }


def state_view(state: State, seat: int) -> dict[str, Any]:
    """:func:`seat_view` of a (determinized) state for ``seat``."""
    return seat_view(
        state.hands[seat],
        seat,
        state.active,
        [len(h) for h in state.hands],
        state.scouts,
        state.scout_show,
    )


def compared(hand: Sequence[Card], d: Decision) -> list[Any]:
    """The moves a past decision is compared with (see the module docstring)."""
    key = group_key([c[0] for c in d.active])
    options: list[Any] = list(legal_shows(tuple(hand), key))
    if d.pending or not d.active:
        return options if d.action in options else [*options, d.action]
    ends = [d.action.end] if isinstance(d.action, (Scout, ScoutShow)) else ["left", "right"]
    values = [c[0] for c in hand]
    table = SCOUTS[len(hand)]
    for end in ends:
        card = d.active[0] if end == "left" else d.active[-1]
        for rotate in (False, True):
            base = ((end == "right") * 2 + rotate) * (len(hand) + 1)
            value = card[1] if rotate else card[0]
            options.extend(table[base + i] for i in fitting_inserts(values, value))
    if d.action not in options:
        options.append(d.action)
    return options


def fits(hand: Sequence[Card], value: int, insert: int) -> bool:
    """Whether a scouted number ``value`` put at ``insert`` goes at an end of the hand or
    beside a number within one of it (the Scouts the opponent model considers)."""
    if insert == 0 or insert == len(hand):
        return True
    return abs(hand[insert - 1][0] - value) <= 1 or abs(hand[insert][0] - value) <= 1


def fitting_inserts(values: Sequence[int], value: int) -> list[int]:
    """The insert positions where :func:`fits` holds for a hand of these numbers, ascending.

    >>> fitting_inserts([3, 7, 9], 4)  # before, between 3 and 7, after
    [0, 1, 3]
    """
    n = len(values)
    inserts = [0]
    for i in range(1, n):
        if -1 <= values[i - 1] - value <= 1 or -1 <= values[i] - value <= 1:
            inserts.append(i)
    if n:
        inserts.append(n)
    return inserts


def log_softmax_of(scores: Sequence[float], chosen: float, temperature: float) -> float:
    """``log p(chosen)`` under a softmax over ``scores`` (which include ``chosen``)."""
    top = max(scores)
    total = sum(math.exp((s - top) / temperature) for s in scores)
    return (chosen - top) / temperature - math.log(total)


def _undo(hand: list[Card], event: Mapping[str, Any]) -> None:
    # The hand before ``event`` (by this hand's seat), from the hand after it.
    if event["type"] == "show":
        cards = [(c[0], c[1]) for c in event["cards"]]
        hand[event["start"] : event["start"]] = cards
    else:
        del hand[event["insert"]]


def flipped(hand: Sequence[Card]) -> list[Card]:
    """The hand turned round (S5): every card rotated, the order reversed."""
    return [(c[1], c[0]) for c in reversed(hand)]


def log_likelihood(
    view: Mapping[str, Any],
    past: Sequence[Decision],
    hands: Sequence[Sequence[Card]],
    weights: Sequence[float],
    temperature: float = TEMPERATURE,
) -> float:
    """``log P(the opponents' moves of this round | the deal's hands)`` under the softmax model
    (``hands``: every seat's current hand in the sampled deal)."""
    log = view["log"]
    me = view["seat"]
    by_index = {d.index: d for d in past}
    hand_weights = weights[: len(HAND_FEATURES)]
    players = view["players"]
    total = 0.0
    for seat in range(players):
        if seat == me:
            continue
        hand = [(c[0], c[1]) for c in hands[seat]]
        for i in range(len(log) - 1, -1, -1):
            event = log[i]
            if event.get("seat") != seat or event["type"] not in ("show", "scout", "scout_show"):
                continue
            _undo(hand, event)
            d = by_index.get(i)
            if d is None:
                continue
            options = compared(hand, d)
            scores = plain_scores(
                [c[0] for c in hand],
                d.active,
                [n for s, n in enumerate(d.sizes) if s != seat],
                1.0 if d.scout_show[seat] else 0.0,
                players > 2 and d.scouts + 1 >= players - 1,
                options,
                weights,
                # a Scout & Show is scored by the general way, from the seat's view then
                seat_view(hand, seat, d.active, d.sizes, d.scouts, d.scout_show)
                if type(d.action) is ScoutShow
                else None,
            )
            chosen = scores[options.index(d.action)]
            total += log_softmax_of(scores, chosen, temperature)
        if view["phase"] == "play":  # every seat has decided its flip
            kept = dot(hand_weights, hand_features([c[0] for c in hand]))
            other = dot(hand_weights, hand_features([c[0] for c in flipped(hand)]))
            total += log_softmax_of([kept, other], kept, temperature)
    return total


def effective_size(logs: Sequence[float]) -> float:
    """The effective sample size of weights given by their logarithms: (Σw)² / Σw²."""
    top = max(logs)
    weights = [math.exp(lw - top) for lw in logs]
    return sum(weights) ** 2 / sum(w * w for w in weights)


def tempered(logs: Sequence[float], share: float, steps: int = 30) -> list[float]:
    """``logs`` multiplied by the largest factor β ≤ 1 whose weights keep an effective sample
    size of at least ``share`` of their number (β = 1: ``logs`` as they are; the weights'
    order is kept). The effective size falls as β grows, so β is found by bisection."""
    need = share * len(logs)
    if effective_size(logs) >= need:
        return list(logs)
    low, high = 0.0, 1.0  # effective_size at low ≥ need > at high
    for _ in range(steps):
        mid = (low + high) / 2
        if effective_size([mid * lw for lw in logs]) >= need:
            low = mid
        else:
            high = mid
    return [low * lw for lw in logs]


def moved(
    view: Mapping[str, Any],
    past: Sequence[Decision],
    hands: Sequence[Sequence[Card]],
    log_l: float,
    unknown: Sequence[tuple[int, int]],
    steps: int,
    weights: Sequence[float],
    temperature: float,
    rng: random.Random,
) -> tuple[list[list[Card]], float]:
    """``steps`` Metropolis–Hastings moves of a sampled deal towards the deals the opponents'
    moves make likely: each move swaps the cards of two of the ``unknown`` slots (seat, index)
    or turns one of them round (both symmetric: the deals are drawn uniformly), and is kept with
    probability min(1, the likelihood ratio). Returns the hands and their log-likelihood
    (``log_l``: the given hands')."""
    cards = [list(h) for h in hands]
    undo: tuple[tuple[int, int, Card], ...]
    for _ in range(steps):
        if len(unknown) >= 2 and rng.random() < 0.5:
            (s1, i1), (s2, i2) = rng.sample(unknown, 2)
            cards[s1][i1], cards[s2][i2] = cards[s2][i2], cards[s1][i1]
            undo = ((s1, i1, cards[s2][i2]), (s2, i2, cards[s1][i1]))
        else:
            s1, i1 = unknown[rng.randrange(len(unknown))]
            card = cards[s1][i1]
            cards[s1][i1] = (card[1], card[0])
            undo = ((s1, i1, card),)
        new = log_likelihood(view, past, cards, weights, temperature)
        if new >= log_l or rng.random() < math.exp(new - log_l):
            log_l = new
        else:
            for seat, index, card in undo:
                cards[seat][index] = card
    return cards, log_l


def sample_deals(
    view: Mapping[str, Any],
    rng: random.Random,
    count: int,
    *,
    inference: bool,
    weights: Sequence[float],
    temperature: float,
    rejuvenate: int = 0,
    min_ess: float | None = None,
    start: float = 0.0,
    budget_s: float | None = None,
) -> tuple[list[State], list[float], list[float]]:
    """``count`` deals of the hidden cards (play-phase states) drawn for ``view``, their
    cumulative weights, and the log-likelihood of the opponents' past moves under each as
    drawn (with ``inference``; else all 0). ``rejuvenate``: the deals redrawn by their
    weights, each moved by that many Metropolis–Hastings steps (:func:`moved`), then weighted
    alike; else ``min_ess`` tempers collapsed weights (:func:`tempered`). With a ``budget_s``
    (seconds from ``start``, a ``time.perf_counter()``), drawing stops after a third of it (at
    least 4 deals) and moving after two thirds."""
    seen = scout_view(view)
    flip_phase = view["phase"] == "flip"
    past = decisions(view) if inference and not flip_phase else []
    deals: list[State] = []
    logs: list[float] = []
    for _ in range(count):
        deal = determinize(seen, rng)
        if flip_phase:
            deal.turn = view["start_seat"]
        deals.append(deal)
        logs.append(log_likelihood(view, past, deal.hands, weights, temperature) if past else 0.0)
        if budget_s is not None and len(deals) >= 4 and time.perf_counter() - start > budget_s / 3:
            break
    drawn = list(logs)
    if rejuvenate and past:
        deals, logs = _moved_deals(view, seen, past, deals, logs, rng, rejuvenate, weights,
                                   temperature, start, budget_s)  # fmt: skip
    elif min_ess is not None and past:
        logs = tempered(logs, min_ess)
    top = max(logs)
    cum, total = [], 0.0
    for lw in logs:
        total += math.exp(lw - top)
        cum.append(total)
    return deals, cum, drawn


def _moved_deals(
    view: Mapping[str, Any],
    seen: ScoutView,
    past: Sequence[Decision],
    deals: list[State],
    logs: list[float],
    rng: random.Random,
    steps: int,
    weights: Sequence[float],
    temperature: float,
    start: float,
    budget_s: float | None,
) -> tuple[list[State], list[float]]:
    """The deals redrawn by their weights, each moved by ``steps`` Metropolis–Hastings steps
    (with a ``budget_s``, only until two thirds of it), all weighted alike; ``seen``: the
    view as :func:`~parlour.bots.scout.determinize.scout_view` reads it."""
    me = view["seat"]
    slots = public_slots(seen)
    unknown = [(s, i) for s, row in enumerate(slots) if s != me
               for i, slot in enumerate(row) if slot is None]  # fmt: skip
    if not unknown:
        return deals, logs
    top = max(logs)
    picks = rng.choices(range(len(deals)), weights=[math.exp(lw - top) for lw in logs],
                        k=len(deals))  # fmt: skip
    moved_deals = []
    for i in picks:
        deal = deals[i]
        if budget_s is None or time.perf_counter() - start < budget_s * 2 / 3:
            cards, _ = moved(view, past, deal.hands, logs[i], unknown, steps, weights,
                             temperature, rng)  # fmt: skip
            deal = deal.clone()
            deal.hands = tuple(tuple(h) for h in cards)
        moved_deals.append(deal)
    return moved_deals, [0.0] * len(moved_deals)


__all__ = [
    "TEMPERATURE",
    "Decision",
    "compared",
    "decisions",
    "effective_size",
    "fits",
    "fitting_inserts",
    "flipped",
    "log_likelihood",
    "moved",
    "sample_deals",
    "seat_view",
    "state_view",
    "tempered",
]
