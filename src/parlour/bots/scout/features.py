"""A learnable SCOUT evaluation: features of a move × weights tuned by self-play.

Every legal action is described by a few numbers (:data:`FEATURES`) about the position it leaves,
all from the seat's own view, and scored by their weighted sum. The weights live in
``scout_eval.json`` beside this module (tuned by ``bench/tune_scout.py``, ``make tune-scout``);
:func:`load_weights` reads them once.

The features, for the hand the move leaves (a Scout & Show: after its best following Show):

- ``groups``: how many maximal sets and runs the hand splits into (Shows still needed);
- ``lone``: how many of them are single cards;
- ``best``: the strongest group kept for later (``group_key / 32``: about its length);
- ``cards``: cards left in hand (each is −1 if the round ended now);
- ``measure``: the one-ply reference's group measure (each maximal set or run of ``k ≥ 2``
  cards counts ``k²``, sets ×1.25; :func:`parlour.bots.scout.oneply.group_measure`);
- ``cards_urgent``: cards left ÷ the smallest opponent's hand (the round may end soon);
- ``captured``: cards captured by the Show;
- ``chips_given``: a Scout's chip (an opponent's point, ``1 / (players − 1)`` of the
  opponents' mean; 2 players: the own chip spent);
- ``scouted``: the move scouts (Scout, or Scout & Show): a fixed cost, whatever the table;
- ``tempo``: the strength of the Show left on the table (``group_key / 32``);
- ``safe``: the share of opponents whose hands are too small to beat that Show;
- ``ss_kept``: Scout & Show still available after the move;
- ``ends_round``: the cards this seat would lose now if its Scout ends the round (S13.2: the
  show's owner is exempt, everyone else pays for their hand);
- ``empties``: the Show empties the hand (the round ends, S13.1).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from operator import mul
from typing import Any

from parlour.bots.scout import heuristic
from parlour.bots.scout.heuristic import best_by, following_shows, hand_shape
from parlour.games.scout import Flip, Scout, ScoutShow, Show, group_key

FEATURES = (
    "groups",
    "lone",
    "best",
    "cards",
    "measure",
    "cards_urgent",
    "captured",
    "chips_given",
    "scouted",
    "tempo",
    "safe",
    "ss_kept",
    "ends_round",
    "empties",
)
"""The evaluation's features, in the order of a weight vector."""

HAND_FEATURES = ("groups", "lone", "best", "cards", "measure")
"""The features of a hand alone (the flip decision compares them for both orientations)."""

WEIGHTS_FILE = "scout_eval.json"

MODEL_FILE = "scout_model.json"
"""Weights over the same features for the search's opponent model, fitted to how Hard plays
(``bench/fit_scout_model.py``)."""


@cache
def load_weights(name: str = WEIGHTS_FILE) -> tuple[float, ...]:
    """The shipped weights (``scout_eval.json``, or another file of this package such as
    :data:`MODEL_FILE`), in :data:`FEATURES` order. Raises ``ValueError`` if the file does not
    name exactly these features."""
    text = resources.files("parlour.bots.scout").joinpath(name).read_text()
    data = json.loads(text)
    weights = data["weights"]
    if set(weights) != set(FEATURES):
        raise ValueError(f"{name} must give exactly the features {FEATURES}")
    return tuple(float(weights[f]) for f in FEATURES)


def hand_features(values: Sequence[int]) -> list[float]:
    """``groups``, ``lone``, ``best``, ``cards`` and ``measure`` of a hand of these numbers."""
    return list(_hand_features(tuple(values)))


@lru_cache(maxsize=1 << 16)
def _hand_features(values: tuple[int, ...]) -> tuple[float, ...]:
    # hand_features, remembered: the search meets the same hands again and again.
    groups, lone, best, measure = hand_shape(values)
    return (float(groups), float(lone), best / 32, float(len(values)), measure)


