"""Fit the SCOUT search's opponent model to the moves of given opponents.

The search plays opponents inside its tree by a softmax over the tuned evaluation's scores of
their Shows and fitting Scouts (:mod:`parlour.bots.scout.opponent_model`). Those weights were
tuned to *play* well, not to *predict* a player. ``data`` plays seeded games of ``--players``
copies of ``--bot`` (default ``hard:it=650``) and records, at every play-phase decision, the
evaluation's feature vector (:func:`parlour.bots.scout.features.features`) of each option the
model weighs (:func:`~parlour.bots.scout.opponent_model.model_options`) and which one the bot
chose (decisions outside those options — a Scout & Show, a Scout that fits nowhere — are
counted and left out). ``fit`` finds the weights of the softmax (temperature 1) that make the
bots' choices likeliest (a conditional logit, Newton's method, fitted on the games of even
seeds, judged on the odd ones against the shipped weights at the temperatures the search can
use) and writes them as JSON in the form of the package's ``scout_model.json``
(``ISMCTSBot(opponent_model="fitted")``; a screen can give them as ``model_weights``).

    python bench/fit_scout_model.py data --games 130 --workers 2 --out /tmp/m4.npz
    python bench/fit_scout_model.py fit /tmp/m4.npz --out src/parlour/bots/scout/scout_model.json
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
from parlour.bots.scout.features import FEATURES, features, load_weights
from parlour.bots.scout.opponent_model import model_options
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE


def play(args: tuple[str, int, int]) -> dict[str, Any]:
    """One game: per decision the options' feature rows, the chosen row, the seed."""
    bot_spec, players, seed = args
    bots = [make_bot("scout", bot_spec) for _ in range(players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    state = scout.new_state({"players": players}, seed)
    rows: list[list[float]] = []
    sizes: list[int] = []
    chosen: list[int] = []
    outside = 0
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        view = scout.view(state, seat)
        legal = scout.legal_actions(state, seat)
        action = bots[seat].choose(view, legal, rngs[seat])
        if state.phase == PLAY_PHASE and len(legal) > 1:
            options = model_options(state, seat)
            if action in options and len(options) > 1:
                rows.extend(features(view, a) for a in options)
                sizes.append(len(options))
                chosen.append(options.index(action))
            else:
                outside += 1
        state = scout.apply(state, seat, action, 0)
    return {"seed": seed, "rows": rows, "sizes": sizes, "chosen": chosen, "outside": outside}


def data(ns: argparse.Namespace) -> None:
    jobs = [(ns.bot, ns.players, ns.seed + g) for g in range(ns.games)]
    rows: list[list[float]] = []
    sizes: list[int] = []
    chosen: list[int] = []
    seeds: list[int] = []
    outside = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(ns.workers) as pool:
        for done, game in enumerate(pool.map(play, jobs), 1):
            rows.extend(game["rows"])
            sizes.extend(game["sizes"])
            chosen.extend(game["chosen"])
            seeds.extend([game["seed"]] * len(game["sizes"]))
            outside += game["outside"]
            if done % 10 == 0 or done == ns.games:
                seconds = time.perf_counter() - start
                note = f"{len(sizes)} decisions ({outside} outside the model's options)"
                print(f"{done}/{ns.games} games, {note}, {seconds:.0f} s", file=sys.stderr,
                      flush=True)  # fmt: skip
                np.savez_compressed(
                    ns.out, rows=np.asarray(rows, dtype=np.float64), sizes=np.asarray(sizes),
                    chosen=np.asarray(chosen), seed=np.asarray(seeds), outside=outside,
                )  # fmt: skip


class Decisions:
    """Decisions as one matrix of option rows, split by ``sizes``."""

    def __init__(self, rows: np.ndarray, sizes: np.ndarray, chosen: np.ndarray) -> None:
        self.rows = rows
        self.sizes = sizes
        self.starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.group = np.repeat(np.arange(len(sizes)), sizes)
        self.picked = rows[self.starts + chosen]

    def probabilities(self, w: np.ndarray) -> tuple[np.ndarray, float]:
        """Each option's probability and the total log-likelihood of the choices."""
        scores = self.rows @ w
        top = np.maximum.reduceat(scores, self.starts)
        e = np.exp(scores - top[self.group])
        z = np.add.reduceat(e, self.starts)
        p = e / z[self.group]
        loglik = float((self.picked @ w - top - np.log(z)).sum())
        return p, loglik

    def log_likelihood(self, w: np.ndarray) -> float:
        return self.probabilities(w)[1]


def newton(d: Decisions, l2: float, steps: int = 50) -> np.ndarray:
    """The weights maximising the log-likelihood minus ``l2`` × |w|² (Newton with halving)."""
    k = d.rows.shape[1]
    w = np.zeros(k)
    for _ in range(steps):
        p, loglik = d.probabilities(w)
        mean = np.zeros((len(d.sizes), k))
        np.add.at(mean, d.group, p[:, None] * d.rows)
        grad = (d.picked - mean).sum(axis=0) - 2 * l2 * w
        centred = d.rows - mean[d.group]
        hess = -(centred * p[:, None]).T @ centred - 2 * l2 * np.eye(k)
        step = np.linalg.solve(hess, -grad)
        objective = loglik - l2 * float(w @ w)
        t = 1.0
        while t > 1e-6:
            trial = w + t * step
            if d.log_likelihood(trial) - l2 * float(trial @ trial) >= objective - 1e-9:
                break
            t /= 2
        w = w + t * step
        if float(np.abs(t * step).max()) < 1e-8:
            break
    return w


def fit(ns: argparse.Namespace) -> None:
    d = np.load(ns.file)
    rows, sizes, chosen, seeds = d["rows"], d["sizes"], d["chosen"], d["seed"]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    train = seeds % 2 == 0

    def subset(mask: np.ndarray) -> Decisions:
        index = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in np.flatnonzero(mask)])
        return Decisions(rows[index], sizes[mask], chosen[mask])

    tr, te = subset(train), subset(~train)
    games, outside = len(set(seeds.tolist())), int(d["outside"])
    print(f"{ns.file}: {int(train.sum())} training and {int((~train).sum())} held-out "
          f"decisions ({games} games, {outside} outside the options)")  # fmt: skip
    shipped = np.asarray(load_weights())
    shipped_per = te.log_likelihood(shipped) / len(te.sizes)
    for t in (0.5, 0.75, 1.0, 1.5):
        per = te.log_likelihood(shipped / t) / len(te.sizes)
        print(f"  shipped weights at T={t}: held-out log-likelihood {per:.3f} a decision")
    uniform = -float(np.log(te.sizes).mean())
    print(f"  uniform over the options: {uniform:.3f} a decision")
    best = None
    for l2 in ns.l2:
        w = newton(tr, l2)
        per = te.log_likelihood(w) / len(te.sizes)
        train_per = tr.log_likelihood(w) / len(tr.sizes)
        print(f"  fitted, l2={l2}: held-out {per:.3f} a decision (training {train_per:.3f})")
        if best is None or per > best[0]:
            best = (per, l2, w)
    assert best is not None
    _, l2, w = best
    for name, v, s in zip(FEATURES, w, shipped, strict=True):
        print(f"    {name:14s} fitted {v:+8.3f}   shipped {s:+8.3f}")
    if ns.out:
        about = (
            f"Weights of the SCOUT search's opponent model, fitted by bench/fit_scout_model.py "
            f"(l2={l2}) to {len(tr.sizes)} decisions; held-out log-likelihood {best[0]:.3f} a "
            f"decision on {len(te.sizes)} others (the evaluation's weights at T=1: "
            f"{shipped_per:.3f})."
        )
        weights = {name: round(float(v), 5) for name, v in zip(FEATURES, w, strict=True)}
        with open(ns.out, "w", encoding="utf-8") as f:
            json.dump({"about": about, "weights": weights}, f, indent=2)
            f.write("\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("data")
    p.add_argument("--bot", default="hard:it=650")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=20000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True)
    p.set_defaults(run=data)
    f = sub.add_parser("fit")
    f.add_argument("file")
    f.add_argument("--l2", type=float, nargs="+", default=[0.01, 0.1, 1.0, 10.0])
    f.add_argument("--out")
    f.set_defaults(run=fit)
    ns = parser.parse_args(argv)
    ns.run(ns)


if __name__ == "__main__":
    main()
