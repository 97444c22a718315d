"""A learned correction of the SCOUT search's root values.

The search (:mod:`parlour.bots.scout.ismcts`) values each root candidate by the mean of its
playouts on sampled deals. Fitted by ``bench/scout_root_correction.py`` to the means that a
search seeing every hand gives the same candidates, a linear model of each candidate's inputs
from the seat's view (:data:`CORRECTION_FEATURES`: the evaluation's features of the move, its
score's distance from the best, its kind, and the search's own mean) forecasts how much the
search misjudges it against the position's other candidates; with
``ISMCTSBot(correction=strength)`` the search adds that × the strength to its means and plays
the best. The weights ship as :data:`CORRECTION_FILE`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from parlour.bots.scout.features import FEATURES, features
from parlour.games.scout import Scout, ScoutShow

CORRECTION_FILE = Path(__file__).with_name("scout_correction.json")
"""The shipped weights (``bench/scout_root_correction.py fit --out``)."""

CORRECTION_FEATURES = (*FEATURES, "prior", "is_scout", "is_scout_show", "mean_gap")
"""What the correction reads of a root candidate: the evaluation's features of the move, its
score minus the best candidate's, whether it is a plain Scout or a Scout & Show, and the
search's mean for it minus the mean of the candidates' means."""


def correction_inputs(
    rows: Sequence[Sequence[float]],
    priors: Sequence[float],
    kinds: Sequence[str],
    means: Sequence[float],
) -> np.ndarray:
    """The correction's inputs for one position's candidates, a row each
    (:data:`CORRECTION_FEATURES`), centred over the candidates: only their differences count.
    ``rows``: the evaluation's features of each move; ``kinds``: ``"Show"``, ``"Scout"`` or
    ``"ScoutShow"``."""
    mean_of_means = sum(means) / len(means)
    x = np.array([
        [*row, prior, float(kind == "Scout"), float(kind == "ScoutShow"), mean - mean_of_means]
        for row, prior, kind, mean in zip(rows, priors, kinds, means, strict=True)
    ])  # fmt: skip
    centred: np.ndarray = x - x.mean(axis=0)
    return centred


class RootCorrection:
    """The fitted correction: one weight per :data:`CORRECTION_FEATURES`."""

    def __init__(self, weights: Sequence[float]) -> None:
        if len(weights) != len(CORRECTION_FEATURES):
            raise ValueError(
                f"a correction has {len(CORRECTION_FEATURES)} weights, not {len(weights)}"
            )
        self.weights = np.array(weights, dtype=float)

    @classmethod
    def from_file(cls, path: str | Path) -> RootCorrection:
        """The weights written by ``bench/scout_root_correction.py fit --out``."""
        data = json.loads(Path(path).read_text())
        if list(data["features"]) != list(CORRECTION_FEATURES):
            raise ValueError(f"{path}: its features are not {CORRECTION_FEATURES}")
        return cls(data["weights"])

    def corrections(
        self,
        view: Mapping[str, Any],
        actions: Sequence[Any],
        priors: Sequence[float],
        means: Sequence[float],
    ) -> list[float]:
        """What to add to each candidate's mean, in points (they sum to 0)."""
        kinds = [
            "ScoutShow" if isinstance(a, ScoutShow) else "Scout" if isinstance(a, Scout)
            else "Show"
            for a in actions
        ]  # fmt: skip
        x = correction_inputs([features(view, a) for a in actions], priors, kinds, means)
        return [float(v) for v in x @ self.weights]

    def choose(
        self,
        view: Mapping[str, Any],
        ranked: Sequence[tuple[Any, float]],
        means: Mapping[Any, float],
        strength: float,
    ) -> tuple[Any, dict[Any, float]]:
        """The searched candidate with the best mean plus ``strength`` × its correction (ties to
        the evaluation's order), and what was added to each. ``ranked``: the root's actions by
        the evaluation, best first, with their scores minus the best; ``means``: the search's
        mean of each candidate it searched."""
        order = {a: i for i, (a, _) in enumerate(ranked)}
        priors = dict(ranked)
        actions = sorted(means, key=order.__getitem__)
        adds = self.corrections(view, actions, [priors[a] for a in actions],
                                [means[a] for a in actions])  # fmt: skip
        added = {a: strength * add for a, add in zip(actions, adds, strict=True)}
        best = max(actions, key=lambda a: (means[a] + added[a], -order[a]))
        return best, added


__all__ = ["CORRECTION_FEATURES", "CORRECTION_FILE", "RootCorrection", "correction_inputs"]
