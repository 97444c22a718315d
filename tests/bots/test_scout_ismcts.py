"""SCOUT's information-set search (``ismcts``): legal moves, its iteration budget, deals that
hold only cards the seat may not have seen, inference from the view alone, the flip searched,
and more iterations playing better."""

from __future__ import annotations

import math
import random
import statistics
import time
from pathlib import Path

import numpy as np
import pytest

from parlour.bots.base import Bot
from parlour.bots.levels import make_bot
from parlour.bots.scout.determinize import public_slots, unseen_cards
from parlour.bots.scout.features import FEATURES, EvalBot, load_weights
from parlour.bots.scout.human import HumanLike
from parlour.bots.scout.inference import (
    decisions,
    effective_size,
    log_likelihood,
    moved,
    sample_deals,
    tempered,
)
from parlour.bots.scout.ismcts import (
    ROOT_TOP,
    SCALE,
    SCOUT_SHOW_TOP,
    ISMCTSBot,
    Node,
)
from parlour.bots.scout.net import PARAMS, load_net
from parlour.bots.scout.opponent_model import (
    model_move,
    model_options,
    model_scores,
    searched_move,
)
from parlour.bots.scout.search import rollout, static_value
from parlour.cli.arena import play_game
from parlour.games import scout
from parlour.games.scout.cards import canonical
from parlour.games.scout.state import PLAY_PHASE
from tests.bots.scout_games import play


def eval_positions(players: int, seed: int, rounds: int = 1) -> list[scout.State]:
    """Every state of the first ``rounds`` rounds of a seeded game of ``eval`` bots."""
    bot, rng = EvalBot(), random.Random(seed)
    state = scout.new_state({"players": players}, seed)
    found = []
    while scout.outcome(state) is None and state.round < rounds:
        found.append(state)
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        state = scout.apply(state, seat, bot.choose(scout.view(state, seat), legal, rng))
    return found


def searches(state: scout.State, seat: int, legal: list[scout.Action]) -> bool:
    """Whether the bot searches here (it plays a lone legal action, or a Show that empties
    the hand, at once)."""
    hand = state.hands[seat]
    return len(legal) > 1 and not any(
        isinstance(a, scout.Show) and a.length == len(hand) for a in legal
    )


def searched_plays(
    states: list[scout.State],
) -> list[tuple[scout.State, int, list[scout.Action]]]:
    """The play-phase positions among ``states`` where the bot searches, each with the seat to
    act and its legal actions."""
    found = []
    for state in states:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        if state.phase == PLAY_PHASE and searches(state, seat, legal):
            found.append((state, seat, legal))
    return found


def test_ismcts_plays_whole_games_with_legal_moves_for_every_player_count() -> None:
    for players in (2, 3, 5):
        bots: list[Bot] = [ISMCTSBot(iterations=15)] + [EvalBot() for _ in range(players - 1)]
        result = play(bots, seed=40 + players)
        assert len(result["scores"]) == players


def test_ismcts_makes_exactly_its_iteration_budget_and_picks_the_most_visited_action() -> None:
    for state in eval_positions(4, 3)[4:40:5]:
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        if not searches(state, seat, legal):
            continue
        for budget in (7, 60):
            bot = ISMCTSBot(iterations=budget)
            action = bot.choose(scout.view(state, seat), legal, random.Random(1))
            assert action in legal
            assert bot.last_iterations == budget
            assert sum(bot.last_visits.values()) == budget
            assert set(bot.last_visits) <= set(legal)
            assert bot.last_visits[action] == max(bot.last_visits.values())


def test_ismcts_spec_forms_and_levels() -> None:
    assert isinstance(make_bot("scout", "ismcts:it=40"), ISMCTSBot)
    assert make_bot("scout", "ismcts:it=40").iterations == 40  # type: ignore[attr-defined]
    assert make_bot("scout", "ismcts:0.5").budget_s == 0.5  # type: ignore[attr-defined]
    hard = make_bot("scout", "hard")
    assert isinstance(hard, HumanLike) and isinstance(hard.bot, ISMCTSBot)
    assert hard.bot.budget_s == 0.3 and hard.bot.iterations is None
    expert = make_bot("scout", "expert")
    assert isinstance(expert, HumanLike) and isinstance(expert.bot, ISMCTSBot)
    assert expert.bot.budget_s == 1.0
    assert (expert.bot.particles, expert.bot.inference) == (256, False), "Expert's settings"
    assert expert.bot.correction is not None and expert.bot.correction_strength == 0.5
    assert (hard.bot.particles, hard.bot.inference) == (None, True)
    assert hard.bot.correction is None, "Hard plays the most visited move"
    capped = make_bot("scout", "expert:it=50")
    assert isinstance(capped, HumanLike) and isinstance(capped.bot, ISMCTSBot)
    assert (capped.bot.iterations, capped.bot.particles, capped.bot.inference) == (50, 256, False)
    assert capped.bot.correction_strength == 0.5
    plain = make_bot("scout", "expert:it=50/correction=0")
    assert isinstance(plain, HumanLike) and isinstance(plain.bot, ISMCTSBot)
    assert plain.bot.correction is None, "correction=0: Expert as it was before the correction"
    for bad in ("ismcts:it=0", "ismcts:it=x", "ismcts:0", "ismcts:-1", "hard:0.3", "medium:it=5"):
        with pytest.raises(ValueError):
            make_bot("scout", bad)


