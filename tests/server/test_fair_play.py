"""Implausible play at a friends' SCAN table is flagged "unusually fast" in the final results and
in the server log (``parlour.server.fairplay``): a script that reads the layout and touches the
match 150 ms after each reveal, against a friend; a person touching at human speed is not
flagged. Every socket read has a deadline."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

from parlour.server import create_app
from tests.server.conftest import Msg, create, fast_settings, receive, send

SPEED = 10.0


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = fast_settings(tmp_path, game_speed=SPEED, start_countdown_ms=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def state_within(ws: Any, seconds: float = 10.0) -> Msg:
    """The next ``state`` message within ``seconds`` (pings answered on the way)."""
    deadline = time.monotonic() + seconds
    while True:
        msg = receive(ws, "a state", max(0.01, deadline - time.monotonic()))
        if msg["type"] == "ping":
            send(ws, "pong", nonce=msg["nonce"])
        elif msg["type"] == "state":
            return msg


def play_scan_against_a_friend(client: TestClient, rt_game_ms: int) -> tuple[Msg, str]:
    """The host touches each reveal's match after ``rt_game_ms`` (reporting it); the friend
    takes the other seat, sits down and leaves; the host starts the game. Returns the final
    state and the table id."""
    made = create(client, [{"kind": "open"}], game="scan")
    table_id = made["table_id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        send(ws, "hello", token=made["token"])
        with client.websocket_connect(f"/ws/{table_id}") as friend:
            send(friend, "hello", token=joined["token"])
            state_within(friend)
            send(ws, "start")
            state = state_within(ws)
            while not state["view"]["started"] or not state["clock"]["running"]:
                state = state_within(ws)
        answered: set[int] = set()
        for _ in range(20_000):
            view = state["view"]
            if state["finished"]:
                return state, table_id
            touches = [a for a in state["actions"] if a["type"] == "touch"]
            if touches and view["tan"] is not None and view["seq"] not in answered:
                answered.add(view["seq"])
                column = ["shape", "pattern", "position", "colour"].index(view["category"])
                tan = view["tan"][column]
                found = [i for i, c in enumerate(view["layout"]) if c[column] == tan]
                if found:
                    anyio.run(anyio.sleep, rt_game_ms / SPEED / 1000)
                    rt_wall = round(rt_game_ms / SPEED)
                    action = {"type": "touch", "blue_index": found[0]}
                    send(ws, "play", seq=view["seq"], rt_ms=rt_wall, action=action)
            elif any(a["type"] == "choose" for a in state["actions"]):
                choose = next(a for a in state["actions"] if a["type"] == "choose")
                send(ws, "play", seq=view["seq"], action=choose)
            state = state_within(ws)
    raise AssertionError("the game did not end")


def test_C14_a_script_touching_at_150_ms_is_flagged_unusually_fast(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="parlour.server")
    state, table_id = play_scan_against_a_friend(client, rt_game_ms=150)
    flags = state["fair_play"]
    assert [(f["seat"], f["flag"]) for f in flags] == [(0, "unusually_fast")], flags
    assert flags[0]["median_rt_ms"] < 180 <= flags[0]["floor_ms"] and flags[0]["inputs"] >= 5
    warned = [r.getMessage() for r in caplog.records if "unusually fast" in r.getMessage()]
    assert len(warned) == 1 and table_id in warned[0] and "seat 0" in warned[0], warned


def test_C14_a_person_touching_at_human_speed_is_not_flagged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="parlour.server")
    state, _ = play_scan_against_a_friend(client, rt_game_ms=700)
    assert state["fair_play"] == []
    assert not [r for r in caplog.records if "unusually fast" in r.getMessage()]
