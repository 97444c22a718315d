"""One table: a game's options, seats, the record (seed + every accepted input with its time),
the current state and a ``state_id`` that increases with every change.

``submit(seat, state_id, action, now_ms)`` returns :class:`Accepted` or :class:`Rejected` with a
machine-readable code and a sentence: a stale ``state_id`` is refused with the expected id, and
a refused input changes nothing. ``advance(now_ms)`` applies the game's timeout when its deadline
has passed. After each change the table gives each seat its view and legal actions.

A table records the version it is played under (:func:`play_version`: the game's
``rules_version`` and ``core.rng.CHANCE_VERSION``), so that a stored record is only ever
replayed under the rules and chance it was played with: a table rebuilt with another version
raises :class:`VersionMismatch` instead of dealing other cards to the same inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.core import CHANCE_VERSION, AnyGame, Decide, ParlourError, Timeout
from parlour.core.race import OpenRace
from parlour.games.registry import get_game

SEAT_KINDS = ("human", "bot", "open")

LEGACY_CHANCE = 1
"""The chance of records stored before tables recorded a version: Python's ``random``."""


def play_version(spec: AnyGame, chance: int | None = None) -> str:
    """The version a game of ``spec`` is played under: ``"<game>-r<rules>-c<chance>"`` (the
    chance in force now: ``core.rng.CHANCE_VERSION``, unless ``chance`` is given).

    >>> from parlour.games.registry import get_game
    >>> play_version(get_game("scan"))
    'scan-r1-c2'
    """
    return f"{spec.name}-r{spec.rules_version}-c{CHANCE_VERSION if chance is None else chance}"


def legacy_version(game: str) -> str:
    """The version of a record stored before versions were recorded (rules 1, chance 1)."""
    return f"{game}-r1-c{LEGACY_CHANCE}"


class VersionMismatch(ValueError):
    """A stored table was played under other rules or other chance than this Parlour's: it
    is not replayed (the same inputs would not give the same game)."""

    def __init__(self, table_id: str, stored: str, current: str) -> None:
        super().__init__(
            f"table {table_id} was played under {stored}, and this Parlour plays {current}: "
            "replaying its record would not give the same game, so it is not replayed"
        )
        self.table_id = table_id
        self.stored = stored
        self.current = current


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: a ``human`` (with a display name), a ``bot`` (with its level) or an
    ``open`` seat waiting for a player. ``away``: a computer plays for this absent human (the
    server's turn timer ran out; ``parlour.server.away``)."""

    kind: str
    name: str = ""
    level: str = ""
    away: bool = False

    def __post_init__(self) -> None:
        if self.kind not in SEAT_KINDS:
            raise ValueError(f"a seat is one of {', '.join(SEAT_KINDS)}, not {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        """``kind``, ``name``, ``level``, and ``away: true`` for an away human."""
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "level": self.level}
        if self.away:
            out["away"] = True
        return out


@dataclass(frozen=True)
class RecordEntry:
    """One accepted input: its sequence number (1, 2, …), the seat (``None`` for a timeout),
    the action's JSON form and the time it was applied."""

    seq: int
    seat: int | None
    action: dict[str, Any]
    now_ms: int

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "seat": self.seat, "action": self.action, "now_ms": self.now_ms}


@dataclass(frozen=True)
class Accepted:
    """The input was applied: the new ``state_id`` and the record entry to store."""

    state_id: int
    entry: RecordEntry
    ok: bool = True


@dataclass(frozen=True)
class Rejected:
    """The input was refused and changed nothing: ``code`` (``stale_state``, ``not_your_turn``,
    ``illegal_action``, ``invalid_action``, ``game_over``, ``not_started``), a human sentence,
    and the current ``state_id``."""

    code: str
    message: str
    state_id: int
    ok: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "state_id": self.state_id}


@dataclass(frozen=True)
class Mark:
    """A point in a table's history (:meth:`Table.mark`)."""

    state: Any
    state_id: int
    record_len: int