def test_search_settings_follow_the_budget_after_slashes() -> None:
    """``ismcts:it=N/name=value…`` (and a level's ``expert:it=N/…`` or ``expert:/…``) build the
    search with those settings; an unknown, repeated or ill-typed setting is a clear error."""
    bot = make_bot("scout", "ismcts:it=30/particles=256/min_ess=0.5/inference=false")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.particles, bot.min_ess, bot.inference) == (30, 256, 0.5, False)
    timed = make_bot("scout", "ismcts:0.5/temperature=2")
    assert isinstance(timed, ISMCTSBot) and (timed.budget_s, timed.temperature) == (0.5, 2.0)
    level = make_bot("scout", "expert:it=40/min_ess=0.25")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert (level.bot.iterations, level.bot.min_ess) == (40, 0.25)
    assert (level.bot.particles, level.bot.inference) == (256, False), "keeps the level's"
    weighted = make_bot("scout", "expert:it=40/inference=true/particles=64")
    assert isinstance(weighted, HumanLike) and isinstance(weighted.bot, ISMCTSBot)
    assert (weighted.bot.particles, weighted.bot.inference) == (64, True), "the spec's win"
    tried = make_bot("scout", "expert:it=40/objective=lead/scout_show_cost=2.5")
    assert isinstance(tried, HumanLike) and isinstance(tried.bot, ISMCTSBot)
    assert (tried.bot.objective, tried.bot.scout_show_cost) == ("lead", 2.5)
    untimed = make_bot("scout", "hard:/particles=128")
    assert isinstance(untimed, HumanLike) and isinstance(untimed.bot, ISMCTSBot)
    assert (untimed.bot.budget_s, untimed.bot.iterations, untimed.bot.particles) == (0.3, None, 128)
    for bad, words in (
        ("ismcts:it=30/colour=red", "unknown search setting 'colour=red'"),
        ("ismcts:it=30/particles", "unknown search setting 'particles'"),
        ("ismcts:it=30/particles=many", "particles takes a whole number"),
        ("ismcts:it=30/min_ess=lots", "min_ess takes a number"),
        ("ismcts:it=30/exploration=nan", "exploration takes a number"),
        ("ismcts:it=30/inference=maybe", "inference is true or false"),
        ("ismcts:it=30/particles=2/particles=3", "given twice"),
        ("ismcts:it=30/min_ess=2", "min_ess is a share"),
        ("ismcts:it=30/playout_policy=slow", "playout_policy is 'fast' or 'model'"),
        ("ismcts:it=30/objective=fun", "objective is 'points', 'win' or 'lead'"),
        ("ismcts:it=30/scout_show_cost=free", "scout_show_cost takes a number"),
        ("expert:0.5/min_ess=0.5", "takes it=N and settings"),
        ("expert:it=5/inference=true/inference=false", "given twice"),
        ("hard:it=5/colour=red", "unknown search setting 'colour=red'"),
    ):
        with pytest.raises(ValueError, match=words) as caught:
            make_bot("scout", bad)
        assert repr(bad) in str(caught.value), "the error names the spec"
    game = play_game("scout", 3, ["a", "b", "c"], 8, 0, bots=[
        make_bot("scout", "ismcts:it=20/particles=16/min_ess=0.5"),
        make_bot("scout", "expert:it=20/inference=false"),
        make_bot("scout", "medium"),
    ])  # fmt: skip
    assert len(game.scores) == 3


def test_ismcts_deals_hold_only_cards_the_seat_cannot_have_seen() -> None:
    rng = random.Random(2)
    checked = 0
    for players in (3, 4, 5):
        for state in eval_positions(players, players)[::4]:
            seat = scout.to_act(state)[0]
            view = scout.view(state, seat)
            bot = ISMCTSBot(iterations=8, particles=6)
            deals, cum = bot.sample(view, rng, 0.0)
            assert len(deals) == len(cum) == 6
            unseen = set(unseen_cards(view))
            slots = public_slots(view)
            for deal in deals:
                assert deal.hands[seat] == state.hands[seat]
                assert deal.active == state.active
                assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]
                cards = [canonical(c) for h in (*deal.hands, deal.active) for c in h]
                assert len(cards) == len(set(cards)), "a card dealt twice"
                for other in range(players):
                    if other == seat:
                        continue
                    for i, card in enumerate(deal.hands[other]):
                        if slots[other][i] is None:
                            assert canonical(card) in unseen
                        else:
                            assert card == slots[other][i] == state.hands[other][i]
                checked += 1
    assert checked > 100


