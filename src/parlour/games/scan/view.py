"""What each seat may see of a SCAN game, and the test hooks that prove nothing else leaks.

Public: the revealed tan card, the blue layout, the category, who is disqualified, who slapped
Bluffo, every seat's won cards and score, the current round's log (inputs appear there once they
are decided, with their verdicts), which seats have an input waiting, the deadline, and, after a
round, where its match lay (C9: "the match is highlighted"). The blue cards removed for Bluffo
are shown once the game is over. Private: the order (and faces) of the tan cards still covered,
which blue cards were removed (until the game is over), what another seat's waiting input is, the
seed, and whether a Bluffo claim is right until its check is over (C10: the same "checking"
state and deadline either way). A seat sees its own waiting input. While inputs wait, no time
moves with their arrival (a computer opponent acts at the reveal plus its reaction time): the
deadline shown is the round's end, not the decision's, and the time shown is the reveal's.
"""

from __future__ import annotations

import random
from typing import Any

from parlour.games.scan.cards import CATEGORIES, Card, match_index
from parlour.games.scan.rules import deadline, deadline_kind, legal_actions, outcome, to_act
from parlour.games.scan.state import PHASE_NAMES, ROUND, Pending, State, round_end
from parlour.games.scan.views import ScanInputView, ScanSeatView, ScanView


def _card(card: Card) -> list[int]:
    return [card[0], card[1], card[2], card[3]]


def _cards(cards: tuple[Card, ...]) -> list[list[int]]:
    return [_card(c) for c in cards]


def _event(event: tuple[Any, ...]) -> dict[str, Any]:
    kind = event[0]
    if kind == "setup":
        return {"type": "setup", "game": event[1] + 1, "category": CATEGORIES[event[2]]}
    if kind == "reveal":
        _, seq, tan, category, at = event
        out = {"type": "reveal", "seq": seq, "tan": _card(tan), "category": CATEGORIES[category]}
        return {**out, "at_ms": at}
    if kind == "anticipation":
        _, seat, what, rt = event
        return {"type": "anticipation", "seat": seat, "input": what, "rt_ms": rt}
    if kind == "touch":
        _, seat, index, rt, verdict = event
        return {"type": "touch", "seat": seat, "blue_index": index, "rt_ms": rt, "verdict": verdict}
    if kind == "bluffo":
        _, seat, rt, verdict = event
        return {"type": "bluffo", "seat": seat, "rt_ms": rt, "verdict": verdict}
    if kind == "draw":
        _, what, seats, chosen = event
        return {"type": "draw", "input": what, "seats": list(seats), "chosen": chosen}
    if kind == "checking":
        return {"type": "checking", "seat": event[1], "until_ms": event[2]}
    if kind == "claim_wrong":
        return {"type": "claim_wrong", "seat": event[1]}
    if kind == "win":
        _, seat, how, taken = event
        gifts = [{"from": g, "card": _card(c)} for g, c in taken]
        return {"type": "win", "seat": seat, "by": how, "taken": gifts}
    if kind == "no_winner":
        return {"type": "no_winner", "reason": event[1], "match": event[2]}
    if kind in ("choose", "choice_lapsed"):
        return {"type": kind, "seat": event[1], "category": CATEGORIES[event[2]]}
    assert kind == "game_over", kind
    return {"type": "game_over", "game": event[1] + 1, "scores": list(event[2])}


def _pending(p: Pending) -> ScanInputView:
    return {"input": p.kind, "blue_index": p.blue_index, "rt_ms": p.rt_ms, "at_ms": p.arrival_ms}


