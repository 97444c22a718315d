"""SNAP and SCAN as arrays: one decision per seat at each reveal.

SNAP and SCAN are races in real time. Here each reveal is a turn: every seat still in chooses
at once one action together with a reaction time from a fixed set, or to wait; the engine then
plays those inputs at ``reveal + reaction time`` and decides the race exactly as at the table
(N6, N9, C7-C10, C14: tie window, decision window, late and false calls, disqualification).
Seats are relative, as in SCOUT: index 0 is the observing seat, then the seats on its left.

SNAP actions (:data:`SNAP_RTS`, 12): ``0`` wait; ``k`` (1..11) call "Snap!" at
``SNAP_RTS[k-1]`` ms. SCAN actions: ``0`` wait; ``1 + k*T + j`` touch the blue card at layout
position ``j`` (``j < T-1`` with Bluffo, ``j < T`` without) at ``SCAN_RTS[k]`` ms, and with
Bluffo ``j = T-1`` slaps the Bluffo stack; ``T`` is the layout size (23, or 20 with Bluffo)
plus one with Bluffo.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.core import Timeout
from parlour.games.registry import get_game
from parlour.games.scan import Bluffo, Touch
from parlour.games.scan import rules as scan_rules
from parlour.games.scan.cards import DESIGNS
from parlour.games.scan.state import ROUND
from parlour.games.scan.state import State as ScanState
from parlour.games.snap import Snap
from parlour.games.snap import rules as snap_rules
from parlour.games.snap.actions import FLIP
from parlour.games.snap.cards import match_keys
from parlour.games.snap.state import FLIP_CAP
from parlour.games.snap.state import State as SnapState

SNAP_RTS: tuple[int, ...] = (150, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800)
"""SNAP reaction times on offer (ms after the reveal); all before the next flip (900 ms)."""
SCAN_RTS: tuple[int, ...] = (400, 700, 1000, 1500, 2000, 3000, 4000, 6000, 9000, 13000, 19000)
"""SCAN reaction times on offer (ms after the reveal); all within the round timer (20 s)."""
TIMEOUT = Timeout()

SNAP_SEATS = 12
SNAP_SEAT_WIDTH = 24
"""Per seat: present, in, stock/52, face-up pile/52, top rank one-hot (13), top suit one-hot
(4), top in the claim set, turn to flip, last flipper."""
SNAP_OBS = SNAP_SEATS * SNAP_SEAT_WIDTH + 18 + 4
"""Seats, then the Pot (size/52, top rank 13, top suit 4), then: a snap is valid, flips/1000,
match mode is rank and colour, players/12."""

SCAN_SEATS = 8
SCAN_CARD = 4 * DESIGNS
"""A SCAN card: one-hot design (23) in each of the four categories."""
SCAN_LAYOUT = 23
SCAN_SEAT_WIDTH = 5
"""Per seat: present, score this game/30, total of finished games/120, Bluffo cards/3, holds a
tan card it could lose."""
SCAN_OBS = SCAN_CARD + 4 + SCAN_LAYOUT * (1 + SCAN_CARD) + SCAN_SEATS * SCAN_SEAT_WIDTH + 6
"""The revealed tan card, the category one-hot, the layout (present + card per position),
seats, then: covered/23, Bluffo stack/3, Bluffo played, game number/4, reveals so far/23,
players/8."""


class _Races:
    """What both real-time codecs share: a reveal's chosen inputs become timed plans, played
    in time order by the game's own ``_run``."""

    def plan(self, state: Any, seat: int, index: int) -> tuple[int, int, Any] | None:
        raise NotImplementedError

    def _run(self, state: Any, plans: list[tuple[int, int, Any]]) -> Any:
        raise NotImplementedError

    game: str

    def outcome(self, state: Any) -> Any:
        """The game's outcome (``None`` while it goes on), from its ``GameSpec``."""
        return get_game(self.game).outcome(state)

    def scramble(self, state: Any, seat: int, rng: Any) -> Any:
        """Everything hidden from ``seat`` redrawn (the game's ``scramble_hidden``)."""
        return get_game(self.game).scramble_hidden(state, seat, rng)

    def play(self, state: Any, choices: dict[int, int]) -> Any:
        """The state at the next reveal (or the end) after each seat's chosen input."""
        plans = [p for s, i in choices.items() if (p := self.plan(state, s, i)) is not None]
        return self._run(state, plans)


