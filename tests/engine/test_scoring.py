"""Hand scoring and game end: every example of RULES.md §6, the rules of §1.7–1.8, §2.3–2.9,
§3.5–3.7, the §9.3 refusals and the §9.3 → §9.4 example record."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.engine.scoring import (
    HandEntry,
    HandScore,
    RecordError,
    dealer_for_hand,
    next_dealer,
    parse_record,
    score_game,
    score_hand,
    score_record,
    validate_hand,
    winners_after_hand,
)
from scorepad.engine.variants import CLASSIC, DOUBLE_DECK, SIX_HANDED, get_variant


def entry(**fields: Any) -> HandEntry:
    return HandEntry.from_json(fields, 0)


def score(variant_id: str, settings: dict[str, Any] | None = None, **fields: Any) -> HandScore:
    """Score one hand, checking first that it is a valid record (every example here must be)."""
    variant = get_variant(variant_id)
    rules = variant.settings(settings)
    hand = entry(**fields)
    assert validate_hand(variant, rules, hand) == []
    return score_hand(variant, rules, hand)


def problems(variant_id: str, settings: dict[str, Any] | None = None, **fields: Any) -> list[tuple[str, str]]:
    """Each refusal as (field, the record's wording)."""
    variant = get_variant(variant_id)
    return [(p.field, p.message) for p in validate_hand(variant, variant.settings(settings), entry(**fields))]


def six(**values: int) -> list[int]:
    """A six-handed per-player list: six(p0=45, p1=195) -> [45, 195, 0, 0, 0, 0]."""
    return [values.get(f"p{seat}", 0) for seat in range(6)]


# --- §6 classic (bid 30 by N/S, side 0) and §1.7 -------------------------------------------


def test_classic_a_bidders_make_31_and_score_all_of_it_opponents_score_meld_and_counters():
    result = score("classic", bidder=0, bid=30, trump="H", meld=[18, 9], tricks=[13, 12])
    assert result.scores == (31, 21)
    assert result.made
    assert result.played
    assert result.reasons == ("made 31 of 30", "meld 9 + 12 in tricks = 21")


def test_classic_b_bidders_short_lose_the_bid_opponents_still_score():
    result = score("classic", bidder=0, bid=30, trump="H", meld=[18, 9], tricks=[10, 15])
    assert result.scores == (-30, 24)
    assert not result.made
    assert result.reasons[0] == "set: 28 is short of 30"


def test_classic_c_opponents_without_a_trick_lose_their_meld():
    result = score("classic", bidder=0, bid=30, trump="H", meld=[18, 14], tricks=[25, 0])
    assert result.scores == (43, 0)
    assert result.reasons[1] == "took no trick: meld lost"


def test_classic_bidders_without_a_trick_lose_their_meld_and_go_set():
    # Meld 40 alone would make a bid of 20; without a trick it does not count (§1.7, both sides).
    result = score("classic", bidder=1, bid=20, trump="S", meld=[0, 40], tricks=[25, 0])
    assert result.scores == (25, -20)
    assert result.reasons[1] == "took no trick: meld lost; set: 0 is short of 20"


def test_classic_side_with_a_pointless_trick_keeps_its_meld_when_took_trick_says_so():
    result = score(
        "classic", bidder=0, bid=30, trump="H", meld=[18, 14], tricks=[25, 0], took_trick=[True, True]
    )
    assert result.scores == (43, 14)


def test_classic_bid_made_exactly_scores_the_bid():
    assert score("classic", bidder=2, bid=31, trump="D", meld=[18, 0], tricks=[13, 12]).scores == (31, 12)


def test_set_penalty_double_bid_costs_twice_the_bid():
    result = score(
        "classic", {"set_penalty": "double_bid"}, bidder=0, bid=30, trump="H", meld=[18, 9], tricks=[10, 15]
    )
    assert result.scores == (-60, 24)
    assert result.reasons[0] == "set: 28 is short of 30, losing 60"


def test_classic_partner_seat_bids_for_the_same_side():
    by_north = score("classic", bidder=0, bid=30, trump="H", meld=[18, 9], tricks=[13, 12])
    by_south = score("classic", bidder=2, bid=30, trump="H", meld=[18, 9], tricks=[13, 12])
    assert by_north == by_south


def test_meld_requires_trick_off_lets_a_trickless_side_keep_its_meld():
    result = score(
        "classic", {"meld_requires_trick": False}, bidder=0, bid=30, trump="H", meld=[18, 14], tricks=[25, 0]
    )
    assert result.scores == (43, 14)


# --- §6 double-deck and §2.3, §2.5, §2.7, §2.8 --------------------------------------------


def test_double_deck_a_opponents_meld_under_20_is_void_but_their_20_trick_points_count():
    result = score("double-deck", bidder=0, bid=60, trump="S", meld=[32, 18], tricks=[30, 20])
    assert result.scores == (62, 20)
    assert result.reasons == ("made 62 of 60", "meld void: under 20; 20 in tricks")


def test_double_deck_b_bidders_under_20_trick_points_are_set_even_past_the_bid():
    # Mb 45 + Tb 18 = 63 is past the bid of 60, but Tb < 20 scores nothing (§2.8).
    result = score("double-deck", bidder=1, bid=60, trump="S", meld=[24, 45], tricks=[32, 18])
    assert result.scores == (56, -60)
    assert result.reasons[1] == "set: 18 in tricks is under 20"


def test_double_deck_c_bidders_meld_under_20_forfeit_without_play():
    result = score("double-deck", bidder=0, bid=55, trump="C", meld=[16, 22], tricks=None)
    assert result.scores == (-55, 22)
    assert not result.played
    assert not result.made
    assert result.reasons[0] == "forfeit: meld 16 is under 20"


def test_double_deck_d_opponents_under_20_trick_points_score_nothing_even_with_meld_40():
    result = score("double-deck", bidder=0, bid=65, trump="H", meld=[30, 40], tricks=[31, 19])
    assert result.scores == (-65, 0)
    assert result.reasons == ("set: 61 is short of 65", "under 20 in tricks: nothing scores")


def test_double_deck_opponents_meld_counts_without_the_trick_rule_of_single_deck():
    # meld_requires_trick is off in double-deck: the rule of 20 decides (To >= 20 and Mo >= 20).
    result = score(
        "double-deck", bidder=0, bid=50, trump="H", meld=[30, 20], tricks=[30, 20], took_trick=[True, True]
    )
    assert result.scores == (60, 40)


def test_double_deck_no_marriage_loses_the_bid_and_opponents_score_meld_of_20_or_more():
    result = score("double-deck", bidder=2, bid=50, trump=None, meld=[0, 26], tricks=None)
    assert result.scores == (-50, 26)
    assert result.reasons == ("forfeit: no marriage", "meld 26")


def test_double_deck_no_marriage_opponents_meld_under_20_scores_nothing():
    result = score("double-deck", bidder=1, bid=52, trump=None, meld=[19, 0], tricks=None)
    assert result.scores == (0, -52)
    assert result.reasons[0] == "meld void: under 20"


@pytest.mark.parametrize(
    ("forfeit_opponents", "with_meld_26", "with_meld_12"),
    [("nothing", 0, 0), ("meld20", 26, 0), ("meld20+25", 51, 25), ("meld20+50", 76, 50)],
)
def test_forfeit_opponents_setting_decides_what_opponents_get_from_a_forfeit(
    forfeit_opponents, with_meld_26, with_meld_12
):
    rules = {"forfeit_opponents": forfeit_opponents}
    rich = score("double-deck", rules, bidder=0, bid=50, trump=None, meld=[0, 26], tricks=None)
    poor = score("double-deck", rules, bidder=0, bid=50, trump=None, meld=[30, 12], tricks=None)
    assert rich.scores == (-50, with_meld_26)
    assert poor.scores == (-50, with_meld_12)


def test_forfeit_opponents_also_applies_to_the_short_meld_forfeit():
    result = score(
        "double-deck",
        {"forfeit_opponents": "meld20+25"},
        bidder=0,
        bid=55,
        trump="C",
        meld=[16, 22],
        tricks=None,
    )
    assert result.scores == (-55, 47)


def test_a_forfeit_costs_the_bid_even_under_double_bid_set_penalty():
    result = score(
        "double-deck", {"set_penalty": "double_bid"}, bidder=0, bid=55, trump=None, meld=[0, 0], tricks=None
    )
    assert result.scores == (-55, 0)


def test_bidders_short_meld_play_out_plays_for_the_opponents_and_the_bidders_still_forfeit():
    rules = {"bidders_short_meld_play_out": True}
    result = score("double-deck", rules, bidder=0, bid=55, trump="C", meld=[16, 22], tricks=[20, 30])
    assert result.scores == (-55, 52)
    assert result.played
    assert not result.made
    assert result.reasons[0] == "forfeit: meld 16 is under 20"


def test_rule_of_20_off_makes_double_deck_score_like_single_deck_totals():
    rules = {"rule_of_20": None}
    result = score("double-deck", rules, bidder=0, bid=50, trump="H", meld=[16, 10], tricks=[40, 10])
    assert result.scores == (56, 20)


def test_rule_of_20_thresholds_are_read_from_the_setting():
    rules = {"rule_of_20": [30, 10]}
    result = score("double-deck", rules, bidder=0, bid=50, trump="H", meld=[30, 25], tricks=[35, 15])
    assert result.scores == (65, 15)  # opponents' 25 meld is under 30, their 15 points over 10
    assert problems("double-deck", rules, bidder=0, bid=50, trump="H", meld=[25, 40], tricks=[25, 25]) == [
        ("tricks", "must be null: the bidders' meld 25 is under 30, so the hand is not played")
    ]


def test_bidder_may_concede_scores_an_unplayed_hand_as_a_forfeit():
    rules = {"bidder_may_concede": True}
    result = score("double-deck", rules, bidder=0, bid=60, trump="H", meld=[24, 30], tricks=None)
    assert result.scores == (-60, 30)
    assert result.reasons[0] == "conceded: loses the bid"


# --- §6 six-handed and §3.5, §3.6 -----------------------------------------------------------


def test_six_handed_bidder_making_the_bid_scores_meld_and_points():
    result = score("six-handed", bidder=0, bid=120, trump="S", meld=six(p0=110), tricks=six(p0=45, p1=195))
    assert result.scores == (155, 195, 0, 0, 0, 0)
    assert result.made


def test_six_handed_bidder_short_of_the_bid_loses_the_bid():
    result = score("six-handed", bidder=3, bid=100, trump="H", meld=six(p3=60), tricks=six(p3=35, p4=205))
    assert result.scores == (0, 0, 0, -100, 205, 0)


def test_six_handed_non_bidder_with_meld_and_no_trick_scores_nothing():
    result = score(
        "six-handed", bidder=0, bid=50, trump="D", meld=six(p0=40, p2=40), tricks=six(p0=100, p1=140)
    )
    assert result.scores[2] == 0
    assert result.reasons[2] == "took no trick: meld lost"


def test_six_handed_player_with_a_pointless_trick_keeps_meld():
    result = score(
        "six-handed",
        bidder=0,
        bid=50,
        trump="D",
        meld=six(p0=40, p2=40),
        tricks=six(p0=100, p1=140),
        took_trick=[True, True, True, False, False, False],
    )
    assert result.scores[2] == 40


def test_six_handed_last_trick_10_makes_the_hand_worth_250():
    rules = {"last_trick": 10}
    assert problems("six-handed", rules, bidder=0, bid=50, trump="S", meld=six(), tricks=six(p0=250)) == []
    assert problems("six-handed", rules, bidder=0, bid=50, trump="S", meld=six(), tricks=six(p0=240)) == [
        ("tricks", "add up to 240; a hand's trick points add up to 250")
    ]


def test_trick_totals_follow_the_settings():
    assert CLASSIC.trick_points_total(CLASSIC.defaults) == 25
    assert DOUBLE_DECK.trick_points_total(DOUBLE_DECK.defaults) == 50
    assert SIX_HANDED.trick_points_total(SIX_HANDED.defaults) == 240


# --- Game end: §6, §0.7, §1.8, §2.9, §3.7 --------------------------------------------------


def winners(variant_id: str, before, after, bidder_side: int, **settings: Any) -> tuple[int, ...]:
    variant = get_variant(variant_id)
    return winners_after_hand(variant, variant.settings(settings), before, after, bidder_side)


def test_classic_both_reach_the_bidders_win_even_with_the_lower_score():
    assert winners("classic", (140, 130), (160, 165), bidder_side=0) == (0,)


def test_classic_both_reach_with_equal_scores_the_bidders_win():
    assert winners("classic", (140, 130), (155, 155), bidder_side=1) == (1,)


def test_classic_only_the_opponents_reach_so_they_win_while_bidders_are_set():
    assert winners("classic", (145, 140), (115, 152), bidder_side=0) == (1,)


def test_reaching_means_score_at_least_the_target():
    assert winners("classic", (140, 0), (150, 10), bidder_side=0) == (0,)
    assert winners("classic", (140, 0), (149, 10), bidder_side=0) == ()


def test_classic_quick_game_target_50():
    assert winners("classic", (40, 10), (52, 20), bidder_side=0, target=50) == (0,)


def test_double_deck_both_reach_the_higher_score_wins():
    assert winners("double-deck", (470, 480), (530, 540), bidder_side=0) == (1,)


def test_double_deck_bidder_out_lets_the_bidders_win_with_the_lower_score():
    assert winners("double-deck", (470, 480), (530, 540), bidder_side=0, bidder_out=True) == (0,)


def test_double_deck_exact_tie_the_bidders_win():
    assert winners("double-deck", (470, 480), (520, 520), bidder_side=0) == (0,)
    assert winners("double-deck", (470, 480), (520, 520), bidder_side=1) == (1,)


def test_double_deck_tie_break_co_winners_and_play_on():
    assert winners("double-deck", (470, 480), (520, 520), 0, tie_break="co-winners") == (0, 1)
    assert winners("double-deck", (470, 480), (520, 520), 0, tie_break="play_on") == ()


def test_six_handed_the_highest_of_those_who_reached_wins():
    before = (900, 950, 990, 0, 960, 0)
    assert winners("six-handed", before, (900, 960, 1010, 0, 1040, 0), bidder_side=2) == (4,)


def test_six_handed_tie_at_the_top_makes_co_winners_by_default():
    before = (900, 950, 990, 0, 960, 0)
    assert winners("six-handed", before, (900, 960, 1020, 0, 1020, 0), bidder_side=0) == (2, 4)


def test_six_handed_tie_break_bidder_wins_a_tie_only_when_involved():
    after = (900, 960, 1020, 0, 1020, 0)
    assert winners("six-handed", after, after, bidder_side=4, tie_break="bidder") == (4,)
    assert winners("six-handed", after, after, bidder_side=0, tie_break="bidder") == (2, 4)


def test_six_handed_play_on_goes_on_while_the_top_is_tied_and_ends_when_it_breaks():
    assert winners("six-handed", (0,) * 6, (1020, 0, 1020, 0, 0, 0), 1, tie_break="play_on") == ()
    assert winners("six-handed", (0,) * 6, (1020, 0, 1030, 0, 0, 0), 1, tie_break="play_on") == (2,)


def test_six_handed_a_lower_player_past_the_target_does_not_share_the_win():
    after = (1000, 0, 1100, 0, 0, 0)
    assert winners("six-handed", after, after, bidder_side=0) == (2,)


# --- Whole games: §9.3 -> §9.4 -------------------------------------------------------------

RULES_EXAMPLE_RECORD = {
    "variant": "double-deck",
    "settings": {"target": 500, "bidder_out": False},
    "hands": [
        {"bidder": 1, "bid": 55, "trump": "H", "meld": [24, 31], "tricks": [28, 22]},
        {"bidder": 2, "bid": 50, "trump": None, "meld": [0, 26], "tricks": None},
    ],
}
RULES_EXAMPLE_SCORED = {
    "variant": "double-deck",
    "hands": [
        {"scores": [52, -55], "totals": [52, -55], "made": False, "played": True},
        {"scores": [-50, 26], "totals": [2, -29], "made": False, "played": False},
    ],
    "totals": [2, -29],
    "finished": False,
    "winners": [],
}


def test_the_rules_example_record_scores_exactly_as_section_9_4_shows():
    assert score_record(RULES_EXAMPLE_RECORD) == RULES_EXAMPLE_SCORED


def test_hand_entries_round_trip_through_json():
    _, _, entries = parse_record(RULES_EXAMPLE_RECORD)
    assert [hand.to_json() for hand in entries] == RULES_EXAMPLE_RECORD["hands"]


def quick_classic_game(*extra_hands: dict[str, Any]) -> dict[str, Any]:
    """Classic to 50: 45–30 after hand 1; hand 2 takes both past 50 with side 1 bidding."""
    return {
        "variant": "classic",
        "settings": {"target": 50},
        "hands": [
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [30, 20], "tricks": [15, 10]},
            {"bidder": 1, "bid": 20, "trump": "H", "meld": [0, 10], "tricks": [10, 15]},
            *extra_hands,
        ],
    }


