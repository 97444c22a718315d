"""Turn timers, seats marked away, and who may start a table: the room's patience with people.

At a turn-based table (SCOUT) with two or more people, each person who is to act has a turn
timer (``turn_timer_s``; ``flip_timer_s`` for the round-start flip decision). It runs while at
least one *other* person at the table is playing (not away): a person alone with computers, or
the last person still playing, is never hurried. When it runs out, the seat is marked away
(``SeatInfo.away``, stored with the seats, so it survives a restart) and a computer opponent of
``away_level`` plays for it — from that seat's view only, like any computer opponent — at once
and on its later turns, until the person is back: they press "I'm back" (a ``back`` message) or
make a move themselves. Reconnecting alone is not being back (a page reconnects by itself).

Before the start only the host (seat 0) may fill open seats and start — unless the host has had
no connection for ``host_away_s``: then any seated person may.

The room calls :meth:`Away.changed` after every change, :meth:`Away.presence_changed` when a
connection comes or goes, and adds :meth:`Away.fields` to every ``state`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import weakref
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from parlour.server.protocol import ProtocolError
from parlour.store import op_update_seats

if TYPE_CHECKING:
    from parlour.server.rooms import Room

log = logging.getLogger("parlour.server")


class Away:
    """The turn timers, away seats and start rights of one room (see the module docstring)."""

    def __init__(self, room: Room) -> None:
        self.room = cast("Room", weakref.proxy(room))
        """The room, weakly: it owns this, and a dropped room then goes with reference counting
        alone (a cycle would wait for the garbage collector: see ``GcKeeper``)."""
        self._due: dict[int, tuple[float, float]] = {}
        """Per timed seat: (monotonic deadline, the whole time in seconds)."""
        self._timer: asyncio.TimerHandle | None = None
        self._host_left: float | None = time.monotonic()
        """Since when the host has had no connection (``None`` while connected)."""
        self._host_timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ away seats

    def is_away(self, seat: int) -> bool:
        """Whether a computer plays for the person in ``seat``."""
        return self.room.table.seats[seat].away

    def _mark(self, seat: int, away: bool) -> None:
        # Marked at once in memory; stored by the store's writer thread (in order with the
        # room's other writes). If it cannot be stored the mark stays in memory only: a restart
        # would forget it, which costs nobody anything.
        table = self.room.table
        table.seats[seat] = replace(table.seats[seat], away=away)
        op = op_update_seats(self.room.table_id, list(table.seats), table.started)
        written = self.room.hub.submit(self.room.table_id, [op])
        table_id = self.room.table_id

        def done(future: Future[None]) -> None:
            if future.exception() is not None:
                log.error("could not store the away mark of table %s: %s", table_id,
                          future.exception())  # fmt: skip

        written.add_done_callback(done)

    def back(self, seat: int | None) -> bool:
        """The person in ``seat`` is back: the computer stops playing for them and their turn
        timer starts afresh. Returns whether anything changed (the room then broadcasts)."""
        if seat is None or not self.is_away(seat):
            return False
        self._mark(seat, False)
        log.info("seat %s of table %s is back", seat, self.room.table_id)
        self.changed(acted=seat)
        return True

    # ------------------------------------------------------------------ turn timers

    def _limits(self) -> tuple[float, float]:
        settings = self.room.hub.settings
        return settings.turn_timer_s, settings.flip_timer_s

    def timed_seats(self) -> list[int]:
        """The seats whose turn timer runs now: people (not away) who are to act, at a
        turn-based table where another person is playing too."""
        room, table = self.room, self.room.table
        if room.realtime or self._limits()[0] <= 0 or room.finished or not table.started:
            return []
        playing = [i for i, s in enumerate(table.seats) if s.kind == "human" and not s.away]
        if len(playing) < 2:
            return []
        return [s for s in table.to_act() if s in playing]

    def changed(self, acted: int | None = None) -> None:
        """After a change (``acted``: the seat whose input it was, whose timer starts
        afresh if it is to act again): start the timers of seats newly to act, drop the others,
        and schedule the next expiry."""
        if self.room.realtime:
            return
        if acted is not None:
            self._due.pop(acted, None)
        timed = self.timed_seats()
        for seat in list(self._due):
            if seat not in timed:
                del self._due[seat]
        if timed:
            turn, flip = self._limits()
            now = time.monotonic()
            for seat in timed:
                if seat not in self._due:
                    whole = flip if self._is_flip(seat) else turn
                    self._due[seat] = (now + whole, whole)
        self._schedule()

    def _is_flip(self, seat: int) -> bool:
        legal = self.room.table.legal_actions(seat)
        return bool(legal) and legal[0].to_json().get("type") == "flip"

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._due:
            return
        first = min(due for due, _ in self._due.values())
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a test driving the room from outside its loop
            log.warning("no running loop: the turn timers of table %s wait", self.room.table_id)
            return
        self._timer = loop.call_later(max(0.0, first - time.monotonic()), self._expire)

    def _expire(self) -> None:
        # A turn timer ran out: mark its seat away and let the bot driver play for it.
        self._timer = None
        try:
            now = time.monotonic()
            late = [seat for seat, (due, _) in self._due.items() if due <= now]
            for seat in late:
                self._mark(seat, True)
                log.info("seat %s of table %s is away: a computer plays for it", seat,
                         self.room.table_id)  # fmt: skip
            self.changed()
            if late:
                self.room.broadcast()
                self.room.wake()
        except Exception:
            log.exception("the turn timer of table %s failed", self.room.table_id)

    def cancel(self) -> None:
        """Stop every timer (the room is closing)."""
        for handle in (self._timer, self._host_timer):
            if handle is not None:
                handle.cancel()
        self._timer = self._host_timer = None

    # ------------------------------------------------------------------ starting

    def presence_changed(self) -> None:
        """A connection came or went: note since when the host has been away and, before the
        start, tell everyone when the others may start."""
        if any(c.seat == 0 for c in self.room.conns):
            self._host_left = None
        elif self._host_left is None:
            self._host_left = time.monotonic()
        if self._host_timer is not None:
            self._host_timer.cancel()
            self._host_timer = None
        wait = self._others_wait_s()
        if wait is not None and wait > 0 and not self.room.table.started:
            with contextlib.suppress(RuntimeError):  # no running loop: nobody to tell
                loop = asyncio.get_running_loop()
                self._host_timer = loop.call_later(wait + 0.01, self._host_wait_over)

    def _host_wait_over(self) -> None:
        self._host_timer = None
        if not self.room.table.started:
            self.room.broadcast()

    def _others_wait_s(self) -> float | None:
        """Seconds until the others may start (0: they may now; ``None``: the host is here)."""
        if self._host_left is None:
            return None
        waited = time.monotonic() - self._host_left
        return max(0.0, self.room.hub.settings.host_away_s - waited)

    def may_start(self, seat: int | None) -> bool:
        """Whether ``seat`` may fill open seats and start: the host, or any seated person once
        the host has been away for ``host_away_s``."""
        if seat is None:
            return False
        return seat == 0 or (
            self.room.table.seats[seat].kind == "human" and self._others_wait_s() == 0
        )

    def check_start(self, seat: int | None) -> None:
        """Raises :class:`ProtocolError` ``not_host`` (saying when others may) unless ``seat``
        may fill and start."""
        if self.may_start(seat):
            return
        wait = self._others_wait_s()
        after = self.room.hub.settings.host_away_s
        if seat is None:
            text = "spectators cannot fill seats or start the game"
        elif wait is None:
            text = (
                "only the host can do that while they are here; if the host is away for "
                f"{after:g} s, anyone seated can"
            )
        else:
            text = (
                f"only the host can do that; the host is away, and if they are not back within "
                f"{math.ceil(wait)} s anyone seated can"
            )
        raise ProtocolError("not_host", text)

    # ------------------------------------------------------------------ the state message

    def fields(self, seat: int | None) -> dict[str, Any]:
        """Fields added to ``seat``'s state message: ``timers`` (each running turn timer:
        ``seat``, ``remaining_ms``, ``total_ms``) and, before the start, ``starting``
        (``may_start`` for this seat, ``host_here``, ``others_in_ms``: ms until any seated
        person may start, ``null`` while the host is here)."""
        now = time.monotonic()
        timers = [
            {"seat": s, "remaining_ms": max(0, round((due - now) * 1000)),
             "total_ms": round(whole * 1000)}
            for s, (due, whole) in sorted(self._due.items())
        ]  # fmt: skip
        out: dict[str, Any] = {"timers": timers}
        if not self.room.table.started:
            wait = self._others_wait_s()
            out["starting"] = {
                "may_start": self.may_start(seat),
                "host_here": wait is None,
                "others_in_ms": None if wait is None else math.ceil(wait * 1000),
            }
        return out
