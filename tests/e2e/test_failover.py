"""End to end in Debian Chromium with many processes: a page served by one process plays at a
table owned by another; the owner is killed (SIGKILL) mid-game, and the page says it is
reconnecting, comes back by itself at its seat (the process it talks to takes the table over
from the store's log) and plays on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.player import POLL, state_id, take_turn
from tests.server.live import get, post
from tests.server.test_cluster import LEASE_MS, start_cluster

DESKTOP = {"width": 1366, "height": 820}


def seat_page(browser: Any, url: str, table: dict[str, Any]) -> Any:
    """A page of the server at ``url`` at ``table``'s seat (its token remembered as the lobby
    remembers it), ready."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(url + "/")
    page.evaluate(
        """([id, seat, token]) => localStorage.setItem('parlour.seats',
             JSON.stringify({[id]: {seat, token, at: Date.now()}}))""",
        [table["table_id"], table["seat"], table["token"]],
    )
    page.goto(f"{url}/t/{table['table_id']}")
    page.wait_for_function("() => document.body.dataset.ready === '1'", **POLL)
    return page


def test_the_page_reconnects_when_the_table_s_owner_dies_and_plays_on(
    tmp_path: Path, browser: Any, redis_url: str, shots: Path
) -> None:
    owner, other = start_cluster(tmp_path, redis_url, 2)
    try:
        body = {"game": "scout", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"}]}
        table = post(f"{owner.url}/api/tables", body)
        page = seat_page(browser, other.url, table)  # its socket at the other process
        for turn in range(2):
            assert take_turn(page, turn)
        before = state_id(page)

        owner.kill()  # mid-game: the page's socket was relayed to it
        page.wait_for_function("() => document.body.dataset.conn === 'reconnecting'",
                               timeout=5000, **POLL)  # fmt: skip
        assert "reconnecting" in page.locator(".toast").last.inner_text()
        page.screenshot(path=shots / "e2e-failover-reconnecting.png")
        page.wait_for_function("() => document.body.dataset.conn === 'open'",
                               timeout=LEASE_MS + 10_000, **POLL)  # fmt: skip
        page.wait_for_function("() => document.body.dataset.ready === '1'", **POLL)
        assert state_id(page) >= before  # nothing acknowledged was lost
        for turn in range(2, 5):  # and the game goes on
            assert take_turn(page, turn)
        assert state_id(page) > before
    finally:
        owner.stop()
        other.stop()


def test_a_table_moves_to_the_process_its_page_talks_to_and_plays_there(
    tmp_path: Path, browser: Any, redis_url: str, shots: Path
) -> None:
    # Leases of the default 5 s: the cluster tests' 1.5 s ones can lapse on a loaded machine
    # (an event loop held up longer than that), and the table would move for another reason.
    steady = {"PARLOUR_TABLES_FOLLOW": "1", "PARLOUR_LEASE_MS": "5000", "PARLOUR_RENEW_MS": "500"}
    made_at, other = start_cluster(tmp_path, redis_url, 2, steady)
    try:
        body = {"game": "scout", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"}]}
        table = post(f"{made_at.url}/api/tables", body)
        page = seat_page(browser, other.url, table)  # its socket at the other process
        for turn in range(3):
            assert take_turn(page, turn)
        assert get(f"{made_at.url}/api/health")["cluster"]["handed_over"] == 1
        served = get(f"{other.url}/api/health")["cluster"]
        assert served["owned"] == 1 and served["relayed_here"] == 0  # served, not relayed
        assert page.evaluate("() => document.body.dataset.conn") == "open"  # never sent away
        page.screenshot(path=shots / "e2e-table-followed-its-page.png")
    finally:
        made_at.stop()
        other.stop()
