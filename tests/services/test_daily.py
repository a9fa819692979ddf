"""The daily deal: the same cards and the same bots for everyone, one counted attempt, the expert's
result worked out once (and the same as the review's), and the standings read from the attempts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.db import connection

from scorepad import bot_pool
from scorepad.engine.game import from_json
from scorepad.models import DailyAttempt, DailyDeal, PracticeGame
from scorepad.selectors.daily import Who, archive, leaderboard, record_of, standing, streak_of
from scorepad.services import daily as services_daily
from scorepad.services.daily import (
    DailyAlreadyStarted,
    DailyRefused,
    daily_day,
    daily_deal_prepare,
    daily_note_hand,
    daily_seed,
    daily_show_name,
    daily_start,
    daily_variant,
)
from scorepad.services.practice import (
    DAILY_NO_UNDO,
    DAILY_ONE_HAND,
    PracticeRefused,
    practice_act,
    practice_next_hand,
    practice_undo,
)
from scorepad.services.practice_review import practice_review_work
from tests.services.test_practice import hinted, play_out_hand, said, watch_the_bots

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 12, 6)


@pytest.fixture
def daily_experts() -> None:
    """This test plays the daily deal against its own bots, the experts."""


@pytest.fixture(autouse=True)
def _steadier_bots(request, monkeypatch) -> None:
    """An attempt's rules hold whoever the bots are, and an expert's move takes a good part of a
    second: a test not about the experts (``daily_experts``) plays the steady bots."""
    if "daily_experts" not in request.fixturenames:
        monkeypatch.setattr(services_daily, "DAILY_STRENGTH", "heuristic")


def ready(day: dt.date = TODAY, variant: str = "classic", expert: int = 20) -> DailyDeal:
    """The day's deal with an expert's result already stored (as ``manage.py daily_deals`` leaves it)."""
    return DailyDeal.objects.create(
        day=day, variant=variant, seed=daily_seed(day, variant), expert_score=expert, expert_line={}
    )


def start(
    who: User | str, *, day: dt.date = TODAY, variant: str = "classic", counted: bool = True
) -> DailyAttempt:
    user, guest = (who, "") if isinstance(who, User) else (None, who)
    return daily_start(day=day, variant_id=variant, today=TODAY, user=user, guest=guest, counted=counted)


def finished(attempt: DailyAttempt, score: int) -> DailyAttempt:
    """An attempt whose hand ended with ``score`` (as ``daily_note_hand`` keeps it)."""
    DailyAttempt.objects.filter(pk=attempt.pk).update(score=score)
    attempt.refresh_from_db()
    return attempt


def test_everyone_gets_the_same_cards_and_the_bots_answer_the_same_play_the_same_way(ann, daily_experts):
    ready()
    hers, guests = start(ann), start("visitor-key")
    assert hers.game.state == guests.game.state  # dealt alike, the bots' opening moves alike

    hers_played, guests_played = play_out_hand(hers.game), play_out_hand(guests.game)

    assert hers_played.hands == guests_played.hands
    assert hers.game.seed == daily_seed(TODAY, "classic")
    assert hers.game.strength == "expert"


def test_each_day_and_variant_has_its_own_deal_drawn_from_the_secret_key(settings):
    seeds = {
        daily_seed(TODAY, "classic"),
        daily_seed(TODAY, "six-handed"),
        daily_seed(TODAY - dt.timedelta(1), "classic"),
    }
    assert len(seeds) == 3
    before = daily_seed(TODAY, "classic")
    settings.SECRET_KEY = "another site's key, long enough to be a key of its own"
    assert daily_seed(TODAY, "classic") != before  # nobody works tomorrow's cards out from the code


@pytest.mark.slow  # a whole hand against the experts, and its review
def test_the_experts_result_is_worked_out_once_and_is_the_reviews_duplicate(ann, monkeypatch, daily_experts):
    deal = daily_deal_prepare(day=TODAY, variant_id="classic")
    assert deal.expert_score == deal.expert_line["scores"][0]
    searches = []
    monkeypatch.setattr(bot_pool, "review_slice", lambda *args: searches.append(args))
    assert daily_deal_prepare(day=TODAY, variant_id="classic").expert_score == deal.expert_score
    assert searches == []  # stored: nobody pays for it again
    monkeypatch.undo()

    attempt = start(ann)
    game = play_out_hand(attempt.game)
    review = practice_review_work(game=game, hand=0, cpu_seconds=60)
    while not review.done:
        review = practice_review_work(game=game, hand=0, cpu_seconds=60)

    assert review.duplicate == deal.expert_line  # the daily page and the hand review agree


@pytest.mark.django_db(transaction=True)  # no test transaction around the service: as on the server
def test_the_first_start_of_the_day_works_the_expert_out_with_no_transaction_open(monkeypatch, daily_experts):
    thought = []

    def no_transaction_open() -> None:
        assert not connection.in_atomic_block
        thought.append(1)

    watch_the_bots(monkeypatch, no_transaction_open)
    attempt = start("visitor-key", variant="six-handed")  # no deal made ahead: this start makes it

    assert attempt.deal.expert_score is not None
    assert len(thought) > 20  # the expert's whole hand and the bots' first moves
    assert not connection.in_atomic_block


def test_a_second_counted_attempt_is_refused_in_words_and_starts_nothing(ann):
    ready()
    first = start(ann)
    play_out_hand(first.game)
    daily_note_hand(game=PracticeGame.objects.get(pk=first.game.pk))
    games = PracticeGame.objects.count()

    with pytest.raises(DailyRefused, match="already played today's classic deal: one attempt counts"):
        start(ann)

    assert PracticeGame.objects.count() == games
    again = start(ann, counted=False)
    assert not again.counted
    assert DailyAttempt.objects.filter(counted=True).count() == 1


def test_a_counted_attempt_not_finished_is_given_back_not_dealt_again(ann):
    ready()
    first = start(ann)
    with pytest.raises(DailyAlreadyStarted) as raised:
        start(ann)
    assert raised.value.attempt.pk == first.pk
    assert DailyAttempt.objects.count() == 1


def test_todays_deal_is_practised_only_after_the_counted_attempt_has_ended(ann):
    ready()
    with pytest.raises(DailyRefused, match="for real first"):
        start(ann, counted=False)  # hints and undo first, then the counted try, would be no first try
    first = start(ann)
    with pytest.raises(DailyRefused, match="for real first"):
        start(ann, counted=False)  # nor beside a counted try still being played
    daily_note_hand(game=play_out_hand(first.game))
    assert not start(ann, counted=False).counted
    assert DailyAttempt.objects.count() == 2


def test_a_guests_attempt_counts_for_the_account_that_logs_in_at_that_browser(ann):
    ready()
    guest_attempt = start("visitor-key")
    with pytest.raises(DailyAlreadyStarted) as raised:
        daily_start(day=TODAY, variant_id="classic", today=TODAY, user=ann, guest="visitor-key", counted=True)
    assert raised.value.attempt.pk == guest_attempt.pk


def test_only_todays_deal_counts_and_a_day_not_come_is_refused():
    with pytest.raises(DailyRefused, match="Only today's deal counts"):
        start("visitor-key", day=TODAY - dt.timedelta(days=1))
    with pytest.raises(DailyRefused, match="not dealt yet"):
        daily_day("2026-12-07", today=TODAY)
    with pytest.raises(DailyRefused, match="is not a day"):
        daily_day("2026-13-01", today=TODAY)
    with pytest.raises(DailyRefused, match="no daily deal for 'pinochle'"):
        daily_variant("pinochle")
    assert DailyDeal.objects.count() == 0


def test_the_counted_attempt_has_no_undo_and_no_second_hand_but_a_practice_one_has_undo(ann):
    ready()
    counted = start(ann)
    game = practice_act(
        game=counted.game, version=counted.game.version, answer=said(counted.game, hinted(counted.game))
    ).game
    with pytest.raises(PracticeRefused, match=DAILY_NO_UNDO):
        practice_undo(game=game, version=game.version)
    game = play_out_hand(game)
    with pytest.raises(PracticeRefused, match=DAILY_ONE_HAND):
        practice_next_hand(game=game, version=game.version)
    daily_note_hand(game=game)

    practice = start(ann, counted=False).game
    moved = practice_act(
        game=practice, version=practice.version, answer=said(practice, hinted(practice))
    ).game
    assert practice_undo(game=moved, version=moved.version).state == practice.state


def test_the_score_is_kept_on_the_attempt_and_outlives_a_visitors_game(ann):
    ready()
    attempt = start("visitor-key")
    assert not daily_note_hand(game=attempt.game)  # not over yet: nothing noted
    game = play_out_hand(attempt.game)
    assert daily_note_hand(game=game)
    assert not daily_note_hand(game=game)  # noted once
    game.delete()  # a visitor's games go with their session
    attempt.refresh_from_db()
    assert attempt.score == game.hands[0]["scores"][0]
    assert from_json(game.state).result is not None


# -- standings, the leaderboard and a player's record ------------------------------------------------


def attempt_at(
    deal: DailyDeal, score: int | None, *, user: User | None = None, guest: str = "", counted: bool = True
) -> DailyAttempt:
    return DailyAttempt.objects.create(deal=deal, user=user, guest=guest, counted=counted, score=score)


def test_a_place_counts_every_account_that_finished_a_counted_attempt(django_user_model):
    deal = ready()
    players = [django_user_model.objects.create_user(f"p{index}") for index in range(5)]
    for user, score in zip(players, [10, 20, 20, 35], strict=False):
        attempt_at(deal, score, user=user)
    attempt_at(deal, None, user=players[4])  # still playing
    attempt_at(deal, 99, user=players[0], counted=False)  # practice never counts

    assert standing(deal, 20).players == 4
    assert standing(deal, 20).percentile == 75  # as well as or better than 3 of 4
    assert standing(deal, 35).percentile == 100


def test_visitors_play_unranked_each_new_browser_a_counted_attempt_of_its_own(django_user_model):
    """A visitor is a browser: a fresh one is another visitor, so visitors' scores never count among
    the players' (their place, the players' number, the archive's)."""
    deal = ready()
    attempt_at(deal, 20, user=django_user_model.objects.create_user("ann"))
    for index in range(5):
        attempt_at(deal, 60, guest=f"fresh browser {index}")

    assert standing(deal, 20).players == 1
    assert standing(deal, 20).percentile == 100
    (day,) = archive(Who(None, "fresh browser 0"), [TODAY])
    assert day.players == {"classic": 1}


