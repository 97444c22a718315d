"""``GET /api/games``: what a lobby may offer, read from each game's ``GameSpec``."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from starlette.testclient import TestClient

from parlour.games.registry import GAMES, get_game
from tests.server.conftest import create


def test_the_games_schema_lists_every_game_its_players_and_options(client: TestClient) -> None:
    got = client.get("/api/games").json()
    assert [g["game"] for g in got["games"]] == list(GAMES)
    by_game = {g["game"]: g for g in got["games"]}
    assert (by_game["scout"]["min_players"], by_game["scout"]["max_players"]) == (2, 5)
    assert (by_game["scan"]["min_players"], by_game["scan"]["max_players"]) == (2, 8)
    assert (by_game["snap"]["min_players"], by_game["snap"]["max_players"]) == (2, 12)
    category = by_game["scan"]["options"]["category"]
    assert category["kind"] == "choice" and "colour" in category["choices"]
    assert by_game["scout"]["options"]["count_unspent_chips"]["kind"] == "bool"


def test_every_option_value_the_schema_offers_makes_a_table(client: TestClient) -> None:
    # Each option's every value, one option at a time, at the fewest and the most players —
    # and an option the schema does not list is refused.
    for entry in client.get("/api/games").json()["games"]:
        game = entry["game"]
        defaults = get_game(game).options_from_json({}).to_json()
        for key, option in entry["options"].items():
            assert option["default"] == defaults[key], (game, key)
            values = [True, False] if option["kind"] == "bool" else option["choices"]
            for value, players in itertools.product(values, (2, entry["max_players"])):
                if (key, value) == ("four_in_a_row", True):
                    continue  # only with other defaults: checked below
                client.cookies.clear()  # a new guest each time: no per-guest limit in the way
                others = [{"kind": "open"}] * (players - 1)  # nobody plays: nothing runs
                made = create(client, others, game=game, options={key: value})
                assert made["seat"] == 0, (game, key, value, made)
        refused = client.post("/api/tables", json={
            "game": game, "seats": [{"kind": "open"}], "options": {"no_such_option": True},
        })  # fmt: skip
        assert refused.status_code == 400 and refused.json()["code"] == "bad_message"
    four = create(client, [{"kind": "open"}], game="scan", options={"four_in_a_row": True})
    assert four["seat"] == 0


def test_the_schema_says_what_the_lobby_used_to_write_down(client: TestClient) -> None:
    # The rules the lobby held in JavaScript before (issue 17) now come from the GameSpecs.
    by_game = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    scout, scan, snap = by_game["scout"], by_game["scan"], by_game["snap"]
    assert scout["options"]["count_unspent_chips"]["players"] == [2, 2]
    assert scan["options"]["dealers_choice"]["off_when"] == ["four_in_a_row"]
    assert scan["options"]["four_in_a_row"]["off_when"] == ["dealers_choice"]
    assert scan["options"]["category"]["label_when"] == {
        "four_in_a_row": "lobby.scan.category_first"
    }
    assert scan["device"] == {
        "colourBlind": {"label": "lobby.scan.colour_blind", "hint": "lobby.scan.colour_blind_hint"}
    }
    assert [g["realtime"] for g in (scout, scan, snap)] == [False, True, True]
    assert scout["levels"] is None
    assert snap["levels"]["seconds"]["medium"] == 0.5
    assert scan["levels"]["by"] == "category" and scan["levels"]["when"] == {
        "four_in_a_row": "random"
    }
    assert [g["players"] for g in (scout, scan, snap)] == [4, 4, 4]


def test_every_catalogue_key_the_schema_names_is_in_the_english_catalogue(
    client: TestClient,
) -> None:
    catalogue = (Path(__file__).resolve().parents[2] / "src/parlour/web/js/i18n.js").read_text()
    keys = set(re.findall(r'^\s*"([\w.]+)":', catalogue, flags=re.M))
    for game in client.get("/api/games").json()["games"]:
        named = [game["levels"]["label"]] if game["levels"] else []
        for option in game["options"].values():
            named += [option["label"], *option["label_when"].values()]
            named += option.get("choice_labels", {}).values()
        named += [device["label"] for device in game["device"].values()]
        missing = [key for key in named if key not in keys]
        assert missing == [], (game["game"], missing)
