"""Rooms: one live table each, with its connections, its computer opponents and its log.

A :class:`Room` wraps the :class:`~parlour.table.Table` (the authority) and is the only place
that feeds it inputs: an input is applied, appended to the store (committed), and only then
acknowledged and broadcast. Every message a connection receives is built from
``Table.view(seat)`` for that connection's own seat, so no message carries another seat's hand.
The :class:`Hub` holds the rooms, creates tables and rebuilds unfinished ones at start.

Nothing here waits for the database on the event loop: writes are awaited from the store's
writer thread, which commits the writes of every room that arrived together in one
transaction (group commit). A room takes one input (or one batch of due real-time inputs) at
a time (:attr:`Room.lock`): it applies it, awaits its commit, and only then acknowledges and
broadcasts it; while a write is in flight no state message leaves the room, so nobody ever sees
a move that could still be lost. If the write fails, the table goes back to its previous
(immutable) state and the input is refused with ``storage_error``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import hmac
import logging
import random
import secrets
import statistics
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from parlour.bots.levels import LEVELS
from parlour.games.registry import get_game
from parlour.server.away import Away
from parlour.server.bots import BOT_NAMES, BotRunner, bot_seed
from parlour.server.events import history
from parlour.server.protocol import CODES, ProtocolError, error, message
from parlour.server.settings import Settings
from parlour.store import (
    SQLiteStore,
    op_append,
    op_create_table,
    op_expire,
    op_finish,
    op_set_token_hash,
    op_update_seats,
)
from parlour.table import Accepted, Mark, Rejected, SeatInfo, Table

log = logging.getLogger("parlour.server")


def now_ms() -> int:
    """Wall-clock milliseconds (the time recorded with every input)."""
    return int(time.time() * 1000)


def token_hash(token: str) -> str:
    """The SHA-256 hex digest of a seat token (only this is stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any, default: str = "Guest") -> str:
    """A display name: printable characters only, spaces collapsed, at most 20 characters.

    >>> clean_name("  Ana\\n  Lund ")
    'Ana Lund'
    >>> clean_name(42)
    'Guest'
    """
    if not isinstance(name, str):
        return default
    kept = "".join(c for c in name if unicodedata.category(c)[0] not in "CZ" or c == " ")
    kept = " ".join(kept.split())[:20].strip()
    return kept or default


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (``None`` for a spectator), its outgoing queue, the round-trip
    probes it has not answered (``pings``: nonce to send time; ``late``: nonces already counted
    as missed) and its socket where the server can see it (for the kernel's round trip)."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    pings: dict[int, float] = field(default_factory=dict)
    late: set[int] = field(default_factory=set)
    sock: Any = None

    def send(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` for this connection's writer."""
        self.queue.put_nowait(msg)


class Room:
    """A live table: see the module docstring."""

    def __init__(self, hub: Hub, table: Table, hashes: dict[int, str]) -> None:
        self.hub = hub
        self.table = table
        self.hashes = dict(hashes)
        self.conns: set[Connection] = set()
        self.watching = 0
        """How many of ``conns`` are spectators."""
        self._seated: collections.Counter[int] = collections.Counter()
        """How many of ``conns`` each seat has (kept, not counted: spectators come in crowds)."""
        self._wake = asyncio.Event()
        self._rng = random.Random(table.seed ^ 0x5EED)
        self._task: asyncio.Task[None] | None = None
        self._history: dict[int | None, list[Any]] = {}
        self._sent = len(self.history(None))
        self.last_active = time.monotonic()
        self.lock = asyncio.Lock()
        """Held while an input (or a batch) is applied and stored: one at a time, in order."""
        self._writing = False
        self._deferred = False
        self._fresh: set[Connection] = set()
        self.away = Away(self)
        self.created = self.last_active
        self.joined = bool(table.record)
        """Whether a person has ever connected to a seat (a rebuilt table: has been played)."""
        self.held_until = self.created + hub.settings.hold_s
        """Held (:meth:`held`) until then even with nobody here: made or left recently."""

    realtime = False
    """Whether this room's game is played in real time (see ``parlour.server.realtime``)."""

    def now(self) -> int:
        """The time recorded with an input now: wall-clock milliseconds (real-time rooms: the
        game clock)."""
        return now_ms()

    def history(self, seat: int | None) -> list[Any]:
        """Every public event of the game so far, as ``seat`` may see it (kept per seat and
        extended with the new events only: events never change once logged)."""
        kept = self._history.setdefault(seat, [])
        kept += history(self.table, seat, since=len(kept))
        return kept

    def extra_state(self) -> dict[str, Any]:
        """Fields added to every ``state`` message (real-time rooms: the clock)."""
        return {}

    @property
    def table_id(self) -> str:
        return self.table.table_id

    @property
    def finished(self) -> bool:
        return self.table.outcome() is not None

    @property
    def settled(self) -> bool:
        """Nothing is being applied or stored right now (the room may be dropped)."""
        return not self._writing and not self.lock.locked()

    # ------------------------------------------------------------------ seats and connections

    def seat_for_token(self, token: str) -> int | None:
        """The seat whose token this is, or ``None`` (compared in constant time)."""
        digest = token_hash(token)
        found = None
        for seat, stored in self.hashes.items():
            if hmac.compare_digest(stored, digest):
                found = seat
        return found

    def new_token(self, seat: int) -> tuple[str, str]:
        """A fresh random token for ``seat`` and its hash (only the hash is ever stored)."""
        token = secrets.token_urlsafe(24)
        return token, token_hash(token)

    def held(self, now: float) -> bool:
        """Whether this table counts against ``max_open_tables`` and its guest's
        ``max_tables_per_guest`` at monotonic time ``now``: unfinished, and a person is
        connected to a seat or was (or the table was created) within ``hold_s``."""
        if len(self.conns) == self.watching and now >= self.held_until:
            return False
        return not self.finished

    def presence(self) -> list[bool]:
        """Per seat: a bot, or a human with at least one open connection."""
        online = self._seated
        return [s.kind == "bot" or online[i] > 0 for i, s in enumerate(self.table.seats)]

    def connect(self, conn: Connection) -> None:
        """Add a connection and send it the welcome and its state (with the whole history; while
        a write is in flight, once it is done).

        The others hear of it only if it changes who is here (a person's seat comes online):
        then everyone gets a small ``presence`` message (before the start, the whole state). A
        spectator arriving costs two messages, to itself, however many are watching.
        """
        online = self.presence()
        self.conns.add(conn)
        if conn.seat is None:
            self.watching += 1
        else:
            self._seated[conn.seat] += 1
            self.joined = True
        self.last_active = time.monotonic()
        if conn.seat is not None:  # a spectator changes nobody's presence
            self.away.presence_changed()
        role = "player" if conn.seat is not None else "spectator"
        conn.send(
            message(
                "welcome",
                self.table.state_id,
                seat=conn.seat,
                role=role,
                host=conn.seat == 0,
                table_id=self.table_id,
                settings=self.hub.settings.client(),
            )
        )
        if self._writing or (self.presence() != online and not self.table.started):
            self.broadcast(new=conn)  # after the write; before the start, for everyone
            return
        past = self.history(conn.seat)
        conn.send({**self.state_message(conn.seat, []), "history": list(past)})
        self._tell_presence(online, but=conn)

    def disconnect(self, conn: Connection) -> None:
        """Remove a connection; if that changes who is here, tell the others (``presence``)."""
        if conn not in self.conns:
            return
        online = self.presence()
        self.conns.discard(conn)
        if conn.seat is None:
            self.watching -= 1
        else:
            self._seated[conn.seat] -= 1
        self.last_active = time.monotonic()
        if conn.seat is not None:  # a spectator changes nobody's presence
            self.away.presence_changed()
        if conn.seat is not None:
            self.held_until = self.last_active + self.hub.settings.hold_s
        if self.conns:
            self._tell_presence(online)
        elif self.finished:
            self.hub.forget(self)

    def _tell_presence(self, before: list[bool], but: Connection | None = None) -> None:
        # A person came or went: a small presence message to everyone but ``but``. Before the
        # start the whole state instead (who may start depends on whether the host is here),
        # and while a write is in flight the whole state after it (no message may carry the
        # state being written).
        now = self.presence()
        if now == before:
            return
        if self._writing or not self.table.started:
            self.broadcast()
            return
        msg = message("presence", self.table.state_id, presence=now)
        for conn in list(self.conns):
            if conn is not but:
                conn.send(msg)

    def state_message(self, seat: int | None, events: list[Any]) -> dict[str, Any]:
        """The ``state`` message for ``seat``: its view, its legal actions, who is here, and
        ``events``: what happened since the last state message, as ``seat`` may see it."""
        table = self.table
        actions = [a.to_json() for a in table.legal_actions(seat)] if seat is not None else []
        return message(
            "state",
            table.state_id,
            view=table.view(seat),
            actions=actions,
            events=events,
            presence=self.presence(),
            finished=self.finished,
            **self.away.fields(seat),
            **self.extra_state(),
        )

    def broadcast(self, new: Connection | None = None) -> None:
        """Send every connection the state for its own seat (built once per seat), with the
        events since the last broadcast; ``new``, a connection that just arrived, gets the
        whole history instead (``history``). While a write is in flight this waits for it
        (the broadcast happens when the write is done)."""
        if new is not None:
            self._fresh.add(new)
        if self._writing:
            self._deferred = True
            return
        self._deferred = False
        fresh, self._fresh = self._fresh, set()
        built: dict[int | None, tuple[dict[str, Any], list[Any]]] = {}
        sent = self._sent
        for conn in list(self.conns):
            if conn.seat not in built:
                past = self.history(conn.seat)
                built[conn.seat] = (self.state_message(conn.seat, past[sent:]), past)
                self._sent = len(past)
            msg, past = built[conn.seat]
            conn.send({**msg, "events": [], "history": list(past)} if conn in fresh else msg)
        if not built:
            self._sent = len(self.history(None))

    # ------------------------------------------------------------------ inputs

    async def submit(self, seat: int, state_id: int, action: Any) -> Accepted | Rejected:
        """Apply ``action`` for ``seat``, store it, then broadcast; refusals change nothing.

        If the store fails, the input is taken back and refused with ``storage_error``.
        """
        async with self.lock:
            mark = self.mark()
            result = self.table.submit(seat, state_id, action, self.now())
            if isinstance(result, Rejected):
                return result
            self.accepted(result)
            return await self.commit(mark, [result]) or result

    def mark(self) -> Any:
        """Where the room is now (:meth:`restore` comes back to it)."""
        return self.table.mark()

    def restore(self, mark: Any) -> None:
        """Take back every input accepted since ``mark``."""
        self.table.restore(mark)
        self._history.clear()

    async def commit(self, mark: Mark, results: list[Accepted]) -> Rejected | None:
        """Store ``results`` — inputs the table has accepted since ``mark`` — in one write, then
        broadcast and wake the driver. Call with :attr:`lock` held.

        Returns ``None`` once they are stored; if the store fails, they are all taken back
        (the table returns to ``mark``) and the refusal (``storage_error``) is returned.
        """
        ops = [op_append(self.table_id, r.entry) for r in results]
        outcome = self.table.outcome()
        if outcome is not None:
            ops.append(op_finish(self.table_id, outcome))
        self._writing = True
        write = asyncio.ensure_future(self.hub.store.write(ops))
        write.add_done_callback(functools.partial(self._written, mark, results))
        with contextlib.suppress(Exception):  # _written has dealt with it
            await asyncio.shield(write)  # if cancelled, the write still ends in _written
        if write.exception() is not None:
            return Rejected("storage_error", CODES["storage_error"], self.table.state_id)
        return None

    def _written(self, mark: Mark, results: list[Accepted], write: asyncio.Future[None]) -> None:
        # Runs when a commit's write is over (before the awaiting input resumes).
        self._writing = False
        failed = write.cancelled() or write.exception() is not None
        if failed:
            first = results[0].entry.seq if results else "?"
            log.error("could not store input %s of table %s: %s", first, self.table_id,
                      "cancelled" if write.cancelled() else write.exception())  # fmt: skip
            self.restore(mark)
            if self._deferred or self._fresh:
                self.broadcast()
            return
        if results:
            self.away.changed(acted=results[-1].entry.seat)
        self.last_active = time.monotonic()
        self.broadcast()
        self._wake.set()

    def accepted(self, result: Accepted) -> None:
        """Called after each input the table accepts, before it is stored (real-time rooms keep
        their history here; :meth:`restore` takes it back)."""

    async def act(self, conn: Connection, body: dict[str, Any]) -> None:
        """Handle an ``act`` message from ``conn``: ack or error to it, state to everyone."""
        ref = body.get("ref")
        extra = {"ref": ref} if ref is not None else {}
        if conn.seat is None:
            conn.send(error("spectator", self.table.state_id, **extra))
            return
        if "seat" in body and body["seat"] != conn.seat:
            text = f"you sit in seat {conn.seat}, not seat {body['seat']}"
            conn.send(error("wrong_seat", self.table.state_id, text, **extra))
            return
        if self.away.back(conn.seat):  # a move of their own: the person is back
            self.broadcast()
        result = await self.submit(conn.seat, body["state_id"], body["action"])
        if isinstance(result, Rejected):
            conn.send(error(result.code, result.state_id, result.message, **extra))
        else:
            conn.send(message("ack", result.state_id, **extra))

    async def back(self, conn: Connection) -> None:
        """A ``back`` message: the person in this seat is back, and the computer that played
        for them stops. Raises :class:`ProtocolError` ``spectator`` or ``not_away``."""
        if conn.seat is None:
            raise ProtocolError("spectator")
        if not self.away.back(conn.seat):
            raise ProtocolError("not_away")
        self.broadcast()

    async def play(self, conn: Connection, body: dict[str, Any], received: float = 0.0) -> None:
        """A ``play`` message (``received``: its arrival, ``time.monotonic()``): only real-time
        games take them."""
        ref = body.get("ref")
        extra = {"ref": ref} if ref is not None else {}
        conn.send(error("not_realtime", self.table.state_id, **extra))

    def pong(self, conn: Connection, nonce: int) -> None:
        """A ``pong``: this room sends no pings. Raises :class:`ProtocolError`."""
        raise ProtocolError("bad_message", "no ping with that nonce is waiting")

    async def join(self, name: str) -> tuple[int, str]:
        """A person takes the first open seat; returns the seat and its new token (stored
        before it is given).

        Raises :class:`ProtocolError` ``already_started``, ``not_open`` (no open seat) or
        ``storage_error``.
        """
        async with self.lock:
            table = self.table
            if table.started:
                raise ProtocolError("already_started")
            seat = next((i for i, s in enumerate(table.seats) if s.kind == "open"), None)
            if seat is None:
                raise ProtocolError("not_open", "every seat at this table is taken")
            seats = list(table.seats)
            seats[seat] = SeatInfo("human", clean_name(name))
            token, digest = self.new_token(seat)
            await self._store_seats(seats, op_set_token_hash(self.table_id, seat, digest))
            table.take_seat(seat, seats[seat].name)
            self.hashes[seat] = digest
            self.broadcast()
            return seat, token

    async def _store_seats(self, seats: list[SeatInfo], *more: Any, started: bool = False) -> None:
        # Store the seats (and more) before they change in memory; ProtocolError if we cannot.
        ops = [op_update_seats(self.table_id, seats, started or self.table.started), *more]
        try:
            await self.hub.store.write(ops)
        except Exception:
            log.exception("could not store the seats of table %s", self.table_id)
            raise ProtocolError("storage_error") from None

    async def fill(self, conn: Connection, seat: Any, level: str) -> None:
        """The host (or anyone seated once the host has been away a while: ``Away``) puts a
        computer opponent of ``level`` in an open seat.

        Raises :class:`ProtocolError` ``not_host``, ``already_started``, ``not_open``,
        ``bad_level`` or ``storage_error``.
        """
        async with self.lock:
            table = self.table
            self.away.check_start(conn.seat)
            if table.started:
                raise ProtocolError("already_started")
            if level not in LEVELS:
                raise ProtocolError("bad_level", f"levels are {', '.join(LEVELS)}")
            if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "open":
                raise ProtocolError("not_open")
            taken = {s.name for s in table.seats}
            name = next(n for n in self._rng.sample(BOT_NAMES, len(BOT_NAMES)) if n not in taken)
            seats = list(table.seats)
            seats[seat] = SeatInfo("bot", name, level)
            await self._store_seats(seats)
            table.fill_with_bot(seat, level)
            table.seats[seat] = seats[seat]
            self.broadcast()

    async def start(self, conn: Connection) -> None:
        """The host (or anyone seated once the host has been away a while: ``Away``) starts
        the game. Raises :class:`ProtocolError` ``not_host``, ``already_started``,
        ``seats_open`` or ``storage_error``."""
        async with self.lock:
            self.away.check_start(conn.seat)
            if self.table.started:
                raise ProtocolError("already_started")
            if any(s.kind == "open" for s in self.table.seats):
                raise ProtocolError("seats_open")
            await self._store_seats(list(self.table.seats), started=True)
            self.table.start()
            self.away.changed()
            self.broadcast()
            self._wake.set()

    # ------------------------------------------------------------------ computer opponents

    def run(self) -> None:
        """Start this room's bot driver (idempotent)."""
        if self._task is None:
            self._task = asyncio.create_task(self._drive_bots(), name=f"bots-{self.table_id}")
            self._wake.set()
            self.away.changed()

    def wake(self) -> None:
        """Wake the driver: computers may have a move to make."""
        self._wake.set()

    def cancel(self) -> None:
        """Cancel this room's tasks (without waiting for them)."""
        self.away.cancel()
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        """Stop the bot driver."""
        self.away.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _computer_plays(self, seat: int) -> bool:
        # A computer opponent, or a computer playing for an away person (``Away``).
        info = self.table.seats[seat]
        return info.kind == "bot" or info.away

    def _bots_to_act(self) -> list[int]:
        return [s for s in self.table.to_act() if self._computer_plays(s)]

    async def _drive_bots(self) -> None:
        # Wait for a change; while bots are to act, let each of them think (off the loop, all
        # at once during the flip decisions) while a human-feeling pause runs, then submit each
        # move that is still legal. A bot whose move went stale is simply asked again.
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._bots_move()
            except Exception:  # the driver must never stop: the table would stall for good
                log.exception("the bot driver of table %s failed; it goes on", self.table_id)
                await asyncio.sleep(0.05)
                self._wake.set()

    async def _bots_move(self) -> None:
        # While bots are to act: think, pause, submit (see _drive_bots).
        settings = self.hub.settings
        while seats := self._bots_to_act():
            low, high = settings.bot_delay_min_ms, settings.bot_delay_max_ms
            pause = asyncio.sleep(self._rng.uniform(low, high) / 1000)
            _, *moves = await asyncio.gather(pause, *(self._think(s) for s in seats))
            for seat, action in zip(seats, moves, strict=True):
                table = self.table
                playing = seat in table.to_act() and self._computer_plays(seat)
                if playing and action in table.legal_actions(seat):
                    result = await self.submit(seat, table.state_id, action)
                    if isinstance(result, Rejected):
                        log.warning("bot move refused at %s: %s", self.table_id, result)

    async def _think(self, seat: int) -> Any:
        """The move of the bot in ``seat`` for the current state (its first legal move if the
        bot fails, so that a game never stalls)."""
        table = self.table
        legal = table.legal_actions(seat)
        level = table.seats[seat].level or self.hub.settings.away_level  # an away person's
        seed = bot_seed(table.seed, seat, table.state_id)
        limit = self.hub.settings.bot_timeout_s
        try:
            choosing = self.hub.bots.choose(table.game, level, table.view(seat), legal, seed)
            text = await asyncio.wait_for(choosing, limit)
            return table.spec.parse_action(text)
        except TimeoutError:
            text = "bot fallback: the %s bot in seat %s at table %s overran %s s; plays a fallback"
            log.warning(text, level, seat, self.table_id, limit)
        except Exception:
            text = "bot fallback: the %s bot in seat %s at table %s failed; plays a fallback"
            log.exception(text, level, seat, self.table_id)
        return legal[0] if legal else None


def room_for(hub: Hub, table: Table, hashes: dict[int, str]) -> Room:
    """The room for ``table``: a :class:`~parlour.server.realtime.RealtimeRoom` for a
    real-time game (it has a ``race``), a turn-based :class:`Room` otherwise."""
    if table.spec.race is not None:
        from parlour.server.realtime import RealtimeRoom

        return RealtimeRoom(hub, table, hashes)
    return Room(hub, table, hashes)


LAG_PERIOD_S = 0.05
LAG_SAMPLES = 60
"""The event loop's lag is sampled every 50 ms; admission looks at the last 3 s."""


class TableExpired(KeyError):
    """The table was closed after a long time without play."""


class Hub:
    """Every room of this server, the store and the bot runner (built in the app's lifespan)."""

    def __init__(self, settings: Settings, store: SQLiteStore, bots: BotRunner) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self.rooms: dict[str, Room] = {}
        self._creating = 0
        """Tables being created (their first write awaited): they count as held."""
        self._sweeper: asyncio.Task[None] | None = None
        self._lag_watch: asyncio.Task[None] | None = None
        self.lags: collections.deque[float] = collections.deque(maxlen=LAG_SAMPLES)
        """The event loop's recent lags (ms), one sample every :data:`LAG_PERIOD_S`."""

    def _table_from_store(self, table_id: str) -> tuple[Table, dict[int, str]]:
        # Blocking (reads the database, replays the log): run it off the loop when serving.
        stored = self.store.load(table_id)
        if stored.expired:
            raise TableExpired(table_id)
        table = Table(
            stored.table_id, stored.game, stored.options, stored.seed, list(stored.seats),
            started=stored.started, record=stored.entries,
        )  # fmt: skip
        return table, self.store.token_hashes(table_id)

    async def open(self) -> int:
        """Rebuild every unfinished table from its log and let its bots resume; returns how
        many were rebuilt. A table that no longer rebuilds is logged and skipped."""
        for table_id in self.store.unfinished():
            try:
                room = room_for(self, *self._table_from_store(table_id))
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                continue
            self.rooms[table_id] = room
            room.run()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="sweeper")
        self._lag_watch = asyncio.create_task(self._watch_lag(), name="lag-watch")
        return len(self.rooms)

    async def _watch_lag(self) -> None:
        # How late a short sleep wakes up is how long everything else waits for the loop.
        while True:
            began = time.monotonic()
            await asyncio.sleep(LAG_PERIOD_S)
            self.lags.append(max(0.0, time.monotonic() - began - LAG_PERIOD_S) * 1000)

    def loop_lag_ms(self, percent: int = 90) -> float:
        """The ``percent``-th percentile of the event loop's lag over the last few seconds."""
        if len(self.lags) < 2:
            return self.lags[0] if self.lags else 0.0
        return statistics.quantiles(self.lags, n=100, method="inclusive")[percent - 1]

    def busy(self) -> str | None:
        """Why the server should take no new real-time table now (``None``: it may)."""
        lag = self.loop_lag_ms()
        if lag > self.settings.admit_max_lag_ms:
            return f"the server is falling behind ({lag:.0f} ms)"
        waiting, _ = self.store.writer.backlog()
        if waiting > self.settings.admit_max_backlog:
            return f"{waiting} moves are waiting to be saved"
        return None

    def health(self) -> dict[str, Any]:
        """How the server is doing (no table's secrets): loop lag, store backlog, tables."""
        waiting, oldest = self.store.writer.backlog()
        return {
            "loop_lag_ms": {"p50": round(self.loop_lag_ms(50), 1),
                            "p90": round(self.loop_lag_ms(90), 1),
                            "p99": round(self.loop_lag_ms(99), 1)},
            "store": {"waiting": waiting, "oldest_ms": round(oldest * 1000, 1),
                      "batches": self.store.writer.batches, "groups": self.store.writer.groups},
            "tables": sum(not r.finished for r in self.rooms.values()),
            "busy": self.busy(),
        }  # fmt: skip

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_s)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep failed")

    async def sweep(self) -> tuple[int, int]:
        """Expire idle tables and archive old finished ones; returns how many of each.

        A table expires when it is unfinished, nobody is connected, and either nothing has
        happened for ``idle_expiry_s`` or no person has ever connected to it in the
        ``unjoined_expiry_s`` since it was created; finished tables nobody looks at leave memory;
        finished tables older than ``archive_after_s`` are archived.
        """
        now = time.monotonic()
        settings = self.settings
        expired = 0
        for room in list(self.rooms.values()):
            if room.conns:
                continue
            if room.finished:
                self.forget(room)
                continue
            idle = now - room.last_active >= settings.idle_expiry_s
            lonely = not room.joined and now - room.created >= settings.unjoined_expiry_s
            if (idle or lonely) and room.settled:
                await self.store.write([op_expire(room.table_id)])
                if self.rooms.get(room.table_id) is not room or room.conns:
                    continue  # somebody came back meanwhile
                del self.rooms[room.table_id]
                room.cancel()
                expired += 1
                why = "without play" if idle else "with nobody ever at it"
                log.info("table %s expired after %.0f s %s", room.table_id,
                         now - room.last_active, why)  # fmt: skip
        archived = 0
        before = now_ms() - int(self.settings.archive_after_s * 1000)
        for table_id in await asyncio.to_thread(self.store.to_archive, before):
            if table_id not in self.rooms:
                await asyncio.to_thread(self.store.archive, table_id)
                archived += 1
        return expired, archived

    async def close(self) -> None:
        """Stop every room's bots and the sweeper."""
        for task in (self._sweeper, self._lag_watch):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()

    async def get(self, table_id: str) -> Room:
        """The room of ``table_id``, loading a stored (e.g. finished) table on demand (off the
        event loop).

        Raises ``KeyError`` for an unknown table, :class:`TableExpired` for an expired one,
        ``sqlite3.Error`` if the database cannot be read.
        """
        if table_id in self.rooms:
            return self.rooms[table_id]
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 40:
            raise KeyError(table_id)
        table, hashes = await asyncio.to_thread(self._table_from_store, table_id)
        if table_id in self.rooms:  # loaded meanwhile by another request
            return self.rooms[table_id]
        room = self.rooms[table_id] = room_for(self, table, hashes)
        room.run()
        return room

    def forget(self, room: Room) -> None:
        """Drop a finished room nobody is looking at (it stays in the store)."""
        # Not while a write is in flight: a room loaded again would lack that input.
        if (room.finished and room.settled and not room.conns
                and self.rooms.get(room.table_id) is room):  # fmt: skip
            del self.rooms[room.table_id]
            room.cancel()

    async def create(
        self,
        game: str,
        options: dict[str, Any],
        name: str,
        seats: list[SeatInfo],
        guest: str | None = None,
    ) -> tuple[Room, str]:
        """A new table with the creator (the host) in seat 0 and ``seats`` for the others
        (bots or open seats); returns the room and the host's token. The game starts at once
        unless a seat is open.

        Raises ``ValueError`` for bad options, ``OverflowError`` when the server has
        ``max_open_tables`` held tables (:meth:`Room.held`), and :class:`ProtocolError`
        ``too_many_tables`` when ``guest`` already holds ``max_tables_per_guest`` (``busy`` for a
        real-time table while the server is overloaded, ``storage_error`` if the table cannot be
        stored).
        """
        now = time.monotonic()
        held = sum(r.held(now) for r in self.rooms.values()) + self._creating
        if held >= self.settings.max_open_tables:
            raise OverflowError("this server has too many tables in play; try again later")
        self._creating += 1  # counted while its write is awaited (creations run side by side)
        try:
            return await self._create(game, options, name, seats, guest, now)
        finally:
            self._creating -= 1

    async def _create(
        self,
        game: str,
        options: dict[str, Any],
        name: str,
        seats: list[SeatInfo],
        guest: str | None,
        now: float,
    ) -> tuple[Room, str]:
        if get_game(game).race is not None and (why := self.busy()) is not None:
            log.warning("refused a new %s table: %s", game, why)
            raise ProtocolError("busy")
        most = self.settings.max_tables_per_guest
        if guest is not None:
            ids = await asyncio.to_thread(self.store.unfinished_of, guest)
            if sum((room := self.rooms.get(i)) is not None and room.held(now) for i in ids) >= most:
                raise ProtocolError(
                    "too_many_tables",
                    f"you already have {most} unfinished tables in play: finish or leave one "
                    "(a table you left stops counting after a few minutes)",
                )
        table_id = secrets.token_urlsafe(6)
        while table_id in self.rooms:
            table_id = secrets.token_urlsafe(6)
        seed = secrets.randbits(48)
        rng = random.Random(seed)
        host = clean_name(name)
        names = [n for n in rng.sample(BOT_NAMES, len(BOT_NAMES)) if n != host]
        all_seats = [SeatInfo("human", host)]
        for info in seats:
            all_seats.append(SeatInfo("bot", names.pop(), info.level) if info.kind == "bot"
                             else SeatInfo("open"))  # fmt: skip
        started = all(s.kind != "open" for s in all_seats)
        try:
            table = Table(table_id, game, {**options, "players": len(all_seats)}, seed,
                          all_seats, started=started)  # fmt: skip
        except Exception as exc:
            raise ValueError(str(exc)) from None
        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        try:
            await self.store.write([
                op_create_table(table_id, game, table.options, seed, table.seats, started,
                                now_ms(), guest),
                op_set_token_hash(table_id, 0, digest),
            ])  # fmt: skip
        except Exception:
            log.exception("could not store new table %s", table_id)
            raise ProtocolError("storage_error", "the table could not be saved") from None
        room = room_for(self, table, {0: digest})
        self.rooms[table_id] = room
        room.run()
        return room, token
