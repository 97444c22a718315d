"""Hints for people: "Suggest a move" during the game, "turning points" after it.

A game offers hints when its bots have a coach (:func:`parlour.bots.levels.coach_of`); nothing
here knows which games do. Both are requests over the seat's own WebSocket (so its token is
what authenticates them) and both are worked out from that seat's view only, in the bots'
process pool, never on the event loop:

- ``hint`` ``{"state_id": n}``: the move the bot of ``Settings.hint_level`` (Expert) would
  make from this seat's view, with a one-line reason. Offered only at tables where every other
  seat is a computer (a hint from Expert against other people would be an unfair help), only on
  the seat's turn, for the current ``state_id``, at most ``hints_per_min`` a minute
  (``hint_burst`` at once) and one at a time per seat.
- ``turning_points`` ``{}``: once the game is over, at any table, the three moves of this seat
  that lost most expected points by the evaluation of its coach, each with the move made, the
  evaluation's best move, its reason and the points lost. Computed from the stored record, from
  the views this seat had at each of its moves, once per seat (then kept). The replay of a
  finished game shows every person's (``GET /api/replay/{id}/turning-points``).
"""

from __future__ import annotations

import asyncio
import random
import weakref
from typing import TYPE_CHECKING, Any, cast

from parlour.bots.levels import coach_of
from parlour.games.registry import get_game
from parlour.server.bots import bot_seed
from parlour.server.limits import AddressLimiter
from parlour.server.protocol import ProtocolError, error, message
from parlour.table import RecordEntry, SeatInfo, Table

if TYPE_CHECKING:
    from parlour.server.rooms import Connection, Room

TURNING_POINTS = 3
"""How many turning points a seat is shown at most."""

MIN_LOSS = 0.05
"""A move that lost less than this (expected points) is no turning point."""


def suggest_move(
    game: str, level: str, view: dict[str, Any], legal: list[str], seed: int
) -> dict[str, Any]:
    """The coach's suggestion from ``view`` among ``legal`` (text forms): ``action`` (JSON
    form), ``reason`` and ``params``, ``words`` (the move described). A plain function of plain
    data, run in the bots' process pool. Raises ``ValueError`` if the game has no coach."""
    coach = coach_of(game)
    if coach is None:
        raise ValueError(f"{game} offers no hints")
    spec = get_game(game)
    actions = [spec.parse_action(text) for text in legal]
    action, reason, params = coach.suggest(view, actions, random.Random(seed), level)
    key, move_params = coach.words(view, action)
    return {"action": action.to_json(), "reason": reason, "params": params,
            "words": {"key": key, "params": move_params}}  # fmt: skip


def turning_points(
    table_id: str,
    game: str,
    options: dict[str, Any],
    seed: int,
    seats: list[SeatInfo],
    entries: list[RecordEntry],
    seat: int,
) -> list[dict[str, Any]]:
    """The moves of ``seat`` in this record that lost most expected points (at most
    :data:`TURNING_POINTS`, worst first), each ``{"seq", "round", "move", "played", "best",
    "loss", "reason", "params"}`` (``seq``: the move's place in the record, its replay frame;
    ``played``/``best``: the moves in words). Each move is judged from
    the view ``seat`` had then. A plain function of plain data, run in the bots' process pool.
    A move the coach says can be made once a round (its ``ONCE_PER_ROUND`` move keys) is
    suggested at one turning point a round at most. Raises ``ValueError`` if the game has no
    coach or the record no longer applies."""
    coach = coach_of(game)
    if coach is None:
        raise ValueError(f"{game} offers no hints")
    table = Table(table_id, game, options, seed, list(seats), started=True)
    found: list[tuple[float, tuple[int, int, int], dict[str, Any], list[Any], Any, Any]] = []
    moves: dict[int, int] = {}
    for entry in entries:
        if entry.seat == seat:
            view = table.view(seat)
            legal = table.legal_actions(seat)
            played = table.spec.action_from_json(entry.action)
            if len(legal) > 1:
                best, loss = coach.regret(view, legal, played)
                number = moves[view["round"]] = moves.get(view["round"], 0) + 1
                if loss >= MIN_LOSS:
                    at = (entry.seq, view["round"], number)
                    found.append((loss, at, view, legal, played, best))
        if not table.replay_entry(entry).ok:
            raise ValueError(f"stored input {entry.seq} no longer applies")
    found.sort(key=lambda f: -f[0])
    once = set(getattr(coach, "ONCE_PER_ROUND", ()))
    points: list[dict[str, Any]] = []
    said: set[tuple[int, str]] = set()
    for loss, (seq, round_no, number), view, legal, played, best in found:
        if len(points) == TURNING_POINTS:
            break
        key = coach.words(view, best)[0]
        if key in once and (round_no, key) in said:
            continue  # a move that can be made once a round is suggested once a round
        said.add((round_no, key))
        reason, params = coach.explain(view, legal, best)
        points.append({
            "seq": seq, "round": round_no, "move": number, "loss": round(loss, 1),
            "played": _words(coach, view, played), "best": _words(coach, view, best),
            "reason": reason, "params": params,
        })  # fmt: skip
    return points


