"""A SNAP game's opening annotated by hand from ``shared/rules/snap.md``: the golden playthrough
was written by the engine it tests, these steps were not. Each names the rules it follows and
what they say must hold after it — every stock (top first), every face-up pile (bottom first),
the Snap Pot, whose turn it is, who is out — worked out from the rules text alone; the test
plays the steps and checks each against the engine.

The position is explicit (three players, seat 2 deals so seat 0 flips first: N2, N3) and the
reveal delay is a fixed 200 ms, so nothing depends on the seeded generator.
"""

from __future__ import annotations

from typing import Any

from parlour.core import Timeout
from parlour.games import snap

OPTIONS = {"players": 3, "reveal_delay_min_ms": 200, "reveal_delay_max_ms": 200}
STOCKS = ["2S 9C 5D", "5H 2C KD", "2D 7S 9H"]

# (rules, seat, input, what changes after it: every other part of the table stays as the
# steps before left it, and is checked too). Inputs: "flip" (then the reveal, 200 ms later),
# "snap RT" (a call RT ms after the latest reveal), "decide" (the race's deadline).
STEPS: list[tuple[str, int | None, str, dict[str, Any]]] = [
    (
        "N3: the seat left of the dealer flips first; the top stock card goes face up",
        0,
        "flip",
        {"stocks": ["9C 5D", "5H 2C KD", "2D 7S 9H"], "piles": ["2S", "", ""], "turn": 1},
    ),
    (
        "N3: clockwise",
        1,
        "flip",
        {"stocks": ["9C 5D", "2C KD", "2D 7S 9H"], "piles": ["2S", "5H", ""], "turn": 2},
    ),
    (
        "N7: no two tops match and the Pot is empty: a false call; seat 2 gives the top card of "
        "its stock to the last flipper, seat 1, who puts it under its stock",
        2,
        "snap 400",
        {"stocks": ["9C 5D", "2C KD 2D", "7S 9H"], "piles": ["2S", "5H", ""], "turn": 2},
    ),
    (
        "N3",
        2,
        "flip",
        {"stocks": ["9C 5D", "2C KD 2D", "9H"], "piles": ["2S", "5H", "7S"], "turn": 0},
    ),
    (
        "N3",
        0,
        "flip",
        {"stocks": ["5D", "2C KD 2D", "9H"], "piles": ["2S 9C", "5H", "7S"], "turn": 1},
    ),
    (
        "N4: 2C on 5H matches no top (2S lies under 9C)",
        1,
        "flip",
        {"stocks": ["5D", "KD 2D", "9H"], "piles": ["2S 9C", "5H 2C", "7S"], "turn": 2},
    ),
    (
        "N5: 9H and 9C are matching tops: a snap is valid, the claim set is piles 0 and 2",
        2,
        "flip",
        {"stocks": ["5D", "KD 2D", ""], "piles": ["2S 9C", "5H 2C", "7S 9H"], "turn": 0},
    ),
    ("N6: a valid call; the race waits for faster ones: nothing moves yet", 0, "snap 400", {}),
    ("N6: a faster valid call, more than the tie window ahead; still waiting", 1, "snap 300", {}),
    (
        "N6: the earliest call wins the claim set, under its stock: the piles in seat order from "
        "the last flipper (2, then 0), each turned over as a unit (bottom card on top); N8: seat "
        "2 has no stock and no face-up cards: out (not a dead position: seats 0 and 1 both hold "
        "a 5); play goes on left of the last flipper",
        None,
        "decide",
        {
            "stocks": ["5D", "KD 2D 7S 9H 2S 9C", ""],
            "piles": ["", "5H 2C", ""],
            "pot": "",
            "out": [False, False, True],
            "turn": 0,
            "winner": 1,
        },
    ),
    (
        "N6: a call within 600 ms of the decision, before the next flip, is late: ignored, no "
        "penalty (nothing moves)",
        0,
        "snap 900",
        {},
    ),
    (
        "N3: seat 0 flips its last stock card",
        0,
        "flip",
        {"stocks": ["", "KD 2D 7S 9H 2S 9C", ""], "piles": ["5D", "5H 2C", ""], "turn": 1},
    ),
    (
        "N3: eliminated seat 2 is skipped: seat 1, then seat 0",
        1,
        "flip",
        {"stocks": ["", "2D 7S 9H 2S 9C", ""], "piles": ["5D", "5H 2C KD", ""], "turn": 0},
    ),
    (
        "N3: an empty stock: the face-up pile is turned over as a unit to become the stock, then "
        "its top card is flipped",
        0,
        "flip",
        {"stocks": ["", "2D 7S 9H 2S 9C", ""], "piles": ["5D", "5H 2C KD", ""], "turn": 1},
    ),
]


def names(cards: tuple[int, ...]) -> str:
    return " ".join(snap.name(c) for c in cards)


def check(state: Any, expected: dict[str, Any], where: str) -> None:
    found = {
        "stocks": [names(s) for s in state.stocks],
        "piles": [names(p) for p in state.piles],
        "pot": names(state.pot),
        "turn": state.turn,
        "out": [o is not None for o in state.out],
    }
    for key, value in expected.items():
        if key == "winner":
            wins = [e for e in snap.view(state, None)["log"] if e["type"] == "win"]
            assert wins and wins[-1]["seat"] == value, f"{where}: {wins}"
        else:
            assert found[key] == value, f"{where}: {key} is {found[key]!r}, not {value!r}"


def at_deadline(state: Any, where: str, due: int | None = None) -> tuple[Any, int]:
    """The state after ``Timeout()`` at its deadline (which must be ``due`` when given), and
    the deadline."""
    found = snap.deadline(state)
    assert found is not None and (due is None or found == due), f"{where}: {found}"
    return snap.apply(state, None, Timeout(), found), found


def test_an_opening_annotated_from_the_rules_plays_as_annotated() -> None:
    state = snap.state_from_deal(STOCKS, dealer=2, options=OPTIONS)
    table: dict[str, Any] = {
        "stocks": STOCKS,
        "piles": ["", "", ""],
        "pot": "",
        "turn": 0,
        "out": [False, False, False],
    }
    check(state, table, "deal")
    now = 0
    for number, (rules, seat, text, changes) in enumerate(STEPS, 1):
        where = f"step {number} ({rules})"
        if text == "flip":
            if state.clock_ms < state.flip_open_ms:  # N3: the least time between flips
                state, now = at_deadline(state, where, state.flip_open_ms)
            state = snap.apply(state, seat, snap.Flip(), now)
            assert snap.view(state, None)["flipping"] == seat, where  # N3: not yet shown
            state, now = at_deadline(state, where, now + 200)  # the reveal, after the delay
        elif text == "decide":
            state, now = at_deadline(state, where)
        else:
            rt = int(text.split()[1])
            now = max(now, state.reveal_ms + rt)
            state = snap.apply(state, seat, snap.Snap(rt), now)
        table.update((k, v) for k, v in changes.items() if k != "winner")
        check(state, {**table, **changes}, where)