def test_game_ends_after_the_hand_that_reaches_the_target_and_names_the_winners():
    scored = score_record(quick_classic_game())
    assert [hand["totals"] for hand in scored["hands"]] == [[45, 30], [55, 55]]
    assert scored["finished"] is True
    assert scored["winners"] == [1]  # both reached in the same hand: the bidders win (§1.8)


def test_a_hand_after_the_game_was_won_is_refused():
    late = {"bidder": 2, "bid": 20, "trump": "C", "meld": [0, 0], "tricks": [20, 5]}
    with pytest.raises(RecordError) as refused:
        score_record(quick_classic_game(late))
    assert str(refused.value) == "hand 3: the game was already won by side 1 after hand 2"
    assert refused.value.hand == 2


def test_a_game_with_no_hands_is_level_and_goes_on():
    assert score_record({"variant": "six-handed", "hands": []}) == {
        "variant": "six-handed",
        "hands": [],
        "totals": [0] * 6,
        "finished": False,
        "winners": [],
    }


def test_score_game_keeps_each_hand_with_its_entry_score_and_totals():
    variant, rules, entries = parse_record(quick_classic_game())
    game = score_game(variant, rules, entries)
    assert game.hands[1].entry == entries[1]
    assert game.hands[1].score.scores == (10, 25)
    assert game.totals == (55, 55)
    assert game.winners == (1,)


