"""Many processes under load, and one of them killed: ``bench/load.py --processes N [--kill-one]``.

Each phase starts ``N`` ``parlour serve --redis`` processes on 127.0.0.1 sharing one temporary
SQLite file (or, with ``--db postgresql://…``, a new schema in that PostgreSQL database, dropped
at the end) and one Redis (``--redis URL``, or a throwaway ``redis-server`` from ``PATH``; each
phase under a key prefix of its own), with the settings of the single-process phases. The
phases play the same games as with one server (``bench/load_players.py``): SCOUT tables of two
people and two bots, measuring a person's ``act`` to the moment *every* person at the table has
the new state; SNAP tables of one person and one to three Medium bots in real time, measuring
call to verdict. A table is created at the next live process in turn (which owns it); each
person joins and connects at a random process, so most sockets are relayed to the owner.

With ``--kill-one`` the first process of each phase is SIGKILLed a third of the way into it; a
person whose socket closes reconnects to a random live process with a browser's back-off. When
the time is up, the killed process's tables play on to their end (SCOUT people then think at
most 0.1 s), for at most ``--finish-seconds``; every other table is closed. Then every
acknowledged input is looked up in the store, and the stored inputs of each of the killed
process's finished tables are replayed on a fresh table (the server's own replay) and compared
with the end every person saw. Prints, before the ``scout`` and ``snap`` lines, for scripts
(both phases together)::

    failover tables=<tables the killed process owned, unfinished at the kill> resumed=<of those,
        with a new state after the kill> lost_acks=<acknowledged inputs missing from the store>
        max_gap_ms=<longest time, at one of those tables, from the kill to a person's next
        state, from the process that took the table over> finished=<of those, played to their
        end> replays_identical=<of those, whose stored inputs replayed give the end the people
        saw: the outcome and every seat's public view>
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import signal
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.load_players import Played, Ports, run_slots, scout_game, snap_game
from bench.loadkit import Phase, ProcSampler, RedisServer, Server, parse_range
from parlour.server.replay import replay
from parlour.store import open_store

FIGURES = ("tables", "resumed", "lost_acks", "max_gap_ms", "finished", "replays_identical")
"""The figures of the ``failover`` line, in its order."""


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


@contextlib.contextmanager
def _redis(url: str | None, folder: Path) -> Iterator[str]:
    """``url``, or a throwaway ``redis-server`` without persistence in ``folder``."""
    if url:
        yield url
        return
    server = RedisServer(folder / "redis").start(timeout=20)
    try:
        yield server.url
    finally:
        server.stop()


@contextlib.contextmanager
def cluster(args: Any, folder: Path) -> Iterator[tuple[str, str]]:
    """The database URL and the Redis URL the phases' processes share."""
    with _database(args.db, folder) as db, _redis(args.redis, folder) as redis_url:
        yield db, redis_url


