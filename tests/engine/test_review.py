"""Hand review: the expert weighs each of a seat's decisions against its own best answer.

Reviews are deterministic (a seeded generator and a count of playouts per decision); the count
is lowered here so the tests stay quick.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from decimal import Decimal

import pytest

from scorepad.engine import review
from scorepad.engine.answers import answer_json
from scorepad.engine.bots import ExpertBot, HeuristicBot, heuristic, reasons
from scorepad.engine.bots.expert import Choice
from scorepad.engine.bots.heuristic import profile_of
from scorepad.engine.bots.reasons import (
    bid_reason,
    concede_reason,
    game_bid_reason,
    pass_bid_reason,
    pass_cards_reason,
    play_reason,
    trump_reason,
)
from scorepad.engine.cards import ACE, parse_cards, rank_of, suit_of
from scorepad.engine.game import HandState, deal, seat_view
from scorepad.engine.log import hand_line
from scorepad.engine.play import trick_winner
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import BID, PASS, PLAY, Answer, SeatView, Trick
from tests.engine.test_bots import make_view, play_view

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
        assert not SEARCH_LOG.search(reason), reason  # no count of deals or answers tried
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
        assert (difference.you_decided, difference.yours) != (difference.expert_decided, difference.experts)


# -- "Where you differed": decisions paired by what they are --------------------------------------


class ScriptedBidder:
    """Seat 0 bidding by a script (True: the least bid, False: pass; passes once the script
    runs out), the heuristic for everything else: two plays of one deal that part ways early."""

    name = "scripted"

    def __init__(self, seat: int, calls: Sequence[bool]) -> None:
        self.seat = seat
        self.calls = list(calls)

    def decide(self, view: SeatView) -> Answer:
        if view.decision == BID and view.may_pass:
            return view.least_bid if self.calls and self.calls.pop(0) else None
        return HeuristicBot(self.seat).decide(view)

    def close(self) -> None:
        pass


def others(_: HandState) -> dict[int, HeuristicBot]:
    return {s: HeuristicBot(s) for s in (1, 2, 3)}


def two_plays(
    yours: Sequence[bool], experts: Sequence[bool], wanted: Callable[[dict], bool]
) -> tuple[dict, dict]:
    """A classic deal (the first seed whose play by ``yours`` passes ``wanted``), played by seat 0
    calling ``yours`` and again calling ``experts``, the other seats the same heuristic."""
    variant = get_variant("classic")
    for seed in range(300):
        state = deal(variant, variant.defaults, 3, random.Random(seed))
        play_hand(state, [HeuristicBot(s) for s in range(4)])  # a logged deal to play again
        line = hand_line(review.expert_duplicate(hand_line(state), 0, ScriptedBidder(0, yours), others))
        if wanted(line):
            other = hand_line(review.expert_duplicate(line, 0, ScriptedBidder(0, experts), others))
            return line, other
    raise AssertionError("no such deal")


MISSING = object()


def hashable(answer: object) -> object:
    return tuple(answer) if isinstance(answer, list) else answer


def seat_decisions_from_the_log(line: dict, seat: int) -> dict[tuple[str, int], object]:
    """Seat's decisions read straight from the §9.5 line's fields (not by replaying it): the n-th
    call, trump, the pass of cards, and trick k's card."""
    found: dict[tuple[str, int], object] = {}
    calls = [bid for who, bid in line["auction"] if who == seat]
    found.update({("bid", n): bid for n, bid in enumerate(calls, 1)})
    if line["bidder"] == seat and line["trump"] is not None:
        found[("trump", 1)] = line["trump"]
    gave = [cards for giver, _, cards in line["passes"] if giver == seat]
    found.update(
        {
            ("pass", n): hashable(answer_json(PASS, tuple(sorted(parse_cards(c)))))
            for n, c in enumerate(gave, 1)
        }
    )
    for k, trick in enumerate(line["tricks"], 1):
        found[("play", k)] = trick["cards"][(seat - trick["leader"]) % 4]
    return found


def expected_differences(yours: dict, experts: dict) -> set[tuple[str, int, object, object]]:
    mine, theirs = seat_decisions_from_the_log(yours, 0), seat_decisions_from_the_log(experts, 0)
    return {
        (kind, place, mine.get((kind, place), MISSING), theirs.get((kind, place), MISSING))
        for kind, place in mine.keys() | theirs.keys()
        if mine.get((kind, place), MISSING) != theirs.get((kind, place), MISSING)
    }


def found_differences(yours: dict, experts: dict) -> set[tuple[str, int, object, object]]:
    return {
        (
            str(d.decision),
            d.place,
            hashable(d.yours) if d.you_decided else MISSING,
            hashable(d.experts) if d.expert_decided else MISSING,
        )
        for d in review.differences(yours, experts, 0)
    }


