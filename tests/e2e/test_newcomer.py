"""What a new player stumbled on (issue 13), each checked in Debian Chromium against a real
server: the waiting room's buttons at 1366×800, SCOUT on a phone, the flip preview, the 2-player
table's labels, why a group cannot be shown, and the lobby's first screen."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e.player import POLL, watch_errors
from tests.server.live import LiveServer

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}

HITS = """(sel) => { const el = document.querySelector(sel); if (!el) return 'missing';
  const r = el.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.bottom > innerHeight || r.right > innerWidth || r.top < 0 || r.left < 0) {
    return 'off screen'; }
  const at = document.elementFromPoint(x, y);
  return at && (at === el || el.contains(at)) ? 'ok'
    : `covered by ${at?.outerHTML.slice(0, 80)}`; }"""
"""Whether a click at the centre of the element ``sel`` reaches it, without scrolling."""


def create(server: LiveServer, game: str, seats: list[dict[str, str]], **options: Any) -> Any:
    """A table made through the API (the host is seat 0, named Tess)."""
    body = {"game": game, "name": "Tess", "seats": seats, "options": options}
    request = urllib.request.Request(
        f"{server.url}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def open_seat(
    browser: Any, server: LiveServer, table: Any, viewport: dict[str, int], **kw: Any
) -> Any:
    """The table page of the host's seat (its token stored as net.js stores it)."""
    page = browser.new_context(viewport=viewport, **kw).new_page()
    page.goto(server.url + "/static/img/favicon.svg")
    page.evaluate(
        """([id, seat, token]) => localStorage.setItem('parlour.seats',
             JSON.stringify({[id]: {seat, token, at: Date.now()}}))""",
        [table["table_id"], table["seat"], table["token"]],
    )
    page.goto(f"{server.url}/t/{table['table_id']}")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=30_000, **POLL)
    return page


def test_the_hosts_buttons_are_on_screen_in_the_waiting_room(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    for game, players in (("scout", 5), ("scan", 8), ("snap", 12)):
        table = create(server, game, [{"kind": "open"}] * (players - 1))
        page = open_seat(browser, server, table, DESKTOP)
        errors = watch_errors(page)
        page.wait_for_selector("[data-key='fill-all']", timeout=30_000)
        page.screenshot(path=shots / f"e2e-waiting-{game}.png")
        assert page.evaluate(HITS, "[data-key='fill-all']") == "ok", game
        assert page.evaluate(HITS, "[data-key='start']") == "ok", game
        page.click("[data-key='fill-all']", timeout=30_000)
        page.wait_for_selector("[data-key='start']:not([disabled])", timeout=30_000)
        assert page.evaluate(HITS, "[data-key='start']") == "ok", game
        assert not errors, errors
        page.context.close()
