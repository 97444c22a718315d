"""What a lobby may offer and ask for, game by game, read from each game's ``GameSpec`` (so
that no rule of a game is written again in the server or the lobby): the schema served by
``GET /api/games`` (:func:`games_schema`) and the check of a ``POST /api/tables`` body against
it (:func:`parse_setup`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from parlour.bots.levels import LEVELS, level_words
from parlour.games.registry import get_game, names
from parlour.server.protocol import ProtocolError
from parlour.server.rooms import clean_name
from parlour.table import SeatInfo

NewTable = tuple[str, dict[str, Any], str, list[SeatInfo], int | None]
"""A new table as a request asks for it: game, options, host name, other seats and seed
(``None``: drawn at random)."""


def parse_setup(obj: dict[str, Any]) -> tuple[str, dict[str, Any], str, list[SeatInfo]]:
    """The game, options, host name and other seats of a ``POST /api/tables`` body.

    Raises :class:`ProtocolError` (``bad_message``) for anything out of place: an unknown
    game, too few or too many players for it (its ``GameSpec``'s ``min_players`` and
    ``max_players``), seats that are not ``{"kind": "bot", "level": L}`` or ``{"kind": "open"}``,
    options that are not the game's (its ``GameSpec.setup``) or have values it does not allow.
    Without ``game``, the first game of the registry.
    """
    known = names()
    game = obj.get("game", known[0])
    if not isinstance(game, str) or game not in known:
        raise ProtocolError("bad_message", f"{str(game)[:20]!r} cannot be played here")
    spec = get_game(game)
    most, allowed = spec.max_players, spec.setup
    seats_in = obj.get("seats")
    if not isinstance(seats_in, list) or not 1 <= len(seats_in) <= most - 1:
        text = f"{game.upper()} is played by 2 to {most} players: 1 to {most - 1} others"
        raise ProtocolError("bad_message", text)
    seats = []
    for item in seats_in:
        if not isinstance(item, dict) or item.get("kind") not in ("bot", "open"):
            raise ProtocolError("bad_message", "each other seat is a bot or open")
        if item["kind"] == "bot":
            if item.get("level") not in LEVELS:
                raise ProtocolError("bad_message", f"levels are {', '.join(LEVELS)}")
            seats.append(SeatInfo("bot", "", item["level"]))
        else:
            seats.append(SeatInfo("open"))
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise ProtocolError("bad_message", "options is an object")
    for key, value in options.items():
        if key not in allowed:
            listed = ", ".join(allowed)
            raise ProtocolError("bad_message", f"{game.upper()}'s options are {listed}")
        kind = allowed[key]
        ok = isinstance(value, bool) if kind is bool else value in kind
        if not ok:
            raise ProtocolError("bad_message", f"option {key} cannot be {str(value)[:20]!r}")
    return game, dict(options), clean_name(obj.get("name")), seats


def table_setup(obj: dict[str, Any]) -> NewTable:
    """The table a ``POST /api/tables`` body asks for (:func:`parse_setup`), its seed drawn at
    random."""
    return (*parse_setup(obj), None)


def games_schema() -> list[dict[str, Any]]:
    """What a lobby may offer, game by game (``GET /api/games``), read from each game's
    ``GameSpec`` and bots so that no rule of a game is written again in the lobby:

    - ``game``, ``title`` (its name as shown), ``min_players``, ``max_players``, ``players``
      (the default), ``realtime`` (computer opponents set by one level and a pace-setter, not
      seat by seat);
    - ``options``: each option's ``kind`` (``bool``, or ``choice`` with its ``choices``),
      ``default``, the player counts it matters at (``players``: fewest, most), the options
      that turn it off (``off_when``: of two that exclude each other, each turns the other
      off), and the message-catalogue keys of its ``label``,
      ``hint``, ``off`` (its hint while turned off), ``label_when`` (its label while another
      option is on) and, for a choice, ``choice_labels``;
    - ``device``: check boxes kept in this browser for the game's page (name → label, hint);
    - ``lesson``: whether the game has a "Learn to play" lesson (``/learn/<game>``);
    - ``levels``: what each bot level means (:func:`parlour.bots.levels.level_words`), or
      ``None``.
    """
    out = []
    for name in names():
        spec = get_game(name)
        defaults = spec.options_from_json({}).to_json()
        labels = spec.labels
        everyone = (spec.min_players, spec.max_players)
        options = {}
        for key, allowed in spec.setup.items():
            label = labels.get(key, f"lobby.{name}.{key}")
            option: dict[str, Any] = {
                "kind": "bool" if allowed is bool else "choice",
                "default": defaults[key],
                "players": list(spec.option_players.get(key, everyone)),
                "off_when": [b if a == key else a for a, b in spec.excludes if key in (a, b)],
                "label": label, "hint": f"{label}_hint", "off": f"{label}_off",
                "label_when": {other: labels[f"{key}/{other}"] for other in spec.setup
                               if f"{key}/{other}" in labels},
            }  # fmt: skip
            if allowed is not bool:
                option["choices"] = list(allowed)
                option["choice_labels"] = {
                    str(v): labels.get(f"{key}={v}", f"lobby.{name}.{v}") for v in allowed
                }
            options[key] = option
        device = {}
        for key in spec.device:
            label = labels.get(key, f"lobby.{name}.{key}")
            device[key] = {"label": label, "hint": f"{label}_hint"}
        out.append({
            "game": name, "title": name.upper(), "min_players": spec.min_players,
            "max_players": spec.max_players, "players": defaults.get("players", spec.min_players),
            "realtime": spec.race is not None, "lesson": spec.lesson is not None,
            "options": options, "device": device,
            "levels": level_words(name),
        })  # fmt: skip
    return out


def games_route() -> Route:
    """``GET /api/games``: :func:`games_schema`, built once."""
    schema = games_schema()

    async def games(request: Request) -> Response:
        return JSONResponse({"v": 1, "games": schema}, headers={"cache-control": "no-cache"})

    return Route("/api/games", games)
