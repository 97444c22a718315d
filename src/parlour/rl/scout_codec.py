"""SCOUT as arrays: a seat's observation (float32) and a fixed action space with a legal mask.

The encoding itself lives in :mod:`parlour.bots.scout.codec` (the SCOUT network, a bot, reads it
too, and bots may not import ``parlour.rl``); this module offers the same names to research code.

>>> from parlour.rl import scout_codec
>>> scout_codec.OBS_SIZE, scout_codec.N_ACTIONS
(1219, 820)
"""

from __future__ import annotations

from parlour.bots.scout.codec import (
    ACTIONS,
    CARD_WIDTH,
    COMPILED,
    HAND_SLOTS,
    INSERTS,
    LAYOUT,
    MAX_GROUP,
    MAX_SEATS,
    N_ACTIONS,
    OBS_HIGH,
    OBS_LOW,
    OBS_SIZE,
    SCOUT_BASE,
    SCOUT_SHOW_BASE,
    SEAT_WIDTH,
    SHOW_BASE,
    action_index,
    action_mask,
    describe,
    legal_array,
    legal_indices,
    legal_mask_bytes,
    legal_mask_bytes_py,
    mask_of,
    observation_buffer,
    observation_buffer_py,
    observation_bytes,
    observe,
    observe_view,
)

__all__ = [
    "ACTIONS",
    "CARD_WIDTH",
    "COMPILED",
    "HAND_SLOTS",
    "INSERTS",
    "LAYOUT",
    "MAX_GROUP",
    "MAX_SEATS",
    "N_ACTIONS",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "SCOUT_BASE",
    "SCOUT_SHOW_BASE",
    "SEAT_WIDTH",
    "SHOW_BASE",
    "action_index",
    "action_mask",
    "describe",
    "legal_array",
    "legal_indices",
    "legal_mask_bytes",
    "legal_mask_bytes_py",
    "mask_of",
    "observation_buffer",
    "observation_buffer_py",
    "observation_bytes",
    "observe",
    "observe_view",
]
