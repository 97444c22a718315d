"""Every language in Debian Chromium: the lobby and a SCOUT, SCAN and SNAP table in play, in
English, Norwegian Bokmål, Swedish, Albanian and Romanian, at 1366×800 and 390×844 — each page
screenshot to ``test-artifacts/`` (``i18n-<page>-<lang>-<size>.png``), checked for text cut off,
overlapping or off the screen sideways, and run through axe-core (no serious or critical
violation). Then how the language is chosen: the browser's language, a shared link's ``?lang=``,
the picker (remembered), and friends at one table each in their own language."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.e2e.player import POLL, watch_errors
from tests.e2e.test_a11y import PLAYING, report, violations
from tests.e2e.test_newcomer import DESKTOP, PHONE, create, open_seat
from tests.server.live import LiveServer


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> str:
    """A finished 2-player SCOUT game (the replay page shows only those): the host plays the
    first legal move whenever asked; every socket read has a deadline."""
    made = create(server, "scout", [{"kind": "bot", "level": "beginner"}])
    end = time.monotonic() + 120
    with connect(f"ws://127.0.0.1:{server.port}/ws/{made['table_id']}", open_timeout=10) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": made["token"]}))
        while True:
            assert time.monotonic() < end, "the game did not end"
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] != "state":
                continue
            if msg["view"]["outcome"] is not None and msg["finished"]:
                return str(made["table_id"])
            if msg["actions"]:
                act = {"state_id": msg["state_id"], "action": msg["actions"][0]}
                ws.send(json.dumps({"v": 1, "type": "act", **act}))


LOCALES = {"en": "en-GB", "nb": "nb-NO", "sv": "sv-SE", "sq": "sq-AL", "ro": "ro-RO"}
"""The browser's language for each of Parlour's (Chromium's ``--lang``, ``navigator.languages``
and ``Accept-Language``)."""

WORDS = {  # a word of each page in each language: the page really is in that language
    "en": {"lobby": "Choose a game", "scout": "Rules", "scan": "Rules", "snap": "Rules"},
    "nb": {"lobby": "Velg et spill", "scout": "Regler", "scan": "Regler", "snap": "Regler"},
    "sv": {"lobby": "Välj ett spel", "scout": "Regler", "scan": "Regler", "snap": "Regler"},
    "sq": {
        "lobby": "Zgjidh një lojë",
        "scout": "Rregullat",
        "scan": "Rregullat",
        "snap": "Rregullat",
    },
    "ro": {"lobby": "Alege un joc", "scout": "Reguli", "scan": "Reguli", "snap": "Reguli"},
}

LISTS = {
    "en": "Ana, Bo, and Cleo",
    "nb": "Ana, Bo og Cleo",
    "sv": "Ana, Bo och Cleo",
    "sq": "Ana, Bo dhe Cleo",  # from the catalogue: Chromium has no Albanian list format
    "ro": "Ana, Bo și Cleo",
}

DESIGN = {"en": "sides", "nb": "sider", "sv": "sidor", "sq": "anë", "ro": "laturi"}
"""A word of a SCAN shape's description (a screen reader hears the design in the language)."""

OVERFLOW = """() => {
  const out = [];
  const W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1) {
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
  }
  const scroller = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return p;
    }
    return null;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    if (el.closest('.sr-only, [hidden]')) return false;
    const d = el.closest('dialog');
    if (d && !d.open) return false;
    // a phone's log slides in from the side when opened (Log button)
    if (el.closest('.log-panel') && !document.body.classList.contains('log-open')
        && getComputedStyle(el.closest('.log-panel')).transform !== 'none') return false;
    return getComputedStyle(el).visibility !== 'hidden';
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const words = (el) => (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 50);
  const sel = 'button, label, select, a.btn, th, td, h1, h2, h3, p, li, legend, .chip, '
    + '.seat-badge, .st-badge, .seat-flag, .status, .seat-name, .seat-sub, .game-name, '
    + '.banner-text';
  for (const el of document.querySelectorAll(sel)) {
    if (!shown(el)) continue;
    const s = getComputedStyle(el);
    if (s.overflowX === 'auto' || s.overflowX === 'scroll') continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      out.push(`${name(el)} cut off (${el.scrollWidth} > ${el.clientWidth}): ${words(el)}`);
    }
    const r = el.getBoundingClientRect();
    if ((r.right > W + 1 || r.left < -1) && !scroller(el)) {
      const where = `${Math.round(r.left)}…${Math.round(r.right)} of ${W}`;
      out.push(`${name(el)} off the screen (${where}): ${words(el)}`);
    }
  }
  // controls side by side must not overlap
  const rows = '.top-actions, .bar-buttons, .dialog-foot, .flip-options, .wait-actions, '
    + '.tray-controls, '
    + '.snap-controls, .games, .segmented, .chips, .replay-bar';
  for (const row of document.querySelectorAll(rows)) {
    const kids = [...row.children].filter(shown);
    for (let i = 0; i < kids.length; i++) {
      for (let j = i + 1; j < kids.length; j++) {
        const a = kids[i].getBoundingClientRect(), b = kids[j].getBoundingClientRect();
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 2 && y > 2) {
          const both = `${words(kids[i])} / ${words(kids[j])}`;
          out.push(`${name(kids[i])} overlaps ${name(kids[j])}: ${both}`);
        }
      }
    }
  }
  return out;
}"""


