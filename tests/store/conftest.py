"""A store of each backend on a fresh database: SQLite in a temporary folder, PostgreSQL on a
real server (``tests/pg.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.store import Store, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a fresh database of each backend is."""
    if request.param == "sqlite":
        return str(tmp_path / "parlour.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture()
def store(store_url: str) -> Iterator[Store]:
    """An open store on :func:`store_url` (closed afterwards)."""
    opened = open_store(store_url)
    yield opened
    opened.close()