def test_in_time_mode_drawing_deals_stops_after_a_third_of_the_budget() -> None:
    """``sample_deals`` with a ``budget_s``: past a third of it (here at once: the start lies
    far back) it stops drawing at 4 deals; without one it draws them all."""
    state = eval_positions(4, 7)[12]
    view = scout.view(state, scout.to_act(state)[0])
    weights = ISMCTSBot().model_weights
    timed, cum, logs = sample_deals(view, random.Random(1), 64, inference=True, weights=weights,
                                    temperature=1.0, start=time.perf_counter() - 10,
                                    budget_s=0.3)  # fmt: skip
    assert len(timed) == len(cum) == len(logs) == 4
    every, _, _ = sample_deals(view, random.Random(1), 64, inference=True, weights=weights,
                               temperature=1.0)  # fmt: skip
    assert len(every) == 64


def test_inference_reads_the_view_only_redrawn_hidden_cards_change_nothing() -> None:
    """Redrawing every card the seat cannot see (``scramble_hidden``) leaves its view, the
    deals' weights and the decision the same, for the same random generator."""
    compared = 0
    for state, seat, legal in searched_plays(eval_positions(4, 11, rounds=2)[4::5]):
        other = scout.scramble_hidden(state, seat, random.Random(state.steps))
        assert other.hands != state.hands
        view = scout.view(state, seat)
        assert scout.view(other, seat) == view
        bots = [ISMCTSBot(iterations=30, particles=12) for _ in range(2)]
        first = bots[0].choose(view, legal, random.Random(9))
        again = bots[1].choose(scout.view(other, seat), legal, random.Random(9))
        assert first == again
        assert bots[0].last_log_weights == bots[1].last_log_weights
        if decisions(view):
            assert len(set(bots[0].last_log_weights)) > 1, "the deals are weighted"
        compared += 1
    assert compared >= 5


def test_inference_finds_the_true_hands_likelier_than_random_deals() -> None:
    """The opponents here play by the evaluation, as the model assumes: the real hands explain
    their moves better than hands drawn at random (in most positions, seeded)."""
    weights = load_weights()
    better = total = 0
    for seed in (21, 22, 23):
        for state in eval_positions(4, seed)[10:40:3]:
            seat = scout.to_act(state)[0]
            view = scout.view(state, seat)
            past = decisions(view)
            if state.phase != 1 or not past:
                continue
            true = log_likelihood(view, past, state.hands, weights)
            bot = ISMCTSBot(iterations=1, particles=10, inference=False)
            deals, _ = bot.sample(view, random.Random(seed), 0.0)
            drawn = [log_likelihood(view, past, d.hands, weights) for d in deals]
            better += true > statistics.median(drawn)
            total += 1
    assert total >= 20
    assert better >= 0.75 * total, (better, total)


def test_moved_deals_keep_what_is_known_and_climb_towards_likely_deals() -> None:
    """Metropolis–Hastings moves (``inference.moved``; ``ISMCTSBot(rejuvenate=k)``) only swap
    or turn round cards the seat cannot see, report the likelihood of the hands they return,
    and on average make the opponents' moves likelier than the deals they start from."""
    weights = load_weights()
    before, after = [], []
    for seed in (21, 22):
        for state in eval_positions(4, seed)[10:40:3]:
            seat = scout.to_act(state)[0]
            view = scout.view(state, seat)
            past = decisions(view)
            if state.phase != PLAY_PHASE or not past:
                continue
            slots = public_slots(view)
            unknown = [(s, i) for s, row in enumerate(slots) if s != seat
                       for i, slot in enumerate(row) if slot is None]  # fmt: skip
            rng = random.Random(seed)
            deal = ISMCTSBot(iterations=1, particles=1).sample(view, rng, 0.0)[0][0]
            start = log_likelihood(view, past, deal.hands, weights)
            cards, log_l = moved(view, past, deal.hands, start, unknown, 40, weights, 1.0, rng)
            assert log_l == log_likelihood(view, past, cards, weights)
            assert sorted(canonical(c) for h in cards for c in h) == sorted(
                canonical(c) for h in deal.hands for c in h
            )
            for other, row in enumerate(slots):
                assert [len(h) for h in cards] == [len(h) for h in deal.hands]
                for i, slot in enumerate(row):
                    if slot is not None:
                        assert cards[other][i] == slot == state.hands[other][i]
            before.append(start)
            after.append(log_l)
    assert len(before) >= 12
    climbed = sum(a > b for a, b in zip(after, before, strict=True))
    assert climbed >= 0.8 * len(before), (before, after)  # about half if every move were kept
    assert statistics.fmean(after) > statistics.fmean(before) + 4.0, (before, after)
    bot = ISMCTSBot(iterations=1, particles=8, rejuvenate=3)
    state = next(s for s in eval_positions(4, 21)[10:] if decisions(scout.view(s, s.turn)))
    deals, cum = bot.sample(scout.view(state, state.turn), random.Random(1), 0.0)
    assert len(deals) == 8 and cum == [float(k) for k in range(1, 9)], "weighted alike"


