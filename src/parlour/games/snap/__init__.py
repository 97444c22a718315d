"""SNAP (the children's matching game, 2–12 players): the rules engine, following
``shared/rules/snap.md`` (N1–N9). Real time is an input: every ``apply`` carries ``now_ms`` and
the referee advances the game with ``Timeout()`` at ``deadline(state)`` (see ``rules``).

>>> import random
>>> from parlour.core import Timeout
>>> from parlour.games import snap
>>> rng = random.Random(1)
>>> state, now = snap.new_state({"players": 3}, seed=42), 0
>>> while snap.outcome(state) is None:
...     due = snap.deadline(state)
...     seat = rng.choice(snap.to_act(state))
...     if rng.random() < 0.5:
...         state, now = snap.apply(state, None, Timeout(), due), due
...     else:
...         now = rng.randint(now, due)
...         state = snap.apply(state, seat, rng.choice(snap.legal_actions(state, seat)), now)
>>> len(snap.outcome(state)["ranks"])
3
"""

from parlour.core import GameSpec, Timeout
from parlour.games.snap.actions import (
    FLIP,
    SNAP,
    TIMEOUT,
    Action,
    Flip,
    Snap,
    action_from_json,
    parse_action,
)
from parlour.games.snap.cards import DECK, Card, card, cards, name, names
from parlour.games.snap.rules import (
    apply,
    check_invariants,
    claim_set,
    dead_position,
    deadline,
    legal_actions,
    outcome,
    race,
    snap_valid,
    to_act,
)
from parlour.games.snap.start import new_state, state_from_deal
from parlour.games.snap.state import (
    FLIP_CAP,
    SnapOptions,
    State,
    options_from_json,
)
from parlour.games.snap.view import SnapView, hidden_info, history, scramble_hidden, view

GAME: GameSpec[State, Action, SnapView] = GameSpec(
    name="snap",
    min_players=2,
    max_players=12,
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
    setup={"match": ("rank", "rank_and_colour"), "index_card": bool, "shuffle_on_recycle": bool},
    page="snap.html",
    timed=frozenset({"snap"}),
    late_calls_move_on=True,
    labels={"shuffle_on_recycle": "lobby.snap.shuffle"},
    # Learn to play: seed 507 with three players: within ten flips the learner flips, can snap a
    # match, watches the two tutors tie (the Snap Pot) and can win the Pot; a minute per flip.
    lesson={"seed": 507, "players": 3, "options": {"turn_timer_ms": 60_000}},
)

__all__ = [
    "DECK",
    "FLIP",
    "FLIP_CAP",
    "GAME",
    "SNAP",
    "TIMEOUT",
    "Action",
    "Card",
    "Flip",
    "Snap",
    "SnapOptions",
    "SnapView",
    "State",
    "Timeout",
    "action_from_json",
    "apply",
    "card",
    "cards",
    "check_invariants",
    "claim_set",
    "dead_position",
    "deadline",
    "hidden_info",
    "history",
    "legal_actions",
    "name",
    "names",
    "new_state",
    "options_from_json",
    "outcome",
    "parse_action",
    "race",
    "scramble_hidden",
    "snap_valid",
    "state_from_deal",
    "to_act",
    "view",
]
