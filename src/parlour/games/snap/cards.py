"""SNAP's cards (N1, N2, N4): the 52-card deck, card names, matching, dealing and recycling.

A card is an integer from 0 to 51: ``rank_index * 4 + suit_index`` with ranks A, 2–10, J, Q, K
(index 0–12) and suits clubs, diamonds, hearts, spades (index 0–3). Its name is the rank followed
by the suit letter: ``"AC"``, ``"10H"``, ``"QS"``.

Orders: a *stock* is face down and listed top first; a *face-up pile* and the *Snap Pot* are listed
bottom first (their top card is the last). Turning a face-up pile over as a unit therefore makes
the same sequence a stock (its bottom card becomes the top), and a stock put under another one is
appended to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core import Rng

Card = int
"""0..51: ``rank_index * 4 + suit_index``."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
"""Clubs, diamonds, hearts, spades; diamonds and hearts are red."""
RED_SUITS = frozenset({1, 2})

DECK: tuple[Card, ...] = tuple(range(52))
"""N1: the 52 cards, no jokers, in rank order (A♣ A♦ A♥ A♠ 2♣ ...)."""

MATCH_RANK = "rank"
MATCH_RANK_AND_COLOUR = "rank_and_colour"
MATCH_MODES = (MATCH_RANK, MATCH_RANK_AND_COLOUR)

RANK_KEYS: tuple[int, ...] = tuple(c >> 2 for c in DECK)
"""N4: the match class of each card when ranks must be equal."""
COLOUR_KEYS: tuple[int, ...] = tuple((c >> 2) * 2 + ((c & 3) in RED_SUITS) for c in DECK)
"""N4 (option): the match class of each card when rank and colour must be equal."""

NAMES: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in DECK)
_BY_NAME = {name: card for card, name in enumerate(NAMES)}


def match_keys(mode: str) -> tuple[int, ...]:
    """The table of match classes for a match mode: two cards match iff their classes are equal.

    Raises ``ValueError`` for an unknown mode.

    >>> keys = match_keys("rank_and_colour")
    >>> keys[card("7H")] == keys[card("7D")], keys[card("7H")] == keys[card("7S")]
    (True, False)
    """
    if mode == MATCH_RANK:
        return RANK_KEYS
    if mode == MATCH_RANK_AND_COLOUR:
        return COLOUR_KEYS
    raise ValueError(f"unknown match mode {mode!r}; expected one of {', '.join(MATCH_MODES)}")


def name(card: Card) -> str:
    """The card's name.

    >>> name(0), name(38), name(51)
    ('AC', '10H', 'KS')
    """
    return NAMES[card]


def card(text: str) -> Card:
    """The card named ``text`` (case-insensitive; ``T`` may stand for 10).

    Raises ``ValueError`` for anything that is not a card name.

    >>> card("10h") == card("TH") == 38
    True
    """
    if not isinstance(text, str):
        raise ValueError(f"a card name is text, not {type(text).__name__}")
    key = text.strip().upper()
    if key[:1] == "T":
        key = "10" + key[1:]
    if key not in _BY_NAME:
        raise ValueError(f"{text!r} is not a card; cards are written like 'AC', '10H', 'QS'")
    return _BY_NAME[key]


def cards(texts: str | Sequence[str]) -> tuple[Card, ...]:
    """Several cards by name, given as a sequence or one space-separated string.

    >>> cards("AC 2D") == (0, 5)
    True
    """
    words = texts.split() if isinstance(texts, str) else texts
    return tuple(card(t) for t in words)


def names(group: Sequence[Card]) -> list[str]:
    """The names of some cards, in the given order."""
    return [NAMES[c] for c in group]


def deal(deck: Sequence[Card], dealer: int, players: int) -> tuple[tuple[Card, ...], ...]:
    """N2: deal ``deck`` (in the order given) one card at a time clockwise, starting with the
    seat left of ``dealer``, each card onto the top of the receiver's face-down stock.

    Returns every seat's stock, top first: the first `52 mod n` seats after the dealer get one card
    more, and each stock's top card is the last one dealt to it.

    >>> [len(s) for s in deal(DECK, dealer=2, players=5)]
    [10, 10, 10, 11, 11]
    >>> deal((0, 1, 2, 3, 4), dealer=0, players=2)
    ((3, 1), (4, 2, 0))
    """
    stocks: list[list[Card]] = [[] for _ in range(players)]
    for i, c in enumerate(deck):
        stocks[(dealer + 1 + i) % players].append(c)
    return tuple(tuple(reversed(s)) for s in stocks)


def shuffled_deck(rng: Rng) -> list[Card]:
    """The 52 cards in random order."""
    order = list(DECK)
    rng.shuffle(order)
    return order


def turn_over(pile: tuple[Card, ...], rng: Rng | None = None) -> tuple[Card, ...]:
    """N3: a face-up pile turned over as a unit to become a stock (top first): the same sequence,
    its bottom card now on top; with ``rng`` (option ``shuffle_on_recycle``) shuffled instead.

    >>> turn_over((1, 2, 3))
    (1, 2, 3)
    """
    if rng is None:
        return pile
    order = list(pile)
    rng.shuffle(order)
    return tuple(order)
