"""SCAN's rules (C6–C14): who may act, what is legal, what inputs and deadlines do, scoring.

Time and races. The engine reads no clock: every input is applied at a ``now_ms`` the caller
gives, and everything that happens without an input happens at a deadline, when the table
applies ``Timeout()`` with seat ``None`` (``deadline(state)`` says when). There is always
exactly one deadline until the game is over:

- *pause*: the next reveal, ``reveal_pause_ms`` after the last round ended (or after the game
  was set up). With a Dealer's Choice pending, the deadline is the end of the choice
  (``choice_timer_ms`` after the round ended); when it passes the category stays unchanged and
  the card is revealed at once if the pause is over too. After a game's last round of a four in a
  row series, the timeout sets up the next game and the pause starts again before its reveal.
- *round* with no undecided input: the end of the round, ``round_timer_ms`` after the reveal
  (C9), or, after a Bluffo slap, the end of its check (``confirm_window_ms`` after the slap was
  decided, right or wrong, so that nobody can tell which until then, C10): a right claim then
  wins; a wrong one is logged as such and the round goes on to its timer (or ends at once if
  the timer has run out meanwhile).
- *round* with undecided inputs: ``decision_window_ms`` after the first of them arrived (or the
  end of the round, if earlier). Inputs are collected until then: a seat has at most one input
  waiting, and leaves ``to_act`` until it is decided.

Deciding (C14): the waiting inputs are ordered by credited reaction time (``rt_ms``, or
``now_ms - reveal_ms`` when not given); inputs within ``tie_window_ms`` of each other are
simultaneous (``core.race.first_group``).

- If a correct touch is among them, the earliest correct touch and the correct touches within
  the window of it are simultaneous: one of them wins (drawn from the seeded generator if
  several). Inputs more than the window before it take effect first (a wrong touch disqualifies;
  a slap makes a wrong claimant), and so do wrong touches and "no match" calls up to the first
  correct touch (C7: the window is no grace for them); a Bluffo slap within the window is
  beaten (C14); every other input is too late.
- Otherwise every input takes effect in order: a wrong touch disqualifies; the earliest Bluffo
  slap (simultaneous slaps: drawn) becomes the claim if there is none yet, later slaps are
  ignored; a "no match" call (empty stack) is right, and the round ends with no winner, or
  wrong, and disqualifies.

The table may decide the waiting inputs before the deadline with ``Decide()`` (seat ``None``)
when it knows nobody can still come in with an earlier reaction time (N9; ``race(state)``
describes the race for it).

After deciding, the round ends if nobody eligible is left, or if its end has come: with a right
Bluffo claim the claimant wins, otherwise nobody does (C9). A player input applied after the
deadline is refused: the table applies the timeout first. A reaction time under
``anticipation_ms`` is a touch before the card was seen (N9): it is ignored, without penalty.
"""

from __future__ import annotations

from typing import Any

from parlour.core import GameOver, IllegalAction, InvalidAction, NotYourTurn, Timeout
from parlour.core.protocol import Decide
from parlour.core.race import OpenRace
from parlour.games.scan.actions import (
    BLUFFO,
    CHOICES,
    TOUCHES,
    Action,
    Bluffo,
    ChooseCategory,
    Touch,
    check_action,
)
from parlour.games.scan.cards import CATEGORIES
from parlour.games.scan.decide import decide_inputs, end_round_if_over
from parlour.games.scan.start import reveal, setup_game
from parlour.games.scan.state import OVER, PAUSE, ROUND, Pending, State, round_end

