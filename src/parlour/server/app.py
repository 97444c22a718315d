"""The ASGI app: pages, a small JSON API and one WebSocket per seat.

Built by :func:`create_app` from :class:`~parlour.server.settings.Settings`; the store, the
bot runner and the rooms are opened in the lifespan (nothing is built at import time).

Routes:

- ``GET /`` the lobby; ``GET /t/{id}`` a table (a seat, an invite to an open seat, or a
  spectator's view with ``?watch``); ``GET /replay/{id}`` a finished game's replay
  (:mod:`parlour.server.pages`); ``GET /static/...`` the front end (``parlour/web``).
- ``POST /api/tables`` create a table and sit in seat 0 (the host): body
  ``{"game": "scout", "name": "Ana", "seats": [{"kind": "bot", "level": "easy"},
  {"kind": "open"}], "options": {"count_unspent_chips": true}}``, checked against the game's
  schema (:mod:`parlour.server.schema`); answers the table id, the seat and its secret token.
- ``GET /learn/{game}`` "Learn to play" (``learn.html``); ``POST /api/learn``
  ``{"game": "scout", "name": "Ana"}`` a tutorial table on the game's fixed deal
  (:mod:`parlour.server.learn`), answered like ``POST /api/tables``.
- ``GET /api/tables/{id}`` public facts about a table (seats, started, finished);
  ``POST /api/tables/{id}/join`` ``{"name": "Bo"}`` take an open seat (seat and token).
- ``GET /api/replay/{id}`` a finished game's frames (:mod:`parlour.server.replay`);
  ``GET /api/replay/{id}/turning-points`` every person's turning points in it
  (:mod:`parlour.server.coach`).
- ``GET /api/games`` what a lobby may offer for each game: players, options (kinds, choices,
  defaults), read from each game's ``GameSpec`` (:mod:`parlour.server.schema`).
- ``GET /{game}/designs.svg`` a game's card drawings as an SVG sprite (its
  ``GameSpec.designs``), e.g. ``/scan/designs.svg``.
- ``GET /api/health`` how the server is doing: event-loop lag, writes waiting for the store,
  tables in play (for monitoring and load tests; nothing about any table).
- ``WS /ws/{id}`` the game (:mod:`parlour.server.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import parlour.art as art
from parlour.server.bots import BotRunner, inline_levels
from parlour.server.hub import Hub, TableExpired
from parlour.server.learn import learn_route
from parlour.server.limits import AddressLimiter
from parlour.server.netinfo import connection_socket
from parlour.server.pages import WEB, page_routes
from parlour.server.protocol import CODES, Moved, ProtocolError, encode, error, parse
from parlour.server.replay import Expired, NotFinished, ReplayCache
from parlour.server.rooms import KICK, Connection, Room
from parlour.server.schema import NewTable, games_route, table_setup
from parlour.server.settings import Settings
from parlour.store import STORAGE_ERRORS, StorageError, describe, open_store, refusal_hint
from parlour.table import VersionMismatch

MAX_BODY = 4096
"""The largest JSON body the API reads."""

log = logging.getLogger("parlour.server")

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
     b"style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
     b"base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]  # fmt: skip


class SecurityHeaders:
    """Adds a strict content security policy and friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *SECURITY_HEADERS]
            await send(msg)

        await self.app(scope, receive, send_with_headers)


def _problem(status: int, code: str, text: str) -> JSONResponse:
    # A refusal that leaves a request body unread closes the connection: the rest is not read.
    headers = {"connection": "close"} if status in (408, 413) else None
    return JSONResponse({"v": 1, "code": code, "message": text}, status_code=status,
                        headers=headers)  # fmt: skip


STATUS = {
    "message_too_large": 413,
    "request_timeout": 408,
    "too_many_tables": 429,
    "too_many_new_tables": 429,
    "busy": 503,
    "storage_error": 503,
    "unavailable": 503,
    "not_open": 409,
    "already_started": 409,
}
"""The HTTP status of an API refusal by its code (400 for the others)."""


