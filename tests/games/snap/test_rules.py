"""One test per rule of shared/rules/snap.md (N1–N9), named after its id, on explicit positions.

Times are plain numbers (ms): flips open 900 ms after a reveal, the turn timer runs 3000 ms, a
race is decided 250 ms after its first call, the tie window is 20 ms, late calls 600 ms.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from parlour.core import Decide, IllegalAction, NotYourTurn
from parlour.core.rng import derive_rng
from parlour.games.snap import (
    DECK,
    FLIP,
    SNAP,
    TIMEOUT,
    SnapOptions,
    State,
    apply,
    card,
    claim_set,
    dead_position,
    deadline,
    legal_actions,
    name,
    new_state,
    outcome,
    race,
    snap_valid,
    to_act,
    view,
)
from parlour.games.snap.cards import deal, shuffled_deck
from tests.games.snap.helpers import (
    NO_DELAY,
    call,
    flip,
    last_event,
    pile,
    position,
    step,
    stock,
    timeout,
    tops,
    verdicts,
)

# --------------------------------------------------------------------------------------------
# N1 Deck


def test_N1_deck_has_52_cards_thirteen_ranks_four_suits_no_jokers() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    ranks = Counter(name(c)[:-1] for c in DECK)
    suits = Counter(name(c)[-1] for c in DECK)
    assert ranks == {r: 4 for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]}
    assert suits == {s: 13 for s in "CDHS"}
    assert [card(name(c)) for c in DECK] == list(DECK)


@pytest.mark.parametrize("players", [2, 5, 12])
def test_N1_every_game_deals_the_whole_deck(players: int) -> None:
    state = new_state(SnapOptions(players), 3)
    assert sorted(c for s in state.stocks for c in s) == list(DECK)


# --------------------------------------------------------------------------------------------
# N2 Deal


@pytest.mark.parametrize("players", range(2, 13))
def test_N2_first_52_mod_n_seats_after_the_dealer_get_one_more(players: int) -> None:
    for seed in range(6):
        state = new_state(SnapOptions(players), seed)
        extra = {(state.dealer + 1 + i) % players for i in range(52 % players)}
        for seat in range(players):
            assert len(state.stocks[seat]) == 52 // players + (seat in extra)


def test_N2_cards_are_dealt_one_at_a_time_clockwise_onto_the_stock() -> None:
    # 10 cards, dealer 1 of 3: seat 2 gets cards 0, 3, 6, 9 (9 last, so on top), seat 0 gets
    # 1, 4, 7 and seat 1 (the dealer) 2, 5, 8.
    stocks = deal(tuple(range(10)), dealer=1, players=3)
    assert stocks == ((7, 4, 1), (8, 5, 2), (9, 6, 3, 0))
    # new_state deals the seeded shuffle exactly so
    state = new_state(SnapOptions(4), 11)
    deck = shuffled_deck(derive_rng(11, "snap", "deal"))
    assert state.stocks == deal(deck, state.dealer, 4)


def test_N2_random_dealer_from_the_seed_and_empty_piles_and_pot() -> None:
    dealers = {new_state(SnapOptions(4), seed).dealer for seed in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert new_state(None, 5) == new_state(None, 5)
    assert new_state(None, 5).stocks != new_state(None, 6).stocks
    state = new_state(SnapOptions(6), 8)
    assert state.piles == ((),) * 6 and state.pot == () and state.seq == 0


# --------------------------------------------------------------------------------------------
# N3 Turns


def test_N3_left_of_dealer_flips_first_then_clockwise() -> None:
    state = new_state(SnapOptions(5), 21)
    first = (state.dealer + 1) % 5
    seen = []
    for _ in range(7):
        seen.append(state.turn)
        state = flip(state)
    assert seen == [(first + i) % 5 for i in range(7)]


def test_N3_eliminated_seats_are_skipped() -> None:
    state = position(["2C 3C", "", "2D 3D", "4H 2H"], turn=0)
    assert state.out[1] is not None and to_act(state) == (0, 2, 3)
    order = []
    for _ in range(4):
        order.append(state.turn)
        state = flip(state)
    assert order == [0, 2, 3, 0]


def test_N3_top_stock_card_goes_face_up_for_every_seat_at_once() -> None:
    state = position(["9C 2C", "3D 4D", "2H 5H"], turn=1)
    state = flip(state, now=0)
    assert stock(state, 1) == "4D" and pile(state, 1) == "3D"
    assert state.seq == 1 and state.reveal_ms == 0 and state.last_flipper == 1
    seen = {str(view(state, s)["seats"][1]["top"]) for s in (0, 1, 2, None)}
    assert seen == {"3D"}
    assert view(state, 0)["log"][0] == {
        "type": "flip",
        "seq": 1,
        "seat": 1,
        "card": "3D",
        "at_ms": 0,
        "auto": False,
        "recycled": False,
    }


def test_N3_empty_stock_recycles_the_face_up_pile_as_a_unit() -> None:
    state = position(["", "3D 2D"], piles=["9C 8C 2C", "5S"], turn=0)
    state = flip(state)
    # turned over: the bottom card (9C) is now the top of the stock, and is flipped
    assert pile(state, 0) == "9C" and stock(state, 0) == "8C 2C"
    assert last_event(state)[-1] is True  # logged as recycled


def test_N3_shuffle_on_recycle_option_reorders_from_the_seed() -> None:
    cards = "9C 8C 7C 6C 5C 4C 3C 2C"
    orders = set()
    for seed in range(6):
        state = position(
            ["", "3D 4D"],
            piles=[cards, "KS"],
            turn=0,
            options=SnapOptions(2, shuffle_on_recycle=True),
            seed=seed,
        )
        after = flip(state)
        again = flip(state)
        assert after == again  # deterministic
        held = pile(after, 0).split() + stock(after, 0).split()
        assert sorted(held) == sorted(cards.split())
        orders.add(pile(after, 0) + " " + stock(after, 0))
    assert len(orders) > 1 and cards not in orders


DELAYED = SnapOptions(3)
"""The default options: flipped cards are revealed after 150 to 350 ms (N3)."""


def test_N3_the_card_appears_after_a_random_delay_drawn_from_the_seed() -> None:
    delays = []
    for seed in range(40):
        state = position(["9C 2C", "3D 4D", "2H 5H"], turn=1, options=DELAYED, seed=seed)
        flipped = step(state, 1, FLIP, 1000)
        assert flipped.flipping is not None and flipped.piles == state.piles
        assert flipped.seq == 0 and flipped.stocks == state.stocks  # still on the stock
        due = deadline(flipped)
        assert due is not None and 1150 <= due <= 1350
        with pytest.raises(IllegalAction, match="nothing is due"):
            apply(flipped, None, TIMEOUT, due - 1)
        shown = timeout(flipped)
        assert pile(shown, 1) == "3D" and shown.seq == 1 and shown.flipping is None
        assert shown.reveal_ms == due and last_event(shown)[:5] == ("flip", 1, 1, card("3D"), due)
        assert shown.flip_open_ms == due + 900
        again = timeout(step(state, 1, FLIP, 1000))
        assert again == shown  # the same seed draws the same delay
        delays.append(due - 1000)
    assert len(set(delays)) > 10 and min(delays) >= 150 and max(delays) <= 350


def test_N3_nobody_sees_the_flipped_card_before_the_reveal() -> None:
    state = position(["9C 2C", "3D 4D", "2H 5H"], turn=1, options=DELAYED, seed=4)
    flipped = step(state, 1, FLIP, 1000)
    for seat in (None, 0, 1, 2):
        before, after = view(state, seat), view(flipped, seat)
        assert after["flipping"] == 1 and before["flipping"] is None
        assert after["deadline_ms"] is None  # not even when the card will appear
        assert after["seats"] == before["seats"] and after["log"] == before["log"]
        assert '"3D"' not in json.dumps(after)
        assert after["legal_actions"] == (["snap"] if seat is not None else [])
    shown = timeout(flipped)
    assert all(view(shown, s)["seats"][1]["top"] == "3D" for s in (None, 0, 1, 2))


def test_N3_the_turn_timer_flip_is_revealed_after_the_delay_too() -> None:
    state = position(["9C 2C", "3D 2D"], turn=0, options=SnapOptions(2), seed=7)
    state = timeout(state)  # the turn timer flips at 3000
    assert state.flipping is not None and state.flipping[0] == 3000 and state.flipping[2]
    state = timeout(state)
    assert state.reveal_ms > 3000 and last_event(state)[5] is True and pile(state, 0) == "9C"


def test_N3_calls_during_the_delay_are_judged_on_the_cards_showing() -> None:
    state = position(["7C 2C", "4D 5D", "9H 2D"], piles=["", "", "7H"], turn=0, options=DELAYED)
    state = flip(state, now=0)  # 7C meets 7H; nobody calls
    state = timeout(state)  # flips open
    t = state.clock_ms
    state = step(state, 1, FLIP, t)  # seat 1 flips; its card is on its way
    state = call(state, 2, t + 50)  # the sevens still show: a valid call
    assert state.race and deadline(state) == t + 300
    assert state.flipping is not None and state.flipping[1] < t + 300
    state = timeout(state)  # the race is decided first; the reveal waited for it
    assert last_event(state)[:3] == ("win", 1, 2) and state.flipping == (t, t + 300, False)
    state = timeout(state)
    assert state.reveal_ms == t + 300 and pile(state, 1) == "4D" and state.seq == 2


def test_N3_a_flipper_who_goes_out_during_the_delay_flips_nothing() -> None:
    state = position(["2C", "3D 2D", "5H 6H"], turn=0, options=DELAYED, seed=1)
    state = flip(state, now=0)  # seat 0 flips its last card, 2C
    state = flip(state)  # seat 1: 3D
    state = flip(state)  # seat 2: 5H
    state = timeout(state)  # flips open
    state = step(state, 0, FLIP, state.clock_ms)  # seat 0 will recycle 2C and flip it...
    state = call(state, 0, state.clock_ms + 10)  # ...but gives it away for a false call
    assert state.out[0] is not None and state.flipping is None and state.turn == 1
    assert deadline(state) == state.clock_ms + 3000  # seat 1's turn timer, from now


def test_N3_flips_wait_for_the_minimum_interval() -> None:
    state = position(["2C 3C 4C", "2D 3D 4D"], turn=0)
    state = flip(state, now=1000)
    assert state.flip_open_ms == 1900 and deadline(state) == 1900
    assert legal_actions(state, 1) == [SNAP]
    with pytest.raises(IllegalAction, match="too early to flip: flips open at 1900 ms"):
        apply(state, 1, FLIP, 1500)
    opened = timeout(state)  # at 1900: only the clock moves
    assert opened.clock_ms == 1900 and opened.piles == state.piles
    assert legal_actions(opened, 1) == [FLIP, SNAP]
    assert timeout(step(opened, 1, FLIP, 1950)).seq == 2


def test_N3_turn_timer_flips_for_the_seat_to_act() -> None:
    state = position(["2C 3C 4C", "2D 3D 4D"], turn=0)
    assert deadline(state) == 3000  # the first flip: 3000 ms from the start
    state = timeout(timeout(state))  # the turn timer flips; the card is revealed
    assert state.seq == 1 and pile(state, 0) == "2C" and last_event(state)[5] is True
    state = timeout(timeout(timeout(state)))  # flips open at 3900, the timer runs out at 6900
    assert state.reveal_ms == 6900 and pile(state, 1) == "2D"


def test_N3_only_the_seat_to_act_flips_and_not_during_a_race() -> None:
    state = position(["7C 3C 4C", "2D 3D 4D", "6H"], piles=["", "", "7H"], turn=0)
    with pytest.raises(NotYourTurn, match="seat 0's turn"):
        apply(state, 1, FLIP, 0)
    state = call(flip(state, now=0), 2, 800)  # the race is decided at 1050, after 900
    assert state.race and deadline(state) == 1050
    assert legal_actions(state, 1) == [SNAP]
    with pytest.raises(IllegalAction, match="a call is being decided"):
        apply(state, 1, FLIP, 1000)


# --------------------------------------------------------------------------------------------
# N4 Match


@pytest.mark.parametrize(
    ("match", "a", "b", "matches"),
    [
        ("rank", "7H", "7S", True),
        ("rank", "7H", "8H", False),
        ("rank_and_colour", "7H", "7D", True),
        ("rank_and_colour", "7C", "7S", True),
        ("rank_and_colour", "7H", "7S", False),
        ("rank_and_colour", "10D", "JD", False),
    ],
)
def test_N4_cards_match_by_rank_or_rank_and_colour(
    match: str, a: str, b: str, matches: bool
) -> None:
    state = position(["2C 3C", "2S 3S"], piles=[a, b], options=SnapOptions(2, match=match))
    assert snap_valid(state) is matches


# --------------------------------------------------------------------------------------------
# N5 A valid snap and the claim set


@pytest.mark.parametrize(
    ("piles", "pot", "claim", "pot_in"),
    [
        (["7C", "7D", "9H", ""], "", (0, 1), False),
        (["7C", "9D", "7H", "7S"], "", (0, 2, 3), False),
        (["7C", "7D", "9H", "9S"], "", (0, 1, 2, 3), False),
        (["7C", "9D", "8H", ""], "", (), False),
        (["2C 7C", "9D", "8H 9H", ""], "KS", (1, 2), False),
        (["7C", "9D", "8H", ""], "KD 9S", (1,), True),
        (["7C", "9D", "9H", ""], "2D 9S", (1, 2), True),
        (["", "", "", ""], "9S", (), False),
        (["7C 9C", "", "", ""], "9S 7D", (), False),
    ],
)
def test_N5_valid_snap_and_claim_set(
    piles: list[str], pot: str, claim: tuple[int, ...], pot_in: bool
) -> None:
    state = position(["3C", "3D", "3H", "3S"], piles=piles, pot=pot)
    assert claim_set(state) == (claim, pot_in)
    assert snap_valid(state) is bool(claim)


# --------------------------------------------------------------------------------------------
# N6 Calling


def claim_position(**kwargs: object) -> object:
    # Seat 2 is about to flip 7C onto KD: tops 7H (seat 1), 7C (seat 2), 7S (seat 3), Pot top 7D.
    return position(
        ["2C 3C", "4D 5D", "7C 8H", "4S 10S"],
        piles=["", "JC 7H", "KD", "QS 7S"],
        pot="AH 7D",
        turn=2,
        **kwargs,  # type: ignore[arg-type]
    )


def test_N6_the_winner_takes_the_claim_set_under_its_stock_pot_first() -> None:
    state = flip(claim_position(), now=0)  # type: ignore[arg-type]
    assert claim_set(state) == ((1, 2, 3), True)
    state = call(state, 1, 350)  # credited 350 ms
    state = call(state, 0, 360, rt=300)  # arrives later, reacted faster
    assert deadline(state) == 600  # the first call + 250 ms
    state = timeout(state)
    # the Pot, then the piles in seat order from the last flipper (2, 3, 1), each turned over
    assert stock(state, 0) == "2C 3C AH 7D KD 7C QS 7S JC 7H"
    assert state.pot == () and tops(state) == [None, None, None, None]
    assert last_event(state) == ("win", 1, 0, (1, 2, 3), 2, 8, ((0, 300), (1, 350)), 600)


def test_N6_a_faster_call_wins() -> None:
    state = flip(claim_position(), now=0)  # type: ignore[arg-type]
    state = call(state, 3, 380)
    state = call(state, 1, 401)
    state = timeout(state)
    assert last_event(state)[2] == 3 and len(state.stocks[3]) == 2 + 8


@pytest.mark.parametrize(("second", "tie"), [(300, True), (315, True), (320, True), (321, False)])
def test_N6_calls_within_the_tie_window_tie(second: int, tie: bool) -> None:
    state = flip(claim_position(), now=0)  # type: ignore[arg-type]
    state = call(state, 0, 300)
    state = call(state, 1, 330, rt=second)
    state = timeout(state)
    assert last_event(state)[0] == ("tie" if tie else "win")


def test_N6_a_tie_moves_the_claimed_piles_onto_the_pot_and_nobody_gains() -> None:
    before = flip(claim_position(), now=0)  # type: ignore[arg-type]
    state = call(call(before, 0, 300), 1, 310)
    state = timeout(state)
    assert state.stocks == before.stocks
    assert " ".join(name(c) for c in state.pot) == "AH 7D KD 7C QS 7S JC 7H"  # a 7 on top
    assert last_event(state)[:5] == ("tie", 1, (0, 1), (1, 2, 3), 8)
    assert state.seen == frozenset()


def test_N6_a_tie_on_one_pile_and_the_pot_adds_the_pile_to_the_pot() -> None:
    state = position(["2C 3C", "4D 5D", "7C 8H"], piles=["", "JC", "KD"], pot="AH 7D", turn=2)
    state = flip(state, now=0)
    assert claim_set(state) == ((2,), True)
    won = timeout(call(state, 0, 400))
    assert stock(won, 0) == "2C 3C AH 7D KD 7C" and won.pot == ()
    tied = timeout(call(call(state, 0, 400), 1, 405))
    assert " ".join(name(c) for c in tied.pot) == "AH 7D KD 7C" and tied.stocks == state.stocks


def test_N6_index_card_variant_never_ties() -> None:
    options = SnapOptions(4, index_card=True, **NO_DELAY)
    winners = set()
    for seed in range(20):
        state = flip(claim_position(options=options, seed=seed), now=0)  # type: ignore[arg-type]
        state = timeout(call(call(state, 0, 300), 1, 300))  # exactly equal: a seeded draw
        event = last_event(state)
        assert event[0] == "win"
        winners.add(event[2])
        again = flip(claim_position(options=options, seed=seed), now=0)  # type: ignore[arg-type]
        assert timeout(call(call(again, 0, 300), 1, 300)) == state
    assert winners == {0, 1}
    state = flip(claim_position(options=options), now=0)  # type: ignore[arg-type]
    state = timeout(call(call(state, 0, 300), 1, 330, rt=301))
    assert last_event(state)[0] == "win" and last_event(state)[2] == 0


def test_N6_play_continues_left_of_the_last_flipper() -> None:
    state = flip(claim_position(), now=0)  # type: ignore[arg-type]
    state = timeout(call(state, 0, 300))
    assert state.turn == 3
    # the seat left of the last flipper went out in the claim: the next seat still in
    gone = position(["2C 4C", "4D 5D", "7C 8H", ""], piles=["", "JC 7H", "KD", "QS 7S"], turn=2)
    gone = timeout(call(flip(gone, now=0), 1, 300))
    assert gone.out[3] is not None and gone.turn == 0
    assert deadline(gone) == 900 and deadline(timeout(gone)) == 3900


def test_N6_late_calls_are_ignored_without_penalty() -> None:
    state = flip(claim_position(), now=0)  # type: ignore[arg-type]
    state = timeout(call(state, 0, 300))  # decided at 550
    assert state.decided_ms == 550
    state = timeout(state)  # flips open at 900
    stocks = state.stocks
    state = call(state, 1, 1150)  # 600 ms after the decision: late
    assert state.stocks == stocks and verdicts(state)[-1] == (1, "late")
    state = call(state, 3, 1151)  # 601 ms: a false call
    assert verdicts(state)[-1] == (3, "false") and stock(state, 3) == "10S"
    state = call(state, 0, 1160)  # the winner pressing again: ignored
    assert verdicts(state)[-1] == (0, "repeat")


def test_N6_any_seat_still_in_may_call_at_any_time() -> None:
    state = position(["2C 3C", "", "2D 3D", "4H 2H"], turn=0)
    assert to_act(state) == (0, 2, 3)
    assert [legal_actions(state, s) for s in range(4)] == [[FLIP, SNAP], [], [SNAP], [SNAP]]
    with pytest.raises(NotYourTurn, match="seat 1 is out"):
        apply(state, 1, SNAP, 0)


# --------------------------------------------------------------------------------------------
# N7 False calls


def false_call_position() -> object:
    # Seat 3 is out; seat 0 flips 2C first: no snap.
    return flip(position(["2C 3C", "4D 5D", "6H 2D", ""], turn=0), now=0)


def test_N7_a_false_call_gives_the_top_stock_card_to_the_last_flipper() -> None:
    state = call(false_call_position(), 2, 500)  # type: ignore[arg-type]
    assert stock(state, 2) == "2D" and stock(state, 0) == "3C 6H"  # under the receiver's stock
    assert last_event(state) == ("call", 1, 2, 500, 500, "false", False, 0, False)
    shown = view(state, 1)["log"][-1]
    assert shown["to"] == 0 and "card" not in shown  # the card given stays face down


def test_N7_the_last_flipper_gives_to_the_previous_seat_still_in() -> None:
    state = call(false_call_position(), 0, 500)  # type: ignore[arg-type]
    # counter-clockwise from seat 0: seat 3 is out, so seat 2 receives
    assert stock(state, 0) == "" and pile(state, 0) == "2C"
    assert stock(state, 2) == "6H 2D 3C"


def test_N7_the_caller_recycles_first_if_needed() -> None:
    state = position(["2C 3C", "4D 9D", ""], piles=["", "", "9H 6H 8H"], turn=0)
    state = call(flip(state, now=0), 2, 500)
    assert stock(state, 2) == "6H 8H" and pile(state, 2) == "" and stock(state, 0) == "3C 9H"
    assert last_event(state)[-1] is True


def test_N7_at_most_one_penalty_per_seat_per_flip() -> None:
    state = call(false_call_position(), 2, 500)  # type: ignore[arg-type]
    stocks = state.stocks
    state = call(state, 2, 600)
    assert state.stocks == stocks and verdicts(state) == [(2, "false"), (2, "repeat")]
    state = flip(state)  # seat 1 flips 4D at 900
    state = call(state, 2, 1400)
    assert verdicts(state) == [(2, "false")] and stock(state, 1) == "5D 2D"


def test_N7_calls_before_the_first_flip_are_ignored() -> None:
    state = position(["2C 3C", "4D 5D", "6H 2D"], piles=["", "9C", "9D"], turn=0)
    after = call(state, 1, 100)
    assert after.stocks == state.stocks and not after.race
    assert verdicts(after) == [(1, "early")]


def test_N7_a_false_call_can_put_the_caller_out() -> None:
    state = position(["2C 3C", "4D 2D", ""], piles=["", "", "9H"], turn=0)
    state = call(flip(state, now=0), 2, 500)
    assert state.out == (None, None, 1) and stock(state, 0) == "3C 9H"
    assert last_event(state) == ("out", 1, (2,), 500)


def test_N7_a_false_callers_recycle_can_void_a_pending_race() -> None:
    state = position(
        ["7C 2C", "", "5S 6S 2S"],
        piles=["", "9D 7H", ""],
        turn=0,
        seq=1,
        last_flipper=2,
        reveal_ms=0,
    )
    state = call(flip(state), 2, 1200)  # seat 0 flips 7C at 900; a valid call opens the race
    state = call(state, 1, 1220, rt=50)  # anticipation, no snap before the reveal: false
    assert stock(state, 1) == "7H" and pile(state, 1) == "" and not snap_valid(state)
    assert stock(state, 0) == "2C 9D"
    state = timeout(state)
    assert last_event(state) == ("void", 2, ((2, 300),), 1450)
    assert stock(state, 2) == "5S 6S 2S" and state.decided_ms == 1450


# --------------------------------------------------------------------------------------------
# N8 Elimination and end


def test_N8_a_seat_with_no_cards_is_out_for_good() -> None:
    state = position(["7C 4C", "", "4S 9D"], piles=["", "7H", ""], turn=0)
    state = timeout(call(flip(state, now=0), 0, 300))
    assert state.out == (None, 1, None) and to_act(state) == (0, 2)
    assert legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn, match="out of the game"):
        apply(state, 1, SNAP, 600)


def test_N8_the_last_seat_holding_cards_wins_and_pot_cards_are_ignored() -> None:
    state = position(["7C 4C", "", ""], piles=["", "7H", "4S"], pot="KD", turn=0)
    state = timeout(call(flip(state, now=0), 0, 300))  # seat 1 goes out
    assert state.turn == 2
    state = flip(state)  # seat 2 recycles its 4S and flips it again at 900
    state = flip(state)  # seat 0 flips 4C at 1800
    state = timeout(call(state, 0, 2100))  # seat 2 goes out
    assert state.over == "last_seat" and state.pot == (card("KD"),)
    result = outcome(state)
    assert result is not None
    assert result["ranks"] == [1, 3, 2] and result["winners"] == [0]
    assert result["cards_held"] == [4, 0, 0] and result["went_out"] == [None, 1, 2]
    assert deadline(state) is None and to_act(state) == () and legal_actions(state, 0) == []


def test_N8_seats_going_out_together_share_a_rank() -> None:
    state = position(["2C 3C", "", "9S"], piles=["", "9H", ""], turn=2)
    state = timeout(call(call(flip(state, now=0), 0, 300), 1, 310))  # a tie
    assert state.over == "last_seat"
    result = outcome(state)
    assert result is not None and result["ranks"] == [1, 2, 2]


def test_N8_dead_position_ends_the_game_ranked_by_cards_held() -> None:
    state = position(["2C 3C", "2D 4D"], turn=0)
    assert state.over is None
    state = call(flip(state, now=0), 1, 500)  # seat 1 gives away its last 2
    assert state.over == "dead_position" and dead_position(state)
    result = outcome(state)
    assert result is not None and result["cards_held"] == [3, 1] and result["ranks"] == [1, 2]


@pytest.mark.parametrize(
    ("stocks", "pot", "dead"),
    [
        (["2C", "3D"], "", True),
        (["2C", "3D"], "2H", False),
        (["2C", "3D"], "5H", True),
        (["2C 2D", "3D"], "", True),
        (["2C", "3D 2D"], "", False),
        (["2C", "3D"], "2H 5S", True),
    ],
)
def test_N8_dead_position_detection(stocks: list[str], pot: str, dead: bool) -> None:
    state = position(stocks, pot=pot)
    assert dead_position(state) is dead
    assert (state.over == "dead_position") is dead


def test_N8_dead_position_by_rank_and_colour() -> None:
    options = SnapOptions(2, match="rank_and_colour")
    assert position(["7H 2C", "7S 3D"], options=options).over == "dead_position"
    assert position(["7H 2C", "7D 3D"], options=options).over is None


def _flips_until_over(state: State, flips: int) -> tuple[State, list[tuple[object, ...]]]:
    # Let the turn timer flip (nobody calls) until the game ends or ``flips`` more flips.
    arrangements = []
    stop = state.seq + flips
    while state.over is None and state.seq < stop:
        seq = state.seq
        state = timeout(state)
        if state.seq > seq:
            arrangements.append((state.turn, state.stocks, state.piles))
    return state, arrangements


def test_N8_a_repeated_arrangement_with_no_snap_in_the_cycle_ends_the_game() -> None:
    # The two fives are never face up together: flips 2 to 7 repeat with no snap in them.
    state = position(["5H 7C 8C", "9D 5S JD"], turn=0)
    assert not dead_position(state)
    state, arrangements = _flips_until_over(state, 20)
    assert state.over == "loop" and state.seq == 8
    assert arrangements[7] == arrangements[1] and len(set(arrangements[:7])) == 7
    result = outcome(state)
    assert result is not None and result["ranks"] == [1, 1]


def test_N8_a_cycle_that_contains_a_missed_snap_is_not_a_loop() -> None:
    state = position(["5H", "5S 9C"], turn=0)
    state, arrangements = _flips_until_over(state, 18)
    # flip 6 repeats flip 2 exactly, and flip 2 showed two fives that nobody called
    assert arrangements[5] == arrangements[1] and snap_valid_tops(arrangements[1])
    assert state.over is None and state.seq == 18
    state = timeout(call(state, 1, state.clock_ms + 300))  # flip 18 shows 5H and 5S again
    assert ("win", 18, 1) in [e[:3] for e in state.events(since_flip=True)]


def test_N8_no_loop_rule_with_shuffle_on_recycle() -> None:
    options = SnapOptions(2, shuffle_on_recycle=True)
    state = position(["5H 7C 8C", "9D 5S JD"], turn=0, options=options, seed=3)
    state, arrangements = _flips_until_over(state, 2000)
    assert len(set(arrangements)) < len(arrangements)  # arrangements repeated...
    assert state.over == "flip_cap"  # ...but only the cap ended the game


def snap_valid_tops(arrangement: tuple[object, ...]) -> bool:
    piles = arrangement[2]
    assert isinstance(piles, tuple)
    ranks = [name(p[-1])[:-1] for p in piles if p]
    return len(ranks) != len(set(ranks))


def test_N8_a_snap_showing_or_a_capture_clears_the_arrangement_history() -> None:
    state = flip(position(["2C 3C", "4D 3D", "2H 8H"], turn=0), now=0)
    assert len(state.seen) == 1
    state = flip(flip(state))  # 4D, then 2H: a snap with nobody calling yet
    assert snap_valid(state) and state.seen == frozenset()
    state = timeout(call(state, 0, state.clock_ms + 300))
    assert last_event(state)[0] == "win" and state.seen == frozenset()
    assert len(flip(state).seen) == 1  # 3C, 4D: no snap


def test_N8_hard_cap_after_1000_flips_ranked_by_cards_held() -> None:
    state = position(["2C 3C 4C", "2D 3D"], turn=0, seq=999, last_flipper=1, reveal_ms=50_000)
    state = flip(state)
    assert state.over == "flip_cap" and state.seq == 1000
    result = outcome(state)
    assert result is not None and result["ranks"] == [1, 2] and result["flips"] == 1000


# --------------------------------------------------------------------------------------------
# N9 Who was first


def test_N9_credited_reaction_time_is_reported_or_measured_from_the_reveal() -> None:
    state = flip(claim_position(), now=1000)  # type: ignore[arg-type]
    state = call(state, 1, 1450)
    state = call(state, 3, 1500, rt=120)
    assert state.race == ((1, 450, 1450), (3, 120, 1500))


def test_N9_races_are_decided_on_reaction_time_not_arrival() -> None:
    state = flip(claim_position(), now=0)  # type: ignore[arg-type]
    state = call(state, 1, 300)
    state = call(state, 2, 549, rt=270)  # a slow link: arrives 249 ms after the first call
    assert last_event(timeout(state))[:3] == ("win", 1, 2)


def test_N9_the_decision_waits_for_the_window_after_the_first_call() -> None:
    state = call(flip(claim_position(), now=0), 1, 400)  # type: ignore[arg-type]
    assert deadline(state) == 650
    with pytest.raises(IllegalAction, match="nothing is due before 650 ms"):
        apply(state, None, TIMEOUT, 649)
    state = call(state, 0, 650, rt=350)  # at the deadline: still in the race
    with pytest.raises(IllegalAction, match="the timeout due at 650 ms comes before"):
        apply(state, 3, SNAP, 651)
    assert last_event(timeout(state))[:3] == ("win", 1, 0)


def test_N9_the_decision_window_is_an_option() -> None:
    # revealed at once (the options' reveal delay would else be drawn from the seed)
    options = SnapOptions(4, decision_window_ms=80, **NO_DELAY)
    state = flip(claim_position(options=options), now=0)  # type: ignore[arg-type]
    state = call(state, 1, 400)
    assert deadline(state) == 480
    assert deadline(call(state, 0, 470)) == 480  # later calls do not move it


def test_N9_anticipation_on_the_first_reveal_counts_as_before_the_first_flip() -> None:
    state = position(["7C 2C", "4D 5D", "6H 2D"], piles=["", "", "7H"], turn=0)
    state = flip(state, now=1000)  # 7C meets 7H
    assert verdicts(call(state, 1, 1099)) == [(1, "early")]  # 99 ms: ignored
    assert verdicts(call(state, 1, 1100)) == [(1, "race")]


def test_N9_anticipation_is_judged_on_the_state_before_the_reveal() -> None:
    # no snap before the reveal: a call under 100 ms is a false call, from 100 ms a valid one
    state = position(
        ["7C 2S", "4D 5D", "9H 2D"],
        piles=["2C", "", "7H"],
        turn=0,
        seq=1,
        last_flipper=2,
        reveal_ms=0,
    )
    state = flip(state)  # seat 0 flips 7C at 900: a snap with 7H
    assert not state.prev_valid and snap_valid(state)
    assert verdicts(call(state, 1, 999)) == [(1, "false")]
    assert verdicts(call(state, 1, 1000)) == [(1, "race")]
    assert verdicts(call(state, 1, 1700, rt=99)) == [(1, "false")]
    # a snap everyone missed, still showing after the next reveal: anticipation joins the race
    state = flip(state)  # seat 1 flips 4D at 1800: 7C and 7H still match
    assert state.prev_valid and snap_valid(state)
    state = call(state, 2, 1850)  # 50 ms
    state = call(state, 0, 2100)  # 300 ms, at the decision time
    assert last_event(timeout(state))[:3] == ("win", 3, 2)


def test_N9_a_call_on_a_missed_snap_the_reveal_covered_is_ignored_without_penalty() -> None:
    state = position(["7C 2S", "4D 5D", "9H 2D"], piles=["", "", "7H"], turn=0)
    state = flip(state, now=0)  # 7C meets 7H; nobody calls
    state = flip(state)  # seat 1 flips 4D at 900
    state = flip(state)  # seat 2 flips 9H onto 7H at 1800
    assert state.prev_valid and not snap_valid(state)
    after = call(state, 0, 1850)  # 50 ms: a call on the arrangement before, valid then
    assert verdicts(after) == [(0, "stale")]
    assert after.stocks == state.stocks and after.piles == state.piles and not after.race
    assert view(after, 1)["log"][-1]["verdict"] == "stale"
    assert verdicts(call(after, 0, 1900)) == [(0, "stale"), (0, "false")]  # 100 ms: judged now


def test_N9_the_referee_may_decide_a_race_before_its_deadline() -> None:
    state = call(flip(claim_position(), now=0), 1, 400)  # type: ignore[arg-type]
    pending = race(state)
    assert pending is not None and pending.reveal_ms == 0
    assert [(e.seat, e.rt_ms) for e in pending.entries] == [(1, 400)]
    assert pending.open_seats == (0, 2, 3) and pending.horizon_ms == 420  # rt + tie window
    decided = step(state, None, Decide(), 430)  # before the deadline at 650
    assert last_event(decided)[:3] == ("win", 1, 1) and race(decided) is None
    with pytest.raises(IllegalAction, match="no call waiting"):
        apply(decided, None, Decide(), 430)
    with pytest.raises(IllegalAction, match="due to be decided at 650 ms"):
        apply(state, None, Decide(), 651)
    with pytest.raises(IllegalAction, match="applied by the referee"):
        apply(state, 2, Decide(), 430)


def test_N9_an_early_decision_equals_the_timeout_but_for_its_time() -> None:
    state = call(call(flip(claim_position(), now=0), 1, 400), 2, 410, rt=405)  # type: ignore[arg-type]
    early, late = apply(state, None, Decide(), 411), apply(state, None, TIMEOUT, 650)
    assert last_event(early)[:-1] == last_event(late)[:-1]  # a tie: same seats, same claim
    assert early.pot == late.pot and early.stocks == late.stocks
