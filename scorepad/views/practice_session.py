"""Whose practice games a browser may reach: the logged-in user's, or a visitor's through the
session. Shared by the practice and the practice review views."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from ..models import PracticeGame
from ..selectors.practice import SESSION_KEY
from ..services.practice import practice_drop_visitor_games


def session_user(request: HttpRequest) -> Any:
    """The logged-in user, or None for a visitor (whose games are theirs through the session)."""
    return request.user if request.user.is_authenticated else None


def remember_game(request: HttpRequest, game: PracticeGame) -> None:
    """A visitor's games are theirs through the session (kept across logging in), the newest
    ``PRACTICE_GAMES_PER_VISITOR`` of them: an older one is deleted at once, as nobody can reach it."""
    ids = request.session.get(SESSION_KEY, [])
    if game.user_id is None and game.pk not in ids:
        cut = max(0, len(ids) - (settings.PRACTICE_GAMES_PER_VISITOR - 1))
        dropped, kept = ids[:cut], ids[cut:]
        request.session[SESSION_KEY] = [*kept, game.pk]
        if dropped:
            practice_drop_visitor_games(ids=dropped)
