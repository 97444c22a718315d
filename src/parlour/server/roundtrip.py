"""Round trips of a real-time table's connections, measured where a client cannot stretch them
(N9): the server's probes (``ping``, answered by ``pong``) and the kernel's minimum round trip.

An answer still missing when the next probe goes out counts as a round trip of 0 (no credit), and
comes too late to count afterwards; the probes' estimate is bounded by the kernel's minimum round
trip of the connection where the server can see its socket (:mod:`parlour.server.netinfo`).
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING

from parlour.core.race import measured_rtt
from parlour.server.netinfo import tcp_rtt_ms
from parlour.server.protocol import ProtocolError
from parlour.server.settings import Settings

if TYPE_CHECKING:
    from parlour.server.rooms import Connection

RTT_GAIN = 0.125
"""Weight of a new round-trip sample in the smoothed value (as TCP's SRTT)."""


NONCE_FROM, NONCE_SPAN = 2**32, 2**52 - 2**33
"""Probes' nonces start at random in [2^32, 2^52 - 2^32): whole numbers a browser's JSON reads
exactly."""


class RoundTrips:
    """The smoothed probe round trip of each seat of one table, and the probes in flight."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rtt: dict[int, float] = {}
        """Per seat: the probes' smoothed round trip (wall ms)."""
        self._nonce = secrets.randbelow(NONCE_SPAN) + NONCE_FROM
        """The last probe's nonce: they count up from a random start, so that no client can
        guess the next one (or answer a probe it never got with a number of its own)."""

    def kernel(self, conns: list[Connection]) -> float | None:
        """The kernel's minimum round trip (wall ms) of the slowest of ``conns``; ``None`` if
        one of them has no readable socket (or ``settings.rtt_kernel`` is off)."""
        if not self.settings.rtt_kernel:
            return None
        found = []
        for c in conns:
            # a socket another server process holds: the kernel's round trip measured there
            measured = c.relay.kernel_ms if c.relay is not None else tcp_rtt_ms(c.sock)
            if measured is None:
                return None
            found.append(measured[0])
        return max(found, default=None)

    def measured(self, seat: int, conns: list[Connection]) -> float:
        """N9: the seat's round trip (wall ms) over ``conns`` (its connections, or the one an
        input came over): the probes' estimate bounded by the kernel's
        (:func:`parlour.core.race.measured_rtt`)."""
        return measured_rtt(self.rtt.get(seat), self.kernel(conns), self.settings.rtt_default_ms)

    def ping(self, conn: Connection, state_id: int) -> None:
        """Send a probe over ``conn`` (a seat's)."""
        if conn.pings:  # unanswered since the last probe: missed
            conn.late.update(conn.pings)
            conn.pings.clear()
            while len(conn.late) > 8:
                conn.late.discard(min(conn.late))
            if conn.seat is not None:
                self.sample(conn.seat, 0.0)
        self._nonce += 1
        conn.pings[self._nonce] = time.monotonic()
        conn.send({"v": 1, "type": "ping", "state_id": state_id, "nonce": self._nonce})

    def pong(self, conn: Connection, nonce: int) -> None:
        """The answer to probe ``nonce``. Raises :class:`ProtocolError` ``bad_message`` for a
        nonce no probe is waiting for (a late answer to a missed one is dropped)."""
        sent = conn.pings.pop(nonce, None)
        if sent is None:
            if nonce in conn.late:  # counted as missed already: no credit for a late answer
                conn.late.discard(nonce)
                return
            raise ProtocolError("bad_message", "no ping with that nonce is waiting")
        if conn.seat is not None:
            # Where another process holds the socket, it timed the probe (from its own send to
            # the answer's arrival: the hops between the processes are not the player's).
            there = conn.relay.rtts.pop(nonce, None) if conn.relay is not None else None
            self.sample(conn.seat, there if there is not None else (time.monotonic() - sent) * 1000)

    def sample(self, seat: int, sample: float) -> None:
        """Smooth a new round-trip sample of ``seat`` into its estimate."""
        old = self.rtt.get(seat)
        self.rtt[seat] = sample if old is None else old + RTT_GAIN * (sample - old)
