# The SCOUT bots' compiled hand arithmetic (_cheur.c), optional: see parlour.bots.scout.heuristic.
from collections.abc import Callable

ABI_VERSION: int

def configure(name: str, fallback: Callable[..., object]) -> None: ...
def hand_shape(values: tuple[int, ...], set_bonus: float = 1.25) -> tuple[int, int, int, float]: ...
def best_following_show(
    held: tuple[int, ...],
    target: int,
    captured: int,
    per_group: float,
    lone_card: float,
    strength: float,
    captured_w: float,
    tempo: float,
    hand_card: float,
) -> float: ...
def eval_following_show(
    held: tuple[int, ...],
    target: int,
    captured_cards: int,
    chip: float,
    opponents: tuple[int, ...],
    w: tuple[float, ...],
) -> tuple[int, int, int] | None: ...
