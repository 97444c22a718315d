"""Who was first: races decided from reaction times (SNAP N9, SCAN C14), as pure functions.

The server is the referee. Each reveal has a sequence number; a browser paints it, notes the
paint time and sends its reaction time ``rt`` (key press minus paint). Computer opponents draw
reaction times for the same reveal. A race is decided on reaction times, so a human on a slow link
is not beaten by the network; two bounds keep a forged ``rt`` from helping:

- an ``rt`` below :data:`ANTICIPATION_MS` is anticipation: a call on the previous state;
- the credited reaction time is at least the one implied by the arrival time less the seat's
  round-trip allowance, so a forged ``rt`` gains at most the jitter margin — provided the round
  trip is measured where the client cannot stretch it (:func:`measured_rtt`).

Nothing here reads a clock: times are plain numbers in milliseconds, so tests use plain numbers.

>>> calls = [RaceEntry(seat=0, rt_ms=412), RaceEntry(seat=1, rt_ms=405), RaceEntry(2, 431)]
>>> [e.seat for e in first_group(calls, tie_window_ms=20)]
[1, 0]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

TIE_WINDOW_MS = 20
"""Default tie window: inputs this close in reaction time are simultaneous."""
ANTICIPATION_MS = 100
"""Reaction times below this are anticipation, not a reaction to the reveal."""
JITTER_MS = 15
"""Default jitter allowance added to a seat's measured round-trip time."""
MAX_EXTRA_WAIT_MS = 250
"""Cap on how much longer than the fastest bot the referee waits for a human (N9)."""


@dataclass(frozen=True, order=True)
class RaceEntry:
    """One timed input in a race: who, the credited reaction time, and what it was.

    ``kind`` is the game's own word (``"snap"``, ``"touch"``, ``"bluffo"``…); ``detail`` carries
    anything else the game needs (for example which blue card was touched).
    """

    seat: int
    rt_ms: int
    kind: str = "call"
    detail: int = 0


def is_anticipation(rt_ms: int, threshold_ms: int = ANTICIPATION_MS) -> bool:
    """Whether a reaction time is too fast to be a reaction (a call on the previous state).

    >>> is_anticipation(80), is_anticipation(100)
    (True, False)
    """
    return rt_ms < threshold_ms


def effective_rt(
    reported_rt_ms: int,
    reveal_sent_ms: int,
    arrival_ms: int,
    rtt_ms: int,
    jitter_ms: int = JITTER_MS,
) -> int:
    """The reaction time a call is credited with (N9 anti-forgery).

    ``arrival - reveal_sent`` spans the reveal's trip out, the reaction and the call's trip back,
    so ``arrival - reveal_sent - (rtt + jitter)`` is a lower bound on the true reaction time; the
    credited time is the larger of that and the reported one. Negative reports count as 0.

    >>> effective_rt(300, reveal_sent_ms=1000, arrival_ms=1390, rtt_ms=80)   # honest, slow link
    300
    >>> effective_rt(120, reveal_sent_ms=1000, arrival_ms=1390, rtt_ms=80)   # forged: 295
    295
    """
    implied = arrival_ms - reveal_sent_ms - rtt_ms - jitter_ms
    return max(reported_rt_ms, implied, 0)


def wait_until(
    reveal_sent_ms: int,
    fastest_bot_rt_ms: int,
    rtt_ms: int,
    jitter_ms: int = JITTER_MS,
    cap_ms: int = MAX_EXTRA_WAIT_MS,
) -> int:
    """When the referee stops waiting for a human's call and decides (N9): the reveal time plus
    the fastest bot's reaction time plus the seat's round trip and jitter, that extra capped.

    >>> wait_until(1000, fastest_bot_rt_ms=400, rtt_ms=90)
    1505
    >>> wait_until(1000, fastest_bot_rt_ms=400, rtt_ms=900)
    1650
    """
    return reveal_sent_ms + fastest_bot_rt_ms + min(rtt_ms + jitter_ms, cap_ms)


