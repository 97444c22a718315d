"""How long SCOUT's hints take (issue 11): "Suggest a move" and a game's turning points.

Plays ``--games`` four-player games (seat 0 random, the others Medium), asks for a hint (the
level ``--level``, Expert by default) every 7th move of seat 0 up to ``--hints`` in all, and works
out seat 0's turning points after each game — with the same functions the server runs in its
bots' pool (``parlour.server.coach``), here on one core in this process.

Run with ``python bench/bench_hints.py`` (``--games 3 --hints 12``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour.bots.levels import make_bot
from parlour.server.coach import suggest_move, turning_points
from parlour.table import SeatInfo, Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--hints", type=int, default=12)
    parser.add_argument("--level", default="expert")
    args = parser.parse_args()
    medium = make_bot("scout", "medium")
    hints: list[float] = []
    points: list[float] = []
    for g in range(args.games):
        seats = [SeatInfo("human", "A")] + [SeatInfo("bot", "B", "medium")] * 3
        table = Table(f"bench{g}", "scout", {"players": 4}, 1000 + g, seats)
        rng = random.Random(g)
        moves = 0
        while table.outcome() is None:
            seat = table.to_act()[0]
            legal = table.legal_actions(seat)
            if seat == 0 and moves % 7 == 0 and len(hints) < args.hints and len(legal) > 1:
                began = time.perf_counter()
                texts = [str(a) for a in legal]
                suggest_move("scout", args.level, table.view(0), texts, moves)
                hints.append(time.perf_counter() - began)
            view = table.view(seat)
            action = medium.choose(view, legal, rng) if seat else rng.choice(legal)
            table.submit(seat, table.state_id, action, 0)
            moves += 1
        began = time.perf_counter()
        found = turning_points(table.table_id, "scout", table.options, table.seed, seats,
                               list(table.record), 0)  # fmt: skip
        points.append(time.perf_counter() - began)
        lost = [p["loss"] for p in found]
        print(f"game {g}: {len(table.record)} inputs, turning points lost {lost}")
    print(f"hint ({args.level}): median {statistics.median(hints):.2f} s, "
          f"max {max(hints):.2f} s over {len(hints)} hints")  # fmt: skip
    print(f"turning points: {', '.join(f'{s:.2f}' for s in points)} s per game")


if __name__ == "__main__":
    main()
