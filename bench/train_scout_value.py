"""Fit a leaf value for the SCOUT search (:mod:`parlour.bots.scout.value`) to searching bots' games.

``data``: plays seeded games of four ``--bot`` (default ``hard:it=300``) and records, at every
play-phase decision, :func:`~parlour.bots.scout.value.seat_features` of every seat, the points
every seat made at the round's end, and — to judge the value against what the search uses now —
the mover's value of one fast playout and the mean of ``--playouts`` playouts from the true
position. ``fit``: least squares per number of players on the games of even seeds, judged on
the odd ones (how well each predicts the mover's round points minus the others' mean), and
writes the weights.

    python bench/train_scout_value.py data --games 400 --players 4 --workers 2 --out /tmp/v4.npz
    python bench/train_scout_value.py fit /tmp/v4.npz --out /tmp/value.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from parlour.bots.levels import make_bot
from parlour.bots.scout.search import play_round_out
from parlour.bots.scout.value import VALUE_FEATURES, LeafValue, seat_features
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE


def play(args: tuple[str, int, int, int]) -> dict[str, Any]:
    """One game: per play-phase decision the seats' features, the round's points, the mover,
    one playout's value and the mean of ``playouts`` for the mover."""
    bot_spec, players, seed, playouts = args
    bots = [make_bot("scout", bot_spec) for _ in range(players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    probe = random.Random(f"probe:{seed}")
    state = scout.new_state({"players": players}, seed)
    feats: list[list[list[float]]] = []
    movers: list[int] = []
    rounds: list[int] = []
    one: list[float] = []
    many: list[float] = []
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        if state.phase == PLAY_PHASE:
            feats.append([seat_features(state, s) for s in range(players)])
            movers.append(seat)
            rounds.append(len(state.results))
            position = state.clone()
            position.results = ()
            values = [play_round_out(position, seat, probe) for _ in range(playouts)]
            one.append(values[0])
            many.append(sum(values) / len(values))
        action = bots[seat].choose(scout.view(state, seat), scout.legal_actions(state, seat),
                                   rngs[seat])  # fmt: skip
        state = scout.apply(state, seat, action, 0)
    points = [[float(s.points) for s in state.results[r].seats] for r in rounds]
    return {"seed": seed, "x": feats, "y": points, "mover": movers, "one": one, "many": many}


def data(ns: argparse.Namespace) -> None:
    jobs = [(ns.bot, ns.players, ns.seed + g, ns.playouts) for g in range(ns.games)]
    out: dict[str, list[Any]] = {"x": [], "y": [], "mover": [], "one": [], "many": [], "seed": []}
    start = time.perf_counter()
    with ProcessPoolExecutor(ns.workers) as pool:
        for done, game in enumerate(pool.map(play, jobs), 1):
            for key in ("x", "y", "mover", "one", "many"):
                out[key].extend(game[key])
            out["seed"].extend([game["seed"]] * len(game["mover"]))
            if done % 10 == 0 or done == ns.games:
                seconds = time.perf_counter() - start
                print(f"{done}/{ns.games} games, {len(out['mover'])} positions, {seconds:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
                np.savez_compressed(ns.out, **{k: np.asarray(v) for k, v in out.items()})


def diff(points: np.ndarray, mover: np.ndarray) -> np.ndarray:
    """The mover's points minus the other seats' mean, per row of ``points`` (rows × seats)."""
    n = points.shape[1]
    own = points[np.arange(len(mover)), mover]
    return own - (points.sum(axis=1) - own) / (n - 1)


def fit(ns: argparse.Namespace) -> None:
    weights: dict[int, list[float]] = {}
    for path in ns.files:
        d = np.load(path)
        x, y, mover, seeds = d["x"], d["y"], d["mover"], d["seed"]
        players = x.shape[1]
        train = seeds % 2 == 0
        a = x[train].reshape(-1, x.shape[2])
        b = y[train].reshape(-1)
        w, *_ = np.linalg.lstsq(a, b, rcond=None)
        weights[players] = [float(v) for v in w]
        test = ~train
        truth = diff(y[test], mover[test])
        pred = diff(x[test] @ w, mover[test])
        print(f"{path}: {players} players, {int(train.sum())} training and {int(test.sum())} "
              f"held-out positions ({len(set(seeds.tolist()))} games)")  # fmt: skip
        rows = [("learned value", pred), ("one playout", d["one"][test]),
                ("mean of the playouts", d["many"][test])]  # fmt: skip
        for lam in (0.25, 0.5, 0.75):
            rows.append((f"{lam} × learned + {1 - lam} × one playout",
                         lam * pred + (1 - lam) * d["one"][test]))  # fmt: skip
        print(f"  variance of the truth {truth.var():.2f}")
        for name, guess in rows:
            err = float(((guess - truth) ** 2).mean())
            corr = float(np.corrcoef(guess, truth)[0, 1])
            print(f"  {name:40s} mean squared error {err:6.2f}   correlation {corr:.3f}")
        for name, v in zip(VALUE_FEATURES, w, strict=True):
            print(f"    {name:14s} {v:+.3f}")
    if ns.out:
        with open(ns.out, "w", encoding="utf-8") as f:
            json.dump(LeafValue(weights).to_json(), f, indent=1)
            f.write("\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("data")
    p.add_argument("--bot", default="hard:it=300")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--playouts", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True)
    p.set_defaults(run=data)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--out")
    f.set_defaults(run=fit)
    ns = parser.parse_args(argv)
    ns.run(ns)


if __name__ == "__main__":
    main()
