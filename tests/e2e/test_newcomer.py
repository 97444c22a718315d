"""What a new player stumbled on (issue 13), each checked in Debian Chromium against a real
server: the waiting room's buttons at 1366×800, SCOUT on a phone, the flip preview, the 2-player
table's labels, why a group cannot be shown, and the lobby's first screen."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e import player
from tests.e2e.player import POLL, state_id, wait_past, watch_errors
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


INSIDE = """([sel, box]) => { const out = [];
  const b = box ? document.querySelector(box).getBoundingClientRect()
    : { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  for (const el of document.querySelectorAll(sel)) { const r = el.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1
        || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
      out.push(`${el.className} ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
        + `${Math.round(r.bottom)} outside ${Math.round(b.right)}x${Math.round(b.bottom)}`); } }
  return out; }"""
"""The elements ``sel`` that are not wholly inside the element ``box`` (or the viewport)."""


def my_turn(page: Any) -> None:
    page.wait_for_function(
        """() => { const d = document.body.dataset;
          return d.myTurn === '1' || d.over === '1' || d.flipping === '1'
            || Boolean(document.querySelector('#results-dialog[open]')); }""",
        timeout=30_000,
        **POLL,
    )


def test_scout_for_two_on_a_phone(server: LiveServer, browser: Any, shots: Path) -> None:
    table = create(server, "scout", [{"kind": "bot", "level": "beginner"}])
    page = open_seat(browser, server, table, PHONE, is_mobile=True, has_touch=True)
    errors = watch_errors(page)
    # The 2-player game has no Scout & Show (S15): nothing says it was used.
    opponent = page.locator("#opponents .seat").first
    assert "Scout & Show" not in (opponent.get_attribute("aria-label") or "")
    assert page.locator("#opponents .ss-badge, #me .ss-badge").count() == 0
    page.click("[data-flip='false']", timeout=30_000)
    scouted = False
    for _ in range(60):
        my_turn(page)
        if page.locator("#results-dialog[open]").count():
            break
        before = state_id(page)
        if page.evaluate("document.body.dataset.myTurn") == "1":
            assert page.evaluate(INSIDE, ["#hand > .card", None]) == []
            if not scouted:
                page.screenshot(path=shots / "e2e-scout-phone-hand.png")
        ends = page.locator("#show-zone button[data-end]")
        if not scouted and ends.count():
            ends.first.click()
            page.wait_for_selector("#hand .slot")
            page.screenshot(path=shots / "e2e-scout-phone-scouting.png")
            assert page.evaluate(INSIDE, ["#hand .slot", None]) == []
            width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], width
            slots = page.locator("#hand .slot:not([disabled])")
            if slots.count() == 0:
                page.locator("[data-key='rotate']").click()
            slots.last.click()
            scouted = True
        elif not player._try_show(page, False):
            player._scout(page, False)
        wait_past(page, before)
    assert scouted
    page.wait_for_selector("#results-dialog[open] table.results", timeout=30_000)
    page.screenshot(path=shots / "e2e-scout-phone-results.png")
    assert page.evaluate(INSIDE, ["#results-dialog table.results th", "#results-dialog"]) == []
    assert page.evaluate(INSIDE, ["#results-dialog table.results th", None]) == []
    assert not errors, errors
    page.context.close()


def test_the_flip_preview_fits_at_1366x800(server: LiveServer, browser: Any, shots: Path) -> None:
    table = create(server, "scout", [{"kind": "bot", "level": "beginner"}] * 3)
    page = open_seat(browser, server, table, DESKTOP)
    page.wait_for_selector(".flip-option", timeout=30_000)
    page.screenshot(path=shots / "e2e-scout-flip-preview.png")
    assert page.evaluate(INSIDE, [".flip-option", "#center-panel"]) == []
    assert page.evaluate(INSIDE, [".flip-option", None]) == []
    assert page.evaluate(HITS, "[data-flip='true']") == "ok"
    page.context.close()
