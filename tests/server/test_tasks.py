"""Stopping background tasks: a lost cancellation never hangs a shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from parlour.server.tasks import stop_tasks


async def swallows(times: int, stopped: list[str]) -> None:
    """Loses its first ``times`` cancellations (as a Redis read loop can), then stops."""
    lost = 0
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            lost += 1
            if lost > times:
                stopped.append("stopped")
                raise


def test_a_task_that_loses_a_cancellation_is_cancelled_again() -> None:
    stopped: list[str] = []

    async def main() -> None:
        tasks = [asyncio.create_task(swallows(n, stopped)) for n in (0, 1, 3)]
        await asyncio.sleep(0)
        await asyncio.wait_for(stop_tasks([*tasks, None]), 3)
        assert all(task.done() for task in tasks)

    asyncio.run(main())
    assert stopped == ["stopped"] * 3


def test_a_task_that_never_stops_is_left_behind_not_waited_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> float:
        loop = asyncio.get_running_loop()
        release = asyncio.Event()

        async def stubborn() -> None:  # loses every cancellation until released
            while not release.is_set():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.sleep(3600)

        task = asyncio.create_task(stubborn(), name="stubborn")
        await asyncio.sleep(0)
        began = loop.time()
        await asyncio.wait_for(stop_tasks([task], patience_s=0.3), 5)
        took = loop.time() - began
        assert not task.done()
        release.set()
        task.cancel()
        await task
        return took

    with caplog.at_level(logging.ERROR, "parlour.server"):
        took = asyncio.run(main())
    assert took < 2
    assert "would not stop were left behind: stubborn" in caplog.text


def test_a_task_that_failed_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def broken() -> None:
        raise RuntimeError("boom")

    async def main() -> None:
        task = asyncio.create_task(broken(), name="broken")
        await asyncio.sleep(0)
        await stop_tasks([task])

    with caplog.at_level(logging.ERROR, "parlour.server"):
        asyncio.run(main())
    assert "task broken failed" in caplog.text
