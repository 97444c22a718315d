"""The arena: duplicate deals, statistics, outputs and the command line."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from parlour.bots.levels import LEVELS, make_bot
from parlour.cli.arena import EntryStats, entry_names, play_game, run_arena
from parlour.cli.main import main
from parlour.games.registry import get_game


def test_duplicate_deals_rotate_every_entry_through_every_seat() -> None:
    results = [play_game("scout", 3, ["heuristic", "random", "greedy"], 7, r) for r in range(3)]
    assert [r.seats for r in results] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    for result in results:
        assert sum(result.win_share) == pytest.approx(1.0)
        assert sorted(result.ranks)[0] == 1


def test_run_arena_statistics() -> None:
    stats = run_arena("scout", ["heuristic", "random", "random", "random"], 8, seed=3)
    assert [s.name for s in stats] == ["heuristic", "random", "random#2", "random#3"]
    assert all(s.games == 8 for s in stats)
    assert sum(s.wins for s in stats) == pytest.approx(8)
    assert stats[0].win_rate() >= 0.75
    low, high = stats[0].interval()
    assert 0 <= low <= stats[0].win_rate() <= high <= 1
    assert stats[0].rating > stats[1].rating


def test_wilson_interval() -> None:
    entry = EntryStats("x", games=100, wins=50)
    low, high = entry.interval()
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_entry_names_are_unique() -> None:
    assert entry_names(["a", "b", "a", "a"]) == ["a", "b", "a#2", "a#3"]


def test_every_level_and_name_makes_a_bot_that_plays_a_legal_move() -> None:
    spec = get_game("scout")
    flipping = spec.new_state({"players": 3}, 5)
    playing = flipping
    for seat in spec.to_act(flipping):  # everybody keeps their hand
        playing = spec.apply(playing, seat, spec.legal_actions(playing, seat)[0], 0)
    for state in (flipping, playing):  # the flip decision, then a move in play
        seat = spec.to_act(state)[0]
        legal = spec.legal_actions(state, seat)
        for name in (*LEVELS, "random", "greedy", "oneply", "heuristic", "heuristic:0.3", "eval",
                     "eval:0.3", "search:0.01"):  # fmt: skip
            move = make_bot("scout", name).choose(spec.view(state, seat), legal, random.Random(1))
            assert move in legal, (name, move)
    for bad in ("wizard", "search:x", "search:-1", "easy:2", "random:1", "oneply:1"):
        with pytest.raises(ValueError):
            make_bot("scout", bad)


def test_arena_command_writes_json_and_csv(tmp_path: Path) -> None:
    out_json, out_csv = tmp_path / "r.json", tmp_path / "r.csv"
    code = main(["arena", "--bots", "greedy,random", "--games", "4", "--json", str(out_json),
                 "--csv", str(out_csv)])  # fmt: skip
    assert code == 0
    records = json.loads(out_json.read_text())
    assert [r["bot"] for r in records] == ["greedy", "random"]
    assert set(records[0]) >= {"games", "wins", "win_rate", "ci95", "mean_score",
                               "ms_per_move_median"}  # fmt: skip
    rows = list(csv.DictReader(out_csv.open()))
    assert [r["bot"] for r in rows] == ["greedy", "random"] and rows[0]["games"] == "4"


def test_arena_command_refuses_a_bad_lineup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "greedy,wizard"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["arena", "--bots", "greedy"]) == 2
