"""``make golden`` never overwrites a golden file by accident."""

from __future__ import annotations

from pathlib import Path

from tests.games.golden import write_or_check


def test_a_differing_golden_is_kept_unless_written_on_purpose(tmp_path: Path) -> None:
    golden = tmp_path / "golden.txt"
    golden.write_text("step 1: seat 0 plays 'show 0 1'\n")
    assert write_or_check(golden, "step 1: seat 0 plays 'show 0 2'\n", []) == 1
    assert golden.read_text() == "step 1: seat 0 plays 'show 0 1'\n"  # untouched
    assert write_or_check(golden, "step 1: seat 0 plays 'show 0 1'\n", []) == 0
    assert write_or_check(golden, "new\n", ["--write"]) == 0 and golden.read_text() == "new\n"
