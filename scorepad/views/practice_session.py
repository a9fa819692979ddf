"""Whose practice games a browser may reach: the logged-in user's, or a visitor's through the
session. Shared by the practice and the practice review views."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpResponse

from ..models import PracticeGame
from ..selectors.practice import SESSION_KEY
from ..services.practice import practice_drop_visitor_games
from .rendering import HtmxHttpRequest


def session_user(request: HtmxHttpRequest) -> Any:
    """The logged-in user, or None for a visitor (whose games are theirs through the session)."""
    return request.user if request.user.is_authenticated else None


def remember_game(request: HtmxHttpRequest, game: PracticeGame) -> None:
    """A visitor's games are theirs through the session (kept across logging in), the newest
    ``PRACTICE_GAMES_PER_VISITOR`` of them: an older one is deleted at once, as nobody can reach it."""
    ids = request.session.get(SESSION_KEY, [])
    if game.user_id is None and game.pk not in ids:
        cut = max(0, len(ids) - (settings.PRACTICE_GAMES_PER_VISITOR - 1))
        dropped, kept = ids[:cut], ids[cut:]
        request.session[SESSION_KEY] = [*kept, game.pk]
        if dropped:
            practice_drop_visitor_games(ids=dropped)


# -- whom a one-time form token is signed for ---------------------------------------------------

HOLDER_COOKIE = "practice_holder"
_HOLDER = re.compile(r"[A-Za-z0-9_-]{32}")


def holds_forms[FormView: Callable[..., HttpResponse]](view: FormView) -> FormView:
    """A view that shows or takes a one-time form token (the start form, the replay button): a
    browser without a holder cookie gets one with the answer.

    The tokens are signed for this cookie, not for the session's key: a look at the start form
    must not write a session row. A browser that sends the form has a session from then on, made
    before the view's limits count it (put this decorator above ``limited``)."""

    @wraps(view)
    def answer(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and request.session.session_key is None:
            request.session.save()
            request.session.modified = True  # so the answer sets its cookie
        made = not _HOLDER.fullmatch(request.COOKIES.get(HOLDER_COOKIE, ""))
        if made:
            request.COOKIES[HOLDER_COOKIE] = secrets.token_urlsafe(24)
        response = view(request, *args, **kwargs)
        if made:
            response.set_cookie(
                HOLDER_COOKIE,
                request.COOKIES[HOLDER_COOKIE],
                max_age=settings.SESSION_COOKIE_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response

    return answer  # type: ignore[return-value]  # the same view, with the cookie looked after


def form_holder(request: HtmxHttpRequest) -> str:
    """Whom this browser's form tokens are signed for (a view wrapped in ``holds_forms``)."""
    holder = request.COOKIES.get(HOLDER_COOKIE, "")
    if not _HOLDER.fullmatch(holder):
        raise RuntimeError("form_holder needs a view wrapped in holds_forms")
    return holder
