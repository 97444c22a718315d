"""A learned value of a SCOUT position for the search's leaves.

The search's leaves are positions of a sampled deal: every hand is known. :func:`seat_features`
describes one seat there (its hand's shape by the evaluation's hand features, its captures and
chips, its Scout & Show, whether it owns the active show and how close the show is to coming back
to it, what of its hand beats the show, how far it sits from the turn); a linear model per
number of players, fitted by least squares to the points the seats really made in the rest of
the round in games of searching bots (``bench/train_scout_value.py``), turns them into the
points each seat is expected to end the round with. :meth:`LeafValue.value` is the searching
seat's expected points minus the other seats' mean: the quantity a playout samples
(``ISMCTSBot(value_file=...)``). It predicts the round better than a playout does, and the search
played worse with it (see the README): no level uses it, and no weights ship.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from parlour.bots.scout.features import hand_features
from parlour.games.scout import State
from parlour.games.scout.rules import legal_shows

VALUE_FEATURES = (
    "groups",
    "lone",
    "best",
    "cards",
    "measure",
    "captured",
    "chips",
    "scout_show",
    "owner",
    "owner_length",
    "owner_scouts",
    "beats",
    "beats_longest",
    "to_move",
    "next",
    "second",
    "third",
    "fourth",
    "active_length",
)
"""One seat's features, in the order of a weight vector."""


def seat_features(state: State, seat: int) -> list[float]:
    """:data:`VALUE_FEATURES` of ``seat`` in ``state`` (a play-phase position, every hand
    known)."""
    hand = state.hands[seat]
    n = len(state.hands)
    owner = 1.0 if state.owner == seat and state.active else 0.0
    active = len(state.active)
    beating = legal_shows(hand, state.active_key) if not owner else []
    distance = (seat - state.turn) % n
    order = [0.0] * 5
    order[distance] = 1.0
    return [
        *hand_features([c[0] for c in hand]),
        float(len(state.piles[seat])),
        float(state.chips[seat]),
        1.0 if state.scout_show[seat] else 0.0,
        owner,
        owner * active,
        owner * state.scouts / (n - 1),
        min(len(beating), 10) / 10,
        max((s.length for s in beating), default=0) / 5,
        *order,
        float(active),
    ]


class LeafValue:
    """Expected round points by a linear model of :func:`seat_features`, per number of
    players (``weights``: players → weight vector in :data:`VALUE_FEATURES` order)."""

    def __init__(self, weights: dict[int, Sequence[float]]) -> None:
        for players, vector in weights.items():
            if len(vector) != len(VALUE_FEATURES):
                raise ValueError(
                    f"{players}-player value weights need {len(VALUE_FEATURES)} numbers"
                )
        self.weights = {int(p): tuple(float(x) for x in w) for p, w in weights.items()}

    def covers(self, players: int) -> bool:
        """Whether there are weights for this many players."""
        return players in self.weights

    def points(self, state: State) -> list[float]:
        """Each seat's expected points at the round's end."""
        w = self.weights[len(state.hands)]
        return [
            sum(a * b for a, b in zip(w, seat_features(state, s), strict=True))
            for s in range(len(state.hands))
        ]

    def value(self, state: State, seat: int) -> float:
        """``seat``'s expected points minus the other seats' mean (as a playout's value)."""
        points = self.points(state)
        others = [p for i, p in enumerate(points) if i != seat]
        return points[seat] - sum(others) / len(others)

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(VALUE_FEATURES),
            "weights": {str(p): list(w) for p, w in sorted(self.weights.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeafValue:
        """From :meth:`to_json`'s form; raises ``ValueError`` if the features differ."""
        if tuple(data.get("features", ())) != VALUE_FEATURES:
            raise ValueError(f"value weights must name the features {VALUE_FEATURES}")
        return cls({int(p): w for p, w in data["weights"].items()})

    @classmethod
    def from_file(cls, path: str) -> LeafValue:
        with open(path, encoding="utf-8") as f:
            return cls.from_json(json.load(f))


__all__ = ["VALUE_FEATURES", "LeafValue", "seat_features"]
