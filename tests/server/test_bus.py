"""The Redis client of the many-processes mode (``parlour.server.bus``), against a real Redis."""

from __future__ import annotations

import asyncio

from redis.asyncio import BlockingConnectionPool

from parlour.server.bus import REDIS_POOL, REDIS_WAIT_S, connect
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
