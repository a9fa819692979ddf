"""The practice forms' one-time tokens: bound to the browser they were shown to, checked in words
before they reach the database, and a look at the start form writes no session row."""

from __future__ import annotations

import random

import pytest
from django.contrib.messages import get_messages
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from scorepad.engine.answers import ANSWER_KEYS, answer_json
from scorepad.engine.bots import make_bot
from scorepad.engine.game import from_json, seat_view
from scorepad.models import PracticeGame

pytestmark = pytest.mark.django_db


def shown_start_form(client: Client) -> dict[str, str]:
    """The start form as the browser was shown it (its defaults and its one-time token)."""
    shown = client.get(reverse("practice")).context["form"]
    values = {name: shown[name].value() for name in shown.fields}
    return {name: str(value) for name, value in values.items() if value is not None and value is not False}


def start(client: Client) -> PracticeGame:
    """A classic game started through the start form, against the quick `heuristic` bots."""
    response = client.post(reverse("practice"), {**shown_start_form(client), "strength": "heuristic"})
    assert response.status_code == 302, response.content.decode()[:2000]
    return PracticeGame.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def play_out_hand(client: Client, game: PracticeGame) -> PracticeGame:
    """The first hand played to its end through the table's forms, the quick `heuristic` bot
    answering in the player's seat."""
    while (state := from_json(game.state)).result is None:
        view = seat_view(state, 0)
        answer = answer_json(view.decision, make_bot("heuristic", 0, random.Random(0)).decide(view))
        value = "pass" if answer is None else " ".join(answer) if isinstance(answer, list) else str(answer)
        form = {ANSWER_KEYS[view.decision]: value, "version": str(game.version)}
        assert client.post(reverse("practice_act", args=[game.pk]), form).status_code == 302
        game.refresh_from_db()
    return game


def _replay_token(client: Client, game: PracticeGame) -> str:
    return client.get(reverse("practice_review", args=[game.pk, 0])).context["replay_token"]


def _messages(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.mark.parametrize(
    "token",
    ["a" * 65, "abc\x00def", "", "a" * 54],
    ids=["65 characters", "a NUL", "empty", "well formed but never shown"],
)
def test_a_replay_token_that_was_never_shown_is_refused_in_words_and_starts_nothing(client, token):
    game = play_out_hand(client, start(client))
    response = client.post(reverse("practice_replay", args=[game.pk, 0]), {"start_token": token})
    assert response.status_code == 302
    assert response["Location"] == reverse("practice_review", args=[game.pk, 0])
    assert any("This replay button is out of date" in message for message in _messages(response))
    assert not PracticeGame.objects.filter(replay_of=game).exists()


def test_the_replay_token_the_review_page_shows_starts_the_replay(client):
    game = play_out_hand(client, start(client))
    response = client.post(
        reverse("practice_replay", args=[game.pk, 0]), {"start_token": _replay_token(client, game)}
    )
    replay = PracticeGame.objects.get(replay_of=game)
    assert response["Location"] == reverse("practice_game", args=[replay.pk])


def test_another_visitors_start_token_does_not_open_their_game_through_a_replay(client):
    theirs = start(client)
    their_token = theirs.start_token  # the token their start form sent
    assert their_token
    other = Client()
    mine = play_out_hand(other, start(other))

    response = other.post(reverse("practice_replay", args=[mine.pk, 0]), {"start_token": their_token})

    assert response["Location"] != reverse("practice_game", args=[theirs.pk])
    assert other.get(reverse("practice_game", args=[theirs.pk])).status_code == 404
    assert not PracticeGame.objects.filter(replay_of=mine).exists()


def test_another_visitors_replay_token_does_not_open_their_replay(client):
    theirs = play_out_hand(client, start(client))
    token = _replay_token(client, theirs)
    client.post(reverse("practice_replay", args=[theirs.pk, 0]), {"start_token": token})
    their_replay = PracticeGame.objects.get(replay_of=theirs)
    other = Client()
    mine = play_out_hand(other, start(other))

    other.post(reverse("practice_replay", args=[mine.pk, 0]), {"start_token": token})

    assert other.get(reverse("practice_game", args=[their_replay.pk])).status_code == 404


def test_looking_at_the_start_form_without_a_cookie_writes_no_session_row():
    for _ in range(5):
        assert Client().get(reverse("practice")).status_code == 200
    assert Session.objects.count() == 0


def test_a_visitor_without_a_session_still_starts_a_game_and_keeps_it():
    visitor = Client()
    game = start(visitor)
    assert Session.objects.count() == 1  # made by the start, not by the look at the form
    assert visitor.get(reverse("practice_game", args=[game.pk])).status_code == 200


def test_a_start_form_shown_to_another_browser_is_refused():
    response = Client().post(reverse("practice"), shown_start_form(Client()))
    assert response.status_code == 200
    assert "This form is out of date" in response.content.decode()
    assert not PracticeGame.objects.exists()


@pytest.mark.parametrize("token", ["a" * 65, "abc\x00def"], ids=["65 characters", "a NUL"])
def test_a_start_token_too_long_or_with_a_nul_is_refused_in_the_forms_words(client, token):
    response = client.post(reverse("practice"), {**shown_start_form(client), "start_token": token})
    assert response.status_code == 200
    assert "This form is out of date" in response.content.decode()
    assert not PracticeGame.objects.exists()
