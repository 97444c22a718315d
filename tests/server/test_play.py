"""Whole games over WebSockets: several seats connected at once, bots, persistence, replays."""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.core.conformance import unmistakable
from parlour.games.registry import get_game
from parlour.store import SQLiteStore
from tests.server.conftest import Msg, create, hello, room_of, send, until

SCOUT = get_game("scout")


def _leaks(msg: Msg, secrets: list[Any]) -> list[Any]:
    text = json.dumps(msg, separators=(",", ":"))
    return [s for s in secrets if json.dumps(s, separators=(",", ":")) in text]


def test_three_people_and_a_spectator_play_a_whole_game(client: TestClient) -> None:
    made = create(client, [{"kind": "open"}, {"kind": "open"}])
    table_id = made["table_id"]
    tokens = {0: made["token"]}
    for seat in (1, 2):
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": f"P{seat}"}).json()
        assert joined["seat"] == seat
        tokens[seat] = joined["token"]
    full = client.post(f"/api/tables/{table_id}/join", json={"name": "late"})
    assert full.status_code == 409 and full.json()["code"] == "not_open"

    with ExitStack() as stack:
        socks = {
            s: stack.enter_context(client.websocket_connect(f"/ws/{table_id}")) for s in tokens
        }
        for seat, ws in socks.items():
            first = hello(ws, tokens[seat])
            assert first["view"]["seat"] == seat and not first["view"]["started"]
        watcher = stack.enter_context(client.websocket_connect(f"/ws/{table_id}"))
        hello(watcher)
        everyone = [*socks.values(), watcher]

        send(socks[1], "start")
        assert until(socks[1], lambda m: m["type"] == "error")["code"] == "not_host"
        send(socks[0], "start")
        states = {
            id(ws): until(ws, lambda m: m["type"] == "state" and m["view"]["started"])
            for ws in everyone
        }
        rng = random.Random(5)
        room = room_of(client, table_id)
        moves = 0
        saw_refusals = False
        while True:
            current = states[id(socks[0])]
            if current["view"]["outcome"] is not None:
                break
            seat = current["view"]["to_act"][0]
            mine = states[id(socks[seat])]
            assert mine["state_id"] == current["state_id"]
            action = rng.choice(mine["actions"])
            send(socks[seat], "act", state_id=mine["state_id"], action=action, ref=moves)
            expected = current["state_id"] + 1
            for ws in everyone:
                states[id(ws)] = until(
                    ws, lambda m, sid=expected: m["type"] == "state" and m["state_id"] == sid
                )
            ack = until(socks[seat], lambda m: m["type"] in ("ack", "error"))
            assert ack == {"v": 1, "type": "ack", "state_id": expected, "ref": moves}
            for s, ws in [*socks.items(), (None, watcher)]:
                msg = states[id(ws)]
                assert msg["view"]["seat"] == s
                secrets = SCOUT.hidden_info(room.table.state, s)  # a single card may be public
                assert _leaks(msg, [x for x in secrets if unmistakable(x)]) == []
                # why the seat to act may not show a run of its cards: never a legal show
                why = msg.get("refusals", {})
                shows = {
                    f"{a['start']}:{a['length']}" for a in msg["actions"] if a["type"] == "show"
                }
                assert not set(why) & shows
                assert not why or (s is not None and msg["actions"])
                saw_refusals = saw_refusals or bool(why)
                assert msg["events"], "every change says what happened"
            assert states[id(watcher)]["view"]["hand"] is None
            moves += 1
        assert moves > 20 and saw_refusals
        outcome = states[id(watcher)]["view"]["outcome"]
        assert len(outcome["ranks"]) == 3 and states[id(watcher)]["finished"]

    stored = SQLiteStore(client.app.state.hub.settings.db)  # type: ignore[attr-defined]
    assert table_id not in stored.unfinished()
    assert len(stored.load(table_id).entries) == room.table.state_id
    stored.close()
    replay = client.get(f"/api/replay/{table_id}").json()
    assert len(replay["frames"]) == room.table.state_id + 1
    assert all(len(f["hands"]) == 3 for f in replay["frames"])
    assert sum(e["type"] == "round_end" for f in replay["frames"] for e in f["events"]) == 3


def test_against_three_bots_every_ack_is_already_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every write is held back 60 ms before it starts: a server that acknowledged before its
    # write completed would send the ack while the input is not in the file yet (without the
    # delay the write always won the race with this thread, and ack-then-store passed).
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    write = store.write

    async def slow_write(ops: list[Any]) -> None:
        await asyncio.sleep(0.06)
        await write(ops)

    monkeypatch.setattr(store, "write", slow_write)
    made = create(client, [{"kind": "bot", "level": lvl} for lvl in ("beginner", "easy", "medium")])
    table_id = made["table_id"]
    db = client.app.state.hub.settings.db  # type: ignore[attr-defined]
    reader = SQLiteStore(db)
    room = room_of(client, table_id)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        state = hello(ws, made["token"])
        assert [s["kind"] for s in state["view"]["seat_info"]] == ["human", "bot", "bot", "bot"]
        names = [s["name"] for s in state["view"]["seat_info"]]
        assert len(set(names)) == 4 and "Ana" in names
        acks = 0
        while state["view"]["outcome"] is None:
            if not state["actions"] or state["state_id"] < room.table.state_id:
                state = until(ws, lambda m: m["type"] == "state")  # bots move; more will come
                continue
            send(ws, "act", state_id=state["state_id"], action=state["actions"][-1])
            seen: list[Msg] = []
            reply = until(
                ws, lambda m, seen=seen: m["type"] in ("ack", "error") or bool(seen.append(m))
            )
            if reply["type"] == "ack":  # stored (committed) before it was acknowledged
                assert len(reader.load(table_id).entries) >= reply["state_id"]
                acks += 1
            else:
                assert reply["code"] == "stale_state", reply  # a bot flipped first
            state = [m for m in seen if m["type"] == "state"][-1] if seen else state
        assert acks >= 4
    assert reader.load(table_id).finished
    reader.close()


def test_a_finished_table_can_be_reopened_and_replayed(client: TestClient) -> None:
    made = create(
        client, [{"kind": "bot", "level": "easy"}], options={"count_unspent_chips": False}
    )
    table_id = made["table_id"]
    assert client.get(f"/api/replay/{table_id}").status_code == 409  # still in play
    room = room_of(client, table_id)
    rng = random.Random(1)
    while room.table.outcome() is None:  # play seat 0 straight through the room
        if 0 in room.table.to_act():
            move = rng.choice(room.table.legal_actions(0))
            client.portal.call(room.submit, 0, room.table.state_id, move)  # type: ignore[union-attr]
        else:
            with client.websocket_connect(f"/ws/{table_id}") as ws:
                hello(ws, made["token"])  # lets the app's loop run the bot
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["finished"] and info["seat_info"][1]["kind"] == "bot"
    assert room.table.options == {"players": 2, "count_unspent_chips": False}
    client.app.state.hub.forget(room)  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # loaded again from the store
        state = hello(ws, made["token"])
        assert state["view"]["outcome"] == room.table.outcome()
        assert len(state["history"]) > 10
    frames = client.get(f"/api/replay/{table_id}").json()["frames"]
    assert frames[0]["events"] == [] and frames[-1]["view"]["outcome"] is not None
