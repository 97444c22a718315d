"""The event-log store on one SQLite file (stdlib ``sqlite3``): the embedded default.

See :mod:`parlour.store.base` for what a store keeps and how writes are grouped and fenced.
Every accepted input is committed (``synchronous=FULL``: on disk) before the server
acknowledges it; on start the server lists the unfinished tables and rebuilds each by replaying
its log. The schema is made and upgraded by numbered migrations (:data:`MIGRATIONS`), recorded
in ``schema_version``; a database from before versioned migrations is brought to version 1
whatever columns it had.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future

from parlour.store.base import (
    TABLE_COLUMNS,
    CorruptDatabase,
    Fence,
    Op,
    StaleFence,
    StoredTable,
    check_fence,
    pack_archive,
    stale_message,
    stored_table,
    unpack_archive,
)
from parlour.store.writer import Group, GroupWriter

SQL = {
    "create_table": "INSERT INTO tables (id, game, options, seed, seats, started, created_ms,"
                    " guest, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "update_seats": "UPDATE tables SET seats = ?, started = ? WHERE id = ?",
    "append": "INSERT INTO events (table_id, seq, seat, action, now_ms) VALUES (?, ?, ?, ?, ?)",
    "finish": "UPDATE tables SET finished = 1, outcome = ? WHERE id = ?",
    "expire": "UPDATE tables SET finished = 1, expired = 1 WHERE id = ? AND finished = 0",
    "set_token_hash": "INSERT OR REPLACE INTO seat_tokens (table_id, seat, token_hash)"
                      " VALUES (?, ?, ?)",
}  # fmt: skip
"""Each operation kind (``parlour.store.base.op_*``) as an SQLite statement."""


def _version_1(db: sqlite3.Connection) -> None:
    # The schema before versioned migrations, whichever of its columns an old file lacks.
    db.execute(
        "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, game TEXT NOT NULL,"
        " options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL,"
        " started INTEGER NOT NULL, created_ms INTEGER NOT NULL,"
        " finished INTEGER NOT NULL DEFAULT 0, outcome TEXT)"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL REFERENCES tables(id),"
        " seq INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL, now_ms INTEGER NOT NULL,"
        " PRIMARY KEY (table_id, seq))"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS archive (table_id TEXT PRIMARY KEY REFERENCES tables(id),"
        " record BLOB NOT NULL)"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS seat_tokens (table_id TEXT NOT NULL REFERENCES tables(id),"
        " seat INTEGER NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))"
    )
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    for name, kind in (("guest", "TEXT"), ("expired", "INTEGER NOT NULL DEFAULT 0"),
                       ("archived", "INTEGER NOT NULL DEFAULT 0"),
                       ("version", "TEXT")):  # fmt: skip
        if name not in columns:  # added over time before migrations were numbered
            db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
    db.execute("CREATE INDEX IF NOT EXISTS tables_guest ON tables (guest, finished)")


def _version_2(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE fences (table_id TEXT PRIMARY KEY, token INTEGER NOT NULL)")


MIGRATIONS: list[tuple[int, Callable[[sqlite3.Connection], None]]] = [
    (1, _version_1),  # the event log, seats' token hashes, archive (the schema of 2026)
    (2, _version_2),  # fencing tokens (many server processes)
]
"""The numbered migrations, applied in order at open to a database below their number."""

LATEST = MIGRATIONS[-1][0]


class SQLiteStore:
    """The event-log store on one SQLite file (``":memory:"`` for tests).

    Safe to call from several threads (the synchronous methods share one connection,
    serialised by a lock; :meth:`write` has a writer thread with a connection of its own, so a
    busy database never holds up a read). Opening checks the file with ``PRAGMA quick_check``
    and raises :class:`CorruptDatabase` if it fails (or if its schema is newer than this
    version knows), then applies the pending migrations. A write waits at most
    ``busy_timeout_s`` for a database locked by another program, then raises
    ``sqlite3.OperationalError``. Raises ``sqlite3.IntegrityError`` when an input's sequence
    number is already stored.
    """

    def __init__(self, path: str, busy_timeout_s: float = 5.0) -> None:
        self.path = self.url = path
        self._lock = threading.Lock()
        try:
            self._db = self._connect(path, busy_timeout_s)
            problems = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            raise CorruptDatabase(f"{path} is not a readable SQLite database ({exc})") from None
        if problems != ["ok"]:
            self._db.close()
            raise CorruptDatabase(f"{path} is damaged: {'; '.join(problems[:3])}")
        try:
            self._migrate()
        except BaseException:
            self._db.close()
            raise
        if path == ":memory:":  # one database per connection: the writer shares this one
            self._writer_db, writer_lock = self._db, self._lock
            self.writer = GroupWriter(self._commit)
        else:
            self._writer_db, writer_lock = self._connect(path, busy_timeout_s), threading.Lock()
            self.writer = GroupWriter(self._commit, self._writer_db.close)
        self._writer_lock = writer_lock

    @staticmethod
    def _connect(path: str, busy_timeout_s: float) -> sqlite3.Connection:
        db = sqlite3.connect(
            path, check_same_thread=False, isolation_level=None, timeout=busy_timeout_s
        )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _migrate(self) -> None:
        db = self._db
        db.execute("CREATE TABLE IF NOT EXISTS schema_version"
                   " (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)")  # fmt: skip
        for number, migrate in MIGRATIONS:
            db.execute("BEGIN IMMEDIATE")  # another process opening the file waits its turn
            try:
                if self._version() < number:
                    migrate(db)
                    db.execute("INSERT INTO schema_version VALUES (?, ?)",
                               (number, int(time.time() * 1000)))  # fmt: skip
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        if (found := self._version()) > LATEST:
            raise CorruptDatabase(
                f"{self.path} has schema version {found}, newer than this Parlour knows "
                f"({LATEST}): run the newer Parlour that wrote it"
            )

    def _version(self) -> int:
        row = self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def schema_version(self) -> int:
        """The last migration applied to this database."""
        with self._lock:
            return self._version()

    def close(self) -> None:
        """Store the writes still queued, then close the database."""
        self.writer.close()
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ writes

    async def write(self, ops: Sequence[Op], fence: Fence | None = None) -> None:
        """Store ``ops`` (built by the ``op_*`` functions) together, off the event loop, in one
        transaction with whatever else is queued; returns once they are committed. Raises
        ``sqlite3.Error`` or :class:`StaleFence` (nothing of this group stored) if they cannot
        be."""
        await self.writer.write(ops, fence)

    def submit(self, ops: Sequence[Op], fence: Fence | None = None) -> Future[None]:
        """Queue ``ops`` as :meth:`write` does, without waiting (a future of its commit)."""
        return self.writer.submit(ops, fence)

    def execute(self, *ops: Op) -> None:
        """Store ``ops`` (built by the ``op_*`` functions) now, on this thread, each committed
        when this returns (tools and tests; the server uses :meth:`write`)."""
        with self._lock:
            for op in ops:
                self._db.execute(SQL[op.kind], op.args)

    def _commit(self, groups: list[Group]) -> list[BaseException | None]:
        # The writer thread: every group in one transaction, each in its own savepoint.
        failed: list[BaseException | None] = []
        with self._writer_lock:
            db = self._writer_db
            db.execute("BEGIN IMMEDIATE")
            try:
                for ops, fence in groups:
                    db.execute("SAVEPOINT grp")
                    try:
                        if fence is not None:
                            _take_fence(db, fence)
                        for op in ops:
                            db.execute(SQL[op.kind], op.args)
                        failed.append(None)
                    except Exception as exc:
                        db.execute("ROLLBACK TO grp")
                        failed.append(exc)
                    db.execute("RELEASE grp")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        return failed

    # ------------------------------------------------------------------ reads

    def fence_token(self, table_id: str) -> int | None:
        """The fencing token stored for ``table_id`` (``None``: never fenced)."""
        with self._lock:
            row = self._db.execute("SELECT token FROM fences WHERE table_id = ?",
                                   (table_id,)).fetchone()  # fmt: skip
        return None if row is None else int(row[0])

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
            # One transaction from the check on: processes sharing the file (many processes)
            # may archive the same table at once; the second finds it archived.
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute(
                    "SELECT finished, archived FROM tables WHERE id = ?", (table_id,)
                ).fetchone()
                if row is None:
                    raise KeyError(f"no table {table_id!r}")
                if not row[0]:
                    raise ValueError(f"table {table_id} is still in play")
                if not row[1]:
                    events = self._db.execute(
                        "SELECT seq, seat, action, now_ms FROM events WHERE table_id = ?"
                        " ORDER BY seq",
                        (table_id,),
                    ).fetchall()
                    self._db.execute("INSERT INTO archive (table_id, record) VALUES (?, ?)",
                                     (table_id, pack_archive(events)))  # fmt: skip
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
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise KeyError(f"no table {table_id!r}")
            if row[8]:  # archived
                (blob,) = self._db.execute(
                    "SELECT record FROM archive WHERE table_id = ?", (table_id,)
                ).fetchone()
                events = unpack_archive(blob)
            else:
                events = self._db.execute(
                    "SELECT seq, seat, action, now_ms FROM events WHERE table_id = ? ORDER BY seq",
                    (table_id,),
                ).fetchall()
        return stored_table(table_id, row, events)


def _take_fence(db: sqlite3.Connection, fence: Fence) -> None:
    """Check ``fence`` against the stored token (in the caller's transaction) and keep it;
    raises :class:`StaleFence` when the stored one is greater."""
    table_id, token = check_fence(fence)
    row = db.execute("SELECT token FROM fences WHERE table_id = ?", (table_id,)).fetchone()
    if row is not None and row[0] > token:
        raise StaleFence(stale_message(table_id, token, row[0]))
    db.execute("INSERT INTO fences (table_id, token) VALUES (?, ?)"
               " ON CONFLICT (table_id) DO UPDATE SET token = excluded.token",
               (table_id, token))  # fmt: skip
