"""How often searches agree on the move: variants of the SCOUT search (``ismcts``), each run
twice with different seeds, on the same positions of seeded games.

Each variant is ``name=JSON`` with keyword arguments of ``ISMCTSBot``. The positions are every
fifth play-phase decision with more than one legal move in ``--games`` seeded games of four
``--players`` bots. Prints the share of positions on which each pair of runs chose the same
move (a run against itself with another seed measures the search's own noise).

    python bench/scout_search_agreement.py --games 12 \\
        'a650={"iterations": 650}' 'b2200={"iterations": 2200}'
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from parlour.bots.levels import make_bot
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.games import scout


def positions(games: int, players: int, seed: int, bot: str) -> list[tuple[Any, list[Any]]]:
    """Every fifth play-phase decision with a choice, in ``games`` seeded games of ``bot``."""
    found = []
    for g in range(games):
        state = scout.new_state({"players": players}, seed + g)
        bots = [make_bot("scout", bot) for _ in range(players)]
        rng = random.Random(g)
        n = 0
        while not state.results:
            seat = scout.to_act(state)[0]
            view, legal = scout.view(state, seat), scout.legal_actions(state, seat)
            if n % 5 == 2 and len(legal) > 1 and view["phase"] == "play":
                found.append((view, legal))
            state = scout.apply(state, seat, bots[seat].choose(view, legal, rng))
            n += 1
    return found


def task(args: tuple[int, Any, list[Any], dict[str, dict[str, Any]]]) -> dict[str, str]:
    """Every variant's move at one position, two runs each."""
    i, view, legal, variants = args
    return {
        f"{name}/{run}": repr(ISMCTSBot(**kw).choose(view, legal, random.Random(run * 1000 + i)))
        for name, kw in variants.items()
        for run in (1, 2)
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help='name=JSON, e.g. a650={"iterations": 650}')
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument("--bot", default="medium", help="the bots that play the games")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    variants = {}
    for spec in args.variants:
        name, _, kwargs = spec.partition("=")
        variants[name] = json.loads(kwargs or "{}")
        ISMCTSBot(**variants[name])  # fail early on a bad keyword
    found = positions(args.games, args.players, args.seed, args.bot)
    tasks = [(i, view, legal, variants) for i, (view, legal) in enumerate(found)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        moves = list(pool.map(task, tasks, chunksize=1))
    runs = list(moves[0])
    print(f"{len(moves)} positions; share of positions where the row and column chose alike")
    print(" " * 16 + " ".join(f"{r[:8]:>8}" for r in runs))
    for a in runs:
        same = [sum(m[a] == m[b] for m in moves) / len(moves) for b in runs]
        print(f"{a:16}" + " ".join(f"{x:8.2f}" for x in same))


if __name__ == "__main__":
    main()
