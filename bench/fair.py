"""Fair races (N9): scripted people — honest and cheating — race a Medium SNAP bot on a real server.

A ``parlour serve`` subprocess on 127.0.0.1 runs SNAP tables of one person and one Medium bot at
an accelerated game speed (``--game-speed``), with the jitter allowance scaled so that it is the
production margin in game milliseconds (``--jitter-game-ms`` / speed, whole wall ms). Each person
is a script with Medium's own reaction times: for every reveal that shows a snap it draws a
reaction time (game ms) from the Medium bot's distribution (``parlour.bots.snap``), waits that
long after the reveal reached it, and calls. It flips as soon as it may. The variants differ in
what they tell the server:

- ``honest``: answers every ``ping`` at once and reports the time it really waited;
- ``forged``: answers pings at once, reports a reaction time 240 ms faster than its own;
- ``late_pongs``: answers every ping 240 ms late (a link that looks 240 ms slower) and reports
  240 ms faster;
- ``no_pongs``: never answers a ping, reports 240 ms faster;
- ``stealth``: answers pings 240 ms late and reports 240 ms faster but never below 180 ms (it
  looks like a person on a slow link).

A *race* is a reveal whose snap was decided (a ``win``, ``tie`` or ``void``); the person wins it
when the ``win`` is theirs. For each variant the harness reports races, the person's win rate
(with a 95 % interval), ties, and the *edge*: credited reaction time (from the ``ack``) minus the
reaction time the script really had, both in game ms — what the cheat bought per call.

Every table plays until its game ends, then a new one starts, until each variant has
``--races`` races or ``--seconds`` have passed. Every socket read has a deadline. Seeded
(``--seed``): the scripts' reaction times; the server draws its own deals.

Run: ``python bench/fair.py`` (``--help`` for options); ``make fair``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from parlour.bots.reaction import FLOOR_MS, reaction_ms
from parlour.bots.snap import SNAP_LEVELS

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_players import snap_match
from bench.loadkit import HOST, Server, post_json

Msg = dict[str, Any]
READ_TIMEOUT_S = 10.0
"""No socket read waits longer than this (a stalled table fails loudly)."""
CHEAT_MS = 240
"""How much faster (game ms) than its real reaction a cheating script claims."""


@dataclass(frozen=True)
class Variant:
    """How a scripted person answers probes and what reaction time it reports."""

    name: str
    pong_delay_ms: float | None = 0.0  # game ms; None: never answers
    cheat_ms: int = 0  # reports this much faster than it really was
    floor_ms: int = 0  # ...but never below this (game ms)


VARIANTS = {
    v.name: v
    for v in (
        Variant("honest"),
        Variant("forged", 0.0, CHEAT_MS),
        Variant("late_pongs", CHEAT_MS, CHEAT_MS),
        Variant("no_pongs", None, CHEAT_MS),
        Variant("stealth", CHEAT_MS, CHEAT_MS, FLOOR_MS),
    )
}


@dataclass
class Tally:
    """What one variant's people saw."""

    races: int = 0
    wins: int = 0
    ties: int = 0
    calls: int = 0
    edges: list[int] = field(default_factory=list)  # credited - true (game ms), per ack
    games: int = 0
    errors: list[str] = field(default_factory=list)

    def rate(self) -> float:
        return self.wins / self.races if self.races else math.nan

    def interval(self) -> tuple[float, float]:
        """A 95 % Wilson interval of the win rate."""
        n, p, z = self.races, self.rate(), 1.96
        if not n:
            return (math.nan, math.nan)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (centre - half, centre + half)


class Person:
    """One scripted person at one table (see the module docstring)."""

    def __init__(
        self,
        ws: ClientConnection,
        variant: Variant,
        tally: Tally,
        rng: random.Random,
        speed: float,
        target: int,
    ) -> None:
        self.ws = ws
        self.target = target
        self.variant = variant
        self.tally = tally
        self.rng = rng
        self.speed = speed
        self.seat: int | None = None
        self.seen_seq = -1
        self.flipped: int | None = None
        self.true_rt: dict[int, int] = {}  # seq -> the reaction time really had (game ms)
        self.decided: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    async def send(self, kind: str, **body: Any) -> None:
        await self.ws.send(json.dumps({"v": 1, "type": kind, **body}))

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def pong(self, nonce: int) -> None:
        delay = self.variant.pong_delay_ms
        if delay is None:
            return
        if delay:
            await asyncio.sleep(delay / self.speed / 1000)
        with contextlib.suppress(ConnectionClosed):
            await self.send("pong", nonce=nonce)

    async def call(self, seq: int, received: float) -> None:
        level = SNAP_LEVELS["medium"]
        true = reaction_ms(self.rng, level.mu, level.sigma, level.tau)  # game ms
        await asyncio.sleep(max(0.0, received + true / self.speed / 1000 - time.monotonic()))
        waited = (time.monotonic() - received) * 1000 * self.speed  # game ms really waited
        self.true_rt[seq] = round(waited)
        claimed = max(self.variant.floor_ms, waited - self.variant.cheat_ms)
        rt_wall = max(0, round(claimed / self.speed))
        self.tally.calls += 1
        with contextlib.suppress(ConnectionClosed):
            await self.send("play", seq=seq, rt_ms=rt_wall, action={"type": "snap"}, ref=seq)

    def judge(self, events: list[Msg]) -> None:
        for event in events:
            if event["type"] not in ("win", "tie", "void") or event["seq"] in self.decided:
                continue
            self.decided.add(event["seq"])
            self.tally.races += 1
            if event["type"] == "win" and event["seat"] == self.seat:
                self.tally.wins += 1
            elif event["type"] == "tie" and self.seat in event["seats"]:
                self.tally.ties += 1

    async def run(self) -> None:
        """Play until the game ends or the variant has its races."""
        while self.tally.races < self.target:
            raw = await asyncio.wait_for(self.ws.recv(), READ_TIMEOUT_S)
            received = time.monotonic()
            msg: Msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ping":
                self.spawn(self.pong(msg["nonce"]))
            elif kind == "welcome":
                self.seat = msg["seat"]
            elif kind == "ack":
                seq = msg.get("ref")
                if isinstance(seq, int) and seq in self.true_rt and "rt_ms" in msg:
                    self.tally.edges.append(msg["rt_ms"] - self.true_rt[seq])
            elif kind == "error":
                # A flip can lose to the turn timer's own flip (N3): refused, harmless.
                harmless = ("stale_reveal", "race_pending", "not_started")
                if msg.get("ref") != "flip" and msg["code"] not in harmless:
                    self.tally.errors.append(msg["code"])
                self.flipped = None
            elif kind == "state":
                self.judge(msg.get("events", []) + msg.get("history", []))
                if msg["finished"]:
                    return
                view = msg["view"]
                seq = view["seq"]
                if seq > self.seen_seq:
                    self.seen_seq = seq
                    if seq > 0 and snap_match(view):
                        self.spawn(self.call(seq, received))
                flip = any(a["type"] == "flip" for a in msg["actions"])
                if flip and self.flipped != msg["state_id"]:
                    self.flipped = msg["state_id"]
                    await self.send("play", seq=seq, action={"type": "flip"}, ref="flip")


