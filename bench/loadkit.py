"""The load harnesses' shared parts: percentiles, a phase's figures, a ``parlour serve``
subprocess on 127.0.0.1 with its CPU/memory sampler, and the HTTP and WebSocket clients
(used by ``bench/load.py``, ``bench/load_limits.py`` and ``bench/fair.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
RECV_TIMEOUT_S = 60.0
"""A client socket that receives nothing for this long is broken (:meth:`Socket.recv`)."""
Msg = dict[str, Any]


# ---------------------------------------------------------------------------------- statistics


def percentile(ordered: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) of sorted values, interpolated; ``nan`` when empty.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    >>> percentile([], 99)
    nan
    """
    if not ordered:
        return math.nan
    k = (len(ordered) - 1) * p / 100
    low = math.floor(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


@dataclass
class Phase:
    """Everything one phase measured."""

    name: str
    tables: int
    sent: int = 0
    received: int = 0
    open_now: int = 0
    open_peak: int = 0
    opened: int = 0
    connect_failures: int = 0
    games_started: int = 0
    games_finished: int = 0
    samples: list[float] = field(default_factory=list)
    sampled_at: list[float] = field(default_factory=list)
    """``time.monotonic()`` of each sample (the same order)."""
    kinds: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    server_cpu: list[float] = field(default_factory=list)
    server_rss_mb: list[float] = field(default_factory=list)
    client_cpu: list[float] = field(default_factory=list)
    bot_cpu: list[float] = field(default_factory=list)
    other_cpu: list[float] = field(default_factory=list)
    play_s: float = 0.0
    setup_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    http_ms: list[float] = field(default_factory=list)
    loop_lag_p99_ms: list[float] = field(default_factory=list)
    store_waiting: list[int] = field(default_factory=list)
    ramp_samples: list[float] = field(default_factory=list)
    """With a ramp (``--ramp-seconds``): the samples taken while the tables were being set up,
    apart from :attr:`samples`."""
    client_lag_ms: list[float] = field(default_factory=list)
    """How late the load client's own event loop woke up, every 20 ms."""
    failover: dict[str, int] = field(default_factory=dict)
    """Many processes: the figures of the ``failover`` line (``bench/failover.py``)."""
    ok: bool = True
    """Many processes: no acknowledged move lost, and every killed process's table resumed."""

    def sample(self, ms: float, kind: str | None = None) -> None:
        self.samples.append(ms)
        self.sampled_at.append(time.monotonic())
        if kind is not None:
            self.kinds.setdefault(kind, []).append(ms)

    def p99(self) -> float:
        return percentile(sorted(self.samples), 99)

    def p99_by_window(self, window_s: float = 10.0) -> list[float]:
        """The p99 of the samples of each ``window_s`` from the first sample on (a slow start,
        a pause or a slow end shows up in its own window)."""
        if not self.samples:
            return []
        first = self.sampled_at[0]
        windows: dict[int, list[float]] = {}
        for ms, at in zip(self.samples, self.sampled_at, strict=True):
            windows.setdefault(int((at - first) // window_s), []).append(ms)
        return [percentile(sorted(windows.get(i, [])), 99) for i in range(max(windows) + 1)]


# ---------------------------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


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
        return f"redis://{HOST}:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        """Start it and wait until it accepts connections (``RuntimeError`` if it does not)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", HOST,
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        log = (self.folder / "redis.log").open("ab")
        self.proc = subprocess.Popen(command, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("redis-server exited: see " + str(self.folder / "redis.log"))
            try:
                with socket.create_connection((HOST, self.port), timeout=0.2) as sock:
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
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


class Server:
    """``parlour serve`` in a subprocess on 127.0.0.1 (optionally under cProfile)."""

    def __init__(
        self,
        workdir: Path,
        name: str,
        game_speed: float,
        profile: Path | None,
        script: str | None = None,
        bot_delay: tuple[float, float] = (0, 0),
        env: dict[str, str] | None = None,
        db: str | None = None,
        more: list[str] | None = None,
    ) -> None:
        self.port = free_port()
        self.script = script
        self.db = db or str(workdir / f"{name}.db")
        self.more = list(more or [])
        """More options of ``parlour serve`` (e.g. ``--redis URL``)."""
        self.log = workdir / f"{name}.log"
        self.profile = profile
        self.env = {
            **os.environ,
            "PARLOUR_BOT_DELAY_MIN_MS": str(int(bot_delay[0])),
            "PARLOUR_BOT_DELAY_MAX_MS": str(int(bot_delay[1])),
            "PARLOUR_ANIM_MS": "0",
            "PARLOUR_START_COUNTDOWN_MS": "0",
            "PARLOUR_GAME_SPEED": str(game_speed),
            "PARLOUR_MAX_OPEN_TABLES": "100000",
            "PARLOUR_NEW_TABLES_BURST": "100000",  # every client is on 127.0.0.1
            "PARLOUR_HOST": HOST,
            **(env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.nofile: int | None = None
        """The server's limit on open files (``ulimit -n``), if set."""
        self.nice = 0
        """How much lower the server's CPU priority is than the load client's (``nice``)."""

    def _limit_files(self) -> None:
        if self.nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))
        if self.nice:
            os.nice(self.nice)

    def start(self, timeout: float = 30.0) -> None:
        """Start and wait until the port accepts connections; raises ``RuntimeError``."""
        command = [sys.executable]
        if self.profile is not None:
            command += ["-m", "cProfile", "-o", str(self.profile)]
        command += [self.script] if self.script else ["-m", "parlour.cli.main"]
        command += ["serve", "--host", HOST, "--port", str(self.port)]
        command += ["--db", self.db, *self.more]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command,
                env=self.env,
                stdout=out,
                stderr=out,
                stdin=subprocess.DEVNULL,
                preexec_fn=self._limit_files if self.nofile is not None or self.nice else None,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection((HOST, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not start in time")

    def stop(self) -> None:
        """SIGTERM (so that cProfile writes its file), SIGKILL after 15 s."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            # uvicorn re-raises the signal it stopped on; SIGINT then ends in KeyboardInterrupt,
            # which lets cProfile write its file (SIGTERM's default action would not).
            self.proc.send_signal(signal.SIGINT if self.profile else signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class ProcSampler:
    """Samples a process's CPU (% of one core, from /proc/<pid>/stat) and RSS (VmRSS) and this
    process's own CPU, once a second; given several processes (the servers of a cluster), their
    sums (a process that is gone counts for nothing)."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, pid: int | list[int], phase: Phase) -> None:
        self.pids = [pid] if isinstance(pid, int) else list(pid)
        self.phase = phase

    def _ticks(self) -> dict[int, int]:
        found = {}
        for pid in self.pids:
            try:
                text = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            fields = text.rsplit(")", 1)[1].split()
            found[pid] = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        return found

    def _rss_mb(self) -> float | None:
        total = None
        for pid in self.pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total = (total or 0) + int(line.split()[1]) / 1024
            except OSError:
                pass
        return total

    def _children_ticks(self) -> int:
        # CPU of the server's own child processes (the bots' process pool).
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) in self.pids:  # the parent's pid (field 4)
                total += int(fields[11]) + int(fields[12])
        return total

    @staticmethod
    def _busy_ticks() -> int:
        # Every core's non-idle time (/proc/stat "cpu" line: all but idle and iowait).
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(values[:8]) - values[3] - values[4]

    async def _watch_lag(self) -> None:
        # How late this process's own event loop wakes up (the client's stalls delay every
        # reply it reads, and so every sample).
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.02)
            self.phase.client_lag_ms.append((time.monotonic() - start - 0.02) * 1000)

    async def run(self) -> None:
        watch = asyncio.ensure_future(self._watch_lag())
        try:
            await self._sample()
        finally:
            watch.cancel()

    async def _sample(self) -> None:
        last_wall, last_ticks = time.monotonic(), self._ticks()
        last_own, last_busy = sum(os.times()[:2]), self._busy_ticks()
        last_kids = self._children_ticks()
        while True:
            await asyncio.sleep(1.0)
            wall, ticks, own = time.monotonic(), self._ticks(), sum(os.times()[:2])
            busy, kids = self._busy_ticks(), self._children_ticks()
            span = wall - last_wall
            both = ticks.keys() & last_ticks.keys()
            if both and span > 0:
                used = sum(ticks[pid] - last_ticks[pid] for pid in both)
                server = 100 * used / self.TICK / span
                bots = 100 * max(0, kids - last_kids) / self.TICK / span
                client = 100 * (own - last_own) / span
                everyone = 100 * (busy - last_busy) / self.TICK / span
                self.phase.server_cpu.append(server)
                self.phase.bot_cpu.append(bots)
                self.phase.client_cpu.append(client)
                self.phase.other_cpu.append(max(0.0, everyone - server - bots - client))
            rss = self._rss_mb()
            if rss is not None:
                self.phase.server_rss_mb.append(rss)
            last_wall, last_ticks, last_own, last_busy = wall, ticks, own, busy
            last_kids = kids


# ---------------------------------------------------------------------------------- clients


async def http_json(port: int, path: str, body: Msg | None = None) -> tuple[int, Msg]:
    """A minimal HTTP/1.1 request to 127.0.0.1 (no extra client library needed): a JSON POST
    of ``body``, or a GET without one; the status and the JSON body (``{}`` if none)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    if body is None:
        head, data = f"GET {path} HTTP/1.1\r\n", b""
    else:
        data = json.dumps(body).encode()
        head = (f"POST {path} HTTP/1.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n")  # fmt: skip
    try:
        writer.write(f"{head}Host: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode() + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    header, _, payload = raw.partition(b"\r\n\r\n")
    parts = header.split(b" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():  # its process went away while answering
        raise ConnectionResetError(f"no HTTP response from port {port}")
    status = int(parts[1])
    if b"transfer-encoding: chunked" in header.lower():
        payload = _unchunk(payload)
    try:
        return status, json.loads(payload or b"{}")
    except ValueError:
        return status, {}


async def post_json(port: int, path: str, body: Msg) -> tuple[int, Msg]:
    """A JSON POST to 127.0.0.1 (:func:`http_json`)."""
    return await http_json(port, path, body)


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_text, _, rest = data.partition(b"\r\n")
        size = int(size_text.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2 :]
    return out


class Socket:
    """One seat's WebSocket with counting send/receive."""

    def __init__(self, ws: ClientConnection, phase: Phase) -> None:
        self.ws = ws
        self.phase = phase

    async def send(self, kind: str, **body: Any) -> None:
        self.phase.sent += 1
        await self.ws.send(orjson.dumps({"v": 1, "type": kind, **body}).decode())

    async def recv(self) -> Msg:
        """The next message; ``TimeoutError`` after :data:`RECV_TIMEOUT_S` of silence (every
        table sends something far more often: a socket that quiet is broken)."""
        async with asyncio.timeout(RECV_TIMEOUT_S):
            raw = await self.ws.recv()
        self.phase.received += 1
        msg: Msg = orjson.loads(raw)  # the client's CPU is the machine's too: parse fast
        return msg


@contextlib.asynccontextmanager
async def open_seat(port: int, table_id: str, token: str, phase: Phase) -> Any:
    """Connect to a table's socket and say hello; yields the :class:`Socket` and the first
    ``state`` message."""
    try:
        ws = await connect(
            f"ws://{HOST}:{port}/ws/{table_id}",
            proxy=None,
            open_timeout=20,
            close_timeout=1,
            ping_interval=None,
            max_size=2**20,
        )
    except Exception:
        phase.connect_failures += 1
        raise
    phase.opened += 1
    phase.open_now += 1
    phase.open_peak = max(phase.open_peak, phase.open_now)
    sock = Socket(ws, phase)
    try:
        await sock.send("hello", token=token)
        while True:
            msg = await sock.recv()
            if msg["type"] == "state":
                break
            if msg["type"] == "error":
                phase.errors[msg["code"]] += 1
        yield sock, msg
    finally:
        phase.open_now -= 1
        with contextlib.suppress(Exception):
            await ws.close()


def parse_range(text: str) -> tuple[float, float]:
    """``"200-1000"`` → ``(200.0, 1000.0)``; ``"0"`` → ``(0.0, 0.0)``.

    >>> parse_range("200-1000"), parse_range("0")
    ((200.0, 1000.0), (0.0, 0.0))
    """
    low, _, high = text.partition("-")
    return float(low), float(high or low)
