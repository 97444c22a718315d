"""What each seat may see of a SNAP game, and the test hooks that prove nothing else leaks.

Public (every seat and spectators see the same): every face-up top and pile size, stock sizes,
the Pot's top and size, whose turn it is, who is out, the latest reveal's sequence number and
time, the times that matter next (flips open, the deadline), whether a flipped card is waiting
to be revealed (``flipping``: the flipper; neither its card nor the moment of its reveal), who
has a call pending (not its reaction time until the race is decided), and the events since the
latest flip: the flip, every call with its verdict, the decision (with every call's reaction
time), penalties (who gave a card to whom, never which card), eliminations and the end. A
seat's view adds only its legal actions. Private: every stock's order and contents (a flipped
card too, until its reveal), the face-up cards under the tops, the moment a flipped card will
be revealed (N3), the seed — and, until the race is decided, anything that tells a pending
call's reaction time: its own time or arrival, the decision deadline, and a clock that moved
with a pending call.
"""

from __future__ import annotations

import random
from typing import Any, TypedDict

from parlour.games.snap.cards import NAMES, Card
from parlour.games.snap.rules import RACE, deadline, legal_actions, outcome, to_act
from parlour.games.snap.state import State


class SnapSeatView(TypedDict):
    """What everyone sees of one seat."""

    seat: int
    stock: int
    pile: int
    top: str | None
    out: bool


class SnapPotView(TypedDict):
    size: int
    top: str | None


class SnapRaceView(TypedDict):
    callers: list[int]


class SnapView(TypedDict):
    """What :func:`view` gives a seat (or a spectator): every key, with its type."""

    game: str
    options: dict[str, Any]
    seat: int | None
    players: int
    dealer: int
    turn: int
    to_act: list[int]
    legal_actions: list[str]
    seq: int
    last_flipper: int | None
    reveal_ms: int
    clock_ms: int
    flip_open_ms: int
    flipping: int | None
    deadline_ms: int | None
    seats: list[SnapSeatView]
    pot: SnapPotView
    race: SnapRaceView | None
    log: list[dict[str, Any]]
    outcome: dict[str, Any] | None


def _top(group: tuple[Card, ...]) -> str | None:
    return NAMES[group[-1]] if group else None


def _calls(entries: tuple[tuple[int, int], ...]) -> list[dict[str, int]]:
    return [{"seat": seat, "rt_ms": rt} for seat, rt in entries]


def event_json(event: tuple[Any, ...]) -> dict[str, Any]:
    """One log event as JSON-ready public data (see the event kinds in ``rules``)."""
    kind = event[0]
    if kind == "flip":
        _, seq, seat, card, now, auto, recycled = event
        return {
            "type": "flip",
            "seq": seq,
            "seat": seat,
            "card": NAMES[card],
            "at_ms": now,
            "auto": auto,
            "recycled": recycled,
        }
    if kind == "call":
        _, seq, seat, rt, now, verdict, anticipation, receiver, recycled = event
        out: dict[str, Any] = {"type": "call", "seq": seq, "seat": seat, "verdict": verdict}
        if verdict != RACE:  # a race call's time (or arrival) is shown with the decision
            out["at_ms"] = now
            out["rt_ms"] = rt
            out["anticipation"] = anticipation
        if receiver is not None:
            out["to"] = receiver
            out["recycled"] = recycled
        return out
    if kind == "win":
        _, seq, seat, claim, pot_cards, taken, entries, now = event
        return {
            "type": "win",
            "seq": seq,
            "seat": seat,
            "claim": list(claim),
            "pot_cards": pot_cards,
            "cards": taken,
            "calls": _calls(entries),
            "at_ms": now,
        }
    if kind == "tie":
        _, seq, seats, claim, pot_size, entries, now = event
        return {
            "type": "tie",
            "seq": seq,
            "seats": list(seats),
            "claim": list(claim),
            "pot_size": pot_size,
            "calls": _calls(entries),
            "at_ms": now,
        }
    if kind == "void":
        _, seq, entries, now = event
        return {"type": "void", "seq": seq, "calls": _calls(entries), "at_ms": now}
    if kind == "out":
        _, seq, seats, now = event
        return {"type": "out", "seq": seq, "seats": list(seats), "at_ms": now}
    _, seq, reason, now = event
    return {"type": "end", "seq": seq, "reason": reason, "at_ms": now}


