"""What each seat may see of a SCOUT game, and the test hooks that prove nothing else leaks.

Public: every hand's size, the active show and its owner, score piles' sizes, chips, Scout & Show
availability, whether each seat has made its flip decision, every past action (which card was
scouted, how it was rotated and where it was inserted), round results and totals.
Private: the cards in other hands, the set-aside cards, other seats' flip choices, the seed.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, NotRequired, TypedDict

from parlour.games.scout.cards import Card, canonical
from parlour.games.scout.rules import legal_actions, outcome, to_act
from parlour.games.scout.state import PHASE_NAMES, State


class ScoutSeatView(TypedDict):
    """What everyone sees of one seat."""

    seat: int
    hand_size: int
    captured: int
    chips: int
    scout_show_available: bool
    flip_decided: bool
    total: int


class ScoutView(TypedDict):
    """What :func:`view` gives a seat (or a spectator): every key, with its type."""

    game: str
    options: dict[str, Any]
    seat: int | None
    players: int
    round: int
    rounds: int
    phase: str
    start_seat: int
    turn: int
    to_act: list[int]
    hand: list[list[int]] | None
    flip: bool | None
    legal_actions: list[str]
    seats: list[ScoutSeatView]
    active_show: list[list[int]]
    owner: int | None
    pending_scout_show: bool
    scouts_since_show: int
    set_aside_count: int
    results: list[dict[str, Any]]
    totals: list[int]
    outcome: dict[str, Any] | None
    log: list[dict[str, Any]]
    seen_earlier: NotRequired[list[list[int]]]  # 2 players only


def _cards(cards: tuple[Card, ...]) -> list[list[int]]:
    return [[c[0], c[1]] for c in cards]


def _event(state: State, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
    kind = event[0]
    if kind == "flip":
        return _flip_event(event, event[2] == seat)
    if kind in ("show", "scout", "scout_show"):
        return _public_event(event)
    _, rnd, _reason, _seat = event
    return {"type": "round_end", **state.results[rnd].to_json()}


class Event(dict[str, Any]):
    """A logged event as views and histories show it. Events never change once logged, and
    every later view of every seat shows them again (a view carries the round's whole log), so
    each is converted once and the same one shared: it is read-only (changing it raises
    ``TypeError``; change a copy, ``dict(event)``)."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a logged event is shared by every view: change a copy (dict(event))")

    __setitem__ = __delitem__ = __ior__ = _read_only
    update = pop = popitem = clear = setdefault = _read_only

    def __reduce__(self) -> Any:
        return (Event, (dict(self),))


@lru_cache(maxsize=1 << 15)
def _flip_event(event: tuple[Any, ...], own: bool) -> dict[str, Any]:
    _, rnd, who, flipped = event
    out: dict[str, Any] = {"type": "flip_decided", "round": rnd + 1, "seat": who}
    if own:
        out["flip"] = flipped
    return Event(out)


@lru_cache(maxsize=1 << 15)
def _public_event(event: tuple[Any, ...]) -> dict[str, Any]:
    if event[0] == "show":
        _, rnd, who, start, length, group, captured = event
        return Event(
            {
                "type": "show",
                "round": rnd + 1,
                "seat": who,
                "start": start,
                "length": length,
                "cards": _cards(group),
                "captured": captured,
            }
        )
    kind, rnd, who, end, rotate, insert, taken, owner = event
    return Event(
        {
            "type": kind,
            "round": rnd + 1,
            "seat": who,
            "end": end,
            "rotate": rotate,
            "insert": insert,
            "card": [taken[0], taken[1]],
            "chip_to": owner,
        }
    )


_LOGS: dict[tuple[int, int | None], tuple[Any, list[dict[str, Any]]]] = {}
"""The latest round logs as views show them, by (the log's newest node's ``id``, seat), with the
node itself (an ``id`` is only trusted while its node is the one kept here)."""
_LOGS_MAX = 1 << 13


def _round_log(state: State, seat: int | None) -> list[dict[str, Any]]:
    # The current round's events as ``seat`` sees them (a list of its own for every view). The
    # log is a chain of (earlier, event) pairs that the next state extends: the list for the
    # node before is extended by one event instead of converting the round again.
    node = state.log
    if node is None:
        return []
    found = _LOGS.get((id(node), seat))
    if found is not None and found[0] is node:
        return list(found[1])
    earlier, event = node
    if event[1] != state.round:
        return []
    before = _LOGS.get((id(earlier), seat)) if earlier is not None else None
    if before is not None and before[0] is earlier and earlier[1][1] == state.round:
        log = [*before[1], _event(state, event, seat)]
    else:
        log = [_event(state, e, seat) for e in state.events(state.round)]
    if len(_LOGS) >= _LOGS_MAX:
        _LOGS.clear()
    _LOGS[(id(node), seat)] = (node, log)
    return list(log)