def _phase_with_cluster(
    phase: Phase,
    workdir: Path,
    shared: tuple[str, str],
    args: Any,
    speed: float,
    body: Callable[[Ports, list[Server]], Awaitable[None]],
) -> None:
    """Start ``--processes`` servers, run ``body`` against them sampling their CPU and memory
    (summed), always stop them."""
    db, redis_url = shared
    env = {
        "PARLOUR_MAX_TABLES_PER_GUEST": "100000",
        "PARLOUR_TURN_TIMER_S": "0",
        "PARLOUR_REDIS_PREFIX": f"load-{os.getpid()}-{phase.name}:",
        "PARLOUR_LEASE_MS": str(args.lease_ms),
        "PARLOUR_RENEW_MS": str(args.renew_ms),
    }
    servers = [
        Server(
            workdir,
            f"{phase.name}{i}",
            speed,
            Path(args.profile) / f"{phase.name}{i}.prof" if args.profile else None,
            args.server_script,
            parse_range(args.bot_delay_ms),
            env,
            db,
            ["--redis", redis_url],
        )
        for i in range(args.processes)
    ]
    try:
        for server in servers:
            server.nice = args.server_nice
            server.start()
        ports = Ports([s.port for s in servers], random.Random(args.seed + 7), args.route)

        async def run() -> None:
            pids = [s.proc.pid for s in servers if s.proc is not None]
            sampler = asyncio.ensure_future(ProcSampler(pids, phase).run())
            try:
                await body(ports, servers)
            finally:
                sampler.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sampler

        asyncio.run(run())
    finally:
        for server in servers:
            server.stop()
        moved = 0
        for server in servers:
            if not server.log.exists():
                continue
            lines = server.log.read_text(errors="replace").splitlines()
            moved += sum("handed over" in line for line in lines)
            problems = [line for line in lines if line.startswith(("ERROR", "Traceback"))]
            if problems:
                phase.notes.append(f"{server.log.name}: {len(problems)} log lines with ERROR")
                phase.notes += problems[:3]
        phase.notes.append(f"tables that moved to the process a socket of theirs reached: {moved}")


def snap_phase(workdir: Path, shared: tuple[str, str], args: Any) -> Phase:
    phase = Phase("snap", args.snap_tables)
    rng = random.Random(args.seed + 1)

    def game(ports: Ports, i: int) -> Awaitable[None]:
        return snap_game(ports, phase, random.Random(rng.random()), args, 1 + i % 3)

    return _phase(phase, workdir, shared, args, args.game_speed, args.snap_seconds, game)


def scout_phase(workdir: Path, shared: tuple[str, str], args: Any) -> Phase:
    phase = Phase("scout", args.scout_tables)
    rng = random.Random(args.seed)

    def game(ports: Ports, i: int) -> Awaitable[None]:
        return scout_game(ports, phase, random.Random(rng.random()), args)

    return _phase(phase, workdir, shared, args, 1.0, args.scout_seconds, game)


def _phase(
    phase: Phase,
    workdir: Path,
    shared: tuple[str, str],
    args: Any,
    speed: float,
    seconds: float,
    game: Callable[[Ports, int], Awaitable[None]],
) -> Phase:
    """Play ``phase.tables`` slots of ``game`` for ``seconds`` on a new cluster (with
    ``--kill-one``: kill its first process a third of the way in and let its tables play on to
    their end); then check the store."""
    killed: dict[str, Any] = {}

    async def body(ports: Ports, servers: list[Server]) -> None:
        games: list[asyncio.Future[None]] = []

        async def slot(i: int) -> None:
            # shielded: at the deadline the killed process's tables play on (see below)
            games.append(asyncio.ensure_future(game(ports, i)))
            await asyncio.shield(games[-1])

        async def kill() -> None:
            await asyncio.sleep(seconds / 3)
            proc = servers[0].proc
            assert proc is not None
            proc.send_signal(signal.SIGKILL)
            ports.alive[0] = False
            killed["at"] = time.perf_counter()
            owned = [t for t in ports.tables if t.owner == 0 and not t.finished]
            killed["tables"] = {t: max(p.max_sid for p in t.people) for t in owned}

        killer = asyncio.ensure_future(kill()) if args.kill_one else None
        try:
            await run_slots(phase, phase.tables, seconds, args.max_games, slot, args.ramp_seconds)
        finally:
            if killer is not None:
                killer.cancel()
        victims = [t for t in ports.tables if t.owner == 0 and (t in killed.get("tables", {})
                   or t.since > killed.get("at", math.inf))]  # fmt: skip
        for table in victims:
            table.hurry()
        for table in ports.tables:
            if table not in victims and table.task is not None:
                table.task.cancel()
        playing = [t.task for t in victims if t.task is not None and not t.task.done()]
        if playing:
            await asyncio.wait(playing, timeout=args.finish_seconds)
        for task in games:
            task.cancel()
        await asyncio.gather(*games, return_exceptions=True)
        found = await asyncio.to_thread(
            _check, shared[0], ports.tables, victims, killed, args, phase.name
        )
        phase.failover = found
        phase.ok = (found["lost_acks"] == 0 and found["resumed"] == found["tables"]
                    and found["replays_identical"] == found["finished"])  # fmt: skip

    _phase_with_cluster(phase, workdir, shared, args, speed, body)
    return phase


