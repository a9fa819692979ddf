"""engine/habits.py on planted hands: each habit is seen when shown, and only when it had a chance."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scorepad.engine.cards import HEARTS, parse_cards
from scorepad.engine.game import HandResult, HandState, deal_hands
from scorepad.engine.habits import Habit, Sighting, Tally, raises_over_opponents, set_by_a_third, sightings
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
    bid: int | None = None,
    auction: Sequence[tuple[int, int | None]] = (),
    meld: Sequence[int] | None = None,
    points: Sequence[int] | None = None,
    took: Sequence[bool] | None = None,
    played: bool = True,
) -> HandState:
    """A hand seat 0 bid and ended, planted field by field: only what the detectors read (meld per
    seat, trick points and tricks taken per side: none unless given)."""
    variant = get_variant(variant_id)
    state = deal_hands(variant, variant.defaults, variant.seats - 1, [parse_cards(h) for h in hands])
    state.bidder, state.bid, state.trump = 0, bid or variant.defaults.min_bid + 10, trump
    state.auction = list(auction)
    state.passes = [(giver, to, tuple(parse_cards(cards))) for giver, to, cards in passes]
    state.tricks = [Trick(leader, tuple(parse_cards(cards)), winner) for leader, cards, winner in tricks]
    sides = len(variant.sides)
    state.meld = tuple(meld) if meld is not None else (0,) * variant.seats
    state.points = list(points) if points is not None else [0] * sides
    state.took_trick = list(took) if took is not None else [p > 0 for p in state.points]
    state.result = HandResult((0,) * sides, (0,) * sides, made=made, played=played, winners=())
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


def set_by_a_third_seen(variant_id: str, bid: int, **fields: object) -> list[tuple[int, bool]]:
    hands = ["AH KH QH JH", *["9S"] * (get_variant(variant_id).seats - 1)]
    return seen(ended(variant_id, hands, bid=bid, made=False, **fields), Habit.SET_BY_A_THIRD)


def test_a_contract_set_by_exactly_a_third_of_its_bid_is_not_set_by_more():
    # classic 21: meld 4 + 10 in tricks = 14 falls short by 7, exactly a third; 13 by 8, more.
    assert set_by_a_third_seen("classic", 21, meld=(4, 0, 0, 0), points=(10, 15)) == [(0, False)]
    assert set_by_a_third_seen("classic", 21, meld=(4, 0, 0, 0), points=(9, 16)) == [(0, True)]
    # the partner's meld counts for the side: 2 + 2 + 10 = 14 again
    assert set_by_a_third_seen("classic", 21, meld=(2, 0, 2, 0), points=(10, 15)) == [(0, False)]
    assert set_by_a_third(bid=30, counted=20) is False
    assert set_by_a_third(bid=30, counted=19) is True


def test_what_a_side_counts_towards_its_bid_follows_the_variants_scoring():
    # classic: no trick, no meld (§1.7): meld 24 and no trick counts 0 of 30, set by all of it …
    assert set_by_a_third_seen("classic", 30, meld=(24, 0, 0, 0), points=(0, 25), took=(False, True)) == [
        (0, True)
    ]
    # … while one trick worth nothing keeps the meld: 24 of 30, short by 6
    assert set_by_a_third_seen("classic", 30, meld=(24, 0, 0, 0), points=(0, 25), took=(True, True)) == [
        (0, False)
    ]
    # double-deck: under 20 in tricks nothing counts (§2.8), though meld 60 + 15 would reach 70
    assert set_by_a_third_seen("double-deck", 70, meld=(60, 0, 0, 0), points=(15, 35)) == [(0, True)]
    assert set_by_a_third_seen("double-deck", 70, meld=(30, 0, 0, 0), points=(20, 30)) == [(0, False)]
    # double-deck meld under 20: a forfeit, not played (§2.5); nothing counts
    assert set_by_a_third_seen("double-deck", 60, meld=(10, 0, 8, 0), played=False) == [(0, True)]
    # six-handed: the bidder alone counts; 10-point steps (bid 60: short by 20 is a third exactly)
    six = {"meld": (20, 0, 0, 0, 0, 0), "points": (20, 40, 40, 40, 50, 50)}
    assert set_by_a_third_seen("six-handed", 60, **six) == [(0, False)]
    assert set_by_a_third_seen("six-handed", 70, **six) == [(0, True)]


def test_a_made_contract_is_never_set_by_a_third_and_a_forced_dealers_is_no_chance():
    assert set_by_a_third_seen("classic", 21, meld=(10, 0, 0, 0), points=(11, 14)) == [(0, False)]
    forced = [(1, None), (2, None), (3, None), (0, 20)]  # seat 3 dealt: seat 0 is the dealer here
    state = ended("classic", ["AH", "9S", "9C", "9D"], bid=20, auction=forced, made=False, points=(0, 25))
    state.dealer = 0
    assert seen(state, Habit.SET_BY_A_THIRD) == []
    assert seen(state, Habit.RAISE_WAR) == []


def raise_war_seen(variant_id: str, auction: Sequence[tuple[int, int | None]]) -> list[tuple[int, bool]]:
    hands = ["AH KH QH JH", *["9S"] * (get_variant(variant_id).seats - 1)]
    state = ended(variant_id, hands, bid=auction[-1][1] or 0, auction=auction, meld=None)
    return seen(state, Habit.RAISE_WAR)


def test_three_raises_over_an_opponent_make_a_raise_war_and_two_do_not():
    # seat 0 opens (no raise), then tops seat 1's bid each time: 22, 24, 26 are three raises
    three = [(0, 20), (1, 21), (2, None), (3, None), (0, 22), (1, 23), (0, 24), (1, 25), (0, 26), (1, None)]
    assert raise_war_seen("classic", [*three[:-1], (1, None)]) == [(0, True)]
    two = [(0, 20), (1, 21), (2, None), (3, None), (0, 22), (1, 23), (0, 24), (1, None)]
    assert raise_war_seen("classic", two) == [(0, False)]
    assert raises_over_opponents(get_variant("classic"), three, 0) == 3
    assert raises_over_opponents(get_variant("classic"), three, 1) == 3  # the loser raised as often


def test_a_bid_over_a_partners_bid_is_no_raise_against_an_opponent():
    # seat 0 tops its partner (seat 2) at 23 and 26, then seat 1 at 28 and 30: four bids over
    # another seat, two of them over an opponent
    auction = [(0, 20), (1, 21), (2, 22), (3, None), (0, 23), (1, 24), (2, 25), (0, 26), (1, 27), (2, None)]
    auction += [(0, 28), (1, 29), (0, 30), (1, None)]
    assert raises_over_opponents(get_variant("classic"), auction, 0) == 2
    assert raise_war_seen("classic", auction) == [(0, False)]


def test_in_six_handed_every_other_seat_is_an_opponent():
    auction = [(0, 50), (1, 60), (2, 70), (3, None), (4, None), (5, None), (0, 80), (1, 90), (2, None)]
    auction += [(0, 100), (1, 110), (0, 120), (1, None)]
    assert raises_over_opponents(get_variant("six-handed"), auction, 0) == 3  # over 2, 1 and 1
    assert raise_war_seen("six-handed", auction) == [(0, True)]


def test_a_tally_gives_each_rate_with_its_sample():
    tally = Tally()
    for shown in (True, False, False, False):
        tally.add(Sighting(0, Habit.COUNTER_THROWN, shown))
    assert tally.to_json()["counter_thrown"] == {"rate": 0.25, "shown": 1, "of": 4}
    assert tally.to_json()["junk_pass"] == {"rate": None, "shown": 0, "of": 0}