def test_a_floor_on_the_effective_sample_size_tempers_only_collapsed_weights() -> None:
    """``tempered`` keeps weights whose effective sample size already reaches the floor, else
    multiplies the log-weights by the largest β < 1 that reaches it (the order of the deals
    kept); ``ISMCTSBot(min_ess=…)`` weights its deals so, and rejects a share outside (0, 1]."""
    assert effective_size([0.0] * 8) == pytest.approx(8.0)
    assert effective_size([0.0] + [-50.0] * 7) == pytest.approx(1.0)
    flat_enough = [0.0, -0.1, -0.2, -0.3]
    assert tempered(flat_enough, 0.5) == flat_enough
    rng = random.Random(3)
    for _ in range(20):
        logs = [rng.gauss(0.0, 6.0) for _ in range(64)]
        assert effective_size(logs) < 32  # collapsed: a few deals carry the weight
        out = tempered(logs, 0.5)
        beta = out[0] / logs[0]
        assert 0 < beta < 1 and out == pytest.approx([beta * lw for lw in logs])
        assert 32 <= effective_size(out) <= 32.5  # the floor, and not much flatter
        assert sorted(range(64), key=out.__getitem__) == sorted(range(64), key=logs.__getitem__)
    state = next(s for s in eval_positions(4, 21)[16:] if decisions(scout.view(s, s.turn)))
    view = scout.view(state, state.turn)
    bot = ISMCTSBot(iterations=1, particles=64, min_ess=0.5)
    deals, cum = bot.sample(view, random.Random(1), 0.0)
    assert len(deals) == 64
    raw = bot.last_log_weights
    assert len(set(raw)) > 1 and effective_size(raw) < 32, "the raw weights collapse here"
    weights = [b - a for a, b in zip([0.0, *cum], cum, strict=False)]
    assert sum(weights) ** 2 / sum(w * w for w in weights) == pytest.approx(
        effective_size(tempered(raw, 0.5))
    )
    with pytest.raises(ValueError, match="min_ess"):
        ISMCTSBot(min_ess=0.0)
    with pytest.raises(ValueError, match="min_ess"):
        ISMCTSBot(min_ess=1.5)


def test_the_win_objective_values_the_last_round_by_the_share_of_the_game_won() -> None:
    """``ISMCTSBot(objective="win")``: in the game's last round every root mean is a share of
    the win × SCALE (from 0 to SCALE), taken with the game's totals; earlier rounds keep the
    points; whole games play legal moves; another objective is an error."""
    states = [s for s in eval_positions(3, 31, rounds=3) if s.phase == PLAY_PHASE]
    last = [s for s in states if s.round == 2 and len(scout.legal_actions(s, s.turn)) > 2]
    first = [s for s in states if s.round == 0 and len(scout.legal_actions(s, s.turn)) > 2]
    assert last and first
    bot = ISMCTSBot(iterations=200, objective="win")
    for state in last[:4]:
        view = scout.view(state, state.turn)
        bot.choose(view, scout.legal_actions(state, state.turn), random.Random(2))
        assert bot.totals == tuple(state.totals) and any(state.totals)
        assert all(0 <= m <= SCALE for m in bot.last_means.values()), bot.last_means
    spread = []
    for state in first[:4]:
        view = scout.view(state, state.turn)
        bot.choose(view, scout.legal_actions(state, state.turn), random.Random(2))
        assert bot.totals is None
        spread.extend(bot.last_means.values())
    assert min(spread) < 0, "round points minus the others' mean, not a share"
    small = ISMCTSBot(iterations=40, objective="win")
    result = play([HumanLike(small), make_bot("scout", "medium"), make_bot("scout", "medium")], 4)
    assert len(result["scores"]) == 3
    with pytest.raises(ValueError, match="objective"):
        ISMCTSBot(objective="fun")


def test_the_lead_objective_values_every_round_by_the_margin_over_the_best_other() -> None:
    """``ISMCTSBot(objective="lead")``: in every round the search takes the game's totals and
    its root means are in points (not scaled like a share of the win); behind the leader they
    are negative."""
    states = [s for s in eval_positions(3, 31, rounds=3) if s.phase == PLAY_PHASE]
    bot = ISMCTSBot(iterations=200, objective="lead")
    behind = 0
    for state in [s for s in states if len(scout.legal_actions(s, s.turn)) > 2][::6]:
        view = scout.view(state, state.turn)
        assert bot.choose(view, scout.legal_actions(state, state.turn), random.Random(2)) in (
            scout.legal_actions(state, state.turn)
        )
        assert bot.totals == tuple(state.totals)
        assert all(-40 < m < 40 for m in bot.last_means.values()), bot.last_means
        others = [t for i, t in enumerate(state.totals) if i != state.turn]
        if state.totals[state.turn] <= max(others) - 10:
            behind += 1
            assert min(bot.last_means.values()) < 0
    assert behind


