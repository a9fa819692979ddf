"""A whole hand as a state: the auction, trump, passing, meld, play, scoring, views and JSON.

RULES.md §1.2–1.3, §2.2–2.3, §2.5, §3.2, §4, §8 and §9.6. Hypothesis plays random legal
hands in every variant under random house rules and checks what must hold in any hand.
"""

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.engine.cards import HEARTS, SPADES, Card, cards_from_counts, codes, parse_cards
from scorepad.engine.game import (
    HandState,
    IllegalAction,
    apply,
    deal,
    deal_hands,
    decision,
    from_json,
    legal_actions,
    next_hand,
    seat_view,
    to_act,
    to_json,
)
from scorepad.engine.meld import meld_points
from scorepad.engine.simulate import GameStopped, play_hand
from scorepad.engine.variants import BID_STEPS_1_THEN_5, FOLLOW, HEAD, VARIANTS, get_variant
from scorepad.engine.view import BID, PASS, PLAY, TRUMP, SeatView, build_seat_view

# -- helpers ------------------------------------------------------------------------------------


def start(variant_id: str, dealer: int = 0, seed: int = 1, **rules: Any) -> HandState:
    variant = get_variant(variant_id)
    return deal(variant, variant.settings(rules), dealer, random.Random(seed))


def start_with(variant_id: str, fixed: dict[int, str], dealer: int = 0, **rules: Any) -> HandState:
    """A deal where the seats in ``fixed`` hold those cards and the rest of the deck fills the others."""
    variant = get_variant(variant_id)
    rest = Counter(variant.deck())
    hands: dict[int, list[Card]] = {}
    for seat, text in fixed.items():
        hands[seat] = parse_cards(text)
        rest.subtract(hands[seat])
    remaining = sorted(rest.elements())
    for seat in range(variant.seats):
        if seat not in hands:
            hands[seat], remaining = remaining[: variant.hand_size], remaining[variant.hand_size :]
    ordered = [hands[seat] for seat in range(variant.seats)]
    return deal_hands(variant, variant.settings(rules), dealer, ordered)


def push_all(state: HandState, *actions: Any) -> HandState:
    for action in actions:
        state.push(action)
    return state


def random_action(state: HandState, rng: random.Random) -> Any:
    legal = legal_actions(state)
    if state.decision == BID:
        return None if None in legal and rng.random() < 0.6 else legal[-1]
    if state.decision == PASS:
        return tuple(rng.sample(legal, state.pass_count))
    return rng.choice(legal)


def card(code: str) -> Card:
    return parse_cards(code)[0]


HOUSE_RULES = st.fixed_dictionaries(
    {},
    optional={
        "play_mode": st.sampled_from([HEAD, FOLLOW]),
        "pass_is_final": st.booleans(),
        "single_round_bidding": st.booleans(),
        "all_pass": st.sampled_from(["dealer_forced", "redeal"]),
        "head_partner_exempt": st.booleans(),
        "must_overtrump": st.booleans(),
        "must_trump_when_void": st.booleans(),
        "bidder_must_lead_trump": st.booleans(),
        "bid_increment": st.sampled_from([1, 5, 10, BID_STEPS_1_THEN_5]),
        "pass_cards": st.sampled_from([0, 3, 4]),
        "last_trick": st.sampled_from([0, 1, 10]),
        "trump_requires_marriage": st.booleans(),
        "rule_of_20": st.sampled_from([None, [20, 20]]),
        "bidders_short_meld_play_out": st.booleans(),
        "misdeal_nines": st.sampled_from(["off", "5+ nines", "5 nines and no ace"]),
        "bidder_may_concede": st.booleans(),
    },
)


# -- the auction --------------------------------------------------------------------------------


def test_bidding_starts_left_of_the_dealer():
    assert to_act(start("classic", dealer=2)) == 3
    assert decision(start("classic", dealer=2)) == BID