SCENARIOS = {
    # you pass at your first call, your partner wins; the expert bids on (the issue's hand)
    "you pass, your partner wins": ([False], [True, True, True], lambda line: line["bidder"] == 2),
    # you bid until you win; the expert passes at once
    "you win the auction": ([True] * 12, [False], lambda line: line["bidder"] == 0),
    # you bid once and pass out of the auction, an opponent wins; the expert bids twice
    "you pass out, they win": ([True], [True, True], lambda line: line["bidder"] in (1, 3)),
}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_differences_pair_each_decision_with_the_same_decision_of_the_experts_play(scenario: str) -> None:
    yours, experts, wanted = SCENARIOS[scenario]
    line, other = two_plays(yours, experts, wanted)
    assert found_differences(line, other) == expected_differences(line, other)
    differences = review.differences(line, other, 0)
    first = differences[0]
    assert (first.decision, first.place) == (BID, 1) or yours[0] == experts[0]
    for d in differences:
        if d.decision == PLAY:
            assert d.trick == d.place  # trick k's card beside trick k's card, never shifted
    order = [(review.PHASES.index(d.decision), d.place) for d in differences]
    assert order == sorted(order)  # in the order of the hand


def test_the_issues_hand_pairs_your_pass_of_cards_with_the_experts_not_its_bid() -> None:
    line, other = two_plays([False], [True, True, True], lambda line: line["bidder"] == 2)
    by_place = {(d.decision, d.place): d for d in review.differences(line, other, 0)}
    bid = by_place[(BID, 1)]
    assert bid.yours is None  # you passed at your first call …
    assert bid.you_decided
    assert isinstance(bid.experts, int)  # … where the expert bid
    passing = by_place.get((PASS, 1))
    if passing is not None:  # your pass of cards is set beside the expert's pass of cards, or none
        assert isinstance(passing.yours, list)
        assert passing.experts is None or isinstance(passing.experts, list)


# -- what a decision costs: bounded by what it could change, and the total is the parts' sum ------


def test_no_decision_is_charged_more_than_it_could_change(monkeypatch: pytest.MonkeyPatch) -> None:
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 3, random.Random(5))
    play_hand(state, [HeuristicBot(s) for s in range(4)])
    number, before, answer = review.decisions_of(hand_line(state), 0)[-2]  # a late trick
    assert before.decision == PLAY
    best = next(c for c in before.legal() if c != answer)

    def inflated(bot: ExpertBot, view: SeatView, also: Answer = None) -> Choice:
        return Choice(best, "a reason", {best: 500.0, answer: 0.0}, 10)

    monkeypatch.setattr(ExpertBot, "evaluate", inflated)
    monkeypatch.setattr(review, "confirm", lambda *args: 500.0)  # the deeper weighing agrees
    verdict = review.review_decision(before, answer, seed=SEED, number=number)
    assert verdict.gap == 500.0
    assert verdict.cap == round(review.at_stake(before), 1)
    assert 0 < verdict.cap < 2 * variant.trick_points_total(variant.defaults) + 2 * before.bid + 50
    assert verdict.lost == verdict.cap
    assert verdict.capped


def test_a_card_is_charged_only_as_far_as_the_deeper_weighing_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert's playouts say the card cost 3 points; the exact search of the rest says 1.2, or
    that it cost nothing: the charge is the smaller, never the bound's."""
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 3, random.Random(5))
    play_hand(state, [HeuristicBot(s) for s in range(4)])
    number, before, answer = review.decisions_of(hand_line(state), 0)[-3]
    best = next(c for c in before.legal() if c != answer)
    monkeypatch.setattr(
        ExpertBot,
        "evaluate",
        lambda bot, view, also=None: Choice(best, "a reason", {best: 3.0, answer: 0.0}, 10),
    )
    for deeper, lost in ((1.2, 1.2), (0.0, 0.0)):
        monkeypatch.setattr(review, "confirm", lambda *args, deeper=deeper: deeper)
        verdict = review.review_decision(before, answer, seed=SEED, number=number)
        assert (verdict.gap, verdict.confirmed, verdict.lost) == (3.0, deeper, lost)
        assert not verdict.capped


def test_the_deeper_weighing_finds_what_a_card_gives_up_on_fresh_deals() -> None:
    """An ace thrown on the opponents' trick against the expert's card: the exact search of the
    rest charges it, and the expert's own card nothing against itself."""
    state, ace = blunder_position()
    view = seat_view(state, 0)
    best = ExpertBot(0, random.Random(1)).decide(view)
    assert review.confirm(view, best, ace, "a seed") > 0
    assert review.confirm(view, ace, ace, "a seed") == 0


