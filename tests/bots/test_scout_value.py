"""A learned leaf value for SCOUT's search (:mod:`parlour.bots.scout.value`): the features
describe a seat, the value is a seat's expected points minus the others' mean, the weights are
fitted by ``bench/train_scout_value.py`` and the search can use them at its leaves."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from parlour.bots.scout.ismcts import ISMCTSBot
from parlour.bots.scout.value import VALUE_FEATURES, LeafValue, seat_features
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE
from tests.bots.test_scout_ismcts import eval_positions, searched_plays


def play_positions(players: int, seed: int) -> list[scout.State]:
    return [s for s in eval_positions(players, seed) if s.phase == PLAY_PHASE]


def card_value() -> LeafValue:
    """Points as a round would end now: captured cards and chips, minus the cards in hand."""
    weights = [0.0] * len(VALUE_FEATURES)
    for name, w in (("cards", -1.0), ("captured", 1.0), ("chips", 1.0)):
        weights[VALUE_FEATURES.index(name)] = w
    return LeafValue({3: weights, 4: weights})


def test_seat_features_describe_the_seat() -> None:
    state = play_positions(4, 3)[5]
    seat = state.turn
    features = dict(zip(VALUE_FEATURES, seat_features(state, seat), strict=True))
    assert features["cards"] == len(state.hands[seat])
    assert features["captured"] == len(state.piles[seat])
    assert features["chips"] == state.chips[seat]
    assert features["to_move"] == 1
    after = dict(zip(VALUE_FEATURES, seat_features(state, (seat + 1) % 4), strict=True))
    assert after["to_move"] == 0 and after["next"] == 1
    before = dict(zip(VALUE_FEATURES, seat_features(state, (seat + 3) % 4), strict=True))
    assert before["third"] == 1, "the seat before the mover acts last of the four"


def test_the_value_is_expected_points_minus_the_others_mean() -> None:
    value = card_value()
    for state in play_positions(4, 6)[::7]:
        points = value.points(state)
        assert points == [
            len(state.piles[s]) + state.chips[s] - len(state.hands[s]) for s in range(4)
        ]
        values = [value.value(state, s) for s in range(4)]
        assert sum(values) == pytest.approx(0, abs=1e-9)
        assert values[0] == pytest.approx(points[0] - sum(points[1:]) / 3)
    assert value.covers(4) and not value.covers(5)


def test_weights_for_other_features_are_refused() -> None:
    with pytest.raises(ValueError, match="features"):
        LeafValue.from_json({"features": ["cards"], "weights": {"4": [1.0]}})
    with pytest.raises(ValueError, match="numbers"):
        LeafValue({4: [1.0, 2.0]})
    assert LeafValue.from_json(card_value().to_json()).weights == card_value().weights


def test_weights_fitted_to_played_games_drive_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench/train_scout_value.py``: two games' positions, the fit judged against the
    playouts, its weights read by ``ISMCTSBot(value_file=...)``, which plays legal moves."""
    from bench import train_scout_value

    data, weights = tmp_path / "v.npz", tmp_path / "v.json"
    train_scout_value.main(["data", "--bot", "medium", "--games", "2", "--playouts", "2",
                            "--workers", "1", "--out", str(data)])  # fmt: skip
    train_scout_value.main(["fit", str(data), "--out", str(weights)])
    out = capsys.readouterr().out
    assert "learned value" in out and "one playout" in out
    fitted = json.loads(weights.read_text())
    assert list(fitted["weights"]) == ["4"]
    bot = ISMCTSBot(iterations=60, value_file=str(weights), value_mix=1.0)
    played = 0
    for state, seat, legal in searched_plays(play_positions(4, 4)[2:40:6]):
        assert bot.choose(scout.view(state, seat), legal, random.Random(1)) in legal
        assert bot.last_iterations == 60
        played += 1
    assert played >= 3
    with pytest.raises(ValueError, match="value_mix"):
        ISMCTSBot(value_mix=1.5)


def test_a_cut_playout_is_valued_by_the_learned_value_where_it_stops(tmp_path: Path) -> None:
    """``rollout(..., plies, cut=...)`` plays exactly ``plies`` playout moves, the same as the
    playout to the round's end would, and values the position there by ``cut``;
    ``ISMCTSBot(value_cut=True)`` values its new nodes so."""
    from parlour.bots.scout.search import playout_move, rollout

    value = card_value()
    seen: list[scout.State] = []

    def cut(position: scout.State, seat: int) -> float:
        seen.append(position)
        return value.value(position, seat)

    for state in play_positions(4, 8)[::9]:
        seen.clear()
        got = rollout(state, state.turn, random.Random(5), 3, cut=cut)
        replay, rng = state, random.Random(5)
        for _ in range(3):
            if replay.results or replay.phase != PLAY_PHASE:
                break
            replay = scout.apply(replay, replay.turn, playout_move(replay, replay.turn, rng), 0)
        if replay.results:
            assert seen == []
        else:
            assert len(seen) == 1 and seen[0].hands == replay.hands
            assert seen[0].active == replay.active and seen[0].turn == replay.turn
            assert got == value.value(replay, state.turn)
    path = tmp_path / "v.json"
    path.write_text(json.dumps(value.to_json()))
    calls: list[int] = []
    bot = ISMCTSBot(iterations=60, value_file=str(path), plies=2, value_cut=True)
    assert bot.leaf_value is not None
    original = bot.leaf_value.value

    def counted(position: scout.State, seat: int) -> float:
        calls.append(seat)
        return original(position, seat)

    bot.leaf_value.value = counted  # type: ignore[method-assign]
    for state, seat, legal in searched_plays(play_positions(4, 4)[2:30:9]):
        calls.clear()
        assert bot.choose(scout.view(state, seat), legal, random.Random(1)) in legal
        assert calls and set(calls) == {seat}
    with pytest.raises(ValueError, match="value_cut"):
        ISMCTSBot(value_file=str(path), value_cut=True)
