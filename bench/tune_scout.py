"""Tune the SCOUT feature evaluation (``parlour.bots.scout.features``) by an evolution strategy.

Antithetic evolution strategy over arena results: each generation draws ``--pairs`` random
directions ε (one normal number per tuned weight, scaled by ``--sigma`` × max(|w|, 0.25)), and
plays ``EvalBot(w + ε)`` and ``EvalBot(w − ε)`` each in one seat against ``--opponents`` on
the same fresh duplicate deals (``--deals`` deals, each with the lineup rotated through every
seat: the arena's own ``play_game``, in this process or ``--workers`` processes). The fitness is
the mean score difference against the other seats; the weights step along
Σ (f⁺ − f⁻) ε, normalised by the spread of the fitnesses, times ``--lr``. The centre is measured
on the same deals each generation and printed. Everything is reproducible from ``--seed``
(the deals and the directions); the weight ``empties`` is fixed.

Run with ``make tune-scout`` (``TUNE_ARGS="--generations 40 --write"``); ``--write`` stores the
final weights in ``src/parlour/bots/scout/scout_eval.json``, with the command that made them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from parlour.bots.levels import make_bot
from parlour.bots.scout.features import FEATURES, WEIGHTS_FILE, EvalBot, load_weights
from parlour.cli.arena import play_game

FIXED = {"empties"}
"""Weights the strategy leaves alone."""

WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "src/parlour/bots/scout" / WEIGHTS_FILE


def fitness_task(task: tuple[tuple[float, ...], str, int, int, int]) -> float:
    """The candidate's score difference (its score minus the others' mean) in one game:
    ``(weights, opponents, players, deal, rotation)``."""
    weights, opponents, players, deal, rotation = task
    lineup = ["eval"] + [opponents] * (players - 1)
    bots = [EvalBot(weights)] + [make_bot("scout", opponents) for _ in range(players - 1)]
    result = play_game("scout", players, lineup, deal, rotation, bots=bots)
    others = result.scores[1:]
    return result.scores[0] - sum(others) / len(others)


class Evaluator:
    """Mean fitness of weight vectors over duplicate deals (rotations through every seat)."""

    def __init__(self, opponents: str, players: int, workers: int) -> None:
        self.opponents = opponents
        self.players = players
        self.pool = ProcessPoolExecutor(workers) if workers > 1 else None

    def __call__(self, candidates: list[tuple[float, ...]], deals: list[int]) -> list[float]:
        tasks = [
            (w, self.opponents, self.players, d, r)
            for w in candidates
            for d in deals
            for r in range(self.players)
        ]
        if self.pool is not None:
            values = list(self.pool.map(fitness_task, tasks, chunksize=4))
        else:
            values = [fitness_task(t) for t in tasks]
        per = len(deals) * self.players
        return [statistics.fmean(values[i * per : (i + 1) * per]) for i in range(len(candidates))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=12)
    parser.add_argument("--pairs", type=int, default=4, help="antithetic pairs per generation")
    parser.add_argument("--deals", type=int, default=8, help="duplicate deals per evaluation")
    parser.add_argument("--sigma", type=float, default=0.2)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="store the result in the package")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    weights = list(load_weights())
    tuned = [i for i, f in enumerate(FEATURES) if f not in FIXED]
    evaluate = Evaluator(args.opponents, args.players, args.workers)
    start = time.perf_counter()
    history = []
    for gen in range(args.generations):
        base = args.seed * 100_000 + gen * 1000
        deals = [base + d for d in range(args.deals)]
        scale = [args.sigma * max(abs(w), 0.25) for w in weights]
        directions = []
        candidates: list[tuple[float, ...]] = [tuple(weights)]
        for _ in range(args.pairs):
            eps = [0.0] * len(weights)
            for i in tuned:
                eps[i] = rng.gauss(0.0, 1.0)
            directions.append(eps)
            candidates.append(tuple(w + s * e for w, s, e in zip(weights, scale, eps, strict=True)))
            candidates.append(tuple(w - s * e for w, s, e in zip(weights, scale, eps, strict=True)))
        values = evaluate(candidates, deals)
        centre, rest = values[0], values[1:]
        spread = statistics.pstdev(rest) or 1.0
        step = [0.0] * len(weights)
        for k, eps in enumerate(directions):
            diff = (rest[2 * k] - rest[2 * k + 1]) / spread
            for i in tuned:
                step[i] += diff * eps[i] / (2 * args.pairs)
        weights = [w + args.lr * s * g for w, s, g in zip(weights, scale, step, strict=True)]
        history.append(centre)
        print(
            f"gen {gen + 1:3d}/{args.generations}  centre {centre:+6.2f}  "
            f"candidates {statistics.fmean(rest):+6.2f} (best {max(rest):+6.2f})  "
            f"{time.perf_counter() - start:6.0f} s",
            flush=True,
        )
    named = {f: round(w, 4) for f, w in zip(FEATURES, weights, strict=True)}
    print(json.dumps(named, indent=2))
    if args.write:
        command = "python bench/tune_scout.py " + " ".join(sys.argv[1:] if argv is None else argv)
        data = {
            "about": "Weights of parlour.bots.scout.features (feature name -> weight), tuned by "
            "bench/tune_scout.py (make tune-scout).",
            "command": command.strip(),
            "centre_fitness_by_generation": [round(v, 3) for v in history],
            "weights": named,
        }
        WEIGHTS_PATH.write_text(json.dumps(data, indent=2) + "\n")
        print(f"wrote {WEIGHTS_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
