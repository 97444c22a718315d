"""The web server: an ASGI app (Starlette) with pages, a JSON API and WebSockets.

``create_app(settings)`` builds the app; ``serve(settings)`` runs it with uvicorn.
"""

from parlour.server.app import create_app
from parlour.server.run import serve
from parlour.server.settings import Settings

__all__ = ["Settings", "create_app", "serve"]
