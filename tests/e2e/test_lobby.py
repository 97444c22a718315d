"""The lobby in Debian Chromium: each game is set up through the page and its table is created
with the right game, seats, bot levels (the pace-setter arrangement for SCAN and SNAP) and options.

The table pages are not part of this test: the navigation to ``/t/{id}`` is answered with an
empty page, and the table is checked through the API and the request the lobby sent.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from tests.server.live import LiveServer

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
TABLE_URL = re.compile(r"/t/([\w-]+)$")


def _page(browser: Any, server: LiveServer, viewport: dict[str, int] = DESKTOP, **kw: Any) -> Any:
    context = browser.new_context(viewport=viewport, **kw)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.route(TABLE_URL, lambda route: route.fulfill(body="<!doctype html><title>table</title>",
                                                      content_type="text/html"))  # fmt: skip
    page.goto(server.url)
    return page


def _play(page: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Press Play: the body the lobby POSTed, and the created table as the API describes it."""
    with page.expect_request(
        lambda r: r.url.endswith("/api/tables") and r.method == "POST"
    ) as request:
        page.click("#play")
    body = request.value.post_data_json
    page.wait_for_url(TABLE_URL)
    match = TABLE_URL.search(page.url)
    assert match
    origin = page.url.split("/t/")[0]
    with urllib.request.urlopen(f"{origin}/api/tables/{match.group(1)}") as answer:
        table = json.load(answer)
    return body, table


def _kinds(table: dict[str, Any]) -> list[str]:
    return [s["kind"] if s["kind"] != "bot" else s["level"] for s in table["seat_info"]]


