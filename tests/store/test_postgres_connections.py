"""The PostgreSQL store's pooled connections on a real server: a batch goes as one query; a
connection that served a batch moments ago is not checked again before the next (a round trip
saved a batch), one idle for longer is, and a connection PostgreSQL closed fails its batch
whole (nothing of it stored) and is replaced for the next; values typed by guests are stored
exactly as typed."""

from __future__ import annotations

import contextlib

import psycopg
import pytest

from parlour.store import STORAGE_ERRORS, op_append, op_create_table
from parlour.store import postgres as pg
from parlour.store.postgres import PostgresStore
from parlour.table import SeatInfo
from tests.store.test_contract import entry, new_table, run


def _close_its_connections(store: PostgresStore, url: str) -> int:
    """End, on the server's side, every connection of ``store``'s pool (as a restart would)."""
    with contextlib.ExitStack() as taken:  # every connection the pool holds, at once
        size = store._pool.get_stats().get("pool_size", 1)
        pids = {taken.enter_context(store._pool.connection()).info.backend_pid for _ in range(size)}
    with psycopg.connect(url, autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    return len(pids)


def test_a_closed_connection_that_served_a_batch_moments_ago_fails_the_next_batch_alone(
    pg_url: str,
) -> None:
    store = PostgresStore(pg_url)
    try:
        new_table(store, "t")
        assert run(store.write([op_append("t", entry(1))], fence=("t", 1))) == [None]
        assert _close_its_connections(store, pg_url) >= 1
        # within CHECK_AFTER_S of its last batch: used unchecked, and the batch fails whole
        (failed,) = run(store.write([op_append("t", entry(2))], fence=("t", 1)))
        assert isinstance(failed, STORAGE_ERRORS)
        assert [e.seq for e in store.load("t").entries] == [1]
        # the broken connection is gone from the pool: the next batch is stored
        assert run(store.write([op_append("t", entry(2))], fence=("t", 1))) == [None]
        assert [e.seq for e in store.load("t").entries] == [1, 2]
    finally:
        store.close()


def test_a_connection_idle_for_a_while_is_checked_before_a_batch(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(pg_url)
    try:
        new_table(store, "t")
        assert run(store.write([op_append("t", entry(1))])) == [None]
        monkeypatch.setattr(pg, "CHECK_AFTER_S", 0.0)  # every connection counts as idle
        _close_its_connections(store, pg_url)
        # the check finds the closed connection and the pool hands out a new one
        assert run(store.write([op_append("t", entry(2)), op_append("t", entry(3))])) == [None]
        assert [e.seq for e in store.load("t").entries] == [1, 2, 3]
    finally:
        store.close()


def test_values_bound_on_this_side_are_stored_exactly_whatever_they_hold(pg_url: str) -> None:
    # A batch's values are quoted by psycopg into one query of many statements: a name a
    # guest typed, with quotes, a statement separator, placeholders and escapes, is stored as
    # typed and runs nothing.
    names = ["O'Brien; DROP TABLE events; --", 'Ana "100%" %s %(x)s', "back\\slash \\' $$ \x7f ø 🂡"]
    seats = [SeatInfo("human", name) for name in names]
    store = PostgresStore(pg_url)
    try:
        made = op_create_table("t'1", "scout", {"players": 3, "note": "';--"}, 2**62 + 1, seats,
                               True, 7, "guest's")  # fmt: skip
        assert run(store.write([made, op_append("t'1", entry(1))], fence=("t'1", 3))) == [None]
        stored = store.load("t'1")
        assert [s.name for s in stored.seats] == names
        assert stored.options == {"players": 3, "note": "';--"} and stored.seed == 2**62 + 1
        assert [e.to_json() for e in stored.entries] == [entry(1).to_json()]
        assert store.fence_token("t'1") == 3 and store.unfinished_of("guest's") == ["t'1"]
    finally:
        store.close()
