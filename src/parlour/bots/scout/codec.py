"""SCOUT as arrays: a seat's observation (float32) and a fixed action space with a legal mask.

Everything here is computed from what the seat may see (``shared/rules/scout.md``, "What each
seat may see"): its own hand, the public table and the counts. Seats are *relative*: index 0 is
the observing seat, 1 the seat on its left (next to play after it), and so on; tables of fewer
than five players leave the last seat blocks empty (their ``present`` flag is 0), so one policy
can serve every player count. The README ("For researchers") lists every field.

It lives among the bots so that the SCOUT network (:mod:`parlour.bots.scout.net`) reads the same
encoding as the research interfaces, which offer it as ``parlour.rl.scout_codec``.

:func:`observe`, :func:`action_mask`, :func:`observation_buffer` and :func:`legal_mask_bytes`
use the compiled encoder (``_ccodec.c``, built when the package is installed with a C compiler)
when it is there (:data:`COMPILED`), else the pure-Python one (``*_py``); both give the same
bytes (tests compare them).

Actions (:data:`ACTIONS`, 820 in all)::

    0, 1                     keep, flip                              (S5)
    2 + start*10 + length-1  show `length` cards from hand position `start`   (S8-S10)
    452 + (end*2+rot)*46 + i scout the left/right end, rotated or not, into position i (S11)
    636 + (end*2+rot)*46 + i the Scout half of Scout & Show, same layout (S12)
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.bots.scout import native
from parlour.games.scout import Flip, Scout, ScoutShow, Show, legal_actions
from parlour.games.scout.actions import ENDING, SCOUT_SHOWS, SCOUTS, SHOWS
from parlour.games.scout.rules import feasible_scout_shows, legal_shows
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


def _ones(indices: list[int]) -> bytes:
    mask = bytearray(N_ACTIONS)
    for i in indices:
        mask[i] = 1
    return bytes(mask)


_NO_ACTIONS = bytes(N_ACTIONS)
_FLIP_MASK = _ones([0, 1])
_SCOUT_MASKS = [_ones([_BY_ID[id(a)] for a in SCOUTS[n]]) for n in range(HAND_SLOTS + 1)]
"""``_SCOUT_MASKS[n]``: the plain Scouts of a hand of ``n`` cards (``SCOUTS[n]``)."""


def legal_mask_bytes_py(state: State, seat: int) -> bytearray:
    """The action mask of ``seat`` as bytes (0/1 per action index), in pure Python:
    :func:`legal_mask_bytes` when the compiled encoder is missing, and its reference.

    The same set as :func:`legal_actions` (a test compares them), assembled from the engine's
    own parts: its legal Shows, the row of plain Scouts for the hand's size (one precomputed
    mask per size) and its feasible Scout & Show halves, which avoids looking up every action
    of the list one by one.
    """
    if state.phase != PLAY_PHASE:
        flips = state.flips
        if state.phase == FLIP_PHASE and 0 <= seat < len(flips) and flips[seat] is None:
            return bytearray(_FLIP_MASK)
        return bytearray(_NO_ACTIONS)
    if seat != state.turn:
        return bytearray(_NO_ACTIONS)
    hand = state.hands[seat]
    if len(hand) > HAND_SLOTS:  # impossible in a game dealt by the engine
        return bytearray(mask_of(legal_array(state, seat)).tobytes())
    by_id = _BY_ID
    scout_shows: list[ScoutShow] = []
    if state.pending or not state.active:
        mask = bytearray(_NO_ACTIONS)
    elif len(state.hands) == 2:
        mask = bytearray(_SCOUT_MASKS[len(hand)] if state.chips[seat] > 0 else _NO_ACTIONS)
    else:
        mask = bytearray(_SCOUT_MASKS[len(hand)])
        if state.scout_show[seat]:
            scout_shows = feasible_scout_shows(hand, state.active)
    for show in legal_shows(hand, state.active_key):
        mask[by_id[id(show)]] = 1
    for half in scout_shows:
        mask[by_id[id(half)]] = 1
    return mask


def action_mask(state: State, seat: int) -> npt.NDArray[np.int8]:
    """A 0/1 vector over the action space: 1 for each legal action of ``seat``."""
    return np.frombuffer(legal_mask_bytes(state, seat), dtype=np.int8)


# The observation is assembled as bytes (native float32) from precomputed pieces: one
# ``b"".join`` and one copy into a writable array, instead of many small numpy writes.


def _f32(values: list[float]) -> bytes:
    return np.asarray(values, dtype=np.float32).tobytes()


def _card_bytes(up: int, down: int) -> bytes:
    row = [0.0] * CARD_WIDTH
    row[0] = row[up] = row[10 + down] = 1.0
    return _f32(row)


_CARD_BYTES: dict[tuple[int, int], bytes] = {
    (up, down): _card_bytes(up, down) for up in range(1, 11) for down in range(1, 11)
}
_CARD_SIZE = CARD_WIDTH * 4
_HAND_PAD = [bytes((HAND_SLOTS - n) * _CARD_SIZE) for n in range(HAND_SLOTS + 1)]
_ACTIVE_PAD = [bytes((MAX_GROUP - n) * _CARD_SIZE) for n in range(MAX_GROUP + 1)]
_ROTATIONS = [
    [[(seat + r) % n for r in range(n)] for seat in range(n)] for n in range(MAX_SEATS + 1)
]
"""``_ROTATIONS[n][seat]``: the seats of an ``n``-player table from ``seat``'s view."""
_SEAT_PAD = [bytes((MAX_SEATS - n) * SEAT_WIDTH * 4) for n in range(MAX_SEATS + 1)]
_HIGH = OBS_HIGH
_SEAT_PACKS = [struct.Struct(f"={n * SEAT_WIDTH}f").pack for n in range(MAX_SEATS + 1)]
"""``_SEAT_PACKS[n]``: ``n`` seat blocks (see SEAT_WIDTH) as native float32 bytes."""


