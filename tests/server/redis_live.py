"""A real Redis for the many-processes tests: ``PARLOUR_TEST_REDIS`` when set, else a throwaway
``redis-server`` (from ``PATH``) on a free port in a temporary folder. Each test uses its own key
prefix, so tests (and runs) sharing one Redis never see each other's keys."""

from __future__ import annotations

import uuid

from bench.loadkit import RedisServer

__all__ = ["RedisServer", "prefix"]


def prefix() -> str:
    """A key prefix of its own for one test."""
    return f"parlour-test-{uuid.uuid4().hex[:10]}:"
