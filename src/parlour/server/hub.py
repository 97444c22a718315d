"""The hub: every live room of this server, the store and the bot runner.

The :class:`Hub` creates tables, loads stored ones on demand, rebuilds unfinished ones at start,
expires idle tables and archives old finished ones (the sweep), and watches the event loop's lag
to refuse new real-time tables while the server is falling behind (``busy``).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import random
import secrets
import statistics
import time
from concurrent.futures import Future
from typing import Any

from parlour.games.registry import get_game
from parlour.server.bots import BOT_NAMES, BotRunner
from parlour.server.protocol import ProtocolError
from parlour.server.realtime import RealtimeRoom
from parlour.server.rooms import Room, clean_name, now_ms, token_hash
from parlour.server.settings import Settings
from parlour.server.tasks import stop_tasks
from parlour.store import (
    STORAGE_ERRORS,
    Fence,
    Op,
    Store,
    StoredTable,
    op_create_table,
    op_expire,
    op_set_token_hash,
)
from parlour.table import SeatInfo, Table, legacy_version

log = logging.getLogger("parlour.server")


def room_for(hub: Hub, table: Table, hashes: dict[int, str]) -> Room:
    """The room for ``table``: a :class:`~parlour.server.realtime.RealtimeRoom` for a
    real-time game (it has a ``race``), a turn-based :class:`Room` otherwise."""
    if table.spec.race is not None:
        return RealtimeRoom(hub, table, hashes)
    return Room(hub, table, hashes)


LAG_PERIOD_S = 0.05
LAG_SAMPLES = 60
"""The event loop's lag is sampled every 50 ms; admission looks at the last 3 s."""


class TableExpired(KeyError):
    """The table was closed after a long time without play."""


