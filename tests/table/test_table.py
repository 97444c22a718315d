"""The table authority: accepted inputs advance state_id; refusals change nothing."""

from __future__ import annotations

import random

import pytest

from parlour.table import Accepted, Rejected, SeatInfo, Table

BOTS = [
    SeatInfo("human", "Ana"),
    SeatInfo("bot", "Medium", "medium"),
    SeatInfo("bot", "Easy", "easy"),
]


def scout_table(seed: int = 3) -> Table:
    return Table("t1", "scout", {"players": 3}, seed, list(BOTS))


def test_accepted_inputs_advance_the_state_id_and_the_record() -> None:
    table = scout_table()
    assert table.state_id == 0 and table.to_act() == [0, 1, 2]
    result = table.submit(1, 0, {"type": "flip", "flip": False}, now_ms=10)
    assert isinstance(result, Accepted) and result.state_id == 1 == table.state_id
    assert result.entry.to_json() == {
        "seq": 1,
        "seat": 1,
        "action": {"type": "flip", "flip": False},
        "now_ms": 10,
    }
    assert table.view(0)["state_id"] == 1 and table.view(0)["hand"]
    assert table.view(None)["hand"] is None


@pytest.mark.parametrize(
    ("seat", "state_id", "action", "code"),
    [
        (0, 5, {"type": "flip", "flip": True}, "stale_state"),
        (0, 0, {"type": "dance"}, "invalid_action"),
        (0, 0, {"type": "show", "start": 0, "length": 1}, "illegal_action"),
        (7, 0, {"type": "flip", "flip": True}, "not_your_turn"),
        (None, 0, {"type": "timeout"}, "invalid_action"),
    ],
)
def test_refusals_change_nothing(seat: int | None, state_id: int, action: dict, code: str) -> None:
    table = scout_table()
    before = (table.state_id, list(table.record), table.view(0))
    result = table.submit(seat, state_id, action, now_ms=0)
    assert isinstance(result, Rejected) and result.code == code and result.message
    assert result.state_id == 0
    assert (table.state_id, list(table.record), table.view(0)) == before


def test_an_older_state_id_is_stale_too() -> None:
    # The seat still to flip answers the state before another seat's flip: refused, unchanged.
    table = scout_table()
    assert isinstance(table.submit(1, 0, {"type": "flip", "flip": False}, now_ms=5), Accepted)
    before = (table.state_id, list(table.record), table.view(0))
    result = table.submit(0, 0, {"type": "flip", "flip": True}, now_ms=6)
    assert isinstance(result, Rejected) and result.code == "stale_state", result
    assert result.state_id == 1
    assert (table.state_id, list(table.record), table.view(0)) == before


def test_a_table_rebuilt_from_its_record_is_identical() -> None:
    table = scout_table(9)
    rng = random.Random(1)
    while table.outcome() is None:
        seat = table.to_act()[0]
        action = rng.choice(table.legal_actions(seat))
        assert isinstance(table.submit(seat, table.state_id, action, 0), Accepted)
    again = Table("t1", "scout", {"players": 3}, 9, list(BOTS), record=list(table.record))
    assert again.state == table.state and again.state_id == table.state_id == len(table.record)
    assert again.outcome() == table.outcome() is not None


def test_real_time_tables_advance_at_their_deadline() -> None:
    table = Table(
        "s", "snap", {"players": 2}, 5, [SeatInfo("human", "A"), SeatInfo("bot", "B", "easy")]
    )
    due = table.deadline()
    assert due is not None
    assert table.advance(due - 1) is None and table.state_id == 0
    result = table.advance(due + 5)
    assert isinstance(result, Accepted) and result.entry.seat is None
    assert result.entry.action == {"type": "timeout"}


def test_open_seats_wait_for_players_before_the_start() -> None:
    seats = [SeatInfo("human", "Host"), SeatInfo("open"), SeatInfo("open")]
    table = Table("f", "scout", {"players": 3}, 1, seats, started=False)
    assert table.to_act() == [] and table.legal_actions(0) == []
    assert table.submit(0, 0, {"type": "flip", "flip": True}, 0).code == "not_started"  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        table.start()
    table.take_seat(1, "Bea")
    table.fill_with_bot(2, "hard")
    with pytest.raises(ValueError):
        table.take_seat(1, "Cy")
    table.start()
    assert table.to_act() == [0, 1, 2]
    assert [s.kind for s in table.seats] == ["human", "human", "bot"]


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError):
        Table("x", "scout", {"players": 4}, 1, list(BOTS))
    with pytest.raises(ValueError):
        SeatInfo("alien")
    with pytest.raises(KeyError):
        Table("x", "chess", {}, 1, list(BOTS))
