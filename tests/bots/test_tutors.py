"""The "Learn to play" tutors (issue 13) and the lessons' fixed deals: every kind of move the
coach asks for can be made, in the coach's order, when the learner does as asked."""

from __future__ import annotations

import random
from typing import Any

from parlour.bots.levels import make_bot
from parlour.bots.reaction import Plan
from parlour.bots.tutors import PATIENCE_MS, TIE_RT_MS, ScanTutor, SnapTutor, snap_claim
from parlour.core import ParlourError, Timeout
from parlour.games.registry import get_game
from parlour.games.scan.actions import Bluffo, Touch
from parlour.games.scan.cards import CATEGORIES
from parlour.games.snap.actions import Flip, Snap
from parlour.games.snap.view import history
from parlour.server.learn import Lesson, lesson_of

SCAN = get_game("scan")
SNAP = get_game("snap")


def _lesson(game: str) -> Lesson:
    found = lesson_of(game)
    assert found is not None, game
    return found


def _scan_lesson() -> Any:
    lesson = _lesson("scan")
    state = SCAN.new_state({"players": 2, **lesson.options}, lesson.seed)
    return SCAN.apply(state, None, Timeout(), SCAN.deadline(state) or 0)  # the first reveal


def _match(view: dict[str, Any]) -> int | None:
    column = CATEGORIES.index(view["category"])
    found = [i for i, b in enumerate(view["layout"]) if b[column] == view["tan"][column]]
    return found[0] if found else None


def test_the_scan_lesson_deal_has_two_matches_then_a_bluffo() -> None:
    lesson = _lesson("scan")
    state = SCAN.new_state({"players": 2, **lesson.options}, lesson.seed)
    designs = {b[0] for b in state.layout}
    assert [t[0] in designs for t in state.covered[:3]] == [True, True, False]


def test_a_scan_tutor_waits_for_the_learner_then_touches_the_match_soon() -> None:
    assert isinstance(make_bot("scan", "tutor:250"), ScanTutor)
    made = make_bot("snap", "tutor:0:900")
    assert isinstance(made, SnapTutor) and (made.quick_ms, made.patience_ms) == (0, 900)
    state = _scan_lesson()
    view = SCAN.view(state, 1)
    tutor = ScanTutor(quick_ms=250)
    [plan] = tutor.plan(view, SCAN.legal_actions(state, 1), random.Random(0))
    assert plan.action == Touch(_match(view), PATIENCE_MS)
    assert plan.at_ms == view["reveal_ms"] + PATIENCE_MS
    assert tutor.plan(view, SCAN.legal_actions(state, 1), random.Random(0)) == []  # once
    wrong = (_match(view) + 1) % len(view["layout"])  # type: ignore[operator]
    state = SCAN.apply(state, 0, Touch(wrong, 900), view["reveal_ms"] + 900)
    for _ in range(3):  # the race is decided when its window closes
        due = SCAN.deadline(state)
        if 0 in SCAN.view(state, 1)["disqualified"] or due is None:
            break
        state = SCAN.apply(state, None, Timeout(), due)
    view = SCAN.view(state, 1)
    assert 0 in view["disqualified"]
    [plan] = tutor.plan(view, SCAN.legal_actions(state, 1), random.Random(0))
    assert plan.at_ms == view["time_ms"] + 250 and isinstance(plan.action, Touch)


def test_a_scan_tutor_never_touches_when_there_is_no_match() -> None:
    state = _scan_lesson()
    for _ in range(2):  # the learner finds the first two matches
        view = SCAN.view(state, 0)
        state = SCAN.apply(state, 0, Touch(_match(view), 900), view["reveal_ms"] + 900)  # type: ignore[arg-type]
        while SCAN.view(state, 0)["phase"] != "round" or SCAN.view(state, 0)["seq"] == view["seq"]:
            state = SCAN.apply(state, None, Timeout(), SCAN.deadline(state) or 0)
    view = SCAN.view(state, 1)
    assert _match(view) is None
    assert ScanTutor().plan(view, SCAN.legal_actions(state, 1), random.Random(0)) == []
    assert any(isinstance(a, Bluffo) for a in SCAN.legal_actions(state, 0))


class Learner:
    """A learner who does what the SNAP coach asks: flips on their turn, calls when their pile
    or the Pot is in a snap, leaves the tutors' own snaps to them."""

    def __init__(self) -> None:
        self.called: int | None = None
        self.flipped: tuple[int, int] | None = None

    def plan(self, view: dict[str, Any], legal: list[Any], rng: random.Random) -> list[Plan]:
        if view["outcome"] is not None or view["seats"][0]["out"]:
            return []
        plans = []
        claimed, pot = snap_claim(view)
        if view["seq"] > 0 and self.called != view["seq"] and Snap() in legal:
            self.called = view["seq"]
            if 0 in claimed or pot:
                plans.append(Plan(view["reveal_ms"] + 700, Snap(700)))
        if view["turn"] == 0 and self.flipped != (view["seq"], view["turn"]) and Flip() in legal:
            self.flipped = (view["seq"], view["turn"])
            plans.append(Plan(max(view["flip_open_ms"] or 0, view["clock_ms"]) + 1000, Flip()))
        return plans


