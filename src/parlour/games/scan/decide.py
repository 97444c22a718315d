"""Deciding a race (C14) and ending a round (C7–C13): who wins a round, what each input did,
what the winner takes, scores, and the pause or the end of the game that follows.

Every function here changes ``new``, a state under construction (a fresh ``clone`` that
``rules.apply`` has not handed out yet), and pushes its events onto ``new.log`` in order.
"""

from __future__ import annotations

from typing import Any

from parlour.core import derive_rng
from parlour.core.race import first_group
from parlour.games.scan.cards import Card, match_index
from parlour.games.scan.state import OVER, PAUSE, ROUND, GameResult, Pending, State, round_end


def _push(new: State, events: list[tuple[Any, ...]]) -> None:
    # Append ``events`` to the history of ``new``, oldest first.
    log = new.log
    for event in events:
        log = (log, event)
    new.log = log


def end_round_if_over(new: State, now: int) -> None:
    """C9/C10: after a decision or at the deadline (``new``: a state under construction): judge
    a Bluffo claim whose check is over (or with nobody left to search), then end the round if
    nobody eligible is left or its timer has run out."""
    if new.phase != ROUND:
        return
    over = not new.eligible()
    if new.checking_until is not None:
        if not over and now < new.checking_until:
            return
        assert new.tan is not None and new.claimant is not None
        if match_index(new.layout, new.tan, new.round_category) is None:
            _bluffo_win(new, now)
            return
        if now >= new.checking_until:  # the verdict: wrong; the others search on
            new.checking_until = None
            new.log = (new.log, ("claim_wrong", new.claimant))
    if over or now >= round_end(new):
        _no_winner(new, now, "all_disqualified" if over else "timer")


def _draw(state: State, kind: str, seats: list[int]) -> int:
    # C14: simultaneous inputs; the winner is drawn from the game's seeded generator.
    return derive_rng(state.seed, "scan", "draw", state.seq, kind).choice(sorted(seats))


def _is_correct(state: State, p: Pending) -> bool:
    assert state.tan is not None
    cat = state.round_category
    return p.blue_index is not None and state.layout[p.blue_index][cat] == state.tan[cat]


def decide_inputs(new: State, now: int) -> None:
    """C14: decide the waiting inputs of ``new`` (a state under construction) at ``now``."""
    assert new.tan is not None
    tie = new.options.tie_window_ms
    entries = sorted(new.pending, key=lambda p: (p.rt_ms, p.seat))
    new.pending = ()
    log: list[tuple[Any, ...]] = []  # the events of this decision, in order
    correct = [p for p in entries if _is_correct(new, p)]
    if not correct:
        if not _settle(new, entries, log, now):
            _push(new, log)
        return
    first = correct[0].rt_ms
    tied = [e.seat for e in first_group([p.entry() for p in correct], tie)]
    winner = tied[0] if len(tied) == 1 else _draw(new, "touch", tied)
    if len(tied) > 1:
        log.append(("draw", "touch", tuple(tied), winner))
    # C7/C14: inputs before the window take effect, and so do wrong touches and "no match"
    # calls up to the first correct touch; only a Bluffo slap within the window is beaten.
    slap = new.stack > 0
    before = [
        p
        for p in entries
        if p.rt_ms < first - tie
        or (p.rt_ms <= first and p not in correct and not (slap and p.kind == "bluffo"))
    ]
    _settle(new, before, log, now)  # there is a match, so this cannot end the round
    for p in entries:
        if p in before:
            continue
        if p.seat == winner:
            verdict = "won"
        elif p.seat in tied:
            verdict = "tie_lost"
        else:
            verdict = "beaten" if slap and p.kind == "bluffo" and p.rt_ms <= first + tie else "late"
        log.append(_entry_event(p, verdict))
    _push(new, log)
    _touch_win(new, winner, now)


