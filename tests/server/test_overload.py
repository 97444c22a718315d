"""An overloaded server stays fair and says so: a real-time table that falls behind holds its
clock instead of catching up in a burst, new real-time tables are refused while the event loop
lags, ``/api/health`` reports it, and a table closed unfinished has no replay."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server import create_app
from parlour.server.clock import GameClock
from tests.server.conftest import create, fast_settings, hello, room_of, until


@pytest.fixture()
def make_client(tmp_path: Path) -> Any:
    made: list[TestClient] = []

    def make(**changes: Any) -> TestClient:
        client = TestClient(create_app(fast_settings(tmp_path, **changes)))
        client.__enter__()
        made.append(client)
        return client

    yield make
    for client in made:
        client.__exit__(None, None, None)


def until_not_busy(client: TestClient, within_s: float = 15) -> None:
    """Wait until the server takes new real-time tables again (its lag window has passed)."""
    deadline = time.monotonic() + within_s
    while (busy := client.get("/api/health").json()["busy"]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert busy is None, busy


def block_loop(client: TestClient, seconds: float) -> None:
    """Keep the app's event loop busy for ``seconds`` (as an overloaded server would be)."""
    client.portal.call(time.sleep, seconds)  # type: ignore[union-attr]


def test_a_held_clock_shows_the_moment_it_was_held_at_and_goes_on() -> None:
    clock = GameClock(speed=2.0, base_ms=1000)
    clock.start(0)
    time.sleep(0.05)
    ahead = clock.now()
    assert ahead >= 1090
    clock.hold(1010)
    assert 1010 <= clock.now() < 1040
    time.sleep(0.05)
    assert clock.now() >= 1100
    clock.hold(50)  # never before where it was last held
    assert clock.now() >= 1010


def test_a_real_time_table_that_falls_behind_holds_its_clock(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(game_speed=1.0, start_countdown_ms=0, realtime_max_lag_ms=100)
    made = create(client, [{"kind": "bot", "level": "medium"}] * 2, game="snap")
    room = room_of(client, made["table_id"])
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        hello(ws, made["token"])
        until(ws, lambda m: m["type"] == "state" and m["clock"]["running"])
        before = room.clock.now()
        block_loop(client, 4.0)  # the SNAP turn timer (3 s) at the latest falls due meanwhile
        time.sleep(0.3)
        after = room.clock.now()
    # Without holding, the game clock would have run on through the 4 s stall and every
    # moment due in it would have been played in a burst nobody could see.
    assert after - before < 3600, (before, after)
    assert room.held_ms > 300


def test_new_real_time_tables_are_refused_while_the_loop_lags(
    make_client: Callable[..., TestClient],
) -> None:
    # The threshold is far above what a loaded test machine's loop lags anyway (~150 ms at a
    # load average of 20), and the blocks are longer still.
    client = make_client(admit_max_lag_ms=400)
    until_not_busy(client)
    for _ in range(12):
        block_loop(client, 0.6)
        time.sleep(0.02)
    health = client.get("/api/health").json()
    assert health["loop_lag_ms"]["p99"] >= 500 and health["busy"]
    refused = client.post(
        "/api/tables",
        json={"game": "snap", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"}]},
    )
    assert refused.status_code == 503 and refused.json()["code"] == "busy"
    assert "try again" in refused.json()["message"]
    create(client, [{"kind": "bot", "level": "easy"}])  # turn-based tables are still taken
    until_not_busy(client)
    create(client, [{"kind": "bot", "level": "easy"}], game="snap")  # the lag is over


def test_an_expired_table_has_no_replay(make_client: Callable[..., TestClient]) -> None:
    client = make_client(idle_expiry_s=0.05)
    made = create(client, [{"kind": "bot", "level": "easy"}])
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        hello(ws, made["token"])  # the bots play their flips; the host never does
    time.sleep(0.1)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert client.portal.call(hub.sweep)[0] == 1  # type: ignore[union-attr]
    answer = client.get(f"/api/replay/{made['table_id']}")
    assert answer.status_code == 410 and answer.json()["code"] == "table_expired"
    assert "hands" not in answer.text and "frames" not in answer.json()
