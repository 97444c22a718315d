"""Numbered schema migrations on both backends: an old database with data is brought up to
date intact; a newer or unusable schema, or an unreachable server, is refused clearly."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest

from parlour.store import (
    CorruptDatabase,
    SQLiteStore,
    StaleFence,
    StorageError,
    describe,
    op_append,
    op_set_token_hash,
    open_store,
)
from parlour.store.postgres import LATEST as PG_LATEST
from parlour.store.postgres import PostgresStore, migrate
from parlour.store.sqlite import LATEST
from parlour.table import RecordEntry, SeatInfo

OLDEST = """
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, started INTEGER NOT NULL,
    created_ms INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0, outcome TEXT);
CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
    seat INTEGER, action TEXT NOT NULL, now_ms INTEGER NOT NULL, PRIMARY KEY (table_id, seq));
CREATE TABLE seat_tokens (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat));
"""
"""The first schema Parlour wrote (no guest, expiry, archive or version; no schema_version)."""

SEATS_JSON = '[{"kind": "human", "name": "Ana", "level": ""}, {"kind": "bot", "name": "Bo", "level": "easy"}]'  # noqa: E501
FLIP = '{"type": "flip", "flip": true}'


def _check_migrated(url: str, latest: int) -> None:
    """The old table and its inputs load as stored, and the new schema works (fencing)."""
    store = open_store(url)
    assert store.schema_version() == latest
    old = store.load("old")
    assert (old.game, old.seed, old.started, old.finished) == ("scout", 77, True, False)
    assert old.seats == [SeatInfo("human", "Ana"), SeatInfo("bot", "Bo", "easy")]
    assert old.version is None and not old.expired and not old.archived  # defaults filled in
    flip = {"type": "flip", "flip": True}
    inputs = [(e.seq, e.seat, e.action, e.now_ms) for e in old.entries]
    assert inputs == [(1, 0, flip, 5), (2, 1, flip, 9)]
    assert store.token_hashes("old") == {0: "hash0"}
    assert store.unfinished() == ["old"]
    entry = RecordEntry(3, 0, {"type": "flip", "flip": False}, 12)

    async def fenced() -> None:
        await store.write([op_append("old", entry)], fence=("old", 2))
        with pytest.raises(StaleFence):
            await store.write([op_set_token_hash("old", 1, "x")], fence=("old", 1))

    asyncio.run(fenced())
    assert len(store.load("old").entries) == 3 and store.token_hashes("old") == {0: "hash0"}
    store.close()
    again = open_store(url)  # opening an up-to-date database changes nothing
    assert again.schema_version() == latest and len(again.load("old").entries) == 3
    again.close()


def test_an_sqlite_database_from_before_migrations_is_migrated_with_its_data(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(OLDEST)
    db.execute("INSERT INTO tables VALUES ('old', 'scout', '{\"players\": 2}', 77, ?, 1, 3, 0,"
               " NULL)", (SEATS_JSON,))  # fmt: skip
    db.execute("INSERT INTO events VALUES ('old', 1, 0, ?, 5), ('old', 2, 1, ?, 9)", (FLIP, FLIP))
    db.execute("INSERT INTO seat_tokens VALUES ('old', 0, 'hash0')")
    db.commit()
    db.close()
    _check_migrated(str(path), LATEST)
    db = sqlite3.connect(path)
    assert [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version")] == [
        1, 2]  # fmt: skip
    db.close()


def test_a_postgresql_database_at_version_1_is_migrated_with_its_data(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn, upto=1) == 1  # the schema before fencing
        conn.execute("INSERT INTO tables (id, game, options, seed, seats, started, created_ms)"
                     " VALUES ('old', 'scout', '{\"players\": 2}', 77, %s, TRUE, 3)",
                     (SEATS_JSON,))  # fmt: skip
        conn.execute("INSERT INTO events VALUES ('old', 1, 0, %s, 5), ('old', 2, 1, %s, 9)",
                     (FLIP, FLIP))  # fmt: skip
        conn.execute("INSERT INTO seat_tokens VALUES ('old', 0, 'hash0')")
        assert conn.execute("SELECT to_regclass('fences')").fetchone() == (None,)
    _check_migrated(pg_url, PG_LATEST)


def test_stores_opening_together_migrate_once(pg_url: str) -> None:
    stores, errors = [], []

    def open_one() -> None:
        try:
            stores.append(open_store(pg_url))
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and len(stores) == 4
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert [r[0] for r in rows] == list(range(1, PG_LATEST + 1))
    for store in stores:
        store.close()


def test_a_newer_schema_is_refused(tmp_path: Path, pg_url: str) -> None:
    path = str(tmp_path / "new.db")
    open_store(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO schema_version VALUES (99, 0)")
    db.commit()
    db.close()
    with pytest.raises(CorruptDatabase, match="schema version 99, newer"):
        open_store(path)
    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 0)")
    with pytest.raises(CorruptDatabase, match="schema version 99, newer"):
        open_store(pg_url)


def test_an_unusable_postgresql_schema_is_refused_clearly(pg_url: str) -> None:
    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events DROP COLUMN now_ms")
    with pytest.raises(CorruptDatabase, match=r"lacks events\.now_ms: its schema is unusable"):
        open_store(pg_url)


def test_a_foreign_table_in_the_way_is_refused_clearly(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:  # another program's "tables"
        conn.execute("CREATE TABLE tables (name TEXT)")
    with pytest.raises(CorruptDatabase, match=r"could not be migrated.*already exists"):
        open_store(pg_url)


def test_an_unreachable_server_is_refused_without_its_password() -> None:
    url = "postgresql://parlour:s3cret@127.0.0.1:1/parlour"
    with pytest.raises(StorageError, match="cannot reach") as refused:
        open_store(url, busy_timeout_s=2)
    assert "s3cret" not in str(refused.value) and "parlour:***@127.0.0.1:1" in str(refused.value)
    run = subprocess.run(
        [sys.executable, "-m", "parlour.cli.main", "serve", "--db", url, "--port", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2 and "Not starting" in run.stderr
    assert "Traceback" not in run.stderr and "s3cret" not in run.stderr + run.stdout
    with pytest.raises(ValueError, match="mysql:// is not a database"):
        open_store("mysql://x@y/z")


def test_a_url_names_the_backend(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "p.db"
    for url in (str(path), f"sqlite:///{path}"):  # the same file either way
        store = open_store(url)
        assert isinstance(store, SQLiteStore) and store.path == str(path)
        store.close()
    store = open_store(pg_url)
    assert isinstance(store, PostgresStore) and store.schema_version() == PG_LATEST
    store.close()
    assert describe("postgresql://u:pw@h/db") == "postgresql://u:***@h/db"
    assert describe(str(path)) == str(path)