# --- §9.3 refusals ------------------------------------------------------------------------


def refusal(record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as refused:
        score_record(record)
    return refused.value


def one_bad_hand(variant_id: str, second_hand: dict[str, Any], settings: dict[str, Any] | None = None):
    """A record whose second hand is ``second_hand``, after a valid first hand."""
    first = {
        "classic": {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [20, 5]},
        "double-deck": {"bidder": 0, "bid": 50, "trump": "S", "meld": [30, 0], "tricks": [30, 20]},
        "six-handed": {"bidder": 0, "bid": 50, "trump": "S", "meld": six(), "tricks": six(p0=240)},
    }[variant_id]
    return {"variant": variant_id, "settings": settings or {}, "hands": [first, second_hand]}


@pytest.mark.parametrize(
    ("variant_id", "hand", "message"),
    [
        (
            "six-handed",
            {"bidder": 1, "bid": 45, "trump": "S", "meld": six(), "tricks": six(p1=240)},
            "hand 2: bid: 45 is under the minimum bid of 50",
        ),
        (
            "six-handed",
            {"bidder": 1, "bid": 55, "trump": "S", "meld": six(), "tricks": six(p1=240)},
            "hand 2: bid: 55 is off the increment: bids go 50, 60, 70 …",
        ),
        (
            "classic",
            {"bidder": 4, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [20, 5]},
            "hand 2: bidder: seat 4 is out of range: seats are 0 to 3",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [10, -2], "tricks": [20, 5]},
            "hand 2: meld: side 1 has -2; it cannot be negative",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [10, 2], "tricks": [20, 6]},
            "hand 2: tricks: add up to 26; a hand's trick points add up to 25",
        ),
        (
            "six-handed",
            {"bidder": 0, "bid": 50, "trump": "S", "meld": six(p0=35), "tricks": six(p0=240)},
            "hand 2: meld: side 0 has 35; meld comes in tens",
        ),
        (
            "six-handed",
            {"bidder": 0, "bid": 50, "trump": "S", "meld": six(), "tricks": six(p0=237, p1=3)},
            "hand 2: tricks: side 0 has 237; trick points come in fives",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0, 0], "tricks": [20, 5]},
            "hand 2: meld: has 3 entries; give one per side (2)",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [25]},
            "hand 2: tricks: has 1 entries; give one per side (2)",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [30, -5]},
            "hand 2: tricks: side 1 has -5; it cannot be negative",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": None, "meld": [0, 0], "tricks": [20, 5]},
            "hand 2: trump: missing: the bidder names a trump suit every hand under these rules",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": None},
            "hand 2: tricks: missing: the hand is played, so give each side's points (adding up to 25)",
        ),
        (
            "double-deck",
            {"bidder": 1, "bid": 50, "trump": None, "meld": [0, 26], "tricks": [25, 25]},
            "hand 2: tricks: must be null: the bidder has no marriage, so the hand is not played",
        ),
        (
            "double-deck",
            {"bidder": 1, "bid": 50, "trump": "H", "meld": [0, 16], "tricks": [25, 25]},
            "hand 2: tricks: must be null: the bidders' meld 16 is under 20, so the hand is not played",
        ),
        (
            "classic",
            {
                "bidder": 0,
                "bid": 20,
                "trump": "S",
                "meld": [0, 0],
                "tricks": [20, 5],
                "took_trick": [True, False],
            },
            "hand 2: took_trick: side 1 has 5 trick points, so it took a trick",
        ),
        (
            "classic",
            {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [20, 5], "took_trick": [True]},
            "hand 2: took_trick: has 1 entries; give one per side (2)",
        ),
        (
            "double-deck",
            {
                "bidder": 1,
                "bid": 50,
                "trump": None,
                "meld": [0, 26],
                "tricks": None,
                "took_trick": [True, True],
            },
            "hand 2: took_trick: given for a hand that was not played (tricks is null)",
        ),
    ],
)
def test_invalid_hands_are_refused_naming_the_hand_and_the_field(variant_id, hand, message):
    refused = refusal(one_bad_hand(variant_id, hand))
    assert str(refused) == message
    assert refused.hand == 1
    assert refused.field == message.split(": ")[1]