def _words(coach: Any, view: dict[str, Any], action: Any) -> dict[str, Any]:
    key, params = coach.words(view, action)
    return {"key": key, "params": params}


class Coach:
    """One room's hints: the rate limit per seat, the hints being worked out, the turning
    points already computed (see the module docstring)."""

    def __init__(self, room: Room) -> None:
        self.room = cast("Room", weakref.proxy(room))
        """The room, weakly: it owns this, and a dropped room then goes with reference counting
        alone (a cycle would wait for the garbage collector: see ``GcKeeper``)."""
        settings = room.hub.settings
        self.limit = AddressLimiter(settings.hints_per_min, settings.hint_burst)
        self.busy: set[int] = set()
        self.points: dict[int, asyncio.Future[list[dict[str, Any]]]] = {}

    def offered(self, seat: int) -> bool:
        """Whether ``seat`` may ask for hints: the game has a coach, and every other seat is a
        computer."""
        table = self.room.table
        others = [s for i, s in enumerate(table.seats) if i != seat]
        return coach_of(table.game) is not None and all(s.kind == "bot" for s in others)

    async def hint(self, conn: Connection, body: dict[str, Any]) -> None:
        """Answer a ``hint`` message with a ``hint`` (``state_id``: the state it is for), or
        with an ``error`` (``ref`` echoed in both): ``spectator``, ``no_hints`` (no coach, or
        other people at the table), ``not_started``, ``game_over``, ``stale_state``,
        ``not_your_turn`` or ``rate_limited``."""
        ref = body.get("ref")
        extra = {"ref": ref} if ref is not None else {}
        try:
            answer = await self._hint(conn.seat, body["state_id"])
        except ProtocolError as exc:
            conn.send(error(exc.code, self.room.table.state_id, exc.message, **extra))
            return
        conn.send(message("hint", body["state_id"], **answer, **extra))

    async def _hint(self, seat: int | None, state_id: int) -> dict[str, Any]:
        table = self.room.table
        if seat is None:
            raise ProtocolError("spectator")
        if not self.offered(seat):
            raise ProtocolError("no_hints")
        if not table.started:
            raise ProtocolError("not_started")
        if table.outcome() is not None:
            raise ProtocolError("game_over")
        if state_id != table.state_id:
            text = f"the table has moved on: state {table.state_id}, not {state_id}"
            raise ProtocolError("stale_state", text)
        legal = table.legal_actions(seat)
        if not legal:
            raise ProtocolError("not_your_turn")
        if seat in self.busy:
            raise ProtocolError("rate_limited", "a hint is being worked out: wait for it")
        wait = self.limit.take(str(seat))
        if wait:
            most = self.room.hub.settings.hints_per_min
            text = f"at most {most:g} hints a minute: try again in {wait:.0f} s"
            raise ProtocolError("rate_limited", text)
        view = table.view(seat)
        level = self.room.hub.settings.hint_level
        seed = bot_seed(table.seed, seat, state_id) ^ 0xC0AC4
        self.busy.add(seat)
        try:
            answer: dict[str, Any] = await self.room.hub.bots.call(
                suggest_move, table.game, level, view, [str(a) for a in legal], seed
            )
        finally:
            self.busy.discard(seat)
        return answer

    async def turning_points(self, conn: Connection) -> None:
        """Answer a ``turning_points`` message with ``turning_points`` ``{"points": [...]}``.
        Raises :class:`ProtocolError` ``spectator``, ``no_hints`` (the game has no coach) or
        ``not_finished``."""
        if conn.seat is None:
            raise ProtocolError("spectator")
        points = await self.points_for(conn.seat)
        conn.send(message("turning_points", self.room.table.state_id, points=points))

    async def points_for(self, seat: int) -> list[dict[str, Any]]:
        """The turning points of ``seat`` in the finished game (worked out once, in the bots'
        pool). Raises :class:`ProtocolError` ``no_hints`` or ``not_finished``."""
        table = self.room.table
        if coach_of(table.game) is None:
            raise ProtocolError("no_hints")
        if table.outcome() is None:
            raise ProtocolError("not_finished")
        pending = self.points.get(seat)
        if pending is None:
            args = (table.table_id, table.game, table.options, table.seed, list(table.seats),
                    list(table.record), seat)  # fmt: skip
            pending = asyncio.ensure_future(self.room.hub.bots.call(turning_points, *args))
            self.points[seat] = pending
        try:
            return await asyncio.shield(pending)
        except Exception:
            self.points.pop(seat, None)
            raise

    async def replay_points(self) -> list[dict[str, Any]]:
        """Every person's turning points in the finished game, for its replay (which shows
        every hand anyway): ``[{"seat", "name", "points"}]``. Raises :class:`ProtocolError`
        ``no_hints`` or ``not_finished``."""
        seats = self.room.table.seats
        people = [i for i, s in enumerate(seats) if s.kind == "human"]
        return [{"seat": i, "name": seats[i].name, "points": await self.points_for(i)}
                for i in people]  # fmt: skip
