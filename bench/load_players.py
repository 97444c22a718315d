"""The simulated people of ``bench/load.py``: SCOUT people who play a random legal move after a
think time, and SNAP people who flip on their turn and call every snap at once; the table slots
that play their games again and again; and :class:`Ports`, where a table's clients go (one
server, or many processes: ``bench/failover.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadkit import (
    Msg,
    Phase,
    Socket,
    open_seat,
    parse_range,
    post_json,
)

SNAP_CALL_RT_MS = 250
"""The reaction time the SNAP person reports with each call."""
CALL_TIMEOUT_S = 5.0
"""A call whose verdict has not come by then is counted as ``call_timeout``."""
SETUP_CONCURRENCY = 16
"""Tables being created and joined at once during the ramp-up."""
OVERTIME_THINK_MS = (0.0, 100.0)
"""A SCOUT person's think time while the killed process's tables play on to their end."""

OPEN_ERRORS = (ConnectionClosed, InvalidHandshake, OSError, TimeoutError)
"""How opening a socket fails when its process is gone or goes during the handshake."""


@dataclass
class Ports:
    """Where a table's clients go. One server: everything to its port. Many processes: a table
    is created at the next live process in turn (which owns it), and each person joins and
    connects at a random live one (so most sockets are relayed to the owner); a person whose
    socket closes reconnects, after a short back-off, to a random live process."""

    ports: list[int]
    rng: random.Random = field(default_factory=random.Random)
    route: str = "random"
    """Where sockets go: ``random`` (a random live process), or ``table`` (every socket of a
    table at one live process chosen by its id, as a proxy hashing the ``/ws/{table}`` path
    does: rendezvous hashing, so that only a dead process's tables go elsewhere)."""
    alive: list[bool] = field(default_factory=list)
    tables: list[Any] = field(default_factory=list)
    """Every SCOUT table played (many processes only: :class:`ScoutTable`)."""
    turn: int = 0

    def __post_init__(self) -> None:
        self.alive = self.alive or [True] * len(self.ports)

    @property
    def many(self) -> bool:
        return len(self.ports) > 1

    def live(self) -> list[int]:
        return [i for i, ok in enumerate(self.alive) if ok]

    def owner(self) -> int:
        """The index of the process to create the next table at."""
        live = self.live()
        self.turn += 1
        return live[self.turn % len(live)]

    def pick(self) -> int:
        """A random live process's port."""
        return self.ports[self.rng.choice(self.live())]

    def socket(self, table_id: str) -> int:
        """The port a socket of ``table_id`` goes to (see :attr:`route`)."""
        if self.route != "table":
            return self.pick()
        weight = lambda i: hashlib.blake2b(f"{i}/{table_id}".encode(), digest_size=8).digest()  # noqa: E731
        return self.ports[max(self.live(), key=weight)]


CANCEL_GRACE_S = 5.0
"""How long :func:`run_slots` waits for the slots it cancelled before cancelling them again."""


async def run_slots(
    phase: Phase,
    count: int,
    seconds: float,
    max_games: int,
    game: Callable[[int], Awaitable[None]],
    ramp_s: float = 0.0,
) -> None:
    """Run ``count`` table slots, each playing ``game(slot)`` again and again for ``seconds``
    (at most ``max_games`` each), then cancel whatever is still playing. The slots' first
    tables are set up in small groups as fast as that goes, or (``ramp_s`` > 0) one every
    ``ramp_s / count`` seconds: then they play ``seconds`` more once all are set up, and the
    samples of the ramp are kept apart (``phase.ramp_samples``), so that the phase's figures are
    those of all ``count`` tables in play."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    start = time.monotonic()
    deadline = start + ramp_s + seconds
    ready = 0

    async def slot(index: int) -> None:
        nonlocal ready
        for n in range(max_games):
            if time.monotonic() >= deadline:
                return
            if n == 0 and ramp_s > 0:  # tables arrive evenly over ramp_s
                await asyncio.sleep(max(0.0, start + ramp_s * index / count - time.monotonic()))
                task = asyncio.ensure_future(game(index))
                ready += 1
                if ready == count:
                    phase.setup_s = time.monotonic() - start
            elif n == 0:
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
            except (*OPEN_ERRORS, RuntimeError) as exc:
                phase.errors[f"client_{type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)

    tasks = [asyncio.ensure_future(slot(i)) for i in range(count)]
    _, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    while pending:  # cancelled again until done: a cancellation can be lost (wait_for's race)
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=CANCEL_GRACE_S)
    for task in tasks:  # retrieved, as gather(return_exceptions=True) did
        if not task.cancelled():
            task.exception()
    phase.play_s = time.monotonic() - start
    if ramp_s > 0:  # the figures of the time all the tables were in play
        ramped = start + ramp_s
        kept = [(ms, at) for ms, at in zip(phase.samples, phase.sampled_at, strict=True)]
        phase.ramp_samples = [ms for ms, at in kept if at < ramped]
        phase.samples = [ms for ms, at in kept if at >= ramped]
        phase.sampled_at = [at for _, at in kept if at >= ramped]
        phase.play_s -= ramp_s


# ---------------------------------------------------------------------------------- SCOUT


class Played:
    """One game at a table as the many-processes checks see it (``bench/failover.py``): where it
    is, its people (each with ``seat``, ``acked``, ``max_sid``, ``latest``, ``finished``), when
    they received states, and how a person whose socket closed reconnects."""

    def __init__(self) -> None:
        self.table_id = ""
        self.owner = 0
        """The index of the process that created (owns) the table."""
        self.task: asyncio.Task[Any] | None = None
        self.states: list[float] = []
        """When a person received a state (``time.perf_counter()``; many processes only)."""
        self.since = 0.0
        """When its people sat down (``time.perf_counter()``)."""
        self.reconnect: Callable[[Any], Awaitable[None]] | None = None
        self.people: list[Any] = []

    @property
    def finished(self) -> bool:
        return bool(self.people) and all(p.finished for p in self.people)

    async def next_message(self, person: Any) -> Msg | None:
        """``person``'s next message, or ``None`` once it has reconnected over a new socket
        (with many processes, when its socket closed or went silent; else the error)."""
        try:
            msg: Msg = await person.sock.recv()
            return msg
        except (ConnectionClosed, OSError):  # TimeoutError included
            if self.reconnect is None:
                raise
            await self.reconnect(person)
            return None

    def hurry(self) -> None:
        """Play on to the end quickly (the killed process's tables, after the timed period)."""

    def sat(self, ports: Ports, table_id: str, owner: int, stack: contextlib.AsyncExitStack,
            phase: Phase) -> None:  # fmt: skip
        """The people have sat down: with many processes, register the table and reconnect a
        person whose socket closes."""
        self.table_id, self.owner, self.task = table_id, owner, asyncio.current_task()
        self.since = time.perf_counter()
        if not ports.many:
            return
        ports.tables.append(self)

        async def reconnect(person: Any) -> None:
            await person.resume(*await _reopen(stack, ports, table_id, person.token, phase))

        self.reconnect = reconnect


class ScoutPerson:
    """One person at a SCOUT table: acts on its turn, records when each state arrived and every
    acknowledged move; with many processes, reconnects when its socket closes."""

    def __init__(
        self, table: ScoutTable, sock: Socket, first: Msg, token: str, host: bool = False
    ) -> None:
        self.table = table
        self.token = token
        self.host = host
        """The host starts the game (again after reconnecting, if it had not started)."""
        self.sock = sock
        self.latest = first
        self.seat: int | None = first["view"].get("seat")
        self.arrivals: deque[tuple[int, float]] = deque(maxlen=64)  # (state_id, when)
        self.max_sid = first["state_id"]
        self.arrivals.append((first["state_id"], time.perf_counter()))
        self.busy = False  # an act is scheduled or waiting for its ack/error
        self.acted_on = -1
        self.sent_at: dict[int, tuple[float, Any]] = {}  # ref -> (perf_counter at send, action)
        self.acked: list[tuple[int, Any]] = []
        """Every acknowledged move: (state_id, action)."""
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
            msg = await self.table.next_message(self)
            if msg is not None:
                self.receive(msg)
            self.maybe_act()

    def receive(self, msg: Msg) -> None:
        now = time.perf_counter()
        kind = msg["type"]
        if kind == "state":
            if self.table.reconnect is not None:
                self.table.states.append(now)
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
                self.acked.append((msg["state_id"], sent[1]))
                self.table.on_ack(msg["state_id"], sent[0])
            self.busy = False
        elif kind == "error":
            self.table.phase.errors[msg["code"]] += 1
            self.sent_at.pop(msg.get("ref", -1), None)
            self.busy = False

    async def resume(self, sock: Socket, first: Msg) -> None:
        """Carry on over a new socket whose first state is ``first`` (a move sent on the old one
        and not acknowledged is forgotten: it may or may not have been played)."""
        self.sock = sock
        self.sent_at.clear()
        self.busy = False
        self.acted_on = -1
        self.receive(first)
        await self.start(first)

    async def start(self, first: Msg) -> None:
        """The host starts the game if ``first`` (its socket's first state) is not started; if
        the socket closes meanwhile, :meth:`run` reconnects and :meth:`resume` starts it."""
        if self.host and not first["view"].get("started"):
            with contextlib.suppress(ConnectionClosed, OSError):
                await self.sock.send("start")

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
        self.sent_at[self.ref] = (time.perf_counter(), action)
        with contextlib.suppress(ConnectionClosed, OSError):  # run() reconnects (or fails)
            await self.sock.send("act", state_id=msg["state_id"], action=action, ref=self.ref)


class ScoutTable(Played):
    """The two people of one SCOUT table and the pending latency measurements."""

    def __init__(self, phase: Phase, rng: random.Random, think: tuple[float, float]) -> None:
        super().__init__()
        self.phase = phase
        self.rng = rng
        self.think = think
        self.people: list[ScoutPerson] = []
        self.pending: list[tuple[int, float, set[ScoutPerson]]] = []
        self.tasks: set[asyncio.Task[None]] = set()

    def hurry(self) -> None:
        self.think = OVERTIME_THINK_MS

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


async def _sit(stack: contextlib.AsyncExitStack, ports: Ports, table_id: str, token: str,
               phase: Phase) -> tuple[Socket, Msg]:  # fmt: skip
    """A person's first socket at a table; with many processes, if that fails (its process
    was killed meanwhile), reconnecting as a browser does (:func:`_reopen`)."""
    try:
        found: tuple[Socket, Msg] = await stack.enter_async_context(
            open_seat(ports.socket(table_id), table_id, token, phase)
        )
        return found
    except OPEN_ERRORS:
        if not ports.many:
            raise
        return await _reopen(stack, ports, table_id, token, phase)


async def _reopen(stack: contextlib.AsyncExitStack, ports: Ports, table_id: str, token: str,
                  phase: Phase) -> tuple[Socket, Msg]:  # fmt: skip
    """A person's socket at a live process (:meth:`Ports.socket`), as a browser reconnects:
    after a back-off of 0.3 s doubling between attempts, each drawn between half and one and a
    half times (capped at 1 s here, to see a table resume soon after it does), for at most
    30 s."""
    give_up = time.monotonic() + 30
    back_off = 0.3
    while True:
        await asyncio.sleep(min(1.0, back_off * ports.rng.uniform(0.5, 1.5)))
        back_off *= 2
        try:
            found: tuple[Socket, Msg] = await asyncio.wait_for(
                stack.enter_async_context(
                    open_seat(ports.socket(table_id), table_id, token, phase)
                ),
                10,
            )
            phase.errors["reconnected"] += 1
            return found
        except OPEN_ERRORS:
            if time.monotonic() > give_up:
                raise


async def scout_game(ports: Ports, phase: Phase, rng: random.Random, args: Any) -> None:
    """Create a SCOUT table (2 people, 2 bots), play it to its end, close it."""
    seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
    owner = ports.owner()
    status, made = await post_json(
        ports.ports[owner], "/api/tables", {"game": "scout", "name": "Host", "seats": seats}
    )
    if status != 201:
        phase.errors[f"http_{made.get('code', status)}"] += 1
        raise RuntimeError(f"create: {status} {made}")
    table_id = made["table_id"]
    status, joined = await post_json(
        ports.pick(), f"/api/tables/{table_id}/join", {"name": "Guest"}
    )
    if status != 200:
        phase.errors[f"http_{joined.get('code', status)}"] += 1
        raise RuntimeError(f"join: {status} {joined}")
    table = ScoutTable(phase, rng, parse_range(args.think_ms))
    async with contextlib.AsyncExitStack() as stack:
        host, first0 = await _sit(stack, ports, table_id, made["token"], phase)
        guest, first1 = await _sit(stack, ports, table_id, joined["token"], phase)
        table.people = [
            ScoutPerson(table, host, first0, made["token"], host=True),
            ScoutPerson(table, guest, first1, joined["token"]),
        ]
        table.sat(ports, table_id, owner, stack, phase)
        phase.games_started += 1
        await table.people[0].start(first0)
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
    """The person at a SNAP table: pongs, flips, calls, and times each call's verdict; with many
    processes, reconnects when its socket closes."""

    def __init__(self, table: Played, sock: Socket, first: Msg, phase: Phase,
                 rng: random.Random, args: Any, token: str = "") -> None:  # fmt: skip
        self.table = table
        self.token = token
        self.sock = sock
        self.phase = phase
        self.rng = rng
        self.flip_ms = parse_range(args.flip_ms)
        self.seat: int = first["view"]["seat"]
        self.latest = first
        self.max_sid: int = first["state_id"]
        self.finished = bool(first.get("finished"))
        self.called: set[int] = set()
        self.call: tuple[str, float] | None = None  # (ref, sent) of the call awaiting a verdict
        self.flip_for: tuple[int, Any] | None = None
        self.ref = 0
        self.sent: dict[str, Msg] = {}  # ref -> action, until its ack or error
        self.acked: list[tuple[int, Any]] = []
        """Every acknowledged input: (state_id, action as stored)."""
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        await self.consider(self.latest)
        while not self.finished:
            msg = await self.table.next_message(self)
            if msg is not None:
                await self.receive(msg)

    async def resume(self, sock: Socket, first: Msg) -> None:
        """Carry on over a new socket whose first state is ``first``."""
        self.sock, self.call, self.flip_for = sock, None, None
        self.sent.clear()
        await self.receive(first)

    async def receive(self, msg: Msg) -> None:
        kind = msg["type"]
        if kind == "ping":
            await self.sock.send("pong", nonce=msg["nonce"])
        elif kind == "state":
            if self.table.reconnect is not None:
                self.table.states.append(time.perf_counter())
            self.latest = msg
            self.max_sid = max(self.max_sid, msg["state_id"])
            if self.call is not None:
                self.verdict(msg["events"], time.perf_counter())
            if msg.get("finished"):
                self.finished = True
                return
            await self.consider(msg)
        elif kind == "ack":
            action = self.sent.pop(msg.get("ref", ""), None)
            if action is not None:
                stored = {**action, "rt_ms": msg["rt_ms"]} if "rt_ms" in msg else action
                self.acked.append((msg["state_id"], stored))
        elif kind == "error":
            self.phase.errors[msg["code"]] += 1
            self.sent.pop(msg.get("ref", ""), None)
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
            self.sent[ref] = action
            with contextlib.suppress(ConnectionClosed, OSError):  # run() reconnects (or fails)
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
        self.sent[f"f{self.ref}"] = {"type": "flip"}
        with contextlib.suppress(ConnectionClosed, OSError):  # run() reconnects (or fails)
            await self.sock.send(
                "play", seq=msg["view"]["seq"], action={"type": "flip"}, ref=f"f{self.ref}"
            )


async def snap_game(
    ports: Ports, phase: Phase, rng: random.Random, args: Any, bots: int, level: str = "medium"
) -> None:
    """Create a SNAP table (1 person, ``bots`` bots of ``level``), play it to its end, close
    it."""
    seats = [{"kind": "bot", "level": level}] * bots
    owner = ports.owner()
    status, made = await post_json(
        ports.ports[owner], "/api/tables", {"game": "snap", "name": "Host", "seats": seats}
    )
    if status != 201:
        phase.errors[f"http_{made.get('code', status)}"] += 1
        raise RuntimeError(f"create: {status} {made}")
    table = Played()
    async with contextlib.AsyncExitStack() as stack:
        sock, first = await _sit(stack, ports, made["table_id"], made["token"], phase)
        person = SnapPerson(table, sock, first, phase, rng, args, made["token"])
        table.people = [person]
        table.sat(ports, made["table_id"], owner, stack, phase)
        phase.games_started += 1
        try:
            await person.run()
        finally:
            for task in list(person.tasks):
                task.cancel()
    phase.games_finished += 1