def test_racing_starts_of_one_account_make_one_counted_attempt(ann, monkeypatch):
    """Tabs started at once each find no counted attempt yet: the database lets one be stored."""
    ready()
    found = iter([None, None])  # both tabs looked before either stored its attempt
    real = services_daily.counted_attempt
    monkeypatch.setattr(services_daily, "counted_attempt", lambda who, deal: next(found, real(who, deal)))
    first = start(ann)
    with pytest.raises(DailyAlreadyStarted) as raised:
        start(ann)
    assert raised.value.attempt.pk == first.pk
    assert DailyAttempt.objects.filter(counted=True).count() == 1
    assert PracticeGame.objects.count() == 1  # the second tab's game was not kept


def test_the_leaderboard_names_only_accounts_that_chose_to_show_their_name(django_user_model):
    deal = ready()
    shown, hidden, tied = (django_user_model.objects.create_user(name) for name in ("ann", "bo", "cy"))
    for user in (shown, tied):
        daily_show_name(user=user, show=True)
    attempt_at(deal, 30, user=shown)
    attempt_at(deal, 50, user=hidden)
    attempt_at(deal, 30, user=tied)
    attempt_at(deal, 60, guest="a visitor")

    board = leaderboard(deal, Who(shown))

    assert [(row.place, row.name, row.score, row.yours) for row in board] == [
        (1, "ann", 30, True),
        (1, "cy", 30, False),
    ]
    daily_show_name(user=shown, show=False)
    assert [row.name for row in leaderboard(deal, Who(shown))] == ["cy"]


def test_a_streak_runs_to_today_or_yesterday_and_stops_at_a_missed_day():
    day = TODAY
    back = [day - dt.timedelta(days=n) for n in range(5)]
    assert streak_of([back[0], back[1], back[2], back[4]], day) == 3
    assert streak_of([back[1], back[2]], day) == 2  # today not played yet: the streak still stands
    assert streak_of([back[2], back[3]], day) == 0
    assert streak_of([], day) == 0


def test_the_record_averages_the_last_30_days_against_the_expert(ann):
    for days_ago, score, expert in ((0, 30, 20), (1, 10, 20), (29, 25, 20), (30, -100, 20)):
        deal = ready(TODAY - dt.timedelta(days=days_ago), expert=expert)
        attempt_at(deal, score, user=ann)
    attempt_at(ready(TODAY - dt.timedelta(days=2), variant="six-handed"), 80, user=ann, counted=False)

    record = record_of(Who(ann), TODAY)

    assert record.hands == 3  # the day 30 days back and the practice play are left out
    assert record.average_gap == pytest.approx(5 / 3)  # (+10 −10 +5) / 3
    assert record.streak == 2
