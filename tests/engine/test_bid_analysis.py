"""The expert's bid analysis: one search per seat and hand serves every bid and the trump choice,
kept in the process while practice builds its bots anew for every write."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorepad.engine.bots.expert import Choice, ExpertBot, analysed_trumps, clear_analyses
from scorepad.engine.bots.heuristic import profile_of
from scorepad.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, parse_cards
from scorepad.engine.game import deal, seat_view
from scorepad.engine.practice import practice_bots
from scorepad.engine.variants import get_variant
from scorepad.engine.view import BID, TRUMP, SeatView
from tests.engine.test_expert import after_auction

QUICK = {"playouts": 12, "budget_ms": 60_000.0}


def auction_by_fresh_bots(
    variant_id: str, deal_seed: int, *, match: bool = False
) -> list[tuple[SeatView, Choice]]:
    """Each bid and the trump choice of a hand, each by a new expert as practice makes them: its
    generator from the moves so far, its analysis seed from the hand and seat. With ``match``, one
    expert per seat for the whole hand and no seed, as a match plays."""
    variant = get_variant(variant_id)
    state = deal(variant, variant.defaults, 0, random.Random(deal_seed))
    match_bots = [ExpertBot(seat, random.Random(seat), **QUICK) for seat in range(variant.seats)]
    decided: list[tuple[SeatView, Choice]] = []
    while state.decision in (BID, TRUMP):
        assert state.to_act is not None
        view = seat_view(state, state.to_act)
        bot = (
            match_bots[view.seat]
            if match
            else ExpertBot(
                view.seat, random.Random(len(state.auction)), analysis_seed=f"7:{view.seat}", **QUICK
            )
        )
        choice = bot.evaluate(view)
        decided.append((view, choice))
        state.push(choice.answer)
    return decided


@pytest.mark.parametrize("match", [False, True], ids=["practice", "match"])
@pytest.mark.parametrize(("variant_id", "deal_seed"), [("classic", 10), ("six-handed", 0)])
def test_one_analysis_serves_each_seats_every_bid_and_its_trump_choice(
    monkeypatch, variant_id, deal_seed, match
):
    searched: list[int] = []
    analysis = ExpertBot._analysis

    def counted(bot: ExpertBot, *args, **kwargs):
        searched.append(bot.seat)
        return analysis(bot, *args, **kwargs)

    monkeypatch.setattr(ExpertBot, "_analysis", counted)
    clear_analyses()
    decided = auction_by_fresh_bots(variant_id, deal_seed, match=match)
    assert decided[-1][0].decision == TRUMP
    callers = {view.seat for view, _ in decided}
    assert len(decided) > len(callers)  # seats called more than once …
    assert sorted(searched) == sorted(callers)  # … and each searched once


@pytest.mark.parametrize(("variant_id", "deal_seed"), [("classic", 10), ("six-handed", 0)])
def test_a_cached_bid_analysis_answers_as_a_fresh_search_would(variant_id, deal_seed):
    clear_analyses()
    warm = auction_by_fresh_bots(variant_id, deal_seed)
    for view, choice in warm:
        clear_analyses()
        bot = ExpertBot(view.seat, random.Random(999), analysis_seed=f"7:{view.seat}", **QUICK)
        assert bot.evaluate(view) == choice


def test_practice_seeds_a_bots_analysis_by_the_hand_and_seat_not_the_moves_so_far():
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 0, random.Random(3))
    before = practice_bots("expert", 5, state)
    state.push(None if None in state.legal() else state.legal()[-1])
    after = practice_bots("expert", 5, state)
    seeds = {seat: bot.analysis_seed for seat, bot in before.items() if isinstance(bot, ExpertBot)}
    assert seeds == {seat: bot.analysis_seed for seat, bot in after.items() if isinstance(bot, ExpertBot)}
    assert len(set(seeds.values())) == variant.seats - 1
    later = practice_bots("expert", 5, replace(state, hand_number=1))[1]
    assert isinstance(later, ExpertBot)
    assert later.analysis_seed != seeds[1]


HAND = "AS TS KS QS JS AH TH KH QH 9D JC 9C"  # a spade run, a heart marriage with A-10; no more
TWIN_HAND = "AS TS KS QS 9S AH TH KH QH 9H JC 9C"  # spades and hearts alike, diamonds and clubs worse


def test_a_bid_analysis_simulates_the_suit_the_heuristic_values_most_and_another_only_if_close():
    variant = get_variant("classic")
    p = profile_of(variant, variant.defaults)
    assert analysed_trumps(parse_cards(TWIN_HAND), p) == (SPADES, HEARTS)  # not clubs, third
    # The run puts spades 11 points (over half a least bid of 20) ahead of hearts.
    assert analysed_trumps(parse_cards(HAND), p) == (SPADES,)


def test_a_suit_left_out_of_an_analysis_changes_nothing_the_other_suit_was_simulated_on():
    # Why leaving a far second suit out is safe: the kept suit's deals and outcomes are the same.
    variant = get_variant("classic")
    p = profile_of(variant, variant.defaults)
    view = replace(after_auction("bid", TWIN_HAND, seat=1), bidder=None, bid=None, auction=())
    both, alone = (
        ExpertBot(1, random.Random(3), **QUICK)._analysis(view, p, float("inf"), trumps, bidder=1)
        for trumps in ((SPADES, HEARTS), (SPADES,))
    )
    assert alone.deals == both.deals
    assert alone.outcomes[SPADES] == both.outcomes[SPADES]
    assert set(alone.outcomes) == {SPADES}


def test_a_review_still_weighs_a_trump_the_bid_analysis_left_out():
    view = after_auction("trump", TWIN_HAND, seat=1, legal=(0, 1, 2, 3))
    plain = ExpertBot(1, random.Random(1), **QUICK).evaluate(view)
    assert plain.answer in (SPADES, HEARTS)
    assert set(plain.values) == {SPADES, HEARTS}
    weighed = ExpertBot(1, random.Random(1), **QUICK).evaluate(view, also=CLUBS)
    assert set(weighed.values) == {SPADES, HEARTS, DIAMONDS, CLUBS}
    assert weighed.values[CLUBS] < weighed.values[weighed.answer]
