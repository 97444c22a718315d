"""Fixtures for the server tests: an app on a temporary database, driven by Starlette's
TestClient (HTTP and several WebSockets at once).

Every WebSocket read in the tests has a deadline. TestClient's own ``receive_json()`` waits
forever for a message that never comes (a test that did so once hung a CI run for 25 minutes),
so :func:`receive` and :func:`until` wait at most :data:`WAIT_S` seconds and then fail, saying
what they waited for and the last messages the socket brought; and :func:`bounded_reads` (on
for every test, see ``tests/conftest.py``) gives TestClient's own reads the same deadline.
"""

from __future__ import annotations

import collections
import contextlib
import inspect
import json
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import Message

from parlour.server import Settings, create_app
from tests.server.live import seed_of_this_test

Msg = dict[str, Any]

WAIT_S = 30.0
"""The longest a test waits for a WebSocket message (or, in :func:`until`, for the message it
wants) before it fails. Far above any legitimate wait, even on a busy machine: the slowest is
a real-time table's countdown or turn timer, a few seconds."""

_seen: weakref.WeakKeyDictionary[Any, collections.deque[str]] = weakref.WeakKeyDictionary()
"""The last few messages each socket brought (for failure messages)."""


def _note(ws: Any, raw: Message) -> None:
    text = raw.get("text") or raw.get("bytes") or raw.get("type", "")
    text = text if isinstance(text, str) else repr(text)
    _seen.setdefault(ws, collections.deque(maxlen=6)).append(text[:240])


def last_seen(ws: Any) -> str:
    """The last messages ``ws`` brought, oldest first, one a line (each cut at 240
    characters), or ``(none)``."""
    seen = _seen.get(ws)
    return "\n".join(f"  {text}" for text in seen) if seen else "  (none)"


async def _receive_within(stream: Any, seconds: float) -> Message:
    with anyio.fail_after(seconds):
        message: Message = await stream.receive()
        return message


def read(
    ws: WebSocketTestSession,
    seconds: float,
    awaiting: Callable[[], str],
    waited: float | None = None,
) -> Message:
    """The next raw ASGI message ``ws`` brings, within ``seconds``.

    Raises ``AssertionError`` naming ``awaiting()``, how long it waited in all (``waited``,
    by default ``seconds``) and the last messages seen when nothing comes in time. (It reads
    TestClient's queue on TestClient's own event loop, as its ``receive()`` does, but with a
    deadline; a read cut short loses no message.)
    """
    try:
        raw: Message = ws.portal.call(_receive_within, ws._send_rx, max(seconds, 0.0))
    except TimeoutError:
        raise AssertionError(
            f"nothing came within {seconds if waited is None else waited:g} s while waiting "
            f"for {awaiting()}; the last messages seen (oldest first):\n{last_seen(ws)}"
        ) from None
    _note(ws, raw)
    return raw


def _direct_read(self: WebSocketTestSession) -> Message:
    return read(self, WAIT_S, lambda: "a message (a direct receive on the socket)")


@contextlib.contextmanager
def bounded_reads() -> Iterator[None]:
    """While open, TestClient's own WebSocket reads (``ws.receive_json()`` and friends) wait
    at most :data:`WAIT_S` seconds, as :func:`read` does."""
    original = WebSocketTestSession.receive
    WebSocketTestSession.receive = _direct_read  # type: ignore[method-assign]
    try:
        yield
    finally:
        WebSocketTestSession.receive = original  # type: ignore[method-assign]


def queued(item: Msg | str | None) -> Msg:
    """A message from a connection's queue (``Connection.send``): broadcasts queue their
    encoded text (each seat's state is encoded once), other messages the message itself."""
    assert item is not None, "the connection's writer was told to stop"
    return json.loads(item) if isinstance(item, str) else item


