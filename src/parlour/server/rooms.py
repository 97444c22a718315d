"""Rooms: one live table each, with its connections, its computer opponents and its log.

A :class:`Room` wraps the :class:`~parlour.table.Table` (the authority) and is the only place
that feeds it inputs: an input is applied, appended to the store (committed), and only then
acknowledged and broadcast. Every message a connection receives is built from
``Table.view(seat)`` for that connection's own seat, so no message carries another seat's hand.
The :class:`~parlour.server.hub.Hub` holds the rooms; computers play through a
:class:`~parlour.server.driver.BotDriver` (turn-based) or the real-time referee.

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
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.bots.levels import LEVELS
from parlour.server.away import Away
from parlour.server.bots import BOT_NAMES
from parlour.server.coach import Coach
from parlour.server.driver import BotDriver
from parlour.server.events import history
from parlour.server.protocol import CODES, ProtocolError, encode, error, message
from parlour.server.tasks import stop_tasks
from parlour.store import (
    op_append,
    op_finish,
    op_set_token_hash,
    op_update_seats,
)
from parlour.table import Accepted, Mark, Rejected, SeatInfo, Table

if TYPE_CHECKING:
    from parlour.server.hub import Hub

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


KICK: dict[str, Any] = {"type": "kick"}
"""Queued by :meth:`Connection.kick`: the connection's writer closes its socket (code 1012: the
table moved to another server process; the browser reconnects)."""


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (``None`` for a spectator), its outgoing queue (messages, or
    messages already encoded: see :meth:`Room.broadcast`), the round-trip probes it has not
    answered (``pings``: nonce to send time; ``late``: nonces already counted as missed) and its
    socket where the server can see it (for the kernel's round trip)."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=asyncio.Queue)
    pings: dict[int, float] = field(default_factory=dict)
    late: set[int] = field(default_factory=set)
    sock: Any = None
    relay: Any = None
    """Where another server process holds the socket (``parlour.server.cluster``): its
    measured round trips (``rtts``: nonce to wall ms) and kernel round trip (``kernel_ms``)."""

    def send(self, msg: dict[str, Any] | str) -> None:
        """Queue ``msg`` (or its encoded text) for this connection's writer."""
        self.queue.put_nowait(msg)

    def kick(self) -> None:
        """Close this connection after what is queued (see :data:`KICK`)."""
        self.queue.put_nowait(KICK)


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
        self._dropped = False
        self._history: dict[int | None, list[Any]] = {}
        self._sent = len(self.history(None))
        self.last_active = time.monotonic()
        self.lock = asyncio.Lock()
        """Held while an input (or a batch) is applied and stored: one at a time, in order."""
        self._writing = False
        self._deferred = False
        self._fresh: set[Connection] = set()
        self.away = Away(self)
        self.coach = Coach(self)
        """Hints for this table's people (``parlour.server.coach``)."""
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
        msg = encode(message("presence", self.table.state_id, presence=now))
        for conn in list(self.conns):
            if conn is not but:
                conn.send(msg)

    def state_message(self, seat: int | None, events: list[Any]) -> dict[str, Any]:
        """The ``state`` message for ``seat``: its view, its legal actions, who is here, and
        ``events``: what happened since the last state message, as ``seat`` may see it."""
        table = self.table
        actions = [a.to_json() for a in table.legal_actions(seat)] if seat is not None else []
        refusals = table.refusals(seat) if actions and seat is not None else {}
        return message(
            "state",
            table.state_id,
            view=table.view(seat),
            actions=actions,
            **({"refusals": refusals} if refusals else {}),
            events=events,
            presence=self.presence(),
            finished=self.finished,
            **self.away.fields(seat),
            **self.extra_state(),
        )

    def broadcast(self, new: Connection | None = None) -> None:
        """Send every connection the state for its own seat (built and encoded once per seat),
        with the events since the last broadcast; ``new``, a connection that just arrived, gets
        the whole history instead (``history``). While a write is in flight this waits for it
        (the broadcast happens when the write is done).

        The connections are sent the encoded text, not the message: a state message is a few
        hundred small objects, and held until every writer had sent it they outlived the young
        garbage collections by the thousand (``GcKeeper`` in :mod:`parlour.server.run`)."""
        if new is not None:
            self._fresh.add(new)
        if self._writing:
            self._deferred = True
            return
        self._deferred = False
        fresh, self._fresh = self._fresh, set()
        built: dict[int | None, tuple[str, dict[str, Any], list[Any]]] = {}
        sent = self._sent
        for conn in list(self.conns):
            if conn.seat not in built:
                past = self.history(conn.seat)
                msg = self.state_message(conn.seat, past[sent:])
                built[conn.seat] = (encode(msg), msg, past)
                self._sent = len(past)
            text, msg, past = built[conn.seat]
            conn.send(encode({**msg, "events": [], "history": past}) if conn in fresh else text)
        if not built:
            self._sent = len(self.history(None))

    # ------------------------------------------------------------------ inputs

    async def submit(
        self, seat: int, state_id: int, action: Any, still: Callable[[], bool] | None = None
    ) -> Accepted | Rejected:
        """Apply ``action`` for ``seat``, store it, then broadcast; refusals change nothing.

        ``still`` (checked once the room's lock is held) may refuse it with ``stale_state``:
        the bot driver's move for a person who came back while it waited for the lock.
        If the store fails, the input is taken back and refused with ``storage_error``.
        """
        async with self.lock:
            if still is not None and not still():
                return Rejected("stale_state", CODES["stale_state"], self.table.state_id)
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
        write = asyncio.ensure_future(self.hub.write(self.table_id, ops))
        write.add_done_callback(functools.partial(self._written, mark, results))
        with contextlib.suppress(Exception):  # _written has dealt with it
            await asyncio.shield(write)  # if cancelled, the write still ends in _written
        failure = write.exception()
        if isinstance(failure, ProtocolError):  # unavailable: the table's owner is in doubt
            return Rejected(failure.code, failure.message, self.table.state_id)
        if failure is not None:
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
        """Called after each input the table accepts, before it is stored (real-time rooms note
        the reveal and hold back a computer's input that waits for the decision;
        :meth:`restore` takes back what they noted)."""

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
            await self.hub.write(self.table_id, ops)
        except ProtocolError:
            raise
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
        """Start this room's bot driver (idempotent; never again once :meth:`cancel` ran)."""
        if self._task is None and not self._dropped:
            driver = BotDriver(self, self._wake, self._rng)
            self._task = asyncio.create_task(driver.run_forever(), name=f"bots-{self.table_id}")
            self._wake.set()
            self.away.changed()

    def wake(self) -> None:
        """Wake the driver: computers may have a move to make."""
        self._wake.set()

    @property
    def dropped(self) -> bool:
        """Whether this room has been dropped (:meth:`cancel`): its tasks are to end."""
        return self._dropped

    def cancel(self) -> None:
        """Cancel this room's tasks (without waiting for them): the room is being dropped.

        The tasks are let go: a cancelled task keeps its cancellation's traceback, whose frames
        hold the room, and the room would then be a cycle that waits for the garbage collector
        (for a sweep, under ``GcKeeper``) instead of going at once."""
        self._dropped = True
        self.away.cancel()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def stop(self) -> None:
        """Stop the bot driver."""
        self.away.cancel()
        await stop_tasks([self._task])
        self._task = None
