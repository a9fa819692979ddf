"""Meld counting (RULES.md §0.5, §0.6, §1.4, §2.4, §3.3, §4) against the worked examples of §5."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.engine.cards import SUITS, CardError, codes, counts_of, parse_suit
from scorepad.engine.meld import (
    MeldLine,
    MeldResult,
    best_trumps,
    count_meld,
    meld_ceiling,
    meld_json,
    meld_points,
    meld_points_by_trump,
    parse_hand,
    shown_cards,
)
from scorepad.engine.variants import VARIANTS, get_variant
from tests.examples import examples

NAMES = {
    "run": "run",
    "royal": "royal marriage",
    "extra": "extra trump king or queen",
    "marriage": "marriage",
    "dix": "dix",
    "pinochle": "pinochle",
    "aces": "aces around",
    "kings": "kings around",
    "queens": "queens around",
    "jacks": "jacks around",
}

# §5, every worked example: "name variant trump hand", then "= total: breakdown" (short names).
EXAMPLES_TEXT = """
C1 classic S AS TS KS QS JS 9S 9H 9D JC TC 9C QH
    = 16: run 1 15, dix 1 1
C2 classic H AH TH KH KH QH JH 9S 9D JC TC 9C TS
    = 17: run 1 15, extra 1 2
C3 classic D AD TD KD KD QD QD JD 9D 9S 9C TH TC
    = 20: run 1 15, extra 2 4, dix 1 1
C4 classic C AC AC TC TC KC KC QC QC JC JC 9C 9H
    = 151: run 2 150, dix 1 1
C5 classic H KS QS KH QH KD QD KC QC JD 9H AS TS
    = 29: royal 1 4, marriage 3 6, dix 1 1, pinochle 1 4, kings 1 8, queens 1 6
C6 classic S AS TS KS QS JS KH QH KD QD KC QC 9S
    = 36: run 1 15, marriage 3 6, dix 1 1, kings 1 8, queens 1 6
C7 classic H QS QS JD JD JS JH JC KH QH AS AH 9H
    = 39: royal 1 4, dix 1 1, pinochle 2 30, jacks 1 4
C8 classic D AS AS AH AH AD AD AC AC KS KH KD KC
    = 108: aces 2 100, kings 1 8
C9 classic S KS KS KH KH KD KD KC KC QS QH QD QC
    = 96: royal 1 4, marriage 3 6, kings 2 80, queens 1 6
C10 classic H KH KH QH QH AH TH 9H 9H JS JD QS TC
    = 14: royal 2 8, dix 2 2, pinochle 1 4
C11 classic D AS TS KS QS JS AD KD QD 9D AH AC JH
    = 17: royal 1 4, marriage 1 2, dix 1 1, aces 1 10
C12 classic C JS JS JH JH JD JD JC JC QS QS KC QC
    = 74: royal 1 4, pinochle 2 30, jacks 2 40
C13 classic S AS TS KS KS QS JS KH QH KD QD KC QC
    = 37: run 1 15, extra 1 2, marriage 3 6, kings 1 8, queens 1 6
D1 double-deck S KS KH KD KC QC AS AS TS TS JS JS AH TH TH JH AD TD TD TC JC
    = 10: marriage 1 2, kings 1 8
D2 double-deck C AC TC KC KC QC QC JC AS AS TS TS TS JS AH AH TH TH TD TD TD
    = 19: run 1 15, royal 1 4
D3 double-deck C AC TC KC KC QC JC AS AS TS TS TS JS AH AH TH TH TH TD TD TD
    = 15: run 1 15
D4 double-deck H AH AH TH TH KH KH KH QH QH QH JH JH AS TS TS JS TD TD TD TC
    = 154: run 2 150, royal 1 4
D5 double-deck D AD AD AD TD TD TD KD KD KD QD QD QD JD JD JD AS TS TS TH TC
    = 225: run 3 225
D6 double-deck H QS QS QS JD JD QH QD QC KS AS AS TS TS AH AH TH TH TD TD TC
    = 38: marriage 1 2, pinochle 2 30, queens 1 6
