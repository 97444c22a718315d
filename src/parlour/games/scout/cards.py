"""SCOUT's cards (S1–S3): the deck, which cards each player count uses, and dealing.

A card is ``(up, down)``: ``up`` is the number in use; rotating a card swaps the two.
"""

from __future__ import annotations

from parlour.core import Rng

Card = tuple[int, int]
"""``(up, down)``: the number in use, then the other number on the card."""

DECK: tuple[Card, ...] = tuple((a, b) for a in range(1, 11) for b in range(a + 1, 11))
"""S1: the 45 cards, one per pair {a, b} with 1 <= a < b <= 10, as (smaller, larger)."""

HAND_SIZE = {2: 11, 3: 12, 4: 11, 5: 9}
"""S2: cards dealt to each player, by player count."""


def rotate(card: Card) -> Card:
    """The same card turned around: the other number is in use.

    >>> rotate((3, 8))
    (8, 3)
    """
    return (card[1], card[0])


def deck_for(players: int) -> tuple[Card, ...]:
    """S2: the cards used with ``players`` players (as (smaller, larger) pairs).

    >>> len(deck_for(2)), len(deck_for(3)), len(deck_for(4)), len(deck_for(5))
    (44, 36, 44, 45)
    """
    if players == 3:
        return tuple(c for c in DECK if 10 not in c)
    if players in (2, 4):
        return tuple(c for c in DECK if c != (9, 10))
    if players == 5:
        return DECK
    raise ValueError(f"SCOUT is played by 2 to 5 players, not {players}")


def shuffled(cards: tuple[Card, ...], rng: Rng) -> list[Card]:
    """S3: the cards in random order, each in a random orientation."""
    order = list(cards)
    rng.shuffle(order)
    bits = rng.getrandbits(len(order))
    return [(c[1], c[0]) if (bits >> i) & 1 else c for i, c in enumerate(order)]


def canonical(card: Card) -> Card:
    """The card as (smaller, larger), whatever its orientation: its identity in the deck."""
    return card if card[0] < card[1] else (card[1], card[0])