def failover_line(phases: list[Phase]) -> str:
    """The ``failover`` line of the phases (the sum of their figures; the longest gap)."""
    figures = dict.fromkeys(FIGURES, 0)
    for phase in phases:
        for key, value in phase.failover.items():
            figures[key] = max(figures[key], value) if key == "max_gap_ms" else figures[key] + value
    return "failover " + " ".join(f"{k}={v}" for k, v in figures.items())


def _lost(db: str, tables: list[Played]) -> int:
    """Acknowledged moves missing from the store (not at their state id, or not that seat's)."""
    store = open_store(db)
    lost = 0
    try:
        for table in tables:
            acked = [(p.seat, s, a) for p in table.people for s, a in p.acked]
            if not acked:
                continue
            entries = store.load(table.table_id).entries
            for seat, state_id, action in acked:
                entry = entries[state_id - 1] if state_id <= len(entries) else None
                lost += entry is None or (entry.seat, entry.action) != (seat, action)
    finally:
        store.close()
    return lost


def _identical(db: str, tables: list[Played]) -> int:
    """Of ``tables`` (finished), how many replay, from the stored inputs on a fresh table, to
    the end every person saw (its outcome and every seat's public view)."""
    store = open_store(db)
    same = 0
    try:
        for table in tables:
            try:
                last = replay(store.load(table.table_id))["frames"][-1]["view"]
            except Exception:  # not replayable: not identical
                continue
            seen = [p.latest["view"] for p in table.people]
            same += all(
                (v["outcome"], v["seats"]) == (last["outcome"], last["seats"]) for v in seen
            )
    finally:
        store.close()
    return same


def _check(db: str, tables: list[Played], victims: list[Played],
           killed: dict[str, Any], args: Any, name: str) -> dict[str, int]:  # fmt: skip
    """The figures of the ``failover`` line, in its order."""
    at = killed.get("at", math.inf)
    before = killed.get("tables", {})
    resumed, gaps = 0, []
    for table in victims:
        resumed += max((p.max_sid for p in table.people), default=0) > before.get(table, 0)
        after = [t for t in table.states if t > at]
        gaps.append(((after[0] if after else time.perf_counter()) - at) * 1000)
    finished = [t for t in victims if t.finished]
    late = sum(gap > args.lease_ms + 3000 for gap in gaps)
    for table in [t for t in victims if not t.finished][:10]:  # why (the first ten)
        task = table.task
        why = "still playing at the end of --finish-seconds" if task is None or not task.done() or (
            task.cancelled()) else repr(task.exception())  # fmt: skip
        people = [(p.max_sid, p.finished) for p in table.people]
        print(f"{name}: unfinished {table.table_id}: {why}; people (state, finished) {people}",
              flush=True)  # fmt: skip
    acked = sum(len(p.acked) for t in tables for p in t.people)
    print(f"{name}: {len(tables)} games, {acked} acknowledged inputs looked up in the store",
          flush=True)  # fmt: skip
    if args.kill_one:
        print(f"{name}: killed process 0 with {len(victims)} unfinished tables; lease "
              f"{args.lease_ms} ms: {late} resumed more than 3 s after the lease",
              flush=True)  # fmt: skip
    return {
        "tables": len(victims),
        "resumed": resumed,
        "lost_acks": _lost(db, tables),
        "max_gap_ms": round(max(gaps, default=0)),
        "finished": len(finished),
        "replays_identical": _identical(db, finished),
    }