def test_scout_two_players_with_the_chips_option(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    page = _page(browser, server)
    assert page.locator("input[name=game]:checked").get_attribute("value") == "scout"
    assert page.locator(".badge").count() == 0  # nothing is "coming soon" any more
    page.fill("#name", "Ana")
    page.locator("label.segment", has_text="3").click()
    assert page.locator("#options-scout").is_hidden()  # the chips option is for 2 players
    page.locator("label.segment", has_text="2").click()
    assert page.locator("#options-scout").is_visible()
    page.select_option("#seat-1", "hard")
    page.uncheck("#count-unspent-chips")
    page.screenshot(path=shots / "e2e-lobby-scout.png", full_page=True)
    page.locator("button[data-open-help]").first.click()  # SCOUT's help is the catalogue's own
    page.wait_for_selector("#help-dialog[open] h3")
    assert page.locator("#help-title").inner_text() == "How to play SCOUT"
    assert page.locator("#help-dialog h3").count() >= 5
    page.keyboard.press("Escape")
    body, table = _play(page)
    assert body == {"game": "scout", "name": "Ana", "seats": [{"kind": "bot", "level": "hard"}],
                    "options": {"count_unspent_chips": False}}  # fmt: skip
    assert table["game"] == "scout"
    assert _kinds(table) == ["human", "hard"]
    assert table["seat_info"][0]["name"] == "Ana"
    assert page.errors == []


def test_scan_with_a_pace_setter_a_friend_and_options(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    page = _page(browser, server)
    page.locator("label.game-tile", has_text="SCAN").click()
    assert page.locator("#players-n").input_value() == "4"
    page.click("#players-inc")
    page.click("#players-inc")
    assert page.locator("#players-n").input_value() == "6"
    page.select_option("#level", "hard")
    page.select_option("#friends", "1")
    hint = page.locator("#pace-hint").inner_text()
    assert "sets the pace" in hint and "1 Hard, 3 Medium" in hint
    page.locator("label.chip", has_text="Random").click()
    page.check("#bluffo")
    page.check("#dealers-choice")  # Dealer's Choice and four in a row exclude each other
    assert page.locator("#four-in-a-row").is_disabled()
    page.uncheck("#dealers-choice")
    page.check("#four-in-a-row")
    assert page.locator("#dealers-choice").is_disabled()
    assert page.locator("#category-legend").inner_text() == "Category of the first game"
    page.check("#colour-blind")
    assert page.evaluate("localStorage.getItem('parlour.colourBlind')") == "1"
    page.screenshot(path=shots / "e2e-lobby-scan.png", full_page=True)
    body, table = _play(page)
    assert body["game"] == "scan"
    assert body["seats"] == [{"kind": "bot", "level": "hard"}] + [
        {"kind": "bot", "level": "medium"}
    ] * 3 + [{"kind": "open"}]
    assert body["options"] == {"category": "random", "dealers_choice": False, "bluffo": True,
                               "four_in_a_row": True}  # fmt: skip
    assert table["game"] == "scan"
    assert _kinds(table) == ["human", "hard", "medium", "medium", "medium", "open"]
    assert table["open_seats"] == 1

    page.goto(server.url)  # the lobby remembers the last setup of each game
    assert page.locator("input[name=game]:checked").get_attribute("value") == "scan"
    assert page.locator("#players-n").input_value() == "6"
    assert page.locator("#level").input_value() == "hard"
    assert page.locator("#friends").input_value() == "1"
    assert page.locator("input[name=category]:checked").get_attribute("value") == "random"
    assert page.is_checked("#four-in-a-row") and page.is_checked("#bluffo")
    assert page.is_checked("#colour-blind")
    page.uncheck("#colour-blind")
    assert page.evaluate("localStorage.getItem('parlour.colourBlind')") == "0"
    page.locator("label.game-tile", has_text="SCOUT").click()
    assert page.locator("label.segment input:checked").get_attribute("value") == "4"
    assert page.errors == []


def test_snap_with_twelve_players_at_beginner_level(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    page = _page(browser, server)
    page.fill("#name", "Cleo")
    page.locator("label.game-tile", has_text="SNAP").click()
    page.fill("#players-n", "13")  # too many: the field keeps to SNAP's 2–12
    page.keyboard.press("Tab")
    assert page.locator("#players-n").input_value() == "12"
    assert page.locator("#players-inc").is_disabled()
    page.select_option("#level", "beginner")  # Beginner has nobody slower: all Beginner
    assert "11 Beginner" in page.locator("#pace-hint").inner_text()
    page.locator("label.chip", has_text="Same rank and colour").click()
    page.check("#index-card")
    page.check("#shuffle-on-recycle")
    page.screenshot(path=shots / "e2e-lobby-snap.png", full_page=True)
    body, table = _play(page)
    assert body["seats"] == [{"kind": "bot", "level": "beginner"}] * 11
    assert body["options"] == {"match": "rank_and_colour", "index_card": True,
                               "shuffle_on_recycle": True}  # fmt: skip
    assert table["game"] == "snap"
    assert _kinds(table) == ["human"] + ["beginner"] * 11

    page.goto(server.url)
    page.select_option("#level", "expert")
    page.select_option("#friends", "0")
    page.fill("#players-n", "3")
    page.keyboard.press("Tab")
    body, table = _play(page)
    assert body["seats"] == [{"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "hard"}]
    assert _kinds(table) == ["human", "expert", "hard"]
    assert page.errors == []


def test_the_lobby_on_a_phone(server: LiveServer, browser: Any, shots: Path) -> None:
    page = _page(browser, server, PHONE, is_mobile=True, has_touch=True)
    page.locator("label.game-tile", has_text="SCAN").click()
    page.click("#players-dec")
    page.select_option("#level", "easy")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "nothing sticks out sideways on a phone"
    page.screenshot(path=shots / "e2e-lobby-phone.png", full_page=True)
    page.locator("label.game-tile", has_text="SNAP").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=shots / "e2e-lobby-phone-snap.png", full_page=True)
    page.locator("button[data-open-help]").first.click()
    page.wait_for_selector("#help-dialog[open] h3")
    assert page.locator("#help-title").inner_text() == "How to play SNAP"
    page.screenshot(path=shots / "e2e-lobby-phone-help.png")
    page.keyboard.press("Escape")
    page.focus("#name")
    page.keyboard.press("Tab")  # to the stepper's "−": the focused control shows an outline
    assert page.evaluate("document.activeElement.id") == "players-dec"
    page.screenshot(path=shots / "e2e-lobby-phone-focus.png")
    body, table = _play(page)
    assert body["game"] == "snap" and table["game"] == "snap"
    assert page.errors == []


def test_a_first_visit_starts_scan_and_snap_at_easy_and_says_what_each_level_means(
    server: LiveServer, browser: Any, shots: Path
) -> None:
    page = _page(browser, server)
    page.locator("label.game-tile", has_text="SNAP").click()
    assert page.locator("#level").input_value() == "easy"
    options = page.locator("#level option").all_inner_texts()
    assert options == [
        "Beginner — reacts in about 0.8 s",
        "Easy — reacts in about 0.6 s",
        "Medium — reacts in about 0.5 s",
        "Hard — reacts in about 0.4 s",
        "Expert — reacts in about 0.3 s",
    ]
    assert "1 Easy, 2 Beginner" in page.locator("#pace-hint").inner_text()
    page.screenshot(path=shots / "e2e-lobby-first-visit-snap.png", full_page=True)
    body, _ = _play(page)
    assert (
        body["seats"]
        == [{"kind": "bot", "level": "easy"}] + [{"kind": "bot", "level": "beginner"}] * 2
    )

    page = _page(browser, server)
    page.locator("label.game-tile", has_text="SCAN").click()
    assert page.locator("#level").input_value() == "easy"
    medium = page.locator("#level option[value=medium]")
    assert medium.inner_text() == "Medium — finds the match in about 3.4 s"  # shape
    page.locator("#category label.chip", has_text="Colour").click()
    assert medium.inner_text() == "Medium — finds the match in about 2.4 s"
    page.check("#four-in-a-row")  # every category: the median over all four
    assert medium.inner_text() == "Medium — finds the match in about 2.9 s"
    fits = """e => {  // the longest option's text, the padding and the arrow fit the box
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = getComputedStyle(e).font;
        const widest = Math.max(...[...e.options].map((o) => ctx.measureText(o.text).width));
        return widest + 40 <= e.clientWidth;
    }"""
    assert page.locator("#level").evaluate(fits), "the level's words are not cut off"
    page.screenshot(path=shots / "e2e-lobby-first-visit-scan.png", full_page=True)
    assert page.errors == []
