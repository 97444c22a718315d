"""How much of the SCOUT search's misjudgement at the root its view could correct.

``data``: plays seeded games of ``--players`` copies of ``--opponent``; at every ``--every``-th
play-phase decision (with a choice, after the round's first move) the searcher (``--search``,
``ISMCTSBot`` keyword arguments as JSON: Expert's by default) searches from the seat's view and
an *oracle* (the same search with ``--oracle-iterations`` on the true deal, every hand seen, as
in ``scout_move_regret.py``) values the same root candidates. Per candidate it records the
evaluation's features of the move from the seat's view, its score's distance from the best,
the searcher's mean and visits (and its mean with the playouts weighed by the inference:
``inf_mean``), the policy network's log-probability of the move (``net``, for
analyses; the correction does not read it), and the oracle's mean.

``fit``: a *correction* — ridge regression, fitted on the games of even seeds and judged on the
odd ones, of each candidate's oracle mean minus the mean over the position's candidates, less
the same for the searcher's means, on the candidate's inputs (:data:`CORRECTION_FEATURES`, or
the subset ``--inputs`` names, by name or by set of :data:`INPUT_SETS`, centred over the
position's candidates; ``--held-out 0`` fits on the odd seeds and judges on the even) — and, on
the held-out positions, the regret a move (the oracle's best mean minus that of the move chosen)
of the searcher's own choice (the most visited), of its best mean, and of its best mean plus the
correction × ``--strengths``, each paired with the most visited (and with ``--versus INPUTS@K``,
with K × the correction of other inputs, fitted alike). ``fit`` takes several data files, their
positions pooled; with ``--judge FILE`` it fits on every game of them and judges on the
positions of ``FILE`` (games the fit never saw) instead; with ``--weights FILE`` it fits nothing
and judges that correction (a file ``fit --out`` wrote, e.g. the shipped one) on every position
of the data. What the view can tell about where the search errs, a correction finds; what only
the hidden cards tell, it cannot.

    python bench/scout_root_correction.py data --games 70 --workers 2 --out /tmp/rc.json
    python bench/scout_root_correction.py fit /tmp/rc.json
    python bench/scout_root_correction.py fit /tmp/rc.json --inputs mean_gap,log_visits,gap_x_rarity
    python bench/scout_root_correction.py fit /tmp/rc.json \
        --weights src/parlour/bots/scout/scout_correction.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from parlour.bots.levels import make_bot
from parlour.bots.scout.correction import (
    CORRECTION_FEATURES,
    INPUT_SETS,
    RootCorrection,
    correction_inputs,
    kind_of,
)
from parlour.bots.scout.features import features
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.bots.scout.net import load_net
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scout_search_variants import Omniscient

EXPERT = {"iterations": 2200, "particles": 256, "inference": False, "inference_means": True}


def play(task: tuple[int, str, int, int, int, dict[str, Any]]) -> list[dict[str, Any]]:
    """One seeded game: a record per sampled position (see the module docstring)."""
    seed, opponent, players, every, oracle_iterations, search = task
    state = scout.new_state({"players": players}, seed)
    bots = [make_bot("scout", opponent) for _ in range(players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    records = []
    decision = 0
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        view = scout.view(state, seat)
        if state.phase == PLAY_PHASE and len(legal) > 1 and view["log"]:
            if decision % every == 0:
                record = position(
                    state, view, legal, oracle_iterations, search, f"{seed}:{decision}"
                )
                if record is not None:
                    records.append({"game": seed, **record})
            decision += 1
        state = scout.apply(state, seat, bots[seat].choose(view, legal, rngs[seat]))
    return records


def position(
    state: scout.State,
    view: Any,
    legal: list[Any],
    oracle_iterations: int,
    search: dict[str, Any],
    key: str,
) -> dict[str, Any] | None:
    """The searcher's and the oracle's means of the root candidates at one position."""
    searcher = ISMCTSBot(**search)
    chosen = searcher.choose(view, legal, random.Random(f"{key}:search"))
    if len(searcher.last_means) < 2:
        return None
    judge = Omniscient(**{**search, "iterations": oracle_iterations})
    judge.truth = state
    judge.choose(view, legal, random.Random(f"{key}:oracle"))
    ranked = dict(searcher.rank(view, legal))
    net = dict(zip(legal, np.log(load_net().priors(view, legal)[0] + 1e-12).tolist(), strict=True))
    candidates = []
    for action, mean in searcher.last_means.items():
        if action not in judge.last_means:
            continue
        candidates.append({
            "kind": kind_of(action),
            "features": features(view, action),
            "prior": ranked[action],
            "mean": mean,
            "visits": searcher.last_visits[action],
            "inf_mean": searcher.last_inf_means.get(action, mean),
            "net": net[action],
            "oracle": judge.last_means[action],
            "chosen": action == chosen,
        })  # fmt: skip
    if len(candidates) < 2 or not any(c["chosen"] for c in candidates):
        return None
    return {"hand": len(view["hand"]), "players": view["players"], "candidates": candidates}


def inputs(
    record: dict[str, Any], columns: list[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate of one position: the correction's inputs (the ``columns`` of
    :data:`CORRECTION_FEATURES`), the searcher's means, the oracle's means and the visits."""
    cands = record["candidates"]
    means = np.array([c["mean"] for c in cands])
    oracle = np.array([c["oracle"] for c in cands])
    visits = np.array([c["visits"] for c in cands], dtype=float)
    inf_means = [c.get("inf_mean", c["mean"]) for c in cands]  # older data: none recorded
    x = correction_inputs([c["features"] for c in cands], [c["prior"] for c in cands],
                          [c["kind"] for c in cands], means.tolist(), visits.tolist(),
                          inf_means)  # fmt: skip
    return x[:, columns], means, oracle, visits


