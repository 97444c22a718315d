"""SCAN's game state (treated as immutable), its options, and how games are set up (C4–C6, C13).

A state holds the seed and the chance drawn from it (the deck, each game's tan order, blue
layout and Bluffo removal, the category when it is random, tie draws), so ``seed + inputs``
rebuilds a game exactly. Time is an input too: every action is applied at a ``now_ms`` given by
the caller, on whatever clock it likes, as long as it never runs backwards; a new game stands at
time 0 and reveals its first card at its first deadline.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import InvalidAction, derive_rng
from parlour.core.race import ANTICIPATION_MS, TIE_WINDOW_MS, RaceEntry
from parlour.games.scan.cards import (
    BLUFFO_CARDS,
    BLUFFO_POINTS,
    CATEGORIES,
    Card,
    deal_deck,
    is_card,
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


@dataclass(slots=True)
class State:
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
      game; ``log``: the current (or last) round's events, oldest first.
    """

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
    log: tuple[tuple[Any, ...], ...]

    def clone(self) -> State:
        """A shallow copy, to be changed by the code that builds the next state."""
        return copy.copy(self)

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

    def eligible(self) -> list[int]:
        """C7/C10: the seats that may still touch this round (not disqualified, not the
        Bluffo claimant), whether or not they have an input pending."""
        out = []
        for s in range(len(self.won)):
            if s not in self.disqualified and s != self.claimant:
                out.append(s)
        return out


def series_for(options: ScanOptions, seed: int | str) -> tuple[int, ...]:
    """C5/C13: the category of each game: the agreed one, or one drawn from the seed; with four
    in a row all four, the agreed one first and the rest in card order (random order when
    "random")."""
    if options.category == "random":
        rng = derive_rng(seed, "scan", "category")
        if options.four_in_a_row:
            return tuple(rng.sample(range(4), 4))
        return (rng.randrange(4),)
    first = CATEGORIES.index(options.category)
    if options.four_in_a_row:
        return (first, *(c for c in range(4) if c != first))
    return (first,)


def setup_game(state: State, game: int, now_ms: int) -> None:
    """C5/C13: set up game ``game`` afresh in ``state`` (a state under construction): a new tan
    order, blue layout and Bluffo removal from the seed, the Bluffo stack restored, nobody holding
    cards; the first reveal is due ``reveal_pause_ms`` after ``now_ms``."""
    opts = state.options
    n = len(state.won)
    rng = derive_rng(state.seed, "scan", "setup", game)
    covered = list(state.tan_deck)
    rng.shuffle(covered)
    layout = list(state.blue_deck)
    rng.shuffle(layout)
    removed: tuple[Card, ...] = ()
    if opts.bluffo:
        gone = rng.sample(range(len(layout)), min(BLUFFO_CARDS, len(layout)))
        removed = tuple(layout[i] for i in gone)
        layout = [b for i, b in enumerate(layout) if i not in gone]
    state.game = game
    state.category = state.round_category = state.series[game]
    state.layout = tuple(layout)
    state.removed = removed
    state.covered = tuple(covered)
    state.tan = None
    state.phase = PAUSE
    state.round = 0
    state.disqualified = frozenset()
    state.claimant = None
    state.checking_until = None
    state.pending = ()
    state.won = ((),) * n
    state.bluffos = (0,) * n
    state.stack = BLUFFO_CARDS if opts.bluffo else 0
    state.set_aside = ()
    state.next_reveal_ms = now_ms + opts.reveal_pause_ms
    state.chooser = None
    state.choice_until = 0
    state.log = (("setup", game, state.category),)


def reveal(state: State, now_ms: int) -> None:
    """C6: lift the cover in ``state`` (a state under construction): the top tan card is shown to
    every seat at ``now_ms`` with the next sequence number; nobody is disqualified and there is
    no Bluffo claimant yet."""
    state.tan = state.covered[0]
    state.covered = state.covered[1:]
    state.phase = ROUND
    state.seq += 1
    state.round += 1
    state.reveal_ms = now_ms
    state.round_category = state.category
    state.disqualified = frozenset()
    state.claimant = None
    state.checking_until = None
    state.pending = ()
    state.chooser = None
    state.log = (("reveal", state.seq, state.tan, state.category, now_ms),)