def view(state: State, seat: int | None) -> ScanView:
    """Everything ``seat`` may see, as JSON-ready data (``seat=None``: a spectator).

    Cards are lists of four design ids (shape, pattern, position, colour). ``tan`` is the
    revealed card (during a pause the last one; ``None`` before a game's first reveal);
    ``match`` is the layout position of its match once its round is over (``None`` during the
    round or when it has none); ``legal_actions`` lists the seat's legal actions in text form;
    ``my_input`` is the seat's own input waiting for the decision; ``removed`` is ``None``
    until the game is over.
    """
    n = state.players
    me = seat if seat is not None and 0 <= seat < n else None
    finished = state.game_finished
    seats: list[ScanSeatView] = []
    for s in range(n):
        score = state.score(s)
        seats.append(
            {
                "seat": s,
                "won": _cards(state.won[s]),
                "bluffo": state.bluffos[s],
                "score": score,
                "total": state.totals[s] + (0 if finished else score),
                "disqualified": s in state.disqualified,
                "waiting": any(p.seat == s for p in state.pending),
            }
        )
    match = None
    if state.phase != ROUND and state.tan is not None:
        match = match_index(state.layout, state.tan, state.round_category)
    mine = [p for p in state.pending if p.seat == me]
    due, due_kind, time_ms = deadline(state), deadline_kind(state), state.time_ms
    if state.phase == ROUND and state.pending:  # nothing that tells a waiting input's time
        due, time_ms = round_end(state), state.reveal_ms
        due_kind = "checking" if state.checking_until is not None else "round_timer"
    return {
        "game": "scan",
        "options": state.options.to_json(),
        "seat": me,
        "players": n,
        "phase": PHASE_NAMES[state.phase],
        "game_number": state.game + 1,
        "games": state.options.games,
        "series": [CATEGORIES[c] for c in state.series],
        "category": CATEGORIES[state.round_category],
        "next_category": CATEGORIES[state.category],
        "round": state.round,
        "rounds": len(state.tan_deck),
        "seq": state.seq,
        "reveal_ms": state.reveal_ms if state.tan is not None else None,
        "tan": _card(state.tan) if state.tan is not None else None,
        "layout": _cards(state.layout),
        "covered": len(state.covered),
        "set_aside": _cards(state.set_aside),
        "bluffo_stack": state.stack,
        "removed": _cards(state.removed) if finished else None,
        "removed_count": len(state.removed),
        "disqualified": sorted(state.disqualified),
        "claimant": state.claimant,
        "checking_until_ms": state.checking_until,
        "waiting": [p.seat for p in state.pending],
        "my_input": _pending(mine[0]) if mine else None,
        "match": match,
        "chooser": state.chooser,
        "deadline_ms": due,
        "deadline_kind": due_kind,
        "time_ms": time_ms,
        "to_act": list(to_act(state)),
        "legal_actions": [str(a) for a in legal_actions(state, me)] if me is not None else [],
        "seats": seats,
        "results": [r.to_json() for r in state.results],
        "totals": [state.totals[s] + (0 if finished else state.score(s)) for s in range(n)],
        "outcome": outcome(state),
        "log": [_event(e) for e in state.round_log()],
    }


def history(state: State, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The whole series' history (every round of every game; views carry the current round
    only), with ``since`` only the events after the first ``since`` (events never change once
    logged, so a caller may keep the earlier ones). Every seat sees the same as a spectator:
    the log holds no waiting input (inputs are logged once decided, with their verdicts)."""
    return [_event(e) for e in state.events()[since:]]


def hidden_info(state: State, seat: int | None) -> list[Any]:
    """JSON-ready values ``seat`` must never see: the seed, the covered tan cards (the pile in
    order, and each card not yet revealed in the series: in a four-in-a-row series the same
    tan cards come back each game, their faces public since an earlier game's reveal, their
    order secret) and, until the game is over, the removed blue cards (the list and each
    card)."""
    secrets: list[Any] = [state.seed]
    if len(state.covered) >= 2:
        secrets.append(_cards(state.covered))
    shown = {e[2] for e in state.events() if e[0] == "reveal"} if state.game else set()
    secrets += [_card(c) for c in state.covered if c not in shown]
    if not state.game_finished and state.removed:
        secrets.append(_cards(state.removed))
        secrets += _cards(state.removed)
    return secrets


def _redraw_faces(cards: tuple[Card, ...], rng: random.Random) -> tuple[Card, ...]:
    # The same designs per category, recombined across the cards at random.
    columns = [[card[c] for card in cards] for c in range(4)]
    for column in columns:
        rng.shuffle(column)
    return tuple((a, b, c, d) for a, b, c, d in zip(*columns, strict=True))


def scramble_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state identical for ``seat`` and in public, with everything hidden from ``seat``
    redrawn: the covered tan cards (order and faces, keeping each category's designs), the
    removed blue cards' faces (until the game is over), other seats' waiting inputs (kind, card
    and reaction time; arrival times are public) and the seed."""
    new = state.clone()
    covered = list(_redraw_faces(state.covered, rng)) if state.covered else []
    rng.shuffle(covered)
    swap = dict(zip(state.covered, covered, strict=True))
    new.covered = tuple(covered)
    new.tan_deck = tuple(swap.get(c, c) for c in state.tan_deck)
    if not state.game_finished and state.removed:
        removed = _redraw_faces(state.removed, rng)
        swap_blue = dict(zip(state.removed, removed, strict=True))
        new.removed = removed
        new.blue_deck = tuple(swap_blue.get(c, c) for c in state.blue_deck)
    pending = []
    for p in state.pending:
        if p.seat != seat:
            kind = rng.choice(["touch", "bluffo"])
            index = rng.randrange(len(state.layout)) if kind == "touch" else None
            p = Pending(p.seat, kind, index, rng.randrange(100, 20_000), p.arrival_ms)
        pending.append(p)
    new.pending = tuple(pending)
    new.seed = rng.randrange(10**12, 10**13)
    return new
