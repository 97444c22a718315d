"""SCOUT as an OpenSpiel game (``pyspiel.load_game("python_scout", {"players": 4})``).

Importing this module registers the game. It is sequential, with imperfect information and
explicit chance: the first starting seat (one chance node) and every round's deal, card by card
(a chance outcome is ``card * 2 + orientation``: a card of the deck, (smaller, larger) with
orientation 0, turned with 1). Player actions are SCOUT's fixed action space
(``parlour.rl.scout_codec``, 820 actions); the flip decisions of a round are taken one seat
after the other. Returns are the final scores (general sum), given at the end.

- ``information_state_string(p)``: perfect recall: p's dealt hands, every public action (other
  seats' flip choices only as "decided") and p's current hand;
- ``information_state_tensor(p)`` / ``observation_tensor(p)``: the SCOUT observation vector of
  the current position (``scout_codec.observe``; not the whole history);
- ``resample_from_infostate(p, sampler)``: the other hands redrawn consistently with everything
  p has seen (scouted cards stay where the public history put them), for ISMCTS.

>>> import pyspiel
>>> import parlour.rl.openspiel
>>> game = pyspiel.load_game("python_scout", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 820, 90)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from parlour.bots.levels import make_bot
from parlour.bots.scout.determinize import fill_slots, public_slots, unseen_cards
from parlour.games.scout import (
    Scout,
    ScoutShow,
    Show,
    apply,
    legal_actions,
    new_state,
    outcome,
    to_act,
    view,
)
from parlour.games.scout.cards import DECK, HAND_SIZE, canonical, deck_for
from parlour.games.scout.state import State, redeal
from parlour.rl import scout_codec as codec

CHANCE_OUTCOMES = 2 * len(DECK)
MAX_GAME_LENGTH = 20_000
"""A bound OpenSpiel asks for; SCOUT rounds have no fixed length (random play averages ~100
moves per 4-player round)."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_scout",
    long_name="Parlour SCOUT",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4},
)


class _Frozen:
    """Holds an immutable engine state; copying the holder shares it (clones are cheap)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self


class ScoutGame(pyspiel.Game):
    """SCOUT for 2-5 players (parameter ``players``, default 4)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        players = int(params.get("players", 4))
        if not 2 <= players <= 5:
            raise ValueError(f"SCOUT is played by 2 to 5 players, not {players}")
        self.players = players
        bound = float(len(deck_for(players)) * players)
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.N_ACTIONS,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"players": players})

    def new_initial_state(self) -> ScoutSpielState:
        return ScoutSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ScoutObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return ScoutObserver(perfect_recall)