def design(records: list[dict[str, Any]], columns: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The stacked inputs and targets (oracle's centred means less the searcher's)."""
    xs, ys = [], []
    for record in records:
        x, means, oracle, _ = inputs(record, columns)
        xs.append(x)
        ys.append((oracle - oracle.mean()) - (means - means.mean()))
    return np.vstack(xs), np.concatenate(ys)


def fit_weights(records: list[dict[str, Any]], ridge: float, columns: list[int]) -> np.ndarray:
    """Ridge regression of the target on the inputs (no intercept: both are centred)."""
    x, y = design(records, columns)
    scale = x.std(axis=0) + 1e-9
    z = x / scale
    w = np.linalg.solve(z.T @ z + ridge * np.eye(z.shape[1]), z.T @ y)
    return w / scale


def regret_of(records: list[dict[str, Any]], pick: Any, columns: list[int]) -> list[float]:
    """Per position the oracle's best mean minus that of the candidate ``pick`` chooses."""
    out = []
    for record in records:
        x, means, oracle, visits = inputs(record, columns)
        out.append(float(oracle.max() - oracle[pick(x, means, visits)]))
    return out


def mean_se(values: list[float]) -> str:
    se = statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):.3f} ± {se:.3f}"


def input_names(tokens: list[str]) -> list[str]:
    """Input names, each token an input's name or a set's of :data:`INPUT_SETS` (its inputs)."""
    return [name for token in tokens for name in INPUT_SETS.get(token, (token,))]


def columns_of(names: list[str], option: str) -> list[int]:
    """The columns of :data:`CORRECTION_FEATURES` that ``names`` name (each once)."""
    unknown = [n for n in names if n not in CORRECTION_FEATURES]
    if unknown or not names or len(set(names)) != len(names):
        raise SystemExit(
            f"{option}: name each once, from {', '.join(CORRECTION_FEATURES)} or the sets "
            f"{', '.join(INPUT_SETS)}"
        )
    return [CORRECTION_FEATURES.index(n) for n in names]