def test_forced_dealer_must_bid_the_minimum_when_everyone_else_passes():
    state = push_all(start("classic", dealer=0), None, None, None)
    assert legal_actions(state) == (20,)
    before = state.copy()
    with pytest.raises(IllegalAction, match="the dealer must bid 20"):
        state.push(None)
    with pytest.raises(IllegalAction, match="a bid is a whole number or a pass"):
        state.push("20")
    with pytest.raises(IllegalAction, match="the dealer must bid 20"):
        state.push(21)  # RULES §1.2: the minimum, not any higher bid
    assert state == before
    state.push(20)
    assert (state.bidder, state.bid, decision(state)) == (0, 20, TRUMP)


def test_a_pass_is_final_and_the_auction_ends_when_all_but_one_have_passed():
    state = push_all(start("classic", dealer=0), 20, None, 21, None)
    assert to_act(state) == 1
    state.push(22)
    assert to_act(state) == 3  # seat 2 passed and is out
    state.push(None)
    assert (state.bidder, state.bid, decision(state)) == (1, 22, TRUMP)


def test_without_final_passes_a_passed_seat_may_bid_again_until_three_pass_in_a_row():
    state = push_all(start("double-deck", dealer=0, pass_is_final=False), 50, None, 51, None, None)
    assert to_act(state) == 2
    push_all(state, 52, None, None)
    assert decision(state) == BID  # only two passes in a row since seat 2's bid
    state.push(None)
    assert (state.bidder, state.bid) == (2, 52)


def test_a_bid_must_beat_the_high_bid_by_the_increment():
    state = push_all(start("classic", dealer=0), 25)
    with pytest.raises(IllegalAction, match="at least 26"):
        state.push(25)
    state.push(30)  # jump bids are fine
    assert legal_actions(state) == (None, 31)


def test_six_handed_bids_go_in_tens_from_fifty():
    state = start("six-handed", dealer=0)
    assert legal_actions(state) == (None, 50)
    with pytest.raises(IllegalAction, match="off the bid increment"):
        state.push(55)
    state.push(60)
    assert legal_actions(state) == (None, 70)


def test_bids_go_up_by_one_below_sixty_then_by_five():
    state = push_all(start("double-deck", dealer=0, bid_increment=BID_STEPS_1_THEN_5), 59)
    assert legal_actions(state) == (None, 60)
    with pytest.raises(IllegalAction, match="off the bid increment"):
        state.push(61)
    state.push(60)
    assert legal_actions(state) == (None, 65)
    with pytest.raises(IllegalAction, match="at least 65"):
        state.push(64)


def test_single_round_bidding_gives_each_seat_one_call():
    state = push_all(start("classic", dealer=0, single_round_bidding=True), 20, None, 25, None)
    assert (state.bidder, state.bid, decision(state)) == (3, 25, TRUMP)


def test_all_pass_with_redeal_throws_the_hand_in_and_scores_nothing():
    state = start("classic", dealer=0, all_pass="redeal")
    push_all(state, None, None, None)
    assert legal_actions(state) == (None, 20)
    state.push(None)
    assert decision(state) is None
    assert state.result is not None
    assert (state.result.scores, state.result.played, state.bidder) == ((0, 0), False, None)


# -- trump, passing and meld --------------------------------------------------------------------


def test_trump_may_be_any_suit_without_the_marriage_rule():
    state = push_all(start("classic", dealer=3), 20, None, None, None)
    assert legal_actions(state) == (0, 1, 2, 3)


def test_a_trump_that_is_not_a_suit_is_refused_and_changes_nothing():
    state = push_all(start("classic", dealer=3), 20, None, None, None)
    before = state.copy()
    for answer in (4, 1.0, True, "H"):
        with pytest.raises(IllegalAction, match="cannot name trump"):
            state.push(answer)
    assert state == before


DD_NO_KINGS_OR_QUEENS = "AS AS AS AS TS TS TS TS AH AH AH AH TH TH TH TH AD AD AD AD"


def test_double_deck_bidder_without_a_marriage_forfeits_with_meld_counted_without_trump():
    state = start_with("double-deck", {1: DD_NO_KINGS_OR_QUEENS}, dealer=0)
    push_all(state, 50, None, None, None)
    assert decision(state) is None
    assert state.result is not None
    variant, settings = state.variant, state.settings
    no_trump = tuple(meld_points(hand, None, variant, settings) for hand in state.hands)
    assert state.trump is None
    assert state.meld == no_trump
    opponents = no_trump[0] + no_trump[2]
    assert state.result.scores == (opponents if opponents >= 20 else 0, -50)
    assert state.result.played is False


