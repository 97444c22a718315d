"""The Redis client of the many-processes mode (``parlour.server.bus``), against a real Redis."""

from __future__ import annotations

import asyncio

from parlour.server.bus import REDIS_POOL, connect
from tests.server.redis_live import prefix


def test_more_commands_at_once_than_connections_all_succeed(redis_url: str) -> None:
    # With redis-py's default pool the command beyond its 100 connections failed at once
    # ("Too many connections") and the server took Redis for down; they now wait their turn.
    key = f"{prefix()}crowd"

    async def main() -> list[object]:
        redis = connect(redis_url)
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