def fit(
    paths: list[str],
    ridge: float,
    strengths: list[float],
    out: str | None = None,
    names: list[str] | None = None,
    held_out: int = 1,
    versus: tuple[list[str], float] | None = None,
    judge: str | None = None,
    weights: str | None = None,
) -> None:
    """The correction's fit and the held-out regrets (see the module docstring): on the inputs
    ``names`` (all by default), judged on the seeds of parity ``held_out``; with ``versus``
    (inputs and a strength) each strength is also paired with that correction, fitted alike;
    with ``judge`` (another data file) fitted on every game of ``paths`` and judged on those of
    ``judge``; with ``weights`` (a correction file) nothing is fitted: that correction is
    judged on every position of ``paths``."""
    records = [r for path in paths for r in json.loads(Path(path).read_text())]
    given = RootCorrection.from_file(weights) if weights is not None else None
    if given is not None:
        names, train, test = list(given.inputs), [], records
        fitted_on = f"{weights}, not fitted"
    elif judge is not None:
        train, test = records, json.loads(Path(judge).read_text())
        fitted_on = "fitted on every game's positions"
    else:
        train = [r for r in records if r["game"] % 2 != held_out]
        test = [r for r in records if r["game"] % 2 == held_out]
        fitted_on = f"fitted on the {'even' if held_out else 'odd'} seeds' positions"
    names = list(CORRECTION_FEATURES) if names is None else names
    columns = columns_of(names, "--inputs")
    w = given.weights[columns] if given is not None else fit_weights(train, ridge, columns)
    x, y = design(test, columns)
    pred = x @ w
    print(f"{len(records)} positions ({len(train)} fitting, {len(test)} held out); target "
          f"variance {y.var():.3f}, held-out residual {((y - pred) ** 2).mean():.3f}, "
          f"correlation {np.corrcoef(y, pred)[0, 1]:.3f}")  # fmt: skip
    visited = regret_of(test, lambda x, m, v: int(np.argmax(v * 1e6 + m)), columns)
    print(f"held-out regret a move: most visited {mean_se(visited)}")

    def paired(regrets: list[float]) -> str:
        return mean_se([a - b for a, b in zip(regrets, visited, strict=True)])

    theirs: list[float] = []
    if versus is not None:
        other = columns_of(versus[0], "--versus")
        wo, ko = fit_weights(train, ridge, other), versus[1]
        theirs = regret_of(test, lambda x, m, v: int(np.argmax(m + ko * (x @ wo))), other)
    by_mean = regret_of(test, lambda x, m, v: int(np.argmax(m)), columns)
    print(f"  best mean {mean_se(by_mean)}, paired vs most visited {paired(by_mean)}")
    for k in strengths:
        corrected = regret_of(test, lambda x, m, v, k=k: int(np.argmax(m + k * (x @ w))), columns)
        print(f"  best mean + {k:g} × correction {mean_se(corrected)}, paired vs most visited "
              f"{paired(corrected)}")  # fmt: skip
        if theirs:
            gain = mean_se([a - b for a, b in zip(corrected, theirs, strict=True)])
            print(f"    paired vs {versus[1]:g} × the correction of --versus's inputs {gain}")
    print(f"weights ({fitted_on}):")
    for name, weight in zip(names, w, strict=True):
        print(f"  {name}: {weight:+.4f}")
    if out:
        full = fit_weights(records, ridge, columns)
        Path(out).write_text(json.dumps(
            {"features": names, "weights": full.tolist(), "ridge": ridge}, indent=1))  # fmt: skip
        print(f"wrote {out} (fitted on every game), for ISMCTSBot(correction_file=...)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data")
    data.add_argument("--opponent", default="hard:it=300")
    data.add_argument("--players", type=int, default=4)
    data.add_argument("--games", type=int, default=70)
    data.add_argument("--seed", type=int, default=30000)
    data.add_argument("--every", type=int, default=2)
    data.add_argument("--oracle-iterations", type=int, default=4000)
    data.add_argument("--search", default=json.dumps(EXPERT))
    data.add_argument("--workers", type=int, default=2)
    data.add_argument("--out", required=True)
    fitting = sub.add_parser("fit")
    fitting.add_argument("data", nargs="+", help="data files, their positions pooled")
    fitting.add_argument("--ridge", type=float, default=100.0)
    fitting.add_argument("--strengths", default="0.5,1", help="the correction's multipliers")
    fitting.add_argument("--out", help="write the weights fitted on every game here")
    fitting.add_argument("--inputs", help="the inputs to weigh, by name or by set (view, "
                         "visits, by_kind, by_gap), comma-separated (default: every one of "
                         "CORRECTION_FEATURES)")  # fmt: skip
    fitting.add_argument("--held-out", type=int, choices=(0, 1), default=1,
                         help="judge on the seeds of this parity, fit on the others")  # fmt: skip
    fitting.add_argument("--versus", metavar="INPUTS@K",
                         help="also pair each strength with K × the correction of these inputs "
                         "(comma-separated), fitted alike")  # fmt: skip
    fitting.add_argument("--judge", metavar="FILE",
                         help="fit on every game of the data, judge on the positions of FILE "
                         "(games the fit never saw) instead of the parity split")  # fmt: skip
    fitting.add_argument("--weights", metavar="FILE",
                         help="judge this correction file (fit --out) on every position of the "
                         "data instead of fitting one")  # fmt: skip
    args = parser.parse_args(argv)
    if args.command == "fit":
        if args.weights and (args.judge or args.out or args.versus or args.inputs):
            parser.error("--weights judges a given correction: no --judge, --out, --versus "
                         "or --inputs with it")  # fmt: skip
        names = input_names(args.inputs.split(",")) if args.inputs else None
        strengths = [float(k) for k in args.strengths.split(",")]
        versus = None
        if args.versus:
            inputs, at, k = args.versus.rpartition("@")
            try:
                versus = (input_names(inputs.split(",")), float(k)) if at else None
            except ValueError:
                versus = None
            if versus is None:
                parser.error("--versus takes INPUTS@K, e.g. mean_gap,prior@0.5")
        fit(
            args.data,
            args.ridge,
            strengths,
            args.out,
            names,
            args.held_out,
            versus,
            args.judge,
            args.weights,
        )
        return
    search = json.loads(args.search)
    tasks = [(args.seed + g, args.opponent, args.players, args.every, args.oracle_iterations,
              search) for g in range(args.games)]  # fmt: skip
    records: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for done, game in enumerate(pool.map(play, tasks), 1):
            records.extend(game)
            print(f"{done}/{args.games} games, {len(records)} positions", flush=True)
    Path(args.out).write_text(json.dumps(records))


if __name__ == "__main__":
    main()
