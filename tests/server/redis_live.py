"""A real Redis for the many-processes tests: ``PARLOUR_TEST_REDIS`` when set, else a throwaway
``redis-server`` (from ``PATH``) on a free port in a temporary folder. Each test uses its own key
prefix, so tests (and runs) sharing one Redis never see each other's keys."""

from __future__ import annotations

import socket
import subprocess
import time
import uuid
from pathlib import Path

from tests.server.live import free_port, terminate


class RedisServer:
    """``redis-server`` on 127.0.0.1:``port`` with no persistence, in ``folder``; ``start()``
    and ``stop()`` may be called again (a restart keeps the port and loses every key, as a
    Redis without persistence does)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        """Start it and wait until it accepts connections (``RuntimeError`` if it does not)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        log = (self.folder / "redis.log").open("ab")
        self.proc = subprocess.Popen(command, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("redis-server exited: see " + str(self.folder / "redis.log"))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start in time")

    def stop(self) -> None:
        """Stop it (SIGTERM; SIGKILL after 10 s)."""
        if self.proc is None:
            return
        terminate(self.proc)
        self.proc = None


def prefix() -> str:
    """A key prefix of its own for one test."""
    return f"parlour-test-{uuid.uuid4().hex[:10]}:"
