"""Nothing hidden leaks: for thousands of random states of SCOUT, SCAN and SNAP, every view and
every refusal a seat gets is checked against what that seat must never see (other hands, stock
order, covered tan cards, removed blue cards, the seed, and each single hidden card —
``spec.hidden_info``, through ``conformance.leaked``) and against a twin state with everything
hidden redrawn (``spec.scramble_hidden``); every state message the server sends a seat (view,
actions, refusals, extra fields, events and history) is the same when everything hidden from
it is redrawn; the server's logs of whole games never carry the seed or a hidden value; and no
message to a person shows a computer opponent's planned reaction time before its call is
applied. ``tests/core/test_leak_oracle.py`` seeds leaks and checks these checks catch them.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.core.conformance import leaked, unmistakable
from parlour.server import create_app, events
from parlour.server.realtime import RealtimeRoom
from parlour.server.rooms import Connection
from parlour.table import Accepted, Rejected, SeatInfo, Table
from tests.server.conftest import Msg, create, fast_settings, hello, queued, receive, room_of, send


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def secrets_of(table: Table, seat: int | None) -> list[Any]:
    """The hidden values a text may never contain (``unmistakable``: a single card's text may
    be a public card's, and is checked in views by ``leaked``)."""
    return [s for s in table.spec.hidden_info(table.state, seat) if unmistakable(s)]


def leaks_in_text(text: str, secrets: list[Any]) -> list[Any]:
    """The secrets found in ``text``: ints (the seed) as digits, the rest as compact JSON."""
    found = []
    for secret in secrets:
        needle = str(secret) if isinstance(secret, int) else compact(secret)
        if needle in text:
            found.append(secret)
    return found


def check_state(table: Table, players: int, rng: random.Random) -> int:
    """Every seat's and a spectator's view against that viewer's hidden information: as data
    (a value nested anywhere in the view, one card included: ``leaked``) and as text (the
    unmistakable values), and unchanged when everything hidden from the viewer is redrawn;
    returns the views checked."""
    spec, state = table.spec, table.state
    for seat in [*range(players), None]:
        shown = table.view(seat)
        found = leaked(spec, state, seat, shown, rng)
        assert not found, f"seat {seat}'s view shows hidden {found!r}"
        secrets = secrets_of(table, seat)
        assert not leaks_in_text(compact(shown), secrets), f"seat {seat}'s view text: {secrets!r}"
        other = spec.scramble_hidden(state, seat, rng)
        assert spec.view(other, seat) == spec.view(state, seat), (
            f"seat {seat}'s view depends on hidden information"
        )
    return players + 1


OPTIONS: dict[str, list[dict[str, Any]]] = {
    "scout": [{}, {"count_unspent_chips": False}],
    "scan": [{}, {"bluffo": True, "dealers_choice": True}, {"four_in_a_row": True}],
    "snap": [{}, {"match": "rank_and_colour"}, {"index_card": True, "shuffle_on_recycle": True}],
}
PLAYERS = {"scout": (2, 5), "scan": (2, 6), "snap": (2, 6)}
JUNK = [
    {"type": "dance"},
    {"type": "show", "start": 0, "length": 9},
    {"type": "scout", "end": "left", "rotate": False, "insert": 60},
    {"type": "touch", "blue_index": 3, "rt_ms": 5},
    {"type": "choose", "category": "colour"},
    {"type": "snap", "rt_ms": 1},
    {"type": "flip"},
    {"type": "flip", "flip": True},
    {"type": "timeout"},
    {"type": "decide"},
]


def play_and_check(game: str, seed: int, rng: random.Random, budget: int) -> tuple[int, int]:
    """Play one random game (legal and illegal inputs from random seats, timeouts and early
    decisions), checking every state and every refusal; returns (states, refusals) checked."""
    low, high = PLAYERS[game]
    players = rng.randint(low, high)
    options = {**rng.choice(OPTIONS[game]), "players": players}
    seats = [SeatInfo("human", f"P{i}") for i in range(players)]
    table = Table("t", game, options, seed, seats)
    now, states, refusals = 0, 0, 0
    seen: list[Any] = []  # actions that were legal somewhere: good illegal inputs later
    while table.outcome() is None and states < budget:
        check_state(table, players, rng)
        states += 1
        due = table.deadline()
        roll = rng.random()
        if due is not None and (roll < 0.15 or not table.to_act()):
            now = max(now, due)
            assert isinstance(table.advance(now), Accepted)
            continue
        if due is not None:
            now = rng.randint(now, max(now, due))
        if table.race() is not None and roll < 0.3:
            table.decide(now)
            continue
        for _ in range(rng.randint(0, 2)):  # refusals: junk, out of turn, stale, old moves
            seat = rng.randrange(players)
            action = rng.choice(JUNK + seen[-50:]) if seen or rng.random() < 0.5 else JUNK[0]
            state_id = table.state_id if rng.random() < 0.8 else table.state_id - 1
            before = table.state_id
            result = table.submit(seat, state_id, action, now)
            if isinstance(result, Rejected):
                refusals += 1
                assert table.state_id == before
                secrets = secrets_of(table, seat)
                assert not leaks_in_text(result.message, secrets), (result, secrets)
                assert not leaks_in_text(compact(result.to_json()), secrets), result
        if table.outcome() is not None:
            break
        acting = table.to_act()
        if not acting:
            continue
        seat = rng.choice(acting)
        legal = table.legal_actions(seat)
        if not legal:
            continue
        action = rng.choice(legal)
        seen.append(action.to_json())
        result = table.submit(seat, table.state_id, action, now)
        assert isinstance(result, Accepted), result
    check_state(table, players, rng)
    return states + 1, refusals


@pytest.mark.parametrize(("game", "games", "budget"), [("scout", 7, 400), ("scan", 7, 400),
                                                       ("snap", 8, 300)])  # fmt: skip
def test_random_states_leak_nothing_in_views_or_refusals(
    game: str, games: int, budget: int
) -> None:
    rng = random.Random(f"leaks:{game}")
    states = refusals = 0
    for _ in range(games):
        seed = rng.randrange(10**12, 2**48)  # as the server draws them: never a small number
        found = play_and_check(game, seed, rng, budget)
        states += found[0]
        refusals += found[1]
    assert states >= 1000, states
    assert refusals >= 400, refusals


# ------------------------------------------------------------------------ over the socket


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = fast_settings(tmp_path, game_speed=20.0, start_countdown_ms=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def play_over_socket(
    client: TestClient, game: str, limit: int = 4000, rooms: list[Any] | None = None
) -> tuple[Any, Msg]:
    """A person (random legal moves; SNAP: calls every reveal now and then) against two
    computer opponents, until the game is over or ``limit`` messages; returns (room, last
    state)."""
    bots = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
    made = create(client, bots, game=game)
    room = room_of(client, made["table_id"])
    if rooms is not None:
        rooms.append(room)
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        state = hello(ws, made["token"])
        for _ in range(limit):
            if state["finished"]:
                break
            actions = state["actions"]
            if actions and (game == "scout" or rng.random() < 0.5):  # SCOUT waits for us
                action = rng.choice(actions)
                if game == "scout":
                    send(ws, "act", state_id=state["state_id"], action=action)
                else:
                    body: dict[str, Any] = {"seq": state["view"]["seq"], "action": action}
                    if action["type"] in ("snap", "touch", "bluffo"):
                        body["rt_ms"] = rng.randint(20, 200)
                        body["action"] = {k: v for k, v in action.items() if k != "rt_ms"}
                    send(ws, "play", **body)
            msg = receive(ws, "the next state")
            while msg["type"] != "state":
                if msg["type"] == "ping":
                    send(ws, "pong", nonce=msg["nonce"])
                msg = receive(ws, "the next state")
            state = msg
    return room, state


@pytest.mark.parametrize("game", ["scout", "snap"])
def test_the_logs_never_carry_the_seed_or_hidden_cards(
    client: TestClient, caplog: pytest.LogCaptureFixture, game: str
) -> None:
    caplog.set_level(logging.DEBUG)
    room, _ = play_over_socket(client, game, limit=1500)
    table = room.table
    secrets = [s for seat in [*range(len(table.seats)), None] for s in secrets_of(table, seat)]
    records = caplog.records
    for record in records:
        text = record.getMessage() + (record.exc_text or "") + repr(record.args)
        assert str(table.seed) not in text, record
        assert not leaks_in_text(text, secrets), record
    assert str(table.seed) not in caplog.text


def test_no_message_shows_a_bot_s_planned_reaction_time_before_its_call(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[int] = []
    leaks: list[str] = []
    rooms: list[Any] = []

    def spy(conn: Connection, item: dict[str, Any] | str) -> None:
        room, msg = rooms[0] if rooms else None, queued(item)
        if room is not None and msg.get("type") == "state":
            applied = {
                (e.seat, e.action.get("rt_ms")) for e in room.table.record if e.seat is not None
            }
            pending = {
                (seat, action.rt_ms)
                for _, seat, action, _ in list(room.plans)
                if getattr(action, "rt_ms", None) is not None
            }
            pending -= applied  # the same seat and time applied before: not a leak
            for found in _seat_times(msg):
                if found in pending:
                    leaks.append(f"seat {conn.seat} sees planned {found} in {compact(msg)[:300]}")
            checked.append(len(pending))
        conn.queue.put_nowait(item)

    monkeypatch.setattr(Connection, "send", spy)
    _, state = play_over_socket(client, "snap", rooms=rooms)
    assert state["finished"], "the SNAP game should end"
    assert len(checked) > 50 and sum(1 for n in checked if n) > 5, checked[:50]
    assert leaks == []


def _seat_times(msg: Any) -> Iterator[tuple[int, int]]:
    """Every (seat, rt_ms) pair of a dict nested in ``msg``."""
    if isinstance(msg, dict):
        if isinstance(msg.get("seat"), int) and isinstance(msg.get("rt_ms"), int):
            yield msg["seat"], msg["rt_ms"]
        for value in msg.values():
            yield from _seat_times(value)
    elif isinstance(msg, list):
        for value in msg:
            yield from _seat_times(value)


# ------------------------------------------------------------ a pending input's reaction time

TIME_KEYS = frozenset({"at_ms", "decide_ms", "deadline_ms", "clock_ms", "time_ms", "now_ms"})


def pending_bot_inputs(room: Any) -> list[tuple[int, int]]:
    """Every computer opponent's timed input waiting for its race's decision: (seat, arrival).
    A bot acts at the reveal plus its reaction time, so its arrival tells that time."""
    state = room.table.state
    if room.table.game == "snap":
        waiting = [(seat, arrival) for seat, _, arrival in state.race]
    else:
        waiting = [(p.seat, p.arrival_ms) for p in state.pending]
    return [(s, at) for s, at in waiting if room.table.seats[s].kind == "bot"]


def _times(msg: Any, seat: int | None = None) -> Iterator[tuple[int | None, str, int]]:
    """Every (seat of the enclosing dict, key, value) of a time-like key nested in ``msg``."""
    if isinstance(msg, dict):
        here = msg.get("seat") if isinstance(msg.get("seat"), int) else seat
        for key, value in msg.items():
            if key in TIME_KEYS and isinstance(value, int) and not isinstance(value, bool):
                yield here, key, value
            yield from _times(value, here if isinstance(value, dict | list) else seat)
    elif isinstance(msg, list):
        for value in msg:
            yield from _times(value, seat)


@pytest.mark.parametrize("game", ["snap", "scan"])
def test_no_message_tells_a_pending_input_s_reaction_time_before_the_verdict(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    # A computer opponent's timed input that waits for the decision must not be announced at
    # the moment it arrives (that moment is the reveal plus its reaction time), and no message
    # may carry its arrival (an event's at_ms, the clock) or the decision deadline it set.
    rooms: list[Any] = []
    leaks: list[str] = []
    seen: set[tuple[int, int]] = set()

    told = [0]  # how much of the record the person had been sent a state for

    def spy(conn: Connection, item: dict[str, Any] | str) -> None:
        room, msg = rooms[0] if rooms else None, queued(item)
        if room is not None and msg.get("type") == "state" and conn.seat is not None:
            window = room.table.state.options.decision_window_ms
            record = room.table.record
            pending = pending_bot_inputs(room)
            # A state sent for nothing but pending bot inputs would announce them as they came
            # in (a state for a flip or a verdict that came due with one tells nothing of it).
            new = [(e.seat, e.now_ms) for e in record[told[0] :]]
            if new and all(entry in pending for entry in new):
                leaks.append(f"bot input announced as it arrived: {new}")
            told[0] = len(record)
            for seat, arrival in pending:
                seen.add((seat, arrival))
                for owner, key, value in _times(msg):
                    shown = value == arrival and (key != "at_ms" or owner == seat)
                    if shown or (key != "at_ms" and value == arrival + window):
                        leaks.append(f"{key}={value}: bot {seat} came in at {arrival}")
        conn.queue.put_nowait(item)

    monkeypatch.setattr(Connection, "send", spy)
    bots = [{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "hard"}]
    made = create(client, bots, game=game)
    room = room_of(client, made["table_id"])
    rooms.append(room)
    rng = random.Random(16)
    calls = 0
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        send(ws, "hello", token=made["token"])
        for _ in range(3000):
            msg = receive(ws, seconds=10)
            if msg["type"] == "ping":
                send(ws, "pong", nonce=msg["nonce"])
            if msg["type"] != "state" or msg["finished"]:
                if msg["type"] == "state":
                    break
                continue
            timed = [a for a in msg["actions"] if a["type"] in ("snap", "touch", "bluffo")]
            untimed = [a for a in msg["actions"] if a not in timed]
            if untimed:
                send(ws, "play", seq=msg["view"]["seq"], action=untimed[0])
            elif timed and rng.random() < 0.05:  # now and then a (slow) input of our own
                action = {k: v for k, v in rng.choice(timed).items() if k != "rt_ms"}
                send(ws, "play", seq=msg["view"]["seq"], rt_ms=rng.randint(600, 900), action=action)
                calls += 1
            bot_inputs = [
                e for e in room.table.record
                if e.seat in (1, 2) and e.action.get("type") in ("snap", "touch", "bluffo")
            ]  # fmt: skip
            if len(bot_inputs) >= 25 and calls >= 2:
                break
    assert len(bot_inputs) >= 8, "the bots should have raced"
    assert leaks == [], leaks[:5]


# ------------------------------------------- every message, with everything hidden redrawn


def scrambled_twin(room: Any, seat: int, msg: Msg, rng: random.Random) -> tuple[Msg, list[Any]]:
    """The state message ``room`` would send ``seat`` now, and ``seat``'s whole history, were
    everything hidden from ``seat`` redrawn (``scramble_hidden``); ``msg``'s events given."""
    table = room.table
    real = table.state
    table.state = table.spec.scramble_hidden(real, seat, rng)
    try:
        return room.state_message(seat, msg["events"]), events.history(table, seat)
    finally:
        table.state = real


def untimed(value: Any) -> Any:
    """``value`` without the clock's readings of the wall clock (two calls a moment apart)."""
    if isinstance(value, dict) and "now_ms" in value:
        return {k: v for k, v in value.items() if k not in ("now_ms", "starts_in_ms")}
    return value


def differences(room: Any, conn: Connection, msg: Msg, rng: random.Random) -> list[str]:
    """How a state message to a seat would differ were everything hidden from it redrawn: its
    view, actions and refusals, and the events and history it carries (every game's history
    comes from its ``history``: for SCAN and SNAP the same for every seat)."""
    if msg.get("type") != "state" or conn.seat is None:
        return []
    seat = conn.seat
    twin, past = scrambled_twin(room, seat, msg, rng)
    found = [
        f"{key}: {str(msg.get(key))[:200]} / {str(twin.get(key))[:200]}"
        for key in sorted(set(msg) | set(twin))
        if key not in ("events", "history") and untimed(msg.get(key)) != untimed(twin.get(key))
    ]
    if room.table.spec.history is not None:
        told = len(room.history(seat))  # how much of the history this message covers
        if "history" in msg and msg["history"] != past[: len(msg["history"])]:
            found.append(f"history: {str(msg['history'])[-300:]}")
        if msg["events"] and msg["events"] != past[told - len(msg["events"]) : told]:
            found.append(f"events: {str(msg['events'])[-300:]}")
    return found


def spy_on_twins(monkeypatch: pytest.MonkeyPatch, rooms: list[Any], found: list[str]) -> list[int]:
    """Check every message the server sends with :func:`differences`; returns a list that
    grows by one for each state message checked."""
    rng = random.Random(17)
    checked: list[int] = []
    send_original = Connection.send

    def spy(conn: Connection, item: dict[str, Any] | str) -> None:
        msg = queued(item)
        if rooms and msg.get("type") == "state" and conn.seat is not None:
            checked.append(1)
            found.extend(differences(rooms[0], conn, msg, rng))
        send_original(conn, item)

    monkeypatch.setattr(Connection, "send", spy)
    return checked


@pytest.mark.parametrize("game", ["scout", "scan", "snap"])
def test_every_message_to_a_seat_is_the_same_with_everything_hidden_redrawn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    rooms: list[Any] = []
    found: list[str] = []
    checked = spy_on_twins(monkeypatch, rooms, found)
    play_over_socket(client, game, limit=600, rooms=rooms)
    assert len(checked) >= 20, len(checked)  # a whole game (SCOUT: about 40 states)
    assert found == [], found[:3]


@pytest.mark.parametrize("leak", ["flips in the history", "a stock card in the clock"])
def test_a_message_that_tells_something_hidden_is_caught(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, leak: str
) -> None:
    # Seeded leaks outside the views: the server's history of a SCOUT table tells every
    # seat's flip choice; a SNAP table's extra fields tell the next card to be flipped.
    if leak == "flips in the history":
        game = "scout"
        honest = events.history

        def told_flips(table: Table, seat: int | None, since: int = 0) -> list[Any]:
            past = [dict(e) for e in honest(table, seat, since)]  # shared events: copies
            flips = [e[3] for e in table.state.events() if e[0] == "flip"][since:]
            decided = (e for e in past if e["type"] == "flip_decided")
            for event, flip in zip(decided, flips, strict=False):
                event["flip"] = flip
            return past

        monkeypatch.setattr(events, "history", told_flips)
        monkeypatch.setattr("parlour.server.rooms.history", told_flips)
    else:
        game = "snap"
        honest_extra = RealtimeRoom.extra_state

        def peeking(room: RealtimeRoom) -> dict[str, Any]:
            extra = honest_extra(room)
            stock = room.table.state.stocks[room.table.state.turn]
            extra["clock"]["next"] = str(stock[0]) if stock else None
            return extra

        monkeypatch.setattr(RealtimeRoom, "extra_state", peeking)
    rooms: list[Any] = []
    found: list[str] = []
    spy_on_twins(monkeypatch, rooms, found)
    play_over_socket(client, game, limit=300, rooms=rooms)
    assert found, f"the leak ({leak}) went unnoticed"
