"""Puzzles: a position from the bots' hands where one answer is clearly best (``find_puzzles``).

The puzzle page is the practice table frozen at the position; the answer is a plain form naming
the puzzle and its position, judged against the shipped answer (no search: the page answers at
once). Answers are limited as practice moves are; an answer for another puzzle, from a changed
position, or one the rules do not allow is refused in words and counts nothing. A visitor is given
a puzzle rating (a key in their session) at their first answer only if their browser sent back the
cookie the puzzle's page set, and only so many new visitors a network may start (as sign-ups):
otherwise the answer is judged and shown, and nothing is written.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import throttle
from ..engine.puzzles import Puzzle
from ..engine.variants import VARIANTS
from ..pages.puzzles import difficulty_words, puzzle_result, puzzle_table, read_answer
from ..selectors.puzzles import (
    answered,
    history,
    next_puzzle,
    player_rating,
    puzzle_by_key,
    puzzle_of_the_day,
    puzzle_player,
    puzzle_rating,
    puzzle_variants,
    ratings_of,
)
from ..services import ServiceError
from ..services.puzzles import puzzle_answer, puzzle_judge
from .limits import limited
from .rendering import HtmxHttpRequest

TEMPLATE = "scorepad/puzzle.html"
GUEST_KEY = "puzzle_guest"  # a visitor's puzzle ratings and history are theirs, by this session key
SEEN_COOKIE = "puzzles"  # set by a puzzle's page for a visitor with no puzzle rating yet
SEEN_COOKIE_DAYS = 400
NO_COOKIES = (
    "Your browser sent no cookies, so this answer was not counted: allow cookies for this site to "
    "keep a puzzle rating."
)
NO_PUZZLE = "There is no puzzle with that name: it may have been renamed. Try the puzzle of the day."
NO_VARIANT = "There are no puzzles for that game. Choose one of the games listed."


def _guest(request: HtmxHttpRequest) -> str:
    guest = request.session.get(GUEST_KEY, "")
    return guest if isinstance(guest, str) else ""


def _refused(request: HtmxHttpRequest, words: str, status: int) -> HttpResponse:
    return render(request, "scorepad/puzzle_missing.html", {"refusal": words}, status=status)


def puzzles_home(request: HtmxHttpRequest) -> HttpResponse:
    """The puzzle of the day, a run at your level in each game, your ratings."""
    today = puzzle_of_the_day(timezone.localdate())
    context = {
        "today": today,
        "today_variant": VARIANTS[today.variant].label if today else "",
        "variants": [(v, VARIANTS[v].label) for v in puzzle_variants()],
        "ratings": ratings_of(request.user, _guest(request)),
    }
    return render(request, "scorepad/puzzles.html", context)


def puzzle_today(request: HtmxHttpRequest) -> HttpResponse:
    today = puzzle_of_the_day(timezone.localdate())
    if today is None:
        return _refused(request, NO_PUZZLE, 404)
    return redirect("puzzle", today.key)


def puzzle_run(request: HtmxHttpRequest, variant: str) -> HttpResponse:
    """The next puzzle near the player's rating in ``variant``, not yet answered."""
    if variant not in puzzle_variants():
        return _refused(request, NO_VARIANT, 404)
    player = puzzle_player(request.user, _guest(request), variant)
    found = next_puzzle(variant, player, after=request.GET.get("after", ""))
    if found is None:
        return _refused(request, NO_VARIANT, 404)
    return redirect(reverse("puzzle", args=[found.key]) + "?run=1")


def puzzle_view(request: HtmxHttpRequest, key: str) -> HttpResponse:
    puzzle = puzzle_by_key(key)
    if puzzle is None:
        return _refused(request, NO_PUZZLE, 404)
    response = _page(request, puzzle)
    if not request.user.is_authenticated and not _guest(request) and SEEN_COOKIE not in request.COOKIES:
        # A cookie, not a session row: an answer that brings it back comes from a browser that keeps them.
        response.set_cookie(
            SEEN_COOKIE,
            "1",
            max_age=SEEN_COOKIE_DAYS * 86_400,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


@require_POST
@limited("practice-move")
def puzzle_answer_view(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Judge the answer; the first to this puzzle moves the ratings. Refused in words: nothing counts."""
    puzzle = puzzle_by_key(key)
    if puzzle is None:
        return _refused(request, NO_PUZZLE, 404)
    answer, refusal = read_answer(puzzle, request.POST)
    if refusal:
        return _page(request, puzzle, refused=refusal, status=400)
    not_counted = "" if request.user.is_authenticated or _guest(request) else _new_guest_refusal(request)
    try:
        if not_counted:
            outcome = puzzle_judge(puzzle=puzzle, answer=answer)
        else:
            if not request.user.is_authenticated and not _guest(request):
                request.session[GUEST_KEY] = secrets.token_urlsafe(24)
            outcome = puzzle_answer(puzzle=puzzle, answer=answer, user=request.user, guest=_guest(request))
    except ServiceError as error:
        return _page(request, puzzle, refused=str(error), status=400)
    result = puzzle_result(
        puzzle,
        answer,
        solved=outcome.solved,
        counted=outcome.counted,
        rating=outcome.rating_after,
        change=outcome.change,
        not_counted=not_counted,
    )
    return _page(request, puzzle, result=result)


def _new_guest_refusal(request: HtmxHttpRequest) -> str:
    """Why a visitor with no puzzle rating yet is not given one now (their answer is judged only):
    their browser sent back no cookie from the puzzle's page (a script that drops them would make
    a session row at every answer), or too many new visitors came from their network."""
    if SEEN_COOKIE not in request.COOKIES:
        return NO_COOKIES
    return throttle.puzzle_guest_refusal(request) or ""


def puzzle_history(request: HtmxHttpRequest) -> HttpResponse:
    guest = _guest(request)
    tries = history(request.user, guest)
    rows = [(t, puzzle_by_key(t.key)) for t in tries]
    context = {"rows": rows, "ratings": ratings_of(request.user, guest), "variants": dict(VARIANTS)}
    return render(request, "scorepad/puzzle_history.html", context)


def _page(
    request: HtmxHttpRequest, puzzle: Puzzle, *, refused: str = "", result: object = None, status: int = 200
) -> HttpResponse:
    player = puzzle_player(request.user, _guest(request), puzzle.variant)
    before = answered(player, puzzle.key) if result is None else None
    rating = puzzle_rating(puzzle)
    context = {
        "table": puzzle_table(puzzle),
        "puzzle": puzzle,
        "variant": VARIANTS[puzzle.variant],
        "difficulty": difficulty_words(puzzle.difficulty),
        "puzzle_rating": round(rating.rating),
        "player_rating": round(player_rating(player)),
        "refused": refused,
        "result": result,
        "answered_before": before,
        "run": request.GET.get("run") == "1" or request.POST.get("run") == "1",
    }
    return render(request, TEMPLATE, context, status=status)
