"""Many processes (``parlour serve --redis``): real ``parlour serve`` processes on 127.0.0.1 sharing
one SQLite file and a real Redis (``PARLOUR_TEST_REDIS``, or a throwaway ``redis-server``).

A game is played with its two seats' sockets on different processes and a spectator on a third;
the owner is killed (SIGKILL) mid-game and another process takes the table over within the lease
plus 3 s, with no acknowledged move lost and a replay identical to an uninterrupted run of the
stored inputs. An owner paused (SIGSTOP) until its lease was taken cannot write when it wakes up.
Redis stopped mid-game: inputs are refused with ``unavailable``, the servers keep answering, and
play goes on once Redis is back.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from parlour.store import SQLiteStore, open_store
from parlour.table import Table
from tests.server.live import LiveServer, get, post
from tests.server.redis_live import RedisServer, prefix
from tests.server.test_faults import ENV as REALTIME
from tests.server.test_faults import Player

Msg = dict[str, Any]
LEASE_MS, RENEW_MS = 1500, 300
ENV = {
    "PARLOUR_LEASE_MS": str(LEASE_MS),
    "PARLOUR_RENEW_MS": str(RENEW_MS),
    # these tests relay sockets to a table's owner: its tables stay where they are (tables
    # moving to their sockets: tests/server/test_follow.py)
    "PARLOUR_TABLES_FOLLOW": "0",
}


def start_cluster(
    tmp_path: Path,
    url: str,
    n: int,
    more: dict[str, str] | None = None,
    db: Path | str | None = None,
) -> list[LiveServer]:
    """``n`` processes on one database (``db``: a SQLite file in ``tmp_path`` by default) and
    the Redis at ``url``, with a key prefix of this test's own."""
    env = {**ENV, "PARLOUR_REDIS_PREFIX": prefix(), **(more or {})}
    servers = []
    for i in range(n):
        log = tmp_path / f"server{i}.log"
        server = LiveServer(db or tmp_path / "parlour.db", env, log, args=["--redis", url])
        servers.append(server.start())
    return servers


class Seat(threading.Thread):
    """One seat (or, with ``token=None``, a spectator) of a SCOUT table, in its own thread: it
    plays random legal moves until the game ends, reconnecting by itself (to the next of
    ``ports`` when its process is gone), and remembers every acknowledged move and every
    message."""

    def __init__(self, table_id: str, token: str | None, ports: list[int], seed: int) -> None:
        super().__init__(daemon=True)
        self.table_id = table_id
        self.token = token
        self.ports = ports
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, Msg, float]] = []
        """(state_id, action, time.monotonic()) of every acknowledged move."""
        self.errors: list[Msg] = []
        self.states: list[Msg] = []
        self.closes = 0
        self.hold = threading.Event()
        """While set, the seat makes no move (it still reads)."""
        self.hold_when: Callable[[], bool] | None = None
        """Checked before each move: once true, the seat holds (its own thread sets ``hold``, so
        that no move slips through between a test's check and its ``hold.set()``)."""
        self.done = threading.Event()
        self.problem = ""

    @property
    def state(self) -> Msg | None:
        return self.states[-1] if self.states else None

    def run(self) -> None:
        at = 0
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and not self.done.is_set():
            port = self.ports[at % len(self.ports)]
            try:
                with connect(f"ws://127.0.0.1:{port}/ws/{self.table_id}", open_timeout=15) as ws:
                    hello = {"token": self.token} if self.token else {"watch": True}
                    ws.send(json.dumps({"v": 1, "type": "hello", **hello}))
                    self._play(ws)
            except OSError:  # the process is gone: try the next one
                at += 1
            except Exception as exc:  # closed by the server (the table moved), or a timeout
                if "closed" not in type(exc).__name__.lower() and "Closed" not in str(exc):
                    self.problem = repr(exc)
            self.closes += 1
            time.sleep(self.rng.uniform(0.05, 0.2))

    def _play(self, ws: Any) -> None:
        ref, sent = 0, {}
        quiet_until = time.monotonic() + 20  # nothing for 20 s: the connection is broken
        while not self.done.is_set():
            try:
                msg = json.loads(ws.recv(timeout=0.2))
                quiet_until = time.monotonic() + 20
            except TimeoutError:  # nothing new: perhaps a move to make (no longer held)
                assert time.monotonic() < quiet_until, "nothing came for 20 s"
                msg = {"type": "none"}
            kind = msg["type"]
            if kind == "ping":
                ws.send(json.dumps({"v": 1, "type": "pong", "nonce": msg["nonce"]}))
            elif kind == "ack":
                self.acked.append((msg["state_id"], sent.pop(msg["ref"]), time.monotonic()))
            elif kind == "error":
                self.errors.append(msg)
                sent.pop(msg.get("ref"), None)
            elif kind == "state":
                self.states.append(msg)
                if msg["view"]["outcome"] is not None:
                    self.done.set()
                    return
            state = self.state
            if self.hold_when is not None and self.hold_when():
                self.hold.set()
            if self.token and not sent and state and state["actions"] and not self.hold.is_set():
                ref += 1
                sent[ref] = self.rng.choice(state["actions"])
                body = {"state_id": state["state_id"], "action": sent[ref], "ref": ref}
                ws.send(json.dumps({"v": 1, "type": "act", **body}))


