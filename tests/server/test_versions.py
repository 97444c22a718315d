"""Stored tables carry the rules and chance they were played under: the server rebuilds and
replays only its own version, and says so (``table_outdated``) for a table of another."""

from __future__ import annotations

import random
from pathlib import Path

from starlette.testclient import TestClient

from parlour.server import create_app
from parlour.store import SQLiteStore, op_append, op_create_table, op_finish
from parlour.table import Accepted, SeatInfo, Table, legacy_version
from tests.server.conftest import fast_settings, receive, send

SEATS = [SeatInfo("human", "Ana"), SeatInfo("bot", "Medium", "medium")]


def store_table(store: SQLiteStore, table_id: str, game: str, version: str | None,
                finished: bool) -> None:  # fmt: skip
    """A table of ``game`` played a little (to the end if ``finished``), stored under
    ``version`` (``None``: a row from before versions were recorded)."""
    table = Table(table_id, game, {"players": 2}, 7, list(SEATS))
    store.execute(op_create_table(table_id, game, table.options, 7, table.seats, True, 1,
                                  None, version))  # fmt: skip
    rng, now = random.Random(7), 0
    while table.outcome() is None and (finished or table.state_id < 6):
        due, acting = table.deadline(), table.to_act()
        if acting and (due is None or rng.random() < 0.6):
            seat = rng.choice(acting)
            now = now if due is None else rng.randint(now, due)
            result = table.submit(seat, table.state_id, rng.choice(table.legal_actions(seat)), now)
        else:
            assert due is not None
            now = max(now, due)
            result = table.advance(now)
        assert isinstance(result, Accepted), result
        store.execute(op_append(table_id, result.entry))
    if finished:
        store.execute(op_finish(table_id, table.outcome()))


def test_only_tables_of_this_version_are_rebuilt_and_replayed(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    store = SQLiteStore(settings.db)
    current = Table("x", "scan", {"players": 2}, 7, list(SEATS)).version
    store_table(store, "old-open", "scan", None, finished=False)
    store_table(store, "old-done", "scout", None, finished=True)
    store_table(store, "new-open", "scan", current, finished=False)
    store_table(store, "new-done", "snap", "snap-r1-c2", finished=True)
    assert store.load("old-open").version is None and store.load("new-open").version == current
    store.close()
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert "new-open" in hub.rooms and "old-open" not in hub.rooms  # logged and skipped
        assert client.get("/api/replay/new-done").status_code == 200
        answer = client.get("/api/replay/old-done")
        assert answer.status_code == 410 and answer.json()["code"] == "table_outdated"
        assert client.get("/api/tables/old-open").json()["code"] == "table_outdated"
        with client.websocket_connect("/ws/old-open") as ws:
            send(ws, "hello", token="")
            assert receive(ws, "the refusal")["code"] == "table_outdated"


def test_a_new_table_is_stored_with_its_version(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        made = client.post(
            "/api/tables",
            json={"game": "scan", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"}]},
        ).json()
    stored = SQLiteStore(settings.db).load(made["table_id"])
    assert stored.version == "scan-r1-c2" != legacy_version("scan")
