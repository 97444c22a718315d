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

``--by-kind`` adds, for the first variant, where its regret falls: by the kind of move it chose
(Show, Scout, Scout & Show) and the kind the oracle valued best, the positions, the mean regret
and the share of the variant's whole regret.

``--flip`` judges the flip decisions instead: every seat's at every round's start, the oracle
searching both orientations on the round's true deal (the other seats' hands as they chose to
hold them), each variant choosing from the seat's view at the flip (``--every`` is not used).
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
from parlour.bots.scout.determinize import with_hand
from parlour.bots.scout.inference import flipped
from parlour.games import scout
from parlour.games.scout import Flip
from parlour.games.scout.state import FLIP_PHASE, PLAY_PHASE

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scout_search_variants import Omniscient, parse_variants, searcher

Task = tuple[int, str, int, int, dict[str, Any], dict[str, dict[str, Any]], bool]
Row = dict[str, Any]
"""Per variant name its regret (``None`` if it chose a move the oracle did not value) and,
under ``kind:<name>`` and ``kind:oracle``, the kind of move it chose and the oracle's best."""


def regrets(task: Task) -> list[Row]:
    """One seeded game: a row per sampled position (see :data:`Row`); with the task's last
    element true, per seat and round start, the flip decision (module docstring)."""
    seed, opponent, players, every, oracle, variants, flips = task
    state = scout.new_state({"players": players}, seed)
    bots = [make_bot("scout", opponent) for _ in range(players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    rows: list[Row] = []
    decision = 0
    at_flip: list[Any] | None = None  # the seats' views at the round's start
    while scout.outcome(state) is None:
        if flips and state.phase == FLIP_PHASE and all(f is None for f in state.flips):
            at_flip = [scout.view(state, s) for s in range(players)]
        if at_flip is not None and state.phase == PLAY_PHASE:
            for s, view in enumerate(at_flip):
                hand = state.hands[s]  # the seat's hand as dealt, the others' as they chose
                truth = with_hand(state, s, flipped(hand) if state.flips[s] else hand)
                row = position(truth, view, [Flip(False), Flip(True)], oracle, variants,
                               f"{seed}:{state.round}:{s}:flip")  # fmt: skip
                if row is not None:
                    rows.append(row)
            at_flip = None
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        view = scout.view(state, seat)
        if not flips and state.phase == PLAY_PHASE and len(legal) > 1 and view["log"]:
            if decision % every == 0:
                row = position(state, view, legal, oracle, variants, f"{seed}:{decision}")
                if row is not None:
                    rows.append(row)
            decision += 1
        state = scout.apply(state, seat, bots[seat].choose(view, legal, rngs[seat]))
    return rows


def kind(action: Any) -> str:
    """``Show``, ``Scout``, ``ScoutShow`` or ``Flip``."""
    return type(action).__name__


def position(
    state: scout.State,
    view: Any,
    legal: list[Any],
    oracle: dict[str, Any],
    variants: dict[str, dict[str, Any]],
    key: str,
) -> Row | None:
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
    row: Row = {"kind:oracle": kind(max(means, key=lambda a: means[a]))}
    for name, kwargs in variants.items():
        action = searcher(kwargs, state).choose(view, legal, random.Random(f"{key}:{name}"))
        row[name] = top - means[action] if action in means else None
        row[f"kind:{name}"] = kind(action)
    return row


def summary(rows: list[Row], names: list[str]) -> list[str]:
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


def by_kind(rows: list[Row], name: str) -> list[str]:
    """Where ``name``'s regret falls: one line per (kind chosen, kind the oracle valued best)
    with its positions, mean regret and share of ``name``'s whole regret, largest share first."""
    cells: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        if row[name] is not None:
            cells.setdefault((row[f"kind:{name}"], row["kind:oracle"]), []).append(row[name])
    total = sum(sum(v) for v in cells.values())
    lines = []
    for (chose, best), values in sorted(cells.items(), key=lambda kv: -sum(kv[1])):
        share = sum(values) / total if total else 0.0
        mean = statistics.fmean(values)
        lines.append(f"{name} chose {chose}, the oracle's best {best}: {len(values)} positions, "
                     f"regret {mean:.2f} a move, {share:.0%} of the whole")  # fmt: skip
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
    parser.add_argument("--flip", action="store_true", help="judge the flip decisions")
    parser.add_argument("--by-kind", action="store_true", help="where the first variant's "
                        "regret falls, by the kinds of move chosen and best")  # fmt: skip
    args = parser.parse_args(argv)
    variants = parse_variants(args.variants)
    oracle = {**json.loads(args.oracle), "iterations": args.oracle_iterations}
    Omniscient(**oracle)
    tasks: list[Task] = [
        (args.seed + g, args.opponent, args.players, max(1, args.every), oracle, variants,
         args.flip)
        for g in range(args.games)
    ]  # fmt: skip
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        rows = [row for game in pool.map(regrets, tasks) for row in game]
    what = "flip decisions" if args.flip else "positions"
    print(f"{len(rows)} {what} from {args.games} games of {args.players} × {args.opponent}; "
          f"oracle: {json.dumps(oracle)} on the true deal")  # fmt: skip
    for line in summary(rows, list(variants)):
        print(line)
    if args.by_kind:
        for line in by_kind(rows, next(iter(variants))):
            print(line)


if __name__ == "__main__":
    main()
