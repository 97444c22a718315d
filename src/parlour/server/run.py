"""Run the app with uvicorn (``parlour serve``)."""

from __future__ import annotations

import logging

from parlour.server.settings import Settings


def serve(settings: Settings) -> None:
    """Serve Parlour on ``settings.host:settings.port`` until interrupted."""
    import uvicorn

    from parlour.server.app import create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=False,  # small messages: compressing cost a fifth of the CPU
        log_level="info",
        lifespan="on",
    )
