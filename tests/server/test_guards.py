"""Guards that must fail loudly and at once when broken: the store never holds a seat's token
(only its hash), no input is acknowledged before it is durable, and a wrong token opens no
seat.

Each test looks only at what a user of the server could see — the wire, and the bytes of the
database files — and injects storage failures in SQL (a trigger), so that it holds whatever
the store's Python interface looks like.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server import create_app
from tests.server.conftest import Msg, create, fast_settings, hello, receive, send, until

OPEN = {"kind": "open"}
FLIP = {"type": "flip", "flip": True}
KEEP = {"type": "flip", "flip": False}


def db_files(tmp_path: Path) -> dict[str, bytes]:
    """The raw bytes of every file of the test's database (the db, its -wal, -shm, -journal)."""
    return {p.name: p.read_bytes() for p in sorted(tmp_path.glob("parlour.db*"))}


def carriers(files: dict[str, bytes], token: str) -> list[str]:
    """The files whose bytes contain ``token`` (as UTF-8 or UTF-16, either byte order)."""
    forms = [token.encode(), token.encode("utf-16-le"), token.encode("utf-16-be")]
    return [name for name, data in files.items() if any(form in data for form in forms)]


def people_table(client: TestClient, players: int) -> tuple[str, list[str]]:
    """A SCOUT table of ``players`` people (the host and friends who joined by the API);
    returns its id and every seat's token, seat by seat."""
    made = create(client, [OPEN] * (players - 1))
    table_id = made["table_id"]
    tokens = [made["token"]]
    for seat in range(1, players):
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": f"P{seat}"})
        assert joined.status_code == 200 and joined.json()["seat"] == seat, joined.text
        tokens.append(joined.json()["token"])
    return table_id, tokens


@pytest.fixture()
def seated(tmp_path: Path) -> Iterator[tuple[TestClient, str, list[str], list[Any]]]:
    """A started 3-player SCOUT table of people, each seat connected: (client, table id,
    tokens, sockets)."""
    with TestClient(create_app(fast_settings(tmp_path))) as client, ExitStack() as stack:
        table_id, tokens = people_table(client, 3)
        socks = [stack.enter_context(client.websocket_connect(f"/ws/{table_id}")) for _ in tokens]
        for seat, (ws, token) in enumerate(zip(socks, tokens, strict=True)):
            first = hello(ws, token)
            assert first["view"]["seat"] == seat, f"seat {seat}'s token opened {first['view']}"
        send(socks[0], "start")
        for ws in socks:
            until(ws, lambda m: m["type"] == "state" and m["view"]["started"])
        yield client, table_id, tokens, socks


def answer(ws: Any, kinds: tuple[str, ...] = ("ack", "error")) -> tuple[Msg, list[Msg]]:
    """The next message on ``ws`` of one of ``kinds``, and the state messages before it."""
    states: list[Msg] = []

    def wanted(m: Msg) -> bool:
        if m["type"] == "state":
            states.append(m)
        return m["type"] in kinds

    return until(ws, wanted, awaiting=" or ".join(kinds)), states


def quiet_until_pong(ws: Any) -> tuple[list[Msg], Msg]:
    """Ping ``ws``; returns the state messages that came before the pong, and the pong (the
    server answers in order, so anything already sent to this socket comes first)."""
    send(ws, "ping")
    pong, states = answer(ws, ("pong",))
    return states, pong


# ------------------------------------------------------------------ tokens: only their hash


