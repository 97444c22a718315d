"""Limits that need a real server on 127.0.0.1 (uvicorn, as ``parlour serve`` runs it): request
bodies refused without being read, a header-read timeout against slow clients, the fixed hello
deadline, the spectator cap. Every socket read here has a deadline."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from parlour.server.settings import Settings
from tests.server.live import LiveServer, post

READ_S = 5.0
"""The longest any read here waits."""

ENV = {
    "PARLOUR_REQUEST_TIMEOUT_S": "1.0",
    "PARLOUR_HELLO_TIMEOUT_S": "1.0",
    "PARLOUR_MAX_SPECTATORS": "3",
    "PARLOUR_NEW_TABLES_BURST": "1000",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module: request timeout and hello deadline 1 s, 3 spectators."""
    db: Path = tmp_path_factory.mktemp("net") / "parlour.db"
    with LiveServer(db, ENV) as live:
        yield live


def raw(server: LiveServer) -> socket.socket:
    """A plain TCP connection to the server; every read times out after :data:`READ_S`."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=READ_S)
    sock.settimeout(READ_S)
    return sock


def read_until_closed(sock: socket.socket, limit_s: float = READ_S) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took;
    raises ``TimeoutError`` (a test failure) if it is still open after ``limit_s``."""
    start = time.monotonic()
    data = b""
    while True:
        left = limit_s - (time.monotonic() - start)
        if left <= 0:
            raise TimeoutError(f"still open after {limit_s} s; got {data[:200]!r}")
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        except TimeoutError:
            raise TimeoutError(f"still open after {limit_s} s; got {data[:200]!r}") from None
        if not chunk:
            return data, time.monotonic() - start
        data += chunk


def answer_of(data: bytes) -> tuple[int, dict[str, str], Any]:
    """Status, headers and JSON body of one HTTP/1.1 response (``Content-Length`` bodies)."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    headers = {k.lower(): v for k, v in headers.items()}
    length = int(headers.get("content-length", len(body)))
    return int(lines[0].split(" ")[1]), headers, json.loads(body[:length])


# ------------------------------------------------------------------------- request bodies


def test_a_huge_content_length_is_refused_before_the_body(server: LiveServer) -> None:
    with raw(server) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n" + b"{" * 1000
        )  # 1 KB of the promised 300 MB, then nothing
        data, took = read_until_closed(sock)
    status, headers, body = answer_of(data)
    assert took < 2.0  # at once, not after waiting for the body
    assert status == 413 and body["code"] == "message_too_large", data[:300]
    assert "4096 bytes" in body["message"] and headers.get("connection") == "close"


def test_a_chunked_body_is_cut_off_at_the_limit(server: LiveServer) -> None:
    with raw(server) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        for _ in range(3):  # 6 KB in 2 KB chunks, and the body never ends
            sock.sendall(b"800\r\n" + b" " * 2048 + b"\r\n")
        data, _ = read_until_closed(sock)
    status, _, body = answer_of(data)
    assert status == 413 and body["code"] == "message_too_large", data[:300]


def test_a_slow_body_times_out(server: LiveServer) -> None:
    with raw(server) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        data, took = read_until_closed(sock)
    status, _, body = answer_of(data)
    assert status == 408 and body["code"] == "request_timeout", data[:300]
    assert 0.8 <= took <= 3.0


def test_small_bodies_still_work(server: LiveServer) -> None:
    made = post(f"{server.url}/api/tables", {"seats": [{"kind": "bot", "level": "easy"}]})
    assert made["seat"] == 0 and made["token"]


# ------------------------------------------------------------------------- slow clients


def test_a_half_sent_request_line_is_closed_within_the_timeout(server: LiveServer) -> None:
    socks = [raw(server) for _ in range(20)]
    try:
        for sock in socks:
            sock.sendall(b"GET / HT")  # and then nothing
        for sock in socks:
            _, took = read_until_closed(sock, limit_s=3.0)
            assert took <= 3.0
    finally:
        for sock in socks:
            sock.close()


def test_a_silent_connection_is_closed_within_the_timeout(server: LiveServer) -> None:
    with raw(server) as sock:
        data, took = read_until_closed(sock, limit_s=3.0)
    assert data == b"" and took >= 0.8


def test_a_kept_alive_connection_may_not_dribble_its_next_request(server: LiveServer) -> None:
    with raw(server) as sock:
        sock.sendall(b"GET /api/tables/nope HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(READ_S)
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 404"), first[:100]
        start = time.monotonic()
        for part in (b"GET / HTTP/1.1\r\n", b"Host: x\r\n", b"X-A: 1\r\n", b"X-B: 2\r\n"):
            time.sleep(0.4)  # each piece well within uvicorn's keep-alive timeout (5 s)
            try:
                sock.sendall(part)
            except OSError:
                break
        _, _ = read_until_closed(sock, limit_s=3.0)
        assert time.monotonic() - start <= 3.5


def test_requests_in_time_are_served(server: LiveServer) -> None:
    with raw(server) as sock:
        sock.sendall(b"GET /api/tables/nope HTTP/1.1\r\n")
        time.sleep(0.3)
        sock.sendall(b"Host: x\r\nConnection: close\r\n\r\n")
        data, _ = read_until_closed(sock)
    assert data.startswith(b"HTTP/1.1 404")


# ------------------------------------------------------------------------- before hello


def ws_open(server: LiveServer, table_id: str) -> ClientConnection:
    """A WebSocket to ``table_id``'s socket (opened within :data:`READ_S`)."""
    url = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
    return connect(url, open_timeout=READ_S, close_timeout=1, proxy=None)


