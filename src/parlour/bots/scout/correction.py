"""A learned correction of the SCOUT search's root values.

The search (:mod:`parlour.bots.scout.ismcts`) values each root candidate by the mean of its
playouts on sampled deals. Fitted by ``bench/scout_root_correction.py`` to the means that a
search seeing every hand gives the same candidates, a linear model of each candidate's inputs
from the seat's view (:data:`CORRECTION_FEATURES`: the evaluation's features of the move, its
score's distance from the best, its kind, the search's own mean and its visits, and products of
them: each feature by kind, and by the search's mean) forecasts how much the search misjudges it
against the position's other candidates (a file may weigh only some of the inputs); with
``ISMCTSBot(correction=strength)`` the search adds that × the strength to its means and plays
the best. The weights ship as :data:`CORRECTION_FILE`.
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

KINDS = ("Show", "Scout", "ScoutShow")
"""The kinds of a root candidate (:func:`kind_of`)."""

VIEW_INPUTS = (*FEATURES, "prior", "is_scout", "is_scout_show", "mean_gap")
"""The evaluation's features of the move, its score minus the best candidate's, whether it is
a plain Scout or a Scout & Show, and the search's mean for it minus the mean of the candidates'
means (``mean_gap``): what the first correction read (the shipped file weighs these)."""

BASE_INPUTS = (*VIEW_INPUTS, "log_visits", "gap_x_rarity")
"""The correction's inputs of a candidate on their own: :data:`VIEW_INPUTS`, the logarithm of
its visits, and ``mean_gap`` × the square root of the candidates' mean visits over its own (a
mean from few visits is a noisier one)."""

BY_KIND = tuple(f"{name}@{kind}" for kind in KINDS for name in (*FEATURES, "mean_gap"))
"""Each evaluation feature and ``mean_gap`` of a candidate of one kind (0 for the other kinds),
named ``feature@kind``: a Scout's features may weigh otherwise than a Show's."""

BY_GAP = (*(f"{name}*mean_gap" for name in (*FEATURES, "prior")), "mean_gap*|mean_gap|")
"""Each evaluation feature and the prior × ``mean_gap``, and ``mean_gap`` × its own size: how
much of the search's lean to trust may depend on the move and on how far the lean goes."""

INFERENCE_INPUTS = ("inf_gap",)
"""The candidate's mean with its playouts weighed by the inference's weight of their deals
(``ISMCTSBot(inference_means=True)``: the deals drawn alike, each then weighted by how likely it
makes the opponents' past moves) minus its plain mean: where reading the opponents would move
the search's value of the move, for the correction to trust as far as it earns."""

CORRECTION_FEATURES = (*BASE_INPUTS, *BY_KIND, *BY_GAP, *INFERENCE_INPUTS)
"""Every input the correction can read of a root candidate (a file weighs some of them):
:data:`BASE_INPUTS`, :data:`BY_KIND`, :data:`BY_GAP` and :data:`INFERENCE_INPUTS`."""

INPUT_SETS = {
    "view": VIEW_INPUTS,
    "visits": BASE_INPUTS[len(VIEW_INPUTS) :],
    "by_kind": BY_KIND,
    "by_gap": BY_GAP,
    "inference": INFERENCE_INPUTS,
}
"""Named sets of inputs (``bench/scout_root_correction.py fit --inputs view,by_kind``)."""


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
    inf_means: Sequence[float] | None = None,
) -> np.ndarray:
    """The correction's inputs for one position's candidates, a row each
    (:data:`CORRECTION_FEATURES`), centred over the candidates: only their differences count
    (a product such as ``captured@Scout`` is taken before the centring).
    ``rows``: the evaluation's features of each move; ``kinds``: :func:`kind_of` each;
    ``visits``: the search's visits of each (at least 1); ``inf_means``: each one's mean with
    the playouts weighed by the inference (none: the plain means, ``inf_gap`` 0)."""
    mean_of_means = sum(means) / len(means)
    mean_visits = sum(visits) / len(visits)
    base = np.array([
        [*row, prior, float(kind == "Scout"), float(kind == "ScoutShow"), mean - mean_of_means,
         math.log(n), (mean - mean_of_means) * math.sqrt(mean_visits / n)]
        for row, prior, kind, mean, n in zip(rows, priors, kinds, means, visits, strict=True)
    ])  # fmt: skip
    features, prior = base[:, : len(FEATURES)], base[:, [len(FEATURES)]]
    gap = base[:, [VIEW_INPUTS.index("mean_gap")]]
    of_kind = np.array([[kind == k for k in KINDS] for kind in kinds], dtype=float)
    by_kind = [np.hstack([features, gap]) * of_kind[:, [j]] for j in range(len(KINDS))]
    inf_gap = np.array([[a - b] for a, b in zip(inf_means or means, means, strict=True)])
    x = np.hstack([base, *by_kind, np.hstack([features, prior]) * gap, gap * np.abs(gap), inf_gap])
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
        inf_means: Sequence[float] | None = None,
    ) -> list[float]:
        """What to add to each candidate's mean, in points (they sum to 0)."""
        rows = [features(view, a) for a in actions]
        kinds = [kind_of(a) for a in actions]
        x = correction_inputs(rows, priors, kinds, means, visits, inf_means)
        return [float(v) for v in x @ self.weights]

    def choose(
        self,
        view: Mapping[str, Any],
        ranked: Sequence[tuple[Any, float]],
        means: Mapping[Any, float],
        visits: Mapping[Any, int],
        strength: float,
        inf_means: Mapping[Any, float] | None = None,
    ) -> tuple[Any, dict[Any, float]]:
        """The searched candidate with the best mean plus ``strength`` × its correction (ties to
        the evaluation's order), and what was added to each. ``ranked``: the root's actions by
        the evaluation, best first, with their scores minus the best; ``means``: the search's
        mean and visits of each candidate it searched; ``inf_means``: its means weighed by the
        inference (:data:`INFERENCE_INPUTS`)."""
        order = {a: i for i, (a, _) in enumerate(ranked)}
        priors = dict(ranked)
        actions = sorted(means, key=order.__getitem__)
        adds = self.corrections(
            view,
            actions,
            [priors[a] for a in actions],
            [means[a] for a in actions],
            [visits[a] for a in actions],
            [inf_means[a] for a in actions] if inf_means is not None else None,
        )
        added = {a: strength * add for a, add in zip(actions, adds, strict=True)}
        best = max(actions, key=lambda a: (means[a] + added[a], -order[a]))
        return best, added


__all__ = [
    "BASE_INPUTS",
    "BY_GAP",
    "BY_KIND",
    "CORRECTION_FEATURES",
    "CORRECTION_FILE",
    "INFERENCE_INPUTS",
    "INPUT_SETS",
    "KINDS",
    "VIEW_INPUTS",
    "RootCorrection",
    "correction_inputs",
    "kind_of",
]
