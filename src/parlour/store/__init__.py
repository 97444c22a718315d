"""Persistence of tables as append-only event logs (SQLite by default)."""

from parlour.store.sqlite import SQLiteStore, StoredTable

__all__ = ["SQLiteStore", "StoredTable"]
