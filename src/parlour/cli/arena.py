"""The arena: seeded games between any mix of bots, with duplicate deals, in parallel.

Each deal (a seed) is played once per rotation of the lineup, so every bot sits in every seat
with the same cards and luck cancels out. Results per lineup entry: games, win rate with a 95 %
Wilson interval (a shared win counts as a fraction), mean score, mean score difference against
the other seats, milliseconds per move (median and p95) and an openskill rating.
"""

from __future__ import annotations

import csv
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from parlour.bots import Bot
from parlour.bots.levels import make_bot
from parlour.core import ParlourError, Timeout
from parlour.games.registry import get_game


def arena_bot(game: str, spec: str) -> Bot:
    """The bot named by ``spec``: any bot spec of ``parlour.bots.levels.make_bot``, or
    ``policy:PATH`` (SCOUT only), a policy file trained with the research interfaces
    (``parlour.rl.policy``, needs ``parlour[rl]``). Raises ``ValueError`` for a bad spec and
    ``OSError`` for a policy file that cannot be read."""
    name, _, param = spec.partition(":")
    if name == "policy":
        if game != "scout":
            raise ValueError(f"policy files play SCOUT, not {game}")
        if not param:
            raise ValueError("policy needs a file: policy:PATH")
        from parlour.rl.policy import PolicyBot

        return PolicyBot(param)
    return make_bot(game, spec)


@dataclass
class GameResult:
    """One game: per lineup entry, its seat, score, rank (1 = best), win share and move times."""

    deal: int
    rotation: int
    seats: list[int]
    scores: list[float]
    ranks: list[int]
    win_share: list[float]
    move_ms: list[list[float]]
    outcome: dict[str, Any] = field(default_factory=dict)


@dataclass
class EntryStats:
    """Everything the arena reports for one lineup entry."""

    name: str
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    diffs: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    rating: float = 0.0

    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win rate."""
        n = self.games
        if n == 0:
            return (0.0, 0.0)
        p, z = self.win_rate(), 1.959964
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "bot": self.name,
            "games": self.games,
            "wins": round(self.wins, 3),
            "win_rate": round(self.win_rate(), 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(statistics.fmean(self.scores), 3) if self.scores else None,
            "mean_score_diff": round(statistics.fmean(self.diffs), 3) if self.diffs else None,
            "ms_per_move_median": round(statistics.median(self.move_ms), 3)
            if self.move_ms
            else None,
            "ms_per_move_p95": round(_percentile(self.move_ms, 95), 3) if self.move_ms else None,
            "rating": round(self.rating, 2),
        }


def _percentile(values: Sequence[float], pct: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[k]


def play_game(
    game: str,
    players: int,
    lineup: Sequence[str],
    deal: int,
    rotation: int,
    options: Any = None,
    bots: Sequence[Bot] | None = None,
) -> GameResult:
    """Play one turn-based game: lineup entry ``i`` sits in seat ``(i + rotation) % players``.

    Bots see only their seat's view and legal actions; each has its own seeded generator.
    ``bots``, if given, are the lineup's bots themselves (in-process tuning, e.g.
    ``bench/tune_scout.py``); ``lineup`` then only names them.
    """
    spec = get_game(game)
    seats = [(i + rotation) % players for i in range(players)]
    by_seat = {seat: i for i, seat in enumerate(seats)}
    bots = list(bots) if bots is not None else [arena_bot(game, name) for name in lineup]
    rngs = [random.Random(f"{deal}:{rotation}:{i}") for i in range(players)]
    opts = {"players": players, **(options or {})}
    state = spec.new_state(opts, deal)
    move_ms: list[list[float]] = [[] for _ in lineup]
    while spec.outcome(state) is None:
        seat = spec.to_act(state)[0]
        entry = by_seat[seat]
        legal = spec.legal_actions(state, seat)
        start = time.perf_counter()
        action = bots[entry].choose(spec.view(state, seat), legal, rngs[entry])
        move_ms[entry].append((time.perf_counter() - start) * 1000)
        state = spec.apply(state, seat, action, 0)
    return _result(spec.outcome(state), deal, rotation, seats, move_ms)


Observer = Callable[[Any, int | None, Any, int, Any], None]
"""Called with ``(state_before, seat, action, now_ms, state_after)`` after every change."""


def play_realtime_game(
    game: str,
    players: int,
    lineup: Sequence[str],
    deal: int,
    rotation: int,
    options: Any = None,
    record: list[tuple[int | None, Any, int]] | None = None,
    observe: Observer | None = None,
) -> GameResult:
    """Play one real-time game (SCAN, SNAP) on a simulated clock.

    After every change each bot sees its view and may plan new inputs (bots remember what they
    have planned); a plan made for an earlier reveal (``seq``) is dropped. The earliest planned
    input due before the game's deadline is applied at its time, carrying its reaction time;
    otherwise ``Timeout()`` is applied at the deadline. A planned input the engine refuses (the
    situation moved on) is dropped. ``move_ms`` holds the time each bot spent planning.
    Every input applied is appended to ``record`` (if given) as ``(seat, action, now_ms)``;
    ``observe``, if given, sees every change (measurements: ``bench/bench_rt.py``).
    """
    spec = get_game(game)
    seats = [(i + rotation) % players for i in range(players)]
    by_seat = {seat: i for i, seat in enumerate(seats)}
    bots = [arena_bot(game, name) for name in lineup]
    rngs = [random.Random(f"{deal}:{rotation}:{i}") for i in range(players)]
    state = spec.new_state({"players": players, **(options or {})}, deal)
    move_ms: list[list[float]] = [[] for _ in lineup]
    plans: list[tuple[int, int, Any, Any]] = []  # (at_ms, seat, action, seq)
    now = 0
    while spec.outcome(state) is None:
        seq = None
        for seat in range(players):
            view = spec.view(state, seat)
            seq = view.get("seq")
            entry = by_seat[seat]
            start = time.perf_counter()
            new = bots[entry].plan(view, spec.legal_actions(state, seat), rngs[entry])  # type: ignore[attr-defined]
            move_ms[entry].append((time.perf_counter() - start) * 1000)
            plans += [(p.at_ms, seat, p.action, seq) for p in new]
        plans = [p for p in plans if p[3] == seq]
        due = spec.deadline(state)
        ready = [p for p in plans if due is None or p[0] <= due]
        if ready:
            plan = min(ready, key=lambda p: (p[0], p[1]))
            plans.remove(plan)
            now = max(now, plan[0])
            try:
                after = spec.apply(state, plan[1], plan[2], now)
            except ParlourError:
                continue
            if record is not None:
                record.append((plan[1], plan[2], now))
            if observe is not None:
                observe(state, plan[1], plan[2], now, after)
            state = after
        elif due is not None:
            now = max(now, due)
            after = spec.apply(state, None, Timeout(), now)
            if record is not None:
                record.append((None, Timeout(), now))
            if observe is not None:
                observe(state, None, Timeout(), now, after)
            state = after
        else:
            raise RuntimeError(f"{game}: nobody plans to act and nothing is due")
    return _result(spec.outcome(state), deal, rotation, seats, move_ms)


def _result(
    result: Any, deal: int, rotation: int, seats: list[int], move_ms: list[list[float]]
) -> GameResult:
    # A finished game's outcome, seen from the lineup entries (entry i sat in seats[i]).
    assert result is not None
    winners = result["winners"]
    return GameResult(
        deal=deal,
        rotation=rotation,
        seats=seats,
        scores=[result["scores"][s] for s in seats],
        ranks=[result["ranks"][s] for s in seats],
        win_share=[(1 / len(winners) if s in winners else 0.0) for s in seats],
        move_ms=move_ms,
        outcome=dict(result),
    )


def _play_task(task: tuple[str, int, list[str], int, int]) -> GameResult:
    if get_game(task[0]).race is None:  # turn-based
        return play_game(*task)
    return play_realtime_game(*task)


def entry_names(lineup: Sequence[str]) -> list[str]:
    """Lineup names made unique: ``heuristic``, ``heuristic#2``…"""
    seen: dict[str, int] = {}
    names = []
    for name in lineup:
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return names


