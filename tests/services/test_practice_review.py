"""Practice that teaches: a hand's review is worked out in slices and kept on the game; a deal
replays with the same cards; statistics keep replays apart."""

from __future__ import annotations

import pytest

from scorepad.engine import review as engine_review
from scorepad.engine.game import from_json
from scorepad.engine.log import replay_hand
from scorepad.models import PracticeGame
from scorepad.selectors.practice import practice_statistics
from scorepad.services.practice import PracticeAlreadyStarted, practice_start
from scorepad.services.practice_review import (
    ReviewRefused,
    practice_replay,
    practice_review_work,
    stored_review,
)
from tests.services.test_practice import play_out_hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_review, "REVIEW_PLAYOUTS", 24)
    monkeypatch.setattr("scorepad.services.practice_review.REVIEW_PLAYOUTS", 24)


def finished_hand(variant: str = "classic", seed: int = 4) -> PracticeGame:
    return play_out_hand(practice_start(user=None, variant_id=variant, seed=seed))


def test_a_finished_hand_keeps_its_log_which_replays():
    game = finished_hand()
    line = game.hands[0]["log"]
    assert replay_hand(line) == line


def test_a_review_fills_in_slice_by_slice_without_moving_the_table_version():
    game = finished_hand()
    version = game.version
    first = practice_review_work(game=game, hand=0, cpu_seconds=0.0)
    assert len(first.verdicts) == 1
    assert not first.done
    slices = 1
    review = first
    while not review.done:
        review = practice_review_work(game=game, hand=0, cpu_seconds=0.0)
        slices += 1
    assert slices == len(review.verdicts) + 1  # one decision a slice, then the duplicate
    game.refresh_from_db()
    assert game.version == version
    assert game.reviews["0"]["finished"] is True
    assert review.duplicate["dealt"] == review.line["dealt"]
    again = practice_review_work(game=game, hand=0)  # done: read from the cache, nothing worked out
    assert again.verdicts == review.verdicts
    assert again.cpu_seconds == review.cpu_seconds


def test_a_hand_undone_and_played_differently_is_reviewed_anew():
    game = finished_hand()
    practice_review_work(game=game, hand=0, cpu_seconds=0.0)
    game.refresh_from_db()
    assert len(game.reviews["0"]["verdicts"]) == 1
    other = {**game.hands[0]["log"], "tricks": []}  # as if the hand had ended otherwise
    PracticeGame.objects.filter(pk=game.pk).update(hands=[{**game.hands[0], "log": other}])
    game.refresh_from_db()
    assert stored_review(game, 0).verdicts == ()


def test_a_hand_still_being_played_has_no_review():
    game = practice_start(user=None, variant_id="classic", seed=4)
    with pytest.raises(ReviewRefused):
        practice_review_work(game=game, hand=0)


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_a_replayed_deal_deals_the_same_cards_with_the_same_bots(variant):
    game = finished_hand(variant)
    replay = practice_replay(game=game, hand=0, user=None, start_token="t1")
    state = from_json(replay.state)
    original = game.hands[0]["log"]
    assert state.to_json()["dealt"] == original["dealt"]
    assert state.auction == [tuple(call) for call in original["auction"][: len(state.auction)]]
    assert state.to_act == 0
    assert (replay.replay_of, replay.replay_hand, replay.seed) == (game, 0, game.seed)
    played_again = play_out_hand(replay)
    assert played_again.hands[0]["log"] == original  # same player answers: the very same hand


def test_a_replay_form_sent_twice_makes_one_game():
    game = finished_hand()
    first = practice_replay(game=game, hand=0, user=None, start_token="same")
    with pytest.raises(PracticeAlreadyStarted) as refused:
        practice_replay(game=game, hand=0, user=None, start_token="same")
    assert refused.value.game == first
    assert PracticeGame.objects.filter(replay_of=game).count() == 1


def test_statistics_count_first_tries_and_keep_replays_apart():
    game = finished_hand()
    replay = play_out_hand(practice_replay(game=game, hand=0, user=None, start_token="s"))
    stats = practice_statistics([game, replay])
    assert stats.games == 1
    assert stats.hands == 1
    assert stats.replays == 1


def test_a_review_saved_before_charges_were_bounded_is_weighed_again():
    game = finished_hand()
    practice_review_work(game=game, hand=0, cpu_seconds=0.0)
    game.refresh_from_db()
    saved = game.reviews["0"]
    assert {"gap", "cap"} <= set(saved["verdicts"][0])  # each charge kept beside its bound
    unbounded = [
        {k: v for k, v in verdict.items() if k not in ("gap", "cap")} for verdict in saved["verdicts"]
    ]
    PracticeGame.objects.filter(pk=game.pk).update(reviews={"0": {**saved, "verdicts": unbounded}})
    game.refresh_from_db()
    assert stored_review(game, 0).verdicts == ()  # not shown with an unbounded figure: worked out anew
    again = practice_review_work(game=game, hand=0, cpu_seconds=0.0)
    assert all(v.lost <= v.cap for v in again.verdicts)
