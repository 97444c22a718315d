"""SCOUT's game state (immutable), its options, and how games and rounds are set up.

States are never modified after they are built: ``rules.apply`` returns a new state. A state holds
the seed and the chance drawn from it (every round's deal and the first starting seat are
derived from the seed alone), so ``seed + actions`` rebuilds a game exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import InvalidAction, derive_rng
from parlour.core.state import LoggedState
from parlour.games.scout.cards import HAND_SIZE, Card, canonical, deck_for, shuffled

FLIP_PHASE = 0
"""S5: every seat decides once whether to rotate its whole hand."""
PLAY_PHASE = 1
"""Turns: Show, Scout, Scout & Show."""
OVER = 2
"""The game has ended."""

PHASE_NAMES = {FLIP_PHASE: "flip", PLAY_PHASE: "play", OVER: "over"}

TWO_PLAYER_CHIPS = 3
"""S15: Scout chips each player takes at the start of each round of the 2-player game."""


@dataclass(frozen=True, slots=True)
class ScoutOptions:
    """Options of a SCOUT game.

    ``players``: 2 to 5. ``count_unspent_chips``: in the 2-player game, each unspent Scout chip
    scores +1 at the end of a round (S18; default on; ignored with 3–5 players).
    """

    players: int = 4
    count_unspent_chips: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise InvalidAction(f"players must be a whole number, not {self.players!r}")
        if not 2 <= self.players <= 5:
            raise InvalidAction(f"SCOUT is played by 2 to 5 players, not {self.players}")
        if not isinstance(self.count_unspent_chips, bool):
            raise InvalidAction("count_unspent_chips must be true or false")

    @property
    def rounds(self) -> int:
        """S6: as many rounds as players, 2 with 2 players."""
        return self.players

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "count_unspent_chips": self.count_unspent_chips}


def options_from_json(obj: Any) -> ScoutOptions:
    """``ScoutOptions`` from a JSON object; missing fields take their defaults.

    Raises ``InvalidAction`` for unknown fields or bad values.
    """
    if obj is None:
        return ScoutOptions()
    if isinstance(obj, ScoutOptions):
        return obj
    if not isinstance(obj, dict):
        raise InvalidAction("SCOUT options are a JSON object")
    unknown = set(obj) - {"players", "count_unspent_chips"}
    if unknown:
        raise InvalidAction(f"unknown SCOUT options: {', '.join(sorted(unknown))}")
    return ScoutOptions(**obj)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's points for one round (S14, S18)."""

    captured: int
    chips: int
    hand_penalty: int
    exempt: bool
    points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "captured": self.captured,
            "chips": self.chips,
            "hand_penalty": self.hand_penalty,
            "exempt": self.exempt,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what each seat scored.

    ``reason``: ``"hand_empty"`` (S13.1/S17.1), ``"scouted_out"`` (S13.2: every other player
    scouted after ``seat``'s show) or ``"stuck"`` (S17.2: the opponent of ``seat`` could not act).
    ``seat``: the seat whose show ended the round (the exempt seat for the last two reasons).
    """

    round: int
    reason: str
    seat: int
    seats: tuple[SeatResult, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round + 1,
            "reason": self.reason,
            "seat": self.seat,
            "seats": [s.to_json() for s in self.seats],
            "totals": list(self.totals),
        }


_new_state_object = object.__new__


class State(LoggedState):
    """A SCOUT game at one moment. Treat as immutable: ``apply`` builds new states.

    Fields (per seat tuples are indexed by seat):

    - ``options``, ``seed`` (``None`` for an explicit deal without seed), ``round`` (0-based),
      ``first_seat`` (the seat that started round 1), ``start_seat`` (this round's), ``phase``;
    - ``hands``: each hand, left to right, as ``(up, down)`` cards;
    - ``flips``: per seat ``None`` (undecided), ``True`` (flipped) or ``False`` (kept);
    - ``active``: the active show's cards; ``owner``: the seat of the last Show (kept when the
      show is scouted down to nothing, for S13.2); ``active_key``: its strength (0 if empty);
    - ``piles``: each seat's captured cards; ``chips``: Scout chips (received with 3–5 players,
      held with 2); ``scout_show``: whether each seat still has its Scout & Show;
    - ``turn``: the seat to act in the play phase; ``scouts``: consecutive plain Scouts since the
      last Show (S13.2); ``pending``: the seat has done the Scout of Scout & Show and must Show;
    - ``set_aside``: the 2-player game's cards for round 2;
    - ``totals``: running totals; ``results``: one ``RoundResult`` per finished round;
    - ``log``: the public history as a linked list ``(previous_log, event)`` (``None`` = empty);
    - ``steps``: the number of actions applied so far;
    - ``round_cards``: the cards of this round (as (smaller, larger)), for conservation checks;
    - ``dealt``: every round's hands as dealt so far (before the flip decisions), one tuple of
      hands per round: what each seat remembers having held (a 2-player seat knows that the
      cards it held in round 1 are not among round 2's, S15).
    """

    __slots__ = (
        "active",
        "active_key",
        "chips",
        "dealt",
        "first_seat",
        "flips",
        "hands",
        "log",
        "options",
        "owner",
        "pending",
        "phase",
        "piles",
        "results",
        "round",
        "round_cards",
        "scout_show",
        "scouts",
        "seed",
        "set_aside",
        "start_seat",
        "steps",
        "totals",
        "turn",
    )

    options: ScoutOptions
    seed: int | str | None
    round: int
    first_seat: int
    start_seat: int
    phase: int
    hands: tuple[tuple[Card, ...], ...]
    flips: tuple[bool | None, ...]
    active: tuple[Card, ...]
    owner: int | None
    active_key: int
    piles: tuple[tuple[Card, ...], ...]
    chips: tuple[int, ...]
    scout_show: tuple[bool, ...]
    turn: int
    scouts: int
    pending: bool
    set_aside: tuple[Card, ...]
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    log: Any
    steps: int
    round_cards: frozenset[Card]
    dealt: tuple[tuple[tuple[Card, ...], ...], ...]

    def clone(self) -> State:
        """A shallow copy, to be changed by the code that builds the next state."""
        new = _new_state_object(State)
        new.options = self.options
        new.seed = self.seed
        new.round = self.round
        new.first_seat = self.first_seat
        new.start_seat = self.start_seat
        new.phase = self.phase
        new.hands = self.hands
        new.flips = self.flips
        new.active = self.active
        new.owner = self.owner
        new.active_key = self.active_key
        new.piles = self.piles
        new.chips = self.chips
        new.scout_show = self.scout_show
        new.turn = self.turn
        new.scouts = self.scouts
        new.pending = self.pending
        new.set_aside = self.set_aside
        new.totals = self.totals
        new.results = self.results
        new.log = self.log
        new.steps = self.steps
        new.round_cards = self.round_cards
        new.dealt = self.dealt
        return new

    def __repr__(self) -> str:
        return (
            f"<scout State round {self.round + 1}/{self.options.rounds} "
            f"{PHASE_NAMES[self.phase]} turn {self.turn} hands {self.hands} active {self.active}>"
        )

    @property
    def players(self) -> int:
        return len(self.hands)

    def events(self, round_index: int | None = None) -> list[tuple[Any, ...]]:
        """The history, oldest first (only round ``round_index``'s events if given).

        Events are tuples ``(kind, round, seat, ...)``; flip events hold the seat's choice, which
        views show to that seat only.
        """
        out = []
        node = self.log
        while node is not None:
            node, event = node
            if round_index is not None and event[1] != round_index:
                if event[1] < round_index:
                    break
                continue
            out.append(event)
        out.reverse()
        return out


def deal_round(
    options: ScoutOptions, seed: int | str, round_index: int, set_aside: tuple[Card, ...]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """S2–S3: the hands of round ``round_index`` and the cards set aside for later.

    With 2 players, round 1 deals 11 + 11 of 44 shuffled cards and sets the other 22 aside;
    round 2 deals exactly those 22 cards (a game built from an explicit 2-player deal with
    nothing set aside deals round 2 afresh). Otherwise every round is a fresh shuffle.
    """
    n = options.players
    size = HAND_SIZE[n]
    if n == 2 and round_index == 1 and set_aside:
        cards = list(set_aside)
        return (tuple(cards[:size]), tuple(cards[size : 2 * size])), ()
    cards = shuffled(deck_for(n), derive_rng(seed, "scout", "deal", round_index))
    hands = tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(n))
    return hands, tuple(cards[n * size :])


def _start_round(
    state: State, round_index: int, hands: tuple[tuple[Card, ...], ...], start_seat: int
) -> None:
    # Fill the per-round fields of a state under construction.
    n = len(hands)
    state.round = round_index
    state.start_seat = start_seat
    state.phase = FLIP_PHASE
    state.hands = hands
    state.flips = (None,) * n
    state.active = ()
    state.owner = None
    state.active_key = 0
    state.piles = ((),) * n
    state.chips = (TWO_PLAYER_CHIPS,) * n if n == 2 else (0,) * n
    state.scout_show = (False,) * n if n == 2 else (True,) * n
    state.turn = start_seat
    state.scouts = 0
    state.pending = False
    state.round_cards = frozenset(canonical(c) for h in (*hands, state.set_aside) for c in h)
    state.dealt = (*state.dealt[:round_index], hands)


def next_round(state: State) -> None:
    """Deal the next round into ``state`` (a state under construction, not yet handed out)."""
    r = state.round + 1
    n = state.players
    if state.seed is None:
        raise ValueError("a game built from an explicit deal without a seed cannot deal again")
    hands, aside = deal_round(state.options, state.seed, r, state.set_aside)
    state.set_aside = aside
    _start_round(state, r, hands, (state.first_seat + r) % n)


def new_state(options: ScoutOptions | dict[str, Any] | None = None, seed: int | str = 0) -> State:
    """A new game: round 1 dealt from ``seed``, its starting seat drawn from ``seed`` (S6).

    >>> s = new_state(ScoutOptions(players=4), seed=1)
    >>> [len(h) for h in s.hands]
    [11, 11, 11, 11]
    """
    opts = options_from_json(options)
    state = State.__new__(State)
    state.options = opts
    state.seed = seed
    state.first_seat = derive_rng(seed, "scout", "first_seat").randrange(opts.players)
    state.totals = (0,) * opts.players
    state.results = ()
    state.log = None
    state.steps = 0
    state.dealt = ()
    hands, aside = deal_round(opts, seed, 0, ())
    state.set_aside = aside
    _start_round(state, 0, hands, state.first_seat)
    return state


def state_from_deal(
    hands: Sequence[Sequence[Card]],
    start_seat: int = 0,
    *,
    options: ScoutOptions | dict[str, Any] | None = None,
    seed: int | str | None = None,
    set_aside: Sequence[Card] = (),
    decide_flips: bool = False,
) -> State:
    """A game whose current round starts from an explicit deal (for tests, puzzles, analysis).

    ``hands`` are left to right as ``(up, down)``; ``start_seat`` acts first. With
    ``decide_flips=True`` every seat is taken to have kept its hand, so play starts at once.
    Later rounds are dealt from ``seed`` (none can be dealt without one); with 2 players,
    ``set_aside`` holds round 2's cards. Raises ``ValueError`` for an impossible deal.
    """
    opts = options_from_json(options) if options is not None else ScoutOptions(len(hands))
    if len(hands) != opts.players:
        raise ValueError(f"{len(hands)} hands for {opts.players} players")
    if not 0 <= start_seat < opts.players:
        raise ValueError(f"no seat {start_seat}")
    cards = [canonical(c) for h in hands for c in h] + [canonical(c) for c in set_aside]
    if len(set(cards)) != len(cards):
        raise ValueError("a card is dealt twice")
    if not set(cards) <= set(deck_for(opts.players)):
        raise ValueError("a card is not in this player count's deck")
    if any(not h for h in hands):
        raise ValueError("every hand needs at least one card")
    state = State.__new__(State)
    state.options = opts
    state.seed = seed
    state.first_seat = start_seat
    state.totals = (0,) * opts.players
    state.results = ()
    state.log = None
    state.steps = 0
    state.dealt = ()
    state.set_aside = tuple(tuple(c) for c in set_aside)  # type: ignore[misc]
    _start_round(state, 0, tuple(tuple((c[0], c[1]) for c in h) for h in hands), start_seat)
    if decide_flips:
        state.flips = (False,) * opts.players
        state.phase = PLAY_PHASE
    return state


def redeal(state: State, hands: Sequence[Sequence[Card]], set_aside: Sequence[Card] = ()) -> State:
    """``state`` at the start of a round (before any flip decision), with the round dealt as
    ``hands`` (and, with 2 players in round 1, ``set_aside`` for round 2) instead of the deal
    drawn from the seed: for interfaces whose own chance nodes deal the cards (OpenSpiel).

    Raises ``ValueError`` once the round has begun, or for a deal that is not this round's
    cards (each once) in hands of the round's sizes.
    """
    if state.phase != FLIP_PHASE or any(f is not None for f in state.flips):
        raise ValueError("a round can be redealt only before its first flip decision")
    new_hands = tuple(tuple((c[0], c[1]) for c in h) for h in hands)
    aside = tuple((c[0], c[1]) for c in set_aside)
    if [len(h) for h in new_hands] != [len(h) for h in state.hands]:
        raise ValueError("the hands must have the sizes of this round's hands")
    cards = [canonical(c) for h in (*new_hands, aside) for c in h]
    if len(set(cards)) != len(cards) or set(cards) != set(state.round_cards):
        raise ValueError("the deal must hold exactly this round's cards, each once")
    new = state.clone()
    new.set_aside = aside
    _start_round(new, state.round, new_hands, state.start_seat)
    return new
