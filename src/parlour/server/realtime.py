"""Real-time rooms (SCAN, SNAP): the game clock, the referee's waiting (N9), computer opponents
acting on their drawn reaction times, and round-trip probes.

A :class:`RealtimeRoom` keeps a game clock (:class:`GameClock`): game milliseconds since the
game began, running at ``settings.game_speed`` game ms per wall ms once every person at the table
has sat down (after a countdown). Every input is recorded at the game clock, so a rebuilt table
resumes its clock where its record ends.

The room is a discrete-event loop over three kinds of moments, always taken earliest first:

- a bot's planned input (bots plan once per situation: a reaction time drawn for each reveal);
- the game's deadline (``Timeout()``: a decision window, a round timer, a turn timer…);
- the moment the pending race is *settled* (N9): no seat that may still act could come in with a
  credited reaction time up to the race's horizon. A bot's plan is known; a person who has not
  acted by ``reveal + horizon + allowance`` cannot (their credited time is at least the time since
  the reveal less their round-trip allowance). The race is then decided at once with
  ``Decide()`` — with one person and bots, right when the person's call arrives.

A person's timed input (``play`` with ``rt_ms``) is credited by
:func:`parlour.core.race.effective_rt` with the seat's allowance: its measured round trip plus
the jitter allowance, capped at 250 game ms, so a forged reaction time gains at most that margin.
The round trip is measured where the client cannot stretch it
(:func:`parlour.core.race.measured_rtt`): the server's probes (``ping``, answered by ``pong``;
an answer still missing at the next probe counts as a round trip of 0, and comes too late to
count afterwards), bounded by the kernel's minimum round trip of the connection where the
server sees its socket (:mod:`parlour.server.roundtrip`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING, Any

from parlour.bots.levels import TUTOR, make_bot
from parlour.core.race import (
    OpenRace,
    allowance,
    effective_rt,
    human_settles_at,
    settled,
)
from parlour.server.bots import bot_seed
from parlour.server.clock import GameClock
from parlour.server.fairplay import unusually_fast
from parlour.server.protocol import ProtocolError, error, message
from parlour.server.roundtrip import RoundTrips
from parlour.table import Accepted, Rejected, Table

from .rooms import Connection, Room

if TYPE_CHECKING:
    from parlour.server.hub import Hub

log = logging.getLogger("parlour.server")


NEVER = 1 << 60


class RealtimeRoom(Room):
    """A room for SCAN or SNAP (see the module docstring)."""

    realtime = True

    def __init__(self, hub: Hub, table: Table, hashes: dict[int, str]) -> None:
        last = table.record[-1].now_ms if table.record else 0
        self.clock = GameClock(hub.settings.game_speed, last)
        self.trips = RoundTrips(hub.settings)
        self.bots: dict[int, Any] = {}  # SnapBot / ScanBot: they plan, they do not choose
        self._bot_rngs: dict[int, random.Random] = {}
        self.plans: list[tuple[int, int, Any, int]] = []  # (at_ms, seat, action, seq)
        self._planned_at = -1
        self.reveals: dict[int, int] = {}
        self._probe: asyncio.Task[None] | None = None
        self._pausing: asyncio.TimerHandle | None = None
        self._begun = bool(table.record)  # a rebuilt game resumes when one person is back
        self._pause_task: asyncio.Task[None] | None = None
        self._due_at: int | None = None
        self._applied_at = 0
        self.held_ms = 0
        """Game ms this table's clock waited because the server fell behind."""
        self._quiet: set[int] = set()  # record seqs of bots' inputs waiting for the decision
        self._skip = False  # the broadcast after this write is skipped (only such inputs)
        self._told_running = False  # whether the latest state sent said the clock runs
        super().__init__(hub, table, hashes)
        self._note_reveal()

    # ------------------------------------------------------------------ messages

    def accepted(self, result: Accepted) -> None:
        self._note_reveal()
        if self._pending_bot_input(result.entry.seat, result.entry.action):
            self._quiet.add(result.entry.seq)
        if self.table.outcome() is not None:
            self._log_fair_play()

    def _pending_bot_input(self, seat: int | None, action: dict[str, Any]) -> bool:
        # Whether this input is a computer opponent's timed input now waiting for the race's
        # decision. A bot acts at the reveal plus its reaction time, so announcing it when it
        # arrives would tell its reaction time before the verdict: it is shown with the verdict.
        table = self.table
        if (
            seat is None
            or table.seats[seat].kind != "bot"
            or action.get("type") not in table.spec.timed
        ):
            return False
        race = table.race()
        return race is not None and any(e.seat == seat for e in race.entries)

    def broadcast(self, new: Connection | None = None) -> None:
        """Send every connection its state (see :meth:`Room.broadcast`) — except after a write
        of nothing but computer opponents' timed inputs that wait for the decision: those are
        shown with the next state (at the verdict at the latest), never when they came in."""
        if self._skip and new is None:
            self._skip = False
            return
        if not self._writing:
            self._told_running = self.clock.running()
        super().broadcast(new)

    def mark(self) -> Any:
        return super().mark(), dict(self.reveals)

    async def commit(self, mark: Any, results: list[Accepted]) -> Rejected | None:
        # The game clock waits while the store writes: nobody sees a change before it is
        # stored, so the time spent storing it must not count against anybody's reaction.
        self._applied_at = self.clock.now()
        return await super().commit(mark, results)

    def _written(self, mark: Any, results: list[Accepted], write: asyncio.Future[None]) -> None:
        self.clock.hold(self._applied_at)
        quiet = bool(results) and all(r.entry.seq in self._quiet for r in results)
        self._quiet.clear()
        self._skip = quiet and not self._deferred and not self._fresh
        try:
            super()._written(mark, results, write)
        finally:
            self._skip = False

    def restore(self, mark: Any) -> None:
        room_mark, self.reveals = mark
        super().restore(room_mark)
        self._planned_at = -1  # the bots plan again for the state they are back in

    def _note_reveal(self) -> None:
        state = self.table.state
        self.reveals[state.seq] = state.reveal_ms
        for seq in [s for s in self.reveals if s < state.seq - 2]:
            del self.reveals[seq]

    def extra_state(self) -> dict[str, Any]:
        clock = self.clock
        extra: dict[str, Any] = {
            "clock": {
                "now_ms": clock.now(),
                "running": clock.running(),
                "starts_in_ms": clock.starts_in_ms(),
                "speed": clock.speed,
            }
        }
        if self.finished:
            extra["fair_play"] = self.fair_play()
        return extra

    def fair_play(self) -> list[dict[str, Any]]:
        """People at a friends' table who played implausibly fast (:mod:`.fairplay`)."""
        people = [i for i, s in enumerate(self.table.seats) if s.kind == "human"]
        return unusually_fast(self.history(None), people)

    def _log_fair_play(self) -> None:
        for found in self.fair_play():
            name = self.table.seats[found["seat"]].name
            log.warning(
                "table %s: seat %s (%s) played unusually fast: median reaction %s ms over %s "
                "timed inputs (no person is faster than %s ms)", self.table_id, found["seat"],
                name, found["median_rt_ms"], found["inputs"], found["floor_ms"],
            )  # fmt: skip

    def now(self) -> int:
        last = self.table.record[-1].now_ms if self.table.record else 0
        return max(self.clock.now(), last)

    # ------------------------------------------------------------------ people

    def connect(self, conn: Connection) -> None:
        super().connect(conn)
        if conn.seat is not None:
            self.trips.ping(conn, self.table.state_id)
            if self._pausing is not None:
                self._pausing.cancel()
                self._pausing = None
        self._maybe_start_clock()

    def disconnect(self, conn: Connection) -> None:
        super().disconnect(conn)
        people = any(c.seat is not None for c in self.conns)
        if not people and self.clock.scheduled and not self.finished and self._pausing is None:
            loop = asyncio.get_running_loop()
            self._pausing = loop.call_later(self.hub.settings.pause_after_s, self._pause)

    def _pause(self) -> None:
        self._pausing = None
        self._pause_task = asyncio.create_task(self._pause_now())

    async def _pause_now(self) -> None:
        # Everybody left: stop the game clock until someone is back (after the countdown).
        async with self.lock:
            if any(c.seat is not None for c in self.conns) or self.finished:
                return
            if self.clock.running():
                await self._catch_up_locked(self.now())
            self.clock.pause()
        log.info("table %s paused: nobody is here", self.table_id)
        self.broadcast()
        self._wake.set()

    async def start(self, conn: Connection) -> None:
        await super().start(conn)
        self._maybe_start_clock()

    def _maybe_start_clock(self) -> None:
        # The clock starts (after the countdown) once every person has sat down; after a pause
        # or a restart, once one of them is back.
        table = self.table
        if self.clock.scheduled or not table.started or self.finished:
            return
        online = {c.seat for c in self.conns}
        people = [i for i, s in enumerate(table.seats) if s.kind == "human"]
        if (any if self._begun else all)(i in online for i in people):
            self._begun = True
            self.clock.start(self.hub.settings.start_countdown_ms)
            self.broadcast()
            self._wake.set()

    async def act(self, conn: Connection, body: dict[str, Any]) -> None:
        ref = body.get("ref")
        extra = {"ref": ref} if ref is not None else {}
        conn.send(error("realtime_game", self.table.state_id, **extra))

    async def play(self, conn: Connection, body: dict[str, Any], received: float = 0.0) -> None:
        """Handle a ``play`` message that arrived at ``received`` (``time.monotonic()``; 0:
        now): credit a timed input's reaction time (N9), apply it at the game clock at its
        arrival (however long it then waited for the room), ack or refuse it. What fell due
        before it is applied first and stored with it."""
        arrival = self.clock.now()
        if received:
            waited = max(0.0, time.monotonic() - received) * 1000 * self.clock.speed
            arrival = max(self.clock.base_ms, arrival - int(waited))
        ref = body.get("ref")
        extra = {"ref": ref} if ref is not None else {}
        async with self.lock:
            table = self.table
            mark = self.mark()
            due: list[Accepted] = []
            result: Accepted | Rejected | None = None
            try:
                if conn.seat is None:
                    raise ProtocolError("spectator")
                if not table.started or not self.clock.running():
                    raise ProtocolError("not_started", "the game has not started yet")
                action = dict(body["action"])
                last = table.record[-1].now_ms if table.record else 0
                now = max(arrival, last)
                due = self._apply_due(now)
                state = table.state
                seq = body["seq"]
                credited = None
                kind = action.get("type")
                if isinstance(kind, str) and kind in table.spec.timed:
                    if body.get("rt_ms") is None:
                        raise ProtocolError("bad_message", "a timed input carries rt_ms")
                    credited = self.credit(conn.seat, seq, body["rt_ms"], now, conn)
                    action["rt_ms"] = credited
                elif body.get("rt_ms") is not None:
                    raise ProtocolError("bad_message", f"a {str(kind)[:20]} carries no rt_ms")
                elif seq != state.seq:
                    raise ProtocolError("stale_reveal")
                result = table.submit(conn.seat, table.state_id, action, now)
                if isinstance(result, Accepted):
                    self.accepted(result)
                    due.append(result)
            except ProtocolError as exc:
                result = Rejected(exc.code, exc.message, table.state_id)
            if due:
                failure = await self.commit(mark, due)
                if failure is not None:
                    result = failure
        assert result is not None
        if isinstance(result, Rejected):
            conn.send(error(result.code, result.state_id, result.message, **extra))
        else:
            rt = {"rt_ms": credited} if credited is not None else {}
            conn.send(message("ack", result.state_id, **extra, **rt))

    def measured_rtt(self, seat: int, conn: Connection | None = None) -> float:
        """N9: the seat's round trip (wall ms) as measured where the client cannot stretch it
        (:meth:`RoundTrips.measured`)."""
        conns = [conn] if conn is not None else [c for c in self.conns if c.seat == seat]
        return self.trips.measured(seat, conns)

    def allowance(self, seat: int, conn: Connection | None = None) -> int:
        """N9: the seat's round-trip allowance in game ms: measured round trip plus jitter,
        scaled to the game clock and capped (for an input that came over ``conn``: that
        connection's round trip)."""
        speed = self.clock.speed
        rtt = self.measured_rtt(seat, conn) * speed
        return allowance(rtt, round(self.hub.settings.rt_jitter_ms * speed))

    def credit(
        self, seat: int, seq: int, rt_wall_ms: int, now: int, conn: Connection | None = None
    ) -> int:
        """The reaction time (game ms) credited to ``seat``'s input answering reveal ``seq``
        with a reported ``rt_wall_ms``, arriving at game time ``now`` (over ``conn``) (N9).

        Relative to the current reveal; an input answering the previous reveal in SNAP is
        moved onto the current one (it may come out as anticipation: a call on the arrangement
        before). Raises :class:`ProtocolError` ``stale_reveal`` for anything older.
        """
        state = self.table.state
        current: int = state.seq
        reveal_ms: int = state.reveal_ms
        reported = round(rt_wall_ms * self.clock.speed)
        allow = self.allowance(seat, conn)
        if seq == current:
            return effective_rt(reported, reveal_ms, now, allow, jitter_ms=0)
        if self.table.spec.late_calls_move_on and seq == current - 1 and seq in self.reveals:
            before = self.reveals[seq]
            on_previous = effective_rt(reported, before, now, allow, jitter_ms=0)
            return max(0, on_previous - (reveal_ms - before))
        raise ProtocolError("stale_reveal", f"reveal {seq} is no longer showing (now {current})")

    # ------------------------------------------------------------------ round trips

    def pong(self, conn: Connection, nonce: int) -> None:
        self.trips.pong(conn, nonce)

    async def _probe_loop(self) -> None:
        every = self.hub.settings.rtt_probe_ms / 1000
        while not self._dropped:
            await asyncio.sleep(every)
            for conn in list(self.conns):
                if conn.seat is not None:
                    self.trips.ping(conn, self.table.state_id)

    # ------------------------------------------------------------------ the referee

    def _plan_bots(self) -> None:
        # Each bot sees its own view after every change and may plan inputs (once each).
        table = self.table
        if self._planned_at == table.state_id or not table.started:
            return
        self._planned_at = table.state_id
        seq = table.state.seq
        self.plans = [p for p in self.plans if p[3] == seq]
        for seat, info in enumerate(table.seats):
            if info.kind != "bot":
                continue
            bot: Any = self.bots.get(seat)
            if bot is None:
                level = info.level  # a lesson's tutor acts as soon as the settings say
                times = f"{self.hub.settings.tutor_ms}:{self.hub.settings.tutor_patience_ms}"
                level = f"{TUTOR}:{times}" if level == TUTOR else level
                bot = self.bots[seat] = make_bot(table.game, level)
            if seat not in self._bot_rngs:
                self._bot_rngs[seat] = random.Random(bot_seed(table.seed, seat, -1))
            try:
                plans = bot.plan(table.view(seat), table.legal_actions(seat), self._bot_rngs[seat])
            except Exception:
                log.exception("bot in seat %s at table %s failed to plan", seat, self.table_id)
                continue
            self.plans += [(p.at_ms, seat, p.action, seq) for p in plans]

    def _race_settles_at(self, race: OpenRace) -> int | None:
        # When the race becomes settled given what is known now (None: a bot's input that may
        # still matter comes first).
        table = self.table
        rts: dict[int, int] = {}
        people = []
        for seat in race.open_seats:
            if table.seats[seat].kind == "bot":
                timed: list[int] = [
                    p[2].rt_ms for p in self.plans
                    if p[1] == seat and getattr(p[2], "rt_ms", None) is not None
                ]  # fmt: skip
                rts[seat] = min(timed, default=NEVER)
            else:
                people.append(seat)
                rts[seat] = NEVER
        if not settled(race, rts):
            return None
        last = table.record[-1].now_ms if table.record else 0
        return max([last, *(human_settles_at(race, self.allowance(s)) for s in people)])

    def _next_moment(self) -> tuple[int, str, Any] | None:
        """The earliest thing due: ``(time, kind, detail)`` with kind ``plan``, ``deadline`` or
        ``decide``; ``None`` if nothing is."""
        table = self.table
        if table.outcome() is not None or not table.started:
            return None
        self._plan_bots()
        moments: list[tuple[int, int, str, Any]] = []
        due = table.deadline()
        if due is not None:
            moments.append((due, 1, "deadline", None))
        for plan in self.plans:
            if due is None or plan[0] <= due:
                moments.append((plan[0], 0, "plan", plan))
        race = table.race()
        if race is not None:
            at = self._race_settles_at(race)
            if at is not None:
                moments.append((at, 2, "decide", None))
        if not moments:
            return None
        at, _, kind, detail = min(moments, key=lambda m: (m[0], m[1]))
        return at, kind, detail

    async def catch_up(self, now: int) -> None:
        """Apply, in time order, everything due by game time ``now``: bots' planned inputs,
        timeouts and early decisions; store them together, then broadcast."""
        async with self.lock:
            await self._catch_up_locked(now)

    async def _catch_up_locked(self, now: int) -> None:
        mark = self.mark()
        due = self._apply_due(now)
        if due:
            await self.commit(mark, due)

    def _apply_due(self, now: int) -> list[Accepted]:
        # Apply (in memory) what is due by ``now``, in time order; the caller stores it.
        done: list[Accepted] = []
        for _ in range(10_000):
            moment = self._next_moment()
            if moment is None or moment[0] > now:
                return done
            at, kind, plan = moment
            table = self.table
            last = table.record[-1].now_ms if table.record else 0
            when = max(at, last)
            result: Accepted | Rejected | None
            if kind == "plan":
                self.plans.remove(plan)
                result = table.submit(plan[1], table.state_id, plan[2], when)
            elif kind == "deadline":
                result = table.advance(when)
            else:
                result = table.decide(when)
            if isinstance(result, Accepted):
                self.accepted(result)
                done.append(result)
            elif kind != "plan":
                log.warning("table %s: %s at %s did not apply", self.table_id, kind, when)
                return done
        log.error("table %s: too many moments at once", self.table_id)
        return done

    async def _driver(self) -> None:
        # Ends when the room is dropped even if the cancellation were lost on its way.
        while not self._dropped:
            timeout: float | None = None
            try:
                if not self.hub.can_write(self.table_id):  # nothing could be stored: wait
                    timeout = 0.25
                elif self.clock.running() and not self.finished:
                    async with self.lock:
                        self._hold_if_behind()
                        await self._catch_up_locked(self.now())
                        if not self._told_running:
                            # The countdown is over: everyone hears it at once, so that the seat
                            # to flip first can act while its turn timer runs.
                            self.broadcast()
                        moment = self._next_moment()
                    self._due_at = moment[0] if moment is not None else None
                    if moment is not None:
                        timeout = self.clock.wall_seconds_until(moment[0])
                elif self.clock.scheduled and not self.finished:
                    timeout = self.clock.wall_seconds_until(self.clock.base_ms)
            except Exception:  # the referee must never stop: a table would stall for good
                log.exception("the referee of table %s failed; it goes on", self.table_id)
                timeout = 0.05
            if timeout is not None:
                timeout = max(timeout, 0.0005)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._wake.wait()
            self._wake.clear()

    def _hold_if_behind(self) -> None:
        # A room that wakes up well after its next moment was due (the server is overloaded:
        # a slow event loop or store) holds its clock at that moment instead of catching up in
        # a burst, so that people see every reveal for as long as the game means them to.
        due = self._due_at
        if due is None:
            return
        late = self.clock.now() - due
        if late > self.hub.settings.realtime_max_lag_ms * self.clock.speed:
            self.clock.hold(due)
            self.held_ms += late
            log.warning("table %s fell %d game ms behind; its clock waited", self.table_id, late)

    def run(self) -> None:
        if self._task is None and not self._dropped:
            self._task = asyncio.create_task(self._driver(), name=f"referee-{self.table_id}")
            self._probe = asyncio.create_task(self._probe_loop(), name=f"probe-{self.table_id}")
            self._wake.set()

    def cancel(self) -> None:
        if self._pausing is not None:
            self._pausing.cancel()
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
        super().cancel()

    async def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe
            self._probe = None
        await super().stop()