# --------------------------------------------------------------------------------------------
# Who acts, what is legal, when the next deadline is


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may act now: in a round every eligible seat (not disqualified, not the
    Bluffo claimant) with no input waiting; in a pause the winner naming the next category
    (Dealer's Choice), else nobody; nobody once the game is over."""
    if state.phase == ROUND:
        busy = {p.seat for p in state.pending}
        return tuple(s for s in state.eligible() if s not in busy)
    if state.phase == PAUSE and state.chooser is not None:
        return (state.chooser,)
    return ()


def bluffo_allowed(state: State) -> bool:
    """C10: whether a Bluffo input is possible in this round: Bluffo is played and nobody has
    slapped yet (with an empty stack it is the "no match" call, which is always possible)."""
    return state.options.bluffo and state.claimant is None


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat``, in a fixed order: in a round ``Touch(i)`` for every
    position of the layout, then ``Bluffo()`` when allowed; in a pause, for the Dealer's Choice
    winner, the four categories in card order. Actions are listed without reaction time; the
    same action with any ``rt_ms`` is equally legal. A seat that may not act has none."""
    if seat not in to_act(state):
        return []
    if state.phase == ROUND:
        out: list[Action] = list(TOUCHES[: len(state.layout)])
        if bluffo_allowed(state):
            out.append(BLUFFO)
        return out
    return list(CHOICES)


def deadline(state: State) -> int | None:
    """When ``Timeout()`` advances the game (see the module docstring), or ``None`` once it is
    over."""
    if state.phase == ROUND:
        end = round_end(state)
        if state.pending:
            return min(state.pending[0].arrival_ms + state.options.decision_window_ms, end)
        return end
    if state.phase == PAUSE:
        return state.choice_until if state.chooser is not None else state.next_reveal_ms
    return None


def deadline_kind(state: State) -> str | None:
    """What happens at the deadline: "reveal", "next_game", "choice", "decision",
    "checking" (the end of a Bluffo claim's check, right or wrong), "round_timer", or ``None``
    when the game is over."""
    if state.phase == ROUND:
        end = round_end(state)
        if state.pending and state.pending[0].arrival_ms + state.options.decision_window_ms < end:
            return "decision"
        return "checking" if state.checking_until is not None else "round_timer"
    if state.phase == PAUSE:
        if state.chooser is not None:
            return "choice"
        return "next_game" if state.game_finished else "reveal"
    return None


def race(state: State) -> OpenRace | None:
    """N9: the inputs waiting for a decision as the table needs them, or ``None``: the reveal
    time, the waiting inputs (credited reaction times), the seats that may still act and the
    horizon: the latest waiting reaction time plus the tie window (a later input cannot change
    how the waiting ones are decided)."""
    if state.phase != ROUND or not state.pending:
        return None
    entries = tuple(p.entry() for p in state.pending)
    horizon = max(e.rt_ms for e in entries) + state.options.tie_window_ms
    return OpenRace(state.reveal_ms, entries, to_act(state), horizon)


def outcome(state: State) -> dict[str, Any] | None:
    """``None`` while the game goes on; then the total scores, ranks (1 = best; equal totals
    share a rank), the winners (C12: highest total; ties share) and each game's result."""
    if state.phase != OVER:
        return None
    totals = state.totals
    top = max(totals)
    return {
        "scores": list(totals),
        "ranks": [1 + sum(1 for u in totals if u > t) for t in totals],
        "winners": [s for s, t in enumerate(totals) if t == top],
        "games": [r.to_json() for r in state.results],
    }


# --------------------------------------------------------------------------------------------
# apply


def _check_seat(state: State, seat: object) -> int:
    if seat is None:
        raise NotYourTurn("only the table's Timeout is applied without a seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise NotYourTurn(f"a seat is a number from 0 to {state.players - 1}, not {seat!r}")
    if not 0 <= seat < state.players:
        raise NotYourTurn(f"there is no seat {seat} at a {state.players}-player table")
    return seat


def _check_time(state: State, now_ms: object) -> int:
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise InvalidAction(f"now_ms must be a whole number of milliseconds, not {now_ms!r}")
    if now_ms < state.time_ms:
        raise IllegalAction(
            f"time runs forward: the last input was applied at {state.time_ms} ms, "
            f"so {now_ms} ms is too early"
        )
    return now_ms


def apply(state: State, seat: int | None, action: Action, now_ms: int) -> State:
    """The state after ``seat`` plays ``action`` at time ``now_ms`` (or, with seat ``None`` and
    ``Timeout()``, after the deadline has passed).

    Raises ``GameOver``; ``NotYourTurn`` (no such seat, or the seat may not act now: disqualified,
    the Bluffo claimant, an input already waiting, not the Dealer's Choice winner);
    ``IllegalAction`` (no such blue card, Bluffo not allowed, a choice during a round, a Timeout
    before its deadline or from a seat, an input after the deadline, time running backwards);
    ``InvalidAction`` (not a SCAN action). ``state`` itself is never changed.
    """
    if state.phase == OVER:
        raise GameOver("the game is over")
    action = check_action(action)
    now = _check_time(state, now_ms)
    due = deadline(state)
    assert due is not None
    if type(action) is Decide:
        if seat is not None:
            raise IllegalAction(f"a decision is made by the table with seat None, not seat {seat}")
        if state.phase != ROUND or not state.pending:
            raise IllegalAction("there is no input waiting for a decision")
        if now > due:
            raise IllegalAction(f"the inputs were due to be decided at {due} ms, not {now} ms")
        new = state.clone()
        new.time_ms = now
        decide_inputs(new, now)
        end_round_if_over(new, now)
        return new
    if type(action) is Timeout:
        if seat is not None:
            raise IllegalAction(
                f"a timeout is applied by the table with seat None, not seat {seat}"
            )
        if now < due:
            raise IllegalAction(f"nothing is due yet: the deadline is at {due} ms, not {now} ms")
        return _timeout(state, now)
    who = _check_seat(state, seat)
    if state.phase == ROUND:
        return _input(state, who, action, now, due)
    return _choose(state, who, action, now, due)


def _too_late(action: Action, now: int, due: int) -> IllegalAction:
    return IllegalAction(
        f"'{action}' at {now} ms is too late: the deadline at {due} ms has passed, "
        "and the table applies its timeout first"
    )


def _input(state: State, seat: int, action: Action, now: int, due: int) -> State:
    if seat in state.disqualified:
        raise NotYourTurn(f"seat {seat} touched a wrong card and is out until the next reveal")
    if seat == state.claimant:
        raise NotYourTurn(f"seat {seat} slapped Bluffo and may not touch this round")
    for p in state.pending:
        if p.seat == seat:
            raise NotYourTurn(
                f"seat {seat} has already acted; it is decided at {deadline(state)} ms"
            )
    if type(action) is Touch:
        assert isinstance(action, Touch)
        size = len(state.layout)
        if action.blue_index >= size:
            raise IllegalAction(
                f"'{action}': there is no blue card at position {action.blue_index}; "
                f"the layout has positions 0 to {size - 1}"
            )
        kind, index, rt = "touch", action.blue_index, action.rt_ms
    elif type(action) is Bluffo:
        assert isinstance(action, Bluffo)
        if not state.options.bluffo:
            raise IllegalAction("Bluffo is not played at this table")
        if state.claimant is not None:
            raise IllegalAction(
                f"seat {state.claimant} has already slapped Bluffo this round; "
                "later slaps are ignored"
            )
        kind, index, rt = "bluffo", None, action.rt_ms
    else:
        raise IllegalAction(
            "a category is named between rounds, by the winner of a round with Dealer's Choice"
        )
    if now > due:
        raise _too_late(action, now, due)
    credited = now - state.reveal_ms if rt is None else rt
    new = state.clone()
    new.time_ms = now
    if credited < state.options.anticipation_ms:  # N9: a reaction before the card was seen
        new.log = (state.log, ("anticipation", seat, kind, credited))
        return new
    new.pending = (*state.pending, Pending(seat, kind, index, credited, now))
    return new


def _choose(state: State, seat: int, action: Action, now: int, due: int) -> State:
    if state.chooser is None:
        raise NotYourTurn(f"no card is revealed; the next reveal is at {state.next_reveal_ms} ms")
    if seat != state.chooser:
        raise NotYourTurn(f"seat {state.chooser} names the next category, not seat {seat}")
    if type(action) is not ChooseCategory:
        raise IllegalAction(
            "no card is revealed: name the next card's category ('choose shape', 'choose "
            "pattern', 'choose position' or 'choose colour')"
        )
    assert isinstance(action, ChooseCategory)
    if now > due:
        raise _too_late(action, now, due)
    new = state.clone()
    new.time_ms = now
    new.category = CATEGORIES.index(action.category)
    new.chooser = None
    new.next_reveal_ms = max(state.next_reveal_ms, now)
    new.log = (state.log, ("choose", seat, new.category))
    return new


def _timeout(state: State, now: int) -> State:
    new = state.clone()
    new.time_ms = now
    if state.phase == PAUSE:
        if state.chooser is not None:  # C11: no choice in time, the category is unchanged
            new.log = (state.log, ("choice_lapsed", state.chooser, state.category))
            new.chooser = None
            new.next_reveal_ms = max(state.next_reveal_ms, now)
            if now < new.next_reveal_ms:
                return new
        if state.game_finished:  # C13: the next game of four in a row
            setup_game(new, state.game + 1, now)
        else:  # the new round's log shows a lapsed choice (``State.round_log``)
            reveal(new, now)
        return new
    if state.pending:
        decide_inputs(new, now)
    end_round_if_over(new, now)
    return new