def test_the_flip_is_decided_by_search_both_orientations_searched() -> None:
    """Both hands are played out alike (half the iterations each, on the same deals) and the
    better mean is kept: the choice departs from the fixed hand-features rule at times."""
    differ = 0
    for seed in range(24):
        state = scout.new_state({"players": 4}, 500 + seed)
        seat = scout.to_act(state)[0]
        legal = scout.legal_actions(state, seat)
        assert {a.flip for a in legal} == {False, True}
        view = scout.view(state, seat)
        bot = ISMCTSBot(iterations=120, particles=16)
        action = bot.choose(view, legal, random.Random(seed))
        assert bot.last_visits == {scout.Flip(False): 60, scout.Flip(True): 60}
        rule = EvalBot().choose(view, legal, random.Random(seed))  # the hand-features rule
        differ += action != rule
    assert 1 <= differ <= 12, differ


def test_more_iterations_beat_fewer_in_a_seeded_arena() -> None:
    """ismcts with 100 iterations against ismcts with 2, 2 players, 8 duplicate deals (each
    played from both seats), seeded: the 100-iteration search outscores the other (measured:
    +5.1 points per game, standard error 2.2; +6.3 before the root rule)."""
    diffs = []
    for deal in range(8):
        for rotation in range(2):
            bots: list[Bot] = [ISMCTSBot(iterations=100), ISMCTSBot(iterations=2)]
            result = play_game("scout", 2, ["more", "fewer"], 9100 + deal, rotation, bots=bots)
            diffs.append(result.scores[0] - result.scores[1])
    assert statistics.fmean(diffs) > 2.0, diffs


def test_root_candidates_are_the_evaluations_top_k_and_scout_and_show_is_kept() -> None:
    """``root_top=k``: only the evaluation's k best actions are searched at the root;
    ``keep_scout_show``: Scout & Show is searched there only when the evaluation ranks a Scout
    & Show first (playouts never use it, so the search alone cannot see what keeping it is
    worth)."""
    checked = kept = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::4]):
        view = scout.view(state, seat)
        bot = ISMCTSBot(iterations=40, particles=8, root_top=3, keep_scout_show=True)
        action = bot.choose(view, legal, random.Random(4))
        ranked = [a for a, _ in bot.rank(view, legal)]
        allowed = (
            [a for a in ranked if ranked[0] is a or not isinstance(a, scout.ScoutShow)]
            if not isinstance(ranked[0], scout.ScoutShow)
            else ranked
        )
        assert set(bot.last_visits) <= set(allowed[:3])
        assert action in allowed[:3]
        kept += any(isinstance(a, scout.ScoutShow) for a in ranked[:3]) and not isinstance(
            ranked[0], scout.ScoutShow
        )
        checked += 1
    assert checked >= 5
    assert kept >= 1, "a position where a Scout & Show of the top three was left out"


def test_a_cost_on_scout_and_show_searches_it_beside_the_best_other_actions() -> None:
    """``scout_show_cost``: the evaluation's best Scout & Shows (at most ``SCOUT_SHOW_TOP``) are
    searched at the root beside its ``root_top`` best other actions, and every value under them
    loses the cost (a cost of 100 points: never played, and its means show it)."""
    checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::4]):
        if not any(isinstance(a, scout.ScoutShow) for a in legal):
            continue
        view = scout.view(state, seat)
        bot = ISMCTSBot(iterations=60, particles=8, root_top=3, scout_show_cost=100.0)
        action = bot.choose(view, legal, random.Random(4))
        ranked = [a for a, _ in bot.rank(view, legal)]
        plain = [a for a in ranked if not isinstance(a, scout.ScoutShow)][:3]
        shows = [a for a in ranked if isinstance(a, scout.ScoutShow)][:SCOUT_SHOW_TOP]
        assert set(bot.last_visits) == set(plain + shows)
        assert not isinstance(action, scout.ScoutShow)
        assert all(bot.last_means[a] < -50 for a in shows)
        assert all(bot.last_means[a] > -50 for a in plain)
        checked += 1
    assert checked >= 3


def test_a_bonus_on_scouting_is_added_under_the_roots_scouts() -> None:
    """``scout_bonus``: every value under a plain Scout at the root gains the bonus (100
    points: a Scout is played wherever one is searched, and its means show it; −100: never)."""
    checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::3]):
        view = scout.view(state, seat)
        up = ISMCTSBot(iterations=60, particles=8, scout_bonus=100.0)
        action = up.choose(view, legal, random.Random(4))
        scouts = [a for a in up.last_visits if isinstance(a, scout.Scout)]
        others = [a for a in up.last_visits if not isinstance(a, scout.Scout)]
        if not scouts or not others:
            continue
        assert isinstance(action, scout.Scout)
        assert all(up.last_means[a] > 50 for a in scouts)
        assert all(up.last_means[a] < 50 for a in others)
        down = ISMCTSBot(iterations=60, particles=8, scout_bonus=-100.0)
        assert not isinstance(down.choose(view, legal, random.Random(4)), scout.Scout)
        checked += 1
    assert checked >= 3


