"""Seasons written: made with a rule the engine accepts, changed under a version, nights put in a
season of their own club only. Every refusal is in words and changes nothing."""

from datetime import date

import pytest

from scorepad.models import ClubEvent, ClubSeason
from scorepad.services import ServiceError
from scorepad.services.households import household_create
from scorepad.services.seasons import event_season_set, season_create, season_update
from tests.sample_games import club_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


def test_a_season_keeps_its_rule(household):
    season = season_create(
        household=household, name="  Autumn   2026 ", counting="average", best_of=10, nights=12
    )
    assert (season.name, season.counting, season.best_of, season.nights) == ("Autumn 2026", "average", 10, 12)


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"best_of": 13, "nights": 12}, "Best 13 of 12 nights cannot be"),
        ({"best_of": 3}, "Best N of M nights needs M"),
        ({"counting": "median"}, "total points, or the average per night"),
        ({"name": " "}, "The season needs a name"),
        ({"starts_on": date(2026, 12, 1), "ends_on": date(2026, 9, 1)}, "ends before it starts"),
    ],
)
def test_a_season_that_cannot_be_kept_is_refused_in_words(household, values, words):
    with pytest.raises(ServiceError, match=words):
        season_create(household=household, **{"name": "Autumn", **values})
    assert not ClubSeason.objects.exists()


def test_a_stale_season_page_changes_nothing(household):
    season = season_create(household=household, name="Autumn")
    season_update(
        season=season,
        version=1,
        name="Autumn 2026",
        counting="total",
        best_of=None,
        nights=12,
        starts_on=None,
        ends_on=None,
    )
    with pytest.raises(ServiceError, match="This page is out of date: the season changed"):
        season_update(
            season=season,
            version=1,
            name="Fall",
            counting="average",
            best_of=None,
            nights=None,
            starts_on=None,
            ends_on=None,
        )
    season.refresh_from_db()
    assert (season.name, season.counting, season.nights, season.version) == ("Autumn 2026", "total", 12, 2)


def test_a_night_counts_only_in_its_own_clubs_seasons(household, ann):
    other = household_create(user=ann, name="The Joneses")
    theirs = season_create(household=other, name="Their season")
    with pytest.raises(ServiceError, match="That season is another club's"):
        club_event(household, ann, season=theirs)
    event = club_event(household, ann)
    with pytest.raises(ServiceError, match="That season is another club's"):
        event_season_set(event=event, version=event.version, season=theirs)
    assert ClubEvent.objects.get(pk=event.pk).season is None


def test_a_night_is_put_in_a_season_and_taken_out_under_its_version(household, ann):
    season = season_create(household=household, name="Autumn")
    event = club_event(household, ann)
    moved = event_season_set(event=event, version=event.version, season=season)
    assert moved.season == season
    with pytest.raises(ServiceError, match="This page is out of date"):
        event_season_set(event=event, version=event.version, season=None)
    event_season_set(event=moved, version=moved.version, season=None)
    assert ClubEvent.objects.get(pk=event.pk).season is None