def _kind_owner(k: int, is_set: bool, owner: int) -> bytes:
    # active_kind then owner (see _SECTIONS); owner is the relative seat, MAX_SEATS for none
    kind = [k / 10, float(is_set), float(k >= 2 and not is_set), 0.0] if k else [0, 0, 0, 1.0]
    owners = [0.0] * (MAX_SEATS + 1)
    owners[owner] = 1.0
    return _f32(kind + owners)


def _rest(
    flipping: bool, play: bool, pending: bool, scouts: int, rnd: int, n: int, aside: int
) -> bytes:
    # phase, round, players and set_aside (see _SECTIONS)
    rounds = [0.0] * MAX_SEATS
    rounds[min(rnd, MAX_SEATS - 1)] = 1.0
    players = [0.0] * 4
    players[n - 2] = 1.0
    phase = [float(flipping), float(play), float(pending), scouts / 4]
    return _f32(phase + rounds + players + [aside / 22])


# The few distinct blocks met again and again, cached as bytes.
_KIND_OWNER: dict[tuple[int, bool, int], bytes] = {}
_REST: dict[tuple[bool, bool, bool, int, int, int, int], bytes] = {}


_JOIN_BYTES = b"".join
_JOIN_BYTEARRAY = bytearray().join
"""Joins into a new bytearray: a writable observation with one copy instead of two."""


