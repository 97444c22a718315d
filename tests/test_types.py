"""mypy checks the layers against each other through the generic ``GameSpec[S, A, V]``: a
view key that a game's view does not have, a game's function given another game's state, or a
spec whose view does not match its declared type is an error (each seeded below)."""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parent.parent

SNIPPETS = {
    "a key no SCOUT view has": (
        "from parlour.games import scout\n"
        "state = scout.new_state({'players': 3}, 1)\n"
        "print(scout.GAME.view(state, 0)['stock'])\n",
        'TypedDict "ScoutView" has no key "stock"',
    ),
    "a SNAP state given to SCOUT": (
        "from parlour.games import scout, snap\n"
        "scout.GAME.legal_actions(snap.new_state({'players': 3}, 1), 0)\n",
        "incompatible type",
    ),
    "a view of the wrong shape": (  # a plain dict where the spec declares ScoutView
        "from typing import Any\n"
        "from parlour.core import GameSpec\n"
        "from parlour.games import scout\n"
        "def bad(state: scout.State, seat: int | None) -> dict[str, Any]:\n"
        "    return {}\n"
        "spec2: GameSpec[scout.State, scout.Action, scout.ScoutView] = GameSpec(\n"
        "    'x', 2, 5, scout.new_state, scout.to_act, scout.legal_actions, scout.apply, bad,\n"
        "    scout.deadline, scout.outcome, scout.parse_action, scout.action_from_json,\n"
        "    scout.options_from_json, scout.check_invariants, scout.hidden_info,\n"
        "    scout.scramble_hidden)\n",
        "incompatible type",
    ),
}


def test_mypy_finds_each_seeded_type_error(tmp_path: Path) -> None:
    for name, (source, expected) in SNIPPETS.items():
        path = tmp_path / f"{name.replace(' ', '_')}.py"
        path.write_text(source)
        out, err, status = api.run(
            ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".cache"),
             "--config-file", str(ROOT / "pyproject.toml"), str(path)]
        )  # fmt: skip
        assert status == 1 and expected in out, f"{name}: {out}{err}"
    good = tmp_path / "good.py"
    good.write_text(
        "from parlour.games import scout\n"
        "state = scout.new_state({'players': 3}, 1)\n"
        "hand = scout.GAME.view(state, 0)['hand']\n"
    )
    out, err, status = api.run(
        ["--strict", "--cache-dir", str(tmp_path / ".cache"),
         "--config-file", str(ROOT / "pyproject.toml"), str(good)]
    )  # fmt: skip
    assert status == 0, out + err
