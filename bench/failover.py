"""Many processes under load, and one of them killed: ``bench/load.py --processes N [--kill-one]``.

Starts ``N`` ``parlour serve --redis`` processes on 127.0.0.1 sharing one temporary SQLite file
(or, with ``--db postgresql://…``, a new schema in that PostgreSQL database, dropped at the end)
and one Redis (``--redis URL``, or a throwaway ``redis-server`` from ``PATH``), creates
``--scout-tables`` SCOUT tables (one person, one easy bot) round-robin over the processes (the
creating process owns a table), and connects each person to a *random* process (most sockets are
relayed to the owner). People play random legal moves after a think time (``--think-ms``);
a sample is the time from a person's ``act`` to its new ``state``. With ``--kill-one``, the
first process is SIGKILLed when a third of ``--scout-seconds`` has passed; a person whose
process is gone reconnects to the next one (as a browser would, after a short back-off).

At the end every acknowledged move is looked up in the store. Prints, for scripts::

    failover tables=<tables the killed process owned, unfinished> resumed=<of those, with a
        move acknowledged after the kill> lost_acks=<acknowledged moves missing from the store>
        max_gap_ms=<longest time, at one of those tables, from the kill to the table's next
        state (served by the process that took it over)>
    scout tables=<n> p99_ms=<x>
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import connect

HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


@dataclass
class Person:
    """One table's person: where it connects, what was acknowledged, when."""

    table_id: str
    token: str
    owner: int
    at: int
    acked: list[tuple[int, Any, float]] = field(default_factory=list)
    samples: list[float] = field(default_factory=list)
    states: list[float] = field(default_factory=list)
    """When each state message came (time.monotonic())."""
    finished_at: float | None = None


async def _play(person: Person, ports: list[int], alive: list[bool], think: tuple[float, float],
                until: float, rng: random.Random) -> None:  # fmt: skip
    while time.monotonic() < until and person.finished_at is None:
        while not alive[person.at % len(ports)]:
            person.at += 1
        url = f"ws://{HOST}:{ports[person.at % len(ports)]}/ws/{person.table_id}"
        try:
            async with connect(url, open_timeout=5, max_size=2**20) as ws:
                await ws.send(json.dumps({"v": 1, "type": "hello", "token": person.token}))
                await _turns(ws, person, think, until, rng)
        except Exception:  # closed (the table moved) or refused: come back after a back-off
            await asyncio.sleep(rng.uniform(0.15, 0.45))


async def _turns(ws: Any, person: Person, think: tuple[float, float], until: float,
                 rng: random.Random) -> None:  # fmt: skip
    sent: dict[int, tuple[Any, float]] = {}
    ref = 0
    acked_id = -1
    state: dict[str, Any] | None = None
    while time.monotonic() < until:
        msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic())))
        kind = msg["type"]
        if kind == "ping":
            await ws.send(json.dumps({"v": 1, "type": "pong", "nonce": msg["nonce"]}))
        elif kind == "ack":
            action, at = sent.pop(msg["ref"])
            person.acked.append((msg["state_id"], action, time.monotonic()))
            acked_id = msg["state_id"]
            person.samples.append((time.monotonic() - at) * 1000)
        elif kind == "error":
            sent.pop(msg.get("ref"), None)
        elif kind == "state":
            state = msg
            person.states.append(time.monotonic())
            if msg["view"]["outcome"] is not None:
                person.finished_at = time.monotonic()
                return
        if state is not None and not sent and state["actions"] and state["state_id"] >= acked_id:
            await asyncio.sleep(rng.uniform(*think))
            ref += 1
            action = rng.choice(state["actions"])
            sent[ref] = (action, time.monotonic())
            body = {"state_id": state["state_id"], "action": action, "ref": ref}
            await ws.send(json.dumps({"v": 1, "type": "act", **body}))
            state = None  # the next move answers the next state


