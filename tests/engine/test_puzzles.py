"""Puzzles: what makes a position clear (best on 90% of deals and ahead by two of the least
counter), that bids are never puzzles, and what every shipped puzzle holds to."""

import random
import re

import pytest

from scorepad.engine.answers import check_answer
from scorepad.engine.game import new_game, seat_view
from scorepad.engine.puzzles import (
    BEST_SHARE,
    FIND_MARGIN_PART,
    FIND_SHARE,
    MARGIN_COUNTERS,
    PUZZLE_SEAT,
    THEMES,
    Weighed,
    answer_from_json,
    candidate,
    least_counter,
    verdict_of,
    weigh,
)
from scorepad.engine.variants import VARIANTS
from scorepad.engine.view import BID
from scorepad.selectors.puzzles import shipped

ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")


def weighed(best: list[float], other: list[float]) -> Weighed:
    return Weighed({"best": best, "other": other})


def test_an_answer_best_on_nine_deals_in_ten_and_two_counters_ahead_is_clear():
    found = verdict_of(weighed([3.0] * 9 + [0.0], [0.0] * 9 + [1.0]))
    assert found is not None
    assert found.best == "best"
    assert found.share == pytest.approx(0.9)
    assert found.clear(1)


def test_best_on_eight_deals_in_ten_is_not_clear_however_large_the_lead():
    found = verdict_of(weighed([30.0] * 8 + [0.0, 0.0], [0.0] * 8 + [1.0, 1.0]))
    assert found is not None
    assert not found.clear(1)


def test_a_lead_under_two_of_the_least_counter_is_not_clear():
    found = verdict_of(weighed([1.9] * 10, [0.0] * 10))
    assert found is not None
    assert found.share == 1.0
    assert not found.clear(1)
    assert not verdict_of(weighed([9.0] * 10, [0.0] * 10)).clear(5)  # six-handed's counter is 5


def test_two_answers_that_do_the_same_are_never_a_puzzle():
    found = verdict_of(weighed([4.0, 2.0, 7.0] * 4, [4.0, 2.0, 7.0] * 4))
    assert found is not None
    assert found.share == 1.0  # a tie is best for both …
    assert not found.clear(1)  # … and leads by nothing


def test_a_bid_is_never_a_puzzle():
    variant = VARIANTS["classic"]
    state = new_game(variant, variant.defaults, random.Random(3))
    while state.to_act != PUZZLE_SEAT:
        state.push(None)
    view = seat_view(state, PUZZLE_SEAT)
    assert view.decision == BID
    assert not candidate(view)


def test_weighing_is_the_same_for_the_same_generator_and_deals():
    puzzle = next(p for p in shipped("classic") if p.decision == "play")
    view = puzzle.view()
    first = weigh(view, random.Random(7), 20)
    assert first.values == weigh(view, random.Random(7), 20).values
    assert first.deals == 20
    assert set(first.values) == set(view.legal_cards)


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_every_shipped_puzzle_is_a_clear_legal_answer_of_seat_zero_in_words(variant):
    puzzles = shipped(variant)
    assert len(puzzles) >= 300
    assert len({p.key for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        view = puzzle.view()
        assert view.seat == PUZZLE_SEAT
        assert str(view.decision) == puzzle.decision != "bid"
        check_answer(view, answer_from_json(puzzle.decision, puzzle.answer))
        assert puzzle.answer == puzzle.values[0][0] != puzzle.second == puzzle.values[1][0]
        assert puzzle.share >= FIND_SHARE >= BEST_SHARE  # the thresholds, with the finder's guard band
        assert puzzle.margin >= FIND_MARGIN_PART * MARGIN_COUNTERS * least_counter(view) - 0.01
        assert puzzle.theme in THEMES
        assert 1 <= puzzle.difficulty <= 5
        assert not ENGINE_CODE.search(puzzle.reason + puzzle.worst_words)
