"""Hints at the SCOUT table in Debian Chromium (issue 11): "Suggest a move" shows Expert's move
(its cards selected, or its place in the hand marked, or the hand's side) with a reason, and the
person plays it; after the game the dialog lists up to three turning points. On a desktop in
English and on a phone in Norwegian, checked by axe; the hint's words in Swedish, Albanian and
Romanian on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.player import (
    NEEDS_ME,
    POLL,
    close_results,
    play_to_the_end,
    state_id,
    wait_past,
    watch_errors,
)
from tests.e2e.test_a11y import report, violations
from tests.e2e.test_newcomer import DESKTOP, PHONE, create, open_seat
from tests.server.live import LiveServer

WORDS = {
    "en": {"ask": "Suggest a move", "says": "Expert suggests", "title": "Turning points"},
    "nb": {"ask": "Foreslå et trekk", "says": "Eksperten foreslår", "title": "Vendepunkter"},
    "sv": {"ask": "Föreslå ett drag", "says": "Experten föreslår"},
    "sq": {"ask": "Sugjero një lëvizje", "says": "Eksperti sugjeron"},
    "ro": {"ask": "Sugerează o mutare", "says": "Expertul sugerează"},
}
HINTED = "#hand .card.hinted, #hand .slot.hinted, .flip-option.hinted"


def hint(page: Any, lang: str) -> str:
    """Press "Suggest a move" and wait for the hint; returns the tip's text."""
    button = page.locator("[data-key='hint']")
    assert WORDS[lang]["ask"] in button.inner_text()
    button.click()
    page.wait_for_selector(HINTED, timeout=30_000)
    tip = page.locator("#coach-tip")
    tip.wait_for(state="visible")
    return str(tip.inner_text())


def play_the_hint(page: Any) -> None:
    """Play the hinted move through the page, as a person would after the hint."""
    before = state_id(page)
    flip = page.locator(".flip-option.hinted")
    if flip.count():
        flip.click()
    elif page.locator("#hand .slot.hinted").count():
        page.locator("#hand .slot.hinted").click()
    else:
        hinted = page.evaluate(
            "[...document.querySelectorAll('#hand button.card')].map((b) =>"
            " [b.classList.contains('hinted'), b.classList.contains('selected')])"
        )
        assert [h for h, _ in hinted] == [s for _, s in hinted], "the hinted cards are selected"
        show = page.locator("[data-key='show']")
        assert show.is_enabled()
        show.click()
    wait_past(page, before)


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "nb")])
def test_suggest_a_move_then_play_it_and_see_the_turning_points(
    server: LiveServer, browser: Any, shots: Path, size: str, lang: str
) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    extra = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    locale = {"en": "en-GB", "nb": "nb-NO"}[lang]
    table = create(server, "scout", [{"kind": "bot", "level": "medium"}] * 2)
    page = open_seat(browser, server, table, viewport, locale=locale, **extra)
    errors = watch_errors(page)
    page.wait_for_selector("[data-flip='false']", timeout=30_000)

    tips = [hint(page, lang)]  # the flip decision: which side of the hand
    assert page.locator(".flip-option.hinted").count() == 1
    page.screenshot(path=shots / f"e2e-hint-flip-{size}-{lang}.png")
    play_the_hint(page)
    kinds = set()
    for turn in range(2):  # two moves of the round, each played as suggested
        page.wait_for_function(NEEDS_ME, **POLL)
        close_results(page)
        if page.evaluate("document.body.dataset.myTurn") != "1":
            break
        tips.append(hint(page, lang))
        kinds.add("slot" if page.locator("#hand .slot.hinted").count() else "cards")
        if turn == 0:
            page.screenshot(path=shots / f"e2e-hint-play-{size}-{lang}.png")
            found = violations(page)
            assert not found, report(found)
        play_the_hint(page)
    assert all(WORDS[lang]["says"] in tip for tip in tips), tips
    assert len(tips) >= 2

    play_to_the_end(page)
    section = page.locator("#results-dialog #turning-points")
    section.wait_for(timeout=30_000)
    assert WORDS[lang]["title"] in section.inner_text()
    page.wait_for_function(
        "() => document.querySelector('#turning-points .tp-item, #turning-points p:not(.muted)')",
        timeout=60_000,
        **POLL,
    )
    items = page.locator("#turning-points .tp-item")
    assert items.count() <= 3
    for i in range(items.count()):
        text = items.nth(i).inner_text()
        assert text.count(":") >= 2, text  # "You: …" and "Expert: …"
    page.screenshot(path=shots / f"e2e-hint-turning-points-{size}-{lang}.png")
    found = violations(page)
    assert not found, report(found)
    listed = items.count()

    page.locator("#results-dialog a[href^='/replay/']").click()  # the replay lists them too
    page.wait_for_selector("body[data-ready='1'] .open-hand")
    if listed:
        go = page.locator("#rp-points .tp-go")
        go.first.wait_for(timeout=30_000)
        assert go.count() == listed
        seq = int(go.first.get_attribute("data-seq"))
        go.first.click()
        page.wait_for_selector(f"body[data-step='{seq - 1}']")
        page.locator("#rp-points").scroll_into_view_if_needed()
        page.screenshot(path=shots / f"e2e-hint-replay-{size}-{lang}.png")
        found = violations(page)
        assert not found, report(found)
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["sv", "sq", "ro"])
def test_a_hint_in_every_other_language_fits_a_phone(
    server: LiveServer, browser: Any, shots: Path, lang: str
) -> None:
    # The flip's hint and a turn's hint, in the language's own words, whole on a phone screen.
    locale = {"sv": "sv-SE", "sq": "sq-AL", "ro": "ro-RO"}[lang]
    table = create(server, "scout", [{"kind": "bot", "level": "medium"}] * 2)
    page = open_seat(browser, server, table, PHONE, locale=locale, is_mobile=True, has_touch=True)
    errors = watch_errors(page)
    page.wait_for_selector("[data-flip='false']", timeout=30_000)
    for step in ("flip", "play"):
        if step == "play":
            page.wait_for_function(NEEDS_ME, **POLL)
            close_results(page)
            if page.evaluate("document.body.dataset.myTurn") != "1":
                break  # the round ended before this seat's turn: the flip's hint was seen
        tip = hint(page, lang)
        assert WORDS[lang]["says"] in tip, tip
        fits = "(e) => e.scrollWidth <= e.clientWidth + 1"
        assert page.locator("#coach-tip").evaluate(fits), "the hint is cut off"
        page.screenshot(path=shots / f"e2e-hint-{step}-phone-{lang}.png")
        found = violations(page)
        assert not found, report(found)
        play_the_hint(page)
    assert errors == []
    page.context.close()
