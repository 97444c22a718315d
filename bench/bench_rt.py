"""Reaction times of the real-time bots beside a person's (issue 12).

Subcommands (``make rt-bots`` runs ``scan``, ``snap`` and ``newcomer``; ``make plots-rt`` draws
the figures of the README from the JSON they write):

- ``fit-scan``: fits each SCAN level's see-and-reach time (``see_mu``) so that the 0.3th
  percentile of a correct touch in the quickest category reaches the level's
  ``P1_TARGET_MS`` (at a table of three or four bots the fastest touch of a round is about the
  0.3th percentile of one bot's), and prints the fitted values and the values made no quicker
  at a weaker level (what ``parlour.bots.scan.SCAN_LEVELS`` holds).
- ``scan``: per level, one bot's planned correct touches on ``--reveals`` reveals per
  category (the fitted distributions: 1st percentile, median, minimum) and seeded 4-player
  arena games of four bots of that level until ``--reveals`` tan cards were revealed: the
  minimum and 1st percentile of every correct touch made, and the winning touches' times.
- ``snap``: per level, ``--games`` seeded 4-player games of four bots of that level: false
  calls per bot per flip beside the rate of ``shared/rules/snap.md``, and the winning calls'
  reaction times.
- ``newcomer``: the share of races a person wins against the lobby's table at each level (one
  pace-setter and two slower companions: the lobby's default of 4 players) and against one bot,
  for the person of the rules (a typical adult in a browser averages about 450 ms) and a
  newcomer reacting in 450–700 ms; the lobby's first-visit level is the one the newcomer wins
  about half the races against.
- ``plots``: PNG figures from the JSON files (needs the ``plots`` extra: matplotlib).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from parlour.bots.reaction import LEVEL_ORDER, pace_setter_levels, reaction_ms
from parlour.bots.scan import MEDIAN_MS, P1_TARGET_MS, SCAN_LEVELS, ScanBot, touch_times
from parlour.bots.snap import SNAP_LEVELS
from parlour.cli.arena import play_realtime_game
from parlour.core import Timeout
from parlour.core.race import RaceEntry, first_group
from parlour.games import scan
from parlour.games.scan.actions import Touch
from parlour.games.scan.cards import CATEGORIES
from parlour.games.snap.view import history

DATA = Path(__file__).resolve().parent.parent / "docs" / "data"
IMG = Path(__file__).resolve().parent.parent / "docs" / "img"

PEOPLE = {
    # ex-Gaussian μ, σ, τ (ms) of a person's SNAP call
    "adult": (370.0, 50.0, 80.0),  # the rules: a typical adult in a browser averages ~450 ms
    "newcomer": (500.0, 40.0, 80.0),  # issue 12: a newcomer reacting in 450–700 ms
}
"""People's reaction times: means 450 and 580 ms; the newcomer's 5th–95th percentiles are
about 470–750 ms."""


def percentile(values: Sequence[float], pct: float) -> float:
    """The nearest-rank percentile (the same as the arena's)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))]


def histogram(values: Sequence[float], width: int = 20) -> dict[str, int]:
    """Counts per bin of ``width`` ms, keyed by the bin's lower edge (JSON keys are text)."""
    counts: dict[int, int] = {}
    for v in values:
        counts[int(v // width * width)] = counts.get(int(v // width * width), 0) + 1
    return {str(k): counts[k] for k in sorted(counts)}


# ------------------------------------------------------------------ SCAN


def fit_scan(samples: int, console: Console) -> None:
    fitted: dict[str, float] = {}
    for level, params in SCAN_LEVELS.items():
        lo, hi = 0.0, 1500.0
        for _ in range(11):  # bisection on see_mu with the same seeds: monotone
            mid = (lo + hi) / 2
            trial = dataclasses.replace(params, see_mu=mid)
            low = min(
                percentile(
                    [rt for rt, ok in touch_times(level, c, samples, params=trial) if ok], 0.3
                )
                for c in MEDIAN_MS
            )
            lo, hi = (lo, mid) if low >= P1_TARGET_MS[level] else (mid, hi)
        fitted[level] = hi
    table = Table(title=f"SCAN see-and-reach μ fitted on {samples} reveals per category")
    for column in ("level", "target p0.3 (ms)", "fitted see_mu", "no quicker when weaker"):
        table.add_column(column, justify="left" if column == "level" else "right")
    floor = 0.0
    chosen = {}
    for level in reversed(LEVEL_ORDER):
        floor = max(floor, math.ceil(fitted[level] / 10) * 10)
        chosen[level] = floor
    for level in LEVEL_ORDER:
        table.add_row(
            level, str(P1_TARGET_MS[level]), f"{fitted[level]:.0f}", f"{chosen[level]:.0f}"
        )
    console.print(table)


def _scan_game(task: tuple[str, int]) -> dict[str, Any]:
    level, deal = task
    touches: list[int] = []
    winners: list[int] = []
    reveals = 0
    best: dict[int, int] = {}

    def observe(before: Any, seat: int | None, action: Any, now: int, after: Any) -> None:
        nonlocal reveals
        if after.seq != before.seq:
            reveals += 1
        if isinstance(action, Touch):
            view = scan.view(before, None)
            column = CATEGORIES.index(view["category"])
            if view["layout"][action.blue_index][column] == view["tan"][column]:
                touches.append(action.rt_ms)
                key = view["game_number"] * 1000 + view["seq"]
                best[key] = min(best.get(key, 10**9), action.rt_ms)

    play_realtime_game("scan", 4, [level] * 4, deal, 0, observe=observe)
    winners = list(best.values())
    return {"reveals": reveals, "touches": touches, "winners": winners}


def scan_measure(reveals: int, workers: int, seed: int, console: Console) -> dict[str, Any]:
    out: dict[str, Any] = {"reveals": reveals, "seed": seed, "levels": {}}
    plans = Table(title=f"SCAN: one bot's planned correct touches, {reveals} reveals per category")
    for column in ("level", "category", "p1 target", "min", "p1", "median", "p99"):
        plans.add_column(column, justify="left" if column in ("level", "category") else "right")
    arena = Table(title=f"SCAN arena: 4 bots of one level, until {reveals} reveals (ms)")
    for column in ("level", "games", "reveals", "correct touches", "min", "p1", "median",
                   "winning median", "p1 target"):  # fmt: skip
        arena.add_column(column, justify="left" if column == "level" else "right")
    for level in LEVEL_ORDER:
        record: dict[str, Any] = {"categories": {}}
        for category in MEDIAN_MS:
            times = [rt for rt, ok in touch_times(level, category, reveals, seed=seed) if ok]
            record["categories"][category] = {
                "min": min(times),
                "p1": percentile(times, 1),
                "median": percentile(times, 50),
                "p99": percentile(times, 99),
                "histogram": histogram(times, 100),
            }
            row = record["categories"][category]
            plans.add_row(level, category, str(P1_TARGET_MS[level]), str(row["min"]),
                          str(row["p1"]), str(row["median"]), str(row["p99"]))  # fmt: skip
        touches: list[int] = []
        winners: list[int] = []
        seen = games = 0
        deal = seed
        with ProcessPoolExecutor(max_workers=workers) as pool:
            while seen < reveals:
                left = math.ceil((reveals - seen) / 23)  # about 23 reveals per game
                batch = [(level, deal + i) for i in range(max(1, min(8, left)))]
                deal += len(batch)
                for result in pool.map(_scan_game, batch):
                    if seen >= reveals:
                        break
                    games += 1
                    seen += result["reveals"]
                    touches += result["touches"]
                    winners += result["winners"]
        record["arena"] = {
            "games": games,
            "reveals": seen,
            "correct_touches": len(touches),
            "min": min(touches),
            "p1": percentile(touches, 1),
            "median": percentile(touches, 50),
            "winning_median": percentile(winners, 50),
            "winning_histogram": histogram(winners, 100),
        }
        a = record["arena"]
        cells = (games, seen, len(touches), a["min"], a["p1"], a["median"], a["winning_median"])
        arena.add_row(level, *map(str, cells), str(P1_TARGET_MS[level]))
        out["levels"][level] = record
    console.print(plans)
    console.print(arena)
    return out


# ------------------------------------------------------------------ SNAP


def _snap_game(task: tuple[str, int, int]) -> dict[str, Any]:
    level, players, deal = task
    last: dict[str, Any] = {}
    play_realtime_game(
        "snap", players, [level] * players, deal, 0, observe=lambda *a: last.update(s=a[-1])
    )
    false = bot_flips = flips = 0
    seats_in = players
    winners: list[int] = []
    for event in history(last["s"]):
        if event["type"] == "flip":
            flips += 1
            bot_flips += seats_in
        elif event["type"] == "out":
            seats_in -= len(event["seats"])
        elif event["type"] == "call" and event["verdict"] == "false":
            false += 1
        elif event["type"] == "win":
            winners += [c["rt_ms"] for c in event["calls"] if c["seat"] == event["seat"]]
    return {"false": false, "bot_flips": bot_flips, "flips": flips, "winners": winners}


def snap_measure(
    games: int, players: int, workers: int, seed: int, levels: Sequence[str], console: Console
) -> dict[str, Any]:
    out: dict[str, Any] = {"games": games, "players": players, "seed": seed, "levels": {}}
    table = Table(title=f"SNAP: {games} seeded {players}-player games of one level per level")
    for column in ("level", "flips", "false calls", "per bot per flip", "rules", "ratio",
                   "races won", "winning median ms", "p1", "p99"):  # fmt: skip
        table.add_column(column, justify="left" if column == "level" else "right")
    for level in levels:
        false = bot_flips = flips = 0
        winners: list[int] = []
        tasks = [(level, players, seed + d) for d in range(games)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(_snap_game, tasks, chunksize=8):
                false += result["false"]
                bot_flips += result["bot_flips"]
                flips += result["flips"]
                winners += result["winners"]
        rate = false / bot_flips
        rules = SNAP_LEVELS[level].false_call
        out["levels"][level] = {
            "flips": flips,
            "bot_flips": bot_flips,
            "false_calls": false,
            "per_bot_per_flip": rate,
            "rules": rules,
            "ratio": rate / rules,
            "races_won": len(winners),
            "winning_median": percentile(winners, 50),
            "winning_p1": percentile(winners, 1),
            "winning_p99": percentile(winners, 99),
            "winning_histogram": histogram(winners, 20),
        }
        r = out["levels"][level]
        table.add_row(level, str(flips), str(false), f"{rate:.4%}", f"{rules:.2%}",
                      f"{rate / rules:.2f}", str(len(winners)), str(r["winning_median"]),
                      str(r["winning_p1"]), str(r["winning_p99"]))  # fmt: skip
    console.print(table)
    return out


# ------------------------------------------------------------------ a person against the table


def snap_share(
    person: tuple[float, float, float], lineup: Sequence[str], races: int, seed: int
) -> float:
    """The share of valid snaps a person (ex-Gaussian, never missing) wins against bots of
    ``lineup``: the earliest call wins unless another lies within the 20 ms tie window
    (``parlour.core.race.first_group``); each bot misses at its level's rate."""
    rng = random.Random(seed)
    won = 0
    for _ in range(races):
        entries = [RaceEntry(0, reaction_ms(rng, *person))]
        for i, level in enumerate(lineup, 1):
            params = SNAP_LEVELS[level]
            rt = reaction_ms(rng, params.mu, params.sigma, params.tau)
            if rng.random() >= params.miss:
                entries.append(RaceEntry(i, rt))
        group = first_group(entries)
        won += len(group) == 1 and group[0].seat == 0
    return won / races


def _touch(bot: ScanBot, view: Any, legal: Any, rng: random.Random) -> tuple[int, bool] | None:
    """(reaction ms, correct) of the touch ``bot`` plans on a revealed card, if any."""
    column = CATEGORIES.index(view["category"])
    for plan in bot.plan(view, legal, rng):
        if isinstance(plan.action, Touch):
            design = view["layout"][plan.action.blue_index][column]
            return plan.action.rt_ms, design == view["tan"][column]
    return None


@functools.cache
def _scan_deals(seed: int) -> list[tuple[Any, Any]]:
    # 32 first reveals, 8 per category: a view and the legal actions of seat 0.
    deals = []
    for deal in range(32):
        category = CATEGORIES[deal % 4]
        state = scan.new_state({"players": 2, "category": category}, seed + deal)
        state = scan.apply(state, None, Timeout(), scan.deadline(state) or 0)
        deals.append((scan.view(state, 0), scan.legal_actions(state, 0)))
    return deals


def scan_share(lineup: Sequence[str], races: int, seed: int) -> float:
    """The share of SCAN rounds a person wins against bots of ``lineup``, the person searching
    like the rules' Medium model (their starting estimate for a person) with no mistakes: the
    earliest correct touch wins (20 ms tie window: a draw, counted as half); a bot's wrong touch
    before it only takes that bot out."""
    person = dataclasses.replace(SCAN_LEVELS["medium"], overlook=0.0, near_miss=0.0, bluffo=0.0)
    won = 0.0
    deals = _scan_deals(seed)
    for i in range(races):
        view, legal = deals[i % len(deals)]
        rng = random.Random(f"{seed}:{i}")

        mine = _touch(ScanBot("medium", person), view, legal, rng)
        assert mine is not None and mine[1]
        bots = [_touch(ScanBot(level), view, legal, rng) for level in lineup]
        quickest = min((t[0] for t in bots if t is not None and t[1]), default=10**9)
        if mine[0] < quickest - 20:
            won += 1
        elif mine[0] <= quickest + 20:
            won += 0.5
    return won / races


def newcomer(races: int, seed: int, console: Console) -> dict[str, Any]:
    out: dict[str, Any] = {"races": races, "people": PEOPLE, "snap": {}, "scan": {}}
    table = Table(title=f"Races a person wins ({races} simulated races per cell)")
    for column in ("level", "SNAP adult vs 1 bot", "SNAP adult vs table",
                   "SNAP newcomer vs 1 bot", "SNAP newcomer vs table", "SCAN person vs 1 bot",
                   "SCAN person vs table"):  # fmt: skip
        table.add_column(column, justify="left" if column == "level" else "right")
    for level in LEVEL_ORDER:
        table_lineup = pace_setter_levels(level, 3)
        snap_row = {
            f"{who}_{against}": snap_share(PEOPLE[who], lineup, races, seed)
            for who in PEOPLE
            for against, lineup in (("one", [level]), ("table", table_lineup))
        }
        scan_row = {
            "person_one": scan_share([level], races // 4, seed),
            "person_table": scan_share(table_lineup, races // 4, seed),
        }
        out["snap"][level], out["scan"][level] = snap_row, scan_row
        table.add_row(level, *(f"{v:.0%}" for v in (*snap_row.values(), *scan_row.values())))
    console.print(table)
    pick = min(LEVEL_ORDER, key=lambda lv: abs(out["snap"][lv]["newcomer_table"] - 0.5))
    out["default_level"] = pick
    print(f"first-visit level (newcomer wins closest to half the races at the table): {pick}")
    return out


# ------------------------------------------------------------------ plots


def plots(data: Path, img: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    img.mkdir(parents=True, exist_ok=True)
    scan_data = json.loads((data / "rt-scan.json").read_text())
    snap_data = json.loads((data / "rt-snap.json").read_text())
    colours = {"beginner": "#0072B2", "easy": "#009E73", "medium": "#E69F00", "hard": "#D55E00",
               "expert": "#CC79A7"}  # fmt: skip

    def bars(ax: Any, hist: dict[str, int], width: int, **kw: Any) -> None:
        total = sum(hist.values())
        counts = {int(k): v for k, v in hist.items()}
        xs = list(range(min(counts), max(counts) + 2 * width, width))  # empty bins too
        ys = [counts.get(x, 0) / total / width * 1000 for x in xs]
        ax.step(xs, ys, where="post", **kw)

    # The fitted SCAN distributions: one panel per level, one curve per category.
    fig, axes = plt.subplots(5, 1, figsize=(8, 11), sharex=True)
    for ax, level in zip(axes, LEVEL_ORDER, strict=True):
        record = scan_data["levels"][level]
        for category, row in record["categories"].items():
            bars(ax, row["histogram"], 100, label=f"{category} (p1 {row['p1']} ms)")
        ax.axvline(P1_TARGET_MS[level], color="black", linestyle="--", linewidth=1)
        ax.text(P1_TARGET_MS[level] + 60, ax.get_ylim()[1] * 0.8,
                f"1st percentile ≥ {P1_TARGET_MS[level]} ms", fontsize=8)  # fmt: skip
        ax.set_title(f"SCAN {level.capitalize()}: one bot's correct touches", fontsize=10)
        ax.set_ylabel("share per s")
        ax.legend(fontsize=7, loc="upper right")
    axes[-1].set_xlim(0, 12000)
    axes[-1].set_xlabel("reaction time from the reveal (ms)")
    fig.tight_layout()
    fig.savefig(img / "scan-rt-levels.png", dpi=90)
    plt.close(fig)

    # Winning reaction times per level beside a person's.
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for level in LEVEL_ORDER:
        arena = scan_data["levels"][level]["arena"]
        bars(ax, arena["winning_histogram"], 100, color=colours[level],
             label=f"{level} (median {arena['winning_median']} ms)")  # fmt: skip
    person = dataclasses.replace(SCAN_LEVELS["medium"], overlook=0.0, near_miss=0.0, bluffo=0.0)
    own = [t for c in MEDIAN_MS for t, _ in touch_times("medium", c, 2000, seed=1, params=person)]
    bars(ax, histogram(own, 100), 100, color="black", linestyle=":",
         label="a person at the rules' Medium pace (alone)")  # fmt: skip
    ax.axvspan(0, 450, color="grey", alpha=0.2, label="below Expert's 1st-percentile floor, 450 ms")
    ax.axvline(600, color="grey", linestyle="--", label="Beginner–Medium floor, 600 ms")
    ax.set_xlim(0, 8000)
    ax.set_title("SCAN: winning touches of four bots of one level (arena)", fontsize=10)
    ax.set_xlabel("reaction time from the reveal (ms)")
    ax.set_ylabel("share per s")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(img / "scan-winning-rt.png", dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.2))
    for level in LEVEL_ORDER:
        row = snap_data["levels"][level]
        bars(ax, row["winning_histogram"], 20, color=colours[level],
             label=f"{level} (median {row['winning_median']} ms)")  # fmt: skip
    for who, style in (("adult", "--"), ("newcomer", ":")):
        rng = random.Random(who)
        draws = [reaction_ms(rng, *PEOPLE[who]) for _ in range(20000)]
        bars(ax, histogram(draws, 20), 20, color="black", linestyle=style,
             label=f"a person: {who} (model, alone)")  # fmt: skip
    ax.axvspan(450, 700, color="grey", alpha=0.2, label="a newcomer: 450–700 ms")
    ax.axvline(
        450, color="black", linestyle="--", linewidth=1, label="a typical adult: ~450 ms mean"
    )
    ax.axvspan(0, 180, color="red", alpha=0.08, label="below the 180 ms floor")
    ax.set_xlim(0, 1500)
    ax.set_title("SNAP: winning calls of four bots of one level (arena)", fontsize=10)
    ax.set_xlabel("reaction time from the reveal (ms)")
    ax.set_ylabel("share per s")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(img / "snap-winning-rt.png", dpi=90)
    plt.close(fig)
    print(f"wrote {img}/scan-rt-levels.png, scan-winning-rt.png, snap-winning-rt.png")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=12000)
    parser.add_argument("--data", type=Path, default=DATA, help="where the JSON files go")
    sub = parser.add_subparsers(dest="what", required=True)
    fit = sub.add_parser("fit-scan")
    fit.add_argument("--samples", type=int, default=6000)
    scan_cmd = sub.add_parser("scan")
    scan_cmd.add_argument("--reveals", type=int, default=2000)
    snap_cmd = sub.add_parser("snap")
    snap_cmd.add_argument("--games", type=int, default=1000)
    snap_cmd.add_argument("--players", type=int, default=4)
    snap_cmd.add_argument("--levels", default=",".join(LEVEL_ORDER))
    people = sub.add_parser("newcomer")
    people.add_argument("--races", type=int, default=40000)
    draw = sub.add_parser("plots")
    draw.add_argument("--out", type=Path, default=IMG)
    args = parser.parse_args(argv)
    console = Console(width=130)
    if args.what == "fit-scan":
        fit_scan(args.samples, console)
        return
    if args.what == "plots":
        plots(args.data, args.out)
        return
    if args.what == "scan":
        result = scan_measure(args.reveals, args.workers, args.seed, console)
    elif args.what == "snap":
        levels = args.levels.split(",")
        result = snap_measure(args.games, args.players, args.workers, args.seed, levels, console)
        path = args.data / "rt-snap.json"
        if path.exists() and set(levels) != set(LEVEL_ORDER):  # merge a partial run
            old = json.loads(path.read_text())
            result["levels"] = {**old["levels"], **result["levels"]}
    else:
        result = newcomer(args.races, args.seed, console)
    args.data.mkdir(parents=True, exist_ok=True)
    (args.data / f"rt-{args.what}.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
