"""Load harness: many concurrent WebSocket clients play whole games against a real server.

Two phases, each against a fresh ``parlour serve`` subprocess on 127.0.0.1 (a free port, a
temporary SQLite file, bots with their production pause before a SCOUT move (``--bot-delay-ms``;
never part of a sample) thinking in the production process pool, no start countdown, SNAP in
real time), each bounded by a wall-clock cap and a number of games:

- **SCOUT**: ``--scout-tables`` tables at once, each with two people (the host and a second
  person who joins through the API) and two bots (easy, medium). A person plays a random legal
  move from its ``actions`` after a think time (``--think-ms``). A sample is the time from
  sending a person's ``act`` to the moment *every* person at that table has received a ``state``
  with a ``state_id`` at least the acknowledged one (bot thinking is not in it: bots move after
  that state).
- **SNAP**: ``--snap-tables`` tables at once, each with one person and one to three medium bots.
  The person answers every ``ping`` at once, flips on its turn (after ``--flip-ms``) and calls
  (``play`` with ``rt_ms`` 250) when two face-up tops, or a top and the Pot's top, share a rank.
  A sample is the time from sending the call to receiving the ``state`` whose events hold its
  verdict (a ``win``/``tie``/``void`` listing the person's call, or the call's own non-race
  verdict: false, late, repeat, early).

- **Flood** (``--flood-tables``, off by default; ``make load-flood`` runs 100): one client opens
  that many twelve-seat SNAP tables at once — one person and eleven *expert* bots each, the
  heaviest real-time table there is — with the per-guest limit lifted, while a prober GETs
  ``/`` and ``/api/health`` every 100 ms. It reports the HTTP latency throughout, the server's
  event-loop lag (p99 of its last seconds, from ``/api/health``), writes waiting for the store,
  and how many tables admission control refused (``503 busy``). It ends with one more line for
  scripts, before the two above: ``flood tables=<n> http_p99_ms=<x> loop_lag_p99_ms=<x>
  refused=<n>``.

A table slot that finishes its game starts a new one until the phase's ``--*-seconds`` have
passed (at most ``--max-games`` per slot); then every socket is closed and the server stopped.
It reports connections, messages per second, latency percentiles, games finished, errors by
code, and the server's CPU (% of one core) and RSS sampled every second (and the client's own
CPU). The last two lines are, for scripts (``nan`` when a phase has no sample)::

    scout tables=<n> p99_ms=<x>
    snap tables=<n> p99_ms=<x>

Run with ``make load`` (or ``python bench/load.py --help``). ``--profile DIR`` runs each server
under cProfile and prints its hotspots. ``--processes N [--kill-one]`` runs the many-processes
load instead (``bench/failover.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import pstats
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
SNAP_CALL_RT_MS = 250
"""The reaction time the SNAP person reports with each call."""
CALL_TIMEOUT_S = 5.0
"""A call whose verdict has not come by then is counted as ``call_timeout``."""
SETUP_CONCURRENCY = 16
"""Tables being created and joined at once during the ramp-up."""

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

    def sample(self, ms: float, kind: str | None = None) -> None:
        self.samples.append(ms)
        if kind is not None:
            self.kinds.setdefault(kind, []).append(ms)

    def p99(self) -> float:
        return percentile(sorted(self.samples), 99)


# ---------------------------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


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
    ) -> None:
        self.port = free_port()
        self.script = script
        self.db = workdir / f"{name}.db"
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

    def _limit_files(self) -> None:
        if self.nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def start(self, timeout: float = 30.0) -> None:
        """Start and wait until the port accepts connections; raises ``RuntimeError``."""
        command = [sys.executable]
        if self.profile is not None:
            command += ["-m", "cProfile", "-o", str(self.profile)]
        command += [self.script] if self.script else ["-m", "parlour.cli.main"]
        command += ["serve", "--host", HOST, "--port", str(self.port)]
        command += ["--db", str(self.db)]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command,
                env=self.env,
                stdout=out,
                stderr=out,
                stdin=subprocess.DEVNULL,
                preexec_fn=self._limit_files if self.nofile is not None else None,
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
    process's own CPU, once a second."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, pid: int, phase: Phase) -> None:
        self.pid = pid
        self.phase = phase

    def _ticks(self) -> int | None:
        try:
            text = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return None
        fields = text.rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)

    def _rss_mb(self) -> float | None:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

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
            if int(fields[1]) == self.pid:  # the parent's pid (field 4)
                total += int(fields[11]) + int(fields[12])
        return total

    @staticmethod
    def _busy_ticks() -> int:
        # Every core's non-idle time (/proc/stat "cpu" line: all but idle and iowait).
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(values[:8]) - values[3] - values[4]

    async def run(self) -> None:
        last_wall, last_ticks = time.monotonic(), self._ticks()
        last_own, last_busy = sum(os.times()[:2]), self._busy_ticks()
        last_kids = self._children_ticks()
        while True:
            await asyncio.sleep(1.0)
            wall, ticks, own = time.monotonic(), self._ticks(), sum(os.times()[:2])
            busy, kids = self._busy_ticks(), self._children_ticks()
            span = wall - last_wall
            if ticks is not None and last_ticks is not None and span > 0:
                server = 100 * (ticks - last_ticks) / self.TICK / span
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
    status = int(header.split(b" ", 2)[1])
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
        await self.ws.send(json.dumps({"v": 1, "type": kind, **body}))

    async def recv(self) -> Msg:
        raw = await self.ws.recv()
        self.phase.received += 1
        msg: Msg = json.loads(raw)
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


# ---------------------------------------------------------------------------------- SCOUT


class ScoutPerson:
    """One person at a SCOUT table: acts on its turn, records when each state arrived."""

    def __init__(self, table: ScoutTable, sock: Socket, first: Msg) -> None:
        self.table = table
        self.sock = sock
        self.latest = first
        self.arrivals: deque[tuple[int, float]] = deque(maxlen=64)  # (state_id, when)
        self.max_sid = first["state_id"]
        self.arrivals.append((first["state_id"], time.perf_counter()))
        self.busy = False  # an act is scheduled or waiting for its ack/error
        self.acted_on = -1
        self.sent_at: dict[int, float] = {}  # ref -> perf_counter at send
        self.ref = 0
        self.finished = bool(first.get("finished"))

    def reached(self, state_id: int) -> float | None:
        """When this seat first held a state with at least ``state_id`` (None: not yet)."""
        for sid, when in self.arrivals:
            if sid >= state_id:
                return when
        return None

    async def run(self) -> None:
        self.maybe_act()
        while not (self.finished and not self.busy):
            msg = await self.sock.recv()
            now = time.perf_counter()
            kind = msg["type"]
            if kind == "state":
                sid = msg["state_id"]
                if sid > self.max_sid:
                    self.max_sid = sid
                    self.arrivals.append((sid, now))
                    self.table.on_state(self, sid, now)
                self.latest = msg
                self.finished = bool(msg.get("finished"))
            elif kind == "ack":
                sent = self.sent_at.pop(msg.get("ref", -1), None)
                if sent is not None:
                    self.table.on_ack(msg["state_id"], sent)
                self.busy = False
            elif kind == "error":
                self.table.phase.errors[msg["code"]] += 1
                self.sent_at.pop(msg.get("ref", -1), None)
                self.busy = False
            self.maybe_act()

    def maybe_act(self) -> None:
        msg = self.latest
        if self.busy or self.finished or not msg["actions"] or msg["state_id"] <= self.acted_on:
            return
        self.busy = True
        low, high = self.table.think
        delay = self.table.rng.uniform(low, high) / 1000
        task = asyncio.get_running_loop().create_task(self._act_after(delay))
        self.table.tasks.add(task)
        task.add_done_callback(self.table.tasks.discard)

    async def _act_after(self, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        msg = self.latest
        if self.finished or not msg["actions"] or msg["state_id"] <= self.acted_on:
            self.busy = False
            self.maybe_act()
            return
        self.acted_on = msg["state_id"]
        self.ref += 1
        action = self.table.rng.choice(msg["actions"])
        self.sent_at[self.ref] = time.perf_counter()
        await self.sock.send("act", state_id=msg["state_id"], action=action, ref=self.ref)


class ScoutTable:
    """The two people of one SCOUT table and the pending latency measurements."""

    def __init__(self, phase: Phase, rng: random.Random, think: tuple[float, float]) -> None:
        self.phase = phase
        self.rng = rng
        self.think = think
        self.people: list[ScoutPerson] = []
        self.pending: list[tuple[int, float, set[ScoutPerson]]] = []
        self.tasks: set[asyncio.Task[None]] = set()

    def on_ack(self, state_id: int, sent: float) -> None:
        waiting = {p for p in self.people if p.reached(state_id) is None}
        if waiting:
            self.pending.append((state_id, sent, waiting))
            return
        last = max(p.reached(state_id) or sent for p in self.people)
        self.phase.sample((last - sent) * 1000)

    def on_state(self, person: ScoutPerson, state_id: int, when: float) -> None:
        if not self.pending:
            return
        keep = []
        for wanted, sent, waiting in self.pending:
            if state_id >= wanted:
                waiting.discard(person)
            if waiting:
                keep.append((wanted, sent, waiting))
            else:
                self.phase.sample((when - sent) * 1000)
        self.pending = keep


async def scout_game(port: int, phase: Phase, rng: random.Random, args: Any) -> None:
    """Create a SCOUT table (2 people, 2 bots), play it to its end, close it."""
    seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
    status, made = await post_json(
        port, "/api/tables", {"game": "scout", "name": "Host", "seats": seats}
    )
    if status != 201:
        phase.errors[f"http_{made.get('code', status)}"] += 1
        raise RuntimeError(f"create: {status} {made}")
    table_id = made["table_id"]
    status, joined = await post_json(port, f"/api/tables/{table_id}/join", {"name": "Guest"})
    if status != 200:
        phase.errors[f"http_{joined.get('code', status)}"] += 1
        raise RuntimeError(f"join: {status} {joined}")
    table = ScoutTable(phase, rng, parse_range(args.think_ms))
    async with (
        open_seat(port, table_id, made["token"], phase) as (host, first0),
        open_seat(port, table_id, joined["token"], phase) as (guest, first1),
    ):
        table.people = [ScoutPerson(table, host, first0), ScoutPerson(table, guest, first1)]
        phase.games_started += 1
        await host.send("start")
        try:
            await asyncio.gather(*(p.run() for p in table.people))
        finally:
            for task in list(table.tasks):
                task.cancel()
    phase.games_finished += 1


# ---------------------------------------------------------------------------------- SNAP


def snap_match(view: Msg) -> bool:
    """Whether two face-up tops of seats still in, or a top and the Pot's top, share a rank.

    >>> snap_match({"seats": [{"top": "10H", "out": False}, {"top": "10S", "out": False}],
    ...             "pot": {"top": None}})
    True
    >>> snap_match({"seats": [{"top": "9H", "out": False}, {"top": None, "out": False}],
    ...             "pot": {"top": "9C"}})
    True
    """
    ranks = [s["top"][:-1] for s in view["seats"] if s["top"] and not s["out"]]
    pot = view["pot"]["top"]
    return len(ranks) != len(set(ranks)) or (pot is not None and pot[:-1] in ranks)


class SnapPerson:
    """The person at a SNAP table: pongs, flips, calls, and times each call's verdict."""

    def __init__(self, sock: Socket, first: Msg, phase: Phase, rng: random.Random, args: Any):
        self.sock = sock
        self.phase = phase
        self.rng = rng
        self.flip_ms = parse_range(args.flip_ms)
        self.seat: int = first["view"]["seat"]
        self.latest = first
        self.called: set[int] = set()
        self.call: tuple[str, float] | None = None  # (ref, sent) of the call awaiting a verdict
        self.flip_for: tuple[int, Any] | None = None
        self.ref = 0
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        await self.consider(self.latest)
        while True:
            msg = await self.sock.recv()
            kind = msg["type"]
            if kind == "ping":
                await self.sock.send("pong", nonce=msg["nonce"])
            elif kind == "state":
                self.latest = msg
                if self.call is not None:
                    self.verdict(msg["events"], time.perf_counter())
                if msg.get("finished"):
                    return
                await self.consider(msg)
            elif kind == "error":
                self.phase.errors[msg["code"]] += 1
                if self.call is not None and msg.get("ref") == self.call[0]:
                    self.call = None
            if self.call is not None and time.perf_counter() - self.call[1] > CALL_TIMEOUT_S:
                self.phase.errors["call_timeout"] += 1
                self.call = None

    def verdict(self, events: list[Msg], now: float) -> None:
        assert self.call is not None
        me = self.seat
        for event in events:
            kind = event["type"]
            found = None
            if kind == "call" and event["seat"] == me and event["verdict"] != "race":
                found = event["verdict"]
            elif kind in ("win", "tie", "void") and any(c["seat"] == me for c in event["calls"]):
                found = kind if kind != "win" else "won" if event["seat"] == me else "lost"
            if found is not None:
                self.phase.sample((now - self.call[1]) * 1000, found)
                self.call = None
                return

    async def consider(self, msg: Msg) -> None:
        view, actions = msg["view"], msg["actions"]
        if view["outcome"] is not None or view["seats"][self.seat]["out"]:
            return
        seq = view["seq"]
        can_call = any(a["type"] == "snap" for a in actions)
        if seq and can_call and self.call is None and seq not in self.called and snap_match(view):
            self.called.add(seq)
            self.ref += 1
            ref = f"c{self.ref}"
            self.call = (ref, time.perf_counter())
            action = {"type": "snap"}
            await self.sock.send("play", seq=seq, rt_ms=SNAP_CALL_RT_MS, action=action, ref=ref)
        situation = (seq, view["turn"])
        if any(a["type"] == "flip" for a in actions) and self.flip_for != situation:
            self.flip_for = situation
            delay = self.rng.uniform(*self.flip_ms) / 1000
            task = asyncio.get_running_loop().create_task(self._flip_after(delay))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _flip_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        msg = self.latest
        if msg.get("finished") or not any(a["type"] == "flip" for a in msg["actions"]):
            return
        self.ref += 1
        await self.sock.send(
            "play", seq=msg["view"]["seq"], action={"type": "flip"}, ref=f"f{self.ref}"
        )


