"""History, statistics, export, import and CSV pages, and the totals chart on the game page."""

import csv
import io
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scorepad.models import Game
from scorepad.selectors.exchange import game_export
from tests.sample_games import (
    CLASSIC_PLAYING,
    CLASSIC_WON,
    DOUBLE_DECK_SET,
    import_game,
    make_household,
    make_user,
)

pytestmark = pytest.mark.django_db


def page_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def game_ids(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', page)]


def no_inline_styles(page: str) -> bool:
    """The CSP forbids inline styles: no style attributes and no <style> blocks."""
    return not re.search(r"<[^>]+\sstyle=", page) and "<style" not in page


# ---- history --------------------------------------------------------------------------------


def test_history_lists_every_game_with_its_totals_and_result(member, household, games):
    page = page_of(member.get(reverse("history", args=[household.pk])))

    assert game_ids(page) == [games["double"].pk, games["playing"].pk, games["won"].pk]
    assert "Won by Ann &amp; Cy" in page
    assert re.search(r"Ann &amp; Cy</td><td class=\"num\">167<", page)
    assert re.search(r"Bo &amp; Di</td><td class=\"num\">38<", page)
    assert page.count("In progress") >= 2
    assert no_inline_styles(page)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"variant": "classic"}, ["playing", "won"]),
        ({"status": "finished"}, ["won"]),
        ({"status": "playing"}, ["double", "playing"]),
        ({"variant": "double-deck", "status": "playing"}, ["double"]),
        ({"variant": "six-handed"}, []),
    ],
)
def test_history_filters_with_a_plain_get_form(member, household, games, query, expected):
    page = page_of(member.get(reverse("history", args=[household.pk]), query))

    assert game_ids(page) == [games[name].pk for name in expected]
    assert "<html" in page


def test_history_filters_by_player(member, household, games):
    ed = household.players.get(name="Ed")

    page = page_of(member.get(reverse("history", args=[household.pk]), {"player": ed.pk}))

    assert game_ids(page) == [games["double"].pk]


def test_history_ignores_filters_it_does_not_understand(member, household, games):
    page = page_of(member.get(reverse("history", args=[household.pk]), {"variant": "bezique", "player": "x"}))

    assert len(game_ids(page)) == 3
    assert "not understood" in page


def test_history_keeps_the_filters_it_understands(member, household, games):
    page = page_of(member.get(reverse("history", args=[household.pk]), {"variant": "classic", "player": "x"}))

    assert game_ids(page) == [games["playing"].pk, games["won"].pk]
    assert "left out: player" in page


def test_history_htmx_request_gets_only_the_game_list(member, household, games):
    response = member.get(
        reverse("history", args=[household.pk]), {"variant": "classic"}, HTTP_HX_REQUEST="true"
    )
    page = page_of(response)

    assert "<html" not in page
    assert page.strip().startswith('<section id="game-list"')
    assert game_ids(page) == [games["playing"].pk, games["won"].pk]
    assert "HX-Request" in response["Vary"]


