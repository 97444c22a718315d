"""``parlour serve --db postgresql://…`` on a real PostgreSQL: a whole SCOUT game over
WebSockets that survives a restart and a kill of the server, a real-time SNAP game stored as
played, and an outage of PostgreSQL itself
mid-game (the move is refused with ``storage_error`` and changes nothing, the server keeps
answering, and the table carries on once PostgreSQL is back)."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from parlour.server import create_app
from parlour.store import open_store
from parlour.table import Table
from tests.pg import ThrowawayPostgres, throwaway
from tests.server.conftest import create, fast_settings, hello, receive, room_of, send
from tests.server.live import LiveServer, get, post
from tests.server.test_realtime_games import snap_move
from tests.server.test_restart import Seat

Msg = dict[str, Any]
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]


def _everything_stored(url: str) -> str:
    """Every row of every table of the database at ``url``, as text."""
    with psycopg.connect(url) as conn:
        return "\n".join(
            repr(conn.execute(f"SELECT * FROM {name}".encode()).fetchall())
            for name in ("tables", "events", "seat_tokens", "archive", "fences")
        )


def test_a_whole_scout_game_on_postgresql_survives_a_restart_and_a_kill(
    tmp_path: Path, pg_url: str
) -> None:
    server = LiveServer(pg_url, log=tmp_path / "server.log").start()
    try:
        made = post(f"{server.url}/api/tables", {"name": "Ana", "seats": BOTS})
        table_id, token = made["table_id"], made["token"]
        rng = random.Random(3)
        seat = Seat(server, table_id, token)
        assert seat.play(rng, 6) == 6
        acked = seat.acked
        seat.close()
        server.stop()  # graceful

        server.start()  # rebuilt from PostgreSQL
        seat = Seat(server, table_id, token)
        assert seat.state["state_id"] >= acked  # nothing acknowledged was lost
        assert seat.play(rng, 6) == 6
        acked = seat.acked
        seat.close()
        server.kill()  # abrupt

        server.start()
        seat = Seat(server, table_id, token)
        assert seat.state["state_id"] >= acked
        seat.play(rng, 10_000)  # to the end
        outcome, last = seat.state["view"]["outcome"], seat.state["state_id"]
        assert outcome is not None and len(seat.state["view"]["results"]) == 3
        seat.close()
        replay = get(f"{server.url}/api/replay/{table_id}")
        assert replay["frames"][-1]["view"]["outcome"] == outcome
    finally:
        server.stop()
    store = open_store(pg_url)
    stored = store.load(table_id)
    assert stored.finished and [e.seq for e in stored.entries] == list(range(1, last + 1))
    assert store.unfinished() == [] and len(store.token_hashes(table_id)) == 1
    store.close()
    everything = _everything_stored(pg_url)
    assert token not in everything  # only its hash is stored
    log = server.log.read_text()
    assert "rebuilt 1 unfinished tables" in log and "Traceback" not in log


def test_a_real_time_snap_game_on_postgresql_is_stored_as_played(
    tmp_path: Path, pg_url: str
) -> None:
    settings = fast_settings(tmp_path, db=pg_url, game_speed=20.0, start_countdown_ms=0)
    with TestClient(create_app(settings)) as client:
        made = create(client, BOTS, game="snap", options={"match": "rank"})
        table_id = made["table_id"]
        room = room_of(client, table_id)
        rng = random.Random(8)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            state = hello(ws, made["token"])
            played: set[tuple[int, str]] = set()
            while state["view"]["outcome"] is None:
                choice = snap_move(state, rng)
                key = (state["view"]["seq"], json.dumps(choice and choice["action"]))
                if choice is not None and key not in played:
                    played.add(key)
                    send(ws, "play", **choice)
                while (msg := receive(ws, "the next state"))["type"] != "state":
                    if msg["type"] == "ping":
                        send(ws, "pong", nonce=msg["nonce"])
                    else:
                        assert msg["type"] != "error" or msg["code"] != "storage_error", msg
                state = msg
        live = room.table
    store = open_store(pg_url)
    stored = store.load(table_id)
    store.close()
    assert stored.finished and any(e.seat == 0 for e in stored.entries)
    assert [e.to_json() for e in stored.entries] == [e.to_json() for e in live.record]
    rebuilt = Table(table_id, "snap", stored.options, stored.seed, list(stored.seats),
                    record=stored.entries)  # fmt: skip
    assert rebuilt.state == live.state


@pytest.fixture()
def own_postgres() -> Iterator[ThrowawayPostgres]:
    """A PostgreSQL server of this test's own (it is stopped and started mid-test)."""
    server = throwaway()
    try:
        yield server
    finally:
        server.destroy()