async def snap_game(
    port: int, phase: Phase, rng: random.Random, args: Any, bots: int, level: str = "medium"
) -> None:
    """Create a SNAP table (1 person, ``bots`` bots of ``level``), play it to its end, close
    it."""
    seats = [{"kind": "bot", "level": level}] * bots
    status, made = await post_json(
        port, "/api/tables", {"game": "snap", "name": "Host", "seats": seats}
    )
    if status != 201:
        phase.errors[f"http_{made.get('code', status)}"] += 1
        raise RuntimeError(f"create: {status} {made}")
    async with open_seat(port, made["table_id"], made["token"], phase) as (sock, first):
        person = SnapPerson(sock, first, phase, rng, args)
        phase.games_started += 1
        try:
            await person.run()
        finally:
            for task in list(person.tasks):
                task.cancel()
    phase.games_finished += 1


# ---------------------------------------------------------------------------------- phases


async def run_slots(
    phase: Phase,
    count: int,
    seconds: float,
    max_games: int,
    game: Callable[[int], Awaitable[None]],
) -> None:
    """Run ``count`` table slots, each playing ``game(slot)`` again and again for ``seconds``
    (at most ``max_games`` each), then cancel whatever is still playing."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    start = time.monotonic()
    deadline = start + seconds
    ready = 0

    async def slot(index: int) -> None:
        nonlocal ready
        for n in range(max_games):
            if time.monotonic() >= deadline:
                return
            if n == 0:
                await gate.acquire()  # ramp up in small groups
                task = asyncio.ensure_future(game(index))
                await asyncio.sleep(0.05)
                gate.release()
                ready += 1
                if ready == count:
                    phase.setup_s = time.monotonic() - start
            else:
                task = asyncio.ensure_future(game(index))
            try:
                await task
            except (ConnectionClosed, OSError, RuntimeError, TimeoutError) as exc:
                phase.errors[f"client_{type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)

    tasks = [asyncio.ensure_future(slot(i)) for i in range(count)]
    _, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    phase.play_s = time.monotonic() - start


async def run_phase(phase: Phase, server: Server, body: Callable[[], Awaitable[None]]) -> None:
    assert server.proc is not None
    sampler = asyncio.ensure_future(ProcSampler(server.proc.pid, phase).run())
    try:
        await body()
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler


def phase_with_server(
    phase: Phase,
    workdir: Path,
    args: Any,
    speed: float,
    body: Callable[[int], Awaitable[None]],
    env: dict[str, str] | None = None,
) -> None:
    """Start a server, run ``body(port)`` against it with sampling, always stop the server."""
    profile = Path(args.profile) / f"{phase.name}.prof" if args.profile else None
    server = Server(
        workdir, phase.name, speed, profile, args.server_script, parse_range(args.bot_delay_ms),
        env,
    )  # fmt: skip
    server.start()
    try:
        asyncio.run(run_phase(phase, server, lambda: body(server.port)))
    finally:
        server.stop()
        tail = server.log.read_text(errors="replace").splitlines()
        problems = [line for line in tail if line.startswith(("ERROR", "WARNING", "Traceback"))]
        if problems:
            phase.notes.append(f"{len(problems)} server log lines with ERROR/WARNING")
            phase.notes += problems[:5]


def scout_phase(workdir: Path, args: Any) -> Phase:
    phase = Phase("scout", args.scout_tables)
    rng = random.Random(args.seed)

    async def body(port: int) -> None:
        await run_slots(
            phase,
            args.scout_tables,
            args.scout_seconds,
            args.max_games,
            lambda i: scout_game(port, phase, random.Random(rng.random()), args),
        )

    phase_with_server(phase, workdir, args, 1.0, body)
    return phase


def snap_phase(workdir: Path, args: Any) -> Phase:
    phase = Phase("snap", args.snap_tables)
    rng = random.Random(args.seed + 1)

    async def body(port: int) -> None:
        await run_slots(
            phase,
            args.snap_tables,
            args.snap_seconds,
            args.max_games,
            lambda i: snap_game(port, phase, random.Random(rng.random()), args, 1 + i % 3),
        )

    phase_with_server(phase, workdir, args, args.game_speed, body)
    return phase


async def probe_http(port: int, phase: Phase, every_s: float = 0.1) -> None:
    """GET ``/`` and ``/api/health`` every ``every_s`` until cancelled; records each request's
    latency, the server's loop lag p99 and its writes waiting."""
    while True:
        for path in ("/", "/api/health"):
            began = time.perf_counter()
            try:
                status, body = await asyncio.wait_for(http_json(port, path), 10)
            except (OSError, TimeoutError):
                phase.errors[f"http_probe_{path}"] += 1
                continue
            phase.http_ms.append((time.perf_counter() - began) * 1000)
            if path == "/api/health" and status == 200:
                phase.loop_lag_p99_ms.append(body["loop_lag_ms"]["p99"])
                phase.store_waiting.append(body["store"]["waiting"])
        await asyncio.sleep(every_s)


