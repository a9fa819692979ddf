"""The deeper weighing: the blind policy down to the threshold, then the whole rest searched exactly;
a contract carried there as the full game state carries it; a puzzle's answers weighed so."""

from __future__ import annotations

import random
from functools import partial

import pytest

from scorepad.engine.auction import trump_suits
from scorepad.engine.bots.heuristic import choose_pass, profile_of
from scorepad.engine.game import deal
from scorepad.engine.knowledge import Dealer, knowledge_of
from scorepad.engine.lean import INFINITY, blind_policy, solve
from scorepad.engine.puzzles import Puzzle, bots_missing, deep_weigh, exact_check
from scorepad.engine.scoring import HandEntry, score_hand
from scorepad.engine.search import contract_state, lean_of, play_state, playout_policy
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import PLAY
from scorepad.engine.weighing import deep_contract, deep_value, exact_cards
from scorepad.selectors.puzzles import shipped
from tests.engine.test_exact import random_position


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_within_the_threshold_the_whole_rest_is_searched_exactly(variant_id: str) -> None:
    for seed in range(6):
        found = random_position(variant_id, seed, 3, seed, {})
        if found is None:
            continue
        lean, contract = found
        side = lean.rules.side_of[lean.to_act]
        expected = solve(lean.copy(), contract, side, -INFINITY, INFINITY)
        exact = exact_cards(get_variant(variant_id))
        assert deep_value(lean, contract, side, exact, blind_policy) == expected


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_above_the_threshold_the_blind_policy_plays_down_to_it_then_the_rest_is_exact(
    variant_id: str,
) -> None:
    """Five tricks left, the threshold two tricks: the policy plays every card above it (part of
    a trick in progress too), the search takes the rest, and the state is left as it was."""
    seats = get_variant(variant_id).seats
    for seed in range(4):
        found = random_position(variant_id, seed, 5, seed, {})
        if found is None:
            continue
        lean, contract = found
        before = lean.hands
        by_hand = lean.copy()
        while sum(by_hand.counts) > 2 * seats:
            by_hand.play(blind_policy(by_hand))
        expected = solve(by_hand, contract, 0, -INFINITY, INFINITY)
        assert deep_value(lean, contract, 0, 2 * seats, blind_policy) == expected
        assert lean.hands == before


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_contract_is_weighed_as_the_full_game_state_carries_it_to_the_first_lead(variant_id: str) -> None:
    variant = get_variant(variant_id)
    settings = variant.defaults
    passer = partial(choose_pass, p=profile_of(variant, settings))
    rng = random.Random(3)
    for number in range(2):
        hands = deal(variant, settings, number % variant.seats, rng).hands
        bidder = rng.randrange(variant.seats)
        trump = trump_suits(hands[bidder], settings)[0]
        bid = settings.min_bid
        state = contract_state(variant, settings, number % variant.seats, hands, bidder, bid, trump, passer)
        side = variant.side_of(number % variant.seats)
        if state.decision == PLAY:
            lean, contract = lean_of(state)
            expected = deep_value(lean, contract, side, exact_cards(variant), playout_policy(variant))
        else:  # a short meld stopped play
            assert state.meld is not None
            entry = HandEntry(bidder, bid, trump, variant.side_totals(state.meld), None, None)
            scores = score_hand(variant, settings, entry).scores
            expected = scores[side] - (sum(scores) - scores[side]) / (len(scores) - 1)
        found = deep_contract(variant, settings, hands, (bidder, bid, trump), side, passer)
        assert found == expected


def late_puzzle() -> Puzzle:
    """A shipped play puzzle with few cards left: cheap to weigh."""
    plays = [p for p in shipped("double-deck")[:40] if p.decision == "play"]
    return min(plays, key=lambda p: len(p.view().hand))


def test_a_late_puzzles_answers_are_each_searched_exactly_on_the_same_deals() -> None:
    view = late_puzzle().view()
    weighed = deep_weigh(view, random.Random(5), 3)
    dealer, rng = Dealer(knowledge_of(view)), random.Random(5)
    side = view.variant.side_of(view.seat)
    for deal_number in range(3):
        state, contract = play_state(view, dealer.deal(rng))
        for c in dict.fromkeys(view.legal_cards):
            child = state.copy()
            child.play(c)
            value = deep_value(child, contract, side, exact_cards(view.variant), playout_policy(view.variant))
            assert weighed.values[c][deal_number] == value


def test_the_exact_check_and_the_bots_speak_of_the_shipped_answer() -> None:
    puzzle = late_puzzle()
    check = exact_check(puzzle, 1, 10)
    assert check.agrees == (check.best == puzzle.answer)
    assert check.agrees or not check.clear
    assert set(bots_missing(puzzle, 10)) <= {"easy", "steady", "expert"}
