from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..selectors.access import households_for_user
from ..selectors.games import current_games


def home(request: HttpRequest) -> HttpResponse:
    """The front page; a member sees the latest game still going, to carry on in one tap."""
    current = current_games(households_for_user(request.user)).first()
    return render(request, "scorepad/home.html", {"current_game": current})