def _settle(new: State, entries: list[Pending], log: list[tuple[Any, ...]], now: int) -> bool:
    # Let inputs that are not correct touches take effect, in order of reaction time (C7, C10):
    # wrong touches and wrong "no match" calls disqualify; the earliest slap (simultaneous ones:
    # drawn) becomes the claim if there is none yet, later ones are ignored; a right "no match"
    # call ends the round with no winner. Returns whether the round ended (``log`` is then
    # pushed onto ``new.log``).
    assert new.tan is not None
    has_match = match_index(new.layout, new.tan, new.round_category) is not None
    slapping = new.stack > 0
    claimed = False
    if slapping and new.claimant is None:
        slaps = [p.entry() for p in entries if p.kind == "bluffo"]
        if slaps:
            tied = [e.seat for e in first_group(slaps, new.options.tie_window_ms)]
            new.claimant = tied[0] if len(tied) == 1 else _draw(new, "bluffo", tied)
            claimed = True
            if len(tied) > 1:
                log.append(("draw", "bluffo", tuple(tied), new.claimant))
    disqualified = set(new.disqualified)
    for i, p in enumerate(entries):
        if p.kind == "touch":
            disqualified.add(p.seat)
            log.append(_entry_event(p, "wrong"))
        elif slapping:
            ignored = not claimed or p.seat != new.claimant
            log.append(_entry_event(p, "ignored" if ignored else "claim"))
        elif has_match:  # a wrong "no match" call disqualifies
            disqualified.add(p.seat)
            log.append(_entry_event(p, "wrong"))
        else:  # a right "no match" call: the card is set aside, for nobody
            log.append(_entry_event(p, "right"))
            log += [_entry_event(q, "late") for q in entries[i + 1 :]]
            new.disqualified = frozenset(disqualified)
            _push(new, log)
            _no_winner(new, now, "no_match_call")
            return True
    new.disqualified = frozenset(disqualified)
    if claimed:  # C10: checked for a while, right or wrong; nobody is told which until then
        new.checking_until = now + new.options.confirm_window_ms
        log.append(("checking", new.claimant, new.checking_until))
    return False


def _entry_event(p: Pending, verdict: str) -> tuple[Any, ...]:
    if p.kind == "touch":
        return ("touch", p.seat, p.blue_index, p.rt_ms, verdict)
    return ("bluffo", p.seat, p.rt_ms, verdict)


def _take(new: State, winner: int, givers: list[int], first: list[Card]) -> list[tuple[Any, ...]]:
    # C8: the winner adds ``first`` and then each giver's most recently won tan card, givers in
    # seat order (a giver with none gives nothing); returns (giver, card) pairs.
    won = list(new.won)
    pile = list(won[winner]) + first
    taken: list[tuple[Any, ...]] = []
    for g in sorted(set(givers)):
        if won[g]:
            card = won[g][-1]
            won[g] = won[g][:-1]
            pile.append(card)
            taken.append((g, card))
    won[winner] = tuple(pile)
    new.won = tuple(won)
    return taken


def _touch_win(new: State, winner: int, now: int) -> None:
    # C8: the toucher takes t plus a card from each disqualified seat and a wrong claimant.
    assert new.tan is not None
    givers = list(new.disqualified)
    if new.claimant is not None:
        givers.append(new.claimant)
    taken = _take(new, winner, givers, [new.tan])
    new.log = (new.log, ("win", winner, "touch", tuple(taken)))
    _end_round(new, now, winner)


def _bluffo_win(new: State, now: int) -> None:
    # C10: the claimant takes the top Bluffo card and a tan card from each disqualified seat;
    # t is set aside.
    claimant = new.claimant
    assert claimant is not None and new.tan is not None
    taken = _take(new, claimant, list(new.disqualified), [])
    new.stack -= 1
    new.bluffos = tuple(b + (s == claimant) for s, b in enumerate(new.bluffos))
    new.set_aside = (*new.set_aside, new.tan)
    new.log = (new.log, ("win", claimant, "bluffo", tuple(taken)))
    _end_round(new, now, claimant)


def _no_winner(new: State, now: int, reason: str) -> None:
    # C9: the match is highlighted, t is set aside and scores for nobody.
    assert new.tan is not None
    new.set_aside = (*new.set_aside, new.tan)
    match = match_index(new.layout, new.tan, new.round_category)
    new.log = (new.log, ("no_winner", reason, match))
    _end_round(new, now, None)


def _end_round(new: State, now: int, winner: int | None) -> None:
    # C11–C13: pause before the next reveal (Dealer's Choice for the winner), or end the game.
    opts = new.options
    new.phase = PAUSE
    new.pending = ()
    new.checking_until = None
    new.next_reveal_ms = now + opts.reveal_pause_ms
    if new.covered:
        if opts.dealers_choice and winner is not None:
            new.chooser = winner
            new.choice_until = now + opts.choice_timer_ms
        return
    n = new.players
    scores = tuple(new.score(s) for s in range(n))
    result = GameResult(
        new.game,
        new.series[new.game],
        tuple(len(p) for p in new.won),
        new.bluffos,
        scores,
    )
    new.results = (*new.results, result)
    new.totals = tuple(t + s for t, s in zip(new.totals, scores, strict=True))
    new.log = (new.log, ("game_over", new.game, scores))
    if new.game + 1 >= opts.games:
        new.phase = OVER