def _play_snap_lesson(flips: int) -> list[dict[str, Any]]:
    # The real-time room's loop on a simulated clock (as parlour.cli.arena plays).
    lesson = _lesson("snap")
    state = SNAP.new_state({"players": 3, **lesson.options}, lesson.seed)
    players: list[Any] = [Learner(), SnapTutor(1500), SnapTutor(1500)]
    plans: list[tuple[int, int, Any, int]] = []
    now = 0
    while SNAP.outcome(state) is None and state.seq < flips:
        for seat, who in enumerate(players):
            view = SNAP.view(state, seat)
            new = who.plan(view, SNAP.legal_actions(state, seat), random.Random(seat))
            plans += [(p.at_ms, seat, p.action, view["seq"]) for p in new]
        plans = [p for p in plans if p[3] == state.seq]
        due = SNAP.deadline(state)
        ready = [p for p in plans if due is None or p[0] <= due]
        if ready:
            plan = min(ready, key=lambda p: (p[0], p[1]))
            plans.remove(plan)
            now = max(now, plan[0])
            try:
                state = SNAP.apply(state, plan[1], plan[2], now)
            except ParlourError:
                continue
        else:
            assert due is not None, "nobody plans to act"
            now = max(now, due)
            state = SNAP.apply(state, None, Timeout(), now)
    return history(state)


def test_the_snap_lesson_deal_teaches_flip_snap_tie_and_the_pot_in_a_few_flips() -> None:
    marks: list[str] = []
    for e in _play_snap_lesson(flips=25):
        mark = None
        if e["type"] == "flip" and e["seat"] == 0:
            mark = "flip"
        elif e["type"] == "win" and e["seat"] == 0:
            mark = "pot" if e["pot_cards"] else "snap"
        elif e["type"] == "tie":
            assert 0 not in e["seats"] and [c["rt_ms"] for c in e["calls"]] == [TIE_RT_MS] * 2
            mark = "tie"
        elif e["type"] in ("win", "call") and e["seat"] != 0:
            assert e["type"] != "call" or e["verdict"] != "false", e  # tutors never call falsely
        if mark and mark not in marks:
            marks.append(mark)
    assert marks == ["flip", "snap", "tie", "pot"], marks


def test_a_snap_tutor_waits_while_the_learner_has_a_snap() -> None:
    assert isinstance(make_bot("snap", "tutor"), SnapTutor)
    view: dict[str, Any] = {
        "seat": 1, "seq": 4, "turn": 1, "outcome": None, "options": {"match": "rank"},
        "reveal_ms": 5000, "flip_open_ms": 5900, "clock_ms": 5000, "race": None,
        "pot": {"size": 0, "top": None},
        "seats": [{"seat": 0, "top": "7H", "out": False}, {"seat": 1, "top": "7S", "out": False},
                  {"seat": 2, "top": "2C", "out": False}],
    }  # fmt: skip
    plans = SnapTutor(200).plan(view, [Flip(), Snap()], random.Random(0))
    assert plans == [Plan(5900 + PATIENCE_MS, Flip())]  # the learner's 7 and this tutor's 7
    view["seats"][0]["top"] = "3D"
    view["seats"][2]["top"] = "7C"  # the tutors' own snap: both call at once, then flip soon
    plans = SnapTutor(200).plan(view, [Flip(), Snap()], random.Random(0))
    assert plans == [Plan(5000 + TIE_RT_MS, Snap(TIE_RT_MS)), Plan(5900 + 200, Flip())]


SCOUT = get_game("scout")


def _coach_move(state: Any, legal: list[Any], moves: int) -> Any:
    # What the SCOUT coach suggests: the weakest two cards, then a Scout turned over, then
    # Scout & Show with the longest group after it; a learner who flipped may find no pair.
    from parlour.games.scout.actions import Scout, ScoutShow, Show
    from parlour.games.scout.rules import group_key

    hand = SCOUT.view(state, 0)["hand"]
    shows = [a for a in legal if isinstance(a, Show)]
    if state.pending:
        return max(shows, key=lambda a: (a.length, a.start))
    scouts = [a for a in legal if isinstance(a, Scout)]
    ss = [a for a in legal if isinstance(a, ScoutShow)]
    if moves == 0 or not (scouts or ss):
        ups = lambda a: [c[0] for c in hand[a.start : a.start + a.length]]  # noqa: E731
        twos = [a for a in shows if a.length == 2] or shows
        return min(twos, key=lambda a: group_key(ups(a)))
    if moves == 1 and scouts:
        return next((a for a in scouts if a.rotate), scouts[0])
    return ss[0] if ss else (scouts[0] if scouts else shows[0])


def test_the_scout_lesson_ends_its_round_soon_whether_the_learner_keeps_or_flips() -> None:
    from parlour.bots.scout.tutor import TutorBot
    from parlour.games.scout.actions import Flip as ScoutFlip

    for flip in (False, True):
        lesson = _lesson("scout")
        state = SCOUT.new_state({"players": 3}, lesson.seed)
        state = SCOUT.apply(state, 0, ScoutFlip(flip))
        tutor = TutorBot()
        moves = 0
        while not state.results:
            seat = SCOUT.to_act(state)[0]
            legal = SCOUT.legal_actions(state, seat)
            if seat == 0:
                action = _coach_move(state, legal, moves)
                moves += 1
            else:
                action = tutor.choose(SCOUT.view(state, seat), legal, random.Random(0))
            state = SCOUT.apply(state, seat, action)
            assert moves <= 8, f"the round goes on (flip={flip})"
        assert state.results[0].reason in ("scouted_out", "hand_empty"), flip
