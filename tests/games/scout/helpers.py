"""Builders for SCOUT test positions: hands and shows written as the numbers in use."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.scout import ScoutOptions, State, check_invariants, group_key, state_from_deal
from parlour.games.scout.cards import Card, canonical, deck_for


class CardPicker:
    """Hands out distinct cards of a player count's deck with a wanted number in use."""

    def __init__(self, players: int) -> None:
        self.free = set(deck_for(players))

    def card(self, up: int) -> Card:
        for down in range(10, 0, -1):
            if down != up and canonical((up, down)) in self.free:
                self.free.remove(canonical((up, down)))
                return (up, down)
        raise ValueError(f"no card with {up} left")

    def cards(self, ups: Sequence[int]) -> tuple[Card, ...]:
        return tuple(self.card(u) for u in ups)


def position(
    hands: Sequence[Sequence[int]],
    *,
    turn: int = 0,
    active: Sequence[int] = (),
    owner: int | None = None,
    piles: Sequence[int] | None = None,
    chips: Sequence[int] | None = None,
    scout_show: Sequence[bool] | None = None,
    options: ScoutOptions | None = None,
    seed: int = 1,
) -> State:
    """A play-phase position with hands and active show given by their numbers in use.

    ``piles`` gives how many captured cards each seat holds (distinct real cards are used).
    """
    players = len(hands)
    opts = options or ScoutOptions(players)
    pick = CardPicker(players)
    built = [pick.cards(h) for h in hands]
    show = pick.cards(active)
    pile_cards: list[tuple[Card, ...]] = [() for _ in range(players)]
    if piles:
        pile_cards = []
        for count in piles:
            chosen = sorted(pick.free)[:count]
            pick.free -= set(chosen)
            pile_cards.append(tuple(chosen))
    state = state_from_deal(built, turn, options=opts, seed=seed, decide_flips=True)
    state.active = show
    state.active_key = group_key([c[0] for c in show])
    state.owner = owner if owner is not None else ((turn - 1) % players if show else None)
    state.piles = tuple(pile_cards)
    if chips is not None:
        state.chips = tuple(chips)
    if scout_show is not None:
        state.scout_show = tuple(scout_show)
    state.round_cards = frozenset(
        canonical(c) for group in (*built, show, *pile_cards) for c in group
    )
    check_invariants(state)
    return state


def ups(cards: Sequence[Card]) -> list[int]:
    """The numbers in use."""
    return [c[0] for c in cards]
