"""A WebSocket held by one process for a table another process owns (many processes:
``parlour.server.cluster``).

The process holding the browser's socket runs a :class:`Relay`: it forwards what the browser
sends to the owner and writes to the socket what the owner sends for that connection. The owner
runs the very same socket handler as for its own sockets (``serve_socket``) on a
:class:`RemoteSocket`, so hello, seat tokens, rate limits, refusals and the per-seat views are
exactly those of one process: the owner only ever sends a connection what its seat may see.

Round trips (N9) stay per connection and are measured where the socket is: the relay notes when
it passed on each of the owner's ``ping`` probes and sends the measured round trip (and the
kernel's, of its socket) with the browser's ``pong``; the owner credits that, never the hops
between the processes. A ``play``'s arrival is passed on as the wall time it came in, so the
owner dates it from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from parlour.server.netinfo import connection_socket, tcp_rtt_ms
from parlour.server.protocol import CODES, decode, encode, error

if TYPE_CHECKING:
    from parlour.server.cluster import ClusterHub

STATE_ID = re.compile(r'"state_id":(\d+)')
MOVED = 1012
"""The close code that sends a browser back (it reconnects and reaches the table's owner)."""


class Relay:
    """A browser's socket here, for a table owned by process ``owner`` (see the module
    docstring). ``lease``: the owner's lease as it was when the relay opened; once it changes
    (the owner died or lost the table) the socket is closed with :data:`MOVED`."""

    def __init__(
        self, hub: ClusterHub, websocket: WebSocket, cid: str, table_id: str, owner: str, lease: str
    ) -> None:
        self.hub = hub
        self.websocket = websocket
        self.cid = cid
        self.table_id = table_id
        self.owner = owner
        self.lease = lease
        self.pings: dict[int, float] = {}
        self.state_id = 0
        self._out: asyncio.Queue[str | int | None] = asyncio.Queue()
        self._sock: Any = None

    # ------------------------------------------------------------------ from the owner

    def deliver(self, text: str) -> None:
        """A message of the owner's for this connection."""
        if '"type":"ping"' in text:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                self.pings[int(decode(text)["nonce"])] = time.monotonic()
                while len(self.pings) > 16:
                    del self.pings[min(self.pings)]
        found = STATE_ID.search(text)
        if found:
            self.state_id = int(found[1])
        self._out.put_nowait(text)

    def end(self, code: int = MOVED) -> None:
        """Close the browser's socket with ``code`` (after what is queued)."""
        self._out.put_nowait(code)

    def failed(self, redis_up: bool) -> None:
        """A message to the owner reached nobody: the owner is gone (the browser reconnects
        and reaches whoever takes the table over), or Redis is down (the input is refused)."""
        if redis_up:
            self.end(MOVED)
        else:
            msg = error("unavailable", self.state_id, CODES["unavailable"])
            self._out.put_nowait(encode(msg))

    def _not_opened(self, redis_up: bool) -> None:
        # The owner never heard of this connection: it is gone (the browser reconnects and
        # reaches whoever takes the table over), or Redis is down (try again later).
        if redis_up:
            self.end(MOVED)
        else:
            self.failed(False)
            self.end(1013)

    # ------------------------------------------------------------------ the browser's side

    async def run(self) -> None:
        """Serve the socket until it closes."""
        websocket = self.websocket
        await websocket.accept()
        self._sock = connection_socket(websocket.scope)
        writer = asyncio.create_task(self._write())
        bus = self.hub.bus
        hello = {"k": "open", "c": self.cid, "t": self.table_id, "from": bus.node}
        try:
            # queued with everything else for the owner (one write a batch, in order: before
            # the browser's own messages), not a Redis command of its own
            bus.post(self.owner, hello, self._not_opened)
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    text = (msg.get("bytes") or b"").decode("utf-8", "replace")
                forward: dict[str, Any] = {"k": "in", "c": self.cid, "x": text, "at": time.time()}
                if '"pong"' in text:
                    self._measure(text, forward)
                bus.post(self.owner, forward, self.failed)
        finally:
            bus.post(self.owner, {"k": "close", "c": self.cid})
            self._out.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer

    def _measure(self, text: str, forward: dict[str, Any]) -> None:
        # A pong: the round trip from passing on the ping to now, and the kernel's.
        with contextlib.suppress(ValueError, KeyError, TypeError):
            nonce = int(decode(text)["nonce"])
            sent = self.pings.pop(nonce, None)
            if sent is not None:
                forward["n"] = nonce
                forward["rtt"] = (time.monotonic() - sent) * 1000
        kernel = tcp_rtt_ms(self._sock)
        if kernel is not None:
            forward["kr"] = list(kernel)

    async def _write(self) -> None:
        while (item := await self._out.get()) is not None:
            with contextlib.suppress(Exception):
                if isinstance(item, int):
                    await self.websocket.close(code=item)
                    return
                await self.websocket.send_text(item)


class RemoteSocket:
    """The owner's side of a relayed connection: looks like a Starlette ``WebSocket`` to
    ``serve_socket`` (``accept``, ``receive``, ``send_text``, ``close``, ``path_params``,
    ``scope``), and is the connection's ``relay`` (its round trips measured where the socket
    is: ``rtts`` by probe nonce, ``kernel_ms``)."""

    def __init__(self, hub: ClusterHub, node: str, cid: str, table_id: str) -> None:
        self.hub = hub
        self.node = node
        self.cid = cid
        self.path_params = {"table_id": table_id}
        self.scope: dict[str, Any] = {"type": "websocket", "path_params": self.path_params}
        self.relay = self
        self.rtts: dict[int, float] = {}
        self.kernel_ms: tuple[float, float] | None = None
        self.closed = False
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def put(self, msg: dict[str, Any]) -> None:
        """A message the browser sent (an ``in`` from the relay)."""
        if msg.get("rtt") is not None and msg.get("n") is not None:
            self.rtts[int(msg["n"])] = float(msg["rtt"])
            while len(self.rtts) > 16:
                del self.rtts[min(self.rtts)]
        if msg.get("kr"):
            self.kernel_ms = (float(msg["kr"][0]), float(msg["kr"][1]))
        # dated when it reached the relay (one machine's clock: exact; across machines: as
        # good as their clocks agree), never later than now
        received = time.monotonic() - max(0.0, time.time() - float(msg.get("at", time.time())))
        self._inbox.put_nowait(
            {"type": "websocket.receive", "text": msg["x"], "received": received}
        )

    def gone(self) -> None:
        """The browser left (or its relay is gone)."""
        self.closed = True
        self._inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    async def accept(self) -> None:
        """Accepted by the relay already."""

    async def receive(self) -> dict[str, Any]:
        """The browser's next message (``websocket.receive`` or ``websocket.disconnect``)."""
        return await self._inbox.get()

    async def send_text(self, text: str) -> None:
        """Send ``text`` to the browser (through its relay)."""
        if not self.closed:
            self.hub.send_out(self.node, self.cid, text)

    async def close(self, code: int = 1000) -> None:
        """Close the browser's socket with ``code``."""
        if not self.closed:
            self.hub.flush_out()
            self.hub.bus.post(self.node, {"k": "end", "c": self.cid, "code": code})
            self.gone()