def test_points_left_on_the_table_are_exactly_the_sum_of_the_parts_each_within_its_bound() -> None:
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 1, random.Random(21))
    play_hand(state, [HeuristicBot(s) for s in range(4)])
    verdicts, _ = review.review_hand(hand_line(state), 0, seed=SEED)
    assert any(v.lost for v in verdicts)
    for v in verdicts:
        assert 0 <= v.lost <= v.cap
        assert v.lost == min(v.gap, v.cap, v.gap if v.confirmed is None else v.confirmed)
    shown = sum(Decimal(f"{v.lost:.1f}") for v in verdicts)
    assert Decimal(f"{review.left_on_table(verdicts):.1f}") == shown
    caps = [v.cap for v in verdicts if v.decision == PLAY]
    assert caps == sorted(caps, reverse=True)  # what a card can change only shrinks as tricks go


def test_the_bound_of_the_last_trick_is_what_its_points_can_swing() -> None:
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 3, random.Random(5))
    play_hand(state, [HeuristicBot(s) for s in range(4)])
    *_, (_, last, _) = review.decisions_of(hand_line(state), 0)
    assert len(last.tricks) == 11
    left = variant.trick_points_total(variant.defaults) - sum(last.points)
    # the last trick's points (with the last-trick bonus) go to one side or the other; the
    # contract and the meld a trick saves may hang on them: never more than that can move
    assert left <= review.at_stake(last) <= 2 * left + 2 * (last.bid or 0) + sum(last.meld or ())


# -- reasons a player can use ---------------------------------------------------------------------

SEARCH_LOG = re.compile(r"simulated|deals|tried", re.IGNORECASE)


def test_a_trump_lead_says_which_trump_and_why_not_just_lead_trump() -> None:
    hand = "TH AH KS"  # hearts are trump; the other A♥ is still out
    view = play_view(hand, hand, Trick(0, ()))
    p = profile_of(view.variant, view.settings)
    ten = play_reason(view, parse_cards("TH")[0], p, (19, 44))
    assert "lead trump" not in ten
    assert ten == "10♥ draws trumps and keeps your A♥ for later"
    ace = play_reason(view, parse_cards("AH")[0], p, (19, 44))
    assert ace.startswith("A♥ draws trumps and cannot lose the trick")


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_no_card_is_explained_by_the_search_or_by_lead_trump_alone(variant_id: str) -> None:
    variant = get_variant(variant_id)
    state = deal(variant, variant.defaults, 1, random.Random(8))
    bots = [HeuristicBot(s) for s in range(variant.seats)]
    p = profile_of(variant, variant.defaults)
    explained = 0
    while state.decision is not None:
        assert state.to_act is not None
        view = seat_view(state, state.to_act)
        if state.decision == PLAY:
            for card in set(view.legal_cards):
                reason = play_reason(view, card, p, (19, 44))  # the expert passes how often it did best
                assert not SEARCH_LOG.search(reason), reason
                assert not ENGINE_CODE.search(reason), reason
                if view.trump is not None and suit_of(card) == view.trump:
                    assert "lead trump" not in reason, reason
                explained += 1
        state.push(bots[state.to_act].decide(view))
    assert explained > 20


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_a_pass_of_cards_is_explained_by_the_cards_not_by_how_it_was_chosen(seed: int) -> None:
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 0, random.Random(seed))
    bots = [HeuristicBot(s) for s in range(variant.seats)]
    seen = 0
    while state.decision is not None:
        assert state.to_act is not None
        view = seat_view(state, state.to_act)
        answer = bots[state.to_act].decide(view)
        if state.decision == PASS:
            reason = pass_cards_reason(view, answer, 2, 66)
            assert not SEARCH_LOG.search(reason), reason
            assert reason.startswith(("it sends the bidder", "your meld")), reason
            seen += 1
        state.push(answer)
    assert seen == 2


def test_bid_trump_and_throw_in_reasons_give_odds_in_words() -> None:
    view = make_view(hand="AS AS KS QS JS TS 9H 9H AD AC KC QC")
    texts = [
        bid_reason(view, 25, 0, 40, 48),
        trump_reason(view, 0, 48, 48),
        pass_bid_reason(view, 30, 0, 2, 48, enough=False, over_partner=True),
        game_bid_reason(26, bidding=True, going_out=30, pushed=12, safe=0, samples=48, passes=48),
        concede_reason(-25, -31.4, 40, throw_in=True),
    ]
    assert texts[0].endswith("25 is made in about 8 of 10 hands")
    assert texts[1].endswith("the bid is made in every hand")
    for text in texts:
        assert not SEARCH_LOG.search(text), text


def test_the_words_of_a_reason_never_change_what_a_bot_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    def played() -> dict:
        variant = get_variant("classic")
        state = deal(variant, variant.defaults, 2, random.Random(4))
        bots = [ExpertBot(s, random.Random(s), playouts=24, budget_ms=60_000.0) for s in range(4)]
        play_hand(state, bots)
        return hand_line(state)

    reasoned = played()
    for name in dir(reasons):
        if name.endswith("_reason"):
            monkeypatch.setattr(reasons, name, lambda *_, **__: "x")
    monkeypatch.setattr(heuristic, "heuristic_reason", lambda *_, **__: "x")
    assert played() == reasoned
