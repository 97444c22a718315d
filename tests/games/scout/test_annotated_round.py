"""One SCOUT round annotated by hand from ``shared/rules/scout.md``: the golden playthrough was
written by the engine it tests, this round was not. Every step names the rules it follows and
what they say must change — hands card by card, the active show and its owner, chips, score
piles, whose turn it is — worked out from the rules text alone; the test plays the steps and
checks each expectation against the engine's views (what a seat and a spectator see).

The deal is explicit (three players, no 10s: S2), so the round does not depend on the seeded
generator. Cards are ``[up, down]``.
"""

from __future__ import annotations

from typing import Any

from parlour.games import scout

START = 0
HANDS = [
    [[3, 1], [4, 2], [5, 6], [9, 8]],
    [[6, 2], [6, 3], [1, 9]],
    [[9, 4], [5, 2], [3, 8], [1, 7]],
]

# (rules, seat, action, what must hold after it) — written from the rules, not the engine.
STEPS: list[tuple[str, int, str, dict[str, Any]]] = [
    (
        "S5: every seat decides once, before the first action; nobody has acted yet",
        0,
        "keep",
        {"phase": "flip", "to_act": [1, 2], "hands": {0: HANDS[0]}},
    ),
    ("S5", 1, "keep", {"phase": "flip", "to_act": [2], "hands": {1: HANDS[1]}}),
    (
        "S5: a flip rotates every card and reverses the order; S6: round 1 starts at the start "
        "seat",
        2,
        "flip",
        {"phase": "play", "turn": 0, "hands": {2: [[7, 1], [8, 3], [2, 5], [4, 9]]}},
    ),
    (
        "S8: 3 4 5 adjacent and each +1 is a run; S9: no active show, any group; S10: it becomes "
        "the active show, seat 0 its owner, nothing captured",
        0,
        "show 0 3",
        {
            "active": [[3, 1], [4, 2], [5, 6]],
            "owner": 0,
            "hands": {0: [[9, 8]]},
            "captured": [0, 0, 0],
            "turn": 1,
        },
    ),
    (
        "S9.1: seat 1's best group, 6 6, has fewer cards than 3 4 5 and cannot beat it; S11: it "
        "scouts the right end 5, rotated to 6, into position 2; the owner gets a chip",
        1,
        "scout right rotated 2",
        {
            "hands": {1: [[6, 2], [6, 3], [6, 5], [1, 9]]},
            "active": [[3, 1], [4, 2]],
            "owner": 0,
            "chips": [1, 0, 0],
            "scouts_since_show": 1,
            "turn": 2,
        },
    ),
    (
        "S9.3: a run of two against the reduced run of two 3 4: smallest 7 beats smallest 3; "
        "S10: the shower captures 3 4 face down",
        2,
        "show 0 2",
        {
            "active": [[7, 1], [8, 3]],
            "owner": 2,
            "hands": {2: [[2, 5], [4, 9]]},
            "captured": [0, 0, 2],
            "scouts_since_show": 0,
            "turn": 0,
        },
    ),
    (
        "S12: Scout & Show: the left end 7 into position 1 (not part of the show to come); S11: "
        "the owner, seat 2, gets the chip; the same seat now shows",
        0,
        "scout&show left 1",
        {"hands": {0: [[9, 8], [7, 1]]}, "active": [[8, 3]], "chips": [1, 0, 1], "to_act": [0]},
    ),
    (
        "S12/S9: the Show must beat the reduced show: single 9 beats single 8; S10: 8 captured; "
        "Scout & Show is spent for this round",
        0,
        "show 0 1",
        {
            "active": [[9, 8]],
            "owner": 0,
            "hands": {0: [[7, 1]]},
            "captured": [1, 0, 2],
            "scout_show_available": [False, True, True],
            "turn": 1,
        },
    ),
    (
        "S8: 6 6 6 is a set; S9.1: three cards beat one; S10: the 9 is captured",
        1,
        "show 0 3",
        {
            "active": [[6, 2], [6, 3], [6, 5]],
            "owner": 1,
            "hands": {1: [[1, 9]]},
            "captured": [1, 1, 2],
            "turn": 2,
        },
    ),
    (
        "S9.1: two cards cannot beat three; S11: the left end 6, rotated to 2, into position 1; "
        "the owner, seat 1, gets a chip",
        2,
        "scout left rotated 1",
        {
            "hands": {2: [[2, 5], [2, 6], [4, 9]]},
            "active": [[6, 3], [6, 5]],
            "chips": [1, 1, 1],
            "scouts_since_show": 1,
            "turn": 0,
        },
    ),
    (
        "S11: the right end 6 into position 1 (seat 0 holds 7 6), a chip to seat 1; S13.2: "
        "after seat 1's Show both others took a plain Scout: the round ends at once (RESULT)",
        0,
        "scout right 1",
        {},
    ),
]

# S14: +1 per captured card, +1 per chip, -1 per card in hand, but the owner of the unbeaten
# show (seat 1, S13.2) loses nothing for its hand; the active show's card scores nothing.
RESULT = {
    "reason": "scouted_out",
    "captured": [1, 1, 2],
    "chips": [1, 2, 1],
    "in_hand": [2, 1, 3],  # seat 0: 7 6; seat 1: 1; seat 2: 2 2 4
    "exempt": [False, True, False],
    "points": [1 + 1 - 2, 1 + 2 - 0, 2 + 1 - 3],
}


def check(state: Any, expected: dict[str, Any], where: str) -> None:
    public = scout.view(state, None)
    seats = public["seats"]
    found = {
        "phase": public["phase"],
        "turn": public["turn"],
        "to_act": public["to_act"],
        "active": public["active_show"],
        "owner": public["owner"],
        "scouts_since_show": public["scouts_since_show"],
        "chips": [s["chips"] for s in seats],
        "captured": [s["captured"] for s in seats],
        "scout_show_available": [s["scout_show_available"] for s in seats],
    }
    for key, value in expected.items():
        if key == "hands":
            for seat, hand in value.items():
                seen = scout.view(state, seat)
                assert seen["hand"] == hand, f"{where}: seat {seat}'s hand"
                assert seats[seat]["hand_size"] == len(hand), f"{where}: seat {seat}'s size"
        else:
            assert found[key] == value, f"{where}: {key} is {found[key]!r}, not {value!r}"


def test_a_round_annotated_from_the_rules_plays_as_annotated() -> None:
    state = scout.state_from_deal([[(c[0], c[1]) for c in hand] for hand in HANDS], START, seed=17)
    check(state, {"phase": "flip", "to_act": [0, 1, 2], "hands": dict(enumerate(HANDS))}, "deal")
    for number, (rules, seat, text, expected) in enumerate(STEPS, 1):
        where = f"step {number} ({rules})"
        state = scout.apply(state, seat, scout.parse_action(text), 0)
        check(state, expected, where)
    result = scout.view(state, None)["results"][0]
    assert result["reason"] == RESULT["reason"] and result["seat"] == 1
    seats = result["seats"]
    for key in ("captured", "chips", "exempt", "points"):
        assert [s[key] for s in seats] == RESULT[key], key
    for seat, seen in enumerate(seats):  # -1 per card in hand, but for the exempt seat
        if not RESULT["exempt"][seat]:
            assert abs(seen["hand_penalty"]) == RESULT["in_hand"][seat], seat
    # S6: the next round starts one seat further left, with a new flip decision (S5).
    after = scout.view(state, None)
    assert after["round"] == 2 and after["start_seat"] == 1 and after["phase"] == "flip"
    assert after["totals"] == RESULT["points"]