def test_bid_increment_1_below_60_then_5_is_explained():
    rules = {"bid_increment": "1 below 60, then 5"}
    hand = {"bidder": 0, "bid": 62, "trump": "S", "meld": [30, 0], "tricks": [30, 20]}
    assert str(refusal(one_bad_hand("double-deck", hand, rules))) == (
        "hand 2: bid: 62 is off the increment: bids go up by 1 below 60, then by 5"
    )


def test_validate_hand_lists_every_problem_for_the_form():
    found = problems("six-handed", bidder=7, bid=45, trump="S", meld=six(p0=-10, p1=15), tricks=six(p0=235))
    assert [field for field, _ in found] == ["bid", "bidder", "meld", "meld", "tricks"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "a record must be a JSON object with variant, settings and hands"),
        ({"hands": []}, "variant: missing"),
        (
            {"variant": "pinochle", "hands": []},
            "variant: unknown variant 'pinochle': use classic, double-deck, six-handed",
        ),
        (
            {"variant": "classic", "settings": {"target": 0}, "hands": []},
            "settings: target must be above 0; got 0",
        ),
        (
            {"variant": "classic", "settings": {"tagret": 100}, "hands": []},
            "settings: unknown setting 'tagret'",
        ),
        (
            {"variant": "classic", "settings": [], "hands": []},
            "settings: must be an object of house-rule keys (§4); got []",
        ),
        ({"variant": "classic"}, "hands: must be a list of hand objects; got None"),
        ({"variant": "classic", "hands": {}}, "hands: must be a list of hand objects; got {}"),
        (
            {"variant": "classic", "hands": [], "winner": 0},
            "unknown field 'winner': a record has variant, settings, hands",
        ),
    ],
)
def test_invalid_records_are_refused_naming_the_field(record, message):
    refused = refusal(record)
    assert str(refused) == message
    assert refused.hand is None


