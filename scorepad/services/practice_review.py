"""Practice that teaches: a hand's review, the duplicate against the expert, and replaying a deal.

A review (``engine/review.py``) costs about a second of CPU a hand; it is never worked out in one
request. ``practice_review_work`` does one slice of it (``SLICE_CPU_SECONDS``) with no
transaction open, then saves the progress on the game with a conditional update on
``review_version``: two requests working at once cannot both save (the slower one's slice is
dropped and done again), and the table's own ``version`` never moves, so an open table is never
made stale by a review. The work is deterministic (engine/review.py), so where the slices fall
changes nothing. Once every decision is weighed, one more slice plays the deal with the expert
in the player's seat (``expert_duplicate``), the other seats played by the game's own bots.

A replay (``practice_replay``) is a new game that starts at the replayed hand: the same cards
(from the hand's §9.5 log), the same bots and the same seed, so the bots play as they did while
the player plays as they did; it names the game and hand it replays, and statistics keep it apart.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from .. import bot_pool
from ..engine.game import from_json, to_json
from ..engine.log import ReplayError, deal_logged
from ..engine.review import REVIEW_PLAYOUTS
from ..engine.simulate import GameStopped
from ..models import PracticeGame
from ..selectors.practice_review import HandReview, NoSuchHand, hand_log, stored_review
from . import ServiceError
from .practice import BOTS_BUSY, BOTS_GONE, PracticeAlreadyStarted

SLICE_CPU_SECONDS = 0.4  # CPU one request spends on a review before it answers "working…"


class ReviewRefused(ServiceError):
    """No such hand to review or replay; nothing was changed."""


def practice_review_work(*, game: PracticeGame, hand: int, cpu_seconds: float | None = None) -> HandReview:
    """One slice more of hand ``hand``'s review (``cpu_seconds``, else ``SLICE_CPU_SECONDS``),
    saved on the game; the review as it stands. While the bots are busy at other tables, the
    review as it stands (the page asks again).

    The slice is thought where ``bot_pool`` says, with no transaction open; the save is one
    conditional update.
    """
    if cpu_seconds is None:
        cpu_seconds = SLICE_CPU_SECONDS
    game = PracticeGame.objects.get(pk=game.pk)
    review = _stored(game, hand)
    if review.done:
        return review
    try:
        worked = bot_pool.review_slice(
            review.line,
            _seed(game, hand),
            tuple(v.to_json() for v in review.verdicts),
            review.finished,
            cpu_seconds,
            game.strength,
            game.seed,
            REVIEW_PLAYOUTS,
        )
    except bot_pool.BotsBusy:
        return review
    except bot_pool.BrokenProcessPool:
        raise ReviewRefused(BOTS_GONE) from None
    except GameStopped as error:  # a bug in a bot of ours, never the player's doing
        raise ReviewRefused(f"A bot broke the rules ({error}); nothing was changed.") from None
    saved: dict[str, Any] = {
        "log": review.line,  # what was reviewed: an undone and replayed hand is reviewed anew
        "verdicts": list(worked.verdicts),
        "finished": worked.finished,
        "duplicate": worked.duplicate if worked.duplicate is not None else review.duplicate,
        "cpu": round(review.cpu_seconds + worked.cpu_seconds, 3),
    }
    _save_review(game, hand, saved)
    return _stored(PracticeGame.objects.get(pk=game.pk), hand)


def _stored(game: PracticeGame, hand: int) -> HandReview:
    try:
        return stored_review(game, hand)
    except NoSuchHand as error:
        raise ReviewRefused(str(error)) from None


def _seed(game: PracticeGame, hand: int) -> str:
    return f"{game.seed}:{hand}"


@transaction.atomic
def _save_review(game: PracticeGame, hand: int, saved: dict[str, Any]) -> bool:
    """Save one slice if nobody saved since ``game`` was read; whether it was saved."""
    reviews = {**game.reviews, str(hand): saved}
    changed = PracticeGame.objects.filter(pk=game.pk, review_version=game.review_version).update(
        reviews=reviews, review_version=game.review_version + 1
    )
    return bool(changed)


# -- replaying a deal ---------------------------------------------------------------------------


def practice_replay(
    *, game: PracticeGame, hand: int, user: User | None, start_token: str | None
) -> PracticeGame:
    """A new game that plays ``game``'s hand ``hand`` again: same cards, bots and seed.

    ``start_token`` (the replay form's one-time token) makes one game of a form sent twice.
    """
    if start_token and (started := PracticeGame.objects.filter(start_token=start_token).first()):
        raise PracticeAlreadyStarted(started)
    try:
        line = hand_log(game, hand)
        state = deal_logged(line)
    except NoSuchHand as error:
        raise ReviewRefused(str(error)) from None
    except ReplayError as error:
        raise ReviewRefused(f"That hand cannot be replayed: {error}.") from None
    if state.decision is None:
        raise ReviewRefused("That deal was thrown in before anyone bid: there is nothing to replay.")
    state.first_dealer = from_json(game.state).first_dealer
    replay = PracticeGame(
        user=user if user is not None and user.is_authenticated else None,
        variant=game.variant,
        settings=game.settings,
        strength=game.strength,
        seed=game.seed,
        state={},
        start_token=start_token or None,
        replay_of=game,
        replay_hand=hand,
    )
    try:
        played = bot_pool.play_on(to_json(state), replay.strength, replay.seed)
    except GameStopped as error:
        raise ReviewRefused(f"A bot broke the rules ({error}); nothing was changed.") from None
    except bot_pool.BotsBusy:
        raise ReviewRefused(BOTS_BUSY) from None
    except bot_pool.BrokenProcessPool:
        raise ReviewRefused(BOTS_GONE) from None
    replay.state = played.state
    replay.version = 1
    return _save_replay(replay, start_token)


@transaction.atomic
def _save_replay(replay: PracticeGame, start_token: str | None) -> PracticeGame:
    try:
        with transaction.atomic():
            replay.save()
    except IntegrityError:
        if not start_token:
            raise
        raise PracticeAlreadyStarted(PracticeGame.objects.get(start_token=start_token)) from None
    return replay
