"""Review, step-through, log download and replay pages of a practice hand."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from scorepad.engine import review as engine_review
from scorepad.models import PracticeGame
from scorepad.services.practice import practice_next_hand
from tests.services.test_practice import play_out_hand
from tests.views.test_practice import start

pytestmark = pytest.mark.django_db
ENGINE_CODE = re.compile(r"\b[ATKQJ9][SHDC]\b")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_review, "REVIEW_PLAYOUTS", 24)
    monkeypatch.setattr("scorepad.services.practice_review.REVIEW_PLAYOUTS", 24)


def played_hand(client) -> PracticeGame:
    return play_out_hand(start(client))


def test_the_hand_summary_links_to_its_review_and_step_through(client):
    game = played_hand(client)
    page = client.get(reverse("practice_game", args=[game.pk])).content.decode()
    assert reverse("practice_review", args=[game.pk, 0]) in page
    assert reverse("practice_step", args=[game.pk, 0]) in page


def test_the_review_shows_working_then_fills_in(client, monkeypatch):
    monkeypatch.setattr("scorepad.services.practice_review.SLICE_CPU_SECONDS", 0.0)
    game = played_hand(client)
    url = reverse("practice_review", args=[game.pk, 0])
    page = client.get(url).content.decode()
    assert "Working…" in page
    assert f'hx-get="{url}"' in page
    assert 'hx-trigger="load delay:1s"' in page
    assert f'href="{url}">Refresh' in page
    for _ in range(60):
        partial = client.get(url, **HTMX).content.decode()
        if "Working…" not in partial:
            break
    assert "Working…" not in partial
    assert "<html" not in partial
    assert "The expert in your seat" in partial
    assert not ENGINE_CODE.search(re.sub(r"<[^>]+>", "", partial))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", partial))
    assert "Points left on the table: for each of your decisions" in text  # the figure, defined
    assert "No decision is charged more than it could change" in text  # and its bound, explained
    assert re.search(r"Duplicate against the expert: [-+]?\d+ \(your side scored -?\d+", text)
    assert "A different measure" in text


def test_step_through_goes_forward_and_back_with_every_hand_face_up(client):
    game = played_hand(client)
    url = reverse("practice_step", args=[game.pk, 0])
    first = client.get(url, {"trick": 1})
    board = first.context["board"]
    assert board.step == 1
    assert sum(len(seat.cards) for seat in board.seats) == 48
    assert sum(seat.played is not None for seat in board.seats) == 4
    assert 'href="?trick=2"' in first.content.decode()
    assert 'href="?trick=0"' in first.content.decode()
    last = client.get(url, {"trick": 99}, **HTMX)
    assert last.context["board"].step == last.context["board"].steps
    assert "Forward" not in last.content.decode()
    assert client.get(url, {"trick": "x"}).context["board"].step == 0


def test_the_hand_log_downloads_as_one_rules_line(client):
    game = played_hand(client)
    response = client.get(reverse("practice_hand_log", args=[game.pk, 0]))
    assert response["Content-Disposition"].startswith("attachment")
    line = json.loads(response.content.decode())
    assert line == game.hands[0]["log"]


def test_replay_posts_start_a_replay_and_a_resent_form_does_not_start_another(client):
    game = played_hand(client)
    url = reverse("practice_replay", args=[game.pk, 0])
    token = client.get(reverse("practice_review", args=[game.pk, 0])).context["replay_token"]
    first = client.post(url, {"start_token": token})
    again = client.post(url, {"start_token": token})
    assert first["Location"] == again["Location"]
    replay = PracticeGame.objects.get(replay_of=game)
    assert first["Location"] == reverse("practice_game", args=[replay.pk])
    assert client.get(first["Location"]).status_code == 200


def test_another_visitors_hand_is_not_found(client, django_user_model):
    game = played_hand(client)
    client.logout()
    client.cookies.clear()
    assert client.get(reverse("practice_review", args=[game.pk, 0])).status_code == 404
    assert client.get(reverse("practice_hand_log", args=[game.pk, 0])).status_code == 404


def test_a_hand_not_yet_over_is_refused_in_words(client):
    game = start(client)
    response = client.get(reverse("practice_review", args=[game.pk, 0]), follow=True)
    assert "not over yet" in response.content.decode()


def test_every_past_hand_in_the_running_totals_links_to_its_review(client):
    game = played_hand(client)
    game = practice_next_hand(game=game, version=game.version).game
    game = play_out_hand(game)
    page = client.get(reverse("practice_game", args=[game.pk])).content.decode()
    assert reverse("practice_review", args=[game.pk, 0]) in page  # the hand before this one
    assert reverse("practice_review", args=[game.pk, 1]) in page


def test_reviews_over_the_browsers_budget_are_refused_in_words_and_work_out_nothing(client, settings):
    game = played_hand(client)
    settings.CPU_BUDGETS = {**settings.CPU_BUDGETS, "practice-review": (2, 3, 600)}
    url = reverse("practice_review", args=[game.pk, 0])
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    game.refresh_from_db()
    before = (game.reviews, game.review_version)
    refused = client.get(url)
    assert refused.status_code == 429
    assert 590 <= int(refused["Retry-After"]) <= 600
    assert "Too many hand reviews from this browser" in refused.content.decode()
    game.refresh_from_db()
    assert (game.reviews, game.review_version) == before  # the refused look worked nothing out
