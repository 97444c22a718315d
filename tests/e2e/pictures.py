"""The README's pictures of SCOUT, SCAN and SNAP: each game in Debian Chromium at 1366×800
against computer opponents on a live server with a temporary database, scaled by the browser to
960 px wide (the width a README shows) and saved as PNG under ``docs/img/``.

Run it with ``make pictures`` (``python -m tests.e2e.pictures [--out DIR]``). It takes about half
a minute and downloads nothing.
"""

from __future__ import annotations

import argparse
import base64
import json
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e.conftest import ARGS, CHROMIUM
from tests.server.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]
VIEWPORT = {"width": 1366, "height": 800}
WIDTH = 960
STEP = 12
"""Each colour channel is rounded to a multiple of this: a smaller PNG, no visible loss."""
POLL = {"polling": 50, "timeout": 30_000}

SCALE = """async ([png, width, step]) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + png;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = Math.round(img.height * width / img.width);
  const g = canvas.getContext('2d');
  g.imageSmoothingQuality = 'high';
  g.drawImage(img, 0, 0, canvas.width, canvas.height);
  // fewer colours (each channel to a multiple of `step`): the felt's grain costs less
  const data = g.getImageData(0, 0, canvas.width, canvas.height);
  const px = data.data;
  for (let i = 0; i < px.length; i += 4) {
    for (let c = 0; c < 3; c++) px[i + c] = Math.min(255, Math.round(px[i + c] / step) * step);
  }
  g.putImageData(data, 0, 0);
  return canvas.toDataURL('image/png').split(',')[1];
}"""


def create(server: LiveServer, game: str, seats: list[dict[str, str]], name: str) -> Any:
    body = {"game": game, "name": name, "seats": seats, "options": {}}
    request = urllib.request.Request(
        f"{server.url}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def open_table(browser: Any, server: LiveServer, table: Any) -> Any:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(server.url + "/")
    page.evaluate(
        """([id, seat, token]) => localStorage.setItem('parlour.seats',
             JSON.stringify({[id]: {seat, token, at: Date.now()}}))""",
        [table["table_id"], table["seat"], table["token"]],
    )
    page.goto(f"{server.url}/t/{table['table_id']}")
    page.wait_for_function("() => document.body.dataset.ready === '1'", **POLL)
    return page


def save(page: Any, path: Path) -> None:
    """The page as a PNG, scaled by the browser to ``WIDTH`` pixels wide."""
    png = base64.b64encode(page.screenshot()).decode()
    path.write_bytes(base64.b64decode(page.evaluate(SCALE, [png, WIDTH, STEP])))
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
          f"{path.stat().st_size // 1024} KB")  # fmt: skip


def scout(browser: Any, server: LiveServer, out: Path) -> None:
    from tests.e2e import player

    seats = [{"kind": "bot", "level": level} for level in ("easy", "medium", "hard")]
    page = open_table(browser, server, create(server, "scout", seats, "Tess"))
    turns = 0
    while turns < 3:  # a few turns: a show on the table, cards captured
        player.take_turn(page, turns)
        turns += 1
    page.wait_for_function(player.NEEDS_ME, **POLL)
    marks = page.locator("#hand button.card.playable")
    if marks.count():
        marks.first.click()  # a card selected, the Show button lit
    save(page, out / "scout.png")
    page.context.close()


def scan(browser: Any, server: LiveServer, out: Path) -> None:
    seats = [{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "easy"}]
    page = open_table(browser, server, create(server, "scan", seats, "Tess"))
    page.wait_for_function("() => document.body.dataset.phase === 'round'", **POLL)
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 3", **POLL)
    page.wait_for_function("() => document.body.dataset.phase === 'round'", **POLL)
    time.sleep(0.4)
    save(page, out / "scan.png")
    page.context.close()


def snap(browser: Any, server: LiveServer, out: Path) -> None:
    seats = [{"kind": "bot", "level": level} for level in ("medium", "easy", "easy", "easy")]
    page = open_table(browser, server, create(server, "snap", seats, "Tess"))
    page.wait_for_function("() => document.body.dataset.phase === 'play'", **POLL)
    deadline = time.monotonic() + 60
    tops = "[data-top]:not([data-card=''])"
    seen_race = False
    while time.monotonic() < deadline:  # flip on my turns: a race decided, then cards on show
        if page.evaluate("document.body.dataset.myTurn") == "1":
            page.keyboard.press("f")
        seen_race = seen_race or page.locator("#banner.show .banner-calls .rt").count() > 0
        if seen_race and page.locator(tops).count() >= 4:
            break
        time.sleep(0.05)
    save(page, out / "snap.png")
    page.context.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    env = {"PARLOUR_BOT_DELAY_MIN_MS": "300", "PARLOUR_BOT_DELAY_MAX_MS": "300",
           "PARLOUR_START_COUNTDOWN_MS": "0"}  # fmt: skip
    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(Path(tmp) / "parlour.db", env) as live,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for picture in (scout, scan, snap):
            picture(browser, live, args.out)
        browser.close()


if __name__ == "__main__":
    main()
