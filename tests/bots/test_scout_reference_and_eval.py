"""SCOUT's one-ply reference bot, the feature evaluation, and the levels' Scout & Show restraint."""

from __future__ import annotations

import functools
import json
import random
from importlib import resources
from typing import Any

import pytest
from bench import tune_scout

from parlour.bots.base import Bot, RandomBot
from parlour.bots.levels import LEVELS, make_bot
from parlour.bots.scout import HeuristicBot
from parlour.bots.scout.features import FEATURES, EvalBot, features, load_weights
from parlour.bots.scout.human import HumanLike, first_move, restrained
from parlour.bots.scout.oneply import OnePlyBot, group_measure
from parlour.bots.scout.search import SearchBot
from parlour.cli.arena import play_game
from parlour.games import scout
from tests.bots.scout_games import play


def wins_against_random(make: type[OnePlyBot] | type[EvalBot], games: int = 12) -> int:
    wins = 0
    for g in range(games):
        bots: list[Bot] = [RandomBot() for _ in range(4)]
        bots[g % 4] = make()
        wins += (g % 4) in play(bots, seed=2000 + g)["winners"]
    return wins


# --- oneply ---------------------------------------------------------------------------------


def test_oneply_and_eval_play_whole_games_with_legal_actions_for_every_player_count() -> None:
    for players in (2, 3, 4, 5):
        bots: list[Bot] = [OnePlyBot(), EvalBot(), HeuristicBot(), EvalBot(noise=0.5)]
        play((bots * 2)[:players], seed=40 + players)


def test_oneply_beats_three_random_bots_clearly() -> None:
    assert wins_against_random(OnePlyBot) >= 11  # of 12 (chance: 3)


def test_oneply_group_measure_weighs_longer_groups_more() -> None:
    assert group_measure([1, 2, 3, 4]) == 16  # one run of four
    assert group_measure([1, 2, 7, 8]) == 8  # two runs of two
    assert group_measure([1, 5, 9]) == 0  # lone cards count nothing
    assert group_measure([6, 6]) > group_measure([6, 7])  # a set is worth more


def test_oneply_flips_to_the_hand_with_more_groups() -> None:
    view = {"hand": [[1, 2], [5, 3], [9, 4]], "active_show": [], "players": 4}
    # flipped: 4, 3, 2 (a run of three) against 1, 5, 9 (nothing)
    assert OnePlyBot().choose(view, [scout.KEEP, scout.FLIP], random.Random(0)) == scout.FLIP


def test_oneply_scores_captures_cards_left_and_a_fixed_scout_cost() -> None:
    bot = OnePlyBot(c=0.0, scout_cost=1.0)  # c = 0: only cards, captures and the cost remain
    view = {"hand": [[5, 1], [9, 2], [3, 4]], "active_show": [[4, 1], [4, 2]], "players": 4}
    assert bot.score(view, scout.Show(0, 1)) == -2 + 2
    assert bot.score(view, scout.Scout("left", False, 0)) == -4 - 1
    # Scout & Show: scout a 4 next to the 3 (hand 5 9 3 4), show 3 4 beating the single 4
    assert bot.score(view, scout.ScoutShow("left", False, 3)) == -2 + 1 - 1


# --- the feature evaluation -----------------------------------------------------------------


def test_shipped_weights_name_every_feature_and_load() -> None:
    data = json.loads(resources.files("parlour.bots.scout").joinpath("scout_eval.json").read_text())
    assert set(data["weights"]) == set(FEATURES)
    assert load_weights() == tuple(float(data["weights"][f]) for f in FEATURES)
    with pytest.raises(ValueError):
        EvalBot(weights=[1.0])


def test_eval_beats_three_random_bots_clearly() -> None:
    assert wins_against_random(EvalBot) >= 11  # of 12 (chance: 3)


def test_eval_features_of_a_show_and_of_a_scout_that_ends_the_round() -> None:
    seats = [
        {"seat": s, "hand_size": n, "scout_show_available": True}
        for s, n in enumerate([3, 2, 5, 6])
    ]
    view = {
        "hand": [[5, 1], [6, 2], [7, 4]],
        "active_show": [[4, 1], [4, 2]],
        "players": 4,
        "seat": 0,
        "seats": seats,
        "scouts_since_show": 2,
    }
    f = dict(zip(FEATURES, features(view, scout.Show(0, 3)), strict=True))
    assert f["captured"] == 2 and f["cards"] == 0 and f["empties"] == 1
    assert f["safe"] == pytest.approx(1 / 3)  # the seat holding 2 cards cannot beat three
    f = dict(zip(FEATURES, features(view, scout.Scout("left", False, 0)), strict=True))
    # two Scouts since the Show: a third ends the round and this seat pays for its 4 cards
    assert f["ends_round"] == 4 and f["chips_given"] == pytest.approx(1 / 3) and f["scouted"] == 1
    assert f["captured"] == 0 and f["ss_kept"] == 1


