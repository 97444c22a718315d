"""The SQLite writer: a locked file makes the write wait, not the event loop; close stores what is
queued; a damaged database is refused at start (group commit itself: test_contract.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from parlour.store import CorruptDatabase, SQLiteStore, op_append, op_create_table
from parlour.table import RecordEntry, SeatInfo

SEATS = [SeatInfo("human", "Ana"), SeatInfo("bot", "Bo", "easy")]


def entry(seq: int) -> RecordEntry:
    return RecordEntry(seq, 0, {"type": "flip", "flip": False}, seq)


def test_a_locked_database_makes_the_write_wait_not_the_event_loop(tmp_path: Path) -> None:
    path = str(tmp_path / "p.db")
    store = SQLiteStore(path, busy_timeout_s=0.5)
    store.execute(op_create_table("a", "scout", {"players": 2}, 1, SEATS, True, 0))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the database

    async def meanwhile() -> tuple[BaseException | None, list[float]]:
        ticks: list[float] = []
        write = asyncio.ensure_future(store.write([op_append("a", entry(1))]))
        while not write.done():  # the loop keeps turning while the write waits
            began = time.monotonic()
            await asyncio.sleep(0.01)
            ticks.append(time.monotonic() - began)
        return write.exception(), ticks

    failure, ticks = asyncio.run(meanwhile())
    other.execute("ROLLBACK")
    assert isinstance(failure, sqlite3.OperationalError)  # refused after the busy timeout
    assert len(ticks) >= 20 and max(ticks) < 0.25
    assert store.load("a").entries == []
    asyncio.run(store.write([op_append("a", entry(1))]))  # free again: it goes through
    assert len(store.load("a").entries) == 1
    other.close()
    store.close()


def test_close_stores_what_is_queued(tmp_path: Path) -> None:
    path = str(tmp_path / "p.db")
    store = SQLiteStore(path)
    store.execute(op_create_table("a", "scout", {"players": 2}, 1, SEATS, True, 0))
    done = threading.Event()
    future = store.writer.submit([op_append("a", entry(1))])
    future.add_done_callback(lambda f: done.set())
    store.close()
    assert done.is_set() and future.exception() is None
    assert len(SQLiteStore(path).load("a").entries) == 1


def _damage(path: Path) -> None:
    store = SQLiteStore(str(path))
    for t in range(200):
        store.execute(op_create_table(f"t{t}", "scout", {"players": 2}, 1, SEATS, True, 0))
    store.close()
    data = bytearray(path.read_bytes())
    for at in range(4096 + 100, len(data), 4096):  # scribble over every page but the header
        data[at : at + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def test_a_damaged_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    _damage(path)
    with pytest.raises(CorruptDatabase, match=r"damaged|not a readable"):
        SQLiteStore(str(path))
    garbage = tmp_path / "g.db"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CorruptDatabase, match="not a readable"):
        SQLiteStore(str(garbage))


def test_parlour_serve_will_not_start_on_a_damaged_database(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    _damage(path)
    run = subprocess.run(
        [sys.executable, "-m", "parlour.cli.main", "serve", "--db", str(path), "--port", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2
    assert "Not starting" in run.stderr and "Traceback" not in run.stderr
