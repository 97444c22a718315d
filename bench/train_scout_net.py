"""Train the SCOUT policy/value network (``parlour.bots.scout.net``) by self-play, numpy only.

The teacher is Hard's search (``ismcts:it=N``, ``--search-iterations``, default 650; its other
settings from ``--teacher``, e.g. Expert's ``'{"particles": 256, "inference": false}'``, or
``'{"omniscient": true}'``: an oracle, the search on the game's true deal, every hand seen): every
decision of the play phase of the self-play games is a training example whose policy target is
the search's visit counts over the legal actions, each raised to ``--target-power`` (default 4:
at these budgets the six actions at the search's root share the visits nearly evenly, and the
power puts most of the target on the move it plays), and whose value target is the win share
the seat reached at the end of the game; flip decisions are labelled by the softmax of the
tuned evaluation's (``eval``'s) scores ÷ ``--label-temp``. The seats that are not the network
play by drawing from those targets. Iteration 0 plays ``--imitation-games`` games without the
network; every later iteration ``--games`` new games in which each seat is, with probability
``--net-share``, the current network drawing from its own policy (its positions labelled by the
search too: DAgger). The examples go to a buffer of the last ``--buffer``, and the network takes
``--steps`` Adam steps on it. After each iteration the network plays greedily in one seat
against three ``heuristic`` and against three ``eval:0.15`` on ``--eval-deals`` duplicate deals,
and its losses and agreement (the share of decisions where its likeliest action is the
teacher's) on a fixed validation set of ``--validation-games`` games are measured; the curve is
written to ``--data`` (JSON) and the weights to ``--out`` (float16) after every iteration, so
the run can stop at any time (``--minutes`` stops it after the iteration that passes that
time). With ``--search-iterations 0`` the teacher is ``eval`` itself (every seat drawing from
the softmax of its scores ÷ ``--play-temp``, labelled by the softmax ÷ ``--label-temp``).

The network's policy adds ``ws`` × the evaluation's score to each legal action's logit (the
*evaluation skip*, ``net.SKIP``), learned with the rest from ``--eval-skip`` (default 2, about
the temperature that fits the search's sharpened visits best; 1 ÷ ``--label-temp`` for an
``eval`` teacher): the untrained network already ranks the moves as the evaluation does, and
its layers learn what to change in that ranking. ``--eval-skip 0`` trains without it.

Reproducible from ``--seed`` (deals, draws, initial weights; worker results are gathered in
order). ``make train-scout-net`` (``SEED=13 TRAIN_NET_ARGS="--iterations 9 --workers 2"``, the
shipped run); ``plots`` draws the curve (``make plots-scout-net``, needs the plots extra).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from parlour.bots.levels import make_bot
from parlour.bots.scout import codec
from parlour.bots.scout.features import EvalBot
from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.bots.scout.net import SKIP, WEIGHTS_FILE, Net, NetBot, encode
from parlour.cli.arena import play_game
from parlour.games.registry import get_game
from parlour.rl import net_train as nt

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scout_search_variants import Omniscient
from bench.scout_search_variants import searcher as make_searcher

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS_PATH = ROOT / "src/parlour/bots/scout" / WEIGHTS_FILE
DATA_PATH = ROOT / "docs/data/scout-net.json"
PLOT_PATH = ROOT / "docs/img/scout-net-curve.png"
PLAYERS = (4, 4, 4, 3, 3, 5, 2)
"""Player counts of the self-play games, drawn uniformly (4 players most often)."""
OPPONENTS = ("heuristic", "eval:0.15")


def _softmax(x: np.ndarray[Any, Any], temp: float) -> np.ndarray[Any, Any]:
    z = x / temp
    e = np.exp(z - z.max())
    return e / e.sum()  # type: ignore[no-any-return]


def play_selfplay(task: tuple[Any, ...]) -> nt.Batch:
    """Self-play games ``(params16 or None, seeds, net_share, label_temp, play_temp[,
    search_iterations[, target_power[, teacher]]])`` as training examples (see the module
    docstring); ``teacher``: the search's other settings (``ISMCTSBot`` keywords, or
    ``"omniscient": true``: the search on the game's true deal)."""
    params, seeds, net_share, label_temp, play_temp = task[:5]
    search_iterations = task[5] if len(task) > 5 else 0
    power = task[6] if len(task) > 6 else 1.0
    settings = task[7] if len(task) > 7 else {}
    net = Net(params) if params is not None else None
    spec = get_game("scout")
    teacher = EvalBot()
    searcher = None
    if search_iterations:
        searcher = make_searcher({**settings, "iterations": search_iterations}, None)
    obs, masks, targets, values, all_scores = [], [], [], [], []
    for seed in seeds:
        rng = random.Random(seed)
        players = rng.choice(PLAYERS)
        is_net = [net is not None and rng.random() < net_share for _ in range(players)]
        state = spec.new_state({"players": players}, seed)
        seats = []
        while spec.outcome(state) is None:
            seat = spec.to_act(state)[0]
            legal = spec.legal_actions(state, seat)
            view = spec.view(state, seat)
            index = np.fromiter(map(codec.action_index, legal), np.intp, len(legal))
            x = encode(view, index, codec.observe(state, seat))
            scores = np.array([teacher.score(view, a) for a in legal], np.float64)
            scored = np.zeros(codec.N_ACTIONS, np.float16)
            scored[index] = scores
            target = np.zeros(codec.N_ACTIONS, np.float16)
            searched = None
            if searcher is not None and view["phase"] == "play" and len(legal) > 1:
                # drawn from the game's seed and its move number: the same whatever the chunking
                move_rng = random.Random(f"{seed}:{len(seats)}")
                if isinstance(searcher, Omniscient):
                    searcher.truth = state  # the oracle: every hand seen
                searched = search_policy(searcher, view, legal, move_rng, power)
                target[index] = searched
            else:
                target[index] = _softmax(scores, label_temp)
            if is_net[seat] and net is not None:
                logits, _ = net.logits_value(x, index, scores.astype(np.float32))
                probs = _softmax(logits.astype(np.float64), 1.0)
            elif searched is not None:
                probs = searched
            else:
                probs = _softmax(scores, play_temp)
            choice = int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum()))
            obs.append(x.astype(np.float16))
            masks.append(codec.mask_of(index).astype(np.uint8))
            targets.append(target)
            all_scores.append(scored)
            seats.append(seat)
            state = spec.apply(state, seat, legal[min(choice, len(legal) - 1)], 0)
        winners = spec.outcome(state)["winners"]
        values += [1.0 / len(winners) if s in winners else 0.0 for s in seats]
    return nt.Batch(np.stack(obs), np.stack(masks), np.stack(targets), np.array(values, np.float32),
                    np.stack(all_scores))  # fmt: skip


