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

import random
import time
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from ..constants import PLAYER
from ..engine.bots import ExpertBot
from ..engine.game import HandState, from_json, to_json
from ..engine.log import ReplayError, deal_logged, hand_line
from ..engine.review import (
    REVIEW_CAP_MS,
    REVIEW_PLAYOUTS,
    Difference,
    Verdict,
    costliest,
    differences,
    expert_duplicate,
    left_on_table,
    review_hand,
)
from ..engine.simulate import GameStopped, advance_until
from ..models import PracticeGame
from . import ServiceError
from .practice import PracticeAlreadyStarted, practice_bots

SLICE_CPU_SECONDS = 0.4  # CPU one request spends on a review before it answers "working…"


class ReviewRefused(ServiceError):
    """No such hand to review or replay; nothing was changed."""


@dataclass(frozen=True, slots=True)
class HandReview:
    """A hand's review as far as it has been worked out."""

    hand: int
    line: dict[str, Any]  # the hand's §9.5 log line
    verdicts: tuple[Verdict, ...] = ()
    finished: bool = False  # every decision weighed
    cpu_seconds: float = 0.0  # CPU spent on it so far, all slices
    duplicate: dict[str, Any] | None = None  # the expert's play of the deal, a §9.5 line
    differences: tuple[Difference, ...] = field(default=())

    @property
    def done(self) -> bool:
        return self.finished and self.duplicate is not None

    @property
    def left_on_table(self) -> float:
        return left_on_table(self.verdicts)

    @property
    def costliest(self) -> list[Verdict]:
        return costliest(self.verdicts)


def hand_log(game: PracticeGame, hand: int) -> dict[str, Any]:
    """The §9.5 log line of ``game``'s finished hand ``hand`` (numbered from 0), or ReviewRefused."""
    for entry in game.hands:
        if entry.get("hand") == hand:
            line = entry.get("log")
            if line is None:
                raise ReviewRefused("That hand was played before hands were kept for review.")
            return dict(line)
    raise ReviewRefused("That hand is not over yet, or there is no such hand.")


def stored_review(game: PracticeGame, hand: int) -> HandReview:
    """The review as saved on the game (nothing worked out)."""
    line = hand_log(game, hand)
    saved = game.reviews.get(str(hand)) or {}
    if saved.get("log") != line:  # the hand was undone and played again since: start afresh
        saved = {}
    verdicts = tuple(Verdict.from_json(v) for v in saved.get("verdicts", ()))
    duplicate = saved.get("duplicate")
    return HandReview(
        hand=hand,
        line=line,
        verdicts=verdicts,
        finished=bool(saved.get("finished")),
        cpu_seconds=float(saved.get("cpu", 0.0)),
        duplicate=duplicate,
        differences=tuple(differences(line, duplicate, PLAYER)) if duplicate else (),
    )


def practice_review_work(*, game: PracticeGame, hand: int, cpu_seconds: float | None = None) -> HandReview:
    """One slice more of hand ``hand``'s review (``cpu_seconds``, else ``SLICE_CPU_SECONDS``),
    saved on the game; the review as it stands.

    Runs the engine with no transaction open; the save is one conditional update.
    """
    if cpu_seconds is None:
        cpu_seconds = SLICE_CPU_SECONDS
    game = PracticeGame.objects.get(pk=game.pk)
    review = stored_review(game, hand)
    if review.done:
        return review
    started = time.process_time()
    saved: dict[str, Any] = {
        "log": review.line,  # what was reviewed: an undone and replayed hand is reviewed anew
        "verdicts": [v.to_json() for v in review.verdicts],
        "finished": review.finished,
        "duplicate": review.duplicate,
    }
    if not review.finished:
        verdicts, finished = review_hand(
            review.line, PLAYER, seed=_seed(game, hand), done=review.verdicts, cpu_seconds=cpu_seconds
        )
        saved["verdicts"], saved["finished"] = [v.to_json() for v in verdicts], finished
    else:
        saved["duplicate"] = hand_line(_duplicate(game, review.line, hand))
    saved["cpu"] = round(review.cpu_seconds + time.process_time() - started, 3)
    _save_review(game, hand, saved)
    return stored_review(PracticeGame.objects.get(pk=game.pk), hand)


def _seed(game: PracticeGame, hand: int) -> str:
    return f"{game.seed}:{hand}"


def _duplicate(game: PracticeGame, line: dict[str, Any], hand: int) -> HandState:
    """The deal played with the expert in the player's seat and the game's own bots around it."""
    rng = random.Random(f"{_seed(game, hand)}:duplicate")
    expert = ExpertBot(PLAYER, rng, playouts=REVIEW_PLAYOUTS, budget_ms=REVIEW_CAP_MS)
    return expert_duplicate(line, PLAYER, expert, lambda state: practice_bots(game, state))


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
    line = hand_log(game, hand)
    try:
        state = deal_logged(line)
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
        advance_until(state, practice_bots(replay, state), stop_at={PLAYER})
    except GameStopped as error:
        raise ReviewRefused(f"A bot broke the rules ({error}); nothing was changed.") from None
    replay.state = to_json(state)
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
