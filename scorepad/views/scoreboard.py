"""Live scoreboards: the read-only page a shared link opens, sharing it, and the game page's updates.

Phones poll (htmx ``every 1s``) with the fingerprint of what they show (``?since=``): an unchanged
game is a bodiless 204, which htmx leaves alone; a changed one gets the fresh partial. One SQLite
file needs nothing more: no socket server, no message queue.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_safe

from ..models import Game
from ..selectors.access import get_game_for_user
from ..selectors.games import Scoresheet, club_table_of, scoresheet
from ..selectors.live import POLL_SECONDS, active_links, game_fingerprint, shared_game, sheet_fingerprint
from ..services import ServiceError
from ..services.scoreboards import scoreboard_link_create, scoreboard_link_revoke
from .rendering import HtmxHttpRequest, page_or_partial, signed_in

RECENT_HANDS = 5  # the last hands a scoreboard lists, newest first


def _unchanged(request: HtmxHttpRequest, game: Game) -> bool:
    """The phone asking already shows the game as it is (the cheap check: nothing is scored)."""
    since = request.GET.get("since")
    return bool(since) and since == game_fingerprint(game)


def _board_context(sheet: Scoresheet, *, poll_url: str) -> dict[str, Any]:
    """What a scoreboard shows: totals, who deals, the last hands and the chart; no actions."""
    return {
        "sheet": sheet,
        "recent": sheet.rows[::-1][:RECENT_HANDS],
        "poll_url": poll_url,
        "since": sheet_fingerprint(sheet),
        "poll_seconds": POLL_SECONDS,
    }


@require_safe  # GET, and HEAD for a messaging app checking the link it is about to show
def scoreboard(request: HtmxHttpRequest, share_token: str) -> HttpResponse:
    """The shared link: anyone may watch; a wrong or stopped token is a 404 and names nothing."""
    game = shared_game(share_token)
    if _unchanged(request, game):
        return HttpResponse(status=204)  # htmx swaps nothing
    big = request.GET.get("big") == "1"
    poll_url = reverse("scoreboard", args=[share_token]) + ("?big=1&" if big else "?")
    context = {**_board_context(scoresheet(game), poll_url=poll_url), "big": big, "token": share_token}
    response = page_or_partial(request, "scorepad/scoreboard.html", "board", context)
    response["X-Robots-Tag"] = "noindex"
    return response


@login_required
def game_share(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET: the game's scoreboard link, if any; POST makes one, or stops the one it names."""
    game = get_game_for_user(request.user, game_id)
    if request.method == "POST":
        if "revoke" in request.POST:
            _revoke(request, game)
        else:
            scoreboard_link_create(game=game, user=signed_in(request))
        return redirect("game_share", game_id=game.pk)
    links = [
        (link, request.build_absolute_uri(reverse("scoreboard", args=[link.token])))
        for link in active_links(game)
    ]
    return render(request, "scorepad/game_share.html", {"game": game, "links": links})


def _revoke(request: HtmxHttpRequest, game: Game) -> None:
    try:
        link_id = int(request.POST["revoke"])
    except ValueError:
        messages.error(request, "That is not a link of this game.")
        return
    try:
        scoreboard_link_revoke(game=game, link_id=link_id)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Sharing stopped: the link now leads nowhere.")


@login_required
@require_GET
def game_live(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game page's poll: 204 if nothing changed, else its scoreboard, hand table and chart.

    Only those parts are replaced (the page selects them by id), never the hand form a scorekeeper
    may be typing into; if that form is now for a hand already recorded, the status line says so.
    """
    game = get_game_for_user(request.user, game_id)
    if _unchanged(request, game):
        return HttpResponse(status=204)  # htmx swaps nothing
    try:
        form_number: int | None = int(request.GET.get("number", ""))
    except ValueError:
        form_number = None
    context = {
        "sheet": scoresheet(game),
        "game": game,
        "form_number": form_number,
        "club_table": club_table_of(game),
    }
    return render(request, "scorepad/live_game.html", context)
