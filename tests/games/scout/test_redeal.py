"""``redeal``: a round's deal given from outside (OpenSpiel's chance nodes)."""

from __future__ import annotations

import pytest

from parlour.games import scout
from parlour.games.scout.state import redeal


def test_a_round_is_redealt_before_its_first_flip_and_plays_on() -> None:
    state = scout.new_state({"players": 3}, seed=1)
    hands = [state.hands[1], state.hands[2], state.hands[0]]
    new = redeal(state, hands)
    assert new.hands == tuple(hands) and state.hands != new.hands
    scout.check_invariants(new)
    assert scout.apply(new, 0, scout.KEEP).flips[0] is False


def test_a_redeal_refuses_a_begun_round_and_foreign_cards() -> None:
    state = scout.new_state({"players": 3}, seed=2)
    with pytest.raises(ValueError, match="before its first flip"):
        redeal(scout.apply(state, 0, scout.KEEP), state.hands)
    bad = [state.hands[0][:-1] + ((9, 10),), state.hands[1], state.hands[2]]
    with pytest.raises(ValueError, match="exactly this round's cards"):
        redeal(state, bad)
    with pytest.raises(ValueError, match="sizes"):
        redeal(state, [state.hands[0] + state.hands[1][:1], state.hands[1][1:], state.hands[2]])