def view(state: State, seat: int | None) -> SnapView:
    """Everything ``seat`` may see, as JSON-ready data (``seat=None``: a spectator).

    Cards are named like ``"10H"``; ``legal_actions`` lists the seat's actions in text form;
    ``log`` holds the events since the latest flip (the whole game: :func:`history`).
    """
    n = state.players
    me = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n else None
    seats: list[SnapSeatView] = [
        {
            "seat": s,
            "stock": len(state.stocks[s]),
            "pile": len(state.piles[s]),
            "top": _top(state.piles[s]),
            "out": state.out[s] is not None,
        }
        for s in range(n)
    ]
    race: SnapRaceView | None = None
    log = [event_json(e) for e in state.events(since_flip=True)]
    clock_ms, deadline_ms = state.clock_ms, deadline(state)
    if state.race:  # nothing that moves with a pending call's arrival (see the docstring)
        race = {"callers": [s for s, _, _ in state.race]}
        clock_ms = max([state.reveal_ms, *(e["at_ms"] for e in log if "at_ms" in e)])
        deadline_ms = None
    return {
        "game": "snap",
        "options": state.options.to_json(),
        "seat": me,
        "players": n,
        "dealer": state.dealer,
        "turn": state.turn,
        "to_act": list(to_act(state)),
        "legal_actions": [str(a) for a in legal_actions(state, me)] if me is not None else [],
        "seq": state.seq,
        "last_flipper": state.last_flipper,
        "reveal_ms": state.reveal_ms,
        "clock_ms": clock_ms,
        "flip_open_ms": state.flip_open_ms,
        "flipping": state.turn if state.flipping is not None else None,
        "deadline_ms": None if state.flipping is not None and not state.race else deadline_ms,
        "seats": seats,
        "pot": {"size": len(state.pot), "top": _top(state.pot)},
        "race": race,
        "log": log,
        "outcome": outcome(state),
    }


def history(state: State, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
    """The whole game's public history (views carry the events since the latest flip only);
    with ``since``, only the events after the first ``since`` (events never change once
    logged, so a caller may keep the earlier ones). Every seat sees the same as a spectator: a
    call waiting for the decision shows neither its reaction time nor its arrival."""
    return [event_json(e) for e in state.events()[since:]]


def hidden_info(state: State, seat: int | None) -> list[Any]:
    """JSON-ready values no seat may see: the seed, every stock's order (stocks of three or
    more cards whole) and every card in a stock or under a top (the Pot's too), by name. A
    single card may be named in public by chance (flipped since, and taken into a stock); the
    conformance check tells the two apart (:func:`parlour.core.conformance.leaked`). Seats see
    the same as spectators."""
    secrets: list[Any] = []
    if state.seed is not None:
        secrets.append(state.seed)
    for stock in state.stocks:
        if len(stock) >= 3:
            secrets.append([NAMES[c] for c in stock])
        secrets += [NAMES[c] for c in stock]
    for group in (*state.piles, state.pot):
        secrets += [NAMES[c] for c in group[:-1]]
    return secrets


def scramble_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state identical in public (and so for every seat) with everything hidden redrawn: the
    cards of every stock and every face-up card under a top, in the Pot too (sizes and tops
    kept), the reaction times of pending calls (in the race and in the log), the moment a
    flipped card will be revealed (within the delay's range, not before the latest input) and
    the seed."""
    pool = [c for stock in state.stocks for c in stock]
    pool += [c for pile in state.piles for c in pile[:-1]] + list(state.pot[:-1])
    rng.shuffle(pool)

    def take(count: int) -> tuple[Card, ...]:
        nonlocal pool
        part, pool = tuple(pool[:count]), pool[count:]
        return part

    new = state.clone()
    new.stocks = tuple(take(len(stock)) for stock in state.stocks)
    new.piles = tuple(take(len(p) - 1) + p[-1:] if p else () for p in state.piles)
    new.pot = take(len(state.pot) - 1) + state.pot[-1:] if state.pot else ()
    new.race = tuple((s, rng.randrange(100, 2000), arrival) for s, _, arrival in state.race)
    if state.race:  # the pending calls' times in the log too (shown with the decision)
        times = {s: rt for s, rt, _ in new.race}
        log: Any = None
        for event in state.events():
            if event[0] == "call" and event[1] == state.seq and event[5] == RACE:
                event = (*event[:3], times[event[2]], *event[4:])
            log = (log, event)
        new.log = log
    if state.flipping is not None and not state.race:
        flipped, _, auto = state.flipping
        opts = state.options
        low = max(flipped + opts.reveal_delay_min_ms, state.clock_ms)
        high = max(low, flipped + opts.reveal_delay_max_ms)  # a reveal put off by a race: kept
        new.flipping = (flipped, rng.randint(low, high), auto)
    new.seed = rng.randrange(10**12, 10**13)
    return new
