"""SCAN (Parker Brothers, 1970): the rules engine, following ``shared/rules/scan.md`` (C1–C14).

A real-time game with time as an input: touches and Bluffo slaps are collected and races are
decided at deadlines, by reaction time (see :mod:`parlour.games.scan.rules` and
:mod:`parlour.games.scan.decide`). The card designs (``designs.py``) are not imported here: the
engine only compares design ids; drawing them is the presentation's business
(:mod:`parlour.art.scan`).

>>> import random
>>> from parlour.core import Timeout
>>> from parlour.games import scan
>>> rng = random.Random(1)
>>> state, now = scan.new_state({"players": 3, "bluffo": True}, seed=42), 0
>>> while scan.outcome(state) is None:
...     seats, due = scan.to_act(state), scan.deadline(state)
...     if seats and rng.random() < 0.8:
...         now = rng.randint(now, due)
...         seat = rng.choice(seats)
...         state = scan.apply(state, seat, rng.choice(scan.legal_actions(state, seat)), now)
...     else:
...         now = due
...         state = scan.apply(state, None, Timeout(), now)
>>> len(scan.outcome(state)["scores"])
3
"""

from parlour.core import GameSpec
from parlour.games.scan.actions import (
    Action,
    Bluffo,
    ChooseCategory,
    Touch,
    action_from_json,
    parse_action,
)
from parlour.games.scan.cards import CATEGORIES, Card, deal_deck, latin_rectangle, match_index
from parlour.games.scan.invariants import check_invariants
from parlour.games.scan.rules import (
    apply,
    deadline,
    deadline_kind,
    legal_actions,
    outcome,
    race,
    to_act,
)
from parlour.games.scan.start import new_state, state_from_cards
from parlour.games.scan.state import (
    GameResult,
    Pending,
    ScanOptions,
    State,
    options_from_json,
)
from parlour.games.scan.view import hidden_info, history, scramble_hidden, view
from parlour.games.scan.views import ScanView

GAME: GameSpec[State, Action, ScanView] = GameSpec(
    name="scan",
    min_players=2,
    max_players=8,
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
    race=race,
    history=history,
    setup={
        "category": ("shape", "pattern", "position", "colour", "random"),
        "dealers_choice": bool,
        "bluffo": bool,
        "four_in_a_row": bool,
    },
    page="scan.html",
    timed=frozenset({"touch", "bluffo"}),
    excludes=(("dealers_choice", "four_in_a_row"),),
    labels={
        "category/four_in_a_row": "lobby.scan.category_first",
        "colourBlind": "lobby.scan.colour_blind",
    },
    device=("colourBlind",),
    # Learn to play: seed 13, SHAPE with Bluffo: the first two tan cards have a match, the third
    # none; a minute to search each card.
    lesson={
        "seed": 13,
        "players": 2,
        "options": {"category": "shape", "bluffo": True, "round_timer_ms": 60_000},
    },
)

__all__ = [
    "CATEGORIES",
    "GAME",
    "Action",
    "Bluffo",
    "Card",
    "ChooseCategory",
    "GameResult",
    "Pending",
    "ScanOptions",
    "ScanView",
    "State",
    "Touch",
    "action_from_json",
    "apply",
    "check_invariants",
    "deadline",
    "deadline_kind",
    "deal_deck",
    "hidden_info",
    "history",
    "latin_rectangle",
    "legal_actions",
    "match_index",
    "new_state",
    "options_from_json",
    "outcome",
    "parse_action",
    "race",
    "scramble_hidden",
    "state_from_cards",
    "to_act",
    "view",
]
