"""Turn timers and away seats at SCOUT tables with people, and who may start a table
(``parlour.server.away``), on a real server with short timers: every socket read has a deadline."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from parlour.server import Settings
from parlour.server.bots import BotRunner
from parlour.server.hub import Hub
from parlour.server.rooms import Connection, Room
from parlour.store import SQLiteStore
from parlour.table import SeatInfo
from tests.server.conftest import queued
from tests.server.live import LiveServer, post

Msg = dict[str, Any]

TURN_S, FLIP_S, HOST_AWAY_S = 6.0, 1.5, 1.0
"""Short timers (a move may take up to 6 s, so that the scripted players are never late on a
busy machine; the tests that wait for a timer wait for the 1.5 s flip timer)."""
TIMERS = {
    "PARLOUR_TURN_TIMER_S": str(TURN_S),
    "PARLOUR_FLIP_TIMER_S": str(FLIP_S),
    "PARLOUR_HOST_AWAY_S": str(HOST_AWAY_S),
}


class Seat:
    """One WebSocket at a table (a seat's, or a spectator's with ``token`` None); every read
    has a deadline."""

    def __init__(self, server: LiveServer, table_id: str, token: str | None) -> None:
        self._conn = connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", open_timeout=10)
        self.ws = self._conn.__enter__()
        hello = {"token": token} if token else {"watch": True}
        self.send("hello", **hello)
        assert self.recv()["type"] == "welcome"
        self.state = self.until(lambda m: m["type"] == "state")

    def send(self, kind: str, **body: Any) -> None:
        self.ws.send(json.dumps({"v": 1, "type": kind, **body}))

    def recv(self, timeout: float = 10.0) -> Msg:
        msg: Msg = json.loads(self.ws.recv(timeout=timeout))
        assert msg["v"] == 1 and "state_id" in msg
        if msg["type"] == "state":
            self.state = msg
        return msg

    def until(self, pred: Callable[[Msg], bool], timeout: float = 10.0) -> Msg:
        """Read until a message satisfies ``pred`` (fails after ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg
        raise AssertionError("the expected message never came")

    def quiet(self, seconds: float) -> list[Msg]:
        """Every message that comes within ``seconds``."""
        got: list[Msg] = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                got.append(self.recv(timeout=left))
            except TimeoutError:
                break
        return got

    def act(self, action: Msg) -> Msg:
        """Play ``action`` in the latest state (again if a computer moved first); the ack."""
        end = time.monotonic() + 10
        while time.monotonic() < end:
            self.send("act", state_id=self.state["state_id"], action=action)
            reply = self.until(lambda m: m["type"] in ("ack", "error"))
            if reply["type"] == "ack":
                return reply
            assert reply["code"] == "stale_state", reply
            if self.state["state_id"] < reply["state_id"]:
                self.until(lambda m: m["type"] == "state")
        raise AssertionError("the move was never applied")

    def close(self) -> None:
        self._conn.__exit__(None, None, None)


def away(msg: Msg, seat: int) -> bool:
    return msg["type"] == "state" and bool(msg["view"]["seat_info"][seat].get("away"))


def timed(msg: Msg) -> dict[int, int]:
    """Seat → the whole time of its running turn timer (ms)."""
    return {t["seat"]: t["total_ms"] for t in msg["timers"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with instant bots and short turn timers."""
    with LiveServer(tmp_path_factory.mktemp("away") / "parlour.db", env=TIMERS) as live:
        yield live


def table_of_two_people(server: LiveServer) -> tuple[str, str, str]:
    """A 3-player SCOUT table: Ana (host), Bo (joined by the link) and an Easy computer."""
    seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}]
    made = post(f"{server.url}/api/tables", {"name": "Ana", "seats": seats})
    joined = post(f"{server.url}/api/tables/{made['table_id']}/join", {"name": "Bo"})
    assert joined["seat"] == 1
    return made["table_id"], made["token"], joined["token"]


def seen_by(seat: Seat, state: Msg) -> Msg:
    """The state message ``seat`` got for the same ``state_id`` as ``state`` (which it may
    have read already)."""
    if seat.state["state_id"] == state["state_id"]:
        return seat.state
    return seat.until(lambda m: m["type"] == "state" and m["state_id"] == state["state_id"])


def play_until(host: Seat, done: Callable[[Msg], bool], rng: random.Random) -> Msg:
    """The host plays random legal moves whenever asked, until a state satisfies ``done``."""
    end = time.monotonic() + 30
    msg = host.state
    while not done(msg):
        assert time.monotonic() < end, "the game did not get there"
        if msg["type"] == "state" and msg["actions"] and msg["view"]["outcome"] is None:
            host.send("act", state_id=msg["state_id"], action=rng.choice(msg["actions"]))
        msg = host.until(lambda m: m["type"] == "state")
    return msg


def test_a_computer_plays_for_a_person_whose_turn_timer_ran_out(server: LiveServer) -> None:
    table_id, host_token, friend_token = table_of_two_people(server)
    host, friend = Seat(server, table_id, host_token), Seat(server, table_id, friend_token)
    watcher = Seat(server, table_id, None)
    host.send("start")
    started = host.until(lambda m: m["type"] == "state" and m["view"]["started"])
    # Both people decide their flip with a timer; the computer has none.
    assert timed(started) == {0: FLIP_S * 1000, 1: FLIP_S * 1000}
    assert all(0 < t["remaining_ms"] <= FLIP_S * 1000 for t in started["timers"])
    host.act({"type": "flip", "flip": False})
    # Bo does nothing: the timer runs out, everyone sees the seat away, and a computer decides.
    shown = host.until(lambda m: away(m, 1), timeout=5)
    assert 1 not in timed(shown)
    watcher.until(lambda m: away(m, 1), timeout=5)
    friend.until(lambda m: away(m, 1), timeout=5)
    # Ana is the only person still playing now: nobody is hurried.
    assert shown["timers"] == []
    rng = random.Random(3)
    # The computer plays Bo's turns (Bo sends nothing), immediately each time.
    moved = play_until(
        host,
        lambda m: any(
            e["seat"] == 1 and e["type"] in ("show", "scout", "scout_show")
            for e in m.get("events", [])
        ),
        rng,
    )
    assert away(moved, 1) and moved["timers"] == []
    for seat in (host, friend, watcher):
        seat.close()


def test_a_disconnected_person_goes_away_and_comes_back(server: LiveServer) -> None:
    table_id, host_token, friend_token = table_of_two_people(server)
    host, friend = Seat(server, table_id, host_token), Seat(server, table_id, friend_token)
    host.send("start")
    host.until(lambda m: m["type"] == "state" and m["view"]["started"])
    friend.close()  # Bo leaves: his timer runs the same way
    host.act({"type": "flip", "flip": True})
    host.until(lambda m: away(m, 1), timeout=5)

    friend = Seat(server, table_id, friend_token)  # reconnecting alone is not being back
    assert away(friend.state, 1)
    friend.send("back")
    back = friend.until(lambda m: m["type"] == "error" or (m["type"] == "state" and not away(m, 1)))
    assert back["type"] == "state", back
    host.until(lambda m: m["type"] == "state" and not away(m, 1))

    # From now on the computer leaves Bo's turns to Bo, with his timer running again.
    rng = random.Random(4)
    turn = play_until(host, lambda m: m["view"]["to_act"] == [1], rng)
    if turn["view"]["phase"] == "flip":
        # The round ended first (his computer may have shown while he was away, and the others
        # scouted it): Bo decides his flip himself, in time, and then his turn to play comes.
        assert timed(turn) == {1: FLIP_S * 1000} and not away(turn, 1)
        flipping = seen_by(friend, turn)
        friend.send("act", state_id=flipping["state_id"], action={"type": "flip", "flip": False})
        turn = play_until(host, lambda m: m["view"]["to_act"] == [1], rng)
    assert timed(turn) == {1: TURN_S * 1000} and not away(turn, 1)
    mine = seen_by(friend, turn)
    friend.send("act", state_id=mine["state_id"], action=rng.choice(mine["actions"]), ref=1)
    reply = friend.until(lambda m: m["type"] in ("ack", "error"))
    assert reply["type"] == "ack", reply
    friend.send("back")  # when not away: refused, and nothing changes
    refused = friend.until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_away" and "already here" in refused["message"]
    host.close()
    friend.close()


def test_a_person_alone_with_computers_is_never_hurried(server: LiveServer) -> None:
    made = post(f"{server.url}/api/tables",
                {"name": "Solo", "seats": [{"kind": "bot", "level": "easy"}] * 2})  # fmt: skip
    solo = Seat(server, made["table_id"], made["token"])
    assert solo.state["timers"] == [] and 0 in solo.state["view"]["to_act"]
    later = solo.quiet(3 * FLIP_S)  # the computers decide their flips; nobody decides for Solo
    state = ([m for m in later if m["type"] == "state"] or [solo.state])[-1]
    assert state["timers"] == [] and not away(state, 0)
    assert 0 in state["view"]["to_act"] and state["actions"][0]["type"] == "flip"
    solo.close()


@pytest.mark.parametrize("game", ["scout", "snap"])
def test_anyone_seated_may_start_once_the_host_has_been_away(server: LiveServer, game: str) -> None:
    seats = [{"kind": "open"}, {"kind": "open"}]
    made = post(f"{server.url}/api/tables", {"game": game, "name": "Ana", "seats": seats})
    table_id = made["table_id"]
    joined = post(f"{server.url}/api/tables/{table_id}/join", {"name": "Bo"})
    host, friend = Seat(server, table_id, made["token"]), Seat(server, table_id, joined["token"])
    assert host.state["starting"] == {"may_start": True, "host_here": True, "others_in_ms": None}
    assert friend.state["starting"]["may_start"] is False
    friend.send("start")
    refused = friend.until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_host"
    assert f"if the host is away for {HOST_AWAY_S:g} s, anyone seated can" in refused["message"]

    host.close()  # the host leaves: Bo is told when he may start, and refused until then
    gone = friend.until(lambda m: m["type"] == "state" and not m["starting"]["host_here"])
    assert gone["starting"]["may_start"] is False
    assert 0 < gone["starting"]["others_in_ms"] <= HOST_AWAY_S * 1000
    friend.send("fill", seat=2, level="easy")
    refused = friend.until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_host" and "not back within" in refused["message"]

    may = friend.until(lambda m: m["type"] == "state" and m["starting"]["may_start"], timeout=5)
    assert may["starting"]["others_in_ms"] == 0
    friend.send("fill", seat=2, level="easy")
    friend.until(lambda m: m["type"] == "state" and m["view"]["seat_info"][2]["kind"] == "bot")
    friend.send("start")
    started = friend.until(lambda m: m["type"] == "error" or m["view"]["started"])
    assert started["type"] == "state" and "starting" not in started
    friend.close()


def test_away_seats_stay_away_after_a_restart(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "parlour.db", env=TIMERS).start()
    try:
        table_id, host_token, friend_token = table_of_two_people(server)
        host = Seat(server, table_id, host_token)
        Seat(server, table_id, friend_token).close()  # Bo sat down and left
        host.send("start")
        host.until(lambda m: m["type"] == "state" and m["view"]["started"])
        host.act({"type": "flip", "flip": False})
        host.until(lambda m: away(m, 1), timeout=5)
        host.close()
        server.stop()
        server.start()
        host = Seat(server, table_id, host_token)
        assert away(host.state, 1)  # still away: the computer goes on playing for Bo
        moved = play_until(
            host,
            lambda m: any(
                e["seat"] == 1 and e["type"] in ("show", "scout", "scout_show")
                for e in m.get("events", [])
            ),
            random.Random(5),
        )
        assert away(moved, 1)
        host.close()
    finally:
        server.stop()


async def _bo_away(
    tmp_path: Path, hub_spy: Any = None, **timing: Any
) -> tuple[Hub, Room, Connection]:
    # In-process: Ana and Bo at a SCOUT table (fake connections, read with deadlines); Ana
    # flips, Bo does not, until his flip timer runs out and he is away. ``hub_spy(hub)`` runs
    # before the table is made. Returns the hub, the room and Bo (close with ``_close``).
    settings = Settings(db=str(tmp_path / "p.db"), bot_workers=0, **timing)
    hub = Hub(settings, SQLiteStore(settings.db), BotRunner(0))
    await hub.open()
    if hub_spy is not None:
        hub_spy(hub)
    room, _ = await hub.create("scout", {}, "Ana", [SeatInfo("open")])
    await room.join("Bo")
    ana, bo = Connection(0), Connection(1)
    room.connect(ana)
    room.connect(bo)
    await room.start(ana)
    await room.submit(0, room.table.state_id, {"type": "flip", "flip": False})
    end = time.monotonic() + 5
    while not room.table.seats[1].away:
        assert time.monotonic() < end, "Bo's timer never ran out"
        await asyncio.wait_for(bo.queue.get(), 5)
    return hub, room, bo


async def _close(hub: Hub) -> None:
    await hub.close()
    hub.store.close()


def test_the_computer_for_an_away_seat_sees_only_that_seats_view(tmp_path: Path) -> None:
    # In-process, with a spy on the bots.
    async def scenario() -> list[tuple[int, dict[str, Any]]]:
        asked: list[tuple[int, dict[str, Any]]] = []

        def spy_on(hub: Hub) -> None:
            choose = hub.bots.choose

            async def spy(game: str, level: str, view: dict[str, Any], legal: list[Any],
                          seed: int) -> str:  # fmt: skip
                asked.append((view["seat"], view))
                return await choose(game, level, view, legal, seed)

            hub.bots.choose = spy  # type: ignore[method-assign]

        hub, _, bo = await _bo_away(tmp_path, spy_on, bot_delay_min_ms=0, bot_delay_max_ms=0,
                                   turn_timer_s=0.3, flip_timer_s=0.3)  # fmt: skip
        end = time.monotonic() + 5
        while not asked:
            assert time.monotonic() < end, "nobody played for Bo"
            await asyncio.wait_for(bo.queue.get(), 5)
        await _close(hub)
        return asked

    asked = asyncio.run(scenario())
    seat, view = asked[0]
    assert seat == 1 and view["hand"] is not None
    assert all(s == 1 for s, _ in asked)


def test_a_move_of_their_own_brings_a_person_back(tmp_path: Path) -> None:
    # In-process, with a slow computer (1 s pause) so that Bo's own move comes first.
    async def scenario() -> tuple[list[Any], list[Any], bool]:
        hub, room, bo = await _bo_away(tmp_path, bot_delay_min_ms=1000, bot_delay_max_ms=1000,
                                   turn_timer_s=5, flip_timer_s=0.3)  # fmt: skip
        # The computer is pausing before it flips for Bo; Bo flips himself first.
        flip = {"type": "flip", "flip": True}
        await room.act(bo, {"state_id": room.table.state_id, "action": flip, "ref": "mine"})
        replies: list[Any] = []
        while not any(m.get("ref") == "mine" for m in replies):
            replies.append(queued(await asyncio.wait_for(bo.queue.get(), 5)))
        await asyncio.sleep(1.5)  # the computer's move, had it come, would be in by now
        bo_moves = [e.action for e in room.table.record if e.seat == 1]
        away_now = room.table.seats[1].away
        await _close(hub)
        return replies, bo_moves, away_now

    replies, bo_moves, away_now = asyncio.run(scenario())
    assert [m["type"] for m in replies if m.get("ref") == "mine"] == ["ack"]
    assert not away_now and bo_moves == [{"type": "flip", "flip": True}]


def test_a_person_back_while_the_computer_waits_to_move_for_them_keeps_their_turn(
    tmp_path: Path,
) -> None:
    # In-process: the computer has decided Bo's flip and waits for the room (another input
    # holds its lock); Bo comes back meanwhile. The computer's flip must not be played.
    async def scenario() -> tuple[list[Any], bool]:
        hub, room, bo = await _bo_away(tmp_path, bot_delay_min_ms=300, bot_delay_max_ms=300,
                                   turn_timer_s=5, flip_timer_s=0.3)  # fmt: skip
        async with room.lock:
            await asyncio.sleep(0.8)  # the computer's pause is over: it waits for the lock
            await room.back(bo)
        await asyncio.sleep(0.1)  # the computer has the lock now (Bo's new timer: 0.3 s)
        bo_moves = [e.action for e in room.table.record if e.seat == 1]
        away_now = room.table.seats[1].away
        await _close(hub)
        return bo_moves, away_now

    bo_moves, away_now = asyncio.run(scenario())
    assert not away_now and bo_moves == []


def test_the_timers_are_settings() -> None:
    env = {"PARLOUR_TURN_TIMER_S": "45", "PARLOUR_FLIP_TIMER_S": "20", "PARLOUR_HOST_AWAY_S": "10"}
    settings = Settings.from_env(env, away_level="hard")
    assert (settings.turn_timer_s, settings.flip_timer_s, settings.host_away_s) == (45, 20, 10)
    assert Settings().turn_timer_s == 60 and Settings().away_level == "medium"
    for bad in ({"turn_timer_s": -1}, {"flip_timer_s": 0}, {"away_level": "grandmaster"}):
        with pytest.raises(ValueError):
            Settings(**bad)  # type: ignore[arg-type]
