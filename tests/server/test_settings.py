"""Settings from the environment and the command line; bots thinking off the event loop."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from parlour.cli.main import main, parse_delay
from parlour.server import Settings, create_app
from parlour.server.bots import BotRunner, bot_seed, choose_text, inline_levels
from parlour.table import SeatInfo, Table
from tests.server.conftest import create, fast_settings, room_of


def test_defaults_are_safe() -> None:
    settings = Settings.from_env({})
    assert (settings.host, settings.port, settings.db) == ("127.0.0.1", 8000, "parlour.db")
    assert 600 <= settings.bot_delay_min_ms <= settings.bot_delay_max_ms <= 1500
    assert settings.max_message_bytes <= settings.ws_max_bytes
    assert set(settings.client()) == {
        "anim_ms",
        "max_message_bytes",
        "game_speed",
        "start_countdown_ms",
    }
    assert settings.game_speed == 1.0 and settings.start_countdown_ms > 0


def test_environment_then_options() -> None:
    env = {
        "PARLOUR_BOT_DELAY_MIN_MS": "0",
        "PARLOUR_BOT_DELAY_MAX_MS": "5",
        "PARLOUR_ANIM_MS": "0",
        "PARLOUR_PORT": "9000",
        "PARLOUR_HELLO_TIMEOUT_S": "2.5",
    }
    settings = Settings.from_env(env, port=9100, db=None)
    assert settings.port == 9100 and settings.db == "parlour.db"
    assert (settings.bot_delay_min_ms, settings.bot_delay_max_ms, settings.anim_ms) == (0, 5, 0)
    assert settings.hello_timeout_s == 2.5


@pytest.mark.parametrize(
    "env",
    [
        {"PARLOUR_PORT": "eighty"},
        {"PARLOUR_BOT_DELAY_MIN_MS": "900", "PARLOUR_BOT_DELAY_MAX_MS": "100"},
        {"PARLOUR_MAX_MESSAGE_BYTES": "10"},
        {"PARLOUR_ANIM_MS": "-1"},
        {"PARLOUR_GC_YOUNG": "-5"},
    ],
)
def test_bad_settings_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        Settings.from_env(env)


def test_the_serve_command_checks_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_delay("0") == (0, 0) and parse_delay(None) == (None, None)
    assert main(["serve", "--bot-delay-ms", "slow"]) == 2
    assert main(["serve", "--bot-delay-ms", "900-100"]) == 2
    assert "parlour serve:" in capsys.readouterr().err


def test_a_searching_bot_thinks_in_another_process() -> None:
    table = Table("t", "scout", {"players": 3}, 11, [SeatInfo("bot", "A", "hard")] * 3)
    seat = table.to_act()[0]
    legal = table.legal_actions(seat)
    runner = BotRunner(workers=1)
    try:
        text = asyncio.run(
            runner.choose("scout", "hard", table.view(seat), legal, bot_seed(11, seat, 0))
        )
        assert text in {str(a) for a in legal}
        assert runner._pool is not None  # the searching level used the process pool
        quick = asyncio.run(runner.choose("scout", "easy", table.view(seat), legal, 1))
        assert quick in {str(a) for a in legal}
        with pytest.raises(ValueError):
            asyncio.run(runner.choose("scout", "grandmaster", table.view(seat), legal, 1))
    finally:
        runner.close()


def test_a_table_seed_replays_the_deals_and_none_draws_them_securely(tmp_path: Path) -> None:
    def seeds(run: str, table_seed: int) -> list[int]:
        (tmp_path / run).mkdir()
        settings = fast_settings(tmp_path / run, table_seed=table_seed)
        with TestClient(create_app(settings)) as client:
            made = [create(client, [{"kind": "bot", "level": "easy"}]) for _ in range(3)]
            return [room_of(client, m["table_id"]).table.seed for m in made]

    first = seeds("a", 1234)
    assert seeds("b", 1234) == first and len(set(first)) == 3  # replayed, and not all one deal
    assert seeds("c", 4321) != first
    assert seeds("d", 0) != seeds("e", 0)  # the secure source: a new deal every time


def test_a_one_move_ahead_level_chooses_on_the_loop_as_it_would_in_the_pool() -> None:
    table = Table("t", "scout", {"players": 4}, 12, [SeatInfo("bot", "A", "medium")] * 4)
    runner = BotRunner(workers=1, inline=inline_levels(Settings().bot_inline))
    try:
        for level in ("beginner", "easy", "medium"):
            for seat in table.to_act():
                legal = table.legal_actions(seat)
                view, seed = table.view(seat), bot_seed(12, seat, 0)
                text = asyncio.run(runner.choose("scout", level, view, legal, seed))
                # the same move the pool's function of plain data picks
                assert text == choose_text("scout", level, view, [str(a) for a in legal], seed)
        assert runner._pool is None and runner.inline_moves == 12  # no process was started
    finally:
        runner.close()


def test_bot_inline_names_levels() -> None:
    assert inline_levels(" easy, medium ,,") == {"easy", "medium"}
    assert inline_levels(Settings().bot_inline) == {"beginner", "easy", "medium", "tutor"}
    assert Settings.from_env({"PARLOUR_BOT_INLINE": ""}).bot_inline == ""
    with pytest.raises(ValueError, match="bot_inline"):
        Settings(bot_inline="easy,grandmaster")


def test_a_server_process_sets_aside_what_it_started_with_and_collects_less_often() -> None:
    # parlour serve calls tune_gc(settings.gc_young) (in GcKeeper.start) before it serves (in a
    # process of its own here: the collector's settings are the whole process's).
    code = (
        "import gc; from parlour.server.run import tune_gc; from parlour.server import Settings\n"
        "before = gc.get_threshold(); tune_gc(0); kept = gc.get_threshold()\n"
        "tune_gc(Settings.from_env({'PARLOUR_GC_YOUNG': '12345'}).gc_young)\n"
        "print(before == kept, gc.get_threshold()[0], gc.get_freeze_count() > 1000)"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=60, check=True)  # fmt: skip
    assert found.stdout.split() == ["True", "12345", "True"]
    assert Settings().gc_young == 20000


def test_a_server_process_sets_aside_what_survives_a_collection_and_sweeps_now_and_then() -> None:
    # GcKeeper (parlour serve, gc_freeze_s): in a process of its own, as the collector is the
    # whole process's. freeze_s 0: it sets aside after every collection.
    code = """