def features(
    view: Mapping[str, Any], action: Any, weights: Sequence[float] | None = None
) -> list[float]:
    """The feature vector (:data:`FEATURES` order) of ``action`` for the viewing seat; for a
    Scout & Show, that of its following Show best by ``weights`` (default: the shipped ones)."""
    cards = view["hand"]
    hand = [c[0] for c in cards]
    active = view["active_show"]
    players = view["players"]
    me = view["seat"]
    seats = view["seats"]
    opponents = [s["hand_size"] for s in seats if s["seat"] != me] or [1]
    ss_available = 1.0 if me is not None and seats[me]["scout_show_available"] else 0.0
    if isinstance(action, Flip):
        values = [c[1] for c in reversed(cards)] if action.flip else hand
        return _vector(values, opponents, ss_kept=ss_available)
    if isinstance(action, Show):
        rest = hand[: action.start] + hand[action.start + action.length :]
        shown = hand[action.start : action.start + action.length]
        return _vector(rest, opponents, captured=len(active), shown=shown, ss_kept=ss_available)
    if isinstance(action, (Scout, ScoutShow)):
        card = active[0] if action.end == "left" else active[-1]
        number = card[1] if action.rotate else card[0]
        new_hand = hand[: action.insert] + [number] + hand[action.insert :]
        chip = 0.6 if players == 2 else 1.0 / max(1, players - 1)
        if isinstance(action, Scout):
            ends = players > 2 and view["scouts_since_show"] + 1 >= players - 1
            return _vector(
                new_hand,
                opponents,
                chips=chip,
                ss_kept=ss_available,
                ends_round=float(len(new_hand)) if ends else 0.0,
            )
        rest_show = active[1:] if action.end == "left" else active[:-1]
        target = group_key([c[0] for c in rest_show])
        w = tuple(weights) if weights is not None else load_weights()
        found = _best_following_show(tuple(new_hand), target, len(rest_show), chip,
                                     tuple(opponents), w)  # fmt: skip
        if found is None:
            return _vector(new_hand, opponents, chips=chip)
        i, j, key = found
        return _vector(
            new_hand[:i] + new_hand[j:],
            opponents,
            captured=len(rest_show),
            shown=new_hand[i:j],
            chips=chip,
            shown_key=key,
        )
    return [0.0] * len(FEATURES)


@lru_cache(maxsize=1 << 14)
def _best_following_show(
    held: tuple[int, ...],
    target: int,
    captured_cards: int,
    chip: float,
    opponents: tuple[int, ...],
    w: tuple[float, ...],
) -> tuple[int, int, int] | None:
    # (start, end, strength) of the best Show beating strength ``target`` from the hand
    # ``held`` (the Scout of a Scout & Show made), by the weights ``w``; None if there is none.
    # Each is valued as dot(w, its _vector) would value it, term by term in the same order (so
    # to the last bit), without building the vectors. Remembered: a third of a decision's
    # Scout & Shows make a hand another one made (a card put either side of its twin).
    return eval_following_show(held, target, captured_cards, chip, opponents, w)


def eval_following_show_py(
    held: tuple[int, ...],
    target: int,
    captured_cards: int,
    chip: float,
    opponents: tuple[int, ...],
    w: tuple[float, ...],
) -> tuple[int, int, int] | None:
    """(start, end, strength) of the Show beating strength ``target`` from the hand ``held``
    (capturing ``captured_cards``, after a Scout worth ``chip`` to the Show's owner, against
    opponents holding ``opponents`` cards) that the weights ``w`` value most; None if there is
    none. :func:`eval_following_show` is this function, compiled when it is built (the same
    choice: every value to the last bit)."""
    captured = float(captured_cards)
    fewest = max(1, min(opponents))
    safe = [sum(1 for h in opponents if h < n) / len(opponents) for n in range(len(held) + 1)]
    best_at: tuple[int, int, int] | None = None
    best_value = float("-inf")
    for i, j, key, left in following_shows(held, target):
        groups, lone, strength, count, measure = _hand_features(left)
        value = (
            w[0] * groups
            + w[1] * lone
            + w[2] * strength
            + w[3] * count
            + w[4] * measure
            + w[5] * (count / fewest)
            + w[6] * captured
            + w[7] * chip
            + w[8] * 1.0
            + w[9] * (key / 32)
            + w[10] * safe[j - i]
            + w[11] * 0.0
            + w[12] * 0.0
            + w[13] * (0.0 if left else 1.0)
        )
        if value > best_value:
            best_at, best_value = (i, j, key), value
    return best_at


