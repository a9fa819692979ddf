"""What the other seats' calls and passes say about their hands: the weights the expert puts on
its sampled deals (``bots.inference``), and their use in its sampling."""

from __future__ import annotations

import random
import statistics

from scorepad.engine.bots.analysis import worth_on
from scorepad.engine.bots.expert import ExpertBot, Reading
from scorepad.engine.bots.heuristic import choose_pass, profile_of
from scorepad.engine.bots.inference import (
    PASS_MISS,
    as_dealt,
    call_likelihood,
    pass_likelihood,
    systematic_resample,
    weighted_pick,
)
from scorepad.engine.cards import CARD_COUNT, HEARTS, codes, counts_of, parse_cards
from scorepad.engine.knowledge import knowledge_of
from scorepad.engine.search import PassingSeat
from scorepad.engine.view import SeatView
from tests.engine.test_bots import make_view

P = profile_of(make_view().variant, make_view().settings)


def bidding_view(auction: tuple[tuple[int, int | None], ...]) -> SeatView:
    """Seat 3 of `classic` to call, seat 3 dealt (so seat 0 called first)."""
    return make_view(decision="bid", hand="AS", seat=3, dealer=3, auction=auction, legal=(None, 31))


def test_a_hand_that_explains_a_bid_weighs_more_than_one_that_contradicts_it() -> None:
    view = bidding_view(((0, 30), (1, None), (2, None)))
    strong = call_likelihood(view, {0: 40.0, 1: 15.0, 2: 15.0}.__getitem__, P)
    weak = call_likelihood(view, {0: 15.0, 1: 15.0, 2: 15.0}.__getitem__, P)
    assert strong > 0.5
    assert weak < strong / 100


def test_a_pass_is_explained_by_a_weak_hand_and_not_by_a_strong_one() -> None:
    view = bidding_view(((0, 20), (1, None), (2, None)))
    weak_passer = call_likelihood(view, {0: 30.0, 1: 12.0, 2: 12.0}.__getitem__, P)
    strong_passer = call_likelihood(view, {0: 30.0, 1: 40.0, 2: 12.0}.__getitem__, P)
    assert weak_passer > 10 * strong_passer


def test_a_forced_dealers_bid_and_this_seats_own_calls_say_nothing() -> None:
    forced = make_view(
        decision="bid", hand="AS", seat=1, dealer=0, auction=((1, None), (2, None), (3, None), (0, 20))
    )
    assert call_likelihood(forced, {2: 0.0, 3: 0.0, 0: 0.0}.__getitem__, P, since=3) == 1.0
    own = bidding_view(((3, 20),))
    assert call_likelihood(own, {}.__getitem__, P) == 1.0


def test_later_calls_alone_are_read_when_asked() -> None:
    view = bidding_view(((0, 30), (1, None), (2, None)))
    everything = call_likelihood(view, {0: 10.0, 1: 15.0, 2: 15.0}.__getitem__, P)
    since_the_bid = call_likelihood(view, {0: 10.0, 1: 15.0, 2: 15.0}.__getitem__, P, since=1)
    assert since_the_bid > 100 * everything


def hands_of(*seats: str) -> list[list[int]]:
    return [list(counts_of(parse_cards(cards))) for cards in seats]


def bidder_passing(received: str) -> SeatView:
    """Seat 1 won the auction at 25 with hearts trump; its partner (seat 3) has passed ``received``."""
    return make_view(
        decision="pass",
        hand="KH QH JS JS QS QD JD 9D KC QC JC 9C " + received,
        seat=1,
        dealer=0,
        auction=((1, 25), (2, None), (3, None), (0, None)),
        bidder=1,
        bid=25,
        trump=HEARTS,
        received=tuple(parse_cards(received)),
        pass_count=4,
    )


