"""Card codes and suits as RULES.md §0.1 and §9.1 write them."""

import pytest

from scorepad.engine.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    NINE,
    QUEEN,
    SPADES,
    TEN,
    CardError,
    card,
    card_code,
    card_name,
    cards_from_counts,
    cards_in_words,
    codes,
    counts_of,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    sort_cards,
    suit_lengths,
    suit_of,
)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("AS", card(ACE, SPADES)),
        ("TH", card(TEN, HEARTS)),
        ("10H", card(TEN, HEARTS)),
        ("10♥", card(TEN, HEARTS)),
        ("qs", card(QUEEN, SPADES)),
        ("J♦", card(JACK, DIAMONDS)),
        ("9c", card(NINE, CLUBS)),
    ],
)
def test_parse_card_accepts_every_spelling_of_section_9_1(token, expected):
    assert parse_card(token) == expected


@pytest.mark.parametrize("token", ["XX", "1H", "AZ", "10", "KSS", ""])
def test_parse_card_refuses_unknown_codes_naming_the_token(token):
    with pytest.raises(CardError, match=f"unknown card {token!r}"):
        parse_card(token)


def test_parse_cards_splits_on_spaces_and_commas():
    assert codes(parse_cards("AS, 10h,qs  J♦")) == ["AS", "TH", "QS", "JD"]


def test_parse_cards_takes_a_list_of_codes():
    assert codes(parse_cards(["as", "T♠"])) == ["AS", "TS"]


def test_an_empty_hand_parses_to_no_cards():
    assert parse_cards("  ") == []
    assert parse_cards([]) == []


@pytest.mark.parametrize(("text", "suit"), [("S", SPADES), ("h", HEARTS), ("♦", DIAMONDS), (" C ", CLUBS)])
def test_parse_suit_accepts_letters_in_either_case_and_symbols(text, suit):
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["X", "SH", "", "spades"])
def test_parse_suit_refuses_anything_else_naming_it(text):
    with pytest.raises(CardError, match=f"unknown suit {text!r}"):
        parse_suit(text)


def test_a_card_is_suit_times_six_plus_rank_with_the_ace_as_rank_zero():
    nine_of_clubs = card(NINE, CLUBS)
    assert nine_of_clubs == 23
    assert (suit_of(nine_of_clubs), rank_of(nine_of_clubs)) == (CLUBS, NINE)
    assert card_code(nine_of_clubs) == "9C"


def test_canonical_order_is_suits_s_h_d_c_then_ranks_high_to_low():
    assert codes(sort_cards(parse_cards("9C AH QS TS AS JD"))) == ["AS", "TS", "QS", "AH", "JD", "9C"]


def test_counts_count_identical_copies_and_round_trip():
    hand = parse_cards("QS QS JD")
    counts = counts_of(hand)
    assert len(counts) == 24
    assert counts[card(QUEEN, SPADES)] == 2
    assert counts[card(JACK, DIAMONDS)] == 1
    assert sum(counts) == 3
    assert cards_from_counts(counts) == sort_cards(hand)


def test_cards_read_as_players_write_them():
    assert cards_in_words(parse_cards("TH AS QS 9C")) == "10♥ A♠ Q♠ 9♣"
    assert card_name(parse_card("TD")) == "Ten of diamonds"


def test_suit_lengths_count_each_suit_of_a_hand_in_suit_order():
    hand = counts_of(parse_cards("AS TS KS AH 9D 9D JD QD"))
    assert suit_lengths(hand) == [3, 1, 4, 0]
