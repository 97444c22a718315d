"""The SCOUT search bot: determinizations agree with everything public; it picks legal moves."""

from __future__ import annotations

import random

from parlour.bots.scout.determinize import determinize, public_slots, unseen_cards
from parlour.bots.scout.search import SearchBot
from parlour.games import scout
from parlour.games.scout.cards import canonical


def positions(players: int, seed: int, count: int) -> list[scout.State]:
    rng = random.Random(seed)
    found = []
    state = scout.new_state({"players": players}, seed)
    while scout.outcome(state) is None and len(found) < count:
        if state.phase == 1:
            found.append(state)
        seat = scout.to_act(state)[0]
        state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))
    return found


def test_determinizations_are_consistent_with_the_view() -> None:
    rng = random.Random(1)
    for players in (2, 3, 4, 5):
        for state in positions(players, players, 60):
            seat = state.turn
            view = scout.view(state, seat)
            deal = determinize(view, rng)
            assert deal.hands[seat] == state.hands[seat]
            assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]
            assert deal.active == state.active and deal.turn == state.turn
            # cards known to be in a hand are exactly where they really are
            for other, slots in enumerate(public_slots(view)):
                for i, card in enumerate(slots):
                    if card is not None:
                        assert state.hands[other][i] == card == deal.hands[other][i]
            # every hidden card is one the seat has not seen
            unseen = set(unseen_cards(view))
            for other in range(players):
                if other != seat:
                    for i, card in enumerate(deal.hands[other]):
                        if public_slots(view)[other][i] is None:
                            assert canonical(card) in unseen
            # the true hands are among the possible ones
            real_hidden = {
                canonical(c) for o in range(players) if o != seat for c in state.hands[o]
            }
            assert real_hidden - {canonical(c) for c in state.active} <= unseen | {
                canonical(c) for s in public_slots(view) for c in s if c is not None
            }


def test_search_bot_plays_legal_moves_reproducibly() -> None:
    bot = SearchBot(determinizations=3)
    for state in positions(4, 9, 15):
        seat = state.turn
        legal = scout.legal_actions(state, seat)
        first = bot.choose(scout.view(state, seat), legal, random.Random(5))
        again = bot.choose(scout.view(state, seat), legal, random.Random(5))
        assert first in legal and first == again


def second_round_positions(seed: int, count: int) -> list[tuple[scout.State, scout.State]]:
    """Play-phase positions of round 2 of a 2-player game, each with the game's first state."""
    rng = random.Random(seed)
    found = []
    first = state = scout.new_state({"players": 2}, seed)
    while scout.outcome(state) is None and len(found) < count:
        if state.phase == 1 and state.round == 1:
            found.append((first, state))
        seat = scout.to_act(state)[0]
        state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))
    return found


def test_a_two_player_second_round_determinization_holds_only_round_two_cards() -> None:
    """With 2 players, round 2 deals the 22 cards set aside in round 1 (S15): a card the seat
    held in round 1, or saw shown in round 1, cannot be in the other hand in round 2."""
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        for first, state in second_round_positions(seed, 25)[::3]:
            seat = state.turn
            view = scout.view(state, seat)
            seen_in_round_1 = {canonical(c) for c in first.hands[seat]}
            for event in scout.history(state, seat):
                if event["round"] == 1 and event["type"] == "show":
                    seen_in_round_1.update(canonical((c[0], c[1])) for c in event["cards"])
            for _ in range(4):
                deal = determinize(view, rng)
                assert deal.hands[seat] == state.hands[seat]
                assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]
                cards = [canonical(c) for h in (*deal.hands, deal.active) for c in h]
                assert len(cards) == len(set(cards)), "a card is dealt twice"
                for other, slots in enumerate(public_slots(view)):
                    for i, card in enumerate(slots):
                        if card is not None:
                            assert deal.hands[other][i] == card
                other_cards = {canonical(c) for c in deal.hands[1 - seat]}
                assert not other_cards & seen_in_round_1, "a round-1 card dealt in round 2"
                checked += 1
    assert checked > 100
