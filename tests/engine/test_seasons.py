"""A season's arithmetic: best N of M nights, total against average, shared ranks, refusals."""

from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.engine.seasons import (
    Night,
    SeasonError,
    SeasonRule,
    counted_nights,
    season_standings,
)

START = date(2026, 9, 1)


def nights(*points: int) -> list[Night]:
    """One night a week from ``START``, with these points (place 1 throughout)."""
    return [Night(n, START + timedelta(weeks=n), p, 1) for n, p in enumerate(points)]


def test_best_n_counts_the_highest_nights_in_date_order():
    played = nights(300, 120, 450, 120, 90)
    counted = counted_nights(played, 3)
    assert [n.points for n in counted] == [300, 120, 450]  # of the two 120s, the earlier
    assert counted_nights(played, None) == tuple(played)


def test_total_and_average_rank_differently():
    members = {1: nights(100, 100, 100, 100), 2: nights(300)}
    by_total = season_standings(members, SeasonRule("total"))
    by_average = season_standings(members, SeasonRule("average"))
    assert [(s.member, s.points) for s in by_total] == [(1, 400), (2, 300)]
    assert [(s.member, s.average) for s in by_average] == [(2, Fraction(300)), (1, Fraction(100))]
    assert [s.played for s in by_total] == [4, 1]


def test_best_of_drops_the_worst_nights():
    members = {1: nights(100, 500, 100, 100), 2: nights(300, 300, 0, 0)}
    ranked = season_standings(members, SeasonRule("total", best_of=2, nights=4))
    assert [(s.member, s.points, s.played, len(s.counted)) for s in ranked] == [
        (1, 600, 4, 2),
        (2, 600, 4, 2),
    ]
    assert [s.rank for s in ranked] == [1, 1]
    assert all(s.tied for s in ranked)


def test_equal_records_share_a_rank_and_the_next_rank_is_skipped():
    members = {1: nights(200), 2: nights(300), 3: nights(200), 4: nights(100)}
    ranked = season_standings(members, SeasonRule())
    assert [(s.member, s.rank, s.tied) for s in ranked] == [
        (2, 1, False),
        (1, 2, True),
        (3, 2, True),
        (4, 4, False),
    ]


@pytest.mark.parametrize(
    ("best_of", "of", "words"),
    [
        (5, 4, "Best 5 of 4 nights cannot be"),
        (3, None, "needs M"),
        (0, 4, "N to be at least 1"),
        (None, 0, "A season has 1 to"),
    ],
)
def test_a_rule_that_cannot_be_kept_is_refused_in_words(best_of, of, words):
    with pytest.raises(SeasonError, match=words):
        SeasonRule("total", best_of=best_of, nights=of)


def test_an_unknown_counting_is_refused():
    with pytest.raises(SeasonError, match="total points, or the average"):
        SeasonRule("median")  # type: ignore[arg-type]


@given(
    st.lists(st.integers(min_value=-200, max_value=1000), min_size=1, max_size=15),
    st.integers(min_value=1, max_value=15),
)
def test_best_n_is_never_beaten_by_another_choice_of_n_nights(points, best_of):
    played = nights(*points)
    counted = counted_nights(played, best_of)
    assert len(counted) == min(best_of, len(played))
    assert set(counted) <= set(played)
    # No night left out scores more than a night counted.
    left_out = [n for n in played if n not in counted]
    assert all(out.points <= min(n.points for n in counted) for out in left_out)
    assert list(counted) == sorted(counted, key=lambda n: n.day)
