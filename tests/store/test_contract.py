"""What every store backend must do (SQLite and a real PostgreSQL, the same tests): the log
round trip, token hashes, expiry, archiving, fencing and group commit."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from parlour.store import (
    STORAGE_ERRORS,
    Fence,
    Op,
    StaleFence,
    Store,
    op_append,
    op_create_table,
    op_expire,
    op_finish,
    op_set_token_hash,
    op_update_seats,
    open_store,
)
from parlour.store.sqlite import LATEST
from parlour.table import Accepted, RecordEntry, SeatInfo, Table

SEATS = [SeatInfo("human", "Ana"), SeatInfo("bot", "Hard", "hard"), SeatInfo("bot", "Easy", "easy")]


def entry(seq: int) -> RecordEntry:
    return RecordEntry(seq, 0, {"type": "flip", "flip": seq % 2 == 0}, 1000 + seq)


def new_table(store: Store, table_id: str, created_ms: int = 1, guest: str | None = None) -> None:
    store.execute(op_create_table(table_id, "scout", {"players": 3}, 2**47 + 5, SEATS, True,
                                  created_ms, guest, "scout-r1-c2"))  # fmt: skip


def run(*writes: Any) -> list[BaseException | None]:
    """Run ``writes`` (coroutines) side by side; what each raised (``None``: stored). Gives up
    after 60 s (``TimeoutError``): a write that never returns fails its test."""

    async def together() -> list[Any]:
        return list(await asyncio.gather(*writes, return_exceptions=True))

    return asyncio.run(asyncio.wait_for(together(), 60))


def together(store: Store, *groups: tuple[list[Op], Fence | None]) -> list[BaseException | None]:
    """Queue ``groups`` while the writer thread waits (it needs the queue's lock, held here),
    so that they are committed in one transaction; what each raised (``None``: stored)."""
    batches = store.writer.batches
    with store.writer._ready:
        futures = [store.submit(ops, fence) for ops, fence in groups]
    results = [future.exception(timeout=30) for future in futures]
    assert store.writer.batches == batches + 1, "one transaction for the whole batch"
    return results


def test_a_game_written_through_the_writer_loads_and_rebuilds_identically(
    store_url: str,
) -> None:
    store = open_store(store_url)
    assert store.schema_version() == LATEST
    table = Table("abc", "scout", {"players": 3}, 42, list(SEATS))
    run(store.write([op_create_table("abc", "scout", table.options, 42, table.seats, True, 7,
                                     "guest-1", table.version)]))  # fmt: skip
    rng = random.Random(2)
    while table.outcome() is None and table.state_id < 40:
        seat = table.to_act()[0]
        result = table.submit(seat, table.state_id, rng.choice(table.legal_actions(seat)), 0)
        assert isinstance(result, Accepted)
        assert run(store.write([op_append("abc", result.entry)])) == [None]
    store.close()

    again = open_store(store_url)  # reopened: the log survives
    assert again.unfinished() == ["abc"] and again.unfinished_of("guest-1") == ["abc"]
    assert again.open_tables_of("guest-1") == 1 and again.open_tables_of("other") == 0
    stored = again.load("abc")
    assert (stored.game, stored.seed, stored.created_ms, stored.version) == (
        "scout", 42, 7, table.version)  # fmt: skip
    rebuilt = Table(stored.table_id, stored.game, stored.options, stored.seed, stored.seats,
                    record=stored.entries)  # fmt: skip
    assert rebuilt.state == table.state and rebuilt.state_id == table.state_id > 10
    assert [e.to_json() for e in stored.entries] == [e.to_json() for e in table.record]
    again.execute(op_finish("abc", {"scores": [1, 2, 3]}))
    assert again.unfinished() == [] and again.load("abc").finished
    again.close()


def test_inputs_are_append_only_and_unknown_tables_refused(store: Store) -> None:
    new_table(store, "t")
    store.execute(op_append("t", entry(1)))
    with pytest.raises(STORAGE_ERRORS):
        store.execute(op_append("t", RecordEntry(1, 1, {"type": "flip", "flip": False}, 6)))
    with pytest.raises(STORAGE_ERRORS):
        store.execute(op_append("nope", entry(1)))
    assert [e.to_json() for e in store.load("t").entries] == [entry(1).to_json()]
    with pytest.raises(KeyError):
        store.load("missing")


def test_seats_and_only_token_hashes_are_stored(store: Store) -> None:
    seats = [SeatInfo("human", "A"), SeatInfo("open"), SeatInfo("open")]
    store.execute(op_create_table("t", "scout", {"players": 3}, 1, seats, False, 0))
    assert not store.load("t").started
    store.execute(op_update_seats("t", SEATS, True))
    loaded = store.load("t")
    assert loaded.seats == SEATS and loaded.started
    store.execute(op_set_token_hash("t", 0, "h0"), op_set_token_hash("t", 2, "h2"))
    store.execute(op_set_token_hash("t", 0, "h0b"))  # a new token replaces the old hash
    assert store.token_hashes("t") == {0: "h0b", 2: "h2"}
    assert store.token_hashes("other") == {}


def test_expire_closes_only_an_unfinished_table(store: Store) -> None:
    new_table(store, "idle")
    new_table(store, "done")
    store.execute(op_finish("done", {"ranks": [0, 1, 2]}))
    run(store.write([op_expire("idle")]), store.write([op_expire("done")]))
    idle, done = store.load("idle"), store.load("done")
    assert idle.finished and idle.expired
    assert done.finished and not done.expired  # a finished game keeps its outcome
    assert store.unfinished() == []


def test_archive_compresses_a_finished_table_that_loads_as_before(store: Store) -> None:
    new_table(store, "old", created_ms=10)
    new_table(store, "live", created_ms=11)
    for seq in range(1, 30):
        store.execute(op_append("old", entry(seq)))
    store.execute(op_finish("old", {"ranks": [0, 1, 2]}))
    before = store.load("old")
    assert store.to_archive(created_before_ms=11) == ["old"]
    assert store.to_archive(created_before_ms=10) == []
    with pytest.raises(ValueError, match="in play"):
        store.archive("live")
    with pytest.raises(KeyError):
        store.archive("missing")
    store.archive("old")
    store.archive("old")  # again: nothing to do
    after = store.load("old")
    assert after.archived and not before.archived
    assert [e.to_json() for e in after.entries] == [e.to_json() for e in before.entries]
    assert store.to_archive(created_before_ms=100) == []
    with pytest.raises(STORAGE_ERRORS):  # the log stays closed: seq 1 is archived, not gone
        store.execute(op_append("old", entry(1)), op_append("old", entry(1)))


def test_a_stale_fence_refuses_its_group_alone(store: Store) -> None:
    new_table(store, "t")
    new_table(store, "u")
    assert store.fence_token("t") is None
    assert run(store.write([op_append("t", entry(1))], fence=("t", 3))) == [None]
    assert store.fence_token("t") == 3
    assert run(store.write([op_append("t", entry(2))], fence=("t", 3))) == [None]  # same owner
    # In one batch: the old owner (token 2) is refused, the others are stored.
    stale, good, other, plain = together(
        store,
        ([op_append("t", entry(3)), op_finish("t", {})], ("t", 2)),
        ([op_append("t", entry(4))], ("t", 5)),
        ([op_append("u", entry(1))], ("u", 1)),
        ([op_append("u", entry(2))], None),  # no fence: one process, no check
    )
    assert isinstance(stale, StaleFence) and "stale" in str(stale)
    assert (good, other, plain) == (None, None, None)
    stored = store.load("t")
    assert [e.seq for e in stored.entries] == [1, 2, 4] and not stored.finished
    assert store.fence_token("t") == 5 and store.fence_token("u") == 1
    (refused,) = run(store.write([], fence=("t", 4)))  # an empty group checks the fence too
    assert isinstance(refused, StaleFence)
    assert run(store.write([], fence=("t", 9))) == [None] and store.fence_token("t") == 9
    bad = run(store.write([op_append("t", entry(5))], fence=("t", "9")))  # type: ignore[arg-type]
    assert isinstance(bad[0], ValueError) and [e.seq for e in store.load("t").entries] == [1, 2, 4]


def test_fencing_holds_across_two_stores_on_one_database(store_url: str) -> None:
    # Two processes: the new owner's token shuts the old owner out.
    old, new = open_store(store_url), open_store(store_url)
    new_table(old, "t")
    assert run(old.write([op_append("t", entry(1))], fence=("t", 1))) == [None]
    assert run(new.write([], fence=("t", 2))) == [None]  # the new owner takes the table
    (refused,) = run(old.write([op_append("t", entry(2))], fence=("t", 1)))
    assert isinstance(refused, StaleFence)
    assert run(new.write([op_append("t", entry(2))], fence=("t", 2))) == [None]
    assert [e.seq for e in old.load("t").entries] == [1, 2]
    old.close()
    new.close()


def test_writes_that_arrive_together_are_committed_together(store: Store) -> None:
    for t in range(40):
        new_table(store, f"t{t}")
    results = run(*(store.write([op_append(f"t{t}", entry(1))]) for t in range(40)))
    assert results == [None] * 40
    assert store.writer.groups == 40
    assert store.writer.batches < 40  # several groups per transaction
    assert all(len(store.load(f"t{t}").entries) == 1 for t in range(40))


def test_a_failing_group_fails_alone_and_stores_nothing_of_itself(store: Store) -> None:
    new_table(store, "a")
    store.execute(op_append("a", entry(1)))
    bad, good = together(
        store,
        ([op_append("a", entry(2)), op_append("a", entry(1))], None),  # seq 1 again
        ([op_create_table("b", "scout", {"players": 2}, 1, SEATS[:2], True, 0)], None),
    )
    assert isinstance(bad, STORAGE_ERRORS) and good is None
    assert [e.seq for e in store.load("a").entries] == [1]  # seq 2 of the failed group is gone
    assert store.load("b").table_id == "b"