import gc, json, random, time, weakref
from parlour.server.run import GcKeeper

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.b, b.a = b, a
    return a

keeper = GcKeeper(0, 600, random.Random(1))
gc.callbacks.append(keeper.after_collection)
found = {}
garbage = weakref.ref(cycle())  # cyclic garbage already: the collection before freezing finds it
gc.collect(0)
found["garbage_collected"] = garbage() is None
found["set_aside"] = gc.get_freeze_count()
alive = cycle()
held = weakref.ref(alive)
gc.collect(0)  # survives, and is set aside
del alive  # cyclic garbage now, but set aside
gc.collect()
found["kept_until_sweep"] = held() is not None
now = time.monotonic()
found["unreachable"] = keeper.sweep()
found["swept"] = held() is None
found["set_aside_again"] = gc.get_freeze_count() > 0
found["next_in"] = keeper.next_sweep - now
from parlour.server import Settings
found["off"] = GcKeeper.start(Settings(gc_young=12345, gc_freeze_s=0)) is None
found["young"] = gc.get_threshold()[0]
started = GcKeeper.start(Settings(gc_young=20000))
found["started"] = started is not None and started.after_collection in gc.callbacks
print(json.dumps(found))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    found = json.loads(done.stdout)
    assert found["garbage_collected"] and found["set_aside"] > 1000
    assert found["kept_until_sweep"] and found["swept"] and found["unreachable"] >= 2
    assert found["set_aside_again"]
    assert 450 <= found["next_in"] <= 750  # 600 s ± 25 %
    assert found["off"] and found["young"] == 12345 and found["started"]
    assert Settings().gc_freeze_s == 5.0 and Settings().gc_sweep_s == 600.0
    assert Settings.from_env({"PARLOUR_GC_FREEZE_S": "0"}).gc_freeze_s == 0
    with pytest.raises(ValueError, match="gc_freeze_s"):
        Settings(gc_freeze_s=-1)