def test_truncated_playouts_end_in_the_static_value() -> None:
    """``plies=0`` values a position by the static evaluation at once; ``plies=k`` plays at
    most k moves first; ``plies=None`` plays the round out (a round's result)."""
    weights = load_weights()[:5]
    for state in eval_positions(4, 8)[8:40:8]:
        if state.phase != 1:
            continue
        seat = scout.to_act(state)[0]
        assert rollout(state, seat, random.Random(1), 0, weights) == static_value(
            state, seat, weights
        )
        value = rollout(state, seat, random.Random(1), 3, weights)
        assert isinstance(value, float)
        full = rollout(state, seat, random.Random(1))
        assert full == round(full * 3) / 3, "round points minus the others' mean (thirds)"


def test_the_network_can_be_the_roots_prior() -> None:
    net = load_net()
    bot = ISMCTSBot(iterations=40, prior="net", keep_scout_show=False)
    searched = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5)[6:60:6]):
        view = scout.view(state, seat)
        action = bot.choose(view, legal, random.Random(2))
        assert action in legal
        assert bot.last_iterations == 40
        probs, _ = net.priors(view, legal)
        order = sorted(range(len(legal)), key=lambda i: (-probs[i], i))
        assert set(bot.last_visits) == {legal[i] for i in order[:ROOT_TOP]}
        searched += 1
    assert searched >= 3
    with pytest.raises(ValueError, match="prior"):
        ISMCTSBot(prior="oracle")


def test_the_networks_prior_is_on_the_evaluations_scale_by_default(tmp_path: Path) -> None:
    """The root's prior is ``net_temperature`` × the network's log-probability minus the top
    one's; by default 1/the network's evaluation skip (its logits are about skip × the
    evaluation's points), 0.1 for a network without a skip; a spec may set it."""
    net = load_net()
    assert net.skip > 0
    state, seat, legal = searched_plays(eval_positions(4, 5)[6:60:6])[0]
    view = scout.view(state, seat)
    probs, _ = net.priors(view, legal)
    logs = np.log(probs.astype(np.float64))
    for bot, temperature in (
        (ISMCTSBot(iterations=10, prior="net"), 1.0 / net.skip),
        (make_bot("scout", "ismcts:it=10/prior=net/net_temperature=0.2"), 0.2),
    ):
        assert isinstance(bot, ISMCTSBot) and bot.net_temperature == pytest.approx(temperature)
        ranked = bot.rank_by_net(view, legal)
        expected = sorted(temperature * (logs - logs.max()), reverse=True)
        assert [value for _, value in ranked] == pytest.approx(expected, abs=1e-4)
    np.savez(tmp_path / "plain.npz", **{k: net.params[k] for k in PARAMS})
    assert ISMCTSBot(prior="net", net_file=str(tmp_path / "plain.npz")).net_temperature == 0.1
    with pytest.raises(ValueError, match="net_temperature"):
        ISMCTSBot(prior="net", net_temperature=0.0)


def test_the_opponent_model_can_have_its_own_weights() -> None:
    """``model_weights``: the opponents inside the tree (and the inference) are played by a
    softmax over those weights' scores, while the root's candidates keep the evaluation's
    order: the shipped weights given as ``model_weights`` change nothing, other ones change
    the visits and never the candidates."""
    shipped = load_weights()
    # opponents that care only for the cards they capture
    greedy = tuple(3.0 if name == "captured" else 0.0 for name in FEATURES)
    changed = checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::6]):
        view = scout.view(state, seat)
        runs = {}
        for name, weights in (("none", None), ("shipped", shipped), ("greedy", greedy)):
            bot = ISMCTSBot(iterations=120, particles=16, model_weights=weights)
            action = bot.choose(view, legal, random.Random(7))
            runs[name] = (action, dict(bot.last_visits))
        assert runs["none"] == runs["shipped"]
        assert set(runs["greedy"][1]) == set(runs["none"][1])
        changed += runs["greedy"][1] != runs["none"][1]
        checked += 1
    assert checked >= 4
    assert changed >= checked // 2
    with pytest.raises(ValueError, match="model_weights"):
        ISMCTSBot(iterations=10, model_weights=(1.0, 2.0))


