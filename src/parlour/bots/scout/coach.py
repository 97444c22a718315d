"""SCOUT's coach: a suggested move with a one-line reason, and how much a move cost.

Like every bot it sees one seat's view and legal actions, nothing else.

- :func:`suggest`: the move of a level's bot (Expert by default, through the level map:
  whatever Expert plays today), with a reason: a message-catalogue key (``hint.reason.<key>``
  in the browser) and its parameters, found from the tuned evaluation's feature differences
  (:mod:`parlour.bots.scout.features`) between the suggested move and the evaluation's best
  other move.
- :func:`regret`: for a move a person made, the evaluation's best move and the expected points
  the made move lost against it: the evaluation's value of the position after each move (its
  scale is about points: a card captured is worth about 1.5, a card left in hand about −1.1);
  :func:`explain` gives the best move's reason.
- :func:`words`: a move described for people: a catalogue key (``hint.move.<key>``) and its
  parameters (the cards' numbers).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.scout.features import FEATURES, HAND_FEATURES, EvalBot, features, hand_features
from parlour.games.scout import Flip, Scout, ScoutShow, Show

REASONS: dict[str, tuple[str, ...]] = {
    "empties": (),
    "captures": ("n",),
    "keeps_set": ("cards",),
    "keeps_run": ("cards",),
    "scout_set": ("card", "cards"),
    "scout_run": ("card", "cards"),
    "shape": (),
    "strong": (),
    "sheds": ("n",),
    "no_chip": (),
    "keeps_ss": (),
    "flip_groups": ("groups", "other"),
    "flip_shape": (),
    "only": (),
    "best": (),
}
"""Every reason :func:`suggest` and :func:`regret` give, with the parameters it carries."""

MOVES: dict[str, tuple[str, ...]] = {
    "show": ("cards",),
    "scout": ("card",),
    "scout_show": ("card",),
    "keep": (),
    "flip": (),
}
"""Every move :func:`words` describes, with its parameters."""

ONCE_PER_ROUND = ("scout_show",)
"""Moves a seat can make once a round (S12: one Scout & Show): the turning points suggest each
at one move a round at most (the evaluation puts no value on keeping it for later)."""

FAMILIES = {
    "empties": ("empties",),
    "captures": ("captured",),
    "shape": ("groups", "lone", "best", "measure"),
    "strong": ("tempo", "safe"),
    "sheds": ("cards", "cards_urgent"),
    "no_chip": ("chips_given", "scouted", "ends_round"),
    "keeps_ss": ("ss_kept",),
}
"""The evaluation's features, grouped by the reason they give when they favour a move."""

_EVAL = EvalBot()


def value(view: Mapping[str, Any], action: Any) -> float:
    """The tuned evaluation's value of ``action`` for the viewing seat (higher is better)."""
    return _EVAL.score(view, action)


def words(view: Mapping[str, Any], action: Any) -> tuple[str, dict[str, Any]]:
    """``action`` in words: a key of :data:`MOVES` and its parameters.

    >>> words({"hand": [[3, 1], [4, 2], [5, 9]], "active_show": []}, Show(0, 3))
    ('show', {'cards': '3-4-5'})
    """
    if isinstance(action, Flip):
        return ("flip" if action.flip else "keep"), {}
    hand = [c[0] for c in view["hand"]]
    if isinstance(action, Show):
        shown = hand[action.start : action.start + action.length]
        return "show", {"cards": cards_text(shown)}
    if isinstance(action, (Scout, ScoutShow)):
        kind = "scout" if isinstance(action, Scout) else "scout_show"
        return kind, {"card": _scouted(view, action)}
    raise ValueError(f"not a SCOUT move: {action!r}")


def _scouted(view: Mapping[str, Any], action: Scout | ScoutShow) -> int:
    # The number a Scout takes into the hand (the card turned if it says so).
    active = view["active_show"]
    card = active[0] if action.end == "left" else active[-1]
    return int(card[1] if action.rotate else card[0])


def suggest(
    view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random, level: str = "expert"
) -> tuple[Any, str, dict[str, Any]]:
    """The move the bot of ``level`` plays here, with its reason (a key of :data:`REASONS`
    and its parameters). Raises ``ValueError`` if nothing is legal or the level is unknown."""
    from parlour.bots.levels import make_bot

    if not legal:
        raise ValueError("no legal action to suggest")
    action = make_bot("scout", level).choose(view, legal, rng)
    reason, params = explain(view, legal, action)
    return action, reason, params


def regret(view: Mapping[str, Any], legal: Sequence[Any], played: Any) -> tuple[Any, float]:
    """The evaluation's best move among ``legal`` and the expected points ``played`` lost
    against it (0 if it was that move or as good); :func:`explain` says why the best is best."""
    if not legal:
        raise ValueError("no legal action")
    values = [value(view, a) for a in legal]
    top = max(range(len(legal)), key=lambda i: values[i])
    return legal[top], max(0.0, values[top] - value(view, played))


