"""The SQLite store's own: an older database gains the columns it lacks (see also test_contract.py,
every backend's tests, and test_migrations.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from parlour.store import SQLiteStore, op_create_table
from parlour.table import SeatInfo, Table

SEATS = [SeatInfo("human", "Ana"), SeatInfo("bot", "Hard", "hard"), SeatInfo("bot", "Easy", "easy")]


def test_a_table_is_stored_with_its_version_and_an_older_database_gains_the_column(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "old.db")
    db = sqlite3.connect(path)  # a database from before versions were recorded
    db.executescript(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
        " seed INTEGER NOT NULL, seats TEXT NOT NULL, started INTEGER NOT NULL,"
        " created_ms INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0, outcome TEXT);"
        "INSERT INTO tables VALUES ('old', 'scout', '{\"players\": 3}', 1,"
        ' \'[{"kind": "open", "name": "", "level": ""}]\', 0, 0, 0, NULL);'
    )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    assert store.load("old").version is None  # played under Python's random: legacy_version
    table = Table("new", "scan", {"players": 3}, 9, list(SEATS))
    store.execute(op_create_table("new", "scan", table.options, 9, table.seats, True, 1, None,
                                  table.version))  # fmt: skip
    assert store.load("new").version == table.version == "scan-r1-c2"
