"""How much SCOUT search variants lose per move against a search that sees every hand.

Plays ``--games`` seeded games of ``--players`` copies of ``--opponent``; at every ``--every``-th
play-phase decision (with a choice and after the round's first move) an *oracle* — the search
with ``--oracle-iterations`` iterations on the true deal, every hand seen (:class:`Omniscient`)
— values the root's candidate moves by their mean, and each variant (``ISMCTSBot`` keyword
arguments as JSON, as in ``scout_search_variants.py``; ``"omniscient": true`` lets a variant see
the true deal too) chooses from the seat's view. A variant's *regret* at a position is the best
candidate's mean minus the mean of the move it chose (round points; 0 when it chose the
oracle's best). The report gives each variant's mean regret a move and, paired by position, its
difference from the first variant: a measure of decision quality much less noisy per CPU second
than games, for questions of what the search knows (its deals, their weights, its budget). It
cannot judge the value the oracle shares with the variants (the evaluation and the playouts):
that takes games.

    python bench/scout_move_regret.py --games 12 --every 4 'base={"iterations": 2200}' \\
        'noinf={"iterations": 2200, "particles": 256, "inference": false}'
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

from parlour.bots.levels import make_bot
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scout_search_variants import Omniscient, parse_variants, searcher

Task = tuple[int, str, int, int, dict[str, Any], dict[str, dict[str, Any]]]


def regrets(task: Task) -> list[dict[str, float | None]]:
    """One seeded game: per sampled position, each variant's regret (``None`` if it chose a
    move the oracle did not value)."""
    seed, opponent, players, every, oracle, variants = task
    state = scout.new_state({"players": players}, seed)
    bots = [make_bot("scout", opponent) for _ in range(players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    rows: list[dict[str, float | None]] = []
    decision = 0
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        view = scout.view(state, seat)
        if state.phase == PLAY_PHASE and len(legal) > 1 and view["log"]:
            if decision % every == 0:
                row = position(state, view, legal, oracle, variants, f"{seed}:{decision}")
                if row is not None:
                    rows.append(row)
            decision += 1
        state = scout.apply(state, seat, bots[seat].choose(view, legal, rngs[seat]))
    return rows


def position(
    state: scout.State,
    view: Any,
    legal: list[Any],
    oracle: dict[str, Any],
    variants: dict[str, dict[str, Any]],
    key: str,
) -> dict[str, float | None] | None:
    """Every variant's regret at one position (see the module docstring); ``oracle``: the
    omniscient search's keyword arguments. ``None`` where the oracle has no choice to value
    (a Show that empties the hand is played at once)."""
    judge = Omniscient(**oracle)
    judge.truth = state
    judge.choose(view, legal, random.Random(f"{key}:oracle"))
    means = judge.last_means if judge.last_iterations else {}
    if len(means) < 2:
        return None
    top = max(means.values())
    row: dict[str, float | None] = {}
    for name, kwargs in variants.items():
        action = searcher(kwargs, state).choose(view, legal, random.Random(f"{key}:{name}"))
        row[name] = top - means[action] if action in means else None
    return row


def summary(rows: list[dict[str, float | None]], names: list[str]) -> list[str]:
    """One line per variant: its mean regret a move (± standard error) and, paired by
    position, its difference from the first variant's."""
    first = names[0]
    lines = []
    for name in names:
        pairs = [(r[name], r[first]) for r in rows if r[name] is not None and r[first] is not None]
        mine = [a for a, _ in pairs if a is not None]
        diffs = [a - b for a, b in pairs if a is not None and b is not None]
        n = len(mine)
        se = statistics.stdev(mine) / math.sqrt(n) if n > 1 else float("nan")
        dse = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("nan")
        line = f"{name}: regret {statistics.fmean(mine):.3f} ± {se:.3f} a move ({n} positions)"
        if name != first:
            line += f"; paired vs {first}: {statistics.fmean(diffs):+.3f} ± {dse:.3f}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help="name={ISMCTSBot keyword arguments as JSON}")
    parser.add_argument("--opponent", default="hard:it=300", help="the bots playing the games")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=910)
    parser.add_argument("--every", type=int, default=4, help="value every N-th decision")
    parser.add_argument("--oracle-iterations", type=int, default=4000)
    parser.add_argument("--oracle", default="{}", help="the oracle's further settings (JSON)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    variants = parse_variants(args.variants)
    oracle = {**json.loads(args.oracle), "iterations": args.oracle_iterations}
    Omniscient(**oracle)
    tasks: list[Task] = [
        (args.seed + g, args.opponent, args.players, max(1, args.every), oracle, variants)
        for g in range(args.games)
    ]  # fmt: skip
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        rows = [row for game in pool.map(regrets, tasks) for row in game]
    print(f"{len(rows)} positions from {args.games} games of {args.players} × {args.opponent}; "
          f"oracle: {json.dumps(oracle)} on the true deal")  # fmt: skip
    for line in summary(rows, list(variants)):
        print(line)


if __name__ == "__main__":
    main()
