"""The event-log store on PostgreSQL (psycopg 3 and its connection pool): for a deployment with
many server processes sharing one database (``--db postgresql://…``, the ``pg`` extra).

The same tables, operations, group commit and fencing as the SQLite store
(:mod:`parlour.store.base`). Opening connects once directly (so that a wrong address, a
refused password or a missing database is reported clearly), applies the pending numbered
migrations (:data:`MIGRATIONS`, recorded in ``schema_version``) under an advisory lock so that
processes starting together migrate once, and checks that every column the store uses is
there; otherwise it raises :class:`CorruptDatabase`. Then a small connection pool serves the
reads (the server calls them through ``asyncio.to_thread``) and the writer thread.

Every database failure reaches the caller as :class:`StorageError` (the write is refused,
nothing half-stored); the pool checks a connection before handing it out (unless it served a
batch moments ago: :data:`CHECK_AFTER_S`) and reconnects in the background with back-off, so the
store works again once PostgreSQL is back.
"""

from __future__ import annotations

import math
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from parlour.store.base import (
    TABLE_COLUMNS,
    CorruptDatabase,
    Fence,
    Op,
    StaleFence,
    StorageError,
    StoredTable,
    check_fence,
    pack_archive,
    stored_table,
    unpack_archive,
)
from parlour.store.writer import Group, GroupWriter

T = TypeVar("T")

SQL = {
    "create_table": "INSERT INTO tables (id, game, options, seed, seats, started, created_ms,"
                    " guest, version) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
    "update_seats": "UPDATE tables SET seats = %s, started = %s WHERE id = %s",
    "append": "INSERT INTO events (table_id, seq, seat, action, now_ms)"
              " VALUES (%s, %s, %s, %s, %s)",
    "finish": "UPDATE tables SET finished = TRUE, outcome = %s WHERE id = %s",
    "expire": "UPDATE tables SET finished = TRUE, expired = TRUE WHERE id = %s AND NOT finished",
    "set_token_hash": "INSERT INTO seat_tokens (table_id, seat, token_hash)"
                      " VALUES (%s, %s, %s) ON CONFLICT (table_id, seat)"
                      " DO UPDATE SET token_hash = EXCLUDED.token_hash",
}  # fmt: skip
"""Each operation kind (``parlour.store.base.op_*``) as a PostgreSQL statement."""

FENCE_SQL = "SELECT parlour_fence(%s, %s)"
"""Checks a write's fencing token and keeps it (migration 2 defines the function)."""

CHECK_AFTER_S = 2.0
"""A pooled connection is checked (a round trip) before it is handed out only when it has not
served a query this long: one in steady use is not checked before every batch. If PostgreSQL
went away meanwhile, the batch fails as it would have a moment later (``StorageError``)."""

STALE_FENCE = "PLF01"
"""The SQLSTATE ``parlour_fence()`` raises for a stale fencing token."""

MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [  # the event log, seats' token hashes, archive (the SQLite schema of version 1)
            "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
            " seed BIGINT NOT NULL, seats TEXT NOT NULL, started BOOLEAN NOT NULL,"
            " created_ms BIGINT NOT NULL, finished BOOLEAN NOT NULL DEFAULT FALSE, outcome TEXT,"
            " guest TEXT, expired BOOLEAN NOT NULL DEFAULT FALSE,"
            " archived BOOLEAN NOT NULL DEFAULT FALSE, version TEXT)",
            "CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id),"
            " seq INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL, now_ms BIGINT NOT NULL,"
            " PRIMARY KEY (table_id, seq))",
            "CREATE TABLE archive (table_id TEXT PRIMARY KEY REFERENCES tables(id),"
            " record BYTEA NOT NULL)",
            "CREATE TABLE seat_tokens (table_id TEXT NOT NULL REFERENCES tables(id),"
            " seat INTEGER NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))",
            "CREATE INDEX tables_guest ON tables (guest, finished)",
            "CREATE INDEX tables_unfinished ON tables (created_ms, id) WHERE NOT finished",
        ],
    ),
    (
        2,
        [  # fencing tokens (many server processes)
            "CREATE TABLE fences (table_id TEXT PRIMARY KEY, token BIGINT NOT NULL)",
            "CREATE FUNCTION parlour_fence(t TEXT, tok BIGINT) RETURNS void LANGUAGE plpgsql AS $$"
            " BEGIN"
            "  INSERT INTO fences AS f (table_id, token) VALUES (t, tok) ON CONFLICT (table_id)"
            "   DO UPDATE SET token = EXCLUDED.token WHERE f.token <= EXCLUDED.token;"
            "  IF NOT FOUND THEN"
            "   RAISE EXCEPTION 'table %: fencing token % is stale (the store has a greater one):"
            " another process owns the table now', t, tok USING ERRCODE = '" + STALE_FENCE + "';"
            "  END IF;"
            " END $$",
        ],
    ),
]
"""The numbered migrations, applied in order at open to a database below their number."""