VALID_CLASSIC_HAND = {"bidder": 0, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [20, 5]}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bid": "20"}, "bid: must be a whole number; got '20'"),
        ({"bid": 20.5}, "bid: must be a whole number; got 20.5"),
        ({"bidder": True}, "bidder: must be a whole number; got True"),
        ({"trump": 1}, "trump: must be a suit (S, H, D or C) or null; got 1"),
        ({"trump": "X"}, "trump: unknown suit 'X': use S, H, D or C"),
        ({"meld": 12}, "meld: must be a list of whole numbers, one per side; got 12"),
        ({"tricks": [20, "5"]}, "tricks: must be a list of whole numbers, one per side; got [20, '5']"),
        ({"took_trick": [1, 1]}, "took_trick: must be a list of true/false, one per side; got [1, 1]"),
        ({"trick": [1]}, "unknown field 'trick': a hand has bidder, bid, trump, meld, tricks, took_trick"),
        ({"tricks": ...}, "tricks: missing"),
    ],
)
def test_hands_with_wrong_fields_or_types_are_refused(changes, message):
    hand = {key: value for key, value in {**VALID_CLASSIC_HAND, **changes}.items() if value is not ...}
    refused = refusal({"variant": "classic", "hands": [hand]})
    assert str(refused) == f"hand 1: {message}"
    assert refused.hand == 0


