"""The start countdown of a real-time table: when it ends, every page hears it at once (a
``state`` whose clock runs), so the person with SNAP's first flip can flip within their turn
timer instead of waiting, under "Get ready…", for the timer to flip for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from parlour.games import snap
from parlour.server import create_app
from tests.server.conftest import Msg, create, fast_settings, receive, send


def test_the_seat_with_the_first_flip_hears_that_the_countdown_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = next(s for s in range(100) if snap.new_state({"players": 2}, s).turn == 0)
    monkeypatch.setattr("parlour.server.hub.secrets.randbits", lambda bits: seed)
    # table_seed=0: seeds from the secure source, patched above, so the table deals ``seed``
    settings = fast_settings(
        tmp_path, game_speed=1.0, start_countdown_ms=300, rtt_probe_ms=60_000, table_seed=0
    )
    with TestClient(create_app(settings)) as client:
        made = create(client, [{"kind": "bot", "level": "medium"}], game="snap")
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            send(ws, "hello", token=made["token"])
            while True:
                msg: Msg = receive(ws, "a state whose clock runs")
                if msg["type"] == "state" and msg["clock"]["running"]:
                    break
            # nothing was flipped yet, and the person may flip now: the turn timer has all its time
            assert msg["view"]["seq"] == 0 and msg["view"]["turn"] == 0
            assert {"type": "flip"} in msg["actions"]
            send(ws, "play", seq=0, action={"type": "flip"})
            while True:
                msg = receive(ws, "the person's flip")
                if msg["type"] == "state" and msg["view"]["seq"] == 1:
                    break
            assert msg["view"]["last_flipper"] == 0
            assert not any(e.get("auto") for e in msg["events"]), msg["events"]