def test_eval_takes_the_show_that_empties_the_hand() -> None:
    view = {
        "hand": [[5, 1], [6, 2], [7, 4]],
        "active_show": [[4, 1], [4, 2]],
        "players": 4,
        "seat": 0,
        "seats": [{"seat": s, "hand_size": 3, "scout_show_available": True} for s in range(4)],
        "scouts_since_show": 0,
    }
    legal = [scout.Show(0, 3), scout.Show(0, 2), scout.Scout("left", False, 0)]
    assert EvalBot().choose(view, legal, random.Random(0)) == scout.Show(0, 3)


# --- levels: no Scout & Show on the first move unless it gains clearly ----------------------


@functools.cache
def first_moves() -> list[tuple[dict[str, Any], list[Any]]]:
    """Every first move of a round where Scout & Show was legal, in 4 seeded 4-player games of
    the heuristic: (view, legal actions)."""
    found = []
    bot = HeuristicBot()
    for g in range(4):
        state = scout.new_state({"players": 4}, 700 + g)
        rng = random.Random(g)
        while scout.outcome(state) is None:
            seat = scout.to_act(state)[0]
            legal = scout.legal_actions(state, seat)
            view = scout.view(state, seat)
            offered = any(isinstance(a, scout.ScoutShow) for a in legal)
            if offered and view["phase"] == "play" and first_move(view):
                found.append((view, legal))
            state = scout.apply(state, seat, bot.choose(view, legal, rng))
    return found


def scout_show_rate(bot: Bot, positions: list[tuple[dict[str, Any], list[Any]]]) -> float:
    rng = random.Random(3)
    used = sum(isinstance(bot.choose(v, legal, rng), scout.ScoutShow) for v, legal in positions)
    return used / len(positions)


def test_every_level_keeps_its_scout_and_show_on_the_first_move() -> None:
    assert all(isinstance(make_bot("scout", level), HumanLike) for level in LEVELS)
    positions = first_moves()
    assert len(positions) >= 30
    # without the restraint the heuristic spends it on most first moves where it may
    assert scout_show_rate(HeuristicBot(), positions) > 0.4
    for level in ("beginner", "easy", "medium"):
        assert scout_show_rate(make_bot("scout", level), positions) <= 0.1, level


def test_search_levels_keep_it_too() -> None:
    # Hard and Expert (the information-set search, with a small iteration budget here), and
    # the flat search of before
    for level in ("hard:it=20", "expert:it=20"):
        assert scout_show_rate(make_bot("scout", level), first_moves()) <= 0.1, level
    bot = HumanLike(SearchBot(determinizations=2))
    assert scout_show_rate(bot, first_moves()) <= 0.1


def test_first_move_scout_show_that_empties_the_hand_is_still_played() -> None:
    view = {
        "hand": [[5, 1], [7, 2]],
        "active_show": [[6, 1], [7, 3]],
        "players": 4,
        "seat": 1,
        "seats": [{"seat": s, "hand_size": 2, "scout_show_available": True} for s in range(4)],
        "scouts_since_show": 0,
        "log": [{"type": "show", "seat": 0}],
    }
    assert first_move(view)
    scout_show = scout.ScoutShow("left", False, 1)  # 5 6 7 beats the 7 left behind: hand empty
    legal = [scout.Scout("left", False, 0), scout_show]
    assert restrained(view, legal) == legal
    assert make_bot("scout", "medium").choose(view, legal, random.Random(0)) == scout_show
    # after its first move a seat may spend it freely; the restraint leaves the list alone
    later = {**view, "log": [{"type": "scout", "seat": 1}]}
    assert not first_move(later) and restrained(later, legal) == legal


# --- strength and tuning (seeded, small) -----------------------------------------------------


def test_tuned_eval_outscores_three_of_todays_heuristic_on_duplicate_deals() -> None:
    # 4 deals, each with the lineup rotated through the 4 seats (measured over 200: +10.4)
    diffs = []
    for deal in range(4):
        for rotation in range(4):
            result = play_game("scout", 4, ["eval", "heuristic", "heuristic", "heuristic"],
                               5000 + deal, rotation)  # fmt: skip
            diffs.append(result.scores[0] - sum(result.scores[1:]) / 3)
    assert sum(diffs) / len(diffs) >= 2.0


def test_tuning_script_runs_a_generation_reproducibly(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--generations", "1", "--pairs", "1", "--deals", "1", "--seed", "4",
            "--players", "3", "--opponents", "greedy"]  # fmt: skip
    assert tune_scout.main(args) == 0
    first = capsys.readouterr().out
    assert tune_scout.main(args) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == first.split("\n", 1)[1]  # same weights
    assert "gen   1/1" in first and '"measure"' in first
