"""SNAP's rules (N3–N9): who may act, what is legal, what an input does, races and the end.

Time is an input: every ``apply`` carries ``now_ms`` (milliseconds since the game began). Inputs
come in time order and never after ``deadline(state)``: the referee applies ``Timeout()`` (seat
``None``) at each deadline first. ``deadline(state)`` is, in this order:

1. the race decision, while valid calls are pending (first valid call's arrival +
   ``decision_window_ms``);
2. the reveal of a flipped card (N3): a flip (the seat's ``Flip()`` or the turn timer's) leaves
   the card on the stock, unseen by every seat, flipper included, for a delay drawn from the
   seed (``reveal_delay_min_ms`` to ``reveal_delay_max_ms``); the timeout then turns it face up
   (recycling first if the stock is empty) and that moment is the reveal. A race pending then
   puts the reveal off until it is decided; a flipper who goes out meanwhile flips nothing;
3. the moment flips open (latest reveal + ``min_flip_interval_ms``), if no input has come since:
   that timeout only moves the clock, so that ``Flip()`` becomes legal (legality depends on the
   state alone, never on the time an input carries);
4. the turn timer: ``turn_timer_ms`` after the seat to act may flip (flips open, or a decided
   race, whichever is later); that timeout flips for it.

How a call (``Snap(rt_ms)``) is judged, in this order. ``rt`` is the credited reaction time:
``rt_ms`` if given, else ``now_ms`` minus the latest reveal's time; ``rt < 100`` is anticipation
(N9), a call on the arrangement before the latest reveal. Verdicts are logged publicly.

1. ``early``: no flip yet (an anticipation call on the first reveal counts as before it):
   ignored (N7).
2. ``repeat``: the seat's call has already counted (joined the race or paid a penalty) since the
   latest reveal: ignored (N7: at most one penalty per seat per flip).
3. ``late``: within ``late_call_ms`` after a race was decided, before the next flip: ignored (N6).
4. ``race``: a snap is valid now (N5) — for an anticipation call, valid before the latest reveal
   too: the call joins the race; the first one opens it.
5. ``stale``: an anticipation call on an arrangement that offered a snap the latest reveal
   covered: it was right when made, so it is ignored, without penalty (N9).
6. ``false``: otherwise (N7): the caller gives the top card of its stock (recycled first if
   empty) to the last flipper, or — if the caller is the last flipper or the last flipper is out —
   to the nearest seat still in counter-clockwise from the last flipper; it goes under the
   receiver's stock.

The referee may decide a pending race before its deadline with ``Decide()`` (seat ``None``), when
it knows nobody can still call earlier (N9; ``race(state)`` describes the race for it).
Flips are refused while a race is pending. At the decision the claim set is taken from the
arrangement then; the earliest calls by ``rt`` (``core.race.first_group`` with the tie window)
win alone or tie. A race is void (nothing moves) if by then no snap is valid any more (a false
caller's recycle took a claimed face-up pile away). Calls are never refused from a seat still in:
they are judged. A referee that falls behind applies one ``Timeout()`` per deadline, in order.
"""

from __future__ import annotations

from typing import Any

from parlour.core import (
    Decide,
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    Timeout,
    derive_rng,
)
from parlour.core.race import OpenRace, RaceEntry, first_group, is_anticipation
from parlour.games.snap.actions import FLIP, SNAP, Action, Flip, Snap, check_rt
from parlour.games.snap.cards import Card, match_keys, turn_over
from parlour.games.snap.state import FLIP_CAP, State, next_in

# Event kinds in the log (tuples; the first item is the kind):
#   ("flip", seq, seat, card, now, auto, recycled)
#   ("call", seq, seat, rt, now, verdict, anticipation, receiver, recycled)
#   ("win", seq, seat, claim_seats, pot_cards, cards_taken, entries, now)
#   ("tie", seq, seats, claim_seats, pot_size, entries, now)
#   ("void", seq, entries, now)
#   ("out", seq, seats, now)
#   ("end", seq, reason, now)
# ``entries`` are the race's ``(seat, rt)`` pairs, earliest first.