def _blank(
    opts: ScanOptions, seed: int | str, tan: tuple[Card, ...], blue: tuple[Card, ...]
) -> State:
    n = opts.players
    return State(
        options=opts,
        seed=seed,
        tan_deck=tan,
        blue_deck=blue,
        series=series_for(opts, seed),
        game=0,
        category=0,
        round_category=0,
        layout=(),
        removed=(),
        covered=(),
        tan=None,
        phase=PAUSE,
        seq=0,
        round=0,
        reveal_ms=0,
        time_ms=0,
        disqualified=frozenset(),
        claimant=None,
        checking_until=None,
        pending=(),
        won=((),) * n,
        bluffos=(0,) * n,
        stack=0,
        set_aside=(),
        next_reveal_ms=0,
        chooser=None,
        choice_until=0,
        totals=(0,) * n,
        results=(),
        log=(),
    )


def new_state(options: ScanOptions | dict[str, Any] | None = None, seed: int | str = 0) -> State:
    """A new game at time 0: the deck drawn from ``seed`` (C3), the first game set up (C5), the
    first reveal due at ``reveal_pause_ms``.

    Raises ``InvalidAction`` for bad options.

    >>> s = new_state({"players": 3, "bluffo": True}, seed=1)
    >>> len(s.covered), len(s.layout), len(s.removed), s.stack
    (23, 20, 3, 3)
    """
    opts = options_from_json(options)
    tan, blue = deal_deck(seed)
    state = _blank(opts, seed, tan, blue)
    setup_game(state, 0, 0)
    return state


def _check_cards(cards: Sequence[Card], what: str) -> None:
    for card in cards:
        if not is_card(card):
            raise ValueError(f"{card!r} is not a card (four design ids 0..22)")
    if len(set(cards)) != len(cards):
        raise ValueError(f"a {what} card is given twice")
    for c, name in enumerate(CATEGORIES):
        designs = [card[c] for card in cards]
        if len(set(designs)) != len(designs):
            raise ValueError(f"two {what} cards share a {name} design (C3: each appears once)")


def state_from_cards(
    covered: Sequence[Card],
    layout: Sequence[Card],
    *,
    removed: Sequence[Card] = (),
    won: Sequence[Sequence[Card]] | None = None,
    bluffos: Sequence[int] | None = None,
    options: ScanOptions | dict[str, Any] | None = None,
    seed: int | str = 0,
    reveal_ms: int | None = 0,
) -> State:
    """A game of explicit cards, for tests, puzzles and analysis.

    ``covered``: the tan pile, top first; ``layout``: the blue cards by position; ``removed``:
    blue cards removed for Bluffo; ``won``: tan cards each seat already holds (most recent last);
    ``bluffos``: Bluffo cards each seat holds (the stack keeps the rest when Bluffo is played);
    ``options`` default to a game for as many players as ``won`` lists (else 2).
    The deck of the series is these cards. With ``reveal_ms`` the top card is revealed at that
    time (the state is in a round); with ``None`` the game waits for its first reveal.

    Raises ``ValueError`` for cards that are not cards, given twice, or that share a design with
    another card of the same colour; ``InvalidAction`` for bad options.
    """
    if options is None:
        options = ScanOptions(len(won) if won is not None else 2)
    opts = options_from_json(options)
    n = opts.players
    won_cards = [tuple(p) for p in won] if won is not None else [() for _ in range(n)]
    held = list(bluffos) if bluffos is not None else [0] * n
    if len(won_cards) != n or len(held) != n:
        raise ValueError(f"won cards and Bluffo cards are given per seat, for {n} seats")
    tan = tuple(covered) + tuple(c for pile in won_cards for c in pile)
    blue = tuple(layout) + tuple(removed)
    _check_cards(tan, "tan")
    _check_cards(blue, "blue")
    for card in tan:
        hits = [b for c in range(4) for b in blue if b[c] == card[c]]
        if len(set(hits)) != len(hits):
            raise ValueError(f"tan card {card} matches one blue card in two categories (C3)")
    if not covered:
        raise ValueError("the tan pile needs at least one card")
    stack = BLUFFO_CARDS - sum(held) if opts.bluffo else 0
    if stack < 0 or any(h < 0 for h in held) or (sum(held) > 0 and not opts.bluffo):
        raise ValueError("the Bluffo cards held are not possible with these options")
    state = _blank(opts, seed, tan, blue)
    setup_game(state, 0, 0)
    state.layout = tuple(layout)
    state.removed = tuple(removed)
    state.covered = tuple(covered)
    state.won = tuple(won_cards)
    state.bluffos = tuple(held)
    state.stack = stack
    state.round = state.seq = len(tan) - len(covered)  # as if those rounds had been played
    if reveal_ms is not None:
        state.time_ms = reveal_ms
        reveal(state, reveal_ms)
    return state
