"""Tables as append-only event logs in SQLite (stdlib ``sqlite3``).

Every accepted input is appended (and committed) before the server acknowledges it; on start the
server lists the unfinished tables and rebuilds each by replaying its log. The schema keeps one
row per table (game, options, seed, the version of rules and chance it is played under, seats,
whether started or finished, the guest who created it) and one row per input
``(table_id, seq)``; inputs are never updated. A table left idle too long is *expired*
(finished without an outcome). A finished table is later *archived*: its inputs move into one
compressed row of ``archive`` (the hot ``events`` table stays small), and it loads exactly as
before. A PostgreSQL store can offer the same methods later (DESIGN.md, scale-out path).

Writes are *operations* (:data:`Op`: one SQL statement and its parameters), built by the
``op_*`` functions. The plain methods (``append``, ``finish``…) run them at once, for tools and
tests. A server never writes on its event loop: it awaits :meth:`SQLiteStore.write`, which hands
a group of operations to one writer thread (:class:`~parlour.store.writer.GroupWriter`); the
thread commits every group queued at that moment in one transaction (group commit) and each
``write`` returns only once its group is committed — or raises, having changed nothing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import zlib
from dataclasses import dataclass
from typing import Any

from parlour.store.writer import GroupWriter, Op
from parlour.table import RecordEntry, SeatInfo

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    started INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    now_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS archive (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    record BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS seat_tokens (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""


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


class CorruptDatabase(Exception):
    """The database file fails SQLite's integrity check (``PRAGMA quick_check``)."""


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
    return (
        "INSERT INTO tables (id, game, options, seed, seats, started, created_ms, guest, version)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (table_id, game, json.dumps(options), seed, _seats_json(seats), int(started), created_ms,
         guest, version),
    )  # fmt: skip


def op_update_seats(table_id: str, seats: list[SeatInfo], started: bool) -> Op:
    """Record who sits where and whether the game has started."""
    return (
        "UPDATE tables SET seats = ?, started = ? WHERE id = ?",
        (_seats_json(seats), int(started), table_id),
    )


def op_append(table_id: str, entry: RecordEntry) -> Op:
    """Append one accepted input."""
    return (
        "INSERT INTO events (table_id, seq, seat, action, now_ms) VALUES (?, ?, ?, ?, ?)",
        (table_id, entry.seq, entry.seat, json.dumps(entry.action), entry.now_ms),
    )


def op_finish(table_id: str, outcome: Any) -> Op:
    """Mark a table finished, with its outcome (it stays viewable as a replay)."""
    return (
        "UPDATE tables SET finished = 1, outcome = ? WHERE id = ?",
        (json.dumps(outcome), table_id),
    )


def op_expire(table_id: str) -> Op:
    """Close a table nobody played for too long: closed (``finished``) but ``expired``, with no
    outcome; it is never replayed."""
    return (
        "UPDATE tables SET finished = 1, expired = 1 WHERE id = ? AND finished = 0",
        (table_id,),
    )


def op_set_token_hash(table_id: str, seat: int, token_hash: str) -> Op:
    """Store the hash of a seat's secret token (never the token itself)."""
    return (
        "INSERT OR REPLACE INTO seat_tokens (table_id, seat, token_hash) VALUES (?, ?, ?)",
        (table_id, seat, token_hash),
    )


def _seats_json(seats: list[SeatInfo]) -> str:
    return json.dumps([s.to_json() for s in seats])


