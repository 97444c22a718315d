"""The computer opponents of a turn-based table (SCOUT): a :class:`BotDriver` per room.

It waits for a change; while computers are to act, each of them thinks (off the event loop, all
at once during the flip decisions) while a human-feeling pause runs, then it submits each move
that is still legal, through the room like any person's input. A computer also plays for a
person who is away (``parlour.server.away``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from typing import TYPE_CHECKING, Any

from parlour.server.bots import bot_seed
from parlour.table import Rejected

if TYPE_CHECKING:
    from parlour.server.rooms import Room

log = logging.getLogger("parlour.server")


class BotDriver:
    """The computers of one turn-based room."""

    def __init__(self, room: Room, wake: asyncio.Event, rng: random.Random) -> None:
        self.room = room
        self.wake = wake
        """Set whenever computers may have a move to make."""
        self.rng = rng
        """Draws the human-feeling pauses."""

    def computer_plays(self, seat: int) -> bool:
        """Whether a computer plays ``seat``: a computer opponent, or a computer playing for an
        away person (``Away``)."""
        info = self.room.table.seats[seat]
        return info.kind == "bot" or info.away

    def _bots_to_act(self) -> list[int]:
        return [s for s in self.room.table.to_act() if self.computer_plays(s)]

    async def run_forever(self) -> None:
        """Drive the computers until cancelled."""
        # A bot whose move went stale is simply asked again. It ends when the room is dropped
        # even if the cancellation were lost on its way.
        while not self.room.dropped:
            await self.wake.wait()
            self.wake.clear()
            try:
                await self._bots_move()
            except Exception:  # the driver must never stop: the table would stall for good
                log.exception("the bot driver of table %s failed; it goes on", self.room.table_id)
                await asyncio.sleep(0.05)
                self.wake.set()

    async def _bots_move(self) -> None:
        # While bots are to act: think, pause, submit (see run_forever).
        settings = self.room.hub.settings
        while seats := self._bots_to_act():
            if not self.room.hub.can_write(self.room.table_id):  # wait: it could not be stored
                await asyncio.sleep(0.25)
                continue
            low, high = settings.bot_delay_min_ms, settings.bot_delay_max_ms
            pause = asyncio.sleep(self.rng.uniform(low, high) / 1000)
            _, *moves = await asyncio.gather(pause, *(self._think(s) for s in seats))
            for seat, action in zip(seats, moves, strict=True):
                table = self.room.table
                playing = seat in table.to_act() and self.computer_plays(seat)
                if playing and action in table.legal_actions(seat):
                    still = functools.partial(self.computer_plays, seat)  # not back meanwhile
                    result = await self.room.submit(seat, table.state_id, action, still)
                    if isinstance(result, Rejected) and still():
                        log.warning("bot move refused at %s: %s", self.room.table_id, result)

    async def _think(self, seat: int) -> Any:
        """The move of the bot in ``seat`` for the current state (its first legal move if the
        bot fails, so that a game never stalls)."""
        table = self.room.table
        legal = table.legal_actions(seat)
        level = table.seats[seat].level or self.room.hub.settings.away_level  # an away person's
        seed = bot_seed(table.seed, seat, table.state_id)
        limit = self.room.hub.settings.bot_timeout_s
        try:
            choosing = self.room.hub.bots.choose(table.game, level, table.view(seat), legal, seed)
            async with asyncio.timeout(limit):
                text = await choosing
            return table.spec.parse_action(text)
        except TimeoutError:
            text = "bot fallback: the %s bot in seat %s at table %s overran %s s; plays a fallback"
            log.warning(text, level, seat, self.room.table_id, limit)
        except Exception:
            text = "bot fallback: the %s bot in seat %s at table %s failed; plays a fallback"
            log.exception(text, level, seat, self.room.table_id)
        return legal[0] if legal else None
