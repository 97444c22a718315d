"""The lease scripts (``parlour.server.leases``) on a real Redis: taking a lease draws a growing
fencing token; a renewal keeps a lease, takes back one that lapsed (or that Redis lost) while
its token is still the latest drawn, and never one after another process drew a newer token."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from parlour.server.bus import connect
from parlour.server.leases import ACQUIRE, RELEASE, RENEW, Lease, node_of, retry_in
from tests.server.redis_live import prefix

LEASE_MS = 60_000


def run(redis_url: str, body: Callable[..., Awaitable[None]]) -> None:
    async def main() -> None:
        redis = connect(redis_url)
        try:
            mine = prefix()
            keys = {k: f"{mine}{k}:t1" for k in ("lease", "fence")}
            scripts = [redis.register_script(s) for s in (ACQUIRE, RENEW, RELEASE)]
            await body(redis, keys, *scripts)
        finally:
            await redis.aclose()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_lease_is_taken_once_and_each_taking_draws_a_newer_token(redis_url: str) -> None:
    async def body(redis: Any, keys: dict[str, str], acquire: Any, *_: Any) -> None:
        pair = [keys["lease"], keys["fence"]]
        got, value = await acquire(keys=pair, args=["nodeA", LEASE_MS])
        assert got == 1 and node_of(value) == "nodeA"
        got, holder, left = await acquire(keys=pair, args=["nodeB", LEASE_MS])
        assert got == 0 and holder == value  # held: nobody else takes it ...
        assert 0 < left <= LEASE_MS  # ... for as long as its lease has left
        await redis.delete(keys["lease"])  # it lapsed
        got, second = await acquire(keys=pair, args=["nodeB", LEASE_MS])
        assert got == 1 and Lease(second).token > Lease(value).token

    run(redis_url, body)


def test_a_renewal_keeps_its_lease_and_loses_one_another_process_holds(redis_url: str) -> None:
    async def body(redis: Any, keys: dict[str, str], acquire: Any, renew: Any, _: Any) -> None:
        pair = [keys["lease"], keys["fence"]]
        _, value = await acquire(keys=pair, args=["nodeA", LEASE_MS])
        assert await renew(keys=pair, args=[LEASE_MS, value]) == [1]
        await redis.set(keys["lease"], "nodeB:1")
        assert await renew(keys=pair, args=[LEASE_MS, value]) == [0]
        assert await redis.get(keys["lease"]) == "nodeB:1"  # untouched

    run(redis_url, body)


def test_a_lapsed_lease_is_taken_back_only_while_its_token_is_the_latest(redis_url: str) -> None:
    async def body(redis: Any, keys: dict[str, str], acquire: Any, renew: Any, _: Any) -> None:
        pair = [keys["lease"], keys["fence"]]
        _, old = await acquire(keys=pair, args=["nodeA", LEASE_MS])
        await redis.delete(keys["lease"])  # it lapsed; nobody took it
        assert await renew(keys=pair, args=[LEASE_MS, old]) == [2]
        assert await redis.get(keys["lease"]) == old
        # Redis lost every key (restarted without persistence): taken back too
        await redis.delete(keys["lease"], keys["fence"])
        assert await renew(keys=pair, args=[LEASE_MS, old]) == [2]
        assert await redis.get(keys["fence"]) == str(Lease(old).token)  # the counter is back
        # another process took it after it lapsed, and its lease lapsed in turn: the old
        # holder's token is stale (the store refuses its writes), so it must not take the
        # lease back and point every process at itself
        await redis.delete(keys["lease"])
        _, newer = await acquire(keys=pair, args=["nodeB", LEASE_MS])
        assert Lease(newer).token > Lease(old).token  # even drawn in the same millisecond
        await redis.delete(keys["lease"])
        assert await renew(keys=pair, args=[LEASE_MS, old]) == [0]
        assert await redis.get(keys["lease"]) is None
        assert await renew(keys=pair, args=[LEASE_MS, newer]) == [2]  # the newer holder may

    run(redis_url, body)


def test_one_renewal_answers_for_every_lease_in_order(redis_url: str) -> None:
    async def body(redis: Any, keys: dict[str, str], acquire: Any, renew: Any, _: Any) -> None:
        pairs = [[f"{keys['lease']}{i}", f"{keys['fence']}{i}"] for i in range(3)]
        values = [(await acquire(keys=p, args=["nodeA", LEASE_MS]))[1] for p in pairs]
        await redis.set(pairs[1][0], "nodeB:1")
        flat = [k for p in pairs for k in p]
        assert await renew(keys=flat, args=[LEASE_MS, *values]) == [1, 0, 1]

    run(redis_url, body)


def test_a_lease_is_given_back_only_by_its_holder(redis_url: str) -> None:
    async def body(redis: Any, keys: dict[str, str], acquire: Any, _: Any, release: Any) -> None:
        _, value = await acquire(keys=[keys["lease"], keys["fence"]], args=["nodeA", LEASE_MS])
        assert await release(keys=[keys["lease"]], args=["nodeB:1"]) == 0
        assert await redis.get(keys["lease"]) == value
        assert await release(keys=[keys["lease"]], args=[value]) == 1
        assert await redis.get(keys["lease"]) is None

    run(redis_url, body)


def test_a_gone_holder_s_lease_is_tried_again_when_it_lapses_not_past_the_deadline() -> None:
    now = time.monotonic()
    assert 1.5 <= retry_in([1500], now + 60) <= 1.55 + 0.01  # when it lapses, a little jitter
    assert retry_in([1500], now + 0.2) <= 0.2  # never past the deadline
    assert retry_in([5000], now - 1) == 0.0
    assert 0.05 <= retry_in([-2], now + 60) <= 0.1  # no expiry (or gone): soon, not at once
    assert 0.05 <= retry_in([], now + 60) <= 0.1
