"""SCOUT bots: they choose legal actions from a seat's view only, and the heuristic plays well."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from parlour.bots.base import Bot, RandomBot
from parlour.bots.scout import GreedyBot, HeuristicBot
from parlour.bots.scout.heuristic import (
    best_group_key,
    groups_from,
    hand_quality,
    hand_shape,
    partition,
)
from parlour.bots.scout.oneply import group_measure
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


@given(st.lists(st.integers(1, 10), max_size=16))
def test_the_one_pass_hand_shape_agrees_with_the_functions_it_replaces(hand: list[int]) -> None:
    # The evaluations' hot path reads a hand in one pass (hand_shape) and a hand's groups from
    # a start by extending them (groups_from); they must say exactly what the plain functions
    # (and the one-ply reference's measure, now read from hand_shape) do.
    sizes = partition(hand)
    lone = sum(1 for s in sizes if s == 1)
    measure, at = 0.0, 0  # the reference's measure: k² a maximal group of k ≥ 2, sets × 1.25
    for size in sizes:
        group = hand[at : at + size]
        at += size
        if size >= 2:
            measure += size * size * (1.25 if group[0] == group[1] else 1.0)
    assert hand_shape(hand) == (len(sizes), lone, best_group_key(hand), measure)
    assert group_measure(hand) == measure and group_measure(hand, 1.0) == hand_shape(hand, 1.0)[3]
    for start in range(len(hand)):
        expected = []
        for end in range(start + 1, len(hand) + 1):
            if not (key := scout.group_key(hand[start:end])):
                break
            expected.append((end, key))
        assert groups_from(hand, start) == expected
    for ordered in (sorted(hand), sorted(hand, reverse=True), [5] * len(hand)):
        sizes = partition(ordered)
        assert hand_shape(ordered)[:3] == (len(sizes), sum(s == 1 for s in sizes),
                                           best_group_key(ordered))  # fmt: skip


def test_heuristic_flips_to_the_better_hand() -> None:
    view = {"hand": [[1, 2], [5, 3], [9, 4]], "active_show": [], "players": 4}
    flipped, kept = scout.FLIP, scout.KEEP
    bot = HeuristicBot()
    # flipped: numbers 4, 3, 2 (a run) — far better than 1, 5, 9
    assert bot.choose(view, [kept, flipped], random.Random(0)) == flipped