def test_a_hand_that_is_not_an_object_is_refused():
    refused = refusal({"variant": "classic", "hands": [VALID_CLASSIC_HAND, "bid 20"]})
    assert str(refused) == "hand 2: must be an object with bidder, bid, trump, meld and tricks"
    assert refused.hand == 1


def test_trump_accepts_lower_case_and_suit_symbols():
    assert entry(bidder=0, bid=20, trump="♥", meld=[0, 0], tricks=[20, 5]).trump == 1
    assert entry(bidder=0, bid=20, trump="d", meld=[0, 0], tricks=[20, 5]).to_json()["trump"] == "D"


# --- §8 dealer ----------------------------------------------------------------------------


def test_the_deal_passes_left_each_hand():
    assert [dealer_for_hand(CLASSIC, 3, hand) for hand in range(5)] == [3, 0, 1, 2, 3]
    assert [dealer_for_hand(SIX_HANDED, 4, hand) for hand in range(3)] == [4, 5, 0]
    assert next_dealer(SIX_HANDED, 5) == 0


def test_dealer_for_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="first dealer 4 is not a seat"):
        dealer_for_hand(CLASSIC, 4, 0)


# --- Properties over random valid classic hands ------------------------------------------


@st.composite
def classic_hands(draw: st.DrawFn) -> dict[str, Any]:
    first_side_points = draw(st.integers(0, 25))
    tricks = [first_side_points, 25 - first_side_points]
    took = None
    if draw(st.booleans()):  # a side may take a pointless trick
        took = [points > 0 or draw(st.booleans()) for points in tricks]
    hand = {
        "bidder": draw(st.integers(0, 3)),
        "bid": draw(st.integers(20, 80)),
        "trump": draw(st.sampled_from("SHDC")),
        "meld": [draw(st.integers(0, 60)), draw(st.integers(0, 60))],
        "tricks": tricks,
    }
    if took is not None:
        hand["took_trick"] = took
    return hand


