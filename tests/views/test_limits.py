"""Budgets for what costs CPU (practice starts, moves, hints, the bid advisor): per browser session,
per account and per address; over one, a 429 in words with Retry-After, and nothing changed."""

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.models import PracticeGame
from tests.sample_games import make_user
from tests.views.test_meld import FULL_CLASSIC
from tests.views.test_practice import _defaults, answer_of, start

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def budgets(settings):
    """Two uses per browser or account, three per address, in ten minutes."""
    settings.CPU_BUDGETS = {name: (2, 3, 600) for name in settings.CPU_BUDGETS}


def move(client, game, **extra):
    game.refresh_from_db()
    return client.post(reverse("practice_act", args=[game.pk]), answer_of(game), **extra)


def hint(client, game, **extra):
    return client.get(reverse("practice_game", args=[game.pk]), {"hint": "1"}, **extra)


def test_moves_over_the_browsers_budget_are_refused_in_words_and_change_nothing(client, budgets):
    game = start(client)
    assert move(client, game).status_code == 302
    assert move(client, game).status_code == 302
    game.refresh_from_db()
    before = (game.state, game.version)
    refused = move(client, game)
    assert refused.status_code == 429
    assert 590 <= int(refused["Retry-After"]) <= 600  # the 10-minute window, less the test's own time
    assert "Too many practice moves from this browser in a short time: try again in 10 minutes." in (
        refused.content.decode()
    )
    game.refresh_from_db()
    assert (game.state, game.version) == before
    assert refused.context["back"] == "/"  # not the move's own URL, which answers only POST
    table = reverse("practice_game", args=[game.pk])
    assert move(client, game, HTTP_REFERER=f"http://testserver{table}").context["back"].endswith(table)


def test_htmx_gets_the_refusal_as_a_banner_over_the_pages_own(client, budgets):
    game = start(client)
    for _ in range(2):
        hint(client, game)
    refused = hint(client, game, headers=HTMX)
    body = refused.content.decode()
    assert refused.status_code == 429
    assert body.startswith('<div id="request-error" class="request-error" role="alert">')
    assert "Too many hints from this browser" in body
    assert (refused["HX-Retarget"], refused["HX-Reswap"]) == ("#request-error", "outerHTML")
    assert 590 <= int(refused["Retry-After"]) <= 600  # the 10-minute window, less the test's own time


def test_browsers_on_one_address_share_its_budget_and_other_addresses_keep_theirs(client, budgets):
    game = start(client)
    neighbour = Client()
    neighbours_game = start(neighbour)
    assert hint(client, game).status_code == 200
    assert hint(client, game).status_code == 200
    assert hint(neighbour, neighbours_game).status_code == 200  # the address's third
    refused = hint(neighbour, neighbours_game)
    assert refused.status_code == 429
    assert "Too many hints from your network" in refused.content.decode()
    assert hint(neighbour, neighbours_game, REMOTE_ADDR="10.0.0.10").status_code == 200


def test_a_browser_over_its_own_budget_does_not_use_up_its_households(client, budgets):
    game = start(client)
    for _ in range(10):
        hint(client, game)
    neighbour = Client()
    assert hint(neighbour, start(neighbour)).status_code == 200


def test_an_accounts_budget_holds_across_its_browsers(client, budgets):
    ann = make_user("ann")
    phone, laptop = Client(), Client()
    phone.force_login(ann)
    laptop.force_login(ann)
    game = start(phone)
    assert hint(phone, game).status_code == 200
    assert hint(laptop, game, REMOTE_ADDR="10.0.0.10").status_code == 200
    refused = hint(laptop, game, REMOTE_ADDR="10.0.0.11")
    assert refused.status_code == 429
    assert "Too many hints on your account" in refused.content.decode()


def test_starts_are_counted_only_when_sent_and_the_refused_start_makes_no_game(client, budgets):
    for _ in range(5):
        assert client.get(reverse("practice")).status_code == 200  # the form costs nothing
    start(client)
    start(client)
    form = {"variant": "classic", "strength": "heuristic", **_defaults(client, "classic")}
    refused = client.post(reverse("practice"), form)
    assert refused.status_code == 429
    assert "Too many practice games started from this browser" in refused.content.decode()
    assert PracticeGame.objects.count() == 2


def test_the_bid_advisor_is_limited_and_the_calculator_is_not(client, budgets):
    for _ in range(5):
        assert client.get(reverse("meld"), {"cards": FULL_CLASSIC}).status_code == 200
    advise = {"cards": FULL_CLASSIC, "advise": "1"}
    for _ in range(3):  # a browser without a session (no cookie yet) is counted by its address
        assert client.get(reverse("meld"), advise).status_code == 200
    refused = client.get(reverse("meld"), advise)
    assert refused.status_code == 429
    assert "Too many requests for bid advice from your network" in refused.content.decode()


def test_a_visitor_keeps_their_newest_games_and_the_older_are_deleted_at_once(client, settings):
    settings.PRACTICE_GAMES_PER_VISITOR = 3
    games = [start(client) for _ in range(5)]
    assert set(PracticeGame.objects.values_list("pk", flat=True)) == {game.pk for game in games[2:]}
    for game in games[2:]:
        assert client.get(reverse("practice_game", args=[game.pk])).status_code == 200


def test_a_start_form_copied_from_another_browser_is_refused_and_starts_nothing(client):
    elsewhere = Client()
    form = {"variant": "classic", "strength": "heuristic", **_defaults(elsewhere, "classic")}
    response = client.post(reverse("practice"), form)
    assert response.status_code == 200
    assert "This form is out of date" in response.content.decode()
    assert not PracticeGame.objects.exists()
    assert elsewhere.post(reverse("practice"), form).status_code == 302  # where it was shown, it starts
