"""Accessibility in Debian Chromium: axe-core (the copy pinned in the test dependencies, from
the ``axe-playwright-python`` wheel, injected by the test — Parlour does not serve it and
nothing is downloaded) finds no serious or critical violation on the lobby or on a SCOUT, SCAN
or SNAP table in play, on a desktop (1366×800) and a phone (390×844) screen."""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.player import POLL, watch_errors
from tests.e2e.test_newcomer import DESKTOP, PHONE, create, open_seat
from tests.server.live import LiveServer

AXE = (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text()
SERIOUS = ("serious", "critical")
ALSO = ("page-has-heading-one", "label-content-name-mismatch", "landmark-one-main", "region")
"""Rules checked at any impact: a page's heading, buttons whose visible words are their name
(voice control), and content outside landmarks."""

RUN = """async () => {
  const found = await axe.run(document, { resultTypes: ['violations'],
    rules: { 'label-content-name-mismatch': { enabled: true } } });
  return found.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + n.failureSummary) }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (serious and critical ones)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE)  # through the DevTools protocol: the page's CSP allows no inline script
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return [v for v in found if v["impact"] in SERIOUS or v["id"] in ALSO]


def report(found: list[dict[str, Any]]) -> str:
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']}\n  " + "\n  ".join(v["nodes"])
                     for v in found)  # fmt: skip


PLAYING = {
    "scout": "() => document.body.dataset.myTurn === '1'",
    "scan": "() => document.body.dataset.phase === 'round'",
    "snap": "() => document.body.dataset.phase === 'play'",
}


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_finds_no_serious_violation(
    server: LiveServer, browser: Any, shots: Path, size: str
) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    touch = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    problems: dict[str, list[dict[str, Any]]] = {}
    lobby = browser.new_context(viewport=viewport, **touch).new_page()
    errors = watch_errors(lobby)
    lobby.goto(server.url)
    lobby.wait_for_selector("input[name=game][value=snap]", state="attached")
    problems["lobby"] = violations(lobby)
    lobby.context.close()
    pages = {}  # opened together: their start countdowns run at the same time
    for game in ("scout", "scan", "snap"):
        table = create(server, game, [{"kind": "bot", "level": "beginner"}])
        pages[game] = open_seat(browser, server, table, viewport, **touch)
        errors += watch_errors(pages[game])
    for game, page in pages.items():
        if game == "scout":
            page.click("[data-flip='false']", timeout=30_000)
        page.wait_for_function(PLAYING[game], timeout=30_000, **POLL)
        problems[game] = violations(page)
        if game == "snap":  # who called and who won a race is read out (a polite live region)
            banner = page.locator("#banner")
            assert banner.get_attribute("aria-live") == "polite", banner.evaluate(
                "b => b.outerHTML"
            )
            assert banner.get_attribute("aria-hidden") is None
        page.screenshot(path=shots / f"e2e-a11y-{game}-{size}.png")
        page.context.close()
    bad = {where: report(found) for where, found in problems.items() if found}
    assert not bad, "\n".join(f"== {where}\n{text}" for where, text in bad.items())
    assert not errors, errors
