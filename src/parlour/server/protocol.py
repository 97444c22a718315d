"""The wire protocol: JSON over one WebSocket per seat, version 1.

Every message is a JSON object with ``"v": 1`` and a ``"type"``. The browser sends:

- ``hello`` ``{"token": "..."}`` to sit at its seat, or ``{"watch": true}`` to spectate;
- ``act`` ``{"state_id": 12, "action": {...}}`` (an action's JSON form; ``"seat"`` may be given
  and must then be the connection's own seat);
- ``play`` ``{"seq": 7, "action": {...}, "rt_ms": 412}`` — an input in a real-time game (SCAN,
  SNAP), tied to the reveal it answers instead of a ``state_id`` (other seats' inputs change the
  state all the time). ``seq`` is the view's ``seq`` when the player acted. Timed inputs (SNAP
  ``snap``; SCAN ``touch`` and ``bluffo``) carry ``rt_ms``: the browser's key-press time minus the
  time it painted reveal ``seq`` (wall-clock milliseconds); the server turns it into the credited
  reaction time (N9) and puts that into the action. Untimed inputs (SNAP ``flip``; SCAN
  ``choose``) carry no ``rt_ms``, and ``seq`` must be the current one. ``ref`` is echoed;
- ``fill`` ``{"seat": 2, "level": "medium"}`` and ``start`` ``{}`` (the host, before the start;
  anyone seated once the host has had no connection for ``host_away_s``);
- ``back`` ``{}``: "I'm back" — a computer played for this seat while its turn timer ran out
  (SCOUT tables with two or more people); from now on the person plays again;
- ``hint`` ``{"state_id": 12}``: "Suggest a move" for the seat's turn in that state (tables
  against computers only; :mod:`parlour.server.coach`); ``turning_points`` ``{}`` once the game
  is over: the seat's three costliest moves. ``ref`` is echoed;
- ``ping`` ``{}``; ``pong`` ``{"nonce": n}``, the answer to the server's ``ping`` — sent at once,
  so that the server can measure the seat's round-trip time.

The server sends, each with the table's current ``state_id``:

- ``welcome``: who you are (``seat`` or ``null``, ``role``, ``host``) and the client settings;
- ``state``: your view (``Table.view(seat)``: nothing another seat may not see), your legal
  actions in JSON form, and who is connected; sent after every change. It also carries
  ``timers`` (each running turn timer: ``seat``, ``remaining_ms`` when sent, ``total_ms``) and,
  before the start, ``starting`` (``may_start``: whether you may fill and start; ``host_here``;
  ``others_in_ms``: ms until anyone seated may, ``null`` while the host is here); a seat whose
  ``seat_info`` says ``away: true`` is played by a computer until its person is back;
- ``presence``: ``{"presence": [bool per seat]}`` when a person's seat comes online or goes
  offline during the game (a bot's seat is always online; before the start a whole ``state`` is
  sent instead); spectators coming and going send nothing to others;
- ``ack``: your ``act`` or ``play`` was applied (and stored) — ``ref`` echoes the one you sent;
  for a timed ``play`` it carries the credited ``rt_ms``;
- ``hint``: ``action`` (JSON form), ``reason`` and ``params`` (a message-catalogue key,
  ``hint.reason.<reason>``, and its parameters), ``words`` (``{"key", "params"}``: the move in
  words, ``hint.move.<key>``); its ``state_id`` is the state the hint is for;
- ``turning_points``: ``points``, at most three, each ``{"round", "move", "played", "best",
  "loss", "reason", "params"}`` (``played``/``best`` in words as above; ``loss`` in expected
  points);
- ``error``: ``code`` (machine-readable) and ``message`` (a sentence); it changed nothing;
- ``pong`` (the answer to your ``ping``); ``ping`` ``{"nonce": n}`` on real-time tables, about
  every two seconds: answer with ``pong`` at once.

On real-time tables every ``state`` also carries ``clock``: ``{"now_ms": game time when sent,
"running": bool, "starts_in_ms": wall ms until the game clock starts or null, "speed": game ms
per wall ms}``. The view's times (``reveal_ms``, ``deadline_ms``…) are on that game clock.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import orjson

VERSION = 1
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")
"""The form of a seat token (``secrets.token_urlsafe``)."""
MAX_RT_MS = 60_000
"""The largest reaction time a browser may report (a minute)."""

CLIENT_TYPES = {
    "hello": {"token", "watch"},
    "act": {"state_id", "action", "seat", "ref"},
    "fill": {"seat", "level"},
    "start": set(),
    "play": {"seq", "action", "rt_ms", "ref"},
    "ping": set(),
    "pong": {"nonce"},
    "back": set(),
    "hint": {"state_id", "ref"},
    "turning_points": set(),
}
"""Each message type the browser may send, and the fields it may carry besides v and type."""

CODES = {
    "message_too_large": "that message is too large",
    "bad_json": "that message is not JSON",
    "bad_message": "that message is not in the expected form",
    "bad_version": "this server speaks version 1 of the protocol",
    "unknown_type": "unknown message type",
    "hello_first": "say hello first, with your seat's token or as a spectator",
    "already_hello": "this connection has already said hello",
    "bad_token": "that token is not a seat's at this table",
    "no_such_table": "there is no such table",
    "spectator": "spectators cannot act",
    "wrong_seat": "you can act only for your own seat",
    "not_host": "only the host can do that",
    "not_away": "a computer is not playing for you: you are already here",
    "not_open": "that seat is not open",
    "seats_open": "every seat needs a player or a computer opponent first",
    "already_started": "the game has already started",
    "bad_level": "unknown level",
    "storage_error": "the move could not be saved, so it was not played",
    "unavailable": "the servers cannot coordinate this table right now (Redis is unreachable, "
    "or the table is moving to another server process): the move was not played; try again "
    "in a moment",
    "rate_limited": "too many messages: slow down",
    "table_expired": "this table was closed after a long time without play",
    "table_outdated": "this table was played under earlier rules and cannot be replayed here",
    "too_many_tables": "you have too many unfinished tables: finish or leave one first",
    "busy": "the server is too busy to start a real-time game right now; try again in a minute",
    "too_many_new_tables": "too many new tables from your address: wait a little",
    "too_many_spectators": "this table has as many spectators as it admits: try again later",
    "request_timeout": "the request did not arrive in time",
    "stale_reveal": "that input answers a card that is no longer showing",
    "not_realtime": "this game is played in turns: send act with a state_id",
    "realtime_game": "this game is played in real time: send play with the reveal's seq",
    "no_hints": "hints are offered in games against computers only",
    "not_finished": "the game is not over yet",
    # from the table:
    "stale_state": "the table has moved on",
    "not_your_turn": "it is not your turn",
    "illegal_action": "that move is not allowed now",
    "invalid_action": "that is not a move of this game",
    "game_over": "the game is over",
    "not_started": "the game has not started yet",
}
"""Every refusal code, with a default sentence (the table's own sentences say more)."""


class ProtocolError(Exception):
    """A message the server refuses: ``code`` (a key of :data:`CODES`) and a sentence."""

    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(message or CODES[code])
        self.code = code
        self.message = message or CODES[code]


class Moved(ProtocolError):
    """``unavailable``: the table is now played by another server process (many processes);
    nothing was applied, so the caller may ask again where the table is."""

    def __init__(self, message: str) -> None:
        super().__init__("unavailable", message)


@dataclass(frozen=True)
class ClientMessage:
    """A parsed, well-formed message from the browser."""

    type: str
    body: dict[str, Any]


def parse(text: str | bytes | None, max_bytes: int) -> ClientMessage:
    """Parse one message from the browser.

    Raises :class:`ProtocolError` with ``message_too_large`` (more than ``max_bytes`` bytes),
    ``bad_json``, ``bad_message`` (not an object, a binary frame, or unexpected fields),
    ``bad_version`` or ``unknown_type``.

    >>> parse('{"v": 1, "type": "ping"}', 100).type
    'ping'
    >>> parse('{"v": 2, "type": "ping"}', 100)
    Traceback (most recent call last):
    ...
    parlour.server.protocol.ProtocolError: this server speaks version 1 of the protocol
    """
    if not isinstance(text, str):
        if isinstance(text, bytes) and len(text) > max_bytes:
            raise ProtocolError("message_too_large", f"messages are at most {max_bytes} bytes")
        raise ProtocolError("bad_message", "messages are JSON text, not binary")
    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        raise ProtocolError("message_too_large", f"messages are at most {max_bytes} bytes")
    try:
        # The standard library's parser, not orjson: browsers send few messages (parsing them
        # was 0.1 % of the server's time under load), and orjson reads some hostile input
        # differently (nesting up to 1024 deep, integers beyond 64 bits as floats).
        obj = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        raise ProtocolError("bad_json") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    if not _is_int(obj.get("v")) or obj["v"] != VERSION:
        raise ProtocolError("bad_version")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    body = {k: v for k, v in obj.items() if k not in ("v", "type")}
    extra = set(body) - CLIENT_TYPES[kind]
    if extra:
        raise ProtocolError(
            "bad_message", f"a {kind} message has no field {sorted(extra)[0][:40]!r}"
        )
    _check_fields(kind, body)
    return ClientMessage(kind, body)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_fields(kind: str, body: dict[str, Any]) -> None:
    if kind == "hello":
        token, watch = body.get("token"), body.get("watch")
        if token is not None and (not isinstance(token, str) or not TOKEN.fullmatch(token)):
            raise ProtocolError("bad_message", "a token is 8 to 128 letters, digits, - or _")
        if watch is not None and watch is not True:
            raise ProtocolError("bad_message", "watch is true or absent")
        if (token is None) == (watch is None):
            raise ProtocolError("bad_message", "hello carries either a token or watch: true")
    elif kind == "act":
        if not _is_int(body.get("state_id")):
            raise ProtocolError("bad_message", "act needs the state_id it was chosen in")
        if not isinstance(body.get("action"), dict):
            raise ProtocolError("bad_message", "act needs an action object")
        if "seat" in body and not _is_int(body["seat"]):
            raise ProtocolError("bad_message", "seat is a number")
        _check_ref(body.get("ref"))
    elif kind == "play":
        if not _is_int(body.get("seq")) or body["seq"] < 0:
            raise ProtocolError("bad_message", "play needs the seq of the reveal it answers")
        if not isinstance(body.get("action"), dict):
            raise ProtocolError("bad_message", "play needs an action object")
        rt = body.get("rt_ms")
        if rt is not None and (not _is_int(rt) or not 0 <= rt <= MAX_RT_MS):
            raise ProtocolError("bad_message", f"rt_ms is a whole number from 0 to {MAX_RT_MS}")
        _check_ref(body.get("ref"))
    elif kind == "hint":
        if not _is_int(body.get("state_id")):
            raise ProtocolError("bad_message", "hint needs the state_id of your turn")
        _check_ref(body.get("ref"))
    elif kind == "pong":
        if not _is_int(body.get("nonce")):
            raise ProtocolError("bad_message", "pong echoes the ping's nonce")
    elif kind == "fill" and (
        not _is_int(body.get("seat")) or not isinstance(body.get("level"), str)
    ):
        raise ProtocolError("bad_message", "fill needs a seat number and a level")


def _check_ref(ref: Any) -> None:
    if ref is not None and not (_is_int(ref) or (isinstance(ref, str) and len(ref) <= 40)):
        raise ProtocolError("bad_message", "ref is a number or a short string")


def encode(msg: dict[str, Any] | list[Any]) -> str:
    """``msg`` as compact JSON text: orjson, several times faster than the standard library's
    encoder (under load that encoder was among the largest costs per message sent), UTF-8
    rather than ``\\u`` escapes, keys that are not strings made strings as ``json.dumps``
    makes them. What orjson cannot encode (a string echoed from a browser with a lone
    surrogate, an integer beyond 64 bits) goes through ``json.dumps``.

    >>> encode(message("ping", 3, nonce=1))
    '{"v":1,"type":"ping","state_id":3,"nonce":1}'
    """
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(msg, separators=(",", ":"))


def decode(text: str | bytes) -> Any:
    """JSON text as Python data (orjson), for the servers' own messages to each other. Raises
    ``ValueError`` if it is not JSON."""
    return orjson.loads(text)


def message(kind: str, state_id: int, **fields: Any) -> dict[str, Any]:
    """A server message: ``{"v": 1, "type": kind, "state_id": state_id, **fields}``."""
    return {"v": VERSION, "type": kind, "state_id": state_id, **fields}


def error(code: str, state_id: int, text: str | None = None, **fields: Any) -> dict[str, Any]:
    """An ``error`` message with ``code`` and a sentence (the code's default if none)."""
    return message("error", state_id, code=code, message=text or CODES.get(code, code), **fields)