def test_history_restore_after_a_cache_miss_gets_the_whole_page(member, household, games):
    response = member.get(
        reverse("history", args=[household.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )

    assert "<html" in page_of(response)


def test_history_filter_form_works_with_and_without_javascript(member, household):
    page = page_of(member.get(reverse("history", args=[household.pk])))
    form = re.search(r"<form class=\"filters[^>]*>", page, re.S).group(0)
    url = reverse("history", args=[household.pk])

    assert 'method="get"' in form
    assert f'action="{url}"' in form
    assert f'hx-get="{url}"' in form
    assert 'hx-push-url="true"' in form
    assert 'hx-target="#game-list"' in form


def test_history_pages_keep_the_filters(member, household):
    for _ in range(21):
        import_game(household, CLASSIC_PLAYING, ("Bo", "Ann", "Di", "Cy"))

    first = page_of(member.get(reverse("history", args=[household.pk]), {"variant": "classic"}))
    second = page_of(member.get(reverse("history", args=[household.pk]), {"variant": "classic", "page": 2}))

    assert len(game_ids(first)) == 20
    assert len(game_ids(second)) == 1
    assert 'href="?variant=classic&amp;page=2"' in first


# ---- statistics -----------------------------------------------------------------------------


def stats_row(page: str, variant_label: str, player: str) -> list[str]:
    section = page.split(f"<h2>{variant_label}</h2>")[1].split("</section>")[0]
    row = re.search(rf"<th scope=\"row\">{player}</th>(.*?)</tr>", section, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_statistics_page_shows_the_hand_worked_numbers(member, household, games):
    page = page_of(member.get(reverse("statistics", args=[household.pk])))

    # Games, won (share of finished games), bids, made, average bid, average side meld.
    assert stats_row(page, "Classic (4 players, partners)", "Ann") == [
        "2",
        "1 100%",
        "3",
        "100%",
        "24.0",
        "16.8",
    ]
    assert stats_row(page, "Classic (4 players, partners)", "Bo") == ["2", "0 0%", "1", "0%", "25.0", "8.3"]
    assert stats_row(page, "Double-deck (4 players, partners)", "Ed") == ["1", "0", "0", "–", "–", "28.5"]
    assert "average meld of the player's side per hand" in page
    assert no_inline_styles(page)


def test_statistics_page_without_games_says_so(member, household):
    assert "No games yet" in page_of(member.get(reverse("statistics", args=[household.pk])))


# ---- export and CSV -------------------------------------------------------------------------


def test_export_downloads_the_game_record_as_a_json_attachment(member, games):
    game = games["double"]

    response = member.get(reverse("game_export", args=[game.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert (
        response["Content-Disposition"] == f'attachment; filename="pinochle-double-deck-game-{game.pk}.json"'
    )
    assert json.loads(response.content) == DOUBLE_DECK_SET


def test_household_csv_downloads_one_row_per_hand(member, household, games):
    response = member.get(reverse("household_csv", args=[household.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="pinochle-the-smiths-hands.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 5 + 1 + 2
    assert rows[-1]["total_0"] == "2"


# ---- import ---------------------------------------------------------------------------------


def import_url(household):
    return reverse("game_import", args=[household.pk])


def seat_choices(household, names):
    players = {player.name: player.pk for player in household.players.all()}
    return {f"seat_{seat}": players[name] for seat, name in enumerate(names)}


def test_an_uploaded_file_is_checked_then_the_seats_are_asked_for(member, household):
    upload = SimpleUploadedFile("game.json", json.dumps(CLASSIC_WON).encode(), "application/json")

    page = page_of(member.post(import_url(household), {"file": upload}))

    assert "A Classic (4 players, partners) game with 5 hands, finished" in page
    assert [f'name="seat_{seat}"' in page for seat in range(5)] == [True] * 4 + [False]
    # The record moves into the textarea, so the second step needs no second upload.
    assert "&quot;bidder&quot;: 0" in page
    assert not Game.objects.exists()


def test_import_with_seats_creates_the_game_and_goes_back_to_history(member, household):
    data = {
        "record": json.dumps(CLASSIC_WON),
        **seat_choices(household, ("Cy", "Di", "Ann", "Bo")),
        "first_dealer": 2,
    }

    response = member.post(import_url(household), data)

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("history", args=[household.pk])
    assert game_export(game=game) == CLASSIC_WON
    assert [s.player.name for s in game.seats.all()] == ["Cy", "Di", "Ann", "Bo"]
    assert (game.first_dealer, game.finished, game.winner_sides) == (2, True, [0])
    history = page_of(member.get(response["Location"]))
    assert f"Imported Classic (4 players, partners) #{game.pk}: 5 hands." in history


def test_import_of_a_six_handed_game_asks_for_six_seats(member, household):
    record = {"variant": "six-handed", "hands": []}

    page = page_of(member.post(import_url(household), {"record": json.dumps(record)}))

    assert all(f'name="seat_{seat}"' in page for seat in range(6))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["Choose a file or paste a JSON game record"]),
        ('{"variant": "classic", "hands": [', ["This is not JSON", "line 1, column"]),
        (
            json.dumps({**CLASSIC_WON, "hands": [{**CLASSIC_WON["hands"][0], "bid": 19}]}),
            ["hand 1", "bid", "19"],
        ),
        (json.dumps({"variant": "classic", "hands": [{"bidder": 0}]}), ["hand 1", "bid", "missing"]),
        (json.dumps({"variant": "pinochle"}), ["variant", "pinochle"]),
    ],
)
def test_a_bad_record_is_refused_in_words_and_saves_nothing(member, household, text, words):
    data = {"record": text, **seat_choices(household, ("Ann", "Bo", "Cy", "Di"))}

    page = page_of(member.post(import_url(household), data))

    errors = re.search(r'<ul class="errorlist" id="record-errors".*?</ul>', page, re.S).group(0)
    assert all(word in errors for word in words), errors
    assert not Game.objects.exists()


def test_a_file_that_is_not_text_is_refused(member, household):
    upload = SimpleUploadedFile("game.json", b"\xff\xfe\x00binary", "application/octet-stream")

    page = page_of(member.post(import_url(household), {"file": upload}))

    assert "not a text file" in page
    assert not Game.objects.exists()


def test_the_same_player_in_two_seats_is_refused(member, household):
    data = {"record": json.dumps(CLASSIC_WON), **seat_choices(household, ("Ann", "Bo", "Ann", "Di"))}

    page = page_of(member.post(import_url(household), data))

    assert "chosen twice" in page
    assert not Game.objects.exists()


def test_another_households_player_cannot_be_seated(member, household):
    other = make_household(make_user("zed"), name="The Joneses")
    data = {"record": json.dumps(CLASSIC_WON), **seat_choices(household, ("Ann", "Bo", "Cy", "Di"))}
    data["seat_3"] = other.players.get(name="Di").pk

    page = page_of(member.post(import_url(household), data))

    assert "Select a valid choice" in page
    assert not Game.objects.exists()


def test_a_roster_too_small_for_the_game_is_explained(member, ann):
    from scorepad.services.households import household_create

    small = household_create(user=ann, name="Just us")

    page = page_of(member.post(import_url(small), {"record": json.dumps(CLASSIC_WON)}))

    assert "needs 4 players" in page


def test_import_page_has_no_inline_styles(member, household):
    assert no_inline_styles(page_of(member.get(import_url(household))))


# ---- totals chart on the game page ------------------------------------------------------------


def svg_of(page: str) -> str:
    return re.search(r"<svg viewBox=.*?</svg>", page, re.S).group(0)


def test_game_page_draws_the_totals_chart_as_svg(member, games):
    page = page_of(member.get(reverse("game", args=[games["won"].pk])))
    svg = svg_of(page)

    assert 'role="img"' in svg
    assert "<title" in svg
    assert "Running totals after 5 hands: Ann &amp; Cy 167; Bo &amp; Di 38. Target 150." in svg
    assert len(re.findall(r"<polyline class=\"chart-line series-\d\"", svg)) == 2
    assert 'class="chart-target"' in svg
    assert "<script" not in svg
    assert no_inline_styles(page)


def test_chart_points_lie_inside_the_viewbox_with_negative_totals(member, games):
    svg = svg_of(page_of(member.get(reverse("game", args=[games["double"].pk]))))

    width, height = (float(n) for n in re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).groups())
    points = [
        tuple(float(n) for n in pair.split(","))
        for line in re.findall(r'<polyline[^>]*points="([^"]+)"', svg)
        for pair in line.split()
    ]
    assert len(points) == 2 * 3  # two sides, the start and two hands
    assert all(0 <= x <= width and 0 <= y <= height for x, y in points)
    labels = [int(n) for n in re.findall(r">(-?\d+)</text>", svg)]
    assert min(labels) == -100  # the axis reaches the step below the −55 total


def test_a_game_without_hands_shows_no_empty_chart(member, household):
    game = import_game(household, {"variant": "classic", "hands": []}, ("Ann", "Bo", "Cy", "Di"))

    page = page_of(member.get(reverse("game", args=[game.pk])))

    assert "<svg viewBox" not in page


def test_a_record_too_big_for_one_game_is_refused(member, household, monkeypatch):
    monkeypatch.setattr("scorepad.forms.history.MAX_RECORD_BYTES", 100)
    upload = SimpleUploadedFile("game.json", json.dumps(CLASSIC_WON).encode(), "application/json")

    pasted = page_of(member.post(import_url(household), {"record": json.dumps(CLASSIC_WON)}))
    uploaded = page_of(member.post(import_url(household), {"file": upload}))

    assert "too big for a JSON game record" in pasted
    assert "too big for a JSON game record" in uploaded
    assert not Game.objects.exists()
