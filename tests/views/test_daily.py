"""The daily deal's pages: served without a search, played through the practice table to the
comparison, one counted attempt, forged addresses refused in words, starts limited like practice."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorepad import bot_pool
from scorepad.engine.answers import ANSWER_KEYS, answer_json
from scorepad.engine.bots import make_bot
from scorepad.engine.cards import parse_card
from scorepad.engine.game import from_json, seat_view
from scorepad.models import DailyAttempt, DailyDeal, PracticeGame
from scorepad.views.practice import NO_HINT_DAILY
from tests.views.test_help import visible_text

pytestmark = pytest.mark.django_db

ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")
EXPERT = 17


@pytest.fixture(autouse=True)
def _bots_that_think_little(monkeypatch):
    """What the daily pages show does not depend on how the bots across the table think: here they
    are heuristic bots, answering at once (``tests/services/test_daily.py`` plays the expert)."""
    monkeypatch.setattr("scorepad.services.daily.DAILY_STRENGTH", "heuristic")


@pytest.fixture
def today() -> str:
    return timezone.localdate().isoformat()


@pytest.fixture
def deal() -> DailyDeal:
    """Today's classic deal with the expert's result stored ahead (``manage.py daily_deals``)."""
    day = timezone.localdate()
    line = {"bidder": 1, "bid": 25, "trump": "H", "points": [10, 40], "scores": [EXPERT, 35]}
    # A fixed seed, not the day's (which changes with the date): the same deal on every run.
    return DailyDeal.objects.create(day=day, variant="classic", seed=4, expert_score=EXPERT, expert_line=line)


def play(client: Client, today: str, counted: str = "1") -> PracticeGame:
    response = client.post(reverse("daily_play", args=[today, "classic"]), {"counted": counted})
    assert response.status_code == 302, visible_text(response.content.decode())[:500]
    return PracticeGame.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def play_out(client: Client, game: PracticeGame) -> PracticeGame:
    """The hand played to its end through the table's forms, the `heuristic` bot answering for the player."""
    while from_json(game.state).result is None:
        game = play_out_step(client, game)
    return game


def play_out_step(client: Client, game: PracticeGame) -> PracticeGame:
    """The player's next decision, as the `heuristic` bot would take it, posted through the table's form."""
    view = seat_view(from_json(game.state), 0)
    answer = answer_json(view.decision, make_bot("heuristic", 0, random.Random(0)).decide(view))
    value = "pass" if answer is None else " ".join(answer) if isinstance(answer, list) else str(answer)
    form = {ANSWER_KEYS[view.decision]: value, "version": str(game.version)}
    assert client.post(reverse("practice_act", args=[game.pk]), form).status_code == 302
    game.refresh_from_db()
    return game


def words(response) -> str:
    return visible_text(response.content.decode())


def test_a_visitor_plays_todays_deal_to_the_comparison(client, deal, today):
    game = play(client, today)
    game = play_out(client, game)
    table = client.get(reverse("practice_game", args=[game.pk]))
    assert "See how you did" in words(table)
    assert "Next hand" not in words(table)  # the daily deal is one hand

    page = client.get(reverse("daily_deal", args=[today, "classic"]))

    text = words(page)
    mine = game.hands[0]["scores"][0]
    assert re.search(
        rf"Your score\s+{re.escape(f'+{mine}' if mine > 0 else str(mine).replace('-', '−'))}", text
    )
    assert f"The expert in your seat +{EXPERT}" in " ".join(text.split())
    assert "Left bid 25 in ♥" in text
    assert "Visitors play unranked: log in before you play a day's deal to be ranked" in text
    assert reverse("practice_review", args=[game.pk, 0]) in page.content.decode()
    assert not ENGINE_CODE.search(text)
    assert DailyAttempt.objects.get(game=game).score == mine


def test_the_daily_pages_answer_without_any_bot_search(client, deal, today, monkeypatch, django_user_model):
    others = [django_user_model.objects.create_user(f"p{n}") for n in range(3)]
    for n, user in enumerate(others):
        DailyAttempt.objects.create(deal=deal, user=user, counted=True, score=10 * n)

    def no_search(*args, **kwargs):
        raise AssertionError("a daily page made the bots think")

    monkeypatch.setattr(bot_pool, "think", no_search)
    for url in (reverse("daily"), reverse("daily_deal", args=[today, "classic"]), reverse("daily_archive")):
        assert client.get(url).status_code == 200, url


def test_results_stay_hidden_until_you_have_finished_todays_deal(client, deal, today, django_user_model):
    DailyAttempt.objects.create(deal=deal, guest="someone", counted=True, score=40)
    text = words(client.get(reverse("daily_deal", args=[today, "classic"])))
    assert f"+{EXPERT}" not in text
    assert "Play today's deal first" in text
    assert "leaderboard" not in text.lower()