def flood_phase(workdir: Path, args: Any) -> Phase:
    phase = Phase("flood", args.flood_tables)
    rng = random.Random(args.seed + 2)

    async def body(port: int) -> None:
        prober = asyncio.ensure_future(probe_http(port, phase))
        try:
            await run_slots(
                phase,
                args.flood_tables,
                args.flood_seconds,
                1,
                lambda i: snap_game(port, phase, random.Random(rng.random()), args, 11, "expert"),
            )
        finally:
            prober.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await prober

    env = {"PARLOUR_MAX_TABLES_PER_GUEST": "100000"}
    phase_with_server(phase, workdir, args, 1.0, body, env)
    return phase


# ---------------------------------------------------------------------------------- report


def _ms(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.1f}"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _mean_max(values: list[float]) -> str:
    return f"{_mean(values):.0f} / {max(values, default=math.nan):.0f}"


def render(phases: list[Phase], args: Any) -> Table:
    table = Table(title="Parlour load (loopback)", show_lines=False)
    table.add_column("")
    for phase in phases:
        table.add_column(f"{phase.name.upper()} ({phase.tables} tables)", justify="right")

    def row(label: str, get: Callable[[Phase], str]) -> None:
        table.add_row(label, *(get(p) for p in phases))

    row("play time (s), ramp-up (s)", lambda p: f"{p.play_s:.1f}, {p.setup_s:.1f}")
    row("connections: peak / opened / failed",
        lambda p: f"{p.open_peak} / {p.opened} / {p.connect_failures}")  # fmt: skip
    row("messages sent /s", lambda p: f"{p.sent / max(p.play_s, 1e-9):.0f}")
    row("messages received /s", lambda p: f"{p.received / max(p.play_s, 1e-9):.0f}")
    row("games started / finished", lambda p: f"{p.games_started} / {p.games_finished}")
    row("latency samples", lambda p: str(len(p.samples)))
    for q in (50, 95, 99):
        row(f"latency p{q} (ms)", lambda p, q=q: _ms(percentile(sorted(p.samples), q)))
    row("latency max (ms)", lambda p: _ms(max(p.samples, default=math.nan)))
    row("server CPU mean / max (% core)", lambda p: _mean_max(p.server_cpu))
    row("server RSS mean / max (MB)", lambda p: _mean_max(p.server_rss_mb))
    row("client CPU mean / max (% core)", lambda p: _mean_max(p.client_cpu))
    row("server's bot processes CPU mean / max", lambda p: _mean_max(p.bot_cpu))
    row("other processes' CPU mean / max", lambda p: _mean_max(p.other_cpu))
    if any(p.http_ms for p in phases):
        for q in (50, 99):
            row(f"HTTP GET p{q} (ms)", lambda p, q=q: _ms(percentile(sorted(p.http_ms), q)))
        row("HTTP GET max (ms)", lambda p: _ms(max(p.http_ms, default=math.nan)))
        row("server loop lag p99: median / max (ms)",
            lambda p: f"{_ms(percentile(sorted(p.loop_lag_p99_ms), 50))} / "
                      f"{_ms(max(p.loop_lag_p99_ms, default=math.nan))}")  # fmt: skip
        row("writes waiting for the store: max", lambda p: str(max(p.store_waiting, default=0)))
    row("errors", lambda p: ", ".join(f"{k} {v}" for k, v in p.errors.most_common()) or "none")
    return table