def messages_until_closed(ws: ClientConnection, limit_s: float) -> tuple[list[Any], int | None]:
    """Every message until the server closes the socket, and its close code; fails if it is
    still open after ``limit_s``."""
    deadline = time.monotonic() + limit_s
    got: list[Any] = []
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"still open after {limit_s} s: {got[-3:]}"
        try:
            got.append(json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            raise AssertionError(f"still open after {limit_s} s: {got[-3:]}") from None
        except ConnectionClosed as closed:
            return got, closed.rcvd.code if closed.rcvd is not None else None


def a_table(server: LiveServer) -> dict[str, Any]:
    """A new SCOUT table with one open seat (the caller is its host)."""
    return post(f"{server.url}/api/tables", {"seats": [{"kind": "open"}]})


def test_messages_before_hello_do_not_extend_its_deadline(server: LiveServer) -> None:
    table = a_table(server)
    with ws_open(server, table["table_id"]) as ws:
        start = time.monotonic()
        closed_at = None
        while time.monotonic() - start < 3.0:  # a message every 0.2 s for 3 s, or until closed
            try:
                ws.send(json.dumps({"v": 1, "type": "ping"}))
            except ConnectionClosed:
                closed_at = time.monotonic() - start
                break
            time.sleep(0.2)
        got, code = messages_until_closed(ws, limit_s=2.0)
    assert code == 4408 and closed_at is not None and 0.8 <= closed_at <= 2.0, (code, closed_at)
    assert got and got[-1]["code"] == "hello_first"


def test_a_flood_before_hello_is_rate_limited_then_closed(server: LiveServer) -> None:
    table = a_table(server)
    with ws_open(server, table["table_id"]) as ws:
        for _ in range(200):
            try:
                ws.send(json.dumps({"v": 1, "type": "hello", "token": "not-the-token-1234"}))
            except ConnectionClosed:
                break
        got, code = messages_until_closed(ws, limit_s=3.0)
    assert all(m.get("type") == "error" for m in got), [m for m in got if "code" not in m][:3]
    codes = [m["code"] for m in got]
    # Closed by the flood limit (4429), or on a loaded machine by the hello deadline first (4408)
    assert code in (4429, 4408) and "rate_limited" in codes, (code, codes[-3:])
    if code == 4429:  # cut off before the flood ran out
        assert len(got) < 200
    else:  # the server read the flood slowly enough to refill a token now and then
        assert codes[-1] == "hello_first"


# ------------------------------------------------------------------------- spectators


def test_spectators_beyond_the_cap_are_refused(server: LiveServer) -> None:
    table = a_table(server)
    with contextlib.ExitStack() as stack:
        for _ in range(3):
            ws = stack.enter_context(ws_open(server, table["table_id"]))
            ws.send(json.dumps({"v": 1, "type": "hello", "watch": True}))
            assert json.loads(ws.recv(timeout=READ_S))["type"] == "welcome"
            assert json.loads(ws.recv(timeout=READ_S))["type"] == "state"
        with ws_open(server, table["table_id"]) as fourth:
            fourth.send(json.dumps({"v": 1, "type": "hello", "watch": True}))
            got, code = messages_until_closed(fourth, limit_s=READ_S)
        assert code == 4503 and [m["code"] for m in got] == ["too_many_spectators"]
        assert "3 spectators" in got[0]["message"]
        with ws_open(server, table["table_id"]) as host:  # people are never turned away
            host.send(json.dumps({"v": 1, "type": "hello", "token": table["token"]}))
            assert json.loads(host.recv(timeout=READ_S))["type"] == "welcome"
    time.sleep(0.3)  # the server sees them leave: room for a spectator again
    with ws_open(server, table["table_id"]) as again:
        again.send(json.dumps({"v": 1, "type": "hello", "watch": True}))
        assert json.loads(again.recv(timeout=READ_S))["type"] == "welcome"


def test_x_forwarded_for_is_believed_only_from_trusted_proxies() -> None:
    from parlour.server.run import uvicorn_options

    plain = uvicorn_options(Settings())  # uvicorn alone would believe it from 127.0.0.1
    assert plain["proxy_headers"] is False
    behind = uvicorn_options(Settings(trusted_proxies="10.0.0.1, 10.0.0.2"))
    assert behind["proxy_headers"] is True
    assert behind["forwarded_allow_ips"] == ["10.0.0.1", "10.0.0.2"]