def two_seat_table(servers: list[LiveServer]) -> tuple[str, str, str]:
    """A SCOUT table for two people created at the first process (its owner), the second
    seat taken at the second process (forwarded to the owner); the id and both tokens."""
    made = post(
        f"{servers[0].url}/api/tables",
        {"game": "scout", "name": "Ana", "seats": [{"kind": "open"}]},
    )
    joined = post(f"{servers[1].url}/api/tables/{made['table_id']}/join", {"name": "Bo"})
    assert joined["seat"] == 1 and joined["table_id"] == made["table_id"]
    return made["table_id"], made["token"], joined["token"]


def start_game(url: str, table_id: str, token: str) -> None:
    """The host starts the game (over a socket of its own)."""
    with connect(f"ws://{url.removeprefix('http://')}/ws/{table_id}", open_timeout=5) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        ws.send(json.dumps({"v": 1, "type": "start"}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "state" and msg["view"]["started"]:
                return
            assert msg["type"] != "error", msg
    raise AssertionError("the game did not start")


def wait_for(what: str, check: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(0.05)


def check_log(db: Path | str, table_id: str, seats: dict[int, list[Seat]]) -> Table:
    """Every acknowledged move is in the store at its state id; the stored inputs replayed on a
    fresh table (an uninterrupted run) give the same game. Returns that table."""
    store = open_store(str(db))
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    entries = stored.entries
    for k, seat in ((k, seat) for k, of_k in seats.items() for seat in of_k):
        for state_id, action, _ in seat.acked:
            assert state_id <= len(entries), f"seat {k}'s acknowledged move {state_id} was lost"
            entry = entries[state_id - 1]
            assert (entry.seat, entry.action) == (k, action)
    fresh = Table(table_id, stored.game, stored.options, stored.seed, list(stored.seats))
    for entry in entries:
        result = fresh.replay_entry(entry)
        assert type(result).__name__ == "Accepted", result
    return fresh


def test_a_game_across_processes_survives_the_owner_s_death(tmp_path: Path, redis_url: str) -> None:
    survives_the_owner_s_death(tmp_path, redis_url, tmp_path / "parlour.db")


def test_a_game_across_processes_on_postgresql_survives_the_owner_s_death(
    tmp_path: Path, redis_url: str, pg_url: str
) -> None:
    survives_the_owner_s_death(tmp_path, redis_url, pg_url)


def survives_the_owner_s_death(tmp_path: Path, redis_url: str, db: Path | str) -> None:
    """Two seats' sockets on two processes, a spectator on a third; the owner is killed."""
    owner, second, third = start_cluster(tmp_path, redis_url, 3, db=db)
    try:
        table_id, token0, token1 = two_seat_table([owner, second])
        start_game(owner.url, table_id, token0)
        ports = [owner.port, third.port]
        players = [
            Seat(table_id, token0, ports, seed=1),
            Seat(table_id, token1, [second.port], seed=2),
        ]
        watcher = Seat(table_id, None, [third.port], seed=3)
        # after ten moves both hold, from their own threads (moves come at once: on a quiet
        # machine a game of two could be over before a hold from here took effect)
        ten = lambda: sum(len(p.acked) for p in players) >= 10  # noqa: E731
        for seat in players:
            seat.hold_when = ten
        for seat in [*players, watcher]:
            seat.start()
        wait_for("ten acknowledged moves", lambda: all(p.hold.is_set() for p in players), 30)
        health = get(f"{owner.url}/api/health")["cluster"]
        assert health["owned"] == 1 and health["relayed_to_here"] >= 2  # seat 1 and the watcher

        owner.kill()  # SIGKILL mid-game
        killed = time.monotonic()
        acks = sum(len(p.acked) for p in players)
        for seat in players:
            seat.hold_when = None
            seat.hold.clear()
        wait_for(
            "a move acknowledged after the owner's death",
            lambda: sum(len(p.acked) for p in players) > acks,
            LEASE_MS / 1000 + 3,
        )
        resumed = time.monotonic() - killed
        for seat in [*players, watcher]:
            seat.join(timeout=120)
        for k, seat in enumerate(players):
            assert seat.done.is_set(), f"seat {k} did not see the end: {seat.problem}"
            assert all(s["view"]["seat"] == k for s in seat.states)  # its own view only
        assert watcher.done.is_set(), watcher.problem
        assert all(s["view"]["hand"] is None and s["actions"] == [] for s in watcher.states)
        fresh = check_log(owner.db, table_id, {0: [players[0]], 1: [players[1]]})
        outcome = players[0].states[-1]["view"]["outcome"]
        assert fresh.outcome() == outcome == watcher.states[-1]["view"]["outcome"]
        frames = get(f"{second.url}/api/replay/{table_id}")["frames"]
        assert frames[-1]["view"]["outcome"] == outcome
        assert frames[-1]["view"]["seats"] == fresh.view(None)["seats"]
        took = [get(f"{s.url}/api/health")["cluster"]["took_over"] for s in (second, third)]
        assert sum(took) == 1
        print(f"resumed {resumed:.2f} s after the kill (lease {LEASE_MS} ms); took over: {took}")
    finally:
        for server in (owner, second, third):
            server.stop()
    for server in (second, third):
        assert "Traceback" not in server.log.read_text()


def test_an_owner_paused_until_its_lease_was_taken_cannot_write(
    tmp_path: Path, redis_url: str
) -> None:
    first, second = start_cluster(tmp_path, redis_url, 2)
    try:
        made = post(
            f"{first.url}/api/tables",
            {"game": "scout", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"}]},
        )
        table_id, token = made["table_id"], made["token"]
        url = f"ws://127.0.0.1:{first.port}/ws/{table_id}"
        with connect(url, open_timeout=5) as old:
            old.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            state = _next_state_with_actions(old)
            assert first.proc is not None
            first.proc.send_signal(signal.SIGSTOP)  # paused: it can neither renew nor write
            try:
                # the lease lapses and the second process takes the table (its sweep, or the
                # connection below)
                player = Seat(table_id, token, [second.port], seed=5)
                player.hold.set()
                player.start()
                wait_for("the take-over", lambda: player.state is not None, LEASE_MS / 1000 + 5)
                taken = player.state
                assert taken is not None
                # the paused owner reads this move when it wakes up: it must refuse it
                action = state["actions"][0]
                body = {"state_id": state["state_id"], "action": action, "ref": 1}
                old.send(json.dumps({"v": 1, "type": "act", **body}))
            finally:
                first.proc.send_signal(signal.SIGCONT)
            answers = []
            try:
                while True:
                    msg = json.loads(old.recv(timeout=10))
                    answers.append(msg)
                    assert msg["type"] != "ack", "a stale owner acknowledged a move"
                    if msg["type"] == "error" and msg.get("ref") == 1:
                        assert msg["code"] == "unavailable", msg
                        break
            except Exception as exc:  # the old owner closed the socket: the browser goes on
                assert "Closed" in type(exc).__name__, exc
        store = SQLiteStore(str(first.db))
        try:
            stored = store.load(table_id)
        finally:
            store.close()
        assert len(stored.entries) == taken["state_id"], "the stale owner wrote"
        player.hold.clear()  # the new owner carries on
        wait_for("a move at the new owner", lambda: len(player.acked) > 0, 10)
        player.done.set()
        player.join(timeout=30)
        log = first.log.read_text()
        assert "stale fence" in log or "lost its lease" in log
        print("stale owner:", "stale fence" if "stale fence" in log else "lease lost first")
    finally:
        first.stop()
        second.stop()


def _next_state_with_actions(ws: Any) -> Msg:
    """The latest state with actions once the table is still (nothing new for 0.5 s): at the
    start the bot's flip may follow the person's first state and make it stale."""
    deadline = time.monotonic() + 20
    latest: Msg | None = None
    while time.monotonic() < deadline:
        try:
            msg = json.loads(ws.recv(timeout=0.5 if latest else 10))
        except TimeoutError:
            if latest is not None:
                return latest
            continue
        if msg["type"] == "state":
            latest = msg if msg["actions"] else None
    raise AssertionError("no state with actions came")


def test_redis_down_refuses_inputs_and_play_continues_when_it_is_back(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis").start()  # its own: this test stops it
    servers = start_cluster(tmp_path, redis.url, 2)
    first, second = servers
    try:
        made = post(
            f"{first.url}/api/tables",
            {"game": "scout", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"}]},
        )
        table_id, token = made["table_id"], made["token"]
        local = Seat(table_id, token, [first.port], seed=7)  # at the owner
        relayed = Seat(table_id, token, [second.port], seed=8)  # the same seat, relayed
        # after four moves both hold, from their own threads: the bots move at once, so a
        # game of two seats could end before a hold from here took effect
        four = lambda: len(local.acked) + len(relayed.acked) >= 4  # noqa: E731
        for seat in (local, relayed):
            seat.hold_when = four
            seat.start()
        try:
            wait_for("both sockets' states", lambda: bool(local.state and relayed.state), 30)
        except AssertionError:
            raise AssertionError(
                f"local: {local.problem!r}, relayed: {relayed.problem!r}"
            ) from None
        wait_for("moves before the outage", four, 20)
        # stop when it is the person's turn (the bot waits)
        wait_for("the person's turn", lambda: bool(local.state and local.state["actions"]), 30)
        assert local.state is not None and local.state["view"]["outcome"] is None
        time.sleep(0.5)  # the last moves' answers
        redis.stop()
        stopped = time.monotonic()
        wait_for(
            "both processes to see Redis gone",
            lambda: not any(get(f"{s.url}/api/health")["cluster"]["redis"] for s in servers),
            10,
        )
        before = {id(s): len(s.errors) for s in (local, relayed)}
        for seat in (local, relayed):
            seat.hold_when = None
            seat.hold.clear()

        def refusals(seat: Seat) -> list[Msg]:
            return [e for e in seat.errors[before[id(seat)] :] if e["code"] == "unavailable"]

        # both the owner's own socket and the relayed one are refused
        wait_for("refusals while Redis is down", lambda: refusals(local) and refusals(relayed), 10)
        seen = time.monotonic()
        acked_down = [a for s in (local, relayed) for a in s.acked if stopped + 1 < a[2] < seen]
        assert not acked_down, "a move was acknowledged while Redis was down"
        assert "Redis" in refusals(local)[0]["message"], refusals(local)[0]
        # the servers keep answering what they can
        for server in servers:
            assert get(f"{server.url}/api/health")["v"] == 1
            info = get(f"{server.url}/api/tables/{table_id}")
            assert info["started"] and not info["finished"]

        redis.start()
        back = time.monotonic()
        wait_for(
            "moves once Redis is back",
            lambda: any(a[2] > back for s in (local, relayed) for a in s.acked),
            15,
        )
        for seat in (local, relayed):
            seat.join(timeout=120)
        assert local.done.is_set() and relayed.done.is_set(), (local.problem, relayed.problem)
        check_log(first.db, table_id, {0: [local, relayed]})
    finally:
        for server in servers:
            server.stop()
        redis.stop()
    for server in servers:
        assert "Traceback" not in server.log.read_text()


def test_a_real_time_game_runs_on_its_owner_with_the_person_s_socket_elsewhere(
    tmp_path: Path, redis_url: str
) -> None:
    owner, other = start_cluster(tmp_path, redis_url, 2, REALTIME)
    try:
        bots = [{"kind": "bot", "level": "medium"}]
        made = post(f"{owner.url}/api/tables", {"game": "snap", "name": "Ana", "seats": bots})
        acked: list[tuple[int, Msg]] = []
        player = Player(other.port, {**made, "game": "snap"}, acked, seed=4)  # relayed
        player.start()
        player.join(timeout=120)
        assert player.state is not None, player.stalled
        assert player.state["view"]["outcome"] is not None, f"unfinished {player.stalled}"
        assert acked, "the person's calls and flips were acknowledged through the relay"
        stored = check_log(owner.db, made["table_id"], {})
        assert stored.outcome() == player.state["view"]["outcome"]
        health = get(f"{owner.url}/api/health")["cluster"]
        assert health["owned"] >= 1 or player.state["finished"]
        assert get(f"{other.url}/api/health")["cluster"]["owned"] == 0  # it ran on its owner
    finally:
        owner.stop()
        other.stop()