class SQLiteStore:
    """The event-log store on one SQLite file (``":memory:"`` for tests).

    Safe to call from several threads (the synchronous methods share one connection,
    serialised by a lock; :meth:`write` has a writer thread with a connection of its own, so a
    busy database never holds up a read). Opening checks the file with ``PRAGMA quick_check``
    and raises :class:`CorruptDatabase` if it fails. A write waits at most ``busy_timeout_s``
    for a database locked by another program, then raises ``sqlite3.OperationalError``.
    Raises ``sqlite3.IntegrityError`` when an input's sequence number is already stored.
    """

    def __init__(self, path: str, busy_timeout_s: float = 5.0) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = self._connect(path, busy_timeout_s)
            problems = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            raise CorruptDatabase(f"{path} is not a readable SQLite database ({exc})") from None
        if problems != ["ok"]:
            self._db.close()
            raise CorruptDatabase(f"{path} is damaged: {'; '.join(problems[:3])}")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        for name, kind in (("guest", "TEXT"), ("expired", "INTEGER NOT NULL DEFAULT 0"),
                           ("archived", "INTEGER NOT NULL DEFAULT 0"),
                           ("version", "TEXT")):  # fmt: skip
            if name not in columns:  # a database from an earlier version
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
        self._db.execute("CREATE INDEX IF NOT EXISTS tables_guest ON tables (guest, finished)")
        if path == ":memory:":  # one database per connection: the writer shares this one
            self.writer = GroupWriter(self._db, self._lock)
        else:
            db = self._connect(path, busy_timeout_s)
            self.writer = GroupWriter(db, threading.Lock(), owns_db=True)

    @staticmethod
    def _connect(path: str, busy_timeout_s: float) -> sqlite3.Connection:
        db = sqlite3.connect(
            path, check_same_thread=False, isolation_level=None, timeout=busy_timeout_s
        )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def close(self) -> None:
        """Store the writes still queued, then close the database."""
        self.writer.close()
        with self._lock:
            self._db.close()

    async def write(self, ops: list[Op]) -> None:
        """Store ``ops`` (built by the ``op_*`` functions) together, off the event loop, in one
        transaction with whatever else is queued; returns once they are committed. Raises
        ``sqlite3.Error`` (nothing of this group stored) if they cannot be."""
        await self.writer.write(ops)

    def execute(self, *ops: Op) -> None:
        """Store ``ops`` (built by the ``op_*`` functions) now, on this thread, each committed
        when this returns (tools and tests; the server uses :meth:`write`)."""
        with self._lock:
            for sql, params in ops:
                self._db.execute(sql, params)

    def open_tables_of(self, guest: str) -> int:
        """How many unfinished tables ``guest`` has created."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM tables WHERE guest = ? AND finished = 0", (guest,)
            ).fetchone()
        return int(row[0])

    def unfinished_of(self, guest: str) -> list[str]:
        """The ids of the unfinished tables ``guest`` has created."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE guest = ? AND finished = 0", (guest,)
            ).fetchall()
        return [row[0] for row in rows]

    def to_archive(self, created_before_ms: int) -> list[str]:
        """Finished tables created before ``created_before_ms`` that are not archived yet."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE finished = 1 AND archived = 0 AND created_ms < ?"
                " ORDER BY created_ms",
                (created_before_ms,),
            ).fetchall()
        return [row[0] for row in rows]

    def archive(self, table_id: str) -> None:
        """Move a finished table's inputs into one compressed ``archive`` row (one
        transaction); it loads as before. Raises ``ValueError`` if the table is in play."""
        with self._lock:
            row = self._db.execute(
                "SELECT finished, archived FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise KeyError(f"no table {table_id!r}")
            if not row[0]:
                raise ValueError(f"table {table_id} is still in play")
            if row[1]:
                return
            events = self._db.execute(
                "SELECT seq, seat, action, now_ms FROM events WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).fetchall()
            blob = zlib.compress(json.dumps([[q, s, json.loads(a), t] for q, s, a, t in events])
                                 .encode())  # fmt: skip
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO archive (table_id, record) VALUES (?, ?)",
                                 (table_id, blob))  # fmt: skip
                self._db.execute("DELETE FROM events WHERE table_id = ?", (table_id,))
                self._db.execute("UPDATE tables SET archived = 1 WHERE id = ?", (table_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def token_hashes(self, table_id: str) -> dict[int, str]:
        """Each seat's token hash."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, token_hash FROM seat_tokens WHERE table_id = ?", (table_id,)
            ).fetchall()
        return {seat: digest for seat, digest in rows}

    def unfinished(self) -> list[str]:
        """The ids of the tables still in play, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE finished = 0 ORDER BY created_ms, id"
            ).fetchall()
        return [row[0] for row in rows]

    def load(self, table_id: str) -> StoredTable:
        """A stored table with its inputs in order; raises ``KeyError`` for an unknown id."""
        with self._lock:
            row = self._db.execute(
                "SELECT game, options, seed, seats, started, created_ms, finished, expired,"
                " archived, version FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise KeyError(f"no table {table_id!r}")
            if row[8]:
                (blob,) = self._db.execute(
                    "SELECT record FROM archive WHERE table_id = ?", (table_id,)
                ).fetchone()
                events = [(q, s, json.dumps(a), t) for q, s, a, t in
                          json.loads(zlib.decompress(blob))]  # fmt: skip
            else:
                events = self._db.execute(
                    "SELECT seq, seat, action, now_ms FROM events WHERE table_id = ? ORDER BY seq",
                    (table_id,),
                ).fetchall()
        game, options, seed, seats, started, created_ms, finished, expired, archived, version = row
        return StoredTable(
            table_id=table_id,
            game=game,
            options=json.loads(options),
            seed=seed,
            seats=[SeatInfo(**s) for s in json.loads(seats)],
            started=bool(started),
            created_ms=created_ms,
            finished=bool(finished),
            expired=bool(expired),
            archived=bool(archived),
            version=version,
            entries=[RecordEntry(seq, seat, json.loads(a), now) for seq, seat, a, now in events],
        )
