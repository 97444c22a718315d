"""A busy or failing database never holds up the server, and nothing is told before it is stored.

A real server on 127.0.0.1; another program locks the SQLite file (``BEGIN EXCLUSIVE``) while a
person moves. The move waits for the database — without an ack, and without any state message
to anyone — while the server keeps answering everyone else; when the lock is released it is
stored, then acknowledged, then shown. A lock held past the busy timeout refuses the move with
``storage_error`` and changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.live import LiveServer

Msg = dict[str, Any]


def post(url: str, body: Msg) -> Msg:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        found: Msg = json.load(answer)
        return found


def timed_get(url: str) -> float:
    began = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as answer:
        answer.read()
    return time.monotonic() - began


def messages(ws: ClientConnection, seconds: float) -> list[Msg]:
    """Everything ``ws`` receives within ``seconds``."""
    got: list[Msg] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            got.append(json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            break
        except ConnectionClosed:
            break
    return got


def first(ws: ClientConnection, kind: str, seconds: float = 10.0) -> Msg:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        msg: Msg = json.loads(ws.recv(timeout=left))
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} within {seconds} s")


def test_a_locked_database_holds_the_move_not_the_server(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "p.db", {"PARLOUR_DB_BUSY_TIMEOUT_S": "1.5"}).start()
    try:
        made = post(f"{server.url}/api/tables", {"name": "Ana", "seats": [{"kind": "open"}]})
        joined = post(f"{server.url}/api/tables/{made['table_id']}/join", {"name": "Bo"})
        ws_url = f"ws://127.0.0.1:{server.port}/ws/{made['table_id']}"
        with connect(ws_url) as ws0, connect(ws_url) as ws1:
            for ws, token in ((ws0, made["token"]), (ws1, joined["token"])):
                ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
                first(ws, "state")
            ws0.send(json.dumps({"v": 1, "type": "start"}))
            while not first(ws0, "state")["view"]["started"]:
                pass
            messages(ws1, 0.3)

            locker = sqlite3.connect(server.db, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")
            flip = {"type": "flip", "flip": False}
            ws0.send(json.dumps({"v": 1, "type": "act", "state_id": 0, "action": flip}))
            gets = [timed_get(f"{server.url}/api/health") for _ in range(5)]
            held0, held1 = messages(ws0, 0.5), messages(ws1, 0.1)
            assert not [m for m in held0 if m["type"] in ("ack", "state")], held0
            assert not [m for m in held1 if m["type"] == "state"], held1
            assert max(gets) < 0.5, gets  # the server answers while the move waits
            locker.execute("ROLLBACK")  # released within the busy timeout: stored, then told
            assert first(ws0, "ack")["state_id"] == 1
            assert first(ws1, "state")["state_id"] == 1
            stored = sqlite3.connect(server.db)
            assert stored.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
            stored.close()

            locker.execute("BEGIN EXCLUSIVE")  # now held past the busy timeout
            ws1.send(json.dumps({"v": 1, "type": "act", "state_id": 1, "action": flip}))
            refused = first(ws1, "error", seconds=10)
            assert refused["code"] == "storage_error" and refused["state_id"] == 1
            locker.execute("ROLLBACK")
            assert not [m for m in messages(ws0, 0.3) if m["type"] == "state"]
            ws1.send(json.dumps({"v": 1, "type": "act", "state_id": 1, "action": flip}))
            assert first(ws1, "ack")["state_id"] == 2
            locker.close()
    finally:
        server.stop()