@given(classic_hands(), st.integers(20, 80))
def test_opponents_score_never_depends_on_the_bid_or_whether_it_was_made(hand, other_bid):
    first = score("classic", **hand)
    second = score("classic", **{**hand, "bid": other_bid})
    opponents = 1 - CLASSIC.side_of(hand["bidder"])
    assert first.scores[opponents] == second.scores[opponents]


@given(classic_hands())
def test_bidders_score_all_they_took_or_lose_exactly_the_bid(hand):
    result = score("classic", **hand)
    bidders = CLASSIC.side_of(hand["bidder"])
    if result.made:
        assert result.scores[bidders] >= hand["bid"]
    else:
        assert result.scores[bidders] == -hand["bid"]


@given(classic_hands())
def test_scores_depend_only_on_the_rules_not_the_seat_or_the_trump_suit(hand):
    partner = (hand["bidder"] + 2) % 4
    other_trump = "SHDC"[("SHDC".index(hand["trump"]) + 1) % 4]
    assert score("classic", **hand) == score("classic", **{**hand, "bidder": partner, "trump": other_trump})


@given(st.lists(classic_hands(), max_size=12))
def test_game_totals_are_running_sums_of_the_hand_scores(hands):
    scored = score_record({"variant": "classic", "settings": {"target": 10_000}, "hands": hands})
    running = [0, 0]
    for hand in scored["hands"]:
        running = [total + change for total, change in zip(running, hand["scores"], strict=True)]
        assert hand["totals"] == running
    assert scored["totals"] == running
    assert scored["finished"] is False


@given(
    st.lists(st.integers(-200, 1200), min_size=6, max_size=6),
    st.integers(0, 5),
    st.sampled_from(["co-winners", "bidder", "play_on"]),
)
def test_winners_are_always_sides_at_the_target_and_none_means_the_game_goes_on(after, bidder, tie_break):
    found = winners("six-handed", after, after, bidder, tie_break=tie_break)
    reached = [side for side, total in enumerate(after) if total >= 1000]
    assert set(found) <= set(reached)
    if len(reached) == 1:
        assert found == tuple(reached)
    if found:
        assert len({after[side] for side in found}) == 1  # every co-winner has the same score