EARLY, REPEAT, LATE, RACE, STALE, FALSE = "early", "repeat", "late", "race", "stale", "false"
VERDICTS = (EARLY, REPEAT, LATE, RACE, STALE, FALSE)

# --------------------------------------------------------------------------------------------
# Matching (N4, N5)


def claim_set(state: State) -> tuple[tuple[int, ...], bool]:
    """N5: the claim set of the current arrangement: the seats (in seat order) whose face-up top
    matches another top or the Pot's top, and whether the Pot is in it (some top matches the
    Pot's top). A snap is valid iff the seats are not empty.
    """
    keys = match_keys(state.options.match)
    counts: dict[int, int] = {}
    for pile in state.piles:
        if pile:
            k = keys[pile[-1]]
            counts[k] = counts.get(k, 0) + 1
    pot_key = keys[state.pot[-1]] if state.pot else -1
    seats = tuple(
        s
        for s, pile in enumerate(state.piles)
        if pile and (counts[keys[pile[-1]]] > 1 or keys[pile[-1]] == pot_key)
    )
    return seats, pot_key in counts


def snap_valid(state: State) -> bool:
    """N5: whether a snap is valid now (two face-up tops match, or one matches the Pot's top)."""
    return bool(claim_set(state)[0])


def dead_position(state: State) -> bool:
    """N8: whether no match class is held by two different seats still in, and the Pot is empty
    or its top's class is held by nobody still in."""
    key = match_keys(state.options.match).__getitem__
    held: set[int] = set()
    for stock, pile, out in zip(state.stocks, state.piles, state.out, strict=True):
        if out is None:
            mine = set(map(key, stock))
            mine.update(map(key, pile))
            if not held.isdisjoint(mine):
                return False
            held |= mine
    return not state.pot or key(state.pot[-1]) not in held


# --------------------------------------------------------------------------------------------
# The protocol


def to_act(state: State) -> tuple[int, ...]:
    """Every seat still in (any of them may call at any time; N6), nobody once the game is over."""
    if state.over is not None:
        return ()
    return tuple(s for s, o in enumerate(state.out) if o is None)


