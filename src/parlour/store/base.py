"""What every store backend shares: the :class:`Store` interface, backend-neutral write
operations (:class:`Op`), the stored table, the errors, and the archive's compressed format.

A store keeps each table as an append-only event log: one row per table (game, options, seed,
the version of rules and chance it is played under, seats, whether started or finished, the
guest who created it) and one row per accepted input ``(table_id, seq)``, never updated. Seats'
tokens are stored as hashes only. A table left idle too long is *expired* (finished without an
outcome); a finished table is later *archived* (its inputs move into one compressed row) and
loads exactly as before.

Writes are *operations* (:class:`Op`), built by the ``op_*`` functions; each backend turns an
operation into its own SQL. A server never writes on its event loop: it awaits
:meth:`Store.write`, which hands a group of operations to the store's writer thread
(:class:`~parlour.store.writer.GroupWriter`); the thread commits every group queued at that
moment in one transaction (group commit), each group inside its own savepoint, and each
``write`` returns only once its group is committed — or raises, having changed nothing.

*Fencing* (many server processes, a table owned by one at a time under a lease): a write may
carry ``fence=(table_id, token)``. In the write's transaction the store compares ``token`` with
the one kept for that table (``fences``): if the kept token is greater, the group is refused
with :class:`StaleFence` and nothing of it is written; otherwise the kept token becomes
``token``. ``fence=None`` (one process) skips the check.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from parlour.table import RecordEntry, SeatInfo

if TYPE_CHECKING:
    from parlour.store.writer import GroupWriter

Fence = tuple[str, int]
"""``(table_id, token)``: a write's fencing token for one table (a lease's token)."""


@dataclass(frozen=True, slots=True)
class Op:
    """One write, backend-neutral: what to do (``kind``, e.g. ``"append"``) and its arguments
    (plain values: text, numbers, booleans, ``None``). Built by the ``op_*`` functions."""

    kind: str
    args: tuple[Any, ...]


class StorageError(Exception):
    """The database failed (the PostgreSQL store raises this for every database error; the
    SQLite store raises ``sqlite3.Error``: see :data:`STORAGE_ERRORS`)."""


class CorruptDatabase(StorageError):
    """The database cannot be used: an SQLite file that fails its integrity check (``PRAGMA
    quick_check``), or a schema this version of Parlour cannot work with (newer, or missing
    what its migrations made)."""


class StaleFence(StorageError):
    """A write's fencing token is older than the one stored for its table: another process
    has owned the table since. Nothing of that write was stored."""


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: enough to rebuild it with ``Table(..., record=entries)``."""

    table_id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[SeatInfo]
    started: bool
    created_ms: int
    finished: bool
    entries: list[RecordEntry]
    expired: bool = False
    archived: bool = False
    version: str | None = None
    """What the table is played under (``Table.version``); ``None``: stored before versions
    were recorded (``parlour.table.legacy_version``)."""


class Store(Protocol):
    """What the server needs of a store (:class:`~parlour.store.sqlite.SQLiteStore`,
    :class:`~parlour.store.postgres.PostgresStore`; :func:`parlour.store.open_store` builds one
    from a URL).

    The synchronous methods may block (they read the database): a server calls them through
    ``asyncio.to_thread``. :meth:`write` and :meth:`submit` never block.
    """

    url: str
    """Where the database is (a path for SQLite, a ``postgresql://`` URL)."""
    writer: GroupWriter
    """The writer thread: its ``backlog()``, ``batches`` and ``groups`` tell how writing goes."""

    async def write(self, ops: Sequence[Op], fence: Fence | None = None) -> None:
        """Store ``ops`` together (group commit); returns once committed. Raises (having
        stored nothing of them) :class:`StaleFence`, or a database error
        (:data:`STORAGE_ERRORS`)."""
        ...

    def submit(self, ops: Sequence[Op], fence: Fence | None = None) -> Future[None]:
        """Queue ``ops`` without waiting; the future completes as :meth:`write` returns."""
        ...

    def execute(self, *ops: Op) -> None:
        """Store ``ops`` now on this thread, committed when this returns (tools, tests)."""
        ...

    def load(self, table_id: str) -> StoredTable:
        """A stored table with its inputs in order; ``KeyError`` for an unknown id."""
        ...

    def token_hashes(self, table_id: str) -> dict[int, str]:
        """Each seat's token hash."""
        ...

    def unfinished(self) -> list[str]:
        """The ids of the tables still in play, oldest first."""
        ...

    def unfinished_of(self, guest: str) -> list[str]:
        """The ids of the unfinished tables ``guest`` has created."""
        ...

    def open_tables_of(self, guest: str) -> int:
        """How many unfinished tables ``guest`` has created."""
        ...

    def to_archive(self, created_before_ms: int) -> list[str]:
        """Finished tables created before ``created_before_ms`` that are not archived yet."""
        ...

    def archive(self, table_id: str) -> None:
        """Move a finished table's inputs into one compressed row (one transaction); it loads
        as before. ``KeyError`` for an unknown table, ``ValueError`` if it is in play."""
        ...

    def fence_token(self, table_id: str) -> int | None:
        """The fencing token stored for ``table_id`` (``None``: never fenced)."""
        ...

    def schema_version(self) -> int:
        """The schema version of the database (the last migration applied)."""
        ...

    def close(self) -> None:
        """Store the writes still queued, then close the database."""
        ...


