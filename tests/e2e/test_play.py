"""End to end in Debian Chromium: a whole game from the lobby, and two friends at one table."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from tests.e2e.player import NEEDS_ME, POLL, close_results, needs_me, take_turn, watch_errors
from tests.server.live import LiveServer

DESKTOP = {"width": 1366, "height": 820}
PHONE = {"width": 390, "height": 844}


def test_a_new_player_plays_a_whole_game_against_three_bots(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url)
    page.fill("#name", "Ana")
    page.locator("label.segment", has_text="4").click()
    page.select_option("#seat-1", "beginner")
    page.select_option("#seat-2", "easy")
    page.select_option("#seat-3", "medium")
    page.screenshot(path=shots / "e2e-lobby.png")
    page.click("#play")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("[data-flip='false']")
    assert page.locator("#opponents .seat").count() == 3
    assert page.locator("#hand .card").count() == 11
    assert page.locator(".flip-option").count() == 2  # both orientations previewed
    page.screenshot(path=shots / "e2e-flip.png")

    shot_taken = False
    turns, scout_shows = 0, 0
    while True:
        offered = page.locator("[data-key='ss-intent']").count() > 0
        if not take_turn(page, turns, keyboard=turns % 3 == 0, scout_show=scout_shows < 2):
            break
        if offered and scout_shows < 2 and page.evaluate("document.body.dataset.myTurn") == "1":
            scout_shows += 1  # Scout & Show: the page now asks for the Show
            page.wait_for_selector("text=Scout & Show: now show cards that beat the table.")
            if scout_shows == 1:
                page.screenshot(path=shots / "e2e-scout-and-show.png")
        turns += 1
        if not shot_taken and needs_me(page):
            close_results(page)
            playable = page.locator("#hand button.card.playable")
            ends = page.locator("#show-zone button[data-end]")
            if page.evaluate("document.body.dataset.myTurn") == "1" and playable.count():
                playable.first.click()
                page.screenshot(path=shots / "e2e-table-desktop.png")
                page.locator("[data-key='clear']").click()
                if ends.count():
                    ends.first.click()
                    page.screenshot(path=shots / "e2e-scouting.png")
                    page.keyboard.press("Escape")
                shot_taken = True
        assert turns < 400
    assert scout_shows >= 1, "Scout & Show was played through the page"
    page.wait_for_selector("#results-dialog .ranking")
    assert page.locator("#results-dialog .ranking li").count() == 4
    assert page.locator("#play-again").is_visible()
    assert page.locator(".log-item").count() > 5
    page.screenshot(path=shots / "e2e-final.png")
    table_url = page.url

    page.click("#results-dialog >> text=Watch the replay")  # every move of the finished game
    page.wait_for_selector("body[data-ready='1'] .open-hand")
    assert page.locator("#opponents .seat").count() == 4
    page.click("#rp-next")
    page.click("#rp-next")
    page.wait_for_selector("body[data-step='2']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='3']")
    page.click("#rp-last")
    assert page.locator(".log-round_end").count() == 4
    page.screenshot(path=shots / "e2e-replay.png")

    page.goto(table_url)
    page.wait_for_selector("#play-again")
    page.click("#play-again")  # "play again" seats you at a new table at once
    page.wait_for_selector("[data-flip='false']")
    assert page.locator("#opponents .seat").count() == 3
    assert errors == []
    context.close()


def test_the_table_on_a_phone_with_animations(tmp_path: Path, browser: Any, shots: Path) -> None:
    paced = {"PARLOUR_ANIM_MS": "300", "PARLOUR_BOT_DELAY_MIN_MS": "50",
             "PARLOUR_BOT_DELAY_MAX_MS": "120"}  # fmt: skip
    server = LiveServer(tmp_path / "phone.db", env=paced).start()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url)
    page.screenshot(path=shots / "e2e-phone-lobby.png")
    page.locator("label.segment", has_text="5").click()
    page.click("#play")
    page.wait_for_selector("[data-flip='false']")
    page.screenshot(path=shots / "e2e-phone-flip.png")
    for turn in range(4):  # bots move after a pause, and every move is animated
        take_turn(page, turn)
    page.wait_for_function(NEEDS_ME, **POLL)
    close_results(page)
    playable = page.locator("#hand button.card.playable")
    if page.evaluate("document.body.dataset.myTurn") == "1" and playable.count():
        playable.first.click()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "nothing sticks out sideways on a phone"
    page.screenshot(path=shots / "e2e-phone-table.png")
    page.click("[data-open-help]")
    page.wait_for_selector("#help-dialog[open] h3")
    page.screenshot(path=shots / "e2e-phone-help.png")
    page.keyboard.press("Escape")
    page.click("#btn-log")
    page.wait_for_function(
        "() => getComputedStyle(document.getElementById('log-panel')).transform === 'none'"
    )
    page.screenshot(path=shots / "e2e-phone-log.png")
    assert errors == []
    context.close()
    server.stop()


def test_two_friends_play_a_round_at_one_table_by_the_invite_link(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    host_ctx = browser.new_context(viewport=DESKTOP)
    guest_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors = watch_errors(host) + watch_errors(guest)
    host.goto(server.url)
    host.fill("#name", "Host")
    host.locator("label.segment", has_text="3").click()
    host.select_option("#seat-1", "open")
    host.select_option("#seat-2", "open")
    host.click("#play")
    host.wait_for_selector(".waiting")
    invite = host.locator("#invite-link").input_value()

    guest.goto(invite)  # the friend opens the link and takes the open seat
    guest.fill("#join-name", "Guest")
    guest.click("#join-sit")
    guest.wait_for_selector(".waiting")
    host.wait_for_selector(".wait-human >> text=Guest")
    host.screenshot(path=shots / "e2e-friends-waiting.png")
    host.select_option(".wait-add select", "easy")  # the host fills the last seat with a bot
    host.click(".wait-add button")
    host.click("[data-key='start']")
    host.wait_for_selector("[data-flip='false']")
    guest.wait_for_selector("[data-flip='false']")

    watcher_ctx = browser.new_context(viewport=DESKTOP)
    watcher = watcher_ctx.new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    watcher.goto(invite + "?watch")
    watcher.wait_for_selector("body[data-role='spectator']")

    host_seat = int(host.evaluate("document.body.dataset.seat"))
    guest_seat = int(guest.evaluate("document.body.dataset.seat"))
    assert {host_seat, guest_seat} == {0, 1}
    pages = {host_seat: host, guest_seat: guest}
    turns, reloaded = 0, False
    round_over = "() => document.getElementById('results-dialog').open"
    deadline = time.monotonic() + 240
    while not (reloaded and host.evaluate(round_over)):
        assert time.monotonic() < deadline, "the round did not end"
        acting = host.evaluate("document.body.dataset.toAct")
        ready = [s for s in (int(s) for s in acting.split(",") if s) if s in pages]
        ready = [s for s in ready if needs_me(pages[s])]
        if not ready:
            # The bot's turn, or a friend's move on its way (or not shown yet): the table moves
            # on without this script.
            host.wait_for_timeout(50)
            continue
        page = pages[ready[0]]
        take_turn(page, turns, keyboard=turns % 2 == 0)
        turns += 1
        if turns >= 4 and not reloaded and not host.evaluate(round_over):
            # a refresh brings the friend back to the same seat
            guest.reload()
            guest.wait_for_selector("body[data-ready='1']")
            assert int(guest.evaluate("document.body.dataset.seat")) == guest_seat
            guest.screenshot(path=shots / "e2e-friends-guest-phone.png")
            host.screenshot(path=shots / "e2e-friends-host.png")
            watcher.screenshot(path=shots / "e2e-spectator.png")
            reloaded = True
        assert turns < 300
    assert reloaded
    # both friends see the same round result, broken down, and play on
    for page in (host, guest, watcher):
        page.wait_for_selector("#results-dialog[open] table.results")
    totals = [p.locator("#results-dialog td.total").all_inner_texts() for p in (host, guest)]
    assert totals[0] == totals[1] and len(totals[0]) == 3
    host.screenshot(path=shots / "e2e-friends-round-results.png")
    close_results(guest)
    guest.wait_for_selector("[data-flip='false']")

    # the spectator never received a hand
    assert frames
    for text in frames:
        msg = json.loads(text)
        if msg.get("type") == "state":
            assert msg["view"]["hand"] is None and msg["actions"] == []
    assert errors == []
    for ctx in (host_ctx, guest_ctx, watcher_ctx):
        ctx.close()
