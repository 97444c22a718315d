"""The Redis client of the many-processes mode (``parlour.server.bus``), against a real Redis."""

from __future__ import annotations

import asyncio

from redis.asyncio import BlockingConnectionPool

from parlour.server.bus import REDIS_POOL, REDIS_WAIT_S, Bus, connect
from tests.server.redis_live import prefix


def test_more_commands_at_once_than_connections_all_succeed(redis_url: str) -> None:
    # With redis-py's default pool the command beyond its 100 connections failed at once
    # ("Too many connections") and the server took Redis for down; they now wait their turn.
    key = f"{prefix()}crowd"

    async def main() -> list[object]:
        redis = connect(redis_url)
        pool = redis.connection_pool
        assert isinstance(pool, BlockingConnectionPool)
        assert (pool.max_connections, pool.timeout) == (REDIS_POOL, REDIS_WAIT_S)
        # What is checked is that commands wait their turn, not how fast a busy machine opens
        # connections: a slow one may take longer than the product's 1 s to connect and 2 s
        # to wait, so both are raised here (the old pool failed at once, whatever they were).
        pool.timeout = 60
        pool.connection_kwargs.update(socket_connect_timeout=30, socket_timeout=30)
        try:
            # three times as many at once as the pool has connections
            jobs = [
                redis.eval("redis.call('INCR', KEYS[1]) return 1", 1, key)
                for _ in range(3 * REDIS_POOL)
            ]
            results = await asyncio.gather(*jobs, return_exceptions=True)
            assert int(await redis.get(key)) == 3 * REDIS_POOL
            await redis.delete(key)
            return results
        finally:
            await redis.aclose()

    results = asyncio.run(main())
    failed = [r for r in results if isinstance(r, BaseException)]
    assert not failed, failed[:3]


def test_messages_queued_together_arrive_in_order_and_a_gone_process_is_told(
    redis_url: str,
) -> None:
    # One PUBLISH per receiving process for everything queued at a moment (a JSON array):
    # the receiver gets every message, in order; messages to a process nobody listens as
    # reach nobody, and each one's on_fail hears it with Redis up.
    async def main() -> tuple[list[int], list[bool]]:
        got: list[int] = []
        failed: list[bool] = []
        ends = [connect(redis_url), connect(redis_url)]
        a = Bus(ends[0], prefix(), "a", lambda m: None, lambda: None)
        b = Bus(ends[1], a.prefix, "b", lambda m: got.append(m["i"]), lambda: None)
        await a.start()
        await b.start()
        try:
            for i in range(300):
                a.post("b", {"i": i})
                if i % 7 == 0:
                    a.post("nobody", {"i": i}, failed.append)
                if i % 50 == 0:
                    await asyncio.sleep(0)
            async with asyncio.timeout(20):
                while len(got) < 300 or len(failed) < 43:
                    await asyncio.sleep(0.01)
            return got, failed
        finally:
            await a.close()
            await b.close()

    got, failed = asyncio.run(main())
    assert got == list(range(300))
    assert failed == [True] * 43
