"""The Redis client of the many-processes mode (``parlour.server.bus``), against a real Redis."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from redis.asyncio import BlockingConnectionPool

from parlour.server.bus import REDIS_POOL, REDIS_WAIT_S, Bus, connect
from tests.server.redis_live import RedisServer, prefix


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


def test_after_a_restart_of_redis_no_old_connection_fails_and_the_listener_is_back_at_once(
    tmp_path: Path,
) -> None:
    # Redis restarted (losing its connections): the pooled connections opened before are
    # dropped when the bus sees it gone, so once it is back no command fails on one of them
    # ("Connection closed by server", which marked Redis down again, refusing moves); and a
    # listener that had backed off to its longest wait subscribes again as soon as any
    # command works, not up to 3 s later (other processes took it for dead meanwhile).
    server = RedisServer(tmp_path / "redis").start()

    async def main() -> tuple[list[object], float]:
        redis = connect(server.url)
        bus = Bus(redis, prefix(), "a", lambda m: None, lambda: None)
        probe = connect(server.url)
        channel = bus.channel("a")
        try:
            await bus.start()
            await redis.ping()
            bus.mark(True)  # as the cluster does when it starts
            # several pooled connections, idle once these are done
            await asyncio.gather(*(redis.incr(f"{bus.prefix}n") for _ in range(8)))
            server.stop()
            async with asyncio.timeout(10):
                while bus.up:  # the listener sees it gone
                    await asyncio.sleep(0.02)
            await asyncio.sleep(5)  # the listener's back-off grows to its longest
            assert not bus.up
            server.start()
            results = await asyncio.gather(
                *(redis.incr(f"{bus.prefix}n") for _ in range(8)), return_exceptions=True
            )
            for result in results:
                if not isinstance(result, BaseException):
                    bus.mark(True)
            back = time.monotonic()
            async with asyncio.timeout(10):
                while not (await bus.alive(["a"]))["a"]:
                    await asyncio.sleep(0.02)
            assert (await probe.pubsub_numsub(channel))[0][1] == 1
            return results, time.monotonic() - back
        finally:
            await bus.close()
            await probe.aclose()

    try:
        results, resubscribed = asyncio.run(main())
    finally:
        server.stop()
    failed = [r for r in results if isinstance(r, BaseException)]
    assert not failed, [str(f) for f in failed[:3]]
    assert resubscribed < 1.0, f"the listener subscribed again {resubscribed:.2f} s later"
