"""A header-read timeout for uvicorn's HTTP/1.1 protocol (h11).

uvicorn closes a kept-alive connection that stays silent, but it has no deadline for a request's
line and headers: a client that opens a connection and sends nothing, or half a request line and
then one byte now and then (slowloris), holds a socket (a file descriptor) for as long as it
likes. :func:`timed_h11` makes a subclass of uvicorn's ``H11Protocol`` that closes a connection
whose request line and headers have not all arrived ``timeout_s`` after the connection opened, or
after the previous response on a kept-alive connection. The body, the app's business, is not
covered (``parlour.server.app`` reads API bodies with the same deadline); neither is a WebSocket
once upgraded.
"""

from __future__ import annotations

import asyncio
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("parlour.server")


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's line and headers (see the
    module docstring); ``timeout_s`` is set by :func:`timed_h11`."""

    timeout_s: float = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.timeout_s, self._headers_overdue)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_overdue(self) -> None:
        # No request in progress (none whose headers arrived since the timer was armed, or the
        # last one answered): the client is dribbling, or silent; close the connection.
        self._header_timer = None
        busy = self.cycle is not None and not self.cycle.response_complete
        if not busy and not self.transport.is_closing():
            log.debug(
                "closing %s: no complete request headers in %s s", self.client, self.timeout_s
            )
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a request's headers have arrived
            self._disarm()

    def on_response_complete(self) -> None:
        # The next request on this kept-alive connection has the same deadline (armed before
        # uvicorn handles any pipelined request, which disarms it again).
        if not self.transport.is_closing():
            self._arm()
        super().on_response_complete()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def timed_h11(timeout_s: float) -> type[TimedH11Protocol]:
    """A :class:`TimedH11Protocol` class whose deadline is ``timeout_s`` seconds (uvicorn takes
    a protocol class, and builds one instance per connection)."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"timeout_s": timeout_s})
