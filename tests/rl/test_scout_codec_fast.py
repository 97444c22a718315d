"""The fast SCOUT encoding (bytes assembled from precomputed pieces, a mask from the engine's
parts) against plain references written straight from the layout and the engine's legal list."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from parlour.games import scout
from parlour.rl import scout_codec as codec


def reference_observation(state: scout.State, seat: int) -> npt.NDArray[np.float32]:
    """The observation field by field, as the README lists it (slow and plain)."""
    out = np.zeros(codec.OBS_SIZE, dtype=np.float32)
    n = len(state.hands)

    def put_cards(section: str, cards: tuple[tuple[int, int], ...]) -> None:
        base = codec.LAYOUT[section][0]
        for i, (up, down) in enumerate(cards):
            at = base + i * codec.CARD_WIDTH
            out[at] = 1
            out[at + up] = 1
            out[at + 10 + down] = 1

    put_cards("hand", state.hands[seat])
    put_cards("active_show", state.active)
    k = len(state.active)
    kind = codec.LAYOUT["active_kind"][0]
    if k:
        is_set = k >= 2 and scout.group_key([c[0] for c in state.active]) & 16 != 0
        out[kind : kind + 3] = [k / 10, is_set, k >= 2 and not is_set]
    else:
        out[kind + 3] = 1
    owner = codec.LAYOUT["owner"][0]
    if state.owner is None or not k:
        out[owner + codec.MAX_SEATS] = 1
    else:
        out[owner + (state.owner - seat) % n] = 1
    seats = codec.LAYOUT["seats"][0]
    for r in range(n):
        s = (seat + r) % n
        acts = (state.phase == 1 and s == state.turn) or (
            state.phase == 0 and state.flips[s] is None
        )
        at = seats + r * codec.SEAT_WIDTH
        out[at : at + codec.SEAT_WIDTH] = [
            1,
            len(state.hands[s]) / 12,
            len(state.piles[s]) / 12,
            min(state.chips[s] / 12, codec.OBS_HIGH),
            state.scout_show[s],
            state.flips[s] is not None,
            np.clip(state.totals[s] / 25, codec.OBS_LOW, codec.OBS_HIGH),
            acts,
        ]
    phase = codec.LAYOUT["phase"][0]
    out[phase : phase + 4] = [state.phase == 0, state.phase == 1, state.pending, state.scouts / 4]
    out[codec.LAYOUT["round"][0] + min(state.round, codec.MAX_SEATS - 1)] = 1
    out[codec.LAYOUT["players"][0] + n - 2] = 1
    out[codec.LAYOUT["set_aside"][0]] = len(state.set_aside) / 22
    return out


def reference_mask(state: scout.State, seat: int) -> npt.NDArray[np.int8]:
    mask = np.zeros(codec.N_ACTIONS, dtype=np.int8)
    for action in scout.legal_actions(state, seat):
        mask[codec.action_index(action)] = 1
    return mask


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_fast_observation_and_mask_equal_the_references_for_every_seat(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for g in range(6):
        state = scout.new_state({"players": players}, seed=700 + g)
        while True:
            for seat in range(players):
                obs = codec.observe(state, seat)
                assert obs.dtype == np.float32 and obs.flags.writeable
                assert np.array_equal(obs, reference_observation(state, seat))
                mask = codec.action_mask(state, seat)
                assert mask.dtype == np.int8 and mask.flags.writeable
                assert np.array_equal(mask, reference_mask(state, seat))
                checked += 1
            if scout.outcome(state) is not None:
                break
            seat = scout.to_act(state)[0]
            state = scout.apply(state, seat, rng.choice(scout.legal_actions(state, seat)))
    assert checked > 300


def test_a_card_outside_the_deck_is_refused_not_misencoded() -> None:
    state = scout.state_from_deal([[(3, 7), (4, 1)], [(5, 6)]], start_seat=0, decide_flips=True)
    state = state.clone()
    state.hands = (((0, 3), (4, 1)), state.hands[1])
    with pytest.raises(ValueError, match="not a SCOUT card"):
        codec.observe(state, 0)
