from django.http import HttpResponse
from django.shortcuts import render

from ..selectors.access import households_for_user
from ..selectors.games import latest_current_game
from .rendering import HtmxHttpRequest


def home(request: HtmxHttpRequest) -> HttpResponse:
    """The front page; a member sees the latest game still going, to carry on in one tap."""
    current = latest_current_game(households_for_user(request.user))
    return render(request, "scorepad/home.html", {"current_game": current})
