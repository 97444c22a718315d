"""SCOUT bots: they choose legal actions from a seat's view only, and the heuristic plays well."""

from __future__ import annotations

import random

from parlour.bots.base import Bot, RandomBot
from parlour.bots.scout import GreedyBot, HeuristicBot
from parlour.bots.scout.heuristic import hand_quality, partition
from parlour.games import scout
from tests.bots.scout_games import play


def test_bots_play_whole_games_with_legal_actions_for_every_player_count() -> None:
    for players in (2, 3, 4, 5):
        bots: list[Bot] = [HeuristicBot(), GreedyBot(), RandomBot(), HeuristicBot(noise=0.5)]
        play((bots * 2)[:players], seed=players)


def test_heuristic_beats_three_random_bots() -> None:
    wins = 0
    games = 24
    for g in range(games):
        bots: list[Bot] = [RandomBot() for _ in range(4)]
        bots[g % 4] = HeuristicBot()
        wins += (g % 4) in play(bots, seed=1000 + g)["winners"]
    assert wins >= 0.9 * games


def test_hand_quality_prefers_fewer_groups() -> None:
    assert partition([1, 2, 3, 7, 7, 4]) == [3, 2, 1]
    assert hand_quality([1, 2, 3, 4]) > hand_quality([1, 5, 3, 9])
    assert hand_quality([]) > hand_quality([5])


def test_heuristic_flips_to_the_better_hand() -> None:
    view = {"hand": [[1, 2], [5, 3], [9, 4]], "active_show": [], "players": 4}
    flipped, kept = scout.FLIP, scout.KEEP
    bot = HeuristicBot()
    # flipped: numbers 4, 3, 2 (a run) — far better than 1, 5, 9
    assert bot.choose(view, [kept, flipped], random.Random(0)) == flipped
