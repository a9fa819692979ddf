"""Learn to play's guided hand (``pages/lessons.py``): replayed from the URL's moves by the engine."""

import pytest

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
