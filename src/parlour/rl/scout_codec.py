"""SCOUT as arrays: a seat's observation (float32) and a fixed action space with a legal mask.

Everything here is computed from what the seat may see (``shared/rules/scout.md``, "What each
seat may see"): its own hand, the public table and the counts. Seats are *relative*: index 0 is
the observing seat, 1 the seat on its left (next to play after it), and so on; tables of fewer
than five players leave the last seat blocks empty (their ``present`` flag is 0), so one policy
can serve every player count. The README ("For researchers") lists every field.

Actions (:data:`ACTIONS`, 820 in all)::

    0, 1                     keep, flip                              (S5)
    2 + start*10 + length-1  show `length` cards from hand position `start`   (S8-S10)
    452 + (end*2+rot)*46 + i scout the left/right end, rotated or not, into position i (S11)
    636 + (end*2+rot)*46 + i the Scout half of Scout & Show, same layout (S12)
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.games.scout import Flip, Scout, ScoutShow, Show, legal_actions
from parlour.games.scout.actions import ENDING, SCOUT_SHOWS, SCOUTS, SHOWS
from parlour.games.scout.state import FLIP_PHASE, PLAY_PHASE, State

MAX_SEATS = 5
"""Seat blocks in an observation (SCOUT is for 2-5 players)."""
HAND_SLOTS = 45
"""Hand positions encoded: more than any hand can hold (at most 41 cards: a round's 45 cards
less one card for each of four other hands)."""
INSERTS = HAND_SLOTS + 1
"""Positions a scouted card can be inserted at."""
MAX_GROUP = 10
"""The longest possible group: a run 1..10 (a set has at most 9 cards)."""

SHOW_BASE = 2
SCOUT_BASE = SHOW_BASE + HAND_SLOTS * MAX_GROUP
SCOUT_SHOW_BASE = SCOUT_BASE + 4 * INSERTS
N_ACTIONS = SCOUT_SHOW_BASE + 4 * INSERTS
"""The size of the action space (820)."""

CARD_WIDTH = 21
"""Per card: present, up number one-hot (1-10), down number one-hot (1-10)."""
SEAT_WIDTH = 8
"""Per seat: present, hand size/12, captured/12, chips/12, Scout & Show available, flip decided,
total/25, to act."""

# Observation layout: (name, offset, length), documented in the README.
_SECTIONS = (
    ("hand", HAND_SLOTS * CARD_WIDTH),
    ("active_show", MAX_GROUP * CARD_WIDTH),
    ("active_kind", 4),  # count/10, is a set, is a run, empty
    ("owner", MAX_SEATS + 1),  # relative seat one-hot, then "no owner"
    ("seats", MAX_SEATS * SEAT_WIDTH),
    ("phase", 4),  # flip phase, play phase, Scout & Show pending, plain Scouts since the Show/4
    ("round", MAX_SEATS),  # one-hot, round 1..5
    ("players", 4),  # one-hot, 2..5
    ("set_aside", 1),  # set-aside cards/22 (2-player game)
)
LAYOUT: dict[str, tuple[int, int]] = {}
_offset = 0
for _name, _length in _SECTIONS:
    LAYOUT[_name] = (_offset, _length)
    _offset += _length
OBS_SIZE = _offset
"""The length of an observation vector (1219)."""
OBS_LOW, OBS_HIGH = -10.0, 10.0
"""Bounds of every observation value (counts are scaled and clipped into them)."""


def _build_actions() -> tuple[list[Any], dict[int, int]]:
    actions: list[Any] = [Flip(False), Flip(True)]
    for start in range(HAND_SLOTS):
        for length in range(1, MAX_GROUP + 1):
            actions.append(SHOWS[start][length])
    for cls in (Scout, ScoutShow):
        for end in ("left", "right"):
            for rot in (False, True):
                for ins in range(INSERTS):
                    actions.append(cls(end, rot, ins))
    assert len(actions) == N_ACTIONS
    # The engine hands out shared (interned) action objects: index them by identity too.
    by_id: dict[int, int] = {}
    for idx, action in enumerate(actions):
        by_id[id(action)] = idx
    from parlour.games.scout.actions import FLIP, KEEP

    by_id[id(KEEP)], by_id[id(FLIP)] = 0, 1
    for row in SHOWS:
        for show in row:
            if show.length >= 1 and show.start < HAND_SLOTS and show.length <= MAX_GROUP:
                by_id[id(show)] = action_index(show)
    for ending in ENDING:
        for maybe in ending:
            if maybe is not None and maybe.start < HAND_SLOTS and maybe.length <= MAX_GROUP:
                by_id[id(maybe)] = action_index(maybe)
    for table in (SCOUTS, SCOUT_SHOWS):
        for scouts in table:
            for scout in scouts:
                if scout.insert < INSERTS:
                    by_id[id(scout)] = action_index(scout)
    return actions, by_id


def action_index(action: Any) -> int:
    """The index of a SCOUT action in the fixed action space; raises ``ValueError`` for an
    action outside it.

    >>> action_index(Show(2, 3)), action_index(Scout("right", True, 0))
    (24, 590)
    """
    cls = type(action)
    if cls is Flip:
        return 1 if action.flip else 0
    if cls is Show:
        if 0 <= action.start < HAND_SLOTS and 1 <= action.length <= MAX_GROUP:
            return int(SHOW_BASE + action.start * MAX_GROUP + action.length - 1)
    elif (cls is Scout or cls is ScoutShow) and 0 <= action.insert < INSERTS:
        base = SCOUT_BASE if cls is Scout else SCOUT_SHOW_BASE
        return int(base + ((action.end == "right") * 2 + action.rotate) * INSERTS + action.insert)
    raise ValueError(f"{action!r} is outside SCOUT's action space")


ACTIONS, _BY_ID = _build_actions()
"""``ACTIONS[i]``: the engine action with index ``i``."""


def legal_array(state: State, seat: int) -> npt.NDArray[np.intp]:
    """The indices of ``seat``'s legal actions, in the engine's order, as an array."""
    legal = legal_actions(state, seat)
    try:  # the engine hands out interned actions: look them up by identity
        return np.fromiter(map(_BY_ID.__getitem__, map(id, legal)), np.intp, len(legal))
    except KeyError:
        return np.array([action_index(action) for action in legal], dtype=np.intp)


def legal_indices(state: State, seat: int) -> list[int]:
    """The indices of ``seat``'s legal actions, in the engine's order."""
    return [int(i) for i in legal_array(state, seat)]


def mask_of(legal: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
    """The 0/1 mask over the action space with ones at ``legal``."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask[legal] = 1
    return mask


