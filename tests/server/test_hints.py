"""Hints over the seat's WebSocket (issue 11): "Suggest a move" and the turning points."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.bots.scout.coach import MOVES, REASONS
from parlour.games.registry import get_game
from parlour.server import create_app
from parlour.server.coach import TURNING_POINTS
from tests.server.conftest import Msg, create, fast_settings, hello, room_of, send, until

SCOUT = get_game("scout")
BOTS = [{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "easy"}]


def app_client(tmp_path: Path, **changes: Any) -> TestClient:
    """Hints from Medium (deterministic for a seed, and quick), no practical rate limit."""
    unlimited = {"hints_per_min": 1e6, "hint_burst": 1000}
    return TestClient(
        create_app(fast_settings(tmp_path, **{"hint_level": "medium", **unlimited, **changes}))
    )


@pytest.fixture()
def hints(tmp_path: Path) -> Iterator[TestClient]:
    """An app whose hints come from Medium (see :func:`app_client`)."""
    with app_client(tmp_path) as client:
        yield client


def my_turn(ws: Any, state: Msg) -> Msg:
    """The first state (from ``state`` on) in which this seat has legal actions, or the game
    is over (a computer's move may end it)."""
    if state["actions"] or state["view"]["outcome"] is not None:
        return state
    return until(
        ws,
        lambda m: m["type"] == "state" and (bool(m["actions"]) or m["view"]["outcome"] is not None),
    )


def answer(ws: Any) -> Msg:
    return until(ws, lambda m: m["type"] in ("hint", "error", "turning_points"))


def ask(ws: Any, state: Msg, **extra: Any) -> tuple[Msg, Msg]:
    """A hint for ``state`` (asked again for the newest state while bots' simultaneous flip
    decisions move the table on); returns the hint and the state it is for."""
    for _ in range(10):
        send(ws, "hint", state_id=state["state_id"], **extra)
        while True:
            got = until(ws, lambda m: m["type"] in ("hint", "error", "state"))
            if got["type"] != "state":
                break
            state = got
        if got.get("code") != "stale_state":
            return got, state
        if state["state_id"] < got["state_id"]:  # its state message comes once it is stored
            state = until(ws, lambda m, s=got["state_id"]: m["type"] == "state"
                          and m["state_id"] >= s)  # fmt: skip
        state = my_turn(ws, state)
    raise AssertionError(f"the table never stood still for a hint: {got}")


def test_a_hint_is_a_legal_move_of_the_current_state_with_words_for_it(hints: TestClient) -> None:
    made = create(hints, BOTS)
    with hints.websocket_connect(f"/ws/{made['table_id']}") as ws:
        state = hello(ws, made["token"])
        for _ in range(6):  # the flip decision, then moves of the round
            got, state = ask(ws, my_turn(ws, state), ref="h1")
            assert got["type"] == "hint", got
            assert got["state_id"] == state["state_id"] and got["ref"] == "h1"
            assert got["action"] in state["actions"]
            assert set(got["params"]) == set(REASONS[got["reason"]])
            assert set(got["words"]["params"]) == set(MOVES[got["words"]["key"]])
            send(ws, "act", state_id=state["state_id"], action=got["action"])
            mine = state["state_id"] + 1  # the state after the move comes before its ack
            state = until(ws, lambda m, s=mine: m["type"] == "state" and m["state_id"] == s)
            assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            if state["view"]["outcome"] is not None:
                break


def test_a_hint_depends_on_the_seats_view_only(hints: TestClient) -> None:
    # Redraw everything the seat cannot see (the other hands): the hint stays the same.
    made = create(hints, BOTS)
    with hints.websocket_connect(f"/ws/{made['table_id']}") as ws:
        room = room_of(hints, made["table_id"])
        first, state = ask(ws, my_turn(ws, hello(ws, made["token"])))
        before = room.table.view(0)
        hands = [list(h) for h in room.table.state.hands]
        room.table.state = SCOUT.scramble_hidden(room.table.state, 0, random.Random(3))
        assert [list(h) for h in room.table.state.hands][1:] != hands[1:]
        assert room.table.view(0) == before
        send(ws, "hint", state_id=state["state_id"])
        again = answer(ws)
        assert first["type"] == again["type"] == "hint"
        assert (again["action"], again["reason"], again["params"]) == (
            first["action"], first["reason"], first["params"])  # fmt: skip


def test_hints_are_refused_to_spectators_stale_states_and_other_turns(tmp_path: Path) -> None:
    slow = {"bot_delay_min_ms": 60_000, "bot_delay_max_ms": 60_000}  # bots wait a minute
    with app_client(tmp_path, **slow) as client:
        made = create(client, BOTS)
        table = made["table_id"]
        with client.websocket_connect(f"/ws/{table}") as ws, \
                client.websocket_connect(f"/ws/{table}") as watcher:  # fmt: skip
            state = my_turn(ws, hello(ws, made["token"]))
            hello(watcher)
            send(watcher, "hint", state_id=state["state_id"])
            assert answer(watcher)["code"] == "spectator"
            send(ws, "hint", state_id=state["state_id"] - 1)
            assert answer(ws)["code"] == "stale_state"
            send(ws, "hint", state_id="now")
            assert answer(ws)["code"] == "bad_message"
            send(ws, "act", state_id=state["state_id"], action=state["actions"][0])
            state = until(ws, lambda m: m["type"] == "state" and not m["actions"])
            send(ws, "hint", state_id=state["state_id"])  # the bots still decide their flips
            assert answer(ws)["code"] == "not_your_turn"
            send(ws, "turning_points")
            assert answer(ws)["code"] == "not_finished"
            early = client.get(f"/api/replay/{table}/turning-points")
            assert early.status_code == 409 and early.json()["code"] == "not_finished"
        with client.websocket_connect(f"/ws/{table}") as stranger:
            send(stranger, "hello", token="not-a-seat-token-at-all")
            assert answer(stranger)["code"] == "bad_token"


def test_no_hints_at_a_table_with_other_people(hints: TestClient) -> None:
    made = create(hints, [{"kind": "open"}, {"kind": "bot", "level": "easy"}])
    joined = hints.post(f"/api/tables/{made['table_id']}/join", json={"name": "Bo"}).json()
    with hints.websocket_connect(f"/ws/{made['table_id']}") as ws, \
            hints.websocket_connect(f"/ws/{made['table_id']}") as friend:  # fmt: skip
        hello(ws, made["token"])
        hello(friend, joined["token"])
        send(ws, "start")
        state = my_turn(ws, until(ws, lambda m: m["type"] == "state" and m["view"]["started"]))
        send(ws, "hint", state_id=state["state_id"])
        assert answer(ws)["code"] == "no_hints"


def test_hints_are_rate_limited_per_seat(tmp_path: Path) -> None:
    with app_client(tmp_path, hint_burst=2, hints_per_min=0.01) as client:
        made = create(client, BOTS)
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            state = my_turn(ws, hello(ws, made["token"]))
            codes = []
            for _ in range(3):
                got, state = ask(ws, state)
                codes.append(got["type"] if got["type"] == "hint" else got["code"])
            assert codes == ["hint", "hint", "rate_limited"]


def test_turning_points_after_a_game_are_the_costliest_moves(hints: TestClient) -> None:
    made = create(hints, BOTS)
    rng = random.Random(11)
    with hints.websocket_connect(f"/ws/{made['table_id']}") as ws:
        state = hello(ws, made["token"])
        while state["view"]["outcome"] is None:  # a careless player: random legal moves
            state = my_turn(ws, state) if not state["finished"] else state
            if state["view"]["outcome"] is not None:
                break
            send(ws, "act", state_id=state["state_id"], action=rng.choice(state["actions"]))
            state = until(ws, lambda m, s=state["state_id"]: m["type"] == "state"
                          and m["state_id"] > s)  # fmt: skip
        send(ws, "hint", state_id=state["state_id"])
        assert answer(ws)["code"] == "game_over"
        send(ws, "turning_points")
        got = answer(ws)
    assert got["type"] == "turning_points", got
    points = got["points"]
    assert 1 <= len(points) <= TURNING_POINTS
    losses = [p["loss"] for p in points]
    assert losses == sorted(losses, reverse=True) and losses[-1] > 0
    for p in points:
        assert 1 <= p["round"] <= 3 and p["move"] >= 1
        assert p["played"] != p["best"]
        assert set(p["params"]) == set(REASONS[p["reason"]])
        assert p["played"]["key"] in MOVES and p["best"]["key"] in MOVES
    spent = [(p["round"], p["best"]["key"]) for p in points if p["best"]["key"] == "scout_show"]
    assert len(spent) == len(set(spent)), "Scout & Show suggested once a round at most"
    replay = hints.get(f"/api/replay/{made['table_id']}/turning-points").json()
    assert replay["seats"] == [{"seat": 0, "name": "Ana", "points": points}]  # people only
    entries = {e["seq"]: e for e in hints.get(f"/api/replay/{made['table_id']}").json()["frames"]}
    assert all(entries[p["seq"]]["events"][0]["seat"] == 0 for p in points)  # the seat's moves
