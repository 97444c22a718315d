"""Run the app with uvicorn (``parlour serve``)."""

from __future__ import annotations

import contextlib
import logging
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


def serve(settings: Settings) -> None:
    """Serve Parlour on ``settings.host:settings.port`` until interrupted.

    The running uvicorn server is handed to the app (``app.state.uvicorn_server``) so that a
    real-time seat's round trip can be read from its connection's socket
    (:mod:`parlour.server.netinfo`).
    """
    import uvicorn

    from parlour.server.app import create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    app = create_app(settings)
    config = uvicorn.Config(app, **uvicorn_options(settings))
    server = uvicorn.Server(config)
    app.state.uvicorn_server = server
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise SystemExit(3)  # as uvicorn.run: the server could not start (e.g. port taken)