def view(state: State, seat: int | None) -> ScoutView:
    """Everything ``seat`` may see, as JSON-ready data (``seat=None``: a spectator).

    ``hand`` is the seat's own hand, left to right, each card ``[up, down]`` (``None`` for a
    spectator); ``legal_actions`` lists the seat's legal actions in text form; ``log`` is the
    current round's history (earlier rounds: ``results``, or :func:`history`). In the 2-player
    game, ``seen_earlier`` lists (as ``[smaller, larger]``, sorted) the cards the seat saw in
    earlier rounds, its own dealt hands and every card shown: round 2 deals the cards set aside
    in round 1 (S15), so none of them is in play in round 2.
    """
    players = len(state.hands)
    me = seat if seat is not None and 0 <= seat < players else None
    seats: list[ScoutSeatView] = []
    for s in range(players):
        seats.append(
            {
                "seat": s,
                "hand_size": len(state.hands[s]),
                "captured": len(state.piles[s]),
                "chips": state.chips[s],
                "scout_show_available": state.scout_show[s],
                "flip_decided": state.flips[s] is not None,
                "total": state.totals[s],
            }
        )
    out: ScoutView = {
        "game": "scout",
        "options": state.options.to_json(),
        "seat": me,
        "players": players,
        "round": state.round + 1,
        "rounds": state.options.rounds,
        "phase": PHASE_NAMES[state.phase],
        "start_seat": state.start_seat,
        "turn": state.turn,
        "to_act": list(to_act(state)),
        "hand": _cards(state.hands[me]) if me is not None else None,
        "flip": state.flips[me] if me is not None else None,
        "legal_actions": [str(a) for a in legal_actions(state, me)] if me is not None else [],
        "seats": seats,
        "active_show": _cards(state.active),
        "owner": state.owner,
        "pending_scout_show": state.pending,
        "scouts_since_show": state.scouts,
        "set_aside_count": len(state.set_aside),
        "results": [r.to_json() for r in state.results],
        "totals": list(state.totals),
        "outcome": outcome(state),
        "log": _round_log(state, me),
    }
    if players == 2:
        out["seen_earlier"] = _seen_earlier(state, me)
    return out


def _seen_earlier(state: State, seat: int | None) -> list[list[int]]:
    # The cards ``seat`` saw in the rounds before this one: its dealt hands and every Show.
    if state.round == 0:
        return []
    seen: set[Card] = set()
    for r in range(min(state.round, len(state.dealt))):
        if seat is not None:
            seen.update(canonical(c) for c in state.dealt[r][seat])
    for event in state.events():
        if event[1] >= state.round:
            break
        if event[0] == "show":
            seen.update(canonical(c) for c in event[5])
    return [[a, b] for a, b in sorted(seen)]


def history(state: State, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The whole game's history as ``seat`` may see it (views carry the current round only);
    with ``since``, only the events after the first ``since`` (events never change once
    logged, so a caller may keep the earlier ones)."""
    players = len(state.hands)
    me = seat if seat is not None and 0 <= seat < players else None
    return [_event(state, e, me) for e in state.events()[since:]]


def hidden_info(state: State, seat: int | None) -> list[Any]:
    """JSON-ready values ``seat`` must never see: the seed, other seats' hands (each hand of
    three or more cards whole, and every card of every other hand, either way up) and the
    set-aside cards (the same). A single card may equal a public pair of numbers by chance;
    the conformance check tells the two apart (:func:`parlour.core.conformance.leaked`)."""
    secrets: list[Any] = []
    if state.seed is not None:
        secrets.append(state.seed)
    groups = [hand for s, hand in enumerate(state.hands) if s != seat] + [state.set_aside]
    for group in groups:
        if len(group) >= 3:
            secrets.append(_cards(group))
        for card in group:
            secrets += [[card[0], card[1]], [card[1], card[0]]]
    return secrets


def scramble_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state identical for ``seat`` and in public, with everything hidden from ``seat`` redrawn:
    the other hands' cards and orientations (sizes kept), the set-aside cards, other seats'
    flip choices (in the state and in the history) and the seed."""
    others = [s for s in range(len(state.hands)) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.set_aside)
    rng.shuffle(pool)
    pool = [(c[1], c[0]) if rng.random() < 0.5 else c for c in pool]
    new = state.clone()
    hands = list(state.hands)
    flips = list(state.flips)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(pool[:size]), pool[size:]
        if flips[s] is not None:
            flips[s] = rng.random() < 0.5
    new.hands = tuple(hands)
    new.flips = tuple(flips)
    new.set_aside = tuple(pool)
    new.seed = rng.randrange(10**12, 10**13)
    log: Any = None
    for event in state.events():
        if event[0] == "flip" and event[2] != seat:
            event = (*event[:3], rng.random() < 0.5)
        log = (log, event)
    new.log = log
    return new