def test_trump_requiring_a_marriage_offers_only_suits_where_the_bidder_holds_king_and_queen():
    bidder = "KS QS AS AS AS AS TS TS TS TS AH AH AH AH TH TH TH TH AD AD"
    state = push_all(start_with("double-deck", {1: bidder}, dealer=0), 50, None, None, None)
    assert legal_actions(state) == (SPADES,)
    with pytest.raises(IllegalAction, match="no marriage"):
        state.push(HEARTS)


RULE_OF_20 = {
    1: "KS QS AS AS AS AS TS TS TS TS AH AH AH AH TH TH TH TH AD AD",  # royal marriage: 4
    3: "KS KS KS JS JS JS JS JH JH JH JH JD JD JD JD TD TD TD TD AD",  # nothing
}


def test_bidders_under_20_meld_forfeit_without_play():
    state = push_all(start_with("double-deck", RULE_OF_20, dealer=0), 50, None, None, None, SPADES)
    assert state.meld is not None
    assert state.meld[1] + state.meld[3] == 4
    assert decision(state) is None
    assert state.result is not None
    assert state.result.played is False
    assert state.result.scores[1] == -50


def test_bidders_short_meld_play_out_plays_the_hand_anyway():
    rules = {"bidders_short_meld_play_out": True}
    state = push_all(start_with("double-deck", RULE_OF_20, dealer=0, **rules), 50, None, None, None, SPADES)
    assert (decision(state), to_act(state)) == (PLAY, 1)


def test_classic_partner_passes_four_to_the_bidder_then_the_bidder_passes_four_back():
    state = push_all(start("classic", dealer=3), 20, None, None, None, HEARTS)
    assert (decision(state), to_act(state), state.pass_count) == (PASS, 2, 4)
    partner_cards = tuple(legal_actions(state)[:4])
    state.push(partner_cards)
    assert (decision(state), to_act(state)) == (PASS, 0)
    assert Counter(partner_cards) <= Counter(cards_from_counts(state.hands[0]))
    bidder_cards = tuple(legal_actions(state)[-4:])
    state.push(bidder_cards)
    assert (decision(state), to_act(state)) == (PLAY, 0)
    assert state.passes == [(2, 0, tuple(sorted(partner_cards))), (0, 2, tuple(sorted(bidder_cards)))]
    partner_view, bidder_view = seat_view(state, 2), seat_view(state, 0)
    assert (partner_view.passed, partner_view.received) == (
        tuple(sorted(partner_cards)),
        tuple(sorted(bidder_cards)),
    )
    assert (bidder_view.passed, bidder_view.received) == (
        tuple(sorted(bidder_cards)),
        tuple(sorted(partner_cards)),
    )
    assert sum(state.hands[0]) == sum(state.hands[2]) == 12


def test_passing_cards_not_held_is_refused_and_changes_nothing():
    state = push_all(start("classic", dealer=3), 20, None, None, None, HEARTS)
    before = state.copy()
    missing = next(c for c in range(24) if not state.hands[2][c])
    with pytest.raises(IllegalAction, match="the hand holds only 0"):
        state.push((missing, *legal_actions(state)[:3]))
    with pytest.raises(IllegalAction, match="pass exactly 4"):
        state.push(tuple(legal_actions(state)[:3]))
    assert state == before


def test_meld_is_hidden_from_views_until_it_is_shown():
    state = push_all(start("classic", dealer=3), 20, None, None, None, HEARTS)
    assert (seat_view(state, 1).meld, seat_view(state, 1).shown) == ((), ())
    push_all(state, tuple(legal_actions(state)[:4]))
    push_all(state, tuple(legal_actions(state)[:4]))
    view = seat_view(state, 1)
    assert view.meld == tuple(
        meld_points(hand, HEARTS, state.variant, state.settings) for hand in state.hands
    )
    assert len(view.shown) == 4


# -- play ---------------------------------------------------------------------------------------

