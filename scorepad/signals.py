"""Signal receivers, connected by ``ScorepadConfig.ready``.

They live apart from the views, and import what they use when they run: starting Django (every
``manage.py`` command, every gunicorn worker) then loads neither the views, the services nor the bots.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest


@receiver(user_logged_in)
def claim_practice_games_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """The games a visitor started in this browser become the user's, so history counts them."""
    from .selectors.practice import SESSION_KEY
    from .services.practice import practice_claim

    if request is not None and hasattr(request, "session"):
        ids = request.session.pop(SESSION_KEY, [])
        if ids:
            practice_claim(user=user, ids=ids)
