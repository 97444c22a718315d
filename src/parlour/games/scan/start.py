"""How SCAN games are set up (C3–C6, C13): the series' categories, each game's tan order, blue
layout and Bluffo removal, the reveals, and explicit positions for tests.

The functions that change a state work on a state under construction (a fresh ``clone`` not yet
handed out); the history grows by one linked node per event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core import derive_rng
from parlour.games.scan.cards import BLUFFO_CARDS, CATEGORIES, Card, deal_deck, is_card
from parlour.games.scan.state import (
    PAUSE,
    ROUND,
    ScanOptions,
    State,
    options_from_json,
)

_new_state_object = object.__new__


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
    state.log = (state.log, ("setup", game, state.category))


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
    state.log = (state.log, ("reveal", state.seq, state.tan, state.category, now_ms))


def _blank(
    opts: ScanOptions, seed: int | str, tan: tuple[Card, ...], blue: tuple[Card, ...]
) -> State:
    # A state with every field at its start value (``setup_game`` then sets up game 0).
    n = opts.players
    state = _new_state_object(State)
    state.options = opts
    state.seed = seed
    state.tan_deck = tan
    state.blue_deck = blue
    state.series = series_for(opts, seed)
    state.game = 0
    state.category = 0
    state.round_category = 0
    state.layout = ()
    state.removed = ()
    state.covered = ()
    state.tan = None
    state.phase = PAUSE
    state.seq = 0
    state.round = 0
    state.reveal_ms = 0
    state.time_ms = 0
    state.disqualified = frozenset()
    state.claimant = None
    state.checking_until = None
    state.pending = ()
    state.won = ((),) * n
    state.bluffos = (0,) * n
    state.stack = 0
    state.set_aside = ()
    state.next_reveal_ms = 0
    state.chooser = None
    state.choice_until = 0
    state.totals = (0,) * n
    state.results = ()
    state.log = None
    return state


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