def test_a_second_counted_attempt_is_refused_in_words_and_changes_nothing(client, deal, today):
    play_out(client, play(client, today))
    before = (PracticeGame.objects.count(), DailyAttempt.objects.count())

    again = client.post(reverse("daily_play", args=[today, "classic"]), {"counted": "1"})

    assert again.status_code == 409
    assert "already played today's classic deal: one attempt counts" in words(again)
    assert (PracticeGame.objects.count(), DailyAttempt.objects.count()) == before
    practice = play(client, today, counted="0")
    assert not DailyAttempt.objects.get(game=practice).counted


@pytest.mark.parametrize(
    ("day", "variant", "said"),
    [
        ("2026-13-01", "classic", "is not a day"),
        ("tomorrow", "classic", "is not a day"),
        ("2999-01-01", "classic", "not dealt yet"),
        ("1999-12-31", "classic", "begin on 1 January 2000"),
        (None, "pinochle", "no daily deal for 'pinochle'"),
    ],
)
def test_a_forged_day_or_variant_is_refused_in_words(client, today, day, variant, said):
    args = [day or today, variant]
    page = client.get(reverse("daily_deal", args=args))
    start = client.post(reverse("daily_play", args=args), {"counted": "1"})
    assert (page.status_code, start.status_code) == (404, 404)
    assert said in words(page)
    assert said in words(start)
    assert not DailyDeal.objects.exists()
    assert not PracticeGame.objects.exists()


def test_the_counted_attempt_offers_no_hint_and_no_undo(client, deal, today):
    game = play(client, today)
    table = client.get(reverse("practice_game", args=[game.pk]) + "?hint=1")
    assert NO_HINT_DAILY in words(table)
    assert "Hint:" not in words(table)
    html = table.content.decode()
    assert reverse("practice_undo", args=[game.pk]) not in html
    assert "?hint=1" not in html


def test_an_account_chooses_to_show_its_name_on_the_leaderboard(member, ann, deal, today):
    play_out(member, play(member, today))
    page = reverse("daily_deal", args=[today, "classic"])
    assert "ann (you)" not in words(member.get(page))

    member.post(reverse("daily_settings"), {"show_name": "1", "next": page})

    assert "ann (you)" in words(member.get(page))
    assert "Streak 1 day in a row" in " ".join(words(member.get(reverse("daily"))).split())


def test_a_visitors_score_is_not_among_the_players(client, deal, today, django_user_model):
    for n in range(2):
        DailyAttempt.objects.create(
            deal=deal, user=django_user_model.objects.create_user(f"p{n}"), counted=True, score=10
        )
    for n in range(5):  # five fresh browsers, each a visitor with a counted attempt
        DailyAttempt.objects.create(deal=deal, guest=f"browser {n}", counted=True, score=50)
    play_out(client, play(client, today))

    text = " ".join(words(client.get(reverse("daily_deal", args=[today, "classic"]))).split())
    assert "2 players with an account finished this deal" in text
    assert "Visitors play unranked" in text
    assert "2 players with an account finished it so far" in " ".join(
        words(client.get(reverse("daily"))).split()
    )


@pytest.mark.parametrize(
    "back", ["-1", "0", "[]", "daily", "home", "", "//evil.example/", "https://evil.example/", "/x\x00"]
)
def test_a_forged_way_back_from_the_settings_goes_to_the_daily_page(member, back):
    response = member.post(reverse("daily_settings"), {"show_name": "1", "next": back})
    assert response.status_code == 302
    assert response["Location"] == reverse("daily")


def test_the_settings_go_back_to_the_page_they_were_sent_from(member, today):
    page = reverse("daily_deal", args=[today, "classic"])
    assert member.post(reverse("daily_settings"), {"next": page})["Location"] == page


def test_starting_is_limited_like_practice(client, deal, today, settings):
    settings.CPU_BUDGETS = {**settings.CPU_BUDGETS, "practice-start": (1, 3, 600)}
    play(client, today)
    refused = client.post(reverse("daily_play", args=[today, "classic"]), {"counted": "1"})
    assert refused.status_code == 429
    assert refused["Retry-After"]


def test_a_forged_card_on_the_counted_attempt_is_refused_in_words_and_changes_nothing(client, deal, today):
    game = play(client, today)
    while from_json(game.state).result is None and seat_view(from_json(game.state), 0).decision != "play":
        game = play_out_step(client, game)
    held = set(seat_view(from_json(game.state), 0).hand)
    forged = next(code for code in ("AS", "AH", "AD", "AC", "9S", "9H") if parse_card(code) not in held)
    state = dict(game.state)

    response = client.post(
        reverse("practice_act", args=[game.pk]), {"card": forged, "version": str(game.version)}, follow=True
    )

    assert "Not allowed" in words(response) or "not in your hand" in words(response)
    game.refresh_from_db()
    assert game.state == state
