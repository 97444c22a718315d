"""How a SNAP game is set up (N2): a new game from a seed, or an explicit position.

Both settle the position with ``rules.settle`` (seats with no cards go out, N8), so this module
sits above ``rules``, which builds on ``state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core import derive_rng
from parlour.games.snap.cards import DECK, Card, card, deal, shuffled_deck
from parlour.games.snap.rules import settle
from parlour.games.snap.state import SnapOptions, State, blank_state, options_from_json


def new_state(options: SnapOptions | dict[str, Any] | None = None, seed: int | str = 0) -> State:
    """A new game (N2): a dealer drawn from ``seed``, the shuffled deck dealt clockwise from the
    dealer's left onto face-down stocks; face-up piles and the Snap Pot empty; the seat left of
    the dealer flips first, from time 0. Raises ``InvalidAction`` for bad options.

    >>> s = new_state({"players": 5}, seed=1)
    >>> sorted(len(stock) for stock in s.stocks)
    [10, 10, 10, 11, 11]
    """
    opts = options_from_json(options)
    n = opts.players
    dealer = derive_rng(seed, "snap", "dealer").randrange(n)
    state = blank_state(opts, seed, dealer)
    state.stocks = deal(shuffled_deck(derive_rng(seed, "snap", "deal")), dealer, n)
    state.piles = ((),) * n
    state.deck = frozenset(DECK)
    settle(state, 0)
    return state


CardSpec = Card | str


def _cards(group: Sequence[CardSpec] | str) -> tuple[Card, ...]:
    words = group.split() if isinstance(group, str) else group
    return tuple(card(c) if isinstance(c, str) else c for c in words)


def state_from_deal(
    stocks: Sequence[Sequence[CardSpec] | str],
    piles: Sequence[Sequence[CardSpec] | str] | None = None,
    pot: Sequence[CardSpec] | str = (),
    *,
    turn: int | None = None,
    dealer: int | None = None,
    options: SnapOptions | dict[str, Any] | None = None,
    seed: int | str | None = None,
    seq: int = 0,
    last_flipper: int | None = None,
    reveal_ms: int = 0,
    prev_valid: bool = False,
) -> State:
    """A game from an explicit position (for tests, puzzles, analysis).

    ``stocks`` top first, ``piles`` and ``pot`` bottom first (top last), each a sequence of cards
    (numbers or names) or a space-separated string of names; any subset of the deck may be used.
    ``turn`` defaults to the seat left of ``dealer`` (dealer defaults to the seat before
    ``turn``, or the last seat). ``seq``, ``last_flipper`` and ``reveal_ms`` place the position
    after that many flips (the next flip is allowed ``min_flip_interval_ms`` after
    ``reveal_ms``); ``prev_valid`` says whether a snap was valid before the latest reveal.
    Seats with no cards are out from the start; end conditions (N8) are applied at once.
    Recycle shuffles and tie breaks draw from ``seed`` (or from 0 without one).
    Raises ``ValueError`` for an impossible position.
    """
    n = len(stocks)
    if options is None:
        opts = SnapOptions(players=n)
    else:
        opts = options_from_json(options)
        if opts.players != n:
            raise ValueError(f"{n} stocks for {opts.players} players")
    if turn is None:
        dealer = n - 1 if dealer is None else dealer
        turn = (dealer + 1) % n
    elif dealer is None:
        dealer = (turn - 1) % n
    if not (0 <= turn < n and 0 <= dealer < n):
        raise ValueError(f"no such seat among 0..{n - 1}")
    built_stocks = tuple(_cards(s) for s in stocks)
    built_piles = tuple(_cards(p) for p in piles) if piles is not None else ((),) * n
    if len(built_piles) != n:
        raise ValueError(f"{len(built_piles)} face-up piles for {n} players")
    built_pot = _cards(pot)
    everything = [c for s in built_stocks for c in s]
    everything += [c for p in built_piles for c in p] + list(built_pot)
    if len(set(everything)) != len(everything):
        raise ValueError("a card is in two places")
    if not set(everything) <= set(DECK):
        raise ValueError("a card is not in the deck")
    if seq < 0 or (seq > 0) != (last_flipper is not None):
        raise ValueError("give last_flipper exactly when seq > 0")
    if last_flipper is not None and not 0 <= last_flipper < n:
        raise ValueError(f"no seat {last_flipper}")
    state = blank_state(opts, seed, dealer)
    state.stocks = built_stocks
    state.piles = built_piles
    state.pot = built_pot
    state.deck = frozenset(everything)
    state.turn = turn
    state.seq = seq
    state.last_flipper = last_flipper
    state.reveal_ms = state.clock_ms = state.timer_from_ms = reveal_ms
    state.flip_open_ms = reveal_ms + opts.min_flip_interval_ms if seq else reveal_ms
    state.prev_valid = prev_valid
    settle(state, reveal_ms)
    return state
