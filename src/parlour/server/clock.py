"""The game clock of a real-time table (SCAN, SNAP)."""

from __future__ import annotations

import time


class GameClock:
    """Game time of a real-time table: ``base_ms`` when it starts, then ``speed`` game ms per
    wall ms. It does not run until :meth:`start` (and its countdown) — a table waits for its
    people."""

    def __init__(self, speed: float, base_ms: int = 0) -> None:
        self.speed = speed
        self.base_ms = base_ms
        self._epoch: float | None = None

    @property
    def scheduled(self) -> bool:
        """Whether :meth:`start` has been called."""
        return self._epoch is not None

    def start(self, countdown_ms: float) -> None:
        """Start the clock after ``countdown_ms`` wall milliseconds."""
        self._epoch = time.monotonic() + countdown_ms / 1000

    def pause(self) -> None:
        """Stop the clock where it is (:meth:`start` starts it again from there)."""
        self.base_ms = self.now()
        self._epoch = None

    def hold(self, game_ms: int) -> None:
        """A running clock shows ``game_ms`` now and goes on from there (it waited)."""
        if self.running():
            self.base_ms = max(self.base_ms, min(game_ms, self.now()))
            self._epoch = time.monotonic()

    def running(self) -> bool:
        """Whether the clock runs (the countdown is over)."""
        return self._epoch is not None and time.monotonic() >= self._epoch

    def starts_in_ms(self) -> int | None:
        """Wall ms until the clock starts (0 once it runs; ``None`` before :meth:`start`)."""
        if self._epoch is None:
            return None
        return max(0, round((self._epoch - time.monotonic()) * 1000))

    def now(self) -> int:
        """The game time now (``base_ms`` until the clock runs)."""
        if self._epoch is None:
            return self.base_ms
        elapsed = time.monotonic() - self._epoch
        return self.base_ms + max(0, int(elapsed * 1000 * self.speed))

    def wall_seconds_until(self, game_ms: int) -> float:
        """Wall seconds from now until the game clock shows ``game_ms`` (0 if past)."""
        if self._epoch is None:
            return 0.0
        start_wait = max(0.0, self._epoch - time.monotonic())
        return start_wait + max(0, game_ms - self.now()) / self.speed / 1000
