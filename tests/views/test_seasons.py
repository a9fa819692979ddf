"""A club's season pages: a season made and changed, nights put in it from the event form or its
page, the standings stating the rule (and as CSV), a member's nights. Another club's season is a
404; every bad input is answered in words, never a 500."""

import csv
import html
import io
import re
from datetime import date

import pytest
from django.urls import reverse

from scorepad.models import ClubEvent, ClubSeason, Player
from scorepad.services.households import household_create
from scorepad.services.seasons import season_create
from tests.sample_games import club_event
from tests.season_nights import SIDE_1_WINS, play_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


@pytest.fixture
def season(household, ann):
    """A season of three finished teams nights, each won 25 to 15 by the first team checked in:
    Ann & Bob beat Cy & Di, Cy & Di beat Ann & Bob, then Cy & Di beat Ed & Flo (who came once)."""
    season = season_create(household=household, name="Autumn 2026", counting="total")
    play_night(household, ann, name="Week 1", entrants=[["Ann", "Bob"], ["Cy", "Di"]], season=season)
    play_night(household, ann, name="Week 2", entrants=[["Cy", "Di"], ["Ann", "Bob"]], season=season)
    play_night(household, ann, name="Week 3", entrants=[["Cy", "Di"], ["Ed", "Flo"]], season=season)
    return season


