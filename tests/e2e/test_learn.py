"""'Learn to play' (issue 13) in Debian Chromium against a real server: from the lobby's link
through the SCOUT lesson — keep or flip, Show, Scout with turning and placing, Scout & Show, the
round's end and points — to a real game, by keyboard at 1366×800 and by touch on a phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.player import POLL, watch_errors
from tests.server.live import LiveServer

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 30_000


def _step(page: Any, step: str) -> None:
    """Wait until the coach asks for ``step`` (the panel's data-step)."""
    page.wait_for_function(
        f"() => document.getElementById('coach')?.dataset.step === '{step}'", timeout=WAIT, **POLL
    )


def _said(page: Any, text: str) -> None:
    """Wait until the coach's explanation of what happened says ``text``."""
    page.wait_for_function(
        "(t) => (document.getElementById('coach-said')?.textContent ?? '').includes(t)",
        arg=text,
        timeout=WAIT,
        **POLL,
    )


def _press(page: Any, selector: str, touch: bool) -> None:
    """Press a control: Enter on it (keyboard), or a tap (touch)."""
    target = page.locator(selector).first
    if touch:
        target.tap()
    else:
        target.focus()
        page.keyboard.press("Enter")


def _on_screen(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
              return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1
                && r.right <= innerWidth + 1; }""",
            selector,
        )
    )


def _select_marked(page: Any, touch: bool) -> None:
    """Select the cards the coach marked, one by one, and press Show."""
    for _ in range(page.locator("#hand .coach-hint").count()):
        _press(page, "#hand .coach-hint[aria-pressed='false']", touch)
    _press(page, "[data-key='show']", touch)


def play_the_scout_lesson(
    page: Any, server: LiveServer, shots: Path, tag: str, touch: bool
) -> None:
    page.goto(server.url + "/")
    _press(page, "a[data-learn='scout']", touch)
    page.wait_for_url(re.compile(r"/learn/scout$"), timeout=WAIT)
    page.screenshot(path=shots / f"learn-scout-{tag}-0-intro.png")
    _press(page, "#learn-start", touch)
    page.wait_for_url(re.compile(r"/t/[^?]+\?learn=scout$"), timeout=WAIT)

    _step(page, "flip")
    assert _on_screen(page, "#coach") and _on_screen(page, "[data-flip='false']")
    page.screenshot(path=shots / f"learn-scout-{tag}-1-flip.png")
    _press(page, "[data-flip='false']", touch)
    _said(page, "You kept your hand as dealt.")

    _step(page, "show")
    assert page.locator("#hand .coach-hint").count() == 2
    page.screenshot(path=shots / f"learn-scout-{tag}-2-show.png")
    _select_marked(page, touch)
    _said(page, "Your cards are now the table's show")

    _step(page, "scout")  # the tutors beat the show: the coach explains, then asks for a Scout
    _said(page, "beat the show and captured its cards")
    page.screenshot(path=shots / f"learn-scout-{tag}-3-scout.png")
    _press(page, "#show-zone button[data-end]", touch)
    _press(page, "[data-key='rotate']", touch)
    page.screenshot(path=shots / f"learn-scout-{tag}-4-place.png")
    _press(page, "#hand .slot:not([disabled])", touch)
    _said(page, "into your hand.")
    _said(page, "gets a Scout chip")

    _step(page, "ss")
    page.screenshot(path=shots / f"learn-scout-{tag}-5-scout-show.png")
    _press(page, "[data-key='ss-intent']", touch)
    _press(page, "#show-zone button[data-end]", touch)
    if page.locator("#hand .slot:not([disabled])").count() == 0:
        _press(page, "[data-key='rotate']", touch)
    _press(page, "#hand .slot:not([disabled])", touch)
    _step(page, "ss_show")
    _said(page, "for your Scout & Show")
    assert page.locator("#hand .coach-hint").count() >= 2
    _select_marked(page, touch)
    _said(page, "That was your Scout & Show")

    _step(page, "done")  # the round's results, with the coach inside the dialog
    page.wait_for_selector("#results-dialog[open] #coach", timeout=WAIT)
    _said(page, "The round is over: after your show every other player scouted")
    _said(page, "Points: +1 for each captured card")
    page.screenshot(path=shots / f"learn-scout-{tag}-6-round-end.png")
    assert page.locator("#coach-real-game").is_visible()
    lesson = page.url
    _press(page, "#coach-real-game", touch)
    page.wait_for_url(lambda url: url != lesson and "learn" not in url, timeout=WAIT)
    page.wait_for_function(
        "() => document.body.dataset.ready === '1' && document.body.dataset.phase === 'flip'",
        timeout=WAIT,
        **POLL,
    )
    assert page.locator("#coach").count() == 0
    page.screenshot(path=shots / f"learn-scout-{tag}-7-real-game.png")


def test_the_scout_lesson_by_keyboard(server: LiveServer, browser: Any, shots: Path) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors = watch_errors(page)
    play_the_scout_lesson(page, server, shots, "desktop", touch=False)
    assert not errors, errors
    page.context.close()


def test_the_scout_lesson_on_a_phone(server: LiveServer, browser: Any, shots: Path) -> None:
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors = watch_errors(page)
    play_the_scout_lesson(page, server, shots, "phone", touch=True)
    assert not errors, errors
    page.context.close()


def test_the_lesson_page_speaks_the_catalogue(server: LiveServer, browser: Any) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors = watch_errors(page)
    page.goto(server.url + "/learn/scan")  # no lesson yet: it says so, with no start button
    page.wait_for_function("() => document.getElementById('learn-intro').textContent", **POLL)
    assert "no lesson" in page.locator("#learn-intro").inner_text()
    assert page.locator("#learn-start").is_hidden()
    assert not errors, errors
    page.context.close()
