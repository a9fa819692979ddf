"""What the review page says: decisions paired by what they are, one figure defined once whose
parts add up, the duplicate beside it as a different measure, and the throw-in offer in words."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from scorepad.engine import review
from scorepad.engine.cards import cards_in_words, parse_card
from scorepad.engine.practice import ConcedeWeights
from scorepad.engine.review import Verdict
from scorepad.engine.view import BID, PASS, PLAY
from scorepad.pages.practice_review import (
    LEFT_ON_TABLE_MEANS,
    ReviewPage,
    concede_advice,
    concede_offer,
    review_page,
)
from scorepad.selectors.practice_review import HandReview
from tests.engine.test_review import SCENARIOS, two_plays

CARDS = r"(?:(?:10|[AKQJ9])[♠♥♦♣] ?)+"
SAID = {  # what a row may say of one play of the deal at each kind of decision
    "Bid": r"(you|the expert) (passed|bid \d+)|the bidding was over for (you|the expert)",
    "Trump": r"(you|the expert) named \w+ trump|(you|the expert) did not name trump",
    "Passing": rf"(you|the expert) passed {CARDS}|(you|the expert) passed no cards",
    "Trick": rf"(you|the expert) played {CARDS}|the hand was not played with (you|the expert) in it",
}


def page_of(line: dict, duplicate: dict, verdicts: tuple[Verdict, ...] = ()) -> ReviewPage:
    differences = tuple(review.differences(line, duplicate, 0))
    stored = HandReview(0, line, verdicts, True, 1.0, duplicate, differences)
    return review_page(stored)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_where_you_differed_sets_each_decision_beside_the_same_decision(scenario: str) -> None:
    yours, experts, wanted = SCENARIOS[scenario]
    line, other = two_plays(yours, experts, wanted)
    page = page_of(line, other)
    assert page.differences
    for where, mine, theirs in page.differences:
        kind = where.split()[0]
        assert re.fullmatch(SAID[kind], mine), (where, mine)
        assert re.fullmatch(SAID[kind], theirs), (where, theirs)
        assert mine.startswith("you") or mine.endswith("you") or "you in it" in mine
        assert theirs.startswith("the expert") or "the expert" in theirs
        if kind == "Trick" and mine.startswith("you played"):
            k = int(where.split()[1])
            trick = line["tricks"][k - 1]
            card = trick["cards"][(0 - trick["leader"]) % 4]
            assert mine == f"you played {cards_in_words([parse_card(card)])}"  # trick k's own card


def test_the_issues_hand_reads_bid_beside_bid_and_pass_of_cards_beside_pass_of_cards() -> None:
    line, other = two_plays([False], [True, True, True], lambda line: line["bidder"] == 2)
    rows = {where: (mine, theirs) for where, mine, theirs in page_of(line, other).differences}
    assert rows["Bid 1"][0] == "you passed"
    assert re.fullmatch(r"the expert bid \d+", rows["Bid 1"][1])
    for mine, theirs in rows.values():
        assert not (re.match(rf"you passed {CARDS}", mine) and "bid" in theirs)
        assert not ("you played" in mine and "bid" in theirs)


def verdict(
    number: int, decision: str, lost: float, gap: float, cap: float, trick: int | None = None
) -> Verdict:
    answer: object = None if decision == BID else (["9H", "9D", "JC"] if decision == PASS else "JS")
    best: object = 24 if decision == BID else (["AH", "AD", "AC"] if decision == PASS else "AS")
    return Verdict(number, decision, trick, answer, best, lost, "a reason", 40, gap, cap)


def test_the_figure_is_defined_once_and_the_total_is_exactly_its_shown_parts() -> None:
    line, other = two_plays([False], [True, True, True], lambda line: line["bidder"] == 2)
    verdicts = (
        verdict(0, BID, 7.3, 7.3, 99.0),
        verdict(4, PASS, 23.1, 23.1, 94.0),
        verdict(9, PLAY, 5.8, 31.2, 5.8, trick=12),  # more measured than the last trick can swing
    )
    page = page_of(line, other, verdicts)
    assert page.means == LEFT_ON_TABLE_MEANS
    assert "for each of your decisions, how much better the expert's answer did" in page.means
    assert "added over your decisions" in page.means
    assert "No decision is charged more than it could change" in page.bound
    shown = sum(Decimal(f"{row.lost:.1f}") for row in page.rows)
    assert Decimal(f"{page.left_on_table:.1f}") == shown == Decimal("36.2")
    capped = [row for row in page.rows if row.capped]
    assert [row.where for row in capped] == ["Trick 12"]
    assert [row.where for row in page.rows] == ["Bid 1", "Passing", "Trick 12"]


def test_the_duplicate_difference_is_shown_beside_the_figure_as_another_measure() -> None:
    line, other = two_plays([False], [True, True, True], lambda line: line["bidder"] == 2)
    line = {**line, "scores": [18, 12]}
    other = {**other, "scores": [25, -4]}
    page = page_of(line, other)
    assert page.duplicate_difference == -7
    assert page.duplicate_words == (
        "Duplicate against the expert: -7 (your side scored 18 as you played the deal, "
        "25 with the expert in your seat)"
    )
    assert "A different measure" in page.duplicate_means
    assert "simulated" in page.duplicate_means  # says what the other figure averages over


# -- the throw-in offer ----------------------------------------------------------------------------


def test_the_throw_in_offer_gives_both_results_alike_and_the_advice_in_words() -> None:
    offer = concede_offer(ConcedeWeights(forfeit=-40, playing_on=-40, throw_in=True))
    assert offer is not None
    assert offer.throw_in == "your side loses 40"
    assert offer.play_on == "your side loses about 40 on average"
    assert offer.advice == (
        "Both cost 40; throwing in keeps the opponents from scoring their tricks: the expert would throw in."
    )
    assert concede_offer(None) is None


@pytest.mark.parametrize(
    ("weights", "advice"),
    [
        (
            ConcedeWeights(-25, -31, True),
            "Throwing in loses 25, playing on loses about 31 on average; "
            "throwing in costs your side less: the expert would throw in.",
        ),
        (
            ConcedeWeights(-25, -12, False),
            "Throwing in loses 25, playing on loses about 12 on average; "
            "playing on does better for your side: the expert would play on.",
        ),
        (
            ConcedeWeights(-25, -20, True),
            "Throwing in loses 25, playing on loses about 20 on average; "
            "throwing in keeps the opponents from scoring their tricks: the expert would throw in.",
        ),
    ],
)
def test_the_throw_in_advice_says_why(weights: ConcedeWeights, advice: str) -> None:
    assert concede_advice(weights) == advice
