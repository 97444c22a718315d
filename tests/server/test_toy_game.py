"""A game plugged in as one package (``tests.toy``) plays through the server untouched: its
table is created through the HTTP API and a whole game is played over the WebSocket, by two
people and a bot of the toy's own. Without ``PARLOUR_EXTRA_GAMES`` nobody sees it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from parlour.games.registry import EXTRA_GAMES, names
from parlour.server import create_app
from tests.server.conftest import create, fast_settings, hello, send, until

TOY = "toy=tests.toy"


@pytest.fixture()
def toy_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv(EXTRA_GAMES, TOY)
    with TestClient(create_app(fast_settings(tmp_path))) as test_client:
        yield test_client


def test_the_toy_is_not_there_unless_the_environment_asks(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(EXTRA_GAMES, raising=False)
    assert "toy" not in names()
    assert "toy" not in [g["game"] for g in client.get("/api/games").json()["games"]]
    refused = client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "open"}]})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_message"


def test_the_toy_is_in_the_games_schema(toy_client: TestClient) -> None:
    games = {g["game"]: g for g in toy_client.get("/api/games").json()["games"]}
    toy = games["toy"]
    assert (toy["title"], toy["min_players"], toy["max_players"]) == ("TOY", 2, 3)
    assert toy["players"] == 2 and toy["realtime"] is False and toy["levels"] is None
    assert toy["options"]["deck"]["choices"] == ["short", "long"]
    assert toy["options"]["deck"]["choice_labels"] == {
        "short": "lobby.toy.short",
        "long": "lobby.toy.long",
    }
    assert toy["options"]["low_wins"] == {
        "kind": "bool", "default": False, "players": [2, 3], "off_when": [],
        "label": "lobby.toy.low_wins", "hint": "lobby.toy.low_wins_hint",
        "off": "lobby.toy.low_wins_off", "label_when": {},
    }  # fmt: skip
    refused = toy_client.post("/api/tables", json={
        "game": "toy", "seats": [{"kind": "open"}], "options": {"deck": "huge"},
    })  # fmt: skip
    assert refused.status_code == 400 and "deck" in refused.json()["message"]
    too_many = toy_client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "open"}] * 3})
    assert too_many.status_code == 400 and "2 to 3 players" in too_many.json()["message"]


def test_two_people_and_a_bot_play_a_whole_toy_game(toy_client: TestClient) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "level": "expert"}]
    made = create(toy_client, seats, game="toy", options={"deck": "long", "low_wins": True})
    table_id = made["table_id"]
    joined = toy_client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    info = toy_client.get(f"/api/tables/{table_id}").json()
    assert info["game"] == "toy" and [s["kind"] for s in info["seat_info"]] == [
        "human",
        "human",
        "bot",
    ]
    with ExitStack() as stack:
        socks = {
            seat: stack.enter_context(toy_client.websocket_connect(f"/ws/{table_id}"))
            for seat in tokens
        }
        for seat, ws in socks.items():
            assert hello(ws, tokens[seat])["view"]["hand"] is not None
        send(socks[0], "start")
        latest = {
            seat: until(ws, lambda m: m["type"] == "state" and m["view"]["started"])
            for seat, ws in socks.items()
        }
        plays = 0
        while latest[0]["view"]["outcome"] is None:
            turn = latest[0]["view"]["turn"]
            if turn in socks:
                msg = latest[turn]
                assert msg["view"]["turn"] == turn and msg["actions"], msg
                lowest = min(msg["actions"], key=lambda a: a["card"])
                state_id = msg["view"]["state_id"]
                send(socks[turn], "act", state_id=state_id, action=lowest)
                plays += 1
            for seat, ws in socks.items():  # every seat sees the move (or the bot's)
                before = latest[seat]["view"]["state_id"]
                latest[seat] = until(
                    ws, lambda m, b=before: m["type"] == "state" and m["view"]["state_id"] > b
                )
        outcome = latest[0]["view"]["outcome"]
        assert plays == 4 and sum(outcome["scores"]) == 2
        assert latest[1]["view"]["outcome"] == outcome
        assert [e["type"] for e in latest[0]["view"]["log"]].count("trick") == 2
    assert toy_client.get(f"/api/tables/{table_id}").json()["finished"] is True
    frames = toy_client.get(f"/api/replay/{table_id}").json()["frames"]
    assert len(frames) == 1 + 6  # the deal, then every card played (two by the bot)
    assert frames[-1]["view"]["outcome"] == outcome