def render_kinds(phase: Phase) -> Table:
    table = Table(title="SNAP calls by verdict (ms from call to verdict)")
    for name in ("verdict", "calls", "p50", "p95", "p99", "max"):
        table.add_column(name, justify="right" if name != "verdict" else "left")
    for kind, values in sorted(phase.kinds.items(), key=lambda kv: -len(kv[1])):
        ordered = sorted(values)
        table.add_row(
            kind,
            str(len(values)),
            *(_ms(percentile(ordered, q)) for q in (50, 95, 99)),
            _ms(ordered[-1]),
        )
    return table


def hotspots(path: Path, console: Console, top: int) -> None:
    """Print the ``top`` functions of a cProfile file by cumulative and by own time."""
    if not path.exists():
        console.print(f"[yellow]no profile at {path}[/]")
        return
    for key in ("cumulative", "tottime"):
        console.print(f"[bold]{path.name}: top {top} by {key}[/]")
        stats = pstats.Stats(str(path), stream=sys.stdout)
        stats.sort_stats(key).print_stats(top)
        sys.stdout.flush()


SCENARIOS = ("spectators", "slowloris", "new-tables", "replays")
"""The scenarios of ``bench/load_limits.py``."""


def load_limits() -> Any:
    """The ``load_limits`` module (imported late: it imports this one)."""
    if __package__:
        from bench import load_limits as module
    else:  # run as a script: bench/ is on the path
        import load_limits as module  # type: ignore[no-redef]
    return module


