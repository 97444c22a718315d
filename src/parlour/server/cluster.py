"""Many server processes sharing one database and one Redis (``parlour serve --redis URL``).

Any process accepts any connection; each table has exactly one *owner* process, the one that
holds its **lease** in Redis (``<prefix>lease:<table>`` = ``<node>:<token>``, set with NX and
an expiry of ``lease_ms``, renewed every ``renew_ms``). Taking a lease draws a **fencing
token** (``INCR <prefix>fence:<table>``, never below Redis's clock in ms, so that it still grows
after Redis lost its data), and every store write of the table carries it
(``store.write(ops, fence=(table, token))``): the store refuses a token lower than the highest it
has seen (``StaleFence``). A new owner registers its token with the store *before* it reads the
table's log, so an old owner that was paused (or cut off) and comes back can never write again:
its input is refused (``unavailable``), never acknowledged, and it drops the table.

- A table is owned by the process that creates it. A connection reaching another process is
  relayed to the owner (:mod:`parlour.server.relay`, over :mod:`parlour.server.bus`): the owner
  runs the connection as its own and sends it its seat's messages only; the holding process
  writes them to its socket. ``POST /api/tables/{id}/join`` at another process is forwarded too.
- **Failover**: when the owner dies its lease lapses after ``lease_ms``. The relays of its
  tables notice (their messages reach nobody, or the periodic check finds the owner gone) and
  close their sockets (code 1012); browsers reconnect, and the process they reach takes the
  lease as soon as it lapses, rebuilds the table from the store's log and carries on. Every
  process also looks for unfinished tables whose lease lapsed every ``lease_ms`` and takes
  them. A real-time table's clock does not run while it has no owner (a rebuilt table resumes
  its clock where its log ends, once a person is back).
- **Redis down**: inputs are refused with ``unavailable`` (nothing is applied), pages and the
  API keep answering; when Redis is back each owner takes its leases again (or loses a table to
  a process that took it first), relayed sockets are reset (browsers reconnect) and play
  continues.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any

from parlour.server.bots import BotRunner
from parlour.server.bus import REDIS_ERRORS, Bus, connect
from parlour.server.hub import Hub, room_for
from parlour.server.leases import ACQUIRE, RELEASE, RENEW, Lease, node_of, retry_in
from parlour.server.protocol import Moved, ProtocolError
from parlour.server.relay import MOVED, Relay, RemoteSocket
from parlour.server.rooms import Room
from parlour.server.settings import Settings
from parlour.server.tasks import stop_tasks
from parlour.store import STORAGE_ERRORS, Fence, Op, StaleFence, Store

log = logging.getLogger("parlour.server")

REDIS_DOWN = (
    "Redis is unreachable, so the servers cannot agree who plays this table: the move was not "
    "played; it will work again as soon as Redis is back"
)
MOVED_AWAY = "this table is now played by another server process: reconnecting"


class RemoteRoom(Room):
    """A table owned by another process, read from the store: it answers ``GET`` requests and
    forwards ``join`` to the owner. Never run, never registered."""

    owner = ""

    async def join(self, name: str) -> tuple[int, str]:
        hub = self.hub
        assert isinstance(hub, ClusterHub)
        answer = await hub.call(self.owner, "join", self.table_id, {"name": name})
        return int(answer["seat"]), str(answer["token"])


class ClusterHub(Hub):
    """The hub of one of many processes (see the module docstring). ``serve``: the socket
    handler (``parlour.server.app.serve_socket``), run for connections relayed here."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        bots: BotRunner,
        serve: Callable[[Any, Hub, Settings], Coroutine[Any, Any, None]],
    ) -> None:
        super().__init__(settings, store, bots)
        self.serve = serve
        self.node = secrets.token_hex(6)
        self.redis = connect(settings.redis)
        self.bus = Bus(self.redis, settings.redis_prefix, self.node, self._on_message,
                       self._on_reset)  # fmt: skip
        self.leases: dict[str, Lease] = {}
        self.relays: dict[str, Relay] = {}
        """Sockets held here for tables owned elsewhere, by connection id."""
        self.remotes: dict[str, RemoteSocket] = {}
        """Sockets held elsewhere for tables owned here, by connection id."""
        self._pending: dict[str, asyncio.Task[None]] = {}
        """Take-overs in progress, by table."""
        self._handing: dict[str, asyncio.Future[None]] = {}
        """Tables being handed over (their lease being given back), by table."""
        self._claims: dict[str, float] = {}
        """New tables being stored, by table: when their lease was taken (``time.monotonic()``)."""
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        self._outbox: dict[str, list[tuple[str, str]]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._acquire = self.redis.register_script(ACQUIRE)
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self.took_over = 0
        """Tables this process took over from a lapsed lease."""
        self.handed_over = 0
        """Tables this process gave up to another that asked (``tables_follow``)."""

    def key(self, kind: str, table_id: str) -> str:
        return f"{self.settings.redis_prefix}{kind}:{table_id}"

    # ------------------------------------------------------------------ life cycle

    async def open(self) -> int:
        """Join the cluster: listen, then take the unfinished tables nobody holds."""
        await self.bus.start()
        with contextlib.suppress(*REDIS_ERRORS):
            await self.redis.ping()
            self.bus.mark(True)
        self.start_tasks()
        self._tasks = [
            asyncio.create_task(self._keep_forever(), name="leases"),
            asyncio.create_task(self._adopt_forever(), name="adopt"),
        ]
        with contextlib.suppress(*REDIS_ERRORS):
            await self.adopt_lapsed()
        return len(self.rooms)

    async def close(self) -> None:
        """Stop every room, give back every lease (others take the tables at once) and leave."""
        await stop_tasks(self._tasks)
        await super().close()
        for table_id, lease in list(self.leases.items()):
            with contextlib.suppress(*REDIS_ERRORS):
                await self._release(keys=[self.key("lease", table_id)], args=[lease.value])
        self.leases.clear()
        for relay in list(self.relays.values()):
            relay.end(MOVED)
        await self.bus.close()

    def health(self) -> dict[str, Any]:
        return {
            **super().health(),
            "cluster": {"node": self.node, "redis": self.bus.up, "owned": len(self.leases),
                        "relayed_here": len(self.relays), "relayed_to_here": len(self.remotes),
                        "took_over": self.took_over, "handed_over": self.handed_over},
        }  # fmt: skip

    # ------------------------------------------------------------------ fenced writes

    def fence(self, table_id: str) -> Fence | None:
        lease = self.leases.get(table_id)
        if lease is None:
            raise Moved(MOVED_AWAY)
        if not self.bus.up:
            raise ProtocolError("unavailable", REDIS_DOWN)
        return (table_id, lease.token)

    def can_write(self, table_id: str) -> bool:
        return self.bus.up and table_id in self.leases

    async def write(self, table_id: str, ops: list[Op]) -> None:
        try:
            await super().write(table_id, ops)
        except StaleFence as exc:
            log.warning("stale fence: %s; this process gives the table up", exc)
            self.lose(table_id)
            raise Moved(MOVED_AWAY) from None

    def submit(self, table_id: str, ops: list[Op]) -> Future[None]:
        try:
            written = super().submit(table_id, ops)
        except ProtocolError as exc:
            failed: Future[None] = Future()
            failed.set_exception(exc)
            return failed
        loop = asyncio.get_running_loop()

        def check(future: Future[None]) -> None:
            if isinstance(future.exception(), StaleFence):
                loop.call_soon_threadsafe(self.lose, table_id)

        written.add_done_callback(check)
        return written

    async def claim(self, table_id: str) -> None:
        """A new table is owned by the process creating it."""
        try:
            got, value, *_ = await self._acquire(
                keys=[self.key("lease", table_id), self.key("fence", table_id)],
                args=[self.node, self.settings.lease_ms],
            )
        except REDIS_ERRORS as exc:
            self.bus.mark(False, exc)
            raise ProtocolError("unavailable", REDIS_DOWN) from None
        self.bus.mark(True)
        if not got:
            raise ProtocolError("unavailable", "that table id is taken; try again")
        self.leases[table_id] = Lease(str(value))
        self._claims[table_id] = time.monotonic()

    async def create(self, *args: Any, **kwargs: Any) -> tuple[Room, str]:
        room, token = await super().create(*args, **kwargs)
        self._claims.pop(room.table_id, None)
        return room, token

    def lose(self, table_id: str) -> None:
        """This process no longer owns ``table_id``: drop its room and send its browsers away
        (they reconnect and reach the new owner)."""
        self.leases.pop(table_id, None)
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        room.cancel()
        for conn in list(room.conns):
            conn.kick()
        log.warning("table %s: this process lost its lease; its browsers reconnect", table_id)

    # ------------------------------------------------------------------ finding a table's owner

    async def get(self, table_id: str) -> Room:
        """The room if this process owns the table (taking it if nobody does), else a
        :class:`RemoteRoom` read from the store (also while Redis is unreachable)."""
        if table_id in self.rooms:
            return self.rooms[table_id]
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 40:
            raise KeyError(table_id)
        try:
            owner = await self.owner_of(table_id)
        except ProtocolError:
            owner = ""
        if owner is None:
            return self.rooms[table_id]
        table, hashes = await asyncio.to_thread(self._table_from_store, table_id)
        room = RemoteRoom(self, table, hashes)
        room.owner = owner
        return room

    async def owner_of(self, table_id: str) -> str | None:
        """The process owning ``table_id`` (its node id), or ``None`` once this one does (it
        takes the lease if it is free, or as soon as it lapses if its holder is gone).

        Raises ``KeyError`` for an unknown table (``TableExpired``), a storage error, and
        :class:`ProtocolError` ``unavailable`` while Redis cannot be reached.
        """
        try:
            for _ in range(3):
                if table_id in self.rooms:
                    return None
                value = await self._lease_of(table_id)
                self.bus.mark(True)
                while value is None and self.bus.restarted_within(2 * self.settings.renew_ms):
                    # Redis lost it: its owner takes it back at its next renewal
                    await asyncio.sleep(self.settings.renew_ms / 4000)
                    value = await self._lease_of(table_id)
                if value is not None:
                    node = node_of(value)
                    if node != self.node and (await self.bus.alive([node]))[node]:
                        return node
                    log.info("table %s: its owner %s is gone; waiting for its lease", table_id,
                             node)  # fmt: skip
                await self.take(table_id)
        except REDIS_ERRORS as exc:
            self.bus.mark(False, exc)
            raise ProtocolError("unavailable", REDIS_DOWN) from None
        if table_id in self.rooms:
            return None
        raise ProtocolError("unavailable", "the table is changing hands; try again")

    async def take(self, table_id: str, known: bool = False) -> None:
        """Take ``table_id`` over once its lease is free (waiting at most ``lease_ms`` for it to
        lapse while its holder is gone); rebuild it from the store and run it. Several callers
        share one attempt. ``known``: the table is known to exist (its owner just handed it
        over), so it need not be looked up before it is fenced."""
        task = self._pending.get(table_id)
        if task is None:
            task = self._pending[table_id] = asyncio.create_task(self._take(table_id, known))
            task.add_done_callback(lambda _: self._pending.pop(table_id, None))
        await asyncio.shield(task)

    async def _take(self, table_id: str, known: bool = False) -> None:
        deadline = time.monotonic() + self.settings.lease_ms / 1000 + 1
        keys = [self.key("lease", table_id), self.key("fence", table_id)]
        while True:
            got, value, *left = await self._acquire(
                keys=keys, args=[self.node, self.settings.lease_ms]
            )
            if got:
                break
            node = node_of(value)
            if node == self.node and table_id in self.rooms:
                return
            if (node != self.node and (await self.bus.alive([node]))[node]) or (
                time.monotonic() > deadline
            ):
                return  # held by a live process: it stays the owner
            await asyncio.sleep(retry_in(left, deadline))  # its holder is gone
        lease = self.leases[table_id] = Lease(str(value))
        try:
            if not known:  # it exists (else KeyError): fence it
                await asyncio.to_thread(self._stored, table_id)  # read, not replayed
            # From here on the previous owner can no longer write (its token is older) ...
            await self.store.write([], fence=(table_id, lease.token))
            # ... so the log read now holds everything it ever acknowledged.
            table, hashes = await asyncio.to_thread(self._table_from_store, table_id)
        except BaseException:
            self.leases.pop(table_id, None)
            with contextlib.suppress(*REDIS_ERRORS):
                await self._release(keys=[keys[0]], args=[lease.value])
            raise
        room = self.rooms[table_id] = room_for(self, table, hashes)
        room.run()
        if not room.finished:
            self.took_over += 1
            log.info("took table %s over (fencing token %s)", table_id, lease.token)

    async def _lease_of(self, table_id: str) -> str | None:
        value = await self.redis.get(self.key("lease", table_id))
        return None if value is None else str(value)

    async def relayed(self, websocket: Any) -> bool:
        table_id = websocket.path_params["table_id"]
        if table_id in self.rooms:
            return False
        try:
            owner = await self.owner_of(table_id)
            if owner is not None and self.settings.tables_follow:
                if await self._fetch(owner, table_id):
                    await self.take(table_id, known=True)
                owner = await self.owner_of(table_id)  # here if it came, else where it is now
        except KeyError:
            return False  # serve_socket says why
        except STORAGE_ERRORS:
            return False
        except ProtocolError as exc:
            await websocket.accept()
            with contextlib.suppress(Exception):
                await websocket.send_json({"v": 1, "type": "error", "state_id": 0,
                                           "code": exc.code, "message": exc.message})  # fmt: skip
                await websocket.close(code=1013)
            return True
        if owner is None:
            return False
        value = await self._lease_of(table_id) or ""
        cid = f"{self.node}.{next(self._ids)}"
        relay = self.relays[cid] = Relay(self, websocket, cid, table_id, owner, value)
        try:
            await relay.run()
        finally:
            self.relays.pop(cid, None)
        return True

    async def _fetch(self, owner: str, table_id: str) -> bool:
        """Ask ``owner`` to give ``table_id`` up for this process to take (a socket of it has
        reached this process); whether it did."""
        try:
            answer = await self.call(owner, "hand", table_id, {})
        except ProtocolError:
            return False
        return bool(answer.get("handed"))

    def moved(self, room: Room) -> bool:
        """Whether ``room`` was handed over (or lost) since it was got: a socket that was
        saying hello to it then is closed, and its browser reconnects to where it is now."""
        return self.rooms.get(room.table_id) is not room

    async def hand_over(self, table_id: str) -> bool:
        """Give ``table_id`` up (another process asked for it: see ``tables_follow``) if
        nobody is connected to it here or on the way (a relayed socket opening), it is not
        being created or taken over, and no input or write is under way; whether it did.

        The room is dropped and the lease given back before the answer: the asking process
        takes the lease with a new fencing token and rebuilds the table from the store, so a
        move is as safe as a take-over (a write of this process's still under way could only
        be refused).
        """
        if (handing := self._handing.get(table_id)) is not None:
            await asyncio.shield(handing)  # handed to another asker: this one looks again
            return False
        room = self.rooms.get(table_id)
        lease = self.leases.get(table_id)
        if (
            room is None
            or lease is None
            or room.conns
            or not room.settled
            or table_id in self._claims
            or table_id in self._pending
            or any(r.path_params["table_id"] == table_id for r in self.remotes.values())
        ):
            return False
        del self.rooms[table_id]
        del self.leases[table_id]
        room.cancel()
        self.handed_over += 1
        handing = self._handing[table_id] = asyncio.get_running_loop().create_future()
        try:
            with contextlib.suppress(*REDIS_ERRORS):  # else it lapses: the asker waits for it
                await self._release(keys=[self.key("lease", table_id)], args=[lease.value])
        finally:
            del self._handing[table_id]
            handing.set_result(None)
        log.info("table %s handed over (a socket of it reached another process)", table_id)
        return True

    # ------------------------------------------------------------------ messages

    def send_out(self, node: str, cid: str, text: str) -> None:
        """Queue ``text`` for connection ``cid`` held by ``node`` (sent with everything else for
        that process queued in this turn of the event loop)."""
        if not self._outbox:
            asyncio.get_running_loop().call_soon(self.flush_out)
        self._outbox.setdefault(node, []).append((cid, text))

    def flush_out(self) -> None:
        """Post what :meth:`send_out` queued, one message per process; a text sent to several
        of its connections (a seat's or the spectators' state: encoded once) goes once."""
        outbox, self._outbox = self._outbox, {}
        for node, items in outbox.items():
            texts: list[str] = []
            index: dict[int, int] = {}
            pairs = []
            for cid, text in items:
                at = index.setdefault(id(text), len(texts))
                if at == len(texts):
                    texts.append(text)
                pairs.append([cid, at])
            self.bus.post(node, {"k": "out", "t": texts, "m": pairs})

    def _on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("k")
        if kind == "out":
            texts = msg["t"]
            for cid, at in msg["m"]:
                if (relay := self.relays.get(cid)) is not None:
                    relay.deliver(texts[at])
        elif kind == "in":
            if (remote := self.remotes.get(msg["c"])) is not None:
                remote.put(msg)
        elif kind == "open":
            self._open(msg["from"], msg["c"], msg["t"])
        elif kind == "close":
            if (remote := self.remotes.pop(msg["c"], None)) is not None:
                remote.gone()
        elif kind == "end":
            if (relay := self.relays.get(msg["c"])) is not None:
                relay.end(int(msg.get("code", MOVED)))
        elif kind == "rpc":
            task = asyncio.create_task(self._answer(msg))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)
        elif kind == "re":
            call = self._calls.pop(msg["id"], None)
            if call is not None and not call.done():
                call.set_result(msg)

    def _open(self, node: str, cid: str, table_id: str) -> None:
        if table_id not in self.rooms:  # not ours (any more): the browser reconnects
            self.bus.post(node, {"k": "end", "c": cid, "code": MOVED})
            return
        remote = self.remotes[cid] = RemoteSocket(self, node, cid, table_id)
        task = asyncio.create_task(self.serve(remote, self, self.settings), name=f"remote-{cid}")
        task.add_done_callback(lambda _: self.remotes.pop(cid, None))

    def _on_reset(self) -> None:
        # Messages were lost while the subscription was gone: every relayed connection starts
        # afresh (the browsers reconnect and get the whole state).
        log.warning("the link to Redis was reset: relayed connections reconnect")
        for relay in list(self.relays.values()):
            relay.end(MOVED)
        for remote in list(self.remotes.values()):
            remote.gone()
        self.remotes.clear()

    async def call(self, node: str, op: str, table_id: str, args: dict[str, Any]) -> Any:
        """Ask ``node`` (the owner) to do ``op`` at ``table_id``; its answer. Raises
        :class:`ProtocolError` (the owner's refusal, or ``unavailable``)."""
        rid = secrets.token_hex(8)
        answer = self._calls[rid] = asyncio.get_running_loop().create_future()

        def failed(up: bool) -> None:
            if not answer.done():
                # it reached nobody: not applied
                answer.set_exception(
                    Moved(MOVED_AWAY) if up else ProtocolError("unavailable", REDIS_DOWN)
                )

        msg = {"k": "rpc", "id": rid, "from": self.node, "op": op, "t": table_id, "a": args}
        self.bus.post(node, msg, failed)
        try:
            async with asyncio.timeout(5.0):
                found = await answer
        except TimeoutError:
            raise ProtocolError("unavailable", MOVED_AWAY) from None
        finally:
            self._calls.pop(rid, None)
        if "err" in found:
            code, text, *moved = found["err"]
            raise Moved(text) if moved and moved[0] else ProtocolError(code, text)
        return found["ok"]

    async def _answer(self, msg: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "re", "id": msg["id"]}
        room = self.rooms.get(msg["t"])
        try:
            if msg["op"] == "hand":
                reply["ok"] = {"handed": await self.hand_over(msg["t"])}
            elif room is None or msg["op"] != "join":
                raise Moved(MOVED_AWAY)
            else:
                seat, token = await room.join(msg["a"].get("name", "Guest"))
                reply["ok"] = {"seat": seat, "token": token}
        except ProtocolError as exc:
            reply["err"] = [exc.code, exc.message, isinstance(exc, Moved)]
        self.bus.post(msg["from"], reply)

    # ------------------------------------------------------------------ keeping leases

    async def _keep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.renew_ms / 1000)
            try:
                await self.keep()
            except REDIS_ERRORS as exc:
                self.bus.mark(False, exc)
            except Exception:
                log.exception("keeping the leases failed")

    async def keep(self) -> None:
        """Renew this process's leases (give back those of tables it dropped), close relays
        whose owner changed or died, and drop relayed connections whose process died."""
        await self.redis.ping()
        self.bus.mark(True)
        now = time.monotonic()
        for table_id, since in list(self._claims.items()):
            if now - since > 60:  # its creation failed
                del self._claims[table_id]
        busy = self._pending.keys() | self._claims.keys()
        for table_id in [t for t in self.leases if t not in self.rooms and t not in busy]:
            lease = self.leases.pop(table_id)  # a table it dropped (finished, expired)
            await self._release(keys=[self.key("lease", table_id)], args=[lease.value])
        for table_id in [t for t in self.rooms if t not in self.leases]:
            self.lose(table_id)  # never run a table without its lease
        owned = list(self.leases.items())
        for start in range(0, len(owned), 1000):
            chunk = owned[start : start + 1000]
            keys = [self.key(k, table_id) for table_id, _ in chunk for k in ("lease", "fence")]
            args: list[str | int] = [self.settings.lease_ms, *(lease.value for _, lease in chunk)]
            results = await self._renew(keys=keys, args=args)
            for (table_id, lease), result in zip(chunk, results, strict=True):
                if not result and self.leases.get(table_id) is lease:
                    self.lose(table_id)
        relays = list(self.relays.values())
        if relays:
            tables = sorted({r.table_id for r in relays})
            values = await self.redis.mget([self.key("lease", t) for t in tables])
            leases = dict(zip(tables, values, strict=True))
            alive = await self.bus.alive(sorted({r.owner for r in relays}))
            for relay in relays:
                if leases[relay.table_id] != relay.lease or not alive[relay.owner]:
                    relay.end(MOVED)
        holders = await self.bus.alive(sorted({r.node for r in self.remotes.values()}))
        for cid, remote in list(self.remotes.items()):
            if not holders.get(remote.node, True):
                del self.remotes[cid]
                remote.gone()

    async def _adopt_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.lease_ms / 1000)
            try:
                await self.adopt_lapsed()
            except REDIS_ERRORS as exc:
                self.bus.mark(False, exc)
            except Exception:
                log.exception("looking for tables without an owner failed")

    async def adopt_lapsed(self) -> int:
        """Take over every unfinished table whose lease is free; returns how many. Not in the
        first ``lease_ms`` after Redis came back (their owners take their leases back first)."""
        if not self.bus.up or self.bus.back_within(self.settings.lease_ms):
            return 0
        ids = await asyncio.to_thread(self.store.unfinished)
        ids = [t for t in ids if t not in self.rooms and t not in self._pending]
        taken = 0
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            values = await self.redis.mget([self.key("lease", t) for t in chunk])
            for table_id, value in zip(chunk, values, strict=True):
                if value is None and table_id not in self.rooms:
                    with contextlib.suppress(KeyError, ProtocolError, *STORAGE_ERRORS):
                        await self.take(table_id)
                        taken += table_id in self.rooms
        return taken
