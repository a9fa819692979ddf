"""§4 `bidder_may_concede`: after meld and before the first lead the bidder may throw the hand in,
scored as a forfeit; a decision of the engine, the §9.6 protocol and every bot."""

from __future__ import annotations

import json
import random

import pytest

from scorepad.engine.answers import AnswerError, parse_form, read_line
from scorepad.engine.bots import ExpertBot, HeuristicBot, RandomBot, make_bot
from scorepad.engine.game import HandState, IllegalAction, seat_view
from scorepad.engine.log import hand_line, replay_hand
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import get_variant
from scorepad.engine.view import CONCEDE, PLAY
from tests.engine.test_bots import tiny_bot
from tests.engine.test_game import start_with

# A weak hand for seat 1 and a bid no hand could make: the bidder has every reason to throw in.
WEAK = {
    "classic": "9S 9S 9H 9H 9D JS JH JD JC QH QD 9C",
    "double-deck": "AS AH AD AC KS KH KD KC QH JS JS JS JH JH JD JD JC JC JC QC",  # meld over 20
    "six-handed": "9S 9H 9D 9C JS JH JC QH",
}
HOPELESS = {"classic": 60, "double-deck": 150, "six-handed": 400}


def at_concede(variant_id: str, bid: int) -> HandState:
    """Seat 1 (left of dealer 0) bids ``bid``, everyone else passes, trump hearts, cards passed."""
    variant = get_variant(variant_id)
    state = start_with(variant_id, {1: WEAK[variant_id]}, dealer=0, bidder_may_concede=True)
    state.push(bid)
    while state.bidder is None:
        state.push(None)
    state.push(1)  # hearts
    others = [HeuristicBot(seat) for seat in range(variant.seats)]
    while state.decision not in (CONCEDE, None):
        assert state.to_act is not None
        state.push(others[state.to_act].decide(seat_view(state, state.to_act)))
    return state


@pytest.mark.parametrize("variant_id", ["classic", "double-deck", "six-handed"])
def test_a_conceded_hand_is_not_played_and_scores_as_a_forfeit(variant_id: str) -> None:
    variant = get_variant(variant_id)
    state = at_concede(variant_id, HOPELESS[variant_id])
    assert (state.decision, state.to_act) == (CONCEDE, 1)
    view = seat_view(state, 1)
    assert view.to_json()["legal"] == [False, True]
    assert view.to_json()["decision"] == "concede"
    state.push(True)
    assert state.result is not None
    assert not state.result.played
    assert state.tricks == []
    bidders = variant.side_of(1)
    assert state.result.scores[bidders] == -HOPELESS[variant_id]
    assert state.result.reasons[bidders] == "conceded: loses the bid"
    assert state.meld is not None
    meld = variant.side_totals(state.meld)
    # The others score as `forfeit_opponents` says: classic and six-handed nothing, double-deck
    # their meld if it reaches 20.
    for side, score in enumerate(state.result.scores):
        if side != bidders:
            forfeit_meld = meld[side] if variant_id == "double-deck" and meld[side] >= 20 else 0
            assert score == forfeit_meld
    line = hand_line(state)
    assert line["points"] is None
    assert replay_hand(line) == line  # the log says it was thrown in; replaying throws it in


def test_playing_on_leads_to_the_bidders_first_lead_and_other_answers_are_refused() -> None:
    state = at_concede("classic", 20)
    before = state.copy()
    for wrong in (1, 0, "true", None):
        with pytest.raises(IllegalAction):
            state.push(wrong)
        assert state == before
    state.push(False)
    assert (state.decision, state.to_act) == (PLAY, 1)
    play_hand(state, [HeuristicBot(seat) for seat in range(4)])
    line = hand_line(state)
    assert replay_hand(line) == line


def test_without_the_setting_there_is_no_concede_decision() -> None:
    state = start_with("classic", {1: WEAK["classic"]}, dealer=0)
    bots = [RandomBot(seat, random.Random(seat)) for seat in range(4)]
    seen = set()
    while state.decision is not None:
        seen.add(state.decision)
        assert state.to_act is not None
        state.push(bots[state.to_act].decide(seat_view(state, state.to_act)))
    assert CONCEDE not in seen


def test_the_protocol_reads_concede_answers_and_refuses_anything_but_true_or_false() -> None:
    view = seat_view(at_concede("classic", 20), 1)
    assert read_line(view, '{"concede": true}') is True
    assert read_line(view, '{"concede": false}') is False
    for line in ('{"concede": 1}', '{"concede": "yes"}', '{"card": "AS"}', '{"concede": null}'):
        with pytest.raises(AnswerError):
            read_line(view, line)
    assert parse_form(view, {"concede": "true"}) is True
    assert parse_form(view, {"concede": "false"}) is False
    with pytest.raises(AnswerError):
        parse_form(view, {"concede": "maybe"})


@pytest.mark.parametrize("variant_id", ["classic", "double-deck", "six-handed"])
def test_bots_throw_in_a_hopeless_bid_and_play_on_a_cheap_one(variant_id: str) -> None:
    hopeless = seat_view(at_concede(variant_id, HOPELESS[variant_id]), 1)
    expert = ExpertBot(1, random.Random(0), playouts=40, budget_ms=60_000.0)
    assert HeuristicBot(1).decide(hopeless) is True
    answer, reason = expert.explain(hopeless)
    assert answer is True
    assert reason.startswith(f"throw in: your side loses {HOPELESS[variant_id]}; playing on, it loses")
    least = get_variant(variant_id).defaults.min_bid
    cheap = seat_view(at_concede(variant_id, least), 1)
    if cheap.decision == CONCEDE:  # (double-deck's rule of 20 may have ended it already)
        assert HeuristicBot(1).decide(cheap) is False
    assert json.dumps(hopeless.to_json())  # the view is plain JSON for an outside program


def test_an_outside_bidder_answers_concede_by_the_protocol() -> None:
    state = at_concede("classic", 20)
    outside = make_bot(tiny_bot(), 1, random.Random(0))
    try:
        answer = outside.decide(seat_view(state, 1))  # a §9.6 line out, {"concede": false} back
    finally:
        outside.close()
    assert answer is False
    state.push(answer)
    assert state.decision == PLAY