async def play_table(
    port: int, variant: Variant, tally: Tally, rng: random.Random, speed: float, target: int
) -> None:
    """One SNAP game: this variant's person against one Medium bot, to its end (or until the
    variant has ``target`` races)."""
    seats = [{"kind": "bot", "level": "medium"}]
    status, made = await post_json(
        port, "/api/tables", {"game": "snap", "name": variant.name, "seats": seats}
    )
    if status != 201:
        raise RuntimeError(f"create: {status} {made}")
    url = f"ws://{HOST}:{port}/ws/{made['table_id']}"
    async with connect(url, open_timeout=READ_TIMEOUT_S, ping_interval=None) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "token": made["token"]}))
        person = Person(ws, variant, tally, rng, speed, target)
        try:
            await person.run()
        finally:
            for task in list(person.tasks):
                task.cancel()
    tally.games += 1


async def race_all(
    port: int, variants: list[Variant], tables: int, races: int, seconds: float, seed: int,
    speed: float,
) -> dict[str, Tally]:  # fmt: skip
    """``tables`` tables per variant at once, each playing game after game until its variant
    has ``races`` races or ``seconds`` have passed."""
    tallies = {v.name: Tally() for v in variants}
    deadline = time.monotonic() + seconds

    async def slot(variant: Variant, index: int) -> None:
        rng = random.Random(f"{seed}:{variant.name}:{index}")
        tally = tallies[variant.name]
        await asyncio.sleep(index * 0.05)  # ramp up
        while tally.races < races and time.monotonic() < deadline:
            try:
                await play_table(port, variant, tally, rng, speed, races)
            except (ConnectionClosed, OSError, RuntimeError, TimeoutError) as exc:
                tally.errors.append(type(exc).__name__)
                await asyncio.sleep(0.2)

    tasks = [asyncio.ensure_future(slot(v, i)) for i in range(tables) for v in variants]
    _, pending = await asyncio.wait(tasks, timeout=seconds + 1)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return tallies


def run(
    variants: list[str] | None = None,
    tables: int = 8,
    races: int = 200,
    seconds: float = 120.0,
    speed: float = 5.0,
    jitter_game_ms: int = 15,
    seed: int = 16,
    workdir: Path | None = None,
) -> dict[str, Tally]:
    """Start a server, race every variant, stop the server; the tallies by variant."""
    chosen = [VARIANTS[name] for name in (variants or list(VARIANTS))]
    jitter_wall = max(1, round(jitter_game_ms / speed))
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        server = Server(workdir, "fair", speed, None)
        server.env.update({"PARLOUR_RT_JITTER_MS": str(jitter_wall), "PARLOUR_BOT_WORKERS": "0"})
        server.start()
        stack.callback(server.stop)
        return asyncio.run(race_all(server.port, chosen, tables, races, seconds, seed, speed))


def report(tallies: dict[str, Tally]) -> list[str]:
    """One line per variant."""
    lines = []
    for name, t in tallies.items():
        low, high = t.interval()
        edge = statistics.median(t.edges) if t.edges else math.nan
        p5 = sorted(t.edges)[len(t.edges) // 20] if t.edges else math.nan
        lines.append(
            f"{name:<10} races={t.races:<4} win={100 * t.rate():5.1f}% "
            f"(95% {100 * low:4.1f}-{100 * high:4.1f}) ties={t.ties:<3} calls={t.calls:<4} "
            f"edge_median={edge:+.0f}ms edge_p5={p5:+.0f}ms games={t.games} "
            f"errors={len(t.errors)}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--tables", type=int, default=8, help="tables per variant at once")
    parser.add_argument("--races", type=int, default=200, help="races per variant")
    parser.add_argument("--seconds", type=float, default=180.0, help="wall-clock cap")
    parser.add_argument("--game-speed", type=float, default=5.0)
    parser.add_argument("--jitter-game-ms", type=int, default=15)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    start = time.monotonic()
    tallies = run(args.variants, args.tables, args.races, args.seconds, args.game_speed,
                  args.jitter_game_ms, args.seed)  # fmt: skip
    for line in report(tallies):
        print(line)
    print(f"wall {time.monotonic() - start:.0f} s, game speed {args.game_speed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
