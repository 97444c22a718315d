"""Faults: the server is killed hard (SIGKILL) at random moments while several tables play —
SCOUT with bots, SNAP in real time — and started again on the same database: every acknowledged
action is in the store, every table resumes and is played to its end, and the replays match. A
player who disconnects mid-game and comes back gets its seat and the whole state back."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from parlour.store import SQLiteStore
from tests.server.live import LiveServer, get, post, receive

Msg = dict[str, Any]
ENV = {"PARLOUR_GAME_SPEED": "30", "PARLOUR_START_COUNTDOWN_MS": "0"}


class Player(threading.Thread):
    """Seat 0 of one table, in its own thread: plays until the game ends, the server dies or it
    is told to stop; remembers every acknowledged input and the last state it saw."""

    def __init__(self, port: int, table: Msg, acked: list[tuple[int, Msg]], seed: int) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{port}/ws/{table['table_id']}"
        self.token = table["token"]
        self.game = table["game"]
        self.acked = acked
        self.rng = random.Random(seed)
        self.state: Msg | None = None
        self.first: Msg | None = None
        self.welcome: Msg | None = None
        self.stop = threading.Event()
        self.once = False  # leave after the first state
        self.sent: dict[int, Msg] = {}
        self.stalled = ""  # what it waited for in vain, if it did

    def choose(self, state: Msg) -> tuple[str, Msg] | None:
        view, actions = state["view"], state["actions"]
        if not actions:
            return None
        if self.game == "scout":
            return "act", {"state_id": state["state_id"], "action": self.rng.choice(actions)}
        tops = [s["top"][:-1] for s in view["seats"] if s["top"]]
        if view["seq"] and len(tops) != len(set(tops)):
            return "play", {"seq": view["seq"], "rt_ms": 10, "action": {"type": "snap"}}
        if any(a["type"] == "flip" for a in actions):
            return "play", {"seq": view["seq"], "action": {"type": "flip"}}
        return None

    def run(self) -> None:
        try:
            with connect(self.url, open_timeout=10) as ws:
                ws.send(json.dumps({"v": 1, "type": "hello", "token": self.token}))
                ref, waiting = 0, False
                while not self.stop.is_set():
                    msg = receive(ws, f"the next message of the {self.game} table")
                    kind = msg["type"]
                    if kind == "welcome":
                        self.welcome = msg
                    elif kind == "ping":
                        ws.send(json.dumps({"v": 1, "type": "pong", "nonce": msg["nonce"]}))
                    elif kind == "ack":
                        self.acked.append((msg["state_id"], self.sent.pop(msg["ref"])))
                        waiting = False
                    elif kind == "error":
                        self.sent.pop(msg.get("ref"), None)
                        waiting = False
                    elif kind == "state":
                        self.state = msg
                        self.first = self.first or msg
                        if msg["view"]["outcome"] is not None or self.once:
                            return
                    if not waiting and self.state is not None:
                        move = self.choose(self.state)
                        if move is not None:
                            ref += 1
                            self.sent[ref] = move[1]["action"]
                            ws.send(json.dumps({"v": 1, "type": move[0], "ref": ref, **move[1]}))
                            waiting = True
        except AssertionError as exc:  # nothing came in time: the table stalled
            self.stalled = str(exc)
        except (OSError, TimeoutError, ConnectionError):
            return
        except Exception as exc:  # websockets' ConnectionClosed and friends
            if "close" not in type(exc).__name__.lower():
                raise


def check_acked(db: Path, tables: list[Msg], acked: dict[str, list[tuple[int, Msg]]]) -> int:
    """Every acknowledged input of seat 0 is in the store, at its state id, as sent."""
    store = SQLiteStore(str(db))
    checked = 0
    try:
        for table in tables:
            entries = store.load(table["table_id"]).entries
            for state_id, action in acked[table["table_id"]]:
                assert state_id <= len(entries), f"acknowledged input {state_id} was lost"
                entry = entries[state_id - 1]
                assert entry.seat == 0 and entry.action["type"] == action["type"]
                if table["game"] == "scout":
                    assert entry.action == action
                checked += 1
    finally:
        store.close()
    return checked


def test_kills_at_random_moments_lose_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "parlour.db"
    server = LiveServer(db, env=ENV).start()
    rng = random.Random(2026)
    bots = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
    tables: list[Msg] = []
    try:
        for game in ["scout", "scout", "scout", "snap", "snap"]:
            made = post(f"{server.url}/api/tables", {"game": game, "name": "Ana", "seats": bots})
            tables.append({**made, "game": game})
        acked: dict[str, list[tuple[int, Msg]]] = {t["table_id"]: [] for t in tables}
        checked = 0
        for kill in range(3):
            players = [
                Player(server.port, t, acked[t["table_id"]], seed=kill * 10 + i)
                for i, t in enumerate(tables)
            ]
            for player in players:
                player.start()
            time.sleep(rng.uniform(0.4, 1.5))
            server.kill()  # SIGKILL, mid-game
            for player in players:
                player.join(timeout=30)
            checked = check_acked(db, tables, acked)
            server.start()
        assert checked > 20, "the players made moves between the kills"

        before = {tid: max((sid for sid, _ in done), default=0) for tid, done in acked.items()}
        players = [Player(server.port, t, acked[t["table_id"]], seed=99 + i)
                   for i, t in enumerate(tables)]  # fmt: skip
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=120)
        for table, player in zip(tables, players, strict=True):
            assert player.first is not None and player.state is not None
            assert player.first["state_id"] >= before[table["table_id"]]  # nothing lost
            outcome = player.state["view"]["outcome"]
            assert outcome is not None, f"{table['game']} table did not finish {player.stalled}"
            frames = get(f"{server.url}/api/replay/{table['table_id']}")["frames"]
            assert frames[-1]["view"]["outcome"] == outcome
        check_acked(db, tables, acked)
    finally:
        server.stop()
    log = server.log.read_text()
    assert "rebuilt" in log and "Traceback" not in log


def test_a_player_who_leaves_mid_game_gets_its_seat_and_state_back(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "parlour.db", env=ENV) as server:
        seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
        made = post(f"{server.url}/api/tables", {"game": "scout", "name": "Ana", "seats": seats})
        acked: list[tuple[int, Msg]] = []
        player = Player(server.port, {**made, "game": "scout"}, acked, seed=1)
        player.start()
        deadline = time.monotonic() + 20
        while len(acked) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        player.stop.set()
        player.join(timeout=30)
        assert len(acked) >= 5
        last = player.state
        assert last is not None

        again = Player(server.port, {**made, "game": "scout"}, [], seed=2)
        again.once = True  # read the welcome and the first state only
        again.start()
        again.join(timeout=30)
        assert again.welcome is not None and again.welcome["seat"] == 0
        first = again.first
        assert first is not None and first["state_id"] >= last["state_id"]
        assert first["view"]["seat"] == 0 and first["view"]["hand"]
        assert len(first["history"]) >= len(last.get("history", []))
