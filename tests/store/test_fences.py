"""Fencing tokens: a group written with a token lower than the highest the store has seen for
its table stores nothing and raises ``StaleFence`` (many processes: the old owner of a table,
paused while another took it over, can never write again)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from parlour.store import SQLiteStore, StaleFence, op_create_table
from parlour.table import SeatInfo


def _create(table_id: str) -> list[tuple[str, tuple[object, ...]]]:
    seats = [SeatInfo("human", "Ana"), SeatInfo("bot", "Bo", "easy")]
    return [op_create_table(table_id, "scout", {"players": 2}, 1, seats, True, 0)]


def test_a_stale_token_writes_nothing_and_a_newer_one_writes(tmp_path: Path) -> None:
    async def main() -> None:
        store = SQLiteStore(str(tmp_path / "f.db"))
        other = SQLiteStore(str(tmp_path / "f.db"))  # a second process on the same file
        try:
            await store.write(_create("t1"), fence=("t1", 5))
            await other.write([], fence=("t1", 7))  # the new owner registers its token
            with pytest.raises(StaleFence):
                await store.write(_create("t2"), fence=("t1", 5))
            assert "t2" not in other.unfinished()  # nothing of the stale group was stored
            await other.write(_create("t3"), fence=("t1", 7))
            await store.write(_create("t4"), fence=("t4", 1))  # each table has its own tokens
            await store.write(_create("t5"))  # unfenced writes are not checked
            assert sorted(other.unfinished()) == ["t1", "t3", "t4", "t5"]
        finally:
            store.close()
            other.close()

    asyncio.run(main())


def test_a_stale_group_fails_alone_in_its_batch(tmp_path: Path) -> None:
    async def main() -> None:
        store = SQLiteStore(str(tmp_path / "f.db"))
        try:
            await store.write([], fence=("t1", 9))
            results = await asyncio.gather(
                store.write(_create("a"), fence=("t1", 8)),
                store.write(_create("b"), fence=("t1", 9)),
                return_exceptions=True,
            )
            assert isinstance(results[0], StaleFence) and results[1] is None
            assert store.unfinished() == ["b"]
        finally:
            store.close()

    asyncio.run(main())