def _context(browser: Any, lang: str, size: str) -> Any:
    viewport = DESKTOP if size == "desktop" else PHONE
    touch = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    return browser.new_context(viewport=viewport, locale=LOCALES[lang], **touch)


def _check(page: Any, where: str, lang: str, shots: Path, size: str) -> dict[str, Any]:
    """Screenshot, overflow and axe on the page as it is now; also with its rules open."""
    assert page.evaluate("document.documentElement.lang") == lang, where
    page.screenshot(path=shots / f"i18n-{where}-{lang}-{size}.png")
    found: dict[str, Any] = {"overflow": page.evaluate(OVERFLOW), "axe": violations(page)}
    help_button = page.locator("[data-open-help]:visible").first
    help_button.click()
    page.wait_for_selector("#help-dialog[open]", timeout=10_000)
    found["overflow"] += [f"(rules) {x}" for x in page.evaluate(OVERFLOW)]
    if where == "scout":
        page.screenshot(path=shots / f"i18n-{where}-rules-{lang}-{size}.png")
    page.keyboard.press("Escape")
    page.wait_for_selector("#help-dialog:not([open])", state="attached", timeout=10_000)
    return found


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_page_in_every_language(
    server: LiveServer, browser: Any, shots: Path, lang: str, size: str, finished: str
) -> None:
    problems: dict[str, dict[str, Any]] = {}
    lobby = _context(browser, lang, size).new_page()
    errors = watch_errors(lobby)
    lobby.goto(server.url)
    lobby.wait_for_selector("input[name=game][value=snap]", state="attached")
    assert WORDS[lang]["lobby"] in lobby.locator("#choose-game").inner_text()
    problems["lobby"] = _check(lobby, "lobby", lang, shots, size)
    names = lobby.evaluate(
        "async () => (await import('/static/js/i18n.js')).listNames(['Ana', 'Bo', 'Cleo'])"
    )
    assert names == LISTS[lang], names
    for game in ("scan", "snap"):  # their options and level words
        lobby.locator(f"label.game-tile[data-game={game}]").click()
        lobby.wait_for_selector(f"#options-{game}:not([hidden])")
        problems[f"lobby {game}"] = {"overflow": lobby.evaluate(OVERFLOW), "axe": []}
        if game == "snap":  # numbers as the language writes them (0.6 s, 0,6 s)
            easy = lobby.locator("#level option[value=easy]").inner_text()
            assert ("0.6 s" if lang == "en" else "0,6 s") in easy, easy
        lobby.screenshot(path=shots / f"i18n-lobby-{game}-{lang}-{size}.png", full_page=True)
    lobby.context.close()

    pages = {}  # opened together: their start countdowns run at the same time
    for game, bots in (("scout", 3), ("scan", 3), ("snap", 3)):
        table = create(server, game, [{"kind": "bot", "level": "beginner"}] * bots)
        viewport = DESKTOP if size == "desktop" else PHONE
        touch = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
        pages[game] = open_seat(browser, server, table, viewport, locale=LOCALES[lang], **touch)
        errors += watch_errors(pages[game])
    for game, page in pages.items():
        if game == "scout":  # the flip panel, then the table with the player's turn
            page.wait_for_selector("[data-flip='false']", timeout=30_000)
            flip = page.evaluate(OVERFLOW)
            problems["scout flip"] = {"overflow": flip, "axe": []}
            page.screenshot(path=shots / f"i18n-scout-flip-{lang}-{size}.png")
            page.click("[data-flip='false']", timeout=30_000)
        page.wait_for_function(PLAYING[game], timeout=30_000, **POLL)
        assert WORDS[lang][game] in page.locator(".top-actions").inner_text(), game
        if game == "scan":  # a blue card's design in words, in the page's language
            label = page.locator("#blue-grid .blue-card").first.get_attribute("aria-label") or ""
            assert DESIGN[lang] in label, label
        problems[game] = _check(page, game, lang, shots, size)
        page.context.close()
    replay = _context(browser, lang, size).new_page()  # a finished game, move by move
    errors += watch_errors(replay)
    replay.goto(f"{server.url}/replay/{finished}")
    replay.wait_for_selector("body[data-ready='1'] .open-hand", timeout=30_000)
    replay.click("#rp-next")
    replay.wait_for_selector("body[data-step='1']", timeout=30_000)  # as the waits above
    problems["replay"] = _check(replay, "replay", lang, shots, size)
    replay.context.close()
    bad = []
    for where, found in problems.items():
        if found["overflow"]:
            bad.append(
                f"== {where}: text cut off or overlapping\n  " + "\n  ".join(found["overflow"])
            )
        if found["axe"]:
            bad.append(f"== {where}: axe\n{report(found['axe'])}")
    assert not bad, "\n".join(bad)
    assert not errors, errors