async def _json_body(request: Request, timeout_s: float) -> dict[str, Any]:
    """The JSON object in ``request``'s body, read as it arrives and never past
    :data:`MAX_BODY` bytes.

    Raises :class:`ProtocolError`: ``message_too_large`` from the ``Content-Length`` alone, or as
    soon as a body without one (chunked) passes the limit; ``request_timeout`` if the body has
    not arrived within ``timeout_s``; ``bad_message`` or ``bad_json`` for anything but a JSON
    object.
    """
    # JSON only: a cross-site form cannot send application/json without a CORS preflight,
    # which this server never grants.
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ProtocolError("bad_message", "send the body as application/json")
    too_large = ProtocolError("message_too_large", f"requests are at most {MAX_BODY} bytes")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise too_large
    body = bytearray()
    try:
        async with asyncio.timeout(timeout_s):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise too_large
    except TimeoutError:
        text = f"the request body did not arrive within {timeout_s:g} s"
        raise ProtocolError("request_timeout", text) from None
    try:
        obj = json.loads(body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        raise ProtocolError("bad_json") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "the body is a JSON object")
    return obj


GUEST_COOKIE = "parlour_guest"
GUEST_ID = re.compile(r"[A-Za-z0-9_-]{16,40}")
GUEST_MAX_AGE_S = 365 * 24 * 3600
"""A guest is a random id in a cookie (no account): it counts the guest's unfinished tables."""


