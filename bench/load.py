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
under cProfile and prints its hotspots. ``--processes N [--kill-one]`` plays the same SCOUT and
SNAP phases on N server processes sharing a database and Redis, and prints a ``failover`` line
before the two above (``bench/failover.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_players import Ports, run_slots, scout_game, snap_game
from bench.loadkit import (
    Phase,
    ProcSampler,
    Server,
    http_json,
    parse_range,
    percentile,
)
from parlour.server.run import GcKeeper
from parlour.server.settings import Settings

# ---------------------------------------------------------------------------------- phases


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
    server.nice = args.server_nice
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
            lambda i: scout_game(Ports([port]), phase, random.Random(rng.random()), args),
            args.ramp_seconds,
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
            lambda i: snap_game(Ports([port]), phase, random.Random(rng.random()), args, 1 + i % 3),
            args.ramp_seconds,
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
                lambda i: snap_game(
                    Ports([port]), phase, random.Random(rng.random()), args, 11, "expert"
                ),
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


def _ramp(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{percentile(ordered, 50):.1f} / {percentile(ordered, 99):.1f} ({len(values)})"


def _p99_max(values: list[float]) -> str:
    return f"{percentile(sorted(values), 99):.0f} / {max(values, default=0):.0f}"


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
    if any(p.ramp_samples for p in phases):
        row("latency during the ramp p50 / p99 (ms)", lambda p: _ramp(p.ramp_samples))
    row("latency p99 by 10 s (ms)", lambda p: " ".join(f"{v:.0f}" for v in p.p99_by_window()))
    row("server CPU mean / max (% core)", lambda p: _mean_max(p.server_cpu))
    row("server RSS mean / max (MB)", lambda p: _mean_max(p.server_rss_mb))
    row("client CPU mean / max (% core)", lambda p: _mean_max(p.client_cpu))
    row("client loop lag p99 / max (ms)", lambda p: _p99_max(p.client_lag_ms))
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
    """Print the ``top`` functions of a cProfile file by cumulative and by own time; ``path``
    ``DIR/scout.prof`` also takes in the files of a phase's many processes (``DIR/scout0.prof``,
    ``DIR/scout1.prof``, …), summed."""
    paths = [path] if path.exists() else sorted(path.parent.glob(f"{path.stem}[0-9]*.prof"))
    if not paths:
        console.print(f"[yellow]no profile at {path}[/]")
        return
    for key in ("cumulative", "tottime"):
        names = ", ".join(p.name for p in paths)
        console.print(f"[bold]{names}: top {top} by {key}[/]")
        stats = pstats.Stats(*(str(p) for p in paths), stream=sys.stdout)
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
    """bench/failover.py (imported late: it imports parlour's store and replay)."""
    from bench import failover as module

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
    parser.add_argument(
        "--ramp-seconds", type=float, default=0.0, metavar="S",
        help="set the tables up evenly over S seconds (0: in small groups as fast as that goes)",
    )  # fmt: skip
    parser.add_argument(
        "--server-nice", type=int, default=0, metavar="N",
        help="run the servers N steps below the client's CPU priority (nice; 0: the same)",
    )  # fmt: skip
    parser.add_argument(
        "--samples", metavar="FILE", help="write every sample: phase, seconds in, milliseconds"
    )
    cluster = parser.add_argument_group(
        "many processes (bench/failover.py): --processes N plays the SCOUT and SNAP phases on N "
        "servers sharing a database and Redis; prints a 'failover' line before the 'scout' one"
    )
    cluster.add_argument("--processes", type=int, default=0, help="server processes (0: one)")
    cluster.add_argument("--kill-one", action="store_true", help="SIGKILL one of them mid-run")
    cluster.add_argument(
        "--route", choices=["random", "table"], default="random",
        help="where sockets go: a random process (default), or one per table by its id",
    )  # fmt: skip
    cluster.add_argument("--redis", metavar="URL", help="Redis (default: a throwaway one)")
    cluster.add_argument(
        "--db",
        metavar="URL",
        help="a postgresql:// database to share (a new schema in it, dropped at the end; "
        "default: a temporary SQLite file)",
    )
    cluster.add_argument("--lease-ms", type=int, default=5000, help="table leases (5000)")
    cluster.add_argument("--renew-ms", type=int, default=1000, help="lease renewal (1000)")
    cluster.add_argument(
        "--finish-seconds", type=float, default=240,
        help="with --kill-one: how long the killed process's tables may take to finish (240)",
    )  # fmt: skip
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
    if args.db and not (args.processes and args.db.startswith(("postgresql://", "postgres://"))):
        parser.error("--db takes a postgresql:// URL, with --processes N")
    if args.processes and (args.scenario or args.flood_tables):
        parser.error("--processes N plays the SCOUT and SNAP phases only")
    if args.kill_one and not args.processes:
        parser.error("--kill-one needs --processes N")
    # The client's own garbage collection must not hold up its reads (it did: full collections
    # of 0.3 s, ten a minute, with 2,000 sockets), so it collects as the servers do (the
    # PARLOUR_GC_* settings apply to both).
    GcKeeper.start(Settings.from_env())
    if args.scenario:
        return load_limits().run(args.scenario, args, Console(width=110))
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    console = Console(width=110)
    phases: list[Phase] = []
    empty = {"scout": Phase("scout", 0), "snap": Phase("snap", 0)}
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="parlour-load-")))
        if args.processes:
            shared = stack.enter_context(failover().cluster(args, workdir))
            console.print(
                f"{args.processes} processes sharing {'PostgreSQL' if args.db else 'SQLite'} and "
                f"Redis; each table created at the next process, each person joining at a random "
                f"one, sockets at {'one process a table' if args.route == 'table' else 'random'}"
                + (
                    "; in each phase the first is killed a third of the way in"
                    if args.kill_one
                    else ""
                )
            )
        if args.only in (None, "scout") and args.scout_tables > 0:
            console.print(
                f"SCOUT: {args.scout_tables} tables (2 people + easy & medium bots), "
                f"think {args.think_ms} ms, {args.scout_seconds:.0f} s"
            )
            if args.processes:
                phases.append(failover().scout_phase(workdir, shared, args))
            else:
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
            if args.processes:
                phases.append(failover().snap_phase(workdir, shared, args))
            else:
                phases.append(snap_phase(workdir, args))
    if phases:
        console.print(render(phases, args))
    if args.samples:
        with open(args.samples, "w") as out:
            for phase in phases:
                start = phase.sampled_at[0] if phase.sampled_at else 0.0
                for ms, at in zip(phase.samples, phase.sampled_at, strict=True):
                    out.write(f"{phase.name} {at - start:.3f} {ms:.1f}\n")
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
    if args.processes:
        print(failover().failover_line(phases), flush=True)
    for name in ("scout", "snap"):
        phase = done.get(name, empty[name])
        print(f"{name} tables={phase.tables} p99_ms={phase.p99():.1f}", flush=True)
    return 0 if all(p.ok for p in phases) else 1


if __name__ == "__main__":
    sys.exit(main())
