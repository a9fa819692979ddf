"""Hand review: the expert weighs each of a seat's decisions against its own best answer.

Reviews are deterministic (a seeded generator and a count of playouts per decision); the count
is lowered here so the tests stay quick.
"""

from __future__ import annotations

import random
import re

import pytest

from scorepad.engine import review
from scorepad.engine.answers import answer_json
from scorepad.engine.bots import ExpertBot, HeuristicBot
from scorepad.engine.bots.heuristic import profile_of
from scorepad.engine.bots.reasons import play_reason
from scorepad.engine.cards import ACE, parse_cards, rank_of
from scorepad.engine.game import HandState, deal, seat_view
from scorepad.engine.log import hand_line
from scorepad.engine.play import trick_winner
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import PLAY, Answer, SeatView, Trick
from tests.engine.test_bots import play_view

SEED = "test"
ENGINE_CODE = re.compile(r"\b[ATKQJ9][SHDC]\b")
DECIMAL = re.compile(r"\d\.\d")


@pytest.fixture(autouse=True)
def _quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review, "REVIEW_PLAYOUTS", 48)


def play_as_the_expert_reviews(state: HandState, seat: int) -> None:
    """Seat ``seat`` answers every decision exactly as the review's expert for that decision would."""
    others = {s: HeuristicBot(s) for s in range(state.variant.seats) if s != seat}
    number = 0
    while state.decision is not None:
        assert state.to_act is not None
        view = seat_view(state, state.to_act)
        if state.to_act == seat:
            answer = review.expert_for(seat, SEED, number).decide(view)
        else:
            answer = others[state.to_act].decide(view)
        state.push(answer)
        number += 1


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_playing_the_experts_answers_leaves_nothing_on_the_table(variant_id: str) -> None:
    variant = get_variant(variant_id)
    state = deal(variant, variant.defaults, variant.seats - 1, random.Random(5))
    play_as_the_expert_reviews(state, 0)
    verdicts, finished = review.review_hand(hand_line(state), 0, seed=SEED)
    assert finished
    assert verdicts, "seat 0 made decisions"
    assert all(v.agreed for v in verdicts)
    assert review.left_on_table(verdicts) == 0
    assert review.costliest(verdicts) == []


def blunder_position() -> tuple[HandState, int]:
    """A classic hand where seat 0 may throw an ace on a trick the opponents win, or a nine."""
    variant = get_variant("classic")
    for seed in range(200):
        state = deal(variant, variant.defaults, 3, random.Random(seed))
        bots = [HeuristicBot(s) for s in range(4)]
        while state.decision is not None:
            assert state.to_act is not None
            if state.to_act == 0 and state.decision == PLAY and state.trick:
                legal = state.legal()
                aces = [c for c in legal if rank_of(c) == ACE]
                cheap = [
                    c for c in legal if rank_of(c) != ACE and variant.defaults.counter_values[c % 6] == 0
                ]
                for ace in aces:
                    cards = [*state.trick, ace]
                    winner = (state.trick_leader or 0) + trick_winner(cards, state.trump)
                    if winner % 4 in (1, 3) and trick_winner(cards, state.trump) != len(cards) - 1 and cheap:
                        return state, ace
            state.push(bots[state.to_act].decide(seat_view(state, state.to_act)))
    raise AssertionError("no position found")


def test_an_ace_thrown_on_the_opponents_trick_is_left_on_the_table() -> None:
    state, ace = blunder_position()
    number = len(state.auction) + 1 + len(state.passes) + 4 * len(state.tricks) + len(state.trick)
    state.push(ace)  # the blunder; then everyone plays on
    play_hand(state, [HeuristicBot(s) for s in range(4)])
    verdicts, _ = review.review_hand(hand_line(state), 0, seed=SEED)
    blunder = next(v for v in verdicts if v.number == number)
    assert blunder.answer == answer_json(PLAY, ace)
    assert blunder.best != blunder.answer
    assert blunder.lost > 0
    assert review.left_on_table(verdicts) >= blunder.lost
    assert blunder in review.costliest(verdicts)


def test_a_review_worked_out_in_slices_is_the_review_worked_out_at_once() -> None:
    variant = get_variant("double-deck")
    state = deal(variant, variant.defaults, 2, random.Random(9))
    play_hand(state, [HeuristicBot(s) for s in range(4)])
    line = hand_line(state)
    whole, _ = review.review_hand(line, 0, seed=SEED)
    sliced: list[review.Verdict] = []
    finished, slices = False, 0
    while not finished:
        sliced, finished = review.review_hand(line, 0, seed=SEED, done=sliced, cpu_seconds=0.0)
        slices += 1
    assert slices == len(whole) > 1
    assert [v.to_json() for v in sliced] == [v.to_json() for v in whole]
    assert review.Verdict.from_json(whole[-1].to_json()) == whole[-1]


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
@pytest.mark.parametrize("bot", ["expert", "heuristic"])
def test_bot_reasons_speak_in_cards_not_codes_or_averages(variant_id: str, bot: str) -> None:
    variant = get_variant(variant_id)
    state = deal(variant, variant.settings({"bidder_may_concede": True}), 0, random.Random(3))
    bots = [
        ExpertBot(s, random.Random(s), playouts=24, budget_ms=60_000.0)
        if bot == "expert"
        else HeuristicBot(s)
        for s in range(variant.seats)
    ]
    while state.decision is not None:
        assert state.to_act is not None
        answer, reason = bots[state.to_act].explain(seat_view(state, state.to_act))
        assert not ENGINE_CODE.search(reason), reason
        assert "%" not in reason, reason
        assert not DECIMAL.search(reason), reason  # no "−239.9 points a hand", no standard errors
        assert "points a hand" not in reason, reason
        if state.decision == "bid" and answer is None:
            assert "only" in reason or "cost more" in reason or "not worth" in reason, reason
        state.push(answer)


def test_an_ace_whose_twin_is_gone_is_explained_by_the_twin() -> None:
    ace = parse_cards("AD")[0]
    view = play_view("AD KD 9S", "AD KD 9S", Trick(0, ()), (Trick(1, tuple(parse_cards("AD JD QD 9D")), 1),))
    reason = play_reason(view, ace, profile_of(view.variant, view.settings))
    assert reason == "A♦ wins the trick unless it is trumped: the other A♦ is gone"


class SpyExpert:
    """The expert, keeping every view it was asked with."""

    name = "spy"

    def __init__(self, seat: int) -> None:
        self.expert = ExpertBot(seat, random.Random(1), playouts=24, budget_ms=60_000.0)
        self.views: list[SeatView] = []

    def decide(self, view: SeatView) -> Answer:
        self.views.append(view)
        return self.expert.decide(view)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_the_duplicate_expert_plays_the_same_deal_from_its_seat_view_alone(variant_id: str) -> None:
    variant = get_variant(variant_id)
    state = deal(variant, variant.defaults, 1, random.Random(11))
    play_hand(state, [HeuristicBot(s) for s in range(variant.seats)])
    yours = hand_line(state)
    spy = SpyExpert(0)
    duplicate = review.expert_duplicate(yours, 0, spy, lambda _: {s: HeuristicBot(s) for s in range(1, 6)})
    experts = hand_line(duplicate)
    assert experts["dealt"] == yours["dealt"]
    asked = [seat_view(before, 0) for _, before, _ in review.decisions_of(experts, 0)]
    assert spy.views == asked  # exactly its seat view at each decision: nothing else reached it
    assert all(type(view) is SeatView for view in spy.views)
    for difference in review.differences(yours, experts, 0):
        assert difference.yours != difference.experts