def test_the_model_playouts_can_have_their_own_temperature() -> None:
    """``playout_temperature``: the model playouts draw every seat's moves at that temperature
    while the opponents in the tree keep ``temperature``; the same value as ``temperature``
    changes nothing, a colder one changes the visits, and it must be above 0."""
    changed = checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::6]):
        view = scout.view(state, seat)
        runs = {}
        for name, value in (("none", None), ("same", 1.0), ("cold", 0.1)):
            bot = ISMCTSBot(
                iterations=120, particles=16, playout_policy="model", playout_temperature=value
            )
            action = bot.choose(view, legal, random.Random(7))
            runs[name] = (action, dict(bot.last_visits))
        assert runs["none"] == runs["same"]
        changed += runs["cold"][1] != runs["none"][1]
        checked += 1
    assert checked >= 4
    assert changed >= checked // 2
    with pytest.raises(ValueError, match="playout_temperature"):
        ISMCTSBot(iterations=10, playout_temperature=0.0)
    level = make_bot("scout", "expert:it=50/playout_policy=model/playout_temperature=0.25")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert level.bot.playout_temperature == 0.25 and level.bot.temperature == 1.0
    assert ISMCTSBot(iterations=10, temperature=0.5).playout_temperature == 0.5


def test_the_opponents_in_the_tree_can_play_scout_and_show() -> None:
    """``opponent_scout_show``: with a price the opponents' Scout & Shows enter the tree (the
    visits change at most positions), without one nothing changes; a spec setting."""
    changed = checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::6]):
        view = scout.view(state, seat)
        runs = []
        for price in (None, 2.5):
            bot = ISMCTSBot(iterations=150, particles=16, opponent_scout_show=price)
            action = bot.choose(view, legal, random.Random(7))
            runs.append((action, dict(bot.last_visits)))
        plain = ISMCTSBot(iterations=150, particles=16)
        assert (plain.choose(view, legal, random.Random(7)), plain.last_visits) == runs[0]
        changed += runs[1][1] != runs[0][1]
        checked += 1
    assert checked >= 4
    assert changed >= checked // 2
    level = make_bot("scout", "expert:it=50/opponent_scout_show=2.5")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert level.bot.opponent_scout_show == 2.5


def opponent_decisions() -> list[tuple[scout.State, int, list[scout.Action]]]:
    """Play-phase positions of seeded 4-player games where the seat to move has at least three
    options under the opponent model, a Show among them, each with that seat and its options."""
    found = []
    for state in eval_positions(4, 11, rounds=2):
        if state.phase != PLAY_PHASE or state.pending:
            continue
        mover = scout.to_act(state)[0]
        options = model_options(state, mover)
        if len(options) >= 3 and any(isinstance(a, scout.Show) for a in options):
            found.append((state, mover, options))
    return found


def public_move(state: scout.State, mover: int, action: scout.Action) -> tuple[object, ...]:
    """The key of an opponent's move in the tree: the action and the show it leaves."""
    return (action, scout.apply(state, mover, action).active)


def test_opponents_in_the_tree_lean_to_the_moves_the_search_found_good_for_them() -> None:
    """``opponent_search``: an opponent's move in the tree is the model's softmax, each option's
    score raised by ``opponent_search`` × its public move's mean value to the mover minus the
    node's, shrunk by the child's visits; a child the same action made in another deal (other
    cards) does not count, and without children it is the model's own draw."""
    bot = ISMCTSBot(iterations=10, opponent_search=1.0, opponent_shrink=10.0)
    checked = 0
    for state, mover, options in opponent_decisions()[::4]:
        node = Node()
        node.n, node.ws = 40, [0.0] * 4

        def draws(node: Node, state: scout.State = state, mover: int = mover) -> list[object]:
            base = node.ws[mover] / node.n if node.ws is not None else None
            return [searched_move(state, mover, bot.model_weights, bot.temperature,
                                  random.Random(k), node.children, base, bot.opponent_search,
                                  bot.opponent_shrink) for k in range(30)]  # fmt: skip

        model = [model_move(state, mover, bot.model_weights, bot.temperature, random.Random(k))
                 for k in range(30)]  # fmt: skip
        assert draws(node) == model
        scores = model_scores(state, mover, options, bot.model_weights)
        worst = options[scores.index(min(scores))]
        best = options[scores.index(max(scores))]
        good = node.children[public_move(state, mover, worst)] = Node()
        good.n, good.ws = 30, [0.0] * 4
        good.ws[mover] = 30 * 40.0  # 40 points above the node for the mover: 40 × 30/40 = 30
        assert draws(node) == [worst] * 30
        good.ws[mover] = 0.0  # the node's own mean: no lean
        assert draws(node) == model
        del node.children[public_move(state, mover, worst)]
        show = next(a for a in options if isinstance(a, scout.Show))
        elsewhere = node.children[(show, ((0, 0),))] = Node()  # other cards shown
        elsewhere.n, elsewhere.ws = 30, [0.0] * 4
        elsewhere.ws[mover] = 30 * 40.0
        assert draws(node) == model
        bad = node.children[public_move(state, mover, best)] = Node()
        bad.n, bad.ws = 30, [0.0] * 4
        bad.ws[mover] = -30 * 40.0
        assert best not in draws(node)
        checked += 1
    assert checked >= 4


