"""Fixtures for the server tests: an app on a temporary database, driven by Starlette's
TestClient (HTTP and several WebSockets at once)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server import Settings, create_app

Msg = dict[str, Any]


def fast_settings(tmp_path: Path, **changes: Any) -> Settings:
    """Settings for tests: a database in ``tmp_path``, bots that move at once, no pool, no
    turn timers, and no limit on new tables from one address (tests create many from
    ``testclient``)."""
    base = {
        "db": str(tmp_path / "parlour.db"),
        "bot_delay_min_ms": 0,
        "bot_delay_max_ms": 0,
        "anim_ms": 0,
        "bot_workers": 0,
        "turn_timer_s": 0,  # no turn timers: people in tests think as long as they like
        "new_tables_burst": 100_000,
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


def until(ws: Any, pred: Callable[[Msg], bool], limit: int = 500) -> Msg:
    """Read messages until one satisfies ``pred``; returns it (fails after ``limit``)."""
    for _ in range(limit):
        msg: Msg = ws.receive_json()
        assert msg["v"] == 1 and "state_id" in msg, msg
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def hello(ws: Any, token: str | None = None) -> Msg:
    """Say hello (with a token, or as a spectator); returns the first state message."""
    if token is None:
        send(ws, "hello", watch=True)
    else:
        send(ws, "hello", token=token)
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    state: Msg = until(ws, lambda m: m["type"] == "state")
    assert "history" in state
    return state


def room_of(client: TestClient, table_id: str) -> Any:
    """The live room of ``table_id`` inside the app."""
    return client.app.state.hub.rooms[table_id]  # type: ignore[attr-defined]