def create_app(settings: Settings | None = None) -> Starlette:
    """The Parlour web app for ``settings`` (defaults: :meth:`Settings.from_env`)."""
    settings = settings or Settings.from_env()
    replays = ReplayCache(settings.replay_cache_bytes)
    new_tables = AddressLimiter(settings.new_tables_per_min, settings.new_tables_burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:  # off the event loop: PostgreSQL is reached over the network
            store = await asyncio.to_thread(open_store, settings.db, settings.db_busy_timeout_s)
        except StorageError as exc:
            log.critical("not starting: %s. %s", exc, refusal_hint(settings.db, exc))
            raise
        runner = BotRunner(settings.bot_workers, inline_levels(settings.bot_inline))
        if settings.redis:  # one of many processes (parlour.server.cluster)
            from parlour.server.cluster import ClusterHub

            hub: Hub = ClusterHub(settings, store, runner, serve_socket)
        else:
            hub = Hub(settings, store, runner)
        app.state.hub = hub
        app.state.replays = replays
        rebuilt = await hub.open()
        if rebuilt:
            log.info("rebuilt %d unfinished tables from %s", rebuilt, describe(settings.db))
        try:
            yield
        finally:
            await hub.close()
            runner.close()
            store.close()

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    async def designs(request: Request) -> Response:
        # A game's card drawings as an SVG sprite (colour-blind variant with ?colour_blind=1),
        # from its art (parlour.art: the presentation, found by the game's name).
        text = art.designs(
            request.path_params["game"], request.query_params.get("colour_blind") == "1"
        )
        if text is None:
            return _problem(404, "not_found", "no such drawings")
        return Response(text, media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=3600"})  # fmt: skip

    async def create_table(request: Request) -> Response:
        return await new_table(request, table_setup)

    async def new_table(request: Request, setup: Callable[[dict[str, Any]], NewTable]) -> Response:
        # ``setup``: the new table a body asks for (a lobby's choice, or a lesson).
        # Per client address first: a client without a cookie is a new guest every time.
        wait = new_tables.take(request.client.host if request.client else "")
        if wait:
            burst, per_min = settings.new_tables_burst, settings.new_tables_per_min
            text = (f"at most {burst} new tables at once and {per_min:g} a minute from one "
                    f"address: try again in {AddressLimiter.retry_after(wait)} s")  # fmt: skip
            refused = _problem(429, "too_many_new_tables", text)
            refused.headers["retry-after"] = AddressLimiter.retry_after(wait)
            return refused
        guest = request.cookies.get(GUEST_COOKIE, "")
        if not GUEST_ID.fullmatch(guest):
            guest = secrets.token_urlsafe(16)
        try:
            body = await _json_body(request, settings.request_timeout_s)
            game, options, name, seats, seed = setup(body)
            room, token = await hub_of(request).create(game, options, name, seats, guest, seed)
        except ProtocolError as exc:
            return _problem(STATUS.get(exc.code, 400), exc.code, exc.message)
        except ValueError as exc:
            return _problem(400, "bad_message", str(exc))
        except OverflowError as exc:
            return _problem(503, "busy", str(exc))
        answer = JSONResponse({"v": 1, "table_id": room.table_id, "seat": 0, "token": token},
                              status_code=201)  # fmt: skip
        answer.set_cookie(GUEST_COOKIE, guest, max_age=GUEST_MAX_AGE_S, httponly=True,
                          samesite="lax")  # fmt: skip
        return answer

    async def room_of(request: Request) -> Room | Response:
        # The live room, or the problem to answer: 404 for an unknown table, 410 for one
        # closed after a long time without play, 503 if the database cannot be read.
        try:
            return await hub_of(request).get(request.path_params["table_id"])
        except TableExpired:
            return _problem(410, "table_expired", CODES["table_expired"])
        except VersionMismatch:
            return _problem(410, "table_outdated", CODES["table_outdated"])
        except KeyError:
            return _problem(404, "no_such_table", "there is no such table")
        except STORAGE_ERRORS:
            log.exception("could not load table %s", request.path_params["table_id"])
            return _problem(503, "storage_error", "the table could not be read; try again")
        except ProtocolError as exc:  # unavailable (many processes)
            return _problem(STATUS.get(exc.code, 400), exc.code, exc.message)

    async def table_info(request: Request) -> Response:
        room = await room_of(request)
        if isinstance(room, Response):
            return room
        table = room.table
        hub_of(request).forget(room)  # a finished game nobody watches need not stay in memory
        return JSONResponse({
            "v": 1, "table_id": room.table_id, "game": table.game, "started": table.started,
            "finished": room.finished, "seat_info": [s.to_json() for s in table.seats],
            "open_seats": sum(s.kind == "open" for s in table.seats),
        })  # fmt: skip

    async def join_table(request: Request) -> Response:
        room = await room_of(request)
        if isinstance(room, Response):
            return room
        try:
            body = await _json_body(request, settings.request_timeout_s)
            for attempt in range(3):
                try:
                    seat, token = await room.join(body.get("name", "Guest"))
                    break
                except Moved:  # many processes: the table moved meanwhile, nothing was
                    if attempt == 2:  # written: ask again where it is now
                        raise
                room = await room_of(request)
                if isinstance(room, Response):
                    return room
        except ProtocolError as exc:
            return _problem(STATUS.get(exc.code, 400), exc.code, exc.message)
        return JSONResponse({"v": 1, "table_id": room.table_id, "seat": seat, "token": token})

    async def replay_data(request: Request) -> Response:
        # Built once per finished game (off the event loop) and served from the cache.
        try:
            packed = await replays.get(request.path_params["table_id"], hub_of(request).store.load)
        except KeyError:
            return _problem(404, "no_such_table", "there is no such table")
        except Expired:
            return _problem(410, "table_expired", "this game was never finished: no replay")
        except VersionMismatch:
            return _problem(410, "table_outdated", CODES["table_outdated"])
        except NotFinished:
            return _problem(409, "not_finished", "a replay is shown when the game is over")
        except STORAGE_ERRORS:
            log.exception("could not load table %s", request.path_params["table_id"])
            return _problem(503, "storage_error", "the game could not be read; try again")
        headers = {"cache-control": "public, max-age=86400", "vary": "accept-encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["content-encoding"] = "gzip"
            return Response(packed, media_type="application/json", headers=headers)
        text = await asyncio.to_thread(gzip.decompress, packed)
        return Response(text, media_type="application/json", headers=headers)

    async def replay_points(request: Request) -> Response:
        # Every person's turning points in a finished game (parlour.server.coach).
        room = await room_of(request)
        if isinstance(room, Response):
            return room
        try:
            seats = await room.coach.replay_points()
        except ProtocolError as exc:
            return _problem(404 if exc.code == "no_hints" else 409, exc.code, exc.message)
        hub_of(request).forget(room)
        return JSONResponse({"v": 1, "seats": seats}, headers={"cache-control": "no-cache"})

    async def health(request: Request) -> Response:
        return JSONResponse({"v": 1, **hub_of(request).health()},
                            headers={"cache-control": "no-store"})  # fmt: skip

    async def game_socket(websocket: WebSocket) -> None:
        if not await hub_of(websocket).relayed(websocket):  # many processes: the owner's
            await serve_socket(websocket, hub_of(websocket), settings)

    routes = [
        *page_routes(room_of),
        learn_route(new_table),
        Route("/{game}/designs.svg", designs),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/replay/{table_id}", replay_data),
        Route("/api/replay/{table_id}/turning-points", replay_points),
        Route("/api/health", health),
        games_route(),
        WebSocketRoute("/ws/{table_id}", game_socket),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=2048)]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


async def serve_socket(websocket: WebSocket, hub: Hub, settings: Settings) -> None:
    """Run one WebSocket: wait for ``hello``, then handle messages until it closes.

    Every refusal is an ``error`` message and changes nothing; a connection that does not say
    hello in time, or names an unknown table, is closed after its error.
    """
    await websocket.accept()
    table_id = websocket.path_params["table_id"]
    try:
        room = await hub.get(table_id)
    except TableExpired:
        await _send(websocket, error("table_expired", 0))
        await websocket.close(code=4410)
        return
    except VersionMismatch:
        await _send(websocket, error("table_outdated", 0))
        await websocket.close(code=4410)
        return
    except KeyError:
        await _send(websocket, error("no_such_table", 0))
        await websocket.close(code=4404)
        return
    except STORAGE_ERRORS:
        log.exception("could not load table %s", table_id)
        await _send(websocket, error("storage_error", 0, "the table could not be read"))
        await websocket.close(code=1011)
        return
    except ProtocolError as exc:  # unavailable (many processes): the browser comes back
        await _send(websocket, error(exc.code, 0, exc.message))
        await websocket.close(code=1013)
        return
    bucket = TokenBucket(settings.rate_per_s, settings.rate_burst)  # from before hello on
    conn = await _hello(websocket, room, settings, bucket)
    if conn is None:
        return
    if hub.moved(room):  # many processes: it moved on during the hello; the browser follows
        await websocket.close(code=1012)
        return
    conn.sock = connection_socket(websocket.scope)  # the kernel's round trip (N9), if served
    conn.relay = getattr(websocket, "relay", None)  # held by another process: its round trips
    writer = asyncio.create_task(_write(websocket, conn))
    room.connect(conn)
    refused = 0
    # Messages are handled in order by one worker task, so that answers come in the order of
    # the messages, while an input waits for its room (and its store write); pongs are timed
    # here at once, never behind an input.
    inbox: asyncio.Queue[Callable[[], Awaitable[None]] | None] = asyncio.Queue()
    worker = asyncio.create_task(_work(inbox, conn, lambda: room))

    def later(fn: Callable[..., Awaitable[None]], *args: Any) -> None:
        inbox.put_nowait(functools.partial(fn, *args))

    async def say(msg: dict[str, Any]) -> None:
        conn.send(msg)

    try:
        while True:
            msg = await websocket.receive()
            if msg["type"] == "websocket.disconnect":
                break
            received = msg.get("received") or time.monotonic()  # relayed: when it came in there
            room = hub.rooms.get(table_id, room)
            if not bucket.take():
                refused += 1
                if refused > 2 * settings.rate_burst:  # still flooding after the warnings
                    await websocket.close(code=4429)
                    break
                text = f"at most {settings.rate_per_s:g} messages a second; this one was dropped"
                later(say, error("rate_limited", room.table.state_id, text))
                continue
            refused = 0
            try:
                parsed = parse(_payload(msg), settings.max_message_bytes)
                if parsed.type == "act":
                    later(room.act, conn, parsed.body)
                elif parsed.type == "play":
                    later(room.play, conn, parsed.body, received)
                elif parsed.type == "pong":
                    room.pong(conn, parsed.body["nonce"])
                elif parsed.type == "fill":
                    later(room.fill, conn, parsed.body["seat"], parsed.body["level"])
                elif parsed.type == "start":
                    later(room.start, conn)
                elif parsed.type == "back":
                    later(room.back, conn)
                elif parsed.type == "hint":
                    later(room.coach.hint, conn, parsed.body)
                elif parsed.type == "turning_points":
                    later(room.coach.turning_points, conn)
                elif parsed.type == "ping":
                    later(say, {"v": 1, "type": "pong", "state_id": room.table.state_id})
                else:
                    raise ProtocolError("already_hello")
            except ProtocolError as exc:
                later(say, error(exc.code, room.table.state_id, exc.message))
    except WebSocketDisconnect:
        pass
    finally:
        inbox.put_nowait(None)  # what this connection sent is handled before it leaves
        try:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(settings.db_busy_timeout_s + 1):
                    await asyncio.shield(worker)
        finally:  # and if this wait is cancelled (the server stops), it leaves all the same
            room.disconnect(conn)
            conn.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


async def _work(
    inbox: asyncio.Queue[Callable[[], Awaitable[None]] | None],
    conn: Connection,
    room: Callable[[], Room],
) -> None:
    # One connection's messages, in order (see serve_socket).
    while (job := await inbox.get()) is not None:
        try:
            await job()
        except ProtocolError as exc:
            conn.send(error(exc.code, room().table.state_id, exc.message))
        except Exception:
            log.exception("a message at table %s failed", room().table_id)


async def _hello(
    websocket: WebSocket, room: Room, settings: Settings, bucket: TokenBucket
) -> Connection | None:
    # The first message must be hello with a seat's token, or with watch: true, within
    # hello_timeout_s of the socket opening (other messages do not extend it); messages before
    # it count against the connection's rate limit like any other.
    deadline = time.monotonic() + settings.hello_timeout_s
    refused = 0
    while True:
        try:
            async with asyncio.timeout(deadline - time.monotonic()):
                msg = await websocket.receive()
        except TimeoutError:
            await _send(websocket, error("hello_first", room.table.state_id))
            await websocket.close(code=4408)
            return None
        if msg["type"] == "websocket.disconnect":
            return None
        if not bucket.take():
            refused += 1
            if refused > 2 * settings.rate_burst:  # still flooding after the warnings
                await websocket.close(code=4429)
                return None
            text = f"at most {settings.rate_per_s:g} messages a second; this one was dropped"
            await _send(websocket, error("rate_limited", room.table.state_id, text))
            continue
        refused = 0
        try:
            parsed = parse(_payload(msg), settings.max_message_bytes)
            if parsed.type != "hello":
                raise ProtocolError("hello_first")
            if parsed.body.get("watch"):
                if room.watching >= settings.max_spectators:
                    most = settings.max_spectators
                    text = f"this table admits {most} spectators at once: try again later"
                    await _send(websocket, error("too_many_spectators", room.table.state_id, text))
                    await websocket.close(code=4503)
                    return None
                return Connection(None)
            seat = room.seat_for_token(parsed.body["token"])
            if seat is None:
                raise ProtocolError("bad_token")
            return Connection(seat)
        except ProtocolError as exc:
            await _send(websocket, error(exc.code, room.table.state_id, exc.message))


class TokenBucket:
    """A per-connection rate limit: ``rate`` tokens a second, at most ``burst`` saved up.

    >>> bucket = TokenBucket(rate=1, burst=2)
    >>> [bucket.take() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        """Spend a token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _payload(msg: Message) -> str | bytes | None:
    text = msg.get("text")
    return text if text is not None else msg.get("bytes")


async def _write(websocket: WebSocket, conn: Connection) -> None:
    while (msg := await conn.queue.get()) is not None:
        with contextlib.suppress(Exception):
            if msg is KICK:  # the table moved to another process: the browser reconnects
                await websocket.close(code=1012)
                return
            await websocket.send_text(msg if isinstance(msg, str) else encode(msg))


async def _send(websocket: WebSocket, msg: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(encode(msg))
