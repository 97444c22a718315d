"""SCOUT's coach (issue 11): suggestions from a seat's view only, with reasons the browser has
words for; regrets measured by the tuned evaluation."""

from __future__ import annotations

import random

from parlour.bots.levels import coach_of, make_bot
from parlour.bots.scout import coach
from parlour.games.registry import get_game
from parlour.games.scout import Flip, Show

SPEC = get_game("scout")


def positions(games: int = 3, players: int = 4) -> list[tuple[object, int]]:
    """States met in games played by Medium bots, with the seat to act (every 3rd move)."""
    found = []
    bot = make_bot("scout", "medium")
    for g in range(games):
        rng = random.Random(g)
        state = SPEC.new_state({"players": players}, 100 + g)
        moves = 0
        while SPEC.outcome(state) is None:
            seat = SPEC.to_act(state)[0]
            if moves % 3 == 0:
                found.append((state, seat))
            legal = SPEC.legal_actions(state, seat)
            state = SPEC.apply(state, seat, bot.choose(SPEC.view(state, seat), legal, rng), 0)
            moves += 1
    return found


def test_the_coach_is_found_through_the_bots_registry() -> None:
    assert coach_of("scout") is coach
    assert coach_of("snap") is None and coach_of("scan") is None


def test_a_suggestion_is_legal_and_its_reason_and_words_are_known() -> None:
    seen = set()
    for state, seat in positions():
        view, legal = SPEC.view(state, seat), SPEC.legal_actions(state, seat)
        action, reason, params = coach.suggest(view, legal, random.Random(1), "medium")
        assert action in legal
        assert set(params) == set(coach.REASONS[reason]), (reason, params)
        key, words = coach.words(view, action)
        assert set(words) == set(coach.MOVES[key])
        seen.add(reason)
    assert {"captures", "sheds", "keeps_set", "flip_groups"} <= seen, seen


def test_a_suggestion_depends_on_the_seats_view_only() -> None:
    # Redrawing everything hidden from the seat (the other hands, the cards set aside) changes
    # neither its view nor the suggestion.
    for state, seat in positions(games=2)[:30]:
        other = SPEC.scramble_hidden(state, seat, random.Random(9))
        view, legal = SPEC.view(state, seat), SPEC.legal_actions(state, seat)
        assert SPEC.view(other, seat) == view
        assert coach.suggest(view, legal, random.Random(5), "medium") == coach.suggest(
            SPEC.view(other, seat), SPEC.legal_actions(other, seat), random.Random(5), "medium"
        )


def test_regret_is_the_evaluations_gap_to_its_best_move() -> None:
    for state, seat in positions(games=1):
        view, legal = SPEC.view(state, seat), SPEC.legal_actions(state, seat)
        values = {str(a): coach.value(view, a) for a in legal}
        best, loss = coach.regret(view, legal, legal[-1])
        assert values[str(best)] == max(values.values())
        assert abs(loss - (values[str(best)] - values[str(legal[-1])])) < 1e-9
        assert coach.regret(view, legal, best)[1] == 0.0


def test_reasons_for_a_capture_and_for_keeping_a_group() -> None:
    view = {
        "hand": [[2, 1], [7, 3], [7, 4], [9, 5]], "active_show": [[1, 6]], "players": 3,
        "seat": 0, "seats": [{"seat": s, "hand_size": 4, "scout_show_available": True}
                             for s in range(3)],
        "scouts_since_show": 0,
    }  # fmt: skip
    legal = [Show(0, 1), Show(3, 1), Show(1, 2)]
    assert coach.explain(view, legal, Show(1, 2))[0] in ("captures", "sheds", "strong")
    assert coach.explain(view, [Show(3, 1)], Show(3, 1)) == ("only", {})
    assert coach._shape_reason(view, [2, 7, 7, 9], Show(3, 1)) == (
        "keeps_set", {"cards": "7-7"})  # fmt: skip
    assert coach.words(view, Show(1, 2)) == ("show", {"cards": "7-7"})
    assert coach.words(view, Flip(True)) == ("flip", {})