class ScoutSpielState(pyspiel.State):
    """A SCOUT game in OpenSpiel: chance deals, then the engine's state."""

    def __init__(self, game: ScoutGame) -> None:
        super().__init__(game)
        self.players = game.players
        self.start_seat: int | None = None
        self.dealt: list[int] = []  # chance outcomes of the round being dealt
        # Shared between clones, replaced (never changed) on each move:
        self.hands_dealt = _Frozen(())  # per round, each seat's hand as dealt
        self.tokens = _Frozen(())  # (round, seat, action text): every player action
        self.engine = _Frozen(None)
        self.dealing = True

    # -- chance ----------------------------------------------------------------------------

    def _deal_size(self) -> int:
        n = self.players
        return 2 * HAND_SIZE[2] * 2 if n == 2 else HAND_SIZE[n] * n

    def current_player(self) -> int:
        if self.start_seat is None or self.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        state: State = self.engine.value
        if outcome(state) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return to_act(state)[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.start_seat is None:
            return [(s, 1.0 / self.players) for s in range(self.players)]
        used = {o >> 1 for o in self.dealt}
        ids = [i for i, card in enumerate(DECK) if card in self._round_deck() and i not in used]
        p = 1.0 / (2 * len(ids))
        return [(2 * i + o, p) for i in ids for o in (0, 1)]

    def _round_deck(self) -> frozenset[tuple[int, int]]:
        state = self.engine.value
        if state is None:
            return frozenset(deck_for(self.players))
        return frozenset(state.round_cards)

    def _finish_deal(self) -> None:
        cards = [
            DECK[o >> 1] if o & 1 == 0 else (DECK[o >> 1][1], DECK[o >> 1][0]) for o in self.dealt
        ]
        n = self.players
        size = HAND_SIZE[n]
        hands = [tuple(cards[i * size : (i + 1) * size]) for i in range(n)]
        aside = cards[n * size :]
        state = self.engine.value
        if state is None:
            assert self.start_seat is not None
            state = new_state({"players": n}, seed=0)
            state.first_seat = state.start_seat = state.turn = self.start_seat
        self.engine = _Frozen(redeal(state, hands, aside))
        self.hands_dealt = _Frozen((*self.hands_dealt.value, tuple(hands)))
        self.dealt = []
        self.dealing = False

    def _after_engine_move(self, before_round: int) -> None:
        state: State = self.engine.value
        if outcome(state) is not None or state.round == before_round:
            return
        if self.players == 2 and state.round == 1:  # round 2 is the set-aside cards (S15)
            self.hands_dealt = _Frozen((*self.hands_dealt.value, state.hands))
            return
        self.dealing = True

    # -- moves -----------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(set(codec.legal_indices(self.engine.value, player)))

    def _apply_action(self, action: int) -> None:
        if self.start_seat is None:
            self.start_seat = int(action)
            return
        if self.dealing:
            self.dealt.append(int(action))
            if len(self.dealt) == self._deal_size():
                self._finish_deal()
            return
        state: State = self.engine.value
        seat = to_act(state)[0]
        move = codec.ACTIONS[int(action)] if 0 <= action < codec.N_ACTIONS else None
        legal = codec.legal_indices(state, seat)
        if move is None or int(action) not in legal:
            raise ValueError(
                f"action {action} ({move or 'outside the action space'}) is not legal for "
                f"player {seat}: {len(legal)} legal actions"
            )
        self.tokens = _Frozen(
            (*self.tokens.value, (state.round, seat, _public_text(state, seat, move)))
        )
        self.engine = _Frozen(apply(state, seat, move))
        self._after_engine_move(state.round)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.start_seat is None:
                return f"start seat {action}"
            card = DECK[action >> 1]
            return f"deal {card[action & 1]}/{card[1 - (action & 1)]}"
        return codec.describe(int(action))

    def is_terminal(self) -> bool:
        state = self.engine.value
        return state is not None and not self.dealing and outcome(state) is not None

    def returns(self) -> list[float]:
        state = self.engine.value
        if state is None or not self.is_terminal():
            return [0.0] * self.players
        return [float(t) for t in state.totals]

    # -- information -------------------------------------------------------------------------

    def information_string(self, player: int) -> str:
        """Perfect recall for ``player`` (see the module docstring)."""
        parts = [f"p{player} start{self.start_seat}"]
        for rnd, hands in enumerate(self.hands_dealt.value):
            parts.append(f"r{rnd} dealt " + " ".join(f"{a}/{b}" for a, b in hands[player]))
            for r, seat, text in self.tokens.value:
                if r != rnd:
                    continue
                if seat != player and text in ("flip", "keep"):
                    text = "decided"
                parts.append(f"{seat}:{text}")
        if self.dealing:
            parts.append(f"dealing {len(self.dealt)}")
        state = self.engine.value
        if state is not None and not self.dealing:
            parts.append("hand " + " ".join(f"{a}/{b}" for a, b in state.hands[player]))
        return "|".join(parts)

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now (no history)."""
        state = self.engine.value
        if state is None or self.dealing:
            return f"p{player} dealing"
        hand = " ".join(f"{a}/{b}" for a, b in state.hands[player])
        active = " ".join(f"{a}/{b}" for a, b in state.active)
        seats = " ".join(
            f"[{len(state.hands[s])} {len(state.piles[s])} {state.chips[s]} "
            f"{int(state.scout_show[s])} {int(state.flips[s] is not None)} {state.totals[s]}]"
            for s in range(self.players)
        )
        return (
            f"p{player} r{state.round} phase{state.phase} turn{state.turn} hand {hand} | "
            f"show {active} owner {state.owner} scouts {state.scouts} "
            f"pending {int(state.pending)} | {seats}"
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one: every other hand redrawn from the
        cards it has not seen, the cards the public history places kept in place."""
        new = self.clone()
        state = self.engine.value
        if state is None or self.dealing:
            return new
        rng = random.Random(int(probability_sampler() * 2**53))
        seen = view(state, player_id)
        slots = public_slots(seen)
        pool = unseen_cards(seen)  # in a 2-player round 2, none the seat saw in round 1
        hands = fill_slots(slots, pool, rng)
        engine = state.clone()
        engine.hands = tuple(hands)
        engine.round_cards = frozenset(
            canonical(c) for group in (*hands, state.active, *state.piles) for c in group
        ) | ({canonical(c) for c in pool[: len(state.set_aside)]} if state.set_aside else set())
        if state.set_aside:  # 2 players, round 1: the set-aside cards are unseen as well
            engine.set_aside = tuple(
                (c[1], c[0]) if rng.random() < 0.5 else c for c in pool[: len(state.set_aside)]
            )
        new.engine = _Frozen(engine)
        return new

    def __str__(self) -> str:
        state = self.engine.value
        if state is None or self.dealing:
            return f"dealing ({len(self.dealt)} cards dealt)"
        return repr(state)


def _public_text(state: State, seat: int, move: Any) -> str:
    """What every seat sees of ``seat`` playing ``move``: the action with the cards it moves (a
    Show's cards, the scouted card), so that information states tell positions apart."""
    text = str(move)
    if isinstance(move, Show):
        group = state.hands[seat][move.start : move.start + move.length]
        return text + " [" + " ".join(f"{a}/{b}" for a, b in group) + "]"
    if isinstance(move, (Scout, ScoutShow)):
        card = state.active[0] if move.end == "left" else state.active[-1]
        return text + f" [{card[0]}/{card[1]}]"
    return text


class ScoutObserver:
    """OpenSpiel's observer for SCOUT: the observation vector as the tensor; the string is
    perfect recall (information state) or the current view (observation)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(codec.OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ScoutSpielState, player: int) -> None:
        engine = state.engine.value
        if engine is None or state.dealing:
            self.tensor.fill(0)
        else:
            self.tensor[:] = codec.observe(engine, player)

    def string_from(self, state: ScoutSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation_text(player)


class ParlourBot(pyspiel.Bot):
    """A Parlour SCOUT bot (``"random"``, ``"medium"``, ``"search:0.25"``...) as an OpenSpiel
    bot for ``python_scout``: it sees only its seat's view and legal actions."""

    def __init__(self, player: int, spec: str, seed: int = 0) -> None:
        super().__init__()
        self.player = player
        self.bot = make_bot("scout", spec)
        self.rng = random.Random(seed)

    def step(self, state: ScoutSpielState) -> int:
        engine: State = state.engine.value
        legal = legal_actions(engine, self.player)
        action = self.bot.choose(view(engine, self.player), legal, self.rng)
        return codec.action_index(action)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


pyspiel.register_game(_GAME_TYPE, ScoutGame)
