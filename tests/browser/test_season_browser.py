"""A weekly club on a director's phone at 375×812: a season made from its form, two short nights
played in it (through the services), and the season's standings showing each member's place,
nights, points and average in the right order, with a rating and its ± and the rule in words; a
member's nights; and a member found among 150 at check-in by typing part of a name."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from scorepad.models import ClubSeason
from scorepad.services.households import household_create, player_create
from tests.browser.test_club_browser import SMALL_TARGETS
from tests.sample_games import club_event
from tests.season_nights import play_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDER_THAN_THE_PHONE = "() => document.scrollingElement.scrollWidth > window.innerWidth + 1"
TABLE_CUT = (
    "() => [...document.querySelectorAll('.wide-table')].some(box => box.scrollWidth > box.clientWidth + 1)"
)


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user(username="dee")


@pytest.fixture
def club(director):
    return household_create(user=director, name="Tuesday club")


def signed_in(page: Page, live_server, director) -> None:
    client = Client()
    client.force_login(director)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def test_a_director_makes_a_season_and_reads_its_standings(live_server, page: Page, director, club):
    signed_in(page, live_server, director)
    page.goto(live_server.url + reverse("club_event_new", args=[club.pk]))
    page.get_by_role("link", name=re.compile("^Seasons")).click()
    page.get_by_label("Name").fill("Autumn 2026")
    page.get_by_label("The standings count").select_option(label="Total points")
    page.get_by_label("Nights in the season (M)").fill("10")
    page.get_by_role("button", name="Make the season").click()
    expect(page.locator("h1")).to_contain_text("Autumn 2026")
    expect(page.locator(".messages")).to_contain_text("Season made: Autumn 2026.")
    expect(page.locator("#season-standings")).to_contain_text("No night of this season is finished yet.")

    season = ClubSeason.objects.get(household=club)
    # Week 1, progressive: Ann (North) and Di (South) partner, 25 to Bob and Cy's 15, each their own.
    play_night(
        club,
        director,
        name="Week 1",
        format="progressive",
        entrants=[["Ann"], ["Bob"], ["Cy"], ["Di"]],
        season=season,
    )
    # Week 2, teams: Ann & Bob beat Cy & Ed, 25 to 15.
    play_night(club, director, name="Week 2", entrants=[["Ann", "Bob"], ["Cy", "Ed"]], season=season)

    page.reload()
    standings = page.locator("#season-standings")
    expect(standings).to_contain_text("Every night a member plays counts, ranked by their total points.")
    expect(standings).to_contain_text("Equal records share a place (marked =); no tie is broken.")
    rows = standings.locator("tbody tr")
    expect(rows).to_have_count(5)
    seen = [[cell.strip() for cell in row.locator("td").all_inner_texts()] for row in rows.all()]
    # Each member's name has their rating under it ("27.1 ± 4.2").
    ratings = [row[1].split("\n")[-1] for row in seen]
    assert all(re.fullmatch(r"\d+\.\d ± \d+\.\d", rating) for rating in ratings), seen
    assert [[row[0], row[1].split("\n")[0], *row[2:]] for row in seen] == [
        ["1", "Ann", "2", "50", "25.0"],
        ["2", "Bob", "2", "40", "20.0"],
        ["3", "Cy", "2", "30", "15.0"],
        ["4", "Di", "1", "25", "25.0"],
        ["5", "Ed", "1", "15", "15.0"],
    ]
    expect(standings).to_contain_text("Everyone starts at 25.0 ± 8.3")
    assert not page.evaluate(WIDER_THAN_THE_PHONE)
    assert not page.evaluate(TABLE_CUT)
    assert page.evaluate(SMALL_TARGETS) == []
    expect(page.locator("#season-nights")).to_contain_text("Week 1")
    expect(page.locator("#season-nights")).to_contain_text("Week 2")
    page.set_viewport_size({"width": 320, "height": 568})
    assert not page.evaluate(WIDER_THAN_THE_PHONE)  # the table scrolls inside its box, the page does not
    assert not page.evaluate(TABLE_CUT), "the standings fit a 320-wide phone, every column in sight"
    page.set_viewport_size({"width": 375, "height": 812})

    standings.get_by_role("link", name="Ann").click()
    expect(page.locator("h1")).to_contain_text("Ann")
    expect(page.locator("#member-summary")).to_contain_text(
        "Place 1 · 2 nights played, 2 counted · 50 points"
    )
    expect(page.locator("#member-summary")).to_contain_text(re.compile(r"Rating: \d+\.\d ± \d+\.\d"))
    nights = [
        [c.strip() for c in row.locator("td").all_inner_texts()] for row in page.locator("tbody tr").all()
    ]
    assert [row[1:] for row in nights] == [
        ["Week 1", "25", "1= of 4", "yes"],
        ["Week 2 Team 1: Ann & Bob", "25", "1 of 2", "yes"],
    ]
    assert not page.evaluate(WIDER_THAN_THE_PHONE)


def test_a_member_is_found_among_150_at_check_in(live_server, page: Page, director, club):
    for n in range(148):
        player_create(household=club, name=f"Member {n:03d}")
    player_create(household=club, name="Ann Lee")
    player_create(household=club, name="Bob Marsh")
    event = club_event(club, director, name="Week 3")
    signed_in(page, live_server, director)
    page.goto(live_server.url + reverse("club_event", args=[event.pk]))
    find = page.get_by_label("Find a member")
    find.fill("lee")
    roster = page.locator("#id_players")
    expect(roster.locator("label:visible")).to_have_count(1)
    roster.get_by_label("Ann Lee").check()
    find.fill("MARSH")  # any case; Ann Lee, ticked, stays in sight
    expect(roster.locator("label:visible")).to_have_text(["Ann Lee", "Bob Marsh"])
    roster.get_by_label("Bob Marsh").check()
    page.get_by_role("button", name="Check in").click()
    expect(page.locator(".messages")).to_contain_text("Checked in: Ann Lee & Bob Marsh.")
