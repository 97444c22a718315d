"""Group commit: one writer thread commits every group of writes queued together.

An event loop hands a *group* (a list of :data:`Op`, statements that must be stored together)
to :meth:`GroupWriter.write` and awaits it; the loop never touches the database. The writer
thread takes every group queued at that moment and stores them in one transaction, each group
inside its own savepoint: a group that fails (e.g. a duplicate sequence number) is rolled back
alone and its ``write`` raises, the others commit. Every ``write`` returns only after the
transaction holding its group has committed (with ``synchronous=FULL``: it is on disk), or
raises having changed nothing.

>>> import asyncio, sqlite3
>>> db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
>>> _ = db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
>>> writer = GroupWriter(db, threading.Lock())
>>> async def main():
...     await asyncio.gather(*(writer.write([("INSERT INTO t VALUES (?)", (i,))])
...                            for i in range(5)))
>>> asyncio.run(main())
>>> db.execute("SELECT COUNT(*) FROM t").fetchone()[0]
5
>>> writer.close()
"""

from __future__ import annotations

import asyncio
import collections
import sqlite3
import threading
import time
from concurrent.futures import Future
from typing import Any

Op = tuple[str, tuple[Any, ...]]
"""One write: an SQL statement and its parameters."""


class GroupWriter:
    """A writer thread on ``db`` (see the module docstring).

    ``lock`` serialises the connection with other users of it (a store's synchronous methods).
    The thread starts on first use; :meth:`close` stops it after the queued groups are stored
    (and closes ``db`` if ``owns_db``).
    """

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock, owns_db: bool = False) -> None:
        self._db = db
        self._lock = lock
        self._owns_db = owns_db
        self._queue: collections.deque[tuple[list[Op], Future[None], float]] = collections.deque()
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False
        self.batches = 0
        """Transactions committed so far (each may hold many groups)."""
        self.groups = 0
        """Groups stored so far."""

    # ------------------------------------------------------------------ the event loop's side

    async def write(self, ops: list[Op]) -> None:
        """Store ``ops`` together; returns once they are committed.

        Raises whatever the database raised for this group (``sqlite3.Error``), having stored
        none of it, or ``RuntimeError`` once the writer is closed.
        """
        await asyncio.wrap_future(self.submit(ops))

    def submit(self, ops: list[Op]) -> Future[None]:
        """Queue ``ops``; the future completes when they are committed (or fails)."""
        future: Future[None] = Future()
        with self._ready:
            if self._closing:
                raise RuntimeError("the store is closed")
            self._queue.append((list(ops), future, time.monotonic()))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
                self._thread.start()
            self._ready.notify()
        return future

    def backlog(self) -> tuple[int, float]:
        """Groups waiting to be written, and how long the oldest has waited (seconds)."""
        with self._ready:
            if not self._queue:
                return 0, 0.0
            return len(self._queue), time.monotonic() - self._queue[0][2]

    def close(self) -> None:
        """Store what is queued, then stop the thread."""
        with self._ready:
            self._closing = True
            self._ready.notify()
            thread = self._thread
        if thread is not None:
            thread.join()
        if self._owns_db:
            with self._lock:
                self._db.close()

    # ------------------------------------------------------------------ the writer thread

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closing:
                    self._ready.wait()
                if not self._queue:
                    return
                batch = list(self._queue)
                self._queue.clear()
            # A group whose caller gave up (cancelled) before now is not written; from here on
            # a group can no longer be cancelled, so its caller learns how it ended.
            batch = [item for item in batch if item[1].set_running_or_notify_cancel()]
            if batch:
                self._commit(batch)

    def _commit(self, batch: list[tuple[list[Op], Future[None], float]]) -> None:
        failed: dict[int, BaseException] = {}
        try:
            with self._lock:
                db = self._db
                db.execute("BEGIN IMMEDIATE")
                try:
                    for i, (ops, _, _) in enumerate(batch):
                        db.execute("SAVEPOINT grp")
                        try:
                            for sql, params in ops:
                                db.execute(sql, params)
                        except sqlite3.Error as exc:
                            db.execute("ROLLBACK TO grp")
                            failed[i] = exc
                        db.execute("RELEASE grp")
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
        except BaseException as exc:  # the whole transaction failed: nothing was stored
            for _, future, _ in batch:
                future.set_exception(exc)
            return
        self.batches += 1
        for i, (_, future, _) in enumerate(batch):
            if i in failed:
                future.set_exception(failed[i])
            else:
                self.groups += 1
                future.set_result(None)
