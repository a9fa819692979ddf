"""engine/habits.py on planted hands: each habit is seen when shown, and only when it had a chance."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scorepad.engine.cards import HEARTS, parse_cards
from scorepad.engine.game import HandResult, HandState, deal_hands
from scorepad.engine.habits import Habit, Sighting, Tally, sightings
from scorepad.engine.variants import get_variant
from scorepad.engine.view import Trick


def ended(
    variant_id: str,
    hands: Sequence[str],
    *,
    trump: int = HEARTS,
    passes: Sequence[tuple[int, int, str]] = (),
    tricks: Sequence[tuple[int, str, int]] = (),
    made: bool = True,
) -> HandState:
    """A hand seat 0 bid and ended, planted field by field: only what the detectors read."""
    variant = get_variant(variant_id)
    state = deal_hands(variant, variant.defaults, variant.seats - 1, [parse_cards(h) for h in hands])
    state.bidder, state.bid, state.trump = 0, variant.defaults.min_bid + 10, trump
    state.passes = [(giver, to, tuple(parse_cards(cards))) for giver, to, cards in passes]
    state.tricks = [Trick(leader, tuple(parse_cards(cards)), winner) for leader, cards, winner in tricks]
    sides = len(variant.sides)
    state.result = HandResult((0,) * sides, (0,) * sides, made=made, played=True, winners=())
    state.decision = state.to_act = None
    return state


def seen(state: HandState, habit: Habit) -> list[tuple[int, bool]]:
    return [(s.seat, s.shown) for s in sightings(state) if s.habit == habit]


@pytest.mark.parametrize(
    ("variant_id", "short", "enough"),
    [
        ("classic", "AH TH 9H AS", "AH TH KH 9H"),  # 3 of 12 is short, 4 is not
        ("double-deck", "AH AH TH TH KH", "AH AH TH TH KH KH"),  # 5 of 20, 6
        ("six-handed", "AH TH AS", "AH TH KH"),  # 2 of 8, 3
    ],
)
def test_a_contract_on_a_quarter_of_the_hand_in_trump_or_less_is_short(variant_id, short, enough):
    others = ["9S"] * (get_variant(variant_id).seats - 1)
    assert seen(ended(variant_id, [short, *others]), Habit.SHORT_TRUMP) == [(0, True)]
    assert seen(ended(variant_id, [enough, *others]), Habit.SHORT_TRUMP) == [(0, False)]


def test_a_dealer_forced_to_bid_on_a_short_trump_suit_shows_no_habit():
    state = ended("classic", ["AH TH 9H AS", "9S", "9C", "9D"])
    state.dealer, state.bid = 0, 20
    state.auction = [(1, None), (2, None), (3, None), (0, 20)]
    assert state.settings.all_pass == "dealer_forced"
    assert seen(state, Habit.SHORT_TRUMP) == []
    state.auction = [(1, None), (2, 20), (3, None), (0, 21), (2, None)]  # bid over a partner: chosen
    assert seen(state, Habit.SHORT_TRUMP) == [(0, True)]


def test_every_contract_counts_towards_the_made_rate_of_its_bidder():
    hands = ["AH KH QH JH", "9S", "9C", "9D"]
    assert seen(ended("classic", hands, made=False), Habit.MADE) == [(0, False)]
    assert seen(ended("classic", hands), Habit.MADE) == [(0, True)]


def test_a_partner_passing_junk_while_keeping_an_ace_shows_the_habit():
    partner = "AC 9S 9C JD QD"  # passes the four small cards, keeps the ace of clubs
    state = ended("classic", ["AH", "9S", partner, "9D"], passes=[(2, 0, "9S 9C JD QD"), (0, 2, "AH")])
    assert seen(state, Habit.JUNK_PASS) == [(2, True)]  # the bidder's pass back is no chance


def test_a_partner_passing_its_trumps_and_aces_first_shows_no_habit():
    partner = "AC 9H 9C JD QD"  # passes the ace and the trump, then two small cards: nothing better kept
    state = ended("classic", ["AH", "9S", partner, "9D"], passes=[(2, 0, "AC 9H 9C JD")])
    assert seen(state, Habit.JUNK_PASS) == [(2, False)]


def test_a_defender_leading_trump_into_the_bidders_last_trumps_shows_the_habit():
    hands = ["AH TH AS", "9H KD QC", "9S", "JD"]  # only the bidder and the leader hold trump
    assert seen(ended("classic", hands, tricks=[(1, "9H 9S JD AH", 0)]), Habit.TRUMP_LEAD) == [(1, True)]
    assert seen(ended("classic", hands, tricks=[(1, "KD 9S JD TH", 0)]), Habit.TRUMP_LEAD) == [(1, False)]


def test_a_trump_lead_is_no_habit_while_another_seat_still_holds_trump():
    hands = ["AH TH AS", "9H KD QC", "9S", "JH"]  # the other defender holds a trump
    assert seen(ended("classic", hands, tricks=[(1, "9H 9S JH AH", 0)]), Habit.TRUMP_LEAD) == []


def test_a_trump_lead_is_no_habit_when_the_leader_holds_nothing_else():
    hands = ["AH TH AS", "9H", "9S", "JD"]
    assert seen(ended("classic", hands, tricks=[(1, "9H 9S JD AH", 0)]), Habit.TRUMP_LEAD) == []


def test_a_counter_thrown_onto_the_opponents_trick_shows_the_habit():
    hands = ["AS", "KS 9S", "JS", "QD"]  # seat 1 could follow with the nine
    thrown = ended("classic", hands, tricks=[(0, "AS KS JS QD", 0)])
    kept = ended("classic", hands, tricks=[(0, "AS 9S JS QD", 0)])
    assert seen(thrown, Habit.COUNTER_THROWN) == [(1, True)]  # seat 2 is the winner's partner
    assert seen(kept, Habit.COUNTER_THROWN) == [(1, False)]


def test_a_counter_is_no_habit_on_a_trick_the_own_side_wins_or_when_only_counters_are_legal():
    hands = ["AS", "KS TS 9D", "JS", "QD KD"]
    state = ended("classic", hands, tricks=[(0, "AS KS JS KD", 0)])
    # seat 1 holds only counters in spades; seat 2 is the winner's partner; seat 3 had QD and KD
    assert seen(state, Habit.COUNTER_THROWN) == [(3, True)]


def test_a_tally_gives_each_rate_with_its_sample():
    tally = Tally()
    for shown in (True, False, False, False):
        tally.add(Sighting(0, Habit.COUNTER_THROWN, shown))
    assert tally.to_json()["counter_thrown"] == {"rate": 0.25, "shown": 1, "of": 4}
    assert tally.to_json()["junk_pass"] == {"rate": None, "shown": 0, "of": 0}
