"""Stopping background tasks without ever hanging a shutdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("parlour.server")

PATIENCE_S = 5.0
"""How long :func:`stop_tasks` keeps cancelling a task that will not end."""


async def stop_tasks(
    tasks: Iterable[asyncio.Task[Any] | None], patience_s: float = PATIENCE_S
) -> None:
    """Cancel ``tasks`` and wait until they have ended.

    A cancellation can be lost: one that arrives together with a library's own read timeout (a
    Redis read in a loop) may surface as that timeout, and the loop then reads on. So a task
    still running is cancelled again every 0.1 s; one that has not ended after ``patience_s``
    is left behind (logged) rather than hang the shutdown. A task that ended with an error is
    logged. A task that has ended already is not waited for (it may belong to an event loop
    that is closed now).
    """
    pending = set()
    for task in tasks:
        if task is None:
            continue
        if not task.done():
            pending.add(task)
        elif not task.cancelled() and task.exception() is not None:
            log.error("task %s failed", task.get_name(), exc_info=task.exception())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience_s
    while pending:
        for task in pending:
            task.cancel()
        done, pending = await asyncio.wait(pending, timeout=0.1)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                log.error("task %s failed", task.get_name(), exc_info=task.exception())
        if pending and loop.time() > deadline:
            names = ", ".join(sorted(task.get_name() for task in pending))
            log.error("tasks that would not stop were left behind: %s", names)
            return