# ---------------------------------------------------------------------- operations


def op_create_table(
    table_id: str,
    game: str,
    options: dict[str, Any],
    seed: int,
    seats: list[SeatInfo],
    started: bool,
    created_ms: int,
    guest: str | None = None,
    version: str | None = None,
) -> Op:
    """Store a new table (no inputs yet), created by ``guest``, played under ``version``
    (``Table.version``)."""
    return Op("create_table", (table_id, game, json.dumps(options), seed, _seats_json(seats),
                               bool(started), created_ms, guest, version))  # fmt: skip


def op_update_seats(table_id: str, seats: list[SeatInfo], started: bool) -> Op:
    """Record who sits where and whether the game has started."""
    return Op("update_seats", (_seats_json(seats), bool(started), table_id))


def op_append(table_id: str, entry: RecordEntry) -> Op:
    """Append one accepted input."""
    return Op("append", (table_id, entry.seq, entry.seat, json.dumps(entry.action), entry.now_ms))


def op_finish(table_id: str, outcome: Any) -> Op:
    """Mark a table finished, with its outcome (it stays viewable as a replay)."""
    return Op("finish", (json.dumps(outcome), table_id))


def op_expire(table_id: str) -> Op:
    """Close a table nobody played for too long: closed (``finished``) but ``expired``, with no
    outcome; it is never replayed."""
    return Op("expire", (table_id,))


def op_set_token_hash(table_id: str, seat: int, token_hash: str) -> Op:
    """Store the hash of a seat's secret token (never the token itself)."""
    return Op("set_token_hash", (table_id, seat, token_hash))


def _seats_json(seats: list[SeatInfo]) -> str:
    return json.dumps([s.to_json() for s in seats])


def check_fence(fence: Fence) -> Fence:
    """``fence`` if it is a ``(table_id, token)`` pair of text and a whole number; raises
    ``ValueError`` otherwise."""
    table_id, token = fence
    if not isinstance(table_id, str) or not isinstance(token, int) or isinstance(token, bool):
        raise ValueError(f"a fence is (table id, whole-number token), not {fence!r}")
    return table_id, token


def stale_message(table_id: str, token: int, stored: int) -> str:
    """Why a write with a stale fencing token is refused."""
    return (f"table {table_id}: fencing token {token} is stale (the store has {stored}): "
            "another process owns the table now")  # fmt: skip


# ---------------------------------------------------------------------- rows


Event = tuple[int, "int | None", str, int]
"""An input as stored: ``(seq, seat, action JSON, now_ms)``."""


def pack_archive(events: Sequence[Event]) -> bytes:
    """A finished table's inputs as one compressed archive record."""
    return zlib.compress(json.dumps([[q, s, json.loads(a), t] for q, s, a, t in events]).encode())


def unpack_archive(blob: bytes) -> list[Event]:
    """The inputs of an archive record (:func:`pack_archive`)."""
    return [(q, s, json.dumps(a), t) for q, s, a, t in json.loads(zlib.decompress(blob))]


def stored_table(table_id: str, row: Sequence[Any], events: Sequence[Event]) -> StoredTable:
    """A :class:`StoredTable` from its ``tables`` row ``(game, options, seed, seats, started,
    created_ms, finished, expired, archived, version)`` and its inputs in order."""
    game, options, seed, seats, started, created_ms, finished, expired, archived, version = row
    return StoredTable(
        table_id=table_id,
        game=game,
        options=json.loads(options),
        seed=int(seed),
        seats=[SeatInfo(**s) for s in json.loads(seats)],
        started=bool(started),
        created_ms=int(created_ms),
        finished=bool(finished),
        expired=bool(expired),
        archived=bool(archived),
        version=version,
        entries=[RecordEntry(seq, seat, json.loads(a), now) for seq, seat, a, now in events],
    )


TABLE_COLUMNS = (
    "game, options, seed, seats, started, created_ms, finished, expired, archived, version"
)
"""The ``tables`` columns :func:`stored_table` takes, in its order."""
