"""A game plugged in as one package (``tests.toy``) in Debian Chromium: the lobby shows it with
its options rendered from its schema, creates its table, and the generic page (``game.html``)
plays a whole game against a computer. Nothing of the toy is written in the server, the lobby
or the pages."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_a11y import report, violations
from tests.server.live import LiveServer, get

ROOT = Path(__file__).resolve().parents[2]
TABLE_URL = re.compile(r"/t/([\w-]+)(?:\?lang=[a-z]+)?$")  # the page adds its language


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server that knows the toy (``PARLOUR_EXTRA_GAMES``)."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env = {"PARLOUR_EXTRA_GAMES": "toy=tests.toy", "PYTHONPATH": path}
    with LiveServer(tmp_path_factory.mktemp("toy") / "parlour.db", env) as live:
        yield live


def test_the_toy_is_set_up_in_the_lobby_and_played_on_the_generic_page(
    toy_server: LiveServer, browser: Any, shots: Path
) -> None:
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(toy_server.url)
    page.locator("label.game-tile", has_text="TOY").click()
    found = violations(page)
    assert found == [], report(found)
    assert page.locator("label.game-tile", has_text="TOY").inner_text().count("2–3 players") == 1
    assert [e.inner_text() for e in page.locator("#players label.segment").all()] == ["2", "3"]
    # Its options, from its GameSpec: words from the names where the catalogue has none.
    assert page.locator("#deck-legend").inner_text() == "Deck"
    assert page.locator("#deck label.chip").all_inner_texts() == ["Short", "Long"]
    page.locator("#deck label.chip", has_text="Long").click()
    page.check("#low-wins")
    page.fill("#name", "Tess")
    page.select_option("#seat-1", "expert")
    page.screenshot(path=shots / "e2e-toy-lobby.png", full_page=True)
    with page.expect_request(
        lambda r: r.url.endswith("/api/tables") and r.method == "POST"
    ) as request:
        page.click("#play")
    assert request.value.post_data_json == {
        "game": "toy", "name": "Tess", "seats": [{"kind": "bot", "level": "expert"}],
        "options": {"deck": "long", "low_wins": True},
    }  # fmt: skip
    page.wait_for_url(TABLE_URL)
    match = TABLE_URL.search(page.url)
    assert match
    table_id = match.group(1)

    # The generic page: the view as sent, and a button per legal move.
    page.wait_for_selector("#generic-table:not([hidden])", timeout=15_000)
    assert page.title() == "TOY — Parlour"
    over = "document.querySelector('#view dd[data-key=outcome]')?.textContent !== 'null'"
    for _ in range(10):
        # My move, or the end (the computer may play the last card after mine).
        page.wait_for_function(
            f"() => {over} || document.querySelector('#moves button:not([disabled])')",
            timeout=15_000,
        )
        if page.locator("#view dd[data-key=outcome]").inner_text() != "null":
            break
        move = page.locator("#moves button:not([disabled])").first
        before = page.locator("#view dd[data-key=hand]").inner_text()
        page.screenshot(path=shots / "e2e-toy-table.png", full_page=True)
        found = violations(page)  # the generic page is as accessible as the others
        assert found == [], report(found)
        move.click()
        page.wait_for_function(
            "b => document.querySelector('#view dd[data-key=hand]')?.textContent !== b",
            arg=before,
            timeout=15_000,
        )
    page.wait_for_function(f"() => {over}", timeout=15_000)
    assert page.locator("#status").inner_text() == "The game is over."
    assert page.locator("#log li").count() == 6  # four cards played, two tricks won
    page.screenshot(path=shots / "e2e-toy-over.png", full_page=True)
    info = get(f"{toy_server.url}/api/tables/{table_id}")
    assert info["game"] == "toy" and info["finished"] is True
    assert errors == []
    page.context.close()
