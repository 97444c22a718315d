"""Rules and chance versions: a stored table is only replayed under what it was played with,
and a failed store write returns the table to its previous immutable state without replaying."""

from __future__ import annotations

import dataclasses
import random

import pytest

from parlour.core import CHANCE_VERSION
from parlour.games.registry import get_game
from parlour.table import (
    Accepted,
    SeatInfo,
    Table,
    VersionMismatch,
    legacy_version,
    play_version,
)
from parlour.table import table as table_module

SEATS = [SeatInfo("human", "Ana"), SeatInfo("bot", "Medium", "medium")]


def play_on(table: Table, rng: random.Random, inputs: int) -> None:
    """Accept ``inputs`` more random inputs (and timeouts), or play to the end."""
    goal = table.state_id + inputs
    while table.state_id < goal and table.outcome() is None:
        due, acting = table.deadline(), table.to_act()
        now = table.record[-1].now_ms if table.record else 0
        if acting and (due is None or rng.random() < 0.7):
            seat = rng.choice(acting)
            now = now if due is None else rng.randint(now, due)
            result = table.submit(seat, table.state_id, rng.choice(table.legal_actions(seat)), now)
        else:
            assert due is not None
            result = table.advance(max(now, due))
        assert isinstance(result, Accepted), result


def played(game: str, seed: int = 5, inputs: int = 12) -> Table:
    """A two-seat table of ``game`` with ``inputs`` random inputs (and timeouts) accepted."""
    table = Table("t", game, {"players": 2}, seed, list(SEATS))
    play_on(table, random.Random(seed), inputs)
    return table


@pytest.mark.parametrize("game", ["scout", "scan", "snap"])
def test_a_new_table_records_the_rules_and_chance_it_is_played_under(game: str) -> None:
    table = Table("t", game, {"players": 2}, 1, list(SEATS))
    assert table.version == play_version(table.spec) == f"{game}-r1-c{CHANCE_VERSION}"
    assert legacy_version(game) == f"{game}-r1-c1" != table.version


@pytest.mark.parametrize("game", ["scout", "scan", "snap"])
def test_a_record_replays_under_its_own_version(game: str) -> None:
    table = played(game)
    again = Table("t", game, {"players": 2}, 5, list(SEATS), record=table.record,
                  version=table.version)  # fmt: skip
    assert again.state == table.state and again.state_id == table.state_id > 5


@pytest.mark.parametrize("game", ["scout", "scan", "snap"])
def test_a_record_of_other_chance_or_rules_is_refused_not_replayed(game: str) -> None:
    table = played(game)
    # stored before versions were recorded (Python's random), or under later rules
    for old in (legacy_version(game), f"{game}-r2-c{CHANCE_VERSION}"):
        with pytest.raises(VersionMismatch, match=f"played under {old}") as caught:
            Table("t", game, {"players": 2}, 5, list(SEATS), record=table.record, version=old)
        assert caught.value.current == table.version


def test_a_change_of_chance_or_rules_changes_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bumping CHANCE_VERSION (core.rng) or a game's rules_version makes every stored table of
    # the earlier version refuse to replay.
    table = played("scan")
    monkeypatch.setattr(table_module, "CHANCE_VERSION", CHANCE_VERSION + 1)
    with pytest.raises(VersionMismatch):
        Table("t", "scan", {"players": 2}, 5, list(SEATS), record=table.record,
              version=table.version)  # fmt: skip
    monkeypatch.undo()
    bumped = dataclasses.replace(get_game("scan"), rules_version=2)
    monkeypatch.setattr(table_module, "get_game", lambda name: bumped)
    with pytest.raises(VersionMismatch, match="this Parlour plays scan-r2-c"):
        Table("t", "scan", {"players": 2}, 5, list(SEATS), record=table.record,
              version=table.version)  # fmt: skip


@pytest.mark.parametrize("game", ["scout", "scan", "snap"])
def test_restore_after_a_failed_write_keeps_the_earlier_state_without_replaying(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = played(game)
    mark = table.mark()
    before_state, before_id, before_record = table.state, table.state_id, list(table.record)
    play_on(table, random.Random(9), 3)  # accepted, then the store fails
    assert table.state_id == before_id + 3
    calls: list[object] = []
    monkeypatch.setattr(
        table, "spec", dataclasses.replace(table.spec, apply=lambda *a: calls.append(a))
    )
    table.restore(mark)
    assert calls == []  # nothing replayed: the earlier immutable state is taken back as it is
    assert table.state is before_state and table.state_id == before_id
    assert table.record == before_record
    with pytest.raises(ValueError, match="ahead"):
        table.restore(dataclasses.replace(mark, state_id=before_id + 1))
