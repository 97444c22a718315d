"""Measurements of the real-time bots (issue: computer opponents).

``snap``: seeded games of four Medium bots — game length in flips (median, p95) and how games
ended. ``scan``: per level and category, the mean time to a correct touch and the wrong-touch
rate of one bot's plans on many revealed cards, beside the model's expected time (the mean
see-and-reach time plus the number of cards looked at, on average 12 of 23, times the per-card
median of ``shared/rules/snap.md``).

Run with ``make bench-bots`` (or ``python bench/bench_bots.py snap --games 1000``).
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import statistics

from rich.console import Console
from rich.table import Table

from parlour.bots.scan import MEDIAN_MS, SCAN_LEVELS, ScanBot
from parlour.cli.arena import play_realtime_game
from parlour.core import Timeout
from parlour.games import scan
from parlour.games.scan.actions import Touch
from parlour.games.scan.cards import CATEGORIES


def snap_games(games: int, players: int, console: Console) -> None:
    flips = []
    reasons: collections.Counter[str] = collections.Counter()
    for deal in range(games):
        result = play_realtime_game("snap", players, ["medium"] * players, deal, 0)
        flips.append(result.outcome["flips"])
        reasons[result.outcome["reason"]] += 1
    flips.sort()
    p95 = flips[max(0, math.ceil(0.95 * len(flips)) - 1)]
    table = Table(title=f"SNAP: {games} seeded games, {players} Medium bots")
    table.add_column("how the game ended")
    table.add_column("games", justify="right")
    for reason, count in reasons.most_common():
        table.add_row(reason, f"{count} ({count / games:.1%})")
    console.print(table)
    print(f"snap flips: median={statistics.median(flips):.0f} p95={p95} max={flips[-1]}")


def scan_levels(reveals: int, console: Console) -> None:
    table = Table(title=f"SCAN: one bot's plans on {reveals} revealed cards per category")
    for column in ("level", "category", "mean ms to a correct touch", "model ms",
                   "wrong touches", "no touch"):  # fmt: skip
        table.add_column(column, justify="left" if column in ("level", "category") else "right")
    for level in SCAN_LEVELS:
        for column, category in enumerate(CATEGORIES):
            times, wrong, none = [], 0, 0
            for seed in range(reveals):
                bot = ScanBot(level)  # a bot plans each situation once: one per game
                state = scan.new_state({"players": 2, "category": category}, seed)
                state = scan.apply(state, None, Timeout(), scan.deadline(state))
                view = scan.view(state, 0)
                plans = bot.plan(view, scan.legal_actions(state, 0), random.Random(seed))
                touch = next((p.action for p in plans if isinstance(p.action, Touch)), None)
                if touch is None:
                    none += 1
                elif view["layout"][touch.blue_index][column] == view["tan"][column]:
                    times.append(touch.rt_ms)
                else:
                    wrong += 1
            params = SCAN_LEVELS[level]
            model = params.see_mu + params.see_tau + 12 * MEDIAN_MS[category] * params.scale
            table.add_row(
                level,
                category,
                f"{statistics.fmean(times):.0f}",
                f"~{model:.0f}",
                f"{wrong / reveals:.1%}",
                f"{none / reveals:.1%}",
            )
    console.print(table)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    snap = sub.add_parser("snap")
    snap.add_argument("--games", type=int, default=1000)
    snap.add_argument("--players", type=int, default=4)
    levels = sub.add_parser("scan")
    levels.add_argument("--reveals", type=int, default=400)
    args = parser.parse_args(argv)
    console = Console(width=120)
    if args.what == "snap":
        snap_games(args.games, args.players, console)
    else:
        scan_levels(args.reveals, console)


if __name__ == "__main__":
    main()
