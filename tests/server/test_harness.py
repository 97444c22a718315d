"""The test harness is bounded: a WebSocket read that gets nothing fails within its deadline and
says what it waited for and what it saw last; every test has a time limit (pytest-timeout)."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import create, hello, receive, send, until


def test_a_wait_for_a_message_that_never_comes_fails_in_time_and_says_why(
    client: TestClient,
) -> None:
    made = create(client, [{"kind": "open"}])
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        hello(ws, made["token"])
        send(ws, "ping")
        began = time.monotonic()
        with pytest.raises(AssertionError) as failed:
            until(ws, lambda m: m["type"] == "never-sent", seconds=0.5)
        assert time.monotonic() - began < 5
        text = str(failed.value)
        assert "within 0.5 s" in text and 'm["type"] == "never-sent"' in text, text
        assert '"type":"welcome"' in text and '"type":"pong"' in text, text  # the last seen
        with pytest.raises(AssertionError, match="waiting for the answer to nothing"):
            receive(ws, "the answer to nothing", seconds=0.2)
        send(ws, "ping")  # a read cut short lost nothing: the socket goes on
        assert receive(ws, "a pong")["type"] == "pong"


def test_a_direct_receive_json_has_a_deadline_too(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tests.server.conftest.WAIT_S", 0.3)
    made = create(client, [{"kind": "open"}])
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        hello(ws, made["token"])
        began = time.monotonic()
        with pytest.raises(AssertionError, match=r"within 0\.3 s .*a direct receive"):
            ws.receive_json()
        assert time.monotonic() - began < 5


def test_a_scripted_player_may_answer_at_machine_speed(client: TestClient) -> None:
    # fast_settings lifts the rate limit: a script that answers every state at once must never
    # have a message dropped (a dropped act left a test waiting for a state that never came).
    made = create(client, [{"kind": "open"}])
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        hello(ws, made["token"])
        for _ in range(300):
            send(ws, "ping")
        answers = [receive(ws, "the answer to a ping")["type"] for _ in range(300)]
        assert answers == ["pong"] * 300


def test_every_test_has_a_time_limit_with_tracebacks(pytestconfig: pytest.Config) -> None:
    assert float(pytestconfig.getini("timeout")) > 0
    assert pytestconfig.getini("timeout_method") == "thread"  # prints every thread's stack
    assert float(pytestconfig.getini("faulthandler_timeout")) > 0  # the same under xdist
