"""Screen variants of the SCOUT search (``ismcts``) in duplicate-deal games against three bots.

Each variant is ``name=JSON`` with keyword arguments of ``ISMCTSBot`` (``iterations`` among
them), played with the first-move Scout & Show restraint (as the levels are) in one seat against
three ``--opponent`` bots; every variant plays the same deals (each deal once per seat). Prints
per variant: games, win rate with its 95 % Wilson interval, and the mean score difference
against the other seats with its standard error.

    python bench/scout_search_variants.py --deals 10 --workers 2 \\
        'base={"iterations": 650}' 'short={"iterations": 650, "plies": 8}'

``--last-round``: the game's rounds but the last are played once per deal by four of the
``--opponent`` bots (the same standings for every variant and seat), then each variant plays
the last round from them; it reports the share of games won and the last round's points minus
the others' mean: the screen for ``"objective": "win"``, which only changes the last round.

A diagnostic, with ``--round`` only: ``"omniscient": true`` among a variant's settings makes it
search the true deal in the play phase instead of sampled ones (it sees every hand: the most any
inference could give the search).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from parlour.bots.base import Bot
from parlour.bots.levels import make_bot
from parlour.bots.scout.human import HumanLike
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.cli.arena import play_game
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class Omniscient(ISMCTSBot):
    """The search on the true deal (``truth``, set before each move) in the play phase: a
    diagnostic, never a player. At a flip decision it searches ``truth`` only if that is the
    round's play-phase state with the seat's hand as dealt (every other seat's orientation
    already chosen)."""

    truth: scout.State | None = None

    def sample(
        self, view: Any, rng: random.Random, start: float
    ) -> tuple[list[scout.State], list[float]]:
        if self.truth is None or self.truth.phase != PLAY_PHASE:
            return super().sample(view, rng, start)
        deal = self.truth.clone()
        deal.results = ()  # the search ends its playouts when the round's result appears
        return [deal], [1.0]


def parse_variants(specs: list[str]) -> dict[str, dict[str, Any]]:
    """``name={keyword arguments as JSON}`` specs by name; a bad keyword fails here, before
    any game (``"omniscient"`` is allowed: see :func:`searcher`)."""
    variants: dict[str, dict[str, Any]] = {}
    for spec in specs:
        name, _, kwargs = spec.partition("=")
        variants[name] = json.loads(kwargs or "{}")
        searcher(variants[name], None)
    return variants


def searcher(kwargs: dict[str, Any], truth: scout.State | None) -> ISMCTSBot:
    """The variant's search: :class:`Omniscient` (shown ``truth``) when its settings say
    ``"omniscient": true``, else :class:`ISMCTSBot`."""
    settings = dict(kwargs)
    if settings.pop("omniscient", False):
        bot = Omniscient(**settings)
        bot.truth = truth
        return bot
    return ISMCTSBot(**settings)


def first_round(
    bots: list[Bot], players: int, deal: int, rotation: int, omniscient: Omniscient | None = None
) -> tuple[float, float]:
    """Only the first round of a game (lineup entry ``i`` in seat ``(i + rotation) %
    players``): entry 0's share of the round's best points and its points minus the others'
    mean. ``omniscient``: entry 0's search, shown the true state before each of its moves."""
    state = scout.new_state({"players": players}, deal)
    seats = [(i + rotation) % players for i in range(players)]
    by_seat = {seat: i for i, seat in enumerate(seats)}
    rngs = [random.Random(f"{deal}:{rotation}:{i}") for i in range(players)]
    while not state.results:
        seat = scout.to_act(state)[0]
        entry = by_seat[seat]
        legal = scout.legal_actions(state, seat)
        if omniscient is not None and entry == 0:
            omniscient.truth = state if state.phase == PLAY_PHASE else None
        state = scout.apply(
            state, seat, bots[entry].choose(scout.view(state, seat), legal, rngs[entry])
        )
    points = [s.points for s in state.results[0].seats]
    mine = points[seats[0]]
    best = [i for i, p in enumerate(points) if p == max(points)]
    others = [p for i, p in enumerate(points) if i != seats[0]]
    share = 1 / len(best) if seats[0] in best else 0.0
    return share, mine - statistics.fmean(others)


def before_last_round(args: tuple[str, int, int]) -> scout.State:
    """Deal ``deal``'s game played by ``players`` ``opponent`` bots up to its last round."""
    opponent, players, deal = args
    state = scout.new_state({"players": players}, deal)
    bots = [make_bot("scout", opponent) for _ in range(players)]
    rngs = [random.Random(f"{deal}:prefix:{i}") for i in range(players)]
    while state.round < state.options.rounds - 1:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        action = bots[seat].choose(scout.view(state, seat), legal, rngs[seat])
        state = scout.apply(state, seat, action)
    return state


