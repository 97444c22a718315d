"""The conformance check every game must pass (a shared test helper, stdlib only).

:func:`check_game` plays a seeded random game through a game's protocol and checks, at every
step, what DESIGN.md asks of every engine:

- the game terminates; while it is not over some seat may act, and every seat that may act has
  a legal action;
- every legal action applies; an action that is not legal is refused with a ``ParlourError``
  and the state is left unchanged (states are never modified in place);
- the game's own invariants hold (for card games: every card is in exactly one place);
- text and JSON forms of every action round-trip;
- views are JSON-ready, contain none of the seat's hidden information, and do not change when
  everything hidden from that seat is redrawn;
- replaying seed + actions rebuilds the identical state.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.protocol import AnyGame, Decide, Timeout


@dataclass
class GameRecord:
    """A played game: its options, seed, every applied ``(seat, action, now_ms)`` and the end."""

    options: Any
    seed: int | str
    moves: list[tuple[int | None, Any, int]] = field(default_factory=list)
    final: Any = None


def _pieces(obj: Any, out: set[Any]) -> Any:
    # Add to ``out`` every list and scalar nested in obj, in a hashable form (lists as tuples,
    # booleans tagged so that they never equal numbers); dicts are searched, not matched whole.
    kind = type(obj)
    if kind is list or kind is tuple:
        frozen: Any = tuple([_pieces(item, out) for item in obj])
    elif isinstance(obj, dict):  # a dict, or a read-only one (a shared event)
        for key, value in obj.items():
            out.add(key)
            _pieces(value, out)
        return None
    elif kind is bool:
        frozen = ("bool", obj)
    else:
        frozen = obj
    out.add(frozen)
    return frozen


def contains(haystack: Any, needle: Any) -> bool:
    """Whether ``needle`` (a list or a scalar) equals ``haystack`` or any list or scalar nested
    in it (dict keys and values, list items); ``true`` never equals ``1``.

    >>> contains({"a": [1, [2, 3]]}, [2, 3]), contains({"a": [1, 2]}, [1]), contains([1], True)
    (True, False, False)
    """
    pieces: set[Any] = set()
    _pieces(haystack, pieces)
    return _pieces(needle, set()) in pieces


def unmistakable(secret: Any) -> bool:
    """Whether a hidden value found in a view can only be a leak: a list of three or more items
    (a hand, a stock, a SCAN card of four designs) or a number of seven digits or more (the
    seed). Anything smaller — one SCOUT card ``[3, 5]``, one SNAP card ``"10H"`` — may equal a
    public value by chance (a two-player table's totals, a top card named in the log).

    >>> unmistakable([[1, 2], [3, 4], [5, 6]]), unmistakable([3, 5]), unmistakable("10H")
    (True, False, False)
    """
    if isinstance(secret, list | tuple):
        return len(secret) >= 3
    return isinstance(secret, int) and not isinstance(secret, bool) and abs(secret) >= 10**6


def pieces_of(value: Any) -> set[Any]:
    """Every list and scalar nested in ``value`` in hashable form (see :func:`contains`)."""
    out: set[Any] = set()
    _pieces(value, out)
    return out


def leaked(
    spec: AnyGame,
    state: Any,
    seat: int | None,
    shown: Any,
    rng: random.Random,
    seen: Callable[[Any], Any] | None = None,
) -> list[Any]:
    """The values of ``spec.hidden_info(state, seat)`` that ``shown`` (what ``seat`` was
    given: a view, a history) reveals. An :func:`unmistakable` value found in ``shown`` is a
    leak; a smaller one is a leak unless it is also in what ``seat`` would be given with
    everything hidden redrawn (``seen(scrambled state)``, by default the view): then it is a
    public value that happens to be equal (a leaked card moves with the scramble, a total
    does not)."""
    pieces = pieces_of(shown)
    found = [s for s in spec.hidden_info(state, seat) if _pieces(s, set()) in pieces]
    if not all(unmistakable(s) for s in found):
        build = seen if seen is not None else (lambda other: spec.view(other, seat))
        public = pieces_of(build(spec.scramble_hidden(state, seat, rng)))
        found = [s for s in found if unmistakable(s) or _pieces(s, set()) not in public]
    return found


def check_view(
    spec: AnyGame, state: Any, seat: int | None, rng: random.Random, since: int = 0
) -> list[Any]:
    """Check one view: JSON-ready, none of ``hidden_info`` in it (:func:`leaked`), and
    unchanged when everything hidden from ``seat`` is redrawn by ``scramble_hidden``; the same
    for the game's history as ``seat`` is sent it (``spec.history``), when it has one: its
    events after the first ``since`` (all of them by default). Returns the history's events
    checked (none for a game without ``history``)."""
    shown = spec.view(state, seat)
    text = json.dumps(shown)
    assert json.loads(text) == shown, "a view must survive a JSON round trip unchanged"
    found = leaked(spec, state, seat, shown, rng)
    assert not found, f"seat {seat}'s view shows hidden {found!r}"
    other = spec.scramble_hidden(state, seat, rng)
    assert spec.view(other, seat) == shown, f"seat {seat}'s view depends on hidden information"
    if spec.history is None:
        return []
    history = spec.history
    past = history(state, seat, since)
    assert json.loads(json.dumps(past)) == past, "a history must be JSON-ready"
    found = leaked(spec, state, seat, past, rng, lambda o: history(o, seat, since))
    assert not found, f"seat {seat}'s history shows hidden {found!r}"
    assert history(other, seat, since) == past, (
        f"seat {seat}'s history depends on hidden information"
    )
    return past


def _full_check(step: int) -> bool:
    # Whether the views at ``step`` are checked with their whole history, not only its new
    # events: the first ten steps and every power of two (so that a long game costs little
    # more than a short one: a history grows with the game).
    return step <= 10 or step & (step - 1) == 0


def _check_views(
    spec: AnyGame,
    state: Any,
    viewers: list[int | None],
    rng: random.Random,
    told: dict[int | None, list[Any]],
    full: bool,
) -> None:
    # Every viewer's view and history (:func:`check_view`); ``told`` keeps each viewer's history
    # as checked so far: a full check also checks that none of it has changed since (events
    # never change once logged: a server may send only the new ones), otherwise only the events
    # after it are checked.
    for viewer in viewers:
        kept = told.setdefault(viewer, [])
        if full:
            past = check_view(spec, state, viewer, rng)
            assert past[: len(kept)] == kept, f"seat {viewer}'s history changed an event"
            kept[:] = past
        else:
            kept += check_view(spec, state, viewer, rng, since=len(kept))


def _round_trip(spec: AnyGame, action: Any) -> None:
    assert spec.parse_action(str(action)) == action, f"text form of {action!r} does not round-trip"
    wire = json.loads(json.dumps(action.to_json()))
    assert spec.action_from_json(wire) == action, f"JSON form of {action!r} does not round-trip"


def play_random(
    spec: AnyGame,
    options: Any,
    seed: int | str,
    rng: random.Random,
    *,
    max_steps: int = 100_000,
    on_step: Callable[[Any, int | None, Any, int], None] | None = None,
    timeout_chance: float = 0.3,
) -> GameRecord:
    """Play a whole game choosing uniformly among legal actions (acting seat chosen at random
    among ``to_act``); raises ``AssertionError`` if it has not ended after ``max_steps``.

    Real-time games: while ``deadline(state)`` is set, time moves forward by a random amount not
    past the deadline before each action, and with probability ``timeout_chance`` (always, when
    no seat may act) the player lets the deadline pass: ``Timeout()`` is applied at the deadline.
    While a race is pending (``spec.race``), the referee sometimes decides it early with
    ``Decide()`` at a random time before the deadline.
    Turn-based games (no deadline) play at time 0. ``on_step(state, seat, action, now)`` is
    called before each action (``seat`` is ``None`` for a timeout).
    """
    state = spec.new_state(options, seed)
    record = GameRecord(options, seed)
    now = 0
    for _ in range(max_steps):
        if spec.outcome(state) is not None:
            record.final = state
            return record
        seats = list(spec.to_act(state))
        due = spec.deadline(state)
        pending = spec.race(state) if spec.race is not None else None
        if due is not None and (not seats or rng.random() < timeout_chance):
            assert due >= now, "a deadline lies in the past"
            now = due
            seat: int | None = None
            action: Any = Timeout()
        elif pending is not None and due is not None and rng.random() < timeout_chance:
            now = rng.randint(now, due)
            seat, action = None, Decide()
        else:
            assert seats, "the game is not over, nobody may act and there is no deadline"
            if due is not None:
                now = rng.randint(now, due)
            seat = rng.choice(seats)
            actions = spec.legal_actions(state, seat)
            assert actions, f"seat {seat} may act but has no legal action"
            action = rng.choice(actions)
        if on_step:
            on_step(state, seat, action, now)
        state = spec.apply(state, seat, action, now)
        record.moves.append((seat, action, now))
    raise AssertionError(f"the game did not end within {max_steps} steps")


def replay(spec: AnyGame, record: GameRecord) -> Any:
    """The state reached by applying a record's moves to a new game from its seed."""
    state = spec.new_state(record.options, record.seed)
    for seat, action, now in record.moves:
        state = spec.apply(state, seat, action, now)
    return state


def check_game(
    spec: AnyGame,
    options: Any,
    seed: int | str,
    *,
    views: bool = True,
    view_stride: int = 20,
    all_actions: bool = False,
    seats: Iterable[int] = (),
) -> GameRecord:
    """Play one seeded random game and check everything listed in this module's docstring.

    ``views``: check every seat's and a spectator's view (the costly part) at the first ten
    steps, every ``view_stride``-th step and every power of two after that, and at the end;
    with the game's whole history at the first ten steps, the powers of two and the end, and
    with its new events only at the others.
    ``all_actions``: apply every legal action at every step, not just a sample.
    ``seats``: the table's seats (for views and for refusing actions from the wrong seat).
    """
    rng = random.Random(f"conformance:{seed}")
    seat_list = list(seats)
    viewers: list[int | None] = [*seat_list, None]
    told: dict[int | None, list[Any]] = {}
    seen_actions: list[Any] = []
    step = 0

    def on_step(state: Any, seat: int | None, chosen: Any, now: int) -> None:
        nonlocal step
        step += 1
        spec.check_invariants(state)
        snapshot = copy.copy(state)
        if seat is None:  # a timeout: check the state it leads to, and the views, only
            spec.check_invariants(spec.apply(state, None, chosen, now))
            if views and (step % view_stride == 0 or _full_check(step)):
                _check_views(spec, state, viewers, rng, told, _full_check(step))
            assert state == snapshot, "apply or view changed the state it was given"
            return
        legal = spec.legal_actions(state, seat)
        assert legal == spec.legal_actions(state, seat), "legal_actions is not deterministic"
        tried = legal if all_actions else rng.sample(legal, min(3, len(legal)))
        for action in tried:
            _round_trip(spec, action)
            after = spec.apply(state, seat, action, now)
            spec.check_invariants(after)
        # Actions seen legal elsewhere: applied here they must succeed exactly when legal here.
        for action in rng.sample(seen_actions, min(4, len(seen_actions))):
            if action in legal:
                spec.apply(state, seat, action, now)
            else:
                try:
                    spec.apply(state, seat, action, now)
                except ParlourError:
                    pass
                else:
                    raise AssertionError(f"{action} was applied but is not in legal_actions")
        acting = set(spec.to_act(state))
        for other in seat_list:
            if other not in acting and legal:
                try:
                    spec.apply(state, other, legal[0], now)
                except ParlourError:
                    pass
                else:
                    raise AssertionError(f"seat {other} acted out of turn")
        if views and (step % view_stride == 0 or _full_check(step)):
            _check_views(spec, state, viewers, rng, told, _full_check(step))
        assert state == snapshot, "apply or view changed the state it was given"
        seen_actions.extend(rng.sample(legal, min(2, len(legal))))
        del seen_actions[:-200]

    record = play_random(spec, options, seed, rng, on_step=on_step)
    spec.check_invariants(record.final)
    if views:
        _check_views(spec, record.final, viewers, rng, told, full=True)
    assert replay(spec, record) == record.final, "seed + actions did not rebuild the same state"
    return record
