"""Persistence of tables as append-only event logs: SQLite (the embedded default) or
PostgreSQL (many server processes), behind one interface (:class:`Store`).

:func:`open_store` builds a store from where the database is: a path or ``sqlite:///path``
opens SQLite, a ``postgresql://`` URL opens PostgreSQL (the ``pg`` extra installs its driver).
"""

from __future__ import annotations

import sqlite3

from parlour.store.base import (
    CorruptDatabase,
    Fence,
    Op,
    StaleFence,
    StorageError,
    Store,
    StoredTable,
    op_append,
    op_create_table,
    op_expire,
    op_finish,
    op_set_token_hash,
    op_update_seats,
)
from parlour.store.sqlite import SQLiteStore
from parlour.store.writer import GroupWriter

STORAGE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, StorageError)
"""What a store raises when its database fails (SQLite's own errors, or :class:`StorageError`
from PostgreSQL)."""

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return url.startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str) -> str:
    """The SQLite file ``url`` names: a plain path, or ``sqlite:///path`` (SQLAlchemy's form:
    ``sqlite:///rel.db``, ``sqlite:////abs/path.db``, ``sqlite:///:memory:``). Raises
    ``ValueError`` for any other ``scheme://``.

    >>> sqlite_path("parlour.db"), sqlite_path("sqlite:////var/lib/p.db")
    ('parlour.db', '/var/lib/p.db')
    """
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///") :]
    if "://" in url:
        raise ValueError(f"{url.split('://')[0]}:// is not a database Parlour knows: use a file "
                         "path, sqlite:///path or postgresql://…")  # fmt: skip
    return url


def describe(url: str) -> str:
    """``url`` fit for a log line (a PostgreSQL password is hidden)."""
    if is_postgres(url):
        from parlour.store.postgres import redact

        return redact(url)
    return url


def refusal_hint(url: str, error: StorageError) -> str:
    """What to do about a database that cannot be opened (``error``)."""
    if isinstance(error, CorruptDatabase) and not is_postgres(url):
        return "Restore the file from a backup, or move it away to start with an empty database."
    if isinstance(error, CorruptDatabase):
        return "Restore the database from a backup, or point Parlour at an empty one."
    return "Check that PostgreSQL runs and that the URL, user and password are right."


def open_store(url: str, busy_timeout_s: float = 5.0) -> Store:
    """The store for ``url`` (see the module docstring), its schema migrated.

    ``busy_timeout_s``: how long a write waits for a locked SQLite file, or for a PostgreSQL
    connection. Raises :class:`CorruptDatabase` for a damaged file or an unusable schema,
    :class:`StorageError` when PostgreSQL cannot be reached (or its driver is not installed),
    ``ValueError`` for an unknown URL scheme.
    """
    if is_postgres(url):
        try:
            from parlour.store.postgres import PostgresStore
        except ImportError as exc:
            raise StorageError(f"PostgreSQL needs the pg extra (pip install 'parlour[pg]'): "
                               f"{exc}") from None  # fmt: skip
        return PostgresStore(url, timeout_s=busy_timeout_s)
    return SQLiteStore(sqlite_path(url), busy_timeout_s=busy_timeout_s)


__all__ = [
    "STORAGE_ERRORS",
    "CorruptDatabase",
    "Fence",
    "GroupWriter",
    "Op",
    "SQLiteStore",
    "StaleFence",
    "StorageError",
    "Store",
    "StoredTable",
    "describe",
    "is_postgres",
    "op_append",
    "op_create_table",
    "op_expire",
    "op_finish",
    "op_set_token_hash",
    "op_update_seats",
    "open_store",
    "refusal_hint",
    "sqlite_path",
]