def test_the_partners_pass_weighs_a_hand_it_would_come_from_over_one_it_would_not() -> None:
    view = bidder_passing("AH TH AS AC")
    mine = "KH QH JS JS QS QD JD 9D KC QC JC 9C AH TH AS AC"
    # The partner kept no heart and no ace: passing its two trumps and two aces is what it would do.
    fits = as_dealt(view, hands_of("", mine, "", "KS KS QS 9S KD KD TC TC"), [[0] * CARD_COUNT] * 4)
    # It kept the other ace of trump yet passed the ace of spades: not the heuristic's pass.
    misfits = as_dealt(view, hands_of("", mine, "", "AH KS QS 9S KD KD TC TC"), [[0] * CARD_COUNT] * 4)
    assert sum(fits[3]) == sum(misfits[3]) == 12  # the pass undone: the partner's hand as dealt
    assert pass_likelihood(view, fits, P) == 1.0
    assert pass_likelihood(view, misfits, P) < 0.5


def test_no_pass_seen_weighs_nothing() -> None:
    view = make_view(decision="play", hand="AS")
    assert pass_likelihood(view, hands_of("AS", "", "", ""), P) == 1.0


def test_weighted_picks_and_resamples_follow_the_weights_and_the_seed() -> None:
    weights = [0.0, 1.0, 3.0]
    picks = [weighted_pick(weights, random.Random(seed)) for seed in range(400)]
    assert 0 not in picks
    assert 250 < picks.count(2) < 350
    assert picks == [weighted_pick(weights, random.Random(seed)) for seed in range(400)]
    assert weighted_pick([0.0, 0.0], random.Random(1)) == 0
    resampled = systematic_resample([0.0, 1.0, 3.0, 0.0], random.Random(7))
    assert sorted(resampled) == [1, 2, 2, 2]
    assert systematic_resample([0.0, 0.0], random.Random(7)) == [0, 1]


def sampled_worth(reading: Reading, seat: int) -> float:
    """Mean worth of ``seat``'s hand over the deals the expert samples for seat 3's call after seat
    0 bid 30 and seats 1 and 2 passed."""
    view = make_view(
        decision="bid",
        hand="AS TS KS QS JS 9H 9H JD 9D JC 9C 9C",
        seat=3,
        dealer=3,
        auction=((0, 30), (1, None), (2, None)),
        legal=(None, 31),
    )
    bot = ExpertBot(3, random.Random(1), playouts=200, budget_ms=60_000.0, reading=reading)
    deals = bot._deals(view, knowledge_of(view), P, 200, deadline=float("inf"))
    return statistics.fmean(worth_on(hands, P)(seat) for hands in deals)


def test_the_expert_samples_a_bidder_stronger_and_a_passer_weaker_where_it_reads_the_calls() -> None:
    at_random = Reading(calls="none")
    for reading in (Reading(calls="soft"), Reading(calls="hard")):
        assert sampled_worth(reading, 0) > sampled_worth(at_random, 0) + 2
        assert sampled_worth(reading, 1) < sampled_worth(at_random, 1)


def test_the_partner_reads_the_bidders_return_from_the_bidders_hand_before_it() -> None:
    sent = "AH TH AS AC"  # what the partner (seat 3) passed to the bidder (seat 1)
    bidder_dealt = "KH QH JS JS QS QD JD 9D KC QC JC 9C"
    before_return = tuple(parse_cards(bidder_dealt + " " + sent))
    model = choose_pass(PassingSeat(1, before_return, 1, HEARTS, 4), P)
    other = tuple(c for c in before_return if c not in model)[:4]  # four it would have kept
    for returned, weight in ((model, 1.0), (other, PASS_MISS**-4)):
        view = make_view(
            decision="play",
            hand="KS KS QS 9S KD KD TC TC " + " ".join(codes(returned)),
            seat=3,
            dealer=0,
            auction=((1, 25), (2, None), (3, None), (0, None)),
            bidder=1,
            bid=25,
            trump=HEARTS,
            passed=tuple(parse_cards(sent)),
            received=tuple(returned),
        )
        kept = list(counts_of(before_return))
        for c in returned:
            kept[c] -= 1
        hands = [[0] * CARD_COUNT, kept, [0] * CARD_COUNT, list(counts_of(view.hand))]
        dealt = as_dealt(view, hands, [[0] * CARD_COUNT] * 4)
        assert dealt[1] == list(counts_of(parse_cards(bidder_dealt)))  # the bidder's hand as dealt
        assert sum(dealt[3]) == 12
        assert pass_likelihood(view, dealt, P) == weight