def test_with_opponent_search_every_seats_value_is_backed_up() -> None:
    """``opponent_search`` backs up every seat's value (its round points minus the others'
    mean: they sum to 0), the searching seat's the same as its own; it changes what the search
    does at most positions, and takes only the plain fast playouts."""
    checked = changed = 0
    for state, seat, legal in searched_plays(eval_positions(4, 5, rounds=2)[3::6]):
        view = scout.view(state, seat)
        bot = ISMCTSBot(iterations=150, particles=16, opponent_search=1.0)
        root = Node()
        root.ranked = bot.rank(view, legal)[:ROOT_TOP]
        rng = random.Random(2)
        deals, _ = bot.sample(view, rng, 0.0)
        for k in range(100):
            bot.iterate(root, deals[k % len(deals)], seat, rng)
        assert root.n == 100 and root.ws is not None
        assert root.ws[seat] == pytest.approx(root.w)
        assert sum(root.ws) == pytest.approx(0.0, abs=1e-6)
        for child in root.children.values():
            assert child.ws is not None and child.ws[seat] == pytest.approx(child.w)
        plain = ISMCTSBot(iterations=150, particles=16)
        plain.choose(view, legal, random.Random(7))
        bot.choose(view, legal, random.Random(7))
        changed += bot.last_visits != plain.last_visits
        checked += 1
    assert checked >= 4
    assert changed >= checked // 2
    for bad in ({"plies": 4}, {"playout_policy": "model"}, {"objective": "win"},
                {"playout": False}, {"opponent_scout_show": 2.5}):  # fmt: skip
        with pytest.raises(ValueError, match="opponent_search"):
            ISMCTSBot(opponent_search=1.0, **bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 0"):
        ISMCTSBot(opponent_search=-1.0)
    level = make_bot("scout", "expert:it=50/opponent_search=1.5/opponent_shrink=5")
    assert isinstance(level, HumanLike) and isinstance(level.bot, ISMCTSBot)
    assert (level.bot.opponent_search, level.bot.opponent_shrink) == (1.5, 5.0)


def test_deal_trees_search_each_deal_in_a_tree_of_its_own_and_pool_the_root() -> None:
    """``deal_trees=K``: K trees, each always given the same deal, the iterations shared out in
    turn; the root's visits and values are the trees' summed."""
    calls: list[tuple[int, int]] = []
    trees: dict[int, Node] = {}

    class Recording(ISMCTSBot):
        def iterate(self, root: Node, deal: scout.State, seat: int, rng: random.Random) -> None:
            calls.append((id(root), id(deal)))
            trees[id(root)] = root
            super().iterate(root, deal, seat, rng)

    checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 6)[4:30:5]):
        calls.clear()
        trees.clear()
        bot = Recording(iterations=50, particles=16, deal_trees=4)
        action = bot.choose(scout.view(state, seat), legal, random.Random(2))
        assert action in legal and bot.last_iterations == 50
        assert len(trees) == 4
        deal_of = {}
        for root, deal in calls:
            assert deal_of.setdefault(root, deal) == deal, "a tree is given one deal only"
        assert sorted(sum(1 for r, _ in calls if r == t) for t in trees) == [12, 12, 13, 13]
        for a, n in bot.last_visits.items():
            pooled = [t.children[a] for t in trees.values() if a in t.children]
            assert n == sum(c.n for c in pooled)
            assert bot.last_means[a] == pytest.approx(sum(c.w for c in pooled) / n)
        assert bot.last_visits[action] == max(bot.last_visits.values())
        checked += 1
    assert checked >= 3
    with pytest.raises(ValueError, match="deal_trees"):
        ISMCTSBot(deal_trees=0)


def test_root_halving_shares_the_root_out_by_sequential_halving() -> None:
    """``root_halving``: the budget in ⌈log₂ k⌉ equal phases over the root's k candidates; in
    each, the candidates still in are searched in turn, then the worse half by mean drops out,
    two remaining for the last; the move is the better mean of those two."""
    checked = 0
    for state, seat, legal in searched_plays(eval_positions(4, 6)[4:40:3]):
        view = scout.view(state, seat)
        bot = ISMCTSBot(iterations=300, particles=16, root_halving=True)
        action = bot.choose(view, legal, random.Random(5))
        visits, means = bot.last_visits, bot.last_means
        if len(visits) <= 2:
            continue
        assert bot.last_iterations == sum(visits.values()) == 300
        phases = math.ceil(math.log2(len(visits)))
        assert min(visits.values()) >= 300 // phases // len(visits)
        finalists = sorted(visits, key=lambda a: -visits[a])[:2]
        assert action in finalists and means[action] == max(means[a] for a in finalists)
        assert all(
            visits[f] > n for f in finalists for a, n in visits.items() if a not in finalists
        )
        checked += 1
    assert checked >= 3