def last_round(
    bots: list[Bot], state: scout.State, deal: int, rotation: int
) -> tuple[float, float]:
    """The last round from ``state`` (lineup entry ``i`` in seat ``(i + rotation) % players``):
    entry 0's share of the game's win and its last round's points minus the others' mean."""
    players = len(state.hands)
    seats = [(i + rotation) % players for i in range(players)]
    by_seat = {seat: i for i, seat in enumerate(seats)}
    rngs = [random.Random(f"{deal}:{rotation}:{i}:last") for i in range(players)]
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        entry = by_seat[seat]
        legal = scout.legal_actions(state, seat)
        state = scout.apply(
            state, seat, bots[entry].choose(scout.view(state, seat), legal, rngs[entry])
        )
    result = scout.outcome(state)
    assert result is not None
    winners = result["winners"]
    share = 1 / len(winners) if seats[0] in winners else 0.0
    points = [s.points for s in state.results[-1].seats]
    others = [p for i, p in enumerate(points) if i != seats[0]]
    return share, points[seats[0]] - statistics.fmean(others)


def task(
    args: tuple[str, dict[str, Any], str, int, int, int, bool | scout.State],
) -> tuple[str, float, float]:
    """One game (or its first round, or its last from a given state): (variant, its win share,
    its score minus the others' mean)."""
    name, kwargs, opponent, players, deal, rotation, round_only = args
    search = searcher(kwargs, None)
    bots: list[Bot] = [HumanLike(search)]
    bots += [make_bot("scout", opponent) for _ in range(players - 1)]
    if isinstance(round_only, scout.State):
        share, diff = last_round(bots, round_only, deal, rotation)
        return name, share, diff
    if round_only:
        omniscient = search if isinstance(search, Omniscient) else None
        share, diff = first_round(bots, players, deal, rotation, omniscient)
        return name, share, diff
    lineup = [name] + [f"{opponent}#{i}" for i in range(players - 1)]
    result = play_game("scout", players, lineup, deal, rotation, bots=bots)
    others = statistics.fmean(result.scores[1:])
    return name, result.win_share[0], result.scores[0] - others


def paired(a: list[float], b: list[float]) -> str:
    """The mean difference of paired samples (same deal and seat) with its standard error."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    return f"{statistics.fmean(d):+.2f} ± {statistics.stdev(d) / math.sqrt(len(d)):.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help='name=JSON, e.g. base={"iterations": 650}')
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--round", action="store_true", help="play only each deal's first round (cheaper)"
    )
    parser.add_argument(
        "--last-round",
        action="store_true",
        help="play the rounds before the last by --opponent bots, then each variant the last",
    )
    args = parser.parse_args(argv)
    if args.round and args.last_round:
        parser.error("--round and --last-round exclude each other")
    variants = parse_variants(args.variants)
    if any(kw.get("omniscient") for kw in variants.values()) and not args.round:
        parser.error("an omniscient variant plays first rounds only (--round)")
    deals = [args.seed + d for d in range(args.deals)]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        mode: list[bool | scout.State] = [args.round] * len(deals)
        if args.last_round:
            mode = list(pool.map(before_last_round,
                                 [(args.opponent, args.players, d) for d in deals]))  # fmt: skip
        tasks = [
            (name, kw, args.opponent, args.players, deal, r, mode[i])
            for i, deal in enumerate(deals)
            for r in range(args.players)
            for name, kw in variants.items()
        ]
        results = list(pool.map(task, tasks, chunksize=1))
    wins: dict[str, list[float]] = {n: [] for n in variants}
    diffs: dict[str, list[float]] = {n: [] for n in variants}
    for name, win, diff in results:  # in task order: paired by deal and seat
        wins[name].append(win)
        diffs[name].append(diff)
    first = next(iter(variants))
    for name in variants:
        n = len(wins[name])
        low, high = wilson(sum(wins[name]), n)
        se = statistics.stdev(diffs[name]) / math.sqrt(n) if n > 1 else float("nan")
        print(
            f"{name}: {n} games vs {args.players - 1} × {args.opponent}, "
            f"wins {sum(wins[name]) / n:.1%} "
            f"({low:.1%}–{high:.1%}), score diff {statistics.fmean(diffs[name]):+.2f} ± {se:.2f}"
            + (f"; paired vs {first}: {paired(diffs[name], diffs[first])}" if name != first else "")
        )


if __name__ == "__main__":
    main()
