"""The practice table's one-line reasons for a hint (``pages/practice.py``) say what the answer does."""

from scorepad.engine.bots import HeuristicBot
from scorepad.engine.game import seat_view
from scorepad.engine.meld import meld_points
from scorepad.pages.practice import hint_reason
from tests.pages.test_lessons import follow_suggestions


def test_a_pass_back_that_breaks_meld_is_not_said_to_keep_it_whole():
    """The heuristic bidder keeps trumps before meld: on the lesson's deal its pass back breaks the
    pinochle and the spade marriage, and the reason must say so."""
    at_pass = next(page for page in follow_suggestions("classic") if page.stage == "pass")
    view = seat_view(at_pass.state, 0)
    answer = HeuristicBot(0).decide(view)
    hand = list(at_pass.state.hands[0])
    before = meld_points(hand, view.trump, view.variant, view.settings)
    for c in answer:
        hand[c] -= 1
    after = meld_points(hand, view.trump, view.variant, view.settings)

    reason = hint_reason(view, answer)

    assert after < before
    assert "stays whole" not in reason
    assert f"your meld goes from {before} to {after}" in reason
