"""Load scenarios for the server's limits (issue 16, items 8–10), each against a fresh
``parlour serve`` on 127.0.0.1 with a temporary database, bounded in time and counts:

- ``spectators``: one person plays SCOUT against a bot while ``--spectators`` spectators open
  their sockets at once and then watch; it measures each spectator's time to its first state,
  the time to open them all, the messages they received, and the person's ``ping`` round trip
  and move latency (``act`` to its state) while they connect and while they watch.
- ``slowloris``: ``--slow-sockets`` sockets each send a partial request (and one more header
  line every 5 s, never the end) to a server limited to ``--nofile`` file descriptors, while a
  visitor asks for a small page every 0.5 s; it reports how many slow sockets the server still
  holds over time and how the visitor fared.
- ``new-tables``: one address creates tables without a cookie as fast as it can for
  ``--new-tables-seconds``; then another address tries, then ``--new-tables-addresses``
  addresses (127.0.0.2, …) create tables at once, as a botnet would; it reports answers by code,
  and with ``--new-tables-wait S`` how long until a newcomer can create a table again (at most
  S s).
- ``replays``: a long finished SNAP game is written to the database first; ``--replay-clients``
  clients fetch its replay in a loop while a visitor asks for the lobby page every 0.2 s.

Run one with ``make load LOAD_ARGS="--scenario spectators"`` (``python bench/load.py --help``).
``PYTHONPATH=<another checkout>/src`` runs the same scenario against other server code.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing
import random
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import connect

try:  # as part of the bench package (tests), or next to load.py (run as a script)
    from bench.loadkit import HOST, Phase, ProcSampler, Server, percentile
except ImportError:  # pragma: no cover
    from loadkit import HOST, Phase, ProcSampler, Server, percentile  # type: ignore[no-redef]

Msg = dict[str, Any]
SCENARIOS = ("spectators", "slowloris", "new-tables", "replays")


def _ms(values: list[float], q: float) -> str:
    value = percentile(sorted(values), q)
    return "—" if math.isnan(value) else f"{value:.1f}"


def _spread(values: list[float]) -> str:
    """``p50 / p99 / max`` in ms."""
    if not values:
        return "—"
    return f"{_ms(values, 50)} / {_ms(values, 99)} / {max(values):.1f}"


async def http(
    port: int,
    method: str,
    path: str,
    body: Msg | None = None,
    headers: dict[str, str] | None = None,
    source: str | None = None,
    timeout: float = 5.0,
) -> tuple[int, bytes, float]:
    """One HTTP/1.1 request on its own connection (from address ``source``); returns the status
    (0: no answer within ``timeout``), the raw body and the milliseconds it took."""
    start = time.perf_counter()
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
    for name, value in {**(headers or {}), "Content-Length": str(len(data))}.items():
        head += f"{name}: {value}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    local = (source, 0) if source else None
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=local)
            writer.write(head.encode() + b"\r\n" + data)
            raw = await reader.read()
    except (TimeoutError, OSError):
        return 0, b"", (time.perf_counter() - start) * 1000
    finally:
        if writer is not None:
            writer.close()
    took = (time.perf_counter() - start) * 1000
    header, _, payload = raw.partition(b"\r\n\r\n")
    try:
        status = int(header.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0, b"", took
    return status, payload, took


def _report(console: Console, title: str, rows: list[tuple[str, str]]) -> None:
    table = Table(title=title)
    table.add_column("")
    table.add_column("measured", justify="right")
    for label, value in rows:
        table.add_row(label, value)
    console.print(table)


async def _sampled(server: Server, phase: Phase, body: Awaitable[None]) -> None:
    assert server.proc is not None
    sampler = asyncio.ensure_future(ProcSampler(server.proc.pid, phase).run())
    try:
        await body
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler


def _with_server(
    name: str, env: dict[str, str], body: Callable[[Server, Phase], Awaitable[None]], **kw: Any
) -> Phase:
    phase = Phase(name, 0)
    with tempfile.TemporaryDirectory(prefix="parlour-limits-") as tmp:
        server = Server(Path(tmp), name, 1.0, None, bot_delay=kw.get("bot_delay", (0, 0)))
        for name in ("PARLOUR_MAX_OPEN_TABLES", "PARLOUR_NEW_TABLES_BURST"):
            server.env.pop(name, None)  # the production limits, unless the scenario says otherwise
        server.env.update(env)
        server.nofile = kw.get("nofile")
        prepare = kw.get("prepare")
        if prepare is not None:
            prepare(server.db)
        server.start()
        try:
            asyncio.run(_sampled(server, phase, body(server, phase)))
        finally:
            server.stop()
            problems = [
                line
                for line in server.log.read_text(errors="replace").splitlines()
                if line.startswith(("ERROR", "Traceback"))
            ]
            phase.notes += [f"{len(problems)} server log lines with ERROR"] if problems else []
            phase.notes += problems[:3]
    return phase


# ---------------------------------------------------------------------------------- spectators


async def _spectate(port: int, table_id: str, gate: asyncio.Semaphore, got: dict[str, Any]) -> Any:
    # Open a spectator's socket and read up to its first state; returns the socket (or None).
    async with gate:
        start = time.perf_counter()
        try:
            ws = await connect(
                f"ws://{HOST}:{port}/ws/{table_id}",
                proxy=None,
                open_timeout=60,
                close_timeout=1,
                ping_interval=None,
                max_size=2**22,
            )
            await ws.send(json.dumps({"v": 1, "type": "hello", "watch": True}))
            async with asyncio.timeout(60):
                while True:
                    msg = json.loads(await ws.recv())
                    got["messages"] += 1
                    if msg["type"] == "state":
                        break
                    if msg["type"] == "error":
                        got["refused"][msg["code"]] += 1
                        await ws.close()
                        return None
        except Exception as exc:
            got["failed"][type(exc).__name__] += 1
            return None
        got["connect_ms"].append((time.perf_counter() - start) * 1000)
        return ws


async def _watch(ws: Any, got: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            got["watch_messages"] += 1


class _Person:
    """The person: pings every 50 ms and plays SCOUT moves after ``think`` seconds, timing each
    ``act`` to the state that includes it; samples are ``(wall time sent, ms)``."""

    def __init__(self, ws: Any, first: Msg, think: float) -> None:
        self.ws = ws
        self.latest = first
        self.think = think
        self.rtt: list[tuple[float, float]] = []
        self.moves: list[tuple[float, float]] = []
        self.pings: list[tuple[float, float]] = []  # (wall, perf) of each ping in flight
        self.acted: tuple[int, float, float] | None = None  # (state_id, wall, perf)
        self.rng = random.Random(7)
        self.finished = False

    async def read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            now = time.perf_counter()
            if msg["type"] == "pong" and self.pings:
                wall, sent = self.pings.pop(0)
                self.rtt.append((wall, (now - sent) * 1000))
            elif msg["type"] == "state":
                self.latest = msg
                self.finished = bool(msg.get("finished"))
                if self.acted is not None and msg["state_id"] > self.acted[0]:
                    self.moves.append((self.acted[1], (now - self.acted[2]) * 1000))
                    self.acted = None

    async def ping(self) -> None:
        while True:
            self.pings.append((time.time(), time.perf_counter()))
            await self.ws.send(json.dumps({"v": 1, "type": "ping"}))
            await asyncio.sleep(0.05)

    async def play(self) -> None:
        while not self.finished:
            await asyncio.sleep(self.think)
            msg = self.latest
            if self.acted is None and msg["actions"]:
                self.acted = (msg["state_id"], time.time(), time.perf_counter())
                action = self.rng.choice(msg["actions"])
                body = {"v": 1, "type": "act", "state_id": msg["state_id"], "action": action}
                await self.ws.send(json.dumps(body))
            elif self.acted is not None and time.perf_counter() - self.acted[2] > 10:
                self.acted = None  # refused (stale): try again


async def _person_main(port: int, made: Msg, think: float, until: float, stop: Any) -> Any:
    ws = await connect(f"ws://{HOST}:{port}/ws/{made['table_id']}", proxy=None,
                       ping_interval=None, max_size=2**22)  # fmt: skip
    await ws.send(json.dumps({"v": 1, "type": "hello", "token": made["token"]}))
    async with asyncio.timeout(60):  # a stalled server fails the run, it does not hang it
        while (first := json.loads(await ws.recv()))["type"] != "state":
            pass
    person = _Person(ws, first, think)
    tasks = [asyncio.ensure_future(t) for t in (person.read(), person.ping(), person.play())]
    while time.time() < until and not stop.is_set():
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(), 2)
    return person.rtt, person.moves


def _person_process(port: int, made: Msg, think: float, until: float, stop: Any, out: Any) -> None:
    # The person in a process of its own: the spectators' client work does not delay it.
    out.put(asyncio.run(_person_main(port, made, think, until, stop)))


def spectators(args: Any, console: Console) -> dict[str, Any]:
    """The ``spectators`` scenario (see the module docstring)."""
    count = args.spectators
    got: dict[str, Any] = {"messages": 0, "watch_messages": 0, "connect_ms": [],
                           "failed": Counter(), "refused": Counter()}  # fmt: skip
    figures: dict[str, Any] = {}

    async def body(server: Server, phase: Phase) -> None:
        port = server.port
        seats = [{"kind": "bot", "level": "easy"}]
        _status, raw, _ = await http(port, "POST", "/api/tables", {"name": "Ana", "seats": seats})
        made = json.loads(raw)
        context = multiprocessing.get_context("spawn")
        out, stop = context.Queue(), context.Event()
        until = time.time() + 300  # at most; it stops when told
        person = context.Process(
            target=_person_process,
            args=(port, made, args.think_s, until, stop, out),
            daemon=True,
        )
        person.start()
        await asyncio.sleep(3)
        marks = {"connecting": time.time()}
        gate = asyncio.Semaphore(args.spectator_concurrency)
        start = time.perf_counter()
        socks = await asyncio.gather(
            *(_spectate(port, made["table_id"], gate, got) for _ in range(count))
        )
        figures["open_all_s"] = time.perf_counter() - start
        figures["connect_messages"] = got["messages"]
        marks["watching"] = time.time()
        watchers = [asyncio.ensure_future(_watch(s, got)) for s in socks if s is not None]
        await asyncio.sleep(args.watch_seconds)
        marks["after"] = time.time()
        stop.set()
        for task in watchers:
            task.cancel()
        for sock in [s for s in socks if s is not None]:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sock.close(), 2)
        figures["marks"] = marks
        figures["samples"] = await asyncio.to_thread(out.get, True, 30)
        person.join(5)

    env = {"PARLOUR_MAX_SPECTATORS": str(count + 10), "PARLOUR_NEW_TABLES_BURST": "1000"}
    phase = _with_server("spectators", env, body, bot_delay=(600, 1500))
    marks = figures["marks"]
    rtt, moves = figures["samples"]

    def during(samples: list[tuple[float, float]], period: str) -> list[float]:
        bounds = {"before": (0.0, marks["connecting"]),
                  "connecting": (marks["connecting"], marks["watching"]),
                  "watching": (marks["watching"], marks["after"])}[period]  # fmt: skip
        return [ms for at, ms in samples if bounds[0] <= at < bounds[1]]

    rows = [
        ("spectators opened / refused / failed",
         f"{len(got['connect_ms'])} / {sum(got['refused'].values())} / "
         f"{sum(got['failed'].values())} {dict(got['failed']) or ''}"),
        ("time to open them all (s)", f"{figures['open_all_s']:.2f}"),
        ("a spectator's time to its first state p50 / p99 / max (ms)", _spread(got["connect_ms"])),
        ("messages spectators received while connecting", str(figures["connect_messages"])),
        ("messages spectators received while watching", str(got["watch_messages"])),
    ]  # fmt: skip
    for period in ("before", "connecting", "watching"):
        rows.append((f"person's ping round trip, {period}: p50 / p99 / max (ms)",
                     _spread(during(rtt, period))))  # fmt: skip
        rows.append((f"person's move to its state, {period}: p50 / p99 / max (ms)",
                     _spread(during(moves, period))))  # fmt: skip
    rows.append(("server CPU mean / max (% core)", _mean_max(phase.server_cpu)))
    rows.append(("server RSS max (MB)", f"{max(phase.server_rss_mb, default=math.nan):.0f}"))
    _report(console, f"{count} spectators on one SCOUT table", rows)
    _notes(console, phase)
    return {
        "spectators": len(got["connect_ms"]),
        "open_all_s": round(figures["open_all_s"], 2),
        "connect_p99_ms": round(percentile(sorted(got["connect_ms"]), 99), 1),
        "ping_p99_ms": round(percentile(sorted(during(rtt, "connecting")), 99), 1),
    }


def _mean_max(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{sum(values) / len(values):.0f} / {max(values):.0f}"


def _notes(console: Console, phase: Phase) -> None:
    for note in phase.notes:
        console.print(f"{phase.name}: {note}", style="yellow", markup=False)


# ---------------------------------------------------------------------------------- slowloris


def slowloris(args: Any, console: Console) -> dict[str, Any]:
    """The ``slowloris`` scenario (see the module docstring)."""
    figures: dict[str, Any] = {"held": [], "visitor": {}}

    async def body(server: Server, phase: Phase) -> None:
        port = server.port
        socks: list[socket.socket] = []
        for _ in range(args.slow_sockets):
            sock = socket.socket()
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect((HOST, port))
            socks.append(sock)
        await asyncio.sleep(0.5)
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.send(b"GET / HTTP/1.1\r\nHost: x\r\n")
        closed: dict[int, float] = {}
        start = time.monotonic()

        async def visitor() -> None:
            while True:
                status, _, took = await http(port, "GET", "/api/tables/nope", timeout=2.0)
                window = int((time.monotonic() - start) // 10) * 10
                slot = figures["visitor"].setdefault(window, {"ok": 0, "failed": 0, "ms": []})
                if status == 404:
                    slot["ok"] += 1
                    slot["ms"].append(took)
                else:
                    slot["failed"] += 1
                await asyncio.sleep(0.5)

        task = asyncio.ensure_future(visitor())
        next_drip = start + 5
        for second in range(1, args.slow_seconds + 1):
            await asyncio.sleep(max(0.0, start + second - time.monotonic()))
            for i, sock in enumerate(socks):
                if i in closed:
                    continue
                try:
                    if sock.recv(4096) == b"":
                        closed[i] = time.monotonic() - start
                except BlockingIOError:
                    pass
                except OSError:
                    closed[i] = time.monotonic() - start
            if time.monotonic() >= next_drip:  # slowloris: one more header line now and then
                next_drip += 5
                for i, sock in enumerate(socks):
                    if i not in closed:
                        with contextlib.suppress(OSError):
                            sock.send(b"X-a: b\r\n")
            figures["held"].append((second, len(socks) - len(closed)))
        task.cancel()
        for sock in socks:
            sock.close()

    env = {"PARLOUR_NEW_TABLES_BURST": "1000"}
    phase = _with_server("slowloris", env, body, nofile=args.nofile)
    held = dict(figures["held"])
    marks = [s for s in (1, 5, 9, 11, 12, 15, 20, 30, 45, 60) if s in held]
    rows = [(f"slow sockets still open after {s} s", str(held[s])) for s in marks]
    for window, slot in sorted(figures["visitor"].items()):
        ms = slot["ms"]
        rows.append((f"visitor {window}–{window + 10} s: answered / failed, p50 ms",
                     f"{slot['ok']} / {slot['failed']}, {_ms(ms, 50)}"))  # fmt: skip
    rows.append(("server RSS max (MB)", f"{max(phase.server_rss_mb, default=math.nan):.0f}"))
    title = f"{args.slow_sockets} slowloris sockets, server limited to {args.nofile} files"
    _report(console, title, rows)
    _notes(console, phase)
    last = held[max(held)] if held else -1
    return {"slow_sockets": args.slow_sockets, "held_at_end": last}


# ---------------------------------------------------------------------------------- flood


def new_tables(args: Any, console: Console) -> dict[str, Any]:
    """The ``new-tables`` scenario (see the module docstring)."""
    figures: dict[str, Any] = {}
    body_json = {"name": "Bot", "seats": [{"kind": "bot", "level": "easy"}]}

    def code(status: int, raw: bytes) -> str:
        if status == 201:
            return "201 created"
        try:
            return f"{status} {json.loads(raw)['code']}"
        except (ValueError, KeyError):
            return f"{status}"

    async def body(server: Server, phase: Phase) -> None:
        port = server.port
        answers: Counter[str] = Counter()
        deadline = time.monotonic() + args.new_tables_seconds

        async def flooder() -> None:
            while time.monotonic() < deadline:
                status, raw, _ = await http(port, "POST", "/api/tables", body_json)
                answers[code(status, raw)] += 1

        start = time.monotonic()
        await asyncio.gather(*(flooder() for _ in range(16)))
        figures["one"] = (answers, time.monotonic() - start)
        status, raw, _ = await http(port, "POST", "/api/tables", body_json, source="127.0.0.2")
        figures["other"] = code(status, raw)
        crowd: Counter[str] = Counter()
        gate = asyncio.Semaphore(32)

        async def one(address: str) -> None:
            async with gate:
                status, raw, _ = await http(port, "POST", "/api/tables", body_json, source=address)
                crowd[code(status, raw)] += 1

        addresses = [
            f"127.0.{1 + i // 250}.{2 + i % 250}" for i in range(1, args.new_tables_addresses)
        ]
        await asyncio.gather(*(one(a) for a in addresses for _ in range(12)))
        figures["crowd"] = crowd
        crowd_done = time.monotonic()
        figures["free_after"] = None
        for attempt in range(int(args.new_tables_wait // 5)):  # until a newcomer gets a table
            await asyncio.sleep(5)
            status, raw, _ = await http(
                port, "POST", "/api/tables", body_json, source=f"127.0.3.{2 + attempt % 250}"
            )
            if status == 201:
                figures["free_after"] = time.monotonic() - crowd_done
                break

    phase = _with_server("new-tables", {}, body)
    answers, took = figures["one"]
    rows = [
        (f"one address, no cookie, {took:.1f} s: answers",
         ", ".join(f"{k}: {v}" for k, v in answers.most_common())),
        ("then another address creates a table", figures["other"]),
        (f"then {args.new_tables_addresses - 1} more addresses × 12 tables",
         ", ".join(f"{k}: {v}" for k, v in figures["crowd"].most_common())),
        ("server RSS max (MB)", f"{max(phase.server_rss_mb, default=math.nan):.0f}"),
    ]  # fmt: skip
    if args.new_tables_wait > 0:
        free = figures["free_after"]
        text = f"{free:.0f}" if free is not None else f"not within {args.new_tables_wait:g}"
        rows.insert(3, ("then a newcomer gets a table after (s)", text))
    _report(console, "Table creation flood", rows)
    _notes(console, phase)
    return {"created_by_one": answers["201 created"], "other": figures["other"]}


# ---------------------------------------------------------------------------------- replays


def long_snap_game(db: Path, players: int = 12, deal: int = 3) -> str:
    """Write one finished SNAP game of ``players`` medium bots to the store at ``db`` (played
    on a simulated clock, as the arena does); returns its table id."""
    from parlour.cli.arena import play_realtime_game
    from parlour.store import SQLiteStore, op_append, op_create_table, op_finish
    from parlour.table import RecordEntry, SeatInfo

    options = {"players": players}
    record: list[tuple[int | None, Any, int]] = []
    result = play_realtime_game("snap", players, ["medium"] * players, deal, 0, record=record)
    entries = [RecordEntry(i + 1, seat, action.to_json(), now)
               for i, (seat, action, now) in enumerate(record)]  # fmt: skip
    store = SQLiteStore(str(db))
    seats = [SeatInfo("bot", f"Bot {i}", "medium") for i in range(players)]
    created = int(time.time() * 1000)
    store.execute(op_create_table("longsnap", "snap", options, deal, seats, True, created))
    for entry in entries:
        store.execute(op_append("longsnap", entry))
    store.execute(op_finish("longsnap", result.outcome))
    store.close()
    return "longsnap"


def replays(args: Any, console: Console) -> dict[str, Any]:
    """The ``replays`` scenario (see the module docstring)."""
    figures: dict[str, Any] = {"replay_ms": [], "page_ms": [], "failed": 0, "size": 0}

    async def body(server: Server, phase: Phase) -> None:
        port = server.port
        deadline = time.monotonic() + args.replay_seconds
        gzip = {"Accept-Encoding": "gzip"}

        async def fetcher() -> None:
            while time.monotonic() < deadline:
                status, raw, took = await http(
                    port, "GET", "/api/replay/longsnap", headers=gzip, timeout=30
                )
                if status == 200:
                    figures["replay_ms"].append(took)
                    figures["size"] = len(raw)
                else:
                    figures["failed"] += 1

        async def visitor() -> None:
            while time.monotonic() < deadline:
                status, _, took = await http(port, "GET", "/", timeout=30)
                if status == 200:
                    figures["page_ms"].append(took)
                await asyncio.sleep(0.2)

        _status, raw, _ = await http(port, "GET", "/api/replay/longsnap", timeout=60)
        figures["plain"] = len(raw)
        await asyncio.gather(visitor(), *(fetcher() for _ in range(args.replay_clients)))

    phase = _with_server("replays", {}, body, prepare=long_snap_game)
    rows = [
        ("replay size: JSON / as sent gzipped (bytes, may be chunked)",
         f"{figures['plain']:,} / {figures['size']:,}"),
        (f"replays fetched by {args.replay_clients} clients in {args.replay_seconds:.0f} s",
         f"{len(figures['replay_ms'])} (failed {figures['failed']})"),
        ("replay fetch p50 / p99 / max (ms)", _spread(figures["replay_ms"])),
        ("visitor's lobby page p50 / p99 / max (ms)", _spread(figures["page_ms"])),
        ("server CPU mean / max (% core)", _mean_max(phase.server_cpu)),
    ]  # fmt: skip
    _report(console, "Replays of a long SNAP game in a loop", rows)
    _notes(console, phase)
    return {
        "replays": len(figures["replay_ms"]),
        "page_p50_ms": round(percentile(sorted(figures["page_ms"]), 50), 1),
    }


def run(name: str, args: Any, console: Console) -> int:
    """Run scenario ``name`` and print its figures, then one line for scripts:
    ``scenario <name> key=value ...``."""
    figures = {"spectators": spectators, "slowloris": slowloris, "new-tables": new_tables,
               "replays": replays}[name](args, console)  # fmt: skip
    print(f"scenario {name} " + " ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
    return 0
