"""The search's fast paths give what the plain functions give, to the last bit and the last
draw: the opponent model's options (``model_options``), its and the inference's scores
(``plain_scores`` against the feature vectors' dot product, compiled and in Python), the
playouts' moves (``playout_move`` against ``playout_policy`` over every legal action) and whole
playouts (the compiled ``play_round_out`` against the Python one). The search's moves, and so
every arena result, stay the same."""

from __future__ import annotations

import random

import pytest

from parlour.bots.scout import features as features_module
from parlour.bots.scout import heuristic
from parlour.bots.scout import opponent_model as model_module
from parlour.bots.scout import search as search_module
from parlour.bots.scout.features import (
    dot,
    features,
    load_weights,
    plain_scores,
    scout_show_scores,
)
from parlour.bots.scout.inference import fits
from parlour.bots.scout.opponent_model import (
    model_options,
    model_rollout,
    model_rollout_py,
    plain_actions,
)
from parlour.bots.scout.search import (
    compiled_round,
    end_value,
    play_round_out,
    play_round_out_py,
    playout_move,
    playout_policy,
    round_points,
)
from parlour.games import scout
from parlour.games.scout.state import PLAY_PHASE
from tests.bots.test_scout_ismcts import eval_positions


def positions() -> list[scout.State]:
    """Play-phase states of seeded eval games, 2–5 players, with the states a Scout & Show's
    Scout leaves (the Show still to come) added."""
    found = []
    for players in (2, 3, 4, 5):
        for state in eval_positions(players, 70 + players, rounds=2):
            if state.phase != PLAY_PHASE:
                continue
            found.append(state)
            seat = scout.to_act(state)[0]
            for action in scout.legal_actions(state, seat):
                if isinstance(action, scout.ScoutShow):
                    found.append(scout.apply(state, seat, action))
                    break
    return found


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_plain_scores_are_the_feature_vectors_dot_product_to_the_last_bit(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not compiled:
        monkeypatch.setattr(features_module, "_PLAIN_SCORES", None)
    rng = random.Random(5)
    shipped = load_weights()
    kinds: set[str] = set()
    for state in positions():
        seat = scout.to_act(state)[0]
        view = scout.view(state, seat)
        legal = scout.legal_actions(state, seat)
        opponents = [len(h) for i, h in enumerate(state.hands) if i != seat]
        players = len(state.hands)
        for w in (shipped, tuple(rng.uniform(-3, 3) for _ in shipped)):
            got = plain_scores(
                [c[0] for c in state.hands[seat]],
                state.active,
                opponents,
                1.0 if view["seats"][seat]["scout_show_available"] else 0.0,
                players > 2 and view["scouts_since_show"] + 1 >= players - 1,
                legal,
                w,
                view,
            )
            assert [x.hex() for x in got] == [dot(w, features(view, a, w)).hex() for a in legal]
        kinds.update(type(a).__name__ for a in legal)
    assert kinds == {"Show", "Scout", "ScoutShow"}


def test_plain_scores_want_the_view_for_a_scout_and_show() -> None:
    state = next(s for s in positions() if s.active and len(s.hands) > 2 and not s.pending)
    seat = scout.to_act(state)[0]
    action = scout.ScoutShow("left", False, 0)
    with pytest.raises(ValueError, match="view"):
        plain_scores([c[0] for c in state.hands[seat]], state.active, [5, 5], 1.0, False,
                     [action], load_weights())  # fmt: skip


def test_scout_show_scores_are_the_feature_vectors_dot_product_to_the_last_bit() -> None:
    """Every Scout & Show of the positions (3–5 players), with the shipped and random weights:
    the value of the best following Show as :func:`features` finds and values it."""
    rng = random.Random(3)
    checked = 0
    for state in positions():
        seat = scout.to_act(state)[0]
        options = [a for a in scout.legal_actions(state, seat) if type(a) is scout.ScoutShow]
        if not options:
            continue
        view = scout.view(state, seat)
        opponents = [len(h) for i, h in enumerate(state.hands) if i != seat]
        for w in (load_weights(), tuple(rng.uniform(-2, 2) for _ in range(14))):
            fast = scout_show_scores([c[0] for c in state.hands[seat]], state.active,
                                     opponents, options, w)  # fmt: skip
            assert fast == [dot(w, features(view, a, w)) for a in options]
            checked += len(options)
    assert checked > 200
    left_10 = scout.ScoutShow("left", False, 0)  # a 10 and a 1 beat no pair of 10s
    with pytest.raises(ValueError, match="no following Show"):
        scout_show_scores([1], [(10, 2), (10, 3), (10, 4)], [5, 5], [left_10], load_weights())


def test_playout_move_is_the_playout_policy_over_every_legal_action_draw_for_draw() -> None:
    kinds: set[str] = set()
    pending = 0
    for state in positions():
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        pending += state.pending
        for seed in range(6):
            fast, plain = random.Random(seed), random.Random(seed)
            move = playout_move(state, seat, fast)
            assert move == playout_policy(state, seat, legal, plain)
            assert fast.getstate() == plain.getstate()
            kinds.add(type(move).__name__)
    assert kinds == {"Show", "Scout"}
    assert pending > 0


def weighed(state: scout.State, seat: int, action: scout.Action) -> bool:
    """Whether the opponent model weighs ``action``: a Show, or a plain Scout that fits."""
    if isinstance(action, scout.Show):
        return True
    if type(action) is not scout.Scout:
        return False
    card = state.active[0] if action.end == "left" else state.active[-1]
    return fits(state.hands[seat], card[1] if action.rotate else card[0], action.insert)


def test_the_opponent_models_options_are_its_shows_and_its_scouts_that_fit() -> None:
    for state in positions():
        seat = scout.to_act(state)[0]
        legal = plain_actions(state, seat)
        expected = [a for a in legal if weighed(state, seat, a)] or legal
        assert model_options(state, seat) == expected


def test_the_opponent_models_scout_and_shows_are_its_feasible_ones_that_fit_less_a_price() -> None:
    """With a price, the model also weighs the Scout & Shows (3+ players, still in hand, a show
    on the table, no Show pending) among the legal ones that fit (all of them if none fits),
    scored by the evaluation less the price; none otherwise."""
    w = load_weights()
    found = 0
    for state in positions():
        seat = scout.to_act(state)[0]
        legal = [a for a in scout.legal_actions(state, seat) if type(a) is scout.ScoutShow]
        options = model_module.scout_show_options(state, seat, w, 2.5)
        if len(state.hands) == 2 or state.pending or not state.scout_show[seat]:
            assert options == []
            continue
        hand, active = state.hands[seat], state.active
        fitting = [a for a in legal
                   if fits(hand, (active[0] if a.end == "left" else active[-1])
                           [1 if a.rotate else 0], a.insert)]  # fmt: skip
        assert [a for a, _ in options] == (fitting or legal)
        view = scout.view(state, seat)
        assert [s for _, s in options] == [dot(w, features(view, a, w)) - 2.5 for a, _ in options]
        found += bool(options)
    assert found > 10


def test_the_opponent_model_plays_scout_and_show_only_when_priced() -> None:
    """``model_move`` never draws a Scout & Show without a price, draws them at a price the
    evaluation's scores can pay, and all but never at a prohibitive one."""
    w = load_weights()
    counts = {None: 0, 0.0: 0, 60.0: 0}
    for state in positions():
        seat = scout.to_act(state)[0]
        if not model_module.scout_show_options(state, seat, w, 0.0):
            continue
        for price in counts:
            for seed in range(20):
                move = model_module.model_move(state, seat, w, 1.0, random.Random(seed), price)
                counts[price] += type(move) is scout.ScoutShow
    assert counts[None] == 0
    assert counts[0.0] > 50
    assert counts[60.0] <= 1


def test_a_whole_playout_is_the_python_one_value_and_draws() -> None:
    """With 3+ players the compiled playout (when built) plays every round out: the same value
    and the generator left in the same state as the Python one, from every position and seat."""
    if heuristic.COMPILED:
        assert search_module._ROLLOUT is not None
        assert features_module._PLAIN_SCORES is not None
    played = 0
    for state in positions():
        for seat in range(len(state.hands)):
            for seed in range(3):
                fast, plain = random.Random(seed), random.Random(seed)
                value = play_round_out(state, seat, fast)
                assert value.hex() == play_round_out_py(state, seat, plain).hex()
                assert fast.getstate() == plain.getstate()
                played += 1
    assert played > 1000


def test_every_seats_points_of_a_playout_are_the_python_ones_draw_for_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``round_points`` (the compiled playout with seat −1, when built) gives every seat's
    round points: the same points and draws as the Python playout, and the same playout as
    ``play_round_out``, whose value for each seat is its points minus the others' mean."""
    if heuristic.COMPILED:
        assert search_module._ROLLOUT is not None
    states = [s for s in positions() if len(s.hands) >= 3]
    compiled = []
    for state in states:
        fast = random.Random(3)
        compiled.append((round_points(state, fast), fast.getstate()))
        for seat in range(len(state.hands)):
            value = play_round_out(state, seat, random.Random(3))
            assert value == end_value(compiled[-1][0], seat)
    monkeypatch.setattr(search_module, "_ROLLOUT", None)
    for state, (points, drawn) in zip(states, compiled, strict=True):
        plain = random.Random(3)
        assert round_points(state, plain) == points
        assert plain.getstate() == drawn
    assert len(states) > 150


def test_the_value_of_a_rounds_end_is_points_or_a_share_of_the_win() -> None:
    """Without totals, the seat's points minus the others' mean; with the game's totals before
    the last round, its share of the win (S6: the highest total wins, equal totals share)."""
    assert end_value([3, -2, 5, 0], 0) == 3 - 1.0
    assert end_value([3, -2, 5, 0], 1, (10, 20, 0, 0)) == 1.0  # 18 beats 13, 5 and 0
    assert end_value([3, -2, 5, 0], 0, (10, 20, 0, 0)) == 0.0
    assert end_value([3, -2, 5, 0], 0, (15, 20, 0, 0)) == 0.5  # 18 and 18 share
    assert end_value([1, 1, 1], 2, (0, 0, 0)) == 1 / 3
    # the lead: the seat's total minus the highest other total
    assert end_value([3, -2, 5, 0], 1, (10, 20, 0, 0), lead=True) == 18 - 13
    assert end_value([3, -2, 5, 0], 0, (10, 20, 0, 0), lead=True) == 13 - 18
    assert end_value([3, -2, 5, 0], 0, (15, 20, 0, 0), lead=True) == 0


@pytest.mark.parametrize("model", [False, True], ids=["fast", "model"])
def test_a_playout_valued_by_the_lead_gives_the_python_value(model: bool) -> None:
    """With totals and ``lead`` (``ISMCTSBot(objective="lead")``) both compiled playouts give
    the Python one's value and draws: the seat's total at the round's end minus the highest of
    the others'."""
    rng = random.Random(12)
    shipped = load_weights()
    ahead = behind = 0
    for state in positions()[::3]:
        players = len(state.hands)
        totals = tuple(rng.randrange(-6, 7) for _ in range(players))
        seat = state.turn
        fast, plain = random.Random(5), random.Random(5)
        if model:
            value = model_rollout(state, seat, fast, shipped, 1.0, totals, True)
            python = model_rollout_py(state, seat, plain, shipped, 1.0, totals, True)
        else:
            value = play_round_out(state, seat, fast, totals, True)
            python = play_round_out_py(state, seat, plain, totals, True)
        assert value.hex() == python.hex()
        assert fast.getstate() == plain.getstate()
        assert value == int(value)
        ahead += value > 0
        behind += value < 0
    assert ahead and behind


@pytest.mark.parametrize("model", [False, True], ids=["fast", "model"])
def test_a_playout_to_the_games_end_gives_the_share_of_the_win_as_python_does(
    model: bool,
) -> None:
    """With totals (``ISMCTSBot(objective="win")`` in the last round) both compiled playouts
    give the Python one's value and draws; the shares of every seat from the same draws sum to
    1 (the fast playout plays alike whoever asks), and ties are shared."""
    rng = random.Random(11)
    shipped = load_weights()
    shares, tied = 0, 0
    for state in positions()[::3]:
        players = len(state.hands)
        totals = tuple(rng.randrange(-6, 7) for _ in range(players))
        for seed in range(2):
            values = []
            for seat in range(players):
                fast, plain = random.Random(seed), random.Random(seed)
                if model:
                    value = model_rollout(state, seat, fast, shipped, 1.0, totals)
                    python = model_rollout_py(state, seat, plain, shipped, 1.0, totals)
                else:
                    value = play_round_out(state, seat, fast, totals)
                    python = play_round_out_py(state, seat, plain, totals)
                assert value.hex() == python.hex()
                assert fast.getstate() == plain.getstate()
                values.append(value)
            if not model:
                assert sum(values) == pytest.approx(1.0)
                shares += 1
                tied += 0 < max(values) < 1
    assert model or (shares > 100 and tied > 0)


def test_a_whole_model_playout_is_the_python_one_value_and_draws() -> None:
    """The playouts by the opponent model (``ISMCTSBot(playout_policy="model")``): compiled
    (3+ players, when built), the same value and draws as :func:`model_rollout_py`, with the
    shipped and random weights and two temperatures."""
    if heuristic.COMPILED:
        assert model_module._MODEL_ROLLOUT is not None
    rng = random.Random(7)
    shipped = load_weights()
    played = 0
    for state in positions():
        for seat in range(len(state.hands)):
            w = shipped if seat % 2 else tuple(rng.uniform(-3, 3) for _ in shipped)
            for seed, temperature in ((0, 1.0), (1, 0.3)):
                fast, plain = random.Random(seed), random.Random(seed)
                value = model_rollout(state, seat, fast, w, temperature)
                assert value.hex() == model_rollout_py(state, seat, plain, w, temperature).hex()
                assert fast.getstate() == plain.getstate()
                played += 1
    assert played > 600


def test_the_compiled_playout_leaves_unusual_positions_to_python() -> None:
    if search_module._ROLLOUT is None:
        pytest.skip("the compiled playout is not built (the Python one plays every round)")
    state = next(s for s in positions() if len(s.hands) == 4 and s.active)
    rng = random.Random(1)
    args = [*(compiled_round(state, 0) or ()), rng.random, rng.randrange]
    for index, bad in [(0, state.hands[:2]), (1, [list(c) for c in state.active]),
                       (2, -1 if state.active else 9), (6, (1, 2)), (8, 7)]:  # fmt: skip
        assert search_module._ROLLOUT(*args[:index], bad, *args[index + 1 :]) is None
    for totals in ((1, 2, 3), (1, 2, 3, 4.0), [1, 2, 3, 4], (1, 2, 3, 10**6)):
        assert search_module._ROLLOUT(*args, totals) is None  # not one small int per seat
    assert search_module._ROLLOUT(*args, (1, 2, 3, 4), 1) is None  # lead is a bool
    everyone = [*args[:8], -1, *args[9:]]
    assert search_module._ROLLOUT(*everyone, (1, 2, 3, 4)) is None  # every seat: no totals
    assert search_module._ROLLOUT(*args[:8], -2, *args[9:]) is None
    assert rng.getstate() == random.Random(1).getstate()


def test_the_compiled_model_playout_leaves_unusual_positions_to_python() -> None:
    if model_module._MODEL_ROLLOUT is None:
        pytest.skip("the compiled playout is not built (the Python one plays every round)")
    state = next(s for s in positions() if len(s.hands) == 4 and s.active)
    rng = random.Random(1)
    w = load_weights()
    args = [*(compiled_round(state, 0) or ()), state.scout_show, tuple(w), 1.0, rng.random, 500]
    assert isinstance(model_module._MODEL_ROLLOUT(*args), float)
    rng.seed(1)
    for index, bad in [(0, state.hands[:2]), (2, -1 if state.active else 9), (8, 7),
                       (9, state.scout_show[:3]), (9, (1, 0, 0, 1)), (10, tuple(w)[:5]),
                       (10, (1,) * len(w)), (11, 1), (13, -1), (13, 2.0)]:  # fmt: skip
        assert model_module._MODEL_ROLLOUT(*args[:index], bad, *args[index + 1 :]) is None
    for totals in ((1, 2, 3), (1, 2, 3, 4.0), [1, 2, 3, 4]):
        assert model_module._MODEL_ROLLOUT(*args, totals) is None
    assert model_module._MODEL_ROLLOUT(*args, (1, 2, 3, 4), "yes") is None
    assert rng.getstate() == random.Random(1).getstate()
