"""Run the app with uvicorn (``parlour serve``), in this process or in ``--workers N``.

With ``workers`` above 1 this process binds the port once and starts that many worker processes
(``multiprocessing``'s spawn), each serving its own app on the shared socket: the kernel hands
each new connection to one of them. They are the many processes of :mod:`parlour.server.cluster`
(``redis`` is required), so any of them serves any table. This process watches them: a worker
that dies (killed, crashed) is replaced at once, and its tables are taken over by the others
when their leases lapse. SIGTERM or SIGINT stops them all.

uvicorn's own ``workers`` option is not used: its workers build their app from an import
string, and the app must be handed its running ``uvicorn.Server`` to read a connection's round
trip from the kernel (:mod:`parlour.server.netinfo`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import random
import signal
import socket
import threading
import time
from typing import Any

from parlour.server.settings import Settings


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for ``settings``: the WebSocket implementation and its size limit, an
    HTTP protocol with a header-read timeout (:mod:`parlour.server.timeouts`), and
    ``X-Forwarded-For`` trusted only from ``settings.trusted_proxies`` (uvicorn would trust it
    from 127.0.0.1 by default)."""
    from parlour.server.timeouts import timed_h11

    proxies = [p.strip() for p in settings.trusted_proxies.split(",") if p.strip()]
    return {
        "host": settings.host,
        "port": settings.port,
        "http": timed_h11(settings.request_timeout_s),
        "ws": "websockets-sansio",
        "ws_max_size": settings.ws_max_bytes,
        "ws_per_message_deflate": False,  # small messages: compressing cost a fifth of the CPU
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies or None,
        "log_level": "info",
        "lifespan": "on",
    }


def tune_gc(young: int) -> None:
    """Collect, set aside every object alive now for good (``gc.freeze``: the modules, the app,
    what starting made), and let ``young`` more objects accumulate before the cyclic garbage
    collector runs (``gc.set_threshold``; 0: leave Python's defaults).

    A server makes and drops objects at a great rate, and most of what survives a moment is
    freed by reference counting soon after: with Python's default of 700, one process of the
    many-processes load collected 27 times a second and a full collection (every few seconds)
    paused it 0.2-0.3 s; at 20,000 the collector took about 60 % less time and no full
    collection came within a minute.
    """
    if young <= 0:
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, old)


class GcKeeper:
    """Keeps the cyclic garbage collector's pauses short in a serving process: at the end of a
    collection, if ``freeze_s`` have passed since it last did, it sets aside everything still
    alive (``gc.freeze``), and about every ``sweep_s`` (±25 %, so that processes started
    together do not pause together) it takes all of it back and collects once
    (``gc.unfreeze``, ``gc.collect``).

    A table's objects (its game, its events, its connections) live for minutes. Left to the
    collector's generations they are scanned again and again: under the many-processes load a
    process paused 50-110 ms for a middle collection every half minute, and longer for a full
    one. Set aside, only what was made since the last collection is ever scanned (a young
    collection: 10-25 ms at ``gc_young`` 20,000). Setting aside just after a collection leaves
    out the garbage it found; what becomes cyclic garbage after it was set aside (about 100
    objects a second per process under that load) waits for the next sweep, which costs what a
    full collection costs (about 0.25 s at 250 tables a process).
    """

    def __init__(self, freeze_s: float, sweep_s: float, rng: random.Random | None = None) -> None:
        self.freeze_s = freeze_s
        self.sweep_s = sweep_s
        self.rng = rng or random.Random()
        self.frozen_at = time.monotonic()
        self.next_sweep = self.frozen_at + self._interval()
        self._sweeping = False

    def _interval(self) -> float:
        return self.sweep_s * self.rng.uniform(0.75, 1.25)

    def after_collection(self, phase: str, info: dict[str, int]) -> None:
        """The collector's callback (``gc.callbacks``): set aside what survived a collection."""
        if phase != "stop" or self._sweeping:
            return
        now = time.monotonic()
        if now - self.frozen_at >= self.freeze_s:
            gc.freeze()
            self.frozen_at = now

    def sweep(self) -> int:
        """Take back everything set aside, collect, and set aside what is left; returns the
        number of unreachable objects found."""
        self._sweeping = True  # no freezing between the two
        try:
            gc.unfreeze()
            found = gc.collect()
        finally:
            self._sweeping = False
        gc.freeze()
        self.frozen_at = time.monotonic()
        self.next_sweep = self.frozen_at + self._interval()
        return found

    def sweep_forever(self) -> None:
        """Sweep when one is due (in a daemon thread of its own: see :meth:`start`)."""
        while True:
            time.sleep(max(0.0, self.next_sweep - time.monotonic()))
            self.sweep()

    @classmethod
    def start(cls, settings: Settings) -> GcKeeper | None:
        """Set this process's collector up as ``settings`` say: :func:`tune_gc` with
        ``gc_young``, then a keeper (none if ``gc_freeze_s`` or ``gc_young`` is 0)."""
        tune_gc(settings.gc_young)
        if settings.gc_freeze_s <= 0 or settings.gc_young <= 0:
            return None
        keeper = cls(settings.gc_freeze_s, settings.gc_sweep_s)
        gc.callbacks.append(keeper.after_collection)
        threading.Thread(target=keeper.sweep_forever, name="gc-sweep", daemon=True).start()
        return keeper