D7 double-deck S AS AS AH AH AD AD AC AC KS KH KD KC JS JH JD JC JS JH JD JC
    = 148: aces 2 100, kings 1 8, jacks 2 40
D8 double-deck C QS QS QS QS JD JD JD JD QH QH QH QD QD QD QC QC QC KS KH JC
    = 184: marriage 2 4, pinochle 4 90, queens 3 90
D9 double-deck H AH TH KH QH JH KS QS KD QD KC QC AS AS TS TS TD TD AD TC TC
    = 35: run 1 15, marriage 3 6, kings 1 8, queens 1 6
D10 double-deck S KS KS QS QS KH KH QH QH KD KD QD QD KC KC QC QC AS TS TH JC
    = 160: royal 2 8, marriage 6 12, kings 2 80, queens 2 60
D11 double-deck D KS KS QS QS QS KH KH KH QH QH QH QH KD QD JD AS AH AD TC TC
    = 18: royal 1 4, marriage 5 10, pinochle 1 4
D12a double-deck S AS AS AS AS TS TS TS TS KS KS KS KS QS QS QS QS JS JS JS JS
    = 300: run 4 300
D12b double-deck H AS AS AS AS TS TS TS TS KS KS KS KS QS QS QS QS JS JS JS JS
    = 8: marriage 4 8
D13 double-deck C AC TC KC QC JC AS AH AD KS KH KD QS QH QD JS JH JD TS TH TD
    = 53: run 1 15, marriage 3 6, pinochle 1 4, aces 1 10, kings 1 8, queens 1 6, jacks 1 4
S1 six-handed S AS TS KS QS JS 9S 9H JC
    = 160: run 1 150, dix 1 10
S2 six-handed H AH TH KH KH QH QH JH 9S
    = 190: run 1 150, royal 1 40
S3 six-handed D AD TD KD KD QD JD 9C 9S
    = 150: run 1 150
S4 six-handed C KS QS KH QH KD QD KC QC
    = 240: royal 1 40, marriage 3 60, kings 1 80, queens 1 60
S5 six-handed H QS QS JD JD KS 9H AH TC
    = 330: marriage 1 20, dix 1 10, pinochle 2 300
S6 six-handed S QS JD KS KD QD 9S AH TC
    = 110: royal 1 40, marriage 1 20, dix 1 10, pinochle 1 40
S7 six-handed H AS AH AD AC KS KH KD KC
    = 180: aces 1 100, kings 1 80
S8 six-handed D QS QH QD QC JS JH JD JC
    = 140: pinochle 1 40, queens 1 60, jacks 1 40
S9 six-handed S AS AS AH AH AD AD AC AC
    = 1000: aces 2 1000
S10 six-handed C 9C 9C KC QC KH QH AS TS
    = 80: royal 1 40, marriage 1 20, dix 2 20
S11 six-handed H AS TS KS QS JS 9H JD AC
    = 70: marriage 1 20, dix 1 10, pinochle 1 40
S12 six-handed S KS KH KD KC QS QH JD 9S
    = 190: royal 1 40, marriage 1 20, dix 1 10, pinochle 1 40, kings 1 80
S13 six-handed H QS QS JD JD QH QD QC KH
    = 400: royal 1 40, pinochle 2 300, queens 1 60