def test_the_language_follows_the_browser_then_the_link(server: LiveServer, browser: Any) -> None:
    # A browser in German (no Parlour language first): the shared link's language.
    german = browser.new_context(locale="de-DE").new_page()
    german.goto(f"{server.url}/?lang=sv")
    german.wait_for_selector("#lang-picker")
    assert german.evaluate("document.documentElement.lang") == "sv"
    assert german.locator("#lang-picker").input_value() == "sv"
    assert "Välj ett spel" in german.locator("#choose-game").inner_text()
    german.context.close()
    # A browser in Norwegian: its own language, whatever the link says; the address says so.
    norsk = browser.new_context(locale="nb-NO").new_page()
    norsk.goto(f"{server.url}/?lang=sv")
    norsk.wait_for_selector("#lang-picker")
    assert norsk.evaluate("document.documentElement.lang") == "nb"
    assert norsk.url.endswith("?lang=nb")
    assert norsk.title() == "Parlour – kortspill i nettleseren"
    norsk.context.close()


def test_the_picker_switches_and_is_remembered(server: LiveServer, browser: Any) -> None:
    page = browser.new_context(locale="en-GB").new_page()
    errors = watch_errors(page)
    page.goto(server.url)
    picker = page.locator("#lang-picker")
    names = picker.locator("option").all_inner_texts()
    assert names == ["English", "Norsk bokmål", "Svenska", "Shqip", "Română"]
    assert picker.evaluate("(s) => s.labels[0].querySelector('.sr-only').textContent") == "Language"
    picker.focus()  # by keyboard
    picker.select_option("ro")
    page.wait_for_url("**/?lang=ro", timeout=10_000)
    page.wait_for_selector("html[lang=ro]", state="attached")
    assert "Alege un joc" in page.locator("#choose-game").inner_text()
    assert page.evaluate("localStorage.getItem('parlour.lang')") == "ro"
    # remembered: a link in another language opens in the one chosen here
    page.goto(f"{server.url}/?lang=sv")
    page.wait_for_selector("#lang-picker")
    assert page.evaluate("document.documentElement.lang") == "ro"
    assert not errors, errors
    page.context.close()


def test_friends_at_one_table_each_in_their_own_language(server: LiveServer, browser: Any) -> None:
    table = create(server, "scout", [{"kind": "open"}, {"kind": "bot", "level": "beginner"}])
    host = open_seat(browser, server, table, DESKTOP, locale="sv-SE")
    errors = watch_errors(host)
    host.wait_for_selector("#invite-link")
    link = host.locator("#invite-link").input_value()
    assert link.endswith("?lang=sv"), link  # the invite carries the inviter's language
    assert "Väntar på spelare" in host.locator(".waiting h2").inner_text()

    guest = browser.new_context(viewport=PHONE, locale="ro-RO").new_page()
    errors += watch_errors(guest)
    guest.goto(link)
    guest.fill("#join-name", "Ilinca")
    assert "Ia loc" in guest.locator("#join-sit").inner_text()
    guest.click("#join-sit")
    guest.wait_for_selector(".waiting")
    assert guest.evaluate("document.documentElement.lang") == "ro"
    assert "Se așteaptă jucătorii" in guest.locator(".waiting h2").inner_text()
    # a list of names in the language's words (Albanian's list format comes from the catalogue:
    # Chromium has none)
    names = guest.evaluate(
        "async () => (await import('/static/js/i18n.js')).listNames(['Ana', 'Bo', 'Cleo'])"
    )
    assert names == "Ana, Bo și Cleo", names
    host.wait_for_selector(".wait-human >> text=Ilinca")
    host.click("[data-key='start']")
    # each sees the round's flip decision in their own words
    host.wait_for_selector("[data-flip='false']", timeout=30_000)
    guest.wait_for_selector("[data-flip='false']", timeout=30_000)
    assert "Behåll som given" in host.locator("[data-flip='false']").inner_text()
    assert "Păstrează așa" in guest.locator("[data-flip='false']").inner_text()
    assert not errors, errors
    host.context.close()
    guest.context.close()
