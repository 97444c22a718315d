"""Fit the price at which the SCOUT search's opponent model plays Scout & Show.

Inside its tree the search plays the opponents by a softmax over the tuned evaluation's scores
of their Shows and fitting Scouts (:mod:`parlour.bots.scout.opponent_model`); with
``ISMCTSBot(opponent_scout_show=price)`` their Scout & Shows join them, each scored less the
price (:func:`~parlour.bots.scout.opponent_model.scout_show_options`). This plays seeded games
of ``--players`` copies of ``--bot`` and, at every decision where the mover still holds its
Scout & Show and has one it could play, records the model's scores of its options and whether
the bot played Scout & Show. It then finds the price that makes those choices likeliest (the
probability the model gives all Scout & Shows together, over a grid of prices), on the games of
even seeds, and judges it on the odd ones against always guessing the fitted games' rate.

    python bench/fit_scout_show_price.py --games 20 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

from parlour.bots.levels import make_bot
from parlour.bots.scout.features import load_weights
from parlour.bots.scout.opponent_model import model_options, model_scores, scout_show_options
from parlour.games import scout
from parlour.games.scout import ScoutShow
from parlour.games.scout.state import PLAY_PHASE

Decision = tuple[list[float], list[float], bool]
"""The model's scores of the plain options, of the Scout & Shows (price 0), and whether the
bot played a Scout & Show."""


def play(args: tuple[str, int, int]) -> list[Decision]:
    """One seeded game: its decisions with a Scout & Show to play (see :data:`Decision`)."""
    bot_spec, players, seed = args
    bots = [make_bot("scout", bot_spec) for _ in range(players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    state = scout.new_state({"players": players}, seed)
    w = load_weights()
    found: list[Decision] = []
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        action = bots[seat].choose(scout.view(state, seat), legal, rngs[seat])
        if state.phase == PLAY_PHASE:
            shows = scout_show_options(state, seat, w)
            if shows:
                plain = model_scores(state, seat, model_options(state, seat), w)
                found.append((plain, [s for _, s in shows], type(action) is ScoutShow))
        state = scout.apply(state, seat, action)
    return found


def logsumexp(values: list[float]) -> float:
    """``log(sum(exp(v)))``, computed without overflow."""
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def spend_probability(decision: Decision, price: float) -> float:
    """The probability the model, with this price, gives the decision's Scout & Shows together."""
    plain, shows, _ = decision
    keep, spend = logsumexp(plain), logsumexp([s - price for s in shows])
    return math.exp(spend - logsumexp([keep, spend]))


def log_likelihood(decisions: list[Decision], price: float) -> float:
    """The log-probability, under the model with this price, that each decision was or was not
    a Scout & Show as the bot's was."""
    total = 0.0
    for decision in decisions:
        p = spend_probability(decision, price)
        total += math.log(max(p if decision[2] else 1 - p, 1e-12))
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="hard:it=650")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=31000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    tasks = [(args.bot, args.players, args.seed + g) for g in range(args.games)]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        games = list(pool.map(play, tasks))
    fit = [d for g, ds in enumerate(games) for d in ds if (args.seed + g) % 2 == 0]
    held = [d for g, ds in enumerate(games) for d in ds if (args.seed + g) % 2 == 1]
    rate = sum(d[2] for d in fit) / max(1, len(fit))
    rounds = args.games * args.players * (2 if args.players == 2 else args.players)  # S6
    used = sum(d[2] for ds in games for d in ds)
    print(f"{len(fit) + len(held)} decisions with a Scout & Show to play in {args.games} games "
          f"of {args.players} × {args.bot}; played at {rate:.1%} of the fitted ones; "
          f"Scout & Show used in {used} of {rounds} seat-rounds ({used / rounds:.0%})")  # fmt: skip
    grid = [i / 20 for i in range(0, 201)]
    price = max(grid, key=lambda c: log_likelihood(fit, c))
    n = max(1, len(held))
    constant = sum(math.log(rate if d[2] else 1 - rate) for d in held) if 0 < rate < 1 else 0.0
    model = log_likelihood(held, price)
    expected = sum(spend_probability(d, price) for d in held)
    played = sum(d[2] for d in held)
    print(f"price {price:.2f}; held-out ({len(held)} decisions): log-likelihood "
          f"{model / n:.3f} a decision (always {rate:.1%}: {constant / n:.3f}); "
          f"Scout & Shows played {played}, the model expects {expected:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
