"""The leak oracles catch what they guard: each realistic leak below is seeded into a copy of a
game's view (or history) and must make the checks fail — the conformance check
(:func:`parlour.core.conformance.check_game`), its hidden-value check on its own
(:func:`parlour.core.conformance.leaked`) and the random-state sweep of ``tests/test_leaks.py``.

- one card of another SCOUT hand, or of a SNAP stock (``hidden_info`` listed only hands and
  stocks of three or more cards: a one-card leak passed every check but the scramble);
- a pending SNAP call's reaction time, read from the log (the scramble redrew the race's
  times but not the log's);
- another seat's SCOUT flip choice in the history sent to a seat (only views were checked);
- a covered SCAN tan card in the history, in every game of a four-in-a-row series (the same tan
  cards come back each game: their faces are public after game 1, their order never is).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from parlour.core import GameSpec
from parlour.core.conformance import check_game, check_view, leaked, play_random
from parlour.games import registry, scan, scout, snap
from parlour.games.snap.cards import NAMES
from parlour.games.snap.rules import RACE
from tests.test_leaks import play_and_check


def scout_peeks(state: Any, seat: int | None) -> dict[str, Any]:
    """SCOUT's view, and one card of the next seat's hand (the left end, as held)."""
    shown = scout.view(state, seat)
    if seat is not None and state.hands[(seat + 1) % len(state.hands)]:
        card = state.hands[(seat + 1) % len(state.hands)][0]
        shown["seats"][(seat + 1) % len(state.hands)]["next_card"] = [card[0], card[1]]
    return shown


def snap_peeks(state: Any, seat: int | None) -> dict[str, Any]:
    """SNAP's view, and the card the player to flip will turn over next."""
    shown = snap.view(state, seat)
    stock = state.stocks[state.turn]
    if stock:
        shown["next_card"] = NAMES[stock[0]]
    return shown


def snap_tells_pending_times(state: Any, seat: int | None) -> dict[str, Any]:
    """SNAP's view, where a pending call in the log keeps its reaction time (read from the
    log, as a view built from events would)."""
    shown = snap.view(state, seat)
    times = {e[2]: e[3] for e in state.events(since_flip=True) if e[0] == "call" and e[5] == RACE}
    for event in shown["log"]:
        if event["type"] == "call" and event["verdict"] == RACE:
            event["rt_ms"] = times[event["seat"]]
    return shown


def scout_history_tells_flips(state: Any, seat: int | None, since: int = 0) -> list[Any]:
    """SCOUT's history, with every seat's flip choice (only the seat's own is its to know)."""
    past = [dict(e) for e in scout.history(state, seat, since)]  # shared events: copies
    flips = [e for e in state.events() if e[0] == "flip"][since:]
    for event, flip in zip((e for e in past if e["type"] == "flip_decided"), flips, strict=False):
        event["flip"] = flip[3]
    return past


def scan_history_tells_the_next_card(state: Any, seat: int | None, since: int = 0) -> list[Any]:
    """SCAN's history, and the tan card to be revealed next (still covered)."""
    past = scan.history(state, seat, since)
    if state.covered:
        past.append({"type": "next", "tan": list(state.covered[0])})
    return past


LEAKS = {
    "scout one card": dataclasses.replace(scout.GAME, view=scout_peeks),
    "snap one card": dataclasses.replace(snap.GAME, view=snap_peeks),
    "snap pending time": dataclasses.replace(snap.GAME, view=snap_tells_pending_times),
    "scout flips in the history": dataclasses.replace(
        scout.GAME, history=scout_history_tells_flips
    ),
    "scan next card in the history": dataclasses.replace(
        scan.GAME, history=scan_history_tells_the_next_card
    ),
}


def options_of(spec: GameSpec) -> dict[str, Any]:
    return {"players": 3}


@pytest.mark.parametrize("name", list(LEAKS))
def test_the_conformance_check_fails_on_a_seeded_leak(name: str) -> None:
    spec = LEAKS[name]
    with pytest.raises(AssertionError, match="hidden"):
        for seed in range(20):
            check_game(spec, options_of(spec), seed, seats=range(3), view_stride=1)


