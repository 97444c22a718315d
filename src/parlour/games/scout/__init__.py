"""SCOUT (Oink Games, 2019): the rules engine, following ``shared/rules/scout.md`` (S1–S18).

>>> import random
>>> from parlour.games import scout
>>> rng = random.Random(1)
>>> state = scout.new_state({"players": 4}, seed=42)
>>> while scout.outcome(state) is None:
...     seat = scout.to_act(state)[0]
...     state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))
>>> len(scout.outcome(state)["scores"])
4
"""

from parlour.core import GameSpec
from parlour.games.scout.actions import (
    FLIP,
    KEEP,
    Action,
    Flip,
    Scout,
    ScoutShow,
    Show,
    action_from_json,
    parse_action,
)
from parlour.games.scout.cards import DECK, Card, deck_for, rotate
from parlour.games.scout.rules import (
    apply,
    check_invariants,
    deadline,
    group_key,
    legal_actions,
    outcome,
    refusals,
    show_refusal,
    to_act,
)
from parlour.games.scout.state import (
    RoundResult,
    ScoutOptions,
    SeatResult,
    State,
    new_state,
    options_from_json,
    state_from_deal,
)
from parlour.games.scout.view import (
    ScoutSeatView,
    ScoutView,
    hidden_info,
    history,
    scramble_hidden,
    view,
)

GAME: GameSpec[State, Action, ScoutView] = GameSpec(
    name="scout",
    min_players=2,
    max_players=5,
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
    setup={"count_unspent_chips": bool},
    page="scout.html",
    history=history,
    refusals=refusals,
    option_players={"count_unspent_chips": (2, 2)},
    labels={"count_unspent_chips": "lobby.count_chips"},
    # Learn to play: seed 100 with three players deals the learner (seat 0) the first turn and a
    # hand kept as dealt with a pair and a run; the tutors let them Show, Scout and Scout & Show.
    lesson={"seed": 100, "players": 3, "options": {}},
)

__all__ = [
    "DECK",
    "FLIP",
    "GAME",
    "KEEP",
    "Action",
    "Card",
    "Flip",
    "RoundResult",
    "Scout",
    "ScoutOptions",
    "ScoutSeatView",
    "ScoutShow",
    "ScoutView",
    "SeatResult",
    "Show",
    "State",
    "action_from_json",
    "apply",
    "check_invariants",
    "deadline",
    "deck_for",
    "group_key",
    "hidden_info",
    "legal_actions",
    "new_state",
    "options_from_json",
    "outcome",
    "parse_action",
    "refusals",
    "rotate",
    "scramble_hidden",
    "show_refusal",
    "state_from_deal",
    "to_act",
    "view",
]
