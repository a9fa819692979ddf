"""Learn to play's guided hand (``pages/lessons.py``): replayed from the URL's moves by the engine."""

import re
from itertools import combinations, pairwise

import pytest

from scorepad.engine.cards import card_words, parse_card
from scorepad.engine.meld import meld_points
from scorepad.engine.variants import VARIANTS
from scorepad.pages.lessons import lesson


def follow_suggestions(variant_id: str) -> list:
    """Every page of the guided hand, taking the suggested answer each time."""
    pages, moves = [], ""
    while True:
        page = lesson(variant_id, moves)
        pages.append(page)
        suggested = [choice for choice in page.choices if choice.suggested]
        if not suggested:
            return pages
        moves = suggested[0].moves


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_guided_hand_goes_through_every_stage_and_the_learner_makes_the_bid(variant_id: str):
    pages = follow_suggestions(variant_id)
    stages = [page.stage for page in pages]
    last = pages[-1]

    expected = ["deal", "bid", "trump", *(["pass"] if variant_id == "classic" else []), "meld", "play", "end"]
    assert [stage for i, stage in enumerate(stages) if i == 0 or stage != stages[i - 1]][
        : len(expected) - 1
    ] == expected[:-1]
    assert stages[-1] == "end"
    assert last.state.bidder == 0
    assert last.state.result.made
    assert sum(1 for points in last.state.points if points) >= 2  # someone else takes counters too
    assert stages.count("bid") <= 4  # a short auction for a first hand
    assert not any(page.refused for page in pages)
    assert last.counting
    assert last.melds[0].total > 0


def meld_of(counts: list[int], trump: int) -> int:
    variant = VARIANTS["classic"]
    return meld_points(counts, trump, variant, variant.defaults)


def test_the_suggested_pass_back_keeps_as_much_of_the_bidders_meld_as_any_pass_can():
    """The lesson says "keep your meld": its pass may give up meld only when every pass must."""
    at_pass = next(page for page in follow_suggestions("classic") if page.stage == "pass")
    state, hand = at_pass.state, list(at_pass.state.hands[0])
    assert state.bidder == 0
    assert state.trump is not None
    held = [card for card, n in enumerate(hand) for _ in range(n)]
    passed = [parse_card(code) for code in at_pass.choices[0].move.split(".")]

    def kept(cards) -> int:
        left = list(hand)
        for card in cards:
            left[card] -= 1
        return meld_of(left, state.trump)

    best = max(kept(cards) for cards in set(combinations(sorted(held), state.pass_count)))
    whole = meld_of(hand, state.trump)

    assert at_pass.choices[0].suggested
    assert kept(passed) == best
    assert ("stays whole" in at_pass.reason) == (best == whole)
    assert f"keeps {best}" in at_pass.reason or best == whole
    meld_page = lesson("classic", at_pass.choices[0].moves)
    assert meld_page.stage == "meld"
    assert meld_page.melds[0].total == best


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_at_the_table_shows_the_cards_played_before_the_learners_in_that_trick(variant_id: str):
    pages = follow_suggestions(variant_id)
    names = pages[0].names
    seats = VARIANTS[variant_id].seats
    checked = 0
    for asked, answered in pairwise(pages):
        if asked.stage != "play":
            continue
        leader = asked.state.trick_leader
        before = [f"{names[(leader + i) % seats]}: {card_words(c)}" for i, c in enumerate(asked.state.trick)]
        played = next(choice for choice in asked.choices if choice.suggested).move
        mine = f"You: {card_words(parse_card(played))}"
        assert answered.happened[: len(before) + 1] == [*before, mine], asked.done_moves
        checked += bool(before)

    assert checked  # some trick was led by another seat before the learner played to it


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_count_says_trick_points_and_tricks_apart(variant_id: str):
    end = follow_suggestions(variant_id)[-1]

    for line in end.counting[1:]:
        assert re.fullmatch(r".+ took \d+ tricks?, .+: \d+ trick points\.", line), line
    for line in end.result:
        assert not re.search(r"\btricks? \d", line), line
