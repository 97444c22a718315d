"""SCAN bots: plans from the view only, faster and more accurate at higher levels."""

from __future__ import annotations

import itertools
import random
import statistics

import pytest

from parlour.bots.reaction import FLOOR_MS, ex_gaussian, lognormal_ms, reaction_ms
from parlour.bots.scan import MEDIAN_MS, P1_TARGET_MS, SCAN_LEVELS, ScanBot, touch_times
from parlour.cli.arena import play_realtime_game
from parlour.core import Timeout
from parlour.games import scan
from parlour.games.scan.actions import Touch


def first_reveal(seed: int, players: int = 2) -> scan.State:
    state = scan.new_state({"players": players}, seed)
    return scan.apply(state, None, Timeout(), scan.deadline(state))


def plans(level: str, seeds: range) -> list[tuple[int, bool]]:
    """(reaction time, correct) of the level's touches on the first reveal of many games."""
    out = []
    bot = ScanBot(level)
    for seed in seeds:
        state = first_reveal(seed)
        view = scan.view(state, 0)
        for plan in bot.plan(view, scan.legal_actions(state, 0), random.Random(seed)):
            if isinstance(plan.action, Touch):
                column = ["shape", "pattern", "position", "colour"].index(view["category"])
                correct = view["layout"][plan.action.blue_index][column] == view["tan"][column]
                out.append((plan.action.rt_ms, correct))
                assert plan.at_ms == view["reveal_ms"] + plan.action.rt_ms
    return out


def test_scan_levels_get_faster_and_more_accurate() -> None:
    medians = []
    for level in ("beginner", "medium", "expert"):
        found = plans(level, range(150))
        medians.append(statistics.median(rt for rt, ok in found if ok))
        assert sum(ok for _, ok in found) / len(found) > 0.8
    assert medians[0] > medians[1] > medians[2]


def _percentile(values: list[int], pct: float) -> int:
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * pct // 100) - 1)]


@pytest.mark.parametrize("level", list(SCAN_LEVELS))
def test_C14_no_correct_touch_faster_than_a_person_can_find_the_card(level: str) -> None:
    """Over 2,000 seeded reveals per category, the fastest 1 % of a level's correct touches
    take at least P1_TARGET_MS (600 ms from Beginner to Medium, 450 ms at Expert) and none is
    faster than seeing and reaching plus one look."""
    params = SCAN_LEVELS[level]
    assert P1_TARGET_MS[level] >= (450 if level in ("hard", "expert") else 600)
    for category in MEDIAN_MS:
        correct = [rt for rt, ok in touch_times(level, category, 2000, seed=7) if ok]
        assert len(correct) > 1500
        assert _percentile(correct, 1) >= P1_TARGET_MS[level], (level, category)
        assert min(correct) >= params.floor_ms + 0.2 * MEDIAN_MS[category] * params.scale


def test_C14_weaker_levels_are_never_quicker_to_see_and_reach() -> None:
    levels = list(SCAN_LEVELS.values())
    for weaker, stronger in itertools.pairwise(levels):
        assert weaker.see_mu >= stronger.see_mu and weaker.floor_ms >= stronger.floor_ms
        assert weaker.scale > stronger.scale


def test_scan_bot_never_acts_when_disqualified_or_between_rounds() -> None:
    state = scan.new_state({"players": 2}, 1)
    assert ScanBot().plan(scan.view(state, 0), scan.legal_actions(state, 0), random.Random(0)) == []
    with pytest.raises(ValueError):
        ScanBot("grandmaster")


def test_reaction_time_models() -> None:
    rng = random.Random(3)
    draws = [reaction_ms(rng, 410, 60, 120) for _ in range(3000)]
    assert min(draws) >= FLOOR_MS
    assert 480 < statistics.fmean(draws) < 580  # mean of an ex-Gaussian is mu + tau
    assert statistics.median(lognormal_ms(rng, 200) for _ in range(3000)) == pytest.approx(
        200, rel=0.1
    )
    assert ex_gaussian(rng, 0, 0, 1) >= 0


def test_realtime_arena_plays_whole_scan_games() -> None:
    result = play_realtime_game("scan", 3, ["expert", "medium", "beginner"], deal=4, rotation=1)
    assert sorted(result.ranks)[0] == 1 and sum(result.win_share) == pytest.approx(1)
    assert sum(result.scores) >= 20  # most of the 23 tan cards were won
    assert set(SCAN_LEVELS) == {"beginner", "easy", "medium", "hard", "expert"}