def _settings(text: str) -> dict[str, Any]:
    """``--teacher``'s JSON: an object of ``ISMCTSBot`` keywords, or ``"omniscient": true``
    (the search on the true deal), checked by making the search."""
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(settings, dict):
        raise argparse.ArgumentTypeError("a JSON object of search settings")
    if "iterations" in settings:
        raise argparse.ArgumentTypeError("the teacher's iterations are --search-iterations")
    try:
        make_searcher({**settings, "iterations": 1}, None)
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return settings


def search_policy(
    searcher: ISMCTSBot, view: Any, legal: list[Any], rng: random.Random, power: float = 1.0
) -> np.ndarray[Any, Any]:
    """The search's visit shares over ``legal``, each visit count raised to ``power`` first (a
    power above 1 sharpens them towards the move the search plays; one-hot on its move when it
    did not search: a Show that empties the hand)."""
    move = searcher.choose(view, legal, rng)
    visits = np.array([searcher.last_visits.get(a, 0) for a in legal], np.float64) ** power
    if visits.sum() == 0:
        visits[legal.index(move)] = 1.0
    return visits / visits.sum()  # type: ignore[no-any-return]


def concat(parts: list[nt.Batch]) -> nt.Batch:
    """The examples of several batches, in order."""
    scores = [p.scores for p in parts]
    return nt.Batch(
        np.concatenate([p.obs for p in parts]),
        np.concatenate([p.mask for p in parts]),
        np.concatenate([p.target for p in parts]),
        np.concatenate([p.value for p in parts]),
        None if any(s is None for s in scores) else np.concatenate(scores),  # type: ignore[arg-type]
    )


