"""Browser tests: Debian's Chromium driven by Playwright against a real server.

The browser is ``/usr/bin/chromium`` (installed by ``.ci/run``); nothing downloads a browser.
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import LiveServer

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with instant bots and no animations, on its own database."""
    with LiveServer(tmp_path_factory.mktemp("e2e") / "parlour.db") as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Debian Chromium. Missing, every browser test fails (never skips): a machine
    without it would otherwise report green having tested no page at all."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is not installed (apt-get install chromium)", pytrace=False)
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def shots() -> Path:
    """Where screenshots go."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
