"""The HTML pages: the lobby, a table (each game's own page), a replay and "Learn to play",
each served with ``<html lang>`` in the language it will speak (:mod:`.languages`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from parlour.server.languages import html_in, page_language
from parlour.server.rooms import Room

WEB = Path(__file__).resolve().parent.parent / "web"
"""The static front end."""


def html_page(request: Request, name: str) -> Response:
    """The page ``name`` of the web folder, its ``<html lang>`` in the language the page will
    speak (its script has the last word)."""
    lang = page_language(request.query_params.get("lang"), request.headers.get("accept-language"))
    headers = {"cache-control": "no-cache", "vary": "Accept-Language", "content-language": lang}
    return Response(html_in(WEB / name, lang), media_type="text/html", headers=headers)


def page(name: str) -> Any:
    """An endpoint serving the page ``name`` (:func:`html_page`)."""

    async def endpoint(request: Request) -> Response:
        return html_page(request, name)

    return endpoint


def page_routes(room_of: Callable[[Request], Awaitable[Room | Response]]) -> list[Route]:
    """The pages' routes; ``room_of`` finds a request's table (or the problem to answer)."""

    async def table_page(request: Request) -> Response:
        # Each game has its own table page; an unknown table gets the generic page, which says so.
        room = await room_of(request)
        name = room.table.spec.page if isinstance(room, Room) else "game.html"
        return html_page(request, name)

    return [
        Route("/", page("index.html")),
        Route("/t/{table_id}", table_page),
        Route("/replay/{table_id}", page("replay.html")),
        Route("/learn/{game}", page("learn.html")),
    ]
