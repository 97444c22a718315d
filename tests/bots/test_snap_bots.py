"""SNAP bots: react to valid snaps at their level's speed, rarely call falsely, flip on turn."""

from __future__ import annotations

import random
import statistics

import pytest

from parlour.bots.snap import SNAP_LEVELS, SnapBot, _near_miss, _valid_snap, pace_setter_levels
from parlour.cli.arena import play_realtime_game
from parlour.games.snap.actions import Flip, Snap
from parlour.games.snap.cards import card, match_keys


def test_valid_snap_and_near_miss_detection() -> None:
    keys = match_keys("rank")
    assert _valid_snap(["7H", "7S", None], None, keys)
    assert not _valid_snap(["7H", "8S"], None, keys)
    assert _valid_snap(["7H", "8S"], "8D", keys)
    assert _near_miss(["7H", "8D"], set(), keys)  # adjacent rank, both red
    assert not _near_miss(["7H", "8S"], set(), keys)
    assert _near_miss(["7H", "KS"], {keys[card("KC")]}, keys)  # a top two flips ago
    colour = match_keys("rank_and_colour")
    assert not _valid_snap(["7H", "7S"], None, colour) and _valid_snap(["7H", "7D"], None, colour)


def view(tops: list[str | None], seq: int = 5, turn: int = 1, me: int = 0) -> dict:
    return {
        "seat": me,
        "seq": seq,
        "turn": turn,
        "reveal_ms": 10_000,
        "clock_ms": 10_000,
        "flip_open_ms": 10_900,
        "options": {"match": "rank"},
        "outcome": None,
        "pot": {"size": 0, "top": None},
        "seats": [{"top": t, "out": False} for t in tops],
    }


def test_reaction_times_follow_the_level() -> None:
    medians = []
    for level in ("beginner", "medium", "expert"):
        times = []
        for seed in range(300):
            plans = SnapBot(level).plan(view(["7H", "7S", "2C"]), [Snap()], random.Random(seed))
            times += [p.action.rt_ms for p in plans if isinstance(p.action, Snap)]
        assert len(times) >= 0.8 * 300  # misses are rare
        assert min(times) >= 180
        medians.append(statistics.median(times))
    assert medians[0] > medians[1] > medians[2]


def test_false_calls_are_rare_and_likelier_on_near_misses() -> None:
    def false_calls(tops: list[str | None]) -> int:
        count = 0
        for seed in range(20_000):
            plans = SnapBot("beginner").plan(view(tops), [Snap()], random.Random(seed))
            count += any(isinstance(p.action, Snap) for p in plans)
        return count

    plain, near = false_calls(["7H", "KS", "2C"]), false_calls(["7H", "8D", "2C"])
    assert plain < 0.02 * 20_000 and near > 2 * plain


def test_flips_on_its_turn_once_flips_open() -> None:
    bot = SnapBot("medium")
    plans = bot.plan(view(["7H", "KS"], turn=0), [Snap(), Flip()], random.Random(1))
    flips = [p for p in plans if isinstance(p.action, Flip)]
    assert len(flips) == 1 and flips[0].at_ms >= 10_900
    assert bot.plan(view(["7H", "KS"], turn=0), [Snap(), Flip()], random.Random(2)) == []


def test_pace_setter_and_levels() -> None:
    assert pace_setter_levels("expert", 3) == ["expert", "hard", "hard"]
    assert pace_setter_levels("beginner", 2) == ["beginner", "beginner"]
    assert set(SNAP_LEVELS) == {"beginner", "easy", "medium", "hard", "expert"}
    with pytest.raises(ValueError):
        SnapBot("ace")


def test_realtime_arena_plays_whole_snap_games() -> None:
    for deal in range(3):
        result = play_realtime_game("snap", 4, ["expert", "medium", "medium", "beginner"], deal, 0)
        assert result.outcome["reason"] in {"last_seat", "dead_position", "loop", "flip_cap"}
        assert sorted(result.ranks)[0] == 1