if heuristic.COMPILED_MODULE is not None:
    heuristic.COMPILED_MODULE.configure("eval_following_show", eval_following_show_py)
eval_following_show: Callable[..., tuple[int, int, int] | None] = (
    eval_following_show_py if heuristic.COMPILED_MODULE is None
    else heuristic.COMPILED_MODULE.eval_following_show
)  # fmt: skip
"""``eval_following_show(held, target, captured_cards, chip, opponents, w)``:
:func:`eval_following_show_py`, compiled when available."""


def _vector(
    values: Sequence[int],
    opponents: Sequence[int],
    *,
    captured: int = 0,
    shown: Sequence[int] = (),
    chips: float = 0.0,
    ss_kept: float = 0.0,
    ends_round: float = 0.0,
    shown_key: int = 0,
) -> list[float]:
    # shown_key: group_key(shown) if the caller knows it already
    groups, lone, best, count, measure = _hand_features(tuple(values))
    safe = sum(1 for h in opponents if h < len(shown)) / len(opponents) if shown else 0.0
    return [
        groups,
        lone,
        best,
        count,
        measure,
        count / max(1, min(opponents)),
        float(captured),
        chips,
        1.0 if chips else 0.0,
        (shown_key or group_key(shown)) / 32 if shown else 0.0,
        safe,
        ss_kept,
        ends_round,
        1.0 if shown and not values else 0.0,
    ]


_PLAIN_SCORES = (
    None if heuristic.COMPILED_MODULE is None else heuristic.COMPILED_MODULE.plain_scores
)


def plain_scores(
    hand: Sequence[int],
    active: Sequence[tuple[int, int]],
    opponents: Sequence[int],
    ss_kept: float,
    ends: bool,
    options: Sequence[Any],
    w: Sequence[float],
    view: Mapping[str, Any] | None = None,
) -> list[float]:
    """``dot(w, features(view, a, w))`` for each of ``options`` (Shows and Scouts) of a seat
    holding the numbers ``hand`` at a table showing ``active``, against ``opponents``' hand
    sizes, with Scout & Show still there (``ss_kept`` 1.0) or not, where a Scout would end the
    round (``ends``): the same values to the last bit, summed term by term in the same order
    (a feature that is always 0 for the action's kind is left out: adding a zero changes no
    value), without building a view or vectors. The search scores the opponents' options with
    it millions of times (compiled, when it is built, for Shows and plain Scouts). Other actions
    (Scout & Show, Flip) are scored by :func:`features` of ``view`` (the same position as a
    seat's view; ``ValueError`` without it)."""
    if _PLAIN_SCORES is not None:
        compiled = _PLAIN_SCORES(tuple(hand), tuple(active), tuple(opponents), ss_kept, ends,
                                 options if type(options) is list else list(options), tuple(w),
                                 Show, Scout)  # fmt: skip
        if compiled is not None:
            return compiled  # type: ignore[no-any-return]
    players = len(opponents) + 1
    fewest = max(1, min(opponents))
    n_opp = len(opponents)
    captured = float(len(active))
    chip = 0.6 if players == 2 else 1.0 / max(1, players - 1)
    w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13 = w

    def hand_terms(left: tuple[int, ...]) -> float:
        # the sum's first six terms, for the hand a move leaves (in the vector's order)
        groups, lone, best, count, measure = _hand_features(left)
        return (
            w0 * groups + w1 * lone + w2 * best + w3 * count + w4 * measure + w5 * (count / fewest)
        )

    out = []
    for action in options:
        kind = type(action)
        if kind is Show:
            start, length = action.start, action.length
            rest = (*hand[:start], *hand[start + length :])
            value = (
                hand_terms(rest) + w6 * captured
                + w9 * (group_key(hand[start : start + length]) / 32)
                + w10 * (sum(1 for h in opponents if h < length) / n_opp)
                + w11 * ss_kept + w13 * (0.0 if rest else 1.0)
            )  # fmt: skip
        elif kind is Scout:
            card = active[0] if action.end == "left" else active[-1]
            insert = action.insert
            new_hand = (*hand[:insert], card[1] if action.rotate else card[0], *hand[insert:])
            value = (
                hand_terms(new_hand) + w7 * chip + w8 * 1.0 + w11 * ss_kept
                + w12 * (float(len(new_hand)) if ends else 0.0)
            )  # fmt: skip
        elif view is not None:
            value = dot(w, features(view, action, w))
        else:
            raise ValueError(f"{action!r} needs the seat's view to be scored")
        out.append(value)
    return out


