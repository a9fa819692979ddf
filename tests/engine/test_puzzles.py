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
    reworded,
    ties_the_answer,
    verdict_of,
    weigh,
)
from scorepad.engine.variants import VARIANTS
from scorepad.engine.view import BID
from scorepad.selectors.puzzles import puzzle_by_key, shipped

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


# -- what the reason says: only facts it checked ---------------------------------------------------


def shipped_reason(key: str) -> str:
    puzzle = puzzle_by_key(key)
    assert puzzle is not None, key
    return puzzle.reason


def test_a_card_held_twice_is_never_called_your_last_of_its_suit():
    assert "last spade" not in shipped_reason("classic-00276-041")  # K♠ K♠ held
    assert "last diamond" not in shipped_reason("classic-00560-034")  # 10♦ 10♦ held


@pytest.mark.parametrize(
    ("key", "kept"),
    [("classic-00397-023", "A♦"), ("classic-00217-051", "A♠"), ("classic-00594-048", "10♠")],
)
def test_a_card_no_cheaper_than_the_other_is_explained_by_what_it_keeps_not_as_the_cheapest(key, kept):
    reason = shipped_reason(key)
    assert "cheapest" not in reason
    assert f"keeps your {kept} for a later trick" in reason


def test_give_him_a_counter_is_said_only_when_a_card_without_one_could_be_played():
    reason = shipped_reason("classic-00362-045")  # A♦ or K♦ on the partner's trick: both counters
    assert "give him a counter" not in reason
    assert "every card you may play is a counter" in reason


def test_the_trick_is_not_called_lost_while_the_partner_plays_after_and_may_take_it():
    reason = shipped_reason("classic-00426-043")  # the partner plays last, trumps still out
    assert "cannot win" not in reason
    assert reason.startswith("Your partner plays after you and may still take the trick")


def test_answers_valued_alike_are_never_told_apart_as_next_best_or_worst():
    puzzle = puzzle_by_key("classic-00514-040")  # five other cards, every one valued the same
    assert puzzle is not None
    assert "K♥, the next best" not in puzzle.reason
    assert "K♥, Q♥, A♦, J♦ or K♣" in puzzle.reason
    assert puzzle.worst_words.startswith("K♥, Q♥, A♦, J♦ or K♣ each cost")


def test_an_answer_within_a_tenth_of_a_point_of_another_is_never_clear():
    close = verdict_of(weighed([5.0] * 10, [4.95] * 10))
    apart = verdict_of(weighed([5.0] * 10, [4.8] * 10))
    assert close is not None
    assert apart is not None
    assert not close.clear(0.01)  # a least counter this small asks for no lead at all …
    assert apart.clear(0.01)  # … yet a tenth of a point is a tie


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_every_shipped_puzzle_says_what_the_builder_says_of_its_position_and_values(variant):
    for puzzle in shipped(variant):
        assert reworded(puzzle) == puzzle, puzzle.key
        assert not ties_the_answer(puzzle), puzzle.key
