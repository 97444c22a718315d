"""A real Parlour server in a subprocess (uvicorn on 127.0.0.1 and a free port), for tests that
need one: the restart test and the browser tests."""

from __future__ import annotations

import collections
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import weakref
import zlib
from pathlib import Path
from typing import Any

FAST = {
    "PARLOUR_BOT_DELAY_MIN_MS": "0",
    "PARLOUR_BOT_DELAY_MAX_MS": "0",
    "PARLOUR_ANIM_MS": "0",
    "PARLOUR_BOT_WORKERS": "0",
    "PARLOUR_TURN_TIMER_S": "0",
    "PARLOUR_NEW_TABLES_BURST": "100000",
    "PARLOUR_ADMIT_MAX_LAG_MS": "60000",
}
"""Settings for tests: bots move at once, no animations, no process pool, no turn timers, no limit
on new tables from one address (tests create many from 127.0.0.1), and no refusal of new
real-time tables for a lagging event loop (on a loaded test machine the loop lags for reasons of
its own; the admission control has its own tests, ``test_overload.py``)."""


def seed_of_this_test() -> int:
    """The tables' seeds of the running test (``Settings.table_seed``): fixed per test (from its
    id), printed so that a failure's output says how to replay it."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    seed = zlib.crc32(test.encode()) or 1
    print(f"tables' seeds from PARLOUR_TABLE_SEED={seed} ({test})")
    return seed


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


RUNNING: set[LiveServer] = set()
"""Live servers started and not stopped yet (a test that fails half-way leaves one: the root
conftest stops it)."""


def terminate(proc: subprocess.Popen[bytes]) -> None:
    """Stop ``proc`` with SIGTERM, and SIGKILL it if it has not ended 10 s later."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class LiveServer:
    """``parlour serve`` on a free port with the SQLite file ``db`` (or a database URL: then
    ``log`` says where its output goes); ``start()``/``stop()`` (or ``kill()``) may be called
    again to restart it on the same database."""

    def __init__(
        self,
        db: Path | str,
        env: dict[str, str] | None = None,
        log: Path | None = None,
        args: list[str] | None = None,
    ) -> None:
        self.db = db
        self.args = list(args or [])
        """More options of ``parlour serve`` (e.g. ``--redis URL``)."""
        self.port = free_port()
        seed = {"PARLOUR_TABLE_SEED": str(seed_of_this_test())}
        self.env = {**os.environ, **FAST, **seed, **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = log or Path(db).with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> LiveServer:
        """Start the server and wait until it accepts connections; raises ``RuntimeError`` if
        it exits or does not answer within ``timeout`` seconds."""
        command = [
            sys.executable,
            "-m",
            "parlour.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
            *self.args,
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(command, env=self.env, stdout=out, stderr=out)
        RUNNING.add(self)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not start in time")

    def stop(self) -> None:
        """Stop the server gracefully (SIGTERM), killing it if it takes too long."""
        RUNNING.discard(self)
        if self.proc is None:
            return
        terminate(self.proc)
        self.proc = None

    def kill(self) -> None:
        """Kill the server at once (SIGKILL): no shutdown code runs."""
        RUNNING.discard(self)
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to ``url``; the JSON answer."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def get(url: str) -> dict[str, Any]:
    """GET ``url``; the JSON answer."""
    with urllib.request.urlopen(url, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


WAIT_S = 30.0
"""The longest a test waits for one message on a live server's WebSocket."""

_seen: weakref.WeakKeyDictionary[Any, collections.deque[str]] = weakref.WeakKeyDictionary()


def receive(ws: Any, awaiting: str = "a message", seconds: float = WAIT_S) -> dict[str, Any]:
    """The next JSON message on ``ws`` (a ``websockets.sync`` connection) within ``seconds``.

    Raises ``AssertionError`` naming ``awaiting`` and the last messages seen when nothing comes
    in time (and ``websockets``' ``ConnectionClosed`` when the server closed the socket).
    """
    seen = _seen.setdefault(ws, collections.deque(maxlen=6))
    try:
        text = ws.recv(timeout=seconds)
    except TimeoutError:
        last = "\n".join(f"  {m}" for m in seen) or "  (none)"
        raise AssertionError(
            f"nothing came within {seconds:g} s while waiting for {awaiting}; the last messages "
            f"seen (oldest first):\n{last}"
        ) from None
    seen.append(str(text)[:240])
    msg: dict[str, Any] = json.loads(text)
    return msg
