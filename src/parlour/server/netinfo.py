"""What the kernel knows about a connection's round trip (N9), read where a client cannot stretch
it.

A browser's ``pong`` timing is the client's to choose: a client that answers late looks like a
slow link and would be credited with a larger allowance. The kernel's TCP state is not: Linux
keeps, per connection, the smallest round trip it has seen (``tcpi_min_rtt``, from the
acknowledgements the peer's kernel sends). A client can raise the smoothed estimate
(``tcpi_rtt``) by answering late — its kernel then delays the acknowledgement to carry it with
the late answer — but not the minimum, short of delaying every acknowledgement in its kernel.

Under uvicorn the ASGI scope carries no socket; :func:`connection_socket` finds it among the
running server's connections (``app.state.uvicorn_server``, set by ``parlour serve``). Anywhere
else (Starlette's TestClient, another server) there is none, and only the server-timed probes
bound a seat's allowance.
"""

from __future__ import annotations

import socket
import struct
import sys
from collections.abc import Mapping
from typing import Any

TCP_INFO_BYTES = 152
"""How much of ``struct tcp_info`` is read (up to and including ``tcpi_min_rtt``)."""
RTT_OFFSET = 68
"""Byte offset of ``tcpi_rtt`` (u32, µs) in Linux's ``struct tcp_info``; ``tcpi_rttvar``
follows."""
MIN_RTT_OFFSET = 148
"""Byte offset of ``tcpi_min_rtt`` (u32, µs; Linux 4.6 and later)."""


def tcp_rtt_ms(sock: Any) -> tuple[float, float] | None:
    """The kernel's ``(minimum, smoothed)`` round trip of a TCP connection in milliseconds, or
    ``None`` where it cannot be read (not Linux, not TCP, a closed socket). A minimum of 0 (no
    sample yet) is reported as the smoothed value."""
    if sock is None or not sys.platform.startswith("linux"):
        return None
    try:
        raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_BYTES)
    except (OSError, AttributeError, ValueError):
        return None
    if len(raw) < RTT_OFFSET + 4:
        return None
    (srtt,) = struct.unpack_from("I", raw, RTT_OFFSET)
    low = srtt
    if len(raw) >= MIN_RTT_OFFSET + 4:
        (found,) = struct.unpack_from("I", raw, MIN_RTT_OFFSET)
        if 0 < found < 0xFFFFFFFF:
            low = min(found, srtt) if srtt else found
    if not srtt and not low:
        return None
    return low / 1000, srtt / 1000


def connection_socket(scope: Mapping[str, Any]) -> Any:
    """The socket of the connection serving the ASGI ``scope`` (a WebSocket), or ``None``.

    Looks through the running uvicorn server's connections (``scope["app"].state
    .uvicorn_server``) for the protocol serving this very scope, or else one whose peer is
    ``scope["client"]``.
    """
    app = scope.get("app")
    server = getattr(getattr(app, "state", None), "uvicorn_server", None)
    state = getattr(server, "server_state", None)
    connections = getattr(state, "connections", None)
    if not connections:
        return None
    protos = list(connections)
    for proto in protos:  # one attribute each: a server holds thousands of connections
        if getattr(proto, "scope", None) is scope:
            transport = getattr(proto, "transport", None)
            return None if transport is None else transport.get_extra_info("socket")
    client = scope.get("client")
    if not client:
        return None
    client = tuple(client)
    for proto in protos:
        transport = getattr(proto, "transport", None)
        if transport is None:
            continue
        peer = transport.get_extra_info("peername")
        if peer is not None and tuple(peer[:2]) == client:
            return transport.get_extra_info("socket")
    return None