def _lost(db: str, people: list[Person]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from parlour.store import open_store

    store = open_store(db)
    lost = 0
    try:
        for person in people:
            entries = store.load(person.table_id).entries
            for state_id, action, _ in person.acked:
                ok = state_id <= len(entries) and entries[state_id - 1].action == action
                lost += not ok
    finally:
        store.close()
    return lost


@contextlib.contextmanager
def _database(url: str | None, folder: Path) -> Iterator[str]:
    """The database the servers share: a SQLite file in ``folder`` (``url`` None), or a new
    schema in the PostgreSQL database of ``url`` (libpq's ``search_path``), dropped after."""
    if not url:
        yield str(folder / "parlour.db")
        return
    import psycopg

    schema = f"parlour_bench_{os.getpid()}_{random.randrange(1 << 32):08x}"
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"'.encode())
    parts = urlsplit(url)
    option = f"options=-csearch_path%3D{schema}"
    try:
        yield urlunsplit(parts._replace(query=f"{parts.query}&{option}" if parts.query else option))
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'.encode())


def run(args: Any) -> int:
    """Run the many-processes load (``args`` from ``bench/load.py``); returns an exit code."""
    folder = Path(tempfile.mkdtemp(prefix="parlour-failover-"))
    with _database(args.db, folder) as db:
        return _run(args, folder, db)


def _run(args: Any, folder: Path, db: str) -> int:
    procs: list[subprocess.Popen[bytes]] = []
    redis_url = args.redis
    try:
        if not redis_url:
            port = _free_port()
            command = ["redis-server", "--port", str(port), "--bind", HOST, "--save", "",
                       "--appendonly", "no", "--dir", str(folder)]  # fmt: skip
            procs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
            _wait_port(port, procs[-1], "redis-server")
            redis_url = f"redis://{HOST}:{port}/0"
        low, high = (int(x) for x in args.bot_delay_ms.split("-"))
        env = {
            **os.environ,
            "PARLOUR_BOT_DELAY_MIN_MS": str(low),
            "PARLOUR_BOT_DELAY_MAX_MS": str(high),
            "PARLOUR_NEW_TABLES_BURST": "100000",
            "PARLOUR_MAX_TABLES_PER_GUEST": "100000",
            "PARLOUR_TURN_TIMER_S": "0",
            "PARLOUR_REDIS_PREFIX": f"failover-{os.getpid()}:",
            "PARLOUR_LEASE_MS": str(args.lease_ms),
            "PARLOUR_RENEW_MS": str(args.renew_ms),
        }
        ports = [_free_port() for _ in range(args.processes)]
        servers = []
        for i, port in enumerate(ports):
            log = (folder / f"server{i}.log").open("ab")
            command = [sys.executable, "-m", "parlour.cli.main", "serve", "--port", str(port),
                       "--db", db, "--redis", redis_url]  # fmt: skip
            servers.append(subprocess.Popen(command, env=env, stdout=log, stderr=log))
            procs.append(servers[-1])
        for port, proc in zip(ports, servers, strict=True):
            _wait_port(port, proc, "parlour serve")
        time.sleep(0.5)
        return asyncio.run(_measure(args, ports, servers, db))
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def _measure(args: Any, ports: list[int], servers: list[subprocess.Popen[bytes]],
                   db: str) -> int:  # fmt: skip
    rng = random.Random(args.seed)
    people = []
    for i in range(args.scout_tables):
        owner = i % len(ports)
        body = {"game": "scout", "name": "P", "seats": [{"kind": "bot", "level": "easy"}]}
        made = await asyncio.to_thread(_post, f"http://{HOST}:{ports[owner]}/api/tables", body)
        people.append(Person(made["table_id"], made["token"], owner, rng.randrange(len(ports))))
    think_ms = [int(x) for x in args.think_ms.split("-")]
    think = (think_ms[0] / 1000, think_ms[-1] / 1000)
    alive = [True] * len(ports)
    began = time.monotonic()
    until = began + args.scout_seconds
    tasks = [asyncio.create_task(_play(p, ports, alive, think, until, random.Random(i)))
             for i, p in enumerate(people)]  # fmt: skip
    killed_at = math.inf
    if args.kill_one:
        await asyncio.sleep(args.scout_seconds / 3)
        servers[0].send_signal(signal.SIGKILL)
        alive[0] = False
        killed_at = time.monotonic()
    await asyncio.gather(*tasks, return_exceptions=True)
    victims = [p for p in people if p.owner == 0 and (p.finished_at or math.inf) > killed_at]
    gaps, resumed = [], 0
    for person in victims if args.kill_one else []:
        resumed += any(t > killed_at for _, _, t in person.acked)
        served = [t for t in person.states if t > killed_at]  # the table answers again
        gaps.append(((served[0] if served else time.monotonic()) - killed_at) * 1000)
    lost = await asyncio.to_thread(_lost, db, people)
    samples = sorted(s for p in people for s in p.samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] if samples else math.nan
    moves = sum(len(p.acked) for p in people)
    print(f"{len(ports)} processes, {len(people)} SCOUT tables, {moves} acknowledged moves, "
          f"act->ack p50 {samples[len(samples) // 2] if samples else math.nan:.1f} ms")  # fmt: skip
    print(f"failover tables={len(victims) if args.kill_one else 0} resumed={resumed} "
          f"lost_acks={lost} max_gap_ms={max(gaps, default=0):.0f}")  # fmt: skip
    print(f"scout tables={len(people)} p99_ms={p99:.1f}")
    return 0 if lost == 0 and resumed == (len(victims) if args.kill_one else 0) else 1
