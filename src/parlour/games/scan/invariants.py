"""SCAN's consistency checks (the conformance suite's ``check_invariants``)."""

from __future__ import annotations

from parlour.games.scan.cards import BLUFFO_CARDS, CARDS, DESIGNS, Card
from parlour.games.scan.rules import deadline
from parlour.games.scan.state import OVER, PAUSE, ROUND, State


def _matches(tan: Card, blue: tuple[Card, ...], category: int) -> list[Card]:
    return [b for b in blue if b[category] == tan[category]]


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` if ``state`` is inconsistent: tan and blue cards conserved (each
    in exactly one place), the C3 structure of the deck (designs once per category and colour,
    four different matches per tan card, exactly one each in a full deck), the Bluffo cards (stack
    and holdings make 3), the round's bookkeeping and the scores."""
    n = state.players
    assert 2 <= n <= 8
    for per_seat in (state.won, state.bluffos, state.totals):
        assert len(per_seat) == n, "a per-seat field has the wrong length"
    in_play = [state.tan] if state.phase == ROUND and state.tan is not None else []
    tans = [*state.covered, *in_play, *state.set_aside]
    for pile in state.won:
        tans += pile
    assert len(set(tans)) == len(tans), "a tan card is in two places"
    assert sorted(tans) == sorted(state.tan_deck), "tan cards are not conserved"
    blues = [*state.layout, *state.removed]
    assert len(set(blues)) == len(blues), "a blue card is in two places"
    assert sorted(blues) == sorted(state.blue_deck), "blue cards are not conserved"
    full = len(state.tan_deck) == CARDS and len(state.blue_deck) == CARDS
    for deck in (state.tan_deck, state.blue_deck):
        for c in range(4):
            designs = {card[c] for card in deck}
            assert len(designs) == len(deck), "a design appears twice in one colour"
            if full:
                assert designs == set(range(DESIGNS)), "a design is missing"
    for tan in state.tan_deck:
        hits = [b for c in range(4) for b in _matches(tan, state.blue_deck, c)]
        assert len(set(hits)) == len(hits), "a tan card matches one blue card twice (C3)"
        if full:
            assert len(hits) == 4, "a tan card lacks a match in a full deck (C3)"
    if state.options.bluffo:
        assert state.stack + sum(state.bluffos) == BLUFFO_CARDS, "Bluffo cards not conserved"
        if full:
            assert len(state.removed) == BLUFFO_CARDS
    else:
        assert state.stack == 0 and not any(state.bluffos) and not state.removed
    assert state.stack >= 0 and min(state.bluffos) >= 0
    assert 0 <= state.game < state.options.games
    assert state.series[state.game] == state.round_category or state.options.dealers_choice
    assert len(state.results) in (state.game, state.game + 1)
    assert state.game_finished == (len(state.results) == state.game + 1)
    assert list(state.totals) == [sum(r.scores[s] for r in state.results) for s in range(n)]
    if state.game_finished:
        assert not state.covered and state.phase != ROUND
    assert state.round == len(state.tan_deck) - len(state.covered)
    assert state.seq >= state.round
    if state.phase == ROUND:
        assert state.tan is not None and state.chooser is None
        assert state.reveal_ms <= state.time_ms
        seats = [p.seat for p in state.pending]
        assert len(set(seats)) == len(seats), "a seat has two inputs waiting"
        assert set(seats) <= set(state.eligible()), "an ineligible seat has an input waiting"
        assert all(p.arrival_ms <= state.time_ms for p in state.pending)
        if state.claimant is not None:
            assert state.claimant not in state.disqualified and state.options.bluffo
        if state.checking_until is not None:
            assert state.claimant is not None
    else:
        assert not state.pending and state.checking_until is None
        if state.chooser is not None:
            assert state.options.dealers_choice and state.phase == PAUSE and state.covered
    if state.phase == OVER:
        assert state.game_finished and state.game == state.options.games - 1
    else:
        due = deadline(state)
        assert due is not None and due >= state.time_ms, "the deadline lies in the past"
