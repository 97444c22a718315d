"""SCAN's game state (immutable) and its options (games are set up in ``start``, C4–C6, C13).

States are never modified after they are handed out: ``rules.apply`` builds a new one, sharing
the history (a linked list) with the state before. A state holds the seed and the chance drawn
from it (the deck, each game's tan order, blue layout and Bluffo removal, the category when it
is random, tie draws), so ``seed + inputs`` rebuilds a game exactly.

Time is an input too: every action is applied at a ``now_ms`` given by the caller, on whatever
clock it likes, as long as it never runs backwards; a new game stands at time 0 and reveals its
first card at its first deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import InvalidAction
from parlour.core.race import ANTICIPATION_MS, TIE_WINDOW_MS, RaceEntry
from parlour.core.state import LoggedState
from parlour.games.scan.cards import (
    BLUFFO_POINTS,
    CATEGORIES,
    Card,
)

PAUSE = 0
"""Between rounds: the next card is covered (a Dealer's Choice may be pending)."""
ROUND = 1
"""A tan card is revealed and seats race to touch its match."""
OVER = 2
"""The game (or the series of four) has ended."""

PHASE_NAMES = {PAUSE: "pause", ROUND: "round", OVER: "over"}

MAX_MS = 3_600_000
"""Upper bound on every time option (an hour)."""

_TIME_OPTIONS = {
    "round_timer_ms": 1,
    "confirm_window_ms": 0,
    "choice_timer_ms": 0,
    "tie_window_ms": 0,
    "decision_window_ms": 0,
    "reveal_pause_ms": 0,
    "anticipation_ms": 0,
}
"""The time options and the smallest value each may take."""


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """Options of a SCAN game.

    - ``players``: 2 to 8 (C4).
    - ``category``: "shape", "pattern", "position", "colour" or "random" (drawn from the seed)
      (C5); with ``four_in_a_row`` the first game's category, the others following in card order
      (all four in a random order when "random").
    - ``dealers_choice``: the round's winner names the next category (C11).
    - ``bluffo``: three blue cards are removed and the Bluffo stack is played (C10).
    - ``four_in_a_row``: four games, one per category, won on total score (C13); cannot be
      combined with ``dealers_choice`` (each game keeps its category).
    - ``round_timer_ms`` (20000): a round with no winner by then ends (C9).
    - ``confirm_window_ms`` (3000): how long a Bluffo claim is checked: the others may search
      on, and nobody is told whether the claim is right until then (C10).
    - ``choice_timer_ms`` (5000): how long the winner has to name the next category (C11).
    - ``tie_window_ms`` (20): inputs this close in reaction time are simultaneous (C14).
    - ``decision_window_ms`` (250): how long after the first undecided input arrives the race is
      decided, so that inputs still on their way can take part (N9).
    - ``reveal_pause_ms`` (1500): the pause between a round's end and the next reveal (and before
      the first reveal of each game), so that the table can show what happened.
    - ``anticipation_ms`` (100): a reaction time below this is a touch before the card was seen
      (N9 anticipation): it is ignored, without penalty.
    """

    players: int = 4
    category: str = "shape"
    dealers_choice: bool = False
    bluffo: bool = False
    four_in_a_row: bool = False
    round_timer_ms: int = 20_000
    confirm_window_ms: int = 3_000
    choice_timer_ms: int = 5_000
    tie_window_ms: int = TIE_WINDOW_MS
    decision_window_ms: int = 250
    reveal_pause_ms: int = 1_500
    anticipation_ms: int = ANTICIPATION_MS

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise InvalidAction(f"players must be a whole number, not {self.players!r}")
        if not 2 <= self.players <= 8:
            raise InvalidAction(f"SCAN is played by 2 to 8 players, not {self.players}")
        if self.category not in (*CATEGORIES, "random"):
            raise InvalidAction(
                f"category must be one of {', '.join(CATEGORIES)} or random, not {self.category!r}"
            )
        for name in ("dealers_choice", "bluffo", "four_in_a_row"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidAction(f"{name} must be true or false")
        for name, low in _TIME_OPTIONS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidAction(f"{name} must be a whole number of milliseconds")
            if not low <= value <= MAX_MS:
                raise InvalidAction(f"{name} must be between {low} and {MAX_MS}, not {value}")
        if self.four_in_a_row and self.dealers_choice:
            raise InvalidAction(
                "Dealer's Choice cannot be combined with four in a row, which plays each "
                "category for exactly one game"
            )

    @property
    def games(self) -> int:
        """C13: four games with ``four_in_a_row``, else one."""
        return 4 if self.four_in_a_row else 1

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in ScanOptions.__slots__}


def options_from_json(obj: Any) -> ScanOptions:
    """``ScanOptions`` from a JSON object; missing fields take their defaults.

    Raises ``InvalidAction`` for unknown fields or bad values.

    >>> options_from_json({"players": 3, "bluffo": True}).bluffo
    True
    """
    if obj is None:
        return ScanOptions()
    if isinstance(obj, ScanOptions):
        return obj
    if not isinstance(obj, dict):
        raise InvalidAction("SCAN options are a JSON object")
    unknown = set(obj) - set(ScanOptions.__slots__)
    if unknown:
        raise InvalidAction(f"unknown SCAN options: {', '.join(sorted(map(str, unknown)))}")
    return ScanOptions(**obj)


@dataclass(frozen=True, slots=True)
class Pending:
    """An input received in a round and not yet decided (C14): who, what, the credited reaction
    time and when it arrived. ``blue_index`` is ``None`` for a Bluffo slap or "no match" call."""

    seat: int
    kind: str
    blue_index: int | None
    rt_ms: int
    arrival_ms: int

    def entry(self) -> RaceEntry:
        """The input as a ``RaceEntry`` for ``parlour.core.race.first_group``."""
        detail = -1 if self.blue_index is None else self.blue_index
        return RaceEntry(self.seat, self.rt_ms, self.kind, detail)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a series: its category and each seat's cards and score (C12)."""

    game: int
    category: int
    tan: tuple[int, ...]
    bluffo: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game + 1,
            "category": CATEGORIES[self.category],
            "tan": list(self.tan),
            "bluffo": list(self.bluffo),
            "scores": list(self.scores),
        }


