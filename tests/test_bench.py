"""The benchmark runs and ends with the lines scripts read (its speed is not tested here)."""

from __future__ import annotations

import re

import pytest
from bench import bench_scout


def test_bench_prints_one_machine_readable_line_per_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench_scout.main(["--runs", "1", "--scale", "0.02"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert [re.fullmatch(r"scout (\d)p: \d+ games/s", line) is not None for line in lines[-4:]] == [
        True
    ] * 4
    assert [line.split()[1] for line in lines[-4:]] == ["2p:", "3p:", "4p:", "5p:"]
