"""Settings for every test: WebSocket reads through Starlette's TestClient have a deadline
(:func:`tests.server.conftest.bounded_reads`); each test's time limit is set in
``pyproject.toml`` (pytest-timeout); no live server outlives the test that started it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pg import fresh_database, postgres_server
from tests.server.conftest import bounded_reads
from tests.server.live import RUNNING
from tests.server.redis_live import RedisServer


@pytest.fixture(autouse=True, scope="session")
def _bounded_websocket_reads() -> Iterator[None]:
    """No test waits forever for a WebSocket message that never comes."""
    with bounded_reads():
        yield


@pytest.fixture(autouse=True)
def _no_server_outlives_its_test() -> Iterator[None]:
    """A live server a test started and did not stop (it failed half-way) is stopped."""
    before = set(RUNNING)
    yield
    for server in set(RUNNING) - before:
        server.stop()


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    """A real PostgreSQL server's admin URL for this session (``PARLOUR_TEST_POSTGRES``, or a
    throwaway server: ``tests/pg.py``)."""
    with postgres_server() as url:
        yield url


@pytest.fixture()
def pg_url(postgres_admin: str) -> Iterator[str]:
    """The URL of a fresh, empty PostgreSQL database of this test's own."""
    with fresh_database(postgres_admin) as url:
        yield url


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis for the many-processes tests: ``PARLOUR_TEST_REDIS``, or a throwaway
    ``redis-server`` for the session (each test uses a key prefix of its own)."""
    url = os.environ.get("PARLOUR_TEST_REDIS")
    if url:
        yield url
        return
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server.url
    finally:
        server.stop()
