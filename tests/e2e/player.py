"""A person at the table, as a test: waits on the page's state and plays through the page only
(clicks and the keyboard), choosing among what the page offers — it knows no rules."""

from __future__ import annotations

from typing import Any

Page = Any

NEEDS_ME = """() => { const d = document.body.dataset;
  return d.ready === '1' && (d.over === '1'
    || (d.pending !== '1' && (d.flipping === '1' || d.myTurn === '1'))); }"""
"""Whether the page waits for this player: the game is over, or it is their flip or turn and
no move of theirs is on its way (until its answer comes, the page shows the same choice with
its buttons disabled)."""


POLL = {"polling": 50}
"""Poll the page's state every 50 ms (animation-frame polling stalls in background pages)."""


def watch_errors(page: Page) -> list[str]:
    """Collect the page's uncaught errors and console errors (a test asserts none came)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    return errors


def state_id(page: Page) -> int:
    """The state id the page shows."""
    return int(page.evaluate("document.body.dataset.stateId"))


def wait_past(page: Page, before: int) -> None:
    """Wait until the page shows a state after ``before``."""
    page.wait_for_function(f"() => Number(document.body.dataset.stateId) > {before}", **POLL)


def close_results(page: Page) -> None:
    """Dismiss a round's results if they are showing."""
    button = page.locator("#results-continue")
    if button.is_visible():
        button.click()


def needs_me(page: Page) -> bool:
    """Whether the page waits for this player right now (without waiting)."""
    return bool(page.evaluate(NEEDS_ME))


def take_turn(page: Page, turn: int, keyboard: bool = False, scout_show: bool = False) -> bool:
    """Wait until this player must act, then act once; ``False`` when the game is over.

    With ``scout_show``, use Scout & Show if the page offers it (the guided way: the button,
    an end of the show, a place in the hand; the Show follows on the next call).
    """
    page.wait_for_function(NEEDS_ME, **POLL)
    data = page.evaluate("({...document.body.dataset})")
    if data["over"] == "1":
        return False
    close_results(page)
    before = int(data["stateId"])
    if data["flipping"] == "1":
        choice = page.locator(f"[data-flip='{'true' if turn % 3 == 1 else 'false'}']")
        if keyboard:
            choice.focus()
            page.keyboard.press("Enter")
        else:
            choice.click()
    elif scout_show and page.locator("[data-key='ss-intent']").count():
        page.locator("[data-key='ss-intent']").click()
        page.locator("#show-zone button[data-end]").first.click()
        _place(page, keyboard)
    elif not _try_show(page, keyboard):
        _scout(page, keyboard)
    wait_past(page, before)
    return True


def _try_show(page: Page, keyboard: bool) -> bool:
    # The page marks the cards that belong to some legal show; the leftmost starts one. Grow the
    # selection over the neighbouring marked cards and keep the longest the page accepts.
    marks = page.evaluate(
        "[...document.querySelectorAll('#hand button.card')]"
        ".map((b) => b.classList.contains('playable'))"
    )
    if True not in marks:
        return False
    start = marks.index(True)
    cards = page.locator("#hand button.card")
    show = page.locator("[data-key='show']")
    best, length = 0, 0
    while start + length < len(marks) and marks[start + length] and length < 6:
        card = cards.nth(start + length)
        if keyboard:
            card.focus()
            page.keyboard.press("Enter")
        else:
            card.click()
        length += 1
        if show.is_enabled():
            best = length
    if best == 0:
        page.locator("[data-key='clear']").click()
        return False
    while length > best:  # take back the cards past the longest accepted group
        length -= 1
        cards.nth(start + length).click()
    if keyboard:
        show.focus()
        page.keyboard.press("Enter")
    else:
        show.click()
    return True


def _scout(page: Page, keyboard: bool) -> None:
    end = page.locator("#show-zone button[data-end]").first
    if keyboard:
        end.focus()
        page.keyboard.press("Enter")
    else:
        end.click()
    _place(page, keyboard)


def _place(page: Page, keyboard: bool) -> None:
    slots = page.locator("#hand .slot:not([disabled])")
    if slots.count() == 0:
        page.locator("[data-key='rotate']").click()
    slot = slots.first
    if keyboard:
        slot.focus()
        page.keyboard.press("Enter")
    else:
        slot.click()


def play_to_the_end(page: Page, keyboard_every: int = 3, limit: int = 400) -> int:
    """Play every turn of this page's seat until the game is over; returns the turns taken."""
    turns = 0
    while take_turn(page, turns, keyboard=turns % keyboard_every == 0):
        turns += 1
        assert turns < limit, "the game did not end"
    return turns