def _act(seat: Seat) -> Msg:
    """Send one legal move of ``seat``; the ack or error it gets."""
    action = seat.state["actions"][0]
    seat.ws.send(json.dumps({"v": 1, "type": "act", "state_id": seat.state["state_id"],
                             "action": action, "ref": "m"}))  # fmt: skip
    while (msg := seat.recv())["type"] not in ("ack", "error"):
        seat.state = msg if msg["type"] == "state" else seat.state
    return msg


def _post(url: str, body: Msg) -> tuple[int, Msg]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"content-type": "application/json"})  # fmt: skip
    return _status(request)


def _status(url: str | urllib.request.Request) -> tuple[int, Msg]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_postgresql_down_mid_game_refuses_the_move_and_the_table_resumes_when_it_is_back(
    tmp_path: Path, own_postgres: ThrowawayPostgres
) -> None:
    env = {"PARLOUR_DB_BUSY_TIMEOUT_S": "1"}
    server = LiveServer(own_postgres.url(), env=env, log=tmp_path / "server.log").start()
    try:
        made = post(f"{server.url}/api/tables", {"name": "Ana", "seats": BOTS[:1]})
        table_id, token = made["table_id"], made["token"]
        seat = Seat(server, table_id, token)
        rng = random.Random(4)
        assert seat.play(rng, 3) == 3
        while not seat.state["actions"]:  # the bot's move: wait for our turn
            seat.state = seat.next_state()
        before = seat.state["state_id"]

        own_postgres.stop()
        refused = _act(seat)
        assert refused["code"] == "storage_error" and refused["state_id"] == before, refused
        assert "could not be saved" in refused["message"]
        status, health = _status(f"{server.url}/api/health")  # the server keeps answering
        assert status == 200 and health["tables"] == 1
        status, info = _status(f"{server.url}/api/tables/{table_id}")  # in memory: served
        assert status == 200 and info["table_id"] == table_id and not info["finished"]
        status, problem = _status(f"{server.url}/api/tables/nothere")  # needs the database
        assert status == 503 and problem["code"] == "storage_error"
        status, problem = _post(f"{server.url}/api/tables", {"name": "Bo", "seats": BOTS})
        assert status == 503 and problem["code"] == "storage_error"

        own_postgres.start()
        back = time.monotonic()
        while (answer := _act(seat))["type"] == "error":  # the pool reconnects with back-off
            assert answer["code"] == "storage_error", answer
            assert time.monotonic() - back < 30, "the store did not reconnect within 30 s"
            time.sleep(0.2)
        print(f"PostgreSQL back: the move was stored {time.monotonic() - back:.2f} s later")
        assert answer["state_id"] == before + 1  # the same move, played once
        seat.state = seat.next_state() if seat.state["state_id"] <= before else seat.state
        seat.play(rng, 10_000)
        last = seat.state["state_id"]
        assert seat.state["view"]["outcome"] is not None
        seat.close()
    finally:
        server.stop()
    store = open_store(own_postgres.url())
    assert [e.seq for e in store.load(table_id).entries] == list(range(1, last + 1))
    assert store.unfinished() == []  # the table refused during the outage was never made
    store.close()
    log = server.log.read_text()
    assert f"no connection to PostgreSQL at {own_postgres.url()} within 1 s" in log
