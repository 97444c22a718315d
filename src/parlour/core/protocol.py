"""The game protocol shared by SCOUT, SCAN and SNAP.

A game is a set of pure functions over immutable states, with time and randomness as inputs
(see DESIGN.md, "The game protocol"). :class:`GameSpec` bundles them so that tables, bots,
the arena and the conformance tests can treat every game alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from parlour.core.race import OpenRace

Seat = int
"""Seats are numbered 0..N-1; "left"/"next" is seat + 1 mod N."""


@runtime_checkable
class Action(Protocol):
    """What every action offers: a text form (``str``) and a JSON form (``to_json``)."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Timeout:
    """The input that advances a real-time game at its deadline, applied with seat ``None``."""

    def __str__(self) -> str:
        return "timeout"

    def to_json(self) -> dict[str, Any]:
        return {"type": "timeout"}


@dataclass(frozen=True, slots=True)
class Decide:
    """The referee closes a pending race now, before its deadline, applied with seat ``None``.

    A real-time game collects inputs for a while after the first one (its decision window), in
    case a later arrival reacted faster. The referee knows more than the engine: when nobody can
    still come in with an earlier reaction time (N9), it decides at once with ``Decide()``.
    """

    def __str__(self) -> str:
        return "decide"

    def to_json(self) -> dict[str, Any]:
        return {"type": "decide"}


S = TypeVar("S")
"""A game's state type."""
A = TypeVar("A")
"""A game's action type (real-time games' include ``Timeout`` and ``Decide``)."""
V = TypeVar("V", bound=Mapping[str, Any])
"""A game's view type: a ``TypedDict`` naming every key a view has."""


@dataclass(frozen=True)
class GameSpec(Generic[S, A, V]):
    """One game's implementation of the protocol, generic in its state, action and view types
    (``GameSpec[State, Action, ScoutView]``), so that mypy checks each game's functions
    against each other and what bots and tests read of a view against what the view holds.
    Code for any game (the table, the server) holds a ``GameSpec[Any, Any, Any]``.

    - ``new_state(options, seed)``: a new game; chance is drawn from ``seed``.
    - ``to_act(state)``: the seats that may act now, in seat order.
    - ``legal_actions(state, seat)``: every legal action of ``seat``, in a deterministic order.
    - ``apply(state, seat, action, now_ms)``: the next state; raises ``IllegalAction`` (or a
      subclass) or ``InvalidAction`` and leaves ``state`` unchanged.
    - ``view(state, seat)``: everything ``seat`` may see (``None``: a spectator), JSON-ready.
    - ``deadline(state)``: when a ``Timeout`` will advance the game, or ``None``.
    - ``outcome(state)``: ``None`` while the game goes on, then scores and ranks.
    - ``parse_action(text)`` / ``action_from_json(obj)``: the inverse of ``str`` / ``to_json``.
    - ``options_from_json(obj)``: the game's options from a JSON object (with defaults).
    - ``race(state)``: real-time games: the race waiting for a decision
      (:class:`parlour.core.race.OpenRace`), or ``None``; ``Decide()`` decides it early.
    - ``refusals(state, seat)``: optional: why actions a page lets a player put together are
      not legal now, as ``{key: reason code}`` (SCOUT: each run of neighbouring cards of the
      hand that may not be shown, keyed ``"start:length"``), so that a page can say why
      without holding any rule.

    What the rest of Parlour needs to know of a game, so that nothing outside ``games/`` names
    one:

    - ``setup``: what a lobby may choose, option by option: the allowed values (a tuple) or
      ``bool`` (the engine's ``options_from_json`` gives the defaults and checks combinations).
    - ``page``: the web page that plays the game (a file of the web folder); by default
      ``game.html``, which shows any game's view and offers its legal actions as buttons.
    - ``history(state, seat, since)``: the whole game's events as ``seat`` may see them, when
      the view's ``log`` holds only the current round; ``None``: the view's ``log`` is all.
    - ``timed``: the action types that carry a reaction time (real-time games).
    - ``late_calls_move_on``: real-time games: an input answering the previous reveal is
      credited on the current one (a call on the arrangement before).
    - ``excludes``: pairs of ``bool`` options of ``setup`` that may not both be on (the engine
      refuses them); a lobby turns the first off when the second is on.
    - ``option_players``: options that matter only at some player counts, ``(fewest, most)``
      (the engine ignores them at the others); a lobby offers them only there.
    - ``labels``: the message-catalogue keys a lobby shows, where they are not the usual
      ``lobby.<game>.<option>`` (an option; its hint adds ``_hint``, its words while another
      option turns it off ``_off``) and ``lobby.<game>.<value>`` (a choice): ``"option"``,
      ``"option=value"``, or ``"option/other"`` for an option's label while ``other`` is on.
    - ``device``: settings of this browser that the game's page reads (not sent to the
      server): a lobby offers each as a check box kept in ``localStorage`` as
      ``parlour.<name>`` (``"1"``/``"0"``).
    - card drawings are not the rules' business: a game's art (``designs``, ``drawings``)
      lives in :mod:`parlour.art`, found by the game's name.
    - ``lesson``: "Learn to play": a table on a fixed, named deal — ``{"seed": s, "players": n,
      "options": {...}}`` — where the learner has seat 0 and the other seats are ``tutor`` bots
      (``parlour.bots.levels.TUTOR``) that leave room for every kind of move; ``None``: the
      game has no lesson.
    - ``rules_version``: bumped whenever a change of the engine plays a stored record
      differently (with ``core.rng.CHANCE_VERSION``, stored tables record it: an old record is
      refused rather than replayed under other rules).

    Test hooks used by the conformance suite (``parlour.core.conformance``):

    - ``check_invariants(state)``: raises ``AssertionError`` if the state is inconsistent
      (for example, cards not conserved).
    - ``hidden_info(state, seat)``: JSON-ready values that ``seat`` must never see.
    - ``scramble_hidden(state, seat, rng)``: a state with the same public information and the
      same information for ``seat``, but everything hidden from ``seat`` redrawn at random.
    """

    name: str
    min_players: int
    max_players: int
    new_state: Callable[[Any, int | str], S]
    to_act: Callable[[S], Sequence[Seat]]
    legal_actions: Callable[[S, Seat], list[A]]
    apply: Callable[[S, Seat | None, A, int], S]
    view: Callable[[S, Seat | None], V]
    deadline: Callable[[S], int | None]
    outcome: Callable[[S], Mapping[str, Any] | None]
    parse_action: Callable[[str], A]
    action_from_json: Callable[[Any], A]
    options_from_json: Callable[[Any], Any]
    check_invariants: Callable[[S], None]
    hidden_info: Callable[[S, Seat | None], list[Any]]
    scramble_hidden: Callable[[S, Seat | None, random.Random], S]
    race: Callable[[S], OpenRace | None] | None = None
    setup: Mapping[str, Any] = field(default_factory=dict)
    page: str = "game.html"
    history: Callable[[S, Seat | None, int], list[dict[str, Any]]] | None = None
    timed: frozenset[str] = frozenset()
    late_calls_move_on: bool = False
    refusals: Callable[[S, Seat], dict[str, str]] | None = None
    excludes: tuple[tuple[str, str], ...] = ()
    option_players: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    device: tuple[str, ...] = ()
    lesson: Mapping[str, Any] | None = None
    rules_version: int = 1


AnyGame = GameSpec[Any, Any, Any]
"""A game not known in advance (the table, the server, the conformance check)."""
