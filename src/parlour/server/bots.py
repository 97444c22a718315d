"""Computer opponents at a table: choose a move without holding up the event loop.

The levels that search (Hard, Expert: tenths of a second to a second a move) think in a process
pool sized to the cores (``bot_workers``), so that they never hold up the event loop — not even
by holding Python's global interpreter lock, which bots thinking in threads would take from it
(under load that was the main source of slow updates). With ``bot_workers`` 0 (tests) they think
in the loop's default thread pool instead.

The levels of ``bot_inline`` (Beginner, Easy, Medium and the tutor: one look ahead, a fifth of a
millisecond at the median and a few at most) choose on the event loop itself: handing such a
decision to another process cost ten times the decision (pickling the view, waking the pool's
threads, its process's time), which under load was a quarter of the machine.

A bot gets exactly what a player at its seat gets: ``Table.view(seat)`` and the legal actions.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from parlour.bots.levels import LEVELS, TUTOR, make_bot

T = TypeVar("T")

BOT_NAMES = (
    "Ana", "Bruno", "Chloé", "Dmitri", "Esi", "Farah", "Goran", "Hana", "Ivo", "Juno",
    "Kofi", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quinn", "Rosa", "Sami", "Tove",
)  # fmt: skip
"""Names given to computer opponents (each table draws its own)."""


def choose_text(game: str, level: str, view: dict[str, Any], legal: list[str], seed: int) -> str:
    """The text form of the move the bot of ``level`` picks among ``legal`` (text forms) from
    ``view``. A plain function of plain data, so that it can run in another process.

    Raises ``ValueError`` for an unknown level or when there is no legal move.
    """
    from parlour.games.registry import get_game

    spec = get_game(game)
    actions = [spec.parse_action(text) for text in legal]
    bot = make_bot(game, level)
    return str(bot.choose(view, actions, random.Random(seed)))


def exit_with_parent(parent: int, every_s: float = 0.5) -> None:
    """Run in each pool worker as it starts: end the worker once ``parent`` (the server) is
    gone. A server killed outright (SIGKILL, a crash) runs no shutdown code, and a worker
    waiting for work would otherwise wait for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def bot_seed(table_seed: int, seat: int, state_id: int) -> int:
    """A seed for one decision, from the table's seed, the seat and the moment."""
    digest = hashlib.sha256(f"{table_seed}:{seat}:{state_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


INLINE_LEVELS = "beginner,easy,medium,tutor"
"""The levels that choose on the event loop by default (``Settings.bot_inline``)."""


def inline_levels(names: str) -> frozenset[str]:
    """The level names of a comma-separated list (``"easy, medium"``; empty: none)."""
    return frozenset(name.strip() for name in names.split(",") if name.strip())


class BotRunner:
    """Runs bot decisions in a process pool (threads when ``workers`` is 0), or at once on the
    event loop for the levels in ``inline`` (a level's name before any ``:``).

    The pool is started on first use. Call :meth:`close` at shutdown.
    """

    def __init__(self, workers: int, inline: frozenset[str] = frozenset()) -> None:
        self.workers = workers
        self.inline = inline
        self._pool: Executor | None = None
        self.inline_moves = 0
        """Decisions made on the event loop so far."""

    def _executor(self) -> Executor | None:
        if self.workers == 0:
            return None  # the loop's default thread pool
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def choose(
        self, game: str, level: str, view: dict[str, Any], legal: list[Any], seed: int
    ) -> str:
        """The text form of the bot's move. Raises ``ValueError`` for an unknown level."""
        if level not in LEVELS and level != TUTOR:
            raise ValueError(f"unknown level {level!r}")
        if level.partition(":")[0] in self.inline:
            self.inline_moves += 1
            return str(make_bot(game, level).choose(view, legal, random.Random(seed)))
        texts = [str(a) for a in legal]
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor(), choose_text, game, level, view, texts, seed
        )

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool (a module-level function of plain, picklable data), e.g.
        the coach's hints (:mod:`parlour.server.coach`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), fn, *args)

    def close(self) -> None:
        """Stop the process pool, if one was started (pending decisions are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