@dataclass(frozen=True)
class OpenRace:
    """A race waiting for its decision, as the referee sees it (N9).

    ``reveal_ms``: when the card was revealed; ``entries``: the inputs waiting, with their
    credited reaction times; ``open_seats``: the seats that may still join; ``horizon_ms``: a
    new input with a credited reaction time up to this could still change the decision (past
    it, it would be beaten or too late whatever it is).
    """

    reveal_ms: int
    entries: tuple[RaceEntry, ...]
    open_seats: tuple[int, ...]
    horizon_ms: int


def settled(race: OpenRace, earliest_rt: dict[int, int]) -> bool:
    """Whether ``race`` can be decided now: every open seat's earliest possible credited
    reaction time (``earliest_rt``; a seat missing from it could still act at once) lies beyond
    the horizon.

    >>> race = OpenRace(1000, (RaceEntry(0, 300),), open_seats=(1, 2), horizon_ms=320)
    >>> settled(race, {1: 350, 2: 321}), settled(race, {1: 350, 2: 320}), settled(race, {1: 999})
    (True, False, False)
    """
    return all(earliest_rt.get(seat, 0) > race.horizon_ms for seat in race.open_seats)


def human_settles_at(race: OpenRace, allowance_ms: int) -> int:
    """The first time at which a person who has not acted can no longer reach the horizon: the
    reveal plus the horizon plus the seat's allowance, plus one millisecond (N9's wait).

    >>> human_settles_at(OpenRace(1000, (), (), horizon_ms=320), allowance_ms=120)
    1441
    """
    return race.reveal_ms + race.horizon_ms + allowance_ms + 1


def allowance(rtt_ms: float, jitter_ms: int = JITTER_MS, cap_ms: int = MAX_EXTRA_WAIT_MS) -> int:
    """A seat's round-trip allowance: its smoothed round trip plus the jitter allowance, capped
    (N9), in whole milliseconds.

    >>> allowance(80), allowance(900)
    (95, 250)
    """
    return min(round(rtt_ms) + jitter_ms, cap_ms)


def measured_rtt(probe_ms: float | None, kernel_ms: float | None, default_ms: float) -> float:
    """The round trip a seat's allowance is built on: the server-timed probes' estimate
    (``probe_ms``; ``None`` before any, then ``default_ms`` is assumed), bounded by the kernel's
    measurement of the connection (``kernel_ms``; ``None`` where it cannot be read).

    Neither can be raised by a client answering late: a late or missing probe answer counts
    as no round trip at all (the server's probe estimate), and the kernel's minimum round trip
    comes from acknowledgements the client's program does not time. So a client that fakes a
    slow link only lowers what it is credited.

    >>> measured_rtt(240.0, kernel_ms=0.05, default_ms=50)   # late answers on a fast link
    0.05
    >>> measured_rtt(None, kernel_ms=None, default_ms=50), measured_rtt(80.0, 95.0, 50)
    (50, 80.0)
    """
    probe = default_ms if probe_ms is None else probe_ms
    return probe if kernel_ms is None else min(probe, kernel_ms)


def first_group(
    entries: Iterable[RaceEntry], tie_window_ms: int = TIE_WINDOW_MS
) -> list[RaceEntry]:
    """The earliest entry and every entry within ``tie_window_ms`` of it, earliest first (ties in
    reaction time by seat). One entry: a clear winner; more: simultaneous. Empty input: empty.

    >>> first_group([RaceEntry(0, 500), RaceEntry(1, 520)], tie_window_ms=20)  # doctest: +ELLIPSIS
    [RaceEntry(seat=0, ...), RaceEntry(seat=1, ...)]
    >>> len(first_group([RaceEntry(0, 500), RaceEntry(1, 521)], tie_window_ms=20))
    1
    """
    ordered = sorted(entries, key=lambda e: (e.rt_ms, e.seat))
    if not ordered:
        return []
    first = ordered[0].rt_ms
    return [e for e in ordered if e.rt_ms - first <= tie_window_ms]
