"""Races decided from reaction times (N9, C14) with plain numbers: no sockets, no clocks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from parlour.core.race import (
    RaceEntry,
    effective_rt,
    first_group,
    is_anticipation,
    wait_until,
)


def test_N9_faster_human_on_a_slow_link_wins() -> None:
    # The human reacts in 350 ms but the link adds 300 ms each way; the bot reacts in 400 ms.
    sent = 10_000
    human = effective_rt(350, sent, arrival_ms=sent + 300 + 350 + 300, rtt_ms=600)
    assert human == 350
    assert [e.seat for e in first_group([RaceEntry(0, human), RaceEntry(1, 400)])] == [0]


def test_N9_forged_reaction_time_gains_at_most_the_jitter_margin() -> None:
    sent, rtt, jitter, true_rt = 5_000, 120, 30, 420
    arrival = sent + rtt + true_rt
    for forged in (0, 50, 100, 200, 400):
        credited = effective_rt(forged, sent, arrival, rtt, jitter)
        assert credited >= true_rt - jitter


@given(
    true_rt=st.integers(100, 2000),
    rtt=st.integers(0, 1000),
    forged=st.integers(-1000, 3000),
    jitter=st.integers(0, 100),
)
def test_N9_forgery_bound_holds_for_any_numbers(
    true_rt: int, rtt: int, forged: int, jitter: int
) -> None:
    arrival = 1000 + rtt + true_rt
    assert effective_rt(forged, 1000, arrival, rtt, jitter) >= true_rt - jitter
    assert effective_rt(true_rt, 1000, arrival, rtt, jitter) == true_rt  # honest: unchanged


def test_N9_anticipation_below_100_ms() -> None:
    assert is_anticipation(99) and not is_anticipation(100) and is_anticipation(-5)


def test_N9_wait_for_a_human_is_capped() -> None:
    assert wait_until(0, fastest_bot_rt_ms=300, rtt_ms=100, jitter_ms=30) == 430
    assert wait_until(0, fastest_bot_rt_ms=300, rtt_ms=10_000, jitter_ms=30) == 550


def test_N6_C14_tie_window() -> None:
    calls = [RaceEntry(2, 531), RaceEntry(0, 510), RaceEntry(1, 530)]
    assert [e.seat for e in first_group(calls, tie_window_ms=20)] == [0, 1]
    assert [e.seat for e in first_group(calls, tie_window_ms=0)] == [0]
    assert first_group([], 20) == []
    same = [RaceEntry(3, 500), RaceEntry(1, 500)]
    assert [e.seat for e in first_group(same, 0)] == [1, 3]  # equal times stay simultaneous
