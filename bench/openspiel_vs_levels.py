"""OpenSpiel's ISMCTS against Parlour's SCOUT levels, through the ``python_scout`` game.

For each opponent (a Parlour level, or ``random``), plays ``--deals`` deals of 2-player SCOUT
twice, ISMCTS in each seat (duplicate deals: the chance draws come from the same seeded
generator), with OpenSpiel's ``evaluate_bots``. ISMCTS is OpenSpiel's Python ``ISMCTSBot``
with a random-rollout evaluator and ``--simulations`` simulations per move. Prints a Markdown
table: games, ISMCTS's win rate (a shared win counts half) with its 95 % Wilson interval, and
its mean score difference.

    python bench/openspiel_vs_levels.py --deals 20 --simulations 100 --workers 2
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from parlour.rl.openspiel import ParlourBot


class RestartableISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTSBot has no ``restart_at`` (its search starts afresh anyway)."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


def play(task: tuple[str, int, int, int]) -> tuple[float, float]:
    """One game: (ISMCTS's win share, ISMCTS's score minus the opponent's)."""
    opponent, deal, seat, simulations = task
    game = pyspiel.load_game("python_scout", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal))
    search = RestartableISMCTS(
        game, evaluator, 2.0, simulations, random_state=np.random.RandomState(deal * 2 + seat)
    )
    if opponent == "random":
        other = pyspiel.make_uniform_random_bot(1 - seat, deal)
    else:
        other = ParlourBot(1 - seat, opponent, seed=deal)
    bots = [search, other] if seat == 0 else [other, search]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(deal))
    mine, theirs = returns[seat], returns[1 - seat]
    share = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return share, mine - theirs


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default="random,beginner,easy,medium,hard")
    parser.add_argument("--deals", type=int, default=20, help="deals per opponent (x2 games)")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations/move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(
        f"ISMCTS ({args.simulations} simulations/move, random rollouts) vs Parlour, "
        f"2-player SCOUT, {args.deals} deals x 2 seats"
    )
    print("| opponent | games | ISMCTS win rate | 95 % CI | mean score diff | minutes |")
    print("|---|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for opponent in args.opponents.split(","):
            start = time.time()
            tasks = [
                (opponent, args.seed + d, seat, args.simulations)
                for d in range(args.deals)
                for seat in (0, 1)
            ]
            results = list(pool.map(play, tasks, chunksize=1))
            n = len(results)
            wins = sum(r[0] for r in results)
            low, high = wilson(wins, n)
            diff = statistics.fmean(r[1] for r in results)
            minutes = (time.time() - start) / 60
            print(
                f"| {opponent} | {n} | {wins / n:.1%} | {low:.1%}–{high:.1%} | {diff:+.1f} "
                f"| {minutes:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
