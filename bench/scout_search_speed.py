"""How many iterations the SCOUT search (``ismcts``) makes per second of one core.

Collects the positions of seeded 4-player games of ``eval`` against itself (every move of the
first round, flip decisions included), runs ``ISMCTSBot(iterations=N)`` on each and measures the
process's CPU time per move (CPU time, not wall time: the machine may be shared). Prints, per N,
the median and mean CPU seconds per move, and the iterations a move gets in 0.3 s and 1 s of
one core (N × budget ÷ mean CPU seconds at that N). ``--deals D`` measures the flat search
(``flat:d=D``, ``SearchBot(determinizations=D)``) the same way, on the moves where it searches.
``--levels hard,expert`` plays the levels' searches in their own time (wall clock) on the same
positions and prints the iterations they make (median) and their longest move.

    python bench/scout_search_speed.py --games 2 --iterations 100,300,1000 --deals 240
    python bench/scout_search_speed.py --games 2 --iterations "" --levels hard,expert
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from parlour.bots.levels import make_bot
from parlour.bots.scout.features import EvalBot
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.bots.scout.search import SearchBot
from parlour.games import scout


def positions(games: int, players: int) -> list[tuple[Any, list[Any]]]:
    """(view, legal) of every move of the first round of ``games`` seeded eval games."""
    out = []
    bot = EvalBot()
    for g in range(games):
        rng = random.Random(g)
        state = scout.new_state({"players": players}, 7000 + g)
        while state.round == 0 and scout.outcome(state) is None:
            seat = scout.to_act(state)[0]
            legal = scout.legal_actions(state, seat)
            view = scout.view(state, seat)
            out.append((view, legal))
            state = scout.apply(state, seat, bot.choose(view, legal, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", default="100,300,1000")
    parser.add_argument("--deals", default="", help="also the flat search with these deals")
    parser.add_argument("--levels", default="", help="also these levels in their own time")
    args = parser.parse_args()
    moves = positions(args.games, args.players)
    print(f"{len(moves)} positions ({args.games} games, {args.players} players)")
    searched = [(v, legal) for v, legal in moves if len(legal) > 1]
    flat_searched = [(v, legal) for v, legal in searched if v["phase"] == "play"]
    for n in (int(x) for x in args.iterations.split(",") if x):
        report(f"it={n}", "iterations", n, ISMCTSBot(iterations=n), searched, random.Random(n))
    for d in (int(x) for x in args.deals.split(",") if x):
        # the flat search plays the heuristic's choice, without searching, at the flip
        report(f"flat d={d}", "deals", d, SearchBot(determinizations=d), flat_searched,
               random.Random(d))  # fmt: skip
    for level in (x for x in args.levels.split(",") if x):
        timed(level, searched, random.Random(1))


def report(
    label: str, unit: str, n: int, bot: Any, moves: list[tuple[Any, list[Any]]], rng: Any
) -> None:
    """Print the CPU seconds ``bot`` takes per move over ``moves`` (median and mean) and how
    many of its ``n`` units (iterations, deals) a move gets in 0.3 s and 1 s of one core."""
    cpu = []
    for view, legal in moves:
        start = time.process_time()
        bot.choose(view, legal, rng)
        cpu.append(time.process_time() - start)
    mean = statistics.fmean(cpu)
    print(
        f"{label}: CPU s per move median {statistics.median(cpu):.3f}, mean {mean:.3f}; "
        f"{unit} in 0.3 s ≈ {n * 0.3 / mean:.0f}, in 1 s ≈ {n / mean:.0f}"
    )


def timed(level: str, moves: list[tuple[Any, list[Any]]], rng: Any) -> None:
    """Print the iterations the search of ``level`` makes in its own time per move over
    ``moves`` (median) and its longest move in wall-clock seconds."""
    level_bot: Any = make_bot("scout", level)
    bot = level_bot.bot  # the level's search, without the first-move restraint
    iterations, walls = [], []
    for view, legal in moves:
        start = time.perf_counter()
        bot.choose(view, legal, rng)
        walls.append(time.perf_counter() - start)
        iterations.append(bot.last_iterations)
    print(
        f"{level}: iterations per move median {statistics.median(iterations):.0f}; wall s per "
        f"move median {statistics.median(walls):.3f}, longest {max(walls):.3f}"
    )


if __name__ == "__main__":
    main()
