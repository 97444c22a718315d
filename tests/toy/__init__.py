"""TOY, a two-card trick game that exists to prove a game plugs into Parlour as one package.

Used only by tests: the registry knows it when ``PARLOUR_EXTRA_GAMES=toy=tests.toy`` (see
``docs/adding-a-game.md``, which walks through this package). Rules:

- 2 or 3 players; each is dealt two cards from a short deck (1–6) or a long one (1–12).
- Two tricks. The leader (seat 0, then the last trick's winner) plays a card, then each
  following seat in turn; the highest card wins the trick (the lowest with ``low_wins``).
- Each trick won scores a point; the most points wins (equal scores share).

>>> import random
>>> from tests import toy
>>> state, rng = toy.new_state({"players": 3}, seed=7), random.Random(1)
>>> while toy.outcome(state) is None:
...     seat = toy.to_act(state)[0]
...     state = toy.apply(state, seat, rng.choice(toy.legal_actions(state, seat)))
>>> sum(toy.outcome(state)["scores"])
2
"""

from __future__ import annotations

from parlour.core import GameSpec
from tests.toy.rules import (
    Play,
    State,
    ToyOptions,
    action_from_json,
    apply,
    check_invariants,
    deadline,
    hidden_info,
    legal_actions,
    new_state,
    options_from_json,
    outcome,
    parse_action,
    scramble_hidden,
    to_act,
    view,
)

GAME = GameSpec(
    name="toy",
    min_players=2,
    max_players=3,
    new_state=new_state,
    to_act=to_act,
    legal_actions=legal_actions,
    apply=apply,
    view=view,
    deadline=deadline,
    outcome=outcome,
    parse_action=parse_action,
    action_from_json=action_from_json,
    options_from_json=options_from_json,
    check_invariants=check_invariants,
    hidden_info=hidden_info,
    scramble_hidden=scramble_hidden,
    setup={"deck": ("short", "long"), "low_wins": bool},
)

__all__ = [
    "GAME",
    "Play",
    "State",
    "ToyOptions",
    "action_from_json",
    "apply",
    "legal_actions",
    "new_state",
    "outcome",
    "parse_action",
    "to_act",
    "view",
]
