"""Settings for every test: WebSocket reads through Starlette's TestClient have a deadline
(:func:`tests.server.conftest.bounded_reads`); each test's time limit is set in
``pyproject.toml`` (pytest-timeout)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.conftest import bounded_reads


@pytest.fixture(autouse=True, scope="session")
def _bounded_websocket_reads() -> Iterator[None]:
    """No test waits forever for a WebSocket message that never comes."""
    with bounded_reads():
        yield
