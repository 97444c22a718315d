"""Determinization: full SCOUT states consistent with everything one seat has seen.

From a seat's view (its own hand, hand sizes, the active show, this round's public log: every
card shown and where it came from, every scouted card with its rotation and insertion position)
the other hands are rebuilt slot by slot: cards known to be there (scouted in, and still there)
stay where the public history puts them, and the unknown slots are filled with a random
arrangement of the cards nobody has seen, each in a random orientation.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from parlour.games.scout import ScoutOptions, ScoutView, State, group_key
from parlour.games.scout.cards import Card, canonical, deck_for
from parlour.games.scout.state import PLAY_PHASE

Slot = Card | None


def scout_view(view: Mapping[str, Any]) -> ScoutView:
    """A view a bot was given (bots take any game's view) as what it is: SCOUT's."""
    return cast(ScoutView, view)


def public_slots(view: ScoutView) -> list[list[Slot]]:
    """Each seat's hand as the public history shows it: a known card or ``None`` per slot.

    The viewing seat's own hand is known entirely.
    """
    players = view["players"]
    me = view["seat"]
    log = view["log"]
    sizes = [s["hand_size"] for s in view["seats"]]
    initial = list(sizes)
    for event in log:
        if event["type"] == "show":
            initial[event["seat"]] += event["length"]
        elif event["type"] in ("scout", "scout_show"):
            initial[event["seat"]] -= 1
    slots: list[list[Slot]] = [[None] * initial[s] for s in range(players)]
    for event in log:
        seat = event["seat"]
        if event["type"] == "show":
            del slots[seat][event["start"] : event["start"] + event["length"]]
        elif event["type"] in ("scout", "scout_show"):
            up, down = event["card"]
            card = (down, up) if event["rotate"] else (up, down)
            slots[seat].insert(event["insert"], card)
    if me is not None:
        slots[me] = [(c[0], c[1]) for c in view["hand"] or []]
    for s in range(players):
        assert len(slots[s]) == sizes[s], "the public history does not match the hand sizes"
    return slots


def unseen_cards(view: ScoutView) -> list[Card]:
    """The cards of this round the viewing seat has not seen (as (smaller, larger)): not in its
    hand, not shown this round, and in the 2-player game's round 2 none it saw in round 1
    (``seen_earlier``: round 2 holds only the cards set aside in round 1, S15)."""
    seen = {canonical((c[0], c[1])) for c in view["hand"] or []}
    seen.update(canonical((c[0], c[1])) for c in view.get("seen_earlier", ()))
    for event in view["log"]:
        if event["type"] == "show":
            seen.update(canonical((c[0], c[1])) for c in event["cards"])
    seen.update(canonical((c[0], c[1])) for c in view["active_show"])
    return [c for c in deck_for(view["players"]) if c not in seen]


def fill_slots(
    slots: Sequence[Sequence[Any]], pool: list[Any], rng: random.Random
) -> list[tuple[Any, ...]]:
    """Each seat's hand with its unknown slots (``None``) filled from ``pool`` (shuffled in
    place), each drawn card turned either way up at random; known slots kept."""
    rng.shuffle(pool)
    hands = []
    for seat_slots in slots:
        hand = []
        for slot in seat_slots:
            if slot is None:
                card = pool.pop()
                slot = (card[1], card[0]) if rng.random() < 0.5 else card
            hand.append(slot)
        hands.append(tuple(hand))
    return hands


def determinize(view: ScoutView, rng: random.Random) -> State:
    """A full play-phase state consistent with ``view``, hidden cards drawn at random.

    The state is built for playouts to the end of the current round: it is marked as the game's
    last round, so the round's end ends it (no further deal), and the captured piles hold
    placeholder cards (only their number matters).
    """
    players = view["players"]
    hands = fill_slots(public_slots(view), unseen_cards(view), rng)
    opts = view["options"]
    options = ScoutOptions(players, opts.get("count_unspent_chips", True))
    state = State.__new__(State)
    state.options = options
    state.seed = 0
    state.round = options.rounds - 1
    state.first_seat = state.start_seat = view["start_seat"]
    state.phase = PLAY_PHASE
    state.hands = tuple(hands)
    state.flips = (False,) * players
    active = tuple((c[0], c[1]) for c in view["active_show"])
    state.active = active
    state.owner = view["owner"]
    state.active_key = group_key([c[0] for c in active])
    state.piles = tuple(((0, 0),) * s["captured"] for s in view["seats"])
    state.chips = tuple(s["chips"] for s in view["seats"])
    state.scout_show = tuple(s["scout_show_available"] for s in view["seats"])
    state.turn = view["turn"]
    state.scouts = view["scouts_since_show"]
    state.pending = view["pending_scout_show"]
    state.set_aside = ()
    state.totals = (0,) * players
    state.results = ()
    state.log = None
    state.steps = 0
    state.round_cards = frozenset()
    state.dealt = ()
    return state


def with_hand(state: State, seat: int, hand: Sequence[tuple[int, int]]) -> State:
    """``state`` with ``seat``'s hand replaced."""
    new = state.clone()
    new.hands = state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1 :]
    return new
