"""Messages between server processes (many processes: ``parlour.server.cluster``), over Redis
pub/sub.

Every process subscribes to its own channel (``<prefix>node:<node id>``) and sends small JSON
messages to another's. One sender task publishes everything queued at a moment in one write:
one ``PUBLISH`` per receiving process, its messages as one JSON array in the order they were
queued (pub/sub keeps that order on one connection), so a connection's messages arrive in
order. A process whose subscription is gone (it died: its Redis connection closed) is seen by
the publisher: nobody received its messages (their ``on_fail`` callbacks).

Redis going away is survived: the listener re-subscribes with back-off (with jitter) and then
calls ``on_reset`` (messages sent meanwhile are lost: the cluster then resets every relayed
connection, whose browsers reconnect and get the whole state again). :attr:`Bus.up` tells
whether the latest Redis operation worked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.retry import Retry

from parlour.server.protocol import decode, encode
from parlour.server.tasks import stop_tasks

log = logging.getLogger("parlour.server")

Failed = Callable[[bool], None]
"""Called when a message reached nobody: with ``True`` if Redis is up (the receiving process is
gone), ``False`` if Redis could not be reached."""

REDIS_ERRORS = (RedisError, OSError)


REDIS_POOL = 100
"""Connections to Redis per process at most. More commands at once wait for a free one (at most
:data:`REDIS_WAIT_S`): with redis-py's default pool the 101st failed at once ("Too many
connections") and the process took Redis for down, refusing moves, under a load of 1,000
tables on 4 processes."""

REDIS_WAIT_S = 2.0
"""How long a command waits for a free connection before it fails like an unreachable Redis."""


def connect(url: str) -> Redis:
    """A Redis client for ``url`` that fails fast (1 s to connect, 2 s a command, no retries):
    an unreachable Redis makes inputs refused at once, never a stalled event loop. Commands
    share :data:`REDIS_POOL` connections, waiting their turn when all are busy."""
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_POOL,
        timeout=REDIS_WAIT_S,
        decode_responses=True,
        socket_connect_timeout=1.0,
        socket_timeout=2.0,
        retry=Retry(NoBackoff(), 0),
    )
    return Redis.from_pool(pool)


def pool_busy(exc: BaseException | None) -> bool:
    """Whether ``exc`` only says that every pooled connection stayed busy for
    :data:`REDIS_WAIT_S` (redis-py raises ``ConnectionError`` from a timeout): Redis itself
    may be fine, so its connections are kept."""
    return isinstance(exc, RedisConnectionError) and isinstance(exc.__cause__, TimeoutError)


class Bus:
    """This process's end of the messages between processes (see the module docstring)."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        node: str,
        on_message: Callable[[dict[str, Any]], None],
        on_reset: Callable[[], None],
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.on_message = on_message
        self.on_reset = on_reset
        self.up = False
        """Whether the latest Redis operation worked."""
        self.up_since = 0.0
        """``time.monotonic()`` when Redis last came back (or was first reached)."""
        self._queue: asyncio.Queue[tuple[str, dict[str, Any], Failed | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._back = asyncio.Event()
        """Set when Redis answers again (the listener stops waiting before subscribing)."""
        self._dropping: set[asyncio.Task[None]] = set()
        self.run_id = ""
        """Redis's run id when this process last subscribed."""
        self.restarted_at = -math.inf
        """``time.monotonic()`` when this process saw that Redis had restarted."""
        self._outages = 0
        """How many times Redis stopped answering (a connection older than the latest is
        not used again)."""

    def channel(self, node: str) -> str:
        """The channel ``node`` listens on."""
        return f"{self.prefix}node:{node}"

    def mark(self, up: bool, why: BaseException | None = None) -> None:
        """Record whether Redis answered (logged when it changes). When it stops answering,
        the idle pooled connections are closed: after a restart of Redis each would otherwise
        fail one command more ("Connection closed by server") and mark it down again. When it
        answers again, a listener waiting to subscribe again tries at once."""
        if up and not self.up:
            self.up_since = time.monotonic()
            self._back.set()
            log.info("Redis reached: this process (%s) coordinates with the others", self.node)
        elif not up and self.up:
            log.error("Redis is unreachable (%s): inputs are refused until it is back", why)
            self._back.clear()
            if not pool_busy(why):
                self._outages += 1
                self._drop_idle()
        self.up = up

    def back_within(self, ms: int) -> bool:
        """Whether Redis came back less than ``ms`` ago (its leases' owners renew them first)."""
        return time.monotonic() - self.up_since < ms / 1000

    def restarted_within(self, ms: int) -> bool:
        """Whether this process saw Redis restart less than ``ms`` ago (a lease missing then
        may be one that Redis lost, which its owner takes back at its next renewal)."""
        return time.monotonic() - self.restarted_at < ms / 1000

    def _drop_idle(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        pool = self.redis.connection_pool

        async def drop() -> None:
            with contextlib.suppress(*REDIS_ERRORS):
                await pool.disconnect(inuse_connections=False)

        task = loop.create_task(drop())
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)

    async def _check_restart(self) -> None:
        # Redis's run id changes when it restarts (and then, without persistence, every
        # lease is gone: their owners take them back at their next renewal).
        with contextlib.suppress(*REDIS_ERRORS, KeyError):
            run_id = str((await self.redis.info("server"))["run_id"])
            if self.run_id and run_id != self.run_id:
                self.restarted_at = time.monotonic()
                log.warning("Redis restarted: the tables' owners take their leases back")
            self.run_id = run_id

    async def start(self, wait_s: float = 3.0) -> None:
        """Start listening and sending; waits up to ``wait_s`` for the subscription."""
        self._tasks = [
            asyncio.create_task(self._listen_forever(), name="bus-listen"),
            asyncio.create_task(self._send_forever(), name="bus-send"),
        ]
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_s):
                await self._subscribed.wait()

    async def close(self) -> None:
        """Stop (what is still queued is dropped) and close the Redis client."""
        await stop_tasks(self._tasks)
        with contextlib.suppress(*REDIS_ERRORS):
            await self.redis.aclose()

    def post(self, node: str, msg: dict[str, Any], on_fail: Failed | None = None) -> None:
        """Queue ``msg`` for ``node`` (sent in order with everything queued before)."""
        self._queue.put_nowait((node, msg, on_fail))

    async def publish(self, node: str, msg: dict[str, Any]) -> int:
        """Send ``msg`` to ``node`` now; how many processes received it (0: ``node`` is gone).
        Raises ``RedisError`` or ``OSError`` if Redis cannot be reached."""
        try:
            received = int(await self.redis.publish(self.channel(node), encode(msg)))
        except REDIS_ERRORS as exc:
            self.mark(False, exc)
            raise
        self.mark(True)
        return received

    async def alive(self, nodes: list[str]) -> dict[str, bool]:
        """Which of ``nodes`` are listening (a process that died has no subscription left)."""
        if not nodes:
            return {}
        counts = await self.redis.pubsub_numsub(*(self.channel(n) for n in nodes))
        by_channel = {str(ch): int(n) for ch, n in counts}
        return {n: by_channel.get(self.channel(n), 0) > 0 for n in nodes}

    async def _send_forever(self) -> None:
        # Everything queued at this moment goes in one write to Redis: one PUBLISH per process
        # (its messages as one JSON array, in order), on a connection of its own kept for the
        # sender (a pooled pipeline per batch cost several times the messages themselves).
        conn: Any = None
        since = 0
        pool = self.redis.connection_pool
        try:
            while True:
                batch = [await self._queue.get()]
                while not self._queue.empty():
                    batch.append(self._queue.get_nowait())
                groups: dict[str, list[tuple[dict[str, Any], Failed | None]]] = {}
                for node, msg, on_fail in batch:
                    groups.setdefault(node, []).append((msg, on_fail))
                commands = [
                    ("PUBLISH", self.channel(node), encode([msg for msg, _ in items]))
                    for node, items in groups.items()
                ]
                try:
                    if conn is not None and since != self._outages:  # older than an outage
                        await conn.disconnect(nowait=True)
                        await pool.release(conn)
                        conn = None
                    if conn is None:
                        conn = await pool.get_connection()  # type: ignore[no-untyped-call]
                        since = self._outages
                    await conn.send_packed_command(conn.pack_commands(commands), False)
                    counts = [int(await conn.read_response()) for _ in commands]
                    self.mark(True)
                except REDIS_ERRORS as exc:
                    self.mark(False, exc)
                    counts = [0] * len(commands)
                    if conn is not None:
                        with contextlib.suppress(*REDIS_ERRORS):
                            await conn.disconnect(nowait=True)
                            await pool.release(conn)
                        conn = None
                for items, count in zip(groups.values(), counts, strict=True):
                    if count:
                        continue
                    for _, on_fail in items:
                        if on_fail is None:
                            continue
                        try:
                            on_fail(self.up)
                        except Exception:
                            log.exception("a failed message's handler failed")
        finally:
            if conn is not None:
                with contextlib.suppress(*REDIS_ERRORS):
                    await conn.disconnect(nowait=True)

    async def _listen_forever(self) -> None:
        backoff = 0.1
        listened = False
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.node))
                self._subscribed.set()
                await self._check_restart()
                if listened:  # messages sent while the subscription was gone are lost
                    self.on_reset()
                listened = True
                backoff = 0.1
                while True:
                    found = await pubsub.get_message(timeout=1.0)
                    if found is None or found.get("type") != "message":
                        continue
                    try:
                        received = decode(found["data"])
                    except ValueError:
                        log.exception("a message from another process was not JSON")
                        continue
                    for msg in received if isinstance(received, list) else [received]:
                        try:
                            self.on_message(msg)
                        except Exception:
                            log.exception("a message from another process could not be handled")
            except REDIS_ERRORS as exc:
                self.mark(False, exc)
            finally:
                with contextlib.suppress(*REDIS_ERRORS):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            pause = backoff * (0.5 + random.random())
            if self.up:
                await asyncio.sleep(pause)
            else:  # Redis is away: wait, or stop waiting as soon as it answers again
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(pause):
                        await self._back.wait()
            backoff = min(2.0, backoff * 2)
