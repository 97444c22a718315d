# The SCOUT bots' compiled hand arithmetic (_cheur.c, _cheur_search.c), optional:
# see parlour.bots.scout.heuristic.
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
def rollout(
    hands: tuple[tuple[tuple[int, int], ...], ...],
    active: tuple[tuple[int, int], ...],
    owner: int,
    turn: int,
    scouts: int,
    pending: bool,
    piles: tuple[int, ...],
    chips: tuple[int, ...],
    seat: int,
    random: Callable[[], float],
    randrange: Callable[[int], int],
    totals: tuple[int, ...] | None = None,
) -> float | None: ...
def model_rollout(
    hands: tuple[tuple[tuple[int, int], ...], ...],
    active: tuple[tuple[int, int], ...],
    owner: int,
    turn: int,
    scouts: int,
    pending: bool,
    piles: tuple[int, ...],
    chips: tuple[int, ...],
    seat: int,
    scout_show: tuple[bool, ...],
    w: tuple[float, ...],
    temperature: float,
    random: Callable[[], float],
    moves: int,
    totals: tuple[int, ...] | None = None,
) -> float | None: ...
def plain_scores(
    hand: tuple[int, ...],
    active: tuple[tuple[int, int], ...],
    opponents: tuple[int, ...],
    ss_kept: float,
    ends: bool,
    options: list[object],
    w: tuple[float, ...],
    show: type,
    scout: type,
) -> list[float] | None: ...