def may_flip(state: State, seat: int) -> bool:
    """Whether ``seat`` may flip now: it is its turn, no race is pending, flips are open and its
    last flip has been revealed."""
    return (
        state.over is None
        and seat == state.turn
        and not state.race
        and state.flipping is None
        and state.clock_ms >= state.flip_open_ms
    )


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat``: ``[Flip(), Snap()]`` for the seat to act when it may
    flip, ``[Snap()]`` for every other seat still in, nothing for seats out or after the end.
    (``Snap(rt_ms)`` with any reaction time is as legal as ``Snap()``.)"""
    if state.over is not None or not _is_seat(state, seat) or state.out[seat] is not None:
        return []
    if may_flip(state, seat):
        return [FLIP, SNAP]
    return [SNAP]


def deadline(state: State) -> int | None:
    """When ``Timeout()`` next advances the game (see the module docstring); ``None`` once the
    game is over."""
    if state.over is not None:
        return None
    if state.decide_ms is not None:
        return state.decide_ms
    if state.flipping is not None:
        return state.flipping[1]
    if state.clock_ms < state.flip_open_ms:
        return state.flip_open_ms
    return max(state.flip_open_ms, state.timer_from_ms) + state.options.turn_timer_ms


def race(state: State) -> OpenRace | None:
    """N9: the pending race as the referee needs it, or ``None``: the reveal time, the valid
    calls waiting (credited reaction times), the seats that may still call (still in, not yet
    counted since the reveal) and the horizon: the earliest call's reaction time plus the tie
    window (a later call can no longer win or tie)."""
    if not state.race:
        return None
    entries = tuple(RaceEntry(seat, rt, "snap") for seat, rt, _ in state.race)
    open_seats = tuple(
        s for s, o in enumerate(state.out) if o is None and not state.counted >> s & 1
    )
    horizon = min(e.rt_ms for e in entries) + state.options.tie_window
    return OpenRace(state.reveal_ms, entries, open_seats, horizon)


def outcome(state: State) -> dict[str, Any] | None:
    """``None`` while the game goes on; then the ``reason`` it ended, every seat's ``rank`` (1 =
    best, equal ranks shared), the ``winners`` (rank 1), ``cards_held`` (outside the Pot; also
    given as ``scores``, the field every game's outcome has),
    ``went_out`` (the elimination moment of each seat, or ``None``) and the number of ``flips``.

    N8: seats still in rank first, by cards held (with a normal end only the winner is still in);
    seats out rank after them by the order in which they went out (later is better; seats going
    out at the same moment share a rank).
    """
    if state.over is None:
        return None
    n = state.players
    held = [state.held(s) for s in range(n)]
    order = [(0, -held[s]) if state.out[s] is None else (1, -(state.out[s] or 0)) for s in range(n)]
    ranks = [1 + sum(1 for other in order if other < mine) for mine in order]
    return {
        "reason": state.over,
        "ranks": ranks,
        "winners": [s for s in range(n) if ranks[s] == 1],
        "scores": held,
        "cards_held": held,
        "went_out": list(state.out),
        "flips": state.seq,
    }


def _is_seat(state: State, seat: object) -> bool:
    return type(seat) is int and 0 <= seat < len(state.out)  # not a bool


def apply(state: State, seat: int | None, action: Action, now_ms: int) -> State:
    """The state after ``seat`` inputs ``action`` at time ``now_ms`` (``seat=None``: the
    referee's ``Timeout()`` at the deadline, or its ``Decide()`` of a pending race before it).

    Raises ``GameOver`` after the end; ``NotYourTurn`` for a seat that is out, not a seat, or
    flipping out of turn, and for anything but a timeout from the referee; ``IllegalAction`` for
    a flip that is too early, during a race or before the previous flip is revealed, a timeout
    before the deadline or from a seat, a decision with no race pending, and inputs out of time
    order or after the deadline; ``InvalidAction`` for something that is not
    a SNAP action, a bad reaction time or a bad time. ``state`` itself is never changed.
    """
    if state.over is not None:
        raise GameOver(f"the game is over ({state.over.replace('_', ' ')})")
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise InvalidAction(f"now_ms must be a whole number of milliseconds, not {now_ms!r}")
    if now_ms < state.clock_ms:
        raise IllegalAction(
            f"inputs come in time order: {now_ms} ms is before the latest input at "
            f"{state.clock_ms} ms"
        )
    due = deadline(state)
    assert due is not None
    if seat is None:
        if type(action) is Decide:
            if not state.race:
                raise IllegalAction("there is no call waiting for a decision")
            if now_ms > due:
                raise IllegalAction(f"the race was due to be decided at {due} ms, not {now_ms} ms")
            return _decide(state, now_ms)
        if type(action) is not Timeout:
            raise NotYourTurn(
                "only the referee's timeout or decision is applied without a seat; "
                "every other input has one"
            )
        if now_ms < due:
            raise IllegalAction(f"nothing is due before {due} ms; it is {now_ms} ms")
        return _apply_timeout(state, now_ms)
    if not _is_seat(state, seat):
        raise NotYourTurn(f"there is no seat {seat!r} at a {state.players}-player table")
    cls = type(action)
    if cls is Timeout or cls is Decide:
        raise IllegalAction(f"'{action}' is applied by the referee (seat None), not by a seat")
    if cls is not Flip and cls is not Snap:
        raise InvalidAction(f"{action!r} is not a SNAP action")
    if state.out[seat] is not None:
        raise NotYourTurn(f"seat {seat} is out of the game")
    if now_ms > due:
        raise IllegalAction(
            f"the timeout due at {due} ms comes before an input at {now_ms} ms; apply it first"
        )
    if cls is Flip:
        _check_flip(state, seat)
        return _start_flip(state, now_ms, auto=False)
    return _call(state, seat, check_rt(action.rt_ms), now_ms)  # type: ignore[union-attr]


def _check_flip(state: State, seat: int) -> None:
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn to flip, not seat {seat}'s")
    if state.race:
        raise IllegalAction(
            f"a call is being decided (at {state.decide_ms} ms): flip after the decision"
        )
    if state.flipping is not None:
        raise IllegalAction(f"seat {seat} has flipped; its card has not been revealed yet")
    if state.clock_ms < state.flip_open_ms:
        raise IllegalAction(
            f"too early to flip: flips open at {state.flip_open_ms} ms, "
            f"{state.options.min_flip_interval_ms} ms after the reveal at {state.reveal_ms} ms "
            "(the timeout due then opens them)"
        )


def _apply_timeout(state: State, now: int) -> State:
    # The referee's input at the deadline: decide the race, open flips, or flip for the turn.
    if state.race:
        return _decide(state, now)
    if state.flipping is not None:
        return _flip(state, state.turn, now, auto=state.flipping[2])
    if state.clock_ms < state.flip_open_ms:
        new = state.clone()
        new.clock_ms = now
        new.steps = state.steps + 1
        return new
    return _start_flip(state, now, auto=True)


def _start_flip(state: State, now: int, auto: bool) -> State:
    # N3: the seat to act flips at ``now`` (by its key, or by the turn timer): its card is
    # revealed after a delay drawn from the seed, at a deadline of its own.
    opts = state.options
    seed = state.seed if state.seed is not None else 0
    delay = derive_rng(seed, "snap", "reveal_delay", state.seq + 1).randint(
        opts.reveal_delay_min_ms, opts.reveal_delay_max_ms
    )
    new = state.clone()
    new.clock_ms = now
    new.steps = state.steps + 1
    new.flipping = (now, now + delay, auto)
    return new


def _recycle(
    state: State, stocks: list[tuple[Card, ...]], piles: list[tuple[Card, ...]], seat: int
) -> None:
    # N3: turn ``seat``'s face-up pile over into its (empty) stock; ``state`` is under construction.
    rng = None
    if state.options.shuffle_on_recycle:
        seed = state.seed if state.seed is not None else 0
        rng = derive_rng(seed, "snap", "recycle", state.recycles)
    stocks[seat] = turn_over(piles[seat], rng)
    piles[seat] = ()
    state.recycles += 1


def _flip(state: State, seat: int, now: int, auto: bool) -> State:
    # N3: the reveal of ``seat``'s flip: its top card (recycling first if its stock is empty)
    # goes face up at time ``now``.
    new = state.clone()
    new.flipping = None
    stocks = list(state.stocks)
    piles = list(state.piles)
    recycled = not stocks[seat]
    if recycled:
        _recycle(new, stocks, piles, seat)
    stock = stocks[seat]
    card = stock[0]
    stocks[seat] = stock[1:]
    piles[seat] = piles[seat] + (card,)
    new.prev_valid = snap_valid(state)
    new.stocks = tuple(stocks)
    new.piles = tuple(piles)
    new.seq = seq = state.seq + 1
    new.reveal_ms = new.clock_ms = new.timer_from_ms = now
    new.flip_open_ms = now + state.options.min_flip_interval_ms
    new.counted = 0
    new.decided_ms = None
    new.last_flipper = seat
    new.turn = next_in(state.out, seat)
    new.steps = state.steps + 1
    new.log = (state.log, ("flip", seq, seat, card, now, auto, recycled))
    # N8: an arrangement repeated with no capture and no snap showing since it was first seen
    # (a loop; not with shuffle_on_recycle), or the flip cap, ends the game.
    if not state.options.shuffle_on_recycle:
        arrangement = (new.turn, new.stocks, new.piles, new.pot)
        if snap_valid(new):  # a snap showing, even if missed: the cycle is not dead
            new.seen = frozenset()
        elif arrangement in state.seen:
            _end(new, "loop", now)
            return new
        else:
            new.seen = state.seen | {arrangement}
    if seq >= FLIP_CAP:
        _end(new, "flip_cap", now)
    return new


def _call(state: State, seat: int, rt_ms: int | None, now: int) -> State:
    # N6, N7, N9: judge a call (see the module docstring) and build the next state.
    rt = rt_ms if rt_ms is not None else now - state.reveal_ms
    anticipation = is_anticipation(rt)
    bit = 1 << seat
    if state.seq == 0 or (anticipation and state.seq == 1):
        verdict = EARLY
    elif state.counted & bit:
        verdict = REPEAT
    elif state.decided_ms is not None and now - state.decided_ms <= state.options.late_call_ms:
        verdict = LATE
    elif snap_valid(state) and (state.prev_valid or not anticipation):
        verdict = RACE
    elif anticipation and state.prev_valid:
        verdict = STALE
    else:
        verdict = FALSE
    new = state.clone()
    new.clock_ms = now
    new.steps = state.steps + 1
    receiver = None
    recycled = False
    if verdict == RACE:
        new.counted = state.counted | bit
        new.race = state.race + ((seat, rt, now),)
        if not state.race:
            new.decide_ms = now + state.options.decision_window_ms
    elif verdict == FALSE:
        new.counted = state.counted | bit
        receiver = _receiver(state, seat)
        stocks = list(state.stocks)
        recycled = not stocks[seat]
        if recycled:
            piles = list(state.piles)
            _recycle(new, stocks, piles, seat)
            new.piles = tuple(piles)
        given = stocks[seat][0]
        stocks[seat] = stocks[seat][1:]
        stocks[receiver] = stocks[receiver] + (given,)
        new.stocks = tuple(stocks)
    new.log = (
        state.log,
        ("call", state.seq, seat, rt, now, verdict, anticipation, receiver, recycled),
    )
    if verdict == FALSE:
        settle(new, now)
    return new


def _receiver(state: State, caller: int) -> int:
    # N7: the last flipper, else the nearest seat still in counter-clockwise from it.
    n = state.players
    start = state.last_flipper
    assert start is not None
    for step in range(n):
        s = (start - step) % n
        if s != caller and state.out[s] is None:
            return s
    raise AssertionError("a false call with nobody else in the game")


def _decide(state: State, now: int) -> State:
    # N6: decide the pending race at time ``now`` from the arrangement now.
    opts = state.options
    entries = [RaceEntry(seat, rt) for seat, rt, _ in state.race]
    shown = tuple((e.seat, e.rt_ms) for e in sorted(entries, key=lambda e: (e.rt_ms, e.seat)))
    claim, pot_in = claim_set(state)
    new = state.clone()
    new.race = ()
    new.decide_ms = None
    new.decided_ms = new.clock_ms = new.timer_from_ms = now
    new.steps = state.steps + 1
    if state.flipping is not None and state.flipping[1] < now:  # the reveal waited for this
        new.flipping = (state.flipping[0], now, state.flipping[2])
    seq = state.seq
    if not claim:
        new.log = (state.log, ("void", seq, shown, now))
        return new
    group = first_group(entries, opts.tie_window)
    if len(group) > 1 and opts.index_card:  # N6: no ties with the index card
        seed = state.seed if state.seed is not None else 0
        group = [derive_rng(seed, "snap", "index_card", seq).choice(group)]
    n = state.players
    last = state.last_flipper
    assert last is not None
    order = sorted(claim, key=lambda s: (s - last) % n)
    piles = list(state.piles)
    moved: tuple[Card, ...] = ()
    for s in order:
        moved += piles[s]
        piles[s] = ()
    new.piles = tuple(piles)
    if len(group) == 1:  # win: the Pot first, then the piles, under the winner's stock
        winner = group[0].seat
        taken = (state.pot if pot_in else ()) + moved
        stocks = list(state.stocks)
        stocks[winner] = stocks[winner] + taken
        new.stocks = tuple(stocks)
        if pot_in:
            new.pot = ()
        event: tuple[Any, ...] = (
            "win",
            seq,
            winner,
            claim,
            len(state.pot) if pot_in else 0,
            len(taken),
            shown,
            now,
        )
    else:  # tie: the claimed piles onto the Snap Pot, a matching card on top
        new.pot = state.pot + moved
        event = ("tie", seq, tuple(sorted(e.seat for e in group)), claim, len(new.pot), shown, now)
    new.log = (state.log, event)
    new.seen = frozenset()
    # N6: play continues left of the last flipper: the turn passed there at the flip, and
    # settle passes it on clockwise if that seat has just gone out.
    settle(new, now)
    return new


def settle(state: State, now: int) -> None:
    """N8 on a state under construction, after cards changed hands: seats with no cards go out
    (together at one elimination moment), then the game ends if at most one seat is still in or
    the position is dead; otherwise a seat to act that went out passes the turn clockwise."""
    out = state.out
    gone = tuple(
        s
        for s, (o, stock, pile) in enumerate(zip(out, state.stocks, state.piles, strict=True))
        if o is None and not stock and not pile
    )
    if gone:
        state.outs += 1
        state.out = out = tuple(state.outs if s in gone else o for s, o in enumerate(out))
        state.log = (state.log, ("out", state.seq, gone, now))
    if out.count(None) <= 1:
        _end(state, "last_seat", now)
    elif dead_position(state):
        _end(state, "dead_position", now)
    elif state.out[state.turn] is not None:
        state.turn = next_in(state.out, state.turn)
        state.timer_from_ms = max(state.timer_from_ms, now)
        state.flipping = None  # a flipper gone out flips nothing


def _end(state: State, reason: str, now: int) -> None:
    # End the game (a state under construction).
    state.over = reason
    state.race = ()
    state.decide_ms = None
    state.flipping = None
    state.log = (state.log, ("end", state.seq, reason, now))


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` if ``state`` is inconsistent: cards not conserved (every card in
    play exactly once in a stock, a face-up pile or the Pot), a seat out holding cards or a seat
    in holding none, the turn or a pending call on a seat out, race bookkeeping, or times."""
    n = state.players
    assert len(state.piles) == len(state.out) == n
    everything = [*state.pot]
    for s, (stock, pile, out) in enumerate(zip(state.stocks, state.piles, state.out, strict=True)):
        everything += stock
        everything += pile
        if out is None:
            assert stock or pile, f"seat {s} is in but holds no cards"
        else:
            assert not stock and not pile, f"seat {s} is out but holds cards"
            assert 1 <= out <= state.outs
    cards = set(everything)
    assert len(cards) == len(everything), "a card is in two places"
    assert cards == state.deck, "cards are not conserved"
    assert (state.seq == 0) == (state.last_flipper is None)
    assert state.seq <= FLIP_CAP
    assert state.clock_ms >= state.reveal_ms
    if state.seq:
        assert state.flip_open_ms == state.reveal_ms + state.options.min_flip_interval_ms
    assert (state.decide_ms is None) == (not state.race)
    seats = [seat for seat, _, _ in state.race]
    assert len(set(seats)) == len(seats), "a seat has two pending calls"
    for seat in seats:
        assert state.counted >> seat & 1 and state.out[seat] is None
    if state.flipping is not None:
        flipped, due, _ = state.flipping
        assert flipped <= state.clock_ms and flipped >= state.flip_open_ms
        assert due >= flipped + state.options.reveal_delay_min_ms
        assert due >= state.clock_ms or state.race, "a reveal is overdue"
    if state.over is None:
        assert state.out.count(None) >= 2
        assert state.out[state.turn] is None, "the turn is on a seat that is out"
        assert state.seq < FLIP_CAP
    else:
        assert not state.race and state.flipping is None
