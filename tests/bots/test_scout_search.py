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