def _table(page):
    """The cells of the page's first table body, as text."""
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    return [
        [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]


def _new_season(member, household, **values):
    data = {"name": "Spring", "counting": "total", "nights": "", "best_of": "", **values}
    return member.post(reverse("club_seasons", args=[household.pk]), data)


def test_a_season_is_made_from_its_form(member, household):
    response = _new_season(member, household, nights="12", best_of="10", counting="average")
    season = ClubSeason.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("club_season", args=[season.pk])
    page = html.unescape(member.get(response["Location"]).content.decode())
    assert "Each member's best 10 of the season's 12 nights count, ranked by their average points" in page


def test_best_n_over_m_is_refused_in_words(member, household):
    response = _new_season(member, household, nights="4", best_of="5")
    assert response.status_code == 400
    assert "Best 5 of 4 nights cannot be" in html.unescape(response.content.decode())
    assert not ClubSeason.objects.exists()


def test_the_standings_show_places_points_averages_and_ratings(member, season):
    page = html.unescape(member.get(reverse("club_season", args=[season.pk])).content.decode())
    assert "Every night a member plays counts, ranked by their total points" in page
    assert "Equal records share a place (marked =); no tie is broken." in page
    assert "25.0 ± 8.3" in page  # what the rating's words say everyone starts at
    # Each member's rating is under their name: "Cy 27.2 ± 7.9".
    named = [(row[1].split(" ", 1), row) for row in _table(page)]
    assert all(re.fullmatch(r"\d+\.\d ± \d+\.\d", rating) for (_, rating), _ in named)
    rows = [[row[0], name, *row[2:]] for (name, _), row in named]
    # Cy & Di 15 + 25 + 25; Ann & Bob 25 + 15; Ed & Flo 15.
    assert [row[:5] for row in rows] == [
        ["1=", "Cy", "3", "65", "21.7"],
        ["1=", "Di", "3", "65", "21.7"],
        ["3=", "Ann", "2", "40", "20.0"],
        ["3=", "Bob", "2", "40", "20.0"],
        ["5=", "Ed", "1", "15", "15.0"],
        ["5=", "Flo", "1", "15", "15.0"],
    ]


def test_the_standings_as_csv(member, season):
    response = member.get(reverse("club_season_csv", args=[season.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="season-{season.pk}-standings.csv"'
    rows = list(csv.reader(io.StringIO(html.unescape(response.content.decode()))))
    assert rows[0] == [
        "place",
        "member",
        "nights played",
        "nights counted",
        "points",
        "average per night",
        "rating",
    ]
    assert [r[:6] for r in rows[1:3]] == [
        ["1=", "Cy", "3", "3", "65", "21.7"],
        ["1=", "Di", "3", "3", "65", "21.7"],
    ]
    assert [r[:6] for r in rows[3:5]] == [
        ["3=", "Ann", "2", "2", "40", "20.0"],
        ["3=", "Bob", "2", "2", "40", "20.0"],
    ]


def test_a_members_nights(member, season, household):
    ann = Player.objects.get(household=household, name="Ann")
    page = html.unescape(member.get(reverse("club_season_member", args=[season.pk, ann.pk])).content.decode())
    assert "Place 3=" in page
    assert "2 nights played, 2 counted · 40 points" in page
    assert [row[1:5] for row in _table(page)] == [
        ["Week 1 Team 1: Ann & Bob", "25", "1 of 2", "yes"],
        ["Week 2 Team 2: Ann & Bob", "15", "2 of 2", "yes"],
    ]


def test_another_clubs_season_and_member_are_404(member, season, django_user_model, household):
    zed = django_user_model.objects.create_user(username="zed")
    theirs = season_create(household=household_create(user=zed, name="Zeds"), name="Theirs")
    assert member.get(reverse("club_season", args=[theirs.pk])).status_code == 404
    assert member.get(reverse("club_season_csv", args=[theirs.pk])).status_code == 404
    stranger = Player.objects.create(household=theirs.household, name="Stranger")
    assert member.get(reverse("club_season_member", args=[season.pk, stranger.pk])).status_code == 404
    assert member.get(reverse("club_seasons", args=[theirs.household_id])).status_code == 404


def test_a_new_night_is_put_in_the_season_its_dates_hold(member, household):
    today = date.today()
    season = season_create(
        household=household,
        name="Now",
        starts_on=date(today.year - 1, 1, 1),
        ends_on=date(today.year + 1, 12, 31),
    )
    page = html.unescape(member.get(reverse("club_event_new", args=[household.pk])).content.decode())
    assert f'<option value="{season.pk}" selected>Now</option>' in page
    response = member.post(
        reverse("club_event_new", args=[household.pk]),
        {
            "name": "Friday",
            "format": "progressive",
            "variant": "classic",
            "rounds": "3",
            "round_end": "target",
            "bye_score": "winners_average",
            "season": str(season.pk),
        },
    )
    assert response.status_code == 302
    friday = ClubEvent.objects.get(name="Friday")
    assert friday.season == season
    event_page = member.get(response["Location"]).content.decode()
    assert f'Counts in the season <a href="{reverse("club_season", args=[season.pk])}">Now</a>' in event_page
    refused = member.post(
        reverse("club_event_new", args=[household.pk]),
        {
            "name": "Sat",
            "format": "progressive",
            "variant": "classic",
            "rounds": "3",
            "round_end": "target",
            "bye_score": "winners_average",
            "season": "999999",
        },
    )
    assert "Choose one of the club's seasons, or none." in html.unescape(refused.content.decode())


def test_a_night_is_put_in_and_taken_out_under_its_version(member, household, ann):
    season = season_create(household=household, name="Autumn")
    event = club_event(household, ann, name="Old night")
    url = reverse("club_season_night", args=[season.pk])
    member.post(url, {"event": event.pk, "version": event.version, "put": "1"})
    assert ClubEvent.objects.get(pk=event.pk).season == season
    stale = member.post(url, {"event": event.pk, "version": event.version}, follow=True)
    assert "This page is out of date" in html.unescape(stale.content.decode())
    assert ClubEvent.objects.get(pk=event.pk).season == season
    fresh = ClubEvent.objects.get(pk=event.pk)
    taken = member.post(url, {"event": event.pk, "version": fresh.version}, follow=True)
    assert "Old night no longer counts in Autumn." in html.unescape(taken.content.decode())
    assert member.post(url, {"event": "x", "version": "1"}, follow=True).status_code == 200


def test_a_stale_season_form_is_refused_in_words(member, household):
    season = season_create(household=household, name="Autumn")
    url = reverse("club_season_edit", args=[season.pk])
    data = {"version": "1", "name": "Autumn 26", "counting": "average", "nights": "", "best_of": ""}
    assert member.post(url, data).status_code == 302
    again = member.post(url, {**data, "name": "Fall"})
    assert again.status_code == 400
    assert "This page is out of date: the season changed" in html.unescape(again.content.decode())
    season.refresh_from_db()
    assert (season.name, season.counting) == ("Autumn 26", "average")


def test_a_night_not_finished_is_listed_but_not_counted(member, household, ann):
    season = season_create(household=household, name="Autumn")
    play_night(
        household,
        ann,
        name="Week 1",
        entrants=[["Ann", "Bob"], ["Cy", "Di"]],
        hands=[SIDE_1_WINS],
        season=season,
    )
    club_event(household, ann, name="Tonight", season=season)
    page = html.unescape(member.get(reverse("club_season", args=[season.pk])).content.decode())
    assert "not finished: not counted yet" in page
    assert "after 1 night " in page


def test_another_clubs_night_cannot_be_put_in_a_season(member, household, ann, django_user_model):
    season = season_create(household=household, name="Autumn")
    zed = django_user_model.objects.create_user(username="zed")
    theirs = club_event(household_create(user=zed, name="Zeds"), zed, name="Their night")
    url = reverse("club_season_night", args=[season.pk])
    assert member.post(url, {"event": theirs.pk, "version": theirs.version, "put": "1"}).status_code == 404
    assert ClubEvent.objects.get(pk=theirs.pk).season is None


def test_the_standings_page_reads_per_night_not_per_member(member, household, ann):
    """A club of 150 is read in the same few queries as a club of 4: the queries grow with the
    nights, never with the members."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(season):
        with CaptureQueriesContext(connection) as captured:
            assert member.get(reverse("club_season", args=[season.pk])).status_code == 200
        return len(captured)

    small = season_create(household=household, name="Small")
    play_night(
        household, ann, name="Four", format="progressive", entrants=[["A"], ["B"], ["C"], ["D"]], season=small
    )
    large = season_create(household=household, name="Large")
    names = [[f"P{n}"] for n in range(12)]
    play_night(household, ann, name="Twelve", format="progressive", entrants=names, season=large)
    queries(large)  # the club's ratings, worked out once and kept
    assert queries(large) == queries(small)