def test_the_database_never_holds_a_seat_token_only_its_hash(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = fast_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        table_id, tokens = people_table(client, 3)  # seat 0 made by create, 1 and 2 by join
        snap = create(client, [{"kind": "bot", "level": "easy"}], game="snap")
        tokens.append(snap["token"])
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            assert hello(ws, tokens[0])["view"]["seat"] == 0
            send(ws, "start")
            until(ws, lambda m: m["type"] == "state" and m["view"]["started"])
            send(ws, "act", state_id=0, action=FLIP)
            assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        while_open = db_files(tmp_path)
    after_close = db_files(tmp_path)
    assert "parlour.db" in after_close
    for token in tokens:
        assert carriers(while_open, token) == [], "a seat token was stored in plain text"
        assert carriers(after_close, token) == [], "a seat token was stored in plain text"
        digest = hashlib.sha256(token.encode()).digest()
        stored = [n for n, data in after_close.items() if digest in data or digest.hex().encode()
                  in data]  # fmt: skip
        assert stored, "the token's SHA-256 hash is stored (hex or raw)"
        assert token not in caplog.text, "a seat token went into the server's log"

    with TestClient(create_app(settings)) as client:  # a restart: the hash still opens the seat
        for seat, token in enumerate(tokens[:3]):
            with client.websocket_connect(f"/ws/{table_id}") as ws:
                assert hello(ws, token)["view"]["seat"] == seat
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # the stored hash is no key
            send(ws, "hello", token=hashlib.sha256(tokens[0].encode()).hexdigest())
            assert receive(ws, "the refusal of the hash as a token")["code"] == "bad_token"


# ------------------------------------------------------------------ no ack before it is stored


def fail_writes(db: Path) -> None:
    """Make every new input fail to store (as a full disk would), in SQL."""
    with closing(sqlite3.connect(db, timeout=30)) as conn:
        conn.execute(
            "CREATE TRIGGER fail_events BEFORE INSERT ON events "
            "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )
        conn.commit()


def heal_writes(db: Path) -> None:
    """Undo :func:`fail_writes`."""
    with closing(sqlite3.connect(db, timeout=30)) as conn:
        conn.execute("DROP TRIGGER fail_events")
        conn.commit()


def stored_inputs(db: Path, table_id: str) -> int:
    """How many inputs of ``table_id`` the database file holds."""
    with closing(sqlite3.connect(db, timeout=30)) as conn:
        row = conn.execute("SELECT COUNT(*) FROM events WHERE table_id = ?", (table_id,))
        count: int = row.fetchone()[0]
        return count


def test_a_move_that_cannot_be_stored_is_refused_never_acknowledged(
    seated: tuple[TestClient, str, list[str], list[Any]], tmp_path: Path
) -> None:
    _, table_id, _, socks = seated
    db = tmp_path / "parlour.db"
    fail_writes(db)
    send(socks[0], "act", state_id=0, action=FLIP, ref="lost")
    reply, states = answer(socks[0])
    assert reply["type"] == "error", f"acknowledged although the write failed: {reply}"
    assert reply["code"] == "storage_error" and reply["ref"] == "lost", reply
    assert reply["state_id"] == 0 and reply["message"] and states == []
    for ws in socks:  # nobody saw the move: no state moved on, the table is where it was
        states, pong = quiet_until_pong(ws)
        assert states == [] and pong["state_id"] == 0, (states, pong)
    assert stored_inputs(db, table_id) == 0

    heal_writes(db)  # the disk has room again: play goes on from the same state
    send(socks[0], "act", state_id=0, action=FLIP, ref="kept")
    reply, _ = answer(socks[0])
    assert reply["type"] == "ack" and reply["state_id"] == 1 and reply["ref"] == "kept", reply
    assert stored_inputs(db, table_id) == 1
    for ws in socks[1:]:
        until(ws, lambda m: m["type"] == "state" and m["state_id"] == 1)
    send(socks[1], "act", state_id=1, action=KEEP)
    assert answer(socks[1])[0]["type"] == "ack"
    assert stored_inputs(db, table_id) == 2


def test_acks_follow_writes_one_by_one_while_the_disk_fails_now_and_then(
    seated: tuple[TestClient, str, list[str], list[Any]], tmp_path: Path
) -> None:
    # Every seat decides on the flip; the writes fail for every second input. Each ack's input
    # is in the file when the ack arrives, and each refusal's is not.
    _, table_id, _, socks = seated
    db = tmp_path / "parlour.db"
    for seat, ws in enumerate(socks):
        state_id = seat  # each seat's keep moves the table on by one
        fail_writes(db)
        send(ws, "act", state_id=state_id, action=KEEP)
        refusal, states = answer(ws)
        assert refusal["type"] == "error" and refusal["code"] == "storage_error", refusal
        assert states == [] and stored_inputs(db, table_id) == state_id
        heal_writes(db)
        send(ws, "act", state_id=state_id, action=KEEP)
        ack, _ = answer(ws)
        assert ack["type"] == "ack", (seat, ack)
        assert ack["state_id"] == seat + 1 and stored_inputs(db, table_id) == seat + 1
        for other in socks:
            if other is not ws:
                until(other, lambda m, s=seat + 1: m["type"] == "state" and m["state_id"] == s)


# ------------------------------------------------------------------ a wrong token opens nothing


def test_a_wrong_token_opens_no_seat(client: TestClient) -> None:
    table_id, tokens = people_table(client, 3)
    other_table, other_tokens = people_table(client, 2)
    near = tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B")  # one character off
    wrong = [
        secrets.token_urlsafe(24),  # the form of a token, but nobody's
        near,
        other_tokens[0],  # another table's host
        other_tokens[1],
        hashlib.sha256(tokens[0].encode()).hexdigest(),  # the stored hash of a real token
    ]
    for token in wrong:
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            send(ws, "hello", token=token)
            first = receive(ws, f"the answer to hello with the wrong token {token!r}")
            assert first["type"] == "error" and first["code"] == "bad_token", (token, first)
            send(ws, "start")  # still nobody: not even the host's rights
            second = receive(ws, "the answer to a start before a good hello")
            assert second["type"] == "error" and second["code"] == "hello_first", second
    with client.websocket_connect(f"/ws/{other_table}") as ws:  # nor at another table
        send(ws, "hello", token=tokens[1])
        assert receive(ws, "the answer to another table's token")["code"] == "bad_token"
    for seat, token in enumerate(tokens):  # each right token opens its own seat, and only it
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            send(ws, "hello", token=token)
            welcome = receive(ws, f"the welcome of seat {seat}")
            assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
            state = until(ws, lambda m: m["type"] == "state")
            assert state["state_id"] == 0 and not state["view"]["started"]  # nothing moved
