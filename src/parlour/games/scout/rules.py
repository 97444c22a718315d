"""SCOUT's rules (S4–S18): who acts, what is legal, what an action does, and scoring.

Group strength is one integer so that comparison is a single ``>`` (S9)::

    key = count * 32 + 16 * (is a set, or a single card) + smallest number

More cards always win (the low bits stay below 32); with equal counts a set beats a run; with
equal count and type the higher smallest number wins; equal keys do not beat each other.
An empty active show has key 0, which every group beats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core import GameOver, IllegalAction, InvalidAction, NotYourTurn
from parlour.games.scout.actions import (
    ENDING,
    FLIP,
    KEEP,
    LEFT,
    SCOUT_SHOWS,
    SCOUTS,
    Action,
    Flip,
    Scout,
    ScoutShow,
    Show,
)
from parlour.games.scout.cards import Card
from parlour.games.scout.state import (
    FLIP_PHASE,
    OVER,
    PLAY_PHASE,
    RoundResult,
    SeatResult,
    State,
    next_round,
)

# --------------------------------------------------------------------------------------------
# Groups (S8, S9)


def group_key(values: Sequence[int]) -> int:
    """The strength of a group of numbers in hand order, or 0 if they are not a valid group.

    >>> group_key([1, 1]) > group_key([9, 10])      # a set beats a run of the same size
    True
    >>> group_key([3, 5, 4]), group_key([10, 1]), group_key([4, 4, 5])
    (0, 0, 0)
    """
    n = len(values)
    if n == 0:
        return 0
    first = values[0]
    if n == 1:
        return 48 + first
    step = values[1] - first
    if step < -1 or step > 1:
        return 0
    for i in range(2, n):
        if values[i] - values[i - 1] != step:
            return 0
    if step == 0:
        return (n << 5) + 16 + first
    return (n << 5) + (first if step == 1 else values[-1])


def _card_group_key(cards: tuple[Card, ...]) -> int:
    # group_key of the cards' numbers in use, without building a list of them.
    first = cards[0][0]
    n = len(cards)
    if n == 1:
        return 48 + first
    step = cards[1][0] - first
    if step < -1 or step > 1:
        return 0
    prev = cards[1][0]
    for card in cards[2:]:
        v = card[0]
        if v - prev != step:
            return 0
        prev = v
    if step == 0:
        return (n << 5) + 16 + first
    return (n << 5) + (first if step == 1 else prev)


def describe_group(cards: Sequence[Card]) -> str:
    """A group in words, for error messages: ``[5, 6, 7]``."""
    return "[" + ", ".join(str(c[0]) for c in cards) + "]"


def legal_shows(hand: Sequence[Card], active_key: int) -> list[Show]:
    """Every ``Show`` from ``hand`` that beats an active show of strength ``active_key``,
    ordered by the position of the group's last card, then by length.

    One pass from left to right tracks the longest group ending at each card: every group
    ending there is a suffix of it, so the legal ones are a slice of a precomputed table.
    """
    c = active_key >> 5
    out: list[Show] = []
    app = out.append
    ext = out.extend  # ENDING rows hold None at index 0 only, which is never sliced
    length = 0
    step = 99
    prev = -99
    row: tuple[Show, ...]
    if c <= 1:  # every group of 2+ cards, and the single cards above the active one
        above = active_key - 48 if c else 0
        for row, card in zip(ENDING, hand, strict=False):  # type: ignore[assignment]
            v = card[0]
            d = v - prev
            prev = v
            if d == step:
                length += 1
                ext(row[1 : length + 1] if v > above else row[2 : length + 1])
            elif -1 <= d <= 1:
                length = 2
                step = d
                ext(row[1:3] if v > above else row[2:3])
            else:
                length = 1
                step = 99
                if v > above:
                    app(row[1])
        return out
    for row, card in zip(ENDING, hand, strict=False):  # type: ignore[assignment]
        v = card[0]
        d = v - prev
        prev = v
        if d == step:
            length += 1
        elif -1 <= d <= 1:
            length = 2
            step = d
        else:
            length = 1
            step = 99
            continue
        if length >= c:
            if (c << 5) + (16 + v if step == 0 else v - c + 1 if step == 1 else v) > active_key:
                app(row[c])
            if length > c:
                ext(row[c + 1 : length + 1])
    return out


def best_key(hand: Sequence[Card]) -> int:
    """The strength of the strongest group in ``hand`` (0 for an empty hand)."""
    return _best_group(hand)[0]


def _best_group(hand: Sequence[Card]) -> tuple[int, int, int]:
    # (key, start, length) of the strongest group in hand (the leftmost of equals).
    best = best_start = best_len = 0
    length = 0
    step = 99
    prev = -99
    for j, card in enumerate(hand):
        v = card[0]
        d = v - prev
        prev = v
        if d == step:
            length += 1
        elif -1 <= d <= 1:
            length = 2
            step = d
        else:
            length = 1
            step = 99
        if step == 1:
            key = (length << 5) + v - length + 1
        else:
            key = (length << 5) + (v if step == -1 else 16 + v)
        if key > best:
            best, best_start, best_len = key, j - length + 1, length
    return best, best_start, best_len


def feasible_scout_shows(hand: tuple[Card, ...], active: tuple[Card, ...]) -> list[ScoutShow]:
    """Every Scout half of Scout & Show after which some Show beats the reduced show (S12).

    After inserting card ``x`` at position ``i``, the new hand's groups are the old hand's groups
    that do not straddle ``i`` and the groups through ``x``. So when the old hand's strongest
    group ``G`` beats the reduced show, every position outside ``G``'s interior works; when it
    does not, only a group through ``x`` can, which needs ``x`` to beat a single card or to sit
    next to a number within one of its own. Only the remaining few positions are tried in full.
    """
    n = len(hand)
    width = n + 1
    table = SCOUT_SHOWS[n]
    hand_key, g_start, g_len = _best_group(hand)
    out: list[ScoutShow] = []
    for e in (0, 1):
        card = active[0] if e == 0 else active[-1]
        rest = active[1:] if e == 0 else active[:-1]
        rest_key = group_key([c[0] for c in rest])
        for r in (0, 1):
            base = (e * 2 + r) * width
            turned = (card[1], card[0]) if r else card
            v = turned[0]
            if rest_key == 0 or (rest_key < 64 and 48 + v > rest_key):
                out.extend(table[base : base + width])  # anything beats it / x alone does
            elif hand_key > rest_key:
                out.extend(table[base : base + g_start + 1])
                for i in range(g_start + 1, g_start + g_len):
                    if best_key(hand[:i] + (turned,) + hand[i:]) > rest_key:
                        out.append(table[base + i])
                out.extend(table[base + g_start + g_len : base + width])
            else:
                for i in range(width):
                    left = hand[i - 1][0] - v if i else 99
                    right = hand[i][0] - v if i < n else 99
                    if (-1 <= left <= 1 or -1 <= right <= 1) and best_key(
                        hand[:i] + (turned,) + hand[i:]
                    ) > rest_key:
                        out.append(table[base + i])
    return out


# --------------------------------------------------------------------------------------------
# The protocol


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may act now: every undecided seat during the flip decisions (S5), the
    seat whose turn it is during play, nobody once the game is over."""
    if state.phase == PLAY_PHASE:
        return (state.turn,)
    if state.phase == FLIP_PHASE:
        return tuple(s for s, f in enumerate(state.flips) if f is None)
    return ()