# Seat 0 leads KD; seat 1 holds one diamond, the 9; seat 2 (seat 0's partner) holds AD QD 9D.
HEADING = {
    0: "KD KD TD TD JD JD AS AS TS TS KS KS",
    1: "9D QS QS JS JS 9S 9S AH AH TH TH KH",
    2: "AD AD QD QD 9D KH QH QH JH JH 9H 9H",
    3: "AC AC TC TC KC KC QC QC JC JC 9C 9C",
}


def heading_position(**rules: Any) -> HandState:
    state = start_with("classic", HEADING, dealer=3, pass_cards=0, **rules)
    return push_all(state, 20, None, None, None, SPADES, card("KD"), card("9D"))


def test_partner_winning_still_must_head():
    state = heading_position()
    assert codes(legal_actions(state)) == ["AD"]


def test_head_partner_exempt_lets_a_partner_play_under():
    state = heading_position(head_partner_exempt=True)
    assert codes(legal_actions(state)) == ["AD", "QD", "9D"]


def test_an_illegal_card_is_refused_with_the_reason_and_changes_nothing():
    state = heading_position()
    before = state.copy()
    with pytest.raises(IllegalAction, match="seat 2 cannot play QD: the rules require one of AD"):
        state.push(card("QD"))
    with pytest.raises(IllegalAction, match="not in the hand"):
        state.push(card("AC"))
    with pytest.raises(IllegalAction, match="not a card"):
        state.push("AD")
    assert state == before


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone():
    state = heading_position()
    before = state.copy()
    after = apply(state, card("AD"))
    assert state == before
    assert after.tricks == []
    assert after.trick == [card("KD"), card("9D"), card("AD")]


def test_trick_winner_leads_the_next_trick_and_identical_cards_go_to_the_first():
    state = heading_position()
    push_all(state, card("AD"), card("9C"))
    assert state.tricks[0].winner == 2
    assert to_act(state) == 2
    assert state.points == [2, 0]  # KD and AD


def test_bidder_must_lead_trump_unless_the_bid_was_the_minimum():
    state = start_with("classic", HEADING, dealer=3, pass_cards=0, bidder_must_lead_trump=True)
    push_all(state, 21, None, None, None, SPADES)
    assert codes(legal_actions(state)) == ["AS", "TS", "KS"]
    with pytest.raises(IllegalAction, match="the first lead must be trump"):
        state.push(card("KD"))
    at_minimum = start_with("classic", HEADING, dealer=3, pass_cards=0, bidder_must_lead_trump=True)
    push_all(at_minimum, 20, None, None, None, SPADES)
    assert "KD" in codes(legal_actions(at_minimum))


def test_the_hand_is_over_after_the_last_trick_and_refuses_more_actions():
    state = play_out(start("classic", dealer=1), random.Random(5))
    with pytest.raises(IllegalAction, match="the hand is over"):
        state.push(card("AS"))
    assert legal_actions(state) == ()


# -- a game -----------------------------------------------------------------------------------


def play_out(state: HandState, rng: random.Random) -> HandState:
    while state.decision is not None:
        state.push(random_action(state, rng))
    return state


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_deal_passes_to_the_left_and_totals_carry_over(variant_id):
    rng = random.Random(3)
    state = play_out(start(variant_id, dealer=2), rng)
    assert state.result is not None
    following = next_hand(state, rng)
    assert following.dealer == (2 + 1) % state.variant.seats
    assert following.hand_number == 1
    assert following.totals == state.result.totals
    assert to_act(following) == (following.dealer + 1) % state.variant.seats


class AlwaysBidsSeven:
    name = "sevens"

    def decide(self, view: Any) -> Any:
        return 7

    def close(self) -> None:
        pass


def test_the_game_loop_stops_on_an_illegal_answer_naming_seat_decision_and_answer():
    with pytest.raises(
        GameStopped, match=r"seat 1 \(sevens\), decision bid: answer 7 is illegal: .*at least 20"
    ):
        play_hand(start("classic", dealer=0), [AlwaysBidsSeven()] * 4)


def test_next_hand_refuses_a_hand_still_in_play():
    with pytest.raises(IllegalAction, match="not over"):
        next_hand(start("classic"), random.Random(1))