"""


def _examples() -> list[tuple[str, str, str, str, int, str]]:
    lines = EXAMPLES_TEXT.strip().splitlines()
    rows = []
    for heading, result in zip(lines[::2], lines[1::2], strict=True):
        name, variant_id, trump, hand = heading.split(" ", 3)
        total, melds = result.strip().removeprefix("= ").split(": ", 1)
        rows.append((name, variant_id, trump, hand, int(total), melds))
    return rows


EXAMPLES = _examples()
ROUNDHOUSES = {"C5", "C6", "C9", "C13", "D9", "D10", "D13", "S4"}


def breakdown(text: str) -> tuple[MeldLine, ...]:
    lines = []
    for item in filter(None, text.split(", ")):
        short, count, points = item.split()
        lines.append(MeldLine(NAMES[short], int(count), int(points)))
    return tuple(lines)


def meld_of(variant_id: str, trump: str | None, hand: str, **overrides) -> MeldResult:
    variant = get_variant(variant_id)
    cards = parse_hand(hand, variant)
    suit = None if trump is None else parse_suit(trump)
    return count_meld(counts_of(cards), suit, variant, variant.settings(overrides))


@pytest.mark.parametrize(
    ("variant_id", "trump", "hand", "total", "melds"),
    [pytest.param(*row[1:], id=row[0]) for row in EXAMPLES],
)
def test_worked_example_total_and_breakdown(variant_id, trump, hand, total, melds):
    result = meld_of(variant_id, trump, hand)
    assert result.total == total
    assert result.melds == breakdown(melds)


@pytest.mark.parametrize(("example", "variant_id", "trump", "hand"), [row[:4] for row in EXAMPLES])
def test_worked_example_roundhouse_label(example, variant_id, trump, hand):
    expected = ("roundhouse",) if example in ROUNDHOUSES else ()
    assert meld_of(variant_id, trump, hand).labels == expected


@pytest.mark.parametrize(
    ("variant_id", "trump", "hand", "total"),
    [pytest.param(*row[1:5], id=row[0]) for row in EXAMPLES],
)
def test_meld_points_agrees_with_every_worked_example(variant_id, trump, hand, total):
    variant = get_variant(variant_id)
    counts = counts_of(parse_hand(hand, variant))
    assert meld_points(counts, parse_suit(trump), variant, variant.defaults) == total


def test_all_forty_worked_examples_are_here():
    names = [row[0] for row in EXAMPLES]
    expected = [f"C{i}" for i in range(1, 14)] + [f"D{i}" for i in range(1, 12)]
    expected += ["D12a", "D12b", "D13"] + [f"S{i}" for i in range(1, 14)]
    assert names == expected


C2 = "AH TH KH KH QH JH 9S 9D JC TC 9C TS"
S3 = "AD TD KD KD QD JD 9C 9S"


@pytest.mark.parametrize(
    ("rule", "total", "melds"),
    [("half", 17, "run 1 15, extra 1 2"), ("strict", 15, "run 1 15"), ("marry", 19, "run 1 15, royal 1 4")],
)
def test_c2_lone_extra_trump_king_under_each_run_extra_kq(rule, total, melds):
    result = meld_of("classic", "H", C2, run_extra_kq=rule)
    assert (result.total, result.melds) == (total, breakdown(melds))


def test_s3_run_king_may_marry_the_extra_king_under_marry():
    result = meld_of("six-handed", "D", S3, run_extra_kq="marry")
    assert (result.total, result.melds) == (190, breakdown("run 1 150, royal 1 40"))


def test_s9_eight_aces_as_two_singles():
    result = meld_of("six-handed", "S", "AS AS AH AH AD AD AC AC", double_around_scale="two_singles")
    assert (result.total, result.melds) == (200, breakdown("aces 2 200"))


def test_a_lone_extra_queen_beside_a_run_scores_half_a_royal_marriage_in_classic():
    assert meld_of("classic", "S", "AS TS KS QS QS JS").melds == breakdown("run 1 15, extra 1 2")


def test_marry_lets_each_run_marry_only_one_lone_extra():
    hand = "AS TS KS KS KS QS JS"  # one run, two extra kings: only the run's Q can marry one
    assert meld_of("double-deck", "S", hand, run_extra_kq="marry").melds == breakdown("run 1 15, royal 1 4")


def test_npa_values_price_a_single_run_25_and_a_single_pinochle_15():
    result = meld_of("double-deck", "H", "AH TH KH QH JH QS JD", npa_values=True)
    assert result.melds == breakdown("run 1 25, pinochle 1 15")


def test_npa_values_leave_doubles_at_the_table_value():
    result = meld_of("double-deck", "S", "AS AS TS TS KS KS QS QS JS JS JD JD", npa_values=True)
    assert result.melds == breakdown("run 2 150, pinochle 2 30")


def test_double_royal_marriage_30_prices_two_royal_marriages_as_30():
    result = meld_of("classic", "H", "KH KH QH QH AH TH 9H 9H JS JD QS TC", double_royal_marriage="30")
    assert (result.total, result.melds) == (36, breakdown("royal 2 30, dix 2 2, pinochle 1 4"))


def test_double_royal_marriage_30_declares_two_royal_marriages_rather_than_a_poorer_run():
    hand = "AD TD KD KD QD QD JD"  # run 15 + extra K and Q 2 + 2 = 19, or two royal marriages = 30
    assert meld_of("classic", "D", hand, double_royal_marriage="30").melds == breakdown("royal 2 30")


def test_double_around_scale_x10_makes_a_double_ten_singles():
    hand = "KS KS KH KH KD KD KC KC"
    assert meld_of("double-deck", "S", hand, double_around_scale="×10").melds == breakdown("kings 2 80")


def test_roundhouse_bonus_adds_the_roundhouse_value_again():
    c5 = meld_of("classic", "H", "KS QS KH QH KD QD KC QC JD 9H AS TS", roundhouse_mode="bonus")
    assert c5.total == 29 + 24
    assert c5.melds[-1] == MeldLine("roundhouse", 1, 24)


def test_roundhouse_bonus_with_a_run_is_worth_35():
    c6 = meld_of("classic", "S", "AS TS KS QS JS KH QH KD QD KC QC 9S", roundhouse_mode="bonus")
    assert c6.total == 36 + 35


def test_double_roundhouse_240_adds_80_to_the_160_of_its_parts():
    d10 = "KS KS QS QS KH KH QH QH KD KD QD QD KC KC QC QC AS TS TH JC"
    result = meld_of("double-deck", "S", d10, double_roundhouse=240)
    assert result.total == 240
    assert result.melds[-1] == MeldLine("double roundhouse", 1, 80)


def test_no_trump_makes_every_king_queen_a_plain_marriage_without_run_or_dix():
    c5 = meld_of("classic", None, "KS QS KH QH KD QD KC QC JD 9H AS TS")
    assert c5.melds == breakdown("marriage 4 8, pinochle 1 4, kings 1 8, queens 1 6")
    assert c5.labels == ("roundhouse",)
    d12 = meld_of("double-deck", None, "AS AS AS AS TS TS TS TS KS KS KS KS QS QS QS QS JS JS JS JS")
    assert d12.melds == breakdown("marriage 4 8")


def test_an_empty_hand_scores_nothing():
    result = meld_of("classic", "S", "")
    assert result == MeldResult(0, (), ())


def test_best_trumps_lists_every_suit_best_first_ties_in_suit_order():
    variant = get_variant("classic")
    counts = counts_of(parse_hand("KS QS KH QH 9C AD", variant))
    ranked = [(SUITS[suit], result.total) for suit, result in best_trumps(counts, variant, variant.defaults)]
    assert ranked == [("S", 6), ("H", 6), ("C", 5), ("D", 4)]


SECTION_9_2_EXAMPLE = {
    "variant": "classic",
    "trump": "H",
    "cards": ["AH", "TH", "KH", "QH", "JH", "9H"],
    "total": 16,
    "melds": [{"name": "run", "count": 1, "points": 15}, {"name": "dix", "count": 1, "points": 1}],
}


def test_meld_json_is_the_section_9_2_object():
    variant = get_variant("classic")
    cards = parse_hand("9H JH QH KH TH AH", variant)
    result = count_meld(counts_of(cards), parse_suit("H"), variant, variant.defaults)
    assert meld_json(variant, parse_suit("H"), cards, result) == SECTION_9_2_EXAMPLE


def test_meld_json_carries_labels_only_for_a_roundhouse_and_null_for_no_trump():
    variant = get_variant("six-handed")
    cards = parse_hand("KS QS KH QH KD QD KC QC", variant)
    data = meld_json(variant, None, cards, count_meld(counts_of(cards), None, variant, variant.defaults))
    assert data["trump"] is None
    assert data["labels"] == ["roundhouse"]
    assert data["total"] == sum(meld["points"] for meld in data["melds"]) == 80 + 60 + 80


@pytest.mark.parametrize(
    ("variant_id", "trump", "hand", "shown"),
    [
        ("classic", "S", "AS TS KS QS JS 9S 9H 9D JC TC 9C QH", "AS TS KS QS JS 9S"),
        ("classic", "H", "KS QS KH QH KD QD KC QC JD 9H AS TS", "KS QS KH QH 9H KD QD JD KC QC"),
        ("classic", "H", C2, "AH TH KH KH QH JH"),
        ("double-deck", "C", "AC TC KC KC QC JC AS AS TS TS TS JS AH AH TH TH TH TD TD TD", "AC TC KC QC JC"),
        ("double-deck", "H", "QS QS QS JD JD QH QD QC KS AS", "KS QS QS QH QD JD JD QC"),
        ("six-handed", "S", "AS AS AH AH AD AD AC AC", "AS AS AH AH AD AD AC AC"),
        ("classic", "S", "9H TC JD", ""),
    ],
)
def test_shown_cards_are_what_the_scoring_melds_need_a_card_in_two_melds_once(variant_id, trump, hand, shown):
    variant = get_variant(variant_id)
    counts = counts_of(parse_hand(hand, variant))
    assert codes(shown_cards(counts, parse_suit(trump), variant, variant.defaults)) == shown.split()


def test_shown_cards_under_strict_leave_the_lone_extra_king_in_the_hand():
    variant = get_variant("classic")
    counts = counts_of(parse_hand(C2, variant))
    strict = variant.settings({"run_extra_kq": "strict"})
    assert codes(shown_cards(counts, parse_suit("H"), variant, strict)) == ["AH", "TH", "KH", "QH", "JH"]


# ---------------------------------------------------------------- §9.1 refusals


@pytest.mark.parametrize(
    ("variant_id", "hand", "named"),
    [
        ("classic", "AS XX", "'XX'"),
        ("classic", "AS 11H", "'11H'"),
        ("double-deck", "AS 9S", "9S"),
        ("classic", "QS QS QS", "3 × QS"),
        ("six-handed", "JD, JD, JD", "3 × JD"),
        ("double-deck", "AH AH AH AH AH", "5 × AH"),
        ("classic", "AS TS KS QS JS 9S AH TH KH QH JH 9H AD", "13 cards"),
        ("six-handed", "AS TS KS QS JS 9S AH TH KH", "9 cards"),
    ],
)
def test_parse_hand_refuses_what_the_deck_cannot_deal_naming_it(variant_id, hand, named):
    with pytest.raises(CardError) as refused:
        parse_hand(hand, get_variant(variant_id))
    assert named in str(refused.value)


def test_parse_hand_refuses_a_list_item_that_is_not_a_card_code():
    with pytest.raises(CardError, match="unknown card"):
        parse_hand(["AS", {"rank": "A"}], get_variant("classic"))


def test_parse_hand_accepts_tens_lower_case_symbols_and_commas():
    variant = get_variant("classic")
    assert codes(parse_hand("10♥, qs,T♠ j♦", variant)) == ["TH", "QS", "TS", "JD"]
    assert codes(parse_hand(["10h", "Q♠"], variant)) == ["TH", "QS"]


def test_parse_hand_accepts_a_full_hand_and_an_empty_one():
    variant = get_variant("double-deck")
    full = " ".join(code for code in ("AS", "TS", "KS", "QS", "JS") for _ in range(4))
    assert len(parse_hand(full, variant)) == 20
    assert parse_hand("", variant) == []
    assert parse_hand([], variant) == []


# ---------------------------------------------------------------- properties over every legal hand

MELD_SETTINGS = st.fixed_dictionaries(
    {
        "run_extra_kq": st.sampled_from(["half", "strict", "marry"]),
        "double_around_scale": st.sampled_from(["×10", "two_singles", "table"]),
        "double_royal_marriage": st.sampled_from(["additive", "30"]),
        "roundhouse_mode": st.sampled_from(["label", "bonus"]),
        "double_roundhouse": st.sampled_from([160, 240]),
        "npa_values": st.booleans(),
    }
)
TRUMPS = st.sampled_from([None, 0, 1, 2, 3])


@st.composite
def legal_hands(draw):
    """A variant and a legal hand of it; often from a few ranks only, so melds are dense."""
    variant = draw(st.sampled_from(list(VARIANTS.values())))
    ranks = draw(st.sets(st.sampled_from(variant.ranks), min_size=1))
    deck = [c for c in variant.deck() if c % 6 in ranks]
    size = draw(st.integers(0, min(variant.hand_size, len(deck))))
    return variant, draw(st.permutations(deck))[:size]


@given(legal_hands(), TRUMPS, MELD_SETTINGS, st.randoms(use_true_random=False))
def test_card_order_never_matters(deal, trump, overrides, rng: random.Random):
    variant, hand = deal
    rules = variant.settings(overrides)
    shuffled = list(codes(hand))
    rng.shuffle(shuffled)
    again = parse_hand(" ".join(shuffled), variant)
    expected = count_meld(counts_of(hand), trump, variant, rules)
    assert count_meld(counts_of(again), trump, variant, rules) == expected


@given(legal_hands(), TRUMPS, MELD_SETTINGS)
def test_breakdown_adds_up_to_the_total_and_lists_only_scoring_melds(deal, trump, overrides):
    variant, hand = deal
    result = count_meld(counts_of(hand), trump, variant, variant.settings(overrides))
    assert sum(line.points for line in result.melds) == result.total
    assert all(line.count > 0 and line.points > 0 for line in result.melds)


@given(legal_hands(), TRUMPS, MELD_SETTINGS)
def test_meld_points_equals_count_meld_total(deal, trump, overrides):
    variant, hand = deal
    rules = variant.settings(overrides)
    counts = counts_of(hand)
    assert meld_points(counts, trump, variant, rules) == count_meld(counts, trump, variant, rules).total


@given(legal_hands(), st.one_of(st.just({}), MELD_SETTINGS))
def test_meld_by_trump_is_meld_points_with_each_suit_as_trump(deal, overrides):
    variant, hand = deal
    rules = variant.settings(overrides)
    counts = counts_of(hand)
    expected = tuple(meld_points(counts, suit, variant, rules) for suit in range(4))
    assert meld_points_by_trump(counts, variant, rules) == expected


@given(legal_hands(), TRUMPS, st.one_of(st.just({}), MELD_SETTINGS), st.data())
def test_removing_a_card_never_raises_the_total(deal, trump, overrides, data):
    variant, hand = deal
    if not hand:
        return
    rules = variant.settings(overrides)
    smaller = list(hand)
    smaller.pop(data.draw(st.integers(0, len(hand) - 1)))
    before = count_meld(counts_of(hand), trump, variant, rules).total
    assert count_meld(counts_of(smaller), trump, variant, rules).total <= before


@given(legal_hands(), TRUMPS, MELD_SETTINGS)
def test_shown_cards_come_from_the_hand_and_carry_all_its_meld(deal, trump, overrides):
    variant, hand = deal
    rules = variant.settings(overrides)
    counts = counts_of(hand)
    shown = counts_of(shown_cards(counts, trump, variant, rules))
    assert all(shown[c] <= counts[c] for c in range(24))
    assert meld_points(shown, trump, variant, rules) == meld_points(counts, trump, variant, rules)


@settings(max_examples=examples(300))
@given(legal_hands(), st.sampled_from([0, 1, 2, 3]))
def test_default_rules_take_every_complete_run_as_section_0_6_proves_optimal(deal, trump):
    variant, hand = deal
    counts = counts_of(hand)
    held = min(counts[trump * 6 + rank] for rank in range(5))
    result = count_meld(counts, trump, variant, variant.defaults)
    runs = {line.name: line.count for line in result.melds}.get("run", 0)
    assert runs == held


@given(legal_hands(), TRUMPS, MELD_SETTINGS)
def test_no_hand_melds_past_the_meld_ceiling(deal, trump, overrides):
    variant, hand = deal
    rules = variant.settings(overrides)
    assert count_meld(counts_of(hand), trump, variant, rules).total <= meld_ceiling(variant, rules)
