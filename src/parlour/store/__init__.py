"""Persistence of tables as append-only event logs (SQLite by default)."""

from parlour.store.sqlite import (
    CorruptDatabase,
    SQLiteStore,
    StoredTable,
    op_append,
    op_create_table,
    op_expire,
    op_finish,
    op_set_token_hash,
    op_update_seats,
)
from parlour.store.writer import GroupWriter, Op

__all__ = [
    "CorruptDatabase",
    "GroupWriter",
    "Op",
    "SQLiteStore",
    "StoredTable",
    "op_append",
    "op_create_table",
    "op_expire",
    "op_finish",
    "op_set_token_hash",
    "op_update_seats",
]
