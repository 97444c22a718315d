"""The test harness: a live server a failing test leaves running is stopped after it."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
from pathlib import Path
from tests.server.live import LiveServer

def test_fails_half_way(tmp_path):
    server = LiveServer(tmp_path / "p.db").start()
    Path({port_file!r}).write_text(str(server.port))
    assert False, "half-way"
"""


def test_a_server_a_failed_test_started_is_stopped(tmp_path: Path) -> None:
    port_file = tmp_path / "port"
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE.format(port_file=str(port_file)))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "--rootdir", str(tmp_path), str(probe)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1 and "half-way" in run.stdout, run.stdout + run.stderr
    port = int(port_file.read_text())
    with socket.socket() as sock:  # nothing listens there any more
        assert sock.connect_ex(("127.0.0.1", port)) != 0