def scout_show_scores(
    hand: Sequence[int],
    active: Sequence[tuple[int, int]],
    opponents: Sequence[int],
    options: Sequence[ScoutShow],
    w: Sequence[float],
) -> list[float]:
    """``dot(w, features(view, a, w))`` for each of ``options``, Scout & Shows with 3 or more
    players (each with a following Show: :func:`~parlour.games.scout.rules.feasible_scout_shows`)
    of a seat holding the numbers ``hand`` at a table showing ``active``, against
    ``opponents``' hand sizes: the value of the best following Show, without building a view
    (the search's opponent model scores them inside its tree). ``ValueError`` for an option
    with no following Show."""
    chip = 1.0 / max(1, len(opponents))
    fewest = max(1, min(opponents))
    w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, _, _, w13 = w
    opp = tuple(opponents)
    held = tuple(hand)
    wt = tuple(w)
    out = []
    for action in options:
        left_end = action.end == "left"
        card = active[0] if left_end else active[-1]
        rest = active[1:] if left_end else active[:-1]
        insert = action.insert
        new_hand = (*held[:insert], card[1] if action.rotate else card[0], *held[insert:])
        found = _best_following_show(new_hand, group_key([c[0] for c in rest]), len(rest), chip,
                                     opp, wt)  # fmt: skip
        if found is None:
            raise ValueError(f"{action!r} has no following Show")
        i, j, key = found
        left = new_hand[:i] + new_hand[j:]
        groups, lone, best, count, measure = _hand_features(left)
        out.append(
            w0 * groups + w1 * lone + w2 * best + w3 * count + w4 * measure
            + w5 * (count / fewest) + w6 * float(len(rest)) + w7 * chip + w8 * 1.0
            + w9 * (key / 32) + w10 * (sum(1 for h in opp if h < j - i) / len(opp))
            + w13 * (0.0 if left else 1.0)
        )  # fmt: skip
    return out


def dot(weights: Sequence[float], values: Sequence[float]) -> float:
    """The weighted sum of a feature vector (raises ``ValueError`` if the lengths differ)."""
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights for {len(values)} features")
    total: float = sum(map(mul, weights, values))
    return total


class EvalBot:
    """One-move lookahead with the feature evaluation; ``noise`` misjudges each action's value
    (normal, that standard deviation), as ``heuristic:noise`` does. ``weights`` default to the
    shipped ones."""

    name = "eval"

    def __init__(self, weights: Sequence[float] | None = None, noise: float = 0.0) -> None:
        self.weights = tuple(weights) if weights is not None else load_weights()
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"need {len(FEATURES)} weights, got {len(self.weights)}")
        self.noise = noise

    def score(self, view: Mapping[str, Any], action: Any) -> float:
        """The value of ``action`` for the viewing seat (higher is better)."""
        if isinstance(action, Flip):
            values = [c[1] for c in reversed(view["hand"])] if action.flip else None
            hand = values if values is not None else [c[0] for c in view["hand"]]
            return dot(self.weights[: len(HAND_FEATURES)], hand_features(hand))
        return dot(self.weights, features(view, action, self.weights))

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """The legal action with the best score (ties and ``noise`` broken by ``rng``); raises
        ``ValueError`` if there is none."""
        return best_by(lambda a: self.score(view, a), legal, rng, self.noise)


__all__ = [
    "FEATURES",
    "MODEL_FILE",
    "EvalBot",
    "dot",
    "features",
    "hand_features",
    "load_weights",
    "plain_scores",
    "scout_show_scores",
]
