"""End to end in Debian Chromium: the turn timer's countdown, a friend marked away while a
computer plays for them and coming back with "I'm back", and a friend who starts the table once
the host has gone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.player import NEEDS_ME, POLL, take_turn, watch_errors
from tests.server.live import LiveServer

DESKTOP = {"width": 1366, "height": 820}
PHONE = {"width": 390, "height": 844}
TIMERS = {"PARLOUR_TURN_TIMER_S": "20", "PARLOUR_FLIP_TIMER_S": "8", "PARLOUR_HOST_AWAY_S": "1.5"}
"""Bo goes away on the flip timer; the turn timer is long enough that the scripted players'
turns (several clicks each) never run out on a busy machine."""


def _table_for_two(browser: Any, server: LiveServer, bot: bool) -> tuple[Any, Any, list[Any]]:
    # Ana hosts a 3-seat SCOUT table; Bo takes the open seat by the invite link.
    host_ctx = browser.new_context(viewport=DESKTOP)
    guest_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    host.goto(server.url)
    host.fill("#name", "Ana")
    host.locator("label.segment", has_text="3").click()
    host.select_option("#seat-1", "open")
    host.select_option("#seat-2", "easy" if bot else "open")
    host.click("#play")
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    host.wait_for_selector(".waiting")
    guest.goto(host.locator("#invite-link").input_value())
    guest.fill("#join-name", "Bo")
    guest.click("#join-sit")
    guest.wait_for_selector(".waiting")
    host.wait_for_selector(".wait-human >> text=Bo")
    return host, guest, [host_ctx, guest_ctx]


def test_a_countdown_then_away_then_back(tmp_path: Path, browser: Any, shots: Path) -> None:
    server = LiveServer(tmp_path / "away.db", env=TIMERS).start()
    host, guest, contexts = _table_for_two(browser, server, bot=True)
    errors = watch_errors(host) + watch_errors(guest)
    host.click("[data-key='start']")
    # Ana sees her own countdown in the flip panel, and flips at once (her time runs too: on a
    # busy machine the checks below would take it all).
    host.wait_for_selector(".flip-choice .turn-timer")
    host.click("[data-flip='false']")
    host.wait_for_function("() => document.body.dataset.flipping === '0'", **POLL)
    # Bo sees his countdown in his flip panel, Ana sees it on his seat; both tick down.
    guest.wait_for_selector(".flip-choice .turn-timer")
    bo = host.locator("#opponents .seat[data-seat='1']")
    assert bo.locator(".turn-timer[role='timer']").count() == 1
    label = bo.locator(".turn-timer").get_attribute("aria-label") or ""
    assert re.fullmatch(r"[1-8] seconds? left", label), label
    host.screenshot(path=shots / "e2e-away-countdown.png")
    guest.screenshot(path=shots / "e2e-away-countdown-phone.png")

    # Bo does nothing: his time runs out, a computer plays for him, and everyone sees it.
    host.wait_for_selector("#opponents .seat-covered[data-seat='1']", timeout=20000)
    assert "away" in bo.locator(".seat-sub").inner_text()
    guest.wait_for_selector("#im-back")
    assert "A computer played for you" in guest.locator(".away-panel").inner_text()
    assert guest.evaluate("document.body.dataset.away") == "1"
    guest.screenshot(path=shots / "e2e-away-banner-phone.png")
    host.screenshot(path=shots / "e2e-away-seen-by-host.png")

    guest.click("#im-back")  # back: the page offers his moves again, with his own countdown
    guest.wait_for_function("() => document.body.dataset.away === '0'", **POLL)
    host.wait_for_function(
        "() => !document.querySelector(\"#opponents .seat-covered[data-seat='1']\")", **POLL
    )
    assert guest.locator("#im-back").count() == 0
    pages = {0: host, 1: guest}
    turns = 0
    while True:
        to_act = [int(s) for s in host.evaluate("document.body.dataset.toAct").split(",") if s]
        people = [s for s in to_act if s in pages]
        if not people:
            before = int(host.evaluate("document.body.dataset.stateId"))
            host.wait_for_function(
                f"() => Number(document.body.dataset.stateId) > {before}", **POLL
            )
            continue
        page = pages[people[0]]
        page.wait_for_function(NEEDS_ME, **POLL)
        if page is guest:
            guest.wait_for_selector("#my-info .turn-timer.big, .flip-choice .turn-timer")
            guest.screenshot(path=shots / "e2e-away-back-my-turn-phone.png")
            take_turn(guest, turns)
            break
        take_turn(page, turns)
        turns += 1
        assert turns < 40
    assert guest.evaluate("document.body.dataset.away") == "0"
    assert errors == []
    for ctx in contexts:
        ctx.close()
    server.stop()


def test_a_friend_starts_once_the_host_has_gone(tmp_path: Path, browser: Any, shots: Path) -> None:
    server = LiveServer(tmp_path / "host.db", env=TIMERS).start()
    _host, guest, contexts = _table_for_two(browser, server, bot=False)
    errors = watch_errors(guest)
    assert guest.locator("[data-key='start']").count() == 0  # only the host, while here
    assert "host starts" in guest.locator(".waiting").inner_text()
    contexts[0].close()  # Ana closes her page
    guest.wait_for_selector("text=The host has left.")
    guest.wait_for_selector("[data-key='start']", timeout=10000)
    assert "you may fill the open seats and start" in guest.locator(".waiting").inner_text()
    guest.screenshot(path=shots / "e2e-away-host-gone-phone.png")
    guest.click("[data-key='fill-all']")
    guest.wait_for_selector("[data-key='start']:not([disabled])")
    guest.click("[data-key='start']")
    guest.wait_for_selector("[data-flip='false']")
    assert errors == []
    contexts[1].close()
    server.stop()
