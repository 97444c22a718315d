"""The SQLite event-log store: append-only, survives a reopen, rebuilds identical tables."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from parlour.store import (
    SQLiteStore,
    op_append,
    op_create_table,
    op_finish,
    op_set_token_hash,
    op_update_seats,
)
from parlour.table import Accepted, RecordEntry, SeatInfo, Table

SEATS = [SeatInfo("human", "Ana"), SeatInfo("bot", "Hard", "hard"), SeatInfo("bot", "Easy", "easy")]


def test_a_stored_game_rebuilds_identically_after_a_reopen(tmp_path: Path) -> None:
    path = str(tmp_path / "parlour.db")
    store = SQLiteStore(path)
    table = Table("abc", "scout", {"players": 3}, 42, list(SEATS))
    store.execute(op_create_table("abc", "scout", table.options, 42, table.seats, True, 1))
    rng = random.Random(2)
    while table.outcome() is None and table.state_id < 40:
        seat = table.to_act()[0]
        result = table.submit(seat, table.state_id, rng.choice(table.legal_actions(seat)), 0)
        assert isinstance(result, Accepted)
        store.execute(op_append("abc", result.entry))
    store.close()

    reopened = SQLiteStore(path)
    assert reopened.unfinished() == ["abc"]
    stored = reopened.load("abc")
    again = Table(stored.table_id, stored.game, stored.options, stored.seed, stored.seats,
                  record=stored.entries)  # fmt: skip
    assert again.state == table.state and again.state_id == table.state_id > 10
    reopened.execute(op_finish("abc", {"scores": [1, 2, 3]}))
    assert reopened.unfinished() == [] and reopened.load("abc").finished


def test_inputs_are_append_only(tmp_path: Path) -> None:
    store = SQLiteStore(":memory:")
    store.execute(op_create_table("t", "scout", {"players": 3}, 1, SEATS, True, 0))
    store.execute(op_append("t", RecordEntry(1, 0, {"type": "flip", "flip": True}, 5)))
    with pytest.raises(sqlite3.IntegrityError):
        store.execute(op_append("t", RecordEntry(1, 1, {"type": "flip", "flip": False}, 6)))
    with pytest.raises(sqlite3.IntegrityError):
        store.execute(op_append("nope", RecordEntry(1, 1, {"type": "flip", "flip": False}, 6)))
    assert [e.seq for e in store.load("t").entries] == [1]
    with pytest.raises(KeyError):
        store.load("missing")


def test_seats_and_token_hashes() -> None:
    store = SQLiteStore(":memory:")
    seats = [SeatInfo("human", "A"), SeatInfo("open"), SeatInfo("open")]
    store.execute(op_create_table("t", "scout", {"players": 3}, 1, seats, False, 0))
    store.execute(op_update_seats("t", SEATS, True))
    loaded = store.load("t")
    assert loaded.seats == SEATS and loaded.started
    store.execute(op_set_token_hash("t", 0, "h0"))
    store.execute(op_set_token_hash("t", 0, "h0b"))
    assert store.token_hashes("t") == {0: "h0b"}


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
