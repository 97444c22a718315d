"""A short SCAN game annotated by hand from ``shared/rules/scan.md``: the golden playthrough was
written by the engine it tests, these steps were not. Each names the rules it follows and what
they say must hold after it — the revealed tan card, who is disqualified, each seat's won tan
cards and score, cards set aside, the end — worked out from the rules text alone; the test
plays the steps and checks each against the engine's public view.

The cards are explicit (three tan cards, four blue cards, category SHAPE; cards are
``[shape, pattern, position, colour]`` design ids), so nothing depends on the seeded generator.
Blue card ``k`` is ``[k, k+1, k+2, k+3]`` (mod 4): tan card ``[d, d, d, d]``'s SHAPE match is
blue card ``d``, and its four matches are four different blue cards (C3).
"""

from __future__ import annotations

from typing import Any

from parlour.core import Timeout
from parlour.games import scan

TAN = [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2)]
BLUE = [(k, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4) for k in range(4)]
OPTIONS = {"players": 3, "category": "shape"}

# (rules, seat, input, what must hold after it). Inputs: "touch I RT" (the blue card at layout
# position I, RT ms after the reveal), "wait KIND" (the next deadline, of that kind, passes).
STEPS: list[tuple[str, int | None, str, dict[str, Any]]] = [
    ("C7: blue card 1 has SHAPE 1, the tan card SHAPE 0: a wrong touch", 1, "touch 1 500", {}),
    (
        "C7: blue card 0 has SHAPE 0: a correct touch, slower than the wrong one",
        2,
        "touch 0 700",
        {},
    ),
    (
        "C14: decided on reaction times; C7: seat 1 is disqualified; C8: seat 2 takes the tan "
        "card plus one from each disqualified seat (seat 1 has none: nothing); the round ends",
        None,
        "wait decision",
        {"won": [[], [], [TAN[0]]], "disqualified": [1], "scores": [0, 0, 1]},
    ),
    (
        "C11/C6: the next tan card is revealed; C7: disqualified only until the next reveal",
        None,
        "wait reveal",
        {"tan": TAN[1], "phase": "round", "disqualified": [], "covered": 1},
    ),
    ("C7: blue card 2 does not match SHAPE 1: seat 2 is disqualified", 2, "touch 2 300", {}),
    ("C7: blue card 1 matches", 0, "touch 1 400", {}),
    (
        "C8: seat 0 takes the tan card plus seat 2's most recently won tan card",
        None,
        "wait decision",
        {"won": [[TAN[1], TAN[0]], [], []], "scores": [2, 0, 0], "disqualified": [2]},
    ),
    ("C6: the last tan card", None, "wait reveal", {"tan": TAN[2], "covered": 0}),
    (
        "C9: nobody touches before the round timer runs out: the tan card is set aside and "
        "scores for nobody; C11: no tan cards remain: the game ends; C12: score = tan cards "
        "held",
        None,
        "wait round_timer",
        {"set_aside": [TAN[2]], "scores": [2, 0, 0], "phase": "over", "winners": [0]},
    ),
]


def check(state: Any, expected: dict[str, Any], where: str) -> None:
    public = scan.view(state, None)
    as_lists = {
        "tan": lambda v: list(v),
        "won": lambda v: [[list(c) for c in pile] for pile in v],
        "set_aside": lambda v: [list(c) for c in v],
    }
    found = {
        "tan": public["tan"],
        "phase": public["phase"],
        "covered": public["covered"],
        "disqualified": public["disqualified"],
        "won": [s["won"] for s in public["seats"]],
        "scores": [s["score"] for s in public["seats"]],
        "set_aside": public["set_aside"],
    }
    for key, value in expected.items():
        if key == "winners":
            outcome = scan.outcome(state)
            assert outcome is not None, where
            ranks = outcome["ranks"]
            assert [s for s, r in enumerate(ranks) if r == 1] == value, f"{where}: {outcome}"
            continue
        wanted = as_lists.get(key, lambda v: v)(value)
        assert found[key] == wanted, f"{where}: {key} is {found[key]!r}, not {wanted!r}"


def test_a_game_annotated_from_the_rules_plays_as_annotated() -> None:
    state = scan.state_from_cards(TAN, BLUE, options=OPTIONS, reveal_ms=0)
    # C6: the top tan card is shown to every seat; C5: the layout is fixed for the game.
    check(state, {"tan": TAN[0], "phase": "round", "covered": 2, "scores": [0, 0, 0]}, "start")
    assert scan.view(state, None)["layout"] == [list(b) for b in BLUE]
    now = 0
    for number, (rules, seat, text, expected) in enumerate(STEPS, 1):
        where = f"step {number} ({rules})"
        words = text.split()
        if words[0] == "touch":
            index, rt = int(words[1]), int(words[2])
            reveal = scan.view(state, None)["reveal_ms"]
            assert reveal is not None, where
            now = max(now, reveal + rt)
            state = scan.apply(state, seat, scan.Touch(index, rt), now)
        else:
            due, kind = scan.deadline(state), scan.deadline_kind(state)
            assert due is not None and kind == words[1], f"{where}: the next deadline is {kind}"
            state, now = scan.apply(state, None, Timeout(), due), due
        check(state, expected, where)
