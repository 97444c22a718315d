"""SCOUT as an OpenSpiel game: chance deals, information states, and OpenSpiel's own
algorithms playing it unchanged."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from parlour.games import scout
from parlour.games.scout.cards import canonical
from parlour.rl import scout_codec as codec
from parlour.rl.openspiel import ParlourBot


def game(players: int) -> pyspiel.Game:
    return pyspiel.load_game("python_scout", {"players": players})


def chance_step(state: pyspiel.State, rng: np.random.Generator) -> None:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    assert abs(sum(probs) - 1) < 1e-9
    state.apply_action(int(rng.choice(outcomes, p=probs)))


def first_decision(players: int, seed: int) -> pyspiel.State:
    state = game(players).new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        chance_step(state, rng)
    return state


def test_the_game_is_registered_with_its_properties() -> None:
    g = game(4)
    kind = g.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert g.num_players() == 4 and g.num_distinct_actions() == codec.N_ACTIONS
    with pytest.raises(Exception, match="2 to 5"):
        game(6)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_is_chance_and_a_random_game_ends_with_the_engines_scores(players: int) -> None:
    state = game(players).new_initial_state()
    rng = np.random.default_rng(players)
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            chance_nodes += 1
        else:
            assert state.legal_actions() == sorted(state.legal_actions())
            state.apply_action(int(rng.choice(state.legal_actions())))
    deals = {2: 44, 3: 36 * 3, 4: 44 * 4, 5: 45 * 5}[players]
    assert chance_nodes == 1 + deals
    engine = state.engine.value
    assert state.returns() == [float(t) for t in engine.totals]
    assert len(engine.results) == engine.options.rounds


def test_openspiels_random_simulation_test_passes() -> None:
    pyspiel.random_sim_test(game(3), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [2, 4])
def test_a_resampled_state_has_the_same_information_state_and_other_hands(players: int) -> None:
    rng = np.random.default_rng(1)
    state = first_decision(players, seed=1)
    positions = redrawn = 0
    while positions < 40 and not state.is_terminal():  # into the play, with scouted cards
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        positions += 1
        player = state.current_player()
        key = state.information_state_string(player)
        tensor = state.information_state_tensor(player)
        differs = False
        for _ in range(5):
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
            assert other.information_state_string(player) == key
            assert other.information_state_tensor(player) == tensor
            assert other.legal_actions() == state.legal_actions()
            scout.check_invariants(other.engine.value)
            differs |= other.engine.value.hands != state.engine.value.hands
        redrawn += differs
        state.apply_action(int(rng.choice(state.legal_actions())))
    # (a late position may leave one unseen card: only its orientation can change)
    assert redrawn >= 0.8 * positions


def test_an_information_state_hides_other_seats_flip_choices() -> None:
    state = first_decision(3, seed=2)
    flips = {}
    while state.engine.value.phase == 0:
        player = state.current_player()
        action = 1 if player == 1 else 0
        flips[player] = action
        state.apply_action(action)
    text = state.information_state_string(0)
    assert "1:decided" in text and "0:keep" in text and "flip" not in text


def test_an_illegal_action_is_refused() -> None:
    state = first_decision(3, seed=3)
    before = state.information_state_string(state.current_player())
    with pytest.raises(Exception, match=r"action 30 \(show 2 9\) is not legal .* 2 legal"):
        state.apply_action(30)
    assert state.information_state_string(state.current_player()) == before


class RestartableISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTSBot has no restart_at, which evaluate_bots calls first; its
    search starts afresh at every step anyway."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


def test_openspiels_ismcts_plays_complete_games() -> None:
    g = game(2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        RestartableISMCTS(g, evaluator, 2.0, 8, random_state=np.random.RandomState(1)),
        pyspiel.make_uniform_random_bot(1, 2),
    ]
    state = g.new_initial_state()
    returns = evaluate_bots(state, bots, np.random.default_rng(0))
    assert state.is_terminal() and returns == state.returns()


def test_openspiels_mcts_with_random_rollouts_plays_a_complete_game() -> None:
    g = game(2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(g, 2.0, 6, evaluator, random_state=np.random.RandomState(2)),
        ParlourBot(1, "medium", seed=1),
    ]
    returns = evaluate_bots(g.new_initial_state(), bots, np.random.default_rng(1))
    assert len(returns) == 2


@pytest.mark.parametrize("players", [2, 3])
def test_equal_information_states_have_equal_legal_actions(players: int) -> None:
    """ISMCTS keys its tree by information states: in two worlds a seat cannot tell apart (one
    resampled from the other, then the same moves), its legal actions must be the same."""
    rng = np.random.default_rng(players)
    state = first_decision(players, seed=players)
    checked = decisions = 0
    while decisions < 30 and not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        decisions += 1
        world = state.resample_from_infostate(
            state.current_player(), pyspiel.UniformProbabilitySampler(0, 1)
        )
        a, b = state.clone(), world
        for _ in range(12):
            if a.is_terminal() or b.is_terminal() or a.is_chance_node() or b.is_chance_node():
                break
            p = a.current_player()
            if p == b.current_player() and (
                a.information_state_string(p) == b.information_state_string(p)
            ):
                assert a.legal_actions() == b.legal_actions()
                checked += 1
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common or p != b.current_player():
                break
            move = int(rng.choice(common))
            a.apply_action(move)
            b.apply_action(move)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked >= 30


def test_a_two_player_second_round_resample_holds_no_card_seen_in_round_one() -> None:
    """Round 2 of the 2-player game is the 22 cards set aside in round 1 (S15)."""
    rng = np.random.default_rng(7)
    state = first_decision(2, seed=7)
    checked = 0
    while not state.is_terminal() and checked < 30:
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        engine = state.engine.value
        if engine.round == 1 and engine.phase == 1:
            player = state.current_player()
            seen = {canonical(c) for c in state.hands_dealt.value[0][player]}
            for event in scout.history(engine, player):
                if event["round"] == 1 and event["type"] == "show":
                    seen.update(canonical((c[0], c[1])) for c in event["cards"])
            for _ in range(3):
                other = state.resample_from_infostate(
                    player, pyspiel.UniformProbabilitySampler(0, 1)
                )
                hand = {canonical(c) for c in other.engine.value.hands[1 - player]}
                assert not hand & seen
                scout.check_invariants(other.engine.value)
            checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked >= 10
