"""SCAN bots: plans from the view only, faster and more accurate at higher levels."""

from __future__ import annotations

import random
import statistics

import pytest

from parlour.bots.reaction import FLOOR_MS, ex_gaussian, lognormal_ms, reaction_ms
from parlour.bots.scan import SCAN_LEVELS, ScanBot
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