_new_state_object = object.__new__


class State(LoggedState):
    """A SCAN game at one moment. Treat as immutable: ``apply`` builds new states.

    Cards are 4-tuples of design ids; per-seat tuples are indexed by seat.

    - ``options``, ``seed``; ``tan_deck``/``blue_deck``: the cards of the series (C1–C3);
      ``series``: each game's category; ``game``: the current game (0-based);
    - ``category``: the category of the next (or current) reveal; ``round_category``: the one
      of the current (or last) round;
    - ``layout``: the blue cards by position; ``removed``: the blue cards removed for Bluffo;
      ``covered``: the tan cards still under the cover, top first;
    - ``tan``: the revealed card (during a pause: the last one revealed; ``None`` before the
      first reveal of a game); ``phase``; ``seq``: reveals so far in the series (N9's sequence
      number); ``round``: reveals so far in this game; ``reveal_ms``: when ``tan`` was shown;
      ``time_ms``: when the last input was applied (time never runs backwards);
    - ``disqualified``, ``claimant`` (the Bluffo claimant), ``checking_until`` (the end of the
      window in which a claim, right or wrong, is checked) and ``pending`` (undecided inputs in
      arrival order) describe the round (kept during the following pause, for the table to show);
    - ``won``: each seat's tan cards this game, most recent last; ``bluffos``: Bluffo cards
      held; ``stack``: the Bluffo stack; ``set_aside``: tan cards that scored for nobody;
    - ``next_reveal_ms``: when the pause ends; ``chooser``/``choice_until``: a pending
      Dealer's Choice;
    - ``totals``: scores of the finished games; ``results``: one ``GameResult`` per finished
      game; ``log``: the whole game's public history as a linked list ``(previous, event)``
      shared with the states before (``None`` = empty; ``events()`` flattens it,
      ``round_log()`` gives the current, or last, round's events).
    """

    __slots__ = (
        "blue_deck",
        "bluffos",
        "category",
        "checking_until",
        "choice_until",
        "chooser",
        "claimant",
        "covered",
        "disqualified",
        "game",
        "layout",
        "log",
        "next_reveal_ms",
        "options",
        "pending",
        "phase",
        "removed",
        "results",
        "reveal_ms",
        "round",
        "round_category",
        "seed",
        "seq",
        "series",
        "set_aside",
        "stack",
        "tan",
        "tan_deck",
        "time_ms",
        "totals",
        "won",
    )

    options: ScanOptions
    seed: int | str
    tan_deck: tuple[Card, ...]
    blue_deck: tuple[Card, ...]
    series: tuple[int, ...]
    game: int
    category: int
    round_category: int
    layout: tuple[Card, ...]
    removed: tuple[Card, ...]
    covered: tuple[Card, ...]
    tan: Card | None
    phase: int
    seq: int
    round: int
    reveal_ms: int
    time_ms: int
    disqualified: frozenset[int]
    claimant: int | None
    checking_until: int | None
    pending: tuple[Pending, ...]
    won: tuple[tuple[Card, ...], ...]
    bluffos: tuple[int, ...]
    stack: int
    set_aside: tuple[Card, ...]
    next_reveal_ms: int
    chooser: int | None
    choice_until: int
    totals: tuple[int, ...]
    results: tuple[GameResult, ...]
    log: Any

    def clone(self) -> State:
        """A shallow copy, to be changed by the code that builds the next state."""
        new = _new_state_object(State)
        new.options = self.options
        new.seed = self.seed
        new.tan_deck = self.tan_deck
        new.blue_deck = self.blue_deck
        new.series = self.series
        new.game = self.game
        new.category = self.category
        new.round_category = self.round_category
        new.layout = self.layout
        new.removed = self.removed
        new.covered = self.covered
        new.tan = self.tan
        new.phase = self.phase
        new.seq = self.seq
        new.round = self.round
        new.reveal_ms = self.reveal_ms
        new.time_ms = self.time_ms
        new.disqualified = self.disqualified
        new.claimant = self.claimant
        new.checking_until = self.checking_until
        new.pending = self.pending
        new.won = self.won
        new.bluffos = self.bluffos
        new.stack = self.stack
        new.set_aside = self.set_aside
        new.next_reveal_ms = self.next_reveal_ms
        new.chooser = self.chooser
        new.choice_until = self.choice_until
        new.totals = self.totals
        new.results = self.results
        new.log = self.log
        return new

    def __repr__(self) -> str:
        return (
            f"<scan State game {self.game + 1}/{self.options.games} round {self.round} "
            f"{PHASE_NAMES[self.phase]} tan {self.tan} at {self.time_ms} ms>"
        )

    @property
    def players(self) -> int:
        return len(self.won)

    def score(self, seat: int) -> int:
        """C12: the seat's score this game: tan cards held + 2 × Bluffo cards held."""
        return len(self.won[seat]) + BLUFFO_POINTS * self.bluffos[seat]

    @property
    def game_finished(self) -> bool:
        """Whether the current game has been scored (its last round is over)."""
        return len(self.results) > self.game

    def events(self) -> list[tuple[Any, ...]]:
        """The whole history, oldest first (every game of a series). Events are tuples whose
        first item is the kind (see ``decide`` and ``start``)."""
        out = []
        node = self.log
        while node is not None:
            node, event = node
            out.append(event)
        out.reverse()
        return out

    def round_log(self) -> list[tuple[Any, ...]]:
        """The current (or, during a pause, the last) round's events, oldest first: from its
        ``reveal`` (preceded by a ``choice_lapsed`` when the Dealer's Choice before it lapsed)
        or, before a game's first reveal, from the game's ``setup``."""
        out = []
        node = self.log
        while node is not None:
            node, event = node
            out.append(event)
            if event[0] == "setup":
                break
            if event[0] == "reveal":
                if node is not None and node[1][0] == "choice_lapsed":
                    out.append(node[1])
                break
        out.reverse()
        return out

    def eligible(self) -> list[int]:
        """C7/C10: the seats that may still touch this round (not disqualified, not the
        Bluffo claimant), whether or not they have an input pending."""
        out = []
        for s in range(len(self.won)):
            if s not in self.disqualified and s != self.claimant:
                out.append(s)
        return out


def round_end(state: State) -> int:
    """When the current round ends with no further input, or its Bluffo claim is judged: the
    end of the claim's check while one is checked (C10), else ``round_timer_ms`` after the
    reveal (C9)."""
    if state.checking_until is not None:
        return state.checking_until
    return state.reveal_ms + state.options.round_timer_ms
