"""``parlour serve --workers N``: one port, N worker processes sharing the tables through Redis
(real ``parlour serve`` and a real Redis); a worker that dies is replaced and its table plays on;
stopping the parent stops every worker."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest
import redis

from parlour.cli.main import main
from tests.server.live import LiveServer
from tests.server.redis_live import prefix
from tests.server.test_cluster import ENV, Seat, check_log, start_game, two_seat_table, wait_for


def test_more_than_one_worker_needs_redis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--workers", "2", "--db", str(tmp_path / "p.db")]) == 2
    assert "more than one worker needs redis" in capsys.readouterr().err
    assert not (tmp_path / "p.db").exists()


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, ended but not yet reaped, is not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


class Workers:
    """``parlour serve --workers 2 --redis URL`` with a key prefix of its own, and what Redis
    and its log say about its workers."""

    def __init__(self, tmp_path: Path, redis_url: str) -> None:
        self.prefix = prefix()
        self.log = tmp_path / "server.log"
        env = {**ENV, "PARLOUR_REDIS_PREFIX": self.prefix}
        args = ["--redis", redis_url, "--workers", "2"]
        self.server = LiveServer(tmp_path / "parlour.db", env, self.log, args)
        self.redis = redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=5)

    def nodes(self) -> set[str]:
        """The workers listening on Redis (one channel each)."""
        channels = self.redis.pubsub_channels(f"{self.prefix}node:*")
        return {str(c).rsplit(":", 1)[1] for c in channels}

    def pids(self) -> dict[int, int]:
        """Worker number → its latest process id, from the log."""
        found = re.findall(r"worker (\d+) started \(pid (\d+)\)", self.log.read_text())
        return {int(n): int(pid) for n, pid in found}


def test_workers_stop_when_their_parent_is_killed(tmp_path: Path, redis_url: str) -> None:
    cluster = Workers(tmp_path, redis_url)
    cluster.server.start()
    try:
        wait_for("two workers listening", lambda: len(cluster.nodes()) == 2, 30)
        workers = list(cluster.pids().values())
    finally:
        cluster.server.kill()  # SIGKILL: the parent cannot stop its workers
    wait_for("the orphaned workers to stop", lambda: not any(map(alive, workers)), 15)
    wait_for("no worker left on Redis", lambda: not cluster.nodes(), 10)


def test_workers_share_one_port_and_a_dead_worker_is_replaced(
    tmp_path: Path, redis_url: str
) -> None:
    cluster = Workers(tmp_path, redis_url)
    server, log, nodes, pids = cluster.server, cluster.log, cluster.nodes, cluster.pids
    server.start()
    try:
        wait_for("two workers listening", lambda: len(nodes()) == 2, 30)
        first = nodes()
        # Both seats and the host's start go through the one port: whichever worker accepts
        # a connection forwards it to the table's owner.
        table_id, token0, token1 = two_seat_table([server, server])
        start_game(server.url, table_id, token0)
        tokens = (token0, token1)
        players = [Seat(table_id, token, [server.port], seed=k) for k, token in enumerate(tokens)]
        for seat in players:
            seat.start()
        wait_for("six acknowledged moves", lambda: sum(len(p.acked) for p in players) >= 6, 30)

        killed = pids()[1]
        os.kill(killed, signal.SIGKILL)
        wait_for("another worker in its place", lambda: pids()[1] != killed, 10)
        wait_for("two workers listening again", lambda: len(nodes()) == 2 and nodes() != first, 30)
        assert f"(pid {killed}) ended (exit code -9): starting another" in log.read_text()
        for seat in players:
            seat.join(timeout=120)
        for k, seat in enumerate(players):
            assert seat.done.is_set(), f"seat {k} did not see the end: {seat.problem}"
        check_log(tmp_path / "parlour.db", table_id, {0: [players[0]], 1: [players[1]]})
        workers = list(pids().values())
        assert all(alive(pid) for pid in workers)
    finally:
        server.stop()
    wait_for("every worker to stop with the parent", lambda: not any(map(alive, workers)), 15)
    wait_for("no worker left on Redis", lambda: not nodes(), 10)
    assert "Traceback" not in log.read_text()