class Hub:
    """Every room of this server, the store and the bot runner (built in the app's lifespan)."""

    def __init__(self, settings: Settings, store: Store, bots: BotRunner) -> None:
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
        self._seeds = random.Random(settings.table_seed) if settings.table_seed else None
        """Tests only (``settings.table_seed``): tables' seeds from a seeded generator."""

    def _stored(self, table_id: str) -> StoredTable:
        # Blocking (reads the database). KeyError for an unknown table, TableExpired.
        stored = self.store.load(table_id)
        if stored.expired:
            raise TableExpired(table_id)
        return stored

    def _table_from_store(self, table_id: str) -> tuple[Table, dict[int, str]]:
        # Blocking (reads the database, replays the log): run it off the loop when serving.
        stored = self._stored(table_id)
        table = Table(
            stored.table_id, stored.game, stored.options, stored.seed, list(stored.seats),
            started=stored.started, record=stored.entries,
            version=stored.version or legacy_version(stored.game),
        )  # fmt: skip
        return table, self.store.token_hashes(table_id)

    async def open(self) -> int:
        """Rebuild every unfinished table from its log and let its bots resume; returns how
        many were rebuilt. A table that no longer rebuilds is logged and skipped (the database
        is read off the event loop)."""
        for table_id in await asyncio.to_thread(self.store.unfinished):
            try:
                room = room_for(self, *await asyncio.to_thread(self._table_from_store, table_id))
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                continue
            self.rooms[table_id] = room
            room.run()
        self.start_tasks()
        return len(self.rooms)

    def start_tasks(self) -> None:
        """Start the sweeper and the lag watch."""
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="sweeper")
        self._lag_watch = asyncio.create_task(self._watch_lag(), name="lag-watch")

    # ------------------------------------------------------------------ writing (many processes:
    # the cluster hub fences every write with its lease's token)

    def fence(self, table_id: str) -> Fence | None:
        """The fencing token to write ``table_id`` with (one process: none). Raises
        :class:`ProtocolError` ``unavailable`` when this process may not write it."""
        return None

    def can_write(self, table_id: str) -> bool:
        """Whether writes of ``table_id`` may be stored now (many processes: not while Redis
        is unreachable or the table has moved); computers and referees wait while not."""
        return True

    async def write(self, table_id: str, ops: list[Op]) -> None:
        """Store ``ops`` of ``table_id`` (group commit, fenced: :meth:`fence`)."""
        fence = self.fence(table_id)
        await (self.store.write(ops) if fence is None else self.store.write(ops, fence=fence))

    def submit(self, table_id: str, ops: list[Op]) -> Future[None]:
        """Queue ``ops`` of ``table_id`` now, in order with the other writes; the future
        completes once they are stored (or fails)."""
        fence = self.fence(table_id)
        return self.store.submit(ops) if fence is None else self.store.submit(ops, fence)

    async def claim(self, table_id: str) -> None:
        """Called before a new table is first stored (many processes: take its lease)."""

    async def relayed(self, websocket: Any) -> bool:
        """Whether another process serves this WebSocket's table (many processes: it is then
        relayed there, and this returns once the socket closed). One process: never."""
        return False

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
            "connections": sum(len(r.conns) for r in self.rooms.values()),
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
                await self.write(room.table_id, [op_expire(room.table_id)])
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
        await stop_tasks((self._sweeper, self._lag_watch))
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()

    async def get(self, table_id: str) -> Room:
        """The room of ``table_id``, loading a stored (e.g. finished) table on demand (off the
        event loop).

        Raises ``KeyError`` for an unknown table, :class:`TableExpired` for an expired one,
        one of ``STORAGE_ERRORS`` if the database cannot be read.
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

    def moved(self, room: Room) -> bool:
        """Whether ``room``'s table has moved to another process since it was got (many
        processes: :class:`parlour.server.cluster.ClusterHub`); never, with one."""
        return False

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
        seed: int | None = None,
    ) -> tuple[Room, str]:
        """A new table with the creator (the host) in seat 0 and ``seats`` for the others
        (bots or open seats); returns the room and the host's token. The game starts at once
        unless a seat is open.

        Raises ``ValueError`` for bad options, ``OverflowError`` when the server has
        ``max_open_tables`` held tables (:meth:`Room.held`), and :class:`ProtocolError`
        ``too_many_tables`` when ``guest`` already holds ``max_tables_per_guest`` (``busy`` for a
        real-time table while the server is overloaded, ``storage_error`` if the table cannot be
        stored). ``seed``: the table's seed (a "Learn to play" table's fixed deal); drawn at
        random when ``None``.
        """
        now = time.monotonic()
        most = self.settings.max_open_tables
        if len(self.rooms) + self._creating >= most and (  # else fewer are held, surely
            sum(r.held(now) for r in self.rooms.values()) + self._creating >= most
        ):
            raise OverflowError("this server has too many tables in play; try again later")
        self._creating += 1  # counted while its write is awaited (creations run side by side)
        try:
            return await self._create(game, options, name, seats, guest, now, seed)
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
        seed: int | None = None,
    ) -> tuple[Room, str]:
        if get_game(game).race is not None and (why := self.busy()) is not None:
            log.warning("refused a new %s table: %s", game, why)
            raise ProtocolError("busy")
        most = self.settings.max_tables_per_guest
        if guest is not None and len(self.rooms) >= most:  # (only rooms here can count)
            try:
                ids = await asyncio.to_thread(self.store.unfinished_of, guest)
            except STORAGE_ERRORS as exc:
                log.error("could not read the tables of a guest: %s", exc)
                raise ProtocolError("storage_error", "the table could not be saved") from None
            if sum((room := self.rooms.get(i)) is not None and room.held(now) for i in ids) >= most:
                raise ProtocolError(
                    "too_many_tables",
                    f"you already have {most} unfinished tables in play: finish or leave one "
                    "(a table you left stops counting after a few minutes)",
                )
        table_id = secrets.token_urlsafe(6)
        while table_id in self.rooms:
            table_id = secrets.token_urlsafe(6)
        if seed is None:
            seed = self._seeds.getrandbits(48) if self._seeds else secrets.randbits(48)
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
        await self.claim(table_id)
        try:
            await self.write(table_id, [
                op_create_table(table_id, game, table.options, seed, table.seats, started,
                                now_ms(), guest, table.version),
                op_set_token_hash(table_id, 0, digest),
            ])  # fmt: skip
        except ProtocolError:
            raise
        except Exception:
            log.exception("could not store new table %s", table_id)
            raise ProtocolError("storage_error", "the table could not be saved") from None
        room = room_for(self, table, {0: digest})
        self.rooms[table_id] = room
        room.run()
        return room, token
