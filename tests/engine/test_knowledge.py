"""What a seat knows (knowledge.py) and the deals ``determinize`` samples from it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.engine.bots import HeuristicBot
from scorepad.engine.cards import CARD_COUNT, HEARTS, SPADES, counts_of, parse_cards
from scorepad.engine.game import HandState, deal, seat_view
from scorepad.engine.knowledge import Dealer, Knowledge, _flow_deal, determinize, fits, knowledge_of
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import PASS, SeatView, Trick
from tests.engine.test_bots import make_view
from tests.engine.test_expert import HOUSE_RULES
from tests.examples import examples


def advance(state: HandState, steps: int) -> HandState:
    """Heuristic bots make up to ``steps`` decisions (stopping when the hand ends)."""
    bots = [HeuristicBot(seat) for seat in range(state.variant.seats)]
    for _ in range(steps):
        if state.decision is None:
            break
        assert state.to_act is not None
        state.push(bots[state.to_act].decide(seat_view(state, state.to_act)))
    return state


@settings(max_examples=examples(60), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    seat=st.integers(0, 5),
    house_rules=st.sampled_from(HOUSE_RULES),
)
def test_every_sampled_deal_fits_the_view_and_so_does_the_real_one(
    variant_id: str, seed: int, steps: int, seat: int, house_rules: dict[str, object]
) -> None:
    variant = get_variant(variant_id)
    rules = variant.settings(house_rules)
    state = advance(deal(variant, rules, seed % variant.seats, random.Random(seed)), steps)
    seat %= variant.seats
    if state.decision == PASS:
        # Between the two passes the cards in transit are known only to the passers (a §9.6 view
        # shows a seat its own passes); nobody else decides until the passing is over.
        assert state.to_act is not None
        seat = state.to_act
    view = seat_view(state, seat)
    k = knowledge_of(view)
    # The truth fits: every inference (voids, failures to head, passes, shown meld) is sound.
    assert fits(k, state.hands) is None
    rng = random.Random(seed)
    for _ in range(5):
        hands = determinize(view, rng, k)
        assert fits(k, hands) is None
        assert hands[seat] == list(counts_of(view.hand))  # the seat's own hand is unchanged


def classic_play_view_after(tricks: tuple[Trick, ...], hand: str, **fields: object) -> SeatView:
    """Seat 0 of `classic` about to play, having bid 25 in hearts."""
    return make_view(
        hand=hand, decision="play", bidder=0, bid=25, trump=HEARTS, tricks=tricks, legal=(), **fields
    )


def test_a_seat_that_did_not_follow_suit_is_never_dealt_that_suit_nor_trump() -> None:
    # Seat 1 threw a club on a spade lead: it has no spades, and (must trump) no hearts either.
    lead = Trick(0, tuple(parse_cards("AS JC 9S KS")), 0)
    view = classic_play_view_after((lead,), "TS QS JS 9D AD TD KD QD JD AC TC")
    k = knowledge_of(view)
    spades_and_hearts = [c for c in range(CARD_COUNT) if c // 6 in (SPADES, HEARTS)]
    assert all(k.forbidden[1] >> c & 1 for c in spades_and_hearts)
    for _ in range(20):
        hands = determinize(view, random.Random(_), k)
        assert not any(hands[1][c] for c in spades_and_hearts)


def test_a_seat_that_failed_to_head_holds_nothing_higher_in_that_suit() -> None:
    # `classic` plays HEAD: seat 2 played 9S under the winning KS, so it holds no AS or TS.
    lead = Trick(1, tuple(parse_cards("KS 9S QS 9S")), 1)
    view = classic_play_view_after((lead,), "AH TH KH QH JH AD TD KD QD JD AC")
    k = knowledge_of(view)
    aces_and_tens_of_spades = parse_cards("AS TS")
    assert all(k.forbidden[2] >> c & 1 for c in aces_and_tens_of_spades)
    assert not any(k.forbidden[2] >> c & 1 for c in parse_cards("JS 9S"))


def test_shown_meld_and_passed_cards_stay_where_they_are() -> None:
    shown = ((), tuple(parse_cards("KD QD")), (), ())
    view = classic_play_view_after(
        (),
        "AH TH KH QH JH 9H AS TS 9D 9D JD JD",
        shown=shown,
        meld=(0, 2, 0, 0),
        passed=tuple(parse_cards("AC AC TC TC")),
        received=tuple(parse_cards("9D 9D JD JD")),
    )
    k = knowledge_of(view)
    for _ in range(20):
        hands = determinize(view, random.Random(_), k)
        king, queen, ace, ten = parse_cards("KD QD AC TC")
        assert hands[1][king] >= 1
        assert hands[1][queen] >= 1
        assert hands[2][ace] == 2
        assert hands[2][ten] == 2


def test_the_exact_deal_finds_the_one_deal_that_fits_when_constraints_leave_no_choice() -> None:
    # Three seats, two cards each; seat 1 may hold only spades, seat 2 only hearts.
    spades, hearts = parse_cards("AS KS"), parse_cards("AH KH")
    only = lambda allowed: sum(1 << c for c in range(CARD_COUNT) if c not in allowed)  # noqa: E731
    k = Knowledge(
        seat=0,
        sizes=(0, 2, 2),
        known=((0,) * CARD_COUNT,) * 3,
        forbidden=(0, only(spades), only(hearts)),
        unseen=counts_of(spades + hearts),
        played_by=((0,) * CARD_COUNT,) * 3,
    )
    dealt = _flow_deal(sorted(spades + hearts), [1, 2], k, random.Random(3))
    assert sorted(dealt[1]) == sorted(spades)
    assert sorted(dealt[2]) == sorted(hearts)


def test_double_deck_deals_use_the_80_card_deck() -> None:
    variant = get_variant("double-deck")
    state = deal(variant, variant.defaults, 0, random.Random(5))
    view = seat_view(state, 2)
    hands = determinize(view, random.Random(1))
    assert sum(map(sum, hands)) == 80
    assert max(sum(hand[c] for hand in hands) for c in range(CARD_COUNT)) == 4
    assert all(sum(hand[c * 6 + 5] for hand in hands) == 0 for c in range(4))  # no nines


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_with_nothing_barred_the_quick_deal_draws_what_the_greedy_deal_draws(variant_id: str) -> None:
    # ``Dealer._fair_deal`` skips the greedy deal's bookkeeping for cards any seat may hold; it must
    # deal card for card what the greedy deal does from the same generator, or every seeded match
    # and cached analysis would change.
    variant = get_variant(variant_id)
    for seed in range(20):
        view = seat_view(deal(variant, variant.defaults, seed % variant.seats, random.Random(seed)), seed % 3)
        quick = Dealer(knowledge_of(view))
        assert quick.barred is None, "the position must bar nothing"
        greedy = Dealer(knowledge_of(view))
        greedy.barred = [0] * CARD_COUNT  # the greedy path, with every seat allowed every card
        quick_rng, greedy_rng = random.Random(seed), random.Random(seed)
        for _ in range(5):
            assert quick.deal(quick_rng) == greedy.deal(greedy_rng)
