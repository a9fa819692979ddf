"""Practice that teaches: review a hand, replay its deal, step through it, download its log.

The review page works out one slice of the review per request (``practice_review_work``) and,
while it is not done, shows "working…" with an htmx poll (``hx-trigger="load delay:1s"``) that asks
again; without JavaScript a Refresh link does the same. The step-through is a plain link per
trick (htmx swaps just the board). Replaying posts a one-time token, so a form sent twice makes
one game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ..engine.log import dumps
from ..forms.practice import STALE_REPLAY, ReplayForm, new_start_token
from ..pages.practice_review import review_page, step_board
from ..selectors.practice import get_practice_for_request
from ..selectors.practice_review import NoSuchHand, hand_log
from ..services.practice import PracticeAlreadyStarted
from ..services.practice_review import ReviewRefused, practice_replay, practice_review_work
from .limits import limited
from .practice_session import form_holder, holds_forms, remember_game, session_user
from .rendering import HtmxHttpRequest, go_to, page_or_partial
from .thinking import pays_for_thinking

REVIEW = "scorepad/practice_review.html"
STEP = "scorepad/practice_step.html"


View = Callable[[HtmxHttpRequest, int, int], HttpResponse]


def back_to_the_game_when_refused(view: View) -> View:
    """A hand that cannot be reviewed, stepped through, downloaded or replayed (not over yet, no
    log, not in the game) goes back to the game with the reason in words."""

    @wraps(view)
    def answer(request: HtmxHttpRequest, practice_id: int, hand: int) -> HttpResponse:
        try:
            return view(request, practice_id, hand)
        except (ReviewRefused, NoSuchHand) as error:
            messages.error(request, str(error))
            return go_to(request, reverse("practice_game", args=[practice_id]))

    return answer


@require_GET
@limited("practice-review")
@pays_for_thinking
@holds_forms
@back_to_the_game_when_refused
def practice_review_view(request: HtmxHttpRequest, practice_id: int, hand: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    review = practice_review_work(game=game, hand=hand)
    context = {
        "practice": game,
        "review": review_page(review),
        "replay_token": new_start_token(form_holder(request)),
    }
    return page_or_partial(request, REVIEW, "review", context)


@require_GET
@back_to_the_game_when_refused
def practice_step_view(request: HtmxHttpRequest, practice_id: int, hand: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    line = hand_log(game, hand)
    try:
        step = int(request.GET.get("trick", "0"))
    except ValueError:
        step = 0
    context = {"practice": game, "board": step_board(line, step)}
    return page_or_partial(request, STEP, "board", context)


@require_GET
@back_to_the_game_when_refused
def practice_log_view(request: HtmxHttpRequest, practice_id: int, hand: int) -> HttpResponse:
    """The hand's RULES §9.5 log line, as a download."""
    game = get_practice_for_request(request, practice_id)
    line = hand_log(game, hand)
    response = HttpResponse(dumps(line) + "\n", content_type="application/x-ndjson; charset=utf-8")
    name = f"practice-{game.pk}-hand-{hand + 1}.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_POST
@limited("practice-start")
@pays_for_thinking
@holds_forms
@back_to_the_game_when_refused
def practice_replay_view(request: HtmxHttpRequest, practice_id: int, hand: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    form = ReplayForm(request.POST, holder=form_holder(request))
    if not form.is_valid():  # not a token this browser was shown: checked before the database sees it
        messages.error(request, STALE_REPLAY)
        return go_to(request, reverse("practice_review", args=[game.pk, hand]))
    try:
        replay = practice_replay(
            game=game, hand=hand, user=session_user(request), start_token=form.cleaned_data["start_token"]
        )
    except PracticeAlreadyStarted as error:
        replay = error.game
        messages.info(request, "That replay was already started: the form was sent twice. Here it is.")
    remember_game(request, replay)
    return go_to(request, reverse("practice_game", args=[replay.pk]))