LATEST = MIGRATIONS[-1][0]

COLUMNS = {
    "schema_version": {"version", "applied_ms"},
    "tables": {"id", "game", "options", "seed", "seats", "started", "created_ms", "finished",
               "outcome", "guest", "expired", "archived", "version"},
    "events": {"table_id", "seq", "seat", "action", "now_ms"},
    "archive": {"table_id", "record"},
    "seat_tokens": {"table_id", "seat", "token_hash"},
    "fences": {"table_id", "token"},
}  # fmt: skip
"""Every column the store uses: a database lacking one is refused at open."""

MIGRATION_LOCK = 0x7061726C6F7572
"""The advisory lock (``pg_advisory_xact_lock``) held while migrating: one process at a time."""


def redact(url: str) -> str:
    """``url`` without its password (for logs and messages).

    >>> redact("postgresql://app:secret@db:5432/parlour")
    'postgresql://app:***@db:5432/parlour'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def migrate(conn: psycopg.Connection[Any], upto: int = LATEST) -> int:
    """Apply the pending migrations up to ``upto`` in one transaction (under the migration
    lock); returns the schema version. Raises :class:`CorruptDatabase` if the database's
    schema is newer than this Parlour knows."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version"
                     " (version INTEGER PRIMARY KEY, applied_ms BIGINT NOT NULL)")  # fmt: skip
        row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
        current = int(row[0]) if row else 0
        if current > LATEST:
            raise CorruptDatabase(
                f"the database has schema version {current}, newer than this Parlour knows "
                f"({LATEST}): run the newer Parlour that wrote it"
            )
        for number, statements in MIGRATIONS:
            if current < number <= upto:
                for statement in statements:
                    conn.execute(statement.encode())
                conn.execute("INSERT INTO schema_version VALUES (%s, %s)",
                             (number, int(time.time() * 1000)))  # fmt: skip
                current = number
    return current


