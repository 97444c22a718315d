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


def legal_indices(state: State, seat: int) -> list[int]:
    """The indices of ``seat``'s legal actions, in the engine's order."""
    by_id = _BY_ID
    out = []
    for action in legal_actions(state, seat):
        idx = by_id.get(id(action))
        out.append(action_index(action) if idx is None else idx)
    return out


def action_mask(state: State, seat: int) -> npt.NDArray[np.int8]:
    """A 0/1 vector over the action space: 1 for each legal action of ``seat``."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask[legal_indices(state, seat)] = 1
    return mask


def _put_cards(
    out: npt.NDArray[np.float32], offset: int, cards: tuple[tuple[int, int], ...]
) -> None:
    # Each card: present at +0, up one-hot at +1..+10, down one-hot at +11..+20.
    if not cards:
        return
    base = offset + CARD_WIDTH * np.arange(len(cards))
    ups = np.fromiter((c[0] for c in cards), dtype=np.intp, count=len(cards))
    downs = np.fromiter((c[1] for c in cards), dtype=np.intp, count=len(cards))
    out[base] = 1.0
    out[base + ups] = 1.0
    out[base + 10 + downs] = 1.0


def observe(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation vector of ``seat`` (length :data:`OBS_SIZE`), built only from what the
    seat may see. Raises ``ValueError`` for a hand or show too long to encode (impossible in a
    game dealt by the engine)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    n = len(state.hands)
    hand = state.hands[seat]
    if len(hand) > HAND_SLOTS or len(state.active) > MAX_GROUP:
        raise ValueError("a hand or show is too long for the encoding")
    _put_cards(out, 0, hand)
    active = state.active
    off = LAYOUT["active_show"][0]
    _put_cards(out, off, active)
    off = LAYOUT["active_kind"][0]
    k = len(active)
    if k:
        out[off] = k / 10
        key = state.active_key
        if k >= 2 and key & 16:
            out[off + 1] = 1.0
        elif k >= 2:
            out[off + 2] = 1.0
    else:
        out[off + 3] = 1.0
    off = LAYOUT["owner"][0]
    owner = state.owner
    if owner is None or not active:
        out[off + MAX_SEATS] = 1.0
    else:
        out[off + (owner - seat) % n] = 1.0
    off = LAYOUT["seats"][0]
    play = state.phase == PLAY_PHASE
    for s in range(n):
        b = off + ((s - seat) % n) * SEAT_WIDTH
        out[b] = 1.0
        out[b + 1] = len(state.hands[s]) / 12
        out[b + 2] = len(state.piles[s]) / 12
        out[b + 3] = min(state.chips[s] / 12, OBS_HIGH)
        out[b + 4] = state.scout_show[s]
        out[b + 5] = state.flips[s] is not None
        out[b + 6] = max(OBS_LOW, min(OBS_HIGH, state.totals[s] / 25))
        out[b + 7] = (play and s == state.turn) or (
            state.phase == FLIP_PHASE and state.flips[s] is None
        )
    off = LAYOUT["phase"][0]
    out[off] = state.phase == FLIP_PHASE
    out[off + 1] = play
    out[off + 2] = state.pending
    out[off + 3] = state.scouts / 4
    if state.phase != FLIP_PHASE and not play:  # game over: no phase flag
        out[off + 1] = 0.0
    out[LAYOUT["round"][0] + min(state.round, MAX_SEATS - 1)] = 1.0
    out[LAYOUT["players"][0] + n - 2] = 1.0
    out[LAYOUT["set_aside"][0]] = len(state.set_aside) / 22
    np.clip(out, OBS_LOW, OBS_HIGH, out=out)
    return out


def describe(index: int) -> str:
    """The action with index ``index`` in the engine's text form (``show 2 3``...)."""
    return str(ACTIONS[index])
