"""The trick winner (RULES.md §0.3) and the legal-play algorithms (§0.4), with RULES' own examples."""

from scorepad.engine.cards import DIAMONDS, HEARTS, SPADES, codes, counts_of, parse_cards
from scorepad.engine.play import (
    PlayRules,
    beats,
    close_trick,
    leads,
    legal_cards,
    legal_plays,
    play_rules,
    trick_winner,
)
from scorepad.engine.variants import get_variant

HEAD_RULES = {"head": True, "overtrump": True, "trump_when_void": True}
FOLLOW_RULES = {"head": False, "overtrump": False, "trump_when_void": True}


def winner(cards: str, trump: int) -> int:
    return trick_winner(parse_cards(cards), trump)


def legal(hand: str, trick: str, trump: int, **rules: bool) -> list[str]:
    """The legal cards for ``hand`` after ``trick`` (winning card by §0.3), as codes."""
    played = parse_cards(trick)
    winning = played[trick_winner(played, trump)]
    return codes(
        legal_plays(counts_of(parse_cards(hand)), played[0] // 6, winning, trump, **(rules or HEAD_RULES))
    )


# -- §0.3 trick winner --------------------------------------------------------------------------


def test_highest_card_of_the_led_suit_wins_an_untrumped_trick():
    assert winner("KD AD TD QD", HEARTS) == 1


def test_any_trump_beats_the_led_suit_and_the_highest_trump_wins():
    assert winner("AD 9H QH KD", HEARTS) == 2


def test_a_card_of_neither_the_led_suit_nor_trump_never_wins():
    assert winner("9D AS AC AH", HEARTS) == 3
    assert winner("9D AS AC TD", HEARTS) == 3
    assert winner("9D AS AC JC", HEARTS) == 0


def test_of_identical_highest_cards_the_first_played_wins():
    assert winner("KS AS AS TS", HEARTS) == 1
    assert winner("AD AH AH", HEARTS) == 1


def test_an_identical_card_does_not_beat_the_winner():
    ace = parse_cards("AS")[0]
    assert not beats(ace, ace, HEARTS)
    assert beats(parse_cards("9H")[0], ace, HEARTS)
    assert not beats(parse_cards("9C")[0], ace, HEARTS)


# -- §0.4 Mode HEAD -----------------------------------------------------------------------------


def test_rules_example_king_led_holding_ace_ten_queen_must_play_ace_or_ten():
    assert legal("AD TD QD AS 9C", "KD", SPADES) == ["AD", "TD"]


def test_following_without_a_higher_card_any_card_of_the_led_suit():
    assert legal("QD JD 9D AS", "KD AD", SPADES) == ["QD", "JD", "9D"]


def test_an_identical_card_is_not_higher_so_it_does_not_satisfy_the_duty_to_head():
    assert legal("AS TS KS", "TS", HEARTS) == ["AS"]
    assert legal("AS KS 9H", "AS", HEARTS) == ["AS", "KS"]


def test_a_trumped_trick_lets_a_follower_play_any_card_of_the_led_suit():
    assert legal("AD QD 9D JH", "KD 9H", HEARTS) == ["AD", "QD", "9D"]


def test_void_in_the_led_suit_must_trump():
    assert legal("JH 9H AS KC", "AD", HEARTS) == ["JH", "9H"]


def test_void_must_overtrump_a_winning_trump_when_possible():
    assert legal("AH JH 9H AS", "AD QH", HEARTS) == ["AH"]


def test_void_must_trump_even_when_it_cannot_win():
    assert legal("JH 9H AS KC", "AD AH", HEARTS) == ["JH", "9H"]


def test_trump_led_must_head_with_a_higher_trump():
    assert legal("AH JH 9H AS", "QH", HEARTS) == ["AH"]


def test_neither_led_suit_nor_trump_any_card():
    assert legal("AS KC 9C", "AD", HEARTS) == ["AS", "KC", "9C"]


def test_without_must_trump_when_void_a_void_hand_may_play_anything():
    rules = {"head": True, "overtrump": True, "trump_when_void": False}
    assert legal("JH AS", "AD", HEARTS, **rules) == ["AS", "JH"]


def test_without_must_overtrump_any_trump_will_do():
    rules = {"head": True, "overtrump": False, "trump_when_void": True}
    assert legal("AH JH AS", "AD QH", HEARTS, **rules) == ["AH", "JH"]


def test_legal_cards_are_distinct():
    assert legal("AD AD TD TD", "KD", SPADES) == ["AD", "TD"]


# -- §0.4 Mode FOLLOW ---------------------------------------------------------------------------


def test_follow_mode_any_card_of_the_led_suit():
    assert legal("AD QD 9D", "KD", SPADES, **FOLLOW_RULES) == ["AD", "QD", "9D"]


def test_follow_mode_void_any_trump_with_no_duty_to_overtrump():
    assert legal("AH JH AS", "AD QH", HEARTS, **FOLLOW_RULES) == ["AH", "JH"]


def test_follow_mode_with_neither_suit_the_whole_hand():
    assert legal("AS KC", "AD", HEARTS, **FOLLOW_RULES) == ["AS", "KC"]


# -- the lead -------------------------------------------------------------------------------


def test_the_leader_may_lead_any_card():
    assert codes(leads(counts_of(parse_cards("AS KH 9D")), DIAMONDS, must_lead_trump=False)) == [
        "AS",
        "KH",
        "9D",
    ]


def test_bidder_must_lead_trump_limits_the_lead_to_trumps_when_held():
    hand = counts_of(parse_cards("AS KH 9D"))
    assert codes(leads(hand, DIAMONDS, must_lead_trump=True)) == ["9D"]
    assert codes(leads(hand, 3, must_lead_trump=True)) == ["AS", "KH", "9D"]


# -- the rules of one hand (PlayRules): the duty to beat, the first lead, closing a trick ---------


def classic_rules(bid: int = 30, **overrides: object) -> PlayRules:
    classic = get_variant("classic")
    return play_rules(classic, classic.settings(overrides), bid)


def test_head_partner_exempt_lifts_the_duty_to_beat_only_over_a_partner():
    exempt, bound = classic_rules(head_partner_exempt=True), classic_rules(head_partner_exempt=False)
    hand = counts_of(parse_cards("AD 9D"))
    partner_winning = parse_cards("KD JD")  # seat 0 leads the KD, seat 1 follows: seat 2 to play
    assert codes(legal_cards(bound, hand, HEARTS, 0, partner_winning, 1)) == ["AD"]
    assert codes(legal_cards(exempt, hand, HEARTS, 0, partner_winning, 1)) == ["AD", "9D"]
    opponent_winning = parse_cards("JD KD")  # seat 1's KD wins: seat 2 must head it even so
    assert codes(legal_cards(exempt, hand, HEARTS, 0, opponent_winning, 1)) == ["AD"]


def test_the_bidders_first_lead_is_trump_unless_the_bid_was_the_minimum():
    hand = counts_of(parse_cards("AS KH 9D"))
    rules = classic_rules(bid=30, bidder_must_lead_trump=True)
    assert codes(legal_cards(rules, hand, DIAMONDS, 0, [], 0)) == ["9D"]
    assert codes(legal_cards(rules, hand, DIAMONDS, 0, [], 1)) == ["AS", "KH", "9D"]  # later leads: any
    at_minimum = classic_rules(bid=get_variant("classic").defaults.min_bid, bidder_must_lead_trump=True)
    assert codes(legal_cards(at_minimum, hand, DIAMONDS, 0, [], 0)) == ["AS", "KH", "9D"]


def test_closing_a_trick_counts_for_the_winners_side_and_the_last_trick_bonus_once():
    rules = classic_rules(last_trick=10)
    points, took = [0, 0], [False, False]
    winner = close_trick(rules, parse_cards("KD AD TD 9D"), 2, HEARTS, 0, points, took)
    assert winner == 3  # AD, second card of a trick led by seat 2
    assert (points, took) == ([0, 3], [False, True])  # AKT=1: K, A, T
    last = get_variant("classic").hand_size - 1
    winner = close_trick(rules, parse_cards("9S JS QS 9H"), 0, HEARTS, last, points, took)
    assert winner == 3  # the lone trump
    assert (points, took) == ([0, 3 + 0 + 10], [False, True])
