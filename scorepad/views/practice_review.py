"""Practice that teaches: review a hand, replay its deal, step through it, download its log.

The review page works out one slice of the review per request (``practice_review_work``) and,
while it is not done, shows "working…" with an htmx poll (``hx-trigger="load delay:1s"``) that asks
again; without JavaScript a Refresh link does the same. The step-through is a plain link per
trick (htmx swaps just the board). Replaying posts a one-time token, so a form sent twice makes
one game.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ..engine.log import dumps
from ..models import PracticeGame
from ..selectors.practice import get_practice_for_request
from ..selectors.practice_review import review_page, step_board
from ..services.practice import PracticeAlreadyStarted
from ..services.practice_review import ReviewRefused, hand_log, practice_replay, practice_review_work
from .practice_session import remember_game, session_user
from .rendering import go_to, page_or_partial

REVIEW = "scorepad/practice_review.html"
STEP = "scorepad/practice_step.html"


@require_GET
def practice_review_view(request: HttpRequest, practice_id: int, hand: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    try:
        review = practice_review_work(game=game, hand=hand)
    except ReviewRefused as error:
        return _no_hand(request, game.pk, str(error))
    context = {
        "practice": game,
        "review": review_page(review),
        "replay_token": secrets.token_urlsafe(24),
    }
    return page_or_partial(request, REVIEW, "review", context)


@require_GET
def practice_step_view(request: HttpRequest, practice_id: int, hand: int) -> HttpResponse:
    game, line, refused = _game_and_log(request, practice_id, hand)
    if line is None:
        return _no_hand(request, game.pk, refused)
    try:
        step = int(request.GET.get("trick", "0"))
    except ValueError:
        step = 0
    context = {"practice": game, "board": step_board(line, step)}
    return page_or_partial(request, STEP, "board", context)


@require_GET
def practice_log_view(request: HttpRequest, practice_id: int, hand: int) -> HttpResponse:
    """The hand's RULES §9.5 log line, as a download."""
    game, line, refused = _game_and_log(request, practice_id, hand)
    if line is None:
        return _no_hand(request, game.pk, refused)
    response = HttpResponse(dumps(line) + "\n", content_type="application/x-ndjson; charset=utf-8")
    name = f"practice-{game.pk}-hand-{hand + 1}.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_POST
def practice_replay_view(request: HttpRequest, practice_id: int, hand: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    try:
        replay = practice_replay(
            game=game, hand=hand, user=session_user(request), start_token=request.POST.get("start_token")
        )
    except PracticeAlreadyStarted as error:
        replay = error.game
        messages.info(request, "That replay was already started: the form was sent twice. Here it is.")
    except ReviewRefused as error:
        messages.error(request, str(error))
        return go_to(request, reverse("practice_game", args=[game.pk]))
    remember_game(request, replay)
    return go_to(request, reverse("practice_game", args=[replay.pk]))


def _game_and_log(
    request: HttpRequest, practice_id: int, hand: int
) -> tuple[PracticeGame, dict[str, Any] | None, str]:
    """The request's game (else 404), its hand's §9.5 line, and why there is none when None."""
    game = get_practice_for_request(request, practice_id)
    try:
        return game, hand_log(game, hand), ""
    except ReviewRefused as error:
        return game, None, str(error)


def _no_hand(request: HttpRequest, practice_id: int, reason: str) -> HttpResponse:
    messages.error(request, reason)
    return go_to(request, reverse("practice_game", args=[practice_id]))
