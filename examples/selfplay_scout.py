"""Self-play training of a SCOUT policy with NumPy only: REINFORCE on a linear softmax policy.

Every seat of a batch of SCOUT games (``parlour.rl.VectorEnv``) is played by the current
policy; when a game ends, each seat's moves are reinforced by its final score minus the mean
of the table's scores. The result is a policy file that the arena plays::

    python examples/selfplay_scout.py --games 600 --out scout-policy.npz
    parlour arena --bots policy:scout-policy.npz,random,random --games 200 --workers 2

A demo run (the defaults) takes a few minutes on one core and ends by playing the trained policy
against two random bots with the arena's own code, printing its win rate.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from parlour.cli.arena import run_arena
from parlour.rl import VectorEnv
from parlour.rl import scout_codec as codec
from parlour.rl.policy import LinearPolicy


def train(
    games: int, players: int, envs: int, lr: float, seed: int, log_every: int = 100
) -> LinearPolicy:
    """``games`` self-play games of ``players`` seats, ``envs`` at a time; returns the policy."""
    policy = LinearPolicy.zeros()
    rng = np.random.default_rng(seed)
    venv = VectorEnv(num_envs=envs, players=players, seed=seed)
    obs, mask, seats = venv.reset()
    # Per game slot: the steps of the game in progress (observation, probabilities, action, seat).
    steps: list[list[tuple[np.ndarray, np.ndarray, int, int]]] = [[] for _ in range(envs)]
    grad_w = np.zeros_like(policy.W)
    grad_b = np.zeros_like(policy.b)
    pending = 0
    start = time.time()
    while len(venv.outcomes) < games:
        probs = policy.probabilities(obs, mask)
        actions = [int(rng.choice(codec.N_ACTIONS, p=p)) for p in probs]
        for i in range(envs):
            steps[i].append((obs[i], probs[i], actions[i], int(seats[i])))
        obs, mask, seats, _, _ = venv.step(actions)
        for i, result in venv.finished.items():
            scores = np.asarray(result["scores"], dtype=np.float64)
            advantage = (scores - scores.mean()) / 10.0
            x = np.stack([s[0] for s in steps[i]])
            g = -np.stack([s[1] for s in steps[i]]).astype(np.float32)
            g[np.arange(len(steps[i])), [s[2] for s in steps[i]]] += 1.0
            g *= advantage[[s[3] for s in steps[i]]][:, None].astype(np.float32)
            grad_w += g.T @ x  # d log pi(a|x) / dW = (onehot(a) - p) x^T
            grad_b += g.sum(axis=0)
            steps[i] = []
            pending += 1
        if pending >= envs:  # one update per batch of finished games
            policy.W += lr * grad_w / pending
            policy.b += lr * grad_b / pending
            grad_w[:] = 0
            grad_b[:] = 0
            pending = 0
        if len(venv.outcomes) and len(venv.outcomes) % log_every == 0 and pending == 0:
            print(f"  {len(venv.outcomes)} games, {time.time() - start:.0f} s", flush=True)
    return policy


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="self-play games")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--envs", type=int, default=16, help="games played at a time")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="scout-policy.npz")
    parser.add_argument("--eval-games", type=int, default=60, help="arena games vs random")
    args = parser.parse_args(argv)
    start = time.time()
    policy = train(args.games, args.players, args.envs, args.lr, args.seed)
    policy.save(args.out)
    print(f"trained on {args.games} games in {time.time() - start:.0f} s: {args.out}")
    lineup = [f"policy:{args.out}"] + ["random"] * (args.players - 1)
    stats = run_arena("scout", lineup, args.eval_games, seed=10_000)
    for entry in stats:
        low, high = entry.interval()
        print(
            f"{entry.name}: win rate {entry.win_rate():.1%} (95 % CI {low:.1%}–{high:.1%}), "
            f"mean score {sum(entry.scores) / len(entry.scores):+.1f} over {entry.games} games"
        )


if __name__ == "__main__":
    main()
