"""SNAP's game state (immutable) and its options (a game is set up in ``start``, N2).

States are never modified after they are handed out: ``rules.apply`` builds a new one. A state
holds the seed and derives every chance event from it (the dealer and the deal here; reveal
delays, recycle shuffles and index-card tie breaks in ``rules``), so ``seed + inputs`` rebuilds
a game exactly. Times are milliseconds since the game began (``new_state`` is time 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from parlour.core import InvalidAction
from parlour.core.state import LoggedState
from parlour.games.snap.cards import (
    MATCH_MODES,
    MATCH_RANK,
    Card,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 12
FLIP_CAP = 1000
"""N8: the game ends right after this many flips, ranked by cards held."""


def _whole(value: Any, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{what} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise InvalidAction(f"{what} must be between {low} and {high}, not {value}")


@dataclass(frozen=True, slots=True)
class SnapOptions:
    """Options of a SNAP game (times in milliseconds).

    - ``players``: 2 to 12 (N2).
    - ``match``: ``"rank"`` or ``"rank_and_colour"`` (N4).
    - ``shuffle_on_recycle``: shuffle a face-up pile when it is turned over into a stock (N3).
    - ``index_card``: the index-card variant: no ties; equal reaction times are broken by the
      seeded generator (N6). It overrides ``tie_window_ms``.
    - ``tie_window_ms``: calls this close to the earliest valid one tie (N6, default 20).
    - ``min_flip_interval_ms``: the least time from one reveal to the next flip (N3, 900).
    - ``reveal_delay_min_ms``, ``reveal_delay_max_ms``: a flipped card is revealed after a delay
      drawn uniformly from this range (N3, 150–350 ms), from the game's seed.
    - ``turn_timer_ms``: the seat to act is flipped for this long after it may flip (N3, 3000).
    - ``late_call_ms``: calls this soon after a race is decided are ignored (N6, 600).
    - ``decision_window_ms``: how long after the first valid call of a race (its arrival) the
      engine waits for other calls before deciding it at ``deadline(state)`` (N9, default 250).
      As bots call at the reveal plus their reaction time, a window of the slowest human's round
      trip plus jitter (at most 250 ms, N9) puts the decision at ``core.race.wait_until``.
    """

    players: int = 4
    match: str = MATCH_RANK
    shuffle_on_recycle: bool = False
    index_card: bool = False
    tie_window_ms: int = 20
    min_flip_interval_ms: int = 900
    turn_timer_ms: int = 3000
    late_call_ms: int = 600
    decision_window_ms: int = 250
    reveal_delay_min_ms: int = 150
    reveal_delay_max_ms: int = 350

    def __post_init__(self) -> None:
        _whole(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        if self.match not in MATCH_MODES:
            raise InvalidAction(
                f"match must be one of {', '.join(MATCH_MODES)}, not {self.match!r}"
            )
        for flag in ("shuffle_on_recycle", "index_card"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidAction(f"{flag} must be true or false")
        for timing in (
            "tie_window_ms",
            "min_flip_interval_ms",
            "turn_timer_ms",
            "late_call_ms",
            "decision_window_ms",
        ):
            _whole(getattr(self, timing), timing, 0, 3_600_000)
        _whole(self.reveal_delay_min_ms, "reveal_delay_min_ms", 0, 60_000)
        _whole(self.reveal_delay_max_ms, "reveal_delay_max_ms", self.reveal_delay_min_ms, 60_000)

    @property
    def tie_window(self) -> int:
        """The tie window in force: 0 in the index-card variant."""
        return 0 if self.index_card else self.tie_window_ms

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


OPTION_NAMES = frozenset(f.name for f in fields(SnapOptions))


def options_from_json(obj: Any) -> SnapOptions:
    """``SnapOptions`` from a JSON object (or ``None``: the defaults); missing fields take their
    defaults. Raises ``InvalidAction`` for unknown fields or bad values."""
    if obj is None:
        return SnapOptions()
    if isinstance(obj, SnapOptions):
        return obj
    if not isinstance(obj, dict):
        raise InvalidAction("SNAP options are a JSON object")
    unknown = set(obj) - OPTION_NAMES
    if unknown:
        raise InvalidAction(f"unknown SNAP options: {', '.join(sorted(map(str, unknown)))}")
    return SnapOptions(**obj)


_new_state_object = object.__new__


class State(LoggedState):
    """A SNAP game at one moment. Treat as immutable: ``apply`` builds new states.

    Cards (per-seat tuples are indexed by seat):

    - ``stocks``: face-down stocks, top first; ``piles``: face-up piles, bottom first (top last);
      ``pot``: the Snap Pot, bottom first; ``deck``: the cards in play (all 52 in a real game).

    Turns and time:

    - ``dealer``; ``turn``: the seat to flip next; ``last_flipper`` (``None`` before any flip);
    - ``seq``: the number of flips so far = the latest reveal's sequence number;
    - ``reveal_ms``: when the latest reveal happened; ``clock_ms``: the latest input's time;
    - ``flip_open_ms``: the earliest time of the next flip (latest reveal + minimum interval);
    - ``timer_from_ms``: when the turn timer of the seat to act started counting (at the latest
      of ``flip_open_ms`` and this; a decided race restarts it);
    - ``prev_valid``: whether a snap was valid just before the latest reveal (for anticipation);
    - ``flipping``: ``None``, or the flip of the seat to act waiting for its reveal (N3):
      ``(flipped_ms, reveal_at_ms, auto)``; the card stays on the stock, unseen, until then.

    Calls (N6, N7, N9):

    - ``race``: pending valid calls ``(seat, credited_rt_ms, arrival_ms)`` in arrival order;
      ``decide_ms``: when the race will be decided (``None`` with no race);
    - ``counted``: bit mask of the seats whose call since the latest reveal has counted (joined
      the race or paid a penalty): their further calls until the next reveal are ignored;
    - ``decided_ms``: when the latest race since the latest reveal was decided (late calls).

    End (N8):

    - ``out``: per seat ``None`` while in, else the number of the elimination moment at which it
      went out (seats going out together share it); ``outs``: elimination moments so far;
    - ``over``: ``None`` while the game goes on, else the reason it ended: ``"last_seat"``,
      ``"dead_position"``, ``"loop"`` or ``"flip_cap"``;
    - ``seen``: the arrangements (turn, stocks, piles, pot) after each flip since the latest
      capture or the latest arrangement that offered a snap, for loop detection (always empty
      with ``shuffle_on_recycle``, which has no loop rule).

    Bookkeeping: ``recycles`` (count, labels recycle shuffles), ``steps`` (inputs applied),
    ``log`` (the public history as a linked list ``(previous, event)``; ``None`` = empty),
    ``options``, ``seed`` (``None`` for an explicit position without seed).
    """

    __slots__ = (
        "clock_ms",
        "counted",
        "dealer",
        "decide_ms",
        "decided_ms",
        "deck",
        "flip_open_ms",
        "flipping",
        "last_flipper",
        "log",
        "options",
        "out",
        "outs",
        "over",
        "piles",
        "pot",
        "prev_valid",
        "race",
        "recycles",
        "reveal_ms",
        "seed",
        "seen",
        "seq",
        "steps",
        "stocks",
        "timer_from_ms",
        "turn",
    )

    options: SnapOptions
    seed: int | str | None
    dealer: int
    deck: frozenset[Card]
    stocks: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    pot: tuple[Card, ...]
    turn: int
    last_flipper: int | None
    seq: int
    reveal_ms: int
    clock_ms: int
    flip_open_ms: int
    flipping: tuple[int, int, bool] | None
    timer_from_ms: int
    prev_valid: bool
    race: tuple[tuple[int, int, int], ...]
    decide_ms: int | None
    counted: int
    decided_ms: int | None
    out: tuple[int | None, ...]
    outs: int
    over: str | None
    seen: frozenset[Any]
    recycles: int
    steps: int
    log: Any

    def clone(self) -> State:
        """A shallow copy, to be changed by the code that builds the next state."""
        new = _new_state_object(State)
        new.clock_ms = self.clock_ms
        new.counted = self.counted
        new.dealer = self.dealer
        new.decide_ms = self.decide_ms
        new.decided_ms = self.decided_ms
        new.deck = self.deck
        new.flip_open_ms = self.flip_open_ms
        new.flipping = self.flipping
        new.last_flipper = self.last_flipper
        new.log = self.log
        new.options = self.options
        new.out = self.out
        new.outs = self.outs
        new.over = self.over
        new.piles = self.piles
        new.pot = self.pot
        new.prev_valid = self.prev_valid
        new.race = self.race
        new.recycles = self.recycles
        new.reveal_ms = self.reveal_ms
        new.seed = self.seed
        new.seen = self.seen
        new.seq = self.seq
        new.steps = self.steps
        new.stocks = self.stocks
        new.timer_from_ms = self.timer_from_ms
        new.turn = self.turn
        return new

    def __repr__(self) -> str:
        sizes = [(len(s), len(p)) for s, p in zip(self.stocks, self.piles, strict=True)]
        return (
            f"<snap State flip {self.seq} turn {self.turn} (stock, pile) {sizes} "
            f"pot {len(self.pot)} race {self.race} over {self.over}>"
        )

    @property
    def players(self) -> int:
        return len(self.stocks)

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game (N8: out seats never return)."""
        return self.out[seat] is None

    def held(self, seat: int) -> int:
        """The cards ``seat`` holds outside the Snap Pot (stock and face-up pile)."""
        return len(self.stocks[seat]) + len(self.piles[seat])

    def events(self, since_flip: bool = False) -> list[tuple[Any, ...]]:
        """The history, oldest first; with ``since_flip`` only the events from the latest flip
        on (all of them before the first flip). Events are tuples whose first item is the kind
        (see ``rules``)."""
        out = []
        node = self.log
        while node is not None:
            node, event = node
            out.append(event)
            if since_flip and event[0] == "flip":
                break
        out.reverse()
        return out


def next_in(out: Sequence[int | None], seat: int) -> int:
    """The first seat still in clockwise after ``seat`` (``seat`` itself if it is the only one).

    >>> next_in([None, 1, None, None], 0), next_in([None, 1, None, 1], 2)
    (2, 0)
    """
    n = len(out)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if out[s] is None:
            return s
    return seat


def blank_state(options: SnapOptions, seed: int | str | None, dealer: int) -> State:
    """A state with every field but the cards at its start value (``start`` deals)."""
    n = options.players
    state = _new_state_object(State)
    state.options = options
    state.seed = seed
    state.dealer = dealer
    state.pot = ()
    state.turn = (dealer + 1) % n
    state.last_flipper = None
    state.seq = 0
    state.reveal_ms = 0
    state.clock_ms = 0
    state.flip_open_ms = 0
    state.flipping = None
    state.timer_from_ms = 0
    state.prev_valid = False
    state.race = ()
    state.decide_ms = None
    state.counted = 0
    state.decided_ms = None
    state.out = (None,) * n
    state.outs = 0
    state.over = None
    state.seen = frozenset()
    state.recycles = 0
    state.steps = 0
    state.log = None
    return state
