"""A learned correction of the SCOUT search's root values.

The search (:mod:`parlour.bots.scout.ismcts`) values each root candidate by the mean of its
playouts on sampled deals. Fitted by ``bench/scout_root_correction.py`` to the means that a
search seeing every hand gives the same candidates, a linear model of each candidate's inputs
from the seat's view (:data:`CORRECTION_FEATURES`: the evaluation's features of the move, its
score's distance from the best, its kind, the search's own mean and its visits) forecasts how
much the search misjudges it against the position's other candidates (a file may weigh only
some of the inputs); with ``ISMCTSBot(correction=strength)`` the search adds that × the
strength to its means and plays the best. The weights ship as :data:`CORRECTION_FILE`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from parlour.bots.scout.features import FEATURES, features
from parlour.games.scout import Scout, ScoutShow

CORRECTION_FILE = Path(__file__).with_name("scout_correction.json")
"""The shipped weights (``bench/scout_root_correction.py fit --out``)."""

CORRECTION_FEATURES = (
    *FEATURES,
    "prior",
    "is_scout",
    "is_scout_show",
    "mean_gap",
    "log_visits",
    "gap_x_rarity",
)
"""What the correction reads of a root candidate: the evaluation's features of the move, its
score minus the best candidate's, whether it is a plain Scout or a Scout & Show, the search's
mean for it minus the mean of the candidates' means (``mean_gap``), the logarithm of its visits,
and ``mean_gap`` × the square root of the candidates' mean visits over its own (a mean from
few visits is a noisier one)."""


def kind_of(action: Any) -> str:
    """``"ScoutShow"``, ``"Scout"`` or ``"Show"``: the kind of a root candidate."""
    if isinstance(action, ScoutShow):
        return "ScoutShow"
    return "Scout" if isinstance(action, Scout) else "Show"


def correction_inputs(
    rows: Sequence[Sequence[float]],
    priors: Sequence[float],
    kinds: Sequence[str],
    means: Sequence[float],
    visits: Sequence[float],
) -> np.ndarray:
    """The correction's inputs for one position's candidates, a row each
    (:data:`CORRECTION_FEATURES`), centred over the candidates: only their differences count.
    ``rows``: the evaluation's features of each move; ``kinds``: :func:`kind_of` each;
    ``visits``: the search's visits of each (at least 1)."""
    mean_of_means = sum(means) / len(means)
    mean_visits = sum(visits) / len(visits)
    x = np.array([
        [*row, prior, float(kind == "Scout"), float(kind == "ScoutShow"), mean - mean_of_means,
         math.log(n), (mean - mean_of_means) * math.sqrt(mean_visits / n)]
        for row, prior, kind, mean, n in zip(rows, priors, kinds, means, visits, strict=True)
    ])  # fmt: skip
    centred: np.ndarray = x - x.mean(axis=0)
    return centred


class RootCorrection:
    """The fitted correction: a weight for each input it names (a subset of
    :data:`CORRECTION_FEATURES`, all of them by default), 0 for the others."""

    def __init__(
        self, weights: Sequence[float], inputs: Sequence[str] = CORRECTION_FEATURES
    ) -> None:
        unknown = [name for name in inputs if name not in CORRECTION_FEATURES]
        if unknown:
            raise ValueError(f"unknown correction inputs {unknown}: not in {CORRECTION_FEATURES}")
        if len(set(inputs)) != len(inputs):
            raise ValueError(f"a correction names each input once, not {list(inputs)}")
        if len(weights) != len(inputs):
            raise ValueError(
                f"a correction of {len(inputs)} inputs has {len(inputs)} weights, not "
                f"{len(weights)}"
            )
        self.inputs = tuple(inputs)
        full = dict(zip(inputs, weights, strict=True))
        self.weights = np.array([float(full.get(f, 0.0)) for f in CORRECTION_FEATURES])

    @classmethod
    def from_file(cls, path: str | Path) -> RootCorrection:
        """The weights written by ``bench/scout_root_correction.py fit --out``: the inputs
        they weigh (``features``) and a weight each (``weights``)."""
        try:
            data = json.loads(Path(path).read_text())
            return cls(data["weights"], data["features"])
        except OSError as error:
            raise ValueError(f"cannot read the correction file {path}: {error}") from None
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path} is not a correction file: {error!s}") from None

    def corrections(
        self,
        view: Mapping[str, Any],
        actions: Sequence[Any],
        priors: Sequence[float],
        means: Sequence[float],
        visits: Sequence[float],
    ) -> list[float]:
        """What to add to each candidate's mean, in points (they sum to 0)."""
        rows = [features(view, a) for a in actions]
        x = correction_inputs(rows, priors, [kind_of(a) for a in actions], means, visits)
        return [float(v) for v in x @ self.weights]

    def choose(
        self,
        view: Mapping[str, Any],
        ranked: Sequence[tuple[Any, float]],
        means: Mapping[Any, float],
        visits: Mapping[Any, int],
        strength: float,
    ) -> tuple[Any, dict[Any, float]]:
        """The searched candidate with the best mean plus ``strength`` × its correction (ties to
        the evaluation's order), and what was added to each. ``ranked``: the root's actions by
        the evaluation, best first, with their scores minus the best; ``means``: the search's
        mean and visits of each candidate it searched."""
        order = {a: i for i, (a, _) in enumerate(ranked)}
        priors = dict(ranked)
        actions = sorted(means, key=order.__getitem__)
        adds = self.corrections(
            view,
            actions,
            [priors[a] for a in actions],
            [means[a] for a in actions],
            [visits[a] for a in actions],
        )
        added = {a: strength * add for a, add in zip(actions, adds, strict=True)}
        best = max(actions, key=lambda a: (means[a] + added[a], -order[a]))
        return best, added


__all__ = [
    "CORRECTION_FEATURES",
    "CORRECTION_FILE",
    "RootCorrection",
    "correction_inputs",
    "kind_of",
]
