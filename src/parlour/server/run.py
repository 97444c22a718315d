"""Run the app with uvicorn (``parlour serve``)."""

from __future__ import annotations

import contextlib
import logging

from parlour.server.settings import Settings


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
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=False,  # small messages: compressing cost a fifth of the CPU
        log_level="info",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    app.state.uvicorn_server = server
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise SystemExit(3)  # as uvicorn.run: the server could not start (e.g. port taken)
