"""``make bench-rl`` runs and ends with the lines scripts read (speed is not tested here)."""

from __future__ import annotations

import re

import pytest
from bench import bench_rl


def test_bench_rl_prints_the_machine_readable_lines(capsys: pytest.CaptureFixture[str]) -> None:
    bench_rl.main(["--runs", "1", "--seconds", "0.05"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"scout engine: \d+ moves/s", lines[-3])
    assert re.fullmatch(r"scout rl: \d+ steps/s \(AEC, one env\)", lines[-2])
    assert re.fullmatch(r"scout rl: \d+ steps/s \(VectorEnv, 16 games\)", lines[-1])


def test_bench_rl_breakdown_prints_a_line_per_loop(capsys: pytest.CaptureFixture[str]) -> None:
    bench_rl.main(["--breakdown", "--runs", "1", "--seconds", "0.05"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 5
    assert all(re.search(r"us/step +\d+% of the engine$", line) for line in lines)