def run_arena(
    game: str,
    lineup: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    duplicate: bool = True,
    console: Console | None = None,
) -> list[EntryStats]:
    """Play ``games`` games (rounded up to whole rotations with duplicate deals) and return
    per-entry statistics. Raises ``ValueError`` for a bad lineup."""
    players = len(lineup)
    spec = get_game(game)
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(f"{game} is for {spec.min_players}-{spec.max_players} players")
    for name in lineup:
        arena_bot(game, name)  # fail early on a bad name
    rotations = players if duplicate else 1
    deals = max(1, math.ceil(games / rotations))
    tasks = [
        (game, players, list(lineup), seed + d, r if duplicate else (seed + d) % players)
        for d in range(deals)
        for r in range(rotations)
    ]
    results: list[GameResult] = []
    console = console or Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task(f"{game} {players}p", total=len(tasks))
        if workers <= 1:
            for task in tasks:
                results.append(_play_task(task))
                progress.advance(bar)
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for result in pool.map(_play_task, tasks, chunksize=1):
                    results.append(result)
                    progress.advance(bar)
    return summarize(lineup, results)


def summarize(lineup: Sequence[str], results: Sequence[GameResult]) -> list[EntryStats]:
    """Per-entry statistics and openskill ratings from game results (in order)."""
    names = entry_names(lineup)
    stats = [EntryStats(name) for name in names]
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in names]
    for result in results:
        for i, entry in enumerate(stats):
            entry.games += 1
            entry.wins += result.win_share[i]
            entry.scores.append(result.scores[i])
            others = [s for j, s in enumerate(result.scores) if j != i]
            entry.diffs.append(result.scores[i] - statistics.fmean(others))
            entry.move_ms.extend(result.move_ms[i])
        teams = model.rate([[r] for r in ratings], ranks=list(result.ranks))
        ratings = [team[0] for team in teams]
    for entry, rating in zip(stats, ratings, strict=True):
        entry.rating = rating.ordinal()
    return stats


def render(stats: Sequence[EntryStats], title: str) -> Table:
    """The results as a rich table."""
    table = Table(title=title)
    for column in ("bot", "games", "win rate", "95% CI", "mean score", "score diff",
                   "ms/move p50", "ms/move p95", "rating"):  # fmt: skip
        table.add_column(column, justify="left" if column == "bot" else "right")
    for entry in stats:
        row = entry.to_json()
        table.add_row(
            entry.name,
            str(entry.games),
            f"{row['win_rate']:.1%}",
            f"{row['ci95'][0]:.1%}–{row['ci95'][1]:.1%}",
            f"{row['mean_score']:.2f}",
            f"{row['mean_score_diff']:+.2f}",
            f"{row['ms_per_move_median']:.2f}",
            f"{row['ms_per_move_p95']:.2f}",
            f"{row['rating']:.1f}",
        )
    return table


def write_outputs(
    stats: Sequence[EntryStats], json_path: Path | None, csv_path: Path | None
) -> None:
    """Write one record per bot as JSON and/or CSV."""
    records = [entry.to_json() for entry in stats]
    if json_path:
        json_path.write_text(json.dumps(records, indent=2) + "\n")
    if csv_path:
        with csv_path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(records[0]))
            writer.writeheader()
            for record in records:
                writer.writerow({**record, "ci95": f"{record['ci95'][0]}-{record['ci95'][1]}"})
