"""SNAP in Debian Chromium against a real server whose game clock runs 8× fast: a whole game
played by the keyboard (F flips, Space calls), a friend joining by the invite link, the host
filling a seat, and a twelve-seat table on a phone screen.

The scripted player knows only what the page shows: it presses Space when two face-up tops it
can see (or a top and the Snap Pot's top) have the same rank, a little after the reveal was
painted, so that its reaction time is not anticipation (rt < 100 game ms) at speed 8.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.player import watch_errors
from tests.server.live import LiveServer

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SPEED = 4
POLL = {"polling": 50}
PLAYING = "() => document.body.dataset.phase === 'play'"

NEXT = """([flipped, called, lag]) => {
  const d = document.body.dataset;
  if (d.over === '1') return 'over';
  if (d.myTurn === '1' && Number(d.seq) !== flipped) return 'flip';
  const seq = Number(d.paintedSeq ?? -1);
  if (seq < 1 || seq !== Number(d.seq) || seq === called) return false;
  if (performance.now() - Number(d.paintedAt) < lag) return false;
  const rank = (card) => card.slice(0, -1);
  const tops = [...document.querySelectorAll('[data-top]')]
    .map((el) => el.dataset.card).filter(Boolean).map(rank);
  const pot = document.querySelector('[data-pot]')?.dataset.card;
  const match = new Set(tops).size < tops.length || (pot && tops.includes(rank(pot)));
  return match ? `snap ${seq}` : false;
}"""
"""What the scripted player does next: ``over``, ``flip`` (its turn), ``snap <seq>`` (two tops it
can see, or a top and the Pot's top, share a rank, and the reveal was painted ``lag`` ms ago), or
nothing yet. Decided in the page, so the player reacts within one 10 ms poll."""
SEEN = """() => ({ seq: Number(document.body.dataset.seq),
  rts: document.querySelectorAll('#banner.show .banner-calls .rt').length })"""
LAG_MS = 25
"""How long after the paint the player presses Space (wall ms): with the page's polling and the
key press about 45 wall ms, 180 game ms at speed 4: no anticipation (rt < 100 game ms). Speed 4
rather than more: a busy machine (CI runs two test workers) slows the scripted player, and every
wall ms it loses counts ``SPEED`` game ms against it."""


@pytest.fixture(scope="module")
def snap_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server whose real-time games run 4× fast and start without a countdown."""
    env = {"PARLOUR_GAME_SPEED": str(SPEED), "PARLOUR_START_COUNTDOWN_MS": "0"}
    with LiveServer(tmp_path_factory.mktemp("e2e-snap") / "parlour.db", env=env) as live:
        yield live


def _create(server: LiveServer, seats: list[dict[str, str]], name: str = "Tess") -> dict[str, Any]:
    body = {"game": "snap", "name": name, "seats": seats, "options": {}}
    request = urllib.request.Request(
        f"{server.url}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.load(response)
    return data


def _open(browser: Any, server: LiveServer, table: dict[str, Any], viewport: dict[str, int]) -> Any:
    """The table page with the host's token stored the way net.js's ``seats.set`` stores it."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/")
    page.evaluate(
        """([id, seat, token]) => localStorage.setItem('parlour.seats',
             JSON.stringify({[id]: {seat, token, at: Date.now()}}))""",
        [table["table_id"], table["seat"], table["token"]],
    )
    page.goto(f"{server.url}/t/{table['table_id']}")
    page.wait_for_function("() => document.body.dataset.ready === '1'", **POLL)
    return page


def test_a_player_plays_a_whole_snap_game_by_keyboard(
    snap_server: LiveServer, browser: Any, shots: Path
) -> None:
    # A Beginner: the scripted player wins most races, so its calls count and the game is short.
    table = _create(snap_server, [{"kind": "bot", "level": "beginner"}])
    page = _open(browser, snap_server, table, DESKTOP)
    errors = watch_errors(page)
    page.wait_for_function(PLAYING, timeout=20_000, **POLL)
    assert page.locator("#opponents .st").count() == 1
    assert page.locator("#snap-btn").is_visible()

    deadline = time.monotonic() + 300
    flipped, called = -1, -1
    flips = calls = 0
    shot_mid, shot_race = False, 0
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the game did not end in time"
        try:
            handle = page.wait_for_function(
                NEXT, arg=[flipped, called, LAG_MS], polling=10, timeout=min(left, 5) * 1000
            )
            todo = handle.json_value()
        except PlaywrightTimeout:
            todo = None
        if todo == "over":
            break
        if todo == "flip":
            flipped = int(page.evaluate("() => document.body.dataset.seq"))
            page.keyboard.press("f")
            flips += 1
        elif todo:
            page.keyboard.press("Space")
            called = int(todo.split()[1])
            calls += 1
        d = page.evaluate(SEEN)
        if not shot_mid and d["seq"] >= 12:
            page.screenshot(path=shots / "e2e-snap-desktop.png")
            shot_mid = True
        if d["rts"] > shot_race and shot_race < 2:  # a decided race (one with both calls if any)
            page.screenshot(path=shots / "e2e-snap-race.png")
            shot_race = d["rts"]

    assert flips > 0 and calls > 0, (flips, calls)
    page.wait_for_selector("#results-dialog[open] .snap-ranking")
    assert page.locator("#results-dialog .snap-ranking li").count() == 2
    first = page.locator("#results-dialog .snap-ranking li").first
    assert first.get_attribute("data-rank") == "1"
    summary = page.locator("#rt-summary")
    assert summary.is_visible()
    log = page.locator("#log").inner_text()
    assert summary.get_attribute("data-median"), f"no call joined a race ({calls} calls): {log}"
    best, median = summary.get_attribute("data-best"), summary.get_attribute("data-median")
    assert int(best or 0) <= int(median or 0)
    assert "median" in summary.inner_text().lower() and "best" in summary.inner_text().lower()
    assert page.locator("#log .log-item").count() > 5
    page.screenshot(path=shots / "e2e-snap-end.png")
    assert not shot_race or page.locator("#log .log-win, #log .log-tie").count() > 0
    assert not errors, errors
    page.context.close()


def test_a_friend_joins_by_the_invite_link(snap_server: LiveServer, browser: Any) -> None:
    table = _create(snap_server, [{"kind": "open"}, {"kind": "bot", "level": "easy"}])
    host = _open(browser, snap_server, table, DESKTOP)
    errors = watch_errors(host)
    host.wait_for_selector("#center-panel .waiting")
    link = host.locator("#invite-link").input_value()
    assert link.endswith(f"/t/{table['table_id']}?lang=en")
    assert host.locator("[data-key='start']").is_disabled()

    friend = browser.new_context(viewport=PHONE).new_page()
    friend_errors = watch_errors(friend)
    friend.goto(link)
    friend.wait_for_selector("#join-dialog[open]")
    friend.fill("#join-name", "Ana")
    friend.click("#join-sit")
    friend.wait_for_function("() => document.body.dataset.seat === '1'", **POLL)
    host.wait_for_selector("#center-panel .wait-seat:has-text('Ana')")
    host.click("[data-key='start']")
    for page in (host, friend):
        page.wait_for_function(PLAYING, timeout=20_000, **POLL)
        assert page.locator("#opponents .st").count() == 2
    assert friend.locator("#opponents .st-name", has_text="Tess").count() == 1
    assert not errors and not friend_errors, errors + friend_errors
    friend.context.close()
    host.context.close()


def test_the_host_fills_an_open_seat_and_starts(snap_server: LiveServer, browser: Any) -> None:
    table = _create(snap_server, [{"kind": "open"}])
    host = _open(browser, snap_server, table, DESKTOP)
    host.wait_for_selector("[data-key='add-1']")
    host.select_option("[data-key='lvl-1']", "beginner")
    host.click("[data-key='add-1']")
    host.wait_for_selector("[data-key='start']:not([disabled])")
    host.click("[data-key='start']")
    host.wait_for_function(PLAYING, timeout=20_000, **POLL)
    assert "Beginner" in host.locator("#opponents .st").first.inner_text()
    host.context.close()


def test_twelve_seats_fit_a_phone_screen(
    snap_server: LiveServer, browser: Any, shots: Path
) -> None:
    levels = ["beginner", "easy", "medium", "hard", "expert"]
    table = _create(snap_server, [{"kind": "bot", "level": levels[i % 5]} for i in range(11)])
    page = _open(browser, snap_server, table, PHONE)
    errors = watch_errors(page)
    page.wait_for_function(PLAYING, timeout=20_000, **POLL)
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 6", timeout=30_000, **POLL)
    assert page.locator("#opponents .st").count() == 11
    page.screenshot(path=shots / "e2e-snap-phone.png")
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    box = page.locator("#snap-btn").bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"], box
    page.keyboard.press("h")  # the rules open with H and close with Escape
    page.wait_for_selector("#help-dialog[open]")
    assert "SNAP" in page.locator("#help-title").inner_text()
    page.keyboard.press("Escape")
    assert not errors, errors
    page.context.close()
