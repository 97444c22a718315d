// The game clock of a real-time table (SCAN, SNAP) as a page sees it: the server's clock from the
// latest state message, extrapolated in between.

/** The page's copy of a state message's `clock`, read at `wall` (performance.now()). */
export function readClock(c, wall = performance.now()) {
  return {
    game: c.now_ms, wall, speed: c.speed || 1, running: Boolean(c.running),
    startsAt: !c.running && c.starts_in_ms !== null && c.starts_in_ms !== undefined ? wall + c.starts_in_ms : null,
  };
}

/** Game milliseconds now, from `clock` (a `readClock`; frozen while the clock is stopped), or
 * `fallback` before any clock came. */
export function gameNow(clock, fallback = 0) {
  if (!clock) return fallback;
  return clock.running ? clock.game + (performance.now() - clock.wall) * clock.speed : clock.game;
}