class PostgresStore:
    """The event-log store on the PostgreSQL database at ``url`` (``postgresql://…``).

    ``timeout_s``: how long a read or a batch of writes waits for a connection (PostgreSQL
    down or every connection busy) before it fails with :class:`StorageError`. ``pool_size``:
    the most connections this store opens (the writer uses one at a time).
    """

    def __init__(self, url: str, timeout_s: float = 5.0, pool_size: int = 4) -> None:
        self.url = url
        self._timeout = timeout_s
        kwargs: dict[str, Any] = {
            "autocommit": True,
            "connect_timeout": max(2, math.ceil(timeout_s)),
            "application_name": "parlour",
        }
        try:
            conn = psycopg.connect(url, **kwargs)
        except psycopg.Error as exc:
            raise StorageError(f"cannot reach the PostgreSQL database {redact(url)}: "
                               f"{_reason(exc)}") from None  # fmt: skip
        with conn:
            try:
                self._check_columns(conn, migrate(conn))
            except psycopg.OperationalError as exc:
                raise StorageError(f"the PostgreSQL database {redact(url)} failed: "
                                   f"{_reason(exc)}") from None  # fmt: skip
            except psycopg.Error as exc:  # e.g. a table of the same name made by another program
                raise CorruptDatabase(
                    f"the schema of the PostgreSQL database {redact(url)} could not be migrated "
                    f"to version {LATEST}: {_reason(exc)}"
                ) from None
        self._used: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = (
            weakref.WeakKeyDictionary()
        )  # when each pooled connection last served a batch
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url, kwargs=kwargs, min_size=1, max_size=pool_size, open=False, name="parlour",
            check=self._check, timeout=timeout_s, reconnect_timeout=10.0,
        )  # fmt: skip
        self._pool.open()
        self.writer = GroupWriter(self._commit)

    def _check(self, conn: psycopg.Connection[Any]) -> None:
        # the pool's check before handing a connection out (see CHECK_AFTER_S)
        if time.monotonic() - self._used.get(conn, -math.inf) > CHECK_AFTER_S:
            ConnectionPool.check_connection(conn)

    def _check_columns(self, conn: psycopg.Connection[Any], version: int) -> None:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ANY(%s)",
            (list(COLUMNS),),
        ).fetchall()
        found: dict[str, set[str]] = {}
        for table, column in rows:
            found.setdefault(table, set()).add(column)
        missing = [
            f"{t}.{c}" for t, cs in COLUMNS.items() for c in sorted(cs - found.get(t, set()))
        ]
        if missing:
            raise CorruptDatabase(
                f"the PostgreSQL database {redact(self.url)} is at schema version {version} but "
                f"lacks {', '.join(missing[:5])}: its schema is unusable (restore it from a "
                "backup, or point Parlour at an empty database)"
            )

    def schema_version(self) -> int:
        """The last migration applied to this database."""
        row = self._read(lambda c: c.execute("SELECT MAX(version) FROM schema_version").fetchone())
        return int(row[0]) if row and row[0] is not None else 0

    def close(self) -> None:
        """Store the writes still queued, then close the pool."""
        self.writer.close()
        self._pool.close()

    # ------------------------------------------------------------------ writes

    async def write(self, ops: Sequence[Op], fence: Fence | None = None) -> None:
        """Store ``ops`` together, off the event loop, in one transaction with whatever else is
        queued; returns once they are committed. Raises :class:`StaleFence` or
        :class:`StorageError` (nothing of this group stored) if they cannot be."""
        await self.writer.write(ops, fence)

    def submit(self, ops: Sequence[Op], fence: Fence | None = None) -> Future[None]:
        """Queue ``ops`` as :meth:`write` does, without waiting (a future of its commit)."""
        return self.writer.submit(ops, fence)

    def execute(self, *ops: Op) -> None:
        """Store ``ops`` now, on this thread, each committed when this returns (tools, tests).
        Raises :class:`StorageError`."""

        def run(conn: psycopg.Connection[Any]) -> None:
            for op in ops:
                conn.execute(SQL[op.kind], op.args)

        self._read(run)

    def _commit(self, groups: list[Group]) -> list[BaseException | None]:
        # The writer thread: every group in one transaction. Fast path: the whole batch as one
        # query of many statements (bound on this side, run by PostgreSQL as one transaction:
        # one round trip, and a third of the CPU of a transaction of statements sent one by
        # one). If any group fails, that transaction is rolled back whole and the batch is
        # stored again with a savepoint per group, so that only the failing groups are refused.
        failed: list[BaseException | None] = [None] * len(groups)
        valid: list[tuple[int, list[tuple[Any, tuple[Any, ...]]]]] = []
        for i, (ops, fence) in enumerate(groups):
            try:  # a bad fence or operation kind refuses its group before anything is sent
                statements = [] if fence is None else [(FENCE_SQL, check_fence(fence))]
                valid.append((i, statements + [(SQL[op.kind], op.args) for op in ops]))
            except (ValueError, KeyError, TypeError) as exc:
                failed[i] = exc
        try:
            with self._pool.connection() as conn:
                flat = [pair for _, statements in valid for pair in statements]
                try:
                    if flat:
                        with psycopg.ClientCursor(conn) as cursor:
                            cursor.execute(
                                "; ".join(sql for sql, _ in flat),
                                [a for _, args in flat for a in args],
                            )
                    self._used[conn] = time.monotonic()
                    return failed
                except psycopg.Error:
                    if conn.broken or conn.closed:
                        raise
                with conn.transaction():
                    for i, statements in valid:
                        try:
                            with conn.transaction():  # a savepoint
                                for sql, args in statements:
                                    conn.execute(sql, args)
                        except psycopg.Error as exc:
                            if conn.broken or conn.closed:
                                raise
                            failed[i] = _refusal(exc)
        except PoolTimeout:  # (a kind of psycopg.OperationalError)
            raise StorageError(self._unanswered()) from None
        except psycopg.Error as exc:
            raise StorageError(f"the moves could not be stored: {_reason(exc)}") from None
        return failed

    # ------------------------------------------------------------------ reads

    def _read(self, run: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``run`` on a pooled connection; database failures become :class:`StorageError`."""
        try:
            with self._pool.connection() as conn:
                return run(conn)
        except PoolTimeout:
            raise StorageError(self._unanswered()) from None
        except psycopg.Error as exc:
            raise StorageError(f"the database failed: {_reason(exc)}") from None

    def _unanswered(self) -> str:
        return (f"no connection to PostgreSQL at {redact(self.url)} within {self._timeout:g} s "
                "(is it running?)")  # fmt: skip

    def _ids(self, sql: str, params: Sequence[Any] = ()) -> list[str]:
        return self._read(lambda c: [row[0] for row in c.execute(sql, params).fetchall()])

    def fence_token(self, table_id: str) -> int | None:
        """The fencing token stored for ``table_id`` (``None``: never fenced)."""
        row = self._read(lambda c: c.execute("SELECT token FROM fences WHERE table_id = %s",
                                             (table_id,)).fetchone())  # fmt: skip
        return None if row is None else int(row[0])

    def open_tables_of(self, guest: str) -> int:
        """How many unfinished tables ``guest`` has created."""
        return len(self.unfinished_of(guest))

    def unfinished_of(self, guest: str) -> list[str]:
        """The ids of the unfinished tables ``guest`` has created."""
        return self._ids("SELECT id FROM tables WHERE guest = %s AND NOT finished", (guest,))

    def to_archive(self, created_before_ms: int) -> list[str]:
        """Finished tables created before ``created_before_ms`` that are not archived yet."""
        return self._ids(
            "SELECT id FROM tables WHERE finished AND NOT archived AND created_ms < %s"
            " ORDER BY created_ms",
            (created_before_ms,),
        )

    def unfinished(self) -> list[str]:
        """The ids of the tables still in play, oldest first."""
        return self._ids("SELECT id FROM tables WHERE NOT finished ORDER BY created_ms, id")

    def token_hashes(self, table_id: str) -> dict[int, str]:
        """Each seat's token hash."""
        rows = self._read(lambda c: c.execute(
            "SELECT seat, token_hash FROM seat_tokens WHERE table_id = %s", (table_id,)
        ).fetchall())  # fmt: skip
        return {seat: digest for seat, digest in rows}

    def archive(self, table_id: str) -> None:
        """Move a finished table's inputs into one compressed ``archive`` row (one
        transaction); it loads as before. Raises ``ValueError`` if the table is in play."""

        def run(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction():
                row = conn.execute("SELECT finished, archived FROM tables WHERE id = %s"
                                   " FOR UPDATE", (table_id,)).fetchone()  # fmt: skip
                if row is None:
                    raise KeyError(f"no table {table_id!r}")
                if not row[0]:
                    raise ValueError(f"table {table_id} is still in play")
                if row[1]:
                    return
                events = conn.execute(
                    "SELECT seq, seat, action, now_ms FROM events WHERE table_id = %s ORDER BY seq",
                    (table_id,),
                ).fetchall()
                conn.execute("INSERT INTO archive (table_id, record) VALUES (%s, %s)",
                             (table_id, pack_archive(events)))  # fmt: skip
                conn.execute("DELETE FROM events WHERE table_id = %s", (table_id,))
                conn.execute("UPDATE tables SET archived = TRUE WHERE id = %s", (table_id,))

        self._read(run)

    def load(self, table_id: str) -> StoredTable:
        """A stored table with its inputs in order; raises ``KeyError`` for an unknown id."""

        def run(conn: psycopg.Connection[Any]) -> StoredTable:
            with conn.transaction():  # the row and its inputs as of one moment (a snapshot)
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                row = conn.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = %s",
                                   (table_id,)).fetchone()  # fmt: skip
                if row is None:
                    raise KeyError(f"no table {table_id!r}")
                if row[8]:  # archived
                    found = conn.execute("SELECT record FROM archive WHERE table_id = %s",
                                         (table_id,)).fetchone()  # fmt: skip
                    events = unpack_archive(found[0] if found else b"")
                else:
                    events = conn.execute(
                        "SELECT seq, seat, action, now_ms FROM events WHERE table_id = %s"
                        " ORDER BY seq", (table_id,)
                    ).fetchall()  # fmt: skip
            return stored_table(table_id, row, events)

        return self._read(run)


def _reason(exc: psycopg.Error) -> str:
    """A database error in one line: the server's primary message only (its DETAIL may quote a
    failing row, seed included, and logs never carry a table's secrets)."""
    text = exc.diag.message_primary if exc.sqlstate else None
    return " ".join((text or str(exc)).split()) or type(exc).__name__


def _refusal(exc: psycopg.Error) -> StorageError:
    """What refuses one group: :class:`StaleFence` for a stale fencing token, else a
    :class:`StorageError` carrying the database's reason."""
    if exc.sqlstate == STALE_FENCE:
        message = exc.diag.message_primary or _reason(exc)
        return StaleFence(message)
    return StorageError(_reason(exc))