def explain(
    view: Mapping[str, Any], legal: Sequence[Any], action: Any
) -> tuple[str, dict[str, Any]]:
    """Why ``action`` is good here: a key of :data:`REASONS` and its parameters, from the
    feature family that favours it most against the evaluation's best other move."""
    others = [a for a in legal if a != action]
    if not others:
        return "only", {}
    if isinstance(action, Flip):
        return _flip_reason(view, action)
    weights = _EVAL.weights
    alt = max(others, key=lambda a: value(view, a))
    mine, theirs = features(view, action, weights), features(view, alt, weights)
    gain = {
        name: w * (m - o) for name, w, m, o in zip(FEATURES, weights, mine, theirs, strict=True)
    }
    scores = {family: sum(gain.get(f, 0.0) for f in names) for family, names in FAMILIES.items()}
    family = max(scores, key=lambda f: scores[f])
    at = dict(zip(FEATURES, mine, strict=True))
    hand = [c[0] for c in view["hand"]]
    if scores[family] <= 1e-9:  # no feature favours it (the search saw further): say what it does
        if isinstance(action, Show) and at.get("captured", 0) > 0:
            return "captures", {"n": int(at["captured"])}
        found = _shape_reason(view, hand, action)
        return found if found[0] != "shape" else ("best", {})
    if family == "empties":
        return "empties", {}
    if family == "captures":
        return "captures", {"n": int(at.get("captured", 0))}
    if family == "shape":
        return _shape_reason(view, hand, action)
    if family == "strong":
        return "strong", {}
    if family == "sheds":
        shed = len(hand) - int(at.get("cards", len(hand)))
        return ("sheds", {"n": shed}) if shed > 0 else ("best", {})
    if family == "no_chip":
        return ("no_chip", {}) if isinstance(action, Show) else ("best", {})
    return "keeps_ss", {}


def _flip_reason(view: Mapping[str, Any], action: Flip) -> tuple[str, dict[str, Any]]:
    # Compare the hand's groups as kept and as flipped.
    kept = [c[0] for c in view["hand"]]
    flipped = [c[1] for c in reversed(view["hand"])]
    at = HAND_FEATURES.index("groups")
    mine = hand_features(flipped if action.flip else kept)[at]
    other = hand_features(kept if action.flip else flipped)[at]
    if mine < other:
        return "flip_groups", {"groups": int(mine), "other": int(other)}
    return "flip_shape", {}


def group_at(values: Sequence[int], i: int) -> tuple[int, int]:
    """The longest set or run of ``values`` that holds position ``i``: its first index and its
    length.

    >>> group_at([1, 5, 6, 7, 2], 2)
    (1, 3)
    """
    best = (i, 1)
    for step in (-1, 0, 1):
        a = i
        while a > 0 and values[a] - values[a - 1] == step:
            a -= 1
        b = a
        while b + 1 < len(values) and values[b + 1] - values[b] == step:
            b += 1
        if b >= i and b - a + 1 > best[1]:
            best = (a, b - a + 1)
    return best


def cards_text(values: Sequence[int]) -> str:
    """Cards' numbers as the browser's log writes them.

    >>> cards_text([7, 7])
    '7-7'
    """
    return "-".join(str(v) for v in values)


def _group_reason(
    values: Sequence[int], start: int, length: int, scouted: int | None
) -> tuple[str, dict[str, Any]]:
    # A set or run of the hand kept together, or built by the scouted card.
    group = values[start : start + length]
    kind = "set" if group[0] == group[-1] else "run"
    if scouted is None:
        return f"keeps_{kind}", {"cards": cards_text(group)}
    return f"scout_{kind}", {"card": scouted, "cards": cards_text(group)}


def _shape_reason(
    view: Mapping[str, Any], hand: list[int], action: Any
) -> tuple[str, dict[str, Any]]:
    # A Scout that builds a group, or a Show that keeps the hand's longest group together.
    if isinstance(action, (Scout, ScoutShow)):
        number = _scouted(view, action)
        new_hand = hand[: action.insert] + [number] + hand[action.insert :]
        start, length = group_at(new_hand, action.insert)
        if length >= 2:
            return _group_reason(new_hand, start, length, number)
        return "shape", {}
    if isinstance(action, Show):
        rest = hand[: action.start] + hand[action.start + action.length :]
        groups = [group_at(rest, i) for i in range(len(rest))]
        longest = max(groups, key=lambda g: (g[1], rest[g[0]]), default=(0, 0))
        if longest[1] >= 2:
            return _group_reason(rest, longest[0], longest[1], None)
    return "shape", {}


__all__ = [
    "MOVES",
    "REASONS",
    "cards_text",
    "explain",
    "group_at",
    "regret",
    "suggest",
    "value",
    "words",
]
