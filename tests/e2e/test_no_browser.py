"""Without Chromium the browser tests fail: they never pass by skipping every page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
def test_needs_the_browser(browser):
    assert browser is not None
"""


def test_a_missing_chromium_fails_the_browser_tests(tmp_path: Path) -> None:
    # A browser test using the browser tests' fixtures, run with Chromium "missing".
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE)
    env = {**os.environ, "PARLOUR_CHROMIUM": str(tmp_path / "no-chromium")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.e2e.conftest",
         "--rootdir", str(tmp_path), str(probe)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr
    assert "test_probe.py::test_needs_the_browser" in run.stdout, run.stdout
    assert "1 error" in run.stdout, run.stdout
    assert "skipped" not in run.stdout.lower(), run.stdout
    assert "is not installed" in run.stdout, run.stdout