class SnapRaces(_Races):
    """SNAP through reveals (see the module docstring). ``new(options, seed)`` starts a game and
    plays to the first reveal; ``play(state, choices)`` plays one reveal's choices to the next
    reveal (or the end). Flips are made for the seat to act as soon as flips open (N3)."""

    game = "snap"
    rts = SNAP_RTS
    obs_size = SNAP_OBS

    def __init__(self, options: dict[str, Any]) -> None:
        from parlour.games.snap import options_from_json

        self.options = options_from_json(options)
        self.players = self.options.players
        self.n_actions = 1 + len(SNAP_RTS)

    def new(self, seed: int) -> SnapState:
        from parlour.games.snap import new_state

        return self._run(new_state(self.options, seed), [])

    def deciders(self, state: SnapState) -> list[int]:
        """The seats that choose at this reveal: every seat still in."""
        if state.over is not None:
            return []
        return [s for s, o in enumerate(state.out) if o is None]

    def plan(self, state: SnapState, seat: int, index: int) -> tuple[int, int, Any] | None:
        """Action ``index`` of ``seat`` as a timed input ``(at_ms, seat, action)``, or ``None``."""
        if index == 0:
            return None
        rt = SNAP_RTS[index - 1]
        return (state.reveal_ms + rt, seat, Snap(rt))

    def describe(self, index: int) -> str:
        return "wait" if index == 0 else f"snap at {SNAP_RTS[index - 1]} ms"

    def _run(self, state: SnapState, plans: list[tuple[int, int, Any]]) -> SnapState:
        # Apply the timed inputs and the referee's timeouts in time order, flipping for the seat
        # to act when flips open, until the next reveal or the end of the game.
        plans.sort(key=lambda p: (p[0], p[1]))
        seq = state.seq
        i = 0
        apply, deadline, may_flip = snap_rules.apply, snap_rules.deadline, snap_rules.may_flip
        while state.over is None:
            if state.seq > seq and state.flipping is None and not state.race:
                break
            due = deadline(state)
            assert due is not None
            if i < len(plans) and plans[i][0] <= due:
                at, seat, action = plans[i]
                i += 1
                if state.out[seat] is None:
                    state = apply(state, seat, action, max(at, state.clock_ms))
            elif may_flip(state, state.turn):
                state = apply(state, state.turn, FLIP, state.clock_ms)
            else:
                state = apply(state, None, TIMEOUT, due)
        return state

    def score(self, state: SnapState, seat: int) -> int:
        """Cards held outside the Pot (the SNAP outcome's score)."""
        return state.held(seat)

    def observe(self, state: SnapState, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation at a reveal (public information only: SNAP has no private
        cards; stocks' order and the cards under the tops are hidden from every seat)."""
        out = np.zeros(SNAP_OBS, dtype=np.float32)
        n = state.players
        keys = match_keys(state.options.match)
        claim, _ = snap_rules.claim_set(state)
        for s in range(n):
            b = ((s - seat) % n) * SNAP_SEAT_WIDTH
            out[b] = 1.0
            out[b + 1] = state.out[s] is None
            out[b + 2] = len(state.stocks[s]) / 52
            pile = state.piles[s]
            out[b + 3] = len(pile) / 52
            if pile:
                top = pile[-1]
                out[b + 4 + (top >> 2)] = 1.0
                out[b + 17 + (top & 3)] = 1.0
            out[b + 21] = s in claim
            out[b + 22] = s == state.turn
            out[b + 23] = s == state.last_flipper
        b = SNAP_SEATS * SNAP_SEAT_WIDTH
        out[b] = len(state.pot) / 52
        if state.pot:
            top = state.pot[-1]
            out[b + 1 + (top >> 2)] = 1.0
            out[b + 14 + (top & 3)] = 1.0
        b += 18
        out[b] = bool(claim)
        out[b + 1] = state.seq / FLIP_CAP
        out[b + 2] = keys is not match_keys("rank")
        out[b + 3] = n / 12
        return out


class ScanRaces(_Races):
    """SCAN through reveals (see the module docstring). Each seat makes one input per reveal
    (a touch or a Bluffo slap at a chosen time, or nothing); in Dealer's Choice the winner's
    choice is left to the timer (the category stays)."""

    game = "scan"
    rts = SCAN_RTS
    obs_size = SCAN_OBS

    def __init__(self, options: dict[str, Any]) -> None:
        from parlour.games.scan import options_from_json

        self.options = options_from_json(options)
        self.players = self.options.players
        self.layout = SCAN_LAYOUT - (3 if self.options.bluffo else 0)
        self.targets = self.layout + (1 if self.options.bluffo else 0)
        self.n_actions = 1 + len(SCAN_RTS) * self.targets

    def new(self, seed: int) -> ScanState:
        from parlour.games.scan import new_state

        return self._run(new_state(self.options, seed), [])

    def deciders(self, state: ScanState) -> list[int]:
        """The seats that choose at this reveal: every seat (nobody is disqualified yet)."""
        if state.phase != ROUND:
            return []
        return list(range(state.players))

    def plan(self, state: ScanState, seat: int, index: int) -> tuple[int, int, Any] | None:
        if index == 0:
            return None
        k, j = divmod(index - 1, self.targets)
        rt = SCAN_RTS[k]
        action = Bluffo(rt) if j == self.layout else Touch(j, rt)
        return (state.reveal_ms + rt, seat, action)

    def describe(self, index: int) -> str:
        if index == 0:
            return "wait"
        k, j = divmod(index - 1, self.targets)
        what = "slap Bluffo" if j == self.layout else f"touch blue card {j}"
        return f"{what} at {SCAN_RTS[k]} ms"

    def _run(self, state: ScanState, plans: list[tuple[int, int, Any]]) -> ScanState:
        # Apply the timed inputs and the referee's timeouts in time order until the next reveal
        # or the end of the series. An input that comes after its round is over (someone won
        # first) or from a seat that may no longer act is refused by the engine, as at the
        # table, and dropped.
        plans.sort(key=lambda p: (p[0], p[1]))
        seq = state.seq
        i = 0
        apply, deadline, to_act = scan_rules.apply, scan_rules.deadline, scan_rules.to_act
        while state.phase != 2:
            if state.seq > seq and state.phase == ROUND:
                break
            due = deadline(state)
            assert due is not None
            if i < len(plans) and plans[i][0] <= due:
                at, seat, action = plans[i]
                i += 1
                if state.phase == ROUND and seat in to_act(state):
                    state = apply(state, seat, action, max(at, state.time_ms))
            else:
                state = apply(state, None, TIMEOUT, due)
        return state

    def score(self, state: ScanState, seat: int) -> int:
        """Score so far: finished games' totals plus this game's (C12)."""
        return state.totals[seat] + (0 if state.game_finished else state.score(seat))

    def observe(self, state: ScanState, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation at a reveal: the tan card, the layout, scores (public only:
        the covered tan cards and the blue cards removed for Bluffo are hidden from all)."""
        out = np.zeros(SCAN_OBS, dtype=np.float32)
        ar = np.arange(4) * DESIGNS
        if state.tan is not None:
            out[ar + np.asarray(state.tan)] = 1.0
        out[SCAN_CARD + state.round_category] = 1.0
        b = SCAN_CARD + 4
        width = 1 + SCAN_CARD
        for j, card in enumerate(state.layout):
            base = b + j * width
            out[base] = 1.0
            out[base + 1 + ar + np.asarray(card)] = 1.0
        b += SCAN_LAYOUT * width
        n = state.players
        finished = state.game_finished
        for s in range(n):
            c = b + ((s - seat) % n) * SCAN_SEAT_WIDTH
            out[c] = 1.0
            score = 0 if finished else state.score(s)
            out[c + 1] = score / 30  # at most 20 tan cards and 3 Bluffo cards (2 points each)
            out[c + 2] = state.totals[s] / 120  # four games (C13)
            out[c + 3] = state.bluffos[s] / 3
            out[c + 4] = bool(state.won[s])
        b += SCAN_SEATS * SCAN_SEAT_WIDTH
        out[b] = len(state.covered) / 23
        out[b + 1] = state.stack / 3
        out[b + 2] = state.options.bluffo
        out[b + 3] = state.game / 4
        out[b + 4] = state.round / 23
        out[b + 5] = n / 8
        return out