@dataclass
class Table:
    """The authority for one game (see the module docstring).

    ``started`` is false while open seats wait for players; nothing is accepted before the
    start. ``state_id`` starts at 0 and increases by one with every accepted input.
    ``version``: what the record was played under (empty: a new table, played under
    :func:`play_version`); raises :class:`VersionMismatch` if that is not this Parlour's.
    """

    table_id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[SeatInfo]
    started: bool = True
    record: list[RecordEntry] = field(default_factory=list)
    version: str = ""
    spec: AnyGame = field(init=False, repr=False)
    state: Any = field(init=False, repr=False)
    state_id: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.spec = get_game(self.game)
        current = play_version(self.spec)
        if self.version and self.version != current:
            raise VersionMismatch(self.table_id, self.version, current)
        self.version = current
        if len(self.seats) != self.options.get("players", len(self.seats)):
            raise ValueError("the number of seats and the players option differ")
        self.options = {**self.options, "players": len(self.seats)}
        self.state = self.spec.new_state(self.options, self.seed)
        entries, self.record = self.record, []
        for entry in entries:  # rebuild from a stored record
            result = self.replay_entry(entry)
            if not result.ok:
                raise ValueError(f"stored input {entry.seq} no longer applies: {result}")

    # ------------------------------------------------------------------ inputs

    def submit(
        self, seat: int | None, state_id: int, action: Any, now_ms: int
    ) -> Accepted | Rejected:
        """Apply ``action`` (an action object, or its JSON form) for ``seat`` if ``state_id`` is
        the current one; otherwise, or if the rules refuse it, change nothing and say why."""
        if not self.started:
            return Rejected("not_started", "the game has not started yet", self.state_id)
        if state_id != self.state_id:
            return Rejected(
                "stale_state",
                f"the table has moved on: state {self.state_id}, not {state_id}",
                self.state_id,
            )
        if isinstance(action, dict):
            try:
                action = self.spec.action_from_json(action)
            except ParlourError as error:
                return Rejected(error.code, error.message, self.state_id)
        if seat is None or isinstance(action, (Timeout, Decide)):
            text = "timeouts and decisions are applied by the table"
            return Rejected("invalid_action", text, self.state_id)
        return self._apply(seat, action, now_ms)

    def advance(self, now_ms: int) -> Accepted | None:
        """Apply the game's timeout if its deadline has passed by ``now_ms``; ``None`` if not."""
        if not self.started or self.outcome() is not None:
            return None
        due = self.spec.deadline(self.state)
        if due is None or now_ms < due:
            return None
        result = self._apply(None, Timeout(), max(now_ms, due))
        return result if isinstance(result, Accepted) else None

    def replay_entry(self, entry: RecordEntry) -> Accepted | Rejected:
        """Apply one stored input exactly as recorded (a seat's input, a timeout or a
        decision), as when the table is rebuilt from its record."""
        try:
            action = self.spec.action_from_json(entry.action)
        except ParlourError as error:
            return Rejected(error.code, error.message, self.state_id)
        return self._apply(entry.seat, action, entry.now_ms)

    def race(self) -> OpenRace | None:
        """The race waiting for a decision in a real-time game, if any (N9)."""
        if not self.started or self.spec.race is None:
            return None
        found: OpenRace | None = self.spec.race(self.state)
        return found

    def decide(self, now_ms: int) -> Accepted | None:
        """Decide the pending race now, before its deadline (N9: the referee knows nobody can
        still come in earlier); ``None`` if there is no race or it cannot be decided now."""
        if self.race() is None:
            return None
        result = self._apply(None, Decide(), now_ms)
        return result if isinstance(result, Accepted) else None

    def _apply(self, seat: int | None, action: Any, now_ms: int) -> Accepted | Rejected:
        try:
            self.state = self.spec.apply(self.state, seat, action, now_ms)
        except ParlourError as error:
            return Rejected(error.code, error.message, self.state_id)
        self.state_id += 1
        entry = RecordEntry(self.state_id, seat, action.to_json(), now_ms)
        self.record.append(entry)
        return Accepted(self.state_id, entry)

    def mark(self) -> Mark:
        """Where the table is now, to come back to with :meth:`restore` (states are immutable,
        so this is cheap)."""
        return Mark(self.state, self.state_id, len(self.record))

    def restore(self, mark: Mark) -> None:
        """Take back every input accepted since ``mark`` (e.g. when storing them failed)."""
        if mark.record_len > len(self.record) or mark.state_id > self.state_id:
            raise ValueError("that mark is ahead of the table")
        self.state, self.state_id = mark.state, mark.state_id
        del self.record[mark.record_len :]

    # ------------------------------------------------------------------ outputs

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), with the ``state_id`` and the seats."""
        shown = self.spec.view(self.state, seat)
        return {
            **shown,
            "table_id": self.table_id,
            "state_id": self.state_id,
            "started": self.started,
            "seat_info": [s.to_json() for s in self.seats],
        }

    def legal_actions(self, seat: int) -> list[Any]:
        """``seat``'s legal actions now (none before the start)."""
        return self.spec.legal_actions(self.state, seat) if self.started else []

    def refusals(self, seat: int) -> dict[str, str]:
        """Why actions ``seat`` could put together are not legal now (the game's ``refusals``;
        empty for a game without it, and before the start)."""
        if not self.started or self.spec.refusals is None:
            return {}
        return self.spec.refusals(self.state, seat)

    def to_act(self) -> list[int]:
        """The seats that may act now."""
        return list(self.spec.to_act(self.state)) if self.started else []

    def deadline(self) -> int | None:
        """When the game's timeout is due, if any."""
        return self.spec.deadline(self.state) if self.started else None

    def outcome(self) -> Any:
        """``None`` while the game goes on; then scores and ranks."""
        return self.spec.outcome(self.state)

    def take_seat(self, seat: int, name: str) -> None:
        """A human takes an open seat; raises ``ValueError`` if it is not open."""
        if self.seats[seat].kind != "open":
            raise ValueError(f"seat {seat} is not open")
        self.seats[seat] = SeatInfo("human", name)

    def fill_with_bot(self, seat: int, level: str) -> None:
        """The host puts a bot in an open seat; raises ``ValueError`` if it is not open."""
        if self.seats[seat].kind != "open":
            raise ValueError(f"seat {seat} is not open")
        self.seats[seat] = SeatInfo("bot", level.capitalize(), level)

    def start(self) -> None:
        """Start the game; raises ``ValueError`` while a seat is still open."""
        if any(s.kind == "open" for s in self.seats):
            raise ValueError("every seat needs a player or a bot before the start")
        self.started = True
