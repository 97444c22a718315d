"""Many processes, tables following their people (``tables_follow``, on by default): a table
nobody is connected to moves to the process that a socket of it reaches, so that the socket is
served there instead of relayed; a table somebody is at stays, and later sockets elsewhere are
relayed to it. Real processes, a real Redis, one SQLite file.

A move is as safe as a take-over: the new owner takes the lease with a new fencing token and
rebuilds the table from the store, so every acknowledged move is still there and the stored
inputs replay to the end the people saw.
"""

from __future__ import annotations

from pathlib import Path

from tests.server.live import get, post
from tests.server.test_cluster import (
    REALTIME,
    Seat,
    check_log,
    start_cluster,
    start_game,
    two_seat_table,
    wait_for,
)
from tests.server.test_faults import Player

FOLLOW = {"PARLOUR_TABLES_FOLLOW": "1"}


def cluster_of(url: str) -> dict[str, int]:
    return get(f"{url}/api/health")["cluster"]  # type: ignore[no-any-return]


def test_a_table_nobody_is_at_moves_to_the_process_its_first_socket_reaches(
    tmp_path: Path, redis_url: str
) -> None:
    first, second = start_cluster(tmp_path, redis_url, 2, FOLLOW)
    try:
        table_id, token0, token1 = two_seat_table([first, second])  # made at first, Bo joined
        start_game(first.url, table_id, token0)  # at its owner: served there; then closed
        ana = Seat(table_id, token0, [second.port], seed=1)
        ana.start()
        wait_for("Ana's state", lambda: ana.state is not None, 15)
        assert cluster_of(first.url)["handed_over"] == 1  # nobody was at it: it moved
        assert cluster_of(second.url)["owned"] == 1
        assert cluster_of(second.url)["relayed_here"] == 0  # Ana's socket is served here
        bo = Seat(table_id, token1, [first.port], seed=2)  # at the old owner
        for seat in (ana, bo):
            seat.hold_when = lambda seat=seat: bool(seat.acked)  # a move each, then wait
        bo.start()
        wait_for("a move of each", lambda: ana.hold.is_set() and bo.hold.is_set(), 30)
        # Ana is at the table: it stays, and Bo's socket is relayed to it
        assert cluster_of(first.url)["relayed_here"] == 1
        assert cluster_of(second.url)["handed_over"] == 0
        assert cluster_of(first.url)["owned"] == 0
        for seat in (ana, bo):
            seat.hold_when = None
            seat.hold.clear()
        for seat in (ana, bo):
            seat.join(timeout=120)
            assert seat.done.is_set(), seat.problem
            assert seat.closes == 1, "a socket was sent away (only the end closes it)"
        fresh = check_log(first.db, table_id, {0: [ana], 1: [bo]})
        assert fresh.outcome() == ana.states[-1]["view"]["outcome"]
    finally:
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.log.read_text()


def test_a_table_moves_mid_game_with_every_acknowledged_move(
    tmp_path: Path, redis_url: str
) -> None:
    """Both people play at the owner, leave, and come back at another process: the table
    moves there with its log, and the game goes on to an end that its stored inputs replay."""
    first, second = start_cluster(tmp_path, redis_url, 2, FOLLOW)
    try:
        table_id, token0, token1 = two_seat_table([first, second])
        start_game(first.url, table_id, token0)
        before = [Seat(table_id, token0, [first.port], seed=3),
                  Seat(table_id, token1, [first.port], seed=4)]  # fmt: skip
        for seat in before:  # both stop once six moves were acknowledged
            seat.hold_when = lambda: sum(len(s.acked) for s in before) >= 6
            seat.start()
        wait_for("six acknowledged moves", lambda: all(s.hold.is_set() for s in before), 30)
        for seat in before:
            seat.done.set()  # it leaves
        for seat in before:
            seat.join(timeout=30)
        wait_for(
            "nobody at the table", lambda: get(f"{first.url}/api/health")["connections"] == 0, 10
        )
        assert get(f"{first.url}/api/health")["tables"] == 1  # unfinished, still at first
        assert cluster_of(first.url)["handed_over"] == 0
        after = [Seat(table_id, token0, [second.port], seed=5),
                 Seat(table_id, token1, [second.port], seed=6)]  # fmt: skip
        for seat in after:
            seat.start()
        for seat in after:
            seat.join(timeout=120)
            assert seat.done.is_set(), seat.problem
        assert cluster_of(first.url)["handed_over"] == 1
        assert cluster_of(second.url)["relayed_here"] == 0
        assert sum(len(s.acked) for s in after) > 0
        fresh = check_log(first.db, table_id, {0: [before[0], after[0]], 1: [before[1], after[1]]})
        assert fresh.outcome() == after[0].states[-1]["view"]["outcome"]
    finally:
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.log.read_text()


def test_a_real_time_table_moves_to_its_person_and_runs_there(
    tmp_path: Path, redis_url: str
) -> None:
    made_at, other = start_cluster(tmp_path, redis_url, 2, {**REALTIME, **FOLLOW})
    try:
        bots = [{"kind": "bot", "level": "medium"}]
        made = post(f"{made_at.url}/api/tables", {"game": "snap", "name": "Ana", "seats": bots})
        acked: list[tuple[int, dict[str, object]]] = []
        player = Player(other.port, {**made, "game": "snap"}, acked, seed=4)
        player.start()
        player.join(timeout=120)
        assert player.state is not None, player.stalled
        assert player.state["view"]["outcome"] is not None, f"unfinished {player.stalled}"
        assert acked, "the person's calls and flips were acknowledged"
        assert cluster_of(made_at.url)["handed_over"] == 1
        assert cluster_of(other.url)["relayed_here"] == 0  # served where the socket is
        stored = check_log(made_at.db, made["table_id"], {})
        assert stored.outcome() == player.state["view"]["outcome"]
    finally:
        made_at.stop()
        other.stop()
    for server in (made_at, other):
        assert "Traceback" not in server.log.read_text()
