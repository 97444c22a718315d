"""TOY's rules (see the package docstring): pure functions over an immutable ``State``."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from parlour.core import GameOver, IllegalAction, InvalidAction, NotYourTurn

DECKS = {"short": 6, "long": 12}
"""The highest card of each deck (cards are 1..N)."""

HAND = 2
"""Cards dealt to each player: as many tricks are played."""


@dataclass(frozen=True)
class ToyOptions:
    """``players`` 2–3, ``deck`` ``"short"`` (1–6) or ``"long"`` (1–12), ``low_wins``."""

    players: int = 2
    deck: str = "short"
    low_wins: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in (2, 3):
            raise InvalidAction(f"TOY is played by 2 or 3 players, not {self.players!r}")
        if self.deck not in DECKS:
            raise InvalidAction(f"deck is short or long, not {self.deck!r}")
        if not isinstance(self.low_wins, bool):
            raise InvalidAction("low_wins must be true or false")

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "deck": self.deck, "low_wins": self.low_wins}


def options_from_json(obj: Any) -> ToyOptions:
    """``ToyOptions`` from a JSON object (missing fields take their defaults); raises
    ``InvalidAction`` for unknown fields or bad values."""
    if isinstance(obj, ToyOptions):
        return obj
    if not isinstance(obj, dict):
        raise InvalidAction("options are a JSON object")
    unknown = set(obj) - {"players", "deck", "low_wins"}
    if unknown:
        raise InvalidAction(f"unknown options: {', '.join(sorted(unknown))}")
    return ToyOptions(**obj)


@dataclass(frozen=True)
class Play:
    """Play ``card`` from the hand: text ``play 5``."""

    card: int

    def __str__(self) -> str:
        return f"play {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


def parse_action(text: str) -> Play:
    """The action of a text form (``play 5``); raises ``InvalidAction``."""
    word, _, number = text.strip().partition(" ")
    if word != "play" or not number.isdigit():
        raise InvalidAction(f"not a TOY action: {text!r}")
    return Play(int(number))


def action_from_json(obj: Any) -> Play:
    """The action of a JSON form; raises ``InvalidAction``."""
    if not isinstance(obj, dict) or obj.get("type") != "play":
        raise InvalidAction("a TOY action is {type: play, card: N}")
    card = obj.get("card")
    if isinstance(card, bool) or not isinstance(card, int):
        raise InvalidAction("card is a whole number")
    return Play(card)


@dataclass(frozen=True)
class State:
    """Hands, the undealt stock, the trick on the table (``(seat, card)`` in play order), the
    leader, tricks won per seat, the cards of finished tricks and the log of events."""

    options: ToyOptions
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    trick: tuple[tuple[int, int], ...] = ()
    leader: int = 0
    won: tuple[int, ...] = ()
    played: tuple[int, ...] = ()
    log: tuple[dict[str, Any], ...] = ()

    @property
    def over(self) -> bool:
        return not self.trick and not any(self.hands)


def new_state(options: Any, seed: int | str) -> State:
    """A new game: the deck shuffled from ``seed`` and two cards dealt to each player."""
    opts = options_from_json(options)
    deck = list(range(1, DECKS[opts.deck] + 1))
    random.Random(f"toy:{seed}").shuffle(deck)
    hands = tuple(tuple(sorted(deck[i * HAND : (i + 1) * HAND])) for i in range(opts.players))
    return State(opts, hands, tuple(deck[opts.players * HAND :]), won=(0,) * opts.players)


def to_act(state: State) -> list[int]:
    """The seat to play next (none once the game is over)."""
    if state.over:
        return []
    return [(state.leader + len(state.trick)) % state.options.players]


def legal_actions(state: State, seat: int) -> list[Play]:
    """Every card of the hand, lowest first, for the seat to act; else none."""
    if seat not in to_act(state):
        return []
    return [Play(card) for card in state.hands[seat]]


def apply(state: State, seat: int | None, action: Any, now_ms: int = 0) -> State:
    """The state after ``seat`` plays ``action``. Raises ``GameOver``, ``NotYourTurn``,
    ``InvalidAction`` or ``IllegalAction`` (a card not in the hand)."""
    if state.over:
        raise GameOver("the game is over")
    if seat not in to_act(state):
        raise NotYourTurn(f"it is seat {to_act(state)[0]}'s turn")
    assert seat is not None
    if not isinstance(action, Play):
        raise InvalidAction(f"not a TOY action: {action!r}")
    hand = state.hands[seat]
    if action.card not in hand:
        raise IllegalAction(f"card {action.card} is not in your hand")
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hand if c != action.card)
    trick = (*state.trick, (seat, action.card))
    log = (*state.log, {"type": "play", "seat": seat, "card": action.card})
    new = replace(state, hands=tuple(hands), trick=trick, log=log)
    if len(trick) < state.options.players:
        return new
    pick = min if state.options.low_wins else max
    winner = pick(trick, key=lambda play: play[1])[0]
    won = tuple(n + (s == winner) for s, n in enumerate(state.won))
    played = (*state.played, *(card for _, card in trick))
    log = (*log, {"type": "trick", "winner": winner})
    return replace(new, trick=(), leader=winner, won=won, played=played, log=log)


def deadline(state: State) -> int | None:
    """TOY is turn-based: never a deadline."""
    return None


def outcome(state: State) -> dict[str, Any] | None:
    """``None`` while the game goes on; then scores (tricks won), ranks and winners."""
    if not state.over:
        return None
    top = max(state.won)
    return {
        "scores": list(state.won),
        "ranks": [1 + sum(1 for u in state.won if u > w) for w in state.won],
        "winners": [s for s, w in enumerate(state.won) if w == top],
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees (``None``: a spectator): its own hand, each seat's number of cards and
    tricks won, the trick, whose turn it is, the log, the outcome and, at the end, the undealt
    cards. (Lists of numbers only where nothing hidden could equal them: the leak check looks
    for hidden hands as lists.)"""
    turn = to_act(state)
    return {
        "game": "toy",
        "players": state.options.players,
        "options": state.options.to_json(),
        "seat": seat,
        "hand": list(state.hands[seat]) if seat is not None else None,
        "seats": [{"cards": len(h), "won": w} for h, w in zip(state.hands, state.won, strict=True)],
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "turn": turn[0] if turn else None,
        "log": list(state.log),
        "outcome": outcome(state),
        "undealt": list(state.stock) if state.over else None,
    }


def hidden_info(state: State, seat: int | None) -> list[Any]:
    """Every other hand with cards in it, and the undealt stock until the end (then shown)."""
    hidden: list[Any] = [list(h) for s, h in enumerate(state.hands) if s != seat and h]
    return [*hidden, list(state.stock)] if state.stock and not state.over else hidden


def scramble_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """The same state with every hand but ``seat``'s and the stock redrawn at random (until the
    end, when every card is shown)."""
    if state.over:  # every card has been seen
        return state
    pool = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
    rng.shuffle(pool)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(pool[: len(hand)])))
            del pool[: len(hand)]
    return replace(state, hands=tuple(hands), stock=tuple(pool))


def check_invariants(state: State) -> None:
    """Every card of the deck is in exactly one place; raises ``AssertionError``."""
    places = [c for h in state.hands for c in h] + list(state.stock) + list(state.played)
    places += [c for _, c in state.trick]
    assert sorted(places) == list(range(1, DECKS[state.options.deck] + 1)), places
    assert sum(state.won) == len(state.played) // state.options.players