def failover() -> Any:
    """bench/failover.py, imported as a package module or beside this script."""
    if __package__:
        from bench import failover as module
    else:  # run as a script: bench/ is on the path
        import failover as module  # type: ignore[no-redef]
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scout-tables", type=int, default=200, help="SCOUT tables (200)")
    parser.add_argument("--snap-tables", type=int, default=50, help="SNAP tables (50)")
    parser.add_argument("--scout-seconds", type=float, default=60, help="SCOUT phase cap (60)")
    parser.add_argument("--snap-seconds", type=float, default=60, help="SNAP phase cap (60)")
    parser.add_argument("--max-games", type=int, default=20, help="games per table slot (20)")
    parser.add_argument(
        "--think-ms", default="1000-3000", help="a SCOUT person's think time range (1000-3000)"
    )
    parser.add_argument(
        "--bot-delay-ms",
        default="600-1500",
        help="the bots' human-feeling pause before a SCOUT move, as in production (600-1500); "
        "it is not in any latency sample",
    )
    parser.add_argument("--flip-ms", default="150-450", help="a SNAP person's flip pause range")
    parser.add_argument(
        "--game-speed", type=float, default=1.0, help="SNAP game ms per wall ms (1: real time)"
    )
    parser.add_argument(
        "--flood-tables", type=int, default=0,
        help="twelve-seat expert SNAP tables opened by one client (0: no flood phase)",
    )  # fmt: skip
    parser.add_argument("--flood-seconds", type=float, default=60, help="flood phase cap (60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["scout", "snap", "flood"], help="run one phase only")
    parser.add_argument("--profile", metavar="DIR", help="run the servers under cProfile")
    parser.add_argument(
        "--server-script",
        metavar="FILE",
        help="run the server as 'python FILE serve ...' instead of 'python -m parlour.cli.main' "
        "(to try a change, e.g. a monkeypatch, without editing the package)",
    )
    parser.add_argument("--top", type=int, default=25, help="hotspots shown with --profile")
    cluster = parser.add_argument_group(
        "many processes (bench/failover.py): --processes N runs N servers sharing a database and "
        "Redis, SCOUT tables only; prints a 'failover' line before the 'scout' one"
    )
    cluster.add_argument("--processes", type=int, default=0, help="server processes (0: one)")
    cluster.add_argument("--kill-one", action="store_true", help="SIGKILL one of them mid-run")
    cluster.add_argument("--redis", metavar="URL", help="Redis (default: a throwaway one)")
    cluster.add_argument("--lease-ms", type=int, default=5000, help="table leases (5000)")
    cluster.add_argument("--renew-ms", type=int, default=1000, help="lease renewal (1000)")
    limits = parser.add_argument_group(
        "scenarios for the server's limits (bench/load_limits.py): --scenario NAME runs one "
        "instead of the SCOUT and SNAP phases"
    )
    limits.add_argument("--scenario", choices=SCENARIOS, help="run one scenario only")
    limits.add_argument("--spectators", type=int, default=1000, help="spectators (1000)")
    limits.add_argument(
        "--spectator-concurrency", type=int, default=1000, help="connecting at once (1000)"
    )
    limits.add_argument("--watch-seconds", type=float, default=15, help="watching time (15)")
    limits.add_argument("--think-s", type=float, default=0.5, help="the person's think (0.5)")
    limits.add_argument("--slow-sockets", type=int, default=1500, help="slowloris sockets (1500)")
    limits.add_argument("--slow-seconds", type=int, default=30, help="slowloris duration (30)")
    limits.add_argument("--nofile", type=int, default=1024, help="server's ulimit -n (1024)")
    limits.add_argument(
        "--new-tables-seconds", type=float, default=10, help="one address's flood (10)"
    )
    limits.add_argument(
        "--new-tables-addresses", type=int, default=120, help="addresses of the crowd (120)"
    )
    limits.add_argument(
        "--new-tables-wait", type=float, default=0, help="wait for a free slot up to S s (0: no)"
    )
    limits.add_argument("--replay-clients", type=int, default=8, help="replay loopers (8)")
    limits.add_argument("--replay-seconds", type=float, default=20, help="replay time (20)")
    args = parser.parse_args(argv)
    if args.processes:
        return failover().run(args)
    if args.scenario:
        return load_limits().run(args.scenario, args, Console(width=110))
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    console = Console(width=110)
    phases: list[Phase] = []
    empty = {"scout": Phase("scout", 0), "snap": Phase("snap", 0)}
    with tempfile.TemporaryDirectory(prefix="parlour-load-") as tmp:
        workdir = Path(tmp)
        if args.only in (None, "scout") and args.scout_tables > 0:
            console.print(
                f"SCOUT: {args.scout_tables} tables (2 people + easy & medium bots), "
                f"think {args.think_ms} ms, {args.scout_seconds:.0f} s"
            )
            phases.append(scout_phase(workdir, args))
        if args.only in (None, "flood") and args.flood_tables > 0:
            console.print(
                f"Flood: {args.flood_tables} twelve-seat SNAP tables (1 person + 11 expert bots) "
                f"from one client, {args.flood_seconds:.0f} s, HTTP probed every 100 ms"
            )
            phases.append(flood_phase(workdir, args))
        if args.only in (None, "snap") and args.snap_tables > 0:
            console.print(
                f"SNAP: {args.snap_tables} tables (1 person + 1–3 medium bots), "
                f"speed {args.game_speed:g}, {args.snap_seconds:.0f} s"
            )
            phases.append(snap_phase(workdir, args))
    if phases:
        console.print(render(phases, args))
    for phase in phases:
        if phase.kinds:
            console.print(render_kinds(phase))
        if _mean(phase.other_cpu) > 20:
            console.print(
                f"{phase.name}: other processes used {_mean(phase.other_cpu):.0f}% of a core "
                f"on average ({os.cpu_count()} cores): the numbers are not a quiet machine's",
                style="bold yellow",
            )
        for note in phase.notes:
            console.print(f"{phase.name}: {note}", style="yellow", markup=False)
    if args.profile:
        for phase in phases:
            hotspots(Path(args.profile) / f"{phase.name}.prof", console, args.top)
    done = {p.name: p for p in phases}
    if "flood" in done:
        flood = done["flood"]
        lag = max(flood.loop_lag_p99_ms, default=math.nan)
        print(
            f"flood tables={flood.tables} http_p99_ms={percentile(sorted(flood.http_ms), 99):.1f}"
            f" loop_lag_p99_ms={lag:.1f} refused={flood.errors['http_busy']}",
            flush=True,
        )
    for name in ("scout", "snap"):
        phase = done.get(name, empty[name])
        print(f"{name} tables={phase.tables} p99_ms={phase.p99():.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
