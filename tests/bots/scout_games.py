"""A whole seeded SCOUT game between bots, for the bot tests (one copy of the arena loop)."""

from __future__ import annotations

import random
from typing import Any

from parlour.bots import Bot
from parlour.games import scout


def play(bots: list[Bot], seed: int) -> dict[str, Any]:
    """Play a game of ``len(bots)`` players from ``seed``, each bot with its own seeded
    generator, checking every action is legal; the outcome (``scores``, ``winners``)."""
    state = scout.new_state({"players": len(bots)}, seed)
    rngs = [random.Random(seed * 10 + i) for i in range(len(bots))]
    while scout.outcome(state) is None:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        action = bots[seat].choose(scout.view(state, seat), legal, rngs[seat])
        assert action in legal
        state = scout.apply(state, seat, action)
    result = scout.outcome(state)
    assert result is not None
    return result