def serve(settings: Settings) -> None:
    """Serve Parlour on ``settings.host:settings.port`` until interrupted.

    The running uvicorn server is handed to the app (``app.state.uvicorn_server``) so that a
    real-time seat's round trip can be read from its connection's socket
    (:mod:`parlour.server.netinfo`).
    """
    if settings.workers > 1:
        serve_workers(settings)
    else:
        _serve_one(settings)


def _serve_one(
    settings: Settings, sock: socket.socket | None = None, parent: int | None = None
) -> None:
    """Serve in this process: on ``sock`` (bound by a parent) or else on the settings' port.
    A worker (``parent`` given) stops by itself when its parent is gone."""
    import uvicorn

    from parlour.server.app import create_app

    if parent is not None:
        threading.Thread(target=_stop_when_orphaned, args=(parent,), daemon=True).start()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    app = create_app(settings)
    config = uvicorn.Config(app, **uvicorn_options(settings))
    server = uvicorn.Server(config)
    app.state.uvicorn_server = server
    GcKeeper.start(settings)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=None if sock is None else [sock])
    if not server.started:
        raise SystemExit(3)  # as uvicorn.run: the server could not start (e.g. port taken)


WATCH_S = 0.5
"""How often the parent looks for a worker that has died (and a worker for its parent)."""

STOP_S = 8.0
"""How long the parent waits for its workers to stop gracefully before it kills them."""

BROKEN_S = 10.0
"""A worker that exits by itself (not killed by a signal) this soon after it started failed to
start (a bad setting, an unreachable database): the parent then stops rather than restart it
forever."""


def serve_workers(settings: Settings) -> None:
    """Bind the port, start ``settings.workers`` workers on it, replace any that dies, and stop
    them all on SIGTERM or SIGINT. Raises ``SystemExit(3)`` if a worker could not start."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    log = logging.getLogger("parlour.server")
    sock = uvicorn.Config("parlour", host=settings.host, port=settings.port).bind_socket()
    spawn = multiprocessing.get_context("spawn")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    def start(number: int) -> tuple[Any, float]:
        args = (settings, sock, os.getpid())
        proc = spawn.Process(target=_serve_one, args=args, name=f"worker-{number}")
        proc.start()
        log.info("worker %d started (pid %d)", number, proc.pid)
        return proc, time.monotonic()

    workers = [start(n) for n in range(1, settings.workers + 1)]
    failed = False
    while not stop.wait(WATCH_S):
        for i, (proc, started) in enumerate(workers):
            if proc.is_alive():
                continue
            code = proc.exitcode
            if code is not None and code >= 0 and time.monotonic() - started < BROKEN_S:
                log.critical("worker %d (pid %d) could not start (exit code %d): stopping",
                             i + 1, proc.pid, code)  # fmt: skip
                failed = True
                stop.set()
                break
            log.warning("worker %d (pid %d) ended (exit code %s): starting another",
                        i + 1, proc.pid, code)  # fmt: skip
            workers[i] = start(i + 1)
    for proc, _ in workers:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + STOP_S
    for proc, _ in workers:
        proc.join(timeout=max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            log.warning("worker %s (pid %d) did not stop in time: killed", proc.name, proc.pid)
            proc.kill()
            proc.join()
    sock.close()
    if failed:
        raise SystemExit(3)


def _stop_when_orphaned(parent: int) -> None:
    """A worker's watch: once its parent has gone (killed: it could not stop its workers), stop
    this worker as SIGTERM would, so that no worker outlives it holding the port."""
    while os.getppid() == parent:
        time.sleep(WATCH_S)
    os.kill(os.getpid(), signal.SIGTERM)
