"""SCOUT engine benchmark: single-core random playouts through the public protocol.

Every seat picks uniformly among its legal actions (the flip decision included). For 2, 3, 4 and
5 players it reports complete games per second (the median of several timed runs), moves per
round, and microseconds per ``legal_actions`` call. The last four lines are, for scripts::

    scout 2p: <N> games/s
    ...
    scout 5p: <N> games/s

Run with ``make bench`` (or ``python bench/bench_scout.py --runs 7``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
import timeit

from rich.console import Console
from rich.table import Table

from parlour.games.scout import ScoutOptions, apply, legal_actions, new_state, outcome, to_act

GAMES_PER_RUN = {2: 600, 3: 400, 4: 150, 5: 60}
"""Games in one timed run, chosen so that a run takes roughly a second."""


def play(players: int, games: int, seed: int) -> tuple[int, int]:
    """Play ``games`` random games; returns (moves, rounds) played."""
    options = ScoutOptions(players)
    rng = random.Random(seed)
    uniform = rng.random
    moves = 0
    rounds = 0
    for g in range(games):
        state = new_state(options, seed * 100_000 + g)
        while outcome(state) is None:
            seat = to_act(state)[0]
            actions = legal_actions(state, seat)
            state = apply(state, seat, actions[int(uniform() * len(actions))])
            moves += 1
        rounds += len(state.results)
    return moves, rounds


def sample_positions(players: int, count: int) -> list[tuple[object, int]]:
    """Positions (state, seat to act) met in random games, for timing ``legal_actions``."""
    rng = random.Random(7)
    found: list[tuple[object, int]] = []
    g = 0
    while len(found) < count:
        state = new_state(ScoutOptions(players), 10**9 + g)
        g += 1
        while outcome(state) is None and len(found) < count:
            seat = to_act(state)[0]
            actions = legal_actions(state, seat)
            found.append((state, seat))
            state = apply(state, seat, rng.choice(actions))
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per player count")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply games per run")
    args = parser.parse_args(argv)
    console = Console(width=120)
    console.print(
        f"SCOUT random playouts on one core — Python {platform.python_version()}, "
        f"{args.runs} runs per player count, median reported"
    )
    table = Table(
        "players",
        "games/run",
        "games/s (median)",
        "min",
        "max",
        "moves/game",
        "moves/round",
        "µs/legal_actions",
    )
    results = {}
    for players in (2, 3, 4, 5):
        games = max(1, int(GAMES_PER_RUN[players] * args.scale))
        play(players, max(1, games // 5), seed=999)  # warm-up
        rates = []
        moves = rounds = 0
        for run in range(args.runs):
            start = time.perf_counter()
            moves, rounds = play(players, games, seed=run + 1)
            rates.append(games / (time.perf_counter() - start))
        positions = sample_positions(players, 2000)
        per_call = min(
            timeit.repeat(
                lambda positions=positions: [legal_actions(s, seat) for s, seat in positions],  # type: ignore[misc]
                number=1,
                repeat=5,
            )
        ) / len(positions)
        median = statistics.median(rates)
        results[players] = median
        table.add_row(
            str(players),
            str(games),
            f"{median:.0f}",
            f"{min(rates):.0f}",
            f"{max(rates):.0f}",
            f"{moves / games:.0f}",
            f"{moves / rounds:.1f}",
            f"{per_call * 1e6:.1f}",
        )
    console.print(table)
    for players, median in results.items():
        print(f"scout {players}p: {median:.0f} games/s")


if __name__ == "__main__":
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    main()
