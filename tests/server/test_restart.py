"""A restart loses nothing that was acknowledged: a real server (uvicorn in a subprocess) is
stopped mid-game — gracefully, then killed — and started again on the same database file, and
the same game is finished with the same seat token."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from tests.server.live import LiveServer, post, receive

Msg = dict[str, Any]


class Seat:
    """One seat's WebSocket: plays random legal moves and remembers what it was told."""

    def __init__(self, server: LiveServer, table_id: str, token: str) -> None:
        self._conn = connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", open_timeout=10)
        self.ws = self._conn.__enter__()
        self.ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        assert self.recv()["type"] == "welcome"
        self.state = self.next_state()
        self.acked = 0

    def recv(self) -> Msg:
        msg = receive(self.ws, "the next message of the game")
        assert msg["v"] == 1 and "state_id" in msg
        return msg

    def next_state(self) -> Msg:
        while (msg := self.recv())["type"] != "state":
            pass
        return msg

    def play(self, rng: random.Random, moves: int) -> int:
        """Make up to ``moves`` moves (bots move in between); returns how many were made."""
        made = 0
        while made < moves and self.state["view"]["outcome"] is None:
            if not self.state["actions"]:
                self.state = self.next_state()
                continue
            action = rng.choice(self.state["actions"])
            self.ws.send(
                json.dumps(
                    {"v": 1, "type": "act", "state_id": self.state["state_id"], "action": action}
                )
            )
            while (msg := self.recv())["type"] not in ("ack", "error"):
                self.state = msg if msg["type"] == "state" else self.state
            if msg["type"] == "ack":
                self.acked = msg["state_id"]
                made += 1
            else:
                assert msg["code"] == "stale_state", msg
            self.state = (
                self.next_state() if self.state["state_id"] < msg["state_id"] else self.state
            )
        return made

    def close(self) -> None:
        self._conn.__exit__(None, None, None)


def test_the_same_game_survives_a_stop_and_a_kill(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "parlour.db").start()
    try:
        made = post(
            f"{server.url}/api/tables",
            {
                "name": "Ana",
                "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}],
            },
        )
        table_id, token = made["table_id"], made["token"]
        rng = random.Random(3)

        seat = Seat(server, table_id, token)
        assert seat.play(rng, 6) == 6
        hand, acked = seat.state["view"]["hand"], seat.acked
        seat.close()
        server.stop()  # graceful

        server.start()
        seat = Seat(server, table_id, token)
        assert seat.state["state_id"] >= acked  # nothing acknowledged was lost
        if seat.state["state_id"] == acked:
            assert seat.state["view"]["hand"] == hand
        assert seat.play(rng, 6) == 6
        acked = seat.acked
        seat.close()
        server.kill()  # abrupt: no shutdown code runs

        server.start()
        seat = Seat(server, table_id, token)
        assert seat.state["state_id"] >= acked
        seat.play(rng, 10_000)  # the bots resumed by themselves: the game ends
        assert seat.state["view"]["outcome"] is not None
        assert len(seat.state["view"]["results"]) == 3
        seat.close()
        with urllib.request.urlopen(f"{server.url}/api/replay/{table_id}", timeout=10) as r:
            frames = json.loads(r.read())["frames"]
        assert frames[-1]["view"]["outcome"] == seat.state["view"]["outcome"]
    finally:
        server.stop()
    log = server.log.read_text()
    assert "rebuilt 1 unfinished tables" in log and "Traceback" not in log


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_killed_server_leaves_no_bot_worker_behind(tmp_path: Path) -> None:
    # Bots think in a process pool. A server killed outright runs no shutdown code: its
    # workers must notice and end by themselves, not wait for work for ever. (Easy chooses on the
    # event loop by default; an empty bot_inline sends every level to the pool.)
    env = {"PARLOUR_BOT_WORKERS": "2", "PARLOUR_BOT_INLINE": ""}
    server = LiveServer(tmp_path / "parlour.db", env=env).start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        made = post(f"{server.url}/api/tables",
                    {"name": "Ana", "seats": [{"kind": "bot", "level": "easy"}] * 2})  # fmt: skip
        seat = Seat(server, made["table_id"], made["token"])  # the bots decide their flips
        deadline = time.monotonic() + 30
        while len(workers := children_of(pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) >= 2, "the bots' pool did not start"
        seat.close()
        server.kill()
        deadline = time.monotonic() + 10
        while (left := {w for w in workers if alive(w)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"processes of the killed server still running: {left}"
    finally:
        server.stop()
