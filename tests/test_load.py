"""The load harness runs against a real server (or several processes sharing real PostgreSQL and
Redis servers) and ends with the lines scripts read (the speed it measures is not tested here: a
handful of tables for a few seconds)."""

from __future__ import annotations

import math
import re

import pytest
from bench import load


def test_load_harness_smoke_run_ends_with_two_machine_readable_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--scout-tables", "3", "--snap-tables", "2", "--scout-seconds", "6"]
    argv += ["--snap-seconds", "6", "--think-ms", "0-50", "--game-speed", "4"]
    argv += ["--bot-delay-ms", "0-0"]
    assert load.main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    scout = re.fullmatch(r"scout tables=(\d+) p99_ms=(\d+\.\d|nan)", lines[-2])
    snap = re.fullmatch(r"snap tables=(\d+) p99_ms=(\d+\.\d|nan)", lines[-1])
    assert scout is not None and snap is not None, lines[-2:]
    assert (scout[1], snap[1]) == ("3", "2")
    assert not math.isnan(float(scout[2])), "SCOUT people acted and were measured"


def test_the_flood_scenario_reports_http_latency_and_loop_lag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--only", "flood", "--flood-tables", "2", "--flood-seconds", "4"]
    assert load.main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    flood = re.fullmatch(
        r"flood tables=2 http_p99_ms=(\d+\.\d) loop_lag_p99_ms=(\d+\.\d) refused=(\d+)", lines[-3]
    )
    assert flood is not None, lines[-3:]
    assert float(flood[1]) > 0 and lines[-2:] == ["scout tables=0 p99_ms=nan",
                                                 "snap tables=0 p99_ms=nan"]  # fmt: skip


def test_many_processes_play_both_games_and_one_killed_loses_no_acknowledged_move(
    capsys: pytest.CaptureFixture[str], redis_url: str, postgres_admin: str
) -> None:
    """Two processes on PostgreSQL and Redis play SCOUT (two people a table, sockets at random
    processes) and then SNAP; the first is killed during SCOUT: its tables resume, play on to
    their end, and their stored inputs replay to the end the people saw."""
    argv = ["--processes", "2", "--kill-one", "--scout-tables", "4", "--scout-seconds", "15"]
    argv += ["--snap-tables", "2", "--snap-seconds", "6", "--game-speed", "4"]
    argv += ["--think-ms", "300-500", "--bot-delay-ms", "100-200", "--lease-ms", "1000"]
    argv += ["--renew-ms", "200", "--finish-seconds", "120"]
    argv += ["--redis", redis_url, "--db", postgres_admin]
    assert load.main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    failover = re.fullmatch(
        r"failover tables=(\d+) resumed=(\d+) lost_acks=0 max_gap_ms=(\d+) finished=(\d+) "
        r"replays_identical=(\d+)",
        lines[-3],
    )
    assert failover is not None, lines[-4:]
    # the killed process owned about every other table: they resumed, finished, replay the same
    assert int(failover[1]) > 0, lines[-4:]
    assert failover[1] == failover[2] == failover[4] == failover[5], lines[-4:]
    # (how soon they resumed, max_gap_ms, is a figure for bench runs: a loaded machine sets it)
    assert re.fullmatch(r"scout tables=4 p99_ms=\d+\.\d", lines[-2]), lines[-2]
    assert re.fullmatch(r"snap tables=2 p99_ms=(\d+\.\d|nan)", lines[-1]), lines[-1]
