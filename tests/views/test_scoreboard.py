"""Shared scoreboards: the read-only link, sharing and stopping it, and the live "changed since" answers."""

import re

import pytest
from django.urls import reverse

from scorepad.models import ScoreboardLink
from scorepad.selectors.games import scoresheet
from scorepad.selectors.live import game_fingerprint, sheet_fingerprint
from scorepad.services import ServiceError
from scorepad.services.games import hand_edit, hand_record, hand_throw_in
from scorepad.services.scoreboards import scoreboard_link_create, scoreboard_link_revoke
from tests.sample_games import CLASSIC_PLAYING, CLASSIC_WON, import_game, make_household, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Bo (seat 0) bids 25 in clubs: Bo & Di 10 + 15 = 25 made; Ann & Cy 6 + 10 = 16.  Totals 40, 46.
NEXT_HAND = {"bidder": 0, "bid": 25, "trump": "C", "meld": [10, 6], "tricks": [15, 10]}


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def game(alice):
    household = make_household(alice, name="The Smiths")
    return import_game(household, CLASSIC_PLAYING, ("Bo", "Ann", "Di", "Cy"))  # totals 15, 30


@pytest.fixture
def link(game, alice):
    return scoreboard_link_create(game=game, user=alice)


def board_url(link, **query):
    url = reverse("scoreboard", args=[link.token])
    return url + ("?" + "&".join(f"{key}={value}" for key, value in query.items()) if query else "")


def points(body: str) -> list[str]:
    return re.findall(r'<span class="points"[^>]*>(-?\d+)</span>', body)


def test_a_shared_link_shows_the_scores_to_anyone_and_offers_no_action(client, link):
    response = client.get(board_url(link))

    body = response.content.decode()
    assert response.status_code == 200
    assert points(body) == ["15", "30"]
    assert "<strong>Ann</strong> deals" in body  # hand 2 is dealt by seat 1
    assert "Ann 20" in body  # the last hand: Ann bid 20
    assert 'id="totals-chart"' in body
    assert "<form" not in body  # no undo, no log out, no hand form
    assert "/edit/" not in body  # the hands are listed without corrections …
    assert "/delete/" not in body
    assert "The Smiths" not in body  # nothing about the household


def test_a_thrown_in_deal_shows_as_thrown_in_not_as_an_empty_bid(client, game, link):
    hand_throw_in(game=game, number=1, dealer=1)

    body = client.get(board_url(link)).content.decode()
    assert "thrown in" in body
    assert "None" not in body  # no bidder, bid or result for a deal nobody played
    assert points(body) == ["15", "30"]


def test_a_wrong_or_stopped_token_is_a_404(client, game, link):
    assert client.get(reverse("scoreboard", args=["not-a-token"])).status_code == 404
    scoreboard_link_revoke(game=game, link_id=link.pk)

    assert client.get(board_url(link)).status_code == 404
    assert client.get(board_url(link, since=game_fingerprint(game)), **HTMX).status_code == 404


def test_a_link_shows_its_own_game_only(client, alice, link):
    other = import_game(
        make_household(make_user("bob"), name="Joneses"), CLASSIC_WON, ("Ann", "Bo", "Cy", "Di")
    )

    body = client.get(board_url(link)).content.decode()

    assert points(body) == ["15", "30"]
    assert "Joneses" not in body
    assert f"/games/{other.pk}/" not in body


def test_an_unchanged_game_answers_204_and_a_recorded_hand_sends_the_new_board(client, game, link):
    since = game_fingerprint(game)
    assert client.get(board_url(link, since=since), **HTMX).status_code == 204

    hand_record(game=game, number=1, data=NEXT_HAND)
    response = client.get(board_url(link, since=since), **HTMX)

    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="board"')  # the partial, not the page
    assert points(body) == ["40", "46"]
    assert f"since={game_fingerprint(game)}" in body  # the next poll asks about the new state
    assert client.get(board_url(link, since=game_fingerprint(game)), **HTMX).status_code == 204


def test_a_corrected_hand_changes_the_fingerprint(game):
    before = game_fingerprint(game)
    hand = game.hands.get(number=0)
    hand_edit(
        game=game, hand_id=hand.pk, version=hand.version, data={**CLASSIC_PLAYING["hands"][0], "bid": 21}
    )

    assert game_fingerprint(game) != before


def test_a_page_s_fingerprint_is_the_stored_game_s(game):
    """The page's poller hashes the scoresheet it drew; the poll hashes the database: they must agree."""
    hand_record(game=game, number=1, data=NEXT_HAND)

    assert sheet_fingerprint(scoresheet(game)) == game_fingerprint(game)


def test_big_screen_mode_marks_the_page_and_keeps_it_in_its_polls(client, link):
    body = client.get(board_url(link, big=1)).content.decode()

    assert '<body class="big-screen"' in body
    assert f"{board_url(link)}?big=1&amp;since=" in body
    assert f'href="{board_url(link)}"' in body  # back to the phone view


def test_a_member_makes_one_link_and_a_double_tap_gets_the_same_one(client, alice, game):
    client.force_login(alice)
    url = reverse("game_share", args=[game.pk])

    client.post(url)
    client.post(url)

    links = list(ScoreboardLink.objects.filter(game=game))
    assert len(links) == 1
    body = client.get(url).content.decode()
    assert f"/s/{links[0].token}/" in body
    assert "Stop sharing this link" in body


def test_stopping_a_link_twice_is_refused_in_words(client, alice, game, link):
    client.force_login(alice)
    url = reverse("game_share", args=[game.pk])

    first = client.post(url, {"revoke": link.pk}, follow=True)
    second = client.post(url, {"revoke": link.pk}, follow=True)

    assert "Sharing stopped" in first.content.decode()
    assert "already stopped" in second.content.decode()
    link.refresh_from_db()
    assert link.revoked_at is not None


def test_a_link_of_another_game_cannot_be_stopped_from_this_one(alice, game, link):
    other = import_game(game.household, CLASSIC_WON, ("Ann", "Bo", "Cy", "Di"))

    with pytest.raises(ServiceError, match="does not belong to this game"):
        scoreboard_link_revoke(game=other, link_id=link.pk)
    link.refresh_from_db()
    assert link.revoked_at is None


def test_the_game_page_polls_with_the_fingerprint_of_what_it_shows(client, alice, game):
    client.force_login(alice)

    body = client.get(reverse("game", args=[game.pk])).content.decode()

    assert f'hx-get="{reverse("game_live", args=[game.pk])}?since={game_fingerprint(game)}"' in body
    assert 'hx-select-oob="#live-game,#scoreboard,#corrections,#hands,#totals-chart"' in body
    assert reverse("game_share", args=[game.pk]) in body


def test_the_game_page_s_poll_sends_the_scores_but_never_the_hand_form(client, alice, game):
    client.force_login(alice)
    url = reverse("game_live", args=[game.pk])
    since = game_fingerprint(game)
    assert client.get(url, {"since": since, "number": 1}, **HTMX).status_code == 204

    hand_record(game=game, number=1, data=NEXT_HAND)
    body = client.get(url, {"since": since, "number": 1}, **HTMX).content.decode()

    for part in ("live-game", "scoreboard", "hands", "totals-chart"):
        assert f'id="{part}"' in body
    assert 'id="hand-form"' not in body
    assert points(body) == ["40", "46"]
    assert "Updated from another phone" in body
    assert "The form below is for hand 2, but the next hand is 3" in body


def test_the_game_page_s_poll_is_for_members_only(client, game):
    client.force_login(make_user("mallory"))

    assert client.get(reverse("game_live", args=[game.pk]), **HTMX).status_code == 404