def test_misdeal_nines_throws_in_a_hand_with_five_nines():
    nines = "9S 9S 9H 9H 9D AS AS TS TS KS KS QS"
    assert start_with("classic", {1: nines}).decision is BID
    state = start_with("classic", {1: nines}, misdeal_nines="5+ nines")
    assert state.decision is None
    assert state.result is not None
    assert state.result.scores == (0, 0)
    assert start_with("classic", {1: nines}, misdeal_nines="5 nines and no ace").decision is BID


# -- properties over random hands ---------------------------------------------------------------


@given(st.sampled_from(list(VARIANTS)), HOUSE_RULES, st.integers(0, 2**32))
def test_random_legal_hands_play_every_card_once_and_trick_points_add_up(variant_id, rules, seed):
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    state = deal(variant, variant.settings(rules), rng.randrange(variant.seats), rng)
    while state.decision is not None:
        if state.decision == PLAY:
            assert_only_legal_cards_accepted(state)
        state.push(random_action(state, rng))
    assert state.result is not None
    if state.result.played:
        played = sorted(c for trick in state.tricks for c in trick.cards)
        assert played == variant.deck()
        assert sum(state.points) == variant.trick_points_total(state.settings)
        assert all(sum(hand) == 0 for hand in state.hands)
    assert len(state.result.scores) == len(variant.sides)


def assert_only_legal_cards_accepted(state: HandState) -> None:
    legal = set(legal_actions(state))
    held = set(cards_from_counts(state.hands[state.to_act or 0]))
    assert legal <= held
    for c in held - legal:
        before = state.copy()
        with pytest.raises(IllegalAction):
            state.push(c)
        assert state == before


@given(st.sampled_from(list(VARIANTS)), HOUSE_RULES, st.integers(0, 2**32), st.integers(0, 140))
def test_state_survives_a_json_round_trip_at_any_point(variant_id, rules, seed, steps):
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    state = deal(variant, variant.settings(rules), rng.randrange(variant.seats), rng)
    for _ in range(steps):
        if state.decision is None:
            break
        state.push(random_action(state, rng))
    text = json.dumps(to_json(state))
    restored = from_json(json.loads(text))
    assert restored == state
    assert HandState.from_json(state.to_json()) == state
    assert to_json(restored) == to_json(state)
    if restored.decision is not None:  # and the restored state plays on identically
        action = random_action(state, random.Random(seed))
        assert apply(restored, action) == apply(state, action)


@given(st.sampled_from(list(VARIANTS)), st.integers(0, 2**32), st.integers(0, 140))
def test_a_seat_view_shows_only_its_own_hand_and_lists_what_the_state_allows(variant_id, seed, steps):
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    state = deal(variant, variant.defaults, rng.randrange(variant.seats), rng)
    for _ in range(steps):
        if state.decision is None:
            break
        state.push(random_action(state, rng))
    for seat in range(variant.seats):
        view = seat_view(state, seat)
        assert view.hand == tuple(cards_from_counts(state.hands[seat]))
        assert view.legal == (legal_actions(state) if seat == state.to_act else ())
        json.dumps(view.to_json())


@given(st.sampled_from(list(VARIANTS)), st.integers(0, 2**32))
def test_seat_views_built_at_every_decision_match_views_of_a_freshly_rebuilt_state(variant_id, seed):
    # seat_view and push reuse the hand, the tricks, the calls and the legal list from one decision
    # to the next: a view must still equal one built from scratch (from_json keeps no reuse).
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    state = deal(variant, variant.defaults, rng.randrange(variant.seats), rng)
    while state.decision is not None:
        fresh = from_json(to_json(state))
        for seat in range(variant.seats):
            assert seat_view(state, seat) == seat_view(fresh, seat)
        state.push(random_action(state, rng))


def test_build_seat_view_puts_every_value_in_its_own_field_of_a_frozen_seat_view():
    # seat_view fills the view's slots directly for speed, bypassing the dataclass's __init__.
    names = [f.name for f in dataclasses.fields(SeatView)]
    values = {name: object() for name in names}
    view = build_seat_view(**values)
    assert type(view) is SeatView
    assert all(getattr(view, name) is values[name] for name in names)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1
    del values["trick"]
    with pytest.raises(TypeError, match="trick"):
        build_seat_view(**values)
