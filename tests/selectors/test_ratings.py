"""Ratings from the record (openskill): a pair that keeps winning is rated above the pair it
beats, each member's uncertainty shrinks as they play, and the same record gives the same figures."""

import pytest

from scorepad.models import Player
from scorepad.selectors.ratings import club_ratings, rate_club, ratings_key
from tests.season_nights import SIDE_0_WINS, play_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


def _by_name(household, ratings):
    names = dict(Player.objects.filter(household=household).values_list("pk", "name"))
    return {names[p]: rating for p, rating in ratings.items()}


def test_a_winning_pair_is_rated_above_the_pair_it_beats_and_grows_surer(household, ann):
    teams = [["Ann", "Bob"], ["Cy", "Di"]]
    play_night(household, ann, name="Week 1", entrants=teams, hands=[SIDE_0_WINS])
    after_one = _by_name(household, club_ratings(household.pk))
    for week in (2, 3, 4):
        play_night(household, ann, name=f"Week {week}", entrants=teams, hands=[SIDE_0_WINS])
    after_four = _by_name(household, club_ratings(household.pk))
    assert after_four["Ann"].mu > after_four["Cy"].mu
    assert after_four["Ann"].ordinal > after_four["Cy"].ordinal
    assert after_four["Ann"].mu == after_four["Bob"].mu  # partners rated together
    assert after_four["Ann"].sigma < after_one["Ann"].sigma < 25 / 3
    assert (after_one["Ann"].tables, after_four["Ann"].tables) == (1, 4)
    assert after_four["Ann"].shown == f"{after_four['Ann'].mu:.1f} ± {after_four['Ann'].sigma:.1f}"


def test_the_ratings_are_worked_out_again_from_the_record_alike(household, ann):
    play_night(
        household, ann, name="Week 1", entrants=[["Ann"], ["Bob"], ["Cy"], ["Di"]], format="progressive"
    )
    key = ratings_key(household.pk)
    first = club_ratings(household.pk)
    assert rate_club(household.pk) == first == club_ratings(household.pk)
    ann_, di = (_by_name(household, first)[n] for n in ("Ann", "Di"))
    assert ann_ == di  # the round's partners
    play_night(
        household, ann, name="Week 2", entrants=[["Ann"], ["Bob"], ["Cy"], ["Di"]], format="progressive"
    )
    assert ratings_key(household.pk) != key