def action_mask(state: State, seat: int) -> npt.NDArray[np.int8]:
    """A 0/1 vector over the action space: 1 for each legal action of ``seat``."""
    return mask_of(legal_array(state, seat))


_TAIL = LAYOUT["active_kind"][0]
_HAND_BASES = np.arange(HAND_SLOTS, dtype=np.intp) * CARD_WIDTH
_ACTIVE_BASES = LAYOUT["active_show"][0] + np.arange(MAX_GROUP, dtype=np.intp) * CARD_WIDTH


def _put_cards(
    out: npt.NDArray[np.float32],
    cards: tuple[tuple[int, int], ...],
    bases: npt.NDArray[np.intp],
) -> None:
    values = np.fromiter(chain.from_iterable(cards), np.intp, 2 * len(cards))
    at = bases[: len(cards)]
    out[at] = 1.0
    out[at + values[0::2]] = 1.0
    out[at + 10 + values[1::2]] = 1.0


_HIGH = OBS_HIGH


def observe(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation vector of ``seat`` (length :data:`OBS_SIZE`), built only from what the
    seat may see. Raises ``ValueError`` for a hand or show too long to encode (impossible in a
    game dealt by the engine)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    n = len(state.hands)
    hand = state.hands[seat]
    active = state.active
    if len(hand) > HAND_SLOTS or len(active) > MAX_GROUP:
        raise ValueError("a hand or show is too long for the encoding")
    # The cards: ones at present, up and down of each card (see CARD_WIDTH).
    if hand:
        _put_cards(out, hand, _HAND_BASES)
    if active:
        _put_cards(out, active, _ACTIVE_BASES)
    # Everything after the cards, as one list (see _SECTIONS).
    k = len(active)
    if k:
        is_set = k >= 2 and bool(state.active_key & 16)
        tail = [k / 10, float(is_set), float(k >= 2 and not is_set), 0.0]
    else:
        tail = [0.0, 0.0, 0.0, 1.0]
    owner = [0.0] * (MAX_SEATS + 1)
    if state.owner is None or not k:
        owner[MAX_SEATS] = 1.0
    else:
        owner[(state.owner - seat) % n] = 1.0
    tail += owner
    phase = state.phase
    play = phase == PLAY_PHASE
    flipping = phase == FLIP_PHASE
    turn = state.turn
    hands, piles, chips, shows, flips, totals = (
        state.hands,
        state.piles,
        state.chips,
        state.scout_show,
        state.flips,
        state.totals,
    )
    for r in range(MAX_SEATS):
        if r >= n:
            tail += [0.0] * SEAT_WIDTH
            continue
        s = (seat + r) % n
        total = totals[s] / 25
        tail += [
            1.0,
            len(hands[s]) / 12,
            len(piles[s]) / 12,
            min(chips[s] / 12, _HIGH),
            float(shows[s]),
            float(flips[s] is not None),
            total if -_HIGH <= total <= _HIGH else (_HIGH if total > 0 else -_HIGH),
            float((play and s == turn) or (flipping and flips[s] is None)),
        ]
    tail += [float(flipping), float(play), float(state.pending), state.scouts / 4]
    rounds = [0.0] * MAX_SEATS
    rounds[min(state.round, MAX_SEATS - 1)] = 1.0
    players = [0.0] * 4
    players[n - 2] = 1.0
    tail += rounds + players + [len(state.set_aside) / 22]
    out[_TAIL:] = tail
    return out


def describe(index: int) -> str:
    """The action with index ``index`` in the engine's text form (``show 2 3``...)."""
    return str(ACTIONS[index])


_PHASES = {"flip": FLIP_PHASE, "play": PLAY_PHASE}


def observe_view(seen: dict[str, Any]) -> npt.NDArray[np.float32]:
    """The observation vector from a seat's view (``parlour.games.scout.view``): the same
    vector as :func:`observe` on the state the view was taken from, for bots, which receive
    views only."""
    from types import SimpleNamespace

    from parlour.games.scout import group_key

    seat = seen["seat"]
    if seat is None:
        raise ValueError("a spectator's view has no hand to encode")
    seats = seen["seats"]
    active = tuple((c[0], c[1]) for c in seen["active_show"])
    hand = tuple((c[0], c[1]) for c in seen["hand"])
    proxy = SimpleNamespace(
        hands=tuple(hand if s == seat else ((0, 0),) * t["hand_size"] for s, t in enumerate(seats)),
        piles=tuple(((0, 0),) * t["captured"] for t in seats),
        chips=tuple(t["chips"] for t in seats),
        scout_show=tuple(t["scout_show_available"] for t in seats),
        flips=tuple(True if t["flip_decided"] else None for t in seats),
        totals=tuple(t["total"] for t in seats),
        active=active,
        active_key=group_key([c[0] for c in active]),
        owner=seen["owner"],
        phase=_PHASES.get(seen["phase"], -1),
        turn=seen["turn"],
        pending=seen["pending_scout_show"],
        scouts=seen["scouts_since_show"],
        round=seen["round"] - 1,
        set_aside=((0, 0),) * seen["set_aside_count"],
    )
    return observe(proxy, seat)  # type: ignore[arg-type]
