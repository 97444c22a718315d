"""Server settings: where to listen, where the database is, and every delay.

Read from the environment (``PARLOUR_*``) with safe defaults, then overridden by command-line
options. Nothing here opens a resource: the app's lifespan does that.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from parlour.bots.levels import LEVELS, TUTOR
from parlour.server.bots import INLINE_LEVELS, inline_levels


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told.

    - ``host``, ``port``: where to listen (127.0.0.1:8000: only this machine).
    - ``db``: the database: an SQLite file or ``sqlite:///path`` (``parlour.db`` in the working
      directory), or a PostgreSQL URL ``postgresql://user:password@host:port/name`` (the ``pg``
      extra; ``parlour.store.open_store``).
    - ``bot_delay_min_ms``, ``bot_delay_max_ms``: a computer opponent waits a random time in this
      range before it moves, so that people can follow (0 in tests).
    - ``anim_ms``: how long the browser animates a move (cards flying to and from the table).
    - ``max_message_bytes``: the largest WebSocket message the server reads; bigger ones are
      refused with ``message_too_large`` and change nothing.
    - ``ws_max_bytes``: the hard limit uvicorn enforces (the connection is closed above it).
    - ``bot_workers``: processes the computer opponents that search (Hard, Expert) think in;
      0 runs them in threads.
    - ``bot_inline``: the levels (comma-separated) that choose on the event loop itself, not in
      those processes: the ones that look one move ahead (a fraction of a millisecond a move).
      Empty: every level thinks in the processes.
    - ``gc_young``: how many more objects a server process may hold before Python's cyclic
      garbage collector looks at the young ones (Python's default is 700; 0 keeps it). At the
      default one process under load spent about a quarter of its CPU collecting, with pauses
      of 0.2–0.3 s; objects made while starting are set aside for good (``gc.freeze``).
    - ``gc_freeze_s``, ``gc_sweep_s``: at the end of a collection, at most every
      ``gc_freeze_s`` seconds, a serving process sets aside everything still alive, so that the
      collector scans only what is new, and it takes it all back for one full collection about
      every ``gc_sweep_s`` seconds (``parlour.server.run``, ``GcKeeper``). ``gc_freeze_s`` 0
      (or ``gc_young`` 0): the collector's own generations.
    - ``max_open_tables``: how many unfinished tables the server holds before refusing new ones.
    - ``hello_timeout_s``: how long a new WebSocket may take to say who it is: a fixed deadline
      from the moment it opens (messages before ``hello`` do not extend it, and they count
      against the rate limit below); then it is closed (code 4408).
    - ``game_speed``: how many game milliseconds pass per wall-clock millisecond on real-time
      tables (SCAN, SNAP). 1.0 for people; tests raise it to play whole games in seconds. Every
      time in a real-time game (reveal pauses, turn timers, bots' reaction times, a browser's
      reported reaction time and round trip) is scaled by it.
    - ``start_countdown_ms``: on a real-time table, the wall-clock countdown between the moment
      every person has sat down (or a rebuilt table's people are back) and the game clock
      starting.
    - ``rtt_probe_ms``: how often the server pings each seat of a real-time table to measure its
      round-trip time (N9).
    - ``rt_jitter_ms``: the jitter allowance added to a seat's measured round trip (N9). It is
      all a forged reaction time can gain; against a Medium SNAP bot each 10 ms of it is worth
      about two points of win rate to a forger (see the README, "How races are decided").
    - ``rtt_default_ms``: the round trip credited to a seat before any measurement (N9).
    - ``rtt_kernel``: bound a seat's round trip by the kernel's TCP measurement of its
      connection when the server can read it (``parlour serve`` on Linux). Turn it off behind a
      reverse proxy: the kernel then measures the proxy's hop, not the player's link.
    - ``max_tables_per_guest``: unfinished tables one guest (browser cookie) may hold.
      ``max_open_tables`` and ``max_tables_per_guest`` count only *held* tables: unfinished ones
      with a person connected to a seat now, or within the last ``hold_s`` (creating a table
      counts as being there: a table nobody ever joins stops counting ``hold_s`` after it was
      created). Spectators do not hold a table.
    - ``hold_s``: see above.
    - ``unjoined_expiry_s``: an unfinished table that no person has ever connected to (created,
      then abandoned) expires this long after it was created (checked every ``sweep_s``).
    - ``new_tables_per_min``, ``new_tables_burst``: each client address may create
      ``new_tables_per_min`` tables a minute on average, ``new_tables_burst`` at once; more are
      refused with ``429 too_many_new_tables`` (with ``Retry-After``). This holds with or
      without a guest cookie.
    - ``trusted_proxies``: comma-separated addresses of reverse proxies whose
      ``X-Forwarded-For`` header names the client (uvicorn's ``forwarded_allow_ips``); empty
      (the default): the header is ignored and the client is the socket's peer address.
    - ``max_spectators``: spectators one table admits at once; the next is refused with
      ``too_many_spectators`` and its socket closed (code 4503).
    - ``request_timeout_s``: an HTTP request's line and headers must arrive within this long of
      the connection opening (or of the previous response on a kept-alive connection), and an
      API body within this long of its headers; otherwise the connection is closed (a body:
      ``408 request_timeout``). Bodies over 4 KB are refused with ``413 message_too_large``
      from their ``Content-Length``, or as soon as a chunked body passes 4 KB, without reading
      the rest.
    - ``replay_cache_bytes``: finished games' replays (which never change) are kept, encoded
      and compressed, in a cache of at most this many bytes (least recently used first out).
    - ``rate_per_s``, ``rate_burst``: each WebSocket may send ``rate_per_s`` messages a second
      on average, ``rate_burst`` at once; more are refused with ``rate_limited``, and a
      connection that keeps flooding is closed (code 4429).
    - ``idle_expiry_s``: an unfinished table with nobody connected and nothing played for this
      long is closed (expired).
    - ``archive_after_s``: finished tables older than this are archived (compressed).
    - ``sweep_s``: how often the server looks for tables to expire or archive.
    - ``pause_after_s``: a real-time game whose people have all left pauses after this long
      (its clock stops) and resumes, after the countdown, when one of them is back.
    - ``bot_timeout_s``: a computer opponent that has not chosen by then (or crashes) gets a
      fallback move, logged, so that a table never stalls.
    - ``db_busy_timeout_s``: how long a write waits for a database locked by another program
      (SQLite), or for a connection (PostgreSQL down or busy), before the input is refused with
      ``storage_error`` (the event loop never waits).
    - ``realtime_max_lag_ms``: a real-time table whose next moment comes due more than this
      (wall ms) late — the server is overloaded — holds its game clock instead of catching up
      in a burst.
    - ``turn_timer_s``: at a SCOUT table with two or more people, how long a person has for a
      move while another person is playing; then the seat is marked away and a computer of
      ``away_level`` plays for it until the person is back (``parlour.server.away``). 0 turns
      every turn timer off.
    - ``flip_timer_s``: the same for the round-start flip decision.
    - ``host_away_s``: before the start, once the host has had no connection for this long, any
      seated person may fill open seats and start.
    - ``away_level``: the level of the computer that plays for an away seat.
    - ``table_seed``: 0 (the default): every table's seed comes from the system's secure random
      source. Anything else: tables' seeds come from a generator seeded with this number, so
      that a failing test can be replayed — for tests only, never for play (deals would be
      predictable from the number).
    - ``tutor_ms``, ``tutor_patience_ms``: at a real-time "Learn to play" table, how soon a
      tutorial opponent acts once the learner has had their go (0 in tests), and how long it
      leaves the learner to find a match or call a snap first (``parlour.bots.tutors``).
    - ``hint_level``: the level whose move "Suggest a move" suggests (``parlour.server.coach``).
    - ``hints_per_min``, ``hint_burst``: each seat may ask for ``hints_per_min`` hints a minute
      on average, ``hint_burst`` at once; more are refused with ``rate_limited``.
    - ``admit_max_lag_ms``, ``admit_max_backlog``: new real-time tables are refused (``busy``)
      while the event loop's recent lag (p90 over the last seconds) is above the first, or
      more than the second number of writes wait for the database.
    - ``redis``: empty (the default): one process holds every table. A Redis URL
      (``redis://host:6379/0``): this process is one of many sharing the database and that
      Redis (``parlour.server.cluster``): each table has one owner process holding a lease in
      Redis, and any process accepts any connection.
    - ``redis_prefix``: the prefix of every Redis key and channel (several deployments, or
      tests, may share one Redis).
    - ``lease_ms``, ``renew_ms``: a table's owner renews its lease every ``renew_ms``; a lease
      not renewed for ``lease_ms`` (its owner died or was cut off) lapses, and another process
      takes the table over from the store's log.
    - ``tables_follow``: a table nobody is connected to moves to the process that a socket of
      it reaches (that process asks the owner, takes the lease and rebuilds the table from the
      store), so that the socket is served where it is instead of relayed: one hop and two
      processes fewer for every message. Off: a table stays with the process that created it
      (or took it over).
    - ``workers``: how many server processes ``parlour serve`` starts on its one port (1: just
      itself). More than one needs ``redis``: they are many processes as above, started and
      watched by one parent that starts a new one whenever one dies (``parlour.server.run``).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "parlour.db"
    bot_delay_min_ms: int = 600
    bot_delay_max_ms: int = 1500
    anim_ms: int = 450
    max_message_bytes: int = 4096
    ws_max_bytes: int = 65536
    bot_workers: int = max(1, os.cpu_count() or 1)
    bot_inline: str = INLINE_LEVELS
    gc_young: int = 20000
    gc_freeze_s: float = 5.0
    gc_sweep_s: float = 600.0
    max_open_tables: int = 1000
    hello_timeout_s: float = 10.0
    game_speed: float = 1.0
    start_countdown_ms: int = 3000
    rtt_probe_ms: int = 2000
    rt_jitter_ms: int = 15
    rtt_default_ms: int = 50
    rtt_kernel: bool = True
    max_tables_per_guest: int = 10
    rate_per_s: float = 20.0
    rate_burst: int = 60
    idle_expiry_s: float = 3600.0
    archive_after_s: float = 86400.0
    sweep_s: float = 60.0
    pause_after_s: float = 10.0
    bot_timeout_s: float = 5.0
    db_busy_timeout_s: float = 2.0
    realtime_max_lag_ms: int = 100
    admit_max_lag_ms: int = 150
    admit_max_backlog: int = 400
    turn_timer_s: float = 60.0
    tutor_ms: int = 1500
    tutor_patience_ms: int = 40_000
    flip_timer_s: float = 30.0
    host_away_s: float = 30.0
    away_level: str = "medium"
    hold_s: float = 120.0
    unjoined_expiry_s: float = 300.0
    new_tables_per_min: float = 10.0
    new_tables_burst: int = 10
    trusted_proxies: str = ""
    max_spectators: int = 200
    request_timeout_s: float = 10.0
    replay_cache_bytes: int = 64 * 1024 * 1024
    table_seed: int = 0
    hint_level: str = "expert"
    hints_per_min: float = 6.0
    hint_burst: int = 3
    redis: str = ""
    redis_prefix: str = "parlour:"
    lease_ms: int = 5000
    renew_ms: int = 1000
    tables_follow: bool = True
    workers: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.bot_delay_min_ms <= self.bot_delay_max_ms:
            raise ValueError("bot delays: need 0 <= bot_delay_min_ms <= bot_delay_max_ms")
        if self.anim_ms < 0:
            raise ValueError("anim_ms must not be negative")
        if not 64 <= self.max_message_bytes <= self.ws_max_bytes:
            raise ValueError("need 64 <= max_message_bytes <= ws_max_bytes")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port {self.port} is not a TCP port")
        if self.bot_workers < 0 or self.max_open_tables < 1 or self.hello_timeout_s <= 0:
            raise ValueError("bot_workers >= 0, max_open_tables >= 1 and hello_timeout_s > 0")
        if not 0.1 <= self.game_speed <= 100:
            raise ValueError("game_speed must be between 0.1 and 100")
        if self.max_tables_per_guest < 1 or self.rate_per_s <= 0 or self.rate_burst < 1:
            raise ValueError("max_tables_per_guest >= 1, rate_per_s > 0 and rate_burst >= 1")
        if min(self.idle_expiry_s, self.archive_after_s, self.sweep_s, self.bot_timeout_s) <= 0:
            raise ValueError("idle_expiry_s, archive_after_s, sweep_s and bot_timeout_s are > 0")
        if self.db_busy_timeout_s <= 0 or self.realtime_max_lag_ms < 1:
            raise ValueError("db_busy_timeout_s > 0 and realtime_max_lag_ms >= 1")
        if self.admit_max_lag_ms < 1 or self.admit_max_backlog < 1:
            raise ValueError("admit_max_lag_ms >= 1 and admit_max_backlog >= 1")
        if self.tutor_ms < 0 or self.tutor_patience_ms < 0:
            raise ValueError("tutor_ms >= 0 and tutor_patience_ms >= 0")
        if self.turn_timer_s < 0 or self.flip_timer_s <= 0 or self.host_away_s < 0:
            raise ValueError("turn_timer_s >= 0 (0: off), flip_timer_s > 0 and host_away_s >= 0")
        if self.gc_young < 0:
            raise ValueError("gc_young must not be negative (0: Python's default)")
        if self.gc_freeze_s < 0 or self.gc_sweep_s <= 0:
            raise ValueError("gc_freeze_s >= 0 (0: off) and gc_sweep_s > 0")
        unknown = inline_levels(self.bot_inline) - {*LEVELS, TUTOR}
        if unknown:
            raise ValueError(f"bot_inline names levels ({', '.join(LEVELS)}, {TUTOR}), not "
                             f"{', '.join(sorted(unknown))}")  # fmt: skip
        if self.away_level not in LEVELS:
            raise ValueError(f"away_level is one of {', '.join(LEVELS)}")
        if self.hint_level not in LEVELS or self.hints_per_min <= 0 or self.hint_burst < 1:
            raise ValueError(f"hint_level is one of {', '.join(LEVELS)}; hints_per_min > 0 and "
                             "hint_burst >= 1")  # fmt: skip
        if self.pause_after_s < 0:
            raise ValueError("pause_after_s must not be negative")
        if min(self.hold_s, self.unjoined_expiry_s, self.request_timeout_s) <= 0:
            raise ValueError("hold_s, unjoined_expiry_s and request_timeout_s are > 0")
        if self.new_tables_per_min <= 0 or self.new_tables_burst < 1:
            raise ValueError("new_tables_per_min > 0 and new_tables_burst >= 1")
        if self.max_spectators < 0 or self.replay_cache_bytes < 0:
            raise ValueError("max_spectators and replay_cache_bytes must not be negative")
        if self.start_countdown_ms < 0 or self.rtt_probe_ms < 50 or self.rt_jitter_ms < 0:
            raise ValueError("start_countdown_ms >= 0, rtt_probe_ms >= 50 and rt_jitter_ms >= 0")
        if self.rtt_default_ms < 0:
            raise ValueError("rtt_default_ms must not be negative")
        if self.redis and not self.redis.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("redis is a URL: redis://host:port/db (or rediss://, unix://)")
        if self.workers < 1 or (self.workers > 1 and not self.redis):
            raise ValueError("workers >= 1; more than one worker needs redis (--redis URL): "
                             "the processes share their tables through it")  # fmt: skip
        if not 50 <= self.renew_ms <= self.lease_ms // 2:
            raise ValueError("need 50 <= renew_ms <= lease_ms / 2")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``PARLOUR_<FIELD>`` variables (e.g. ``PARLOUR_BOT_DELAY_MAX_MS=0``),
        then ``overrides`` (``None`` values are ignored).

        Raises ``ValueError`` for a value that is not a number where one is needed, or for
        settings that do not fit together.

        >>> Settings.from_env({"PARLOUR_PORT": "9000"}, db="x.db").port
        9000
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"PARLOUR_{f.name.upper()}")
            if raw is None:
                continue
            kind = type(getattr(cls(), f.name))
            try:
                values[f.name] = _flag(raw) if kind is bool else kind(raw)
            except ValueError:
                name = f"PARLOUR_{f.name.upper()}"
                raise ValueError(f"{name}={raw!r} is not a {kind.__name__}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        """A copy with ``changes``."""
        return replace(self, **changes)

    def client(self) -> dict[str, Any]:
        """What the browser needs to know (pacing only; nothing secret)."""
        return {
            "anim_ms": self.anim_ms,
            "max_message_bytes": self.max_message_bytes,
            "game_speed": self.game_speed,
            "start_countdown_ms": self.start_countdown_ms,
        }


def _flag(raw: str) -> bool:
    """A yes/no setting: 1/0, true/false, yes/no, on/off (any case); raises ``ValueError``."""
    word = raw.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)
