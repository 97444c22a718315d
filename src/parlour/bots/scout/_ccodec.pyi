# The compiled SCOUT encoder (_ccodec.c), optional: see parlour.bots.scout.codec.
from collections.abc import Callable

from parlour.games.scout.state import State

ABI_VERSION: int
OBS_SIZE: int
N_ACTIONS: int

def configure(
    state_type: type[State],
    mask_fallback: Callable[[State, int], bytearray],
    observation_fallback: Callable[[State, int], bytearray],
) -> None: ...
def legal_mask(state: State, seat: int) -> bytearray: ...
def observation(state: State, seat: int) -> bytearray: ...