def receive(ws: Any, awaiting: str = "a message", seconds: float = WAIT_S) -> Msg:
    """The next JSON message on ``ws`` within ``seconds``; ``awaiting`` says what the test
    waits for (in the failure message). Raises ``AssertionError`` when nothing comes in time,
    ``WebSocketDisconnect`` when the server closed the socket."""
    raw = read(ws, seconds, lambda: awaiting)
    ws._raise_on_close(raw)
    msg: Msg = json.loads(raw["text"])
    return msg


def _describe(pred: Callable[[Msg], bool]) -> str:
    try:
        return " ".join(inspect.getsource(pred).split())
    except (OSError, TypeError):
        return repr(pred)


def fast_settings(tmp_path: Path, **changes: Any) -> Settings:
    """Settings for tests: a database in ``tmp_path``, bots that move at once, no pool, no
    turn timers, no limit on new tables from one address (tests create many from
    ``testclient``) and no practical rate limit.

    The rate limit is lifted because a scripted player answers every state at machine speed
    while bots move at once: a long SCOUT game made the player of a test send its 61st ``act``
    within a second, the server dropped it (``rate_limited``, as it should), and the test
    waited forever for a state that could not come. The limit itself is tested with its own
    settings (``test_limits.py``, ``test_fuzz.py``).
    """
    base = {
        "table_seed": seed_of_this_test(),
        "db": str(tmp_path / "parlour.db"),
        "bot_delay_min_ms": 0,
        "bot_delay_max_ms": 0,
        "anim_ms": 0,
        "bot_workers": 0,
        "turn_timer_s": 0,  # no turn timers: people in tests think as long as they like
        "rate_per_s": 1_000_000.0,
        "rate_burst": 1_000_000,
        "new_tables_burst": 100_000,
        # no refusal of new real-time tables (busy) for the lag of a loaded test machine's
        # loop: a leak test's SNAP table was refused once; test_overload.py sets its own
        "admit_max_lag_ms": 60_000,
    }
    return Settings(**{**base, **changes})


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A running app (lifespan entered) on a fresh database."""
    with TestClient(create_app(fast_settings(tmp_path))) as test_client:
        yield test_client


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> Msg:
    """Create a table (the caller sits in seat 0); returns the answer with its token."""
    response = client.post("/api/tables", json={"name": "Ana", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    body: Msg = response.json()
    return body


def send(ws: Any, kind: str, **body: Any) -> None:
    """Send a version-1 message."""
    ws.send_json({"v": 1, "type": kind, **body})


def until(
    ws: Any,
    pred: Callable[[Msg], bool],
    limit: int = 500,
    seconds: float = WAIT_S,
    awaiting: str | None = None,
) -> Msg:
    """Read messages until one satisfies ``pred``; returns it.

    Fails (``AssertionError``, naming what was awaited — ``awaiting`` or the predicate's
    source — and the last messages seen) after ``limit`` other messages or ``seconds``.
    """
    deadline = time.monotonic() + seconds

    def what() -> str:
        return awaiting or f"a message such that `{_describe(pred)}`"

    for _ in range(limit):
        raw = read(ws, deadline - time.monotonic(), what, waited=seconds)
        ws._raise_on_close(raw)
        msg: Msg = json.loads(raw["text"])
        assert msg["v"] == 1 and "state_id" in msg, msg
        if pred(msg):
            return msg
    raise AssertionError(
        f"{limit} messages came, none of them {what()}; the last ones:\n{last_seen(ws)}"
    )


def hello(ws: Any, token: str | None = None) -> Msg:
    """Say hello (with a token, or as a spectator); returns the first state message."""
    if token is None:
        send(ws, "hello", watch=True)
    else:
        send(ws, "hello", token=token)
    welcome = receive(ws, "the welcome")
    assert welcome["type"] == "welcome", welcome
    state: Msg = until(ws, lambda m: m["type"] == "state")
    assert "history" in state
    return state


def room_of(client: TestClient, table_id: str) -> Any:
    """The live room of ``table_id`` inside the app."""
    return client.app.state.hub.rooms[table_id]  # type: ignore[attr-defined]