@pytest.mark.parametrize("name", ["scout one card", "snap one card"])
def test_hidden_info_alone_finds_one_leaked_card(name: str) -> None:
    # Not the scramble's view comparison: the hidden values themselves, found in the view.
    spec = LEAKS[name]
    rng = random.Random(1)
    found: list[Any] = []

    def look(state: Any, seat: int | None, action: Any, now: int) -> None:
        for viewer in (0, 1, 2):
            found.extend(leaked(spec, state, viewer, spec.view(state, viewer), rng))

    play_random(spec, options_of(spec), 7, random.Random(7), on_step=look)
    assert found, "hidden_info missed a leaked card"
    honest = registry.get_game(spec.name)
    clean: list[Any] = []

    def look_honest(state: Any, seat: int | None, action: Any, now: int) -> None:
        for viewer in (0, 1, 2):
            clean.extend(leaked(honest, state, viewer, honest.view(state, viewer), rng))

    play_random(honest, options_of(honest), 7, random.Random(7), on_step=look_honest)
    assert clean == []  # and no public value mistaken for a hidden card


@pytest.mark.parametrize("name", ["scout one card", "snap one card", "snap pending time"])
def test_the_random_state_sweep_fails_on_a_seeded_leak(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = LEAKS[name]
    monkeypatch.setattr(
        registry.importlib.import_module(f"parlour.games.{spec.name}"), "GAME", spec
    )
    rng = random.Random(f"leaks:{spec.name}")
    with pytest.raises(AssertionError, match="hidden"):
        for _ in range(6):
            play_and_check(spec.name, rng.randrange(10**12, 2**48), rng, 400)


def test_a_covered_scan_card_in_the_history_is_caught_in_every_game_of_a_series() -> None:
    # Game 1: the card itself is hidden (hidden_info lists it). Games 2-4: its face was public
    # in game 1's reveals, but which card comes next is not: the scramble, which redraws the
    # pile's order, changes the leaky history. The honest history passes both.
    leaky, honest = LEAKS["scan next card in the history"], scan.GAME
    options = scan.ScanOptions(2, four_in_a_row=True)
    record = play_random(honest, options, 10**12 + 17, random.Random(17))
    rng = random.Random(17)
    state, caught = honest.new_state(options, record.seed), set()
    for seat, action, now in record.moves:
        if len(state.covered) >= 2 and state.game not in caught:
            with pytest.raises(AssertionError, match="hidden"):
                check_view(leaky, state, 0, rng)
            check_view(honest, state, 0, rng)
            if state.game == 0:
                assert leaky.history is not None
                assert leaked(leaky, state, 0, leaky.history(state, 0, 0), rng)
            caught.add(state.game)
        state = honest.apply(state, seat, action, now)
    assert caught == {0, 1, 2, 3}


def test_scan_hidden_info_keeps_the_cards_not_yet_revealed_and_the_pile_order() -> None:
    options = scan.ScanOptions(3, four_in_a_row=True)
    record = play_random(scan.GAME, options, 10**12 + 5, random.Random(5))
    state, games = scan.GAME.new_state(options, record.seed), set()
    for seat, action, now in record.moves:
        if len(state.covered) >= 2 and state.game not in games:
            games.add(state.game)
            hidden = scan.hidden_info(state, 1)
            revealed = {tuple(e[2]) for e in state.events() if e[0] == "reveal"}
            cards = [list(c) for c in state.covered]
            assert cards in hidden  # the pile, in order, in every game
            for card in cards:  # each card until it has been shown
                assert (card in hidden) == (tuple(card) not in revealed), (state.game, card)
            if state.game > 0:
                assert all(tuple(c) in revealed for c in cards)  # the same tan cards again
        state = scan.GAME.apply(state, seat, action, now)
    assert games == {0, 1, 2, 3}


def scout_history_rewrites_the_past(state: Any, seat: int | None, since: int = 0) -> list[Any]:
    """SCOUT's history, its first event rewritten with how many events there are now."""
    past = scout.history(state, seat, 0)
    if past:
        past[0] = {**past[0], "events_now": len(past)}
    return past[since:]


def test_the_conformance_check_fails_on_a_history_that_changes_a_logged_event() -> None:
    # A server sends only the new events of a history: one that changes an event already
    # logged would leave every connected page with the old one.
    spec = dataclasses.replace(scout.GAME, history=scout_history_rewrites_the_past)
    with pytest.raises(AssertionError, match="changed an event"):
        check_game(spec, options_of(spec), 3, seats=range(3))
    check_game(scout.GAME, options_of(scout.GAME), 3, seats=range(3))
