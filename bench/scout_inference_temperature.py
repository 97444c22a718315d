"""How well the SCOUT search's opponent model fits given opponents, by its temperature.

Plays ``--games`` seeded games of ``--players`` copies of ``--bot`` and, from seat 0's last
view of each round, sums the log-likelihood of the other seats' moves of that round given their
true hands (:func:`parlour.bots.scout.inference.log_likelihood`, the inference's softmax over the
evaluation's scores) at each temperature. The temperature with the highest sum is the model's
maximum-likelihood temperature for those opponents: below it the model trusts their moves too
much, above it too little.

    python bench/scout_inference_temperature.py --bot hard:it=650 --games 8
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from parlour.bots.levels import make_bot
from parlour.bots.scout.features import load_weights
from parlour.bots.scout.inference import decisions, log_likelihood
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE

TEMPERATURES = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)


def game(args: tuple[str, int, int]) -> tuple[list[float], int]:
    """One seeded game: the log-likelihood sums per temperature and the moves they cover."""
    bot, players, seed = args
    weights = load_weights()
    state = scout.new_state({"players": players}, seed)
    bots = [make_bot("scout", bot) for _ in range(players)]
    rngs = [random.Random(seed * 10 + i) for i in range(players)]
    last: dict[int, scout.State] = {}
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        if seat == 0 and state.phase == PLAY_PHASE:
            last[state.round] = state
        legal = scout.legal_actions(state, seat)
        action = bots[seat].choose(scout.view(state, seat), legal, rngs[seat])
        state = scout.apply(state, seat, action)
    sums = [0.0] * len(TEMPERATURES)
    moves = 0
    for seen in last.values():
        view = scout.view(seen, 0)
        past = decisions(view)
        moves += len(past)
        for k, temperature in enumerate(TEMPERATURES):
            sums[k] += log_likelihood(view, past, seen.hands, weights, temperature)
    return sums, moves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="hard:it=650")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    tasks = [(args.bot, args.players, args.seed + g) for g in range(args.games)]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        results = list(pool.map(game, tasks))
    moves = sum(m for _, m in results)
    totals = [sum(sums[k] for sums, _ in results) for k in range(len(TEMPERATURES))]
    best = TEMPERATURES[max(range(len(totals)), key=totals.__getitem__)]
    print(f"{args.games} games of {args.players} × {args.bot}: {moves} opponents' moves")
    for temperature, total in zip(TEMPERATURES, totals, strict=True):
        mark = "  ← most likely" if temperature == best else ""
        per_move = total / max(1, moves)
        print(f"T={temperature}: log-likelihood {total:.1f} ({per_move:.3f} a move){mark}")


if __name__ == "__main__":
    main()