_FLIP_CHOICES = [KEEP, FLIP]


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat``, in a fixed order: Shows (by the position of their last
    card, then length), Scouts
    (left end first, unrotated first, by position), then Scout & Show halves in the same order.
    A seat that may not act now has none."""
    if state.phase == PLAY_PHASE:
        if seat != state.turn:
            return []
        hand = state.hands[seat]
        out: list[Action] = legal_shows(hand, state.active_key)  # type: ignore[assignment]
        if state.pending or not state.active:
            return out
        if len(state.hands) == 2:
            if state.chips[seat] > 0:
                out.extend(SCOUTS[len(hand)])
        else:
            out.extend(SCOUTS[len(hand)])
            if state.scout_show[seat]:
                out.extend(feasible_scout_shows(hand, state.active))
        return out
    if state.phase == FLIP_PHASE and 0 <= seat < len(state.flips) and state.flips[seat] is None:
        return list(_FLIP_CHOICES)
    return []


def deadline(state: State) -> int | None:
    """SCOUT is turn-based: no deadline (turn timers belong to the table)."""
    return None


def outcome(state: State) -> dict[str, Any] | None:
    """``None`` while the game goes on; then the totals, ranks (1 = best; equal totals share a
    rank) and the winners (S6: highest total; equal totals share the win)."""
    if state.phase != OVER:
        return None
    totals = state.totals
    top = max(totals)
    return {
        "scores": list(totals),
        "ranks": [1 + sum(1 for u in totals if u > t) for t in totals],
        "winners": [s for s, t in enumerate(totals) if t == top],
    }


def _check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise NotYourTurn(f"a seat is a number from 0 to {len(state.hands) - 1}, not {seat!r}")
    if not 0 <= seat < len(state.hands):
        raise NotYourTurn(f"there is no seat {seat} at a {len(state.hands)}-player table")
    return seat


def apply(state: State, seat: int | None, action: Action, now_ms: int = 0) -> State:
    """The state after ``seat`` plays ``action`` (``now_ms`` is unused: SCOUT is turn-based).

    Raises ``GameOver``, ``NotYourTurn``, ``IllegalAction`` (with the reason) or
    ``InvalidAction`` (not a SCOUT action); ``state`` itself is never changed.
    """
    phase = state.phase
    if phase == PLAY_PHASE:
        if seat != state.turn:
            _check_seat(state, seat)
            raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")
        cls = type(action)
        if cls is Show:
            return _apply_show(state, state.turn, action)  # type: ignore[arg-type]
        if cls is Scout or cls is ScoutShow:
            return _apply_scout(state, state.turn, action)  # type: ignore[arg-type]
        if cls is Flip:
            raise IllegalAction("the flip decision is made only at the start of a round")
        raise InvalidAction(f"{action!r} is not a SCOUT action")
    if phase == FLIP_PHASE:
        seat = _check_seat(state, seat)
        if type(action) is not Flip:
            if isinstance(action, (Show, Scout, ScoutShow)):
                raise IllegalAction(
                    "every player first decides whether to flip their hand ('flip' or 'keep')"
                )
            raise InvalidAction(f"{action!r} is not a SCOUT action")
        if state.flips[seat] is not None:
            raise NotYourTurn(f"seat {seat} has already decided whether to flip this round")
        return _apply_flip(state, seat, action.flip)
    raise GameOver("the game is over")


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _apply_flip(state: State, seat: int, flip: bool) -> State:
    new = state.clone()
    new.flips = flips = _replace(state.flips, seat, flip)
    if flip:  # S5: every card swaps up/down and the left-to-right order reverses
        hand = state.hands[seat]
        new.hands = _replace(state.hands, seat, tuple((c[1], c[0]) for c in reversed(hand)))
    new.log = (state.log, ("flip", state.round, seat, flip))
    new.steps = state.steps + 1
    if None not in flips:
        new.phase = PLAY_PHASE
    return new


NOT_ADJACENT = "not_adjacent"
NOT_A_GROUP = "not_a_group"
DOES_NOT_BEAT = "does_not_beat"


def show_refusal(state: State, seat: int, start: int, length: int) -> str | None:
    """Why ``seat`` may not show the ``length`` cards from ``start`` of its hand by the group
    rules (S8, S9), or ``None`` if they make a group that beats the active show:
    ``not_adjacent`` (not 1 or more neighbouring cards of the hand), ``not_a_group`` (neither a
    set nor a run), ``does_not_beat`` (the active show is as strong or stronger). Whose turn it
    is, the phase and Scout & Show are checked by :func:`apply`.

    >>> from parlour.games.scout.state import state_from_deal
    >>> s = state_from_deal([[(3, 1), (4, 2), (6, 1)], [(5, 2)]], start_seat=0)
    >>> [show_refusal(s, 0, 0, 2), show_refusal(s, 0, 1, 2), show_refusal(s, 0, 2, 2)]
    [None, 'not_a_group', 'not_adjacent']
    """
    return _show_check(state, seat, start, length)[0]


def _show_check(state: State, seat: int, start: int, length: int) -> tuple[str | None, int]:
    # (why the show is refused or None, the group's key)
    hand = state.hands[seat]
    if length < 1 or start < 0 or start + length > len(hand):
        return NOT_ADJACENT, 0
    key = _card_group_key(hand[start : start + length])
    if key == 0:
        return NOT_A_GROUP, 0
    if key <= state.active_key:
        return DOES_NOT_BEAT, key
    return None, key


def refusals(state: State, seat: int) -> dict[str, str]:
    """For the seat whose turn it is, why each run of neighbouring cards of its hand that it may
    not show is refused (:func:`show_refusal`), keyed ``"start:length"``; empty for any other
    seat. It lets a page say why a selection cannot be shown without holding any rule."""
    if state.phase != PLAY_PHASE or seat != state.turn:
        return {}
    n = len(state.hands[seat])
    out: dict[str, str] = {}
    for start in range(n):
        for length in range(1, n - start + 1):
            why = show_refusal(state, seat, start, length)
            if why is not None:
                out[f"{start}:{length}"] = why
    return out


def _apply_show(state: State, seat: int, action: Show) -> State:
    hand = state.hands[seat]
    n = len(hand)
    start, length = action.start, action.length
    why, key = _show_check(state, seat, start, length)
    group = hand[start : start + length]
    if why == NOT_ADJACENT:
        raise IllegalAction(
            f"'{action}': a show is 1 or more adjacent cards within your hand of {n} "
            f"(positions 0 to {n - 1})"
        )
    if why == NOT_A_GROUP:
        raise IllegalAction(
            f"'{action}': {describe_group(group)} is neither a set (all the same number) nor a "
            "run (each card one more, or one less, than the one before)"
        )
    if why == DOES_NOT_BEAT:
        raise IllegalAction(
            f"'{action}': {describe_group(group)} does not beat the active show "
            f"{describe_group(state.active)} (more cards win; then a set beats a run; then the "
            "higher smallest number; equal is not enough)"
        )
    players = len(state.hands)
    new = state.clone()
    rest = hand[:start] + hand[start + length :]
    hands = state.hands
    new.hands = hands[:seat] + (rest,) + hands[seat + 1 :]
    captured = state.active
    if captured:
        piles = state.piles
        new.piles = piles[:seat] + (piles[seat] + captured,) + piles[seat + 1 :]
    new.active = group
    new.active_key = key
    new.owner = seat
    new.scouts = 0
    new.pending = False
    new.steps = state.steps + 1
    new.log = (state.log, ("show", state.round, seat, start, length, group, len(captured)))
    if not rest:
        _end_round(new, "hand_empty", seat)
        return new
    opponent = (seat + 1) % players
    new.turn = opponent
    # S17.2: the opponent can neither show nor scout
    if players == 2 and new.chips[opponent] == 0 and best_key(new.hands[opponent]) <= key:
        _end_round(new, "stuck", seat)
    return new


def _apply_scout(state: State, seat: int, action: Scout | ScoutShow) -> State:
    both = type(action) is ScoutShow
    players = len(state.hands)
    if state.pending:
        raise IllegalAction("you have scouted for Scout & Show: now show a group from your hand")
    active = state.active
    if not active:
        raise IllegalAction(f"'{action}': there is no active show to scout")
    if both:
        if players == 2:
            raise IllegalAction("Scout & Show is not used in the 2-player game")
        if not state.scout_show[seat]:
            raise IllegalAction("you have already used your Scout & Show this round")
    elif players == 2 and state.chips[seat] == 0:
        raise IllegalAction("you have no Scout chips left: you must show")
    hand = state.hands[seat]
    n = len(hand)
    insert = action.insert
    if not 0 <= insert <= n:
        raise IllegalAction(
            f"'{action}': the scouted card goes at a position from 0 to {n} in your hand"
        )
    if action.end == LEFT:
        taken, rest = active[0], active[1:]
    else:
        taken, rest = active[-1], active[:-1]
    card = (taken[1], taken[0]) if action.rotate else taken
    new_hand = (*hand[:insert], card, *hand[insert:])
    rest_key = group_key([c[0] for c in rest])
    if both and best_key(new_hand) <= rest_key:
        raise IllegalAction(
            f"'{action}': after this Scout nothing in your hand would beat "
            f"{describe_group(rest)}, so the Show of Scout & Show would be impossible"
        )
    owner = state.owner
    assert owner is not None
    new = state.clone()
    hands = state.hands
    new.hands = hands[:seat] + (new_hand,) + hands[seat + 1 :]
    new.active = rest
    new.active_key = rest_key
    new.steps = state.steps + 1
    kind = "scout_show" if both else "scout"
    new.log = (
        state.log,
        (kind, state.round, seat, action.end, action.rotate, insert, taken, owner),
    )
    if players == 2:  # S16: pay a chip to the supply and keep the turn
        new.chips = _replace(state.chips, seat, state.chips[seat] - 1)
        if rest and new.chips[seat] == 0 and best_key(new_hand) <= rest_key:
            _end_round(new, "stuck", owner)  # the S17.2 ending: this seat can no longer act
        return new
    chips = state.chips
    new.chips = chips[:owner] + (chips[owner] + 1,) + chips[owner + 1 :]  # S11
    if both:  # S12: the same seat must now show
        new.scout_show = _replace(state.scout_show, seat, False)
        new.pending = True
        return new
    new.turn = (seat + 1) % players
    new.scouts = state.scouts + 1
    if new.scouts == players - 1:  # S13.2
        _end_round(new, "scouted_out", owner)
    return new


def _end_round(new: State, reason: str, ender: int) -> None:
    # S14/S18: score the round into ``new`` (a state under construction), then deal the next
    # round or end the game.
    players = len(new.hands)
    exempt = ender if reason != "hand_empty" else None
    count_chips = players > 2 or new.options.count_unspent_chips
    seats = []
    for s in range(players):
        captured = len(new.piles[s])
        chips = new.chips[s] if count_chips else 0
        penalty = 0 if s == exempt else -len(new.hands[s])
        seats.append(SeatResult(captured, chips, penalty, s == exempt, captured + chips + penalty))
    totals = tuple(t + r.points for t, r in zip(new.totals, seats, strict=True))
    result = RoundResult(new.round, reason, ender, tuple(seats), totals)
    new.totals = totals
    new.results = (*new.results, result)
    new.log = (new.log, ("round_end", new.round, reason, ender))  # details: new.results
    if new.round + 1 < new.options.rounds:
        next_round(new)
    else:
        new.phase = OVER


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` if ``state`` is inconsistent: S17 card conservation (hands,
    active show, score piles and set-aside cards hold exactly the round's cards, each once),
    the active show's key, and per-seat sizes."""
    cards = [c for h in state.hands for c in h]
    cards += state.active
    for pile in state.piles:
        cards += pile
    cards += state.set_aside
    ids = {(a, b) if a < b else (b, a) for a, b in cards}
    assert len(ids) == len(cards), "a card is in two places"
    assert ids == state.round_cards, "cards are not conserved"
    n = len(state.hands)
    assert all(len(t) == n for t in (state.flips, state.piles, state.chips, state.totals))
    assert state.active_key == group_key([c[0] for c in state.active])
    if state.phase == PLAY_PHASE:
        assert None not in state.flips
        assert all(state.hands), "a hand is empty during play"
    if state.pending:
        assert state.phase == PLAY_PHASE and not state.scout_show[state.turn]
    assert len(state.results) == state.round + (1 if state.phase == OVER else 0)
