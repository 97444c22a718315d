"""Move-by-move replays of finished games.

A replay replays the stored log on a fresh :class:`~parlour.table.Table` and keeps, after
every input, the spectator's view (public information) and each seat's hand. Hands are shown
only because the game is over: :func:`replay` refuses a game still in play.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from parlour.server.events import history
from parlour.store import StoredTable
from parlour.table import Table, legacy_version


class NotFinished(Exception):
    """The game is still in play: its replay would show hidden cards."""


class Expired(NotFinished):
    """The game was closed unfinished (nobody played it for a long time): it has no replay,
    since a replay shows every hand."""


def replay(stored: StoredTable) -> dict[str, Any]:
    """The replay of a finished game: its seats, and one frame per input plus the deal.

    Each frame has ``view`` (the spectator's view, without the round log), ``hands`` (SCOUT:
    every seat's hand, left to right), ``events`` (what the input did, from the public history:
    SCOUT: one event, or two when it ended a round; SCAN and SNAP: the current round's log, or
    the events since the latest flip) and ``seq``. Raises :class:`NotFinished` for a game in play
    (:class:`Expired` for one closed unfinished), ``VersionMismatch`` for a game played under
    other rules or chance, and ``ValueError`` if the log no longer applies.
    """
    if stored.expired:
        raise Expired(f"table {stored.table_id} was closed unfinished")
    if not stored.finished:
        raise NotFinished(f"table {stored.table_id} is still in play")
    table = Table(
        stored.table_id, stored.game, stored.options, stored.seed, list(stored.seats),
        started=True, version=stored.version or legacy_version(stored.game),
    )  # fmt: skip
    players = len(stored.seats)
    turn_based = table.spec.race is None
    frames = [_frame(table, players, 0, [] if turn_based else None)]
    seen = 0
    for entry in stored.entries:
        if not table.replay_entry(entry).ok:
            raise ValueError(f"stored input {entry.seq} no longer applies")
        if turn_based:
            events = history(table, None)
            frames.append(_frame(table, players, entry.seq, events[seen:]))
            seen = len(events)
        else:
            frames.append(_frame(table, players, entry.seq, None))
    return {
        "table_id": stored.table_id,
        "game": stored.game,
        "seat_info": [s.to_json() for s in stored.seats],
        "frames": frames,
    }


def _frame(table: Table, players: int, seq: int, events: list[Any] | None) -> dict[str, Any]:
    view = table.view(None)
    log = view.pop("log", [])
    if events is None:  # a real-time game: no hands; the log of the moment
        return {"seq": seq, "view": view, "events": log}
    hands = [table.view(seat)["hand"] for seat in range(players)]
    return {"seq": seq, "view": view, "hands": hands, "events": events}


class ReplayCache:
    """Built replays, JSON-encoded and gzip-compressed, least recently used first out, at most
    ``max_bytes`` in all (a finished game's replay never changes).

    :meth:`get` builds a missing replay off the event loop (loading the log, replaying it,
    encoding and compressing it all happen in a worker thread) and only once even when many
    requests ask for it at the same moment; ``built`` counts the builds.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.built = 0
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._building: dict[str, asyncio.Future[bytes]] = {}

    async def get(self, table_id: str, load: Callable[[str], StoredTable]) -> bytes:
        """The gzip-compressed JSON replay of ``table_id`` (``{"v": 1, ...}``), with ``load``
        to read the stored table when it must be built.

        Raises what ``load`` raises (``KeyError`` for an unknown table), :class:`NotFinished`
        or ``ValueError`` as :func:`replay` does; nothing is cached then.
        """
        found = self._items.get(table_id)
        if found is not None:
            self._items.move_to_end(table_id)
            return found
        pending = self._building.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._building[table_id] = future
        try:
            data = await asyncio.to_thread(_build, table_id, load)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            del self._building[table_id]
        self.built += 1
        future.set_result(data)
        self._keep(table_id, data)
        return data

    def _keep(self, table_id: str, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        self._items[table_id] = data
        self.size += len(data)
        while self.size > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)


def _build(table_id: str, load: Callable[[str], StoredTable]) -> bytes:
    data = {"v": 1, **replay(load(table_id))}
    return gzip.compress(json.dumps(data, separators=(",", ":")).encode(), compresslevel=6)
