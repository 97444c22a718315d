"""Group commit: one writer thread commits every group of writes queued together.

An event loop hands a *group* (a list of :class:`~parlour.store.base.Op`, writes that must be
stored together, with an optional fencing token) to :meth:`GroupWriter.write` and awaits it;
the loop never touches the database. The writer thread takes every group queued at that moment
and gives them to the backend's ``commit`` function, which stores them in one transaction, each
group inside its own savepoint: a group that fails (a duplicate sequence number, a stale
fencing token) is rolled back alone and its ``write`` raises, the others commit. Every ``write``
returns only after the transaction holding its group has committed, or raises having changed
nothing.

>>> import asyncio
>>> stored = []
>>> def commit(groups):  # a toy backend: stores everything, fails nothing
...     stored.extend(op for ops, _ in groups for op in ops)
...     return [None] * len(groups)
>>> writer = GroupWriter(commit)
>>> async def main():
...     await asyncio.gather(*(writer.write([i]) for i in range(5)))
>>> asyncio.run(main())
>>> sorted(stored), writer.groups
([0, 1, 2, 3, 4], 5)
>>> writer.close()
"""

from __future__ import annotations

import asyncio
import collections
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

Group = tuple[list[Any], "tuple[str, int] | None"]
"""One group as the backend's ``commit`` gets it: its operations and its fence (or ``None``)."""

Commit = Callable[[list[Group]], list["BaseException | None"]]
"""A backend's batch commit: stores the groups in one transaction and returns, per group,
``None`` (stored) or the exception that refused it (nothing of it stored); raises if the whole
transaction failed (nothing stored at all)."""


class GroupWriter:
    """A writer thread that hands batches of groups to ``commit`` (see the module docstring).

    The thread starts on first use; :meth:`close` stops it after the queued groups are stored,
    then calls ``on_close``.
    """

    def __init__(self, commit: Commit, on_close: Callable[[], None] | None = None) -> None:
        self._commit_batch = commit
        self._on_close = on_close
        self._queue: collections.deque[tuple[Group, Future[None], float]] = collections.deque()
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._waiting = False
        """Whether the thread waits for work (only then is it woken: a busy one looks again)."""
        self._closing = False
        self.batches = 0
        """Transactions committed so far (each may hold many groups)."""
        self.groups = 0
        """Groups stored so far."""

    # ------------------------------------------------------------------ the event loop's side

    async def write(self, ops: Sequence[Any], fence: tuple[str, int] | None = None) -> None:
        """Store ``ops`` together; returns once they are committed.

        Raises whatever refused this group (a database error, ``StaleFence``), having stored
        none of it, or ``RuntimeError`` once the writer is closed.
        """
        await asyncio.wrap_future(self.submit(ops, fence))

    def submit(self, ops: Sequence[Any], fence: tuple[str, int] | None = None) -> Future[None]:
        """Queue ``ops``; the future completes when they are committed (or fails)."""
        future: Future[None] = Future()
        with self._ready:
            if self._closing:
                raise RuntimeError("the store is closed")
            self._queue.append(((list(ops), fence), future, time.monotonic()))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
                self._thread.start()
            elif self._waiting:
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
            already = self._closing
            self._closing = True
            self._ready.notify()
            thread = self._thread
        if thread is not None:
            thread.join()
        if self._on_close is not None and not already:
            self._on_close()

    # ------------------------------------------------------------------ the writer thread

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closing:
                    self._waiting = True
                    self._ready.wait()
                    self._waiting = False
                if not self._queue:
                    return
                batch = list(self._queue)
                self._queue.clear()
            # A group whose caller gave up (cancelled) before now is not written; from here on
            # a group can no longer be cancelled, so its caller learns how it ended.
            batch = [item for item in batch if item[1].set_running_or_notify_cancel()]
            if batch:
                self._commit(batch)

    def _commit(self, batch: list[tuple[Group, Future[None], float]]) -> None:
        try:
            failed = self._commit_batch([group for group, _, _ in batch])
        except BaseException as exc:  # the whole transaction failed: nothing was stored
            for _, future, _ in batch:
                future.set_exception(exc)
            return
        self.batches += 1
        for (_, future, _), refusal in zip(batch, failed, strict=True):
            if refusal is not None:
                future.set_exception(refusal)
            else:
                self.groups += 1
                future.set_result(None)
