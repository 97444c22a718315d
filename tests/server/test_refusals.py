"""Every refusal is an error message with a code and a sentence, and changes nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server import create_app
from tests.server.conftest import Msg, create, fast_settings, hello, receive, room_of, send, until


@pytest.fixture()
def table(client: TestClient) -> Iterator[tuple[TestClient, str, Any, Any]]:
    """A started 3-player table of people: (client, id, seat 0's socket, seat 1's socket)."""
    made = create(client, [{"kind": "open"}, {"kind": "open"}])
    table_id = made["table_id"]
    tokens = [made["token"]]
    for _ in range(2):
        tokens.append(client.post(f"/api/tables/{table_id}/join", json={}).json()["token"])
    with (
        client.websocket_connect(f"/ws/{table_id}") as ws0,
        client.websocket_connect(f"/ws/{table_id}") as ws1,
    ):
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        send(ws0, "start")
        until(ws0, lambda m: m["type"] == "state" and m["view"]["started"])
        until(ws1, lambda m: m["type"] == "state" and m["view"]["started"])
        yield client, table_id, ws0, ws1


def refused(ws: Any) -> Msg:
    """The next error message (state messages in between are skipped)."""
    msg = until(ws, lambda m: m["type"] in ("error", "ack"))
    assert msg["type"] == "error", msg
    assert isinstance(msg["message"], str) and len(msg["message"]) > 5
    return msg


def unchanged(client: TestClient, table_id: str, before: int) -> None:
    room = room_of(client, table_id)
    assert room.table.state_id == before and len(room.table.record) == before


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("x" * 5000, "message_too_large"),
        (json.dumps({"v": 1, "type": "ping", "pad": "é" * 2100}), "message_too_large"),
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"v": 2, "type": "ping"}), "bad_version"),
        (json.dumps({"type": "ping"}), "bad_version"),
        (json.dumps({"v": 1, "type": "dance"}), "unknown_type"),
        (json.dumps({"v": 1, "type": "ping", "extra": 1}), "bad_message"),
        (json.dumps({"v": 1, "type": "act", "state_id": "3", "action": {}}), "bad_message"),
        (json.dumps({"v": 1, "type": "act", "state_id": 3, "action": "flip"}), "bad_message"),
        (json.dumps({"v": 1, "type": "hello", "token": "again-and-again"}), "already_hello"),
        (
            json.dumps({"v": 1, "type": "act", "state_id": 3, "action": {"type": "dance"}}),
            "stale_state",
        ),
    ],
)
def test_malformed_and_oversized_messages(table: Any, raw: str, code: str) -> None:
    client, table_id, ws0, _ = table
    send(ws0, "ping")
    assert until(ws0, lambda m: m["type"] == "pong")["state_id"] == 0
    ws0.send_text(raw)
    assert refused(ws0)["code"] == code
    unchanged(client, table_id, 0)
    send(ws0, "ping")  # the connection is still usable
    until(ws0, lambda m: m["type"] == "pong")


def test_an_older_state_id_is_refused_as_stale(table: Any) -> None:
    client, table_id, ws0, ws1 = table
    send(ws1, "act", state_id=0, action={"type": "flip", "flip": False})
    until(ws1, lambda m: m["type"] == "ack")
    send(ws0, "act", state_id=0, action={"type": "flip", "flip": True})  # one state behind
    stale = refused(ws0)
    assert stale["code"] == "stale_state" and stale["state_id"] == 1, stale
    unchanged(client, table_id, 1)


def test_binary_frames_are_refused(table: Any) -> None:
    client, table_id, ws0, _ = table
    ws0.send_bytes(b'{"v": 1, "type": "ping"}')
    assert refused(ws0)["code"] == "bad_message"
    ws0.send_bytes(b"x" * 10_000)
    assert refused(ws0)["code"] == "message_too_large"
    unchanged(client, table_id, 0)


def test_game_refusals_change_nothing(table: Any) -> None:
    client, table_id, ws0, ws1 = table
    act = {"type": "flip", "flip": True}
    send(ws0, "act", state_id=7, action=act)
    stale = refused(ws0)
    assert stale["code"] == "stale_state" and stale["state_id"] == 0
    send(ws0, "act", state_id=0, action={"type": "show", "start": 0, "length": 1})
    assert refused(ws0)["code"] == "illegal_action"  # everyone decides on the flip first
    send(ws0, "act", state_id=0, action={"type": "juggle"})
    assert refused(ws0)["code"] == "invalid_action"
    send(ws0, "act", state_id=0, action={"type": "show", "start": -1, "length": 1})
    assert refused(ws0)["code"] == "invalid_action"
    send(ws0, "act", state_id=0, action=act, seat=1)  # acting for another seat
    assert refused(ws0)["code"] == "wrong_seat"
    send(ws0, "fill", seat=1, level="easy")
    assert refused(ws0)["code"] == "already_started"
    send(ws1, "fill", seat=1, level="easy")
    assert refused(ws1)["code"] == "not_host"
    unchanged(client, table_id, 0)

    send(ws0, "act", state_id=0, action=act, seat=0, ref="mine")
    ack = until(ws0, lambda m: m["type"] == "ack")
    assert ack["ref"] == "mine" and ack["state_id"] == 1
    send(ws0, "act", state_id=1, action={"type": "flip", "flip": False})
    assert refused(ws0)["code"] == "not_your_turn"  # already decided
    unchanged(client, table_id, 1)

    room = room_of(client, table_id)
    for seat in (1, 2):
        flip = {"type": "flip", "flip": False}
        client.portal.call(room.submit, seat, room.table.state_id, flip)  # type: ignore[union-attr]
    turn = room.table.to_act()[0]
    other = ws1 if turn == 0 else ws0
    send(other, "act", state_id=3, action={"type": "show", "start": 0, "length": 1})
    assert refused(other)["code"] == "not_your_turn"
    unchanged(client, table_id, 3)


def test_hello_refusals(table: Any) -> None:
    client, table_id, _, _ = table
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        send(ws, "ping")
        assert refused(ws)["code"] == "hello_first"
        send(ws, "act", state_id=0, action={"type": "flip", "flip": True})
        assert refused(ws)["code"] == "hello_first"
        send(ws, "hello", token="not-a-seat-token-at-all")
        assert refused(ws)["code"] == "bad_token"
        send(ws, "hello", token="x")
        assert refused(ws)["code"] == "bad_message"
        send(ws, "hello", watch=True)  # still allowed to watch
        assert receive(ws, "the welcome")["type"] == "welcome"
        state = until(ws, lambda m: m["type"] == "state")
        assert state["view"]["hand"] is None and state["actions"] == []
        send(ws, "act", state_id=0, action={"type": "flip", "flip": True})
        assert refused(ws)["code"] == "spectator"
        send(ws, "start")
        assert refused(ws)["code"] == "not_host"
    unchanged(client, table_id, 0)


def test_unknown_table(client: TestClient) -> None:
    with client.websocket_connect("/ws/nope") as ws:
        assert receive(ws, "the refusal")["code"] == "no_such_table"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/join", json={}).status_code == 404
    assert client.get("/api/replay/nope").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"seats": []},
        {"seats": [{"kind": "bot", "level": "easy"}] * 5},
        {"seats": [{"kind": "bot", "level": "godlike"}]},
        {"seats": [{"kind": "human"}]},
        {"seats": [{"kind": "bot", "level": "easy"}], "game": "chess"},
        {"seats": [{"kind": "bot", "level": "easy"}] * 8, "game": "scan"},
        {"seats": [{"kind": "bot", "level": "easy"}] * 12, "game": "snap"},
        {"seats": [{"kind": "bot", "level": "easy"}], "game": "snap", "options": {"match": "suit"}},
        {"seats": [{"kind": "bot", "level": "easy"}], "game": "scan", "options": {"bluffo": 1}},
        {"seats": [{"kind": "bot", "level": "easy"}], "game": "scan", "options": {"match": "rank"}},
        {"seats": [{"kind": "bot", "level": "easy"}], "options": {"players": 9}},
        {"seats": [{"kind": "bot", "level": "easy"}], "options": {"count_unspent_chips": "yes"}},
        {"seats": "two"},
    ],
)
def test_bad_tables_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_message" and response.json()["message"]


def test_bodies_must_be_small_json(client: TestClient) -> None:
    big = {"seats": [{"kind": "open"}], "name": "x" * 5000}
    assert client.post("/api/tables", json=big).json()["code"] == "message_too_large"
    form = client.post("/api/tables", content=b"seats=1", headers={"content-type": "text/plain"})
    assert form.status_code == 400
    assert (
        client.post(
            "/api/tables", content=b"{", headers={"content-type": "application/json"}
        ).json()["code"]
        == "bad_json"
    )


def test_the_host_fills_open_seats_and_starts(client: TestClient) -> None:
    made = create(client, [{"kind": "open"}, {"kind": "open"}])
    table_id = made["table_id"]
    guest = client.post(f"/api/tables/{table_id}/join", json={"name": " Bo\n"}).json()
    with (
        client.websocket_connect(f"/ws/{table_id}") as host,
        client.websocket_connect(f"/ws/{table_id}") as ws,
    ):
        hello(host, made["token"])
        state = hello(ws, guest["token"])
        assert state["view"]["seat_info"][1] == {"kind": "human", "name": "Bo", "level": ""}
        assert state["presence"] == [True, True, False]
        send(host, "start")
        assert refused(host)["code"] == "seats_open"
        send(host, "fill", seat=1, level="easy")
        assert refused(host)["code"] == "not_open"
        send(host, "fill", seat=2, level="wizard")
        assert refused(host)["code"] == "bad_level"
        send(host, "fill", seat=2, level="hard")
        filled = until(
            ws, lambda m: m["type"] == "state" and m["view"]["seat_info"][2]["kind"] == "bot"
        )
        assert filled["view"]["seat_info"][2]["level"] == "hard" and filled["presence"][2]
        send(host, "start")
        started = until(ws, lambda m: m["type"] == "state" and m["view"]["started"])
        assert started["actions"] == [
            {"type": "flip", "flip": False},
            {"type": "flip", "flip": True},
        ]
    assert client.post(f"/api/tables/{table_id}/join", json={}).json()["code"] == "already_started"


def test_a_failed_write_is_taken_back(table: Any) -> None:
    client, table_id, ws0, _ = table
    db = sqlite3.connect(client.app.state.hub.settings.db)  # type: ignore[attr-defined]
    db.execute("CREATE TRIGGER full BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'full'); END")
    db.commit()
    send(ws0, "act", state_id=0, action={"type": "flip", "flip": True})
    assert refused(ws0)["code"] == "storage_error"
    unchanged(client, table_id, 0)
    db.execute("DROP TRIGGER full")
    db.commit()
    db.close()
    send(ws0, "act", state_id=0, action={"type": "flip", "flip": True})
    assert until(ws0, lambda m: m["type"] == "ack")["state_id"] == 1


def test_pages_and_headers(tmp_path: Path) -> None:
    with TestClient(create_app(fast_settings(tmp_path))) as client:
        for path in (
            "/",
            "/t/abc",
            "/replay/abc",
            "/static/js/scout.js",
            "/static/css/parlour.css",
        ):
            response = client.get(path)
            assert response.status_code == 200, path
            assert "script-src 'self'" in response.headers["content-security-policy"]
            assert response.headers["x-content-type-options"] == "nosniff"
        assert client.get("/static/../server/app.py").status_code == 404
