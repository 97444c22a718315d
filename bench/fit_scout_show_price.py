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
from parlour.bots.scout.features import load_weights, plain_scores
from parlour.bots.scout.opponent_model import model_options, scout_show_options
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
                hands = state.hands
                options = model_options(state, seat)
                plain = plain_scores([c[0] for c in hands[seat]], state.active,
                                     [len(h) for i, h in enumerate(hands) if i != seat], 1.0,
                                     state.scouts + 1 >= players - 1, options, w)  # fmt: skip
                found.append((plain, [s for _, s in shows], type(action) is ScoutShow))
        state = scout.apply(state, seat, action)
    return found


def logsumexp(values: list[float]) -> float:
    """``log(sum(exp(v)))``, computed without overflow."""
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def log_likelihood(decisions: list[Decision], price: float) -> float:
    """The log-probability, under the model with this price, that each decision was or was not
    a Scout & Show as the bot's was."""
    total = 0.0
    for plain, shows, played in decisions:
        keep, spend = logsumexp(plain), logsumexp([s - price for s in shows])
        p = math.exp(spend - logsumexp([keep, spend]))
        total += math.log(max(p if played else 1 - p, 1e-12))
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
    expected = sum(
        math.exp(logsumexp([s - price for s in d[1]])
                 - logsumexp([logsumexp(d[0]), logsumexp([s - price for s in d[1]])]))
        for d in held
    )  # fmt: skip
    played = sum(d[2] for d in held)
    print(f"price {price:.2f}; held-out ({len(held)} decisions): log-likelihood "
          f"{model / n:.3f} a decision (always {rate:.1%}: {constant / n:.3f}); "
          f"Scout & Shows played {played}, the model expects {expected:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