def tail(data: nt.Batch, size: int) -> nt.Batch:
    """The last ``size`` examples."""
    return data.take(slice(-size, None))


def play_eval(task: tuple[Any, str, list[tuple[int, int]]]) -> list[tuple[float, float]]:
    """The greedy network in one seat against three of ``opponent``: per ``(deal, rotation)``
    its win share and score difference against the others' mean."""
    params, opponent, games = task
    net = Net(params)
    out = []
    for deal, rotation in games:
        bots = [NetBot(net=net)] + [make_bot("scout", opponent) for _ in range(3)]
        result = play_game("scout", 4, ["net", *[opponent] * 3], deal, rotation, bots=bots)
        others = result.scores[1:]
        out.append((result.win_share[0], result.scores[0] - sum(others) / len(others)))
    return out


def chunks(items: list[Any], n: int) -> list[list[Any]]:
    """``items`` split into ``n`` nearly equal runs, in order (empty runs dropped)."""
    size = math.ceil(len(items) / max(1, n))
    return [items[i : i + size] for i in range(0, len(items), size)] if items else []


class Runner:
    """Runs tasks in this process or in a pool, results in task order."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers) if workers > 1 else None

    def map(self, fn: Any, tasks: list[Any]) -> list[Any]:
        if self.pool is None:
            return [fn(t) for t in tasks]
        return list(self.pool.map(fn, tasks))


def rounded(params: nt.Params) -> dict[str, np.ndarray[Any, Any]]:
    """The weights as shipped (float16)."""
    return {k: v.astype(np.float16) for k, v in params.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    plots = sub.add_parser("plots", help="draw the learning curve from --data")
    plots.add_argument("--data", type=Path, default=DATA_PATH)
    plots.add_argument("--out", type=Path, default=PLOT_PATH)
    a = parser.add_argument
    a("--seed", type=int, default=11)
    a("--iterations", type=int, default=30)
    a("--minutes", type=float, default=0.0, help="stop after the iteration passing this time")
    a("--imitation-games", type=int, default=150, help="the first iteration's games")
    a("--games", type=int, default=100, help="self-play games per later iteration")
    a("--validation-games", type=int, default=20)
    a("--net-share", type=float, default=0.5)
    a("--label-temp", type=float, default=0.1)
    a("--play-temp", type=float, default=0.2)
    a(
        "--search-iterations",
        type=int,
        default=650,
        help="label (and play the non-network seats) by ismcts:it=N's visit shares; 0: by eval",
    )
    a(
        "--target-power",
        type=float,
        default=4.0,
        help="with --search-iterations: the search's visit counts raised to this power",
    )
    a(
        "--teacher",
        type=_settings,
        default={},
        help='the search\'s other settings as JSON, e.g. \'{"particles": 256, "inference": false}\''
        " (Expert's) or '{\"omniscient\": true}' (the search on the true deal, every hand seen)",
    )
    a("--steps", type=int, default=500, help="Adam steps per iteration")
    a("--batch", type=int, default=256)
    a("--lr", type=float, default=1e-3)
    a("--value-weight", type=float, default=0.5)
    a("--hidden", type=int, nargs=2, default=(128, 128))
    a("--eval-skip", type=float, default=2.0, help="the skip's start (0: no skip)")
    a("--buffer", type=int, default=120_000)
    a("--eval-deals", type=int, default=12, help="duplicate deals per opponent per iteration")
    a("--workers", type=int, default=1)
    a("--out", type=Path, default=WEIGHTS_PATH)
    a("--data", type=Path, default=DATA_PATH)
    args = parser.parse_args(argv)
    if args.command == "plots":
        return draw(args.data, args.out)
    return train(args)


def train(args: argparse.Namespace) -> int:
    """The training run described in the module docstring."""
    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    params = nt.init_params(rng, tuple(args.hidden), args.eval_skip)
    opt = nt.Adam(lr=args.lr)
    runner = Runner(args.workers)
    base = args.seed * 1_000_000
    split = args.workers * 2
    validation = concat(
        runner.map(
            play_selfplay,
            [
                (
                    None,
                    c,
                    0.0,
                    args.label_temp,
                    args.play_temp,
                    args.search_iterations,
                    args.target_power,
                    args.teacher,
                )
                for c in chunks(list(range(base, base + args.validation_games)), split)
            ],
        )
    )
    eval_games = [(base + 900_000 + d, r) for d in range(args.eval_deals) for r in range(4)]
    buffer: nt.Batch | None = None
    curve: list[dict[str, Any]] = []
    next_seed = base + 1000
    games_played = 0
    for iteration in range(args.iterations):
        count = args.imitation_games if iteration == 0 else args.games
        seeds = list(range(next_seed, next_seed + count))
        next_seed += count
        shipped = rounded(params) if iteration else None
        share = args.net_share if iteration else 0.0
        tasks = [
            (
                shipped,
                c,
                share,
                args.label_temp,
                args.play_temp,
                args.search_iterations,
                args.target_power,
                args.teacher,
            )
            for c in chunks(seeds, split)
        ]
        fresh = concat(runner.map(play_selfplay, tasks))
        games_played += count
        buffer = fresh if buffer is None else tail(concat([buffer, fresh]), args.buffer)
        history = nt.train_steps(
            params, buffer, args.steps, opt, rng, args.batch, args.value_weight
        )
        shipped = rounded(params)
        held = nt.evaluate_loss(
            {k: v.astype(np.float32) for k, v in shipped.items()}, validation, args.value_weight
        )
        row: dict[str, Any] = {
            "iteration": iteration,
            "games": games_played,
            "examples": int(buffer.obs.shape[0]),
            "train_policy_loss": float(np.mean([h["policy"] for h in history[-200:]])),
            "train_value_loss": float(np.mean([h["value"] for h in history[-200:]])),
            "validation_policy_loss": held["policy"],
            "validation_value_loss": held["value"],
            "validation_agreement": nt.agreement(
                {k: v.astype(np.float32) for k, v in shipped.items()}, validation
            ),
            "eval_skip": float(params[SKIP][0]),
        }
        for opponent in OPPONENTS:
            results = runner.map(
                play_eval, [(shipped, opponent, c) for c in chunks(eval_games, split)]
            )
            flat = [r for part in results for r in part]
            row[f"win_vs_{opponent}"] = float(np.mean([w for w, _ in flat]))
            row[f"diff_vs_{opponent}"] = float(np.mean([d for _, d in flat]))
            row["eval_games"] = len(flat)
        row["minutes"] = round((time.perf_counter() - start) / 60, 2)
        curve.append(row)
        print(json.dumps(row), flush=True)
        command = "python bench/train_scout_net.py " + " ".join(sys.argv[1:])
        nt.save(params, args.out, command=command, iterations=iteration + 1, minutes=row["minutes"])
        args.data.parent.mkdir(parents=True, exist_ok=True)
        args.data.write_text(
            json.dumps({"command": command, "seed": args.seed, "curve": curve}, indent=1) + "\n"
        )
        if args.minutes and row["minutes"] >= args.minutes:
            break
    return 0


def draw(data: Path, out: Path) -> int:
    """The learning curve (losses and win rates per iteration) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = json.loads(data.read_text())["curve"]
    x = [row["games"] for row in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 3.6))
    left.plot(x, [r["validation_policy_loss"] for r in curve], "o-", label="policy (validation)")
    left.plot(x, [r["train_policy_loss"] for r in curve], ".--", label="policy (training)")
    left.plot(x, [r["validation_value_loss"] for r in curve], "s-", label="value (validation)")
    left.set_xlabel("self-play games")
    left.set_ylabel("cross-entropy")
    left.legend(fontsize=8)
    for opponent in OPPONENTS:
        right.plot(
            x, [100 * r[f"win_vs_{opponent}"] for r in curve], "o-", label=f"vs 3 {opponent}"
        )
    if all("validation_agreement" in r for r in curve):
        right.plot(x, [100 * r["validation_agreement"] for r in curve], "s--",
                   label="agreement with its teacher (held out)")  # fmt: skip
    right.axhline(25, color="grey", lw=0.8, ls=":")
    right.set_xlabel("self-play games")
    right.set_ylabel("net's win rate, 4 players; agreement (%)")
    right.legend(fontsize=8)
    fig.suptitle("SCOUT network: learning curve")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