def observation_bytes(state: State, seat: int, join: Any = _JOIN_BYTES) -> bytes:
    """The observation vector of ``seat`` as native float32 bytes (see :func:`observe`); a
    batch of them joined is a batch of observations (``VectorEnv``). ``join`` joins the
    pieces (``bytearray().join`` for a writable buffer)."""
    hands = state.hands
    n = len(hands)
    hand = hands[seat]
    active = state.active
    k = len(active)
    size = len(hand)
    if size > HAND_SLOTS or k > MAX_GROUP:
        raise ValueError("a hand or show is too long for the encoding")
    owner = state.owner
    is_set = k >= 2 and bool(state.active_key & 16)
    kind_key = (k, is_set, MAX_SEATS if owner is None or not k else (owner - seat) % n)
    kind = _KIND_OWNER.get(kind_key)
    if kind is None:
        kind = _KIND_OWNER[kind_key] = _kind_owner(*kind_key)
    card = _CARD_BYTES.__getitem__
    try:  # every card's 21 values, precomputed, in one list with the rest
        parts = [*map(card, hand), _HAND_PAD[size], *map(card, active), _ACTIVE_PAD[k], kind]
    except KeyError:
        raise ValueError(f"not a SCOUT card among {hand!r} or {active!r}") from None
    append = parts.append
    phase = state.phase
    play = phase == PLAY_PHASE
    flipping = phase == FLIP_PHASE
    turn = state.turn
    piles, chips, shows, flips, totals = (
        state.piles,
        state.chips,
        state.scout_show,
        state.flips,
        state.totals,
    )
    values: list[Any] = []
    extend = values.extend
    for s in _ROTATIONS[n][seat]:
        flip = flips[s]
        chip = chips[s] / 12
        total = totals[s] / 25
        extend(
            (
                1.0,
                len(hands[s]) / 12,
                len(piles[s]) / 12,
                chip if chip <= _HIGH else _HIGH,
                shows[s],
                flip is not None,
                total if -_HIGH <= total <= _HIGH else (_HIGH if total > 0 else -_HIGH),
                (play and s == turn) or (flipping and flip is None),
            )
        )
    append(_SEAT_PACKS[n](*values))
    append(_SEAT_PAD[n])
    rest_key = (flipping, play, state.pending, state.scouts, state.round, n, len(state.set_aside))
    rest = _REST.get(rest_key)
    if rest is None:
        rest = _REST[rest_key] = _rest(*rest_key)
    append(rest)
    return join(parts)  # type: ignore[no-any-return]


def observation_buffer_py(state: State, seat: int) -> bytearray:
    """:func:`observation_buffer` in pure Python (when the compiled encoder is missing), and
    its reference."""
    return observation_bytes(state, seat, _JOIN_BYTEARRAY)  # type: ignore[return-value]


# The compiled encoder (parlour.bots.scout._ccodec, built from _ccodec.c when the package is
# installed on a machine with a C compiler) writes the same bytes straight from the state's
# slots; for anything unusual it calls the pure-Python functions above, so results and errors
# are the same. ``PARLOUR_PURE_PYTHON=1`` in the environment keeps the pure-Python encoder.
COMPILED_ABI = 1
"""The interface version the compiled encoder must have (a stale build is not used)."""


def _load_compiled() -> Any:
    compiled = native.load("_ccodec", COMPILED_ABI)
    if compiled is not None:
        compiled.configure(State, legal_mask_bytes_py, observation_buffer_py)
    return compiled


_compiled = _load_compiled()
COMPILED = _compiled is not None
"""Whether the compiled encoder is in use (else the pure-Python one: the same bytes, slower)."""

legal_mask_bytes: Callable[[State, int], bytearray] = (
    legal_mask_bytes_py if _compiled is None else _compiled.legal_mask
)
"""``legal_mask_bytes(state, seat)``: the action mask of ``seat`` as a new bytearray (0/1 per
action index, the set of :func:`legal_actions`), compiled when available."""
observation_buffer: Callable[[State, int], bytearray] = (
    observation_buffer_py if _compiled is None else _compiled.observation
)
"""``observation_buffer(state, seat)``: the observation of ``seat`` (:func:`observe`) as a new
bytearray of native float32 values, compiled when available."""


def observe(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation vector of ``seat`` (length :data:`OBS_SIZE`, writable), built only from
    what the seat may see. Raises ``ValueError`` for a hand or show too long to encode
    (impossible in a game dealt by the engine)."""
    return np.frombuffer(observation_buffer(state, seat), dtype=np.float32)


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
