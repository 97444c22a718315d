"""The load harness runs against a real server and ends with the two lines scripts read (the
speed it measures is not tested here: a handful of tables for a few seconds)."""

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
