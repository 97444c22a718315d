"""'Learn to play' (issue 13): a tutorial table on a fixed deal with predictable opponents,
played over the normal WebSocket protocol, and its tutor bot."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from parlour.bots.levels import make_bot
from parlour.bots.scout.tutor import TutorBot
from parlour.games.registry import get_game
from parlour.games.scout.actions import Flip, Scout, ScoutShow, Show
from parlour.games.scout.rules import group_key
from parlour.server.learn import Lesson, lesson_of
from tests.server.conftest import Msg, hello, send, until

SCOUT = get_game("scout")


def _lesson(game: str) -> Lesson:
    found = lesson_of(game)
    assert found is not None, game
    return found


def _my_turn(msg: Msg) -> bool:
    return msg["type"] == "state" and bool(msg["actions"])


def _act(ws: Any, msg: Msg, action: dict[str, Any]) -> Msg:
    send(ws, "act", state_id=msg["state_id"], action=action)
    return until(ws, lambda m: m["type"] == "state" and m["state_id"] > msg["state_id"]
                 and (_my_turn(m) or m["view"]["results"]))  # fmt: skip


def _first_turn(ws: Any, token: str) -> Msg:
    # The learner's flip decision, once the tutors have made theirs (a move is sent with the
    # latest state id).
    def ready(msg: Msg) -> bool:
        return _my_turn(msg) and all(s["flip_decided"] for s in msg["view"]["seats"][1:])

    first = hello(ws, token)
    return first if ready(first) else until(ws, ready)


def test_a_scout_lesson_is_a_real_table_on_a_fixed_deal(client: TestClient) -> None:
    made = [client.post("/api/learn", json={"game": "scout", "name": "Ana"}).json()
            for _ in range(2)]  # fmt: skip
    hands = []
    for answer in made:
        assert answer["seat"] == 0
        info = client.get(f"/api/tables/{answer['table_id']}").json()
        assert info["game"] == "scout" and info["started"]
        assert [s["level"] for s in info["seat_info"][1:]] == ["tutor", "tutor"]
        with client.websocket_connect(f"/ws/{answer['table_id']}") as ws:
            first = _first_turn(ws, answer["token"])
            hands.append(first["view"]["hand"])
            assert "seed" not in first["view"]
    assert hands[0] == hands[1]  # the same deal every time
    # stored like any table: a restarted server rebuilds it, its tutors and its deal
    table, _ = client.app.state.hub._table_from_store(made[0]["table_id"])  # type: ignore[attr-defined]
    assert table.seed == _lesson("scout").seed and table.seats[1].level == "tutor"


def test_the_scout_lesson_lets_the_learner_try_every_move(client: TestClient) -> None:
    answer = client.post("/api/learn", json={"game": "scout", "name": "Ana"}).json()
    with client.websocket_connect(f"/ws/{answer['table_id']}") as ws:
        msg = _first_turn(ws, answer["token"])
        assert msg["view"]["phase"] == "flip"
        msg = _act(ws, msg, {"type": "flip", "flip": False})
        assert msg["view"]["turn"] == 0 and not msg["view"]["active_show"]  # the learner starts
        tried = []
        while not msg["view"]["results"]:
            legal = [SCOUT.action_from_json(a) for a in msg["actions"]]
            kinds = {type(a) for a in legal}
            if tried == ["show"] and Scout in kinds:  # the coach asks for a Scout, turned over
                action = next(a for a in legal if isinstance(a, Scout) and a.rotate)
                tried.append("scout")
            elif ScoutShow in kinds and "ss" not in tried:
                action: Any = next(a for a in legal if isinstance(a, ScoutShow))
                tried.append("ss")
            elif not tried:  # the coach's suggestion: the weakest two cards
                hand = msg["view"]["hand"]
                twos = [a for a in legal if isinstance(a, Show) and a.length == 2]
                action = min(
                    twos, key=lambda a: group_key([c[0] for c in hand[a.start : a.start + 2]])
                )
                tried.append("show")
            elif msg["view"]["pending_scout_show"] is not None or Scout not in kinds:
                action = max((a for a in legal if isinstance(a, Show)), key=lambda a: a.length)
                tried.append("show")
            else:
                action = next(a for a in legal if isinstance(a, Scout) and a.rotate)
                tried.append("scout")
            msg = _act(ws, msg, action.to_json())
        result = msg["view"]["results"][0]
        assert tried[:2] == ["show", "scout"] and "ss" in tried, tried
        assert result["reason"] == "scouted_out" and result["seat"] == 0, result
        assert result["seats"][0]["exempt"] and result["seats"][0]["points"] > 0


def test_tutors_keep_show_the_weakest_and_let_the_round_end() -> None:
    bot = make_bot("scout", "tutor")
    assert isinstance(bot, TutorBot)
    state = SCOUT.new_state({"players": 3}, _lesson("scout").seed)
    assert bot.choose(
        SCOUT.view(state, 1), SCOUT.legal_actions(state, 1), random.Random(0)
    ) == Flip(False)
    for seat in range(3):
        state = SCOUT.apply(state, seat, Flip(False))
    hand = SCOUT.view(state, 0)["hand"]
    twos = [a for a in SCOUT.legal_actions(state, 0) if a.length == 2]
    weakest = min(twos, key=lambda a: group_key([c[0] for c in hand[a.start : a.start + 2]]))
    state = SCOUT.apply(state, 0, weakest)
    legal = SCOUT.legal_actions(state, 1)
    chosen = bot.choose(SCOUT.view(state, 1), legal, random.Random(0))
    assert isinstance(chosen, Show)
    hand = SCOUT.view(state, 1)["hand"]
    shows = [a for a in legal if isinstance(a, Show)]
    keys = [len(hand[a.start : a.start + a.length]) for a in shows]
    assert chosen.length == min(keys)


def test_the_games_say_which_have_a_lesson(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    lessons = {g["game"]: g["lesson"] for g in games if g["game"] in ("scout", "scan", "snap")}
    assert lessons == {"scout": True, "scan": True, "snap": True}


def test_a_lesson_for_an_unknown_game_is_refused(client: TestClient) -> None:
    answer = client.post("/api/learn", json={"game": "chess"})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_message"


def test_the_learn_page_is_served(client: TestClient) -> None:
    page = client.get("/learn/scout")
    assert page.status_code == 200 and "learn-page.js" in page.text


WEB = Path(__file__).resolve().parents[2] / "src" / "parlour" / "web" / "js"
PLURAL = re.compile(r"\.(zero|one|two|few|many|other)$")


def _catalogue() -> dict[str, dict[str, str]]:
    # i18n-learn.js: addMessages({ en: {...}, nb: {...}, … }), one "key": "text" a line.
    by_language: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in (WEB / "i18n-learn.js").read_text().splitlines():
        if m := re.fullmatch(r"  (\w\w): \{", line):
            current = by_language.setdefault(m.group(1), {})
        elif m := re.fullmatch(r'    ("[^"]+"): (".*"),', line):
            current[json.loads(m.group(1))] = json.loads(m.group(2))
    return by_language


def test_the_lessons_catalogue_is_complete_in_five_languages() -> None:
    catalogue = _catalogue()
    assert list(catalogue) == ["en", "nb", "sv", "sq", "ro"]
    english = {PLURAL.sub("", k) for k in catalogue["en"]}
    for language, texts in catalogue.items():
        assert {PLURAL.sub("", k) for k in texts} == english, language
        for key, text in texts.items():
            assert text.strip(), (language, key)
            placeholders = set(re.findall(r"\{(\w+)\}", text))
            assert placeholders == set(
                re.findall(
                    r"\{(\w+)\}",
                    catalogue["en"].get(key) or catalogue["en"][PLURAL.sub("", key) + ".other"],
                )
            )
        plural = {PLURAL.sub("", k) for k in texts if PLURAL.search(k)}
        assert all(f"{k}.other" in texts for k in plural), language
    # every sentence is used: by its whole key, or as a step of a lesson's coach
    code = "\n".join(p.read_text() for p in WEB.glob("learn-*.js"))
    templated = {  # keys the code builds: `learn.${game}.intro`, `learn.scout.${kind}${you}`
        "intro": "`learn.${game}.intro`",
        "end_scouted": '"end_scouted"',
        "end_scouted_you": '"_you"',
        "end_empty_you": '"_you"',
    }
    unused = [
        key
        for key in english
        if f'"{key}"' not in code
        and f'"{key.rsplit(".", 1)[-1]}"' not in code
        and templated.get(key.rsplit(".", 1)[-1], "\0") not in code
    ]
    assert unused == ["level.tutor"], unused  # the seat's level: render.js asks for it


def test_the_bot_runner_plays_a_tutor_and_settings_refuse_a_negative_tutor_delay() -> None:
    import asyncio

    import pytest

    from parlour.server import Settings
    from parlour.server.bots import BotRunner

    state = SCOUT.new_state({"players": 3}, _lesson("scout").seed)
    runner = BotRunner(0)
    text = asyncio.run(runner.choose("scout", "tutor", SCOUT.view(state, 1),
                                     SCOUT.legal_actions(state, 1), 0))  # fmt: skip
    assert text == "keep"
    with pytest.raises(ValueError):
        Settings(tutor_ms=-1)
    assert Settings.from_env({"PARLOUR_TUTOR_MS": "0"}).tutor_ms == 0
